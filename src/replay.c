/* replay.c: the schedule of a replay, its position, and what it shows. */
#include "replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "glyph.h"

void
replay_init(struct replay *rp, double speed, double idle_limit_s, int64_t now)
{
	memset(rp, 0, sizeof *rp);
	rp->idle_ms = idle_limit_s < 0 ? -1 : (int64_t)(idle_limit_s * 1000);
	rp->clock = TIME_NONE;
	rp->speed = speed;
	if (!(rp->speed >= REPLAY_SPEED_MIN))
		rp->speed = REPLAY_SPEED_MIN;
	if (rp->speed > REPLAY_SPEED_MAX)
		rp->speed = REPLAY_SPEED_MAX;
	rp->since = now;
	rp->limit = NONE;
}

void
replay_free(struct replay *rp)
{
	free(rp->at);
	free(rp->anc);
	free(rp->prompts);
	memset(rp, 0, sizeof *rp);
	rp->limit = NONE;
}

/* --- the schedule -------------------------------------------------------- */

/* The time event e carries: its own (arrival or timestamp_ms), or for a
 * tool call's started or completed event that has none, the call's
 * startedAtMs or completedAtMs; TIME_NONE otherwise. */
static int64_t
event_time(const struct model *m, uint32_t e)
{
	const struct event *ev = &m->ev[e];
	const struct call *c;

	if (ev->ms != TIME_NONE)
		return ev->ms;
	if (ev->item == NONE || m->it[ev->item].type != IT_TOOL)
		return TIME_NONE;
	c = &m->call[m->it[ev->item].ref];
	if (EV_TYPE(ev) == EV_TOOL_START)
		return c->start_ms;
	if (EV_TYPE(ev) == EV_TOOL_DONE)
		return c->end_ms;
	return TIME_NONE;
}

/* Schedule event e after the ones before it. */
static void
schedule_event(struct replay *rp, const struct model *m, uint32_t e)
{
	int64_t t = event_time(m, e), gap = 0, clock, at, off;

	if (EV_FLAGS(&m->ev[e]) & EVF_ARRIVAL)
		rp->arrival = true;
	if (t != TIME_NONE)
		rp->timed = true;
	if (rp->n > 0) {
		/* A clock that goes backwards (sessions appended out of
		 * order, two clocks mixed) is no pause. */
		if (t != TIME_NONE && rp->clock != TIME_NONE)
			gap = t > rp->clock ? ms_sub(t, rp->clock) : 0;
		else
			gap = REPLAY_PACE_MS;
	}
	clock = t != TIME_NONE ? t : rp->clock != TIME_NONE ? ms_add(rp->clock, gap) : TIME_NONE;
	if (rp->idle_ms >= 0 && gap > rp->idle_ms)
		gap = rp->idle_ms;
	at = rp->n > 0 ? ms_add(rp->at[rp->n - 1], gap) : 0;
	if (at > UINT32_MAX)
		at = UINT32_MAX;
	ARRAY_RESERVE(rp->at, rp->cap, rp->n + 1);
	rp->at[rp->n++] = (uint32_t)at;
	off = clock == TIME_NONE ? TIME_NONE : ms_sub(clock, at);
	if (rp->nanc == 0 || rp->anc[rp->nanc - 1].off != off) {
		ARRAY_RESERVE(rp->anc, rp->anccap, rp->nanc + 1);
		rp->anc[rp->nanc].ev = e;
		rp->anc[rp->nanc].off = off;
		rp->nanc++;
	}
	rp->clock = clock;
}

void
replay_index(struct replay *rp, const struct model *m, bool complete)
{
	while (rp->n < m->nev)
		schedule_event(rp, m, (uint32_t)rp->n);
	for (; rp->items < m->nit; rp->items++) {
		if (m->it[rp->items].type != IT_PROMPT)
			continue;
		ARRAY_RESERVE(rp->prompts, rp->promptcap, rp->nprompts + 1);
		rp->prompts[rp->nprompts++] = m->it[rp->items].first_ev;
	}
	rp->complete = complete;
}

enum replay_timing
replay_timing(const struct replay *rp)
{
	return rp->arrival ? RT_RECORDED : rp->timed ? RT_TIMESTAMPS : RT_PACE;
}

const char *
replay_timing_name(enum replay_timing t)
{
	switch (t) {
	case RT_RECORDED:
		return "recorded timing";
	case RT_TIMESTAMPS:
		return "timestamps";
	default:
		return "steady pace";
	}
}

int64_t
replay_length(const struct replay *rp)
{
	return rp->n > 0 ? rp->at[rp->n - 1] : 0;
}

