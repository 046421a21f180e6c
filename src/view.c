/* view.c: layout, scrolling and selection as plain arithmetic. */
#include "view.h"

#include <string.h>

#include "model.h"

static struct rect
rect(int y, int x, int h, int w)
{
	struct rect r = {y, x, h < 0 ? 0 : h, w < 0 ? 0 : w};

	return r;
}

void
view_cap(int *rows, int *cols)
{
	*rows = MIN(*rows, VIEW_MAX_ROWS);
	*cols = MIN(*cols, VIEW_MAX_COLS);
}

void
view_layout(int rows, int cols, enum pane focus, struct layout *out)
{
	int body;

	memset(out, 0, sizeof *out);
	rows = rows < 0 ? 0 : rows;
	cols = cols < 0 ? 0 : cols;
	out->status = rect(rows > 0 ? rows - 1 : 0, 0, rows > 0 ? 1 : 0, cols);
	if (cols < 40 || rows < 10) {
		out->kind = LAYOUT_TINY;
		return;
	}
	body = rows - 1; /* above the status bar */
	if (cols < 80) {
		out->kind = LAYOUT_NARROW;
		out->title[focus] = rect(0, 0, 1, cols);
		out->body[focus] = rect(1, 0, body - 1, cols);
	} else if (cols < 120) {
		/* Transcript above, timeline below: 60/40, at least 3 rows
		 * of timeline. */
		int th = body * 2 / 5;

		out->kind = LAYOUT_MEDIUM;
		th = th < 4 ? 4 : th;
		out->title[PANE_TRANSCRIPT] = rect(0, 0, 1, cols);
		out->body[PANE_TRANSCRIPT] = rect(1, 0, body - th - 1, cols);
		out->title[PANE_TIMELINE] = rect(body - th, 0, 1, cols);
		out->body[PANE_TIMELINE] = rect(body - th + 1, 0, th - 1, cols);
	} else {
		/* The timeline needs room for its bars. */
		int lw = cols * 11 / 20;

		out->kind = LAYOUT_WIDE;
		out->title[PANE_TRANSCRIPT] = rect(0, 0, 1, lw);
		out->body[PANE_TRANSCRIPT] = rect(1, 0, body - 1, lw);
		out->sep = rect(0, lw, body, 1);
		out->title[PANE_TIMELINE] = rect(0, lw + 1, 1, cols - lw - 1);
		out->body[PANE_TIMELINE] = rect(1, lw + 1, body - 1, cols - lw - 1);
	}
}

/* --- scrolling over items ---------------------------------------------- */

void
scroll_init(struct scroll *s, bool follow)
{
	s->top = NONE;
	s->row = 0;
	s->follow = follow;
	s->unseen = 0;
}

/* The first item from i on (upward when dir < 0) that has rows. */
static uint32_t
visible_from(const struct rowsrc *src, uint32_t i, int dir)
{
	while (i < src->n) {
		if (src->rows(src->ctx, i) > 0)
			return i;
		if (dir < 0) {
			if (i == 0)
				return NONE;
			i--;
		} else {
			i++;
		}
	}
	return NONE;
}

/* Whether the rows from the position to the end fit in height rows. */
static bool
fits_from(const struct rowsrc *src, uint32_t top, uint32_t row, int height)
{
	int64_t left = height;

	for (uint32_t i = top; i < src->n && left >= 0; i++) {
		uint32_t r = src->rows(src->ctx, i);

		left -= i == top ? (int64_t)r - row : (int64_t)r;
	}
	return left >= 0;
}

bool
scroll_at_end(const struct scroll *s, const struct rowsrc *src, int height)
{
	if (s->top == NONE)
		return true;
	return fits_from(src, s->top, s->row, height);
}

void
scroll_home(struct scroll *s, const struct rowsrc *src)
{
	s->top = visible_from(src, 0, 1);
	s->row = 0;
	s->follow = false;
}

