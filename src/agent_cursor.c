/* agent_cursor.c: Cursor Agent CLI's stream-json (src/FORMAT.md §2-§9):
 * system/init starts a session; user, thinking, assistant (deltas, whole
 * segments and recaps, §4), tool_call started/completed by call_id with
 * the call in the key of `tool_call` that ends in "ToolCall" (§3), result;
 * everything else is a notice. */
#include "agent.h"

#include <string.h>

#include "json.h"
#include "text.h"

/* Its tools: the key of the tool_call object that ends in "ToolCall" (§3). */
static const struct agent_tool cursor_tools[] = {
	{"shellToolCall", TK_SHELL},
	{"readToolCall", TK_READ},
	{"editToolCall", TK_EDIT},
	{"writeToolCall", TK_WRITE},
	{"grepToolCall", TK_GREP},
	{"deleteToolCall", TK_DELETE},
	{"globToolCall", TK_GLOB},
	{"lsToolCall", TK_LS},
	{"updateTodosToolCall", TK_TODOS},
	{"mcpToolCall", TK_MCP},
	{"getMcpToolsToolCall", TK_MCP_TOOLS},
	{"taskToolCall", TK_TASK},
	{"awaitToolCall", TK_AWAIT},
	{"semSearchToolCall", TK_SEMSEARCH},
	{"webFetchToolCall", TK_WEBFETCH},
	{"webSearchToolCall", TK_WEBSEARCH},
	{"askQuestionToolCall", TK_QUESTION},
	{"readLintsToolCall", TK_LINTS},
	{NULL, TK_OTHER},
};

static bool
cursor_starts(const struct json *j, const int *k)
{
	return json_streq(j, k[TOP_TYPE], "system") && json_streq(j, k[TOP_SUBTYPE], "init");
}

/* Any line may be Cursor's: it is the stream agentview reads by default. */
static bool
cursor_looks(const struct json *j, const int *k)
{
	(void)j;
	(void)k;
	return true;
}

static int64_t
cursor_time(const struct json *j, const int *k)
{
	return agent_ms(j, k[TOP_MS]);
}

/* What the event is, from its type and subtype. */
static enum ev_type
cursor_classify(const struct json *j, const int *k)
{
	int t = k[TOP_TYPE], st = k[TOP_SUBTYPE];
	const char *raw;
	size_t n;

	if (json_type(j, t) != JSON_STRING)
		return EV_NOTICE;
	raw = json_raw(j, t, &n);
	switch (n) {
	case 4:
		if (memcmp(raw, "user", 4) == 0)
			return EV_USER;
		break;
	case 6:
		if (memcmp(raw, "system", 6) == 0)
			return json_streq(j, st, "init") ? EV_INIT : EV_NOTICE;
		if (memcmp(raw, "result", 6) == 0)
			return EV_RESULT;
		break;
	case 8:
		if (memcmp(raw, "thinking", 8) == 0) {
			if (json_streq(j, st, "delta"))
				return EV_THINK_DELTA;
			if (json_streq(j, st, "completed"))
				return EV_THINK_DONE;
		}
		break;
	case 17:
		if (memcmp(raw, "interaction_query", 17) == 0) {
			if (json_streq(j, st, "request"))
				return EV_ASK;
			if (json_streq(j, st, "response"))
				return EV_ANSWER;
		}
		break;
	case 9:
		if (memcmp(raw, "assistant", 9) == 0)
			return EV_TEXT_DELTA;
		if (memcmp(raw, "tool_call", 9) == 0) {
			if (json_streq(j, st, "started"))
				return EV_TOOL_START;
			if (json_streq(j, st, "completed"))
				return EV_TOOL_DONE;
		}
		break;
	}
	return EV_NOTICE;
}

/* How a completed call ended: the key of its result object. */
static enum call_result
call_result_of(const struct json *j, int kindobj)
{
	int res = json_get(j, kindobj, "result");

	if (json_type(j, res) != JSON_OBJECT)
		return CR_EMPTY;
	if (json_get(j, res, "success") >= 0)
		return CR_SUCCESS;
	if (json_get(j, res, "failure") >= 0)
		return CR_FAILURE;
	if (json_get(j, res, "rejected") >= 0)
		return CR_REJECTED;
	if (json_get(j, res, "error") >= 0)
		return CR_ERROR;
	return json_size(j, res) > 0 ? CR_OTHER : CR_EMPTY;
}

/* A call that succeeded by going to the background (§3): a shell with
 * isBackground and its shellId, a sub-agent with its agentId. Its end is
 * a task_notification of that task_id. */
static void
background(struct build *b, int obj)
{
	const struct json *j = b->j;
	int res = json_get(j, obj, "result"), ok = json_get(j, res, "success");
	bool bg = false;

	if (json_type(j, ok) != JSON_OBJECT)
		return;
	if (!(json_bool(j, json_get(j, res, "isBackground"), &bg) && bg) &&
	    !(json_bool(j, json_get(j, ok, "isBackground"), &bg) && bg))
		return;
	build_background(b, -1, json_path_any(j, ok, "shellId|agentId"));
}

