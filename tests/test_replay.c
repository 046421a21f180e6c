/* test_replay.c: the replay's schedule, position, steps and seeks, on a fake
 * clock (nothing sleeps), and the screen after a seek against the screen of
 * a replay played straight to the same time. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "print.h"
#include "record.h"
#include "render.h"
#include "status.h"
#include "replay.h"

/* A model of text, read at once, and a replay of it from now = 0. */
static struct fixture *
load(const char *text, size_t n, double speed, double idle_s)
{
	struct fixture *f = fixture_new(text, n, 0);

	fixture_replay(f, speed, idle_s, true);
	return f;
}

static struct fixture *
load_str(const char *text)
{
	return load(text, strlen(text), 1, -1);
}

#define REC(json, ms) json ",\"agentview_ms\":" #ms "}\n"
#define HEADER(ms) REC("{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1", ms)
#define INIT "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s1\",\"model\":\"M\""
#define USER \
	"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"go\"}]}"
#define DELTA(t) \
	"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"" t \
	"\"}]},\"timestamp_ms\":1"
#define RECAP \
	"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"ab\"}]},\"model_call_id\":\"x\",\"timestamp_ms\":1"
#define START(id) \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"" id \
	"\",\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"f\"}}}"
#define DONE(id) \
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"" id \
	"\",\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"f\"},\"result\":{\"success\":{\"content\":\"x\"}}}}"
#define RESULT \
	"{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"duration_ms\":9000,\"result\":\"ab\""

/* A recording: arrival times are the schedule, from the first line. */
static void
test_schedule_recorded(void **state)
{
	struct fixture *f = load_str(HEADER(1000000) REC(INIT, 1000000) REC(USER, 1000010) REC(
		DELTA("a"), 1000500) REC(DELTA("b"), 1000700) REC(RESULT, 1002000));

	(void)state;
	assert_int_equal(replay_timing(&f->rp), RT_RECORDED);
	assert_int_equal(f->rp.n, 6);
	assert_int_equal(f->rp.at[0], 0);
	assert_int_equal(f->rp.at[1], 0);
	assert_int_equal(f->rp.at[2], 10);
	/* timestamp_ms is there too, but the arrival time wins. */
	assert_int_equal(f->rp.at[3], 500);
	assert_int_equal(f->rp.at[4], 700);
	assert_int_equal(replay_length(&f->rp), 2000);
	/* The events' clock follows the schedule. */
	assert_int_equal(replay_clock_at(&f->rp, 3, 600), 1000600);
	assert_string_equal(replay_timing_name(RT_RECORDED), "recorded timing");
	fixture_free(f);
}

/* Without arrival times: timestamp_ms, then the calls' own times, and a
 * steady pace for events with no time. */
static void
test_schedule_timestamps(void **state)
{
	struct fixture *f = load_str(
		INIT
		"}\n" USER "}\n"
		"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"t\",\"timestamp_ms\":5000}\n"
		"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c\",\"tool_call\":"
		"{\"readToolCall\":{\"args\":{\"path\":\"f\"}},\"startedAtMs\":\"5300\"}}\n"
		"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c\",\"tool_call\":"
		"{\"readToolCall\":{\"result\":{\"success\":{}}},\"startedAtMs\":\"5300\","
		"\"completedAtMs\":\"5800\"}}\n" RESULT "}\n");

	(void)state;
	assert_int_equal(replay_timing(&f->rp), RT_TIMESTAMPS);
	assert_int_equal(f->rp.n, 6);
	assert_int_equal(f->rp.at[0], 0);
	assert_int_equal(f->rp.at[1], REPLAY_PACE_MS);
	assert_int_equal(f->rp.at[2], 2 * REPLAY_PACE_MS);
	assert_int_equal(f->rp.at[3], 2 * REPLAY_PACE_MS + 300);
	assert_int_equal(f->rp.at[4], 2 * REPLAY_PACE_MS + 800);
	assert_int_equal(f->rp.at[5], 3 * REPLAY_PACE_MS + 800);
	/* Before the first time, the clock is not known. */
	assert_true(replay_clock_at(&f->rp, 1, 50) == TIME_NONE);
	assert_int_equal(replay_clock_at(&f->rp, 3, f->rp.at[3] + 100), 5400);
	fixture_free(f);
}

