/* ui_take.c: what leaves the viewer. y and Y put a text on the clipboard
 * with OSC 52, written to the terminal past curses (as the title is); e
 * opens a call's file in the user's editor and o an output in the pager,
 * each run in the terminal handed over by ui_suspend and taken back by
 * ui_resume, whatever way it ends (the session list's Y, o and e too).
 * copy.c, open.c and fleet_print.c say what is taken. */
#include "ui.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "copy.h"
#include "detail.h"
#include "open.h"
#include "remote.h"
#include "sig.h"
#include "text.h"

/* A file's path as a note says it: sanitized, at most 60 cells. */
static void
say_path(struct buf *out, const char *path)
{
	struct buf clean = {0};

	text_sanitize(&clean, path, strlen(path), TEXT_ONELINE);
	text_path_fit(out, clean.p, clean.n, 60);
	buf_free(&clean);
}

/* The file of the session shown, when it is another machine's mirror
 * (remote.h): that machine; else NULL. */
static const char *
take_file(const struct ui *u)
{
	return u->in != NULL && u->in->n > 0 ? u->in->src[0].name : NULL;
}

/* --- the clipboard -------------------------------------------------------- */

/* Put what the screen shows of s[0..n), which is `what`, on the
 * clipboard (copy_gate), and say so; a command that may not reach a shell
 * is not copied, and that is said. False when nothing was copied. */
static bool
take_copy(struct ui *u, const char *what, const char *s, size_t n)
{
	struct buf seq = {0}, shown = {0}, why = {0};
	size_t sent;

	if (!copy_gate(what, s, n, &shown, &why)) {
		ui_note(u, "%s", why.p);
		buf_free(&why);
		return false;
	}
	sent = copy_osc52(&seq, shown.p, shown.n, COPY_MAX);
	fwrite(seq.p, 1, seq.n, stdout);
	fflush(stdout);
	if (sent < shown.n)
		ui_note(u, "copied the first %zu bytes of the %s (OSC 52 carries %u KiB at most)",
			sent, what, COPY_MAX >> 10);
	else
		ui_note(u, "copied the %s, %zu byte%s", what, shown.n, shown.n == 1 ? "" : "s");
	buf_free(&seq);
	buf_free(&shown);
	return true;
}

/* The item the main panes' y, e and o act on: the timeline's call; in the
 * transcript the selected item while it shows, else the first call,
 * prompt or reply on screen. */
static uint32_t
take_item(struct ui *u)
{
	struct model *m = u->m;
	int h = ui_body_height(u, PANE_TRANSCRIPT);

	if (u->focus == PANE_TIMELINE)
		return u->tl.sel != NONE && u->tl.sel < model_ncalls(m)
			       ? m->call[model_order_call(m, u->tl.sel)].item
			       : NONE;
	if (u->tsel != NONE && u->tsel < model_nitems(m) && ui_jump_on_screen(u, u->tsel, 0))
		return u->tsel;
	for (int y = 0; y < h; y++) {
		uint32_t it = ui_jump_item_at(u, y);

		if (it == NONE)
			break;
		if (m->it[it].type == IT_TOOL || m->it[it].type == IT_PROMPT ||
		    m->it[it].type == IT_TEXT)
			return it;
	}
	return NONE;
}

/* y on an item: a call's command or path, and its output when y comes
 * again while the note of the first one shows (or when it has no
 * target); a prompt's or a reply's text. */
static void
take_yank(struct ui *u, uint32_t it, struct ui_copied *last)
{
	struct model *m = u->m;
	struct buf b = {0};
	const char *what = NULL;
	uint32_t c = m->it[it].type == IT_TOOL ? m->it[it].ref : NONE, next = NONE;

	if (c == NONE) {
		what = copy_item(m, it, &b);
	} else {
		if (last->call != c || clock_mono_ms() >= last->until) {
			what = copy_call_target(m, c, &b);
			next = c;
		}
		if (what == NULL) {
			what = copy_call_output(m, c, &b);
			next = NONE;
		}
	}
	if (what == NULL) {
		ui_note(u, "nothing to copy here (a call without output yet?)");
		return;
	}
	take_copy(u, what, b.p, b.n);
	/* The next y on the same call, while this note shows: its output. */
	last->call = next;
	last->until = u->note_until;
	buf_free(&b);
}

