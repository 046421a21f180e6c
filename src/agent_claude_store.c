/* agent_claude_store.c: Claude Code's own session transcripts,
 * ~/.claude/projects/<slug>/<session>.jsonl (../shared/STORES.md §1).
 *
 * Its messages are the stream's (agent_claude.c reads them: one content
 * block a line, a tool_result in a user line pairs with its call), in an
 * envelope every line of the conversation carries: sessionId, uuid,
 * parentUuid, timestamp, cwd, gitBranch. Around them the CLI keeps its
 * own books: request bodies of megabytes, queue operations, file history
 * snapshots, modes. Those are known by their first bytes and never
 * parsed (skip). There is no init and no result: the session starts with
 * its first line of the conversation; its first reply names the model;
 * its tokens are counted line by line, each message once (its lines
 * repeat them); cost-state, written at each exit, is the end of a run and
 * says its cost. An API error the CLI wrote as a reply is why it failed.
 * Calls, texts and their facts are read by agent_claude.c's functions. */
#define _GNU_SOURCE /* O_NOFOLLOW */
#include "agent.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"

/* The records that are only bookkeeping, as each begins: hidden without
 * being parsed. */
static const struct agent_lit books[] = {
	AGENT_LIT("{\"type\":\"api-request"), /* -blob, -shape: whole request bodies */
	AGENT_LIT("{\"type\":\"queue-operation\""),
	AGENT_LIT("{\"type\":\"file-history-snapshot\""),
	AGENT_LIT("{\"type\":\"tools-used\""),
	AGENT_LIT("{\"type\":\"mode\""),
	AGENT_LIT("{\"type\":\"permission-mode\""),
	AGENT_LIT("{\"type\":\"atis-latch\""),
};

/* An attachment (the environment, skills, tools, a prompt's snapshot:
 * up to tens of KB) says so within its envelope's first bytes. */
#define ATTACH_HEAD 160

static bool
store_skip(const char *p, size_t n)
{
	if (agent_begins_any(p, n, books, ARRAY_LEN(books)))
		return true;
	if (n < 16 || memcmp(p, "{\"parentUuid\":", 14) != 0)
		return false;
	n = n < ATTACH_HEAD ? n : ATTACH_HEAD;
	for (size_t i = 14; i + 14 <= n; i++)
		if (p[i] == '"' && memcmp(p + i, "\"attachment\":{", 14) == 0)
			return true;
	return false;
}

/* A line of the conversation: its envelope names the session. */
static bool
envelope(const struct json *j, const int *k)
{
	return (json_streq(j, k[TOP_TYPE], "user") || json_streq(j, k[TOP_TYPE], "assistant") ||
		json_streq(j, k[TOP_TYPE], "system")) &&
	       json_type(j, json_get(j, 0, "sessionId")) == JSON_STRING &&
	       json_get(j, 0, "uuid") >= 0;
}

/* The head of a chain (parentUuid null): a transcript's first line, a
 * sub-agent's, a compacted conversation's. */
static bool
store_starts(const struct json *j, const int *k)
{
	int p;
	size_t n = 0;

	/* Asked of every line of every stream: its type first. */
	if (!json_streq(j, k[TOP_TYPE], "user") && !json_streq(j, k[TOP_TYPE], "system"))
		return false;
	p = json_get(j, 0, "parentUuid");
	return json_type(j, p) == JSON_PRIMITIVE && json_raw(j, p, &n) != NULL && n == 4 &&
	       memcmp(json_raw(j, p, &n), "null", 4) == 0 && envelope(j, k);
}

/* A line of the store that is no conversation (its books, its cost). */
static bool
store_looks(const struct json *j, const int *k)
{
	return json_type(j, k[TOP_TYPE]) == JSON_STRING &&
	       (json_type(j, json_get(j, 0, "sessionId")) == JSON_STRING ||
		json_streq(j, k[TOP_TYPE], "file-history-snapshot") ||
		(json_streq(j, k[TOP_TYPE], "summary") && json_get(j, 0, "leafUuid") >= 0));
}

