/* ui_replay.c: the viewer's side of a replay: its keys, and keeping it in
 * step with the input, the clock and the screen. The replay itself
 * (src/replay.c) knows nothing of curses. */
#include "ui.h"

#include "glyph.h"

void
ui_replay_sync(struct ui *u)
{
	int64_t now = clock_mono_ms(), stamp;

	replay_index(u->rp, u->m, input_done(u->in));
	replay_tick(u->rp, now);
	replay_apply(u->rp, u->m, now);
	stamp = replay_stamp(u->rp, now);
	if (stamp != u->replay_shown) {
		u->replay_shown = stamp;
		u->dirty = true;
	}
}

/* The replay moved: the panes show where it is now. */
static void
follow_replay(struct ui *u)
{
	u->rows.n = (uint32_t)model_nitems(u->m);
	scroll_end(&u->ts, &u->rows, ui_body_height(u, PANE_TRANSCRIPT));
	list_select(&u->tl, (uint32_t)model_ncalls(u->m), ui_body_height(u, PANE_TIMELINE), NONE);
}

void
ui_replay_key(struct ui *u, enum action a, int key)
{
	struct replay *rp = u->rp;
	int64_t now = clock_mono_ms(), pos = replay_position(rp, now);
	const char *none = NULL;

	switch (a) {
	case ACT_REPLAY_PAUSE:
		replay_toggle(rp, now);
		break;
	case ACT_REPLAY_STEP:
		if (!replay_step(rp, u->m, 1, now))
			none = "no event after this one yet";
		break;
	case ACT_REPLAY_STEP_BACK:
		if (!replay_step(rp, u->m, -1, now))
			none = "no event before this one";
		break;
	case ACT_REPLAY_SEEK_BACK:
	case ACT_REPLAY_SEEK:
	case ACT_REPLAY_SEEK_BACK_LONG:
	case ACT_REPLAY_SEEK_LONG: {
		int64_t by = a == ACT_REPLAY_SEEK_BACK || a == ACT_REPLAY_SEEK ? 5000 : 30000;

		if (a == ACT_REPLAY_SEEK_BACK || a == ACT_REPLAY_SEEK_BACK_LONG)
			by = -by;
		replay_seek(rp, pos + by, now);
		break;
	}
	case ACT_REPLAY_JUMP:
		replay_seek(rp, replay_length(rp) * (key - '0') / 10, now);
		break;
	case ACT_REPLAY_PREV_CALL:
	case ACT_REPLAY_NEXT_CALL:
		if (!replay_goto_call(rp, u->m, a == ACT_REPLAY_NEXT_CALL ? 1 : -1, now))
			none = a == ACT_REPLAY_NEXT_CALL ? "no later tool call"
							 : "no earlier tool call";
		break;
	case ACT_REPLAY_PREV_PROMPT:
	case ACT_REPLAY_NEXT_PROMPT:
		if (!replay_goto_prompt(rp, a == ACT_REPLAY_NEXT_PROMPT ? 1 : -1, now))
			none = a == ACT_REPLAY_NEXT_PROMPT ? "no later prompt"
							   : "no earlier prompt";
		break;
	case ACT_REPLAY_FASTER:
	case ACT_REPLAY_SLOWER:
		replay_set_speed(rp, a == ACT_REPLAY_FASTER ? 2 : 0.5, now);
		ui_note(u, "speed " GLYPH_TIMES "%g", rp->speed);
		break;
	default:
		return;
	}
	replay_apply(rp, u->m, now);
	if (none != NULL)
		ui_note(u, "%s", none);
	else if (a != ACT_REPLAY_PAUSE && a != ACT_REPLAY_FASTER && a != ACT_REPLAY_SLOWER)
		follow_replay(u);
	u->dirty = true;
}
