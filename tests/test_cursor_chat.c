/* test_cursor_chat.c: Cursor Agent's chat store
 * (~/.cursor/chats/<md5 of cwd>/<sid>/store.db, ../shared/STORES.md §5) in
 * the session list and the viewer. Cursor's CLI cannot be run here: each
 * store is built by the test with libsqlite3 from the shape public
 * readers document (meta '0' = hex of {agentId, name, createdAt,
 * lastUsedModel, ...}; blobs of JSON messages and protobuf nodes). A
 * store with no transcript is a row of its own (its title, model, time,
 * "no transcript") and opens to the messages it holds; one seen with its
 * transcript is one row, the transcript's, with the store's title, model
 * and time. Hostile stores (not SQLite, huge values, wrong types, a table
 * missing, a writer's log, a link, a fifo) say so on their row or are not
 * listed, crash nothing and are left byte for byte and time for time as
 * they were. */
#include <dirent.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "agent.h"
#include "fleet.h"
#include "fleet_print.h"
#include "input.h"
#include "model.h"
#include "remote.h"
#include "store.h"
#include "summary.h"

#define NOW 1795000600000LL
#define SID "5c6d7e8f-4a81-4c02-9d65-7f1a2b3c4d56"
#define BUCKET "0e4c8b0f5d3a9f1e2b7c6d5a4e3f2a1b"
#define META \
	"{\"agentId\":\"" SID "\",\"latestRootBlobId\":\"ab\",\"name\":\"Fix the tests\"," \
	"\"mode\":\"auto-run\",\"createdAt\":1795000000000,\"lastUsedModel\":\"gpt-5\"}"

/* The messages of a chat, as public readers found them in blobs. */
static const char *const messages[] = {
	"{\"role\":\"system\",\"content\":\"You are a coding agent.\"}",
	"{\"role\":\"user\",\"content\":\"<user_info>OS linux</user_info>\\n<user_query>\\nfix "
	"it\\n</user_query>\"}",
	"{\"id\":\"1\",\"role\":\"assistant\",\"content\":[{\"type\":\"reasoning\",\"text\":"
	"\"Run the tests.\"},{\"type\":\"text\",\"text\":\"On it.\"},{\"type\":\"tool-call\","
	"\"toolCallId\":\"call_1\",\"toolName\":\"Shell\",\"args\":{\"command\":\"make "
	"test\"}}]}",
	"{\"role\":\"tool\",\"content\":[{\"type\":\"tool-result\",\"toolCallId\":\"call_1\","
	"\"toolName\":\"Shell\",\"result\":\"ok\\n\",\"isError\":false}]}",
	"{\"id\":\"1\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":"
	"\"Fixed.\"}]}",
};

/* mkdir -p of home/rel. */
static void
dirs(const char *home, const char *rel)
{
	char cmd[2048];

	snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s'", home, rel);
	assert_int_equal(system(cmd), 0);
}

static void
exec_ok(sqlite3 *w, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(w, sql, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("%s: %s", sql, err);
}

/* The file at path last written ten minutes before NOW: not at work. */
static void
age(const char *path)
{
	struct timespec ts[2] = {{(NOW - 600000) / 1000, 0}, {(NOW - 600000) / 1000, 0}};

	assert_int_equal(utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW), 0);
}

/* A chat store at home/.cursor/chats/<bucket>/<sid>/store.db with meta
 * '0' the hex of meta (NULL: no meta table) and, with msgs, the chat's
 * messages as blobs (a protobuf node between them); its path into db. */
