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

#include <limits.h>
#include <string.h>

#include "glyph.h"
#include "json.h"

/* Where a tool's rich result is beside its tool_result block: the
 * stream's spelling, and the store's (agent_claude_store.c reads its
 * messages with these functions). */
#define RICH "tool_use_result|toolUseResult"

/* The system subtypes that count tokens or frame the stream: kept, not
 * shown (a line each, many a second). */
static const char *const quiet[] = {
	"thinking_tokens",
	"task_updated",
	"background_tasks_changed",
};

/* Its tools' names (an MCP server's tool is mcp__server__tool). */
const struct agent_tool claude_tools[] = {
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
	{"TaskCreate", TK_TODOS},
	{"TaskUpdate", TK_TODOS},
	{"ToolSearch", TK_TOOLS},
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

/* A second init of the session it is in: Claude Code starts a new turn
 * that way when a background task ends, before or after the result of
 * the turn before; it goes on in the same session. After a result with
 * no background task, it is a new run (a resumed session's). */
static bool
continues(struct build *b)
{
	struct model *m = b->m;
	uint32_t s = m->src[b->src].session;
	const struct json *j = b->j;
	struct buf id = {0};
	int t = json_get(j, 0, "session_id");
	bool same;

	if (s == NONE || m->ses[s].agent != b->agent || json_type(j, t) != JSON_STRING ||
	    (m->ses[s].result_ev != NONE && !m->ses[s].goes_on && m->ses[s].nbg == 0))
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
	bool bg = false, cmd;
	int kind;

	if (json_streq(j, st, "init")) {
		if (continues(b))
			build_turn(b);
		else
			build_session(b);
		return;
	}
	for (size_t i = 0; i < ARRAY_LEN(quiet); i++)
		if (json_streq(j, st, quiet[i])) {
			build_hidden(b);
			return;
		}
	/* A task's progress: its call's, said while it runs. */
	if (json_streq(j, st, "task_progress")) {
		build_progress(b, json_get(j, 0, "tool_use_id"));
		return;
	}
	/* Its state between requests: said when it compacts the
	 * conversation, or failed to. */
	if (json_streq(j, st, "status")) {
		if (json_streq(j, json_get(j, 0, "status"), "compacting") ||
		    (json_type(j, json_get(j, 0, "compact_result")) == JSON_STRING &&
		     !json_streq(j, json_get(j, 0, "compact_result"), "success")))
			build_notice(b);
		else
			build_hidden(b);
		return;
	}
	if (json_streq(j, st, "compact_boundary")) {
		build_rule(b);
		return;
	}
	/* A task is a sub-agent's, or a command's (task_type local_bash, or
	 * its call not an Agent's), whose start is its call's and whose end
	 * says something only when it went on in the background. */
	kind = build_call_kind(b, json_get(j, 0, "tool_use_id"));
	cmd = json_streq(j, json_get(j, 0, "task_type"), "local_bash") ||
	      (kind >= 0 && kind != TK_TASK);
	/* A sub-agent's start and end go under its call, with its lines. */
	if (kind == TK_TASK)
		build_parent(b, json_get(j, 0, "tool_use_id"));
	if (json_streq(j, st, "task_notification")) {
		build_task_end(b, json_get(j, 0, "task_id"), task_result(j),
			       agent_ms(j, json_path(j, 0, "usage.duration_ms")), cmd);
		return;
	}
	if (json_streq(j, st, "task_started") && cmd)
		build_hidden(b);
	else
		build_notice(b);
	/* A task run in the background ends with a task_notification. */
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
	if ((json_bool(j, json_path_any(j, 0, "is_api_error_message|isApiErrorMessage"),
		       &api_error) &&
	     api_error) ||
	    json_streq(j, json_path(j, 0, "message.model"), "<synthetic>")) {
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
			build_tool_use(b, &agent_claude, t, i);
		}
	}
}

/* A task's state as TaskUpdate names it; -1 for a word nobody
 * documented. */
