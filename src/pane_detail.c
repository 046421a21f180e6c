/* pane_detail.c: a tool call's detail, a layer over the whole screen but
 * the status bar: a cursor row moved like tig's (j and k; pages move the
 * view and the cursor with it), `r` for the raw JSON, q or Esc back to
 * where the transcript and the timeline were (they are left as they
 * were). The cursor row says which part y copies and where e opens. / n
 * and N search it with the search's pattern (its prompt), the match shown
 * in reverse on the cursor's row, what the status bar says of the matches
 * in its place. detail.c builds its rows. */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail.h"
#include "glyph.h"
#include "search.h"

#define NO_MATCH UINT64_MAX

/* The layer's state. */
struct dpane {
	struct detail d;
	uint32_t call; /* the call shown */
	uint32_t top;  /* first row shown */
	uint32_t cur;  /* the cursor row */
	bool raw;
	bool bottom;    /* G was pressed: stay at the last row as it grows */
	uint32_t built; /* the rows were built this many times */
	/* The search in it: the match to go to once built, the match shown
	 * (NO_MATCH: none), its row and bytes of the text, and how many there
	 * are, as found in the rows of `mbuilt` for the pattern of `mgen`. */
	uint64_t want, mj, count;
	size_t mrow, ma, mb;
	uint32_t mbuilt, mgen;
	bool msync;
	/* Where it was when its prompt opened: Esc goes back there. */
	uint32_t top0, cur0;
	uint64_t mj0;
	struct search_hooks hooks;
	char said[96];
};

static const struct pane_ops detail_ops;
static struct rect detail_area(void);
static void detail_refresh(struct dpane *p, int width);
static void match_want(struct ui *u, struct dpane *p, int height);
static void detail_typed(struct ui *u, void *ctx);
static void detail_searched(struct ui *u, void *ctx, bool accept);

void
pane_detail_open(struct ui *u, uint32_t call)
{
	pane_detail_open_at(u, call, NO_MATCH);
}

void
pane_detail_open_at(struct ui *u, uint32_t call, uint64_t j)
{
	struct layer *l = ui_layer_find(u, &detail_ops);
	struct dpane *p;

	if (l != NULL) {
		p = l->st;
	} else {
		p = xcalloc(1, sizeof *p);
		detail_init(&p->d, u->m);
		p->hooks.typed = detail_typed;
		p->hooks.done = detail_searched;
		p->hooks.ctx = p;
		ui_layer_push(u, &detail_ops, p);
	}
	p->call = call;
	p->top = 0;
	p->cur = 0;
	p->raw = false;
	p->bottom = false;
	p->d.call = NONE;
	p->want = j;
	p->mj = NO_MATCH;
	p->msync = false;
	/* Its rows now, so that the status bar says of its matches from the
	 * first frame on. */
	if (call < model_ncalls(u->m)) {
		detail_refresh(p, detail_area().w);
		match_want(u, p, MAX(1, detail_area().h - 1));
	}
	u->dirty = true;
}

/* Free the state. */
static void
detail_close(struct ui *u, void *st)
{
	struct dpane *p = st;

	pane_search_scope(u, NULL);
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
	if (p->d.call != p->call || p->d.raw != p->raw || detail_stale(&p->d, width)) {
		detail_build(&p->d, p->call, width, p->raw);
		p->built++;
	}
}

/* --- the search in it ---------------------------------------------------- */

/* What the status bar says of the matches, in the search's place. */
static void
match_say(struct ui *u, struct dpane *p, const struct search *s)
{
	if (s == NULL)
		p->said[0] = '\0';
	else if (p->count == 0)
		snprintf(p->said, sizeof p->said, "no match in this detail");
	else if (p->mj != NO_MATCH)
		snprintf(p->said, sizeof p->said, "match %llu/%llu in this detail",
			 (unsigned long long)p->mj + 1, (unsigned long long)p->count);
	else
		snprintf(p->said, sizeof p->said, "%llu match%s in this detail",
			 (unsigned long long)p->count, p->count == 1 ? "" : "es");
	pane_search_scope(u, s != NULL ? p->said : NULL);
}

/* The matches of the rows as built, and the match shown in them, found
 * again when the rows or the pattern changed. */
static const struct search *
match_sync(struct ui *u, struct dpane *p)
{
	const struct search *s = pane_search_get(u);
	uint32_t gen = s != NULL ? s->gen : 0;

	if (p->msync && p->mbuilt == p->built && p->mgen == gen)
		return s;
	p->msync = true;
	p->mbuilt = p->built;
	p->mgen = gen;
	p->count = s != NULL ? search_detail_count(s, &p->d) : 0;
	if (p->mj != NO_MATCH &&
	    (s == NULL || !search_detail_match(s, &p->d, p->mj, &p->mrow, &p->ma, &p->mb)))
		p->mj = NO_MATCH;
	match_say(u, p, s);
	return s;
}

/* Show match j: the cursor on its row, a quarter of the screen down
 * unless it shows. */
