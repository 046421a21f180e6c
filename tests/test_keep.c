/* test_keep.c: the folder of kept sessions: where it is, what a new file
 * in it looks like, and that only old kept recordings nobody writes are
 * ever removed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "keep.h"

#define DAY_MS 86400000LL
/* The test's "now": 2026-11-23 00:00 UTC, far from the real clock on purpose. */
#define NOW_MS 1795392000000LL

#define scratch() fixture_tmpdir("keep")
#define rm_tree fixture_rmtree

/* Write text to dir/name, last modified age_days before NOW_MS. */
static void
put(const char *dir, const char *name, const char *text, double age_days)
{
	fixture_put(dir, name, text, NOW_MS - (int64_t)(age_days * DAY_MS), false);
}

static bool
exists(const char *dir, const char *name)
{
	struct buf p = {0};
	struct stat st;
	bool yes;

	buf_addf(&p, "%s/%s", dir, name);
	yes = lstat(p.p, &st) == 0;
	buf_free(&p);
	return yes;
}

/* XDG_STATE_HOME when absolute, else HOME's .local/state. */
static void
test_dir(void **state)
{
	struct buf b = {0};

	(void)state;
	setenv("XDG_STATE_HOME", "/x/state", 1);
	setenv("HOME", "/home/u", 1);
	assert_true(keep_dir(&b));
	assert_string_equal(b.p, "/x/state/agentview/sessions");
	buf_reset(&b);
	setenv("XDG_STATE_HOME", "relative", 1);
	assert_true(keep_dir(&b));
	assert_string_equal(b.p, "/home/u/.local/state/agentview/sessions");
	buf_reset(&b);
	unsetenv("XDG_STATE_HOME");
	unsetenv("HOME");
	assert_false(keep_dir(&b));
	buf_free(&b);
}

/* AGENTVIEW_RECORD and AGENTVIEW_KEEP_DAYS; --keep wins. */
static void
test_env(void **state)
{
	(void)state;
	unsetenv("AGENTVIEW_RECORD");
	assert_true(keep_wanted());
	setenv("AGENTVIEW_RECORD", "0", 1);
	assert_false(keep_wanted());
	setenv("AGENTVIEW_RECORD", "Off", 1);
	assert_false(keep_wanted());
	setenv("AGENTVIEW_RECORD", "1", 1);
	assert_true(keep_wanted());
	unsetenv("AGENTVIEW_KEEP_DAYS");
	assert_true(keep_days(-1) == KEEP_DAYS_DEFAULT);
	setenv("AGENTVIEW_KEEP_DAYS", "7", 1);
	assert_true(keep_days(-1) == 7);
	assert_true(keep_days(2) == 2);
	assert_true(keep_days(0) == 0);
	setenv("AGENTVIEW_KEEP_DAYS", "soon", 1);
	assert_true(keep_days(-1) == KEEP_DAYS_DEFAULT);
	unsetenv("AGENTVIEW_KEEP_DAYS");
}

/* The folder is made 0700 (parents too), the file 0600, named by the
 * start time and the process, its header kept. */
