/* test_view.c: layout choice, scrolling, follow and selection. */
#include <string.h>

#include "testutil.h"

#include "model.h"
#include "view.h"

/* Items whose row counts come from an array. */
static uint32_t rows_of[64];

static uint32_t
rows_fn_array(void *ctx, uint32_t it)
{
	(void)ctx;
	return rows_of[it];
}

static struct rowsrc
src_of(uint32_t n, const uint32_t *rows)
{
	struct rowsrc s = {n, rows_fn_array, NULL};

	memcpy(rows_of, rows, n * sizeof *rows);
	return s;
}

static void
test_layout_kinds(void **state)
{
	struct layout l;

	(void)state;
	view_layout(40, 120, PANE_TRANSCRIPT, &l);
	assert_int_equal(l.kind, LAYOUT_WIDE);
	assert_int_equal(l.status.y, 39);
	assert_int_equal(l.body[PANE_TRANSCRIPT].h, 38);
	assert_int_equal(l.body[PANE_TIMELINE].h, 38);
	/* Side by side with a rule between: the widths add up. */
	assert_int_equal(l.body[PANE_TRANSCRIPT].w + 1 + l.body[PANE_TIMELINE].w, 120);
	assert_int_equal(l.sep.x, l.body[PANE_TRANSCRIPT].w);

	view_layout(24, 80, PANE_TRANSCRIPT, &l);
	assert_int_equal(l.kind, LAYOUT_MEDIUM);
	/* Stacked: titles and bodies and the status bar fill every row. */
	assert_int_equal(l.title[PANE_TRANSCRIPT].h + l.body[PANE_TRANSCRIPT].h +
				 l.title[PANE_TIMELINE].h + l.body[PANE_TIMELINE].h + 1,
			 24);
	assert_true(l.body[PANE_TIMELINE].h >= 3);
	assert_int_equal(l.body[PANE_TIMELINE].y + l.body[PANE_TIMELINE].h, 23);

	view_layout(30, 40, PANE_TIMELINE, &l);
	assert_int_equal(l.kind, LAYOUT_NARROW);
	assert_int_equal(l.body[PANE_TRANSCRIPT].h, 0);
	assert_int_equal(l.body[PANE_TIMELINE].h, 28);
	assert_int_equal(l.body[PANE_TIMELINE].w, 40);

	view_layout(30, 39, PANE_TRANSCRIPT, &l);
	assert_int_equal(l.kind, LAYOUT_TINY);
	assert_int_equal(l.body[PANE_TRANSCRIPT].h, 0);
	assert_int_equal(l.status.w, 39);
	view_layout(9, 200, PANE_TRANSCRIPT, &l);
	assert_int_equal(l.kind, LAYOUT_TINY);
	/* A 1x1 terminal, and nothing at all, still lay out. */
	view_layout(1, 1, PANE_TRANSCRIPT, &l);
	assert_int_equal(l.status.h, 1);
	view_layout(0, 0, PANE_TRANSCRIPT, &l);
	assert_int_equal(l.status.h, 0);
}

static void
test_scroll_end_and_home(void **state)
{
	static const uint32_t rows[] = {3, 1, 4, 2};
	struct rowsrc src = src_of(4, rows);
	struct scroll s;

	(void)state;
	scroll_init(&s, false);
	scroll_fix(&s, &src, 5);
	assert_int_equal(s.top, 0);
	assert_int_equal(s.row, 0);
	assert_false(scroll_at_end(&s, &src, 5));
	/* 10 rows, 5 on screen: the last 5 are item 2 rows 1..3 and item 3. */
	scroll_end(&s, &src, 5);
	assert_true(s.follow);
	assert_int_equal(s.top, 2);
	assert_int_equal(s.row, 1);
	assert_true(scroll_at_end(&s, &src, 5));
	scroll_home(&s, &src);
	assert_false(s.follow);
	assert_int_equal(s.top, 0);
	/* Everything fits: the end is the top. */
	scroll_end(&s, &src, 20);
	assert_int_equal(s.top, 0);
	assert_int_equal(s.row, 0);
}

static void
test_scroll_by(void **state)
{
	static const uint32_t rows[] = {3, 1, 4, 2};
	struct rowsrc src = src_of(4, rows);
	struct scroll s;

	(void)state;
	scroll_init(&s, false);
	scroll_fix(&s, &src, 5);
	scroll_by(&s, &src, 5, 4);
	assert_int_equal(s.top, 2);
	assert_int_equal(s.row, 0);
	assert_false(s.follow);
	/* Reaching the end turns follow on, and stops there. */
	scroll_by(&s, &src, 5, 100);
	assert_true(s.follow);
	assert_int_equal(s.top, 2);
	assert_int_equal(s.row, 1);
	/* Scrolling up leaves follow. */
	scroll_by(&s, &src, 5, -2);
	assert_false(s.follow);
	assert_int_equal(s.top, 1);
	assert_int_equal(s.row, 0);
	scroll_by(&s, &src, 5, -100);
	assert_int_equal(s.top, 0);
	assert_int_equal(s.row, 0);
}

/* Hidden items (no rows) are skipped both ways. */
static void
test_scroll_hidden(void **state)
{
	static const uint32_t rows[] = {0, 2, 0, 0, 2, 0};
	struct rowsrc src = src_of(6, rows);
	struct scroll s;

	(void)state;
	scroll_init(&s, false);
	scroll_fix(&s, &src, 1);
	assert_int_equal(s.top, 1);
	scroll_by(&s, &src, 1, 2);
	assert_int_equal(s.top, 4);
	assert_int_equal(s.row, 0);
	scroll_by(&s, &src, 1, -1);
	assert_int_equal(s.top, 1);
	assert_int_equal(s.row, 1);
	scroll_end(&s, &src, 1);
	assert_int_equal(s.top, 4);
	assert_int_equal(s.row, 1);
}

