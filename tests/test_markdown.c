/* test_markdown.c: a reply's Markdown parsed through md4c, laid out at a
 * width and written as HTML (src/markdown.c). */
#include "testutil.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markdown.h"
#include "markdown_check.h"
#include "redact.h"

/* A style as letters, in bit order: strong, italic, code, strike, link,
 * image (g), url; heading, block (k), mark, lang (n), cut (x). */
static void
style_letters(struct buf *o, unsigned style)
{
	static const char letters[] = "bicslguhkmnx";

	for (unsigned i = 0; i < sizeof letters - 1; i++)
		if (style & (1u << i))
			buf_addc(o, letters[i]);
}

/* Text in style: as it is when plain, else "{letters|text}". */
static void
styled(struct buf *o, const char *s, size_t n, unsigned style)
{
	if (style != 0) {
		buf_addc(o, '{');
		style_letters(o, style);
		buf_addc(o, '|');
	}
	buf_add(o, s, n);
	if (style != 0)
		buf_addc(o, '}');
}

/* The parsed blocks, one a line, indented by depth: what each is, then
 * its runs, "[text]" when plain (a row's cells after "@column", a link's
 * target after "->"). */
static void
dump(const struct markdown *md, struct buf *o)
{
	static const char *const names[] = {"para", "heading", "code", "rule",
					    "row",  "quote",   "list", "item"};

	buf_reset(o);
	for (size_t i = 0; i < md->nblock; i++) {
		const struct markdown_block *b = &md->block[i];
		int cell = -1;

		for (unsigned d = 0; d < b->depth; d++)
			buf_adds(o, "  ");
		buf_adds(o, names[b->type]);
		if (b->type == MK_HEADING)
			buf_addf(o, " %u", b->level);
		if (b->type == MK_LIST && (b->flags & MK_ORDERED))
			buf_addf(o, " from %u", b->number);
		if (b->type == MK_ITEM && b->number > 0)
			buf_addf(o, " %u", b->number);
		if (b->flags & MK_TIGHT)
			buf_adds(o, " tight");
		if (b->flags & MK_TASK)
			buf_adds(o, (b->flags & MK_DONE) ? " [x]" : " [ ]");
		if (b->flags & MK_HEAD)
			buf_adds(o, " head");
		if (b->flags & MK_BARE)
			buf_adds(o, " bare");
		if (b->nlang > 0) {
			buf_adds(o, " lang=");
			buf_add(o, md->text.p + b->lang, b->nlang);
		}
		if (b->nrun > 0)
			buf_adds(o, ": ");
		for (size_t k = 0; k < b->nrun; k++) {
			const struct markdown_run *r = &md->run[b->run + k];

			if (b->type == MK_ROW && r->cell != cell) {
				cell = r->cell;
				buf_addf(o, " @%d", cell);
			}
			if (r->style == 0)
				buf_addc(o, '[');
			styled(o, md->text.p + r->off, r->len, r->style);
			if (r->style == 0)
				buf_addc(o, ']');
			if (r->link != MARKDOWN_NONE) {
				buf_adds(o, "->");
				buf_add(o, md->text.p + md->url[r->link].off, md->url[r->link].len);
			}
		}
		buf_addc(o, '\n');
	}
}

/* The lines of a layout, joined by newlines, styles as letters. */
static void
lines(const struct markdown_layout *l, struct buf *o)
{
	buf_reset(o);
	for (size_t i = 0; i < l->nline; i++) {
		const struct markdown_line *ln = &l->line[i];

		if (i > 0)
			buf_addc(o, '\n');
		for (size_t k = 0; k < ln->nseg; k++) {
			const struct markdown_seg *g = &l->seg[ln->seg + k];

			styled(o, l->text.p + g->off, g->len, g->style);
		}
	}
}

static void
lay(const char *s, size_t width, struct buf *o)
{
	struct markdown md = {0};
	struct markdown_layout l = {0};

	markdown_parse(&md, s, strlen(s));
	markdown_layout(&md, width, &l);
	assert_true(markdown_lines_fit(&l, width));
	lines(&l, o);
	markdown_layout_free(&l);
	markdown_free(&md);
}

static void
html(const char *s, struct buf *o)
{
	struct markdown md = {0};

	buf_reset(o);
	markdown_parse(&md, s, strlen(s));
	markdown_html(&md, 4, o);
	markdown_free(&md);
}

struct str_case {
	const char *in;
	const char *want;
};

struct lay_case {
	const char *in;
	size_t width;
	const char *want;
};

/* ---- the parsed structure ---- */

