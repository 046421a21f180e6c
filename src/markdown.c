/* markdown.c: a reply's Markdown through md4c's parser (markdown.h): its
 * callbacks build blocks and runs of sanitized text, never HTML (md4c-html
 * passes raw HTML through), within limits that keep md4c 0.4.8 linear. */
#include "markdown.h"

#include <md4c.h>
#include <stdlib.h>
#include <string.h>

#include "glyph.h"

/* The links and images kept open inside one another; deeper ones read
 * as their enclosing text. */
#define SPANS 8
/* md4c 0.4.8 finds permissive autolinks and strikethrough in time
 * quadratic in how many candidates a paragraph holds (40,000 bare URLs:
 * 0.5 s; 70,000 tildes: 0.9 s). A text with more candidates than these
 * is read without that extension. */
#define MAX_AUTOLINKS 256
#define MAX_TILDES 256
/* Its links take time in brackets times the lines before them in their
 * paragraph, whatever the flags: 0.28 s for the 32,768 lines of "](["
 * in 128 KiB, under 1 ms for 1,000 of them. A text whose paragraphs
 * (counted between blank lines) sum more than this is read as plain text
 * (about 5 ms of md4c's time at most). */
#define MAX_BRACKET_LINES (1u << 24)

/* Where md4c's callbacks are in the document. */
struct parse {
	struct markdown *md;
	uint32_t open[MARKDOWN_MAX_DEPTH];  /* the containers kept, outermost first */
	uint32_t items[MARKDOWN_MAX_DEPTH]; /* the items so far of open[i] */
	unsigned depth;                     /* of open[] */
	unsigned deeper;                    /* containers open past the limit */
	uint32_t leaf;                      /* the leaf being filled, or NONE */
	unsigned strong, em, code, strike;  /* spans open */
	struct {
		uint32_t url;  /* its target */
		uint32_t from; /* where its text starts in md->text */
		bool image;
	} span[SPANS];
	unsigned nspan, spans_deeper;
	unsigned links, images; /* of span[] */
	uint32_t link;          /* the innermost link's target, or NONE */
	int cell;               /* the row's cell being filled, -1 before */
	size_t cell_runs;       /* md->nrun when the cell started */
	bool head;              /* in the table's head */
	bool full;              /* a limit was passed: md4c is stopped */
};

/* Named entities decoded; any other name stays as it is written. */
static const struct {
	const char *name;
	const char *utf8;
} entities[] = {
	{"amp", "&"},
	{"lt", "<"},
	{"gt", ">"},
	{"quot", "\""},
	{"apos", "'"},
	{"nbsp", "\xC2\xA0"},
	{"copy", "\xC2\xA9"},
	{"reg", "\xC2\xAE"},
	{"deg", "\xC2\xB0"},
	{"plusmn", "\xC2\xB1"},
	{"middot", "\xC2\xB7"},
	{"times", "\xC3\x97"},
	{"divide", "\xC3\xB7"},
	{"ndash", "\xE2\x80\x93"},
	{"mdash", "\xE2\x80\x94"},
	{"lsquo", "\xE2\x80\x98"},
	{"rsquo", "\xE2\x80\x99"},
	{"ldquo", "\xE2\x80\x9C"},
	{"rdquo", "\xE2\x80\x9D"},
	{"bull", "\xE2\x80\xA2"},
	{"hellip", "\xE2\x80\xA6"},
	{"euro", "\xE2\x82\xAC"},
	{"trade", "\xE2\x84\xA2"},
	{"larr", "\xE2\x86\x90"},
	{"uarr", "\xE2\x86\x91"},
	{"rarr", "\xE2\x86\x92"},
	{"darr", "\xE2\x86\x93"},
	{"harr", "\xE2\x86\x94"},
	{"ne", "\xE2\x89\xA0"},
	{"le", "\xE2\x89\xA4"},
	{"ge", "\xE2\x89\xA5"},
};

/* Append entity s[0..n) ("&name;", "&#N;", "&#xH;") decoded, through the
 * sanitizer again: "&#27;" must not become an escape. */
