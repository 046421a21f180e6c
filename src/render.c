/* render.c: transcript blocks and timeline rows as text. */
#include "render.h"

#include <stdlib.h>
#include <string.h>

#include "glyph.h"
#include "markdown.h"
#include "words.h"

#define ARROW GLYPH_PROMPT
#define FOLDED GLYPH_FOLDED
#define UNFOLDED GLYPH_UNFOLDED
#define RULE GLYPH_RULE
#define DOT " " GLYPH_DOT " "
#define ELLIPSIS GLYPH_ELLIPSIS
#define SLOTS 1024
#define DESC_SLOTS 256
/* A reply longer than this is shown as written: its parse and its layout
 * would hold it four more times over (a reply of 100 MB took 736 MB, as
 * written 450 MB), and md4c reads only MARKDOWN_MAX_BYTES of it. */
#define MARKDOWN_TEXT_MAX (16u << 20)
/* The layout's scratch is kept between blocks while no bigger than this. */
#define LAYOUT_KEEP (1u << 20)

void
render_init(struct render *r, struct model *m)
{
	memset(r, 0, sizeof *r);
	r->m = m;
	r->width = 80;
	r->unfold = NONE;
	r->markdown = true;
	r->lay = xcalloc(1, sizeof *r->lay);
	r->nslot = SLOTS;
	r->slot = xcalloc(r->nslot, sizeof *r->slot);
	for (size_t i = 0; i < r->nslot; i++)
		r->slot[i].item = NONE;
	r->ndesc = DESC_SLOTS;
	r->desc = xcalloc(r->ndesc, sizeof *r->desc);
	for (size_t i = 0; i < r->ndesc; i++)
		r->desc[i].call = NONE;
}

/* Empty a block; its parsed Markdown goes too, unless keep_md (its item
 * is built again, perhaps at another width). */
static void
block_clear(struct render *r, struct block *b, bool keep_md)
{
	r->bytes -= b->bytes;
	b->bytes = 0;
	buf_free(&b->text);
	free(b->row);
	b->row = NULL;
	b->nrow = b->cap = 0;
	free(b->seg);
	b->seg = NULL;
	b->nseg = b->segcap = 0;
	if (!keep_md && b->md != NULL) {
		markdown_free(b->md);
		free(b->md);
		b->md = NULL;
	}
	b->item = NONE;
}

/* What a block holds, in bytes. */
static size_t
block_bytes(const struct block *b)
{
	size_t n = b->text.cap + b->cap * sizeof *b->row + b->segcap * sizeof *b->seg;

	return b->md != NULL ? n + sizeof *b->md + markdown_bytes(b->md) : n;
}

void
render_free(struct render *r)
{
	for (size_t i = 0; i < r->nslot; i++)
		block_clear(r, &r->slot[i], false);
	free(r->slot);
	markdown_layout_free(r->lay);
	free(r->lay);
	buf_free(&r->raw);
	buf_free(&r->tmp);
	text_rows_free(&r->wrap);
	for (size_t i = 0; i < r->ndesc; i++)
		tool_desc_free(&r->desc[i].d);
	free(r->desc);
}

void
render_flush(struct render *r)
{
	r->gen++;
}

void
render_set_width(struct render *r, int width)
{
	r->width = width < 1 ? 1 : width;
}

void
render_set_thinking(struct render *r, bool unfolded)
{
	r->thinking = unfolded;
}

void
render_set_markdown(struct render *r, bool rendered)
{
	r->markdown = rendered;
}

void
render_set_hidden(struct render *r, unsigned mask)
{
	r->hide = mask;
}

void
render_set_unfold(struct render *r, uint32_t it)
{
	/* The item after it may change too (a blank row around prose). */
	if (it != r->unfold)
		render_flush(r);
	r->unfold = it;
}

void
render_set_only(struct render *r, const uint64_t *only, size_t n)
{
	r->only = only;
	r->nonly = only != NULL ? n : 0;
}

bool
render_shown(const struct render *r, uint32_t it)
{
	if (r->hide & (1u << r->m->it[it].type))
		return false;
	return r->only == NULL ||
	       (it < r->nonly && (r->only[it / 64] & ((uint64_t)1 << (it % 64))) != 0);
}

