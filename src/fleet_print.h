/* fleet_print.h: the session list without a screen, for logs and scripts:
 * `agentview --print DIR|FILE...` prints it once (text: the columns of the
 * screen's list and its summary line; Markdown: a table; JSON: the JSON
 * summary of every session of every file, each with its "file"); with -f
 * it goes on and prints a line per change of a session's state
 *
 *     12:01:03 ✓ done cursor Composer 2.5 "fix the tests" 4m05s
 *
 * (JSON: an object a line), telling the notifier too; `--status-line
 * DIR|FILE...` sums the states up for tmux:
 *
 *     ● 3 running · ⏸ 1 waiting · ✗ 1 failed · ✓ 12 done
 *
 * (failed and done: today's). No curses. */
#ifndef AGENTVIEW_FLEET_PRINT_H
#define AGENTVIEW_FLEET_PRINT_H

#include <stdint.h>
#include <stdio.h>

#include "fleet.h"
#include "notify.h"
#include "print.h"
#include "util.h"

/* The list once, as text laid out in width cells, or as a Markdown
 * table. */
void fleet_print_list(const struct fleet *f, enum print_format fmt, int width, int64_t now_ms,
		      FILE *out);
/* The JSON summary of the fleet's files, each read whole, one after the
 * other (agent: --agent's, or -1). */
void fleet_print_json(const struct fleet *f, int agent, FILE *out);
/* The line of row `row` that changed from `was` (FS_NSTATES: new), at
 * now_ms: text (Markdown too) or a JSON object; with its newline. */
void fleet_change_line(const struct fleet *f, uint32_t row, enum fleet_state was,
		       enum print_format fmt, int64_t now_ms, struct buf *out);
/* Read on until a signal (SIGTERM, SIGINT, SIGHUP) or an output error,
 * printing a line per change and telling n (NULL: nobody). Returns the
 * exit status: 0, or 1 when the output failed. */
int fleet_follow(struct fleet *f, enum print_format fmt, struct notifier *n, FILE *out);
/* The sums of --status-line (SL_TMUX in flags: tmux colours). */
void fleet_status_line(const struct fleet *f, int64_t now_ms, int flags, struct buf *out);

#endif