/* The first member of obj that is an object: the payload named by a
 * query's type ("webFetchRequestQuery": {...}). */
static int
payload(const struct json *j, int obj)
{
	int k = obj + 1;

	for (int i = 0; i < json_size(j, obj); i++, k = json_next(j, k + 1))
		if (json_type(j, k + 1) == JSON_OBJECT)
			return k + 1;
	return -1;
}

/* What a query asks, by its query_type (§2). */
static enum query_kind
query_kind(const struct json *j)
{
	static const struct {
		const char *type;
		enum query_kind kind;
	} kinds[] = {
		{"webFetchRequestQuery", QK_WEB_FETCH},
		{"webSearchRequestQuery", QK_WEB_SEARCH},
		{"askQuestionInteractionQuery", QK_QUESTION},
		{"createPlanRequestQuery", QK_PLAN},
		{"shellRequestQuery", QK_SHELL},
	};
	int t = json_get(j, 0, "query_type");

	for (size_t i = 0; i < ARRAY_LEN(kinds); i++)
		if (json_streq(j, t, kinds[i].type))
			return kinds[i].kind;
	return QK_OTHER;
}

/* interaction_query/request: the query's id, and the tool call it is
 * about (its args' toolCallId, or one beside the args). */
static void
ask(struct build *b)
{
	const struct json *j = b->j;
	int q = json_get(j, 0, "query"), p = payload(j, q);

	build_ask(b, json_get(j, q, "id"), json_path_any(j, p, "args.toolCallId|toolCallId"),
		  query_kind(j));
}

/* interaction_query/response: approved, rejected (with a reason), or a
 * result: an answer, or an answer rejected (a question nobody
 * answered). */
static void
answer(struct build *b)
{
	const struct json *j = b->j;
	int r = json_get(j, 0, "response"), p = payload(j, r);
	enum query_decision d = QD_ANSWERED;

	if (json_get(j, p, "approved") >= 0)
		d = QD_APPROVED;
	else if (json_get(j, p, "rejected") >= 0)
		d = QD_REJECTED;
	else if (json_path(j, p, "result.rejected") >= 0)
		d = QD_SKIPPED;
	build_answer(b, json_get(j, r, "id"), query_kind(j), d);
}

/* How a background task ended, by its notification's status. */
static enum call_result
task_result(const struct json *j)
{
	int st = json_get(j, 0, "status");

	if (json_streq(j, st, "success") || json_streq(j, st, "completed"))
		return CR_SUCCESS;
	if (json_streq(j, st, "failed") || json_streq(j, st, "failure") ||
	    json_streq(j, st, "error"))
		return CR_FAILURE;
	return CR_OTHER;
}

/* The kind object of a parsed tool event: the value of the `tool_call`
 * key that ends in "ToolCall" (§3), with the token naming it in *name; -1
 * when there is none. tc is the event's tool_call value when the caller
 * has it, or -1. */
static int
tool_object(const struct json *j, int tc, int *name)
{
	int n, k;

	if (tc < 0)
		tc = json_get(j, 0, "tool_call");
	if (json_type(j, tc) != JSON_OBJECT)
		return -1;
	n = json_size(j, tc);
	k = tc + 1;
	for (int i = 0; i < n; i++) {
		if (json_type(j, k + 1) == JSON_OBJECT && json_strsuffix(j, k, "ToolCall")) {
			*name = k;
			return k + 1;
		}
		k = json_next(j, k + 1);
	}
	/* The shape one consumer claims (src/FORMAT.md §3):
	 * "tool_call":{"tool":{"case":"readToolCall","value":{…}}}. */
	k = json_get(j, tc, "tool");
	if (json_type(j, json_get(j, k, "case")) == JSON_STRING &&
	    json_type(j, json_get(j, k, "value")) == JSON_OBJECT) {
		*name = json_get(j, k, "case");
		return json_get(j, k, "value");
	}
	return -1;
}

/* A tool_call event's call: its call_id (or the toolCallId beside the
 * kind), its kind, its own clock, and for a completion how it ended. */
