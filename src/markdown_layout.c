/* markdown_layout.c: a parsed reply laid out in lines of styled segments
 * at a width (markdown.h), for the screen: words wrapped through text.c,
 * containers as prefixes, code cut, tables as grids or records. */
#include "markdown.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glyph.h"

/* A table's column is never made narrower than this to fit the width,
 * unless its text is; a table that cannot fit so is laid out as records. */
#define MIN_COLUMN 4

static const char spaces[] = "                                                                ";

/* A piece of a line's prefix: a quote's bar, an item's marker or the
 * blanks under it. */
struct piece {
	const char *s;
	size_t n, width;
	bool bar;
};

/* Where a layout is. */
struct lay {
	const struct markdown *md;
	struct markdown_layout *l;
	size_t width;
	/* The leaf being laid out: its containers, outermost first, and
	 * the prefix of its first line and of the lines after it. */
	uint32_t chain[MARKDOWN_MAX_DEPTH];
	unsigned depth;
	struct piece first[MARKDOWN_MAX_DEPTH], next[MARKDOWN_MAX_DEPTH];
	size_t room;  /* cells after the prefix, at least 1 */
	bool started; /* its first line is out */
	/* The leaf before, and the items whose marker is out, by depth. */
	uint32_t prev[MARKDOWN_MAX_DEPTH];
	unsigned prev_depth;
	bool any;
	uint32_t shown[MARKDOWN_MAX_DEPTH];
	char number[MARKDOWN_MAX_DEPTH][16];
};

/* Start a line of type (a block's, or MK_BLANK). */
static void
line_start(struct lay *y, enum markdown_type type, unsigned level)
{
	struct markdown_layout *l = y->l;
	struct markdown_line *ln;

	ARRAY_RESERVE(l->line, l->linecap, l->nline + 1);
	ln = &l->line[l->nline++];
	ln->seg = (uint32_t)l->nseg;
	ln->nseg = 0;
	ln->width = 0;
	ln->type = (uint8_t)type;
	ln->level = (uint8_t)level;
}

/* Append s[0..n), width cells, in style to the line being made. */
static void
line_add(struct lay *y, const char *s, size_t n, size_t width, uint16_t style)
{
	struct markdown_layout *l = y->l;
	struct markdown_line *ln = &l->line[l->nline - 1];
	struct markdown_seg *g = ln->nseg > 0 ? &l->seg[l->nseg - 1] : NULL;

	if (n == 0)
		return;
	ln->width += (uint32_t)width;
	if (g != NULL && g->style == style && (size_t)g->off + g->len == l->text.n) {
		g->len += (uint32_t)n;
		g->width += (uint32_t)width;
		buf_add(&l->text, s, n);
		return;
	}
	ARRAY_RESERVE(l->seg, l->segcap, l->nseg + 1);
	g = &l->seg[l->nseg++];
	g->off = (uint32_t)l->text.n;
	g->len = (uint32_t)n;
	g->width = (uint32_t)width;
	g->style = style;
	ln->nseg++;
	buf_add(&l->text, s, n);
}

/* Append count blank cells. */
static void
line_blanks(struct lay *y, size_t count)
{
	while (count > 0) {
		size_t k = MIN(count, sizeof spaces - 1);

		line_add(y, spaces, k, k, 0);
		count -= k;
	}
}

/* Append count copies of a one-cell glyph g. */
static void
line_repeat(struct lay *y, const char *g, size_t count, uint16_t style)
{
	for (size_t i = 0; i < count; i++)
		line_add(y, g, strlen(g), 1, style);
}

/* The prefix pieces[0..count) within max cells; returns the cells. */
static size_t
prefix_add(struct lay *y, const struct piece *pieces, unsigned count, size_t max)
{
	size_t used = 0;

	for (unsigned i = 0; i < count && used < max; i++) {
		const struct piece *pc = &pieces[i];
		size_t w = pc->width, n = pc->n;

		if (used + w > max)
			n = text_fit(pc->s, n, max - used, &w);
		line_add(y, pc->s, n, w, pc->s == spaces ? 0 : MS_MARK);
		used += w;
	}
	return used;
}