/* No times at all: a steady pace; a clock going backwards is no pause. */
static void
test_schedule_pace(void **state)
{
	struct fixture *f = load_str(INIT "}\n" USER "}\nnot json\n" RESULT "}\n");
	struct fixture *g = load_str(
		INIT
		"}\n"
		"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"t\",\"timestamp_ms\":5000}\n"
		"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"t\",\"timestamp_ms\":3000}\n"
		"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"t\",\"timestamp_ms\":3100}\n");

	(void)state;
	assert_int_equal(replay_timing(&f->rp), RT_PACE);
	for (size_t i = 0; i < f->rp.n; i++)
		assert_int_equal(f->rp.at[i], i * REPLAY_PACE_MS);
	assert_string_equal(replay_timing_name(RT_PACE), "steady pace");
	assert_int_equal(g->rp.at[1], REPLAY_PACE_MS);
	assert_int_equal(g->rp.at[2], REPLAY_PACE_MS);
	assert_int_equal(g->rp.at[3], REPLAY_PACE_MS + 100);
	fixture_free(f);
	fixture_free(g);
}

/* --idle-limit caps every pause of the schedule; the events' clock jumps
 * over what was cut. */
static void
test_idle_limit(void **state)
{
	const char *text = HEADER(1000000) REC(INIT, 1000000) REC(USER, 1000100)
		REC(DELTA("a"), 1010100) REC(DELTA("b"), 1010200) REC(RESULT, 1070200);
	struct fixture *f = load(text, strlen(text), 1, 2);
	struct fixture *g = load(text, strlen(text), 1, 0.5);

	(void)state;
	assert_int_equal(f->rp.at[2], 100);
	assert_int_equal(f->rp.at[3], 2100);
	assert_int_equal(f->rp.at[4], 2200);
	assert_int_equal(f->rp.at[5], 4200);
	assert_int_equal(g->rp.at[5], 100 + 500 + 100 + 500);
	/* Within the cut pause the clock runs on from the event before it. */
	assert_int_equal(replay_clock_at(&f->rp, 2, 1100), 1001100);
	assert_int_equal(replay_clock_at(&f->rp, 3, 2100), 1010100);
	assert_int_equal(replay_clock_at(&f->rp, 4, 2250), 1010250);
	fixture_free(f);
	fixture_free(g);
}

/* E(T): the last event at or before T. */
static void
test_event_at(void **state)
{
	struct fixture *f = load_str(HEADER(1000) REC(INIT, 1000) REC(USER, 1200)
					     REC(DELTA("a"), 1200) REC(DELTA("b"), 1500));

	(void)state;
	assert_int_equal(replay_event_at(&f->rp, -1), NONE);
	assert_int_equal(replay_event_at(&f->rp, 0), 1);
	assert_int_equal(replay_event_at(&f->rp, 199), 1);
	assert_int_equal(replay_event_at(&f->rp, 200), 3);
	assert_int_equal(replay_event_at(&f->rp, 499), 3);
	assert_int_equal(replay_event_at(&f->rp, 500), 4);
	assert_int_equal(replay_event_at(&f->rp, 100000), 4);
	fixture_free(f);
}

/* Playing on a fake clock: the position follows it at the speed, a pause
 * holds it, a speed change mid-play keeps the position, and the end
 * pauses. */
