/* model_build.c: the builder of agent.h, the events an adapter makes of a
 * line: sessions, prompts, text, thinking, calls, decisions, results. */
#include "model.h"

#include <string.h>

#include "agent.h"
#include "glyph.h"
#include "model_impl.h"

/* Lines from now on come from sub-agent call t (NONE: the session's
 * own): a sub-agent's text and thinking are not the session's. */
void
model_set_thread(struct srcstate *ss, uint32_t t)
{
	uint32_t th = ss->thread, text = ss->text_item, think = ss->think_item;
	bool seg = ss->seg_deltas, whole = ss->seg_whole;

	if (th == t)
		return;
	if (t == ss->away_thread) {
		/* Back to the other thread: its items go on. */
		ss->thread = t;
		ss->text_item = ss->away_text;
		ss->think_item = ss->away_think;
		ss->seg_deltas = ss->away_seg;
		ss->seg_whole = ss->away_whole;
	} else {
		ss->thread = t;
		ss->text_item = ss->think_item = NONE;
		ss->seg_deltas = ss->seg_whole = false;
		/* A second sub-agent: the session's own stay kept. */
		if (th != NONE && ss->away_thread == NONE)
			return;
	}
	ss->away_thread = th;
	ss->away_text = text;
	ss->away_think = think;
	ss->away_seg = seg;
	ss->away_whole = whole;
}

/* Make an event of the line being added; the model's parse of the line is
 * labelled with its line, for model_parsed. */
uint32_t
build_push(struct build *b, enum ev_type type)
{
	uint32_t e = model_push_event(b->m, b->src, b->ln, type, b->flags, b->ms);

	b->ev = e;
	b->m->json_ev = e;
	/* Labelled like the query parsers: a stream's buffer may move. */
	json_set_label(b->m->json, EV_LINE(&b->m->ev[e]));
	return e;
}

/* The source's state, and its current session (made when the stream
 * starts without a session start). */
static struct srcstate *
build_state(struct build *b, uint32_t e)
{
	struct srcstate *ss = &b->m->src[b->src];

	model_current_session(b->m, ss, b->src, e);
	model_set_thread(ss, b->parent);
	return ss;
}

void
build_parent(struct build *b, int id)
{
	struct srcstate *ss = &b->m->src[b->src];

	b->parent = model_sub_call(b->m, b->src);
	if (ss->session != NONE && json_type(b->j, id) == JSON_STRING)
		b->parent = callmap_get(&b->m->ids, model_id_key(b->j, id, ss->session, SALT_CALL));
}

uint32_t
build_segment_end(struct build *b)
{
	struct srcstate *ss = &b->m->src[b->src];
	uint32_t e = build_hidden(b);

	if (ss->thread == b->parent && ss->seg_deltas && !ss->seg_whole && ss->text_item != NONE) {
		b->m->it[ss->text_item].flags |= IF_CUT;
		b->m->ses[b->m->it[ss->text_item].session].has_cut = true;
		b->m->ev[e].pos |= (uint64_t)EVF_CUT << 56;
		ss->text_item = NONE;
	}
	if (ss->thread == b->parent)
		ss->seg_deltas = ss->seg_whole = false;
	return e;
}

uint32_t
build_hidden(struct build *b)
{
	struct srcstate *ss = &b->m->src[b->src];
	uint32_t e = build_push(b, EV_HIDDEN);

	/* No item; it only keeps the session's clock. */
	model_current_session(b->m, ss, b->src, e);
	return e;
}

/* Where the session's cwd is in its start line, for the paths shown
 * relative to it. */
static void
keep_cwd(struct build *b, struct session *ses)
{
	const char *path = agent_get(b->agent)->fact[FACT_CWD];
	int t = path != NULL ? json_path(b->j, 0, path) : -1;
	size_t n, off;

	ses->cwd_off = ses->cwd_len = 0;
	if (json_type(b->j, t) != JSON_STRING)
		return;
	json_raw(b->j, t, &n);
	off = json_offset(b->j, t) + 1;
	/* json_offset counts from the parsed text, which skips a BOM. */
	if (b->ln->off == 0 && b->ln->len >= 3 &&
	    memcmp(source_at(b->m->src[b->src].src, 0), GLYPH_BOM, 3) == 0)
		off += 3;
	if (n > 0 && n < UINT32_MAX && off < UINT32_MAX) {
		ses->cwd_off = (uint32_t)off;
		ses->cwd_len = (uint32_t)n;
	}
}