static void
entity_add(struct buf *out, const char *s, size_t n)
{
	struct buf one = {0};
	uint32_t cp = 0;

	if (n >= 4 && s[1] == '#') {
		bool hex = s[2] == 'x' || s[2] == 'X';

		/* md4c passes at most 7 decimal or 6 hex digits. */
		for (size_t i = hex ? 3 : 2; i + 1 < n; i++) {
			char c = s[i];
			unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
				     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
							    : (unsigned)(c - 'A' + 10);

			cp = cp * (hex ? 16 : 10) + d;
			if (cp > 0x10FFFF)
				break;
		}
		/* NUL, surrogates, too large: U+FFFD, as CommonMark says. */
		buf_add_utf8(&one, cp == 0 ? 0xFFFD : cp);
	} else {
		for (size_t i = 0; i < ARRAY_LEN(entities); i++) {
			if (strlen(entities[i].name) == n - 2 &&
			    memcmp(entities[i].name, s + 1, n - 2) == 0) {
				buf_adds(&one, entities[i].utf8);
				break;
			}
		}
		if (one.n == 0)
			buf_add(&one, s, n);
	}
	text_sanitize(out, one.p, one.n, TEXT_ONELINE | TEXT_REDACTED);
	buf_free(&one);
}

/* Append an attribute's text (a target, a language) with its entities
 * decoded. */
static void
attr_add(struct buf *out, const MD_ATTRIBUTE *a)
{
	if (a->text == NULL || a->substr_offsets == NULL)
		return;
	for (size_t i = 0; a->substr_offsets[i] < a->size; i++) {
		const char *s = a->text + a->substr_offsets[i];
		size_t n = a->substr_offsets[i + 1] - a->substr_offsets[i];

		if (a->substr_types[i] == MD_TEXT_ENTITY)
			entity_add(out, s, n);
		else if (a->substr_types[i] == MD_TEXT_NULLCHAR)
			buf_adds(out, GLYPH_REPLACEMENT);
		else
			buf_add(out, s, n);
	}
}

/* A new block in the container open; NONE past the limit. */
static uint32_t
block_new(struct parse *p, enum markdown_type type, unsigned flags)
{
	struct markdown *md = p->md;
	struct markdown_block *b;

	if (md->nblock >= MARKDOWN_MAX_BLOCKS) {
		p->full = true;
		return MARKDOWN_NONE;
	}
	ARRAY_RESERVE(md->block, md->blockcap, md->nblock + 1);
	b = &md->block[md->nblock];
	memset(b, 0, sizeof *b);
	b->type = (uint8_t)type;
	b->depth = (uint8_t)p->depth;
	b->flags = (uint8_t)flags;
	b->parent = p->depth > 0 ? p->open[p->depth - 1] : MARKDOWN_NONE;
	b->run = (uint32_t)md->nrun;
	return (uint32_t)md->nblock++;
}

/* The leaf that text goes to: a tight item's text comes without a
 * paragraph of its own, and gets a bare one. */
static uint32_t
leaf_get(struct parse *p)
{
	if (p->leaf == MARKDOWN_NONE)
		p->leaf = block_new(p, MK_PARA, MK_BARE);
	return p->leaf;
}

/* The style of text at this point. */
static uint16_t
style_now(const struct parse *p)
{
	return (uint16_t)((p->strong ? MS_STRONG : 0) | (p->em ? MS_EM : 0) |
			  (p->code ? MS_CODE : 0) | (p->strike ? MS_STRIKE : 0) |
			  (p->links ? MS_LINK : 0) | (p->images ? MS_IMAGE : 0));
}

/* Make md->text[off, off + len) a run of the leaf: the last run grown when
 * it is the same and just before (md4c hands text in small pieces). */
static void
run_add(struct parse *p, size_t off, size_t len, uint16_t style)
{
	struct markdown *md = p->md;
	struct markdown_block *b = &md->block[p->leaf];
	uint32_t link = (style & MS_LINK) ? p->link : MARKDOWN_NONE;
	uint16_t cell = (uint16_t)(p->cell < 0 ? 0 : p->cell);
	struct markdown_run *r;

	if (b->nrun > 0 && !(style & MS_URL)) {
		r = &md->run[md->nrun - 1];
		if (r->style == style && r->link == link && r->cell == cell &&
		    (size_t)r->off + r->len == off) {
			r->len += (uint32_t)len;
			return;
		}
	}
	if (md->nrun >= MARKDOWN_MAX_RUNS) {
		p->full = true;
		return;
	}
	ARRAY_RESERVE(md->run, md->runcap, md->nrun + 1);
	r = &md->run[md->nrun++];
	r->off = (uint32_t)off;
	r->len = (uint32_t)len;
	r->link = link;
	r->style = style;
	r->cell = cell;
	b->nrun++;
}

