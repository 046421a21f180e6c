/* view.h: the state of what is on screen, without curses: the layout for a
 * terminal size, which pane has the focus, the transcript's scroll position
 * and follow mode, the timeline's selection. Positions are indices (items,
 * rows of an item, calls), never pointers, so growing arrays cannot break
 * them; all functions are pure and unit-tested. */
#ifndef AGENTVIEW_VIEW_H
#define AGENTVIEW_VIEW_H

#include <stdbool.h>
#include <stdint.h>

enum layout_kind {
	LAYOUT_TINY,   /* under 40x10: the status bar only */
	LAYOUT_NARROW, /* 40-79 columns: one pane at a time */
	LAYOUT_MEDIUM, /* 80-119 columns: transcript above the timeline */
	LAYOUT_WIDE,   /* 120 columns and more: side by side */
};

enum pane { PANE_TRANSCRIPT, PANE_TIMELINE, PANE_COUNT };

struct rect {
	int y, x, h, w;
};

/* Where everything goes. A pane with h == 0 is not shown. Each shown pane
 * has a title row (title) above its body (body). */
struct layout {
	enum layout_kind kind;
	struct rect status;
	struct rect title[PANE_COUNT];
	struct rect body[PANE_COUNT];
	struct rect sep; /* the vertical rule of the wide layout, or w == 0 */
};

/* The most cells drawn across and down. A terminal larger than this
 * (tmux makes one of 10000x10000; no one can read it) is drawn in its
 * top-left corner: curses keeps about 85 bytes a cell, 8 GB at that size,
 * 44 MB at this one. */
#define VIEW_MAX_COLS 1000
#define VIEW_MAX_ROWS 500

/* The size to draw a terminal of *rows x *cols at: capped to the above. */
void view_cap(int *rows, int *cols);

/* Lay out a screen of rows x cols; in the narrow layout only `focus` is
 * shown. */
void view_layout(int rows, int cols, enum pane focus, struct layout *out);

/* How many rows item i has on screen (0: hidden). */
typedef uint32_t (*rows_fn)(void *ctx, uint32_t item);

struct rowsrc {
	uint32_t n; /* items */
	rows_fn rows;
	void *ctx;
};

/* A scroll position over items of several rows each. */
struct scroll {
	uint32_t top;    /* the item at the top, NONE when there is none */
	uint32_t row;    /* its first row shown */
	bool follow;     /* keep the last row at the bottom as items come */
	uint64_t unseen; /* events that came while not following */
};

void scroll_init(struct scroll *s, bool follow);
/* Move by n rows (down when n > 0), never past either end; reaching the
 * end turns follow on, moving up turns it off. */
void scroll_by(struct scroll *s, const struct rowsrc *src, int height, int64_t n);
void scroll_home(struct scroll *s, const struct rowsrc *src);
/* Show the last row at the bottom and follow. */
void scroll_end(struct scroll *s, const struct rowsrc *src, int height);
/* The last row is on screen. */
bool scroll_at_end(const struct scroll *s, const struct rowsrc *src, int height);
/* After new items, a resize or a fold: follow, or stay valid where it is. */
void scroll_fix(struct scroll *s, const struct rowsrc *src, int height);
/* Put item it at the top (as far as the end allows); follow stops. */
void scroll_to_item(struct scroll *s, const struct rowsrc *src, int height, uint32_t it);

/* A list with a selected row (the timeline). */
struct list {
	uint32_t sel; /* NONE when the list is empty */
	uint32_t top; /* first row shown */
	bool follow;  /* the selection stays on the last row as rows come */
};

void list_init(struct list *l);
/* Keep sel and top valid for n rows in a body of height rows. */
void list_fix(struct list *l, uint32_t n, int height);
/* Move the selection by delta rows (follow on when it lands on the last). */
void list_move(struct list *l, uint32_t n, int height, int64_t delta);
void list_select(struct list *l, uint32_t n, int height, uint32_t row);

#endif
