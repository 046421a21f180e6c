/* agent_codex_rollout.c: Codex's own session store, its rollout files
 * (sessions/YYYY/MM/DD/rollout-*.jsonl, ../shared/STORES.md §2). Each line
 * is {timestamp, type, payload}: session_meta starts a session;
 * response_item holds the model's history (its function_call,
 * custom_tool_call and local_shell_call start the calls, paired by call_id
 * with their output); event_msg the events: task_started and
 * task_complete (or turn_aborted) bound each turn, item_completed (0.17x)
 * or the older user_message, agent_message, agent_reasoning,
 * exec_command_end and patch_apply_end say the prompt, the reply, the
 * thinking and how each call ended, with its real start and end times;
 * token_count the tokens so far. The messages of response_item repeat
 * what the events say (and the CLI's own context): kept, not shown. */
#include "agent.h"

#include <string.h>

#include "json.h"

/* Its tools: function_call names, and the item types of a call that
 * never started (a command the user ran). */
static const struct agent_tool rollout_tools[] = {
	{"exec_command", TK_SHELL},
	{"shell", TK_SHELL},
	{"local_shell", TK_SHELL},
	{"container.exec", TK_SHELL},
	{"CommandExecution", TK_SHELL},
	{"apply_patch", TK_EDIT},
	{"FileChange", TK_EDIT},
	{"update_plan", TK_TODOS},
	{"view_image", TK_READ},
	{"web_search", TK_WEBSEARCH},
	{"mcp__*", TK_MCP},
	{NULL, TK_OTHER},
};

/* The records that are only the CLI's context (its state, settings and
 * usage books, and the history the events say again: messages and
 * reasoning, the instructions it sends with each turn), as each begins
 * after its timestamp and ordinal: hidden without being parsed. */
static const struct agent_lit books[] = {
	AGENT_LIT("\"type\":\"world_state\""),
	AGENT_LIT("\"type\":\"turn_context\""),
	AGENT_LIT("\"type\":\"token_usage_record\""),
	AGENT_LIT("\"type\":\"response_item\",\"payload\":{\"type\":\"message\""),
	AGENT_LIT("\"type\":\"response_item\",\"payload\":{\"type\":\"reasoning\""),
	AGENT_LIT("\"type\":\"event_msg\",\"payload\":{\"type\":\"thread_settings_applied\""),
};

/* Where the record's type begins in {"timestamp":"2026-11-27T09:34:16.977Z",
 * "ordinal":2,"type":... as the CLI writes it (ordinal since 0.17x); 0
 * for anything else, which is parsed. */
static size_t
after_stamp(const char *p, size_t n)
{
	static const char ts[] = "{\"timestamp\":\"", ord[] = "\"ordinal\":";
	size_t i = sizeof ts - 1;
	const char *q;

	/* The timestamp's closing quote, before the 48th byte. */
	if (n < i + 64 || memcmp(p, ts, i) != 0 || (q = memchr(p + i, '"', 48 - i)) == NULL ||
	    q[1] != ',')
		return 0;
	i = (size_t)(q - p) + 2;
	if (memcmp(p + i, ord, sizeof ord - 1) == 0) {
		i += sizeof ord - 1;
		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
		if (i == n || p[i] != ',')
			return 0;
		i++;
	}
	return i;
}

static bool
rollout_skip(const char *p, size_t n)
{
	size_t i = after_stamp(p, n);

	return i > 0 && agent_begins_any(p + i, n - i, books, ARRAY_LEN(books));
}

/* The tokens so far: cumulative, so the session list reads only the last
 * of them in what it reads (the row's tokens). */
static enum line_quiet
rollout_quiet(const char *p, size_t n)
{
	static const char tc[] = "\"type\":\"event_msg\",\"payload\":{\"type\":\"token_count\"";
	size_t i = after_stamp(p, n);

	return i > 0 && n - i >= sizeof tc - 1 && memcmp(p + i, tc, sizeof tc - 1) == 0
		       ? LINE_TOTALS
		       : LINE_HEARD;
}

/* The time of a line it skips: its timestamp, the first member. */
static int64_t
rollout_skip_ms(const char *p, size_t n)
{
	const char *q;

	if (n < 16 || (q = memchr(p + 14, '"', n - 14 < 48 ? n - 14 : 48)) == NULL)
		return TIME_NONE;
	return agent_iso_raw_ms(p + 14, (size_t)(q - p - 14));
}

