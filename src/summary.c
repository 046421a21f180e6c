/* summary.c: the JSON summary (agentview(1), OUTPUT: json), for scripts
 * and CI: made at the end from what was kept while the lines went by, or
 * from the lines. */
#include "summary.h"

#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "json.h"
#include "redact.h"
#include "remote.h"
#include "words.h"

/* Re-emit token t compactly; strings go through quote so the output
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
		redact_json_quote(out, tmp->p, tmp->n);
		return t + 1;
	default:
		raw = json_raw(j, t, &len);
		buf_add(out, raw, len);
		return t + 1;
	}
}

/* "key": followed by a top-level string field of event e, or null. */
static void
json_field(struct model *m, uint32_t e, const char *path, struct buf *out, struct buf *tmp)
{
	buf_reset(tmp);
	if (e != NONE && model_event_field(m, e, path, tmp))
		redact_json_quote(out, tmp->p, tmp->n);
	else
		buf_adds(out, "null");
}

/* v in decimal, as "%lld" writes it: a summary has four counts and three
 * times to each call and result, which vsnprintf made a tenth of its cost. */
static void
add_int(struct buf *out, int64_t v)
{
	char d[24], *p = d + sizeof d;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	buf_add(out, p, (size_t)(d + sizeof d - p));
}

static void
json_ms_value(struct buf *out, int64_t v)
{
	if (v == TIME_NONE)
		buf_adds(out, "null");
	else
		add_int(out, v);
}

/* "key": followed by fact f of session s, or null. */
static void
json_fact(struct model *m, uint32_t s, enum fact f, struct buf *out, struct buf *tmp)
{
	buf_reset(tmp);
	if (model_fact(m, s, f, tmp))
		redact_json_quote(out, tmp->p, tmp->n);
	else
		buf_adds(out, "null");
}

/* Whether s[0..n) (NUL-terminated) is a number strtod reads whole. */
static bool
is_number(const char *s, size_t n)
{
	char *end;

	if (n == 0 || strspn(s, "-+.0123456789eE") != n)
		return false;
	(void)strtod(s, &end);
	return *end == '\0';
}

/* "key": followed by fact f of session s when it is a number, or null. */
static void
json_number(struct model *m, uint32_t s, enum fact f, struct buf *out, struct buf *tmp)
{
	buf_reset(tmp);
	if (model_fact(m, s, f, tmp) && is_number(tmp->p, tmp->n))
		buf_add(out, tmp->p, tmp->n);
	else
		buf_adds(out, "null");
}

/* The first event of session s that names its id, and the path to it:
 * its start, else its end, else any of its events. */
