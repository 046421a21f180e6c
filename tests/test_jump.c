/* test_jump.c: jumps between tool calls, prompts and calls that went
 * wrong; filters that hide kinds of items, through render and scrolling. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "jump.h"
#include "render.h"
#include "status.h"
#include "view.h"

/* The model of text, read to its end, and its renderer. */
static struct fixture *
load(const char *text)
{
	return fixture_new(text, strlen(text), FX_RENDER);
}

#define INIT \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"model\":\"M\",\"cwd\":\"/w\"}\n"
#define USER(t) \
	"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"" t "\"}]}}\n"
#define THINK \
	"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"hm\",\"timestamp_ms\":1}\n" \
	"{\"type\":\"thinking\",\"subtype\":\"completed\",\"timestamp_ms\":2}\n"
#define CALL(id, variant) \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"" id "\"," \
	"\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"" id "\"}}}}\n" \
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"" id "\"," \
	"\"tool_call\":{\"shellToolCall\":{\"result\":{\"" variant "\":{\"exitCode\":1}}}}}\n"
#define OPEN(id) \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"" id "\"," \
	"\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"" id "\"}}}}\n"
#define NOTICE "{\"type\":\"connection\",\"subtype\":\"reconnecting\",\"attempt\":1}\n"
#define RESULT "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false}\n"

/* Items: 0 session, 1 prompt, 2 thinking, 3 ok, 4 failed, 5 notice,
 * 6 prompt, 7 rejected, 8 thinking, 9 orphaned read, 10 ok, 11 result. */
#define SESSION \
	INIT USER("one") THINK CALL("a", "success") CALL("b", "failure") NOTICE USER("two") \
		CALL("c", "rejected") THINK OPEN("d") CALL("e", "success") RESULT

static void
test_items_layout(void **state)
{
	struct fixture *f = load(SESSION);
	static const int types[] = {IT_SESSION,  IT_PROMPT, IT_THINKING, IT_TOOL,
				    IT_TOOL,     IT_NOTICE, IT_PROMPT,   IT_TOOL,
				    IT_THINKING, IT_TOOL,   IT_TOOL,     IT_RESULT};

	(void)state;
	assert_int_equal(f->m->nit, ARRAY_LEN(types));
	for (size_t i = 0; i < ARRAY_LEN(types); i++)
		assert_int_equal(f->m->it[i].type, types[i]);
	fixture_free(f);
}

static void
test_jump_tools(void **state)
{
	struct fixture *f = load(SESSION);

	(void)state;
	/* From before the start: the first call; then each in turn. */
	assert_int_equal(jump_find(f->m, NONE, 1, JUMP_TOOL, 0, false), 3);
	assert_int_equal(jump_find(f->m, 3, 1, JUMP_TOOL, 0, false), 4);
	assert_int_equal(jump_find(f->m, 4, 1, JUMP_TOOL, 0, false), 7);
	assert_int_equal(jump_find(f->m, 10, 1, JUMP_TOOL, 0, false), NONE);
	/* Backward, and from outside the end. */
	assert_int_equal(jump_find(f->m, 7, -1, JUMP_TOOL, 0, false), 4);
	assert_int_equal(jump_find(f->m, 3, -1, JUMP_TOOL, 0, false), NONE);
	assert_int_equal(jump_find(f->m, NONE, -1, JUMP_TOOL, 0, false), 10);
	/* Prompts. */
	assert_int_equal(jump_find(f->m, 1, 1, JUMP_PROMPT, 0, false), 6);
	assert_int_equal(jump_find(f->m, 6, 1, JUMP_PROMPT, 0, false), NONE);
	assert_int_equal(jump_find(f->m, 11, -1, JUMP_PROMPT, 0, false), 6);
	/* Hidden tool calls are not jumped to. */
	assert_int_equal(jump_find(f->m, NONE, 1, JUMP_TOOL, 1u << IT_TOOL, false), NONE);
	fixture_free(f);
}

/* Failed, rejected and orphaned calls, wrapping around; the ok ones are
 * passed by. */
