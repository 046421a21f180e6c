/* test_status.c: the status bar's pieces (status.c): what each says, their
 * order, and which go first when the width does not hold them all. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "status.h"

struct fx {
	struct fixture *fx;
	struct model *m; /* fx's */
	struct rline l;
};

/* recordings/demo.ndjson read to its end: one session, done, ✓8 ✗1. */
static int
setup(void **state)
{
	struct fx *f = calloc(1, sizeof *f);
	size_t n;
	char *text = fixture_slurp("recordings/demo.ndjson", &n);

	f->fx = fixture_new(text, n, 0);
	f->m = f->fx->m;
	free(text);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	rline_free(&f->l);
	fixture_free(f->fx);
	free(f);
	return 0;
}

/* The line as a C string (it holds no NUL). */
static const char *
text(struct fx *f)
{
	buf_addc(&f->l.text, '\0');
	f->l.text.n--;
	return f->l.text.p;
}

/* The role of the segment holding the first byte of needle, or -1. */
static int
role_of(struct fx *f, const char *needle)
{
	const char *at = strstr(text(f), needle);
	size_t off;

	if (at == NULL)
		return -1;
	off = (size_t)(at - f->l.text.p);
	for (size_t i = 0; i < f->l.nseg; i++)
		if (off >= f->l.seg[i].off && off < f->l.seg[i].off + f->l.seg[i].len)
			return f->l.seg[i].role;
	return -1;
}

/* A finished command that failed, news, a search and a message. */
static struct status_in
busy(struct fx *f)
{
	struct status_in in = {0};

	in.progress = -1;
	in.new_events = 7;
	in.note = "disk full";
	in.nav = "match 3/17";
	in.command = true;
	f->m->cmd.exited = true;
	f->m->cmd.exit_status = 2;
	return in;
}

/* The pieces of busy(), with their priorities (1000: never left out). */
static const struct {
	const char *text;
	int prio;
} shown[] = {
	{" \xE2\x9C\x93 done ", 1000},
	{"Composer 2.5", 60},
	{"ad7140d9", 30},
	{"/home/dev/project", 20},
	{"28.8 s", 90},
	{"\xE2\x9C\x93"
	 "8 \xE2\x9C\x97"
	 "1",
	 80},
	{"tokens 41.4k in", 40},
	{"exit 2", 85},
	{"+7 new", 97},
	{"match 3/17", 96},
	{"disk full", 99},
};

/* At every width the bar fills it exactly; the pieces keep their order,
 * and the ones shown are always those of the highest priorities: a piece
 * goes only after every piece of a lower priority has gone. */
static void
test_drop_order(void **state)
{
	struct fx *f = *state;
	struct status_in in = busy(f);

	for (int w = 0; w <= 260; w++) {
		const char *at[ARRAY_LEN(shown)], *last = NULL;

		status_build(f->m, &in, w, &f->l);
		assert_int_equal(f->l.width, (size_t)w);
		assert_int_equal(text_width(text(f), f->l.text.n), (size_t)w);
		for (size_t i = 0; i < ARRAY_LEN(shown); i++) {
			at[i] = strstr(text(f), shown[i].text);
			if (at[i] != NULL) {
				assert_true(last == NULL || at[i] > last);
				last = at[i];
			}
		}
		for (size_t i = 0; i < ARRAY_LEN(shown); i++)
			for (size_t j = 0; j < ARRAY_LEN(shown); j++)
				if (at[i] != NULL && shown[j].prio > shown[i].prio && at[j] == NULL)
					fail_msg("width %d: '%s' shown without '%s'", w,
						 shown[i].text, shown[j].text);
		if (w == 260)
			for (size_t i = 0; i < ARRAY_LEN(shown); i++)
				assert_non_null(at[i]);
	}
}

/* Whole lines at a few widths, two cells between the pieces. */
/* A message the bar says already (a filter's "hiding thinking", the
 * search's words) is said once, never twice side by side. */
static void
test_note_once(void **state)
{
	struct fx *f = *state;
	struct status_in in = {0};
	const char *t, *at;

	in.progress = -1;
	in.nav = "match 1/2 \xC2\xB7 hiding thinking";
	in.note = "hiding thinking";
	status_build(f->m, &in, 200, &f->l);
	t = text(f);
	at = strstr(t, "hiding thinking");
	assert_non_null(at);
	assert_null(strstr(at + 1, "hiding thinking"));
	/* Another message is said. */
	in.note = "showing notices";
	status_build(f->m, &in, 200, &f->l);
	assert_non_null(strstr(text(f), "showing notices"));
	assert_non_null(strstr(text(f), "hiding thinking"));
}

/* Where the match is follows the match, " · " between them, and goes
 * first when the bar is narrow. */
