/* test_compare.c: --compare's scorecard in its three formats, byte for
 * byte against tests/golden/compare.{txt,md,json} (UPDATE_GOLDEN=1
 * rewrites them), FILE#N, escapes kept off the terminal and out of the
 * Markdown, and the errors said. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "compare.h"
#include "json.h"
#include "print.h"

/* What compare_run writes, and what it says went wrong. */
struct run {
	char *out;
	size_t n;
	struct buf err;
	int status;
};

/* Compare a and b in format into r. */
static void
run(struct run *r, const char *a, const char *b, const struct format *format)
{
	FILE *f = open_memstream(&r->out, &r->n);

	assert_non_null(f);
	memset(&r->err, 0, sizeof r->err);
	r->status = compare_run(a, b, format, -1, f, &r->err);
	fclose(f);
}

static void
run_free(struct run *r)
{
	free(r->out);
	buf_free(&r->err);
}

/* The output equals the golden file (or becomes it, with UPDATE_GOLDEN=1). */
static void
assert_golden(const struct run *r, const char *path)
{
	size_t n;
	char *want;
	const char *update = getenv("UPDATE_GOLDEN");

	if (update != NULL && strcmp(update, "1") == 0) {
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fwrite(r->out, 1, r->n, f);
		fclose(f);
	}
	want = fixture_slurp(path, &n);
	assert_int_equal(r->n, n);
	assert_memory_equal(r->out, want, n);
	free(want);
}

/* Two Cursor runs, one that fixed a test and one that failed in other
 * ways: each format as it was checked by eye. */
static void
test_golden(void **state)
{
	static const struct {
		const struct format *format;
		const char *golden;
	} cases[] = {
		{&format_text, "tests/golden/compare.txt"},
		{&format_markdown, "tests/golden/compare.md"},
		{&format_json, "tests/golden/compare.json"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct run r;

		run(&r, "recordings/demo.ndjson", "recordings/failures.ndjson", cases[i].format);
		assert_int_equal(r.status, 0);
		assert_int_equal(r.err.n, 0);
		assert_golden(&r, cases[i].golden);
		run_free(&r);
	}
}

/* The JSON is one valid object, with the difference at the first step. */
static void
test_json(void **state)
{
	struct json *j = json_new();
	struct run r;
	int64_t v;

	(void)state;
	run(&r, "recordings/claude-shell-ok.ndjson", "recordings/claude-shell-fail.ndjson",
	    &format_json);
	assert_int_equal(r.status, 0);
	assert_int_equal(json_parse(j, r.out, r.n - 1), JSON_OK);
	assert_true(json_int_at(j, 0, "first_difference.step", &v));
	assert_int_equal(v, 1);
	assert_true(json_int_at(j, 0, "b.failed_calls", &v));
	assert_int_equal(v, 1);
	assert_true(json_int_at(j, 0, "a.failed_calls", &v));
	assert_int_equal(v, 0);
	assert_true(json_int_at(j, 0, "a.tokens.in", &v));
	assert_int_equal(v, 210);
	assert_non_null(strstr(r.out, "\"commands\":[\"echo hello\"]"));
	assert_non_null(strstr(r.out, "\"commands\":[\"ls /nonexistent\"]"));
	run_free(&r);
	/* The same run twice: no difference. */
	run(&r, "recordings/demo.ndjson", "recordings/demo.ndjson", &format_json);
	assert_non_null(strstr(r.out, "\"first_difference\":null}\n"));
	run_free(&r);
	json_free(j);
}

/* FILE#N: the Nth session; without it the newest; past the end, said. */
static void
test_session(void **state)
{
	struct run r;

	(void)state;
	run(&r, "recordings/multi-session.ndjson#1", "recordings/multi-session.ndjson",
	    &format_text);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "(1 of 3)"));
	assert_non_null(strstr(r.out, "(3 of 3)"));
	assert_non_null(strstr(r.out, "  A, step 1: read package.json\n"
				      "  B, step 1: (no more steps)\n"));
	run_free(&r);
	run(&r, "recordings/multi-session.ndjson#4", "recordings/demo.ndjson", &format_text);
	assert_int_equal(r.status, 1);
	assert_int_equal(r.n, 0);
	assert_string_equal(r.err.p, "recordings/multi-session.ndjson: no session 4: "
				     "it has 3 (FILE#1 to FILE#3)");
	run_free(&r);
	run(&r, "recordings/demo.ndjson#0", "recordings/demo.ndjson", &format_text);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err.p, "recordings/demo.ndjson: no session 0: "
				     "it has 1 (FILE#1 to FILE#1)");
	run_free(&r);
	run(&r, "recordings/demo.ndjson", "recordings/no-such.ndjson", &format_text);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err.p, "recordings/no-such.ndjson: No such file or directory");
	run_free(&r);
}

/* Escape sequences in a model, a path, a command reach neither the
 * terminal nor the Markdown as they are; Markdown's table survives '|'. */
static void
test_escapes(void **state)
{
	struct run r;

	(void)state;
	for (int k = 0; k < 2; k++) {
		const struct format *format = k == 0 ? &format_text : &format_markdown;

		run(&r, "recordings/escapes.ndjson", "recordings/markup.ndjson", format);
		assert_int_equal(r.status, 0);
		assert_null(memchr(r.out, '\033', r.n));
		assert_null(memchr(r.out, '\a', r.n));
		if (format == &format_markdown) {
			assert_null(strstr(r.out, "<img"));
			assert_non_null(strstr(r.out, "&lt;img src=x onerror=\"alert(1)\"&gt;"));
			for (char *l = strstr(r.out, "\n| "); l != NULL;
			     l = strstr(l + 1, "\n| ")) {
				int bars = 0;

				for (char *c = l + 1; *c != '\n'; c++)
					bars += *c == '|' && c[-1] != '\\';
				assert_int_equal(bars, 4);
			}
		}
		run_free(&r);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_escapes),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
