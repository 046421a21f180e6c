/* store.c: the agents' own session stores: their roots and session files,
 * the sources chosen, and whether a store's session has a live process
 * (store.h says what each signal is). */
#include "store.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "rodb.h"

/* Each source: its name, its root's variable and what it is joined to
 * (var + sub, else HOME + home), its session files. */
static const struct {
	const char *name;
	const char *var;  /* its root's environment variable, or NULL */
	const char *sub;  /* appended to var's value ("" when var is the root) */
	const char *home; /* under HOME without var */
	const char *words;
	const char *what; /* whose sessions they are, said in the empty list */
	const char *patterns;
	const char *live; /* the files its liveness reads (pids in their names) */
} sources[SRC_COUNT] = {
	[SRC_CLAUDE] = {"claude", "CLAUDE_CONFIG_DIR", "", ".claude",
			"$CLAUDE_CONFIG_DIR or ~/.claude", "Claude Code's own sessions",
			/* Not <sid>/subagents/ (nor, before 2.1, agent-<id>.jsonl
			 * beside it): they belong to their session. */
			"projects/*/*.jsonl\n"
			"!projects/*/agent-*.jsonl",
			"sessions/[0-9]*.json"},
	[SRC_CODEX] = {"codex", "CODEX_HOME", "", ".codex", "$CODEX_HOME or ~/.codex",
		       "Codex's own sessions",
		       "sessions/[0-9]*/[0-9]*/[0-9]*/rollout-*.jsonl\n"
		       "archived_sessions/rollout-*.jsonl",
		       NULL},
	[SRC_GEMINI] = {"gemini", "GEMINI_CLI_HOME", "/.gemini", ".gemini",
			"$GEMINI_CLI_HOME/.gemini or ~/.gemini", "Gemini CLI's own sessions",
			/* The older whole-file form too. */
			"tmp/*/chats/session-*.jsonl\n"
			"tmp/*/chats/session-*.json",
			/* (the folder a project's gemini runs in: gemini_live) */
			"tmp/*/.project_root"},
	[SRC_COPILOT] = {"copilot", "COPILOT_HOME", "", ".copilot", "$COPILOT_HOME or ~/.copilot",
			 "Copilot CLI's own sessions",
			 "session-state/*/events.jsonl\n"
			 "session-state/*.jsonl",
			 "session-state/*/inuse.[0-9]*.lock"},
	[SRC_CURSOR] = {"cursor", NULL, NULL, ".cursor", "~/.cursor", "Cursor Agent's own sessions",
			"projects/*/agent-transcripts/*/*.jsonl\n"
			"projects/*/agent-transcripts/*.jsonl\n"
			"projects/*/agent-transcripts/*.txt\n"
			"chats/*/*/store.db",
			NULL},
	[SRC_KEPT] = {"kept", NULL, NULL, NULL, "$XDG_STATE_HOME/agentview/sessions",
		      "the sessions agentview keeps", NULL, NULL},
};

const char *
store_source_name(enum store_source s)
{
	return sources[s].name;
}

const char *
store_root_words(enum store_source s)
{
	return sources[s].words;
}

const char *
store_what(enum store_source s)
{
	return sources[s].what;
}

const char *
store_patterns(enum store_source s)
{
	return sources[s].patterns;
}

const char *
store_live_files(enum store_source s)
{
	return sources[s].live;
}

void
store_root_rule(enum store_source s, const char **var, const char **sub, const char **home)
{
	*var = sources[s].var;
	*sub = sources[s].sub;
	*home = sources[s].home;
}

int
store_sources(const char *list, unsigned *mask, struct buf *err)
{
	const char *p = list;

	*mask = 0;
	if (list == NULL || strspn(list, " \t,") == strlen(list) || strcmp(list, "all") == 0) {
		*mask = STORE_ALL;
		return 0;
	}
	while (*p != '\0') {
		size_t n;
		int s;

		p += strspn(p, " \t,");
		n = strcspn(p, ",");
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n == 0)
			break;
		for (s = 0; s < SRC_COUNT; s++)
			if (strlen(sources[s].name) == n && strncmp(p, sources[s].name, n) == 0)
				break;
		if (s == SRC_COUNT) {
			buf_adds(err, "no source \"");
			for (size_t i = 0; i < n && i < 40; i++)
				buf_addc(err, isprint((unsigned char)p[i]) ? p[i] : '?');
			buf_adds(err,
				 "\" (the sources: claude, codex, gemini, copilot, cursor, kept)");
			return -1;
		}
		*mask |= 1u << s;
		p += strcspn(p, ",");
	}
	return 0;
}

