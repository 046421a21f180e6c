/* json.c: the one jsmn wrapper. jsmn tokenizes a line; we check the shape it
 * lets through (one object, separators, keys, primitive spelling), then look
 * up and decode values in place. */
#include "json.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define JSMN_STATIC
#define JSMN_STRICT
#define JSMN_PARENT_LINKS
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
	int count;      /* 0 after an error */
	const char *s;  /* borrowed until the next parse */
	size_t n;
	size_t errpos;
	uint64_t label;  /* json_set_label's, 0 after a parse */
	struct frame stack[JSON_MAX_DEPTH]; /* the validator's, kept off the C stack */
};

/* Allocate a parser with a small token array. */
struct json *
json_new(void)
{
	struct json *j = xcalloc(1, sizeof *j);

	j->cap = JSON_INIT_TOKENS;
	j->tok = xreallocarray(NULL, j->cap, sizeof *j->tok);
	return j;
}

/* Free a parser and its tokens (not the line). */
void
json_free(struct json *j)
{
	if (j == NULL)
		return;
	free(j->tok);
	free(j);
}

/* JSON white space. */
static bool
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Offset of a token's first byte: a string's opening quote. */
static size_t
tok_offset(const jsmntok_t *t)
{
	return (size_t)t->start - (t->type == JSMN_STRING ? 1 : 0);
}

/* Record an error and its offset; returns err for tail calls. */
static enum json_err
json_fail(struct json *j, enum json_err err, size_t pos)
{
	j->errpos = pos;
	return err;
}

/* Check the bytes s[from..to) between two tokens: white space around exactly
 * one `sep`, or white space only when sep is 0. On failure *bad is the
 * offending byte, or `to` when sep is missing. */
static inline bool
gap_ok(const char *s, size_t from, size_t to, char sep, size_t *bad)
{
	size_t i = from;

	/* Compact JSON, nearly every line: no gap, or the separator alone. */
	if (to - from == (sep != '\0'))
		if (sep == '\0' || s[from] == sep)
			return true;
	while (i < to && is_ws(s[i]))
		i++;
	if (sep != '\0') {
		if (i == to || s[i] != sep) {
			*bad = i;
			return false;
		}
		i++;
		while (i < to && is_ws(s[i]))
			i++;
	}
	if (i < to) {
		*bad = i;
		return false;
	}
	return true;
}

/* Whether s[from..to) can be the start of a gap: white space around at most
 * one sep, which may be missing. For the text before where jsmn stopped,
 * when we cannot know what was to follow (a closing bracket needs no sep). */
static bool
gap_start_ok(const char *s, size_t from, size_t to, char sep, size_t *bad)
{
	size_t i = from;

	while (i < to && is_ws(s[i]))
		i++;
	if (sep != '\0' && i < to && s[i] == sep) {
		i++;
		while (i < to && is_ws(s[i]))
			i++;
	}
	*bad = i;
	return i == to;
}

/* Whether p[0..n) is spelled as JSON spells a literal or a number; strict
 * jsmn only looks at the first byte. */
static bool
primitive_ok(const char *p, size_t n)
{
	size_t i = 0;

	switch (p[0]) {
	case 't':
		return n == 4 && memcmp(p, "true", 4) == 0;
	case 'f':
		return n == 5 && memcmp(p, "false", 5) == 0;
	case 'n':
		return n == 4 && memcmp(p, "null", 4) == 0;
	}
	/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
	if (i < n && p[i] == '-')
		i++;
	if (i < n && p[i] == '0') {
		i++;
	} else if (i < n && p[i] >= '1' && p[i] <= '9') {
		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
	} else {
		return false;
	}
	if (i < n && p[i] == '.') {
		size_t d = ++i;

		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
		if (i == d)
			return false;
	}
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		size_t d;

		i++;
		if (i < n && (p[i] == '+' || p[i] == '-'))
			i++;
		d = i;
		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
		if (i == d)
			return false;
	}
	return i == n;
}

/* Finish the innermost container at its closing bracket: nothing may dangle
 * before it (a key without a value, a trailing comma). `next` is the token
 * after its subtree. */
static inline enum json_err
frame_close(struct json *j, const struct frame *f, size_t *pos, int next)
{
	size_t close = (size_t)f->close, bad = 0;

	if (f->state == ST_KEY) {
		if (gap_ok(j->s, *pos, close, ':', &bad))
			bad = close; /* "key": and no value */
		return json_fail(j, JSON_INVALID, bad);
	}
	if (!gap_ok(j->s, *pos, close, '\0', &bad))
		return json_fail(j, JSON_INVALID, bad);
	if (j->s[close] != (f->is_obj ? '}' : ']'))
		return json_fail(j, JSON_INVALID, close);
	j->tok[f->tok].size = f->size;
	j->tok[f->tok].parent = next;
	*pos = close + 1;
	return JSON_OK;
}

/* One non-recursive pass over tok[0..ntok) checking what jsmn does not: the
 * bytes between tokens, keys, primitive spelling, depth, a single top-level
 * object. Trusts from jsmn only the token extents, strings, and that brackets
 * pair up. With `whole` false the tokens are what a failed jsmn run left:
 * containers may be open, and only the text up to `stop`, where jsmn
 * stopped, is looked at; the caller reports jsmn's error if this finds
 * nothing earlier. Runs on every line: the innermost container lives in
 * `cur` (registers), j->stack[0..depth-1) holds the ones around it, and
 * compact JSON (no white space) takes the first test of each check. */
