/* test_listview.c: the session list's screen model over a real folder in
 * /tmp: the rows shown in each order, the selection kept on its session
 * as rows come and move, sorting and filtering with it, moving and
 * scrolling, the clock that runs only while a running row is shown, and
 * the status bar's words. The clock is the test's; nothing sleeps. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"
#include "fixture.h"

#include "fleet.h"
#include "fleet_lines.h"
#include "listview.h"

/* What each test looks at: a folder of four sessions (done long ago,
 * failed, running, done lately), a fleet over it looked at once, and a
 * list view of it made once. */
struct four {
	char *dir;
	struct fleet *f;
	struct listview lv;
};

static int
four_setup(void **state)
{
	struct four *t = calloc(1, sizeof *t);
	struct buf err = {0};

	t->dir = fixture_tmpdir("listview");
	fixture_put(t->dir, "old.ndjson",
		    INIT("00000001", "/w/old") USER("old work") RESULT("false", "600000", "r"),
		    NOW - 60 * MIN_MS, false);
	fixture_put(t->dir, "bad.ndjson",
		    INIT("00000002", "/w/bad") USER("deploy it") RESULT("true", "1000", "r"),
		    NOW - 30 * MIN_MS, false);
	fixture_put(t->dir, "run.ndjson",
		    INIT("00000003", "/w/run") USER("run the suite") START("c1", "npm test", T1),
		    NOW - 1000, false);
	fixture_put(t->dir, "new.ndjson",
		    INIT("00000004", "/w/new") USER("café au lait") RESULT("false", "2000", "r"),
		    NOW - 10 * MIN_MS, false);
	t->f = fleet_new(0, -1);
	assert_int_equal(fleet_add(t->f, t->dir, &err), 0);
	fleet_update(t->f, NOW, 0);
	buf_free(&err);
	listview_init(&t->lv);
	listview_refresh(&t->lv, t->f, NOW);
	*state = t;
	return 0;
}

static int
four_teardown(void **state)
{
	struct four *t = *state;

	listview_free(&t->lv);
	fleet_free(t->f);
	fixture_rmtree(t->dir);
	free(t);
	return 0;
}

/* The ids of the rows shown, in order, the selected one in brackets. */
static const char *
shown(const struct listview *lv, const struct fleet *f)
{
	static char out[256];
	size_t n = 0;

	out[0] = '\0';
	for (size_t i = 0; i < lv->n; i++) {
		const char *id = fleet_row(f, lv->v[i])->id + 7;

		n += (size_t)snprintf(out + n, sizeof out - n, i == lv->sel ? "[%s]" : "%s", id);
	}
	return out;
}

/* Attention first; the selection on the first row until one is chosen,
 * then on its session wherever it goes. */
static void
test_selection(void **state)
{
	struct four *t = *state;
	struct fleet *f = t->f;
	struct listview *lv = &t->lv;

	assert_string_equal(shown(lv, f), "[2]341");
	assert_int_equal(listview_selected(lv), lv->v[0]);
	listview_move(lv, 2);
	assert_string_equal(shown(lv, f), "23[4]1");
	/* A new session needing attention comes first: the selection stays
	 * on its session, one place down. */
	fixture_put(t->dir, "late.ndjson",
		    INIT("00000005", "/w/late") USER("late") RESULT("true", "10", "r"), NOW, false);
	fleet_update(f, NOW + 100, 0);
	listview_refresh(lv, f, NOW + 100);
	assert_string_equal(shown(lv, f), "523[4]1");
	/* Moves stop at either end. */
	listview_move(lv, 100);
	assert_string_equal(shown(lv, f), "5234[1]");
	listview_move(lv, -100);
	assert_string_equal(shown(lv, f), "[5]2341");
	listview_move(lv, -1);
	assert_string_equal(shown(lv, f), "[5]2341");
}

