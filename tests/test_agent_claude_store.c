/* test_agent_claude_store.c: Claude Code's own session transcripts
 * (../shared/STORES.md §1), the real ones the CLI wrote (tests/stores/claude)
 * and small ones of each record shape: the session and its facts, calls
 * paired with their results at the records' times, tokens counted once a
 * message, cost and end from cost-state, an API error as the failure,
 * compaction as a rule, the CLI's own user lines no prompts, its books
 * never parsed. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "agent.h"
#include "input.h"
#include "model.h"
#include "summary.h"
#include "tool.h"
#include "words.h"

/* The envelope of a line of the conversation, at second s of a minute. */
#define ENV(type, uuid, parent, s) \
	"{\"parentUuid\":" parent ",\"isSidechain\":false,\"type\":\"" type "\",\"uuid\":\"" uuid \
	"\",\"timestamp\":\"2026-11-27T05:59:" s ".000Z\",\"cwd\":\"/home/dev/work\"," \
	"\"sessionId\":\"sid-1\",\"gitBranch\":\"main\",\"version\":\"2.1.332\""
#define PROMPT(uuid, parent, s, text) \
	ENV("user", uuid, parent, s) \
	",\"permissionMode\":\"default\",\"message\":{\"role\":" \
	"\"user\",\"content\":\"" text "\"}}\n"
/* One block of message id, with its usage (repeated on each block). */
#define BLOCK(uuid, parent, s, id, block, in, out) \
	ENV("assistant", uuid, parent, s) \
	",\"message\":{\"id\":\"" id "\",\"role\":\"assistant\"," \
	"\"model\":\"claude-opus-5-5\",\"content\":[" block "]," \
	"\"usage\":{\"input_tokens\":" #in ",\"output_tokens\":" #out \
	",\"cache_read_input_tokens\":7,\"cache_creation_input_tokens\":" \
	"3}}}\n"
#define TEXT(t) "{\"type\":\"text\",\"text\":\"" t "\"}"
#define THINK(t) "{\"type\":\"thinking\",\"thinking\":\"" t "\",\"signature\":\"x\"}"
#define USE(id, cmd) \
	"{\"type\":\"tool_use\",\"id\":\"" id "\",\"name\":\"Bash\",\"input\":{\"command\":\"" cmd \
	"\"}}"
#define RESULT(uuid, parent, s, id, content, err, rich) \
	ENV("user", uuid, parent, s) \
	",\"message\":{\"role\":\"user\",\"content\":[{\"tool_use_id\":" \
	"\"" id "\",\"type\":\"tool_result\",\"content\":\"" content "\",\"is_error\":" err \
	"}]},\"toolUseResult\":" rich "}\n"
#define COST(usd, ms) \
	"{\"type\":\"cost-state\",\"sessionId\":\"sid-1\",\"totalCostUSD\":" usd \
	",\"totalDuration\":" ms ",\"modelUsage\":{}}\n"
/* Its books. */
#define BOOKS \
	"{\"type\":\"summary\",\"summary\":\"Greeting\",\"leafUuid\":\"a0\"}\n" \
	"{\"type\":\"mode\",\"mode\":\"normal\",\"sessionId\":\"sid-1\"}\n" \
	"{\"type\":\"permission-mode\",\"permissionMode\":\"default\",\"sessionId\":\"sid-1\"}\n" \
	"{\"type\":\"file-history-snapshot\",\"messageId\":\"u1\",\"snapshot\":{}}\n"

static struct fixture *
feed(const char *text)
{
	return fixture_new(text, strlen(text), 0);
}

/* Fact f of session s, in f->b. */
static const char *
fact(struct fixture *x, uint32_t s, enum fact f)
{
	buf_reset(&x->b);
	if (!model_fact(x->m, s, f, &x->b))
		return NULL;
	buf_addc(&x->b, '\0');
	return x->b.p;
}

/* The JSON summary, in f->b. */
static const char *
summary(struct fixture *x)
{
	buf_reset(&x->b);
	summary_write(x->m, NULL, &x->b, NULL);
	buf_addc(&x->b, '\0');
	return x->b.p;
}

/* How many items of type t. */
static int
items(const struct model *m, enum item_type t)
{
	int n = 0;

	for (size_t i = 0; i < m->nit; i++)
		n += m->it[i].type == t;
	return n;
}

