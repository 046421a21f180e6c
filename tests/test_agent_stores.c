/* test_agent_stores.c: the agents' own session stores (../shared/STORES.md):
 * Codex's rollouts and Gemini CLI's chats, as the real CLIs wrote them
 * (tests/stores/) and line by line in each record shape: the session, its
 * prompt and reply, its calls paired with their real times, its state and
 * why it failed, its tokens with one meaning for every agent. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"
#include "fixture.h"

#include "agent.h"
#include "json.h"
#include "model.h"
#include "print.h"
#include "summary.h"
#include "tool.h"

static struct fixture *
feed(const char *text)
{
	return fixture_new(text, strlen(text), 0);
}

/* The JSON summary of f's model, in f->b. */
static const char *
summary(struct fixture *f)
{
	buf_reset(&f->b);
	summary_write(f->m, NULL, &f->b, NULL);
	return f->b.p;
}

/* The text log of text, NUL-terminated (free it). */
static char *
logged(const char *text)
{
	struct fixture *x = fixture_new(text, strlen(text), FX_UNREAD);
	struct line ln;
	uint32_t ev;
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	struct printer *p = printer_new(x->m, &format_text, f);

	while (fixture_next(x, &ln, &ev))
		printer_line(p, &x->s, &ln, ev);
	fixture_end(x);
	printer_finish(p);
	printer_free(p);
	fclose(f);
	fixture_free(x);
	return out;
}

/* The text of f's first item of type t, in f->b ("" when none). */
static const char *
item_text(struct fixture *f, enum item_type t)
{
	buf_reset(&f->b);
	buf_adds(&f->b, "");
	for (size_t i = 0; i < f->m->nit; i++)
		if (f->m->it[i].type == t) {
			model_item_text(f->m, (uint32_t)i, &f->b);
			break;
		}
	return f->b.p;
}

/* The one session of f, of agent a. */
static void
one_session(struct fixture *f, unsigned a)
{
	assert_int_equal(f->m->nses, 1);
	assert_int_equal(f->m->ses[0].agent, a);
	assert_int_equal(f->m->ndiag, 0);
}

static void
tokens_are(struct fixture *f, int64_t in, int64_t cache_read, int64_t cache_write, int64_t out)
{
	struct tokens t;

	assert_true(model_session_tokens(f->m, 0, &t));
	assert_int_equal(t.in, in);
	assert_int_equal(t.cache_read, cache_read);
	assert_int_equal(t.cache_write, cache_write);
	assert_int_equal(t.out, out);
}

#define ROLLOUT(kind, snap, file) \
	"tests/stores/codex/" kind "/" snap "/sessions/2026/11/27/rollout-" file ".jsonl"
#define HEADLESS "2026-11-27T09-34-16-01a21c5b-04a2-7b62-883f-9c911c27d596"

/* Codex 0.171.0 headless: echo hello, then the reply after 3 s. */
static void
test_rollout_headless(void **state)
{
	struct fixture *f = fixture_file(ROLLOUT("headless", "done", HEADLESS), 0);
	const struct call *c;

	(void)state;
	one_session(f, AGENT_CODEX_ROLLOUT);
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	assert_int_equal(f->m->ses[0].nprompts, 1);
	assert_int_equal(f->m->ncall, 1);
	c = &f->m->call[0];
	assert_int_equal(c->kind, TK_SHELL);
	assert_int_equal(model_call_state(f->m, 0), CS_OK);
	/* Paired: the function_call, its item, its output the model read. */
	assert_true(c->start_ev != NONE && c->done_ev != NONE);
	/* Real times: the call issued at 09:34:17.180, its item's span
	 * 1795772057253 - 1795772057254. */
	assert_int_equal(c->start_ms, 1795772057180);
	assert_true(c->end_ms >= c->start_ms && c->end_ms - c->start_ms < 100);
	assert_int_equal(f->m->ses[0].duration_ms, 3496);
	/* token_count's total: 210 in (none cached), 41 out. */
	tokens_are(f, 210, 0, 0, 41);
	summary(f);
	assert_non_null(strstr(f->b.p, "\"agent\":\"codex-rollout\""));
	assert_non_null(strstr(f->b.p, "\"session_id\":\"01a21c5b-04a2-7b62-883f-9c911c27d596\""));
	assert_non_null(strstr(f->b.p,
			       "\"usage\":{\"input_tokens\":210,\"cache_read_input_tokens\":0,"
			       "\"cache_creation_input_tokens\":0,\"output_tokens\":41}"));
	assert_non_null(strstr(f->b.p, "\"prompts\":[\"Run the shell command `echo hello` and "
				       "tell me what it printed.\"]"));
	assert_non_null(strstr(f->b.p, "\"assistant_text\":\"Let me run the command.\\n\\nThe "
				       "command printed hello. Done.\""));
	assert_non_null(strstr(f->b.p, "\"summary\":\"echo hello\",\"outcome\":\"\\\"hello\\\"\""));
	fixture_free(f);
}

