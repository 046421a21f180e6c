/* test_agent_cursor_transcript.c: Cursor Agent's own transcripts
 * (../shared/STORES.md §5), row shape by row shape, and the transcripts
 * of tests/stores/cursor/ (written by hand from those shapes: Cursor's CLI
 * cannot be run here). A prompt without its <timestamp> and <user_query>
 * wrapping, a reply, thinking, calls paired with their results in order
 * (the rows name no call), each turn's end, no time anywhere; the model
 * from the CLI's chat store, a SQLite database the tests build. */
#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"
#include "fixture.h"

#include "agent.h"
#include "input.h"
#include "model.h"
#include "summary.h"

#define PROMPT(q) \
	"{\"role\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":" \
	"\"<timestamp>Tuesday, Jul 21, 2026, 6:57 PM (UTC+8)</timestamp>\\n<user_query>\\n" q \
	"\\n</user_query>\"}]}}\n"
#define SHELL(cmd) \
	"{\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\"," \
	"\"name\":\"run_terminal_cmd\",\"input\":{\"command\":\"" cmd "\"}}]}}\n"
#define ENDED(st) "{\"type\":\"turn_ended\",\"status\":\"" st "\"}\n"

static struct fixture *
feed(const char *text)
{
	return fixture_new(text, strlen(text), 0);
}

/* The same, the file still being written. */
static struct fixture *
feed_live(const char *text)
{
	return fixture_new(text, strlen(text), FX_LIVE);
}

/* The words of f's first notice, in f->b ("" when none). */
static const char *
notice_text(struct fixture *f)
{
	buf_reset(&f->b);
	buf_adds(&f->b, "");
	for (size_t i = 0; i < f->m->nit; i++)
		if (f->m->it[i].type == IT_NOTICE) {
			model_notice_text(f->m, f->m->it[i].first_ev, &f->b);
			break;
		}
	return f->b.p;
}

/* The one session of f, read as a Cursor transcript, with no time. */
static void
one_session(struct fixture *f)
{
	assert_int_equal(f->m->nses, 1);
	assert_int_equal(f->m->ses[0].agent, AGENT_CURSOR_TRANSCRIPT);
	assert_int_equal(f->m->ndiag, 0);
	assert_false(model_session_timed(f->m, 0));
}

/* The text of f's item n of type t, in f->b ("" when none). */
static const char *
item_text(struct fixture *f, enum item_type t, unsigned n)
{
	buf_reset(&f->b);
	buf_adds(&f->b, "");
	for (size_t i = 0; i < f->m->nit; i++)
		if (f->m->it[i].type == t && n-- == 0) {
			model_item_text(f->m, (uint32_t)i, &f->b);
			break;
		}
	return f->b.p;
}

/* A user row: a prompt as typed, without the time the CLI wrote in words
 * before it; a turn open until its turn_ended. */
static void
test_prompt_row(void **state)
{
	struct fixture *f = feed(PROMPT("hello"));

	(void)state;
	one_session(f);
	assert_int_equal(f->m->ses[0].nprompts, 1);
	assert_string_equal(item_text(f, IT_PROMPT, 0), "hello");
	assert_int_equal(model_session_state(f->m, 0), SS_INCOMPLETE);
	fixture_free(f);
}

/* A prompt with no <user_query> (a string content) reads whole. */
static void
test_prompt_plain(void **state)
{
	struct fixture *f = feed(
		"{\"role\":\"user\",\"message\":{\"content\":\"just this\"}}\n" ENDED("success"));

	(void)state;
	one_session(f);
	assert_string_equal(item_text(f, IT_PROMPT, 0), "just this");
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	fixture_free(f);
}

/* A user row whose text is empty, or has no text at all: an empty
 * prompt, its <user_query> looked for in nothing (never in a NULL). */
static void
test_prompt_empty(void **state)
{
	struct fixture *f = feed("{\"role\":\"user\",\"message\":{\"content\":\"\"}}\n"
				 "{\"role\":\"user\",\"message\":{\"content\":["
				 "{\"type\":\"text\",\"text\":\"\"}]}}\n" ENDED("success"));

	(void)state;
	one_session(f);
	assert_string_equal(item_text(f, IT_PROMPT, 0), "");
	assert_string_equal(item_text(f, IT_PROMPT, 1), "");
	fixture_free(f);
}

