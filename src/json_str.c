/* json_str.c: JSON strings: decoding escapes, quoting text as JSON, and
 * re-indenting a value for people to read. */
#include "json.h"

#include <stdint.h>
#include <string.h>

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
		if (n >= 12 && p[6] == '\\' && p[7] == 'u' && (lo = hex4(p + 8, n - 8)) >= 0xDC00 &&
		    lo <= 0xDFFF) {
			buf_add_utf8(out,
				     (uint32_t)(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)));
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

/* Decode a JSON string body into UTF-8; never reads past n. Past max bytes
 * of output, the rest is only counted: a run's bytes directly, an escape's
 * decoded into a scratch buffer of a few bytes. */
size_t
json_unescape_max(struct buf *out, const char *raw, size_t n, size_t max)
{
	struct buf scratch = {0};
	size_t i = 0, total = 0;

	while (i < n) {
		const char *bs = memchr(raw + i, '\\', n - i);
		size_t run = bs != NULL ? (size_t)(bs - raw) - i : n - i;
		struct buf *dst = total < max ? out : &scratch;
		size_t before;
		char c;

		if (run > 0) {
			if (total < max)
				buf_add(out, raw + i, MIN(run, max - total));
			total += run;
			i += run;
			if (i == n)
				break;
			dst = total < max ? out : &scratch;
		}
		before = dst->n;
		if (i + 1 == n) { /* a backslash ending unvalidated text */
			buf_addc(dst, '\\');
			total++;
			break;
		}
		c = raw[i + 1];
		switch (c) {
		case '"':
		case '\\':
		case '/':
			buf_addc(dst, c);
			break;
		case 'b':
			buf_addc(dst, '\b');
			break;
		case 'f':
			buf_addc(dst, '\f');
			break;
		case 'n':
			buf_addc(dst, '\n');
			break;
		case 'r':
			buf_addc(dst, '\r');
			break;
		case 't':
			buf_addc(dst, '\t');
			break;
		case 'u':
			i += unescape_u(dst, raw + i, n - i);
			total += dst->n - before;
			buf_reset(&scratch);
			continue;
		default: /* not an escape: copied as it is */
			buf_add(dst, raw + i, 2);
			break;
		}
		total += dst->n - before;
		buf_reset(&scratch);
		i += 2;
	}
	buf_free(&scratch);
	return total;
}

void
json_unescape(struct buf *out, const char *raw, size_t n)
{
	json_unescape_max(out, raw, n, SIZE_MAX);
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

/* The code point of the well-formed sequence p[0..len) when JSON output
 * escapes it rather than carry it raw, else 0: the C1 controls, and the
 * bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069) that would turn around what a viewer of the JSON shows. */
static uint32_t
escaped_cp(const unsigned char *p, size_t len)
{
	uint32_t cp;

	if (len == 2 && p[0] == 0xC2 && p[1] < 0xA0)
		return p[1];
	if (len == 2 && p[0] == 0xD8 && p[1] == 0x9C)
		return 0x061C;
	if (len != 3 || p[0] != 0xE2)
		return 0;
	cp = 0x2000 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
	return cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
			       (cp >= 0x2066 && cp <= 0x2069)
		       ? cp
		       : 0;
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
		uint32_t cp;
		char esc[6];

		while (run < n && p[run] >= 0x20 && p[run] < 0x7f && p[run] != '"' &&
		       p[run] != '\\')
			run++;
		if (run > i) {
			buf_add(out, s + i, run - i);
			i = run;
			continue;
		}
		c = p[i];
		if (c >= 0x80) {
			len = utf8_len(p + i, n - i);
			if ((cp = escaped_cp(p + i, len)) != 0) {
				/* C1 controls (U+0080..U+009F): CSI, OSC and
				 * DCS to some terminals, so escaped like C0;
				 * bidi controls, which turn text around. */
				memcpy(esc, "\\u", 2);
				for (int k = 0; k < 4; k++)
					esc[2 + k] = hex[(cp >> (12 - 4 * k)) & 15];
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
pretty_value(const struct json *j, int t, int level, struct buf *out, struct buf *tmp)
{
	enum json_type type = json_type(j, t);
	bool obj = type == JSON_OBJECT;
	int size = json_size(j, t);
	size_t n;
	const char *raw;
	int c = t + 1;

	if (type == JSON_STRING) {
		pretty_string(j, t, out, tmp);
		return;
	}
	if (type != JSON_OBJECT && type != JSON_ARRAY) {
		raw = json_raw(j, t, &n);
		buf_add(out, raw, n);
		return;
	}
	if (size == 0) {
		buf_adds(out, obj ? "{}" : "[]");
		return;
	}
	buf_addc(out, obj ? '{' : '[');
	for (int m = 0; m < size; m++) {
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

	if (json_type(j, t) == JSON_NONE)
		return;
	pretty_value(j, t, indent, out, &tmp);
	buf_free(&tmp);
}
