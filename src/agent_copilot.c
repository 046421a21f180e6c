/* agent_copilot.c: GitHub Copilot CLI, both its `-p --output-format json`
 * stream and its own session store, session-state/<id>/events.jsonl
 * (src/FORMAT.md §10.6; ../shared/STORES.md §4): one family of events
 * {type, data, id, timestamp, parentId}.
 *
 * The store's session starts with session.start (its id, model, cwd); the
 * stream's has none and starts with session.skills_loaded, its id only in
 * the last line, {type:"result", sessionId, exitCode, usage}. The reply is
 * assistant.message_delta pieces, then the whole assistant.message (with
 * reasoningText); a call is tool.execution_start and
 * tool.execution_complete by toolCallId; a sub-agent's lines carry
 * data.parentToolCallId, its task call's id. A permission asked
 * (permission.requested) waits until its permission.completed; a
 * session.error says why the run failed; session.shutdown ends a stored
 * session, with its tokens by model. An abort (the CLI killed, or its
 * user's Esc) stops the session there, its open calls never ended; the
 * result a killed CLI may write after it is no clean end. Every line has
 * an ISO timestamp. */
#include "agent.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"

/* Its tools' names (the ones seen, and the CLI's others). */
static const struct agent_tool copilot_tools[] = {
	{"bash", TK_SHELL},
	{"powershell", TK_SHELL},
	{"read_bash", TK_AWAIT},
	{"read_powershell", TK_AWAIT},
	{"view", TK_READ},
	{"edit", TK_EDIT},
	{"str_replace_editor", TK_EDIT},
	{"apply_patch", TK_EDIT},
	{"create", TK_WRITE},
	{"grep", TK_GREP},
	{"rg", TK_GREP},
	{"glob", TK_GLOB},
	{"task", TK_TASK},
	{"web_fetch", TK_WEBFETCH},
	{"web_search", TK_WEBSEARCH},
	{NULL, TK_OTHER},
};

/* Lines of the CLI's bookkeeping: kept, not shown (a prefix ends in
 * '.'). */
static const char *const hidden[] = {
	"session.mcp_servers_loaded",
	"session.tools_updated",
	"session.background_tasks_changed",
	"session.usage_record",
	"session.usage_info",
	"session.model_change",
	"session.title_changed",
	"session.context_changed",
	"session.idle",
	"session.custom_agents_updated",
	"session.extensions_loaded",
	"session.permissions_changed",
	"session.mode_changed",
	"session.workspace_file_changed",
	"system.message",
	"system.notification",
	"assistant.turn_start",
	"assistant.message_start",
	"assistant.tool_call_delta",
	"assistant.streaming_delta",
	"assistant.idle",
	"assistant.usage",
	"assistant.intent",
	"subagent.started",
	"subagent.configured",
	"subagent.completed",
	"subagent.selected",
	"subagent.deselected",
	"tool.shell_output",
	"tool.execution_partial_result",
	"model.",
	"hook.",
	"skill.",
};

/* Whether the line's type is t. */
static bool
is(const struct build *b, const char *t)
{
	return json_streq(b->j, b->k[TOP_TYPE], t);
}

static bool
copilot_starts(const struct json *j, const int *k)
{
	return json_streq(j, k[TOP_TYPE], "session.start") ||
	       json_streq(j, k[TOP_TYPE], "session.skills_loaded");
}

/* A dotted type of its families, with its data beside it: no other
 * agent's lines look so. */
static bool
copilot_looks(const struct json *j, const int *k)
{
	static const char *const families[] = {"session.", "assistant.", "tool.",
					       "user.",    "subagent.",  "permission."};
	size_t n;
	const char *t = json_raw(j, k[TOP_TYPE], &n);

	if (json_type(j, k[TOP_TYPE]) != JSON_STRING || json_get(j, 0, "data") < 0)
		return false;
	for (size_t i = 0; i < ARRAY_LEN(families); i++)
		if (n > strlen(families[i]) && memcmp(t, families[i], strlen(families[i])) == 0)
			return true;
	return false;
}