/* The real headless run (tests/stores/claude/headless/done): one session,
 * its facts, the call paired at the times of its records, tokens and cost
 * as ccusage and cost-state say. */
static void
test_real_headless(void **state)
{
	struct fixture *x = fixture_file("tests/stores/claude/headless/done/projects/"
					 "-tmp-agentview-agents-r05jDS-claude-store-headless-work/"
					 "54615237-bbb5-4b29-a566-b6a2f00a274a.jsonl",
					 0);
	struct model *m = x->m;

	(void)state;
	assert_int_equal(m->nses, 1);
	assert_int_equal(m->ndiag, 0);
	assert_int_equal(m->ses[0].agent, AGENT_CLAUDE_STORE);
	assert_int_equal(model_session_state(m, 0), SS_OK);
	assert_string_equal(fact(x, 0, FACT_ID), "54615237-bbb5-4b29-a566-b6a2f00a274a");
	assert_string_equal(fact(x, 0, FACT_MODEL), "claude-opus-5-5");
	assert_string_equal(fact(x, 0, FACT_CWD),
			    "/tmp/agentview-agents.r05jDS/claude-store-headless/work");
	assert_string_equal(fact(x, 0, FACT_COST), "0.00166");
	assert_int_equal(m->ses[0].duration_ms, 3768);
	assert_int_equal(m->ncall, 1);
	assert_int_equal(model_call_state(m, 0), CS_OK);
	/* 09:33:17.274 to 09:33:17.360. */
	assert_int_equal(m->call[0].end_ms - m->call[0].start_ms, 86);
	assert_int_equal(m->ses[0].nprompts, 1);
	/* ccusage.json: 210 in, 41 out. */
	assert_int_equal(m->ses[0].tok.in, 210);
	assert_int_equal(m->ses[0].tok.out, 41);
	assert_non_null(strstr(summary(x),
			       "\"usage\":{\"input_tokens\":210,"
			       "\"cache_read_input_tokens\":0,"
			       "\"cache_creation_input_tokens\":0,\"output_tokens\":41}"));
	fixture_free(x);
}

/* The real failed run: the HTTP 500 the CLI wrote as a reply is why. */
static void
test_real_failed(void **state)
{
	struct fixture *x = fixture_file("tests/stores/claude/failed/done/projects/"
					 "-tmp-agentview-agents-r05jDS-claude-store-failed-work/"
					 "8dfb3edb-71ca-41d2-8b83-18c6e9c8872e.jsonl",
					 0);

	(void)state;
	assert_int_equal(x->m->nses, 1);
	assert_int_equal(model_session_state(x->m, 0), SS_FAILED);
	buf_reset(&x->b);
	assert_true(words_failure(x->m, 0, &x->b));
	buf_addc(&x->b, '\0');
	assert_true(strncmp(x->b.p, "API Error: 500 Internal server error", 36) == 0);
	/* The synthetic reply names no model. */
	assert_string_equal(fact(x, 0, FACT_MODEL), "claude-opus-5-5");
	fixture_free(x);
}

/* Every block line of a message repeats its usage: counted once. */
static void
test_usage_once_a_message(void **state)
{
	struct fixture *x = feed(
		PROMPT("u1", "null", "00", "hi")
			BLOCK("a1", "\"u1\"", "01", "msg_1", THINK("hmm"), 100, 20)
				BLOCK("a2", "\"a1\"", "01", "msg_1", TEXT("Hello."), 100, 20)
					BLOCK("a3", "\"a2\"", "02", "msg_2", TEXT("More."), 10, 5));

	(void)state;
	assert_int_equal(x->m->ses[0].tok.in, 110);
	assert_int_equal(x->m->ses[0].tok.out, 25);
	assert_int_equal(x->m->ses[0].tok.cache_read, 14);
	assert_int_equal(x->m->ses[0].tok.cache_write, 6);
	buf_reset(&x->b);
	assert_true(words_tokens(x->m, 0, &x->b));
	buf_addc(&x->b, '\0');
	assert_string_equal(x->b.p, "tokens 110 in, 25 out, 14 cache read, 6 cache write");
	assert_int_equal(items(x->m, IT_THINKING), 1);
	assert_int_equal(items(x->m, IT_TEXT), 1);
	/* No end yet: the input ended without one. */
	assert_int_equal(model_session_state(x->m, 0), SS_INCOMPLETE);
	fixture_free(x);
}

/* The books before and in the conversation make no item, and are not
 * parsed: a torn request body and a torn attachment say nothing. */