/* Open a container, or count it when it is past the limit. */
static void
push(struct parse *p, enum markdown_type type, unsigned flags, uint32_t number)
{
	uint32_t b;

	p->leaf = MARKDOWN_NONE;
	if (p->deeper > 0 || p->depth == MARKDOWN_MAX_DEPTH) {
		p->deeper++;
		return;
	}
	b = block_new(p, type, flags);
	if (b == MARKDOWN_NONE)
		return;
	p->md->block[b].number = number;
	p->items[p->depth] = 0;
	p->open[p->depth++] = b;
}

/* Close the innermost container. An empty item or quote ("-", ">") gets
 * an empty paragraph, so that its marker or bar shows. */
static void
pop(struct parse *p)
{
	struct markdown *md = p->md;
	uint32_t c;

	p->leaf = MARKDOWN_NONE;
	if (p->deeper > 0) {
		p->deeper--;
		return;
	}
	if (p->depth == 0)
		return;
	c = p->open[p->depth - 1];
	if (md->block[c].type != MK_LIST && md->nblock == (size_t)c + 1)
		block_new(p, MK_PARA, MK_BARE);
	p->depth--;
}

/* An ordered item's number: its list's first plus the items before it. */
static uint32_t
item_number(struct parse *p)
{
	const struct markdown_block *list;

	if (p->deeper > 0 || p->depth == 0)
		return 0;
	list = &p->md->block[p->open[p->depth - 1]];
	if (list->type != MK_LIST || !(list->flags & MK_ORDERED))
		return 0;
	return list->number + p->items[p->depth - 1]++;
}

static int
on_enter_block(MD_BLOCKTYPE type, void *detail, void *user)
{
	struct parse *p = user;
	const MD_BLOCK_UL_DETAIL *ul = detail;
	const MD_BLOCK_OL_DETAIL *ol = detail;
	const MD_BLOCK_LI_DETAIL *li = detail;
	const MD_BLOCK_CODE_DETAIL *code = detail;
	struct markdown_block *b;
	size_t from;

	if (type != MD_BLOCK_TH && type != MD_BLOCK_TD)
		p->leaf = MARKDOWN_NONE;
	switch (type) {
	case MD_BLOCK_QUOTE:
		push(p, MK_QUOTE, 0, 0);
		break;
	case MD_BLOCK_UL:
		push(p, MK_LIST, ul->is_tight ? MK_TIGHT : 0, 0);
		break;
	case MD_BLOCK_OL:
		push(p, MK_LIST, MK_ORDERED | (ol->is_tight ? MK_TIGHT : 0), ol->start);
		break;
	case MD_BLOCK_LI:
		push(p, MK_ITEM, li->is_task ? MK_TASK | (li->task_mark != ' ' ? MK_DONE : 0) : 0,
		     item_number(p));
		break;
	case MD_BLOCK_HR:
		block_new(p, MK_RULE, 0);
		break;
	case MD_BLOCK_H:
		p->leaf = block_new(p, MK_HEADING, 0);
		if (p->leaf != MARKDOWN_NONE)
			p->md->block[p->leaf].level =
				(uint8_t)MIN(6, MAX(1, ((const MD_BLOCK_H_DETAIL *)detail)->level));
		break;
	case MD_BLOCK_CODE:
	case MD_BLOCK_HTML: /* none with MD_FLAG_NOHTML; as text if any */
		p->leaf = block_new(p, MK_CODE, 0);
		if (p->leaf == MARKDOWN_NONE || type != MD_BLOCK_CODE)
			break;
		from = p->md->text.n;
		attr_add(&p->md->text, &code->lang);
		b = &p->md->block[p->leaf];
		b->lang = (uint32_t)from;
		b->nlang = (uint32_t)(p->md->text.n - from);
		break;
	case MD_BLOCK_P:
		p->leaf = block_new(p, MK_PARA, 0);
		break;
	case MD_BLOCK_THEAD:
	case MD_BLOCK_TBODY:
		p->head = type == MD_BLOCK_THEAD;
		break;
	case MD_BLOCK_TR:
		p->leaf = block_new(p, MK_ROW, p->head ? MK_HEAD : 0);
		p->cell = -1;
		break;
	case MD_BLOCK_TH:
	case MD_BLOCK_TD:
		if (++p->cell >= MARKDOWN_MAX_COLUMNS)
			p->full = true;
		p->cell_runs = p->md->nrun;
		break;
	default: /* the document, a table: their rows are what counts */
		break;
	}
	return p->full ? -1 : 0;
}

