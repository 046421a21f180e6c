/* words.c: the words people read about sessions and items. */
#include "words.h"

#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "glyph.h"
#include "redact.h"
#include "text.h"

/* Keep the first line from `from` on that says something, cut at a
 * length a closing line can hold, white space folded. */
static void
fold_lines(struct buf *b, size_t from)
{
	size_t i = from, e, n;

	while (i < b->n && (b->p[i] == '\n' || b->p[i] == ' ' || b->p[i] == '\t'))
		i++;
	for (e = i; e < b->n && b->p[e] != '\n'; e++)
		;
	while (e > i && (b->p[e - 1] == ' ' || b->p[e - 1] == '\r'))
		e--;
	n = redact_cut(b->p + i, e - i, WORDS_REASON_MAX);
	memmove(b->p + from, b->p + i, n);
	b->n = from + n;
	if (e - i > n)
		buf_adds(b, GLYPH_ELLIPSIS);
	else if (b->cap > 0)
		b->p[b->n] = '\0';
}

/* "17e650d2" of a session id, or the whole id when short. */
static void
short_id(struct buf *out, const char *id, size_t n)
{
	buf_add(out, id, redact_cut(id, n, 8));
}

bool
words_tokens(struct model *m, uint32_t s, struct buf *out)
{
	const struct usage_field *f = agent_get(m->ses[s].agent)->usage;
	bool any = false;
	struct tokens t;

	/* As a store counts them: cache reads and writes apart from the
	 * input. */
	if (model_session_tokens(m, s, &t)) {
		buf_adds(out, "tokens ");
		fmt_count(out, (uint64_t)t.in);
		buf_adds(out, " in, ");
		fmt_count(out, (uint64_t)t.out);
		buf_adds(out, " out");
		if (t.cache_read > 0) {
			buf_adds(out, ", ");
			fmt_count(out, (uint64_t)t.cache_read);
			buf_adds(out, " cache read");
		}
		if (t.cache_write > 0) {
			buf_adds(out, ", ");
			fmt_count(out, (uint64_t)t.cache_write);
			buf_adds(out, " cache write");
		}
		return true;
	}
	for (; f->path != NULL; f++) {
		int64_t v;

		if (!model_end_int(m, s, FACT_USAGE, f->path, &v) || (f->skip_zero && v == 0))
			continue;
		buf_adds(out, any ? ", " : "tokens ");
		fmt_count(out, (uint64_t)v);
		buf_addf(out, " %s", f->label);
		any = true;
	}
	return any;
}

void
words_call_counts(struct model *m, uint32_t s, struct buf *out)
{
	uint32_t counts[CS_NSTATES];
	uint32_t total = m->ses[s].ncalls;
	bool first = true;

	model_session_counts(m, s, counts);
	if (total == 0) {
		buf_adds(out, "no tool calls");
		return;
	}
	buf_addf(out, "%u tool call%s: ", total, total == 1 ? "" : "s");
	for (int st = 0; st < CS_NSTATES; st++) {
		if (counts[st] == 0)
			continue;
		buf_addf(out, "%s%u %s", first ? "" : ", ", counts[st],
			 model_call_state_name((enum call_state)st));
		first = false;
	}
}

/* The line its adapter said tells why session s failed, as a notice. */
static bool
failure_line(struct model *m, uint32_t s, struct buf *out)
{
	uint32_t e = m->ses[s].fail_ev;

	if (!model_seen(m, e))
		return false;
	model_notice_text(m, e, out);
	return true;
}

bool
words_failure_whole(struct model *m, uint32_t s, struct buf *out)
{
	size_t mark = out->n;

	if (model_command_failure(m, s, out))
		return true;
	/* Its end's error, else its reply when that is the error, else why
	 * it stopped. */
	if (model_session_state(m, s) != SS_FAILED ||
	    (!model_fact(m, s, FACT_ERROR, out) &&
	     !(m->ses[s].is_error && model_fact(m, s, FACT_RESULT, out) && out->n > mark) &&
	     !model_fact(m, s, FACT_STOP, out) && !failure_line(m, s, out)))
		return false;
	return out->n > mark;
}

