/* agent_loom.c: the adapter of Loom, an agent made up for the tests, whose
 * stream shares no word with the four real ones: it shows that an agent is
 * one file (tests/test_agent_loom.c adds it to the table, as agents[]
 * holds the real ones, and reads its streams through everything).
 *
 *   {"ev":"begin","sid":"L1","dir":"/home/u/p","llm":"loom-7","t":MS}
 *   {"ev":"ask","text":"...","t":MS}                    a prompt
 *   {"ev":"say","text":"...","t":MS}                    a reply
 *   {"ev":"use","tool":"run","id":"u1","in":{...},"t":MS}   a call starts
 *   {"ev":"used","id":"u1","ok":true,...,"t":MS}            and ends
 *   {"ev":"end","ok":true,"ms":9000,"tokens":{"in":1,"out":2},"t":MS}
 *
 * Its tools: run {line} -> {code, out}; peek {file, from, to} -> {body,
 * total}; patch {file, was, now} -> {why} when it failed. */
#include "agent.h"

#include <string.h>

#include "json.h"

/* Its type is "ev", its time "t" (the model looks them up with every
 * agent's top keys: .top). */
static bool
loom_starts(const struct json *j, const int *k)
{
	return json_streq(j, k[TOP_TYPE], "begin");
}

static bool
loom_looks(const struct json *j, const int *k)
{
	return json_type(j, k[TOP_TYPE]) == JSON_STRING && k[TOP_MS] >= 0;
}

static int64_t
loom_time(const struct json *j, const int *k)
{
	return agent_ms(j, k[TOP_MS]);
}

/* Its tools. */
static const struct agent_tool loom_tools[] = {
	{"run", TK_SHELL},
	{"peek", TK_READ},
	{"patch", TK_EDIT},
	{NULL, TK_OTHER},
};

const struct agent agent_loom;

static void
loom_line(struct build *b)
{
	const struct json *j = b->j;
	int ev = b->k[TOP_TYPE];
	bool ok = false;
	struct call_ref r = {
		json_get(j, 0, "id"), TK_OTHER, CR_EMPTY, TIME_NONE, TIME_NONE, false, 0};

	if (json_streq(j, ev, "begin")) {
		build_session(b);
	} else if (json_streq(j, ev, "ask")) {
		build_prompt(b);
	} else if (json_streq(j, ev, "say")) {
		build_text(b, TEXT_MESSAGE);
	} else if (json_streq(j, ev, "use")) {
		int t = json_get(j, 0, "tool");
		size_t n;
		const char *name = json_raw(j, t, &n);

		if (json_type(j, t) == JSON_STRING)
			r.kind = agent_tool_kind(&agent_loom, name, n);
		build_call_start(b, &r);
	} else if (json_streq(j, ev, "used")) {
		json_bool(j, json_get(j, 0, "ok"), &ok);
		r.result = ok ? CR_SUCCESS : CR_FAILURE;
		build_call_done(b, &r);
	} else if (json_streq(j, ev, "end")) {
		json_bool(j, json_get(j, 0, "ok"), &ok);
		build_result(b, !ok, agent_ms(j, json_get(j, 0, "ms")));
	} else {
		build_notice(b);
	}
}

static void
loom_text(const struct json *j, enum ev_type type, struct buf *out)
{
	int t = json_get(j, 0, "text");

	(void)type;
	if (json_type(j, t) == JSON_STRING)
		json_decode(j, t, out);
}

/* Where a call's facts are: its arguments (in), and the line that
 * ended it. */
enum { IN, USED };

/* clang-format off */
static const struct fact_row loom_facts[] = {
	{FACT_ANY_KIND, CALL_ERROR, USED, "why"},
	{TK_SHELL, CALL_COMMAND, IN, "line"},
	{TK_SHELL, CALL_EXIT, USED, "code"},
	{TK_READ, CALL_PATH, IN, "file"},
	{TK_READ, CALL_FIRST_LINE, IN, "from"},
	{TK_READ, CALL_LAST_LINE, IN, "to"},
	{TK_READ, CALL_TOTAL_LINES, USED, "total"},
	{TK_READ, CALL_CONTENT, USED, "body"},
	{TK_EDIT, CALL_PATH, IN, "file"},
	{TK_EDIT, CALL_OLD_TEXT, IN, "was"},
	{TK_EDIT, CALL_NEW_TEXT, IN, "now"},
};
/* clang-format on */

static void
loom_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
	  struct call_facts *v)
{
	(void)m;
	(void)c;
	v->rows = loom_facts;
	v->nrows = ARRAY_LEN(loom_facts);
	if (sj != NULL) {
		v->place[IN] = (struct fact_place){sj, json_get(sj, 0, "in")};
		call_set(v, CALL_ID, sj, json_get(sj, 0, "id"));
		call_set(v, CALL_NAME, sj, json_get(sj, 0, "tool"));
		call_set(v, CALL_ARGS, sj, v->place[IN].t);
	}
	if (dj != NULL) {
		v->place[USED] = (struct fact_place){dj, 0};
		call_set(v, CALL_RESULT, dj, 0);
		call_set(v, CALL_PAYLOAD, dj, 0);
		call_set(v, CALL_TEXT, dj, json_get(dj, 0, "out"));
	}
}

static const struct usage_field loom_usage[] = {
	{"tokens.in", "in", false},
	{"tokens.out", "out", false},
	{NULL, NULL, false},
};

const struct agent agent_loom = {
	.name = "loom",
	.label = "Loom",
	.starts = loom_starts,
	.looks = loom_looks,
	.time = loom_time,
	.line = loom_line,
	.text = loom_text,
	.load = loom_load,
	.tools = loom_tools,
	.top = {[TOP_TYPE] = "ev", [TOP_MS] = "t"},
	.fact =
		{
			[FACT_ID] = "sid",
			[FACT_MODEL] = "llm",
			[FACT_CWD] = "dir",
			[FACT_USAGE] = "tokens",
		},
	.usage = loom_usage,
	.mark = "\"begin\"",
	.quiet = {"{\"ev\":\"say\","},
	.resume = {"loom", "resume"},
};
