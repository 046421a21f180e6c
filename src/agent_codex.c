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

/* A file_change that only adds files is a write of new ones, one that
 * only deletes them a delete; any other is an edit. */
static enum tool_kind
change_kind(const struct json *j, int item)
{
	int cs = json_get(j, item, "changes"), n, c;
	bool add = true, del = true;

	if (json_type(j, cs) != JSON_ARRAY || (n = json_size(j, cs)) == 0)
		return TK_EDIT;
	c = cs + 1;
	for (int i = 0; i < n; i++, c = json_next(j, c)) {
		int k = json_type(j, c) == JSON_OBJECT ? json_get(j, c, "kind") : -1;

		add = add && json_streq(j, k, "add");
		del = del && json_streq(j, k, "delete");
	}
	return add ? TK_WRITE : del ? TK_DELETE : TK_EDIT;
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
		if (r.kind == TK_EDIT)
			r.kind = change_kind(j, item);
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

/* Where a call's facts are: the item as it started (or completed, when
 * it never started), and as it completed. */
enum { ITEM, DONE };

/* clang-format off */
static const struct fact_row codex_facts[] = {
	{FACT_ANY_KIND, CALL_ERROR, DONE, "error.message"},
	{TK_EDIT, CALL_CHANGES, DONE, "changes"},
	{TK_EDIT, CALL_CHANGES, ITEM, "changes"},
	{TK_WRITE, CALL_CHANGES, DONE, "changes"},
	{TK_WRITE, CALL_CHANGES, ITEM, "changes"},
	{TK_DELETE, CALL_CHANGES, DONE, "changes"},
	{TK_DELETE, CALL_CHANGES, ITEM, "changes"},
	{TK_MCP, CALL_MCP_SERVER, ITEM, "server"},
	{TK_MCP, CALL_MCP_TOOL, ITEM, "tool"},
	{TK_MCP, CALL_MCP_ARGS, ITEM, "arguments"},
	{TK_MCP, CALL_MCP_CONTENT, DONE, "result.content"},
	{TK_TODOS, CALL_TODOS_ASKED, ITEM, "items"},
	{TK_TODOS, CALL_TODOS, DONE, "items"},
	{TK_TASK, CALL_TOOL, ITEM, "tool"},
	{TK_TASK, CALL_STATUS, DONE, "status"},
	{TK_WEBSEARCH, CALL_QUERY, ITEM, "query"},
};
/* clang-format on */

/* A command as Codex sends it, `/bin/bash -lc '…'`: the command people
 * read is what the quotes hold (the detail shows it whole). */
static void
command(const struct json *j, int item, struct call_facts *v)
{
	static const char *const wraps[] = {"/bin/bash -lc '", "bash -lc '", "/bin/sh -c '",
					    "sh -c '"};
	int t = json_path_typed(j, item, "command|cmd", JSON_STRING);
	struct buf s = {0};

	if (t < 0)
		return;
	call_set(v, CALL_COMMAND_SENT, j, t);
	call_set(v, CALL_COMMAND, j, t);
	json_decode(j, t, &s);
	for (size_t i = 0;
	     i < ARRAY_LEN(wraps) && s.n >= 2 && s.n < UINT32_MAX && s.p[s.n - 1] == '\''; i++) {
		size_t w = strlen(wraps[i]);

		if (s.n > w && memcmp(s.p, wraps[i], w) == 0 &&
		    memchr(s.p + w, '\'', s.n - w - 1) == NULL) {
			call_set_part(v, CALL_COMMAND, j, t, (uint32_t)w, 1);
			break;
		}
	}
	buf_free(&s);
}

/* An edit's first file, and how many more it changed. */
static void
first_change(struct call_facts *v)
{
	const struct factval *cs = call_fact(v, CALL_CHANGES);
	int n = fact_size(cs), p;

	if (n <= 0 || json_type(cs->j, cs->t + 1) != JSON_OBJECT)
		return;
	p = json_get(cs->j, cs->t + 1, "path");
	if (json_type(cs->j, p) != JSON_STRING)
		return;
	call_set(v, CALL_PATH, cs->j, p);
	if (n > 1)
		call_set_number(v, CALL_MORE, n - 1);
}

/* A command's exit code, said (as Claude Code's is) only when it is not 0:
 * a command that succeeded reads by what it printed, its
 * aggregated_output. */
static void
exit_code(const struct json *j, int item, struct call_facts *v)
{
	int64_t code;

	if (json_int(j, json_get(j, item, "exit_code"), &code) && code != 0)
		call_set_number(v, CALL_EXIT, code);
}

/* The item is both the arguments (as it started) and the result (as it
 * completed); its aggregated_output is what it gave. */
static void
codex_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	   struct call_facts *v)
{
	int si = json_get(sj, 0, "item"), di = json_get(dj, 0, "item");

	v->rows = codex_facts;
	v->nrows = ARRAY_LEN(codex_facts);
	(void)m;
	(void)c;
	if (si >= 0 || di >= 0) {
		v->place[ITEM] =
			si >= 0 ? (struct fact_place){sj, si} : (struct fact_place){dj, di};
		call_set(v, CALL_ID, v->place[ITEM].j,
			 json_get(v->place[ITEM].j, v->place[ITEM].t, "id"));
		call_set(v, CALL_NAME, v->place[ITEM].j,
			 json_get(v->place[ITEM].j, v->place[ITEM].t, "type"));
		call_set(v, CALL_ARGS, v->place[ITEM].j, v->place[ITEM].t);
	}
	if (di >= 0) {
		v->place[DONE] = (struct fact_place){dj, di};
		call_set(v, CALL_RESULT, dj, di);
		call_set(v, CALL_PAYLOAD, dj, di);
		call_set(v, CALL_SHOWN, dj, di);
		call_set(v, CALL_TEXT, dj, json_get(dj, di, "aggregated_output"));
	}
	if (v->kind == TK_SHELL && v->place[ITEM].j != NULL)
		command(v->place[ITEM].j, v->place[ITEM].t, v);
	if (v->kind == TK_SHELL && call_fact(v, CALL_COMMAND) == NULL && v->place[DONE].j != NULL)
		command(dj, di, v);
	if (v->kind == TK_SHELL && di >= 0)
		exit_code(dj, di, v);
	if (v->kind == TK_EDIT || v->kind == TK_WRITE || v->kind == TK_DELETE)
		first_change(v);
	if (v->kind == TK_WRITE)
		call_set_number(v, CALL_CREATED, 1);
}

static bool
codex_elem(enum fact_list l, const struct json *j, int t, struct elem_facts *e)
{
	bool done = false;

	if (l == FL_PARTS && agent_elem_string(j, t, EL_TEXT, e))
		return true;
	if (json_type(j, t) != JSON_OBJECT)
		return false;
	switch (l) {
	case FL_PARTS:
	case FL_CONTENT:
		elem_find(e, EL_TEXT, j, t, "text");
		break;
	case FL_TODOS: /* {text, completed} */
		elem_find(e, EL_TEXT, j, t, "text");
		json_bool(j, json_get(j, t, "completed"), &done);
		elem_set_number(e, EL_STATE, done ? TODO_DONE : TODO_PENDING);
		break;
	case FL_CHANGES:
		elem_find(e, EL_KIND, j, t, "kind");
		elem_find(e, EL_PATH, j, t, "path");
		break;
	default:
		return false;
	}
	return true;
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
	.elem = codex_elem,
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
