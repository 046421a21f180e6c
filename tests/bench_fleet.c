/* bench_fleet.c: the session list's figures for `make bench`, on a tree
 * of tests/gen_bench --fleet.
 *
 *   tests/bench_fleet look DIR RUNS
 *       the first screen of the list, RUNS times: the rows of every file
 *       of DIR read (fleet_update until the first look is over), sorted by
 *       attention and the 40 lines of a 120x40 screen laid out; and, read
 *       in slices of 20 ms as the screen will read them (keys answered
 *       between two), the time to the first slice and the longest slice.
 *       One line: "look rows=N files=N median_ms=X max_ms=X
 *       first_slice_ms=X longest_slice_ms=X slices=N".
 *
 *   tests/bench_fleet write DIR N HZ SECS
 *       for SECS seconds, HZ lines a second to each of the files
 *       DIR/s00000-*.ndjson .. of the first N of them (a thinking delta,
 *       now and then a tool call started, then completed), each line one
 *       write; says how many it wrote. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fleet.h"
#include "util.h"

/* Milliseconds between two clock_mono_us readings. */
static double
ms_between(int64_t a, int64_t b)
{
	return (double)(b - a) / 1000.0;
}

static int
by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One first look and its first screen; its time in ms. */
static double
look_once(const char *dir, size_t *rows, size_t *files)
{
	int64_t t0 = clock_mono_us(), now = clock_wall_ms();
	struct fleet *f = fleet_new(0, -1);
	struct fleet_colw cols[FC_NCOLS];
	struct buf err = {0}, line = {0};
	uint32_t *v;
	size_t n;
	int nc = fleet_columns(120, cols);
	double ms;

	if (fleet_add(f, dir, &err) != 0)
		die("%s", err.p);
	fleet_update(f, now, 0);
	n = fleet_nrows(f);
	v = xcalloc(n + 1, sizeof *v);
	n = fleet_rows(f, FSORT_ATTENTION, NULL, now, v, n);
	for (size_t i = 0; i < n && i < 38; i++) {
		buf_reset(&line);
		fleet_line(f, v[i], cols, nc, now, &line);
	}
	ms = ms_between(t0, clock_mono_us());
	*rows = n;
	*files = fleet_nfiles(f);
	free(v);
	buf_free(&err);
	buf_free(&line);
	fleet_free(f);
	return ms;
}

/* The first look in slices of 20 ms: the first, the longest, how many. */
static void
look_sliced(const char *dir, double *first, double *longest, int *slices)
{
	int64_t t0 = clock_mono_us(), now = clock_wall_ms();
	struct fleet *f = fleet_new(0, -1);
	struct buf err = {0};

	if (fleet_add(f, dir, &err) != 0)
		die("%s", err.p);
	*longest = 0;
	*slices = 0;
	*first = -1;
	while (fleet_loading(f) || *slices == 0) {
		int64_t a = clock_mono_us();
		double d;

		fleet_update(f, now, 20000);
		d = ms_between(a, clock_mono_us());
		if (*first < 0)
			*first = ms_between(t0, clock_mono_us());
		if (d > *longest)
			*longest = d;
		(*slices)++;
	}
	buf_free(&err);
	fleet_free(f);
}

static int
look(const char *dir, int runs)
{
	double *t = xcalloc((size_t)runs, sizeof *t), first, longest;
	size_t rows = 0, files = 0;
	int slices;

	for (int i = 0; i < runs; i++)
		t[i] = look_once(dir, &rows, &files);
	qsort(t, (size_t)runs, sizeof *t, by_double);
	look_sliced(dir, &first, &longest, &slices);
	printf("look\trows=%zu\tfiles=%zu\tmedian_ms=%.1f\tmax_ms=%.1f\t"
	       "first_slice_ms=%.1f\tlongest_slice_ms=%.1f\tslices=%d\n",
	       rows, files, t[runs / 2], t[runs - 1], first, longest, slices);
	free(t);
	return 0;
}

/* The first n files of dir named s*.ndjson, opened to append. */
static int *
open_files(const char *dir, int n)
{
	int *fd = xcalloc((size_t)n, sizeof *fd), k = 0;
	struct dirent **names;
	int count = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < count; i++) {
		char path[4096];

		if (k < n && names[i]->d_name[0] == 's' &&
		    strstr(names[i]->d_name, ".ndjson") != NULL) {
			snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
			fd[k] = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
			if (fd[k] < 0)
				die("%s: %s", path, strerror(errno));
			k++;
		}
		free(names[i]);
	}
	free(names);
	if (k < n)
		die("%s: %d files, not %d", dir, k, n);
	return fd;
}

/* Line number i of a live file: thinking deltas, and every 10th a call
 * started (then completed on the next). */
static int
live_line(char *buf, size_t cap, long i, int64_t ms)
{
	if (i % 10 == 8)
		return snprintf(
			buf, cap,
			"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"b%ld\","
			"\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"npm test\"}}},"
			"\"timestamp_ms\":%lld}\n",
			i, (long long)ms);
	if (i % 10 == 9)
		return snprintf(
			buf, cap,
			"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"b%ld\","
			"\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"npm test\"},"
			"\"result\":{\"success\":{\"exitCode\":0,\"stdout\":\"ok\"}}}},"
			"\"timestamp_ms\":%lld}\n",
			i - 1, (long long)ms);
	return snprintf(buf, cap,
			"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\" more thought\","
			"\"timestamp_ms\":%lld}\n",
			(long long)ms);
}

static int
write_live(const char *dir, int n, int hz, int secs)
{
	int *fd = open_files(dir, n);
	long ticks = (long)hz * secs, lines = 0;
	long step_ns = 1000000000L / hz / n;
	struct timespec next;
	char buf[512];

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long t = 0; t < ticks; t++) {
		for (int k = 0; k < n; k++) {
			int len = live_line(buf, sizeof buf, t, clock_wall_ms());

			if (write(fd[k], buf, (size_t)len) != len)
				die("write: %s", strerror(errno));
			lines++;
			/* Spread over the tick, as many agents would. */
			next.tv_nsec += step_ns;
			while (next.tv_nsec >= 1000000000L) {
				next.tv_nsec -= 1000000000L;
				next.tv_sec++;
			}
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) ==
			       EINTR)
				;
		}
	}
	for (int k = 0; k < n; k++)
		close(fd[k]);
	free(fd);
	printf("write\tfiles=%d\thz=%d\tsecs=%d\tlines=%ld\n", n, hz, secs, lines);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "look") == 0)
		return look(argv[2], atoi(argv[3]) > 0 ? atoi(argv[3]) : 1);
	if (argc == 6 && strcmp(argv[1], "write") == 0)
		return write_live(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
	fprintf(stderr, "usage: bench_fleet look DIR RUNS | write DIR N HZ SECS\n");
	return 2;
}
