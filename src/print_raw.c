/* print_raw.c: `--format raw`: the input stream as it came, byte for byte,
 * also out of a recording (record_raw_line), without a command's stderr. */
#include "print.h"
#include "record.h"

/* Whether s is a command's stderr, which the raw stream leaves out. */
static bool
is_stderr_source(const struct model *m, const struct source *s)
{
	for (size_t i = 0; i < m->nsrc; i++)
		if (m->src[i].src == s)
			return m->src[i].stderr_of != NONE;
	return false;
}

static void
raw_line(struct printer *p, const struct source *s, const struct line *ln)
{
	if (!is_stderr_source(p->m, s))
		record_raw_line(p->out, source_at(s, ln->off), ln->len, ln->terminated);
}

const struct format format_raw = {
	.name = "raw",
	.help = "the original stream, byte for byte, also out of a recording",
	.man = "the original stream, byte for byte, also out of a recording",
	.flags = FMT_VERBATIM,
	.line = raw_line,
};
