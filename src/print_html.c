/* print_html.c: `--print --format html`: one self-contained page of every
 * session (header, status, the timeline as an SVG chart, the transcript
 * with thinking and tool calls folded, each call's detail), made at the
 * end from the model. Nothing on it is fetched: CSS and the one small
 * script are inline and pinned by the page's Content-Security-Policy, and
 * every byte of event text is sanitized and escaped: our own markup is
 * written as it is; event text only ever goes through esc()
 * (text_sanitize, then text_html_escape) or, already sanitized by
 * detail.c, through text_html_escape alone. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent.h"
#include "compare.h"
#include "detail.h"
#include "fleet_print.h"
#include "glyph.h"
#include "markdown.h"
#include "print.h"
#include "redact.h"
#include "text.h"
#include "theme.h"
#include "tool.h"
#include "words.h"

#ifndef AGENTVIEW_VERSION
#define AGENTVIEW_VERSION "dev"
#endif

/* What the page holds at most, each cut said where it happens: */
#define HTML_CALL_BYTES (32u << 10) /* of one call's detail (its text) */
#define HTML_TEXT_BYTES (1u << 20)  /* of one prompt, reply, thinking */
#define HTML_DETAIL_BYTES \
	(24u << 20)    /* of the page given to details; the
					 calls after show their line */
#define HTML_BARS 2000 /* bars in one session's chart */
/* The page is written out in pieces of about this size. */
#define FLUSH_BYTES (1u << 20)
/* A detail is built this wide: no row is wrapped, the browser wraps. */
#define DETAIL_WIDTH (1 << 20)
/* The chart, in SVG units: its width, where the bars' area starts and
 * ends, a row's height, the axis above the rows, a label's cells. */
#define SVG_W 1000
#define SVG_BAR0 440
#define SVG_BAR1 990
#define SVG_ROW 18
#define SVG_TOP 24
#define LABEL_CELLS 56

/* The page's style and its one script. The page's Content-Security-Policy
 * lets only these run, by their SHA-256: after changing either, put the
 * hash that tests/run_html.sh says in HTML_*_HASH. */