static int64_t
store_time(const struct json *j, const int *k)
{
	return agent_iso_ms(j, k[TOP_ISO]);
}

/* Whether the line goes on the current session of its source: one of
 * ours with the same id. */
static bool
same_session(struct build *b)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session;
	struct buf id = {0};
	bool same;

	if (s == NONE || m->ses[s].agent != b->agent)
		return false;
	same = model_fact(m, s, FACT_ID, &id) &&
	       json_streq(b->j, json_get(b->j, 0, "sessionId"), id.p ? id.p : "");
	buf_free(&id);
	return same;
}

/* The line's session: a new one at the head of a chain of another
 * session (a transcript's first line), another turn after a run's end;
 * a line inside a session goes on the one there is (a piece of a
 * transcript read from its middle has no start). */
static void
session_of(struct build *b)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session;

	/* A sub-agent's lines go on under its call. */
	if (b->parent != NONE)
		return;
	if (store_starts(b->j, b->k) && !same_session(b))
		build_session(b);
	else if (s != NONE && m->ses[s].result_ev != NONE &&
		 m->ses[s].turn_ev == m->ses[s].result_ev)
		build_turn(b);
}

/* What a user line that is no prompt begins with: the CLI's own words. */
static const char *const not_prompts[] = {
	"<command-name>",
	"<command-message>",
	"<local-command-stdout>",
	"<local-command-stderr>",
	"<local-command-caveat>",
	"<task-notification>",
	"[Request interrupted by user",
};

/* Whether a user line is the CLI's rather than the user's: meta, a
 * compacted conversation's summary, the harness's, a command's echo, an
 * interruption. */
static bool
not_prompt(const struct json *j)
{
	static const char *const flags[] = {"isMeta", "isCompactSummary",
					    "isVisibleInTranscriptOnly"};
	int c = json_path(j, 0, "message.content"), t;
	bool v;

	for (size_t i = 0; i < ARRAY_LEN(flags); i++)
		if (json_bool(j, json_get(j, 0, flags[i]), &v) && v)
			return true;
	if (json_streq(j, json_get(j, 0, "rowSource"), "harness"))
		return true;
	t = c;
	if (json_type(j, c) == JSON_ARRAY && json_size(j, c) > 0)
		t = json_get(j, c + 1, "text");
	if (json_type(j, t) != JSON_STRING)
		return false;
	for (size_t i = 0; i < ARRAY_LEN(not_prompts); i++) {
		size_t n, k = strlen(not_prompts[i]);
		const char *raw = json_raw(j, t, &n);

		if (n >= k && memcmp(raw, not_prompts[i], k) == 0)
			return true;
	}
	return false;
}

/* Whether a user line holds tool results. */
static bool
has_results(const struct json *j)
{
	int c = json_path(j, 0, "message.content"), t = c + 1;

	for (int i = 0; i < json_size(j, c); i++, t = json_next(j, t))
		if (json_streq(j, json_get(j, t, "type"), "tool_result"))
			return true;
	return false;
}

/* A count of usage object u, 0 when absent or negative. */
static int64_t
count_of(const struct json *j, int u, const char *name)
{
	int64_t v;

	return json_int(j, json_get(j, u, name), &v) && v > 0 ? v : 0;
}

/* The tokens of an assistant line, counted once for its message. */
static void
count_usage(struct build *b)
{
	const struct json *j = b->j;
	int u = json_path(j, 0, "message.usage");
	struct tokens t;

	if (json_type(j, u) != JSON_OBJECT)
		return;
	t.in = count_of(j, u, "input_tokens");
	t.out = count_of(j, u, "output_tokens");
	t.cache_read = count_of(j, u, "cache_read_input_tokens");
	t.cache_write = count_of(j, u, "cache_creation_input_tokens");
	build_usage(b, json_path(j, 0, "message.id"), &t);
}