/* s cycles attention, newest, longest, cwd, and the selection follows. */
static void
test_sort(void **state)
{
	struct four *t = *state;
	struct fleet *f = t->f;
	struct listview *lv = &t->lv;

	listview_move(lv, 1);
	assert_string_equal(shown(lv, f), "2[3]41");
	listview_sort_next(lv, f, NOW);
	assert_int_equal(lv->sort, FSORT_NEWEST);
	assert_string_equal(fleet_row(f, listview_selected(lv))->id, "00000003");
	listview_sort_next(lv, f, NOW);
	assert_int_equal(lv->sort, FSORT_LONGEST);
	assert_string_equal(fleet_row(f, listview_selected(lv))->id, "00000003");
	listview_sort_next(lv, f, NOW);
	assert_int_equal(lv->sort, FSORT_CWD);
	assert_string_equal(shown(lv, f), "241[3]");
	listview_sort_next(lv, f, NOW);
	assert_int_equal(lv->sort, FSORT_ATTENTION);
	assert_string_equal(shown(lv, f), "2[3]41");
}

/* / filters as it is typed, any case; Backspace takes a whole character
 * back; a session filtered out is selected again when it comes back. */
static void
test_filter(void **state)
{
	struct four *t = *state;
	struct fleet *f = t->f;
	struct listview *lv = &t->lv;
	struct buf st = {0};

	listview_move(lv, 3);
	assert_string_equal(shown(lv, f), "234[1]");
	listview_filter_edit(lv, f, NOW, 'C');
	listview_filter_edit(lv, f, NOW, 'A');
	listview_filter_edit(lv, f, NOW, 'F');
	listview_filter_edit(lv, f, NOW, 0xE9); /* é */
	assert_string_equal(lv->filter, "CAF\xC3\xA9");
	assert_string_equal(shown(lv, f), "[4]");
	listview_status(lv, f, &st);
	assert_string_equal(st.p, "attention order · 1 of 4 sessions · filter \"CAFé\"");
	listview_filter_edit(lv, f, NOW, -1);
	assert_string_equal(lv->filter, "CAF");
	/* Control characters are not typed into it. */
	listview_filter_edit(lv, f, NOW, 0x1B);
	assert_string_equal(lv->filter, "CAF");
	listview_filter_edit(lv, f, NOW, 0);
	assert_string_equal(lv->filter, "");
	assert_string_equal(shown(lv, f), "234[1]");
	/* Nothing matches: nothing selected. */
	listview_filter_edit(lv, f, NOW, 'Z');
	assert_int_equal(lv->n, 0);
	assert_int_equal(listview_selected(lv), LISTVIEW_NONE);
	listview_filter_edit(lv, f, NOW, -1);
	assert_string_equal(shown(lv, f), "234[1]");
	buf_reset(&st);
	listview_status(lv, f, &st);
	assert_string_equal(st.p, "attention order · 4 sessions");
	buf_free(&st);
}

/* The selection stays in view; the clock runs only while a running row
 * is in view. */
static void
test_scroll_ticking(void **state)
{
	struct four *t = *state;
	struct fleet *f = t->f;
	struct listview *lv = &t->lv;

	assert_true(listview_ticking(lv, f, 2));
	listview_move(lv, 3);
	listview_scroll(lv, 2);
	assert_int_equal(lv->top, 2);
	assert_false(listview_ticking(lv, f, 2));
	assert_true(listview_ticking(lv, f, 3) == false);
	listview_move(lv, -2);
	listview_scroll(lv, 2);
	assert_int_equal(lv->top, 1);
	assert_true(listview_ticking(lv, f, 2));
	/* A taller screen shows all: no blank rows under the last. */
	listview_scroll(lv, 10);
	assert_int_equal(lv->top, 0);
	assert_false(listview_ticking(lv, f, 0));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_selection, four_setup, four_teardown),
		cmocka_unit_test_setup_teardown(test_sort, four_setup, four_teardown),
		cmocka_unit_test_setup_teardown(test_filter, four_setup, four_teardown),
		cmocka_unit_test_setup_teardown(test_scroll_ticking, four_setup, four_teardown),
	};

	setlocale(LC_ALL, "C.UTF-8");
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