static bool
rollout_starts(const struct json *j, const int *k)
{
	return json_streq(j, k[TOP_TYPE], "session_meta");
}

static bool
rollout_looks(const struct json *j, const int *k)
{
	int t = k[TOP_TYPE];

	return k[TOP_ISO] >= 0 && json_type(j, json_get(j, 0, "payload")) == JSON_OBJECT &&
	       (json_streq(j, t, "response_item") || json_streq(j, t, "event_msg") ||
		json_streq(j, t, "turn_context"));
}

static int64_t
rollout_time(const struct json *j, const int *k)
{
	return agent_iso_ms(j, k[TOP_ISO]);
}

/* How a command or a change ended: its status, its exit code, or (a
 * patch's end) whether it succeeded. */
static enum call_result
ended(const struct json *j, int o)
{
	int st = json_get(j, o, "status");
	int64_t code;
	bool ok;

	if (json_int(j, json_get(j, o, "exit_code"), &code) && code != 0)
		return CR_FAILURE;
	if (json_bool(j, json_get(j, o, "success"), &ok))
		return ok ? CR_SUCCESS : CR_FAILURE;
	if (st < 0 || json_streq(j, st, "completed"))
		return CR_SUCCESS;
	if (json_streq(j, st, "failed"))
		return CR_FAILURE;
	if (json_streq(j, st, "declined"))
		return CR_REJECTED;
	return CR_OTHER;
}

/* A line that says how call id ended: it ends the call while it is open;
 * one already ended says it again (the output the model read after the
 * item), kept but not shown; one that never started is shown alone. */
static void
call_end(struct build *b, int id, enum tool_kind kind, enum call_result r, int at)
{
	const struct json *j = b->j;
	struct call_ref ref = {id, kind, r, TIME_NONE, TIME_NONE, false, 0};

	if (!build_call_open(b, id) && build_call_kind(b, id) >= 0) {
		build_hidden(b);
		return;
	}
	if (at >= 0) {
		ref.started_ms = agent_ms(j, json_get(j, at, "started_at_ms"));
		ref.completed_ms = agent_ms(j, json_get(j, at, "completed_at_ms"));
	}
	build_call_done(b, &ref);
}

/* A call starts (the model's function_call, custom_tool_call,
 * local_shell_call), or a web search is made and done at once. */
static void
call_begin(struct build *b, int p, bool whole)
{
	const struct json *j = b->j;
	int name = json_get(j, p, "name");
	size_t n;
	const char *raw = json_raw(j, name, &n);
	struct call_ref r = {json_path_typed(j, p, "call_id|id", JSON_STRING),
			     TK_OTHER,
			     CR_SUCCESS,
			     TIME_NONE,
			     TIME_NONE,
			     false,
			     0};

	if (json_type(j, name) == JSON_STRING)
		r.kind = agent_tool_kind(&agent_codex_rollout, raw, n);
	else if (json_streq(j, json_get(j, p, "type"), "local_shell_call"))
		r.kind = TK_SHELL;
	else if (json_streq(j, json_get(j, p, "type"), "web_search_call"))
		r.kind = TK_WEBSEARCH;
	if (build_call_kind(b, r.id) >= 0) {
		build_hidden(b); /* written again */
		return;
	}
	build_call_start(b, &r);
	if (whole) {
		r.result = ended(j, p);
		build_call_done(b, &r);
	}
}

static void
response_item(struct build *b, int p)
{
	const struct json *j = b->j;
	int t = json_get(j, p, "type");
	const char *out;
	size_t n;

	if (json_streq(j, t, "function_call") || json_streq(j, t, "custom_tool_call") ||
	    json_streq(j, t, "local_shell_call")) {
		call_begin(b, p, false);
	} else if (json_streq(j, t, "web_search_call")) {
		call_begin(b, p, true);
	} else if (json_streq(j, t, "function_call_output") ||
		   json_streq(j, t, "custom_tool_call_output")) {
		/* A call cancelled at its approval: "aborted by user". */
		out = json_raw(j, json_get(j, p, "output"), &n);
		call_end(b, json_get(j, p, "call_id"), TK_OTHER,
			 n >= 7 && memcmp(out, "aborted", 7) == 0 ? CR_REJECTED : CR_SUCCESS, -1);
	} else {
		/* Messages and reasoning: the events say them. */
		build_hidden(b);
	}
}

