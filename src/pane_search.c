/* pane_search.c: the search on screen, two layers: the search itself over
 * the main panes (it draws nothing; its work between frames searches in
 * slices), and its prompt over the status bar while a pattern is typed
 * (the view follows the first match as it is typed, Esc goes back). The
 * match shown and n and N to the next ones, its matches highlighted in the
 * text the panes draw, and what the status bar says of it. search.c does
 * the searching, without curses. */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glyph.h"
#include "search.h"

/* Bytes of text searched (or input decoded) between two looks at the
 * keys: a few milliseconds, so that keys stay quick while it runs. */
#define SEARCH_BUDGET (1u << 20)

/* The search layer's state (the prompt's too). What is searched skips
 * what the filters hide (u->r.hide). */
struct psearch {
	struct search se;
	struct buf last; /* the last pattern searched for */
	/* The prompt, while its layer is on the stack. */
	char input[SEARCH_MAX_PATTERN + 1];
	size_t ninput;
	/* Where the view was when the prompt opened: Esc goes back there. */
	struct scroll ts0;
	uint32_t tsel0;
	struct list tl0;
	/* The match shown, and the one being looked for. */
	uint32_t mitem; /* NONE: none shown */
	uint32_t mocc;  /* which match of the item */
	bool seek;      /* go to a match once it is found */
	int seek_dir;
	uint32_t origin; /* from this item on (or before it) */
	char status[160];
};

static const struct pane_ops search_ops, prompt_ops;

/* The search over the main panes, or NULL. */
static struct psearch *
search_of(struct ui *u)
{
	struct layer *l = ui_layer_find(u, &search_ops);

	return l != NULL ? l->st : NULL;
}

/* --- matches --------------------------------------------------------------- */

/* The row of item it that holds its occ-th match (as far as the rows
 * show: a match cut by wrapping or folded away falls back to the last row
 * with one, or the first). */
static uint32_t
match_row(struct ui *u, struct psearch *n, uint32_t it, uint32_t occ)
{
	const struct block *b = render_item(&u->r, it);
	uint32_t seen = 0, last = 0;

	for (size_t i = 0; i < b->nrow; i++) {
		const struct rrow *row = &b->row[i];
		size_t a, e, from = 0;

		while (search_find(&n->se, b->text.p + row->off, row->len, from, &a, &e)) {
			if (seen++ == occ)
				return (uint32_t)i;
			last = (uint32_t)i;
			from = e;
		}
	}
	return last;
}

/* Show match occ of hit h. */
static void
goto_match(struct ui *u, struct psearch *n, size_t h, uint32_t occ)
{
	uint32_t it = n->se.hit[h].item;

	n->mitem = it;
	n->mocc = occ;
	u->tsel = NONE;
	if (u->m->it[it].type == IT_TOOL)
		ui_jump_select(u, it);
	ui_jump_reveal(u, it, match_row(u, n, it, occ));
	u->dirty = true;
}

/* Put the view back where it was when the prompt opened. */
static void
restore_view(struct ui *u, struct psearch *n)
{
	u->ts = n->ts0;
	u->tsel = n->tsel0;
	u->tl = n->tl0;
	u->dirty = true;
}

/* Go to the match being looked for, once the search has found it (or
 * knows there is none). */
static void
seek_match(struct ui *u, struct psearch *n)
{
	struct search *s = &n->se;
	size_t h;

	if (!n->seek || !search_active(s))
		return;
	h = search_hit_from(s, n->origin);
	if (n->seek_dir > 0) {
		if (h < s->nhit) {
			goto_match(u, n, h, 0);
		} else if (!search_done(s)) {
			return;
		} else if (s->nhit > 0) {
			goto_match(u, n, 0, 0);
			ui_note(u, "search went past the end: from the top");
		} else {
			n->mitem = NONE;
			if (ui_layer_find(u, &prompt_ops) != NULL)
				restore_view(u, n);
		}
	} else {
		/* Every hit before the origin must be known. */
		if (s->next <= n->origin && !search_done(s))
			return;
		if (h > 0) {
			goto_match(u, n, h - 1, s->hit[h - 1].count - 1);
		} else if (!search_done(s)) {
			return;
		} else if (s->nhit > 0) {
			goto_match(u, n, s->nhit - 1, s->hit[s->nhit - 1].count - 1);
			ui_note(u, "search went past the top: from the end");
		}
	}
	n->seek = false;
}

