/* curses.c (stub): the calls of stub/curses.h, as ncurses 6.4 does them to
 * a window, on a grid of cells; what was written and asked for is counted
 * in the window's watch. */
#include "curses.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

WINDOW *stdscr;
int LINES, COLS;

/* The columns a code point takes, as curses measures it (wcwidth; curses
 * counts what it cannot measure as one column). */
static int
stub_width(wchar_t wc)
{
	int w = wcwidth(wc);

	return w < 1 ? 1 : w;
}

/* A blank in the default attributes (what a new window holds). */
static cchar_t
stub_blank(void)
{
	cchar_t c;

	memset(&c, 0, sizeof c);
	c.chars[0] = L' ';
	return c;
}

/* Cell y, x of win. */
static cchar_t *
stub_cell(WINDOW *win, int y, int x)
{
	return &win->cell[(size_t)y * (size_t)win->cols + (size_t)x];
}

/* Cell y, x was written at the code's asking. */
static void
stub_wrote(WINDOW *win, int y, int x)
{
	struct stub_watch *w = &win->w;

	if (w->x0 > w->x1) {
		w->y0 = w->y1 = y;
		w->x0 = w->x1 = x;
		return;
	}
	w->y0 = MIN(w->y0, y);
	w->y1 = MAX(w->y1, y);
	w->x0 = MIN(w->x0, x);
	w->x1 = MAX(w->x1, x);
}

void
stub_watch(WINDOW *win)
{
	memset(&win->w, 0, sizeof win->w);
	win->w.x0 = 1;
	win->w.x1 = 0;
	win->w.lastx = -1;
}

void
stub_init(WINDOW *win, int lines, int cols)
{
	cchar_t blank = stub_blank();

	memset(win, 0, sizeof *win);
	win->lines = lines;
	win->cols = cols;
	win->cell = xreallocarray(NULL, (size_t)lines * (size_t)cols,
				  sizeof *win->cell);
	for (size_t i = 0; i < (size_t)lines * (size_t)cols; i++)
		win->cell[i] = blank;
	stub_watch(win);
}

void
stub_free(WINDOW *win)
{
	free(win->cell);
	win->cell = NULL;
}

void
stub_resize(WINDOW *win, int lines, int cols)
{
	WINDOW old = *win;

	stub_init(win, lines, cols);
	for (int y = 0; y < MIN(lines, old.lines); y++)
		for (int x = 0; x < MIN(cols, old.cols); x++)
			*stub_cell(win, y, x) = *stub_cell(&old, y, x);
	win->cury = MIN(old.cury, lines - 1);
	win->curx = MIN(old.curx, cols - 1);
	win->attr = old.attr;
	win->pair = old.pair;
	stub_free(&old);
}

int
getmaxx(const WINDOW *win)
{
	return win->cols;
}

/* Outside the window: ERR, the cursor stays. One column past the last is
 * what a writer that filled its row asks for: refused, but not counted. */
int
wmove(WINDOW *win, int y, int x)
{
	win->w.lastx = x;
	if (y < 0 || y >= win->lines || x < 0 || x >= win->cols) {
		if (y < 0 || y >= win->lines || x < 0 || x > win->cols)
			win->w.bad_move++;
		return ERR;
	}
	win->cury = y;
	win->curx = x;
	return OK;
}

int
wattr_set(WINDOW *win, attr_t attr, short pair, void *opts)
{
	(void)opts;
	win->attr = attr;
	win->pair = pair;
	return OK;
}

/* lib_cchar.c: the spacing character and the marks after it, up to
 * CCHARW_MAX, stopping at a second spacing one. */
int
setcchar(cchar_t *c, const wchar_t *wch, attr_t attr, short pair,
	 const void *opts)
{
	size_t len;

	(void)opts;
	if (wch == NULL || pair < 0 ||
	    ((len = wcslen(wch)) > 1 && wcwidth(wch[0]) < 0))
		return ERR;
	len = MIN(len, (size_t)CCHARW_MAX);
	for (size_t i = 1; i < len; i++)
		if (wcwidth(wch[i]) != 0) {
			len = i;
			break;
		}
	memset(c, 0, sizeof *c);
	if (len > 0) {
		c->attr = attr;
		c->pair = pair;
		memcpy(c->chars, wch, len * sizeof *wch);
	}
	return OK;
}

int
getcchar(const cchar_t *c, wchar_t *wch, attr_t *attr, short *pair, void *opts)
{
	const wchar_t *end = wmemchr(c->chars, L'\0', CCHARW_MAX);
	size_t len = end != NULL ? (size_t)(end - c->chars) : CCHARW_MAX;

	(void)opts;
	if (wch == NULL)
		return (int)len + 1;
	if (attr == NULL || pair == NULL)
		return ERR;
	*attr = c->attr;
	*pair = (short)c->pair;
	wmemcpy(wch, c->chars, len);
	wch[len] = L'\0';
	return OK;
}

/* lib_hline_set.c: n copies from the cursor, cut at the right edge; the
 * cursor stays. */
int
whline_set(WINDOW *win, const cchar_t *c, int n)
{
	int y = win->cury, end = win->curx + n - 1;

	if (end > win->cols - 1) {
		win->w.cut += end - (win->cols - 1);
		end = win->cols - 1;
	}
	for (int x = win->curx; x <= end; x++) {
		*stub_cell(win, y, x) = *c;
		stub_cell(win, y, x)->ext = 0;
		stub_wrote(win, y, x);
		win->w.cols++;
	}
	return OK;
}

/* lib_addstr.c: the cells from the cursor, as many as fit (a wide one
 * that does not is left out, and ends the copy); the halves of wide
 * characters left alone on either side blanked; the cursor stays. */
int
wadd_wchnstr(WINDOW *win, const cchar_t *cells, int n)
{
	cchar_t blank = stub_blank();
	int y = win->cury, x = win->curx, i;

	if (n > win->cols - x) {
		win->w.cut += n - (win->cols - x);
		n = win->cols - x;
	}
	if (n <= 0)
		return OK;
	if (x > 0 && stub_cell(win, y, x)->ext > 0)
		for (int k = x - stub_cell(win, y, x)->ext; k < x; k++)
			*stub_cell(win, y, k) = blank;
	for (i = 0; i < n && cells[i].chars[0] != L'\0' && x < win->cols; i++) {
		int len = stub_width(cells[i].chars[0]);

		if (cells[i].ext > 0)
			continue;
		if (x + len > win->cols) {
			win->w.cut += n - i;
			break;
		}
		for (int j = 0; j < len; j++) {
			*stub_cell(win, y, x + j) = cells[i];
			stub_cell(win, y, x + j)->ext = j;
			stub_wrote(win, y, x + j);
		}
		win->w.cols += len;
		x += len;
	}
	while (x < win->cols && stub_cell(win, y, x)->ext > 0)
		*stub_cell(win, y, x++) = blank;
	return OK;
}