static void
make_store(const char *home, const char *bucket, const char *sid, const char *meta, bool msgs,
	   char *db, size_t cap)
{
	char rel[512];
	sqlite3 *w;
	sqlite3_stmt *q;

	snprintf(rel, sizeof rel, ".cursor/chats/%s/%s", bucket, sid);
	dirs(home, rel);
	assert_true(snprintf(db, cap, "%s/%s/store.db", home, rel) < (int)cap);
	assert_int_equal(sqlite3_open(db, &w), SQLITE_OK);
	exec_ok(w, "PRAGMA journal_mode=WAL;"
		   "CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB);");
	if (meta != NULL) {
		exec_ok(w, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);");
		assert_int_equal(sqlite3_prepare_v2(w,
						    "INSERT INTO meta VALUES ('0', lower(hex(?)))",
						    -1, &q, NULL),
				 SQLITE_OK);
		sqlite3_bind_text(q, 1, meta, -1, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(q), SQLITE_DONE);
		sqlite3_finalize(q);
	}
	for (size_t i = 0; msgs && i < ARRAY_LEN(messages); i++) {
		char node[34] = "\x0A\x20", id[16];

		memset(node + 2, (int)i + 1, 32);
		assert_int_equal(
			sqlite3_prepare_v2(w, "INSERT INTO blobs VALUES (?, ?)", -1, &q, NULL),
			SQLITE_OK);
		snprintf(id, sizeof id, "m%zu", i);
		sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_blob(q, 2, messages[i], (int)strlen(messages[i]), SQLITE_STATIC);
		assert_int_equal(sqlite3_step(q), SQLITE_DONE);
		sqlite3_reset(q);
		snprintf(id, sizeof id, "n%zu", i);
		sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_blob(q, 2, node, sizeof node, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(q), SQLITE_DONE);
		sqlite3_finalize(q);
	}
	assert_int_equal(sqlite3_close(w), SQLITE_OK);
	age(db);
}

/* A transcript of sid in project home-u-proj. */
static void
make_transcript(const char *home, const char *sid)
{
	char rel[512], name[1024];

	snprintf(rel, sizeof rel, ".cursor/projects/home-u-proj/agent-transcripts/%s", sid);
	dirs(home, rel);
	snprintf(name, sizeof name, "%s/%s.jsonl", rel, sid);
	fixture_put(home, name,
		    "{\"role\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":"
		    "\"<user_query>\\nfix it\\n</user_query>\"}]}}\n"
		    "{\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\","
		    "\"name\":\"Shell\",\"input\":{\"command\":\"make\"}}]}}\n"
		    "{\"role\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\","
		    "\"content\":\"ok\"}]}}\n"
		    "{\"type\":\"turn_ended\",\"status\":\"success\"}\n",
		    NOW - 300000, false);
}

/* Every name under dir (depth first, sorted), with its size, time and
 * bytes' sum, into out: what a read must leave as it was. */
static void
listing(const char *dir, struct buf *out)
{
	struct dirent **de;
	struct stat st;
	char path[2048];
	int n = scandir(dir, &de, NULL, alphasort);

	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		if (strcmp(de[i]->d_name, ".") != 0 && strcmp(de[i]->d_name, "..") != 0) {
			snprintf(path, sizeof path, "%s/%s", dir, de[i]->d_name);
			assert_int_equal(lstat(path, &st), 0);
			buf_addf(out, "%s %o %lld %lld.%09ld", path, (unsigned)st.st_mode,
				 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
				 st.st_mtim.tv_nsec);
			if (S_ISREG(st.st_mode)) {
				size_t len;
				char *text = fixture_slurp(path, &len);
				unsigned long sum = 5381;

				for (size_t k = 0; k < len; k++)
					sum = sum * 33 + (unsigned char)text[k];
				free(text);
				buf_addf(out, " %lx", sum);
			}
			buf_addc(out, '\n');
			if (S_ISDIR(st.st_mode))
				listing(path, out);
		}
		free(de[i]);
	}
	free(de);
}