/* Search for pattern p, looking for a match from item origin on. */
static void
find_from(struct ui *u, struct psearch *n, const char *p, size_t len, uint32_t origin, int dir)
{
	search_set(&n->se, p, len, u->r.hide);
	n->mitem = NONE;
	n->origin = origin;
	n->seek_dir = dir;
	n->seek = len > 0;
	u->dirty = true;
}

/* From the match shown, or from the top of the screen when none is. */
void
pane_search_next(struct ui *u, int dir)
{
	struct psearch *n = search_of(u);
	struct search *s;
	size_t h;

	if (n == NULL)
		return;
	s = &n->se;
	if (!search_active(s)) {
		if (n->last.n == 0) {
			ui_note(u, "no search yet: / searches");
			return;
		}
		find_from(u, n, n->last.p, n->last.n, ui_jump_top(u), dir);
		return;
	}
	u->dirty = true;
	h = n->mitem == NONE ? s->nhit : search_hit_from(s, n->mitem);
	if (n->mitem == NONE || h >= s->nhit || s->hit[h].item != n->mitem ||
	    !ui_jump_on_screen(u, n->mitem, match_row(u, n, n->mitem, n->mocc))) {
		n->origin = ui_jump_top(u);
	} else if (dir > 0 && n->mocc + 1 < s->hit[h].count) {
		goto_match(u, n, h, n->mocc + 1);
		return;
	} else if (dir < 0 && n->mocc > 0) {
		goto_match(u, n, h, n->mocc - 1);
		return;
	} else {
		n->origin = dir > 0 ? n->mitem + 1 : n->mitem;
	}
	n->seek_dir = dir;
	n->seek = true;
	seek_match(u, n);
}

/* The prompt is done: keep the match, or go back. */
static void
prompt_close(struct ui *u, struct psearch *n, bool accept)
{
	ui_layer_pop(u, &prompt_ops);
	if (accept && n->ninput == 0 && n->last.n > 0) {
		/* An empty pattern searches for the last one again. */
		find_from(u, n, n->last.p, n->last.n, ui_jump_top(u), 1);
		return;
	}
	if (accept && n->ninput > 0) {
		buf_reset(&n->last);
		buf_add(&n->last, n->input, n->ninput);
		return;
	}
	restore_view(u, n);
	if (n->last.n > 0)
		search_set(&n->se, n->last.p, n->last.n, u->r.hide);
	else
		search_set(&n->se, "", 0, u->r.hide);
	n->mitem = NONE;
	n->seek = false;
}

/* The length of the last UTF-8 character of s[0..n). */
static size_t
last_char(const char *s, size_t n)
{
	size_t k = n;

	while (k > 0 && ((unsigned char)s[k - 1] & 0xC0) == 0x80)
		k--;
	return k > 0 ? n - k + 1 : n;
}

/* A key typed in the prompt: edit the pattern and search as it changes;
 * Enter keeps the match, Esc goes back. */
static bool
prompt_key(struct ui *u, void *st, int key)
{
	struct psearch *n = st;
	size_t before = n->ninput;

	switch (keys_lookup(KC_PROMPT, key)) {
	case ACT_PROMPT_ACCEPT:
		prompt_close(u, n, true);
		return true;
	case ACT_PROMPT_CANCEL:
		prompt_close(u, n, false);
		return true;
	case ACT_PROMPT_ERASE:
		if (n->ninput == 0) {
			prompt_close(u, n, false);
			return true;
		}
		n->ninput -= last_char(n->input, n->ninput);
		break;
	case ACT_PROMPT_CLEAR:
		n->ninput = 0;
		break;
	default:
		/* A printable character joins the pattern. */
		if (key >= 0x20 && key != 0x7F && key < K_FIRST && !(key >= 0x80 && key < 0xA0)) {
			struct buf b = {0};

			buf_add_utf8(&b, (uint32_t)key);
			if (n->ninput + b.n <= SEARCH_MAX_PATTERN) {
				memcpy(n->input + n->ninput, b.p, b.n);
				n->ninput += b.n;
			}
			buf_free(&b);
		}
		break;
	}
	if (n->ninput != before) {
		n->input[n->ninput] = '\0';
		restore_view(u, n);
		find_from(u, n, n->input, n->ninput, ui_jump_top(u), 1);
	}
	return true;
}