/* Whether item it's thinking shows unfolded. */
static bool
unfolded(const struct render *r, uint32_t it)
{
	return r->thinking || it == r->unfold;
}

/* --- blocks ------------------------------------------------------------- */

static void
add_row(struct block *b, size_t off, size_t len, size_t width, enum role role, int indent)
{
	struct rrow *row;

	ARRAY_RESERVE(b->row, b->cap, b->nrow + 1);
	row = &b->row[b->nrow++];
	row->off = (uint32_t)off;
	row->len = (uint32_t)len;
	row->width = (uint16_t)MIN(width, (size_t)UINT16_MAX);
	row->role = (uint8_t)role;
	row->indent = (uint8_t)indent;
	row->seg = (uint32_t)b->nseg;
	row->nseg = 0;
}

static void
blank_row(struct block *b)
{
	add_row(b, b->text.n, 0, 0, ROLE_NORMAL, 0);
}

/* Sanitize raw text into the block and wrap it at width - indent; the
 * first row may carry a prefix (such as "❯ ") instead of the indent. */
static void
add_wrapped(struct render *r, struct block *b, const char *s, size_t n, enum role role, int indent,
	    const char *prefix)
{
	size_t base, w = (size_t)MAX(1, r->width - indent);
	size_t pw = prefix ? text_width(prefix, strlen(prefix)) : 0;

	buf_reset(&r->tmp);
	text_sanitize(&r->tmp, s, n, 0);
	r->wrap.n = 0;
	text_wrap(&r->wrap, r->tmp.p ? r->tmp.p : "", r->tmp.n, w);
	for (size_t i = 0; i < r->wrap.n; i++) {
		const struct text_row *tr = &r->wrap.v[i];

		base = b->text.n;
		if (i == 0 && prefix != NULL) {
			buf_adds(&b->text, prefix);
			buf_add(&b->text, r->tmp.p + tr->off, tr->len);
			add_row(b, base, b->text.n - base, tr->width + pw, role, indent - (int)pw);
		} else {
			buf_add(&b->text, r->tmp.p + tr->off, tr->len);
			add_row(b, base, tr->len, tr->width, role, indent);
		}
	}
}

/* One row of raw text s, cut to fit with an ellipsis. */
static void
add_line(struct render *r, struct block *b, const char *s, size_t n, enum role role)
{
	size_t used, fit, base = b->text.n, w = (size_t)r->width;

	buf_reset(&r->tmp);
	text_sanitize(&r->tmp, s, n, TEXT_ONELINE);
	if (text_width(r->tmp.p, r->tmp.n) <= w) {
		buf_add(&b->text, r->tmp.p, r->tmp.n);
		add_row(b, base, r->tmp.n, text_width(r->tmp.p, r->tmp.n), role, 0);
		return;
	}
	fit = text_fit(r->tmp.p, r->tmp.n, w > 1 ? w - 1 : 0, &used);
	buf_add(&b->text, r->tmp.p, fit);
	buf_adds(&b->text, ELLIPSIS);
	add_row(b, base, b->text.n - base, used + 1, role, 0);
}

/* The role of Markdown laid out in style (MS_*): the most telling of its
 * bits, or base for plain text. */
static enum role
md_role(unsigned style, enum role base)
{
	static const struct {
		unsigned style;
		enum role role;
	} order[] = {
		{MS_CUT, ROLE_DIM},           {MS_BLOCK, ROLE_MD_CODE_BLOCK},
		{MS_LANG, ROLE_MD_CODE_LANG}, {MS_MARK, ROLE_MD_MARK},
		{MS_URL, ROLE_MD_URL},        {MS_CODE, ROLE_MD_CODE},
		{MS_LINK, ROLE_MD_LINK},      {MS_HEADING, ROLE_MD_HEADING},
		{MS_STRONG, ROLE_MD_STRONG},  {MS_EM | MS_IMAGE, ROLE_MD_EM},
		{MS_STRIKE, ROLE_MD_STRIKE},
	};

	for (size_t i = 0; i < ARRAY_LEN(order); i++)
		if (style & order[i].style)
			return order[i].role;
	return base;
}

/* Append s[0..n) in role to the block's last row: the row's last segment
 * grown when it has that role, else a new one; zero-width code points
 * that start it (combining marks) stay with the character before. */