#define HTML_STYLE_HASH "sha256-Y3syokXWF/y7lFqRjylG20fKFuQTQ1/VsE3nWyaOEVQ="
#define HTML_SCRIPT_HASH "sha256-3UEbyaV3TdqOKJBW6xnuNxGsZhEi0817PFX6eWkZGAc="
static const char style[] =
	"\n"
	":root{--bg:#ffffff;--fg:#1f2328;--dim:#59636e;--line:#d1d9e0;--panel:#f6f8fa;--code:#eef1f4;\n"
	"--prompt:#ddf4ff;--ok:#1a7f37;--fail:#cf222e;--rej:#9a6700;--err:#bc4c00;--orph:#8250df;\n"
	"--run:#0969da;--add:#dafbe1;--del:#ffebe9}\n"
	"@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--dim:#9198a1;\n"
	"--line:#3d444d;--panel:#151b23;--code:#212830;--prompt:#0f2a44;--ok:#3fb950;--fail:#f85149;\n"
	"--rej:#d29922;--err:#db6d28;--orph:#ab7df8;--run:#4493f8;--add:#12301c;--del:#3d1519}}\n"
	"html{background:var(--bg);color:var(--fg)}\n"
	"body{margin:0;font:15px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Noto Sans\",Helvetica,Arial,sans-serif}\n"
	"main{max-width:1120px;margin:0 auto;padding:8px 24px 40px}\n"
	"pre,code,.line,details.call>summary,dl.facts dd,svg.timeline text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,\"DejaVu Sans Mono\",\"Liberation Mono\",monospace}\n"
	"header.page{display:flex;align-items:center;justify-content:space-between;gap:12px;border-bottom:1px solid var(--line)}\n"
	"h1{font-size:18px;margin:10px 0;overflow-wrap:anywhere}\n"
	"h1 span{color:var(--dim);font-weight:400;margin-left:6px}\n"
	"#folding{white-space:nowrap}\n"
	"#folding button{font:inherit;font-size:13px;margin-left:6px;padding:3px 10px;color:var(--fg);background:var(--panel);border:1px solid var(--line);border-radius:6px;cursor:pointer}\n"
	"#folding button:hover{border-color:var(--dim)}\n"
	"h2{font-size:17px;margin:28px 0 8px;overflow-wrap:anywhere}\n"
	"h3{font-size:12px;margin:20px 0 6px;color:var(--dim);text-transform:uppercase;letter-spacing:.06em}\n"
	"a{color:var(--run)}\n"
	"nav.sessions ol{padding-left:28px}\n"
	"nav.sessions li{margin:2px 0;overflow-wrap:anywhere}\n"
	"dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0 0 10px;font-size:14px}\n"
	"dl.facts dt{color:var(--dim)}\n"
	"dl.facts dd{margin:0;font-size:13px;overflow-wrap:anywhere}\n"
	".status{margin:10px 0;padding:8px 12px;background:var(--panel);border:1px solid var(--line);border-left:4px solid var(--dim);border-radius:6px;overflow-wrap:anywhere}\n"
	".status.st-ok{border-left-color:var(--ok)}\n"
	".status.st-failed{border-left-color:var(--fail)}\n"
	".status.st-incomplete{border-left-color:var(--rej)}\n"
	".status.st-live,.status.st-waiting{border-left-color:var(--run)}\n"
	"svg.timeline{display:block;width:100%;height:auto}\n"
	"svg.timeline text{font-size:12px;fill:var(--fg);white-space:pre}\n"
	"svg.timeline .axis text{font-size:11px;fill:var(--dim)}\n"
	"svg.timeline .axis line{stroke:var(--line)}\n"
	"svg.timeline rect{fill:var(--dim)}\n"
	"svg.timeline .st-ok rect{fill:var(--ok)}\n"
	"svg.timeline .st-failed rect{fill:var(--fail)}\n"
	"svg.timeline .st-error rect{fill:var(--err)}\n"
	"svg.timeline .st-rejected rect{fill:var(--rej)}\n"
	"svg.timeline .st-orphaned rect{fill:var(--orph)}\n"
	"svg.timeline .st-running rect{fill:var(--run)}\n"
	"svg.timeline .st-failed text{fill:var(--fail)}\n"
	"svg.timeline .st-error text{fill:var(--err)}\n"
	"svg.timeline .st-rejected text{fill:var(--rej)}\n"
	"svg.timeline .st-orphaned text{fill:var(--orph)}\n"
	"svg.timeline a:hover text{text-decoration:underline}\n"
	".prompt{margin:14px 0;padding:8px 12px;background:var(--prompt);border-radius:6px}\n"
	".who{font-size:12px;font-weight:600;color:var(--run)}\n"
	".text{white-space:pre-wrap;overflow-wrap:anywhere}\n"
	".md{overflow-wrap:anywhere}\n"
	".md>:first-child{margin-top:0}\n"
	".md>:last-child{margin-bottom:0}\n"
	".md p{margin:0 0 8px}\n"
	".md h4,.md h5,.md h6{margin:16px 0 6px;line-height:1.3}\n"
	".md h4{font-size:18px}\n"
	".md h5{font-size:16px}\n"
	".md h6{font-size:15px}\n"
	".md ul,.md ol{margin:0 0 8px;padding-left:26px}\n"
	".md li>ul,.md li>ol,.md li>p{margin-bottom:0}\n"
	".md li.task{list-style:none}\n"
	".md .check{display:inline-block;width:18px;margin-left:-20px;color:var(--ok)}\n"
	".md blockquote{margin:0 0 8px;padding:0 12px;color:var(--dim);border-left:3px solid var(--line)}\n"
	".md code{padding:1px 4px;font-size:13px;background:var(--code);border-radius:4px}\n"
	".md .lang{margin:8px 0 -1px;padding:2px 12px;width:max-content;font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--dim);background:var(--code);border-radius:6px 6px 0 0}\n"
	".md pre.code{margin:0 0 8px;padding:8px 12px;font-size:13px;background:var(--code);border-radius:6px;white-space:pre;overflow-x:auto;overflow-wrap:normal;tab-size:8}\n"
	".md .lang+pre.code{border-top-left-radius:0}\n"
	".md pre.code code{padding:0;background:none}\n"
	".md table{display:block;max-width:100%;overflow-x:auto;margin:0 0 8px;border-collapse:collapse;font-size:14px}\n"
	".md th,.md td{padding:4px 10px;border:1px solid var(--line);text-align:left}\n"
	".md th{background:var(--panel);font-weight:600}\n"
	".md hr{margin:12px 0;border:0;border-top:1px solid var(--line)}\n"
	".md .url{color:var(--dim);font-size:13px}\n"
	".md .image{font-style:italic}\n"
	".md del{color:var(--dim)}\n"
	".reply{margin:10px 0}\n"
	"details{margin:3px 0}\n"
	"details>summary{cursor:pointer}\n"
	"details.thinking>summary{color:var(--dim);font-style:italic;font-size:14px}\n"
	"details.thinking .text{margin:4px 0 8px 6px;padding-left:12px;border-left:2px solid var(--line);color:var(--dim);font-size:14px}\n"
	"details.call>summary{font-size:13px;overflow-wrap:anywhere}\n"
	"details.call .g,p.call .g{font-weight:700}\n"
	"details.st-ok>summary .g,p.call.st-ok .g{color:var(--ok)}\n"
	"details.st-failed>summary,p.call.st-failed{color:var(--fail)}\n"
	"details.st-error>summary,p.call.st-error{color:var(--err)}\n"
	"details.st-rejected>summary,p.call.st-rejected{color:var(--rej)}\n"
	"details.st-orphaned>summary,p.call.st-orphaned{color:var(--orph)}\n"
	"details.st-running>summary,p.call.st-running{color:var(--run)}\n"
	"pre.detail{margin:4px 0 10px 18px;padding:8px 12px;font-size:12.5px;color:var(--fg);background:var(--panel);border:1px solid var(--line);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere}\n"
	".lead,.r-dim{color:var(--dim)}\n"
	".r-title{font-weight:700}\n"
	".r-tool_ok{color:var(--ok)}\n"
	".r-tool_failed{color:var(--fail)}\n"
	".r-tool_rejected{color:var(--rej)}\n"
	".r-tool_error{color:var(--err)}\n"
	".r-tool_orphaned{color:var(--orph)}\n"
	".r-running,.r-session{color:var(--run)}\n"
	".add,.del{display:block}\n"
	".add{background:var(--add)}\n"
	".del{background:var(--del)}\n"
	".line{margin:4px 0;font-size:13px;white-space:pre-wrap;overflow-wrap:anywhere}\n"
	".notice{color:var(--dim);font-style:italic}\n"
	".diag{color:var(--err)}\n"
	".stderr{color:var(--fail)}\n"
	".result{margin:14px 0;font-weight:600}\n"
	".result.st-ok{color:var(--ok)}\n"
	".result.st-failed{color:var(--fail)}\n"
	".query{margin:6px 0;padding:2px 10px;border-left:3px solid var(--run)}\n"
	".query.q-rejected{border-left-color:var(--rej)}\n"
	".cut,.none{margin:4px 0;color:var(--dim);font-size:13px;font-style:italic}\n"
	".depth1{margin-left:20px}\n"
	".depth2{margin-left:40px}\n"
	".depth3{margin-left:60px}\n"
	".depth4{margin-left:80px}\n"
	"footer{margin-top:40px;padding-top:10px;border-top:1px solid var(--line);color:var(--dim);font-size:13px}\n";
