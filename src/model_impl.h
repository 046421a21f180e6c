/* model_impl.h: what model.c (the store), model_build.c (the builder) and
 * model_line.c (a line in) share, and nothing else includes: the store's
 * own makers of events, items, calls, sessions and diagnostics. */
#ifndef MODEL_IMPL_H
#define MODEL_IMPL_H

#include "model.h"

struct build;

/* What a key of the maps names: a call, a decision asked for, a task
 * gone to the background, a message counted (ids of different kinds may
 * be alike). */
enum { SALT_CALL = 0, SALT_QUERY = 1, SALT_TASK = 2, SALT_TODO = 3, SALT_MSG = 4 };

uint64_t call_key(uint32_t session, const char *id, size_t n);
void callmap_put(struct callmap *cm, uint64_t key, uint32_t call);
uint32_t callmap_get(const struct callmap *cm, uint64_t key);
uint32_t callmap_take(struct callmap *cm, uint64_t key);
/* The map key of the id token t (a string, or a number's text) of kind
 * salt in session s. */
uint64_t model_id_key(const struct json *j, int t, uint32_t session, unsigned salt);

uint32_t model_push_event(struct model *m, unsigned src, const struct line *ln, enum ev_type type,
			  unsigned flags, int64_t ms);
void model_set_type(struct model *m, uint32_t e, enum ev_type type);
uint32_t model_new_session(struct model *m, struct srcstate *ss, unsigned src, uint32_t e,
			   bool init);
uint32_t model_new_item(struct model *m, struct srcstate *ss, unsigned src, enum item_type type,
			uint32_t e, uint32_t ref);
void model_extend_item(struct model *m, uint32_t it, uint32_t e);
/* A diagnostic of event e, line ln: what was wrong, where in the line. */
uint32_t model_new_diag(struct model *m, uint32_t e, const struct line *ln, enum diag_code code,
			enum json_err err, size_t pos);
uint32_t model_current_session(struct model *m, struct srcstate *ss, unsigned src, uint32_t e);
void model_session_touch(struct model *m, uint32_t s, uint32_t e);
uint32_t model_new_query(struct model *m, uint32_t s);
uint32_t model_new_call(struct model *m, uint32_t s);
void model_add_block(struct model *m, struct srcstate *ss, unsigned src, uint32_t e,
		     enum item_type type, uint32_t ref);
bool model_session_is_preamble(const struct model *m, uint32_t s);
/* The call a sub-agent's source runs under (model_set_parent), found in
 * its session; NONE for any other source, or before the call came. */
uint32_t model_sub_call(const struct model *m, unsigned src);
void model_thread_reset(struct srcstate *ss);
/* Lines from now on come from sub-agent call t (NONE: the session's own). */
void model_set_thread(struct srcstate *ss, uint32_t t);
/* The order the transcript is read in (model_order.c makes it, the store
 * frees it). Its maps: position to item and back, timeline row to call
 * and back. */
enum order_map { MAP_ITEM, MAP_POS, MAP_CALL, MAP_ROW, MAP_COUNT };

struct order {
	uint32_t *map[MAP_COUNT];
	size_t cap;           /* of MAP_ITEM, MAP_POS */
	size_t ccap;          /* of MAP_CALL, MAP_ROW */
	size_t n;             /* items placed: those shown when it was made */
	size_t nsub;          /* sub-agent items known then */
	bool made;            /* the maps hold an order */
	struct subitem *kids; /* the sub-agent items by parent: scratch */
	size_t kcap;
	uint32_t (*stack)[2]; /* the walk's: next child and end, by level */
	size_t scap;
};

/* Make an event of the line being added (model_build.c). */
uint32_t build_push(struct build *b, enum ev_type type);

/* The agent whose adapter reads the lines of a source's session. */
static inline unsigned
session_agent(const struct model *m, const struct srcstate *ss)
{
	return m->agent >= 0 ? (unsigned)m->agent : m->ses[ss->session].agent;
}

#endif
