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

		/* A failed run says 0 ms: its lines' times tell better. */
		build_result(b, !json_streq(j, json_get(j, 0, "status"), "success"),
			     d > 0 ? d : TIME_NONE);
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

/* The arguments are the tool_use's parameters; the result is the whole
 * tool_result (status, output, error). */
static void
gemini_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	    struct callview *v)
{
	(void)m;
	(void)c;
	if (sj != NULL) {
		v->aj = v->nj = v->ij = sj;
		v->holder = 0;
		v->args = json_get(sj, 0, "parameters");
		v->name = json_get(sj, 0, "tool_name");
		v->id = json_get(sj, 0, "tool_id");
	}
	if (dj == NULL)
		return;
	v->rj = v->tj = dj;
	v->result = v->var = 0;
	v->text = json_get(dj, 0, "output");
	if (sj == NULL) {
		v->ij = dj;
		v->id = json_get(dj, 0, "tool_id");
	}
}

/* An error, in words. */
static bool
gemini_notice(const struct json *j, struct buf *out)
{
	return agent_say(j, "error: ", "message|item.message|error.message", out);
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