/* The session's tokens so far: Codex counts cached input inside the
 * input, and reasoning inside the output. */
static bool
tokens(struct build *b, int p)
{
	const struct json *j = b->j;
	int u = json_path(j, p, "info.total_token_usage");
	struct tokens t = {0, 0, 0, 0};

	if (json_type(j, u) != JSON_OBJECT || !json_int_at(j, u, "input_tokens", &t.in) ||
	    !json_int_at(j, u, "output_tokens", &t.out))
		return false;
	json_int_at(j, u, "cached_input_tokens", &t.cache_read);
	json_int_at(j, u, "cache_write_input_tokens", &t.cache_write);
	if (t.in < 0 || t.out < 0 || t.cache_read < 0 || t.cache_write < 0)
		return false;
	t.in = t.in >= t.cache_read ? t.in - t.cache_read : 0;
	build_tokens(b, &t, true);
	return true;
}

/* An item done (0.17x): the prompt, a reply, thinking, a command's or a
 * change's end, the conversation compacted. */
static void
item_completed(struct build *b, int p)
{
	const struct json *j = b->j;
	int item = json_get(j, p, "item"), t = json_get(j, item, "type");

	if (json_streq(j, t, "UserMessage"))
		build_prompt(b);
	else if (json_streq(j, t, "AgentMessage"))
		build_text(b, TEXT_MESSAGE);
	else if (json_streq(j, t, "Reasoning"))
		build_thinking(b, THINK_WHOLE);
	else if (json_streq(j, t, "CommandExecution"))
		call_end(b, json_get(j, item, "id"), TK_SHELL, ended(j, item), p);
	else if (json_streq(j, t, "FileChange"))
		call_end(b, json_get(j, item, "id"), TK_EDIT, ended(j, item), p);
	else if (json_streq(j, t, "ContextCompaction"))
		build_rule(b);
	else if (build_call_open(b, json_get(j, item, "id")))
		call_end(b, json_get(j, item, "id"), TK_OTHER, ended(j, item), p);
	else
		build_notice(b);
}

/* The event_msg types that are bookkeeping, or say again what another
 * line says. */
static const char *const quiet_events[] = {
	"thread_settings_applied",
	"exec_command_begin",
	"patch_apply_begin",
	"agent_reasoning_raw_content",
	"agent_reasoning_section_break",
	"mcp_tool_call_begin",
	"web_search_begin",
	"turn_diff",
	"get_history_entry_response",
	"mcp_list_tools_response",
	"list_custom_prompts_response",
	"user_message_context",
	"entered_review_mode",
	"exited_review_mode",
	"item_started",
	"context_compacted",
	"plan_update",
};

static void
event_msg(struct build *b, int p)
{
	const struct json *j = b->j;
	int t = json_get(j, p, "type");
	bool failed;
	uint32_t s;

	if (json_streq(j, t, "task_started")) {
		/* Another turn of the session: it goes on until its end. */
		s = b->m->src[b->src].session;
		if (s != NONE && b->m->ses[s].nresults > 0)
			build_turn(b);
		else
			build_hidden(b);
	} else if (json_streq(j, t, "task_complete")) {
		/* Why it failed, whole, before the line that ends it. */
		failed = json_type(j, json_get(j, p, "error")) == JSON_OBJECT;
		if (failed)
			build_notice(b);
		build_result(b, failed, agent_ms(j, json_get(j, p, "duration_ms")));
	} else if (json_streq(j, t, "turn_aborted")) {
		build_notice(b);
		build_result(b, false, agent_ms(j, json_get(j, p, "duration_ms")));
	} else if (json_streq(j, t, "item_completed")) {
		item_completed(b, p);
	} else if (json_streq(j, t, "token_count")) {
		build_hidden(b);
		tokens(b, p);
	} else if (json_streq(j, t, "user_message")) {
		build_prompt(b);
	} else if (json_streq(j, t, "agent_message")) {
		build_text(b, TEXT_MESSAGE);
	} else if (json_streq(j, t, "agent_reasoning")) {
		build_thinking(b, THINK_WHOLE);
	} else if (json_streq(j, t, "exec_command_end")) {
		call_end(b, json_get(j, p, "call_id"), TK_SHELL, ended(j, p), -1);
	} else if (json_streq(j, t, "patch_apply_end")) {
		call_end(b, json_get(j, p, "call_id"), TK_EDIT, ended(j, p), -1);
	} else {
		for (size_t i = 0; i < ARRAY_LEN(quiet_events); i++)
			if (json_streq(j, t, quiet_events[i])) {
				build_hidden(b);
				return;
			}
		build_notice(b);
	}
}

