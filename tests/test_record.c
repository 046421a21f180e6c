/* test_record.c: recordings keep every line and give the stream back. */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "agent.h"
#include "json.h"
#include "model.h"
#include "source.h"
#include "record.h"

/* Record text line by line at times 1000, 1001, ...; return the file. */
static char *
record_text(const char *text, size_t n, size_t *outlen)
{
	char path[] = "/tmp/av-rec-XXXXXX";
	int fd = mkstemp(path);
	struct recorder r;
	struct buf err = {0};
	struct source s;
	struct line ln;
	int64_t t = 1000;
	char *out;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(record_open(&r, path, NULL, &err), 0);
	source_open_mem(&s, "t", text, n);
	while (source_next_line(&s, &ln))
		record_line(&r, source_at(&s, ln.off), ln.len, ln.terminated, t++);
	assert_int_equal(r.err, 0);
	record_close(&r);
	source_close(&s);
	out = fixture_slurp(path, outlen);
	unlink(path);
	buf_free(&err);
	return out;
}

/* The original stream recovered from a recording. */
static char *
recover(const char *rec, size_t n, size_t *outlen)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct source s;
	struct line ln;

	source_open_mem(&s, "r", rec, n);
	while (source_next_line(&s, &ln))
		record_raw_line(f, source_at(&s, ln.off), ln.len, ln.terminated);
	fclose(f);
	source_close(&s);
	*outlen = len;
	return out;
}

/* Every line of a recording is one JSON object that jq would read. */
static void
assert_all_json(const char *rec, size_t n)
{
	struct source s;
	struct line ln;
	struct json *j = json_new();

	source_open_mem(&s, "r", rec, n);
	while (source_next_line(&s, &ln))
		if (json_parse(j, source_at(&s, ln.off), ln.len) != JSON_OK)
			fail_msg("line %llu is not a JSON object: %.*s", (unsigned long long)ln.no,
				 (int)ln.len, source_at(&s, ln.off));
	json_free(j);
	source_close(&s);
}

static void
test_round_trip(void **state)
{
	static const char text[] =
		"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"a\"}\n"
		"{\"a\":1 }\r\n"
		"\n"
		"{}\n"
		"[1,2]\n"
		"RetriableError: unknown option \x1b[31m\n"
		"invalid \xff\xfe utf-8 and a NUL \0 here\n"
		"  {\"spaced\":true}  \n"
		"{\"last\":\"no newline\"}";
	size_t rn, on;
	char *rec = record_text(text, sizeof text - 1, &rn);
	char *orig = recover(rec, rn, &on);

	(void)state;
	assert_all_json(rec, rn);
	assert_int_equal(on, sizeof text - 1);
	assert_memory_equal(orig, text, on);
	/* JSON objects keep their shape, with the arrival time added. */
	assert_non_null(strstr(rec, "\n{\"a\":1 ,\"agentview_ms\":1001}\r\n"));
	assert_non_null(strstr(rec, "{\"type\":\"agentview\",\"subtype\":\"line\","
				    "\"agentview_ms\":1005,\"text\":\"RetriableError: "
				    "unknown option \\u001b[31m\"}\n"));
	assert_non_null(strstr(rec, "\"base64\":\""));
	assert_non_null(strstr(rec, "\"newline\":false}\n"));
	free(rec);
	free(orig);
}

/* The event types a model reads text[0..n) as (each line read by agent's
 * adapter, or each session's own when agent is -1), one letter each
 * ('A' + the type), into out; its diagnostics in *ndiag. */
static void
read_as(const char *text, size_t n, int agent, struct buf *out, size_t *ndiag)
{
	struct model *m = model_new();
	struct source s;
	struct line ln;
	unsigned id;

	m->agent = agent;
	source_open_mem(&s, "t", text, n);
	id = model_add_source(m, &s);
	while (source_next_line(&s, &ln))
		model_add_line(m, id, &ln, TIME_NONE);
	model_end_source(m, id);
	buf_reset(out);
	for (size_t e = 0; e < m->nev; e++)
		if (EV_TYPE(&m->ev[e]) != EV_META)
			buf_addc(out, (char)('A' + EV_TYPE(&m->ev[e])));
	*ndiag = m->ndiag;
	model_free(m);
	source_close(&s);
}

/* A recording read back gives the events and diagnostics the stream gave
 * read live, for lines that are not JSON but read as more than a bad line:
 * a bookkeeping line cut short, after the session began (hidden by its
 * first bytes), and the first line of a JSON document across lines. */
static void
test_read_back_same(void **state)
{
	static const struct {
		int agent;
		const char *text;
	} cases[] = {
		{AGENT_CLAUDE_STORE, "{\"type\":\"queue-operation\",\"operati{\"x\n"
				     "{\"type\":\"queue-operation\",\"op\":\"enq1\n"
				     "{\"type\":\"file-history-snapshot\",\"m\n"},
		{-1, "{\n  \"a\": 1\n}\n"
		     "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}\n"},
		{-1, "\xEF\xBB\xBF[\n1\n]\n"},
	};
	struct buf live = {0}, back = {0};
	size_t dl = 0, db;

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		size_t n = strlen(cases[i].text), rn;
		char *rec = record_text(cases[i].text, n, &rn);

		read_as(cases[i].text, n, cases[i].agent, &live, &dl);
		read_as(rec, rn, cases[i].agent, &back, &db);
		assert_int_equal(db, dl);
		assert_int_equal(back.n, live.n);
		assert_memory_equal(back.p, live.p, live.n);
		free(rec);
	}
	assert_int_equal(dl, 1); /* the document: said once */
	buf_free(&live);
	buf_free(&back);
}