static void
test_play(void **state)
{
	struct fixture *f = load_str(HEADER(0) REC(INIT, 0) REC(USER, 1000) REC(DELTA("a"), 2000)
					     REC(DELTA("b"), 4000) REC(RESULT, 8000));
	struct replay *rp = &f->rp;

	(void)state;
	replay_tick(rp, 0);
	assert_int_equal(rp->limit, 1);
	replay_tick(rp, 999);
	assert_int_equal(rp->limit, 1);
	assert_int_equal(replay_position(rp, 999), 999);
	replay_tick(rp, 1000);
	assert_int_equal(rp->limit, 2);
	/* Paused: time passes, nothing moves. */
	replay_toggle(rp, 1500);
	assert_true(rp->paused);
	replay_tick(rp, 30000);
	assert_int_equal(replay_position(rp, 30000), 1500);
	assert_int_equal(rp->limit, 2);
	assert_int_equal(replay_timeout(rp, 30000), -1);
	replay_toggle(rp, 31000);
	assert_false(rp->paused);
	replay_tick(rp, 31500);
	assert_int_equal(replay_position(rp, 31500), 2000);
	assert_int_equal(rp->limit, 3);
	/* Twice as fast from here: 2000 ms of schedule in 1000 ms. */
	replay_set_speed(rp, 2, 31500);
	assert_true(rp->speed == 2);
	replay_tick(rp, 32499);
	assert_int_equal(rp->limit, 3);
	assert_int_equal(replay_position(rp, 32500), 4000);
	replay_tick(rp, 32500);
	assert_int_equal(rp->limit, 4);
	/* Half as fast again; the speed has its bounds. */
	replay_set_speed(rp, 0.25, 32500);
	assert_true(rp->speed == 0.5);
	replay_set_speed(rp, 1e-9, 32500);
	assert_true(rp->speed == REPLAY_SPEED_MIN);
	replay_set_speed(rp, 1e12, 32500);
	assert_true(rp->speed == REPLAY_SPEED_MAX);
	/* Past the end: everything shown, paused there. */
	replay_tick(rp, 40000);
	assert_int_equal(rp->limit, 5);
	assert_true(rp->paused);
	assert_true(replay_at_end(rp));
	assert_int_equal(replay_position(rp, 50000), 8000);
	/* Space at the end plays again from the start. */
	replay_toggle(rp, 50000);
	assert_false(rp->paused);
	assert_int_equal(replay_position(rp, 50000), 0);
	assert_int_equal(rp->limit, 1);
	fixture_free(f);
}

/* An input still being read: the replay waits at its end, not past it. */
static void
test_play_growing(void **state)
{
	const char *text = HEADER(0) REC(INIT, 0) REC(USER, 1000) REC(DELTA("a"), 5000);
	struct fixture *f = fixture_new(text, strlen(text), FX_UNREAD);

	(void)state;
	fixture_feed(f, 3);
	fixture_replay(f, 1, -1, false);
	replay_tick(&f->rp, 3000);
	assert_int_equal(f->rp.limit, 2);
	assert_false(f->rp.paused);
	assert_int_equal(replay_position(&f->rp, 3000), 1000);
	assert_int_equal(replay_timeout(&f->rp, 3000), -1);
	/* The next line comes at 3000: 4000 ms after the last, from now. */
	assert_true(fixture_next(f, NULL, NULL));
	replay_index(&f->rp, f->m, true);
	replay_tick(&f->rp, 6999);
	assert_int_equal(f->rp.limit, 2);
	replay_tick(&f->rp, 7000);
	assert_int_equal(f->rp.limit, 3);
	fixture_free(f);
}

/* The poll timeout: the next event, or the next second of a clock shown,
 * at the speed. */
static void
test_timeout(void **state)
{
	struct fixture *f =
		load_str(HEADER(500) REC(INIT, 500) REC(USER, 800) REC(DELTA("a"), 3500));
	struct replay *rp = &f->rp;

	(void)state;
	replay_tick(rp, 0);
	/* The user event is due in 300 ms (+1 for rounding). */
	assert_int_equal(replay_timeout(rp, 0), 301);
	replay_tick(rp, 300);
	assert_int_equal(rp->limit, 2);
	/* Then the events' clock turns a second (at 1000, position 500). */
	assert_int_equal(replay_timeout(rp, 300), 201);
	replay_set_speed(rp, 4, 300);
	assert_int_equal(replay_timeout(rp, 300), 51);
	replay_toggle(rp, 300);
	assert_int_equal(replay_timeout(rp, 300), -1);
	fixture_free(f);
}

