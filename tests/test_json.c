/* test_json.c: the jsmn wrapper: what it accepts and rejects, where, and the
 * lookups and decoders. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

#define NOPOS ((size_t)-1)

/* One line and what json_parse must say about it. */
struct parse_case {
	const char *in;
	enum json_err err;
	size_t errpos; /* NOPOS: not checked */
};

/* Parse a C string with a fresh parser and return the error. */
static enum json_err
parse_str(struct json *j, const char *s)
{
	return json_parse(j, s, strlen(s));
}

/* Run a table of lines, reporting the failing row before asserting. */
static void
run_cases(const struct parse_case *c, size_t n)
{
	struct json *j = json_new();

	for (size_t i = 0; i < n; i++) {
		enum json_err err = parse_str(j, c[i].in);

		if (err != c[i].err || (c[i].errpos != NOPOS && json_errpos(j) != c[i].errpos))
			print_message("line %zu: '%s': got %s at %zu, want %s at %zu\n", i, c[i].in,
				      json_strerror(err), json_errpos(j), json_strerror(c[i].err),
				      c[i].errpos);
		assert_int_equal(err, c[i].err);
		if (c[i].errpos != NOPOS)
			assert_int_equal(json_errpos(j), c[i].errpos);
		if (err == JSON_OK)
			assert_int_equal(json_type(j, 0), JSON_OBJECT);
		else
			assert_int_equal(json_count(j), 0);
	}
	json_free(j);
}

/* The table in STYLE-ANCHORS §6: what jsmn lets through, and our verdict. */
static void
test_anchor_table(void **state)
{
	static const struct parse_case c[] = {
		{"{\"a\":1}", JSON_OK, NOPOS},
		{"42", JSON_NOT_OBJECT, 0},
		{"true", JSON_NOT_OBJECT, 0},
		{"42\n", JSON_NOT_OBJECT, 0},
		{"{\"a\":1}{\"b\":2}", JSON_TRAILING, 7},
		{"{\"a\":}", JSON_INVALID, 5},
		{"[1,,2]", JSON_INVALID, 3},
		{"{\"a\":tru}", JSON_INVALID, 5},
		{"{\"a\" 1}", JSON_INVALID, 5},
		{"{\"a\":[1,2}", JSON_INVALID, 9},
		{"{\"a\":1", JSON_TRUNCATED, 5},
		{"{\"a\":\"x\001\037y\"}", JSON_OK, NOPOS},
		{"", JSON_EMPTY, NOPOS},
	};

	(void)state;
	run_cases(c, ARRAY_LEN(c));
}

/* Lines that are one JSON object. */
static void
test_accept(void **state)
{
	static const struct parse_case c[] = {
		{"{}", JSON_OK, NOPOS},
		{" \t{ }\t ", JSON_OK, NOPOS},
		{"{\"a\":1}\r", JSON_OK, NOPOS},
		{"{\"a\":1}\r\n", JSON_OK, NOPOS},
		{"{ \"a\" : 1 , \"b\" : [ 1 , 2 ] }", JSON_OK, NOPOS},
		{"{\"a\":[],\"b\":{},\"c\":[[]],\"d\":[{}]}", JSON_OK, NOPOS},
		{"{\"a\":true,\"b\":false,\"c\":null}", JSON_OK, NOPOS},
		{"{\"a\":[0,-0,1.5,-1.5e10,1E+2,1e-2,123,0.0,-0.0e-0,10]}", JSON_OK, NOPOS},
		{"{\"a\":{\"b\":{\"c\":[{\"d\":null}]}}}", JSON_OK, NOPOS},
		{"{\"a\\\"b\":\"\\u00e9\\n\\/\\\\\"}", JSON_OK, NOPOS},
		{"{\"\":\"\"}", JSON_OK, NOPOS},
		/* bytes >= 0x80 and raw controls in strings are shown, not refused */
		{"{\"a\":\"\xff\xfe\xc0\x80\"}", JSON_OK, NOPOS},
		{"{\"a\":\"tab\there\x7f\"}", JSON_OK, NOPOS},
		{"{\"a\":1,\"a\":2}", JSON_OK, NOPOS},
	};

	(void)state;
	run_cases(c, ARRAY_LEN(c));
}

