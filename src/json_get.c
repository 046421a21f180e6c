/* json_get.c: looking up and reading values in a parsed line: members,
 * paths, strings compared without decoding, numbers, booleans (strings
 * decoded by json_str.c, which needs nothing of this file). */
#include "json.h"

#include <string.h>

#include "json_impl.h"

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

/* raw_key_eq of a raw key longer than the key that may decode to it: it
 * does when it holds a backslash and what it decodes to is the key. */
static bool
longer_key_eq(const char *raw, size_t n, const char *key, size_t klen, struct buf *tmp)
{
	if (memchr(raw, '\\', n) == NULL)
		return false;
	buf_reset(tmp);
	json_unescape(tmp, raw, n);
	return tmp->n == klen && memcmp(tmp->p, key, klen) == 0;
}

/* Whether the raw key raw[0..n) decodes to key[0..klen); tmp holds a
 * decoded key. Decoding never lengthens, and a raw key equal byte for byte
 * to a key without backslashes has no escape: only a longer raw key with a
 * backslash needs decoding, and that is rare, so most calls are a length
 * test and at most one memcmp or one byte's test, made where the members
 * are walked (no call). */
static inline bool
raw_key_eq(const char *raw, size_t n, const char *key, size_t klen, struct buf *tmp)
{
	if (n < klen)
		return false;
	if (n == klen) /* equal bytes, or an escape that decodes shorter */
		return same_bytes(raw, key, n) && memchr(key, '\\', klen) == NULL;
	/* An ASCII byte other than a backslash decodes to itself: a first
	 * one that differs from the key's tells without a look further. */
	if ((unsigned char)raw[0] < 0x80 && raw[0] != '\\' && raw[0] != key[0])
		return false;
	return longer_key_eq(raw, n, key, klen, tmp);
}

/* Whether string token t decodes to key[0..klen); tmp holds a decoded key. */
static bool
key_eq(const struct json *j, int t, const char *key, size_t klen, struct buf *tmp)
{
	const jsmntok_t *k = &j->tok[t];

	if (k->type != JSMN_STRING)
		return false;
	return raw_key_eq(j->s + k->start, (size_t)(k->end - k->start), key, klen, tmp);
}

