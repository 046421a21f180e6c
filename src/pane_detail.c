/* pane_detail.c: a tool call's detail over the whole screen but the status
 * bar: scrolled like less, `r` for the raw JSON, q or Esc back to where
 * the transcript and the timeline were (they are left as they were). */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail.h"

struct dpane {
	struct detail d;
	uint32_t call;  /* the call shown, or NONE when closed */
	uint32_t top;   /* first row shown */
	bool raw;
	bool bottom;    /* G was pressed: stay at the last row as it grows */
};

/* The pane's state, made on first use. */
static struct dpane *
dpane(struct ui *u)
{
	if (u->detail == NULL) {
		u->detail = xcalloc(1, sizeof *u->detail);
		detail_init(&u->detail->d, u->m);
		u->detail->call = NONE;
	}
	return u->detail;
}

void
detail_pane_open(struct ui *u, uint32_t call)
{
	struct dpane *p = dpane(u);

	p->call = call;
	p->top = 0;
	p->raw = false;
	p->bottom = false;
	p->d.call = NONE;
	u->dirty = true;
}

bool
detail_pane_is_open(const struct ui *u)
{
	return u->detail != NULL && u->detail->call != NONE;
}

void
detail_pane_close(struct ui *u)
{
	if (u->detail != NULL)
		u->detail->call = NONE;
	u->dirty = true;
}

void
detail_pane_free(struct ui *u)
{
	if (u->detail == NULL)
		return;
	detail_free(&u->detail->d);
	free(u->detail);
	u->detail = NULL;
}

/* The area of the pane: every row above the status bar. */
static struct rect
detail_area(void)
{
	struct rect r = {0, 0, MAX(0, LINES - 1), COLS};

	return r;
}

/* Build the rows again when the call, its state or the width changed. */
static void
detail_refresh(struct ui *u, int width)
{
	struct dpane *p = u->detail;

	if (p->call >= model_ncalls(u->m)) {
		p->call = NONE;
		return;
	}
	if (p->d.call != p->call || p->d.raw != p->raw ||
	    detail_stale(&p->d, width))
		detail_build(&p->d, p->call, width, p->raw);
}

/* The first row shown, kept in range. */
static void
detail_clamp(struct dpane *p, int height)
{
	uint32_t n = (uint32_t)p->d.nrow, h = (uint32_t)MAX(1, height);

	if (p->bottom || (n > h && p->top > n - h))
		p->top = n > h ? n - h : 0;
	if (n <= h)
		p->top = 0;
}

/* One row: indent, the dim lead, the rest in its role. */
static void
draw_drow(struct ui *u, const struct detail *d, const struct drow *row, int y,
	  const struct rect *r)
{
	int x = MIN((int)row->indent, r->w);

	move(y, r->x);
	ui_blank(u, x, ROLE_NORMAL);
	if (row->lead > 0)
		ui_put(u, d->text.p + row->off, row->lead, ROLE_DIM);
	if (row->len > row->lead)
		nav_draw_text(u, d->text.p + row->off + row->lead,
			      row->len - row->lead, (enum role)row->role);
	x += row->width;
	ui_blank(u, r->w - x, ROLE_NORMAL);
}

void
detail_pane_draw(struct ui *u)
{
	struct dpane *p = u->detail;
	struct rect r = detail_area();
	struct rline *l = &u->line;
	struct buf t = {0};
	int body;

	if (p == NULL || p->call == NONE || r.h < 2 || r.w < 8)
		return;
	body = r.h - 1;
	detail_refresh(u, r.w);
	if (p->call == NONE)
		return;
	detail_clamp(p, body);
	rline_reset(l);
	buf_addf(&t, " Tool call %u/%zu%s", p->call + 1, model_ncalls(u->m),
		 p->raw ? " \xC2\xB7 raw JSON" : "");
	rline_add(l, t.p, t.n, ROLE_TITLE_FOCUS, (size_t)r.w);
	buf_reset(&t);
	if (p->d.nrow > (size_t)body)
		buf_addf(&t, "%zu%%  ",
			 (size_t)MIN(100, (p->top + (size_t)body) * 100 / p->d.nrow));
	buf_adds(&t, p->raw ? "r: detail  q: back " : "r: raw  q: back ");
	if ((size_t)r.w > l->width + t.n + 2) {
		rline_pad(l, (size_t)r.w - text_width(t.p, t.n), ROLE_TITLE_FOCUS);
		rline_add(l, t.p, t.n, ROLE_TITLE_FOCUS, (size_t)r.w);
	}
	rline_pad(l, (size_t)r.w, ROLE_TITLE_FOCUS);
	ui_draw_rline(u, r.y, r.x, l, ROLE_NORMAL);
	for (int y = 0; y < body; y++) {
		size_t i = p->top + (size_t)y;

		if (i < p->d.nrow) {
			draw_drow(u, &p->d, &p->d.row[i], r.y + 1 + y, &r);
		} else {
			struct rect rest = {r.y + 1 + y, r.x, body - y, r.w};

			ui_clear(u, &rest, ROLE_NORMAL);
			break;
		}
	}
	buf_free(&t);
}

/* Scroll by n rows (down when n > 0). */
static void
detail_scroll(struct dpane *p, int height, int64_t n)
{
	int64_t top = (int64_t)p->top + n, max = (int64_t)p->d.nrow - height;

	p->bottom = false;
	if (top > max)
		top = max;
	if (top < 0)
		top = 0;
	p->top = (uint32_t)top;
}

void
detail_pane_wheel(struct ui *u, int rows)
{
	if (!detail_pane_is_open(u))
		return;
	detail_scroll(u->detail, MAX(1, LINES - 2), rows);
	u->dirty = true;
}

bool
detail_pane_key(struct ui *u, int key)
{
	struct dpane *p = u->detail;
	int h = MAX(1, LINES - 2), page = MAX(1, h - 1);
	enum action a = keys_lookup(KC_DETAIL, key);
	uint32_t c = p->call;

	u->dirty = true;
	switch (a) {
	case ACT_CLOSE:
		detail_pane_close(u);
		return true;
	case ACT_DETAIL_RAW:
		p->raw = !p->raw;
		p->top = 0;
		p->bottom = false;
		return true;
	case ACT_NEXT_TOOL:
		/* The call after or before, by call index (the timeline). */
		if (c + 1 < model_ncalls(u->m))
			detail_pane_open(u, c + 1);
		return true;
	case ACT_PREV_TOOL:
		if (c > 0)
			detail_pane_open(u, c - 1);
		return true;
	default:
		break;
	}
	if (keys_lookup(KC_GLOBAL, key) == ACT_REDRAW)
		return false;
	switch (keys_lookup(KC_SCROLL, key)) {
	case ACT_DOWN:
		detail_scroll(p, h, 1);
		break;
	case ACT_UP:
		detail_scroll(p, h, -1);
		break;
	case ACT_PAGE_DOWN:
		detail_scroll(p, h, page);
		break;
	case ACT_PAGE_UP:
		detail_scroll(p, h, -page);
		break;
	case ACT_HALF_DOWN:
		detail_scroll(p, h, MAX(1, h / 2));
		break;
	case ACT_HALF_UP:
		detail_scroll(p, h, -MAX(1, h / 2));
		break;
	case ACT_TOP:
		p->top = 0;
		p->bottom = false;
		break;
	case ACT_BOTTOM:
		p->bottom = true;
		break;
	default:
		break;
	}
	/* Every other key is for the detail too: nothing behind it moves. */
	return true;
}
