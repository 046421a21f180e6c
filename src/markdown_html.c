/* markdown_html.c: a parsed reply written as HTML elements (markdown.h),
 * for the page: every text and target escaped, links only where they may
 * be, never an image. */
#include "markdown.h"

#include <string.h>
#include <strings.h>

#include "glyph.h"

/* Inline elements, outermost first: a run's open ones are a prefix of
 * this order, so that they always nest. */
enum { TAG_A, TAG_IMAGE, TAG_STRONG, TAG_EM, TAG_DEL, TAG_CODE, TAGS };

static const char *const tag_open[TAGS] = {
	NULL, "<span class=\"image\">", "<strong>", "<em>", "<del>", "<code>",
};
static const char *const tag_close[TAGS] = {
	"</a>", "</span>", "</strong>", "</em>", "</del>", "</code>",
};

#define REL " rel=\"noopener noreferrer nofollow\""

struct html {
	const struct markdown *md;
	struct buf *out;
	int top;
	uint32_t open[MARKDOWN_MAX_DEPTH]; /* containers open */
	unsigned nopen;
	int table; /* 0: none open; 1: its head; 2: its body; 3: neither yet */
	uint32_t table_parent;
	unsigned tags[TAGS]; /* inline elements open */
	unsigned ntags;
	uint32_t tag_link; /* the target of the <a> open */
};

/* Whether a target may be a link on the page: http:, https:, mailto:. */
static bool
url_safe(const char *s, size_t n)
{
	static const char *const schemes[] = {"http://", "https://", "mailto:"};

	for (size_t i = 0; i < ARRAY_LEN(schemes); i++) {
		size_t k = strlen(schemes[i]);

		if (n > k && strncasecmp(s, schemes[i], k) == 0)
			return true;
	}
	return false;
}

static void
html_esc(struct html *h, const char *s, size_t n)
{
	text_html_escape(h->out, s, n);
}

/* Text of a run: its line breaks as <br>. */
static void
html_text(struct html *h, const char *s, size_t n)
{
	const char *nl;

	while ((nl = memchr(s, '\n', n)) != NULL) {
		html_esc(h, s, (size_t)(nl - s));
		buf_adds(h->out, "<br>\n");
		n -= (size_t)(nl - s) + 1;
		s = nl + 1;
	}
	html_esc(h, s, n);
}

static void
html_href(struct html *h, const char *s, size_t n, const char *cls)
{
	buf_adds(h->out, "<a");
	if (cls != NULL)
		buf_addf(h->out, " class=\"%s\"", cls);
	buf_adds(h->out, " href=\"");
	html_esc(h, s, n);
	buf_adds(h->out, "\"" REL ">");
}

/* Close the inline elements open down to keep of them. */
static void
tags_close(struct html *h, unsigned keep)
{
	while (h->ntags > keep)
		buf_adds(h->out, tag_close[h->tags[--h->ntags]]);
}

/* Open the inline elements a run of style and link wants, after closing
 * the ones it does not. */
static void
tags_want(struct html *h, uint16_t style, uint32_t link)
{
	const struct markdown_span *u = link != MARKDOWN_NONE ? &h->md->url[link] : NULL;
	unsigned want[TAGS], n = 0, keep = 0;

	if ((style & MS_LINK) && u != NULL && url_safe(h->md->text.p + u->off, u->len))
		want[n++] = TAG_A;
	if (!(style & MS_URL)) {
		if (style & MS_IMAGE)
			want[n++] = TAG_IMAGE;
		if (style & MS_STRONG)
			want[n++] = TAG_STRONG;
		if (style & MS_EM)
			want[n++] = TAG_EM;
		if (style & MS_STRIKE)
			want[n++] = TAG_DEL;
		if (style & MS_CODE)
			want[n++] = TAG_CODE;
	}
	while (keep < n && keep < h->ntags && h->tags[keep] == want[keep] &&
	       (want[keep] != TAG_A || h->tag_link == link))
		keep++;
	tags_close(h, keep);
	for (; keep < n; keep++) {
		if (want[keep] == TAG_A) {
			html_href(h, h->md->text.p + u->off, u->len, NULL);
			h->tag_link = link;
		} else {
			buf_adds(h->out, tag_open[want[keep]]);
		}
		h->tags[h->ntags++] = want[keep];
	}
}

/* Runs r[0..n): a link's text in its <a> when its target may be one,
 * its target after it only when not; an image's target a link of its
 * own when it may be one. */
static void
html_runs(struct html *h, const struct markdown_run *r, size_t n)
{
	const char *text = h->md->text.p;

	for (size_t i = 0; i < n; i++) {
		const char *s = text + r[i].off;
		bool safe = url_safe(s, r[i].len);

		tags_want(h, r[i].style, r[i].link);
		if (!(r[i].style & MS_URL)) {
			html_text(h, s, r[i].len);
		} else if (!(r[i].style & MS_IMAGE) && safe) {
			continue; /* the <a> says it */
		} else if (safe && !(r[i].style & MS_LINK)) {
			buf_adds(h->out, " (");
			html_href(h, s, r[i].len, "url");
			html_esc(h, s, r[i].len);
			buf_adds(h->out, "</a>)");
		} else {
			buf_adds(h->out, " <span class=\"url\">(");
			html_esc(h, s, r[i].len);
			buf_adds(h->out, ")</span>");
		}
	}
	tags_close(h, 0);
}