static int64_t
copilot_time(const struct json *j, const int *k)
{
	return agent_iso_ms(j, k[TOP_ISO]);
}

/* The open session of the line's source, when it is Copilot's and has
 * no end: NONE otherwise. */
static uint32_t
open_session(const struct build *b)
{
	uint32_t s = b->m->src[b->src].session;

	if (s == NONE || b->m->ses[s].agent != b->agent || b->m->ses[s].result_ev != NONE)
		return NONE;
	return s;
}

/* How a call ended: its success, or a command's exit code. */
static enum call_result
call_result(const struct json *j, int data)
{
	int64_t code;
	bool ok = false;
	int err = json_path(j, data, "error.code");

	if (json_int_at(j, data, "shellExecution.exitCode", &code) && code != 0)
		return CR_FAILURE;
	if (!json_bool(j, json_get(j, data, "success"), &ok))
		return CR_EMPTY;
	if (ok)
		return CR_SUCCESS;
	if (json_streq(j, err, "denied") || json_streq(j, err, "rejected"))
		return CR_REJECTED;
	return CR_FAILURE;
}

/* tool.execution_start and tool.execution_complete, by toolCallId. */
static void
tool_event(struct build *b, bool done)
{
	const struct json *j = b->j;
	int data = json_get(j, 0, "data"), name = json_get(j, data, "toolName");
	size_t n;
	const char *raw = json_raw(j, name, &n);
	struct call_ref r = {json_get(j, data, "toolCallId"),
			     TK_OTHER,
			     CR_EMPTY,
			     TIME_NONE,
			     TIME_NONE,
			     false,
			     0};

	if (json_type(j, name) == JSON_STRING)
		r.kind = agent_tool_kind(&agent_copilot, raw, n);
	if (!done) {
		build_call_start(b, &r);
		return;
	}
	r.result = call_result(j, data);
	build_call_done(b, &r);
}

/* Whether token t is a string that is not empty. */
static bool
filled(const struct json *j, int t)
{
	size_t n = 0;

	if (json_type(j, t) != JSON_STRING)
		return false;
	json_raw(j, t, &n);
	return n > 0;
}

/* A whole message: its reasoning, then its text (its calls start with
 * their own lines). */
static void
message(struct build *b)
{
	const struct json *j = b->j;
	int data = json_get(j, 0, "data");
	int think = json_get(j, data, "reasoningText"), text = json_get(j, data, "content");

	if (filled(j, think))
		build_thinking(b, THINK_WHOLE);
	if (filled(j, text))
		build_text(b, TEXT_SEGMENT);
	else if (b->ev == NONE)
		build_hidden(b);
}

/* A permission asked: its request id, the call it is about. */
static void
ask(struct build *b)
{
	const struct json *j = b->j;
	int data = json_get(j, 0, "data"), req = json_get(j, data, "permissionRequest");

	build_ask(b, json_get(j, data, "requestId"), json_get(j, req, "toolCallId"),
		  json_streq(j, json_get(j, req, "kind"), "shell") ? QK_SHELL : QK_OTHER);
}

/* Its answer: approved, or denied (by the user, or by a rule). */
static void
answer(struct build *b)
{
	const struct json *j = b->j;
	int data = json_get(j, 0, "data"), kind = json_path(j, data, "result.kind");
	enum query_decision d = QD_REJECTED;
	size_t n;
	const char *raw = json_raw(j, kind, &n);

	if (json_streq(j, kind, "approved") ||
	    (json_type(j, kind) == JSON_STRING && n >= 8 && memcmp(raw, "approved", 8) == 0))
		d = QD_APPROVED;
	build_answer(b, json_get(j, data, "requestId"), QK_OTHER, d);
}

/* A stored session's tokens, at its shutdown: the sum of its models'
 * (data.modelMetrics.<model>.usage), as ccusage counts them. */
