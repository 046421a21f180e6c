/* status.c: the status bar as pieces, each a function that says it, and
 * one table of their order and priorities. */
#include "status.h"

#include <string.h>

#include "agent.h"

#include "glyph.h"
#include "redact.h"
#include "text.h"
#include "tool.h"
#include "words.h"

/* What a piece is given to say itself. */
struct status_ctx {
	struct model *m;
	const struct status_in *in;
	uint32_t s; /* the newest session, the one the bar speaks for, or NONE */
};

/* A piece appends its words to out and returns true, or returns false
 * when it has nothing to say (what it appended is dropped); it may change
 * the role it is shown in. */
typedef bool (*status_say_fn)(const struct status_ctx *c, struct buf *out, enum role *role);

/* Session s's state in words (" ✓ done "), and the role it is shown in. */
static void
state_words(struct model *m, uint32_t s, struct buf *out, enum role *role)
{
	static const struct {
		const char *text;
		enum role role;
	} states[] = {
		[SS_LIVE] = {" " GLYPH_LIVE " live ", ROLE_STATUS_LIVE},
		[SS_OK] = {" " GLYPH_OK " done ", ROLE_STATUS_OK},
		[SS_FAILED] = {" " GLYPH_FAILED " failed ", ROLE_STATUS_FAILED},
		[SS_INCOMPLETE] = {" " GLYPH_INCOMPLETE " incomplete ", ROLE_STATUS_WARN},
		[SS_WAITING] = {" " GLYPH_WAITING " waiting for a decision ", ROLE_STATUS_WARN},
	};
	enum session_state st = model_session_state(m, s);

	if ((size_t)st >= ARRAY_LEN(states))
		st = SS_WAITING;
	/* Its store cannot tell a call at work from one held for an
	 * approval: both said, as the session list says them. */
	if (st == SS_LIVE && model_session_may_wait(m, s))
		buf_adds(out, " " GLYPH_LIVE " running or waiting ");
	else
		buf_adds(out, states[st].text);
	*role = states[st].role;
}

/* Session s's calls by state: "✓8 ✗1", or "no calls". */
static void
calls_words(struct model *m, uint32_t s, struct buf *out)
{
	static const int order[CS_NSTATES] = {CS_OK,    CS_FAILED,   CS_REJECTED,
					      CS_ERROR, CS_ORPHANED, CS_RUNNING};
	uint32_t counts[CS_NSTATES];
	size_t mark = out->n;

	model_session_counts(m, s, counts);
	for (int i = 0; i < CS_NSTATES; i++) {
		if (counts[order[i]] == 0)
			continue;
		if (out->n > mark)
			buf_addc(out, ' ');
		buf_adds(out, tool_state_glyph(order[i]));
		buf_addf(out, "%u", counts[order[i]]);
	}
	if (out->n == mark)
		buf_adds(out, "no calls");
}

/* The state: a replay's mode, how much of a file is read, or the newest
 * session's state (two runs compared: each run says its own). */
static bool
say_state(const struct status_ctx *c, struct buf *out, enum role *role)
{
	const struct status_in *in = c->in;

	if (in->mode != NULL) {
		buf_addf(out, " %s ", in->mode);
	} else if (in->progress >= 0) {
		/* A file still being read is not live: its state comes at the
		 * end. */
		buf_addf(out, " reading %d%% ", in->progress);
		*role = ROLE_STATUS_WARN;
	} else if (c->m->same_axis) {
		return false;
	} else if (c->s == NONE) {
		buf_adds(out, model_ended(c->m) ? " no session " : " waiting ");
		*role = ROLE_STATUS_WARN;
	} else {
		state_words(c->m, c->s, out, role);
	}
	return true;
}

/* Of two runs compared, run's newest session: its state, how long it
 * took and its calls (" A ✓ done 448 ms ✓1", "B ✗ failed 2.1 s ✗1": both
 * fit in 40 cells). */