static int
task_state(const struct json *j, int t)
{
	static const char *const words[] = {
		[TODO_PENDING] = "pending",
		[TODO_ACTIVE] = "in_progress",
		[TODO_DONE] = "completed",
	};

	for (size_t i = 0; i < ARRAY_LEN(words); i++)
		if (json_streq(j, t, words[i]))
			return (int)i;
	return json_streq(j, t, "deleted") ? TASK_GONE : -1;
}

/* The task list call this line just completed: TaskCreate's result names
 * the task it made ({task{id, subject}}), TaskUpdate's the one it changed
 * and how ({taskId, statusChange{from, to}}). */
static void
todo_result(struct build *b)
{
	const struct json *j = b->j;
	int r = json_path_any(j, 0, RICH), id;

	if (json_type(j, r) != JSON_OBJECT)
		return;
	if ((id = json_path(j, r, "task.id")) >= 0)
		build_todo(b, id, TODO_PENDING, true);
	else if ((id = json_get(j, r, "taskId")) >= 0)
		build_todo(b, id, task_state(j, json_path(j, r, "statusChange.to")), false);
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
			if (!err && build_call_kind(b, r.id) == TK_TODOS)
				todo_result(b);
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

void
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

	if (part > INT_MAX)
		return -1;
	t = json_nth(j, c, (int)part);
	return json_type(j, t) == JSON_OBJECT ? t : -1;
}

/* Where a call's facts are: the tool_use block's input (the
 * arguments), and the rich result beside the tool_result block
 * (tool_use_result, when it is an object: Bash's stdout and stderr, an
 * Edit's patch, a Read's file). */
enum { ARGS, RES };

