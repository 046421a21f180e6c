/* print.c: the plain-text log, Markdown, the JSON summary, the raw stream. */
#include "print.h"

#include <stdlib.h>
#include <string.h>

#include "glyph.h"
#include "record.h"
#include "text.h"
#include "tool.h"
#include "words.h"

/* Bytes [off, off + len) of a buffer; len 0: nothing kept. */
struct span {
	size_t off;
	size_t len;
};

/* What the JSON printer keeps while the lines go by, so that the summary
 * at the end parses none of them again: each piece is made from the
 * model's own parse of a line right after the line was added, and is final
 * by then. Indices are session and call numbers. */
struct sumcache {
	struct buf *text;     /* per session: its assistant text, decoded */
	size_t ntext, textcap;
	struct span *result;  /* per session: its request_id and usage */
	size_t nresult, resultcap;
	struct span *call;    /* per completed call: its summary object */
	size_t ncall, callcap;
	struct buf pieces;    /* the spans' bytes */
	struct buf tmp;
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
	struct tool_desc td;
	struct sumcache sc;  /* the JSON format's */
};

static void sumcache_free(struct sumcache *sc);
static void sumcache_line(struct printer *p, uint32_t e);
static void summary_build(struct model *m, struct sumcache *sc,
			  struct buf *out, FILE *f);

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
	tool_desc_free(&p->td);
	sumcache_free(&p->sc);
	free(p);
}