static enum json_err
json_validate(struct json *j, int ntok, bool whole, size_t stop)
{
	static const char seps[] = {'\0', ':', ','}; /* by enum frame_state */
	const char *s = j->s;
	const jsmntok_t *tok = j->tok;
	struct frame *st = j->stack;
	struct frame cur = {0, 0, 0, ST_FIRST, false};
	size_t close = SIZE_MAX; /* cur's closing bracket; SIZE_MAX: no container */
	enum json_err err;
	size_t pos = 0, bad = 0;
	int depth = 0, i;

	for (i = 0; i < ntok; i++) {
		int type = tok[i].type, start = tok[i].start, end = tok[i].end;
		size_t b, e;

		if (start < 0)
			break; /* allocated by jsmn just before it failed */
		b = (size_t)start;
		e = (size_t)end;
		if (type == JSMN_STRING) {
			b--; /* the quotes */
			e++;
		} else if (end < 0) {
			e = OPEN;
		}
		while (b >= close) {
			err = frame_close(j, &cur, &pos, i);
			if (err != JSON_OK)
				return err;
			if (--depth > 0) {
				cur = st[depth - 1];
				close = (size_t)cur.close;
			} else {
				close = SIZE_MAX;
			}
		}
		if (depth == 0) {
			if (i > 0)
				return json_fail(j, JSON_TRAILING,
						 gap_ok(s, pos, b, '\0', &bad) ? b : bad);
			if (!gap_ok(s, pos, b, '\0', &bad))
				return json_fail(j, JSON_INVALID, bad);
		} else {
			if (e > close) /* extents cross: never trust it */
				return json_fail(j, JSON_INVALID, close);
			if (!gap_ok(s, pos, b, seps[cur.state], &bad))
				return json_fail(j, JSON_INVALID, bad);
			if (cur.is_obj && cur.state != ST_KEY) {
				if (type != JSMN_STRING)
					return json_fail(j, JSON_INVALID, b);
				cur.state = ST_KEY;
				cur.size++;
			} else {
				cur.state = ST_VALUE;
				cur.size += !cur.is_obj;
			}
		}
		if (type == JSMN_STRING) {
			pos = e;
		} else if (type == JSMN_OBJECT || type == JSMN_ARRAY) {
			if (depth == JSON_MAX_DEPTH)
				return json_fail(j, JSON_TOO_DEEP, b);
			if (depth > 0)
				st[depth - 1] = cur;
			cur.tok = i;
			cur.close = end < 0 ? OPEN : end - 1;
			cur.size = 0;
			cur.state = ST_FIRST;
			cur.is_obj = type == JSMN_OBJECT;
			close = (size_t)cur.close;
			depth++;
			pos = b + 1;
		} else if (type == JSMN_PRIMITIVE) {
			if (!primitive_ok(s + b, e - b))
				return json_fail(j, JSON_INVALID, b);
			pos = e;
		} else {
			return json_fail(j, JSON_INVALID, b);
		}
	}
	while (depth > 0 && cur.close != OPEN) {
		err = frame_close(j, &cur, &pos, i);
		if (err != JSON_OK)
			return err;
		if (--depth > 0)
			cur = st[depth - 1];
	}
	if (!whole) {
		char sep = depth == 0 ? '\0' : seps[cur.state];

		if (pos < stop && !gap_start_ok(s, pos, stop, sep, &bad))
			return json_fail(j, JSON_INVALID, bad);
		return JSON_OK;
	}
	if (depth > 0) /* jsmn succeeded with a container open: cannot happen */
		return json_fail(j, JSON_TRUNCATED, j->n);
	if (ntok == 0) { /* only separators, which jsmn skips at the top */
		gap_ok(s, 0, j->n, '\0', &bad);
		return json_fail(j, JSON_INVALID, bad);
	}
	if (!gap_ok(s, pos, j->n, '\0', &bad))
		return json_fail(j, JSON_TRAILING, bad);
	if (j->tok[0].type != JSMN_OBJECT)
		return json_fail(j, JSON_NOT_OBJECT, tok_offset(&j->tok[0]));
	return JSON_OK;
}

/* How many containers are open where jsmn stopped, counting to just past
 * JSON_MAX_DEPTH: the parent links up from toksuper pass through each. */
static int
open_depth(const struct json *j, const jsmn_parser *p)
{
	int t = p->toksuper, depth = 0, steps = 0;

	while (t >= 0 && depth <= JSON_MAX_DEPTH && steps++ < 4 * JSON_MAX_DEPTH) {
		const jsmntok_t *k = &j->tok[t];

		if ((k->type == JSMN_OBJECT || k->type == JSMN_ARRAY) && k->end < 0)
			depth++;
		t = k->parent;
	}
	return depth;
}

/* Report err for a line jsmn stopped on at p->pos, unless the tokens before
 * that hold an earlier error. */
