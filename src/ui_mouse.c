/* ui_mouse.c: the mouse: taken from the terminal or left to it, and its
 * events read from curses as wheel steps and clicks for the panes (each
 * pane says what they do to it). */
#include "ui.h"

#include <stdlib.h>

/* Rows a wheel step scrolls. */
#define WHEEL_ROWS 3

void
ui_mouse_init(struct ui *u)
{
	const char *tmux = getenv("TMUX");

	/* Inside tmux the mouse stays tmux's unless asked for, so that
	 * selecting text keeps working. */
	if (u->opt.mouse > 0 || (u->opt.mouse < 0 && (tmux == NULL || tmux[0] == '\0'))) {
		mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
				  | BUTTON5_PRESSED
#endif
			  ,
			  NULL);
		mouseinterval(0);
	}
}

bool
ui_mouse_read(struct ui_mouse *ev)
{
	MEVENT me;

	if (getmouse(&me) != OK)
		return false;
	ev->y = me.y;
	ev->x = me.x;
	ev->wheel = 0;
	if (me.bstate & BUTTON4_PRESSED)
		ev->wheel = -WHEEL_ROWS;
#ifdef BUTTON5_PRESSED
	else if (me.bstate & BUTTON5_PRESSED)
		ev->wheel = WHEEL_ROWS;
#endif
	ev->click = (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) != 0;
	return true;
}

bool
ui_mouse_in(const struct rect *r, const struct ui_mouse *ev)
{
	return ev->y >= r->y && ev->y < r->y + r->h && ev->x >= r->x && ev->x < r->x + r->w;
}
