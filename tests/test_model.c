/* test_model.c: the event model, one rule of src/FORMAT.md at a time. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "model.h"
#include "tool.h"

/* The model of text, its source ended when `end`. */
static struct fixture *
feed(const char *text, bool end)
{
	return fixture_new(text, strlen(text), end ? 0 : FX_LIVE);
}

/* The decoded text of item it, in f->b. */
static const char *
item_text(struct fixture *f, uint32_t it)
{
	buf_reset(&f->b);
	model_item_text(f->m, it, &f->b);
	return f->b.p ? f->b.p : "";
}

/* All shown assistant text of session s, in f->b. */
static const char *
assistant_text(struct fixture *f, uint32_t s)
{
	buf_reset(&f->b);
	for (size_t i = 0; i < f->m->nit; i++)
		if (f->m->it[i].type == IT_TEXT && f->m->it[i].session == s)
			model_item_text(f->m, (uint32_t)i, &f->b);
	return f->b.p ? f->b.p : "";
}

static size_t
count_items(struct fixture *f, enum item_type t)
{
	size_t n = 0;

	for (size_t i = 0; i < f->m->nit; i++)
		n += f->m->it[i].type == t;
	return n;
}

#define INIT(id, model) \
	"{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"login\"," \
	"\"cwd\":\"/w\",\"session_id\":\"" id "\",\"model\":\"" model \
	"\",\"permissionMode\":\"default\"}\n"
#define USER(t) \
	"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{" \
	"\"type\":\"text\",\"text\":\"" t "\"}]},\"session_id\":\"s\"}\n"
#define DELTA(t, ts) \
	"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\"," \
	"\"content\":[{\"type\":\"text\",\"text\":\"" t "\"}]}," \
	"\"session_id\":\"s\",\"timestamp_ms\":" #ts "}\n"
#define RECAP(t, ts) \
	"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\"," \
	"\"content\":[{\"type\":\"text\",\"text\":\"" t "\"}]}," \
	"\"session_id\":\"s\",\"model_call_id\":\"r-0-abcd\",\"timestamp_ms\":" #ts "}\n"
#define FINAL(t) \
	"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\"," \
	"\"content\":[{\"type\":\"text\",\"text\":\"" t "\"}]}," \
	"\"session_id\":\"s\"}\n"
#define THINK(t, ts) \
	"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"" t "\"," \
	"\"session_id\":\"s\",\"timestamp_ms\":" #ts "}\n"
#define THOUGHT(ts) \
	"{\"type\":\"thinking\",\"subtype\":\"completed\",\"session_id\":\"s\"," \
	"\"timestamp_ms\":" #ts "}\n"
#define RESULT(t) \
	"{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":1902," \
	"\"duration_api_ms\":1902,\"is_error\":false,\"result\":\"" t "\"," \
	"\"session_id\":\"s\",\"request_id\":\"r\"}\n"
#define START(id, kind, args, ts) \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"" id \
	"\",\"tool_call\":{\"" kind "\":{\"args\":" args "}}," \
	"\"session_id\":\"s\",\"timestamp_ms\":" #ts "}\n"
#define DONE(id, kind, result, ts) \
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"" id \
	"\",\"tool_call\":{\"" kind "\":{\"result\":" result "}}," \
	"\"session_id\":\"s\",\"timestamp_ms\":" #ts "}\n"

/* A delta's text is read from the head of its line when its fields come
 * in the usual order, from the whole line otherwise (fields in another
 * order, several content parts, content as a string): the same text. */
static void
test_delta_text_any_order(void **state)
{
	struct fixture *f = feed(
		INIT("a", "A") THINK(
			"one",
			1) "{\"session_id\":\"s\",\"timestamp_ms\":2,\"type\":\"thinking\","
			   "\"subtype\":\"delta\",\"text\":\" two\"}\n"
			   "{\"type\":\"thinking\",\"subtype\":\"delta\",\"session_id\":\"s\","
			   "\"text\":\" \\u00e9\\\"3\\\"\",\"timestamp_ms\":3}\n" THINK(
				   " four", 4) THOUGHT(5)
				   DELTA("A",
					 6) "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\","
					    "\"content\":[{\"type\":\"text\",\"text\":\"B\"},{\"type\":\"text\","
					    "\"text\":\"C\"}]},\"session_id\":\"s\",\"timestamp_ms\":7}\n"
					    "{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"role\":\"assistant\","
					    "\"content\":[{\"type\":\"text\",\"text\":\"D\"}]},\"session_id\":\"s\","
					    "\"timestamp_ms\":8}\n"
					    "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\","
					    "\"content\":\"E\"},\"session_id\":\"s\",\"timestamp_ms\":9}\n"
					    "{\"timestamp_ms\":10,\"type\":\"assistant\",\"message\":{\"content\":"
					    "[{\"text\":\"F\",\"type\":\"text\"}],\"role\":\"assistant\"},"
					    "\"session_id\":\"s\"}\n" DELTA("G\\n", 11)
						    RESULT("ABCDEFG\\n"),
		true);

	(void)state;
	assert_int_equal(count_items(f, IT_THINKING), 1);
	assert_int_equal(count_items(f, IT_TEXT), 1);
	for (uint32_t e = 2; e <= 4; e++)
		assert_int_equal(EV_TYPE(&f->m->ev[e]), EV_THINK_DELTA);
	for (uint32_t e = 6; e <= 11; e++)
		assert_int_equal(EV_TYPE(&f->m->ev[e]), EV_TEXT_DELTA);
	for (uint32_t i = 0; i < f->m->nit; i++)
		if (f->m->it[i].type == IT_THINKING)
			assert_string_equal(item_text(f, i), "one two \xC3\xA9\"3\" four");
	assert_string_equal(assistant_text(f, 0), "ABCDEFG\n");
	fixture_free(f);
}

/* A reader answers as the model does, with parsers of its own: the
 * model's labelled parse of a line stays valid while the reader works. */
static void
test_reader(void **state)
{
	struct fixture *f = feed(INIT("a", "A") THINK("one", 1) THINK(" two", 2) THOUGHT(3)
					 DELTA("x", 4) DELTA("y", 5) RESULT("xy"),
				 true);
	struct model r;
	struct buf a = {0}, b = {0};
	const struct json *j;

	size_t n, n1;
	const char *line, *line1;

	(void)state;
	memset(&r, 0, sizeof r);
	model_reader_sync(&r, f->m);
	for (uint32_t i = 0; i < f->m->nit; i++) {
		buf_reset(&a);
		buf_reset(&b);
		model_item_text(f->m, i, &a);
		model_item_text(&r, i, &b);
		assert_int_equal(a.n, b.n);
		if (a.n > 0)
			assert_memory_equal(a.p, b.p, a.n);
	}
	/* The model's parses, labelled, survive the reader: the init's,
	 * kept since it was added, and a line's parsed for a query. */
	j = model_parsed(f->m, 0, f->m->qjson);
	assert_ptr_equal(j, f->m->sjson);
	line = model_line(f->m, 0, &n);
	j = model_parsed(f->m, 1, f->m->qjson);
	assert_ptr_equal(j, f->m->qjson);
	line1 = model_line(f->m, 1, &n1);
	buf_reset(&b);
	assert_true(model_event_field(&r, 0, "model", &b));
	assert_string_equal(b.p, "A");
	model_item_text(&r, f->m->ev[4].item, &b);
	model_item_text(&r, f->m->ev[1].item, &b);
	assert_true(json_holds(f->m->sjson, line, n, EV_LINE(&f->m->ev[0])));
	assert_true(json_holds(f->m->qjson, line1, n1, EV_LINE(&f->m->ev[1])));
	assert_null(r.sjson);
	assert_ptr_not_equal(r.qjson, f->m->qjson);
	assert_ptr_not_equal(r.qjson2, f->m->qjson2);
	model_reader_sync(&r, f->m);
	assert_string_equal(item_text(f, f->m->ev[4].item), "xy");
	model_reader_free(&r);
	buf_free(&a);
	buf_free(&b);
	fixture_free(f);
}

