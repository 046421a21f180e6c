/* test_copy.c: what y and Y copy, from each agent's stream, and the OSC 52
 * sequence that carries it. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "copy.h"
#include "redact.h"

/* The first item of type t, NONE when there is none. */
static uint32_t
item_of(const struct model *m, enum item_type t)
{
	for (uint32_t i = 0; i < m->nit; i++)
		if (m->it[i].type == t)
			return i;
	return NONE;
}

#define INIT \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s 1\",\"model\":\"M\",\"cwd\":\"/w/it's\"}\n"

/* Cursor: a shell's command and its streams come out as the agent sent
 * them, escapes and all; a prompt and a reply are their texts. */
static void
test_cursor(void **state)
{
	static const char text[] = INIT
		"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"fix\\nit\"}]}}\n"
		"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"On it \\u001b[2J.\"}]}}\n"
		"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c1\","
		"\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"make \\u001b]52;c;eA==\\u0007 &&\\n  ls\"}}}}\n"
		"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\","
		"\"tool_call\":{\"shellToolCall\":{\"result\":{\"success\":{\"exitCode\":0,"
		"\"stdout\":\"out 1\\nout 2\",\"stderr\":\"err\\n\"}}}}}\n"
		"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c2\","
		"\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"src/a b.c\"}}}}\n";
	struct fixture *f = fixture_new(text, sizeof text - 1, 0);
	struct buf b = {0}, why = {0};

	(void)state;
	assert_string_equal(copy_call_target(f->m, 0, &b), "command");
	assert_string_equal(b.p, "make \033]52;c;eA==\a &&\n  ls");
	buf_reset(&b);
	assert_string_equal(copy_call_output(f->m, 0, &b), "output");
	assert_string_equal(b.p, "out 1\nout 2\nerr\n");
	buf_reset(&b);
	assert_string_equal(copy_call_target(f->m, 1, &b), "path");
	assert_string_equal(b.p, "src/a b.c");
	/* A call that has not ended has no output yet. */
	buf_reset(&b);
	assert_null(copy_call_output(f->m, 1, &b));
	assert_int_equal(b.n, 0);
	buf_reset(&b);
	assert_string_equal(copy_item(f->m, item_of(f->m, IT_PROMPT), &b), "prompt");
	assert_string_equal(b.p, "fix\nit");
	buf_reset(&b);
	assert_string_equal(copy_item(f->m, item_of(f->m, IT_TEXT), &b), "reply");
	assert_string_equal(b.p, "On it \033[2J.");
	buf_reset(&b);
	assert_string_equal(copy_item(f->m, item_of(f->m, IT_TOOL), &b), "command");
	buf_reset(&b);
	assert_string_equal(copy_item(f->m, item_of(f->m, IT_SESSION), &b), "session id");
	assert_string_equal(b.p, "s 1");
	/* An id that is not of an id's shape makes no resume command. */
	buf_reset(&b);
	assert_false(copy_resume(f->m, 0, &b, &why));
	assert_int_equal(b.n, 0);
	assert_string_equal(why.p, "no resume command: the session id is not plain");
	buf_free(&b);
	buf_free(&why);
	fixture_free(f);
}

/* Claude Code, Gemini CLI and Codex: each keeps a call's pieces its own
 * way (src/FORMAT.md §10). */
