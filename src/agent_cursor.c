/* agent_cursor.c: Cursor Agent CLI's stream-json (src/FORMAT.md §2-§9):
 * system/init starts a session; user, thinking, assistant (deltas, whole
 * segments and recaps, §4), tool_call started/completed by call_id with
 * the call in the key of `tool_call` that ends in "ToolCall" (§3), result;
 * everything else is a notice. */
#include "agent.h"

#include <string.h>

#include "json.h"

static bool
cursor_starts(const struct json *j, const int *k)
{
	return json_streq(j, k[TOP_TYPE], "system") &&
	       json_streq(j, k[TOP_SUBTYPE], "init");
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
	return agent_ms(j, k[TOP_TS]);
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

/* A tool_call event's call: its call_id (or the toolCallId beside the
 * kind), its kind, its own clock, and for a completion how it ended. */
static void
tool_event(struct build *b, bool done)
{
	const struct json *j = b->j;
	int tc = b->k[TOP_TOOL_CALL], name = -1, obj = -1;
	struct call_ref r = {b->k[TOP_CALL_ID], TK_OTHER, CR_EMPTY, TIME_NONE,
			     TIME_NONE, false, 0};

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

		r.kind = tool_kind_of(raw, n);
		r.result = call_result_of(j, obj);
		r.has_args = json_get(j, obj, "args") >= 0;
	}
	if (done)
		build_call_done(b, &r);
	else
		build_call_start(b, &r);
}

static void
cursor_line(struct build *b)
{
	const struct json *j = b->j;
	const int *k = b->k;
	bool is_error = false;

	switch (cursor_classify(j, k)) {
	case EV_INIT:
		build_session(b, AGENT_CURSOR);
		break;
	case EV_USER:
		build_prompt(b);
		break;
	case EV_THINK_DELTA:
	case EV_THINK_DONE:
		build_thinking(b, json_streq(j, k[TOP_SUBTYPE], "completed")
					  ? THINK_DONE
					  : THINK_DELTA);
		break;
	case EV_TEXT_DELTA:
		/* A delta has timestamp_ms and no model_call_id (§4). */
		build_text(b, k[TOP_TS] >= 0 && k[TOP_MODEL_CALL] < 0
					  ? TEXT_DELTA
					  : TEXT_SEGMENT);
		break;
	case EV_TOOL_START:
	case EV_TOOL_DONE:
		tool_event(b, json_streq(j, k[TOP_SUBTYPE], "completed"));
		break;
	case EV_RESULT:
		json_bool(j, json_get(j, 0, "is_error"), &is_error);
		build_result(b, is_error,
			     agent_ms(j, json_get(j, 0, "duration_ms")));
		break;
	default:
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
cursor_load(const struct model *m, uint32_t c, const struct json *sj,
	    const struct json *dj, struct callview *v)
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
		if (json_type(dj, v->result) == JSON_OBJECT &&
		    json_size(dj, v->result) > 0) {
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

	if (json_streq(j, type, "connection") &&
	    json_streq(j, sub, "reconnecting")) {
		buf_adds(out, "connection lost, reconnecting");
		add_attempt(j, out);
	} else if (json_streq(j, type, "connection") &&
		   json_streq(j, sub, "reconnected")) {
		buf_adds(out, "connection restored");
	} else if (json_streq(j, type, "retry") &&
		   json_streq(j, sub, "starting")) {
		buf_adds(out, "retrying");
		if (json_bool(j, json_get(j, 0, "is_resume"), &resume) && resume)
			buf_adds(out, ", resuming");
		add_attempt(j, out);
	} else if (json_streq(j, type, "retry") &&
		   json_streq(j, sub, "resuming")) {
		buf_adds(out, "resuming");
		if (json_int(j, json_get(j, 0, "checkpoint_turn_count"), &v))
			buf_addf(out, " from checkpoint turn %lld", (long long)v);
		add_attempt(j, out);
	} else if (json_streq(j, type, "system") &&
		   json_streq(j, sub, "task_notification")) {
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
	.load = cursor_load,
	.notice = cursor_notice,
	.fact = {
		[FACT_ID] = "session_id",
		[FACT_MODEL] = "model",
		[FACT_CWD] = "cwd",
		[FACT_MODE] = "permissionMode",
		[FACT_REQUEST] = "request_id",
		[FACT_RESULT] = "result",
		[FACT_USAGE] = "usage",
	},
	.usage = cursor_usage,
};
