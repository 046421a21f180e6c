/* text.c: UTF-8 decoding, cell widths, escaping of control characters and
 * word wrapping. Everything hostile text can do to a terminal is undone in
 * text_sanitize; the other functions trust its output. */
#include "text.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "glyph.h"
#include "redact.h"

#define REPLACEMENT 0xFFFD

/* "↵": what TEXT_ONELINE shows for a newline; one cell wide. */
static const char newline_mark[] = GLYPH_NEWLINE;

/* U+FFFD, written for invalid input. */
static const char replacement_utf8[] = GLYPH_REPLACEMENT;

/* What a tab becomes, at most. */
static const char tab_spaces[] = "        ";
_Static_assert(TEXT_TABSTOP <= sizeof tab_spaces - 1, "tab_spaces too short");
/* The most bytes one input code point can become: "\U0010FFFF". */
#define SHOWN_MAX 10
_Static_assert(TEXT_TABSTOP <= SHOWN_MAX, "a tab is longer than SHOWN_MAX");

/* Strict RFC 3629 decoding with Unicode's maximal-subpart error rule. */
size_t
utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char c, lo = 0x80, hi = 0xBF;
	size_t need;
	uint32_t v;

	/* No byte to read: report an error without touching s, and let a
	 * caller that ignores the contract see that nothing was consumed. */
	if (n == 0) {
		*cp = REPLACEMENT;
		return 0;
	}
	c = u[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	/* 80..BF are stray continuations, C0/C1 only start overlongs and
	 * F5..FF only start values above U+10FFFF: none begins a sequence. */
	if (c < 0xC2 || c > 0xF4) {
		*cp = REPLACEMENT;
		return 1;
	}
	/* The second byte's range is narrowed for the leads that could
	 * otherwise spell an overlong (E0, F0), a surrogate (ED) or a value
	 * above U+10FFFF (F4); this is what makes the maximal subpart of
	 * "F0 80" one byte long (Unicode §3.9, table 3-7). */
	if (c < 0xE0) {
		need = 1;
		v = c & 0x1F;
	} else if (c < 0xF0) {
		need = 2;
		v = c & 0x0F;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
	} else {
		need = 3;
		v = c & 0x07;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	}
	for (size_t i = 1; i <= need; i++) {
		/* Everything before i was a valid prefix: that is the maximal
		 * subpart, and u[i] starts the next decode. */
		if (i >= n || u[i] < lo || u[i] > hi) {
			*cp = REPLACEMENT;
			return i;
		}
		v = v << 6 | (u[i] & 0x3F);
		lo = 0x80;
		hi = 0xBF;
	}
	*cp = v;
	return need + 1;
}

/* Bidirectional formatting characters: zero width to wcwidth, but they
 * reorder what follows them on screen, so text could hide behind them. */
