/* gen_stores.c: the agents' own session stores for `make bench` (issue 23),
 * made from the real ones in tests/stores/. Deterministic: the same
 * arguments give the same bytes and file times on every run and machine.
 *
 *   tests/gen_stores CLAUDE_JSONL CODEX_JSONL NCLAUDE NCODEX KIB HOME
 *
 * writes NCLAUDE Claude Code sessions into HOME/.claude/projects/<slug>/
 * and NCODEX Codex rollouts into HOME/.codex/sessions/YYYY/MM/DD/, each of
 * about KIB KiB, in the layout the CLIs use (../shared/STORES.md).
 *
 *   tests/gen_stores --transcript CLAUDE_JSONL MB FILE
 *
 * writes one Claude Code session of about MB MB to FILE.
 *
 * A session is its fixture's head (Claude: the records before the first
 * prompt; Codex: session_meta) and then its turn (the rest of the file)
 * again and again until the size is reached, as a long session of many
 * turns. Each copy is made distinct the way the CLI would write it: every
 * UUID but the session's gets new last 12 digits, message, tool-use,
 * request and call ids get a suffix (usage is counted once per message id:
 * no copy is a duplicate), Codex's `ordinal` goes on counting and its
 * cumulative `total_token_usage` and `thread_token_usage` go on adding up,
 * and each turn's clock is 10 s after the one before. The session id is new
 * per session, the fixture's date (2026-11-27) becomes the session's own
 * day, which also names Codex's folders, and the file's time is that day. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

#define FIXTURE_DATE "2026-11-27"
#define MAX_TOTALS 8
#define TURN_SECONDS 10

/* A fixture read whole, split into head and turn. */
struct fixture {
	char *p;
	size_t n;
	size_t head;   /* bytes of the head; the turn follows */
	char sid[37];  /* the session's UUID in the fixture */
	size_t nlines; /* lines of the turn (for `ordinal`) */
	int ntotals;   /* Codex: the turn's last total_token_usage */
	char tkey[MAX_TOTALS][40];
	long long tval[MAX_TOTALS];
};

/* What one copy of a line is rewritten with. */
struct copy {
	const struct fixture *fx;
	char sid[37];  /* the new session id */
	char date[11]; /* the session's day, YYYY-MM-DD */
	uint64_t salt; /* distinct per session and turn */
	unsigned sess, turn;
};

static uint64_t
mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static int
ishex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* Whether a lowercase UUID starts at p (with at least 36 bytes there). */
static int
is_uuid(const char *p, const char *end)
{
	if (end - p < 36)
		return 0;
	for (int i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (p[i] != '-')
				return 0;
		} else if (!ishex((unsigned char)p[i])) {
			return 0;
		}
	}
	return 1;
}

static void
die(const char *what)
{
	perror(what);
	exit(1);
}

