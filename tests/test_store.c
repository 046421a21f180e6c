/* test_store.c: the agents' own session stores (store.h) as the session
 * list finds them: every store's session files under a HOME made of the
 * real CLIs' snapshots (tests/stores/), and nothing else (sub-agents,
 * links out of a root, key files, other files); the roots' environment
 * variables; --sources; a session both kept and in its store as one row;
 * liveness from a fake /proc and a fake clock (nothing sleeps: inotify
 * queues an event before the write that makes it returns). Every test sets
 * HOME, XDG_STATE_HOME and each root's variable itself. */
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "fleet.h"
#include "fleet_print.h"
#include "store.h"

#define NOW 1795776000000LL
#define CLAUDE_SID "3ed0aa9c-f0ca-4757-92a0-fb81b88fcea2"
/* A session's start and prompt, in the one stream every adapter in the
 * tree reads the same. */
#define INIT_LINE \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"g0000001\",\"model\":" \
	"\"m\"}\n"
#define ASK_LINE \
	"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":" \
	"\"text\",\"text\":\"hi\"}]}}\n"

/* --- a fake /proc ----------------------------------------------------------- */

struct fproc {
	long pid;
	uint64_t start;
	const char *argv; /* NUL-separated, ending with "\0" */
	size_t argn;
	const char *cwd;
	const char *env; /* NUL-separated, ending with "\0"; NULL: unreadable */
	size_t envn;
	const char *comm; /* NULL: its argv[0]'s last part, cut at 15 bytes */
};

static struct fproc procs[1200];
static size_t nprocs;

static const struct fproc *
fp_find(long pid)
{
	for (size_t i = 0; i < nprocs; i++)
		if (procs[i].pid == pid)
			return &procs[i];
	return NULL;
}

static bool
fp_start(void *ctx, long pid, uint64_t *start)
{
	const struct fproc *p = fp_find(pid);

	(void)ctx;
	if (p == NULL)
		return false;
	*start = p->start;
	return true;
}

static size_t
fp_pids(void *ctx, long *v, size_t max)
{
	(void)ctx;
	for (size_t i = 0; i < nprocs && i < max; i++)
		v[i] = procs[i].pid;
	return nprocs;
}

static bool
fp_cmdline(void *ctx, long pid, struct buf *out)
{
	const struct fproc *p = fp_find(pid);

	(void)ctx;
	if (p == NULL || p->argv == NULL)
		return false;
	buf_reset(out);
	buf_add(out, p->argv, p->argn);
	return true;
}

static bool
fp_cwd(void *ctx, long pid, struct buf *out)
{
	const struct fproc *p = fp_find(pid);

	(void)ctx;
	if (p == NULL || p->cwd == NULL)
		return false;
	buf_reset(out);
	buf_adds(out, p->cwd);
	return true;
}

static bool
fp_environ(void *ctx, long pid, struct buf *out)
{
	const struct fproc *p = fp_find(pid);

	(void)ctx;
	if (p == NULL || p->env == NULL)
		return false;
	buf_reset(out);
	buf_add(out, p->env, p->envn);
	return true;
}

/* Its name, as the kernel gives it a program it runs: the program's
 * file's name, cut at 15 bytes, then a newline. */
static bool
fp_comm(void *ctx, long pid, struct buf *out)
{
	const struct fproc *p = fp_find(pid);
	const char *c;

	(void)ctx;
	if (p == NULL || (p->comm == NULL && p->argv == NULL))
		return false;
	c = p->comm;
	if (c == NULL)
		c = strrchr(p->argv, '/') != NULL ? strrchr(p->argv, '/') + 1 : p->argv;
	buf_reset(out);
	buf_add(out, c, MIN(strlen(c), 15));
	buf_addc(out, '\n');
	return true;
}

static const struct store_proc fake = {NULL,   fp_start,   fp_pids, fp_cmdline,
				       fp_cwd, fp_environ, fp_comm};

/* The same, but no process listed: only asked for by pid (a remote's). */
static size_t
fp_no_pids(void *ctx, long *v, size_t max)
{
	(void)ctx;
	(void)v;
	(void)max;
	return 0;
}

static const struct store_proc unlisted = {NULL,   fp_start,   fp_no_pids, fp_cmdline,
					   fp_cwd, fp_environ, fp_comm};

static void
proc_add(long pid, uint64_t start, const char *argv, size_t argn, const char *cwd)
{
	procs[nprocs++] = (struct fproc){pid, start, argv, argn, cwd, NULL, 0, NULL};
}

/* --- a HOME ------------------------------------------------------------------- */

/* The environment every test starts from: HOME at home, no root's own
 * variable, no AGENTVIEW_SOURCES. */
static void
env_home(const char *home)
{
	struct buf b = {0};

	setenv("HOME", home, 1);
	buf_addf(&b, "%s/state", home);
	setenv("XDG_STATE_HOME", b.p, 1);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("CLAUDE_CONFIG_DIR");
	unsetenv("CODEX_HOME");
	unsetenv("GEMINI_CLI_HOME");
	unsetenv("COPILOT_HOME");
	unsetenv("AGENTVIEW_SOURCES");
	buf_free(&b);
	nprocs = 0;
}

/* Run the shell command made of printf's arguments. */
#define sh(...) \
	do { \
		struct buf cmd_ = {0}; \
		buf_addf(&cmd_, __VA_ARGS__); \
		assert_int_equal(system(cmd_.p), 0); \
		buf_free(&cmd_); \
	} while (0)

/* A HOME holding one snapshot of each store, as the CLIs wrote them, a
 * Cursor transcript, and what must never be listed. */
static char *
make_home(void)
{
	char *h = fixture_tmpdir("store");

	sh("cp -R tests/stores/claude/subagents/done '%s/.claude'", h);
	sh("cp -R tests/stores/codex/headless/done '%s/.codex'", h);
	sh("cp -R tests/stores/gemini/headless/done/.gemini '%s/.gemini'", h);
	sh("cp -R tests/stores/copilot/headless/done '%s/.copilot'", h);
	sh("mkdir -p '%s/.cursor/projects/home-dev-x/agent-transcripts/c1/subagents' "
	   "'%s/outside/dir'",
	   h, h);
	sh("mkdir -p '%s/.codex/archived_sessions' '%s/.claude/sessions'", h, h);
	fixture_put(h, ".cursor/projects/home-dev-x/agent-transcripts/c1/c1.jsonl",
		    "{\"role\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":"
		    "\"hello\"}]}}\n",
		    NOW, false);
	fixture_put(h, ".cursor/projects/home-dev-x/agent-transcripts/c1/subagents/s1.jsonl",
		    "{\"role\":\"user\"}\n", NOW, false);
	fixture_put(h, ".codex/archived_sessions/rollout-2026-11-01T00-00-00-aa.jsonl",
		    "{\"type\":\"session_meta\"}\n", NOW, false);
	/* Never listed: a link out of a root, a linked folder, a key, a
	 * file no pattern names. */
	fixture_put(h, "outside/x.jsonl", "{\"type\":\"user\"}\n", NOW, false);
	fixture_put(h, "outside/dir/y.jsonl", "{\"type\":\"user\"}\n", NOW, false);
	sh("mkdir '%s/.claude/projects/p' && ln -s ../../../outside/x.jsonl "
	   "'%s/.claude/projects/p/link.jsonl'",
	   h, h);
	sh("ln -s '%s/outside/dir' '%s/.claude/projects/linked'", h, h);
	fixture_put(h, ".claude/sessions/1.abc.key", "secret", NOW, false);
	fixture_put(h, ".claude/history.jsonl", "{\"display\":\"x\"}\n", NOW, false);
	/* A sub-agent where Claude Code before 2.1 put it, beside its
	 * session. */
	fixture_put(h, ".claude/projects/p/agent-a1.jsonl", "{\"type\":\"user\"}\n", NOW, false);
	fixture_put(h, ".codex/sessions/2026/11/27/notes.jsonl", "{}\n", NOW, false);
	return h;
}

