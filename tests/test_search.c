/* test_search.c: smartcase, UTF-8 folding, counting, the raw prefilter,
 * matches across streamed deltas and inside escaped JSON, filters, and a
 * search that goes on as events arrive. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "detail.h"
#include "search.h"

/* A model of text's lines and a search over it; the source stays open when
 * live. */
static struct fixture *
load(const char *text, bool live)
{
	return fixture_new(text, strlen(text), (live ? FX_LIVE : 0) | FX_SEARCH);
}

/* Search for pat over everything; the number of matches. */
static uint64_t
find_all(struct fixture *f, const char *pat, unsigned hide)
{
	int steps = 0;

	search_set(&f->se, pat, strlen(pat), hide);
	/* A small budget: the search must come out the same in many steps. */
	while (search_step(&f->se, 64))
		assert_true(++steps < 100000);
	assert_true(search_done(&f->se));
	return f->se.total;
}

/* Matches of pat in t, with a search of its own. */
static uint32_t
count_in(const char *pat, const char *t)
{
	struct model *m = model_new();
	struct search s;
	uint32_t n;

	search_init(&s, m);
	search_set(&s, pat, strlen(pat), 0);
	n = search_count(&s, t, strlen(t));
	search_free(&s);
	model_free(m);
	return n;
}

static void
test_smartcase(void **state)
{
	(void)state;
	assert_int_equal(count_in("error", "Error, ERROR and error"), 3);
	/* A capital makes the case matter. */
	assert_int_equal(count_in("Error", "Error, ERROR and error"), 1);
	assert_int_equal(count_in("ERROR", "Error, ERROR and error"), 1);
	/* Matches do not overlap. */
	assert_int_equal(count_in("aa", "aaaaa"), 2);
	assert_int_equal(count_in("x", ""), 0);
}

static void
test_utf8_folding(void **state)
{
	(void)state;
	/* Latin, Greek, Cyrillic fold with towlower. */
	assert_int_equal(count_in("café", "CAFÉ café Café"), 3);
	assert_int_equal(count_in("αθηνα", "ΑΘΗΝΑ Αθηνα αθηνα"), 3);
	/* Simple folding: Σ folds to σ, never to the final ς. */
	assert_int_equal(count_in("λόγος", "ΛΌΓΟΣ λόγος"), 1);
	assert_int_equal(count_in("привет", "ПРИВЕТ Привет привет"), 3);
	/* An upper-case non-ASCII letter is a capital. */
	assert_int_equal(count_in("Привет", "ПРИВЕТ Привет привет"), 1);
	/* U+0130 folds to i; the Kelvin sign to k. */
	assert_int_equal(count_in("istanbul", "\xC4\xB0STANBUL"), 1);
	assert_int_equal(count_in("5 k", "5 \xE2\x84\xAA"), 1);
	/* Hangul has no case: bytes as they are. */
	assert_int_equal(count_in("출력", "출력 형식을 출력"), 2);
	/* An invalid byte is U+FFFD; a match after it is still found. */
	assert_int_equal(count_in("ok", "\xFFok"), 1);
}

/* search_find gives the bytes of each match. */
static void
test_find_offsets(void **state)
{
	struct model *m = model_new();
	struct search s;
	const char *t = "Grüße, GRÜSSE, grüße";
	size_t a, b;

	(void)state;
	search_init(&s, m);
	search_set(&s, "grüße", strlen("grüße"), 0);
	assert_true(search_find(&s, t, strlen(t), 0, &a, &b));
	assert_int_equal(a, 0);
	assert_int_equal(b, strlen("Grüße"));
	/* ß has no upper case in towlower's eyes: GRÜSSE is another word. */
	assert_true(search_find(&s, t, strlen(t), b, &a, &b));
	assert_int_equal(a, strlen("Grüße, GRÜSSE, "));
	assert_false(search_find(&s, t, strlen(t), b, &a, &b));
	search_free(&s);
	model_free(m);
}