/* Value token of key[0..klen) among obj's direct members, or -1. */
static int
json_lookup(const struct json *j, int obj, const char *key, size_t klen)
{
	struct buf tmp = {0};
	int found = -1, t, m;

	if (tok_type(j, obj) != JSON_OBJECT)
		return -1;
	t = obj + 1;
	for (m = 0; m < j->tok[obj].size; m++) {
		if (key_eq(j, t, key, klen, &tmp)) {
			found = t + 1;
			break;
		}
		t = tok_next(j, t + 1);
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
json_getv(const struct json *j, int obj, const char *const *keys, int nkeys, int *out)
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
key_index(const struct json_keys *ks, const char *raw, size_t n, struct buf *tmp)
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
		u = (uint32_t)(unsigned char)raw[0] | (uint32_t)(unsigned char)raw[n / 2] << 8 |
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
key_index_seen(struct json_keys *ks, const char *raw, size_t n, struct buf *tmp)
{
	struct json_seen *e;
	uint64_t a, b;

	if (n > 16)
		return key_index(ks, raw, n, tmp);
	seen_words(raw, n, &a, &b);
	e = &ks->seen[((a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ n) >> 59 &
		      (JSON_KEYS_SEEN - 1)];
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
	if (tok_type(j, obj) != JSON_OBJECT)
		return;
	size = tok[obj].size;
	/* The validator made the tokens a well-formed object: every member
	 * is a string key and a value, and a container's parent field holds
	 * the token after it. */
	for (m = 0, t = obj + 1; m < size && left > 0; m++) {
		const jsmntok_t *v = &tok[t + 1];

		k = key_index_seen(ks, j->s + tok[t].start, (size_t)(tok[t].end - tok[t].start),
				   &tmp);
		if (k >= 0 && out[k] < 0) {
			out[k] = t + 1;
			left--;
		}
		t = v->type == JSMN_OBJECT || v->type == JSMN_ARRAY ? v->parent : t + 2;
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

int
json_path_any(const struct json *j, int obj, const char *paths)
{
	return json_path_typed(j, obj, paths, JSON_NONE);
}

int
json_path_typed(const struct json *j, int obj, const char *paths, enum json_type type)
{
	char one[128];

	while (*paths != '\0') {
		const char *bar = strchr(paths, '|');
		size_t n = bar != NULL ? (size_t)(bar - paths) : strlen(paths);
		int t;

		if (n < sizeof one) {
			memcpy(one, paths, n);
			one[n] = '\0';
			t = json_path(j, obj, one);
			if (t >= 0 && (type == JSON_NONE || tok_type(j, t) == type))
				return t;
		}
		paths += n + (bar != NULL);
	}
	return -1;
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

/* Whether the string raw[0..n), which has an escape, decodes to lit: apart
 * from json_streq, so that the usual case needs no room for it. */
static bool streq_decoded(const char *raw, size_t n, const char *lit) __attribute__((noinline));

static bool
streq_decoded(const char *raw, size_t n, const char *lit)
{
	struct buf tmp = {0};
	bool eq;

	json_unescape(&tmp, raw, n);
	eq = tmp.n == strlen(lit) && memcmp(tmp.p != NULL ? tmp.p : "", lit, tmp.n) == 0;
	buf_free(&tmp);
	return eq;
}

/* String token t decodes to lit. Its raw bytes (never a NUL) are compared
 * with lit's as far as they agree, without measuring lit: a string with
 * no backslash before they differ decodes to itself that far, so that it
 * is lit only when they agree to lit's end; only one with an escape there
 * is decoded. */
bool
json_streq(const struct json *j, int t, const char *lit)
{
	const char *raw;
	size_t n, i;
	bool escaped = false;

	if (tok_type(j, t) != JSON_STRING)
		return false;
	raw = tok_raw(j, t, &n);
	for (i = 0; i < n && raw[i] == lit[i]; i++)
		escaped |= raw[i] == '\\';
	if (!escaped && (i == n || raw[i] != '\\'))
		return i == n && lit[i] == '\0';
	return streq_decoded(raw, n, lit);
}

/* String token t decodes to something ending with suffix. */
bool
json_strsuffix(const struct json *j, int t, const char *suffix)
{
	struct buf tmp = {0};
	size_t slen = strlen(suffix), n;
	const char *v;
	bool eq;

	if (tok_type(j, t) != JSON_STRING)
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
	enum json_type type = tok_type(j, t);
	const char *raw;
	size_t n;

	if (type != JSON_PRIMITIVE && type != JSON_STRING)
		return false;
	raw = tok_raw(j, t, &n);
	return parse_int64(raw, n, out);
}

/* The literal true or false. */
bool
json_bool(const struct json *j, int t, bool *out)
{
	const char *raw;
	size_t n;

	if (tok_type(j, t) != JSON_PRIMITIVE)
		return false;
	raw = tok_raw(j, t, &n);
	if (n == 4 && memcmp(raw, "true", 4) == 0)
		*out = true;
	else if (n == 5 && memcmp(raw, "false", 5) == 0)
		*out = false;
	else
		return false;
	return true;
}

bool
json_is_value(const struct json *j, int t)
{
	const char *raw;
	size_t n;

	switch (tok_type(j, t)) {
	case JSON_STRING:
		return true;
	case JSON_PRIMITIVE:
		raw = tok_raw(j, t, &n);
		return !(n == 4 && memcmp(raw, "null", 4) == 0);
	default:
		return false;
	}
}

/* A string's decoded value, or any other token's raw text. */
void
json_decode(const struct json *j, int t, struct buf *out)
{
	const char *raw;
	size_t n;

	if (!tok_ok(j, t))
		return;
	raw = tok_raw(j, t, &n);
	if (j->tok[t].type == JSMN_STRING)
		json_unescape(out, raw, n);
	else
		buf_add(out, raw, n);
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