static void
test_parse_cases(void **state)
{
	static const struct str_case cases[] = {
		{"", ""},
		{"# One\n## Two\n###### Six\n####### seven",
		 "heading 1: [One]\nheading 2: [Two]\nheading 6: [Six]\npara: [####### seven]\n"},
		{"Setext\n===\n", "heading 1: [Setext]\n"},
		/* every span */
		{"a **b** *c* _d_ `e` ~~f~~ ~g~ ***h***",
		 "para: [a ]{b|b}[ ]{i|c}[ ]{i|d}[ ]{c|e}[ ]{s|f}[ ]{s|g}[ ]{bi|h}\n"},
		{"**bold *both* `code`**", "para: {b|bold }{bi|both}{b| }{bc|code}\n"},
		/* links: a target said by its text is not repeated */
		{"[t](http://u \"title\") <https://x.y> www.z.com/a",
		 "para: {l|t}->http://u{u|http://u}[ ]{l|https://x.y}->https://x.y[ ]"
		 "{l|www.z.com/a}->http://www.z.com/a\n"},
		{"[**b**](https://e) [](https://f) [j](javascript:x)",
		 "para: {bl|b}->https://e{u|https://e}[ ]{u|https://f}[ ]{l|j}->javascript:x"
		 "{u|javascript:x}\n"},
		/* images: alt text, or "image"; an image in a link is both */
		{"![alt *em*](p.png) ![](q.png) [![in](i.png)](https://o)",
		 "para: {g|alt }{ig|em}{gu|p.png}[ ]{g|image}{gu|q.png}[ ]"
		 "{lg|in}->https://o{lgu|i.png}->https://o{u|https://o}\n"},
		/* no permissive e-mail links; an explicit one is a link */
		{"git@github.com:x <a@b.c>", "para: [git@github.com:x ]{l|a@b.c}->mailto:a@b.c\n"},
		/* lists: numbers, tightness, nesting */
		{"3. a\n4. b\n",
		 "list from 3 tight\n  item 3\n    para bare: [a]\n  item 4\n    para bare: [b]\n"},
		{"- a\n\n- b\n", "list\n  item\n    para: [a]\n  item\n    para: [b]\n"},
		{"- a\n  - b\n    1. c\n",
		 "list tight\n  item\n    para bare: [a]\n    list tight\n      item\n"
		 "        para bare: [b]\n        list from 1 tight\n          item 1\n"
		 "            para bare: [c]\n"},
		{"- [x] done\n- [ ] open\n- [X] also",
		 "list tight\n  item [x]\n    para bare: [done]\n  item [ ]\n    para bare: [open]\n"
		 "  item [x]\n    para bare: [also]\n"},
		/* an empty item and an empty quote keep a paragraph */
		{"-\n- b\n\n>\n",
		 "list tight\n  item\n    para bare\n  item\n    para bare: [b]\nquote\n  para bare\n"},
		{"> a\n>> b\n", "quote\n  para: [a]\n  quote\n    para: [b]\n"},
		/* code: its language, its lines without the last newline */
		{"```py x=1\ncode\n  more\n```\n\n    indented\n",
		 "code lang=py: [code\n  more]\ncode: [indented]\n"},
		{"~~~\n~~~\n", "code\n"},
		{"---\n***\n", "rule\nrule\n"},
		/* a table: its rows, an empty cell an empty run */
		{"| a | *b* |\n|---|:-:|\n| 1 |  |\n| 2 |\n",
		 "row head:  @0[a] @1{i|b}\nrow:  @0[1] @1[]\nrow:  @0[2] @1[]\n"},
		/* breaks: hard ones are newlines, soft ones spaces */
		{"a  \nb\\\nc\nd", "para: [a\nb\nc d]\n"},
		/* raw HTML is text */
		{"<b>x</b> <!-- c -->\n\n<div>\n</div>\n",
		 "para: [<b>x</b> <!-- c -->]\npara: [<div> </div>]\n"},
		/* entities: decoded, through the sanitizer; unknown ones kept */
		{"&amp; &copy; &#65; &#x1F600; &#27; &#0; &bogus; &#x202E;",
		 "para: [& \xC2\xA9 A \xF0\x9F\x98\x80 ^[ \xEF\xBF\xBD &bogus; \\u202E]\n"},
		{"[e](&#106;avascript:x&amp;y)", "para: {l|e}->javascript:x&y{u|javascript:x&y}\n"},
	};
	struct markdown md = {0};
	struct buf o = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		markdown_parse(&md, cases[i].in, strlen(cases[i].in));
		dump(&md, &o);
		if (strcmp(o.p != NULL ? o.p : "", cases[i].want) != 0) {
			fprintf(stderr, "case %zu: %s\ngot:\n%s\nwant:\n%s\n", i, cases[i].in, o.p,
				cases[i].want);
			fail();
		}
		assert_false(md.plain);
	}
	markdown_free(&md);
	buf_free(&o);
}

/* ---- layout ---- */

/* Every kind of block and span, nested. */
static const char sample[] = "# Fix the build\n"
			     "\n"
			     "The test **failed** because `make` ran with *old* flags; see [the "
			     "log](https://ci.example.com/run/42) or https://example.com/x.\n"
			     "\n"
			     "1. Clean the tree:\n"
			     "   ```sh\n"
			     "   make clean && make -j2 WERROR=-Werror all\n"
			     "   ```\n"
			     "2. Run it again\n"
			     "   - [x] unit\n"
			     "   - [ ] screen\n"
			     "\n"
			     "> **Note:** the cache\n"
			     "> lives in `~/.cache`.\n"
			     "\n"
			     "| step | time | result |\n"
			     "|------|-----:|--------|\n"
			     "| unit | 12 s | ok |\n"
			     "| screen | 3 m | **failed** twice |\n"
			     "\n"
			     "---\n"
			     "![diagram](docs/flow.png)\n";

/* The same, short enough to read at widths 1 and 3; a wide character
 * last, which width 1 cannot show. */