bool
print_format_parse(const char *name, enum print_format *fmt)
{
	static const char *const names[] = {"text", "markdown", "json", "raw"};

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
 * a line that looks like one of ours ("== ok"). */
static void
emit(struct printer *p, const char *s, size_t n, int flags)
{
	if (n == 0)
		return;
	buf_reset(&p->san);
	text_sanitize(&p->san, s, n, flags);
	fwrite(p->san.p, 1, p->san.n, p->out);
	if (p->san.n > 0)
		p->bol = p->san.p[p->san.n - 1] == '\n';
}

/* End the current output line, if one is open. */
static void
endline(struct printer *p)
{
	if (!p->bol)
		fputc('\n', p->out);
	p->bol = true;
}

/* Markdown: leave a list of tool lines before other blocks. */
static void
md_block(struct printer *p)
{
	endline(p);
	if (p->md_list) {
		fputc('\n', p->out);
		p->md_list = false;
	}
}

/* --- pieces shared by text and Markdown --------------------------------- */

/* The line about a finished call: "✓ Shell `ls` → exit 0 · 0.2 s". */
static void
call_line(struct printer *p, uint32_t c, struct buf *out)
{
	int64_t d = model_call_duration(p->m, c);

	tool_describe(p->m, c, &p->td);
	words_call(p->m, c, &p->td, out);
	if (d != TIME_NONE && model_call_state(p->m, c) != CS_ORPHANED) {
		buf_adds(out, " " GLYPH_DOT " ");
		fmt_duration(out, d);
	}
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
		emit(p, s + i, len, TEXT_ONELINE);
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
	emit(p, l->p, l->n, TEXT_ONELINE);
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
	    type != EV_THINK_DELTA && type != EV_META)
		p->text_item = NONE;
	switch (type) {
	case EV_INIT:
		endline(p);
		buf_adds(l, "== session ");
		words_session_header(m, e, l);
		emit(p, l->p, l->n, TEXT_ONELINE);
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
		model_event_text(m, e, &p->tmp);
		emit(p, p->tmp.p, p->tmp.n, 0);
		break;
	case EV_TOOL_DONE:
		endline(p);
		buf_adds(l, "  ");
		call_line(p, m->it[it].ref, l);
		emit(p, l->p, l->n, TEXT_ONELINE);
		endline(p);
		break;
	case EV_RESULT:
		text_line(p, "== ", it);
		break;
	case EV_NOTICE:
		text_line(p, "  ~ ", it);
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
		words_session_header(m, e, l);
		emit(p, l->p, l->n, TEXT_ONELINE);
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
		emit(p, l->p, l->n, TEXT_ONELINE);
		fputs("</summary>\n\n", p->out);
		model_item_text(m, it, &p->tmp);
		emit(p, p->tmp.p, p->tmp.n, 0);
		endline(p);
		fputs("\n</details>\n\n", p->out);
		break;
	case EV_TEXT_DELTA:
	case EV_TEXT:
		if (it != p->text_item) {
			md_block(p);
			p->text_item = it;
		}
		model_event_text(m, e, &p->tmp);
		emit(p, p->tmp.p, p->tmp.n, 0);
		return;
	case EV_TOOL_DONE:
		if (!p->md_list)
			md_block(p);
		endline(p);
		buf_adds(l, "- ");
		call_line(p, m->it[it].ref, l);
		emit(p, l->p, l->n, TEXT_ONELINE);
		endline(p);
		p->md_list = true;
		break;
	case EV_RESULT:
		md_block(p);
		buf_adds(l, "**Result:** ");
		words_session_line(m, m->it[it].session, l);
		emit(p, l->p, l->n, TEXT_ONELINE);
		fputs("\n\n", p->out);
		p->bol = true;
		break;
	case EV_NOTICE:
	case EV_BAD:
	case EV_STDERR:
		if (!p->md_list)
			md_block(p);
		endline(p);
		buf_adds(l, "- ");
		if (type == EV_NOTICE) {
			buf_adds(l, "_");
			model_notice_text(m, e, l);
			buf_adds(l, "_");
		} else if (type == EV_BAD) {
			buf_adds(l, GLYPH_WARN " ");
			words_diag(m, m->it[it].ref, l);
			buf_adds(l, ": ");
			model_event_text(m, e, &p->tmp);
			tool_code_span(l, p->tmp.p, p->tmp.n);
		} else {
			buf_adds(l, "stderr: ");
			model_event_text(m, e, &p->tmp);
			tool_code_span(l, p->tmp.p, p->tmp.n);
		}
		emit(p, l->p, l->n, TEXT_ONELINE);
		endline(p);
		p->md_list = true;
		break;
	default:
		return;
	}
	if (type != EV_TOOL_DONE && type != EV_NOTICE && type != EV_BAD &&
	    type != EV_STDERR)
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
printer_line(struct printer *p, const struct source *s, const struct line *ln,
	     uint32_t ev)
{
	switch (p->fmt) {
	case PF_RAW:
		if (!is_stderr_source(p->m, s))
			record_raw_line(p->out, source_at(s, ln->off), ln->len,
					ln->terminated);
		return;
	case PF_JSON:
		if (ev != NONE)
			sumcache_line(p, ev);
		return;
	case PF_TEXT:
		if (ev != NONE)
			text_event(p, ev);
		return;
	case PF_MARKDOWN:
		if (ev != NONE)
			md_event(p, ev);
		return;
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
	buf_reset(l);
	if (p->fmt == PF_MARKDOWN) {
		md_block(p);
		buf_adds(l, "**Note:** ");
	} else {
		endline(p);
		buf_adds(l, "== ");
	}
	buf_add(l, msg, n);
	emit(p, l->p, l->n, TEXT_ONELINE);
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
	uint32_t by_state[4] = {0};

	for (size_t s = 0; s < m->nses; s++) {
		by_state[model_session_state(m, (uint32_t)s)]++;
		/* A session with a result had its line then; again only when
		 * the command's end failed it since. */
		if (m->ses[s].result_ev != NONE &&
		    !(model_session_state(m, (uint32_t)s) == SS_FAILED &&
		      !m->ses[s].is_error))
			continue;
		buf_reset(&p->line);
		buf_adds(&p->line, md ? "**Summary:** " : "== ");
		if (m->nses > 1) {
			buf_adds(&p->line, "session ");
			if (m->ses[s].init_ev != NONE)
				words_session_header(m, m->ses[s].init_ev, &p->line);
			else
				buf_addf(&p->line, "%zu", s + 1);
			buf_adds(&p->line, ": ");
		}
		words_session_line(m, (uint32_t)s, &p->line);
		emit(p, p->line.p, p->line.n, TEXT_ONELINE);
		endline(p);
	}
	if (m->nses > 1) {
		buf_reset(&p->line);
		buf_addf(&p->line, "%s%zu sessions:", md ? "**Sessions:** " : "== ",
			 m->nses);
		for (int st = 0; st < 4; st++)
			if (by_state[st] > 0)
				buf_addf(&p->line, " %u %s", by_state[st],
					 model_session_state_name((enum session_state)st));
		emit(p, p->line.p, p->line.n, TEXT_ONELINE);
		endline(p);
	}
	if (m->nses == 0)
		fputs(md ? "_No session in the input._\n" : "== no session in the input\n",
		      p->out);
	if (m->ndiag > 0)
		fprintf(p->out, md ? "\n%zu line%s could not be read as JSON.\n"
				   : "== %zu line%s could not be read as JSON\n",
			m->ndiag, m->ndiag == 1 ? "" : "s");
}

/* Text and Markdown: the calls still open, then the summary. */
static void
finish_log(struct printer *p)
{
	struct model *m = p->m;
	bool md = p->fmt == PF_MARKDOWN;

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
		emit(p, p->line.p, p->line.n, TEXT_ONELINE);
		endline(p);
		p->md_list = md;
	}
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
		summary_build(p->m, &p->sc, &p->tmp, p->out);
		buf_addc(&p->tmp, '\n');
		fwrite(p->tmp.p, 1, p->tmp.n, p->out);
		break;
	case PF_RAW:
		break;
	}
	fflush(p->out);
}