/* Lines rejected, each with its error and where it is. */
static void
test_reject(void **state)
{
	static const struct parse_case c[] = {
		/* not an object */
		{"[1]", JSON_NOT_OBJECT, 0},
		{"[]", JSON_NOT_OBJECT, 0},
		{"\"s\"", JSON_NOT_OBJECT, 0},
		{"  \"s\"  ", JSON_NOT_OBJECT, 2},
		{" 42", JSON_NOT_OBJECT, 1},
		{"-1.5e3", JSON_NOT_OBJECT, 0},
		{"null", JSON_NOT_OBJECT, 0},
		{"false\r", JSON_NOT_OBJECT, 0},
		/* not JSON at all, so not "not an object" either */
		{"tru", JSON_INVALID, 0},
		{"-", JSON_INVALID, 0},
		{"[1,]", JSON_INVALID, 2},
		{"x", JSON_INVALID, 0},
		{",", JSON_INVALID, 0},
		{":", JSON_INVALID, 0},
		{" , :", JSON_INVALID, 1},
		{"x{\"a\":1}", JSON_INVALID, 0},
		{",{\"a\":1}", JSON_INVALID, 0},
		{"]{}", JSON_INVALID, 0},
		{"}", JSON_INVALID, 0},
		/* after the object */
		{"{\"a\":1} x", JSON_TRAILING, 8},
		{"{\"a\":1},", JSON_TRAILING, 7},
		{"{\"a\":1}]", JSON_TRAILING, 7},
		{"{\"a\":1}}", JSON_TRAILING, 7},
		{"{\"a\":1} 42", JSON_TRAILING, 8},
		{"{\"a\":1} \"x\"", JSON_TRAILING, 8},
		{"{\"a\":1} \"x", JSON_TRAILING, 8},
		{"{\"a\":1}{", JSON_TRAILING, 7},
		{"{}:2}", JSON_TRAILING, 2},
		{"{\"a\":1}\xc2\xa0", JSON_TRAILING, 7},
		{"[1] x", JSON_TRAILING, 4},
		{"42 x", JSON_TRAILING, 3},
		{"\"s\":1", JSON_TRAILING, 3},
		/* keys */
		{"{\"a\"}", JSON_INVALID, 4},
		{"{\"a\",1}", JSON_INVALID, 4},
		{"{\"a\"::1}", JSON_INVALID, 5},
		{"{\"a\":1,\"b\"}", JSON_INVALID, 10},
		{"{\"a\":1,\"b\":}", JSON_INVALID, 11},
		{"{1:2}", JSON_INVALID, 1},
		{"{true:1}", JSON_INVALID, 1},
		{"{null:1}", JSON_INVALID, 1},
		{"{{}:1}", JSON_INVALID, 1},
		{"{[]:1}", JSON_INVALID, 1},
		{"{\"a\"\"b\"}", JSON_INVALID, 4},
		/* commas */
		{"{\"a\":[1,,2]}", JSON_INVALID, 8},
		{"{\"a\":[,1]}", JSON_INVALID, 6},
		{"{\"a\":[1,]}", JSON_INVALID, 7},
		{"{\"a\":1,}", JSON_INVALID, 6},
		{"{,\"a\":1}", JSON_INVALID, 1},
		{"{\"a\":1 \"b\":2}", JSON_INVALID, 7},
		{"{\"a\":1,,\"b\":2}", JSON_INVALID, 7},
		{"{\"a\":[1 2]}", JSON_INVALID, 8},
		{"{\"a\":[\"x\"1]}", JSON_INVALID, 9},
		{"{\"a\":1:2}", JSON_INVALID, 5}, /* strict jsmn: one primitive "1:2" */
		{"{\"a\":[1]:2}", JSON_INVALID, 8},
		{"{\"a\":\"x\":2}", JSON_INVALID, 8},
		{"{\"a\":{}\"b\":1}", JSON_INVALID, 7},
		/* primitives spelled exactly */
		{"{\"a\":tru}", JSON_INVALID, 5},
		{"{\"a\":truex}", JSON_INVALID, 5},
		{"{\"a\":nul}", JSON_INVALID, 5},
		{"{\"a\":nulll}", JSON_INVALID, 5},
		{"{\"a\":fals}", JSON_INVALID, 5},
		{"{\"a\":01}", JSON_INVALID, 5},
		{"{\"a\":-01}", JSON_INVALID, 5},
		{"{\"a\":00}", JSON_INVALID, 5},
		{"{\"a\":1.}", JSON_INVALID, 5},
		{"{\"a\":1.e5}", JSON_INVALID, 5},
		{"{\"a\":-}", JSON_INVALID, 5},
		{"{\"a\":+1}", JSON_INVALID, 5},
		{"{\"a\":.5}", JSON_INVALID, 5},
		{"{\"a\":1e}", JSON_INVALID, 5},
		{"{\"a\":1e+}", JSON_INVALID, 5},
		{"{\"a\":1.5e}", JSON_INVALID, 5},
		{"{\"a\":0x10}", JSON_INVALID, 5},
		{"{\"a\":1\"x\"}", JSON_INVALID, 5},
		{"{\"a\":NaN}", JSON_INVALID, 5},
		{"{\"a\":Infinity}", JSON_INVALID, 5},
		/* strings: jsmn checks the escapes */
		{"{\"a\":\"\\x\"}", JSON_INVALID, 5},
		{"{\"a\":\"\\u12\"}", JSON_INVALID, 5},
		{"{\"a\":'x'}", JSON_INVALID, 5},
		/* brackets */
		{"{\"a\":1]", JSON_INVALID, 6},
		{"{\"a\":[1}}", JSON_INVALID, 7},
		/* cut short */
		{"{", JSON_TRUNCATED, 1},
		{"{\"a\"", JSON_TRUNCATED, 4},
		{"{\"a\":", JSON_TRUNCATED, 5},
		{"{\"a\":\"abc", JSON_TRUNCATED, 5},
		{"{\"a\":tr", JSON_TRUNCATED, 5},
		{"{\"a\":[1,2", JSON_TRUNCATED, 8},
		{"{\"a\":1,", JSON_TRUNCATED, 7},
		{"\"abc", JSON_TRUNCATED, 0},
		/* the first error wins, even where jsmn failed later */
		{"{\"a\":01,\"b\":\"xx", JSON_INVALID, 5},
		{"{\"a\":1,,", JSON_INVALID, 7},
		{"{\"a\":tru,\"b\" 1}", JSON_INVALID, 5},
		{"{\"a\":1.}{", JSON_INVALID, 5},
	};

	(void)state;
	run_cases(c, ARRAY_LEN(c));
}

/* Blank lines: space, tab, CR only. */
static void
test_empty(void **state)
{
	static const char *const blank[] = {"", " ", "\t", "\r", " \t \r", "\n"};
	struct json *j = json_new();

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(blank); i++)
		assert_int_equal(parse_str(j, blank[i]), JSON_EMPTY);
	assert_int_equal(json_parse(j, "   {}", 3), JSON_EMPTY);
	json_free(j);
}

/* A NUL anywhere, even after a whole object, with errpos on it. */
static void
test_nul(void **state)
{
	static const char a[] = "{\"a\":\"x\0y\"}";
	static const char b[] = "{\"a\":1}\0";
	static const char c[] = "\0{}";
	struct json *j = json_new();

	(void)state;
	assert_int_equal(json_parse(j, a, sizeof a - 1), JSON_NUL);
	assert_int_equal(json_errpos(j), 7);
	assert_int_equal(json_parse(j, b, sizeof b - 1), JSON_NUL);
	assert_int_equal(json_errpos(j), 7);
	assert_int_equal(json_parse(j, c, sizeof c - 1), JSON_NUL);
	assert_int_equal(json_errpos(j), 0);
	/* only the line's n bytes count */
	assert_int_equal(json_parse(j, b, sizeof b - 2), JSON_OK);
	json_free(j);
}

/* Build `{"a":` + n × open + n × close + `}` (prefix and suffix optional). */
static char *
nested(const char *head, int n, char open, char close, const char *tail, size_t *len)
{
	size_t h = strlen(head), t = strlen(tail);
	char *s = malloc(h + 2 * (size_t)n + t + 1);

	assert_non_null(s);
	memcpy(s, head, h);
	memset(s + h, open, (size_t)n);
	memset(s + h + n, close, (size_t)n);
	memcpy(s + h + 2 * (size_t)n, tail, t + 1);
	*len = h + 2 * (size_t)n + t;
	return s;
}

/* Depth limits: 512 containers pass, 513 do not, 100k neither, quickly. */
static void
test_depth(void **state)
{
	struct json *j = json_new();
	size_t n;
	char *s;

	(void)state;
	/* the root object plus 511 arrays: exactly JSON_MAX_DEPTH */
	s = nested("{\"a\":", JSON_MAX_DEPTH - 1, '[', ']', "}", &n);
	assert_int_equal(json_parse(j, s, n), JSON_OK);
	assert_int_equal(json_count(j), JSON_MAX_DEPTH + 1);
	free(s);

	s = nested("{\"a\":", JSON_MAX_DEPTH, '[', ']', "}", &n);
	assert_int_equal(json_parse(j, s, n), JSON_TOO_DEEP);
	assert_int_equal(json_errpos(j), 5 + JSON_MAX_DEPTH - 1);
	free(s);

	/* jsmn closes brackets in time quadratic in the depth (seconds at
	 * 100k): the parser stops it at the limit (timed by make bench, not
	 * here) */
	s = nested("{\"a\":", 100000, '[', ']', "}", &n);
	assert_int_equal(json_parse(j, s, n), JSON_TOO_DEEP);
	assert_int_equal(json_errpos(j), 5 + JSON_MAX_DEPTH - 1);
	free(s);

	s = nested("{\"a\":", 100000, '[', ']', "", &n); /* and no close */
	assert_int_equal(json_parse(j, s, n), JSON_TOO_DEEP);
	free(s);

	/* objects nest through keys */
	{
		struct buf b = {0};

		for (int i = 0; i < JSON_MAX_DEPTH; i++)
			buf_adds(&b, "{\"k\":");
		buf_adds(&b, "1");
		for (int i = 0; i < JSON_MAX_DEPTH; i++)
			buf_addc(&b, '}');
		assert_int_equal(json_parse(j, b.p, b.n), JSON_OK);
		buf_reset(&b);
		for (int i = 0; i < JSON_MAX_DEPTH + 1; i++)
			buf_adds(&b, "{\"k\":");
		for (int i = 0; i < JSON_MAX_DEPTH + 1; i++)
			buf_addc(&b, '}');
		assert_int_equal(json_parse(j, b.p, b.n), JSON_TOO_DEEP);
		buf_free(&b);
	}

	/* an earlier error in the line is reported instead */
	s = nested("{\"a\":tru,\"b\":", 100000, '[', ']', "}", &n);
	assert_int_equal(json_parse(j, s, n), JSON_INVALID);
	assert_int_equal(json_errpos(j), 5);
	free(s);

	/* too deep, not an object: depth is found first */
	s = nested("", 100000, '[', ']', "", &n);
	assert_int_equal(json_parse(j, s, n), JSON_TOO_DEEP);
	free(s);

	/* the parser is still good */
	assert_int_equal(parse_str(j, "{\"a\":[[1]]}"), JSON_OK);
	assert_int_equal(json_count(j), 5);
	json_free(j);
}

