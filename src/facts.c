/* facts.c: a call's record of facts, set by its adapter and read by the
 * rest (facts.h). */
#include "facts.h"

#include <string.h>

#include "json.h"

/* What a fact's token is: looked up as the first of its paths of that
 * type (a string, an array, an object), or the first present (a value:
 * whoever reads it says what it takes). */
enum { T_ANY, T_STR, T_ARRAY, T_OBJECT };

static const uint8_t call_type[CALL_NFACTS] = {
	[CALL_NAME] = T_STR,          [CALL_LABEL] = T_STR,         [CALL_PAYLOAD] = T_OBJECT,
	[CALL_VARIANT] = T_STR,       [CALL_ERROR] = T_STR,         [CALL_REASON] = T_STR,
	[CALL_COMMAND] = T_STR,       [CALL_COMMAND_SENT] = T_STR,  [CALL_PATH] = T_STR,
	[CALL_URL] = T_STR,           [CALL_QUERY] = T_STR,         [CALL_PROMPT] = T_STR,
	[CALL_TITLE] = T_STR,         [CALL_TASK_ID] = T_STR,       [CALL_DESCRIPTION] = T_STR,
	[CALL_DIR] = T_STR,           [CALL_GLOB] = T_STR,          [CALL_MODE] = T_STR,
	[CALL_INSTRUCTION] = T_STR,   [CALL_SIGNAL] = T_STR,        [CALL_BG_WHY] = T_STR,
	[CALL_STDOUT] = T_STR,        [CALL_STDERR] = T_STR,        [CALL_OUTPUT] = T_STR,
	[CALL_CONTENT] = T_STR,       [CALL_HUNKS] = T_ARRAY,       [CALL_DIFF] = T_STR,
	[CALL_BEFORE] = T_STR,        [CALL_AFTER] = T_STR,         [CALL_WRITTEN] = T_STR,
	[CALL_OLD_TEXT] = T_STR,      [CALL_NEW_TEXT] = T_STR,      [CALL_PATCH] = T_STR,
	[CALL_EDITS] = T_ARRAY,       [CALL_CHANGES] = T_ARRAY,     [CALL_MESSAGE] = T_STR,
	[CALL_MATCH_TEXT] = T_STR,    [CALL_FILES] = T_ARRAY,       [CALL_ROOTS] = T_OBJECT,
	[CALL_RESULTS] = T_ARRAY,     [CALL_TODOS_ASKED] = T_ARRAY, [CALL_TODOS] = T_ARRAY,
	[CALL_MCP_NAME] = T_STR,      [CALL_MCP_SERVER] = T_STR,    [CALL_MCP_TOOL] = T_STR,
	[CALL_MCP_CONTENT] = T_ARRAY, [CALL_SCHEMA] = T_STR,        [CALL_SUB_TYPE] = T_STR,
	[CALL_TOOL] = T_STR,          [CALL_MODEL] = T_STR,         [CALL_SUB_ID] = T_STR,
	[CALL_STATUS] = T_STR,        [CALL_OUTPUT_FILE] = T_STR,   [CALL_STEPS] = T_ARRAY,
	[CALL_STATUS_TEXT] = T_STR,   [CALL_PAGE] = T_STR,          [CALL_QUESTIONS] = T_ARRAY,
	[CALL_ANSWERS] = T_OBJECT,
};

static const uint8_t elem_type[EL_NFACTS] = {
	[EL_TEXT] = T_STR,    [EL_NAME] = T_STR,   [EL_TITLE] = T_STR,     [EL_URL] = T_STR,
	[EL_SNIPPET] = T_STR, [EL_DETAIL] = T_STR, [EL_OPTIONS] = T_ARRAY, [EL_LINKS] = T_ARRAY,
	[EL_OLD] = T_STR,     [EL_NEW] = T_STR,    [EL_KIND] = T_STR,      [EL_PATH] = T_STR,
	[EL_LINES] = T_ARRAY, [EL_FILE] = T_STR,   [EL_MATCHES] = T_ARRAY, [EL_FILES] = T_ARRAY,
};