/* An assistant row: its text, its thinking, its tool calls, in order. */
static void
test_assistant_row(void **state)
{
	struct fixture *f =
		feed_live(PROMPT("hi") "{\"role\":\"assistant\",\"message\":{\"content\":["
				       "{\"type\":\"thinking\",\"thinking\":\"Plan: look.\"},"
				       "{\"type\":\"text\",\"text\":\"On it.\"},"
				       "{\"type\":\"tool_use\",\"name\":\"read_file\","
				       "\"input\":{\"target_file\":\"go.mod\"}}]}}\n");

	(void)state;
	one_session(f);
	assert_string_equal(item_text(f, IT_THINKING, 0), "Plan: look.");
	assert_string_equal(item_text(f, IT_TEXT, 0), "On it.");
	assert_int_equal(f->m->ncall, 1);
	assert_int_equal(f->m->call[0].kind, TK_READ);
	assert_int_equal(model_call_state(f->m, 0), CS_RUNNING);
	fixture_free(f);
}

/* Results name no call: each ends the oldest open one, a failed one
 * failed; every call is paired, none made twice. */
static void
test_results_in_order(void **state)
{
	struct fixture *f = feed(PROMPT(
		"two") "{\"role\":\"assistant\",\"message\":{\"content\":["
		       "{\"type\":\"tool_use\",\"name\":\"run_terminal_cmd\","
		       "\"input\":{\"command\":\"false\"}},"
		       "{\"type\":\"tool_use\",\"name\":\"read_file\","
		       "\"input\":{\"target_file\":\"a\"}}]}}\n"
		       "{\"role\":\"user\",\"message\":{\"content\":["
		       "{\"type\":\"tool_result\",\"content\":\"exit 1\",\"is_error\":true}]}}\n"
		       "{\"role\":\"user\",\"message\":{\"content\":["
		       "{\"type\":\"tool_result\",\"content\":\"A\"}]}}\n" ENDED("success"));

	(void)state;
	one_session(f);
	assert_int_equal(f->m->ncall, 2);
	assert_int_equal(f->m->call[0].kind, TK_SHELL);
	assert_int_equal(model_call_state(f->m, 0), CS_FAILED);
	assert_int_equal(f->m->call[1].kind, TK_READ);
	assert_int_equal(model_call_state(f->m, 1), CS_OK);
	for (uint32_t c = 0; c < 2; c++)
		assert_true(f->m->call[c].start_ev != NONE && f->m->call[c].done_ev != NONE);
	/* No prompt made of the rows of results. */
	assert_int_equal(f->m->ses[0].nprompts, 1);
	/* Untimed: no call has a time. */
	assert_int_equal(f->m->call[0].start_ms, TIME_NONE);
	assert_int_equal(f->m->call[0].end_ms, TIME_NONE);
	fixture_free(f);
}

/* Rows that do name their calls are paired by the name. */
static void
test_results_by_id(void **state)
{
	struct fixture *f = feed(
		PROMPT("ids") "{\"role\":\"assistant\",\"message\":{\"content\":["
			      "{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"Shell\","
			      "\"input\":{\"command\":\"x\"}},"
			      "{\"type\":\"tool_use\",\"id\":\"b\",\"name\":\"Read\","
			      "\"input\":{\"path\":\"y\"}}]}}\n"
			      "{\"role\":\"user\",\"message\":{\"content\":["
			      "{\"type\":\"tool_result\",\"tool_use_id\":\"b\",\"content\":\"Y\"},"
			      "{\"type\":\"tool_result\",\"tool_use_id\":\"a\",\"content\":\"X\","
			      "\"is_error\":true}]}}\n");

	(void)state;
	one_session(f);
	assert_int_equal(f->m->ncall, 2);
	assert_int_equal(model_call_state(f->m, 0), CS_FAILED);
	assert_int_equal(model_call_state(f->m, 1), CS_OK);
	fixture_free(f);
}

/* turn_ended: success is done; error failed, its text the reason; aborted
 * said, the turn over. */
