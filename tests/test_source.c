/* test_source.c: sources and the line reader. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "agent.h"
#include "source.h"

/* A fresh temporary directory for file tests. */
static char tmpdir[64];

static int
setup_dir(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/av-lines-XXXXXX");
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
teardown_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
write_file(const char *path, const char *s, const char *mode)
{
	FILE *f = fopen(path, mode);

	assert_non_null(f);
	fputs(s, f);
	assert_int_equal(fclose(f), 0);
}

/* Lines of bytes the caller keeps, read where they are; turned to other
 * bytes, numbered from their start again; closing frees none of them. */
static void
test_over_lines(void **state)
{
	char one[] = "a\nbc", two[] = "{}\n";
	struct source s;
	struct line ln;

	(void)state;
	source_open_over(&s, "piece", one, sizeof one - 1);
	assert_true(source_next_line(&s, &ln));
	assert_ptr_equal(source_at(&s, ln.off), one);
	assert_int_equal(ln.no, 1);
	assert_true(source_next_line(&s, &ln));
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "bc");
	assert_false(ln.terminated);
	assert_false(source_next_line(&s, &ln));
	source_over(&s, two, sizeof two - 1);
	assert_true(source_next_line(&s, &ln));
	assert_ptr_equal(source_at(&s, ln.off), two);
	assert_int_equal(ln.no, 1);
	assert_true(ln.terminated);
	assert_false(source_next_line(&s, &ln));
	source_over(&s, NULL, 0);
	assert_false(source_next_line(&s, &ln));
	source_close(&s);
	assert_string_equal(one, "a\nbc");
}

/* Lines, line numbers, CRLF kept for the parser, blank lines, and a last
 * line with no newline. */
static void
test_mem_lines(void **state)
{
	static const char text[] = "a\nbc\r\n\nlast";
	struct source s;
	struct line ln;

	(void)state;
	source_open_mem(&s, "m", text, sizeof text - 1);
	assert_true(source_next_line(&s, &ln));
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "a");
	assert_int_equal(ln.no, 1);
	assert_true(ln.terminated);
	assert_true(source_next_line(&s, &ln));
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "bc\r");
	assert_true(source_next_line(&s, &ln));
	assert_int_equal(ln.len, 0);
	assert_int_equal(ln.no, 3);
	assert_true(source_next_line(&s, &ln));
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "last");
	assert_false(ln.terminated);
	assert_int_equal(ln.no, 4);
	assert_false(source_next_line(&s, &ln));
	source_close(&s);
}

/* NUL bytes are bytes like any other. */
static void
test_nul_bytes(void **state)
{
	static const char text[] = "a\0b\n\0\n";
	struct source s;
	struct line ln;

	(void)state;
	source_open_mem(&s, "m", text, sizeof text - 1);
	assert_true(source_next_line(&s, &ln));
	assert_int_equal(ln.len, 3);
	assert_memory_equal(source_at(&s, ln.off), "a\0b", 3);
	assert_true(source_next_line(&s, &ln));
	assert_int_equal(ln.len, 1);
	assert_false(source_next_line(&s, &ln));
	source_close(&s);
}

/* A stream keeps an unterminated line until more bytes come, or until
 * the end of input. */
static void
test_stream_partial_line(void **state)
{
	int p[2];
	struct source s;
	struct line ln;

	(void)state;
	assert_int_equal(pipe(p), 0);
	source_open_fd(&s, p[0], "pipe");
	assert_int_equal(s.kind, SOURCE_STREAM);
	assert_int_equal(write(p[1], "{\"a\":1}\n{\"b\"", 12), 12);
	assert_int_equal(source_read(&s), 12);
	assert_true(source_next_line(&s, &ln));
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "{\"a\":1}");
	assert_false(source_next_line(&s, &ln));
	assert_int_equal(write(p[1], ":2}", 3), 3);
	assert_int_equal(source_read(&s), 3);
	assert_false(source_next_line(&s, &ln));
	close(p[1]);
	assert_int_equal(source_read(&s), 0);
	assert_true(s.eof);
	assert_true(source_next_line(&s, &ln));
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "{\"b\":2}");
	assert_false(ln.terminated);
	assert_int_equal(ln.no, 2);
	source_close(&s);
}

/* A file read by source_open_copy, then cut short (an agent's CLI
 * rewriting its store, anyone): its lines are still there to read, where
 * a mapping's would kill the reader with SIGBUS. The reading is done in a
 * child, so that SIGBUS fails the test rather than ends it. */
