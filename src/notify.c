/* notify.c: the bell, OSC 9 and 777 (through tmux), and --notify-cmd. */
#include "notify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "glyph.h"
#include "redact.h"
#include "remote.h"
#include "sig.h"
#include "text.h"
#include "words.h"

#define ESC "\033"
#define BEL "\007"
/* At most this many bytes of words in a notification. */
#define WORDS_MAX 200
/* At most this many bytes of a prompt in them. */
#define PROMPT_MAX 60
/* At most this many bytes of a value in --notify-cmd's environment. */
#define ENV_MAX 4096

extern char **environ;

void
notify_init(struct notifier *n, bool term, const char *cmd, int fd)
{
	const char *tmux = getenv("TMUX");

	memset(n, 0, sizeof *n);
	n->term = term;
	n->cmd = cmd != NULL && cmd[0] != '\0' ? cmd : NULL;
	n->fd = fd;
	n->tmux = tmux != NULL && tmux[0] != '\0';
}

bool
notify_wanted(enum fleet_state st)
{
	return st == FS_DONE || st == FS_FAILED || st == FS_WAITING;
}

/* Append s made safe for an OSC's text: no control character (escaped
 * the way the screen shows them), no ';' (OSC 777 splits its fields at
 * them), at most WORDS_MAX bytes, never half a character. */
static void
add_safe(struct buf *out, const char *s)
{
	struct buf t = {0};
	size_t n, used;

	text_sanitize(&t, s, strlen(s), TEXT_ONELINE);
	n = t.n > WORDS_MAX ? text_fit(t.p, t.n, WORDS_MAX / 3, &used) : t.n;
	for (size_t i = 0; i < n; i++)
		buf_addc(out, t.p[i] == ';' ? ',' : t.p[i]);
	buf_free(&t);
}

/* Append an OSC (its body holds no ESC and no BEL), for tmux inside its
 * passthrough: DCS tmux; with every ESC doubled, ended by ST. */
static void
add_osc(struct buf *out, const char *body, bool tmux)
{
	if (tmux)
		buf_adds(out, ESC "Ptmux;" ESC ESC "]");
	else
		buf_adds(out, ESC "]");
	buf_adds(out, body);
	buf_adds(out, BEL);
	if (tmux)
		buf_adds(out, ESC "\\");
}

void
notify_bytes(const struct notifier *n, const struct notify_event *e, struct buf *out)
{
	struct buf body = {0};

	/* The bell goes to tmux itself, which rings or marks the window as
	 * its bell options say. */
	buf_adds(out, BEL);
	buf_adds(&body, "9;agentview: ");
	add_safe(&body, e->summary);
	add_osc(out, body.p, n->tmux);
	buf_reset(&body);
	buf_adds(&body, "777;notify;agentview ");
	add_safe(&body, e->event);
	buf_addc(&body, ';');
	add_safe(&body, e->summary);
	add_osc(out, body.p, n->tmux);
	buf_free(&body);
}

/* Write all of b to fd; a terminal that went away is no error of ours. */
static void
write_all(int fd, const struct buf *b)
{
	size_t done = 0;

	while (done < b->n) {
		ssize_t w = write(fd, b->p + done, b->n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		done += (size_t)w;
	}
}

void
notify_vars(const struct notify_event *e, struct buf *vars)
{
	static const char *const names[] = {
		"AGENTVIEW_EVENT", "AGENTVIEW_SESSION", "AGENTVIEW_AGENT",
		"AGENTVIEW_STATE", "AGENTVIEW_SUMMARY", "AGENTVIEW_FILE",
	};
	const char *values[] = {e->event, e->session, e->agent, e->state, e->summary, e->file};
	struct buf t = {0};

	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		const char *v = values[i] ? values[i] : "";

		/* The gate of every shown text, then bounded (the secrets
		 * out first: a cut never leaves part of one). */
		buf_reset(&t);
		text_sanitize(&t, v, strlen(v), TEXT_ONELINE);
		buf_addf(vars, "%s=", names[i]);
		if (t.n > 0)
			buf_add(vars, t.p, redact_cut(t.p, t.n, ENV_MAX));
		buf_addc(vars, '\0');
	}
	buf_free(&t);
}

/* The environment of the command: agentview's, with the event's facts
 * (made before fork: the child may only call what is safe after it). */
static char **
command_env(const struct notify_event *e, struct buf *vars)
{
	size_t n = 0, k = 0, nvars = 0;
	char **env;

	while (environ[n] != NULL)
		n++;
	notify_vars(e, vars);
	for (size_t at = 0; at < vars->n; at += strlen(vars->p + at) + 1)
		nvars++;
	env = xcalloc(n + nvars + 1, sizeof *env);
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "AGENTVIEW_", 10) != 0 ||
		    strncmp(environ[i], "AGENTVIEW_RECORD=", 17) == 0 ||
		    strncmp(environ[i], "AGENTVIEW_KEEP_DAYS=", 20) == 0)
			env[k++] = environ[i];
	for (size_t at = 0; at < vars->n; at += strlen(vars->p + at) + 1)
		env[k++] = vars->p + at;
	env[k] = NULL;
	return env;
}

/* Run the command with sh -c, in the background: a child that forks the
 * command in a session of its own and exits at once, so that nothing is
 * left to reap and the command never reads the terminal's keys. */