void
scroll_end(struct scroll *s, const struct rowsrc *src, int height)
{
	int64_t need = height < 1 ? 1 : height;
	uint32_t i;

	s->follow = true;
	s->unseen = 0;
	if (src->n == 0) {
		s->top = NONE;
		s->row = 0;
		return;
	}
	for (i = src->n; i-- > 0;) {
		uint32_t r = src->rows(src->ctx, i);

		if (r == 0)
			continue;
		if ((int64_t)r >= need) {
			s->top = i;
			s->row = r - (uint32_t)need;
			return;
		}
		need -= r;
		s->top = i;
		s->row = 0;
		if (i == 0)
			break;
	}
	if (s->top == NONE || src->rows(src->ctx, s->top) == 0)
		s->top = visible_from(src, 0, 1);
	s->row = 0;
}

void
scroll_by(struct scroll *s, const struct rowsrc *src, int height, int64_t n)
{
	if (s->top == NONE || s->top >= src->n) {
		scroll_fix(s, src, height);
		if (s->top == NONE)
			return;
	}
	if (n < 0) {
		s->follow = false;
		while (n < 0) {
			if (s->row > 0) {
				s->row--;
			} else {
				uint32_t p = s->top == 0 ? NONE : visible_from(src, s->top - 1, -1);

				if (p == NONE)
					break;
				s->top = p;
				s->row = src->rows(src->ctx, p) - 1;
			}
			n++;
		}
		return;
	}
	while (n > 0 && !fits_from(src, s->top, s->row, height)) {
		if (s->row + 1 < src->rows(src->ctx, s->top)) {
			s->row++;
		} else {
			uint32_t nx = visible_from(src, s->top + 1, 1);

			if (nx == NONE)
				break;
			s->top = nx;
			s->row = 0;
		}
		n--;
	}
	if (fits_from(src, s->top, s->row, height)) {
		/* Landed on the end: the view follows from here. */
		scroll_end(s, src, height);
	}
}

void
scroll_fix(struct scroll *s, const struct rowsrc *src, int height)
{
	uint32_t r;

	if (s->follow) {
		scroll_end(s, src, height);
		return;
	}
	if (s->top == NONE || s->top >= src->n) {
		s->top = visible_from(src, 0, 1);
		s->row = 0;
		return;
	}
	r = src->rows(src->ctx, s->top);
	if (r == 0) {
		uint32_t v = visible_from(src, s->top, -1);

		s->top = v != NONE ? v : visible_from(src, s->top, 1);
		s->row = 0;
		return;
	}
	if (s->row >= r)
		s->row = r - 1;
}

void
scroll_to_item(struct scroll *s, const struct rowsrc *src, int height, uint32_t it)
{
	if (it >= src->n)
		return;
	s->top = it;
	s->row = 0;
	s->follow = false;
	scroll_fix(s, src, height);
	/* Near the end, show a full screen rather than a short one. */
	if (fits_from(src, s->top, s->row, height)) {
		bool follow = s->follow;

		scroll_end(s, src, height);
		s->follow = follow;
	}
}

/* --- a list with a selection ------------------------------------------- */

void
list_init(struct list *l)
{
	l->sel = NONE;
	l->top = 0;
	l->follow = true;
}

void
list_fix(struct list *l, uint32_t n, int height)
{
	uint32_t h = height < 1 ? 1 : (uint32_t)height;

	if (n == 0) {
		l->sel = NONE;
		l->top = 0;
		return;
	}
	if (l->sel == NONE)
		l->sel = l->follow ? n - 1 : 0;
	else if (l->follow || l->sel >= n)
		l->sel = n - 1;
	if (l->sel < l->top)
		l->top = l->sel;
	if (l->sel >= l->top + h)
		l->top = l->sel - h + 1;
	if (l->top + h > n)
		l->top = n > h ? n - h : 0;
}

void
list_move(struct list *l, uint32_t n, int height, int64_t delta)
{
	int64_t to;

	if (n == 0)
		return;
	to = (l->sel == NONE ? (int64_t)n - 1 : (int64_t)l->sel) + delta;
	if (to < 0)
		to = 0;
	if (to >= (int64_t)n)
		to = (int64_t)n - 1;
	l->sel = (uint32_t)to;
	l->follow = l->sel == n - 1;
	list_fix(l, n, height);
}

void
list_select(struct list *l, uint32_t n, int height, uint32_t row)
{
	if (n == 0)
		return;
	l->sel = row < n ? row : n - 1;
	l->follow = l->sel == n - 1;
	list_fix(l, n, height);
}