uint32_t
build_session(struct build *b)
{
	struct model *m = b->m;
	struct srcstate *ss = &m->src[b->src];
	uint32_t e = build_push(b, EV_INIT);

	if (ss->session != NONE && model_session_is_preamble(m, ss->session))
		m->ses[ss->session].init_ev = e;
	else
		model_new_session(m, ss, b->src, e, true);
	m->ses[ss->session].agent = (uint8_t)b->agent;
	keep_cwd(b, &m->ses[ss->session]);
	model_add_block(m, ss, b->src, e, IT_SESSION, NONE);
	return e;
}

uint32_t
build_prompt(struct build *b)
{
	uint32_t e = build_push(b, EV_USER);
	struct srcstate *ss = build_state(b, e);

	model_add_block(b->m, ss, b->src, e, IT_PROMPT, NONE);
	b->m->ses[ss->session].nprompts++;
	b->m->ses[ss->session].prompt_ev = e;
	return e;
}

/* A whole thinking block after deltas of its phase repeats them: it only
 * ends the phase. */
uint32_t
build_thinking(struct build *b, enum think_part part)
{
	struct srcstate *ss = &b->m->src[b->src];
	bool done = part == THINK_DONE ||
		    (part == THINK_WHOLE && ss->think_item != NONE && ss->thread == b->parent);
	uint32_t e = build_push(b, done ? EV_THINK_DONE : EV_THINK_DELTA);

	ss = build_state(b, e);
	ss->text_item = NONE;
	if (ss->think_item != NONE)
		model_extend_item(b->m, ss->think_item, e);
	else if (!done)
		ss->think_item = model_new_item(b->m, ss, b->src, IT_THINKING, e, NONE);
	if (done || part == THINK_WHOLE) {
		ss->think_item = NONE;
		ss->steps += ss->steps < UINT8_MAX;
	}
	return e;
}

/* A whole segment after deltas of the same segment only repeats them
 * (src/FORMAT.md §4): it is kept, as a recap, but not shown. */
uint32_t
build_text(struct build *b, enum text_part part)
{
	uint32_t e = build_push(b, EV_TEXT_DELTA);
	struct srcstate *ss = build_state(b, e);

	ss->think_item = NONE;
	if (part == TEXT_MESSAGE) {
		ss->seg_deltas = ss->seg_whole = false;
		ss->text_item = NONE;
	}
	/* A whole reply after several silent model steps may hold the
	 * text of two of them, glued (src/FORMAT.md §4). */
	if (part == TEXT_SEGMENT && ss->steps >= 2)
		b->m->ev[e].pos |= (uint64_t)EVF_GLUED << 56;
	ss->steps = 0;
	if (part == TEXT_DELTA) {
		ss->seg_deltas = true;
	} else if (ss->seg_deltas) {
		model_set_type(b->m, e, EV_TEXT_RECAP);
		ss->seg_whole = true;
		return e;
	} else {
		model_set_type(b->m, e, EV_TEXT);
	}
	if (ss->text_item != NONE)
		model_extend_item(b->m, ss->text_item, e);
	else
		ss->text_item = model_new_item(b->m, ss, b->src, IT_TEXT, e, NONE);
	return e;
}

/* Add (d = 1) or take back (d = -1) what call ci counts for in its
 * session: open, done by state, or going on in the background. */
static void
call_tally(struct model *m, uint32_t ci, int d)
{
	const struct call *c = &m->call[ci];
	struct session *ses = &m->ses[c->session];
	enum call_result r = c->flags & CF_BACKGROUND ? c->bg_result : c->result;

	if (c->done_ev == NONE)
		ses->nopen += (uint32_t)d;
	else if ((c->flags & CF_BACKGROUND) && c->bg_ev == NONE)
		ses->nbg += (uint32_t)d;
	else
		ses->ndone[model_result_state(r)] += (uint32_t)d;
}

