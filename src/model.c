/* model.c: the store: sources, events, items, calls, sessions and
 * diagnostics in arrays that only grow, the id maps, and their makers
 * (model_impl.h), which the builder (model_build.c) and the lines read in
 * (model_line.c) use; nothing here calls either. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "ahead.h"
#include "model_impl.h"

/* Below this many bytes left, a file is parsed on one thread: starting a
 * thread costs more than it saves. */
#define AHEAD_MIN (4u << 20)

/* A slot of the open-call map: key 0 is empty. */
struct callslot {
	uint64_t key;
	uint32_t call;
};

struct model *
model_new(void)
{
	struct model *m = xcalloc(1, sizeof *m);

	m->json = json_new();
	json_keys_init(&m->top_keys, agent_keys()->name, agent_keys()->n);
	m->qjson = json_new();
	m->qjson2 = json_new();
	m->qjson3 = json_new();
	m->sjson = json_new();
	m->cmd.last_stderr = NONE;
	m->json_ev = NONE;
	m->now_ms = TIME_NONE;
	m->limit = NONE;
	m->ahead_min = AHEAD_MIN;
	m->agent = -1;
	m->said = NONE;
	return m;
}

/* Free everything that model_clear forgets. */
static void
model_free_events(struct model *m)
{
	free(m->ev);
	free(m->it);
	free(m->ses);
	free(m->call);
	free(m->diag);
	free(m->open.v);
	free(m->ids.v);
	free(m->asks.v);
	free(m->qwait.v);
	free(m->bg.v);
	free(m->turns.v);
	free(m->task);
	free(m->todo);
	free(m->tasks.v);
	free(m->steps.v);
	free(m->progress.v);
	free(m->msgs.v);
	free(m->seen.v);
	free(m->sub);
	free(m->query);
	model_order_free(m);
}

/* No sub-agent talked yet: the session's own lines come. */
void
model_thread_reset(struct srcstate *ss)
{
	ss->thread = ss->away_thread = NONE;
	ss->away_text = ss->away_think = NONE;
	ss->away_seg = ss->away_whole = false;
}

/* Stop the parser thread of source i, if one runs. */
static void
model_stop_ahead(struct model *m, size_t i)
{
	ahead_stop(m->src[i].ahead);
	m->src[i].ahead = NULL;
}

void
model_free(struct model *m)
{
	if (m == NULL)
		return;
	for (size_t i = 0; i < m->nsrc; i++) {
		model_stop_ahead(m, i);
		free(m->src[i].sub_call);
		free(m->src[i].late);
	}
	model_free_events(m);
	json_free(m->json);
	json_free(m->qjson);
	json_free(m->qjson2);
	json_free(m->qjson3);
	json_free(m->sjson);
	json_free(m->ljson);
	if (m->cmd.argv != NULL) {
		for (char **a = m->cmd.argv; *a != NULL; a++)
			free(*a);
		free(m->cmd.argv);
	}
	free(m);
}

void
model_reader_sync(struct model *r, const struct model *m)
{
	struct json *q = r->qjson, *q2 = r->qjson2, *q3 = r->qjson3;

	model_order_free(r);
	*r = *m;
	/* Queries write only to the parsers; the model's own one holds the
	 * line being added, which a reader never asks for. */
	r->json = NULL;
	r->sjson = NULL;
	r->json_ev = NONE;
	r->order = NULL; /* its own, when asked for */
	r->qjson = q != NULL ? q : json_new();
	r->qjson2 = q2 != NULL ? q2 : json_new();
	r->qjson3 = q3 != NULL ? q3 : json_new();
	json_set_label(r->qjson, 0);
	json_set_label(r->qjson2, 0);
	json_set_label(r->qjson3, 0);
}

void
model_reader_free(struct model *r)
{
	json_free(r->qjson);
	json_free(r->qjson2);
	json_free(r->qjson3);
	model_order_free(r);
	memset(r, 0, sizeof *r);
}

