/* pane_timeline.c: one row per tool call, a bar on its session's time axis,
 * and a selection that follows new calls while it is on the last one. */
#include "ui.h"

#include <stdio.h>
#include <string.h>

#include "glyph.h"
#include "words.h"

static void
timeline_title(struct ui *u, const struct rect *t)
{
	struct rline *l = &u->line;
	struct buf s = {0};
	size_t w = (size_t)t->w;
	enum role role = u->focus == PANE_TIMELINE ? ROLE_TITLE_FOCUS : ROLE_TITLE;
	size_t n = model_ncalls(u->m), ns = model_nsessions(u->m);
	uint32_t ses = u->tl.sel != NONE && u->tl.sel < n ? u->m->call[u->tl.sel].session
		       : ns > 0                           ? (uint32_t)(ns - 1)
							  : NONE;

	rline_reset(l);
	buf_addf(&s, " Tool calls " GLYPH_DOT " %zu", n);
	if (u->tl.sel != NONE && n > 0 && !u->tl.follow)
		buf_addf(&s, "  (%u/%zu)", u->tl.sel + 1, n);
	if (u->lay.kind == LAYOUT_NARROW)
		buf_adds(&s, " " GLYPH_DOT " Tab: transcript");
	/* The selected call's session (or the newest) has no time: why no
	 * bar is drawn (after the narrow layout's hint, which matters more). */
	if (ses != NONE && n > 0) {
		size_t mark = s.n;

		buf_adds(&s, " " GLYPH_DOT " ");
		if (!words_no_timing(u->m, ses, &s))
			buf_cut(&s, mark);
	}
	rline_add(l, s.p, s.n, role, w);
	rline_pad(l, w, role);
	ui_draw_rline(u, t->y, t->x, l, ROLE_NORMAL);
	buf_free(&s);
}

/* Of two runs compared, the row of the list that the divider between
 * them stands above (the first of run B's calls), or NONE. */
static uint32_t
divider_row(struct ui *u, uint32_t n)
{
	char run;

	if (!u->m->same_axis || n == 0)
		return NONE;
	run = model_session_run(u->m, u->m->call[model_order_call(u->m, 0)].session);
	for (uint32_t row = 1; row < n; row++)
		if (model_session_run(u->m, u->m->call[model_order_call(u->m, row)].session) != run)
			return row;
	return NONE;
}

/* The rows the calls have: the body's, less the divider's. */
static int
timeline_height(struct ui *u, uint32_t n, int body)
{
	return divider_row(u, n) != NONE ? MAX(1, body - 1) : body;
}

/* Where the divider is drawn: the body's row of it, or -1. */
static int
divider_y(struct ui *u, uint32_t n, int height)
{
	uint32_t d = divider_row(u, n);

	return d != NONE && d >= u->tl.top && d - u->tl.top < (uint32_t)height
		       ? (int)(d - u->tl.top)
		       : -1;
}

/* "── B: run.ndjson ───": run B starts below. */
static void
divider_draw(struct ui *u, uint32_t n, int y, const struct rect *body)
{
	struct model *m = u->m;
	uint32_t s = m->call[model_order_call(m, divider_row(u, n))].session;
	const char *name = m->src[m->ses[s].src].src->name, *base = strrchr(name, '/');
	struct rline *l = &u->line;
	struct buf t = {0};
	size_t w = (size_t)body->w;

	buf_addf(&t, GLYPH_RULE GLYPH_RULE " %c: %s ", model_session_run(m, s),
		 base != NULL ? base + 1 : name);
	rline_reset(l);
	rline_add(l, t.p, t.n, ROLE_SESSION, w);
	while (l->width < w)
		rline_adds(l, GLYPH_RULE, ROLE_SESSION, w);
	ui_draw_rline(u, body->y + y, body->x, l, ROLE_NORMAL);
	buf_free(&t);
}

/* The title and a row per call from the top of the list down (two runs
 * compared: the divider between them). */
