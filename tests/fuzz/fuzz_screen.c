/* fuzz_screen.c: libFuzzer harness for the screen's cells (src/ui_cell.c):
 * the cell writer and the row cache, over the curses stub of
 * tests/fuzz/stub/ (a grid of cells that does what ncurses 6.4 does to a
 * window, and counts what it was asked for).
 *
 * The input picks a screen size (1x1 up to 24x300, odd widths, more than
 * the 256 cells ui_put hands curses at once) and a layout, as the panes
 * have one: each row whole, or split in two at a column with or without a
 * separator between; the layout holds until the next resize, as
 * view_layout's does. Then frames and resizes. A frame fills every span of
 * the layout with one of: a segmented line (ui_draw_rline, the text made
 * by rline_add as the renderer makes it), a cleared span (ui_clear), a
 * transcript row (ui_drawn, then blanks, ui_put, blanks, as
 * pane_transcript.c draws one), or text drawn without the cache (ui_put,
 * then ui_undrawn, as the contract of ui_undrawn asks); with an overlay
 * on, lines, text and rectangles are then drawn anywhere over it. The
 * text comes from the input as bytes or as picks from an alphabet of CJK,
 * combining marks, emoji, zero-width and bidi code points, controls and
 * invalid UTF-8, sanitized as the renderer does (text_sanitize, text_fit).
 *
 * Checked, after each operation: it wrote only inside the span (or
 * rectangle) it was given, never past the screen (no cell cut by curses,
 * no move out of it, the cursor asked for at most one column past the
 * last); a span it drew has exactly its width in columns and the cursor
 * asked for at its end; the cells show the text (each spacing code point
 * in its cell, a wide one over two, the marks joined to their base, in
 * the role's attributes). After each frame: the screen, drawn with the
 * row cache over every frame since the size was set, is cell for cell the
 * screen that drawing the frame alone on a blank one gives. */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "glyph.h"
#include "ui.h"

/* At most this many frames and resizes per input. */
#define FRAMES 40

/* The input, read a byte at a time (zeros once it is used up). */
struct rd {
	const uint8_t *p;
	size_t n, i;
};

/* The screen's size and the layout of its rows. */
struct shape {
	int lines, cols;
	int split;     /* the column where split rows split */
	int sep;       /* 1: a separator column at split (as pane_main's) */
	uint32_t full; /* row y is whole when bit y % 32 is set */
};

/* Text worth drawing that random bytes seldom spell. */
static const char *const alphabet[] = {
	"a",
	" ",
	"Z",
	"~",
	"\xC3\xA9",     /* é */
	"\xCC\x81",     /* U+0301 combining acute */
	"\xCC\x88",     /* U+0308 combining diaeresis */
	"\xE2\x83\x9D", /* U+20DD enclosing circle */
	"\xE4\xB8\xAD",
	"\xE6\x96\x87",     /* 中 文 */
	"\xEF\xBC\xA1",     /* U+FF21 fullwidth A */
	"\xE3\x80\x80",     /* U+3000 ideographic space */
	"\xF0\x9F\x98\x80", /* U+1F600 emoji */
	"\xF0\x9F\x8F\xBD", /* U+1F3FD skin tone */
	"\xF0\x9F\x87\xBA", /* U+1F1FA regional indicator */
	"\xE2\x80\x8D",     /* U+200D zero-width joiner */
	"\xE2\x80\x8B",     /* U+200B zero-width space */
	"\xEF\xB8\x8F",     /* U+FE0F variation selector */
	"\xE2\x80\xAE",     /* U+202E bidi override */
	"\xE1\x84\x80",
	"\xE1\x85\xA0",     /* U+1100 U+1160 Hangul jamo */
	"\xE0\xB8\xB3",     /* U+0E33 Thai */
	"\xEF\xBF\xBD",     /* U+FFFD */
	"\xF3\xA0\x80\x81", /* U+E0001 tag */
	"\t",
	"\n",
	"\r",
	"\x1B[31m",
	"\x7F",     /* controls */
	"\xC2\x9B", /* C1 CSI */
	"\xFF",
	"\xE4\xB8",
	"\xED\xA0\x80", /* invalid UTF-8 */
	"\xE2\x94\x82", /* │ */
};
#define NALPHA (sizeof alphabet / sizeof alphabet[0])

