/* test_fleet.c: the session list's model over real folders in /tmp: rows
 * of every state, live changes told once, files truncated, replaced,
 * renamed and removed, a folder removed and back, a 5 GB file, a big
 * stream read by its head and tail, a recording's writer, no inotify
 * watch left, the columns at 120, 80 and 40 cells, sorting and filtering.
 * The clock is the test's (NOW, and file times set to match); inotify
 * queues an event before the write that makes it returns, so nothing here
 * sleeps. */
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "agent.h"
#include "fleet.h"
#include "fleet_lines.h"
#include "fleet_print.h"
#include "fleet_take.h"
#include "json.h"
#include "model.h"
#include "remote.h"
#include "statusline.h"

/* What the change hook was told, one "row:was>now" a line. */
static struct buf told;

static void
on_change(void *ctx, struct fleet *f, uint32_t row, enum fleet_state was)
{
	(void)ctx;
	buf_addf(&told, "%u:%s>%s\n", row, was == FS_NSTATES ? "new" : fleet_state_name(was),
		 fleet_state_name((enum fleet_state)fleet_row(f, row)->state));
}

/* What was told since the last look, and forget it. */
static const char *
heard(void)
{
	static char last[4096];

	snprintf(last, sizeof last, "%s", told.p ? told.p : "");
	buf_reset(&told);
	return last;
}

/* Set dir/name's times to ms. */
static void
stamp(const char *dir, const char *name, int64_t ms)
{
	struct buf p = {0};
	struct timespec ts[2];

	buf_addf(&p, "%s/%s", dir, name);
	ts[0].tv_sec = ts[1].tv_sec = (time_t)(ms / 1000);
	ts[0].tv_nsec = ts[1].tv_nsec = (long)(ms % 1000) * 1000000;
	assert_int_equal(utimensat(AT_FDCWD, p.p, ts, 0), 0);
	buf_free(&p);
}

#define scratch() fixture_tmpdir("fleet")
#define rm_tree fixture_rmtree
#define put fixture_put

/* The rows in order, laid out in width cells, one a line, spaces at the
 * end trimmed. */
static const char *
list(struct fleet *f, enum fleet_sort sort, const char *filter, int width, int64_t now)
{
	static struct buf out;
	struct fleet_colw cols[FC_NCOLS];
	uint32_t v[64];
	struct buf line = {0};
	size_t n = fleet_rows(f, sort, filter, now, v, 64);
	int nc = fleet_columns(width, cols);

	buf_reset(&out);
	buf_adds(&out, "");
	for (size_t i = 0; i < n; i++) {
		buf_reset(&line);
		fleet_line(f, v[i], cols, nc, now, &line);
		while (line.n > 0 && line.p[line.n - 1] == ' ')
			line.n--;
		buf_add(&out, line.p, line.n);
		buf_addc(&out, '\n');
	}
	buf_free(&line);
	return out.p;
}

/* A fleet of dir, looked at once at now. */
static struct fleet *
fleet_of(const char *dir, unsigned flags, int64_t now)
{
	struct fleet *f = fleet_new(flags, -1);
	struct buf err = {0};

	assert_int_equal(fleet_add(f, dir, &err), 0);
	buf_reset(&told);
	fleet_on_change(f, on_change, NULL);
	fleet_update(f, now, 0);
	assert_false(fleet_loading(f));
	buf_free(&err);
	return f;
}

/* The usual folder: one session in each state, and files that are not. */
static void
usual(const char *d)
{
	put(d, "done.ndjson",
	    INIT("d0000001", "/w/alpha") USER("fix the tests") START("c1", "npm test", T1)
		    DONE("c1", "npm test", "success", T2)
			    RESULT("false", "245000", "the tests pass"),
	    NOW - 30 * MIN_MS, false);
	put(d, "failed.ndjson",
	    INIT("f0000001", "/w/beta") USER("deploy it") START("c1", "make deploy", T1)
		    DONE("c1", "make deploy", "failure", T2)
			    RESULT("true", "61000", "make: *** [deploy] Error 2"),
	    NOW - 20 * MIN_MS, false);
	put(d, "cut.ndjson", INIT("c0000001", "/w/gamma") USER("refactor") START("c1", "make", T1),
	    NOW - 40 * MIN_MS, false);
	put(d, "live.ndjson",
	    INIT("l0000001", "/w/delta") USER("run the e2e suite") START("c1", "npm run e2e", T1),
	    NOW - 5000, false);
	put(d, "wait.ndjson", INIT("w0000001", "/w/eps") USER("fetch the docs") ASK(T1), NOW - 1000,
	    false);
	put(d, "two.ndjson",
	    INIT("a0000001", "/w/zeta") USER("first run") RESULT("false", "1000", "one")
		    INIT("a0000002", "/w/zeta") USER("second run") RESULT("false", "2000", "two"),
	    NOW - 50 * MIN_MS, false);
	put(d, "notes.txt", "not listed\n", NOW, false);
	put(d, "junk.ndjson", "hello, not json\n", NOW - 60 * MIN_MS, false);
	put(d, "empty.ndjson", "", NOW - 70 * MIN_MS, false);
}

/* The first look: a row per session, attention first, nothing told. */
static void
test_first_look(void **state)
{
	char *d = scratch();
	struct fleet *f;
	struct fleet_stats st;

	(void)state;
	usual(d);
	f = fleet_of(d, 0, NOW);
	assert_string_equal(
		list(f, FSORT_ATTENTION, NULL, 120, NOW),
		"⏸ waiting    cursor  w0000001 eps            fetch the docs     asks for a decision        9m00s\n"
		"✗ failed     cursor  f0000001 beta           deploy it          make: *** [deploy] Erro…   1m01s ✗1\n"
		"● running    cursor  l0000001 delta          run the e2e suite  Shell `npm run e2e` 9m0…   9m00s …1\n"
		"✓ done       cursor  d0000001 alpha          fix the tests      ok                         4m05s ✓1\n"
		"◌ incomplete cursor  c0000001 gamma          refactor           no result                   0 ms ✗1\n"
		"✓ done       cursor  a0000002 zeta           second run         ok                         2.0 s\n"
		"✓ done       cursor  a0000001 zeta           first run          ok                         1.0 s\n"
		"· file                                       junk.ndjson        not a stream\n"
		"· file                                       empty.ndjson       no session yet\n");
	assert_string_equal(heard(), "");
	fleet_stats(f, &st);
	assert_int_equal(st.files, 8);
	assert_int_equal(st.by_state[FS_RUNNING], 1);
	assert_int_equal(st.by_state[FS_WAITING], 1);
	assert_int_equal(st.by_state[FS_DONE], 3);
	assert_int_equal(st.polled, 0);
	fleet_free(f);
	rm_tree(d);
}

/* The row of file name's session index. */
static uint32_t
row_of(const struct fleet *f, const char *name, uint32_t index)
{
	for (uint32_t r = 0; r < fleet_nrows(f); r++)
		if (strcmp(fleet_name(f, r), name) == 0 && fleet_row(f, r)->index == index)
			return r;
	fail_msg("no row %u of %s", index, name);
	return 0;
}

/* "row:was>now" of file name's session index. */
static const char *
change(const struct fleet *f, const char *name, uint32_t index, const char *was, const char *now)
{
	static char s[128];

	snprintf(s, sizeof s, "%u:%s>%s\n", row_of(f, name, index), was, now);
	return s;
}

/* Live changes: each told once, as it happens; a quiet file ends. */
static void
test_live(void **state)
{
	char *d = scratch();
	struct fleet *f;
	uint32_t live;

	(void)state;
	usual(d);
	f = fleet_of(d, 0, NOW);
	live = row_of(f, "live.ndjson", 0);
	assert_int_equal(fleet_update(f, NOW + 100, 0), 0);
	assert_string_equal(heard(), "");
	/* Its call ends: still running, its calls counted. */
	put(d, "live.ndjson", DONE("c1", "npm run e2e", "success", T2), NOW + 1000, true);
	assert_int_equal(fleet_update(f, NOW + 1000, 0), FLEET_ROWS);
	assert_string_equal(heard(), "");
	assert_int_equal(fleet_row(f, live)->ok, 1);
	assert_int_equal(fleet_row(f, live)->running, 0);
	put(d, "live.ndjson", RESULT("false", "600000", "green"), NOW + 1500, true);
	assert_int_equal(fleet_update(f, NOW + 2000, 0), FLEET_ROWS | FLEET_STATES);
	assert_string_equal(heard(), change(f, "live.ndjson", 0, "running", "done"));
	assert_int_equal(fleet_row(f, live)->tokens_in, 32000);
	/* The decision answered. */
	put(d, "wait.ndjson", ANSWER(T2), NOW + 3000, true);
	fleet_update(f, NOW + 3000, 0);
	assert_string_equal(heard(), change(f, "wait.ndjson", 0, "waiting", "running"));
	/* A new file: a new row, told; then it asks, then it fails. */
	put(d, "new.ndjson", INIT("n0000001", "/w/eta") USER("new work"), NOW + 4000, false);
	fleet_update(f, NOW + 4000, 0);
	assert_string_equal(heard(), change(f, "new.ndjson", 0, "new", "running"));
	put(d, "new.ndjson", ASK(T2), NOW + 5000, true);
	fleet_update(f, NOW + 5000, 0);
	assert_string_equal(heard(), change(f, "new.ndjson", 0, "running", "waiting"));
	put(d, "new.ndjson", RESULT("true", "9000", "gave up"), NOW + 6000, true);
	fleet_update(f, NOW + 6000, 0);
	assert_string_equal(heard(), change(f, "new.ndjson", 0, "waiting", "failed"));
	/* Another session in a file already listed: a row more. */
	put(d, "done.ndjson", INIT("d0000002", "/w/alpha") USER("and again"), NOW + 7000, true);
	fleet_update(f, NOW + 7000, 0);
	assert_string_equal(heard(), change(f, "done.ndjson", 1, "new", "running"));
	assert_int_equal(fleet_row(f, row_of(f, "done.ndjson", 1))->offset,
			 strlen(INIT("d0000001", "/w/alpha") USER("fix the tests") START(
				 "c1", "npm test", T1) DONE("c1", "npm test", "success", T2)
					RESULT("false", "245000", "the tests pass")));
	/* Quiet files: the clock ticks while rows run; two minutes after
	 * their last write, nobody writes them. */
	assert_int_equal(fleet_timeout(f, NOW + 7000, false), 116000);
	assert_int_equal(fleet_timeout(f, NOW + 7250, true), 750);
	fleet_update(f, NOW + 123000, 0);
	assert_string_equal(heard(), change(f, "wait.ndjson", 0, "running", "incomplete"));
	fleet_update(f, NOW + 127000, 0);
	assert_string_equal(heard(), change(f, "done.ndjson", 1, "running", "incomplete"));
	assert_int_equal(fleet_timeout(f, NOW + 127000, true), -1);
	fleet_free(f);
	rm_tree(d);
}

