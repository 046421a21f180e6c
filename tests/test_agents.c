/* test_agents.c: the model of the real Claude Code, Gemini CLI and Codex
 * captures of recordings/ (made by tests/agents/run.sh --capture), where
 * the JSON summary cannot tell: which call a sub-agent's call was made
 * under, and how deep its items are drawn. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "model.h"
#include "tool.h"

/* A sub-agent's calls are under the call that runs it: Claude Code's
 * Agent call in the foreground and in the background (whose sub-agent
 * works on after the call has ended), with and without partial messages;
 * its items one level deeper. Calls of one step side by side have none. */
static void
test_claude_parents(void **state)
{
	static const struct {
		const char *file;
		uint32_t ncall;
		uint32_t parent[2]; /* of call 0 and 1 */
	} cases[] = {
		{"recordings/claude-subagent.ndjson", 2, {NONE, 0}},
		{"recordings/claude-partial-subagent.ndjson", 2, {NONE, 0}},
		{"recordings/claude-subagent-bg.ndjson", 2, {NONE, 0}},
		{"recordings/claude-partial-subagent-bg.ndjson", 2, {NONE, 0}},
		{"recordings/claude-parallel.ndjson", 2, {NONE, NONE}},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fixture *f = fixture_file(cases[i].file, 0);
		struct model *m = f->m;

		assert_int_equal(m->ncall, cases[i].ncall);
		for (uint32_t c = 0; c < m->ncall; c++) {
			uint32_t p = cases[i].parent[c];

			assert_int_equal(m->call[c].parent, p);
			assert_int_equal(m->it[m->call[c].item].depth, p == NONE ? 0 : 1);
		}
		if (cases[i].parent[1] == 0) {
			assert_int_equal(m->call[0].kind, TK_TASK);
			assert_int_equal(m->call[1].kind, TK_SHELL);
		}
		fixture_free(f);
	}
}

/* Gemini CLI and Codex do not stream a sub-agent's own calls: their
 * sub-agent call has no children. */
static void
test_no_children(void **state)
{
	static const char *const files[] = {
		"recordings/gemini-subagent.ndjson",
		"recordings/codex-subagent.ndjson",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(files); i++) {
		struct fixture *f = fixture_file(files[i], 0);

		assert_int_equal(f->m->ncall, 1);
		assert_int_equal(f->m->call[0].kind, TK_TASK);
		assert_int_equal(f->m->call[0].parent, NONE);
		fixture_free(f);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claude_parents),
		cmocka_unit_test(test_no_children),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