static void
test_where(void **state)
{
	struct fx *f = *state;
	struct status_in in = {0};

	in.progress = -1;
	in.nav = "match 1/1";
	in.where = "in Shell npm test stderr";
	status_build(f->m, &in, 200, &f->l);
	assert_non_null(strstr(text(f), "match 1/1 \xC2\xB7 in Shell npm test stderr"));
	status_build(f->m, &in, 40, &f->l);
	assert_non_null(strstr(text(f), "match 1/1"));
	assert_null(strstr(text(f), "in Shell"));
	/* Not without the match. */
	in.nav = NULL;
	status_build(f->m, &in, 200, &f->l);
	assert_null(strstr(text(f), "in Shell"));
}

static void
test_lines(void **state)
{
	struct fx *f = *state;
	struct status_in in = busy(f);

	status_build(f->m, &in, 20, &f->l);
	assert_string_equal(text(f), " \xE2\x9C\x93 done   disk full ");
	status_build(f->m, &in, 55, &f->l);
	assert_string_equal(text(f), " \xE2\x9C\x93 done   28.8 s  exit 2  +7 new  "
				     "match 3/17  disk full");
	status_build(f->m, &in, 132, &f->l);
	assert_string_equal(text(f), " \xE2\x9C\x93 done   Composer 2.5  ad7140d9  28.8 s  "
				     "\xE2\x9C\x93"
				     "8 \xE2\x9C\x97"
				     "1  tokens 41.4k in, 1.2k out, "
				     "112.6k cache read  exit 2  +7 new  match 3/17  disk full");
	assert_int_equal(role_of(f, "done"), ROLE_STATUS_OK);
	assert_int_equal(role_of(f, "exit 2"), ROLE_STATUS_FAILED);
	assert_int_equal(role_of(f, "+7 new"), ROLE_STATUS_WARN);
	assert_int_equal(role_of(f, "match"), ROLE_STATUS_LIVE);
	assert_int_equal(role_of(f, "disk full"), ROLE_STATUS_WARN);
	assert_int_equal(role_of(f, "Composer"), ROLE_STATUS);
}

/* The command: running, killed, exit 0; nothing while it has neither
 * run nor ended; its last stderr line. */
static void
test_command(void **state)
{
	struct fx *f = *state;
	struct status_in in = {0};

	in.progress = -1;
	in.command = true;
	in.command_running = true;
	status_build(f->m, &in, 200, &f->l);
	assert_int_equal(role_of(f, "running"), ROLE_STATUS);
	in.command_running = false;
	f->m->cmd.signal = 9;
	status_build(f->m, &in, 200, &f->l);
	assert_int_equal(role_of(f, "killed by signal 9"), ROLE_STATUS_FAILED);
	f->m->cmd.signal = 0;
	f->m->cmd.exited = true;
	status_build(f->m, &in, 200, &f->l);
	assert_int_equal(role_of(f, "exit 0"), ROLE_STATUS);
	f->m->cmd.exited = false;
	status_build(f->m, &in, 200, &f->l);
	assert_null(strstr(text(f), "exit"));
	/* A piece with nothing to say leaves no gap: no four blanks in a
	 * row before the padding. */
	while (f->l.text.n > 0 && f->l.text.p[f->l.text.n - 1] == ' ')
		f->l.text.n--;
	assert_non_null(strstr(text(f), "tokens"));
	assert_null(strstr(text(f), "    "));
	f->m->cmd.last_stderr = 0;
	status_build(f->m, &in, 200, &f->l);
	assert_int_equal(role_of(f, "stderr: "), ROLE_STATUS_WARN);
	f->m->cmd.last_stderr = NONE;
}

/* A replay: its mode instead of the state, its position instead of the
 * clock, its event after the search. */
static void
test_replay(void **state)
{
	struct fx *f = *state;
	struct status_in in = {0};

	in.progress = -1;
	in.mode = "paused";
	in.position = "01:12 / 04:30";
	in.detail = "+1.2 s";
	in.following = true;
	status_build(f->m, &in, 200, &f->l);
	assert_memory_equal(text(f), " paused   ", 10);
	assert_int_equal(role_of(f, "paused"), ROLE_STATUS_LIVE);
	assert_non_null(strstr(text(f), "  01:12 / 04:30  "));
	assert_null(strstr(text(f), "28.8 s"));
	assert_non_null(strstr(text(f), "  follow  +1.2 s "));
	in.compact = true;
	status_build(f->m, &in, 200, &f->l);
	assert_null(strstr(text(f), "follow"));
}

/* A live session whose question is not answered yet waits for a
 * decision. */
static void
test_waiting(void **state)
{
	struct fx *f = *state;
	struct status_in in = {0};
	size_t n, cut = 0;
	char *rec = fixture_slurp("recordings/cursor-0915-askquestion.ndjson", &n);
	struct fixture *live;

	/* Up to the request, the third line: its answer has not come. */
	for (int lines = 0; cut < n && lines < 3; cut++)
		lines += rec[cut] == '\n';
	live = fixture_new(rec, cut, FX_LIVE);
	in.progress = -1;
	status_build(live->m, &in, 80, &f->l);
	assert_memory_equal(text(f), " \xE2\x8F\xB8 waiting for a decision   ", 29);
	assert_int_equal(role_of(f, "waiting"), ROLE_STATUS_WARN);
	fixture_free(live);
	free(rec);
}

