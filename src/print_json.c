/* print_json.c: `--format json`: the JSON summary (summary.h) of every
 * session, kept as the lines go by and written at the end; of the session
 * list's files, and of two runs compared, by their writers. */
#include <stdlib.h>

#include "compare.h"
#include "fleet_print.h"
#include "print.h"
#include "summary.h"

/* A printer's: what is kept while the lines go by. */
struct json_printer {
	struct summary sc;
	struct tool_desc td;
	struct buf out;
};

static void
json_event(struct printer *p, uint32_t e)
{
	struct json_printer *j = p->state;

	summary_line(&j->sc, p->m, e, &j->td);
}

static void
json_finish(struct printer *p)
{
	struct json_printer *j = p->state;

	buf_reset(&j->out);
	summary_write(p->m, &j->sc, &j->out, p->out);
	buf_addc(&j->out, '\n');
	fwrite(j->out.p, 1, j->out.n, p->out);
}

static void
json_printer_free(struct printer *p)
{
	struct json_printer *j = p->state;

	summary_free(&j->sc);
	tool_desc_free(&j->td);
	buf_free(&j->out);
}

const struct format format_json = {
	.name = "json",
	.man = "the summary described below",
	.size = sizeof(struct json_printer),
	.session = json_event,
	.item = json_event,
	.finish = json_finish,
	.free = json_printer_free,
	.list = fleet_list_json,
	.change = fleet_change_json,
	.compare = compare_json,
};