/* A file whose time alone changes (a remote's mirror sets it after its
 * bytes): its row is told changed, so that the list sorts it again by
 * that time, and it goes first by attention. */
static void
test_time_only(void **state)
{
	char *d = scratch();
	struct fleet *f;
	uint32_t v[4];

	(void)state;
	put(d, "a.ndjson", INIT("a0000001", "/w/a") USER("older") RESULT("false", "1000", "a"),
	    NOW - 20 * MIN_MS, false);
	put(d, "b.ndjson", INIT("b0000001", "/w/b") USER("newer") RESULT("false", "1000", "b"),
	    NOW - 10 * MIN_MS, false);
	f = fleet_of(d, 0, NOW);
	assert_int_equal(fleet_rows(f, FSORT_ATTENTION, NULL, NOW, v, 4), 2);
	assert_int_equal(v[0], row_of(f, "b.ndjson", 0));
	stamp(d, "a.ndjson", NOW - MIN_MS);
	assert_int_equal(fleet_update(f, NOW + 1000, 0), FLEET_ROWS);
	assert_string_equal(heard(), "");
	assert_int_equal(fleet_rows(f, FSORT_ATTENTION, NULL, NOW + 1000, v, 4), 2);
	assert_int_equal(v[0], row_of(f, "a.ndjson", 0));
	fleet_free(f);
	rm_tree(d);
}

/* Files truncated, replaced, removed; the folder removed and back:
 * nothing listed is lost, each said on its row. */
static void
test_faults(void **state)
{
	char *d = scratch();
	struct fleet *f;
	struct fleet_stats st;
	struct buf a = {0}, b = {0};
	size_t rows;

	(void)state;
	usual(d);
	f = fleet_of(d, 0, NOW);
	rows = fleet_nrows(f);
	put(d, "two.ndjson", INIT("b0000001", "/w/zeta") USER("again"), NOW - 10 * MIN_MS, false);
	fleet_update(f, NOW, 0);
	assert_int_equal(fleet_nrows(f), rows);
	assert_string_equal(
		list(f, FSORT_ATTENTION, "zeta", 120, NOW),
		"✓ done       cursor  a0000002 zeta           second run         ok (no longer in its fi…   2.0 s\n"
		"◌ incomplete cursor  b0000001 zeta           again              no result (file read ag…       -\n");
	heard();
	/* Replaced: another file renamed over it. */
	put(d, "done.new", INIT("e0000001", "/w/alpha") USER("replaced"), NOW, false);
	buf_addf(&a, "%s/done.new", d);
	buf_addf(&b, "%s/done.ndjson", d);
	assert_int_equal(rename(a.p, b.p), 0);
	fleet_update(f, NOW + 1000, 0);
	assert_string_equal(heard(), change(f, "done.ndjson", 0, "done", "running"));
	assert_string_equal(fleet_row(f, row_of(f, "done.ndjson", 0))->prompt, "replaced");
	assert_true(fleet_row(f, row_of(f, "done.ndjson", 0))->flags & FR_REREAD);
	/* Removed while running. */
	assert_int_equal(unlink(b.p), 0);
	fleet_update(f, NOW + 2000, 0);
	assert_string_equal(heard(), change(f, "done.ndjson", 0, "running", "incomplete"));
	assert_string_equal(
		list(f, FSORT_ATTENTION, "replaced", 80, NOW),
		"◌ incomplete cursor  alpha          replaced       no result (file remo…       -\n");
	/* The folder removed: every row stays; looked for until it is back. */
	buf_reset(&a);
	buf_addf(&a, "rm -rf '%s'", d);
	assert_int_equal(system(a.p), 0);
	fleet_update(f, NOW + 3000, 0);
	buf_reset(&b);
	buf_adds(&b, change(f, "wait.ndjson", 0, "waiting", "incomplete"));
	buf_adds(&b, change(f, "live.ndjson", 0, "running", "incomplete"));
	assert_string_equal(heard(), b.p);
	assert_int_equal(fleet_nrows(f), rows);
	fleet_stats(f, &st);
	assert_int_equal(st.gone, 1);
	assert_int_equal(st.by_state[FS_RUNNING] + st.by_state[FS_WAITING], 0);
	assert_int_equal(fleet_timeout(f, NOW + 3000, false), 1000);
	assert_int_equal(mkdir(d, 0700), 0);
	put(d, "back.ndjson", INIT("b0000002", "/w/theta") USER("back"), NOW + 3500, false);
	fleet_update(f, NOW + 3500, 0);
	assert_string_equal(heard(), "");
	fleet_update(f, NOW + 4000, 0);
	assert_string_equal(heard(), change(f, "back.ndjson", 0, "new", "running"));
	fleet_stats(f, &st);
	assert_int_equal(st.gone, 0);
	assert_int_equal(fleet_timeout(f, NOW + 4000, false), 119500);
	fleet_free(f);
	buf_free(&a);
	buf_free(&b);
	rm_tree(d);
}

/* A recording renamed after its session (link, then unlink, as record.c
 * does) or moved: the row follows, and says nothing changed. */
static void
test_rename(void **state)
{
	char *d = scratch();
	struct fleet *f;
	struct buf a = {0}, b = {0}, c = {0};
	uint32_t r;

	(void)state;
	put(d, "20261123-000000-p42.ndjson", INIT("r0000001", "/w/iota") USER("rename me"),
	    NOW - 1000, false);
	f = fleet_of(d, 0, NOW);
	r = row_of(f, "20261123-000000-p42.ndjson", 0);
	buf_addf(&a, "%s/20261123-000000-p42.ndjson", d);
	buf_addf(&b, "%s/20261123-000000-r0000001.ndjson", d);
	buf_addf(&c, "%s/moved.ndjson", d);
	assert_int_equal(link(a.p, b.p), 0);
	assert_int_equal(unlink(a.p), 0);
	fleet_update(f, NOW, 0);
	assert_string_equal(fleet_name(f, r), "20261123-000000-r0000001.ndjson");
	assert_int_equal(fleet_nrows(f), 1);
	assert_int_equal(fleet_row(f, r)->state, FS_RUNNING);
	assert_false(fleet_row(f, r)->flags & FR_GONE);
	assert_int_equal(rename(b.p, c.p), 0);
	fleet_update(f, NOW, 0);
	assert_string_equal(fleet_name(f, r), "moved.ndjson");
	assert_int_equal(fleet_nrows(f), 1);
	assert_int_equal(fleet_row(f, r)->state, FS_RUNNING);
	assert_string_equal(heard(), "");
	fleet_free(f);
	buf_free(&a);
	buf_free(&b);
	buf_free(&c);
	rm_tree(d);
}

/* Big files: read by their head and tail only. A sparse 5 GB file of
 * zeros is not a stream; one that starts as a stream is listed by its
 * head; a stream with a long middle has its start and its end. */
static void
test_big(void **state)
{
	char *d = scratch();
	struct fleet *f;
	struct buf path = {0}, mid = {0};
	int fd;

	(void)state;
	buf_addf(&path, "%s/zeros.ndjson", d);
	fd = open(path.p, O_WRONLY | O_CREAT, 0644);
	assert_int_equal(ftruncate(fd, 5LL << 30), 0);
	close(fd);
	stamp(d, "zeros.ndjson", NOW - 3 * MIN_MS);
	put(d, "holey.ndjson", INIT("h0000001", "/w/kappa") USER("sparse after"), NOW - 2 * MIN_MS,
	    false);
	buf_reset(&path);
	buf_addf(&path, "%s/holey.ndjson", d);
	assert_int_equal(truncate(path.p, 5LL << 30), 0);
	stamp(d, "holey.ndjson", NOW - 2 * MIN_MS);
	for (int i = 0; i < 4000; i++)
		buf_adds(&mid, DELTA(T1));
	put(d, "long.ndjson",
	    INIT("g0000001", "/w/lambda") USER("a long one") START("c0", "npm ci", T0),
	    NOW - MIN_MS, false);
	put(d, "long.ndjson", mid.p, NOW - MIN_MS, true);
	put(d, "long.ndjson",
	    START("c1", "npm test", T1) DONE("c1", "npm test", "failure", T2)
		    RESULT("false", "300000", "done"),
	    NOW - MIN_MS, true);
	f = fleet_of(d, 0, NOW);
	assert_string_equal(
		list(f, FSORT_ATTENTION, NULL, 120, NOW),
		"✓ done       cursor  g0000001 lambda         a long one         ok (middle not read)       5m00s ✗1\n"
		"◌ incomplete cursor  h0000001 kappa          sparse after       no result                      -\n"
		"· file                                       zeros.ndjson       not a stream\n");
	assert_true(fleet_row(f, row_of(f, "long.ndjson", 0))->flags & FR_GAP);
	assert_int_equal(fleet_row(f, row_of(f, "long.ndjson", 0))->tokens_out, 664);
	fleet_free(f);
	buf_free(&path);
	buf_free(&mid);
	rm_tree(d);
}

/* The paths the rest of whose head was asked for (fleet_on_head), one a
 * line. */
static struct buf heads_asked;

static bool
ask_head(const char *path)
{
	buf_addf(&heads_asked, "%s\n", path);
	return true;
}

/* A big session whose first prompt is past the REMOTE_HEAD bytes of its
 * head (a long first line), its id id, into b. */