static int
on_leave_block(MD_BLOCKTYPE type, void *detail, void *user)
{
	struct parse *p = user;
	struct markdown *md = p->md;
	struct markdown_block *b;
	struct markdown_run *r;

	(void)detail;
	switch (type) {
	case MD_BLOCK_QUOTE:
	case MD_BLOCK_UL:
	case MD_BLOCK_OL:
	case MD_BLOCK_LI:
		pop(p);
		break;
	case MD_BLOCK_CODE:
	case MD_BLOCK_HTML:
		/* Its last line's newline ends it, and starts no line. */
		if (p->leaf == MARKDOWN_NONE)
			break;
		b = &md->block[p->leaf];
		r = b->nrun > 0 ? &md->run[md->nrun - 1] : NULL;
		if (r != NULL && r->len > 0 && md->text.p[r->off + r->len - 1] == '\n')
			r->len--;
		p->leaf = MARKDOWN_NONE;
		break;
	case MD_BLOCK_TH:
	case MD_BLOCK_TD:
		/* An empty cell is an empty run: the cells keep their places. */
		if (md->nrun == p->cell_runs && p->leaf != MARKDOWN_NONE)
			run_add(p, md->text.n, 0, 0);
		break;
	case MD_BLOCK_P:
	case MD_BLOCK_H:
	case MD_BLOCK_TR:
	case MD_BLOCK_TABLE:
		p->leaf = MARKDOWN_NONE;
		break;
	default:
		break;
	}
	return p->full ? -1 : 0;
}

/* The innermost link's target, after a span closed. */
static uint32_t
link_now(const struct parse *p)
{
	for (unsigned i = p->nspan; i-- > 0;)
		if (!p->span[i].image)
			return p->span[i].url;
	return MARKDOWN_NONE;
}

static void
span_push(struct parse *p, const MD_ATTRIBUTE *target, bool image)
{
	struct markdown *md = p->md;
	size_t from = md->text.n;

	if (p->nspan == SPANS) {
		p->spans_deeper++;
		return;
	}
	if (md->nurl >= MARKDOWN_MAX_RUNS) {
		p->full = true;
		return;
	}
	attr_add(&md->text, target);
	ARRAY_RESERVE(md->url, md->urlcap, md->nurl + 1);
	md->url[md->nurl].off = (uint32_t)from;
	md->url[md->nurl].len = (uint32_t)(md->text.n - from);
	p->span[p->nspan].url = (uint32_t)md->nurl++;
	p->span[p->nspan].from = (uint32_t)md->text.n;
	p->span[p->nspan].image = image;
	p->nspan++;
	if (image) {
		p->images++;
	} else {
		p->links++;
		p->link = link_now(p);
	}
}

/* Whether a link's text says its target already: the same, or an
 * autolink's ("a@b.c" for "mailto:a@b.c", "www.x" for "http://www.x"). */
static bool
says_target(const char *t, size_t tn, const char *u, size_t un)
{
	if (tn == un)
		return tn == 0 || memcmp(t, u, tn) == 0;
	return un == tn + 7 && (memcmp(u, "mailto:", 7) == 0 || memcmp(u, "http://", 7) == 0) &&
	       memcmp(u + 7, t, tn) == 0;
}

/* Close a link or an image: an image without alt text reads "image"; the
 * target follows as its own run unless the text says it. */