static void
read_fixture(struct fixture *fx, const char *path, int codex)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		die(path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	if (n <= 0)
		die(path);
	memset(fx, 0, sizeof *fx);
	fx->p = malloc((size_t)n + 1);
	if (fx->p == NULL || fread(fx->p, 1, (size_t)n, f) != (size_t)n)
		die(path);
	fclose(f);
	fx->n = (size_t)n;
	fx->p[n] = '\0';
	/* The session id: the first UUID after "sessionId" or "session_id". */
	const char *s = strstr(fx->p, codex ? "\"session_id\":\"" : "\"sessionId\":\"");
	if (s == NULL || !is_uuid(strchr(s, ':') + 2, fx->p + n)) {
		fprintf(stderr, "gen_stores: %s: no session id\n", path);
		exit(1);
	}
	memcpy(fx->sid, strchr(s, ':') + 2, 36);
	/* The head: Codex's first line, Claude's lines before the first prompt. */
	const char *h = codex ? strchr(fx->p, '\n') : strstr(fx->p, "\"promptId\":");
	if (h == NULL) {
		fprintf(stderr, "gen_stores: %s: no turn\n", path);
		exit(1);
	}
	if (!codex)
		while (h > fx->p && h[-1] != '\n')
			h--;
	else
		h++;
	fx->head = (size_t)(h - fx->p);
	for (const char *q = h; q < fx->p + n; q++)
		fx->nlines += *q == '\n';
	/* The last cumulative usage of the turn: each copy adds it again. */
	const char *t = NULL;
	for (const char *q = h; (q = strstr(q, "\"total_token_usage\":{")) != NULL; q++)
		t = q;
	if (t != NULL) {
		t = strchr(t, '{') + 1;
		while (*t == '"' && fx->ntotals < MAX_TOTALS) {
			const char *e = strchr(t + 1, '"');
			if (e == NULL || e - t - 1 >= 40 || e[1] != ':')
				break;
			memcpy(fx->tkey[fx->ntotals], t + 1, (size_t)(e - t - 1));
			fx->tval[fx->ntotals++] = strtoll(e + 2, (char **)&t, 10);
			if (*t == ',')
				t++;
		}
	}
}

/* The key ending just before p (p at the ':' after `"key"`), or NULL. */
static int
key_before(const char *start, const char *p, const char **k, size_t *klen)
{
	if (p - start < 3 || p[-1] != '"')
		return 0;
	const char *q = p - 2;
	while (q > start && *q != '"')
		q--;
	if (*q != '"')
		return 0;
	*k = q + 1;
	*klen = (size_t)(p - 1 - *k);
	return 1;
}

static const char *const id_prefix[] = {"msg_",  "toolu_", "req_", "resp_",
					"call_", "fc_",    "fco_", NULL};

/* The clock after a date at p ("T09:34:26.960Z"), TURN_SECONDS later per
 * turn (kept within the day); returns where it ends. */
static const char *
put_clock(FILE *out, const char *p, const char *end, const struct copy *c)
{
	if (end - p < 9 || p[0] != 'T' || p[3] != ':' || p[6] != ':')
		return p;
	for (int i = 1; i < 9; i++)
		if (i != 3 && i != 6 && (p[i] < '0' || p[i] > '9'))
			return p;
	long s = ((p[1] - '0') * 10 + p[2] - '0') * 3600L + ((p[4] - '0') * 10 + p[5] - '0') * 60L +
		 (p[7] - '0') * 10 + p[8] - '0' + (long)c->turn * TURN_SECONDS;
	if (s > 86399)
		s = 86399;
	fprintf(out, "T%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	return p + 9;
}

/* Writes the line [p, end) rewritten for one copy. */
static void
put_line(FILE *out, const char *p, const char *end, const struct copy *c)
{
	const char *start = p;
	int in_total = 0;
	while (p < end) {
		char ch = *p;
		if (ch == '-' || ishex((unsigned char)ch)) {
			if ((p == start || !ishex((unsigned char)p[-1])) && is_uuid(p, end)) {
				if (memcmp(p, c->fx->sid, 36) == 0) {
					fwrite(c->sid, 1, 36, out);
				} else {
					uint64_t v = strtoull(p + 24, NULL, 16) ^ mix(c->salt);
					fwrite(p, 1, 24, out);
					fprintf(out, "%012llx",
						(unsigned long long)(v & 0xffffffffffffull));
				}
				p += 36;
				continue;
			}
			if (end - p >= 10 && memcmp(p, FIXTURE_DATE, 10) == 0) {
				fwrite(c->date, 1, 10, out);
				p += 10;
				p = put_clock(out, p, end, c);
				continue;
			}
		}
		if (ch == '"' && p > start && p[-1] != '\\') {
			/* a string opens or closes here: an id to suffix? */
			for (int i = 0; id_prefix[i] != NULL; i++) {
				size_t l = strlen(id_prefix[i]);
				if ((size_t)(end - p - 1) > l &&
				    memcmp(p + 1, id_prefix[i], l) == 0) {
					const char *e = p + 1;
					while (e < end && *e != '"' && *e != '\\' && *e != '-')
						e++;
					/* (a value: "call_id", a key, is left alone) */
					if (e < end && *e != '-' &&
					    !(*e == '"' && e + 1 < end && e[1] == ':')) {
						fwrite(p, 1, (size_t)(e - p), out);
						fprintf(out, "G%uT%u", c->sess, c->turn);
						p = e;
					}
					break;
				}
			}
			if (*p != '"')
				continue;
		}
		if (ch == ':' && (p[1] == '{' || (p[1] >= '0' && p[1] <= '9'))) {
			const char *k;
			size_t kl;
			if (key_before(start, p, &k, &kl)) {
				if ((kl == 17 && memcmp(k, "total_token_usage", 17) == 0) ||
				    (kl == 18 && memcmp(k, "thread_token_usage", 18) == 0))
					in_total = 1;
				long long add = -1;
				if (kl == 7 && memcmp(k, "ordinal", 7) == 0)
					add = (long long)c->turn * (long long)c->fx->nlines;
				for (int i = 0; in_total && i < c->fx->ntotals; i++)
					if (strlen(c->fx->tkey[i]) == kl &&
					    memcmp(c->fx->tkey[i], k, kl) == 0)
						add = c->turn * c->fx->tval[i];
				if (add >= 0 && p[1] != '{') {
					char *e;
					long long v = strtoll(p + 1, &e, 10);
					fprintf(out, ":%lld", v + add);
					p = e;
					continue;
				}
			}
		}
		if (ch == '}')
			in_total = 0;
		putc(ch, out);
		p++;
	}
}

/* Writes the lines of [p, p + n) rewritten for one copy. */
static void
put_lines(FILE *out, const char *p, size_t n, const struct copy *c)
{
	const char *end = p + n;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		e = e == NULL ? end : e + 1;
		put_line(out, p, e, c);
		p = e;
	}
}