/* The raw prefilter rules a line out only when it cannot match. */
static void
test_raw_prefilter(void **state)
{
	struct model *m = model_new();
	struct search s;

	(void)state;
	search_init(&s, m);
	search_set(&s, "café", 5, 0);
	/* The needle is "caf"; é may be escaped. */
	assert_true(search_raw_maybe(&s, "{\"t\":\"CAF\\u00c9\"}", 17));
	assert_true(search_raw_maybe(&s, "{\"t\":\"Café\"}", 13));
	assert_false(search_raw_maybe(&s, "{\"t\":\"tea\"}", 11));
	/* A letter of the needle written as an escape. */
	assert_true(search_raw_maybe(&s, "{\"t\":\"\\u0043af\\u00e9\"}", 22));
	assert_false(search_raw_maybe(&s, "{\"t\":\"\\u001b[1m\"}", 17));
	/* "i" may come from U+0130 in the raw bytes. */
	search_set(&s, "istanbul", 8, 0);
	assert_true(search_raw_maybe(&s, "{\"t\":\"\xC4\xB0stanbul\"}", 17));
	assert_false(search_raw_maybe(&s, "{\"t\":\"ankara\"}", 14));
	/* A quote or a backslash has escapes of its own: the needle avoids
	 * them. */
	search_set(&s, "say \"hi\"", 8, 0);
	assert_true(search_raw_maybe(&s, "{\"t\":\"say \\\"hi\\\"\"}", 19));
	assert_false(search_raw_maybe(&s, "{\"t\":\"sa\"}", 10));
	/* Nothing safe to look for: every line may match. */
	search_set(&s, "\"/", 2, 0);
	assert_true(search_raw_maybe(&s, "{}", 2));
	/* A Greek word in any case: no byte compare is safe... */
	search_set(&s, "αθηνα", strlen("αθηνα"), 0);
	assert_true(search_raw_maybe(&s, "{}", 2));
	/* ...but nothing folds to a final sigma: it must be there. */
	search_set(&s, "λόγος", strlen("λόγος"), 0);
	assert_false(search_raw_maybe(&s, "{}", 2));
	assert_true(search_raw_maybe(&s, "{\"t\":\"ΛΌΓΟς\"}", strlen("{\"t\":\"ΛΌΓΟς\"}")));
	search_free(&s);
	model_free(m);
}

#define INIT \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s1\",\"model\":\"M\",\"cwd\":\"/w\"}\n"
#define USER(t) \
	"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"" t "\"}]}}\n"
#define DELTA(t) \
	"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"" t \
	"\"}]},\"timestamp_ms\":1}\n"
#define THINK(t) \
	"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"" t "\",\"timestamp_ms\":1}\n"
#define RESULT \
	"{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"duration_ms\":5}\n"
#define START(id, cmd) \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"" id \
	"\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"" cmd "\"}}}}\n"
#define DONE(id, code) \
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"" id \
	"\",\"tool_call\":{\"shellToolCall\":{\"result\":{\"failure\":{\"exitCode\":" code \
	",\"stdout\":\"secret\"}}}}}\n"

/* Matches in every kind of item, counted right. */
static void
test_model_items(void **state)
{
	struct fixture *f = load(
		INIT USER("Fix the caf\\u00e9 test, the Caf\\u00e9 one") THINK("the caf") THINK(
			"\\u00e9 is broken") DELTA("I will repro") DELTA("duce the failure")
			START("c1", "npm test") DONE(
				"c1",
				"1") "{\"type\":\"connection\",\"subtype\":\"reconnecting\",\"attempt\":2}\n"
				     "not json at all, café\n" RESULT,
		false);

	(void)state;
	/* Two in the prompt, one across two thinking deltas, one in the
	 * diagnostic. */
	assert_int_equal(find_all(f, "café", 0), 4);
	assert_int_equal(f->se.nhit, 3);
	assert_int_equal(f->m->it[f->se.hit[0].item].type, IT_PROMPT);
	assert_int_equal(f->se.hit[0].count, 2);
	assert_int_equal(f->se.hit[0].before, 0);
	assert_int_equal(f->m->it[f->se.hit[1].item].type, IT_THINKING);
	assert_int_equal(f->se.hit[1].before, 2);
	assert_int_equal(f->m->it[f->se.hit[2].item].type, IT_DIAG);
	/* Across streamed deltas of the reply. */
	assert_int_equal(find_all(f, "reproduce the", 0), 1);
	/* The tool line as the transcript shows it; its output in its
	 * detail, after it. */
	assert_int_equal(find_all(f, "`npm test` \xE2\x86\x92 exit 1", 0), 1);
	assert_int_equal(find_all(f, "secret", 0), 1);
	assert_int_equal(f->se.hit[0].shown, 0);
	/* Notices and the folded thinking line. */
	assert_int_equal(find_all(f, "reconnecting (attempt 2)", 0), 1);
	assert_int_equal(find_all(f, "thinking", 0), 1);
	/* An escaped newline in JSON is a newline, not a backslash. */
	assert_int_equal(find_all(f, "\\u00e9", 0), 0);
	/* Hidden items are not searched. */
	assert_int_equal(find_all(f, "café", 1u << IT_THINKING), 3);
	assert_int_equal(find_all(f, "café", (1u << IT_THINKING) | (1u << IT_DIAG)), 2);
	assert_int_equal(find_all(f, "no such words", 0), 0);
	assert_int_equal(f->se.nhit, 0);
	fixture_free(f);
}