static void
tool_event(struct build *b, bool done)
{
	const struct json *j = b->j;
	int tc = b->k[TOP_TOOL_CALL], name = -1, obj = -1;
	struct call_ref r = {b->k[TOP_CALL_ID], TK_OTHER, CR_EMPTY, TIME_NONE, TIME_NONE, false, 0};

	if (json_type(j, tc) != JSON_OBJECT)
		tc = -1;
	if (tc >= 0) {
		if (r.id < 0)
			r.id = json_get(j, tc, "toolCallId");
		obj = tool_object(j, tc, &name);
		r.started_ms = agent_ms(j, json_get(j, tc, "startedAtMs"));
		r.completed_ms = agent_ms(j, json_get(j, tc, "completedAtMs"));
	}
	if (obj >= 0) {
		size_t n;
		const char *raw = json_raw(j, name, &n);

		r.kind = agent_tool_kind(&agent_cursor, raw, n);
		r.result = call_result_of(j, obj);
		r.has_args = json_get(j, obj, "args") >= 0;
	}
	if (!done) {
		build_call_start(b, &r);
		if (r.kind == TK_AWAIT)
			build_wait(b, json_path(j, obj, "args.taskId"));
		return;
	}
	build_call_done(b, &r);
	if (obj >= 0)
		background(b, obj);
}

static void
cursor_line(struct build *b)
{
	const struct json *j = b->j;
	const int *k = b->k;
	bool is_error = false;

	switch (cursor_classify(j, k)) {
	case EV_INIT:
		build_session(b);
		break;
	case EV_USER:
		build_prompt(b);
		break;
	case EV_THINK_DELTA:
	case EV_THINK_DONE:
		build_thinking(b, json_streq(j, k[TOP_SUBTYPE], "completed") ? THINK_DONE
									     : THINK_DELTA);
		break;
	case EV_TEXT_DELTA:
		/* A delta has timestamp_ms and no model_call_id (§4). */
		build_text(b, k[TOP_MS] >= 0 && k[TOP_MODEL_CALL] < 0 ? TEXT_DELTA : TEXT_SEGMENT);
		break;
	case EV_TOOL_START:
	case EV_TOOL_DONE:
		tool_event(b, json_streq(j, k[TOP_SUBTYPE], "completed"));
		break;
	case EV_RESULT:
		json_bool(j, json_get(j, 0, "is_error"), &is_error);
		build_result(b, is_error, agent_ms(j, json_get(j, 0, "duration_ms")));
		break;
	case EV_ASK:
		ask(b);
		break;
	case EV_ANSWER:
		answer(b);
		break;
	default:
		if (json_streq(j, k[TOP_SUBTYPE], "task_notification"))
			build_task_end(b, json_get(j, 0, "task_id"), task_result(j), TIME_NONE,
				       false);
		else
			build_notice(b);
		break;
	}
}

/* Append the texts of a message's content: a string, or parts with a
 * text (a prompt's, a reply's). */
static void
message_text(const struct json *j, struct buf *out)
{
	int c = json_path(j, 0, "message.content");
	int n, t;

	if (json_type(j, c) == JSON_STRING) {
		json_decode(j, c, out);
		return;
	}
	if (json_type(j, c) != JSON_ARRAY)
		return;
	n = json_size(j, c);
	t = c + 1;
	for (int i = 0; i < n; i++, t = json_next(j, t)) {
		if (json_type(j, t) == JSON_OBJECT) {
			int txt = json_get(j, t, "text");

			if (json_type(j, txt) == JSON_STRING)
				json_decode(j, txt, out);
		} else if (json_type(j, t) == JSON_STRING) {
			json_decode(j, t, out);
		}
	}
}

static void
cursor_text(const struct json *j, enum ev_type type, struct buf *out)
{
	int t;

	if (type == EV_THINK_DELTA) {
		t = json_get(j, 0, "text");
		if (json_type(j, t) == JSON_STRING)
			json_decode(j, t, out);
		return;
	}
	message_text(j, out);
}

/* Tokens before a delta's text ends, with its fields in the usual order
 * (src/FORMAT.md §4): {"type":"thinking","subtype":"delta","text":"..." and
 * {"type":"assistant","message":{"role":"assistant","content":
 * [{"type":"text","text":"..."}]}. session_id and timestamp_ms follow. */
#define HEAD_THINK_DELTA 7
#define HEAD_TEXT_DELTA 14

static bool
cursor_text_head(struct json *j, const char *p, size_t n, enum ev_type type, struct buf *out)
{
	int t;

	if (type == EV_THINK_DELTA) {
		if (json_parse_head(j, p, n, HEAD_THINK_DELTA) != JSON_OK ||
		    (t = json_get(j, 0, "text")) < 0)
			return false;
		if (json_type(j, t) == JSON_STRING)
			json_decode(j, t, out);
		return true;
	}
	if (json_parse_head(j, p, n, HEAD_TEXT_DELTA) != JSON_OK ||
	    (t = json_path(j, 0, "message.content")) < 0 || !json_whole(j, t))
		return false;
	message_text(j, out);
	return true;
}

/* The call's id in a tool event: its call_id, or the toolCallId of its
 * tool_call; -1 when neither is a value. */
static int
cursor_id(const struct json *j)
{
	int t = json_get(j, 0, "call_id");

	if (!json_is_value(j, t))
		t = json_path(j, 0, "tool_call.toolCallId");
	return json_is_value(j, t) ? t : -1;
}