static void
run_command(const struct notifier *n, const struct notify_event *e)
{
	struct buf vars = {0};
	char **env = command_env(e, &vars);
	/* execve's argv is not const: copies of the words. */
	char sh[] = "sh", dash_c[] = "-c", *cmd = xstrdup(n->cmd);
	char *const argv[] = {sh, dash_c, cmd, NULL};
	int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	pid_t pid = fork();

	if (pid == 0) {
		if (fork() != 0)
			_exit(0);
		sig_child_reset();
		setsid();
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(n->quiet ? devnull : 2, 1);
			if (n->quiet)
				dup2(devnull, 2);
		}
		execve("/bin/sh", argv, env);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	if (devnull >= 0)
		close(devnull);
	free(cmd);
	free(env);
	buf_free(&vars);
}

void
notify_send(struct notifier *n, const struct notify_event *e)
{
	struct buf b = {0};

	if (n->term && n->fd >= 0) {
		notify_bytes(n, e, &b);
		write_all(n->fd, &b);
	}
	if (n->cmd != NULL)
		run_command(n, e);
	n->sent++;
	buf_free(&b);
}

void
notify_row_words(const struct fleet *f, uint32_t row, int64_t now_ms, struct buf *out)
{
	static const enum fleet_col cols[] = {FC_AGENT, FC_MODEL, FC_PROMPT, FC_TIME};
	const struct fleet_row *r = fleet_row(f, row);
	struct buf cell = {0};

	buf_adds(out, fleet_state_name((enum fleet_state)r->state));
	for (size_t i = 0; i < ARRAY_LEN(cols); i++) {
		buf_reset(&cell);
		fleet_cell(f, row, cols[i], now_ms, &cell);
		if (cell.n == 0)
			continue;
		if (cols[i] == FC_PROMPT && cell.n > PROMPT_MAX) {
			size_t used;

			cell.n = text_fit(cell.p, cell.n, PROMPT_MAX / 2, &used);
			buf_add(&cell, GLYPH_ELLIPSIS, strlen(GLYPH_ELLIPSIS));
		}
		buf_adds(out, " " GLYPH_DOT " ");
		buf_add(out, cell.p, cell.n);
	}
	if (r->state == FS_FAILED && r->how[0] != '\0') {
		buf_adds(out, ": ");
		buf_adds(out, r->how);
	}
	buf_free(&cell);
}

void
notify_row(struct notifier *n, const struct fleet *f, uint32_t row, int64_t now_ms)
{
	const struct fleet_row *r = fleet_row(f, row);
	const char *st = fleet_state_name((enum fleet_state)r->state);
	struct buf words = {0};
	struct notify_event e = {st, r->id, agent_get(r->agent)->name,
				 st, NULL,  remote_show(fleet_path(f, row))};

	notify_row_words(f, row, now_ms, &words);
	e.summary = words.p;
	notify_send(n, &e);
	buf_free(&words);
}

/* A session's state as a row's. */
static enum fleet_state
row_state_of(enum session_state st)
{
	switch (st) {
	case SS_OK:
		return FS_DONE;
	case SS_FAILED:
		return FS_FAILED;
	case SS_WAITING:
		return FS_WAITING;
	case SS_LIVE:
		return FS_RUNNING;
	default:
		return FS_INCOMPLETE;
	}
}

/* Tell session s of m, now in state st. */
static void
notify_session(struct notifier *n, struct model *m, uint32_t s, enum fleet_state st,
	       const char *file)
{
	struct buf words = {0}, id = {0}, t = {0};
	const char *name = fleet_state_name(st);
	struct notify_event e = {name, "",   agent_get(m->ses[s].agent)->name,
				 name, NULL, file != NULL ? file : ""};
	int64_t d = model_session_duration(m, s);

	buf_adds(&words, name);
	buf_addf(&words, " " GLYPH_DOT " %s", e.agent);
	if (model_fact(m, s, FACT_MODEL, &t))
		buf_addf(&words, " " GLYPH_DOT " %s", t.p);
	if (d != TIME_NONE) {
		buf_adds(&words, " " GLYPH_DOT " ");
		fmt_duration(&words, d);
	}
	buf_reset(&t);
	if (st == FS_FAILED && words_failure(m, s, &t))
		buf_addf(&words, ": %s", t.p);
	if (model_fact(m, s, FACT_ID, &id))
		e.session = id.p;
	e.summary = words.p;
	notify_send(n, &e);
	buf_free(&words);
	buf_free(&id);
	buf_free(&t);
}

void
notify_model(struct notifier *n, struct notify_watch *w, struct model *m, const char *file)
{
	if (m->nses > w->n) {
		w->state = xreallocarray(w->state, m->nses, 1);
		/* A session that comes starts running. */
		for (size_t s = w->n; s < m->nses; s++)
			w->state[s] = SS_LIVE;
		w->n = m->nses;
	}
	for (size_t s = 0; s < m->nses; s++) {
		enum session_state st = model_session_state(m, (uint32_t)s);

		if (st == w->state[s])
			continue;
		w->state[s] = (uint8_t)st;
		if (notify_wanted(row_state_of(st)))
			notify_session(n, m, (uint32_t)s, row_state_of(st), file);
	}
}

void
notify_watch_free(struct notify_watch *w)
{
	free(w->state);
	w->state = NULL;
	w->n = 0;
}