/* Start a line of the leaf: its prefix, the first one's or the next's. */
static void
leaf_line(struct lay *y, enum markdown_type type, unsigned level)
{
	line_start(y, type, level);
	prefix_add(y, y->started ? y->next : y->first, y->depth, y->width - y->room);
	y->started = true;
}

/* An item's marker: its box, its number, or its list's bullet. */
static void
item_marker(struct lay *y, unsigned k, struct piece *pc)
{
	static const char *const bullets[] = {GLYPH_BULLET " ", GLYPH_BULLET_2 " ",
					      GLYPH_BULLET_3 " "};
	const struct markdown *md = y->md;
	const struct markdown_block *it = &md->block[y->chain[k]];
	const struct markdown_block *list =
		it->parent != MARKDOWN_NONE ? &md->block[it->parent] : NULL;
	unsigned lists = 0;

	if (it->flags & MK_TASK) {
		pc->s = (it->flags & MK_DONE) ? GLYPH_OK " " : GLYPH_PENDING " ";
	} else if (list != NULL && list->type == MK_LIST && (list->flags & MK_ORDERED)) {
		snprintf(y->number[k], sizeof y->number[k], "%u. ", it->number);
		pc->s = y->number[k];
	} else {
		/* The bullet of the list's depth among lists. */
		for (unsigned i = 0; i + 1 < k; i++)
			lists += md->block[y->chain[i]].type == MK_LIST;
		pc->s = bullets[MIN(lists, (unsigned)ARRAY_LEN(bullets) - 1)];
	}
	pc->n = strlen(pc->s);
	pc->width = text_width(pc->s, pc->n);
}

/* Whether containers keep two leaves together: the nearest one they
 * share is a tight list or its item, and every list the second is in
 * below it is tight. */
static bool
tight_between(const struct lay *y, unsigned common)
{
	const struct markdown *md = y->md;
	const struct markdown_block *c;

	if (common == 0)
		return false;
	c = &md->block[y->chain[common - 1]];
	if (c->type == MK_ITEM && c->parent != MARKDOWN_NONE)
		c = &md->block[c->parent];
	if (c->type != MK_LIST || !(c->flags & MK_TIGHT))
		return false;
	for (unsigned k = common; k < y->depth; k++) {
		c = &md->block[y->chain[k]];
		if (c->type == MK_LIST && !(c->flags & MK_TIGHT))
			return false;
	}
	return true;
}

/* A blank line, with the bars of the quotes among the leaf's first count
 * containers (none after the last bar). */
static void
blank_line(struct lay *y, unsigned count)
{
	unsigned bars = 0;
	size_t used;

	line_start(y, MK_BLANK, 0);
	for (unsigned k = 0; k < count; k++)
		if (y->next[k].bar)
			bars = k + 1;
	if (bars == 0)
		return;
	used = prefix_add(y, y->next, bars - 1, y->width - y->room);
	if (used < y->width - y->room)
		line_add(y, GLYPH_VRULE, strlen(GLYPH_VRULE), 1, MS_MARK);
}

/* Start leaf b: its containers and prefixes, and the blank line that
 * parts it from the leaf before (with the bars of the quotes both are
 * in). */