static void
assistant(struct build *b)
{
	const struct json *j = b->j;
	bool err = false;

	agent_claude.line(b);
	count_usage(b);
	if (json_bool(j, json_get(j, 0, "isApiErrorMessage"), &err) && err)
		build_failure(b);
	else if (!json_streq(j, json_path(j, 0, "message.model"), "<synthetic>"))
		build_facts(b);
}

/* The value of <name>…</name> in s[0..n), in *v[0..*vn); false when it
 * is not there. */
static bool
tag(const char *s, size_t n, const char *name, const char **v, size_t *vn)
{
	size_t k = strlen(name);

	for (size_t i = 0; i + k + 2 <= n; i++) {
		if (s[i] != '<' || memcmp(s + i + 1, name, k) != 0 || s[i + k + 1] != '>')
			continue;
		*v = s + i + k + 2;
		for (size_t e = i + k + 2; e + k + 3 <= n; e++)
			if (s[e] == '<' && s[e + 1] == '/' && memcmp(s + e + 2, name, k) == 0 &&
			    s[e + k + 2] == '>') {
				*vn = e - (i + k + 2);
				return true;
			}
		return false;
	}
	return false;
}

/* A background sub-agent's end, said in words (<task-notification> with
 * its <task-id>, <status>, <usage><duration_ms>): the end of the call
 * that went on in the background under that id. */
static void
task_notification(struct build *b)
{
	struct buf text = {0};
	const char *v, *id = NULL;
	size_t vn, idn = 0;
	int64_t ms = TIME_NONE;
	enum call_result r = CR_OTHER;

	claude_text(b->j, EV_TEXT, &text);
	if (text.n > 0 && tag(text.p, text.n, "task-id", &id, &idn)) {
		if (tag(text.p, text.n, "status", &v, &vn))
			r = vn == 9 && memcmp(v, "completed", 9) == 0 ? CR_SUCCESS
			    : vn == 6 && memcmp(v, "failed", 6) == 0  ? CR_FAILURE
								      : CR_OTHER;
		if (tag(text.p, text.n, "duration_ms", &v, &vn) && vn > 0 && vn < 12) {
			ms = 0;
			for (size_t i = 0; i < vn && ms >= 0; i++)
				ms = v[i] >= '0' && v[i] <= '9' ? ms * 10 + (v[i] - '0')
								: TIME_NONE;
		}
	}
	build_task_end_named(b, id, idn, r, ms);
	buf_free(&text);
}

/* A call whose result says it goes on in the background (a sub-agent
 * launched with isAsync): its end comes as a task notification. */
static void
async_result(struct build *b)
{
	const struct json *j = b->j;
	int r = json_get(j, 0, "toolUseResult"), c = json_path(j, 0, "message.content");
	bool async = false;

	if (json_type(j, r) == JSON_OBJECT && json_type(j, c) == JSON_ARRAY &&
	    json_size(j, c) == 1 && json_bool(j, json_get(j, r, "isAsync"), &async) && async)
		build_background(b, json_get(j, c + 1, "tool_use_id"), json_get(j, r, "agentId"));
}

static void
user(struct build *b)
{
	const struct json *j = b->j;
	size_t n;
	int t;

	if (!not_prompt(j) || has_results(j)) {
		agent_claude.line(b);
		async_result(b);
		return;
	}
	if (json_streq(j, json_path(j, 0, "origin.kind"), "task-notification")) {
		task_notification(b);
		return;
	}
	/* The user stopped a call, a background task ended: said. */
	t = json_path(j, 0, "message.content");
	if (json_type(j, t) == JSON_ARRAY && json_size(j, t) > 0)
		t = json_get(j, t + 1, "text");
	if (json_type(j, t) == JSON_STRING && json_raw(j, t, &n) != NULL && n > 1 &&
	    json_raw(j, t, &n)[0] == '[')
		build_notice(b);
	else
		build_hidden(b);
}