static const char script[] =
	"\n"
	"(function () {\n"
	"  \"use strict\";\n"
	"  var bar = document.getElementById(\"folding\");\n"
	"  function fold(open) {\n"
	"    document.querySelectorAll(\"details\").forEach(function (d) {\n"
	"      d.open = open;\n"
	"    });\n"
	"  }\n"
	"  [[\"Unfold all\", true], [\"Fold all\", false]].forEach(function (w) {\n"
	"    var b = document.createElement(\"button\");\n"
	"    b.type = \"button\";\n"
	"    b.textContent = w[0];\n"
	"    b.addEventListener(\"click\", function () { fold(w[1]); });\n"
	"    bar.appendChild(b);\n"
	"  });\n"
	"  function reveal() {\n"
	"    var t = location.hash ? document.getElementById(location.hash.slice(1)) : null;\n"
	"    for (; t; t = t.parentElement)\n"
	"      if (t.tagName === \"DETAILS\")\n"
	"        t.open = true;\n"
	"  }\n"
	"  window.addEventListener(\"hashchange\", reveal);\n"
	"  reveal();\n"
	"})();\n";

struct page {
	struct model *m;
	FILE *out;
	struct buf o;    /* the page not yet written out */
	struct buf san;  /* event text sanitized */
	struct buf text; /* event text decoded */
	struct buf line; /* words being composed */
	struct tool_desc td;
	struct detail d;
	struct markdown md; /* a reply's, parsed */
	uint32_t *items;    /* the items shown, grouped by session */
	size_t *first;      /* session s's: items[first[s] .. first[s + 1]) */
	uint64_t details;   /* bytes of the page given to details so far */
	bool said_full;     /* the session's calls without detail were said */
};

/* --- writing ------------------------------------------------------------- */

/* Write out what the page holds, once there is enough of it (or all). */
static void
flush(struct page *p, bool all)
{
	if (p->o.n == 0 || (!all && p->o.n < FLUSH_BYTES))
		return;
	fwrite(p->o.p, 1, p->o.n, p->out);
	buf_reset(&p->o);
}