static void
test_open(void **state)
{
	char *dir = scratch();
	struct buf xdg = {0}, err = {0}, want = {0};
	struct recorder r;
	struct stat st;
	mode_t old = umask(022);
	char *text;
	size_t n;

	(void)state;
	buf_addf(&xdg, "%s/state", dir);
	setenv("XDG_STATE_HOME", xdg.p, 1);
	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(keep_open(&r, NULL, NOW_MS + 3723000, &err), 0);
	buf_addf(&want, "%s/agentview/sessions/20261123-010203-p%ld.ndjson", xdg.p, (long)getpid());
	assert_string_equal(r.path, want.p);
	assert_int_equal(stat(r.path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	buf_reset(&want);
	buf_addf(&want, "%s/agentview/sessions", xdg.p);
	assert_int_equal(stat(want.p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(stat(xdg.p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	record_line(&r, "{}", 2, true, 1);
	buf_reset(&want);
	buf_adds(&want, r.path);
	record_close(&r);
	assert_int_equal(access(want.p, F_OK), 0); /* a line: kept */
	/* The same second again: another file, never the same one. */
	assert_int_equal(keep_open(&r, NULL, NOW_MS + 3723000, &err), 0);
	assert_non_null(strstr(r.path, "_1.ndjson"));
	text = fixture_slurp(r.path, &n);
	assert_non_null(strstr(text, "\"kept\":true"));
	free(text);
	buf_reset(&want);
	buf_adds(&want, r.path);
	/* Nothing came: nothing is kept. */
	record_close(&r);
	assert_int_equal(access(want.p, F_OK), -1);
	umask(old);
	unsetenv("XDG_STATE_HOME");
	buf_free(&xdg);
	buf_free(&err);
	buf_free(&want);
	rm_tree(dir);
}

/* A folder that cannot be made: said, -1. */
static void
test_open_fails(void **state)
{
	char *dir = scratch();
	struct buf xdg = {0}, err = {0};
	struct recorder r;

	(void)state;
	put(dir, "file", "", 0);
	buf_addf(&xdg, "%s/file/state", dir);
	setenv("XDG_STATE_HOME", xdg.p, 1);
	assert_int_equal(keep_open(&r, NULL, NOW_MS, &err), -1);
	assert_non_null(strstr(err.p, "cannot make"));
	assert_non_null(strstr(err.p, "Not a directory"));
	unsetenv("XDG_STATE_HOME");
	buf_free(&xdg);
	buf_free(&err);
	rm_tree(dir);
}

#define KEPT_HEAD \
	"{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1,\"kept\":true,\"agentview_ms\":1}\n"
#define REC_HEAD \
	"{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1,\"agentview_ms\":1}\n"

/* Only old kept recordings of ours that nobody writes go. */
static void
test_prune(void **state)
{
	char *dir = scratch();
	struct buf p = {0}, link_to = {0};
	int held;

	(void)state;
	put(dir, "old.ndjson", KEPT_HEAD "{}\n", 31);
	put(dir, "young.ndjson", KEPT_HEAD, 29);
	put(dir, "recorded.ndjson", REC_HEAD, 90); /* --record FILE's */
	put(dir, "stream.ndjson", "{\"type\":\"system\"}\n", 90);
	put(dir, "old.jsonl", KEPT_HEAD, 90);
	put(dir, "kept-later.ndjson", "{}\n" KEPT_HEAD, 90);
	put(dir, "held.ndjson", KEPT_HEAD, 90);
	put(dir, "theirs.ndjson", KEPT_HEAD, 90);
	put(dir, "target.txt", KEPT_HEAD, 90);
	buf_addf(&p, "%s/theirs.ndjson", dir);
	assert_int_equal(chown(p.p, 65534, 65534), 0);
	buf_reset(&p);
	buf_addf(&p, "%s/link.ndjson", dir);
	buf_addf(&link_to, "%s/target.txt", dir);
	assert_int_equal(symlink(link_to.p, p.p), 0);
	buf_reset(&p);
	buf_addf(&p, "%s/held.ndjson", dir);
	held = open(p.p, O_RDONLY);
	assert_int_equal(flock(held, LOCK_EX), 0);

	assert_int_equal(keep_prune(dir, 30, NOW_MS), 1);
	assert_false(exists(dir, "old.ndjson"));
	assert_true(exists(dir, "young.ndjson"));
	assert_true(exists(dir, "recorded.ndjson"));
	assert_true(exists(dir, "stream.ndjson"));
	assert_true(exists(dir, "old.jsonl"));
	assert_true(exists(dir, "kept-later.ndjson"));
	assert_true(exists(dir, "held.ndjson"));
	assert_true(exists(dir, "link.ndjson"));
	assert_true(exists(dir, "target.txt"));
	if (getuid() == 0)
		assert_true(exists(dir, "theirs.ndjson"));
	/* Once its writer is gone, it goes too; 0 days: nothing ever. */
	close(held);
	assert_int_equal(keep_prune(dir, 0, NOW_MS), 0);
	assert_true(exists(dir, "held.ndjson"));
	assert_int_equal(keep_prune(dir, 30, NOW_MS), 1);
	assert_false(exists(dir, "held.ndjson"));
	assert_int_equal(keep_prune(dir, 28, NOW_MS), 1);
	assert_false(exists(dir, "young.ndjson"));
	buf_free(&p);
	buf_free(&link_to);
	rm_tree(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir),   cmocka_unit_test(test_env),
		cmocka_unit_test(test_open),  cmocka_unit_test(test_open_fails),
		cmocka_unit_test(test_prune),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