/* Text with newlines and tabs escaped in JSON; a single-event text
 * segment goes through the raw prefilter. */
static void
test_escaped_text(void **state)
{
	struct fixture *f = load(
		INIT USER(
			"line one\\nline two\\tend") "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\","
						     "\"text\":\"He said \\\"done\\\" \\u2014 \\ud83d\\ude00 twice\"}]}}\n",
		false);

	(void)state;
	assert_int_equal(find_all(f, "one\nline", 0), 1);
	assert_int_equal(find_all(f, "two\tend", 0), 1);
	assert_int_equal(find_all(f, "said \"done\"", 0), 1);
	assert_int_equal(find_all(f, "\xE2\x80\x94 \xF0\x9F\x98\x80", 0), 1);
	assert_int_equal(find_all(f, "TWICE", 0), 0);
	assert_int_equal(find_all(f, "twice", 0), 1);
	fixture_free(f);
}

/* Lines add to a live model after a search ended: the search goes on, and
 * what changed (the call completed) is searched again. */
static void
test_live(void **state)
{
	const char *text = INIT USER("go") START("c1", "make") DELTA("some text") DELTA("more text")
		DONE("c1", "2") RESULT;
	struct fixture *f = fixture_new(text, strlen(text), FX_UNREAD | FX_SEARCH);

	(void)state;
	fixture_feed(f, 4);
	assert_int_equal(find_all(f, "text", 0), 1);
	assert_int_equal(find_all(f, "exit 2", 0), 0);
	assert_int_equal(find_all(f, "running", 0), 1);
	/* The rest arrives: the text grows, the call completes. */
	fixture_feed(f, SIZE_MAX);
	fixture_end(f);
	while (search_step(&f->se, 64))
		;
	assert_int_equal(f->se.total, 0);
	assert_int_equal(find_all(f, "exit 2", 0), 1);
	/* One text item, streamed: "some textmore text". */
	assert_int_equal(find_all(f, "text", 0), 2);
	assert_int_equal(f->se.nhit, 1);
	fixture_free(f);
}

/* Warming the cache ahead changes nothing found. */
static void
test_warm(void **state)
{
	struct fixture *f =
		load(INIT USER("go") THINK("the caf") THINK("\\u00e9") START("c1", "make")
			     DONE("c1", "3") DELTA("caf") DELTA("\\u00e9"),
		     false);
	int steps = 0;

	(void)state;
	assert_int_equal(find_all(f, "café", 0), 2);
	search_restart(&f->se);
	assert_int_equal(f->se.ctext.n, 0);
	while (search_warm(&f->se, 16))
		assert_true(++steps < 1000);
	assert_true(steps > 1);
	/* The thinking, the call and the streamed text are cached. */
	assert_true(f->se.ctext.n > strlen("thinking\ncafé") + strlen("café"));
	assert_int_equal(find_all(f, "café", 0), 2);
	assert_int_equal(find_all(f, "exit 3", 0), 1);
	assert_false(search_warm(&f->se, 16));
	fixture_free(f);
}

/* Past the cache's budget, items are decoded at each search: found all
 * the same. */
static void
test_cache_full(void **state)
{
	struct buf t = {0};
	struct fixture *f;
	int items = (int)(SEARCH_CACHE_BYTES >> 20) + 3;

	(void)state;
	buf_adds(&t, INIT);
	/* Thinking phases of 1 MiB each, a word at the end of each. */
	for (int i = 0; i < items; i++) {
		buf_adds(&t, THINK(""));
		t.n -= strlen("\",\"timestamp_ms\":1}\n");
		for (int k = 0; k < (1 << 20) / 8; k++)
			buf_adds(&t, "abcdefg ");
		buf_adds(&t, "needle\",\"timestamp_ms\":1}\n");
		buf_adds(&t, "{\"type\":\"thinking\",\"subtype\":\"completed\"}\n");
	}
	f = load(t.p, false);
	assert_int_equal(find_all(f, "needle", 0), items);
	assert_true(f->se.cfull);
	assert_true(f->se.ctext.n <= SEARCH_CACHE_BYTES);
	/* Again, with the cache as it is. */
	assert_int_equal(find_all(f, "needle", 0), items);
	assert_int_equal(find_all(f, "NEEDLE", 0), 0);
	fixture_free(f);
	buf_free(&t);
}