static void
span_pop(struct parse *p)
{
	struct markdown *md = p->md;
	const struct markdown_span *u;
	uint16_t style;
	size_t from;
	bool image;

	if (p->spans_deeper > 0) {
		p->spans_deeper--;
		return;
	}
	if (p->nspan == 0)
		return;
	p->nspan--;
	image = p->span[p->nspan].image;
	from = p->span[p->nspan].from;
	u = &md->url[p->span[p->nspan].url];
	if (image)
		p->images--;
	else
		p->links--;
	p->link = link_now(p);
	if (leaf_get(p) == MARKDOWN_NONE)
		return;
	style = (uint16_t)(style_now(p) & (MS_LINK | MS_IMAGE));
	if (image && md->text.n == from) {
		buf_adds(&md->text, "image");
		run_add(p, from, md->text.n - from, style | MS_IMAGE);
	}
	if (u->len > 0 &&
	    !says_target(md->text.p + from, md->text.n - from, md->text.p + u->off, u->len))
		run_add(p, u->off, u->len, style | MS_URL | (image ? MS_IMAGE : 0));
}

static int
on_enter_span(MD_SPANTYPE type, void *detail, void *user)
{
	struct parse *p = user;

	switch (type) {
	case MD_SPAN_EM:
		p->em++;
		break;
	case MD_SPAN_STRONG:
		p->strong++;
		break;
	case MD_SPAN_CODE:
		p->code++;
		break;
	case MD_SPAN_DEL:
		p->strike++;
		break;
	case MD_SPAN_A:
		span_push(p, &((const MD_SPAN_A_DETAIL *)detail)->href, false);
		break;
	case MD_SPAN_IMG:
		span_push(p, &((const MD_SPAN_IMG_DETAIL *)detail)->src, true);
		break;
	default: /* the extensions not asked for */
		break;
	}
	return p->full ? -1 : 0;
}

static int
on_leave_span(MD_SPANTYPE type, void *detail, void *user)
{
	struct parse *p = user;

	(void)detail;
	switch (type) {
	case MD_SPAN_EM:
		p->em--;
		break;
	case MD_SPAN_STRONG:
		p->strong--;
		break;
	case MD_SPAN_CODE:
		p->code--;
		break;
	case MD_SPAN_DEL:
		p->strike--;
		break;
	case MD_SPAN_A:
	case MD_SPAN_IMG:
		span_pop(p);
		break;
	default:
		break;
	}
	return p->full ? -1 : 0;
}

static int
on_text(MD_TEXTTYPE type, const MD_CHAR *s, MD_SIZE n, void *user)
{
	struct parse *p = user;
	struct buf *t = &p->md->text;
	size_t from = t->n;

	if (leaf_get(p) == MARKDOWN_NONE)
		return -1;
	switch (type) {
	case MD_TEXT_NULLCHAR:
		buf_adds(t, GLYPH_REPLACEMENT);
		break;
	case MD_TEXT_BR:
		buf_addc(t, '\n');
		break;
	case MD_TEXT_SOFTBR:
		buf_addc(t, ' ');
		break;
	case MD_TEXT_ENTITY:
		entity_add(t, s, n);
		break;
	default: /* text, code, raw HTML as text */
		buf_add(t, s, n);
		break;
	}
	if (t->n > from)
		run_add(p, from, t->n - from, style_now(p));
	return p->full ? -1 : 0;
}

/* The dialect, chosen for what agents write:
 * - tables, task lists: agents write both (GitHub's dialect);
 * - MD_FLAG_NOHTML: raw HTML is text; nothing of a reply is markup to us;
 * - strikethrough, and bare http://, https:// and www. links: unless the
 *   text holds more candidates than md4c 0.4.8 handles in linear time;
 * - no permissive e-mail links: "git@github.com:x" is a remote, not
 *   someone to write to;
 * - no permissive ATX headers ("#12" is an issue), no LaTeX spans ("$5
 *   and $10"), no wiki links, no underline (it takes '_' from emphasis).
 * 0 when md4c would take too long over the text's links at all. */
