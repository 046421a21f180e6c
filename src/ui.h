/* ui.h: the screen layer: the state the panes share, the interface every
 * pane offers (struct pane_ops), the stack of layers the screen is made
 * of, and what each screen file offers the others. Only screen files
 * include this and curses. ui.c (the loop, the stack) knows the panes only
 * through struct pane_ops: a pane's own state is in its layer. */
#ifndef AGENTVIEW_UI_H
#define AGENTVIEW_UI_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "input.h"
#include "jump.h"
#include "keys.h"
#include "model.h"
#include "notify.h"
#include "render.h"
#include "runner.h"
#include "replay.h"
#include "theme.h"
#include "view.h"

enum ui_color { UI_COLOR_AUTO, UI_COLOR_ALWAYS, UI_COLOR_NEVER };

struct ui;
struct detail;
struct search;
struct fleet;
struct notifier;

/* A mouse event as the panes see it (ui_mouse.c reads it from curses). */
struct ui_mouse {
	int y, x;   /* the cell under the pointer */
	int wheel;  /* rows the wheel scrolls (< 0: up), or 0 */
	bool click; /* the first button went down */
};

/* What every pane offers. The screen is a stack of layers, each a pane
 * (or a group of them) drawn over the ones below it: the main panes at
 * the bottom (transcript, timeline, status bar), then a call's detail,
 * the search prompt, the help, the question before quitting. A key goes
 * to the top layer that takes it, else on down; the keys no layer takes
 * are the screen's own (quit, redraw, secrets shown). A pane's open function
 * makes its state and pushes it; the panes inside a layer (transcript,
 * timeline) are reached through the same ops by the layer that holds
 * them. A layer may also work between frames (the search, the session
 * list's reading, a replay's clock), have a descriptor for the loop to
 * wake on, and a time it must be woken at. st is the state given to
 * ui_layer_push (NULL for panes whose state is the one the panes share,
 * in struct ui). Every member but name may be NULL. */
struct pane_ops {
	const char *name;
	/* Draws every cell of the screen: the layers below are not drawn. */
	bool opaque;
	/* Takes every key and mouse event, wanted or not: none goes to the
	 * layers below. */
	bool modal;
	/* Draw over what the layers below drew (NULL: nothing of its own). */
	void (*draw)(struct ui *u, void *st);
	/* Do what key asks; false: not this pane's, the layer below gets it. */
	bool (*key)(struct ui *u, void *st, int key);
	/* The same for a mouse event (NULL: takes none). */
	bool (*mouse)(struct ui *u, void *st, const struct ui_mouse *ev);
	/* Work between frames, after the keys (the layers from the bottom
	 * up); true while there is more to do at once (the loop then does not
	 * sleep). Marks the screen dirty when what it shows changed. */
	bool (*work)(struct ui *u, void *st);
	/* A descriptor the loop wakes on when it can be read, or -1. */
	int (*fd)(struct ui *u, void *st);
	/* Milliseconds until the layer must work or draw again by itself (a
	 * clock it shows), or -1: not before a key, the input or its fd. */
	int (*due)(struct ui *u, void *st);
	/* What it showed of the input is gone: the input was read again from
	 * its start, or another session is shown (ui_session). */
	void (*reset)(struct ui *u, void *st);
	/* The layer leaves the stack: free st (NULL: nothing to free). */
	void (*close)(struct ui *u, void *st);
};

/* A layer of the stack: a pane and its state (owned by the layer). */
struct layer {
	const struct pane_ops *ops;
	void *st;
};

#define UI_LAYERS 10

struct ui_opts {
	enum ui_color color;
	const char *theme;
	bool follow;        /* start at the end and follow */
	long frames;        /* exit after this many frames (0: never); tests */
	bool keys_stdin;    /* keys come from stdin (it is the terminal) */
	bool ring;          /* ring when a session ends or a call fails */
	bool title;         /* name the session and its state in the window
			     (pane) title, from our own text only */
	struct runner *run; /* the COMMAND being viewed, or NULL */
	const char *note;   /* said in the status bar from the start, for
			       good (a recording that could not start) */
	int mouse;          /* 1 on, 0 off, -1 on unless inside tmux */
	bool replay;        /* --replay, at speed, pauses capped at idle_limit
			     seconds (< 0: not capped) */
	double speed;
	double idle_limit;
	bool framestat;        /* developer hook AGENTVIEW_FRAMESTAT: say on stderr
			     at exit when the first frame was drawn and how
			     many were (for make bench) */
	int64_t started_us;    /* clock_mono_us when main started */
	struct fleet *fleet;   /* the session list's (not owned), or NULL */
	struct notifier *tell; /* the list's notifications, or the single
				  session's (--notify of live input), or NULL */
	const char *tell_file; /* the single session's file, for tell */
};

