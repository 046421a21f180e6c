/* test_watch.c: folders watched with inotify, polled where no watch can
 * be had, looked for when removed. The clock is the test's: watch_read
 * is given now_ms; inotify queues its events before the write returns, so
 * nothing here sleeps. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#include "util.h"
#include "watch.h"

/* What watch_read reported, one "dir:what:name" a line. */
static struct buf seen;

static void
note(void *ctx, int dir, const char *name, enum watch_what what)
{
	static const char *const words[] = {"changed", "new", "gone", "dir-gone", "rescan"};

	(void)ctx;
	buf_addf(&seen, "%d:%s:%s\n", dir, words[what], name ? name : "-");
}

/* watch_read at now, and what it said. */
static const char *
look(struct watch *w, int64_t now)
{
	buf_reset(&seen);
	buf_adds(&seen, "");
	watch_read(w, now, note, NULL);
	return seen.p;
}

static char *
scratch(void)
{
	char tmpl[] = "/tmp/av-watch-XXXXXX";

	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static void
write_file(const char *dir, const char *name, const char *text, int flags)
{
	char path[512];
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | flags, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* A file made, written, moved, removed; quiet means nothing, and no
 * timeout. */
static void
test_events(void **state)
{
	char *dir = scratch();
	char a[512], b[512];
	struct watch *w = watch_new();

	(void)state;
	assert_int_equal(watch_add(w, dir), 0);
	assert_false(watch_polled(w, 0));
	assert_true(watch_fd(w) >= 0);
	assert_int_equal(watch_timeout(w, 0), -1);
	assert_string_equal(look(w, 0), "");
	write_file(dir, "a.ndjson", "{}\n", O_EXCL);
	assert_string_equal(look(w, 0), "0:new:a.ndjson\n0:changed:a.ndjson\n0:changed:a.ndjson\n");
	write_file(dir, "a.ndjson", "{}\n", O_APPEND);
	assert_string_equal(look(w, 0), "0:changed:a.ndjson\n0:changed:a.ndjson\n");
	snprintf(a, sizeof a, "%s/a.ndjson", dir);
	snprintf(b, sizeof b, "%s/b.ndjson", dir);
	assert_int_equal(rename(a, b), 0);
	assert_string_equal(look(w, 0), "0:gone:a.ndjson\n0:new:b.ndjson\n");
	assert_int_equal(unlink(b), 0);
	assert_string_equal(look(w, 0), "0:gone:b.ndjson\n");
	assert_string_equal(look(w, 5000), "");
	assert_int_equal(watch_timeout(w, 5000), -1);
	/* The folder removed: said, then looked for every second until it
	 * is back, and then watched again. */
	assert_int_equal(rmdir(dir), 0);
	assert_string_equal(look(w, 6000), "0:dir-gone:-\n");
	assert_true(watch_gone(w, 0));
	assert_int_equal(watch_timeout(w, 6500), 500);
	assert_string_equal(look(w, 7000), "");
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_string_equal(look(w, 7999), "");
	assert_string_equal(look(w, 8000), "0:rescan:-\n");
	assert_false(watch_gone(w, 0));
	assert_int_equal(watch_timeout(w, 8000), -1);
	write_file(dir, "c.ndjson", "", O_EXCL);
	assert_string_equal(look(w, 8001), "0:new:c.ndjson\n0:changed:c.ndjson\n");
	snprintf(a, sizeof a, "%s/c.ndjson", dir);
	assert_int_equal(unlink(a), 0);
	assert_int_equal(rmdir(dir), 0);
	watch_free(w);
	free(dir);
	buf_free(&seen);
}

/* No watch left: the folder is polled, a rescan every second, said; a
 * watch that frees up is taken. */
static void
test_polled(void **state)
{
	char *d1 = scratch(), *d2 = scratch();
	struct watch *w = watch_new();
	char path[512];

	(void)state;
	watch_set_max(w, 1);
	assert_int_equal(watch_add(w, d1), 0);
	assert_int_equal(watch_add(w, d2), 1);
	assert_false(watch_polled(w, 0));
	assert_true(watch_polled(w, 1));
	assert_int_equal(watch_npolled(w), 1);
	/* Just listed by whoever added it: the first look is a second on. */
	assert_int_equal(watch_timeout(w, 100), WATCH_POLL_MS);
	write_file(d2, "x.ndjson", "{}\n", O_EXCL);
	assert_string_equal(look(w, 100), "");
	assert_int_equal(watch_timeout(w, 600), 500);
	assert_string_equal(look(w, 1099), "");
	assert_string_equal(look(w, 1100), "1:rescan:-\n");
	assert_string_equal(look(w, 2100), "1:rescan:-\n");
	watch_set_max(w, -1);
	assert_string_equal(look(w, 3100), "1:rescan:-\n");
	assert_int_equal(watch_npolled(w), 0);
	assert_int_equal(watch_timeout(w, 3100), -1);
	write_file(d2, "x.ndjson", "{}\n", O_APPEND);
	assert_string_equal(look(w, 3101), "1:changed:x.ndjson\n1:changed:x.ndjson\n");
	watch_free(w);
	snprintf(path, sizeof path, "%s/x.ndjson", d2);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(d1), 0);
	assert_int_equal(rmdir(d2), 0);
	free(d1);
	free(d2);
	buf_free(&seen);
}

/* AGENTVIEW_WATCH_MAX forces the limit. */
static void
test_env_max(void **state)
{
	char *d = scratch();
	struct watch *w;

	(void)state;
	setenv("AGENTVIEW_WATCH_MAX", "0", 1);
	w = watch_new();
	unsetenv("AGENTVIEW_WATCH_MAX");
	watch_add(w, d);
	assert_true(watch_polled(w, 0));
	watch_free(w);
	rmdir(d);
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_polled),
		cmocka_unit_test(test_env_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