/* Our own markup, as it is. */
static void
put(struct page *p, const char *s)
{
	buf_adds(&p->o, s);
}

static void putf(struct page *p, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* Our own markup, formatted: numbers and names of our own only. */
static void
putf(struct page *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&p->o, fmt, ap);
	va_end(ap);
}

/* Event text s[0..n): sanitized (flags: TEXT_ONELINE or 0), escaped. */
static void
esc(struct page *p, const char *s, size_t n, int flags)
{
	if (n == 0)
		return;
	buf_reset(&p->san);
	text_sanitize(&p->san, s, n, flags);
	if (p->san.n > 0)
		text_html_escape(&p->o, p->san.p, p->san.n);
}

/* "… 98.0 MB more not shown (the page shows at most 1.0 MB of a text)". */
static void
cut_note(struct page *p, uint64_t more, uint64_t limit, const char *what)
{
	put(p, "<p class=\"cut\">" GLYPH_ELLIPSIS " ");
	fmt_bytes(&p->o, more);
	put(p, " more not shown (the page shows at most ");
	fmt_bytes(&p->o, limit);
	putf(p, " of %s)</p>\n", what);
}

/* The class of an item nested under a sub-agent's call, or "". */
static const char *
depth_class(const struct item *item)
{
	static const char *const cls[] = {"", " depth1", " depth2", " depth3", " depth4"};

	return cls[MIN(item->depth, (uint8_t)(ARRAY_LEN(cls) - 1))];
}

/* --- text ------------------------------------------------------------------ */

/* Plain text (a prompt, thinking) in a block that keeps its lines. */
static void
plain(struct page *p, const char *s, size_t n)
{
	size_t k = redact_cut(s, n, HTML_TEXT_BYTES);

	put(p, "<div class=\"text\">");
	esc(p, s, k, 0);
	put(p, "</div>\n");
	if (k < n)
		cut_note(p, n - k, HTML_TEXT_BYTES, "a text");
}

/* A reply, or a plan: its Markdown (markdown.c reads it sanitized and
 * redacted; markdown_html escapes every text and target, links only to
 * http, https and mailto, never an image), cut at HTML_TEXT_BYTES. Its
 * headings are h4 to h6, under the page's own. */
static void
reply(struct page *p, const char *s, size_t n)
{
	size_t k = redact_cut(s, n, HTML_TEXT_BYTES);

	markdown_parse(&p->md, s, k);
	put(p, "<div class=\"md\">");
	markdown_html(&p->md, 4, &p->o);
	put(p, "</div>\n");
	if (k < n)
		cut_note(p, n - k, HTML_TEXT_BYTES, "a text");
}

/* --- tool calls -------------------------------------------------------------- */

/* One row of a detail: its indent, its lead dim, the rest in its role
 * (a diff's added and removed lines on a tinted band of their own). */
static void
detail_row(struct page *p, const struct drow *r)
{
	const char *t = p->d.text.p + r->off;
	bool add = r->role == ROLE_TOOL_OK && r->lead == 0 && r->len > 0 && t[0] == '+';
	bool del = r->role == ROLE_TOOL_FAILED && r->lead == 0 && r->len > 0 && t[0] == '-';

	for (unsigned i = 0; i < r->indent; i++)
		buf_addc(&p->o, ' ');
	if (r->lead > 0) {
		put(p, "<span class=\"lead\">");
		text_html_escape(&p->o, t, r->lead);
		put(p, "</span>");
	}
	if (r->role != ROLE_NORMAL)
		putf(p, "<span class=\"r-%s%s\">", theme_role_name((enum role)r->role),
		     add   ? " add"
		     : del ? " del"
			   : "");
	text_html_escape(&p->o, t + r->lead, r->len - r->lead);
	if (r->role != ROLE_NORMAL)
		put(p, "</span>");
	/* A band is a block: its line ends with it. */
	if (!add && !del)
		buf_addc(&p->o, '\n');
}

/* Call c's detail, as detail.c lays it out, at most HTML_CALL_BYTES of
 * its text. */
static void
call_detail(struct page *p, uint32_t c)
{
	const struct detail *d = &p->d;
	size_t i = 0, from = p->o.n;

	detail_build(&p->d, c, DETAIL_WIDTH, false);
	/* Its first rows, up to a blank one, are the call's line, which the
	 * summary says already. */
	while (i < d->nrow && d->row[i].len > 0)
		i++;
	if (i < d->nrow)
		i++;
	put(p, "<pre class=\"detail\">");
	for (; i < d->nrow; i++)
		detail_row(p, &d->row[i]);
	put(p, "</pre>\n");
	p->details += p->o.n - from;
}