static void
table_close(struct html *h)
{
	if (h->table == 1)
		buf_adds(h->out, "</thead>\n");
	else if (h->table == 2)
		buf_adds(h->out, "</tbody>\n");
	if (h->table != 0)
		buf_adds(h->out, "</table>\n");
	h->table = 0;
}

static void
container_close(struct html *h)
{
	const struct markdown_block *b = &h->md->block[h->open[--h->nopen]];

	if (b->type == MK_QUOTE)
		buf_adds(h->out, "</blockquote>\n");
	else if (b->type == MK_ITEM)
		buf_adds(h->out, "</li>\n");
	else
		buf_adds(h->out, (b->flags & MK_ORDERED) ? "</ol>\n" : "</ul>\n");
}

/* A table's row, in the table's head or body, opened as needed. */
static void
html_row(struct html *h, uint32_t i)
{
	const struct markdown_block *b = &h->md->block[i];
	const struct markdown_run *r = &h->md->run[b->run];
	bool head = b->flags & MK_HEAD;
	const char *cell = head ? "th" : "td";

	if (h->table == 0) {
		buf_adds(h->out, "<table>\n");
		h->table = 3;
		h->table_parent = b->parent;
	}
	if (head && h->table != 1) {
		buf_adds(h->out, "<thead>\n");
		h->table = 1;
	} else if (!head && h->table != 2) {
		if (h->table == 1)
			buf_adds(h->out, "</thead>\n");
		buf_adds(h->out, "<tbody>\n");
		h->table = 2;
	}
	buf_adds(h->out, "<tr>");
	for (size_t k = 0; k < b->nrun;) {
		size_t j = k;

		while (j < b->nrun && r[j].cell == r[k].cell)
			j++;
		buf_addf(h->out, "<%s>", cell);
		html_runs(h, r + k, j - k);
		buf_addf(h->out, "</%s>", cell);
		k = j;
	}
	buf_adds(h->out, "</tr>\n");
}

void
markdown_html(const struct markdown *md, int top, struct buf *out)
{
	struct html h = {.md = md, .out = out, .top = MAX(1, MIN(6, top))};

	for (uint32_t i = 0; i < md->nblock; i++) {
		const struct markdown_block *b = &md->block[i];
		const struct markdown_run *r = &md->run[b->run];
		int level;

		if (h.table != 0 && (b->type != MK_ROW || b->parent != h.table_parent ||
				     ((b->flags & MK_HEAD) && h.table == 2)))
			table_close(&h);
		while (h.nopen > b->depth)
			container_close(&h);
		switch ((enum markdown_type)b->type) {
		case MK_QUOTE:
			buf_adds(out, "<blockquote>\n");
			h.open[h.nopen++] = i;
			break;
		case MK_LIST:
			if (!(b->flags & MK_ORDERED))
				buf_adds(out, "<ul>\n");
			else if (b->number != 1)
				buf_addf(out, "<ol start=\"%u\">\n", b->number);
			else
				buf_adds(out, "<ol>\n");
			h.open[h.nopen++] = i;
			break;
		case MK_ITEM:
			if (b->flags & MK_TASK)
				buf_addf(out, "<li class=\"task\"><span class=\"check\">%s</span> ",
					 (b->flags & MK_DONE) ? GLYPH_OK : GLYPH_PENDING);
			else
				buf_adds(out, "<li>");
			h.open[h.nopen++] = i;
			break;
		case MK_PARA:
			if (!(b->flags & MK_BARE))
				buf_adds(out, "<p>");
			html_runs(&h, r, b->nrun);
			buf_adds(out, (b->flags & MK_BARE) ? "\n" : "</p>\n");
			break;
		case MK_HEADING:
			level = MIN(6, b->level + h.top - 1);
			buf_addf(out, "<h%d>", level);
			html_runs(&h, r, b->nrun);
			buf_addf(out, "</h%d>\n", level);
			break;
		case MK_CODE:
			if (b->nlang > 0) {
				buf_adds(out, "<div class=\"lang\">");
				html_esc(&h, md->text.p + b->lang, b->nlang);
				buf_adds(out, "</div>\n");
			}
			buf_adds(out, "<pre class=\"code\"><code>");
			for (size_t k = 0; k < b->nrun; k++)
				html_esc(&h, md->text.p + r[k].off, r[k].len);
			buf_adds(out, "</code></pre>\n");
			break;
		case MK_RULE:
			buf_adds(out, "<hr>\n");
			break;
		case MK_ROW:
			html_row(&h, i);
			break;
		default:
			break;
		}
	}
	table_close(&h);
	while (h.nopen > 0)
		container_close(&h);
}
