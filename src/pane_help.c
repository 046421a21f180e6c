/* pane_help.c: the help, a layer: the keys of the view it is opened on
 * (every key over a session; the list's over the list), from the key
 * table (keys_help, the text the man page's KEYS section is made from
 * too), in a box over the panes, or over the whole screen when it is
 * small; it scrolls with the transcript's keys. Its state is the first
 * line shown and the view's context. */
#include "ui.h"

#include <stdlib.h>
#include <string.h>

#include "glyph.h"

/* The box is at most this wide; under HELP_FULL_W columns or HELP_FULL_H
 * rows it takes the whole screen but the status bar. */
#define HELP_MAX_W 80
#define HELP_FULL_W 60
#define HELP_FULL_H 16

/* The help's state: the first line shown, the keys shown. */
struct help {
	int top;
	enum key_ctx only; /* KC_CONTEXTS: all */
};

/* The help laid out for a screen size: the box with its frame, the text
 * inside (one entry per line) and how far it can scroll. */
struct help_box {
	struct rect box;
	struct rect text;
	struct buf lines; /* keys_help's text */
	uint32_t *start;  /* offset of each line in lines */
	size_t n, cap;
	int max_top; /* the last line shown at the bottom */
};

/* Lay the help of only's keys out on a screen of rows x cols; text.h == 0
 * when it does not fit at all. */
static void
help_layout(struct help_box *b, int rows, int cols, enum key_ctx only)
{
	int avail = rows - 1; /* the status bar stays */
	bool full = cols < HELP_FULL_W || avail < HELP_FULL_H;
	int w = full ? cols : MIN(cols - 4, HELP_MAX_W);

	memset(&b->box, 0, sizeof b->box);
	memset(&b->text, 0, sizeof b->text);
	buf_reset(&b->lines);
	b->n = 0;
	b->max_top = 0;
	if (avail < 3 || w < 8)
		return;
	/* A frame and a space of margin on each side. */
	keys_help(&b->lines, w - 4, only);
	for (size_t i = 0; i < b->lines.n; i++) {
		if (i == 0 || b->lines.p[i - 1] == '\n') {
			ARRAY_RESERVE(b->start, b->cap, b->n + 1);
			b->start[b->n++] = (uint32_t)i;
		}
	}
	b->box.w = w;
	b->box.h = full ? avail : MIN(avail - 2, (int)b->n + 2);
	b->box.y = full ? 0 : (avail - b->box.h) / 2;
	b->box.x = (cols - w) / 2;
	b->text = (struct rect){b->box.y + 1, b->box.x + 2, b->box.h - 2, w - 4};
	b->max_top = MAX(0, (int)b->n - b->text.h);
}

/* Free what help_layout allocated. */
static void
help_free(struct help_box *b)
{
	buf_free(&b->lines);
	free(b->start);
}

/* Line i of the help, without its newline. */
static const char *
help_line(const struct help_box *b, size_t i, size_t *len)
{
	size_t end = i + 1 < b->n ? b->start[i + 1] - 1 : b->lines.n;

	while (end > b->start[i] && b->lines.p[end - 1] == '\n')
		end--;
	*len = end - b->start[i];
	return b->lines.p + b->start[i];
}

/* One line of text into l: a context's heading, or a binding's keys (two
 * spaces in, up to the gap before its help) and its help. */
static void
help_compose(struct rline *l, const char *s, size_t n, size_t w)
{
	size_t keys = 0;

	if (n > 0 && s[0] != ' ') {
		rline_add(l, s, n, ROLE_SESSION, w);
		return;
	}
	if (n > 2 && s[0] == ' ' && s[1] == ' ' && s[2] != ' ') {
		const char *gap = NULL;

		for (size_t i = 2; i + 1 < n && gap == NULL; i++)
			if (s[i] == ' ' && s[i + 1] == ' ')
				gap = s + i;
		keys = gap != NULL ? (size_t)(gap - s) : n;
		rline_add(l, s, 2, ROLE_NORMAL, w);
		rline_add(l, s + 2, keys - 2, ROLE_TITLE, w);
	}
	rline_add(l, s + keys, n - keys, ROLE_NORMAL, w);
}

