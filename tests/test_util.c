/* test_util.c: the saturated arithmetic on stream times (ms_add, ms_sub,
 * ms_scale) and the formatters at the ends of int64_t. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "util.h"

/* Sums and differences saturate at ±INT64_MAX, never reach INT64_MIN
 * (TIME_NONE), and are exact where they fit. */
static void
test_ms_add_sub(void **state)
{
	(void)state;
	assert_int_equal(ms_add(INT64_MAX, 1), INT64_MAX);
	assert_int_equal(ms_add(INT64_MAX, INT64_MAX), INT64_MAX);
	assert_int_equal(ms_add(-INT64_MAX, -1), -INT64_MAX);
	assert_int_equal(ms_add(INT64_MIN, 0), -INT64_MAX);
	assert_int_equal(ms_add(INT64_MIN, INT64_MIN), -INT64_MAX);
	assert_int_equal(ms_add(INT64_MAX, INT64_MIN), -1);
	assert_int_equal(ms_add(40, 2), 42);
	assert_int_equal(ms_sub(INT64_MAX, -1), INT64_MAX);
	assert_int_equal(ms_sub(INT64_MAX, INT64_MIN), INT64_MAX);
	assert_int_equal(ms_sub(0, INT64_MIN), INT64_MAX);
	assert_int_equal(ms_sub(INT64_MIN, 1), -INT64_MAX);
	assert_int_equal(ms_sub(-2, INT64_MAX), -INT64_MAX);
	assert_int_equal(ms_sub(INT64_MAX, INT64_MAX), 0);
	assert_int_equal(ms_sub(0, INT64_MAX), -INT64_MAX);
	assert_int_equal(ms_sub(1000, 1), 999);
}

/* a * num / den: exact while it fits, within a unit past a product that
 * would overflow, saturated past the range. */
static void
test_ms_scale(void **state)
{
	(void)state;
	assert_int_equal(ms_scale(1000, 3, 4), 750);
	assert_int_equal(ms_scale(-1000, 3, 4), -750);
	assert_int_equal(ms_scale(INT64_MAX, 4, 4), INT64_MAX);
	assert_int_equal(ms_scale(INT64_MAX, 0, 4), 0);
	assert_true(llabs(ms_scale(INT64_MAX, 3, 4) - INT64_MAX / 4 * 3) <= 2);
	assert_true(llabs(ms_scale(INT64_MAX - 1, 40, INT64_MAX) - 39) <= 1);
	assert_int_equal(ms_scale(INT64_MAX, 5, 4), INT64_MAX);
	assert_int_equal(ms_scale(INT64_MIN, 5, 4), -INT64_MAX);
	assert_int_equal(ms_scale(INT64_MIN, 1, 1), -INT64_MAX);
	assert_int_equal(ms_scale(INT64_MAX, INT64_MAX, INT64_MAX), INT64_MAX);
	assert_int_equal(ms_scale(INT64_MAX, INT64_MAX, 1), INT64_MAX);
	assert_int_equal(ms_scale(INT64_MIN, INT64_MAX, 1), -INT64_MAX);
	assert_int_equal(ms_scale(7, INT64_MAX, INT64_MAX), 7);
}

/* Durations and clocks at the ends: never negative, days past INT_MAX;
 * a day or more reads in days ("36d19h", not "883h12m"). */
static void
test_fmt_extremes(void **state)
{
	static const struct {
		int64_t ms;
		const char *duration, *clock;
	} cases[] = {
		{INT64_MIN, "0 ms", "00:00"},
		{-1, "0 ms", "00:00"},
		{0, "0 ms", "00:00"},
		{86399999, "23h59m", "23:59:59"},
		{86400000, "1d00h", "24:00:00"},
		{883 * 3600000LL + 12 * 60000, "36d19h", "883:12:00"},
		{INT64_MAX, "106751991167d07h", "2562047788015:12:55"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct buf b = {0};

		fmt_duration(&b, cases[i].ms);
		assert_string_equal(b.p, cases[i].duration);
		buf_reset(&b);
		fmt_clock(&b, cases[i].ms);
		assert_string_equal(b.p, cases[i].clock);
		buf_free(&b);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ms_add_sub),
		cmocka_unit_test(test_ms_scale),
		cmocka_unit_test(test_fmt_extremes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
