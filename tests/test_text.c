/* test_text.c: UTF-8 decoding, widths, escaping and wrapping (src/text.c). */
#include "testutil.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* A byte string that may hold NUL: its length is the literal's. */
#define BYTES(lit) lit, sizeof(lit) - 1

static const char korean[] = "Cursor Agent CLI는 --print와 함께 사용할 때 --output-format 옵션으로 "
			     "여러 출력 형식을 제공해.";

/* ---- utf8_decode ---- */

struct decode_case {
	const char *s;
	size_t n;
	uint32_t cp;
	size_t used;
};

/* Every well-formed length and the edges of each range of table 3-7; each
 * class of ill-formed input, with the maximal subpart it consumes. */
static void
test_decode_cases(void **state)
{
	static const struct decode_case cases[] = {
		/* well-formed */
		{BYTES("A"), 0x41, 1},
		{BYTES("\x00"), 0x00, 1},
		{BYTES("\x7f"), 0x7F, 1},
		{BYTES("\xc2\x80"), 0x80, 2},
		{BYTES("\xc2\xa9"), 0xA9, 2},
		{BYTES("\xdf\xbf"), 0x7FF, 2},
		{BYTES("\xe0\xa0\x80"), 0x800, 3},
		{BYTES("\xe2\x82\xac"), 0x20AC, 3},
		{BYTES("\xed\x9f\xbf"), 0xD7FF, 3},
		{BYTES("\xee\x80\x80"), 0xE000, 3},
		{BYTES("\xef\xbf\xbd"), 0xFFFD, 3},
		{BYTES("\xef\xbf\xbf"), 0xFFFF, 3},
		{BYTES("\xed\x95\x9c"), 0xD55C, 3},
		{BYTES("\xf0\x90\x80\x80"), 0x10000, 4},
		{BYTES("\xf0\x9f\x98\x80"), 0x1F600, 4},
		{BYTES("\xf3\xbf\xbf\xbf"), 0xFFFFF, 4},
		{BYTES("\xf4\x8f\xbf\xbf"), 0x10FFFF, 4},
		/* Only the first code point is decoded. */
		{BYTES("ab"), 0x61, 1},
		{BYTES("\xc3\xa9z"), 0xE9, 2},
		/* ill-formed: stray continuation bytes */
		{BYTES("\x80"), 0xFFFD, 1},
		{BYTES("\xbf\x80"), 0xFFFD, 1},
		/* overlong two-byte leads */
		{BYTES("\xc0\x80"), 0xFFFD, 1},
		{BYTES("\xc1\xbf"), 0xFFFD, 1},
		/* overlong three and four bytes */
		{BYTES("\xe0\x80\x80"), 0xFFFD, 1},
		{BYTES("\xe0\x9f\xbf"), 0xFFFD, 1},
		{BYTES("\xf0\x80\x80\x80"), 0xFFFD, 1},
		{BYTES("\xf0\x8f\xbf\xbf"), 0xFFFD, 1},
		/* surrogates */
		{BYTES("\xed\xa0\x80"), 0xFFFD, 1},
		{BYTES("\xed\xbf\xbf"), 0xFFFD, 1},
		/* above U+10FFFF */
		{BYTES("\xf4\x90\x80\x80"), 0xFFFD, 1},
		{BYTES("\xf5\x80\x80\x80"), 0xFFFD, 1},
		{BYTES("\xf7\xbf\xbf\xbf"), 0xFFFD, 1},
		{BYTES("\xfe"), 0xFFFD, 1},
		{BYTES("\xff"), 0xFFFD, 1},
		/* truncated by the end of the input */
		{BYTES("\xc3"), 0xFFFD, 1},
		{BYTES("\xe2\x82"), 0xFFFD, 2},
		{BYTES("\xf0\x9f\x98"), 0xFFFD, 3},
		{BYTES("\xf4\x8f"), 0xFFFD, 2},
		/* truncated by a byte that is not a continuation */
		{BYTES("\xc3"
		       "A"),
		 0xFFFD, 1},
		{BYTES("\xe1\x80"
		       "A"),
		 0xFFFD, 2},
		{BYTES("\xe2"
		       "A"),
		 0xFFFD, 1},
		{BYTES("\xf0\x9f\x98"
		       "A"),
		 0xFFFD, 3},
		{BYTES("\xf1\x80\x80\xc3\xa9"), 0xFFFD, 3},
		{BYTES("\xe2\x82\xe2\x82\xac"), 0xFFFD, 2},
		/* n shorter than the bytes that are there */
		{"\xe2\x82\xac", 2, 0xFFFD, 2},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		uint32_t cp = 0;

		assert_int_equal(utf8_decode(cases[i].s, cases[i].n, &cp), cases[i].used);
		assert_int_equal(cp, cases[i].cp);
	}
}

/* Decode all of s[0..n) into cps; returns how many. */
static size_t
decode_all(const char *s, size_t n, uint32_t *cps, size_t max)
{
	size_t i = 0, k = 0;

	while (i < n && k < max) {
		size_t used = utf8_decode(s + i, n - i, &cps[k++]);

		assert_true(used >= 1 && used <= n - i);
		i += used;
	}
	return k;
}

/* Unicode §3.9 table 3-8, and the brief's "E1 80 A": decoding resumes at
 * the first byte that did not belong to the subpart. */