/* HOME is home, Cursor's its only store; the fleet of that store, read. */
static struct fleet *
cursor_fleet(const char *home)
{
	struct fleet *f = fleet_new(0, -1);
	struct buf root = {0};

	setenv("HOME", home, 1);
	assert_true(store_root(SRC_CURSOR, &root));
	assert_int_equal(fleet_add_store(f, root.p, store_patterns(SRC_CURSOR), SRC_CURSOR), 0);
	fleet_update(f, NOW, 0);
	buf_free(&root);
	return f;
}

/* Row ri's cell col, in a buffer of the test's. */
static const char *
cell(struct fleet *f, uint32_t ri, enum fleet_col col)
{
	static struct buf b;

	buf_reset(&b);
	buf_adds(&b, "");
	fleet_cell(f, ri, col, NOW, &b);
	return b.p;
}

/* The rows the list shows, into v; how many. */
static size_t
shown(struct fleet *f, uint32_t *v, size_t max)
{
	return fleet_rows(f, FSORT_NEWEST, NULL, NOW, v, max);
}

/* A store with no transcript: a row of its own, its title, model and
 * time, "no transcript"; opened, the messages it holds. Nothing in the
 * agent's folder made or changed. */
static void
test_store_alone(void **state)
{
	char *h = fixture_tmpdir("cursor-chat");
	char db[1024], cursor[1024];
	struct buf before = {0}, after = {0}, b = {0}, err = {0};
	struct fleet *f;
	const struct fleet_row *r;
	uint32_t v[8];
	struct model *m;
	struct input in;

	(void)state;
	make_store(h, BUCKET, SID, META, true, db, sizeof db);
	snprintf(cursor, sizeof cursor, "%s/.cursor", h);
	listing(cursor, &before);
	f = cursor_fleet(h);
	assert_int_equal(shown(f, v, 8), 1);
	r = fleet_row(f, v[0]);
	assert_string_equal(r->id, SID);
	assert_string_equal(r->model, "gpt-5");
	assert_string_equal(r->prompt, "Fix the tests");
	assert_true(r->start_ms == 1795000000000LL);
	assert_int_equal(r->ok, 1);
	assert_string_equal(cell(f, v[0], FC_AGENT), "cursor");
	/* The model had the last word: done, as a store's session is. */
	assert_int_equal(r->state, FS_DONE);
	assert_string_equal(cell(f, v[0], FC_NOW), "ok (no transcript)");
	fleet_free(f);

	/* Opened: the messages, in the order they were stored. */
	m = model_new();
	input_init(&in, m, true);
	assert_int_equal(input_add_path(&in, db, &err), 0);
	while (input_pump(&in, 0) || !input_done(&in))
		;
	assert_int_equal(m->nses, 1);
	assert_int_equal(m->ndiag, 0);
	assert_int_equal(m->ncall, 1);
	assert_int_equal(model_call_state(m, 0), CS_OK);
	summary_write(m, NULL, &b, NULL);
	assert_non_null(strstr(b.p, "\"session_id\":\"" SID "\""));
	assert_non_null(strstr(b.p, "\"model\":\"gpt-5\""));
	assert_non_null(strstr(b.p, "\"agent\":\"cursor-transcript\""));
	buf_reset(&b);
	for (uint32_t i = 0; i < m->nit; i++)
		if (m->it[i].type == IT_PROMPT || m->it[i].type == IT_TEXT) {
			model_item_text(m, i, &b);
			buf_addc(&b, '|');
		}
	assert_string_equal(b.p, "fix it|On it.|Fixed.|");
	input_free(&in);
	model_free(m);

	listing(cursor, &after);
	assert_string_equal(after.p, before.p);
	buf_free(&before);
	buf_free(&after);
	buf_free(&b);
	buf_free(&err);
	fixture_rmtree(h);
}

/* A store with its transcript (the same chat id): one row, the
 * transcript's calls with the store's title, model and time. */