/* A token_count read late: what rollout_line makes of it. */
static bool
rollout_totals(struct build *b)
{
	const struct json *j = b->j;
	int p = json_get(j, 0, "payload");

	return json_streq(j, b->k[TOP_TYPE], "event_msg") && json_type(j, p) == JSON_OBJECT &&
	       json_streq(j, json_get(j, p, "type"), "token_count") && tokens(b, p);
}

static void
rollout_line(struct build *b)
{
	const struct json *j = b->j;
	int t = b->k[TOP_TYPE], p = json_get(j, 0, "payload");

	if (json_streq(j, t, "session_meta"))
		build_session(b);
	else if (json_type(j, p) != JSON_OBJECT)
		build_notice(b);
	else if (json_streq(j, t, "response_item"))
		response_item(b, p);
	else if (json_streq(j, t, "event_msg"))
		event_msg(b, p);
	else if (json_streq(j, t, "compacted"))
		build_rule(b);
	else if (json_streq(j, t, "turn_context") || json_streq(j, t, "world_state") ||
		 json_streq(j, t, "token_usage_record"))
		build_hidden(b);
	else
		build_notice(b);
}

/* Append the texts of the array at t: its strings, or its elements'
 * "text", one paragraph each. */
static void
texts(const struct json *j, int t, struct buf *out)
{
	int n = json_size(j, t), c = t + 1;
	size_t from = out->n;

	if (json_type(j, t) == JSON_STRING) {
		json_decode(j, t, out);
		return;
	}
	if (json_type(j, t) != JSON_ARRAY)
		return;
	for (int i = 0; i < n; i++, c = json_next(j, c)) {
		int s = json_type(j, c) == JSON_OBJECT ? json_get(j, c, "text") : c;

		if (json_type(j, s) != JSON_STRING)
			continue;
		if (out->n > from)
			buf_adds(out, "\n\n");
		json_decode(j, s, out);
	}
}

static void
rollout_text(const struct json *j, enum ev_type type, struct buf *out)
{
	int item = json_path(j, 0, "payload.item");

	if (item >= 0)
		texts(j,
		      json_path_any(j, item,
				    type == EV_THINK_DONE ? "summary_text|summary|content"
							  : "content"),
		      out);
	else
		texts(j, json_path_any(j, 0, "payload.message|payload.text"), out);
}

/* Where a call's facts are: what the model asked (its arguments, or a
 * patch's input), and how it ended (the item, the end event, or the
 * output the model read). */
enum { ASK, DONE };

/* clang-format off */
static const struct fact_row rollout_facts[] = {
	{TK_SHELL, CALL_TEXT, DONE, "aggregated_output|stdout|formatted_output|output"},
	{TK_SHELL, CALL_STDERR, DONE, "stderr"},
	{TK_EDIT, CALL_PATCH, ASK, "input"},
	{TK_EDIT, CALL_TEXT, DONE, "stdout|output"},
	{TK_WRITE, CALL_PATCH, ASK, "input"},
	{TK_WEBSEARCH, CALL_QUERY, ASK, "action.query|action.queries.0"},
	{FACT_ANY_KIND, CALL_TEXT, DONE, "output"},
};
/* clang-format on */

/* A command sent as an array ([bash, -lc, "echo hello"]): the one people
 * read is its last element after a shell's -c; else its first. */
static void
command(const struct json *j, int cmd, struct call_facts *v)
{
	int n = json_size(j, cmd), c = cmd + 1, last = -1, flag = -1;

	if (json_type(j, cmd) == JSON_STRING) {
		call_set(v, CALL_COMMAND, j, cmd);
		return;
	}
	if (json_type(j, cmd) != JSON_ARRAY || n == 0)
		return;
	for (int i = 0; i < n; i++, c = json_next(j, c)) {
		if (json_streq(j, c, "-lc") || json_streq(j, c, "-c"))
			flag = i;
		last = c;
	}
	call_set(v, CALL_COMMAND, j, flag == n - 2 ? last : cmd + 1);
	call_set(v, CALL_COMMAND_SENT, j, cmd);
}

