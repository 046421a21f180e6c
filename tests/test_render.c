/* test_render.c: transcript blocks, timeline rows and the status bar. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "detail.h"
#include "markdown.h"
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

/* The rows of block b, a line each (its indent as blanks), a segment in
 * a role of its own as "{role|text}" ("md_" left out). */
static void
block_str(const struct block *b, struct buf *o)
{
	buf_reset(o);
	for (size_t i = 0; i < b->nrow; i++) {
		const struct rrow *r = &b->row[i];
		size_t end = r->off + r->len;

		if (i > 0)
			buf_addc(o, '\n');
		buf_addf(o, "%*s", r->indent, "");
		if (r->nseg == 0)
			buf_add(o, b->text.p + r->off, r->len);
		for (size_t k = 0; k < r->nseg; k++) {
			const struct seg *g = &b->seg[r->seg + k];
			const char *name = theme_role_name((enum role)g->role);

			/* The segments cover the row, in order. */
			assert_int_equal(g->off, k == 0 ? r->off
							: b->seg[r->seg + k - 1].off +
								  b->seg[r->seg + k - 1].len);
			assert_true(g->len > 0 && g->off + g->len <= end);
			if (g->role == ROLE_ASSISTANT) {
				buf_add(o, b->text.p + g->off, g->len);
				continue;
			}
			buf_addf(o, "{%s|", strncmp(name, "md_", 3) == 0 ? name + 3 : name);
			buf_add(o, b->text.p + g->off, g->len);
			buf_addc(o, '}');
		}
		if (r->nseg > 0) {
			const struct seg *g = &b->seg[r->seg + r->nseg - 1];

			assert_int_equal(g->off + g->len, end);
		}
		assert_int_equal(r->width, text_width(b->text.p + r->off, r->len));
	}
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

/* A rule (the session's, the result's) fills the width; its text too
 * wide for it ends in an ellipsis at the edge, never cut unsaid. */
static void
test_rule_rows(void **state)
{
	struct fixture *f = load(INIT "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":"
				      "\"text\",\"text\":\"hi\"}]}}\n");
	const struct block *b;
	char *s;

	(void)state;
	render_set_width(&f->r, 40);
	b = render_item(&f->r, 0);
	s = row_str(b, b->nrow - 1);
	assert_int_equal(b->row[b->nrow - 1].width, 40);
	assert_non_null(strstr(s, " Session 17e650d2"));
	assert_null(strstr(s, "\xE2\x80\xA6"));
	free(s);
	render_set_width(&f->r, 16);
	b = render_item(&f->r, 0);
	s = row_str(b, b->nrow - 1);
	/* "── Session 17e6…": 15 cells of it, then the ellipsis. */
	assert_int_equal(b->row[b->nrow - 1].width, 16);
	assert_string_equal(s, "\xE2\x94\x80\xE2\x94\x80 Session 17e6\xE2\x80\xA6");
	free(s);
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

/* One thinking item opened by a search's match while the others stay
 * folded; a filter shows only the items picked. */
static void
test_unfold_and_only(void **state)
{
	struct fixture *f = load(
		INIT
		"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"Plan it\","
		"\"timestamp_ms\":1000}\n"
		"{\"type\":\"thinking\",\"subtype\":\"completed\",\"timestamp_ms\":2500}\n"
		"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"go\"}]}}\n"
		"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"More\","
		"\"timestamp_ms\":3000}\n"
		"{\"type\":\"thinking\",\"subtype\":\"completed\",\"timestamp_ms\":3500}\n");
	uint64_t only = (uint64_t)1 << 2;
	uint32_t folded;
	const struct block *b;
	char *s;

	(void)state;
	render_set_width(&f->r, 40);
	assert_int_equal(render_rows(&f->r, 1), 1);
	folded = render_rows(&f->r, 3);
	render_set_unfold(&f->r, 3);
	assert_int_equal(render_rows(&f->r, 1), 1);
	b = render_item(&f->r, 3);
	assert_true(b->nrow > folded);
	s = row_str(b, b->nrow - 1);
	assert_string_equal(s, "  More");
	free(s);
	render_set_unfold(&f->r, NONE);
	assert_int_equal(render_rows(&f->r, 3), folded);
	/* Only the prompt. */
	render_set_only(&f->r, &only, 4);
	assert_int_equal(render_rows(&f->r, 0), 0);
	assert_int_equal(render_rows(&f->r, 1), 0);
	assert_true(render_rows(&f->r, 2) > 0);
	assert_int_equal(render_rows(&f->r, 3), 0);
	assert_false(render_shown(&f->r, 3));
	assert_true(render_shown(&f->r, 2));
	render_set_only(&f->r, NULL, 0);
	assert_true(render_rows(&f->r, 0) > 0);
	fixture_free(f);
}

/* Escape sequences in any text come out visible, never as control
 * bytes; every row fits its width. */
static void
test_hostile_text(void **state)
{
	static const char *const files[] = {
		"recordings/escapes.ndjson",  "recordings/md-links.ndjson",
		"recordings/markdown.ndjson", "recordings/lang-ko.ndjson",
		"recordings/markup.ndjson",
	};
	int widths[] = {1, 7, 40, 80, 133};
	struct buf o = {0};

	(void)state;
	for (size_t fi = 0; fi < ARRAY_LEN(files) * 2; fi++) {
		struct fixture *f = fixture_file(files[fi / 2], FX_RENDER);

		/* Laid out from Markdown, and as written (M). */
		render_set_markdown(&f->r, fi % 2 == 0);
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
				block_str(b, &o);
				for (size_t i = 0; i < b->nrow; i++) {
					const struct rrow *r = &b->row[i];

					assert_int_equal(r->width,
							 text_width(b->text.p + r->off, r->len));
					/* A 2-cell character alone on a 1-cell row is
				 * the only overflow, clipped by the pane. */
					if (widths[w] > 1)
						assert_true(r->indent + r->width <=
							    (unsigned)widths[w]);
				}
			}
		}
		fixture_free(f);
	}
	buf_free(&o);
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

/* ---- Markdown in replies ---- */

/* An assistant delta of Cursor's, text t (JSON-escaped already). */
#define DELTA(t) \
	"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":" \
	"\"text\",\"text\":\"" t "\"}]},\"session_id\":\"17e650d2-aaaa\",\"timestamp_ms\":1}\n"

/* The same, its text written between them. */
#define DELTA_START \
	"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":" \
	"\"text\",\"text\":\""
#define DELTA_END "\"}]},\"session_id\":\"17e650d2-aaaa\",\"timestamp_ms\":1}\n"

/* A reply is laid out from its Markdown at the pane's width: styles in
 * roles, markers, code unwrapped, the link's target after it. */
static void
test_markdown_rows(void **state)
{
	static const struct {
		int width;
		const char *want;
	} cases[] = {
		{40, "\n"
		     "{heading|Steps}\n"
		     "\n"
		     "{mark|1. }{strong|Run} {code|make} now\n"
		     "{mark|2. }Read {link|the log} {url|(https://ci.example/42)}\n"
		     "\n"
		     "{code_lang|sh}\n"
		     "{code_block|make test WERROR=-Werror}\n"
		     "\n"
		     "{mark|\xE2\x94\x82 }{em|Note:} done"},
		{16, "\n"
		     "{heading|Steps}\n"
		     "\n"
		     "{mark|1. }{strong|Run} {code|make} now\n"
		     "{mark|2. }Read {link|the log}\n"
		     "   {url|(https://ci.e}\n"
		     "   {url|xample/42)}\n"
		     "\n"
		     "{code_lang|sh}\n"
		     "{code_block|make test WERRO}{dim|\xE2\x80\xA6}\n"
		     "\n"
		     "{mark|\xE2\x94\x82 }{em|Note:} done"},
	};
	static const char in[] = INIT DELTA("## Steps\\n\\n1. **Run** `make` now\\n2. Read [the "
					    "log](https://ci.example/42)\\n\\n```sh\\nmake test "
					    "WERROR=-Werror\\n```\\n\\n> *Note:* done");
	struct fixture *f = load(in);
	struct buf o = {0};

	(void)state;
	assert_int_equal(f->m->nit, 2);
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		render_set_width(&f->r, cases[i].width);
		block_str(render_item(&f->r, 1), &o);
		if (strcmp(o.p, cases[i].want) != 0)
			fail_msg("at %d:\n%s\nwant:\n%s", cases[i].width, o.p, cases[i].want);
	}
	/* Parsed once: laid out again at each width from the same parse. */
	assert_int_equal(f->r.parsed, 1);
	buf_free(&o);
	fixture_free(f);
}