/* Where a call's facts are (§3): its arguments (args), the kind object
 * holding them (description beside them), the result's payload (the
 * value of its one key: success, failure, rejected, error). */
enum { ARGS, HOLDER, RES };

/* clang-format off */
static const struct fact_row cursor_facts[] = {
	{FACT_ANY_KIND, CALL_ERROR, RES, "errorMessage|message|error|error.message|modelVisibleError"},
	{FACT_ANY_KIND, CALL_REASON, RES, "reason"},
	{FACT_ANY_KIND, CALL_READ_ONLY, RES, "isReadonly"},
	{TK_SHELL, CALL_COMMAND, ARGS, "command"},
	{TK_SHELL, CALL_COMMAND, RES, "command"},
	{TK_SHELL, CALL_DIR, ARGS, "workingDirectory"},
	{TK_SHELL, CALL_DIR, RES, "workingDirectory"},
	{TK_SHELL, CALL_DESCRIPTION, HOLDER, "description"},
	{TK_SHELL, CALL_DESCRIPTION, ARGS, "description"},
	{TK_SHELL, CALL_EXIT, RES, "exitCode"},
	{TK_SHELL, CALL_SIGNAL, RES, "signal"},
	{TK_SHELL, CALL_ABORTED, RES, "aborted"},
	{TK_SHELL, CALL_INTERRUPTED, RES, "interrupted"},
	{TK_SHELL, CALL_RUN_MS, RES, "executionTime"},
	{TK_SHELL, CALL_LOCAL_MS, RES, "localExecutionTimeMs"},
	{TK_SHELL, CALL_TIMEOUT_MS, ARGS, "timeout"},
	{TK_SHELL, CALL_BACKGROUND, ARGS, "isBackground"},
	{TK_SHELL, CALL_BG_ID, RES, "shellId"},
	{TK_SHELL, CALL_PID, RES, "pid"},
	{TK_SHELL, CALL_BG_WHY, RES, "backgroundReason"},
	{TK_SHELL, CALL_STDOUT, RES, "stdout"},
	{TK_SHELL, CALL_STDERR, RES, "stderr"},
	{TK_SHELL, CALL_OUTPUT, RES, "interleavedOutput"},
	{TK_READ, CALL_PATH, ARGS, "path"},
	{TK_READ, CALL_PATH, RES, "path"},
	{TK_READ, CALL_FIRST_LINE, RES, "readRange.startLine"},
	{TK_READ, CALL_FIRST_LINE, ARGS, "offset"},
	{TK_READ, CALL_LAST_LINE, RES, "readRange.endLine"},
	{TK_READ, CALL_TOTAL_LINES, RES, "totalLines"},
	{TK_READ, CALL_FILE_SIZE, RES, "fileSize"},
	{TK_READ, CALL_TRUNCATED, RES, "exceededLimit"},
	{TK_READ, CALL_CONTENT, RES, "content"},
	{TK_EDIT, CALL_PATH, ARGS, "path"},
	{TK_EDIT, CALL_PATH, RES, "path"},
	{TK_EDIT, CALL_LINES_ADDED, RES, "linesAdded"},
	{TK_EDIT, CALL_LINES_REMOVED, RES, "linesRemoved"},
	{TK_EDIT, CALL_MESSAGE, RES, "message"},
	{TK_EDIT, CALL_DIFF, RES, "diffString"},
	{TK_EDIT, CALL_BEFORE, RES, "beforeFullFileContent"},
	{TK_EDIT, CALL_AFTER, RES, "afterFullFileContent"},
	{TK_EDIT, CALL_WRITTEN, ARGS, "streamContent"},
	{TK_EDIT, CALL_OLD_TEXT, ARGS, "strReplace.oldText"},
	{TK_EDIT, CALL_NEW_TEXT, ARGS, "strReplace.newText"},
	{TK_EDIT, CALL_PATCH, ARGS, "applyPatch.patchContent"},
	{TK_WRITE, CALL_PATH, ARGS, "path"},
	{TK_WRITE, CALL_PATH, RES, "path"},
	{TK_WRITE, CALL_LINES_ADDED, RES, "linesCreated"},
	{TK_WRITE, CALL_FILE_SIZE, RES, "fileSize"},
	{TK_WRITE, CALL_WRITTEN, ARGS, "fileText"},
	{TK_DELETE, CALL_PATH, ARGS, "path"},
	{TK_DELETE, CALL_PATH, RES, "path"},
	{TK_DELETE, CALL_FILE_SIZE, RES, "fileSize"},
	{TK_DELETE, CALL_BEFORE, RES, "prevContent"},
	{TK_GREP, CALL_QUERY, ARGS, "pattern"},
	{TK_GREP, CALL_QUERY, RES, "pattern"},
	{TK_GREP, CALL_DIR, ARGS, "path"},
	{TK_GREP, CALL_GLOB, ARGS, "glob"},
	{TK_GREP, CALL_IGNORE_CASE, ARGS, "caseInsensitive"},
	{TK_GREP, CALL_MODE, RES, "outputMode"},
	{TK_GREP, CALL_ROOTS, RES, "workspaceResults"},
	{TK_GLOB, CALL_QUERY, ARGS, "globPattern"},
	{TK_GLOB, CALL_QUERY, RES, "pattern"},
	{TK_GLOB, CALL_DIR, ARGS, "targetDirectory"},
	{TK_GLOB, CALL_DIR, RES, "path"},
	{TK_GLOB, CALL_FILE_COUNT, RES, "totalFiles"},
	{TK_GLOB, CALL_TRUNCATED, RES, "clientTruncated"},
	{TK_GLOB, CALL_FILES, RES, "files"},
	{TK_LS, CALL_PATH, ARGS, "path"},
	{TK_LS, CALL_PATH, RES, "path"},
	{TK_TODOS, CALL_TODOS_ASKED, ARGS, "todos"},
	{TK_TODOS, CALL_TODOS, RES, "todos"},
	{TK_TODOS, CALL_MERGE, ARGS, "merge"},
	{TK_MCP, CALL_MCP_NAME, ARGS, "name|toolName"},
	{TK_MCP, CALL_MCP_SERVER, ARGS, "providerIdentifier"},
	{TK_MCP, CALL_MCP_TOOL, ARGS, "toolName"},
	{TK_MCP, CALL_DESCRIPTION, HOLDER, "description"},
	{TK_MCP, CALL_IS_ERROR, RES, "isError"},
	{TK_MCP, CALL_MCP_ARGS, ARGS, "args"},
	{TK_MCP, CALL_MCP_CONTENT, RES, "content"},
	{TK_MCP_TOOLS, CALL_MCP_SERVER, ARGS, "server"},
	{TK_MCP_TOOLS, CALL_MCP_TOOL, ARGS, "toolName"},
	{TK_MCP_TOOLS, CALL_SCHEMA, RES, "content"},
	{TK_TASK, CALL_DESCRIPTION, ARGS, "description"},
	{TK_TASK, CALL_MODEL, ARGS, "model"},
	{TK_TASK, CALL_SUB_ID, ARGS, "agentId"},
	{TK_TASK, CALL_SUB_ID, RES, "agentId"},
	{TK_TASK, CALL_BG_ID, RES, "agentId"},
	{TK_TASK, CALL_STATUS, RES, "status"},
	{TK_TASK, CALL_RUN_MS, RES, "durationMs"},
	{TK_TASK, CALL_BACKGROUND, RES, "isBackground"},
	{TK_TASK, CALL_PROMPT, ARGS, "prompt"},
	{TK_TASK, CALL_STEPS, RES, "conversationSteps"},
	{TK_AWAIT, CALL_TASK_ID, ARGS, "taskId"},
	{TK_AWAIT, CALL_EXIT, RES, "complete.exitCode"},
	{TK_SEMSEARCH, CALL_QUERY, ARGS, "query"},
	{TK_WEBFETCH, CALL_URL, ARGS, "url"},
	{TK_WEBFETCH, CALL_URL, RES, "url"},
	{TK_WEBFETCH, CALL_PAGE, RES, "markdown"},
	{TK_WEBSEARCH, CALL_QUERY, ARGS, "searchTerm"},
	{TK_WEBSEARCH, CALL_RESULTS, RES, "references"},
	{TK_QUESTION, CALL_TITLE, ARGS, "title"},
	{TK_QUESTION, CALL_QUESTIONS, ARGS, "questions"},
};
/* clang-format on */