int
store_sources_chosen(const char *opt, unsigned *mask, struct buf *err)
{
	return store_sources(opt != NULL ? opt : getenv("AGENTVIEW_SOURCES"), mask, err);
}

bool
store_root(enum store_source s, struct buf *out)
{
	const char *v = sources[s].var != NULL ? getenv(sources[s].var) : NULL;
	const char *home = getenv("HOME");

	if (sources[s].home == NULL)
		return false;
	if (v != NULL && v[0] != '\0') {
		buf_addf(out, "%s%s", v, sources[s].sub);
		return true;
	}
	if (home == NULL || home[0] == '\0')
		return false;
	buf_addf(out, "%s%s%s", home, home[strlen(home) - 1] == '/' ? "" : "/", sources[s].home);
	return true;
}

/* --- /proc ------------------------------------------------------------------ */

bool
store_read_small(const char *path, size_t cap, struct buf *out, bool nofollow)
{
	int fd = open(path,
		      O_RDONLY | O_NOCTTY | O_CLOEXEC | (nofollow ? O_NOFOLLOW | O_NONBLOCK : 0));
	struct stat st;
	ssize_t got;

	if (fd < 0)
		return false;
	if (nofollow && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		return false;
	}
	buf_reset(out);
	buf_reserve(out, cap);
	while (out->n + 1 < cap) {
		got = read(fd, out->p + out->n, cap - 1 - out->n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		out->n += (size_t)got;
	}
	out->p[out->n] = '\0';
	close(fd);
	return true;
}

static bool
linux_start(void *ctx, long pid, uint64_t *start)
{
	struct buf b = {0};
	char path[64];
	const char *p;
	bool ok = false;

	(void)ctx;
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (store_read_small(path, 4096, &b, false) && (p = strrchr(b.p, ')')) != NULL) {
		/* Fields 3 to 22 follow the command's ")". */
		for (int field = 2; field < 22 && p != NULL; field++)
			p = strchr(p + 1, ' ');
		if (p != NULL) {
			*start = strtoull(p + 1, NULL, 10);
			ok = true;
		}
	}
	buf_free(&b);
	return ok;
}

static size_t
linux_pids(void *ctx, long *v, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0;

	(void)ctx;
	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (n < max)
			v[n] = strtol(de->d_name, NULL, 10);
		n++;
	}
	closedir(d);
	return n;
}

/* Up to cap - 1 bytes of /proc/<pid>/<name> into out. */
static bool
proc_file(long pid, const char *name, size_t cap, struct buf *out)
{
	char path[64];

	snprintf(path, sizeof path, "/proc/%ld/%s", pid, name);
	return store_read_small(path, cap, out, false);
}

static bool
linux_cmdline(void *ctx, long pid, struct buf *out)
{
	(void)ctx;
	return proc_file(pid, "cmdline", 4096, out);
}

/* (one read: the kernel gives a comm whole, 16 bytes at most, where a
 * read to the end would take a second one for every process) */
static bool
linux_comm(void *ctx, long pid, struct buf *out)
{
	char path[64];
	ssize_t n;
	int fd;

	(void)ctx;
	snprintf(path, sizeof path, "/proc/%ld/comm", pid);
	if ((fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC)) < 0)
		return false;
	buf_reset(out);
	buf_reserve(out, 64);
	do
		n = read(fd, out->p, 63);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return false;
	out->n = (size_t)n;
	out->p[n] = '\0';
	return true;
}

static bool
linux_cwd(void *ctx, long pid, struct buf *out)
{
	char path[64], dst[4096];
	ssize_t n;

	(void)ctx;
	snprintf(path, sizeof path, "/proc/%ld/cwd", pid);
	n = readlink(path, dst, sizeof dst - 1);
	if (n < 0)
		return false;
	buf_reset(out);
	buf_add(out, dst, (size_t)n);
	return true;
}

static bool
linux_environ(void *ctx, long pid, struct buf *out)
{
	(void)ctx;
	return proc_file(pid, "environ", 64 * 1024, out);
}

const struct store_proc store_proc_linux = {NULL,      linux_start,   linux_pids, linux_cmdline,
					    linux_cwd, linux_environ, linux_comm};

/* --- liveness ------------------------------------------------------------------ */

/* A Claude session a live process has (sessions/<pid>.json). */
#define CLAUDE_LIVE_MAX 1024  /* of those files read a scan */
#define CLAUDE_PIDS_MAX 16384 /* live pids looked up without a syscall */
struct claude_live {
	char id[64];
	uint8_t state; /* enum store_liveness */
	char why[48];
};