static void
test_store_and_transcript(void **state)
{
	char *h = fixture_tmpdir("cursor-twin");
	char db[1024];
	struct fleet *f;
	const struct fleet_row *r;
	uint32_t v[8];

	(void)state;
	make_store(h, BUCKET, SID, META, true, db, sizeof db);
	make_transcript(h, SID);
	f = cursor_fleet(h);
	assert_int_equal(fleet_nrows(f), 2);
	assert_int_equal(shown(f, v, 8), 1);
	r = fleet_row(f, v[0]);
	assert_non_null(strstr(fleet_path(f, v[0]), "/agent-transcripts/" SID "/" SID ".jsonl"));
	assert_string_equal(r->id, SID);
	assert_string_equal(r->model, "gpt-5");
	assert_string_equal(r->prompt, "Fix the tests");
	assert_true(r->start_ms == 1795000000000LL);
	assert_int_equal(r->ok, 1);
	assert_int_equal(r->state, FS_DONE);
	/* The JSON summary of the list: the session once, the transcript's. */
	{
		char *json = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&json, &len);
		const char *at;

		setenv("AGENTVIEW_ONE_THREAD", "1", 1);
		fleet_list_json(f, -1, 120, NOW, mem);
		fclose(mem);
		unsetenv("AGENTVIEW_ONE_THREAD");
		at = strstr(json, "\"session_id\":\"" SID "\"");
		assert_non_null(at);
		assert_null(strstr(at + 1, "\"session_id\":\"" SID "\""));
		assert_null(strstr(json, "store.db\""));
		free(json);
	}
	fleet_free(f);
	fixture_rmtree(h);
}

/* One chat in two stores (two buckets: its folder moved, a copy): one
 * row, the newest store's title and model, and the session once in the
 * JSON summary, the newest store's, whichever bucket sorts first. */
static void
test_store_twice(void **state)
{
	char *h = fixture_tmpdir("cursor-twice");
	char db[1024], old[1024];
	struct timespec ts[2] = {{NOW / 1000 - 60, 0}, {NOW / 1000 - 60, 0}};
	struct fleet *f;
	uint32_t v[8];

	(void)state;
	for (int newer = 0; newer < 2; newer++) {
		make_store(h, "aa11", SID, META, true, newer ? db : old, sizeof db);
		make_store(h, "ff99", SID,
			   "{\"agentId\":\"" SID "\",\"name\":\"Fix the tests again\","
			   "\"createdAt\":1795000000000,\"lastUsedModel\":\"gpt-6\"}",
			   true, newer ? old : db, sizeof db);
		/* db the newer of the two */
		assert_int_equal(utimensat(AT_FDCWD, db, ts, 0), 0);
		f = cursor_fleet(h);
		assert_int_equal(fleet_nrows(f), 2);
		assert_int_equal(shown(f, v, 8), 1);
		assert_string_equal(fleet_path(f, v[0]), db);
		assert_string_equal(fleet_row(f, v[0])->prompt,
				    newer ? "Fix the tests" : "Fix the tests again");
		{
			char *json = NULL;
			size_t len = 0;
			FILE *mem = open_memstream(&json, &len);
			const char *at;

			setenv("AGENTVIEW_ONE_THREAD", "1", 1);
			fleet_list_json(f, -1, 120, NOW, mem);
			fclose(mem);
			unsetenv("AGENTVIEW_ONE_THREAD");
			at = strstr(json, "\"session_id\":\"" SID "\"");
			assert_non_null(at);
			assert_null(strstr(at + 1, "\"session_id\":\"" SID "\""));
			assert_non_null(strstr(json, newer ? "\"model\":\"gpt-5\""
							   : "\"model\":\"gpt-6\""));
			free(json);
		}
		fleet_free(f);
		fixture_rmtree(h);
		h = fixture_tmpdir("cursor-twice");
	}
	fixture_rmtree(h);
}

/* Hostile stores, each in a bucket of its own: said on its row, no crash,
 * nothing made or changed in the agent's folder. */
