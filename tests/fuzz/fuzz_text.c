/* fuzz_text.c: libFuzzer harness for the text layer: UTF-8 decoding, the
 * escaping of control characters, cell widths, fitting and wrapping.
 * Checked: utf8_decode takes 1 to 4 bytes and gives a scalar value in its
 * shortest form; text_sanitize writes valid UTF-8 in which every code
 * point prints (no C0 but LF, no DEL, no C1, no bidi control), and is
 * idempotent; text_fit returns the longest prefix that fits; text_wrap's
 * rows are in order, on code point boundaries, within the width, measure
 * what they hold, and drop nothing but spaces at breaks and newlines; the
 * redactor (redact.c) finds its secrets, escaped or not, within memory,
 * says so when it replaces any, and cuts within the bound on a code
 * point's start. */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "redact.h"

/* The well-known shapes and a pattern of the user's. */
static struct redact *red;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct buf err = {0};

	(void)argc;
	(void)argv;
	setlocale(LC_CTYPE, "C.UTF-8");
	red = redact_new();
	CHECK(redact_add(red, "x[0-9]+y", &err));
	return 0;
}

/* The redactor over s[0..n): what it writes says [redacted] when it says
 * it replaced a secret; a cut at max is no further than max nor the text,
 * and never in the middle of a character. */
static void
check_redact(const char *s, size_t n, uint64_t h)
{
	struct buf out = {0};
	size_t max = (size_t)((h >> 32) % (n + 2)), k;

	if (redact_text(red, s, n, &out)) {
		size_t r = strlen(REDACTED), i = 0;

		while (i + r <= out.n && memcmp(out.p + i, REDACTED, r) != 0)
			i++;
		CHECK(i + r <= out.n);
	}
	redact_use(red, (h >> 40) & 1);
	k = redact_cut(s, n, max);
	CHECK(k <= n && k <= max);
	CHECK(k == 0 || k == n || ((unsigned char)s[k] & 0xC0) != 0x80);
	redact_use(NULL, false);
	buf_free(&out);
}

/* utf8_decode over all of s: sizes, ranges, shortest form. */
static void
check_decode(const char *s, size_t n)
{
	struct buf enc = {0};
	uint32_t cp = 0;
	size_t i = 0;

	CHECK(utf8_decode(s, 0, &cp) == 0 && cp == 0xFFFD);
	while (i < n) {
		size_t k = utf8_decode(s + i, n - i, &cp);

		CHECK(k >= 1 && k <= 4 && k <= n - i);
		CHECK(cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF));
		if (cp != 0xFFFD || (k == 3 && memcmp(s + i, "\xEF\xBF\xBD", 3) == 0)) {
			buf_reset(&enc);
			buf_add_utf8(&enc, cp);
			CHECK(enc.n == k && memcmp(enc.p, s + i, k) == 0);
		}
		i += k;
	}
	buf_free(&enc);
}

/* Cells of one code point in sanitized text (what text_width counts). */
static size_t
cells(uint32_t cp)
{
	int w = text_cpwidth(cp);

	return w < 0 ? 0 : (size_t)w;
}

/* Sanitized text: valid UTF-8, every code point prints. */
static void
check_sanitized(const char *s, size_t n, int flags)
{
	size_t i = 0;

	CHECK(fuzz_utf8_ok(s, n));
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);

		if (cp == '\n') {
			CHECK(!(flags & TEXT_ONELINE));
		} else {
			CHECK(cp >= 0x20 && cp != 0x7F);
			CHECK(!(cp >= 0x80 && cp < 0xA0));
			CHECK(text_cpwidth(cp) >= 0);
		}
		i += k;
	}
}