struct store_live {
	struct store_proc proc;
	int64_t checked[3]; /* when the Claude table, the processes and the
			       Codex turns were made; INT64_MIN: never */
	char *claude_root;
	char *codex_root;
	bool codex_far;         /* codex_root is a remote's: named, not here */
	bool codex_db;          /* thread_history_1.sqlite was read */
	bool codex_proc;        /* a codex process lives */
	struct buf codex_turns; /* 'R' (in progress) or 'C', a thread id,
				    NUL: each thread's newest turn */
	bool claude_registry;   /* <root>/sessions exists */
	size_t claude_reads;    /* its files the last scan read */
	struct claude_live *cl;
	size_t ncl, clcap;
	struct buf gemini_cwds; /* the cwds of gemini processes, NUL-ended */
	struct buf cursor_cwds; /* the same of cursor-agent processes */
	struct json *j;
	struct buf tmp;
};

struct store_live *
store_live_new(const struct store_proc *proc)
{
	struct store_live *sl = store_live_new_at(proc, NULL);

	if (store_root(SRC_CLAUDE, &sl->tmp))
		sl->claude_root = xstrdup(sl->tmp.p);
	buf_reset(&sl->tmp);
	if (store_root(SRC_CODEX, &sl->tmp))
		sl->codex_root = xstrdup(sl->tmp.p);
	return sl;
}

struct store_live *
store_live_new_at(const struct store_proc *proc, const char *claude_root)
{
	struct store_live *sl = xcalloc(1, sizeof *sl);

	sl->proc = proc != NULL ? *proc : store_proc_linux;
	sl->checked[0] = sl->checked[1] = sl->checked[2] = INT64_MIN;
	sl->j = json_new();
	if (claude_root != NULL)
		sl->claude_root = xstrdup(claude_root);
	return sl;
}

void
store_live_codex_far(struct store_live *sl, const char *root)
{
	if (sl->codex_root != NULL && root != NULL && strcmp(sl->codex_root, root) == 0)
		return;
	free(sl->codex_root);
	sl->codex_root = root != NULL ? xstrdup(root) : NULL;
	sl->codex_far = true;
	sl->checked[1] = sl->checked[2] = INT64_MIN;
}

void
store_live_free(struct store_live *sl)
{
	if (sl == NULL)
		return;
	free(sl->claude_root);
	free(sl->codex_root);
	buf_free(&sl->codex_turns);
	free(sl->cl);
	buf_free(&sl->gemini_cwds);
	buf_free(&sl->cursor_cwds);
	buf_free(&sl->tmp);
	json_free(sl->j);
	free(sl);
}

/* Whether pid lives (and, with want != NULL, started at *want). */
static bool
pid_lives(const struct store_live *sl, long pid, const uint64_t *want)
{
	uint64_t start;

	if (pid <= 0 || !sl->proc.start(sl->proc.ctx, pid, &start))
		return false;
	return want == NULL || start == *want;
}

/* A string or number member of object 0 into dst (cap bytes), raw. */
static void
member(const struct json *j, const char *key, char *dst, size_t cap)
{
	size_t n;
	const char *v;
	int t = json_get(j, 0, key);

	dst[0] = '\0';
	if (t < 0 || (v = json_raw(j, t, &n)) == NULL)
		return;
	n = MIN(n, cap - 1);
	memcpy(dst, v, n);
	dst[n] = '\0';
}

/* A member of object 0 into dst (cap bytes): a string decoded (its
 * escapes are not its words; whoever shows it sanitizes it), cut at a
 * character's boundary; else raw. */
static void
member_text(const struct json *j, const char *key, char *dst, size_t cap)
{
	struct buf t = {0};
	size_t n;
	const char *v;
	int k = json_get(j, 0, key);

	if (k < 0 || json_type(j, k) != JSON_STRING || (v = json_raw(j, k, &n)) == NULL) {
		member(j, key, dst, cap);
		return;
	}
	json_unescape_max(&t, v, n, cap);
	n = MIN(t.n, cap - 1);
	/* Not half a character: back to the start of the one cut. */
	if (n < t.n)
		while (n > 0 && ((unsigned char)t.p[n] & 0xC0) == 0x80)
			n--;
	if (n > 0)
		memcpy(dst, t.p, n);
	dst[n] = '\0';
	buf_free(&t);
}

