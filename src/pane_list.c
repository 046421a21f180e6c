/* pane_list.c: the session list, the bottom layer when agentview opens a
 * folder, several files or none (issue 15): the summary line, the column
 * titles, one row per session (listview.c chooses them, fleet.h lays each
 * out) after a cell that marks the ones new since you looked, or what an
 * empty list says; the status bar or the filter being typed. Enter opens
 * the session selected in the main panes over the list (its own model and
 * input, in place of the empty ones the screen started with); q or Esc
 * there comes back to the list at the same row, ( and ) go to the list's
 * previous and next session. Y, o and e take the session selected from
 * its file. The fleet is read in the screen's
 * loop (pane_list_work), a slice at a time, so keys work while a big
 * folder is read; state changes are told by notify.h. */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "fleet_print.h"
#include "fleet_take.h"
#include "glyph.h"
#include "listview.h"
#include "notify.h"
#include "remote.h"
#include "text.h"

/* Microseconds of reading a fleet_update may take in one turn of the loop. */
#define LIST_BUDGET_US 20000
/* The summary line and the column titles above the rows, the status bar
 * under them. */
#define LIST_TOP 2

struct plist {
	struct fleet *f;       /* not owned */
	struct notifier *tell; /* not owned; NULL: no notifications */
	struct listview lv;
	struct model *base_m; /* the screen's own (empty) model and input */
	struct input *base_in;
	struct model *m; /* the session open, or NULL */
	struct input *in;
	bool prompt;                      /* the filter is being typed */
	char before[LISTVIEW_FILTER_MAX]; /* the filter before it (Esc) */
	bool opened;                      /* a session was opened: read it at once */
	uint32_t reveal;                  /* the session of the file to show from its
				      start once it is read, or LISTVIEW_NONE */
	bool ticking;                     /* a clock runs on the rows shown */
	bool loaded;                      /* the first look read every file */
	int64_t all_rows_us;              /* clock_mono_us when a frame first showed
				      them all (AGENTVIEW_FRAMESTAT), or 0 */
	int64_t exact_us;                 /* when every row became its whole file's,
				      the middles read (FLEET_GAPS), or 0 */
	int64_t drawn_sec;                /* the wall second last drawn */
	struct buf line, text;
};

/* The theme's role for a state's glyph and word. */
static enum role
list_state_role(enum fleet_state st)
{
	static const enum role roles[FS_NSTATES] = {
		[FS_WAITING] = ROLE_STATUS_WARN, [FS_FAILED] = ROLE_TOOL_FAILED,
		[FS_RUNNING] = ROLE_RUNNING,     [FS_INCOMPLETE] = ROLE_TOOL_ORPHANED,
		[FS_DONE] = ROLE_TOOL_OK,        [FS_FILE] = ROLE_DIM,
	};

	return (unsigned)st < FS_NSTATES ? roles[st] : ROLE_NORMAL;
}

/* Put s[0..n) at row y from column 0 in role, blanks to the end of the
 * row; the first `head` cells in role head_role (the state). Skipped when
 * the row shows it already. */
static void
list_put_row(struct ui *u, int y, const char *s, size_t n, enum role role, size_t head,
	     enum role head_role)
{
	uint64_t h = ui_hash(HASH_START, s, n);
	size_t cut = 0, used = text_width(s, n);

	h = ui_hash(h, &role, sizeof role);
	h = ui_hash(h, &head_role, sizeof head_role);
	if (ui_drawn(u, y, 0, COLS, h))
		return;
	move(y, 0);
	if (head > 0) {
		cut = text_fit(s, n, head, NULL);
		ui_put(u, s, cut, head_role);
	}
	ui_put(u, s + cut, n - cut, role);
	/* Not from the cursor: it does not move past the last column. */
	move(y, (int)used);
	if ((int)used < COLS)
		ui_blank(u, COLS - (int)used, role);
}

/* Where no row is shown: what the list says instead (listview_empty),
 * wrapped to the screen, from the second row under the titles. */