/* The session i's day: 2025-12-01 onwards, one day per 8 sessions. */
static void
session_day(unsigned i, int *y, int *m, int *d)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int day = (int)(i / 8);
	*y = 2025, *m = 12, *d = 1;
	while (day-- > 0) {
		if (++*d > mdays[*m - 1]) {
			*d = 1;
			if (++*m > 12)
				*m = 1, ++*y;
		}
	}
}

/* Writes session i of fx to path, about bytes long. */
static unsigned long long
write_session(const struct fixture *fx, unsigned i, int codex, unsigned long long bytes,
	      const char *path, const struct copy *base)
{
	FILE *out = fopen(path, "wb");
	if (out == NULL)
		die(path);
	static char buf[1 << 20];
	setvbuf(out, buf, _IOFBF, sizeof buf);
	struct copy c = *base;
	c.sess = i;
	c.turn = 0;
	c.salt = ((uint64_t)i << 32) | (codex ? 1u << 31 : 0);
	put_lines(out, fx->p, fx->head, &c);
	do {
		put_lines(out, fx->p + fx->head, fx->n - fx->head, &c);
		c.turn++;
		c.salt = ((uint64_t)i << 32) | (codex ? 1u << 31 : 0) | c.turn;
	} while ((unsigned long long)ftell(out) < bytes);
	unsigned long long n = (unsigned long long)ftell(out);
	if (fclose(out) != 0)
		die(path);
	return n;
}

static void
mkdirs(char *path)
{
	for (char *s = path + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(path, 0755);
			*s = '/';
		}
	mkdir(path, 0755);
}

