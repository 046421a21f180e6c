/* curses.h (stub): the few curses calls src/ui_cell.c makes, over a grid
 * of cells that tests/fuzz/fuzz_screen.c can read and check. Built instead
 * of <curses.h> for that harness only (-Itests/fuzz/stub). Each call does
 * what ncurses 6.4 does to its window (lib_addstr.c wadd_wchnstr,
 * lib_hline_set.c, lib_cchar.c, lib_move.c): cells are not put on a
 * terminal, but what a window holds is the same; and it counts what the
 * code under test asked for, so that the harness can check it. */
#ifndef AGENTVIEW_STUB_CURSES_H
#define AGENTVIEW_STUB_CURSES_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#define OK 0
#define ERR (-1)
#define CCHARW_MAX 5

typedef unsigned int attr_t;

/* A cell: up to CCHARW_MAX code points (a spacing one and the marks on
 * it), its attributes and colour pair; ext > 0 is the ext-th column of a
 * wide character whose first column is ext cells to the left. */
typedef struct {
	attr_t attr;
	wchar_t chars[CCHARW_MAX];
	int pair;
	int ext;
} cchar_t;

/* What the calls since the last stub_watch wrote (the cells of the code's
 * own asking, not the halves of wide characters curses blanks around
 * them), and what they asked for that curses refuses or cuts. */
struct stub_watch {
	int y0, y1, x0, x1; /* the rows and columns written, x0 > x1: none */
	long cols;	    /* columns put by wadd_wchnstr and whline_set */
	int bad_move;	    /* moves outside the screen, or more than one
			       column past its last */
	int cut;	    /* cells asked for past the right edge */
	int lastx;	    /* the column the last move asked for */
};

typedef struct stub_window {
	int lines, cols;
	int cury, curx;
	attr_t attr;
	int pair;
	cchar_t *cell; /* lines * cols */
	struct stub_watch w;
} WINDOW;

extern WINDOW *stdscr;
extern int LINES, COLS;

#define getyx(win, y, x) ((y) = (win)->cury, (x) = (win)->curx)

int getmaxx(const WINDOW *win);
int wmove(WINDOW *win, int y, int x);
#define move(y, x) wmove(stdscr, (y), (x))
int wattr_set(WINDOW *win, attr_t attr, short pair, void *opts);
int setcchar(cchar_t *c, const wchar_t *wch, attr_t attr, short pair,
	     const void *opts);
int getcchar(const cchar_t *c, wchar_t *wch, attr_t *attr, short *pair,
	     void *opts);
int whline_set(WINDOW *win, const cchar_t *c, int n);
int wadd_wchnstr(WINDOW *win, const cchar_t *cells, int n);

/* The harness's side: make a window of blanks (free its cells with
 * stub_free), resize it as resizeterm does (what fits is kept, the rest
 * blank), start watching what is written. */
void stub_init(WINDOW *win, int lines, int cols);
void stub_free(WINDOW *win);
void stub_resize(WINDOW *win, int lines, int cols);
void stub_watch(WINDOW *win);

#endif