/* Members of array or object t, or -1. */
static int
members(const struct json *j, int t)
{
	return json_type(j, t) == JSON_ARRAY || json_type(j, t) == JSON_OBJECT ? json_size(j, t)
									       : -1;
}

/* A grep's first folder searched: how many lines matched, in how many
 * files (its line says them); an ls's entries. */
static void
counts(const struct json *j, int res, struct call_facts *v)
{
	int wr = json_get(j, res, "workspaceResults");
	int64_t a = 0, b;

	if (v->kind == TK_GREP && json_type(j, wr) == JSON_OBJECT && json_size(j, wr) > 0) {
		json_int_at(j, wr + 2, "content.totalMatchedLines", &a);
		call_set_number(v, CALL_MATCH_COUNT, a);
		if ((b = members(j, json_path(j, wr + 2, "content.matches"))) >= 0)
			call_set_number(v, CALL_MATCH_FILES, b);
	} else if (v->kind == TK_LS) {
		a = members(j, json_path(j, res, "directoryTreeRoot.childrenFiles"));
		b = members(j, json_path(j, res, "directoryTreeRoot.childrenDirs"));
		call_set_number(v, CALL_ENTRIES, MAX(a, 0) + MAX(b, 0));
	}
}

/* The arguments come from the completed event when it has them, else
 * from the started one (§3: a completion may leave them out). */