/* One sessions/<pid>.json of a live pid that started at `started`: the
 * session it names, when that process is the one that wrote it. */
static void
claude_entry(struct store_live *sl, const char *path, long pid, uint64_t started)
{
	char id[64], status[16], start[24], why[48];
	int64_t fpid;
	struct claude_live *c;

	sl->claude_reads++;
	if (!store_read_small(path, 64 * 1024, &sl->tmp, true) ||
	    json_parse(sl->j, sl->tmp.p, sl->tmp.n) != JSON_OK ||
	    json_type(sl->j, 0) != JSON_OBJECT)
		return;
	if (!json_int_at(sl->j, 0, "pid", &fpid) || fpid != pid)
		return;
	member(sl->j, "sessionId", id, sizeof id);
	member(sl->j, "status", status, sizeof status);
	member(sl->j, "procStart", start, sizeof start);
	member_text(sl->j, "waitingFor", why, sizeof why);
	/* A crash leaves the file: trusted only while its pid is the same
	 * process (a reused pid starts at another time). */
	if (id[0] == '\0' || (start[0] != '\0' && strtoull(start, NULL, 10) != started))
		return;
	ARRAY_RESERVE(sl->cl, sl->clcap, sl->ncl + 1);
	c = &sl->cl[sl->ncl++];
	memcpy(c->id, id, sizeof c->id);
	c->state = strcmp(status, "waiting") == 0 ? SL_WAITING
		   : strcmp(status, "idle") == 0  ? SL_IDLE
						  : SL_RUNNING;
	memcpy(c->why, why, sizeof c->why);
}

