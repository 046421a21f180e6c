/* pane_main.c: the main panes, the bottom layer: the transcript and the
 * timeline (side by side, one above the other, or one at a time, as
 * view.c lays them out), the status bar under them, and the keys they
 * share. While replaying, the replay's keys win over theirs. */
#include "ui.h"

#include <string.h>

#include "glyph.h"

/* The panes of the layer, by enum pane. */
static const struct pane_ops *const panes[PANE_COUNT] = {
	[PANE_TRANSCRIPT] = &pane_transcript_ops,
	[PANE_TIMELINE] = &pane_timeline_ops,
};

/* Draw both panes where the layout puts them, the rule between them and
 * the status bar. */
static void
main_draw(struct ui *u, void *st)
{
	struct layout *lay = &u->lay;
	int rows, cols;

	(void)st;
	getmaxyx(stdscr, rows, cols);
	if (lay->body[PANE_TRANSCRIPT].w > 0)
		render_set_width(&u->r, lay->body[PANE_TRANSCRIPT].w);
	u->rows.n = (uint32_t)model_nitems(u->m);
	for (int p = 0; p < PANE_COUNT; p++)
		if (lay->body[p].h > 0)
			panes[p]->draw(u, NULL);
	if (lay->sep.w > 0) {
		for (int y = lay->sep.y; y < lay->sep.y + lay->sep.h; y++) {
			move(y, lay->sep.x);
			ui_put(u, GLYPH_VRULE, strlen(GLYPH_VRULE), ROLE_BORDER);
		}
	}
	if (lay->kind == LAYOUT_TINY && rows > 1) {
		struct rect above = {0, 0, rows - 1, cols};

		ui_clear(u, &above, ROLE_NORMAL);
	}
	pane_status_draw(u, NULL);
	nav_draw(u);
}

/* F: follow the end of both panes, or stop following. */
static void
main_follow(struct ui *u)
{
	if (u->ts.follow) {
		u->ts.follow = false;
		ui_note(u, "follow off");
		return;
	}
	scroll_end(&u->ts, &u->rows, ui_body_height(u, PANE_TRANSCRIPT));
	list_select(&u->tl, (uint32_t)model_ncalls(u->m),
		    ui_body_height(u, PANE_TIMELINE), NONE);
	ui_note(u, "following");
}

/* The keys of the main panes: a replay's, navigation, the panes' shared
 * actions, then the focused pane's scrolling. */
static bool
main_key(struct ui *u, void *st, int key)
{
	enum action a;

	(void)st;
	if (nav_modal(u) && nav_key(u, key))
		return true;
	if (u->rp != NULL && (a = keys_lookup(KC_REPLAY, key)) != ACT_NONE) {
		ui_replay_key(u, a, key);
		return true;
	}
	if (nav_key(u, key))
		return true;
	switch (keys_lookup(KC_GLOBAL, key)) {
	case ACT_NEXT_PANE:
		u->focus = u->focus == PANE_TRANSCRIPT ? PANE_TIMELINE
						       : PANE_TRANSCRIPT;
		return true;
	case ACT_FOLLOW:
		main_follow(u);
		return true;
	case ACT_THINKING:
		render_set_thinking(&u->r, !u->r.thinking);
		ui_note(u, "thinking %s", u->r.thinking ? "unfolded" : "folded");
		return true;
	case ACT_NONE:
		break;
	default:
		/* The screen's own: quit, help, redraw. */
		return false;
	}
	return panes[u->focus]->key(u, NULL, key);
}

/* The pane under the pointer takes the mouse (the wheel scrolls the
 * transcript unless it is over the timeline). */
static bool
main_mouse(struct ui *u, void *st, const struct ui_mouse *ev)
{
	enum pane p = ui_mouse_in(&u->lay.body[PANE_TIMELINE], ev)
			      ? PANE_TIMELINE
			      : PANE_TRANSCRIPT;

	(void)st;
	if (nav_modal(u))
		return true; /* the search prompt takes none */
	return panes[p]->mouse(u, NULL, ev);
}

static const struct pane_ops main_ops = {
	.name = "main",
	.opaque = true,
	.draw = main_draw,
	.key = main_key,
	.mouse = main_mouse,
};

void
pane_main_open(struct ui *u)
{
	ui_layer_push(u, &main_ops, NULL);
}
