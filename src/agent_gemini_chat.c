/* agent_gemini_chat.c: Gemini CLI's own session store, its chat files
 * (tmp/<project>/chats/session-*.jsonl, ../shared/STORES.md §3). The file
 * is a patch log: a header ({sessionId, projectHash, ...}) starts a
 * session; each message record ({id, timestamp, type: user | gemini |
 * info | error | warning}) is appended, and appended again with more in it
 * (a reply, then the same reply with its toolCalls done); {"$set": {...}}
 * merges into the session (its messages replace the whole list: the
 * session's start, a compaction); {"$rewindTo": id} takes that message
 * and the ones after it back. The model only grows, so a record written
 * again adds only what it brings new (its calls, its tokens); a reset or
 * a rewind is a rule across the transcript, what came before it kept.
 *
 * The older whole-file form (session-*.json: the header with its messages,
 * on one line) reads the same, its messages at once. */
#include "agent.h"

#include <string.h>

#include "json.h"

/* The places of gemini_facts (agent_gemini.c): a call's arguments, and
 * the call itself (its status, its result). */
enum { ARGS, RES };

static bool
chat_starts(const struct json *j, const int *k)
{
	return k[TOP_TYPE] < 0 && json_get(j, 0, "projectHash") >= 0 &&
	       json_type(j, json_get(j, 0, "sessionId")) == JSON_STRING;
}

static bool
chat_looks(const struct json *j, const int *k)
{
	int t = k[TOP_TYPE];

	return json_get(j, 0, "$set") >= 0 || json_get(j, 0, "$rewindTo") >= 0 ||
	       (json_get(j, 0, "id") >= 0 &&
		(json_streq(j, t, "user") || json_streq(j, t, "gemini")));
}

/* A message's time; the header's start; a merge's lastUpdated. */
static int64_t
chat_time(const struct json *j, const int *k)
{
	int t = k[TOP_ISO];

	if (t < 0)
		t = json_path_any(j, 0, "startTime|$set.lastUpdated");
	return agent_iso_ms(j, t);
}

/* Whether message record msg is a prompt: a user's, with text that is
 * not the CLI's own context, and no tool's result. */
static bool
is_prompt(const struct json *j, int msg)
{
	int c = json_get(j, msg, "content"), n = json_size(j, c), p = c + 1;
	bool text = false;

	if (!json_streq(j, json_get(j, msg, "type"), "user"))
		return false;
	if (json_type(j, c) == JSON_STRING)
		return true;
	if (json_type(j, c) != JSON_ARRAY)
		return false;
	for (int i = 0; i < n; i++, p = json_next(j, p)) {
		int t = json_get(j, p, "text");
		size_t len;
		const char *raw = json_raw(j, t, &len);

		if (json_type(j, p) != JSON_OBJECT || json_get(j, p, "functionResponse") >= 0)
			return false;
		if (json_type(j, t) == JSON_STRING &&
		    !(len >= 17 && memcmp(raw, "<session_context>", 17) == 0))
			text = true;
	}
	return text;
}

/* Whether gemini message msg has a text (a string, or parts with text:
 * older versions), or thoughts. */
static bool
has_text(const struct json *j, int msg)
{
	int c = json_get(j, msg, "content"), n = json_size(j, c), p = c + 1;
	size_t len;

	if (!json_streq(j, json_get(j, msg, "type"), "gemini"))
		return false;
	json_raw(j, c, &len);
	if (json_type(j, c) == JSON_STRING)
		return len > 0;
	for (int i = 0; i < n && json_type(j, c) == JSON_ARRAY; i++, p = json_next(j, p))
		if (json_type(j, json_get(j, p, "text")) == JSON_STRING)
			return true;
	return false;
}

static bool
has_thoughts(const struct json *j, int msg)
{
	int t = json_get(j, msg, "thoughts");

	return json_streq(j, json_get(j, msg, "type"), "gemini") && json_type(j, t) == JSON_ARRAY &&
	       json_size(j, t) > 0;
}

/* How a tool call ended. */
static enum call_result
call_result(const struct json *j, int tc)
{
	int st = json_get(j, tc, "status");

	if (json_streq(j, st, "success"))
		return CR_SUCCESS;
	if (json_streq(j, st, "error"))
		return CR_FAILURE;
	if (json_streq(j, st, "cancelled"))
		return CR_REJECTED;
	return st >= 0 ? CR_OTHER : CR_EMPTY;
}

/* The calls of gemini message msg that are not in the session yet, each
 * a part of the line from *part on: started at the message's time, ended
 * at the call's own. Returns how many. */