static int
cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The live Claude sessions of root: every sessions/<pid>.json (never a
 * <pid>.<hash>.key: only names that are digits then ".json") whose pid
 * lives, known from the list of processes before the file is read (the
 * files crashes left are most of a long-used folder's), and at most
 * CLAUDE_LIVE_MAX of them a scan. */
static void
claude_scan(struct store_live *sl, const char *root)
{
	struct buf dir = {0}, path = {0};
	struct dirent *de;
	long *pids = NULL;
	size_t np = 0;
	bool listed = false;
	DIR *d;

	buf_addf(&dir, "%s/sessions", root);
	d = opendir(dir.p);
	sl->claude_registry = d != NULL;
	sl->claude_reads = 0;
	/* The live pids, sorted, when they are listed (a remote's are not:
	 * none) and not too many to hold; else each is asked for. */
	if (d != NULL) {
		pids = xmalloc(CLAUDE_PIDS_MAX * sizeof *pids);
		np = sl->proc.pids(sl->proc.ctx, pids, CLAUDE_PIDS_MAX);
		listed = np > 0 && np <= CLAUDE_PIDS_MAX;
		if (listed)
			qsort(pids, np, sizeof *pids, cmp_long);
	}
	while (d != NULL && sl->claude_reads < CLAUDE_LIVE_MAX && (de = readdir(d)) != NULL) {
		const char *n = de->d_name;
		size_t digits = strspn(n, "0123456789");
		long pid;
		uint64_t started;

		if (digits == 0 || strcmp(n + digits, ".json") != 0)
			continue;
		pid = strtol(n, NULL, 10);
		if (listed && bsearch(&pid, pids, np, sizeof *pids, cmp_long) == NULL)
			continue;
		if (pid <= 0 || !sl->proc.start(sl->proc.ctx, pid, &started))
			continue;
		buf_reset(&path);
		buf_addf(&path, "%s/%s", dir.p, n);
		claude_entry(sl, path.p, pid, started);
	}
	if (d != NULL)
		closedir(d);
	free(pids);
	buf_free(&dir);
	buf_free(&path);
}

size_t
store_live_claude_reads(const struct store_live *sl)
{
	return sl->claude_reads;
}

/* The names (comm) a process of the CLIs' may have. First the CLIs whose
 * processes liveness looks for, in the order a process is judged (one CLI
 * a process): each one's name and a path in its npm package (Cursor's CLI
 * installs under ~/.local/share/cursor-agent/, not seen here: STORES.md
 * §5). Then the JavaScript runtimes that run a CLI's script (Gemini CLI
 * runs as node; Codex's npm package runs node, which starts its binary,
 * named codex): no package, no CLI of their own. */
static const struct {
	const char *name, *pkg;
	enum store_source s;
} procs[] = {
	{"codex", "/@openai/codex/", SRC_CODEX},
	{"gemini", "/@google/gemini-cli/", SRC_GEMINI},
	{"cursor-agent", "/cursor-agent/", SRC_CURSOR},
	{"node", NULL, SRC_COUNT},
	{"nodejs", NULL, SRC_COUNT},
	{"bun", NULL, SRC_COUNT},
};

const char *
store_proc_name(size_t i)
{
	return i < ARRAY_LEN(procs) ? procs[i].name : NULL;
}

bool
store_cli(size_t i, enum store_source *s, const char **name, const char **pkg)
{
	if (i >= ARRAY_LEN(procs) || procs[i].pkg == NULL)
		return false;
	*s = procs[i].s;
	*name = procs[i].name;
	*pkg = procs[i].pkg;
	return true;
}

/* Whether comm is one of the names of procs. */
static bool
name_counts(const char *comm, size_t n)
{
	for (size_t i = 0; i < ARRAY_LEN(procs); i++)
		if (strlen(procs[i].name) == n && memcmp(procs[i].name, comm, n) == 0)
			return true;
	return false;
}

/* Whether argv (NUL-separated, n bytes) runs the CLI name: its program,
 * or the script node runs, is name or in the npm package pkg. */
static bool
runs(const char *argv, size_t n, const char *name, const char *pkg)
{
	size_t off = 0;

	for (int i = 0; i < 2 && off < n; i++) {
		const char *a = argv + off, *base = strrchr(a, '/');

		base = base != NULL ? base + 1 : a;
		if (strcmp(base, name) == 0 || strstr(a, pkg) != NULL)
			return true;
		off += strlen(a) + 1;
	}
	return false;
}

/* The value of name in env (NUL-separated "NAME=value", n bytes), or
 * NULL. */
static const char *
env_get(const char *env, size_t n, const char *name)
{
	size_t len = strlen(name);

	for (size_t off = 0; off < n; off += strlen(env + off) + 1)
		if (strncmp(env + off, name, len) == 0 && env[off + len] == '=')
			return env + off + len + 1;
	return NULL;
}

/* Whether a and b name the same folder, by their names alone: one
 * '/' where there are several, none at the end. */
static bool
same_name(const char *a, const char *b)
{
	size_t i = 0, j = 0, na = strlen(a), nb = strlen(b);

	while (na > 1 && a[na - 1] == '/')
		na--;
	while (nb > 1 && b[nb - 1] == '/')
		nb--;
	while (i < na && j < nb) {
		if (a[i] != b[j])
			return false;
		if (a[i] != '/') {
			i++;
			j++;
			continue;
		}
		while (i < na && a[i] == '/')
			i++;
		while (j < nb && b[j] == '/')
			j++;
	}
	return i == na && j == nb;
}

/* Whether the same folder is at paths a and b (here: far, by name). */
static bool
same_dir(const char *a, const char *b, bool far)
{
	struct stat sa, sb;

	if (far)
		return same_name(a, b);
	if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
		return strcmp(a, b) == 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Whether codex process pid writes to this store: its CODEX_HOME (else
 * its HOME's .codex) is our root. A process whose environment cannot be
 * read (another user's) may be. Codex runs from other homes (a test's,
 * another project's) never make this store's sessions live. */
static bool
codex_ours(struct store_live *sl, long pid)
{
	struct buf env = {0}, root = {0};
	const char *v;
	bool ours = true;

	if (sl->codex_root == NULL || sl->proc.environ == NULL ||
	    !sl->proc.environ(sl->proc.ctx, pid, &env))
		goto out;
	if ((v = env_get(env.p, env.n, "CODEX_HOME")) != NULL && v[0] != '\0')
		buf_adds(&root, v);
	else if ((v = env_get(env.p, env.n, "HOME")) != NULL && v[0] != '\0')
		buf_addf(&root, "%s/.codex", v);
	ours = root.n > 0 && same_dir(root.p, sl->codex_root, sl->codex_far);
out:
	buf_free(&env);
	buf_free(&root);
	return ours;
}

/* The working folders of the gemini and the cursor-agent processes;
 * whether a codex one of this store lives. */
static void
proc_scan(struct store_live *sl)
{
	long pids[4096];
	size_t n = sl->proc.pids(sl->proc.ctx, pids, ARRAY_LEN(pids));
	struct buf cwd = {0}, *cwds;

	buf_reset(&sl->gemini_cwds);
	buf_reset(&sl->cursor_cwds);
	sl->codex_proc = false;
	for (size_t i = 0; i < n && i < ARRAY_LEN(pids); i++) {
		size_t c;

		/* Only a process of a name that counts (as a remote's program
		 * looks at them: remote.c), then its argv's first two. */
		if (sl->proc.comm != NULL) {
			if (!sl->proc.comm(sl->proc.ctx, pids[i], &sl->tmp))
				continue;
			while (sl->tmp.n > 0 && sl->tmp.p[sl->tmp.n - 1] == '\n')
				sl->tmp.n--;
			if (!name_counts(sl->tmp.p, sl->tmp.n))
				continue;
		}
		if (!sl->proc.cmdline(sl->proc.ctx, pids[i], &sl->tmp) || sl->tmp.n == 0)
			continue;
		buf_addc(&sl->tmp, '\0');
		for (c = 0; c < ARRAY_LEN(procs) && procs[c].pkg != NULL; c++)
			if (runs(sl->tmp.p, sl->tmp.n, procs[c].name, procs[c].pkg))
				break;
		if (c == ARRAY_LEN(procs) || procs[c].pkg == NULL)
			continue;
		if (procs[c].s == SRC_CODEX) {
			sl->codex_proc = sl->codex_proc || codex_ours(sl, pids[i]);
			continue;
		}
		cwds = procs[c].s == SRC_GEMINI ? &sl->gemini_cwds : &sl->cursor_cwds;
		if (!sl->proc.cwd(sl->proc.ctx, pids[i], &cwd))
			continue;
		buf_add(cwds, cwd.p, cwd.n);
		buf_addc(cwds, '\0');
	}
	buf_free(&cwd);
}

/* Whether <root>/thread_history_1.sqlite has its -wal and -shm beside it
 * (its writer has it open). */
static bool
wal_open(const char *root)
{
	struct buf p = {0};
	struct stat st;
	bool there;

	buf_addf(&p, "%s/thread_history_1.sqlite-wal", root);
	there = lstat(p.p, &st) == 0 && S_ISREG(st.st_mode);
	buf_reset(&p);
	buf_addf(&p, "%s/thread_history_1.sqlite-shm", root);
	there = there && lstat(p.p, &st) == 0 && S_ISREG(st.st_mode);
	buf_free(&p);
	return there;
}

/* Codex: the status of each thread's newest turn in
 * <root>/thread_history_1.sqlite, opened read-only (rodb.h: never
 * written; a writer's lock, or any error, leaves nothing known). */
static void
codex_scan(struct store_live *sl)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	struct buf uri = {0};

	buf_reset(&sl->codex_turns);
	sl->codex_db = false;
	/* Only while a codex process has it: SQLite, even read-only, makes
	 * a write-ahead database's -wal and -shm when they are not there and
	 * rebuilds a -shm its last writer left; with its writer alive both
	 * are there and sound. */
	if (sl->codex_root == NULL || sl->codex_far || !sl->codex_proc || !wal_open(sl->codex_root))
		return;
	buf_addf(&uri, "%s/thread_history_1.sqlite", sl->codex_root);
	if ((db = rodb_open(uri.p)) != NULL &&
	    sqlite3_prepare_v2(
		    db,
		    "SELECT thread_id, status FROM thread_turns t WHERE rollout_ordinal = "
		    "(SELECT MAX(rollout_ordinal) FROM thread_turns "
		    "WHERE thread_id = t.thread_id)",
		    -1, &st, NULL) == SQLITE_OK) {
		int rc;

		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *id = (const char *)sqlite3_column_text(st, 0);
			const char *status = (const char *)sqlite3_column_text(st, 1);

			if (id == NULL || status == NULL)
				continue;
			buf_addc(&sl->codex_turns, strcmp(status, "inProgress") == 0 ? 'R' : 'C');
			buf_adds(&sl->codex_turns, id);
			buf_addc(&sl->codex_turns, '\0');
		}
		sl->codex_db = rc == SQLITE_DONE;
	}
	if (!sl->codex_db)
		buf_reset(&sl->codex_turns);
	sqlite3_finalize(st);
	sqlite3_close(db);
	buf_free(&uri);
}

/* Table t (0: Claude's, 1: the processes, 2: Codex's turns) made again,
 * once a second (or when the clock went back). */
static void
refresh(struct store_live *sl, int t, int64_t now_ms)
{
	int64_t *at = &sl->checked[t];

	if (*at != INT64_MIN && now_ms >= *at && ms_sub(now_ms, *at) < 1000)
		return;
	*at = now_ms;
	if (t == 1) {
		proc_scan(sl);
		return;
	}
	if (t == 2) {
		codex_scan(sl);
		return;
	}
	sl->ncl = 0;
	sl->claude_registry = false;
	if (sl->claude_root != NULL)
		claude_scan(sl, sl->claude_root);
}

/* The last part of path without its suffix, into dst (cap bytes). */
static void
base_name(const char *path, const char *suffix, char *dst, size_t cap)
{
	const char *b = strrchr(path, '/');
	size_t n, sn = strlen(suffix);

	b = b != NULL ? b + 1 : path;
	n = strlen(b);
	if (n >= sn && strcmp(b + n - sn, suffix) == 0)
		n -= sn;
	n = MIN(n, cap - 1);
	memcpy(dst, b, n);
	dst[n] = '\0';
}

static enum store_liveness
claude_live(struct store_live *sl, const char *path, struct buf *why)
{
	char id[64];

	base_name(path, ".jsonl", id, sizeof id);
	for (size_t i = 0; i < sl->ncl; i++) {
		if (strcmp(sl->cl[i].id, id) != 0)
			continue;
		if (why != NULL)
			buf_adds(why, sl->cl[i].why);
		return (enum store_liveness)sl->cl[i].state;
	}
	/* Claude Code writes the file for every run and removes it at its
	 * end; without the folder (older versions) nothing is known. */
	return sl->claude_registry ? SL_GONE : SL_UNKNOWN;
}

/* The pid that inuse.<pid>.lock names when the lock holds that pid too
 * (what Copilot CLI writes in it); 0 for any other file. */
static long
lock_pid(int dfd, const char *name)
{
	char text[32], *end;
	const char *p = name + 6;
	long pid;
	ssize_t n;
	int fd;

	/* The name first: p is past its end in a shorter one (".."). */
	if (strncmp(name, "inuse.", 6) != 0 || *p < '1' || *p > '9')
		return 0;
	pid = strtol(p, &end, 10);
	if (strcmp(end, ".lock") != 0 || pid <= 0 || pid > 0x3fffffff)
		return 0;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, text, sizeof text - 1);
	close(fd);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	return strtol(text, &end, 10) == pid && (*end == '\0' || *end == '\n') ? pid : 0;
}

/* Copilot: an inuse.<pid>.lock in the session's folder that holds its pid,
 * of a live process (a crash leaves its lock behind). */
static enum store_liveness
copilot_live(struct store_live *sl, const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct dirent *de;
	DIR *d;
	bool live = false;

	if (slash == NULL || strcmp(slash + 1, "events.jsonl") != 0 ||
	    (size_t)(slash - path) >= sizeof dir)
		return SL_UNKNOWN; /* the old bare layout: no lock beside it */
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	if ((d = opendir(dir)) == NULL)
		return SL_UNKNOWN;
	while (!live && (de = readdir(d)) != NULL)
		live = pid_lives(sl, lock_pid(dirfd(d), de->d_name), NULL);
	closedir(d);
	return live ? SL_RUNNING : SL_GONE;
}

/* Gemini: a gemini process in the project the file's folder is of
 * (tmp/<project>/chats/x.jsonl: tmp/<project>/.project_root). */
static enum store_liveness
gemini_live(struct store_live *sl, const char *path)
{
	struct buf root = {0};
	const char *chats = strrchr(path, '/');
	enum store_liveness l = SL_UNKNOWN;

	if (chats == NULL)
		return l;
	buf_add(&root, path, (size_t)(chats - path));
	chats = strrchr(root.p, '/');
	if (chats != NULL && strcmp(chats, "/chats") == 0) {
		root.n = (size_t)(chats - root.p);
		buf_adds(&root, "/.project_root");
		if (store_read_small(root.p, 4096, &sl->tmp, true)) {
			while (sl->tmp.n > 0 && (sl->tmp.p[sl->tmp.n - 1] == '\n' ||
						 sl->tmp.p[sl->tmp.n - 1] == '\r'))
				sl->tmp.p[--sl->tmp.n] = '\0';
			l = SL_GONE;
			for (size_t i = 0; i < sl->gemini_cwds.n;) {
				const char *c = sl->gemini_cwds.p + i;

				if (strcmp(c, sl->tmp.p) == 0)
					l = SL_GUESS;
				i += strlen(c) + 1;
			}
		}
	}
	buf_free(&root);
	return l;
}

/* Whether folder cwd, its runs of other bytes than letters and digits
 * made one '-' and with none leading, is p[0..n) (Cursor's name of a
 * project's folder: STORES.md §5). */
static bool
dashed_is(const char *cwd, const char *p, size_t n)
{
	size_t k = 0;
	bool dash = false;

	for (; *cwd != '\0'; cwd++) {
		if (!isalnum((unsigned char)*cwd) || (unsigned char)*cwd >= 0x80) {
			dash = k > 0;
			continue;
		}
		if (dash && (k >= n || p[k++] != '-'))
			return false;
		dash = false;
		if (k >= n || p[k++] != *cwd)
			return false;
	}
	return k == n;
}

/* Cursor: a cursor-agent process in the project the transcript is of
 * (projects/<project>/agent-transcripts/...): a guess; none, no process.
 * A chat store's folder is a hash of the project's (chats/<md5>/<sid>/
 * store.db): any cursor-agent process may be its. */
static enum store_liveness
cursor_live(struct store_live *sl, const char *path)
{
	const char *at = strstr(path, "/agent-transcripts/"), *p = at;
	size_t n = strlen(path);

	if (at == NULL && n > 9 && strcmp(path + n - 9, "/store.db") == 0)
		return sl->cursor_cwds.n > 0 ? SL_GUESS : SL_GONE;
	if (at == NULL)
		return SL_UNKNOWN;
	while (p > path && p[-1] != '/')
		p--;
	for (size_t i = 0; i < sl->cursor_cwds.n;) {
		const char *c = sl->cursor_cwds.p + i;

		if (dashed_is(c, p, (size_t)(at - p)))
			return SL_GUESS;
		i += strlen(c) + 1;
	}
	return SL_GONE;
}

/* Codex: its thread's newest turn open (the rollout's name ends with the
 * thread id) while a codex process lives: running (or waiting for an
 * approval, which nothing records); closed: not. No codex process (or
 * one under a name not known), nothing known. */
static enum store_liveness
codex_live(struct store_live *sl, const char *path)
{
	char id[256];
	size_t n;

	/* No codex process at all: none has this session. */
	if (!sl->codex_proc)
		return SL_GONE;
	base_name(path, ".jsonl", id, sizeof id);
	n = strlen(id);
	if (!sl->codex_db || n < 36)
		return SL_UNKNOWN;
	for (size_t i = 0; i < sl->codex_turns.n;) {
		const char *t = sl->codex_turns.p + i;

		if (strcmp(t + 1, id + n - 36) == 0)
			return t[0] == 'R' ? SL_RUNNING : SL_IDLE;
		i += strlen(t) + 1;
	}
	return SL_UNKNOWN; /* a thread the index does not have (an older one) */
}

enum store_liveness
store_live(struct store_live *sl, enum store_source s, const char *path, int64_t now_ms,
	   struct buf *why)
{
	switch (s) {
	case SRC_CLAUDE:
		refresh(sl, 0, now_ms);
		return claude_live(sl, path, why);
	case SRC_COPILOT:
		return copilot_live(sl, path);
	case SRC_GEMINI:
		refresh(sl, 1, now_ms);
		return gemini_live(sl, path);
	case SRC_CODEX:
		refresh(sl, 1, now_ms);
		refresh(sl, 2, now_ms);
		return codex_live(sl, path);
	case SRC_CURSOR:
		refresh(sl, 1, now_ms);
		return cursor_live(sl, path);
	default:
		return SL_UNKNOWN;
	}
}

/* path, written ~/... when it is under home. */
static void
add_place(struct buf *out, const char *path, const char *home)
{
	size_t n = home != NULL ? strlen(home) : 0;

	while (n > 1 && home[n - 1] == '/')
		n--;
	if (n > 0 && strncmp(path, home, n) == 0 && (path[n] == '/' || path[n] == '\0')) {
		buf_addc(out, '~');
		path += n;
	}
	buf_adds(out, path);
}

void
store_looked(unsigned mask, const char *kept_dir, const char *home, struct buf *out)
{
	struct buf root = {0};
	struct stat st;

	for (int s = 0; s < SRC_COUNT; s++) {
		if (!(mask & (1u << s)))
			continue;
		buf_reset(&root);
		if (s == SRC_KEPT) {
			if (kept_dir != NULL)
				buf_adds(&root, kept_dir);
		} else {
			store_root((enum store_source)s, &root);
		}
		buf_addf(out, "  %-8s", sources[s].name);
		if (root.n == 0) {
			buf_addf(out, "%s: no HOME\n", sources[s].words);
			continue;
		}
		add_place(out, root.p, home);
		buf_adds(out, stat(root.p, &st) == 0 && S_ISDIR(st.st_mode) ? "  (there)\n"
									    : "  (not there)\n");
	}
	buf_free(&root);
}