static void
list_draw_empty(struct ui *u, struct plist *pl, int height)
{
	struct text_rows rows = {0};

	buf_reset(&pl->text);
	if (pl->loaded)
		listview_empty(&pl->lv, pl->f, getenv("HOME"), &pl->text);
	if (pl->text.n > 0)
		text_wrap(&rows, pl->text.p, pl->text.n, (size_t)MAX(COLS, 1));
	for (int y = 0; y < height; y++) {
		const struct text_row *r = y > 0 && (size_t)y <= rows.n ? &rows.v[y - 1] : NULL;

		list_put_row(u, LIST_TOP + y, r != NULL ? pl->text.p + r->off : "",
			     r != NULL ? r->len : 0, ROLE_NORMAL, 0, ROLE_NORMAL);
	}
	text_rows_free(&rows);
}

/* The rows shown, from the summary line to the status bar: each after a
 * cell that marks a session that ended since you looked. */
static void
list_draw_rows(struct ui *u, struct plist *pl, int64_t now, int height)
{
	struct fleet_colw cols[FC_NCOLS];
	int ncols = fleet_columns(MAX(COLS, 40) - 1, cols);
	bool ticking = false;

	buf_reset(&pl->line);
	fleet_summary(pl->f, false, &pl->line);
	list_put_row(u, 0, pl->line.p, pl->line.n, ROLE_TITLE, 0, ROLE_TITLE);
	buf_reset(&pl->line);
	buf_addc(&pl->line, ' ');
	fleet_header(cols, ncols, &pl->line);
	list_put_row(u, 1, pl->line.p, pl->line.n, ROLE_DIM, 0, ROLE_DIM);
	listview_scroll(&pl->lv, height);
	if (pl->lv.n == 0) {
		list_draw_empty(u, pl, height);
		pl->ticking = false;
		return;
	}
	for (int i = 0; i < height; i++) {
		size_t at = pl->lv.top + (size_t)i;
		const struct fleet_row *r;
		bool sel;

		if (at >= pl->lv.n) {
			list_put_row(u, LIST_TOP + i, "", 0, ROLE_NORMAL, 0, ROLE_NORMAL);
			continue;
		}
		r = fleet_row(pl->f, pl->lv.v[at]);
		sel = at == pl->lv.sel;
		ticking |= r->state == FS_RUNNING || r->state == FS_WAITING;
		buf_reset(&pl->line);
		buf_adds(&pl->line, listview_fresh(&pl->lv, pl->lv.v[at]) ? GLYPH_NEW : " ");
		fleet_line(pl->f, pl->lv.v[at], cols, ncols, now, &pl->line);
		list_put_row(u, LIST_TOP + i, pl->line.p, pl->line.n,
			     sel ? ROLE_SELECTION : ROLE_NORMAL,
			     sel ? 0 : (size_t)cols[0].width + 1,
			     list_state_role((enum fleet_state)r->state));
	}
	pl->ticking = ticking;
	pl->drawn_sec = now / 1000;
}

/* The status bar: the filter being typed, a note, or the list's state. */
static void
list_draw_status(struct ui *u, struct plist *pl)
{
	buf_reset(&pl->text);
	if (pl->prompt) {
		buf_adds(&pl->text, "filter: ");
		text_sanitize(&pl->text, pl->lv.filter, strlen(pl->lv.filter), TEXT_ONELINE);
		buf_adds(&pl->text, "_");
	} else if (u->note[0] != '\0') {
		buf_adds(&pl->text, u->note);
	} else {
		listview_status(&pl->lv, pl->f, &pl->text);
		buf_adds(&pl->text, "  (Enter: open, w: next waiting, /: filter, ?: help)");
	}
	list_put_row(u, LINES - 1, pl->text.p,
		     text_fit(pl->text.p, pl->text.n, (size_t)MAX(COLS, 0), NULL), ROLE_STATUS, 0,
		     ROLE_STATUS);
}

static void
list_draw(struct ui *u, void *st)
{
	struct plist *pl = st;
	int64_t now = clock_wall_ms();

	if (ui_too_small(u, LINES))
		return;
	list_draw_rows(u, pl, now, LINES - LIST_TOP - 1);
	list_draw_status(u, pl);
	if (pl->loaded && pl->all_rows_us == 0)
		pl->all_rows_us = clock_mono_us();
}