static void
cursor_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	    struct call_facts *v)
{
	int sobj = -1, dobj = -1, sname = -1, dname = -1, result = -1, name = -1;
	const struct json *ij = sj != NULL ? sj : dj, *aj = NULL, *nj = NULL;
	size_t n;

	(void)m;
	(void)c;
	v->rows = cursor_facts;
	v->nrows = ARRAY_LEN(cursor_facts);
	if (ij != NULL)
		call_set(v, CALL_ID, ij, cursor_id(ij));
	if (sj != NULL && (sobj = tool_object(sj, -1, &sname)) < 0)
		sj = NULL;
	if (dj != NULL && (dobj = tool_object(dj, -1, &dname)) < 0)
		dj = NULL;
	if (dj != NULL) {
		result = json_get(dj, dobj, "result");
		call_set(v, CALL_RESULT, dj, result);
		call_set(v, CALL_SHOWN, dj, result);
		if (json_type(dj, result) == JSON_OBJECT && json_size(dj, result) > 0) {
			call_set(v, CALL_VARIANT, dj, result + 1);
			call_set(v, CALL_PAYLOAD, dj, result + 2);
			v->place[RES] = (struct fact_place){dj, result + 2};
		}
		nj = dj;
		name = dname;
	}
	if (dj != NULL && json_get(dj, dobj, "args") >= 0) {
		aj = dj;
		v->place[HOLDER] = (struct fact_place){dj, dobj};
	} else if (sj != NULL) {
		aj = sj;
		v->place[HOLDER] = (struct fact_place){sj, sobj};
		nj = sj;
		name = sname;
	}
	if (aj != NULL) {
		v->place[ARGS] = (struct fact_place){aj, json_get(aj, v->place[HOLDER].t, "args")};
		call_set(v, CALL_ARGS, aj, v->place[ARGS].t);
	}
	if (nj != NULL) {
		call_set(v, CALL_NAME, nj, name);
		/* An unknown kind's name reads without the "ToolCall" every
		 * name has. */
		json_raw(nj, name, &n);
		if (v->kind == TK_OTHER && n > 8 && json_strsuffix(nj, name, "ToolCall"))
			call_set_part(v, CALL_LABEL, nj, name, 0, 8);
	}
	if (v->result == CR_REJECTED)
		call_set_words(v, CALL_REJECTED_NOTE,
			       "(none given: without --force, shell commands are rejected)");
	if (v->place[RES].j != NULL) {
		counts(v->place[RES].j, v->place[RES].t, v);
		/* A big file's text is left out of the stream (§3). */
		if (v->kind == TK_READ &&
		    json_get(v->place[RES].j, v->place[RES].t, "contentBlobId") >= 0 &&
		    json_get(v->place[RES].j, v->place[RES].t, "content") < 0)
			call_set_number(v, CALL_ELSEWHERE, 1);
	}
}

/* A todo's state: "TODO_STATUS_COMPLETED" and so on. */
static void
todo_state(const struct json *j, int t, struct elem_facts *e)
{
	int st = json_get(j, t, "status");
	enum todo_state s = TODO_PENDING;

	if (json_strsuffix(j, st, "COMPLETED"))
		s = TODO_DONE;
	else if (json_strsuffix(j, st, "IN_PROGRESS"))
		s = TODO_ACTIVE;
	else if (json_strsuffix(j, st, "CANCELLED"))
		s = TODO_CANCELLED;
	elem_set_number(e, EL_STATE, s);
}

static bool
cursor_elem(enum fact_list l, const struct json *j, int t, struct elem_facts *e)
{
	if (l == FL_ROOTS) { /* a member: the folder, then its matches */
		int content = json_get(j, t + 1, "content");

		elem_set(e, EL_NAME, j, t);
		if (json_type(j, content) != JSON_OBJECT)
			return false;
		elem_find(e, EL_MATCHED, j, content, "totalMatchedLines");
		elem_find(e, EL_TRUNCATED, j, content, "clientTruncated");
		elem_find(e, EL_FILES, j, content, "matches");
		return true;
	}
	if (l == FL_FILES || l == FL_OPTIONS || l == FL_RESULTS)
		if (agent_elem_string(j, t, l == FL_FILES ? EL_NAME : EL_TEXT, e))
			return true;
	if (json_type(j, t) != JSON_OBJECT)
		return false;
	switch (l) {
	case FL_FILES:
		elem_find(e, EL_NAME, j, t, "path|name|file");
		break;
	case FL_TODOS:
		elem_find(e, EL_TEXT, j, t, "content");
		todo_state(j, t, e);
		break;
	case FL_QUESTIONS:
		elem_find(e, EL_TEXT, j, t, "prompt");
		elem_find(e, EL_OPTIONS, j, t, "options");
		elem_find(e, EL_MULTI, j, t, "allowMultiple");
		break;
	case FL_OPTIONS:
		elem_find(e, EL_TEXT, j, t, "label|id");
		break;
	case FL_RESULTS:
		elem_find(e, EL_TITLE, j, t, "title");
		elem_find(e, EL_URL, j, t, "url");
		elem_find(e, EL_SNIPPET, j, t, "chunk");
		break;
	case FL_STEPS:
		elem_find(e, EL_TEXT, j, t, "assistantMessage.text");
		break;
	case FL_CONTENT:
		elem_find(e, EL_TEXT, j, t, "text.text");
		break;
	case FL_GREP_FILES:
		elem_find(e, EL_FILE, j, t, "file");
		elem_find(e, EL_MATCHES, j, t, "matches");
		break;
	case FL_MATCHES:
		elem_find(e, EL_LINE, j, t, "lineNumber");
		elem_find(e, EL_TEXT, j, t, "content");
		elem_find(e, EL_CONTEXT, j, t, "isContextLine");
		break;
	default:
		return false;
	}
	return true;
}