/* A reply's parse counts in the cache's budget with its rows: a reply
 * big enough drops the other blocks, and its own parse goes with its
 * block. */
static void
test_markdown_budget(void **state)
{
	size_t big = 6u << 20;
	struct buf text = {0};
	struct fixture *f;
	const struct block *b;

	(void)state;
	buf_adds(&text, INIT DELTA("**small** reply"));
	buf_adds(&text, "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":"
			"\"next\"}]}}\n" DELTA_START);
	for (size_t i = 0; i < big / 8; i++)
		buf_adds(&text, "word *a* ");
	buf_adds(&text, DELTA_END);
	f = fixture_new(text.p, text.n, FX_RENDER);
	assert_int_equal(f->m->nit, 4);
	render_set_width(&f->r, 80);
	b = render_item(&f->r, 1);
	assert_non_null(b->md);
	assert_int_equal(f->r.bytes, b->bytes);
	b = render_item(&f->r, 3);
	assert_non_null(b->md);
	/* Its text, its rows and its parse: more than the budget alone. */
	assert_true(b->bytes > RENDER_CACHE_BYTES);
	assert_true(b->bytes >= b->text.n + b->md->text.n);
	assert_int_equal(f->r.bytes, b->bytes);
	assert_int_equal(f->r.slot[1 % f->r.nslot].item, NONE);
	assert_null(f->r.slot[1 % f->r.nslot].md);
	/* Built again, the small one is parsed again. */
	assert_int_equal(f->r.parsed, 2);
	render_item(&f->r, 1);
	assert_int_equal(f->r.parsed, 3);
	fixture_free(f);
	buf_free(&text);
}