static void
late_prompt(struct buf *b, const char *id)
{
	buf_reset(b);
	buf_addf(b,
		 "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"%s\","
		 "\"cwd\":\"/w/mu\",\"pad\":\"",
		 id);
	for (int i = 0; i < 20000; i++)
		buf_addc(b, 'x');
	buf_adds(b, "\"}\n" USER("a late prompt"));
	for (int i = 0; i < 4000; i++)
		buf_adds(b, DELTA(T1));
	buf_adds(b, RESULT("false", "1000", "done"));
}

/* A remote mirror's big file whose head is asked for (fleet_on_head):
 * the file that holds it in its place (its bytes the same, another
 * inode) is the same file, not one read again; but a file the remote
 * replaced meanwhile (another head, as long) is one read again, whose
 * head is asked for again. */
static void
test_head_wait(void **state)
{
	char *d = scratch();
	struct fleet *f;
	struct buf text = {0}, from = {0}, to = {0};
	struct stat st;
	ino_t ino;

	(void)state;
	buf_addf(&from, "%s/next.part", d);
	buf_addf(&to, "%s/big.ndjson", d);
	late_prompt(&text, "h0000001");
	put(d, "big.ndjson", text.p, NOW - MIN_MS, false);
	buf_reset(&heads_asked);
	f = fleet_new(0, -1);
	fleet_on_head(f, ask_head);
	assert_int_equal(fleet_add(f, d, &from), 0);
	fleet_update(f, NOW, 0);
	assert_int_equal(heads_asked.n, to.n + 1);
	assert_memory_equal(heads_asked.p, to.p, to.n);
	/* Its head come: a copy of it in its place. */
	put(d, "next.part", text.p, NOW - MIN_MS, false);
	assert_int_equal(stat(to.p, &st), 0);
	ino = st.st_ino;
	assert_int_equal(rename(from.p, to.p), 0);
	assert_int_equal(stat(to.p, &st), 0);
	assert_true(st.st_ino != ino);
	fleet_update(f, NOW, 0);
	assert_false(fleet_row(f, row_of(f, "big.ndjson", 0))->flags & FR_REREAD);
	assert_int_equal(heads_asked.n, to.n + 1);
	fleet_free(f);
	/* Replaced by the remote while its head is awaited: read again. */
	buf_reset(&heads_asked);
	f = fleet_new(0, -1);
	fleet_on_head(f, ask_head);
	assert_int_equal(fleet_add(f, d, &from), 0);
	fleet_update(f, NOW, 0);
	assert_int_equal(heads_asked.n, to.n + 1);
	late_prompt(&text, "h0000002");
	put(d, "next.part", text.p, NOW - MIN_MS, false);
	assert_int_equal(rename(from.p, to.p), 0);
	fleet_update(f, NOW, 0);
	assert_true(fleet_row(f, row_of(f, "big.ndjson", 0))->flags & FR_REREAD);
	assert_int_equal(heads_asked.n, 2 * (to.n + 1));
	fleet_free(f);
	buf_free(&heads_asked);
	buf_free(&text);
	buf_free(&from);
	buf_free(&to);
	rm_tree(d);
}

/* The middles a first look went without, read after it (FLEET_GAPS): the
 * newest file first, at most a slice an update, each file's rows changed
 * at once when its middle is read, to what a file read whole gives them
 * (the calls, a session wholly in the middle), their row numbers kept,
 * nothing told. */
static void
test_gaps(void **state)
{
	char *d = scratch();
	struct fleet *f;
	struct buf mid = {0}, one = {0};
	const char *before, *after;
	uint32_t o1, o3, n1;

	(void)state;
	for (int i = 0; i < 24000; i++)
		buf_adds(&mid, DELTA(T1));
	put(d, "old.ndjson",
	    INIT("o0000001", "/w/nu") USER("the older one") RESULT("false", "1000", "one"),
	    NOW - 10 * MIN_MS, false);
	put(d, "old.ndjson", INIT("o0000002", "/w/nu") USER("in the middle"), NOW - 10 * MIN_MS,
	    true);
	put(d, "old.ndjson", mid.p, NOW - 10 * MIN_MS, true);
	put(d, "old.ndjson",
	    RESULT("false", "2000", "two") INIT("o0000003", "/w/nu") USER("the last one")
		    RESULT("false", "3000", "three"),
	    NOW - 10 * MIN_MS, true);
	put(d, "new.ndjson", INIT("n0000001", "/w/mu") USER("a big one") START("c0", "npm ci", T0),
	    NOW - MIN_MS, false);
	buf_reset(&mid);
	buf_adds(&mid, DONE("c0", "npm ci", "success", T1));
	for (int i = 0; i < 36000; i++) {
		buf_adds(&mid, DELTA(T1));
		if (i % 3600 == 0)
			buf_addf(
				&mid,
				"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"m%d\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"ls\"}}},\"timestamp_ms\":" T1
				"}\n"
				"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"m%d\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"ls\"},\"result\":{\"success\":{\"exitCode\":0}}}},\"timestamp_ms\":" T1
				"}\n",
				i, i);
	}
	put(d, "new.ndjson", mid.p, NOW - MIN_MS, true);
	put(d, "new.ndjson",
	    START("c1", "npm test", T1) DONE("c1", "npm test", "failure", T2)
		    RESULT("false", "300000", "done"),
	    NOW - MIN_MS, true);
	f = fleet_of(d, FLEET_GAPS, NOW);
	before =
		"✓ done       cursor  n0000001 mu             a big one          ok (middle not read)       5m00s ✗1\n"
		"✓ done       cursor  o0000003 nu             the last one       ok (middle not read)       3.0 s\n"
		"✓ done       cursor  o0000001 nu             the older one      ok (middle not read)       2.0 s\n";
	assert_string_equal(list(f, FSORT_ATTENTION, NULL, 120, NOW), before);
	assert_true(fleet_gaps_left(f));
	n1 = row_of(f, "new.ndjson", 0);
	o1 = row_of(f, "old.ndjson", 0);
	o3 = row_of(f, "old.ndjson", 1);
	/* A slice of the newest file's middle: no row changes yet. */
	fleet_update(f, NOW, 0);
	assert_string_equal(list(f, FSORT_ATTENTION, NULL, 120, NOW), before);
	/* The rest of it: its row is exact. */
	fleet_update(f, NOW, 0);
	buf_adds(
		&one,
		"✓ done       cursor  n0000001 mu             a big one          ok                         5m00s ✓11 ✗1\n"
		"✓ done       cursor  o0000003 nu             the last one       ok (middle not read)       3.0 s\n"
		"✓ done       cursor  o0000001 nu             the older one      ok (middle not read)       2.0 s\n");
	assert_string_equal(list(f, FSORT_ATTENTION, NULL, 120, NOW), one.p);
	assert_false(fleet_row(f, n1)->flags & FR_GAP);
	assert_true(fleet_gaps_left(f));
	/* Then the older one's: the session in its middle comes as a row of
	 * its own, the others keep theirs. */
	fleet_update(f, NOW, 0);
	after = "✓ done       cursor  n0000001 mu             a big one          ok                         5m00s ✓11 ✗1\n"
		"✓ done       cursor  o0000002 nu             in the middle      ok                         2.0 s\n"
		"✓ done       cursor  o0000003 nu             the last one       ok                         3.0 s\n"
		"✓ done       cursor  o0000001 nu             the older one      ok                         1.0 s\n";
	assert_string_equal(list(f, FSORT_ATTENTION, NULL, 120, NOW), after);
	assert_false(fleet_gaps_left(f));
	assert_int_equal(fleet_nrows(f), 4);
	assert_int_equal(row_of(f, "old.ndjson", 0), o1);
	assert_int_equal(row_of(f, "old.ndjson", 2), o3);
	assert_int_equal(row_of(f, "new.ndjson", 0), n1);
	assert_string_equal(heard(), "");
	assert_int_equal(fleet_timeout(f, NOW, false), -1);
	/* What the file gains later is read as before. */
	put(d, "old.ndjson", INIT("o0000004", "/w/nu") USER("one more"), NOW, true);
	fleet_update(f, NOW, 0);
	assert_int_equal(row_of(f, "old.ndjson", 3), 4);
	assert_false(fleet_gaps_left(f));
	fleet_free(f);
	buf_free(&mid);
	buf_free(&one);
	rm_tree(d);
}

/* A file that grows while its middle is read: what it gains is read as
 * before, and the middle's rows, once read, hold it too. */
static void
test_gaps_grow(void **state)
{
	char *d = scratch();
	struct fleet *f;
	struct buf mid = {0};

	(void)state;
	for (int i = 0; i < 36000; i++)
		buf_adds(&mid, DELTA(T1));
	put(d, "g.ndjson", INIT("g0000001", "/w/xi") USER("it grows") START("c0", "npm ci", T0),
	    NOW - MIN_MS, false);
	put(d, "g.ndjson", mid.p, NOW - MIN_MS, true);
	put(d, "g.ndjson", DONE("c0", "npm ci", "success", T1), NOW - MIN_MS, true);
	f = fleet_of(d, FLEET_GAPS, NOW);
	fleet_update(f, NOW, 0); /* a slice of its middle */
	assert_true(fleet_row(f, 0)->flags & FR_GAP);
	put(d, "g.ndjson",
	    START("c1", "npm test", T1) DONE("c1", "npm test", "failure", T2)
		    RESULT("false", "300000", "done"),
	    NOW - 1000, true);
	for (int i = 0; i < 3 && fleet_gaps_left(f); i++)
		fleet_update(f, NOW, 0);
	assert_false(fleet_gaps_left(f));
	assert_string_equal(
		list(f, FSORT_ATTENTION, NULL, 120, NOW),
		"✓ done       cursor  g0000001 xi             it grows           ok                         5m00s ✓1 ✗1\n");
	assert_string_equal(heard(), "0:running>done\n");
	fleet_free(f);
	buf_free(&mid);
	rm_tree(d);
}

#define REC_HEAD \
	"{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1,\"kept\":true,\"agentview_ms\":1795391400000,\"source\":\"stdin\"}\n"

/* A recording is running while its writer holds it, however quiet, and
 * not once the writer is gone. */
