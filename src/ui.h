/* ui.h: the screen layer: the state the panes share, and the interface each
 * pane offers (draw, key). Only screen files include this and curses. */
#ifndef AGENTVIEW_UI_H
#define AGENTVIEW_UI_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "input.h"
#include "keys.h"
#include "model.h"
#include "render.h"
#include "runner.h"
#include "theme.h"
#include "view.h"

enum ui_color { UI_COLOR_AUTO, UI_COLOR_ALWAYS, UI_COLOR_NEVER };

struct ui_opts {
	enum ui_color color;
	const char *theme;
	bool follow;      /* start at the end and follow */
	long frames;      /* exit after this many frames (0: never); tests */
	bool keys_stdin;  /* keys come from stdin (it is the terminal) */
	bool ring;        /* ring when a session ends or a call fails */
	bool title;       /* name the session and its state in the window
			     (pane) title, from our own text only */
	struct runner *run; /* the COMMAND being viewed, or NULL */
};

struct ui {
	struct model *m;        /* not owned */
	struct input *in;       /* not owned */
	struct ui_opts opt;
	struct render r;
	struct layout lay;
	enum pane focus;
	struct scroll ts;       /* the transcript's position */
	uint32_t tsel;          /* selected transcript item, or NONE */
	struct list tl;         /* the timeline's selection */
	attr_t attr[ROLE_COUNT];
	short pair[ROLE_COUNT];
	bool help;              /* the help overlay is open */
	int help_top;           /* its first line shown */
	bool dirty;             /* something to draw */
	bool quit;
	long frames;            /* frames drawn */
	uint64_t restarts;      /* input restarts seen */
	uint64_t changes;       /* input changes drawn */
	size_t seen_items;      /* items when last drawn */
	char note[256];         /* a passing message for the status bar */
	int64_t note_until;     /* monotonic ms when it goes away */
	bool asking;            /* "stop COMMAND and quit?" is on screen */
	uint32_t bad_calls;     /* failed, rejected, error calls seen (bell) */
	int last_state;         /* the newest session's state seen (bell) */
	struct buf title;       /* the title last set */
	struct rline line;      /* scratch */
	struct rowsrc rows;     /* the transcript's items, for view.c */
};

/* Draw a segmented line at y, x (it was rendered to the right width). */
void ui_draw_rline(struct ui *u, int y, int x, const struct rline *l,
		   enum role override);
/* Set the attributes of role on stdscr. */
void ui_role(struct ui *u, enum role role);
/* Clear a rectangle in role. */
void ui_clear(struct ui *u, const struct rect *r, enum role role);
/* Show a message in the status bar for a few seconds. */
void ui_note(struct ui *u, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* The panes: each draws its title and body and does the actions of the
 * keys pressed while it has the focus. */
void transcript_draw(struct ui *u, const struct rect *title,
		     const struct rect *body);
bool transcript_action(struct ui *u, enum action a, int height);
void timeline_draw(struct ui *u, const struct rect *title,
		   const struct rect *body);
bool timeline_action(struct ui *u, enum action a, int height);
void statusbar_draw(struct ui *u, const struct rect *r);

/* The help overlay (pane_help.c): every key of the key table, over the
 * panes; it takes every key while open. */
void help_draw(struct ui *u);
void help_key(struct ui *u, int key);

/* Choose colours or not, load the theme (a bad one is noted and the
 * default used) and set attr and pair of every role (ui_theme.c). */
void ui_theme_setup(struct ui *u);

/* Run the viewer until the user quits. Returns the exit status. */
int ui_run(struct model *m, struct input *in, const struct ui_opts *opt);

#endif
