/* agent.c: the adapters, and which one reads a line. */
#define _GNU_SOURCE /* memmem */
#include "agent.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"

/* The table of agents, by id: one row an adapter. */
static const struct agent *agents[MAX_AGENTS] = {
	[AGENT_CURSOR] = &agent_cursor,
	[AGENT_CLAUDE] = &agent_claude,
	[AGENT_GEMINI] = &agent_gemini,
	[AGENT_CODEX] = &agent_codex,
	[AGENT_CLAUDE_STORE] = &agent_claude_store,
	[AGENT_CODEX_ROLLOUT] = &agent_codex_rollout,
	[AGENT_GEMINI_CHAT] = &agent_gemini_chat,
	[AGENT_COPILOT] = &agent_copilot,
	[AGENT_CURSOR_TRANSCRIPT] = &agent_cursor_transcript,
};
static unsigned nagents = AGENT_COUNT;

/* The order sessions are recognised in: the most particular start first
 * (a Claude Code init is a Cursor init with more in it), Cursor, which
 * reads any line, last. */
static unsigned order[MAX_AGENTS] = {
	AGENT_CLAUDE,        AGENT_GEMINI,      AGENT_CODEX,   AGENT_CLAUDE_STORE,
	AGENT_CODEX_ROLLOUT, AGENT_GEMINI_CHAT, AGENT_COPILOT, AGENT_CURSOR_TRANSCRIPT,
	AGENT_CURSOR,
};

const struct agent *
agent_get(unsigned a)
{
	return a < nagents ? agents[a] : agents[agent_default()];
}

int
agent_find(const char *name)
{
	for (unsigned a = 0; a < nagents; a++)
		if (strcmp(agents[a]->name, name) == 0)
			return (int)a;
	return -1;
}

unsigned
agent_count(void)
{
	return nagents;
}

unsigned
agent_default(void)
{
	return order[nagents - 1];
}

int
agent_add(const struct agent *a)
{
	if (nagents == MAX_AGENTS)
		return -1;
	agents[nagents] = a;
	order[nagents] = order[nagents - 1];
	order[nagents - 1] = nagents;
	return (int)nagents++;
}

/* How agentview's own lines (a recording's) spell their top keys. */
static const char *const own_top[TOP_COUNT] = {
	[TOP_TYPE] = "type",
	[TOP_SUBTYPE] = "subtype",
	[TOP_AV_MS] = "agentview_ms",
};

/* The top keys, made for the agents there were then. */
static struct agent_keys keys;
static unsigned keys_of;

/* Role r's spelling s added to the keys, unless it is there. */
static void
key_add(struct agent_keys *ks, const char *s, unsigned r)
{
	for (int i = 0; i < ks->n; i++)
		if (strcmp(ks->name[i], s) == 0) {
			if (ks->role[i] != r)
				die("agent: \"%s\" is the name of two top keys", s);
			return;
		}
	if (ks->n == JSON_KEYS_MAX)
		die("agent: more than %d names of top keys", JSON_KEYS_MAX);
	ks->name[ks->n] = s;
	ks->role[ks->n++] = (uint8_t)r;
}

/* Every role's first spelling first, in the order of the roles (the one
 * spelling each has, as a rule: then what json_getk finds is k), then
 * the others. */
static void
keys_make(struct agent_keys *ks)
{
	memset(ks, 0, sizeof *ks);
	for (int pass = 0; pass < 2; pass++)
		for (unsigned r = 0; r < TOP_COUNT; r++)
			for (unsigned a = 0; a <= nagents; a++) {
				const char *s = a == nagents ? own_top[r] : agents[a]->top[r];

				if (s == NULL)
					continue;
				if (pass == 1 || ks->n == (int)r) {
					key_add(ks, s, r);
					if (pass == 0)
						break;
				}
			}
	ks->same = ks->n == TOP_COUNT;
	for (int i = 0; i < ks->n && ks->same; i++)
		ks->same = ks->role[i] == i;
}

const struct agent_keys *
agent_keys(void)
{
	if (keys_of != nagents) {
		keys_make(&keys);
		keys_of = nagents;
	}
	return &keys;
}

const int *
agent_key_roles(const int *s, int *k)
{
	const struct agent_keys *ks = agent_keys();

	if (ks->same)
		return s;
	for (int r = 0; r < TOP_COUNT; r++)
		k[r] = -1;
	for (int i = 0; i < ks->n; i++)
		if (s[i] >= 0 && k[ks->role[i]] < 0)
			k[ks->role[i]] = s[i];
	return k;
}