static void
shutdown_tokens(struct build *b)
{
	const struct json *j = b->j;
	int o = json_path(j, 0, "data.modelMetrics"), k = o + 1;
	struct tokens t = {0, 0, 0, 0};
	bool any = false;

	if (json_type(j, o) != JSON_OBJECT)
		return;
	for (int i = 0; i < json_size(j, o); i++, k = json_next(j, k + 1)) {
		int u = json_get(j, k + 1, "usage");
		int64_t v;

		if (json_type(j, u) != JSON_OBJECT)
			continue;
		any = true;
		if (json_int_at(j, u, "inputTokens", &v) && v >= 0 && v <= INT64_MAX - t.in)
			t.in += v;
		if (json_int_at(j, u, "outputTokens", &v) && v >= 0 && v <= INT64_MAX - t.out)
			t.out += v;
		if (json_int_at(j, u, "cacheReadTokens", &v) && v >= 0 &&
		    v <= INT64_MAX - t.cache_read)
			t.cache_read += v;
		if (json_int_at(j, u, "cacheWriteTokens", &v) && v >= 0 &&
		    v <= INT64_MAX - t.cache_write)
			t.cache_write += v;
	}
	if (any)
		build_tokens(b, &t, true);
}

/* The stream's last line, or a stored session's shutdown: the end, failed
 * when the CLI's exit code says so or a session.error came before it. */
static void
end(struct build *b)
{
	const struct json *j = b->j;
	uint32_t s = b->m->src[b->src].session;
	int64_t code = 0, d;
	bool failed = s != NONE && b->m->ses[s].fail_ev != NONE;

	failed |= json_int(j, json_get(j, 0, "exitCode"), &code) && code != 0;
	d = agent_ms(j, json_path(j, 0, "usage.sessionDurationMs"));
	build_result(b, failed, d);
	if (json_get(j, 0, "sessionId") >= 0)
		build_facts(b); /* the stream's id, said only here */
	else
		shutdown_tokens(b);
}

static void
copilot_line(struct build *b)
{
	const struct json *j = b->j;
	int data = json_get(j, 0, "data");
	size_t n;
	const char *t = json_raw(j, b->k[TOP_TYPE], &n);

	build_parent(b, json_get(j, data, "parentToolCallId"));
	if (is(b, "session.start") || is(b, "session.skills_loaded")) {
		/* The stream's first line, in a session begun already. */
		if (is(b, "session.skills_loaded") && open_session(b) != NONE)
			build_hidden(b);
		else
			build_session(b);
	} else if (is(b, "session.resume")) {
		/* A stored session taken up again after its shutdown. */
		if (b->m->src[b->src].session != NONE &&
		    b->m->ses[b->m->src[b->src].session].agent == b->agent)
			build_turn(b);
		else
			build_session(b);
	} else if (is(b, "user.message")) {
		/* A sub-agent's prompt (its lines name their agent) is its
		 * task call's, shown with it. */
		if (json_get(j, 0, "agentId") >= 0) {
			build_hidden(b);
		} else {
			build_prompt(b);
			/* The session goes on past an error it said before. */
			b->m->ses[b->m->src[b->src].session].fail_ev = NONE;
		}
	} else if (is(b, "assistant.message_delta")) {
		build_text(b, TEXT_DELTA);
	} else if (is(b, "assistant.reasoning_delta")) {
		build_thinking(b, THINK_DELTA);
	} else if (is(b, "assistant.reasoning")) {
		build_thinking(b, THINK_WHOLE);
	} else if (is(b, "assistant.message")) {
		message(b);
	} else if (is(b, "tool.execution_start")) {
		tool_event(b, false);
	} else if (is(b, "tool.execution_complete")) {
		tool_event(b, true);
	} else if (is(b, "tool.execution_progress")) {
		build_progress(b, json_get(j, data, "toolCallId"));
	} else if (is(b, "permission.requested")) {
		ask(b);
	} else if (is(b, "permission.completed")) {
		answer(b);
	} else if (is(b, "session.error")) {
		build_notice(b);
		build_failure(b);
	} else if (is(b, "result") && build_stopped(b)) {
		/* Written by a CLI killed after its abort, often with exit
		 * code 0: no clean end, only the stream's id. */
		build_hidden(b);
		build_facts(b);
	} else if (is(b, "result") || is(b, "session.shutdown")) {
		end(b);
	} else if (is(b, "abort")) {
		build_notice(b);
		build_stop(b);
	} else if (is(b, "session.compaction_complete")) {
		build_rule(b);
	} else if (is(b, "session.info") &&
		   (json_streq(j, json_get(j, data, "infoType"), "file_created") ||
		    json_streq(j, json_get(j, data, "infoType"), "cancellation"))) {
		/* The call that made it, or the abort, says so. */
		build_hidden(b);
	} else if (is(b, "assistant.turn_end")) {
		/* A reply streamed without its whole message was cut off. */
		build_segment_end(b);
	} else if (is(b, "assistant.turn_retry")) {
		build_segment_end(b);
		build_notice(b);
	} else {
		for (size_t i = 0; i < ARRAY_LEN(hidden); i++) {
			size_t k = strlen(hidden[i]);

			if (hidden[i][k - 1] == '.' ? n > k && memcmp(t, hidden[i], k) == 0
						    : n == k && memcmp(t, hidden[i], k) == 0) {
				build_hidden(b);
				return;
			}
		}
		build_notice(b);
	}
}

