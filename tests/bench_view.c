/* bench_view.c: how long the keys of the viewer take on a big file, and
 * how long a search over all of it takes, for `make bench`. A key's time
 * is its real work: the view and scroll functions it calls, then
 * everything a 120x40 screen shows after it (the transcript's rows, the
 * timeline's rows, the titles' positions and the status bar), built as
 * the panes build them; only curses' copy to the terminal is left out.
 * The file is read as the viewer reads it (src/input.c, with the parser
 * thread of src/ahead.c). Not part of make test:
 *
 *   tests/bench_view FILE [N]         keys (N times each) and searches
 *   tests/bench_view --counts FILE... matches of a set of patterns
 *   tests/bench_view --search PAT FILE one first search (for a profile)
 *   tests/bench_view --stream KB      a live reply of KB KiB of Markdown
 *                                     followed, a frame per delta
 *   tests/bench_view --stream-text KB that stream's lines, to follow with
 *                                     the viewer (tests/pace)
 *
 * Each measure is one line "name<TAB>n=N<TAB>median_ms=X<TAB>max_ms=Y"
 * (tests/bench.sh reads them); a search also says how many matches it
 * found, so that a change to the search can be checked against the counts
 * of the build before it. */
#include <langinfo.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_reply.h"
#include "input.h"
#include "jump.h"
#include "render.h"
#include "status.h"
#include "search.h"
#include "view.h"

#define ROWS 40
#define COLS 120
/* What the viewer searches between two looks at the keys (pane_search.c). */
#define SEARCH_BUDGET (1u << 20)

/* Patterns whose matches are counted: ASCII words common and rare,
 * smartcase with a capital, non-ASCII (Korean, German, emoji), what stands
 * escaped in JSON (a quote, a backslash, a tab), tool lines, and none. */
static const char *const patterns[] = {
	"error",    "the",    "e",      "npm test", "Fix",
	"FAILED",   "größe",  "GRÖSSE", "테스트",   "\xF0\x9F\x9A\x80",
	"\xC3\xA9", "\"",     "\\",     "C:\\tmp",  "\t",
	"exit 1",   "README", "zzzqqq", "İ",        "k",
	"müssen",   "shell",  "✓",
};

struct screen {
	struct model *m;
	struct input in;
	struct render r;
	struct layout lay;
	struct scroll ts;
	struct list tl;
	uint32_t tsel;
	struct rowsrc rows;
	struct rline line;
	size_t sink; /* bytes drawn: keeps the work from being optimized out */
};

/* Order for qsort. */
static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Print one measure: the median and the maximum of n samples. */
static void
report(const char *what, int64_t *ns, int n, const char *extra)
{
	qsort(ns, (size_t)n, sizeof *ns, cmp_i64);
	printf("%s\tn=%d\tmedian_ms=%.3f\tmax_ms=%.3f%s%s\n", what, n, (double)ns[n / 2] / 1e6,
	       (double)ns[n - 1] / 1e6, extra != NULL ? "\t" : "", extra != NULL ? extra : "");
	fflush(stdout);
}

/* The transcript's rows per item, for view.c. */
static uint32_t
rows_of(void *ctx, uint32_t it)
{
	return render_rows(&((struct screen *)ctx)->r, it);
}

/* The height of the transcript's body. */
static int
tr_h(const struct screen *s)
{
	return s->lay.body[PANE_TRANSCRIPT].h;
}

/* The height of the timeline's body. */
static int
tl_h(const struct screen *s)
{
	return s->lay.body[PANE_TIMELINE].h;
}

/* One frame, as ui_draw makes it: the transcript's title (where the view
 * is) and rows, the timeline's title and rows, the status bar. */
static void
frame(struct screen *s)
{
	struct status_in in = {0};
	uint32_t it, row, ncall;
	int y = 0, h = tr_h(s);

	s->m->now_ms = clock_wall_ms();
	render_set_width(&s->r, s->lay.body[PANE_TRANSCRIPT].w);
	s->rows.n = (uint32_t)model_nitems(s->m);
	scroll_fix(&s->ts, &s->rows, h);
	s->sink += scroll_at_end(&s->ts, &s->rows, h);
	for (it = s->ts.top, row = s->ts.row; it != NONE && it < s->rows.n && y < h;
	     it++, row = 0) {
		const struct block *b = render_item(&s->r, it);

		for (; row < b->nrow && y < h; row++, y++)
			s->sink += b->row[row].len;
	}
	ncall = (uint32_t)model_ncalls(s->m);
	list_fix(&s->tl, ncall, tl_h(s));
	for (uint32_t c = s->tl.top; c < ncall && c < s->tl.top + (uint32_t)tl_h(s); c++) {
		render_timeline_row(&s->r, c, s->lay.body[PANE_TIMELINE].w, &s->line);
		s->sink += s->line.text.n;
	}
	in.following = s->ts.follow;
	in.progress = -1;
	status_build(s->m, &in, COLS, &s->line);
	s->sink += s->line.text.n;
}