/* A call: its line, folded over its detail; once HTML_DETAIL_BYTES of
 * the page went to details, its line alone (said once per session). */
static void
call_item(struct page *p, const struct item *item)
{
	uint32_t c = item->ref;
	enum call_state st = model_call_state(p->m, c);
	const char *g = tool_state_glyph(st);
	size_t gn = strlen(g);
	bool full = p->details >= HTML_DETAIL_BYTES;

	if (full && !p->said_full) {
		put(p, "<p class=\"cut\">The calls below are shown without their detail: "
		       "the page gives at most ");
		fmt_bytes(&p->o, HTML_DETAIL_BYTES);
		put(p, " to details.</p>\n");
		p->said_full = true;
	}
	buf_reset(&p->line);
	words_call_timed(p->m, c, &p->td, &p->line);
	putf(p,
	     full ? "<p class=\"line call st-%s%s\" id=\"c%u\">"
		  : "<details class=\"call st-%s%s\" id=\"c%u\"><summary>",
	     model_call_state_name(st), depth_class(item), c + 1);
	if (p->line.n >= gn && memcmp(p->line.p, g, gn) == 0) {
		putf(p, "<span class=\"g\">%s</span>", g);
		esc(p, p->line.p + gn, p->line.n - gn, TEXT_ONELINE);
	} else {
		esc(p, p->line.p, p->line.n, TEXT_ONELINE);
	}
	if (full) {
		put(p, "</p>\n");
		return;
	}
	put(p, "</summary>");
	call_detail(p, c);
	put(p, "</details>\n");
}

/* --- the transcript ----------------------------------------------------------- */

/* A decision asked for: its line, then what it carries (a plan). */
static void
query_item(struct page *p, const struct item *item)
{
	struct query_words w = {0};
	uint32_t q = item->ref;

	words_query_load(p->m, q, &w);
	buf_reset(&p->line);
	words_query(p->m, q, &w, &p->line);
	putf(p, "<div class=\"query q-%s%s\"><div class=\"line\">",
	     model_query_decision_name(words_query_decision(p->m, q)), depth_class(item));
	esc(p, p->line.p, p->line.n, TEXT_ONELINE);
	put(p, "</div>");
	if (w.body.n > 0)
		reply(p, w.body.p, w.body.n);
	put(p, "</div>\n");
	words_query_free(&w);
}

/* A line of words in class cls (a notice, a diagnostic, stderr, a
 * result), after lead (our own markup). */
static void
line_item(struct page *p, uint32_t it, const char *cls, const char *lead)
{
	buf_reset(&p->line);
	words_item(p->m, it, 0, &p->td, &p->line);
	putf(p, "<p class=\"line %s%s\">%s", cls, depth_class(&p->m->it[it]), lead);
	esc(p, p->line.p, p->line.n, TEXT_ONELINE);
	put(p, "</p>\n");
}

/* One item of the transcript. */
static void
item_html(struct page *p, uint32_t it)
{
	struct model *m = p->m;
	const struct item *item = &m->it[it];
	const char *dc = depth_class(item);
	char cls[48];

	buf_reset(&p->text);
	buf_reset(&p->line);
	switch ((enum item_type)item->type) {
	case IT_PROMPT:
		putf(p, "<div class=\"prompt%s\"><div class=\"who\">" GLYPH_PROMPT " Prompt</div>",
		     dc);
		model_item_text(m, it, &p->text);
		plain(p, p->text.p, p->text.n);
		put(p, "</div>\n");
		break;
	case IT_THINKING:
		putf(p, "<details class=\"thinking%s\"><summary>", dc);
		words_thinking(m, it, &p->line);
		esc(p, p->line.p, p->line.n, TEXT_ONELINE);
		put(p, "</summary>");
		model_item_text(m, it, &p->text);
		plain(p, p->text.p, p->text.n);
		put(p, "</details>\n");
		break;
	case IT_TEXT:
		putf(p, "<div class=\"reply%s%s\">", dc, (item->flags & IF_CUT) ? " cutoff" : "");
		words_item(m, it, WORDS_WHOLE, &p->td, &p->text);
		reply(p, p->text.p, p->text.n);
		put(p, "</div>\n");
		break;
	case IT_TOOL:
		call_item(p, item);
		break;
	case IT_QUERY:
		query_item(p, item);
		break;
	case IT_NOTICE:
		line_item(p, it, "notice", "");
		break;
	case IT_DIAG:
		line_item(p, it, "diag", "");
		break;
	case IT_STDERR:
		line_item(p, it, "stderr", "");
		break;
	case IT_RESULT:
		/* A turn's result before another turn is no end. */
		if (!model_result_closes(m, item->first_ev))
			break;
		snprintf(cls, sizeof cls, "result st-%s",
			 model_session_state_name(model_session_state(m, item->session)));
		line_item(p, it, cls, "<strong>Result:</strong> ");
		break;
	default:
		break; /* the session's start: its header says it */
	}
}

