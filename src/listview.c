/* listview.c: the session list's screen model: the rows shown, the
 * selection, the filter as it is typed, the status bar's words. */
#include "listview.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "glyph.h"
#include "text.h"

void
listview_init(struct listview *lv)
{
	memset(lv, 0, sizeof *lv);
	lv->sort = FSORT_ATTENTION;
	lv->sel_row = LISTVIEW_NONE;
}

void
listview_free(struct listview *lv)
{
	free(lv->v);
	free(lv->fresh);
	listview_init(lv);
}

/* Whether a row is over and needs nothing: what x hides. */
static bool
over(const struct fleet *f, uint32_t row)
{
	uint8_t st = fleet_row(f, row)->state;

	return st == FS_DONE || st == FS_INCOMPLETE || st == FS_FILE;
}

void
listview_refresh(struct listview *lv, const struct fleet *f, int64_t now_ms)
{
	size_t rows = fleet_nrows(f), k = 0;

	ARRAY_RESERVE(lv->v, lv->cap, rows + 1);
	lv->n = fleet_rows(f, lv->sort, lv->filter, now_ms, lv->v, rows);
	for (size_t i = 0; i < lv->n; i++)
		if (!lv->hide_over || !over(f, lv->v[i]))
			lv->v[k++] = lv->v[i];
	lv->n = k;
	for (size_t i = 0; lv->reverse && i < lv->n / 2; i++) {
		uint32_t t = lv->v[i];

		lv->v[i] = lv->v[lv->n - 1 - i];
		lv->v[lv->n - 1 - i] = t;
	}
	if (lv->n == 0) {
		lv->sel = 0;
		lv->top = 0;
		return;
	}
	/* Find the session selected where it is now. Not shown (filtered
	 * out), the selection stays at its place and goes back to the session
	 * when it is shown again; none chosen yet, it is on the first row. */
	for (size_t i = 0; i < lv->n && lv->sel_row != LISTVIEW_NONE; i++) {
		if (lv->v[i] == lv->sel_row) {
			lv->sel = i;
			return;
		}
	}
	lv->sel = lv->sel_row == LISTVIEW_NONE ? 0 : MIN(lv->sel, lv->n - 1);
}

void
listview_move(struct listview *lv, long delta)
{
	long to;

	if (lv->n == 0)
		return;
	to = (long)lv->sel + delta;
	if (delta < 0 && -delta > (long)lv->sel)
		to = 0;
	else if (to >= (long)lv->n || (delta > 0 && to < (long)lv->sel))
		to = (long)lv->n - 1;
	lv->sel = (size_t)to;
	lv->sel_row = lv->v[lv->sel];
}

uint32_t
listview_selected(const struct listview *lv)
{
	return lv->n > 0 ? lv->v[lv->sel] : LISTVIEW_NONE;
}

void
listview_sort_next(struct listview *lv, const struct fleet *f, int64_t now_ms)
{
	lv->sort = (enum fleet_sort)((lv->sort + 1) % FSORT_COUNT);
	listview_refresh(lv, f, now_ms);
}

void
listview_reverse(struct listview *lv, const struct fleet *f, int64_t now_ms)
{
	lv->reverse = !lv->reverse;
	listview_refresh(lv, f, now_ms);
}

void
listview_hide_over(struct listview *lv, const struct fleet *f, int64_t now_ms)
{
	lv->hide_over = !lv->hide_over;
	listview_refresh(lv, f, now_ms);
}

bool
listview_attention(struct listview *lv, const struct fleet *f, int dir)
{
	for (size_t k = 1; k <= lv->n; k++) {
		size_t i = dir > 0 ? (lv->sel + k) % lv->n : (lv->sel + lv->n - k % lv->n) % lv->n;
		uint8_t st = fleet_row(f, lv->v[i])->state;

		if (st == FS_WAITING || st == FS_FAILED) {
			lv->sel = i;
			lv->sel_row = lv->v[i];
			return true;
		}
	}
	return false;
}

void
listview_mark(struct listview *lv, uint32_t row)
{
	if (row >= lv->nfresh) {
		size_t n = MAX((size_t)row + 1, lv->nfresh * 2);

		lv->fresh = xreallocarray(lv->fresh, n, 1);
		memset(lv->fresh + lv->nfresh, 0, n - lv->nfresh);
		lv->nfresh = n;
	}
	lv->fresh[row] = 1;
}

void
listview_seen(struct listview *lv, uint32_t row)
{
	if (row < lv->nfresh)
		lv->fresh[row] = 0;
}

bool
listview_fresh(const struct listview *lv, uint32_t row)
{
	return row < lv->nfresh && lv->fresh[row];
}

