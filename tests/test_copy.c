/* test_copy.c: what y and Y copy, from each agent's stream, and the OSC 52
 * sequence that carries it. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "copy.h"

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
	struct buf b = {0};

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
	/* The id and the directory quoted for the shell. */
	buf_reset(&b);
	assert_true(copy_resume(f->m, 0, &b));
	assert_string_equal(b.p, "cd '/w/it'\\''s' && cursor-agent --resume 's 1'");
	buf_free(&b);
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
		 "/tmp/agentview-agents.PvsWk5/claude-read/work/notes.txt", "content",
		 "alpha\nbeta\ngamma\n"},
		{"claude-edit", 1, "path",
		 "/tmp/agentview-agents.PvsWk5/claude-edit/work/greet.txt", "diff",
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
		{"claude-shell-ok", "cd /tmp/agentview-agents.PvsWk5/claude-shell-ok/work && "
				    "claude --resume 2cfffb70-2d00-4457-9fd1-db341aa0e6d6"},
		{"gemini-shell-ok", "gemini --resume 5b4649d3-5fc3-4674-8bdc-58e7d3501468"},
		{"codex-shell-ok", "codex resume 01a20a33-cb8b-7173-a789-4f3fb4d36130"},
		{"cursor-0915-askquestion", NULL},
	};
	struct buf b = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fixture *f = fixture_recording(cases[i].rec, 0);

		buf_reset(&b);
		assert_true(copy_resume(f->m, 0, &b));
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
		assert_false(copy_resume(f->m, 0, &b));
		assert_int_equal(b.n, 0);
		fixture_free(f);
	}
	buf_free(&b);
}

/* Quoting for the shell: plain words as they are, the rest in single
 * quotes, a single quote closed, escaped and opened again. */
static void
test_quote(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"0b1f-x_9.z:1/a@b", "0b1f-x_9.z:1/a@b"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", "'it'\\''s'"},
		{"$(rm -rf ~)", "'$(rm -rf ~)'"},
		{"a\nb", "'a\nb'"},
	};
	struct buf b = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		buf_reset(&b);
		copy_shell_quote(&b, cases[i].in, strlen(cases[i].in));
		buf_addc(&b, '\0');
		assert_string_equal(b.p, cases[i].out);
	}
	buf_free(&b);
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
		cmocka_unit_test(test_cursor), cmocka_unit_test(test_agents),
		cmocka_unit_test(test_resume), cmocka_unit_test(test_quote),
		cmocka_unit_test(test_osc52),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