static void
set_time(const char *path, int y, int m, int d, unsigned i)
{
	/* days since the epoch of y-m-d (civil calendar) */
	int yy = y - (m <= 2), era = (yy >= 0 ? yy : yy - 399) / 400;
	int yoe = yy - era * 400, mp = (m + 9) % 12;
	int doy = (153 * mp + 2) / 5 + d - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	long long days = (long long)era * 146097 + doe - 719468;
	struct timeval tv[2];
	tv[0].tv_sec = tv[1].tv_sec = (time_t)(days * 86400 + 9 * 3600 + (i % 8) * 600);
	tv[0].tv_usec = tv[1].tv_usec = 0;
	if (utimes(path, tv) != 0)
		die(path);
}

static void
new_copy(struct copy *c, const struct fixture *fx, unsigned i, int codex, int *y, int *m, int *d)
{
	memset(c, 0, sizeof *c);
	c->fx = fx;
	uint64_t a = mix(i * 2u + (unsigned)codex), b = mix(a);
	snprintf(c->sid, sizeof c->sid, "%08x-%04x-4%03x-8%03x-%012llx", (unsigned)(a >> 32),
		 (unsigned)(a >> 16) & 0xffff, (unsigned)a & 0xfff, (unsigned)(b >> 48) & 0xfff,
		 (unsigned long long)(b & 0xffffffffffffull));
	session_day(i, y, m, d);
	snprintf(c->date, sizeof c->date, "%04d-%02d-%02d", *y, *m, *d);
}

int
main(int argc, char **argv)
{
	struct fixture cl, cx;
	struct copy c;
	int y, m, d;
	char path[4096];

	if (argc == 5 && strcmp(argv[1], "--transcript") == 0) {
		read_fixture(&cl, argv[2], 0);
		new_copy(&c, &cl, 0, 0, &y, &m, &d);
		unsigned long long n = write_session(
			&cl, 0, 0, strtoull(argv[3], NULL, 10) * 1000000ull, argv[4], &c);
		fprintf(stderr, "gen_stores: %s: %llu bytes, one Claude Code session\n", argv[4],
			n);
		return 0;
	}
	if (argc != 7) {
		fprintf(stderr,
			"usage: gen_stores CLAUDE_JSONL CODEX_JSONL NCLAUDE NCODEX KIB HOME\n"
			"       gen_stores --transcript CLAUDE_JSONL MB FILE\n");
		return 2;
	}
	read_fixture(&cl, argv[1], 0);
	read_fixture(&cx, argv[2], 1);
	unsigned ncl = (unsigned)strtoul(argv[3], NULL, 10),
		 ncx = (unsigned)strtoul(argv[4], NULL, 10);
	unsigned long long each = strtoull(argv[5], NULL, 10) * 1024ull, total = 0;
	const char *home = argv[6];
	for (unsigned i = 0; i < ncl; i++) {
		new_copy(&c, &cl, i, 0, &y, &m, &d);
		snprintf(path, sizeof path, "%s/.claude/projects/-home-dev-src-project%02u", home,
			 i % 40);
		mkdirs(path);
		snprintf(path, sizeof path,
			 "%s/.claude/projects/-home-dev-src-project%02u/%s.jsonl", home, i % 40,
			 c.sid);
		total += write_session(&cl, i, 0, each, path, &c);
		set_time(path, y, m, d, i);
	}
	for (unsigned i = 0; i < ncx; i++) {
		new_copy(&c, &cx, i, 1, &y, &m, &d);
		snprintf(path, sizeof path, "%s/.codex/sessions/%04d/%02d/%02d", home, y, m, d);
		mkdirs(path);
		snprintf(path, sizeof path,
			 "%s/.codex/sessions/%04d/%02d/%02d/rollout-%sT09-%02u-00-%s.jsonl", home,
			 y, m, d, c.date, (i % 8) * 10, c.sid);
		total += write_session(&cx, i, 1, each, path, &c);
		set_time(path, y, m, d, i);
	}
	fprintf(stderr,
		"gen_stores: %u Claude Code sessions and %u Codex rollouts, %llu bytes, in %s\n",
		ncl, ncx, total, home);
	return 0;
}