static void
copilot_text(const struct json *j, enum ev_type type, struct buf *out)
{
	bool think = type == EV_THINK_DELTA || type == EV_THINK_DONE;
	int t;

	/* A whole message holds its reasoning and its text. */
	if (think && json_streq(j, json_get(j, 0, "type"), "assistant.message"))
		t = json_path(j, 0, "data.reasoningText");
	else
		t = json_path_typed(j, 0, "data.deltaContent|data.content", JSON_STRING);
	if (json_type(j, t) == JSON_STRING)
		json_decode(j, t, out);
}

/* Where a call's facts are: its start's arguments, its completion's
 * data, and its result there. */
enum { ARGS, DONE, RES };

/* clang-format off */
static const struct fact_row copilot_facts[] = {
	{FACT_ANY_KIND, CALL_ERROR, DONE, "error.message|error"},
	{TK_SHELL, CALL_COMMAND, ARGS, "command"},
	{TK_SHELL, CALL_DESCRIPTION, ARGS, "description"},
	{TK_SHELL, CALL_TIMEOUT_MS, ARGS, "timeout"},
	{TK_READ, CALL_PATH, ARGS, "path"},
	{TK_READ, CALL_CONTENT, RES, "content"},
	{TK_EDIT, CALL_PATH, ARGS, "path"},
	{TK_EDIT, CALL_OLD_TEXT, ARGS, "old_str"},
	{TK_EDIT, CALL_NEW_TEXT, ARGS, "new_str"},
	{TK_EDIT, CALL_DIFF, RES, "detailedContent"},
	{TK_WRITE, CALL_PATH, ARGS, "path"},
	{TK_WRITE, CALL_WRITTEN, ARGS, "file_text"},
	{TK_WRITE, CALL_DIFF, RES, "detailedContent"},
	{TK_GREP, CALL_QUERY, ARGS, "pattern"},
	{TK_GREP, CALL_DIR, ARGS, "path"},
	{TK_GREP, CALL_GLOB, ARGS, "glob"},
	{TK_GREP, CALL_IGNORE_CASE, ARGS, "-i"},
	{TK_GREP, CALL_MODE, ARGS, "output_mode"},
	{TK_GLOB, CALL_QUERY, ARGS, "pattern"},
	{TK_GLOB, CALL_DIR, ARGS, "path"},
	{TK_TASK, CALL_DESCRIPTION, ARGS, "description"},
	{TK_TASK, CALL_SUB_TYPE, ARGS, "agent_type|name"},
	{TK_TASK, CALL_MODEL, ARGS, "model"},
	{TK_TASK, CALL_PROMPT, ARGS, "prompt"},
	{TK_TASK, CALL_ANSWER, RES, "content"},
	{TK_AWAIT, CALL_TASK_ID, ARGS, "shellId"},
	{TK_WEBFETCH, CALL_URL, ARGS, "url"},
	{TK_WEBSEARCH, CALL_QUERY, ARGS, "query"},
};
/* clang-format on */

