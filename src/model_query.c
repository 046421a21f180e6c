/* model_query.c: questions asked of the model: states, counts and
 * durations as of a replay's limit, and the text of events decoded on
 * demand from their lines. */
#include "model.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "glyph.h"
#include "model_impl.h"

enum call_state
model_result_state(enum call_result r)
{
	switch (r) {
	case CR_SUCCESS:
		return CS_OK;
	case CR_FAILURE:
		return CS_FAILED;
	case CR_REJECTED:
		return CS_REJECTED;
	default:
		return CS_ERROR;
	}
}

/* --- derived state ------------------------------------------------------ */

/* The first event of entry i of a list in the order of first events. */
typedef uint32_t (*first_ev_fn)(const struct model *m, size_t i);

/* How many of the n entries have their first event shown: a binary
 * search, since they are in order. */
static size_t
count_seen(const struct model *m, size_t n, first_ev_fn first)
{
	size_t lo = 0, hi = n;

	if (m->limit == NONE)
		return n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (first(m, mid) <= m->limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint32_t
item_first(const struct model *m, size_t i)
{
	return m->it[i].first_ev;
}

static uint32_t
call_first(const struct model *m, size_t i)
{
	return m->it[m->call[i].item].first_ev;
}

static uint32_t
session_first(const struct model *m, size_t i)
{
	return m->ses[i].first_ev;
}

static uint32_t
diag_first(const struct model *m, size_t i)
{
	return m->diag[i].ev;
}

size_t
model_nitems(const struct model *m)
{
	return count_seen(m, m->nit, item_first);
}

size_t
model_ncalls(const struct model *m)
{
	return count_seen(m, m->ncall, call_first);
}

size_t
model_nsessions(const struct model *m)
{
	return count_seen(m, m->nses, session_first);
}

size_t
model_ndiags(const struct model *m)
{
	return count_seen(m, m->ndiag, diag_first);
}

/* The session's source can bring it no more events: it moved on to a
 * newer session, or ended. As of a limit, each of these must have been
 * shown: a replay shows the session live until then. */
static bool
source_done(const struct model *m, uint32_t s)
{
	const struct session *ses = &m->ses[s];
	const struct srcstate *ss = &m->src[ses->src];

	if (m->limit == NONE)
		return ss->session != s || ss->ended;
	if (ss->ended && model_seen(m, ss->last_ev))
		return true;
	for (size_t t = s + 1; t < m->nses; t++)
		if (m->ses[t].src == ses->src)
			return model_seen(m, m->ses[t].first_ev);
	return false;
}

/* The result or turn event before e of its session, or NONE. */
static uint32_t
turn_prev(const struct model *m, uint32_t e)
{
	return callmap_get(&m->turns, (uint64_t)e << 1 | 1);
}

uint32_t
model_last_result(const struct model *m, uint32_t s)
{
	uint32_t e = m->ses[s].turn_ev;

	if (m->limit == NONE)
		return m->ses[s].result_ev;
	for (; e != NONE; e = turn_prev(m, e))
		if (model_seen(m, e) && EV_TYPE(&m->ev[e]) == EV_RESULT)
			return e;
	return NONE;
}

/* A background call of session s still running (as of the limit). */
static bool
background_running(const struct model *m, uint32_t s)
{
	if (m->limit == NONE)
		return m->ses[s].nbg > 0;
	for (size_t c = 0; c < model_ncalls(m); c++) {
		const struct call *call = &m->call[c];

		if (call->session == s && (call->flags & CF_BACKGROUND) &&
		    model_seen(m, call->done_ev) && !model_seen(m, call->bg_ev))
			return true;
	}
	return false;
}

/* Session s has a result, and its agent goes on with another turn: one
 * whose init came has no result yet, or a background task whose end
 * starts one runs (or ended after the result); while its source can
 * still bring it. */
static bool
goes_on(const struct model *m, uint32_t s)
{
	const struct session *ses = &m->ses[s];
	uint32_t turns = 1, results = 0;

	if (source_done(m, s))
		return false;
	if (m->limit == NONE) {
		turns = ses->nturns;
		results = ses->nresults;
	} else {
		for (uint32_t e = ses->turn_ev; e != NONE; e = turn_prev(m, e))
			if (model_seen(m, e))
				*(EV_TYPE(&m->ev[e]) == EV_RESULT ? &results : &turns) += 1;
	}
	if (results < turns)
		return true;
	return agent_get(ses->agent)->bg_turns &&
	       ((m->limit == NONE && ses->goes_on) || background_running(m, s));
}

/* The session was stopped (build_stop), as of the limit, and no prompt
 * took it up again since. */
static bool
stopped(const struct model *m, uint32_t s)
{
	const struct session *ses = &m->ses[s];

	return model_seen(m, ses->stop_ev) &&
	       !(model_seen(m, ses->prompt_ev) && ses->prompt_ev > ses->stop_ev);
}

/* The session can get no more events: it has a result and no turn on the
 * way, it was stopped, or its source can bring it none. */
static bool
session_over(const struct model *m, uint32_t s)
{
	return (model_last_result(m, s) != NONE && !goes_on(m, s)) || stopped(m, s) ||
	       source_done(m, s);
}

bool
model_result_closes(const struct model *m, uint32_t e)
{
	uint32_t it = e < m->nev ? m->ev[e].item : NONE, s;

	if (it == NONE || EV_TYPE(&m->ev[e]) != EV_RESULT)
		return false;
	s = m->it[it].session;
	return model_last_result(m, s) == e && !goes_on(m, s);
}

enum call_state
model_call_state(const struct model *m, uint32_t c)
{
	const struct call *call = &m->call[c];

	if (!model_seen(m, call->done_ev))
		return session_over(m, call->session) ? CS_ORPHANED : CS_RUNNING;
	/* Gone to the background: running until the notice of its end. */
	if ((call->flags & CF_BACKGROUND) && call->result == CR_SUCCESS) {
		if (model_seen(m, call->bg_ev))
			return model_result_state((enum call_result)call->bg_result);
		return session_over(m, call->session) ? CS_ORPHANED : CS_RUNNING;
	}
	return model_result_state((enum call_result)call->result);
}

/* The newest session: the one a wrapped command's exit status speaks for. */
static bool
is_newest(const struct model *m, uint32_t s)
{
	return s + 1 == m->nses;
}

enum session_state
model_session_state(const struct model *m, uint32_t s)
{
	const struct session *ses = &m->ses[s];
	/* The command's end is the last line of a recording: a replay knows
	 * it once everything is shown. */
	bool cmd_failed = m->cmd.present && is_newest(m, s) &&
			  (m->limit == NONE || m->limit + 1 >= m->nev) &&
			  ((m->cmd.exited && m->cmd.exit_status != 0) || m->cmd.signal != 0);

	if (s == m->said)
		return (enum session_state)m->said_state;
	if (model_last_result(m, s) != NONE && !goes_on(m, s))
		return ses->is_error || cmd_failed ? SS_FAILED : SS_OK;
	if (cmd_failed)
		return SS_FAILED;
	if (session_over(m, s))
		return SS_INCOMPLETE;
	return model_session_asking(m, s) ? SS_WAITING : SS_LIVE;
}

bool
model_session_tokens(const struct model *m, uint32_t s, struct tokens *out)
{
	if (s >= m->nses || !m->ses[s].has_tokens)
		return false;
	*out = m->ses[s].tok;
	return true;
}

bool
model_session_may_wait(const struct model *m, uint32_t s)
{
	if (!m->may_wait || !is_newest(m, s) || model_session_state(m, s) != SS_LIVE)
		return false;
	for (size_t c = m->ncall; c-- > 0;) {
		const struct call *k = &m->call[c];

		if (k->session != s || model_call_state(m, (uint32_t)c) != CS_RUNNING)
			continue;
		return k->start_ms != TIME_NONE && m->now_ms != TIME_NONE &&
		       ms_sub(m->now_ms, k->start_ms) >= MODEL_MAY_WAIT_MS;
	}
	return false;
}

bool
model_session_asking(const struct model *m, uint32_t s)
{
	if (m->limit == NONE)
		return m->ses[s].nasking > 0;
	/* As of a limit: a question shown whose answer is not. */
	for (size_t q = 0; q < m->nquery; q++) {
		const struct query *qu = &m->query[q];

		if (qu->session == s && model_seen(m, qu->ask_ev) && !model_seen(m, qu->answer_ev))
			return true;
	}
	return false;
}

const char *
model_query_decision_name(enum query_decision d)
{
	static const char *const names[] = {
		"pending", "approved", "rejected", "rejected", "approved",
	};

	return (unsigned)d < ARRAY_LEN(names) ? names[d] : "?";
}

void
model_session_counts(const struct model *m, uint32_t s, uint32_t counts[CS_NSTATES])
{
	const struct session *ses = &m->ses[s];
	size_t lo = 0, hi, n;
	bool over = session_over(m, s);

	if (m->limit == NONE) {
		memcpy(counts, ses->ndone, sizeof ses->ndone);
		counts[over ? CS_ORPHANED : CS_RUNNING] += ses->nopen + ses->nbg;
		return;
	}
	/* As of a limit: count the calls shown, from the session's first. */
	memset(counts, 0, CS_NSTATES * sizeof *counts);
	n = hi = model_ncalls(m);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->call[mid].item < ses->first_item)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t c = lo; c < n; c++) {
		const struct call *call = &m->call[c];

		if (call->session == s)
			counts[model_call_state(m, (uint32_t)c)]++;
	}
}

