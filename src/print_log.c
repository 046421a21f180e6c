/* print_log.c: the plain-text log and the Markdown document, streamed as
 * the lines come: one writer, and a style for each (struct log_style,
 * print.h) that says what goes around each kind of line. */
#include "print.h"

#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "fleet_print.h"
#include "glyph.h"
#include "redact.h"
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

/* A log's state (a printer's). */
struct log {
	const struct log_style *st;
	struct model *m;
	FILE *out;
	uint32_t text_item; /* the assistant item being streamed, or NONE */
	bool bol;           /* the output is at the start of a line */
	bool list;          /* Markdown: inside a list of lines */
	struct buf tmp;     /* decoded text */
	struct buf line;    /* a line being composed */
	struct buf san;     /* sanitized text, ready to write */
	struct buf esc;     /* Markdown: event text escaped */
	struct buf red;     /* event text with its secrets out */
	struct buf held;    /* a reply held while secrets are hidden, or (Markdown)
			       the line it has not ended yet */
	struct md_state md; /* Markdown: where the reply being written is */
	struct tool_desc td;
	struct buf closed; /* byte s: session s's closing line was written */
	struct buf wrote;  /* byte c: call c's line was written (a task's
			      sub-agent's lines are written under it then) */
	int indent;        /* cells before each line: a sub-agent's */
	bool fresh;        /* a line starts: the indent goes first */
	uint32_t late;     /* the task whose line was written again for a
			      line of its sub-agent that came after it */
};

static void
log_begin(struct printer *p)
{
	struct log *l = p->state;

	l->st = p->fmt->style;
	l->m = p->m;
	l->out = p->out;
	l->text_item = NONE;
	l->bol = true;
	l->fresh = true;
	l->late = NONE;
}

static void
log_free(struct printer *p)
{
	struct log *l = p->state;

	buf_free(&l->tmp);
	buf_free(&l->line);
	buf_free(&l->san);
	buf_free(&l->esc);
	buf_free(&l->red);
	buf_free(&l->held);
	buf_free(&l->closed);
	buf_free(&l->wrote);
	tool_desc_free(&l->td);
}

/* --- writing -------------------------------------------------------------- */

/* Write s[0..n) as it is, each line that says something after the
 * indent of the lines being written (a sub-agent's, under its task). */
static void
out(struct log *l, const char *s, size_t n)
{
	static const char spaces[] = "                                ";

	while (n > 0) {
		const char *nl = memchr(s, '\n', n);
		size_t k = nl != NULL ? (size_t)(nl - s) + 1 : n;

		for (int i = l->indent; l->fresh && s[0] != '\n' && i > 0; i -= 32)
			fwrite(spaces, 1, (size_t)MIN(i, 32), l->out);
		fwrite(s, 1, k, l->out);
		l->fresh = nl != NULL;
		s += k;
		n -= k;
	}
}

static void
outs(struct log *l, const char *s)
{
	out(l, s, strlen(s));
}

/* Write s[0..n) made safe for a terminal. Lines the log composes go
 * with their length and TEXT_ONELINE: a decoded field can hold a NUL
 * (\u0000), which strlen would stop at, and a newline, which could start
 * a line that looks like one of ours ("== ok"). In Markdown, event text is
 * never the document's markup: escaped as words or prose (text_md_escape),
 * after its secrets are out (the escapes would hide them from the
 * redactor) and it is sanitized (what the escapes see is what a renderer
 * reads). */
static void
emit(struct log *l, const char *s, size_t n, int flags)
{
	struct buf *o = &l->san;
	enum md_mode mode;

	if (n == 0)
		return;
	buf_reset(&l->red);
	if (redact_text(redact_active(), s, n, &l->red)) {
		s = l->red.p;
		n = l->red.n;
	}
	buf_reset(&l->san);
	text_sanitize(&l->san, s, n, (flags & ~(EM_WORDS | EM_PROSE)) | TEXT_REDACTED);
	mode = flags & EM_PROSE ? MD_PROSE : MD_PLAIN;
	if (l->st->markdown && (flags & (EM_WORDS | EM_PROSE)) &&
	    !text_md_as_is(l->san.p, l->san.n, mode, &l->md)) {
		o = &l->esc;
		buf_reset(o);
		text_md_escape(o, l->san.p, l->san.n, mode, &l->md);
	}
	out(l, o->p, o->n);
	if (o->n > 0)
		l->bol = o->p[o->n - 1] == '\n';
}