/* Recording a recording does not nest timestamps. */
static void
test_no_nesting(void **state)
{
	static const char text[] = "{\"a\":1}\nplain\n";
	size_t rn, rn2, on;
	char *rec = record_text(text, sizeof text - 1, &rn);
	/* Skip the header, as a recording of a recording would see it too. */
	char *rec2 = record_text(rec, rn, &rn2);
	char *orig = recover(rec2, rn2, &on);
	char *stamp;

	(void)state;
	stamp = strstr(rec2, "agentview_ms\":1001");
	assert_non_null(stamp);
	assert_null(strstr(stamp + 1, "agentview_ms\":1001,\"agentview_ms"));
	assert_int_equal(on, sizeof text - 1);
	assert_memory_equal(orig, text, on);
	free(rec);
	free(rec2);
	free(orig);
}

/* Lines that only look like a recording's are the stream's own: raw
 * gives them back as they were, from the stream and from its recording.
 * Found by fuzz_model: an unterminated last line starting with the
 * wrapper's prefix vanished from --format raw. */
static void
test_raw_lookalikes(void **state)
{
	static const char text[] = "{\"type\":\"agentview\",broken\n"
				   "plain\n"
				   "{\"a\":1,\"agentview_ms\":5}\n"
				   "{\"type\":\"agentview\",\"subtype\":\"line\",\"text\":\"x\"}";
	static const char want[] = "{\"type\":\"agentview\",broken\n"
				   "plain\n"
				   "{\"a\":1}\n" /* a stamp on a whole line is taken for ours */
				   "{\"type\":\"agentview\",\"subtype\":\"line\",\"text\":\"x\"}";
	size_t rn, on;
	char *orig = recover(text, sizeof text - 1, &on);
	char *rec;

	(void)state;
	assert_int_equal(on, sizeof want - 1);
	assert_memory_equal(orig, want, on);
	free(orig);
	rec = record_text(text, sizeof text - 1, &rn);
	orig = recover(rec, rn, &on);
	assert_int_equal(on, sizeof want - 1);
	assert_memory_equal(orig, want, on);
	free(rec);
	free(orig);
}

/* A write error is reported, and nothing more is written. */
static void
test_full_disk(void **state)
{
	struct recorder r;
	struct buf err = {0};

	(void)state;
	assert_int_equal(record_open(&r, "/dev/full", NULL, &err), 0);
	assert_int_equal(r.err, ENOSPC);
	assert_int_equal(r.lines, 0);
	record_line(&r, "{\"a\":1}", 7, true, 5);
	assert_int_equal(r.err, ENOSPC);
	assert_int_equal(r.lines, 0);
	record_close(&r);
	/* A path that cannot be created is an error of its own. */
	assert_int_equal(record_open(&r, "/nonexistent/dir/rec.ndjson", NULL, &err), -1);
	assert_non_null(strstr(err.p, "No such file or directory"));
	buf_free(&err);
}

/* A write error in the middle of a line takes the part that made it back:
 * the recording keeps whole lines only, each one readable. Run in a child
 * under a file size limit, which makes write(2) fail with EFBIG. */
static void
test_write_error_whole_lines(void **state)
{
	static const char line[] = "{\"type\":\"assistant\",\"n\":12345678}\n";
	const size_t len = sizeof line - 1;
	char path[] = "/tmp/av-rec-XXXXXX";
	int fd = mkstemp(path), status;
	pid_t pid;
	struct stat st;
	char *text, *orig;
	size_t on;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit lim = {1000, 1000};
		struct recorder r;
		struct buf err = {0};
		int i;

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &lim) != 0 || record_open(&r, path, NULL, &err) != 0)
			_exit(2);
		for (i = 0; i < 100 && r.err == 0; i++)
			record_line(&r, line, len - 1, true, 1000 + i);
		_exit(r.err == EFBIG && i > 5 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 0 && st.st_size < 1000);
	fd = open(path, O_RDONLY);
	text = malloc((size_t)st.st_size);
	assert_int_equal(read(fd, text, (size_t)st.st_size), st.st_size);
	close(fd);
	unlink(path);
	assert_int_equal(text[st.st_size - 1], '\n');
	assert_all_json(text, (size_t)st.st_size);
	orig = recover(text, (size_t)st.st_size, &on);
	/* whole lines of the input, and nothing else */
	assert_true(on > 0 && on % len == 0);
	for (size_t k = 0; k < on; k += len)
		assert_memory_equal(orig + k, line, len);
	free(orig);
	free(text);
}