static void
test_decode_sequence(void **state)
{
	static const char s[] = "\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64";
	static const uint32_t want[] = {0x61,   0xFFFD, 0xFFFD, 0xFFFD, 0x62,
					0xFFFD, 0x63,   0xFFFD, 0xFFFD, 0x64};
	uint32_t got[16];
	size_t k;

	(void)state;
	k = decode_all(s, sizeof s - 1, got, ARRAY_LEN(got));
	assert_int_equal(k, ARRAY_LEN(want));
	assert_memory_equal(got, want, sizeof want);

	k = decode_all(BYTES("\xe1\x80"
			     "A"),
		       got, ARRAY_LEN(got));
	assert_int_equal(k, 2);
	assert_int_equal(got[0], 0xFFFD);
	assert_int_equal(got[1], 'A');

	k = decode_all(BYTES("\xf0\x80"
			     "A"),
		       got, ARRAY_LEN(got));
	assert_int_equal(k, 3);
	assert_int_equal(got[0], 0xFFFD);
	assert_int_equal(got[1], 0xFFFD);
	assert_int_equal(got[2], 'A');
}

/* Every scalar value round-trips through buf_add_utf8, and every 1-3 byte
 * string that decodes to something other than U+FFFD is exactly the
 * shortest encoding of it: no overlong or surrogate gets through. */
static void
test_decode_exhaustive(void **state)
{
	struct buf b = {0};

	(void)state;
	for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
		uint32_t got = 0;

		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		buf_reset(&b);
		buf_add_utf8(&b, cp);
		assert_int_equal(utf8_decode(b.p, b.n, &got), b.n);
		assert_int_equal(got, cp);
	}
	for (uint32_t v = 0; v < 1u << 24; v++) {
		char s[3] = {(char)(v >> 16), (char)(v >> 8), (char)v};
		uint32_t got;
		size_t used = utf8_decode(s, 3, &got);

		assert_true(used >= 1 && used <= 3);
		if (got == 0xFFFD && memcmp(s, "\xef\xbf\xbd", 3) != 0)
			continue;
		buf_reset(&b);
		buf_add_utf8(&b, got);
		assert_int_equal(b.n, used);
		assert_memory_equal(b.p, s, used);
	}
	buf_free(&b);
}

/* ---- text_cpwidth ---- */

static void
test_cpwidth(void **state)
{
	static const struct {
		uint32_t cp;
		int w;
	} cases[] =
		{
			{'A', 1},       {' ', 1},       {'~', 1},
			{0xE9, 1},      {0xA0, 1},      {0xD55C, 2}, /* 한 */
			{0x65E5, 2},                                 /* 日 */
			{0x1F600, 2},                                /* 😀 */
			{0x301, 0},                                  /* combining acute */
			{0x200B, 0},                                 /* zero width space */
			{0xFFFD, 1},    {0x00, -1},     {0x07, -1},
			{0x09, -1},     {0x0A, -1},     {0x1B, -1},
			{0x1F, -1},     {0x7F, -1},     {0x80, -1},
			{0x9B, -1},     {0x9F, -1},     {0x202A, -1},
			{0x202B, -1},   {0x202C, -1},   {0x202D, -1},
			{0x202E, -1},   {0x2066, -1},   {0x2067, -1},
			{0x2068, -1},   {0x2069, -1},   {0x200E, -1},
			{0x200F, -1},   {0x061C, -1},   {0xD800, -1},
			{0xDFFF, -1},   {0x110000, -1}, {0xFFFFFFFF, -1},
			{0x10FFFF, -1}, /* noncharacter: wcwidth says -1 */
		};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		if (text_cpwidth(cases[i].cp) != cases[i].w)
			fail_msg("text_cpwidth(U+%04X) = %d, want %d", (unsigned)cases[i].cp,
				 text_cpwidth(cases[i].cp), cases[i].w);
	}
}

/* ---- text_sanitize ---- */

struct sanitize_case {
	const char *in;
	size_t n;
	int flags;
	const char *out;
};

#define S(in, out) \
	{ \
		BYTES(in), 0, out \
	}
#define S1(in, out) \
	{ \
		BYTES(in), TEXT_ONELINE, out \
	}
#define ST(in, out) \
	{ \
		BYTES(in), TEXT_TABS, out \
	}
#define SP7 "       "