void
model_clear(struct model *m)
{
	model_free_events(m);
	m->ev = NULL;
	m->nev = m->evcap = 0;
	m->it = NULL;
	m->nit = m->itcap = 0;
	m->ses = NULL;
	m->nses = m->sescap = 0;
	m->call = NULL;
	m->ncall = m->callcap = 0;
	m->diag = NULL;
	m->ndiag = m->diagcap = 0;
	memset(&m->open, 0, sizeof m->open);
	memset(&m->ids, 0, sizeof m->ids);
	memset(&m->asks, 0, sizeof m->asks);
	memset(&m->qwait, 0, sizeof m->qwait);
	memset(&m->bg, 0, sizeof m->bg);
	memset(&m->turns, 0, sizeof m->turns);
	m->task = NULL;
	m->ntask = m->taskcap = 0;
	m->todo = NULL;
	m->ntodo = m->todocap = 0;
	memset(&m->tasks, 0, sizeof m->tasks);
	memset(&m->steps, 0, sizeof m->steps);
	memset(&m->progress, 0, sizeof m->progress);
	memset(&m->msgs, 0, sizeof m->msgs);
	memset(&m->seen, 0, sizeof m->seen);
	m->sub = NULL;
	m->nsub = m->subcap = 0;
	m->moved = false;
	m->query = NULL;
	m->nquery = m->querycap = 0;
	m->json_ev = NONE;
	json_set_label(m->sjson, 0);
	json_set_label(m->qjson, 0);
	json_set_label(m->qjson2, 0);
	json_set_label(m->qjson3, 0);
	m->lines = m->bytes = 0;
	m->cmd.last_stderr = NONE;
	m->cmd.nstderr = 0;
	for (size_t i = 0; i < m->nsrc; i++) {
		struct source *s = m->src[i].src;
		uint32_t of = m->src[i].stderr_of, sub_of = m->src[i].sub_of;
		char *sub_call = m->src[i].sub_call;

		model_stop_ahead(m, i);
		free(m->src[i].late);
		/* What a source is (another's stderr, a sub-agent's file) stays. */
		memset(&m->src[i], 0, sizeof m->src[i]);
		m->src[i].src = s;
		m->src[i].stderr_of = of;
		m->src[i].sub_of = sub_of;
		m->src[i].sub_call = sub_call;
		m->src[i].session = NONE;
		model_thread_reset(&m->src[i]);
		m->src[i].think_item = NONE;
		m->src[i].text_item = NONE;
		m->src[i].last_ev = NONE;
		m->src[i].opened_ms = TIME_NONE;
	}
	m->limit = NONE;
}

void
model_reset(struct model *m)
{
	model_clear(m);
	if (m->cmd.argv != NULL) {
		for (char **a = m->cmd.argv; *a != NULL; a++)
			free(*a);
		free(m->cmd.argv);
	}
	memset(&m->cmd, 0, sizeof m->cmd);
	m->cmd.last_stderr = NONE;
}

unsigned
model_add_source(struct model *m, struct source *s)
{
	struct srcstate *ss;

	if (m->nsrc >= MODEL_MAX_SOURCES)
		die("too many inputs (at most %d)", MODEL_MAX_SOURCES);
	ss = &m->src[m->nsrc];
	memset(ss, 0, sizeof *ss);
	ss->src = s;
	ss->session = NONE;
	ss->think_item = NONE;
	ss->text_item = NONE;
	ss->stderr_of = NONE;
	ss->last_ev = NONE;
	ss->sub_of = NONE;
	ss->opened_ms = TIME_NONE;
	model_thread_reset(ss);
	return (unsigned)m->nsrc++;
}

uint32_t
model_sub_call(const struct model *m, unsigned src)
{
	const struct srcstate *ss = &m->src[src];
	uint32_t s;

	if (ss->sub_call == NULL || ss->sub_of == NONE || (s = m->src[ss->sub_of].session) == NONE)
		return NONE;
	return callmap_get(&m->ids,
			   call_key(s * 8u + SALT_CALL, ss->sub_call, strlen(ss->sub_call)));
}

void
model_set_parent(struct model *m, unsigned src, unsigned of, const char *call)
{
	m->src[src].sub_of = of;
	free(m->src[src].sub_call);
	m->src[src].sub_call = call != NULL ? xstrdup(call) : NULL;
}

void
model_set_stderr(struct model *m, unsigned src, unsigned of)
{
	m->src[src].stderr_of = of;
}

/* --- the open-call map ------------------------------------------------ */

/* The map key of a call_id in a session; never 0. */
uint64_t
call_key(uint32_t session, const char *id, size_t n)
{
	return hash_bytes(id, n, (uint64_t)session * 0x9E3779B97F4A7C15ULL) | 1;
}