static void
leaf_start(struct lay *y, uint32_t b)
{
	const struct markdown *md = y->md;
	unsigned common = 0;
	size_t width = 0;

	y->depth = md->block[b].depth;
	for (uint32_t c = md->block[b].parent, k = y->depth; c != MARKDOWN_NONE && k > 0;
	     c = md->block[c].parent)
		y->chain[--k] = c;
	for (unsigned k = 0; k < y->depth; k++) {
		const struct markdown_block *c = &md->block[y->chain[k]];
		struct piece *f = &y->first[k], *nx = &y->next[k];

		memset(f, 0, sizeof *f);
		if (c->type == MK_QUOTE) {
			f->s = GLYPH_VRULE " ";
			f->n = strlen(f->s);
			f->width = 2;
			f->bar = true;
		} else if (c->type == MK_ITEM) {
			item_marker(y, k, f);
			if (y->shown[k] == y->chain[k]) {
				f->s = spaces;
				f->n = f->width;
			}
			y->shown[k] = y->chain[k];
		} else {
			f->s = spaces;
		}
		*nx = *f;
		if (!f->bar) {
			nx->s = spaces;
			nx->n = nx->width;
		}
		width += f->width;
	}
	/* The prefix leaves at least one cell of the width. */
	y->room = y->width - MIN(width, y->width - 1);
	y->started = false;
	while (common < y->depth && common < y->prev_depth && y->prev[common] == y->chain[common])
		common++;
	if (y->any && !tight_between(y, common))
		blank_line(y, common);
	memcpy(y->prev, y->chain, y->depth * sizeof *y->chain);
	y->prev_depth = y->depth;
	y->any = true;
}

/* Flat text: add s[0..n) in style. */
static void
flat_add(struct markdown_layout *l, const char *s, size_t n, uint16_t style)
{
	struct markdown_mark *m = l->nmark > 0 ? &l->mark[l->nmark - 1] : NULL;

	if (n == 0)
		return;
	buf_add(&l->flat, s, n);
	if (m != NULL && m->style == style) {
		m->end = (uint32_t)l->flat.n;
		return;
	}
	ARRAY_RESERVE(l->mark, l->markcap, l->nmark + 1);
	m = &l->mark[l->nmark++];
	m->end = (uint32_t)l->flat.n;
	m->style = style;
}

/* Flat text: runs r[0..n) with add in their style; a target as " (url)". */
static void
flat_runs(const struct lay *y, const struct markdown_run *r, size_t n, uint16_t add)
{
	struct markdown_layout *l = y->l;
	const char *text = y->md->text.p;

	for (size_t i = 0; i < n; i++) {
		uint16_t style = r[i].style | add;

		if (!(r[i].style & MS_URL)) {
			flat_add(l, text + r[i].off, r[i].len, style);
			continue;
		}
		if (l->flat.n > 0 && l->flat.p[l->flat.n - 1] != ' ' &&
		    l->flat.p[l->flat.n - 1] != '\n')
			flat_add(l, " ", 1, add);
		flat_add(l, "(", 1, style);
		flat_add(l, text + r[i].off, r[i].len, style);
		flat_add(l, ")", 1, style);
	}
}

/* Empty the flat text; its buffer is there even when nothing is added. */
static void
flat_reset(struct markdown_layout *l)
{
	buf_reset(&l->flat);
	buf_reserve(&l->flat, 1);
	l->nmark = 0;
}