static void
test_sanitize_vectors(void **state)
{
	static const struct sanitize_case cases[] = {
		S("", ""),
		S("plain text", "plain text"),
		/* terminal title */
		S("a\x1b]0;pwned\x07"
		  "b",
		  "a^[]0;pwned^Gb"),
		/* clear screen */
		S("\x1b[2J", "^[[2J"),
		/* OSC 52 clipboard write, BEL and ST terminated */
		S("\x1b]52;c;aGVsbG8=\x07", "^[]52;c;aGVsbG8=^G"),
		S("\x1b]52;c;aGk=\x1b\\", "^[]52;c;aGk=^[\\"),
		/* DCS */
		S("\x1bPq#0;2;0;0;0\x1b\\", "^[Pq#0;2;0;0;0^[\\"),
		/* C1 CSI, OSC and ST as code points */
		S("\xc2\x9b"
		  "2J",
		  "\\u009B2J"),
		S("\xc2\x9d"
		  "0;t\xc2\x9c",
		  "\\u009D0;t\\u009C"),
		S("\xc2\x80\xc2\x9f", "\\u0080\\u009F"),
		/* a C1 byte alone is not UTF-8 */
		S("\x9b"
		  "2J",
		  "\xef\xbf\xbd"
		  "2J"),
		/* carets */
		S("\x7f", "^?"),
		S("\x01\x08\x1f", "^A^H^_"),
		/* line ends */
		S("a\r\nb", "a\nb"),
		S("a\r\n", "a\n"),
		S("\r\r\n", "^M\n"),
		S("a\rb", "a^Mb"),
		S("a\r", "a^M"),
		S("a\n\nb\n", "a\n\nb\n"),
		/* tabs, in cells of the output line */
		S("a\tb", "a" SP7 "b"),
		S("\xed\x95\x9c\tb", "\xed\x95\x9c      b"),
		S("\t", "        "),
		S("12345678\tx", "12345678        x"),
		S("1234567\tx", "1234567 x"),
		S("a\nb\tc", "a\nb" SP7 "c"),
		S("\x1b\tx", "^[      x"),
		S("\xc2\x9b\tx", "\\u009B  x"),
		S("e\xcc\x81\tx", "e\xcc\x81" SP7 "x"),
		S("\r\n\tx", "\n        x"),
		/* invalid bytes */
		S("\xff", "\xef\xbf\xbd"),
		S("\xe1\x80"
		  "A",
		  "\xef\xbf\xbd"
		  "A"),
		S("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"),
		S("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"),
		S("ab\xf0\x9f\x98", "ab\xef\xbf\xbd"),
		S("\xef\xbf\xbd", "\xef\xbf\xbd"),
		/* printable text is kept byte for byte */
		S("\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80",
		  "\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80"),
		S("\xcc\x81x", "\xcc\x81x"),
		S("a\n\xcc\x81", "a\n\xcc\x81"),
		/* bidi controls and other unprintable code points */
		S("a\xe2\x80\xae"
		  "b",
		  "a\\u202Eb"),
		S("\xe2\x81\xa6", "\\u2066"),
		S("\xe2\x80\x8f", "\\u200F"),
		S("\xd8\x9c", "\\u061C"),
		S("\xe2\x80\xa8", "\\u2028"),
		S("\xf0\x9f\xbf\xbe", "\\U0001FFFE"),
		S("\xf4\x8f\xbf\xbf", "\\U0010FFFF"),
		/* one line */
		S1("a\nb", "a\xe2\x86\xb5"
			   "b"),
		S1("a\r\nb", "a\xe2\x86\xb5"
			     "b"),
		S1("\n\n", "\xe2\x86\xb5\xe2\x86\xb5"),
		S1("a\nb\tc", "a\xe2\x86\xb5"
			      "b     c"),
		S1("\x1b[2J\r", "^[[2J^M"),
		/* tabs kept (the clipboard, a pager's file), all else the same */
		ST("a\tb\t", "a\tb\t"),
		ST("\x1b\t\xc2\x9b\r\n", "^[\t\\u009B\n"),
		ST("\t\x1b[201~\x03", "\t^[[201~^C"),
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct buf b = {0};

		text_sanitize(&b, cases[i].in, cases[i].n, cases[i].flags);
		if (b.n != strlen(cases[i].out) || memcmp(b.p, cases[i].out, b.n) != 0)
			fail_msg("case %zu: got \"%.*s\", want \"%s\"", i, (int)b.n, b.n ? b.p : "",
				 cases[i].out);
		buf_free(&b);
	}
}

/* A NUL inside the input is data, not the end: the length is counted. */
static void
test_sanitize_nul(void **state)
{
	struct buf b = {0};

	(void)state;
	text_sanitize(&b, "a\0b\0", 4, 0);
	assert_bytes_equal(b.p, b.n, "a^@b^@");
	buf_free(&b);
}

/* The output is appended after what the buffer holds, and tab stops count
 * from the start of the sanitized text, not of the buffer. */
static void
test_sanitize_appends(void **state)
{
	struct buf b = {0};

	(void)state;
	buf_adds(&b, "xyz");
	text_sanitize(&b, BYTES("\tq\x1b"), 0);
	assert_bytes_equal(b.p, b.n, "xyz        q^[");
	assert_int_equal(b.p[b.n], '\0');
	/* Still NUL-terminated when the last thing written was escaped and
	 * the memory after it held something else. */
	buf_reset(&b);
	buf_adds(&b, "XXXXXXXXXXXXXXXX");
	buf_reset(&b);
	text_sanitize(&b, BYTES("\x1b"), 0);
	assert_bytes_equal(b.p, b.n, "^[");
	assert_int_equal(b.p[b.n], '\0');
	buf_reset(&b);
	text_sanitize(&b, BYTES("\xc2\x9b"), 0);
	assert_string_equal(b.p, "\\u009B");
	buf_free(&b);
}

/* Fail unless out[0..n) is what may reach a terminal: valid UTF-8, no C0
 * but LF (none with TEXT_ONELINE), no DEL, no C1, every code point
 * printable. */
