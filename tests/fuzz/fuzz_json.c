/* fuzz_json.c: libFuzzer harness for the reading layer: the line reader,
 * the jsmn wrapper and its validator, the accessors and the string
 * decoder, on arbitrary bytes. Beyond "no crash, no leak, no undefined
 * behaviour" it checks that json_parse accepts exactly what a small
 * reference grammar accepts, that every accessor stays inside the token
 * array, and that what json_pretty and json_quote write parses again to
 * the same values. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "json.h"
#include "source.h"

/* --- a reference grammar: RFC 8259 with agentview's two policies ------- */
/* Policies: any byte but '"', '\\' and NUL may stand raw in a string (jsmn
 * does not reject raw control characters, and agentview shows them
 * escaped); the top-level value must be an object. */

struct ref {
	const char *s;
	size_t n, i;
	int depth, max_depth;
};

static bool ref_value(struct ref *r);

static void
ref_ws(struct ref *r)
{
	while (r->i < r->n && (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n' ||
			       r->s[r->i] == '\r'))
		r->i++;
}

static bool
ref_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string at r->i, which is its opening quote. */
static bool
ref_string(struct ref *r)
{
	r->i++;
	while (r->i < r->n) {
		char c = r->s[r->i++];

		if (c == '"')
			return true;
		if (c == '\0')
			return false;
		if (c != '\\')
			continue;
		if (r->i >= r->n)
			return false;
		c = r->s[r->i++];
		if (c == 'u') {
			for (int k = 0; k < 4; k++, r->i++)
				if (r->i >= r->n || !ref_hex(r->s[r->i]))
					return false;
		} else if (strchr("\"\\/bfnrt", c) == NULL || c == '\0') {
			return false;
		}
	}
	return false;
}

