/* print.c: the plain-text log, Markdown, and (through summary.c) the JSON
 * summary and the raw stream. */
#include "print.h"

#include <stdlib.h>
#include <string.h>

#include "glyph.h"
#include "print_html.h"
#include "redact.h"
#include "record.h"
#include "summary.h"
#include "text.h"
#include "tool.h"
#include "words.h"

/* emit's flags besides text_sanitize's: in Markdown, event text escaped
 * as words (a header, a call's line: MD_PLAIN) or as prose (a reply,
 * thinking, a plan: MD_PROSE, a fence going on across calls). */
enum {
	EM_WORDS = 1 << 8,
	EM_PROSE = 1 << 9,
};

struct printer {
	struct model *m;
	enum print_format fmt;
	FILE *out;
	uint32_t text_item; /* the assistant item being streamed, or NONE */
	bool bol;           /* the output is at the start of a line */
	bool md_list;       /* Markdown: inside a list of tool lines */
	struct buf tmp;     /* decoded text */
	struct buf line;    /* a line being composed */
	struct buf san;     /* sanitized text, ready to write */
	struct buf esc;     /* Markdown: event text escaped */
	struct buf red;     /* event text with its secrets out */
	struct buf held;    /* a reply held while secrets are hidden, or (Markdown)
			       the line it has not ended yet */
	struct md_state md; /* Markdown: where the reply being written is */
	struct tool_desc td;
	struct summary sc; /* the JSON format's */
};

struct printer *
printer_new(struct model *m, enum print_format fmt, FILE *out)
{
	struct printer *p = xcalloc(1, sizeof *p);

	p->m = m;
	p->fmt = fmt;
	p->out = out;
	p->text_item = NONE;
	p->bol = true;
	return p;
}

void
printer_free(struct printer *p)
{
	if (p == NULL)
		return;
	buf_free(&p->tmp);
	buf_free(&p->line);
	buf_free(&p->san);
	buf_free(&p->esc);
	buf_free(&p->red);
	buf_free(&p->held);
	tool_desc_free(&p->td);
	summary_free(&p->sc);
	free(p);
}

bool
print_format_parse(const char *name, enum print_format *fmt)
{
	static const char *const names[] = {"text", "markdown", "json", "raw", "html"};

	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		if (strcmp(name, names[i]) == 0) {
			*fmt = (enum print_format)i;
			return true;
		}
	}
	if (strcmp(name, "md") == 0) {
		*fmt = PF_MARKDOWN;
		return true;
	}
	return false;
}

/* Write s[0..n) made safe for a terminal. Lines the printer composes go
 * with their length and TEXT_ONELINE: a decoded field can hold a NUL
 * (\u0000), which strlen would stop at, and a newline, which could start
 * a line that looks like one of ours ("== ok"). In Markdown, event text is
 * never the document's markup: escaped as words or prose (text_md_escape),
 * after its secrets are out (the escapes would hide them from the
 * redactor) and it is sanitized (what the escapes see is what a renderer
 * reads). */
static void
emit(struct printer *p, const char *s, size_t n, int flags)
{
	struct buf *o = &p->san;
	enum md_mode mode;

	if (n == 0)
		return;
	buf_reset(&p->red);
	if (redact_text(redact_active(), s, n, &p->red)) {
		s = p->red.p;
		n = p->red.n;
	}
	buf_reset(&p->san);
	text_sanitize(&p->san, s, n, (flags & ~(EM_WORDS | EM_PROSE)) | TEXT_REDACTED);
	mode = flags & EM_PROSE ? MD_PROSE : MD_PLAIN;
	if (p->fmt == PF_MARKDOWN && (flags & (EM_WORDS | EM_PROSE)) &&
	    !text_md_as_is(p->san.p, p->san.n, mode, &p->md)) {
		o = &p->esc;
		buf_reset(o);
		text_md_escape(o, p->san.p, p->san.n, mode, &p->md);
	}
	fwrite(o->p, 1, o->n, p->out);
	if (o->n > 0)
		p->bol = o->p[o->n - 1] == '\n';
}

/* Write markup of the printer's own (a Markdown lead: "**Result:** "). */
static void
put(struct printer *p, const char *s)
{
	fputs(s, p->out);
	p->bol = false;
}

/* A reply's text as it streams. While secrets are hidden it is held
 * until the reply stops, so that a key cut across deltas is redacted
 * whole; in Markdown, a line is held until it ends, so that its code
 * spans and fences are read whole. */