static void
test_writer(void **state)
{
	char *d = scratch();
	struct fleet *f;
	struct buf path = {0};
	int fd;

	(void)state;
	put(d, "rec.ndjson", REC_HEAD INIT("k0000001", "/w/mu") USER("kept"), NOW - 60 * MIN_MS,
	    false);
	put(d, "old.ndjson", REC_HEAD INIT("k0000002", "/w/mu") USER("kept before"), NOW - 1000,
	    false);
	buf_addf(&path, "%s/rec.ndjson", d);
	fd = open(path.p, O_WRONLY | O_APPEND);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	f = fleet_of(d, 0, NOW);
	assert_int_equal(fleet_row(f, row_of(f, "rec.ndjson", 0))->state, FS_RUNNING);
	assert_int_equal(fleet_row(f, row_of(f, "old.ndjson", 0))->state, FS_INCOMPLETE);
	assert_string_equal(
		list(f, FSORT_ATTENTION, "k0000001", 120, NOW),
		"● running    cursor  k0000001 mu             kept                                              -             1h00m\n");
	/* No timeout: the writer's end is an event. */
	assert_int_equal(fleet_timeout(f, NOW, false), -1);
	close(fd);
	fleet_update(f, NOW + 1000, 0);
	assert_string_equal(heard(), change(f, "rec.ndjson", 0, "running", "incomplete"));
	fleet_free(f);
	buf_free(&path);
	rm_tree(d);
}

/* Times for test_waiting: three hours before NOW, 36 days before it, and
 * five minutes after that. */
#define H3 "1795381200000"
#define D36 "1792281600000"
#define D36_5 "1792281900000"

/* A decision asked for and never answered stays waiting however long its
 * file is quiet: first in attention order, its quiet time said, never told
 * again nor woken for. A recording whose writer is gone cannot be answered
 * any more: incomplete. A file written just now whose events are weeks old
 * (a copy) is not running; long times read in days. */
static void
test_waiting(void **state)
{
	char *d = scratch();
	struct fleet *f;

	(void)state;
	put(d, "asks.ndjson", INIT("w0000002", "/w/ask") USER("may I fetch it") ASK(H3),
	    NOW - 180 * MIN_MS, false);
	put(d, "run.ndjson",
	    INIT("r0000002", "/w/run") USER("build it") START("c1", "make", "1795391990000"),
	    NOW - 1000, false);
	put(d, "done.ndjson",
	    INIT("d0000002", "/w/done") USER("all done") RESULT("false", "1000", "ok"),
	    NOW - MIN_MS, false);
	put(d, "copy.ndjson",
	    INIT("c0000002", "/w/copy") USER("copied weeks later") START("c1", "make", D36)
		    DONE("c1", "make", "success", D36_5),
	    NOW - 1000, false);
	put(d, "copyask.ndjson", INIT("a0000003", "/w/copy") USER("asked weeks ago") ASK(D36),
	    NOW - 1000, false);
	put(d, "rec.ndjson", REC_HEAD INIT("k0000003", "/w/rec") USER("asked, then gone") ASK(T1),
	    NOW - 1000, false);
	f = fleet_of(d, 0, NOW);
	assert_string_equal(
		list(f, FSORT_ATTENTION, NULL, 120, NOW),
		"⏸ waiting    cursor  a0000003 copy           asked weeks ago    asks for a decision       36d00h\n"
		"⏸ waiting    cursor  w0000002 ask            may I fetch it     asks for a decision        3h00m             3h00m\n"
		"● running    cursor  r0000002 run            build it           Shell `make` 10.0 s       10.0 s …1\n"
		"◌ incomplete cursor  c0000002 copy           copied weeks later no result                  5m00s ✓1\n"
		"◌ incomplete cursor  k0000003 rec            asked, then gone   no result                  1m00s\n"
		"✓ done       cursor  d0000002 done           all done           ok                         1.0 s\n");
	/* (The kept one lasted from its header's opening to its question.)
	 * Only the running file's quiet end wakes the list. */
	assert_int_equal(fleet_timeout(f, NOW, false), 119000);
	fleet_update(f, NOW + 200000, 0);
	assert_string_equal(heard(), change(f, "run.ndjson", 0, "running", "incomplete"));
	assert_int_equal(fleet_row(f, row_of(f, "asks.ndjson", 0))->state, FS_WAITING);
	assert_int_equal(fleet_timeout(f, NOW + 200000, false), -1);
	/* A day later: still waiting, still first. */
	fleet_update(f, NOW + 1440 * MIN_MS, 0);
	assert_string_equal(heard(), "");
	assert_string_equal(
		list(f, FSORT_ATTENTION, "waiting", 120, NOW + 1440 * MIN_MS),
		"⏸ waiting    cursor  a0000003 copy           asked weeks ago    asks for a decision       37d00h             1d00h\n"
		"⏸ waiting    cursor  w0000002 ask            may I fetch it     asks for a decision        1d03h             1d03h\n");
	fleet_free(f);
	rm_tree(d);
}

/* No inotify watch left: the folder is polled every second, and said. */
static void
test_polled(void **state)
{
	struct buf f_want = {0};
	char *d = scratch();
	struct fleet *f;
	struct fleet_stats st;

	(void)state;
	usual(d);
	setenv("AGENTVIEW_WATCH_MAX", "0", 1);
	f = fleet_of(d, 0, NOW);
	unsetenv("AGENTVIEW_WATCH_MAX");
	fleet_stats(f, &st);
	assert_int_equal(st.polled, 1);
	assert_int_equal(fleet_timeout(f, NOW, false), 1000);
	put(d, "new.ndjson", INIT("p0000001", "/w/nu") USER("seen a second later"), NOW, false);
	put(d, "live.ndjson", RESULT("false", "1", "ok"), NOW, true);
	fleet_update(f, NOW + 999, 0);
	assert_string_equal(heard(), "");
	fleet_update(f, NOW + 1000, 0);
	buf_reset(&f_want);
	buf_adds(&f_want, change(f, "new.ndjson", 0, "new", "running"));
	buf_adds(&f_want, change(f, "live.ndjson", 0, "running", "done"));
	assert_string_equal(heard(), f_want.p);
	assert_int_equal(fleet_timeout(f, NOW + 1000, false), 1000);
	buf_free(&f_want);
	fleet_free(f);
	rm_tree(d);
}

/* Claude Code's lines in the tail of a big file are read as Claude's,
 * though its start is far away: the running call is found. */
static void
test_claude_tail(void **state)
{
	char *d = scratch();
	struct fleet *f;
	size_t n;
	char *rec = fixture_slurp("recordings/claude-shell-ok.ndjson", &n);
	char *l15, *l16, *l2;
	struct buf head = {0}, mid = {0};

	(void)state;
	/* Lines 1 (init) and 15 (the tool_use), 16 on (its result, the end). */
	l2 = strchr(rec, '\n') + 1;
	l15 = rec;
	for (int i = 0; i < 14; i++)
		l15 = strchr(l15, '\n') + 1;
	l16 = strchr(l15, '\n') + 1;
	buf_add(&head, rec, (size_t)(l2 - rec));
	for (int i = 0; i < 2000; i++)
		buf_add(&mid, l2, (size_t)(strchr(l2, '\n') + 1 - l2));
	buf_add(&mid, l15, (size_t)(l16 - l15));
	put(d, "claude.ndjson", head.p, NOW - 1000, false);
	put(d, "claude.ndjson", mid.p, NOW - 1000, true);
	f = fleet_of(d, 0, NOW);
	assert_string_equal(
		list(f, FSORT_ATTENTION, NULL, 100, NOW),
		"● running    claude  work           (claude.ndjson)     Shell `echo hello`             - …1\n");
	put(d, "claude.ndjson", l16, NOW, true);
	fleet_update(f, NOW, 0);
	assert_string_equal(heard(), "0:running>done\n");
	assert_string_equal(
		list(f, FSORT_ATTENTION, NULL, 200, NOW),
		"✓ done       claude  claude-opus-5… 64af87fb work                                            ok (middle not read)              448 ms ✓1               210/41 $0.0017             claude.ndjson\n");
	fleet_free(f);
	free(rec);
	buf_free(&head);
	buf_free(&mid);
	rm_tree(d);
}

/* A Claude Code run of two turns (a background agent's end starts the
 * second): its row says the tokens of both. */
static void
test_claude_turns(void **state)
{
	char *d = scratch();
	struct fleet *f;
	size_t n;
	char *rec = fixture_slurp("recordings/claude-subagent-bg.ndjson", &n);

	(void)state;
	put(d, "claude.ndjson", rec, NOW - 1000, false);
	f = fleet_of(d, 0, NOW);
	assert_int_equal(fleet_nrows(f), 1);
	assert_int_equal(fleet_row(f, 0)->tokens_in, 330);
	assert_int_equal(fleet_row(f, 0)->tokens_out, 63);
	fleet_free(f);
	free(rec);
	rm_tree(d);
}

/* A Claude Code store session read in two pieces (its file grew between
 * two looks): its tokens are both pieces' (its lines' own, each message
 * once), not the last piece's alone. */
static void
test_store_tokens(void **state)
{
	char *d = scratch();
	struct fleet *f;
	size_t n;
	char *rec = fixture_slurp("tests/stores/claude/tmux/done/projects/"
				  "-tmp-agentview-agents-r05jDS-claude-store-tmux-work/"
				  "027c60fc-2863-4f1f-ab15-dc957491b48d.jsonl",
				  &n);
	struct buf one = {0}, two = {0};
	char *p = rec;

	(void)state;
	/* Lines 1-15 and 21-27 (a message's two lines), then 29 on (the
	 * second message): its bookkeeping and a long tool result left
	 * out, each piece read whole. */
	for (int i = 1; i <= 39; i++) {
		char *nl = strchr(p, '\n');

		if (i <= 15 || (i >= 21 && i <= 27))
			buf_add(&one, p, (size_t)(nl + 1 - p));
		else if (i >= 29)
			buf_add(&two, p, (size_t)(nl + 1 - p));
		p = nl + 1;
	}
	put(d, "s.jsonl", one.p, NOW - 1000, false);
	f = fleet_of(d, 0, NOW);
	assert_int_equal(fleet_row(f, 0)->tokens_in, 100);
	assert_int_equal(fleet_row(f, 0)->tokens_out, 20);
	put(d, "s.jsonl", two.p, NOW, true);
	fleet_update(f, NOW, 0);
	assert_false(fleet_row(f, 0)->flags & FR_GAP);
	assert_int_equal(fleet_row(f, 0)->tokens_in, 210);
	assert_int_equal(fleet_row(f, 0)->tokens_out, 41);
	fleet_free(f);
	free(rec);
	buf_free(&one);
	buf_free(&two);
	rm_tree(d);
}