/* A session of many items of every kind, some of them large. */
static void
many_items(struct buf *t, int rounds)
{
	buf_adds(t, INIT);
	for (int r = 0; r < rounds; r++) {
		buf_addf(t, USER("Fix caf\\u00e9 test %d"), r);
		for (int k = 0; k < 40 + r % 7; k++)
			buf_addf(t, THINK("th%d \\u00c9rror caf"), k);
		buf_adds(t, "{\"type\":\"thinking\",\"subtype\":\"completed\"}\n");
		for (int k = 0; k < 30 + r % 5; k++)
			buf_addf(t, DELTA("word %d err"), k);
		buf_addf(t, START("c%d", "make error %d"), r, r);
		buf_addf(t, START("d%d", "npm test"), r);
		buf_addf(t, DONE("c%d", "%d"), r, r % 3);
		if (r % 5 != 0)
			buf_addf(t, DONE("d%d", "0"), r);
		buf_adds(t, "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":"
			    "\"text\",\"text\":\"A whole error segment\"}]}}\n");
		if (r % 4 == 0)
			buf_addf(t, "not json %d: error caf\xC3\xA9\n", r);
		if (r % 6 == 0)
			buf_adds(t, "{\"type\":\"connection\",\"subtype\":\"reconnecting\","
				    "\"attempt\":2}\n");
	}
	buf_adds(t, RESULT);
}

/* Everything one search found and cached, to compare. */
static void
search_state(const struct search *se, struct buf *out)
{
	buf_reset(out);
	buf_addf(out, "%llu %zu;", (unsigned long long)se->total, se->nhit);
	for (size_t h = 0; h < se->nhit; h++)
		buf_addf(out, "%u:%u:%u:%llu ", se->hit[h].item, se->hit[h].count, se->hit[h].shown,
			 (unsigned long long)se->hit[h].before);
	buf_add(out, se->ctext.p, se->ctext.n);
}

/* A search shared with the second thread finds the same matches and
 * caches the same texts as one on one thread, whatever the size of the
 * steps, with types hidden, with a cache warmed in part, and as lines
 * arrive between steps. */
static void
test_two_threads(void **state)
{
	static const char *const pats[] = {"error",    "caf\xC3\xA9", "Error",   "exit 1",
					   "npm test", "zzz",         "err word"};
	static const size_t budgets[] = {64, 4096, 1u << 20};
	static const unsigned hides[] = {0, 1u << IT_THINKING, 1u << IT_TOOL};
	struct buf t = {0}, want = {0}, got = {0};
	struct fixture *one, *two;
	bool shared = false;

	(void)state;
	many_items(&t, 60);
	one = load(t.p, false);
	two = load(t.p, false);
	one->se.helper_min = SIZE_MAX;
	two->se.helper_min = 0;
	for (size_t p = 0; p < ARRAY_LEN(pats); p++)
		for (size_t b = 0; b < ARRAY_LEN(budgets); b++)
			for (size_t h = 0; h < ARRAY_LEN(hides); h++) {
				struct fixture *f[2] = {one, two};

				for (int i = 0; i < 2; i++) {
					search_restart(&f[i]->se);
					/* A cache warmed in part. */
					if (b == 1)
						search_warm(&f[i]->se, 20000);
					search_set(&f[i]->se, pats[p], strlen(pats[p]), hides[h]);
					while (search_step(&f[i]->se, budgets[b]))
						;
				}
				search_state(&one->se, &want);
				search_state(&two->se, &got);
				assert_true(want.n > 0);
				assert_int_equal(got.n, want.n);
				assert_memory_equal(got.p, want.p, want.n);
				shared |= two->se.helper != NULL;
			}
	assert_true(shared);
	assert_true(one->se.helper == NULL);
	fixture_free(one);
	fixture_free(two);
	buf_free(&t);
	buf_free(&want);
	buf_free(&got);
}

/* Lines arrive between the steps of a search shared with the second
 * thread: the same matches as on one thread. */
