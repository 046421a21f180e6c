/* pane_main.c: the main panes, the bottom layer: the transcript and the
 * timeline (side by side, one above the other, or one at a time, as
 * view.c lays them out), the status bar under them, and the keys they
 * share. The search and, while replaying, the replay are layers over them
 * (pushed and taken off with them); the replay's keys win over theirs. */
#include "ui.h"

#include <stdlib.h>
#include <string.h>

#include "glyph.h"

/* The layer's state. */
struct pmain {
	struct ui_copied copied; /* what y copied last */
	int64_t drawn_sec;       /* the wall second a live clock last showed */
};

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

	if (!pane_replay_frame(u))
		((struct pmain *)st)->drawn_sec = u->m->now_ms / 1000;
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
	if (lay->kind == LAYOUT_TINY)
		ui_too_small(u, LINES - 1);
	pane_status_draw(u);
}

/* Something on screen changes by itself each second: a live (or waiting) session's
 * clock, or a running call (a replay's clocks run on its own time). */
static bool
main_ticking(struct ui *u)
{
	struct model *m = u->m;
	enum session_state st;

	if (m->nses == 0 || u->opt.replay)
		return false;
	st = model_session_state(m, (uint32_t)(m->nses - 1));
	return st == SS_LIVE || st == SS_WAITING;
}

/* A new second on a clock that is shown: draw it. */
static bool
main_work(struct ui *u, void *st)
{
	struct pmain *pm = st;

	if (main_ticking(u) && clock_wall_ms() / 1000 != pm->drawn_sec)
		u->dirty = true;
	return false;
}

/* Wake for the next second of a clock shown. */
static int
main_due(struct ui *u, void *st)
{
	(void)st;
	return main_ticking(u) ? (int)(1000 - clock_wall_ms() % 1000 + 5) : -1;
}

/* F: follow the end of both panes, or stop following. */
static void
main_follow(struct ui *u)
{
	if (ui_following(u)) {
		u->ts.follow = false;
		ui_note(u, "follow off");
		return;
	}
	scroll_end(&u->ts, &u->rows, ui_body_height(u, PANE_TRANSCRIPT));
	list_select(&u->tl, (uint32_t)model_ncalls(u->m), ui_body_height(u, PANE_TIMELINE), NONE);
	ui_note(u, ui_following(u) ? "following" : "at the end: nothing more will come");
}

/* Hide or show a kind of item; the selection and the search follow what
 * is shown. */
static void
main_filter(struct ui *u, enum action a)
{
	unsigned bit = jump_filter_mask(a), hide = u->r.hide ^ bit;

	render_set_hidden(&u->r, hide);
	if (u->tsel != NONE && u->tsel < model_nitems(u->m) &&
	    (hide & (1u << u->m->it[u->tsel].type)))
		u->tsel = NONE;
	scroll_fix(&u->ts, &u->rows, ui_body_height(u, PANE_TRANSCRIPT));
	pane_search_again(u);
	/* What is hidden the status bar says while it is (the search's
	 * piece: "hiding thinking, tool calls"): a kind shown again is said
	 * once, a kind hidden is not said twice. */
	if (hide & bit)
		ui_note(u, "%s", "");
	else
		ui_note(u, "showing %s",
			a == ACT_HIDE_THINKING  ? "thinking"
			: a == ACT_HIDE_TOOLS   ? "tool calls"
			: a == ACT_HIDE_NOTICES ? "notices"
						: "diagnostics and stderr");
}

/* Enter: the detail of the timeline's call; in the transcript, of the
 * call the match shown is in (at the match), of the selected call when
 * it shows, or of the first call on screen. */
static void
main_open_detail(struct ui *u)
{
	uint32_t it = NONE, call;
	uint64_t j;

	/* The call of the match shown, at the match. */
	if (u->focus == PANE_TRANSCRIPT && pane_search_detail_at(u, &call, &j)) {
		ui_jump_select(u, u->m->call[call].item);
		pane_detail_open_at(u, call, j);
		return;
	}
	if (u->focus == PANE_TIMELINE) {
		if (u->tl.sel != NONE && u->tl.sel < model_ncalls(u->m)) {
			pane_detail_open(u, model_order_call(u->m, u->tl.sel));
			return;
		}
	} else if (u->tsel != NONE && u->tsel < model_nitems(u->m) &&
		   u->m->it[u->tsel].type == IT_TOOL && ui_jump_on_screen(u, u->tsel, 0)) {
		it = u->tsel;
	} else if (u->tsel != NONE && u->tsel < model_nitems(u->m) &&
		   u->m->it[u->tsel].type == IT_QUERY &&
		   u->m->query[u->m->it[u->tsel].ref].call != NONE &&
		   ui_jump_on_screen(u, u->tsel, 0)) {
		/* A decision asked about a call: the call's detail. */
		it = u->m->call[u->m->query[u->m->it[u->tsel].ref].call].item;
	} else {
		it = ui_jump_first_call(u);
	}
	if (it == NONE) {
		ui_note(u, "no tool call here: ] goes to the next one");
		return;
	}
	ui_jump_select(u, it);
	pane_detail_open(u, u->m->it[it].ref);
}

