/* json.h: one JSON object per line. Tokenizes with jsmn (the only module
 * that includes <jsmn.h>), checks what jsmn does not, and looks up and
 * decodes values. Tokens are indices; values are offsets into the caller's
 * line, which must outlive the lookups. */
#ifndef AGENTVIEW_JSON_H
#define AGENTVIEW_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* Nesting deeper than this is rejected with JSON_TOO_DEEP. */
#define JSON_MAX_DEPTH 512
/* A line needing more tokens than this is rejected with JSON_TOO_BIG. */
#define JSON_MAX_TOKENS (1u << 22)

enum json_type {
	JSON_NONE = 0,
	JSON_OBJECT,
	JSON_ARRAY,
	JSON_STRING,
	JSON_PRIMITIVE, /* number, true, false, null */
};

enum json_err {
	JSON_OK = 0,
	JSON_EMPTY,      /* the line holds only white space */
	JSON_NUL,        /* a NUL byte in the line */
	JSON_TRUNCATED,  /* the line ends inside a value */
	JSON_INVALID,    /* a character that cannot stand where it is */
	JSON_NOT_OBJECT, /* valid JSON, but the top-level value is not an object */
	JSON_TRAILING,   /* something after the object */
	JSON_TOO_DEEP,
	JSON_TOO_BIG,
};

/* A parser: owns a token array that grows on demand and is reused across
 * lines (and shrunk again after an unusually large line). */
struct json;

struct json *json_new(void);
void json_free(struct json *j);

/* Parse s[0..n) as exactly one JSON object. Returns JSON_OK or an error;
 * on error json_errpos() is the byte offset where it was found. */
enum json_err json_parse(struct json *j, const char *s, size_t n);
size_t json_errpos(const struct json *j);
/* The length of the JSON value p[0..n) begins with (white space before it
 * included), found by its brackets and strings alone, never checked nor
 * tokenized (the strings passed over by memchr); 0 when it does not end
 * within n. */
size_t json_value_len(const char *p, size_t n);
/* Parse no more than the first ntok tokens (at most JSON_MAX_DEPTH) of
 * s[0..n), a line json_parse accepted before, for a value that comes early
 * in it: jsmn stops when the tokens run out, nothing is checked again, and
 * the lookups see the members read (a container still open holds those
 * read whole). JSON_OK unless jsmn failed on what it read. json_whole says
 * whether a container was read to its end. */
enum json_err json_parse_head(struct json *j, const char *s, size_t n, int ntok);
/* Token t was read with all it holds (always so after json_parse). */
bool json_whole(const struct json *j, int t);
/* A label the caller gives the line of the last successful parse (each
 * json_parse resets it to 0), to find out later that the tokens of that
 * line are still there: json_holds. */
void json_set_label(struct json *j, uint64_t label);
/* dst holds src's parse (of the same line, which the caller still owns),
 * unlabelled: cheaper than parsing the line again. */
void json_copy(struct json *dst, const struct json *src);
/* Whether the last parse succeeded, on s[0..n), and was given label. */
bool json_holds(const struct json *j, const char *s, size_t n, uint64_t label);
/* The tokens of the last successful parse, kept elsewhere (a line parsed
 * on another thread): json_saved_size bytes written by json_save, given
 * back by json_restore, which makes j as json_parse of s[0..n) made it. */
size_t json_saved_size(const struct json *j);
void json_save(const struct json *j, void *dst);
void json_restore(struct json *j, const char *s, size_t n, const void *saved, size_t size);
/* A short English description of err ("not JSON", "truncated JSON", ...). */
const char *json_strerror(enum json_err err);

/* Token accessors. Token 0 is the top-level object. Object members are a key
 * token (a string) followed by its value token. */
int json_count(const struct json *j);
enum json_type json_type(const struct json *j, int t);
/* Number of members of an object, elements of an array; 0 otherwise. */
int json_size(const struct json *j, int t);
/* The token after t and its whole subtree (for a key: its value). */
int json_next(const struct json *j, int t);
/* The element n of array t, or -1; asked in order (n = 0, 1, 2, ...),
 * in time linear in all. */