#define ROLLOUT \
	"tests/stores/codex/headless/done/sessions/2026/11/27/" \
	"rollout-2026-11-27T09-34-16-01a21c5b-04a2-7b62-883f-9c911c27d596.jsonl"

/* Lines from..to (from 1) of text into out. */
static void
lines_of(const char *text, int from, int to, struct buf *out)
{
	const char *p = text;

	for (int i = 1; i <= to && *p != '\0'; i++) {
		const char *nl = strchr(p, '\n');

		if (i >= from)
			buf_add(out, p, (size_t)(nl + 1 - p));
		p = nl + 1;
	}
}

/* A Codex rollout's row says its tokens: the cumulative total of the last
 * token_count its file holds (the one --print --format json and ccusage
 * count, 210/41), read in one piece or two; a second session in the same
 * piece keeps its own (none); a big file's middle holds them, and the
 * row has them once the middle is read. */
static void
test_rollout_tokens(void **state)
{
	char *d = scratch();
	struct fleet *f;
	size_t n;
	char *rec = fixture_slurp(ROLLOUT, &n);
	struct buf one = {0}, two = {0}, mid = {0};

	(void)state;
	put(d, "whole.jsonl", rec, NOW - 1000, false);
	f = fleet_of(d, 0, NOW);
	assert_int_equal(fleet_row(f, 0)->tokens_in, 210);
	assert_int_equal(fleet_row(f, 0)->tokens_out, 41);
	fleet_free(f);
	rm_tree(d);

	/* Lines 1-16 (the first token_count, 100/20), then the rest. */
	d = scratch();
	lines_of(rec, 1, 16, &one);
	lines_of(rec, 17, 21, &two);
	put(d, "grows.jsonl", one.p, NOW - 1000, false);
	f = fleet_of(d, 0, NOW);
	assert_int_equal(fleet_row(f, 0)->tokens_in, 100);
	assert_int_equal(fleet_row(f, 0)->tokens_out, 20);
	put(d, "grows.jsonl", two.p, NOW, true);
	fleet_update(f, NOW, 0);
	assert_int_equal(fleet_row(f, 0)->tokens_in, 210);
	assert_int_equal(fleet_row(f, 0)->tokens_out, 41);
	fleet_free(f);
	rm_tree(d);

	/* What it gains is a token_count alone: read all the same. */
	d = scratch();
	buf_reset(&two);
	lines_of(rec, 20, 20, &two);
	put(d, "grows.jsonl", one.p, NOW - 1000, false);
	f = fleet_of(d, 0, NOW);
	put(d, "grows.jsonl", two.p, NOW, true);
	fleet_update(f, NOW, 0);
	assert_int_equal(fleet_nrows(f), 1);
	assert_int_equal(fleet_row(f, 0)->tokens_in, 210);
	assert_int_equal(fleet_row(f, 0)->tokens_out, 41);
	fleet_free(f);
	rm_tree(d);

	/* Two sessions in one piece: the first's tokens stay its own. */
	d = scratch();
	buf_reset(&two);
	lines_of(rec, 1, 15, &two);
	put(d, "two.jsonl", one.p, NOW - 1000, false);
	put(d, "two.jsonl", two.p, NOW - 1000, true);
	f = fleet_of(d, 0, NOW);
	assert_int_equal(fleet_nrows(f), 2);
	assert_int_equal(fleet_row(f, row_of(f, "two.jsonl", 0))->tokens_in, 100);
	assert_int_equal(fleet_row(f, row_of(f, "two.jsonl", 0))->tokens_out, 20);
	assert_int_equal(fleet_row(f, row_of(f, "two.jsonl", 1))->tokens_in, -1);
	fleet_free(f);
	rm_tree(d);

	/* A big file whose token_count is in its middle only. */
	d = scratch();
	buf_reset(&one);
	lines_of(rec, 1, 15, &one);
	buf_reset(&two);
	lines_of(rec, 7, 7, &two); /* bookkeeping, 600 KiB of it around */
	while (mid.n < (600u << 10))
		buf_add(&mid, two.p, two.n);
	lines_of(rec, 16, 16, &mid);
	for (int i = 0; i < 200; i++)
		buf_add(&mid, two.p, two.n);
	lines_of(rec, 17, 19, &mid);
	lines_of(rec, 21, 21, &mid);
	put(d, "big.jsonl", one.p, NOW - 1000, false);
	put(d, "big.jsonl", mid.p, NOW - 1000, true);
	f = fleet_of(d, FLEET_GAPS, NOW);
	assert_true(fleet_row(f, 0)->flags & FR_GAP);
	assert_int_equal(fleet_row(f, 0)->tokens_in, -1);
	for (int i = 0; i < 8 && fleet_gaps_left(f); i++)
		fleet_update(f, NOW, 0);
	assert_false(fleet_gaps_left(f));
	assert_false(fleet_row(f, 0)->flags & FR_GAP);
	assert_int_equal(fleet_row(f, 0)->tokens_in, 100);
	assert_int_equal(fleet_row(f, 0)->tokens_out, 20);
	fleet_free(f);
	rm_tree(d);
	free(rec);
	buf_free(&one);
	buf_free(&two);
	buf_free(&mid);
}

/* The parses made so far in this process. */
static uint64_t
parses_now(void)
{
	struct json *j = json_new();
	uint64_t n;

	assert_int_equal(json_parse(j, "{}", 2), JSON_OK);
	n = json_parse_id(j);
	json_free(j);
	return n;
}

/* --format json of the rollouts in d, and how many parses it made
 * (one process). */
static const char *
json_parses(const char *d, uint64_t *n)
{
	struct fleet *f = fleet_of(d, 0, NOW);
	uint64_t before = parses_now();
	const char *out;

	setenv("AGENTVIEW_ONE_THREAD", "1", 1);
	out = fixture_written(fleet_list_json, f, NOW);
	*n = parses_now() - before - 1;
	fleet_free(f);
	return out;
}

#define USAGE(in, out) \
	"\"usage\":{\"input_tokens\":" in ",\"cache_read_input_tokens\":0," \
	"\"cache_creation_input_tokens\":0,\"output_tokens\":" out "}"

/* Line i (from 1) of text into out as a recording keeps it, with the
 * time it came at, ms. */
static void
recorded_line(const char *text, int i, int64_t ms, struct buf *out)
{
	struct buf ln = {0};

	lines_of(text, i, i, &ln);
	assert_true(ln.n > 2 && ln.p[ln.n - 2] == '}');
	buf_add(out, ln.p, ln.n - 2);
	buf_addf(out, ",\"agentview_ms\":%lld}\n", (long long)ms);
	buf_free(&ln);
}

/* The JSON summary of a rollout says the tokens of its newest token_count
 * that says them, and parses no other: fifty more before it cost no
 * parse; a newest without them leaves the one before; each session of a
 * file its own; a last one cut short is said to be no JSON; a recording's
 * are read in their turn, for the time each came at. */
static void
test_json_totals(void **state)
{
	char *d = scratch();
	size_t n;
	char *rec = fixture_slurp(ROLLOUT, &n);
	struct buf one = {0}, two = {0};
	uint64_t plain, more;
	const char *out;
	static const int parsed[] = {1, 2, 9, 10, 12, 14, 15, 16, 17};

	(void)state;
	put(d, "a.jsonl", rec, NOW - 1000, false);
	out = json_parses(d, &plain);
	assert_non_null(strstr(out, USAGE("210", "41")));
	lines_of(rec, 1, 16, &one);
	for (int i = 0; i < 50; i++)
		lines_of(rec, 16, 16, &one);
	lines_of(rec, 17, 21, &one);
	put(d, "a.jsonl", one.p, NOW - 1000, false);
	out = json_parses(d, &more);
	assert_non_null(strstr(out, USAGE("210", "41")));
	assert_int_equal(more, plain);
	/* Seven thousand (4.9 MB): the file is parsed ahead on a second
	 * thread, which passes them over too (it parsed each: 14 023). A
	 * line parsed ahead counts twice, parsed there and taken here. */
	buf_reset(&one);
	lines_of(rec, 1, 16, &one);
	for (int i = 0; i < 7000; i++)
		lines_of(rec, 16, 16, &one);
	lines_of(rec, 17, 21, &one);
	assert_true(one.n > ((size_t)4 << 20));
	put(d, "a.jsonl", one.p, NOW - 1000, false);
	out = json_parses(d, &more);
	assert_non_null(strstr(out, USAGE("210", "41")));
	assert_true(more < 2 * plain);
	rm_tree(d);

	/* The newest says none (Codex's first of a turn may not). */
	d = scratch();
	buf_reset(&one);
	lines_of(rec, 1, 20, &one);
	lines_of(rec, 20, 20, &two);
	{
		char *info = strstr(two.p, "\"info\":{");

		assert_non_null(info);
		buf_add(&one, two.p, (size_t)(info - two.p));
		buf_adds(&one, "\"info\":null}}\n");
	}
	lines_of(rec, 21, 21, &one);
	put(d, "b.jsonl", one.p, NOW - 1000, false);
	out = json_parses(d, &more);
	assert_non_null(strstr(out, USAGE("210", "41")));
	rm_tree(d);

	/* Two sessions: the first's tokens stay its own, the second has none. */
	d = scratch();
	buf_reset(&one);
	lines_of(rec, 1, 16, &one);
	lines_of(rec, 1, 15, &one);
	put(d, "c.jsonl", one.p, NOW - 1000, false);
	out = json_parses(d, &more);
	assert_non_null(strstr(out, USAGE("100", "20")));
	assert_non_null(strstr(out, "\"usage\":null"));
	rm_tree(d);

	/* The last line cut short: no JSON, said so; the one before counts. */
	d = scratch();
	buf_reset(&one);
	lines_of(rec, 1, 19, &one);
	buf_reset(&two);
	lines_of(rec, 20, 20, &two);
	buf_add(&one, two.p, 120);
	put(d, "d.jsonl", one.p, NOW - 1000, false);
	out = json_parses(d, &more);
	assert_non_null(strstr(out, USAGE("100", "20")));
	assert_non_null(strstr(out, "\"line\":20"));
	rm_tree(d);

	/* A recording cut short (the lines the model parses), its last
	 * line 5 minutes after its first. */
	d = scratch();
	buf_reset(&one);
	for (size_t i = 0; i < ARRAY_LEN(parsed); i++)
		recorded_line(rec, parsed[i], NOW - 40 * MIN_MS + (int64_t)i * 1000, &one);
	recorded_line(rec, 20, NOW - 35 * MIN_MS, &one);
	put(d, "e.jsonl", one.p, NOW - 30 * MIN_MS, false);
	out = json_parses(d, &more);
	assert_non_null(strstr(out, USAGE("210", "41")));
	assert_non_null(strstr(out, "\"duration_ms\":300000"));
	rm_tree(d);
	free(rec);
	buf_free(&one);
	buf_free(&two);
}