/* --- the timeline ------------------------------------------------------------- */

/* The axis above the bars: ticks at each quarter of the session, with
 * the time since its start. */
static void
svg_axis(struct page *p, int64_t span, size_t height)
{
	static const char *const anchor[] = {"start", "middle", "middle", "middle", "end"};

	put(p, "<g class=\"axis\">");
	for (int q = 0; q <= 4; q++) {
		double x = SVG_BAR0 + (SVG_BAR1 - SVG_BAR0) * q / 4.0;

		putf(p,
		     "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%zu\"/>"
		     "<text x=\"%.1f\" y=\"14\" text-anchor=\"%s\">",
		     x, SVG_TOP - 6, x, height, x, anchor[q]);
		fmt_duration(&p->o, ms_scale(span, q, 4));
		put(p, "</text>");
	}
	put(p, "</g>\n");
}

/* Event text s[0..n) in at most cells cells once sanitized (what it
 * escapes is wider than it was), cut at its end with "…" when wider. */
static void
label(struct page *p, const char *s, size_t n, size_t cells)
{
	size_t k;

	buf_reset(&p->san);
	text_sanitize(&p->san, s, n, TEXT_ONELINE);
	if (p->san.n == 0)
		return;
	if (text_width(p->san.p, p->san.n) <= cells) {
		text_html_escape(&p->o, p->san.p, p->san.n);
		return;
	}
	k = text_fit(p->san.p, p->san.n, cells - 1, NULL);
	text_html_escape(&p->o, p->san.p, k);
	put(p, GLYPH_ELLIPSIS);
}

/* Call c's row of the chart: its line as a tooltip, its words cut to
 * fit as a label, and its bar where it lies on the session's axis. */
static void
svg_bar(struct page *p, const struct item *item, size_t row, bool timed)
{
	struct model *m = p->m;
	uint32_t c = item->ref;
	enum call_state st = model_call_state(m, c);
	unsigned indent = MIN(item->depth, 4u);
	size_t y = SVG_TOP + row * SVG_ROW;
	double f0, f1;

	putf(p, "<a href=\"#c%u\"><g class=\"st-%s\"><title>", c + 1, model_call_state_name(st));
	buf_reset(&p->line);
	words_call_timed(m, c, &p->td, &p->line);
	esc(p, p->line.p, p->line.n, TEXT_ONELINE);
	putf(p, "</title><text x=\"%u\" y=\"%zu\">", 4 + 14 * indent, y + 11);
	buf_reset(&p->line);
	words_call_fit(m, c, &p->td, LABEL_CELLS - 2 * indent, &p->line);
	label(p, p->line.p, p->line.n, LABEL_CELLS - 2 * indent);
	put(p, "</text>");
	if (timed) {
		model_call_span(m, c, &f0, &f1);
		putf(p, "<rect x=\"%.1f\" y=\"%zu\" width=\"%.1f\" height=\"12\" rx=\"2\"/>",
		     SVG_BAR0 + f0 * (SVG_BAR1 - SVG_BAR0), y + 2,
		     MAX((f1 - f0) * (SVG_BAR1 - SVG_BAR0), 2.0));
	}
	put(p, "</g></a>\n");
}

/* Session s's calls as bars on its time axis, one row each. */
static void
timeline(struct page *p, uint32_t s)
{
	struct model *m = p->m;
	size_t ncall = 0, row = 0, height;
	bool timed = model_session_timed(m, s);
	int64_t a0, a1;

	for (size_t k = p->first[s]; k < p->first[s + 1]; k++)
		ncall += m->it[p->items[k]].type == IT_TOOL;
	put(p, "<h3>Timeline</h3>\n");
	if (ncall == 0) {
		put(p, "<p class=\"none\">No tool calls.</p>\n");
		return;
	}
	height = SVG_TOP + MIN(ncall, (size_t)HTML_BARS) * SVG_ROW + 4;
	putf(p,
	     "<svg class=\"timeline\" viewBox=\"0 0 %d %zu\" role=\"img\" "
	     "aria-label=\"tool calls on the session's time axis\">\n",
	     SVG_W, height);
	model_session_axis(m, s, &a0, &a1);
	if (timed) {
		svg_axis(p, ms_sub(a1, a0), height);
	} else {
		/* No axis to draw the calls on: said where it would be. */
		putf(p, "<g class=\"axis\"><text x=\"%d\" y=\"14\">", SVG_BAR0);
		buf_reset(&p->line);
		words_no_timing(m, s, &p->line);
		esc(p, p->line.p, p->line.n, TEXT_ONELINE);
		put(p, "</text></g>\n");
	}
	for (size_t k = p->first[s]; k < p->first[s + 1] && row < HTML_BARS; k++) {
		const struct item *item = &m->it[p->items[k]];

		if (item->type != IT_TOOL)
			continue;
		svg_bar(p, item, row++, timed);
		flush(p, false);
	}
	put(p, "</svg>\n");
	if (ncall > row)
		putf(p,
		     "<p class=\"cut\">" GLYPH_ELLIPSIS " %zu more calls not drawn "
		     "(the chart draws at most %d calls of a session)</p>\n",
		     ncall - row, HTML_BARS);
}