/* What a command gave, without the line the CLI adds at its end
 * ("\n<shellId: 0 completed with exit code 0>"). */
static void
shell_text(const struct json *j, int t, struct call_facts *v)
{
	static const char mark[] = "\n<shellId: ";
	struct buf s = {0};
	size_t i;

	if (json_type(j, t) != JSON_STRING)
		return;
	json_decode(j, t, &s);
	call_set(v, CALL_TEXT, j, t);
	for (i = s.n; i > 0 && s.n > 0 && s.p[s.n - 1] == '>'; i--)
		if (i + sizeof mark - 1 <= s.n && memcmp(s.p + i - 1, mark, sizeof mark - 1) == 0 &&
		    memchr(s.p + i, '\n', s.n - i) == NULL && s.n - i + 1 < UINT32_MAX) {
			call_set_part(v, CALL_TEXT, j, t, 0, (uint32_t)(s.n - i + 1));
			break;
		}
	buf_free(&s);
}

/* A view's lines: its view_range [first, last] (last -1: to the end). */
static void
view_range(struct fact_place args, struct call_facts *v)
{
	int r = json_get(args.j, args.t, "view_range");
	int64_t a, z;

	if (json_type(args.j, r) != JSON_ARRAY || json_size(args.j, r) != 2 ||
	    !json_int(args.j, r + 1, &a) || !json_int(args.j, json_next(args.j, r + 1), &z))
		return;
	if (a > 0)
		call_set_number(v, CALL_FIRST_LINE, a);
	if (z >= a && a > 0)
		call_set_number(v, CALL_LAST_LINE, z);
}

static void
copilot_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	     struct call_facts *v)
{
	int sd = json_get(sj, 0, "data"), dd = json_get(dj, 0, "data");
	int64_t code;

	(void)m;
	(void)c;
	v->rows = copilot_facts;
	v->nrows = ARRAY_LEN(copilot_facts);
	if (sd >= 0) {
		v->place[ARGS] = (struct fact_place){sj, json_get(sj, sd, "arguments")};
		call_set(v, CALL_ID, sj, json_get(sj, sd, "toolCallId"));
		call_set(v, CALL_NAME, sj, json_get(sj, sd, "toolName"));
		call_set(v, CALL_ARGS, sj, v->place[ARGS].t);
		if (v->kind == TK_READ)
			view_range(v->place[ARGS], v);
	}
	if (dd < 0)
		return;
	v->place[DONE] = (struct fact_place){dj, dd};
	v->place[RES] = (struct fact_place){dj, json_get(dj, dd, "result")};
	if (sd < 0)
		call_set(v, CALL_ID, dj, json_get(dj, dd, "toolCallId"));
	call_set(v, CALL_RESULT, dj, dd);
	call_set(v, CALL_PAYLOAD, dj, dd);
	if (v->kind == TK_SHELL)
		shell_text(dj, json_path(dj, dd, "result.content"), v);
	else
		call_set(v, CALL_TEXT, dj, json_path(dj, dd, "result.content"));
	/* Said only when not 0, as the other agents' are. */
	if (json_int_at(dj, dd, "shellExecution.exitCode", &code) && code != 0)
		call_set_number(v, CALL_EXIT, code);
	if (v->kind == TK_WRITE)
		call_set_number(v, CALL_CREATED, 1);
}

static bool
copilot_elem(enum fact_list l, const struct json *j, int t, struct elem_facts *e)
{
	if (l == FL_PARTS && agent_elem_string(j, t, EL_TEXT, e))
		return true;
	if (json_type(j, t) != JSON_OBJECT || (l != FL_PARTS && l != FL_CONTENT))
		return false;
	elem_find(e, EL_TEXT, j, t, "text");
	return true;
}