static void
test_store_hostile(void **state)
{
	char *h = fixture_tmpdir("cursor-hostile");
	char db[1024], cursor[1024], sql[256], real[1024];
	struct buf before = {0}, after = {0}, big = {0}, all = {0};
	struct fleet *f;
	uint32_t v[16];
	size_t n;
	sqlite3 *writer;

	(void)state;
	/* Not SQLite. */
	dirs(h, ".cursor/chats/b1/aaaaaaaa-0001");
	fixture_put(h, ".cursor/chats/b1/aaaaaaaa-0001/store.db", "not a database at all\n",
		    NOW - 600000, false);
	/* A meta value of 2 MB, and a blob as big. */
	buf_adds(&big, "{\"name\":\"");
	for (int i = 0; i < 2 * 1024 * 1024; i++)
		buf_addc(&big, 'x');
	buf_adds(&big, "\"}");
	make_store(h, "b2", "aaaaaaaa-0002", big.p, true, db, sizeof db);
	snprintf(sql, sizeof sql, "INSERT INTO blobs VALUES ('big', zeroblob(%d));", 3 << 20);
	fixture_sql(db, sql);
	age(db);
	/* Wrong types: meta's value a number, a blob a number, ids null. */
	make_store(h, "b3", "aaaaaaaa-0003", META, false, db, sizeof db);
	fixture_sql(db,
		    "UPDATE meta SET value = 42; INSERT INTO blobs VALUES (NULL, 7);"
		    "INSERT INTO blobs VALUES ('n', NULL);"
		    "INSERT INTO blobs VALUES ('s', '{\"role\":\"user\",\"content\":[1,{\"type\":"
		    "2}]}');"
		    "INSERT INTO blobs VALUES ('t', '{\"role\":\"assistant\",\"content\":[{"
		    "\"type\":\"tool-call\",\"args\":5},7]}');");
	age(db);
	/* No meta table, and no table at all. */
	make_store(h, "b4", "aaaaaaaa-0004", NULL, true, db, sizeof db);
	make_store(h, "b5", "aaaaaaaa-0005", NULL, false, db, sizeof db);
	fixture_sql(db, "DROP TABLE blobs;");
	age(db);
	/* A writer at work: its log and shared memory there. */
	make_store(h, "b6", "aaaaaaaa-0006", META, true, db, sizeof db);
	assert_int_equal(sqlite3_open(db, &writer), SQLITE_OK);
	exec_ok(writer,
		"BEGIN IMMEDIATE; UPDATE meta SET value = lower(hex('{\"name\":\"new\"}'));");
	/* A chat with no message yet: what its meta says. */
	make_store(h, "b8", "aaaaaaaa-0008", META, false, db, sizeof db);
	/* A fifo where the store would be: never waited on. */
	dirs(h, ".cursor/chats/b9/aaaaaaaa-0009");
	snprintf(db, sizeof db, "%s/.cursor/chats/b9/aaaaaaaa-0009/store.db", h);
	assert_int_equal(mkfifo(db, 0600), 0);
	/* A link to a store outside: never followed. */
	make_store(h, "outside", "aaaaaaaa-0007", META, true, real, sizeof real);
	snprintf(sql, sizeof sql, "mv '%s/.cursor/chats/outside' '%s/outside'", h, h);
	assert_int_equal(system(sql), 0);
	snprintf(real, sizeof real, "%s/outside/aaaaaaaa-0007/store.db", h);
	dirs(h, ".cursor/chats/b7/aaaaaaaa-0007");
	snprintf(db, sizeof db, "%s/.cursor/chats/b7/aaaaaaaa-0007/store.db", h);
	assert_int_equal(symlink(real, db), 0);

	snprintf(cursor, sizeof cursor, "%s/.cursor", h);
	listing(cursor, &before);
	f = cursor_fleet(h);
	n = shown(f, v, 16);
	for (size_t i = 0; i < n; i++) {
		const char *p = fleet_path(f, v[i]);

		buf_addf(&all, "%s: %s %s | %s\n", strstr(p, "/chats/") + 7,
			 fleet_state_name((enum fleet_state)fleet_row(f, v[i])->state),
			 fleet_row(f, v[i])->prompt, cell(f, v[i], FC_NOW));
	}
	/* Each hostile one says what it is. */
	assert_non_null(strstr(all.p, "b1/aaaaaaaa-0001/store.db: file  | chat store: file is "
				      "not a database\n"));
	/* Too big: its meta not read, its messages are. */
	assert_non_null(strstr(all.p, "b2/aaaaaaaa-0002/store.db: done fix it | ok (no "
				      "transcript)\n"));
	assert_null(strstr(all.p, "xxxxxxxx"));
	/* Wrong types: no title, none of its rows a message. */
	assert_non_null(strstr(all.p, "b3/aaaaaaaa-0003/store.db: incomplete  | no result (no "
				      "transcript)\n"));
	/* No meta: its messages, without a title. */
	assert_non_null(strstr(all.p, "b4/aaaaaaaa-0004/store.db: done fix it | ok (no "
				      "transcript)\n"));
	assert_non_null(strstr(all.p, "b5/aaaaaaaa-0005/store.db: file  | chat store: no such "
				      "table: meta\n"));
	/* The last title committed, the writer's not yet. */
	assert_non_null(strstr(all.p, "b6/aaaaaaaa-0006/store.db: done Fix the tests | ok (no "
				      "transcript)\n"));
	assert_null(strstr(all.p, "b7/"));
	/* Not a regular file: not listed, not opened. */
	assert_null(strstr(all.p, "b9/"));
	assert_non_null(strstr(all.p, "b8/aaaaaaaa-0008/store.db: file  | chat store: no message "
				      "read (gpt-5), \"Fix the tests\"\n"));
	fleet_free(f);
	listing(cursor, &after);
	assert_string_equal(after.p, before.p);
	exec_ok(writer, "COMMIT;");
	assert_int_equal(sqlite3_close(writer), SQLITE_OK);
	buf_free(&before);
	buf_free(&after);
	buf_free(&big);
	buf_free(&all);
	fixture_rmtree(h);
}