/* --- the JSON summary ---------------------------------------------------- */

/* Re-emit token t compactly; strings go through json_quote so the output
 * is valid JSON whatever bytes the input held. */
static int
emit_compact(const struct json *j, int t, struct buf *out, struct buf *tmp)
{
	int n = json_size(j, t), k = t + 1;
	size_t len;
	const char *raw;

	switch (json_type(j, t)) {
	case JSON_OBJECT:
	case JSON_ARRAY: {
		bool obj = json_type(j, t) == JSON_OBJECT;

		buf_addc(out, obj ? '{' : '[');
		for (int i = 0; i < n; i++) {
			if (i > 0)
				buf_addc(out, ',');
			if (obj) {
				k = emit_compact(j, k, out, tmp);
				buf_addc(out, ':');
			}
			k = emit_compact(j, k, out, tmp);
		}
		buf_addc(out, obj ? '}' : ']');
		return k;
	}
	case JSON_STRING:
		buf_reset(tmp);
		json_decode(j, t, tmp);
		json_quote(out, tmp->p, tmp->n);
		return t + 1;
	default:
		raw = json_raw(j, t, &len);
		buf_add(out, raw, len);
		return t + 1;
	}
}

/* "key": followed by a top-level string field of event e, or null. */
static void
json_field(struct model *m, uint32_t e, const char *path, struct buf *out,
	   struct buf *tmp)
{
	buf_reset(tmp);
	if (e != NONE && model_event_field(m, e, path, tmp))
		json_quote(out, tmp->p, tmp->n);
	else
		buf_adds(out, "null");
}

static void
json_ms_value(struct buf *out, int64_t v)
{
	if (v == TIME_NONE)
		buf_adds(out, "null");
	else
		buf_addf(out, "%lld", (long long)v);
}

/* The first event of session s that names its session_id. */
static uint32_t
session_id_event(struct model *m, uint32_t s, struct buf *tmp)
{
	const struct session *ses = &m->ses[s];

	if (ses->init_ev != NONE)
		return ses->init_ev;
	if (ses->result_ev != NONE)
		return ses->result_ev;
	for (uint32_t e = ses->first_ev; e <= ses->last_ev && e < m->nev; e++) {
		buf_reset(tmp);
		if (m->ev[e].item != NONE && m->it[m->ev[e].item].session == s &&
		    model_event_field(m, e, "session_id", tmp))
			return e;
	}
	return NONE;
}