/* The line just added, when its stream's buffer has moved since (a read
 * that brought part of the next line grew it): its text comes from where
 * the line is now, never from the old buffer. */
static void
test_moved_buffer(void **state)
{
	struct fixture *f = feed(INIT("a", "A") DELTA("one", 1) DELTA(" two", 2), false);
	char *old = f->s.data, *moved = malloc(f->s.cap);
	uint32_t last = (uint32_t)f->m->nev - 1;

	(void)state;
	assert_int_equal(EV_TYPE(&f->m->ev[last]), EV_TEXT_DELTA);
	/* What source_read does when realloc moves the buffer; the old bytes
	 * are scribbled on (and kept, so that reading them is no crash). */
	memcpy(moved, old, f->s.size);
	memset(old, ' ', f->s.size);
	f->s.data = moved;
	assert_string_equal(item_text(f, f->m->ev[last].item), "one two");
	buf_reset(&f->b);
	assert_true(model_event_field(f->m, 0, "model", &f->b));
	assert_string_equal(f->b.p, "A");
	free(old);
	fixture_free(f);
}

static void
test_session_per_init(void **state)
{
	struct fixture *f = feed(INIT("a", "Auto") USER("hi") RESULT("") INIT("b", "Grok")
					 RESULT("") INIT("a", "Auto") RESULT(""),
				 true);

	(void)state;
	/* A resumed run repeats its session_id and is still a session. */
	assert_int_equal(f->m->nses, 3);
	assert_int_equal(count_items(f, IT_SESSION), 3);
	buf_reset(&f->b);
	assert_true(model_event_field(f->m, f->m->ses[1].init_ev, "model", &f->b));
	assert_string_equal(f->b.p, "Grok");
	for (uint32_t s = 0; s < 3; s++)
		assert_int_equal(model_session_state(f->m, s), SS_OK);
	fixture_free(f);
}

static void
test_events_before_init(void **state)
{
	struct fixture *f =
		feed(START("c1", "readToolCall", "{\"path\":\"x\"}", 5) DELTA("hello", 6), true);

	(void)state;
	assert_int_equal(f->m->nses, 1);
	assert_int_equal(f->m->ses[0].init_ev, NONE);
	assert_int_equal(f->m->ncall, 1);
	assert_int_equal(model_call_state(f->m, 0), CS_ORPHANED);
	assert_int_equal(model_session_state(f->m, 0), SS_INCOMPLETE);
	fixture_free(f);
}

static void
test_prompt_text(void **state)
{
	struct fixture *f = feed(INIT("a", "Auto") USER("fix the tests") RESULT(""), true);

	(void)state;
	assert_int_equal(f->m->it[1].type, IT_PROMPT);
	assert_string_equal(item_text(f, 1), "fix the tests");
	assert_int_equal(f->m->ses[0].nprompts, 1);
	fixture_free(f);
}

/* With --stream-partial-output: deltas, a recap with model_call_id before
 * the tool call, and a final recap with neither field before result. */
static void
test_partial_output_not_doubled(void **state)
{
	struct fixture *f =
		feed(INIT("a", "Auto") DELTA("I'll", 1) DELTA(" run", 2) RECAP("I'll run", 3)
			     START("c1", "shellToolCall", "{\"command\":\"ls\"}", 4)
				     DONE("c1", "shellToolCall", "{\"success\":{\"exitCode\":0}}",
					  5) DELTA("Done", 6) DELTA(".", 7) FINAL("Done.")
					     RESULT("I'll runDone."),
		     true);

	(void)state;
	assert_string_equal(assistant_text(f, 0), "I'll runDone.");
	assert_int_equal(count_items(f, IT_TEXT), 2);
	fixture_free(f);
}

/* Without the flag: each segment once, before tools with model_call_id,
 * the last with neither field. */
static void
test_no_partial_segments(void **state)
{
	struct fixture *f =
		feed(INIT("a", "Auto") RECAP("Reading it.", 3) START("c1", "readToolCall",
								     "{\"path\":\"x\"}", 4)
			     DONE("c1", "readToolCall", "{\"success\":{\"totalLines\":3}}", 5)
				     FINAL("It has 3 lines.") RESULT("Reading it.It has 3 lines."),
		     true);

	(void)state;
	assert_string_equal(assistant_text(f, 0), "Reading it.It has 3 lines.");
	fixture_free(f);
}

/* A final event that spans two model steps (after a task notification)
 * is shown once, whole. */
static void
test_final_spanning_steps(void **state)
{
	struct fixture *f = feed(
		INIT("a", "Auto") RECAP("Started.", 1) START("c1", "shellToolCall",
							     "{\"command\":\"sleep 5\"}", 2)
			DONE("c1", "shellToolCall", "{\"success\":{\"exitCode\":0}}",
			     3) "{\"type\":\"system\",\"subtype\":\"task_notification\","
				"\"task_id\":\"1\",\"status\":\"completed\",\"title\":\"sleep 5\","
				"\"session_id\":\"s\",\"timestamp_ms\":4}\n" FINAL(
					"DONEThe background command finished.")
					RESULT("Started.DONEThe background command finished."),
		true);

	(void)state;
	assert_string_equal(assistant_text(f, 0), "Started.DONEThe background command finished.");
	assert_int_equal(count_items(f, IT_NOTICE), 1);
	for (size_t i = 0; i < f->m->nit; i++) {
		if (f->m->it[i].type != IT_NOTICE)
			continue;
		buf_reset(&f->b);
		model_notice_text(f->m, f->m->it[i].first_ev, &f->b);
		assert_string_equal(f->b.p, "task sleep 5 completed");
	}
	fixture_free(f);
}

/* Repeated tokens are real text, not recaps: "**" twice stays twice. */
static void
test_repeated_deltas_kept(void **state)
{
	struct fixture *f = feed(INIT("a", "Auto") DELTA("**", 1) DELTA("bold", 2) DELTA("**", 3)
					 FINAL("**bold**") RESULT("**bold**"),
				 true);

	(void)state;
	assert_string_equal(assistant_text(f, 0), "**bold**");
	fixture_free(f);
}

static void
test_thinking_phases(void **state)
{
	struct fixture *f = feed(INIT("a", "Auto") THINK("Plan", 1) THINK(" it", 2) THOUGHT(3)
					 DELTA("x", 4) THINK("More", 5) THOUGHT(9) RESULT("x"),
				 true);

	(void)state;
	assert_int_equal(count_items(f, IT_THINKING), 2);
	assert_string_equal(item_text(f, 1), "Plan it");
	/* Thinking is never part of the reply. */
	assert_string_equal(assistant_text(f, 0), "x");
	fixture_free(f);
}

/* call_id is opaque: it may hold an escaped newline. */
static void
test_call_id_with_newline(void **state)
{
	struct fixture *f =
		feed(INIT("a", "Auto") START("call-1\\nfc_1", "readToolCall", "{\"path\":\"a\"}", 1)
			     START("call-1\\nfc_2", "readToolCall", "{\"path\":\"b\"}",
				   2) DONE("call-1\\nfc_2", "readToolCall",
					   "{\"success\":{\"totalLines\":1}}", 3)
				     DONE("call-1\\nfc_1", "readToolCall",
					  "{\"error\":{\"errorMessage\":\"File not found\"}}", 4)
					     RESULT(""),
		     true);

	(void)state;
	assert_int_equal(f->m->ncall, 2);
	assert_int_equal(model_call_state(f->m, 0), CS_ERROR);
	assert_int_equal(model_call_state(f->m, 1), CS_OK);
	buf_reset(&f->b);
	assert_true(model_event_field(f->m, f->m->call[0].start_ev, "call_id", &f->b));
	assert_string_equal(f->b.p, "call-1\nfc_1");
	fixture_free(f);
}