/* A fleet of every store of the environment, sl (or none) its liveness. */
static struct fleet *
stores_fleet(struct store_live *sl)
{
	struct fleet *f = fleet_new(0, -1);
	struct buf root = {0};

	for (int s = 0; s < SRC_KEPT; s++) {
		buf_reset(&root);
		if (store_root((enum store_source)s, &root))
			fleet_add_store(f, root.p, store_patterns((enum store_source)s),
					(enum store_source)s);
	}
	fleet_set_live(f, sl);
	buf_free(&root);
	return f;
}

static int
by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files listed, relative to home, sorted, one a line. */
static const char *
files(const struct fleet *f, const char *home)
{
	static struct buf out;
	size_t n = fleet_nfiles(f), hl = strlen(home);
	const char **v = calloc(n + 1, sizeof *v);

	for (size_t i = 0; i < n; i++) {
		v[i] = fleet_file_path(f, i);
		assert_memory_equal(v[i], home, hl);
		v[i] += hl + 1;
	}
	qsort(v, n, sizeof *v, by_str);
	buf_reset(&out);
	buf_adds(&out, "");
	for (size_t i = 0; i < n; i++)
		buf_addf(&out, "%s\n", v[i]);
	free(v);
	return out.p;
}

static const char *const every_store =
	".claude/projects/-tmp-agentview-agents-r05jDS-claude-store-subagents-work/" CLAUDE_SID
	".jsonl\n"
	".codex/archived_sessions/rollout-2026-11-01T00-00-00-aa.jsonl\n"
	".codex/sessions/2026/11/27/"
	"rollout-2026-11-27T09-34-16-01a21c5b-04a2-7b62-883f-9c911c27d596.jsonl\n"
	".copilot/session-state/f6d1b9c1-0ea3-4b2b-9d5c-9c2b1b3bd7d4/events.jsonl\n"
	".cursor/projects/home-dev-x/agent-transcripts/c1/c1.jsonl\n"
	".gemini/tmp/work/chats/session-2026-11-27T09-33-e18d5f61.jsonl\n";

/* The Copilot snapshot's session id, which the expected list names. */
static void
copilot_sid(char *dst, size_t cap)
{
	FILE *p = popen("ls tests/stores/copilot/headless/done/session-state", "r");

	assert_non_null(p);
	assert_non_null(fgets(dst, (int)cap, p));
	dst[strcspn(dst, "\n")] = '\0';
	pclose(p);
}

/* The expected list with the Copilot snapshot's id. */
static const char *
expected(void)
{
	static char out[2048];
	char sid[128];
	const char *at = strstr(every_store, "f6d1b9c1");

	copilot_sid(sid, sizeof sid);
	snprintf(out, sizeof out, "%.*s%s%s", (int)(at - every_store), every_store, sid,
		 at + strlen("f6d1b9c1-0ea3-4b2b-9d5c-9c2b1b3bd7d4"));
	return out;
}

static void
test_discovery(void **state)
{
	char *h = make_home();
	struct fleet *f;

	(void)state;
	env_home(h);
	f = stores_fleet(NULL);
	fleet_update(f, NOW, 0);
	assert_string_equal(files(f, h), expected());
	/* One row a session. */
	assert_int_equal(fleet_nrows(f), 6);
	fleet_free(f);
	fixture_rmtree(h);
}

/* A session, a project, a day made after the first look: listed. */
static void
test_discovery_live(void **state)
{
	char *h = make_home();
	struct fleet *f;

	(void)state;
	env_home(h);
	f = stores_fleet(NULL);
	fleet_update(f, NOW, 0);
	sh("mkdir -p '%s/.copilot/session-state/new1' '%s/.codex/sessions/2026/11/28'", h, h);
	fixture_put(h, ".copilot/session-state/new1/events.jsonl",
		    "{\"type\":\"session.start\",\"data\":{\"sessionId\":\"new1\"}}\n", NOW, false);
	fixture_put(h, ".codex/sessions/2026/11/28/rollout-2026-11-28T00-00-00-bb.jsonl",
		    "{\"type\":\"session_meta\"}\n", NOW, false);
	sh("mkdir -p '%s/.claude/projects/-new' && echo '{}' >'%s/.claude/projects/-new/s2.jsonl'",
	   h, h);
	fleet_update(f, NOW + 100, 0);
	assert_non_null(strstr(files(f, h), ".copilot/session-state/new1/events.jsonl\n"));
	assert_non_null(strstr(
		files(f, h), ".codex/sessions/2026/11/28/rollout-2026-11-28T00-00-00-bb.jsonl\n"));
	assert_non_null(strstr(files(f, h), ".claude/projects/-new/s2.jsonl\n"));
	assert_int_equal(fleet_nfiles(f), 9);
	fleet_free(f);
	fixture_rmtree(h);
}

/* Each root's variable, and a root that is not there. */
static void
test_roots(void **state)
{
	char *h = fixture_tmpdir("store");
	struct buf b = {0}, want = {0};
	struct fleet *f;

	(void)state;
	env_home(h);
	for (int s = 0; s < SRC_KEPT; s++) {
		static const char *const dflt[] = {".claude", ".codex", ".gemini", ".copilot",
						   ".cursor"};

		buf_reset(&b);
		buf_reset(&want);
		assert_true(store_root((enum store_source)s, &b));
		buf_addf(&want, "%s/%s", h, dflt[s]);
		assert_string_equal(b.p, want.p);
	}
	setenv("CLAUDE_CONFIG_DIR", "/c", 1);
	setenv("CODEX_HOME", "/x", 1);
	setenv("GEMINI_CLI_HOME", "/g", 1);
	setenv("COPILOT_HOME", "/p", 1);
	const char *const with[] = {"/c", "/x", "/g/.gemini", "/p"};
	for (int s = 0; s < SRC_CURSOR; s++) {
		buf_reset(&b);
		assert_true(store_root((enum store_source)s, &b));
		assert_string_equal(b.p, with[s]);
	}
	/* The snapshots themselves as roots. */
	setenv("CLAUDE_CONFIG_DIR", "tests/stores/claude/ask/done", 1);
	setenv("CODEX_HOME", "tests/stores/codex/ask/done", 1);
	setenv("GEMINI_CLI_HOME", "tests/stores/gemini/ask/done", 1);
	setenv("COPILOT_HOME", "tests/stores/copilot/ask/done", 1);
	f = stores_fleet(NULL);
	fleet_update(f, NOW, 0);
	assert_int_equal(fleet_nfiles(f), 4);
	assert_int_equal(fleet_nrows(f), 4);
	fleet_free(f);
	/* No HOME: no root but the variables'. */
	unsetenv("HOME");
	buf_reset(&b);
	assert_false(store_root(SRC_CURSOR, &b));
	env_home(h);
	/* Where it looked: each root, there or not. */
	sh("mkdir '%s/.codex'", h);
	buf_reset(&b);
	store_looked(STORE_ALL, "/k", h, &b);
	assert_string_equal(b.p, "  claude  ~/.claude  (not there)\n"
				 "  codex   ~/.codex  (there)\n"
				 "  gemini  ~/.gemini  (not there)\n"
				 "  copilot ~/.copilot  (not there)\n"
				 "  cursor  ~/.cursor  (not there)\n"
				 "  kept    /k  (not there)\n");
	buf_free(&b);
	buf_free(&want);
	fixture_rmtree(h);
}