const char *
model_call_state_name(enum call_state st)
{
	static const char *const names[CS_NSTATES] = {
		"running", "ok", "failed", "rejected", "error", "orphaned",
	};

	return (unsigned)st < CS_NSTATES ? names[st] : "?";
}

const char *
model_session_state_name(enum session_state st)
{
	static const char *const names[SS_NSTATES] = {
		"live", "ok", "failed", "incomplete", "waiting",
	};

	return (unsigned)st < ARRAY_LEN(names) ? names[st] : "?";
}

int64_t
model_call_end(const struct model *m, uint32_t c)
{
	const struct call *call = &m->call[c];

	if (!model_seen(m, call->done_ev))
		return TIME_NONE;
	if ((call->flags & CF_BACKGROUND) && call->result == CR_SUCCESS &&
	    !model_seen(m, call->bg_ev))
		return TIME_NONE;
	return call->end_ms;
}

int64_t
model_call_duration(const struct model *m, uint32_t c)
{
	const struct call *call = &m->call[c];

	int64_t end = model_call_end(m, c);

	if (call->start_ms == TIME_NONE)
		return TIME_NONE;
	if (end != TIME_NONE)
		return MAX(ms_sub(end, call->start_ms), 0);
	if (model_call_state(m, c) == CS_RUNNING && m->now_ms != TIME_NONE &&
	    m->now_ms >= call->start_ms)
		return ms_sub(m->now_ms, call->start_ms);
	return TIME_NONE;
}