static void
test_turn_ended(void **state)
{
	struct fixture *f = feed(PROMPT("a") ENDED("success"));
	struct buf why = {0};

	(void)state;
	one_session(f);
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	fixture_free(f);

	f = feed(PROMPT("b") "{\"type\":\"turn_ended\",\"status\":\"error\","
			     "\"error\":\"model unavailable\"}\n");
	one_session(f);
	assert_int_equal(model_session_state(f->m, 0), SS_FAILED);
	assert_true(model_fact(f->m, 0, FACT_ERROR, &why));
	assert_string_equal(why.p, "model unavailable");
	assert_string_equal(notice_text(f), "turn failed: model unavailable");
	fixture_free(f);

	f = feed(PROMPT("c") SHELL("sleep 9") ENDED("aborted"));
	one_session(f);
	assert_string_equal(notice_text(f), "turn aborted");
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	fixture_free(f);
	buf_free(&why);
}

/* A prompt after a turn ended is another turn of the same session. */
static void
test_turns(void **state)
{
	struct fixture *f = feed_live(PROMPT("one") ENDED("success") PROMPT("two") SHELL("ls"));

	(void)state;
	one_session(f);
	assert_int_equal(f->m->ses[0].nprompts, 2);
	assert_int_equal(f->m->ses[0].nturns, 2);
	assert_string_equal(item_text(f, IT_PROMPT, 1), "two");
	/* The second turn has not ended: the session goes on. */
	assert_int_equal(model_session_state(f->m, 0), SS_LIVE);
	assert_int_equal(model_call_state(f->m, 0), CS_RUNNING);
	fixture_free(f);
}

/* Other agents' lines are not rows: Claude Code's store (a type beside
 * the message), Cursor's stream. */
static void
test_not_a_row(void **state)
{
	struct fixture *f =
		feed("{\"type\":\"user\",\"role\":\"user\",\"message\":{\"role\":\"user\","
		     "\"content\":\"hi\"},\"sessionId\":\"s\"}\n");

	(void)state;
	assert_int_equal(f->m->nses, 1);
	assert_int_not_equal(f->m->ses[0].agent, AGENT_CURSOR_TRANSCRIPT);
	fixture_free(f);
	f = feed("{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\","
		 "\"model\":\"m\"}\n");
	assert_int_equal(f->m->ses[0].agent, AGENT_CURSOR);
	fixture_free(f);
}

#define STORE(kind, sid) \
	"tests/stores/cursor/" kind "/projects/home-u-proj/agent-transcripts/" sid "/" sid ".jsonl"

/* The transcript of two turns: every call paired, the JSON summary's
 * agent and calls; no time, no tokens, no model. */
static void
test_store_done(void **state)
{
	struct fixture *f = fixture_file(STORE("done", "4b1f0c2e-8d3a-4c5e-9f10-2a6b7c8d9e01"), 0);

	(void)state;
	/* Named as agentview names a file it reads: by its path. */
	free(f->s.name);
	f->s.name = xstrdup(STORE("done", "4b1f0c2e-8d3a-4c5e-9f10-2a6b7c8d9e01"));
	one_session(f);
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	assert_int_equal(f->m->ses[0].nprompts, 2);
	assert_int_equal(f->m->ncall, 3);
	assert_int_equal(model_call_state(f->m, 1), CS_FAILED);
	buf_reset(&f->b);
	summary_write(f->m, NULL, &f->b, NULL);
	assert_non_null(strstr(f->b.p, "\"agent\":\"cursor-transcript\""));
	/* No row names the session: its file does. */
	assert_non_null(strstr(f->b.p, "\"session_id\":\"4b1f0c2e-8d3a-4c5e-9f10-2a6b7c8d9e01\""));
	assert_non_null(strstr(f->b.p, "\"model\":null"));
	assert_non_null(strstr(f->b.p, "\"usage\":null"));
	assert_non_null(strstr(f->b.p, "\"duration_ms\":null"));
	fixture_free(f);
}

/* The model of the transcript at path and the files of its sub-agents,
 * read as agentview reads a file (input_add_path): into m; how many
 * files were read. */