static void
system_line(struct build *b)
{
	const struct json *j = b->j;
	int st = b->k[TOP_SUBTYPE];

	if (json_streq(j, st, "turn_duration") || json_streq(j, st, "stop_hook_summary")) {
		build_hidden(b);
	} else if (json_streq(j, st, "compact_boundary")) {
		build_rule(b);
	} else {
		/* An API error retried: said; the reply that ends the turn
		 * says whether it failed. */
		build_notice(b);
	}
}

/* The end of a run (the CLI exits): its cost and time; failed when an API
 * error ended its last turn. A second one with nothing between repeats
 * it. */
static void
cost_state(struct build *b)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session;
	const struct session *ses;

	if (s == NONE || m->ses[s].agent != b->agent ||
	    (m->ses[s].result_ev != NONE && m->ses[s].turn_ev == m->ses[s].result_ev)) {
		build_hidden(b);
		return;
	}
	ses = &m->ses[s];
	build_result(b,
		     ses->fail_ev != NONE && (ses->turn_ev == NONE || ses->fail_ev > ses->turn_ev),
		     agent_ms(b->j, json_get(b->j, 0, "totalDuration")));
}

static void
store_line(struct build *b)
{
	const struct json *j = b->j;
	int t = b->k[TOP_TYPE];
	struct model *m = b->m;
	uint32_t s;

	if (json_streq(j, t, "cost-state")) {
		cost_state(b);
		return;
	}
	if (!envelope(j, b->k)) {
		/* Its books: the first ones make the session ours. */
		build_hidden(b);
		s = m->src[b->src].session;
		if (s != NONE && m->ses[s].init_ev == NONE && m->ses[s].first_item == m->nit)
			m->ses[s].agent = (uint8_t)b->agent;
		return;
	}
	session_of(b);
	if (json_streq(j, t, "assistant"))
		assistant(b);
	else if (json_streq(j, t, "user"))
		user(b);
	else
		system_line(b);
	/* A session begun without its head is ours all the same. */
	s = m->src[b->src].session;
	if (s != NONE && m->ses[s].init_ev == NONE)
		m->ses[s].agent = (uint8_t)b->agent;
}

static bool
store_notice(const struct json *j, struct buf *out)
{
	int type = json_get(j, 0, "type"), sub = json_get(j, 0, "subtype");
	int64_t v;

	if (json_streq(j, type, "user")) {
		size_t mark = out->n, vn;
		const char *w;
		struct buf text = {0};

		claude_text(j, EV_TEXT, &text);
		/* A sub-agent's end: how, and its summary. */
		if (text.n > 0 && tag(text.p, text.n, "task-id", &w, &vn)) {
			buf_adds(out, "sub-agent ");
			if (tag(text.p, text.n, "status", &w, &vn))
				buf_add(out, w, vn);
			else
				buf_adds(out, "ended");
			if (tag(text.p, text.n, "summary", &w, &vn)) {
				buf_adds(out, ": ");
				buf_add(out, w, vn);
			}
		} else {
			buf_add(out, text.p ? text.p : "", text.n);
		}
		buf_free(&text);
		return out->n > mark;
	}
	if (json_streq(j, type, "system") && json_streq(j, sub, "api_error")) {
		buf_adds(out, "API error");
		if (json_int_at(j, 0, "error.status", &v))
			buf_addf(out, " %lld", (long long)v);
		agent_say(j, ": ", "error.formatted|error.message", out);
		return true;
	}
	if (json_streq(j, type, "system") && !json_streq(j, sub, "compact_boundary") &&
	    agent_say(j, "", "content", out))
		return true;
	if (json_streq(j, sub, "compact_boundary")) {
		buf_adds(out, "conversation compacted");
		if (agent_say(j, " (", "compactMetadata.trigger", out))
			buf_addc(out, ')');
		if (json_int_at(j, 0, "compactMetadata.preTokens", &v) && v >= 0) {
			buf_adds(out, ": ");
			fmt_count(out, (uint64_t)v);
			buf_adds(out, " tokens before");
		}
		return true;
	}
	return agent_claude.notice(j, out);
}