static void
match_go(struct ui *u, struct dpane *p, const struct search *s, uint64_t j, int height)
{
	if (s == NULL || !search_detail_match(s, &p->d, j, &p->mrow, &p->ma, &p->mb))
		return;
	p->mj = j;
	p->bottom = false;
	p->cur = (uint32_t)p->mrow;
	if (p->cur < p->top || p->cur >= p->top + (uint32_t)height)
		p->top = p->cur > (uint32_t)height / 4 ? p->cur - (uint32_t)height / 4 : 0;
	match_say(u, p, s);
}

/* The rows as built: their matches, and the match the detail was opened
 * at shown (as far as its rows go). */
static void
match_want(struct ui *u, struct dpane *p, int height)
{
	match_sync(u, p);
	if (p->want != NO_MATCH && p->count > 0)
		match_go(u, p, pane_search_get(u), MIN(p->want, p->count - 1), height);
	p->want = NO_MATCH;
}

/* n or N: the match after or before the one shown, or the first one from
 * the cursor row on (or the last before it); around at the ends. */
static void
match_next(struct ui *u, struct dpane *p, int dir, int height)
{
	const struct search *s = match_sync(u, p);
	uint64_t j;

	if (s == NULL) {
		ui_note(u, "no search yet: / searches");
		return;
	}
	if (p->count == 0) {
		ui_note(u, "no match in this detail");
		return;
	}
	if (p->mj != NO_MATCH && p->mrow >= p->top && p->mrow < p->top + (uint32_t)height) {
		j = dir > 0 ? p->mj + 1 : p->mj + p->count - 1;
	} else if (!search_detail_from(s, &p->d, dir > 0 ? p->cur : p->cur + 1, dir < 0, &j)) {
		j = dir > 0 ? p->count : p->count - 1;
	}
	if (j >= p->count) {
		j %= p->count;
		ui_note(u, dir > 0 ? "search went past the end: from the top"
				   : "search went past the top: from the end");
	}
	match_go(u, p, s, j, height);
}

/* The pattern typed in its prompt changed: the first match from where the
 * cursor was on. */
static void
detail_typed(struct ui *u, void *ctx)
{
	struct dpane *p = ctx;
	const struct search *s;
	uint64_t j;

	p->top = p->top0;
	p->cur = p->cur0;
	p->mj = NO_MATCH;
	s = match_sync(u, p);
	if (s != NULL && search_detail_from(s, &p->d, p->cur0, false, &j))
		match_go(u, p, s, j, MAX(1, LINES - 2));
	else if (s != NULL && p->count > 0)
		match_go(u, p, s, 0, MAX(1, LINES - 2));
	u->dirty = true;
}

/* Its prompt is done: Esc goes back to where it was. */
static void
detail_searched(struct ui *u, void *ctx, bool accept)
{
	struct dpane *p = ctx;

	if (!accept) {
		p->top = p->top0;
		p->cur = p->cur0;
		p->mj = p->mj0;
		p->msync = false;
	}
	match_sync(u, p);
	u->dirty = true;
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

/* Row i: indent, the dim lead, the rest in its role, the search's
 * matches in it highlighted (the match shown in reverse); the cursor's row
 * all in the selection's, unless the match shown is on it: the match is
 * the cursor then. */
static void
draw_drow(struct ui *u, const struct dpane *p, size_t i, int y, const struct rect *r)
{
	const struct detail *d = &p->d;
	const struct drow *row = &d->row[i];
	bool shown = p->mj != NO_MATCH && p->ma < row->off + row->len && p->mb > row->off;
	bool cursor = i == p->cur && !(p->mj != NO_MATCH && p->mrow == i);
	int x = MIN((int)row->indent, r->w);
	enum role base = cursor ? ROLE_SELECTION : ROLE_NORMAL;
	size_t first, end, la, lb;

	move(y, r->x);
	ui_blank(u, x, base);
	if (row->lead > 0)
		ui_put(u, d->text.p + row->off, row->lead, cursor ? base : ROLE_DIM);
	if (row->len > row->lead) {
		size_t ra = row->off + row->lead, rb = row->off + row->len;

		if (detail_line(d, i, &first, &end, &la, &lb))
			pane_search_put_line(u, d->text.p, la, lb, ra, rb,
					     cursor ? base : (enum role)row->role,
					     shown ? p->ma : SIZE_MAX, shown ? p->mb : SIZE_MAX);
		else
			ui_put(u, d->text.p + ra, rb - ra, cursor ? base : (enum role)row->role);
	}
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
	match_want(u, p, body);
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
			draw_drow(u, p, i, r.y + 1 + y, &r);
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
	case ACT_SEARCH:
		p->top0 = p->top;
		p->cur0 = p->cur;
		p->mj0 = p->mj;
		pane_search_prompt(u, &p->hooks);
		return true;
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		match_next(u, p, a == ACT_SEARCH_NEXT ? 1 : -1, h);
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
