/* test_keys.c: the key table: lookups, and the man page kept in step. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "keys.h"
#include "text.h"

static void
test_lookup(void **state)
{
	(void)state;
	assert_int_equal(keys_lookup(KC_GLOBAL, 'q'), ACT_QUIT);
	assert_int_equal(keys_lookup(KC_SCROLL, 'j'), ACT_DOWN);
	assert_int_equal(keys_lookup(KC_SCROLL, K_DOWN), ACT_DOWN);
	assert_int_equal(keys_lookup(KC_SCROLL, K_END), ACT_BOTTOM);
	assert_int_equal(keys_lookup(KC_SCROLL, ' '), ACT_PAGE_DOWN);
	/* A key bound in one context is not bound in another. */
	assert_int_equal(keys_lookup(KC_GLOBAL, 'j'), ACT_NONE);
	assert_int_equal(keys_lookup(KC_SCROLL, 'Z'), ACT_NONE);
	/* Replay keys: all ten digits, and Space means pause there. */
	assert_int_equal(keys_lookup(KC_REPLAY, ' '), ACT_REPLAY_PAUSE);
	assert_int_equal(keys_lookup(KC_REPLAY, '0'), ACT_REPLAY_JUMP);
	assert_int_equal(keys_lookup(KC_REPLAY, '9'), ACT_REPLAY_JUMP);
	assert_int_equal(keys_lookup(KC_REPLAY, K_SLEFT), ACT_REPLAY_SEEK_BACK_LONG);
	assert_int_equal(keys_lookup(KC_REPLAY, ','), ACT_REPLAY_STEP_BACK);
	assert_int_equal(keys_lookup(KC_REPLAY, 'j'), ACT_NONE);
}

/* No key means two things in one context. */
static void
test_no_clash(void **state)
{
	(void)state;
	for (const struct binding *a = key_table; a->action != ACT_NONE; a++)
		for (const struct binding *b = a + 1; b->action != ACT_NONE; b++)
			for (int i = 0; i < KEYS_MAX && a->keys[i]; i++)
				for (int k = 0; k < KEYS_MAX && b->keys[k]; k++)
					if (a->ctx == b->ctx && a->keys[i] == b->keys[k])
						fail_msg("key %d bound to '%s' and '%s'",
							 a->keys[i], a->help, b->help);
}

/* The man page's KEYS section is what the table generates. */
static void
test_man_page_in_step(void **state)
{
	FILE *f = fopen("src/agentview.1", "r");
	struct buf man = {0}, want = {0};
	char line[4096];
	bool in = false;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, ".\\\" keys-begin", 14) == 0) {
			in = true;
			continue;
		}
		if (strncmp(line, ".\\\" keys-end", 12) == 0)
			in = false;
		if (in)
			buf_adds(&man, line);
	}
	fclose(f);
	keys_roff(&want);
	if (man.n != want.n || memcmp(man.p, want.p, man.n) != 0)
		fail_msg("src/agentview.1 KEYS differs from src/keys.c: run 'make update-man'");
	buf_free(&man);
	buf_free(&want);
}

static void
test_help_text(void **state)
{
	struct buf b = {0};

	(void)state;
	/* Wide enough that nothing wraps (test_help_wraps covers wrapping). */
	keys_help(&b, 1000, KC_CONTEXTS);
	assert_non_null(strstr(b.p, "Anywhere\n"));
	assert_non_null(strstr(b.p, "  q "));
	assert_non_null(strstr(b.p, "quit (Ctrl-C too)\n"));
	/* Every binding appears. */
	for (const struct binding *k = key_table; k->action != ACT_NONE; k++)
		assert_non_null(strstr(b.p, k->help));
	buf_free(&b);
}

/* The help wraps at any width: no line wider than asked, every word of
 * every binding kept, in two columns while they fit, stacked below. */