static void
test_two_threads_live(void **state)
{
	struct buf t = {0}, want = {0}, got = {0};
	struct fixture *f[2];
	bool more = true;

	(void)state;
	many_items(&t, 40);
	for (int i = 0; i < 2; i++) {
		f[i] = fixture_new(t.p, t.n, FX_UNREAD | FX_SEARCH);
		f[i]->se.helper_min = i == 0 ? SIZE_MAX : 0;
		search_set(&f[i]->se, "error", 5, 0);
	}
	while (more) {
		for (int i = 0; i < 2; i++) {
			more = fixture_feed(f[i], 150) == 150;
			if (!more)
				fixture_end(f[i]);
			search_step(&f[i]->se, 8192);
		}
	}
	for (int i = 0; i < 2; i++)
		while (search_step(&f[i]->se, 8192))
			;
	search_state(&f[0]->se, &want);
	search_state(&f[1]->se, &got);
	assert_int_equal(got.n, want.n);
	assert_memory_equal(got.p, want.p, want.n);
	assert_true(f[1]->se.helper != NULL);
	fixture_free(f[0]);
	fixture_free(f[1]);
	buf_free(&t);
	buf_free(&want);
	buf_free(&got);
}

#define FAILED(id, out, err) \
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"" id \
	"\",\"tool_call\":{\"shellToolCall\":{\"result\":{\"failure\":{\"exitCode\":1," \
	"\"stdout\":\"" out "\",\"stderr\":\"" err "\"}}}}}\n"

/* What a call's detail shows is searched, after its line: the command,
 * the output; not the detail's own words (labels, headings, the lines
 * every call has). */
static void
test_details(void **state)
{
	struct fixture *f =
		load(INIT USER("run it") START("c1", "npm test")
			     FAILED("c1", "PASS a\\n    Expected: 1\\n    Received: 2\\n",
				    "Expected twice: Expected") RESULT,
		     false);

	(void)state;
	assert_int_equal(find_all(f, "Expected", 0), 3);
	assert_int_equal(f->se.nhit, 1);
	assert_int_equal(f->m->it[f->se.hit[0].item].type, IT_TOOL);
	assert_int_equal(f->se.hit[0].shown, 0);
	assert_int_equal(f->se.hit[0].count, 3);
	/* The command: in the line, then in the detail. */
	assert_int_equal(find_all(f, "npm test", 0), 2);
	assert_int_equal(f->se.hit[0].shown, 1);
	/* The detail's own words. */
	assert_int_equal(find_all(f, "stdout", 0), 0);
	assert_int_equal(find_all(f, "exit code", 0), 0);
	assert_int_equal(find_all(f, "duration", 0), 0);
	/* A match never spans two lines of an output. */
	assert_int_equal(find_all(f, "1\n    Received", 0), 0);
	assert_int_equal(find_all(f, "Expected: 1", 0), 1);
	/* Calls hidden: none. */
	assert_int_equal(find_all(f, "Expected", 1u << IT_TOOL), 0);
	/* Again, with the line cached, and on two threads. */
	f->se.helper_min = 0;
	assert_int_equal(find_all(f, "Expected", 0), 3);
	assert_int_equal(find_all(f, "npm test", 0), 2);
	fixture_free(f);
}

/* The detail on screen finds the matches the search counted, whatever
 * its width: a line wrapped into rows is searched whole. */