static const char small[] = "# Hi\n\n- a **b**\n\n> q\n\n```\ncode\n```\n\n| a |\n|---|\n| 1 |\n\n"
			    "[l](http://x) \xE4\xBD\xA0\n";

/* The sample at the screen's widths and below: wrapped, markers and bars
 * before every line, code cut, the table a grid, then records. */
static void
test_layout_widths(void **state)
{
	static const struct lay_case cases[] = {
		{sample, 120,
		 "{h|Fix the build}\n"
		 "\n"
		 "The test {b|failed} because {c|make} ran with {i|old} flags; see {l|the log} {u|(https://ci.example.com/run/42)} or {l|https://example.com/x}.\n"
		 "\n"
		 "{m|1. }Clean the tree:\n"
		 "   {n|sh}\n"
		 "   {k|make clean && make -j2 WERROR=-Werror all}\n"
		 "{m|2. }Run it again\n"
		 "   {m|✓ }unit\n"
		 "   {m|○ }screen\n"
		 "\n"
		 "{m|│ }{b|Note:} the cache lives in {c|~/.cache}.\n"
		 "\n"
		 "{h|step}  {m| │ }{h|time}{m| │ }{h|result}\n"
		 "{m|───────┼──────┼─────────────}\n"
		 "unit  {m| │ }12 s{m| │ }ok\n"
		 "screen{m| │ }3 m {m| │ }{b|failed} twice\n"
		 "\n"
		 "{m|────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────}\n"
		 "\n"
		 "{g|diagram} {gu|(docs/flow.png)}"},
		{sample, 80,
		 "{h|Fix the build}\n"
		 "\n"
		 "The test {b|failed} because {c|make} ran with {i|old} flags; see {l|the log}\n"
		 "{u|(https://ci.example.com/run/42)} or {l|https://example.com/x}.\n"
		 "\n"
		 "{m|1. }Clean the tree:\n"
		 "   {n|sh}\n"
		 "   {k|make clean && make -j2 WERROR=-Werror all}\n"
		 "{m|2. }Run it again\n"
		 "   {m|✓ }unit\n"
		 "   {m|○ }screen\n"
		 "\n"
		 "{m|│ }{b|Note:} the cache lives in {c|~/.cache}.\n"
		 "\n"
		 "{h|step}  {m| │ }{h|time}{m| │ }{h|result}\n"
		 "{m|───────┼──────┼─────────────}\n"
		 "unit  {m| │ }12 s{m| │ }ok\n"
		 "screen{m| │ }3 m {m| │ }{b|failed} twice\n"
		 "\n"
		 "{m|────────────────────────────────────────────────────────────────────────────────}\n"
		 "\n"
		 "{g|diagram} {gu|(docs/flow.png)}"},
		{sample, 40,
		 "{h|Fix the build}\n"
		 "\n"
		 "The test {b|failed} because {c|make} ran with\n"
		 "{i|old} flags; see {l|the log}\n"
		 "{u|(https://ci.example.com/run/42)} or\n"
		 "{l|https://example.com/x}.\n"
		 "\n"
		 "{m|1. }Clean the tree:\n"
		 "   {n|sh}\n"
		 "   {k|make clean && make -j2 WERROR=-Werro}{kx|…}\n"
		 "{m|2. }Run it again\n"
		 "   {m|✓ }unit\n"
		 "   {m|○ }screen\n"
		 "\n"
		 "{m|│ }{b|Note:} the cache lives in {c|~/.cache}.\n"
		 "\n"
		 "{h|step}  {m| │ }{h|time}{m| │ }{h|result}\n"
		 "{m|───────┼──────┼─────────────}\n"
		 "unit  {m| │ }12 s{m| │ }ok\n"
		 "screen{m| │ }3 m {m| │ }{b|failed} twice\n"
		 "\n"
		 "{m|────────────────────────────────────────}\n"
		 "\n"
		 "{g|diagram} {gu|(docs/flow.png)}"},
		{sample, 10,
		 "{h|Fix the}\n"
		 "{h|build}\n"
		 "\n"
		 "The test\n"
		 "{b|failed}\n"
		 "because\n"
		 "{c|make} ran\n"
		 "with {i|old}\n"
		 "flags; see\n"
		 "{l|the log}\n"
		 "{u|(https://c}\n"
		 "{u|i.example.}\n"
		 "{u|com/run/42}\n"
		 "{u|)} or\n"
		 "{l|https://ex}\n"
		 "{l|ample.com/}\n"
		 "{l|x}.\n"
		 "\n"
		 "{m|1. }Clean\n"
		 "   the\n"
		 "   tree:\n"
		 "   {n|sh}\n"
		 "   {k|make c}{kx|…}\n"
		 "{m|2. }Run it\n"
		 "   again\n"
		 "   {m|✓ }unit\n"
		 "   {m|○ }scree\n"
		 "     n\n"
		 "\n"
		 "{m|│ }{b|Note:}\n"
		 "{m|│ }the\n"
		 "{m|│ }cache\n"
		 "{m|│ }lives in\n"
		 "{m|│ }{c|~/.cache}\n"
		 "{m|│ }.\n"
		 "\n"
		 "{h|step: }unit\n"
		 "{h|time: }12 s\n"
		 "{h|result: }ok\n"
		 "\n"
		 "{h|step:}\n"
		 "screen\n"
		 "{h|time: }3 m\n"
		 "{h|result:}\n"
		 "{b|failed}\n"
		 "twice\n"
		 "\n"
		 "{m|──────────}\n"
		 "\n"
		 "{g|diagram}\n"
		 "{gu|(docs/flow}\n"
		 "{gu|.png)}"},
		{small, 3,
		 "{h|Hi}\n"
		 "\n"
		 "{m|• }a\n"
		 "  {b|b}\n"
		 "\n"
		 "{m|│ }q\n"
		 "\n"
		 "{k|co}{kx|…}\n"
		 "\n"
		 "{h|a}\n"
		 "{m|─}\n"
		 "1\n"
		 "\n"
		 "{l|l}\n"
		 "{u|(ht}\n"
		 "{u|tp:}\n"
		 "{u|//x}\n"
		 "{u|)}\n"
		 "你"},
		{small, 1,
		 "{h|H}\n"
		 "{h|i}\n"
		 "\n"
		 "a\n"
		 "{b|b}\n"
		 "\n"
		 "q\n"
		 "\n"
		 "{kx|…}\n"
		 "\n"
		 "{h|a}\n"
		 "{m|─}\n"
		 "1\n"
		 "\n"
		 "{l|l}\n"
		 "{u|(}\n"
		 "{u|h}\n"
		 "{u|t}\n"
		 "{u|t}\n"
		 "{u|p}\n"
		 "{u|:}\n"
		 "{u|/}\n"
		 "{u|/}\n"
		 "{u|x}\n"
		 "{u|)}\n"
		 ""},
	};
	struct buf o = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		lay(cases[i].in, cases[i].width, &o);
		if (strcmp(o.p != NULL ? o.p : "", cases[i].want) != 0) {
			fprintf(stderr, "case %zu at %zu:\ngot:\n%s\nwant:\n%s\n", i,
				cases[i].width, o.p, cases[i].want);
			fail();
		}
	}
	buf_free(&o);
}