/* The model server answers 500: task_complete carries the error. */
static void
test_rollout_failed(void **state)
{
	struct fixture *f =
		fixture_file(ROLLOUT("failed", "done",
				     "2026-11-27T09-34-21-01a21c5b-17ad-7202-babd-8ec757a49464"),
			     0);

	(void)state;
	one_session(f, AGENT_CODEX_ROLLOUT);
	assert_int_equal(model_session_state(f->m, 0), SS_FAILED);
	summary(f);
	assert_non_null(
		strstr(f->b.p, "\"error\":\"We\xE2\x80\x99re currently experiencing high demand"));
	tokens_are(f, 100, 0, 0, 20);
	fixture_free(f);
}

/* Held at the approval prompt: the call has no end, the turn is open. */
static void
test_rollout_waiting(void **state)
{
	struct fixture *f =
		fixture_file(ROLLOUT("ask", "waiting",
				     "2026-11-27T09-34-36-01a21c5b-5325-79d0-9a26-b2f6a8fe3f3c"),
			     FX_LIVE);

	(void)state;
	one_session(f, AGENT_CODEX_ROLLOUT);
	assert_int_equal(f->m->ncall, 1);
	assert_int_equal(model_call_state(f->m, 0), CS_RUNNING);
	/* What it waits to run, from its arguments. */
	assert_non_null(strstr(summary(f), "\"summary\":\"touch made.txt\""));
	assert_int_equal(model_session_state(f->m, 0), SS_LIVE);
	fixture_free(f);
}

#define TS(s) "{\"timestamp\":\"2026-11-27T09:00:" s "Z\","
#define META \
	TS("00.000") \
	"\"type\":\"session_meta\",\"payload\":{\"id\":\"th1\",\"cwd\":\"/w\"," \
	"\"cli_version\":\"0.40.0\"}}\n"
#define EVENT(s, rest) TS(s) "\"type\":\"event_msg\",\"payload\":{" rest "}}\n"
#define ITEM(s, rest) TS(s) "\"type\":\"response_item\",\"payload\":{" rest "}}\n"

/* clang-format off */
static const char older[] =
	META
	EVENT("00.100", "\"type\":\"task_started\"")
	ITEM("00.150", "\"type\":\"message\",\"role\":\"user\",\"content\":"
		"[{\"type\":\"input_text\",\"text\":\"<environment_context/>\"}]")
	EVENT("00.200", "\"type\":\"user_message\",\"message\":\"list it\"")
	EVENT("00.300", "\"type\":\"agent_reasoning\",\"text\":\"Thinking.\"")
	ITEM("00.400", "\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":\"{}\","
		"\"call_id\":\"c1\"")
	EVENT("02.400", "\"type\":\"exec_command_end\",\"call_id\":\"c1\","
		"\"command\":[\"bash\",\"-lc\",\"ls /nope\"],\"stdout\":\"\",\"stderr\":\"no\","
		"\"exit_code\":2")
	ITEM("02.500", "\"type\":\"function_call_output\",\"call_id\":\"c1\",\"output\":\"exit 2\"")
	ITEM("02.600", "\"type\":\"custom_tool_call\",\"name\":\"apply_patch\","
		"\"input\":\"*** Begin Patch\",\"call_id\":\"c2\"")
	EVENT("02.700", "\"type\":\"patch_apply_end\",\"call_id\":\"c2\",\"success\":true,"
		"\"stdout\":\"M a\"")
	EVENT("02.800", "\"type\":\"agent_message\",\"message\":\"Listed.\"")
	EVENT("02.900", "\"type\":\"token_count\",\"info\":{\"total_token_usage\":{"
		"\"input_tokens\":1000,\"cached_input_tokens\":400,\"output_tokens\":50,"
		"\"reasoning_output_tokens\":10}}")
	EVENT("03.000", "\"type\":\"task_complete\",\"duration_ms\":2900")
	EVENT("04.000", "\"type\":\"task_started\"")
	EVENT("04.100", "\"type\":\"user_message\",\"message\":\"again\"")
	EVENT("05.000", "\"type\":\"turn_aborted\",\"reason\":\"interrupted\"");
/* clang-format on */

/* The older shapes (2025 to mid 2026): user_message, agent_reasoning,
 * agent_message, exec_command_end, patch_apply_end; a second turn; a turn
 * aborted; cached input apart from the input. */