/* Write what out holds to f once it is large, when there is an f: the
 * summary of a million calls is some 200 MB, which need not be in memory
 * all at once. */
static void
summary_flush(struct buf *out, FILE *f)
{
	if (f == NULL || out->n < (1u << 16))
		return;
	fwrite(out->p, 1, out->n, f);
	buf_reset(out);
}

static void
summary_call(struct model *m, uint32_t c, struct tool_desc *td,
	     struct buf *out, struct buf *tmp)
{
	const struct call *call = &m->call[c];
	uint32_t idev = call->start_ev != NONE ? call->start_ev : call->done_ev;

	tool_describe(m, c, td);
	buf_adds(out, "{\"call_id\":");
	buf_reset(tmp);
	if (model_event_field(m, idev, "call_id", tmp) ||
	    model_event_field(m, idev, "tool_call.toolCallId", tmp))
		json_quote(out, tmp->p, tmp->n);
	else
		buf_adds(out, "null");
	buf_adds(out, ",\"tool\":");
	if (td->key.n > 0)
		json_quote(out, td->key.p, td->key.n);
	else
		buf_adds(out, "null");
	buf_addf(out, ",\"kind\":\"%s\",\"state\":\"%s\",\"started\":%s",
		 tool_kind_name((enum tool_kind)call->kind),
		 model_call_state_name(model_call_state(m, c)),
		 call->start_ev != NONE ? "true" : "false");
	buf_adds(out, ",\"summary\":");
	json_quote(out, td->what.p ? td->what.p : "", td->what.n);
	buf_adds(out, ",\"outcome\":");
	json_quote(out, td->outcome.p ? td->outcome.p : "", td->outcome.n);
	buf_adds(out, ",\"start_ms\":");
	json_ms_value(out, call->start_ms);
	buf_adds(out, ",\"end_ms\":");
	json_ms_value(out, call->end_ms);
	buf_adds(out, ",\"duration_ms\":");
	json_ms_value(out, model_call_duration(m, c));
	buf_addc(out, '}');
}

/* ,"request_id":...,"usage":... of the result event r (NONE: none). */
static void
summary_result(struct model *m, uint32_t r, struct buf *out, struct buf *tmp)
{
	const struct json *j;
	int u;

	buf_adds(out, ",\"request_id\":");
	json_field(m, r, "request_id", out, tmp);
	buf_adds(out, ",\"usage\":");
	if (r != NONE && (j = model_parsed(m, r, m->qjson2)) != NULL &&
	    (u = json_get(j, 0, "usage")) >= 0 &&
	    json_type(j, u) == JSON_OBJECT)
		emit_compact(j, u, out, tmp);
	else
		buf_adds(out, "null");
}

/* The bytes of span i of v[0..n) in sc, or NULL when sc keeps none. */
static const struct span *
sumcache_span(const struct sumcache *sc, const struct span *v, size_t n,
	      size_t i)
{
	if (sc == NULL || i >= n || v[i].len == 0)
		return NULL;
	return &v[i];
}

static void
summary_session(struct model *m, uint32_t s, uint32_t end_item,
		struct buf *out, struct buf *tmp, struct buf *text,
		struct tool_desc *td, struct sumcache *sc, FILE *f)
{
	const struct session *ses = &m->ses[s];
	uint32_t r = ses->result_ev;
	const struct span *sp;
	bool first;

	buf_adds(out, "{\"session_id\":");
	json_field(m, session_id_event(m, s, tmp), "session_id", out, tmp);
	buf_adds(out, ",\"model\":");
	json_field(m, ses->init_ev, "model", out, tmp);
	buf_adds(out, ",\"cwd\":");
	json_field(m, ses->init_ev, "cwd", out, tmp);
	buf_adds(out, ",\"permission_mode\":");
	json_field(m, ses->init_ev, "permissionMode", out, tmp);
	buf_addf(out, ",\"state\":\"%s\"",
		 model_session_state_name(model_session_state(m, s)));