static void
seg_add(struct block *b, const char *s, size_t n, enum role role)
{
	struct rrow *row = &b->row[b->nrow - 1];
	struct seg *g = row->nseg > 0 ? &b->seg[b->nseg - 1] : NULL;
	size_t z = 0;

	buf_add(&b->text, s, n);
	row->len += (uint32_t)n;
	while (g != NULL && g->role != role && z < n) {
		uint32_t cp = (unsigned char)s[z];
		size_t k = cp < 0x80 ? 1 : utf8_decode(s + z, n - z, &cp);

		if (text_cpwidth(cp) != 0)
			break;
		z += k;
	}
	if (g != NULL && (g->role == role || z == n || row->nseg == UINT16_MAX)) {
		g->len += (uint32_t)n;
		return;
	}
	if (g != NULL)
		g->len += (uint32_t)z;
	ARRAY_RESERVE(b->seg, b->segcap, b->nseg + 1);
	g = &b->seg[b->nseg++];
	g->off = (uint32_t)(b->text.n - (n - z));
	g->len = (uint32_t)(n - z);
	g->role = (uint8_t)role;
	row->nseg++;
}

/* Whether the block holds its item's Markdown parsed as the item is now. */
static bool
md_fresh(const struct block *b)
{
	return b->md != NULL && b->md_last == b->last_ev && b->md_stamp == b->stamp;
}

/* Parse s[0..n), the block's item's Markdown, into the block. */
static void
md_parse(struct render *r, struct block *b, const char *s, size_t n)
{
	if (b->md == NULL)
		b->md = xcalloc(1, sizeof *b->md);
	markdown_parse(b->md, s, n);
	b->md_last = b->last_ev;
	b->md_stamp = b->stamp;
	r->parsed++;
}

/* The block's Markdown laid out at the width less indent, a row a line,
 * its segments in the roles of their styles (base: plain text). */
static void
add_markdown(struct render *r, struct block *b, enum role base, int indent)
{
	struct markdown_layout *l = r->lay;

	markdown_layout(b->md, (size_t)MAX(1, r->width - indent), l);
	for (size_t i = 0; i < l->nline; i++) {
		const struct markdown_line *ln = &l->line[i];

		add_row(b, b->text.n, 0, ln->width, base, indent);
		for (size_t k = 0; k < ln->nseg; k++) {
			const struct markdown_seg *g = &l->seg[ln->seg + k];

			seg_add(b, l->text.p + g->off, g->len, md_role(g->style, base));
		}
	}
	if (l->text.cap > LAYOUT_KEEP)
		markdown_layout_free(l);
}

/* Markdown s[0..n) (the block's item's: a reply, a plan) in rows: laid
 * out from its parse, made once for the item as it is now, or wrapped as
 * written (M, or too long for Markdown). s is NULL when the text is to be
 * had from the item, which is done only when it must be parsed again. */
static void
add_md_text(struct render *r, struct block *b, uint32_t it, const char *s, size_t n, int indent)
{
	if (r->markdown && md_fresh(b)) {
		add_markdown(r, b, ROLE_ASSISTANT, indent);
		return;
	}
	if (s == NULL) {
		buf_reset(&r->raw);
		words_item(r->m, it, 0, NULL, &r->raw);
		s = r->raw.p;
		n = r->raw.n;
	}
	if (r->markdown && n <= MARKDOWN_TEXT_MAX) {
		md_parse(r, b, s, n);
		add_markdown(r, b, ROLE_ASSISTANT, indent);
	} else {
		add_wrapped(r, b, s, n, ROLE_ASSISTANT, indent, NULL);
	}
}

static enum role
call_role(enum call_state st)
{
	switch (st) {
	case CS_OK:
		return ROLE_TOOL_OK;
	case CS_FAILED:
		return ROLE_TOOL_FAILED;
	case CS_REJECTED:
		return ROLE_TOOL_REJECTED;
	case CS_ERROR:
		return ROLE_TOOL_ERROR;
	case CS_ORPHANED:
		return ROLE_TOOL_ORPHANED;
	default:
		return ROLE_RUNNING;
	}
}