/* Write markup of the log's own (a Markdown lead: "**Result:** "). */
static void
put(struct log *l, const char *s)
{
	if (s == NULL || *s == '\0')
		return;
	outs(l, s);
	l->bol = false;
}

/* A line of a kind: ld's markup, then its words, which the caller appends
 * to l->line, and which lead_end writes after them. */
static void
lead_start(struct log *l, const struct log_lead *ld)
{
	put(l, ld->mark);
	buf_reset(&l->line);
	if (ld->text != NULL)
		buf_adds(&l->line, ld->text);
}

static void
lead_end(struct log *l, const struct log_lead *ld)
{
	emit(l, l->line.p, l->line.n, TEXT_ONELINE | EM_WORDS);
	put(l, ld->end);
}

/* End the current output line, if one is open. */
static void
endline(struct log *l)
{
	if (!l->bol)
		outs(l, "\n");
	l->bol = true;
}

/* Markdown: the blank line after a block. */
static void
gap(struct log *l)
{
	if (l->st->markdown)
		outs(l, "\n");
}

/* A reply's text as it streams. While secrets are hidden it is held
 * until the reply stops, so that a key cut across deltas is redacted
 * whole; in Markdown, a line is held until it ends, so that its code
 * spans and fences are read whole. */
static void
prose(struct log *l, struct buf *t)
{
	struct buf swap;
	size_t k;

	if (redact_active() == NULL && !l->st->markdown) {
		emit(l, t->p, t->n, EM_PROSE);
		return;
	}
	/* The first piece is taken, not copied: a reply of 100 MB in one
	 * line costs no second copy. */
	if (l->held.n == 0) {
		swap = l->held;
		l->held = *t;
		*t = swap;
	} else {
		buf_add(&l->held, t->p, t->n);
	}
	if (redact_active() != NULL)
		return;
	for (k = l->held.n; k > 0 && l->held.p[k - 1] != '\n'; k--)
		;
	if (k == 0)
		return;
	emit(l, l->held.p, k, EM_PROSE);
	memmove(l->held.p, l->held.p + k, l->held.n - k);
	l->held.n -= k;
}

/* Print the reply held by prose, if any. */
static void
prose_flush(struct log *l)
{
	if (l->held.n == 0)
		return;
	emit(l, l->held.p, l->held.n, EM_PROSE);
	buf_reset(&l->held);
}

/* The end of prose; a fenced block it left open is closed (Markdown). */
static void
prose_end(struct log *l)
{
	endline(l);
	buf_reset(&l->esc);
	text_md_close(&l->esc, &l->md);
	if (l->esc.n > 0)
		out(l, l->esc.p, l->esc.n);
}

/* Before a block: the line ended; in Markdown, the list or the paragraph
 * too, by a blank line, or what follows joins it. */
static void
block(struct log *l)
{
	if (!l->st->markdown) {
		endline(l);
		return;
	}
	prose_end(l);
	if (l->list || l->text_item != NONE) {
		outs(l, "\n");
		l->list = false;
		l->text_item = NONE;
	}
}

/* Before a line of a list (calls, notices): in Markdown the list starts
 * as a block. */
static void
list_line(struct log *l)
{
	if (l->st->markdown && !l->list)
		block(l);
	endline(l);
	l->list = true;
}

/* --- lines ------------------------------------------------------------------ */

/* The line of call c, after ld. */
static void
call_line(struct log *l, uint32_t c, const struct log_lead *ld)
{
	endline(l);
	lead_start(l, ld);
	words_call_timed(l->m, c, &l->td, &l->line);
	lead_end(l, ld);
	endline(l);
}

/* The line of a decision asked for, then the text it carries (a plan) as
 * a paragraph of its own. */
static void
query_line(struct log *l, uint32_t q)
{
	struct query_words w = {0};

	words_query_load(l->m, q, &w);
	endline(l);
	lead_start(l, &l->st->call);
	words_query(l->m, q, &w, &l->line);
	lead_end(l, &l->st->call);
	endline(l);
	if (w.body.n > 0) {
		outs(l, "\n");
		memset(&l->md, 0, sizeof l->md);
		emit(l, w.body.p, w.body.n, EM_PROSE);
		prose_end(l);
		outs(l, "\n");
		l->list = false;
	}
	words_query_free(&w);
}