static void
test_sources(void **state)
{
	struct buf err = {0};
	unsigned m;

	(void)state;
	assert_int_equal(store_sources(NULL, &m, &err), 0);
	assert_int_equal(m, STORE_ALL);
	assert_int_equal(store_sources("", &m, &err), 0);
	assert_int_equal(m, STORE_ALL);
	assert_int_equal(store_sources("all", &m, &err), 0);
	assert_int_equal(m, STORE_ALL);
	assert_int_equal(store_sources("claude, codex", &m, &err), 0);
	assert_int_equal(m, (1u << SRC_CLAUDE) | (1u << SRC_CODEX));
	assert_int_equal(store_sources("kept,,cursor,", &m, &err), 0);
	assert_int_equal(m, (1u << SRC_KEPT) | (1u << SRC_CURSOR));
	assert_int_equal(store_sources("copilot,gemini", &m, &err), 0);
	assert_int_equal(m, (1u << SRC_COPILOT) | (1u << SRC_GEMINI));
	assert_int_equal(err.n, 0);
	assert_int_equal(store_sources("claude,clau\x1b", &m, &err), -1);
	assert_string_equal(err.p, "no source \"clau?\" (the sources: claude, codex, gemini, "
				   "copilot, cursor, kept)");
	/* --sources before AGENTVIEW_SOURCES. */
	setenv("AGENTVIEW_SOURCES", "codex", 1);
	assert_int_equal(store_sources_chosen(NULL, &m, &err), 0);
	assert_int_equal(m, 1u << SRC_CODEX);
	assert_int_equal(store_sources_chosen("kept", &m, &err), 0);
	assert_int_equal(m, 1u << SRC_KEPT);
	unsetenv("AGENTVIEW_SOURCES");
	buf_free(&err);
}

/* --- liveness ----------------------------------------------------------------- */

/* root/sessions/<pid>.json of a Claude session. */
static void
claude_registry(const char *root, long pid, const char *sid, const char *start, const char *status)
{
	char name[64], text[512];

	snprintf(name, sizeof name, "sessions/%ld.json", pid);
	snprintf(text, sizeof text,
		 "{\"pid\":%ld,\"sessionId\":\"%s\",\"procStart\":\"%s\",\"status\":\"%s\","
		 "\"waitingFor\":\"permission prompt\"}",
		 pid, sid, start, status);
	fixture_put(root, name, text, NOW, false);
}

static void
test_claude_live(void **state)
{
	char *h = fixture_tmpdir("store");
	struct store_live *sl;
	struct buf why = {0}, root = {0};
	const char *path = "/x/projects/p/" CLAUDE_SID ".jsonl";

	(void)state;
	env_home(h);
	buf_addf(&root, "%s/.claude", h);
	/* No sessions/ folder (older versions): nothing known. */
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW, NULL), SL_UNKNOWN);
	store_live_free(sl);
	/* The folder, without this session: its process is gone. */
	sh("mkdir -p '%s/.claude/sessions'", h);
	claude_registry(root.p, 300, "other", "5", "busy");
	proc_add(300, 5, NULL, 0, NULL);
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW, NULL), SL_GONE);
	store_live_free(sl);
	/* Waiting, while its pid lives with the start time it records. */
	claude_registry(root.p, 301, CLAUDE_SID, "216291", "waiting");
	proc_add(301, 216291, NULL, 0, NULL);
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW, &why), SL_WAITING);
	assert_string_equal(why.p, "permission prompt");
	store_live_free(sl);
	/* What it waits for, decoded from its JSON (its escapes are not
	 * words; the list sanitizes what it shows), cut whole. */
	fixture_put(
		root.p, "sessions/301.json",
		"{\"pid\":301,\"sessionId\":\"" CLAUDE_SID "\",\"procStart\":\"216291\","
		"\"status\":\"waiting\",\"waitingFor\":\"\\u001b[31mBash \\\"rmx\\\" "
		"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
		"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\"}",
		NOW, false);
	buf_reset(&why);
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW, &why), SL_WAITING);
	assert_string_equal(why.p,
			    "\x1b[31mBash \"rmx\" "
			    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	store_live_free(sl);
	claude_registry(root.p, 301, CLAUDE_SID, "216291", "waiting");
	/* The pid reused by another process: a crash's file, not trusted. */
	procs[1].start = 216292;
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW, NULL), SL_GONE);
	/* Read again only after a second of the clock given. */
	procs[1].start = 216291;
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW + 999, NULL), SL_GONE);
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW + 1000, NULL), SL_WAITING);
	claude_registry(root.p, 301, CLAUDE_SID, "216291", "busy");
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW + 2000, NULL), SL_RUNNING);
	claude_registry(root.p, 301, CLAUDE_SID, "216291", "idle");
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW + 3000, NULL), SL_IDLE);
	/* The process gone. */
	nprocs = 1;
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW + 4000, NULL), SL_GONE);
	store_live_free(sl);
	/* A fifo named as a session's file is not waited on (this would
	 * hang). */
	sh("mkfifo '%s/.claude/sessions/303.json'", h);
	proc_add(303, 1, NULL, 0, NULL);
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW, NULL), SL_GONE);
	store_live_free(sl);
	sh("rm '%s/.claude/sessions/303.json'", h);
	/* A key file is never read, even one that reads as a live session. */
	sh("rm -f '%s/.claude/sessions/'*.json", h);
	fixture_put(root.p, "sessions/302.abc.key",
		    "{\"pid\":302,\"sessionId\":\"" CLAUDE_SID "\",\"status\":\"busy\"}", NOW,
		    false);
	proc_add(302, 1, NULL, 0, NULL);
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW, NULL), SL_GONE);
	store_live_free(sl);
	buf_free(&why);
	buf_free(&root);
	fixture_rmtree(h);
}

/* A session's file is read only while its pid lives: of a folder of the
 * files crashes left, only the live one; and at most 1024 a scan. */
static void
test_claude_live_bounded(void **state)
{
	char *h = fixture_tmpdir("store");
	struct store_live *sl;
	struct buf root = {0};
	const char *path = "/x/projects/p/" CLAUDE_SID ".jsonl";

	(void)state;
	env_home(h);
	buf_addf(&root, "%s/.claude", h);
	sh("mkdir -p '%s/.claude/sessions'", h);
	for (long pid = 2000; pid < 4000; pid++)
		claude_registry(root.p, pid, "gone", "5", "busy");
	claude_registry(root.p, 301, CLAUDE_SID, "216291", "waiting");
	proc_add(301, 216291, NULL, 0, NULL);
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW, NULL), SL_WAITING);
	assert_int_equal(store_live_claude_reads(sl), 1);
	/* More live pids than a scan reads. */
	for (long pid = 2000; pid < 3100; pid++)
		proc_add(pid, 5, NULL, 0, NULL);
	(void)store_live(sl, SRC_CLAUDE, path, NOW + 1000, NULL);
	assert_int_equal(store_live_claude_reads(sl), 1024);
	store_live_free(sl);
	/* Processes that are not listed (a remote's): each file's pid asked
	 * for, the live one's read. */
	nprocs = 1;
	sl = store_live_new(&unlisted);
	assert_int_equal(store_live(sl, SRC_CLAUDE, path, NOW, NULL), SL_WAITING);
	assert_int_equal(store_live_claude_reads(sl), 1);
	store_live_free(sl);
	buf_free(&root);
	fixture_rmtree(h);
}

