/* markdown.h: a reply's Markdown, parsed once by md4c into a small
 * structure without curses that both the screen and the HTML page walk:
 * blocks in document order (containers before what they hold), each leaf
 * holding runs of text with style bits. Every byte of it went through
 * text_sanitize (and the redactor in use) before md4c saw it. Then, from
 * that structure, the lines of a screen at a width (markdown_layout) and
 * the elements of an HTML page (markdown_html). */
#ifndef AGENTVIEW_MARKDOWN_H
#define AGENTVIEW_MARKDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "text.h"
#include "util.h"

/* What is kept of a text, at most. Past MARKDOWN_MAX_BYTES of sanitized
 * text (cut at a line's end) the rest is one plain paragraph: md4c 0.4.8
 * has inputs quadratic in a paragraph's length, and this bounds what the
 * ones markdown.c cannot foresee cost. Containers nested deeper than
 * MARKDOWN_MAX_DEPTH are not kept (what they hold is, one level up); a
 * text of more blocks, runs or table columns than these is shown plain. */
#define MARKDOWN_MAX_BYTES (128u << 10)
#define MARKDOWN_MAX_DEPTH 16
#define MARKDOWN_MAX_BLOCKS 16384
#define MARKDOWN_MAX_RUNS 65536
#define MARKDOWN_MAX_COLUMNS 64

#define MARKDOWN_NONE UINT32_MAX

enum markdown_type {
	/* Leaves: they hold runs. */
	MK_PARA,    /* a paragraph; text where '\n' is a line break */
	MK_HEADING, /* level 1 to 6 */
	MK_CODE,    /* a code block (fenced or indented): its lines in runs */
	MK_RULE,    /* a thematic break: no runs */
	MK_ROW,     /* a table's row: each run says its cell's column */
	/* Containers: the blocks after one, deeper by one, are in it. */
	MK_QUOTE,
	MK_LIST,
	MK_ITEM,
	/* Laid out lines only: the blank line between two blocks. */
	MK_BLANK,
};

/* A block's flags. */
enum {
	MK_ORDERED = 1 << 0, /* a list numbered from `number` */
	MK_TIGHT = 1 << 1,   /* a list without blank lines between its items */
	MK_TASK = 1 << 2,    /* an item with a task-list box */
	MK_DONE = 1 << 3,    /* the box is checked */
	MK_HEAD = 1 << 4,    /* a row of the table's head */
	MK_BARE = 1 << 5,    /* a tight item's text: a paragraph without <p> */
};

/* Style bits of a run, and of a laid out segment. */
enum {
	MS_STRONG = 1 << 0,
	MS_EM = 1 << 1,
	MS_CODE = 1 << 2, /* a code span */
	MS_STRIKE = 1 << 3,
	MS_LINK = 1 << 4,  /* a link's text; the run's `link` says where to */
	MS_IMAGE = 1 << 5, /* an image's alt text (an image is never fetched) */
	MS_URL = 1 << 6,   /* a link's or an image's target, shown after it */
	/* Segments only. */
	MS_HEADING = 1 << 7, /* a heading's text, a table head's cell */
	MS_BLOCK = 1 << 8,   /* a line of a code block */
	MS_MARK = 1 << 9,    /* list markers, quote bars, table and thematic rules */
	MS_LANG = 1 << 10,   /* a code block's language, on the line above it */
	MS_CUT = 1 << 11,    /* the mark where a code line too wide was cut */
};

struct markdown_block {
	uint8_t type;    /* enum markdown_type */
	uint8_t depth;   /* the containers it is in: 0 at the top */
	uint8_t level;   /* MK_HEADING: 1 to 6 */
	uint8_t flags;   /* MK_ORDERED, ... */
	uint32_t parent; /* the container it is in, or MARKDOWN_NONE */
	uint32_t number; /* an ordered list's first number, an item's */
	uint32_t run;    /* a leaf's runs: run[run .. run + nrun) */
	uint32_t nrun;
	uint32_t lang;  /* MK_CODE: its language (the info string's first */
	uint32_t nlang; /* word), text[lang .. lang + nlang) */
};