static void
assert_safe(const char *out, size_t n, int flags, const char *in, size_t in_n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = (unsigned char)out[i];
		uint32_t cp;
		size_t used;

		if (c == '\n' && !(flags & TEXT_ONELINE)) {
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7F)
			fail_msg("byte 0x%02X in output of %zu-byte input "
				 "starting 0x%02X",
				 c, in_n, in_n ? (unsigned char)in[0] : 0);
		used = utf8_decode(out + i, n - i, &cp);
		if (cp == 0xFFFD && used != 3)
			fail_msg("invalid UTF-8 in output");
		if (cp >= 0x80 && cp <= 0x9F)
			fail_msg("C1 U+%04X in output", (unsigned)cp);
		if (text_cpwidth(cp) < 0)
			fail_msg("unprintable U+%04X in output", (unsigned)cp);
		i += used;
	}
}

/* Sanitize in[0..n) with flags and check the result is safe. */
static void
check_safe(struct buf *b, const char *in, size_t n, int flags)
{
	buf_reset(b);
	text_sanitize(b, in, n, flags);
	assert_safe(b->p, b->n, flags, in, n);
}

/* The security property: whatever the input, nothing that controls a
 * terminal comes out. Every byte, every pair of bytes (so every C1 encoded
 * as C2 80..9F), and a megabyte of random bytes. */
static void
test_sanitize_safe(void **state)
{
	struct buf b = {0};
	char *r;
	size_t rn = 1 << 20;
	uint32_t x = 0x2545F491;

	(void)state;
	for (int flags = 0; flags <= TEXT_ONELINE; flags += TEXT_ONELINE) {
		for (unsigned v = 0; v < 256; v++) {
			char s[1] = {(char)v};

			check_safe(&b, s, 1, flags);
			/* Every byte shows as something. */
			assert_true(b.n >= 1);
		}
		for (unsigned v = 0x80; v <= 0x9F; v++) {
			char s[2] = {(char)0xC2, (char)v};
			char want[7];

			check_safe(&b, s, 2, flags);
			snprintf(want, sizeof want, "\\u%04X", v);
			assert_int_equal(b.n, 6);
			assert_memory_equal(b.p, want, 6);
		}
		for (unsigned v = 0; v < 65536; v++) {
			char s[2] = {(char)(v >> 8), (char)v};

			check_safe(&b, s, 2, flags);
		}
	}
	r = malloc(rn);
	assert_non_null(r);
	for (size_t i = 0; i < rn; i++) {
		/* xorshift32: reproducible without the C library's rand */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		/* Bias toward the bytes that matter. */
		r[i] = (char)(x & 1 ? x >> 8 : (x >> 8) % 0x20 + ((x >> 16) & 0x80));
	}
	check_safe(&b, r, rn, 0);
	check_safe(&b, r, rn, TEXT_ONELINE);
	free(r);
	buf_free(&b);
}

/* ---- text_width, text_fit ---- */

static void
test_width(void **state)
{
	(void)state;
	assert_int_equal(text_width("", 0), 0);
	assert_int_equal(text_width(BYTES("abc")), 3);
	assert_int_equal(text_width(BYTES("\xed\x95\x9c\xea\xb5\xad")), 4);
	assert_int_equal(text_width(BYTES("e\xcc\x81")), 1);
	assert_int_equal(text_width(BYTES("a\xf0\x9f\x98\x80"
					  "b")),
			 4);
	assert_int_equal(text_width(BYTES("^[\\u009B")), 8);
	assert_int_equal(text_width(BYTES("\xef\xbf\xbd")), 1);
	assert_int_equal(text_width(korean, sizeof korean - 1), 93);
}

/* Put back the locale every test expects, even after a failure. */
static int
restore_locale(void **state)
{
	(void)state;
	return setlocale(LC_ALL, "C.UTF-8") == NULL ? -1 : 0;
}

/* Widths follow LC_CTYPE even after a string was measured under another
 * (text.c caches them per locale). */
static void
test_width_follows_locale(void **state)
{
	struct buf b = {0};

	(void)state;
	assert_int_equal(text_width(BYTES("\xed\x95\x9c")), 2);
	assert_non_null(setlocale(LC_CTYPE, "C"));
	/* Nothing outside ASCII prints in "C": 한 is escaped, and counts
	 * nothing if it is measured anyway. */
	assert_int_equal(text_width(BYTES("\xed\x95\x9c")), 0);
	/* What invalid bytes become must show whatever the locale. */
	assert_int_equal(text_cpwidth(0xFFFD), 1);
	text_sanitize(&b, BYTES("\xed\x95\x9c"), 0);
	assert_bytes_equal(b.p, b.n, "\\uD55C");
	assert_non_null(setlocale(LC_CTYPE, "C.UTF-8"));
	assert_int_equal(text_width(BYTES("\xed\x95\x9c")), 2);
	buf_reset(&b);
	text_sanitize(&b, BYTES("\xed\x95\x9c"), 0);
	assert_bytes_equal(b.p, b.n, "\xed\x95\x9c");
	buf_free(&b);
}

struct fit_case {
	const char *s;
	size_t n;
	size_t width;
	size_t len;
	size_t used;
};