static void
test_copilot_live(void **state)
{
	char *h = fixture_tmpdir("store");
	struct store_live *sl = store_live_new(&fake);
	struct buf path = {0};

	(void)state;
	env_home(h);
	buf_addf(&path, "%s/s1/events.jsonl", h);
	sh("mkdir '%s/s1'", h);
	fixture_put(h, "s1/events.jsonl", "{}\n", NOW, false);
	assert_int_equal(store_live(sl, SRC_COPILOT, path.p, NOW, NULL), SL_GONE);
	/* A lock a crash left: its pid is gone. */
	fixture_put(h, "s1/inuse.400.lock", "400", NOW, false);
	assert_int_equal(store_live(sl, SRC_COPILOT, path.p, NOW, NULL), SL_GONE);
	proc_add(400, 1, NULL, 0, NULL);
	assert_int_equal(store_live(sl, SRC_COPILOT, path.p, NOW, NULL), SL_RUNNING);
	/* A lock that holds another pid than its name's, or none, is none. */
	fixture_put(h, "s1/inuse.400.lock", "1", NOW, false);
	assert_int_equal(store_live(sl, SRC_COPILOT, path.p, NOW, NULL), SL_GONE);
	fixture_put(h, "s1/inuse.400.lock", "", NOW, false);
	assert_int_equal(store_live(sl, SRC_COPILOT, path.p, NOW, NULL), SL_GONE);
	fixture_put(h, "s1/inuse.400.lock", "400\n", NOW, false);
	assert_int_equal(store_live(sl, SRC_COPILOT, path.p, NOW, NULL), SL_RUNNING);
	/* Its .hold, and names that are no lock, hold nothing. */
	sh("mv '%s/s1/inuse.400.lock' '%s/s1/inuse.400.hold'", h, h);
	fixture_put(h, "s1/inuse.0400.lock", "400", NOW, false);
	fixture_put(h, "s1/inuse..lock", "400", NOW, false);
	assert_int_equal(store_live(sl, SRC_COPILOT, path.p, NOW, NULL), SL_GONE);
	/* The old bare layout has no lock beside it. */
	assert_int_equal(store_live(sl, SRC_COPILOT, "/x/session-state/s.jsonl", NOW, NULL),
			 SL_UNKNOWN);
	store_live_free(sl);
	buf_free(&path);
	fixture_rmtree(h);
}

/* Codex: its thread's newest turn in thread_history_1.sqlite (the real
 * snapshot's, read from a copy): in progress while a codex process lives,
 * running; closed, not; no codex process, none; a thread the index does
 * not have, or no index, nothing known. */
static void
test_codex_live(void **state)
{
	char *h = fixture_tmpdir("store");
	struct store_live *sl;
	struct buf path = {0}, root = {0}, wal = {0};
	char *name;
	size_t n;
	static const char codex[] =
		"/usr/bin/node\0/usr/lib/node_modules/@openai/codex/bin/codex.js\0";

	(void)state;
	env_home(h);
	buf_addf(&root, "%s/.codex", h);
	sh("cp -R tests/stores/codex/headless/running '%s'", root.p);
	buf_addf(&path,
		 "%s/sessions/2026/11/27/"
		 "rollout-2026-11-27T09-34-16-01a21c5b-04a2-7b62-883f-9c911c27d596.jsonl",
		 root.p);
	/* No codex process: the index is not opened, and none has it. */
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CODEX, path.p, NOW, NULL), SL_GONE);
	store_live_free(sl);
	proc_add(900, 1, codex, sizeof codex, "/home/dev");
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CODEX, path.p, NOW, NULL), SL_RUNNING);
	assert_int_equal(store_live(sl, SRC_CODEX,
				    "/x/rollout-2026-11-27T09-34-16-"
				    "01a21c5b-0000-0000-0000-000000000000.jsonl",
				    NOW, NULL),
			 SL_UNKNOWN);
	store_live_free(sl);
	/* A codex process of another home (a test's, another CODEX_HOME)
	 * does not have this store's sessions; one whose CODEX_HOME, or
	 * HOME, is this store's does. */
	static const char elsewhere[] =
		"PATH=/bin\0CODEX_HOME=/tmp/other-codex\0HOME=/nonexistent\0";
	procs[nprocs - 1].env = elsewhere;
	procs[nprocs - 1].envn = sizeof elsewhere;
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CODEX, path.p, NOW, NULL), SL_GONE);
	store_live_free(sl);
	struct buf env = {0};
	buf_addf(&env, "PATH=/bin%cHOME=%s/%c", '\0', h, '\0');
	procs[nprocs - 1].env = env.p;
	procs[nprocs - 1].envn = env.n;
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CODEX, path.p, NOW, NULL), SL_RUNNING);
	store_live_free(sl);
	setenv("CODEX_HOME", root.p, 1);
	buf_reset(&env);
	buf_addf(&env, "CODEX_HOME=%s%cHOME=/nonexistent%c", root.p, '\0', '\0');
	procs[nprocs - 1].env = env.p;
	procs[nprocs - 1].envn = env.n;
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CODEX, path.p, NOW, NULL), SL_RUNNING);
	store_live_free(sl);
	unsetenv("CODEX_HOME");
	/* A remote's root (store_live_codex_far): a process's home compared
	 * by its name ('/' doubled or at the end alike), and the index at
	 * that path here never read (the one there is not this one): a
	 * codex of that root leaves it to the file's age, one of another
	 * root has it not, nor does an unreadable environment. */
	static const char *const far[] = {"//", "/"};
	for (size_t i = 0; i <= ARRAY_LEN(far); i++) {
		buf_reset(&env);
		if (i < ARRAY_LEN(far))
			buf_addf(&env, "CODEX_HOME=%s%s%cHOME=/nonexistent%c", root.p, far[i], '\0',
				 '\0');
		else
			buf_addf(&env, "CODEX_HOME=/tmp/other-codex%cHOME=%s%c", '\0', h, '\0');
		procs[nprocs - 1].env = env.p;
		procs[nprocs - 1].envn = env.n;
		sl = store_live_new_at(&fake, NULL);
		store_live_codex_far(sl, root.p);
		assert_int_equal(store_live(sl, SRC_CODEX, path.p, NOW, NULL),
				 i < ARRAY_LEN(far) ? SL_UNKNOWN : SL_GONE);
		store_live_free(sl);
	}
	buf_reset(&env);
	buf_addf(&env, "CODEX_HOME=%cHOME=%s/%c", '\0', h, '\0');
	procs[nprocs - 1].env = env.p;
	procs[nprocs - 1].envn = env.n;
	sl = store_live_new_at(&fake, NULL);
	store_live_codex_far(sl, root.p);
	assert_int_equal(store_live(sl, SRC_CODEX, path.p, NOW, NULL), SL_UNKNOWN);
	store_live_codex_far(sl, "/elsewhere/.codex");
	assert_int_equal(store_live(sl, SRC_CODEX, path.p, NOW, NULL), SL_GONE);
	store_live_free(sl);
	procs[nprocs - 1].env = NULL;
	buf_free(&env);
	/* The turn closed: the failed run's index, and its rollout's name. */
	sh("rm '%s'/thread_history_1.sqlite* && cp tests/stores/codex/failed/done/thread_history_1.sqlite* "
	   "'%s' && cd tests/stores/codex/failed/done && printf '%%s' sessions/*/*/*/rollout-*.jsonl "
	   ">'%s/name'",
	   root.p, root.p, h);
	buf_reset(&path);
	buf_addf(&path, "%s/name", h);
	name = fixture_slurp(path.p, &n);
	buf_reset(&path);
	buf_addf(&path, "%s/%s", root.p, name);
	free(name);
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CODEX, path.p, NOW, NULL), SL_IDLE);
	store_live_free(sl);
	/* No -wal beside it (its writer closed it): not opened, nothing made
	 * beside it; no index at all, the same. */
	sh("rm '%s'/thread_history_1.sqlite-wal", root.p);
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CODEX, path.p, NOW, NULL), SL_UNKNOWN);
	store_live_free(sl);
	buf_addf(&wal, "%s/thread_history_1.sqlite-wal", root.p);
	assert_int_equal(access(wal.p, F_OK), -1);
	sh("rm '%s'/thread_history_1.sqlite*", root.p);
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CODEX, path.p, NOW, NULL), SL_UNKNOWN);
	store_live_free(sl);
	buf_free(&path);
	buf_free(&root);
	buf_free(&wal);
	fixture_rmtree(h);
}