/* Append " (attempt N)" when the event says which attempt it is. */
static void
add_attempt(const struct json *j, struct buf *out)
{
	int64_t n;

	if (json_int(j, json_get(j, 0, "attempt"), &n))
		buf_addf(out, " (attempt %lld)", (long long)n);
}

/* A notice in words: connection and retry events, a task that ended. */
static bool
cursor_notice(const struct json *j, struct buf *out)
{
	int type = json_get(j, 0, "type"), sub = json_get(j, 0, "subtype");
	int t;
	int64_t v;
	bool resume = false;

	if (json_streq(j, type, "connection") && json_streq(j, sub, "reconnecting")) {
		buf_adds(out, "connection lost, reconnecting");
		add_attempt(j, out);
	} else if (json_streq(j, type, "connection") && json_streq(j, sub, "reconnected")) {
		buf_adds(out, "connection restored");
	} else if (json_streq(j, type, "retry") && json_streq(j, sub, "starting")) {
		buf_adds(out, "retrying");
		if (json_bool(j, json_get(j, 0, "is_resume"), &resume) && resume)
			buf_adds(out, ", resuming");
		add_attempt(j, out);
	} else if (json_streq(j, type, "retry") && json_streq(j, sub, "resuming")) {
		buf_adds(out, "resuming");
		if (json_int(j, json_get(j, 0, "checkpoint_turn_count"), &v))
			buf_addf(out, " from checkpoint turn %lld", (long long)v);
		add_attempt(j, out);
	} else if (json_streq(j, type, "system") &&
		   json_streq(j, sub, "background_shell_timeout")) {
		buf_adds(out, "a shell went on in the background at its timeout");
	} else if (json_streq(j, type, "system") && json_streq(j, sub, "task_notification")) {
		buf_adds(out, "task");
		if (json_type(j, t = json_get(j, 0, "title")) == JSON_STRING ||
		    (t = json_get(j, 0, "task_id")) >= 0) {
			buf_addc(out, ' ');
			json_decode(j, t, out);
		}
		if ((t = json_get(j, 0, "status")) >= 0) {
			buf_addc(out, ' ');
			json_decode(j, t, out);
		}
	} else {
		return false;
	}
	return true;
}

/* The most telling string of an object: its first string member that
 * is not an id. */
static bool
telling(const struct json *j, int obj, struct buf *out)
{
	int k = obj + 1;

	for (int i = 0; i < json_size(j, obj); i++, k = json_next(j, k + 1))
		if (json_type(j, k + 1) == JSON_STRING && !json_strsuffix(j, k, "Id") &&
		    !json_streq(j, k, "id")) {
			json_decode(j, k + 1, out);
			return true;
		}
	return false;
}

/* "question "Which file?" (a / b)" from askQuestion args. */
static void
question_words(const struct json *j, int args, struct buf *out)
{
	int qs = json_get(j, args, "questions"), q = -1, o, opts;

	buf_adds(out, "question \"");
	if (json_type(j, qs) == JSON_ARRAY && json_size(j, qs) > 0)
		q = qs + 1;
	if (json_type(j, json_get(j, args, "title")) == JSON_STRING)
		json_decode(j, json_get(j, args, "title"), out);
	else if (json_type(j, json_get(j, q, "prompt")) == JSON_STRING)
		json_decode(j, json_get(j, q, "prompt"), out);
	buf_addc(out, '"');
	opts = json_get(j, q, "options");
	if (json_size(j, opts) == 0)
		return;
	buf_adds(out, " (");
	o = opts + 1;
	for (int i = 0; i < json_size(j, opts); i++, o = json_next(j, o)) {
		int l = json_get(j, o, "label");

		buf_adds(out, i > 0 ? " / " : "");
		if (json_type(j, l) == JSON_STRING)
			json_decode(j, l, out);
	}
	buf_addc(out, ')');
}