/* The first of paths under obj of j of type `type`, or -1. */
static int
find(const struct json *j, int obj, const char *paths, unsigned type)
{
	static const enum json_type json_of[] = {
		[T_STR] = JSON_STRING, [T_ARRAY] = JSON_ARRAY, [T_OBJECT] = JSON_OBJECT};

	if (j == NULL || obj < 0)
		return -1;
	if (type == T_ANY)
		return json_path_any(j, obj, paths);
	return json_path_typed(j, obj, paths, json_of[type]);
}

static void
token(struct factval *f, const struct json *j, int t, uint32_t head, uint32_t tail)
{
	memset(f, 0, sizeof *f);
	f->form = FACT_TOKEN;
	f->j = j;
	f->t = t;
	f->head = head;
	f->tail = tail;
}

void
facts_reset(struct call_facts *v)
{
	memset(v->set, 0, sizeof v->set);
	memset(v->asked, 0, sizeof v->asked);
	v->rows = NULL;
	v->nrows = 0;
	for (size_t i = 0; i < FACT_PLACES; i++)
		v->place[i] = (struct fact_place){NULL, -1};
}

/* Whether bit f of bits is set. */
static bool
bit(const uint64_t *bits, unsigned f)
{
	return bits[f / 64] >> (f % 64) & 1;
}

/* Whether token t of j is an empty string: another place may say more. */
static bool
empty_at(const struct json *j, int t)
{
	size_t n;

	if (json_type(j, t) != JSON_STRING)
		return false;
	json_raw(j, t, &n);
	return n == 0;
}

/* Fact f from the rows of v's kind: the first found, unless it is an
 * empty string and a row after it finds more. */
static void
ask_rows(struct call_facts *v, enum call_fact f)
{
	int found = -1, t;
	const struct json *fj = NULL;

	for (size_t i = 0; i < v->nrows; i++) {
		const struct fact_row *r = &v->rows[i];
		const struct fact_place *p;

		if (r->fact != f || (r->kind != v->kind && r->kind != FACT_ANY_KIND) ||
		    r->place >= FACT_PLACES)
			continue;
		p = &v->place[r->place];
		if ((t = find(p->j, p->t, r->paths, call_type[f])) < 0 ||
		    (found >= 0 && empty_at(p->j, t)))
			continue;
		found = t;
		fj = p->j;
		if (!empty_at(fj, found))
			break;
	}
	if (found >= 0)
		call_set(v, f, fj, found);
}

const struct factval *
call_fact(struct call_facts *v, enum call_fact f)
{
	if (!bit(v->set, f) && !bit(v->asked, f) && v->rows != NULL) {
		v->asked[f / 64] |= (uint64_t)1 << (f % 64);
		ask_rows(v, f);
	}
	return bit(v->set, f) ? &v->f[f] : NULL;
}

static struct factval *
call_slot(struct call_facts *v, enum call_fact f)
{
	v->set[f / 64] |= (uint64_t)1 << (f % 64);
	return &v->f[f];
}

void
call_set(struct call_facts *v, enum call_fact f, const struct json *j, int t)
{
	if (j != NULL && t >= 0)
		token(call_slot(v, f), j, t, 0, 0);
}

void
call_set_part(struct call_facts *v, enum call_fact f, const struct json *j, int t, uint32_t head,
	      uint32_t tail)
{
	if (j != NULL && t >= 0)
		token(call_slot(v, f), j, t, head, tail);
}

void
call_set_number(struct call_facts *v, enum call_fact f, int64_t n)
{
	struct factval *x = call_slot(v, f);

	memset(x, 0, sizeof *x);
	x->form = FACT_NUMBER;
	x->n = n;
}

void
call_set_words(struct call_facts *v, enum call_fact f, const char *words)
{
	struct factval *x = call_slot(v, f);

	memset(x, 0, sizeof *x);
	x->form = FACT_WORDS;
	x->words = words;
}