/* Whether row `row` of item it is on screen (ui_jump_on_screen). */
static bool
on_screen(struct screen *s, uint32_t it, uint32_t row)
{
	uint32_t i = s->ts.top, r = s->ts.row;
	int y = 0, h = tr_h(s);

	while (i != NONE && i < model_nitems(s->m) && y < h) {
		uint32_t n = render_rows(&s->r, i);

		for (; r < n && y < h; r++, y++)
			if (i == it && r == row)
				return true;
		i++;
		r = 0;
	}
	return false;
}

/* Show item it a quarter of a screen down, as ui_jump_reveal does. */
static void
reveal(struct screen *s, uint32_t it)
{
	int h = tr_h(s);

	if (on_screen(s, it, 0))
		return;
	scroll_to_item(&s->ts, &s->rows, h, it);
	scroll_by(&s->ts, &s->rows, h, -(int64_t)(h / 4));
	if (scroll_at_end(&s->ts, &s->rows, h) || !on_screen(s, it, 0)) {
		scroll_end(&s->ts, &s->rows, h);
		s->ts.follow = false;
	}
}

/* A jump key ([ ] and the like), as ui_jump does it: from just before the
 * top of the screen, select what it finds and show it. */
static void
jump(struct screen *s, enum jump_target what)
{
	uint32_t top = s->ts.top == NONE ? 0 : s->ts.top, it;

	it = jump_find(s->m, top == 0 ? NONE : top - 1, 1, what, 0, what == JUMP_PROBLEM);
	if (it == NONE)
		return;
	s->tsel = it;
	if (s->m->it[it].type == IT_TOOL)
		list_select(&s->tl, (uint32_t)model_ncalls(s->m), tl_h(s), s->m->it[it].ref);
	reveal(s, it);
}

enum op { OP_LINE, OP_PAGE, OP_END, OP_HOME, OP_TOOL, OP_PROMPT, OP_PROBLEM, OP_COUNT };

/* Time each key n times, each from a random place in the middle of the
 * file (40 % to 60 % of its items) that was drawn first, so that the
 * caches hold what that screen showed, as in the viewer. */
static void
bench_keys(struct screen *s, int n)
{
	static const char *const names[OP_COUNT] = {
		"scroll one line (j)",  "scroll one page (space)", "jump to the end (G)",
		"jump to the top (g)",  "next tool call (])",      "next prompt (})",
		"next failed call (!)",
	};
	int64_t *ns = calloc((size_t)n, sizeof *ns);
	uint32_t nit = (uint32_t)model_nitems(s->m);
	int h = tr_h(s);

	srand(1);
	for (int op = 0; op < OP_COUNT; op++) {
		for (int i = 0; i < n; i++) {
			uint32_t at =
				nit * 2 / 5 + (uint32_t)((double)rand() / RAND_MAX * (nit / 5));
			int64_t t0;

			scroll_to_item(&s->ts, &s->rows, h, at);
			s->tsel = NONE;
			frame(s);
			t0 = clock_mono_ns();
			switch (op) {
			case OP_LINE:
				scroll_by(&s->ts, &s->rows, h, 1);
				break;
			case OP_PAGE:
				scroll_by(&s->ts, &s->rows, h, h - 1);
				break;
			case OP_END:
				scroll_end(&s->ts, &s->rows, h);
				break;
			case OP_HOME:
				scroll_home(&s->ts, &s->rows);
				break;
			case OP_TOOL:
				jump(s, JUMP_TOOL);
				break;
			case OP_PROMPT:
				jump(s, JUMP_PROMPT);
				break;
			default:
				jump(s, JUMP_PROBLEM);
				break;
			}
			frame(s);
			ns[i] = clock_mono_ns() - t0;
		}
		report(names[op], ns, n, NULL);
	}
	free(ns);
}

/* Search for pat over everything in the viewer's slices; the time taken
 * and the matches found. */
static int64_t
search_all(struct search *se, const char *pat, uint64_t *count)
{
	int64_t t0 = clock_mono_ns();

	search_set(se, pat, strlen(pat), 0);
	while (search_step(se, SEARCH_BUDGET))
		;
	*count = se->total;
	return clock_mono_ns() - t0;
}

