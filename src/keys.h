/* keys.h: every key binding in one table. The viewer looks keys up here,
 * and the help overlay and the man page's KEYS section are generated from
 * it, so the three never drift apart. */
#ifndef AGENTVIEW_KEYS_H
#define AGENTVIEW_KEYS_H

#include <stdbool.h>

#include "util.h"

/* A key is a code point, or one of these (translated from curses by the
 * screen, so that this table needs no curses). */
#define KEY_CTRL(c) ((c)&0x1F)
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
	K_ENTER, /* the keypad's Enter; Return is '\r' */
	K_BTAB,  /* Shift-Tab */
	K_ESC,
	K_MOUSE,
	K_OTHER, /* a function key nobody bound */
	K_BACKSPACE,
	K_F1,
};

/* Where a binding applies, most specific first when keys are looked up. */
enum key_ctx {
	KC_GLOBAL, /* anywhere */
	KC_SCROLL, /* the focused pane: transcript or timeline */
	KC_DETAIL, /* a tool call's detail (scrolls as KC_SCROLL too) */
	KC_PROMPT, /* the search prompt */
	KC_REPLAY, /* while replaying (--replay): wins over the others */
	KC_LIST,   /* the session list (it moves with KC_SCROLL's keys) */
	KC_HELP,   /* the help overlay (it scrolls with KC_SCROLL's keys);
			  last, so the help ends with how to leave it */
	KC_CONTEXTS
};

enum action {
	ACT_NONE,
	ACT_QUIT,
	ACT_NEXT_PANE,
	ACT_FOLLOW,
	ACT_THINKING,
	ACT_MARKDOWN,
	ACT_REDRAW,
	ACT_DOWN,
	ACT_UP,
	ACT_PAGE_DOWN,
	ACT_PAGE_UP,
	ACT_HALF_DOWN,
	ACT_HALF_UP,
	ACT_TOP,
	ACT_BOTTOM,
	ACT_HELP,
	ACT_HELP_CLOSE,
	/* Navigation: search, jumps, filters, the detail (pane_main.c,
	 * pane_search.c, pane_detail.c). */
	ACT_SEARCH,
	ACT_SEARCH_NEXT,
	ACT_SEARCH_PREV,
	ACT_FILTER,
	ACT_PREV_TOOL,
	ACT_NEXT_TOOL,
	ACT_PREV_PROMPT,
	ACT_NEXT_PROMPT,
	ACT_NEXT_PROBLEM,
	ACT_HIDE_THINKING,
	ACT_HIDE_TOOLS,
	ACT_HIDE_NOTICES,
	ACT_HIDE_DIAGS,
	ACT_REDACT,
	ACT_DETAIL,
	ACT_DETAIL_RAW,
	ACT_CLOSE,
	ACT_PROMPT_ACCEPT,
	ACT_PROMPT_CANCEL,
	ACT_PROMPT_ERASE,
	ACT_PROMPT_CLEAR,
	/* Out of the viewer: the clipboard, the editor, the pager
	 * (ui_take.c). */
	ACT_COPY,
	ACT_COPY_RESUME,
	ACT_EDIT,
	ACT_PAGER,
	/* Replay. */
	ACT_REPLAY_PAUSE,
	ACT_REPLAY_STEP,
	ACT_REPLAY_STEP_BACK,
	ACT_REPLAY_SEEK_BACK,
	ACT_REPLAY_SEEK,
	ACT_REPLAY_SEEK_BACK_LONG,
	ACT_REPLAY_SEEK_LONG,
	ACT_REPLAY_JUMP, /* the key's digit says where */
	ACT_REPLAY_PREV_CALL,
	ACT_REPLAY_NEXT_CALL,
	ACT_REPLAY_PREV_PROMPT,
	ACT_REPLAY_NEXT_PROMPT,
	ACT_REPLAY_FASTER,
	ACT_REPLAY_SLOWER,
	/* The session list (pane_list.c). */
	ACT_LIST_OPEN,
	ACT_LIST_SORT,
	ACT_LIST_REVERSE,
	ACT_LIST_FILTER,
	ACT_LIST_BACK,
	ACT_LIST_MOVE, /* said in the help only: the list moves with
			  KC_SCROLL's keys */
	ACT_LIST_HIDE,
	ACT_LIST_NEXT_ATTENTION,
	ACT_LIST_PREV_ATTENTION,
	ACT_LIST_NEXT,
	ACT_LIST_PREV,
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

/* The man page's KEYS section (roff), or the help text (plain): a heading
 * per context, then a line per binding with its keys in one column and
 * what it does in the next, wrapped to width cells (keys above their help
 * when the columns do not fit; width <= 0: no wrapping). The help of one
 * context only (the view it is opened on), or of all (KC_CONTEXTS). */
void keys_roff(struct buf *out);
void keys_help(struct buf *out, int width, enum key_ctx only);
const char *keys_ctx_title(enum key_ctx ctx);
/* Append how people write key: "w", "Ctrl-X", "Esc", "F1", "Space". */
void keys_name(int key, struct buf *out);

#endif