static void
test_jump_problems(void **state)
{
	struct fixture *f = load(SESSION);

	(void)state;
	assert_int_equal(model_call_state(f->m, f->m->it[9].ref), CS_ORPHANED);
	assert_int_equal(jump_find(f->m, NONE, 1, JUMP_PROBLEM, 0, true), 4);
	assert_int_equal(jump_find(f->m, 4, 1, JUMP_PROBLEM, 0, true), 7);
	assert_int_equal(jump_find(f->m, 7, 1, JUMP_PROBLEM, 0, true), 9);
	/* Past the last: back to the first. */
	assert_int_equal(jump_find(f->m, 9, 1, JUMP_PROBLEM, 0, true), 4);
	assert_int_equal(jump_find(f->m, 4, -1, JUMP_PROBLEM, 0, true), 9);
	/* Without wrapping, nothing after the last. */
	assert_int_equal(jump_find(f->m, 9, 1, JUMP_PROBLEM, 0, false), NONE);
	fixture_free(f);
}

/* The only problem: wrapping comes back to it. */
static void
test_jump_single(void **state)
{
	struct fixture *f = load(INIT CALL("a", "failure") CALL("b", "success"));

	(void)state;
	assert_int_equal(jump_find(f->m, 1, 1, JUMP_PROBLEM, 0, true), 1);
	assert_int_equal(jump_find(f->m, 2, 1, JUMP_PROBLEM, 0, true), 1);
	assert_int_equal(jump_find(f->m, NONE, 1, JUMP_PROMPT, 0, true), NONE);
	fixture_free(f);
}

static uint32_t
rows_cb(void *ctx, uint32_t it)
{
	return render_rows(ctx, it);
}

/* Hidden items have no rows; scrolling passes over them. */
static void
test_filters(void **state)
{
	struct fixture *f = load(SESSION);
	struct rowsrc src = {(uint32_t)f->m->nit, rows_cb, &f->r};
	struct scroll s;
	struct buf names = {0};
	unsigned hide;

	(void)state;
	render_set_width(&f->r, 40);
	assert_true(render_rows(&f->r, 2) > 0);
	hide = jump_filter_mask(ACT_HIDE_THINKING) | jump_filter_mask(ACT_HIDE_NOTICES);
	render_set_hidden(&f->r, hide);
	assert_int_equal(render_rows(&f->r, 2), 0);
	assert_int_equal(render_rows(&f->r, 5), 0);
	assert_int_equal(render_rows(&f->r, 8), 0);
	assert_true(render_rows(&f->r, 3) > 0);
	/* The view never stops on a hidden item. */
	scroll_init(&s, false);
	scroll_home(&s, &src);
	for (int i = 0; i < 40; i++) {
		scroll_by(&s, &src, 3, 1);
		assert_true(render_rows(&f->r, s.top) > 0);
	}
	/* Shown again. */
	render_set_hidden(&f->r, 0);
	assert_true(render_rows(&f->r, 2) > 0);
	/* The status bar names them in key order. */
	jump_filter_names(hide | jump_filter_mask(ACT_HIDE_DIAGS), &names);
	assert_string_equal(names.p, "thinking, notices, diagnostics");
	assert_int_equal(jump_filter_mask(ACT_HIDE_DIAGS), (1u << IT_DIAG) | (1u << IT_STDERR));
	assert_int_equal(jump_filter_mask(ACT_QUIT), 0);
	buf_free(&names);
	fixture_free(f);
}

/* The status bar shows what navigation says. */
static void
test_status_piece(void **state)
{
	struct fixture *f = load(SESSION);
	struct status_in in = {0};
	struct rline l = {0};

	(void)state;
	in.progress = -1;
	in.nav = "match 3/17";
	status_build(f->m, &in, 120, &l);
	assert_non_null(strstr(l.text.p, "match 3/17"));
	rline_free(&l);
	fixture_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_items_layout),  cmocka_unit_test(test_jump_tools),
		cmocka_unit_test(test_jump_problems), cmocka_unit_test(test_jump_single),
		cmocka_unit_test(test_filters),       cmocka_unit_test(test_status_piece),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
