/* ui_nav.c: moving around on screen: the search prompt and its matches,
 * filters, opening a call's detail. Called from ui.c
 * through a few hooks (nav_key, nav_work, nav_draw, nav_status); the pure
 * parts are in search.c and jump.c, positions and jumps in ui_jump.c. */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

/* Bytes of text searched (or input decoded) between two looks at the
 * keys: a few milliseconds, so that keys stay quick while it runs. */
#define SEARCH_BUDGET (1u << 20)

struct nav {
	struct search se;
	unsigned hide;           /* item types hidden: 1 << IT_... */
	/* The prompt. */
	bool prompting;
	char input[SEARCH_MAX_PATTERN + 1];
	size_t ninput;
	struct buf last;         /* the last pattern searched for */
	/* Where the view was when the prompt opened: Esc goes back there. */
	struct scroll ts0;
	uint32_t tsel0;
	struct list tl0;
	/* The match shown, and the one being looked for. */
	uint32_t mitem;          /* NONE: none shown */
	uint32_t mocc;           /* which match of the item */
	bool seek;               /* go to a match once it is found */
	int seek_dir;
	uint32_t origin;         /* from this item on (or before it) */
	uint64_t restarts;
	char status[160];
};

/* --- search ---------------------------------------------------------------- */

/* The row of item it that holds its occ-th match (as far as the rows
 * show: a match cut by wrapping or folded away falls back to the last row
 * with one, or the first). */