static void
test_rollout_older(void **state)
{
	struct fixture *f = feed(older);
	const char *s;
	char *log;

	(void)state;
	one_session(f, AGENT_CODEX_ROLLOUT);
	/* The environment context is no prompt: the two typed ones are. */
	assert_int_equal(f->m->ses[0].nprompts, 2);
	assert_int_equal(f->m->ses[0].nresults, 2);
	assert_int_equal(f->m->ncall, 2);
	/* exec_command_end ended the shell call, exit 2; the output the
	 * model read after it made no call of its own. */
	assert_int_equal(f->m->call[0].kind, TK_SHELL);
	assert_int_equal(model_call_state(f->m, 0), CS_FAILED);
	assert_int_equal(f->m->call[0].end_ms - f->m->call[0].start_ms, 2000);
	assert_int_equal(f->m->call[1].kind, TK_EDIT);
	assert_int_equal(model_call_state(f->m, 1), CS_OK);
	tokens_are(f, 600, 400, 0, 50);
	s = summary(f);
	assert_non_null(strstr(s, "\"summary\":\"ls /nope\",\"outcome\":\"exit 2"));
	assert_non_null(strstr(s, "\"assistant_text\":\"Listed.\""));
	assert_string_equal(item_text(f, IT_THINKING), "Thinking.");
	fixture_free(f);
	s = log = logged(older);
	assert_non_null(strstr(s, "turn aborted: interrupted"));
	free(log);
}

/* clang-format off */
static const char items[] =
	META
	ITEM("01.000", "\"type\":\"function_call\",\"name\":\"exec_command\","
		"\"arguments\":\"{\\\"cmd\\\":\\\"sleep 3\\\"}\",\"call_id\":\"c1\"")
	EVENT("05.000", "\"type\":\"item_completed\",\"item\":{\"type\":\"CommandExecution\","
		"\"id\":\"c1\",\"command\":[\"/bin/bash\",\"-lc\",\"sleep 3\"],"
		"\"aggregated_output\":\"\",\"exit_code\":0,\"status\":\"completed\"},"
		"\"started_at_ms\":1795770001500,\"completed_at_ms\":1795770004500")
	ITEM("05.100", "\"type\":\"custom_tool_call\",\"name\":\"apply_patch\",\"input\":\"p\","
		"\"call_id\":\"c2\"")
	EVENT("05.200", "\"type\":\"item_completed\",\"item\":{\"type\":\"FileChange\","
		"\"id\":\"c2\",\"changes\":{\"/w/a.py\":{\"type\":\"update\","
		"\"unified_diff\":\"@@ -1 +1 @@\\n-a\\n+b\\n\"},\"/w/b.py\":{\"type\":\"add\","
		"\"content\":\"x\"}},\"status\":\"completed\"}")
	ITEM("05.300", "\"type\":\"function_call\",\"name\":\"exec_command\","
		"\"arguments\":\"{\\\"cmd\\\": \\\"rm -rf x\\\"}\",\"call_id\":\"c3\"")
	ITEM("05.400", "\"type\":\"function_call\",\"name\":\"exec_command\","
		"\"arguments\":\"{\\\"cmd\\\": \\\"echo \\\\\\\"q\\\\\\\"\\\"}\",\"call_id\":\"c4\"")
	ITEM("05.500", "\"type\":\"function_call_output\",\"call_id\":\"c4\","
		"\"output\":\"aborted by user\"")
	ITEM("09.000", "\"type\":\"function_call_output\",\"call_id\":\"c3\","
		"\"output\":\"aborted by user\"")
	EVENT("09.100", "\"type\":\"item_completed\",\"item\":{\"type\":\"CommandExecution\","
		"\"id\":\"u1\",\"command\":\"make\",\"exit_code\":0,\"status\":\"completed\"}")
	EVENT("09.200", "\"type\":\"item_completed\",\"item\":{\"type\":\"ContextCompaction\"}")
	ITEM("09.300", "\"type\":\"web_search_call\",\"id\":\"ws1\",\"status\":\"completed\","
		"\"action\":{\"type\":\"search\",\"query\":\"jsmn tokens\"}");
/* clang-format on */

/* 0.17x items: a command's span from its item, a change of files by path,
 * an approval cancelled (its output only), a command the user ran (an
 * item with no call before it), a compaction. */
static void
test_rollout_items(void **state)
{
	struct fixture *f = feed(items);
	const struct call *c = &f->m->call[0];
	const char *s;
	char *log;

	(void)state;
	one_session(f, AGENT_CODEX_ROLLOUT);
	assert_int_equal(f->m->ncall, 6);
	/* Issued at 09:00:01.000, ran 3 s by its item's own clock. */
	assert_int_equal(c->end_ms - c->start_ms, 3000);
	assert_int_equal(f->m->call[1].kind, TK_EDIT);
	assert_int_equal(model_call_state(f->m, 2), CS_REJECTED);
	assert_int_equal(f->m->call[4].start_ev, NONE);
	assert_int_equal(f->m->call[4].kind, TK_SHELL);
	s = summary(f);
	assert_non_null(strstr(s, "\"summary\":\"sleep 3\""));
	assert_non_null(strstr(s, "\"summary\":\"make\""));
	assert_non_null(strstr(s, "\"kind\":\"websearch\",\"state\":\"ok\",\"started\":true,"
				  "\"summary\":\"jsmn tokens\""));
	/* A refused command said as its arguments ask it; one with an
	 * escape in it not misread. */
	assert_non_null(strstr(s, "\"call_id\":\"c3\",\"parent\":null,\"tool\":\"exec_command\","
				  "\"kind\":\"shell\",\"state\":\"rejected\",\"started\":true,"
				  "\"summary\":\"rm -rf x\""));
	assert_non_null(strstr(s, "\"state\":\"rejected\",\"started\":true,\"summary\":\"\""));
	/* a.py's diff: +1 -1; b.py new, one line. */
	assert_non_null(strstr(s, "\"summary\":\"/w/a.py and 1 more\",\"outcome\":\"+2 "
				  "\xE2\x88\x92"
				  "1\""));
	fixture_free(f);
	s = log = logged(items);
	assert_non_null(strstr(s, "conversation compacted"));
	free(log);
}