void
listview_filter_edit(struct listview *lv, const struct fleet *f, int64_t now_ms, long cp)
{
	size_t len = strlen(lv->filter);

	if (cp == 0) {
		len = 0;
	} else if (cp < 0) {
		/* Back over one code point's continuation bytes. */
		while (len > 0 && ((unsigned char)lv->filter[len - 1] & 0xC0) == 0x80)
			len--;
		if (len > 0)
			len--;
	} else if (cp >= 0x20 && cp != 0x7F && cp <= 0x10FFFF) {
		struct buf b = {0};

		buf_add_utf8(&b, (uint32_t)cp);
		if (len + b.n < sizeof lv->filter) {
			memcpy(lv->filter + len, b.p, b.n);
			len += b.n;
		}
		buf_free(&b);
	}
	lv->filter[len] = '\0';
	listview_refresh(lv, f, now_ms);
}

void
listview_scroll(struct listview *lv, int height)
{
	size_t h = (size_t)MAX(height, 1);

	if (lv->sel < lv->top)
		lv->top = lv->sel;
	else if (lv->sel >= lv->top + h)
		lv->top = lv->sel - h + 1;
	/* No blank rows at the end while rows are above. */
	if (lv->n >= h && lv->top > lv->n - h)
		lv->top = lv->n - h;
	if (lv->n < h)
		lv->top = 0;
}

bool
listview_ticking(const struct listview *lv, const struct fleet *f, int height)
{
	for (size_t i = lv->top; i < lv->n && i < lv->top + (size_t)MAX(height, 0); i++) {
		uint8_t st = fleet_row(f, lv->v[i])->state;

		if (st == FS_RUNNING || st == FS_WAITING)
			return true;
	}
	return false;
}

void
listview_status(const struct listview *lv, const struct fleet *f, struct buf *out)
{
	struct fleet_stats st;
	size_t all = fleet_nrows(f);

	fleet_stats(f, &st);
	buf_addf(out, "%s order%s", fleet_sort_name(lv->sort), lv->reverse ? ", reversed" : "");
	if (lv->filter[0] != '\0' || lv->hide_over)
		buf_addf(out, " " GLYPH_DOT " %zu of %zu session%s", lv->n, all,
			 all == 1 ? "" : "s");
	else
		buf_addf(out, " " GLYPH_DOT " %zu session%s", all, all == 1 ? "" : "s");
	if (lv->filter[0] != '\0') {
		buf_adds(out, " " GLYPH_DOT " filter \"");
		text_sanitize(out, lv->filter, strlen(lv->filter), TEXT_ONELINE);
		buf_addc(out, '"');
	}
	if (lv->hide_over)
		buf_adds(out, " " GLYPH_DOT " done and incomplete hidden");
	if (st.unread > 0)
		buf_addf(out, " " GLYPH_DOT " reading %zu of %zu files", st.unread, st.files);
	if (st.polled > 0)
		buf_addf(out,
			 " " GLYPH_DOT " %zu folder%s polled each second (no inotify watch left)",
			 st.polled, st.polled == 1 ? "" : "s");
	if (st.gone > 0)
		buf_addf(out, " " GLYPH_DOT " %zu folder%s removed", st.gone,
			 st.gone == 1 ? "" : "s");
}

/* Append a place's path, sanitized, home written ~. */
static void
add_place(struct buf *out, const char *path, const char *home)
{
	size_t h = home != NULL ? strlen(home) : 0;

	while (h > 1 && home[h - 1] == '/')
		h--;
	if (h > 1 && strncmp(path, home, h) == 0 && (path[h] == '/' || path[h] == '\0')) {
		buf_addc(out, '~');
		path += h;
	}
	text_sanitize(out, path, strlen(path), TEXT_ONELINE);
}

void
listview_empty(const struct listview *lv, const struct fleet *f, const char *home, struct buf *out)
{
	const struct fleet_place *kept = NULL;
	struct stat st;

	if (fleet_nrows(f) > 0) {
		if (lv->filter[0] != '\0') {
			buf_adds(out, "No session matches the filter \"");
			text_sanitize(out, lv->filter, strlen(lv->filter), TEXT_ONELINE);
			buf_adds(out, "\" (Esc empties it).\n");
		} else if (lv->hide_over) {
			buf_adds(out, "Every session is done or incomplete (x shows them).\n");
		}
		return;
	}
	buf_adds(out, "No sessions yet. agentview looked in:\n");
	for (size_t i = 0; i < fleet_nplaces(f); i++) {
		const struct fleet_place *p = fleet_place(f, i);

		buf_adds(out, "  ");
		add_place(out, p->path, home);
		if (p->what != NULL)
			buf_addf(out, "  (%s)", p->what);
		if (stat(p->path, &st) != 0)
			buf_adds(out, ", not there");
		buf_addc(out, '\n');
		if (p->kept && kept == NULL)
			kept = p;
	}
	if (kept != NULL) {
		buf_adds(out, "\nAn agent piped into agentview keeps its session in ");
		add_place(out, kept->path, home);
		buf_adds(out,
			 ", listed here as it runs:\n"
			 "  claude -p --output-format stream-json --verbose \"fix the tests\" | "
			 "agentview\n");
	}
	buf_adds(out, "\nOr look at sessions where they are:\n"
		      "  agentview FILE   a session's stream (.ndjson, .jsonl, a recording)\n"
		      "  agentview DIR    every session file in a folder (-R: and its folders)\n");
}
