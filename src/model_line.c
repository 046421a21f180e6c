/* model_line.c: a line into the model (model_add_line): parsed once (or
 * taken from the parser thread of ahead.c), handed to the adapter of its
 * session's agent, which builds its events through model_build.c; a line
 * that is no JSON object made a diagnostic, a command's stderr an item,
 * and agentview's own lines (a recording's) read for what they say. */
#include "model.h"

#include <string.h>

#include "agent.h"
#include "ahead.h"
#include "glyph.h"
#include "model_impl.h"

/* --- agentview's own lines -------------------------------------------- */

/* The argv of a recording's header names the command it recorded. */
static void
meta_argv(struct model *m, const struct json *j)
{
	int a = json_get(j, 0, "argv"), n, t;
	struct buf b = {0};

	if (m->cmd.argv != NULL || a < 0 || json_type(j, a) != JSON_ARRAY)
		return;
	n = json_size(j, a);
	m->cmd.present = true;
	m->cmd.argv = xcalloc((size_t)n + 1, sizeof *m->cmd.argv);
	t = a + 1;
	for (int i = 0; i < n; i++) {
		buf_reset(&b);
		json_decode(j, t, &b);
		m->cmd.argv[i] = xstrndup(b.p ? b.p : "", b.n);
		t = json_next(j, t);
	}
	buf_free(&b);
}

/* A recording's own line (see record.c for the format): what it is, and
 * what it says about the command recorded. */
static enum ev_type
classify_meta(struct model *m, const struct json *j, int subtype)
{
	if (json_streq(j, subtype, "line"))
		return EV_BAD;
	if (json_streq(j, subtype, "stderr"))
		return EV_STDERR;
	if (json_streq(j, subtype, "recording"))
		meta_argv(m, j);
	if (json_streq(j, subtype, "exit")) {
		int64_t v;
		int t;

		m->cmd.present = true;
		t = json_get(j, 0, "exit_status");
		if (t >= 0 && json_int(j, t, &v)) {
			m->cmd.exited = true;
			m->cmd.exit_status = (int)v;
		}
		t = json_get(j, 0, "signal");
		if (t >= 0 && json_int(j, t, &v))
			m->cmd.signal = (int)v;
	}
	return EV_META;
}

/* Whether every byte of the source is there for good, so that a thread
 * may read ahead of the lines handed out: a mapped file, or memory. */
static bool
whole_file(const struct source *s)
{
	return s->eof && !s->follow && s->fd < 0 && s->data != NULL;
}

/* The line a recorded non-JSON line wraps, as the stream had it (its
 * "text", or its "base64" when it was not UTF-8), into out. */
static void
recorded_text(const struct json *j, struct buf *out)
{
	int t = json_get(j, 0, "text");
	size_t n;

	if (t >= 0 && json_type(j, t) == JSON_STRING) {
		json_decode(j, t, out);
	} else if ((t = json_get(j, 0, "base64")) >= 0 && json_type(j, t) == JSON_STRING) {
		const char *raw = json_raw(j, t, &n);

		base64_decode(out, raw, n);
	}
}

/* Whether p[0..n) is only blanks: live, such a line is no event. */
static bool
blank(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
			return false;
	return true;
}

/* Whether a first line p[0..n) only opens an object or an array: the
 * start of a JSON document indented across lines. */
static bool
opens_document(const char *p, size_t n)
{
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
		n--;
	return n == 1 && (p[0] == '{' || p[0] == '[');
}

/* A line that is not a JSON object becomes a diagnostic. */
static uint32_t
add_bad(struct model *m, struct srcstate *ss, unsigned src, const struct line *ln, int64_t arrival,
	enum diag_code code, enum json_err err, size_t pos)
{
	uint32_t e = model_push_event(m, src, ln, EV_BAD, arrival != TIME_NONE ? EVF_ARRIVAL : 0,
				      arrival);
	uint32_t d = model_new_diag(m, e, ln, code, err, pos);

	model_set_thread(ss, NONE); /* the session's own, whatever came before */
	model_add_block(m, ss, src, e, IT_DIAG, d);
	model_session_touch(m, ss->session, e);
	return e;
}