/* The processes of a fake machine: none, or one cursor-agent (pid 7). */
static bool agent_runs;

static bool
fp_start(void *ctx, long pid, uint64_t *start)
{
	(void)ctx;
	*start = 1;
	return agent_runs && pid == 7;
}

static size_t
fp_pids(void *ctx, long *v, size_t max)
{
	(void)ctx;
	if (!agent_runs || max == 0)
		return 0;
	v[0] = 7;
	return 1;
}

static bool
fp_cmdline(void *ctx, long pid, struct buf *out)
{
	static const char argv[] = "/home/u/.local/bin/cursor-agent\0--resume\0";

	(void)ctx;
	if (!agent_runs || pid != 7)
		return false;
	buf_reset(out);
	buf_add(out, argv, sizeof argv - 1);
	return true;
}

static bool
fp_cwd(void *ctx, long pid, struct buf *out)
{
	(void)ctx;
	if (!agent_runs || pid != 7)
		return false;
	buf_reset(out);
	buf_adds(out, "/home/u/proj");
	return true;
}

static bool
fp_environ(void *ctx, long pid, struct buf *out)
{
	(void)ctx;
	(void)pid;
	(void)out;
	return false;
}

static const struct store_proc fake = {NULL,   fp_start,   fp_pids, fp_cmdline,
				       fp_cwd, fp_environ, NULL};

/* A chat store written a moment ago: with no cursor-agent process at
 * all, not running (its last word the model's: done); with one (its
 * folder, a hash of the project's, is not matched), running by a guess. */
