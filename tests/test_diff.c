/* test_diff.c: the line diff and its unified output. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "diff.h"

/* The unified diff of a and b with one line of context. */
static char *
unified(const char *a, const char *b, int context, size_t *changed)
{
	struct buf out = {0};

	*changed = diff_unified(a, strlen(a), b, strlen(b), context, &out);
	buf_addc(&out, '\0');
	return out.p;
}

static void
test_ops(void **state)
{
	struct diff d = {0};
	const char *a = "a\nb\nc\nd\n", *b = "a\nx\nc\nd\ne\n";
	static const char ops[] = {DIFF_SAME, DIFF_DEL, DIFF_ADD, DIFF_SAME, DIFF_SAME, DIFF_ADD};

	(void)state;
	diff_compute(&d, a, strlen(a), b, strlen(b));
	assert_true(d.exact);
	assert_int_equal(d.n, ARRAY_LEN(ops));
	for (size_t i = 0; i < d.n; i++)
		assert_int_equal(d.v[i].op, ops[i]);
	/* The deleted "b" is line 1 of the old text, the added "x" line 1 of
	 * the new one. */
	assert_int_equal(d.v[1].a, 1);
	assert_int_equal(d.v[2].b, 1);
	assert_int_equal(d.v[5].b, 4);
	/* The same text: every line the same; no final newline is the same
	 * last line. */
	diff_compute(&d, "p\nq", 3, "p\nq\n", 4);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.v[0].op, DIFF_SAME);
	assert_int_equal(d.v[1].op, DIFF_SAME);
	/* Empty against something: all added. */
	diff_compute(&d, "", 0, "x\ny\n", 4);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.v[0].op, DIFF_ADD);
	assert_int_equal(d.v[1].op, DIFF_ADD);
	diff_free(&d);
}

/* The longest common subsequence, not just a common head and tail. */
static void
test_lcs(void **state)
{
	struct diff d = {0};
	const char *a = "1\n2\n3\n4\n5\n6\n", *b = "0\n2\n3\nX\n5\n7\n";
	size_t same = 0;

	(void)state;
	diff_compute(&d, a, strlen(a), b, strlen(b));
	for (size_t i = 0; i < d.n; i++)
		same += d.v[i].op == DIFF_SAME;
	assert_int_equal(same, 3); /* 2, 3, 5 */
	assert_int_equal(d.n, 9);
	diff_free(&d);
}

static void
test_unified(void **state)
{
	size_t changed;
	char *s;

	(void)state;
	s = unified("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nC\nd\ne\nf\ng\nH\n", 1, &changed);
	/* Two changes more than two contexts apart: two hunks. */
	assert_string_equal(s, "@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n"
			       "@@ -7,2 +7,2 @@\n g\n-h\n+H\n");
	assert_int_equal(changed, 4);
	free(s);
	/* Close changes join into one hunk. */
	s = unified("a\nb\nc\nd\n", "A\nb\nC\nd\n", 1, &changed);
	assert_string_equal(s, "@@ -1,4 +1,4 @@\n-a\n+A\n b\n-c\n+C\n d\n");
	free(s);
	/* An insertion at the top names line 0 of the old text. */
	s = unified("x\n", "new\nx\n", 0, &changed);
	assert_string_equal(s, "@@ -0,0 +1 @@\n+new\n");
	free(s);
	/* The same texts: nothing. */
	s = unified("same\n", "same\n", 3, &changed);
	assert_string_equal(s, "");
	assert_int_equal(changed, 0);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_lcs),
		cmocka_unit_test(test_unified),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