/* A call's item, made at event e; a decision asked about the call before
 * it came is its (Cursor asks before it starts some calls). */
static void
call_item(struct build *b, struct srcstate *ss, uint32_t ci, uint32_t e, uint64_t key)
{
	struct model *m = b->m;
	uint32_t q;

	m->call[ci].parent = b->parent;
	m->call[ci].item = model_new_item(m, ss, b->src, IT_TOOL, e, ci);
	m->ses[m->call[ci].session].ncalls++;
	/* A new segment of assistant text starts after a tool call. */
	ss->seg_deltas = ss->seg_whole = false;
	ss->text_item = NONE;
	ss->think_item = NONE;
	ss->steps = 0;
	if (key == 0)
		return;
	callmap_put(&m->ids, key, ci);
	if ((q = callmap_take(&m->qwait, key)) != NONE) {
		m->query[q].call = ci;
		m->call[ci].query = q;
	}
}

uint32_t
build_tool_use(struct build *b, const struct agent *a, int t, int part)
{
	const struct json *j = b->j;
	int name = json_get(j, t, "name");
	size_t n;
	const char *raw = json_raw(j, name, &n);
	struct call_ref r = {
		json_get(j, t, "id"), TK_OTHER, CR_EMPTY, TIME_NONE, TIME_NONE, false, part};

	if (json_type(j, name) == JSON_STRING)
		r.kind = agent_tool_kind(a, raw, n);
	return build_call_start(b, &r);
}

uint32_t
build_call_start(struct build *b, const struct call_ref *r)
{
	struct model *m = b->m;
	uint32_t e = build_push(b, EV_TOOL_START);
	struct srcstate *ss = build_state(b, e);
	uint32_t s = ss->session, ci = model_new_call(m, s);
	struct call *c = &m->call[ci];
	uint64_t key = 0;

	c->start_ev = e;
	c->flags = CF_STARTED;
	c->kind = (uint8_t)r->kind;
	c->spart = (uint16_t)MIN(MAX(r->part, 0), CALL_PART_FAR);
	c->start_ms = m->ev[e].ms;
	if (c->start_ms == TIME_NONE)
		c->start_ms = r->started_ms;
	if (json_type(b->j, r->id) == JSON_STRING) {
		key = model_id_key(b->j, r->id, s, SALT_CALL);
		callmap_put(&m->open, key, ci);
	}
	call_item(b, ss, ci, e, key);
	call_tally(m, ci, 1);
	return e;
}

/* A call's end time: its start plus its own clock's span when the event
 * carries both ends, else the event's time, else its own end. */
static void
call_times(struct call *c, int64_t ev_ms, const struct call_ref *r)
{
	int64_t started = r->started_ms, completed = r->completed_ms;

	if (c->start_ms == TIME_NONE)
		c->start_ms = started;
	/* Both clocks are >= 0, so the difference cannot overflow; the sum
	 * can (found by hand under UBSan: timestamps near INT64_MAX). */
	if (started != TIME_NONE && completed != TIME_NONE && completed >= started &&
	    c->start_ms >= 0 && completed - started <= INT64_MAX - c->start_ms)
		c->end_ms = c->start_ms + (completed - started);
	else if (ev_ms != TIME_NONE)
		c->end_ms = ev_ms;
	else
		c->end_ms = completed;
	if (c->start_ms == TIME_NONE)
		c->start_ms = c->end_ms;
	if (c->end_ms != TIME_NONE && c->end_ms < c->start_ms)
		c->end_ms = c->start_ms;
}

/* Event e completes call ci (NONE: a call whose start never came). */
static uint32_t
call_done(struct build *b, const struct call_ref *r, uint32_t e, uint32_t ci, uint64_t key)
{
	struct model *m = b->m;
	struct srcstate *ss = &m->src[b->src];
	uint32_t s = ss->session;
	struct call *c;

	if (ci == NONE) {
		/* A completed event whose started event never came. */
		ci = model_new_call(m, s);
		call_item(b, ss, ci, e, key);
	} else {
		m->ev[e].item = m->call[ci].item;
		call_tally(m, ci, -1);
	}
	c = &m->call[ci];
	c->done_ev = e;
	c->dpart = (uint16_t)MIN(MAX(r->part, 0), CALL_PART_FAR);
	c->result = (uint8_t)r->result;
	if (r->has_args)
		c->flags |= CF_ARGS_DONE;
	if (c->kind == TK_OTHER)
		c->kind = (uint8_t)r->kind;
	call_times(c, m->ev[e].ms, r);
	call_tally(m, ci, 1);
	return e;
}