/* The lines a unified diff adds and removes (its +++ and --- heads not
 * counted), or a new file's text adds. */
static void
count_lines(const struct json *j, int t, bool diff, int64_t *add, int64_t *del)
{
	struct buf s = {0};
	size_t i = 0;

	json_decode(j, t, &s);
	while (i < s.n) {
		const char *l = s.p + i, *nl = memchr(l, '\n', s.n - i);
		size_t len = nl != NULL ? (size_t)(nl - l) : s.n - i;

		if (!diff)
			++*add;
		else if (len > 0 && l[0] == '+' && !(len >= 3 && memcmp(l, "+++", 3) == 0))
			++*add;
		else if (len > 0 && l[0] == '-' && !(len >= 3 && memcmp(l, "---", 3) == 0))
			++*del;
		i += len + 1;
	}
	buf_free(&s);
}

/* A change's files, an object by path: the first, how many more, its diff
 * or the text a new file got; the lines all of them add and remove. */
static void
changes(const struct json *j, int cs, struct call_facts *v)
{
	int n = json_size(j, cs), key = cs + 1, d;
	int64_t add = 0, del = 0;

	if (json_type(j, cs) != JSON_OBJECT || n == 0)
		return;
	call_set(v, CALL_PATH, j, key);
	if (n > 1)
		call_set_number(v, CALL_MORE, n - 1);
	for (int i = 0; i < n; i++, key = json_next(j, key + 1)) {
		int ch = key + 1;

		if (json_type(j, ch) != JSON_OBJECT)
			continue;
		if ((d = json_get(j, ch, "unified_diff")) >= 0) {
			if (i == 0)
				call_set(v, CALL_DIFF, j, d);
			count_lines(j, d, true, &add, &del);
		} else if ((d = json_get(j, ch, "content")) >= 0) {
			if (i == 0)
				call_set(v, CALL_WRITTEN, j, d);
			count_lines(j, d, false, &add, &del);
		}
	}
	call_set_number(v, CALL_LINES_ADDED, add);
	call_set_number(v, CALL_LINES_REMOVED, del);
}

/* Fact f: the string member key of the JSON object that string token t
 * holds (a function_call's arguments), as the part of t's text it is;
 * none when the member is not there plainly (no escape in it). */
static void
arg_part(struct call_facts *v, enum call_fact f, const struct json *j, int t, const char *key)
{
	struct buf s = {0};
	size_t k = strlen(key), i, end;
	const char *at;

	if (json_type(j, t) != JSON_STRING)
		return;
	json_decode(j, t, &s);
	if (s.n > 0 && s.n < UINT32_MAX && (at = strstr(s.p, key)) != NULL && at > s.p &&
	    at[-1] == '"' && at[k] == '"') {
		i = (size_t)(at - s.p) + k + 1;
		while (i < s.n && (s.p[i] == ' ' || s.p[i] == ':'))
			i++;
		if (i < s.n && s.p[i] == '"') {
			end = ++i;
			while (end < s.n && s.p[end] != '"' && s.p[end] != '\\')
				end++;
			if (end < s.n && s.p[end] == '"' && end > i)
				call_set_part(v, f, j, t, (uint32_t)i, (uint32_t)(s.n - end));
		}
	}
	buf_free(&s);
}

/* Where a command ran: a path, or a file: URL of one. */
static void
cwd(struct call_facts *v, const struct json *j, int t)
{
	size_t n;
	const char *p = json_raw(j, t, &n);

	if (json_type(j, t) != JSON_STRING)
		return;
	if (n > 7 && memcmp(p, "file://", 7) == 0 && memchr(p, '\\', n) == NULL)
		call_set_part(v, CALL_DIR, j, t, 7, 0);
	else
		call_set(v, CALL_DIR, j, t);
}