/* One thing at a time. */
static void
test_layout_cases(void **state)
{
	static const struct lay_case cases[] = {
		{"", 40, ""},
		/* a link that is its own text, bare or in brackets */
		{"<https://a.b> and www.x.org", 40, "{l|https://a.b} and {l|www.x.org}"},
		/* blank lines: between items of a loose list, not a tight one */
		{"- a\n\n- b", 20, "{m|\xE2\x80\xA2 }a\n\n{m|\xE2\x80\xA2 }b"},
		{"- a\n- b\n\npara", 20, "{m|\xE2\x80\xA2 }a\n{m|\xE2\x80\xA2 }b\n\npara"},
		/* continuation lines under the marker */
		{"- aaa bbb ccc", 8, "{m|\xE2\x80\xA2 }aaa\n  bbb\n  ccc"},
		{"9. a\n10. b", 20, "{m|9. }a\n{m|10. }b"},
		/* bullets by depth */
		{"- a\n  - b\n    - c\n      - d", 20,
		 "{m|\xE2\x80\xA2 }a\n  {m|\xE2\x97\xA6 }b\n    {m|\xE2\x96\xAA }c\n"
		 "      {m|\xE2\x96\xAA }d"},
		/* a loose item's second paragraph under its marker */
		{"1. a\n\n   b", 20, "{m|1. }a\n\n   b"},
		/* a quote's blank line keeps its bar; a quote in an item */
		{"> a\n>\n> b", 20, "{m|\xE2\x94\x82 }a\n{m|\xE2\x94\x82}\n{m|\xE2\x94\x82 }b"},
		{"- > q\n  > r", 20, "{m|\xE2\x80\xA2 \xE2\x94\x82 }q r"},
		{"> - a\n>\n>   b", 20,
		 "{m|\xE2\x94\x82 \xE2\x80\xA2 }a\n{m|\xE2\x94\x82}\n{m|\xE2\x94\x82 }  b"},
		/* code: not wrapped, cut with a mark; its tabs as spaces */
		{"```\nabcdefgh\n\nx\n```", 5, "{k|abcd}{kx|\xE2\x80\xA6}\n\n{k|x}"},
		{"```\n\tx\n```", 20, "{k|        x}"},
		{"```\nabc\n```", 1, "{kx|\xE2\x80\xA6}"},
		/* a hard break */
		{"a\\\nb", 20, "a\nb"},
		{"---", 5, "{m|\xE2\x94\x80\xE2\x94\x80\xE2\x94\x80\xE2\x94\x80\xE2\x94\x80}"},
		/* a cell wrapped within its column */
		{"| a | b |\n|---|---|\n| one two three | x |", 14,
		 "{h|a}         {m| \xE2\x94\x82 }{h|b}\n"
		 "{m|\xE2\x94\x80\xE2\x94\x80\xE2\x94\x80\xE2\x94\x80\xE2\x94\x80\xE2\x94\x80"
		 "\xE2\x94\x80\xE2\x94\x80\xE2\x94\x80\xE2\x94\x80\xE2\x94\x80\xE2\x94\xBC"
		 "\xE2\x94\x80\xE2\x94\x80}\n"
		 "one two   {m| \xE2\x94\x82 }x\n"
		 "three     {m| \xE2\x94\x82 }"},
		/* the prefix never takes the last cell */
		{"> > > > > > > > > > > > > > > > a b", 10,
		 "{m|\xE2\x94\x82 \xE2\x94\x82 \xE2\x94\x82 \xE2\x94\x82 \xE2\x94\x82}a\n"
		 "{m|\xE2\x94\x82 \xE2\x94\x82 \xE2\x94\x82 \xE2\x94\x82 \xE2\x94\x82}b"},
		/* wide characters wrap whole */
		{"\xE4\xBD\xA0\xE5\xA5\xBD\xE4\xB8\x96\xE7\x95\x8C", 5,
		 "\xE4\xBD\xA0\xE5\xA5\xBD\n\xE4\xB8\x96\xE7\x95\x8C"},
		/* a table of empty cells: no text at all to point into */
		{"|  |\n|---|\n|\n", 10, "\n{m|\xE2\x94\x80}\n"},
		/* width 0 is 1 */
		{"ab", 0, "a\nb"},
	};
	struct buf o = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		lay(cases[i].in, cases[i].width, &o);
		if (strcmp(o.p != NULL ? o.p : "", cases[i].want) != 0) {
			fprintf(stderr, "case %zu: %s\ngot:\n%s\nwant:\n%s\n", i, cases[i].in, o.p,
				cases[i].want);
			fail();
		}
	}
	buf_free(&o);
}

