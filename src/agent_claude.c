/* agent_claude.c: Claude Code's `-p --output-format stream-json --verbose`
 * (src/FORMAT.md §10), with or without --include-partial-messages.
 *
 * A session starts with system/init (with claude_code_version and tools).
 * Replies, thinking and tool calls are the content blocks of `assistant`
 * lines, one block a line as a rule (a line may hold several: each is its
 * own event); a call ends in a `user` line holding its tool_result block,
 * with the rich result beside it in tool_use_result. A `user` line that is
 * only tool results is no prompt. stream_event lines carry the deltas of
 * partial messages: their text is shown as it comes, and the whole block
 * that follows only repeats it. Lines with parent_tool_use_id come from a
 * sub-agent and go under the call that runs it. */
#include "agent.h"

#include <string.h>

#include "json.h"

/* The system subtypes that count tokens or frame the stream: kept, not
 * shown (a line each, many a second). */
static const char *const quiet[] = {
	"thinking_tokens", "status", "task_progress", "task_updated", "background_tasks_changed",
};

/* Its tools' names (an MCP server's tool is mcp__server__tool). */
static const struct agent_tool claude_tools[] = {
	{"Bash", TK_SHELL},
	{"Read", TK_READ},
	{"Edit", TK_EDIT},
	{"MultiEdit", TK_EDIT},
	{"NotebookEdit", TK_EDIT},
	{"Write", TK_WRITE},
	{"Grep", TK_GREP},
	{"Glob", TK_GLOB},
	{"LS", TK_LS},
	{"TodoWrite", TK_TODOS},
	{"mcp__*", TK_MCP},
	{"Task", TK_TASK},
	{"Agent", TK_TASK},
	{"BashOutput", TK_AWAIT},
	{"WebFetch", TK_WEBFETCH},
	{"WebSearch", TK_WEBSEARCH},
	{"AskUserQuestion", TK_QUESTION},
	{NULL, TK_OTHER},
};

static bool
claude_starts(const struct json *j, const int *k)
{
	return json_streq(j, k[TOP_TYPE], "system") && json_streq(j, k[TOP_SUBTYPE], "init") &&
	       (json_get(j, 0, "claude_code_version") >= 0 ||
		json_type(j, json_get(j, 0, "tools")) == JSON_ARRAY);
}

static bool
claude_looks(const struct json *j, const int *k)
{
	return json_streq(j, k[TOP_TYPE], "stream_event") ||
	       json_get(j, 0, "parent_tool_use_id") >= 0 || json_get(j, 0, "total_cost_usd") >= 0;
}

static int64_t
claude_time(const struct json *j, const int *k)
{
	return agent_iso_ms(j, k[TOP_ISO]);
}

/* A second init of the session it is in, before its result: Claude Code
 * starts a new turn that way (after a background agent's notification);
 * it goes on in the same session. */
static bool
continues(struct build *b)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session;
	const struct json *j = b->j;
	struct buf id = {0};
	int t = json_get(j, 0, "session_id");
	bool same;

	if (s == NONE || m->ses[s].agent != b->agent || m->ses[s].result_ev != NONE ||
	    json_type(j, t) != JSON_STRING)
		return false;
	same = model_fact(m, s, FACT_ID, &id) && json_streq(j, t, id.p);
	buf_free(&id);
	return same;
}

/* How a background agent ended, by its notification's status. */
static enum call_result
task_result(const struct json *j)
{
	int st = json_get(j, 0, "status");

	if (json_streq(j, st, "completed"))
		return CR_SUCCESS;
	if (json_streq(j, st, "failed"))
		return CR_FAILURE;
	return CR_OTHER;
}

static void
system_line(struct build *b)
{
	const struct json *j = b->j;
	int st = b->k[TOP_SUBTYPE];
	bool bg = false;

	if (json_streq(j, st, "init")) {
		if (continues(b))
			build_hidden(b);
		else
			build_session(b);
		return;
	}
	for (size_t i = 0; i < ARRAY_LEN(quiet); i++)
		if (json_streq(j, st, quiet[i])) {
			build_hidden(b);
			return;
		}
	if (json_streq(j, st, "task_notification")) {
		build_task_end(b, json_get(j, 0, "task_id"), task_result(j));
		return;
	}
	build_notice(b);
	/* An agent run in the background ends with a task_notification. */
	if (json_streq(j, st, "task_started") &&
	    json_bool(j, json_get(j, 0, "is_backgrounded"), &bg) && bg)
		build_background(b, json_get(j, 0, "tool_use_id"), json_get(j, 0, "task_id"));
}

/* The events of an assistant line: its text (all text blocks, one event),
 * each thinking block, each tool call. */