bool
agent_elem_string(const struct json *j, int t, enum elem_fact f, struct elem_facts *e)
{
	if (json_type(j, t) != JSON_STRING)
		return false;
	elem_set(e, f, j, t);
	return true;
}

enum tool_kind
agent_tool_kind(const struct agent *a, const char *name, size_t n)
{
	for (const struct agent_tool *t = a->tools; t != NULL && t->name != NULL; t++) {
		size_t k = strlen(t->name);
		bool prefix = k > 0 && t->name[k - 1] == '*';

		if (prefix ? n >= k && memcmp(name, t->name, k - 1) == 0
			   : n == k && memcmp(name, t->name, n) == 0)
			return t->kind;
	}
	return TK_OTHER;
}

/* The adapters' marks, each once, made for the agents there were then
 * (like the top keys); those that begin with a quote (all, as a rule)
 * apart, with the bytes that follow their quote. */
static struct {
	const char *mark[MAX_AGENTS];
	size_t len[MAX_AGENTS];
	unsigned n, nquoted; /* mark[0..nquoted) begin with a quote */
	bool second[256];    /* the byte after a quoted mark's quote */
} marks;
static unsigned marks_of;

static void
marks_make(void)
{
	memset(&marks, 0, sizeof marks);
	for (int quoted = 1; quoted >= 0; quoted--) {
		for (unsigned a = 0; a < nagents; a++) {
			const char *mk = agents[a]->mark;
			bool seen = false;

			if (mk == NULL || (mk[0] == '"') != quoted || mk[quoted] == '\0')
				continue;
			for (unsigned b = 0; b < marks.n && !seen; b++)
				seen = strcmp(marks.mark[b], mk) == 0;
			if (seen)
				continue;
			marks.mark[marks.n] = mk;
			marks.len[marks.n++] = strlen(mk);
			if (quoted)
				marks.second[(unsigned char)mk[1]] = true;
		}
		if (quoted)
			marks.nquoted = marks.n;
	}
	marks_of = nagents;
}

bool
agent_marked(const char *p, size_t n)
{
	const char *q = p, *end = p + n;

	if (marks_of != nagents)
		marks_make();
	for (unsigned m = marks.nquoted; m < marks.n; m++)
		if (memmem(p, n, marks.mark[m], marks.len[m]) != NULL)
			return true;
	/* The quoted ones in one pass over the quotes of the line. */
	while ((q = memchr(q, '"', (size_t)(end - q))) != NULL) {
		size_t left = (size_t)(end - q);

		if (left > 1 && marks.second[(unsigned char)q[1]])
			for (unsigned m = 0; m < marks.nquoted; m++)
				if (left >= marks.len[m] &&
				    memcmp(q, marks.mark[m], marks.len[m]) == 0)
					return true;
		q++;
	}
	return false;
}

size_t
agent_lean(char *p, size_t n)
{
	for (unsigned a = 0; a < nagents && n > AGENT_LEAN_MIN; a++) {
		const char *mk = agents[a]->lean;
		char *at;
		size_t k, v;

		if (mk == NULL)
			continue;
		k = strlen(mk);
		at = memmem(p, MIN(n, (size_t)AGENT_LEAN_LOOK), mk, k);
		if (at == NULL)
			continue;
		/* Its quotes are no string's: a quote in one is escaped. */
		v = json_value_len(at + k, (size_t)(p + n - at) - k);
		if (v == 0)
			continue;
		memmove(at, at + k + v, (size_t)(p + n - (at + k + v)));
		n -= k + v;
	}
	return n;
}

/* Whether p[0..n) begins with s (not empty): on most lines of the
 * session list, so it stops at the first byte that differs. */
static bool
begins(const char *p, size_t n, const char *s)
{
	size_t i = 0;

	if (s == NULL)
		return false;
	for (; s[i] != '\0'; i++)
		if (i == n || p[i] != s[i])
			return false;
	return i > 0;
}

bool
agent_begins_any(const char *p, size_t n, const struct agent_lit *s, size_t ns)
{
	for (size_t i = 0; i < ns; i++)
		if (n >= s[i].n && memcmp(p, s[i].s, s[i].n) == 0)
			return true;
	return false;
}

bool
agent_skips_any(const char *p, size_t n)
{
	for (unsigned a = 0; a < nagents; a++)
		if (agents[a]->skip != NULL && agents[a]->skip(p, n))
			return true;
	return false;
}

bool
agent_rows(const char *path, const char *p, size_t n, struct buf *out)
{
	for (unsigned a = 0; a < nagents; a++)
		if (agents[a]->rows != NULL && agents[a]->rows(path, p, n, out))
			return true;
	return false;
}