int64_t
model_session_duration(const struct model *m, uint32_t s)
{
	const struct session *ses = &m->ses[s];
	enum session_state st;

	if (ses->duration_ms != TIME_NONE && model_last_result(m, s) != NONE && !goes_on(m, s))
		return ses->duration_ms;
	if (ses->start_ms == TIME_NONE)
		return TIME_NONE;
	st = model_session_state(m, s);
	/* Waiting for a decision, it runs on. */
	if ((st == SS_LIVE || st == SS_WAITING) && m->now_ms != TIME_NONE &&
	    m->now_ms >= ses->start_ms)
		return ms_sub(m->now_ms, ses->start_ms);
	/* Its span as of a limit that cuts it is not known. */
	if (!model_seen(m, ses->last_ev))
		return TIME_NONE;
	if (model_session_silence(m, s) != TIME_NONE)
		return ms_sub(ses->closed_ms, ses->start_ms);
	return ms_sub(ses->last_ms, ses->start_ms);
}

bool
model_session_timed(const struct model *m, uint32_t s)
{
	return m->ses[s].start_ms != TIME_NONE;
}

int64_t
model_session_silence(const struct model *m, uint32_t s)
{
	const struct session *ses = &m->ses[s];

	if (ses->closed_ms == TIME_NONE || !model_seen(m, ses->closed_ev) ||
	    model_seen(m, ses->result_ev))
		return TIME_NONE;
	return ms_sub(ses->closed_ms, ses->last_ms);
}