int json_nth(const struct json *j, int t, int n);
/* The number of j's last parse, unique in the process; 0 when it failed. */
uint64_t json_parse_id(const struct json *j);
/* Value token of `key` in object obj, or -1. */
int json_get(const struct json *j, int obj, const char *key);
/* Look up nkeys keys in one pass over obj: out[i] = value token or -1. */
void json_getv(const struct json *j, int obj, const char *const *keys, int nkeys, int *out);

/* Most keys a json_keys holds. */
#define JSON_KEYS_MAX 16

/* Member names of up to 16 bytes seen lately, raw, and the key each one
 * decodes to: lines of one kind repeat their member names. */
#define JSON_KEYS_SEEN 32
struct json_seen {
	uint64_t a, b; /* the raw name's bytes (see json.c: seen_words) */
	uint8_t len1;  /* its length + 1; 0: an empty slot */
	int8_t key;    /* the key it decodes to, or -1 */
};

/* Keys looked up in many objects (the model's, on every line), measured
 * once by json_keys_init. keys is borrowed. */
struct json_keys {
	const char *const *keys;
	int n;
	size_t len[JSON_KEYS_MAX];
	int8_t head[64];            /* first key of each length, or -1; 63: longer */
	int8_t next[JSON_KEYS_MAX]; /* the next key of the same length */
	uint32_t escaped;           /* bit k set: key k holds a backslash */
	size_t minlen;
	struct json_seen seen[JSON_KEYS_SEEN]; /* a cache, by hash */
};
/* Prepare n keys (at most JSON_KEYS_MAX, all different). */
void json_keys_init(struct json_keys *ks, const char *const *keys, int n);
/* json_getv with prepared keys: out[i] = value token of key i, or -1.
 * Updates the cache in ks. */
void json_getk(const struct json *j, int obj, struct json_keys *ks, int *out);
/* Value token of the path "a.b.c" under obj, or -1. */
int json_path(const struct json *j, int obj, const char *path);
/* The first of several paths, separated by '|', that is present under
 * obj ("file_path|path"), or -1. Agents name the same thing their own
 * way. */
int json_path_any(const struct json *j, int obj, const char *paths);
/* The same, the first present that is of type `type`. */
int json_path_typed(const struct json *j, int obj, const char *paths, enum json_type type);
/* Raw bytes of a token: a string without its quotes and with escapes left
 * as they are; a primitive's text; a container's whole text. */
const char *json_raw(const struct json *j, int t, size_t *len);
/* Byte offset of token t's first byte in the line (a string's quote). */
size_t json_offset(const struct json *j, int t);

/* A string token equal, after decoding, to lit. */
bool json_streq(const struct json *j, int t, const char *lit);
/* A string token whose decoded value ends with suffix. */
bool json_strsuffix(const struct json *j, int t, const char *suffix);
/* An integer number, or a string holding one ("1784819289745"), in int64
 * range and with no fraction or exponent. */
bool json_int(const struct json *j, int t, int64_t *out);
/* json_int of the value at path under obj ("a.b"); false when j is
 * NULL, obj < 0, or the value is absent or not an integer. */
bool json_int_at(const struct json *j, int obj, const char *path, int64_t *out);
/* true or false. */
bool json_bool(const struct json *j, int t, bool *out);
/* A string, a number or a boolean: not absent, null or a container. */
bool json_is_value(const struct json *j, int t);
/* Append the decoded value of a string token to out; for any other token,
 * its raw text. */
void json_decode(const struct json *j, int t, struct buf *out);

/* Decode the body of a JSON string (between the quotes) and append the
 * UTF-8 result to out: every escape, \uXXXX, surrogate pairs; a lone
 * surrogate becomes U+FFFD; \u0000 becomes a NUL byte. Bytes that are not
 * escapes are copied unchanged. */
void json_unescape(struct buf *out, const char *raw, size_t n);
/* The same, appending only the first max bytes or so (a code point may
 * run past them); returns the length of the whole decoded text. */
size_t json_unescape_max(struct buf *out, const char *raw, size_t n, size_t max);

/* Append s[0..n) as a quoted JSON string: ", \ and control characters
 * escaped (C1 and the bidirectional controls too, as \u202e), invalid
 * UTF-8 replaced by \ufffd. */
void json_quote(struct buf *out, const char *s, size_t n);

/* Append token t re-indented as JSON (two spaces per level, starting at
 * `indent` levels), for people to read. */
void json_pretty(const struct json *j, int t, int indent, struct buf *out);

#endif
