/* json_impl.h: the parser's insides, shared by the files of the JSON
 * module only (json.c tokenizes, validates and walks tokens, json_get.c
 * looks up; json_str.c needs none of it); no other file includes it.
 * jsmn's code is compiled in json.c alone: the others see only its token
 * type. */
#ifndef AGENTVIEW_JSON_IMPL_H
#define AGENTVIEW_JSON_IMPL_H

#include <limits.h>

#include "json.h"

#define JSMN_STRICT
#define JSMN_PARENT_LINKS
#ifdef JSON_IMPLEMENTS_JSMN
#define JSMN_STATIC
#else
#define JSMN_HEADER
#endif
#include <jsmn.h>

/* Tokens for a fresh parser; after a line needing more than JSON_SHRINK_TOKENS
 * the array goes back to this size on the next parse. */
#define JSON_INIT_TOKENS 256u
#define JSON_SHRINK_TOKENS 65536u
/* jsmn is handed at most this many new tokens per call, so that between calls
 * we can check the nesting depth: jsmn closes a bracket by walking the parent
 * links up from the last token, which is quadratic in the depth (a 100k-deep
 * line takes 12 s), so deep lines must be stopped before they close. */
#define JSON_CHUNK 1024u
/* The closing bracket of a container jsmn left open (only in a prefix). */
#define OPEN INT_MAX

/* What the validator expects next inside a container. */
enum frame_state {
	ST_FIRST, /* just opened: a value, or a key in an object, or the close */
	ST_KEY,   /* after a key: ':' and a value */
	ST_VALUE, /* after a value: ',' and another, or the close */
};

/* A container being walked by the validator. */
struct frame {
	int tok;   /* its token */
	int close; /* offset of its closing bracket, or OPEN */
	int size;  /* members or elements seen so far */
	enum frame_state state;
	bool is_obj;
};

/* After a successful parse, tok[0..count) describe the line s[0..n), which
 * the caller owns. A container's `parent` field no longer holds its parent
 * (nothing needs it after jsmn) but the index just past its subtree, so that
 * json_next is O(1). */
struct json {
	jsmntok_t *tok; /* owned, cap entries */
	unsigned cap;
	int count;     /* 0 after an error */
	const char *s; /* borrowed until the next parse */
	size_t n;
	size_t errpos;
	uint64_t label;                     /* json_set_label's, 0 after a parse */
	uint64_t gen;                       /* its parse, unique in the process */
	struct frame stack[JSON_MAX_DEPTH]; /* the validator's, kept off the C stack */
};

/* Whether t names a token of the last successful parse. */
static inline bool
tok_ok(const struct json *j, int t)
{
	return j != NULL && t >= 0 && t < j->count;
}

/* json_type, json_next and json_raw (json.c), inlined where the lookups
 * of json_get.c walk members. */
static inline enum json_type
tok_type(const struct json *j, int t)
{
	if (!tok_ok(j, t))
		return JSON_NONE;
	switch (j->tok[t].type) {
	case JSMN_OBJECT:
		return JSON_OBJECT;
	case JSMN_ARRAY:
		return JSON_ARRAY;
	case JSMN_STRING:
		return JSON_STRING;
	case JSMN_PRIMITIVE:
		return JSON_PRIMITIVE;
	default:
		return JSON_NONE;
	}
}

static inline int
tok_next(const struct json *j, int t)
{
	if (!tok_ok(j, t))
		return -1;
	if (j->tok[t].type == JSMN_OBJECT || j->tok[t].type == JSMN_ARRAY)
		return j->tok[t].parent;
	return t + 1;
}

static inline const char *
tok_raw(const struct json *j, int t, size_t *len)
{
	if (!tok_ok(j, t)) {
		*len = 0;
		return "";
	}
	*len = (size_t)(j->tok[t].end - j->tok[t].start);
	return j->s + j->tok[t].start;
}

/* Offset of a token's first byte: a string's opening quote. */
static inline size_t
tok_offset(const jsmntok_t *t)
{
	return (size_t)t->start - (t->type == JSMN_STRING ? 1 : 0);
}

#endif