static void
prose(struct printer *p, struct buf *t)
{
	struct buf swap;
	size_t k;

	if (redact_active() == NULL && p->fmt != PF_MARKDOWN) {
		emit(p, t->p, t->n, EM_PROSE);
		return;
	}
	/* The first piece is taken, not copied: a reply of 100 MB in one
	 * line costs no second copy. */
	if (p->held.n == 0) {
		swap = p->held;
		p->held = *t;
		*t = swap;
	} else {
		buf_add(&p->held, t->p, t->n);
	}
	if (redact_active() != NULL)
		return;
	for (k = p->held.n; k > 0 && p->held.p[k - 1] != '\n'; k--)
		;
	if (k == 0)
		return;
	emit(p, p->held.p, k, EM_PROSE);
	memmove(p->held.p, p->held.p + k, p->held.n - k);
	p->held.n -= k;
}

/* Print the reply held by prose, if any. */
static void
prose_flush(struct printer *p)
{
	if (p->held.n == 0)
		return;
	emit(p, p->held.p, p->held.n, EM_PROSE);
	buf_reset(&p->held);
}

/* End the current output line, if one is open. */
static void
endline(struct printer *p)
{
	if (!p->bol)
		fputc('\n', p->out);
	p->bol = true;
}

/* Markdown: the end of prose; a fenced block it left open is closed. */
static void
prose_end(struct printer *p)
{
	endline(p);
	buf_reset(&p->esc);
	text_md_close(&p->esc, &p->md);
	if (p->esc.n > 0)
		fwrite(p->esc.p, 1, p->esc.n, p->out);
}

/* Markdown: end the list or the paragraph before another block. */
static void
md_block(struct printer *p)
{
	prose_end(p);
	/* A paragraph of reply or a list ends with a blank line, or what
	 * follows joins it. */
	if (p->md_list || p->text_item != NONE) {
		fputc('\n', p->out);
		p->md_list = false;
		p->text_item = NONE;
	}
}

/* --- pieces shared by text and Markdown --------------------------------- */

void
print_call_line(struct model *m, uint32_t c, struct tool_desc *td, struct buf *out)
{
	int64_t d = model_call_duration(m, c);

	tool_describe(m, c, td);
	words_call(m, c, td, out);
	if (d != TIME_NONE && model_call_state(m, c) != CS_ORPHANED) {
		buf_adds(out, " " GLYPH_DOT " ");
		fmt_duration(out, d);
	}
}

/* The line about a finished call, described into the printer's td. */
static void
call_line(struct printer *p, uint32_t c, struct buf *out)
{
	print_call_line(p->m, c, &p->td, out);
}

/* The line of a decision asked for, after lead ("  ", "- "), then the
 * text it carries (a plan) as a paragraph of its own. */
static void
query_line(struct printer *p, uint32_t q, const char *lead)
{
	struct query_words w = {0};

	words_query_load(p->m, q, &w);
	endline(p);
	buf_reset(&p->line);
	buf_adds(&p->line, lead);
	words_query(p->m, q, &w, &p->line);
	emit(p, p->line.p, p->line.n, TEXT_ONELINE | EM_WORDS);
	endline(p);
	if (w.body.n > 0) {
		fputc('\n', p->out);
		memset(&p->md, 0, sizeof p->md);
		emit(p, w.body.p, w.body.n, EM_PROSE);
		prose_end(p);
		fputc('\n', p->out);
		p->md_list = false;
	}
	words_query_free(&w);
}

/* The line of the call whose background run notice e says ended, again:
 * its outcome and real duration are known now. */
static void
ended_in_background(struct printer *p, uint32_t e, const char *lead)
{
	const struct model *m = p->m;

	for (size_t c = m->ncall; c-- > 0;) {
		if (m->call[c].bg_ev != e)
			continue;
		endline(p);
		buf_reset(&p->line);
		buf_adds(&p->line, lead);
		call_line(p, (uint32_t)c, &p->line);
		emit(p, p->line.p, p->line.n, TEXT_ONELINE | EM_WORDS);
		endline(p);
		return;
	}
}

/* The streamed text just written was cut off: say so, since it cannot be
 * taken back (the screen marks it in place). */
static void
cut_note(struct printer *p, bool md)
{
	static const char note[] = "the reply above was cut off";

	if (md) {
		md_block(p);
		fprintf(p->out, "- _%s_\n", note);
		p->md_list = true;
	} else {
		endline(p);
		fprintf(p->out, "  ~ %s\n", note);
	}
	p->bol = true;
}