static int
calls(struct build *b, int msg, int *part)
{
	const struct json *j = b->j;
	int tcs = json_get(j, msg, "toolCalls"), n = json_size(j, tcs), tc = tcs + 1, made = 0;
	int64_t at = agent_iso_ms(j, json_get(j, msg, "timestamp"));

	if (json_type(j, tcs) != JSON_ARRAY)
		return 0;
	for (int i = 0; i < n; i++, tc = json_next(j, tc), ++*part) {
		int name = json_get(j, tc, "name");
		size_t len;
		const char *raw = json_raw(j, name, &len);
		struct call_ref r = {
			json_get(j, tc, "id"), TK_OTHER, CR_EMPTY, at, TIME_NONE, false, *part};

		if (json_type(j, tc) != JSON_OBJECT || build_call_kind(b, r.id) >= 0)
			continue;
		if (json_type(j, name) == JSON_STRING)
			r.kind = agent_tool_kind(&agent_gemini, raw, len);
		build_call_start(b, &r);
		r.result = call_result(j, tc);
		r.completed_ms = agent_iso_ms(j, json_get(j, tc, "timestamp"));
		if (r.completed_ms == TIME_NONE || at == TIME_NONE)
			r.started_ms = TIME_NONE;
		build_call_done(b, &r);
		made++;
	}
	return made;
}

/* The tokens of gemini message msg, the first time they come: Gemini
 * counts cached input inside the input, and thoughts apart from the
 * output. */
static void
tokens(struct build *b, int msg)
{
	const struct json *j = b->j;
	int tk = json_get(j, msg, "tokens");
	struct tokens t = {0, 0, 0, 0};
	int64_t thoughts = 0, tool = 0;

	if (json_type(j, tk) != JSON_OBJECT || !json_int_at(j, tk, "input", &t.in) ||
	    !json_int_at(j, tk, "output", &t.out))
		return;
	json_int_at(j, tk, "cached", &t.cache_read);
	json_int_at(j, tk, "thoughts", &thoughts);
	json_int_at(j, tk, "tool", &tool);
	if (t.in < 0 || t.out < 0 || t.cache_read < 0 || thoughts < 0 || tool < 0 ||
	    build_seen(b, json_get(j, msg, "id"), 1))
		return;
	t.in = (t.in >= t.cache_read ? t.in - t.cache_read : 0);
	t.in = tool <= INT64_MAX - t.in ? t.in + tool : INT64_MAX;
	t.out = thoughts <= INT64_MAX - t.out ? t.out + thoughts : INT64_MAX;
	build_tokens(b, &t, false);
}

/* A message record: shown the first time; written again, only its new
 * calls and its tokens. */
static void
record(struct build *b)
{
	const struct json *j = b->j;
	int t = b->k[TOP_TYPE], part = 0;
	bool again = build_seen(b, json_get(j, 0, "id"), 0), made = false;

	if (json_streq(j, t, "gemini")) {
		if (!again && has_thoughts(j, 0)) {
			build_thinking(b, THINK_WHOLE);
			made = true;
		}
		if (!again && has_text(j, 0)) {
			build_text(b, TEXT_MESSAGE);
			made = true;
		}
		made = calls(b, 0, &part) > 0 || made;
		if (!made)
			build_hidden(b);
		tokens(b, 0);
	} else if (again || json_streq(j, t, "user")) {
		/* A tool's result (the call holds it), the CLI's context. */
		if (!again && is_prompt(j, 0))
			build_prompt(b);
		else
			build_hidden(b);
	} else {
		build_notice(b);
		/* An API error the CLI recorded: the run failed, unless the
		 * chat goes on past it. */
		if (json_streq(j, t, "error"))
			build_failure(b);
	}
}

/* A list of messages at once (the whole-file form, $set.messages): the
 * ones new to the session, their prompts, thoughts, replies and calls; with
 * a rule first when some were there before (a compaction, a reset). */
