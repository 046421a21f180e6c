/* statusline.h: `agentview --status-line FILE`, one short line about the
 * newest session of a file, for tmux's status-right:
 *
 *     ● Composer 2.5 · 4m05s · 1 running, 12 done, 2 failed · Shell `npm test` 14.2 s
 *
 * state glyph (● live, ✓ ok, ✗ failed, ? incomplete), model, elapsed time
 * (while live: now - start) or duration, tool calls running / done (ok) /
 * failed (failed, error, rejected or orphaned), and then the newest running
 * call with its time, or why the session failed. Event text is sanitized
 * and cut short; with SL_TMUX the glyph and the failures get tmux #[fg=]
 * styles, and with SL_TMUX or SL_HASH every '#' of event text is doubled so
 * tmux shows it as it is (a stream's "#[...]" or "#(...)" neither restyles
 * the bar nor runs).
 *
 * It is fast on large files because it reads only the newest session: the
 * file is mapped, the newest system/init is found by scanning lines
 * backwards from the end, and only the lines from there on are parsed.
 *
 * A session without a result is live while the file changes: when the file
 * was modified less than MODEL_LIVE_SECS ago and no exit line of a
 * recorded command follows it; otherwise it is incomplete (or failed, when
 * the recorded command failed). No curses. */
#ifndef AGENTVIEW_STATUSLINE_H
#define AGENTVIEW_STATUSLINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "util.h"

enum {
	SL_TMUX = 1, /* tmux #[...] styles, '#' doubled */
	SL_HASH = 2, /* '#' doubled only: the line may end up in tmux's bar */
};

/* The offset of the newest line of p[0..n) that is a system/init event, or
 * SIZE_MAX when there is none. j is a parser to check candidates with. */
size_t statusline_newest_init(const char *p, size_t n, struct json *j);

/* Append the status line of session s (no newline). Live states and times
 * use m->now_ms. */
void statusline_format(struct model *m, uint32_t s, int flags, struct buf *out);

/* Print the status line of path's newest session ("-": stdin) to out, at
 * time now_ms. Returns agentview's exit status: 0, 3 when that session has
 * no result (or there is none), 1 when the file cannot be read (err says
 * why). */
int statusline_run(const char *path, int flags, int agent, int64_t now_ms, FILE *out,
		   struct buf *err);

#endif