static void
test_agents(void **state)
{
	static const struct {
		const char *rec;
		uint32_t call;
		const char *what, *target, *out_what, *out;
	} cases[] = {
		{"claude-shell-ok", 0, "command", "echo hello", "output", "hello"},
		{"claude-read", 0, "path",
		 "/tmp/agentview-agents.aTlj5y/claude-read/work/notes.txt", "content",
		 "alpha\nbeta\ngamma\n"},
		{"claude-edit", 1, "path",
		 "/tmp/agentview-agents.aTlj5y/claude-edit/work/greet.txt", "diff",
		 "-hello world\n+hello there\n bye world\n"},
		{"gemini-shell-ok", 0, "command", "echo hello", "output", "hello"},
		/* Codex's `bash -lc '…'` is not what the agent meant to run. */
		{"codex-shell-ok", 0, "command", "echo hello", "output", "hello\n"},
		{"codex-edit", 1, "path", "/tmp/agentview-agents.PvsWk5/codex-edit/work/greet.txt",
		 "result", NULL},
	};
	struct buf b = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fixture *f = fixture_recording(cases[i].rec, 0);
		const char *what;

		buf_reset(&b);
		what = copy_call_target(f->m, cases[i].call, &b);
		assert_non_null(what);
		assert_string_equal(what, cases[i].what);
		assert_string_equal(b.p, cases[i].target);
		buf_reset(&b);
		what = copy_call_output(f->m, cases[i].call, &b);
		assert_non_null(what);
		assert_string_equal(what, cases[i].out_what);
		if (cases[i].out != NULL)
			assert_string_equal(b.p, cases[i].out);
		fixture_free(f);
	}
	buf_free(&b);
}

/* Y: each CLI's way to resume, checked against its --help
 * (src/FORMAT.md §10.5). */
static void
test_resume(void **state)
{
	static const struct {
		const char *rec, *cmd;
	} cases[] = {
		{"claude-shell-ok", "cd -- /tmp/agentview-agents.aTlj5y/claude-shell-ok/work && "
				    "claude --resume 64af87fb-1d48-4c3e-81d3-80d38f09860b"},
		{"gemini-shell-ok", "gemini --resume 5b4649d3-5fc3-4674-8bdc-58e7d3501468"},
		{"codex-shell-ok", "codex resume 01a20a33-cb8b-7173-a789-4f3fb4d36130"},
		{"cursor-0915-askquestion", NULL},
	};
	struct buf b = {0}, why = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fixture *f = fixture_recording(cases[i].rec, 0);

		buf_reset(&b);
		assert_true(copy_resume(f->m, 0, &b, &why));
		if (cases[i].cmd != NULL)
			assert_string_equal(b.p, cases[i].cmd);
		else
			assert_true(strstr(b.p, " && cursor-agent --resume ") != NULL ||
				    strncmp(b.p, "cursor-agent --resume ", 22) == 0);
		fixture_free(f);
	}
	/* No id: nothing to resume. */
	{
		static const char text[] =
			"{\"type\":\"system\",\"subtype\":\"init\",\"model\":\"M\"}\n";
		struct fixture *f = fixture_new(text, sizeof text - 1, 0);

		buf_reset(&b);
		assert_false(copy_resume(f->m, 0, &b, &why));
		assert_int_equal(b.n, 0);
		assert_string_equal(why.p,
				    "the stream does not say the session's id: nothing to resume");
		fixture_free(f);
	}
	buf_free(&b);
	buf_free(&why);
}

/* A hostile id or directory, in each agent's stream: the id is the
 * agents' shape or there is no command; the directory is quoted, made
 * ./DIR when relative, and refused when it holds a control character. */
