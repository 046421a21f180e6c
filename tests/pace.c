/* pace.c: a slow writer for the recording tests. `pace MS FILE LOG` writes
 * the lines of FILE to stdout one every MS ms (each with one write), and
 * appends to LOG the wall-clock ms at which each was written, so a test can
 * compare a recording's arrival times with the writer's. A last line
 * without a newline is written as it is. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Write all of p[0..n) to fd 1. */
static int
write_all(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(1, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	FILE *in, *log;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long ms;
	struct timespec next, wall;

	if (argc != 4) {
		fputs("usage: pace MS FILE LOG\n", stderr);
		return 2;
	}
	ms = atol(argv[1]);
	in = fopen(argv[2], "rb");
	log = fopen(argv[3], "w");
	if (in == NULL || log == NULL) {
		perror("pace");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	while ((n = getline(&line, &cap, in)) > 0) {
		/* Absolute deadlines: the pace does not drift. */
		next.tv_nsec += ms * 1000000L;
		next.tv_sec += next.tv_nsec / 1000000000L;
		next.tv_nsec %= 1000000000L;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		clock_gettime(CLOCK_REALTIME, &wall);
		fprintf(log, "%lld\n", (long long)wall.tv_sec * 1000 + wall.tv_nsec / 1000000);
		if (write_all(line, (size_t)n) != 0)
			return 1;
	}
	free(line);
	fclose(in);
	return fclose(log) == 0 ? 0 : 1;
}