#define SUBAGENTS \
	"tests/stores/claude/subagents/done/projects/" \
	"-tmp-agentview-agents-r05jDS-claude-store-subagents-work/" \
	"3ed0aa9c-f0ca-4757-92a0-fb81b88fcea2"

/* Dir gets the sub-agents' files of the real session (two, 210/41 each)
 * in s/subagents/, and s.jsonl: its lines 1 to last (all: 0). */
static void
put_subagents(const char *d, int last, int64_t ms)
{
	static const char *const names[] = {
		"agent-a6da82c6c00f8fce0.jsonl", "agent-a6da82c6c00f8fce0.meta.json",
		"agent-aeb14c2d9f1a8973b.jsonl", "agent-aeb14c2d9f1a8973b.meta.json"};
	struct buf p = {0}, lines = {0};
	size_t n;
	char *text = fixture_slurp(SUBAGENTS ".jsonl", &n);

	lines_of(text, 1, last > 0 ? last : 1000, &lines);
	put(d, "s.jsonl", lines.p, ms, false);
	free(text);
	buf_addf(&p, "%s/s", d);
	assert_int_equal(mkdir(p.p, 0700), 0);
	buf_adds(&p, "/subagents");
	assert_int_equal(mkdir(p.p, 0700), 0);
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		struct buf from = {0};

		buf_addf(&from, SUBAGENTS "/subagents/%s", names[i]);
		text = fixture_slurp(from.p, &n);
		put(p.p, names[i], text, ms, false);
		free(text);
		buf_free(&from);
	}
	buf_free(&p);
	buf_free(&lines);
}

/* A message of a sub-agent's, its usage 7/3, written twice (its lines
 * repeat a message's). */
#define SUB_MESSAGE \
	"{\"parentUuid\":\"x\",\"isSidechain\":true,\"message\":{\"id\":\"msg_more\"," \
	"\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-opus-5-5\"," \
	"\"content\":[{\"type\":\"text\",\"text\":\"more\"}],\"usage\":{\"input_tokens\":7," \
	"\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"output_tokens\":3}}," \
	"\"type\":\"assistant\",\"uuid\":\"u-more\",\"timestamp\":\"2026-11-27T09:33:25.000Z\"," \
	"\"sessionId\":\"3ed0aa9c-f0ca-4757-92a0-fb81b88fcea2\"}\n"

/* A Claude Code session's row counts its sub-agents' tokens too, which
 * their own files hold (as --format json and ccusage do: 1020/192, its
 * own file 600/110), read after the first look; each message once; read
 * again when they change, while the session runs even if its own file
 * does not; gone with them. */
static void
test_subagent_tokens(void **state)
{
	char *d = scratch(), *d2 = scratch();
	struct fleet *f;
	struct buf cell = {0}, sub = {0};
	int64_t in, out;

	(void)state;
	put_subagents(d, 0, NOW - 30 * MIN_MS);
	f = fleet_of(d, FLEET_GAPS, NOW);
	/* The first look goes without them (and the file's middle: it is
	 * 164 KiB); they are read after it. */
	fleet_row_tokens(f, 0, &in, &out);
	assert_int_equal(in, fleet_row(f, 0)->tokens_in);
	assert_true(fleet_gaps_left(f));
	while (fleet_gaps_left(f))
		fleet_update(f, NOW, 0);
	assert_int_equal(fleet_row(f, 0)->tokens_in, 600);
	fleet_row_tokens(f, 0, &in, &out);
	assert_int_equal(in, 1020);
	assert_int_equal(out, 192);
	fleet_cell(f, 0, FC_TOKENS, NOW, &cell);
	assert_string_equal(cell.p, "1.0k/192");
	fleet_free(f);

	/* Running (its first Agent call open, written a second ago). */
	put_subagents(d2, 22, NOW - 1000);
	f = fleet_of(d2, 0, NOW);
	assert_int_equal(fleet_row(f, 0)->state, FS_RUNNING);
	fleet_row_tokens(f, 0, &in, &out);
	assert_int_equal(in, 100 + 420);
	assert_int_equal(out, 20 + 82);
	buf_addf(&sub, "%s/s/subagents", d2);
	put(sub.p, "agent-a6da82c6c00f8fce0.jsonl", SUB_MESSAGE SUB_MESSAGE, NOW - 500, true);
	fleet_update(f, NOW + 1500, 0);
	assert_int_equal(fleet_row(f, 0)->state, FS_RUNNING);
	fleet_row_tokens(f, 0, &in, &out);
	assert_int_equal(in, 100 + 420 + 7);
	assert_int_equal(out, 20 + 82 + 3);
	/* Gone with the files. */
	buf_addc(&sub, '/');
	buf_adds(&sub, "agent-a6da82c6c00f8fce0.jsonl");
	assert_int_equal(unlink(sub.p), 0);
	sub.n -= strlen("agent-a6da82c6c00f8fce0.jsonl");
	buf_adds(&sub, "agent-aeb14c2d9f1a8973b.jsonl");
	assert_int_equal(unlink(sub.p), 0);
	fleet_update(f, NOW + 3000, 0);
	fleet_row_tokens(f, 0, &in, &out);
	assert_int_equal(in, 100);
	assert_int_equal(out, 20);
	fleet_free(f);
	buf_free(&cell);
	buf_free(&sub);
	rm_tree(d);
	rm_tree(d2);
}

/* A running session's sub-agents' files, when one changes, are not all
 * read again: one whose name, inode, size and time are as they were
 * keeps the tokens read from it (each second, a session of many large
 * sub-agents read them all whole, for one that grew). Seen through a
 * file whose bytes were blanked behind its size and time: its tokens
 * stay those read before. */
static void
test_subagent_unchanged(void **state)
{
	char *d = scratch();
	struct fleet *f;
	struct buf sub = {0}, path = {0};
	struct stat st;
	struct timespec ts[2];
	int64_t in, out;
	char *blank;
	int fd;

	(void)state;
	put_subagents(d, 22, NOW - 1000);
	f = fleet_of(d, 0, NOW);
	fleet_row_tokens(f, 0, &in, &out);
	assert_int_equal(in, 100 + 420);
	assert_int_equal(out, 20 + 82);
	buf_addf(&sub, "%s/s/subagents", d);
	buf_addf(&path, "%s/agent-aeb14c2d9f1a8973b.jsonl", sub.p);
	assert_int_equal(stat(path.p, &st), 0);
	blank = xmalloc((size_t)st.st_size);
	memset(blank, ' ', (size_t)st.st_size);
	fd = open(path.p, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, blank, (size_t)st.st_size), st.st_size);
	assert_int_equal(close(fd), 0);
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	assert_int_equal(utimensat(AT_FDCWD, path.p, ts, 0), 0);
	put(sub.p, "agent-a6da82c6c00f8fce0.jsonl", SUB_MESSAGE, NOW - 500, true);
	fleet_update(f, NOW + 1500, 0);
	fleet_row_tokens(f, 0, &in, &out);
	assert_int_equal(in, 100 + 420 + 7);
	assert_int_equal(out, 20 + 82 + 3);
	free(blank);
	fleet_free(f);
	buf_free(&sub);
	buf_free(&path);
	rm_tree(d);
}

/* Only a file's own agent looks for its sub-agents: a Codex rollout with
 * a folder of Claude Code's sub-agents beside it (as a Claude session's
 * are, s/subagents/) counts none of their tokens, and its JSON summary
 * holds its one session (it held the sub-agents' two as well). */
static void
test_subagents_own_agent(void **state)
{
	char *d = scratch();
	struct fleet *f;
	int64_t in, out;
	size_t n, sessions = 0;
	const char *json;
	char *text = fixture_slurp(
		"tests/stores/codex/headless/done/sessions/2026/11/27/"
		"rollout-2026-11-27T09-34-16-01a21c5b-04a2-7b62-883f-9c911c27d596.jsonl",
		&n);

	(void)state;
	put_subagents(d, 22, NOW - 1000);
	put(d, "s.jsonl", text, NOW - 1000, false);
	f = fleet_of(d, 0, NOW);
	assert_int_equal(fleet_nrows(f), 1);
	assert_int_equal(fleet_row(f, 0)->agent, AGENT_CODEX_ROLLOUT);
	while (fleet_gaps_left(f))
		fleet_update(f, NOW, 0);
	fleet_update(f, NOW + 1500, 0);
	fleet_row_tokens(f, 0, &in, &out);
	assert_int_equal(in, fleet_row(f, 0)->tokens_in);
	assert_int_equal(out, fleet_row(f, 0)->tokens_out);
	json = fixture_written(fleet_list_json, f, NOW);
	for (const char *p = json; (p = strstr(p, "\"session_id\":")) != NULL; p++)
		sessions++;
	assert_int_equal(sessions, 1);
	free(text);
	fleet_free(f);
	rm_tree(d);
}

/* --format rows (what agentview HOST: reads from an agentview there)
 * names only files the remote's sh program lists, their names free of
 * control bytes: a name with a tab made the reader refuse every row (the
 * sh path alone then), a recording named run.log stayed a row the sh
 * path never lists. */