/* The first search (nothing decoded yet: a fresh text cache each run)
 * and the next ones, for a few patterns; every search of a pattern must
 * find as many matches. */
static int
bench_search(struct screen *s, int runs)
{
	static const char *const timed[] = {"error", "npm test", "größe", "zzzqqq"};
	int64_t *ns = calloc((size_t)runs, sizeof *ns), worst = 0;
	char extra[64];
	uint64_t want = 0, got;
	struct search se;

	for (size_t p = 0; p < ARRAY_LEN(timed); p++) {
		char name[96];

		for (int i = 0; i < runs; i++) {
			search_init(&se, s->m);
			ns[i] = search_all(&se, timed[p], &got);
			search_free(&se);
			if (i == 0)
				want = got;
			if (got != want) {
				fprintf(stderr, "bench_view: /%s: %llu matches, then %llu\n",
					timed[p], (unsigned long long)want,
					(unsigned long long)got);
				return 1;
			}
		}
		snprintf(name, sizeof name, "first search /%s", timed[p]);
		snprintf(extra, sizeof extra, "matches=%llu", (unsigned long long)want);
		report(name, ns, runs, extra);
		worst = MAX(worst, ns[runs / 2]);
	}
	/* The next searches: the text cache is filled by the first. */
	search_init(&se, s->m);
	search_all(&se, "error", &want);
	for (int i = 0; i < runs; i++) {
		ns[i] = search_all(&se, i % 2 ? "error" : "npm test", &got);
		(void)got;
	}
	report("next searches (/error, /npm test)", ns, runs, NULL);
	/* The cache as the viewer fills it while idle after the input is
	 * read: how long that takes in all. */
	search_free(&se);
	for (int i = 0; i < runs; i++) {
		int64_t t0 = clock_mono_ns();

		search_init(&se, s->m);
		while (search_warm(&se, SEARCH_BUDGET))
			;
		ns[i] = clock_mono_ns() - t0;
		search_free(&se);
	}
	report("text cache warmed while idle", ns, runs, NULL);
	free(ns);
	(void)worst;
	return 0;
}

/* The screen's views over its model, at the top or following. */
static void
screen_views(struct screen *s, bool follow)
{
	render_init(&s->r, s->m);
	view_layout(ROWS, COLS, PANE_TRANSCRIPT, &s->lay);
	scroll_init(&s->ts, follow);
	list_init(&s->tl);
	s->tsel = NONE;
	s->rows.rows = rows_of;
	s->rows.ctx = s;
}

/* Read path as the viewer does; false when it cannot be read. */
static bool
screen_open(struct screen *s, const char *path)
{
	struct buf err = {0};

	memset(s, 0, sizeof *s);
	s->m = model_new();
	input_init(&s->in, s->m, false);
	if (input_add_path(&s->in, path, &err) != 0) {
		fprintf(stderr, "bench_view: %s\n", err.p);
		buf_free(&err);
		return false;
	}
	while (input_pump(&s->in, 0) || !input_done(&s->in))
		;
	screen_views(s, false);
	return true;
}

/* Free what screen_open made. */
static void
screen_close(struct screen *s)
{
	render_free(&s->r);
	rline_free(&s->line);
	input_free(&s->in);
	model_free(s->m);
}

/* The matches of every pattern in each file, one line per file. */
static int
counts(int nfiles, char **files)
{
	for (int f = 0; f < nfiles; f++) {
		struct screen s;
		struct search se;

		if (!screen_open(&s, files[f]))
			return 1;
		printf("%s", files[f]);
		search_init(&se, s.m);
		for (size_t p = 0; p < ARRAY_LEN(patterns); p++) {
			uint64_t n;

			search_all(&se, patterns[p], &n);
			printf("\t%llu", (unsigned long long)n);
		}
		/* Hidden thinking and tool calls: the filters count too. */
		search_set(&se, "e", 1, (1u << IT_THINKING) | (1u << IT_TOOL));
		while (search_step(&se, SEARCH_BUDGET))
			;
		printf("\t%llu\n", (unsigned long long)se.total);
		search_free(&se);
		screen_close(&s);
	}
	return 0;
}

/* One first search for pat in path, for a profile (callgrind
 * --toggle-collect=search_step); on one thread with BENCH_ONE_THREAD set. */
static int
search_once(const char *pat, const char *path)
{
	struct screen s;
	struct search se;
	uint64_t n;
	int64_t t;

	if (!screen_open(&s, path))
		return 1;
	search_init(&se, s.m);
	if (getenv("BENCH_ONE_THREAD") != NULL)
		se.helper_min = SIZE_MAX;
	t = search_all(&se, pat, &n);
	printf("/%s: %llu matches in %.1f ms\n", pat, (unsigned long long)n, (double)t / 1e6);
	search_free(&se);
	screen_close(&s);
	return 0;
}