static void
test_gemini_live(void **state)
{
	char *h = fixture_tmpdir("store");
	struct store_live *sl;
	struct buf path = {0};
	static const char node[] = "node\0/usr/lib/node_modules/@google/gemini-cli/dist/index.js\0";
	static const char bin[] = "/usr/local/bin/gemini\0-p\0hi\0";
	static const char other[] = "vim\0gemini.txt\0";

	(void)state;
	env_home(h);
	buf_addf(&path, "%s/tmp/work/chats/session-1.jsonl", h);
	sh("mkdir -p '%s/tmp/work/chats'", h);
	fixture_put(h, "tmp/work/chats/session-1.jsonl", "{}\n", NOW, false);
	/* No .project_root: nothing known. */
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_GEMINI, path.p, NOW, NULL), SL_UNKNOWN);
	fixture_put(h, "tmp/work/.project_root", "/home/dev/work\n", NOW, false);
	/* Another program in the folder, gemini in another: no process. */
	proc_add(500, 1, other, sizeof other, "/home/dev/work");
	proc_add(501, 1, bin, sizeof bin, "/home/dev/else");
	assert_int_equal(store_live(sl, SRC_GEMINI, path.p, NOW, NULL), SL_GONE);
	store_live_free(sl);
	/* gemini run by node in the project: a guess. */
	proc_add(502, 1, node, sizeof node, "/home/dev/work");
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_GEMINI, path.p, NOW, NULL), SL_GUESS);
	procs[2].cwd = "/home/dev";
	procs[1].cwd = "/home/dev/work";
	assert_int_equal(store_live(sl, SRC_GEMINI, path.p, NOW + 1000, NULL), SL_GUESS);
	nprocs = 1;
	assert_int_equal(store_live(sl, SRC_GEMINI, path.p, NOW + 2000, NULL), SL_GONE);
	store_live_free(sl);
	buf_free(&path);
	fixture_rmtree(h);
}

/* The processes that count: one of the names (comm) store_proc_name
 * says, whose argv then runs the CLI; a process is of one CLI, the first
 * it runs (codex). A remote's program looks at the same ones
 * (test_remote, run_remote.sh). */
static void
test_proc_names(void **state)
{
	char *h = fixture_tmpdir("store");
	struct store_live *sl;
	struct buf root = {0}, env = {0}, path = {0};
	/* Codex's npm package: node runs its script, which starts its
	 * binary (named codex); sleep run as "codex" (exec -a) is not. */
	static const char wrapper[] =
		"/usr/bin/node\0/usr/lib/node_modules/@openai/codex/bin/codex.js\0";
	static const char native[] = "/usr/lib/node_modules/@openai/codex/node_modules/@openai/"
				     "codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex\0";
	static const char renamed[] = "codex\0"
				      "300\0";
	static const char app[] = "/usr/bin/node\0/srv/app.js\0";
	static const char gem[] = "/usr/bin/node\0/usr/local/bin/gemini\0";
	static const char both[] = "codex\0gemini\0";
	/* (a gemini in the project: of gemini; one whose argv runs codex
	 * first is codex's alone; one under another name, nobody's) */
	static const struct {
		enum store_source s;
		const char *argv;
		size_t argn;
		const char *comm;
		enum store_liveness want;
	} cases[] = {
		{SRC_CODEX, wrapper, sizeof wrapper, NULL, SL_UNKNOWN},
		{SRC_CODEX, native, sizeof native, NULL, SL_UNKNOWN},
		{SRC_CODEX, wrapper, sizeof wrapper, "nodejs", SL_UNKNOWN},
		{SRC_CODEX, renamed, sizeof renamed, "codex", SL_UNKNOWN},
		{SRC_CODEX, renamed, sizeof renamed, "sleep", SL_GONE},
		{SRC_CODEX, app, sizeof app, NULL, SL_GONE},
		{SRC_GEMINI, gem, sizeof gem, NULL, SL_GUESS},
		{SRC_GEMINI, gem, sizeof gem, "sleep", SL_GONE},
		{SRC_GEMINI, both, sizeof both, NULL, SL_GONE},
	};

	(void)state;
	env_home(h);
	buf_addf(&root, "%s/.codex", h);
	buf_addf(&env, "HOME=%s%c", h, '\0');
	buf_addf(&path, "%s/g/tmp/work/chats/session-1.jsonl", h);
	sh("mkdir -p '%s/g/tmp/work/chats'", h);
	fixture_put(h, "g/tmp/work/chats/session-1.jsonl", "{}\n", NOW, false);
	fixture_put(h, "g/tmp/work/.project_root", "/home/dev/work", NOW, false);
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		nprocs = 0;
		proc_add(900, 1, cases[i].argv, cases[i].argn, "/home/dev/work");
		procs[0].comm = cases[i].comm;
		procs[0].env = env.p;
		procs[0].envn = env.n;
		sl = store_live_new_at(&fake, NULL);
		store_live_codex_far(sl, root.p);
		if (store_live(sl, cases[i].s,
			       cases[i].s == SRC_CODEX ? "/x/rollout-a.jsonl" : path.p, NOW,
			       NULL) != cases[i].want)
			fail_msg("case %zu: not %d", i, cases[i].want);
		store_live_free(sl);
	}
	nprocs = 0;
	buf_free(&root);
	buf_free(&env);
	buf_free(&path);
	fixture_rmtree(h);
}

/* Cursor Agent records no process: a cursor-agent process whose folder
 * is the project (its path dashed, as the transcripts' folder names it)
 * is a guess; none in it, or none at all, no process. */
static void
test_cursor_live(void **state)
{
	char *h = fixture_tmpdir("store");
	struct store_live *sl;
	struct buf path = {0};
	static const char bin[] = "/home/u/.local/bin/cursor-agent\0-p\0hi\0";
	static const char node[] = "/home/u/.local/share/cursor-agent/versions/1/node\0"
				   "/home/u/.local/share/cursor-agent/versions/1/index.js\0";
	static const char other[] = "vim\0cursor-agent.txt\0";

	(void)state;
	env_home(h);
	nprocs = 0;
	buf_addf(&path, "%s/.cursor/projects/home-u-my-proj/agent-transcripts/s/s.jsonl", h);
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CURSOR, path.p, NOW, NULL), SL_GONE);
	store_live_free(sl);
	/* Another program in the folder, cursor-agent in another. */
	proc_add(600, 1, other, sizeof other, "/home/u/my.proj");
	proc_add(601, 1, bin, sizeof bin, "/home/u/else");
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CURSOR, path.p, NOW, NULL), SL_GONE);
	store_live_free(sl);
	/* In the project (its punctuation made dashes), run as its binary
	 * or by its own node. */
	procs[1].cwd = "/home/u/my.proj";
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CURSOR, path.p, NOW, NULL), SL_GUESS);
	store_live_free(sl);
	procs[1].argv = node;
	procs[1].argn = sizeof node;
	sl = store_live_new(&fake);
	assert_int_equal(store_live(sl, SRC_CURSOR, path.p, NOW, NULL), SL_GUESS);
	/* Gone. */
	nprocs = 0;
	assert_int_equal(store_live(sl, SRC_CURSOR, path.p, NOW + 1000, NULL), SL_GONE);
	store_live_free(sl);
	buf_free(&path);
	fixture_rmtree(h);
}