static void
messages(struct build *b, int msgs, bool header)
{
	const struct json *j = b->j;
	int n = json_size(j, msgs), m = msgs + 1, part = 0, before = 0;
	bool prompt = false, think = false, text = false, made = header;

	if (header)
		build_session(b);
	for (int i = 0; i < n; i++, m = json_next(j, m)) {
		if (json_type(j, m) != JSON_OBJECT)
			continue;
		before += build_seen(b, json_get(j, m, "id"), 0);
		prompt = prompt || is_prompt(j, m);
		think = think || has_thoughts(j, m);
		text = text || has_text(j, m);
	}
	if (before > 0) {
		build_rule(b);
		made = true;
	} else {
		/* Text of its own, all of it said by each (chat_text). */
		if (prompt)
			build_prompt(b);
		if (think)
			build_thinking(b, THINK_WHOLE);
		if (text)
			build_text(b, TEXT_MESSAGE);
		made = made || prompt || think || text;
	}
	m = msgs + 1;
	for (int i = 0; i < n; i++, m = json_next(j, m)) {
		if (json_type(j, m) != JSON_OBJECT)
			continue;
		made = calls(b, m, &part) > 0 || made;
	}
	if (!made)
		build_hidden(b);
	m = msgs + 1;
	for (int i = 0; i < n; i++, m = json_next(j, m))
		if (json_type(j, m) == JSON_OBJECT)
			tokens(b, m);
}

static void
chat_line(struct build *b)
{
	const struct json *j = b->j;
	int set = json_get(j, 0, "$set"), msgs;

	if (chat_starts(j, b->k)) {
		msgs = json_get(j, 0, "messages");
		if (json_type(j, msgs) == JSON_ARRAY)
			messages(b, msgs, true);
		else
			build_session(b);
	} else if (json_type(j, set) == JSON_OBJECT) {
		msgs = json_get(j, set, "messages");
		if (json_type(j, msgs) == JSON_ARRAY)
			messages(b, msgs, false);
		else
			build_hidden(b);
	} else if (json_get(j, 0, "$rewindTo") >= 0) {
		build_rule(b);
	} else if (json_get(j, 0, "id") >= 0 && b->k[TOP_TYPE] >= 0) {
		record(b);
	} else {
		build_notice(b);
	}
}

/* Append string token t to out, a paragraph apart from what this text
 * holds already (out from byte from on). */
static void
para(const struct json *j, int t, struct buf *out, size_t from)
{
	if (json_type(j, t) != JSON_STRING)
		return;
	if (out->n > from)
		buf_adds(out, "\n\n");
	json_decode(j, t, out);
}

/* Append what message msg says of an event of type: a prompt's text, a
 * reply's, its thoughts ("subject: description" each). */
static void
message_text(const struct json *j, int msg, enum ev_type type, struct buf *out, size_t from)
{
	int c = json_get(j, msg, "content"), th = json_get(j, msg, "thoughts"), n, p;

	if ((type == EV_USER && is_prompt(j, msg)) ||
	    ((type == EV_TEXT || type == EV_TEXT_DELTA) && has_text(j, msg))) {
		if (json_type(j, c) == JSON_STRING) {
			para(j, c, out, from);
			return;
		}
		n = json_size(j, c);
		p = c + 1;
		for (int i = 0; i < n; i++, p = json_next(j, p))
			if (json_type(j, p) == JSON_OBJECT)
				para(j, json_get(j, p, "text"), out, from);
	} else if (type == EV_THINK_DONE || type == EV_THINK_DELTA) {
		if (!has_thoughts(j, msg))
			return;
		n = json_size(j, th);
		p = th + 1;
		for (int i = 0; i < n; i++, p = json_next(j, p)) {
			int su = json_get(j, p, "subject"), de = json_get(j, p, "description");

			para(j, su, out, from);
			if (json_type(j, de) != JSON_STRING)
				continue;
			if (json_type(j, su) == JSON_STRING)
				buf_adds(out, ": ");
			else if (out->n > from)
				buf_adds(out, "\n\n");
			json_decode(j, de, out);
		}
	}
}

static void
chat_text(const struct json *j, enum ev_type type, struct buf *out)
{
	int msgs = json_path_any(j, 0, "messages|$set.messages"), n, m;
	size_t from = out->n;

	if (json_type(j, msgs) != JSON_ARRAY) {
		message_text(j, 0, type, out, from);
		return;
	}
	n = json_size(j, msgs);
	m = msgs + 1;
	for (int i = 0; i < n; i++, m = json_next(j, m))
		if (json_type(j, m) == JSON_OBJECT)
			message_text(j, m, type, out, from);
}

/* The tool call that is part `part` of a line: in its message's
 * toolCalls, or in its list of messages, counted across them. The calls
 * of a line asked for in order cost the line's length in all: where the
 * last one was found is kept (the message, the parts before it). */
