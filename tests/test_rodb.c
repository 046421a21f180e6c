/* test_rodb.c: an agent's SQLite file opened read-only (rodb.c), as a
 * hostile store would lay it out: what lies beside it in the agent's
 * folder is never waited on, and no query on it runs without end. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "rodb.h"
#include "util.h"

/* A database in WAL mode at dir/name, one row in meta, its writer closed
 * (no -wal nor -shm left): its path into path. */
static void
make_db(const char *dir, const char *name, char *path, size_t cap)
{
	assert_true(snprintf(path, cap, "%s/%s", dir, name) < (int)cap);
	fixture_sql(path, "PRAGMA journal_mode=WAL;"
			  "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
			  "INSERT INTO meta VALUES ('0', 'x');");
}

/* meta's row read through rodb: SQLITE_ROW when it was, else the error. */
static int
read_meta(const char *path)
{
	sqlite3 *h = rodb_open(path);
	sqlite3_stmt *q = NULL;
	int rc;

	if (h == NULL)
		return SQLITE_CANTOPEN;
	rc = sqlite3_prepare_v2(h, "SELECT value FROM meta WHERE key = '0'", -1, &q, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(q);
	sqlite3_finalize(q);
	sqlite3_close(h);
	return rc;
}

/* A fifo where the log or the shared memory would be (or where the file
 * itself is): refused at once, never opened (an open of a fifo waits for
 * its writer, for ever). SIGALRM ends the test if it waits. */
static void
test_fifo_beside(void **state)
{
	char *d = fixture_tmpdir("rodb");
	char db[1024], side[1100];
	static const char *const sides[] = {"-wal", "-shm", ""};

	(void)state;
	signal(SIGALRM, SIG_DFL);
	for (size_t i = 0; i < ARRAY_LEN(sides); i++) {
		make_db(d, "store.db", db, sizeof db);
		assert_int_equal(read_meta(db), SQLITE_ROW);
		snprintf(side, sizeof side, "%s%s", db, sides[i]);
		if (sides[i][0] == '\0') {
			assert_int_equal(unlink(db), 0);
		} else if (strcmp(sides[i], "-shm") == 0) {
			/* Its log there (a writer's): the shared memory is
			 * looked for. */
			fixture_put(d, "store.db-wal", "", 0, false);
			snprintf(side, sizeof side, "%s-shm", db);
		}
		assert_int_equal(mkfifo(side, 0600), 0);
		alarm(10);
		assert_int_not_equal(read_meta(db), SQLITE_ROW);
		alarm(0);
		for (size_t k = 0; k < ARRAY_LEN(sides); k++) {
			snprintf(side, sizeof side, "%s%s", db, sides[k]);
			(void)unlink(side);
		}
	}
	fixture_rmtree(d);
}

/* A link where the store, its log or its shared memory is: never
 * followed, even to a store that reads. */
static void
test_link_beside(void **state)
{
	char *d = fixture_tmpdir("rodb");
	char db[1024], real[1024], side[1100], target[1100];
	static const char *const sides[] = {"-wal", "-shm", ""};

	(void)state;
	make_db(d, "real.db", real, sizeof real);
	for (size_t i = 0; i < ARRAY_LEN(sides); i++) {
		make_db(d, "store.db", db, sizeof db);
		if (strcmp(sides[i], "-shm") == 0)
			fixture_put(d, "store.db-wal", "", 0, false);
		snprintf(side, sizeof side, "%s%s", db, sides[i]);
		snprintf(target, sizeof target, "%s%s", real, sides[i]);
		(void)unlink(side);
		if (sides[i][0] != '\0')
			fixture_put(d, sides[i][1] == 'w' ? "real.db-wal" : "real.db-shm", "", 0,
				    false);
		assert_int_equal(symlink(target, side), 0);
		assert_int_not_equal(read_meta(db), SQLITE_ROW);
		for (size_t k = 0; k < ARRAY_LEN(sides); k++) {
			snprintf(side, sizeof side, "%s%s", db, sides[k]);
			(void)unlink(side);
		}
	}
	assert_int_equal(read_meta(real), SQLITE_ROW);
	/* A link on the way there (a home or an agent's folder that is
	 * one) is followed: only the file itself must not be a link. */
	snprintf(side, sizeof side, "%s/via", d);
	assert_int_equal(symlink(d, side), 0);
	snprintf(side, sizeof side, "%s/via/real.db", d);
	assert_int_equal(read_meta(side), SQLITE_ROW);
	fixture_rmtree(d);
}

/* A store whose meta is a view that never ends (a recursive CTE, 8 KiB
 * of file): the query is stopped, soon, not run for ever. SIGALRM ends
 * the test if it is not. */
static void
test_endless_view(void **state)
{
	char *d = fixture_tmpdir("rodb");
	char db[1024];

	(void)state;
	signal(SIGALRM, SIG_DFL);
	assert_true(snprintf(db, sizeof db, "%s/store.db", d) < (int)sizeof db);
	fixture_sql(db, "CREATE VIEW meta AS WITH RECURSIVE c(x) AS "
			"(SELECT 1 UNION ALL SELECT x + 1 FROM c) "
			"SELECT x || 'n' AS key, x AS value FROM c;");
	/* The guard against a query without end: 20 M steps are some 0.2 s
	 * here, 10 to 30 s under valgrind on a busy machine. */
	alarm(120);
	assert_int_equal(read_meta(db), SQLITE_INTERRUPT);
	alarm(0);
	fixture_rmtree(d);
}

/* A value larger than any an agent writes there (Cursor's meta is some
 * hundred bytes): not read, rather than held in memory twice over (a
 * 300 MB one took 590 MB). */
static void
test_huge_value(void **state)
{
	char *d = fixture_tmpdir("rodb");
	char db[1024];

	(void)state;
	assert_true(snprintf(db, sizeof db, "%s/store.db", d) < (int)sizeof db);
	fixture_sql(db, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
			"INSERT INTO meta VALUES ('0', printf('%.*c', 4194304, 'a'));"
			"INSERT INTO meta VALUES ('1', 'small');");
	assert_int_equal(read_meta(db), SQLITE_TOOBIG);
	fixture_rmtree(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_beside),
		cmocka_unit_test(test_link_beside),
		cmocka_unit_test(test_endless_view),
		cmocka_unit_test(test_huge_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