/* Set the file's times to ms. */
static void
stamp(const char *path, int64_t ms)
{
	struct timespec ts[2];

	ts[0].tv_sec = ts[1].tv_sec = (time_t)(ms / 1000);
	ts[0].tv_nsec = ts[1].tv_nsec = (long)(ms % 1000) * 1000000;
	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* The rows' states in the list's order, one word a row. */
static const char *
states(struct fleet *f, int64_t now)
{
	static char out[256];
	uint32_t v[16];
	size_t n = fleet_rows(f, FSORT_ATTENTION, NULL, now, v, 16);

	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", i ? " " : "",
			 fleet_state_name((enum fleet_state)fleet_row(f, v[i])->state));
	return out;
}

/* The list's rows of a store follow its liveness: a file written a moment
 * ago whose process is gone is not running; one whose process waits is
 * waiting however long it has been quiet. */
static void
test_fleet_live(void **state)
{
	char *h = fixture_tmpdir("store");
	struct buf root = {0}, file = {0}, cell = {0};
	struct fleet *f;

	(void)state;
	env_home(h);
	buf_addf(&root, "%s/.claude", h);
	buf_addf(&file, "%s/projects/p/%s.jsonl", root.p, CLAUDE_SID);
	sh("mkdir -p '%s/.claude/sessions' '%s/.claude/projects/p'", h, h);
	sh("cp tests/stores/claude/ask/waiting/projects/*/*.jsonl '%s'", file.p);
	stamp(file.p, NOW);
	f = stores_fleet(store_live_new(&fake));
	fleet_update(f, NOW + 1000, 0);
	assert_int_equal(fleet_nrows(f), 1);
	assert_string_equal(states(f, NOW + 1000), "incomplete");
	fleet_free(f);
	/* Its process, waiting at a permission prompt, minutes later. */
	claude_registry(root.p, 301, CLAUDE_SID, "7", "waiting");
	proc_add(301, 7, NULL, 0, NULL);
	f = stores_fleet(store_live_new(&fake));
	fleet_update(f, NOW + 600000, 0);
	assert_string_equal(states(f, NOW + 600000), "waiting");
	/* What it waits for, in its store's words. */
	fleet_cell(f, 0, FC_NOW, NOW + 600000, &cell);
	assert_string_equal(cell.p, "waits: permission prompt");
	/* Its agent, not the store's adapter. */
	buf_reset(&cell);
	fleet_cell(f, 0, FC_AGENT, NOW + 600000, &cell);
	assert_string_equal(cell.p, "claude");
	/* Looked at again within a second, then the process ends. */
	assert_true(fleet_timeout(f, NOW + 600000, false) <= 1000);
	nprocs = 0;
	fleet_update(f, NOW + 601000, 0);
	assert_string_equal(states(f, NOW + 601000), "incomplete");
	buf_reset(&cell);
	fleet_cell(f, 0, FC_NOW, NOW + 601000, &cell);
	assert_string_equal(cell.p, "no result");
	fleet_free(f);
	buf_free(&root);
	buf_free(&file);
	buf_free(&cell);
	fixture_rmtree(h);
}

/* The state cell of each row, in the order its files were found (the
 * stores', Codex's before Gemini's, then the kept folder's). */
static const char *
cells(struct fleet *f, int64_t now)
{
	static struct buf out;
	struct buf c = {0};

	buf_reset(&out);
	buf_adds(&out, "");
	for (size_t i = 0; i < fleet_nfiles(f); i++)
		for (uint32_t r = 0; r < fleet_nrows(f); r++) {
			if (strcmp(fleet_path(f, r), fleet_file_path(f, i)) != 0)
				continue;
			buf_reset(&c);
			fleet_cell(f, r, FC_STATE, now, &c);
			buf_addf(&out, "%s%s", out.n ? "|" : "", c.p);
		}
	buf_free(&c);
	return out.p;
}

/* A store's session running by its file's age only is a guess, said so;
 * Gemini's by a gemini process in its project too; a kept file's is not
 * a store's (its writer's lock, or its age, as before). */
static void
test_guess(void **state)
{
	char *h = fixture_tmpdir("store");
	static const char bin[] = "gemini\0", cx[] = "codex\0";
	struct buf err = {0}, kept = {0};
	struct fleet *f;

	(void)state;
	env_home(h);
	sh("mkdir -p '%s/.gemini/tmp/w/chats' '%s/.codex/sessions/2026/11/27' '%s/kept'", h, h, h);
	fixture_put(h, ".gemini/tmp/w/.project_root", "/home/dev/w\n", NOW, false);
	fixture_put(h, ".gemini/tmp/w/chats/session-1.jsonl", INIT_LINE ASK_LINE, NOW, false);
	fixture_put(h, ".codex/sessions/2026/11/27/rollout-1.jsonl", INIT_LINE ASK_LINE, NOW,
		    false);
	fixture_put(h, "kept/a.ndjson", INIT_LINE ASK_LINE, NOW, false);
	buf_addf(&kept, "%s/kept", h);
	proc_add(600, 1, bin, sizeof bin, "/home/dev/w");
	/* A codex process whose index this store has not: its age decides. */
	proc_add(601, 1, cx, sizeof cx, "/home/dev");
	f = stores_fleet(store_live_new(&fake));
	assert_int_equal(fleet_add(f, kept.p, &err), 0);
	fleet_update(f, NOW + 1000, 0);
	assert_string_equal(cells(f, NOW + 1000), "● running?|● running?|● running");
	/* The gemini and codex processes gone: over, however fresh their
	 * files. */
	nprocs = 0;
	fleet_update(f, NOW + 2000, 0);
	assert_string_equal(cells(f, NOW + 2000), "◌ incomplete|◌ incomplete|● running");
	fleet_free(f);
	buf_free(&err);
	buf_free(&kept);
	fixture_rmtree(h);
}

/* HOME with the snapshot tests/stores/AGENT/KIND/SNAP as AGENT's store
 * (its files stamped NOW), and a fleet of it over the fake /proc. */
static struct fleet *
snapshot_fleet(const char *h, const char *agent, const char *kind, const char *snap)
{
	sh("rm -rf '%s/.claude' '%s/.codex' '%s/.copilot' '%s/.gemini'", h, h, h, h);
	if (strcmp(agent, "gemini") == 0)
		sh("cp -R tests/stores/gemini/%s/%s/.gemini '%s/.gemini'", kind, snap, h);
	else
		sh("cp -R tests/stores/%s/%s/%s '%s/.%s'", agent, kind, snap, h, agent);
	sh("find '%s' -type f -exec touch -d @%lld {} +", h, NOW / 1000);
	return stores_fleet(store_live_new(&fake));
}

/* A Copilot session whose process holds it (inuse.<pid>.lock) and asked
 * for a permission reads waiting, not running; once the process is gone,
 * over; after its shutdown, done. */
static void
test_copilot_fleet(void **state)
{
	char *h = fixture_tmpdir("store");
	struct fleet *f;

	(void)state;
	env_home(h);
	f = snapshot_fleet(h, "copilot", "ask", "waiting");
	sh("cd '%s'/.copilot/session-state/* && rm inuse.* && echo 700 >inuse.700.lock", h);
	nprocs = 0;
	proc_add(700, 1, NULL, 0, NULL);
	fleet_update(f, NOW + 1000, 0);
	assert_string_equal(states(f, NOW + 1000), "waiting");
	nprocs = 0;
	fleet_update(f, NOW + 2000, 0);
	assert_string_equal(states(f, NOW + 2000), "incomplete");
	fleet_free(f);
	f = snapshot_fleet(h, "copilot", "ask", "done");
	fleet_update(f, NOW + 1000, 0);
	assert_string_equal(states(f, NOW + 1000), "done");
	fleet_free(f);
	/* Held at its prompt, the model's reply last: not running, its turn
	 * done (as a Claude session its store says idle); a turn at work:
	 * running. */
	f = snapshot_fleet(h, "copilot", "tmux", "idle");
	sh("cd '%s'/.copilot/session-state/* && rm -f inuse.* && echo 700 >inuse.700.lock", h);
	proc_add(700, 1, NULL, 0, NULL);
	fleet_update(f, NOW + 1000, 0);
	assert_string_equal(states(f, NOW + 1000), "done");
	fleet_free(f);
	f = snapshot_fleet(h, "copilot", "tmux", "busy");
	sh("cd '%s'/.copilot/session-state/* && rm -f inuse.* && echo 700 >inuse.700.lock", h);
	fleet_update(f, NOW + 1000, 0);
	assert_string_equal(states(f, NOW + 1000), "running");
	nprocs = 0;
	fleet_free(f);
	fixture_rmtree(h);
}