static int
call_part(const struct json *j, int part)
{
	static _Thread_local struct {
		uint64_t parse;
		int i, before;
	} last;
	int msgs = json_path_any(j, 0, "messages|$set.messages"), n = 1, m = 0, i = 0, before = 0;
	bool list = json_type(j, msgs) == JSON_ARRAY;

	if (list)
		n = json_size(j, msgs);
	if (list && last.parse == json_parse_id(j) && last.parse != 0 && last.before <= part) {
		i = last.i;
		before = last.before;
	}
	for (; i < n; i++) {
		int tcs, k;

		if (list)
			m = json_nth(j, msgs, i);
		tcs = json_get(j, m, "toolCalls");
		if (json_type(j, m) != JSON_OBJECT || json_type(j, tcs) != JSON_ARRAY)
			continue;
		k = json_size(j, tcs);
		if (part - before < k) {
			last.parse = json_parse_id(j);
			last.i = i;
			last.before = before;
			return json_nth(j, tcs, part - before);
		}
		before += k;
	}
	return -1;
}

/* A tool's output as the model read it, inside <untrusted_context> tags:
 * what it says is between them. */
static void
untrusted(struct call_facts *v, const struct json *j, int t)
{
	static const char head[] = "<untrusted_context>\n", tail[] = "\n</untrusted_context>";
	struct buf s = {0};

	if (json_type(j, t) != JSON_STRING)
		return;
	json_decode(j, t, &s);
	if (s.n >= sizeof head - 1 + sizeof tail - 1 && s.n < UINT32_MAX &&
	    memcmp(s.p, head, sizeof head - 1) == 0 &&
	    memcmp(s.p + s.n - (sizeof tail - 1), tail, sizeof tail - 1) == 0)
		call_set_part(v, CALL_TEXT, j, t, sizeof head - 1, sizeof tail - 1);
	buf_free(&s);
}

/* A call's facts: the tool call of its line (started and completed
 * alike), its arguments where the stream's are. */
static void
chat_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	  struct call_facts *v)
{
	const struct json *j = dj != NULL ? dj : sj;
	int tc = j != NULL ? call_part(j, m->call[c].dpart) : -1, out, shown;

	v->rows = gemini_facts;
	v->nrows = gemini_nfacts;
	v->elem = agent_gemini.elem; /* its todos */
	if (tc < 0 || json_type(j, tc) != JSON_OBJECT)
		return;
	v->place[ARGS] = (struct fact_place){j, json_get(j, tc, "args")};
	v->place[RES] = (struct fact_place){j, tc};
	call_set(v, CALL_ID, j, json_get(j, tc, "id"));
	call_set(v, CALL_NAME, j, json_get(j, tc, "name"));
	call_set(v, CALL_ARGS, j, v->place[ARGS].t);
	call_set(v, CALL_RESULT, j, tc);
	call_set(v, CALL_PAYLOAD, j, tc);
	/* What it showed (a string when headless), else what the model
	 * read. */
	shown = json_get(j, tc, "resultDisplay");
	out = json_path(j, tc, "result.0.functionResponse.response.output");
	if (json_type(j, shown) != JSON_STRING) {
		int r = json_get(j, tc, "result");

		out = json_type(j, r) == JSON_ARRAY && json_size(j, r) > 0
			      ? json_path(j, r + 1, "functionResponse.response.output")
			      : -1;
		shown = out;
	}
	call_set(v, CALL_TEXT, j, shown);
	untrusted(v, j, shown);
}

/* A rewind, a reset, or an error, warning or info message, in words. */
static bool
chat_notice(const struct json *j, struct buf *out)
{
	int t = json_get(j, 0, "type"), msgs = json_path(j, 0, "$set.messages");

	if (json_get(j, 0, "$rewindTo") >= 0) {
		buf_adds(out, "rewound: this message and the ones after it were taken back");
		return true;
	}
	if (json_type(j, msgs) == JSON_ARRAY) {
		buf_addf(out, "conversation reset to %d messages", json_size(j, msgs));
		return true;
	}
	if (json_streq(j, t, "error"))
		return agent_say(j, "error: ", "content", out);
	if (json_streq(j, t, "warning"))
		return agent_say(j, "warning: ", "content", out);
	return agent_say(j, "", "content", out);
}

static const struct usage_field chat_usage[] = {
	{NULL, NULL, false},
};

const struct agent agent_gemini_chat = {
	.name = "gemini-chat",
	.label = "Gemini CLI",
	.starts = chat_starts,
	.looks = chat_looks,
	.time = chat_time,
	.line = chat_line,
	.text = chat_text,
	.load = chat_load,
	.elem = NULL,
	.tools = NULL,
	.notice = chat_notice,
	.top = {[TOP_TYPE] = "type", [TOP_ISO] = "timestamp"},
	.fact =
		{
			[FACT_ID] = "sessionId",
		},
	.usage = chat_usage,
	.mark = "\"projectHash\"",
	.resume = {"gemini", "--resume"},
};