static enum json_err
json_stop(struct json *j, const jsmn_parser *p, enum json_err err)
{
	size_t at = MIN((size_t)p->pos, j->n);
	enum json_err first = json_validate(j, (int)p->toknext, false, at);

	if (first != JSON_OK)
		return first;
	return json_fail(j, err, at);
}

/* Turn a failed jsmn run (r is PART or INVAL) into the first error in the
 * line, which may not be where jsmn stopped. */
static enum json_err
json_jsmn_error(struct json *j, const jsmn_parser *p, int r)
{
	jsmntok_t *root = &j->tok[0];
	size_t at = MIN((size_t)p->pos, j->n);

	if (p->toknext > 0 && root->start >= 0 && root->end >= 0) {
		/* The first value is whole; jsmn failed on what follows it
		 * (`{} x`): check the value, then report the trailing text. */
		int k = 1;
		enum json_err err;

		if (root->type == JSMN_OBJECT || root->type == JSMN_ARRAY)
			while (k < (int)p->toknext && j->tok[k].start >= 0 &&
			       j->tok[k].start < root->end)
				k++;
		err = json_validate(j, k, true, 0);
		if (err != JSON_OK)
			return err;
	} else if (r == JSMN_ERROR_PART && p->toknext == 0 && at < j->n &&
		   j->s[at] != '"') {
		/* A bare number or literal ending the line: strict jsmn waits
		 * for a delimiter. Give it its token and judge it as a value. */
		root->type = JSMN_PRIMITIVE;
		root->start = (int)at;
		root->end = (int)j->n;
		root->size = 0;
		root->parent = -1;
		return json_validate(j, 1, true, 0);
	}
	return json_stop(j, p,
			 r == JSMN_ERROR_PART ? JSON_TRUNCATED : JSON_INVALID);
}

/* Tokenize and check j->s[0..n), which holds no white-space-only text;
 * *stop is where jsmn stopped, *ntok the tokens it made. A NUL byte is not
 * looked for here. */
static enum json_err
json_tokenize(struct json *j, const char *s, size_t n, size_t *stop,
	      int *ntok)
{
	jsmn_parser p;
	int r;

	jsmn_init(&p);
	for (;;) {
		unsigned lim = MIN(j->cap, p.toknext + JSON_CHUNK);

		r = jsmn_parse(&p, s, n, j->tok, lim);
		*stop = p.pos;
		*ntok = (int)p.toknext;
		if (r != JSMN_ERROR_NOMEM)
			break;
		/* The parser state is kept: grow, and go on without jsmn_init. */
		if (open_depth(j, &p) > JSON_MAX_DEPTH)
			return json_stop(j, &p, JSON_TOO_DEEP);
		if (p.toknext == j->cap) {
			if (j->cap >= JSON_MAX_TOKENS)
				return json_stop(j, &p, JSON_TOO_BIG);
			j->cap = MIN(j->cap * 2, JSON_MAX_TOKENS);
			j->tok = xreallocarray(j->tok, j->cap, sizeof *j->tok);
		}
	}
	if (r < 0)
		return json_jsmn_error(j, &p, r);
	return json_validate(j, (int)p.toknext, true, 0);
}

/* Parse s[0..n) as one JSON object. A NUL byte makes the line JSON_NUL
 * whatever else it holds; jsmn stops at one, so a line that parses and was
 * read to its end has none, and only the others need a memchr. */
enum json_err
json_parse(struct json *j, const char *s, size_t n)
{
	const char *nul;
	enum json_err err;
	size_t i, stop = 0;
	int ntok = 0;

	j->s = s;
	j->n = n;
	j->count = 0;
	j->errpos = 0;
	j->label = 0;
	if (j->cap > JSON_SHRINK_TOKENS) { /* keep memory bounded after a huge line */
		free(j->tok);
		j->cap = JSON_INIT_TOKENS;
		j->tok = xreallocarray(NULL, j->cap, sizeof *j->tok);
	}
	for (i = 0; i < n && is_ws(s[i]); i++)
		;
	if (i == n)
		return json_fail(j, JSON_EMPTY, 0);
	err = n >= INT_MAX /* jsmn keeps offsets in an int */
		      ? json_fail(j, JSON_TOO_BIG, 0)
		      : json_tokenize(j, s, n, &stop, &ntok);
	if ((err != JSON_OK || stop < n) &&
	    (nul = memchr(s, '\0', n)) != NULL)
		return json_fail(j, JSON_NUL, (size_t)(nul - s));
	if (err == JSON_OK)
		j->count = ntok;
	return err;
}

/* The first tokens of a line parsed before: jsmn with a token budget, then
 * one walk that does for the tokens read what the validator does for a
 * whole line (each container's size and the index past its subtree), with
 * the containers still open ending at the last token read. A member whose
 * value was not read, or whatever jsmn let through that no valid line
 * holds, ends what is kept, so that lookups stay within the tokens. */
