/* print.c: the table of formats, what --help and the man page say of
 * them, and the printer that hands each line and event to its format's
 * hooks. What a format writes is in its own file. */
#include "print.h"

#include <stdlib.h>
#include <string.h>

#include "fleet_print.h"
#include "glyph.h"
#include "words.h"

/* The formats, in the order --help names them; the first is the default. */
static const struct format *const formats[] = {
	&format_text, &format_markdown, &format_json, &format_html, &format_raw, &format_rows,
};

_Static_assert(ARRAY_LEN(formats) <= FORMAT_MAX, "FORMAT_MAX is too small");

size_t
format_count(void)
{
	return ARRAY_LEN(formats);
}

const struct format *
format_at(size_t i)
{
	return formats[i];
}

const struct format *
format_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(formats); i++)
		if (strcmp(name, formats[i]->name) == 0 ||
		    (formats[i]->alias != NULL && strcmp(name, formats[i]->alias) == 0))
			return formats[i];
	return NULL;
}

/* Append word w to out, on a new line when the line would pass width. */
static void
add_word(struct buf *out, size_t *line, const char *w, size_t n, size_t width)
{
	if (out->n > *line && out->n - *line + 1 + n > width) {
		buf_addc(out, '\n');
		*line = out->n;
	} else if (out->n > *line) {
		buf_addc(out, ' ');
	}
	buf_add(out, w, n);
}

void
format_help(struct buf *out, size_t width)
{
	struct buf all = {0};
	size_t line = out->n;

	buf_adds(&all, "with --print:");
	for (size_t i = 0; i < ARRAY_LEN(formats); i++) {
		const char *about = i == 0 ? "default" : formats[i]->help;

		buf_addf(&all, " %s", formats[i]->name);
		if (about != NULL)
			buf_addf(&all, " (%s)", about);
		if (i + 1 < ARRAY_LEN(formats))
			buf_addc(&all, ',');
	}
	/* Word-wrapped to width. */
	for (const char *s = all.p, *sp; *s != '\0'; s = *sp != '\0' ? sp + 1 : sp) {
		sp = strchr(s, ' ');
		if (sp == NULL)
			sp = s + strlen(s);
		add_word(out, &line, s, (size_t)(sp - s), width);
	}
	buf_free(&all);
}

void
format_roff(struct buf *out)
{
	size_t n = ARRAY_LEN(formats);

	buf_adds(out, "With\n.BR \\-\\-print :\n");
	for (size_t i = 0; i < n; i++) {
		const char *about = i == 0 ? "default" : formats[i]->man;
		const char *sep = i + 1 < n ? "," : ".", *last;

		if (i + 1 == n && n > 1)
			buf_adds(out, "or\n");
		if (about == NULL) {
			buf_addf(out, ".BR %s %s\n", formats[i]->name, sep);
			continue;
		}
		buf_addf(out, ".B %s\n(%s", formats[i]->name, about);
		/* A macro's line takes what closes it as its own argument. */
		last = strrchr(about, '\n');
		last = last != NULL ? last + 1 : about;
		buf_addf(out, "%s)%s\n", last[0] == '.' ? " " : "", sep);
	}
}

struct printer *
printer_new(struct model *m, const struct format *fmt, FILE *out)
{
	struct printer *p = xcalloc(1, sizeof *p);

	p->fmt = fmt;
	p->m = m;
	p->out = out;
	if (fmt->size > 0)
		p->state = xcalloc(1, fmt->size);
	if (fmt->begin != NULL)
		fmt->begin(p);
	return p;
}

void
printer_free(struct printer *p)
{
	if (p == NULL)
		return;
	if (p->fmt->free != NULL)
		p->fmt->free(p);
	free(p->state);
	free(p);
}

void
printer_line(struct printer *p, const struct source *s, const struct line *ln, uint32_t ev)
{
	const struct format *f = p->fmt;
	const struct event *evs = p->m->ev;
	void (*hook)(struct printer *, uint32_t);
	uint32_t e = ev;

	if (f->line != NULL)
		f->line(p, s, ln);
	if (ev == NONE)
		return;
	/* A line may make several events (Gemini CLI's failed result: a
	 * notice of why, then the end): each, in their order. */
	while (e > 0 && EV_SRC(&evs[e - 1]) == EV_SRC(&evs[ev]) &&
	       EV_OFF(&evs[e - 1]) == EV_OFF(&evs[ev]))
		e--;
	for (; e <= ev; e++) {
		hook = EV_TYPE(&evs[e]) == EV_INIT ? f->session : f->item;
		if (hook != NULL)
			hook(p, e);
	}
}

bool
printer_note(struct printer *p, const char *msg, size_t n)
{
	if (p->fmt->note == NULL)
		return false;
	p->fmt->note(p, msg, n);
	return true;
}

void
printer_finish(struct printer *p)
{
	if (p->fmt->finish != NULL)
		p->fmt->finish(p);
	fflush(p->out);
}

void
printer_aside(struct printer *p, const char *msg)
{
	const struct log_style *st = p->fmt->style;

	if (st == NULL)
		return;
	fprintf(p->out, "%s%s%s\n", st->aside.mark ? st->aside.mark : "", msg,
		st->aside.end ? st->aside.end : "");
}