/* `{"a":[0,0,...]}` with n zeros. */
static char *
zeros(size_t count, size_t *len)
{
	size_t n = 6 + 2 * count + 1;
	char *s = malloc(n + 1);

	assert_non_null(s);
	memcpy(s, "{\"a\":[", 6);
	for (size_t i = 0; i < count; i++) {
		s[6 + 2 * i] = '0';
		s[6 + 2 * i + 1] = ',';
	}
	s[n - 2] = ']'; /* over the last comma */
	s[n - 1] = '}';
	s[n] = '\0';
	*len = n;
	return s;
}

/* A million tokens, the token cap, and the parser after both. */
static void
test_big(void **state)
{
	struct json *j = json_new();
	size_t n;
	int64_t v;
	char *s;
	int a;

	(void)state;
	s = zeros(1000000, &n);
	assert_int_equal(json_parse(j, s, n), JSON_OK);
	assert_int_equal(json_count(j), 1000003);
	a = json_get(j, 0, "a");
	assert_int_equal(a, 2);
	assert_int_equal(json_size(j, a), 1000000);
	assert_int_equal(json_next(j, a), 1000003);
	free(s);

	/* the next line shrinks the array and still parses */
	assert_int_equal(parse_str(j, "{\"b\":7}"), JSON_OK);
	assert_true(json_int(j, json_get(j, 0, "b"), &v));
	assert_int_equal(v, 7);

	s = zeros(JSON_MAX_TOKENS, &n); /* plus the object, key and array */
	assert_int_equal(json_parse(j, s, n), JSON_TOO_BIG);
	assert_int_equal(json_count(j), 0);
	free(s);
	s = zeros(JSON_MAX_TOKENS - 3, &n); /* exactly the cap */
	assert_int_equal(json_parse(j, s, n), JSON_OK);
	assert_int_equal(json_count(j), (int)JSON_MAX_TOKENS);
	free(s);
	json_free(j);
}

/* 10k keys: the token array grows many times, resuming jsmn each time. */
static void
test_growth(void **state)
{
	struct json *j = json_new();
	struct buf b = {0};
	char key[16];
	int64_t v;
	int t;

	(void)state;
	buf_addc(&b, '{');
	for (int i = 0; i < 10000; i++)
		buf_addf(&b, "%s\"k%d\":%d", i > 0 ? "," : "", i, i);
	buf_addc(&b, '}');
	assert_int_equal(json_parse(j, b.p, b.n), JSON_OK);
	assert_int_equal(json_count(j), 20001);
	assert_int_equal(json_size(j, 0), 10000);
	for (int i = 0; i < 10000; i += 997) {
		snprintf(key, sizeof key, "k%d", i);
		t = json_get(j, 0, key);
		assert_int_equal(t, 2 + 2 * i);
		assert_true(json_int(j, t, &v));
		assert_int_equal(v, i);
	}
	assert_true(json_int(j, json_get(j, 0, "k9999"), &v));
	assert_int_equal(v, 9999);
	assert_int_equal(json_get(j, 0, "k10000"), -1);

	/* a long string straddling a growth point is scanned again, whole */
	buf_reset(&b);
	buf_addc(&b, '{');
	for (int i = 0; i < 300; i++)
		buf_addf(&b, "\"k%d\":\"%0*d\",", i, 3000, i);
	buf_adds(&b, "\"end\":true}");
	assert_int_equal(json_parse(j, b.p, b.n), JSON_OK);
	assert_int_equal(json_size(j, 0), 301);
	assert_true(json_strsuffix(j, json_get(j, 0, "k299"), "0299"));
	buf_free(&b);
	json_free(j);
}

/* Errors leave no tokens; the parser is reusable; strerror says each. */
static void
test_errors_and_reuse(void **state)
{
	struct json *j = json_new();
	const char *seen[JSON_TOO_BIG + 1];

	(void)state;
	assert_int_equal(parse_str(j, "{\"a\":1}"), JSON_OK);
	assert_int_equal(json_count(j), 3);
	assert_int_equal(parse_str(j, "{\"a\":"), JSON_TRUNCATED);
	assert_int_equal(json_count(j), 0);
	assert_int_equal(json_type(j, 0), JSON_NONE);
	assert_int_equal(json_get(j, 0, "a"), -1);
	assert_int_equal(json_next(j, 0), -1);
	assert_int_equal(parse_str(j, "{\"b\":[true]}"), JSON_OK);
	assert_int_equal(json_count(j), 4);

	assert_string_equal(json_strerror(JSON_INVALID), "not JSON");
	assert_string_equal(json_strerror(JSON_TRUNCATED), "truncated JSON");
	assert_string_equal(json_strerror(JSON_NUL), "NUL byte");
	assert_string_equal(json_strerror(JSON_NOT_OBJECT), "JSON is not an object");
	assert_string_equal(json_strerror(JSON_TRAILING), "text after the JSON object");
	assert_string_equal(json_strerror(JSON_TOO_DEEP), "nested too deeply");
	assert_string_equal(json_strerror(JSON_TOO_BIG), "too many JSON tokens");
	assert_string_equal(json_strerror(JSON_EMPTY), "blank line");
	for (int e = JSON_OK; e <= JSON_TOO_BIG; e++) {
		seen[e] = json_strerror((enum json_err)e);
		for (int k = 0; k < e; k++)
			assert_string_not_equal(seen[k], seen[e]);
	}
	json_free(j);
}