static unsigned
read_path(struct model *m, const char *path)
{
	struct buf err = {0};
	struct input in;
	unsigned n;

	input_init(&in, m, false);
	assert_int_equal(input_add_path(&in, path, &err), 0);
	while (input_pump(&in, 0) || !input_done(&in))
		;
	n = in.n;
	input_free(&in);
	buf_free(&err);
	return n;
}

/* The call of kind k in m (the last one), or NONE. */
static uint32_t
call_of(const struct model *m, enum tool_kind k)
{
	uint32_t c = NONE;

	for (uint32_t i = 0; i < m->ncall; i++)
		if (m->call[i].kind == k)
			c = i;
	return c;
}

/* A sub-agent's transcript (<sid>/subagents/<id>.jsonl) read as more of
 * its session, under the Task call whose prompt is its first: its calls
 * paired among themselves, never with the Task call, which its session's
 * result ends; its turn's end not the session's. */
static void
test_sub_agent(void **state)
{
	struct model *m = model_new();
	uint32_t task, grep, read;

	(void)state;
	assert_int_equal(read_path(m, STORE("subagent", "5d2e8f1a-6b3c-4e9d-a047-1c2b3d4e5f60")),
			 2);
	assert_int_equal(m->nses, 1);
	assert_int_equal(m->ndiag, 0);
	task = call_of(m, TK_TASK);
	grep = call_of(m, TK_GREP);
	read = call_of(m, TK_READ);
	assert_int_not_equal(task, NONE);
	assert_int_not_equal(grep, NONE);
	assert_int_not_equal(read, NONE);
	assert_int_equal(m->call[grep].parent, task);
	assert_int_equal(m->call[read].parent, task);
	assert_int_equal(m->it[m->call[grep].item].depth, 1);
	assert_int_equal(model_call_state(m, task), CS_OK);
	assert_int_equal(model_call_state(m, grep), CS_OK);
	assert_int_equal(model_call_state(m, read), CS_OK);
	assert_int_equal(model_session_state(m, 0), SS_OK);
	/* The sub-agent's prompt under its call. */
	for (size_t i = 0, n = 0; i < m->nit; i++)
		if (m->it[i].type == IT_PROMPT)
			assert_int_equal(m->it[i].depth, n++ == 0 ? 0 : 1);
	model_free(m);
}

/* A sub-agent that ended while its Task call is open: the session is
 * not over; a sub-agent whose prompt names no call goes on the session,
 * its files read all the same. */
static void
test_sub_agent_open(void **state)
{
	char *dir = fixture_tmpdir("cursor-sub");
	struct buf path = {0};
	struct model *m = model_new();
	uint32_t task, shell;

	(void)state;
	buf_addf(&path, "%s/s1", dir);
	assert_int_equal(mkdir(path.p, 0700), 0);
	buf_adds(&path, "/subagents");
	assert_int_equal(mkdir(path.p, 0700), 0);
	buf_reset(&path);
	buf_addf(&path, "%s/s1", dir);
	fixture_put(
		path.p, "s1.jsonl",
		PROMPT("go") "{\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":"
			     "\"tool_use\",\"name\":\"Task\",\"input\":{\"description\":\"Count\","
			     "\"prompt\":\"  count the lines \\n\"}}]}}\n",
		0, false);
	buf_adds(&path, "/subagents");
	fixture_put(path.p, "a1.jsonl",
		    "{\"role\":\"user\",\"message\":{\"content\":\"count the lines\"}}\n" SHELL(
			    "wc -l") "{\"role\":\"user\",\"message\":{\"content\":[{\"type\":"
				     "\"tool_result\",\"content\":\"3\"}]}}\n" ENDED("success"),
		    0, false);
	buf_reset(&path);
	buf_addf(&path, "%s/s1/s1.jsonl", dir);
	assert_int_equal(read_path(m, path.p), 2);
	task = call_of(m, TK_TASK);
	shell = call_of(m, TK_SHELL);
	assert_int_equal(m->call[shell].parent, task);
	assert_int_equal(model_call_state(m, shell), CS_OK);
	assert_int_not_equal(model_call_state(m, task), CS_OK);
	assert_int_not_equal(model_session_state(m, 0), SS_OK);
	model_free(m);
	buf_free(&path);
	fixture_rmtree(dir);
}