const struct tool_desc *
render_describe(struct render *r, uint32_t c)
{
	struct desc_slot *d = &r->desc[c % r->ndesc];
	enum call_state st = model_call_state(r->m, c);
	/* As of a replay's limit: a background call runs before and after
	 * its completion, which changes its words. */
	uint32_t done = model_seen(r->m, r->m->call[c].done_ev) ? r->m->call[c].done_ev : NONE;

	uint32_t prog = model_call_progress(r->m, c);

	if (d->call != c || d->gen != r->gen || d->done_ev != done || d->state != st ||
	    d->progress_ev != prog) {
		d->call = c;
		d->gen = r->gen;
		d->done_ev = done;
		d->progress_ev = prog;
		d->state = (uint8_t)st;
		tool_describe(r->m, c, &d->d);
	}
	return &d->d;
}

/* A duration for a call: "2.8 s", or "…" when unknown. */
static void
call_duration(struct model *m, uint32_t c, struct buf *out)
{
	int64_t d = model_call_duration(m, c);

	if (d == TIME_NONE)
		buf_adds(out, model_call_state(m, c) == CS_ORPHANED ? "?" : "");
	else
		fmt_duration(out, d);
}

/* A tool call's row: its line, and its duration at the right edge. */
static void
block_tool(struct render *r, struct block *b, uint32_t c)
{
	struct buf line = {0}, dur = {0};
	size_t dw, used, fit, room, base;
	enum role role = call_role(model_call_state(r->m, c));

	call_duration(r->m, c, &dur);
	dw = dur.n > 0 ? text_width(dur.p, dur.n) + 1 : 0;
	room = (size_t)r->width > dw ? (size_t)r->width - dw : 0;
	words_call_fit(r->m, c, render_describe(r, c), MAX(room, 1), &line);
	buf_reset(&r->tmp);
	text_sanitize(&r->tmp, line.p, line.n, TEXT_ONELINE);
	base = b->text.n;
	if (text_width(r->tmp.p, r->tmp.n) <= room) {
		fit = r->tmp.n;
		used = text_width(r->tmp.p, r->tmp.n);
		buf_add(&b->text, r->tmp.p, fit);
	} else {
		fit = text_fit(r->tmp.p, r->tmp.n, room > 1 ? room - 1 : 0, &used);
		buf_add(&b->text, r->tmp.p, fit);
		buf_adds(&b->text, ELLIPSIS);
		used++;
	}
	if (dw > 0 && used + dw <= (size_t)r->width) {
		while (used + dw < (size_t)r->width) {
			buf_addc(&b->text, ' ');
			used++;
		}
		buf_addc(&b->text, ' ');
		buf_add(&b->text, dur.p, dur.n);
		used += dw;
	}
	add_row(b, base, b->text.n - base, used, role, 0);
	buf_free(&line);
	buf_free(&dur);
}

/* A decision asked for: its line, in the role of its decision, and a
 * plan's text under it (in plan mode the plan is only there). */
static void
block_query(struct render *r, struct block *b, uint32_t q)
{
	static const enum role roles[] = {
		[QD_PENDING] = ROLE_RUNNING,        [QD_APPROVED] = ROLE_TOOL_OK,
		[QD_REJECTED] = ROLE_TOOL_REJECTED, [QD_SKIPPED] = ROLE_TOOL_REJECTED,
		[QD_ANSWERED] = ROLE_TOOL_OK,
	};
	struct query_words w = {0};

	buf_reset(&r->raw);
	words_query_load(r->m, q, &w);
	words_query(r->m, q, &w, &r->raw);
	add_wrapped(r, b, r->raw.p, r->raw.n, roles[words_query_decision(r->m, q)], 2, NULL);
	if (w.body.n > 0)
		add_md_text(r, b, NONE, w.body.p, w.body.n, 2);
	words_query_free(&w);
}

/* "── text ──────" filling the width; text too wide cut with an
 * ellipsis, as a line's. */
static void
add_rule(struct render *r, struct block *b, const char *s, size_t n, enum role role)
{
	struct buf line = {0};
	size_t base = b->text.n, used, fit, w = (size_t)r->width;

	buf_adds(&line, RULE RULE " ");
	text_sanitize(&line, s, n, TEXT_ONELINE);
	if (text_width(line.p, line.n) > w) {
		add_line(r, b, line.p, line.n, role);
		buf_free(&line);
		return;
	}
	buf_addc(&line, ' ');
	used = text_width(line.p, line.n);
	for (; used < w; used++)
		buf_adds(&line, RULE);
	fit = text_fit(line.p, line.n, w, &used);
	buf_add(&b->text, line.p, fit);
	add_row(b, base, fit, used, role, 0);
	buf_free(&line);
}