/* Each line says what it shows: the screen colours a code block's lines
 * whole and may tell headings apart. */
static void
test_layout_lines(void **state)
{
	static const char in[] = "## Head\n\n```\nx\n```\n---\n\n| a |\n|---|\n| 1 |";
	static const uint8_t type[] = {MK_HEADING, MK_BLANK, MK_CODE, MK_BLANK, MK_RULE,
				       MK_BLANK,   MK_ROW,   MK_ROW,  MK_ROW};
	struct markdown md = {0};
	struct markdown_layout l = {0};

	(void)state;
	markdown_parse(&md, in, sizeof in - 1);
	/* Laid out twice: the second reuses the first's arrays. */
	markdown_layout(&md, 7, &l);
	markdown_layout(&md, 30, &l);
	assert_int_equal(l.nline, ARRAY_LEN(type));
	for (size_t i = 0; i < l.nline; i++)
		assert_int_equal(l.line[i].type, type[i]);
	assert_int_equal(l.line[0].level, 2);
	assert_int_equal(l.line[4].width, 30);
	markdown_layout_free(&l);
	markdown_free(&md);
}

/* ---- HTML ---- */

#define REL " rel=\"noopener noreferrer nofollow\""

static void
test_html_cases(void **state)
{
	static const struct str_case cases[] = {
		{"", ""},
		{"# T\n\n### U\n\n###### V\n\npara *e* **s** `c` ~~d~~",
		 "<h4>T</h4>\n<h6>U</h6>\n<h6>V</h6>\n"
		 "<p>para <em>e</em> <strong>s</strong> <code>c</code> <del>d</del></p>\n"},
		/* styles are bits: their elements nest in one order */
		{"***a** b*", "<p><strong><em>a</em></strong><em> b</em></p>\n"},
		/* links only to http:, https:, mailto:; the others as text */
		{"[a](https://x) [b](javascript:alert(1)) [c](mailto:m@x.y) [d](ftp://f) [e](/rel)",
		 "<p><a href=\"https://x\"" REL ">a</a> b <span class=\"url\">(javascript:alert(1))"
		 "</span> <a href=\"mailto:m@x.y\"" REL
		 ">c</a> d <span class=\"url\">(ftp://f)</span> "
		 "e <span class=\"url\">(/rel)</span></p>\n"},
		{"[x](HTTPS://a/\"onmouseover=\"x) [y](<java\tscript:x>)",
		 "<p><a href=\"HTTPS://a/&quot;onmouseover=&quot;x\"" REL ">x</a> y <span "
		 "class=\"url\">(java        script:x)</span></p>\n"},
		/* never an <img>: an image is its text, its target a link */
		{"![alt](https://i/x.png) ![t](javascript:x)",
		 "<p><span class=\"image\">alt</span> (<a class=\"url\" href=\"https://i/x.png\"" REL
		 ">https://i/x.png</a>) <span class=\"image\">t</span> <span class=\"url\">"
		 "(javascript:x)</span></p>\n"},
		{"[![i](https://p)](https://o)",
		 "<p><a href=\"https://o\"" REL
		 "><span class=\"image\">i</span> <span class=\"url\">"
		 "(https://p)</span></a></p>\n"},
		{"1. a\n2. b\n\n- [x] t\n- [ ] u\n\n3. c",
		 "<ol>\n<li>a\n</li>\n<li>b\n</li>\n</ol>\n<ul>\n<li class=\"task\"><span "
		 "class=\"check\">\xE2\x9C\x93</span> t\n</li>\n<li class=\"task\"><span "
		 "class=\"check\">\xE2\x97\x8B</span> u\n</li>\n</ul>\n<ol start=\"3\">\n<li>c\n"
		 "</li>\n</ol>\n"},
		{"- a\n\n  b\n  - c",
		 "<ul>\n<li><p>a</p>\n<p>b</p>\n<ul>\n<li>c\n</li>\n</ul>\n</li>\n</ul>\n"},
		{"> q\n\n```c++ x\nint x<1;\n```\n---",
		 "<blockquote>\n<p>q</p>\n</blockquote>\n<div class=\"lang\">c++</div>\n"
		 "<pre class=\"code\"><code>int x&lt;1;</code></pre>\n<hr>\n"},
		{"| a | b |\n|---|---|\n| 1 | `2` |\n|\n\n| c |\n|---|",
		 "<table>\n<thead>\n<tr><th>a</th><th>b</th></tr>\n</thead>\n<tbody>\n"
		 "<tr><td>1</td><td><code>2</code></td></tr>\n<tr><td></td><td></td></tr>\n</tbody>\n"
		 "</table>\n<table>\n<thead>\n<tr><th>c</th></tr>\n</thead>\n</table>\n"},
		{"a\\\nb  \nc", "<p>a<br>\nb<br>\nc</p>\n"},
		/* raw HTML, escapes and entities: all text */
		{"<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n"
		 "\x1B]52;c;aGk=\x07 &#60;b&#62; &lt;i&gt;",
		 "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"
		 "<p>&lt;img src=x onerror=alert(1)&gt;</p>\n"
		 "<p>^[]52;c;aGk=^G &lt;b&gt; &lt;i&gt;</p>\n"},
		{"`<b>` **<i>**", "<p><code>&lt;b&gt;</code> <strong>&lt;i&gt;</strong></p>\n"},
	};
	struct buf o = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		html(cases[i].in, &o);
		if (strcmp(o.p != NULL ? o.p : "", cases[i].want) != 0) {
			fprintf(stderr, "case %zu: %s\ngot:\n%s\nwant:\n%s\n", i, cases[i].in, o.p,
				cases[i].want);
			fail();
		}
	}
	buf_free(&o);
}

