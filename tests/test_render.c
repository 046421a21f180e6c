/* test_render.c: transcript blocks, timeline rows and the status bar. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "detail.h"
#include "render.h"
#include "words.h"
#include "replay.h"
#include "status.h"

/* The model of text, read to its end, and its renderer. */
static struct fixture *
load(const char *text)
{
	return fixture_new(text, strlen(text), FX_RENDER);
}

/* Row i of block b as a C string (indent included). */
static char *
row_str(const struct block *b, size_t i)
{
	const struct rrow *r = &b->row[i];
	char *s = malloc(r->indent + r->len + 1);

	memset(s, ' ', r->indent);
	memcpy(s + r->indent, b->text.p + r->off, r->len);
	s[r->indent + r->len] = '\0';
	return s;
}

#define INIT \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"17e650d2-aaaa\"," \
	"\"model\":\"Grok\",\"cwd\":\"/w\"}\n"

static void
test_prompt_rows(void **state)
{
	struct fixture *f =
		load(INIT "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\","
			  "\"text\":\"one two three four five\"}]}}\n");
	const struct block *b;
	char *s;

	(void)state;
	render_set_width(&f->r, 12);
	b = render_item(&f->r, 1);
	/* A blank row, then the prompt wrapped with its arrow. */
	assert_int_equal(b->nrow, 4);
	assert_int_equal(b->row[0].len, 0);
	s = row_str(b, 1);
	assert_string_equal(s, "\xE2\x9D\xAF one two ");
	free(s);
	s = row_str(b, 2);
	assert_string_equal(s, "  three four");
	free(s);
	assert_int_equal(b->row[1].role, ROLE_PROMPT);
	for (size_t i = 1; i < b->nrow; i++)
		assert_true(b->row[i].indent + b->row[i].width <= 12);
	/* The same block comes from the cache; a new width rebuilds it. */
	assert_ptr_equal(render_item(&f->r, 1), b);
	assert_int_equal(render_rows(&f->r, 1), 4);
	render_set_width(&f->r, 80);
	assert_int_equal(render_rows(&f->r, 1), 2);
	fixture_free(f);
}

/* A tool row: its line, and the duration at the right edge; cut with an
 * ellipsis when narrow. */
static void
test_tool_row(void **state)
{
	struct fixture *f = load(
		INIT
		"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c\","
		"\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"npm test\"}}},"
		"\"timestamp_ms\":1000}\n"
		"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c\","
		"\"tool_call\":{\"shellToolCall\":{\"result\":{\"failure\":{\"exitCode\":1}}}},"
		"\"timestamp_ms\":3800}\n");
	const struct block *b;
	char *s;

	(void)state;
	render_set_width(&f->r, 40);
	b = render_item(&f->r, 1);
	assert_int_equal(b->nrow, 1);
	s = row_str(b, 0);
	assert_string_equal(s, "\xE2\x9C\x97 Shell `npm test` \xE2\x86\x92 exit 1        2.8 s");
	assert_int_equal(b->row[0].width, 40);
	assert_int_equal(b->row[0].role, ROLE_TOOL_FAILED);
	free(s);
	render_set_width(&f->r, 16);
	b = render_item(&f->r, 1);
	s = row_str(b, 0);
	assert_string_equal(s, "\xE2\x9C\x97 Shell `\xE2\x80\xA6 2.8 s");
	assert_int_equal(b->row[0].width, 16);
	free(s);
	fixture_free(f);
}

/* Thinking is one folded row, or its text when unfolded. */
static void
test_thinking_fold(void **state)
{
	struct fixture *f = load(
		INIT "{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"Plan it\","
		     "\"timestamp_ms\":1000}\n"
		     "{\"type\":\"thinking\",\"subtype\":\"completed\",\"timestamp_ms\":2500}\n");
	const struct block *b;
	char *s;

	(void)state;
	render_set_width(&f->r, 40);
	b = render_item(&f->r, 1);
	assert_int_equal(b->nrow, 1);
	s = row_str(b, 0);
	assert_string_equal(s, "\xE2\x96\xB8 thinking \xC2\xB7 1.5 s");
	free(s);
	render_set_thinking(&f->r, true);
	b = render_item(&f->r, 1);
	assert_int_equal(b->nrow, 3);
	s = row_str(b, 2);
	assert_string_equal(s, "  Plan it");
	free(s);
	fixture_free(f);
}