static bool
ref_digits(struct ref *r)
{
	size_t from = r->i;

	while (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9')
		r->i++;
	return r->i > from;
}

static bool
ref_number(struct ref *r)
{
	if (r->s[r->i] == '-')
		r->i++;
	if (r->i < r->n && r->s[r->i] == '0')
		r->i++;
	else if (r->i >= r->n || r->s[r->i] < '1' || r->s[r->i] > '9' || !ref_digits(r))
		return false;
	if (r->i < r->n && r->s[r->i] == '.') {
		r->i++;
		if (!ref_digits(r))
			return false;
	}
	if (r->i < r->n && (r->s[r->i] == 'e' || r->s[r->i] == 'E')) {
		r->i++;
		if (r->i < r->n && (r->s[r->i] == '+' || r->s[r->i] == '-'))
			r->i++;
		if (!ref_digits(r))
			return false;
	}
	return true;
}

static bool
ref_literal(struct ref *r, const char *lit)
{
	size_t k = strlen(lit);

	if (r->n - r->i < k || memcmp(r->s + r->i, lit, k) != 0)
		return false;
	r->i += k;
	return true;
}

/* An object or array at r->i; deeper than the limit stops the walk. */
static bool
ref_container(struct ref *r, bool obj)
{
	char close = obj ? '}' : ']';

	if (++r->depth > r->max_depth)
		r->max_depth = r->depth;
	if (r->depth > JSON_MAX_DEPTH + 1)
		return false;
	r->i++;
	ref_ws(r);
	if (r->i < r->n && r->s[r->i] == close) {
		r->i++;
		r->depth--;
		return true;
	}
	for (;;) {
		if (obj) {
			if (r->i >= r->n || r->s[r->i] != '"' || !ref_string(r))
				return false;
			ref_ws(r);
			if (r->i >= r->n || r->s[r->i] != ':')
				return false;
			r->i++;
			ref_ws(r);
		}
		if (!ref_value(r))
			return false;
		ref_ws(r);
		if (r->i >= r->n)
			return false;
		if (r->s[r->i] == close) {
			r->i++;
			r->depth--;
			return true;
		}
		if (r->s[r->i] != ',')
			return false;
		r->i++;
		ref_ws(r);
	}
}

static bool
ref_value(struct ref *r)
{
	if (r->i >= r->n)
		return false;
	switch (r->s[r->i]) {
	case '{':
		return ref_container(r, true);
	case '[':
		return ref_container(r, false);
	case '"':
		return ref_string(r);
	case 't':
		return ref_literal(r, "true");
	case 'f':
		return ref_literal(r, "false");
	case 'n':
		return ref_literal(r, "null");
	default:
		return ref_number(r);
	}
}

/* Whether s[0..n) is one JSON object with white space around; *deep is set
 * when the walk went past JSON_MAX_DEPTH before it found anything wrong. */
static bool
ref_object(const char *s, size_t n, bool *deep)
{
	struct ref r = {s, n, 0, 0, 0};
	bool ok;

	ref_ws(&r);
	ok = r.i < n && s[r.i] == '{' && ref_value(&r);
	if (ok) {
		ref_ws(&r);
		ok = r.i == n;
	}
	*deep = r.max_depth > JSON_MAX_DEPTH;
	return ok && !*deep;
}

/* --- properties ------------------------------------------------------------ */

/* A buffer's bytes, "" while it has none (memchr must not see NULL). */
static const char *
bytes(const struct buf *b)
{
	return b->p != NULL ? b->p : "";
}

/* json_quote output is a JSON string that decodes to its input (invalid
 * UTF-8 aside, which becomes U+FFFD). */
static void
check_quote(struct json *j, const char *s, size_t n)
{
	struct buf doc = {0}, back = {0};
	int t;

	buf_adds(&doc, "{\"k\":");
	json_quote(&doc, s, n);
	buf_addc(&doc, '}');
	for (size_t i = 0; i < doc.n; i++) /* nothing raw that could harm */
		CHECK((unsigned char)doc.p[i] >= 0x20 && doc.p[i] != 0x7f);
	CHECK(json_parse(j, doc.p, doc.n) == JSON_OK);
	t = json_get(j, 0, "k");
	CHECK(json_type(j, t) == JSON_STRING);
	json_decode(j, t, &back);
	CHECK(fuzz_utf8_ok(bytes(&back), back.n));
	if (fuzz_utf8_ok(s, n))
		CHECK(back.n == n && memcmp(bytes(&back), s, n) == 0);
	buf_free(&doc);
	buf_free(&back);
}

/* Walk every token of the last parse through every accessor. */
static void
check_tokens(struct json *j, const char *line, size_t n)
{
	int count = json_count(j);
	struct buf dec = {0}, key = {0};
	size_t len;

	CHECK(count > 0);
	CHECK(json_type(j, 0) == JSON_OBJECT);
	CHECK(json_next(j, 0) == count);
	CHECK(json_type(j, -1) == JSON_NONE && json_type(j, count) == JSON_NONE);
	CHECK(json_next(j, count) == -1 && json_size(j, count) == 0);
	json_raw(j, count, &len);
	CHECK(len == 0);
	for (int t = 0; t < count; t++) {
		enum json_type type = json_type(j, t);
		const char *raw = json_raw(j, t, &len);
		int next = json_next(j, t);
		int64_t iv;
		bool bv;

		CHECK(type != JSON_NONE);
		CHECK(raw >= line && raw + len <= line + n);
		CHECK(json_offset(j, t) <= n);
		CHECK(next > t && next <= count);
		buf_reset(&dec);
		json_decode(j, t, &dec);
		if (type == JSON_STRING) {
			/* key_eq's shortcut relies on this */
			CHECK(dec.n <= len);
			if (memchr(bytes(&dec), '\0', dec.n) == NULL) {
				CHECK(json_streq(j, t, bytes(&dec)));
				CHECK(json_strsuffix(j, t, bytes(&dec) + dec.n / 2));
			}
		} else {
			CHECK(dec.n == len);
		}
		if (json_int(j, t, &iv) && type == JSON_PRIMITIVE) {
			char tmp[32];

			/* the digits read back, but for "-0" */
			snprintf(tmp, sizeof tmp, "%lld", (long long)iv);
			CHECK((len == 2 && memcmp(raw, "-0", 2) == 0) ||
			      (strlen(tmp) == len && memcmp(tmp, raw, len) == 0));
		}
		if (json_bool(j, t, &bv))
			CHECK(len == (bv ? 4u : 5u));
		if (type == JSON_OBJECT || type == JSON_ARRAY) {
			int c = t + 1, size = json_size(j, t);

			for (int m = 0; m < size; m++) {
				CHECK(c < next);
				if (type == JSON_OBJECT) {
					int found;

					CHECK(json_type(j, c) == JSON_STRING);
					buf_reset(&key);
					json_decode(j, c, &key);
					if (memchr(bytes(&key), '\0', key.n) == NULL) {
						const char *keys[2] = {bytes(&key), "type"};
						int v[2];

						/* the first member of that name */
						found = json_get(j, t, keys[0]);
						CHECK(found > t && found <= c + 1);
						CHECK(json_streq(j, found - 1, keys[0]));
						json_getv(j, t, keys, 2, v);
						CHECK(v[0] == found);
						CHECK(v[1] == json_get(j, t, "type"));
						if (strchr(keys[0], '.') == NULL)
							CHECK(json_path(j, t, keys[0]) == found);
					}
					c++;
				}
				c = json_next(j, c);
			}
			CHECK(c == next);
		} else {
			CHECK(json_size(j, t) == 0);
			CHECK(next == t + 1);
		}
	}
	buf_free(&dec);
	buf_free(&key);
}

/* json_pretty writes JSON that parses to the same tokens. */
static void
check_pretty(struct json *j, struct json *j2)
{
	struct buf out = {0}, a = {0}, b = {0};
	int count = json_count(j);

	json_pretty(j, 0, 0, &out);
	CHECK(json_parse(j2, out.p, out.n) == JSON_OK);
	CHECK(json_count(j2) == count);
	for (int t = 0; t < count; t++) {
		CHECK(json_type(j2, t) == json_type(j, t));
		CHECK(json_size(j2, t) == json_size(j, t));
		if (json_type(j, t) == JSON_STRING) {
			buf_reset(&a);
			buf_reset(&b);
			json_decode(j, t, &a);
			json_decode(j2, t, &b);
			CHECK(fuzz_utf8_ok(bytes(&b), b.n));
			if (fuzz_utf8_ok(bytes(&a), a.n))
				CHECK(a.n == b.n && memcmp(bytes(&a), bytes(&b), a.n) == 0);
		} else if (json_type(j, t) == JSON_PRIMITIVE) {
			size_t la, lb;
			const char *ra = json_raw(j, t, &la);
			const char *rb = json_raw(j2, t, &lb);

			CHECK(la == lb && memcmp(ra, rb, la) == 0);
		}
	}
	buf_free(&out);
	buf_free(&a);
	buf_free(&b);
}

/* json_parse_head of a line json_parse accepted (in j), for a few token
 * budgets: what it read agrees with the whole parse, token by token and
 * container by container, and a lookup finds what it finds in the whole
 * line or nothing. */
static void
check_head(const struct json *j, struct json *h, const char *p, size_t n)
{
	static const char *const paths[] = {"type", "text", "session_id", "message.content",
					    "a",    "a.b"};
	int all = json_count(j), budget[] = {1, 2, 3, 7, 14, all - 1, all, all + 1};

	for (size_t k = 0; k < ARRAY_LEN(budget); k++) {
		int b = budget[k];

		if (b < 1 || b > JSON_MAX_DEPTH)
			continue;
		CHECK(json_parse_head(h, p, n, b) == JSON_OK);
		CHECK(json_count(h) <= b && json_count(h) <= all);
		CHECK(json_count(h) >= 1);
		for (int t = 0; t < json_count(h); t++) {
			size_t x, y;
			const char *r1 = json_raw(h, t, &x), *r2 = json_raw(j, t, &y);

			CHECK(json_type(h, t) == json_type(j, t));
			if (!json_whole(h, t))
				continue;
			CHECK(r1 == r2 && x == y);
			CHECK(json_size(h, t) == json_size(j, t));
			CHECK(json_next(h, t) == json_next(j, t));
		}
		for (size_t q = 0; q < ARRAY_LEN(paths); q++) {
			int t = json_path(h, 0, paths[q]);

			CHECK(t < 0 || t == json_path(j, 0, paths[q]));
			if (b >= all)
				CHECK(t == json_path(j, 0, paths[q]));
		}
	}
}

/* One line (or any bytes) through the parser, against the reference. */
static void
check_line(struct json *j, struct json *j2, const char *p, size_t n)
{
	enum json_err err = json_parse(j, p, n);
	bool deep, ref = ref_object(p, n, &deep);

	CHECK(json_errpos(j) <= n);
	CHECK(json_strerror(err) != NULL);
	if (memchr(p, '\0', n) != NULL) {
		CHECK(err == JSON_NUL);
	} else if (deep) {
		CHECK(err != JSON_OK);
	} else if (ref != (err == JSON_OK)) {
		fprintf(stderr, "json_parse says %s, the reference %s\n", json_strerror(err),
			ref ? "valid" : "invalid");
		CHECK(ref == (err == JSON_OK));
	}
	if (err != JSON_OK) {
		CHECK(json_count(j) == 0);
		return;
	}
	check_tokens(j, p, n);
	check_pretty(j, j2);
	check_head(j, j2, p, n);
}

/* The line reader hands out every byte once, in order, split at '\n'. */
static void
check_lines(const char *data, size_t size, struct json *j, struct json *j2)
{
	struct source s;
	struct line ln;
	size_t at = 0;
	uint64_t no = 0;

	source_open_mem(&s, "fuzz", data, size);
	while (source_next_line(&s, &ln)) {
		const char *p = source_at(&s, ln.off);

		CHECK(ln.off == at);
		CHECK(ln.no == ++no);
		CHECK(ln.off + ln.len <= size);
		CHECK(memchr(p, '\n', ln.len) == NULL);
		if (ln.terminated) {
			CHECK(ln.off + ln.len < size && p[ln.len] == '\n');
			at = ln.off + ln.len + 1;
		} else {
			CHECK(ln.off + ln.len == size);
			at = size;
		}
		check_line(j, j2, p, ln.len);
	}
	CHECK(at == size);
	source_close(&s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct json *j = json_new(), *j2 = json_new();
	struct buf out = {0};

	check_lines(s, size, j, j2);
	/* The whole input as one line, new lines and all. */
	check_line(j, j2, s, size);
	/* The decoder on text no tokenizer has seen: a string body can end
	 * in a backslash or a short \u here. */
	json_unescape(&out, size > 0 ? s : "", size);
	CHECK(out.n <= size);
	check_quote(j, s, size);
	buf_free(&out);
	json_free(j);
	json_free(j2);
	return 0;
}