#define TXT_SID "2c7d9e1f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
#define TXT_PATH "tests/stores/cursor/txt/projects/home-u-proj/agent-transcripts/" TXT_SID ".txt"

/* The older plain-text transcript (<sid>.txt): its blocks read as the
 * rows of the JSON transcripts, a part a row: prompts, thinking, text,
 * calls with their arguments, results in order; a file that is not one,
 * or not named so, is not read so. */
static void
test_txt_rows(void **state)
{
	struct buf rows = {0};
	struct fixture *f;
	size_t n;
	char *text = fixture_slurp(TXT_PATH, &n);

	(void)state;
	assert_true(agent_rows(TXT_PATH, text, n, &rows));
	assert_non_null(strstr(
		rows.p, "{\"role\":\"assistant\",\"message\":{\"content\":[{"
			"\"type\":\"tool_use\",\"name\":\"run_terminal_cmd\","
			"\"input\":{\"command\":\"make\",\"is_background\":\"false\"}}]}}\n"));
	assert_non_null(strstr(rows.p, "\"type\":\"thinking\",\"thinking\":\"The user wants"));
	assert_non_null(strstr(
		rows.p, "\"tool_result\",\"content\":\"int main(void)\\n{\\n\\treturn 0\\n}\""));
	f = fixture_new(rows.p, rows.n, 0);
	assert_int_equal(f->m->nses, 1);
	assert_int_equal(f->m->ndiag, 0);
	assert_int_equal(f->m->ses[0].agent, AGENT_CURSOR_TRANSCRIPT);
	assert_int_equal(f->m->ses[0].nprompts, 2);
	assert_int_equal(f->m->ncall, 3);
	for (uint32_t c = 0; c < f->m->ncall; c++)
		assert_int_equal(model_call_state(f->m, c), CS_OK);
	assert_int_equal(f->m->call[0].kind, TK_SHELL);
	assert_int_equal(f->m->call[1].kind, TK_READ);
	assert_int_equal(f->m->call[2].kind, TK_EDIT);
	fixture_free(f);
	/* An argument's value goes on over indented lines; a line not
	 * indented after a call is text. */
	buf_reset(&rows);
	{
		static const char call[] =
			"user:\nhi\nassistant:\n[Tool call] Shell\n  command: a &&\n"
			"    b\nDone.\n";

		assert_true(agent_rows("/h/t.txt", call, sizeof call - 1, &rows));
		assert_non_null(strstr(rows.p, "\"input\":{\"command\":\"a &&\\nb\"}"));
		assert_non_null(strstr(rows.p, "\"text\",\"text\":\"Done.\""));
	}
	/* Not a transcript, or not a .txt: no rows, nothing added. */
	buf_reset(&rows);
	assert_false(agent_rows("/h/a.txt", "hello\nuser:\n", 12, &rows));
	assert_false(agent_rows("/h/a.jsonl", text, n, &rows));
	assert_false(agent_rows("/h/a.txt", "", 0, &rows));
	assert_int_equal(rows.n, 0);
	buf_free(&rows);
	free(text);
}

/* The .txt file read as agentview reads a file: its session, named by the
 * file, untimed (its lines are not read live). */
static void
test_txt_file(void **state)
{
	struct model *m = model_new();
	struct buf b = {0}, err = {0};
	struct input in;

	(void)state;
	input_init(&in, m, true);
	assert_int_equal(input_add_path(&in, TXT_PATH, &err), 0);
	while (input_pump(&in, 0) || !input_done(&in))
		;
	assert_int_equal(m->nses, 1);
	assert_int_equal(m->ndiag, 0);
	assert_int_equal(m->ncall, 3);
	for (uint32_t c = 0; c < m->ncall; c++)
		assert_true(m->call[c].start_ms == TIME_NONE);
	summary_write(m, NULL, &b, NULL);
	assert_non_null(strstr(b.p, "\"session_id\":\"" TXT_SID "\""));
	assert_non_null(strstr(b.p, "\"agent\":\"cursor-transcript\""));
	input_free(&in);
	model_free(m);
	buf_free(&b);
	buf_free(&err);
}

/* A session's id from its file's name: <sid>.jsonl or <sid>.txt, for an agent whose
 * ids are its files' names only, and only a name that is an id. */