void
ui_take_resume(struct ui *u)
{
	struct model *m = u->m;
	uint32_t it = u->rows.n > 0 ? take_item(u) : NONE;
	uint32_t s = it != NONE ? m->it[it].session : (uint32_t)model_nsessions(m) - 1;
	struct buf b = {0}, why = {0};

	if (model_nsessions(m) == 0)
		ui_note(u, "the stream does not say the session's id: nothing to resume");
	else if (!copy_resume_on(m, s, remote_host_of(take_file(u)), remote_port_of(take_file(u)),
				 &b, &why))
		ui_note(u, "%s", why.p);
	else
		take_copy(u, "resume command", b.p, b.n);
	buf_free(&b);
	buf_free(&why);
}

/* --- a program in the terminal ------------------------------------------- */

/* Wait for pid, reading the input meanwhile (a live agent must not wait
 * on a full pipe). A stop from the terminal (Ctrl-Z in the editor) stops
 * agentview too, as a shell's job, and both go on together. */
static int
take_wait(struct ui *u, pid_t pid)
{
	struct pollfd fds[INPUT_MAX + 1];
	int st, n;
	bool more = false;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG | WUNTRACED);

		if (r == pid && WIFSTOPPED(st)) {
			raise(SIGSTOP);
			kill(pid, SIGCONT);
			continue;
		}
		if (r == pid)
			return st;
		if (r < 0 && errno != EINTR)
			return -1;
		more = input_pump(u->in, 8u << 20);
		n = input_pollfds(u->in, fds, INPUT_MAX);
		fds[n].fd = sig_fd();
		fds[n].events = POLLIN;
		fds[n].revents = 0;
		if (fds[n].fd >= 0)
			n++;
		if (poll(fds, (nfds_t)n, more ? 0 : 100) > 0 && sig_fd() >= 0)
			sig_drain();
	}
}

/* Run argv in the terminal until it ends: the wait status, or -1. The
 * program reads the terminal (not agentview's stdin, which may be the
 * stream) and writes its errors there (not to agentview's held stderr).
 * A Ctrl-C or Ctrl-\ typed to it is its own, not agentview's. */