/* A sub-agent's .meta.json is a few hundred bytes: more is not one. */
#define META_MAX 65536

/* The id of the call the sub-agent of meta file path runs under (its
 * toolUseId), decoded into out; false when it does not say. Read only,
 * never following a link. */
static bool
meta_call(const char *path, struct buf *out)
{
	char *text = xmalloc(META_MAX);
	ssize_t n = agent_read_head(path, text, META_MAX);
	struct json *j = json_new();
	int t;
	bool ok = false;

	if (n > 0 && n < META_MAX && json_parse(j, text, (size_t)n) == JSON_OK &&
	    json_type(j, t = json_get(j, 0, "toolUseId")) == JSON_STRING) {
		json_decode(j, t, out);
		ok = out->n > 0 && memchr(out->p, '\0', out->n) == NULL;
	}
	json_free(j);
	free(text);
	return ok;
}

/* A transcript <dir>/<session>.jsonl keeps its sub-agents' in
 * <dir>/<session>/subagents/agent-<id>.jsonl, beside agent-<id>.meta.json
 * naming the call that runs each: fn for each, in the order of their
 * names (agent_files: regular files only, never a link). */
static void
store_more(const char *path, agent_more_fn *fn, void *ctx)
{
	size_t n = strlen(path), k;
	struct buf dir = {0}, file = {0}, call = {0};
	char **names;

	if (n <= 6 || strcmp(path + n - 6, ".jsonl") != 0)
		return;
	buf_add(&dir, path, n - 6);
	buf_adds(&dir, "/subagents");
	k = agent_files(dir.p, "agent-", &names);
	for (size_t i = 0; i < k; i++) {
		buf_reset(&file);
		buf_addf(&file, "%s/%.*s.meta.json", dir.p, (int)(strlen(names[i]) - 6), names[i]);
		buf_reset(&call);
		if (!meta_call(file.p, &call))
			buf_reset(&call);
		buf_reset(&file);
		buf_addf(&file, "%s/%s", dir.p, names[i]);
		fn(ctx, file.p, call.n > 0 ? call.p : NULL);
		free(names[i]);
	}
	free(names);
	buf_free(&dir);
	buf_free(&file);
	buf_free(&call);
}

/* The usage the summary gives: the counts of build_usage, by name. */
static const struct usage_field store_usage[] = {
	{"input_tokens", "in", false},
	{"output_tokens", "out", false},
	{"cache_read_input_tokens", "cache read", true},
	{"cache_creation_input_tokens", "cache write", true},
	{NULL, NULL, false},
};

const struct agent agent_claude_store = {
	.name = "claude-store",
	.label = "Claude Code",
	.starts = store_starts,
	.looks = store_looks,
	.time = store_time,
	.line = store_line,
	.text = claude_text,
	.load = claude_load,
	.elem = claude_elem,
	.tools = claude_tools,
	.notice = store_notice,
	.top = {[TOP_TYPE] = "type", [TOP_SUBTYPE] = "subtype", [TOP_ISO] = "timestamp"},
	.fact =
		{
			[FACT_ID] = "sessionId",
			[FACT_MODEL] = "message.model",
			[FACT_CWD] = "cwd",
			[FACT_MODE] = "permissionMode",
			[FACT_BRANCH] = "gitBranch",
			[FACT_COST] = "totalCostUSD",
		},
	.usage = store_usage,
	.skip = store_skip,
	.more = store_more,
	.mark = "\"parentUuid\":null",
	.resume = {"claude", "--resume"},
};