static void
test_file_id(void **state)
{
	struct buf b = {0};

	(void)state;
	assert_true(agent_file_fact(AGENT_CURSOR_TRANSCRIPT, "/h/.cursor/p/a/x-1_B.jsonl", FACT_ID,
				    &b));
	assert_string_equal(b.p, "x-1_B");
	buf_reset(&b);
	assert_true(agent_file_id("s.jsonl", &b));
	assert_string_equal(b.p, "s");
	buf_reset(&b);
	/* The older plain-text transcripts. */
	assert_true(agent_file_id("/h/t-2.txt", &b));
	assert_string_equal(b.p, "t-2");
	buf_reset(&b);
	assert_false(agent_file_id("/h/-rf.jsonl", &b));
	assert_false(agent_file_id("/h/a b.jsonl", &b));
	assert_false(agent_file_id("/h/a;b.jsonl", &b));
	assert_false(agent_file_id("/h/a.md", &b));
	assert_false(agent_file_id("/h/.txt", &b));
	assert_false(agent_file_id("/h/.jsonl", &b));
	assert_false(agent_file_id("-", &b));
	assert_false(agent_file_id(NULL, &b));
	assert_false(agent_file_fact(AGENT_CODEX_ROLLOUT, "/h/s.jsonl", FACT_ID, &b));
	assert_false(agent_file_fact(AGENT_CURSOR_TRANSCRIPT, "/h/s.jsonl", FACT_CWD, &b));
	assert_int_equal(b.n, 0);
	buf_free(&b);
}

/* --- the chat store --------------------------------------------------------- */

#define SID "5c6d7e8f-4a81-4c02-9d65-7f1a2b3c4d56"
#define META \
	"{\"agentId\":\"" SID "\",\"latestRootBlobId\":\"ab\",\"name\":\"Fix the tests\"," \
	"\"mode\":\"auto-run\",\"createdAt\":1795000000000,\"lastUsedModel\":\"%s\"}"

/* A home with a transcript of SID and, unless model is NULL, its chat
 * store (WAL, as the CLI keeps it) saying model; its path (fixture_rmtree
 * it); the transcript's path and the store's into t and db. */
static char *
home_with(const char *name, const char *model, char *t, char *db, size_t cap)
{
	char *h = fixture_tmpdir(name), dir[1024], sql[1024];
	const char *dirs[] = {"/.cursor",
			      "/.cursor/projects",
			      "/.cursor/projects/home-u-proj",
			      "/.cursor/projects/home-u-proj/agent-transcripts",
			      "/.cursor/projects/home-u-proj/agent-transcripts/" SID,
			      "/.cursor/chats",
			      "/.cursor/chats/0e4c8b0f5d3a9f1e2b7c6d5a4e3f2a1b",
			      "/.cursor/chats/0e4c8b0f5d3a9f1e2b7c6d5a4e3f2a1b/" SID};

	for (size_t i = 0; i < ARRAY_LEN(dirs); i++) {
		assert_true(snprintf(dir, sizeof dir, "%s%s", h, dirs[i]) < (int)sizeof dir);
		assert_int_equal(mkdir(dir, 0700), 0);
	}
	assert_true(snprintf(dir, sizeof dir,
			     "%s/.cursor/projects/home-u-proj/agent-transcripts/" SID,
			     h) < (int)sizeof dir);
	fixture_put(dir, SID ".jsonl", PROMPT("hi") ENDED("success"), 1795000000000, false);
	assert_true(snprintf(t, cap, "%s/" SID ".jsonl", dir) < (int)cap);
	snprintf(db, cap, "%s/.cursor/chats/0e4c8b0f5d3a9f1e2b7c6d5a4e3f2a1b/" SID "/store.db", h);
	if (model == NULL)
		return h;
	snprintf(dir, sizeof dir, META, model);
	assert_true(snprintf(sql, sizeof sql,
			     "PRAGMA journal_mode=WAL;"
			     "CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB);"
			     "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
			     "INSERT INTO meta VALUES ('0', lower(hex('%s')));",
			     dir) < (int)sizeof sql);
	fixture_sql(db, sql);
	return h;
}