	buf_adds(out, ",\"duration_ms\":");
	json_ms_value(out, model_session_duration(m, s));
	if ((sp = sumcache_span(sc, sc ? sc->result : NULL,
				sc ? sc->nresult : 0, s)) != NULL)
		buf_add(out, sc->pieces.p + sp->off, sp->len);
	else
		summary_result(m, r, out, tmp);

	buf_adds(out, ",\"prompts\":[");
	first = true;
	buf_reset(text);
	for (uint32_t i = ses->first_item; i < end_item; i++) {
		const struct item *it = &m->it[i];

		if (it->session != s)
			continue;
		if (it->type == IT_PROMPT) {
			buf_reset(tmp);
			model_item_text(m, i, tmp);
			if (!first)
				buf_addc(out, ',');
			json_quote(out, tmp->p, tmp->n);
			first = false;
		} else if (it->type == IT_TEXT && sc == NULL) {
			model_item_text(m, i, text);
		}
	}
	if (sc != NULL && s < sc->ntext)
		buf_add(text, sc->text[s].p, sc->text[s].n);
	/* With --output-format json there are no assistant events: the reply
	 * the user saw is the result's text. */
	if (text->n == 0 && r != NONE)
		model_event_field(m, r, "result", text);
	buf_adds(out, "],\"assistant_text\":");
	json_quote(out, text->p ? text->p : "", text->n);

	buf_adds(out, ",\"tool_calls\":[");
	first = true;
	for (uint32_t i = ses->first_item; i < end_item; i++) {
		const struct item *it = &m->it[i];

		if (it->session != s || it->type != IT_TOOL)
			continue;
		if (!first)
			buf_addc(out, ',');
		if ((sp = sumcache_span(sc, sc ? sc->call : NULL,
					sc ? sc->ncall : 0, it->ref)) != NULL)
			buf_add(out, sc->pieces.p + sp->off, sp->len);
		else
			summary_call(m, it->ref, td, out, tmp);
		summary_flush(out, f);
		first = false;
	}
	/* Why the command's end failed the session, when it did. */
	buf_adds(out, "],\"error\":");
	buf_reset(tmp);
	if (model_command_failure(m, s, tmp))
		json_quote(out, tmp->p, tmp->n);
	else
		buf_adds(out, "null");
	buf_addc(out, '}');
}

void
print_summary_json(struct model *m, struct buf *out)
{
	summary_build(m, NULL, out, NULL);
}

/* The summary, from what sc kept (NULL: from the lines); with f, each
 * session goes out to f as soon as it is made, so that the whole summary of
 * a big input is never held at once. */