/* The screen: the loop's state, and what the panes share (the session
 * shown, its rows, the main panes' view of it, the colours, the rows
 * drawn). A pane's own state is its layer's. */
struct ui {
	struct model *m;  /* not owned */
	struct input *in; /* not owned */
	struct ui_opts opt;
	struct layer layer[UI_LAYERS]; /* the stack, bottom first */
	int nlayer;
	struct render r;
	struct layout lay;
	enum pane focus;
	struct scroll ts; /* the transcript's position */
	uint32_t tsel;    /* selected transcript item, or NONE */
	struct list tl;   /* the timeline's selection */
	attr_t attr[ROLE_COUNT];
	short pair[ROLE_COUNT];
	bool dirty; /* something to draw */
	bool quit;
	long frames;              /* frames drawn */
	int64_t first_frame_us;   /* clock_mono_us after the first was drawn */
	uint64_t restarts;        /* input restarts seen */
	uint64_t changes;         /* input changes drawn */
	char note[256];           /* a passing message for the status bar */
	int64_t note_until;       /* monotonic ms when it goes away */
	bool note_news;           /* the note is a remote's news (ui.c) */
	char held[256];           /* the note a remote's lasting news covers (a
				     session's hint): said again beside the
				     news that ends it */
	uint32_t bad_calls;       /* failed, rejected, error calls seen (bell) */
	struct notify_watch told; /* the sessions told of (opt.tell, no list) */
	int last_state;           /* the newest session's state seen (bell) */
	struct buf title;         /* the title last set */
	struct rline line;        /* scratch */
	struct rowsrc rows;       /* the transcript's items, for view.c */
	/* What the rows of the screen hold (ui_drawn): by row and half (x 0
	 * or not), the span last drawn there and a hash of what it shows. */
	struct drawn *drawn;
	int drawn_lines, drawn_cols;
	bool drawn_ok; /* the spans can be trusted in this frame */
	bool overlay;  /* the last frame had something over the panes */
};

/* --- ui.c: the loop, the layer stack ------------------------------------ */

/* Run the viewer until the user quits, over the layers open pushes (the
 * main panes, or the session list). Returns the exit status. */
int ui_run(struct model *m, struct input *in, const struct ui_opts *opt,
	   void (*open)(struct ui *u));

/* Put a pane with its state on top of the stack (a pane is on it at most
 * once); it is drawn from the next frame on and gets the keys first. */
void ui_layer_push(struct ui *u, const struct pane_ops *ops, void *st);
/* Take a pane off the stack, wherever it is, and close it (nothing when
 * it is not on the stack). */
void ui_layer_pop(struct ui *u, const struct pane_ops *ops);
/* A pane's layer, or NULL when it is not on the stack. */
struct layer *ui_layer_find(struct ui *u, const struct pane_ops *ops);

/* Hand the terminal over to a program run in it (ui_take.c): curses left
 * as endwin leaves it, its modes kept. The descriptors the program is to
 * use as stdin and stderr (the terminal, whatever agentview's are). */
void ui_suspend(struct ui *u, int *in_fd, int *err_fd);
/* Take the terminal back after it: the modes set again, the next frame
 * drawn whole. */
void ui_resume(struct ui *u);

/* Show the session of model m read by in (the list opens one, and comes
 * back to its own empty one): what the panes showed of the last is
 * forgotten; follow: start at the end and follow. */
void ui_session(struct ui *u, struct model *m, struct input *in, bool follow);