/* ---- hostile input and the limits ---- */

/* Every laid out byte prints: no newline, no control, valid UTF-8. */
static void
check_printable(const struct markdown_layout *l)
{
	struct buf again = {0};

	for (size_t i = 0; i < l->text.n; i++) {
		unsigned char c = (unsigned char)l->text.p[i];

		assert_true(c >= 0x20 && c != 0x7F);
	}
	/* Sanitized text comes back the same: nothing left to escape. */
	text_sanitize(&again, l->text.p != NULL ? l->text.p : "", l->text.n, TEXT_REDACTED);
	assert_int_equal(again.n, l->text.n);
	if (again.n > 0)
		assert_memory_equal(again.p, l->text.p, again.n);
	buf_free(&again);
}

/* Parse s, lay it out at every width asked and write it as HTML: the
 * lines within their width, every byte printable, the page our markup. */
static void
check_all(struct markdown *md, const char *s, size_t n)
{
	static const size_t widths[] = {120, 80, 40, 10, 1};
	struct markdown_layout l = {0};
	struct buf o = {0};

	markdown_parse(md, s, n);
	for (size_t i = 0; i < ARRAY_LEN(widths); i++) {
		markdown_layout(md, widths[i], &l);
		assert_true(markdown_lines_fit(&l, widths[i]));
		check_printable(&l);
	}
	markdown_html(md, 4, &o);
	assert_null(markdown_html_stranger(o.p, o.n));
	markdown_layout_free(&l);
	buf_free(&o);
}

/* Count of needle in s. */
static size_t
count(const char *s, const char *needle)
{
	size_t k = 0;

	for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		k++;
	return k;
}

/* Controls and escape sequences everywhere text goes: in text, a code
 * span, a code block and its language, a link's text and target, a
 * heading, a cell. */