/* The keys of the panes together: the search, jumps, filters, the focus,
 * follow, thinking, the help. */
static bool
main_action(struct ui *u, enum action a)
{
	switch (a) {
	case ACT_HELP:
		pane_help_open(u, KC_CONTEXTS);
		return true;
	case ACT_SEARCH:
		pane_search_open(u);
		return true;
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		pane_search_next(u, a == ACT_SEARCH_NEXT ? 1 : -1);
		return true;
	case ACT_FILTER:
		pane_search_filter_open(u);
		return true;
	case ACT_PREV_TOOL:
	case ACT_NEXT_TOOL:
		ui_jump(u, JUMP_TOOL, a == ACT_NEXT_TOOL ? 1 : -1);
		return true;
	case ACT_PREV_PROMPT:
	case ACT_NEXT_PROMPT:
		ui_jump(u, JUMP_PROMPT, a == ACT_NEXT_PROMPT ? 1 : -1);
		return true;
	case ACT_NEXT_PROBLEM:
		ui_jump(u, JUMP_PROBLEM, 1);
		return true;
	case ACT_HIDE_THINKING:
	case ACT_HIDE_TOOLS:
	case ACT_HIDE_NOTICES:
	case ACT_HIDE_DIAGS:
		main_filter(u, a);
		return true;
	case ACT_NEXT_PANE:
		u->focus = u->focus == PANE_TRANSCRIPT ? PANE_TIMELINE : PANE_TRANSCRIPT;
		return true;
	case ACT_FOLLOW:
		main_follow(u);
		return true;
	case ACT_COPY_RESUME:
		ui_take_resume(u);
		return true;
	case ACT_THINKING:
		render_set_thinking(&u->r, !u->r.thinking);
		ui_note(u, "thinking %s", u->r.thinking ? "unfolded" : "folded");
		return true;
	case ACT_MARKDOWN:
		render_set_markdown(&u->r, !u->r.markdown);
		ui_note(u, "%s", u->r.markdown ? "Markdown rendered" : "Markdown as written");
		return true;
	default:
		/* The screen's own (quit, help, redraw), or none. */
		return false;
	}
}

/* The panes' shared keys, Enter, and the focused pane's scrolling. */
static bool
main_key(struct ui *u, void *st, int key)
{
	struct pmain *pm = st;
	enum action a = keys_lookup(KC_GLOBAL, key);

	if (a != ACT_NONE)
		return main_action(u, a);
	switch (keys_lookup(KC_SCROLL, key)) {
	case ACT_DETAIL:
		main_open_detail(u);
		return true;
	case ACT_COPY:
	case ACT_EDIT:
	case ACT_PAGER:
		ui_take_main(u, keys_lookup(KC_SCROLL, key), &pm->copied);
		return true;
	default:
		break;
	}
	return panes[u->focus]->key(u, NULL, key);
}

/* The pane under the pointer takes the mouse (the wheel scrolls the
 * transcript unless it is over the timeline). */
static bool
main_mouse(struct ui *u, void *st, const struct ui_mouse *ev)
{
	enum pane p =
		ui_mouse_in(&u->lay.body[PANE_TIMELINE], ev) ? PANE_TIMELINE : PANE_TRANSCRIPT;

	(void)st;
	return panes[p]->mouse(u, NULL, ev);
}

static void
main_close(struct ui *u, void *st)
{
	(void)u;
	free(st);
}

static const struct pane_ops main_ops = {
	.name = "main",
	.opaque = true,
	.draw = main_draw,
	.key = main_key,
	.mouse = main_mouse,
	.work = main_work,
	.due = main_due,
	.close = main_close,
};

void
pane_main_open(struct ui *u)
{
	struct pmain *pm = xcalloc(1, sizeof *pm);

	pm->copied.call = NONE;
	ui_layer_push(u, &main_ops, pm);
	pane_search_push(u);
	if (u->opt.replay)
		pane_replay_push(u);
}

/* The layers over the main panes go with them: the search, the replay,
 * and whatever was opened over them. */
void
pane_main_close(struct ui *u)
{
	if (ui_layer_find(u, &main_ops) == NULL)
		return;
	while (u->layer[u->nlayer - 1].ops != &main_ops)
		ui_layer_pop(u, u->layer[u->nlayer - 1].ops);
	ui_layer_pop(u, &main_ops);
}