static bool
say_run(const struct status_ctx *c, char run, struct buf *out, enum role *role)
{
	uint32_t s = model_run_last(c->m, run);
	int64_t d;

	if (!c->m->same_axis || c->in->mode != NULL || c->in->progress >= 0)
		return false;
	buf_addf(out, run == 'A' ? " %c" : "%c", run);
	if (s == NONE) {
		buf_adds(out, " no session");
		*role = ROLE_STATUS_WARN;
		return true;
	}
	state_words(c->m, s, out, role);
	d = model_session_duration(c->m, s);
	if (d != TIME_NONE) {
		fmt_duration(out, d);
		buf_addc(out, ' ');
	}
	calls_words(c->m, s, out);
	return true;
}

static bool
say_run_a(const struct status_ctx *c, struct buf *out, enum role *role)
{
	return say_run(c, 'A', out, role);
}

static bool
say_run_b(const struct status_ctx *c, struct buf *out, enum role *role)
{
	return say_run(c, 'B', out, role);
}

/* Most cells the reason a session failed takes in the bar. */
#define WHY_CELLS 40

/* Why the newest session failed, whatever its agent: the first line of
 * it (words_failure), cut to WHY_CELLS, never through a secret. */
static bool
say_why(const struct status_ctx *c, struct buf *out, enum role *role)
{
	size_t mark = out->n, n;

	(void)role;
	if (c->s == NONE || !words_failure(c->m, c->s, out))
		return false;
	if (text_width(out->p + mark, out->n - mark) > WHY_CELLS) {
		n = text_fit(out->p + mark, out->n - mark, WHY_CELLS - 1, NULL);
		n = redact_cut(out->p + mark, out->n - mark, n);
		while (n > 0 && out->p[mark + n - 1] == ' ')
			n--;
		buf_cut(out, mark + n);
		buf_adds(out, GLYPH_ELLIPSIS);
	}
	return true;
}

/* A fact of the newest session (src/agent.h: wherever its agent's stream
 * keeps it). */
static bool
say_fact(const struct status_ctx *c, enum fact f, struct buf *out)
{
	return c->s != NONE && model_fact(c->m, c->s, f, out);
}

/* The model, or the agent when its stream names none (Codex's). */
static bool
say_model(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	if (say_fact(c, FACT_MODEL, out))
		return true;
	if (c->s == NONE || agent_get(c->m->ses[c->s].agent)->unnamed)
		return false;
	buf_adds(out, agent_get(c->m->ses[c->s].agent)->label);
	return true;
}

/* The session id's first 8 characters. */
static bool
say_session(const struct status_ctx *c, struct buf *out, enum role *role)
{
	size_t mark = out->n;

	(void)role;
	if (!say_fact(c, FACT_ID, out))
		return false;
	if (out->n - mark > 8) /* never through a secret: an id may hold a key */
		buf_cut(out, mark + redact_cut(out->p + mark, out->n - mark, 8));
	return out->n > mark;
}

static bool
say_cwd(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	return say_fact(c, FACT_CWD, out);
}

/* Where a replay is: "01:12 / 04:30". */
static bool
say_position(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	if (c->s == NONE || c->in->position == NULL)
		return false;
	buf_adds(out, c->in->position);
	return true;
}

/* How long the session took, or its clock while it is live (not in a
 * replay, which says its position, nor while a file is read). */
static bool
say_clock(const struct status_ctx *c, struct buf *out, enum role *role)
{
	int64_t d;

	(void)role;
	if (c->s == NONE || c->in->position != NULL || c->in->progress >= 0)
		return false;
	d = model_session_duration(c->m, c->s);
	if (d == TIME_NONE)
		return false;
	if (model_session_state(c->m, c->s) == SS_LIVE ||
	    model_session_state(c->m, c->s) == SS_WAITING)
		fmt_clock(out, d);
	else
		fmt_duration(out, d);
	return true;
}

/* Where the clock would be: that the newest session's stream has no
 * time at all (Codex's, read from a file). */
static bool
say_no_timing(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	return c->s != NONE && c->in->position == NULL && c->in->progress < 0 &&
	       words_no_timing(c->m, c->s, out);
}

/* The session's calls by state: "✓8 ✗1". */
static bool
say_calls(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	if (c->s == NONE)
		return false;
	calls_words(c->m, c->s, out);
	return true;
}