bool
agent_rows_db(const char *p, size_t n)
{
	return n >= 16 && memcmp(p, "SQLite format 3", 16) == 0;
}

/* The bytes of the file at path whose first are not JSON's, whole into
 * out (at most AGENT_ROWS_MAX), or only its first of a SQLite file
 * (agent_rows_db); false for any other file, of which only the first
 * bytes are read. */
static bool
rows_whole(const char *path, struct buf *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	size_t i = 0, want;
	ssize_t r;
	bool json = false;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return false;
	}
	want = (size_t)MIN((uint64_t)st.st_size, (uint64_t)AGENT_ROWS_MAX + 1);
	buf_reserve(out, MIN(want, (size_t)4096));
	while (out->n < want && !json) {
		/* A first piece tells. */
		size_t chunk = out->n == 0 ? 4096 : (size_t)1 << 20;

		r = read(fd, out->p + out->n, MIN(want - out->n, chunk));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		out->n += (size_t)r;
		while (i < out->n && (out->p[i] == ' ' || out->p[i] == '\t' || out->p[i] == '\r' ||
				      out->p[i] == '\n'))
			i++;
		json = i < out->n && out->p[i] == '{';
		if (agent_rows_db(out->p, out->n)) {
			close(fd);
			return true;
		}
		if (st.st_size > AGENT_ROWS_MAX)
			break;
		buf_reserve(out, want - out->n);
	}
	close(fd);
	return !json && i < out->n && st.st_size <= AGENT_ROWS_MAX;
}

void
agent_source_rows(struct source *s, const char *path)
{
	struct buf text = {0}, rows = {0};

	if (s->kind == SOURCE_MAPPED && (s->size == 0 || s->data[0] == '{'))
		return;
	if (rows_whole(path, &text) && agent_rows(path, text.p, text.n, &rows)) {
		source_close(s);
		source_open_mem(s, path, rows.p, rows.n);
	}
	buf_free(&text);
	buf_free(&rows);
}

ssize_t
agent_read_head(const char *path, char *p, size_t max)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	ssize_t n = -1;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		n = read(fd, p, max);
	close(fd);
	return n;
}

/* Names in order. */
static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t
agent_files(const char *dir, const char *prefix, char ***names)
{
	size_t k = 0, cap = 0, pn = strlen(prefix);
	struct dirent *de;
	DIR *d = opendir(dir);

	*names = NULL;
	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		struct stat st;

		/* Only regular files, never a link: a link to /dev/zero would
		 * be read for ever, one to a file elsewhere (a key) shown. */
		if (de->d_name[0] != '.' && len > pn + 6 && strncmp(de->d_name, prefix, pn) == 0 &&
		    strcmp(de->d_name + len - 6, ".jsonl") == 0 &&
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode)) {
			ARRAY_RESERVE(*names, cap, k + 1);
			(*names)[k++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	if (k > 1)
		qsort(*names, k, sizeof **names, by_name);
	return k;
}

void
agent_more(int a, const char *path, agent_more_fn *fn, void *ctx)
{
	for (unsigned i = 0; i < nagents; i++)
		if ((a < 0 || (unsigned)a == i) && agents[i]->more != NULL)
			agents[i]->more(path, fn, ctx);
}

bool
agent_skips(unsigned a, const char *p, size_t n)
{
	const struct agent *ag = agent_get(a);

	return ag->skip != NULL && ag->skip(p, n);
}

int64_t
agent_skipped_ms(unsigned a, const char *p, size_t n)
{
	const struct agent *ag = agent_get(a);

	return ag->skip_ms != NULL ? ag->skip_ms(p, n) : TIME_NONE;
}

enum line_quiet
agent_quiet(unsigned a, const char *p, size_t n, bool states)
{
	const struct agent *ag = agent_get(a);

	if (begins(p, n, ag->quiet[0]) || begins(p, n, ag->quiet[1]) ||
	    (states && begins(p, n, ag->quiet_call)))
		return LINE_QUIET;
	return ag->quiet_line != NULL ? ag->quiet_line(p, n) : LINE_HEARD;
}

int
agent_line_starts(const struct json *j)
{
	const struct agent_keys *ks = agent_keys();
	int s[JSON_KEYS_MAX], k[TOP_COUNT];

	json_getv(j, 0, ks->name, ks->n, s);
	return agent_starts(j, agent_key_roles(s, k));
}

int
agent_starts(const struct json *j, const int *k)
{
	for (unsigned i = 0; i < nagents; i++)
		if (agents[order[i]]->starts(j, k))
			return (int)order[i];
	return -1;
}

unsigned
agent_guess(const struct json *j, const int *k)
{
	for (unsigned i = 0; i < nagents; i++)
		if (agents[order[i]]->looks(j, k))
			return order[i];
	return agent_default();
}

/* The first bytes of a line, which say its time (a rollout's timestamp
 * ends before its 48th). */
#define LATE_HEAD 64

bool
agent_late_totals(unsigned a, const char *p, size_t n)
{
	const struct agent *ag = agent_get(a);

	return ag->totals != NULL && ag->quiet_line(p, n) == LINE_TOTALS &&
	       memchr(p, '\\', MIN(n, (size_t)LATE_HEAD)) == NULL;
}

bool
agent_skips_late_any(const char *p, size_t n)
{
	if (agent_skips_any(p, n))
		return true;
	for (unsigned a = 0; a < nagents; a++)
		if (agent_late_totals(a, p, n))
			return true;
	return false;
}

bool
agent_file_fact(unsigned a, const char *path, enum fact f, struct buf *out)
{
	const struct agent *ag = agent_get(a);

	return path != NULL && f < FACT_REQUEST && ag->file_fact != NULL &&
	       ag->file_fact(path, f, out);
}

bool
agent_file_id(const char *path, struct buf *out)
{
	const char *name = path != NULL ? strrchr(path, '/') : NULL;
	size_t n;

	if (path == NULL)
		return false;
	name = name != NULL ? name + 1 : path;
	n = strlen(name);
	if (n > 6 && strcmp(name + n - 6, ".jsonl") == 0)
		n -= 6;
	else if (n > 4 && strcmp(name + n - 4, ".txt") == 0)
		n -= 4;
	else
		return false;
	if (name[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= 'A' && name[i] <= 'Z') || name[i] == '-' || name[i] == '_'))
			return false;
	buf_add(out, name, n);
	return true;
}