/* The mark whose style holds at flat offset off. */
static size_t
mark_at(const struct markdown_layout *l, size_t off)
{
	size_t lo = 0, hi = l->nmark;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->mark[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Append wrapped row r of the flat text from base, in its styles with add,
 * within room cells (a wide character alone at width 1 is dropped), less
 * the spaces of its break (a link's underline must not run past its
 * word); returns its cells. */
static size_t
row_add(struct lay *y, size_t base, const struct text_row *r, size_t room, uint16_t add)
{
	struct markdown_layout *l = y->l;
	size_t off = base + r->off, len = r->len, width = r->width, end, m;

	if (width > room)
		len = text_fit(l->flat.p + off, len, room, &width);
	while (len > 0 && l->flat.p[off + len - 1] == ' ') {
		len--;
		width--;
	}
	end = off + len;
	for (m = mark_at(l, off); off < end; m++) {
		size_t e = MIN(end, (size_t)l->mark[m].end);
		size_t w = e == end && off == base + r->off ? width
							    : text_width(l->flat.p + off, e - off);

		line_add(y, l->flat.p + off, e - off, w, l->mark[m].style | add);
		off = e;
	}
	return width;
}

/* A paragraph or a heading: its runs wrapped within the room. */
static void
lay_text(struct lay *y, const struct markdown_block *b)
{
	struct markdown_layout *l = y->l;
	uint16_t add = b->type == MK_HEADING ? MS_HEADING : 0;

	flat_reset(l);
	flat_runs(y, &y->md->run[b->run], b->nrun, add);
	l->rows.n = 0;
	text_wrap(&l->rows, l->flat.p != NULL ? l->flat.p : "", l->flat.n, y->room);
	for (size_t i = 0; i < l->rows.n; i++) {
		leaf_line(y, (enum markdown_type)b->type, b->level);
		row_add(y, 0, &l->rows.v[i], y->room, 0);
	}
}

/* A code block: its language, then its lines, each cut to the room. */
static void
lay_code(struct lay *y, const struct markdown_block *b)
{
	struct markdown_layout *l = y->l;
	const char *s;
	size_t from = 0, n, w;

	if (b->nlang > 0) {
		s = y->md->text.p + b->lang;
		n = text_fit(s, b->nlang, y->room, &w);
		leaf_line(y, MK_CODE, 0);
		line_add(y, s, n, w, MS_LANG);
	}
	flat_reset(l);
	flat_runs(y, &y->md->run[b->run], b->nrun, 0);
	s = l->flat.p != NULL ? l->flat.p : "";
	do {
		const char *nl = memchr(s + from, '\n', l->flat.n - from);
		size_t end = nl != NULL ? (size_t)(nl - s) : l->flat.n;

		leaf_line(y, MK_CODE, 0);
		w = text_width(s + from, end - from);
		if (w <= y->room) {
			line_add(y, s + from, end - from, w, MS_BLOCK);
		} else {
			n = text_fit(s + from, end - from, y->room - 1, &w);
			line_add(y, s + from, n, w, MS_BLOCK);
			line_add(y, GLYPH_ELLIPSIS, strlen(GLYPH_ELLIPSIS), 1, MS_BLOCK | MS_CUT);
		}
		from = end + 1;
	} while (from <= l->flat.n);
}

/* Where the table that starts at row block i ends: at the first block
 * that is not a row of the same container, or a head after a body. */
static size_t
table_end(const struct markdown *md, size_t i)
{
	size_t j = i + 1;

	while (j < md->nblock && md->block[j].type == MK_ROW &&
	       md->block[j].parent == md->block[i].parent &&
	       (!(md->block[j].flags & MK_HEAD) || (md->block[j - 1].flags & MK_HEAD)))
		j++;
	return j;
}

/* Flat text of row b's cells; the flat range of cell c in cell[c],
 * cell[c + 1] (a cell the row lacks is empty). Returns the columns. */
static unsigned
row_flat(const struct lay *y, const struct markdown_block *b, uint16_t add,
	 uint32_t cell[MARKDOWN_MAX_COLUMNS + 1])
{
	const struct markdown_run *r = &y->md->run[b->run];
	unsigned cols = 0;

	flat_reset(y->l);
	cell[0] = 0;
	for (size_t i = 0; i < b->nrun;) {
		size_t j = i;

		while (j < b->nrun && r[j].cell == r[i].cell)
			j++;
		while (cols < r[i].cell)
			cell[++cols] = (uint32_t)y->l->flat.n;
		flat_runs(y, r + i, j - i, add);
		cell[++cols] = (uint32_t)y->l->flat.n;
		i = j;
	}
	return cols;
}

/* The widths of a table's columns within the room: as wide as their text
 * when all fit, else the widest cut down evenly. False when they cannot
 * fit at MIN_COLUMN cells (or their text's, when narrower). */
static bool
table_widths(size_t room, const size_t *nat, unsigned cols, size_t *w)
{
	size_t sep = 3 * (cols - 1), need = 0, all = 0, lo = 1, hi = 1, left;

	for (unsigned c = 0; c < cols; c++) {
		need += MIN(nat[c], (size_t)MIN_COLUMN);
		all += nat[c];
		hi = MAX(hi, nat[c]);
	}
	if (sep + need > room)
		return false;
	room -= sep;
	if (all <= room) {
		memcpy(w, nat, cols * sizeof *w);
		return true;
	}
	/* The largest cap at which the columns fit. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2, sum = 0;

		for (unsigned c = 0; c < cols; c++)
			sum += MIN(nat[c], mid);
		if (sum <= room)
			lo = mid;
		else
			hi = mid - 1;
	}
	left = room;
	for (unsigned c = 0; c < cols; c++) {
		w[c] = MIN(nat[c], lo);
		left -= w[c];
	}
	for (unsigned c = 0; c < cols && left > 0; c++) {
		if (nat[c] > w[c]) {
			w[c]++;
			left--;
		}
	}
	return true;
}

/* One row of a grid: its cells wrapped in their columns, side by side,
 * " │ " between them. */
static void
grid_row(struct lay *y, const struct markdown_block *b, const size_t *w, unsigned cols)
{
	struct markdown_layout *l = y->l;
	uint16_t add = (b->flags & MK_HEAD) ? MS_HEADING : 0;
	uint32_t cell[MARKDOWN_MAX_COLUMNS + 1];
	size_t first[MARKDOWN_MAX_COLUMNS], count[MARKDOWN_MAX_COLUMNS], height = 0;
	unsigned have = row_flat(y, b, add, cell);

	l->rows.n = 0;
	for (unsigned c = 0; c < cols; c++) {
		size_t from = c < have ? cell[c] : 0, to = c < have ? cell[c + 1] : 0;

		first[c] = l->rows.n;
		count[c] = text_wrap(&l->rows, from < to ? l->flat.p + from : "", to - from,
				     MAX(w[c], (size_t)1));
		height = MAX(height, count[c]);
	}
	for (size_t k = 0; k < height; k++) {
		leaf_line(y, MK_ROW, 0);
		for (unsigned c = 0; c < cols; c++) {
			size_t used = 0;

			if (k < count[c])
				used = row_add(y, c < have ? cell[c] : 0, &l->rows.v[first[c] + k],
					       w[c], add);
			if (c + 1 == cols)
				break;
			line_blanks(y, w[c] - MIN(used, w[c]));
			line_add(y, " " GLYPH_VRULE " ", strlen(" " GLYPH_VRULE " "), 3, MS_MARK);
		}
	}
}

/* The rule under a grid's head. */
static void
grid_rule(struct lay *y, const size_t *w, unsigned cols)
{
	leaf_line(y, MK_ROW, 0);
	for (unsigned c = 0; c < cols; c++) {
		line_repeat(y, GLYPH_RULE, w[c], MS_MARK);
		if (c + 1 < cols)
			line_add(y, GLYPH_RULE GLYPH_CROSS GLYPH_RULE,
				 strlen(GLYPH_RULE GLYPH_CROSS GLYPH_RULE), 3, MS_MARK);
	}
}

/* The runs of cell c of row b, and how many. */
static const struct markdown_run *
cell_runs(const struct markdown *md, const struct markdown_block *b, unsigned c, size_t *n)
{
	const struct markdown_run *r = &md->run[b->run];
	size_t i = 0, j;

	while (i < b->nrun && r[i].cell < c)
		i++;
	for (j = i; j < b->nrun && r[j].cell == c; j++)
		;
	*n = j - i;
	return r + i;
}

/* A table too wide for a grid: each body row a record of one "head: text"
 * paragraph per cell, a blank line between records. */
static void
lay_records(struct lay *y, size_t from, size_t to, unsigned cols)
{
	const struct markdown *md = y->md;
	struct markdown_layout *l = y->l;
	const struct markdown_block *head =
		(md->block[from].flags & MK_HEAD) ? &md->block[from] : NULL;

	/* A head with no body under it is a record itself. */
	if (head != NULL && to - from > 1)
		from++;
	else
		head = NULL;
	for (size_t i = from; i < to; i++) {
		if (i > from)
			blank_line(y, y->depth);
		for (unsigned c = 0; c < cols; c++) {
			const struct markdown_run *r;
			size_t n;

			flat_reset(l);
			if (head != NULL) {
				r = cell_runs(md, head, c, &n);
				flat_runs(y, r, n, MS_HEADING);
				if (l->flat.n > 0)
					flat_add(l, ": ", 2, MS_HEADING);
			}
			r = cell_runs(md, &md->block[i], c, &n);
			flat_runs(y, r, n, 0);
			l->rows.n = 0;
			text_wrap(&l->rows, l->flat.p != NULL ? l->flat.p : "", l->flat.n, y->room);
			for (size_t k = 0; k < l->rows.n; k++) {
				leaf_line(y, MK_ROW, 0);
				row_add(y, 0, &l->rows.v[k], y->room, 0);
			}
		}
	}
}

/* A table: rows [from, to) of one container. */
static void
lay_table(struct lay *y, size_t from, size_t to)
{
	const struct markdown *md = y->md;
	uint32_t cell[MARKDOWN_MAX_COLUMNS + 1];
	size_t nat[MARKDOWN_MAX_COLUMNS] = {0}, w[MARKDOWN_MAX_COLUMNS];
	unsigned cols = 1;

	for (size_t i = from; i < to; i++) {
		unsigned have = row_flat(y, &md->block[i], 0, cell);

		for (unsigned c = 0; c < have; c++)
			nat[c] = MAX(nat[c],
				     text_width(y->l->flat.p + cell[c], cell[c + 1] - cell[c]));
		cols = MAX(cols, have);
	}
	for (unsigned c = 0; c < cols; c++)
		nat[c] = MAX(nat[c], (size_t)1);
	if (!table_widths(y->room, nat, cols, w)) {
		lay_records(y, from, to, cols);
		return;
	}
	for (size_t i = from; i < to; i++) {
		grid_row(y, &md->block[i], w, cols);
		if ((md->block[i].flags & MK_HEAD) &&
		    (i + 1 == to || !(md->block[i + 1].flags & MK_HEAD)))
			grid_rule(y, w, cols);
	}
}

void
markdown_layout(const struct markdown *md, size_t width, struct markdown_layout *lay)
{
	struct lay y = {.md = md, .l = lay, .width = MAX(width, (size_t)1)};

	memset(y.shown, 0xFF, sizeof y.shown);
	buf_reset(&lay->text);
	lay->nseg = lay->nline = 0;
	for (size_t i = 0; i < md->nblock; i++) {
		const struct markdown_block *b = &md->block[i];
		size_t end = i + 1;

		if (b->type >= MK_QUOTE)
			continue;
		if (b->type == MK_ROW)
			end = table_end(md, i);
		leaf_start(&y, (uint32_t)i);
		switch ((enum markdown_type)b->type) {
		case MK_PARA:
		case MK_HEADING:
			lay_text(&y, b);
			break;
		case MK_CODE:
			lay_code(&y, b);
			break;
		case MK_RULE:
			leaf_line(&y, MK_RULE, 0);
			line_repeat(&y, GLYPH_RULE, y.room, MS_MARK);
			break;
		case MK_ROW:
			lay_table(&y, i, end);
			break;
		default:
			break;
		}
		i = end - 1;
	}
}

void
markdown_layout_free(struct markdown_layout *lay)
{
	buf_free(&lay->text);
	free(lay->seg);
	free(lay->line);
	buf_free(&lay->flat);
	free(lay->mark);
	text_rows_free(&lay->rows);
	memset(lay, 0, sizeof *lay);
}