static void
callmap_grow(struct callmap *cm)
{
	struct callslot *old = cm->v;
	size_t ocap = cm->cap;

	cm->cap = ocap ? ocap * 2 : 64;
	cm->v = xcalloc(cm->cap, sizeof *cm->v);
	cm->n = 0;
	for (size_t i = 0; i < ocap; i++) {
		if (old[i].key != 0) {
			size_t j = old[i].key & (cm->cap - 1);

			while (cm->v[j].key != 0)
				j = (j + 1) & (cm->cap - 1);
			cm->v[j] = old[i];
			cm->n++;
		}
	}
	free(old);
}

/* Map key to call; a second open call with the same key takes its place. */
void
callmap_put(struct callmap *cm, uint64_t key, uint32_t call)
{
	size_t j;

	if ((cm->n + 1) * 2 > cm->cap)
		callmap_grow(cm);
	j = key & (cm->cap - 1);
	while (cm->v[j].key != 0 && cm->v[j].key != key)
		j = (j + 1) & (cm->cap - 1);
	if (cm->v[j].key == 0)
		cm->n++;
	cm->v[j].key = key;
	cm->v[j].call = call;
}

/* The call of key, or NONE. */
uint32_t
callmap_get(const struct callmap *cm, uint64_t key)
{
	size_t j, mask = cm->cap - 1;

	if (cm->cap == 0)
		return NONE;
	for (j = key & mask; cm->v[j].key != 0; j = (j + 1) & mask)
		if (cm->v[j].key == key)
			return cm->v[j].call;
	return NONE;
}

/* Remove key and return its call, or NONE. Backward-shift deletion keeps
 * linear probing correct without tombstones. */
uint32_t
callmap_take(struct callmap *cm, uint64_t key)
{
	size_t j, k, mask = cm->cap - 1;
	uint32_t call;

	if (cm->cap == 0)
		return NONE;
	j = key & mask;
	while (cm->v[j].key != key) {
		if (cm->v[j].key == 0)
			return NONE;
		j = (j + 1) & mask;
	}
	call = cm->v[j].call;
	for (k = (j + 1) & mask; cm->v[k].key != 0; k = (k + 1) & mask) {
		size_t home = cm->v[k].key & mask;

		/* Move k into the hole at j if j lies between home and k. */
		if (((k - home) & mask) >= ((k - j) & mask)) {
			cm->v[j] = cm->v[k];
			j = k;
		}
	}
	cm->v[j].key = 0;
	cm->n--;
	return call;
}

/* --- building ---------------------------------------------------------- */

uint32_t
model_push_event(struct model *m, unsigned src, const struct line *ln, enum ev_type type,
		 unsigned flags, int64_t ms)
{
	struct event *e;

	ARRAY_RESERVE(m->ev, m->evcap, m->nev + 1);
	if (m->nev >= NONE - 1)
		die("more than %u events", NONE - 1);
	e = &m->ev[m->nev];
	e->pos = (uint64_t)ln->off | (uint64_t)src << 40 | (uint64_t)type << 48 |
		 (uint64_t)(flags & 0xFF) << 56;
	e->len = ln->len > UINT32_MAX ? UINT32_MAX : (uint32_t)ln->len;
	e->item = NONE;
	e->ms = ms;
	m->src[src].last_ev = (uint32_t)m->nev;
	return (uint32_t)m->nev++;
}

void
model_set_type(struct model *m, uint32_t e, enum ev_type type)
{
	m->ev[e].pos = (m->ev[e].pos & ~(0xFFull << 48)) | (uint64_t)type << 48;
}

uint32_t
model_new_session(struct model *m, struct srcstate *ss, unsigned src, uint32_t e, bool init)
{
	struct session *s;

	/* The totals passed over are the session's that ends here. */
	if (ss->nlate > 0)
		model_read_totals(m, src);
	ARRAY_RESERVE(m->ses, m->sescap, m->nses + 1);
	s = &m->ses[m->nses];
	memset(s, 0, sizeof *s);
	s->init_ev = init ? e : NONE;
	s->result_ev = s->turn_ev = NONE;
	s->nturns = 1;
	s->first_ev = e;
	s->last_ev = e;
	s->first_item = (uint32_t)m->nit;
	s->src = src;
	s->start_ms = TIME_NONE;
	s->opened_ms = ss->opened_ms;
	ss->opened_ms = TIME_NONE;
	s->last_ms = TIME_NONE;
	s->duration_ms = TIME_NONE;
	s->closed_ms = TIME_NONE;
	s->closed_ev = NONE;
	s->facts_ev = s->fail_ev = s->stop_ev = s->prompt_ev = NONE;
	ss->session = (uint32_t)m->nses;
	ss->think_item = NONE;
	ss->text_item = NONE;
	ss->seg_deltas = ss->seg_whole = false;
	ss->steps = 0;
	model_thread_reset(ss);
	return (uint32_t)m->nses++;
}

