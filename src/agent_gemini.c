/* agent_gemini.c: Gemini CLI's `--output-format stream-json` (src/FORMAT.md
 * §10): init starts a session; message (the user's, or the assistant's in
 * deltas), tool_use and tool_result by tool_id, error, and result with
 * its stats. Every line has an ISO timestamp. */
#include "agent.h"

#include <string.h>

#include "json.h"

/* Its tools' names (src/FORMAT.md §10: the ones seen, and the CLI's
 * others). */
static const struct agent_tool gemini_tools[] = {
	{"run_shell_command", TK_SHELL},
	{"read_file", TK_READ},
	{"read_many_files", TK_READ},
	{"replace", TK_EDIT},
	{"edit", TK_EDIT},
	{"write_file", TK_WRITE},
	{"search_file_content", TK_GREP},
	{"grep_search", TK_GREP},
	{"glob", TK_GLOB},
	{"list_directory", TK_LS},
	{"write_todos", TK_TODOS},
	{"invoke_agent", TK_TASK},
	{"web_fetch", TK_WEBFETCH},
	{"google_web_search", TK_WEBSEARCH},
	{NULL, TK_OTHER},
};

static bool
gemini_starts(const struct json *j, const int *k)
{
	return json_streq(j, k[TOP_TYPE], "init") && k[TOP_SUBTYPE] < 0;
}

static bool
gemini_looks(const struct json *j, const int *k)
{
	int t = k[TOP_TYPE];

	return k[TOP_ISO] >= 0 && (json_streq(j, t, "message") || json_streq(j, t, "tool_use") ||
				   json_streq(j, t, "tool_result"));
}

static int64_t
gemini_time(const struct json *j, const int *k)
{
	return agent_iso_ms(j, k[TOP_ISO]);
}

/* tool_use and tool_result: the call by its tool_id; a result's status
 * says how it ended. */
static void
tool_event(struct build *b, bool done)
{
	const struct json *j = b->j;
	int name = json_get(j, 0, "tool_name"), st = json_get(j, 0, "status");
	size_t n;
	const char *raw = json_raw(j, name, &n);
	struct call_ref r = {
		json_get(j, 0, "tool_id"), TK_OTHER, CR_EMPTY, TIME_NONE, TIME_NONE, false, 0};

	if (json_type(j, name) == JSON_STRING)
		r.kind = agent_tool_kind(&agent_gemini, raw, n);
	if (!done) {
		build_call_start(b, &r);
		return;
	}
	if (json_streq(j, st, "success"))
		r.result = CR_SUCCESS;
	else if (json_streq(j, st, "error"))
		r.result = CR_FAILURE;
	else if (st >= 0)
		r.result = CR_OTHER;
	build_call_done(b, &r);
}

static void
gemini_line(struct build *b)
{
	const struct json *j = b->j;
	int t = b->k[TOP_TYPE], role = json_get(j, 0, "role");
	bool delta = false;

	if (json_streq(j, t, "init")) {
		build_session(b);
	} else if (json_streq(j, t, "message") && json_streq(j, role, "user")) {
		build_prompt(b);
	} else if (json_streq(j, t, "message") && json_streq(j, role, "assistant")) {
		json_bool(j, json_get(j, 0, "delta"), &delta);
		build_text(b, delta ? TEXT_DELTA : TEXT_SEGMENT);
	} else if (json_streq(j, t, "tool_use")) {
		tool_event(b, false);
	} else if (json_streq(j, t, "tool_result")) {
		tool_event(b, true);
	} else if (json_streq(j, t, "result")) {
		int64_t d = agent_ms(j, json_path(j, 0, "stats.duration_ms"));
		bool failed = !json_streq(j, json_get(j, 0, "status"), "success");

		/* Why a run failed is in its result only: said whole as a
		 * notice (gemini_notice), before the line that ends it. */
		if (failed && json_type(j, json_path(j, 0, "error.message")) == JSON_STRING)
			build_notice(b);
		/* A failed run says 0 ms: its lines' times tell better. */
		build_result(b, failed, d > 0 ? d : TIME_NONE);
	} else {
		build_notice(b);
	}
}

static void
gemini_text(const struct json *j, enum ev_type type, struct buf *out)
{
	int c = json_get(j, 0, "content");

	(void)type;
	if (json_type(j, c) == JSON_STRING)
		json_decode(j, c, out);
}

/* Where a call's facts are: the tool_use's parameters (the arguments)
 * and the whole tool_result (status, output, error). */
enum { ARGS, RES };