bool
words_failure(struct model *m, uint32_t s, struct buf *out)
{
	size_t mark = out->n;

	if (!words_failure_whole(m, s, out))
		return false;
	/* One line of it: the first that says something. */
	fold_lines(out, mark);
	return out->n > mark;
}

bool
words_no_timing(const struct model *m, uint32_t s, struct buf *out)
{
	if (model_session_timed(m, s))
		return false;
	buf_adds(out, "no timing in this stream");
	return true;
}

bool
words_cost(struct model *m, uint32_t s, struct buf *out)
{
	struct buf t = {0};
	bool ok = model_fact(m, s, FACT_COST, &t) && t.n > 0;

	if (ok) {
		double usd = strtod(t.p, NULL);

		buf_addf(out, "$%.*f", usd < 0.1 ? 4 : 2, usd);
	}
	buf_free(&t);
	return ok;
}

/* What the session's end says beyond tokens: cost, turns, permissions
 * denied ("$0.0166 · 3 turns · 1 permission denied"). */
static void
session_extras(struct model *m, uint32_t s, struct buf *out)
{
	struct buf t = {0};
	const char *path;
	uint32_t e;
	int64_t n;
	size_t mark = out->n;

	buf_adds(out, " " GLYPH_DOT " ");
	if (!words_cost(m, s, out))
		buf_cut(out, mark);
	if (model_fact(m, s, FACT_TURNS, &t) && (n = strtoll(t.p, NULL, 10)) > 0)
		buf_addf(out, " " GLYPH_DOT " %lld turn%s", (long long)n, n == 1 ? "" : "s");
	e = model_fact_at(m, s, FACT_DENIALS, &path);
	if (e != NONE && (n = model_event_count(m, e, path)) > 0)
		buf_addf(out, " " GLYPH_DOT " %lld permission%s denied", (long long)n,
			 n == 1 ? "" : "s");
	/* A run that ended well but short of its end ("max_turns"). */
	buf_reset(&t);
	if (model_session_state(m, s) == SS_OK && model_fact(m, s, FACT_STOP, &t) && t.n > 0 &&
	    strcmp(t.p, "completed") != 0)
		buf_addf(out, " " GLYPH_DOT " stopped: %s", t.p);
	buf_free(&t);
}

void
words_session_line(struct model *m, uint32_t s, struct buf *out)
{
	const struct session *ses = &m->ses[s];
	int64_t d = model_session_duration(m, s);
	int64_t quiet = model_session_silence(m, s);
	size_t mark, open, at;

	buf_adds(out, model_session_state_name(model_session_state(m, s)));
	/* In parentheses: no result, why it failed, and how long a run
	 * that hung until it was killed was silent before its stream
	 * ended. */
	mark = out->n;
	buf_adds(out, " (");
	open = out->n;
	if (!model_seen(m, ses->result_ev) && model_session_state(m, s) == SS_INCOMPLETE)
		buf_adds(out, "no result");
	at = out->n;
	if (at > open)
		buf_adds(out, "; ");
	if (!words_failure(m, s, out))
		buf_cut(out, at);
	if (quiet != TIME_NONE && quiet >= WORDS_SILENCE_MS) {
		if (out->n > open)
			buf_adds(out, "; ");
		buf_adds(out, "silent for its last ");
		fmt_duration(out, quiet);
	}
	if (out->n > open)
		buf_addc(out, ')');
	else
		buf_cut(out, mark);
	if (d != TIME_NONE) {
		buf_adds(out, " " GLYPH_DOT " ");
		fmt_duration(out, d);
	}
	buf_adds(out, " " GLYPH_DOT " ");
	words_call_counts(m, s, out);
	mark = out->n;
	buf_adds(out, " " GLYPH_DOT " ");
	if (!words_tokens(m, s, out))
		buf_cut(out, mark);
	session_extras(m, s, out);
}