/* A reply over 16 MiB is shown as written: no parse, rows of its text. */
static void
test_markdown_too_long(void **state)
{
	size_t big = (16u << 20) + 8;
	struct buf text = {0};
	struct fixture *f;
	const struct block *b;
	char *s;

	(void)state;
	buf_adds(&text, INIT DELTA_START);
	for (size_t i = 0; i < big / 8; i++)
		buf_adds(&text, "**a** b ");
	buf_adds(&text, DELTA_END);
	f = fixture_new(text.p, text.n, FX_RENDER);
	render_set_width(&f->r, 80);
	b = render_item(&f->r, 1);
	assert_null(b->md);
	assert_int_equal(f->r.parsed, 0);
	assert_int_equal(b->row[1].nseg, 0);
	s = row_str(b, 1);
	assert_memory_equal(s, "**a** b **a** b ", 16);
	free(s);
	fixture_free(f);
	buf_free(&text);
}

/* M: the reply as the agent wrote it, and back, without parsing it again;
 * the rows still fit the width. */
static void
test_markdown_raw(void **state)
{
	struct fixture *f = load(INIT DELTA("## Steps\\n\\n- **a** `b`"));
	struct buf o = {0};
	const struct block *b;

	(void)state;
	render_set_width(&f->r, 30);
	block_str(render_item(&f->r, 1), &o);
	assert_string_equal(o.p, "\n{heading|Steps}\n\n{mark|\xE2\x80\xA2 }{strong|a} {code|b}");
	render_set_markdown(&f->r, false);
	b = render_item(&f->r, 1);
	block_str(b, &o);
	assert_string_equal(o.p, "\n## Steps\n\n- **a** `b`");
	assert_int_equal(b->row[1].role, ROLE_ASSISTANT);
	render_set_markdown(&f->r, true);
	block_str(render_item(&f->r, 1), &o);
	assert_string_equal(o.p, "\n{heading|Steps}\n\n{mark|\xE2\x80\xA2 }{strong|a} {code|b}");
	assert_int_equal(f->r.parsed, 1);
	buf_free(&o);
	fixture_free(f);
}

/* A reply streamed in deltas: each change parsed once when drawn, and
 * the rows at the end those of the reply read whole. */
static void
test_markdown_stream(void **state)
{
	static const char *const parts[] = {"## St", "eps\\n\\n1. **Ru", "n** `ma",
					    "ke`\\n\\n```sh\\nmake", " test\\n```"};
	struct fixture *f;
	struct buf text = {0}, o = {0}, whole = {0};
	uint64_t parsed;

	(void)state;
	buf_adds(&text, INIT);
	for (size_t i = 0; i < ARRAY_LEN(parts); i++) {
		buf_adds(&text, "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\","
				"\"content\":[{\"type\":\"text\",\"text\":\"");
		buf_adds(&text, parts[i]);
		buf_adds(&text, "\"}]},\"session_id\":\"17e650d2-aaaa\",\"timestamp_ms\":1}\n");
	}
	f = fixture_new(text.p, text.n, FX_RENDER);
	render_set_width(&f->r, 40);
	block_str(render_item(&f->r, 1), &whole);
	assert_string_equal(whole.p, "\n{heading|Steps}\n\n{mark|1. }{strong|Run} {code|make}\n\n"
				     "{code_lang|sh}\n{code_block|make test}");
	fixture_free(f);

	f = fixture_new(text.p, text.n, FX_RENDER | FX_UNREAD);
	render_set_width(&f->r, 40);
	assert_int_equal(fixture_feed(f, 2), 2);
	for (size_t i = 1; i < ARRAY_LEN(parts); i++) {
		parsed = f->r.parsed;
		render_item(&f->r, 1);
		render_item(&f->r, 1);
		assert_int_equal(f->r.parsed, parsed + 1);
		assert_int_equal(fixture_feed(f, 1), 1);
	}
	block_str(render_item(&f->r, 1), &o);
	assert_string_equal(o.p, whole.p);
	fixture_free(f);
	buf_free(&text);
	buf_free(&o);
	buf_free(&whole);
}

