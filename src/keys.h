/* keys.h: every key binding in one table. The viewer looks keys up here,
 * and the help overlay and the man page's KEYS section are generated from
 * it, so the three never drift apart. */
#ifndef AGENTVIEW_KEYS_H
#define AGENTVIEW_KEYS_H

#include <stdbool.h>

#include "util.h"

/* A key is a code point, or one of these (translated from curses by the
 * screen, so that this table needs no curses). */
#define KEY_CTRL(c) ((c) & 0x1F)
enum {
	K_FIRST = 0x40000000,
	K_UP,
	K_DOWN,
	K_LEFT,
	K_RIGHT,
	K_SLEFT,  /* Shift-Left */
	K_SRIGHT, /* Shift-Right */
	K_PGUP,
	K_PGDN,
	K_HOME,
	K_END,
	K_ENTER,  /* the keypad's Enter; Return is '\r' */
	K_BTAB,   /* Shift-Tab */
	K_ESC,
	K_MOUSE,
	K_OTHER,  /* a function key nobody bound */
};

/* Where a binding applies, most specific first when keys are looked up. */
enum key_ctx {
	KC_GLOBAL,     /* anywhere */
	KC_SCROLL,     /* the focused pane: transcript or timeline */
	KC_REPLAY,     /* while replaying (--replay): wins over the others */
	KC_CONTEXTS
};

enum action {
	ACT_NONE,
	ACT_QUIT,
	ACT_NEXT_PANE,
	ACT_FOLLOW,
	ACT_THINKING,
	ACT_REDRAW,
	ACT_DOWN,
	ACT_UP,
	ACT_PAGE_DOWN,
	ACT_PAGE_UP,
	ACT_HALF_DOWN,
	ACT_HALF_UP,
	ACT_TOP,
	ACT_BOTTOM,
	/* Replay. */
	ACT_REPLAY_PAUSE,
	ACT_REPLAY_STEP,
	ACT_REPLAY_STEP_BACK,
	ACT_REPLAY_SEEK_BACK,
	ACT_REPLAY_SEEK,
	ACT_REPLAY_SEEK_BACK_LONG,
	ACT_REPLAY_SEEK_LONG,
	ACT_REPLAY_JUMP,        /* the key's digit says where */
	ACT_REPLAY_PREV_CALL,
	ACT_REPLAY_NEXT_CALL,
	ACT_REPLAY_PREV_PROMPT,
	ACT_REPLAY_NEXT_PROMPT,
	ACT_REPLAY_FASTER,
	ACT_REPLAY_SLOWER,
	ACT_COUNT
};

#define KEYS_MAX 12

struct binding {
	enum key_ctx ctx;
	enum action action;
	int keys[KEYS_MAX]; /* 0-terminated */
	const char *names;  /* as people write them: "j, Down, Ctrl-N" */
	const char *help;   /* what it does */
};

/* The table, in the order help shows it; ends with action ACT_NONE. */
extern const struct binding key_table[];

/* The action of key in context ctx (ACT_NONE if unbound). */
enum action keys_lookup(enum key_ctx ctx, int key);

/* The man page's KEYS section (roff) or the help text (plain), one
 * binding per line, from the table. */
void keys_roff(struct buf *out);
void keys_help(struct buf *out, int width);
const char *keys_ctx_title(enum key_ctx ctx);

#endif
