/* compare.h: --compare A B, two runs side by side. Each side is a session
 * of a file (FILE: its newest; FILE#N: its Nth, from 1), read whole; the
 * scorecard says for each its agent and model, state, duration, tokens,
 * cost, tool calls by kind and by state, the files it read and changed,
 * the commands it ran, its failures, its calls as bars on a time axis
 * both share, and where the two first took a different step. Plain text,
 * Markdown or JSON. No curses. */
#ifndef AGENTVIEW_COMPARE_H
#define AGENTVIEW_COMPARE_H

#include <stdio.h>

#include "util.h"

struct compare;
struct format;

/* Compare the sessions named by a and b ("run.ndjson", "runs.ndjson#2"),
 * every line read as agent's (-1: recognised per session), and write the
 * scorecard to out in fmt, by its compare writer (which it must have).
 * Returns the exit status: 0, or 1 with the reason in err (a file that
 * cannot be read, a session that is not there). Whether out was written
 * is its caller's to check (main checks stdout once, at the end). */
int compare_run(const char *a, const char *b, const struct format *fmt, int agent, FILE *out,
		struct buf *err);
/* The scorecard of two sides read, in the formats whose rows name these
 * (print.h): plain text, Markdown, JSON. */
void compare_text(struct compare *c, struct buf *out);
void compare_markdown(struct compare *c, struct buf *out);
void compare_json(struct compare *c, struct buf *out);
/* The file of "FILE#N" into file, and N; -1 when arg names no session (a
 * file of that name exists, or there is no "#N"). */
long compare_split(const char *arg, struct buf *file);

#endif