/* The axis of session s alone. */
static void
own_axis(const struct model *m, uint32_t s, int64_t *a0, int64_t *a1)
{
	int64_t d = model_session_duration(m, s);

	*a0 = m->ses[s].start_ms;
	*a1 = d == TIME_NONE || *a0 == TIME_NONE ? *a0 : ms_add(*a0, d);
	/* last_ms is from the future while a replay's limit cuts it. */
	if (m->ses[s].last_ms != TIME_NONE && m->ses[s].last_ms > *a1 &&
	    model_seen(m, m->ses[s].last_ev))
		*a1 = m->ses[s].last_ms;
	/* Never empty, even at the end of the clock. */
	if (*a1 <= *a0) {
		*a0 = MIN(*a0, INT64_MAX - 1);
		*a1 = *a0 + 1;
	}
}

char
model_session_run(const struct model *m, uint32_t s)
{
	if (!m->same_axis || s >= m->nses)
		return 0;
	return m->ses[s].src == 0 ? 'A' : 'B';
}

uint32_t
model_run_last(const struct model *m, char run)
{
	for (uint32_t s = (uint32_t)m->nses; s-- > 0;)
		if (model_session_run(m, s) == run)
			return s;
	return NONE;
}

void
model_session_axis(const struct model *m, uint32_t s, int64_t *a0, int64_t *a1)
{
	int64_t longest = 0, b0, b1;

	own_axis(m, s, a0, a1);
	if (!m->same_axis)
		return;
	for (uint32_t i = 0; i < m->nses; i++) {
		own_axis(m, i, &b0, &b1);
		if (b0 != TIME_NONE && ms_sub(b1, b0) > longest)
			longest = ms_sub(b1, b0);
	}
	if (*a0 != TIME_NONE && longest > ms_sub(*a1, *a0))
		*a1 = ms_add(*a0, longest);
}

void
model_call_span(const struct model *m, uint32_t c, double *from, double *to)
{
	const struct call *call = &m->call[c];
	int64_t a0, a1, s, e;

	model_session_axis(m, call->session, &a0, &a1);
	s = call->start_ms == TIME_NONE ? a0 : call->start_ms;
	e = model_call_end(m, c);
	if (e == TIME_NONE)
		e = model_call_state(m, c) == CS_RUNNING && m->now_ms != TIME_NONE ? m->now_ms : a1;
	/* A call that ends after the axis stretches it, for itself. */
	if (e > a1)
		a1 = e;
	s = MAX(s, a0);
	e = MAX(e, s);
	*from = (double)ms_sub(s, a0) / (double)ms_sub(a1, a0);
	*to = (double)ms_sub(e, a0) / (double)ms_sub(a1, a0);
	/* An axis that starts nowhere, or a span past its saturated length. */
	*from = *from >= 0 && *from <= 1 ? *from : 0;
	*to = *to >= *from && *to <= 1 ? *to : 1;
}

/* --- decoding on demand -------------------------------------------------- */

const char *
model_line(const struct model *m, uint32_t e, size_t *len)
{
	const struct event *ev = &m->ev[e];
	const struct source *s = m->src[EV_SRC(ev)].src;
	const char *p = source_at(s, EV_OFF(ev));
	size_t n = ev->len;

	if (EV_OFF(ev) == 0 && n >= 3 && memcmp(p, GLYPH_BOM, 3) == 0) {
		p += 3;
		n -= 3;
	}
	*len = n;
	return p;
}

uint64_t
model_event_lineno(const struct model *m, uint32_t e)
{
	const struct event *ev = &m->ev[e];
	const struct source *s = m->src[EV_SRC(ev)].src;
	const char *p = s->data, *end = s->data + EV_OFF(ev);
	uint64_t no = 1;

	if (EV_TYPE(ev) == EV_BAD && ev->item != NONE)
		return m->diag[m->it[ev->item].ref].line;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		no++;
		p++;
	}
	return no;
}

bool
model_parse(const struct model *m, uint32_t e, struct json *j)
{
	size_t n;
	const char *p = model_line(m, e, &n);

	return json_parse(j, p, n) == JSON_OK;
}

