/* pane_replay.c: the viewer's side of a replay, a layer over the main
 * panes (it draws nothing of its own): its keys, and keeping it in step
 * with the input, the clock and the screen. The replay itself
 * (src/replay.c) knows nothing of curses. */
#include "ui.h"

#include <stdlib.h>

#include "glyph.h"

/* The layer's state. */
struct preplay {
	struct replay rp;
	int64_t shown; /* replay_stamp when last looked at */
};

static const struct pane_ops replay_ops;

/* The replay over the main panes, or NULL. */
static struct preplay *
replay_of(struct ui *u)
{
	struct layer *l = ui_layer_find(u, &replay_ops);

	return l != NULL ? l->st : NULL;
}

/* Schedule what the input brought, move the position to the clock's, show
 * the model as of it; the screen is dirty when what it shows changed. */
static void
replay_sync(struct ui *u, struct preplay *p)
{
	int64_t now = clock_mono_ms(), stamp;

	replay_index(&p->rp, u->m, input_done(u->in));
	replay_tick(&p->rp, now);
	replay_apply(&p->rp, u->m, now);
	stamp = replay_stamp(&p->rp, now);
	if (stamp != p->shown) {
		p->shown = stamp;
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

/* A replay's key: play and pause, step, seek, go to a call or prompt,
 * the speed. */
static bool
replay_key(struct ui *u, void *st, int key)
{
	struct preplay *p = st;
	struct replay *rp = &p->rp;
	enum action a = keys_lookup(KC_REPLAY, key);
	int64_t now, pos;
	const char *none = NULL;

	if (a == ACT_NONE)
		return false;
	replay_sync(u, p);
	now = clock_mono_ms();
	pos = replay_position(rp, now);
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
		return true;
	}
	replay_apply(rp, u->m, now);
	if (none != NULL)
		ui_note(u, "%s", none);
	else if (a != ACT_REPLAY_PAUSE && a != ACT_REPLAY_FASTER && a != ACT_REPLAY_SLOWER)
		follow_replay(u);
	u->dirty = true;
	return true;
}

static bool
replay_work(struct ui *u, void *st)
{
	replay_sync(u, st);
	return false;
}

/* Wake when an event is due or a second passes on a clock shown. */
static int
replay_due(struct ui *u, void *st)
{
	struct preplay *p = st;

	(void)u;
	return replay_timeout(&p->rp, clock_mono_ms());
}

/* The input was read again: the replay starts again, at its speed. */
static void
replay_reset(struct ui *u, void *st)
{
	struct preplay *p = st;
	double speed = p->rp.speed;

	replay_free(&p->rp);
	replay_init(&p->rp, speed, u->opt.idle_limit, clock_mono_ms());
}

static void
replay_close(struct ui *u, void *st)
{
	struct preplay *p = st;

	(void)u;
	replay_free(&p->rp);
	free(p);
}

static const struct pane_ops replay_ops = {
	.name = "replay",
	.key = replay_key,
	.work = replay_work,
	.due = replay_due,
	.reset = replay_reset,
	.close = replay_close,
};

void
pane_replay_push(struct ui *u)
{
	struct preplay *p = xcalloc(1, sizeof *p);

	replay_init(&p->rp, u->opt.speed, u->opt.idle_limit, clock_mono_ms());
	ui_layer_push(u, &replay_ops, p);
}

bool
pane_replay_frame(struct ui *u)
{
	struct preplay *p = replay_of(u);

	if (p == NULL)
		return false;
	replay_apply(&p->rp, u->m, clock_mono_ms());
	return true;
}

bool
pane_replay_describe(struct ui *u, struct buf *mode, struct buf *position, struct buf *detail)
{
	struct preplay *p = replay_of(u);

	if (p == NULL)
		return false;
	replay_describe(&p->rp, clock_mono_ms(), mode, position, detail);
	return true;
}