static void
test_fit(void **state)
{
	static const struct fit_case cases[] = {
		{BYTES("abc"), 10, 3, 3},
		{BYTES("abc"), 2, 2, 2},
		{BYTES("abc"), 0, 0, 0},
		{"", 0, 5, 0, 0},
		/* a wide character at the edge is left out whole */
		{BYTES("ab\xe6\x97\xa5"), 3, 2, 2},
		{BYTES("ab\xe6\x97\xa5"), 4, 5, 4},
		{BYTES("\xe6\x97\xa5\xe6\x9c\xac"), 1, 0, 0},
		{BYTES("\xe6\x97\xa5\xe6\x9c\xac"), 3, 3, 2},
		{BYTES("\xf0\x9f\x98\x80"), 1, 0, 0},
		/* zero-width marks go with what they follow */
		{BYTES("e\xcc\x81x"), 1, 3, 1},
		{BYTES("\xe6\x97\xa5\xcc\x81"), 1, 0, 0},
		{BYTES("\xcc\x81"
		       "a"),
		 0, 0, 0},
		{BYTES("\xcc\x81"
		       "ab"),
		 1, 3, 1},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		size_t used = 99;
		size_t len = text_fit(cases[i].s, cases[i].n, cases[i].width, &used);

		if (len != cases[i].len || used != cases[i].used)
			fail_msg("case %zu: len %zu used %zu, want %zu %zu", i, len, used,
				 cases[i].len, cases[i].used);
		assert_int_equal(text_fit(cases[i].s, cases[i].n, cases[i].width, NULL),
				 cases[i].len);
	}
}

/* ---- text_wrap ---- */

/* Check the rows [first, first + count) of rows made from s[0..n) at
 * width: each row's width is the width of its bytes and within the limit
 * (a lone wide character at width 1 excepted), rows hold no newline, and
 * what lies between them is only dropped spaces and at most one newline,
 * so the rows and the gaps give back the input. */
static void
check_rows(const char *s, size_t n, size_t width, const struct text_rows *rows, size_t first,
	   size_t count)
{
	size_t at = 0;

	assert_true(count >= 1);
	assert_int_equal(rows->v[first].off, 0);
	for (size_t k = first; k <= first + count; k++) {
		size_t end = k < first + count ? rows->v[k].off : n;
		int newlines = 0;

		assert_true(end >= at && end <= n);
		for (size_t j = at; j < end; j++) {
			if (s[j] == '\n')
				newlines++;
			else if (s[j] != ' ')
				fail_msg("row %zu: byte '%c' dropped", k, s[j]);
		}
		assert_true(newlines <= 1);
		if (k == first + count)
			break;
		{
			const struct text_row *r = &rows->v[k];

			assert_true(r->off + r->len <= n);
			assert_null(memchr(s + r->off, '\n', r->len));
			assert_int_equal(r->width, text_width(s + r->off, r->len));
			if (r->width > width) {
				/* Only a wide character alone at width 1. */
				assert_int_equal(width, 1);
				assert_int_equal(r->width, 2);
				assert_int_equal(text_fit(s + r->off, r->len, 1, NULL), 0);
			}
			at = r->off + r->len;
		}
	}
}

/* Wrap s at width and compare the rows with want[0..nwant). */
static void
expect_wrap(const char *s, size_t width, const char *const *want, size_t nwant)
{
	struct text_rows rows = {0};
	size_t n = strlen(s);
	size_t got = text_wrap(&rows, s, n, width);

	check_rows(s, n, width, &rows, 0, got);
	for (size_t k = 0; k < got && k < nwant; k++) {
		const struct text_row *r = &rows.v[k];

		if (r->len != strlen(want[k]) || memcmp(s + r->off, want[k], r->len) != 0)
			fail_msg("\"%s\" at %zu, row %zu: got \"%.*s\", "
				 "want \"%s\"",
				 s, width, k, (int)r->len, s + r->off, want[k]);
	}
	if (got != nwant)
		fail_msg("\"%s\" at %zu: %zu rows, want %zu", s, width, got, nwant);
	assert_int_equal(rows.n, got);
	text_rows_free(&rows);
}

#define WRAP(s, width, ...) \
	do { \
		static const char *const want_[] = {__VA_ARGS__}; \
		expect_wrap((s), (width), want_, ARRAY_LEN(want_)); \
	} while (0)

static void
test_wrap_words(void **state)
{
	(void)state;
	WRAP("hello world", 20, "hello world");
	WRAP("hello world", 11, "hello world");
	/* The space does not fit: dropped. */
	WRAP("hello world", 5, "hello", "world");
	/* The space fits: the row keeps it. */
	WRAP("hello world", 6, "hello ", "world");
	WRAP("hello world", 8, "hello ", "world");
	WRAP("the quick brown fox", 10, "the quick ", "brown fox");
	WRAP("the quick brown fox", 9, "the quick", "brown fox");
	/* Runs of spaces: those past the edge start no row. */
	WRAP("ab   cd", 3, "ab ", "cd");
	WRAP("ab   cd", 4, "ab  ", "cd");
	WRAP("ab   cd", 5, "ab   ", "cd");
	WRAP("    x", 2, "  ", "x");
	WRAP("abcd \nx", 4, "abcd", "x");
	WRAP("abcd    ", 4, "abcd");
	/* Indentation that fits is kept. */
	WRAP("  ab cd", 5, "  ab ", "cd");
}

static void
test_wrap_hard(void **state)
{
	(void)state;
	WRAP("abcde", 5, "abcde");
	WRAP("abcdefghij", 4, "abcd", "efgh", "ij");
	WRAP("abcdefgh", 4, "abcd", "efgh");
	WRAP("a abcdefghij", 4, "a ", "abcd", "efgh", "ij");
	WRAP("abcdef gh", 4, "abcd", "ef ", "gh");
	WRAP("abc", 1, "a", "b", "c");
}