/* clang-format off */
const struct fact_row gemini_facts[] = {
	{FACT_ANY_KIND, CALL_ERROR, RES, "error.message"},
	{TK_SHELL, CALL_COMMAND, ARGS, "command"},
	{TK_SHELL, CALL_DESCRIPTION, ARGS, "description"},
	{TK_SHELL, CALL_DIR, ARGS, "dir_path|directory"},
	{TK_READ, CALL_PATH, ARGS, "absolute_path|file_path|path"},
	{TK_EDIT, CALL_PATH, ARGS, "file_path"},
	{TK_EDIT, CALL_OLD_TEXT, ARGS, "old_string"},
	{TK_EDIT, CALL_NEW_TEXT, ARGS, "new_string"},
	{TK_EDIT, CALL_INSTRUCTION, ARGS, "instruction"},
	{TK_WRITE, CALL_PATH, ARGS, "file_path"},
	{TK_WRITE, CALL_WRITTEN, ARGS, "content"},
	{TK_GREP, CALL_QUERY, ARGS, "pattern"},
	{TK_GREP, CALL_DIR, ARGS, "dir_path|path"},
	{TK_GREP, CALL_GLOB, ARGS, "include"},
	{TK_GLOB, CALL_QUERY, ARGS, "pattern"},
	{TK_GLOB, CALL_DIR, ARGS, "dir_path|path"},
	{TK_LS, CALL_PATH, ARGS, "dir_path|path"},
	{TK_TODOS, CALL_TODOS_ASKED, ARGS, "todos"},
	/* write_todos sets the whole list: the list after it is the one
	 * asked (its result has no output). */
	{TK_TODOS, CALL_TODOS, ARGS, "todos"},
	{TK_TASK, CALL_SUB_TYPE, ARGS, "agent_name"},
	{TK_TASK, CALL_PROMPT, ARGS, "prompt"},
	{TK_TASK, CALL_STATUS, RES, "status"},
	{TK_WEBFETCH, CALL_URL, ARGS, "url"},
	{TK_WEBFETCH, CALL_PROMPT, ARGS, "prompt"},
	{TK_WEBSEARCH, CALL_QUERY, ARGS, "query"},
};
/* clang-format on */
const size_t gemini_nfacts = ARRAY_LEN(gemini_facts);

static void
gemini_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	    struct call_facts *v)
{
	int64_t off;

	(void)m;
	(void)c;
	v->rows = gemini_facts;
	v->nrows = gemini_nfacts;
	if (dj != NULL)
		v->place[RES] = (struct fact_place){dj, 0};
	if (sj != NULL) {
		v->place[ARGS] = (struct fact_place){sj, json_get(sj, 0, "parameters")};
		call_set(v, CALL_ID, sj, json_get(sj, 0, "tool_id"));
		call_set(v, CALL_NAME, sj, json_get(sj, 0, "tool_name"));
		call_set(v, CALL_ARGS, sj, v->place[ARGS].t);
		/* A read's offset counts from 0. */
		if (v->kind == TK_READ && json_int_at(sj, v->place[ARGS].t, "offset", &off) &&
		    off >= 0 && off < INT64_MAX)
			call_set_number(v, CALL_FIRST_LINE, off + 1);
	}
	if (dj != NULL) {
		if (sj == NULL)
			call_set(v, CALL_ID, dj, json_get(dj, 0, "tool_id"));
		/* The whole line is the result: its output and error say
		 * it; no part of it is shown as JSON. */
		call_set(v, CALL_RESULT, dj, 0);
		call_set(v, CALL_PAYLOAD, dj, 0);
		call_set(v, CALL_TEXT, dj, json_get(dj, 0, "output"));
	}
}

/* A todo's state: "completed", "in_progress", "cancelled". */
static bool
gemini_elem(enum fact_list l, const struct json *j, int t, struct elem_facts *e)
{
	int st;

	if (l == FL_PARTS && agent_elem_string(j, t, EL_TEXT, e))
		return true;
	if (json_type(j, t) != JSON_OBJECT)
		return false;
	if (l == FL_PARTS) {
		elem_find(e, EL_TEXT, j, t, "text");
		return true;
	}
	if (l != FL_TODOS)
		return false;
	elem_find(e, EL_TEXT, j, t, "description");
	st = json_get(j, t, "status");
	elem_set_number(e, EL_STATE,
			json_streq(j, st, "completed")     ? TODO_DONE
			: json_streq(j, st, "in_progress") ? TODO_ACTIVE
			: json_streq(j, st, "cancelled")   ? TODO_CANCELLED
							   : TODO_PENDING);
	return true;
}

/* An error or a warning (an error line's severity), or why a run failed
 * (its result's error), in words. */
static bool
gemini_notice(const struct json *j, struct buf *out)
{
	bool warn = json_streq(j, json_get(j, 0, "severity"), "warning");

	return agent_say(j, warn ? "warning: " : "error: ", "message|error.message", out);
}

static const struct usage_field gemini_usage[] = {
	{"stats.input_tokens", "in", false},
	{"stats.output_tokens", "out", false},
	{"stats.cached", "cache read", true},
	{NULL, NULL, false},
};

const struct agent agent_gemini = {
	.name = "gemini",
	.label = "Gemini CLI",
	.starts = gemini_starts,
	.looks = gemini_looks,
	.time = gemini_time,
	.line = gemini_line,
	.text = gemini_text,
	.load = gemini_load,
	.elem = gemini_elem,
	.tools = gemini_tools,
	.notice = gemini_notice,
	.top = {[TOP_TYPE] = "type", [TOP_SUBTYPE] = "subtype", [TOP_ISO] = "timestamp"},
	.fact =
		{
			[FACT_ID] = "session_id",
			[FACT_MODEL] = "model",
			[FACT_USAGE] = "stats",
			[FACT_ERROR] = "error.message",
		},
	.usage = gemini_usage,
	.mark = "\"init\"",
	.resume = {"gemini", "--resume"},
};