/* A line of a command's stderr: an item in the session of the source it
 * goes with, leaving that source's open text and thinking alone (the two
 * pipes interleave by chance, not by meaning). */
static uint32_t
add_stderr_line(struct model *m, unsigned src, const struct line *ln, int64_t arrival_ms)
{
	unsigned of = m->src[src].stderr_of;
	struct srcstate *os = &m->src[of];
	const char *p = source_at(m->src[src].src, ln->off);
	size_t n = ln->len;
	uint32_t e, s;

	while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n == 0)
		return NONE;
	e = model_push_event(m, src, ln, EV_STDERR, arrival_ms != TIME_NONE ? EVF_ARRIVAL : 0,
			     arrival_ms);
	s = model_current_session(m, os, of, e);
	model_new_item(m, os, src, IT_STDERR, e, NONE);
	m->cmd.nstderr++;
	m->cmd.last_stderr = e;
	model_session_touch(m, s, e);
	return e;
}

/* The agent whose adapter reads the line: the one it starts a session of,
 * else the forced one, else its session's, else the one it looks like. */
static unsigned
line_agent(const struct model *m, const struct srcstate *ss, const struct json *j, const int *k)
{
	int a;

	if (m->agent >= 0)
		return (unsigned)m->agent;
	if ((a = agent_starts(j, k)) >= 0)
		return (unsigned)a;
	if (ss->session != NONE)
		return m->ses[ss->session].agent;
	return agent_guess(j, k);
}

/* A line its session's adapter knows, by its first bytes p[0..n), to be
 * only its agent's bookkeeping: kept hidden, never parsed, at its arrival
 * or the time its first bytes say. */
static uint32_t
push_hidden(struct model *m, struct srcstate *ss, unsigned src, const struct line *ln,
	    const char *p, size_t n, int64_t arrival_ms)
{
	int64_t ms =
		arrival_ms != TIME_NONE ? arrival_ms : agent_skipped_ms(session_agent(m, ss), p, n);
	uint32_t e = model_push_event(m, src, ln, EV_HIDDEN,
				      arrival_ms != TIME_NONE ? EVF_ARRIVAL : 0, ms);

	model_session_touch(m, ss->session, e);
	return e;
}

/* Such a line read live: the thread ahead skips it too, but is told the
 * line was taken. */
static uint32_t
add_skipped(struct model *m, struct srcstate *ss, unsigned src, const struct line *ln,
	    const char *p, size_t n, int64_t arrival_ms)
{
	int s[JSON_KEYS_MAX];

	if (ss->ahead != NULL)
		(void)ahead_take(ss->ahead, ln->off, ln->len, p, n, m->json, s);
	return push_hidden(m, ss, src, ln, p, n, arrival_ms);
}

/* A running totals line of the session (totals_late): passed over like
 * the bookkeeping, kept to be read if it is the newest. */
static uint32_t
add_late_totals(struct model *m, struct srcstate *ss, unsigned src, const struct line *ln,
		const char *p, size_t n, int64_t arrival_ms)
{
	ARRAY_RESERVE(ss->late, ss->latecap, ss->nlate + 1);
	ss->late[ss->nlate++] = *ln;
	return add_skipped(m, ss, src, ln, p, n, arrival_ms);
}

/* Whether line ln is its stream's first: a recording's, the first after
 * its header (the header says where that is, ss->first_off). */
static bool
first_line(const struct srcstate *ss, const struct line *ln)
{
	return ln->off == 0 || ln->off == ss->first_off;
}

/* The first line of a JSON document written across lines: said once, the
 * lines after it not read. */
static uint32_t
add_document(struct model *m, struct srcstate *ss, unsigned src, const struct line *ln,
	     int64_t arrival_ms)
{
	ss->document = true;
	return add_bad(m, ss, src, ln, arrival_ms, DG_DOCUMENT, JSON_OK, 0);
}

/* A non-JSON line kept in a recording, read back as it was read live: a
 * blank one is no event, one its session's adapter skips by its first
 * bytes or that opens a document across lines is what it was then, any
 * other a diagnostic. */