/* Steps move by one event that changes the screen, and pause. */
static void
test_step(void **state)
{
	struct fixture *f = load_str(
		HEADER(0) REC(INIT, 0) REC(USER, 100) REC(DELTA("a"), 200) REC(DELTA("b"), 300)
			REC(RECAP, 400) REC(START("c"), 500) REC(DONE("c"), 900) REC(RESULT, 1000));
	struct replay *rp = &f->rp;

	(void)state;
	replay_tick(rp, 0);
	assert_int_equal(rp->limit, 1);
	/* Nothing before the first event that shows. */
	assert_false(replay_step(rp, f->m, -1, 0));
	assert_true(rp->paused);
	assert_int_equal(rp->limit, 1);
	assert_true(replay_step(rp, f->m, 1, 10));
	assert_int_equal(rp->limit, 2);
	assert_int_equal(replay_position(rp, 5000), 100);
	assert_true(replay_step(rp, f->m, 1, 10));
	assert_true(replay_step(rp, f->m, 1, 10));
	assert_int_equal(rp->limit, 4);
	/* The recap shows nothing: stepped over. */
	assert_true(replay_step(rp, f->m, 1, 10));
	assert_int_equal(rp->limit, 6);
	assert_int_equal(replay_position(rp, 10), 500);
	assert_true(replay_step(rp, f->m, -1, 10));
	assert_int_equal(rp->limit, 4);
	/* From a place where the latest event shows nothing (played onto the
	 * recap), one step back hides the latest one that does. */
	replay_seek(rp, 450, 10);
	assert_int_equal(rp->limit, 5);
	assert_true(replay_step(rp, f->m, -1, 10));
	assert_int_equal(rp->limit, 3);
	replay_seek(rp, 100000, 10);
	assert_int_equal(rp->limit, 8);
	assert_false(replay_step(rp, f->m, 1, 10));
	assert_int_equal(rp->limit, 8);
	fixture_free(f);
}

/* Seeks land on E(T), clamped to the schedule, and keep the play state. */
static void
test_seek(void **state)
{
	struct fixture *f = load_str(HEADER(0) REC(INIT, 0) REC(USER, 1000) REC(DELTA("a"), 5000)
					     REC(DELTA("b"), 9000) REC(RESULT, 10000));
	struct replay *rp = &f->rp;

	(void)state;
	replay_seek(rp, 5000, 0);
	assert_int_equal(rp->limit, 3);
	assert_false(rp->paused);
	replay_seek(rp, 4999, 0);
	assert_int_equal(rp->limit, 2);
	replay_seek(rp, -5000, 0);
	assert_int_equal(rp->limit, 1);
	assert_int_equal(replay_position(rp, 0), 0);
	replay_seek(rp, 1 << 30, 0);
	assert_int_equal(replay_position(rp, 0), 10000);
	assert_int_equal(rp->limit, 5);
	/* 0-9: tenths of the length. */
	replay_seek(rp, replay_length(rp) * 5 / 10, 0);
	assert_int_equal(rp->limit, 3);
	replay_toggle(rp, 0);
	replay_seek(rp, 1000, 0);
	assert_true(rp->paused);
	assert_int_equal(rp->limit, 2);
	fixture_free(f);
}

/* [ ] and { }: the previous and next tool call and prompt in time. */
static void
test_goto(void **state)
{
	struct fixture *f = load_str(HEADER(0) REC(INIT, 0) REC(USER, 100) REC(START("a"), 200)
					     REC(DONE("a"), 300) REC(USER, 400) REC(START("b"), 500)
						     REC(DELTA("x"), 600) REC(DONE("b"), 700));
	struct replay *rp = &f->rp;

	(void)state;
	replay_tick(rp, 0);
	assert_false(replay_goto_call(rp, f->m, -1, 0));
	assert_true(replay_goto_call(rp, f->m, 1, 0));
	assert_int_equal(rp->limit, 3);
	assert_true(replay_goto_call(rp, f->m, 1, 0));
	assert_int_equal(rp->limit, 6);
	assert_false(replay_goto_call(rp, f->m, 1, 0));
	/* Standing on a call's start, the previous one is the one before. */
	assert_true(replay_goto_call(rp, f->m, -1, 0));
	assert_int_equal(rp->limit, 3);
	/* Past a call's start, the previous one is that call. */
	replay_seek(rp, 650, 0);
	assert_true(replay_goto_call(rp, f->m, -1, 0));
	assert_int_equal(rp->limit, 6);
	assert_true(replay_goto_prompt(rp, -1, 0));
	assert_int_equal(rp->limit, 5);
	assert_true(replay_goto_prompt(rp, -1, 0));
	assert_int_equal(rp->limit, 2);
	assert_false(replay_goto_prompt(rp, -1, 0));
	assert_true(replay_goto_prompt(rp, 1, 0));
	assert_int_equal(rp->limit, 5);
	assert_false(replay_goto_prompt(rp, 1, 0));
	assert_int_equal(replay_position(rp, 0), 400);
	fixture_free(f);
}