/* Each line of a prompt s[0..n) after its lead. */
static void
prompt(struct log *l, const char *s, size_t n)
{
	const struct log_lead *ld = &l->st->prompt;
	size_t i = 0;

	/* An event with no text leaves the buffer unallocated: NULL, which
	 * memchr and pointer arithmetic must not see. */
	if (n == 0)
		s = "";
	while (i <= n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (s + i)) : n - i;

		lead_start(l, ld);
		buf_add(&l->line, s + i, len);
		lead_end(l, ld);
		outs(l, "\n");
		l->bol = true;
		if (nl == NULL)
			break;
		i += len + 1;
	}
}

/* Prompt item it, a block of its own. */
static void
prompt_item(struct log *l, uint32_t it)
{
	block(l);
	buf_reset(&l->tmp);
	model_item_text(l->m, it, &l->tmp);
	prompt(l, l->tmp.p, l->tmp.n);
	gap(l);
	l->list = false;
}

/* Thinking item it: its line; when the style folds it, its text after. */
static void
thinking(struct log *l, uint32_t it)
{
	const struct log_style *st = l->st;

	block(l);
	lead_start(l, &st->think);
	words_thinking(l->m, it, &l->line);
	lead_end(l, &st->think);
	if (st->fold == NULL) {
		endline(l);
		return;
	}
	memset(&l->md, 0, sizeof l->md);
	buf_reset(&l->tmp);
	model_item_text(l->m, it, &l->tmp);
	emit(l, l->tmp.p, l->tmp.n, EM_PROSE);
	prose_end(l);
	outs(l, st->fold);
}

/* Stream text of event e after ld's words: a line not JSON (its kind of
 * problem first) or of stderr; a code span in Markdown. */
static void
problem(struct log *l, uint32_t e, const struct log_lead *ld)
{
	struct model *m = l->m;
	uint32_t it = m->ev[e].item;
	size_t total = 0;

	list_line(l);
	lead_start(l, ld);
	buf_reset(&l->tmp);
	if (EV_TYPE(&m->ev[e]) == EV_BAD) {
		words_diag(m, m->it[it].ref, &l->line);
		buf_adds(&l->line, ": ");
		total = model_bad_text(m, e, &l->tmp);
	} else {
		model_event_text(m, e, &l->tmp);
	}
	if (l->st->markdown)
		tool_code_span(&l->line, l->tmp.p, l->tmp.n);
	else
		buf_add(&l->line, l->tmp.p, l->tmp.n);
	if (EV_TYPE(&m->ev[e]) == EV_BAD)
		words_more(&l->line, total, l->tmp.n);
	lead_end(l, ld);
	endline(l);
}

/* The streamed text just written was cut off: say so, since it cannot be
 * taken back (the screen marks it in place). */
static void
cut_note(struct log *l)
{
	block(l);
	lead_start(l, &l->st->notice);
	buf_adds(&l->line, "the reply above was cut off");
	lead_end(l, &l->st->notice);
	endline(l);
	l->list = true;
}

/* --- a sub-agent's lines -------------------------------------------------------
 *
 * A sub-agent's lines arrive while its task's session goes on. The log
 * writes them under its task's line when the task ends (a sub-agent in the
 * background: when its notification comes; its start and end are said by
 * notices as they come), each item a level further in for each level
 * deeper (model_order.c), so that the session's own lines and reply are
 * never broken by a sub-agent's. A sub-agent's line that comes after its
 * task's line was written is written as it comes, under that line written
 * again. */

/* Grow the byte map *b to hold index i, new bytes 0. */
static void
map_reach(struct buf *b, uint32_t i)
{
	if (b->n > i)
		return;
	buf_reserve(b, (size_t)i + 1 - b->n);
	memset(b->p + b->n, 0, (size_t)i + 1 - b->n);
	b->n = (size_t)i + 1;
}

/* Whether call c's line was written. */
static bool
wrote(const struct log *l, uint32_t c)
{
	return c < l->wrote.n && l->wrote.p[c];
}

/* Call c's line is written. */
static void
set_wrote(struct log *l, uint32_t c)
{
	map_reach(&l->wrote, c);
	l->wrote.p[c] = 1;
}

/* Whether call c's line waits for its end: a sub-agent's task gone to
 * the background is written once, when it ends, its work under it. */
static bool
waits_end(const struct model *m, uint32_t c)
{
	const struct call *call = &m->call[c];

	return call->kind == TK_TASK && (call->flags & CF_BACKGROUND) && call->bg_ev == NONE;
}

/* The call of the session's own whose sub-agent (or its sub-agent's, ...)
 * made item it; NONE for an item of the session's own. */