const struct json *
model_parsed(const struct model *m, uint32_t e, struct json *scratch)
{
	/* The model's own parsers are labelled with the line they hold (its
	 * source and offset: every event the line made reads the one parse;
	 * a line of thousands of calls is not parsed again for each);
	 * model_clear forgets the labels. A moved stream buffer changes the
	 * line's address, which json_holds compares too. */
	bool own = scratch == m->qjson || scratch == m->qjson2 || scratch == m->qjson3;
	uint64_t line = EV_LINE(&m->ev[e]);
	size_t n;
	const char *p = model_line(m, e, &n);

	/* The line just added, unless its stream's buffer moved since (a
	 * read that brought only part of the next line). */
	if (m->json_ev != NONE && json_holds(m->json, p, n, line))
		return m->json;
	if (m->sjson != NULL && json_holds(m->sjson, p, n, line))
		return m->sjson;
	if (own && json_holds(scratch, p, n, line))
		return scratch;
	if (json_parse(scratch, p, n) != JSON_OK)
		return NULL;
	if (own)
		json_set_label(scratch, line);
	return scratch;
}

void
model_keep_parse(struct model *m, uint32_t e)
{
	size_t n;
	const char *p = model_line(m, e, &n);
	struct json *j = m->json;

	if (m->json_ev == NONE || !json_holds(j, p, n, EV_LINE(&m->ev[e])))
		return;
	m->json = m->qjson;
	m->qjson = j;
}

/* Append the text of a line that is not JSON, or of a recorded line. */
static void
append_line_text(struct model *m, uint32_t e, struct buf *out)
{
	size_t n;
	const char *p = model_line(m, e, &n);
	struct json *j = m->qjson;
	int t;

	/* A raw stderr line is its own text even when it looks like JSON. */
	if (m->src[EV_SRC(&m->ev[e])].stderr_of == NONE && json_parse(j, p, n) == JSON_OK &&
	    (EV_TYPE(&m->ev[e]) == EV_STDERR || EV_TYPE(&m->ev[e]) == EV_BAD)) {
		if ((t = json_get(j, 0, "text")) >= 0) {
			json_decode(j, t, out);
			return;
		}
		if ((t = json_get(j, 0, "base64")) >= 0) {
			size_t rn;
			const char *raw = json_raw(j, t, &rn);

			base64_decode(out, raw, rn);
			return;
		}
	}
	if (n > 0 && p[n - 1] == '\r')
		n--;
	buf_add(out, p, n);
}

/* Append a delta's text from the head of its line, where its adapter
 * knows the text is (agent.h: text_head): the line was parsed whole when
 * it was indexed, so jsmn can stop there (a search decodes every delta,
 * and they are most of a long session). False, with nothing appended,
 * when the adapter has no such reading or the head does not hold all of
 * the text: the caller parses the whole line. */
static bool
delta_text_head(struct model *m, uint32_t e, const struct agent *a, enum ev_type type,
		struct buf *out)
{
	struct json *j = m->qjson;
	size_t n;
	const char *p = model_line(m, e, &n);

	if (a->text_head == NULL)
		return false;
	/* Parsed already: model_parsed has it. */
	if ((m->json_ev != NONE && json_holds(m->json, p, n, EV_LINE(&m->ev[e]))) ||
	    json_holds(j, p, n, EV_LINE(&m->ev[e])))
		return false;
	return a->text_head(j, p, n, type, out);
}

uint32_t
model_fact_at(const struct model *m, uint32_t s, enum fact f, const char **path)
{
	const struct session *ses = &m->ses[s];
	uint32_t e = f < FACT_REQUEST ? ses->init_ev : model_last_result(m, s);

	*path = agent_get(ses->agent)->fact[f];
	return *path != NULL && model_seen(m, e) ? e : NONE;
}

bool
model_session_cwd(const struct model *m, uint32_t s, struct buf *out)
{
	const struct session *ses = &m->ses[s];
	const struct event *ev;
	const char *p;

	if (ses->cwd_len == 0 || !model_seen(m, ses->init_ev))
		return false;
	ev = &m->ev[ses->init_ev];
	if ((uint64_t)ses->cwd_off + ses->cwd_len > ev->len)
		return false;
	p = source_at(m->src[EV_SRC(ev)].src, EV_OFF(ev)) + ses->cwd_off;
	if (memchr(p, '\\', ses->cwd_len) != NULL)
		json_unescape(out, p, ses->cwd_len);
	else
		buf_add(out, p, ses->cwd_len);
	return true;
}

int64_t
model_event_count(struct model *m, uint32_t e, const char *path)
{
	const struct json *j = model_parsed(m, e, m->qjson);
	int t = j != NULL ? json_path(j, 0, path) : -1;

	if (json_type(j, t) != JSON_ARRAY && json_type(j, t) != JSON_OBJECT)
		return -1;
	return json_size(j, t);
}