static unsigned
dialect(const char *s, size_t n)
{
	unsigned flags = MD_FLAG_TABLES | MD_FLAG_TASKLISTS | MD_FLAG_NOHTML;
	size_t tildes = 0, links = 0, brackets = 0, lines = 1;
	uint64_t cost = 0;
	bool blank = true; /* the line so far */

	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '\n':
			/* A blank line ends a paragraph. */
			if (blank) {
				cost += (uint64_t)brackets * lines;
				brackets = 0;
				lines = 0;
			}
			lines++;
			blank = true;
			continue;
		case ' ':
			continue;
		case '~':
			tildes++;
			break;
		case '[':
		case ']':
			brackets++;
			break;
		case ':':
			links += n - i >= 3 && s[i + 1] == '/' && s[i + 2] == '/';
			break;
		case 'w':
			links += n - i >= 4 && memcmp(s + i, "www.", 4) == 0;
			break;
		default:
			break;
		}
		blank = false;
	}
	if (cost + (uint64_t)brackets * lines > MAX_BRACKET_LINES)
		return 0;
	if (tildes <= MAX_TILDES)
		flags |= MD_FLAG_STRIKETHROUGH;
	if (links <= MAX_AUTOLINKS)
		flags |= MD_FLAG_PERMISSIVEURLAUTOLINKS | MD_FLAG_PERMISSIVEWWWAUTOLINKS;
	return flags;
}

/* Sanitized s[0..n) through md4c into md; false when md4c failed or a
 * limit was passed. */
static bool
parse_markdown(struct markdown *md, const char *s, size_t n)
{
	struct parse p = {.md = md, .leaf = MARKDOWN_NONE, .link = MARKDOWN_NONE, .cell = -1};
	MD_PARSER parser = {
		.abi_version = 0,
		.flags = dialect(s, n),
		.enter_block = on_enter_block,
		.leave_block = on_leave_block,
		.enter_span = on_enter_span,
		.leave_span = on_leave_span,
		.text = on_text,
	};

	if (parser.flags == 0)
		return false;
	return md_parse(s, (MD_SIZE)n, &parser, &p) == 0 && !p.full;
}

/* s[0..n), sanitized, as one paragraph at the top: one block and one
 * run past every limit, so that nothing is lost. */
static void
plain_add(struct markdown *md, const char *s, size_t n)
{
	struct markdown_block *b;
	struct markdown_run *r;

	ARRAY_RESERVE(md->block, md->blockcap, md->nblock + 1);
	ARRAY_RESERVE(md->run, md->runcap, md->nrun + 1);
	b = &md->block[md->nblock++];
	memset(b, 0, sizeof *b);
	b->type = MK_PARA;
	b->parent = MARKDOWN_NONE;
	b->run = (uint32_t)md->nrun;
	b->nrun = 1;
	r = &md->run[md->nrun++];
	r->off = (uint32_t)md->text.n;
	r->len = (uint32_t)n;
	r->link = MARKDOWN_NONE;
	r->style = 0;
	r->cell = 0;
	buf_add(&md->text, s, n);
}

/* Empty md; its text and its runs are there even when nothing is added
 * (the runs of empty cells point into the text; a leaf without runs
 * points at the end of the runs). */
static void
markdown_reset(struct markdown *md)
{
	buf_reset(&md->text);
	buf_reserve(&md->text, 1);
	ARRAY_RESERVE(md->run, md->runcap, 1);
	md->nblock = md->nrun = md->nurl = 0;
	md->plain = false;
}

void
markdown_parse(struct markdown *md, const char *s, size_t n)
{
	struct buf san = {0};
	size_t k;

	markdown_reset(md);
	text_sanitize(&san, s, n, 0);
	/* Offsets are 32-bit; nothing shown is ever this large. */
	if (san.n > UINT32_MAX / 2)
		die("text of %zu bytes is too large for Markdown", san.n);
	/* The part md4c reads ends with a line; a text without a newline
	 * that early is not Markdown that anybody wrote. */
	k = san.n;
	if (k > MARKDOWN_MAX_BYTES) {
		k = MARKDOWN_MAX_BYTES;
		while (k > 0 && san.p[k - 1] != '\n')
			k--;
	}
	if (k > 0 && !parse_markdown(md, san.p, k)) {
		markdown_reset(md);
		k = 0;
	}
	if (k < san.n)
		plain_add(md, san.p + k, san.n - k);
	md->plain = k == 0 && san.n > 0;
	buf_free(&san);
}

void
markdown_free(struct markdown *md)
{
	buf_free(&md->text);
	free(md->block);
	free(md->run);
	free(md->url);
	memset(md, 0, sizeof *md);
}

size_t
markdown_bytes(const struct markdown *md)
{
	return md->text.cap + md->blockcap * sizeof *md->block + md->runcap * sizeof *md->run +
	       md->urlcap * sizeof *md->url;
}