static void
test_books_unparsed(void **state)
{
	struct fixture *x = feed(BOOKS PROMPT(
		"u1", "null", "00",
		"hi") "{\"type\":\"api-request-blob\",\"sessionId\":\"sid-1\",\"body\":[{\"torn\n"
		      "{\"parentUuid\":\"u1\",\"isSidechain\":false,\"attachment\":{\"type\":\"env\",\"x\":\n"
		      "{\"type\":\"queue-operation\",\"operation\":\"enqueue\"\n" BLOCK(
			      "a1", "\"u1\"", "01", "msg_1", TEXT("Hello."), 1, 1)
					 COST("0.5", "1000"));
	struct model *m = x->m;

	(void)state;
	assert_int_equal(m->ndiag, 0);
	assert_int_equal(m->nses, 1);
	assert_int_equal(m->ses[0].agent, AGENT_CLAUDE_STORE);
	assert_int_equal(items(m, IT_NOTICE), 0);
	assert_int_equal(items(m, IT_PROMPT), 1);
	assert_int_equal(model_session_state(m, 0), SS_OK);
	assert_string_equal(fact(x, 0, FACT_COST), "0.5");
	assert_string_equal(fact(x, 0, FACT_ID), "sid-1");
	assert_string_equal(fact(x, 0, FACT_MODE), "default");
	/* The header names its branch. */
	buf_reset(&x->b);
	words_session_header(m, 0, &x->b);
	buf_addc(&x->b, '\0');
	assert_string_equal(x->b.p, "sid-1 \xC2\xB7 Claude Code \xC2\xB7 claude-opus-5-5 \xC2\xB7 "
				    "branch main \xC2\xB7 /home/dev/work");
	fixture_free(x);
}

/* A call paired with its result by id, at the records' times; a failed
 * one's rich result is its error; the rich result's facts are read. */
static void
test_calls(void **state)
{
	struct fixture *x =
		feed(PROMPT("u1", "null", "00", "go") BLOCK("a1", "\"u1\"", "01", "m1",
							    USE("t1", "echo hi"), 1, 1)
			     RESULT("u2", "\"a1\"", "04", "t1", "hi", "false",
				    "{\"stdout\":\"hi\",\"stderr\":\"\",\"interrupted\":false}")
				     BLOCK("a2", "\"u2\"", "05", "m2", USE("t2", "ls nope"), 1, 1)
					     RESULT("u3", "\"a2\"", "06", "t2",
						    "Exit code 2\\nls: cannot access", "true",
						    "\"Error: Exit code 2\\nls: cannot access\""));
	struct model *m = x->m;
	struct call_facts v;
	int64_t code = 0;

	(void)state;
	assert_int_equal(m->ncall, 2);
	assert_int_equal(model_call_state(m, 0), CS_OK);
	assert_int_equal(m->call[0].kind, TK_SHELL);
	assert_int_equal(m->call[0].end_ms - m->call[0].start_ms, 3000);
	assert_int_equal(model_call_state(m, 1), CS_FAILED);
	/* Neither is a prompt. */
	assert_int_equal(m->ses[0].nprompts, 1);
	tool_load(m, 0, m->qjson, m->qjson2, &v);
	buf_reset(&x->b);
	assert_true(fact_text(call_fact(&v, CALL_STDOUT), &x->b));
	buf_addc(&x->b, '\0');
	assert_string_equal(x->b.p, "hi");
	tool_load(m, 1, m->qjson, m->qjson2, &v);
	assert_true(fact_int(call_fact(&v, CALL_EXIT), &code));
	assert_int_equal(code, 2);
	fixture_free(x);
}

/* The CLI's own user lines are no prompts; an interruption is said. */
static void
test_not_prompts(void **state)
{
	struct fixture *x = feed(
		PROMPT("u1", "null", "00", "real")
			ENV("user", "u2", "\"u1\"", "01") ",\"isMeta\":true,\"message\":{\"role\":\"user\",\"content\":\"Caveat\"}}\n" PROMPT(
				"u3", "\"u2\"", "02", "<command-name>/model</command-name>")
				PROMPT("u4", "\"u3\"", "03",
				       "<local-command-stdout>Set"
				       "</local-command-stdout>")
					ENV("user", "u5", "\"u4\"",
					    "04") ",\"message\":{\"role\":\"user\",\"content\":[{"
						  "\"type\":\"text\",\"text\":\"[Request "
						  "interrupted by user for tool use]\"}]}}\n");
	struct tool_desc td = {0};

	(void)state;
	assert_int_equal(x->m->ses[0].nprompts, 1);
	assert_int_equal(items(x->m, IT_PROMPT), 1);
	assert_int_equal(items(x->m, IT_NOTICE), 1);
	buf_reset(&x->b);
	words_item(x->m, (uint32_t)x->m->nit - 1, 0, &td, &x->b);
	buf_addc(&x->b, '\0');
	assert_string_equal(x->b.p, "[Request interrupted by user for tool use]");
	tool_desc_free(&td);
	fixture_free(x);
}

