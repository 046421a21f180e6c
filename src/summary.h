/* summary.h: the JSON summary (`--print --format json`, agentview(1)):
 * every session with its state, prompts, reply, tool calls and usage, the
 * diagnostics and the wrapped command. A printer keeps, as each line is
 * added, what the summary will need of it (made from the model's own parse
 * of the line), so that the summary at the end parses no line again. */
#ifndef AGENTVIEW_SUMMARY_H
#define AGENTVIEW_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "tool.h"
#include "util.h"

/* Bytes [off, off + len) of a buffer; len 0: nothing kept. */
struct span {
	size_t off;
	size_t len;
};

/* What the JSON printer keeps while the lines go by, so that the summary
 * at the end parses none of them again: each piece is made from the
 * model's own parse of a line right after the line was added, and is final
 * by then. Indices are session and call numbers. */
/* A session's reply as it comes: its text decoded, its segments (text
 * items) joined by a blank line. */
struct reply {
	struct buf text;
	uint32_t item; /* the segment being added to, + 1; 0: none yet */
	bool said;     /* that segment has words in text already */
};

struct summary {
	struct reply *text; /* per session */
	size_t ntext, textcap;
	struct span *result; /* per session: its request_id and usage */
	size_t nresult, resultcap;
	struct span *call; /* per completed call: its summary object */
	size_t ncall, callcap;
	struct span *prompt; /* per item: a prompt's text, undecorated */
	size_t nprompt, promptcap;
	struct buf pieces; /* the spans' bytes */
	struct buf tmp;
};

/* Keep what the summary needs of event e, just added to m (e == 0: the
 * model started again, forget everything). td is scratch. */
void summary_line(struct summary *sc, struct model *m, uint32_t e, struct tool_desc *td);
/* The summary, from what sc kept (NULL: from the lines); with f, each
 * session goes out to f as soon as it is made. */
void summary_write(struct model *m, struct summary *sc, struct buf *out, FILE *f);
/* The pieces of the summary, for a summary of many files made one file
 * at a time (the session list's): the diagnostics of m and its session
 * objects, each after a ',' unless *first, each with "file": file when it
 * is not NULL (else, when m read several files, its own). */
void summary_diagnostics(struct model *m, const char *file, struct buf *out, FILE *f, bool *first);
void summary_sessions(struct model *m, struct summary *sc, const char *file, struct buf *out,
		      FILE *f, bool *first);
/* Forget everything kept. */
void summary_free(struct summary *sc);

#endif