uint32_t
build_call_done(struct build *b, const struct call_ref *r)
{
	struct model *m = b->m;
	uint32_t e = build_push(b, EV_TOOL_DONE);
	struct srcstate *ss = build_state(b, e);
	uint32_t ci = NONE;
	uint64_t key = 0;

	if (json_type(b->j, r->id) == JSON_STRING) {
		key = model_id_key(b->j, r->id, ss->session, SALT_CALL);
		ci = callmap_take(&m->open, key);
	}
	return call_done(b, r, e, ci, key);
}

uint32_t
build_call_done_next(struct build *b, const struct call_ref *r)
{
	struct model *m = b->m;
	uint32_t e = build_push(b, EV_TOOL_DONE);
	struct srcstate *ss = build_state(b, e);
	uint32_t ci = NONE;

	/* The open calls are the last of the session's in the line's thread
	 * (the session's own, or a sub-agent's: those before them ended in
	 * order): the first of them. */
	for (size_t c = m->ncall; c-- > 0;) {
		if (m->call[c].session != ss->session || m->call[c].parent != b->parent)
			continue;
		if (m->call[c].done_ev != NONE || m->call[c].start_ev == NONE)
			break;
		ci = (uint32_t)c;
	}
	return call_done(b, r, e, ci, 0);
}

void
build_call_name(struct build *b, uint32_t e, const char *name, size_t n)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session, it = e != NONE ? m->ev[e].item : NONE;

	if (s == NONE || it == NONE || m->it[it].type != IT_TOOL || n == 0)
		return;
	callmap_put(&m->ids, call_key(s * 8u + SALT_CALL, name, n), m->it[it].ref);
}

void
build_background(struct build *b, int call, int task)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session, ci = NONE;

	if (s == NONE || !json_is_value(b->j, task))
		return;
	if (call < 0 && b->ev != NONE && m->ev[b->ev].item != NONE &&
	    m->it[m->ev[b->ev].item].type == IT_TOOL)
		ci = m->it[m->ev[b->ev].item].ref;
	else if (json_is_value(b->j, call))
		ci = callmap_get(&m->ids, model_id_key(b->j, call, s, SALT_CALL));
	if (ci == NONE || (m->call[ci].flags & CF_BACKGROUND))
		return;
	call_tally(m, ci, -1);
	m->call[ci].flags |= CF_BACKGROUND;
	m->call[ci].bg_result = CR_EMPTY;
	call_tally(m, ci, 1);
	callmap_put(&m->bg, model_id_key(b->j, task, s, SALT_TASK), ci);
}

int
build_call_kind(struct build *b, int id)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session, ci;

	if (s == NONE || json_type(b->j, id) != JSON_STRING)
		return -1;
	ci = callmap_get(&m->ids, model_id_key(b->j, id, s, SALT_CALL));
	return ci != NONE ? m->call[ci].kind : -1;
}

bool
build_call_open(struct build *b, int id)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session;

	return s != NONE && json_type(b->j, id) == JSON_STRING &&
	       callmap_get(&m->open, model_id_key(b->j, id, s, SALT_CALL)) != NONE;
}

void
build_wait(struct build *b, int task)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session, ci;

	if (s == NONE || b->ev == NONE || m->ev[b->ev].item == NONE ||
	    m->it[m->ev[b->ev].item].type != IT_TOOL || !json_is_value(b->j, task))
		return;
	ci = m->it[m->ev[b->ev].item].ref;
	m->call[ci].waits = callmap_get(&m->bg, model_id_key(b->j, task, s, SALT_TASK));
}