/* clang-format off */
static const struct fact_row claude_facts[] = {
	{FACT_ANY_KIND, CALL_ERROR, RES, "error.message|error|message"},
	{TK_SHELL, CALL_COMMAND, ARGS, "command"},
	{TK_SHELL, CALL_DESCRIPTION, ARGS, "description"},
	{TK_SHELL, CALL_TIMEOUT_MS, ARGS, "timeout"},
	{TK_SHELL, CALL_BACKGROUND, ARGS, "run_in_background"},
	{TK_SHELL, CALL_INTERRUPTED, RES, "interrupted"},
	{TK_SHELL, CALL_STDOUT, RES, "stdout"},
	{TK_SHELL, CALL_STDERR, RES, "stderr"},
	{TK_READ, CALL_PATH, ARGS, "file_path"},
	{TK_READ, CALL_PATH, RES, "file.filePath"},
	{TK_READ, CALL_FIRST_LINE, RES, "file.startLine"},
	{TK_READ, CALL_FIRST_LINE, ARGS, "offset"},
	{TK_READ, CALL_TOTAL_LINES, RES, "file.totalLines"},
	{TK_READ, CALL_TOTAL_LINES, RES, "file.numLines"},
	{TK_READ, CALL_CONTENT, RES, "file.content"},
	{TK_EDIT, CALL_PATH, ARGS, "file_path|notebook_path"},
	{TK_EDIT, CALL_PATH, RES, "filePath"},
	{TK_EDIT, CALL_HUNKS, RES, "structuredPatch"},
	{TK_EDIT, CALL_OLD_TEXT, ARGS, "old_string"},
	{TK_EDIT, CALL_NEW_TEXT, ARGS, "new_string"},
	{TK_EDIT, CALL_NEW_TEXT, RES, "newString"},
	{TK_EDIT, CALL_EDITS, ARGS, "edits"},
	{TK_EDIT, CALL_REPLACE_ALL, ARGS, "replace_all"},
	{TK_WRITE, CALL_PATH, ARGS, "file_path"},
	{TK_WRITE, CALL_PATH, RES, "filePath"},
	{TK_WRITE, CALL_HUNKS, RES, "structuredPatch"},
	{TK_WRITE, CALL_WRITTEN, ARGS, "content"},
	{TK_GREP, CALL_QUERY, ARGS, "pattern"},
	{TK_GREP, CALL_DIR, ARGS, "path"},
	{TK_GREP, CALL_GLOB, ARGS, "glob"},
	{TK_GREP, CALL_IGNORE_CASE, ARGS, "-i"},
	{TK_GREP, CALL_MODE, RES, "mode"},
	{TK_GREP, CALL_MODE, ARGS, "output_mode"},
	{TK_GREP, CALL_FILE_COUNT, RES, "numFiles"},
	{TK_GREP, CALL_LINE_COUNT, RES, "numLines"},
	{TK_GREP, CALL_MATCH_COUNT, RES, "numMatches"},
	{TK_GREP, CALL_MATCH_TEXT, RES, "content"},
	{TK_GREP, CALL_FILES, RES, "filenames"},
	{TK_GLOB, CALL_QUERY, ARGS, "pattern"},
	{TK_GLOB, CALL_DIR, ARGS, "path"},
	{TK_GLOB, CALL_FILE_COUNT, RES, "numFiles"},
	{TK_GLOB, CALL_TRUNCATED, RES, "truncated"},
	{TK_GLOB, CALL_FILES, RES, "filenames"},
	{TK_LS, CALL_PATH, ARGS, "path"},
	{TK_TODOS, CALL_TODOS_ASKED, ARGS, "todos"},
	{TK_TODOS, CALL_TODOS, RES, "newTodos"},
	{TK_TODOS, CALL_SUBJECT, ARGS, "subject"},
	{TK_TODOS, CALL_SUBJECT, RES, "task.subject"},
	{TK_TOOLS, CALL_QUERY, ARGS, "query"},
	{TK_TOOLS, CALL_LOADED, RES, "matches"},
	{TK_MCP, CALL_MCP_CONTENT, RES, "content"},
	{TK_TASK, CALL_DESCRIPTION, ARGS, "description"},
	{TK_TASK, CALL_SUB_TYPE, ARGS, "subagent_type"},
	{TK_TASK, CALL_MODEL, ARGS, "model"},
	{TK_TASK, CALL_SUB_ID, RES, "agentId"},
	{TK_TASK, CALL_BG_ID, RES, "agentId"},
	{TK_TASK, CALL_STATUS, RES, "status"},
	{TK_TASK, CALL_RUN_MS, RES, "totalDurationMs"},
	{TK_TASK, CALL_TOKENS, RES, "totalTokens"},
	{TK_TASK, CALL_TOOL_CALLS, RES, "totalToolUseCount"},
	{TK_TASK, CALL_BACKGROUND, RES, "isAsync"},
	{TK_TASK, CALL_BACKGROUND, ARGS, "run_in_background"},
	{TK_TASK, CALL_OUTPUT_FILE, RES, "outputFile"},
	{TK_TASK, CALL_PROMPT, ARGS, "prompt"},
	{TK_TASK, CALL_ANSWER, RES, "content"},
	{TK_AWAIT, CALL_TASK_ID, ARGS, "bash_id"},
	{TK_WEBFETCH, CALL_URL, ARGS, "url"},
	{TK_WEBFETCH, CALL_URL, RES, "url"},
	{TK_WEBFETCH, CALL_PROMPT, ARGS, "prompt"},
	{TK_WEBFETCH, CALL_STATUS_CODE, RES, "code"},
	{TK_WEBFETCH, CALL_STATUS_TEXT, RES, "codeText"},
	{TK_WEBFETCH, CALL_SIZE, RES, "bytes"},
	{TK_WEBFETCH, CALL_RUN_MS, RES, "durationMs"},
	{TK_WEBFETCH, CALL_ANSWER, RES, "result"},
	{TK_WEBSEARCH, CALL_QUERY, ARGS, "query"},
	{TK_WEBSEARCH, CALL_QUERY, RES, "query"},
	{TK_WEBSEARCH, CALL_RUN_S, RES, "durationSeconds"},
	{TK_WEBSEARCH, CALL_RESULTS, RES, "results"},
	{TK_QUESTION, CALL_QUESTIONS, ARGS, "questions"},
	{TK_QUESTION, CALL_ANSWERS, RES, "answers"},
};
/* clang-format on */