struct markdown_run {
	uint32_t off; /* its text: text[off .. off + len) */
	uint32_t len;
	uint32_t link;  /* MS_LINK: the target, url[link]; else MARKDOWN_NONE */
	uint16_t style; /* MS_* */
	uint16_t cell;  /* in a MK_ROW: its cell's column, from 0 */
};

/* Bytes [off, off + len) of a markdown's text. */
struct markdown_span {
	uint32_t off;
	uint32_t len;
};

/* A parsed text; owns its arrays (text.p and run are never NULL after a
 * parse). Zero it before the first parse. */
struct markdown {
	struct buf text; /* sanitized: runs, targets and languages */
	struct markdown_block *block;
	size_t nblock, blockcap;
	struct markdown_run *run;
	size_t nrun, runcap;
	struct markdown_span *url; /* the links' and images' targets */
	size_t nurl, urlcap;
	bool plain; /* not Markdown: md4c failed or it was too much */
};

/* Parse s[0..n) (UTF-8, any bytes) into md, which is emptied first. The
 * text is sanitized (text_sanitize, with the redactor in use) before md4c
 * reads it. Nothing is ever lost: when md4c fails, passes a limit above,
 * or would take too long over the text's links, the text comes back as
 * one plain paragraph (md->plain, its '\n's line breaks); past
 * MARKDOWN_MAX_BYTES, the rest of it does, after what md4c read. */
void markdown_parse(struct markdown *md, const char *s, size_t n);
void markdown_free(struct markdown *md);
/* The bytes md's arrays hold (what a cache of parsed texts counts). */
size_t markdown_bytes(const struct markdown *md);

/* One laid out segment: text[off .. off + len) of the layout, width cells. */
struct markdown_seg {
	uint32_t off;
	uint32_t len;
	uint32_t width;
	uint16_t style; /* MS_* */
};

struct markdown_line {
	uint32_t seg; /* its segments: seg[seg .. seg + nseg) */
	uint32_t nseg;
	uint32_t width; /* cells, never more than the layout's width */
	uint8_t type;   /* the block it shows (enum markdown_type) */
	uint8_t level;  /* MK_HEADING: its level */
};

/* Where a laid out style starts: scratch of markdown_layout. */
struct markdown_mark {
	uint32_t end; /* the style holds up to here */
	uint16_t style;
};

/* Lines laid out at a width; owns its arrays, kept between calls so that
 * laying out again allocates nothing. Zero it before the first use. */
struct markdown_layout {
	struct buf text;
	struct markdown_seg *seg;
	size_t nseg, segcap;
	struct markdown_line *line;
	size_t nline, linecap;
	/* scratch */
	struct buf flat;
	struct markdown_mark *mark;
	size_t nmark, markcap;
	struct text_rows rows;
};

/* Lay md out in lines of at most width cells (width 0 counts as 1), the
 * layout emptied first. Paragraphs and headings are word-wrapped, each
 * line of a list item or a block quote after its marker or bar, the
 * lines that follow under them. A link reads "text (url)", the url
 * MS_URL, unless the text is the url. A code block keeps its lines: one
 * wider than the room is cut, its last cell the MS_CUT mark ("…"; the
 * raw text is a key away on the screen). A table is a grid when its
 * columns fit, its cells wrapped within them, else one "head: cell" line
 * per cell. A blank line between blocks, none in a tight list. Linear in
 * the text and the lines. */
void markdown_layout(const struct markdown *md, size_t width, struct markdown_layout *lay);
void markdown_layout_free(struct markdown_layout *lay);

/* Append md as HTML elements to out (for a container the caller gives):
 * every text and target through text_html_escape. A heading of level L is
 * <hN>, N = L + top - 1 (at most 6). A link is an <a href> only to
 * http:, https: or mailto: (rel="noopener noreferrer nofollow"); any
 * other reads as its text then its target. There is never an <img>: an
 * image is its alt text and its target, a link when it may be one.
 * Elements: p, h1-h6, ul, ol (start), li (class "task": a span "check"
 * first), blockquote, pre class "code" (after a div "lang"), hr, table,
 * thead, tbody, tr, th, td, strong, em, code, del, a, br, span "image",
 * span "url". */
void markdown_html(const struct markdown *md, int top, struct buf *out);

#endif
