/* test_tool.c: the table of tool kinds: each agent's calls get the kind
 * and the one-line account of agentview's own kinds. A kind added to
 * src/tool.c gets a row here. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "agent.h"
#include "model.h"
#include "tool.h"
#include "words.h"

/* The line of call c of the model of text ("✓ Shell `ls` → exit 0"). */
static void
call_line(const char *text, uint32_t c, struct buf *out)
{
	struct fixture *f = fixture_new(text, strlen(text), 0);
	struct tool_desc d = {0};

	assert_true(c < f->m->ncall);
	tool_describe(f->m, c, &d);
	words_call(f->m, c, &d, out);
	tool_desc_free(&d);
	fixture_free(f);
}

static void
expect_line(const char *text, uint32_t c, const char *want, size_t i)
{
	struct buf line = {0};

	call_line(text, c, &line);
	if (strcmp(line.p, want) != 0)
		fail_msg("case %zu: got \"%s\", want \"%s\"", i, line.p, want);
	buf_free(&line);
}

#define CURSOR_CALL(kind, args, result) \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c\"," \
	"\"tool_call\":{\"" kind "\":{\"args\":" args "}}}\n" \
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c\"," \
	"\"tool_call\":{\"" kind "\":{\"result\":" result "}}}\n"

/* Each of Cursor's kinds gets its one-line account. */
static void
test_cursor_lines(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{CURSOR_CALL("shellToolCall", "{\"command\":\"npm test\"}",
			     "{\"failure\":{\"exitCode\":1}}"),
		 "\xE2\x9C\x97 Shell `npm test` \xE2\x86\x92 exit 1"},
		{CURSOR_CALL("readToolCall", "{\"path\":\"README.md\"}",
			     "{\"success\":{\"totalLines\":54}}"),
		 "\xE2\x9C\x93 Read README.md \xC2\xB7 54 lines"},
		{CURSOR_CALL("editToolCall", "{\"path\":\"src/a.c\"}",
			     "{\"success\":{\"linesAdded\":3,\"linesRemoved\":1}}"),
		 "\xE2\x9C\x93 Edit src/a.c +3 \xE2\x88\x92"
		 "1"},
		{CURSOR_CALL("grepToolCall", "{\"pattern\":\"NEEDLE\"}",
			     "{\"success\":{\"workspaceResults\":{\"/w\":{\"content\":{\"matches\":"
			     "[{\"file\":\"a\",\"matches\":[]},{\"file\":\"b\",\"matches\":[]}],"
			     "\"totalMatchedLines\":3}}}}}"),
		 "\xE2\x9C\x93 Grep NEEDLE \xC2\xB7 3 matches in 2 files"},
		{CURSOR_CALL(
			 "updateTodosToolCall",
			 "{\"todos\":[{\"status\":\"TODO_STATUS_COMPLETED\"},{\"status\":\"TODO_STATUS_PENDING\"}]}",
			 "{\"success\":{\"todos\":[{\"status\":\"TODO_STATUS_COMPLETED\"},"
			 "{\"status\":\"TODO_STATUS_PENDING\"}]}}"),
		 "\xE2\x9C\x93 Todos 2 todos \xC2\xB7 1/2 done"},
		{CURSOR_CALL("mcpToolCall", "{\"name\":\"local-echo\"}",
			     "{\"success\":{\"content\":[],\"isError\":false}}"),
		 "\xE2\x9C\x93 MCP local-echo \xC2\xB7 ok"},
		{CURSOR_CALL("taskToolCall", "{\"description\":\"Reply PINEAPPLE\"}",
			     "{\"success\":{\"conversationSteps\":[{}]}}"),
		 "\xE2\x9C\x93 Task Reply PINEAPPLE \xC2\xB7 1 step"},
		{CURSOR_CALL("deleteToolCall", "{\"path\":\"gone.txt\"}",
			     "{\"success\":{\"deletedFile\":\"gone.txt\"}}"),
		 "\xE2\x9C\x93 Delete gone.txt \xC2\xB7 deleted"},
		{CURSOR_CALL("readToolCall", "{\"path\":\"x\"}",
			     "{\"error\":{\"errorMessage\":\"File not found\"}}"),
		 "! Read x \xC2\xB7 File not found"},
		{CURSOR_CALL("shellToolCall", "{\"command\":\"rm -rf /\"}",
			     "{\"rejected\":{\"reason\":\"blocked by hook\"}}"),
		 "\xE2\x8A\x98 Shell `rm -rf /` \xE2\x86\x92 rejected: blocked by hook"},
		/* 2026.09 kinds (src/FORMAT.md §3). */
		{CURSOR_CALL("webSearchToolCall", "{\"searchTerm\":\"jsmn strict\"}",
			     "{\"success\":{\"references\":[{\"title\":\"a\",\"url\":\"u\","
			     "\"chunk\":\"c\"},{\"title\":\"b\",\"url\":\"v\",\"chunk\":\"d\"}]}}"),
		 "\xE2\x9C\x93 Web search jsmn strict \xC2\xB7 2 results"},
		{CURSOR_CALL(
			 "webFetchToolCall", "{\"url\":\"https://example.com\"}",
			 "{\"success\":{\"url\":\"https://example.com\",\"markdown\":\"# E\"}}"),
		 "\xE2\x9C\x93 Fetch https://example.com \xC2\xB7 ok"},
		{CURSOR_CALL(
			 "askQuestionToolCall",
			 "{\"title\":\"Which file?\",\"questions\":[{\"id\":\"q\",\"prompt\":\"P\","
			 "\"options\":[{\"id\":\"a\",\"label\":\"a.txt\"},{\"id\":\"b\",\"label\":\"b.txt\"}],"
			 "\"allowMultiple\":false}]}",
			 "{\"rejected\":{\"reason\":\"Questions skipped\"}}"),
		 "\xE2\x8A\x98 Question \"Which file?\" (a.txt / b.txt) \xC2\xB7 rejected: Questions skipped"},
		/* A big read: the text is not in the stream. */
		{CURSOR_CALL(
			 "readToolCall", "{\"path\":\"big.log\"}",
			 "{\"success\":{\"isEmpty\":false,\"totalLines\":412,\"fileSize\":14541,"
			 "\"path\":\"big.log\",\"contentBlobId\":\"q0u=\"}}"),
		 "\xE2\x9C\x93 Read big.log \xC2\xB7 content not in the stream (14.2 KB, 412 lines)"},
		/* Refused by a hook: no args, the path empty, `error` says why. */
		{"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"e\","
		 "\"tool_call\":{\"editToolCall\":{\"result\":{\"error\":{\"path\":\"\","
		 "\"error\":\"Blocked by hook\",\"modelVisibleError\":\"Blocked\"}}}}}\n",
		 "! Edit \xC2\xB7 Blocked by hook"},
		/* A sub-agent whose arguments were refused, never started. */
		{"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"t\","
		 "\"tool_call\":{\"taskToolCall\":{\"result\":{\"error\":{\"error\":"
		 "\"Invalid arguments:\\nprompt: Required\"}}}}}\n",
		 "! Task \xC2\xB7 Invalid arguments: prompt: Required"},
		/* A refused web search that only completes. */
		{"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"w\","
		 "\"tool_call\":{\"webSearchToolCall\":{\"result\":{\"rejected\":{\"reason\":"
		 "\"User Rejected\"}}}}}\n",
		 "\xE2\x8A\x98 Web search \xC2\xB7 rejected: User Rejected"},
		/* The tool:{case,value} shape one consumer claims. */
		{"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"o\","
		 "\"tool_call\":{\"tool\":{\"case\":\"readToolCall\",\"value\":{\"args\":"
		 "{\"path\":\"a.txt\"}}}}}\n"
		 "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"o\","
		 "\"tool_call\":{\"tool\":{\"case\":\"readToolCall\",\"value\":{\"result\":"
		 "{\"success\":{\"totalLines\":2}}}}}}\n",
		 "\xE2\x9C\x93 Read a.txt \xC2\xB7 2 lines"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		expect_line(cases[i].text, 0, cases[i].want, i);
}

#define CLAUDE_INIT \
	"{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/w\"," \
	"\"session_id\":\"s\",\"tools\":[\"Bash\"],\"model\":\"claude-x\"," \
	"\"claude_code_version\":\"2.1.330\"}\n"
#define CLAUDE_USE(name, input) \
	"{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":" \
	"[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"" name "\"," \
	"\"input\":" input "}]},\"parent_tool_use_id\":null}\n"
/* A first line of 74 bytes, and the 64 of it a call's line keeps. */
#define LONG_LINE_CUT "0123456789abcdefghij0123456789ABCDEFGHIJ0123456789abcdefghij0123"
#define LONG_LINE LONG_LINE_CUT "klmnopqrst"
#define CLAUDE_RESULT(content, err, rich) \
	"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":" \
	"[{\"tool_use_id\":\"t1\",\"type\":\"tool_result\",\"content\":" content \
	",\"is_error\":" err "}]},\"parent_tool_use_id\":null," \
	"\"tool_use_result\":" rich "}\n"

/* Claude Code's tools (as the real CLI wrote them, tests/agents/) map onto
 * the same kinds. */
static void
test_claude_lines(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{CLAUDE_INIT CLAUDE_USE("Bash", "{\"command\":\"echo hello\"}") CLAUDE_RESULT(
			 "\"hello\"", "false",
			 "{\"stdout\":\"hello\",\"stderr\":\"\",\"interrupted\":false}"),
		 "\xE2\x9C\x93 Shell `echo hello` \xE2\x86\x92 \"hello\""},
		/* What a command printed reads as output, never as an exit
		 * code: its first line quoted, and how many lines it had. */
		{CLAUDE_INIT CLAUDE_USE("Bash", "{\"command\":\"seq 1 3\"}") CLAUDE_RESULT(
			 "\"1\\n2\\n3\"", "false",
			 "{\"stdout\":\"1\\n2\\n3\",\"stderr\":\"\",\"interrupted\":false}"),
		 "\xE2\x9C\x93 Shell `seq 1 3` \xE2\x86\x92 \"1\" \xC2\xB7 3 lines"},
		/* Blank lines before the first that says something are not
		 * it, but they are lines of the output. */
		{CLAUDE_INIT CLAUDE_USE("Bash", "{\"command\":\"make\"}") CLAUDE_RESULT(
			 "\"\\n\\nbuilt\\n\"", "false",
			 "{\"stdout\":\"\\n\\nbuilt\\n\",\"stderr\":\"\",\"interrupted\":false}"),
		 "\xE2\x9C\x93 Shell `make` \xE2\x86\x92 \"built\" \xC2\xB7 3 lines"},
		/* A long first line is cut, so that the count stays in view. */
		{CLAUDE_INIT CLAUDE_USE("Bash", "{\"command\":\"cat\"}")
			 CLAUDE_RESULT("\"" LONG_LINE "\\nx\"", "false", "{\"interrupted\":false}"),
		 "\xE2\x9C\x93 Shell `cat` \xE2\x86\x92 \"" LONG_LINE_CUT
		 "\xE2\x80\xA6\" \xC2\xB7 2 lines"},
		/* No output: ok. */
		{CLAUDE_INIT CLAUDE_USE("Bash", "{\"command\":\"true\"}")
			 CLAUDE_RESULT("\"\"", "false",
				       "{\"stdout\":\"\",\"stderr\":\"\",\"interrupted\":false}"),
		 "\xE2\x9C\x93 Shell `true` \xE2\x86\x92 ok"},
		{CLAUDE_INIT CLAUDE_USE("Bash", "{\"command\":\"ls /nonexistent\"}") CLAUDE_RESULT(
			 "\"Exit code 2\\nls: cannot access\"", "true", "\"Error: Exit code 2\""),
		 "\xE2\x9C\x97 Shell `ls /nonexistent` \xE2\x86\x92 exit 2"},
		{CLAUDE_INIT CLAUDE_USE("Read", "{\"file_path\":\"/w/notes.txt\"}")
			 CLAUDE_RESULT("\"1\\talpha\\n\"", "false",
				       "{\"type\":\"text\",\"file\":{\"filePath\":\"/w/notes.txt\","
				       "\"content\":\"alpha\\n\",\"numLines\":4,\"startLine\":1,"
				       "\"totalLines\":4}}"),
		 "\xE2\x9C\x93 Read notes.txt \xC2\xB7 4 lines"},
		{CLAUDE_INIT CLAUDE_USE("Edit", "{\"file_path\":\"/w/g.txt\",\"old_string\":\"a\","
						"\"new_string\":\"b\"}")
			 CLAUDE_RESULT(
				 "\"updated\"", "false",
				 "{\"filePath\":\"/w/g.txt\",\"structuredPatch\":[{\"oldStart\":1,"
				 "\"lines\":[\"-hello world\",\"+hello there\",\" bye world\"]}]}"),
		 "\xE2\x9C\x93 Edit g.txt +1 \xE2\x88\x92"
		 "1"},
		{CLAUDE_INIT CLAUDE_USE("Write",
					"{\"file_path\":\"/w/n.txt\",\"content\":\"a\\nb\\n\"}")
			 CLAUDE_RESULT("\"done\"", "false", "{\"type\":\"create\"}"),
		 "\xE2\x9C\x93 Write n.txt +2"},
		{CLAUDE_INIT CLAUDE_USE("mcp__files__list", "{\"dir\":\"/\"}")
			 CLAUDE_RESULT("\"a b\"", "false", "\"a b\""),
		 "\xE2\x9C\x93 MCP files/list \xC2\xB7 ok"},
		{CLAUDE_INIT CLAUDE_USE("Agent", "{\"description\":\"Run echo\",\"prompt\":\"p\"}")
			 CLAUDE_RESULT("[{\"type\":\"text\",\"text\":\"done\"}]", "false", "{}"),
		 "\xE2\x9C\x93 Task Run echo \xC2\xB7 done"},
		/* 2.1.33x: tools loaded by name, a task made (src/FORMAT.md
		 * §10.1). */
		{CLAUDE_INIT CLAUDE_USE("ToolSearch", "{\"query\":\"select:TaskCreate\"}")
			 CLAUDE_RESULT(
				 "[{\"type\":\"tool_reference\",\"tool_name\":\"TaskCreate\"}]",
				 "false",
				 "{\"matches\":[\"TaskCreate\"],\"query\":\"select:TaskCreate\"}"),
		 "\xE2\x9C\x93 Tools load tools TaskCreate \xC2\xB7 ok"},
		{CLAUDE_INIT CLAUDE_USE("TaskCreate",
					"{\"subject\":\"Ship\",\"description\":\"d\"}")
			 CLAUDE_RESULT("\"Task #1 created successfully: Ship\"", "false",
				       "{\"task\":{\"id\":\"1\",\"subject\":\"Ship\"}}"),
		 "\xE2\x9C\x93 Todos 1 task \xC2\xB7 0 done \xC2\xB7 Ship \xC2\xB7 new"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		expect_line(cases[i].text, 0, cases[i].want, i);
}

#define GEMINI_INIT \
	"{\"type\":\"init\",\"timestamp\":\"2026-11-23T20:39:47.939Z\"," \
	"\"session_id\":\"g\",\"model\":\"gemini-2.5-pro\"}\n"
#define GEMINI_USE(name, params) \
	"{\"type\":\"tool_use\",\"timestamp\":\"2026-11-23T20:39:48.185Z\"," \
	"\"tool_name\":\"" name "\",\"tool_id\":\"i\",\"parameters\":" params "}\n"
#define GEMINI_RESULT(rest) \
	"{\"type\":\"tool_result\",\"timestamp\":\"2026-11-23T20:39:48.280Z\"," \
	"\"tool_id\":\"i\"," rest "}\n"
#define CODEX_ITEM(ev, item) "{\"type\":\"item." ev "\",\"item\":" item "}\n"

/* Gemini CLI's and Codex's tools too; their durations come from Gemini's
 * timestamps. */
static void
test_gemini_codex_lines(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{GEMINI_INIT GEMINI_USE("run_shell_command", "{\"command\":\"echo hello\"}")
			 GEMINI_RESULT("\"status\":\"success\",\"output\":\"hello\""),
		 "\xE2\x9C\x93 Shell `echo hello` \xE2\x86\x92 \"hello\""},
		/* Gemini CLI says success for a command that failed: its word
		 * is kept, the error it printed reads as output. */
		{GEMINI_INIT GEMINI_USE("run_shell_command", "{\"command\":\"ls /nonexistent\"}")
			 GEMINI_RESULT("\"status\":\"success\",\"output\":\"ls: cannot access "
				       "'/nonexistent': No such file or directory\""),
		 "\xE2\x9C\x93 Shell `ls /nonexistent` \xE2\x86\x92 \"ls: cannot access "
		 "'/nonexistent': No such file or directory\""},
		{GEMINI_INIT GEMINI_USE("read_file", "{\"file_path\":\"/w/missing.txt\"}") GEMINI_RESULT(
			 "\"status\":\"error\",\"output\":\"File not found.\","
			 "\"error\":{\"type\":\"file_not_found\",\"message\":\"File not found: /w/missing.txt\"}"),
		 "\xE2\x9C\x97 Read /w/missing.txt \xC2\xB7 File not found: /w/missing.txt"},
		{GEMINI_INIT GEMINI_USE("replace",
					"{\"file_path\":\"/w/g.txt\",\"old_string\":\"a\","
					"\"new_string\":\"b\"}")
			 GEMINI_RESULT("\"status\":\"success\""),
		 "\xE2\x9C\x93 Edit /w/g.txt +1 \xE2\x88\x92"
		 "1"},
		{"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n" CODEX_ITEM(
			 "started",
			 "{\"id\":\"item_1\",\"type\":\"command_execution\","
			 "\"command\":\"/bin/bash -lc 'ls /nonexistent'\",\"aggregated_output\":\"\","
			 "\"exit_code\":null,\"status\":\"in_progress\"}")
			 CODEX_ITEM(
				 "completed",
				 "{\"id\":\"item_1\",\"type\":\"command_execution\","
				 "\"command\":\"/bin/bash -lc 'ls /nonexistent'\",\"aggregated_output\":"
				 "\"ls: cannot access\\n\",\"exit_code\":2,\"status\":\"failed\"}"),
		 "\xE2\x9C\x97 Shell `ls /nonexistent` \xE2\x86\x92 exit 2"},
		{"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n" CODEX_ITEM(
			 "completed",
			 "{\"id\":\"item_3\",\"type\":\"file_change\",\"changes\":"
			 "[{\"path\":\"/w/g.txt\",\"kind\":\"update\"},{\"path\":\"/w/h.txt\","
			 "\"kind\":\"add\"}],\"status\":\"completed\"}"),
		 "\xE2\x9C\x93 Edit /w/g.txt and 1 more \xC2\xB7 2 files changed"},
		/* A command that exited 0 reads by its output, as Claude's
		 * and Gemini's do. */
		{"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n" CODEX_ITEM(
			 "completed",
			 "{\"id\":\"item_1\",\"type\":\"command_execution\","
			 "\"command\":\"/bin/bash -lc 'sleep 3; echo done'\",\"aggregated_output\":"
			 "\"done\\n\",\"exit_code\":0,\"status\":\"completed\"}"),
		 "\xE2\x9C\x93 Shell `sleep 3; echo done` \xE2\x86\x92 \"done\""},
		/* A file added, and nothing else: a new file written. */
		{"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n" CODEX_ITEM(
			 "completed",
			 "{\"id\":\"item_1\",\"type\":\"file_change\",\"changes\":"
			 "[{\"path\":\"/w/hello.py\",\"kind\":\"add\"}],\"status\":\"completed\"}"),
		 "\xE2\x9C\x93 Write /w/hello.py \xC2\xB7 new file"},
		/* Files deleted, and nothing else. */
		{"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n" CODEX_ITEM(
			 "completed",
			 "{\"id\":\"item_1\",\"type\":\"file_change\",\"changes\":"
			 "[{\"path\":\"/w/old.py\",\"kind\":\"delete\"}],\"status\":\"completed\"}"),
		 "\xE2\x9C\x93 Delete /w/old.py \xC2\xB7 deleted"},
		/* write_todos sets the whole list: how much of it is done. */
		{GEMINI_INIT GEMINI_USE(
			 "write_todos",
			 "{\"todos\":[{\"description\":\"a\",\"status\":\"completed\"},"
			 "{\"description\":\"b\",\"status\":\"in_progress\"},"
			 "{\"description\":\"c\",\"status\":\"pending\"}]}")
			 GEMINI_RESULT("\"status\":\"success\""),
		 "\xE2\x9C\x93 Todos 3 todos \xC2\xB7 1/3 done"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		expect_line(cases[i].text, 0, cases[i].want, i);
}

/* Every agent's name for a kind finds it in its adapter's table; another
 * agent's name, or one no row lists, is other. */
static void
test_kind_names(void **state)
{
	static const struct {
		const struct agent *agent;
		const char *name;
		enum tool_kind kind;
	} cases[] = {
		{&agent_cursor, "shellToolCall", TK_SHELL},
		{&agent_claude, "Bash", TK_SHELL},
		{&agent_gemini, "run_shell_command", TK_SHELL},
		{&agent_codex, "command_execution", TK_SHELL},
		{&agent_claude, "Read", TK_READ},
		{&agent_gemini, "read_file", TK_READ},
		{&agent_codex, "file_change", TK_EDIT},
		{&agent_claude, "MultiEdit", TK_EDIT},
		{&agent_claude, "TodoWrite", TK_TODOS},
		{&agent_claude, "TaskCreate", TK_TODOS},
		{&agent_claude, "TaskUpdate", TK_TODOS},
		{&agent_claude, "ToolSearch", TK_TOOLS},
		{&agent_codex, "todo_list", TK_TODOS},
		{&agent_claude, "Agent", TK_TASK},
		{&agent_gemini, "invoke_agent", TK_TASK},
		{&agent_claude, "WebSearch", TK_WEBSEARCH},
		{&agent_gemini, "google_web_search", TK_WEBSEARCH},
		{&agent_claude, "mcp__srv__tool", TK_MCP},
		{&agent_codex, "mcp_tool_call", TK_MCP},
		{&agent_cursor, "askQuestionToolCall", TK_QUESTION},
		{&agent_cursor, "frobnicateToolCall", TK_OTHER},
		{&agent_claude, "mcp__", TK_OTHER},
		{&agent_claude, "", TK_OTHER},
		{&agent_cursor, "Bash", TK_OTHER},
		{&agent_claude, "shellToolCall", TK_OTHER},
		{&agent_gemini, "mcp__srv__tool", TK_OTHER},
		{&agent_codex, "read_file", TK_OTHER},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		const char *name = cases[i].name;
		enum tool_kind k = agent_tool_kind(cases[i].agent, name, strlen(name));

		if (k != cases[i].kind)
			fail_msg("%s's %s: kind %d, want %d", cases[i].agent->name, name, k,
				 cases[i].kind);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cursor_lines),
		cmocka_unit_test(test_claude_lines),
		cmocka_unit_test(test_gemini_codex_lines),
		cmocka_unit_test(test_kind_names),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