void
pane_search_open(struct ui *u)
{
	struct psearch *n = search_of(u);

	if (n == NULL)
		return;
	ui_layer_push(u, &prompt_ops, n);
	n->ninput = 0;
	n->ts0 = u->ts;
	n->tsel0 = u->tsel;
	n->tl0 = u->tl;
	/* While typing, the view starts from the top of the screen. */
	n->ts0.follow = false;
	u->dirty = true;
}

/* The prompt, over the status bar. */
static void
prompt_draw(struct ui *u, void *st)
{
	struct psearch *n = st;
	struct rline *l = &u->line;
	const struct rect *r = &u->lay.status;
	size_t w = (size_t)MAX(r->w, 0);
	const char *status = pane_search_status(u);

	if (r->h <= 0 || w == 0)
		return;
	rline_reset(l);
	rline_adds(l, "/", ROLE_STATUS, w);
	/* The end of a long pattern shows, as in a shell. */
	{
		size_t pw = text_width(n->input, n->ninput), skip = 0;

		while (pw + 2 > w && skip < n->ninput) {
			/* One UTF-8 character less at the front. */
			skip++;
			while (skip < n->ninput && ((unsigned char)n->input[skip] & 0xC0) == 0x80)
				skip++;
			pw = text_width(n->input + skip, n->ninput - skip);
		}
		rline_add(l, n->input + skip, n->ninput - skip, ROLE_STATUS, w);
	}
	rline_adds(l, " ", ROLE_SELECTION, w);
	if (status != NULL && l->width + strlen(status) + 3 < w) {
		rline_pad(l, w - text_width(status, strlen(status)) - 1, ROLE_STATUS);
		rline_adds(l, status, ROLE_STATUS, w);
	}
	rline_pad(l, w, ROLE_STATUS);
	ui_draw_rline(u, r->y, r->x, l, ROLE_NORMAL);
}

/* The prompt takes every key; its state is the search's (not its own). */
static const struct pane_ops prompt_ops = {
	.name = "search prompt",
	.modal = true,
	.draw = prompt_draw,
	.key = prompt_key,
};

/* --- the search's life --------------------------------------------------- */

void
pane_search_again(struct ui *u)
{
	struct psearch *n = search_of(u);
	struct buf pat = {0};

	if (n == NULL || !search_active(&n->se))
		return;
	/* search_set resets the pattern it is given a copy of. */
	buf_add(&pat, n->se.pat.p, n->se.pat.n);
	find_from(u, n, pat.p, pat.n, ui_jump_top(u), 1);
	buf_free(&pat);
}

/* A slice of searching (true while there is more). */
static bool
search_work(struct ui *u, void *st)
{
	struct psearch *n = st;
	bool more;

	if (!search_active(&n->se))
		/* Once the input is read, decode ahead what a search needs,
		 * so that the first one is as fast as the next. */
		return input_done(u->in) && search_warm(&n->se, SEARCH_BUDGET);
	if (search_done(&n->se) && n->se.seen_nev == u->m->nev &&
	    n->se.seen_ended == model_ended(u->m) && !n->seek)
		return false;
	more = search_step(&n->se, SEARCH_BUDGET);
	seek_match(u, n);
	u->dirty = true;
	return more;
}

/* The input was read again, or another model is shown: what was found no
 * longer holds (the pattern stays). */