/* Widths are wcwidth's, for the renderer and for curses: a UTF-8 locale,
 * as the viewer runs in, or no wide character would be wide. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	CHECK(setlocale(LC_CTYPE, "C.UTF-8") != NULL);
	CHECK(wcwidth(0x4E2D) == 2);
	return 0;
}

/* The next byte of the input, 0 past its end. */
static unsigned
rd_u8(struct rd *r)
{
	return r->i < r->n ? r->p[r->i++] : 0;
}

/* Text of up to 39 picks: bytes as they are, or from the alphabet. */
static void
rd_text(struct rd *r, struct buf *out)
{
	unsigned mode = rd_u8(r), len = rd_u8(r) % 40;

	buf_reset(out);
	for (unsigned i = 0; i < len && r->i < r->n; i++) {
		unsigned b = rd_u8(r);

		if (mode & 1)
			buf_add(out, (const char *)&b, 1);
		else
			buf_adds(out, alphabet[b % NALPHA]);
	}
}

/* A size and a layout. */
static void
rd_shape(struct rd *r, struct shape *s)
{
	unsigned wide = rd_u8(r);

	s->lines = 1 + (int)(rd_u8(r) % 24);
	s->cols = 1 + (int)(wide & 0x80 ? (wide << 8 | rd_u8(r)) % 300 : wide % 100);
	s->split = (int)(rd_u8(r) % (unsigned)(s->cols + 1));
	s->sep = (int)(rd_u8(r) & 1);
	s->full = rd_u8(r);
	s->full |= (uint32_t)rd_u8(r) << 8;
	LINES = s->lines;
	COLS = s->cols;
}

/* A role, from the input. */
static enum role
rd_role(struct rd *r)
{
	return (enum role)(rd_u8(r) % ROLE_COUNT);
}

/* The cells of row y from column x show the sanitized run s[0..n), drawn
 * by one ui_put in role: each spacing code point in a cell of its own (a
 * wide one over two), the marks after it joined to it (as many as a cell
 * holds), a mark that starts the run dropped. Returns the columns. */
static int
check_run(const struct ui *u, int y, int x, const char *s, size_t n, enum role role)
{
	int base = -1, marks = 0, at = x;

	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int cw;

		i += utf8_decode(s + i, n - i, &cp);
		cw = text_cpwidth(cp);
		CHECK(cw >= 0);
		if (cw == 0) {
			if (base >= 0 && ++marks < CCHARW_MAX)
				CHECK(stdscr->cell[y * COLS + base].chars[marks] == (wchar_t)cp);
			continue;
		}
		if (at + cw > COLS)
			break;
		for (int j = 0; j < cw; j++) {
			const cchar_t *c = &stdscr->cell[y * COLS + at + j];

			CHECK(c->chars[0] == (wchar_t)cp && c->ext == j);
			CHECK(c->attr == u->attr[role] && c->pair == u->pair[role]);
		}
		if (base >= 0 && marks + 1 < CCHARW_MAX)
			CHECK(stdscr->cell[y * COLS + base].chars[marks + 1] == 0);
		base = at;
		marks = 0;
		at += cw;
	}
	if (base >= 0 && marks + 1 < CCHARW_MAX)
		CHECK(stdscr->cell[y * COLS + base].chars[marks + 1] == 0);
	return at - x;
}

/* What the operation since stub_watch wrote lies in r, and it asked for
 * nothing outside the screen. full: it was to fill r's row (or rows)
 * wholly, or draw nothing (the cache said the span shows it already). */
static void
check_op(const struct rect *r, bool full)
{
	const struct stub_watch *w = &stdscr->w;

	CHECK(w->bad_move == 0 && w->cut == 0);
	CHECK(stdscr->curx >= 0 && stdscr->curx < COLS);
	if (w->x0 <= w->x1) {
		CHECK(w->y0 >= r->y && w->y1 < r->y + r->h);
		CHECK(w->x0 >= r->x && w->x1 < r->x + r->w);
	}
	if (!full)
		return;
	if (w->cols == 0) {
		CHECK(w->lastx == -1);
		return;
	}
	CHECK(w->x0 == r->x && w->x1 == r->x + r->w - 1);
	CHECK(w->y0 == r->y && w->y1 == r->y + r->h - 1);
	/* The cursor after the span; at the right edge curses refuses that
	 * move (one past the last column) and the cursor stays where the
	 * last run began, which is harmless: nothing is left to draw. */
	if (r->x + r->w < COLS)
		CHECK(w->lastx == r->x + r->w);
}