/* Types, sizes, raw text, offsets and json_next over a nested line. */
static void
test_tokens(void **state)
{
	static const char line[] = "{\"a\":{\"b\":[1,2,{\"c\":3}]},\"d\":\"x\\ny\"}";
	struct json *j = json_new();
	const char *raw;
	size_t n;

	(void)state;
	assert_int_equal(parse_str(j, line), JSON_OK);
	/* 0 {  1 "a"  2 {  3 "b"  4 [  5 1  6 2  7 {  8 "c"  9 3  10 "d"  11 "x\ny" */
	assert_int_equal(json_count(j), 12);
	assert_int_equal(json_type(j, 0), JSON_OBJECT);
	assert_int_equal(json_type(j, 1), JSON_STRING);
	assert_int_equal(json_type(j, 4), JSON_ARRAY);
	assert_int_equal(json_type(j, 5), JSON_PRIMITIVE);
	assert_int_equal(json_type(j, 12), JSON_NONE);
	assert_int_equal(json_type(j, -1), JSON_NONE);
	assert_int_equal(json_size(j, 0), 2);
	assert_int_equal(json_size(j, 2), 1);
	assert_int_equal(json_size(j, 4), 3);
	assert_int_equal(json_size(j, 7), 1);
	assert_int_equal(json_size(j, 1), 0);
	assert_int_equal(json_size(j, 5), 0);

	assert_int_equal(json_next(j, 0), 12);
	assert_int_equal(json_next(j, 1), 2); /* a key: its value */
	assert_int_equal(json_next(j, 2), 10);
	assert_int_equal(json_next(j, 4), 10);
	assert_int_equal(json_next(j, 5), 6);
	assert_int_equal(json_next(j, 7), 10);
	assert_int_equal(json_next(j, 9), 10);
	assert_int_equal(json_next(j, 11), 12);

	raw = json_raw(j, 2, &n);
	assert_bytes_equal(raw, n, "{\"b\":[1,2,{\"c\":3}]}");
	raw = json_raw(j, 1, &n);
	assert_bytes_equal(raw, n, "a");
	raw = json_raw(j, 11, &n);
	assert_bytes_equal(raw, n, "x\\ny");
	raw = json_raw(j, 9, &n);
	assert_bytes_equal(raw, n, "3");
	raw = json_raw(j, 40, &n);
	assert_int_equal(n, 0);
	assert_int_equal(json_offset(j, 0), 0);
	assert_int_equal(json_offset(j, 1), 1); /* the quote */
	assert_int_equal(json_offset(j, 2), 5);
	assert_int_equal(json_offset(j, 5), 11);
	json_free(j);
}

/* json_get, json_getv and json_path: direct members only, escaped keys. */
static void
test_lookup(void **state)
{
	static const char line[] = "{\"v\":\"plain\",\"a\\u0062c\":1,\"x\\\"y\":2,"
				   "\"plain\":{\"inner\":{\"deep\":\"v\"}},\"arr\":[1,{\"k\":2}],"
				   "\"dup\":1,\"dup\":2,\"\\u00e9t\\u00e9\":3,\"plain\\n\":4}";
	static const char *const keys[] = {"dup", "missing", "abc", "x\"y", "v", "été", "inner"};
	struct json *j = json_new();
	int out[ARRAY_LEN(keys)];
	int64_t v;
	int t;

	(void)state;
	assert_int_equal(parse_str(j, line), JSON_OK);
	t = json_get(j, 0, "v");
	assert_int_equal(t, 2);
	assert_true(json_streq(j, t, "plain"));
	/* a value equal to a key's name is not a key */
	assert_int_equal(json_get(j, 0, "plain"), 8);
	assert_true(json_int(j, json_get(j, 0, "abc"), &v));
	assert_int_equal(v, 1);
	assert_true(json_int(j, json_get(j, 0, "x\"y"), &v));
	assert_int_equal(v, 2);
	assert_true(json_int(j, json_get(j, 0, "été"), &v));
	assert_int_equal(v, 3);
	assert_true(json_int(j, json_get(j, 0, "plain\n"), &v));
	assert_int_equal(v, 4);
	assert_true(json_int(j, json_get(j, 0, "dup"), &v));
	assert_int_equal(v, 1);                            /* the first of duplicates */
	assert_int_equal(json_get(j, 0, "a\\u0062c"), -1); /* raw is not the key */
	assert_int_equal(json_get(j, 0, "missing"), -1);
	assert_int_equal(json_get(j, 0, ""), -1);
	assert_int_equal(json_get(j, 0, "inner"), -1); /* not a direct member */
	assert_int_equal(json_get(j, 0, "k"), -1);
	assert_int_equal(json_get(j, json_get(j, 0, "arr"), "k"), -1);
	assert_int_equal(json_get(j, json_get(j, 0, "v"), "plain"), -1);
	assert_int_equal(json_get(j, 99, "v"), -1);

	json_getv(j, 0, keys, (int)ARRAY_LEN(keys), out);
	assert_int_equal(out[0], json_get(j, 0, "dup"));
	assert_int_equal(out[1], -1);
	assert_int_equal(out[2], json_get(j, 0, "abc"));
	assert_int_equal(out[3], json_get(j, 0, "x\"y"));
	assert_int_equal(out[4], json_get(j, 0, "v"));
	assert_int_equal(out[5], json_get(j, 0, "été"));
	assert_int_equal(out[6], -1);
	assert_true(out[0] > 0 && out[2] > 0 && out[3] > 0 && out[5] > 0);
	json_getv(j, 1, keys, 2, out); /* not an object */
	assert_int_equal(out[0], -1);
	assert_int_equal(out[1], -1);

	t = json_path(j, 0, "plain.inner.deep");
	assert_true(json_streq(j, t, "v"));
	assert_int_equal(json_path(j, 0, "plain.inner"),
			 json_get(j, json_get(j, 0, "plain"), "inner"));
	assert_int_equal(json_path(j, 0, "plain"), json_get(j, 0, "plain"));
	assert_int_equal(json_path(j, 0, "plain.nope"), -1);
	assert_int_equal(json_path(j, 0, "plain.inner.deep.x"), -1);
	assert_int_equal(json_path(j, 0, "arr.k"), -1);
	assert_int_equal(json_path(j, 0, "plain."), -1);
	assert_int_equal(json_path(j, 0, "nope.inner"), -1);
	json_free(j);
}

/* json_set_label/json_holds: a label lasts until the next parse, and only
 * names a successful parse of the same bytes. */
static void
test_label(void **state)
{
	static const char a[] = "{\"a\":1}", b[] = "{\"a\":1}", bad[] = "{\"a\":}";
	struct json *j = json_new();

	(void)state;
	assert_int_equal(json_parse(j, a, strlen(a)), JSON_OK);
	assert_false(json_holds(j, a, strlen(a), 7)); /* no label yet */
	json_set_label(j, 7);
	assert_true(json_holds(j, a, strlen(a), 7));
	assert_false(json_holds(j, a, strlen(a), 8));
	assert_false(json_holds(j, b, strlen(b), 7)); /* same text, other bytes */
	assert_false(json_holds(j, a, strlen(a) - 1, 7));
	assert_false(json_holds(j, a, strlen(a), 0));
	assert_int_equal(json_parse(j, a, strlen(a)), JSON_OK);
	assert_false(json_holds(j, a, strlen(a), 7)); /* a parse resets it */
	json_set_label(j, 7);
	assert_int_not_equal(json_parse(j, bad, strlen(bad)), JSON_OK);
	json_set_label(j, 7);
	assert_false(json_holds(j, bad, strlen(bad), 7)); /* failed parse */
	json_free(j);
}