static int
is_bidi_control(uint32_t cp)
{
	return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* wcwidth, less everything a terminal could act on rather than print. */
int
text_cpwidth(uint32_t cp)
{
	int w;

	/* Printable ASCII is nearly all text: answer without a call. */
	if (cp >= 0x20 && cp < 0x7F)
		return 1;
	/* C0, DEL and C1: C1 bytes alone are CSI, OSC and DCS to some
	 * terminals, so they are as dangerous as ESC. */
	if (cp < 0xA0)
		return -1;
	/* What invalid input decodes to must show, whatever the locale. */
	if (cp == REPLACEMENT)
		return 1;
	if (is_bidi_control(cp) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1;
	w = wcwidth((wchar_t)cp);
	return w < 0 ? -1 : w;
}

/* text_cpwidth of the BMP plus 2, 0 when not looked up yet: wcwidth walks
 * the locale's tables on every call, a third of the time of sanitize and
 * wrap, while text uses few distinct code points. Filled under the LC_CTYPE
 * named in width_locale, and used only while width_cached is set (not for a
 * locale name too long to keep). Not thread-safe; agentview has one
 * thread. */
static unsigned char width_cache[0x10000];
static char width_locale[64];
static int width_cached;

/* Start the width cache over if LC_CTYPE changed since it was filled.
 * Called on entry to each function that measures a whole string, so a
 * setlocale between calls is honoured; the check is a string compare. */
static void
width_cache_check(void)
{
	const char *name = setlocale(LC_CTYPE, NULL);
	size_t len;

	if (name == NULL)
		name = "";
	len = strlen(name);
	if (len >= sizeof width_locale) {
		width_cached = 0; /* cannot tell it from another: bypass */
		return;
	}
	if (width_cached && strcmp(name, width_locale) == 0)
		return;
	memset(width_cache, 0, sizeof width_cache);
	memcpy(width_locale, name, len + 1);
	width_cached = 1;
}

/* text_cpwidth through the cache; width_cache_check must have run. */
static int
cpwidth_cached(uint32_t cp)
{
	unsigned char v;

	if (cp >= 0x10000 || !width_cached)
		return text_cpwidth(cp);
	v = width_cache[cp];
	if (v == 0) {
		v = (unsigned char)(text_cpwidth(cp) + 2);
		width_cache[cp] = v;
	}
	return v - 2;
}

/* Cells cp takes in text that is meant to be sanitized already: anything
 * that would have been escaped takes none, so width and wrap agree. */
static size_t
cell_width(uint32_t cp)
{
	int w = cpwidth_cached(cp);

	return w < 0 ? 0 : (size_t)w;
}

/* Write "\u" and 4 uppercase hex digits to d, or "\U" and 8 above U+FFFF
 * (C's and Python's spelling); returns the bytes, which are also the cells.
 * Hand-rolled rather than buf_addf: input can be made of nothing else. */
static size_t
put_escape(char *d, uint32_t cp)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t len = cp > 0xFFFF ? 10 : 6;

	d[0] = '\\';
	d[1] = cp > 0xFFFF ? 'U' : 'u';
	for (size_t i = len; i > 2; i--) {
		d[i - 1] = hex[cp & 0xF];
		cp >>= 4;
	}
	return len;
}

/* text_sanitize without the redaction. */
static void
sanitize(struct buf *out, const char *s, size_t n, int flags)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, col = 0; /* col: cells of output since the line start */

	width_cache_check();
	buf_reserve(out, n);
	while (i < n) {
		size_t j = i, k;
		unsigned char c;
		uint32_t cp;
		size_t len;
		char *d;
		int w;

		/* Most text needs no change: find the longest such run and
		 * copy it in one go. */
		while (j < n) {
			c = u[j];
			if (c >= 0x20 && c < 0x7F) {
				j++;
				col++;
				continue;
			}
			if (c < 0x80)
				break;
			len = utf8_decode(s + j, n - j, &cp);
			/* U+FFFD may stand for invalid bytes, which must not
			 * be copied: it is written fresh below. */
			if (cp == REPLACEMENT || (w = cpwidth_cached(cp)) < 0)
				break;
			col += (size_t)w;
			j += len;
		}
		if (j > i)
			buf_add(out, s + i, j - i);
		if (j == n)
			break;
		/* Written in place: input made only of controls would
		 * otherwise spend its time in buf_add. The terminating NUL
		 * buf promises is put back at the end. */
		buf_reserve(out, SHOWN_MAX);
		d = out->p + out->n;
		i = j;
		c = u[i];
		if (c == '\n') {
			if (flags & TEXT_ONELINE) {
				/* One line: the tab stops keep counting. */
				k = sizeof newline_mark - 1;
				memcpy(d, newline_mark, k);
				col++;
			} else {
				d[0] = '\n';
				k = 1;
				col = 0;
			}
			i++;
		} else if (c == '\t') {
			/* Spaces, not a tab: the screen must know where every
			 * cell goes, and a tab's width depends on its column. */
			k = TEXT_TABSTOP - col % TEXT_TABSTOP;
			col += k;
			if (flags & TEXT_TABS) {
				d[0] = '\t';
				k = 1;
			} else {
				memcpy(d, tab_spaces, k);
			}
			i++;
		} else if (c == '\r' && i + 1 < n && u[i + 1] == '\n') {
			k = 0; /* CRLF: the LF is handled on the next turn */
			i++;
		} else if (c < 0x80) {
			d[0] = '^';
			d[1] = (char)(c ^ 0x40);
			k = 2;
			col += 2;
			i++;
		} else {
			i += utf8_decode(s + i, n - i, &cp);
			if (cp == REPLACEMENT) {
				k = sizeof replacement_utf8 - 1;
				memcpy(d, replacement_utf8, k);
				col++;
			} else {
				k = put_escape(d, cp);
				col += k;
			}
		}
		out->n += k;
	}
	out->p[out->n] = '\0';
}

/* The one gate between hostile text and the terminal, once secrets are
 * out of it. */
void
text_sanitize(struct buf *out, const char *s, size_t n, int flags)
{
	const struct redact *r = redact_active();
	struct buf clean = {0};

	if (r != NULL && !(flags & TEXT_REDACTED) && redact_text(r, s, n, &clean)) {
		sanitize(out, clean.p, clean.n, flags);
		buf_free(&clean);
		return;
	}
	sanitize(out, s, n, flags);
}

