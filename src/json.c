/* json.c: the one jsmn wrapper. jsmn tokenizes a line; we check the shape it
 * lets through (one object, separators, keys, primitive spelling), and walk
 * its tokens (type, size, the next one, raw bytes). Values are looked up in
 * place by json_get.c and decoded by json_str.c, which build on these. */
#include "json.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define JSON_IMPLEMENTS_JSMN
#include "json_impl.h"

/* Allocate a parser with a small token array. Its stack of containers
 * (10 KB) is left as malloc gives it: each frame is written before it is
 * read, and the model makes a few parsers for each file it reads. */
struct json *
json_new(void)
{
	struct json *j = xmalloc(sizeof *j);

	memset(j, 0, offsetof(struct json, stack));

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

/* The parses made, for json_nth: each one's number is its own. */
static _Atomic uint64_t parses;

/* JSON white space. */
static bool
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The quote that ends the string whose first byte is p[0], within n, or
 * NULL: the first one not escaped by an odd run of backslashes. */
static const char *
string_end(const char *p, size_t n)
{
	const char *q = p, *end = p + n;

	while ((q = memchr(q, '"', (size_t)(end - q))) != NULL) {
		size_t bs = 0;

		while (q - bs > p && q[-1 - (ptrdiff_t)bs] == '\\')
			bs++;
		if (bs % 2 == 0)
			return q;
		q++;
	}
	return NULL;
}

size_t
json_value_len(const char *p, size_t n)
{
	size_t i = 0, depth = 0;
	const char *q;

	while (i < n && is_ws(p[i]))
		i++;
	while (i < n) {
		switch (p[i]) {
		case '"':
			if ((q = string_end(p + i + 1, n - i - 1)) == NULL)
				return 0;
			i = (size_t)(q - p) + 1;
			break;
		case '{':
		case '[':
			depth++;
			i++;
			break;
		case '}':
		case ']':
			if (depth == 0)
				return 0;
			depth--;
			i++;
			break;
		default:
			if (depth == 0) { /* a number, true, false or null */
				while (i < n && !is_ws(p[i]) && p[i] != ',' && p[i] != '}' &&
				       p[i] != ']')
					i++;
				return i;
			}
			i++;
		}
		if (depth == 0)
			return i;
	}
	return 0;
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
	} else if (r == JSMN_ERROR_PART && p->toknext == 0 && at < j->n && j->s[at] != '"') {
		/* A bare number or literal ending the line: strict jsmn waits
		 * for a delimiter. Give it its token and judge it as a value. */
		root->type = JSMN_PRIMITIVE;
		root->start = (int)at;
		root->end = (int)j->n;
		root->size = 0;
		root->parent = -1;
		return json_validate(j, 1, true, 0);
	}
	return json_stop(j, p, r == JSMN_ERROR_PART ? JSON_TRUNCATED : JSON_INVALID);
}

/* Tokenize and check j->s[0..n), which holds no white-space-only text;
 * *stop is where jsmn stopped, *ntok the tokens it made. A NUL byte is not
 * looked for here. */
static enum json_err
json_tokenize(struct json *j, const char *s, size_t n, size_t *stop, int *ntok)
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
	j->gen = atomic_fetch_add(&parses, 1) + 1;
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
	if ((err != JSON_OK || stop < n) && (nul = memchr(s, '\0', n)) != NULL)
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
	j->gen = atomic_fetch_add(&parses, 1) + 1;
	if (n >= INT_MAX)
		return json_fail(j, JSON_TOO_BIG, 0);
	ntok = MAX(1, MIN(ntok, MIN((int)j->cap, JSON_MAX_DEPTH)));
	jsmn_init(&p);
	r = jsmn_parse(&p, s, n, tok, (unsigned)ntok);
	count = (int)p.toknext;
	if ((r < 0 && r != JSMN_ERROR_NOMEM) || count == 0 || tok[0].type != JSMN_OBJECT)
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
json_restore(struct json *j, const char *s, size_t n, const void *saved, size_t size)
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
	j->gen = atomic_fetch_add(&parses, 1) + 1;
}

/* The element n of array t, or -1. An array walked in order costs its
 * length, not its length squared: where the thread's last calls ended
 * are kept, in the few arrays asked of most lately (an array of arrays
 * stays while each of its arrays is walked). */
int
json_nth(const struct json *j, int t, int n)
{
	static _Thread_local struct {
		uint64_t gen, used;
		int t, i, at;
	} last[4];
	static _Thread_local uint64_t uses;
	unsigned k, old = 0;
	int i = 0, at = t + 1;

	if (!tok_ok(j, t) || j->tok[t].type != JSMN_ARRAY || n < 0 || n >= j->tok[t].size)
		return -1;
	for (k = 0; k < ARRAY_LEN(last) && (last[k].gen != j->gen || last[k].t != t); k++)
		if (last[k].used < last[old].used)
			old = k;
	if (k == ARRAY_LEN(last))
		k = old;
	else if (last[k].i <= n) {
		i = last[k].i;
		at = last[k].at;
	}
	last[k].used = ++uses;
	for (; i < n; i++)
		at = tok_next(j, at);
	last[k].gen = j->gen;
	last[k].t = t;
	last[k].i = i;
	last[k].at = at;
	return at;
}

uint64_t
json_parse_id(const struct json *j)
{
	return j != NULL && j->count > 0 ? j->gen : 0;
}

/* Label the line just parsed. */
void
json_set_label(struct json *j, uint64_t label)
{
	j->label = label;
}

void
json_copy(struct json *dst, const struct json *src)
{
	if (src->count > 0 && (unsigned)src->count > dst->cap) {
		free(dst->tok);
		dst->tok = xcalloc((size_t)src->count, sizeof *dst->tok);
		dst->cap = (unsigned)src->count;
	}
	if (src->count > 0)
		memcpy(dst->tok, src->tok, (size_t)src->count * sizeof *dst->tok);
	dst->count = src->count;
	dst->s = src->s;
	dst->n = src->n;
	dst->errpos = src->errpos;
	dst->label = 0;
}

/* The tokens of s[0..n) under label are still there. */
bool
json_holds(const struct json *j, const char *s, size_t n, uint64_t label)
{
	return label != 0 && j->label == label && j->count > 0 && j->s == s && j->n == n;
}

/* --- walking the tokens -------------------------------------------------- */

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
	return tok_type(j, t);
}

/* Members of an object, elements of an array. */
int
json_size(const struct json *j, int t)
{
	if (!tok_ok(j, t) || (j->tok[t].type != JSMN_OBJECT && j->tok[t].type != JSMN_ARRAY))
		return 0;
	return j->tok[t].size;
}

/* The token after t's subtree (the validator stored it for containers). */
int
json_next(const struct json *j, int t)
{
	return tok_next(j, t);
}

/* Raw bytes of token t; empty for a bad index. */
const char *
json_raw(const struct json *j, int t, size_t *len)
{
	return tok_raw(j, t, len);
}

/* Offset of token t's first byte (a string's opening quote). */
size_t
json_offset(const struct json *j, int t)
{
	if (!tok_ok(j, t))
		return 0;
	return tok_offset(&j->tok[t]);
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