enum json_err
json_parse_head(struct json *j, const char *s, size_t n, int ntok)
{
	struct frame *st = j->stack;
	jsmntok_t *tok = j->tok;
	jsmn_parser p;
	int r, count, depth = 0, i;

	j->s = s;
	j->n = n;
	j->count = 0;
	j->errpos = 0;
	j->label = 0;
	if (n >= INT_MAX)
		return json_fail(j, JSON_TOO_BIG, 0);
	ntok = MAX(1, MIN(ntok, MIN((int)j->cap, JSON_MAX_DEPTH)));
	jsmn_init(&p);
	r = jsmn_parse(&p, s, n, tok, (unsigned)ntok);
	count = (int)p.toknext;
	if ((r < 0 && r != JSMN_ERROR_NOMEM) || count == 0 ||
	    tok[0].type != JSMN_OBJECT)
		return json_fail(j, JSON_INVALID, MIN((size_t)p.pos, n));
	for (i = 0; i < count; i++) {
		size_t b = tok_offset(&tok[i]);
		struct frame *f;

		while (depth > 0 && b >= (size_t)st[depth - 1].close) {
			f = &st[--depth];
			tok[f->tok].size = f->size;
			tok[f->tok].parent = i;
		}
		if (depth == 0 && i > 0)
			break;
		if (depth > 0) {
			f = &st[depth - 1];
			if (f->is_obj && f->state != ST_KEY) {
				if (tok[i].type != JSMN_STRING || i + 1 >= count)
					break;
				f->state = ST_KEY;
				f->size++;
			} else {
				f->state = ST_VALUE;
				f->size += !f->is_obj;
			}
		}
		if (tok[i].type == JSMN_OBJECT || tok[i].type == JSMN_ARRAY) {
			f = &st[depth++];
			f->tok = i;
			f->close = tok[i].end < 0 ? OPEN : tok[i].end - 1;
			f->size = 0;
			f->state = ST_FIRST;
			f->is_obj = tok[i].type == JSMN_OBJECT;
		}
	}
	while (depth > 0) {
		struct frame *f = &st[--depth];

		tok[f->tok].size = f->size;
		tok[f->tok].parent = i;
	}
	j->count = i;
	return JSON_OK;
}

/* Offset of the last parse's error. */
size_t
json_errpos(const struct json *j)
{
	return j->errpos;
}

/* Bytes json_save writes. */
size_t
json_saved_size(const struct json *j)
{
	return (size_t)j->count * sizeof *j->tok;
}

/* Copy the tokens out. */
void
json_save(const struct json *j, void *dst)
{
	if (j->count > 0)
		memcpy(dst, j->tok, json_saved_size(j));
}

/* Copy saved tokens of a successful parse of s[0..n) in. */
void
json_restore(struct json *j, const char *s, size_t n, const void *saved,
	     size_t size)
{
	unsigned count = (unsigned)(size / sizeof *j->tok);

	if (j->cap > JSON_SHRINK_TOKENS || j->cap < count) {
		free(j->tok);
		j->cap = MAX(count, JSON_INIT_TOKENS);
		j->tok = xreallocarray(NULL, j->cap, sizeof *j->tok);
	}
	memcpy(j->tok, saved, size);
	j->s = s;
	j->n = n;
	j->count = (int)count;
	j->errpos = 0;
	j->label = 0;
}

/* Label the line just parsed. */
void
json_set_label(struct json *j, uint64_t label)
{
	j->label = label;
}

/* The tokens of s[0..n) under label are still there. */
bool
json_holds(const struct json *j, const char *s, size_t n, uint64_t label)
{
	return label != 0 && j->label == label && j->count > 0 && j->s == s &&
	       j->n == n;
}

/* Describe an error for a status line. */
const char *
json_strerror(enum json_err err)
{
	switch (err) {
	case JSON_OK:
		return "no error";
	case JSON_EMPTY:
		return "blank line";
	case JSON_NUL:
		return "NUL byte";
	case JSON_TRUNCATED:
		return "truncated JSON";
	case JSON_INVALID:
		return "not JSON";
	case JSON_NOT_OBJECT:
		return "JSON is not an object";
	case JSON_TRAILING:
		return "text after the JSON object";
	case JSON_TOO_DEEP:
		return "nested too deeply";
	case JSON_TOO_BIG:
		return "too many JSON tokens";
	}
	return "unknown JSON error";
}

/* Whether t names a token of the last successful parse. */
static bool
tok_ok(const struct json *j, int t)
{
	return j != NULL && t >= 0 && t < j->count;
}

/* A string or primitive is read whole or not at all; a container is whole
 * once jsmn saw its closing bracket. */
bool
json_whole(const struct json *j, int t)
{
	return tok_ok(j, t) && j->tok[t].end >= 0;
}

/* Tokens of the last successful parse. */
int
json_count(const struct json *j)
{
	return j->count;
}

/* Type of token t; JSON_NONE when t is out of range. */
enum json_type
json_type(const struct json *j, int t)
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

/* Members of an object, elements of an array. */
int
json_size(const struct json *j, int t)
{
	if (!tok_ok(j, t) || (j->tok[t].type != JSMN_OBJECT &&
			      j->tok[t].type != JSMN_ARRAY))
		return 0;
	return j->tok[t].size;
}

/* The token after t's subtree (the validator stored it for containers). */
int
json_next(const struct json *j, int t)
{
	if (!tok_ok(j, t))
		return -1;
	if (j->tok[t].type == JSMN_OBJECT || j->tok[t].type == JSMN_ARRAY)
		return j->tok[t].parent;
	return t + 1;
}