/* What a query asks, in words, from its args (§2). */
static void
query_what(const struct json *j, int args, enum query_kind k, struct query_words *w)
{
	struct buf *out = &w->what;
	int t;

	switch (k) {
	case QK_WEB_FETCH:
		buf_adds(out, "approve web fetch ");
		if (json_type(j, t = json_get(j, args, "url")) == JSON_STRING)
			json_decode(j, t, out);
		else
			telling(j, args, out);
		break;
	case QK_WEB_SEARCH:
		buf_adds(out, "approve web search \"");
		t = json_path_any(j, args, "searchTerm|query");
		if (json_type(j, t) == JSON_STRING)
			json_decode(j, t, out);
		else
			telling(j, args, out);
		buf_addc(out, '"');
		break;
	case QK_QUESTION:
		question_words(j, args, out);
		break;
	case QK_PLAN:
		t = json_get(j, args, "plan");
		if (json_type(j, t) == JSON_STRING)
			json_decode(j, t, &w->body);
		buf_addf(out, "plan (%lld line%s)", (long long)text_lines(w->body.p, w->body.n),
			 text_lines(w->body.p, w->body.n) == 1 ? "" : "s");
		break;
	case QK_SHELL:
		buf_adds(out, "run shell ");
		t = json_path_any(j, args, "command|cmd");
		if (json_type(j, t) == JSON_STRING) {
			struct buf c = {0};

			json_decode(j, t, &c);
			tool_code_span(out, c.p ? c.p : "", c.n);
			buf_free(&c);
		}
		break;
	default:
		buf_add(out, w->type.p, w->type.n);
		buf_addc(out, ' ');
		telling(j, args, out);
		break;
	}
}

static void
cursor_query(const struct json *aj, const struct json *rj, struct query_words *w)
{
	const struct json *j = aj != NULL ? aj : rj;
	int q, p, t;

	buf_reset(&w->id);
	buf_reset(&w->type);
	buf_reset(&w->what);
	buf_reset(&w->call);
	buf_reset(&w->reason);
	buf_reset(&w->body);
	if (j == NULL)
		return;
	if ((t = json_get(j, 0, "query_type")) >= 0)
		json_decode(j, t, &w->type);
	q = json_get(j, 0, aj != NULL ? "query" : "response");
	if (json_is_value(j, t = json_get(j, q, "id")))
		json_decode(j, t, &w->id);
	if (aj != NULL) {
		p = payload(aj, json_get(aj, 0, "query"));
		t = json_path_any(aj, p, "args.toolCallId|toolCallId");
		if (json_type(aj, t) == JSON_STRING)
			json_decode(aj, t, &w->call);
		query_what(aj, json_get(aj, p, "args"), query_kind(aj), w);
	}
	if (rj != NULL) {
		p = payload(rj, json_get(rj, 0, "response"));
		t = json_path_any(rj, p, "rejected.reason|result.rejected.reason");
		if (json_type(rj, t) == JSON_STRING)
			json_decode(rj, t, &w->reason);
	}
}

static const struct usage_field cursor_usage[] = {
	{"usage.inputTokens", "in", false},
	{"usage.outputTokens", "out", false},
	{"usage.cacheReadTokens", "cache read", true},
	{"usage.cacheWriteTokens", "cache write", true},
	{NULL, NULL, false},
};

const struct agent agent_cursor = {
	.name = "cursor",
	.label = "Cursor Agent",
	.starts = cursor_starts,
	.looks = cursor_looks,
	.time = cursor_time,
	.line = cursor_line,
	.text = cursor_text,
	.text_head = cursor_text_head,
	.load = cursor_load,
	.elem = cursor_elem,
	.tools = cursor_tools,
	.notice = cursor_notice,
	.query = cursor_query,
	.top =
		{
			[TOP_TYPE] = "type",
			[TOP_SUBTYPE] = "subtype",
			[TOP_MS] = "timestamp_ms",
			[TOP_MODEL_CALL] = "model_call_id",
			[TOP_CALL_ID] = "call_id",
			[TOP_TOOL_CALL] = "tool_call",
		},
	.fact =
		{
			[FACT_ID] = "session_id",
			[FACT_MODEL] = "model",
			[FACT_CWD] = "cwd",
			[FACT_MODE] = "permissionMode",
			[FACT_REQUEST] = "request_id",
			[FACT_RESULT] = "result",
			[FACT_USAGE] = "usage",
		},
	.usage = cursor_usage,
	.task_status = "status",
	.mark = "\"init\"",
	/* A token of thinking or of the reply (the first "type" of a line
	 * is what the model reads it as; no call, result or decision is in
	 * such a line): most of a long session. */
	.quiet = {"{\"type\":\"assistant\",", "{\"type\":\"thinking\","},
	.quiet_call = "{\"type\":\"tool_call\",",
	.resume = {"cursor-agent", "--resume"},
	.unnamed = true,
};