static void
test_resume_hostile(void **state)
{
#define CURSOR(id, cwd) \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"" id "\",\"cwd\":\"" cwd \
	"\",\"model\":\"M\"}\n"
#define CLAUDE(id, cwd) \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"" id "\",\"cwd\":\"" cwd \
	"\",\"tools\":[],\"claude_code_version\":\"2.1.0\",\"model\":\"M\"}\n"
#define GEMINI(id) "{\"type\":\"init\",\"session_id\":\"" id "\",\"model\":\"M\"}\n"
#define CODEX(id) "{\"type\":\"thread.started\",\"thread_id\":\"" id "\"}\n"
#define NOT_PLAIN "no resume command: the session id is not plain"
#define CONTROL "no resume command: the session's folder holds a control character"
	static const struct {
		const char *text, *cmd, *why;
	} cases[] = {
		/* The issue's: ^C and the end of a bracketed paste, an option. */
		{CLAUDE("x\\u0003\\u001b[201~; touch /tmp/p", "/w"), NULL, NOT_PLAIN},
		{CLAUDE("--dangerously-skip-permissions", "-"), NULL, NOT_PLAIN},
		{CLAUDE("0b1f-9c2e", "-"), "cd -- ./- && claude --resume 0b1f-9c2e", NULL},
		/* Each agent's id field. */
		{CURSOR("s 1", "/w"), NULL, NOT_PLAIN},
		{CURSOR("$(touch p)", "/w"), NULL, NOT_PLAIN},
		{GEMINI("-h"), NULL, NOT_PLAIN},
		{GEMINI(".hidden"), NULL, NOT_PLAIN},
		{GEMINI("a\\u0000b"), NULL, NOT_PLAIN},
		{CODEX("a;b"), NULL, NOT_PLAIN},
		{CODEX("\\u00e9t\\u00e9"), NULL, NOT_PLAIN},
		{CODEX("a\\nb"), NULL, NOT_PLAIN},
		{CODEX("01a2.b_c-D"), "codex resume 01a2.b_c-D", NULL},
		{GEMINI("5b4649d3"), "gemini --resume 5b4649d3", NULL},
		/* Each agent's cwd field. */
		{CURSOR("abc", "/w/it's"), "cd -- '/w/it'\\''s' && cursor-agent --resume abc",
		 NULL},
		{CURSOR("abc", "/w/$(touch p) `x`"),
		 "cd -- '/w/$(touch p) `x`' && cursor-agent --resume abc", NULL},
		{CURSOR("abc", "/w\\u0003"), NULL, CONTROL},
		{CURSOR("abc", "/w/\\u001b[201~"), NULL, CONTROL},
		{CLAUDE("abc", "/w\\u009b"), NULL, CONTROL},
		{CLAUDE("abc", "/w\\u202e"), NULL, CONTROL},
		{CLAUDE("abc", "/w\\nx"), NULL, CONTROL},
		{CLAUDE("abc", "/w\\tx"), NULL, CONTROL},
		{CLAUDE("abc", "+x"), "cd -- ./+x && claude --resume abc", NULL},
		{CLAUDE("abc", "~"), "cd -- './~' && claude --resume abc", NULL},
		{CLAUDE("abc", ""), "claude --resume abc", NULL},
	};
	struct buf b = {0}, why = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fixture *f = fixture_new(cases[i].text, strlen(cases[i].text), 0);
		bool ok;

		buf_reset(&b);
		buf_reset(&why);
		ok = copy_resume(f->m, 0, &b, &why);
		if (cases[i].cmd != NULL && (!ok || strcmp(b.p, cases[i].cmd) != 0))
			fail_msg("case %zu: got %s \"%s\", want \"%s\"", i, ok ? "" : "no",
				 ok ? b.p : why.p, cases[i].cmd);
		if (cases[i].cmd == NULL && (ok || b.n != 0 || strcmp(why.p, cases[i].why) != 0))
			fail_msg("case %zu: got \"%s\", want no command: %s", i, ok ? b.p : why.p,
				 cases[i].why);
		fixture_free(f);
	}
	buf_free(&b);
	buf_free(&why);
#undef CURSOR
#undef CLAUDE
#undef GEMINI
#undef CODEX
#undef NOT_PLAIN
#undef CONTROL
}

/* The command that resumes a session of another machine: ssh to it, the
 * local command quoted once for the remote shell; the host and port
 * checked, $AGENTVIEW_SSH's words as ssh's, and every check of the local
 * command kept. */