void
words_session_header(struct model *m, uint32_t s, struct buf *out)
{
	const struct agent *a = agent_get(m->ses[s].agent);
	size_t mark = out->n;

	if (model_fact(m, s, FACT_ID, out)) {
		size_t n = out->n - mark;
		char *id = xstrndup(out->p + mark, n);

		buf_cut(out, mark);
		short_id(out, id, n);
		free(id);
	} else {
		buf_adds(out, "(no session id)");
	}
	/* The stream read by default does not say whose it is; the others
	 * do. */
	if (!a->unnamed) {
		buf_adds(out, " " GLYPH_DOT " ");
		buf_adds(out, a->label);
	}
	mark = out->n;
	buf_adds(out, " " GLYPH_DOT " ");
	if (!model_fact(m, s, FACT_MODEL, out)) {
		if (a->unnamed)
			buf_adds(out, "model unknown");
		else
			buf_cut(out, mark);
	}
	/* Its git branch, when it names one (not a detached HEAD). */
	mark = out->n;
	buf_adds(out, " " GLYPH_DOT " branch ");
	if (!model_fact(m, s, FACT_BRANCH, out) ||
	    (out->n - mark == strlen(" " GLYPH_DOT " branch HEAD") &&
	     memcmp(out->p + out->n - 4, "HEAD", 4) == 0))
		buf_cut(out, mark);
	mark = out->n;
	buf_adds(out, " " GLYPH_DOT " ");
	if (!model_fact(m, s, FACT_CWD, out))
		buf_cut(out, mark);
}

void
words_session_header_fit(struct model *m, uint32_t s, size_t cells, struct buf *out)
{
	size_t from = out->n, w, rest;
	struct buf cwd = {0};

	words_session_header(m, s, out);
	w = text_width(out->p + from, out->n - from);
	if (cells == 0 || w <= cells || !model_fact(m, s, FACT_CWD, &cwd)) {
		buf_free(&cwd);
		return;
	}
	/* Too wide: the cwd gives way, its last part kept, or all of it. */
	out->n -= cwd.n;
	rest = text_width(out->p + from, out->n - from);
	if (rest + 4 <= cells)
		text_path_fit(out, cwd.p, cwd.n, cells - rest);
	else
		out->n -= strlen(" " GLYPH_DOT " ");
	out->p[out->n] = '\0';
	buf_free(&cwd);
}

void
words_thinking(struct model *m, uint32_t it, struct buf *out)
{
	const struct item *item = &m->it[it];
	uint32_t last = MIN(item->last_ev, m->limit);
	int64_t a, b;

	/* As of a replay's limit: its latest event shown. */
	while (last > item->first_ev && m->ev[last].item != it)
		last--;
	a = m->ev[item->first_ev].ms;
	b = m->ev[last].ms;

	buf_adds(out, "thinking");
	if (a != TIME_NONE && b != TIME_NONE && b >= a) {
		buf_adds(out, " " GLYPH_DOT " ");
		fmt_duration(out, b - a);
	}
}

void
words_diag(const struct model *m, uint32_t d, struct buf *out)
{
	buf_addf(out, "line %llu: ", (unsigned long long)m->diag[d].line);
	model_diag_message(m, d, out);
}

void
words_call(const struct model *m, uint32_t c, const struct tool_desc *d, struct buf *out)
{
	words_call_fit(m, c, d, 0, out);
}

void
words_call_fit(const struct model *m, uint32_t c, const struct tool_desc *d, size_t cells,
	       struct buf *out)
{
	enum tool_kind k = (enum tool_kind)m->call[c].kind;
	struct buf cwd = {0}, path = {0};
	size_t from = out->n, w, pw;