int64_t
agent_ms(const struct json *j, int t)
{
	int64_t v;

	if (t >= 0 && json_int(j, t, &v) && v >= 0)
		return v;
	return TIME_NONE;
}

/* Days from 1970-01-01 to year-month-day (proleptic Gregorian). */
static int64_t
days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The two digits at p as a number, or -1. */
static inline int64_t
two(const char *p)
{
	unsigned a = (unsigned)(unsigned char)p[0] - '0', b = (unsigned)(unsigned char)p[1] - '0';

	return a <= 9 && b <= 9 ? (int64_t)(a * 10 + b) : -1;
}

int64_t
agent_iso_ms(const struct json *j, int t)
{
	size_t n;
	const char *p;

	if (json_type(j, t) != JSON_STRING)
		return TIME_NONE;
	p = json_raw(j, t, &n);
	return agent_iso_raw_ms(p, n);
}

int64_t
agent_iso_raw_ms(const char *p, size_t n)
{
	static const int64_t weight[] = {100, 10, 1}; /* of the fraction's digits */
	size_t i = 19, k;
	int64_t y, mo, d, h, mi, s, ms = 0, off = 0, v;

	if (n < 20 || p[4] != '-' || p[7] != '-' || (p[10] != 'T' && p[10] != ' ') ||
	    p[13] != ':' || p[16] != ':')
		return TIME_NONE;
	y = two(p) < 0 || two(p + 2) < 0 ? -1 : two(p) * 100 + two(p + 2);
	mo = two(p + 5);
	d = two(p + 8);
	h = two(p + 11);
	mi = two(p + 14);
	s = two(p + 17);
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 ||
	    s < 0 || s > 60)
		return TIME_NONE;
	if (p[i] == '.')
		for (k = 0, i++; i < n && p[i] >= '0' && p[i] <= '9'; i++, k++)
			ms += k < ARRAY_LEN(weight) ? (p[i] - '0') * weight[k] : 0;
	if (i < n && (p[i] == '+' || p[i] == '-') && n - i >= 6 && p[i + 3] == ':') {
		int64_t oh = two(p + i + 1), om = two(p + i + 4);

		if (oh < 0 || om < 0)
			return TIME_NONE;
		off = (oh * 60 + om) * (p[i] == '+' ? 1 : -1);
		i += 6;
	} else if (i < n && p[i] == 'Z') {
		i++;
	}
	if (i != n)
		return TIME_NONE;
	v = ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi - off) * 60 + s;
	v = v * 1000 + ms;
	return v >= 0 ? v : TIME_NONE;
}

bool
agent_say(const struct json *j, const char *label, const char *path, struct buf *out)
{
	int t = json_path_typed(j, 0, path, JSON_STRING);

	if (t < 0)
		return false;
	buf_adds(out, label);
	json_decode(j, t, out);
	return true;
}
