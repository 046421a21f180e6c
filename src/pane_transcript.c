/* pane_transcript.c: the transcript: items as wrapped rows, scrolled like
 * less, following new events while at the bottom. */
#include "ui.h"

#include <stdio.h>
#include <string.h>

#include "glyph.h"

/* The pane's title: its name, where the view is, and follow state. */
static void
transcript_title(struct ui *u, const struct rect *t)
{
	struct rline *l = &u->line;
	char pos[64];
	size_t w = (size_t)t->w;
	enum role role = u->focus == PANE_TRANSCRIPT ? ROLE_TITLE_FOCUS : ROLE_TITLE;

	rline_reset(l);
	rline_adds(l, " Transcript", role, w);
	if (u->lay.kind == LAYOUT_NARROW)
		rline_adds(l, " " GLYPH_DOT " Tab: calls", role, w);
	if (u->rows.n == 0 || u->ts.top == NONE)
		snprintf(pos, sizeof pos, "empty");
	else if (scroll_at_end(&u->ts, &u->rows, u->lay.body[PANE_TRANSCRIPT].h))
		snprintf(pos, sizeof pos, ui_following(u) ? "end, following" : "end");
	else if (u->ts.top == 0 && u->ts.row == 0)
		snprintf(pos, sizeof pos, "top");
	else
		snprintf(pos, sizeof pos, "%d%%", (int)((uint64_t)u->ts.top * 100 / u->rows.n));
	if (u->ts.unseen > 0 && !u->ts.follow) {
		size_t n = strlen(pos);

		snprintf(pos + n, sizeof pos - n, ", +%llu new", (unsigned long long)u->ts.unseen);
	}
	if (w > strlen(pos) + 14) {
		rline_pad(l, w - strlen(pos) - 1, role);
		rline_adds(l, pos, role, w);
	}
	rline_pad(l, w, role);
	ui_draw_rline(u, t->y, t->x, l, ROLE_NORMAL);
}

/* One row of a block, padded to the pane's width: its text in its role,
 * or its segments in theirs (a reply's Markdown); all of it in the
 * selection's when selected. */
static void
draw_row(struct ui *u, const struct block *b, size_t i, int y, const struct rect *body,
	 bool selected)
{
	const struct rrow *row = &b->row[i];
	const struct seg *seg = b->seg + row->seg;
	size_t nseg = selected ? 0 : row->nseg;
	int x = MIN((int)row->indent, body->w);
	enum role role = selected ? ROLE_SELECTION : (enum role)row->role;
	uint64_t h = pane_search_hash(u);
	size_t ca = SIZE_MAX, cb = SIZE_MAX;

	/* The match shown, in reverse. */
	pane_search_mark(u, b->item, (uint32_t)i, &ca, &cb);
	h = ui_hash(h, &ca, sizeof ca);
	h = ui_hash(h, b->text.p + row->off, row->len);
	h = ui_hash(h, &role, sizeof role);
	h = ui_hash(h, &row->indent, sizeof row->indent);
	h = ui_hash(h, &row->width, sizeof row->width);
	for (size_t k = 0; k < nseg; k++) {
		h = ui_hash(h, &seg[k].len, sizeof seg[k].len);
		h = ui_hash(h, &seg[k].role, sizeof seg[k].role);
	}
	if (ui_drawn(u, y, body->x, body->w, h))
		return;
	move(y, body->x);
	ui_blank(u, x, selected ? ROLE_SELECTION : ROLE_NORMAL);
	if (row->len > 0 && x < body->w && nseg == 0)
		pane_search_put_line(u, b->text.p + row->off, 0, row->len, 0, row->len, role, ca,
				     cb);
	/* Segments cover the row's bytes in order: a match across two is
	 * found in the row's text, each part drawn in its segment. */
	for (size_t k = 0, at = 0; x < body->w && k < nseg; at += seg[k].len, k++)
		pane_search_put_line(u, b->text.p + row->off, 0, row->len, at, at + seg[k].len,
				     (enum role)seg[k].role, ca, cb);
	x += row->width;
	ui_blank(u, body->w - x, selected ? ROLE_SELECTION : ROLE_NORMAL);
}