/* The tool is the key that ends in ToolCall, wherever it stands among the
 * metadata siblings; completed without args takes them from started. */
static void
test_tool_key_and_missing_args(void **state)
{
	struct fixture *f = feed(
		INIT("a",
		     "Auto") "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c1\","
			     "\"tool_call\":{\"hookAdditionalContexts\":[],\"toolCallId\":\"c1\","
			     "\"shellToolCall\":{\"args\":{\"command\":\"npm test\"}},"
			     "\"startedAtMs\":\"1000\"},\"session_id\":\"s\",\"timestamp_ms\":900}\n"
			     "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\","
			     "\"tool_call\":{\"hookAdditionalContexts\":[],"
			     "\"shellToolCall\":{\"result\":{\"rejected\":{\"command\":\"npm test\","
			     "\"workingDirectory\":\"\",\"reason\":\"\",\"isReadonly\":false}}},"
			     "\"toolCallId\":\"c1\",\"startedAtMs\":\"1000\",\"completedAtMs\":\"1250\"},"
			     "\"session_id\":\"s\",\"timestamp_ms\":1300}\n" RESULT(""),
		true);
	struct tool_desc d = {0};

	(void)state;
	assert_int_equal(f->m->ncall, 1);
	assert_int_equal(f->m->call[0].kind, TK_SHELL);
	assert_int_equal(model_call_state(f->m, 0), CS_REJECTED);
	assert_false(f->m->call[0].flags & CF_ARGS_DONE);
	/* Duration from startedAtMs/completedAtMs, the agent's own clock. */
	assert_int_equal(model_call_duration(f->m, 0), 250);
	tool_describe(f->m, 0, &d);
	assert_string_equal(d.key.p, "shellToolCall");
	assert_string_equal(d.what.p, "npm test");
	assert_string_equal(d.outcome.p, "rejected");
	tool_desc_free(&d);
	fixture_free(f);
}

static void
test_result_variants(void **state)
{
	static const struct {
		const char *result;
		enum call_state want;
	} cases[] = {
		{"{\"success\":{\"exitCode\":0}}", CS_OK},
		{"{\"failure\":{\"exitCode\":1}}", CS_FAILED},
		{"{\"rejected\":{\"reason\":\"no\"}}", CS_REJECTED},
		{"{\"error\":{\"errorMessage\":\"boom\"}}", CS_ERROR},
		{"{\"timeout\":{\"after\":30000}}", CS_ERROR},
		{"{}", CS_ERROR},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct buf t = {0};
		struct fixture *f;

		buf_addf(&t, INIT("a", "Auto"));
		buf_addf(&t, "%s", START("c", "shellToolCall", "{\"command\":\"x\"}", 1));
		buf_addf(&t,
			 "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c\","
			 "\"tool_call\":{\"shellToolCall\":{\"result\":%s}},\"timestamp_ms\":2}\n",
			 cases[i].result);
		f = feed(t.p, true);
		assert_int_equal(f->m->ncall, 1);
		if (model_call_state(f->m, 0) != cases[i].want)
			fail_msg("case %zu: state %d, want %d", i, model_call_state(f->m, 0),
				 cases[i].want);
		fixture_free(f);
		buf_free(&t);
	}
}

/* A completed whose started never came is shown, unpaired. */
static void
test_completed_without_started(void **state)
{
	struct fixture *f =
		feed(INIT("a", "Auto") DONE("ghost", "readToolCall",
					    "{\"success\":{\"totalLines\":2}}", 5) RESULT(""),
		     true);

	(void)state;
	assert_int_equal(f->m->ncall, 1);
	assert_int_equal(f->m->call[0].start_ev, NONE);
	assert_false(f->m->call[0].flags & CF_STARTED);
	assert_int_equal(model_call_state(f->m, 0), CS_OK);
	assert_int_equal(count_items(f, IT_TOOL), 1);
	fixture_free(f);
}

/* Open calls run while the input is live and are orphaned when the
 * session ends (result or end of input). */
static void
test_running_then_orphaned(void **state)
{
	struct fixture *f =
		feed(INIT("a", "Auto") START("c1", "readToolCall", "{\"path\":\"x\"}", 1), false);
	uint32_t counts[CS_NSTATES];

	(void)state;
	assert_int_equal(model_call_state(f->m, 0), CS_RUNNING);
	assert_int_equal(model_session_state(f->m, 0), SS_LIVE);
	f->m->now_ms = 1001;
	assert_int_equal(model_call_duration(f->m, 0), 1000);
	model_session_counts(f->m, 0, counts);
	assert_int_equal(counts[CS_RUNNING], 1);
	fixture_end(f);
	assert_int_equal(model_call_state(f->m, 0), CS_ORPHANED);
	assert_int_equal(model_session_state(f->m, 0), SS_INCOMPLETE);
	model_session_counts(f->m, 0, counts);
	assert_int_equal(counts[CS_ORPHANED], 1);
	assert_int_equal(counts[CS_RUNNING], 0);
	fixture_free(f);
}

static void
test_orphaned_at_result(void **state)
{
	struct fixture *f = feed(
		INIT("a", "Auto") START("c1", "readToolCall", "{\"path\":\"x\"}", 1) RESULT(""),
		false);

	(void)state;
	/* The source is still open, but the session has its result. */
	assert_int_equal(model_call_state(f->m, 0), CS_ORPHANED);
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	fixture_free(f);
}

/* Duplicate and empty call_ids are opaque keys too. */
static void
test_duplicate_and_empty_ids(void **state)
{
	struct fixture *f =
		feed(INIT("a", "Auto") START("dup", "readToolCall", "{\"path\":\"1\"}", 1)
			     START("dup", "readToolCall", "{\"path\":\"2\"}", 2)
				     DONE("dup", "readToolCall", "{\"success\":{}}", 3)
					     START("", "readToolCall", "{\"path\":\"3\"}", 4)
						     DONE("", "readToolCall", "{\"success\":{}}", 5)
							     RESULT(""),
		     true);

	(void)state;
	assert_int_equal(f->m->ncall, 3);
	/* The completed pairs with the newest open call of that id. */
	assert_int_equal(model_call_state(f->m, 0), CS_ORPHANED);
	assert_int_equal(model_call_state(f->m, 1), CS_OK);
	assert_int_equal(model_call_state(f->m, 2), CS_OK);
	fixture_free(f);
}

/* Calls of one session never pair with an id of another. */
static void
test_ids_scoped_by_session(void **state)
{
	struct fixture *f =
		feed(INIT("a", "Auto") START("c1", "readToolCall", "{\"path\":\"1\"}", 1)
			     INIT("b", "Auto") DONE("c1", "readToolCall", "{\"success\":{}}", 3)
				     RESULT(""),
		     true);

	(void)state;
	assert_int_equal(f->m->ncall, 2);
	assert_int_equal(model_call_state(f->m, 0), CS_ORPHANED);
	assert_false(f->m->call[1].flags & CF_STARTED);
	assert_int_equal(model_session_state(f->m, 0), SS_INCOMPLETE);
	fixture_free(f);
}

