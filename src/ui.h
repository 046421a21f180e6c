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
#include "replay.h"
#include "theme.h"
#include "view.h"

enum ui_color { UI_COLOR_AUTO, UI_COLOR_ALWAYS, UI_COLOR_NEVER };

struct ui_opts {
	enum ui_color color;
	const char *theme;
	bool follow;      /* start at the end and follow */
	long frames;      /* exit after this many frames (0: never); tests */
	bool keys_stdin;  /* keys come from stdin (it is the terminal) */
	bool replay;      /* --replay, at speed, pauses capped at idle_limit
			     seconds (< 0: not capped) */
	double speed;
	double idle_limit;
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
	bool dirty;             /* something to draw */
	bool quit;
	long frames;            /* frames drawn */
	uint64_t restarts;      /* input restarts seen */
	uint64_t changes;       /* input changes drawn */
	size_t seen_items;      /* items when last drawn */
	char note[256];         /* a passing message for the status bar */
	int64_t note_until;     /* monotonic ms when it goes away */
	struct rline line;      /* scratch */
	struct rowsrc rows;     /* the transcript's items, for view.c */
	struct replay *rp;      /* owned; NULL unless replaying */
	int64_t replay_shown;   /* replay_stamp when last looked at */
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

/* A replay: keep it in step with the input and the clock (marks the
 * screen dirty when what it shows changes); do a replay key's action. */
void ui_replay_sync(struct ui *u);
void ui_replay_key(struct ui *u, enum action a, int key);

/* Run the viewer until the user quits. Returns the exit status. */
int ui_run(struct model *m, struct input *in, const struct ui_opts *opt);

#endif