/* The status bar's words. */
static void
test_describe(void **state)
{
	struct fixture *f = load_str(HEADER(0) REC(INIT, 0) REC(USER, 72000) REC(RESULT, 270000));
	struct buf mode = {0}, pos = {0}, detail = {0};

	(void)state;
	replay_set_speed(&f->rp, 4, 0);
	replay_tick(&f->rp, 18000);
	replay_describe(&f->rp, 18000, &mode, &pos, &detail);
	assert_string_equal(mode.p, "replay \xC3\x97"
				    "4");
	assert_string_equal(pos.p, "01:12 / 04:30");
	assert_string_equal(detail.p, "recorded timing \xC2\xB7 event 3/4");
	buf_reset(&mode);
	replay_toggle(&f->rp, 18000);
	replay_describe(&f->rp, 18000, &mode, &pos, &detail);
	assert_string_equal(mode.p, "paused");
	buf_reset(&mode);
	replay_seek(&f->rp, 270000, 0);
	replay_describe(&f->rp, 18000, &mode, &pos, &detail);
	assert_int_equal(mode.n, 0);
	buf_free(&mode);
	buf_free(&pos);
	buf_free(&detail);
	fixture_free(f);
}

/* --- the screen after a seek is the screen played straight --------------- */

/* Everything the panes and the status bar would show, as text: every
 * transcript row of every item shown, every timeline row, the status bar. */
static void
screen_text(struct render *r, struct replay *rp, struct model *m, int64_t now, struct buf *out)
{
	struct buf mode = {0}, pos = {0}, detail = {0};
	struct status_in in = {0};
	struct rline l = {0};
	size_t nit, ncall;

	replay_apply(rp, m, now);
	nit = model_nitems(m);
	ncall = model_ncalls(m);
	buf_reset(out);
	buf_addf(out, "items %zu calls %zu\n", nit, ncall);
	for (uint32_t it = 0; it < nit; it++) {
		const struct block *b = render_item(r, it);

		for (size_t i = 0; i < b->nrow; i++) {
			buf_addf(out, "%*s", b->row[i].indent, "");
			buf_add(out, b->text.p + b->row[i].off, b->row[i].len);
			buf_addc(out, '\n');
		}
	}
	for (uint32_t c = 0; c < ncall; c++) {
		render_timeline_row(r, c, 70, &l);
		buf_add(out, l.text.p, l.text.n);
		buf_addc(out, '\n');
	}
	replay_describe(rp, now, &mode, &pos, &detail);
	in.mode = mode.n > 0 ? mode.p : NULL;
	in.position = pos.p;
	in.detail = detail.p;
	in.progress = -1;
	status_build(r->m, &in, 160, &l);
	buf_add(out, l.text.p, l.text.n);
	buf_addc(out, '\n');
	rline_free(&l);
	buf_free(&mode);
	buf_free(&pos);
	buf_free(&detail);
}

/* Play f straight, drawing every tick of `tick` ms; at each of the times
 * the screen must equal that of another replay seeked there, drawn by a
 * render whose cache has seen the end and the times after it. */
