/* agent_codex.c: Codex's `exec --json` (src/FORMAT.md §10): thread.started
 * starts a session; item.started / item.updated / item.completed by
 * item.id (agent_message is reply text, reasoning is thinking, every other
 * item type is a tool call: command_execution, file_change, mcp_tool_call,
 * web_search, todo_list, ...); turn.completed with its usage or
 * turn.failed ends it. No line carries a time. */
#include "agent.h"

#include <string.h>

#include "json.h"

/* Its item types that are tool calls (every other one but a reply, its
 * reasoning and an error is one too, of a kind nobody documented). */
static const struct agent_tool codex_tools[] = {
	{"command_execution", TK_SHELL},
	{"file_change", TK_EDIT},
	{"mcp_tool_call", TK_MCP},
	{"todo_list", TK_TODOS},
	{"collab_tool_call", TK_TASK},
	{"web_search", TK_WEBSEARCH},
	{NULL, TK_OTHER},
};

static bool
codex_starts(const struct json *j, const int *k)
{
	return json_streq(j, k[TOP_TYPE], "thread.started");
}

static bool
codex_looks(const struct json *j, const int *k)
{
	size_t n;
	const char *t = json_raw(j, k[TOP_TYPE], &n);

	return json_type(j, k[TOP_TYPE]) == JSON_STRING &&
	       ((n > 5 && memcmp(t, "item.", 5) == 0) || (n > 5 && memcmp(t, "turn.", 5) == 0));
}

static int64_t
codex_time(const struct json *j, const int *k)
{
	(void)j;
	(void)k;
	return TIME_NONE;
}

/* How a completed item ended: its status, or a non-zero exit code. */
static enum call_result
item_result(const struct json *j, int item)
{
	int st = json_get(j, item, "status");
	int64_t code;

	if (json_int(j, json_get(j, item, "exit_code"), &code) && code != 0)
		return CR_FAILURE;
	if (json_streq(j, st, "completed"))
		return CR_SUCCESS;
	if (json_streq(j, st, "failed"))
		return CR_FAILURE;
	if (json_streq(j, st, "declined"))
		return CR_REJECTED;
	return st >= 0 ? CR_OTHER : CR_SUCCESS;
}

static void
item_line(struct build *b, int item)
{
	const struct json *j = b->j;
	int type = json_get(j, item, "type"), t = b->k[TOP_TYPE];
	size_t n;
	const char *raw = json_raw(j, type, &n);
	struct call_ref r = {
		json_get(j, item, "id"), TK_OTHER, CR_EMPTY, TIME_NONE, TIME_NONE, false, 0};

	if (json_streq(j, type, "agent_message")) {
		build_text(b, TEXT_MESSAGE);
	} else if (json_streq(j, type, "reasoning")) {
		build_thinking(b, THINK_WHOLE);
	} else if (json_streq(j, type, "error")) {
		build_notice(b);
	} else if (json_streq(j, t, "item.updated")) {
		/* What changed shows when it completes. */
		build_hidden(b);
	} else {
		if (json_type(j, type) == JSON_STRING)
			r.kind = agent_tool_kind(&agent_codex, raw, n);
		if (json_streq(j, t, "item.started")) {
			build_call_start(b, &r);
		} else {
			r.result = item_result(j, item);
			build_call_done(b, &r);
		}
	}
}

static void
codex_line(struct build *b)
{
	const struct json *j = b->j;
	int t = b->k[TOP_TYPE], item = json_get(j, 0, "item");

	if (json_streq(j, t, "thread.started"))
		build_session(b);
	else if (json_streq(j, t, "turn.started"))
		build_hidden(b);
	else if (json_type(j, item) == JSON_OBJECT && codex_looks(j, b->k))
		item_line(b, item);
	else if (json_streq(j, t, "turn.completed"))
		build_result(b, false, TIME_NONE);
	else if (json_streq(j, t, "turn.failed"))
		build_result(b, true, TIME_NONE);
	else
		build_notice(b);
}

static void
codex_text(const struct json *j, enum ev_type type, struct buf *out)
{
	int t = json_path(j, 0, "item.text");

	(void)type;
	if (json_type(j, t) == JSON_STRING)
		json_decode(j, t, out);
}

/* The item is both the arguments (as it started) and the result (as it
 * completed); its aggregated_output is what it gave. */
static void
codex_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	   struct callview *v)
{
	int si = json_get(sj, 0, "item"), di = json_get(dj, 0, "item");

	(void)m;
	(void)c;
	if (si >= 0 || di >= 0) {
		v->aj = v->nj = v->ij = si >= 0 ? sj : dj;
		v->holder = v->args = si >= 0 ? si : di;
		v->name = json_get(v->aj, v->args, "type");
		v->id = json_get(v->aj, v->args, "id");
	}
	if (di < 0)
		return;
	v->rj = v->tj = dj;
	v->result = v->var = di;
	v->text = json_get(dj, di, "aggregated_output");
}

/* An error, in words. */
static bool
codex_notice(const struct json *j, struct buf *out)
{
	return agent_say(j, "error: ", "message|item.message|error.message", out);
}

static const struct usage_field codex_usage[] = {
	{"usage.input_tokens", "in", false},
	{"usage.output_tokens", "out", false},
	{"usage.cached_input_tokens", "cache read", true},
	{NULL, NULL, false},
};

const struct agent agent_codex = {
	.name = "codex",
	.label = "Codex",
	.starts = codex_starts,
	.looks = codex_looks,
	.time = codex_time,
	.line = codex_line,
	.text = codex_text,
	.load = codex_load,
	.tools = codex_tools,
	.notice = codex_notice,
	.top = {[TOP_TYPE] = "type"},
	.fact =
		{
			[FACT_ID] = "thread_id",
			[FACT_USAGE] = "usage",
			[FACT_ERROR] = "error.message",
		},
	.usage = codex_usage,
	.mark = "\"thread.started\"",
	.resume = {"codex", "resume"},
};