/* --- sessions ------------------------------------------------------------------ */

/* A fact of session s as a term and its value, when the stream says it. */
static void
fact(struct page *p, uint32_t s, const char *term, enum fact f)
{
	buf_reset(&p->line);
	if (!model_fact(p->m, s, f, &p->line))
		return;
	putf(p, "<dt>%s</dt><dd>", term);
	esc(p, p->line.p, p->line.n, TEXT_ONELINE);
	put(p, "</dd>");
}

/* Session s's heading: its words, its facts, its status line. */
static void
session_head(struct page *p, uint32_t s)
{
	struct model *m = p->m;
	const struct session *ses = &m->ses[s];
	enum session_state st = model_session_state(m, s);

	putf(p, "<section class=\"session\" id=\"s%u\">\n<h2>Session ", s + 1);
	buf_reset(&p->line);
	if (ses->init_ev != NONE) {
		words_session_header(m, s, &p->line);
		esc(p, p->line.p, p->line.n, TEXT_ONELINE);
	} else {
		putf(p, "%u", s + 1);
	}
	put(p, "</h2>\n<dl class=\"facts\">");
	fact(p, s, "Session id", FACT_ID);
	putf(p, "<dt>Agent</dt><dd>%s</dd>", agent_get(ses->agent)->label);
	fact(p, s, "Model", FACT_MODEL);
	fact(p, s, "Directory", FACT_CWD);
	fact(p, s, "Branch", FACT_BRANCH);
	fact(p, s, "Permissions", FACT_MODE);
	if (ses->start_ms != TIME_NONE && ses->start_ms > 0) {
		time_t t = (time_t)(ses->start_ms / 1000);
		struct tm tm;
		char when[64];

		if (gmtime_r(&t, &tm) != NULL &&
		    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm) > 0)
			putf(p, "<dt>Started</dt><dd>%s</dd>", when);
	}
	putf(p, "</dl>\n<p class=\"status st-%s\">", model_session_state_name(st));
	buf_reset(&p->line);
	words_session_line(m, s, &p->line);
	esc(p, p->line.p, p->line.n, TEXT_ONELINE);
	put(p, "</p>\n");
}

/* Session s: its heading, its timeline, its transcript. */
static void
session_html(struct page *p, uint32_t s)
{
	p->said_full = false;
	session_head(p, s);
	timeline(p, s);
	put(p, "<h3>Transcript</h3>\n<div class=\"transcript\">\n");
	for (size_t k = p->first[s]; k < p->first[s + 1]; k++) {
		item_html(p, p->items[k]);
		flush(p, false);
	}
	put(p, "</div>\n</section>\n");
}

/* The items shown, grouped by session in the order they are read in
 * (model_order.c: a sub-agent's under its task's), by a counting sort:
 * the sessions of several sources may interleave. */
static void
group_items(struct page *p, size_t nses)
{
	struct model *m = p->m;
	size_t nit = model_nitems(m), *at;
	uint32_t it;

	p->first = xcalloc(nses + 1, sizeof *p->first);
	p->items = xreallocarray(NULL, MAX(nit, (size_t)1), sizeof *p->items);
	for (size_t k = 0; k < nit; k++)
		if (m->it[k].session < nses)
			p->first[m->it[k].session + 1]++;
	for (size_t s = 0; s < nses; s++)
		p->first[s + 1] += p->first[s];
	at = xreallocarray(NULL, MAX(nses, (size_t)1), sizeof *at);
	memcpy(at, p->first, nses * sizeof *at);
	for (uint32_t pos = 0; (it = model_order_item(m, pos)) != NONE; pos++)
		if (m->it[it].session < nses)
			p->items[at[m->it[it].session]++] = it;
	free(at);
}