/* A segmented line made as the renderer makes them, w cells wide. */
static void
make_rline(struct rd *r, struct rline *l, size_t w, struct buf *t)
{
	unsigned nseg = rd_u8(r) % 5;

	rline_reset(l);
	for (unsigned i = 0; i < nseg; i++) {
		enum role role = rd_role(r);

		rd_text(r, t);
		rline_add(l, t->p ? t->p : "", t->n, role, w);
	}
	rline_pad(l, w, rd_role(r));
	CHECK(l->width == w);
}

/* Draw l at r's row and check the cells of each segment. */
static void
draw_rline(struct ui *u, const struct rect *r, const struct rline *l, enum role override)
{
	int x = r->x;

	stub_watch(stdscr);
	ui_draw_rline(u, r->y, r->x, l, override);
	check_op(r, true);
	if (stdscr->w.cols == 0)
		return;
	for (size_t i = 0; i < l->nseg; i++)
		x += check_run(u, r->y, x, l->text.p + l->seg[i].off, l->seg[i].len,
			       override != ROLE_NORMAL ? override : (enum role)l->seg[i].role);
	CHECK(x == r->x + r->w);
}

/* Sanitized text from the input that fits in w cells, and its width. */
static size_t
fit_text(struct rd *r, struct buf *t, struct buf *san, int w, size_t *used)
{
	rd_text(r, t);
	buf_reset(san);
	text_sanitize(san, t->p ? t->p : "", t->n, TEXT_ONELINE);
	return text_fit(san->p ? san->p : "", san->n, (size_t)MAX(w, 0), used);
}

/* Blanks, text, blanks over span r, as pane_transcript.c draws a row;
 * cached: only when ui_drawn says the span does not show it. */
static void
draw_row(struct ui *u, struct rd *r, const struct rect *sp, bool cached, struct buf *t,
	 struct buf *san)
{
	int indent = (int)(rd_u8(r) % (unsigned)(sp->w + 1));
	enum role role = rd_role(r), pad = rd_role(r);
	size_t used, n = fit_text(r, t, san, sp->w - indent, &used);
	uint64_t h = ui_hash(HASH_START, san->p, n);

	h = ui_hash(h, &role, sizeof role);
	h = ui_hash(h, &pad, sizeof pad);
	h = ui_hash(h, &indent, sizeof indent);
	stub_watch(stdscr);
	if (!cached || !ui_drawn(u, sp->y, sp->x, sp->w, h)) {
		move(sp->y, sp->x);
		ui_blank(u, indent, pad);
		ui_put(u, san->p, n, role);
		ui_blank(u, sp->w - indent - (int)used, pad);
		if (!cached)
			ui_undrawn(u, sp->y);
	}
	check_op(sp, true);
	if (stdscr->w.cols > 0)
		CHECK(check_run(u, sp->y, sp->x + indent, san->p, n, role) == (int)used);
}

/* One span of the layout, filled as the input says. */
static void
draw_span(struct ui *u, struct rd *r, const struct rect *sp, struct rline *l, struct buf *t,
	  struct buf *san)
{
	enum role role;

	if (sp->w <= 0)
		return;
	switch (rd_u8(r) % 4) {
	case 0:
		make_rline(r, l, (size_t)sp->w, t);
		role = rd_u8(r) & 1 ? rd_role(r) : ROLE_NORMAL;
		draw_rline(u, sp, l, role);
		break;
	case 1:
		role = rd_role(r);
		stub_watch(stdscr);
		ui_clear(u, sp, role);
		check_op(sp, true);
		break;
	case 2:
		draw_row(u, r, sp, true, t, san);
		break;
	default:
		draw_row(u, r, sp, false, t, san);
		break;
	}
}

