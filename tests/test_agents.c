/* test_agents.c: the model of the real Claude Code, Gemini CLI and Codex
 * captures of recordings/ (made by tests/agents/run.sh --capture), where
 * the JSON summary cannot tell: which call a sub-agent's call was made
 * under, how deep its items are drawn, which items a failure makes. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "model.h"
#include "tool.h"
#include "words.h"

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

/* A failed Gemini CLI run says why only in its result's error: that
 * reason is a notice of its own at the end of the transcript, whole (its
 * lines too), before the session's closing line. */
static void
test_gemini_failure_notice(void **state)
{
	static const struct {
		const char *file, *want;
	} cases[] = {
		{"recordings/gemini-rate-limit-fail.ndjson",
		 "error: [API Error: Resource has been exhausted (e.g. check quota).\n"
		 "Suggested retry after 1s.]\nPlease wait and try again later. To increase your "
		 "limits, request a quota increase through AI Studio, or switch to another /auth "
		 "method"},
		{"recordings/gemini-cut.ndjson",
		 "error: [API Error: Incomplete JSON segment at the end]"},
		{"recordings/gemini-http500.ndjson",
		 "error: [API Error: {\"error\":{\"code\":500,\"message\":\"Internal error "
		 "encountered.\",\"status\":\"INTERNAL\"}}]"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fixture *f = fixture_file(cases[i].file, 0);
		struct model *m = f->m;
		size_t n = m->nit;

		assert_true(n >= 2);
		assert_int_equal(m->it[n - 1].type, IT_RESULT);
		assert_int_equal(m->it[n - 2].type, IT_NOTICE);
		buf_reset(&f->b);
		words_item(m, (uint32_t)(n - 2), WORDS_WHOLE, NULL, &f->b);
		assert_string_equal(f->b.p, cases[i].want);
		assert_int_equal(model_session_state(m, 0), SS_FAILED);
		fixture_free(f);
	}
}

/* A run that ends well makes no such notice. */
static void
test_gemini_ok_no_notice(void **state)
{
	struct fixture *f = fixture_file("recordings/gemini-shell-ok.ndjson", 0);

	(void)state;
	for (size_t i = 0; i < f->m->nit; i++)
		assert_int_not_equal(f->m->it[i].type, IT_NOTICE);
	fixture_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claude_parents),
		cmocka_unit_test(test_no_children),
		cmocka_unit_test(test_gemini_failure_notice),
		cmocka_unit_test(test_gemini_ok_no_notice),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
