/* listview.h: the session list's screen, without curses: the rows shown
 * (fleet_rows, in the order chosen, through the filter), the selection,
 * which stays on its session as rows come, change and move, the first row
 * shown, the filter as it is typed, and the words of the list's status
 * bar. pane_list.c draws it; fleet.h lays out each row's columns. */
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
	char filter[LISTVIEW_FILTER_MAX]; /* raw UTF-8; "" shows every row */
	uint32_t *v;                      /* the rows shown, in order */
	size_t n, cap;
	size_t sel;       /* the selection's place in v (0 when n == 0) */
	uint32_t sel_row; /* the row selected, or LISTVIEW_NONE */
	size_t top;       /* the first place shown */
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
/* The list's status bar: "attention order · 3 of 12 sessions · filter
 * "fix" · 1 folder polled (no inotify watch left)". */
void listview_status(const struct listview *lv, const struct fleet *f, struct buf *out);

#endif
