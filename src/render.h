/* render.h: what the screen shows, computed without curses: transcript
 * items as rows of sanitized text wrapped at a width (cached within a byte
 * budget), and timeline rows made of segments that carry a role (as the
 * status bar of status.h is). The panes only copy these to the terminal. */
#ifndef AGENTVIEW_RENDER_H
#define AGENTVIEW_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "text.h"
#include "theme.h"
#include "tool.h"
#include "util.h"

/* The render cache holds at most this many bytes of blocks. */
#define RENDER_CACHE_BYTES (16u << 20)

/* A line made of segments with roles (status bar, timeline rows, the
 * rows of a reply's Markdown). */
struct seg {
	uint32_t off, len;
	uint8_t role;
};

/* One screen row of a block: bytes [off, off + len) of its text, in its
 * role; or, when nseg > 0, in the roles of its segments seg[seg .. seg +
 * nseg) of the block, which cover those bytes in order. */
struct rrow {
	uint32_t off;
	uint32_t len;
	uint32_t seg;
	uint16_t width; /* cells, indent not included */
	uint16_t nseg;
	uint8_t role;   /* enum role */
	uint8_t indent; /* cells before the text */
};

struct markdown;
struct markdown_layout;

/* The rows of one transcript item at one width. */
struct block {
	uint32_t item;    /* NONE: an empty slot */
	uint32_t prev;    /* the item before it in the order read */
	uint32_t last_ev; /* the item's last event when rendered */
	int64_t stamp;    /* call state and second, for calls that tick */
	uint32_t gen;     /* render generation it belongs to */
	int width;
	bool thinking;
	bool markdown;
	struct buf text; /* sanitized text of all rows */
	struct rrow *row;
	size_t nrow, cap;
	struct seg *seg; /* the segments of its rows */
	size_t nseg, segcap;
	/* A reply's or plan's Markdown, parsed once for the text it had
	 * (its item's last event and stamp): laying it out at another width,
	 * or again after M, parses nothing. */
	struct markdown *md;
	uint32_t md_last;
	int64_t md_stamp;
	size_t bytes; /* what it holds, as counted in the cache's budget */
};

struct rline {
	struct buf text;
	struct seg *seg;
	size_t nseg, cap;
	size_t width; /* cells used */
};

/* A described call, kept while the call does not change. */
struct desc_slot {
	uint32_t call; /* NONE: empty */
	uint32_t done_ev;
	uint32_t progress_ev; /* its latest progress shown */
	uint32_t gen;
	uint8_t state; /* enum call_state */
	struct tool_desc d;
};

struct render {
	struct model *m;
	int width;       /* width of transcript rows */
	bool thinking;   /* thinking phases unfolded */
	bool markdown;   /* replies and plans laid out from their Markdown
			    (else as the agent wrote them) */
	uint64_t parsed; /* Markdown texts parsed, for tests and the bench */
	uint32_t unfold; /* an item shown unfolded all the same (a search's
			    match in it), or NONE */
	unsigned hide;   /* item types not shown: 1 << IT_... (0 rows) */
	/* When not NULL, the items shown (the others get 0 rows): those whose
	 * bit is set, of the first nonly (a filter: see search_only). */
	const uint64_t *only;
	size_t nonly;
	uint32_t gen;       /* bumped to drop every cached block */
	struct block *slot; /* a direct-mapped cache by item index */
	size_t nslot;
	size_t bytes;           /* bytes held by cached blocks */
	struct buf raw;         /* scratch: decoded text */
	struct buf tmp;         /* scratch: a line being composed */
	struct text_rows wrap;  /* scratch: wrapped rows */
	struct desc_slot *desc; /* a direct-mapped cache by call index */
	size_t ndesc;
	struct markdown_layout *lay; /* scratch: Markdown laid out */
};

void render_init(struct render *r, struct model *m);
void render_free(struct render *r);
/* Forget every block (the model was cleared, or the options changed). */
void render_flush(struct render *r);
void render_set_width(struct render *r, int width);
void render_set_thinking(struct render *r, bool unfolded);
/* Lay replies and plans out from their Markdown (the default), or show
 * them as the agent wrote them. */
void render_set_markdown(struct render *r, bool rendered);
/* Hide the item types in mask (1 << IT_...): they get 0 rows. */
void render_set_hidden(struct render *r, unsigned mask);
/* Show item it unfolded, whether thinking is folded or not (NONE: none). */
void render_set_unfold(struct render *r, uint32_t it);
/* Show only the items whose bit is set in only[], of the first n (NULL:
 * every item). */
void render_set_only(struct render *r, const uint64_t *only, size_t n);
/* Whether item it is shown: its type not hidden, and picked. */
bool render_shown(const struct render *r, uint32_t it);

/* The rows of transcript item it (at least one, none when its type is
 * hidden). Valid until the next render_item call. */
const struct block *render_item(struct render *r, uint32_t it);
/* Number of rows of item it. */
uint32_t render_rows(struct render *r, uint32_t it);

void rline_reset(struct rline *l);
void rline_free(struct rline *l);
/* Append s[0..n) (sanitized as one line) in role; stops at max cells. */
void rline_add(struct rline *l, const char *s, size_t n, enum role role, size_t max);
void rline_adds(struct rline *l, const char *s, enum role role, size_t max);
/* Pad with spaces in role up to width cells. */
void rline_pad(struct rline *l, size_t width, enum role role);

/* One timeline row for call c at width cells. */
void render_timeline_row(struct render *r, uint32_t c, int width, struct rline *out);

/* What call c did and how it ended, described once per change of the
 * call (parsing both its events is too slow to do for every frame).
 * Valid until the next render_describe call. */
const struct tool_desc *render_describe(struct render *r, uint32_t c);

#endif