/* Cells of a sanitized row: text_fit with no limit. */
size_t
text_width(const char *s, size_t n)
{
	size_t w;

	text_fit(s, n, SIZE_MAX, &w);
	return w;
}

/* How much of a row the screen can draw in width cells. */
size_t
text_fit(const char *s, size_t n, size_t width, size_t *used)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, cells = 0;

	width_cache_check();
	/* Without this a leading combining mark, zero cells, would fit. */
	if (width == 0)
		n = 0;
	while (i < n) {
		uint32_t cp;
		size_t len, w;

		if (u[i] < 0x80) {
			cp = u[i];
			len = 1;
		} else {
			len = utf8_decode(s + i, n - i, &cp);
		}
		w = cell_width(cp);
		/* Zero-width code points after the last one that fits still
		 * fit: they belong to it. */
		if (w > width - cells)
			break;
		cells += w;
		i += len;
	}
	if (used != NULL)
		*used = cells;
	return i;
}

/* Append the row s[off, off + len) of width cells to rows. */
static void
rows_push(struct text_rows *rows, size_t off, size_t len, size_t width)
{
	struct text_row *r;

	ARRAY_RESERVE(rows->v, rows->cap, rows->n + 1);
	r = &rows->v[rows->n++];
	r->off = (uint32_t)off;
	r->len = (uint32_t)len;
	r->width = (uint32_t)width;
}

/* Greedy word wrap in one pass, no backtracking: the row being built
 * remembers where its last break opportunity was and how wide it was there,
 * so a break costs O(1) whatever the length of the word or of the run of
 * spaces. */
size_t
text_wrap(struct text_rows *rows, const char *s, size_t n, size_t width)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t before = rows->n;
	size_t start = 0, cells = 0;   /* the row being built and its width */
	size_t brk = 0, brk_cells = 0; /* after its last space; 0: none */
	int skipping = 0;              /* dropping the spaces at a break */
	size_t i = 0;

	/* Rows hold 32-bit offsets; nothing shown is ever this large. */
	if (n > UINT32_MAX)
		die("text of %zu bytes is too large to wrap", n);
	if (width == 0)
		width = 1;
	width_cache_check();
	while (i < n) {
		uint32_t cp;
		size_t len, w;

		/* Letters of a word that fit, one cell each: the bulk of
		 * text, taken without the checks below. */
		if (u[i] > ' ' && u[i] < 0x7F && cells < width && !skipping) {
			size_t end = i + MIN(width - cells, n - i), j = i + 1;

			while (j < end && u[j] > ' ' && u[j] < 0x7F)
				j++;
			cells += j - i;
			i = j;
			continue;
		}
		if (u[i] < 0x80) {
			cp = u[i];
			len = 1;
		} else {
			len = utf8_decode(s + i, n - i, &cp);
		}
		if (cp == '\n') {
			/* After a break the row was pushed already: a newline
			 * there must not add an empty one. */
			if (!skipping)
				rows_push(rows, start, i - start, cells);
			skipping = 0;
			start = i + 1;
			cells = 0;
			brk = 0;
			i++;
			continue;
		}
		if (skipping) {
			if (cp == ' ') {
				i++;
				continue;
			}
			skipping = 0;
			start = i;
			cells = 0;
			brk = 0;
		}
		w = cell_width(cp);
		if (cp == ' ') {
			if (cells + 1 > width) {
				/* The row ends with the spaces that fit; this
				 * one and those after it start no row. */
				rows_push(rows, start, i - start, cells);
				skipping = 1;
			} else {
				cells++;
				brk = i + 1;
				brk_cells = cells;
			}
			i++;
			continue;
		}
		if (w == 0) {
			/* A mark on a space at the break goes with the space
			 * rather than opening the next row. */
			if (brk == i)
				brk = i + len;
			i += len;
			continue;
		}
		if (cells + w > width && brk > start) {
			/* The word so far moves down with its marks. */
			rows_push(rows, start, brk - start, brk_cells);
			start = brk;
			cells -= brk_cells;
			brk = 0;
		}
		/* No space to break at (or the row broke just after its
		 * leading space and the word is still too wide): cut the word
		 * here. An empty row takes the character even if it is wider
		 * than the row, or a wide one at width 1 would never fit. */
		if (cells + w > width && cells > 0) {
			rows_push(rows, start, i - start, cells);
			start = i;
			cells = 0;
			brk = 0;
		}
		cells += w;
		i += len;
	}
	/* "a\n" ends with the row of "a", not with an empty one; "" is one
	 * empty row. */
	if (!skipping && (start < n || n == 0))
		rows_push(rows, start, n - start, cells);
	return rows->n - before;
}