/* A rollout read from its middle (a piece of it, a file cut): the lines
 * are Codex's, and so is the session they make, not the default agent's. */
static void
test_rollout_without_meta(void **state)
{
	struct fixture *f = feed(strstr(items, "\n") + 1);

	(void)state;
	one_session(f, AGENT_CODEX_ROLLOUT);
	assert_int_equal(f->m->ses[0].init_ev, NONE);
	assert_int_equal(f->m->ncall, 6);
	fixture_free(f);
}

#define ORD(s, n) "{\"timestamp\":\"2026-11-27T09:00:" s "Z\",\"ordinal\":" n ","

/* clang-format off */
static const char rollout_books[] =
	META
	ORD("00.100", "1") "\"type\":\"event_msg\",\"payload\":{\"type\":\"task_started\"}}\n"
	ORD("00.110", "2") "\"type\":\"world_state\",\"payload\":{\"full\":true,\"state\":{\"torn\n"
	ORD("00.120", "3") "\"type\":\"turn_context\",\"payload\":{\"cwd\":\n"
	ORD("00.130", "4") "\"type\":\"event_msg\",\"payload\":{\"type\":"
		"\"thread_settings_applied\",\"thread_settings\":[\n"
	ORD("00.140", "5") "\"type\":\"response_item\",\"payload\":{\"type\":\"message\","
		"\"role\":\"developer\",\"content\":[{\"text\":\"<perm\n"
	ORD("00.150", "6") "\"type\":\"response_item\",\"payload\":{\"type\":\"reasoning\",\"x\n"
	EVENT("00.200", "\"type\":\"user_message\",\"message\":\"list it\"")
	EVENT("00.300", "\"type\":\"agent_message\",\"message\":\"Listed.\"")
	ORD("00.400", "9") "\"type\":\"token_usage_record\",\"payload\":{\"usage\":{\n"
	EVENT("00.500", "\"type\":\"task_complete\"");
/* clang-format on */

/* The CLI's context (its state, settings, usage books, the messages and
 * reasoning the events say again) makes no item, and is not parsed: torn,
 * such records say nothing, and their times still count. Any other
 * record torn is said. */
static void
test_rollout_books_unparsed(void **state)
{
	struct fixture *f = feed(rollout_books);

	(void)state;
	one_session(f, AGENT_CODEX_ROLLOUT);
	assert_int_equal(f->m->ses[0].nprompts, 1);
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	assert_string_equal(item_text(f, IT_TEXT), "Listed.");
	fixture_free(f);
	/* The last line a book: the session's clock is still its time. */
	f = feed(META ORD("00.100", "1") "\"type\":\"event_msg\",\"payload\":{\"type\":"
					 "\"task_started\"}}\n" ORD(
						 "00.900",
						 "2") "\"type\":\"world_state\",\"payload\":{\n");
	one_session(f, AGENT_CODEX_ROLLOUT);
	assert_int_equal(f->m->ses[0].last_ms - f->m->ses[0].start_ms, 900);
	fixture_free(f);
	/* A call's record is no book: torn, it is said. */
	f = feed(META ORD("00.100", "1") "\"type\":\"response_item\",\"payload\":{\"type\":"
					 "\"function_call\",\"name\":\n");
	assert_int_equal(f->m->ndiag, 1);
	fixture_free(f);
}

#define CHATS(kind, snap) "tests/stores/gemini/" kind "/" snap "/.gemini/tmp/work/chats/"

/* Gemini CLI 0.61.0 headless: the reply written, then again with its
 * call once it ran; the tool's result a user message of its own. */