static void
summary_build(struct model *m, struct sumcache *sc, struct buf *out, FILE *f)
{
	struct buf tmp = {0}, text = {0};
	struct tool_desc td = {0};

	buf_addf(out, "{\"lines\":%llu,\"diagnostics\":[",
		 (unsigned long long)m->lines);
	for (size_t d = 0; d < m->ndiag; d++) {
		buf_addf(out, "%s{\"line\":%llu,\"message\":", d ? "," : "",
			 (unsigned long long)m->diag[d].line);
		buf_reset(&tmp);
		model_diag_message(m, (uint32_t)d, &tmp);
		json_quote(out, tmp.p, tmp.n);
		buf_addc(out, '}');
		summary_flush(out, f);
	}
	buf_adds(out, "],\"command\":");
	if (m->cmd.present) {
		buf_adds(out, "{\"argv\":[");
		for (char **a = m->cmd.argv; a != NULL && *a != NULL; a++) {
			if (a != m->cmd.argv)
				buf_addc(out, ',');
			json_quote(out, *a, strlen(*a));
		}
		buf_adds(out, "],\"exit_status\":");
		if (m->cmd.exited)
			buf_addf(out, "%d", m->cmd.exit_status);
		else
			buf_adds(out, "null");
		buf_adds(out, ",\"signal\":");
		if (m->cmd.signal != 0)
			buf_addf(out, "%d", m->cmd.signal);
		else
			buf_adds(out, "null");
		buf_adds(out, ",\"stderr\":[");
		for (size_t e = 0, k = 0; e < m->nev; e++) {
			if (EV_TYPE(&m->ev[e]) != EV_STDERR)
				continue;
			if (k++ > 0)
				buf_addc(out, ',');
			buf_reset(&tmp);
			model_event_text(m, (uint32_t)e, &tmp);
			json_quote(out, tmp.p, tmp.n);
			summary_flush(out, f);
		}
		buf_adds(out, "]}");
	} else {
		buf_adds(out, "null");
	}
	buf_adds(out, ",\"sessions\":[");
	for (size_t s = 0; s < m->nses; s++) {
		uint32_t end = (uint32_t)m->nit;

		/* Items of a session end where the next one of its source
		 * begins. */
		for (size_t t = s + 1; t < m->nses; t++) {
			if (m->ses[t].src == m->ses[s].src) {
				end = m->ses[t].first_item;
				break;
			}
		}
		if (s > 0)
			buf_addc(out, ',');
		summary_session(m, (uint32_t)s, end, out, &tmp, &text, &td, sc, f);
		summary_flush(out, f);
	}
	buf_adds(out, "]}");
	buf_free(&tmp);
	buf_free(&text);
	tool_desc_free(&td);
}

/* --- the JSON printer's cache ---------------------------------------------- */

/* Forget everything kept (the model starts again, or the printer ends). */
static void
sumcache_free(struct sumcache *sc)
{
	for (size_t i = 0; i < sc->ntext; i++)
		buf_free(&sc->text[i]);
	free(sc->text);
	free(sc->result);
	free(sc->call);
	buf_free(&sc->pieces);
	buf_free(&sc->tmp);
	memset(sc, 0, sizeof *sc);
}

/* Make v[0..*n) reach index i, new entries zeroed. */
static void *
sumcache_reach(void *v, size_t *n, size_t *cap, size_t i, size_t size)
{
	if (i < *n)
		return v;
	v = array_grow(v, cap, i + 1, size);
	memset((char *)v + *n * size, 0, (i + 1 - *n) * size);
	*n = i + 1;
	return v;
}

/* Keep what the summary will need of event e, just added to the model. */
static void
sumcache_line(struct printer *p, uint32_t e)
{
	struct model *m = p->m;
	struct sumcache *sc = &p->sc;
	uint32_t it = m->ev[e].item;
	size_t off, s;

	if (e == 0) /* the model starts again (a followed file was truncated) */
		sumcache_free(sc);
	if (it == NONE)
		return;
	s = m->it[it].session;
	switch (EV_TYPE(&m->ev[e])) {
	case EV_TEXT_DELTA:
	case EV_TEXT:
		sc->text = sumcache_reach(sc->text, &sc->ntext, &sc->textcap, s,
					  sizeof *sc->text);
		model_event_text(m, e, &sc->text[s]);
		break;
	case EV_RESULT:
		sc->result = sumcache_reach(sc->result, &sc->nresult,
					    &sc->resultcap, s, sizeof *sc->result);
		off = sc->pieces.n;
		summary_result(m, e, &sc->pieces, &sc->tmp);
		sc->result[s].off = off;
		sc->result[s].len = sc->pieces.n - off;
		break;
	case EV_TOOL_DONE: {
		uint32_t c = m->it[it].ref;

		sc->call = sumcache_reach(sc->call, &sc->ncall, &sc->callcap, c,
					  sizeof *sc->call);
		off = sc->pieces.n;
		summary_call(m, c, &p->td, &sc->pieces, &sc->tmp);
		sc->call[c].off = off;
		sc->call[c].len = sc->pieces.n - off;
		break;
	}
	default:
		break;
	}
}
