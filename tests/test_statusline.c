/* test_statusline.c: finding the newest session, and its one line. */
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "json.h"
#include "statusline.h"

#define INIT(id, model) \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"" id "\",\"model\":\"" model \
	"\"}\n"
#define START(id, kind, args, ts) \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"" id \
	"\",\"tool_call\":{\"" kind "\":{\"args\":" args "}},\"timestamp_ms\":" #ts "}\n"
#define DONE(id, kind, result, ts) \
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"" id \
	"\",\"tool_call\":{\"" kind "\":{\"result\":" result "}}," \
	"\"timestamp_ms\":" #ts "}\n"
#define RESULT(ms) \
	"{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false," \
	"\"duration_ms\":" #ms ",\"result\":\"done\"}\n"

/* One running session: a read done at 2.5 s, a shell running since 2 s,
 * an edit that failed. */
#define RUNNING \
	INIT("a", "Composer 2.5") \
	START("c1", "readToolCall", "{\"path\":\"a.txt\"}", 1000) \
	START("c2", "shellToolCall", "{\"command\":\"npm test\"}", 2000) \
	DONE("c1", "readToolCall", "{\"success\":{\"totalLines\":3}}", 2500) \
	START("c3", "editToolCall", "{\"path\":\"b.c\"}", 2600) \
	DONE("c3", "editToolCall", "{\"error\":{\"errorMessage\":\"no\"}}", 2700)
static const char running[] = RUNNING;

/* The status line of text's newest session, the source ended or not. */
static char *
line_of(const char *text, bool end, int64_t now, int flags)
{
	struct fixture *f = fixture_new(text, strlen(text), end ? 0 : FX_LIVE);
	struct model *m = f->m;
	struct buf out = {0};

	m->now_ms = now;
	assert_true(m->nses > 0);
	statusline_format(m, (uint32_t)(m->nses - 1), flags, &out);
	fixture_free(f);
	return out.p;
}

static void
test_newest_init(void **state)
{
	struct json *j = json_new();
	static const char two[] = INIT("a", "A")
		RESULT(1) "{\"type\":\"tool_call\",\"args\":{\"x\":\"init\"},\"t\":\"system\"}\n" INIT(
			"b", "B") "{\"type\":\"user\"}";
	static const char bom[] = "\xEF\xBB\xBF" INIT("a", "A") "{\"x\":\"init\"}\n";
	static const char none[] = "{\"type\":\"user\",\"subtype\":\"init\"}\n"
				   "{\"type\":\"system\",\"subtype\":\"initial\"}\n"
				   "not json \"init\"\n";
	const char *b =
		strstr(two, "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"b\"");

	(void)state;
	/* The newest one wins; an "init" inside another event is not one. */
	assert_int_equal(statusline_newest_init(two, sizeof two - 1, j), (size_t)(b - two));
	/* The first line, behind a BOM. */
	assert_int_equal(statusline_newest_init(bom, sizeof bom - 1, j), 0);
	assert_int_equal(statusline_newest_init(none, sizeof none - 1, j), SIZE_MAX);
	assert_int_equal(statusline_newest_init("", 0, j), SIZE_MAX);
	/* A last line with no newline is looked at too. */
	assert_int_equal(
		statusline_newest_init("x\n" INIT("a", "A"), 2 + sizeof INIT("a", "A") - 2, j), 2);
	json_free(j);
}

static void
test_live(void **state)
{
	char *s = line_of(running, false, 16500, 0);

	(void)state;
	/* Elapsed is now - start; the running call is the newest one. */
	assert_string_equal(s, "\xE2\x97\x8F Composer 2.5 \xC2\xB7 15.5 s \xC2\xB7 "
			       "1 running, 1 done, 1 failed \xC2\xB7 "
			       "Shell `npm test` \xE2\x86\x92 running 14.5 s");
	free(s);
}

static void
test_ok_and_incomplete(void **state)
{
	char *ok = line_of(INIT("a", "Auto") START("c1", "readToolCall", "{\"path\":\"a\"}", 10)
				   DONE("c1", "readToolCall", "{\"success\":{}}", 20) RESULT(25400),
			   false, 99999, 0);
	char *inc = line_of(running, true, 99999, 0);
	char *bare = line_of("{\"type\":\"user\"}\n", true, 99999, 0);

	(void)state;
	assert_string_equal(ok, "\xE2\x9C\x93 Auto \xC2\xB7 25.4 s \xC2\xB7 1 done");
	/* Ended without result: its open call is orphaned, so failed. */
	assert_string_equal(inc, "? Composer 2.5 \xC2\xB7 1.7 s \xC2\xB7 1 done, 2 failed");
	/* No init, no time, no calls: the glyph alone. */
	assert_string_equal(bare, "?");
	free(ok);
	free(inc);
	free(bare);
}

/* A failed command: why, from its last stderr line; tmux styles. */
static void
test_failed_tmux(void **state)
{
	static const char text[] =
		"{\"type\":\"system\",\"subtype\":\"init\",\"model\":\"#{host} \\u001b[2J"
		"Extra Long Model Name 256K\"}\n"
		"{\"type\":\"agentview\",\"subtype\":\"stderr\",\"agentview_ms\":5,"
		"\"text\":\"Error: #(rm -rf ~) usage limit\"}\n"
		"{\"type\":\"agentview\",\"subtype\":\"exit\",\"agentview_ms\":6,"
		"\"exit_status\":1,\"signal\":null}\n";
	char *plain = line_of(text, true, 99999, 0);
	char *tmux = line_of(text, true, 99999, SL_TMUX);

	(void)state;
	/* Escapes shown, the model cut to 24 cells. */
	/* (Its time is its lines': the command's exit is none of them.) */
	assert_string_equal(plain, "\xE2\x9C\x97 #{host} ^[[2JExtra Long\xE2\x80\xA6 \xC2\xB7 0 ms "
				   "\xC2\xB7 exit status 1: Error: #(rm -rf ~) usage limit");
	/* Every '#' of event text doubled: tmux shows it, runs nothing. */
	assert_string_equal(tmux,
			    "#[fg=red]\xE2\x9C\x97#[default] ##{host} ^[[2JExtra Long\xE2\x80\xA6 "
			    "\xC2\xB7 0 ms \xC2\xB7 #[fg=red]exit status 1: Error: ##(rm -rf ~) "
			    "usage limit#[default]");
	free(plain);
	free(tmux);
}