/* What an overlay draws anywhere over the panes (the cache is off). */
static void
draw_over(struct ui *u, struct rd *r, const struct shape *s, struct rline *l, struct buf *t)
{
	struct rect a;

	a.y = (int)(rd_u8(r) % (unsigned)s->lines);
	a.x = (int)(rd_u8(r) % (unsigned)s->cols);
	a.w = 1 + (int)(rd_u8(r) % (unsigned)(s->cols - a.x));
	a.h = 1;
	if (rd_u8(r) & 1) {
		a.h = 1 + (int)(rd_u8(r) % (unsigned)(s->lines - a.y));
		stub_watch(stdscr);
		ui_clear(u, &a, rd_role(r));
		check_op(&a, true);
		return;
	}
	make_rline(r, l, (size_t)a.w, t);
	draw_rline(u, &a, l, ROLE_NORMAL);
}

/* A frame: every span of the layout, the separators, maybe an overlay. */
static void
draw_frame(struct ui *u, struct rd *r, const struct shape *s)
{
	struct rline l = {0};
	struct buf t = {0}, san = {0};
	bool overlay = rd_u8(r) % 4 == 0;

	ui_drawn_begin(u, overlay);
	CHECK(u->drawn_lines == LINES && u->drawn_cols == COLS);
	for (int y = 0; y < s->lines; y++) {
		struct rect a = {y, 0, 1, s->cols}, b;

		if (s->full >> (y % 32) & 1) {
			draw_span(u, r, &a, &l, &t, &san);
			continue;
		}
		a.w = s->split;
		b = (struct rect){y, s->split + s->sep, 1, s->cols - s->split - s->sep};
		draw_span(u, r, &a, &l, &t, &san);
		if (s->sep && s->split < s->cols) {
			struct rect c = {y, s->split, 1, 1};

			stub_watch(stdscr);
			move(y, s->split);
			ui_put(u, GLYPH_VRULE, strlen(GLYPH_VRULE), ROLE_BORDER);
			check_op(&c, true);
		}
		draw_span(u, r, &b, &l, &t, &san);
	}
	for (unsigned i = 0, n = overlay ? rd_u8(r) % 4 : 0; i < n; i++)
		draw_over(u, r, s, &l, &t);
	rline_free(&l);
	buf_free(&t);
	buf_free(&san);
}

/* A screen with nothing drawn yet, and roles told apart. */
static void
ui_blank_state(struct ui *u)
{
	memset(u, 0, sizeof *u);
	for (int i = 0; i < ROLE_COUNT; i++) {
		u->attr[i] = (attr_t)(i + 1) << 8;
		u->pair[i] = (short)i;
	}
}

/* The two screens hold the same cells. */
static void
check_same(const WINDOW *a, const WINDOW *b)
{
	CHECK(a->lines == b->lines && a->cols == b->cols);
	for (int i = 0; i < a->lines * a->cols; i++) {
		const cchar_t *p = &a->cell[i], *q = &b->cell[i];

		if (p->attr == q->attr && p->pair == q->pair && p->ext == q->ext &&
		    memcmp(p->chars, q->chars, sizeof p->chars) == 0)
			continue;
		fprintf(stderr,
			"cell %d,%d: cached U+%04X/%d/%x/%d, anew "
			"U+%04X/%d/%x/%d\n",
			i / a->cols, i % a->cols, (unsigned)p->chars[0], p->ext, p->attr, p->pair,
			(unsigned)q->chars[0], q->ext, q->attr, q->pair);
		CHECK(!"the cached screen differs from the frame drawn anew");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ui live, anew;
	static WINDOW screen, blank;
	struct rd r = {data, size, 0};
	struct shape s;

	rd_shape(&r, &s);
	ui_blank_state(&live);
	stub_init(&screen, s.lines, s.cols);
	for (int f = 0; f < FRAMES && r.i < r.n; f++) {
		struct rd again;

		if (rd_u8(&r) % 8 == 0) {
			rd_shape(&r, &s);
			stub_resize(&screen, s.lines, s.cols);
			ui_forget_rows(&live);
			continue;
		}
		again = r;
		stdscr = &screen;
		draw_frame(&live, &r, &s);
		ui_blank_state(&anew);
		stub_init(&blank, s.lines, s.cols);
		stdscr = &blank;
		draw_frame(&anew, &again, &s);
		CHECK(again.i == r.i);
		check_same(&screen, &blank);
		free(anew.drawn);
		stub_free(&blank);
	}
	free(live.drawn);
	stub_free(&screen);
	stdscr = NULL;
	return 0;
}