/* The end of the background call ci (NONE: none known) at this line. */
static uint32_t
task_end(struct build *b, uint32_t ci, enum call_result r, int64_t run_ms, bool quiet)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session, e;
	struct call *c;

	e = quiet && ci == NONE ? build_hidden(b) : build_notice(b);
	if (ci == NONE)
		return e;
	c = &m->call[ci];
	call_tally(m, ci, -1);
	c->bg_ev = e;
	c->bg_result = (uint8_t)r;
	/* After the session's result: its agent may go on (Claude Code
	 * starts a turn of its own). */
	if (m->ses[s].result_ev != NONE)
		m->ses[s].goes_on = true;
	/* It ended when the time it ran says, else when its notice came. */
	if (run_ms != TIME_NONE && c->start_ms != TIME_NONE)
		c->end_ms = ms_add(c->start_ms, run_ms);
	else
		c->end_ms = m->ev[e].ms;
	if (c->end_ms != TIME_NONE && c->start_ms != TIME_NONE && c->end_ms < c->start_ms)
		c->end_ms = c->start_ms;
	call_tally(m, ci, 1);
	return e;
}

uint32_t
build_task_end(struct build *b, int task, enum call_result r, int64_t run_ms, bool quiet)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session, ci = NONE;

	if (s != NONE && json_is_value(b->j, task))
		ci = callmap_take(&m->bg, model_id_key(b->j, task, s, SALT_TASK));
	return task_end(b, ci, r, run_ms, quiet);
}

uint32_t
build_task_end_named(struct build *b, const char *task, size_t n, enum call_result r,
		     int64_t run_ms)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session, ci = NONE;

	if (s != NONE && n > 0)
		ci = callmap_take(&m->bg, call_key(s * 8u + SALT_TASK, task, n));
	return task_end(b, ci, r, run_ms, false);
}

void
build_todo(struct build *b, int task, int state, bool create)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session, ci, t;
	struct session *ses;
	struct task *tk;
	uint64_t key;

	if (s == NONE || b->ev == NONE || m->ev[b->ev].item == NONE ||
	    m->it[m->ev[b->ev].item].type != IT_TOOL || !json_is_value(b->j, task))
		return;
	ci = m->it[m->ev[b->ev].item].ref;
	if (callmap_get(&m->steps, (uint64_t)ci << 1 | 1) != NONE)
		return; /* one step a call */
	ses = &m->ses[s];
	key = model_id_key(b->j, task, s, SALT_TODO);
	if ((t = callmap_get(&m->tasks, key)) == NONE) {
		/* Made now, or before the stream began. */
		ARRAY_RESERVE(m->task, m->taskcap, m->ntask + 1);
		t = (uint32_t)m->ntask++;
		m->task[t] = (struct task){s, create ? ci : NONE, (uint32_t)m->ntodo, TODO_PENDING};
		callmap_put(&m->tasks, key, t);
		ses->ntasks++;
	}
	tk = &m->task[t];
	if (state >= 0 && tk->state != TASK_GONE && state != tk->state) {
		ses->ntasks_done -= tk->state == TODO_DONE;
		ses->ntasks_done += state == TODO_DONE;
		ses->ntasks -= state == TASK_GONE;
		tk->state = (uint8_t)state;
	}
	ARRAY_RESERVE(m->todo, m->todocap, m->ntodo + 1);
	m->todo[m->ntodo] = (struct todo_step){ci, t, ses->ntasks, ses->ntasks_done, tk->state};
	callmap_put(&m->steps, (uint64_t)ci << 1 | 1, (uint32_t)m->ntodo++);
}

uint32_t
build_ask(struct build *b, int id, int call, enum query_kind kind)
{
	struct model *m = b->m;
	uint32_t e = build_push(b, EV_ASK);
	struct srcstate *ss = build_state(b, e);
	uint32_t s = ss->session, q = model_new_query(m, s), ci;

	m->query[q].ask_ev = e;
	m->query[q].kind = (uint8_t)kind;
	model_add_block(m, ss, b->src, e, IT_QUERY, q);
	m->query[q].item = m->ev[e].item;
	m->ses[s].nasking++;
	if (json_is_value(b->j, id))
		callmap_put(&m->asks, model_id_key(b->j, id, s, SALT_QUERY), q);
	if (json_type(b->j, call) != JSON_STRING)
		return e;
	ci = callmap_get(&m->ids, model_id_key(b->j, call, s, SALT_CALL));
	if (ci != NONE) {
		m->query[q].call = ci;
		m->call[ci].query = q;
	} else {
		callmap_put(&m->qwait, model_id_key(b->j, call, s, SALT_CALL), q);
	}
	return e;
}