/* Items that read as prose get a blank row between them and lines. */
static bool
is_prose(const struct render *r, uint32_t i)
{
	const struct item *it = &r->m->it[i];

	return it->type == IT_PROMPT || it->type == IT_TEXT ||
	       (it->type == IT_THINKING && unfolded(r, i));
}

/* The item before it in the order the transcript is read in
 * (model_order.c), or NONE. */
static uint32_t
item_before(struct render *r, uint32_t it)
{
	uint32_t pos = model_order_pos(r->m, it);

	return pos == NONE || pos == 0 ? NONE : model_order_item(r->m, pos - 1);
}

static bool
blank_before(struct render *r, uint32_t it)
{
	const struct item *cur = &r->m->it[it], *prev;
	uint32_t p = item_before(r, it);

	if (p == NONE)
		return false;
	prev = &r->m->it[p];
	/* A rule stands apart, below as above. */
	if (prev->type == IT_NOTICE && (EV_FLAGS(&r->m->ev[prev->first_ev]) & EVF_RULE))
		return true;
	switch (cur->type) {
	case IT_SESSION:
	case IT_PROMPT:
	case IT_RESULT:
		return true;
	case IT_NOTICE:
		if (EV_FLAGS(&r->m->ev[cur->first_ev]) & EVF_RULE)
			return true;
		return is_prose(r, it) != is_prose(r, p);
	default:
		/* Prose next to lines, or prose of another kind, or of another
		 * agent (a sub-agent's reply, then its caller's). */
		return is_prose(r, it) != is_prose(r, p) ||
		       (is_prose(r, it) && (cur->type != prev->type || cur->depth != prev->depth));
	}
}

static void
block_build(struct render *r, struct block *b, uint32_t it)
{
	struct model *m = r->m;
	const struct item *item = &m->it[it];
	struct buf *raw = &r->raw;

	buf_reset(raw);
	if (blank_before(r, it))
		blank_row(b);
	switch (item->type) {
	case IT_SESSION:
		/* "── Session … ─": five cells of rule around it; of two
		 * runs compared, which ("A · Session …"). */
		if (model_session_run(m, item->session) != 0)
			buf_addf(raw, "%c " GLYPH_DOT " ", model_session_run(m, item->session));
		buf_adds(raw, "Session ");
		words_session_header_fit(m, item->session, (size_t)MAX(r->width - 13, 1), raw);
		add_rule(r, b, raw->p, raw->n, ROLE_SESSION);
		break;
	case IT_PROMPT:
		words_item(m, it, 0, NULL, raw);
		add_wrapped(r, b, raw->p, raw->n, ROLE_PROMPT, 2, ARROW " ");
		break;
	case IT_THINKING:
		buf_adds(raw, unfolded(r, it) ? UNFOLDED " " : FOLDED " ");
		words_item(m, it, 0, NULL, raw);
		add_line(r, b, raw->p, raw->n, ROLE_THINKING);
		if (unfolded(r, it)) {
			buf_reset(raw);
			model_item_text(m, it, raw);
			add_wrapped(r, b, raw->p, raw->n, ROLE_THINKING, 2, NULL);
		}
		break;
	case IT_TEXT:
		add_md_text(r, b, it, NULL, 0, 0);
		break;
	case IT_TOOL:
		block_tool(r, b, item->ref);
		break;
	case IT_NOTICE:
		/* One that parts the transcript is a rule across it. */
		if (EV_FLAGS(&m->ev[item->first_ev]) & EVF_RULE) {
			words_item(m, it, 0, NULL, raw);
			add_rule(r, b, raw->p, raw->n, ROLE_NOTICE);
			break;
		}
		buf_adds(raw, "~ ");
		words_item(m, it, 0, NULL, raw);
		add_wrapped(r, b, raw->p, raw->n, ROLE_NOTICE, 2, NULL);
		break;
	case IT_DIAG:
		words_item(m, it, 0, NULL, raw);
		buf_reset(&r->tmp);
		/* A diagnostic stays one logical line: its newlines are text. */
		text_sanitize(&r->tmp, raw->p, raw->n, TEXT_ONELINE);
		buf_reset(raw);
		buf_add(raw, r->tmp.p, r->tmp.n);
		add_wrapped(r, b, raw->p, raw->n, ROLE_DIAG, 2, NULL);
		break;
	case IT_STDERR:
		words_item(m, it, 0, NULL, raw);
		add_wrapped(r, b, raw->p, raw->n, ROLE_STDERR, 2, NULL);
		break;
	case IT_QUERY:
		block_query(r, b, item->ref);
		break;
	case IT_RESULT:
		words_item(m, it, 0, NULL, raw);
		add_rule(r, b, raw->p, raw->n,
			 model_session_state(m, item->session) == SS_OK ? ROLE_RESULT_OK
									: ROLE_RESULT_FAILED);
		break;
	default:
		add_line(r, b, "?", 1, ROLE_NORMAL);
		break;
	}
	if (b->nrow == 0)
		blank_row(b);
}