static void
test_hostile_bytes(void **state)
{
	static const char in[] =
		"# \x1B]0;title\x07 head\n\n"
		"a\x1B[31mred\x1B[0m \x07\x08\x7F \xC2\x9B"
		"2J `\x1B[2J` \xE2\x80\xAE"
		"evil\x00nul\r\n"
		"[\x1B[1mx](https://a/\x1B[1m) [y](javascript:alert(1)) <script>alert(1)</script>\n\n"
		"```\x1B[31m\n\x1B]52;c;aGk=\x07\tcode\n```\n\n"
		"| \x1B[1m | b |\n|---|---|\n| \x07 | <img src=x> |\n\n"
		"\xFF\xFE invalid \xC3 bytes &#27;[2J &#x9B; &#x202E;\n";
	struct markdown md = {0};
	struct buf o = {0};

	(void)state;
	check_all(&md, in, sizeof in - 1);
	dump(&md, &o);
	assert_null(strchr(o.p, '\x1B'));
	assert_null(strchr(o.p, '\x07'));
	assert_non_null(strstr(o.p, "heading 1: [^[]0;title^G head]"));
	assert_non_null(strstr(o.p, "{c|^[[2J}"));
	/* "[^[" is text, "[1mx]" the link */
	assert_non_null(strstr(o.p, "[^[]{l|1mx}->https://a/^[[1m{u|https://a/^[[1m}"));
	assert_non_null(strstr(o.p, "code lang=^[[31m: [^[]52;c;aGk=^G  code]"));
	assert_non_null(strstr(o.p, "\\u009B2J"));
	assert_non_null(strstr(o.p, "\\u202Eevil^@nul"));
	assert_non_null(strstr(o.p, "^[[2J \\u009B \\u202E"));
	buf_reset(&o);
	markdown_html(&md, 4, &o);
	assert_int_equal(count(o.p, "<a "), 1);
	assert_null(strstr(o.p, "<script"));
	assert_null(strstr(o.p, "<img"));
	assert_non_null(strstr(o.p, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(o.p, "<span class=\"url\">(javascript:alert(1))</span>"));
	markdown_free(&md);
	buf_free(&o);
}

/* 100,000 nested quotes, 50,000 nested lists: the containers past the
 * limit are not kept, what they hold is. */
static void
test_hostile_nesting(void **state)
{
	size_t n = 100000;
	char *s = xmalloc(2 * n + 16);
	struct markdown md = {0};
	struct buf o = {0};

	(void)state;
	memset(s, '>', n);
	memcpy(s + n, " deep\n", 7);
	check_all(&md, s, n + 6);
	assert_false(md.plain);
	assert_int_equal(md.nblock, MARKDOWN_MAX_DEPTH + 1);
	assert_int_equal(md.block[MARKDOWN_MAX_DEPTH].type, MK_PARA);
	assert_int_equal(md.block[MARKDOWN_MAX_DEPTH].depth, MARKDOWN_MAX_DEPTH);
	buf_reset(&o);
	markdown_html(&md, 4, &o);
	assert_int_equal(count(o.p, "<blockquote>"), MARKDOWN_MAX_DEPTH);
	assert_int_equal(count(o.p, "</blockquote>"), MARKDOWN_MAX_DEPTH);
	assert_non_null(strstr(o.p, "<p>deep</p>"));

	/* 50,000 lists in one line of 100 KB */
	n = 50000;
	for (size_t i = 0; i < n; i++)
		memcpy(s + 2 * i, "- ", 2);
	memcpy(s + 2 * n, "a\n", 3);
	check_all(&md, s, 2 * n + 2);
	assert_false(md.plain);
	assert_int_equal(md.nblock, MARKDOWN_MAX_DEPTH + 1);
	buf_reset(&o);
	markdown_html(&md, 4, &o);
	assert_int_equal(count(o.p, "<ul>"), MARKDOWN_MAX_DEPTH / 2);
	assert_int_equal(count(o.p, "</li>"), MARKDOWN_MAX_DEPTH / 2);
	/* 100,000: a line longer than md4c is given is plain */
	n = 100000;
	for (size_t i = 0; i < n; i++)
		memcpy(s + 2 * i, "- ", 2);
	memcpy(s + 2 * n, "a\n", 3);
	check_all(&md, s, 2 * n + 2);
	assert_true(md.plain);
	assert_int_equal(md.run[0].len, 2 * n + 2);
	free(s);
	markdown_free(&md);
	buf_free(&o);
}

/* Runs of what md4c works hardest on: stars, brackets, backticks, and
 * what md4c 0.4.8 takes quadratic time over (bare URLs, tildes, "](["
 * lines), 64 KiB of each: within what md4c is given, so that it reads
 * them (test_hostile_stars is past it). */
static void
test_hostile_runs(void **state)
{
	static const char *const units[] = {
		"*",    "**a ", "[",  "[a](", "`", "``a", "]([\n", "http://a.b/(", "www.a.b ",
		"~~a ", "~a~",  "_*", "![",   "|", "- ",  "> ",    "&#",           "<",
	};
	size_t n = 64u << 10;
	char *s = xmalloc(n);
	struct markdown md = {0};

	(void)state;
	for (size_t u = 0; u < ARRAY_LEN(units); u++) {
		size_t k = strlen(units[u]);

		for (size_t i = 0; i < n; i++)
			s[i] = units[u][i % k];
		check_all(&md, s, n);
	}
	free(s);
	markdown_free(&md);
}

/* A line of 10 MB of stars is no Markdown: one plain paragraph, all of
 * it, laid out in full lines. */
static void
test_hostile_stars(void **state)
{
	size_t n = 10u << 20;
	char *s = xmalloc(n);
	struct markdown md = {0};
	struct markdown_layout l = {0};

	(void)state;
	memset(s, '*', n);
	markdown_parse(&md, s, n);
	assert_true(md.plain);
	assert_int_equal(md.nblock, 1);
	assert_int_equal(md.nrun, 1);
	assert_int_equal(md.run[0].len, n);
	assert_memory_equal(md.text.p + md.run[0].off, s, n);
	markdown_layout(&md, 120, &l);
	assert_int_equal(l.nline, (n + 119) / 120);
	assert_int_equal(l.line[0].width, 120);
	assert_int_equal(l.line[l.nline - 1].width, n % 120);
	markdown_layout_free(&l);
	markdown_free(&md);
	free(s);
}

/* More blocks than kept: md4c is stopped, and the text comes back whole
 * as one plain paragraph. */
static void
test_limit_blocks(void **state)
{
	size_t items = MARKDOWN_MAX_BLOCKS, n = 4 * items;
	char *s = xmalloc(n);
	struct markdown md = {0};

	(void)state;
	for (size_t i = 0; i < items; i++)
		memcpy(s + 4 * i, "- a\n", 4);
	markdown_parse(&md, s, n);
	assert_true(md.plain);
	assert_int_equal(md.nblock, 1);
	assert_int_equal(md.block[0].type, MK_PARA);
	assert_int_equal(md.run[0].len, n);
	assert_memory_equal(md.text.p + md.run[0].off, s, n);
	/* One item fewer than half the limit (a list, its items, their
	 * paragraphs): Markdown. */
	markdown_parse(&md, s, 4 * (items / 2 - 1));
	assert_false(md.plain);
	assert_int_equal(md.nblock, 1 + 2 * (items / 2 - 1));
	markdown_free(&md);
	free(s);
}

/* Past MARKDOWN_MAX_BYTES, from a line's end, the rest is plain. */
static void
test_limit_bytes(void **state)
{
	size_t para = 1000, paras = 200, n = paras * para, k, parsed;
	char *s = xmalloc(n);
	struct markdown md = {0};
	const struct markdown_block *last;

	(void)state;
	/* Paragraphs of 998 letters, a blank line after each. */
	for (size_t i = 0; i < paras; i++) {
		memset(s + i * para, 'a', para - 2);
		memcpy(s + i * para + para - 2, "\n\n", 2);
	}
	markdown_parse(&md, s, n);
	assert_false(md.plain);
	/* The cut: the last newline within the limit. */
	k = MARKDOWN_MAX_BYTES;
	while (s[k - 1] != '\n')
		k--;
	parsed = k / para;
	assert_int_equal(md.nblock, parsed + 1);
	for (size_t i = 0; i < parsed; i++)
		assert_int_equal(md.run[md.block[i].run].len, para - 2);
	last = &md.block[parsed];
	assert_int_equal(last->type, MK_PARA);
	assert_int_equal(last->flags, 0);
	assert_int_equal(last->nrun, 1);
	assert_int_equal(md.run[last->run].len, n - k);
	assert_memory_equal(md.text.p + md.run[last->run].off, s + k, n - k);
	markdown_free(&md);
	free(s);
}

/* Bare links and strikethrough, unless md4c would take quadratic time
 * over how many there are; Markdown at all, unless its links would. */
static void
test_limit_extensions(void **state)
{
	struct markdown md = {0};
	struct buf s = {0};
	size_t links = 0, strikes = 0;

	(void)state;
	for (int i = 0; i < 3; i++)
		buf_adds(&s, "http://a.b ~c~ ");
	markdown_parse(&md, s.p, s.n);
	for (size_t i = 0; i < md.nrun; i++) {
		links += (md.run[i].style & MS_LINK) != 0;
		strikes += (md.run[i].style & MS_STRIKE) != 0;
	}
	assert_int_equal(links, 3);
	assert_int_equal(strikes, 3);
	for (int i = 3; i < 300; i++)
		buf_adds(&s, "http://a.b ~c~ ");
	markdown_parse(&md, s.p, s.n);
	assert_false(md.plain);
	assert_int_equal(md.nrun, 1);
	assert_int_equal(md.run[0].style, 0);

	/* A list of 1,000 links is Markdown; "]([" in 10,000 lines of one
	 * paragraph (md4c: 0.1 s) is text. */
	buf_reset(&s);
	for (int i = 0; i < 1000; i++)
		buf_addf(&s, "- [a](x%d)\n", i);
	markdown_parse(&md, s.p, s.n);
	assert_false(md.plain);
	for (size_t i = links = 0; i < md.nrun; i++)
		links += (md.run[i].style & MS_LINK) != 0;
	assert_int_equal(links, 1000);
	buf_reset(&s);
	for (int i = 0; i < 10000; i++)
		buf_adds(&s, "]([\n");
	markdown_parse(&md, s.p, s.n);
	assert_true(md.plain);
	assert_int_equal(md.run[0].len, s.n);
	/* The same lines parted by blank lines are Markdown again. */
	buf_reset(&s);
	for (int i = 0; i < 10000; i++)
		buf_adds(&s, i % 100 == 99 ? "\n" : "]([\n");
	markdown_parse(&md, s.p, s.n);
	assert_false(md.plain);
	markdown_free(&md);
	buf_free(&s);
}

/* The redactor in use takes secrets out before md4c reads the text: in
 * text, a code span, a target. */
static void
test_redacted(void **state)
{
	static const char in[] =
		"token **ghp_abcdefghijklmnopqrstuvwxyz0123456789** `AKIAABCDEFGHIJKLMNOP` "
		"[x](https://h/?t=ghp_abcdefghijklmnopqrstuvwxyz0123456789)";
	struct redact *r = redact_new();
	struct markdown md = {0};
	struct buf o = {0};

	(void)state;
	redact_use(r, true);
	markdown_parse(&md, in, sizeof in - 1);
	redact_use(NULL, false);
	dump(&md, &o);
	assert_string_equal(o.p, "para: [token ]{b|[redacted]}[ ]{c|[redacted]}[ ]"
				 "{l|x}->https://h/?t=[redacted]{u|https://h/?t=[redacted]}\n");
	redact_free(r);
	markdown_free(&md);
	buf_free(&o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_cases),     cmocka_unit_test(test_layout_widths),
		cmocka_unit_test(test_layout_cases),    cmocka_unit_test(test_layout_lines),
		cmocka_unit_test(test_html_cases),      cmocka_unit_test(test_hostile_bytes),
		cmocka_unit_test(test_hostile_nesting), cmocka_unit_test(test_hostile_runs),
		cmocka_unit_test(test_hostile_stars),   cmocka_unit_test(test_limit_blocks),
		cmocka_unit_test(test_limit_bytes),     cmocka_unit_test(test_limit_extensions),
		cmocka_unit_test(test_redacted),
	};

	setlocale(LC_CTYPE, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