/* Open the session selected over the list, from its file. */
static void
list_open(struct ui *u, struct plist *pl)
{
	uint32_t row = listview_selected(&pl->lv);
	const struct fleet_row *r;
	struct buf err = {0}, use = {0};
	struct model *m;
	struct input *in;
	bool running, fetching;

	if (row == LISTVIEW_NONE)
		return;
	r = fleet_row(pl->f, row);
	if (r->state == FS_FILE) {
		buf_reset(&pl->text);
		text_sanitize(&pl->text, r->how, strlen(r->how), TEXT_ONELINE);
		ui_note(u, "%s: not a session to open", pl->text.p);
		return;
	}
	/* A row an agentview on the remote made: its file is on its way. */
	if (fleet_row_early(pl->f, row)) {
		buf_reset(&pl->text);
		text_sanitize(&pl->text, remote_show(fleet_path(pl->f, row)),
			      strlen(remote_show(fleet_path(pl->f, row))), TEXT_ONELINE);
		ui_note(u, "%s: still coming over ssh, a moment", pl->text.p);
		return;
	}
	/* A remote's big file came as its head and tail: opened at once, on
	 * a copy that grows as the rest comes (followed until then). */
	if (!remote_open(fleet_path(pl->f, row), &use, &fetching, &err)) {
		ui_note(u, "%s", err.p);
		buf_free(&err);
		buf_free(&use);
		return;
	}
	running = r->state == FS_RUNNING || r->state == FS_WAITING || fetching;
	m = model_new();
	m->agent = pl->base_m->agent;
	m->may_wait = fleet_row_may_wait(pl->f, row);
	in = xcalloc(1, sizeof *in);
	/* Followed while it runs; read as it is when it is over, as its
	 * row says (not live, its clock not running from its start). */
	input_init(in, m, running);
	/* Its CLI (or anyone) may cut the file short while it is shown: read
	 * into memory, not mapped (a mapping dies of SIGBUS). */
	in->copy = true;
	if (input_add_path(in, use.p, &err) != 0) {
		ui_note(u, "%s", err.p);
		input_free(in);
		free(in);
		model_free(m);
		buf_free(&err);
		buf_free(&use);
		return;
	}
	buf_free(&use);
	pl->lv.sel_row = row;
	pl->m = m;
	pl->in = in;
	pl->opened = true;
	/* A file of several sessions: show the one of the row, not the file's
	 * first (or its last, when following). */
	pl->reveal = r->index > 0 && !(r->flags & FR_GAP) ? r->index : LISTVIEW_NONE;
	listview_seen(&pl->lv, row);
	ui_session(u, m, in, running);
	pane_main_open(u);
	ui_note(u, "q or Esc: back to the list " GLYPH_DOT " ( and ): its previous, next session");
}

/* Show the session the row stands for from its first item, once the
 * input has read that far. */
static void
list_reveal(struct ui *u, struct plist *pl)
{
	uint32_t it;

	if (pl->m == NULL || pl->reveal == LISTVIEW_NONE || model_nsessions(pl->m) <= pl->reveal)
		return;
	it = pl->m->ses[pl->reveal].first_item;
	if (it == NONE || it >= model_nitems(pl->m))
		return;
	pl->reveal = LISTVIEW_NONE;
	u->ts.top = model_order_pos(pl->m, it);
	u->ts.row = 0;
	u->ts.follow = false;
	u->tl.follow = false;
	u->tsel = it;
	u->dirty = true;
}

/* Back from the session open to the list, at the row it was opened from. */
static void
list_back(struct ui *u, struct plist *pl)
{
	pane_main_close(u);
	ui_session(u, pl->base_m, pl->base_in, false);
	input_free(pl->in);
	free(pl->in);
	model_free(pl->m);
	pl->in = NULL;
	pl->m = NULL;
	listview_refresh(&pl->lv, pl->f, clock_wall_ms());
	/* What the session's view said is not the list's: q quits here. */
	u->note[0] = '\0';
	u->held[0] = '\0';
}