static void
assistant_line(struct build *b)
{
	const struct json *j = b->j;
	int c = json_path(j, 0, "message.content"), t = c + 1;
	bool text = false, api_error = false;

	/* An API error Claude Code writes as a reply of its own (model
	 * "<synthetic>"): a notice; the result says the session failed. */
	if (json_bool(j, json_get(j, 0, "is_api_error_message"), &api_error) && api_error) {
		build_notice(b);
		return;
	}
	for (int i = 0; i < json_size(j, c); i++, t = json_next(j, t)) {
		int type = json_get(j, t, "type");

		if (json_streq(j, type, "text") && !text) {
			text = true;
			build_text(b, TEXT_SEGMENT);
		} else if (json_streq(j, type, "thinking") ||
			   json_streq(j, type, "redacted_thinking")) {
			build_thinking(b, THINK_WHOLE);
		} else if (json_streq(j, type, "tool_use")) {
			int name = json_get(j, t, "name");
			size_t n;
			const char *raw = json_raw(j, name, &n);
			struct call_ref r = {json_get(j, t, "id"),
					     TK_OTHER,
					     CR_EMPTY,
					     TIME_NONE,
					     TIME_NONE,
					     false,
					     i};

			if (json_type(j, name) == JSON_STRING)
				r.kind = agent_tool_kind(&agent_claude, raw, n);
			build_call_start(b, &r);
		}
	}
}

/* A user line: tool results end calls; any text is a prompt (a
 * sub-agent's, when it has a parent). */
static void
user_line(struct build *b)
{
	const struct json *j = b->j;
	int c = json_path(j, 0, "message.content"), t = c + 1;
	bool prompt = json_type(j, c) == JSON_STRING;

	for (int i = 0; i < json_size(j, c); i++, t = json_next(j, t)) {
		int type = json_get(j, t, "type");
		bool err = false;

		if (json_streq(j, type, "text")) {
			prompt = true;
		} else if (json_streq(j, type, "tool_result")) {
			struct call_ref r = {json_get(j, t, "tool_use_id"),
					     TK_OTHER,
					     CR_SUCCESS,
					     TIME_NONE,
					     TIME_NONE,
					     false,
					     i};

			if (json_bool(j, json_get(j, t, "is_error"), &err) && err)
				r.result = CR_FAILURE;
			build_call_done(b, &r);
		}
	}
	if (prompt)
		build_prompt(b);
}

/* A partial message's frame: its text and thinking deltas are shown, the
 * rest only frames them. */
static void
stream_line(struct build *b)
{
	const struct json *j = b->j;
	int ev = json_get(j, 0, "event");
	int dt = json_path(j, ev, "delta.type");

	if (json_streq(j, json_get(j, ev, "type"), "content_block_delta") &&
	    json_streq(j, dt, "text_delta"))
		build_text(b, TEXT_DELTA);
	else if (json_streq(j, json_get(j, ev, "type"), "content_block_delta") &&
		 json_streq(j, dt, "thinking_delta"))
		build_thinking(b, THINK_DELTA);
	else if (json_streq(j, json_get(j, ev, "type"), "content_block_stop"))
		build_segment_end(b);
	else
		build_hidden(b);
}

static void
claude_line(struct build *b)
{
	const struct json *j = b->j;
	int t = b->k[TOP_TYPE];
	bool is_error = false;

	build_parent(b, json_get(j, 0, "parent_tool_use_id"));
	if (json_streq(j, t, "system")) {
		system_line(b);
	} else if (json_streq(j, t, "assistant")) {
		assistant_line(b);
	} else if (json_streq(j, t, "user")) {
		user_line(b);
	} else if (json_streq(j, t, "stream_event")) {
		stream_line(b);
	} else if (json_streq(j, t, "result")) {
		/* error_max_turns, error_during_execution: failed too. */
		json_bool(j, json_get(j, 0, "is_error"), &is_error);
		is_error |= b->k[TOP_SUBTYPE] >= 0 && !json_streq(j, b->k[TOP_SUBTYPE], "success");
		build_result(b, is_error, agent_ms(j, json_get(j, 0, "duration_ms")));
	} else {
		build_notice(b);
	}
}

/* Append the text of blocks of type `type` (their field `field`). */
static void
blocks_text(const struct json *j, const char *type, const char *field, struct buf *out)
{
	int c = json_path(j, 0, "message.content"), t = c + 1;

	if (json_type(j, c) == JSON_STRING) {
		if (strcmp(field, "text") == 0)
			json_decode(j, c, out);
		return;
	}
	for (int i = 0; i < json_size(j, c); i++, t = json_next(j, t)) {
		int v = json_get(j, t, field);

		if (json_streq(j, json_get(j, t, "type"), type) && json_type(j, v) == JSON_STRING)
			json_decode(j, v, out);
	}
}