/* A file to run --status-line on, modified at mtime_s. */
static char *
write_file(const char *text, time_t mtime_s)
{
	char *path = strdup("/tmp/av-sl-XXXXXX");
	int fd = mkstemp(path);
	struct timespec ts[2] = {{mtime_s, 0}, {mtime_s, 0}};

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(futimens(fd, ts), 0);
	close(fd);
	return path;
}

/* Run --status-line on path at now_ms; its output, and status in *status. */
static char *
run_file(const char *path, int64_t now_ms, int *status)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	struct buf err = {0};

	*status = statusline_run(path, 0, -1, now_ms, f, &err);
	fclose(f);
	buf_free(&err);
	return out;
}

/* Live means: no result, no recorded exit, and the file modified within
 * MODEL_LIVE_SECS of now. */
static void
test_run_live_rule(void **state)
{
	const time_t t = 1800000000;
	const int64_t now_fresh = (int64_t)t * 1000 + 5000;
	const int64_t now_stale = ((int64_t)t + MODEL_LIVE_SECS + 1) * 1000;
	char *older = write_file(INIT("a", "Old") RESULT(1) RUNNING, t);
	char *exited = write_file(
		"{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1,"
		"\"agentview_ms\":1,\"source\":\"command\",\"argv\":[\"x\"]}\n" INIT(
			"a", "M") "{\"type\":\"agentview\",\"subtype\":\"exit\",\"agentview_ms\":9,"
				  "\"exit_status\":0,\"signal\":null}\n",
		t);
	char *done = write_file(INIT("a", "Old") RESULT(1) INIT("b", "New") RESULT(2000), t);
	char *out;
	int status;

	(void)state;
	out = run_file(older, now_fresh, &status);
	/* Only the newest session counts; it is live. */
	assert_non_null(strstr(out, "\xE2\x97\x8F Composer 2.5 \xC2\xB7 "));
	assert_null(strstr(out, "Old"));
	assert_int_equal(status, 3);
	free(out);
	out = run_file(older, now_stale, &status);
	assert_string_equal(out, "? Composer 2.5 \xC2\xB7 1.7 s \xC2\xB7 1 done, 2 failed\n");
	assert_int_equal(status, 3);
	free(out);
	/* The command's recorded end: over, however fresh the file (no time:
	 * its one line has none, the exit is no line of it). */
	out = run_file(exited, now_fresh, &status);
	assert_string_equal(out, "? M\n");
	assert_int_equal(status, 3);
	free(out);
	out = run_file(done, now_fresh, &status);
	assert_string_equal(out, "\xE2\x9C\x93 New \xC2\xB7 2.0 s\n");
	assert_int_equal(status, 0);
	free(out);
	out = run_file("/nonexistent/x.ndjson", now_fresh, &status);
	assert_int_equal(status, 1);
	free(out);
	unlink(older);
	unlink(exited);
	unlink(done);
	free(older);
	free(exited);
	free(done);
}

/* statusline_run passes over assistant and thinking deltas unparsed; what
 * it shows is the same as from the whole model: the running call, and a
 * duration from the first to the last time (both deltas here). */
static void
test_run_skips_deltas(void **state)
{
	const time_t t = 1800000000;
	const int64_t now_stale = ((int64_t)t + MODEL_LIVE_SECS + 1) * 1000;
#define THINK(ts) \
	"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"x\"," \
	"\"timestamp_ms\":" #ts "}\n"
#define SAY(text, ts) \
	"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":" \
	"\"text\",\"text\":\"" text "\"}]},\"timestamp_ms\":" #ts "}\n"
	/* A delta whose later keys look like a tool call is still a delta:
	 * the model takes the first "type". */
	const char *text = INIT("a", "M") THINK(1000) SAY(
		"\\\"type\\\":\\\"tool_call\\\"",
		1500) "{\"type\":\"assistant\",\"message\":{\"content\":[]},\"timestamp_ms\":1600,"
		      "\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"z\"}\n" START(
			      "c1", "shellToolCall", "{\"command\":\"npm test\"}", 2000)
			      SAY("still going", 2500) THINK(3000) SAY("the last", 4000);
	char *path = write_file(text, t);
	char *whole = line_of(text, true, now_stale, 0);
	char *out;
	int status;

	(void)state;
	out = run_file(path, now_stale, &status);
	assert_int_equal(strlen(out), strlen(whole) + 1);
	assert_memory_equal(out, whole, strlen(whole));
	/* 3 s: from the first thinking delta to the last reply delta. */
	assert_string_equal(out, "? M \xC2\xB7 3.0 s \xC2\xB7 1 failed\n");
	assert_int_equal(status, 3);
	free(out);
	free(whole);
	unlink(path);
	free(path);
#undef THINK
#undef SAY
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_newest_init),       cmocka_unit_test(test_live),
		cmocka_unit_test(test_ok_and_incomplete), cmocka_unit_test(test_failed_tmux),
		cmocka_unit_test(test_run_live_rule),     cmocka_unit_test(test_run_skips_deltas),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