/* Escape sequences in any text come out visible, never as control
 * bytes; every row fits its width. */
static void
test_hostile_text(void **state)
{
	struct fixture *f = fixture_file("recordings/escapes.ndjson", FX_RENDER);
	int widths[] = {1, 7, 40, 80, 133};

	(void)state;
	assert_true(f->m->nit > 5);
	for (size_t w = 0; w < ARRAY_LEN(widths); w++) {
		render_set_width(&f->r, widths[w]);
		render_set_thinking(&f->r, w % 2 == 0);
		for (uint32_t it = 0; it < f->m->nit; it++) {
			const struct block *b = render_item(&f->r, it);

			for (size_t i = 0; i < b->text.n; i++) {
				unsigned char c = (unsigned char)b->text.p[i];

				if (c < 0x20 || c == 0x7f)
					fail_msg("item %u: control byte 0x%02x", it, c);
				if (c == 0xC2 && i + 1 < b->text.n &&
				    (unsigned char)b->text.p[i + 1] < 0xA0)
					fail_msg("item %u: C1 control", it);
			}
			for (size_t i = 0; i < b->nrow; i++) {
				const struct rrow *r = &b->row[i];

				assert_int_equal(r->width, text_width(b->text.p + r->off, r->len));
				/* A 2-cell character alone on a 1-cell row is
				 * the only overflow, clipped by the pane. */
				if (widths[w] > 1)
					assert_true(r->indent + r->width <= (unsigned)widths[w]);
			}
		}
	}
	fixture_free(f);
}

/* Timeline rows fill exactly the width asked, at any width. */
static void
test_timeline_rows(void **state)
{
	struct fixture *f = fixture_file("recordings/demo.ndjson", FX_RENDER);
	struct rline l = {0};

	(void)state;
	assert_true(f->m->ncall >= 9);
	for (int w = 0; w <= 200; w++) {
		for (uint32_t c = 0; c < f->m->ncall; c++) {
			render_timeline_row(&f->r, c, w, &l);
			if (l.width != (size_t)w)
				fail_msg("call %u at width %d: %zu cells", c, w, l.width);
			assert_int_equal(text_width(l.text.p ? l.text.p : "", l.text.n), (size_t)w);
		}
	}
	/* The failed npm test: its glyph, and its duration at the end. */
	render_timeline_row(&f->r, 1, 80, &l);
	assert_memory_equal(l.text.p, "\xE2\x9C\x97 Shell   npm test", 19);
	assert_non_null(strstr(l.text.p, "\xE2\x96\x93")); /* a failed bar */
	assert_int_equal(memcmp(l.text.p + l.text.n - 5, "2.8 s", 5), 0);
	rline_free(&l);
	fixture_free(f);
}

/* A stream without times (Codex's, read from a file) draws no bar and no
 * offset, rather than a full-width bar that says nothing; one with times
 * (Gemini CLI's) draws them. Both rows fill their width. */
static void
test_timeline_untimed(void **state)
{
	struct fixture *f = fixture_recording("codex-slow-shell", FX_RENDER);
	struct fixture *g = fixture_recording("gemini-slow-shell", FX_RENDER);
	struct rline l = {0};

	(void)state;
	render_timeline_row(&f->r, 0, 100, &l);
	assert_int_equal(l.width, 100);
	assert_memory_equal(l.text.p, "\xE2\x9C\x93 Shell   sleep 3; echo done", 27);
	assert_null(strstr(l.text.p, "\xE2\x96\x88"));
	assert_null(strstr(l.text.p, "+00:00"));
	render_timeline_row(&g->r, 0, 100, &l);
	assert_int_equal(l.width, 100);
	assert_non_null(strstr(l.text.p, "+00:00 \xE2\x96\x88"));
	buf_reset(&f->b);
	assert_true(words_no_timing(f->m, 0, &f->b));
	assert_string_equal(f->b.p, "no timing in this stream");
	buf_reset(&g->b);
	assert_false(words_no_timing(g->m, 0, &g->b));
	assert_int_equal(g->b.n, 0);
	rline_free(&l);
	fixture_free(f);
	fixture_free(g);
}