/* A Cursor session whose reply is kb KiB of Markdown (bench_reply.h) in
 * deltas of 24 bytes, as --stream-partial-output writes it. */
static void
stream_text(struct buf *out, size_t kb)
{
	struct buf reply = {0};

	buf_adds(out, "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\","
		      "\"model\":\"m\",\"cwd\":\"/w\"}\n"
		      "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":"
		      "\"text\",\"text\":\"Fix the parser.\"}]},\"session_id\":\"s\"}\n");
	bench_reply(&reply, kb << 10);
	for (size_t i = 0; i < reply.n; i += 24) {
		buf_adds(out, "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\","
			      "\"content\":[{\"type\":\"text\",\"text\":");
		json_quote(out, reply.p + i, MIN((size_t)24, reply.n - i));
		buf_addf(out, "}]},\"session_id\":\"s\",\"timestamp_ms\":%zu}\n", 1000 + i);
	}
	buf_free(&reply);
}

/* Follow a live reply of kb KiB as the viewer does: its lines added one
 * at a time to a live model, a frame at the end after each (the viewer
 * draws at most 30 a second: this is the worst case, a frame per delta),
 * the reply's Markdown rendered and then as written. Each frame's time,
 * and how many times the reply was parsed. */
static int
bench_stream(size_t kb)
{
	struct buf text = {0};

	stream_text(&text, kb);
	for (int rendered = 1; rendered >= 0; rendered--) {
		struct screen s;
		struct source src;
		struct line ln;
		unsigned id;
		int64_t *ns = NULL, total = 0;
		size_t n = 0, cap = 0;
		char name[96], extra[96];

		memset(&s, 0, sizeof s);
		s.m = model_new();
		source_open_mem(&src, "stream", text.p, text.n);
		id = model_add_source(s.m, &src);
		screen_views(&s, true);
		render_set_markdown(&s.r, rendered);
		while (source_next_line(&src, &ln)) {
			int64_t t0;

			model_add_line(s.m, id, &ln, TIME_NONE);
			t0 = clock_mono_ns();
			frame(&s);
			ARRAY_RESERVE(ns, cap, n + 1);
			ns[n] = clock_mono_ns() - t0;
			total += ns[n++];
		}
		snprintf(name, sizeof name, "following a %zu KiB reply, a frame per delta (%s)", kb,
			 rendered ? "Markdown rendered" : "as written");
		snprintf(extra, sizeof extra, "total_ms=%.1f\tparsed=%llu", (double)total / 1e6,
			 (unsigned long long)s.r.parsed);
		report(name, ns, (int)n, extra);
		free(ns);
		render_free(&s.r);
		rline_free(&s.line);
		model_free(s.m);
		source_close(&src);
	}
	buf_free(&text);
	return 0;
}

int
main(int argc, char **argv)
{
	struct screen s;
	int n = argc > 2 ? atoi(argv[2]) : 200, status;
	int64_t t0;
	const char *cs;

	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	if (cs == NULL || strcmp(cs, "UTF-8") != 0)
		setlocale(LC_CTYPE, "C.UTF-8");
	if (argc > 2 && strcmp(argv[1], "--counts") == 0)
		return counts(argc - 2, argv + 2);
	if (argc == 4 && strcmp(argv[1], "--search") == 0)
		return search_once(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "--stream") == 0 && atoi(argv[2]) > 0)
		return bench_stream((size_t)atoi(argv[2]));
	if (argc == 3 && strcmp(argv[1], "--stream-text") == 0 && atoi(argv[2]) > 0) {
		struct buf text = {0};

		stream_text(&text, (size_t)atoi(argv[2]));
		fwrite(text.p, 1, text.n, stdout);
		buf_free(&text);
		return ferror(stdout) ? 1 : 0;
	}
	if (argc < 2 || n < 1) {
		fprintf(stderr, "usage: bench_view FILE [N] | bench_view --counts FILE... | "
				"bench_view --stream[-text] KB\n");
		return 2;
	}
	t0 = clock_mono_ns();
	if (!screen_open(&s, argv[1]))
		return 1;
	printf("# %s: %zu events, %zu items, %zu calls, %zu sessions, read in %.0f ms\n", argv[1],
	       s.m->nev, s.m->nit, s.m->ncall, s.m->nses, (double)(clock_mono_ns() - t0) / 1e6);
	bench_keys(&s, n);
	status = bench_search(&s, 5);
	screen_close(&s);
	return status;
}