static uint32_t
task_of(const struct model *m, uint32_t it)
{
	uint32_t top = model_item_top(m, it);

	return top != NONE && m->it[top].type == IT_TOOL ? m->it[top].ref : NONE;
}

/* Item it of a sub-agent, whole, at the indent of its depth. Notices
 * were written as they came. */
static void
sub_item(struct log *l, uint32_t it)
{
	struct model *m = l->m;
	const struct item *item = &m->it[it];

	l->indent = l->st->nest * item->depth;
	switch ((enum item_type)item->type) {
	case IT_PROMPT:
		prompt_item(l, it);
		l->text_item = NONE;
		break;
	case IT_THINKING:
		thinking(l, it);
		l->list = false;
		l->text_item = NONE;
		break;
	case IT_TEXT:
		block(l);
		l->text_item = it;
		memset(&l->md, 0, sizeof l->md);
		buf_reset(&l->tmp);
		words_item(m, it, WORDS_WHOLE, &l->td, &l->tmp);
		emit(l, l->tmp.p, l->tmp.n, EM_PROSE);
		prose_end(l);
		break;
	case IT_TOOL:
		list_line(l);
		call_line(l, item->ref, &l->st->call);
		/* Still open: written again when its end is known. */
		if (m->call[item->ref].done_ev != NONE)
			set_wrote(l, item->ref);
		l->text_item = NONE;
		break;
	case IT_QUERY:
		list_line(l);
		query_line(l, item->ref);
		l->text_item = NONE;
		break;
	default:
		break;
	}
}

/* Call c's line after ld, then, under it, what its sub-agent did so
 * far. */
static void
task_lines(struct log *l, uint32_t c, const struct log_lead *ld)
{
	struct model *m = l->m;
	uint32_t top = m->call[c].item, pos, it;
	int indent = l->indent;

	call_line(l, c, ld);
	set_wrote(l, c);
	if (!(m->call[c].flags & CF_SUB) || (pos = model_order_pos(m, top)) == NONE)
		return;
	while ((it = model_order_item(m, ++pos)) != NONE && m->it[it].depth > m->it[top].depth)
		if (m->it[it].type != IT_NOTICE)
			sub_item(l, it);
	l->indent = indent;
	/* All of it is the task's item of the list: what follows closes the
	 * list, though the sub-agent ended with its text. */
	l->list = true;
}

/* Before a line of task c's sub-agent that comes after the task's line:
 * that line again, once for a run of them. */
static void
late_task(struct log *l, uint32_t c)
{
	if (l->late == c)
		return;
	l->indent = 0;
	list_line(l);
	call_line(l, c, &l->st->call);
	l->late = c;
}

/* The line of the call whose background run notice e says ended, again:
 * its outcome and real duration are known now; a sub-agent's work under
 * it. */
static void
ended_in_background(struct log *l, uint32_t e)
{
	const struct model *m = l->m;

	for (size_t c = m->ncall; c-- > 0;) {
		if (m->call[c].bg_ev != e)
			continue;
		if (m->it[m->call[c].item].depth == 0)
			task_lines(l, (uint32_t)c, &l->st->call);
		else if (wrote(l, task_of(m, m->call[c].item))) {
			late_task(l, task_of(m, m->call[c].item));
			sub_item(l, m->call[c].item);
			l->indent = 0;
		}
		return;
	}
}

/* Session s's closing line is written. */
static void
log_closed(struct log *l, uint32_t s)
{
	map_reach(&l->closed, s);
	l->closed.p[s] = 1;
}

/* --- the hooks ---------------------------------------------------------------- */

/* A held reply ends where anything else comes. */
static void
reply_ends(struct log *l, uint32_t e)
{
	enum ev_type type = EV_TYPE(&l->m->ev[e]);

	if ((type != EV_TEXT_DELTA && type != EV_TEXT) || l->m->ev[e].item != l->text_item)
		prose_flush(l);
}

/* The model starts again (a followed file was truncated): what was
 * written of its calls and sessions is of the lines before. */
static void
log_restart(struct log *l, uint32_t e)
{
	if (e != 0)
		return;
	l->wrote.n = 0;
	l->closed.n = 0;
	l->late = NONE;
}

static void
log_session(struct printer *p, uint32_t e)
{
	struct log *l = p->state;
	struct model *m = l->m;

	log_restart(l, e);
	reply_ends(l, e);
	block(l);
	lead_start(l, &l->st->session);
	words_session_header(m, m->it[m->ev[e].item].session, &l->line);
	lead_end(l, &l->st->session);
	endline(l);
	gap(l);
	l->list = false;
	l->text_item = NONE;
}