/* The title and the rows from the scroll position down. */
static void
transcript_draw(struct ui *u, void *st)
{
	const struct rect *body = &u->lay.body[PANE_TRANSCRIPT];
	uint32_t pos, row, it;
	int y = body->y, end = body->y + body->h;

	(void)st;
	scroll_fix(&u->ts, &u->rows, body->h);
	pos = u->ts.top;
	row = u->ts.row;
	transcript_title(u, &u->lay.title[PANE_TRANSCRIPT]);
	/* The scroll is over positions of the order the transcript is read
	 * in; the selection is an item. */
	while (pos != NONE && pos < u->rows.n && y < end &&
	       (it = model_order_item(u->m, pos)) != NONE) {
		const struct block *b = render_item(&u->r, it);

		for (; row < b->nrow && y < end; row++, y++)
			draw_row(u, b, row, y, body, it == u->tsel);
		pos++;
		row = 0;
	}
	if (y < end) {
		struct rect rest = {y, body->x, end - y, body->w};

		ui_clear(u, &rest, ROLE_NORMAL);
		if (u->rows.n == 0 && body->h > 0) {
			ui_undrawn(u, body->y);
			ui_role(u, ROLE_DIM);
			mvaddnstr(body->y, body->x,
				  model_ended(u->m) ? " (no events in the input)"
						    : " waiting for events...",
				  body->w);
		}
	}
}

/* The scrolling keys, as in less. */
static bool
transcript_key(struct ui *u, void *st, int key)
{
	int height = ui_body_height(u, PANE_TRANSCRIPT), page = MAX(1, height - 1);

	(void)st;
	switch (keys_lookup(KC_SCROLL, key)) {
	case ACT_DOWN:
		scroll_by(&u->ts, &u->rows, height, 1);
		return true;
	case ACT_UP:
		scroll_by(&u->ts, &u->rows, height, -1);
		return true;
	case ACT_PAGE_DOWN:
		scroll_by(&u->ts, &u->rows, height, page);
		return true;
	case ACT_PAGE_UP:
		scroll_by(&u->ts, &u->rows, height, -page);
		return true;
	case ACT_HALF_DOWN:
		scroll_by(&u->ts, &u->rows, height, MAX(1, height / 2));
		return true;
	case ACT_HALF_UP:
		scroll_by(&u->ts, &u->rows, height, -MAX(1, height / 2));
		return true;
	case ACT_TOP:
		scroll_home(&u->ts, &u->rows);
		return true;
	case ACT_BOTTOM:
		scroll_end(&u->ts, &u->rows, height);
		return true;
	default:
		return false;
	}
}

/* The wheel scrolls; a click selects the item under it, and a click on
 * the selected call opens its detail. */
static bool
transcript_mouse(struct ui *u, void *st, const struct ui_mouse *ev)
{
	const struct rect *body = &u->lay.body[PANE_TRANSCRIPT];
	uint32_t it;

	(void)st;
	if (ev->wheel != 0) {
		scroll_by(&u->ts, &u->rows, ui_body_height(u, PANE_TRANSCRIPT), ev->wheel);
		return true;
	}
	if (!ev->click || !ui_mouse_in(body, ev))
		return false;
	it = ui_jump_item_at(u, ev->y - body->y);
	u->focus = PANE_TRANSCRIPT;
	if (it == NONE)
		return true;
	if (it == u->tsel && u->m->it[it].type == IT_TOOL)
		pane_detail_open(u, u->m->it[it].ref);
	else
		ui_jump_select(u, it);
	return true;
}

const struct pane_ops pane_transcript_ops = {
	.name = "transcript",
	.draw = transcript_draw,
	.key = transcript_key,
	.mouse = transcript_mouse,
};