/* A permission asked for, and its answer. */
static void
copilot_query(const struct json *aj, const struct json *rj, struct query_words *w)
{
	const struct json *j = aj != NULL ? aj : rj;
	int d, req, t;

	buf_reset(&w->id);
	buf_reset(&w->type);
	buf_reset(&w->what);
	buf_reset(&w->call);
	buf_reset(&w->reason);
	buf_reset(&w->body);
	if (j == NULL)
		return;
	d = json_get(j, 0, "data");
	if (json_is_value(j, t = json_get(j, d, "requestId")))
		json_decode(j, t, &w->id);
	if (aj != NULL) {
		req = json_get(aj, json_get(aj, 0, "data"), "permissionRequest");
		if (json_type(aj, t = json_get(aj, req, "kind")) == JSON_STRING)
			json_decode(aj, t, &w->type);
		if (json_type(aj, t = json_get(aj, req, "toolCallId")) == JSON_STRING)
			json_decode(aj, t, &w->call);
		if (json_streq(aj, json_get(aj, req, "kind"), "shell") &&
		    json_type(aj, t = json_get(aj, req, "fullCommandText")) == JSON_STRING) {
			struct buf cmd = {0};

			json_decode(aj, t, &cmd);
			buf_adds(&w->what, "run shell ");
			tool_code_span(&w->what, cmd.p != NULL ? cmd.p : "", cmd.n);
			buf_free(&cmd);
		} else if (!agent_say(aj, "", "data.permissionRequest.intention", &w->what)) {
			buf_add(&w->what, w->type.p, w->type.n);
		}
	}
	if (rj != NULL && !json_streq(rj, json_path(rj, 0, "data.result.kind"), "approved"))
		agent_say(rj, "", "data.result.kind", &w->reason);
}

/* A word of the CLI's ("rate_limit") as people read it. */
static void
words_of(const struct json *j, int t, struct buf *out)
{
	size_t from = out->n;

	json_decode(j, t, out);
	for (size_t i = from; i < out->n; i++)
		if (out->p[i] == '_')
			out->p[i] = ' ';
}

/* Errors, warnings, retries, what the CLI says, in words. */
static bool
copilot_notice(const struct json *j, struct buf *out)
{
	int type = json_get(j, 0, "type"), d = json_get(j, 0, "data"), t;

	if (json_streq(j, type, "session.error"))
		return agent_say(j, "error: ", "data.message", out);
	if (json_streq(j, type, "session.warning"))
		return agent_say(j, "warning: ", "data.message", out);
	if (json_streq(j, type, "session.info"))
		return agent_say(j, "", "data.message", out);
	if (json_streq(j, type, "tool.execution_progress"))
		return agent_say(j, "", "data.progressMessage", out);
	if (json_streq(j, type, "subagent.failed"))
		return agent_say(j, "sub-agent failed: ", "data.error", out);
	if (json_streq(j, type, "session.compaction_start")) {
		buf_adds(out, "compacting the conversation");
		return true;
	}
	if (json_streq(j, type, "session.compaction_complete")) {
		buf_adds(out, "conversation compacted");
		agent_say(j, ": ", "data.error|data.failureReason", out);
		return true;
	}
	if (json_streq(j, type, "assistant.turn_retry")) {
		static const char *const why[][2] = {
			{"api_error", "API error"},
			{"rate_limit", "rate limited"},
			{"streaming_error", "the reply's stream broke"},
		};

		t = json_get(j, d, "reason");
		for (size_t i = 0; i < ARRAY_LEN(why); i++)
			if (json_streq(j, t, why[i][0])) {
				buf_addf(out, "%s, retrying", why[i][1]);
				return true;
			}
		buf_adds(out, "retrying");
		if (json_type(j, t) == JSON_STRING) {
			buf_adds(out, ": ");
			words_of(j, t, out);
		}
		return true;
	}
	if (json_streq(j, type, "abort")) {
		buf_adds(out, "aborted");
		if (json_type(j, t = json_get(j, d, "reason")) == JSON_STRING) {
			buf_adds(out, ": ");
			words_of(j, t, out);
		}
		return true;
	}
	if (json_streq(j, type, "agent.interrupted")) {
		buf_adds(out, "interrupted");
		if (json_type(j, t = json_get(j, d, "activity")) == JSON_STRING) {
			buf_adds(out, " during ");
			words_of(j, t, out);
		}
		return true;
	}
	return false;
}