static bool
say_tokens(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	return c->s != NONE && words_tokens(c->m, c->s, out);
}

/* What the session cost, where its stream says (Claude Code's). */
static bool
say_cost(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	return c->s != NONE && words_cost(c->m, c->s, out);
}

static bool
say_sessions(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	if (c->s == NONE || model_nsessions(c->m) <= 1)
		return false;
	buf_addf(out, "%zu sessions", model_nsessions(c->m));
	return true;
}

/* The COMMAND: running, or how it ended. */
static bool
say_command(const struct status_ctx *c, struct buf *out, enum role *role)
{
	const struct command_info *cmd = &c->m->cmd;

	if (!c->in->command)
		return false;
	if (c->in->command_running) {
		buf_adds(out, "running");
		return true;
	}
	if (cmd->signal != 0)
		buf_addf(out, "killed by signal %d", cmd->signal);
	else if (cmd->exited)
		buf_addf(out, "exit %d", cmd->exit_status);
	else
		return false;
	if (cmd->signal != 0 || cmd->exit_status != 0)
		*role = ROLE_STATUS_FAILED;
	return true;
}

/* The COMMAND's last line on stderr that says something. */
static bool
say_stderr(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	if (!c->in->command || c->m->cmd.last_stderr == NONE)
		return false;
	buf_adds(out, "stderr: ");
	model_event_text(c->m, c->m->cmd.last_stderr, out);
	return true;
}

/* Lines of the input that are not events. */
static bool
say_bad_lines(const struct status_ctx *c, struct buf *out, enum role *role)
{
	size_t nd = model_ndiags(c->m);

	(void)role;
	if (nd == 0)
		return false;
	buf_addf(out, GLYPH_WARN " %zu bad line%s", nd, nd == 1 ? "" : "s");
	return true;
}

/* Events that came while the transcript was scrolled away from the end. */
static bool
say_new(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	if (c->in->new_events == 0)
		return false;
	buf_addf(out, "+%llu new", (unsigned long long)c->in->new_events);
	return true;
}

/* Following, said only where there is room for it (and no news). */
static bool
say_follow(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	if (c->in->new_events > 0 || !c->in->following || c->in->compact)
		return false;
	buf_adds(out, "follow");
	return true;
}

/* A piece given as text by the caller (present when not NULL). */
static bool
say_given(const char *s, struct buf *out)
{
	if (s == NULL)
		return false;
	buf_adds(out, s);
	return true;
}

/* The search and the filters: "match 3/17 · hiding thinking". */
static bool
say_search(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	return c->in->nav != NULL && c->in->nav[0] != '\0' && say_given(c->in->nav, out);
}

/* Where the search's match is, said after it ("match 3/17 · in Shell
 * npm test stderr"). */
static bool
say_where(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	return c->in->nav != NULL && c->in->where != NULL && c->in->where[0] != '\0' &&
	       say_given(c->in->where, out);
}

/* A replay's timing and event. */
static bool
say_replay(const struct status_ctx *c, struct buf *out, enum role *role)
{
	(void)role;
	return say_given(c->in->detail, out);
}

/* A passing message, unless the search's piece says it already (a
 * filter's "hiding thinking"): a message is never said twice. */
static bool
say_note(const struct status_ctx *c, struct buf *out, enum role *role)
{
	const char *note = c->in->note;

	(void)role;
	if (note == NULL || note[0] == '\0' || (c->in->nav != NULL && strstr(c->in->nav, note)))
		return false;
	return say_given(note, out);
}

/* A priority no piece is dropped for: the state's. */
#define KEEP 1000

/* Every piece, in the order the bar shows them, with its role (which it
 * may change) and its priority: while the pieces do not fit, the one of
 * the lowest priority is left out. */