/* A store's session whose last turn ended (the model's reply last, its
 * calls answered) reads done, whether its process is gone or sits idle at
 * its prompt; one that ended mid-turn (a call's result not yet answered)
 * stays incomplete once its process is gone; none reads running. The
 * snapshots the real CLIs wrote: each in tmux at its prompt (idle) and
 * with the reply held back (busy). */
static void
test_idle_done(void **state)
{
	static const char *const agents[] = {"claude", "codex", "copilot"};
	char *h = fixture_tmpdir("store");
	struct fleet *f;

	(void)state;
	env_home(h);
	nprocs = 0;
	for (size_t i = 0; i < ARRAY_LEN(agents); i++) {
		f = snapshot_fleet(h, agents[i], "tmux", "idle");
		fleet_update(f, NOW + 1000, 0);
		assert_string_equal(states(f, NOW + 1000), "done");
		fleet_free(f);
		f = snapshot_fleet(h, agents[i], "tmux", "busy");
		fleet_update(f, NOW + 1000, 0);
		assert_string_equal(states(f, NOW + 1000), "incomplete");
		fleet_free(f);
	}
	/* Claude Code at its prompt, its registry saying idle for the live
	 * process that wrote it: done, not over. */
	f = snapshot_fleet(h, "claude", "tmux", "idle");
	proc_add(22018, 952057, NULL, 0, NULL);
	fleet_update(f, NOW + 1000, 0);
	assert_string_equal(states(f, NOW + 1000), "done");
	nprocs = 0;
	fleet_free(f);
	fixture_rmtree(h);
}

/* A Copilot session whose events give neither its folder nor a prompt
 * takes them from its workspace.yaml; what its events give stays. */
static void
test_copilot_workspace(void **state)
{
	char *h = fixture_tmpdir("store");
	struct buf cell = {0};
	struct fleet *f;
	static const char start[] =
		"{\"type\":\"session.start\",\"data\":{\"sessionId\":\"s1\",\"version\":1,"
		"\"producer\":\"copilot-agent\",\"copilotVersion\":\"1.0.102\",\"selectedModel\":"
		"\"gpt-5.5\"},\"id\":\"e1\",\"timestamp\":\"2026-11-27T09:34:46.980Z\","
		"\"parentId\":null}\n";

	(void)state;
	env_home(h);
	sh("mkdir -p '%s/.copilot/session-state/s1'", h);
	fixture_put(h, ".copilot/session-state/s1/events.jsonl", start, NOW, false);
	fixture_put(h, ".copilot/session-state/s1/workspace.yaml",
		    "id: s1\ncwd: /home/dev/proj\nname: \"fix the flaky test\"\n", NOW, false);
	f = stores_fleet(store_live_new(&fake));
	fleet_update(f, NOW + 1000, 0);
	assert_int_equal(fleet_nrows(f), 1);
	fleet_cell(f, 0, FC_CWD, NOW + 1000, &cell);
	assert_string_equal(cell.p, "proj");
	buf_reset(&cell);
	fleet_cell(f, 0, FC_PROMPT, NOW + 1000, &cell);
	assert_string_equal(cell.p, "fix the flaky test");
	fleet_free(f);
	/* The events' own. */
	sh("rm -rf '%s/.copilot'", h);
	sh("cp -R tests/stores/copilot/headless/done '%s/.copilot'", h);
	sh("cd '%s'/.copilot/session-state/* && sed -i 's|^cwd: .*|cwd: /elsewhere|; "
	   "s|^name: .*|name: another|' workspace.yaml",
	   h);
	f = stores_fleet(store_live_new(&fake));
	fleet_update(f, NOW + 1000, 0);
	buf_reset(&cell);
	fleet_cell(f, 0, FC_CWD, NOW + 1000, &cell);
	assert_string_equal(cell.p, "work");
	buf_reset(&cell);
	fleet_cell(f, 0, FC_PROMPT, NOW + 1000, &cell);
	assert_non_null(strstr(cell.p, "Run the shell command"));
	fleet_free(f);
	buf_free(&cell);
	fixture_rmtree(h);
}

/* A Gemini chat has no end record: with no gemini process in its project,
 * one that ends with the model's reply is done, one that ends with tool
 * results the model never answered failed (its run died: STORES.md §3),
 * one that ends with an error record failed; a prompt with nothing after
 * it, over. With a gemini process there, its file's age decides. */
static void
test_gemini_end(void **state)
{
	char *h = fixture_tmpdir("store");
	static const char bin[] = "gemini\0";
	struct buf cell = {0};
	struct fleet *f;
	char *root;
	size_t n;

	(void)state;
	env_home(h);
	nprocs = 0;
	f = snapshot_fleet(h, "gemini", "headless", "done");
	fleet_update(f, NOW + 1000, 0);
	assert_string_equal(states(f, NOW + 1000), "done");
	fleet_free(f);
	f = snapshot_fleet(h, "gemini", "failed", "done");
	fleet_update(f, NOW + 1000, 0);
	assert_string_equal(states(f, NOW + 1000), "failed");
	fleet_cell(f, 0, FC_NOW, NOW + 1000, &cell);
	assert_non_null(strstr(cell.p, "tool results"));
	fleet_free(f);
	/* An error record last. */
	f = snapshot_fleet(h, "gemini", "headless", "done");
	sh("for c in '%s'/.gemini/tmp/work/chats/session-*.jsonl; do echo '{\"id\":\"e1\","
	   "\"timestamp\":\"2026-11-27T09:33:52.000Z\",\"type\":\"error\","
	   "\"content\":\"quota exceeded\"}' >>\"$c\"; done",
	   h);
	fleet_update(f, NOW + 1000, 0);
	assert_string_equal(states(f, NOW + 1000), "failed");
	buf_reset(&cell);
	fleet_cell(f, 0, FC_NOW, NOW + 1000, &cell);
	assert_non_null(strstr(cell.p, "quota exceeded"));
	fleet_free(f);
	/* Its process in the project: maybe at work, never done by a guess. */
	f = snapshot_fleet(h, "gemini", "headless", "running");
	root = fixture_slurp("tests/stores/gemini/headless/running/.gemini/tmp/work/.project_root",
			     &n);
	while (n > 0 && root[n - 1] == '\n')
		root[--n] = '\0';
	proc_add(800, 1, bin, sizeof bin, root);
	fleet_update(f, NOW + 1000, 0);
	/* Its events over 30 minutes old: over, but not failed. */
	assert_string_equal(states(f, NOW + 1000), "incomplete");
	fleet_free(f);
	/* Just written: running, a guess. */
	f = snapshot_fleet(h, "gemini", "headless", "running");
	sh("find '%s' -type f -exec touch -d @1795772029 {} +", h);
	fleet_update(f, 1795772030000LL, 0);
	assert_string_equal(states(f, 1795772030000LL), "running");
	nprocs = 0;
	fleet_free(f);
	free(root);
	buf_free(&cell);
	fixture_rmtree(h);
}