/* ( and ) in a session opened from the list: the list's previous or next
 * session, opened in its place. */
static void
list_step_session(struct ui *u, struct plist *pl, long dir)
{
	/* At either end the session stays open (q goes back). */
	if (pl->lv.n == 0 || (dir < 0 && pl->lv.sel == 0) ||
	    (dir > 0 && pl->lv.sel + 1 >= pl->lv.n)) {
		ui_note(u, "the %s session of the list", dir > 0 ? "last" : "first");
		return;
	}
	list_back(u, pl);
	listview_move(&pl->lv, dir);
	list_open(u, pl);
}

/* Y, o and e on the session selected: the command that resumes it on the
 * clipboard, the session as text in the pager, its folder in the editor;
 * each taken from its file (fleet_print.h). */
static void
list_take(struct ui *u, struct plist *pl, enum action a)
{
	uint32_t row = listview_selected(&pl->lv);
	struct buf b = {0}, why = {0};
	const struct fleet_row *r;
	const char *path;
	int agent = pl->base_m->agent;

	if (row == LISTVIEW_NONE)
		return;
	r = fleet_row(pl->f, row);
	path = fleet_path(pl->f, row);
	if (r->state == FS_FILE) {
		ui_note(u, "not a session");
	} else if (!remote_whole(path, REMOTE_WHOLE_MS, &why)) {
		ui_note(u, "%s", why.p);
	} else if (a == ACT_COPY_RESUME) {
		if (fleet_session_resume(path, r->offset, agent, &b, &why))
			ui_take_copy(u, "resume command", b.p, b.n);
		else
			ui_note(u, "%s", why.p);
	} else if (a == ACT_PAGER) {
		if (fleet_session_text(path, r->offset, agent,
				       r->state == FS_RUNNING || r->state == FS_WAITING, &b, &why))
			ui_take_page(u, b.p, b.n, remote_host_of(path));
		else
			ui_note(u, "%s", why.p);
	} else if (a == ACT_EDIT && remote_host_of(path) != NULL) {
		/* Its folder is another machine's: its file instead, a copy. */
		ui_take_edit_copy(u, path, remote_host_of(path));
	} else if (a == ACT_EDIT) {
		if (fleet_session_cwd(path, r->offset, agent, &b, &why))
			ui_take_edit_dir(u, b.p);
		else
			ui_note(u, "%s", why.p);
	}
	buf_free(&b);
	buf_free(&why);
}

/* A key while the filter is typed: it filters as it goes; Enter keeps it,
 * Esc puts back the one before. */
static bool
list_prompt_key(struct plist *pl, int key)
{
	int64_t now = clock_wall_ms();

	switch (keys_lookup(KC_PROMPT, key)) {
	case ACT_PROMPT_ACCEPT:
		pl->prompt = false;
		break;
	case ACT_PROMPT_CANCEL:
		pl->prompt = false;
		listview_filter_edit(&pl->lv, pl->f, now, 0);
		for (const char *p = pl->before; *p != '\0';) {
			uint32_t cp;
			size_t k = utf8_decode(p, strlen(p), &cp);

			listview_filter_edit(&pl->lv, pl->f, now, (long)cp);
			p += MAX(k, (size_t)1);
		}
		break;
	case ACT_PROMPT_ERASE:
		listview_filter_edit(&pl->lv, pl->f, now, -1);
		break;
	case ACT_PROMPT_CLEAR:
		listview_filter_edit(&pl->lv, pl->f, now, 0);
		break;
	default:
		if (key >= 0x20 && key < K_FIRST)
			listview_filter_edit(&pl->lv, pl->f, now, key);
		break;
	}
	return true;
}