static void
test_help_wraps(void **state)
{
	static const int widths[] = {76, 36, 24, 12};

	(void)state;
	setlocale(LC_CTYPE, "C.UTF-8");
	for (size_t i = 0; i < ARRAY_LEN(widths); i++) {
		struct buf b = {0}, words = {0};
		int w = widths[i];
		char *line, *save;

		keys_help(&b, w, KC_CONTEXTS);
		for (line = strtok_r(b.p, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save)) {
			if ((int)text_width(line, strlen(line)) > w)
				fail_msg("width %d: line too wide: '%s'", w, line);
			if (line[strlen(line) - 1] == ' ')
				fail_msg("width %d: trailing space: '%s'", w, line);
			buf_adds(&words, line);
			buf_addc(&words, ' ');
		}
		/* Every key name and help word is there, in order (at 12
		 * columns long words are cut: only the widths count). */
		for (const struct binding *k = key_table; w >= 24 && k->action != ACT_NONE; k++) {
			char help[256], *word, *save2;
			const char *at;

			assert_non_null(at = strstr(words.p, k->names));
			snprintf(help, sizeof help, "%s", k->help);
			for (word = strtok_r(help, " ", &save2); word != NULL;
			     word = strtok_r(NULL, " ", &save2))
				assert_non_null(at = strstr(at, word));
		}
		for (int c = 0; w >= 24 && c < KC_CONTEXTS; c++)
			assert_non_null(strstr(words.p, keys_ctx_title((enum key_ctx)c)));
		buf_free(&b);
		buf_free(&words);
	}
}

/* Keys and help in columns at 76; keys above their help at 24. */
static void
test_help_columns(void **state)
{
	struct buf b = {0};

	(void)state;
	keys_help(&b, 76, KC_CONTEXTS);
	assert_non_null(strstr(b.p, "\n  G, End       to the end, and follow new events\n"));
	assert_non_null(strstr(
		b.p, "\n  Tab          next pane (the narrow layout shows one at a time)\n"));
	buf_reset(&b);
	keys_help(&b, 40, KC_CONTEXTS);
	assert_non_null(strstr(b.p, "\n  Tab          next pane (the narrow\n"
				    "               layout shows one at a\n"));
	buf_reset(&b);
	keys_help(&b, 24, KC_CONTEXTS);
	assert_non_null(strstr(b.p, "\n  Space, PgDn\n    down one page\n"));
	buf_free(&b);
}

/* The help of the list is the list's keys (issue 25: they were lines 80
 * to 89 of the transcript's help), in columns as wide as its own names. */
static void
test_help_list(void **state)
{
	struct buf b = {0};

	(void)state;
	keys_help(&b, 76, KC_LIST);
	assert_memory_equal(b.p, "Session list", strlen("Session list"));
	assert_non_null(strstr(b.p, "\n  w           the next session that waits for a decision or "
				    "failed (wraps)\n"));
	assert_non_null(strstr(b.p, "\n  x           hide the sessions that are over"));
	assert_null(strstr(b.p, "Anywhere"));
	assert_null(strstr(b.p, "previous tool call"));
	for (const struct binding *k = key_table; k->action != ACT_NONE; k++)
		if (k->ctx == KC_LIST)
			assert_non_null(strstr(b.p, k->names));
	buf_free(&b);
}

/* Keys as people write them, for "no such key: w". */
static void
test_key_names(void **state)
{
	static const struct {
		int key;
		const char *name;
	} cases[] = {
		{'w', "w"},         {' ', "Space"},     {KEY_CTRL('x'), "Ctrl-X"},
		{K_ESC, "Esc"},     {K_F1, "F1"},       {K_SLEFT, "Shift-Left"},
		{0xE9, "\xC3\xA9"}, {127, "Backspace"}, {K_OTHER, "that function key"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct buf b = {0};

		keys_name(cases[i].key, &b);
		assert_string_equal(b.p, cases[i].name);
		buf_free(&b);
	}
}

/* In the help, q, Esc and ? close it; elsewhere ?, h and F1 open it. */
static void
test_help_keys(void **state)
{
	(void)state;
	assert_int_equal(keys_lookup(KC_GLOBAL, '?'), ACT_HELP);
	assert_int_equal(keys_lookup(KC_GLOBAL, 'h'), ACT_HELP);
	assert_int_equal(keys_lookup(KC_GLOBAL, K_F1), ACT_HELP);
	assert_int_equal(keys_lookup(KC_HELP, K_F1), ACT_HELP_CLOSE);
	assert_int_equal(keys_lookup(KC_HELP, '?'), ACT_HELP_CLOSE);
	assert_int_equal(keys_lookup(KC_HELP, 'q'), ACT_HELP_CLOSE);
	assert_int_equal(keys_lookup(KC_HELP, K_ESC), ACT_HELP_CLOSE);
	assert_int_equal(keys_lookup(KC_HELP, 'j'), ACT_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),           cmocka_unit_test(test_no_clash),
		cmocka_unit_test(test_man_page_in_step), cmocka_unit_test(test_help_text),
		cmocka_unit_test(test_help_wraps),       cmocka_unit_test(test_help_columns),
		cmocka_unit_test(test_help_keys),        cmocka_unit_test(test_help_list),
		cmocka_unit_test(test_key_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