/* Write the lines of text prefixed by prefix (for prompts). */
static void
emit_prefixed(struct printer *p, const char *prefix, const char *s, size_t n)
{
	size_t i = 0;

	/* An event with no text leaves the buffer unallocated: NULL, which
	 * memchr and pointer arithmetic must not see. */
	if (n == 0)
		s = "";
	while (i <= n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (s + i)) : n - i;

		fputs(prefix, p->out);
		emit(p, s + i, len, TEXT_ONELINE | EM_WORDS);
		fputc('\n', p->out);
		p->bol = true;
		if (nl == NULL)
			break;
		i += len + 1;
	}
}

/* --- the streaming printers -------------------------------------------- */

/* A line of its own in the text log: indent, then the item's words. */
static void
text_line(struct printer *p, const char *lead, uint32_t it)
{
	struct buf *l = &p->line;

	endline(p);
	buf_adds(l, lead);
	words_item(p->m, it, WORDS_WHOLE, &p->td, l);
	emit(p, l->p, l->n, TEXT_ONELINE | EM_WORDS);
	endline(p);
}

static void
text_event(struct printer *p, uint32_t e)
{
	struct model *m = p->m;
	enum ev_type type = EV_TYPE(&m->ev[e]);
	uint32_t it = m->ev[e].item;
	struct buf *l = &p->line;

	buf_reset(l);
	buf_reset(&p->tmp);
	if (type != EV_TEXT_DELTA && type != EV_TEXT && type != EV_TEXT_RECAP &&
	    type != EV_THINK_DELTA && type != EV_META && type != EV_HIDDEN)
		p->text_item = NONE;
	switch (type) {
	case EV_INIT:
		endline(p);
		buf_adds(l, "== session ");
		words_session_header(m, m->it[it].session, l);
		emit(p, l->p, l->n, TEXT_ONELINE | EM_WORDS);
		endline(p);
		break;
	case EV_USER:
		endline(p);
		model_item_text(m, it, &p->tmp);
		emit_prefixed(p, "> ", p->tmp.p, p->tmp.n);
		break;
	case EV_THINK_DONE:
		if (it != NONE)
			text_line(p, "  ", it);
		break;
	case EV_TEXT_DELTA:
	case EV_TEXT:
		if (it != p->text_item)
			endline(p);
		p->text_item = it;
		words_event_text(m, e, &p->tmp);
		prose(p, &p->tmp);
		break;
	case EV_TOOL_DONE:
		endline(p);
		buf_adds(l, "  ");
		call_line(p, m->it[it].ref, l);
		emit(p, l->p, l->n, TEXT_ONELINE | EM_WORDS);
		endline(p);
		break;
	case EV_ANSWER:
		query_line(p, m->it[it].ref, "  ");
		break;
	case EV_HIDDEN:
		if (EV_FLAGS(&m->ev[e]) & EVF_CUT)
			cut_note(p, false);
		break;
	case EV_RESULT:
		text_line(p, "== ", it);
		break;
	case EV_NOTICE:
		text_line(p, "  ~ ", it);
		ended_in_background(p, e, "  ");
		break;
	case EV_BAD:
	case EV_STDERR:
		text_line(p, "  ", it);
		break;
	default:
		break;
	}
}