/* Moving the selection with the transcript's keys. */
static bool
list_step(struct ui *u, struct plist *pl, enum action a)
{
	long page = MAX(LINES - LIST_TOP - 2, 1);

	switch (a) {
	case ACT_DOWN:
	case ACT_UP:
		listview_move(&pl->lv, a == ACT_DOWN ? 1 : -1);
		return true;
	case ACT_PAGE_DOWN:
	case ACT_PAGE_UP:
		listview_move(&pl->lv, a == ACT_PAGE_DOWN ? page : -page);
		return true;
	case ACT_HALF_DOWN:
	case ACT_HALF_UP:
		listview_move(&pl->lv, a == ACT_HALF_DOWN ? page / 2 : -page / 2);
		return true;
	case ACT_TOP:
	case ACT_BOTTOM:
		listview_move(&pl->lv, a == ACT_TOP ? -(long)pl->lv.n : (long)pl->lv.n);
		return true;
	case ACT_DETAIL:
		list_open(u, pl);
		return true;
	default:
		return false;
	}
}

/* The list's keys; with a session open over it, only q and Esc (back),
 * ( and ) (the list's previous and next session). */
static bool
list_key(struct ui *u, void *st, int key)
{
	struct plist *pl = st;
	enum action a = keys_lookup(KC_LIST, key);

	if (pl->m != NULL) {
		if (a == ACT_LIST_BACK)
			list_back(u, pl);
		else if (a == ACT_LIST_PREV || a == ACT_LIST_NEXT)
			list_step_session(u, pl, a == ACT_LIST_NEXT ? 1 : -1);
		return a == ACT_LIST_BACK || a == ACT_LIST_PREV || a == ACT_LIST_NEXT;
	}
	if (pl->prompt)
		return list_prompt_key(pl, key);
	if (keys_lookup(KC_GLOBAL, key) == ACT_HELP) {
		pane_help_open(u, KC_LIST);
		return true;
	}
	switch (a) {
	case ACT_LIST_OPEN:
		list_open(u, pl);
		return true;
	case ACT_LIST_SORT:
		listview_sort_next(&pl->lv, pl->f, clock_wall_ms());
		ui_note(u, "sorted by %s", fleet_sort_name(pl->lv.sort));
		return true;
	case ACT_LIST_REVERSE:
		listview_reverse(&pl->lv, pl->f, clock_wall_ms());
		ui_note(u, "%s order%s", fleet_sort_name(pl->lv.sort),
			pl->lv.reverse ? ", reversed" : "");
		return true;
	case ACT_LIST_HIDE:
		listview_hide_over(&pl->lv, pl->f, clock_wall_ms());
		ui_note(u, "done and incomplete sessions %s",
			pl->lv.hide_over ? "hidden" : "shown");
		return true;
	case ACT_LIST_NEXT_ATTENTION:
	case ACT_LIST_PREV_ATTENTION:
		if (!listview_attention(&pl->lv, pl->f, a == ACT_LIST_NEXT_ATTENTION ? 1 : -1))
			ui_note(u, "no session shown waits for a decision or failed");
		return true;
	case ACT_COPY_RESUME:
	case ACT_PAGER:
	case ACT_EDIT:
		list_take(u, pl, a);
		return true;
	case ACT_LIST_FILTER:
		pl->prompt = true;
		memcpy(pl->before, pl->lv.filter, sizeof pl->before);
		return true;
	case ACT_LIST_BACK:
		/* Esc on the list empties the filter; q quits. */
		if (key != K_ESC || pl->lv.filter[0] == '\0')
			return false;
		listview_filter_edit(&pl->lv, pl->f, clock_wall_ms(), 0);
		return true;
	default:
		return list_step(u, pl, keys_lookup(KC_SCROLL, key));
	}
}

/* The wheel moves the selection; a click selects a row, a click on the
 * selected one opens it. */
static bool
list_mouse(struct ui *u, void *st, const struct ui_mouse *ev)
{
	struct plist *pl = st;
	size_t at;

	if (pl->m != NULL)
		return false;
	if (ev->wheel != 0) {
		listview_move(&pl->lv, ev->wheel);
		return true;
	}
	if (!ev->click || ev->y < LIST_TOP || ev->y >= LINES - 1)
		return false;
	at = pl->lv.top + (size_t)(ev->y - LIST_TOP);
	if (at >= pl->lv.n)
		return true;
	if (at == pl->lv.sel)
		list_open(u, pl);
	else
		listview_move(&pl->lv, (long)at - (long)pl->lv.sel);
	return true;
}