/* A plan carried by a decision asked for is Markdown too, under its line. */
static void
test_markdown_plan(void **state)
{
	struct fixture *f = load(
		INIT "{\"type\":\"interaction_query\",\"subtype\":\"request\",\"query_type\":"
		     "\"createPlanRequestQuery\",\"query\":{\"id\":0,\"createPlanRequestQuery\":"
		     "{\"args\":{\"plan\":\"# Plan\\n1. read `a.c`\\n2. fix\\n\"}}},"
		     "\"session_id\":\"17e650d2-aaaa\",\"timestamp_ms\":5}\n");
	struct buf o = {0};

	(void)state;
	assert_int_equal(f->m->nit, 2);
	render_set_width(&f->r, 30);
	block_str(render_item(&f->r, 1), &o);
	assert_string_equal(o.p, "  ? plan (3 lines) \xE2\x86\x92 no answer\n"
				 "  {heading|Plan}\n"
				 "  \n"
				 "  {mark|1. }read {code|a.c}\n"
				 "  {mark|2. }fix");
	buf_free(&o);
	fixture_free(f);
}

/* A reply found cut off after its last delta (the stream's next line
 * says so) is drawn again, saying it. */
static void
test_cut_off_redrawn(void **state)
{
	static const char in[] =
		"{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/w\",\"session_id\":\"s\","
		"\"tools\":[\"Bash\"],\"model\":\"claude-x\",\"claude_code_version\":\"2.1.330\"}\n"
		"{\"type\":\"stream_event\",\"event\":{\"type\":\"content_block_delta\",\"index\":0,"
		"\"delta\":{\"type\":\"text_delta\",\"text\":\"**This** came\"}},"
		"\"parent_tool_use_id\":null}\n"
		"{\"type\":\"stream_event\",\"event\":{\"type\":\"content_block_stop\",\"index\":0},"
		"\"parent_tool_use_id\":null}\n"
		"{\"type\":\"system\",\"subtype\":\"api_retry\",\"attempt\":1,\"max_retries\":1,"
		"\"error\":\"unknown\"}\n";
	struct fixture *f = fixture_new(in, sizeof in - 1, FX_RENDER | FX_UNREAD);
	struct buf o = {0};

	(void)state;
	render_set_width(&f->r, 40);
	assert_int_equal(fixture_feed(f, 2), 2);
	block_str(render_item(&f->r, 1), &o);
	assert_string_equal(o.p, "\n{strong|This} came");
	assert_false(f->m->it[1].flags & IF_CUT);
	assert_int_equal(fixture_feed(f, 2), 2);
	assert_true(f->m->it[1].flags & IF_CUT);
	block_str(render_item(&f->r, 1), &o);
	assert_string_equal(o.p, "\n{strong|This} came \xE2\x80\xA6 (cut off)");
	render_set_markdown(&f->r, false);
	block_str(render_item(&f->r, 1), &o);
	assert_string_equal(o.p, "\n**This** came \xE2\x80\xA6 (cut off)");
	buf_free(&o);
	fixture_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prompt_rows),
		cmocka_unit_test(test_rule_rows),
		cmocka_unit_test(test_tool_row),
		cmocka_unit_test(test_thinking_fold),
		cmocka_unit_test(test_unfold_and_only),
		cmocka_unit_test(test_hostile_text),
		cmocka_unit_test(test_timeline_rows),
		cmocka_unit_test(test_time_extremes),
		cmocka_unit_test(test_timeline_kind),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_incomplete_status),
		cmocka_unit_test(test_markdown_rows),
		cmocka_unit_test(test_markdown_raw),
		cmocka_unit_test(test_markdown_stream),
		cmocka_unit_test(test_markdown_plan),
		cmocka_unit_test(test_cut_off_redrawn),
		cmocka_unit_test(test_markdown_budget),
		cmocka_unit_test(test_markdown_too_long),
		cmocka_unit_test(test_prompt_rows),
		cmocka_unit_test(test_rule_rows),
		cmocka_unit_test(test_tool_row),
		cmocka_unit_test(test_thinking_fold),
		cmocka_unit_test(test_hostile_text),
		cmocka_unit_test(test_timeline_rows),
		cmocka_unit_test(test_time_extremes),
		cmocka_unit_test(test_timeline_kind),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_incomplete_status),
		cmocka_unit_test(test_timeline_untimed),
		cmocka_unit_test(test_timeline_arrival),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