static int
take_run(struct ui *u, char **argv)
{
	struct sigaction ign, quit, tstp;
	int in_fd, err_fd, st = -1;
	pid_t pid;

	memset(&ign, 0, sizeof ign);
	sigemptyset(&ign.sa_mask);
	ign.sa_handler = SIG_IGN;
	ui_suspend(u, &in_fd, &err_fd);
	sigaction(SIGQUIT, &ign, &quit);
	/* Not curses' handler: a stop is handled in take_wait. */
	sigaction(SIGTSTP, &ign, &tstp);
	pid = fork();
	if (pid == 0) {
		sig_child_reset();
		if (in_fd != STDIN_FILENO)
			dup2(in_fd, STDIN_FILENO);
		if (err_fd != STDERR_FILENO)
			dup2(err_fd, STDERR_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		st = take_wait(u, pid);
	sigaction(SIGQUIT, &quit, NULL);
	sigaction(SIGTSTP, &tstp, NULL);
	(void)sig_take(SIGINT);
	ui_resume(u);
	return st;
}

/* Say how the program run as `who` ended, when not well. */
static void
take_ended(struct ui *u, const char *who, int st)
{
	if (st == -1)
		ui_note(u, "could not run %s: %s", who, strerror(errno));
	else if (WIFSIGNALED(st))
		ui_note(u, "%s was killed by signal %d", who, WTERMSIG(st));
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		ui_note(u, "could not run %s (the shell did not find it)", who);
	else if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
		ui_note(u, "%s exited with status %d", who, WEXITSTATUS(st));
}

/* Whether file cannot be opened in the editor, said when so: it is not
 * there, not a regular file (a FIFO would hang the editor), or there is
 * no editor. */
static bool
edit_refused(struct ui *u, const char *file)
{
	const char *editor = open_editor();
	struct buf name = {0}, say = {0};
	struct stat st;
	bool refused = true;

	say_path(&say, file);
	if (stat(file, &st) != 0) {
		ui_note(u, "%s: %s", say.p, strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		ui_note(u, "%s is a directory", say.p);
	} else if (!S_ISREG(st.st_mode)) {
		ui_note(u, "%s is not a regular file", say.p);
	} else if (!open_program_found(editor, &name)) {
		buf_reset(&say);
		text_sanitize(&say, name.p, name.n, TEXT_ONELINE);
		ui_note(u, "no editor: %s was not found (set $VISUAL or $EDITOR)", say.p);
	} else {
		refused = false;
	}
	buf_free(&name);
	buf_free(&say);
	return refused;
}

/* Open file, absolute, at line (0: where the editor opens it) in the
 * editor. */
static void
take_edit(struct ui *u, const char *file, int64_t line)
{
	char **argv;

	if (edit_refused(u, file))
		return;
	argv = open_argv(open_editor(), file, line);
	take_ended(u, "the editor", take_run(u, argv));
	open_argv_free(argv);
}

/* The question before a path its session gives relative to no folder is
 * opened relative to agentview's own. */
struct ask_edit {
	struct buf path, dir; /* as said: sanitized, on one line */
	struct buf file;      /* absolute */
	int64_t line;
};

static const struct pane_ops ask_edit_ops;

/* The question, in place of the status bar: the path and the folder each
 * cut in the middle to fit, so that (y/n) shows on any width. */
static void
ask_edit_draw(struct ui *u, void *st)
{
	struct ask_edit *a = st;
	struct buf q = {0};
	int room = u->lay.status.w - (int)strlen(" open  relative to ? (y/n)");
	size_t all = (size_t)MAX(room, 8), pw = text_width(a->path.p, a->path.n);
	size_t dw = text_width(a->dir.p, a->dir.n);
	/* The path whole when it fits in half, the folder in the rest. */
	size_t pc = MIN(pw, MAX(all / 2, all > dw ? all - dw : 0));

	buf_adds(&q, "open ");
	text_path_fit(&q, a->path.p, a->path.n, pc);
	buf_adds(&q, " relative to ");
	text_path_fit(&q, a->dir.p, a->dir.n, all - pc);
	buf_adds(&q, "? (y/n)");
	ui_question(u, q.p);
	buf_free(&q);
}

/* y opens it; any other key is a no. */
static bool
ask_edit_key(struct ui *u, void *st, int key)
{
	struct ask_edit *a = st;
	struct buf file = a->file;
	int64_t line = a->line;

	a->file = (struct buf){0};
	ui_layer_pop(u, &ask_edit_ops);
	if (key == 'y' || key == 'Y')
		take_edit(u, file.p, line);
	else
		ui_note(u, "not opened");
	buf_free(&file);
	return true;
}

static bool
ask_edit_mouse(struct ui *u, void *st, const struct ui_mouse *ev)
{
	(void)ev;
	return ask_edit_key(u, st, K_MOUSE);
}

static void
ask_edit_close(struct ui *u, void *st)
{
	struct ask_edit *a = st;

	(void)u;
	buf_free(&a->path);
	buf_free(&a->dir);
	buf_free(&a->file);
	free(a);
}

static const struct pane_ops ask_edit_ops = {
	.name = "open?",
	.modal = true,
	.draw = ask_edit_draw,
	.key = ask_edit_key,
	.mouse = ask_edit_mouse,
	.close = ask_edit_close,
};

/* e on path, as open_resolve made it (abs: whether it is absolute), at
 * line: opened when absolute; a relative one only once the person says
 * yes to the folder it is opened in, agentview's own. */
static void
take_edit_path(struct ui *u, const struct buf *path, bool abs, int64_t line)
{
	struct buf dir = {0}, file = {0};
	struct ask_edit *a;
	const char *host = remote_host_of(take_file(u));

	if (host != NULL) {
		/* The same path here is another file, or none. */
		text_sanitize(&dir, path->p, path->n, TEXT_ONELINE);
		buf_reset(&file);
		text_path_fit(&file, dir.p, dir.n, 40);
		ui_note(u, "%s is on %s, not here: not opened (o shows what the call got)", file.p,
			host);
	} else if (memchr(path->p, '\0', path->n) != NULL) {
		ui_note(u, "the path holds a NUL byte: not opened");
	} else if (abs) {
		take_edit(u, path->p, line);
	} else if (!open_here(path->p, path->n, &dir, &file)) {
		ui_note(u, "the session says no folder, and agentview's own cannot be told: %s",
			strerror(errno));
	} else if (!edit_refused(u, file.p)) {
		a = xcalloc(1, sizeof *a);
		text_sanitize(&a->path, path->p, path->n, TEXT_ONELINE);
		text_sanitize(&a->dir, dir.p, dir.n, TEXT_ONELINE);
		a->file = file;
		file = (struct buf){0};
		a->line = line;
		ui_layer_push(u, &ask_edit_ops, a);
	}
	buf_free(&dir);
	buf_free(&file);
}

/* Show s[0..n) in the pager, from a private file removed after: what the
 * screen shows of it (its tabs and newlines kept, no control character
 * for a `less -R` to pass to the terminal; while secrets are hidden,
 * without them). */
static void
take_page(struct ui *u, const char *s, size_t n, const char *host)
{
	const char *pager = open_pager();
	struct buf path = {0}, err = {0}, name = {0}, say = {0}, clean = {0};
	char **argv;
	int st;

	text_sanitize(&clean, s, n, TEXT_TABS);
	s = clean.p;
	n = clean.n;
	if (!open_program_found(pager, &name)) {
		text_sanitize(&say, name.p, name.n, TEXT_ONELINE);
		ui_note(u, "no pager: %s was not found (set $PAGER)", say.p);
	} else if (open_temp(s, n, &path, &err) != 0) {
		ui_note(u, "%s", err.p);
	} else {
		/* Another machine's: a copy here, said so, its file read-only. */
		if (host != NULL)
			chmod(path.p, 0400);
		argv = open_argv(pager, path.p, 0);
		st = take_run(u, argv);
		take_ended(u, "the pager", st);
		if (host != NULL && st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
			ui_note(u, "shown from a copy of %s's session, read-only", host);
		open_argv_free(argv);
		unlink(path.p);
	}
	buf_free(&path);
	buf_free(&err);
	buf_free(&name);
	buf_free(&say);
	buf_free(&clean);
}

/* e on call c: its file at its line. */
static void
take_edit_call(struct ui *u, uint32_t c)
{
	struct buf path = {0}, why = {0};
	int64_t line;
	bool abs;

	if (open_call_file(u->m, c, &path, &abs, &line, &why))
		take_edit_path(u, &path, abs, line);
	else
		ui_note(u, "%s", why.p);
	buf_free(&path);
	buf_free(&why);
}

/* o on an item: a call's whole output, a reply's or a prompt's text. */
static void
take_page_item(struct ui *u, uint32_t it)
{
	struct model *m = u->m;
	struct buf b = {0};
	const char *what = m->it[it].type == IT_TOOL ? copy_call_output(m, m->it[it].ref, &b)
			   : m->it[it].type == IT_TEXT || m->it[it].type == IT_PROMPT ||
					   m->it[it].type == IT_THINKING
				   ? copy_item(m, it, &b)
				   : NULL;

	if (what == NULL)
		ui_note(u, "o shows a call's output or a reply: nothing of the kind here");
	else
		take_page(u, b.p, b.n, remote_host_of(take_file(u)));
	buf_free(&b);
}

void
ui_take_main(struct ui *u, enum action a, struct ui_copied *last)
{
	uint32_t it = take_item(u);

	if (it == NONE) {
		ui_note(u, "nothing selected: ] selects the next tool call");
		return;
	}
	if (a == ACT_COPY)
		take_yank(u, it, last);
	else if (a == ACT_PAGER)
		take_page_item(u, it);
	else if (u->m->it[it].type == IT_TOOL)
		take_edit_call(u, u->m->it[it].ref);
	else
		ui_note(u, "e opens a tool call's file: ] selects the next call");
}

/* The whole detail as text, its lines not wrapped: what y copies on a
 * row that is in no part of it. */
static void
take_detail_text(struct ui *u, const struct detail *shown, struct buf *out)
{
	struct detail d;

	detail_init(&d, u->m);
	detail_build(&d, shown->call, 4000, shown->raw);
	for (size_t i = 0; i < d.nrow; i++) {
		buf_addf(out, "%*s", d.row[i].indent, "");
		buf_add(out, d.text.p + d.row[i].off, d.row[i].len);
		buf_addc(out, '\n');
	}
	detail_free(&d);
}

/* e in a detail: a file's line the cursor row shows (a read's, a grep
 * match's), else the call's file at its line. */
static void
take_edit_row(struct ui *u, const struct detail *d, size_t row)
{
	const struct dsection *sec = detail_section_at(d, row);
	int64_t line = detail_row_line(d, row);
	struct buf path = {0}, why = {0};
	int64_t call_line;
	bool abs;

	if (sec != NULL && sec->file_len > 0) {
		abs = open_resolve(u->m, u->m->call[d->call].session, d->taken.p + sec->file_off,
				   sec->file_len, &path);
		take_edit_path(u, &path, abs, line);
	} else if (open_call_file(u->m, d->call, &path, &abs, &call_line, &why)) {
		take_edit_path(u, &path, abs, line > 0 ? line : call_line);
	} else {
		ui_note(u, "%s", why.p);
	}
	buf_free(&path);
	buf_free(&why);
}

void
ui_take_detail(struct ui *u, enum action a, const struct detail *d, size_t row)
{
	const struct dsection *sec = detail_section_at(d, row);
	struct buf b = {0};

	if (a == ACT_COPY && sec != NULL) {
		take_copy(u, sec->name, d->taken.p + sec->off, sec->len);
	} else if (a == ACT_COPY) {
		take_detail_text(u, d, &b);
		take_copy(u, "whole detail", b.p, b.n);
	} else if (a == ACT_EDIT) {
		take_edit_row(u, d, row);
	} else if (a == ACT_PAGER) {
		take_page_item(u, u->m->call[d->call].item);
	}
	buf_free(&b);
}

void
ui_take_copy(struct ui *u, const char *what, const char *s, size_t n)
{
	take_copy(u, what, s, n);
}

void
ui_take_page(struct ui *u, const char *s, size_t n, const char *host)
{
	take_page(u, s, n, host);
}

void
ui_take_edit_copy(struct ui *u, const char *file, const char *host)
{
	struct buf b = {0}, path = {0}, err = {0};
	FILE *fp;
	char chunk[65536];
	size_t got;

	if (edit_refused(u, file))
		return;
	fp = fopen(file, "rb");
	while (fp != NULL && (got = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_add(&b, chunk, got);
	if (fp == NULL || ferror(fp)) {
		ui_note(u, "the copy of %s's session cannot be read: %s", host, strerror(errno));
	} else if (open_temp(b.p != NULL ? b.p : "", b.n, &path, &err) != 0) {
		ui_note(u, "%s", err.p);
	} else {
		char **argv = open_argv(open_editor(), path.p, 0);
		int st;

		chmod(path.p, 0400);
		st = take_run(u, argv);
		take_ended(u, "the editor", st);
		if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
			ui_note(u, "opened a copy of %s's session file, read-only", host);
		open_argv_free(argv);
		unlink(path.p);
	}
	if (fp != NULL)
		fclose(fp);
	buf_free(&b);
	buf_free(&path);
	buf_free(&err);
}

void
ui_take_edit_dir(struct ui *u, const char *dir)
{
	const char *editor = open_editor();
	struct buf name = {0}, say = {0};
	struct stat st;
	char **argv;

	say_path(&say, dir);
	if (stat(dir, &st) != 0) {
		ui_note(u, "%s: %s", say.p, strerror(errno));
	} else if (!S_ISDIR(st.st_mode)) {
		ui_note(u, "%s is not a folder", say.p);
	} else if (!open_program_found(editor, &name)) {
		buf_reset(&say);
		text_sanitize(&say, name.p, name.n, TEXT_ONELINE);
		ui_note(u, "no editor: %s was not found (set $VISUAL or $EDITOR)", say.p);
	} else {
		argv = open_argv(editor, dir, 0);
		take_ended(u, "the editor", take_run(u, argv));
		open_argv_free(argv);
	}
	buf_free(&name);
	buf_free(&say);
}
