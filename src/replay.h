/* replay.h: replaying a session with its timing, without curses.
 *
 * The schedule gives each event a time in ms from the first event: its
 * recorded arrival time when the input is a recording; else its
 * timestamp_ms, or a tool call's startedAtMs/completedAtMs; and a steady
 * pace between events that have no time. Every pause is capped at the idle
 * limit. The schedule only grows (an event's time depends on the events
 * before it), so it is built while the input is indexed.
 *
 * What is shown at position T is the model as of E(T), the last event
 * scheduled at or before T: the model's limit. Finding it is a binary
 * search, so seeking and stepping back cost what stepping forward costs,
 * and the screen after a seek is the screen of a replay played to there.
 *
 * The clock is the caller's (monotonic ms), passed to every call, so the
 * tests run on a fake one. */
#ifndef AGENTVIEW_REPLAY_H
#define AGENTVIEW_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "input.h"
#include "source.h"
#include "model.h"
#include "util.h"

/* The pace between events that have no time of their own. */
#define REPLAY_PACE_MS 50
#define REPLAY_SPEED_MIN (1.0 / 64)
#define REPLAY_SPEED_MAX 1024.0

/* Which times the schedule comes from. */
enum replay_timing {
	RT_PACE,       /* no event has a time: a steady pace */
	RT_TIMESTAMPS, /* timestamp_ms and tool call times */
	RT_RECORDED,   /* arrival times recorded by agentview */
};

/* From event ev on, the events' clock is the schedule time plus off
 * (TIME_NONE: not known yet, no event before had a time). It changes only
 * where a pause was capped or a clock went backwards. */
struct replay_anchor {
	uint32_t ev;
	int64_t off;
};

struct replay {
	/* The schedule. */
	uint32_t *at;              /* ms of each event from the first, never
				      decreasing; saturates after 49 days */
	size_t n, cap;             /* events scheduled */
	struct replay_anchor *anc; /* in order of ev */
	size_t nanc, anccap;
	uint32_t *prompts; /* first events of the prompts, in order */
	size_t nprompts, promptcap;
	size_t items;    /* items looked at for prompts */
	int64_t idle_ms; /* the cap of every pause, or -1 */
	int64_t clock;   /* the events' clock at the last event
				      scheduled, or TIME_NONE */
	bool arrival;    /* an event had a recorded arrival time */
	bool timed;      /* an event had a time */
	bool complete;   /* the input has ended: nothing more comes */
	/* Playing. */
	double speed;
	bool paused;
	int64_t pos;    /* position (schedule ms) at `since` */
	int64_t since;  /* the caller's clock when pos was taken */
	uint32_t limit; /* the last event shown, NONE before any */
};

/* idle_limit_s < 0: no cap. Playing from the start, at now. */
void replay_init(struct replay *rp, double speed, double idle_limit_s, int64_t now);
void replay_free(struct replay *rp);

/* Schedule the events the model got since the last call; complete: the
 * input has ended. */
void replay_index(struct replay *rp, const struct model *m, bool complete);
enum replay_timing replay_timing(const struct replay *rp);
const char *replay_timing_name(enum replay_timing t);
/* The schedule's length: the time of the last event scheduled. */
int64_t replay_length(const struct replay *rp);
/* E(t): the last event scheduled at or before t, NONE if there is none. */
uint32_t replay_event_at(const struct replay *rp, int64_t t);
/* The position at now. */
int64_t replay_position(const struct replay *rp, int64_t now);
/* The events' clock at position t with the events up to e shown
 * (TIME_NONE when unknown): what "now" is for running calls. */
int64_t replay_clock_at(const struct replay *rp, uint32_t e, int64_t t);
/* Everything is shown and nothing more comes. */
bool replay_at_end(const struct replay *rp);

/* Move the position to now's; at the end of a complete input, pause there;
 * at the end of one still being read, wait there. */
void replay_tick(struct replay *rp, int64_t now);
/* Show the model as of the replay: its limit, and its clock. */
void replay_apply(const struct replay *rp, struct model *m, int64_t now);
/* Milliseconds on the caller's clock until the screen changes by itself
 * (an event is due, a second passes on a clock shown), or -1: never while
 * paused or waiting for input. */
int replay_timeout(const struct replay *rp, int64_t now);
/* A number that changes when what the status bar and the running calls
 * show of the replay changes. */
int64_t replay_stamp(const struct replay *rp, int64_t now);

/* Pause, or resume; at the end, play again from the start. */
void replay_toggle(struct replay *rp, int64_t now);
/* Pause and show one more event (dir > 0) or one fewer: events that change
 * nothing on screen (recaps, recording lines) are stepped over. False when
 * there is none. */
bool replay_step(struct replay *rp, const struct model *m, int dir, int64_t now);
/* Go to position t (clamped to the schedule); keeps playing or paused. */
void replay_seek(struct replay *rp, int64_t t, int64_t now);
/* Go to where event e comes in, showing it. */
void replay_goto_event(struct replay *rp, uint32_t e, int64_t now);
/* Go to the start of the previous (dir < 0) or next tool call, or prompt,
 * in time. False when there is none. */
bool replay_goto_call(struct replay *rp, const struct model *m, int dir, int64_t now);
bool replay_goto_prompt(struct replay *rp, int dir, int64_t now);
/* Multiply the speed by factor, within REPLAY_SPEED_MIN..MAX. */
void replay_set_speed(struct replay *rp, double factor, int64_t now);

/* The status bar's words: mode ("replay ×4", "paused", empty at the end,
 * where the session's state says more), position ("01:12 / 04:30") and
 * detail ("recorded timing · event 12/340"). */
void replay_describe(const struct replay *rp, int64_t now, struct buf *mode, struct buf *position,
		     struct buf *detail);

/* A clock to wait on: the real one, or a test's fake one. */
struct replay_clock {
	int64_t (*now)(void *ctx);
	void (*sleep)(void *ctx, int64_t ms);
	void *ctx;
};

/* The monotonic clock and nanosleep. */
extern const struct replay_clock replay_real_clock;

/* Print mode: a replay in front of what prints the lines (a printer of
 * print.h). Each line goes on when its event is due; other lines (blank
 * ones) at once. */
struct replay_printer {
	struct replay rp;
	const struct model *m; /* not owned */
	input_line_fn next;    /* where the lines go on to, with next_ctx */
	void *next_ctx;
	FILE *out; /* flushed before each wait */
	const struct replay_clock *clock;
	bool started;
};

void replay_printer_init(struct replay_printer *rpp, const struct model *m, input_line_fn next,
			 void *next_ctx, FILE *out, double speed, double idle_limit_s,
			 const struct replay_clock *clock);
void replay_printer_free(struct replay_printer *rpp);
/* An input_line_fn: wait until the line's event is due, then hand it on. */
void replay_printer_line(void *ctx, const struct source *s, const struct line *ln, uint32_t ev);

#endif