/* Whether a[0..n) and b[0..n) are the same bytes. Keys are short: for 4 to
 * 16 bytes, two overlapping loads from each side, without a call. */
static inline bool
same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y, x2, y2;
	uint32_t u, v, u2, v2;

	if (n >= 8 && n <= 16) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		memcpy(&x2, a + n - 8, 8);
		memcpy(&y2, b + n - 8, 8);
		return x == y && x2 == y2;
	}
	if (n >= 4 && n < 8) {
		memcpy(&u, a, 4);
		memcpy(&v, b, 4);
		memcpy(&u2, a + n - 4, 4);
		memcpy(&v2, b + n - 4, 4);
		return u == v && u2 == v2;
	}
	return memcmp(a, b, n) == 0;
}

/* Whether the raw key raw[0..n) decodes to key[0..klen); tmp holds a
 * decoded key. Decoding never lengthens, and a raw key equal byte for byte
 * to a key without backslashes has no escape: only a longer raw key with a
 * backslash needs decoding, and that is rare, so most calls are a length
 * test and at most one memcmp. */
static bool
raw_key_eq(const char *raw, size_t n, const char *key, size_t klen,
	   struct buf *tmp)
{
	if (n < klen)
		return false;
	if (n == klen) /* equal bytes, or an escape that decodes shorter */
		return same_bytes(raw, key, n) && memchr(key, '\\', klen) == NULL;
	if (memchr(raw, '\\', n) == NULL)
		return false;
	buf_reset(tmp);
	json_unescape(tmp, raw, n);
	return tmp->n == klen && memcmp(tmp->p, key, klen) == 0;
}

/* Whether string token t decodes to key[0..klen); tmp holds a decoded key. */
static bool
key_eq(const struct json *j, int t, const char *key, size_t klen,
       struct buf *tmp)
{
	const jsmntok_t *k = &j->tok[t];

	if (k->type != JSMN_STRING)
		return false;
	return raw_key_eq(j->s + k->start, (size_t)(k->end - k->start), key,
			  klen, tmp);
}

/* Value token of key[0..klen) among obj's direct members, or -1. */
static int
json_lookup(const struct json *j, int obj, const char *key, size_t klen)
{
	struct buf tmp = {0};
	int found = -1, t, m;

	if (json_type(j, obj) != JSON_OBJECT)
		return -1;
	t = obj + 1;
	for (m = 0; m < j->tok[obj].size; m++) {
		if (key_eq(j, t, key, klen, &tmp)) {
			found = t + 1;
			break;
		}
		t = json_next(j, t + 1);
	}
	if (tmp.cap > 0) /* a key or value needed decoding */
		buf_free(&tmp);
	return found;
}

/* Value of `key` in obj. */
int
json_get(const struct json *j, int obj, const char *key)
{
	return json_lookup(j, obj, key, strlen(key));
}

/* Values of several keys in one walk over obj's members. */
void
json_getv(const struct json *j, int obj, const char *const *keys, int nkeys,
	  int *out)
{
	struct json_keys ks;
	int k;

	if (nkeys <= JSON_KEYS_MAX) {
		json_keys_init(&ks, keys, nkeys);
		json_getk(j, obj, &ks, out);
		/* json_getk wants different keys: a key asked for twice gets
		 * what its first ask found. */
		for (k = 1; k < nkeys; k++)
			for (int e = 0; e < k && out[k] < 0; e++)
				if (strcmp(keys[e], keys[k]) == 0)
					out[k] = out[e];
		return;
	}
	for (k = 0; k < nkeys; k++) /* a long list: one key at a time */
		out[k] = json_get(j, obj, keys[k]);
}

/* Measure the keys once, for json_getk: a chain of keys per length. */
void
json_keys_init(struct json_keys *ks, const char *const *keys, int n)
{
	memset(ks, 0, sizeof *ks);
	memset(ks->head, -1, sizeof ks->head);
	ks->keys = keys;
	ks->n = MIN(n, JSON_KEYS_MAX);
	ks->minlen = SIZE_MAX;
	for (int k = ks->n - 1; k >= 0; k--) {
		size_t len = strlen(keys[k]), b = MIN(len, (size_t)63);

		ks->len[k] = len;
		ks->minlen = MIN(ks->minlen, len);
		ks->next[k] = ks->head[b];
		ks->head[b] = (int8_t)k;
		if (memchr(keys[k], '\\', len) != NULL)
			ks->escaped |= 1u << k;
	}
}

/* The key that raw[0..n), a member's name, decodes to, or -1: the key of
 * its length with the same bytes (unless the key has a backslash, which
 * raw would then hold too, as an escape), or, when raw is longer than a
 * key and holds an escape (rare), the key its decoding equals. */
static int
key_index(const struct json_keys *ks, const char *raw, size_t n,
	  struct buf *tmp)
{
	int k;