	model_session_cwd(m, m->call[c].session, &cwd);
	buf_adds(out, tool_state_glyph(model_call_state(m, c)));
	buf_addc(out, ' ');
	tool_line_at(k, d, cwd.p, cwd.n, 0, out);
	w = text_width(out->p + from, out->n - from);
	/* Too wide: the path gives way first, cut in the middle. */
	if (cells > 0 && w > cells && tool_kind_is_path(k)) {
		tool_what(k, d, cwd.p, cwd.n, 0, &path);
		pw = text_width(path.p, path.n);
		if (pw > w - cells + 4) {
			buf_cut(out, from);
			buf_adds(out, tool_state_glyph(model_call_state(m, c)));
			buf_addc(out, ' ');
			tool_line_at(k, d, cwd.p, cwd.n, pw - (w - cells), out);
		}
	}
	buf_free(&path);
	buf_free(&cwd);
}

void
words_query_load(struct model *m, uint32_t q, struct query_words *w)
{
	const struct query *qu = &m->query[q];
	const struct agent *a = agent_get(m->ses[qu->session].agent);
	const struct json *aj = NULL, *rj = NULL;

	if (model_seen(m, qu->ask_ev))
		aj = model_parsed(m, qu->ask_ev, m->qjson);
	if (model_seen(m, qu->answer_ev))
		rj = model_parsed(m, qu->answer_ev, m->qjson2);
	if (a->query != NULL)
		a->query(aj, rj, w);
}

void
words_query_free(struct query_words *w)
{
	buf_free(&w->id);
	buf_free(&w->type);
	buf_free(&w->what);
	buf_free(&w->call);
	buf_free(&w->reason);
	buf_free(&w->body);
}

enum query_decision
words_query_decision(const struct model *m, uint32_t q)
{
	const struct query *qu = &m->query[q];

	return model_seen(m, qu->answer_ev) ? (enum query_decision)qu->decision : QD_PENDING;
}

void
words_query(struct model *m, uint32_t q, const struct query_words *w, struct buf *out)
{
	static const char *const said[] = {
		[QD_APPROVED] = "approved",
		[QD_REJECTED] = "rejected",
		[QD_SKIPPED] = "skipped",
		[QD_ANSWERED] = "answered",
	};
	enum query_decision d = words_query_decision(m, q);
	enum session_state st = model_session_state(m, m->query[q].session);

	buf_adds(out, "? ");
	if (w->what.n > 0)
		buf_add(out, w->what.p, w->what.n);
	else
		buf_adds(out, "a decision");
	buf_adds(out, " " GLYPH_ARROW " ");
	if (d == QD_PENDING) {
		buf_adds(out, st == SS_LIVE || st == SS_WAITING ? "waiting for a decision"
								: "no answer");
		return;
	}
	buf_adds(out, said[d]);
	if (w->reason.n > 0) {
		size_t from = out->n;

		buf_adds(out, ": ");
		buf_add(out, w->reason.p, w->reason.n);
		fold_lines(out, from + 2);
	}
}

/* A new paragraph where two replies were glued: the first capital that
 * starts a word right after the end of a sentence or a word in capitals,
 * with no space between ("DONEThe", "done.The"). Only asked of a text
 * that spans several model steps (EVF_GLUED). */
static void
unglue(struct buf *b, size_t from)
{
	for (size_t i = from + 1; i + 1 < b->n; i++) {
		char prev = b->p[i - 1], c = b->p[i], next = b->p[i + 1];

		if (c < 'A' || c > 'Z' || next < 'a' || next > 'z' ||
		    !((prev >= 'A' && prev <= 'Z') || strchr(".!?:;)`\"'", prev)))
			continue;
		buf_add(b, "\n\n", 2);
		memmove(b->p + i + 2, b->p + i, b->n - 2 - i);
		memcpy(b->p + i, "\n\n", 2);
		return;
	}
}

void
words_event_text(struct model *m, uint32_t e, struct buf *out)
{
	size_t from = out->n;

	model_event_text(m, e, out);
	if (EV_FLAGS(&m->ev[e]) & EVF_GLUED)
		unglue(out, from);
}