/* An MCP server's tool, mcp__server__tool: the server and the tool (the
 * rest, when there is no second "__"). */
static void
mcp_names(const struct json *j, int name, struct call_facts *v)
{
	struct buf s = {0};
	size_t i = 5;

	if (json_type(j, name) == JSON_STRING)
		json_decode(j, name, &s);
	if (s.n <= 5 || memcmp(s.p, "mcp__", 5) != 0 || s.n > UINT32_MAX) {
		buf_free(&s);
		return;
	}
	while (i + 1 < s.n && !(s.p[i] == '_' && s.p[i + 1] == '_'))
		i++;
	if (i + 1 < s.n) {
		call_set_part(v, CALL_MCP_SERVER, j, name, 5, (uint32_t)(s.n - i));
		call_set_part(v, CALL_MCP_TOOL, j, name, (uint32_t)(i + 2), 0);
	} else {
		call_set_part(v, CALL_MCP_TOOL, j, name, 5, 0);
	}
	buf_free(&s);
}

/* "Exit code N" at the start of what a call gave (a failed Bash says its
 * code only there, §10.1): the code, from the raw text. */
static void
exit_code(struct call_facts *v, struct call_facts *out)
{
	const struct factval *f = call_fact(v, CALL_TEXT);
	const struct json *j;
	int t;
	size_t n, i = 10;
	const char *s;
	int64_t code = 0;

	if (f == NULL)
		return;
	j = f->j;
	t = f->t;
	if (json_type(j, t) == JSON_ARRAY && json_size(j, t) > 0)
		t = json_type(j, t + 1) == JSON_OBJECT ? json_get(j, t + 1, "text") : t + 1;
	if (json_type(j, t) != JSON_STRING)
		return;
	s = json_raw(j, t, &n);
	if (n <= 10 || memcmp(s, "Exit code ", 10) != 0)
		return;
	if (s[i] == '-' || s[i] == '+')
		i++;
	if (i == n || s[i] < '0' || s[i] > '9')
		return;
	for (; i < n && s[i] >= '0' && s[i] <= '9' && code < INT64_MAX / 10 - 9; i++)
		code = code * 10 + (s[i] - '0');
	call_set_number(out, CALL_EXIT, s[10] == '-' ? -code : code);
}

/* A read's last line: it read file.numLines from file.startLine. */
static void
read_range(struct fact_place res, struct call_facts *v)
{
	int64_t a, b;

	if (json_int_at(res.j, res.t, "file.startLine", &a) &&
	    json_int_at(res.j, res.t, "file.numLines", &b) && b > 0 && a <= INT64_MAX - b)
		call_set_number(v, CALL_LAST_LINE, a + b - 1);
}

/* A call of the session's task list: the list after it, and the task it
 * made or changed; an update's subject is in the call that made the task
 * (parsed into m->qjson3). */
static void
todo_facts(const struct model *m, uint32_t c, struct call_facts *v)
{
	struct todo_step st;
	uint32_t made;
	const struct json *j;
	int s;

	if (!model_todo_step(m, c, &st))
		return;
	call_set_number(v, CALL_TODO_COUNT, st.total);
	call_set_number(v, CALL_TODO_DONE, st.done);
	made = m->task[st.task].call;
	call_set_number(v, CALL_TODO_STATE, made == c ? TODO_MADE : st.state);
	if (made == c || made == NONE || m->call[made].start_ev == NONE ||
	    m->call[made].spart == CALL_PART_FAR ||
	    (j = model_parsed(m, m->call[made].start_ev, m->qjson3)) == NULL ||
	    (s = block(j, m->call[made].spart)) < 0)
		return;
	call_set(v, CALL_SUBJECT, j, json_path(j, s, "input.subject"));
}