/* Show a message in the status bar for a few seconds. */
void ui_note(struct ui *u, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Under 40x10 cells: rows [0, rows) say the screen is too small (true),
 * and nothing else is drawn there. */
bool ui_too_small(struct ui *u, int rows);
/* A question in place of the status bar (a modal layer's draw). */
void ui_question(struct ui *u, const char *question);
/* The height of a pane's body, for paging, even while it is hidden. */
int ui_body_height(struct ui *u, enum pane p);
/* The transcript follows new events that may still come: at its end, over
 * an input that grows (-f, a pipe, a COMMAND; input_grows) or a replay. */
bool ui_following(const struct ui *u);

/* --- ui_cell.c: the cells, the rows drawn ------------------------------- */

/* Draw a segmented line at y, x (it was rendered to the right width). */
void ui_draw_rline(struct ui *u, int y, int x, const struct rline *l, enum role override);
/* Hashes of what a span shows, for ui_drawn: start with HASH_START. */
#define HASH_START 0xcbf29ce484222325ull
uint64_t ui_hash(uint64_t h, const void *p, size_t n);
/* Whether the span of w cells at y, x shows what hash stands for since
 * the last frame, so that drawing it again can be skipped; if not, it is
 * noted as showing it (the caller draws it). */
bool ui_drawn(struct ui *u, int y, int x, int w, uint64_t hash);
/* Row y was drawn over by something else: draw it again next time. */
void ui_undrawn(struct ui *u, int y);
/* Start a frame (overlay: something is drawn over the panes in it), and
 * the screen was resized: see ui_cell.c. */
void ui_drawn_begin(struct ui *u, bool overlay);
void ui_forget_rows(struct ui *u);
/* Set the attributes of role on stdscr. */
void ui_role(struct ui *u, enum role role);
/* Clear a rectangle in role. */
void ui_clear(struct ui *u, const struct rect *r, enum role role);
/* Sanitized UTF-8 s[0..n) in role at the cursor, as far as the line goes;
 * the cursor after it. */
void ui_put(struct ui *u, const char *s, size_t n, enum role role);
/* n blanks in role from the cursor on (as far as the line goes), the
 * cursor after them. */
void ui_blank(struct ui *u, int n, enum role role);

/* --- what every pane uses ------------------------------------------------ */

/* Choose colours or not, load the theme and set attr and pair of every
 * role (ui_theme.c). A bad theme is said in err (and on stderr), and the
 * default is used. */
void ui_theme_setup(struct ui *u, struct buf *err);

/* The mouse (ui_mouse.c): ask the terminal for it (with --mouse, or
 * outside tmux); read an event (false: none); whether it is in r. */
void ui_mouse_init(struct ui *u);
bool ui_mouse_read(struct ui_mouse *ev);
bool ui_mouse_in(const struct rect *r, const struct ui_mouse *ev);

/* Where the transcript's view goes (ui_jump.c). */
/* Whether row `row` of item it is on screen. */
bool ui_jump_on_screen(struct ui *u, uint32_t it, uint32_t row);
/* The item shown on body row y of the transcript, or NONE. */
uint32_t ui_jump_item_at(struct ui *u, int y);
/* The first tool call on screen, or NONE. */
uint32_t ui_jump_first_call(struct ui *u);
/* The item at the top of the transcript (0 when there is none). */
uint32_t ui_jump_top(struct ui *u);
/* Show row `row` of item it, a quarter of a screen down, unless it is on
 * screen already. */
void ui_jump_reveal(struct ui *u, uint32_t it, uint32_t row);
/* Select item it in the transcript, and its call in the timeline. */
void ui_jump_select(struct ui *u, uint32_t it);
/* Select the next (dir > 0) or previous tool call, prompt, or call that
 * failed, was rejected or orphaned (wrapping), and show it. */
void ui_jump(struct ui *u, enum jump_target what, int dir);

/* What y copied last on the main panes: y on the same call again, while
 * its note shows, copies the call's output. */
struct ui_copied {
	uint32_t call; /* the call whose target was copied, or NONE */
	int64_t until; /* monotonic ms */
};

/* Out of the viewer (ui_take.c): y, e and o on the main panes' selected
 * item; y, e and o in detail d, on its cursor row's part; Y, the command
 * that resumes the selected item's session (or the newest). */
void ui_take_main(struct ui *u, enum action a, struct ui_copied *last);
void ui_take_detail(struct ui *u, enum action a, const struct detail *d, size_t row);
void ui_take_resume(struct ui *u);
/* The same for what another pane took (the session list's Y, o, e): s[0..n),
 * which is `what`, through copy_gate to the clipboard; s[0..n) in the
 * pager (of a session on host, when not NULL: said to be a copy, its
 * file read-only); folder dir (absolute) in the editor; a copy of file
 * (a mirror of host's session, remote.h) in the editor, read-only. Each
 * says what happened. */
void ui_take_copy(struct ui *u, const char *what, const char *s, size_t n);
void ui_take_page(struct ui *u, const char *s, size_t n, const char *host);
void ui_take_edit_dir(struct ui *u, const char *dir);
void ui_take_edit_copy(struct ui *u, const char *file, const char *host);

/* --- the panes ------------------------------------------------------------ */

/* The main panes, the bottom layer (pane_main.c), with the search over
 * them and, with --replay, the replay: push them; take them off (back to
 * the session list). */
void pane_main_open(struct ui *u);
void pane_main_close(struct ui *u);
/* The panes of the main layer: each draws its title and body where the
 * layout puts them, scrolls with the keys pressed while it has the focus,
 * and takes the mouse over it (pane_transcript.c, pane_timeline.c). */
extern const struct pane_ops pane_transcript_ops;
extern const struct pane_ops pane_timeline_ops;
/* The status bar on its row (pane_status.c). */
void pane_status_draw(struct ui *u);

/* The detail of a tool call over the panes (pane_detail.c): open it (or
 * show another call in it), or open it at match j of the search in it
 * (UINT64_MAX: at its top). It closes itself (q, or the input read
 * again). */
void pane_detail_open(struct ui *u, uint32_t call);
void pane_detail_open_at(struct ui *u, uint32_t call, uint64_t j);

/* The search of the main panes (pane_search.c), a layer over them that
 * draws nothing and searches between frames, in slices: push it (over the
 * session shown). Open its prompt (a layer over it); n and N: show the
 * match after (dir > 0) or before the one shown; the filters changed:
 * search again what is shown. Each does nothing without the search. */
void pane_search_push(struct ui *u);
void pane_search_open(struct ui *u);
void pane_search_next(struct ui *u, int dir);
void pane_search_again(struct ui *u);
/* &: open the filter's prompt; show only the items that match p[0..len)
 * (len 0: every item again). */
void pane_search_filter_open(struct ui *u);
void pane_search_filter(struct ui *u, const char *p, size_t len);
/* What the status bar says of it ("match 3/17 · &error: 4 items · hiding
 * thinking"), or NULL; where the match shown is when it is in a call's
 * detail ("in Shell npm test stderr"), or NULL; what a detail says of its
 * matches in the search's place while it is open (NULL: nothing). */
const char *pane_search_status(struct ui *u);
const char *pane_search_where(struct ui *u);
void pane_search_scope(struct ui *u, const char *s);
/* The match shown, when it is a call's on screen (and no other item is
 * selected): the call, and which match of its detail it is (UINT64_MAX:
 * the one its line shows). */
bool pane_search_detail_at(struct ui *u, uint32_t *call, uint64_t *j);
/* The search, when a pattern is set (else NULL). */
const struct search *pane_search_get(struct ui *u);
/* The prompt of a search in another pane (a detail): the search's pattern
 * set as it is typed, then typed() told; Enter or Esc, then done()
 * (Esc: the pattern before). */
struct search_hooks {
	void (*typed)(struct ui *u, void *ctx);
	void (*done)(struct ui *u, void *ctx, bool accept);
	void *ctx;
};
void pane_search_prompt(struct ui *u, const struct search_hooks *hooks);
/* Draw s[0..n) at the cursor in role, the search's matches highlighted;
 * a hash of what is highlighted (the pattern), to start the hash of a
 * row with (see ui_drawn). The same of bytes [ra, rb) of t, a row of the
 * line t[la, lb) in which the matches are looked for, the match shown
 * (bytes [ca, cb) of t) in reverse. Where match shown is in row `row`
 * of item it: its bytes of the row's text. */
void pane_search_put(struct ui *u, const char *s, size_t n, enum role role);
void pane_search_put_line(struct ui *u, const char *t, size_t la, size_t lb, size_t ra, size_t rb,
			  enum role role, size_t ca, size_t cb);
uint64_t pane_search_hash(struct ui *u);
bool pane_search_mark(struct ui *u, uint32_t it, uint32_t row, size_t *a, size_t *b);

/* A replay (pane_replay.c), a layer over the main panes with --replay: its
 * keys win over theirs; it keeps in step with the input and the clock
 * between frames. Push it; show the model as of the replay (before the
 * main panes draw; false: no replay); the status bar's words of it (false:
 * no replay). */
void pane_replay_push(struct ui *u);
bool pane_replay_frame(struct ui *u);
bool pane_replay_describe(struct ui *u, struct buf *mode, struct buf *position, struct buf *detail);

/* The help over the panes (pane_help.c): the keys of context only (the
 * view it is opened on), or every key of the key table (KC_CONTEXTS); it
 * takes every key while open. */
void pane_help_open(struct ui *u, enum key_ctx only);

/* The session list (pane_list.c), the bottom layer over u->opt.fleet,
 * telling state changes by u->opt.tell (NULL: not told). It reads the
 * folders between frames, a slice at a time, and wakes on their watch. */
void pane_list_open(struct ui *u);

#endif