static void
test_unknown_kind_and_type(void **state)
{
	struct fixture *f =
		feed(INIT("a", "Auto") START("c1", "frobnicateToolCall", "{\"target\":\"x\"}", 1)
			     DONE("c1", "frobnicateToolCall", "{\"success\":{}}",
				  2) "{\"type\":\"wormhole\",\"subtype\":\"open\",\"x\":1}\n"
				     "{\"type\":\"thinking\",\"subtype\":\"paused\"}\n" RESULT(""),
		     true);
	struct tool_desc d = {0};
	struct buf line = {0};

	(void)state;
	assert_int_equal(f->m->call[0].kind, TK_OTHER);
	tool_describe(f->m, 0, &d);
	assert_string_equal(d.key.p, "frobnicateToolCall");
	assert_string_equal(d.what.p, "target: x");
	tool_line(TK_OTHER, &d, &line);
	assert_string_equal(line.p, "frobnicate target: x \xC2\xB7 ok");
	/* Unknown types and subtypes are notices with their raw JSON. */
	assert_int_equal(count_items(f, IT_NOTICE), 2);
	buf_reset(&f->b);
	model_notice_text(f->m, f->m->nev - 3, &f->b);
	assert_string_equal(f->b.p,
			    "wormhole/open: {\"type\":\"wormhole\",\"subtype\":\"open\",\"x\":1}");
	tool_desc_free(&d);
	buf_free(&line);
	fixture_free(f);
}

static void
test_diagnostics(void **state)
{
	struct fixture *f =
		feed(INIT("a", "Auto") "\n   \n"
				       "RetriableError: [invalid_argument] unknown option\n"
				       "[1,2]\n"
				       "{\"type\":\"user\",\n"
				       "{\"a\":tru}\n",
		     true);

	(void)state;
	/* Blank lines count as lines but are no events. */
	assert_int_equal(f->m->lines, 7);
	assert_int_equal(f->m->ndiag, 4);
	assert_int_equal(f->m->diag[0].line, 4);
	assert_int_equal(f->m->diag[1].line, 5);
	assert_int_equal(f->m->diag[1].err, JSON_NOT_OBJECT);
	assert_int_equal(f->m->diag[2].err, JSON_TRUNCATED);
	assert_int_equal(f->m->diag[3].err, JSON_INVALID);
	assert_int_equal(count_items(f, IT_DIAG), 4);
	assert_string_equal(item_text(f, f->m->ev[f->m->diag[0].ev].item),
			    "RetriableError: [invalid_argument] unknown option");
	assert_int_equal(model_event_lineno(f->m, f->m->diag[3].ev), 7);
	/* A diagnostic is not a reason to lose the session. */
	assert_int_equal(f->m->nses, 1);
	fixture_free(f);
}

/* CRLF line ends, a BOM, and a last line without a newline. */
static void
test_crlf_bom_last_line(void **state)
{
	struct fixture *f = feed(
		"\xEF\xBB\xBF" INIT(
			"a",
			"Auto") "\r\n"
				"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\","
				"\"text\":\"hi\"}]}}\r\n" RESULT("") "{\"type\":\"wormhole\"}",
		true);

	(void)state;
	assert_int_equal(f->m->ndiag, 0);
	assert_int_equal(f->m->nses, 1);
	assert_int_equal(f->m->ses[0].init_ev, 0);
	assert_string_equal(item_text(f, 1), "hi");
	/* The unterminated last line is read at end of input. */
	assert_int_equal(EV_TYPE(&f->m->ev[f->m->nev - 1]), EV_NOTICE);
	fixture_free(f);
}

static void
test_result_fields(void **state)
{
	struct fixture *f = feed(
		INIT("a",
		     "Auto") "{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":4321,"
			     "\"is_error\":true,\"result\":\"\",\"request_id\":\"req\"}\n",
		true);

	(void)state;
	assert_int_equal(model_session_state(f->m, 0), SS_FAILED);
	assert_int_equal(model_session_duration(f->m, 0), 4321);
	fixture_free(f);
}

/* Times: timestamp_ms numbers up to 2^53, startedAtMs as strings. */
static void
test_timing(void **state)
{
	struct fixture *f =
		feed(INIT("a", "Auto") THINK("x", 9007199254740000)
			     START("c", "readToolCall", "{\"path\":\"x\"}", 9007199254740100)
				     DONE("c", "readToolCall", "{\"success\":{}}", 9007199254740350)
					     RESULT(""),
		     true);

	(void)state;
	assert_true(f->m->ses[0].start_ms == 9007199254740000LL);
	assert_true(f->m->call[0].start_ms == 9007199254740100LL);
	assert_int_equal(model_call_duration(f->m, 0), 250);
	/* The result's duration_ms wins over the span of events. */
	assert_int_equal(model_session_duration(f->m, 0), 1902);
	fixture_free(f);
}

/* Runs compared on a screen: each session's axis starts at its own start
 * and is as long as the longest session's, so the same time is the same
 * place in both. */
static void
test_same_axis(void **state)
{
	struct fixture *f = feed(
		INIT("a", "Auto") THINK("x", 1000) START(
			"c", "readToolCall", "{\"path\":\"x\"}",
			1000) DONE("c", "readToolCall", "{\"success\":{}}",
				   1500) RESULT("") INIT("b", "Auto") THINK("x", 90000)
			START("d", "readToolCall", "{\"path\":\"y\"}", 90000) DONE(
				"d", "readToolCall", "{\"success\":{}}",
				90100) "{\"type\":\"result\",\"subtype\":\"success\","
				       "\"duration_ms\":200,\"is_error\":false,\"result\":\"\"}\n",
		true);
	int64_t a0, a1;
	double from, to;

	(void)state;
	assert_int_equal(f->m->nses, 2);
	/* Alone, the short run's one call fills half its axis. */
	model_session_axis(f->m, 1, &a0, &a1);
	assert_true(a0 == 90000 && a1 == 90200);
	model_call_span(f->m, 1, &from, &to);
	assert_true(from == 0.0 && to == 0.5);
	/* On one axis with the run of 1902 ms. */
	f->m->same_axis = true;
	model_session_axis(f->m, 1, &a0, &a1);
	assert_true(a0 == 90000 && a1 == 90000 + 1902);
	model_call_span(f->m, 1, &from, &to);
	assert_true(from == 0.0 && to == 100.0 / 1902.0);
	model_session_axis(f->m, 0, &a0, &a1);
	assert_true(a0 == 1000 && a1 == 1000 + 1902);
	fixture_free(f);
}

/* Clocks near INT64_MAX: start + (completedAtMs - startedAtMs) would
 * overflow (undefined behaviour, caught by UBSan); the completed event's
 * own time is used instead. */
static void
test_time_overflow(void **state)
{
	struct fixture *f =
		feed("{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c\","
		     "\"tool_call\":{\"readToolCall\":{\"args\":{}}},"
		     "\"timestamp_ms\":9223372036854775000}\n"
		     "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c\","
		     "\"tool_call\":{\"readToolCall\":{\"result\":{\"success\":{}}},"
		     "\"startedAtMs\":\"0\",\"completedAtMs\":\"9223372036854775000\"},"
		     "\"timestamp_ms\":9223372036854775001}\n",
		     true);

	(void)state;
	assert_true(f->m->call[0].end_ms == 9223372036854775001LL);
	assert_int_equal(model_call_duration(f->m, 0), 1);
	fixture_free(f);
}