static void
test_rows_names(void **state)
{
	char *d = scratch();
	struct fleet *f;
	struct remote_rows p = {0};
	const char *out;

	(void)state;
	put(d, "ok.ndjson", INIT("a0000001", "/w/a") USER("plain") RESULT("false", "1000", "ok"),
	    NOW - 60000, false);
	put(d, "tab\tname.ndjson",
	    INIT("b0000001", "/w/b") USER("tabbed") RESULT("false", "1000", "ok"), NOW - 60000,
	    false);
	put(d, "run.log",
	    "{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1}\n" INIT(
		    "c0000001", "/w/c") USER("recorded") RESULT("false", "1000", "ok"),
	    NOW - 60000, false);
	f = fleet_of(d, 0, NOW);
	assert_int_equal(fleet_nrows(f), 3);
	out = fixture_written(fleet_list_rows, f, NOW);
	assert_true(remote_rows_parse(out, strlen(out), &p));
	assert_int_equal(p.n, 1);
	assert_string_equal(p.names.p + p.v[0].name, "ok.ndjson");
	remote_rows_free(&p);
	fleet_free(f);
	rm_tree(d);
}

/* No tokens wanted (--format json, which reads each file whole itself):
 * the same rows in the same states, its sub-agents' files not read for
 * their tokens (the whole list's row counts them: 1020/192). */
static void
test_no_tokens(void **state)
{
	char *d = scratch();
	struct fleet *f, *all;
	int64_t in, out;

	(void)state;
	put_subagents(d, 22, NOW - 1000);
	f = fleet_of(d, FLEET_NO_TOKENS, NOW);
	all = fleet_of(d, 0, NOW);
	assert_int_equal(fleet_nrows(f), 1);
	assert_int_equal(fleet_nrows(all), 1);
	assert_int_equal(fleet_row(f, 0)->state, FS_RUNNING);
	assert_int_equal(fleet_row(all, 0)->state, FS_RUNNING);
	assert_true(fleet_file_open(f, 0) && fleet_file_open(all, 0));
	fleet_row_tokens(all, 0, &in, &out);
	assert_int_equal(in, 100 + 420);
	fleet_row_tokens(f, 0, &in, &out);
	assert_int_equal(in, fleet_row(f, 0)->tokens_in);
	assert_int_equal(out, fleet_row(f, 0)->tokens_out);
	fleet_free(f);
	fleet_free(all);
	rm_tree(d);
}

/* A session's time is the same in the list as where its file is read
 * whole (the viewer, --print): for every session of recordings/, looked at
 * long after its file was written, the TIME cell is its duration, or its
 * span when it has none. */
static void
test_times_agree(void **state)
{
	struct fleet *f = fleet_new(0, -1);
	struct buf err = {0}, cell = {0}, want = {0};
	struct stat st;
	int64_t now;
	size_t checked = 0;

	(void)state;
	assert_int_equal(stat("recordings/demo.ndjson", &st), 0);
	now = (int64_t)st.st_mtime * 1000 + 10 * 1440 * MIN_MS;
	assert_int_equal(fleet_add(f, "recordings", &err), 0);
	fleet_update(f, now, 0);
	for (uint32_t r = 0; r < fleet_nrows(f); r++) {
		const struct fleet_row *row = fleet_row(f, r);
		struct fixture *fx;
		int64_t d;

		if (row->state == FS_FILE || row->state == FS_WAITING || (row->flags & FR_GAP))
			continue;
		fx = fixture_file(fleet_path(f, r), 0);
		assert_true(row->index < fx->m->nses);
		d = model_session_duration(fx->m, row->index);
		buf_reset(&want);
		if (d == TIME_NONE)
			buf_adds(&want, "-");
		else
			fmt_duration(&want, d);
		buf_reset(&cell);
		fleet_cell(f, r, FC_TIME, now, &cell);
		if (strcmp(cell.p, want.p) != 0)
			fail_msg("%s #%u: the list says %s, the file %s", fleet_name(f, r),
				 row->index, cell.p, want.p);
		fixture_free(fx);
		checked++;
	}
	assert_true(checked > 100);
	if (err.n > 0)
		fail_msg("%s", err.p);
	fleet_free(f);
	buf_free(&err);
	buf_free(&cell);
	buf_free(&want);
}

/* One count of the sessions by state, that every view says (issue 25):
 * the rows, the list's summary line, --status-line, --print's last line,
 * and the JSON summary's states and sessions. */
static void
test_counts(void **state)
{
	static const char *const json_names[FS_NSTATES] = {
		[FS_WAITING] = "waiting",       [FS_FAILED] = "failed", [FS_RUNNING] = "live",
		[FS_INCOMPLETE] = "incomplete", [FS_DONE] = "ok",
	};
	char *d = scratch();
	struct fleet *f;
	struct fleet_stats st;
	struct buf b = {0};
	size_t rows[FS_NSTATES] = {0}, said[FS_NSTATES] = {0};
	struct json *j = json_new();
	const char *text, *last;
	int t, ses;

	(void)state;
	usual(d);
	f = fleet_of(d, 0, NOW);
	for (uint32_t r = 0; r < fleet_nrows(f); r++)
		rows[fleet_row(f, r)->state]++;
	fleet_stats(f, &st);
	for (int s = 0; s < FS_NSTATES; s++)
		assert_int_equal(st.by_state[s], rows[s]);
	fleet_summary(f, false, &b);
	assert_string_equal(
		b.p,
		"● 1 running · ⏸ 1 waiting · ✗ 1 failed · ◌ 1 incomplete · ✓ 3 done");
	buf_reset(&b);
	fleet_status_line(f, 0, &b);
	assert_string_equal(
		b.p,
		"● 1 running · ⏸ 1 waiting · ✗ 1 failed · ◌ 1 incomplete · ✓ 3 done");
	buf_reset(&b);
	fleet_status_line(f, SL_TMUX, &b);
	assert_string_equal(
		b.p, "#[fg=yellow]● 1 running#[default] · #[fg=cyan]⏸ 1 waiting#[default] · "
		     "#[fg=red]✗ 1 failed#[default] · #[fg=magenta]◌ 1 incomplete#[default] · "
		     "#[fg=green]✓ 3 done#[default]");
	text = fixture_written(fleet_list_text, f, NOW);
	last = strrchr(text, '\n');
	while (last > text && last[-1] != '\n')
		last--;
	assert_string_equal(
		last,
		"● 1 running · ⏸ 1 waiting · ✗ 1 failed · ◌ 1 incomplete · ✓ 3 done\n");
	/* The JSON: its states, and its sessions' own. */
	text = fixture_written(fleet_list_json, f, NOW);
	assert_int_equal(json_parse(j, text, strlen(text)), JSON_OK);
	for (int s = 0; s < FS_NSTATES; s++) {
		int64_t v = -1;

		if (json_names[s] == NULL)
			continue;
		buf_reset(&b);
		buf_addf(&b, "states.%s", json_names[s]);
		assert_true(json_int_at(j, 0, b.p, &v));
		assert_int_equal(v, rows[s]);
	}
	ses = json_get(j, 0, "sessions");
	assert_true(ses >= 0);
	t = ses + 1;
	for (int i = 0; i < json_size(j, ses); i++, t = json_next(j, t)) {
		int k = json_get(j, t, "state");

		for (int s = 0; s < FS_NSTATES; s++)
			if (json_names[s] != NULL && json_streq(j, k, json_names[s]))
				said[s]++;
	}
	for (int s = 0; s < FS_NSTATES; s++)
		assert_int_equal(said[s], json_names[s] != NULL ? rows[s] : 0);
	json_free(j);
	buf_free(&b);
	fleet_free(f);
	rm_tree(d);
}

/* The JSON summary begun before the list is made, its helpers reading the
 * files while it is and guessing the list's word on each, is the one
 * made after it by one process, byte for byte: a session still running
 * and one waiting (guessed over: read again), a file of two, one that is
 * no stream, an empty one, and a file that came after the helpers began. */
static void
test_json_early(void **state)
{
	char *d = scratch();
	struct fleet *f = fleet_new(FLEET_NO_TOKENS, -1);
	struct fleet_json *fj;
	struct buf err = {0};
	char *early;
	size_t n, files;
	FILE *fp;

	(void)state;
	usual(d);
	unsetenv("AGENTVIEW_ONE_THREAD");
	assert_int_equal(fleet_add(f, d, &err), 0);
	files = fleet_nfiles(f);
	fp = open_memstream(&early, &n);
	assert_non_null(fp);
	fj = fleet_json_begin(f, -1, NOW, fp);
	put(d, "late.ndjson",
	    INIT("e0000001", "/w/eta") USER("came late") RESULT("false", "3000", "late"),
	    NOW - 2000, false);
	fleet_update(f, NOW, 0);
	assert_int_equal(fleet_nfiles(f), files + 1);
	fleet_json_end(fj, f, -1, NOW, fp);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(strstr(early, "\"state\":\"live\""));
	assert_non_null(strstr(early, "\"state\":\"waiting\""));
	assert_non_null(strstr(early, "came late"));
	setenv("AGENTVIEW_ONE_THREAD", "1", 1);
	assert_string_equal(early, fixture_written(fleet_list_json, f, NOW));
	unsetenv("AGENTVIEW_ONE_THREAD");
	free(early);
	buf_free(&err);
	fleet_free(f);
	rm_tree(d);
}

/* Y, o and e of the list take a session from its file, where its row
 * says it starts: the second of two, and neither the first's lines nor
 * its facts; a session whose id or folder is not plain gives none. */