/* json_int: integers in int64, and strings of digits. */
static void
test_int(void **state)
{
	static const char line[] =
		"{\"a\":9007199254740992,\"b\":\"1784819289745\",\"c\":-42,"
		"\"d\":9223372036854775807,\"e\":9223372036854775808,"
		"\"f\":\"12a\",\"g\":1.5,\"h\":1e3,\"i\":\"\",\"j\":-9223372036854775808,"
		"\"k\":\"-\",\"l\":true,\"m\":-9223372036854775809,\"n\":\"-17\","
		"\"o\":{},\"p\":\"\\u0031\",\"q\":0,\"r\":-0,\"s\":\"9223372036854775808\","
		"\"t\":9007199254740993,\"u\":\" 1\",\"w\":99999999999999999999}";
	static const struct {
		const char *key;
		bool ok;
		int64_t v;
	} c[] = {
		{"a", true, 9007199254740992LL},
		{"b", true, 1784819289745LL},
		{"c", true, -42},
		{"d", true, INT64_MAX},
		{"e", false, 0},
		{"f", false, 0},
		{"g", false, 0},
		{"h", false, 0},
		{"i", false, 0},
		{"j", true, INT64_MIN},
		{"k", false, 0},
		{"l", false, 0},
		{"m", false, 0},
		{"n", true, -17},
		{"o", false, 0},
		{"p", false, 0},
		{"q", true, 0},
		{"r", true, 0},
		{"s", false, 0},
		{"t", true, 9007199254740993LL},
		{"u", false, 0},
		{"w", false, 0},
	};
	struct json *j = json_new();

	(void)state;
	assert_int_equal(parse_str(j, line), JSON_OK);
	for (size_t i = 0; i < ARRAY_LEN(c); i++) {
		int64_t v = 12345;
		int t = json_get(j, 0, c[i].key);
		bool ok;

		assert_true(t > 0);
		ok = json_int(j, t, &v);
		if (ok != c[i].ok)
			print_message("key %s\n", c[i].key);
		assert_int_equal(ok, c[i].ok);
		assert_true(v == (c[i].ok ? c[i].v : 12345)); /* untouched on failure */
	}
	json_free(j);
}

/* json_bool: only the literals. */
static void
test_bool(void **state)
{
	struct json *j = json_new();
	bool b = false;

	(void)state;
	assert_int_equal(parse_str(j, "{\"t\":true,\"f\":false,\"n\":null,"
				      "\"s\":\"true\",\"i\":1}"),
			 JSON_OK);
	assert_true(json_bool(j, json_get(j, 0, "t"), &b));
	assert_true(b);
	assert_true(json_bool(j, json_get(j, 0, "f"), &b));
	assert_false(b);
	b = true;
	assert_false(json_bool(j, json_get(j, 0, "n"), &b));
	assert_false(json_bool(j, json_get(j, 0, "s"), &b));
	assert_false(json_bool(j, json_get(j, 0, "i"), &b));
	assert_false(json_bool(j, json_get(j, 0, "missing"), &b));
	assert_true(b);
	json_free(j);
}

/* json_streq and json_strsuffix decode escapes before comparing. */
static void
test_streq(void **state)
{
	static const char line[] =
		"{\"shell\\u0054oolCall\":{},\"type\":\"tool_call\","
		"\"esc\":\"a\\nb\",\"u\":\"caf\\u00e9\",\"n\":5,\"bs\":\"a\\\\\"}";
	struct json *j = json_new();
	int t;

	(void)state;
	assert_int_equal(parse_str(j, line), JSON_OK);
	t = 1; /* the key */
	assert_true(json_strsuffix(j, t, "ToolCall"));
	assert_true(json_streq(j, t, "shellToolCall"));
	assert_false(json_strsuffix(j, t, "toolCall"));
	assert_false(json_streq(j, t, "shell\\u0054oolCall"));
	assert_true(json_strsuffix(j, t, ""));
	assert_int_equal(json_get(j, 0, "shellToolCall"), 2);

	t = json_get(j, 0, "type");
	assert_true(json_streq(j, t, "tool_call"));
	assert_false(json_streq(j, t, "tool_cal"));
	assert_false(json_streq(j, t, "tool_call_"));
	assert_false(json_streq(j, t, ""));
	assert_true(json_strsuffix(j, t, "_call"));
	assert_true(json_strsuffix(j, t, "tool_call"));
	assert_false(json_strsuffix(j, t, "xtool_call"));

	t = json_get(j, 0, "esc");
	assert_true(json_streq(j, t, "a\nb"));
	assert_false(json_streq(j, t, "a\\nb"));
	assert_true(json_strsuffix(j, t, "\nb"));
	t = json_get(j, 0, "u");
	assert_true(json_streq(j, t, "café"));
	assert_true(json_strsuffix(j, t, "é"));
	assert_false(json_strsuffix(j, t, "e"));
	t = json_get(j, 0, "bs");
	assert_true(json_streq(j, t, "a\\"));
	assert_true(json_strsuffix(j, t, "\\"));

	assert_false(json_streq(j, json_get(j, 0, "n"), "5")); /* not a string */
	assert_false(json_strsuffix(j, json_get(j, 0, "n"), "5"));
	assert_false(json_streq(j, -1, ""));
	json_free(j);
}

/* One json_unescape vector: input and expected bytes, both counted. */
struct unescape_case {
	const char *in;
	size_t inlen;
	const char *out;
	size_t outlen;
};

#define UV(in, out) \
	{ \
		in, sizeof(in) - 1, out, sizeof(out) - 1 \
	}

/* Every escape, surrogates, NUL, and text cut short; exact-size copies so
 * a read past n would show under ASan. */