uint32_t
replay_event_at(const struct replay *rp, int64_t t)
{
	size_t lo = 0, hi = rp->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((int64_t)rp->at[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == 0 ? NONE : (uint32_t)(lo - 1);
}

int64_t
replay_clock_at(const struct replay *rp, uint32_t e, int64_t t)
{
	size_t lo = 0, hi = rp->nanc;

	if (e == NONE)
		return TIME_NONE;
	/* The last anchor at or before e. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rp->anc[mid].ev <= e)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || rp->anc[lo - 1].off == TIME_NONE)
		return TIME_NONE;
	return ms_add(rp->anc[lo - 1].off, t);
}

bool
replay_at_end(const struct replay *rp)
{
	return rp->complete && rp->n > 0 && rp->limit == rp->n - 1;
}

/* --- playing ------------------------------------------------------------- */

/* Ms of the caller's clock that ms of the schedule take at speed, rounded
 * up (no libm for one ceil). */
static int64_t
to_wall(int64_t ms, double speed)
{
	double w = (double)ms / speed;
	int64_t i = (int64_t)w;

	return (double)i < w ? i + 1 : i;
}

int64_t
replay_position(const struct replay *rp, int64_t now)
{
	int64_t p = rp->pos;

	if (!rp->paused && now > rp->since)
		p += (int64_t)((double)(now - rp->since) * rp->speed);
	return MIN(p, replay_length(rp));
}

/* Take the position at now as the new origin (before the speed or the
 * play state changes). */
static void
replay_rebase(struct replay *rp, int64_t now)
{
	rp->pos = replay_position(rp, now);
	rp->since = now;
}

void
replay_tick(struct replay *rp, int64_t now)
{
	int64_t len = replay_length(rp);
	uint32_t e;

	if (rp->n == 0 || rp->paused)
		return;
	if (rp->pos + (double)(now - rp->since) * rp->speed >= (double)len) {
		/* At the end of what is scheduled: stop there, for good when
		 * nothing more comes, else until more does. */
		rp->pos = len;
		rp->since = now;
		if (rp->complete)
			rp->paused = true;
	}
	e = replay_event_at(rp, replay_position(rp, now));
	if (rp->limit == NONE || e > rp->limit)
		rp->limit = e;
}

void
replay_apply(const struct replay *rp, struct model *m, int64_t now)
{
	int64_t p = replay_position(rp, now);

	m->limit = rp->n > 0 ? rp->limit : NONE;
	m->now_ms = replay_clock_at(rp, rp->limit, p);
}

/* Ms until the next multiple of 1000 after v. */
static int64_t
to_next_second(int64_t v)
{
	int64_t r = v % 1000;

	return r < 0 ? -r : 1000 - r;
}

int
replay_timeout(const struct replay *rp, int64_t now)
{
	int64_t p = replay_position(rp, now), d, clock, wall;

	if (rp->paused || rp->n == 0 || p >= replay_length(rp))
		return -1;
	d = to_next_second(p);
	if (rp->limit != NONE && rp->limit + 1 < rp->n)
		d = MIN(d, (int64_t)rp->at[rp->limit + 1] - p);
	clock = replay_clock_at(rp, rp->limit, p);
	if (clock != TIME_NONE)
		d = MIN(d, to_next_second(clock));
	if (d <= 0)
		return 0;
	/* One more ms: the position is rounded down. */
	wall = to_wall(d, rp->speed) + 1;
	return wall > 60000 ? 60000 : (int)wall;
}

int64_t
replay_stamp(const struct replay *rp, int64_t now)
{
	int64_t p = replay_position(rp, now);
	int64_t clock = replay_clock_at(rp, rp->limit, p);
	uint64_t h = (uint64_t)rp->limit * 0x9E3779B97F4A7C15ULL;

	h ^= (uint64_t)(p / 1000) * 0xC2B2AE3D27D4EB4FULL;
	h ^= (uint64_t)(clock == TIME_NONE ? 0 : clock / 1000) * 0x165667B19E3779F9ULL;
	h ^= (uint64_t)rp->paused << 1 ^ (uint64_t)rp->n << 2;
	h ^= (uint64_t)(rp->speed * 1024);
	return (int64_t)h;
}

void
replay_toggle(struct replay *rp, int64_t now)
{
	if (replay_at_end(rp)) {
		replay_seek(rp, 0, now);
		rp->paused = false;
		return;
	}
	replay_rebase(rp, now);
	rp->paused = !rp->paused;
}

/* Whether event e changes what is shown: it has a place in the
 * transcript (recaps and recording lines do not). */
static bool
shows(const struct model *m, uint32_t e)
{
	return m->ev[e].item != NONE;
}

bool
replay_step(struct replay *rp, const struct model *m, int dir, int64_t now)
{
	uint32_t e = rp->limit, to = NONE;

	if (rp->n == 0)
		return false;
	if (dir > 0) {
		for (uint32_t i = e == NONE ? 0 : e + 1; i < rp->n; i++) {
			if (shows(m, i)) {
				to = i;
				break;
			}
		}
	} else if (e != NONE) {
		/* Hide the latest event that shows, and what came after it. */
		while (e > 0 && !shows(m, e))
			e--;
		while (e > 0 && !shows(m, e - 1))
			e--;
		if (e > 0)
			to = e - 1;
	}
	rp->paused = true;
	if (to == NONE) {
		replay_rebase(rp, now);
		return false;
	}
	rp->limit = to;
	rp->pos = rp->at[to];
	rp->since = now;
	return true;
}

void
replay_seek(struct replay *rp, int64_t t, int64_t now)
{
	rp->pos = MAX(0, MIN(t, replay_length(rp)));
	rp->since = now;
	rp->limit = replay_event_at(rp, rp->pos);
}

void
replay_goto_event(struct replay *rp, uint32_t e, int64_t now)
{
	if (e >= rp->n)
		return;
	rp->limit = e;
	rp->pos = rp->at[e];
	rp->since = now;
}

/* The event the start of a list entry is at: entries are in order of it. */
typedef uint32_t (*entry_ev_fn)(const void *ctx, size_t i);

/* The event of the previous entry (before the limit's latest one) or the
 * next one (after the limit), among n entries; NONE when there is none. */
static uint32_t
adjacent(const struct replay *rp, const void *ctx, size_t n, entry_ev_fn ev, int dir)
{
	uint32_t limit = rp->limit;
	size_t lo = 0, hi = n;

	/* The first entry past the limit. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (limit != NONE && ev(ctx, mid) <= limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (dir > 0)
		return lo < n && ev(ctx, lo) < rp->n ? ev(ctx, lo) : NONE;
	/* Standing on an entry's start: the one before it. */
	if (lo > 0 && ev(ctx, lo - 1) == limit)
		lo--;
	return lo > 0 ? ev(ctx, lo - 1) : NONE;
}

static uint32_t
call_ev(const void *ctx, size_t i)
{
	const struct model *m = ctx;

	return m->it[m->call[i].item].first_ev;
}

static uint32_t
prompt_ev(const void *ctx, size_t i)
{
	const struct replay *rp = ctx;

	return rp->prompts[i];
}

bool
replay_goto_call(struct replay *rp, const struct model *m, int dir, int64_t now)
{
	uint32_t e = adjacent(rp, m, m->ncall, call_ev, dir);

	if (e == NONE)
		return false;
	replay_goto_event(rp, e, now);
	return true;
}

bool
replay_goto_prompt(struct replay *rp, int dir, int64_t now)
{
	uint32_t e = adjacent(rp, rp, rp->nprompts, prompt_ev, dir);

	if (e == NONE)
		return false;
	replay_goto_event(rp, e, now);
	return true;
}

void
replay_set_speed(struct replay *rp, double factor, int64_t now)
{
	replay_rebase(rp, now);
	rp->speed *= factor;
	if (rp->speed < REPLAY_SPEED_MIN)
		rp->speed = REPLAY_SPEED_MIN;
	if (rp->speed > REPLAY_SPEED_MAX)
		rp->speed = REPLAY_SPEED_MAX;
}

void
replay_describe(const struct replay *rp, int64_t now, struct buf *mode, struct buf *position,
		struct buf *detail)
{
	if (replay_at_end(rp))
		; /* the session's state says more */
	else if (rp->paused)
		buf_adds(mode, "paused");
	else
		buf_addf(mode, "replay " GLYPH_TIMES "%g", rp->speed);
	fmt_clock(position, replay_position(rp, now));
	buf_adds(position, " / ");
	fmt_clock(position, replay_length(rp));
	buf_adds(detail, replay_timing_name(replay_timing(rp)));
	buf_addf(detail, " " GLYPH_DOT " event %u/%zu", rp->limit == NONE ? 0 : rp->limit + 1,
		 rp->n);
}

/* --- print mode ------------------------------------------------------------ */

static int64_t
real_now(void *ctx)
{
	(void)ctx;
	return clock_mono_ms();
}

static void
real_sleep(void *ctx, int64_t ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000};

	(void)ctx;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

const struct replay_clock replay_real_clock = {real_now, real_sleep, NULL};

void
replay_printer_init(struct replay_printer *rpp, const struct model *m, input_line_fn next,
		    void *next_ctx, FILE *out, double speed, double idle_limit_s,
		    const struct replay_clock *clock)
{
	memset(rpp, 0, sizeof *rpp);
	replay_init(&rpp->rp, speed, idle_limit_s, 0);
	rpp->m = m;
	rpp->next = next;
	rpp->next_ctx = next_ctx;
	rpp->out = out;
	rpp->clock = clock;
}

void
replay_printer_free(struct replay_printer *rpp)
{
	replay_free(&rpp->rp);
}

void
replay_printer_line(void *ctx, const struct source *s, const struct line *ln, uint32_t ev)
{
	struct replay_printer *rpp = ctx;
	struct replay *rp = &rpp->rp;

	if (ev != NONE) {
		int64_t now = rpp->clock->now(rpp->clock->ctx), wait;

		/* The clock starts with the first event. */
		if (!rpp->started) {
			rp->since = now;
			rpp->started = true;
		}
		replay_index(rp, rpp->m, false);
		wait = rp->since + to_wall(rp->at[ev], rp->speed) - now;
		if (wait > 0) {
			/* What is due comes out before the pause. */
			fflush(rpp->out);
			while (wait > 0) {
				rpp->clock->sleep(rpp->clock->ctx, wait);
				now = rpp->clock->now(rpp->clock->ctx);
				wait = rp->since + to_wall(rp->at[ev], rp->speed) - now;
			}
		}
	}
	rpp->next(rpp->next_ctx, s, ln, ev);
}