void
model_order_free(struct model *m)
{
	struct order *o = m->order;

	if (o == NULL)
		return;
	for (int k = 0; k < MAP_COUNT; k++)
		free(o->map[k]);
	free(o->kids);
	free(o->stack);
	free(o);
	m->order = NULL;
}

/* The entry of m->sub for item it, or NULL: a binary search, as items
 * are added there in order. */
static const struct subitem *
sub_of(const struct model *m, uint32_t it)
{
	size_t lo = 0, hi = m->nsub;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->sub[mid].item < it)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nsub && m->sub[lo].item == it ? &m->sub[lo] : NULL;
}

uint32_t
model_item_parent(const struct model *m, uint32_t it)
{
	const struct subitem *s = sub_of(m, it);

	return s != NULL ? s->parent : NONE;
}

uint32_t
model_item_top(const struct model *m, uint32_t it)
{
	const struct subitem *s = sub_of(m, it);

	return s != NULL ? s->top : NONE;
}

/* Item it is a sub-agent's, under item parent: where the order puts it
 * is not where it is unless the item before it is under parent too. */
static void
model_sub_item(struct model *m, uint32_t it, uint32_t parent)
{
	uint32_t x = it > 0 ? it - 1 : NONE, top = model_item_top(m, parent);

	ARRAY_RESERVE(m->sub, m->subcap, m->nsub + 1);
	m->sub[m->nsub++] = (struct subitem){it, parent, top != NONE ? top : parent};
	if (m->it[parent].type == IT_TOOL)
		m->call[m->it[parent].ref].flags |= CF_SUB;
	while (!m->moved && x != NONE && x != parent)
		x = model_item_parent(m, x);
	if (x == NONE)
		m->moved = true;
}

uint32_t
model_new_item(struct model *m, struct srcstate *ss, unsigned src, enum item_type type, uint32_t e,
	       uint32_t ref)
{
	struct item *it;

	ARRAY_RESERVE(m->it, m->itcap, m->nit + 1);
	it = &m->it[m->nit];
	memset(it, 0, sizeof *it); /* its padding too: models are compared */
	it->first_ev = e;
	it->last_ev = e;
	it->session = ss->session;
	it->ref = ref;
	it->type = (uint8_t)type;
	it->src = (uint8_t)src;
	it->depth = 0;
	/* A command's stderr is its own, never a sub-agent's. */
	if (ss->thread != NONE && type != IT_STDERR) {
		uint8_t d = m->it[m->call[ss->thread].item].depth;

		it->depth = d < UINT8_MAX ? d + 1 : d;
	}
	it->nev = 1;
	m->ev[e].item = (uint32_t)m->nit;
	if (ss->thread != NONE && type != IT_STDERR)
		model_sub_item(m, (uint32_t)m->nit, m->call[ss->thread].item);
	return (uint32_t)m->nit++;
}

void
model_extend_item(struct model *m, uint32_t it, uint32_t e)
{
	m->it[it].last_ev = e;
	if (m->it[it].nev < UINT16_MAX)
		m->it[it].nev++;
	m->ev[e].item = it;
}

uint32_t
model_new_diag(struct model *m, uint32_t e, const struct line *ln, enum diag_code code,
	       enum json_err err, size_t pos)
{
	struct diag *d;

	ARRAY_RESERVE(m->diag, m->diagcap, m->ndiag + 1);
	d = &m->diag[m->ndiag];
	d->line = ln->no;
	d->ev = e;
	d->pos = pos > UINT32_MAX ? UINT32_MAX : (uint32_t)pos;
	d->code = (uint8_t)code;
	d->err = (uint8_t)err;
	return (uint32_t)m->ndiag++;
}

/* The session events of this source go to, made when the stream starts
 * without a system/init. */
uint32_t
model_current_session(struct model *m, struct srcstate *ss, unsigned src, uint32_t e)
{
	if (ss->session == NONE)
		model_new_session(m, ss, src, e, false);
	return ss->session;
}