uint32_t
build_answer(struct build *b, int id, enum query_kind kind, enum query_decision d)
{
	struct model *m = b->m;
	uint32_t e = build_push(b, EV_ANSWER);
	struct srcstate *ss = build_state(b, e);
	uint32_t s = ss->session, q = NONE;

	if (json_is_value(b->j, id))
		q = callmap_take(&m->asks, model_id_key(b->j, id, s, SALT_QUERY));
	if (q == NONE) {
		/* An answer whose question never came. */
		q = model_new_query(m, s);
		m->query[q].kind = (uint8_t)kind;
		model_add_block(m, ss, b->src, e, IT_QUERY, q);
		m->query[q].item = m->ev[e].item;
	} else {
		model_extend_item(m, m->query[q].item, e);
		if (m->ses[m->query[q].session].nasking > 0)
			m->ses[m->query[q].session].nasking--;
	}
	m->query[q].answer_ev = e;
	m->query[q].decision = (uint8_t)d;
	return e;
}

/* Event e, a result or the init of another turn, is session s's
 * latest: linked to the one before. */
static void
turn_link(struct model *m, uint32_t s, uint32_t e)
{
	if (m->ses[s].turn_ev != NONE)
		callmap_put(&m->turns, (uint64_t)e << 1 | 1, m->ses[s].turn_ev);
	m->ses[s].turn_ev = e;
}

uint32_t
build_turn(struct build *b)
{
	uint32_t e = build_hidden(b), s = b->m->src[b->src].session;
	struct srcstate *ss = &b->m->src[b->src];

	/* The turn's text is a paragraph of its own. */
	model_set_thread(ss, NONE);
	ss->text_item = ss->think_item = NONE;
	ss->seg_deltas = ss->seg_whole = false;
	b->m->ses[s].nturns++;
	b->m->ses[s].goes_on = false;
	turn_link(b->m, s, e);
	return e;
}

uint32_t
build_result(struct build *b, bool is_error, int64_t duration_ms)
{
	uint32_t e = build_push(b, EV_RESULT);
	struct srcstate *ss = build_state(b, e);
	struct session *ses = &b->m->ses[ss->session];

	ses->nresults++;
	turn_link(b->m, ss->session, e);

	/* The end of another turn of the same session (Claude Code goes on
	 * after a background agent ends): its time adds to the first's. */
	if (ses->result_ev != NONE && ses->duration_ms != TIME_NONE && duration_ms != TIME_NONE &&
	    duration_ms <= INT64_MAX - ses->duration_ms)
		duration_ms += ses->duration_ms;
	ses->result_ev = e;
	ses->is_error = is_error;
	ses->duration_ms = duration_ms;
	ss->text_item = NONE;
	ss->think_item = NONE;
	ss->seg_deltas = ss->seg_whole = false;
	model_new_item(b->m, ss, b->src, IT_RESULT, e, NONE);
	return e;
}

uint32_t
build_notice(struct build *b)
{
	uint32_t e = build_push(b, EV_NOTICE);

	model_add_block(b->m, build_state(b, e), b->src, e, IT_NOTICE, NONE);
	return e;
}

uint32_t
build_progress(struct build *b, int call)
{
	struct model *m = b->m;
	uint32_t e = build_hidden(b), s = m->src[b->src].session, ci;

	if (s != NONE && json_type(b->j, call) == JSON_STRING &&
	    (ci = callmap_get(&m->ids, model_id_key(b->j, call, s, SALT_CALL))) != NONE)
		callmap_put(&m->progress, (uint64_t)ci << 1 | 1, e);
	return e;
}

uint32_t
build_rule(struct build *b)
{
	uint32_t e = build_notice(b);

	b->m->ev[e].pos |= (uint64_t)EVF_RULE << 56;
	return e;
}