/* New items while following: the view stays at the end; while not,
 * it stays put. */
static void
test_follow_sticky(void **state)
{
	uint32_t rows[] = {2, 2, 2, 2, 2};
	struct rowsrc src = src_of(5, rows);
	struct scroll s;

	(void)state;
	src.n = 3; /* two more items come later */
	scroll_init(&s, true);
	scroll_fix(&s, &src, 3);
	assert_int_equal(s.top, 1);
	assert_int_equal(s.row, 1);
	src.n = 5;
	scroll_fix(&s, &src, 3);
	assert_int_equal(s.top, 3);
	assert_int_equal(s.row, 1);
	scroll_by(&s, &src, 3, -3);
	assert_false(s.follow);
	assert_int_equal(s.top, 2);
	assert_int_equal(s.row, 0);
	rows_of[5] = 2;
	src.n = 6;
	scroll_fix(&s, &src, 3);
	assert_int_equal(s.top, 2);
	assert_int_equal(s.row, 0);
}

/* A resize changes the rows of items; the top item stays. */
static void
test_resize_keeps_position(void **state)
{
	uint32_t rows[] = {4, 4, 4, 4};
	struct rowsrc src = src_of(4, rows);
	struct scroll s;

	(void)state;
	scroll_init(&s, false);
	scroll_fix(&s, &src, 3);
	scroll_by(&s, &src, 3, 7);
	assert_int_equal(s.top, 1);
	assert_int_equal(s.row, 3);
	/* Wider: item 1 now has 2 rows. */
	rows_of[1] = 2;
	scroll_fix(&s, &src, 3);
	assert_int_equal(s.top, 1);
	assert_int_equal(s.row, 1);
	rows_of[1] = 4;
	scroll_fix(&s, &src, 3);
	assert_int_equal(s.top, 1);
	assert_int_equal(s.row, 1);
}

static void
test_scroll_to_item(void **state)
{
	static const uint32_t rows[] = {2, 2, 2, 2};
	struct rowsrc src = src_of(4, rows);
	struct scroll s;

	(void)state;
	scroll_init(&s, true);
	scroll_to_item(&s, &src, 3, 1);
	assert_int_equal(s.top, 1);
	assert_int_equal(s.row, 0);
	assert_false(s.follow);
	/* Near the end, a full screen is shown. */
	scroll_to_item(&s, &src, 3, 3);
	assert_int_equal(s.top, 2);
	assert_int_equal(s.row, 1);
}

static void
test_empty(void **state)
{
	struct rowsrc src = {0, rows_fn_array, NULL};
	struct scroll s;
	struct list l;

	(void)state;
	scroll_init(&s, false);
	scroll_fix(&s, &src, 5);
	assert_int_equal(s.top, NONE);
	scroll_by(&s, &src, 5, 3);
	scroll_end(&s, &src, 5);
	assert_int_equal(s.top, NONE);
	assert_true(scroll_at_end(&s, &src, 5));
	list_init(&l);
	list_fix(&l, 0, 5);
	assert_int_equal(l.sel, NONE);
	list_move(&l, 0, 5, 1);
	assert_int_equal(l.sel, NONE);
}

static void
test_list(void **state)
{
	struct list l;

	(void)state;
	list_init(&l);
	/* Following: the selection is the last row, and stays there. */
	list_fix(&l, 10, 4);
	assert_int_equal(l.sel, 9);
	assert_int_equal(l.top, 6);
	list_fix(&l, 12, 4);
	assert_int_equal(l.sel, 11);
	assert_int_equal(l.top, 8);
	list_move(&l, 12, 4, -5);
	assert_false(l.follow);
	assert_int_equal(l.sel, 6);
	assert_int_equal(l.top, 6);
	list_fix(&l, 20, 4);
	assert_int_equal(l.sel, 6);
	list_move(&l, 20, 4, 100);
	assert_true(l.follow);
	assert_int_equal(l.sel, 19);
	list_select(&l, 20, 4, 0);
	assert_int_equal(l.top, 0);
	assert_false(l.follow);
	/* Not following from the start: the first row is selected. */
	list_init(&l);
	l.follow = false;
	list_fix(&l, 5, 3);
	assert_int_equal(l.sel, 0);
}

/* A terminal too large to look at is drawn at the cap; smaller ones as
 * they are. */
static void
test_view_cap(void **state)
{
	int sizes[][4] = {
		{10000, 10000, VIEW_MAX_ROWS, VIEW_MAX_COLS},
		{40, 120, 40, 120},
		{VIEW_MAX_ROWS + 1, 80, VIEW_MAX_ROWS, 80},
		{24, VIEW_MAX_COLS + 1, 24, VIEW_MAX_COLS},
	};
	struct layout l;

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
		int rows = sizes[i][0], cols = sizes[i][1];

		view_cap(&rows, &cols);
		assert_int_equal(rows, sizes[i][2]);
		assert_int_equal(cols, sizes[i][3]);
		view_layout(rows, cols, PANE_TRANSCRIPT, &l);
		assert_true(l.status.y + l.status.h <= rows);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_cap),
		cmocka_unit_test(test_layout_kinds),
		cmocka_unit_test(test_scroll_end_and_home),
		cmocka_unit_test(test_scroll_by),
		cmocka_unit_test(test_scroll_hidden),
		cmocka_unit_test(test_follow_sticky),
		cmocka_unit_test(test_resize_keeps_position),
		cmocka_unit_test(test_scroll_to_item),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