bool
model_task_status(struct model *m, uint32_t c, struct buf *out)
{
	const char *path = agent_get(m->ses[m->call[c].session].agent)->task_status;

	return path != NULL && model_event_field(m, m->call[c].bg_ev, path, out);
}

bool
model_task_answer(struct model *m, uint32_t c, struct buf *out)
{
	const char *path = agent_get(m->ses[m->call[c].session].agent)->task_answer;
	size_t mark = out->n;

	return path != NULL && model_event_field(m, m->call[c].bg_ev, path, out) && out->n > mark;
}

uint32_t
model_call_progress(const struct model *m, uint32_t c)
{
	uint32_t e = callmap_get(&m->progress, (uint64_t)c << 1 | 1);

	return model_seen(m, e) ? e : NONE;
}

bool
model_todo_step(const struct model *m, uint32_t c, struct todo_step *out)
{
	uint32_t k = callmap_get(&m->steps, (uint64_t)c << 1 | 1);

	if (k == NONE)
		return false;
	*out = m->todo[k];
	return true;
}

bool
model_todo_list(const struct model *m, uint32_t c,
		void (*fn)(void *ctx, uint32_t call, enum todo_state st), void *ctx)
{
	uint32_t k = callmap_get(&m->steps, (uint64_t)c << 1 | 1), s;
	uint8_t *st;

	if (k == NONE)
		return false;
	s = m->task[m->todo[k].task].session;
	/* Each task made by then, in order, at its last state by then. */
	st = xcalloc(MAX(m->ntask, (size_t)1), 1);
	for (uint32_t i = 0; i <= k; i++)
		st[m->todo[i].task] = m->todo[i].state;
	for (size_t t = 0; t < m->ntask; t++)
		if (m->task[t].session == s && m->task[t].step <= k && st[t] != TASK_GONE)
			fn(ctx, m->task[t].call, (enum todo_state)st[t]);
	free(st);
	return true;
}

/* A store's token count named as the summary's usage names it. */
static bool
tokens_named(const struct tokens *t, const char *name, int64_t *out)
{
	static const struct {
		const char *name;
		size_t off;
	} names[] = {
		{"input_tokens", offsetof(struct tokens, in)},
		{"output_tokens", offsetof(struct tokens, out)},
		{"cache_read_input_tokens", offsetof(struct tokens, cache_read)},
		{"cache_creation_input_tokens", offsetof(struct tokens, cache_write)},
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i].name) == 0) {
			memcpy(out, (const char *)t + names[i].off, sizeof *out);
			return true;
		}
	return false;
}

bool
model_end_int(struct model *m, uint32_t s, enum fact f, const char *path, int64_t *out)
{
	const struct agent *a = agent_get(m->ses[s].agent);
	uint32_t e = model_last_result(m, s);
	bool any = false;
	int64_t v;

	*out = 0;
	/* Tokens its store counted: by their names. */
	if (f == FACT_USAGE && m->ses[s].has_tokens)
		return tokens_named(&m->ses[s].tok, path, out);
	for (; e != NONE; e = (a->fact_add >> f & 1) ? turn_prev(m, e) : NONE) {
		const struct json *j;

		if (!model_seen(m, e) || EV_TYPE(&m->ev[e]) != EV_RESULT)
			continue;
		if ((j = model_parsed(m, e, m->qjson)) == NULL || !json_int_at(j, 0, path, &v) ||
		    v < 0)
			continue;
		*out = v <= INT64_MAX - *out ? *out + v : INT64_MAX;
		any = true;
	}
	return any;
}

/* Whether event e's line has a value at path (a|b: any spelling). */
static bool
model_event_has(struct model *m, uint32_t e, const char *path)
{
	const struct json *j = model_parsed(m, e, m->qjson);

	return j != NULL && json_path_any(j, 0, path) >= 0;
}