const struct factval *
elem_fact(const struct elem_facts *e, enum elem_fact f)
{
	return (e->set >> f & 1) ? &e->f[f] : NULL;
}

void
elem_set(struct elem_facts *e, enum elem_fact f, const struct json *j, int t)
{
	if (j == NULL || t < 0)
		return;
	e->set |= (uint32_t)1 << f;
	token(&e->f[f], j, t, 0, 0);
}

void
elem_set_number(struct elem_facts *e, enum elem_fact f, int64_t n)
{
	e->set |= (uint32_t)1 << f;
	memset(&e->f[f], 0, sizeof e->f[f]);
	e->f[f].form = FACT_NUMBER;
	e->f[f].n = n;
}

bool
elem_find(struct elem_facts *e, enum elem_fact f, const struct json *j, int obj, const char *paths)
{
	const struct factval *had = elem_fact(e, f);
	int t;

	if (had != NULL && !empty_at(had->j, had->t))
		return true;
	if ((t = find(j, obj, paths, elem_type[f])) < 0 || (had != NULL && empty_at(j, t)))
		return had != NULL || t >= 0;
	elem_set(e, f, j, t);
	return true;
}

bool
call_elem(struct call_facts *v, enum fact_list l, const struct json *j, int t, struct elem_facts *e)
{
	e->set = 0;
	return v->elem != NULL && j != NULL && t >= 0 && v->elem(l, j, t, e);
}

/* --- reading -------------------------------------------------------------- */

bool
fact_str(const struct factval *f, struct buf *out)
{
	size_t from = out->n, n;

	if (f == NULL)
		return false;
	if (f->form == FACT_WORDS) {
		buf_adds(out, f->words);
		return true;
	}
	if (f->form != FACT_TOKEN || json_type(f->j, f->t) != JSON_STRING)
		return false;
	json_decode(f->j, f->t, out);
	if (f->head == 0 && f->tail == 0)
		return true;
	/* Only its part: what is left between the two. */
	n = out->n - from;
	if (f->head + (size_t)f->tail >= n) {
		buf_cut(out, from);
		return true;
	}
	memmove(out->p + from, out->p + from + f->head, n - f->head - f->tail);
	buf_cut(out, from + n - f->head - f->tail);
	return true;
}

bool
fact_text(const struct factval *f, struct buf *out)
{
	size_t from = out->n;

	return fact_str(f, out) && out->n > from;
}

bool
fact_int(const struct factval *f, int64_t *out)
{
	if (f == NULL)
		return false;
	if (f->form == FACT_NUMBER) {
		*out = f->n;
		return true;
	}
	return f->form == FACT_TOKEN && json_int(f->j, f->t, out);
}

bool
fact_value(const struct factval *f, struct buf *out)
{
	if (f == NULL)
		return false;
	if (f->form == FACT_NUMBER) {
		buf_addf(out, "%lld", (long long)f->n);
		return true;
	}
	if (f->form == FACT_WORDS)
		return fact_str(f, out);
	if (f->form != FACT_TOKEN || !json_is_value(f->j, f->t))
		return false;
	json_decode(f->j, f->t, out);
	return true;
}

bool
fact_true(const struct factval *f)
{
	bool b = false;

	if (f != NULL && f->form == FACT_NUMBER)
		return f->n != 0;
	return f != NULL && f->form == FACT_TOKEN && json_bool(f->j, f->t, &b) && b;
}

int
fact_size(const struct factval *f)
{
	if (!fact_array(f) && !fact_object(f))
		return -1;
	return json_size(f->j, f->t);
}

bool
fact_array(const struct factval *f)
{
	return f != NULL && f->form == FACT_TOKEN && json_type(f->j, f->t) == JSON_ARRAY;
}

bool
fact_object(const struct factval *f)
{
	return f != NULL && f->form == FACT_TOKEN && json_type(f->j, f->t) == JSON_OBJECT;
}