/* Arrival times, when read live, are the event clock. */
static void
test_arrival_times(void **state)
{
	const char *text = INIT("a", "Auto") USER("x") DELTA("y", 5);
	struct fixture *f = fixture_new(text, strlen(text), FX_UNREAD);
	struct model *m = f->m;
	struct line ln;
	int64_t t = 1000;

	(void)state;
	while (source_next_line(&f->s, &ln))
		model_add_line(m, f->src, &ln, t += 100);
	assert_int_equal(m->ev[0].ms, 1100);
	assert_true(EV_FLAGS(&m->ev[2]) & EVF_ARRIVAL);
	assert_true(EV_FLAGS(&m->ev[2]) & EVF_TS);
	assert_int_equal(m->ev[2].ms, 1300);
	m->now_ms = 2100;
	assert_int_equal(model_session_duration(m, 0), 1000);
	fixture_free(f);
}

/* A live stream that goes silent and ends (killed) without a result: the
 * session lasted until the stream ended, not until its last line; its
 * silence at the end is said. One that ended with a result keeps the
 * result's duration. */
static void
test_stream_closed(void **state)
{
	const char *text = INIT("a", "Auto") USER("x") DELTA("y", 5);
	const char *done = INIT("a", "Auto") USER("x") RESULT("y");

	(void)state;
	for (int with_result = 0; with_result < 2; with_result++) {
		const char *t = with_result ? done : text;
		struct fixture *f = fixture_new(t, strlen(t), FX_UNREAD);
		struct model *m = f->m;
		struct line ln;
		int64_t at = 1000;

		while (source_next_line(&f->s, &ln))
			model_add_line(m, f->src, &ln, at += 100);
		model_stream_closed(m, f->src, 101300);
		model_end_source(m, f->src);
		if (with_result) {
			assert_int_equal(model_session_state(m, 0), SS_OK);
			assert_int_equal(model_session_duration(m, 0), 1902);
			assert_int_equal(model_session_silence(m, 0), TIME_NONE);
		} else {
			assert_int_equal(model_session_state(m, 0), SS_INCOMPLETE);
			assert_int_equal(model_session_duration(m, 0), 100200);
			assert_int_equal(model_session_silence(m, 0), 100000);
		}
		fixture_free(f);
	}
}

/* A stream read live counts its time from when its source was opened,
 * not from its first line, which a CLI writes seconds after it starts
 * (issue 22: a run killed after 8 s read as 5): on a clock of the test's,
 * opened at 1000, its lines from 3500, closed at 9000, it lasted 8000 ms.
 * Only its first session: a second one starts at its own first line. An
 * opening said after the first line (a header made by hand) is not
 * taken. */
static void
test_stream_opened(void **state)
{
	const char *one = INIT("a", "Auto") USER("x") DELTA("y", 5);
	const char *two = INIT("a", "Auto") USER("x") RESULT("y") INIT("b", "Auto") USER("z");
	const int64_t opened[] = {1000, 4000};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(opened); i++) {
		struct fixture *f = fixture_new(one, strlen(one), FX_UNREAD);
		struct model *m = f->m;
		struct line ln;
		int64_t at = 3400;

		model_stream_opened(m, f->src, opened[i]);
		while (source_next_line(&f->s, &ln))
			model_add_line(m, f->src, &ln, at += 100);
		model_stream_closed(m, f->src, 9000);
		model_end_source(m, f->src);
		assert_int_equal(model_session_state(m, 0), SS_INCOMPLETE);
		assert_int_equal(m->ses[0].start_ms, i == 0 ? 1000 : 3500);
		assert_int_equal(model_session_duration(m, 0), i == 0 ? 8000 : 5500);
		assert_int_equal(model_session_silence(m, 0), 9000 - 3700);
		fixture_free(f);
	}
	{
		struct fixture *f = fixture_new(two, strlen(two), FX_UNREAD);
		struct model *m = f->m;
		struct line ln;
		int64_t at = 3400;

		model_stream_opened(m, f->src, 1000);
		while (source_next_line(&f->s, &ln))
			model_add_line(m, f->src, &ln, at += 100);
		model_end_source(m, f->src);
		assert_int_equal(m->nses, 2);
		assert_int_equal(m->ses[0].start_ms, 1000);
		assert_int_equal(model_session_duration(m, 0), 1902); /* its result's */
		assert_int_equal(m->ses[1].start_ms, 3800);
		fixture_free(f);
	}
}

/* Kept, the same stream is read back as long as it was live: the
 * recording's header says when its source was opened. */
static void
test_recorded_open(void **state)
{
	struct fixture *f =
		feed("{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1,"
		     "\"kept\":true,\"agentview_ms\":1000,\"source\":\"stdin\"}\n"
		     "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"a\","
		     "\"agentview_ms\":3500}\n"
		     "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\","
		     "\"content\":[{\"type\":\"text\",\"text\":\"y\"}]},\"agentview_ms\":3700}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"end\",\"agentview_ms\":9000}\n",
		     true);
	struct model *m = f->m;

	(void)state;
	assert_int_equal(m->nses, 1);
	assert_int_equal(m->ses[0].start_ms, 1000);
	assert_int_equal(model_session_duration(m, 0), 8000);
	/* A replay that has not reached the end: the span so far, from the
	 * opening. */
	m->limit = 2;
	assert_int_equal(model_session_duration(m, 0), 2700);
	fixture_free(f);
}

/* A command's exit, recorded after its last line, is no line of its
 * session: read live it was none, and read back a session that ends with
 * a result of no duration (Codex's) lasts as long as it did live, from
 * the opening to its last line. */
static void
test_recorded_exit(void **state)
{
	struct fixture *f =
		feed("{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1,"
		     "\"agentview_ms\":1000,\"source\":\"command\",\"argv\":[\"codex\"]}\n"
		     "{\"type\":\"thread.started\",\"thread_id\":\"t\",\"agentview_ms\":3500}\n"
		     "{\"type\":\"turn.started\",\"agentview_ms\":3600}\n"
		     "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":1,"
		     "\"output_tokens\":1},\"agentview_ms\":3700}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"end\",\"agentview_ms\":3750}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"exit\",\"agentview_ms\":3760,"
		     "\"exit_status\":0,\"signal\":null}\n",
		     true);
	struct model *m = f->m;

	(void)state;
	assert_int_equal(m->nses, 1);
	assert_int_equal(model_session_state(m, 0), SS_OK);
	assert_true(m->cmd.exited);
	assert_int_equal(model_session_duration(m, 0), 2700);
	fixture_free(f);
}

/* The same read back from a recording, whose end line says when the
 * stream ended; a replay that has not reached that line does not know. */
static void
test_recorded_end(void **state)
{
	struct fixture *f =
		feed("{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1,"
		     "\"agentview_ms\":100,\"source\":\"stdin\"}\n"
		     "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"a\","
		     "\"agentview_ms\":150}\n"
		     "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\","
		     "\"content\":[{\"type\":\"text\",\"text\":\"y\"}]},\"agentview_ms\":350}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"end\",\"agentview_ms\":100350}\n",
		     true);
	struct model *m = f->m;

	(void)state;
	assert_int_equal(m->nses, 1);
	assert_int_equal(model_session_state(m, 0), SS_INCOMPLETE);
	/* From its opening, the header's 100 (test_recorded_open). */
	assert_int_equal(model_session_duration(m, 0), 100250);
	assert_int_equal(model_session_silence(m, 0), 100000);
	m->limit = 2;
	assert_int_equal(model_session_silence(m, 0), TIME_NONE);
	assert_int_equal(model_session_duration(m, 0), 250);
	fixture_free(f);
}

/* A session waiting for a decision runs on: its time is the clock's, as
 * a live one's, not its events' span (issue 25: stuck at 0 ms). */