/* The bottom edge: where the view is when it scrolls, and how to close. */
static void
help_footer(struct help_box *b, int top, struct rline *l)
{
	struct buf s = {0};
	size_t w = (size_t)b->box.w, sw;

	if (b->max_top > 0)
		buf_addf(&s, " %d-%d of %zu " GLYPH_DOT " ", top + 1,
			 MIN(top + b->text.h, (int)b->n), b->n);
	buf_adds(&s, s.n > 0 ? "q closes " : " q, Esc or ? closes ");
	sw = text_width(s.p, s.n);
	rline_adds(l, GLYPH_BOX_BL, ROLE_BORDER, w);
	if (sw + 4 <= w) {
		while (l->width + sw + 2 < w)
			rline_adds(l, GLYPH_RULE, ROLE_BORDER, w);
		rline_add(l, s.p, s.n, ROLE_DIM, w);
	}
	while (l->width + 1 < w)
		rline_adds(l, GLYPH_RULE, ROLE_BORDER, w);
	rline_adds(l, GLYPH_BOX_BR, ROLE_BORDER, w);
	buf_free(&s);
}

static const struct pane_ops help_ops;

/* Draw the box, scrolled to its top (kept in range). */
static void
help_draw(struct ui *u, void *st)
{
	struct help *h = st;
	int *top = &h->top;
	struct help_box b = {0};
	struct rline *l = &u->line;
	int rows, cols;
	size_t w;

	getmaxyx(stdscr, rows, cols);
	help_layout(&b, rows, cols, h->only);
	if (b.text.h <= 0) {
		help_free(&b);
		return;
	}
	*top = MAX(0, MIN(*top, b.max_top));
	w = (size_t)b.box.w;
	rline_reset(l);
	rline_adds(l, GLYPH_BOX_TL GLYPH_RULE, ROLE_BORDER, w);
	rline_adds(l, " Keys ", ROLE_TITLE, w);
	while (l->width + 1 < w)
		rline_adds(l, GLYPH_RULE, ROLE_BORDER, w);
	rline_adds(l, GLYPH_BOX_TR, ROLE_BORDER, w);
	ui_draw_rline(u, b.box.y, b.box.x, l, ROLE_NORMAL);
	for (int y = 0; y < b.text.h; y++) {
		size_t i = (size_t)(*top + y), len = 0;
		const char *s = i < b.n ? help_line(&b, i, &len) : "";

		rline_reset(l);
		rline_adds(l, GLYPH_VRULE, ROLE_BORDER, w);
		rline_adds(l, " ", ROLE_NORMAL, w);
		help_compose(l, s, len, w - 2);
		rline_pad(l, w - 1, ROLE_NORMAL);
		rline_adds(l, GLYPH_VRULE, ROLE_BORDER, w);
		ui_draw_rline(u, b.text.y + y, b.box.x, l, ROLE_NORMAL);
	}
	rline_reset(l);
	help_footer(&b, *top, l);
	ui_draw_rline(u, b.box.y + b.box.h - 1, b.box.x, l, ROLE_NORMAL);
	help_free(&b);
}

/* Scroll, close, or redraw the screen; every other key waits until the
 * help is closed. */
static bool
help_key(struct ui *u, void *st, int key)
{
	struct help_box b = {0};
	struct help *h = st;
	int rows, cols, page, top = h->top;

	if (keys_lookup(KC_HELP, key) == ACT_HELP_CLOSE) {
		ui_layer_pop(u, &help_ops);
		return true;
	}
	if (keys_lookup(KC_GLOBAL, key) == ACT_REDRAW) {
		clearok(curscr, TRUE);
		return true;
	}
	getmaxyx(stdscr, rows, cols);
	help_layout(&b, rows, cols, h->only);
	page = MAX(1, b.text.h - 1);
	switch (keys_lookup(KC_SCROLL, key)) {
	case ACT_DOWN:
		top++;
		break;
	case ACT_UP:
		top--;
		break;
	case ACT_PAGE_DOWN:
		top += page;
		break;
	case ACT_PAGE_UP:
		top -= page;
		break;
	case ACT_HALF_DOWN:
		top += MAX(1, b.text.h / 2);
		break;
	case ACT_HALF_UP:
		top -= MAX(1, b.text.h / 2);
		break;
	case ACT_TOP:
		top = 0;
		break;
	case ACT_BOTTOM:
		top = b.max_top;
		break;
	default:
		break;
	}
	h->top = MAX(0, MIN(top, b.max_top));
	help_free(&b);
	return true;
}

/* Free the state. */
static void
help_close(struct ui *u, void *st)
{
	(void)u;
	free(st);
}

static const struct pane_ops help_ops = {
	.name = "help",
	.modal = true,
	.draw = help_draw,
	.key = help_key,
	.close = help_close,
};

void
pane_help_open(struct ui *u, enum key_ctx only)
{
	struct help *h = xcalloc(1, sizeof *h);

	h->only = only;
	ui_layer_push(u, &help_ops, h);
}