	for (k = ks->head[MIN(n, (size_t)63)]; k >= 0; k = ks->next[k])
		if (ks->len[k] == n && same_bytes(raw, ks->keys[k], n))
			return (ks->escaped >> k & 1) ? -1 : k;
	if (n <= ks->minlen || memchr(raw, '\\', n) == NULL)
		return -1;
	/* Decoding shortens every escape: a key of n bytes or more cannot
	 * match, and a key with a backslash equal to raw was rejected above. */
	buf_reset(tmp);
	json_unescape(tmp, raw, n);
	for (k = 0; k < ks->n; k++)
		if (ks->len[k] == tmp->n && memcmp(tmp->p, ks->keys[k], tmp->n) == 0)
			return k;
	return -1;
}

/* raw[0..n), n <= 16, as two words that hold all its bytes: the first and
 * last 8 (or 4) bytes, which overlap for shorter names. */
static inline void
seen_words(const char *raw, size_t n, uint64_t *a, uint64_t *b)
{
	uint32_t u = 0, v = 0;

	if (n >= 8) {
		memcpy(a, raw, 8);
		memcpy(b, raw + n - 8, 8);
		return;
	}
	if (n >= 4) {
		memcpy(&u, raw, 4);
		memcpy(&v, raw + n - 4, 4);
	} else if (n > 0) {
		u = (uint32_t)(unsigned char)raw[0] |
		    (uint32_t)(unsigned char)raw[n / 2] << 8 |
		    (uint32_t)(unsigned char)raw[n - 1] << 16;
	}
	*a = u;
	*b = v;
}

/* key_index through the cache of names seen: a line's member names are
 * nearly always those of an earlier line, and a hit costs two loads, a
 * hash and a compare, where the chain walk and the escape scan cost a
 * call and several branches that lines of different kinds mispredict. */
static inline int
key_index_seen(struct json_keys *ks, const char *raw, size_t n,
	       struct buf *tmp)
{
	struct json_seen *e;
	uint64_t a, b;

