/* ui_jump.c: where the transcript's view goes: which item shows on which
 * row of the screen, showing an item (reveal) and selecting it, and the
 * jumps between tool calls, prompts and calls that went wrong (the items
 * they land on are found by jump.c, without curses). */
#include "ui.h"

/* Called for each row on screen: its item, its row in the item, its
 * screen row; true stops the walk. */
typedef bool (*visit_fn)(struct ui *u, uint32_t it, uint32_t row, int y, void *ctx);

/* Walk the transcript's rows on screen, top to bottom; the item the walk
 * stopped at, or NONE. */
static uint32_t
visible_items(struct ui *u, visit_fn fn, void *ctx)
{
	uint32_t pos = u->ts.top, row = u->ts.row, it;
	int y = 0, h = ui_body_height(u, PANE_TRANSCRIPT);

	/* The scroll is over positions of the order the transcript is read
	 * in (model_order.c). */
	while (pos != NONE && y < h && (it = model_order_item(u->m, pos)) != NONE) {
		uint32_t n = render_rows(&u->r, it);

		for (; row < n && y < h; row++, y++)
			if (fn(u, it, row, y, ctx))
				return it;
		pos++;
		row = 0;
	}
	return NONE;
}

struct at {
	uint32_t it, row;
	int y;
};

/* Stop at the row asked for: by item and row, or by screen row. */
static bool
visit_at(struct ui *u, uint32_t it, uint32_t row, int y, void *ctx)
{
	struct at *a = ctx;

	(void)u;
	if (a->it != NONE)
		return a->it == it && a->row == row;
	return y == a->y;
}

bool
ui_jump_on_screen(struct ui *u, uint32_t it, uint32_t row)
{
	struct at a = {it, row, -1};

	return u->lay.body[PANE_TRANSCRIPT].h > 0 && visible_items(u, visit_at, &a) != NONE;
}

uint32_t
ui_jump_item_at(struct ui *u, int y)
{
	struct at a = {NONE, 0, y};

	return visible_items(u, visit_at, &a);
}

/* Stop at the first tool call. */
static bool
visit_tool(struct ui *u, uint32_t it, uint32_t row, int y, void *ctx)
{
	(void)row;
	(void)y;
	(void)ctx;
	return u->m->it[it].type == IT_TOOL;
}

uint32_t
ui_jump_first_call(struct ui *u)
{
	return visible_items(u, visit_tool, NULL);
}

uint32_t
ui_jump_top(struct ui *u)
{
	uint32_t it = u->ts.top == NONE ? NONE : model_order_item(u->m, u->ts.top);

	return it == NONE ? 0 : it;
}

void
ui_jump_reveal(struct ui *u, uint32_t it, uint32_t row)
{
	int h = ui_body_height(u, PANE_TRANSCRIPT);
	uint32_t n, pos;

	if (ui_jump_on_screen(u, it, row))
		return;
	pos = model_order_pos(u->m, it);
	scroll_to_item(&u->ts, &u->rows, h, pos);
	n = render_rows(&u->r, it);
	if (pos != NONE && u->ts.top == pos && n > 0)
		u->ts.row = MIN(row, n - 1);
	scroll_by(&u->ts, &u->rows, h, -(int64_t)MIN((uint32_t)(h / 4), row + (uint32_t)h / 4));
	/* Near the end, a full last screen rather than a short one. */
	if (scroll_at_end(&u->ts, &u->rows, h) || !ui_jump_on_screen(u, it, row)) {
		scroll_end(&u->ts, &u->rows, h);
		u->ts.follow = false;
	}
}

void
ui_jump_select(struct ui *u, uint32_t it)
{
	u->tsel = it;
	if (it != NONE && u->m->it[it].type == IT_TOOL)
		list_select(&u->tl, (uint32_t)model_ncalls(u->m), ui_body_height(u, PANE_TIMELINE),
			    model_call_row(u->m, u->m->it[it].ref));
}

/* Where a jump starts: the timeline's selection when it has the focus,
 * the transcript's selection while on screen, else the top of the screen
 * (forward from just before it, so that the top item itself counts). */
static uint32_t
jump_from(struct ui *u, int dir)
{
	uint32_t top = u->ts.top == NONE ? 0 : u->ts.top;

	if (u->focus == PANE_TIMELINE && u->tl.sel != NONE && u->tl.sel < model_ncalls(u->m))
		return u->m->call[model_order_call(u->m, u->tl.sel)].item;
	if (u->tsel != NONE && u->tsel < model_nitems(u->m) && ui_jump_on_screen(u, u->tsel, 0))
		return u->tsel;
	/* The item before the top one, in the order read. */
	if (dir > 0)
		return top == 0 ? NONE : model_order_item(u->m, top - 1);
	return ui_jump_top(u);
}

void
ui_jump(struct ui *u, enum jump_target what, int dir)
{
	static const char *const names[] = {
		[JUMP_TOOL] = "tool call",
		[JUMP_PROMPT] = "prompt",
		[JUMP_PROBLEM] = "failed, rejected or orphaned call",
	};
	uint32_t from = jump_from(u, dir), it;
	bool wrap = what == JUMP_PROBLEM;

	/* What the filters hide is not jumped to. */
	it = jump_find(u->m, from, dir, what, u->r.hide, wrap);
	u->dirty = true;
	if (it == NONE) {
		ui_note(u, "no %s %s", dir > 0 ? "next" : "previous", names[what]);
		return;
	}
	if (wrap && from != NONE &&
	    (dir > 0 ? model_order_pos(u->m, it) <= model_order_pos(u->m, from)
		     : model_order_pos(u->m, it) >= model_order_pos(u->m, from)))
		ui_note(u, "wrapped: %s", it == from ? "the only one" : "from the other end");
	ui_jump_select(u, it);
	ui_jump_reveal(u, it, 0);
}