static void
timeline_draw(struct ui *u, void *st)
{
	const struct rect *body = &u->lay.body[PANE_TIMELINE];
	uint32_t n = (uint32_t)model_ncalls(u->m), row;
	int y, h = timeline_height(u, n, body->h), dy;

	(void)st;
	list_fix(&u->tl, n, h);
	dy = divider_y(u, n, h);
	timeline_title(u, &u->lay.title[PANE_TIMELINE]);
	/* Its rows are the calls in the order the transcript is read in
	 * (model_order.c: a sub-agent's under its task's). */
	for (y = 0, row = u->tl.top; y < body->h; y++) {
		bool sel = row == u->tl.sel && u->focus == PANE_TIMELINE;

		if (y == dy) {
			divider_draw(u, n, y, body);
			continue;
		}
		if (row >= n)
			break;
		render_timeline_row(&u->r, model_order_call(u->m, row), body->w, &u->line);
		ui_draw_rline(u, body->y + y, body->x, &u->line,
			      sel ? ROLE_SELECTION : ROLE_NORMAL);
		row++;
	}
	if (y < body->h) {
		struct rect rest = {body->y + y, body->x, body->h - y, body->w};

		ui_clear(u, &rest, ROLE_NORMAL);
		if (n == 0) {
			ui_undrawn(u, body->y);
			ui_role(u, ROLE_DIM);
			mvaddnstr(body->y, body->x, " no tool calls yet", body->w);
		}
	}
}

/* The scrolling keys move the selection. */
static bool
timeline_key(struct ui *u, void *st, int key)
{
	uint32_t n = (uint32_t)model_ncalls(u->m);
	int height = timeline_height(u, n, ui_body_height(u, PANE_TIMELINE)),
	    page = MAX(1, height - 1);

	(void)st;
	switch (keys_lookup(KC_SCROLL, key)) {
	case ACT_DOWN:
		list_move(&u->tl, n, height, 1);
		return true;
	case ACT_UP:
		list_move(&u->tl, n, height, -1);
		return true;
	case ACT_PAGE_DOWN:
		list_move(&u->tl, n, height, page);
		return true;
	case ACT_PAGE_UP:
		list_move(&u->tl, n, height, -page);
		return true;
	case ACT_HALF_DOWN:
		list_move(&u->tl, n, height, MAX(1, height / 2));
		return true;
	case ACT_HALF_UP:
		list_move(&u->tl, n, height, -MAX(1, height / 2));
		return true;
	case ACT_TOP:
		list_select(&u->tl, n, height, 0);
		return true;
	case ACT_BOTTOM:
		list_select(&u->tl, n, height, n == 0 ? 0 : n - 1);
		return true;
	default:
		return false;
	}
}

/* The wheel moves the selection; a click selects the call under it and
 * shows it in the transcript, and a click on the selected call opens its
 * detail. */
static bool
timeline_mouse(struct ui *u, void *st, const struct ui_mouse *ev)
{
	const struct rect *body = &u->lay.body[PANE_TIMELINE];
	uint32_t n = (uint32_t)model_ncalls(u->m), row, c;
	int h = timeline_height(u, n, body->h), y = ev->y - body->y, dy = divider_y(u, n, h);

	(void)st;
	if (ev->wheel != 0) {
		list_move(&u->tl, n, h, ev->wheel);
		return true;
	}
	if (!ev->click || !ui_mouse_in(body, ev))
		return false;
	u->focus = PANE_TIMELINE;
	if (y == dy)
		return true;
	row = u->tl.top + (uint32_t)(dy >= 0 && y > dy ? y - 1 : y);
	if (row >= n)
		return true;
	c = model_order_call(u->m, row);
	if (row == u->tl.sel && !u->tl.follow)
		pane_detail_open(u, c);
	list_select(&u->tl, n, h, row);
	u->tl.follow = false;
	u->tsel = u->m->call[c].item;
	ui_jump_reveal(u, u->tsel, 0);
	return true;
}

const struct pane_ops pane_timeline_ops = {
	.name = "timeline",
	.draw = timeline_draw,
	.key = timeline_key,
	.mouse = timeline_mouse,
};