/* The call is the tool_use block of its started line and the tool_result
 * block of its completed one. */
void
claude_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	    struct call_facts *v)
{
	const struct call *call = &m->call[c];
	int s = sj != NULL ? block(sj, call->spart) : -1;
	int d = dj != NULL ? block(dj, call->dpart) : -1;

	v->rows = claude_facts;
	v->nrows = ARRAY_LEN(claude_facts);
	if (s >= 0) {
		v->place[ARGS] = (struct fact_place){sj, json_get(sj, s, "input")};
		call_set(v, CALL_ID, sj, json_get(sj, s, "id"));
		call_set(v, CALL_NAME, sj, json_get(sj, s, "name"));
		call_set(v, CALL_ARGS, sj, v->place[ARGS].t);
		if (v->kind == TK_MCP) {
			mcp_names(sj, json_get(sj, s, "name"), v);
			/* Its whole input is the tool's arguments. */
			call_set(v, CALL_MCP_ARGS, sj, v->place[ARGS].t);
		}
	}
	if (d >= 0) {
		int r = json_path_any(dj, 0, RICH);

		if (s < 0)
			call_set(v, CALL_ID, dj, json_get(dj, d, "tool_use_id"));
		call_set(v, CALL_RESULT, dj, d);
		call_set(v, CALL_TEXT, dj, json_get(dj, d, "content"));
		if (json_type(dj, r) == JSON_OBJECT) {
			v->place[RES] = (struct fact_place){dj, r};
			call_set(v, CALL_PAYLOAD, dj, r);
			call_set(v, CALL_SHOWN, dj, r);
		}
		exit_code(v, v);
	}
	if (v->kind == TK_READ)
		read_range(v->place[RES], v);
	if (v->kind == TK_TODOS && v->done)
		todo_facts(m, c, v);
}

/* A todo's state: "completed", "in_progress". */
static void
todo_state(const struct json *j, int t, struct elem_facts *e)
{
	int st = json_get(j, t, "status");
	enum todo_state s = TODO_PENDING;

	if (json_streq(j, st, "completed"))
		s = TODO_DONE;
	else if (json_streq(j, st, "in_progress"))
		s = TODO_ACTIVE;
	else if (json_streq(j, st, "cancelled"))
		s = TODO_CANCELLED;
	elem_set_number(e, EL_STATE, s);
}

bool
claude_elem(enum fact_list l, const struct json *j, int t, struct elem_facts *e)
{
	if ((l == FL_PARTS || l == FL_OPTIONS || l == FL_RESULTS || l == FL_LINKS) &&
	    agent_elem_string(j, t, EL_TEXT, e))
		return true;
	if (l == FL_FILES)
		return agent_elem_string(j, t, EL_NAME, e);
	if (json_type(j, t) != JSON_OBJECT)
		return false;
	switch (l) {
	case FL_PARTS:
	case FL_CONTENT:
		elem_find(e, EL_TEXT, j, t, "text");
		break;
	case FL_TODOS:
		elem_find(e, EL_TEXT, j, t, "content");
		todo_state(j, t, e);
		break;
	case FL_QUESTIONS:
		elem_find(e, EL_TEXT, j, t, "question");
		elem_find(e, EL_OPTIONS, j, t, "options");
		elem_find(e, EL_MULTI, j, t, "multiSelect");
		break;
	case FL_OPTIONS:
		elem_find(e, EL_TEXT, j, t, "label");
		elem_find(e, EL_DETAIL, j, t, "description");
		break;
	case FL_RESULTS: /* {tool_use_id, content: [{title, url}]} */
		elem_find(e, EL_LINKS, j, t, "content");
		/* fall through */
	case FL_LINKS:
		elem_find(e, EL_TITLE, j, t, "title");
		elem_find(e, EL_URL, j, t, "url");
		break;
	case FL_HUNKS:
		elem_find(e, EL_OLD_START, j, t, "oldStart");
		elem_find(e, EL_OLD_LINES, j, t, "oldLines");
		elem_find(e, EL_NEW_START, j, t, "newStart");
		elem_find(e, EL_NEW_LINES, j, t, "newLines");
		elem_find(e, EL_LINES, j, t, "lines");
		break;
	case FL_EDITS:
		elem_find(e, EL_OLD, j, t, "old_string");
		elem_find(e, EL_NEW, j, t, "new_string");
		break;
	default:
		return false;
	}
	return true;
}