static void
test_copy_cut_short(void **state)
{
	char path[] = "/tmp/av-copy-XXXXXX";
	int fd = mkstemp(path), st;
	struct source s;
	struct line ln;
	struct buf line = {0}, err = {0};
	pid_t pid;

	(void)state;
	assert_true(fd >= 0);
	for (int i = 0; i < 2000; i++)
		buf_addf(&line, "{\"n\":%d,\"pad\":\"%0100d\"}\n", i, i);
	assert_int_equal(write(fd, line.p, line.n), (ssize_t)line.n);
	assert_int_equal(source_open_copy(&s, path, false, &err), 0);
	assert_true(s.eof);
	assert_int_equal(s.size, line.n);
	assert_int_equal(ftruncate(fd, 10), 0);
	close(fd);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int n = 0;
		size_t last = 0;

		signal(SIGBUS, SIG_DFL);
		while (source_next_line(&s, &ln)) {
			last = ln.off;
			n++;
		}
		_exit(n == 2000 && memcmp(source_at(&s, last), "{\"n\":1999,", 10) == 0 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	source_close(&s);
	unlink(path);
	buf_free(&line);
	buf_free(&err);
}

/* A line arriving in pieces is searched only in its new bytes; the lines
 * still come out whole, and again from the start when the reader's scan
 * is moved back (as input.c does when a followed file restarts). */
static void
test_line_in_pieces(void **state)
{
	static const char *const piece[] = {"ab", "c", "d\nef", "g", "\nh"};
	int p[2];
	struct source s;
	struct line ln;

	(void)state;
	assert_int_equal(pipe(p), 0);
	source_open_fd(&s, p[0], "pipe");
	for (int i = 0; i < 3; i++) {
		ssize_t n = (ssize_t)strlen(piece[i]);

		assert_int_equal(write(p[1], piece[i], (size_t)n), n);
		assert_int_equal(source_read(&s), n);
		if (i < 2)
			assert_false(source_next_line(&s, &ln));
	}
	assert_true(source_next_line(&s, &ln));
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "abcd");
	assert_false(source_next_line(&s, &ln)); /* "ef" is waiting */
	for (int i = 3; i < 5; i++) {
		ssize_t n = (ssize_t)strlen(piece[i]);

		assert_int_equal(write(p[1], piece[i], (size_t)n), n);
		assert_int_equal(source_read(&s), n);
	}
	assert_true(source_next_line(&s, &ln));
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "efg");
	assert_false(source_next_line(&s, &ln)); /* "h" is waiting */
	/* Back to the start: the first line again, not "h" or nothing. */
	s.scan = 0;
	s.lineno = 0;
	assert_true(source_next_line(&s, &ln));
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "abcd");
	assert_int_equal(ln.no, 1);
	close(p[1]);
	source_close(&s);
}

/* A line of 64 MiB comes through a pipe whole. */
static void
test_huge_line(void **state)
{
	const size_t big = 64u << 20;
	int p[2];
	pid_t pid;
	struct source s;
	struct line ln;
	int status;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static char chunk[65536];
		size_t left = big;

		close(p[0]);
		memset(chunk, 'x', sizeof chunk);
		while (left > 0) {
			size_t n = left < sizeof chunk ? left : sizeof chunk;

			if (write(p[1], chunk, n) != (ssize_t)n)
				_exit(1);
			left -= n;
		}
		_exit(write(p[1], "\nok\n", 4) == 4 ? 0 : 1);
	}
	close(p[1]);
	source_open_fd(&s, p[0], "pipe");
	while (!source_next_line(&s, &ln))
		assert_true(source_read(&s) > 0);
	assert_int_equal(ln.len, big);
	assert_int_equal(source_at(&s, ln.off)[0], 'x');
	assert_int_equal(source_at(&s, ln.off)[big - 1], 'x');
	while (!source_next_line(&s, &ln))
		assert_true(source_read(&s) > 0);
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "ok");
	assert_int_equal(ln.no, 2);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	source_close(&s);
}

/* A regular file is mapped and read at once. */
static void
test_mapped_file(void **state)
{
	char path[128];
	struct source s;
	struct buf err = {0};
	struct line ln;

	(void)state;
	snprintf(path, sizeof path, "%s/a.ndjson", tmpdir);
	write_file(path, "one\ntwo\n", "w");
	assert_int_equal(source_open_path(&s, path, false, &err), 0);
	assert_int_equal(s.kind, SOURCE_MAPPED);
	assert_true(s.eof);
	assert_true(source_next_line(&s, &ln));
	assert_true(source_next_line(&s, &ln));
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "two");
	assert_false(source_next_line(&s, &ln));
	source_close(&s);
	/* An empty file has no lines and no mapping. */
	write_file(path, "", "w");
	assert_int_equal(source_open_path(&s, path, false, &err), 0);
	assert_false(source_next_line(&s, &ln));
	source_close(&s);
	buf_free(&err);
}

/* Errors come back as text naming the file. */
static void
test_open_errors(void **state)
{
	char path[128];
	struct source s;
	struct buf err = {0};

	(void)state;
	snprintf(path, sizeof path, "%s/missing.ndjson", tmpdir);
	assert_int_equal(source_open_path(&s, path, false, &err), -1);
	assert_non_null(strstr(err.p, "missing.ndjson: No such file or directory"));
	buf_reset(&err);
	assert_int_equal(source_open_path(&s, tmpdir, false, &err), -1);
	assert_non_null(strstr(err.p, "is a directory"));
	buf_free(&err);
}

