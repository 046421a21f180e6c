/* listview.c: the session list's screen model: the rows shown, the
 * selection, the filter as it is typed, the status bar's words. */
#include "listview.h"

#include <stdlib.h>
#include <string.h>

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
	listview_init(lv);
}

void
listview_refresh(struct listview *lv, const struct fleet *f, int64_t now_ms)
{
	size_t rows = fleet_nrows(f);

	ARRAY_RESERVE(lv->v, lv->cap, rows + 1);
	lv->n = fleet_rows(f, lv->sort, lv->filter, now_ms, lv->v, rows);
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
	buf_addf(out, "%s order", fleet_sort_name(lv->sort));
	if (lv->filter[0] != '\0') {
		buf_addf(out, " " GLYPH_DOT " %zu of %zu session%s " GLYPH_DOT " filter \"", lv->n,
			 all, all == 1 ? "" : "s");
		text_sanitize(out, lv->filter, strlen(lv->filter), TEXT_ONELINE);
		buf_addc(out, '"');
	} else {
		buf_addf(out, " " GLYPH_DOT " %zu session%s", all, all == 1 ? "" : "s");
	}
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
