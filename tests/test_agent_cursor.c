/* test_agent_cursor.c: what cursor-agent 2026.09-10 added (src/FORMAT.md
 * §2-§4): decisions asked for and their answers, work that goes on in the
 * background, replies of two model steps glued, and a run that fails
 * with nothing but its stderr. Lines are the real captures' (src/FORMAT.md
 * §0: harness-cli-normalizer 2026.09.15, sloprail task-stream-frames), cut
 * to what matters. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "model.h"
#include "words.h"

#define INIT \
	"{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/w\"," \
	"\"session_id\":\"s1\",\"model\":\"GPT-5 Mini\"}\n"
#define RESULT \
	"{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false," \
	"\"duration_ms\":9000,\"result\":\"\"}\n"
/* A request of query id about call cid, of a type with its args. */
#define ASK(id, type, args, cid, ms) \
	"{\"type\":\"interaction_query\",\"subtype\":\"request\"," \
	"\"query_type\":\"" type "\",\"query\":{\"id\":" id ",\"" type "\":" \
	"{\"args\":{" args ",\"toolCallId\":\"" cid "\"}}}," \
	"\"timestamp_ms\":" ms "}\n"
#define ANSWER(id, type, resp, ms) \
	"{\"type\":\"interaction_query\",\"subtype\":\"response\"," \
	"\"query_type\":\"" type "\",\"response\":{\"id\":" id "," \
	"\"x\":" resp "},\"timestamp_ms\":" ms "}\n"
#define FETCH "webFetchRequestQuery"
#define START(cid, kind, args, ms) \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"" cid \
	"\",\"tool_call\":{\"" kind "\":{\"args\":" args "}}," \
	"\"timestamp_ms\":" ms "}\n"
#define DONE(cid, kind, result, ms) \
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"" cid \
	"\",\"tool_call\":{\"" kind "\":{\"result\":" result "}}," \
	"\"timestamp_ms\":" ms "}\n"

static struct fixture *
feed(const char *text, bool end)
{
	return fixture_new(text, strlen(text), end ? 0 : FX_LIVE);
}

/* The words of item it, in f->b. */
static const char *
item_words(struct fixture *f, uint32_t it)
{
	struct tool_desc td = {0};

	buf_reset(&f->b);
	words_item(f->m, it, 0, &td, &f->b);
	tool_desc_free(&td);
	return f->b.p;
}

/* The item of query q. */
static uint32_t
query_item(struct fixture *f, uint32_t q)
{
	assert_true(q < f->m->nquery);
	return f->m->query[q].item;
}

/* Asked after the call started (a web fetch without --force): one item,
 * tied to the call, rejected with its reason. */
static void
test_ask_after_start(void **state)
{
	struct fixture *f = feed(
		INIT START("c1", "webFetchToolCall", "{\"url\":\"https://example.com\"}",
			   "100") ASK("0", FETCH, "\"url\":\"https://example.com\"", "c1", "101")
			ANSWER("0", FETCH, "{\"rejected\":{\"reason\":\"User Rejected\"}}", "150")
				DONE("c1", "webFetchToolCall",
				     "{\"rejected\":{\"reason\":\"User Rejected\"}}", "400") RESULT,
		true);

	(void)state;
	assert_int_equal(f->m->nquery, 1);
	assert_int_equal(f->m->query[0].call, 0);
	assert_int_equal(f->m->call[0].query, 0);
	assert_int_equal(f->m->query[0].decision, QD_REJECTED);
	assert_string_equal(item_words(f, query_item(f, 0)),
			    "? approve web fetch https://example.com \xE2\x86\x92 "
			    "rejected: User Rejected");
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	fixture_free(f);
}

/* Asked before the call starts (ask question, the toolCallId beside the
 * args): tied to it once it starts; nobody answers in print mode. */
static void
test_ask_before_start(void **state)
{
	struct fixture *f = feed(
		INIT
		"{\"type\":\"interaction_query\",\"subtype\":\"request\",\"query_type\":"
		"\"askQuestionInteractionQuery\",\"query\":{\"id\":0,\"askQuestionInteractionQuery\":"
		"{\"args\":{\"title\":\"Which file to edit?\",\"questions\":[{\"id\":\"f\","
		"\"prompt\":\"Which file should I edit?\",\"options\":[{\"id\":\"n\",\"label\":"
		"\"notes.txt\"},{\"id\":\"o\",\"label\":\"other.txt\"}],\"allowMultiple\":false}]},"
		"\"toolCallId\":\"c1\"}},\"timestamp_ms\":100}\n" ANSWER(
			"0", "askQuestionInteractionQuery",
			"{\"result\":{\"rejected\":{\"reason\":\"Questions skipped by the user\"}}}",
			"100") START("c1", "askQuestionToolCall",
				     "{\"title\":\"Which file to edit?\"}", "150") RESULT,
		true);

	(void)state;
	assert_int_equal(f->m->query[0].call, 0);
	assert_int_equal(f->m->call[0].query, 0);
	assert_string_equal(item_words(f, query_item(f, 0)),
			    "? question \"Which file to edit?\" (notes.txt / other.txt) "
			    "\xE2\x86\x92 skipped: Questions skipped by the user");
	fixture_free(f);
}

