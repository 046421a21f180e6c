/* test_ahead.c: parsing on a second thread changes nothing. The same input
 * goes through a model that parses every line itself and one whose lines
 * are parsed ahead (over many chunks); events, items, calls, sessions,
 * diagnostics and the JSON summary must be the same. */
#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "ahead.h"
#include "model.h"
#include "summary.h"

/* Append the bytes of every recording in recordings/ to b. */
static void
add_recordings(struct buf *b)
{
	DIR *d = opendir("recordings");
	struct dirent *de;
	char path[512];

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		char *text;
		size_t n;

		if (strstr(de->d_name, ".ndjson") == NULL)
			continue;
		snprintf(path, sizeof path, "recordings/%s", de->d_name);
		text = fixture_slurp(path, &n);
		buf_add(b, text, n);
		free(text);
	}
	closedir(d);
}

/* A model of text with the given ahead threshold; its JSON summary in
 * *summary. */
static struct fixture *
index_text(const struct buf *text, size_t ahead_min, struct buf *summary)
{
	struct fixture *f = fixture_new(text->p, text->n, FX_UNREAD);

	f->m->ahead_min = ahead_min;
	fixture_feed(f, SIZE_MAX);
	fixture_end(f);
	summary_write(f->m, NULL, summary, NULL);
	return f;
}

/* Two models of the same text agree in every stored field. */
static void
assert_same_model(const struct model *a, const struct model *b)
{
	assert_int_equal(a->nev, b->nev);
	assert_memory_equal(a->ev, b->ev, a->nev * sizeof *a->ev);
	assert_int_equal(a->nit, b->nit);
	assert_memory_equal(a->it, b->it, a->nit * sizeof *a->it);
	assert_int_equal(a->ncall, b->ncall);
	for (size_t c = 0; c < a->ncall; c++) {
		assert_int_equal(a->call[c].start_ev, b->call[c].start_ev);
		assert_int_equal(a->call[c].done_ev, b->call[c].done_ev);
		assert_int_equal(a->call[c].kind, b->call[c].kind);
		assert_int_equal(a->call[c].result, b->call[c].result);
		assert_true(a->call[c].start_ms == b->call[c].start_ms);
		assert_true(a->call[c].end_ms == b->call[c].end_ms);
	}
	assert_int_equal(a->nses, b->nses);
	assert_int_equal(a->ndiag, b->ndiag);
	for (size_t d = 0; d < a->ndiag; d++) { /* (struct diag has padding) */
		assert_int_equal(a->diag[d].line, b->diag[d].line);
		assert_int_equal(a->diag[d].ev, b->diag[d].ev);
		assert_int_equal(a->diag[d].pos, b->diag[d].pos);
		assert_int_equal(a->diag[d].code, b->diag[d].code);
		assert_int_equal(a->diag[d].err, b->diag[d].err);
	}
	assert_int_equal(a->lines, b->lines);
	assert_int_equal(a->bytes, b->bytes);
}

/* Every recording, many times over (so the lines span many chunks), with a
 * BOM first, bad lines, blank and CRLF lines, a line longer than a chunk,
 * and a last line without a newline. */
static void
test_same_as_one_thread(void **state)
{
	struct buf text = {0}, one = {0}, two = {0}, big = {0};
	struct fixture *f1, *f2;

	(void)state;
	buf_add(&text, "\xEF\xBB\xBF", 3);
	for (int i = 0; i < 30; i++) {
		add_recordings(&text);
		buf_adds(&text, "not json\n\n   \n{\"type\":\"user\"}\r\n{\"a\":}\n");
		if (i == 7) { /* one line of 200 kB */
			buf_adds(&big, "{\"type\":\"assistant\",\"message\":{\"content\":"
				       "[{\"type\":\"text\",\"text\":\"");
			for (int k = 0; k < 20000; k++)
				buf_adds(&big, "0123456789");
			buf_adds(&big, "\"}]},\"timestamp_ms\":5}\n");
			buf_add(&text, big.p, big.n);
		}
	}
	buf_adds(&text, "{\"type\":\"result\",\"is_error\":false}");
	f1 = index_text(&text, SIZE_MAX, &one);
	f2 = index_text(&text, 0, &two);
	assert_same_model(f1->m, f2->m);
	assert_int_equal(one.n, two.n);
	assert_memory_equal(one.p, two.p, one.n);
	fixture_free(f1);
	fixture_free(f2);
	buf_free(&text);
	buf_free(&one);
	buf_free(&two);
	buf_free(&big);
}

/* Stopping in the middle (the user quits while a big file is indexed),
 * and releasing a source, leave nothing running; more lines are then
 * parsed by the model itself. */
static void
test_stop_early(void **state)
{
	struct buf text = {0};
	struct fixture *f;
	struct model *m;

	(void)state;
	for (int i = 0; i < 10; i++)
		add_recordings(&text);
	f = fixture_new(text.p, text.n, FX_UNREAD);
	m = f->m;
	m->ahead_min = 0;
	assert_int_equal(fixture_feed(f, 100), 100);
	assert_non_null(m->src[f->src].ahead);
	model_release_source(m, f->src);
	assert_null(m->src[f->src].ahead);
	assert_int_equal(fixture_feed(f, 100), 100);
	assert_null(m->src[f->src].ahead);
	fixture_free(f);
	buf_free(&text);
}

/* ahead on its own: lines split otherwise than the chunks say are given
 * back to the caller, never mistaken for others. */
static void
test_mismatch(void **state)
{
	static const char text[] = "{\"a\":1}\n{\"b\":2}\n";
	static const char *const keys[] = {"a", "b"};
	struct json_keys ks;
	struct json *j = json_new();
	struct ahead *a;
	int k[2];

	(void)state;
	json_keys_init(&ks, keys, 2);
	a = ahead_start(text, strlen(text), 0, &ks, NULL);
	assert_non_null(a);
	assert_true(ahead_take(a, 0, 7, text, 7, j, k));
	assert_int_equal(k[0], 2);
	assert_int_equal(k[1], -1);
	assert_false(ahead_take(a, 9, 6, text + 9, 6, j, k)); /* not a line */
	assert_false(ahead_take(a, 8, 7, text + 8, 7, j, k)); /* given up */
	ahead_stop(a);
	json_free(j);
}

/* A line the model passes over unparsed (its agent's skip, a running
 * total read late) is not asked for: the next is still taken parsed (it
 * was given back, and every line after it: a rollout's token_count after
 * each turn made the model parse the rest of the file itself). */
static void
test_passed_over(void **state)
{
	static const char text[] = "{\"a\":1}\n{\"b\":2}\n{\"b\":3}\n";
	static const char *const keys[] = {"a", "b"};
	struct json_keys ks;
	struct json *j = json_new();
	struct ahead *a;
	int k[2];

	(void)state;
	json_keys_init(&ks, keys, 2);
	a = ahead_start(text, strlen(text), 0, &ks, NULL);
	assert_non_null(a);
	assert_true(ahead_take(a, 0, 7, text, 7, j, k));
	assert_true(ahead_take(a, 16, 7, text + 16, 7, j, k));
	assert_int_equal(k[0], -1);
	assert_int_equal(k[1], 2);
	assert_false(ahead_take(a, 8, 7, text + 8, 7, j, k)); /* gone by */
	ahead_stop(a);
	json_free(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_one_thread),
		cmocka_unit_test(test_stop_early),
		cmocka_unit_test(test_mismatch),
		cmocka_unit_test(test_passed_over),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