static void
rollout_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	     struct call_facts *v)
{
	int sp = json_get(sj, 0, "payload"), dp = json_get(dj, 0, "payload"), di = -1, cmd = -1;
	int64_t code;

	(void)m;
	(void)c;
	v->rows = rollout_facts;
	v->nrows = ARRAY_LEN(rollout_facts);
	if (sp >= 0) {
		v->place[ASK] = (struct fact_place){sj, sp};
		call_set(v, CALL_ID, sj, json_path_typed(sj, sp, "call_id|id", JSON_STRING));
		call_set(v, CALL_NAME, sj, json_path_typed(sj, sp, "name|type", JSON_STRING));
		call_set(v, CALL_ARGS, sj, json_path_any(sj, sp, "arguments|input|action"));
		cmd = json_path(sj, sp, "action.command");
		if (cmd >= 0)
			command(sj, cmd, v);
	}
	if (dp >= 0) {
		/* The item (0.17x), or the end event itself. */
		di = json_get(dj, dp, "item");
		if (di < 0)
			di = dp;
		v->place[DONE] = (struct fact_place){dj, di};
		call_set(v, CALL_RESULT, dj, di);
		call_set(v, CALL_SHOWN, dj, di);
		if (sp < 0) {
			call_set(v, CALL_ID, dj,
				 json_path_typed(dj, di, "id|call_id", JSON_STRING));
			call_set(v, CALL_NAME, dj, json_get(dj, di, "type"));
		}
		if (json_get(dj, di, "command") >= 0)
			command(dj, json_get(dj, di, "command"), v);
		cwd(v, dj, json_get(dj, di, "cwd"));
		if (json_int(dj, json_get(dj, di, "exit_code"), &code) && code != 0)
			call_set_number(v, CALL_EXIT, code);
		changes(dj, json_get(dj, di, "changes"), v);
	}
	/* Not ended yet (an approval waits), or refused: the command it
	 * asked for. */
	if (sp >= 0 && call_fact(v, CALL_COMMAND) == NULL && v->kind == TK_SHELL)
		arg_part(v, CALL_COMMAND, sj, json_get(sj, sp, "arguments"), "cmd");
}

static bool
rollout_elem(enum fact_list l, const struct json *j, int t, struct elem_facts *e)
{
	if (l == FL_PARTS && agent_elem_string(j, t, EL_TEXT, e))
		return true;
	if (json_type(j, t) != JSON_OBJECT)
		return false;
	if (l == FL_PARTS || l == FL_CONTENT) {
		elem_find(e, EL_TEXT, j, t, "text");
		return true;
	}
	return false;
}

/* A turn's error, or why it stopped, in words. */
static bool
rollout_notice(const struct json *j, struct buf *out)
{
	int p = json_get(j, 0, "payload");

	if (json_streq(j, json_get(j, p, "type"), "turn_aborted"))
		return agent_say(j, "turn aborted: ", "payload.reason", out);
	if (json_type(j, json_path(j, 0, "payload.item")) == JSON_OBJECT &&
	    json_streq(j, json_path(j, 0, "payload.item.type"), "ContextCompaction")) {
		buf_adds(out, "conversation compacted");
		return true;
	}
	if (json_streq(j, json_get(j, 0, "type"), "compacted")) {
		buf_adds(out, "conversation compacted");
		return true;
	}
	return agent_say(j, "error: ", "payload.error.message|payload.message", out);
}

static const struct usage_field rollout_usage[] = {
	{NULL, NULL, false},
};

const struct agent agent_codex_rollout = {
	.name = "codex-rollout",
	.label = "Codex",
	.starts = rollout_starts,
	.looks = rollout_looks,
	.time = rollout_time,
	.line = rollout_line,
	.text = rollout_text,
	.load = rollout_load,
	.elem = rollout_elem,
	.tools = rollout_tools,
	.notice = rollout_notice,
	.top = {[TOP_TYPE] = "type", [TOP_ISO] = "timestamp"},
	.fact =
		{
			[FACT_ID] = "payload.id",
			[FACT_MODEL] = "payload.model",
			[FACT_CWD] = "payload.cwd",
			[FACT_ERROR] = "payload.error.message",
		},
	.usage = rollout_usage,
	.mark = "\"session_meta\"",
	.lean = ",\"base_instructions\":",
	.skip = rollout_skip,
	.quiet_line = rollout_quiet,
	.totals = rollout_totals,
	.skip_ms = rollout_skip_ms,
	.resume = {"codex", "resume"},
};
