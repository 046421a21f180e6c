/* ui_theme.c: themes on the terminal: colours or not (NO_COLOR, --color,
 * what the terminal has), the theme loaded, and each role's curses
 * attributes and colour pair. */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>

/* Colours when the terminal has them, unless --color never, or NO_COLOR
 * (when non-empty) without --color always. */
static bool
want_color(const struct ui_opts *o)
{
	const char *nc = getenv("NO_COLOR");

	if (o->color == UI_COLOR_NEVER)
		return false;
	if (o->color == UI_COLOR_AUTO && nc != NULL && nc[0] != '\0')
		return false;
	return has_colors();
}

/* The curses attributes of theme attributes. */
static attr_t
curses_attr(unsigned a)
{
	attr_t c = A_NORMAL;

	if (a & THEME_BOLD)
		c |= A_BOLD;
	if (a & THEME_DIM)
		c |= A_DIM;
	if (a & THEME_UNDERLINE)
		c |= A_UNDERLINE;
	if (a & THEME_REVERSE)
		c |= A_REVERSE;
	if (a & THEME_BLINK)
		c |= A_BLINK;
#ifdef A_ITALIC
	if (a & THEME_ITALIC)
		c |= A_ITALIC;
#endif
	return c;
}

void
ui_theme_setup(struct ui *u, struct buf *err)
{
	struct theme t, mono;
	bool color = want_color(&u->opt), own_default = true;

	theme_init(&t, false);
	/* Loaded even without colours: its attribute-only roles still count,
	 * and a mistake in it is worth telling. */
	if (u->opt.theme != NULL && theme_load(&t, u->opt.theme, NULL, err) != 0)
		/* stderr goes to a file while the screen is up, and is shown
		 * when the viewer exits: the message outlives the screen. */
		fprintf(stderr, "agentview: %s (default theme used)\n", err->p);
	if (!color) {
		theme_monochrome(&t, &mono);
		t = mono;
	} else {
		start_color();
		/* "default" is the terminal's own colour, transparent
		 * backgrounds included; without that, white on black. */
		own_default = use_default_colors() == OK;
	}
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct theme_style *st = &t.style[r];
		int fg, bg;

		u->attr[r] = curses_attr(st->attr);
		u->pair[r] = 0;
		if (!color || (st->fg == THEME_DEFAULT && st->bg == THEME_DEFAULT))
			continue;
		fg = theme_color(st->fg, COLORS);
		bg = theme_color(st->bg, COLORS);
		if (!own_default) {
			fg = fg < 0 ? COLOR_WHITE : fg;
			bg = bg < 0 ? COLOR_BLACK : bg;
		}
		/* Too few pairs: that role shows its attributes only. */
		if (init_pair((short)(r + 1), (short)fg, (short)bg) == OK)
			u->pair[r] = (short)(r + 1);
	}
}