bool
model_fact(struct model *m, uint32_t s, enum fact f, struct buf *out)
{
	const char *path;
	uint32_t e = model_fact_at(m, s, f, &path);
	int64_t v;

	/* A start fact its start does not hold: the line that holds it. */
	if (f < FACT_REQUEST && model_seen(m, m->ses[s].facts_ev) && path != NULL &&
	    (e == NONE || !model_event_has(m, e, path)))
		e = m->ses[s].facts_ev;
	if (e == NONE) /* a fact its lines lack: its file may say it */
		return agent_file_fact(m->ses[s].agent, m->src[m->ses[s].src].src->name, f, out);
	/* A count of each turn's own: the session's is their sum. */
	if ((agent_get(m->ses[s].agent)->fact_add >> f & 1) && f != FACT_USAGE &&
	    m->ses[s].nresults > 1) {
		if (!model_end_int(m, s, f, path, &v))
			return false;
		buf_addf(out, "%lld", (long long)v);
		return true;
	}
	return model_event_field(m, e, path, out);
}

unsigned
model_event_agent(const struct model *m, uint32_t e)
{
	uint32_t it = model_item_at_event(m, e);

	return it == NONE ? agent_default() : m->ses[m->it[it].session].agent;
}

/* The end of the first max bytes of s[0..n), moved back to the start of a
 * UTF-8 sequence it would cut. */
static size_t
cut_utf8(const char *s, size_t n, size_t max)
{
	size_t k = n, back = 0;

	if (n <= max)
		return n;
	k = max;
	while (k > 0 && back < 3 && ((unsigned char)s[k] & 0xC0) == 0x80) {
		k--;
		back++;
	}
	return k;
}

size_t
model_bad_text(struct model *m, uint32_t e, struct buf *out)
{
	const struct item *it = &m->it[m->ev[e].item];
	size_t n, rn, total, from = out->n;
	const char *p = model_line(m, e, &n), *raw;
	struct json *j = m->qjson;
	int t;

	/* A line kept in a recording: its text, or its bytes in base64. */
	if (it->type == IT_DIAG && m->diag[it->ref].code == DG_RECORDED &&
	    json_parse(j, p, n) == JSON_OK) {
		if ((t = json_get(j, 0, "text")) >= 0) {
			raw = json_raw(j, t, &rn);
			total = json_unescape_max(out, raw, rn, MODEL_EXCERPT);
		} else if ((t = json_get(j, 0, "base64")) >= 0) {
			raw = json_raw(j, t, &rn);
			while (rn > 0 && raw[rn - 1] == '=')
				rn--;
			base64_decode(out, raw, MIN(rn, (MODEL_EXCERPT / 3 + 1) * 4));
			total = rn / 4 * 3 + (rn % 4 > 1 ? rn % 4 - 1 : 0);
		} else {
			return 0;
		}
		out->n = from + cut_utf8(out->p + from, out->n - from, MODEL_EXCERPT);
		out->p[out->n] = '\0';
		return total;
	}
	if (n > 0 && p[n - 1] == '\r')
		n--;
	buf_add(out, p, cut_utf8(p, n, MODEL_EXCERPT));
	return n;
}

void
model_event_text(struct model *m, uint32_t e, struct buf *out)
{
	const struct json *j;
	enum ev_type type = EV_TYPE(&m->ev[e]);
	const struct agent *a;

	if (type == EV_BAD && m->ev[e].item != NONE) {
		model_bad_text(m, e, out);
		return;
	}
	if (type == EV_BAD || type == EV_STDERR) {
		append_line_text(m, e, out);
		return;
	}
	a = agent_get(model_event_agent(m, e));
	if ((type == EV_THINK_DELTA || type == EV_TEXT_DELTA) &&
	    delta_text_head(m, e, a, type, out))
		return;
	if ((j = model_parsed(m, e, m->qjson)) == NULL)
		return;
	a->text(j, type, out);
}

void
model_item_text(struct model *m, uint32_t it, struct buf *out)
{
	const struct item *item = &m->it[it];

	switch (item->type) {
	case IT_THINKING:
	case IT_TEXT:
		for (uint32_t e = item->first_ev; e <= item->last_ev && model_seen(m, e); e++) {
			enum ev_type t = EV_TYPE(&m->ev[e]);

			if (m->ev[e].item == it &&
			    (t == EV_THINK_DELTA || t == EV_TEXT_DELTA || t == EV_TEXT))
				model_event_text(m, e, out);
		}
		break;
	case IT_PROMPT:
	case IT_DIAG:
	case IT_STDERR:
		model_event_text(m, item->first_ev, out);
		break;
	default:
		break;
	}
}