/* Write what event e adds (at the indent set). */
static void
log_event(struct log *l, uint32_t e)
{
	const struct log_style *st = l->st;
	struct model *m = l->m;
	enum ev_type type = EV_TYPE(&m->ev[e]);
	uint32_t it = m->ev[e].item, c;

	reply_ends(l, e);
	switch (type) {
	case EV_USER:
		prompt_item(l, it);
		break;
	case EV_THINK_DONE:
		if (it != NONE)
			thinking(l, it);
		l->list = false;
		break;
	case EV_TEXT_DELTA:
	case EV_TEXT:
		if (it != l->text_item) {
			block(l);
			l->text_item = it;
			memset(&l->md, 0, sizeof l->md);
		}
		buf_reset(&l->tmp);
		words_event_text(m, e, &l->tmp);
		prose(l, &l->tmp);
		return;
	case EV_TOOL_DONE:
		c = m->it[it].ref;
		if (m->it[it].depth > 0) {
			list_line(l);
			call_line(l, c, &st->call);
			set_wrote(l, c);
			break;
		}
		if (waits_end(m, c))
			return; /* written when it ends */
		list_line(l);
		task_lines(l, c, &st->call);
		break;
	case EV_ANSWER:
		list_line(l);
		query_line(l, m->it[it].ref);
		break;
	case EV_HIDDEN:
		if (!(EV_FLAGS(&m->ev[e]) & EVF_CUT))
			return;
		cut_note(l);
		break;
	case EV_RESULT:
		/* A turn's result with another turn on its way is no end. */
		if (!model_result_closes(m, e))
			return;
		log_closed(l, m->it[it].session);
		block(l);
		lead_start(l, &st->result);
		words_item(m, it, WORDS_WHOLE, &l->td, &l->line);
		lead_end(l, &st->result);
		endline(l);
		gap(l);
		l->list = false;
		break;
	case EV_NOTICE:
		list_line(l);
		lead_start(l, &st->notice);
		model_notice_text(m, e, &l->line);
		lead_end(l, &st->notice);
		endline(l);
		ended_in_background(l, e);
		break;
	case EV_BAD:
		problem(l, e, &st->diag);
		break;
	case EV_STDERR:
		problem(l, e, &st->err);
		break;
	default:
		return; /* nothing written: a reply goes on */
	}
	l->text_item = NONE;
}

static void
log_item(struct printer *p, uint32_t e)
{
	struct log *l = p->state;
	struct model *m = l->m;
	uint32_t it = m->ev[e].item, c;

	log_restart(l, e);

	/* A sub-agent's line: under its task's line, when that is written
	 * (notices are written as they come). */
	if (it != NONE && m->it[it].depth > 0 && EV_TYPE(&m->ev[e]) != EV_NOTICE) {
		c = task_of(m, it);
		if (c == NONE || !wrote(l, c))
			return;
		reply_ends(l, e);
		late_task(l, c);
		l->indent = l->st->nest * m->it[it].depth;
		log_event(l, e);
		/* What it holds back of a reply goes out at its indent. */
		prose_flush(l);
		l->indent = 0;
		return;
	}
	log_event(l, e);
	if (it != NONE)
		l->late = NONE;
}

/* A line of its own; the model may have been cleared and filled again
 * since the last event, so nothing continues across it. */
static void
log_note(struct printer *p, const char *msg, size_t n)
{
	struct log *l = p->state;

	prose_flush(l);
	block(l);
	lead_start(l, &l->st->note);
	buf_add(&l->line, msg, n);
	lead_end(l, &l->st->note);
	endline(l);
	gap(l);
	l->text_item = NONE;
	l->list = false;
}

/* The closing lines: sessions that printed no result line yet, and the
 * totals when there are several. */