/* Release the rows array; rows may be filled again afterwards. */
void
text_rows_free(struct text_rows *rows)
{
	free(rows->v);
	rows->v = NULL;
	rows->n = rows->cap = 0;
}

int64_t
text_lines(const char *s, size_t n)
{
	int64_t lines = 0;

	for (size_t i = 0; i < n; i++)
		lines += s[i] == '\n';
	return lines + (n > 0 && s[n - 1] != '\n');
}

/* s for a man page (the option and key tables' sections). */
void
text_roff(struct buf *out, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			buf_adds(out, "\\e");
		else if (*s == '-')
			buf_adds(out, "\\-");
		else
			buf_addc(out, *s);
	}
}

/* Length of the run of c at s[i..n). */
static size_t
run_of(const char *s, size_t n, size_t i, char c)
{
	size_t k = 0;

	while (i + k < n && s[i + k] == c)
		k++;
	return k;
}

/* Whether s[i..n) is blank to the end of its line. */
static bool
blank_rest(const char *s, size_t n, size_t i)
{
	i += run_of(s, n, i, ' ');
	return i == n || s[i] == '\n';
}

enum md_line
text_md_line(struct md_state *st, const char *s, size_t n)
{
	size_t sp = run_of(s, n, 0, ' '), k;
	char c;

	if (st->fence != 0) {
		if (blank_rest(s, n, sp))
			return MDL_CODE;
		/* Less indented than the fence: the list item it may be in
		 * ends, and the block with it (CommonMark §5.2). */
		if (sp >= st->indent) {
			if (sp <= st->indent + 3 && run_of(s, n, sp, st->fence) >= st->flen &&
			    blank_rest(s, n, sp + run_of(s, n, sp, st->fence))) {
				st->fence = 0;
				return MDL_CLOSE;
			}
			return MDL_CODE;
		}
		st->fence = 0;
	}
	if (sp > 3 || sp == n)
		return MDL_TEXT;
	c = s[sp];
	k = run_of(s, n, sp, c);
	if ((c != '`' && c != '~') || k < 3)
		return MDL_TEXT;
	/* A backtick fence's info string holds no backtick (§4.5). */
	for (size_t j = sp + k; c == '`' && j < n && s[j] != '\n'; j++)
		if (s[j] == '`')
			return MDL_TEXT;
	st->fence = c;
	st->flen = k;
	st->indent = sp;
	return MDL_OPEN;
}

void
text_md_close(struct buf *out, struct md_state *st)
{
	if (st->fence == 0)
		return;
	for (size_t i = 0; i < st->indent; i++)
		buf_addc(out, ' ');
	for (size_t i = 0; i < st->flen; i++)
		buf_addc(out, st->fence);
	buf_addc(out, '\n');
	st->fence = 0;
}

size_t
text_md_span_end(const char *s, size_t n, size_t i, size_t k)
{
	for (size_t j = i + k; j < n && s[j] != '\n';) {
		size_t r = run_of(s, n, j, '`');

		if (r == 0) {
			j++;
			continue;
		}
		if (r == k)
			return j + r;
		j += r;
	}
	return 0;
}

/* Whether s[i..n) is '&' starting what may be an entity ("&amp;",
 * "&#60;"), which Markdown would read as the character. */
static bool
md_entity(const char *s, size_t n, size_t i)
{
	return i + 1 < n && (s[i + 1] == '#' || (s[i + 1] >= 'a' && s[i + 1] <= 'z') ||
			     (s[i + 1] >= 'A' && s[i + 1] <= 'Z'));
}

/* One line of text s[0..n) (its newline, if any, last), escaped as mode
 * says. */