	if (n > 16)
		return key_index(ks, raw, n, tmp);
	seen_words(raw, n, &a, &b);
	e = &ks->seen[((a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^
		       n) >> 59 & (JSON_KEYS_SEEN - 1)];
	if (e->len1 != n + 1 || e->a != a || e->b != b) {
		e->a = a;
		e->b = b;
		e->len1 = (uint8_t)(n + 1);
		e->key = (int8_t)key_index(ks, raw, n, tmp);
	}
	return e->key;
}

/* Values of prepared keys in one walk over obj's members; the first of
 * duplicate members wins. */
void
json_getk(const struct json *j, int obj, struct json_keys *ks, int *out)
{
	struct buf tmp = {0};
	const jsmntok_t *tok = j->tok;
	int left = ks->n, t, m, k, size;

	for (k = 0; k < left; k++)
		out[k] = -1;
	if (json_type(j, obj) != JSON_OBJECT)
		return;
	size = tok[obj].size;
	/* The validator made the tokens a well-formed object: every member
	 * is a string key and a value, and a container's parent field holds
	 * the token after it. */
	for (m = 0, t = obj + 1; m < size && left > 0; m++) {
		const jsmntok_t *v = &tok[t + 1];

		k = key_index_seen(ks, j->s + tok[t].start,
				   (size_t)(tok[t].end - tok[t].start), &tmp);
		if (k >= 0 && out[k] < 0) {
			out[k] = t + 1;
			left--;
		}
		t = v->type == JSMN_OBJECT || v->type == JSMN_ARRAY ? v->parent
								    : t + 2;
	}
	if (tmp.cap > 0) /* a name needed decoding */
		buf_free(&tmp);
}

/* Follow the dot-separated keys of path down nested objects. */
int
json_path(const struct json *j, int obj, const char *path)
{
	int t = obj;

	for (;;) {
		const char *dot = strchr(path, '.');
		size_t len = dot != NULL ? (size_t)(dot - path) : strlen(path);

		t = json_lookup(j, t, path, len);
		if (t < 0 || dot == NULL)
			return t;
		path = dot + 1;
	}
}

/* Raw bytes of token t; empty for a bad index. */
const char *
json_raw(const struct json *j, int t, size_t *len)
{
	if (!tok_ok(j, t)) {
		*len = 0;
		return "";
	}
	*len = (size_t)(j->tok[t].end - j->tok[t].start);
	return j->s + j->tok[t].start;
}

/* Offset of token t's first byte (a string's opening quote). */
size_t
json_offset(const struct json *j, int t)
{
	if (!tok_ok(j, t))
		return 0;
	return tok_offset(&j->tok[t]);
}

/* A string token's bytes, decoded into tmp only when they hold an escape. */
static const char *
str_value(const struct json *j, int t, struct buf *tmp, size_t *len)
{
	const char *raw = j->s + j->tok[t].start;
	size_t n = (size_t)(j->tok[t].end - j->tok[t].start);

	if (memchr(raw, '\\', n) == NULL) {
		*len = n;
		return raw;
	}
	json_unescape(tmp, raw, n);
	*len = tmp->n;
	return tmp->p;
}

/* String token t decodes to lit. */
bool
json_streq(const struct json *j, int t, const char *lit)
{
	struct buf tmp = {0};
	bool eq;

	if (json_type(j, t) != JSON_STRING)
		return false;
	eq = key_eq(j, t, lit, strlen(lit), &tmp);
	if (tmp.cap > 0) /* a key or value needed decoding */
		buf_free(&tmp);
	return eq;
}

/* String token t decodes to something ending with suffix. */
bool
json_strsuffix(const struct json *j, int t, const char *suffix)
{
	struct buf tmp = {0};
	size_t slen = strlen(suffix), n;
	const char *v;
	bool eq;

	if (json_type(j, t) != JSON_STRING)
		return false;
	v = str_value(j, t, &tmp, &n);
	eq = n >= slen && memcmp(v + n - slen, suffix, slen) == 0;
	if (tmp.cap > 0) /* a key or value needed decoding */
		buf_free(&tmp);
	return eq;
}

/* Parse p[0..n) as an optional '-' and decimal digits within int64. */
static bool
parse_int64(const char *p, size_t n, int64_t *out)
{
	uint64_t v = 0, lim = INT64_MAX;
	bool neg = false;
	size_t i = 0;

	if (i < n && p[i] == '-') {
		neg = true;
		lim = (uint64_t)INT64_MAX + 1;
		i++;
	}
	if (i == n)
		return false;
	/* Every line has a timestamp: up to 18 digits cannot overflow, so
	 * only the 19th and later are checked. */
	for (size_t safe = MIN(n, i + 18); i < safe; i++) {
		unsigned d = (unsigned)((unsigned char)p[i] - '0');

		if (d > 9)
			return false;
		v = v * 10 + d;
	}
	for (; i < n; i++) {
		unsigned d = (unsigned)((unsigned char)p[i] - '0');

		if (d > 9 || v > (lim - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (!neg)
		*out = (int64_t)v;
	else if (v == (uint64_t)INT64_MAX + 1)
		*out = INT64_MIN;
	else
		*out = -(int64_t)v;
	return true;
}

/* An integer number, or a string holding only one (raw, so no escapes). */
bool
json_int(const struct json *j, int t, int64_t *out)
{
	enum json_type type = json_type(j, t);
	const char *raw;
	size_t n;

	if (type != JSON_PRIMITIVE && type != JSON_STRING)
		return false;
	raw = json_raw(j, t, &n);
	return parse_int64(raw, n, out);
}

/* The literal true or false. */
bool
json_bool(const struct json *j, int t, bool *out)
{
	const char *raw;
	size_t n;

	if (json_type(j, t) != JSON_PRIMITIVE)
		return false;
	raw = json_raw(j, t, &n);
	if (n == 4 && memcmp(raw, "true", 4) == 0)
		*out = true;
	else if (n == 5 && memcmp(raw, "false", 5) == 0)
		*out = false;
	else
		return false;
	return true;
}

/* A string's decoded value, or any other token's raw text. */
void
json_decode(const struct json *j, int t, struct buf *out)
{
	const char *raw;
	size_t n;

	if (!tok_ok(j, t))
		return;
	raw = json_raw(j, t, &n);
	if (j->tok[t].type == JSMN_STRING)
		json_unescape(out, raw, n);
	else
		buf_add(out, raw, n);
}

/* Value of four hex digits at p[0..n), or -1 if there are not four. */
static long
hex4(const char *p, size_t n)
{
	long v = 0;

	if (n < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = p[i];

		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (c - 'A' + 10);
		else
			return -1;
	}
	return v;
}

/* Decode the \u escape at p[0..n) (p[0] is '\\', p[1] 'u'), pairing a high
 * surrogate with a following low one; returns the bytes consumed. */
static size_t
unescape_u(struct buf *out, const char *p, size_t n)
{
	long hi = hex4(p + 2, n - 2), lo;

	if (hi < 0) { /* cut short (raw text jsmn never saw): keep it as is */
		buf_add(out, p, 2);
		return 2;
	}
	if (hi >= 0xD800 && hi <= 0xDBFF) {
		if (n >= 12 && p[6] == '\\' && p[7] == 'u' &&
		    (lo = hex4(p + 8, n - 8)) >= 0xDC00 && lo <= 0xDFFF) {
			buf_add_utf8(out, (uint32_t)(0x10000 + ((hi - 0xD800) << 10) +
						     (lo - 0xDC00)));
			return 12;
		}
		/* A lone high surrogate; whatever follows is decoded on its own. */
		buf_add_utf8(out, 0xFFFD);
		return 6;
	}
	if (hi >= 0xDC00 && hi <= 0xDFFF) /* a lone low surrogate */
		hi = 0xFFFD;
	buf_add_utf8(out, (uint32_t)hi);
	return 6;
}

/* Decode a JSON string body into UTF-8; never reads past n. */
void
json_unescape(struct buf *out, const char *raw, size_t n)
{
	size_t i = 0;

	while (i < n) {
		const char *bs = memchr(raw + i, '\\', n - i);
		size_t run = bs != NULL ? (size_t)(bs - raw) - i : n - i;
		char c;

		if (run > 0) {
			buf_add(out, raw + i, run);
			i += run;
			if (i == n)
				break;
		}
		if (i + 1 == n) { /* a backslash ending unvalidated text */
			buf_addc(out, '\\');
			break;
		}
		c = raw[i + 1];
		switch (c) {
		case '"':
		case '\\':
		case '/':
			buf_addc(out, c);
			break;
		case 'b':
			buf_addc(out, '\b');
			break;
		case 'f':
			buf_addc(out, '\f');
			break;
		case 'n':
			buf_addc(out, '\n');
			break;
		case 'r':
			buf_addc(out, '\r');
			break;
		case 't':
			buf_addc(out, '\t');
			break;
		case 'u':
			i += unescape_u(out, raw + i, n - i);
			continue;
		default: /* not an escape: copied as it is */
			buf_add(out, raw + i, 2);
			break;
		}
		i += 2;
	}
}

/* Length of the well-formed UTF-8 sequence at p[0..n) (RFC 3629: no
 * overlongs, surrogates or code points past U+10FFFF), or 0. */
static size_t
utf8_len(const unsigned char *p, size_t n)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xBF;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	} else {
		return 0;
	}
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

/* Append s[0..n) as a JSON string literal that any parser accepts. */
void
json_quote(struct buf *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	buf_reserve(out, n + 2);
	buf_addc(out, '"');
	while (i < n) {
		size_t run = i, len;
		unsigned char c;
		char esc[6];

		while (run < n && p[run] >= 0x20 && p[run] < 0x7f &&
		       p[run] != '"' && p[run] != '\\')
			run++;
		if (run > i) {
			buf_add(out, s + i, run - i);
			i = run;
			continue;
		}
		c = p[i];
		if (c >= 0x80) {
			len = utf8_len(p + i, n - i);
			if (len == 2 && c == 0xC2 && p[i + 1] < 0xA0) {
				/* C1 controls (U+0080..U+009F): CSI, OSC and
				 * DCS to some terminals, so escaped like C0. */
				memcpy(esc, "\\u00", 4);
				esc[4] = hex[p[i + 1] >> 4];
				esc[5] = hex[p[i + 1] & 15];
				buf_add(out, esc, 6);
			} else if (len > 0) {
				buf_add(out, s + i, len);
			} else {
				buf_add(out, "\\ufffd", 6);
			}
			i += len > 0 ? len : 1;
			continue;
		}
		switch (c) {
		case '"':
			buf_add(out, "\\\"", 2);
			break;
		case '\\':
			buf_add(out, "\\\\", 2);
			break;
		case '\n':
			buf_add(out, "\\n", 2);
			break;
		case '\r':
			buf_add(out, "\\r", 2);
			break;
		case '\t':
			buf_add(out, "\\t", 2);
			break;
		case '\b':
			buf_add(out, "\\b", 2);
			break;
		case '\f':
			buf_add(out, "\\f", 2);
			break;
		default: /* other controls and DEL */
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			buf_add(out, esc, 6);
			break;
		}
		i++;
	}
	buf_addc(out, '"');
}

/* Two spaces per level. */
static void
pretty_indent(struct buf *out, int level)
{
	for (int i = 0; i < level; i++)
		buf_add(out, "  ", 2);
}

/* A string token re-quoted from its decoded value, so the output is valid
 * JSON without raw control bytes; tmp is scratch. */
static void
pretty_string(const struct json *j, int t, struct buf *out, struct buf *tmp)
{
	size_t n;
	const char *raw = json_raw(j, t, &n);

	buf_reset(tmp);
	json_unescape(tmp, raw, n);
	json_quote(out, tmp->n > 0 ? tmp->p : "", tmp->n);
}

/* Token t and its subtree at `level`; recursion is bounded by
 * JSON_MAX_DEPTH, which the validator enforced. */
static void
pretty_value(const struct json *j, int t, int level, struct buf *out,
	     struct buf *tmp)
{
	const jsmntok_t *k = &j->tok[t];
	bool obj = k->type == JSMN_OBJECT;
	size_t n;
	const char *raw;
	int c = t + 1;

	if (k->type == JSMN_STRING) {
		pretty_string(j, t, out, tmp);
		return;
	}
	if (k->type != JSMN_OBJECT && k->type != JSMN_ARRAY) {
		raw = json_raw(j, t, &n);
		buf_add(out, raw, n);
		return;
	}
	if (k->size == 0) {
		buf_adds(out, obj ? "{}" : "[]");
		return;
	}
	buf_addc(out, obj ? '{' : '[');
	for (int m = 0; m < k->size; m++) {
		buf_adds(out, m > 0 ? ",\n" : "\n");
		pretty_indent(out, level + 1);
		if (obj) {
			pretty_string(j, c, out, tmp);
			buf_add(out, ": ", 2);
			c++;
		}
		pretty_value(j, c, level + 1, out, tmp);
		c = json_next(j, c);
	}
	buf_addc(out, '\n');
	pretty_indent(out, level);
	buf_addc(out, obj ? '}' : ']');
}

/* Token t re-indented for people to read. */
void
json_pretty(const struct json *j, int t, int indent, struct buf *out)
{
	struct buf tmp = {0};

	if (!tok_ok(j, t))
		return;
	pretty_value(j, t, indent, out, &tmp);
	buf_free(&tmp);
}

bool
json_int_at(const struct json *j, int obj, const char *path, int64_t *out)
{
	int t;

	if (j == NULL || obj < 0)
		return false;
	t = json_path(j, obj, path);
	return t >= 0 && json_int(j, t, out);
}