static void
md_event(struct printer *p, uint32_t e)
{
	struct model *m = p->m;
	enum ev_type type = EV_TYPE(&m->ev[e]);
	uint32_t it = m->ev[e].item;
	struct buf *l = &p->line;

	buf_reset(l);
	buf_reset(&p->tmp);
	switch (type) {
	case EV_INIT:
		md_block(p);
		buf_adds(l, "## Session ");
		words_session_header(m, m->it[it].session, l);
		emit(p, l->p, l->n, TEXT_ONELINE | EM_WORDS);
		fputs("\n\n", p->out);
		p->bol = true;
		break;
	case EV_USER:
		md_block(p);
		model_item_text(m, it, &p->tmp);
		emit_prefixed(p, "> ", p->tmp.p, p->tmp.n);
		fputc('\n', p->out);
		break;
	case EV_THINK_DONE:
		if (it == NONE)
			break;
		md_block(p);
		words_thinking(m, it, l);
		fprintf(p->out, "<details><summary>");
		emit(p, l->p, l->n, TEXT_ONELINE | EM_WORDS);
		fputs("</summary>\n\n", p->out);
		memset(&p->md, 0, sizeof p->md);
		model_item_text(m, it, &p->tmp);
		emit(p, p->tmp.p, p->tmp.n, EM_PROSE);
		prose_end(p);
		fputs("\n</details>\n\n", p->out);
		break;
	case EV_TEXT_DELTA:
	case EV_TEXT:
		if (it != p->text_item) {
			md_block(p);
			p->text_item = it;
			memset(&p->md, 0, sizeof p->md);
		}
		words_event_text(m, e, &p->tmp);
		prose(p, &p->tmp);
		return;
	case EV_TOOL_DONE:
		if (!p->md_list)
			md_block(p);
		endline(p);
		buf_adds(l, "- ");
		call_line(p, m->it[it].ref, l);
		emit(p, l->p, l->n, TEXT_ONELINE | EM_WORDS);
		endline(p);
		p->md_list = true;
		break;
	case EV_HIDDEN:
		if (EV_FLAGS(&m->ev[e]) & EVF_CUT)
			cut_note(p, true);
		return;
	case EV_ANSWER:
		if (!p->md_list)
			md_block(p);
		p->md_list = true;
		query_line(p, m->it[it].ref, "- ");
		return;
	case EV_RESULT:
		md_block(p);
		put(p, "**Result:** ");
		words_session_line(m, m->it[it].session, l);
		emit(p, l->p, l->n, TEXT_ONELINE | EM_WORDS);
		fputs("\n\n", p->out);
		p->bol = true;
		break;
	case EV_NOTICE:
	case EV_BAD:
	case EV_STDERR:
		if (!p->md_list)
			md_block(p);
		endline(p);
		put(p, type == EV_NOTICE ? "- _" : "- ");
		if (type == EV_NOTICE) {
			model_notice_text(m, e, l);
		} else if (type == EV_BAD) {
			buf_adds(l, GLYPH_WARN " ");
			size_t total;

			words_diag(m, m->it[it].ref, l);
			buf_adds(l, ": ");
			total = model_bad_text(m, e, &p->tmp);
			tool_code_span(l, p->tmp.p, p->tmp.n);
			words_more(l, total, p->tmp.n);
		} else {
			buf_adds(l, "stderr: ");
			model_event_text(m, e, &p->tmp);
			tool_code_span(l, p->tmp.p, p->tmp.n);
		}
		emit(p, l->p, l->n, TEXT_ONELINE | EM_WORDS);
		if (type == EV_NOTICE)
			put(p, "_");
		endline(p);
		p->md_list = true;
		if (type == EV_NOTICE)
			ended_in_background(p, e, "- ");
		break;
	default:
		return;
	}
	if (type != EV_TOOL_DONE && type != EV_NOTICE && type != EV_BAD && type != EV_STDERR)
		p->md_list = false;
	p->text_item = NONE;
}

/* Whether s is a command's stderr, which the raw stream leaves out. */
static bool
is_stderr_source(const struct model *m, const struct source *s)
{
	for (size_t i = 0; i < m->nsrc; i++)
		if (m->src[i].src == s)
			return m->src[i].stderr_of != NONE;
	return false;
}

void
printer_line(struct printer *p, const struct source *s, const struct line *ln, uint32_t ev)
{
	switch (p->fmt) {
	case PF_RAW:
		if (!is_stderr_source(p->m, s))
			record_raw_line(p->out, source_at(s, ln->off), ln->len, ln->terminated);
		return;
	case PF_JSON:
		if (ev != NONE)
			summary_line(&p->sc, p->m, ev, &p->td);
		return;
	case PF_TEXT:
	case PF_MARKDOWN:
		if (ev == NONE)
			return;
		/* A held reply ends where anything else comes. */
		if ((EV_TYPE(&p->m->ev[ev]) != EV_TEXT_DELTA &&
		     EV_TYPE(&p->m->ev[ev]) != EV_TEXT) ||
		    p->m->ev[ev].item != p->text_item)
			prose_flush(p);
		if (p->fmt == PF_TEXT)
			text_event(p, ev);
		else
			md_event(p, ev);
		return;
	case PF_HTML:
		return; /* made at the end */
	}
}

/* A line of its own; the model may have been cleared and filled again
 * since the last event, so nothing continues across it. */