/* Notices in words: sub-agents started and ended, API retries. */
static bool
claude_notice(const struct json *j, struct buf *out)
{
	int sub = json_get(j, 0, "subtype");
	int64_t a, n;
	bool agent;

	if (json_streq(j, json_get(j, 0, "type"), "assistant")) {
		blocks_text(j, "text", "text", out);
		return true;
	}
	if (!json_streq(j, json_get(j, 0, "type"), "system"))
		return false;
	/* A sub-agent's task; a command's (a local_bash one) has no usage
	 * of its own. */
	agent = json_type(j, json_get(j, 0, "usage")) == JSON_OBJECT ||
		json_streq(j, json_get(j, 0, "task_type"), "local_agent");
	if (json_streq(j, sub, "task_started"))
		return agent_say(j, agent ? "sub-agent started: " : "task started: ",
				 "description|prompt", out);
	if (json_streq(j, sub, "task_notification")) {
		buf_adds(out, agent ? "sub-agent " : "task ");
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
		if (agent_say(j, " (", "compact_metadata.trigger", out))
			buf_addc(out, ')');
		if (json_int_at(j, 0, "compact_metadata.pre_tokens", &a) &&
		    json_int_at(j, 0, "compact_metadata.post_tokens", &n) && a >= 0 && n >= 0) {
			buf_adds(out, ": ");
			fmt_count(out, (uint64_t)a);
			buf_adds(out, " " GLYPH_ARROW " ");
			fmt_count(out, (uint64_t)n);
			buf_adds(out, " tokens");
		}
		if (json_int_at(j, 0, "compact_metadata.duration_ms", &a) && a >= 0) {
			buf_adds(out, " " GLYPH_DOT " ");
			fmt_duration(out, a);
		}
		return true;
	}
	/* A sub-agent's progress: its last tool, its tool uses, tokens. */
	if (json_streq(j, sub, "task_progress")) {
		size_t mark = out->n;

		agent_say(j, "", "last_tool_name", out);
		if (json_int_at(j, 0, "usage.tool_uses", &a) && a >= 0)
			buf_addf(out, "%s%lld tool use%s", out->n > mark ? " " GLYPH_DOT " " : "",
				 (long long)a, a == 1 ? "" : "s");
		if (json_int_at(j, 0, "usage.total_tokens", &a) && a >= 0) {
			buf_adds(out, out->n > mark ? " " GLYPH_DOT " " : "");
			fmt_count(out, (uint64_t)a);
			buf_adds(out, " tokens");
		}
		return out->n > mark;
	}
	if (json_streq(j, sub, "status")) {
		if (json_streq(j, json_get(j, 0, "status"), "compacting"))
			buf_adds(out, "compacting the conversation");
		else if (!agent_say(j, "compacting the conversation: ", "compact_result", out))
			return false;
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
	.elem = claude_elem,
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
			[FACT_STOP] = "terminal_reason",
		},
	.usage = claude_usage,
	.task_status = "status",
	.task_answer = "summary",
	/* Each result counts its own turns and tokens; the cost is the
	 * run's so far (src/FORMAT.md §10.1). */
	.fact_add = 1u << FACT_TURNS | 1u << FACT_USAGE,
	.bg_turns = true,
	.mark = "\"init\"",
	.resume = {"claude", "--resume"},
};