/* --- the page ------------------------------------------------------------------ */

/* From the doctype to the page's own header. */
static void
page_head(struct page *p, size_t nses)
{
	put(p, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	       "style-src '" HTML_STYLE_HASH "'; script-src '" HTML_SCRIPT_HASH "'; "
	       "base-uri 'none'; form-action 'none'\">\n"
	       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	       "<meta name=\"color-scheme\" content=\"light dark\">\n"
	       "<meta name=\"generator\" content=\"agentview " AGENTVIEW_VERSION "\">\n"
	       "<title>agentview: ");
	buf_reset(&p->line);
	if (nses == 1 && p->m->ses[0].init_ev != NONE) {
		buf_adds(&p->line, "Session ");
		words_session_header(p->m, 0, &p->line);
	} else {
		buf_addf(&p->line, "%zu sessions", nses);
	}
	esc(p, p->line.p, p->line.n, TEXT_ONELINE);
	put(p, "</title>\n<style>");
	put(p, style);
	put(p, "</style>\n</head>\n<body>\n<main>\n<header class=\"page\"><h1>agentview <span>");
	esc(p, p->line.p, p->line.n, TEXT_ONELINE);
	put(p, "</span></h1><div id=\"folding\"></div></header>\n");
}

/* With several sessions: how they ended, and a link to each. */
static void
page_index(struct page *p, size_t nses)
{
	struct model *m = p->m;
	uint32_t by_state[SS_NSTATES] = {0};

	for (size_t s = 0; s < nses; s++)
		by_state[model_session_state(m, (uint32_t)s)]++;
	putf(p, "<nav class=\"sessions\"><h2>%zu sessions:", nses);
	for (int st = 0; st < SS_NSTATES; st++)
		if (by_state[st] > 0)
			putf(p, " %u %s", by_state[st],
			     model_session_state_name((enum session_state)st));
	put(p, "</h2>\n<ol>\n");
	for (size_t s = 0; s < nses; s++) {
		putf(p, "<li><a href=\"#s%zu\">", s + 1);
		buf_reset(&p->line);
		if (m->ses[s].init_ev != NONE)
			words_session_header(m, (uint32_t)s, &p->line);
		else
			buf_addf(&p->line, "session %zu", s + 1);
		esc(p, p->line.p, p->line.n, TEXT_ONELINE);
		putf(p, "</a> <span class=\"st-%s\">",
		     model_session_state_name(model_session_state(m, (uint32_t)s)));
		buf_reset(&p->line);
		words_session_line(m, (uint32_t)s, &p->line);
		esc(p, p->line.p, p->line.n, TEXT_ONELINE);
		put(p, "</span></li>\n");
		flush(p, false);
	}
	put(p, "</ol></nav>\n");
}

/* The end: lines that were not JSON, who made the page, the script. */
static void
page_foot(struct page *p, size_t nses)
{
	size_t ndiag = model_ndiags(p->m);

	if (nses == 0)
		put(p, "<p class=\"none\">No session in the input.</p>\n");
	put(p, "<footer>");
	if (ndiag > 0)
		putf(p, "%zu line%s could not be read as JSON. ", ndiag, ndiag == 1 ? "" : "s");
	put(p, "Made by agentview " AGENTVIEW_VERSION ".</footer>\n</main>\n<script>");
	put(p, script);
	put(p, "</script>\n</body>\n</html>\n");
}

/* The page of the whole model, made once all input has ended. */
static void
html_finish(struct printer *pr)
{
	struct model *m = pr->m;
	struct page p = {.m = m, .out = pr->out};
	size_t nses = model_nsessions(m);

	detail_init(&p.d, m);
	p.d.max = HTML_CALL_BYTES;
	group_items(&p, nses);
	page_head(&p, nses);
	if (nses > 1)
		page_index(&p, nses);
	for (size_t s = 0; s < nses; s++)
		session_html(&p, (uint32_t)s);
	page_foot(&p, nses);
	flush(&p, true);
	detail_free(&p.d);
	markdown_free(&p.md);
	tool_desc_free(&p.td);
	buf_free(&p.o);
	buf_free(&p.san);
	buf_free(&p.text);
	buf_free(&p.line);
	free(p.items);
	free(p.first);
}

/* A page is made of one stream's sessions: the session list and two runs
 * compared are written as text. */
const struct format format_html = {
	.name = "html",
	.help = "one self-contained page",
	.man = "one self-contained page: see\n.BR OUTPUT",
	.finish = html_finish,
	.list = fleet_list_text,
	.change = fleet_change_text,
	.compare = compare_text,
};