static void
test_take(void **state)
{
	char *d = scratch();
	struct fleet *f;
	struct buf out = {0}, why = {0};
	const struct fleet_row *r;

	(void)state;
	usual(d);
	put(d, "odd.ndjson",
	    "{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"-\",\"session_id\":\"--help\"}\n" USER(
		    "odd one"),
	    NOW - MIN_MS, false);
	f = fleet_of(d, 0, NOW);
	r = fleet_row(f, row_of(f, "two.ndjson", 1));
	assert_true(fleet_session_resume(fleet_path(f, row_of(f, "two.ndjson", 1)), r->offset, -1,
					 &out, &why));
	assert_string_equal(out.p, "cd -- /w/zeta && cursor-agent --resume a0000002");
	buf_reset(&out);
	assert_true(fleet_session_cwd(fleet_path(f, row_of(f, "two.ndjson", 1)), r->offset, -1,
				      &out, &why));
	assert_string_equal(out.p, "/w/zeta");
	buf_reset(&out);
	assert_true(fleet_session_text(fleet_path(f, row_of(f, "two.ndjson", 1)), r->offset, -1,
				       false, &out, &why));
	assert_non_null(strstr(out.p, "second run"));
	assert_non_null(strstr(out.p, "a0000002"));
	assert_null(strstr(out.p, "first run"));
	assert_null(strstr(out.p, "a0000001"));
	/* Not plain: no command, no folder. */
	r = fleet_row(f, row_of(f, "odd.ndjson", 0));
	buf_reset(&out);
	assert_false(fleet_session_resume(fleet_path(f, row_of(f, "odd.ndjson", 0)), r->offset, -1,
					  &out, &why));
	assert_string_equal(why.p, "no resume command: the session id is not plain");
	assert_int_equal(out.n, 0);
	buf_reset(&why);
	assert_false(fleet_session_cwd(fleet_path(f, row_of(f, "odd.ndjson", 0)), r->offset, -1,
				       &out, &why));
	assert_string_equal(why.p, "the session's folder is not an absolute path: not opened");
	/* A file cut short since: said. */
	buf_reset(&why);
	assert_false(fleet_session_resume(fleet_path(f, row_of(f, "two.ndjson", 1)), 1u << 30, -1,
					  &out, &why));
	assert_string_equal(why.p, "the session is no longer in its file");
	buf_free(&out);
	buf_free(&why);
	fleet_free(f);
	rm_tree(d);
}

/* Columns dropped by priority as the width shrinks. */
static void
test_columns(void **state)
{
	struct buf h = {0};
	struct fleet_colw cols[FC_NCOLS];
	static const int widths[] = {200, 120, 80, 40, 20};
	static const char *const want[] = {
		"STATE        AGENT   MODEL          ID       CWD            PROMPT                           NOW                                 TIME CALLS            TOKENS    COST QUIET       FILE                  ",
		"STATE        AGENT   ID       CWD            PROMPT             NOW                         TIME CALLS       QUIET      ",
		"STATE        AGENT   CWD            PROMPT         NOW                      TIME",
		"STATE        PROMPT                 TIME",
		"STATE        …    TIME",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(widths); i++) {
		int n = fleet_columns(widths[i], cols);

		buf_reset(&h);
		fleet_header(cols, n, &h);
		assert_string_equal(h.p, want[i]);
		/* Where it is shown, every agent's name fits whole. */
		for (int c = 0; c < n; c++)
			if (cols[c].col == FC_AGENT)
				assert_int_equal(cols[c].width, strlen("copilot"));
	}
	buf_free(&h);
}

/* The orders, and the filter. */
static void
test_sort_filter(void **state)
{
	char *d = scratch();
	struct fleet *f;

	(void)state;
	usual(d);
	f = fleet_of(d, 0, NOW);
	assert_string_equal(list(f, FSORT_LONGEST, NULL, 40, NOW),
			    "⏸ waiting    fetch the docs        9m00s\n"
			    "● running    run the e2e suite     9m00s\n"
			    "✓ done       fix the tests         4m05s\n"
			    "✗ failed     deploy it             1m01s\n"
			    "✓ done       second run            2.0 s\n"
			    "✓ done       first run             1.0 s\n"
			    "◌ incomplete refactor               0 ms\n"
			    "· file       junk.ndjson\n"
			    "· file       empty.ndjson\n");
	assert_string_equal(list(f, FSORT_CWD, NULL, 60, NOW),
			    "✓ done       fix the tests    ok                       4m05s\n"
			    "✗ failed     deploy it        make: *** [deploy] Er…   1m01s\n"
			    "● running    run the e2e sui… Shell `npm run e2e` 9…   9m00s\n"
			    "⏸ waiting    fetch the docs   asks for a decision      9m00s\n"
			    "◌ incomplete refactor         no result                 0 ms\n"
			    "✓ done       second run       ok                       2.0 s\n"
			    "✓ done       first run        ok                       1.0 s\n"
			    "· file       junk.ndjson      not a stream\n"
			    "· file       empty.ndjson     no session yet\n");
	assert_string_equal(list(f, FSORT_NEWEST, "zeta", 40, NOW),
			    "✓ done       second run            2.0 s\n"
			    "✓ done       first run             1.0 s\n");
	assert_string_equal(list(f, FSORT_ATTENTION, "npm", 40, NOW),
			    "● running    run the e2e suite     9m00s\n");
	assert_string_equal(list(f, FSORT_ATTENTION, "NOT A STREAM", 40, NOW),
			    "· file       junk.ndjson\n");
	assert_string_equal(list(f, FSORT_ATTENTION, "nothing like it", 40, NOW), "");
	fleet_free(f);
	rm_tree(d);
}

/* A running call's path is shown relative to the session's cwd, as the
 * transcript shows it; a cwd too long to keep shows its last part. */
static void
test_paths(void **state)
{
	char *d = scratch();
	struct fleet *f;
	char longdir[200];

	(void)state;
	memset(longdir, 'x', sizeof longdir);
	memcpy(longdir, "/w/", 3);
	memcpy(longdir + 150, "/the-project", 13);
	put(d, "read.ndjson",
	    INIT("q0000001", "/w/proj") USER(
		    "read it") "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"r1\",\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"/w/proj/src/a.c\"}}},\"timestamp_ms\":" T1
			       "}\n",
	    NOW - 1000, false);
	{
		struct buf b = {0};

		buf_addf(
			&b,
			"{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"%s\",\"session_id\":\"q0000002\"}\n",
			longdir);
		buf_adds(&b, USER("long"));
		put(d, "long.ndjson", b.p, NOW - 2000, false);
		buf_free(&b);
	}
	f = fleet_of(d, 0, NOW);
	assert_string_equal(
		list(f, FSORT_NEWEST, NULL, 80, NOW),
		"● running    cursor  the-project    long                                       -\n"
		"● running    cursor  proj           read it        Read src/a.c 9m00s      9m00s\n");
	assert_string_equal(fleet_row(f, row_of(f, "long.ndjson", 0))->cwd, "…/the-project");
	assert_string_equal(fleet_row(f, row_of(f, "read.ndjson", 0))->cwd, "/w/proj");
	fleet_free(f);
	rm_tree(d);
}

/* States only (--status-line): the same head and tail as the list, so
 * the same sessions in the same states (a sub-agent's start inside a
 * session is no new session in either), the calls' lines passed over. */
static void
test_states_only(void **state)
{
	char *d = scratch();
	struct fleet *f, *all;
	struct buf big = {0}, pad = {0}, line = {0}, cmd = {0};

	(void)state;
	for (int i = 0; i < 25000; i++)
		buf_addc(&pad, 'x');
	/* An init of 25 KB, then a result of 25 KB after 40 KB of calls. */
	buf_addf(
		&big,
		"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s0000001\",\"model\":\"%s\"}\n",
		pad.p);
	buf_adds(&big, USER("big lines"));
	for (int i = 0; i < 400; i++)
		buf_adds(&big, START("c1", "npm test", T1) DONE("c1", "npm test", "success", T2));
	buf_addf(
		&big,
		"{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":5,\"is_error\":false,\"result\":\"%s\"}\n",
		pad.p);
	put(d, "big.ndjson", big.p, NOW - 10 * MIN_MS, false);
	/* The same, still running: a decision asked, its line long. */
	buf_reset(&line);
	buf_addf(
		&line,
		"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s0000002\",\"model\":\"%s\"}\n",
		pad.p);
	buf_adds(&line, USER("asks"));
	for (int i = 0; i < 400; i++)
		buf_adds(&line, START("c1", "npm test", T1) DONE("c1", "npm test", "success", T2));
	buf_adds(&line, ASK(T2));
	put(d, "ask.ndjson", line.p, NOW - 1000, false);
	/* Claude's sub-agents start with an init of their own, 49 KB in. */
	buf_addf(&cmd, "cp recordings/claude-partial-subagents.ndjson '%s/'", d);
	assert_int_equal(system(cmd.p), 0);
	stamp(d, "claude-partial-subagents.ndjson", NOW - 10 * MIN_MS);
	f = fleet_of(d, FLEET_STATES_ONLY, NOW);
	all = fleet_of(d, 0, NOW);
	assert_int_equal(fleet_row(f, row_of(f, "big.ndjson", 0))->state, FS_DONE);
	assert_int_equal(fleet_row(f, row_of(f, "ask.ndjson", 0))->state, FS_WAITING);
	assert_int_equal(fleet_nrows(f), 3);
	assert_int_equal(fleet_nrows(all), 3);
	for (uint32_t r = 0; r < 3; r++) {
		uint32_t a = row_of(all, fleet_name(f, r), fleet_row(f, r)->index);

		assert_int_equal(fleet_row(f, r)->state, fleet_row(all, a)->state);
	}
	/* No call counted with states only: their lines were passed over;
	 * the whole list counts the calls of the last 64 KiB. */
	assert_int_equal(fleet_row(f, row_of(f, "big.ndjson", 0))->ok, 0);
	assert_true(fleet_row(all, row_of(all, "big.ndjson", 0))->ok > 50);
	fleet_free(f);
	fleet_free(all);
	buf_free(&big);
	buf_free(&pad);
	buf_free(&line);
	buf_free(&cmd);
	rm_tree(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_look),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_rename),
		cmocka_unit_test(test_big),
		cmocka_unit_test(test_head_wait),
		cmocka_unit_test(test_gaps),
		cmocka_unit_test(test_gaps_grow),
		cmocka_unit_test(test_writer),
		cmocka_unit_test(test_waiting),
		cmocka_unit_test(test_times_agree),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_json_early),
		cmocka_unit_test(test_take),
		cmocka_unit_test(test_polled),
		cmocka_unit_test(test_claude_tail),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_states_only),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_sort_filter),
		cmocka_unit_test(test_claude_turns),
		cmocka_unit_test(test_store_tokens),
		cmocka_unit_test(test_rollout_tokens),
		cmocka_unit_test(test_json_totals),
		cmocka_unit_test(test_subagent_tokens),
		cmocka_unit_test(test_subagent_unchanged),
		cmocka_unit_test(test_subagents_own_agent),
		cmocka_unit_test(test_rows_names),
		cmocka_unit_test(test_no_tokens),
		cmocka_unit_test(test_time_only),
	};

	setlocale(LC_ALL, "C.UTF-8");
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
