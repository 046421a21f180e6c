/* fuzz_markdown.c: libFuzzer harness for a reply's Markdown
 * (src/markdown.c): any bytes parsed through md4c, laid out at a few
 * widths and written as HTML. Checked: the blocks hold together (each
 * container before what it holds, one level up; the runs of each leaf
 * its own, within the text); everything kept is sanitized; a text md4c
 * could not take comes back whole; no laid out line is wider than its
 * width, and each measures what its segments say; every '<' of the page
 * opens or closes an element of ours, no <img>, every href http:,
 * https: or mailto:. */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../markdown_check.h"
#include "fuzz.h"
#include "markdown.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setlocale(LC_CTYPE, "C.UTF-8");
	return 0;
}

/* Sanitized: valid UTF-8, no control but the newlines of line breaks. */
static void
check_text(const char *s, size_t n, bool newlines)
{
	CHECK(fuzz_utf8_ok(s, n));
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		CHECK((c >= 0x20 && c != 0x7F) || (newlines && c == '\n'));
	}
}

static void
check_blocks(const struct markdown *md, const char *in, size_t n)
{
	size_t runs = 0;

	for (size_t i = 0; i < md->nblock; i++) {
		const struct markdown_block *b = &md->block[i];

		CHECK(b->type < MK_BLANK && b->depth <= MARKDOWN_MAX_DEPTH);
		if (b->parent == MARKDOWN_NONE) {
			CHECK(b->depth == 0);
		} else {
			CHECK(b->parent < i && md->block[b->parent].type >= MK_QUOTE);
			CHECK(md->block[b->parent].depth + 1 == b->depth);
		}
		if (b->type == MK_HEADING)
			CHECK(b->level >= 1 && b->level <= 6);
		if (b->type >= MK_QUOTE || b->type == MK_RULE)
			CHECK(b->nrun == 0);
		CHECK(b->nrun == 0 || b->run == runs);
		runs += b->nrun;
		CHECK((size_t)b->lang + b->nlang <= md->text.n);
		check_text(md->text.p + b->lang, b->nlang, false);
	}
	CHECK(runs == md->nrun);
	for (size_t i = 0; i < md->nrun; i++) {
		const struct markdown_run *r = &md->run[i];

		CHECK((size_t)r->off + r->len <= md->text.n);
		CHECK(r->cell < MARKDOWN_MAX_COLUMNS);
		CHECK((r->link != MARKDOWN_NONE) == ((r->style & MS_LINK) != 0));
		CHECK(r->link == MARKDOWN_NONE || r->link < md->nurl);
		check_text(md->text.p + r->off, r->len, true);
	}
	/* Nothing lost when md4c was not used: the text, sanitized. */
	if (md->plain) {
		struct buf san = {0};

		text_sanitize(&san, in, n, 0);
		CHECK(md->nblock == 1 && md->nrun == 1 && md->run[0].len == san.n);
		CHECK(memcmp(md->text.p + md->run[0].off, san.p, san.n) == 0);
		buf_free(&san);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	uint64_t h = hash_bytes(data, size, 0);
	size_t widths[] = {(size_t)(h % 130), (size_t)((h >> 8) % 12), 1, 120};
	struct markdown md = {0};
	struct markdown_layout l = {0};
	struct buf html = {0};

	markdown_parse(&md, size > 0 ? s : "", size);
	check_blocks(&md, size > 0 ? s : "", size);
	for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
		markdown_layout(&md, widths[i], &l);
		CHECK(markdown_lines_fit(&l, widths[i]));
		check_text(l.text.p, l.text.n, false);
	}
	markdown_html(&md, (int)((h >> 16) % 7), &html);
	CHECK(fuzz_utf8_ok(html.p != NULL ? html.p : "", html.n));
	CHECK(markdown_html_stranger(html.p != NULL ? html.p : "", html.n) == NULL);
	markdown_layout_free(&l);
	markdown_free(&md);
	buf_free(&html);
	return 0;
}