/* A compaction parts the transcript; its summary is no prompt; the
 * session goes on (its head line names the same session). */
static void
test_compaction(void **state)
{
	struct fixture *x = feed(PROMPT("u1", "null", "00", "hi") BLOCK(
		"a1", "\"u1\"", "01", "m1", TEXT("Hello."), 1,
		1) "{\"parentUuid\":null,\"logicalParentUuid\":\"a1\",\"isSidechain\":false,"
		   "\"type\":\"system\",\"subtype\":\"compact_boundary\",\"content\":"
		   "\"Conversation compacted\",\"uuid\":\"c1\",\"timestamp\":"
		   "\"2026-11-27T05:59:02.000Z\",\"sessionId\":\"sid-1\",\"level\":\"info\","
		   "\"compactMetadata\":{\"trigger\":\"manual\",\"preTokens\":1240}}\n" ENV(
			   "user", "u2", "\"c1\"",
			   "03") ",\"isCompactSummary\":true,\"isVisibleInTranscriptOnly\":true,\"message\":{"
				 "\"role\":\"user\",\"content\":\"This session is being continued\"}}\n" PROMPT(
					 "u3", "\"u2\"", "04", "next") COST("0.1", "4000"));
	struct model *m = x->m;
	struct tool_desc td = {0};
	uint32_t rule = NONE;

	(void)state;
	assert_int_equal(m->nses, 1);
	assert_int_equal(m->ses[0].nprompts, 2);
	for (size_t i = 0; i < m->nit; i++)
		if (m->it[i].type == IT_NOTICE && (EV_FLAGS(&m->ev[m->it[i].first_ev]) & EVF_RULE))
			rule = (uint32_t)i;
	assert_int_not_equal(rule, NONE);
	buf_reset(&x->b);
	words_item(m, rule, 0, &td, &x->b);
	buf_addc(&x->b, '\0');
	assert_string_equal(x->b.p, "conversation compacted (manual): 1.2k tokens before");
	tool_desc_free(&td);
	fixture_free(x);
}

/* A resumed session: each exit writes cost-state (twice at times); the
 * runs are one session, its tokens all counted, its cost the last. */
static void
test_resumed(void **state)
{
	struct fixture *x = feed(
		PROMPT("u1", "null", "00", "one")
			BLOCK("a1", "\"u1\"", "01", "m1", TEXT("One."), 10, 1) COST("0.1", "1000")
				COST("0.1", "1010") BOOKS PROMPT("u2", "\"a1\"", "30", "two")
					BLOCK("a2", "\"u2\"", "31", "m2", TEXT("Two."), 20, 2)
						COST("0.3", "2000"));
	struct model *m = x->m;

	(void)state;
	assert_int_equal(m->nses, 1);
	assert_int_equal(m->ses[0].nresults, 2);
	assert_int_equal(model_session_state(m, 0), SS_OK);
	assert_string_equal(fact(x, 0, FACT_COST), "0.3");
	assert_int_equal(m->ses[0].tok.in, 30);
	assert_non_null(strstr(summary(x), "\"input_tokens\":30,"));
	assert_int_equal(m->ses[0].duration_ms, 3000);
	fixture_free(x);
}

/* A sub-agent's own file (<session>/subagents/agent-<id>.jsonl) read as
 * more of the session, under the call its .meta.json names; its tokens
 * the session's too. One without a meta file goes on the session. */