/* A live Codex session whose store records no approval wait, its process
 * at work (the list's row says so: may_wait), its call open 5 s or more
 * with no output: the state says "running or waiting", as the list's row
 * does; before, or without its process's word, live. The snapshot the
 * real CLI wrote while it held a command for approval. */
static void
test_may_wait(void **state)
{
	struct fx *f = *state;
	struct status_in in = {0};
	struct fixture *live = fixture_file("tests/stores/codex/ask/waiting/sessions/2026/11/27/"
					    "rollout-2026-11-27T09-34-36-01a21c5b-5325-79d0-9a26-"
					    "b2f6a8fe3f3c.jsonl",
					    FX_LIVE);
	const int64_t call = 1795772078311LL; /* 09:34:38.311Z, its start */
	uint32_t s = (uint32_t)model_nsessions(live->m) - 1;

	in.progress = -1;
	live->m->now_ms = call + 9000;
	status_build(live->m, &in, 80, &f->l);
	assert_memory_equal(text(f), " \xE2\x97\x8F live ", 10);
	live->m->may_wait = true;
	assert_true(model_session_may_wait(live->m, s));
	status_build(live->m, &in, 80, &f->l);
	assert_memory_equal(text(f), " \xE2\x97\x8F running or waiting ", 24);
	assert_int_equal(role_of(f, "running or waiting"), ROLE_STATUS_LIVE);
	live->m->now_ms = call + 2000;
	assert_false(model_session_may_wait(live->m, s));
	status_build(live->m, &in, 80, &f->l);
	assert_memory_equal(text(f), " \xE2\x97\x8F live ", 10);
	/* Its file over: the session is no longer live. */
	fixture_end(live);
	live->m->now_ms = call + 9000;
	assert_false(model_session_may_wait(live->m, s));
	fixture_free(live);
}

/* A question replaces every piece. */
static void
test_question(void **state)
{
	struct fx *f = *state;
	struct status_in in = busy(f);

	in.question = "stop it? (y/n)";
	status_build(f->m, &in, 30, &f->l);
	assert_string_equal(text(f), " stop it? (y/n)               ");
	for (size_t i = 0; i < f->l.nseg; i++)
		assert_int_equal(f->l.seg[i].role, ROLE_STATUS_WARN);
}

/* The status bar of a recording read to its end, w cells wide. */
static const char *
bar_of(struct fx *f, const char *name, int w)
{
	struct fixture *r = fixture_recording(name, 0);
	struct status_in in = {0};

	in.progress = -1;
	status_build(r->m, &in, w, &f->l);
	fixture_free(r);
	return text(f);
}

/* A failed session says why after its state, the first line of it cut
 * to 40 cells (where a secret could start: before a word), whatever the
 * agent; it goes after the model and before the clock and the calls
 * when the bar is short. */
static void
test_failed_why(void **state)
{
	struct fx *f = *state;

	assert_string_equal(
		bar_of(f, "gemini-rate-limit-fail", 120),
		" \xE2\x9C\x97 failed   [API Error: Resource has been exhausted\xE2\x80\xA6  "
		"gemini-2.5-pro  9a6cfa48  89 ms  no calls  tokens 0 in, 0 out     ");
	assert_int_equal(role_of(f, "[API Error"), ROLE_STATUS_FAILED);
	assert_string_equal(
		bar_of(f, "codex-rate-limit-fail", 100),
		" \xE2\x9C\x97 failed   exceeded retry limit, last status: 429\xE2\x80\xA6  "
		"Codex  no timing in this stream  no calls      ");
	assert_string_equal(
		bar_of(f, "gemini-rate-limit-fail", 60),
		" \xE2\x9C\x97 failed   89 ms  no calls                                 ");
	/* None for a session that did not fail. */
	assert_null(strstr(bar_of(f, "gemini-shell-ok", 200), "  ["));
}

/* A stream without times says so where the clock would be; one with
 * times says its duration. */
static void
test_no_timing(void **state)
{
	struct fx *f = *state;

	assert_non_null(strstr(bar_of(f, "codex-slow-shell", 120), "  no timing in this stream  "));
	assert_int_equal(role_of(f, "no timing"), ROLE_STATUS);
	assert_null(strstr(bar_of(f, "codex-slow-shell", 40), "no timing"));
	assert_null(strstr(bar_of(f, "gemini-slow-shell", 200), "no timing"));
	assert_non_null(strstr(bar_of(f, "gemini-slow-shell", 200), "  3.2 s  "));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_drop_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_note_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_where, setup, teardown),
		cmocka_unit_test_setup_teardown(test_command, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_waiting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_may_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_question, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_why, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_timing, setup, teardown),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