/* A file an agent's own files name (a sub-agent's) is opened only when
 * it is a regular file, never through a link, by what was opened: a link
 * to a file elsewhere (a key) and a fifo are refused; so is the head of
 * either read by agent_read_head. */
static void
test_open_plain(void **state)
{
	char path[128], link[128], fifo[128], head[16];
	struct source s;
	struct buf err = {0};
	FILE *f;

	(void)state;
	snprintf(path, sizeof path, "%s/agent-1.jsonl", tmpdir);
	snprintf(link, sizeof link, "%s/agent-2.jsonl", tmpdir);
	snprintf(fifo, sizeof fifo, "%s/agent-3.jsonl", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"a\":1}\n", f);
	fclose(f);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	for (int copy = 0; copy < 2; copy++) {
		assert_int_equal(source_open_plain(&s, path, false, copy, &err), 0);
		assert_int_equal(s.size, 8);
		source_close(&s);
		assert_int_equal(source_open_plain(&s, link, false, copy, &err), -1);
		assert_int_equal(source_open_plain(&s, fifo, false, copy, &err), -1);
		assert_non_null(strstr(err.p, "agent-3.jsonl: not a regular file"));
		buf_reset(&err);
	}
	assert_int_equal(source_open_plain(&s, fifo, true, false, &err), -1);
	assert_int_equal(agent_read_head(path, head, sizeof head), 8);
	assert_int_equal(agent_read_head(link, head, sizeof head), -1);
	assert_int_equal(agent_read_head(fifo, head, sizeof head), -1);
	unlink(link);
	unlink(fifo);
	buf_free(&err);
}

/* Read a followed source to its end; return the lines handed out. */
static int
drain(struct source *s, struct line *last)
{
	int n = 0;

	while (source_read(s) > 0)
		;
	while (source_next_line(s, last))
		n++;
	return n;
}

/* Following: growth, a partial line held back, truncation, replacement. */
static void
test_follow(void **state)
{
	char path[128], other[128];
	struct source s;
	struct buf err = {0};
	struct line ln;

	(void)state;
	snprintf(path, sizeof path, "%s/f.ndjson", tmpdir);
	snprintf(other, sizeof other, "%s/g.ndjson", tmpdir);
	write_file(path, "a\n", "w");
	assert_int_equal(source_open_path(&s, path, true, &err), 0);
	assert_int_equal(s.kind, SOURCE_STREAM);
	assert_true(s.follow);
	assert_int_equal(drain(&s, &ln), 1);
	assert_int_equal(source_refresh(&s), SOURCE_SAME);

	write_file(path, "b\npart", "a");
	assert_int_equal(source_refresh(&s), SOURCE_GREW);
	/* A followed file's unterminated line waits for its newline. */
	assert_int_equal(drain(&s, &ln), 1);
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "b");
	write_file(path, "ial\n", "a");
	assert_int_equal(drain(&s, &ln), 1);
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "partial");

	write_file(path, "x\n", "w");
	assert_int_equal(source_refresh(&s), SOURCE_TRUNCATED);
	assert_int_equal(source_restart(&s, &err), 0);
	assert_int_equal(drain(&s, &ln), 1);
	assert_bytes_equal(source_at(&s, ln.off), ln.len, "x");
	assert_int_equal(ln.no, 1);

	write_file(other, "y\nz\n", "w");
	assert_int_equal(rename(other, path), 0);
	assert_int_equal(source_refresh(&s), SOURCE_REPLACED);
	assert_int_equal(source_restart(&s, &err), 0);
	assert_int_equal(drain(&s, &ln), 2);

	assert_int_equal(unlink(path), 0);
	assert_int_equal(source_refresh(&s), SOURCE_GONE);
	source_close(&s);
	buf_free(&err);
}

/* stdin redirected from a regular file is mapped too. */
static void
test_fd_regular_file(void **state)
{
	char path[128];
	struct source s;
	struct line ln;
	int fd;

	(void)state;
	snprintf(path, sizeof path, "%s/r.ndjson", tmpdir);
	write_file(path, "1\n2\n3\n", "w");
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	source_open_fd(&s, fd, "-");
	assert_int_equal(s.kind, SOURCE_MAPPED);
	assert_int_equal(drain(&s, &ln), 3);
	source_close(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mem_lines),      cmocka_unit_test(test_over_lines),
		cmocka_unit_test(test_nul_bytes),      cmocka_unit_test(test_stream_partial_line),
		cmocka_unit_test(test_copy_cut_short), cmocka_unit_test(test_line_in_pieces),
		cmocka_unit_test(test_huge_line),      cmocka_unit_test(test_mapped_file),
		cmocka_unit_test(test_open_errors),    cmocka_unit_test(test_open_plain),
		cmocka_unit_test(test_follow),         cmocka_unit_test(test_fd_regular_file),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