static void
test_store_live(void **state)
{
	char *h = fixture_tmpdir("cursor-live");
	char db[1024];
	struct timespec ts[2] = {{NOW / 1000 - 5, 0}, {NOW / 1000 - 5, 0}};
	struct store_live *sl;
	struct fleet *f;
	uint32_t v[4];

	(void)state;
	make_store(h, BUCKET, SID, META, true, db, sizeof db);
	assert_int_equal(utimensat(AT_FDCWD, db, ts, 0), 0);
	for (int run = 0; run < 2; run++) {
		agent_runs = run == 1;
		sl = store_live_new(&fake);
		setenv("HOME", h, 1);
		f = fleet_new(0, -1);
		{
			struct buf root = {0};

			assert_true(store_root(SRC_CURSOR, &root));
			fleet_add_store(f, root.p, store_patterns(SRC_CURSOR), SRC_CURSOR);
			buf_free(&root);
		}
		fleet_set_live(f, sl);
		fleet_update(f, NOW, 0);
		assert_int_equal(shown(f, v, 4), 1);
		if (agent_runs) {
			assert_int_equal(fleet_row(f, v[0])->state, FS_RUNNING);
			assert_non_null(strstr(cell(f, v[0], FC_STATE), " running?"));
		} else {
			assert_int_equal(fleet_row(f, v[0])->state, FS_DONE);
		}
		fleet_free(f); /* and sl, the fleet's */
	}
	fixture_rmtree(h);
}

/* meta '0' of the store at db set to the hex of meta by w, a writer
 * whose log is never checkpointed: what Cursor writes is in store.db-wal
 * first. */
static void
rename_chat(sqlite3 *w, const char *meta)
{
	sqlite3_stmt *q;

	assert_int_equal(sqlite3_prepare_v2(w,
					    "UPDATE meta SET value = lower(hex(?)) WHERE key = '0'",
					    -1, &q, NULL),
			 SQLITE_OK);
	sqlite3_bind_text(q, 1, meta, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(q), SQLITE_DONE);
	sqlite3_finalize(q);
}

/* A title and a model Cursor gives a chat after it is listed, written
 * into store.db-wal (store.db as it was): shown, on the store's row and
 * on its transcript's; read again at most once a second. */
static void
test_store_renamed(void **state)
{
	char *h = fixture_tmpdir("cursor-renamed");
	char db[1024];
	struct stat before, after;
	struct fleet *f;
	sqlite3 *w;
	uint32_t v[8];

	(void)state;
	for (int twin = 0; twin < 2; twin++) {
		make_store(h, BUCKET, SID, META, true, db, sizeof db);
		if (twin)
			make_transcript(h, SID);
		f = cursor_fleet(h);
		assert_int_equal(shown(f, v, 8), 1);
		assert_string_equal(fleet_row(f, v[0])->prompt, "Fix the tests");
		assert_int_equal(stat(db, &before), 0);
		assert_int_equal(sqlite3_open(db, &w), SQLITE_OK);
		exec_ok(w, "PRAGMA wal_autocheckpoint=0;");
		rename_chat(w, "{\"agentId\":\"" SID "\",\"name\":\"Fix the flaky tests\","
			       "\"createdAt\":1795000000000,\"lastUsedModel\":\"gpt-6\"}");
		assert_int_equal(stat(db, &after), 0);
		assert_true(after.st_size == before.st_size &&
			    after.st_mtim.tv_nsec == before.st_mtim.tv_nsec &&
			    after.st_mtim.tv_sec == before.st_mtim.tv_sec);
		fleet_update(f, NOW + 2000, 0);
		assert_int_equal(shown(f, v, 8), 1);
		assert_string_equal(fleet_row(f, v[0])->prompt, "Fix the flaky tests");
		assert_string_equal(fleet_row(f, v[0])->model, "gpt-6");
		/* Again within the second: read when it is over. */
		rename_chat(w, "{\"agentId\":\"" SID "\",\"name\":\"Third name\","
			       "\"createdAt\":1795000000000,\"lastUsedModel\":\"gpt-6\"}");
		fleet_update(f, NOW + 2400, 0);
		assert_string_equal(fleet_row(f, v[0])->prompt, "Fix the flaky tests");
		assert_in_range(fleet_timeout(f, NOW + 2400, false), 0, 600);
		fleet_update(f, NOW + 3000, 0);
		assert_string_equal(fleet_row(f, v[0])->prompt, "Third name");
		assert_int_equal(sqlite3_close(w), SQLITE_OK);
		fleet_free(f);
		fixture_rmtree(h);
		h = fixture_tmpdir("cursor-renamed");
	}
	fixture_rmtree(h);
}