static void
check_seek_equals_play(struct fixture *f, int64_t tick, int checkpoints)
{
	struct render straight, seeker;
	struct replay other;
	struct buf a = {0}, b = {0};
	int64_t len = replay_length(&f->rp), wall_len, next = 0;
	int done = 0;

	render_init(&straight, f->m);
	render_init(&seeker, f->m);
	render_set_width(&straight, 50);
	render_set_width(&seeker, 50);
	render_set_thinking(&straight, true);
	render_set_thinking(&seeker, true);
	replay_init(&other, f->rp.speed, -1, 0);
	other.idle_ms = f->rp.idle_ms;
	replay_index(&other, f->m, true);
	/* The seeker starts at the end, and goes backwards. */
	replay_seek(&other, len, 0);
	screen_text(&seeker, &other, f->m, 0, &b);
	wall_len = (int64_t)((double)len / f->rp.speed);
	for (int64_t now = 0; now <= wall_len + tick; now += tick) {
		replay_tick(&f->rp, now);
		screen_text(&straight, &f->rp, f->m, now, &a);
		if (now < next || f->rp.paused)
			continue;
		{
			int64_t t = replay_position(&f->rp, now);

			replay_seek(&other, t, 777);
			screen_text(&seeker, &other, f->m, 777, &b);
			if (a.n != b.n || memcmp(a.p, b.p, a.n) != 0)
				fail_msg("at %lld ms, the screen after a seek differs:\n"
					 "--- played\n%s--- seeked\n%s",
					 (long long)t, a.p, b.p);
		}
		done++;
		next = now + wall_len / checkpoints;
	}
	assert_true(done >= checkpoints / 2);
	buf_free(&a);
	buf_free(&b);
	replay_free(&other);
	render_free(&straight);
	render_free(&seeker);
}

/* demo.ndjson: timestamps and a steady pace; its calls run in parallel. */
static void
test_seek_equals_play_timestamps(void **state)
{
	size_t n;
	char *text = fixture_slurp("recordings/demo.ndjson", &n);
	struct fixture *f = load(text, n, 1, -1);

	(void)state;
	assert_int_equal(replay_timing(&f->rp), RT_TIMESTAMPS);
	check_seek_equals_play(f, 37, 40);
	free(text);
	fixture_free(f);
}

/* A recording of failures.ndjson with a long pause, replayed at 4x with an
 * idle limit; and of two sessions one after the other. */
static void
test_seek_equals_play_recorded(void **state)
{
	static const char *const files[] = {"recordings/failures.ndjson",
					    "recordings/multi-session.ndjson",
					    "recordings/orphans.ndjson"};

	(void)state;
	for (size_t k = 0; k < ARRAY_LEN(files); k++) {
		char path[] = "/tmp/av-replay-XXXXXX";
		int fd = mkstemp(path);
		struct recorder rec;
		struct buf err = {0};
		struct source s;
		struct line ln;
		int64_t t = 1800000000000;
		size_t n;
		char *text = fixture_slurp(files[k], &n), *rtext;
		struct fixture *f;

		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(record_open(&rec, path, NULL, &err), 0);
		source_open_mem(&s, "t", text, n);
		for (int i = 0; source_next_line(&s, &ln); i++) {
			t += i == 20 ? 60000 : 37 * (i % 7);
			record_line(&rec, source_at(&s, ln.off), ln.len, ln.terminated, t);
		}
		record_close(&rec);
		source_close(&s);
		free(text);
		rtext = fixture_slurp(path, &n);
		unlink(path);
		f = load(rtext, n, 4, 3);
		assert_int_equal(replay_timing(&f->rp), RT_RECORDED);
		assert_true(replay_length(&f->rp) < 60000);
		check_seek_equals_play(f, 11, 30);
		free(rtext);
		fixture_free(f);
		buf_free(&err);
	}
}