static void
search_reset(struct ui *u, void *st)
{
	struct psearch *n = st;

	if (n->se.m != u->m) {
		search_free(&n->se);
		search_init(&n->se, u->m);
	} else {
		search_restart(&n->se);
	}
	n->mitem = NONE;
}

static void
search_close(struct ui *u, void *st)
{
	struct psearch *n = st;

	(void)u;
	search_free(&n->se);
	buf_free(&n->last);
	free(n);
}

static const struct pane_ops search_ops = {
	.name = "search",
	.work = search_work,
	.reset = search_reset,
	.close = search_close,
};

void
pane_search_push(struct ui *u)
{
	struct psearch *n = xcalloc(1, sizeof *n);

	search_init(&n->se, u->m);
	n->mitem = NONE;
	ui_layer_push(u, &search_ops, n);
}

const char *
pane_search_status(struct ui *u)
{
	struct psearch *n = search_of(u);
	struct search *s;
	struct buf b = {0};

	if (n == NULL)
		return NULL;
	s = &n->se;
	if (search_active(s)) {
		bool done = search_done(s);
		size_t h = n->mitem == NONE ? s->nhit : search_hit_from(s, n->mitem);

		if (h < s->nhit && s->hit[h].item == n->mitem)
			buf_addf(&b, "match %llu/%llu%s",
				 (unsigned long long)(s->hit[h].before + n->mocc + 1),
				 (unsigned long long)s->total, done ? "" : "+");
		else if (s->total > 0)
			buf_addf(&b, "%llu match%s%s", (unsigned long long)s->total,
				 s->total == 1 ? "" : "es", done ? "" : "+");
		else if (done)
			buf_adds(&b, "no match");
		if (!done && model_nitems(u->m) > 0)
			buf_addf(&b, "%ssearching %d%%", b.n > 0 ? " " : "",
				 (int)((uint64_t)s->next * 100 / model_nitems(u->m)));
	}
	if (u->r.hide != 0) {
		if (b.n > 0)
			buf_adds(&b, " " GLYPH_DOT " ");
		buf_adds(&b, "hiding ");
		jump_filter_names(u->r.hide, &b);
	}
	snprintf(n->status, sizeof n->status, "%s", b.p ? b.p : "");
	buf_free(&b);
	return n->status[0] != '\0' ? n->status : NULL;
}

/* --- matches in the text drawn ---------------------------------------------- */

uint64_t
pane_search_hash(struct ui *u)
{
	struct psearch *n = search_of(u);
	struct search *se = n != NULL ? &n->se : NULL;

	if (se == NULL || !search_active(se))
		return HASH_START;
	return ui_hash(ui_hash(HASH_START, "/", 1), se->pat.p, se->pat.n);
}

/* Whether s[i..n) starts with a code point of no width (a combining
 * mark, a joiner); its length in *len. */
static bool
zero_width_at(const char *s, size_t n, size_t i, size_t *len)
{
	uint32_t cp;

	if (i >= n || (unsigned char)s[i] < 0x80)
		return false;
	*len = utf8_decode(s + i, n - i, &cp);
	return text_cpwidth(cp) == 0;
}

/* A match is widened to whole characters, marks and joiners with their
 * base: a part drawn on its own would start with a mark (see ui_put). */
void
pane_search_put(struct ui *u, const char *s, size_t n, enum role role)
{
	struct psearch *ps = search_of(u);
	struct search *se = ps != NULL ? &ps->se : NULL;
	size_t from = 0, a, b, len;

	if (se != NULL && search_active(se)) {
		while (search_find(se, s, n, from, &a, &b)) {
			/* Back to the code point before, over UTF-8
			 * continuation bytes. */
			while (a > from && zero_width_at(s, n, a, &len)) {
				do
					a--;
				while (a > from && ((unsigned char)s[a] & 0xC0) == 0x80);
			}
			while (zero_width_at(s, n, b, &len))
				b += len;
			ui_put(u, s + from, a - from, role);
			ui_put(u, s + a, b - a, ROLE_MATCH);
			from = b;
		}
	}
	ui_put(u, s + from, n - from, role);
}