static uint32_t
add_recorded(struct build *b)
{
	struct model *m = b->m;
	struct srcstate *ss = &m->src[b->src];
	struct buf text = {0};
	const char *p;
	size_t n;
	uint32_t e;

	recorded_text(b->j, &text);
	p = text.p != NULL ? text.p : "";
	n = text.n;
	if (first_line(ss, b->ln) && n >= 3 && memcmp(p, GLYPH_BOM, 3) == 0) {
		p += 3;
		n -= 3;
	}
	if (blank(p, n))
		e = NONE;
	else if (ss->session != NONE && agent_skips(session_agent(m, ss), p, n))
		e = push_hidden(m, ss, b->src, b->ln, p, n, b->ms);
	else if (first_line(ss, b->ln) && opens_document(p, n))
		e = add_document(m, ss, b->src, b->ln, b->ms);
	else
		e = add_bad(m, ss, b->src, b->ln, b->ms, DG_RECORDED, JSON_OK, 0);
	buf_free(&text);
	return e;
}

/* A recording's own line: a wrapped line that was not JSON, a command's
 * stderr, the end of the stream, or what the recording says of itself. */
static uint32_t
add_meta(struct build *b)
{
	struct model *m = b->m;
	struct srcstate *ss = &m->src[b->src];
	enum ev_type type = classify_meta(m, b->j, b->k[TOP_SUBTYPE]);
	uint32_t e;

	if (type == EV_BAD) /* a non-JSON line kept in a recording */
		return add_recorded(b);
	e = build_push(b, type);
	model_set_thread(ss, NONE);
	/* A recording's header: when its source was opened, and where the
	 * stream's own first line is. */
	if (json_streq(b->j, b->k[TOP_SUBTYPE], "recording")) {
		model_stream_opened(m, b->src, b->ms);
		if (b->ln->off == 0 && b->ln->terminated)
			ss->first_off = b->ln->len + 1;
	}
	if (json_streq(b->j, b->k[TOP_SUBTYPE], "end")) {
		/* When the stream ended: not a line of its session. */
		model_stream_closed(m, b->src, b->ms);
		return e;
	}
	/* When the command ended: not one either (read live, it was no line:
	 * read back, its session lasts as long). */
	if (json_streq(b->j, b->k[TOP_SUBTYPE], "exit"))
		return e;
	if (type == EV_STDERR) {
		model_add_block(m, ss, b->src, e, IT_STDERR, NONE);
		m->cmd.nstderr++;
		m->cmd.last_stderr = e;
	} else if (ss->session == NONE) {
		/* Kept for the raw stream; no place in the transcript. */
		return e;
	}
	model_session_touch(m, model_current_session(m, ss, b->src, e), e);
	return e;
}

/* Parse the line into m->json and look up its top keys' names (s, as
 * json_getk finds them); the parser thread may have done it already. */
static enum json_err
parse_line(struct model *m, struct srcstate *ss, const struct line *ln, const char *p, size_t n,
	   int *s)
{
	enum json_err err;

	if (ss->ahead == NULL && !ss->ahead_tried && whole_file(ss->src) &&
	    ss->src->size - ln->off > m->ahead_min) {
		ss->ahead_tried = true;
		ss->ahead = ahead_start(ss->src->data, ss->src->size, ln->off, &m->top_keys,
					m->totals_late ? agent_skips_late_any : agent_skips_any);
	}
	if (ss->ahead != NULL && ahead_take(ss->ahead, ln->off, ln->len, p, n, m->json, s))
		return JSON_OK;
	err = ln->len > UINT32_MAX ? JSON_TOO_BIG : json_parse(m->json, p, n);
	if (err == JSON_OK)
		json_getk(m->json, 0, &m->top_keys, s);
	return err;
}

