/* pane_search.c: the search on screen, two layers: the search itself over
 * the main panes (it draws nothing; its work between frames searches in
 * slices), and its prompt over the status bar while a pattern is typed
 * (the view follows the first match as it is typed, Esc goes back). The
 * match shown and n and N to the next ones, in reverse among the others,
 * a fold opened for it; a match in a call's detail said in the status bar
 * ("in Shell npm test stderr") and opened there by Enter; & and its
 * filter of the items shown; what the status bar says of them. A detail
 * searches itself through the same prompt and pattern (its hooks).
 * search.c does the searching, without curses. */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail.h"
#include "glyph.h"
#include "search.h"

/* Bytes of text searched (or input decoded) between two looks at the
 * keys: a few milliseconds, so that keys stay quick while it runs. */
#define SEARCH_BUDGET (1u << 20)
/* Cells of a call's target in the status bar's "in Shell npm test
 * stderr". */
#define WHERE_WHAT_CELLS 24

/* Where the match shown is drawn in its item's rows, as last found. */
struct mark {
	uint32_t item, occ; /* NONE: nothing found yet */
	uint32_t gen, last_ev, search_gen;
	int width;
	bool thinking;
	bool found;
	uint32_t row;
	size_t a, b; /* bytes of the row's text */
};

/* The search layer's state (the prompt's too). What is searched skips
 * what the filters hide (u->r.hide) and, with &, the items not shown. */