static void
test_waiting_clock(void **state)
{
	struct fixture *f = fixture_recording("cursor-waiting", FX_LIVE);
	struct model *m = f->m;

	(void)state;
	assert_int_equal(model_session_state(m, 0), SS_WAITING);
	m->now_ms = m->ses[0].start_ms + 3600000;
	assert_int_equal(model_session_duration(m, 0), 3600000);
	fixture_end(f);
	assert_int_equal(model_session_state(m, 0), SS_INCOMPLETE);
	assert_int_equal(model_session_duration(m, 0), m->ses[0].last_ms - m->ses[0].start_ms);
	fixture_free(f);
}

/* The json output format: one result object, its text is the reply. */
static void
test_json_format_input(void **state)
{
	struct fixture *f = feed("{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
				 "\"duration_ms\":10,\"result\":\"\\n4\",\"session_id\":\"s\"}\n",
				 true);

	(void)state;
	assert_int_equal(f->m->nses, 1);
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	buf_reset(&f->b);
	assert_true(model_event_field(f->m, f->m->ses[0].result_ev, "result", &f->b));
	assert_string_equal(f->b.p, "\n4");
	fixture_free(f);
}

/* Connection and retry events are notices, in words. */
static void
test_notices(void **state)
{
	struct fixture *f = feed(
		INIT("a",
		     "Auto") "{\"type\":\"connection\",\"subtype\":\"reconnecting\",\"attempt\":2}\n"
			     "{\"type\":\"retry\",\"subtype\":\"starting\",\"attempt\":1,\"is_resume\":true}\n"
			     "{\"type\":\"retry\",\"subtype\":\"resuming\",\"attempt\":1,"
			     "\"checkpoint_turn_count\":3}\n"
			     "{\"type\":\"connection\",\"subtype\":\"reconnected\"}\n",
		true);
	static const char *const want[] = {
		"connection lost, reconnecting (attempt 2)",
		"retrying, resuming (attempt 1)",
		"resuming from checkpoint turn 3 (attempt 1)",
		"connection restored",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(want); i++) {
		buf_reset(&f->b);
		model_notice_text(f->m, (uint32_t)(i + 1), &f->b);
		assert_string_equal(f->b.p, want[i]);
	}
	fixture_free(f);
}

/* Recordings: agentview_ms is the arrival time; wrapped lines come back. */
static void
test_recording_lines(void **state)
{
	struct fixture *f =
		feed("{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1,"
		     "\"agentview_ms\":100,\"source\":\"stdin\"}\n"
		     "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"a\","
		     "\"agentview_ms\":150}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"line\",\"agentview_ms\":200,"
		     "\"text\":\"not json\"}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"line\",\"agentview_ms\":210,"
		     "\"text\":\"\"}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"line\",\"agentview_ms\":220,"
		     "\"text\":\" \\t\\r\"}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"stderr\",\"agentview_ms\":250,"
		     "\"text\":\"boom\"}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"exit\",\"agentview_ms\":300,"
		     "\"exit_status\":1,\"signal\":null}\n",
		     true);

	(void)state;
	assert_int_equal(f->m->nses, 1);
	assert_int_equal(f->m->ev[1].ms, 150);
	/* blank lines, recorded, are skipped as they were live (found by
	 * fuzz_model: a recording showed them as diagnostics) */
	assert_int_equal(f->m->ndiag, 1);
	assert_int_equal(f->m->lines, 7);
	assert_string_equal(item_text(f, f->m->ev[f->m->diag[0].ev].item), "not json");
	assert_int_equal(count_items(f, IT_STDERR), 1);
	assert_true(f->m->cmd.present);
	assert_int_equal(f->m->cmd.exit_status, 1);
	/* Ended without result and the command failed: failed. */
	assert_int_equal(model_session_state(f->m, 0), SS_FAILED);
	fixture_free(f);
}

/* Several sources keep their own sessions. */
static void
test_sources_interleave(void **state)
{
	const char *a = INIT("a", "A") DELTA("one", 1) DELTA(" two", 3);
	const char *b = INIT("b", "B") DELTA("uno", 2);
	struct source sa, sb;
	struct model *m = model_new();
	struct line la[3], lb[2];
	unsigned ia, ib;
	struct buf t = {0};

	(void)state;
	source_open_mem(&sa, "a", a, strlen(a));
	source_open_mem(&sb, "b", b, strlen(b));
	ia = model_add_source(m, &sa);
	ib = model_add_source(m, &sb);
	for (int i = 0; i < 3; i++)
		assert_true(source_next_line(&sa, &la[i]));
	for (int i = 0; i < 2; i++)
		assert_true(source_next_line(&sb, &lb[i]));
	model_add_line(m, ia, &la[0], TIME_NONE);
	model_add_line(m, ib, &lb[0], TIME_NONE);
	model_add_line(m, ia, &la[1], TIME_NONE);
	model_add_line(m, ib, &lb[1], TIME_NONE);
	model_add_line(m, ia, &la[2], TIME_NONE);
	assert_int_equal(m->nses, 2);
	for (size_t i = 0; i < m->nit; i++)
		if (m->it[i].type == IT_TEXT && m->it[i].session == 0)
			model_item_text(m, (uint32_t)i, &t);
	assert_string_equal(t.p, "one two");
	buf_free(&t);
	model_free(m);
	source_close(&sa);
	source_close(&sb);
}

/* A command's stderr is a second source whose lines join the session of
 * its stdout: text, JSON-looking or not, as it was written. */
static void
test_stderr_source(void **state)
{
	const char *out = INIT("a", "Auto") DELTA("one", 1) DELTA(" two", 3);
	const char *err = "warming up\n"
			  "{\"type\":\"assistant\",\"text\":\"not an event\"}\n"
			  "  \r\n"
			  "Error: usage limit\n";
	struct source so, se;
	struct model *m = model_new();
	struct line lo[3], le[4];
	unsigned io, ie;
	struct buf t = {0};
	uint32_t e;

	(void)state;
	source_open_mem(&so, "out", out, strlen(out));
	source_open_mem(&se, "stderr", err, strlen(err));
	io = model_add_source(m, &so);
	ie = model_add_source(m, &se);
	model_set_stderr(m, ie, io);
	for (int i = 0; i < 3; i++)
		assert_true(source_next_line(&so, &lo[i]));
	for (int i = 0; i < 4; i++)
		assert_true(source_next_line(&se, &le[i]));
	/* Before any stdout: the preamble the init then adopts. */
	e = model_add_line(m, ie, &le[0], 100);
	assert_int_equal(EV_TYPE(&m->ev[e]), EV_STDERR);
	model_add_line(m, io, &lo[0], 101);
	assert_int_equal(m->nses, 1);
	assert_int_equal(m->ses[0].init_ev, 1);
	model_add_line(m, io, &lo[1], 102);
	e = model_add_line(m, ie, &le[1], 103);
	assert_int_equal(EV_TYPE(&m->ev[e]), EV_STDERR);
	/* A blank stderr line is no event, like a blank stdout line. */
	assert_int_equal(model_add_line(m, ie, &le[2], 104), NONE);
	model_add_line(m, io, &lo[2], 105);
	model_add_line(m, ie, &le[3], 106);
	assert_int_equal(m->nses, 1);
	assert_int_equal(m->cmd.nstderr, 3);
	/* The stderr line did not split the assistant text. */
	for (size_t i = 0; i < m->nit; i++) {
		if (m->it[i].type == IT_TEXT)
			model_item_text(m, (uint32_t)i, &t);
		if (m->it[i].type == IT_STDERR)
			assert_int_equal(m->it[i].session, 0);
	}
	assert_string_equal(t.p, "one two");
	buf_reset(&t);
	model_item_text(m, m->ev[e].item, &t);
	assert_string_equal(t.p, "{\"type\":\"assistant\",\"text\":\"not an event\"}");
	/* No failure until the command says so. */
	buf_reset(&t);
	assert_false(model_command_failure(m, 0, &t));
	m->cmd.present = true;
	m->cmd.exited = true;
	m->cmd.exit_status = 1;
	model_end_source(m, io);
	model_end_source(m, ie);
	assert_int_equal(model_session_state(m, 0), SS_FAILED);
	assert_true(model_command_failure(m, 0, &t));
	assert_string_equal(t.p, "exit status 1: Error: usage limit");
	m->cmd.exited = false;
	m->cmd.signal = 9;
	buf_reset(&t);
	assert_true(model_command_failure(m, 0, &t));
	assert_string_equal(t.p, "killed by signal 9: Error: usage limit");
	buf_free(&t);
	model_free(m);
	source_close(&so);
	source_close(&se);
}