void
words_more(struct buf *out, size_t total, size_t shown)
{
	if (total > shown)
		buf_addf(out, " " GLYPH_ELLIPSIS " %zu bytes more", total - shown);
}

/* Event e's text from `from` on, cut at WORDS_LINE_MAX bytes unless the
 * whole is asked for, saying so. */
static void
event_line(struct model *m, uint32_t e, unsigned flags, struct buf *out)
{
	size_t from = out->n, total;

	model_event_text(m, e, out);
	total = out->n - from;
	if (!(flags & WORDS_WHOLE) && total > WORDS_LINE_MAX) {
		out->n = from + redact_cut(out->p + from, total, WORDS_LINE_MAX);
		buf_addf(out, " " GLYPH_ELLIPSIS " (%zu bytes in all)", total);
	}
}

void
words_item(struct model *m, uint32_t it, unsigned flags, struct tool_desc *td, struct buf *out)
{
	const struct item *item = &m->it[it];
	size_t from = out->n;

	switch (item->type) {
	case IT_SESSION:
		buf_adds(out, "Session ");
		words_session_header(m, item->session, out);
		break;
	case IT_THINKING:
		words_thinking(m, it, out);
		if (flags & WORDS_BODY) {
			buf_addc(out, '\n');
			model_item_text(m, it, out);
		}
		break;
	case IT_PROMPT:
		model_item_text(m, it, out);
		break;
	case IT_TEXT:
		model_item_text(m, it, out);
		if (EV_FLAGS(&m->ev[item->first_ev]) & EVF_GLUED)
			unglue(out, from);
		if (item->flags & IF_CUT) {
			while (out->n > from && out->p[out->n - 1] == ' ')
				out->n--;
			buf_adds(out, " " GLYPH_ELLIPSIS " (cut off)");
		}
		break;
	case IT_TOOL:
		tool_describe(m, item->ref, td);
		words_call(m, item->ref, td, out);
		break;
	case IT_NOTICE:
		model_notice_text(m, item->first_ev, out);
		if (!(flags & WORDS_WHOLE) && out->n - from > WORDS_LINE_MAX) {
			out->n = from + redact_cut(out->p + from, out->n - from, WORDS_LINE_MAX);
			out->p[out->n] = '\0';
		}
		break;
	case IT_DIAG: {
		size_t at, total;

		buf_adds(out, "! ");
		words_diag(m, item->ref, out);
		buf_adds(out, ": ");
		at = out->n;
		total = model_bad_text(m, item->first_ev, out);
		words_more(out, total, out->n - at);
		break;
	}
	case IT_STDERR:
		buf_adds(out, "stderr: ");
		event_line(m, item->first_ev, flags, out);
		break;
	case IT_QUERY: {
		struct query_words w = {0};

		words_query_load(m, item->ref, &w);
		words_query(m, item->ref, &w, out);
		if ((flags & WORDS_BODY) && w.body.n > 0) {
			buf_addc(out, '\n');
			buf_add(out, w.body.p, w.body.n);
		}
		words_query_free(&w);
		break;
	}
	case IT_RESULT:
		/* A result the session went on after (Claude Code starts a
		 * turn of its own when a background agent ends): the screen
		 * and the outputs show none, a search reads this. */
		if (!model_result_closes(m, item->first_ev))
			buf_adds(out, "turn done; the session goes on");
		else
			words_session_line(m, item->session, out);
		break;
	default:
		break;
	}
}

void
words_call_timed(struct model *m, uint32_t c, struct tool_desc *td, struct buf *out)
{
	int64_t d = model_call_duration(m, c);

	tool_describe(m, c, td);
	words_call(m, c, td, out);
	if (d != TIME_NONE && model_call_state(m, c) != CS_ORPHANED) {
		buf_adds(out, " " GLYPH_DOT " ");
		fmt_duration(out, d);
	}
}