/* text_width and text_fit on one row of sanitized text. */
static void
check_fit(const char *s, size_t n, size_t width)
{
	size_t total = 0, i = 0, used, len;
	uint32_t cp;

	while (i < n) {
		i += utf8_decode(s + i, n - i, &cp);
		total += cells(cp);
	}
	CHECK(text_width(s, n) == total);
	len = text_fit(s, n, width, &used);
	CHECK(len <= n && used <= width);
	CHECK(text_width(s, len) == used);
	if (width == 0)
		CHECK(len == 0);
	/* on a boundary: decoding from the start lands on it */
	for (i = 0; i < len;)
		i += utf8_decode(s + i, n - i, &cp);
	CHECK(i == len);
	/* the longest: the next code point does not fit */
	if (len < n && width > 0) {
		utf8_decode(s + len, n - len, &cp);
		CHECK(cells(cp) > width - used);
	}
}

/* text_wrap's rows over sanitized s[0..n). */
static void
check_wrap(const char *s, size_t n, size_t width)
{
	struct text_rows rows = {0};
	size_t nrows, end = 0, segs = 0, widest = 0, from = 0;

	nrows = text_wrap(&rows, s, n, width);
	CHECK(nrows == rows.n && nrows >= 1);
	if (n == 0)
		CHECK(nrows == 1 && rows.v[0].len == 0);
	for (size_t r = 0; r < rows.n; r++) {
		const struct text_row *row = &rows.v[r];
		const char *p = s + row->off;
		size_t i = 0, nonzero = 0;
		uint32_t cp;

		CHECK(row->off >= end && (size_t)row->off + row->len <= n);
		/* what lies between rows is only spaces and newlines */
		for (size_t k = end; k < row->off; k++)
			CHECK(s[k] == ' ' || s[k] == '\n');
		end = row->off + row->len;
		CHECK(memchr(p, '\n', row->len) == NULL);
		CHECK(text_width(p, row->len) == row->width);
		while (i < row->len) {
			size_t k = utf8_decode(p + i, n - row->off - i, &cp);

			CHECK(i + k <= row->len); /* ends on a boundary */
			if (cells(cp) > 0)
				nonzero++;
			i += k;
		}
		/* too wide only for one wide character at width 1 */
		if (row->width > MAX(width, (size_t)1))
			CHECK(width <= 1 && nonzero == 1 && row->width == 2);
	}
	for (size_t k = end; k < n; k++)
		CHECK(s[k] == ' ' || s[k] == '\n');
	/* Lines that fit are one row each. */
	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == '\n') {
			if (i < n || i > from || n == 0)
				segs++;
			widest = MAX(widest, text_width(s + from, i - from));
			from = i + 1;
		}
	}
	CHECK(nrows >= segs);
	if (widest <= MAX(width, (size_t)1))
		CHECK(nrows == segs);
	text_rows_free(&rows);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	uint64_t h = hash_bytes(data, size, 0);
	int flags = (h & 1) ? TEXT_ONELINE : 0;
	size_t width = (size_t)((h >> 8) % 130), w2 = (size_t)((h >> 24) % 40);
	struct buf out = {0}, again = {0};
	struct text_rows rows = {0};
	size_t from = 0;

	check_decode(s, size);
	check_redact(s, size, h);
	text_sanitize(&out, s, size, flags);
	CHECK(out.n <= 10 * size);
	check_sanitized(out.p, out.n, flags);
	/* Sanitized text holds nothing left to escape. */
	text_sanitize(&again, out.p, out.n, flags);
	CHECK(again.n == out.n && memcmp(again.p, out.p, out.n) == 0);
	check_wrap(out.p, out.n, width);
	if (width != w2)
		check_wrap(out.p, out.n, w2);
	for (size_t i = 0; i <= out.n; i++) {
		if (i == out.n || out.p[i] == '\n') {
			check_fit(out.p + from, i - from, width);
			check_fit(out.p + from, i - from, w2);
			from = i + 1;
		}
	}
	/* Unsanitized bytes break the contract but must not break memory. */
	text_wrap(&rows, size > 0 ? s : "", size, width);
	text_width(s, size);
	text_fit(s, size, w2, NULL);
	text_rows_free(&rows);
	buf_free(&out);
	buf_free(&again);
	return 0;
}