static void
test_detail_matches(void **state)
{
	const char *text = INIT START("c1", "npm test")
		FAILED("c1", "PASS a\\n    Expected: 1\\n    Received: 2\\n",
		       "Expected twice: Expected") RESULT;
	struct fixture *f = fixture_new(text, strlen(text), FX_SEARCH | FX_DETAIL);
	size_t row, a, b;
	uint64_t j;

	(void)state;
	for (int w = 8; w <= 90; w++) {
		detail_build(&f->d, 0, w, false);
		assert_int_equal(find_all(f, "Expected", 0), 3);
		assert_int_equal(search_detail_count(&f->se, &f->d), 3);
		for (uint64_t k = 0; k < 3; k++) {
			assert_true(search_detail_match(&f->se, &f->d, k, &row, &a, &b));
			assert_int_equal(b - a, 8);
			assert_memory_equal(f->d.text.p + a, "Expected", 8);
			/* The row it starts on holds its first byte. */
			assert_true(f->d.row[row].off <= a &&
				    a < f->d.row[row].off + f->d.row[row].len);
		}
		assert_false(search_detail_match(&f->se, &f->d, 3, &row, &a, &b));
		/* Across the break of a wrapped line. */
		assert_int_equal(find_all(f, "Expected twice: Expected", 0), 1);
		assert_int_equal(search_detail_count(&f->se, &f->d), 1);
		assert_int_equal(find_all(f, "Expected: 1", 0), 1);
		assert_int_equal(search_detail_count(&f->se, &f->d), 1);
	}
	/* From a row on, or back before it. */
	detail_build(&f->d, 0, 80, false);
	find_all(f, "Expected", 0);
	assert_true(search_detail_from(&f->se, &f->d, 0, false, &j));
	assert_int_equal(j, 0);
	assert_true(search_detail_match(&f->se, &f->d, 1, &row, &a, &b));
	assert_true(search_detail_from(&f->se, &f->d, row, false, &j));
	assert_int_equal(j, 1);
	assert_true(search_detail_from(&f->se, &f->d, row, true, &j));
	assert_int_equal(j, 0);
	assert_false(search_detail_from(&f->se, &f->d, 0, true, &j));
	assert_false(search_detail_from(&f->se, &f->d, f->d.nrow, false, &j));
	fixture_free(f);
}

/* Only the items picked are searched. */
static void
test_only(void **state)
{
	struct fixture *f = load(INIT USER("alpha") USER("beta alpha") USER("alpha"), false);
	uint64_t only = (uint64_t)1 << 2;

	(void)state;
	assert_int_equal(find_all(f, "alpha", 0), 3);
	search_only(&f->se, &only, 3);
	assert_int_equal(find_all(f, "alpha", 0), 1);
	assert_int_equal(f->se.hit[0].item, 2);
	/* Items past those the bits cover are left out. */
	only |= (uint64_t)1 << 3;
	assert_int_equal(find_all(f, "alpha", 0), 1);
	search_only(&f->se, NULL, 0);
	assert_int_equal(find_all(f, "alpha", 0), 3);
	fixture_free(f);
}

/* The first hit at or after an item. */
static void
test_hit_from(void **state)
{
	struct fixture *f = load(INIT USER("alpha") USER("beta") USER("alpha"), false);

	(void)state;
	assert_int_equal(find_all(f, "alpha", 0), 2);
	assert_int_equal(search_hit_from(&f->se, 0), 0);
	assert_int_equal(search_hit_from(&f->se, 2), 1);
	assert_int_equal(f->se.hit[1].item, 3);
	assert_int_equal(search_hit_from(&f->se, 4), 2);
	fixture_free(f);
}

/* A replay's cut-off (m->limit): a search finds only what is shown, and
 * the same search finds more as the cut-off moves on, and less when it
 * goes back, through its text cache. */
static void
test_replay_cutoff(void **state)
{
	struct fixture *f = load(
		INIT USER("go") DELTA("first part") DELTA(", needle at the end") RESULT, false);
	uint32_t cut = 2; /* init, user, the first delta */
	int steps = 0;

	(void)state;
	f->m->limit = cut;
	assert_int_equal(find_all(f, "needle", 0), 0);
	assert_int_equal(find_all(f, "first", 0), 1);
	/* The same search, the cut-off moved past the second delta. */
	f->m->limit = NONE;
	while (search_step(&f->se, 64))
		assert_true(++steps < 100000);
	assert_int_equal(f->se.total, 1);
	search_set(&f->se, "needle", 6, 0);
	while (search_step(&f->se, 64))
		assert_true(++steps < 100000);
	assert_int_equal(f->se.total, 1);
	/* And back: the hit past the cut-off goes. */
	f->m->limit = cut;
	while (search_step(&f->se, 64))
		assert_true(++steps < 100000);
	assert_int_equal(f->se.total, 0);
	fixture_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smartcase),    cmocka_unit_test(test_utf8_folding),
		cmocka_unit_test(test_find_offsets), cmocka_unit_test(test_raw_prefilter),
		cmocka_unit_test(test_model_items),  cmocka_unit_test(test_escaped_text),
		cmocka_unit_test(test_details),      cmocka_unit_test(test_detail_matches),
		cmocka_unit_test(test_only),         cmocka_unit_test(test_live),
		cmocka_unit_test(test_hit_from),     cmocka_unit_test(test_warm),
		cmocka_unit_test(test_cache_full),   cmocka_unit_test(test_replay_cutoff),
		cmocka_unit_test(test_two_threads),  cmocka_unit_test(test_two_threads_live),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