static const struct {
	status_say_fn say;
	enum role role;
	int prio;
} pieces[] = {
	{say_state, ROLE_STATUS_LIVE, KEEP},
	{say_run_a, ROLE_STATUS_OK, KEEP},
	{say_run_b, ROLE_STATUS_OK, KEEP},
	{say_why, ROLE_STATUS_FAILED, 75},
	{say_model, ROLE_STATUS, 60},
	{say_session, ROLE_STATUS, 30},
	{say_cwd, ROLE_STATUS, 20},
	{say_position, ROLE_STATUS, 95},
	{say_clock, ROLE_STATUS, 90},
	{say_no_timing, ROLE_STATUS, 45},
	{say_calls, ROLE_STATUS, 80},
	{say_tokens, ROLE_STATUS, 40},
	{say_cost, ROLE_STATUS, 42},
	{say_sessions, ROLE_STATUS, 35},
	{say_command, ROLE_STATUS, 85},
	{say_stderr, ROLE_STATUS_WARN, 45},
	{say_bad_lines, ROLE_STATUS_WARN, 70},
	{say_new, ROLE_STATUS_WARN, 97},
	{say_follow, ROLE_STATUS, 50},
	{say_search, ROLE_STATUS_LIVE, 96},
	{say_where, ROLE_STATUS_LIVE, 58},
	{say_replay, ROLE_STATUS, 55},
	{say_note, ROLE_STATUS_WARN, 99},
};

#define NPIECES ARRAY_LEN(pieces)

/* A piece said: its text in the shared buffer, its role and width. */
struct said {
	size_t off, len, width;
	enum role role;
	int prio; /* < 0: left out */
	size_t piece;
};

/* The gap before piece i of p: " · " between the search and where its
 * match is, else two blanks. */
static const char *
status_gap(const struct said *p, size_t i)
{
	return i > 0 && pieces[p[i].piece].say == say_where && p[i - 1].prio >= 0 &&
			       p[i - 1].piece + 1 == p[i].piece
		       ? " " GLYPH_DOT " "
		       : "  ";
}

/* Leave out the least important pieces until the rest fit in w cells
 * (each counts two cells more, the gap before it; the first has none). */
static void
status_fit(struct said *p, size_t n, size_t w)
{
	for (;;) {
		size_t total = 0, low = n;

		for (size_t i = 0; i < n; i++) {
			if (p[i].prio < 0)
				continue;
			total +=
				p[i].width + text_width(status_gap(p, i), strlen(status_gap(p, i)));
			if (p[i].prio < KEEP && (low == n || p[i].prio < p[low].prio))
				low = i;
		}
		if (total <= w + 2 || low == n)
			return;
		p[low].prio = -1;
	}
}

void
status_build(struct model *m, const struct status_in *in, int width, struct rline *out)
{
	size_t nmodel = model_nsessions(m), w = (size_t)MAX(width, 0), n = 0;
	/* Two runs compared: no one session is the bar's, each run's says
	 * its own (say_run). */
	struct status_ctx c = {m, in, nmodel > 0 && !m->same_axis ? (uint32_t)(nmodel - 1) : NONE};
	struct said said[NPIECES];
	struct buf text = {0};

	rline_reset(out);
	if (in->question != NULL) {
		rline_adds(out, " ", ROLE_STATUS_WARN, w);
		rline_adds(out, in->question, ROLE_STATUS_WARN, w);
		rline_pad(out, w, ROLE_STATUS_WARN);
		return;
	}
	for (size_t i = 0; i < NPIECES; i++) {
		struct said *p = &said[n];

		p->off = text.n;
		p->role = pieces[i].role;
		if (!pieces[i].say(&c, &text, &p->role)) {
			text.n = p->off;
			continue;
		}
		p->len = text.n - p->off;
		p->prio = pieces[i].prio;
		p->piece = i;
		n++;
	}
	for (size_t i = 0; i < n; i++)
		said[i].width = text_width(text.p + said[i].off, said[i].len);
	status_fit(said, n, w);
	for (size_t i = 0, shown = 0; i < n; i++) {
		if (said[i].prio < 0)
			continue;
		if (shown++ > 0)
			rline_adds(out, status_gap(said, i), ROLE_STATUS, w);
		rline_add(out, text.p + said[i].off, said[i].len, said[i].role, w);
	}
	rline_pad(out, w, ROLE_STATUS);
	buf_free(&text);
}