void
printer_note(struct printer *p, const char *msg, size_t n)
{
	struct buf *l = &p->line;

	if (p->fmt != PF_TEXT && p->fmt != PF_MARKDOWN)
		return;
	prose_flush(p);
	buf_reset(l);
	if (p->fmt == PF_MARKDOWN) {
		md_block(p);
		put(p, "**Note:** ");
	} else {
		endline(p);
		put(p, "== ");
	}
	buf_add(l, msg, n);
	emit(p, l->p, l->n, TEXT_ONELINE | EM_WORDS);
	endline(p);
	if (p->fmt == PF_MARKDOWN)
		fputc('\n', p->out);
	p->text_item = NONE;
	p->md_list = false;
}

/* The closing lines: sessions that printed no result line yet, and the
 * totals when there are several. */
static void
finish_summary(struct printer *p, bool md)
{
	struct model *m = p->m;
	uint32_t by_state[SS_NSTATES] = {0};

	for (size_t s = 0; s < m->nses; s++) {
		by_state[model_session_state(m, (uint32_t)s)]++;
		/* A session with a result had its line then; again only when
		 * the command's end failed it since. */
		if (m->ses[s].result_ev != NONE &&
		    !(model_session_state(m, (uint32_t)s) == SS_FAILED && !m->ses[s].is_error))
			continue;
		buf_reset(&p->line);
		put(p, md ? "**Summary:** " : "== ");
		if (m->nses > 1) {
			buf_adds(&p->line, "session ");
			if (m->ses[s].init_ev != NONE)
				words_session_header(m, (uint32_t)s, &p->line);
			else
				buf_addf(&p->line, "%zu", s + 1);
			buf_adds(&p->line, ": ");
		}
		words_session_line(m, (uint32_t)s, &p->line);
		emit(p, p->line.p, p->line.n, TEXT_ONELINE | EM_WORDS);
		endline(p);
	}
	if (m->nses > 1) {
		buf_reset(&p->line);
		put(p, md ? "**Sessions:** " : "== ");
		buf_addf(&p->line, "%zu sessions:", m->nses);
		for (int st = 0; st < SS_NSTATES; st++)
			if (by_state[st] > 0)
				buf_addf(&p->line, " %u %s", by_state[st],
					 model_session_state_name((enum session_state)st));
		emit(p, p->line.p, p->line.n, TEXT_ONELINE | EM_WORDS);
		endline(p);
	}
	if (m->nses == 0)
		fputs(md ? "_No session in the input._\n" : "== no session in the input\n", p->out);
	if (m->ndiag > 0)
		fprintf(p->out,
			md ? "\n%zu line%s could not be read as JSON.\n"
			   : "== %zu line%s could not be read as JSON\n",
			m->ndiag, m->ndiag == 1 ? "" : "s");
}

/* Text and Markdown: the calls still open, then the summary. */
static void
finish_log(struct printer *p)
{
	struct model *m = p->m;
	bool md = p->fmt == PF_MARKDOWN;

	prose_flush(p);

	if (md)
		md_block(p);
	else
		endline(p);
	for (size_t c = 0; c < m->ncall; c++) {
		if (m->call[c].done_ev != NONE)
			continue;
		buf_reset(&p->line);
		buf_adds(&p->line, md ? "- " : "  ");
		call_line(p, (uint32_t)c, &p->line);
		emit(p, p->line.p, p->line.n, TEXT_ONELINE | EM_WORDS);
		endline(p);
		p->md_list = md;
	}
	/* Decisions asked for and never answered. */
	for (size_t q = 0; q < m->nquery; q++)
		if (m->query[q].answer_ev == NONE)
			query_line(p, (uint32_t)q, md ? "- " : "  ");
	if (md)
		md_block(p);
	finish_summary(p, md);
}

void
printer_finish(struct printer *p)
{
	switch (p->fmt) {
	case PF_TEXT:
	case PF_MARKDOWN:
		finish_log(p);
		break;
	case PF_JSON:
		buf_reset(&p->tmp);
		summary_write(p->m, &p->sc, &p->tmp, p->out);
		buf_addc(&p->tmp, '\n');
		fwrite(p->tmp.p, 1, p->tmp.n, p->out);
		break;
	case PF_HTML:
		print_html(p->m, p->out);
		break;
	case PF_RAW:
		break;
	}
	fflush(p->out);
}

void
print_summary_json(struct model *m, struct buf *out)
{
	summary_write(m, NULL, out, NULL);
}