/* The names in folder dir, sorted, with their sizes and times, into out:
 * what a read must leave as it was. */
static void
listing(const char *dir, struct buf *out)
{
	struct dirent **de;
	struct stat st;
	char path[1024];
	int n = scandir(dir, &de, NULL, alphasort);

	assert_true(n >= 0);
	buf_reset(out);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, de[i]->d_name);
		assert_int_equal(lstat(path, &st), 0);
		buf_addf(out, "%s %lld %lld.%09ld\n", de[i]->d_name, (long long)st.st_size,
			 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
		free(de[i]);
	}
	free(de);
}

/* meta's key '0', hex of JSON: its name and lastUsedModel; the model of
 * the transcript's session from it, in the summary too. Nothing in the
 * store's folder is made or changed by reading it. */
static void
test_chat_meta(void **state)
{
	char t[1024], db[1024], dir[1024];
	char *h = home_with("cursor-meta", "claude-4.5-sonnet", t, db, sizeof t);
	struct buf b = {0}, before = {0}, after = {0};
	struct fixture *f;

	(void)state;
	snprintf(dir, sizeof dir, "%s", db);
	*strrchr(dir, '/') = '\0';
	listing(dir, &before);
	assert_true(cursor_chat_meta(db, "name", &b));
	assert_string_equal(b.p, "Fix the tests");
	buf_reset(&b);
	assert_true(cursor_chat_meta(db, "lastUsedModel", &b));
	assert_string_equal(b.p, "claude-4.5-sonnet");
	buf_reset(&b);
	assert_false(cursor_chat_meta(db, "createdAt", &b)); /* not a string */
	assert_false(cursor_chat_meta(db, "nothing", &b));
	assert_int_equal(b.n, 0);
	assert_true(agent_file_fact(AGENT_CURSOR_TRANSCRIPT, t, FACT_MODEL, &b));
	assert_string_equal(b.p, "claude-4.5-sonnet");
	/* Read-only: no journal, log or index made, the store untouched. */
	listing(dir, &after);
	assert_string_equal(after.p, before.p);
	assert_null(strstr(after.p, "-wal"));
	assert_null(strstr(after.p, "-shm"));

	f = fixture_file(t, 0);
	free(f->s.name);
	f->s.name = xstrdup(t);
	buf_reset(&f->b);
	summary_write(f->m, NULL, &f->b, NULL);
	assert_non_null(strstr(f->b.p, "\"model\":\"claude-4.5-sonnet\""));
	assert_non_null(strstr(f->b.p, "\"session_id\":\"" SID "\""));
	fixture_free(f);
	buf_free(&b);
	buf_free(&before);
	buf_free(&after);
	fixture_rmtree(h);
}

