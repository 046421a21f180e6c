/* ui.c: the viewer: terminal set-up and restore on every exit path, the
 * poll() loop over input, keys and signals, layout, the stack of layers
 * and key dispatch. It knows the panes only through struct pane_ops. */
#include "ui.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "glyph.h"
#include "redact.h"
#include "remote.h"
#include "sig.h"
#include "status.h"
#include "text.h"

/* Redraws are at least this many ms apart: at most 29.4 per second, within
 * the 30 README.md's Performance table asks for (33 ms would allow 30.3). */
#define FRAME_MS 34
/* Bytes of lines indexed between two looks at the keys. */
#define PUMP_BUDGET (8u << 20)
/* Input that brought fewer bytes than this (a pipe's buffer) since the
 * last look is a trickle: while a frame is due anyway, the loop does not
 * wake for each new line but reads them all when it draws. More is a
 * flood, read as it comes so that a writer never waits on a full pipe. */
#define TRICKLE_BYTES (64u << 10)
/* A bad theme's message stays this long in the status bar: it is the
 * first thing shown and easy to miss among the rest. */
#define THEME_NOTE_MS 15000

/* The terminal, as needed to restore it from a signal handler. */
static struct {
	int fd;               /* the terminal written to, or -1 */
	struct termios saved; /* its modes before curses */
	bool have_saved;
	char reset[256]; /* leave the alternate screen, show the cursor */
	size_t nreset;
	bool active;      /* curses is up */
	int stderr_saved; /* stderr while it goes to a file */
	FILE *stderr_file;
	int keyfd; /* where keys are read: stdin or /dev/tty */
} term = {-1, {0}, false, {0}, 0, false, -1, NULL, -1};

/* A crash must not leave the terminal in raw mode on the alternate
 * screen: restore it with async-signal-safe calls, then die as asked. */