uint32_t
model_add_line(struct model *m, unsigned src, const struct line *ln, int64_t arrival_ms)
{
	struct srcstate *ss = &m->src[src];
	const char *p = source_at(ss->src, ln->off);
	size_t n = ln->len;
	int s[JSON_KEYS_MAX], roles[TOP_COUNT];
	const int *k;
	enum json_err err;
	const struct agent *ag;
	bool meta, fresh;
	int64_t ms = arrival_ms, ts;
	uint32_t init;
	struct build b = {m, src, 0, ln, m->json, NULL, TIME_NONE, 0, NONE, NONE};

	/* A sub-agent's file: its lines go on its parent's session. */
	if (ss->sub_of != NONE && ss->session == NONE)
		ss->session = m->src[ss->sub_of].session;

	m->json_ev = NONE;
	m->lines++;
	m->bytes += n + (ln->terminated ? 1 : 0);
	if (ss->stderr_of != NONE)
		return add_stderr_line(m, src, ln, arrival_ms);
	if (ln->off == 0 && n >= 3 && memcmp(p, GLYPH_BOM, 3) == 0) {
		p += 3;
		n -= 3;
	}
	if (ss->session != NONE && agent_skips(session_agent(m, ss), p, n))
		return add_skipped(m, ss, src, ln, p, n, arrival_ms);
	/* A session's running totals, with totals_late: passed over like
	 * its bookkeeping (unparsed, so one that is no JSON is not said to
	 * be), the newest read when asked for; the last line of a file
	 * being written, maybe cut short, is parsed, as are a recording's
	 * lines (each says when it came). */
	if (m->totals_late && ss->session != NONE && ln->terminated && !ss->recording &&
	    agent_late_totals(session_agent(m, ss), p, n))
		return add_late_totals(m, ss, src, ln, p, n, arrival_ms);
	/* A JSON document written across lines, not JSON Lines: said once. */
	if (ss->document)
		return NONE;
	if (first_line(ss, ln) && opens_document(p, n))
		return add_document(m, ss, src, ln, arrival_ms);
	err = parse_line(m, ss, ln, p, n, s);
	if (ln->len > UINT32_MAX)
		return add_bad(m, ss, src, ln, arrival_ms, DG_TOO_LONG, JSON_TOO_BIG, 0);
	if (err == JSON_EMPTY)
		return NONE;
	if (err != JSON_OK)
		return add_bad(m, ss, src, ln, arrival_ms, DG_JSON, err, json_errpos(m->json));
	b.k = k = agent_key_roles(s, roles);
	if (k[TOP_AV_MS] >= 0 && (ts = agent_ms(m->json, k[TOP_AV_MS])) != TIME_NONE) {
		ms = ts;
		ss->recording = true;
	}
	if (ms != TIME_NONE)
		b.flags |= EVF_ARRIVAL;
	/* agentview's own lines keep a time, if any, as milliseconds. */
	meta = json_streq(m->json, k[TOP_TYPE], "agentview");
	b.agent = meta ? agent_default() : line_agent(m, ss, m->json, k);
	ag = agent_get(b.agent);
	ts = meta ? agent_ms(m->json, k[TOP_MS]) : ag->time(m->json, k);
	if (ts != TIME_NONE)
		b.flags |= EVF_TS;
	b.ms = ms != TIME_NONE ? ms : ts;
	if (meta)
		return add_meta(&b);
	b.parent = model_sub_call(m, src);
	fresh = ss->session == NONE;
	ag->line(&b);
	/* A session begun without its start is the agent's its first line
	 * was read as. */
	if (fresh && ss->session != NONE && m->ses[ss->session].init_ev == NONE)
		m->ses[ss->session].agent = (uint8_t)b.agent;
	/* A session's start keeps its parse: its facts are read from it
	 * when asked for, lines later (a Codex start is 22 KB). The line
	 * may have made more events after it (Claude Code's first prompt). */
	if (ss->session != NONE && b.ev != NONE && (init = m->ses[ss->session].init_ev) != NONE &&
	    EV_LINE(&m->ev[init]) == EV_LINE(&m->ev[b.ev]) &&
	    json_holds(m->json, p, n, EV_LINE(&m->ev[b.ev]))) {
		json_copy(m->sjson, m->json);
		json_set_label(m->sjson, EV_LINE(&m->ev[b.ev]));
	}
	if (b.ev == NONE) /* an adapter makes an event of every line */
		build_notice(&b);
	model_session_touch(m, model_current_session(m, ss, src, b.ev), b.ev);
	return b.ev;
}
