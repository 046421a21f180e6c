/* bench_markdown.c: how long a reply's Markdown takes to parse, to lay out
 * at a width (what the transcript will do for a reply it shows) and to
 * write as HTML. Not part of make test:
 *
 *   make tests/bench_markdown
 *   tests/bench_markdown [FILE] [RUNS]    (without FILE: a reply of 100 KB
 *                                          of every kind of block, made here)
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_reply.h"
#include "markdown.h"

static int
cmp_ns(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The median of runs times of what. */
static double
median_ms(int64_t *t, int runs)
{
	qsort(t, (size_t)runs, sizeof *t, cmp_ns);
	return (double)t[runs / 2] / 1e6;
}

int
main(int argc, char **argv)
{
	static const size_t widths[] = {120, 80, 40};
	struct markdown md = {0};
	struct markdown_layout lay = {0};
	struct buf in = {0}, html = {0};
	int runs = argc > 2 ? atoi(argv[2]) : 51;
	int64_t *t;
	FILE *f;

	setlocale(LC_CTYPE, "C.UTF-8");
	if (runs < 1)
		runs = 1;
	t = xcalloc((size_t)runs, sizeof *t);
	if (argc > 1) {
		char chunk[65536];
		size_t k;

		if ((f = fopen(argv[1], "rb")) == NULL)
			die("%s: cannot open", argv[1]);
		while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
			buf_add(&in, chunk, k);
		fclose(f);
	} else {
		bench_reply(&in, 100u << 10);
	}
	for (int r = 0; r < runs; r++) {
		int64_t t0 = clock_mono_ns();

		markdown_parse(&md, in.p, in.n);
		t[r] = clock_mono_ns() - t0;
	}
	printf("reply: %zu bytes, %zu blocks, %zu runs%s\n", in.n, md.nblock, md.nrun,
	       md.plain ? " (plain)" : "");
	printf("parse:            %8.3f ms (median of %d)\n", median_ms(t, runs), runs);
	for (size_t w = 0; w < ARRAY_LEN(widths); w++) {
		for (int r = 0; r < runs; r++) {
			int64_t t0 = clock_mono_ns();

			markdown_layout(&md, widths[w], &lay);
			t[r] = clock_mono_ns() - t0;
		}
		printf("layout at %3zu:    %8.3f ms (median of %d), %zu lines\n", widths[w],
		       median_ms(t, runs), runs, lay.nline);
	}
	for (int r = 0; r < runs; r++) {
		int64_t t0 = clock_mono_ns();

		buf_reset(&html);
		markdown_html(&md, 4, &html);
		t[r] = clock_mono_ns() - t0;
	}
	printf("html:             %8.3f ms (median of %d), %zu bytes\n", median_ms(t, runs), runs,
	       html.n);
	markdown_layout_free(&lay);
	markdown_free(&md);
	buf_free(&in);
	buf_free(&html);
	free(t);
	return 0;
}