/* The same Codex stream read live: its lines' arrival times are its
 * clock (the command's 3 s between its start and its end). */
static void
test_timeline_arrival(void **state)
{
	size_t n;
	char *text = fixture_slurp("recordings/codex-slow-shell.ndjson", &n);
	struct fixture *f = fixture_new(text, n, FX_UNREAD | FX_RENDER);
	struct rline l = {0};
	struct line ln;
	int64_t t = 1000;

	(void)state;
	while (source_next_line(&f->s, &ln))
		model_add_line(f->m, f->src, &ln, t += ln.no == 5 ? 3000 : 10);
	model_end_source(f->m, f->src);
	assert_true(model_session_timed(f->m, 0));
	assert_int_equal(model_call_duration(f->m, 0), 3000);
	render_timeline_row(&f->r, 0, 100, &l);
	assert_non_null(strstr(l.text.p, "+00:00 "));
	assert_non_null(strstr(l.text.p, "\xE2\x96\x88"));
	assert_int_equal(memcmp(l.text.p + l.text.n - 5, "3.0 s", 5), 0);
	rline_free(&l);
	fixture_free(f);
	free(text);
}

/* Times at the ends of the clock (recordings/time-extremes.ndjson: lines
 * at INT64_MAX ms, calls from 0 to INT64_MAX and back, a session with no
 * clock): every duration, offset, axis and bar stays in range, with the
 * model's clock at TIME_NONE, 0 and INT64_MAX (UBSan, in make unit-asan,
 * stops at any overflow). */
static void
test_time_extremes(void **state)
{
	static const int64_t nows[] = {TIME_NONE, 0, INT64_MAX};
	struct fixture *f = fixture_file("recordings/time-extremes.ndjson",
					 FX_LIVE | FX_RENDER | FX_DETAIL | FX_REPLAY);
	struct status_in in = {.progress = -1};
	struct rline l = {0};
	int64_t a0, a1, d;
	double from, to;

	(void)state;
	assert_int_equal(f->m->nses, 3);
	for (size_t k = 0; k < ARRAY_LEN(nows); k++) {
		f->m->now_ms = nows[k];
		render_flush(&f->r);
		for (uint32_t s = 0; s < f->m->nses; s++) {
			d = model_session_duration(f->m, s);
			assert_true(d == TIME_NONE || d >= 0);
			model_session_axis(f->m, s, &a0, &a1);
			assert_true(a1 > a0);
		}
		for (uint32_t c = 0; c < f->m->ncall; c++) {
			d = model_call_duration(f->m, c);
			assert_true(d == TIME_NONE || d >= 0);
			model_call_span(f->m, c, &from, &to);
			assert_true(from >= 0 && from <= to && to <= 1);
			for (int w = 40; w <= 200; w += 40) {
				render_timeline_row(&f->r, c, w, &l);
				assert_int_equal(l.width, (size_t)w);
			}
			detail_build(&f->d, c, 80, false);
		}
		status_build(f->m, &in, 120, &l);
		assert_true(l.width <= 120);
	}
	/* Replayed: the clock at or after each event's place stays in range. */
	fixture_replay(f, 4.0, -1, true);
	for (uint32_t e = 0; e < f->m->nev; e++) {
		for (int64_t t = f->rp.at[e]; t <= replay_length(&f->rp);
		     t += 1 + replay_length(&f->rp) / 7) {
			d = replay_clock_at(&f->rp, e, t);
			assert_true(d == TIME_NONE || d >= 0);
		}
	}
	/* The first call ran from 0 to the end of the clock, the session
	 * as long by its result. */
	f->m->now_ms = TIME_NONE;
	assert_int_equal(model_call_duration(f->m, 0), INT64_MAX);
	assert_int_equal(model_session_duration(f->m, 0), INT64_MAX);
	render_timeline_row(&f->r, 0, 120, &l);
	/* Its bar fills the axis: it started before the axis and ends after. */
	assert_non_null(strstr(l.text.p, "+00:00 \xE2\x96\x88\xE2\x96\x88\xE2\x96\x88"));
	rline_free(&l);
	fixture_free(f);
}

