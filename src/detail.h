/* detail.h: the detail of one tool call as rows of text, without curses:
 * its arguments and result in full, laid out per kind (a shell's command,
 * exit code, stdout and stderr; a read's lines numbered; an edit's diff;
 * grep matches by file; MCP arguments and content; a subagent's prompt and
 * steps; todos; anything else as indented JSON), or the raw JSON of both
 * events. Every byte shown is sanitized: event text cannot reach the
 * terminal as it is. Built once per call, width and state, and bounded. */
#ifndef AGENTVIEW_DETAIL_H
#define AGENTVIEW_DETAIL_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "text.h"
#include "tool.h"
#include "util.h"

/* A detail holds at most this many bytes of text (or its own `max`); the
 * rest is cut, and its last row says how much more there was. */
#define DETAIL_MAX_BYTES (16u << 20)

/* One screen row: bytes [off, off + len) of the detail's text, after
 * `indent` blank cells. Its first `lead` bytes (a line number, a label)
 * are shown dim, the rest in `role`. The rows a line was wrapped into
 * follow each other in the text, with the spaces a break dropped between
 * them, so that the line reads whole (detail_line). */
struct drow {
	uint32_t off;
	uint32_t len;
	uint16_t width; /* cells, indent not included */
	uint16_t lead;
	uint8_t role; /* enum role */
	uint8_t indent;
	uint8_t flags; /* DROW_* */
};

enum {
	DROW_CONT = 1,  /* goes on with the line of the row before */
	DROW_QUIET = 2, /* the detail's own words (the lines every call has,
			   a heading, the cut): not searched */
	DROW_LABEL = 4, /* its lead is a field's label ("exit code") */
};

/* A part of the detail that is taken whole (copied, opened): its rows
 * [row, end) and its text as the stream has it, not sanitized: bytes
 * [off, off + len) of the detail's buffer `taken`. */
struct dsection {
	const char *name; /* "command", "stdout", "diff", ... */
	uint32_t row, end;
	uint32_t off, len;
	/* Rows of a file's lines: each line's first row starts with its
	 * number (a read's content, grep's matches). */
	bool numbered;
	/* The file they are lines of, in `taken` (grep's matches);
	 * len 0: the call's own. */
	uint32_t file_off, file_len;
};

struct detail {
	struct model *m; /* not owned */
	uint32_t call;   /* NONE before the first build */
	int width;
	bool raw;
	int64_t stamp;   /* what the call looked like when built */
	bool redacted;   /* built while secrets were hidden */
	size_t max;      /* bytes of text it holds at most: DETAIL_MAX_BYTES
			       unless set otherwise after detail_init */
	bool plain;      /* set after detail_init: build only what a search
			    looks in (see detail_build) */
	unsigned quiet;  /* rows made now are DROW_QUIET */
	bool field;      /* rows made now are a field's */
	bool cut;        /* max was reached */
	uint64_t more;   /* bytes of text not shown once it was (as
			       decoded, before sanitizing) */
	struct buf text; /* sanitized text of every row */
	struct drow *row;
	size_t nrow, cap;
	struct buf taken;     /* the sections' text, raw */
	struct dsection *sec; /* in the order of their rows */
	size_t nsec, seccap;
	/* Scratch. */
	struct json *sj, *dj; /* the started and completed events */
	struct json *xj;      /* JSON inside a string (an MCP schema) */
	struct buf a, b, tmp;
	struct text_rows wrap;
	struct tool_desc td;
};

void detail_init(struct detail *d, struct model *m);
void detail_free(struct detail *d);
/* Build the rows of call c at width cells; raw: both events as indented
 * JSON instead. With d->plain, what a search looks in, and nothing else:
 * no sections, one quiet row for the header; in d->text each searched line (what is not
 * DROW_QUIET, without its lead) as the stream has it, decoded but neither
 * sanitized nor wrapped, '\n' after each; d->td describes the call. It
 * uses no cell widths: a second thread may build it. */
void detail_build(struct detail *d, uint32_t c, int width, bool raw);

/* The searched line that row `row` is part of: its rows [*first, *end),
 * and its text, bytes [*a, *b) of d->text (the first row's lead left
 * out); false when the row is not searched. */
bool detail_line(const struct detail *d, size_t row, size_t *first, size_t *end, size_t *a,
		 size_t *b);
/* The name of the part row `row` is in, for people ("stderr", "error"):
 * its section's, or its field's label; NULL for neither. */
const char *detail_part(const struct detail *d, size_t row, struct buf *scratch);

/* The section row `row` is in, or NULL (the lines every call has). */
const struct dsection *detail_section_at(const struct detail *d, size_t row);
/* The line number of the file line that row `row` shows, in a numbered
 * section; 0 when it shows none. */
int64_t detail_row_line(const struct detail *d, size_t row);

/* The call changed since it was built (it completed, or its running
 * clock moved), or the width is another: build again. */
bool detail_stale(const struct detail *d, int width);

#endif