static void
test_resume_remote(void **state)
{
	static const char cursor[] = "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":"
				     "\"abc\",\"cwd\":\"/w/it's\",\"model\":\"M\"}\n";
	static const char plain[] = "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":"
				    "\"abc\",\"cwd\":\"/w\",\"model\":\"M\"}\n";
	static const char hostile[] = "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":"
				      "\"a;b\",\"cwd\":\"/w\",\"model\":\"M\"}\n";
	struct fixture *f = fixture_new(cursor, sizeof cursor - 1, 0);
	struct fixture *g = fixture_new(plain, sizeof plain - 1, 0);
	struct fixture *h = fixture_new(hostile, sizeof hostile - 1, 0);
	struct buf b = {0}, why = {0};

	(void)state;
	unsetenv("AGENTVIEW_SSH");
	assert_true(copy_resume_on(g->m, 0, "devbox", NULL, &b, &why));
	assert_string_equal(b.p, "ssh -t devbox 'cd -- /w && cursor-agent --resume abc'");
	buf_reset(&b);
	assert_true(copy_resume_on(g->m, 0, "me@vm", "2222", &b, &why));
	assert_string_equal(b.p, "ssh -t -p 2222 me@vm 'cd -- /w && cursor-agent --resume abc'");
	/* The folder's own quotes, quoted again: once for each shell (the
	 * backslashes of the first never inside the second's quotes). */
	buf_reset(&b);
	assert_true(copy_resume_on(f->m, 0, "devbox", NULL, &b, &why));
	assert_string_equal(
		b.p, "ssh -t devbox "
		     "'cd -- '\\''/w/it'\\'''\\\\''\\'''\\''s'\\'' && cursor-agent --resume abc'");
	/* No host: the local command. */
	buf_reset(&b);
	assert_true(copy_resume_on(g->m, 0, NULL, NULL, &b, &why));
	assert_string_equal(b.p, "cd -- /w && cursor-agent --resume abc");
	/* $AGENTVIEW_SSH, each word quoted; one with a control byte refused. */
	setenv("AGENTVIEW_SSH", " ssh  -F /tmp/it's\t", 1);
	buf_reset(&b);
	assert_true(copy_resume_on(g->m, 0, "devbox", NULL, &b, &why));
	assert_string_equal(
		b.p, "ssh -F '/tmp/it'\\''s' -t devbox 'cd -- /w && cursor-agent --resume abc'");
	setenv("AGENTVIEW_SSH", "ssh -o\x01x", 1);
	buf_reset(&b);
	assert_false(copy_resume_on(g->m, 0, "devbox", NULL, &b, &why));
	assert_int_equal(b.n, 0);
	assert_string_equal(why.p, "no resume command: $AGENTVIEW_SSH holds a control character");
	unsetenv("AGENTVIEW_SSH");
	/* A host ssh would read as an option, or a port that is not one. */
	buf_reset(&b);
	buf_reset(&why);
	assert_false(copy_resume_on(g->m, 0, "-oProxyCommand=x", NULL, &b, &why));
	assert_int_equal(b.n, 0);
	assert_string_equal(why.p, "no resume command: the host is not one ssh may be given");
	buf_reset(&why);
	assert_false(copy_resume_on(g->m, 0, "devbox", "22 x", &b, &why));
	assert_false(copy_resume_on(g->m, 0, "a b", NULL, &b, &why));
	assert_int_equal(b.n, 0);
	/* The id's check still holds. */
	buf_reset(&why);
	assert_false(copy_resume_on(h->m, 0, "devbox", NULL, &b, &why));
	assert_int_equal(b.n, 0);
	assert_string_equal(why.p, "no resume command: the session id is not plain");
	buf_free(&b);
	buf_free(&why);
	fixture_free(f);
	fixture_free(g);
	fixture_free(h);
}

/* The one gate before a shell: a command as it is, a word as it is or in
 * single quotes; neither when the screen would not show it as it is. */
