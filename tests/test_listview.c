/* test_listview.c: the session list's screen model over a real folder in
 * /tmp: the rows shown in each order, the selection kept on its session
 * as rows come and move, sorting and filtering with it, moving and
 * scrolling, the clock that runs only while a running row is shown, and
 * the status bar's words. The clock is the test's; nothing sleeps. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* S turns the order around, x hides the sessions that are over (done,
 * incomplete); the selection stays on its session, and the status bar
 * says both. */
static void
test_reverse_hide(void **state)
{
	struct four *t = *state;
	struct fleet *f = t->f;
	struct listview *lv = &t->lv;
	struct buf st = {0};

	listview_move(lv, 1);
	listview_reverse(lv, f, NOW);
	assert_string_equal(shown(lv, f), "14[3]2");
	listview_hide_over(lv, f, NOW);
	assert_string_equal(shown(lv, f), "[3]2");
	listview_status(lv, f, &st);
	assert_string_equal(
		st.p, "attention order, reversed · 2 of 4 sessions · done and incomplete hidden");
	listview_reverse(lv, f, NOW);
	listview_hide_over(lv, f, NOW);
	assert_string_equal(shown(lv, f), "2[3]41");
	buf_reset(&st);
	listview_status(lv, f, &st);
	assert_string_equal(st.p, "attention order · 4 sessions");
	buf_free(&st);
}

/* w and W: the next and the previous session that waits or failed,
 * round the ends; with none shown the selection stays. */
static void
test_attention(void **state)
{
	struct four *t = *state;
	struct fleet *f = t->f;
	struct listview *lv = &t->lv;

	fixture_put(t->dir, "ask.ndjson", INIT("00000005", "/w/ask") USER("may I") ASK(T1), NOW,
		    false);
	fleet_update(f, NOW + 100, 0);
	listview_refresh(lv, f, NOW + 100);
	listview_move(lv, 2);
	assert_string_equal(shown(lv, f), "52[3]41");
	assert_true(listview_attention(lv, f, 1));
	assert_string_equal(shown(lv, f), "[5]2341");
	assert_true(listview_attention(lv, f, 1));
	assert_string_equal(shown(lv, f), "5[2]341");
	assert_true(listview_attention(lv, f, -1));
	assert_true(listview_attention(lv, f, -1));
	assert_string_equal(shown(lv, f), "5[2]341");
	listview_filter_edit(lv, f, NOW, 'n');
	listview_filter_edit(lv, f, NOW, 'e');
	listview_filter_edit(lv, f, NOW, 'w');
	assert_string_equal(shown(lv, f), "[4]");
	assert_false(listview_attention(lv, f, 1));
	assert_string_equal(shown(lv, f), "[4]");
}

/* The mark of a row new since you looked: set, cleared when opened, for
 * rows far past the first too. */
static void
test_fresh(void **state)
{
	struct four *t = *state;
	struct listview *lv = &t->lv;

	assert_false(listview_fresh(lv, 0));
	listview_mark(lv, 2);
	listview_mark(lv, 1000);
	assert_true(listview_fresh(lv, 2));
	assert_true(listview_fresh(lv, 1000));
	assert_false(listview_fresh(lv, 1));
	assert_false(listview_fresh(lv, 5000));
	listview_seen(lv, 2);
	listview_seen(lv, 5000);
	assert_false(listview_fresh(lv, 2));
	assert_true(listview_fresh(lv, 1000));
}

/* An empty list says where it looked (home written ~) and what to try;
 * rows all filtered out or hidden, why none is shown. */
static void
test_empty(void **state)
{
	struct four *t = *state;
	struct listview *lv = &t->lv, none;
	char *home = fixture_tmpdir("listview-home"), kept[512];
	struct fleet *f = fleet_new(0, -1);
	struct buf out = {0}, err = {0};

	snprintf(kept, sizeof kept, "%s/state", home);
	assert_int_equal(mkdir(kept, 0700), 0);
	snprintf(kept, sizeof kept, "%s/state/sessions", home);
	assert_int_equal(mkdir(kept, 0700), 0);
	assert_int_equal(fleet_add_place(f, kept, "the sessions agentview keeps", true, &err), 0);
	fleet_update(f, NOW, 0);
	listview_init(&none);
	listview_refresh(&none, f, NOW);
	listview_empty(&none, f, home, &out);
	assert_string_equal(
		out.p,
		"No sessions yet. agentview looked in:\n"
		"  ~/state/sessions  (the sessions agentview keeps)\n"
		"\n"
		"An agent piped into agentview keeps its session in ~/state/sessions, listed "
		"here as it runs:\n"
		"  claude -p --output-format stream-json --verbose \"fix the tests\" | "
		"agentview\n"
		"\n"
		"Or look at sessions where they are:\n"
		"  agentview FILE   a session's stream (.ndjson, .jsonl, a recording)\n"
		"  agentview DIR    every session file in a folder (-R: and its folders)\n");
	/* Rows, none shown. */
	listview_filter_edit(lv, t->f, NOW, 'Z');
	buf_reset(&out);
	listview_empty(lv, t->f, home, &out);
	assert_string_equal(out.p, "No session matches the filter \"Z\" (Esc empties it).\n");
	listview_filter_edit(lv, t->f, NOW, 0);
	buf_reset(&out);
	listview_empty(lv, t->f, home, &out);
	assert_int_equal(out.n, 0);
	listview_free(&none);
	fleet_free(f);
	fixture_rmtree(home);
	buf_free(&out);
	buf_free(&err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_selection, four_setup, four_teardown),
		cmocka_unit_test_setup_teardown(test_sort, four_setup, four_teardown),
		cmocka_unit_test_setup_teardown(test_filter, four_setup, four_teardown),
		cmocka_unit_test_setup_teardown(test_scroll_ticking, four_setup, four_teardown),
		cmocka_unit_test_setup_teardown(test_reverse_hide, four_setup, four_teardown),
		cmocka_unit_test_setup_teardown(test_attention, four_setup, four_teardown),
		cmocka_unit_test_setup_teardown(test_fresh, four_setup, four_teardown),
		cmocka_unit_test_setup_teardown(test_empty, four_setup, four_teardown),
	};

	setlocale(LC_ALL, "C.UTF-8");
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
