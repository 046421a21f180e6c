/* text.h: UTF-8 decoding, cell widths, escaping of control characters and
 * word wrapping. No curses: the screen and the plain printers share it. */
#ifndef AGENTVIEW_TEXT_H
#define AGENTVIEW_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define TEXT_TABSTOP 8

/* Decode one code point from s[0..n), n >= 1. An invalid, overlong or
 * truncated sequence, a surrogate or a value above U+10FFFF gives U+FFFD and
 * consumes the maximal invalid subpart (at least one byte), as Unicode
 * recommends. Returns the number of bytes consumed. */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);

/* Cells a printable code point takes: 0 (combining), 1 or 2 (CJK, emoji).
 * -1 for code points that text_sanitize escapes. Widths are wcwidth's under
 * the current LC_CTYPE, which must be a UTF-8 one for anything beyond ASCII
 * to print. */
int text_cpwidth(uint32_t cp);

enum {
	TEXT_ONELINE = 1,  /* a newline is shown as "↵" instead of kept */
	TEXT_REDACTED = 2, /* secrets are out already: not redacted again */
	TEXT_TABS = 4,     /* a tab is kept as it is (the clipboard, a pager's file) */
};

/* Append to out a copy of s[0..n) that is safe to put on a terminal: valid
 * UTF-8 in which every code point prints. C0 controls and DEL are shown in
 * caret notation (ESC as "^[", BEL as "^G", NUL as "^@", DEL as "^?"); C1
 * controls, bidirectional overrides and other code points of negative width
 * as "\u009B" ("\U" and 8 hex digits above U+FFFF, as "\U0001FFFE");
 * invalid bytes as U+FFFD; tabs expanded with spaces to the next multiple
 * of TEXT_TABSTOP cells of the output line (kept as tabs with TEXT_TABS);
 * CRLF as LF and a lone CR as "^M". LF is kept, or shown as "↵" with
 * TEXT_ONELINE (tab stops then keep counting along the single line). */
void text_sanitize(struct buf *out, const char *s, size_t n, int flags);
/* While a redactor is in use (redact_use), text_sanitize first replaces
 * every secret of s (redact_text), unless flags hold TEXT_REDACTED. */

/* Width in cells of sanitized text s[0..n) that holds no newline (a code
 * point text_sanitize would escape counts 0). */
size_t text_width(const char *s, size_t n);

/* The longest prefix of sanitized s[0..n) that fits in width cells, ending
 * on a code point boundary; returns its length in bytes, and its width in
 * *used when used is not NULL. A wide character that does not fit whole is
 * left out; zero-width ones after the last that fits are kept with it. */
size_t text_fit(const char *s, size_t n, size_t width, size_t *used);

/* One row of wrapped text: bytes [off, off + len) of the sanitized string. */
struct text_row {
	uint32_t off;
	uint32_t len;
	uint32_t width; /* cells */
};

/* A growable array of rows; owns `v`. */
struct text_rows {
	struct text_row *v;
	size_t n;
	size_t cap;
};

/* Wrap sanitized s[0..n) into rows of at most width cells (width >= 1),
 * appending them to rows. A newline ends a row and is in none; a final
 * newline adds no empty row ("a\n" is one row, "a\n\nb" three). A row too
 * long breaks after the last space that fits, or, in a word longer than the
 * row, at a code point boundary. A row keeps the spaces of its break that
 * fit (counted in its width); the ones past the edge are dropped, and are
 * not carried to the next row. A wide character never straddles the edge;
 * at width 1 it gets a row of width 2 to itself, for the caller to clip.
 * Zero-width characters stay with the one before them. Empty text gives one
 * empty row. O(n); n must fit the 32-bit offsets (larger dies). Returns
 * the number of rows appended. */
size_t text_wrap(struct text_rows *rows, const char *s, size_t n, size_t width);

void text_rows_free(struct text_rows *rows);

/* Where Markdown text stands between calls of text_md_escape. */
struct md_state {
	bool fence; /* inside a fenced code block */
	bool mid;   /* not at the start of a line */
};

/* Append s[0..n) for a Markdown document, markup of the reader's kept
 * from acting: '<' as "&lt;" (with all: '>' and '&' too), except inside
 * code spans and fenced code blocks, which Markdown shows as they are. A
 * code span is one whose closing backticks are in s; a fence goes on
 * across calls (st, zeroed at first). */
void text_md_escape(struct buf *out, const char *s, size_t n, bool all, struct md_state *st);

/* Markdown as text_md_escape reads it: whether the line at s[i..n) opens
 * or closes a fenced code block (up to three spaces, then three or more
 * backticks or tildes), and the end of the code span whose opening run
 * of k backticks is at i (just past a closing run of exactly k, or 0 when
 * s[0..n) has none). */
bool text_md_fence(const char *s, size_t n, size_t i);
size_t text_md_span_end(const char *s, size_t n, size_t i, size_t k);

/* Append s[0..n) for an HTML page, as text or as an attribute's value:
 * '&', '<', '>', '"' and '\'' as entities, every other byte as it is. It
 * escapes markup only: event text goes through text_sanitize first. */
void text_html_escape(struct buf *out, const char *s, size_t n);

/* Append path relative to dir when it is under it ("src/a.c" for
 * "/p/src/a.c" in "/p"; "." for dir itself), else as it is. */
void text_path_relative(struct buf *out, const char *path, size_t n, const char *dir, size_t dn);
/* Append path, cut in the middle to fit in cells when it is wider: the
 * last parts kept whole after "…/" ("…/src/duration.js"); a last part
 * that alone does not fit is cut at its end. */
void text_path_fit(struct buf *out, const char *path, size_t n, size_t cells);

/* Lines of s[0..n): a last line without its newline counts. */
int64_t text_lines(const char *s, size_t n);

/* Append s for a man page: roff's backslash and minus escaped. */
void text_roff(struct buf *out, const char *s);

#endif