static void
test_shell(void **state)
{
	static const struct {
		const char *in;
		enum copy_shell how;
		const char *out; /* NULL: refused */
	} cases[] = {
		{"0b1f-x_9.z:1/a@b", COPY_SHELL_WORD, "0b1f-x_9.z:1/a@b"},
		{"", COPY_SHELL_WORD, "''"},
		{"a b", COPY_SHELL_WORD, "'a b'"},
		{"it's", COPY_SHELL_WORD, "'it'\\''s'"},
		{"$(rm -rf ~)", COPY_SHELL_WORD, "'$(rm -rf ~)'"},
		{"~", COPY_SHELL_WORD, "'~'"},
		{"caf\xc3\xa9", COPY_SHELL_WORD, "'caf\xc3\xa9'"},
		/* A backslash never inside the quotes: fish reads \' there as
		 * a quote, which ends them where sh's do not (a folder
		 * a\'; touch x; echo \' ran touch under fish). */
		{"a\\'; touch x; echo \\'", COPY_SHELL_WORD,
		 "'a'\\\\''\\''; touch x; echo '\\\\''\\'''"},
		{"x\\", COPY_SHELL_WORD, "'x'\\\\''"},
		{"a\nb", COPY_SHELL_WORD, NULL},
		{"a\tb", COPY_SHELL_WORD, NULL},
		{"a\x03", COPY_SHELL_WORD, NULL},
		/* A command keeps its lines and tabs. */
		{"make &&\n\tls | wc -l", COPY_SHELL_LINE, "make &&\n\tls | wc -l"},
		{"echo 'caf\xc3\xa9' \xe6\x97\xa5", COPY_SHELL_LINE,
		 "echo 'caf\xc3\xa9' \xe6\x97\xa5"},
		/* ^C ends the line being pasted; ESC [ 201 ~ the paste. */
		{"echo hi\x03 rm -rf ~", COPY_SHELL_LINE, NULL},
		{"echo \x1b[201~ rm -rf ~", COPY_SHELL_LINE, NULL},
		{"a\rb", COPY_SHELL_LINE, NULL},
		{"a\r\nb", COPY_SHELL_LINE, NULL},
		{"a\x7f", COPY_SHELL_LINE, NULL},
		{"a\xc2\x9b"
		 "201~",
		 COPY_SHELL_LINE, NULL},
		{"a\x9b"
		 "201~",
		 COPY_SHELL_LINE, NULL},
		{"a\xff", COPY_SHELL_LINE, NULL},
		/* Trojan source: what runs is not what shows. */
		{"ls \xe2\x80\xae"
		 "txt.exe",
		 COPY_SHELL_LINE, NULL},
		{"ls \xe2\x81\xa6x", COPY_SHELL_LINE, NULL},
		{"a\xe2\x80\xa8"
		 "b",
		 COPY_SHELL_LINE, NULL},
	};
	struct buf b = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		bool ok;

		buf_reset(&b);
		buf_adds(&b, "<");
		ok = copy_shell(&b, cases[i].in, strlen(cases[i].in), cases[i].how);
		if (cases[i].out == NULL && (ok || b.n != 1))
			fail_msg("case %zu: \"%s\" was taken", i, b.p);
		if (cases[i].out != NULL && (!ok || strcmp(b.p + 1, cases[i].out) != 0))
			fail_msg("case %zu: got %s\"%s\", want \"%s\"", i, ok ? "" : "refused ",
				 b.p + 1, cases[i].out);
	}
	buf_free(&b);
}

/* What the clipboard gets: what the screen shows, tabs and newlines kept;
 * a command with anything else is not copied. */
