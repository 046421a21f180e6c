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
			build_task_end(b, json_get(j, 0, "task_id"), task_result(j));
		else
			build_notice(b);
		break;
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
	agent_message_text(j, out);
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
	agent_message_text(j, out);
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

/* The arguments come from the completed event when it has them, else
 * from the started one (§3: a completion may leave them out). */
static void
cursor_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	    struct callview *v)
{
	int sobj = -1, dobj = -1, sname = -1, dname = -1;

	(void)m;
	(void)c;
	v->ij = sj != NULL ? sj : dj;
	if (v->ij != NULL)
		v->id = cursor_id(v->ij);
	if (sj != NULL && (sobj = tool_object(sj, -1, &sname)) < 0)
		sj = NULL;
	if (dj != NULL && (dobj = tool_object(dj, -1, &dname)) < 0)
		dj = NULL;
	if (dj != NULL) {
		v->rj = dj;
		v->result = json_get(dj, dobj, "result");
		if (json_type(dj, v->result) == JSON_OBJECT && json_size(dj, v->result) > 0) {
			v->varkey = v->result + 1;
			v->var = v->result + 2;
		}
		v->nj = dj;
		v->name = dname;
	}
	if (dj != NULL && json_get(dj, dobj, "args") >= 0) {
		v->aj = dj;
		v->holder = dobj;
	} else if (sj != NULL) {
		v->aj = sj;
		v->holder = sobj;
		v->nj = sj;
		v->name = sname;
	}
	if (v->aj != NULL)
		v->args = json_get(v->aj, v->holder, "args");
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
	.mark = "\"init\"",
	/* A token of thinking or of the reply (the first "type" of a line
	 * is what the model reads it as; no call, result or decision is in
	 * such a line): most of a long session. */
	.quiet = {"{\"type\":\"assistant\",", "{\"type\":\"thinking\","},
	.quiet_call = "{\"type\":\"tool_call\",",
	.resume = {"cursor-agent", "--resume"},
	.unnamed = true,
};