static void
test_sub_agents(void **state)
{
	char *dir = fixture_tmpdir("claude-store");
	struct buf path = {0}, err = {0};
	struct model *m = model_new();
	struct input in;
	uint32_t agent = NONE, sub = NONE;

	(void)state;
	fixture_put(dir, "sid-1.jsonl",
		    PROMPT("u1", "null", "00", "go") BLOCK(
			    "a1", "\"u1\"", "01", "m1",
			    "{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Agent\",\"input\":"
			    "{\"description\":\"Count\",\"prompt\":\"count\"}}",
			    10, 1) RESULT("u2", "\"a1\"", "09", "t1", "3", "false",
					  "{\"status\":\"completed\"}") COST("0.1", "9000"),
		    0, false);
	buf_addf(&path, "%s/sid-1", dir);
	assert_int_equal(mkdir(path.p, 0700), 0);
	buf_adds(&path, "/subagents");
	assert_int_equal(mkdir(path.p, 0700), 0);
	fixture_put(path.p, "agent-x.meta.json",
		    "{\"agentType\":\"general-purpose\",\"toolUseId\":\"t1\"}", 0, false);
	fixture_put(path.p, "agent-x.jsonl",
		    PROMPT("s1", "null", "02", "count") BLOCK("s2", "\"s1\"", "03", "m9",
							      USE("t9", "wc -l"), 100, 20)
			    RESULT("s3", "\"s2\"", "04", "t9", "3", "false", "{\"stdout\":\"3\"}"),
		    0, false);
	fixture_put(path.p, "agent-y.jsonl",
		    BLOCK("y1", "null", "05", "m8", TEXT("Alone."), 1000, 200), 0, false);
	buf_reset(&path);
	buf_addf(&path, "%s/sid-1.jsonl", dir);
	input_init(&in, m, false);
	assert_int_equal(input_add_path(&in, path.p, &err), 0);
	assert_int_equal(in.n, 3);
	while (input_pump(&in, 0) || !input_done(&in))
		;
	assert_int_equal(m->nses, 1);
	assert_int_equal(m->ndiag, 0);
	for (uint32_t c = 0; c < m->ncall; c++)
		if (m->call[c].kind == TK_TASK)
			agent = c;
		else
			sub = c;
	assert_int_not_equal(agent, NONE);
	assert_int_not_equal(sub, NONE);
	assert_int_equal(m->call[sub].parent, agent);
	assert_int_equal(m->it[m->call[sub].item].depth, 1);
	assert_int_equal(model_call_state(m, sub), CS_OK);
	assert_int_equal(m->ses[0].tok.in, 1110);
	assert_int_equal(m->ses[0].tok.out, 221);
	assert_int_equal(model_session_state(m, 0), SS_OK);
	input_free(&in);
	model_free(m);
	buf_free(&path);
	buf_free(&err);
	fixture_rmtree(dir);
}

/* A sub-agent's name in the session's folder that is not a regular file
 * of its own: a link to /dev/zero (read for ever, memory without end), a
 * link to a file elsewhere (a key: its bytes shown as a bad line), a
 * fifo, a folder. None is read; the regular one is. */
static void
test_sub_agent_links(void **state)
{
	char *dir = fixture_tmpdir("claude-store");
	struct buf path = {0}, err = {0}, sub = {0};
	struct model *m = model_new();
	struct input in;

	(void)state;
	fixture_put(dir, "sid-1.jsonl", PROMPT("u1", "null", "00", "go") COST("0.1", "9000"), 0,
		    false);
	fixture_put(dir, "x.key", "PRIVATE KEY BYTES\n", 0, false);
	buf_addf(&sub, "%s/sid-1", dir);
	assert_int_equal(mkdir(sub.p, 0700), 0);
	buf_adds(&sub, "/subagents");
	assert_int_equal(mkdir(sub.p, 0700), 0);
	fixture_put(sub.p, "agent-a.jsonl",
		    BLOCK("y1", "null", "05", "m8", TEXT("Alone."), 1000, 200), 0, false);
	buf_addf(&path, "%s/agent-b.jsonl", sub.p);
	assert_int_equal(symlink("/dev/zero", path.p), 0);
	buf_reset(&path);
	buf_addf(&path, "%s/agent-c.jsonl", sub.p);
	buf_reset(&err);
	buf_addf(&err, "%s/x.key", dir);
	assert_int_equal(symlink(err.p, path.p), 0);
	buf_reset(&path);
	buf_addf(&path, "%s/agent-d.jsonl", sub.p);
	assert_int_equal(mkfifo(path.p, 0600), 0);
	buf_reset(&path);
	buf_addf(&path, "%s/agent-e.jsonl", sub.p);
	assert_int_equal(mkdir(path.p, 0700), 0);
	buf_reset(&path);
	buf_reset(&err);
	buf_addf(&path, "%s/sid-1.jsonl", dir);
	input_init(&in, m, false);
	assert_int_equal(input_add_path(&in, path.p, &err), 0);
	assert_int_equal(in.n, 2);
	while (input_pump(&in, 0) || !input_done(&in))
		;
	assert_int_equal(m->ndiag, 0);
	assert_int_equal(m->ses[0].tok.out, 200);
	input_free(&in);
	model_free(m);
	buf_free(&path);
	buf_free(&err);
	buf_free(&sub);
	fixture_rmtree(dir);
}

