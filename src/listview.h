/* listview.h: the session list's screen, without curses: the rows shown
 * (fleet_rows, in the order chosen or its reverse, through the filter,
 * the sessions that are over hidden or not), the selection, which stays
 * on its session as rows come, change and move, the first row shown, the
 * filter as it is typed, the rows new since you looked, and the words of
 * the list's status bar and of an empty list. pane_list.c draws it;
 * fleet.h lays out each row's columns. */
#ifndef AGENTVIEW_LISTVIEW_H
#define AGENTVIEW_LISTVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fleet.h"
#include "util.h"

#define LISTVIEW_FILTER_MAX 128
#define LISTVIEW_NONE UINT32_MAX

struct listview {
	enum fleet_sort sort;
	bool reverse;                     /* the order turned around (S) */
	bool hide_over;                   /* done and incomplete sessions
					     hidden (x) */
	char filter[LISTVIEW_FILTER_MAX]; /* raw UTF-8; "" shows every row */
	uint32_t *v;                      /* the rows shown, in order */
	size_t n, cap;
	size_t sel;       /* the selection's place in v (0 when n == 0) */
	uint32_t sel_row; /* the row selected, or LISTVIEW_NONE */
	size_t top;       /* the first place shown */
	uint8_t *fresh;   /* by row: it ended since the first look and was
			     not opened since ("new since you looked") */
	size_t nfresh;
};

void listview_init(struct listview *lv);
void listview_free(struct listview *lv);
/* Make the rows shown again from f at now_ms; the selection stays on its
 * row while it is shown, else on the place it was. */
void listview_refresh(struct listview *lv, const struct fleet *f, int64_t now_ms);
/* The selection moved by delta places, stopping at either end. */
void listview_move(struct listview *lv, long delta);
/* The row selected, or LISTVIEW_NONE when none is shown. */
uint32_t listview_selected(const struct listview *lv);
/* The next order (attention, newest, longest, cwd, and round again). */
void listview_sort_next(struct listview *lv, const struct fleet *f, int64_t now_ms);
/* The filter gains the code point cp, or loses its last one (cp < 0), or
 * is emptied (cp == 0); the rows are made again. */
void listview_filter_edit(struct listview *lv, const struct fleet *f, int64_t now_ms, long cp);
/* Keep the selection among the height places shown from top. */
void listview_scroll(struct listview *lv, int height);
/* Whether one of the height places shown from top shows a clock that runs
 * (a running or waiting session's elapsed and quiet times). */
bool listview_ticking(const struct listview *lv, const struct fleet *f, int height);
/* S: the order turned around, or back; x: the sessions that are over and
 * need nothing (done, incomplete, files that hold none) hidden, or shown
 * again. The rows are made again. */
void listview_reverse(struct listview *lv, const struct fleet *f, int64_t now_ms);
void listview_hide_over(struct listview *lv, const struct fleet *f, int64_t now_ms);
/* w and W: the selection on the next (dir > 0) or previous session shown
 * that waits for a decision or failed, round the ends; false when none. */
bool listview_attention(struct listview *lv, const struct fleet *f, int dir);
/* The mark of a row that ended since the first look: set (the fleet told
 * its change), cleared (it was opened), and whether it is set. */
void listview_mark(struct listview *lv, uint32_t row);
void listview_seen(struct listview *lv, uint32_t row);
bool listview_fresh(const struct listview *lv, uint32_t row);
/* The list's status bar: "attention order, reversed · 3 of 12 sessions ·
 * filter "fix" · over ones hidden · 1 folder polled (no inotify watch
 * left)". */
void listview_status(const struct listview *lv, const struct fleet *f, struct buf *out);
/* What the list says where no row is shown, a line a '\n': with no session
 * at all, where it looked (home, when not NULL, written ~) and what to try
 * (an agent piped in is kept, agentview FILE, agentview DIR); else why
 * none is shown (the filter, x). */
void listview_empty(const struct listview *lv, const struct fleet *f, const char *home,
		    struct buf *out);

#endif