/* An item of a sub-agent is built narrower and drawn further in, two
 * cells a level (no deeper than leaves half the width). */
static void
block_nested(struct render *r, struct block *b, uint32_t it)
{
	int width = r->width;
	int in = MIN(2 * (int)r->m->it[it].depth, width / 2);

	r->width = width - in;
	block_build(r, b, it);
	r->width = width;
	for (size_t i = 0; i < b->nrow; i++)
		b->row[i].indent = (uint8_t)MIN(b->row[i].indent + in, 255);
}

/* What makes a row change although its item did not: a tool call's state,
 * its completion, and while running, the clock its duration is read on; a
 * result's session state and the session's events shown (calls completing
 * after it change its counts). */
static int64_t
item_stamp(const struct render *r, uint32_t it)
{
	const struct item *item = &r->m->it[it];
	uint32_t c;
	enum call_state st;

	/* A question unanswered reads "waiting" while its session is live. */
	if (item->type == IT_QUERY)
		return model_session_state(r->m, item->session);
	if (item->type == IT_RESULT)
		return (int64_t)model_session_state(r->m, item->session) +
		       8 * (int64_t)MIN(r->m->ses[item->session].last_ev, r->m->limit);
	/* A reply found cut off after its last delta says so. */
	if (item->type == IT_TEXT)
		return item->flags;
	if (item->type != IT_TOOL)
		return 0;
	c = item->ref;
	st = model_call_state(r->m, c);
	if (st == CS_RUNNING)
		return (int64_t)((uint64_t)(st +
					    8 * (r->m->now_ms == TIME_NONE ? 0 : r->m->now_ms)) ^
				 (uint64_t)model_call_progress(r->m, c) << 40);
	return st + 8 * ((int64_t)r->m->call[c].done_ev + 1);
}

/* The item's last event as far as it is shown: a replay's limit inside an
 * item's span changes its text. */
static uint32_t
item_last(const struct render *r, uint32_t it)
{
	return MIN(r->m->it[it].last_ev, r->m->limit);
}

const struct block *
render_item(struct render *r, uint32_t it)
{
	static const struct block hidden = {.item = NONE};
	struct block *b = &r->slot[it % r->nslot];
	int64_t stamp;

	if (!render_shown(r, it))
		return &hidden;
	/* One closing line: a turn's result with another turn after it (or
	 * on its way) is none. */
	if (r->m->it[it].type == IT_RESULT && !model_result_closes(r->m, r->m->it[it].first_ev))
		return &hidden;
	stamp = item_stamp(r, it);

	if (b->item == it && b->gen == r->gen && b->width == r->width &&
	    b->thinking == unfolded(r, it) && b->markdown == r->markdown &&
	    b->last_ev == item_last(r, it) && b->stamp == stamp && b->prev == item_before(r, it))
		return b;
	block_clear(r, b, b->item == it && b->gen == r->gen);
	b->item = it;
	b->prev = item_before(r, it);
	b->gen = r->gen;
	b->width = r->width;
	b->thinking = unfolded(r, it);
	b->markdown = r->markdown;
	b->last_ev = item_last(r, it);
	b->stamp = stamp;
	block_nested(r, b, it);
	b->bytes = block_bytes(b);
	r->bytes += b->bytes;
	/* Over budget: drop other blocks; the one just built stays. */
	for (size_t i = 0; r->bytes > RENDER_CACHE_BYTES && i < r->nslot; i++)
		if (&r->slot[i] != b && (r->slot[i].item != NONE || r->slot[i].md != NULL))
			block_clear(r, &r->slot[i], false);
	return b;
}

