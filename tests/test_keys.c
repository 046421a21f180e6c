/* test_keys.c: the key table: lookups, and the man page kept in step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "keys.h"

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
	keys_help(&b, 80);
	assert_non_null(strstr(b.p, "Anywhere\n"));
	assert_non_null(strstr(b.p, "  q "));
	assert_non_null(strstr(b.p, "quit (Ctrl-C too)\n"));
	/* Every binding appears. */
	for (const struct binding *k = key_table; k->action != ACT_NONE; k++)
		assert_non_null(strstr(b.p, k->help));
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_no_clash),
		cmocka_unit_test(test_man_page_in_step),
		cmocka_unit_test(test_help_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
