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
 *     ● 3 running · ⏸ 1 waiting · ✗ 1 failed · ◌ 2 incomplete · ✓ 12 done
 *
 * (the sessions listed, by state: the count the list says). No curses. */
#ifndef AGENTVIEW_FLEET_PRINT_H
#define AGENTVIEW_FLEET_PRINT_H

#include <stdint.h>
#include <stdio.h>

#include "fleet.h"
#include "notify.h"
#include "util.h"

struct format;

/* The list once, in the formats whose rows name these (print.h): text
 * laid out in width cells, a Markdown table, or the JSON summary of the
 * fleet's files, each read whole, one after the other (agent: --agent's,
 * or -1). */
void fleet_list_text(const struct fleet *f, int agent, int width, int64_t now_ms, FILE *out);
void fleet_list_markdown(const struct fleet *f, int agent, int width, int64_t now_ms, FILE *out);
void fleet_list_json(const struct fleet *f, int agent, int width, int64_t now_ms, FILE *out);
/* The rows as remote.h's text (remote_rows_add), for an agentview on
 * another machine: those of each stream file of the folders, by file then
 * session, as read of their heads and tails (no file read whole). */
void fleet_list_rows(const struct fleet *f, int agent, int width, int64_t now_ms, FILE *out);
extern const struct format format_rows;
/* The JSON summary begun before the list is made, once f knows its files
 * (after fleet_add, before the first fleet_update): helper processes read
 * the files while the list is made; fleet_json_end, once it is, writes
 * the summary fleet_list_json writes, byte for byte, and frees j. */
struct fleet_json;
struct fleet_json *fleet_json_begin(const struct fleet *f, int agent, int64_t now_ms, FILE *out);
void fleet_json_end(struct fleet_json *j, const struct fleet *f, int agent, int64_t now_ms,
		    FILE *out);
/* The line of row `row` that changed from `was` (an enum fleet_state;
 * FS_NSTATES: new), at now_ms: text or a JSON object; with its newline. */
void fleet_change_text(const struct fleet *f, uint32_t row, int was, int64_t now_ms,
		       struct buf *out);
void fleet_change_json(const struct fleet *f, uint32_t row, int was, int64_t now_ms,
		       struct buf *out);
/* Read on until a signal (SIGTERM, SIGINT, SIGHUP) or an output error,
 * printing a line per change in fmt (its change writer) and telling n
 * (NULL: nobody). Returns the exit status: 0, or 1 when the output
 * failed. */
int fleet_follow(struct fleet *f, const struct format *fmt, struct notifier *n, FILE *out);
/* The sums of --status-line (SL_TMUX in flags: tmux colours): the list's
 * summary line (fleet_summary). */
void fleet_status_line(const struct fleet *f, int flags, struct buf *out);

#endif