/* No chat store, or one that says nothing: no model. */
static void
test_chat_none(void **state)
{
	char t[1024], db[1024];
	char *h = home_with("cursor-nochat", NULL, t, db, sizeof t);
	struct buf b = {0};
	sqlite3 *w;

	(void)state;
	assert_false(agent_file_fact(AGENT_CURSOR_TRANSCRIPT, t, FACT_MODEL, &b));
	assert_false(cursor_chat_meta(db, "name", &b));
	/* A store whose meta is not hex of JSON, and one without meta. */
	assert_int_equal(sqlite3_open(db, &w), SQLITE_OK);
	assert_int_equal(sqlite3_exec(w,
				      "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
				      "INSERT INTO meta VALUES ('0', 'zz7b');",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	assert_false(cursor_chat_meta(db, "name", &b));
	assert_int_equal(sqlite3_exec(w, "DROP TABLE meta;", NULL, NULL, NULL), SQLITE_OK);
	assert_false(cursor_chat_meta(db, "name", &b));
	assert_int_equal(sqlite3_close(w), SQLITE_OK);
	/* Not a transcript in a store's projects/ folder. */
	assert_false(
		agent_file_fact(AGENT_CURSOR_TRANSCRIPT, "/tmp/" SID ".jsonl", FACT_MODEL, &b));
	assert_int_equal(b.n, 0);
	fixture_rmtree(h);
}

/* The CLI writes while it is read: an open write transaction leaves the
 * last model committed readable (WAL); one committed is read at once; an
 * exclusive lock (a store not in WAL) makes it none, soon, not a hang. */
static void
test_chat_writer(void **state)
{
	char t[1024], db[1024], sql[1024], meta[512], dir[1024];
	char *h = home_with("cursor-writer", "gpt-5", t, db, sizeof t);
	struct buf b = {0}, before = {0}, after = {0};
	sqlite3 *w;
	int64_t t0;

	(void)state;
	assert_int_equal(sqlite3_open(db, &w), SQLITE_OK);
	snprintf(meta, sizeof meta, META, "composer-2");
	snprintf(sql, sizeof sql, "BEGIN IMMEDIATE; UPDATE meta SET value = lower(hex('%s'));",
		 meta);
	assert_int_equal(sqlite3_exec(w, sql, NULL, NULL, NULL), SQLITE_OK);
	/* Its log and shared memory read, neither changed. */
	snprintf(dir, sizeof dir, "%s", db);
	*strrchr(dir, '/') = '\0';
	listing(dir, &before);
	assert_non_null(strstr(before.p, "store.db-shm"));
	assert_true(agent_file_fact(AGENT_CURSOR_TRANSCRIPT, t, FACT_MODEL, &b));
	assert_string_equal(b.p, "gpt-5");
	listing(dir, &after);
	assert_string_equal(after.p, before.p);
	assert_int_equal(sqlite3_exec(w, "COMMIT;", NULL, NULL, NULL), SQLITE_OK);
	buf_reset(&b);
	assert_true(agent_file_fact(AGENT_CURSOR_TRANSCRIPT, t, FACT_MODEL, &b));
	assert_string_equal(b.p, "composer-2");
	/* Out of WAL, held exclusively. */
	assert_int_equal(sqlite3_exec(w,
				      "PRAGMA journal_mode=DELETE; PRAGMA locking_mode=EXCLUSIVE;"
				      "BEGIN EXCLUSIVE; UPDATE meta SET key = '0';",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	buf_reset(&b);
	t0 = clock_mono_ms();
	if (cursor_chat_meta(db, "lastUsedModel", &b))
		assert_string_equal(b.p, "composer-2");
	assert_true(clock_mono_ms() - t0 < 2000);
	assert_int_equal(sqlite3_exec(w, "COMMIT;", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_close(w), SQLITE_OK);
	buf_free(&b);
	buf_free(&before);
	buf_free(&after);
	fixture_rmtree(h);
}

/* A path whose folders hold what a URI reserves (?, #, %) is opened as
 * that path, not cut at them. */
static void
test_chat_uri(void **state)
{
	char *h = fixture_tmpdir("cursor-uri"), dir[1024], sql[1024], meta[512];
	struct buf b = {0};

	(void)state;
	snprintf(dir, sizeof dir, "%s/a?mode=rw#b%%20c", h);
	assert_int_equal(mkdir(dir, 0700), 0);
	strcat(dir, "/store.db");
	snprintf(meta, sizeof meta, META, "m");
	snprintf(sql, sizeof sql,
		 "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
		 "INSERT INTO meta VALUES ('0', lower(hex('%s')));",
		 meta);
	fixture_sql(dir, sql);
	assert_true(cursor_chat_meta(dir, "lastUsedModel", &b));
	assert_string_equal(b.p, "m");
	buf_free(&b);
	fixture_rmtree(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prompt_row),       cmocka_unit_test(test_prompt_plain),
		cmocka_unit_test(test_prompt_empty),     cmocka_unit_test(test_assistant_row),
		cmocka_unit_test(test_results_in_order), cmocka_unit_test(test_results_by_id),
		cmocka_unit_test(test_turn_ended),       cmocka_unit_test(test_turns),
		cmocka_unit_test(test_not_a_row),        cmocka_unit_test(test_store_done),
		cmocka_unit_test(test_file_id),          cmocka_unit_test(test_sub_agent),
		cmocka_unit_test(test_sub_agent_open),   cmocka_unit_test(test_txt_rows),
		cmocka_unit_test(test_txt_file),         cmocka_unit_test(test_chat_meta),
		cmocka_unit_test(test_chat_none),        cmocka_unit_test(test_chat_writer),
		cmocka_unit_test(test_chat_uri),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