/* A timeline row names the kind by its tag where it has one (7 cells),
 * and an unknown tool of any agent by its own name. */
static void
test_timeline_kind(void **state)
{
	static const char claude[] =
		"{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/w\",\"session_id\":\"s\","
		"\"tools\":[\"Skill\"],\"model\":\"claude-x\",\"claude_code_version\":\"2.1.330\"}\n"
		"{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":[{\"type\":\"tool_use\","
		"\"id\":\"t1\",\"name\":\"Skill\",\"input\":{}}]},\"parent_tool_use_id\":null}\n"
		"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"tool_use_id\":\"t1\","
		"\"type\":\"tool_result\",\"content\":\"ok\",\"is_error\":false}]},"
		"\"parent_tool_use_id\":null}\n";
	struct fixture *f = fixture_recording("cursor-0915-askquestion", FX_RENDER);
	struct rline l = {0};

	(void)state;
	render_timeline_row(&f->r, 0, 80, &l);
	/* "⊘ Ask     ", not the label cut to "Questio". */
	assert_memory_equal(l.text.p, "\xE2\x8A\x98 Ask     \"", 13);
	fixture_free(f);
	f = fixture_new(claude, sizeof claude - 1, FX_RENDER);
	assert_int_equal(f->m->ncall, 1);
	render_timeline_row(&f->r, 0, 80, &l);
	assert_memory_equal(l.text.p, "\xE2\x9C\x93 Skill   ", 12);
	rline_free(&l);
	fixture_free(f);
}

/* The status bar fits, and keeps what matters most when narrow. */
static void
test_status(void **state)
{
	struct fixture *f = fixture_file("recordings/demo.ndjson", FX_RENDER);
	struct status_in in = {0};
	struct rline l = {0};

	(void)state;
	in.progress = -1;
	for (int w = 0; w <= 200; w++) {
		status_build(f->m, &in, w, &l);
		assert_true(l.width <= (size_t)w);
	}
	status_build(f->m, &in, 160, &l);
	assert_non_null(strstr(l.text.p, "\xE2\x9C\x93 done"));
	assert_non_null(strstr(l.text.p, "Composer 2.5"));
	assert_non_null(strstr(l.text.p, "ad7140d9"));
	assert_non_null(strstr(l.text.p, "\xE2\x9C\x93"
					 "8 \xE2\x9C\x97"
					 "1"));
	assert_non_null(strstr(l.text.p, "tokens"));
	in.compact = true;
	in.new_events = 7;
	status_build(f->m, &in, 40, &l);
	assert_non_null(strstr(l.text.p, "\xE2\x9C\x93 done"));
	assert_non_null(strstr(l.text.p, "+7 new"));
	assert_null(strstr(l.text.p, "tokens"));
	rline_free(&l);
	fixture_free(f);
}

/* A failed session's result row and status say so. */
static void
test_incomplete_status(void **state)
{
	struct fixture *f = fixture_file("recordings/no-result.ndjson", FX_RENDER);
	struct status_in in = {0};
	struct rline l = {0};

	(void)state;
	in.progress = -1;
	status_build(f->m, &in, 120, &l);
	assert_non_null(strstr(l.text.p, "incomplete"));
	assert_non_null(strstr(l.text.p, "?1"));
	assert_non_null(strstr(l.text.p, "1 bad line"));
	rline_free(&l);
	fixture_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prompt_rows),       cmocka_unit_test(test_tool_row),
		cmocka_unit_test(test_thinking_fold),     cmocka_unit_test(test_hostile_text),
		cmocka_unit_test(test_timeline_rows),     cmocka_unit_test(test_time_extremes),
		cmocka_unit_test(test_timeline_kind),     cmocka_unit_test(test_status),
		cmocka_unit_test(test_incomplete_status), cmocka_unit_test(test_timeline_untimed),
		cmocka_unit_test(test_timeline_arrival),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