static void
test_chat_headless(void **state)
{
	struct fixture *f = fixture_file(
		CHATS("headless", "done") "session-2026-11-27T09-33-e18d5f61.jsonl", 0);
	const struct call *c;
	const char *s;

	(void)state;
	one_session(f, AGENT_GEMINI_CHAT);
	/* The session context and the tool's result are no prompts. */
	assert_int_equal(f->m->ses[0].nprompts, 1);
	assert_int_equal(f->m->ncall, 1);
	c = &f->m->call[0];
	assert_int_equal(c->kind, TK_SHELL);
	assert_int_equal(model_call_state(f->m, 0), CS_OK);
	/* From the reply's time to the call's: 48.155 to 48.269. */
	assert_int_equal(c->end_ms - c->start_ms, 114);
	/* Each message's tokens once, though written twice: 100 + 110 in,
	 * 20 + 21 out (ccusage says 210 and 41). */
	tokens_are(f, 210, 0, 0, 41);
	s = summary(f);
	assert_non_null(strstr(s, "\"session_id\":\"e18d5f61-5c35-4dbe-bdb7-b65bd0dd9437\""));
	assert_non_null(
		strstr(s, "\"assistant_text\":\"Let me run the command.\\n\\nThe command printed "
			  "hello. Done.\""));
	assert_non_null(strstr(s, "\"summary\":\"echo hello\",\"outcome\":\"\\\"hello\\\"\""));
	fixture_free(f);
}

/* Interactive: the call's display is styled spans; what it says is the
 * output the model read, without its untrusted_context tags. */
static void
test_chat_tmux(void **state)
{
	struct fixture *f =
		fixture_file(CHATS("tmux", "done") "session-2026-11-27T09-33-b89b9a05.jsonl", 0);

	(void)state;
	one_session(f, AGENT_GEMINI_CHAT);
	assert_int_equal(f->m->ncall, 1);
	assert_non_null(
		strstr(summary(f), "\"outcome\":\"\\\"Output: hello\\\" \xC2\xB7 2 lines\""));
	fixture_free(f);
}

#define HEAD \
	"{\"sessionId\":\"g-1\",\"projectHash\":\"ab\",\"startTime\":" \
	"\"2026-11-27T09:00:00.000Z\",\"lastUpdated\":\"2026-11-27T09:00:00.000Z\",\"kind\":" \
	"\"main\"}\n"
#define CONTEXT \
	"{\"id\":\"ctx\",\"timestamp\":\"2026-11-27T09:00:00.000Z\",\"type\":\"user\"," \
	"\"content\":[{\"text\":\"<session_context>\\nThis is the Gemini CLI.\"}]}"
#define USER(id, s, text) \
	"{\"id\":\"" id "\",\"timestamp\":\"2026-11-27T09:00:" s "Z\",\"type\":\"user\"," \
	"\"content\":[{\"text\":\"" text "\"}]}"
#define TOKENS \
	"\"tokens\":{\"input\":1000,\"output\":100,\"cached\":300,\"thoughts\":50,\"tool\":10," \
	"\"total\":1160}"
#define REPLY(id, s, text, more) \
	"{\"id\":\"" id "\",\"timestamp\":\"2026-11-27T09:00:" s "Z\",\"type\":\"gemini\"," \
	"\"content\":\"" text "\",\"thoughts\":[{\"subject\":\"Plan\",\"description\":" \
	"\"Run it.\",\"timestamp\":\"2026-11-27T09:00:01.000Z\"}]," TOKENS more "}"
#define SHELL(id, cmd, s, status) \
	"{\"id\":\"" id "\",\"name\":\"run_shell_command\",\"args\":{\"command\":\"" cmd "\"}," \
	"\"result\":[{\"functionResponse\":{\"id\":\"" id "\",\"name\":\"run_shell_command\"," \
	"\"response\":{\"output\":\"out of " cmd "\"}}}],\"status\":\"" status \
	"\",\"timestamp\":\"2026-11-27T09:00:" s "Z\",\"resultDisplay\":\"out of " cmd "\"}"
#define CALLS \
	",\"toolCalls\":[" SHELL("t1", "echo a", "03.000", \
				 "success") "," SHELL("t2", "false", "04.000", "error") "]"

/* clang-format off */
static const char patch_log[] =
	HEAD
	"{\"$set\":{\"messages\":[" CONTEXT "]}}\n"
	USER("u1", "01.000", "run them") "\n"
	REPLY("g1", "02.000", "Running.", "") "\n"
	"{\"$set\":{\"lastUpdated\":\"2026-11-27T09:00:02.000Z\"}}\n"
	REPLY("g1", "02.000", "Running.", CALLS) "\n"
	REPLY("g1", "02.000", "Running.", CALLS) "\n"
	"{\"id\":\"r1\",\"timestamp\":\"2026-11-27T09:00:04.500Z\",\"type\":\"user\","
	"\"content\":[{\"functionResponse\":{\"id\":\"t1\",\"name\":\"x\",\"response\":{}}}]}\n"
	"{\"id\":\"e1\",\"timestamp\":\"2026-11-27T09:00:05.000Z\",\"type\":\"error\","
	"\"content\":\"quota exceeded\"}\n"
	"{\"$rewindTo\":\"u1\"}\n"
	"{\"$set\":{\"messages\":[" CONTEXT "," USER("u1", "01.000", "run them") "]}}\n";
/* clang-format on */