/* Its tokens are the store's shutdown's, by model (shutdown_tokens); the
 * stream has none. */
static const struct usage_field copilot_usage[] = {
	{NULL, NULL, false},
};

const struct agent agent_copilot = {
	.name = "copilot",
	.label = "Copilot CLI",
	.starts = copilot_starts,
	.looks = copilot_looks,
	.time = copilot_time,
	.line = copilot_line,
	.text = copilot_text,
	.load = copilot_load,
	.elem = copilot_elem,
	.query = copilot_query,
	.tools = copilot_tools,
	.notice = copilot_notice,
	.usage = copilot_usage,
	.top = {[TOP_TYPE] = "type", [TOP_ISO] = "timestamp"},
	.fact =
		{
			/* The store's start says it; the stream's end. */
			[FACT_ID] = "data.sessionId|sessionId",
			[FACT_MODEL] = "data.selectedModel",
			[FACT_CWD] = "data.context.cwd",
		},
	.mark = "\"session.",
	.quiet = {"{\"type\":\"assistant.message_delta\",",
		  "{\"type\":\"session.background_tasks_changed\","},
	.resume = {"copilot", "--resume"},
};

/* The most of a workspace.yaml read (its real ones are some 300 bytes). */
#define WORKSPACE_MAX (64 * 1024)

/* The value of line p[0..n) when it is `key: value` at the left margin,
 * in out; *block: the value is a block scalar (| or >) whose lines come
 * next. False when the line is not key's. */
static bool
workspace_line(const char *p, size_t n, const char *key, struct buf *out, bool *block)
{
	size_t k = strlen(key), a, z;

	if (n <= k || memcmp(p, key, k) != 0 || p[k] != ':')
		return false;
	for (a = k + 1; a < n && (p[a] == ' ' || p[a] == '\t'); a++)
		;
	for (z = n; z > a && (p[z - 1] == ' ' || p[z - 1] == '\t' || p[z - 1] == '\r'); z--)
		;
	*block = z > a && (p[a] == '|' || p[a] == '>');
	/* A quoted scalar: its quotes off, nothing else undone. */
	if (z - a >= 2 && (p[a] == '"' || p[a] == '\'') && p[z - 1] == p[a]) {
		a++;
		z--;
	}
	if (!*block)
		buf_add(out, p + a, z - a);
	return true;
}

bool
agent_copilot_workspace(const char *path, const char *key, struct buf *out)
{
	char *text = xmalloc(WORKSPACE_MAX);
	size_t n = 0, i, e, mark = out->n;
	ssize_t got;
	bool found = false, block = false;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		free(text);
		return false;
	}
	while (n < WORKSPACE_MAX &&
	       ((got = read(fd, text + n, WORKSPACE_MAX - n)) > 0 || (got < 0 && errno == EINTR)))
		n += got > 0 ? (size_t)got : 0;
	close(fd);
	for (i = 0; i < n && !found; i = e + 1) {
		for (e = i; e < n && text[e] != '\n'; e++)
			;
		found = workspace_line(text + i, e - i, key, out, &block);
	}
	/* A block scalar: its indented lines, one space between. */
	for (; found && block && i < n && (text[i] == ' ' || text[i] == '\t'); i = e + 1) {
		size_t a = i;

		for (e = i; e < n && text[e] != '\n'; e++)
			;
		while (a < e && (text[a] == ' ' || text[a] == '\t'))
			a++;
		buf_adds(out, out->n > mark ? " " : "");
		buf_add(out, text + a, e - a - (e > a && text[e - 1] == '\r'));
	}
	free(text);
	if (!found || out->n == mark) {
		buf_cut(out, mark);
		return false;
	}
	return true;
}
