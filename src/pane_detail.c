/* pane_detail.c: a tool call's detail, a layer over the whole screen but
 * the status bar: a cursor row moved like tig's (j and k; pages move the
 * view and the cursor with it), `r` for the raw JSON, q or Esc back to
 * where the transcript and the timeline were (they are left as they
 * were). The cursor row says which part y copies and where e opens.
 * detail.c builds its rows. */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail.h"
#include "glyph.h"

/* The layer's state. */
struct dpane {
	struct detail d;
	uint32_t call; /* the call shown */
	uint32_t top;  /* first row shown */
	uint32_t cur;  /* the cursor row */
	bool raw;
	bool bottom; /* G was pressed: stay at the last row as it grows */
};

static const struct pane_ops detail_ops;

void
pane_detail_open(struct ui *u, uint32_t call)
{
	struct layer *l = ui_layer_find(u, &detail_ops);
	struct dpane *p;

	if (l != NULL) {
		p = l->st;
	} else {
		p = xcalloc(1, sizeof *p);
		detail_init(&p->d, u->m);
		ui_layer_push(u, &detail_ops, p);
	}
	p->call = call;
	p->top = 0;
	p->cur = 0;
	p->raw = false;
	p->bottom = false;
	p->d.call = NONE;
	u->dirty = true;
}

/* Free the state. */
static void
detail_close(struct ui *u, void *st)
{
	struct dpane *p = st;

	(void)u;
	detail_free(&p->d);
	free(p);
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
detail_refresh(struct dpane *p, int width)
{
	if (p->d.call != p->call || p->d.raw != p->raw || detail_stale(&p->d, width))
		detail_build(&p->d, p->call, width, p->raw);
}

/* y, e or o on the cursor row's part of the detail, as drawn: the call
 * may have changed since the last frame. */
static void
detail_take(struct ui *u, struct dpane *p, enum action a)
{
	if (p->call >= model_ncalls(u->m))
		return;
	detail_refresh(p, p->d.width > 0 ? p->d.width : COLS);
	ui_take_detail(u, a, &p->d, MIN((size_t)p->cur, p->d.nrow > 0 ? p->d.nrow - 1 : 0));
}

/* The first row shown, kept in range, and the cursor on a row shown. */
static void
detail_clamp(struct dpane *p, int height)
{
	uint32_t n = (uint32_t)p->d.nrow, h = (uint32_t)MAX(1, height);

	if (p->bottom || (n > h && p->top > n - h))
		p->top = n > h ? n - h : 0;
	if (n <= h)
		p->top = 0;
	if (p->bottom)
		p->cur = n > 0 ? n - 1 : 0;
	p->cur = MAX(p->cur, p->top);
	p->cur = MIN(p->cur, p->top + h - 1);
	if (n > 0)
		p->cur = MIN(p->cur, n - 1);
}

/* One row: indent, the dim lead, the rest in its role; the cursor's row
 * all in the selection's. */
static void
draw_drow(struct ui *u, const struct detail *d, const struct drow *row, int y, const struct rect *r,
	  bool cursor)
{
	int x = MIN((int)row->indent, r->w);
	enum role base = cursor ? ROLE_SELECTION : ROLE_NORMAL;

	move(y, r->x);
	ui_blank(u, x, base);
	if (row->lead > 0)
		ui_put(u, d->text.p + row->off, row->lead, cursor ? base : ROLE_DIM);
	if (row->len > row->lead)
		pane_search_put(u, d->text.p + row->off + row->lead, row->len - row->lead,
				cursor ? base : (enum role)row->role);
	x += row->width;
	ui_blank(u, r->w - x, base);
}

/* The title (the call, the view, where it is, the keys) and the rows. */
static void
detail_draw(struct ui *u, void *st)
{
	struct dpane *p = st;
	struct rect r = detail_area();
	struct rline *l = &u->line;
	struct buf t = {0};
	int body;

	if (r.h < 2 || r.w < 8)
		return;
	if (p->call >= model_ncalls(u->m)) {
		/* The call is gone (the input was read again). */
		ui_layer_pop(u, &detail_ops);
		return;
	}
	body = r.h - 1;
	detail_refresh(p, r.w);
	detail_clamp(p, body);
	rline_reset(l);
	buf_addf(&t, " Tool call %u/%zu%s", model_call_row(u->m, p->call) + 1, model_ncalls(u->m),
		 p->raw ? " " GLYPH_DOT " raw JSON" : "");
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
			draw_drow(u, &p->d, &p->d.row[i], r.y + 1 + y, &r, i == p->cur);
		} else {
			struct rect rest = {r.y + 1 + y, r.x, body - y, r.w};

			ui_clear(u, &rest, ROLE_NORMAL);
			break;
		}
	}
	buf_free(&t);
}