static void
md_inline(struct buf *out, const char *s, size_t n, enum md_mode mode)
{
	bool plain = mode != MD_PROSE;
	size_t i = 0;

	while (i < n) {
		char c = s[i];
		size_t k, e;

		if (c == '`') {
			/* A code span: its closing run of as many backticks on
			 * this line; in prose and in a cell none holding a '|',
			 * which a table row would cut at (escaping it there is
			 * read differently by different renderers). Any other
			 * backtick is text. */
			k = run_of(s, n, i, '`');
			e = text_md_span_end(s, n, i, k);
			if (e > 0 && mode != MD_PLAIN && memchr(s + i, '|', e - i) != NULL)
				e = 0;
			if (e == 0) {
				for (size_t j = 0; j < k; j++)
					buf_adds(out, "\\`");
				i += k;
				continue;
			}
			buf_add(out, s + i, e - i);
			i = e;
			continue;
		}
		/* A URL GitHub would link (its autolinks end only at a space
		 * or '<', taking a code span's backticks with them): its
		 * "://" or "www." escaped, it stays text. */
		if ((c == ':' && n - i > 2 && s[i + 1] == '/' && s[i + 2] == '/') ||
		    (c == '.' && i >= 3 && memcmp(s + i - 3, "www", 3) == 0))
			buf_addc(out, '\\'), buf_addc(out, c);
		else if (c == '<')
			buf_adds(out, "&lt;");
		else if (c == '&' && (plain || md_entity(s, n, i)))
			buf_adds(out, "&amp;");
		else if (c == '>' && plain)
			buf_adds(out, "&gt;");
		else if (c == '\n' && mode == MD_CELL)
			buf_addc(out, ' ');
		else if (c == '\\' || c == '[' || c == ']' || (plain && strchr("*_~|", c) != NULL))
			buf_addc(out, '\\'), buf_addc(out, c);
		else
			buf_addc(out, c);
		i++;
	}
}

bool
text_md_as_is(const char *s, size_t n, enum md_mode mode, const struct md_state *st)
{
	static const char special[] = "<>&\\[]`~|*_";
	const char *p;

	if (mode == MD_PROSE && st != NULL && st->fence != 0)
		return false;
	for (size_t i = 0; i < sizeof special - 1; i++)
		if (memchr(s, special[i], n) != NULL)
			return false;
	/* A URL's "://" or "www.", a newline in a cell. */
	for (p = s; (p = memchr(p, ':', n - (size_t)(p - s))) != NULL; p++)
		if (s + n - p > 2 && p[1] == '/' && p[2] == '/')
			return false;
	for (p = s; (p = memchr(p, '.', n - (size_t)(p - s))) != NULL; p++)
		if (p - s >= 3 && memcmp(p - 3, "www", 3) == 0)
			return false;
	return mode != MD_CELL || memchr(s, '\n', n) == NULL;
}

void
text_md_escape(struct buf *out, const char *s, size_t n, enum md_mode mode, struct md_state *st)
{
	size_t i = 0;

	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t e = nl != NULL ? (size_t)(nl - s) + 1 : n;

		if (mode != MD_PROSE || text_md_line(st, s + i, e - i) == MDL_TEXT)
			md_inline(out, s + i, e - i, mode);
		else
			buf_add(out, s + i, e - i);
		i = e;
	}
}

void
text_html_escape(struct buf *out, const char *s, size_t n)
{
	static const char *const entity[256] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;",
	};
	size_t from = 0;

	for (size_t i = 0; i < n; i++) {
		const char *e = entity[(unsigned char)s[i]];

		if (e == NULL)
			continue;
		buf_add(out, s + from, i - from);
		buf_adds(out, e);
		from = i + 1;
	}
	buf_add(out, s + from, n - from);
}

void
text_path_relative(struct buf *out, const char *path, size_t n, const char *dir, size_t dn)
{
	while (dn > 1 && dir[dn - 1] == '/')
		dn--;
	if (dn > 0 && n >= dn && memcmp(path, dir, dn) == 0 &&
	    (n == dn || path[dn] == '/' || (dn == 1 && dir[0] == '/'))) {
		size_t skip = dn == 1 ? 1 : dn + 1;

		if (n <= skip) {
			buf_addc(out, '.');
			return;
		}
		path += skip;
		n -= skip;
	}
	buf_add(out, path, n);
}

void
text_path_fit(struct buf *out, const char *path, size_t n, size_t cells)
{
	size_t from = n, w;

	if (text_width(path, n) <= cells) {
		buf_add(out, path, n);
		return;
	}
	/* The longest tail from a '/' that fits after the ellipsis. */
	for (size_t i = n; i-- > 1;) {
		if (path[i] != '/')
			continue;
		w = text_width(path + i, n - i);
		if (w + 1 > cells)
			break;
		from = i;
	}
	buf_adds(out, GLYPH_ELLIPSIS);
	if (from < n) {
		buf_add(out, path + from, n - from);
		return;
	}
	/* Not even the last part: its start, cut at its end. */
	from = n;
	while (from > 0 && path[from - 1] != '/')
		from--;
	out->n -= strlen(GLYPH_ELLIPSIS);
	w = text_fit(path + from, n - from, cells > 1 ? cells - 1 : 0, NULL);
	/* A secret in a file's name is not cut either (redact_cut). */
	w = redact_cut(path + from, n - from, w);
	buf_add(out, path + from, w);
	buf_adds(out, GLYPH_ELLIPSIS);
}