/* A sub-agent launched in the background: its call goes on until the
 * notification of its end, in words, which ends it as its time says. */
static void
test_background_agent(void **state)
{
	struct fixture *x = feed(
		PROMPT("u1", "null", "00", "go") BLOCK(
			"a1", "\"u1\"", "01", "m1",
			"{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Agent\",\"input\":"
			"{\"description\":\"Count\",\"prompt\":\"count\",\"run_in_background\":true}}",
			1,
			1) RESULT("u2", "\"a1\"", "02", "t1", "Async agent launched", "false",
				  "{\"isAsync\":true,\"status\":\"async_launched\",\"agentId\":\"ag7\"}")
			ENV("user", "u3", "\"u2\"",
			    "09") ",\"origin\":{\"kind\":\"task-notification\"},\"message\":{\"role\":\"user\","
				  "\"content\":\"<task-notification>\\n<task-id>ag7</task-id>\\n<status>completed"
				  "</status>\\n<summary>Agent \\\"Count\\\" finished</summary>\\n<usage><duration_ms>"
				  "6500</duration_ms></usage>\\n</task-notification>\"}}\n" COST(
					  "0.1", "9000"));
	struct model *m = x->m;
	struct tool_desc td = {0};

	(void)state;
	assert_int_equal(m->ncall, 1);
	assert_true(m->call[0].flags & CF_BACKGROUND);
	assert_int_not_equal(m->call[0].bg_ev, NONE);
	assert_int_equal(model_call_state(m, 0), CS_OK);
	/* Started at :01, ran 6.5 s. */
	assert_int_equal(model_call_duration(m, 0), 6500);
	assert_int_equal(m->ses[0].nprompts, 1);
	buf_reset(&x->b);
	words_item(m, m->ev[m->call[0].bg_ev].item, 0, &td, &x->b);
	buf_addc(&x->b, '\0');
	assert_string_equal(x->b.p, "sub-agent completed: Agent \"Count\" finished");
	tool_desc_free(&td);
	fixture_free(x);
}

/* An API error retried is said; the reply that came after it decides: the
 * run did not fail. */
static void
test_api_error_retried(void **state)
{
	struct fixture *x = feed(PROMPT("u1", "null", "00", "hi") ENV(
		"system", "e1", "\"u1\"",
		"01") ",\"subtype\":\"api_error\",\"level\":\"error\",\"error\":{\"message\":"
		      "\"500 {}\",\"status\":500,\"formatted\":\"500 Internal server error\"}}\n" BLOCK(
			      "a1", "\"e1\"", "02", "m1", TEXT("Hello."), 1, 1)
					 COST("0.1", "2000"));
	struct tool_desc td = {0};
	uint32_t notice = NONE;

	(void)state;
	for (size_t i = 0; i < x->m->nit; i++)
		if (x->m->it[i].type == IT_NOTICE)
			notice = (uint32_t)i;
	assert_int_not_equal(notice, NONE);
	buf_reset(&x->b);
	words_item(x->m, notice, 0, &td, &x->b);
	buf_addc(&x->b, '\0');
	assert_string_equal(x->b.p, "API error 500: 500 Internal server error");
	assert_int_equal(model_session_state(x->m, 0), SS_OK);
	tool_desc_free(&td);
	fixture_free(x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_headless),
		cmocka_unit_test(test_real_failed),
		cmocka_unit_test(test_usage_once_a_message),
		cmocka_unit_test(test_books_unparsed),
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_not_prompts),
		cmocka_unit_test(test_compaction),
		cmocka_unit_test(test_resumed),
		cmocka_unit_test(test_sub_agents),
		cmocka_unit_test(test_sub_agent_links),
		cmocka_unit_test(test_background_agent),
		cmocka_unit_test(test_api_error_retried),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