static void
claude_text(const struct json *j, enum ev_type type, struct buf *out)
{
	bool thinking = type == EV_THINK_DELTA;
	int d;

	if (json_streq(j, json_get(j, 0, "type"), "stream_event")) {
		d = json_path(j, 0, thinking ? "event.delta.thinking" : "event.delta.text");
		if (json_type(j, d) == JSON_STRING)
			json_decode(j, d, out);
		return;
	}
	if (thinking)
		blocks_text(j, "thinking", "thinking", out);
	else
		blocks_text(j, "text", "text", out);
}

/* Block `part` of a line's message.content, or -1. */
static int
block(const struct json *j, unsigned part)
{
	int c = json_path(j, 0, "message.content"), t = c + 1;

	if (json_type(j, c) != JSON_ARRAY || (int)part >= json_size(j, c))
		return -1;
	for (unsigned i = 0; i < part; i++)
		t = json_next(j, t);
	return json_type(j, t) == JSON_OBJECT ? t : -1;
}

/* The call is the tool_use block of its started line and the tool_result
 * block of its completed one; the rich result (Bash's stdout and stderr,
 * an Edit's patch, a Read's file) is the completed line's tool_use_result,
 * when it is an object. */
static void
claude_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	    struct callview *v)
{
	const struct call *call = &m->call[c];
	int s = sj != NULL ? block(sj, call->spart) : -1;
	int d = dj != NULL ? block(dj, call->dpart) : -1;

	if (s >= 0) {
		v->aj = v->nj = v->ij = sj;
		v->holder = s;
		v->args = json_get(sj, s, "input");
		v->name = json_get(sj, s, "name");
		v->id = json_get(sj, s, "id");
	}
	if (d < 0)
		return;
	v->rj = v->tj = dj;
	v->result = d;
	v->text = json_get(dj, d, "content");
	v->var = json_get(dj, 0, "tool_use_result");
	if (json_type(dj, v->var) != JSON_OBJECT)
		v->var = -1;
	if (s < 0) {
		v->ij = dj;
		v->id = json_get(dj, d, "tool_use_id");
	}
}

/* Notices in words: sub-agents started and ended, API retries. */
static bool
claude_notice(const struct json *j, struct buf *out)
{
	int sub = json_get(j, 0, "subtype");
	int64_t a, n;

	if (json_streq(j, json_get(j, 0, "type"), "assistant")) {
		blocks_text(j, "text", "text", out);
		return true;
	}
	if (!json_streq(j, json_get(j, 0, "type"), "system"))
		return false;
	if (json_streq(j, sub, "task_started"))
		return agent_say(j, "sub-agent started: ", "description|prompt", out);
	if (json_streq(j, sub, "task_notification")) {
		buf_adds(out, "sub-agent ");
		if (!agent_say(j, "", "status", out))
			buf_adds(out, "ended");
		agent_say(j, ": ", "summary", out);
		return true;
	}
	if (json_streq(j, sub, "api_retry")) {
		buf_adds(out, "API error");
		if (json_int(j, json_get(j, 0, "error_status"), &a))
			buf_addf(out, " %lld", (long long)a);
		buf_adds(out, ", retrying");
		if (json_int(j, json_get(j, 0, "attempt"), &a) &&
		    json_int(j, json_get(j, 0, "max_retries"), &n))
			buf_addf(out, " (attempt %lld of %lld)", (long long)a, (long long)n);
		return true;
	}
	if (json_streq(j, sub, "compact_boundary")) {
		buf_adds(out, "conversation compacted");
		return true;
	}
	return false;
}

static const struct usage_field claude_usage[] = {
	{"usage.input_tokens", "in", false},
	{"usage.output_tokens", "out", false},
	{"usage.cache_read_input_tokens", "cache read", true},
	{"usage.cache_creation_input_tokens", "cache write", true},
	{NULL, NULL, false},
};

const struct agent agent_claude = {
	.name = "claude",
	.label = "Claude Code",
	.starts = claude_starts,
	.looks = claude_looks,
	.time = claude_time,
	.line = claude_line,
	.text = claude_text,
	.load = claude_load,
	.tools = claude_tools,
	.notice = claude_notice,
	.top = {[TOP_TYPE] = "type", [TOP_SUBTYPE] = "subtype", [TOP_ISO] = "timestamp"},
	.fact =
		{
			[FACT_ID] = "session_id",
			[FACT_MODEL] = "model",
			[FACT_CWD] = "cwd",
			[FACT_MODE] = "permissionMode",
			[FACT_RESULT] = "result",
			[FACT_USAGE] = "usage",
			[FACT_COST] = "total_cost_usd",
			[FACT_TURNS] = "num_turns",
			[FACT_DENIALS] = "permission_denials",
		},
	.usage = claude_usage,
	.mark = "\"init\"",
	.resume = {"claude", "--resume"},
};