void
build_facts(struct build *b)
{
	uint32_t s = b->m->src[b->src].session;

	if (s != NONE && b->ev != NONE && b->m->ses[s].facts_ev == NONE)
		b->m->ses[s].facts_ev = b->ev;
}

void
build_usage(struct build *b, int id, const struct tokens *t)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session;
	uint64_t key;

	if (s == NONE)
		return;
	if (json_type(b->j, id) == JSON_STRING) {
		key = model_id_key(b->j, id, s, SALT_MSG);
		if (callmap_get(&m->msgs, key) != NONE)
			return; /* another block of a message counted */
		callmap_put(&m->msgs, key, 0);
	}
	build_tokens(b, t, false);
}

void
build_failure(struct build *b)
{
	uint32_t s = b->m->src[b->src].session;

	if (s != NONE && b->ev != NONE)
		b->m->ses[s].fail_ev = b->ev;
}

void
build_stop(struct build *b)
{
	uint32_t s = b->m->src[b->src].session;

	if (s != NONE && b->ev != NONE)
		b->m->ses[s].stop_ev = b->ev;
}

bool
build_stopped(const struct build *b)
{
	uint32_t s = b->m->src[b->src].session;
	const struct session *ses;

	if (s == NONE)
		return false;
	ses = &b->m->ses[s];
	return ses->stop_ev != NONE && (ses->prompt_ev == NONE || ses->prompt_ev < ses->stop_ev);
}

bool
build_seen(struct build *b, int id, unsigned what)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session;
	uint64_t key;

	if (s == NONE || !json_is_value(b->j, id))
		return false;
	key = model_id_key(b->j, id, s, what & 3);
	if (callmap_get(&m->seen, key) != NONE)
		return true;
	callmap_put(&m->seen, key, s);
	return false;
}

/* a + d, saturated at 0 and INT64_MAX. */
static int64_t
tok_add(int64_t a, int64_t d)
{
	if (d > 0 && a > INT64_MAX - d)
		return INT64_MAX;
	return a + d < 0 ? 0 : a + d;
}

void
build_tokens(struct build *b, const struct tokens *t, bool total)
{
	struct srcstate *ss = &b->m->src[b->src];
	uint32_t s = ss->session;
	struct session *ses;

	if (s == NONE)
		return;
	/* Totals passed over before this line: a total says all they
	 * would, a count adds to them. */
	if (ss->nlate > 0 && total)
		ss->nlate = 0;
	else if (ss->nlate > 0)
		model_read_totals(b->m, b->src);
	ses = &b->m->ses[s];
	if (total || !ses->has_tokens)
		ses->tok_sum = !total;
	if (total || !ses->has_tokens) {
		ses->tok = *t;
	} else {
		ses->tok.in = tok_add(ses->tok.in, t->in);
		ses->tok.cache_read = tok_add(ses->tok.cache_read, t->cache_read);
		ses->tok.cache_write = tok_add(ses->tok.cache_write, t->cache_write);
		ses->tok.out = tok_add(ses->tok.out, t->out);
	}
	ses->has_tokens = true;
}

/* The newest running totals line of a source's session that says them
 * (totals_late: the others were passed over unparsed). */
void
model_read_totals(struct model *m, unsigned src)
{
	struct srcstate *ss = &m->src[src];
	size_t i = ss->nlate;
	int s[JSON_KEYS_MAX], roles[TOP_COUNT];

	ss->nlate = 0;
	if (i == 0 || ss->session == NONE)
		return;
	if (m->ljson == NULL)
		m->ljson = json_new();
	/* The newest that says them is what all of them in turn leave. */
	while (i-- > 0) {
		const struct line *ln = &ss->late[i];
		struct build b = {.m = m,
				  .src = src,
				  .agent = session_agent(m, ss),
				  .ln = ln,
				  .j = m->ljson,
				  .ms = TIME_NONE,
				  .ev = NONE,
				  .parent = NONE};

		if (json_parse(m->ljson, source_at(ss->src, ln->off), ln->len) != JSON_OK)
			continue;
		json_getk(m->ljson, 0, &m->top_keys, s);
		b.k = agent_key_roles(s, roles);
		if (agent_get(b.agent)->totals(&b))
			return;
	}
}