static void
test_unescape(void **state)
{
	static const struct unescape_case c[] = {
		UV("", ""),
		UV("plain", "plain"),
		UV("\\\"", "\""),
		UV("\\\\", "\\"),
		UV("\\/", "/"),
		UV("\\b", "\b"),
		UV("\\f", "\f"),
		UV("\\n", "\n"),
		UV("\\r", "\r"),
		UV("\\t", "\t"),
		UV("a\\tb\\\\c\\\"d", "a\tb\\c\"d"),
		UV("\\u0041", "A"),
		UV("\\u00e9", "\xc3\xa9"),
		UV("\\u00E9", "\xc3\xa9"),
		UV("\\u20AC", "\xe2\x82\xac"),
		UV("\\uD83D\\uDE00", "\xf0\x9f\x98\x80"),
		UV("\\ud83d\\ude00", "\xf0\x9f\x98\x80"),
		UV("\\uD83D", "\xef\xbf\xbd"),
		UV("\\uDE00", "\xef\xbf\xbd"),
		UV("\\uD83D\\u0041", "\xef\xbf\xbd"
				     "A"),
		UV("\\uD83Dx", "\xef\xbf\xbd"
			       "x"),
		UV("\\uD83D\\uD83D\\uDE00", "\xef\xbf\xbd\xf0\x9f\x98\x80"),
		UV("\\uDE00\\uD83D", "\xef\xbf\xbd\xef\xbf\xbd"),
		UV("\\u0000", "\0"),
		UV("a\\u0000b", "a\0b"),
		UV("h\xc3\xa9llo \xff", "h\xc3\xa9llo \xff"),
		/* raw text jsmn never checked: kept as it is, never overread */
		UV("\\u12", "\\u12"),
		UV("\\u", "\\u"),
		UV("\\u12x4", "\\u12x4"),
		UV("abc\\", "abc\\"),
		UV("\\", "\\"),
		UV("\\uD83D\\uDE0", "\xef\xbf\xbd\\uDE0"),
		UV("\\uD83D\\", "\xef\xbf\xbd\\"),
		UV("\\x", "\\x"),
	};
	struct buf out = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(c); i++) {
		char *in = malloc(c[i].inlen + 1);

		assert_non_null(in);
		memcpy(in, c[i].in, c[i].inlen);
		buf_reset(&out);
		json_unescape(&out, in, c[i].inlen);
		if (out.n != c[i].outlen ||
		    (out.n > 0 && memcmp(out.p, c[i].out, c[i].outlen) != 0))
			print_message("vector %zu: '%s'\n", i, c[i].in);
		assert_int_equal(out.n, c[i].outlen);
		if (out.n > 0)
			assert_memory_equal(out.p, c[i].out, c[i].outlen);
		free(in);
	}
	/* n cuts an escape short inside a longer string */
	buf_reset(&out);
	json_unescape(&out, "\\u1234", 4);
	assert_bytes_equal(out.p, out.n, "\\u12");
	buf_reset(&out);
	json_unescape(&out, "\\n", 1);
	assert_bytes_equal(out.p, out.n, "\\");
	/* appends */
	buf_reset(&out);
	buf_adds(&out, "x");
	json_unescape(&out, "\\n", 2);
	assert_bytes_equal(out.p, out.n, "x\n");
	buf_free(&out);
}

/* A real call_id carrying an escaped newline decodes to a real LF. */
static void
test_decode_call_id(void **state)
{
	static const char line[] =
		"{\"call_id\":\"call-bb11656a-e59e-4356-9866-5b206aedb390-0\\nfc_35bc3e26\","
		"\"n\":12,\"o\":{\"x\":1}}";
	static const char want[] = "call-bb11656a-e59e-4356-9866-5b206aedb390-0\nfc_35bc3e26";
	struct json *j = json_new();
	struct buf b = {0};

	(void)state;
	assert_int_equal(parse_str(j, line), JSON_OK);
	json_decode(j, json_get(j, 0, "call_id"), &b);
	assert_bytes_equal(b.p, b.n, want);
	assert_int_equal(b.p[43], '\n');
	buf_reset(&b);
	json_decode(j, json_get(j, 0, "n"), &b); /* not a string: raw text */
	assert_bytes_equal(b.p, b.n, "12");
	buf_reset(&b);
	json_decode(j, json_get(j, 0, "o"), &b);
	assert_bytes_equal(b.p, b.n, "{\"x\":1}");
	buf_reset(&b);
	json_decode(j, -1, &b);
	assert_int_equal(b.n, 0);
	buf_free(&b);
	json_free(j);
}

/* One json_quote vector. */
struct quote_case {
	const char *in;
	size_t inlen;
	const char *out;
};

#define QV(in, out) \
	{ \
		in, sizeof(in) - 1, out \
	}