/* Lines that are no events before the first init belong to its session;
 * real events before it still make a session of their own. */
static void
test_preamble_adopted(void **state)
{
	struct fixture *f =
		feed("Warning: old CLI\n" INIT("a", "Auto") USER("hi") RESULT(""), true);
	struct fixture *g = feed(DELTA("x", 1) INIT("a", "Auto") RESULT(""), true);

	(void)state;
	assert_int_equal(f->m->nses, 1);
	assert_int_equal(f->m->ses[0].init_ev, 1);
	assert_int_equal(f->m->ses[0].first_ev, 0);
	assert_int_equal(f->m->ndiag, 1);
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	assert_int_equal(g->m->nses, 2);
	assert_int_equal(g->m->ses[0].init_ev, NONE);
	assert_int_equal(g->m->ses[1].init_ev, 1);
	fixture_free(f);
	fixture_free(g);
}

/* A recording of a command names its argv in the header, and its end. */
static void
test_recording_command(void **state)
{
	struct fixture *f =
		feed("{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1,"
		     "\"agentview_ms\":100,\"source\":\"command\",\"argv\":[\"sh\",\"-c\","
		     "\"echo \\u001b[2J\"]}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"stderr\",\"agentview_ms\":120,"
		     "\"text\":\"early\"}\n"
		     "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"a\","
		     "\"agentview_ms\":150}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"stderr\",\"agentview_ms\":250,"
		     "\"text\":\"boom\"}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"exit\",\"agentview_ms\":300,"
		     "\"exit_status\":null,\"signal\":15}\n",
		     true);

	(void)state;
	assert_true(f->m->cmd.present);
	assert_non_null(f->m->cmd.argv);
	assert_string_equal(f->m->cmd.argv[0], "sh");
	assert_string_equal(f->m->cmd.argv[2], "echo \x1b[2J");
	assert_null(f->m->cmd.argv[3]);
	assert_false(f->m->cmd.exited);
	assert_int_equal(f->m->cmd.signal, 15);
	/* The stderr line before the init joined its session. */
	assert_int_equal(f->m->nses, 1);
	assert_int_equal(model_session_state(f->m, 0), SS_FAILED);
	buf_reset(&f->b);
	assert_true(model_command_failure(f->m, 0, &f->b));
	assert_string_equal(f->b.p, "killed by signal 15: boom");
	fixture_free(f);
}

/* Clearing forgets every event and keeps the sources. */
static void
test_clear(void **state)
{
	struct fixture *f = feed(INIT("a", "Auto") USER("x"), false);

	(void)state;
	model_clear(f->m);
	assert_int_equal(f->m->nev, 0);
	assert_int_equal(f->m->nses, 0);
	assert_int_equal(f->m->nsrc, 1);
	fixture_rewind(f);
	fixture_feed(f, SIZE_MAX);
	assert_int_equal(f->m->nses, 1);
	assert_int_equal(f->m->nev, 2);
	fixture_free(f);
}

/* model_keep_parse: the line just added stays parsed in qjson, where
 * model_parsed finds it after more lines came; asked of an older line,
 * it keeps nothing and leaves the newest line's parse where it was. */
static void
test_keep_parse(void **state)
{
	struct fixture *f = feed(INIT("a", "Auto") USER("x") USER("y"), false);
	uint64_t l1;
	size_t n1;
	const char *line1;

	(void)state;
	model_clear(f->m);
	fixture_rewind(f);
	fixture_feed(f, 2);
	l1 = EV_LINE(&f->m->ev[1]);
	line1 = model_line(f->m, 1, &n1);
	assert_false(json_holds(f->m->qjson, line1, n1, l1));
	model_keep_parse(f->m, 1);
	assert_true(json_holds(f->m->qjson, line1, n1, l1));
	assert_false(json_holds(f->m->json, line1, n1, l1));
	fixture_feed(f, 1);
	assert_int_equal(f->m->nev, 3);
	/* Found where it was kept, not parsed again. */
	assert_true(json_holds(f->m->qjson, line1, n1, l1));
	assert_ptr_equal(model_parsed(f->m, 1, f->m->qjson), f->m->qjson);
	assert_true(json_streq(f->m->qjson, json_get(f->m->qjson, 0, "type"), "user"));
	/* An older line's: nothing kept, the newest still the model's own. */
	model_keep_parse(f->m, 1);
	assert_ptr_equal(model_parsed(f->m, 2, f->m->qjson2), f->m->json);
	assert_true(json_holds(f->m->qjson, line1, n1, l1));
	fixture_free(f);
}

/* model_parsed: the newest event comes from the model's own parse, the
 * newest session's start from the parse kept since it was added, older
 * ones are parsed into the scratch parser once and found there again;
 * model_clear forgets what the scratch parser held. */
static void
test_parsed_reuse(void **state)
{
	struct fixture *f = feed(INIT("a", "Auto") USER("x") USER("y") DELTA("hi", 5), false);
	const struct json *j;
	struct json *other = json_new();
	const char *line0;
	size_t n0;
	uint64_t l0, l1, l2;

	(void)state;
	l0 = EV_LINE(&f->m->ev[0]);
	l1 = EV_LINE(&f->m->ev[1]);
	l2 = EV_LINE(&f->m->ev[2]);
	assert_ptr_equal(model_parsed(f->m, 3, f->m->qjson), f->m->json);
	/* The start, three lines later, is not parsed again. */
	j = model_parsed(f->m, 0, f->m->qjson);
	assert_ptr_equal(j, f->m->sjson);
	assert_true(json_streq(j, json_get(j, 0, "type"), "system"));
	assert_false(
		json_holds(f->m->qjson, model_line(f->m, 0, &(size_t){0}), f->m->ev[0].len, l0));
	j = model_parsed(f->m, 1, f->m->qjson);
	assert_ptr_equal(j, f->m->qjson);
	assert_true(json_streq(j, json_get(j, 0, "type"), "user"));
	/* Found again: still labelled with event 1's line. */
	assert_true(
		json_holds(f->m->qjson, model_line(f->m, 1, &(size_t){0}), f->m->ev[1].len, l1));
	assert_ptr_equal(model_parsed(f->m, 1, f->m->qjson), f->m->qjson);
	/* Another line in the same parser replaces it. */
	j = model_parsed(f->m, 2, f->m->qjson);
	assert_true(json_streq(j, json_get(j, 0, "type"), "user"));
	assert_false(
		json_holds(f->m->qjson, model_line(f->m, 1, &(size_t){0}), f->m->ev[1].len, l1));
	/* A parser of the caller's own is parsed into, never labelled. */
	assert_ptr_equal(model_parsed(f->m, 1, other), other);
	assert_false(json_holds(other, model_line(f->m, 1, &(size_t){0}), f->m->ev[1].len, l1));
	/* qjson holds event 2's line, sjson event 0's; the model starts
	 * again and forgets both. */
	line0 = model_line(f->m, 0, &n0);
	assert_true(json_holds(f->m->sjson, line0, n0, l0));
	model_clear(f->m);
	assert_false(json_holds(f->m->sjson, line0, n0, l0));
	fixture_rewind(f);
	fixture_feed(f, 3);
	assert_true(f->m->nev >= 3);
	assert_false(
		json_holds(f->m->qjson, model_line(f->m, 2, &(size_t){0}), f->m->ev[2].len, l2));
	fixture_feed(f, SIZE_MAX);
	j = model_parsed(f->m, 0, f->m->qjson);
	assert_true(json_streq(j, json_get(j, 0, "type"), "system"));
	json_free(other);
	fixture_free(f);
}