/* Every lstat of a path ending in /store.db (the test's own lstat, over
 * libc's: the library's calls come here too). */
static size_t stores_looked;

int
lstat(const char *restrict path, struct stat *restrict st)
{
	size_t n = strlen(path);

	stores_looked += n > 9 && strcmp(path + n - 9, "/store.db") == 0;
	return fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

/* The chat store of each of many transcripts, among many chats' folders,
 * is found without looking into every folder for each transcript (1,000
 * transcripts among 300 chats took 600,000 lstats, 1.3 s): a few looks
 * a transcript at most; the one that has a store still finds it. */
static void
test_store_found_cheaply(void **state)
{
	char *h = fixture_tmpdir("cursor-many");
	char rel[512], name[1024], db[1024];
	struct fleet *f;
	uint32_t v[64];
	size_t n;

	(void)state;
	for (int b = 0; b < 40; b++) {
		snprintf(rel, sizeof rel, ".cursor/chats/%032x/ffffffff-0000-0000-0000-%012d", b,
			 b);
		dirs(h, rel);
	}
	snprintf(rel, sizeof rel, ".cursor/projects/home-u-proj/agent-transcripts");
	dirs(h, rel);
	for (int i = 0; i < 30; i++) {
		snprintf(name, sizeof name, "%s/5c6d7e8f-4a81-4c02-9d65-%012d.jsonl", rel, i);
		fixture_put(h, name,
			    "{\"role\":\"user\",\"message\":{\"content\":[{\"type\":\"text\","
			    "\"text\":\"<user_query>\\nfix it\\n</user_query>\"}]}}\n",
			    NOW - 600000, false);
	}
	make_store(h, BUCKET, SID, META, true, db, sizeof db);
	make_transcript(h, SID);
	stores_looked = 0;
	f = cursor_fleet(h);
	n = shown(f, v, 64);
	assert_int_equal(n, 31);
	for (size_t i = 0; i < n; i++)
		if (strcmp(fleet_row(f, v[i])->id, SID) == 0)
			assert_string_equal(fleet_row(f, v[i])->model, "gpt-5");
	if (stores_looked > 4 * 31)
		fail_msg("%zu looks for 31 transcripts' chat stores among 41 chats", stores_looked);
	fleet_free(f);
	fixture_rmtree(h);
}

/* Another machine's chat stores are not mirrored: the list would read a
 * big one as its head and tail, which a database is not. */
static void
test_store_not_remote(void **state)
{
	struct buf b = {0};

	(void)state;
	remote_script(&b, "", NULL, 0, NULL, NULL, NULL, false, false);
	assert_non_null(strstr(b.p, "/projects/*/agent-transcripts/*/*.jsonl"));
	assert_null(strstr(b.p, "store.db"));
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_alone),
		cmocka_unit_test(test_store_and_transcript),
		cmocka_unit_test(test_store_twice),
		cmocka_unit_test(test_store_hostile),
		cmocka_unit_test(test_store_live),
		cmocka_unit_test(test_store_renamed),
		cmocka_unit_test(test_store_not_remote),
		cmocka_unit_test(test_store_found_cheaply),
	};

	setenv("TZ", "UTC", 1);
	unsetenv("AGENTVIEW_SOURCES");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