/* Escapes, controls, and every kind of invalid UTF-8; valid text kept. */
static void
test_quote(void **state)
{
	static const struct quote_case c[] = {
		QV("", "\"\""),
		QV("abc", "\"abc\""),
		QV("a\"b\\c", "\"a\\\"b\\\\c\""),
		QV("\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\""),
		QV("\x01\x1b\x1f\x7f", "\"\\u0001\\u001b\\u001f\\u007f\""),
		QV("\0", "\"\\u0000\""),
		QV("/", "\"/\""),
		QV("\xff", "\"\\ufffd\""),
		QV("\x80", "\"\\ufffd\""),
		QV("\xc0\x80", "\"\\ufffd\\ufffd\""),
		QV("\xc1\xbf", "\"\\ufffd\\ufffd\""),
		QV("\xe0\x80\x80", "\"\\ufffd\\ufffd\\ufffd\""),
		QV("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""),
		QV("\xf0\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""),
		QV("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""),
		QV("\xf5\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""),
		QV("\xe2\x82", "\"\\ufffd\\ufffd\""),
		QV("\xe2\x82x", "\"\\ufffd\\ufffdx\""),
		QV("a\xc3", "\"a\\ufffd\""),
		/* C1 controls are escaped like C0 ones, U+00A0 on is not */
		QV("\xc2\x80", "\"\\u0080\""),
		QV("\xc2\x9b[2J\xc2\x9d", "\"\\u009b[2J\\u009d\""),
		QV("\xc2\x9f\xc2\xa0", "\"\\u009f\xc2\xa0\""),
		QV("\xe0\xa0\x80", "\"\xe0\xa0\x80\""),
		QV("\xed\x9f\xbf", "\"\xed\x9f\xbf\""),
		QV("\xee\x80\x80", "\"\xee\x80\x80\""),
		QV("\xf0\x90\x80\x80", "\"\xf0\x90\x80\x80\""),
		QV("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\""),
		QV("한국어", "\"한국어\""),
		QV("😀 é", "\"😀 é\""),
	};
	struct json *j = json_new();
	struct buf out = {0}, line = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(c); i++) {
		buf_reset(&out);
		json_quote(&out, c[i].in, c[i].inlen);
		if (strcmp(out.p, c[i].out) != 0)
			print_message("vector %zu: got %s\n", i, out.p);
		assert_int_equal(out.n, strlen(c[i].out));
		assert_string_equal(out.p, c[i].out);
		/* whatever went in, the result is a JSON string */
		buf_reset(&line);
		buf_adds(&line, "{\"k\":");
		buf_add(&line, out.p, out.n);
		buf_addc(&line, '}');
		assert_int_equal(json_parse(j, line.p, line.n), JSON_OK);
	}
	/* quoting the decoded value gives the value back */
	buf_reset(&out);
	json_quote(&out, "a\"\\\n\x01\xe2\x82\xac", 8);
	buf_reset(&line);
	json_unescape(&line, out.p + 1, out.n - 2);
	assert_bytes_equal(line.p, line.n, "a\"\\\n\x01\xe2\x82\xac");
	buf_free(&out);
	buf_free(&line);
	json_free(j);
}

/* json_pretty: exact layout, re-quoted strings, and valid JSON out. */
static void
test_pretty(void **state)
{
	static const char line[] = "{\"a\":1,\"b\":[true,null,{\"c\":\"x\\u0001y\"}],\"d\":{},"
				   "\"e\":[],\"f\":{\"g\":\"h\\\"i\\/\"},\"raw\":\"t\x01\tz\","
				   "\"k\\u0065y\":-1.5e3}";
	static const char want[] = "{\n"
				   "  \"a\": 1,\n"
				   "  \"b\": [\n"
				   "    true,\n"
				   "    null,\n"
				   "    {\n"
				   "      \"c\": \"x\\u0001y\"\n"
				   "    }\n"
				   "  ],\n"
				   "  \"d\": {},\n"
				   "  \"e\": [],\n"
				   "  \"f\": {\n"
				   "    \"g\": \"h\\\"i/\"\n"
				   "  },\n"
				   "  \"raw\": \"t\\u0001\\tz\",\n"
				   "  \"key\": -1.5e3\n"
				   "}";
	struct json *j = json_new();
	struct buf out = {0};
	char *copy;

	(void)state;
	assert_int_equal(parse_str(j, line), JSON_OK);
	json_pretty(j, 0, 0, &out);
	if (strcmp(out.p, want) != 0)
		print_message("got:\n%s\n", out.p);
	assert_string_equal(out.p, want);

	buf_reset(&out);
	json_pretty(j, json_get(j, 0, "f"), 1, &out);
	assert_string_equal(out.p, "{\n    \"g\": \"h\\\"i/\"\n  }");
	buf_reset(&out);
	json_pretty(j, json_get(j, 0, "d"), 3, &out);
	assert_string_equal(out.p, "{}");
	buf_reset(&out);
	json_pretty(j, json_get(j, 0, "a"), 0, &out);
	assert_string_equal(out.p, "1");
	buf_reset(&out);
	json_pretty(j, 99, 0, &out);
	assert_int_equal(out.n, 0);

	/* the output parses again, to the same values */
	buf_reset(&out);
	json_pretty(j, 0, 0, &out);
	copy = xstrndup(out.p, out.n);
	assert_int_equal(json_parse(j, copy, strlen(copy)), JSON_OK);
	assert_true(json_streq(j, json_path(j, 0, "f.g"), "h\"i/"));
	assert_true(json_streq(j, json_get(j, 0, "raw"), "t\x01\tz"));
	free(copy);
	buf_free(&out);
	json_free(j);
}

/* Walk every member of every container the head holds, as the lookups do:
 * each index stays within the tokens. */
static void
head_walk_in_range(const struct json *j)
{
	int n = json_count(j);

	for (int t = 0; t < n; t++) {
		int k = t + 1;

		if (json_type(j, t) != JSON_OBJECT && json_type(j, t) != JSON_ARRAY)
			continue;
		assert_true(json_next(j, t) > t && json_next(j, t) <= n);
		for (int m = 0; m < json_size(j, t); m++) {
			assert_true(k > t && k < json_next(j, t));
			if (json_type(j, t) == JSON_OBJECT) {
				assert_int_equal(json_type(j, k), JSON_STRING);
				k++;
				assert_true(k < json_next(j, t));
			}
			k = json_next(j, k);
		}
		assert_int_equal(k, json_next(j, t));
	}
}

/* json_parse_head: what it reads of a line agrees with json_parse of the
 * whole line, for every budget: the same tokens, each container read to
 * its end the same, and a lookup that finds a value finds the one of the
 * whole line; a member whose value was not read is left out. */
static void
test_head(void **state)
{
	static const char *const lines[] = {
		"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\" of\","
		"\"session_id\":\"s1\",\"timestamp_ms\":1790994267012}",
		"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\","
		"\"content\":[{\"type\":\"text\",\"text\":\"word \\\"0\\\" \"}]},"
		"\"session_id\":\"s1\",\"timestamp_ms\":1}",
		"{\"a\":{\"b\":[1,[2,{\"c\":null}],\"d\"],\"e\":{}},\"f\":[],\"g\":true}",
		"{ \"x\" : [ 1 , 2 ] , \"text\" : \"t\" , \"text\" : \"u\" }",
		"{}",
	};
	static const char *const paths[] = {
		"text", "message.content", "a",           "a.b", "a.e", "f", "g",
		"x",    "session_id",      "message.role"};
	struct json *whole = json_new(), *j = json_new();

	(void)state;
	for (size_t l = 0; l < ARRAY_LEN(lines); l++) {
		const char *s = lines[l];
		int n;

		assert_int_equal(parse_str(whole, s), JSON_OK);
		n = json_count(whole);
		for (int b = 1; b <= n + 2; b++) {
			assert_int_equal(json_parse_head(j, s, strlen(s), b), JSON_OK);
			assert_true(json_count(j) >= MIN(b, n) - 1);
			assert_true(json_count(j) <= MIN(b, n));
			head_walk_in_range(j);
			for (int t = 0; t < json_count(j); t++) {
				size_t x, y;
				const char *p = json_raw(j, t, &x), *q = json_raw(whole, t, &y);

				assert_int_equal(json_type(j, t), json_type(whole, t));
				if (!json_whole(j, t))
					continue;
				assert_int_equal(x, y);
				assert_ptr_equal(p, q);
				assert_int_equal(json_size(j, t), json_size(whole, t));
				assert_int_equal(json_next(j, t), json_next(whole, t));
			}
			assert_int_equal(json_whole(j, 0), b >= n);
			for (size_t k = 0; k < ARRAY_LEN(paths); k++) {
				int t = json_path(j, 0, paths[k]);

				if (t >= 0)
					assert_int_equal(t, json_path(whole, 0, paths[k]));
				else if (b >= n)
					assert_int_equal(json_path(whole, 0, paths[k]), -1);
			}
		}
	}
	/* "text":" of" needs 7 tokens; with 6 the key is read, not its value. */
	assert_int_equal(json_parse_head(j, lines[0], strlen(lines[0]), 6), JSON_OK);
	assert_int_equal(json_count(j), 5);
	assert_int_equal(json_size(j, 0), 2);
	assert_int_equal(json_get(j, 0, "text"), -1);
	assert_int_equal(json_parse_head(j, lines[0], strlen(lines[0]), 7), JSON_OK);
	assert_true(json_streq(j, json_get(j, 0, "text"), " of"));
	/* The first of two "text" members, as json_get of the whole line. */
	assert_int_equal(json_parse_head(j, lines[3], strlen(lines[3]), 7), JSON_OK);
	assert_true(json_streq(j, json_get(j, 0, "text"), "t"));
	/* The content array of a message is whole once its bracket is read. */
	assert_int_equal(json_parse_head(j, lines[1], strlen(lines[1]), 13), JSON_OK);
	assert_false(json_whole(j, json_path(j, 0, "message.content")));
	assert_int_equal(json_parse_head(j, lines[1], strlen(lines[1]), 14), JSON_OK);
	assert_true(json_whole(j, json_path(j, 0, "message.content")));
	json_free(whole);
	json_free(j);
}

/* json_parse_head is meant for lines json_parse accepted; on any other it
 * fails or keeps its lookups within what it read. */
static void
test_head_other_lines(void **state)
{
	static const char *const lines[] = {
		"[1]",
		"\"s\"",
		"42",
		"",
		"   ",
		"x",
		"}",
		"{",
		"{\"a\"",
		"{\"a\":",
		"{\"a\":\"b\":\"c\"}",
		"{\"a\" \"b\"}",
		"{\"a\":1}}",
		"{\"a\":1} {\"b\":2}",
		"{\"a\":[}",
		"{\"a\":{\"b\":]}",
		"{\"a\":1,,\"b\":2}",
		"{1:2}",
		"{\"a\":tru}",
		"{\"a\":\"\\q\"}",
		"{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
	};
	struct json *j = json_new();

	(void)state;
	for (size_t l = 0; l < ARRAY_LEN(lines); l++)
		for (int b = 0; b < 48; b++) {
			if (json_parse_head(j, lines[l], strlen(lines[l]), b) != JSON_OK) {
				assert_int_equal(json_count(j), 0);
				continue;
			}
			assert_int_equal(json_type(j, 0), JSON_OBJECT);
			head_walk_in_range(j);
			(void)json_path(j, 0, "a.b");
		}
	json_free(j);
}

/* json_int_at follows a path; absent, non-integer or no object: false. */
static void
test_int_at(void **state)
{
	struct json *j = json_new();
	static const char line[] = "{\"a\":{\"b\":\"1784819289745\",\"c\":1.5},\"d\":7}";
	int64_t v = 0;

	(void)state;
	assert_int_equal(json_parse(j, line, sizeof line - 1), JSON_OK);
	assert_true(json_int_at(j, 0, "a.b", &v));
	assert_true(v == 1784819289745LL);
	assert_true(json_int_at(j, 0, "d", &v));
	assert_int_equal(v, 7);
	assert_false(json_int_at(j, 0, "a.c", &v));
	assert_false(json_int_at(j, 0, "a.x", &v));
	assert_false(json_int_at(j, -1, "d", &v));
	assert_false(json_int_at(NULL, 0, "d", &v));
	json_free(j);
}

/* json_getv with a key asked for twice fills both answers (found by the
 * fuzzer when the fast lookup kept only one). */
static void
test_getv_repeated_key(void **state)
{
	struct json *j = json_new();
	static const char line[] = "{\"type\":\"x\",\"a\":1}";
	const char *keys[3] = {"type", "a", "type"};
	int v[3];

	(void)state;
	assert_int_equal(json_parse(j, line, sizeof line - 1), JSON_OK);
	json_getv(j, 0, keys, 3, v);
	assert_int_equal(v[0], json_get(j, 0, "type"));
	assert_int_equal(v[1], json_get(j, 0, "a"));
	assert_int_equal(v[2], v[0]);
	assert_true(v[2] > 0);
	json_free(j);
}

/* Bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069) are escaped in JSON strings: a file name's U+202E must
 * not turn a line around in whatever shows the JSON; their neighbours are
 * kept as UTF-8. */
static void
test_quote_bidi(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{"a\xE2\x80\xAEgpj.ndjson", "\"a\\u202egpj.ndjson\""},
		{"\xD8\x9C\xE2\x80\x8E\xE2\x80\x8F", "\"\\u061c\\u200e\\u200f\""},
		{"\xE2\x80\xAA\xE2\x80\xAB\xE2\x80\xAC\xE2\x80\xAD",
		 "\"\\u202a\\u202b\\u202c\\u202d\""},
		{"\xE2\x81\xA6\xE2\x81\xA7\xE2\x81\xA8\xE2\x81\xA9",
		 "\"\\u2066\\u2067\\u2068\\u2069\""},
		/* Neighbours: U+200D, U+2010, U+2065 (unassigned), U+206A, U+061B. */
		{"\xE2\x80\x8D\xE2\x80\x90\xE2\x81\xA5\xE2\x81\xAA\xD8\x9B",
		 "\"\xE2\x80\x8D\xE2\x80\x90\xE2\x81\xA5\xE2\x81\xAA\xD8\x9B\""},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct buf b = {0};

		json_quote(&b, cases[i].in, strlen(cases[i].in));
		assert_string_equal(b.p, cases[i].want);
		buf_free(&b);
	}
}

/* json_value_len: a value's end by its brackets and strings, an escaped
 * quote (after an odd run of backslashes) inside a string, none when it
 * does not end. */
static void
test_value_len(void **state)
{
	static const struct {
		const char *in;
		size_t want;
	} cases[] = {
		{"{\"text\":\"a}\\\"]b\"},\"next\":1", 17},
		{"  \"x\\\\\",1", 7},
		{"[1,[2,{\"]\":3}]] tail", 15},
		{"null}", 4},
		{"12345", 5},
		{"-1.5e3,", 6},
		{"{\"a\":\"unterminated}", 0},
		{"{\"a\":[1,2}", 0},
		{"}", 0},
		{"", 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		if (json_value_len(cases[i].in, strlen(cases[i].in)) != cases[i].want)
			fail_msg("%s: %zu, not %zu", cases[i].in,
				 json_value_len(cases[i].in, strlen(cases[i].in)), cases[i].want);
}

/* json_nth: the element asked for, in any order, in arrays in arrays
 * asked in turn, and in a new parse of other text at the same place. */
static void
test_nth(void **state)
{
	static const char line[] = "{\"a\":[{\"x\":1},[7,8,9],\"s\",[],{\"y\":[2,3]}],\"b\":[5]}";
	static const char other[] = "{\"a\":[\"p\",\"q\",\"r\",\"s\",\"t\"]}";
	struct json *j = json_new();
	int a, inner, t;
	size_t n;

	(void)state;
	assert_int_equal(json_parse(j, line, strlen(line)), JSON_OK);
	a = json_get(j, 0, "a");
	assert_int_equal(json_type(j, json_nth(j, a, 0)), JSON_OBJECT);
	assert_int_equal(json_raw(j, json_nth(j, a, 2), &n)[0], 's');
	assert_int_equal(n, 1);
	/* Backwards, then past the end, then an array in it in turn. */
	assert_int_equal(json_type(j, json_nth(j, a, 1)), JSON_ARRAY);
	assert_int_equal(json_nth(j, a, 5), -1);
	assert_int_equal(json_nth(j, a, -1), -1);
	inner = json_nth(j, a, 1);
	for (int i = 0; i < 3; i++) {
		t = json_nth(j, inner, i);
		assert_int_equal(json_raw(j, t, &n)[0], '7' + i);
		assert_int_equal(json_type(j, json_nth(j, a, 4)), JSON_OBJECT);
	}
	assert_int_equal(json_size(j, json_nth(j, a, 3)), 0);
	assert_int_equal(json_nth(j, json_nth(j, a, 3), 0), -1);
	/* Not an array: none. */
	assert_int_equal(json_nth(j, 0, 0), -1);
	assert_int_equal(json_nth(j, json_nth(j, a, 2), 0), -1);
	/* The same parser, other text: nothing kept from the last. */
	assert_int_equal(json_parse(j, other, strlen(other)), JSON_OK);
	a = json_get(j, 0, "a");
	assert_int_equal(json_raw(j, json_nth(j, a, 4), &n)[0], 't');
	assert_int_equal(json_raw(j, json_nth(j, a, 2), &n)[0], 'r');
	json_free(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_len),
		cmocka_unit_test(test_quote_bidi),
		cmocka_unit_test(test_int_at),
		cmocka_unit_test(test_getv_repeated_key),
		cmocka_unit_test(test_anchor_table),
		cmocka_unit_test(test_accept),
		cmocka_unit_test(test_reject),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_nul),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_big),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_errors_and_reuse),
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_label),
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_streq),
		cmocka_unit_test(test_unescape),
		cmocka_unit_test(test_decode_call_id),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_pretty),
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_head_other_lines),
		cmocka_unit_test(test_nth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