/* A replay's limit: what is shown, and every derived state, is as of the
 * last event shown, whatever came after it. */
static void
test_limit(void **state)
{
	struct fixture *f =
		feed(INIT("a", "Auto") USER("hi") DELTA("Hel", 100) DELTA("lo", 200)
			     START("c1", "readToolCall", "{\"path\":\"x\"}",
				   300) START("c2", "shellToolCall", "{\"command\":\"ls\"}", 350)
				     DONE("c1", "readToolCall", "{\"success\":{}}",
					  400) "not json\n" RESULT("") INIT("b", "Auto")
					     START("c3", "readToolCall", "{\"path\":\"y\"}", 600)
						     DELTA("x", 700),
		     true);
	struct model *m = f->m;
	uint32_t counts[CS_NSTATES];

	(void)state;
	assert_int_equal(m->nev, 12);
	assert_int_equal(m->limit, NONE);
	assert_int_equal(model_nitems(m), m->nit);
	assert_int_equal(model_ncalls(m), 3);
	/* Without a limit the end is known: c2 orphaned, b incomplete. */
	assert_int_equal(model_call_state(m, 1), CS_ORPHANED);
	assert_int_equal(model_session_state(m, 1), SS_INCOMPLETE);

	m->limit = 2;
	assert_int_equal(model_nitems(m), 3); /* session, prompt, text */
	assert_string_equal(item_text(f, 2), "Hel");
	assert_int_equal(model_ncalls(m), 0);
	assert_int_equal(model_nsessions(m), 1);
	m->limit = 3;
	assert_string_equal(item_text(f, 2), "Hello");

	m->limit = 5;
	assert_int_equal(model_ncalls(m), 2);
	assert_int_equal(model_call_state(m, 0), CS_RUNNING);
	assert_int_equal(model_call_state(m, 1), CS_RUNNING);
	assert_int_equal(model_session_state(m, 0), SS_LIVE);
	model_session_counts(m, 0, counts);
	assert_int_equal(counts[CS_RUNNING], 2);
	assert_int_equal(counts[CS_OK], 0);
	m->now_ms = 380;
	assert_int_equal(model_call_duration(m, 0), 80);
	assert_int_equal(model_session_duration(m, 0), 280);

	m->limit = 6;
	assert_int_equal(model_call_state(m, 0), CS_OK);
	assert_int_equal(model_call_duration(m, 0), 100);
	model_session_counts(m, 0, counts);
	assert_int_equal(counts[CS_OK], 1);
	assert_int_equal(counts[CS_RUNNING], 1);
	assert_int_equal(model_ndiags(m), 0);
	m->limit = 7;
	assert_int_equal(model_ndiags(m), 1);

	m->limit = 8;
	assert_int_equal(model_session_state(m, 0), SS_OK);
	assert_int_equal(model_call_state(m, 1), CS_ORPHANED);
	assert_int_equal(model_session_duration(m, 0), 1902);
	model_session_counts(m, 0, counts);
	assert_int_equal(counts[CS_OK], 1);
	assert_int_equal(counts[CS_ORPHANED], 1);
	assert_int_equal(counts[CS_RUNNING], 0);

	/* The source ended, but a replay shows b live until its last event. */
	m->limit = 10;
	assert_int_equal(model_nsessions(m), 2);
	assert_int_equal(model_ncalls(m), 3);
	assert_int_equal(model_session_state(m, 1), SS_LIVE);
	assert_int_equal(model_call_state(m, 2), CS_RUNNING);
	model_session_counts(m, 1, counts);
	assert_int_equal(counts[CS_RUNNING], 1);
	m->limit = 11;
	assert_int_equal(model_session_state(m, 1), SS_INCOMPLETE);
	assert_int_equal(model_call_state(m, 2), CS_ORPHANED);

	/* Counting as of the limit agrees with the counters kept while
	 * indexing once everything is shown. */
	model_session_counts(m, 0, counts);
	assert_int_equal(counts[CS_OK], 1);
	assert_int_equal(counts[CS_ORPHANED], 1);
	m->limit = NONE;
	model_session_counts(m, 0, counts);
	assert_int_equal(counts[CS_OK], 1);
	assert_int_equal(counts[CS_ORPHANED], 1);
	fixture_free(f);
}

/* A session moves on to the next one of its source only once that one's
 * first event is shown. */
static void
test_limit_next_session(void **state)
{
	struct fixture *f = feed(INIT("a", "Auto") START("c1", "readToolCall", "{\"path\":\"x\"}",
							 300) INIT("b", "Auto") USER("next"),
				 false);

	(void)state;
	f->m->limit = 1;
	assert_int_equal(model_session_state(f->m, 0), SS_LIVE);
	assert_int_equal(model_call_state(f->m, 0), CS_RUNNING);
	f->m->limit = 2;
	assert_int_equal(model_session_state(f->m, 0), SS_INCOMPLETE);
	assert_int_equal(model_call_state(f->m, 0), CS_ORPHANED);
	assert_int_equal(model_session_state(f->m, 1), SS_LIVE);
	fixture_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session_per_init),
		cmocka_unit_test(test_delta_text_any_order),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_moved_buffer),
		cmocka_unit_test(test_events_before_init),
		cmocka_unit_test(test_prompt_text),
		cmocka_unit_test(test_partial_output_not_doubled),
		cmocka_unit_test(test_no_partial_segments),
		cmocka_unit_test(test_final_spanning_steps),
		cmocka_unit_test(test_repeated_deltas_kept),
		cmocka_unit_test(test_thinking_phases),
		cmocka_unit_test(test_call_id_with_newline),
		cmocka_unit_test(test_tool_key_and_missing_args),
		cmocka_unit_test(test_result_variants),
		cmocka_unit_test(test_completed_without_started),
		cmocka_unit_test(test_running_then_orphaned),
		cmocka_unit_test(test_orphaned_at_result),
		cmocka_unit_test(test_duplicate_and_empty_ids),
		cmocka_unit_test(test_ids_scoped_by_session),
		cmocka_unit_test(test_unknown_kind_and_type),
		cmocka_unit_test(test_diagnostics),
		cmocka_unit_test(test_crlf_bom_last_line),
		cmocka_unit_test(test_result_fields),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_same_axis),
		cmocka_unit_test(test_time_overflow),
		cmocka_unit_test(test_arrival_times),
		cmocka_unit_test(test_waiting_clock),
		cmocka_unit_test(test_stream_closed),
		cmocka_unit_test(test_stream_opened),
		cmocka_unit_test(test_recorded_open),
		cmocka_unit_test(test_recorded_exit),
		cmocka_unit_test(test_recorded_end),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_limit_next_session),
		cmocka_unit_test(test_json_format_input),
		cmocka_unit_test(test_notices),
		cmocka_unit_test(test_recording_lines),
		cmocka_unit_test(test_sources_interleave),
		cmocka_unit_test(test_stderr_source),
		cmocka_unit_test(test_preamble_adopted),
		cmocka_unit_test(test_recording_command),
		cmocka_unit_test(test_clear),
		cmocka_unit_test(test_parsed_reuse),
		cmocka_unit_test(test_keep_parse),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