static void
test_wrap_wide(void **state)
{
	(void)state;
	/* 日本語 */
	WRAP("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 4, "\xe6\x97\xa5\xe6\x9c\xac", "\xe8\xaa\x9e");
	WRAP("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 5, "\xe6\x97\xa5\xe6\x9c\xac", "\xe8\xaa\x9e");
	WRAP("a\xe6\x97\xa5", 2, "a", "\xe6\x97\xa5");
	WRAP("ab\xe6\x97\xa5", 3, "ab", "\xe6\x97\xa5");
	/* A row that starts with a space and a word, then a wide char. */
	WRAP(" abc\xe6\x97\xa5", 4, " ", "abc", "\xe6\x97\xa5");
	/* Width 1: each wide character alone. */
	WRAP("\xe6\x97\xa5\xe6\x9c\xac", 1, "\xe6\x97\xa5", "\xe6\x9c\xac");
	WRAP("a\xe6\x97\xa5"
	     "b",
	     1, "a", "\xe6\x97\xa5", "b");
	WRAP("\xe6\x97\xa5\xcc\x81"
	     "a",
	     1, "\xe6\x97\xa5\xcc\x81", "a");
	WRAP("\xf0\x9f\x98\x80 x", 1, "\xf0\x9f\x98\x80", "x");
}

static void
test_wrap_zero_width(void **state)
{
	(void)state;
	WRAP("e\xcc\x81"
	     "e\xcc\x81",
	     1, "e\xcc\x81", "e\xcc\x81");
	WRAP("ab \xcc\x81"
	     "cd",
	     3, "ab \xcc\x81", "cd");
	WRAP("abc\xcc\x81"
	     "d",
	     3, "abc\xcc\x81", "d");
	WRAP("\xcc\x81", 1, "\xcc\x81");
}

static void
test_wrap_lines(void **state)
{
	struct text_rows rows = {0};

	(void)state;
	WRAP("a\n\nb", 10, "a", "", "b");
	WRAP("a\n", 10, "a");
	WRAP("a\n\n", 10, "a", "");
	WRAP("\n", 10, "");
	WRAP("\nx", 10, "", "x");
	WRAP("ab cd\nef", 3, "ab ", "cd", "ef");
	WRAP("abcd \n\nx", 4, "abcd", "", "x");

	/* Empty text: one empty row. */
	assert_int_equal(text_wrap(&rows, "", 0, 10), 1);
	assert_int_equal(rows.n, 1);
	assert_int_equal(rows.v[0].off, 0);
	assert_int_equal(rows.v[0].len, 0);
	assert_int_equal(rows.v[0].width, 0);

	/* Rows are appended; offsets are into each call's own text. */
	assert_int_equal(text_wrap(&rows, BYTES("xy zw"), 3), 2);
	assert_int_equal(rows.n, 3);
	assert_int_equal(rows.v[2].off, 3);
	assert_int_equal(rows.v[2].len, 2);
	assert_int_equal(rows.v[2].width, 2);

	text_rows_free(&rows);
	assert_null(rows.v);
	assert_int_equal(rows.n, 0);
	assert_int_equal(rows.cap, 0);
	/* Usable again after free. */
	assert_int_equal(text_wrap(&rows, BYTES("a b"), 1), 2);
	text_rows_free(&rows);
}

/* The brief's mixed Korean and ASCII sentence. */
static void
test_wrap_korean(void **state)
{
	static const size_t widths[] = {10, 20, 40};
	struct text_rows rows = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(widths); i++) {
		size_t first = rows.n;
		size_t got = text_wrap(&rows, korean, sizeof korean - 1, widths[i]);

		check_rows(korean, sizeof korean - 1, widths[i], &rows, first, got);
		/* 93 cells cannot fit in fewer rows than this. */
		assert_true(got >= (93 + widths[i] - 1) / widths[i]);
		for (size_t k = first; k < first + got; k++)
			assert_true(rows.v[k].width <= widths[i]);
	}
	text_rows_free(&rows);

	/* Greedy rows, each keeping the space of its break when it fits. */
	WRAP(korean, 20, "Cursor Agent CLI는 ", "--print와 함께 ", "사용할 때 ", "--output-format ",
	     "옵션으로 여러 출력 ", "형식을 제공해.");
	/* Exactly 40 cells, then a space that is dropped. */
	WRAP(korean, 40, "Cursor Agent CLI는 --print와 함께 사용할",
	     "때 --output-format 옵션으로 여러 출력 ", "형식을 제공해.");
	/* A word wider than the row is cut. */
	WRAP(korean, 10, "Cursor ", "Agent ", "CLI는 ", "--print와 ", "함께 ", "사용할 때 ",
	     "--output-f", "ormat ", "옵션으로 ", "여러 출력 ", "형식을 ", "제공해.");
}

/* Sanitized hostile text wraps like any other. */
static void
test_wrap_sanitized(void **state)
{
	struct buf b = {0};
	struct text_rows rows = {0};
	size_t got;

	(void)state;
	text_sanitize(&b, BYTES("x\x1b]0;t\x07\tb\r\n\xc2\x9b\xe6\x97\xa5"), 0);
	assert_bytes_equal(b.p, b.n, "x^[]0;t^G       b\n\\u009B\xe6\x97\xa5");
	got = text_wrap(&rows, b.p, b.n, 7);
	check_rows(b.p, b.n, 7, &rows, 0, got);
	assert_int_equal(got, 5);
	assert_int_equal(rows.v[0].width, 7); /* x^[]0;t */
	/* ^G and the 5 of the tab's 7 spaces that fit; 2 are dropped */
	assert_int_equal(rows.v[1].width, 7);
	assert_int_equal(rows.v[1].len, 7);
	assert_int_equal(rows.v[2].width, 1); /* b */
	assert_int_equal(rows.v[3].width, 6); /* \u009B */
	assert_int_equal(rows.v[4].width, 2); /* 日 */
	text_rows_free(&rows);
	buf_free(&b);
}

/* Wrap n bytes of the pattern pat at width and check the rows. Speed is
 * measured by make bench, not asserted here. */
static size_t
wrap_big(const char *pat, size_t patn, size_t n, size_t width, struct text_rows *rows)
{
	char *s = malloc(n);
	size_t got;

	assert_non_null(s);
	for (size_t i = 0; i < n; i++)
		s[i] = pat[i % patn];
	got = text_wrap(rows, s, n, width);
	check_rows(s, n, width, rows, rows->n - got, got);
	free(s);
	return got;
}

/* A megabyte without a break, of spaces, and of wide characters at 1. */
static void
test_wrap_big(void **state)
{
	struct text_rows rows = {0};
	size_t mb = 1 << 20;

	(void)state;
	assert_int_equal(wrap_big("x", 1, mb, 80, &rows), (mb + 79) / 80);
	text_rows_free(&rows);

	assert_int_equal(wrap_big(" ", 1, mb, 80, &rows), 1);
	assert_int_equal(rows.v[0].len, 80);
	assert_int_equal(rows.v[0].width, 80);
	text_rows_free(&rows);

	assert_int_equal(wrap_big("\xe6\x97\xa5", 3, 3 * (mb / 3), 1, &rows), mb / 3);
	text_rows_free(&rows);

	/* One long word after each space: every break is at a space. */
	assert_int_equal(wrap_big("abcdefghi ", 10, mb, 80, &rows), (mb + 79) / 80);
	text_rows_free(&rows);
}

/* Markdown escaping: prose keeps its markup but tags, links, images and
 * entities; words and cells show every character as it is; a backslash is
 * always text; a code span
 * needs its closing backticks on its line (in prose no '|' between), else its backticks are text; a fence goes on
 * across pieces, and ends as CommonMark ends it or earlier, never later. */
static void
test_md_escape(void **state)
{
	static const struct {
		const char *pieces[3];
		enum md_mode mode;
		const char *want;
	} cases[] = {
		{{"a <b> & c > d &amp; [t](u)"}, MD_PROSE, "a &lt;b> & c > d &amp;amp; \\[t\\](u)"},
		{{"a <b> & c > d *e* _f_ ~g~ \\ | h"},
		 MD_PLAIN,
		 "a &lt;b&gt; &amp; c &gt; d \\*e\\* \\_f\\_ \\~g\\~ \\\\ \\| h"},
		{{"![i](http://t/i.png)"}, MD_PROSE, "!\\[i\\](http\\://t/i.png)"},
		/* A bare URL is no link: it would take a span's backticks. */
		{{"http://x`<i>` www.y`<i>`"}, MD_PLAIN, "http\\://x`<i>` www\\.y`<i>`"},
		/* Every backslash is text: none undoes an escape. */
		{{"\\[t\\](u) \\`<b>`"}, MD_PROSE, "\\\\\\[t\\\\\\](u) \\\\`<b>`"},
		{{"\\[t\\](u)"}, MD_PLAIN, "\\\\\\[t\\\\\\](u)"},
		{{"`<x>` and ``a`<y>`b``"}, MD_PLAIN, "`<x>` and ``a`<y>`b``"},
		{{"an open ` then <x>"}, MD_PROSE, "an open \\` then &lt;x>"},
		/* A span across a line, or holding a '|' in prose, is none. */
		{{"`a\n<x>`"}, MD_PROSE, "\\`a\n&lt;x>\\`"},
		{{"`<x>|` `a|b`"}, MD_PROSE, "\\`&lt;x>|` `a|b\\`"},
		{{"`a|b` c|d `e`"}, MD_CELL, "\\`a\\|b\\` c\\|d `e`"},
		{{"a\nb"}, MD_CELL, "a b"},
		/* A span cut across pieces: both halves text. */
		{{"`abc\n", "` <x> `"}, MD_PROSE, "\\`abc\n` <x> `"},
		{{"```\n<x>\n", "<y>\n```\n<z>"}, MD_PROSE, "```\n<x>\n<y>\n```\n&lt;z>"},
		{{"text ```not a fence <x>"}, MD_PROSE, "text \\`\\`\\`not a fence &lt;x>"},
		{{"   ~~~\n   <x>\n ~~~\n<y>"}, MD_PROSE, "   ~~~\n   <x>\n ~~~\n&lt;y>"},
		/* A backtick in the info string: no fence. */
		{{"```x`\n<x>\n"}, MD_PROSE, "\\`\\`\\`x\\`\n&lt;x>\n"},
		/* Closed by a longer run of its own character only, alone on
		 * its line. */
		{{"````\n```\n~~~~\n```` x\n<x>\n`````\n<y>"},
		 MD_PROSE,
		 "````\n```\n~~~~\n```` x\n<x>\n`````\n&lt;y>"},
		/* In a list item: a line less indented ends it. */
		{{"1. x\n   ```\n   <x>\n\n<y>\n"}, MD_PROSE, "1. x\n   ```\n   <x>\n\n&lt;y>\n"},
		/* Four spaces: indented code, not a fence (escaped: shown as
		 * written in the code, never as a tag). */
		{{"    ```\n<x>"}, MD_PROSE, "    \\`\\`\\`\n&lt;x>"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct buf out = {0};
		struct md_state st = {0};

		for (size_t k = 0; k < 3 && cases[i].pieces[k] != NULL; k++)
			text_md_escape(&out, cases[i].pieces[k], strlen(cases[i].pieces[k]),
				       cases[i].mode, &st);
		if (strcmp(out.p, cases[i].want) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, out.p, cases[i].want);
		buf_free(&out);
	}
}

/* A fence the text left open is closed by the same fence, as indented. */
static void
test_md_close(void **state)
{
	struct buf out = {0};
	struct md_state st = {0};

	(void)state;
	text_md_escape(&out, "  ~~~~ js\n  <x>\n", 16, MD_PROSE, &st);
	text_md_close(&out, &st);
	assert_string_equal(out.p, "  ~~~~ js\n  <x>\n  ~~~~\n");
	assert_int_equal(st.fence, 0);
	text_md_close(&out, &st);
	assert_string_equal(out.p, "  ~~~~ js\n  <x>\n  ~~~~\n");
	buf_free(&out);
}

/* HTML escaping: the five characters of markup as entities, every other
 * byte (UTF-8, NUL) as it is, appended. */
static void
test_html_escape(void **state)
{
	static const char in[] = "<img src=x onerror=\"a('1')\"> & \xC3\xA9\0<";
	struct buf out = {0};

	(void)state;
	buf_adds(&out, "pre:");
	text_html_escape(&out, in, sizeof in - 1);
	assert_bytes_equal(out.p, out.n,
			   "pre:&lt;img src=x onerror=&quot;a(&#39;1&#39;)&quot;&gt; "
			   "&amp; \xC3\xA9\0&lt;");
	buf_reset(&out);
	text_html_escape(&out, "", 0);
	assert_int_equal(out.n, 0);
	text_html_escape(&out, "plain", 5);
	assert_string_equal(out.p, "plain");
	buf_free(&out);
}

/* Paths relative to the session's cwd, cut in the middle to fit, the
 * file's name kept. */
static void
test_paths(void **state)
{
	static const struct {
		const char *path, *cwd;
		size_t cells;
		const char *want;
	} cases[] = {
		{"/home/dev/project/src/duration.js", "/home/dev/project", 0, "src/duration.js"},
		{"/home/dev/project/src/duration.js", "/home/dev/project/", 0, "src/duration.js"},
		{"/home/dev/projectile/a.js", "/home/dev/project", 0, "/home/dev/projectile/a.js"},
		{"/home/dev/project", "/home/dev/project", 0, "."},
		{"/etc/hosts", "/", 0, "etc/hosts"},
		{"src/a.c", "/home/dev", 0, "src/a.c"},
		{"/home/dev/project/config/settings/local.json", "/home/dev/project", 24,
		 "\xE2\x80\xA6/settings/local.json"},
		{"/a/very/long/path/to/duration.js", NULL, 16, "\xE2\x80\xA6/to/duration.js"},
		{"/a/b/averyveryverylongfilename.txt", NULL, 10, "averyvery\xE2\x80\xA6"},
		{"/a/b/c.txt", NULL, 10, "/a/b/c.txt"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct buf rel = {0}, out = {0};
		const char *cwd = cases[i].cwd;

		text_path_relative(&rel, cases[i].path, strlen(cases[i].path), cwd,
				   cwd != NULL ? strlen(cwd) : 0);
		if (cases[i].cells > 0)
			text_path_fit(&out, rel.p, rel.n, cases[i].cells);
		else
			buf_add(&out, rel.p, rel.n);
		if (strcmp(out.p, cases[i].want) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, out.p, cases[i].want);
		buf_free(&rel);
		buf_free(&out);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_md_escape),
		cmocka_unit_test(test_md_close),
		cmocka_unit_test(test_html_escape),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_decode_cases),
		cmocka_unit_test(test_decode_sequence),
		cmocka_unit_test(test_decode_exhaustive),
		cmocka_unit_test(test_cpwidth),
		cmocka_unit_test(test_sanitize_vectors),
		cmocka_unit_test(test_sanitize_nul),
		cmocka_unit_test(test_sanitize_appends),
		cmocka_unit_test(test_sanitize_safe),
		cmocka_unit_test(test_width),
		cmocka_unit_test_teardown(test_width_follows_locale, restore_locale),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_wrap_words),
		cmocka_unit_test(test_wrap_hard),
		cmocka_unit_test(test_wrap_wide),
		cmocka_unit_test(test_wrap_zero_width),
		cmocka_unit_test(test_wrap_lines),
		cmocka_unit_test(test_wrap_korean),
		cmocka_unit_test(test_wrap_sanitized),
		cmocka_unit_test(test_wrap_big),
	};

	/* Widths come from wcwidth, which knows nothing outside UTF-8. */
	if (setlocale(LC_ALL, "C.UTF-8") == NULL) {
		fputs("test_text: no C.UTF-8 locale\n", stderr);
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