static uint32_t
session_id_event(struct model *m, uint32_t s, const char **path, struct buf *tmp)
{
	const struct session *ses = &m->ses[s];

	*path = agent_get(ses->agent)->fact[FACT_ID];
	if (*path == NULL)
		return NONE;
	/* A start that does not say it: the line that does (build_facts). */
	buf_reset(tmp);
	if (ses->init_ev != NONE && (model_event_field(m, ses->init_ev, *path, tmp) ||
				     (!model_seen(m, ses->facts_ev) && ses->result_ev == NONE)))
		return ses->init_ev;
	buf_reset(tmp);
	if (model_seen(m, ses->facts_ev) && model_event_field(m, ses->facts_ev, *path, tmp))
		return ses->facts_ev;
	if (ses->init_ev != NONE)
		return ses->init_ev;
	if (ses->result_ev != NONE)
		return ses->result_ev;
	for (uint32_t e = ses->first_ev; e <= ses->last_ev && e < m->nev; e++) {
		buf_reset(tmp);
		if (m->ev[e].item != NONE && m->it[m->ev[e].item].session == s &&
		    model_event_field(m, e, *path, tmp))
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

/* Call c's id as a JSON string, or null; v is loaded with its facts. */
static void
call_id(struct model *m, uint32_t c, struct call_facts *v, struct buf *out, struct buf *tmp)
{
	const struct factval *id;

	tool_load(m, c, m->qjson, m->qjson2, v);
	buf_reset(tmp);
	if ((id = call_fact(v, CALL_ID)) != NULL && id->form == FACT_TOKEN) {
		json_decode(id->j, id->t, tmp);
		redact_json_quote(out, tmp->p, tmp->n);
	} else {
		buf_adds(out, "null");
	}
}

static void
summary_call(struct model *m, uint32_t c, struct tool_desc *td, struct buf *out, struct buf *tmp)
{
	const struct call *call = &m->call[c];
	struct call_facts v;

	buf_adds(out, "{\"call_id\":");
	call_id(m, c, &v, out, tmp);
	/* The call whose sub-agent made it (loading it takes the parsers
	 * the call's own facts are in: they are loaded again). */
	buf_adds(out, ",\"parent\":");
	if (call->parent != NONE) {
		call_id(m, call->parent, &v, out, tmp);
		tool_load(m, c, m->qjson, m->qjson2, &v);
	} else {
		buf_adds(out, "null");
	}
	/* Its words may parse other events into the parsers v reads. */
	tool_describe_view(m, c, &v, td);
	buf_adds(out, ",\"tool\":");
	if (td->key.n > 0)
		redact_json_quote(out, td->key.p, td->key.n);
	else
		buf_adds(out, "null");
	buf_adds(out, ",\"kind\":\"");
	buf_adds(out, tool_kind_name((enum tool_kind)call->kind));
	buf_adds(out, "\",\"state\":\"");
	buf_adds(out, model_call_state_name(model_call_state(m, c)));
	buf_adds(out, call->start_ev != NONE ? "\",\"started\":true" : "\",\"started\":false");
	buf_adds(out, ",\"summary\":");
	redact_json_quote(out, td->what.p ? td->what.p : "", td->what.n);
	buf_adds(out, ",\"outcome\":");
	redact_json_quote(out, td->outcome.p ? td->outcome.p : "", td->outcome.n);
	buf_adds(out, ",\"start_ms\":");
	json_ms_value(out, call->start_ms);
	buf_adds(out, ",\"end_ms\":");
	json_ms_value(out, call->end_ms);
	buf_adds(out, ",\"duration_ms\":");
	json_ms_value(out, model_call_duration(m, c));
	buf_addc(out, '}');
}

/* The usage object u of session s's latest result (in j) with each of its
 * whole counts summed over the session's results, when its agent counts
 * each turn's apart (Claude Code: two results when a background agent
 * ends after the first). */
static void
emit_usage(struct model *m, uint32_t s, const struct json *j, int u, struct buf *out,
	   struct buf *tmp)
{
	const char *usage = agent_get(m->ses[s].agent)->fact[FACT_USAGE];
	struct buf path = {0};
	int n = json_size(j, u), k = u + 1;
	int64_t v;

	if (!(agent_get(m->ses[s].agent)->fact_add >> FACT_USAGE & 1) || m->ses[s].nresults < 2) {
		emit_compact(j, u, out, tmp);
		return;
	}
	buf_addc(out, '{');
	for (int i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(out, ',');
		emit_compact(j, k, out, tmp);
		buf_addc(out, ':');
		buf_reset(&path);
		buf_adds(&path, usage);
		buf_addc(&path, '.');
		json_decode(j, k, &path);
		/* model_end_int parses into m->qjson, j is m->qjson2's. */
		if (json_type(j, k + 1) == JSON_PRIMITIVE && json_int(j, k + 1, &v) &&
		    strcspn(path.p + strlen(usage) + 1, ".|") == path.n - strlen(usage) - 1 &&
		    model_end_int(m, s, FACT_USAGE, path.p, &v))
			add_int(out, v);
		else
			emit_compact(j, k + 1, out, tmp);
		k = json_next(j, k + 1);
	}
	buf_addc(out, '}');
	buf_free(&path);
}

/* ,"request_id":...,"usage":... of session s's result event r (NONE:
 * none). */
static void
summary_result(struct model *m, uint32_t s, uint32_t r, struct buf *out, struct buf *tmp)
{
	const struct agent *a = agent_get(r != NONE ? m->ses[s].agent : agent_default());
	const char *usage = a->fact[FACT_USAGE];
	const struct json *j;
	struct tokens t;
	int u;

	buf_adds(out, ",\"request_id\":");
	if (a->fact[FACT_REQUEST] != NULL)
		json_field(m, r, a->fact[FACT_REQUEST], out, tmp);
	else
		buf_adds(out, "null");
	buf_adds(out, ",\"usage\":");
	if (model_session_tokens(m, s, &t)) {
		buf_adds(out, "{\"input_tokens\":");
		add_int(out, t.in);
		buf_adds(out, ",\"cache_read_input_tokens\":");
		add_int(out, t.cache_read);
		buf_adds(out, ",\"cache_creation_input_tokens\":");
		add_int(out, t.cache_write);
		buf_adds(out, ",\"output_tokens\":");
		add_int(out, t.out);
		buf_addc(out, '}');
	} else if (r != NONE && usage != NULL && (j = model_parsed(m, r, m->qjson2)) != NULL &&
		   (u = json_path(j, 0, usage)) >= 0 && json_type(j, u) == JSON_OBJECT)
		emit_usage(m, s, j, u, out, tmp);
	else
		buf_adds(out, "null");
}

/* "key": followed by b as a JSON string, or null when it is empty. */
static void
json_buf(struct buf *out, const char *key, const struct buf *b)
{
	buf_addf(out, ",\"%s\":", key);
	if (b->n > 0)
		redact_json_quote(out, b->p, b->n);
	else
		buf_adds(out, "null");
}

/* The decisions session s asked for (the summary's "interactions"). */
static void
summary_queries(struct model *m, uint32_t s, struct buf *out)
{
	static const char *const kinds[] = {
		[QK_WEB_FETCH] = "web_fetch", [QK_WEB_SEARCH] = "web_search",
		[QK_QUESTION] = "question",   [QK_PLAN] = "plan",
		[QK_SHELL] = "shell",         [QK_OTHER] = "other",
	};
	struct query_words w = {0};
	bool first = true;

	for (size_t i = 0; i < m->nquery; i++) {
		const struct query *q = &m->query[i];
		int64_t a, b;

		if (q->session != s)
			continue;
		words_query_load(m, (uint32_t)i, &w);
		buf_adds(out, first ? "{\"id\":" : ",{\"id\":");
		first = false;
		/* The id as the stream has it: a number stays one. */
		if (w.id.n > 0 && strspn(w.id.p, "0123456789") == w.id.n)
			buf_add(out, w.id.p, w.id.n);
		else if (w.id.n > 0)
			redact_json_quote(out, w.id.p, w.id.n);
		else
			buf_adds(out, "null");
		json_buf(out, "query_type", &w.type);
		buf_addf(out, ",\"kind\":\"%s\",\"summary\":", kinds[q->kind]);
		redact_json_quote(out, w.what.p ? w.what.p : "", w.what.n);
		json_buf(out, "call_id", &w.call);
		buf_addf(out, ",\"decision\":\"%s\"",
			 model_query_decision_name(words_query_decision(m, (uint32_t)i)));
		json_buf(out, "reason", &w.reason);
		buf_adds(out, ",\"ms\":");
		a = q->ask_ev != NONE ? m->ev[q->ask_ev].ms : TIME_NONE;
		b = q->answer_ev != NONE ? m->ev[q->answer_ev].ms : TIME_NONE;
		json_ms_value(out, a != TIME_NONE && b != TIME_NONE && b >= a ? b - a : TIME_NONE);
		buf_addc(out, '}');
	}
	words_query_free(&w);
}

/* The bytes of span i of v[0..n) in sc, or NULL when sc keeps none. */
static const struct span *
kept_span(const struct summary *sc, const struct span *v, size_t n, size_t i)
{
	if (sc == NULL || i >= n || v[i].len == 0)
		return NULL;
	return &v[i];
}

/* Where a segment's words start in a reply's text: after a blank line
 * when words come before them (as the logs show a reply's segments,
 * apart). said: the segment has words in the text already. */
static size_t
reply_open(struct buf *text, bool said)
{
	if (!said && text->n > 0)
		buf_adds(text, "\n\n");
	return text->n;
}

/* The segment's words, if any, were added after at (reply_open's): an
 * empty segment leaves no blank line. */
static void
reply_close(struct buf *text, bool *said, size_t at)
{
	if (text->n > at)
		*said = true;
	else if (!*said && at > 0)
		buf_cut(text, at - 2);
}

static void
summary_session(struct model *m, uint32_t s, uint32_t end_item, struct buf *out, struct buf *tmp,
		struct buf *text, struct tool_desc *td, struct summary *sc, FILE *f,
		const char *file)
{
	const struct session *ses = &m->ses[s];
	uint32_t r = model_last_result(m, s), e;
	const struct span *sp;
	const char *path;
	bool first;

	buf_adds(out, "{\"session_id\":");
	e = session_id_event(m, s, &path, tmp);
	if (e != NONE)
		json_field(m, e, path, out, tmp);
	else /* none of its lines names it: its file may */
		json_fact(m, s, FACT_ID, out, tmp);
	buf_addf(out, ",\"agent\":\"%s\"", agent_get(ses->agent)->name);
	buf_adds(out, ",\"model\":");
	json_fact(m, s, FACT_MODEL, out, tmp);
	buf_adds(out, ",\"cwd\":");
	json_fact(m, s, FACT_CWD, out, tmp);
	buf_adds(out, ",\"permission_mode\":");
	json_fact(m, s, FACT_MODE, out, tmp);
	buf_addf(out, ",\"state\":\"%s\"", model_session_state_name(model_session_state(m, s)));
	/* Live, but perhaps held for an approval its store does not record
	 * (the list's "running or waiting"): said beside the state, which
	 * stays "live" for the readers that know it. */
	if (model_session_may_wait(m, s))
		buf_adds(out, ",\"may_wait\":true");

	buf_adds(out, ",\"duration_ms\":");
	json_ms_value(out, model_session_duration(m, s));
	/* A store's tokens may come after its latest result. */
	if (!m->ses[s].has_tokens &&
	    (sp = kept_span(sc, sc ? sc->result : NULL, sc ? sc->nresult : 0, s)) != NULL)
		buf_add(out, sc->pieces.p + sp->off, sp->len);
	else
		summary_result(m, s, r, out, tmp);

	buf_adds(out, ",\"cost_usd\":");
	json_number(m, s, FACT_COST, out, tmp);
	buf_adds(out, ",\"prompts\":[");
	first = true;
	buf_reset(text);
	for (uint32_t i = ses->first_item; i < end_item; i++) {
		const struct item *it = &m->it[i];

		if (it->session != s)
			continue;
		if (it->type == IT_PROMPT) {
			if (!first)
				buf_addc(out, ',');
			first = false;
			sp = kept_span(sc, sc ? sc->prompt : NULL, sc ? sc->nprompt : 0, i);
			if (sp != NULL) {
				redact_json_quote(out, sc->pieces.p + sp->off, sp->len);
				continue;
			}
			buf_reset(tmp);
			model_item_text(m, i, tmp);
			redact_json_quote(out, tmp->p, tmp->n);
		} else if (it->type == IT_TEXT && !(it->flags & IF_CUT) && it->depth == 0 &&
			   (sc == NULL || ses->has_cut)) {
			/* What was cut off and sent again is not the reply:
			 * what was kept as it came holds it, so made again. */
			bool said = false;
			size_t at = reply_open(text, said);

			model_item_text(m, i, text);
			reply_close(text, &said, at);
		}
	}
	if (sc != NULL && s < sc->ntext && !ses->has_cut)
		buf_add(text, sc->text[s].text.p, sc->text[s].text.n);
	/* With --output-format json there are no assistant events: the reply
	 * the user saw is the result's text. */
	if (text->n == 0)
		model_fact(m, s, FACT_RESULT, text);
	buf_adds(out, "],\"assistant_text\":");
	redact_json_quote(out, text->p ? text->p : "", text->n);

	buf_adds(out, ",\"tool_calls\":[");
	first = true;
	for (uint32_t i = ses->first_item; i < end_item; i++) {
		const struct item *it = &m->it[i];

		if (it->session != s || it->type != IT_TOOL)
			continue;
		if (!first)
			buf_addc(out, ',');
		if ((sp = kept_span(sc, sc ? sc->call : NULL, sc ? sc->ncall : 0, it->ref)) != NULL)
			buf_add(out, sc->pieces.p + sp->off, sp->len);
		else
			summary_call(m, it->ref, td, out, tmp);
		summary_flush(out, f);
		first = false;
	}
	buf_adds(out, "],\"interactions\":[");
	summary_queries(m, s, out);
	/* Why it failed: the command's end, or its stream's. */
	buf_adds(out, "],\"error\":");
	buf_reset(tmp);
	if (words_failure_whole(m, s, tmp))
		redact_json_quote(out, tmp->p, tmp->n);
	else
		buf_adds(out, "null");
	if (file != NULL) {
		buf_adds(out, ",\"file\":");
		json_quote(out, file, strlen(file));
	}
	buf_addc(out, '}');
}

/* The file session s was read from, when several were (PRODUCT.md:
 * "file"); NULL when there is one. */
static const char *
session_file(const struct model *m, uint32_t s)
{
	size_t files = 0;

	for (size_t i = 0; i < m->nsrc; i++)
		files += m->src[i].stderr_of == NONE;
	return files > 1 ? remote_show(m->src[m->ses[s].src].src->name) : NULL;
}

void
summary_diagnostics(struct model *m, const char *file, struct buf *out, FILE *f, bool *first)
{
	struct buf tmp = {0};
	size_t total;

	for (size_t d = 0; d < m->ndiag; d++) {
		buf_addf(out, "%s{\"line\":%llu,\"message\":", *first ? "" : ",",
			 (unsigned long long)m->diag[d].line);
		*first = false;
		buf_reset(&tmp);
		model_diag_message(m, (uint32_t)d, &tmp);
		redact_json_quote(out, tmp.p, tmp.n);
		buf_reset(&tmp);
		total = model_bad_text(m, m->diag[d].ev, &tmp);
		buf_adds(out, ",\"excerpt\":");
		redact_json_quote(out, tmp.p, tmp.n);
		buf_addf(out, ",\"bytes\":%zu", total);
		if (file != NULL) {
			buf_adds(out, ",\"file\":");
			json_quote(out, file, strlen(file));
		}
		buf_addc(out, '}');
		summary_flush(out, f);
	}
	buf_free(&tmp);
}

void
summary_sessions(struct model *m, struct summary *sc, const char *file, struct buf *out, FILE *f,
		 bool *first)
{
	struct buf tmp = {0}, text = {0};
	struct tool_desc td = {0};

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
		if (!*first)
			buf_addc(out, ',');
		*first = false;
		summary_session(m, (uint32_t)s, end, out, &tmp, &text, &td, sc, f,
				file != NULL ? file : session_file(m, (uint32_t)s));
		summary_flush(out, f);
	}
	buf_free(&tmp);
	buf_free(&text);
	tool_desc_free(&td);
}

/* The summary, from what sc kept (NULL: from the lines); with f, each
 * session goes out to f as soon as it is made, so that the whole summary of
 * a big input is never held at once. */
void
summary_write(struct model *m, struct summary *sc, struct buf *out, FILE *f)
{
	struct buf tmp = {0};
	bool first = true;

	buf_addf(out, "{\"lines\":%llu,\"diagnostics\":[", (unsigned long long)m->lines);
	summary_diagnostics(m, NULL, out, f, &first);
	buf_adds(out, "],\"command\":");
	if (m->cmd.present) {
		buf_adds(out, "{\"argv\":[");
		for (char **a = m->cmd.argv; a != NULL && *a != NULL; a++) {
			if (a != m->cmd.argv)
				buf_addc(out, ',');
			redact_json_quote(out, *a, strlen(*a));
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
			redact_json_quote(out, tmp.p, tmp.n);
			summary_flush(out, f);
		}
		buf_adds(out, "]}");
	} else {
		buf_adds(out, "null");
	}
	buf_adds(out, ",\"sessions\":[");
	first = true;
	summary_sessions(m, sc, NULL, out, f, &first);
	buf_adds(out, "]}");
	buf_free(&tmp);
}

/* --- what is kept while the lines go by ------------------------------------ */

/* Forget everything kept (the model starts again, or the printer ends). */
void
summary_free(struct summary *sc)
{
	for (size_t i = 0; i < sc->ntext; i++)
		buf_free(&sc->text[i].text);
	free(sc->text);
	free(sc->result);
	free(sc->call);
	free(sc->prompt);
	buf_free(&sc->pieces);
	buf_free(&sc->tmp);
	memset(sc, 0, sizeof *sc);
}

/* Make v[0..*n) reach index i, new entries zeroed. */
static void *
kept_reach(void *v, size_t *n, size_t *cap, size_t i, size_t size)
{
	if (i < *n)
		return v;
	v = array_grow(v, cap, i + 1, size);
	memset((char *)v + *n * size, 0, (i + 1 - *n) * size);
	*n = i + 1;
	return v;
}

/* Keep what the summary will need of event e, just added to the model. */
void
summary_line(struct summary *sc, struct model *m, uint32_t e, struct tool_desc *td)
{
	uint32_t it = m->ev[e].item;
	struct reply *r;
	size_t off, s, at;

	if (e == 0) /* the model starts again (a followed file was truncated) */
		summary_free(sc);
	if (it == NONE)
		return;
	s = m->it[it].session;
	/* A prompt's text is its first event's. */
	if (m->it[it].type == IT_PROMPT && m->it[it].first_ev == e) {
		sc->prompt = kept_reach(sc->prompt, &sc->nprompt, &sc->promptcap, it,
					sizeof *sc->prompt);
		off = sc->pieces.n;
		model_event_text(m, e, &sc->pieces);
		sc->prompt[it].off = off;
		sc->prompt[it].len = sc->pieces.n - off;
	}
	switch (EV_TYPE(&m->ev[e])) {
	case EV_TEXT_DELTA:
	case EV_TEXT:
		/* The reply is the session's own: not its sub-agents'. */
		if (m->it[it].depth > 0)
			break;
		sc->text = kept_reach(sc->text, &sc->ntext, &sc->textcap, s, sizeof *sc->text);
		r = &sc->text[s];
		if (r->item != it + 1) {
			r->item = it + 1;
			r->said = false;
		}
		at = reply_open(&r->text, r->said);
		model_event_text(m, e, &r->text);
		reply_close(&r->text, &r->said, at);
		break;
	case EV_RESULT:
		sc->result =
			kept_reach(sc->result, &sc->nresult, &sc->resultcap, s, sizeof *sc->result);
		off = sc->pieces.n;
		summary_result(m, (uint32_t)s, e, &sc->pieces, &sc->tmp);
		sc->result[s].off = off;
		sc->result[s].len = sc->pieces.n - off;
		break;
	case EV_TOOL_START:
		/* Its call's facts are read from this line when it ends. */
		model_keep_parse(m, e);
		break;
	case EV_TOOL_DONE: {
		uint32_t c = m->it[it].ref;

		/* A call that went on in the background is not final yet:
		 * made at the end. */
		if (m->call[c].flags & CF_BACKGROUND)
			break;
		sc->call = kept_reach(sc->call, &sc->ncall, &sc->callcap, c, sizeof *sc->call);
		off = sc->pieces.n;
		summary_call(m, c, td, &sc->pieces, &sc->tmp);
		sc->call[c].off = off;
		sc->call[c].len = sc->pieces.n - off;
		break;
	}
	default:
		break;
	}
}