/* The patch log: a reply written three times (text, then its calls, then
 * again) makes one text, two calls and its tokens once; a reset and a
 * rewind are rules; an error message a notice. */
static void
test_chat_patch_log(void **state)
{
	struct fixture *f = feed(patch_log);
	const char *s;
	char *log;

	(void)state;
	one_session(f, AGENT_GEMINI_CHAT);
	assert_int_equal(f->m->ses[0].nprompts, 1);
	assert_int_equal(f->m->ncall, 2);
	assert_int_equal(model_call_state(f->m, 0), CS_OK);
	assert_int_equal(model_call_state(f->m, 1), CS_FAILED);
	/* Each from the reply's time to its own. */
	assert_int_equal(f->m->call[0].end_ms - f->m->call[0].start_ms, 1000);
	assert_int_equal(f->m->call[1].end_ms - f->m->call[1].start_ms, 2000);
	/* 1000 in of which 300 cached, 10 of a tool's; 100 out and 50 of
	 * thoughts: counted once. */
	tokens_are(f, 710, 300, 0, 150);
	s = summary(f);
	assert_non_null(strstr(s, "\"assistant_text\":\"Running.\""));
	assert_non_null(strstr(s, "\"summary\":\"false\""));
	assert_string_equal(item_text(f, IT_THINKING), "Plan: Run it.");
	fixture_free(f);
	s = log = logged(patch_log);
	assert_non_null(strstr(s, "error: quota exceeded"));
	assert_non_null(strstr(s, "rewound"));
	assert_non_null(strstr(s, "conversation reset to 2 messages"));
	free(log);
}

/* clang-format off */
static const char whole_file[] =
	"{\"sessionId\":\"g-2\",\"projectHash\":\"ab\","
	"\"startTime\":\"2026-11-27T09:00:00.000Z\",\"messages\":["
	USER("u1", "01.000", "first") ","
	REPLY("g1", "02.000", "One.", ",\"toolCalls\":[" SHELL("t1", "echo a", "03.000", "success") "]") ","
	USER("u2", "05.000", "second") ","
	"{\"id\":\"g0\",\"timestamp\":\"2026-11-27T09:00:05.500Z\",\"type\":\"gemini\","
	"\"content\":[{\"text\":\"In parts.\"}]},"
	REPLY("g2", "06.000", "Two.", ",\"toolCalls\":[" SHELL("t2", "echo b", "07.000", "success") "]")
	"]}\n";
/* clang-format on */

/* The older whole-file form on one line: the header with its messages;
 * each call read from its own message. */
static void
test_chat_whole_file(void **state)
{
	struct fixture *f = feed(whole_file);
	const char *s;

	(void)state;
	one_session(f, AGENT_GEMINI_CHAT);
	assert_int_equal(f->m->ncall, 2);
	assert_int_equal(f->m->call[1].end_ms - f->m->call[1].start_ms, 1000);
	tokens_are(f, 1420, 600, 0, 300);
	s = summary(f);
	assert_non_null(strstr(s, "\"summary\":\"echo a\""));
	assert_non_null(strstr(s, "\"summary\":\"echo b\",\"outcome\":\"\\\"out of echo b\\\"\""));
	assert_non_null(strstr(s, "\"prompts\":[\"first\\n\\nsecond\"]"));
	/* A reply in parts (older versions) is text too. */
	assert_non_null(strstr(s, "\"assistant_text\":\"One.\\n\\nIn parts.\\n\\nTwo.\""));
	fixture_free(f);
}

/* The older whole-file form as Gemini CLI wrote it, indented across lines:
 * one diagnostic that says so, not one a line. */
static void
test_chat_pretty_file(void **state)
{
	static const char pretty[] = "{\n"
				     "  \"sessionId\": \"g-3\",\n"
				     "  \"projectHash\": \"ab\",\n"
				     "  \"messages\": [\n"
				     "    {\n"
				     "      \"id\": \"u1\",\n"
				     "      \"type\": \"user\",\n"
				     "      \"content\": \"hi\"\n"
				     "    }\n"
				     "  ]\n"
				     "}\n";
	struct fixture *f = feed(pretty);

	(void)state;
	assert_int_equal(f->m->ndiag, 1);
	assert_int_equal(f->m->diag[0].line, 1);
	model_diag_message(f->m, 0, &f->b);
	assert_string_equal(f->b.p, "a JSON document across lines, not one JSON object a line: "
				    "the lines after it are not read");
	fixture_free(f);
}

/* The session list cuts a rollout start's base instructions out before
 * it parses the line (agent_lean): the members after them kept, the line
 * still JSON, whatever the instructions hold; a short line, or one whose
 * instructions come late, left whole. */
