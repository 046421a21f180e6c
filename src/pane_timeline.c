/* pane_timeline.c: one row per tool call, a bar on its session's time axis,
 * and a selection that follows new calls while it is on the last one. */
#include "ui.h"

#include <stdio.h>
#include <string.h>

static void
timeline_title(struct ui *u, const struct rect *t)
{
	struct rline *l = &u->line;
	struct buf s = {0};
	size_t w = (size_t)t->w;
	enum role role = u->focus == PANE_TIMELINE ? ROLE_TITLE_FOCUS
						   : ROLE_TITLE;
	size_t n = model_ncalls(u->m);

	rline_reset(l);
	buf_addf(&s, " Tool calls \xC2\xB7 %zu", n);
	if (u->tl.sel != NONE && n > 0 && !u->tl.follow)
		buf_addf(&s, "  (%u/%zu)", u->tl.sel + 1, n);
	if (u->lay.kind == LAYOUT_NARROW)
		buf_adds(&s, " \xC2\xB7 Tab: transcript");
	rline_add(l, s.p, s.n, role, w);
	rline_pad(l, w, role);
	ui_draw_rline(u, t->y, t->x, l, ROLE_NORMAL);
	buf_free(&s);
}

void
timeline_draw(struct ui *u, const struct rect *title, const struct rect *body)
{
	uint32_t n = (uint32_t)model_ncalls(u->m);
	int y;

	list_fix(&u->tl, n, body->h);
	timeline_title(u, title);
	for (y = 0; y < body->h; y++) {
		uint32_t c = u->tl.top + (uint32_t)y;
		bool sel = c == u->tl.sel && u->focus == PANE_TIMELINE;

		if (c >= n)
			break;
		render_timeline_row(&u->r, c, body->w, &u->line);
		ui_draw_rline(u, body->y + y, body->x, &u->line,
			      sel ? ROLE_SELECTION : ROLE_NORMAL);
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

bool
timeline_action(struct ui *u, enum action a, int height)
{
	uint32_t n = (uint32_t)model_ncalls(u->m);
	int page = MAX(1, height - 1);

	switch (a) {
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