static void
list_close(struct ui *u, void *st)
{
	struct plist *pl = st;

	if (pl->m != NULL) {
		ui_session(u, pl->base_m, pl->base_in, false);
		input_free(pl->in);
		free(pl->in);
		model_free(pl->m);
	}
	if (u->opt.framestat)
		fprintf(stderr,
			"agentview-framestat-list: rows=%zu all_rows_ms=%.1f exact_ms=%.1f\n",
			fleet_nrows(pl->f),
			pl->all_rows_us > 0 ? (double)(pl->all_rows_us - u->opt.started_us) / 1000
					    : -1.0,
			pl->exact_us > 0 ? (double)(pl->exact_us - u->opt.started_us) / 1000
					 : -1.0);
	fleet_on_change(pl->f, NULL, NULL);
	listview_free(&pl->lv);
	buf_free(&pl->line);
	buf_free(&pl->text);
	free(pl);
}

/* A row's state changed: tell it (done, failed, waiting); one that ended
 * is new since you looked, unless you are looking at it. */
static void
list_changed(void *ctx, struct fleet *f, uint32_t row, enum fleet_state was)
{
	struct plist *pl = ctx;
	enum fleet_state now = (enum fleet_state)fleet_row(f, row)->state;

	(void)was;
	if ((now == FS_DONE || now == FS_FAILED || now == FS_INCOMPLETE) &&
	    !(pl->m != NULL && pl->lv.sel_row == row))
		listview_mark(&pl->lv, row);
	if (pl->tell != NULL && notify_wanted(now))
		notify_row(pl->tell, f, row, clock_wall_ms());
}

/* Read what changed, a slice at a time (true while the first look goes
 * on, or a session was just opened). */
static bool
list_work(struct ui *u, void *st)
{
	struct plist *pl = st;
	int64_t now = clock_wall_ms();

	if (fleet_update(pl->f, now, LIST_BUDGET_US) != 0) {
		listview_refresh(&pl->lv, pl->f, now);
		u->dirty |= pl->m == NULL;
	}
	/* The session open: whether its process still works (a store's word,
	 * which its own lines may lack). */
	if (pl->m != NULL && pl->m->may_wait != fleet_row_may_wait(pl->f, pl->lv.sel_row)) {
		pl->m->may_wait = !pl->m->may_wait;
		u->dirty = true;
	}
	if (!pl->loaded && !fleet_loading(pl->f)) {
		pl->loaded = true;
		u->dirty = true;
	}
	if (pl->loaded && pl->exact_us == 0 && !fleet_gaps_left(pl->f))
		pl->exact_us = clock_mono_us();
	/* A new second on a clock the list shows. */
	if (pl->m == NULL && pl->ticking && now / 1000 != pl->drawn_sec)
		u->dirty = true;
	list_reveal(u, pl);
	if (pl->opened) {
		/* The loop read the input before the key that opened it. */
		pl->opened = false;
		return true;
	}
	return fleet_loading(pl->f) || fleet_gaps_left(pl->f);
}

/* The folders' watch. */
static int
list_fd(struct ui *u, void *st)
{
	struct plist *pl = st;

	(void)u;
	return fleet_fd(pl->f);
}

/* When it must look again (a polled folder, a clock on the rows shown). */
static int
list_due(struct ui *u, void *st)
{
	struct plist *pl = st;

	(void)u;
	return fleet_timeout(pl->f, clock_wall_ms(), pl->m == NULL && pl->ticking);
}

static const struct pane_ops list_ops = {
	.name = "list",
	.opaque = true,
	.draw = list_draw,
	.key = list_key,
	.mouse = list_mouse,
	.work = list_work,
	.fd = list_fd,
	.due = list_due,
	.close = list_close,
};

void
pane_list_open(struct ui *u)
{
	struct plist *pl = xcalloc(1, sizeof *pl);

	pl->f = u->opt.fleet;
	pl->tell = u->opt.tell;
	pl->base_m = u->m;
	pl->base_in = u->in;
	listview_init(&pl->lv);
	fleet_on_change(pl->f, list_changed, pl);
	ui_layer_push(u, &list_ops, pl);
}