static void
test_gate(void **state)
{
	static const struct {
		const char *what, *in, *out, *why;
	} cases[] = {
		{"reply", "On it \x1b[2J.\tdone\r\n", "On it ^[[2J.\tdone\n", NULL},
		{"output",
		 "\x1b]52;c;eA==\x07 \x03\x1b[201~ \xc2\x9b"
		 "31m \x9b \x7f",
		 "^[]52;c;eA==^G ^C^[[201~ \\u009B31m \xef\xbf\xbd ^?", NULL},
		{"path",
		 "a\xe2\x80\xae"
		 "b.c",
		 "a\\u202Eb.c", NULL},
		{"session id", "s\x03", "s^C", NULL},
		{"command", "make &&\n\tls", "make &&\n\tls", NULL},
		{"command", "ls\x03 rm -rf ~", NULL,
		 "not copied: the command holds a control character"},
		{"resume command", "claude --resume a\x1b", NULL,
		 "not copied: the resume command holds a control character"},
	};
	struct buf b = {0}, why = {0}, big = {0};

	(void)state;
	/* A command OSC 52 would carry cut: its head could be another
	 * command (`rm -rf ~/tmp/x` cut after the ~). Any other text is
	 * cut, and said so, when it is copied. */
	buf_adds(&big, "rm -rf ~");
	while (big.n <= COPY_MAX)
		buf_adds(&big, "/tmp");
	assert_false(copy_gate("command", big.p, big.n, &b, &why));
	assert_int_equal(b.n, 0);
	assert_string_equal(why.p, "not copied: the command is longer than the 512 KiB OSC 52 "
				   "carries");
	assert_true(copy_gate("output", big.p, big.n, &b, &why));
	assert_int_equal(b.n, big.n);
	/* Of a long text, what OSC 52 can carry is shown, not the whole:
	 * 4 MiB of ^C is not made 8 MiB. */
	buf_reset(&big);
	while (big.n < (4u << 20))
		buf_adds(&big, "\x03\x03\x03\x03\x03\x03\x03\x03");
	buf_reset(&b);
	assert_true(copy_gate("output", big.p, big.n, &b, &why));
	assert_true(b.n >= COPY_MAX && b.n <= 4 * COPY_MAX + 4);
	assert_memory_equal(b.p, "^C^C^C", 6);
	/* The secrets are out of the whole before the cut: a secret that
	 * runs past it is still seen whole. */
	{
		struct redact *r = redact_new();
		struct buf err = {0};

		assert_true(redact_add(r, "AAA[^Z]*Z", &err));
		redact_use(r, true);
		buf_reset(&big);
		buf_adds(&big, "AAA");
		while (big.n < (3u << 20))
			buf_adds(&big, "xxxxxxxx");
		buf_adds(&big, "Z.");
		buf_reset(&b);
		assert_true(copy_gate("output", big.p, big.n, &b, &why));
		assert_int_equal(b.n, 11);
		assert_string_equal(b.p, "[redacted].");
		redact_use(NULL, false);
		redact_free(r);
		buf_free(&err);
	}
	buf_free(&big);
	buf_reset(&b);
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		bool ok;

		buf_reset(&b);
		buf_reset(&why);
		ok = copy_gate(cases[i].what, cases[i].in, strlen(cases[i].in), &b, &why);
		if (cases[i].out != NULL && (!ok || strcmp(b.p, cases[i].out) != 0))
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, ok ? b.p : why.p,
				 cases[i].out);
		if (cases[i].out == NULL && (ok || b.n != 0 || strcmp(why.p, cases[i].why) != 0))
			fail_msg("case %zu: got \"%s\"", i, ok ? b.p : why.p);
	}
	buf_free(&b);
	buf_free(&why);
}

/* A hostile command and output in each agent's stream: the command is
 * taken as the agent wrote it, and refused by the gate; the output
 * reaches the clipboard with no control character but tab and newline. */