void
model_session_touch(struct model *m, uint32_t s, uint32_t e)
{
	struct session *ses = &m->ses[s];
	int64_t ms = m->ev[e].ms;

	ses->last_ev = e;
	if (ms != TIME_NONE) {
		/* Its first time, or its stream's opening before it. */
		if (ses->start_ms == TIME_NONE)
			ses->start_ms = ses->opened_ms != TIME_NONE && ses->opened_ms <= ms
						? ses->opened_ms
						: ms;
		if (ses->last_ms == TIME_NONE || ms > ses->last_ms)
			ses->last_ms = ms;
	}
}

/* The map key of the id token t (a string, or a number's text) of kind
 * salt in session s. */
uint64_t
model_id_key(const struct json *j, int t, uint32_t session, unsigned salt)
{
	const char *raw;
	size_t n;
	uint64_t key, seed = session * 8u + salt; /* up to eight kinds of id */

	raw = json_raw(j, t, &n);
	if (memchr(raw, '\\', n) == NULL)
		return call_key((uint32_t)seed, raw, n);
	{
		struct buf b = {0};

		json_unescape(&b, raw, n);
		key = call_key((uint32_t)seed, b.p, b.n);
		buf_free(&b);
	}
	return key;
}

/* A new decision asked for in session s, with no event yet. */
uint32_t
model_new_query(struct model *m, uint32_t s)
{
	struct query *q;

	ARRAY_RESERVE(m->query, m->querycap, m->nquery + 1);
	q = &m->query[m->nquery];
	memset(q, 0, sizeof *q);
	q->ask_ev = q->answer_ev = q->item = q->call = NONE;
	q->session = s;
	q->kind = QK_OTHER;
	q->decision = QD_PENDING;
	return (uint32_t)m->nquery++;
}

/* A new call of session s, of no known kind, with no event and no time
 * yet; returns its index. */
uint32_t
model_new_call(struct model *m, uint32_t s)
{
	struct call *c;

	ARRAY_RESERVE(m->call, m->callcap, m->ncall + 1);
	c = &m->call[m->ncall];
	memset(c, 0, sizeof *c);
	c->start_ev = NONE;
	c->done_ev = NONE;
	c->session = s;
	c->parent = c->query = c->bg_ev = c->waits = NONE;
	c->kind = TK_OTHER;
	c->start_ms = TIME_NONE;
	c->end_ms = TIME_NONE;
	return (uint32_t)m->ncall++;
}

/* An item of its own that ends the open text and thinking items. */
void
model_add_block(struct model *m, struct srcstate *ss, unsigned src, uint32_t e, enum item_type type,
		uint32_t ref)
{
	model_current_session(m, ss, src, e);
	ss->text_item = NONE;
	ss->think_item = NONE;
	model_new_item(m, ss, src, type, e, ref);
}

/* A session that holds nothing but lines that are no events (diagnostics,
 * stderr): what a command printed before its system/init, which belongs to
 * the session that init starts. */
bool
model_session_is_preamble(const struct model *m, uint32_t s)
{
	const struct session *ses = &m->ses[s];

	if (ses->init_ev != NONE || ses->ncalls > 0 || ses->nprompts > 0 || ses->result_ev != NONE)
		return false;
	for (size_t i = ses->first_item; i < m->nit; i++)
		if (m->it[i].session == s && m->it[i].type != IT_DIAG && m->it[i].type != IT_STDERR)
			return false;
	return true;
}

void
model_release_source(struct model *m, unsigned src)
{
	model_stop_ahead(m, src);
	m->src[src].ahead_tried = true;
}

void
model_end_source(struct model *m, unsigned src)
{
	model_stop_ahead(m, src);
	m->src[src].ended = true;
	m->src[src].text_item = NONE;
	m->src[src].think_item = NONE;
}

void
model_stream_opened(struct model *m, unsigned src, int64_t ms)
{
	struct srcstate *ss = &m->src[src];

	if (ss->session == NONE)
		ss->opened_ms = ms;
}

void
model_stream_closed(struct model *m, unsigned src, int64_t ms)
{
	struct srcstate *ss = &m->src[src];
	struct session *ses;

	if (ss->session == NONE || ms == TIME_NONE)
		return;
	ses = &m->ses[ss->session];
	if (ses->result_ev != NONE || ses->last_ms == TIME_NONE || ms < ses->last_ms)
		return;
	ses->closed_ms = ms;
	ses->closed_ev = ss->last_ev;
}

bool
model_ended(const struct model *m)
{
	for (size_t i = 0; i < m->nsrc; i++)
		if (!m->src[i].ended)
			return false;
	return true;
}