uint32_t
render_rows(struct render *r, uint32_t it)
{
	return (uint32_t)render_item(r, it)->nrow;
}

/* --- segmented lines ---------------------------------------------------- */

void
rline_reset(struct rline *l)
{
	buf_reset(&l->text);
	l->nseg = 0;
	l->width = 0;
}

void
rline_free(struct rline *l)
{
	buf_free(&l->text);
	free(l->seg);
	memset(l, 0, sizeof *l);
}

static void
rline_raw(struct rline *l, const char *s, size_t n, size_t w, enum role role)
{
	struct seg *sg;

	if (n == 0)
		return;
	if (l->nseg > 0 && l->seg[l->nseg - 1].role == role &&
	    l->seg[l->nseg - 1].off + l->seg[l->nseg - 1].len == l->text.n) {
		l->seg[l->nseg - 1].len += (uint32_t)n;
	} else {
		ARRAY_RESERVE(l->seg, l->cap, l->nseg + 1);
		sg = &l->seg[l->nseg++];
		sg->off = (uint32_t)l->text.n;
		sg->len = (uint32_t)n;
		sg->role = (uint8_t)role;
	}
	buf_add(&l->text, s, n);
	l->width += w;
}

void
rline_add(struct rline *l, const char *s, size_t n, enum role role, size_t max)
{
	struct buf san = {0};
	size_t used, fit;

	if (l->width >= max)
		return;
	text_sanitize(&san, s, n, TEXT_ONELINE);
	fit = text_fit(san.p ? san.p : "", san.n, max - l->width, &used);
	rline_raw(l, san.p, fit, used, role);
	buf_free(&san);
}

void
rline_adds(struct rline *l, const char *s, enum role role, size_t max)
{
	rline_add(l, s, strlen(s), role, max);
}

void
rline_pad(struct rline *l, size_t width, enum role role)
{
	while (l->width < width)
		rline_raw(l, " ", 1, 1, role);
}

/* --- the timeline ------------------------------------------------------- */

static const char *
bar_fill(enum call_state st)
{
	switch (st) {
	case CS_OK:
		return GLYPH_BAR_OK;
	case CS_FAILED:
	case CS_ERROR:
		return GLYPH_BAR_FAILED;
	case CS_REJECTED:
		return GLYPH_BAR_REJECTED;
	case CS_ORPHANED:
		return GLYPH_BAR_ORPHANED;
	default:
		return GLYPH_BAR_RUNNING;
	}
}

static enum role
bar_role(enum call_state st)
{
	switch (st) {
	case CS_OK:
		return ROLE_BAR_OK;
	case CS_RUNNING:
		return ROLE_BAR_RUNNING;
	case CS_ORPHANED:
		return ROLE_BAR_ORPHANED;
	default:
		return ROLE_BAR_FAILED;
	}
}

/* The bar of call c, cells wide, on its session's axis. */
static void
timeline_bar(struct render *r, uint32_t c, size_t cells, struct rline *out)
{
	struct model *m = r->m;
	enum call_state st = model_call_state(m, c);
	double fs, fe;
	size_t from, to;

	model_call_span(m, c, &fs, &fe);
	from = (size_t)(fs * (double)cells);
	to = (size_t)(fe * (double)cells + 0.5);
	if (from >= cells)
		from = cells - 1;
	if (to <= from)
		to = from + 1;
	if (to > cells)
		to = cells;
	for (size_t i = 0; i < from; i++)
		rline_raw(out, " ", 1, 1, ROLE_NORMAL);
	for (size_t i = from; i < to; i++) {
		const char *f = bar_fill(st);

		rline_raw(out, f, strlen(f), 1, bar_role(st));
	}
	for (size_t i = to; i < cells; i++)
		rline_raw(out, " ", 1, 1, ROLE_NORMAL);
}