/* Scroll by n rows (down when n > 0), the cursor with the view. */
static void
detail_scroll(struct dpane *p, int height, int64_t n)
{
	int64_t top = (int64_t)p->top + n, max = (int64_t)p->d.nrow - height;
	int64_t cur = (int64_t)p->cur + n;

	p->bottom = false;
	if (top > max)
		top = max;
	if (top < 0)
		top = 0;
	p->top = (uint32_t)top;
	p->cur = (uint32_t)MAX(0, MIN(cur, (int64_t)p->d.nrow - 1));
}

/* Move the cursor by n rows, the view after it when it leaves it. */
static void
detail_move(struct dpane *p, int height, int64_t n)
{
	int64_t cur = (int64_t)p->cur + n;

	p->bottom = false;
	cur = MAX(0, MIN(cur, (int64_t)p->d.nrow - 1));
	p->cur = (uint32_t)cur;
	if (p->cur < p->top)
		p->top = p->cur;
	else if (p->cur >= p->top + (uint32_t)height)
		p->top = p->cur - (uint32_t)height + 1;
}

/* The wheel scrolls, a click puts the cursor on a row; any mouse event
 * stops staying at the bottom. */
static bool
detail_mouse(struct ui *u, void *st, const struct ui_mouse *ev)
{
	struct dpane *p = st;
	struct rect r = detail_area();

	if (ev->click && ev->y > r.y && ev->y < r.y + r.h &&
	    p->top + (uint32_t)(ev->y - r.y - 1) < p->d.nrow) {
		p->bottom = false;
		p->cur = p->top + (uint32_t)(ev->y - r.y - 1);
	} else {
		detail_scroll(p, MAX(1, LINES - 2), ev->wheel);
	}
	u->dirty = true;
	return true;
}

/* q or Esc closes, r shows the raw JSON, [ and ] go to the call before or
 * after; the rest scroll. Every key but Ctrl-L (redraw) and R (secrets)
 * is taken. */
static bool
detail_key(struct ui *u, void *st, int key)
{
	struct dpane *p = st;
	int h = MAX(1, LINES - 2), page = MAX(1, h - 1);
	enum action a = keys_lookup(KC_DETAIL, key);
	uint32_t c = p->call, row;

	u->dirty = true;
	/* Keys pressed before its first frame move over its rows too. */
	if (c < model_ncalls(u->m))
		detail_refresh(p, detail_area().w);
	switch (a) {
	case ACT_CLOSE:
		ui_layer_pop(u, &detail_ops);
		return true;
	case ACT_DETAIL_RAW:
		p->raw = !p->raw;
		p->top = p->cur = 0;
		p->bottom = false;
		return true;
	case ACT_NEXT_TOOL:
		/* The call after or before, as the timeline lists them. */
		if ((row = model_call_row(u->m, c)) != NONE && row + 1 < model_ncalls(u->m))
			pane_detail_open(u, model_order_call(u->m, row + 1));
		return true;
	case ACT_PREV_TOOL:
		if ((row = model_call_row(u->m, c)) != NONE && row > 0)
			pane_detail_open(u, model_order_call(u->m, row - 1));
		return true;
	case ACT_COPY:
	case ACT_EDIT:
	case ACT_PAGER:
		detail_take(u, p, a);
		return true;
	default:
		break;
	}
	if (keys_lookup(KC_GLOBAL, key) == ACT_REDRAW || keys_lookup(KC_GLOBAL, key) == ACT_REDACT)
		return false;
	if (keys_lookup(KC_GLOBAL, key) == ACT_COPY_RESUME) {
		ui_take_resume(u);
		return true;
	}
	switch (keys_lookup(KC_SCROLL, key)) {
	case ACT_DOWN:
		detail_move(p, h, 1);
		break;
	case ACT_UP:
		detail_move(p, h, -1);
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
		p->top = p->cur = 0;
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

/* What it showed is gone: it closes. */
static void
detail_reset(struct ui *u, void *st)
{
	(void)st;
	ui_layer_pop(u, &detail_ops);
}

static const struct pane_ops detail_ops = {
	.name = "detail",
	.draw = detail_draw,
	.key = detail_key,
	.mouse = detail_mouse,
	.reset = detail_reset,
	.close = detail_close,
};