bool
model_event_field(struct model *m, uint32_t e, const char *path, struct buf *out)
{
	const struct json *j = model_parsed(m, e, m->qjson);
	int t;

	if (j == NULL)
		return false;
	t = json_path_any(j, 0, path);
	if (t < 0 || json_type(j, t) == JSON_OBJECT || json_type(j, t) == JSON_ARRAY)
		return false;
	if (json_type(j, t) == JSON_PRIMITIVE) {
		size_t rn;
		const char *raw = json_raw(j, t, &rn);

		if (rn == 4 && memcmp(raw, "null", 4) == 0)
			return false;
	}
	json_decode(j, t, out);
	return true;
}

bool
model_command_failure(struct model *m, uint32_t s, struct buf *out)
{
	const struct command_info *c = &m->cmd;
	struct buf t = {0};

	if (!c->present || s + 1 != m->nses ||
	    !((c->exited && c->exit_status != 0) || c->signal != 0))
		return false;
	if (c->signal != 0)
		buf_addf(out, "killed by signal %d", c->signal);
	else
		buf_addf(out, "exit status %d", c->exit_status);
	/* The last stderr line that says something: usually the reason. */
	if (c->last_stderr != NONE) {
		model_event_text(m, c->last_stderr, &t);
		while (t.n > 0 && (t.p[t.n - 1] == ' ' || t.p[t.n - 1] == '\t' ||
				   t.p[t.n - 1] == '\r' || t.p[t.n - 1] == '\n'))
			t.n--;
		if (t.n > 0) {
			buf_adds(out, ": ");
			buf_add(out, t.p, t.n);
		}
	}
	buf_free(&t);
	return true;
}

void
model_diag_message(const struct model *m, uint32_t d, struct buf *out)
{
	const struct diag *dg = &m->diag[d];

	switch (dg->code) {
	case DG_TOO_LONG:
		buf_adds(out, "line longer than 4 GiB");
		break;
	case DG_RECORDED:
		buf_adds(out, "not JSON");
		break;
	case DG_DOCUMENT:
		buf_adds(out, "a JSON document across lines, not one JSON object a line: the "
			      "lines after it are not read");
		break;
	default:
		buf_adds(out, json_strerror((enum json_err)dg->err));
		/* "at byte 1" would only repeat that the line is not JSON. */
		if ((dg->err == JSON_INVALID || dg->err == JSON_TRAILING || dg->err == JSON_NUL) &&
		    dg->pos > 0)
			buf_addf(out, " at byte %u", dg->pos + 1);
		break;
	}
}

uint32_t
model_item_at_event(const struct model *m, uint32_t e)
{
	size_t lo = 0, hi = m->nit;

	if (e < m->nev && m->ev[e].item != NONE)
		return m->ev[e].item;
	/* The last item that starts at or before e. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->it[mid].first_ev <= e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == 0 ? (m->nit > 0 ? 0 : NONE) : (uint32_t)(lo - 1);
}

void
model_notice_text(struct model *m, uint32_t e, struct buf *out)
{
	struct json *j = m->qjson;
	size_t n;
	const char *p = model_line(m, e, &n);
	int type, sub, s[JSON_KEYS_MAX], roles[TOP_COUNT];
	const int *k;
	const struct agent *a = agent_get(model_event_agent(m, e));
	const struct agent_keys *ks = agent_keys();

	if (json_parse(j, p, n) != JSON_OK) {
		buf_add(out, p, n);
		return;
	}
	if (a->notice != NULL && a->notice(j, out))
		return;
	/* Its type and subtype, however its agent spells them. */
	json_getv(j, 0, ks->name, ks->n, s);
	k = agent_key_roles(s, roles);
	type = k[TOP_TYPE];
	sub = k[TOP_SUBTYPE];
	/* Anything else is shown as it is: kind and raw JSON. */
	if (type >= 0 && json_type(j, type) == JSON_STRING)
		json_decode(j, type, out);
	else
		buf_adds(out, "event without a type");
	if (sub >= 0 && json_type(j, sub) == JSON_STRING) {
		buf_addc(out, '/');
		json_decode(j, sub, out);
	}
	buf_adds(out, ": ");
	buf_add(out, p, n);
}
