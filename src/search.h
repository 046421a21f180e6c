/* search.h: finding a pattern in the transcript, without curses. The text
 * searched is what the transcript shows, before it is escaped for the
 * terminal: prompts, assistant text, thinking (folded or not, with its
 * "thinking · 1.2 s" line), each tool call's line ("✗ Shell `npm test` →
 * exit 1"), notices, diagnostics, session headers and results; and what
 * each call's detail shows (detail.h: its command, output, diff, error,
 * ..., not the detail's own labels and headings). An item's matches are
 * counted in that order: first those of what the transcript shows
 * (`shown`), then those of its call's detail, line by line.
 *
 * A call's detail is decoded only when its events' raw bytes may hold the
 * pattern (search_raw_maybe), every time it is searched: outputs are too
 * big to keep. The words a detail adds of its own (a unit, "(no
 * output)", a diff's hunk lines made from the old and new text) are not
 * in the raw bytes: a pattern only they hold may not be found there.
 *
 * Smartcase: a pattern with no capital letter matches whatever the case
 * (code points compared after towlower, so Latin, Greek and Cyrillic
 * letters fold; one code point to one: "ß" does not match "SS", nor "σ"
 * a final "ς").
 * A pattern matches decoded text: "é" finds "\u00e9" in the JSON, and a
 * pattern cannot match an escape sequence as written ("\n" finds a
 * backslash followed by n, never a newline). Matches do not overlap.
 *
 * Speed: a single-event prompt or text segment is first looked for in the
 * raw bytes of its line (the needle: the longest run of the pattern that
 * stands in JSON as it is), and decoded only when the line may hold it.
 * Every other item (streamed text, thinking, tool lines, notices) is
 * decoded once and kept in a text cache of bounded size, so that typing a
 * pattern and searching again only scans decoded text (a screen fills the
 * cache ahead, once the input is read). The work is done in steps of
 * bounded size, so that a screen stays responsive; a step with much to
 * decode shares it with a second thread, which reads the model while the
 * step runs and does nothing between steps. A match may span the
 * streamed deltas of one item, never two items. */
#ifndef AGENTVIEW_SEARCH_H
#define AGENTVIEW_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "detail.h"
#include "model.h"
#include "tool.h"
#include "util.h"

/* Decoding in one step of a search from which a second thread shares it. */
#define SEARCH_HELPER_MIN (256u << 10)

/* Longest pattern, in bytes. */
#define SEARCH_MAX_PATTERN 256
/* The text cache and its index hold at most this many bytes. */
#define SEARCH_CACHE_BYTES (16u << 20)

/* An item with matches, and the matches found before it. */
struct search_hit {
	uint32_t item;
	uint32_t count;  /* matches in the item */
	uint64_t before; /* matches in the items before it */
	uint32_t shown;  /* of count, those in what the transcript shows; the
			    rest are in its call's detail */
};

/* An item of a step to decode: whether its text is cached already, and
 * what was decoded of it (into the decoding thread's buffer). */
struct search_plan {
	uint32_t item;
	bool cached; /* its text is in the cache: only the detail, if any */
	bool line;   /* its text was decoded, at [off, off + len) */
	bool helper; /* in the helper's buffer, else the searching thread's */
	size_t off, len;
	size_t dlen; /* what its call's detail shows, after the text */
};

struct search {
	struct model *m; /* not owned */
	unsigned hide;   /* item types left out: 1 << IT_... */
	/* The pattern. */
	struct buf pat; /* as typed, UTF-8 */
	uint32_t *pcp;  /* its code points, folded when icase */
	size_t npcp;
	bool icase;
	uint32_t gen; /* changes with the pattern, and when searched again */
	/* What may stand for it in a raw JSON line. */
	struct buf needle; /* bytes; ASCII letters lower-case when icase */
	uint32_t *ncp;     /* the needle's code points (folded) */
	size_t nncp;
	struct buf trig; /* NUL-terminated UTF-8 strings that fold to a
				   letter of the needle (U+0130 for "i") */
	/* What was found: items [0, next) are searched. */
	struct search_hit *hit;
	size_t nhit, hcap;
	/* When not NULL, the items searched: those whose bit is set (a filter
	 * of the items shown; items past its nonly bits are left out). */
	const uint64_t *only;
	size_t nonly;
	uint64_t total;
	uint32_t next;
	/* What may still change: items from here on (open calls, text and
	 * thinking still streaming), and the model as last seen. */
	uint32_t volatile_from;
	size_t seen_nev, seen_nses;
	bool seen_ended;
	uint32_t seen_limit; /* the replay's cut-off searched up to */
	/* The text cache: item i's text is at ctext + coff[i] (a 32-bit
	 * length, then the bytes) when cstamp[i] is its current stamp. */
	struct buf ctext;
	uint32_t *coff, *cstamp;
	size_t ncache, ccap; /* entries of coff and cstamp */
	uint32_t warm;       /* items before it were offered to the cache */
	bool cfull;          /* the budget is spent: no more texts */
	/* A second thread that decodes items while this one searches: it
	 * starts when a step has at least helper_min bytes to decode
	 * (SIZE_MAX: never). */
	struct search_helper *helper;
	size_t helper_min;
	struct search_plan *plan; /* items of the step to decode */
	size_t nplan, pcap;
	/* Scratch. */
	struct buf text;
	struct tool_desc td;
	struct detail det; /* a call's, built plain */
};

void search_init(struct search *s, struct model *m);
void search_free(struct search *s);
/* Search for pat[0..n) (cut at SEARCH_MAX_PATTERN bytes) in the items
 * whose types are not in hide; an empty pattern stops searching. The text
 * cache is kept. */
void search_set(struct search *s, const char *pat, size_t n, unsigned hide);
/* The model was cleared: forget the cache and start again. */
void search_restart(struct search *s);
/* Search on for about budget bytes of text, and again through what
 * changed in the model since. True while items remain to be searched. */
bool search_step(struct search *s, size_t budget);
/* Fill the text cache ahead of any search (while the viewer is idle),
 * for about budget bytes; true while items remain. */
bool search_warm(struct search *s, size_t budget);
/* A pattern is set. */
bool search_active(const struct search *s);
/* Every item there is has been searched. */
bool search_done(const struct search *s);

/* Matches of the pattern in t[0..n). */
uint32_t search_count(const struct search *s, const char *t, size_t n);
/* The first match in t[0..n) that starts at or after byte from: its bytes
 * [*a, *b). */
bool search_find(const struct search *s, const char *t, size_t n, size_t from, size_t *a,
		 size_t *b);
/* Whether raw JSON line p[0..n) may hold the pattern once decoded (false
 * only when it cannot). */
bool search_raw_maybe(const struct search *s, const char *p, size_t n);

/* The first hit whose item is at or after it (nhit when none). */
size_t search_hit_from(const struct search *s, uint32_t it);

/* Search only the items whose bit is set in only[] (n items at most), or
 * every one (only NULL): the search starts again. */
void search_only(struct search *s, const uint64_t *only, size_t n);

/* In a call's detail as built for the screen: its matches, line by line
 * (a line its rows were wrapped from is searched whole); match j of them,
 * the row it starts on and its bytes [*a, *b) of d->text (false when there
 * are fewer); the first match that starts at or after byte `from` of
 * row `row`'s line, or (back) the last that starts before it, as j. */
uint64_t search_detail_count(const struct search *s, const struct detail *d);
bool search_detail_match(const struct search *s, const struct detail *d, uint64_t j, size_t *row,
			 size_t *a, size_t *b);
bool search_detail_from(const struct search *s, const struct detail *d, size_t row, bool back,
			uint64_t *j);

#endif