static void
test_command_hostile(void **state)
{
	static const char *const texts[] = {
		INIT "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\","
		     "\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"ls\\u0003 rm "
		     "-rf ~\\u001b[201~\"},\"result\":{\"success\":{\"exitCode\":0,\"stdout\":"
		     "\"o\\u001b]52;c;eA==\\u0007\",\"stderr\":\"\\u009b2J\"}}}}}\n",
		"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"cwd\":\"/w\","
		"\"tools\":[],\"claude_code_version\":\"2.1.0\",\"model\":\"M\"}\n"
		"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":"
		"\"tool_use\",\"id\":\"t1\",\"name\":\"Bash\",\"input\":{\"command\":\"ls\\u0003 "
		"rm -rf ~\\u001b[201~\"}}]},\"parent_tool_use_id\":null,\"session_id\":\"s\"}\n"
		"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"tool_use_id\":"
		"\"t1\",\"type\":\"tool_result\",\"content\":\"o\\u001b]52;c;eA==\\u0007\"}]},"
		"\"parent_tool_use_id\":null,\"session_id\":\"s\",\"tool_use_result\":{\"stdout\":"
		"\"o\\u001b]52;c;eA==\\u0007\",\"stderr\":\"\\u009b2J\",\"interrupted\":false}}\n",
		"{\"type\":\"init\",\"session_id\":\"g\",\"model\":\"M\"}\n"
		"{\"type\":\"tool_use\",\"tool_name\":\"run_shell_command\",\"tool_id\":\"r1\","
		"\"parameters\":{\"command\":\"ls\\u0003 rm -rf ~\\u001b[201~\"}}\n"
		"{\"type\":\"tool_result\",\"tool_id\":\"r1\",\"status\":\"success\",\"output\":"
		"\"o\\u001b]52;c;eA==\\u0007\\u009b2J\"}\n",
		"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n"
		"{\"type\":\"item.completed\",\"item\":{\"id\":\"item_1\",\"type\":"
		"\"command_execution\",\"command\":\"/bin/bash -lc 'ls\\u0003 rm -rf "
		"~\\u001b[201~'\",\"aggregated_output\":\"o\\u001b]52;c;eA==\\u0007\\u009b2J\","
		"\"exit_code\":0,\"status\":\"completed\"}}\n",
	};
	struct buf b = {0}, g = {0}, why = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(texts); i++) {
		struct fixture *f = fixture_new(texts[i], strlen(texts[i]), 0);
		const char *what;

		buf_reset(&b);
		buf_reset(&g);
		buf_reset(&why);
		what = copy_call_target(f->m, 0, &b);
		assert_non_null(what);
		assert_string_equal(what, "command");
		assert_non_null(strstr(b.p, "ls\x03 rm -rf ~\x1b[201~"));
		assert_false(copy_gate(what, b.p, b.n, &g, &why));
		assert_int_equal(g.n, 0);
		assert_string_equal(why.p, "not copied: the command holds a control character");
		buf_reset(&b);
		what = copy_call_output(f->m, 0, &b);
		assert_non_null(what);
		assert_true(copy_gate(what, b.p, b.n, &g, &why));
		assert_non_null(strstr(g.p, "o^[]52;c;eA==^G"));
		assert_non_null(strstr(g.p, "\\u009B2J"));
		for (size_t k = 0; k < g.n; k++) {
			unsigned char c = (unsigned char)g.p[k];

			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f ||
			    (c == 0xc2 && k + 1 < g.n && (unsigned char)g.p[k + 1] >= 0x80 &&
			     (unsigned char)g.p[k + 1] <= 0x9f))
				fail_msg("stream %zu: a control byte at %zu of \"%s\"", i, k, g.p);
		}
		fixture_free(f);
	}
	buf_free(&b);
	buf_free(&g);
	buf_free(&why);
}

/* OSC 52: base64 between ESC ] 52 ; c ; and BEL, cut at the limit before
 * a character that would not fit whole. */
static void
test_osc52(void **state)
{
	struct buf b = {0};

	(void)state;
	assert_int_equal(copy_osc52(&b, "hi", 2, COPY_MAX), 2);
	assert_bytes_equal(b.p, b.n, "\033]52;c;aGk=\a");
	buf_reset(&b);
	/* "aé": a cut at 2 would split é. */
	assert_int_equal(copy_osc52(&b, "a\xC3\xA9", 3, 2), 1);
	assert_bytes_equal(b.p, b.n, "\033]52;c;YQ==\a");
	buf_reset(&b);
	assert_int_equal(copy_osc52(&b, "a\xC3\xA9", 3, 3), 3);
	assert_bytes_equal(b.p, b.n, "\033]52;c;YcOp\a");
	buf_reset(&b);
	assert_int_equal(copy_osc52(&b, "", 0, COPY_MAX), 0);
	assert_bytes_equal(b.p, b.n, "\033]52;c;\a");
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cursor),        cmocka_unit_test(test_agents),
		cmocka_unit_test(test_resume),        cmocka_unit_test(test_resume_hostile),
		cmocka_unit_test(test_resume_remote), cmocka_unit_test(test_shell),
		cmocka_unit_test(test_gate),          cmocka_unit_test(test_command_hostile),
		cmocka_unit_test(test_osc52),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