static void
test_rollout_lean(void **state)
{
	static const char head[] =
		"{\"timestamp\":\"2026-11-27T09:34:26.750Z\",\"ordinal\":0,\"type\":\"session_meta\","
		"\"payload\":{\"id\":\"s1\",\"cwd\":\"/w\",\"base_instructions\":{\"text\":\"";
	static const char tail[] = "\"},\"git\":{\"branch\":\"main\"}}}";
	static const char want[] =
		"{\"timestamp\":\"2026-11-27T09:34:26.750Z\",\"ordinal\":0,\"type\":\"session_meta\","
		"\"payload\":{\"id\":\"s1\",\"cwd\":\"/w\",\"git\":{\"branch\":\"main\"}}}";
	struct buf b = {0};
	struct json *j = json_new();
	size_t n;

	(void)state;
	buf_adds(&b, head);
	while (b.n < 3 * AGENT_LEAN_MIN)
		buf_adds(&b, "a \\\"quoted\\\" } ] { [ ,\\\"base_instructions\\\": \\\\ ");
	buf_adds(&b, tail);
	n = agent_lean(b.p, b.n);
	assert_int_equal(n, strlen(want));
	assert_memory_equal(b.p, want, n);
	assert_int_equal(json_parse(j, b.p, n), JSON_OK);
	/* Short: whole. */
	buf_reset(&b);
	buf_adds(&b, head);
	buf_adds(&b, "short");
	buf_adds(&b, tail);
	assert_int_equal(agent_lean(b.p, b.n), b.n);
	/* The instructions after the first AGENT_LEAN_LOOK bytes: whole. */
	buf_reset(&b);
	buf_adds(&b, "{\"payload\":{\"pad\":\"");
	while (b.n < AGENT_LEAN_LOOK)
		buf_adds(&b, "pad ");
	buf_adds(&b, "\",\"base_instructions\":\"");
	while (b.n < 3 * AGENT_LEAN_MIN)
		buf_adds(&b, "text ");
	buf_adds(&b, "\"}}");
	assert_int_equal(agent_lean(b.p, b.n), b.n);
	/* Instructions that never end: whole. */
	buf_reset(&b);
	buf_adds(&b, head);
	while (b.n < 3 * AGENT_LEAN_MIN)
		buf_adds(&b, "text ");
	assert_int_equal(agent_lean(b.p, b.n), b.n);
	json_free(j);
	buf_free(&b);
}

/* A rollout's tokens so far are totals: the session list passes them
 * over unparsed but for the last (LINE_TOTALS); its other events it
 * reads. */
static void
test_rollout_quiet(void **state)
{
	static const char stamp[] = "{\"timestamp\":\"2026-11-27T09:34:26.750Z\",\"ordinal\":9,";
	static const char *const quiet[] = {
		"\"type\":\"event_msg\",\"payload\":{\"type\":\"token_count\",\"info\":{}}}",
	};
	static const char *const heard[] = {
		"\"type\":\"event_msg\",\"payload\":{\"type\":\"task_complete\",\"turn_id\":\"t\"}}",
		"\"type\":\"event_msg\",\"payload\":{\"type\":\"item_completed\",\"item\":{}}}",
		"\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\",\"x\":1}}",
	};
	int a = agent_find("codex-rollout");
	struct buf b = {0};

	(void)state;
	assert_true(a >= 0);
	for (size_t i = 0; i < ARRAY_LEN(quiet); i++) {
		buf_reset(&b);
		buf_adds(&b, stamp);
		buf_adds(&b, quiet[i]);
		/* The tokens so far: the last of them read. */
		assert_int_equal(agent_quiet((unsigned)a, b.p, b.n, false), LINE_TOTALS);
		/* Without its stamp, not the CLI's line: parsed. */
		assert_int_equal(agent_quiet((unsigned)a, quiet[i], strlen(quiet[i]), false),
				 LINE_HEARD);
	}
	for (size_t i = 0; i < ARRAY_LEN(heard); i++) {
		buf_reset(&b);
		buf_adds(&b, stamp);
		buf_adds(&b, heard[i]);
		assert_int_equal(agent_quiet((unsigned)a, b.p, b.n, false), LINE_HEARD);
	}
	buf_free(&b);
}

/* The line of a reply with n calls, "echo 0" to "echo n-1", after a
 * session's header, into text. */
static void
many_calls(struct buf *text, int n)
{
	buf_adds(text, "{\"sessionId\":\"g-4\",\"projectHash\":\"ab\"}\n"
		       "{\"id\":\"g1\",\"timestamp\":\"2026-11-27T09:00:02.000Z\","
		       "\"type\":\"gemini\",\"content\":\"Many.\",\"toolCalls\":[");
	for (int i = 0; i < n; i++)
		buf_addf(text,
			 "%s{\"id\":\"t%d\",\"name\":\"run_shell_command\","
			 "\"args\":{\"command\":\"echo %d\"},\"status\":\"success\","
			 "\"timestamp\":\"2026-11-27T09:00:03.000Z\"}",
			 i > 0 ? "," : "", i, i);
	buf_adds(text, "]}\n");
}

/* A reply with more than 256 calls on its line: each call is its own
 * (the 300th is not the 256th). */
