/* markdown_check.h: what test_markdown.c and fuzz/fuzz_markdown.c both
 * check of a reply's Markdown laid out and written as HTML. */
#ifndef AGENTVIEW_MARKDOWN_CHECK_H
#define AGENTVIEW_MARKDOWN_CHECK_H

#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "markdown.h"
#include "text.h"

/* Whether every line is within width (0 counts as 1) and measures what
 * its segments say they measure. */
static inline bool
markdown_lines_fit(const struct markdown_layout *l, size_t width)
{
	for (size_t i = 0; i < l->nline; i++) {
		const struct markdown_line *ln = &l->line[i];
		size_t sum = 0;

		if ((size_t)ln->seg + ln->nseg > l->nseg)
			return false;
		for (size_t k = 0; k < ln->nseg; k++) {
			const struct markdown_seg *g = &l->seg[ln->seg + k];

			if ((size_t)g->off + g->len > l->text.n || g->len == 0 ||
			    text_width(l->text.p + g->off, g->len) != g->width)
				return false;
			sum += g->width;
		}
		if (sum != ln->width || ln->width > (width > 1 ? width : 1))
			return false;
	}
	return true;
}

/* Where needle is in s[0..n), or NULL (memmem is a GNU extension). */
static inline const char *
markdown_find(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, needle, k) == 0)
			return s + i;
	return NULL;
}

/* The first '<' of HTML s[0..n) that does not open or close an element
 * markdown_html writes, or opens an <a> to anything but http:, https: or
 * mailto: or without its rel; NULL when there is none. */
static inline const char *
markdown_html_stranger(const char *s, size_t n)
{
	static const char *const tags[] = {"p>",
					   "/p>",
					   "h1>",
					   "/h1>",
					   "h2>",
					   "/h2>",
					   "h3>",
					   "/h3>",
					   "h4>",
					   "/h4>",
					   "h5>",
					   "/h5>",
					   "h6>",
					   "/h6>",
					   "ul>",
					   "/ul>",
					   "ol>",
					   "ol start=\"",
					   "/ol>",
					   "li>",
					   "li class=\"task\">",
					   "/li>",
					   "blockquote>",
					   "/blockquote>",
					   "pre class=\"code\">",
					   "/pre>",
					   "code>",
					   "/code>",
					   "div class=\"lang\">",
					   "/div>",
					   "hr>",
					   "table>",
					   "/table>",
					   "thead>",
					   "/thead>",
					   "tbody>",
					   "/tbody>",
					   "tr>",
					   "/tr>",
					   "th>",
					   "/th>",
					   "td>",
					   "/td>",
					   "strong>",
					   "/strong>",
					   "em>",
					   "/em>",
					   "del>",
					   "/del>",
					   "a ",
					   "/a>",
					   "br>",
					   "span class=\"image\">",
					   "span class=\"url\">",
					   "span class=\"check\">",
					   "/span>"};

	for (const char *p = s; (p = memchr(p, '<', n - (size_t)(p - s))) != NULL; p++) {
		size_t left = n - (size_t)(p - s) - 1, tag;
		const char *end, *h;
		bool ours = false;

		for (size_t k = 0; k < sizeof tags / sizeof tags[0] && !ours; k++)
			ours = left >= strlen(tags[k]) &&
			       memcmp(p + 1, tags[k], strlen(tags[k])) == 0;
		if (!ours)
			return p;
		if (memcmp(p + 1, "a ", 2) != 0)
			continue;
		/* A target's '>' is escaped: the first one ends the tag. */
		end = memchr(p, '>', left + 1);
		if (end == NULL)
			return p;
		tag = (size_t)(end - p) + 1;
		h = markdown_find(p, tag, "href=\"");
		if (h == NULL ||
		    markdown_find(p, tag, " rel=\"noopener noreferrer nofollow\">") == NULL)
			return p;
		h += 6;
		if (strncasecmp(h, "http://", 7) != 0 && strncasecmp(h, "https://", 8) != 0 &&
		    strncasecmp(h, "mailto:", 7) != 0)
			return p;
	}
	return NULL;
}

#endif
