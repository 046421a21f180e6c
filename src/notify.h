/* notify.h: telling a person that a session ended or waits for them: the
 * terminal's bell and a desktop notification through the terminal itself
 * (OSC 9, which iTerm2, WezTerm, Windows Terminal, kitty, foot and Ghostty
 * show, and OSC 777, rxvt's and others'), wrapped in tmux's passthrough
 * inside tmux (which lets it through with `set -g allow-passthrough on`);
 * and a command of the user's, with the facts in its environment, never in
 * a shell string. What reaches the terminal, and every value of that
 * environment, is agentview's own words with event text made safe
 * (text_sanitize: no control character of any kind, secrets out while
 * they are hidden), so no event can send escape sequences. The session
 * list, the single session's view and the headless modes share it. No
 * curses. */
#ifndef AGENTVIEW_NOTIFY_H
#define AGENTVIEW_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "fleet.h"
#include "model.h"
#include "util.h"

/* What happened, in words (raw UTF-8; made safe where it is shown). */
struct notify_event {
	const char *event;   /* "done", "failed", "waiting" */
	const char *session; /* the session id, or "" */
	const char *agent;   /* "cursor", "claude", ... */
	const char *state;   /* the state word */
	const char *summary; /* "done · cursor · Composer 2.5 · fix the tests
				· 4m05s": agentview's own words */
	const char *file;    /* the file the session is in, or "" */
};

struct notifier {
	bool term;       /* --notify: the bell and OSC 9 and 777 */
	const char *cmd; /* --notify-cmd, or NULL */
	int fd;          /* the terminal to write to, or -1 */
	bool tmux;       /* inside tmux ($TMUX): passthrough */
	bool quiet;      /* the command's output goes nowhere (the screen
			    is up); else to agentview's stderr */
	uint64_t sent;   /* notifications made */
};

/* A notifier: term and cmd as the options say, writing to fd. */
void notify_init(struct notifier *n, bool term, const char *cmd, int fd);
/* Whether a change to state st is told: done, failed, waiting. */
bool notify_wanted(enum fleet_state st);
/* Append the bytes that tell e to the terminal: BEL, OSC 9, OSC 777,
 * each wrapped for tmux when n->tmux. */
void notify_bytes(const struct notifier *n, const struct notify_event *e, struct buf *out);
/* Tell e: the bytes to n->fd, and n->cmd run in the background with
 * AGENTVIEW_EVENT, _SESSION, _AGENT, _STATE, _SUMMARY and _FILE set. */
void notify_send(struct notifier *n, const struct notify_event *e);
/* Append the command's AGENTVIEW_* assignments for e to vars, each ended
 * by a NUL: every value through the gate of every shown text
 * (text_sanitize on one line: no control byte, secrets out while they are
 * hidden), at most 4096 bytes of it. */
void notify_vars(const struct notify_event *e, struct buf *vars);
/* Tell that row `row` of f is now in its state (notify_wanted). */
void notify_row(struct notifier *n, const struct fleet *f, uint32_t row, int64_t now_ms);
/* The words of row `row` of f: "done · cursor · Composer 2.5 · fix the
 * tests · 4m05s". */
void notify_row_words(const struct fleet *f, uint32_t row, int64_t now_ms, struct buf *out);

/* The sessions of one model (the single-session view, a print of a
 * stream) as last told: tell each that comes to done, failed or waiting
 * (a session new to it counts as one that was running). */
struct notify_watch {
	uint8_t *state; /* per session: the enum session_state told */
	size_t n;
};
void notify_model(struct notifier *n, struct notify_watch *w, struct model *m, const char *file);
void notify_watch_free(struct notify_watch *w);

#endif