static void
log_summary(struct log *l)
{
	const struct log_style *st = l->st;
	struct model *m = l->m;
	uint32_t by_state[SS_NSTATES] = {0};

	for (size_t s = 0; s < m->nses; s++) {
		by_state[model_session_state(m, (uint32_t)s)]++;
		/* A session whose result ended it had its line then; again
		 * only when the command's end failed it since. */
		if (s < l->closed.n && l->closed.p[s] &&
		    !(model_session_state(m, (uint32_t)s) == SS_FAILED && !m->ses[s].is_error))
			continue;
		lead_start(l, &st->summary);
		if (m->nses > 1) {
			buf_adds(&l->line, "session ");
			if (m->ses[s].init_ev != NONE)
				words_session_header(m, (uint32_t)s, &l->line);
			else
				buf_addf(&l->line, "%zu", s + 1);
			buf_adds(&l->line, ": ");
		}
		words_session_line(m, (uint32_t)s, &l->line);
		lead_end(l, &st->summary);
		endline(l);
	}
	if (m->nses > 1) {
		lead_start(l, &st->totals);
		buf_addf(&l->line, "%zu sessions:", m->nses);
		for (int k = 0; k < SS_NSTATES; k++)
			if (by_state[k] > 0)
				buf_addf(&l->line, " %u %s", by_state[k],
					 model_session_state_name((enum session_state)k));
		lead_end(l, &st->totals);
		endline(l);
	}
	if (m->nses == 0)
		fputs(st->none, l->out);
	if (m->ndiag > 0)
		fprintf(l->out, "%s%zu line%s could not be read as JSON%s\n",
			st->diags.mark ? st->diags.mark : "", m->ndiag, m->ndiag == 1 ? "" : "s",
			st->diags.end ? st->diags.end : "");
}

/* The calls still open, the decisions never answered, then the summary. */
static void
log_finish(struct printer *p)
{
	struct log *l = p->state;
	struct model *m = l->m;

	prose_flush(l);
	block(l);
	/* A sub-agent's call still open whose task was written, under it
	 * again; then the session's own calls still open or waiting for
	 * their end, with their sub-agents' work. */
	for (size_t c = 0; c < m->ncall; c++) {
		uint32_t it = m->call[c].item, t;

		if (m->it[it].depth > 0 && m->call[c].done_ev == NONE && !wrote(l, (uint32_t)c) &&
		    wrote(l, t = task_of(m, it))) {
			late_task(l, t);
			sub_item(l, it);
			l->indent = 0;
			l->list = true;
		}
	}
	for (size_t c = 0; c < m->ncall; c++) {
		if (m->it[m->call[c].item].depth == 0 && !wrote(l, (uint32_t)c)) {
			task_lines(l, (uint32_t)c, &l->st->call);
			l->list = true;
		}
	}
	for (size_t q = 0; q < m->nquery; q++)
		if (m->query[q].answer_ev == NONE)
			query_line(l, (uint32_t)q);
	block(l);
	log_summary(l);
}

/* --- the two styles -------------------------------------------------------- */

static const struct log_style text_style = {
	.session = {.text = "== session "},
	.prompt = {.mark = "> "},
	.think = {.text = "  "},
	.call = {.text = "  "},
	.notice = {.text = "  ~ "},
	.diag = {.text = "  ! "},
	.err = {.text = "  stderr: "},
	.result = {.text = "== "},
	.note = {.mark = "== "},
	.summary = {.mark = "== "},
	.totals = {.mark = "== "},
	.none = "== no session in the input\n",
	.diags = {.mark = "== "},
	.aside = {.mark = "== "},
	.nest = 4,
};

static const struct log_style markdown_style = {
	.markdown = true,
	.session = {.text = "## Session "},
	.prompt = {.mark = "> "},
	.think = {.mark = "<details><summary>", .end = "</summary>\n\n"},
	.fold = "\n</details>\n\n",
	.call = {.text = "- "},
	.notice = {.mark = "- _", .end = "_"},
	.diag = {.mark = "- ", .text = GLYPH_WARN " "},
	.err = {.mark = "- ", .text = "stderr: "},
	.result = {.mark = "**Result:** "},
	.note = {.mark = "**Note:** "},
	.summary = {.mark = "**Summary:** "},
	.totals = {.mark = "**Sessions:** "},
	.none = "_No session in the input._\n",
	.diags = {.mark = "\n", .end = "."},
	.aside = {.mark = "\n**agentview:** "},
	.nest = 2,
};

/* A log's hooks, the same for both styles. */
#define LOG_HOOKS \
	.size = sizeof(struct log), .begin = log_begin, .session = log_session, .item = log_item, \
	.note = log_note, .finish = log_finish, .free = log_free

const struct format format_text = {
	.name = "text",
	.style = &text_style,
	LOG_HOOKS,
	.list = fleet_list_text,
	.change = fleet_change_text,
	.compare = compare_text,
};

const struct format format_markdown = {
	.name = "markdown",
	.alias = "md",
	.style = &markdown_style,
	LOG_HOOKS,
	.list = fleet_list_markdown,
	.change = fleet_change_text,
	.compare = compare_markdown,
};