struct psearch {
	struct search se;
	struct buf last; /* the last pattern searched for */
	/* The prompt, while its layer is on the stack. */
	char input[SEARCH_MAX_PATTERN + 1];
	size_t ninput;
	bool filtering;                   /* the prompt is &'s */
	const struct search_hooks *hooks; /* the prompt searches a detail */
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
	bool hush;       /* "no match" was said, and a key came after it */
	struct mark at;
	/* Where a match in a call's detail is, in words: of (witem, wocc). */
	struct detail wd;
	uint32_t witem, wocc, wgen;
	struct buf where;
	/* The filter (&): its search, and the items it shows as bits. */
	struct search fl;
	struct buf fpat;
	uint64_t *pick;
	size_t pickcap; /* words */
	size_t picked;  /* hits of fl set in pick */
	uint32_t pick_last;
	bool fl_done;
	/* What a detail open over the panes says of its matches, or "". */
	char scope[96];
	char status[320];
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

/* Whether match occ of item it is one the transcript shows (else it is
 * in the item's call's detail). */
static bool
occ_shown(const struct search *s, uint32_t it, uint32_t occ)
{
	size_t h = search_hit_from(s, it);

	return h >= s->nhit || s->hit[h].item != it || occ < s->hit[h].shown;
}

/* Find the row of item it that holds its occ-th match, and the match's
 * bytes in it; false (row: the last with a match, or the first) when the
 * rows do not show it whole (a match cut by wrapping or folded away). */
static bool
find_row(struct ui *u, struct psearch *n, uint32_t it, uint32_t occ, uint32_t *rowp, size_t *ap,
	 size_t *bp)
{
	const struct block *b = render_item(&u->r, it);
	uint32_t seen = 0, last = 0;

	for (size_t i = 0; i < b->nrow; i++) {
		const struct rrow *row = &b->row[i];
		size_t a, e, from = 0;

		while (search_find(&n->se, b->text.p + row->off, row->len, from, &a, &e)) {
			if (seen++ == occ) {
				*rowp = (uint32_t)i;
				*ap = a;
				*bp = e;
				return true;
			}
			last = (uint32_t)i;
			from = e;
		}
	}
	*rowp = last;
	return false;
}

/* The row of item it that holds its occ-th match (its call's row when
 * the match is in the detail). */
static uint32_t
match_row(struct ui *u, struct psearch *n, uint32_t it, uint32_t occ)
{
	uint32_t row = 0;
	size_t a, b;

	if (occ_shown(&n->se, it, occ))
		find_row(u, n, it, occ, &row, &a, &b);
	return row;
}

bool
pane_search_mark(struct ui *u, uint32_t it, uint32_t row, size_t *a, size_t *b)
{
	struct psearch *n = search_of(u);
	struct mark *k;

	if (n == NULL || n->mitem != it || it == NONE || !search_active(&n->se))
		return false;
	k = &n->at;
	/* Found again when what the rows are made of changed. */
	if (k->item != it || k->occ != n->mocc || k->gen != u->r.gen || k->width != u->r.width ||
	    k->thinking != (u->r.thinking || u->r.unfold == it) ||
	    k->last_ev != u->m->it[it].last_ev || k->search_gen != n->se.gen) {
		k->item = it;
		k->occ = n->mocc;
		k->gen = u->r.gen;
		k->width = u->r.width;
		k->thinking = u->r.thinking || u->r.unfold == it;
		k->last_ev = u->m->it[it].last_ev;
		k->search_gen = n->se.gen;
		k->found = occ_shown(&n->se, it, n->mocc) &&
			   find_row(u, n, it, n->mocc, &k->row, &k->a, &k->b);
	}
	if (!k->found || k->row != row)
		return false;
	*a = k->a;
	*b = k->b;
	return true;
}

/* Show match occ of hit h: its row on screen, a folded thinking that
 * holds it opened; a match in a call's detail selects the call. */
static void
goto_match(struct ui *u, struct psearch *n, size_t h, uint32_t occ)
{
	uint32_t it = n->se.hit[h].item;

	n->mitem = it;
	n->mocc = occ;
	n->hush = false;
	u->tsel = NONE;
	render_set_unfold(&u->r, u->m->it[it].type == IT_THINKING ? it : NONE);
	if (occ >= n->se.hit[h].shown)
		ui_jump_select(u, it);
	ui_jump_reveal(u, it, match_row(u, n, it, occ));
	u->dirty = true;
}

/* No match is shown: the fold opened for one closes. */
static void
forget_match(struct ui *u, struct psearch *n)
{
	n->mitem = NONE;
	render_set_unfold(&u->r, NONE);
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
			forget_match(u, n);
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
	forget_match(u, n);
	n->hush = false;
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
	n->hush = false;
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

bool
pane_search_detail_at(struct ui *u, uint32_t *call, uint64_t *j)
{
	struct psearch *n = search_of(u);
	size_t h;

	if (n == NULL || n->mitem == NONE || !search_active(&n->se) ||
	    u->m->it[n->mitem].type != IT_TOOL || (u->tsel != NONE && u->tsel != n->mitem) ||
	    !ui_jump_on_screen(u, n->mitem, 0))
		return false;
	h = search_hit_from(&n->se, n->mitem);
	if (h >= n->se.nhit || n->se.hit[h].item != n->mitem)
		return false;
	*call = u->m->it[n->mitem].ref;
	*j = n->mocc >= n->se.hit[h].shown ? n->mocc - n->se.hit[h].shown : UINT64_MAX;
	return true;
}

const struct search *
pane_search_get(struct ui *u)
{
	struct psearch *n = search_of(u);

	return n != NULL && search_active(&n->se) ? &n->se : NULL;
}

void
pane_search_scope(struct ui *u, const char *s)
{
	struct psearch *n = search_of(u);

	if (n != NULL)
		snprintf(n->scope, sizeof n->scope, "%s", s != NULL ? s : "");
}

/* --- the prompt -------------------------------------------------------------- */

/* The prompt is done: keep the match (or the filter), or go back. */
static void
prompt_close(struct ui *u, struct psearch *n, bool accept)
{
	const struct search_hooks *hooks = n->hooks;

	ui_layer_pop(u, &prompt_ops);
	n->hooks = NULL;
	if (n->filtering) {
		if (accept)
			pane_search_filter(u, n->input, n->ninput);
		return;
	}
	if (accept && n->ninput == 0 && n->last.n > 0) {
		/* An empty pattern searches for the last one again. */
		if (hooks != NULL) {
			search_set(&n->se, n->last.p, n->last.n, u->r.hide);
			hooks->typed(u, hooks->ctx);
		} else {
			find_from(u, n, n->last.p, n->last.n, ui_jump_top(u), 1);
		}
	} else if (accept && n->ninput > 0) {
		buf_reset(&n->last);
		buf_add(&n->last, n->input, n->ninput);
	} else {
		if (hooks == NULL)
			restore_view(u, n);
		search_set(&n->se, n->last.p != NULL ? n->last.p : "", n->last.n, u->r.hide);
		forget_match(u, n);
		n->seek = false;
	}
	if (hooks != NULL)
		hooks->done(u, hooks->ctx, accept);
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

/* The pattern typed changed: search for it (a filter waits for Enter). */
static void
prompt_changed(struct ui *u, struct psearch *n)
{
	n->input[n->ninput] = '\0';
	if (n->filtering) {
		u->dirty = true;
	} else if (n->hooks != NULL) {
		search_set(&n->se, n->input, n->ninput, u->r.hide);
		forget_match(u, n);
		n->seek = false;
		n->hooks->typed(u, n->hooks->ctx);
		u->dirty = true;
	} else {
		restore_view(u, n);
		find_from(u, n, n->input, n->ninput, ui_jump_top(u), 1);
	}
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
	if (n->ninput != before)
		prompt_changed(u, n);
	return true;
}

/* Open the prompt: of the filter, of a detail's search (hooks), or of
 * the transcript's. */
static void
prompt_open(struct ui *u, bool filtering, const struct search_hooks *hooks)
{
	struct psearch *n = search_of(u);

	if (n == NULL)
		return;
	ui_layer_push(u, &prompt_ops, n);
	n->ninput = 0;
	n->input[0] = '\0';
	n->filtering = filtering;
	n->hooks = hooks;
	n->ts0 = u->ts;
	n->tsel0 = u->tsel;
	n->tl0 = u->tl;
	/* While typing, the view starts from the top of the screen. */
	n->ts0.follow = false;
	u->dirty = true;
}

void
pane_search_open(struct ui *u)
{
	prompt_open(u, false, NULL);
}

void
pane_search_prompt(struct ui *u, const struct search_hooks *hooks)
{
	prompt_open(u, false, hooks);
}

void
pane_search_filter_open(struct ui *u)
{
	prompt_open(u, true, NULL);
}

/* The prompt, over the status bar. */
static void
prompt_draw(struct ui *u, void *st)
{
	struct psearch *n = st;
	struct rline *l = &u->line;
	const struct rect *r = &u->lay.status;
	size_t w = (size_t)MAX(r->w, 0);
	const char *status = n->filtering ? NULL : pane_search_status(u);
	const char *where = n->filtering || status == NULL ? NULL : pane_search_where(u);
	struct buf said = {0};

	if (r->h <= 0 || w == 0)
		return;
	if (where != NULL) {
		buf_addf(&said, "%s " GLYPH_DOT " %s", status, where);
		status = said.p;
	}
	rline_reset(l);
	rline_adds(l, n->filtering ? "&" : "/", ROLE_STATUS, w);
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
	buf_free(&said);
}

/* Gone with what it was typed over (the input read again, the detail
 * closed): nothing is kept or told. */
static void
prompt_reset(struct ui *u, void *st)
{
	struct psearch *n = st;

	n->hooks = NULL;
	ui_layer_pop(u, &prompt_ops);
}

/* The prompt takes every key; its state is the search's (not its own). */
static const struct pane_ops prompt_ops = {
	.name = "search prompt",
	.modal = true,
	.draw = prompt_draw,
	.key = prompt_key,
	.reset = prompt_reset,
};

/* --- the filter (&) ------------------------------------------------------------ */

/* Make pick hold bits for every item there is. */
static void
pick_grow(struct psearch *n, size_t items)
{
	size_t words = (items + 63) / 64, had = n->pickcap;

	if (words <= n->pickcap)
		return;
	ARRAY_RESERVE(n->pick, n->pickcap, words);
	memset(n->pick + had, 0, (n->pickcap - had) * sizeof *n->pick);
}

/* No item picked yet: the filter's search starts again. */
static void
pick_clear(struct psearch *n)
{
	n->picked = 0;
	n->fl_done = false;
	if (n->pick != NULL)
		memset(n->pick, 0, n->pickcap * sizeof *n->pick);
}

/* The filter's matches into pick, and pick to the renderer and the
 * search: what was found since, or all again when the filter's search
 * went back over items it had found. */
static void
pick_update(struct ui *u, struct psearch *n)
{
	const struct search *f = &n->fl;
	size_t items = model_nitems(u->m);

	pick_grow(n, items);
	if (f->nhit < n->picked || (n->picked > 0 && f->hit[n->picked - 1].item != n->pick_last)) {
		memset(n->pick, 0, n->pickcap * sizeof *n->pick);
		n->picked = 0;
	}
	for (; n->picked < f->nhit; n->picked++) {
		uint32_t it = f->hit[n->picked].item;

		n->pick[it / 64] |= (uint64_t)1 << (it % 64);
		n->pick_last = it;
	}
	render_set_only(&u->r, n->pick, items);
	n->se.only = n->pick;
	n->se.nonly = items;
	if (u->tsel != NONE && u->tsel < items && !render_shown(&u->r, u->tsel))
		u->tsel = NONE;
	scroll_fix(&u->ts, &u->rows, ui_body_height(u, PANE_TRANSCRIPT));
}

void
pane_search_filter(struct ui *u, const char *p, size_t len)
{
	struct psearch *n = search_of(u);

	if (n == NULL)
		return;
	buf_reset(&n->fpat);
	buf_add(&n->fpat, p, MIN(len, (size_t)SEARCH_MAX_PATTERN));
	search_set(&n->fl, p, len, u->r.hide);
	pick_clear(n);
	if (len == 0) {
		render_set_only(&u->r, NULL, 0);
		search_only(&n->se, NULL, 0);
		ui_note(u, "every item shown");
	} else {
		pick_update(u, n);
		search_only(&n->se, n->pick, model_nitems(u->m));
	}
	scroll_fix(&u->ts, &u->rows, ui_body_height(u, PANE_TRANSCRIPT));
	pane_search_again(u);
	u->dirty = true;
}

/* --- the search's life --------------------------------------------------- */

void
pane_search_again(struct ui *u)
{
	struct psearch *n = search_of(u);
	struct buf pat = {0};

	if (n == NULL)
		return;
	if (search_active(&n->fl)) {
		/* search_set resets the pattern it is given. */
		buf_add(&pat, n->fl.pat.p, n->fl.pat.n);
		search_set(&n->fl, pat.p, pat.n, u->r.hide);
		pick_clear(n);
		buf_reset(&pat);
	}
	if (search_active(&n->se)) {
		buf_add(&pat, n->se.pat.p, n->se.pat.n);
		find_from(u, n, pat.p, pat.n, ui_jump_top(u), 1);
	}
	buf_free(&pat);
}

/* A slice of the filter's search; true while there is more. */
static bool
filter_work(struct ui *u, struct psearch *n)
{
	bool more = search_step(&n->fl, SEARCH_BUDGET);

	pick_update(u, n);
	u->dirty = true;
	if (!more && !n->fl_done) {
		/* The items shown are known: the search starts over them. */
		n->fl_done = true;
		if (search_active(&n->se)) {
			struct buf pat = {0};

			buf_add(&pat, n->se.pat.p, n->se.pat.n);
			find_from(u, n, pat.p, pat.n, ui_jump_top(u), 1);
			buf_free(&pat);
		}
	}
	return more;
}

/* A slice of searching (true while there is more). */
static bool
search_work(struct ui *u, void *st)
{
	struct psearch *n = st;
	bool more;

	if (search_active(&n->fl) &&
	    (!search_done(&n->fl) || n->fl.seen_nev != u->m->nev ||
	     n->fl.seen_ended != model_ended(u->m)) &&
	    filter_work(u, n))
		/* What a search looks in waits for the filter. */
		return true;
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

/* A key on its way down to the main panes: a "no match" said goes. */
static bool
search_key(struct ui *u, void *st, int key)
{
	struct psearch *n = st;

	(void)key;
	if (search_active(&n->se) && search_done(&n->se) && n->se.total == 0 && !n->hush) {
		n->hush = true;
		u->dirty = true;
	}
	return false;
}

/* The input was read again, or another model is shown: what was found no
 * longer holds (the patterns stay). */
static void
search_reset(struct ui *u, void *st)
{
	struct psearch *n = st;

	if (n->se.m != u->m) {
		struct buf pat = {0};

		buf_add(&pat, n->fl.pat.p, n->fl.pat.n);
		search_free(&n->se);
		search_init(&n->se, u->m);
		search_free(&n->fl);
		search_init(&n->fl, u->m);
		detail_free(&n->wd);
		detail_init(&n->wd, u->m);
		search_set(&n->fl, pat.p, pat.n, u->r.hide);
		buf_free(&pat);
	} else {
		search_restart(&n->se);
		search_restart(&n->fl);
	}
	pick_clear(n);
	if (search_active(&n->fl)) {
		pick_update(u, n);
		search_only(&n->se, n->pick, model_nitems(u->m));
	} else {
		render_set_only(&u->r, NULL, 0);
	}
	n->witem = NONE;
	n->at.item = NONE;
	forget_match(u, n);
}

static void
search_close(struct ui *u, void *st)
{
	struct psearch *n = st;

	render_set_only(&u->r, NULL, 0);
	render_set_unfold(&u->r, NONE);
	search_free(&n->se);
	search_free(&n->fl);
	detail_free(&n->wd);
	buf_free(&n->last);
	buf_free(&n->fpat);
	buf_free(&n->where);
	free(n->pick);
	free(n);
}

static const struct pane_ops search_ops = {
	.name = "search",
	.key = search_key,
	.work = search_work,
	.reset = search_reset,
	.close = search_close,
};

void
pane_search_push(struct ui *u)
{
	struct psearch *n = xcalloc(1, sizeof *n);

	search_init(&n->se, u->m);
	search_init(&n->fl, u->m);
	detail_init(&n->wd, u->m);
	n->mitem = NONE;
	n->witem = NONE;
	n->at.item = NONE;
	ui_layer_push(u, &search_ops, n);
}

/* --- what the status bar says ------------------------------------------------ */

/* "in Shell npm test stderr": the call and the part of its detail that
 * holds match occ of hit h, which is in the detail. */
static const char *
where_said(struct ui *u, struct psearch *n, size_t h, uint32_t occ)
{
	const struct search_hit *hit = &n->se.hit[h];
	uint32_t c = u->m->it[hit->item].ref;
	struct detail *d = &n->wd;
	struct buf part = {0};
	const char *name = NULL;
	size_t row, a, b, used;

	if (n->witem == hit->item && n->wocc == occ && n->wgen == n->se.gen &&
	    !detail_stale(d, 1000))
		return n->where.p;
	n->witem = hit->item;
	n->wocc = occ;
	n->wgen = n->se.gen;
	if (d->call != c || d->raw || detail_stale(d, 1000))
		detail_build(d, c, 1000, false);
	if (search_detail_match(&n->se, d, occ - hit->shown, &row, &a, &b))
		name = detail_part(d, row, &part);
	buf_reset(&n->where);
	buf_adds(&n->where, "in ");
	tool_label((enum tool_kind)u->m->call[c].kind, d->td.key.p, d->td.key.n, &n->where);
	if (d->td.what.n > 0) {
		struct buf what = {0};

		buf_addc(&n->where, ' ');
		text_sanitize(&what, d->td.what.p, d->td.what.n, TEXT_ONELINE);
		if (text_width(what.p, what.n) > WHERE_WHAT_CELLS) {
			buf_add(&n->where, what.p,
				text_fit(what.p, what.n, WHERE_WHAT_CELLS - 1, &used));
			buf_adds(&n->where, GLYPH_ELLIPSIS);
		} else {
			buf_add(&n->where, what.p, what.n);
		}
		buf_free(&what);
	}
	buf_addc(&n->where, ' ');
	buf_adds(&n->where, name != NULL ? name : "detail");
	buf_free(&part);
	return n->where.p;
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
	if (n->scope[0] != '\0') {
		buf_adds(&b, n->scope);
	} else if (search_active(s)) {
		bool done = search_done(s);
		size_t h = n->mitem == NONE ? s->nhit : search_hit_from(s, n->mitem);

		if (h < s->nhit && s->hit[h].item == n->mitem) {
			buf_addf(&b, "match %llu/%llu%s",
				 (unsigned long long)(s->hit[h].before + n->mocc + 1),
				 (unsigned long long)s->total, done ? "" : "+");
		} else if (s->total > 0) {
			buf_addf(&b, "%llu match%s%s", (unsigned long long)s->total,
				 s->total == 1 ? "" : "es", done ? "" : "+");
		} else if (done && !n->hush) {
			buf_adds(&b, "no match");
		}
		if (!done && model_nitems(u->m) > 0)
			buf_addf(&b, "%ssearching %d%%", b.n > 0 ? " " : "",
				 (int)((uint64_t)s->next * 100 / model_nitems(u->m)));
	}
	if (search_active(&n->fl)) {
		if (b.n > 0)
			buf_adds(&b, " " GLYPH_DOT " ");
		buf_addc(&b, '&');
		buf_add(&b, n->fpat.p, n->fpat.n);
		buf_addf(&b, ": %zu item%s%s", n->fl.nhit, n->fl.nhit == 1 ? "" : "s",
			 search_done(&n->fl) ? "" : "+");
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

const char *
pane_search_where(struct ui *u)
{
	struct psearch *n = search_of(u);
	struct search *s = n != NULL ? &n->se : NULL;
	size_t h;

	if (s == NULL || !search_active(s) || n->mitem == NONE || n->scope[0] != '\0')
		return NULL;
	h = search_hit_from(s, n->mitem);
	if (h >= s->nhit || s->hit[h].item != n->mitem || n->mocc < s->hit[h].shown)
		return NULL;
	return where_said(u, n, h, n->mocc);
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
 * base: a part drawn on its own would start with a mark (see ui_put).
 * Matches are looked for from a little before the row (no match is
 * longer than 4 bytes a code point of the pattern). */
void
pane_search_put_line(struct ui *u, const char *t, size_t la, size_t lb, size_t ra, size_t rb,
		     enum role role, size_t ca, size_t cb)
{
	struct psearch *ps = search_of(u);
	struct search *se = ps != NULL ? &ps->se : NULL;
	size_t at = ra, from, a, b, len;
	enum role cur = role == ROLE_SELECTION ? ROLE_NORMAL : ROLE_MATCH_CURRENT;

	if (se != NULL && search_active(se)) {
		from = ra - la > 4 * se->npcp ? ra - 4 * se->npcp : la;
		while (from > la && ((unsigned char)t[from] & 0xC0) == 0x80)
			from--;
		while (at < rb && search_find(se, t + la, lb - la, from - la, &a, &b)) {
			a += la;
			b += la;
			from = b;
			if (b <= at)
				continue;
			if (a >= rb)
				break;
			/* Back to the code point before, over UTF-8
			 * continuation bytes. */
			while (a > at && zero_width_at(t, rb, a, &len)) {
				do
					a--;
				while (a > at && ((unsigned char)t[a] & 0xC0) == 0x80);
			}
			while (zero_width_at(t, rb, b, &len))
				b += len;
			a = MAX(a, at);
			b = MIN(b, rb);
			ui_put(u, t + at, a - at, role);
			ui_put(u, t + a, b - a, ca < b && cb > a ? cur : ROLE_MATCH);
			at = b;
		}
	}
	ui_put(u, t + at, rb - at, role);
}

void
pane_search_put(struct ui *u, const char *s, size_t n, enum role role)
{
	pane_search_put_line(u, s, 0, n, 0, n, role, SIZE_MAX, SIZE_MAX);
}