/* A question about no call that started, and one never answered: the
 * session waits while live, and is incomplete with no answer once the
 * input ends. */
static void
test_ask_waiting(void **state)
{
	const char *text = INIT ASK("0", FETCH, "\"url\":\"https://a\"", "nowhere", "100");
	struct fixture *f = feed(text, false);

	(void)state;
	assert_int_equal(f->m->query[0].call, NONE);
	assert_int_equal(model_session_state(f->m, 0), SS_WAITING);
	assert_string_equal(model_session_state_name(SS_WAITING), "waiting");
	assert_string_equal(item_words(f, query_item(f, 0)),
			    "? approve web fetch https://a \xE2\x86\x92 waiting for a decision");
	fixture_end(f);
	assert_int_equal(model_session_state(f->m, 0), SS_INCOMPLETE);
	assert_string_equal(item_words(f, query_item(f, 0)),
			    "? approve web fetch https://a \xE2\x86\x92 no answer");
	fixture_free(f);
}

/* Four questions at once, ids 0-3, answered out of order: each answer
 * finds its question. */
static void
test_ask_parallel(void **state)
{
	struct fixture *f = feed(
		INIT START("c0", "webFetchToolCall", "{\"url\":\"u0\"}", "10") START(
			"c1", "webFetchToolCall", "{\"url\":\"u1\"}",
			"11") START("c2", "webFetchToolCall", "{\"url\":\"u2\"}",
				    "12") START("c3", "webFetchToolCall", "{\"url\":\"u3\"}",
						"13") ASK("0", FETCH, "\"url\":\"u0\"", "c0", "20")
			ASK("1", FETCH, "\"url\":\"u1\"", "c1",
			    "21") ASK("2", FETCH, "\"url\":\"u2\"", "c2",
				      "22") ASK("3", FETCH, "\"url\":\"u3\"", "c3", "23")
				ANSWER("2", FETCH, "{\"approved\":{}}", "30")
					ANSWER("0", FETCH, "{\"rejected\":{\"reason\":\"no\"}}",
					       "31") ANSWER("3", FETCH, "{\"approved\":{}}", "32"),
		false);
	static const uint8_t want[4] = {QD_REJECTED, QD_PENDING, QD_APPROVED, QD_APPROVED};

	(void)state;
	assert_int_equal(f->m->nquery, 4);
	for (uint32_t q = 0; q < 4; q++) {
		assert_int_equal(f->m->query[q].call, q);
		assert_int_equal(words_query_decision(f->m, q), want[q]);
	}
	/* Query 1 still waits. */
	assert_int_equal(model_session_state(f->m, 0), SS_WAITING);
	assert_int_equal(f->m->ses[0].nasking, 1);
	fixture_free(f);
}

/* Plan mode: the plan is only in the question. */
static void
test_ask_plan(void **state)
{
	struct fixture *f = feed(
		INIT
		"{\"type\":\"interaction_query\",\"subtype\":\"request\",\"query_type\":"
		"\"createPlanRequestQuery\",\"query\":{\"id\":0,\"createPlanRequestQuery\":"
		"{\"args\":{\"plan\":\"# Plan\\n1. read\\n2. fix\\n\"}}},\"timestamp_ms\":5}\n" ANSWER(
			"0", "createPlanRequestQuery", "{\"approved\":{}}", "9") RESULT,
		true);
	struct tool_desc td = {0};

	(void)state;
	assert_string_equal(item_words(f, query_item(f, 0)),
			    "? plan (3 lines) \xE2\x86\x92 approved");
	buf_reset(&f->b);
	words_item(f->m, query_item(f, 0), WORDS_BODY, &td, &f->b);
	assert_non_null(strstr(f->b.p, "\n# Plan\n1. read\n2. fix\n"));
	tool_desc_free(&td);
	fixture_free(f);
}

#define BG_SHELL \
	START("sh", "shellToolCall", "{\"command\":\"sleep 5\",\"isBackground\":true}", "1000") \
	DONE("sh", "shellToolCall", \
	     "{\"success\":{\"command\":\"sleep 5\",\"exitCode\":0,\"shellId\":339917," \
	     "\"pid\":51562},\"isBackground\":true}", \
	     "1100")