static void
test_chat_calls_past_256(void **state)
{
	struct buf text = {0}, want = {0};
	struct tool_desc d = {0};
	struct fixture *f;

	(void)state;
	many_calls(&text, 300);
	f = fixture_new(text.p, text.n, 0);
	assert_int_equal(f->m->ncall, 300);
	for (uint32_t c = 0; c < 300; c++) {
		tool_describe(f->m, c, &d);
		buf_reset(&want);
		buf_addf(&want, "echo %u", c);
		assert_string_equal(d.what.p, want.p);
	}
	tool_desc_free(&d);
	fixture_free(f);
	buf_free(&text);
	buf_free(&want);
}

/* The CPU time, in microseconds, of describing every call of the model
 * of text: the least of three tries (a shared machine). */
static int64_t
describe_all_us(const struct buf *text, uint32_t ncalls, const char *last)
{
	struct fixture *f = fixture_new(text->p, text->n, 0);
	struct tool_desc d = {0};
	int64_t best = INT64_MAX;

	assert_int_equal(f->m->ncall, ncalls);
	for (int k = 0; k < 3; k++) {
		struct timespec a, b;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
		for (uint32_t c = 0; c < ncalls; c++)
			tool_describe(f->m, c, &d);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
		best = MIN(best, (int64_t)(b.tv_sec - a.tv_sec) * 1000000 +
					 (b.tv_nsec - a.tv_nsec) / 1000);
	}
	assert_string_equal(d.what.p, last);
	tool_desc_free(&d);
	fixture_free(f);
	return best;
}

/* Calls n times as many take less than 2n times as long (linear, give or
 * take: quadratic would be n times n), however fast the machine is
 * (valgrind, ASan, a loaded host); make(text, k) writes a file of k. */
static void
linear(void (*make)(struct buf *, int), int k, int n)
{
	struct buf a = {0}, b = {0}, last = {0};
	int64_t ta, tb;

	make(&a, k);
	make(&b, k * n);
	buf_addf(&last, "echo %d", k - 1);
	ta = describe_all_us(&a, (uint32_t)k, last.p);
	buf_reset(&last);
	buf_addf(&last, "echo %d", k * n - 1);
	tb = describe_all_us(&b, (uint32_t)(k * n), last.p);
	if (tb >= 2 * n * MAX(ta, 1000))
		fail_msg("%d calls: %lld us, %d: %lld us", k, (long long)ta, k * n, (long long)tb);
	buf_free(&a);
	buf_free(&b);
	buf_free(&last);
}

/* A reply with thousands of calls on its one line (a hostile chat file,
 * or the whole-file form of a long session): each call described reads
 * the line's one parse, not the line again (which made describing every
 * call quadratic: 37 s for the 10 000 calls of a 1.6 MB file), and finds
 * its place in the line from the last one's, not from the line's start
 * (4 s for 40 000). */
static void
test_chat_many_calls(void **state)
{
	(void)state;
	linear(many_calls, 5000, 8);
}

/* The whole-file form, each call in a message of its own. */
static void
whole_file_calls(struct buf *text, int n)
{
	buf_adds(text, "{\"sessionId\":\"g-5\",\"projectHash\":\"ab\",\"messages\":[");
	for (int i = 0; i < n; i++)
		buf_addf(text,
			 "%s{\"id\":\"g%d\",\"timestamp\":\"2026-11-27T09:00:02.000Z\","
			 "\"type\":\"gemini\",\"content\":\"\",\"toolCalls\":[{\"id\":\"t%d\","
			 "\"name\":\"run_shell_command\",\"args\":{\"command\":\"echo %d\"},"
			 "\"status\":\"success\"}]}",
			 i > 0 ? "," : "", i, i, i);
	buf_adds(text, "]}\n");
}

/* As many messages, a call each, in the whole-file form: the message of
 * each call found from the last one's (80 s for the 10 000 messages of a
 * 2.7 MB file when counted from the start). */
static void
test_chat_calls_in_order(void **state)
{
	(void)state;
	linear(whole_file_calls, 5000, 8);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rollout_headless),
		cmocka_unit_test(test_rollout_failed),
		cmocka_unit_test(test_rollout_waiting),
		cmocka_unit_test(test_rollout_older),
		cmocka_unit_test(test_rollout_items),
		cmocka_unit_test(test_rollout_without_meta),
		cmocka_unit_test(test_rollout_books_unparsed),
		cmocka_unit_test(test_rollout_lean),
		cmocka_unit_test(test_rollout_quiet),
		cmocka_unit_test(test_chat_headless),
		cmocka_unit_test(test_chat_tmux),
		cmocka_unit_test(test_chat_patch_log),
		cmocka_unit_test(test_chat_whole_file),
		cmocka_unit_test(test_chat_pretty_file),
		cmocka_unit_test(test_chat_calls_past_256),
		cmocka_unit_test(test_chat_many_calls),
		cmocka_unit_test(test_chat_calls_in_order),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