static uint32_t
match_row(struct ui *u, uint32_t it, uint32_t occ)
{
	const struct block *b = render_item(&u->r, it);
	uint32_t seen = 0, last = 0;

	for (size_t i = 0; i < b->nrow; i++) {
		const struct rrow *row = &b->row[i];
		size_t a, e, from = 0;

		while (search_find(&u->nav->se, b->text.p + row->off, row->len,
				   from, &a, &e)) {
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
goto_match(struct ui *u, size_t h, uint32_t occ)
{
	struct nav *n = u->nav;
	uint32_t it = n->se.hit[h].item;

	n->mitem = it;
	n->mocc = occ;
	u->tsel = NONE;
	if (u->m->it[it].type == IT_TOOL)
		ui_jump_select(u, it);
	ui_jump_reveal(u, it, match_row(u, it, occ));
	u->dirty = true;
}

/* Put the view back where it was when the prompt opened. */
static void
restore_view(struct ui *u)
{
	struct nav *n = u->nav;

	u->ts = n->ts0;
	u->tsel = n->tsel0;
	u->tl = n->tl0;
	u->dirty = true;
}

/* Go to the match being looked for, once the search has found it (or
 * knows there is none). */
static void
nav_seek(struct ui *u)
{
	struct nav *n = u->nav;
	struct search *s = &n->se;
	size_t h;

	if (!n->seek || !search_active(s))
		return;
	h = search_hit_from(s, n->origin);
	if (n->seek_dir > 0) {
		if (h < s->nhit) {
			goto_match(u, h, 0);
		} else if (!search_done(s)) {
			return;
		} else if (s->nhit > 0) {
			goto_match(u, 0, 0);
			ui_note(u, "search went past the end: from the top");
		} else {
			n->mitem = NONE;
			if (n->prompting)
				restore_view(u);
		}
	} else {
		/* Every hit before the origin must be known. */
		if (s->next <= n->origin && !search_done(s))
			return;
		if (h > 0) {
			goto_match(u, h - 1, s->hit[h - 1].count - 1);
		} else if (!search_done(s)) {
			return;
		} else if (s->nhit > 0) {
			goto_match(u, s->nhit - 1, s->hit[s->nhit - 1].count - 1);
			ui_note(u, "search went past the top: from the end");
		}
	}
	n->seek = false;
}

/* Search for pattern p, looking for a match from item origin on. */
static void
nav_search(struct ui *u, const char *p, size_t len, uint32_t origin, int dir)
{
	struct nav *n = u->nav;

	search_set(&n->se, p, len, n->hide);
	n->mitem = NONE;
	n->origin = origin;
	n->seek_dir = dir;
	n->seek = len > 0;
	u->dirty = true;
}

/* n and N: the match after or before the one shown, or from the top of
 * the screen when none is. */
static void
nav_next_match(struct ui *u, int dir)
{
	struct nav *n = u->nav;
	struct search *s = &n->se;
	size_t h;

	if (!search_active(s)) {
		if (n->last.n == 0) {
			ui_note(u, "no search yet: / searches");
			return;
		}
		nav_search(u, n->last.p, n->last.n, ui_jump_top(u), dir);
		return;
	}
	u->dirty = true;
	h = n->mitem == NONE ? s->nhit : search_hit_from(s, n->mitem);
	if (n->mitem == NONE || h >= s->nhit || s->hit[h].item != n->mitem ||
	    !ui_jump_on_screen(u, n->mitem, match_row(u, n->mitem, n->mocc))) {
		n->origin = ui_jump_top(u);
	} else if (dir > 0 && n->mocc + 1 < s->hit[h].count) {
		goto_match(u, h, n->mocc + 1);
		return;
	} else if (dir < 0 && n->mocc > 0) {
		goto_match(u, h, n->mocc - 1);
		return;
	} else {
		n->origin = dir > 0 ? n->mitem + 1 : n->mitem;
	}
	n->seek_dir = dir;
	n->seek = true;
	nav_seek(u);
}

/* The prompt is done: keep the match, or go back. */
static void
prompt_close(struct ui *u, bool accept)
{
	struct nav *n = u->nav;

	n->prompting = false;
	u->dirty = true;
	if (accept && n->ninput == 0 && n->last.n > 0) {
		/* An empty pattern searches for the last one again. */
		nav_search(u, n->last.p, n->last.n, ui_jump_top(u), 1);
		return;
	}
	if (accept && n->ninput > 0) {
		buf_reset(&n->last);
		buf_add(&n->last, n->input, n->ninput);
		return;
	}
	restore_view(u);
	if (n->last.n > 0)
		search_set(&n->se, n->last.p, n->last.n, n->hide);
	else
		search_set(&n->se, "", 0, n->hide);
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

/* A key typed in the prompt: edit the pattern and search as it changes. */
static void
prompt_key(struct ui *u, int key)
{
	struct nav *n = u->nav;
	size_t before = n->ninput;

	u->dirty = true;
	switch (keys_lookup(KC_PROMPT, key)) {
	case ACT_PROMPT_ACCEPT:
		prompt_close(u, true);
		return;
	case ACT_PROMPT_CANCEL:
		prompt_close(u, false);
		return;
	case ACT_PROMPT_ERASE:
		if (n->ninput == 0) {
			prompt_close(u, false);
			return;
		}
		n->ninput -= last_char(n->input, n->ninput);
		break;
	case ACT_PROMPT_CLEAR:
		n->ninput = 0;
		break;
	default:
		/* A printable character joins the pattern. */
		if (key >= 0x20 && key != 0x7F && key < K_FIRST &&
		    !(key >= 0x80 && key < 0xA0)) {
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
		restore_view(u);
		nav_search(u, n->input, n->ninput, ui_jump_top(u), 1);
	}
}

/* Open the prompt, remembering where the view is. */
static void
prompt_open(struct ui *u)
{
	struct nav *n = u->nav;

	n->prompting = true;
	n->ninput = 0;
	n->ts0 = u->ts;
	n->tsel0 = u->tsel;
	n->tl0 = u->tl;
	/* While typing, the view starts from the top of the screen. */
	n->ts0.follow = false;
	u->dirty = true;
}

/* --- filters and the detail ----------------------------------------------- */

/* Hide or show a kind of item; the search follows what is shown. */
static void
nav_filter(struct ui *u, enum action a)
{
	struct nav *n = u->nav;
	unsigned bit = jump_filter_mask(a);

	n->hide ^= bit;
	render_set_hidden(&u->r, n->hide);
	if (u->tsel != NONE && u->tsel < model_nitems(u->m) &&
	    (n->hide & (1u << u->m->it[u->tsel].type)))
		u->tsel = NONE;
	scroll_fix(&u->ts, &u->rows, ui_body_height(u, PANE_TRANSCRIPT));
	if (search_active(&n->se)) {
		struct buf pat = {0};

		/* search_set resets the pattern it is given a copy of. */
		buf_add(&pat, n->se.pat.p, n->se.pat.n);
		nav_search(u, pat.p, pat.n, ui_jump_top(u), 1);
		buf_free(&pat);
	}
	ui_note(u, "%s %s", (n->hide & bit) ? "hiding" : "showing",
		a == ACT_HIDE_THINKING ? "thinking"
		: a == ACT_HIDE_TOOLS  ? "tool calls"
		: a == ACT_HIDE_NOTICES ? "notices"
					: "diagnostics and stderr");
}

/* Enter: the timeline's call, or the transcript's selected call when it
 * shows, or the first call on screen. */
static void
nav_open_detail(struct ui *u)
{
	uint32_t it = NONE;

	if (u->focus == PANE_TIMELINE) {
		if (u->tl.sel != NONE && u->tl.sel < model_ncalls(u->m)) {
			pane_detail_open(u, u->tl.sel);
			return;
		}
	} else if (u->tsel != NONE && u->tsel < model_nitems(u->m) &&
		   u->m->it[u->tsel].type == IT_TOOL && ui_jump_on_screen(u, u->tsel, 0)) {
		it = u->tsel;
	} else {
		it = ui_jump_first_call(u);
	}
	if (it == NONE) {
		ui_note(u, "no tool call here: ] goes to the next one");
		return;
	}
	ui_jump_select(u, it);
	pane_detail_open(u, u->m->it[it].ref);
}

/* --- hooks ------------------------------------------------------------------- */

void
nav_init(struct ui *u)
{
	struct nav *n = xcalloc(1, sizeof *n);

	u->nav = n;
	search_init(&n->se, u->m);
	n->mitem = NONE;
	n->restarts = u->restarts;
}

void
nav_free(struct ui *u)
{
	if (u->nav == NULL)
		return;
	search_free(&u->nav->se);
	buf_free(&u->nav->last);
	free(u->nav);
	u->nav = NULL;
}

bool
nav_modal(const struct ui *u)
{
	return u->nav != NULL && u->nav->prompting;
}

bool
nav_key(struct ui *u, int key)
{
	struct nav *n = u->nav;
	enum action a;

	if (n == NULL)
		return false;
	if (n->prompting) {
		prompt_key(u, key);
		return true;
	}
	a = keys_lookup(KC_GLOBAL, key);
	switch (a) {
	case ACT_SEARCH:
		prompt_open(u);
		return true;
	case ACT_SEARCH_NEXT:
		nav_next_match(u, 1);
		return true;
	case ACT_SEARCH_PREV:
		nav_next_match(u, -1);
		return true;
	case ACT_PREV_TOOL:
	case ACT_NEXT_TOOL:
		ui_jump(u, JUMP_TOOL, a == ACT_NEXT_TOOL ? 1 : -1);
		return true;
	case ACT_PREV_PROMPT:
	case ACT_NEXT_PROMPT:
		ui_jump(u, JUMP_PROMPT, a == ACT_NEXT_PROMPT ? 1 : -1);
		return true;
	case ACT_NEXT_PROBLEM:
		ui_jump(u, JUMP_PROBLEM, 1);
		return true;
	case ACT_HIDE_THINKING:
	case ACT_HIDE_TOOLS:
	case ACT_HIDE_NOTICES:
	case ACT_HIDE_DIAGS:
		nav_filter(u, a);
		return true;
	default:
		break;
	}
	if (keys_lookup(KC_SCROLL, key) == ACT_DETAIL) {
		u->dirty = true;
		nav_open_detail(u);
		return true;
	}
	return false;
}

bool
nav_work(struct ui *u)
{
	struct nav *n = u->nav;
	bool more;

	if (n == NULL)
		return false;
	if (u->restarts != n->restarts) {
		/* The input was read again: nothing found before holds. */
		n->restarts = u->restarts;
		search_restart(&n->se);
		n->mitem = NONE;
	}
	if (!search_active(&n->se))
		/* Once the input is read, decode ahead what a search needs,
		 * so that the first one is as fast as the next. */
		return input_done(u->in) && search_warm(&n->se, SEARCH_BUDGET);
	if (search_done(&n->se) && n->se.seen_nev == u->m->nev &&
	    n->se.seen_ended == model_ended(u->m) && !n->seek)
		return false;
	more = search_step(&n->se, SEARCH_BUDGET);
	nav_seek(u);
	u->dirty = true;
	return more;
}

uint64_t
nav_highlight(struct ui *u)
{
	struct search *se = u->nav != NULL ? &u->nav->se : NULL;

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

/* Draw s[0..n) at the cursor in role, its matches highlighted. A match is
 * widened to whole characters, marks and joiners with their base: a part
 * drawn on its own would start with a mark (see ui_put). */
void
nav_draw_text(struct ui *u, const char *s, size_t n, enum role role)
{
	struct search *se = u->nav != NULL ? &u->nav->se : NULL;
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

/* The prompt, over the status bar. */
static void
draw_prompt(struct ui *u)
{
	struct nav *n = u->nav;
	struct rline *l = &u->line;
	const struct rect *r = &u->lay.status;
	size_t w = (size_t)MAX(r->w, 0);
	const char *st = nav_status(u);

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
			while (skip < n->ninput &&
			       ((unsigned char)n->input[skip] & 0xC0) == 0x80)
				skip++;
			pw = text_width(n->input + skip, n->ninput - skip);
		}
		rline_add(l, n->input + skip, n->ninput - skip, ROLE_STATUS, w);
	}
	rline_adds(l, " ", ROLE_SELECTION, w);
	if (st != NULL && l->width + strlen(st) + 3 < w) {
		rline_pad(l, w - text_width(st, strlen(st)) - 1, ROLE_STATUS);
		rline_adds(l, st, ROLE_STATUS, w);
	}
	rline_pad(l, w, ROLE_STATUS);
	ui_draw_rline(u, r->y, r->x, l, ROLE_NORMAL);
}

void
nav_draw(struct ui *u)
{
	if (u->nav != NULL && u->nav->prompting)
		draw_prompt(u);
}

const char *
nav_status(struct ui *u)
{
	struct nav *n = u->nav;
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
	if (n->hide != 0) {
		if (b.n > 0)
			buf_adds(&b, " \xC2\xB7 ");
		buf_adds(&b, "hiding ");
		jump_filter_names(n->hide, &b);
	}
	snprintf(n->status, sizeof n->status, "%s", b.p ? b.p : "");
	buf_free(&b);
	return n->status[0] != '\0' ? n->status : NULL;
}
