/* ui_cell.c: the cells of the screen: text, blanks and segmented lines
 * written to stdscr (sanitized text, wide characters, combining marks
 * joined to their cell), and the rows drawn again only when what they
 * show changed. The only curses it calls is the handful of cell and
 * cursor functions the fuzz harness stubs (tests/fuzz/fuzz_screen.c). */
#include "ui.h"

#include <stdlib.h>
#include <wchar.h>

#include "text.h"

void
ui_role(struct ui *u, enum role role)
{
	wattr_set(stdscr, u->attr[role], u->pair[role], NULL);
}

void
ui_clear(struct ui *u, const struct rect *r, enum role role)
{
	uint64_t h = ui_hash(HASH_START, "clear", 5);

	h = ui_hash(h, &role, sizeof role);
	for (int y = r->y; y < r->y + r->h; y++) {
		if (ui_drawn(u, y, r->x, r->w, h))
			continue;
		move(y, r->x);
		ui_blank(u, r->w, role);
	}
}

/* --- rows drawn again only when they change -------------------------------- */

/* A span of a row and what it showed. */
struct drawn {
	int x, w; /* w < 0: nothing known */
	uint64_t hash;
};

/* FNV-1a: what a span shows is a few hundred bytes. */
uint64_t
ui_hash(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* Every resize, even one undone before the next frame (a smaller size cut
 * the rows curses holds, a larger one filled them with blanks): nothing
 * drawn is known any more. */
void
ui_forget_rows(struct ui *u)
{
	u->drawn_lines = -1;
}

/* Start a frame: what the rows hold is known unless the screen was
 * resized, or something (the help, a detail, the search prompt) is drawn
 * over the panes now or was in the last frame. While a stream is followed
 * most rows stay as they were, and putting a row costs more than all the
 * rest of a frame. */
void
ui_drawn_begin(struct ui *u, bool overlay)
{
	if (u->drawn == NULL || u->drawn_lines != LINES || u->drawn_cols != COLS || overlay ||
	    u->overlay) {
		free(u->drawn);
		u->drawn_lines = MAX(LINES, 0);
		u->drawn_cols = COLS;
		u->drawn = xreallocarray(NULL, (size_t)u->drawn_lines * 2 + 1, sizeof *u->drawn);
		for (int i = 0; i < u->drawn_lines * 2; i++)
			u->drawn[i].w = -1;
	}
	u->drawn_ok = !overlay;
	u->overlay = overlay;
}

bool
ui_drawn(struct ui *u, int y, int x, int w, uint64_t hash)
{
	struct drawn *d;

	if (!u->drawn_ok || y < 0 || y >= u->drawn_lines)
		return false;
	d = &u->drawn[y * 2 + (x > 0)];
	if (d->x == x && d->w == w && d->hash == hash)
		return true;
	d->x = x;
	d->w = w;
	d->hash = hash;
	return false;
}

void
ui_undrawn(struct ui *u, int y)
{
	if (y >= 0 && y < u->drawn_lines)
		u->drawn[y * 2].w = u->drawn[y * 2 + 1].w = -1;
}

/* One call for the whole run: addch per cell converts and measures each
 * blank, a good part of a frame's time while a stream is followed. But
 * whline_set leaves alone the second half of a wide character whose first
 * half it blanks; text put there next would make curses take that half
 * for the rest of a wide character it cuts, and blank the cell before it
 * (the last of these blanks) in no role: the last blank is put again with
 * wadd_wchnstr, which blanks such a half after it. */
void
ui_blank(struct ui *u, int n, enum role role)
{
	cchar_t blank;
	int y, x;

	ui_role(u, role);
	if (n <= 0)
		return;
	getyx(stdscr, y, x);
	setcchar(&blank, L" ", u->attr[role], u->pair[role], NULL);
	whline_set(stdscr, &blank, n);
	move(y, MIN(x + n, getmaxx(stdscr)) - 1);
	wadd_wchnstr(stdscr, &blank, 1);
	move(y, x + n);
}

void
ui_draw_rline(struct ui *u, int y, int x, const struct rline *l, enum role override)
{
	uint64_t h = ui_hash(HASH_START, &override, sizeof override);

	h = ui_hash(h, l->text.p, l->text.n);
	for (size_t i = 0; i < l->nseg; i++) {
		h = ui_hash(h, &l->seg[i].len, sizeof l->seg[i].len);
		h = ui_hash(h, &l->seg[i].role, sizeof l->seg[i].role);
	}
	if (ui_drawn(u, y, x, (int)l->width, h))
		return;
	move(y, x);
	for (size_t i = 0; i < l->nseg; i++)
		ui_put(u, l->text.p + l->seg[i].off, l->seg[i].len,
		       override != ROLE_NORMAL ? override : (enum role)l->seg[i].role);
}

/* Cells handed to curses at once. */
#define PUT_CELLS 256

/* Add a combining mark (or other zero-width code point) to a cell, as
 * curses does when one is added after it; past CCHARW_MAX it is lost. */
static void
cell_join(cchar_t *c, uint32_t cp)
{
	wchar_t wc[CCHARW_MAX + 1];
	attr_t attr;
	short pair;
	size_t m;

	if (getcchar(c, wc, &attr, &pair, NULL) == ERR)
		return;
	m = wcslen(wc);
	if (m == 0 || m >= CCHARW_MAX)
		return;
	wc[m] = (wchar_t)cp;
	wc[m + 1] = L'\0';
	setcchar(c, wc, attr, pair, NULL);
}

/* The cells are made here and copied in with wadd_wchnstr: addnstr
 * decodes, converts and measures each byte through the C library, twice
 * what the rest of a frame costs while a stream is followed. The text is
 * sanitized (every code point prints), so the copy needs no checks but
 * the width of the line; a combining mark joins the cell before it. */
void
ui_put(struct ui *u, const char *s, size_t n, enum role role)
{
	cchar_t cell[PUT_CELLS], blank;
	int y, x, maxx = getmaxx(stdscr), k = 0, w = 0, at;

	ui_role(u, role);
	/* Each cell is a copy of a blank in the role with its character
	 * changed: setcchar for every cell costs as much as the rest. */
	setcchar(&blank, L" ", u->attr[role], u->pair[role], NULL);
	getyx(stdscr, y, x);
	at = x;
	for (size_t i = 0; i < n;) {
		uint32_t cp = (unsigned char)s[i];
		int cw;

		if (cp < 0x80)
			i++;
		else
			i += utf8_decode(s + i, n - i, &cp);
		cw = text_cpwidth(cp);
		if (cw == 0 && k > 0) {
			cell_join(&cell[k - 1], cp);
			continue;
		}
		if (cw == 0) {
			/* Nothing before it in this call: the cell before
			 * may be half of a wide character, whose rewriting
			 * would blank it, or there is none (column 0).
			 * Callers keep marks with their base (pane_search_put);
			 * one that starts a row is not drawn, as it takes no
			 * cell in the width the row was measured at. */
			continue;
		}
		if (cw <= 0) {
			cp = 0xFFFD;
			cw = 1;
		}
		if (x + w + cw > maxx)
			break;
		if (k == PUT_CELLS) {
			move(y, at);
			wadd_wchnstr(stdscr, cell, k);
			at = x + w;
			k = 0;
		}
		cell[k] = blank;
		cell[k++].chars[0] = (wchar_t)cp;
		w += cw;
	}
	if (k > 0) {
		move(y, at);
		wadd_wchnstr(stdscr, cell, k);
	}
	move(y, x + w);
}