#define NOTIFY(status, ms) \
	"{\"type\":\"system\",\"subtype\":\"task_notification\",\"task_id\":" \
	"\"339917\",\"status\":\"" status "\",\"title\":\"Background sleep\"," \
	"\"timestamp_ms\":" ms "}\n"

/* A background shell runs until the notification of its shellId: its
 * line says so, and its duration is the real one. */
static void
test_background_shell(void **state)
{
	struct fixture *f = feed(INIT BG_SHELL, false);
	struct tool_desc d = {0};

	(void)state;
	assert_true(f->m->call[0].flags & CF_BACKGROUND);
	assert_int_equal(model_call_state(f->m, 0), CS_RUNNING);
	tool_describe(f->m, 0, &d);
	assert_string_equal(d.outcome.p, "background #339917");
	fixture_free(f);

	f = feed(INIT BG_SHELL START("aw", "awaitToolCall",
				     "{\"taskId\":\"339917\",\"blockUntilMs\":10000}", "1200")
			 NOTIFY("success", "6100") RESULT,
		 true);
	assert_int_equal(model_call_state(f->m, 0), CS_OK);
	assert_int_equal(model_call_duration(f->m, 0), 5100);
	assert_int_equal(f->m->call[1].waits, 0);
	tool_describe(f->m, 0, &d);
	assert_string_equal(d.outcome.p, "background #339917: success");
	fixture_free(f);

	/* Its end never seen. */
	f = feed(INIT BG_SHELL RESULT, true);
	assert_int_equal(model_call_state(f->m, 0), CS_ORPHANED);
	tool_describe(f->m, 0, &d);
	assert_string_equal(d.outcome.p, "background #339917, its end not seen");
	fixture_free(f);

	/* A failure. */
	f = feed(INIT BG_SHELL NOTIFY("failed", "2000") RESULT, true);
	assert_int_equal(model_call_state(f->m, 0), CS_FAILED);
	tool_desc_free(&d);
	fixture_free(f);
}

/* Two model steps' replies glued in one final event (sloprail
 * task-stream-frames): a paragraph between them on screen, the CLI's text
 * in the summary's words. */
static void
test_glued(void **state)
{
	struct fixture *f = feed(
		INIT
		"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"Both done.\",\"timestamp_ms\":1}\n"
		"{\"type\":\"thinking\",\"subtype\":\"completed\",\"timestamp_ms\":2}\n" NOTIFY(
			"success",
			"3") "{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"It finished.\",\"timestamp_ms\":4}\n"
			     "{\"type\":\"thinking\",\"subtype\":\"completed\",\"timestamp_ms\":5}\n"
			     "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":"
			     "\"text\",\"text\":\"DONEThe background command finished (`BGDONE`, exit 0).\"}]}}\n" RESULT,
		true);
	uint32_t it = f->m->nit - 2;

	(void)state;
	assert_int_equal(f->m->it[it].type, IT_TEXT);
	assert_string_equal(item_words(f, it),
			    "DONE\n\nThe background command finished (`BGDONE`, exit 0).");
	buf_reset(&f->b);
	model_item_text(f->m, it, &f->b);
	assert_string_equal(f->b.p, "DONEThe background command finished (`BGDONE`, exit 0).");
	fixture_free(f);

	/* One model step: never split, whatever its capitals. */
	f = feed(INIT "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\","
		      "\"text\":\"See HTTPServer.\"}]}}\n" RESULT,
		 true);
	assert_string_equal(item_words(f, f->m->nit - 2), "See HTTPServer.");
	fixture_free(f);
}

/* A run that fails with only stderr (no JSON, or init and the prompt):
 * failed, with the CLI's message. */
static void
test_stderr_only(void **state)
{
	struct fixture *f =
		feed("{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1,"
		     "\"agentview_ms\":1,\"source\":\"command\",\"argv\":[\"cursor-agent\"]}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"stderr\",\"agentview_ms\":2,"
		     "\"text\":\"ActionRequiredError: You've hit your usage limit\"}\n"
		     "{\"type\":\"agentview\",\"subtype\":\"exit\",\"agentview_ms\":3,"
		     "\"exit_status\":1,\"signal\":null}\n",
		     true);

	(void)state;
	assert_int_equal(f->m->nses, 1);
	assert_int_equal(model_session_state(f->m, 0), SS_FAILED);
	buf_reset(&f->b);
	assert_true(words_failure(f->m, 0, &f->b));
	assert_string_equal(f->b.p,
			    "exit status 1: ActionRequiredError: You've hit your usage limit");
	fixture_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ask_after_start), cmocka_unit_test(test_ask_before_start),
		cmocka_unit_test(test_ask_waiting),     cmocka_unit_test(test_ask_parallel),
		cmocka_unit_test(test_ask_plan),        cmocka_unit_test(test_background_shell),
		cmocka_unit_test(test_glued),           cmocka_unit_test(test_stderr_only),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
