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

/* What text is, for text_md_escape. */
enum md_mode {
	/* Markdown itself (a reply, thinking, a plan): its emphasis, lists,
	 * tables, fenced blocks and code spans kept; raw HTML, links, images
	 * and entities made text. */
	MD_PROSE,
	/* Words on one line (a header, a prompt's line, a call's line): shown
	 * as they are, every character Markdown reads escaped, but the code
	 * spans, which show their text as it is. */
	MD_PLAIN,
	/* A table's cell: MD_PLAIN, and no code span holds a '|'. */
	MD_CELL,
};

/* Where Markdown prose stands between calls: the fenced code block open,
 * if any. Zeroed at first. */
struct md_state {
	char fence;    /* '`' or '~' of the open block's fence, or 0 */
	size_t flen;   /* its length */
	size_t indent; /* the spaces before it */
};

/* Append sanitized s[0..n) to a Markdown document so that it reads as it
 * is: nothing of it becomes a tag, an image, a link or an entity, whatever
 * a renderer makes of the document (CommonMark and GitHub's extensions).
 * '<' as "&lt;", '&' as "&amp;" (in prose only before what may be an
 * entity), '\\', '[' and ']' with a backslash (every backslash is text:
 * none can undo an escape); as MD_PLAIN and MD_CELL also '>' as "&gt;"
 * and '*', '_', '~', '|' with a backslash; a URL's "://" and "www." with a
 * backslash too (GitHub links a bare URL up to the next space, across a
 * code span's backticks). A code span is kept as it is when its
 * closing backticks are on the same line (in prose and cells, with no '|'
 * between, which a table row would cut at); a backtick that closes none is
 * escaped, so that it cannot pair with one in the next piece. Prose is
 * whole lines (a caller holds a line until its end); a fenced block's
 * lines are kept as they are, the block going on across calls in st (a
 * fence less sure than CommonMark's rules is taken as text: its lines
 * escaped). st is used by MD_PROSE only (NULL otherwise). */
void text_md_escape(struct buf *out, const char *s, size_t n, enum md_mode mode,
		    struct md_state *st);

/* Whether text_md_escape would append s[0..n) as it is (most text: no copy
 * of a long one then). */
bool text_md_as_is(const char *s, size_t n, enum md_mode mode, const struct md_state *st);

/* A line of prose s[0..n) (its newline last, if any) as CommonMark's fenced
 * blocks read it, st updated: text, a fence that opens a block, a line in
 * the block, the fence that closes it. A line less indented than the
 * block's fence ends the block first (it would end the list item the block
 * may be in). */
enum md_line { MDL_TEXT, MDL_OPEN, MDL_CODE, MDL_CLOSE };
enum md_line text_md_line(struct md_state *st, const char *s, size_t n);

/* Append the fence that closes the block st holds open, if any, on a line
 * of its own; st then holds none. A block the stream left open ends
 * there, before the document's own lines. */
void text_md_close(struct buf *out, struct md_state *st);

/* The end of the code span whose opening run of k backticks is at s[i]:
 * just past the next run of exactly k on the same line, or 0 when there
 * is none. */
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