/* --- one row a session ------------------------------------------------------------ */

#define SID "5b1e2c3d-0000-4000-8000-00000000abcd"
#define INIT \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"" SID "\",\"model\":\"m\"}\n"
#define ASKED \
	"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\"," \
	"\"text\":\"hi\"}]}}\n"
#define REPLY \
	"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":" \
	"\"text\",\"text\":\"ok\"}]}}\n"
#define RESULT \
	"{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"duration_ms\":5," \
	"\"result\":\"ok\",\"session_id\":\"" SID "\"}\n"

/* The file of each row shown, under its folder's last name. */
static const char *
shown(struct fleet *f)
{
	static char out[512];
	uint32_t v[16];
	size_t n = fleet_rows(f, FSORT_NEWEST, NULL, NOW, v, 16);

	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *p = fleet_path(f, v[i]), *kept = strstr(p, "/kept/");

		snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", i ? " " : "",
			 kept != NULL ? "kept" : "store");
	}
	return out;
}

/* Count the changes told. */
static void
on_change(void *ctx, struct fleet *f, uint32_t row, enum fleet_state was)
{
	(void)f;
	(void)row;
	(void)was;
	(*(int *)ctx)++;
}

static void
test_twins(void **state)
{
	char *h = fixture_tmpdir("store");
	struct buf kept = {0}, err = {0};
	struct fleet_stats st;
	struct fleet *f;
	int told = 0;

	(void)state;
	env_home(h);
	buf_addf(&kept, "%s/kept", h);
	sh("mkdir -p '%s/kept' '%s/.claude/projects/p'", h, h);
	/* Both without a result, a prompt unanswered (a reply last would be
	 * a store's turn done): the store's. */
	fixture_put(h, "kept/a.ndjson", INIT ASKED, NOW - 600000, false);
	fixture_put(h, ".claude/projects/p/" SID ".jsonl", INIT ASKED, NOW - 600000, false);
	f = stores_fleet(NULL);
	assert_int_equal(fleet_add(f, kept.p, &err), 0);
	fleet_update(f, NOW, 0);
	assert_int_equal(fleet_nrows(f), 2);
	assert_string_equal(shown(f), "store");
	/* Counted once, and its news told once. */
	fleet_stats(f, &st);
	assert_int_equal(st.by_state[FS_INCOMPLETE], 1);
	fleet_on_change(f, on_change, &told);
	fixture_put(h, "kept/a.ndjson", RESULT, NOW, true);
	fixture_put(h, ".claude/projects/p/" SID ".jsonl", RESULT, NOW, true);
	fleet_update(f, NOW + 1000, 0);
	assert_int_equal(told, 1);
	fleet_stats(f, &st);
	assert_int_equal(st.by_state[FS_DONE], 1);
	fleet_free(f);
	fixture_put(h, "kept/a.ndjson", INIT ASKED REPLY, NOW - 600000, false);
	fixture_put(h, ".claude/projects/p/" SID ".jsonl", INIT ASKED REPLY, NOW - 600000, false);
	/* The kept one has the session's result, the store's not: the
	 * kept one. */
	fixture_put(h, "kept/a.ndjson", RESULT, NOW - 600000, true);
	f = stores_fleet(NULL);
	assert_int_equal(fleet_add(f, kept.p, &err), 0);
	fleet_update(f, NOW, 0);
	assert_string_equal(shown(f), "kept");
	fleet_free(f);
	/* Both have it: the store's. Two kept runs of one session both
	 * stay when the store has none. */
	fixture_put(h, ".claude/projects/p/" SID ".jsonl", RESULT, NOW - 600000, true);
	f = stores_fleet(NULL);
	assert_int_equal(fleet_add(f, kept.p, &err), 0);
	fleet_update(f, NOW, 0);
	assert_string_equal(shown(f), "store");
	fleet_free(f);
	fixture_put(h, "kept/b.ndjson", INIT ASKED REPLY RESULT, NOW - 600000, false);
	f = fleet_new(0, -1);
	assert_int_equal(fleet_add(f, kept.p, &err), 0);
	fleet_update(f, NOW, 0);
	assert_string_equal(shown(f), "kept kept");
	fleet_free(f);
	buf_free(&kept);
	buf_free(&err);
	fixture_rmtree(h);
}

/* Codex records no approval wait (STORES.md §2): a live session's call
 * with no output yet, open for more than a few seconds, runs or waits for
 * the user, and its row says both, never waiting alone; so does its JSON
 * summary (may_wait beside the state, which stays live); a moment after
 * it started, only the call; its process gone, no result. The snapshot
 * the real CLI wrote while it held a command for approval, on a fake
 * clock. */
static void
test_codex_waits(void **state)
{
	static const char codex[] =
		"/usr/bin/node\0/usr/lib/node_modules/@openai/codex/bin/codex.js\0";
	const int64_t call = NOW - 3921689; /* 09:34:38.311Z, its start */
	char *h = fixture_tmpdir("store");
	struct buf cell = {0}, env = {0};
	struct fleet *f;

	(void)state;
	env_home(h);
	nprocs = 0;
	f = snapshot_fleet(h, "codex", "ask", "waiting");
	buf_addf(&env, "PATH=/bin%cHOME=%s%c", '\0', h, '\0');
	proc_add(900, 1, codex, sizeof codex, "/home/dev");
	procs[nprocs - 1].env = env.p;
	procs[nprocs - 1].envn = env.n;
	fleet_update(f, call + 2000, 0);
	assert_string_equal(states(f, call + 2000), "running");
	fleet_cell(f, 0, FC_NOW, call + 2000, &cell);
	assert_string_equal(cell.p, "Shell `touch made.txt` 2.0 s");
	assert_non_null(strstr(fixture_written(fleet_list_json, f, call + 2000),
			       "\"state\":\"live\",\"duration_ms\""));
	buf_reset(&cell);
	fleet_update(f, call + 9000, 0);
	assert_string_equal(states(f, call + 9000), "running");
	fleet_cell(f, 0, FC_NOW, call + 9000, &cell);
	assert_string_equal(cell.p, "running or waiting 9.0 s: Shell `touch made.txt`");
	assert_non_null(strstr(fixture_written(fleet_list_json, f, call + 9000),
			       "\"state\":\"live\",\"may_wait\":true,"));
	buf_reset(&cell);
	/* Its process gone: no result, no guess. */
	nprocs = 0;
	fleet_update(f, call + 12000, 0);
	assert_string_equal(states(f, call + 12000), "incomplete");
	fleet_cell(f, 0, FC_NOW, call + 12000, &cell);
	assert_null(strstr(cell.p, "waiting"));
	assert_null(strstr(fixture_written(fleet_list_json, f, call + 12000), "may_wait"));
	fleet_free(f);
	buf_free(&cell);
	buf_free(&env);
	fixture_rmtree(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_discovery),
		cmocka_unit_test(test_discovery_live),
		cmocka_unit_test(test_roots),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_claude_live),
		cmocka_unit_test(test_claude_live_bounded),
		cmocka_unit_test(test_copilot_live),
		cmocka_unit_test(test_gemini_live),
		cmocka_unit_test(test_proc_names),
		cmocka_unit_test(test_fleet_live),
		cmocka_unit_test(test_guess),
		cmocka_unit_test(test_twins),
		cmocka_unit_test(test_cursor_live),
		cmocka_unit_test(test_copilot_fleet),
		cmocka_unit_test(test_idle_done),
		cmocka_unit_test(test_gemini_end),
		cmocka_unit_test(test_copilot_workspace),
		cmocka_unit_test(test_codex_live),
		cmocka_unit_test(test_codex_waits),
	};

	setenv("TZ", "UTC", 1);
	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