/* Step back shows what stepping forward to there showed. */
static void
test_step_back_equals_forward(void **state)
{
	size_t n;
	char *text = fixture_slurp("recordings/demo.ndjson", &n);
	struct fixture *f = load(text, n, 1, -1);
	struct render r1, r2;
	struct buf *fwd, b = {0};
	size_t steps = 0;

	(void)state;
	render_init(&r1, f->m);
	render_init(&r2, f->m);
	fwd = calloc(f->m->nev + 1, sizeof *fwd);
	replay_tick(&f->rp, 0);
	replay_toggle(&f->rp, 0);
	screen_text(&r1, &f->rp, f->m, 0, &fwd[0]);
	while (replay_step(&f->rp, f->m, 1, 0))
		screen_text(&r1, &f->rp, f->m, 0, &fwd[++steps]);
	assert_true(steps > 50);
	for (size_t i = steps; i-- > 0;) {
		assert_true(replay_step(&f->rp, f->m, -1, 0));
		screen_text(&r2, &f->rp, f->m, 0, &b);
		assert_string_equal(b.p, fwd[i].p);
	}
	assert_false(replay_step(&f->rp, f->m, -1, 0));
	for (size_t i = 0; i <= steps; i++)
		buf_free(&fwd[i]);
	free(fwd);
	buf_free(&b);
	render_free(&r1);
	render_free(&r2);
	free(text);
	fixture_free(f);
}

/* --- print mode -------------------------------------------------------------- */

struct fake_clock {
	int64_t now;
	int64_t slept[64];
	int nsleeps;
};

static int64_t
fake_now(void *ctx)
{
	return ((struct fake_clock *)ctx)->now;
}

static void
fake_sleep(void *ctx, int64_t ms)
{
	struct fake_clock *fc = ctx;

	if (fc->nsleeps < 64)
		fc->slept[fc->nsleeps++] = ms;
	fc->now += ms;
}

/* --print --replay: each line comes out when its event is due, at the
 * speed, with what is due flushed first; the output is what --print
 * without --replay prints. */
static void
test_printer(void **state)
{
	const char *text =
		HEADER(0) REC(INIT, 0) "\n" REC(USER, 1000) REC(DELTA("a"), 3000) REC(RESULT, 3000);
	struct fake_clock fc = {5000, {0}, 0};
	struct replay_clock clk = {fake_now, fake_sleep, &fc};
	struct replay_printer rpp;
	struct line ln;
	uint32_t ev;
	struct fixture *x = fixture_new(text, strlen(text), FX_UNREAD);
	char *out1 = NULL, *out2 = NULL;
	size_t n1 = 0, n2 = 0;
	FILE *f1 = open_memstream(&out1, &n1), *f2 = open_memstream(&out2, &n2);
	struct printer *p1 = printer_new(x->m, &format_text, f1);

	(void)state;
	replay_printer_init(&rpp, x->m, (input_line_fn)printer_line, p1, f1, 2, -1, &clk);
	while (fixture_next(x, &ln, &ev))
		replay_printer_line(&rpp, &x->s, &ln, ev);
	fixture_end(x);
	printer_finish(p1);
	/* At speed 2: 500 ms to the prompt, 1000 more to the reply. */
	assert_int_equal(fc.nsleeps, 2);
	assert_int_equal(fc.slept[0], 500);
	assert_int_equal(fc.slept[1], 1000);
	assert_int_equal(fc.now, 6500);
	replay_printer_free(&rpp);
	printer_free(p1);
	fixture_free(x);

	/* The same input printed at once. */
	x = fixture_new(text, strlen(text), FX_UNREAD);
	{
		struct printer *p2 = printer_new(x->m, &format_text, f2);

		while (fixture_next(x, &ln, &ev))
			printer_line(p2, &x->s, &ln, ev);
		fixture_end(x);
		printer_finish(p2);
		printer_free(p2);
	}
	fclose(f1);
	fclose(f2);
	assert_true(n1 > 0);
	assert_int_equal(n1, n2);
	assert_memory_equal(out1, out2, n1);
	free(out1);
	free(out2);
	fixture_free(x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedule_recorded),
		cmocka_unit_test(test_schedule_timestamps),
		cmocka_unit_test(test_schedule_pace),
		cmocka_unit_test(test_idle_limit),
		cmocka_unit_test(test_event_at),
		cmocka_unit_test(test_play),
		cmocka_unit_test(test_play_growing),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_seek),
		cmocka_unit_test(test_goto),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_seek_equals_play_timestamps),
		cmocka_unit_test(test_seek_equals_play_recorded),
		cmocka_unit_test(test_step_back_equals_forward),
		cmocka_unit_test(test_printer),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