static void
test_stderr_and_exit(void **state)
{
	char path[] = "/tmp/av-rec-XXXXXX";
	int fd = mkstemp(path);
	struct recorder r;
	struct buf err = {0};
	char buf[4096];
	char a0[] = "agent", a1[] = "-p";
	char *const argv[] = {a0, a1, NULL};
	ssize_t n;

	(void)state;
	close(fd);
	assert_int_equal(record_open(&r, path, argv, &err), 0);
	record_stderr(&r, "Cannot use this model", 21, 5);
	record_exit(&r, true, 1, 0, 6);
	record_close(&r);
	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	unlink(path);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_non_null(strstr(buf, "\"source\":\"command\",\"argv\":[\"agent\",\"-p\"]}\n"));
	assert_non_null(strstr(buf, "{\"type\":\"agentview\",\"subtype\":\"stderr\","
				    "\"agentview_ms\":5,\"text\":\"Cannot use this model\"}\n"));
	assert_non_null(strstr(buf, "{\"type\":\"agentview\",\"subtype\":\"exit\","
				    "\"agentview_ms\":6,\"exit_status\":1,\"signal\":null}\n"));
	buf_free(&err);
}

/* The end of the stream is a line of its own, with its time, which the
 * original stream does not hold; a recording of nothing ends with no
 * such line (a kept one is still removed as empty). */
static void
test_end(void **state)
{
	char path[] = "/tmp/av-rec-XXXXXX";
	int fd = mkstemp(path);
	struct recorder r;
	struct buf err = {0};
	static const char line[] = "{\"type\":\"thread.started\",\"thread_id\":\"t\"}";
	char *text, *orig;
	size_t n, on;

	(void)state;
	close(fd);
	assert_int_equal(record_open(&r, path, NULL, &err), 0);
	record_line(&r, line, sizeof line - 1, true, 5);
	record_end(&r, 100005);
	record_close(&r);
	text = fixture_slurp(path, &n);
	assert_non_null(strstr(text, "\"agentview_ms\":5}\n{\"type\":\"agentview\",\"subtype\":"
				     "\"end\",\"agentview_ms\":100005}\n"));
	orig = recover(text, n, &on);
	assert_int_equal(on, sizeof line);
	assert_memory_equal(orig, line, sizeof line - 1);
	free(orig);
	free(text);

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	assert_true(fd >= 0);
	record_open_kept(&r, fd, path, NULL);
	record_end(&r, 7);
	record_close(&r);
	assert_int_equal(access(path, F_OK), -1);
	buf_free(&err);
}

/* A kept recording says so in its header, holds a lock while open, and
 * takes its first session's id into its name (never over another file). */
static void
test_kept_named(void **state)
{
	char dir[] = "/tmp/av-kept-XXXXXX";
	static const char init[] =
		"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"ab/cd:ef12345678\",\"model\":\"m\"}";
	struct recorder r, r2;
	struct buf path = {0}, taken = {0};
	char *text;
	size_t n;
	int fd, probe;

	(void)state;
	assert_non_null(mkdtemp(dir));
	buf_addf(&path, "%s/20261123-203947-p42.ndjson", dir);
	fd = open(path.p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	record_open_kept(&r, fd, path.p, NULL);
	probe = open(path.p, O_RDONLY);
	assert_int_equal(flock(probe, LOCK_EX | LOCK_NB), -1);
	assert_int_equal(errno, EWOULDBLOCK);
	record_line(&r, "{\"type\":\"user\"}", 15, true, 5);
	assert_string_equal(r.path, path.p); /* not yet: no session started */
	record_line(&r, init, sizeof init - 1, true, 6);
	buf_addf(&taken, "%s/20261123-203947-abcdef12.ndjson", dir);
	assert_string_equal(r.path, taken.p);
	assert_int_equal(access(path.p, F_OK), -1);
	text = fixture_slurp(taken.p, &n);
	assert_non_null(strstr(text, "\"version\":1,\"kept\":true,"));
	free(text);
	record_close(&r);
	assert_int_equal(flock(probe, LOCK_EX | LOCK_NB), 0);
	close(probe);

	/* A second run of that session in the same second: -2. */
	fd = open(path.p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	record_open_kept(&r2, fd, path.p, NULL);
	record_line(&r2, init, sizeof init - 1, true, 7);
	buf_reset(&taken);
	buf_addf(&taken, "%s/20261123-203947-abcdef12-2.ndjson", dir);
	assert_string_equal(r2.path, taken.p);
	unlink(r2.path);
	record_close(&r2);
	buf_reset(&taken);
	buf_addf(&taken, "%s/20261123-203947-abcdef12.ndjson", dir);
	unlink(taken.p);
	rmdir(dir);
	buf_free(&path);
	buf_free(&taken);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_kept_named),
		cmocka_unit_test(test_no_nesting),
		cmocka_unit_test(test_read_back_same),
		cmocka_unit_test(test_raw_lookalikes),
		cmocka_unit_test(test_full_disk),
		cmocka_unit_test(test_write_error_whole_lines),
		cmocka_unit_test(test_stderr_and_exit),
		cmocka_unit_test(test_end),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