static void
on_fatal(int sig)
{
	sig_fatal_first();
	if (term.active && term.fd >= 0) {
		(void)!write(term.fd, term.reset, term.nreset);
		if (term.have_saved)
			tcsetattr(term.fd, TCSAFLUSH, &term.saved);
	}
	if (sig == SIGBUS)
		sig_bus_say(term.stderr_saved >= 0 ? term.stderr_saved : STDERR_FILENO);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Leave curses and give back what went to stderr meanwhile. */
static void
ui_restore(void)
{
	if (term.active) {
		term.active = false;
		curs_set(1);
		endwin();
		if (term.have_saved)
			tcsetattr(term.fd, TCSAFLUSH, &term.saved);
	}
	if (term.stderr_saved >= 0) {
		char buf[4096];
		size_t n;

		fflush(stderr);
		dup2(term.stderr_saved, STDERR_FILENO);
		close(term.stderr_saved);
		term.stderr_saved = -1;
		if (term.stderr_file != NULL) {
			rewind(term.stderr_file);
			while ((n = fread(buf, 1, sizeof buf, term.stderr_file)) > 0)
				fwrite(buf, 1, n, stderr);
			fclose(term.stderr_file);
			term.stderr_file = NULL;
		}
	}
}

/* Signals wake the loop through sig.c's self-pipe (SIGCHLD is the
 * runner's); a crash restores the terminal before dying. */
static void
install_signals(void)
{
	struct sigaction sa;
	static const int loop_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGWINCH};
	static const int fatal_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

	for (size_t i = 0; i < ARRAY_LEN(loop_sigs); i++)
		sig_watch(loop_sigs[i]);
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_fatal;
	for (size_t i = 0; i < ARRAY_LEN(fatal_sigs); i++)
		sigaction(fatal_sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Remember the escape strings that undo what curses does to the
 * terminal, for on_fatal. */
static void
save_reset(void)
{
	static const char *const caps[] = {"sgr0", "cnorm", "rmcup"};

	term.nreset = 0;
	for (size_t i = 0; i < ARRAY_LEN(caps); i++) {
		char *s = tigetstr(caps[i]);
		size_t n;

		if (s == NULL || s == (char *)-1)
			continue;
		n = strlen(s);
		if (term.nreset + n < sizeof term.reset) {
			memcpy(term.reset + term.nreset, s, n);
			term.nreset += n;
		}
	}
}

void
ui_note(struct ui *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->note, sizeof u->note, fmt, ap);
	va_end(ap);
	u->note_until = clock_mono_ms() + 5000;
	u->note_news = false;
	u->held[0] = '\0';
	u->dirty = true;
}

bool
ui_too_small(struct ui *u, int rows)
{
	struct buf s = {0};

	if (COLS >= 40 && LINES >= 10)
		return false;
	buf_addf(&s, "too small: %d" GLYPH_TIMES "%d < 40" GLYPH_TIMES "10", COLS, LINES);
	for (int y = 0; y < rows && y < LINES; y++) {
		size_t used = 0;

		ui_undrawn(u, y);
		move(y, 0);
		/* Cut to the width: ui_put leaves the cursor where it was
		 * when the text runs past the edge. */
		if (y == (rows - 1) / 2)
			ui_put(u, s.p, text_fit(s.p, s.n, (size_t)MAX(COLS, 0), &used),
			       ROLE_STATUS_WARN);
		ui_blank(u, COLS - (int)used, ROLE_NORMAL);
	}
	buf_free(&s);
	return true;
}

void
ui_question(struct ui *u, const char *question)
{
	const struct rect *r = &u->lay.status;
	struct status_in in = {0};

	if (r->h <= 0 || r->w <= 0)
		return;
	in.question = question;
	status_build(u->m, &in, r->w, &u->line);
	ui_draw_rline(u, r->y, r->x, &u->line, ROLE_NORMAL);
}

/* --- a program in the terminal ------------------------------------------- */

void
ui_suspend(struct ui *u, int *in_fd, int *err_fd)
{
	(void)u;
	def_prog_mode();
	endwin();
	fflush(stdout);
	*in_fd = term.keyfd >= 0 ? term.keyfd : STDIN_FILENO;
	*err_fd = term.stderr_saved >= 0 ? term.stderr_saved : STDERR_FILENO;
}

void
ui_resume(struct ui *u)
{
	/* What a program stopped half way may have left on: mouse reports,
	 * bracketed paste. The next frame sets curses' own modes again (the
	 * terminal's, the alternate screen, the keypad, the mouse when it is
	 * ours, the cursor) and draws every cell. */
	static const char undo[] = "\033[?1000l\033[?1002l\033[?1003l"
				   "\033[?1006l\033[?2004l";

	if (term.fd >= 0)
		(void)!write(term.fd, undo, sizeof undo - 1);
	reset_prog_mode();
	clearok(curscr, TRUE);
	ui_forget_rows(u);
	u->dirty = true;
}

/* --- the transcript's rows, for view.c ------------------------------------ */

/* The rows of the item at position pos of the order the transcript is
 * read in (model_order.c: a sub-agent's items under its task's). */
static uint32_t
transcript_rows(void *ctx, uint32_t pos)
{
	struct ui *u = ctx;
	uint32_t it = model_order_item(u->m, pos);

	return it != NONE ? render_rows(&u->r, it) : 0;
}

/* --- the command, the bell, the title ----------------------------------- */

/* With --bell: ring when a call fails, is rejected or errs, and when the
 * newest session ends. */
static void
ui_bell(struct ui *u)
{
	struct model *m = u->m;
	uint32_t bad = 0;
	int state = -1;
	bool live = false;

	if (m->nses > 0) {
		uint32_t counts[CS_NSTATES];

		for (size_t s = 0; s < m->nses; s++) {
			model_session_counts(m, (uint32_t)s, counts);
			bad += counts[CS_FAILED] + counts[CS_REJECTED] + counts[CS_ERROR];
		}
		state = model_session_state(m, (uint32_t)(m->nses - 1));
	}
	/* What a file holds when it opens is not news: ring for live input. */
	for (size_t i = 0; i < u->in->n; i++)
		live |= u->in->live[i];
	if (u->opt.ring && live && u->frames > 0 &&
	    ((bad > u->bad_calls) || (u->last_state == SS_LIVE && state != SS_LIVE && state >= 0)))
		beep();
	/* --notify, --notify-cmd of one live stream (the list tells its own). */
	if (u->opt.tell != NULL && u->opt.fleet == NULL && live)
		notify_model(u->opt.tell, &u->told, m, u->opt.tell_file);
	u->bad_calls = bad;
	u->last_state = state;
}

/* Reap the command when it ends, stop it when it stops on the terminal,
 * and say how it ended. */
static void
ui_command(struct ui *u)
{
	struct runner *run = u->opt.run;
	bool was = run->done;

	if (run->stop_signal != 0 && !run->stopping) {
		ui_note(u, "the command tried to read the terminal: stopped it");
		runner_stop(run, RUNNER_GRACE_MS);
	}
	if (runner_check(run) && !was) {
		struct buf msg = {0};

		if (runner_no_json(run, &msg))
			ui_note(u, "%s", msg.p);
		else if (run->signal != 0)
			ui_note(u, "the command was killed by signal %d", run->signal);
		else
			ui_note(u, "the command exited with status %d", run->exit_status);
		if (msg.n > 0)
			u->note_until = clock_mono_ms() + 3600000;
		buf_free(&msg);
		u->dirty = true;
		ui_bell(u);
	}
}

/* With --title: "agentview: ✓ done · Grok 4.7 · 17e650d2" as the window
 * (tmux pane) title, made of sanitized text only; restored on the way out
 * to "agentview". */
static void
ui_set_title(struct ui *u, bool leaving)
{
	struct buf raw = {0}, t = {0};
	struct model *m = u->m;

	buf_adds(&raw, "agentview");
	if (!leaving && model_nsessions(m) > 0) {
		uint32_t s = (uint32_t)(model_nsessions(m) - 1);

		buf_adds(&raw, ": ");
		buf_adds(&raw, model_session_state_name(model_session_state(m, s)));
		if (m->ses[s].init_ev != NONE) {
			size_t mark = raw.n;

			buf_adds(&raw, " " GLYPH_DOT " ");
			if (!model_fact(m, s, FACT_MODEL, &raw))
				raw.n = mark;
			mark = raw.n;
			buf_adds(&raw, " " GLYPH_DOT " ");
			if (model_fact(m, s, FACT_ID, &raw)) {
				size_t id = mark + strlen(" " GLYPH_DOT " ");

				raw.n = id + redact_cut(raw.p + id, raw.n - id, 8);
			} else {
				raw.n = mark;
			}
		}
	}
	/* Cut, like every stream text, never through a secret. */
	text_sanitize(&t, raw.p, redact_cut(raw.p, raw.n, 200), TEXT_ONELINE);
	if (u->title.n != t.n || memcmp(u->title.p ? u->title.p : "", t.p, t.n) != 0) {
		buf_reset(&u->title);
		buf_add(&u->title, t.p, t.n);
		/* OSC 2, written past curses: it has no notion of titles. */
		fprintf(stdout, "\033]2;%s\033\\", t.p);
		fflush(stdout);
	}
	buf_free(&raw);
	buf_free(&t);
}

/* --- the layer stack ------------------------------------------------------ */

void
ui_layer_push(struct ui *u, const struct pane_ops *ops, void *st)
{
	if (ui_layer_find(u, ops) != NULL || u->nlayer == UI_LAYERS)
		die("the %s layer cannot go on the stack", ops->name);
	u->layer[u->nlayer++] = (struct layer){ops, st};
	u->dirty = true;
}

struct layer *
ui_layer_find(struct ui *u, const struct pane_ops *ops)
{
	for (int i = 0; i < u->nlayer; i++)
		if (u->layer[i].ops == ops)
			return &u->layer[i];
	return NULL;
}

void
ui_layer_pop(struct ui *u, const struct pane_ops *ops)
{
	struct layer *l = ui_layer_find(u, ops);
	void *st;

	if (l == NULL)
		return;
	st = l->st;
	u->nlayer--;
	memmove(l, l + 1, (size_t)(u->layer + u->nlayer - l) * sizeof *l);
	u->dirty = true;
	if (ops->close != NULL)
		ops->close(u, st);
}

/* The lowest layer drawn: the top one that covers the whole screen. */
static int
ui_layer_base(const struct ui *u)
{
	int i = u->nlayer - 1;

	while (i > 0 && !u->layer[i].ops->opaque)
		i--;
	return MAX(i, 0);
}

/* --- drawing --------------------------------------------------------------- */

/* Draw the layers from the base up. The stack is copied first: a layer may
 * leave it while it draws (a detail whose call is gone). */
static void
ui_draw_layers(struct ui *u)
{
	struct layer stack[UI_LAYERS];
	int n = u->nlayer, base = ui_layer_base(u);
	bool over = false;

	memcpy(stack, u->layer, sizeof stack);
	for (int i = base + 1; i < n; i++)
		over |= stack[i].ops->draw != NULL;
	ui_drawn_begin(u, over);
	for (int i = base; i < n; i++) {
		struct layer *l = ui_layer_find(u, stack[i].ops);

		if (l != NULL && l->ops->draw != NULL)
			l->ops->draw(u, l->st);
	}
}

/* Tell every layer, from the top down, that what it showed of the input
 * is gone. A layer may leave the stack as it is told (a detail). */
static void
ui_layers_reset(struct ui *u)
{
	struct layer stack[UI_LAYERS];
	int n = u->nlayer;

	memcpy(stack, u->layer, sizeof stack);
	for (int i = n - 1; i >= 0; i--) {
		struct layer *l = ui_layer_find(u, stack[i].ops);

		if (l != NULL && l->ops->reset != NULL)
			l->ops->reset(u, l->st);
	}
}

/* A frame: the layout for the terminal's size, the layers, one update of
 * the terminal. */
static void
ui_draw(struct ui *u)
{
	int rows, cols;

	getmaxyx(stdscr, rows, cols);
	/* The clock of live states (a replay's layer sets its own). */
	u->m->now_ms = clock_wall_ms();
	view_layout(rows, cols, u->focus, &u->lay);
	ui_draw_layers(u);
	wnoutrefresh(stdscr);
	doupdate();
	if (u->frames == 0)
		u->first_frame_us = clock_mono_us();
	if (u->opt.title)
		ui_set_title(u, false);
	u->frames++;
	u->dirty = false;
}

/* --- keys ------------------------------------------------------------------ */

int
ui_body_height(struct ui *u, enum pane p)
{
	int h = u->lay.body[p].h;

	return h > 0 ? h : MAX(1, LINES - 2);
}

bool
ui_following(const struct ui *u)
{
	return u->ts.follow && (input_grows(u->in) || u->opt.replay);
}

/* The command is still running: stopping it needs a yes. */
static bool
command_running(const struct ui *u)
{
	return u->opt.run != NULL && !u->opt.run->reaped;
}

static const struct pane_ops ask_ops;

/* Quit, or, while the command runs, ask first. */
static void
ui_ask_quit(struct ui *u)
{
	if (!command_running(u)) {
		u->quit = true;
		return;
	}
	if (ui_layer_find(u, &ask_ops) == NULL)
		ui_layer_push(u, &ask_ops, NULL);
}

/* Stop the command (SIGTERM, then SIGKILL after the grace period) and
 * quit; say so on screen first, the wait can take seconds. */
static void
ui_stop_and_quit(struct ui *u)
{
	ui_layer_pop(u, &ask_ops);
	if (command_running(u)) {
		snprintf(u->note, sizeof u->note, "stopping %s...",
			 u->m->cmd.argv && u->m->cmd.argv[0] ? u->m->cmd.argv[0] : "the command");
		u->note_until = clock_mono_ms() + 60000;
		ui_draw(u);
		runner_stop(u->opt.run, RUNNER_GRACE_MS);
	}
	u->quit = true;
}

/* The question, in place of the status bar. */
static void
ask_draw(struct ui *u, void *st)
{
	(void)st;
	ui_question(u, "the command is still running: stop it and quit? (y/n)");
}

/* y stops the command and quits; any other key is a no. */
static bool
ask_key(struct ui *u, void *st, int key)
{
	(void)st;
	if (key == 'y' || key == 'Y')
		ui_stop_and_quit(u);
	else
		ui_layer_pop(u, &ask_ops);
	return true;
}

/* A click is a no too. */
static bool
ask_mouse(struct ui *u, void *st, const struct ui_mouse *ev)
{
	(void)ev;
	return ask_key(u, st, K_MOUSE);
}

/* The only question: stop the running command and quit? */
static const struct pane_ops ask_ops = {
	.name = "question",
	.modal = true,
	.draw = ask_draw,
	.key = ask_key,
	.mouse = ask_mouse,
};

/* The keys no layer took: quit, redraw, secrets hidden or shown. */
static void
ui_screen_key(struct ui *u, int key)
{
	switch (keys_lookup(KC_GLOBAL, key)) {
	case ACT_QUIT:
		ui_ask_quit(u);
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACT_REDACT:
		/* Every row is made again: the blocks, the detail (stale). */
		ui_note(u, "secrets %s", redact_toggle() ? "hidden" : "shown");
		render_flush(&u->r);
		u->dirty = true;
		break;
	case ACT_NONE: {
		/* No layer took it: said, with where to find the keys. */
		struct buf name = {0}, say = {0};

		keys_name(key, &name);
		text_sanitize(&say, name.p, name.n, TEXT_ONELINE);
		ui_note(u, "no such key: %s (? for help)", say.p);
		buf_free(&name);
		buf_free(&say);
		break;
	}
	default:
		break;
	}
}

/* Offer a key, or a mouse event when ev is not NULL, to the layers from
 * the top down, until one takes it; false when none did. */
static bool
ui_offer(struct ui *u, int key, const struct ui_mouse *ev)
{
	for (int i = u->nlayer - 1; i >= 0; i--) {
		const struct pane_ops *ops = u->layer[i].ops;
		void *st = u->layer[i].st;

		if (ev != NULL ? ops->mouse != NULL && ops->mouse(u, st, ev)
			       : ops->key != NULL && ops->key(u, st, key))
			return true;
		if (ops->modal)
			return true;
	}
	return false;
}

/* A key, or the mouse, goes to the top layer that takes it. */
static void
ui_key(struct ui *u, int key)
{
	struct ui_mouse ev;

	u->dirty = true;
	if (key == K_MOUSE) {
		if (ui_mouse_read(&ev))
			ui_offer(u, key, &ev);
		return;
	}
	if (!ui_offer(u, key, NULL))
		ui_screen_key(u, key);
}

/* The key code of keys.h for a curses function key. */
static int
ui_fkey(int k)
{
	switch (k) {
	case KEY_UP:
		return K_UP;
	case KEY_DOWN:
		return K_DOWN;
	case KEY_LEFT:
		return K_LEFT;
	case KEY_RIGHT:
		return K_RIGHT;
	case KEY_SLEFT:
		return K_SLEFT;
	case KEY_SRIGHT:
		return K_SRIGHT;
	case KEY_PPAGE:
		return K_PGUP;
	case KEY_NPAGE:
		return K_PGDN;
	case KEY_HOME:
		return K_HOME;
	case KEY_END:
		return K_END;
	case KEY_ENTER:
		return K_ENTER;
	case KEY_BTAB:
		return K_BTAB;
	case KEY_MOUSE:
		return K_MOUSE;
	case KEY_BACKSPACE:
		return K_BACKSPACE;
	case KEY_F(1):
		return K_F1;
	default:
		return K_OTHER;
	}
}

/* Read every key waiting; curses buffers some, so read until ERR. */
static void
ui_read_keys(struct ui *u)
{
	wint_t wch;
	int r;

	while ((r = wget_wch(stdscr, &wch)) != ERR) {
		if (r == KEY_CODE_YES) {
			if (wch == KEY_RESIZE) {
				ui_forget_rows(u);
				u->dirty = true;
				continue;
			}
			ui_key(u, ui_fkey((int)wch));
		} else {
			ui_key(u, wch == 27 ? K_ESC : (int)wch);
		}
		if (u->quit)
			return;
	}
}

/* The screen on the terminal, at most VIEW_MAX_ROWS x VIEW_MAX_COLS from
 * the start: curses takes a size from LINES and COLUMNS before the
 * terminal's, so they say the capped one while it starts (and are put
 * back after, for the editor and the pager). */
static SCREEN *
capped_newterm(FILE *in)
{
	static const char *const names[2] = {"LINES", "COLUMNS"};
	struct winsize ws;
	char *was[2] = {NULL, NULL}, num[16];
	int size[2];
	SCREEN *scr;

	if (ioctl(term.fd, TIOCGWINSZ, &ws) != 0 ||
	    (ws.ws_row <= VIEW_MAX_ROWS && ws.ws_col <= VIEW_MAX_COLS))
		return newterm(NULL, stdout, in);
	size[0] = ws.ws_row;
	size[1] = ws.ws_col;
	view_cap(&size[0], &size[1]);
	for (int i = 0; i < 2; i++) {
		if (getenv(names[i]) != NULL)
			was[i] = xstrdup(getenv(names[i]));
		snprintf(num, sizeof num, "%d", size[i]);
		setenv(names[i], num, 1);
	}
	scr = newterm(NULL, stdout, in);
	for (int i = 0; i < 2; i++) {
		if (was[i] != NULL)
			setenv(names[i], was[i], 1);
		else
			unsetenv(names[i]);
		free(was[i]);
	}
	return scr;
}

/* Take the new size from the terminal (SIGWINCH), capped (view_cap). */
static void
ui_resize(struct ui *u)
{
	struct winsize ws;
	int rows, cols;

	if (ioctl(term.fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
		rows = ws.ws_row;
		cols = ws.ws_col;
		view_cap(&rows, &cols);
		resizeterm(rows, cols);
	}
	ui_forget_rows(u);
	u->dirty = true;
}

static void
ui_signals(struct ui *u)
{
	sig_drain();
	/* The command's end, if its SIGCHLD came after ui_changes looked:
	 * drained above, it would wake no poll. */
	if (sig_take(SIGCHLD) && u->opt.run != NULL)
		ui_command(u);
	if (sig_take(SIGWINCH))
		ui_resize(u);
	/* Told to go from outside: no questions. */
	if (sig_take(SIGTERM) || sig_take(SIGHUP))
		ui_stop_and_quit(u);
	/* Ctrl-C asks like q; a second one while asking means yes. */
	if (sig_take(SIGINT)) {
		if (ui_layer_find(u, &ask_ops) != NULL)
			ui_stop_and_quit(u);
		else
			ui_ask_quit(u);
	}
}

/* Called for each line the input hands to the model. */
static void
ui_on_line(void *ctx, const struct source *s, const struct line *ln, uint32_t ev)
{
	struct ui *u = ctx;
	size_t i = (size_t)(s - u->in->src);

	(void)ln;
	if (ev == NONE)
		return;
	u->dirty = true;
	/* Only what arrives live is news; a file read at once is not. */
	if (!u->ts.follow && i < u->in->n && u->in->live[i])
		u->ts.unseen++;
}

/* The sooner of two timeouts (< 0: none). */
static int
sooner(int a, int b)
{
	return b >= 0 && (a < 0 || b < a) ? b : a;
}

/* Milliseconds to wait in poll: a frame due, a layer's own time, the note
 * going away, the command's. */
static int
ui_timeout(struct ui *u, bool more, int64_t last_frame)
{
	int64_t now = clock_mono_ms();
	int wait = -1;

	if (more)
		return 0;
	if (u->dirty)
		return (int)MAX(0, FRAME_MS - (now - last_frame));
	for (int i = 0; i < u->nlayer; i++)
		if (u->layer[i].ops->due != NULL)
			wait = sooner(wait, u->layer[i].ops->due(u, u->layer[i].st));
	if (u->note[0] != '\0')
		wait = sooner(wait, (int)MAX(0, MIN(u->note_until - now, INT32_MAX)));
	if (u->opt.run != NULL)
		wait = sooner(wait, runner_timeout(u->opt.run));
	return wait;
}

/* Open the terminal: keys from stdin when it is the terminal, else from
 * /dev/tty (stdin carries the events). */
static int
ui_open(struct ui *u)
{
	FILE *in = NULL;
	SCREEN *scr;
	struct buf err = {0};

	if (u->opt.keys_stdin) {
		in = stdin;
	} else {
		in = fopen("/dev/tty", "r");
		if (in == NULL)
			return -1;
	}
	term.fd = STDOUT_FILENO;
	if (tcgetattr(term.fd, &term.saved) == 0)
		term.have_saved = true;
	install_signals();
	scr = capped_newterm(in);
	if (scr == NULL)
		return -1;
	set_term(scr);
	term.active = true;
	term.keyfd = fileno(in);
	die_set_hook(ui_restore);
	save_reset();
	/* Anything written to stderr meanwhile would tear the screen. */
	term.stderr_file = tmpfile();
	if (term.stderr_file != NULL) {
		fflush(stderr);
		term.stderr_saved = dup(STDERR_FILENO);
		dup2(fileno(term.stderr_file), STDERR_FILENO);
	}
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	ui_theme_setup(u, &err);
	if (err.n > 0) {
		ui_note(u, "%s (default theme used)", err.p);
		u->note_until = clock_mono_ms() + THEME_NOTE_MS;
	}
	buf_free(&err);
	return fileno(in);
}

/* The viewer's state before the terminal is opened. */
static void
ui_init(struct ui *u, struct model *m, struct input *in, const struct ui_opts *opt)
{
	memset(u, 0, sizeof *u);
	u->m = m;
	u->in = in;
	u->opt = *opt;
	u->focus = PANE_TRANSCRIPT;
	u->tsel = NONE;
	render_init(&u->r, m);
	scroll_init(&u->ts, opt->follow);
	list_init(&u->tl);
	u->tl.follow = opt->follow;
	u->rows.rows = transcript_rows;
	u->rows.ctx = u;
	input_on_line(in, ui_on_line, u);
}

void
ui_session(struct ui *u, struct model *m, struct input *in, bool follow)
{
	bool markdown = u->r.markdown;

	render_free(&u->r);
	render_init(&u->r, m);
	/* How replies read is the reader's choice, whatever the session. */
	render_set_markdown(&u->r, markdown);
	u->m = m;
	u->in = in;
	input_on_line(in, ui_on_line, u);
	u->restarts = in->restarts;
	u->changes = in->changes;
	u->focus = PANE_TRANSCRIPT;
	u->tsel = NONE;
	scroll_init(&u->ts, follow);
	list_init(&u->tl);
	u->tl.follow = follow;
	u->bad_calls = 0;
	u->last_state = -1;
	ui_layers_reset(u);
	ui_forget_rows(u);
	u->dirty = true;
}

/* The input was read again from its start: what the screen showed of it
 * is gone. */
static void
ui_restarted(struct ui *u)
{
	u->restarts = u->in->restarts;
	render_flush(&u->r);
	scroll_init(&u->ts, u->ts.follow);
	list_init(&u->tl);
	u->tl.follow = u->ts.follow;
	ui_note(u, "%s", u->in->note.p ? u->in->note.p : "input read again");
	ui_layers_reset(u);
}

/* What changed besides the keys since the last look: the input (read
 * again, or new lines), the command. */
static void
ui_changes(struct ui *u)
{
	if (u->in->restarts != u->restarts)
		ui_restarted(u);
	if (u->opt.run != NULL)
		ui_command(u);
	if (u->in->changes != u->changes) {
		u->changes = u->in->changes;
		u->dirty = true;
		ui_bell(u);
	}
}

/* Each layer's work between frames, from the bottom up; true while one
 * has more to do at once. */
static bool
ui_layers_work(struct ui *u)
{
	struct layer stack[UI_LAYERS];
	int n = u->nlayer;
	bool more = false;

	memcpy(stack, u->layer, sizeof stack);
	for (int i = 0; i < n; i++) {
		struct layer *l = ui_layer_find(u, stack[i].ops);

		if (l != NULL && l->ops->work != NULL)
			more |= l->ops->work(u, l->st);
	}
	return more;
}

/* What the remote sources have to say (a host reconnecting, a session
 * fetching: said until it is over), in the note. The note such news
 * covers (the hint of a session just opened) comes back beside the news
 * that ends it ("fetched"). */
static void
ui_remote_news(struct ui *u)
{
	struct buf news = {0};
	char held[sizeof u->held];
	bool lasting;

	if (remote_news(&news, &lasting)) {
		memcpy(held, u->note_news ? u->held : u->note, sizeof held);
		if (!lasting && held[0] != '\0' && u->note_news)
			ui_note(u, "%s " GLYPH_DOT " %s", news.p, held);
		else
			ui_note(u, "%s", news.p);
		u->note_news = true;
		if (lasting) {
			u->note_until = INT64_MAX;
			memcpy(u->held, held, sizeof u->held);
		}
	}
	buf_free(&news);
}

/* Sleep in poll until the terminal, a signal, the input (unless it is a
 * trickle and a frame is due anyway) or a layer's descriptor has
 * something, or a timeout. */
static void
ui_wait(struct ui *u, int ttyfd, bool more, bool trickle, int64_t last_frame)
{
	struct pollfd fds[INPUT_MAX + 3 + UI_LAYERS];
	int n = 0;

	fds[n].fd = ttyfd;
	fds[n].events = POLLIN;
	n++;
	fds[n].fd = sig_fd();
	fds[n].events = POLLIN;
	n++;
	if (!(u->dirty && trickle))
		n += input_pollfds(u->in, fds + n, INPUT_MAX);
	for (int i = 0; i < u->nlayer; i++) {
		const struct layer *l = &u->layer[i];

		if (l->ops->fd != NULL && (fds[n].fd = l->ops->fd(u, l->st)) >= 0) {
			fds[n].events = POLLIN;
			n++;
		}
	}
	if ((fds[n].fd = remote_news_fd()) >= 0) {
		fds[n].events = POLLIN;
		n++;
	}
	if (poll(fds, (nfds_t)n, ui_timeout(u, more, last_frame)) < 0 && errno != EINTR)
		die("poll: %s", strerror(errno));
	ui_remote_news(u);
}

/* Leave: stop the command, give back the title and the terminal, say
 * the frame counts if asked, free everything. */
static void
ui_finish(struct ui *u)
{
	if (command_running(u))
		runner_stop(u->opt.run, RUNNER_GRACE_MS);
	if (u->opt.title)
		ui_set_title(u, true);
	ui_restore();
	die_set_hook(NULL);
	if (u->opt.framestat)
		fprintf(stderr, "agentview-framestat: frames=%ld first_frame_ms=%.1f run_ms=%.0f\n",
			u->frames, (double)(u->first_frame_us - u->opt.started_us) / 1000,
			(double)(clock_mono_us() - u->opt.started_us) / 1000);
	while (u->nlayer > 0)
		ui_layer_pop(u, u->layer[u->nlayer - 1].ops);
	notify_watch_free(&u->told);
	render_free(&u->r);
	free(u->drawn);
	buf_free(&u->title);
	rline_free(&u->line);
	input_on_line(u->in, NULL, NULL);
}

int
ui_run(struct model *m, struct input *in, const struct ui_opts *opt, void (*open)(struct ui *u))
{
	struct ui u;
	int ttyfd;
	int64_t last_frame = 0;

	ui_init(&u, m, in, opt);
	ttyfd = ui_open(&u);
	if (ttyfd < 0) {
		ui_restore();
		render_free(&u.r);
		return -1;
	}
	ui_mouse_init(&u);
	open(&u);
	if (opt->note != NULL) {
		ui_note(&u, "%s", opt->note);
		u.note_until = INT64_MAX;
	}
	while (!u.quit) {
		uint64_t bytes = u.m->bytes;
		bool more = input_pump(u.in, PUMP_BUDGET);
		bool trickle = u.m->bytes >= bytes && u.m->bytes - bytes < TRICKLE_BYTES;

		ui_changes(&u);
		ui_signals(&u);
		ui_read_keys(&u);
		if (u.quit)
			break;
		more |= ui_layers_work(&u);
		if (u.note[0] != '\0' && clock_mono_ms() >= u.note_until) {
			u.note[0] = '\0';
			u.dirty = true;
		}
		if (u.dirty && clock_mono_ms() - last_frame >= FRAME_MS) {
			ui_draw(&u);
			last_frame = clock_mono_ms();
			if (u.opt.frames > 0 && u.frames >= u.opt.frames)
				break;
		}
		ui_wait(&u, ttyfd, more, trickle, last_frame);
	}
	ui_finish(&u);
	return 0;
}