/* Right-align s[0..n) in a field of cells cells. */
static void
rline_right(struct rline *l, const char *s, size_t n, size_t cells, enum role role)
{
	size_t sw = text_width(s, n), start = l->width;

	if (sw < cells)
		rline_pad(l, start + cells - sw, ROLE_NORMAL);
	rline_add(l, s, n, role, start + cells);
}

void
render_timeline_row(struct render *r, uint32_t c, int width, struct rline *out)
{
	struct model *m = r->m;
	const struct call *call = &m->call[c];
	enum call_state st = model_call_state(m, c);
	enum role role = call_role(st);
	const size_t kindw = 8, durw = 8;
	bool timed = model_session_timed(m, call->session);
	char run = model_session_run(m, call->session);
	size_t w = (size_t)MAX(width, 0), bar = 0, offw = 0, flex, col, in;
	struct buf t = {0};
	const struct tool_desc *d;
	int64_t a0, a1;

	rline_reset(out);
	/* A stream without times has no axis: no offset, no bar (the
	 * pane's title says why); what the call is about takes the room. */
	if (w >= 48 && timed)
		bar = MIN((size_t)40, MAX((size_t)6, (w - 36) / 2));
	if (w >= 64 && timed)
		offw = 8;
	flex = w > 2 + kindw + offw + (bar ? bar + 1 : 0) + durw
		       ? w - (2 + kindw + offw + (bar ? bar + 1 : 0) + durw)
		       : 0;
	/* Of two runs compared, each row says which it is of: "A ". */
	if (run != 0) {
		buf_reset(&r->raw);
		buf_addf(&r->raw, "%c ", run);
		rline_add(out, r->raw.p, r->raw.n, ROLE_SESSION, w);
		flex -= MIN(flex, 2);
	}
	/* A sub-agent's calls stand in under the call that runs it; their
	 * target gives the room, the columns after it stay in line. */
	in = MIN(w / 4, 2 * (size_t)m->it[call->item].depth);
	flex -= MIN(flex, in);
	rline_pad(out, out->width + in, ROLE_NORMAL);
	/* A decision asked about it and not answered yet: it waits. */
	if (call->query != NONE && words_query_decision(m, call->query) == QD_PENDING)
		rline_adds(out, GLYPH_WAITING, ROLE_RUNNING, w);
	else
		rline_adds(out, tool_state_glyph(st), role, w);
	rline_adds(out, " ", ROLE_NORMAL, w);
	d = render_describe(r, c);
	col = out->width;
	buf_reset(&r->raw);
	tool_tag((enum tool_kind)call->kind, d->label.p, d->label.n, &r->raw);
	rline_add(out, r->raw.p, r->raw.n, ROLE_DIM, MIN(w, col + kindw - 1));
	rline_pad(out, MIN(w, col + kindw), ROLE_NORMAL);
	col = out->width;
	/* A path relative to the session's cwd, cut in the middle. */
	model_session_cwd(m, call->session, &t);
	buf_reset(&r->raw);
	tool_what((enum tool_kind)call->kind, d, t.p, t.n, flex, &r->raw);
	buf_reset(&t);
	rline_add(out, r->raw.p ? r->raw.p : "", r->raw.n, st == CS_OK ? ROLE_NORMAL : role,
		  MIN(w, col + flex));
	rline_pad(out, MIN(w, col + flex), ROLE_NORMAL);
	model_session_axis(m, call->session, &a0, &a1);
	if (offw > 0 && out->width + offw <= w) {
		buf_addc(&t, '+');
		fmt_clock(&t, call->start_ms == TIME_NONE || a0 == TIME_NONE
				      ? 0
				      : ms_sub(call->start_ms, a0));
		rline_right(out, t.p, t.n, offw, ROLE_DIM);
		buf_reset(&t);
	}
	if (bar > 0 && out->width + bar + 1 <= w) {
		rline_adds(out, " ", ROLE_NORMAL, w);
		timeline_bar(r, c, bar, out);
	}
	call_duration(m, c, &t);
	if (out->width + durw <= w)
		rline_right(out, t.p ? t.p : "", t.n, durw,
			    st == CS_RUNNING ? ROLE_RUNNING : ROLE_DIM);
	rline_pad(out, w, ROLE_NORMAL);
	buf_free(&t);
}
