/* remote_run.c: the remote sources kept as local mirrors. One process of
 * agentview's own (forked before anything is read, in a session of its
 * own) runs `ssh ... HOST sh -s` for each remote source, sends it
 * remote.c's program, and writes the bytes of the frames that come back
 * into a private folder (0700), at the offsets they say: so a remote file
 * is a local file that grows, is replaced or goes, and everything that
 * reads, follows and lists local files (source.c, input.c, fleet.c) reads
 * it unchanged. Nothing waits on ssh but that process: the screen never
 * stalls on a slow remote.
 *
 * A connection that drops is made again with a growing pause, from the
 * offsets written (bytes are written at their offset: a frame sent twice
 * doubles nothing); one that never worked is said and its source dropped.
 * The process ends when agentview does (the pipe it holds closes), and
 * takes its ssh children, their master connections and the folder with
 * it. No curses. */
#include "remote.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fleet.h"
#include "sig.h"
#include "store.h"
#include "text.h"

/* A connection is given up as stalled after this long without a byte
 * (the remote sends a frame a second); pauses before a new connection
 * grow from 1 s to this. */
#define STALL_MS 15000
#define PAUSE_MAX_MS 8000
/* The most of a message said (a remote's error is up to a frame long). */
#define SAY_MAX 400
/* Connections that may drop before a source's first round is read. */
#define START_TRIES 3
/* How long the screen waits for the first rounds of folders before it
 * shows what it has: their files then come in as they are read. */
#define START_WAIT_MS 1000

enum { R_IDLE, R_RUNNING, R_DEAD };

struct rsrc {
	struct remote_spec spec;
	char *mirror;   /* the local folder of its files */
	char kind;      /* 0 not known yet, 'd' a folder, 'f' a file, 's' the
			 remote's own sessions (a folder a source) */
	char **names;   /* a folder's files asked for; a file: its name */
	uint32_t *slot; /* names by their hash: index + 1, 0 free (nslot a
			   power of two, at most half full) */
	size_t nslot;
	uint64_t *off;
	char **ino;
	uint64_t *hole; /* two a file: the bytes [from, to) not sent yet */
	int64_t *mt;    /* its time, as the last S said by this clock
			   (INT64_MIN: none) */
	bool *want;     /* asked for whole (remote_whole), not answered yet */
	bool *head;     /* the rest of its head asked for (remote_head) */
	size_t n, cap;
	bool heads;  /* big files as the list reads them */
	bool single; /* their first look one by one: a batch was not as said */
	struct batch {
		uint32_t idx; /* from 1 */
		uint64_t size, namelen;
	} * bat; /* the files of the batch coming (A), its heads and tails */
	size_t nbat, batcap;
	struct buf bheads, btails; /* B and C; or the whole files, W */
	bool whole;                /* the batch's bytes are W's */
	struct opened {
		size_t i;     /* the file */
		uint64_t len; /* its bytes from 0 on without a hole, copied */
		int pct;      /* the last said */
	} * op;               /* files opened before they were whole (remote_open): each
		  read at its open path, a copy that grows as the hole fills */
	size_t nop, opcap;
	int state;
	pid_t pid;
	int out, err; /* the ssh child's stdout and stderr, or -1 */
	struct rparser rp;
	struct buf errtxt; /* the end of what ssh said on stderr */
	bool ever;         /* a connection ever worked */
	bool ready;        /* its first round is all written */
	bool again;        /* names were added: a new program after this round */
	bool rows;         /* its first rows came from an agentview there */
	bool adopt;        /* its program was given no names: it reads those
			      of its first list at once (remote.c) */
	bool down;         /* its .down is written: the connection dropped,
			      and no round of a new one has ended yet */
	const char *why;   /* the last rule the remote broke, or NULL */
	char rpwhy[80];
	int attempts;
	int64_t next_ms, last_ms;
	int64_t skew; /* seconds this clock is ahead of the remote's (U) */
};

/* The parent's side: what each remote source became. */
static char *mirror_root;
/* The folder of ssh's control sockets: in mirror_root, or in /tmp when
 * that would make a socket's path longer than a socket's address holds
 * (ssh adds 40 and 17 bytes to it). */
static char *control_dir;
/* The news pipe: the parent's end, the mirror process's. */
static int news_in = -1, news_out = -1;
/* Files asked for whole (remote_whole): a path a line to the mirror
 * process, the same path back once it is. The parent's ends, the mirror
 * process's. */
static int want_out = -1, whole_in = -1, want_in = -1, whole_out = -1;
struct mirror {
	struct store_live *sl;     /* its stores' liveness (kind 's'), or NULL */
	struct remote_procs procs; /* its processes, from its .live */
	bool procs_known;          /* .live was there and read */
	int64_t procs_ms;          /* when; INT64_MIN: never */
	int64_t down_ms;           /* when its connection dropped, as its
				      .down says; INT64_MIN: it is up */
	char *dir;                 /* the local folder */
	char *host;
	char *port; /* digits, or NULL */
	char *path; /* the remote path as typed */
	char kind;  /* 'd', 'f' or 's' */
};
static struct mirror *mirrors;
static size_t nmirrors;
static const struct mirror *mirror_of(const char *path);

/* "ControlPath=DIR/%C", DIR's own '%' doubled. */
static void
control_path(struct buf *b)
{
	buf_adds(b, "ControlPath=");
	for (const char *c = control_dir; *c != '\0'; c++) {
		if (*c == '%')
			buf_addc(b, '%');
		buf_addc(b, *c);
	}
	buf_adds(b, "/%C");
}

/* An argument vector of copies, NULL-terminated as it grows. */
struct args {
	char **v;
	size_t n, cap;
};

static void
args_add(struct args *a, const char *s)
{
	ARRAY_RESERVE(a->v, a->cap, a->n + 2);
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

static void
args_free(struct args *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof *a);
}

/* The command that is ssh: $AGENTVIEW_SSH split at blanks (no shell), or
 * ssh; then the options every connection shares. */
static void
ssh_words(struct args *a)
{
	const char *env = getenv("AGENTVIEW_SSH");
	static const char *const opts[] = {
		"-T",
		"-o",
		"BatchMode=yes",
		"-o",
		"ControlMaster=auto",
		"-o",
		"ControlPersist=60",
		"-o",
		"ConnectTimeout=10",
		"-o",
		"ServerAliveInterval=5",
	};
	struct buf words = {0}, cpath = {0};

	buf_adds(&words, env != NULL && env[strspn(env, " \t")] != '\0' ? env : "ssh");
	for (char *w = strtok(words.p, " \t"); w != NULL; w = strtok(NULL, " \t"))
		args_add(a, w);
	for (size_t i = 0; i < ARRAY_LEN(opts); i++)
		args_add(a, opts[i]);
	control_path(&cpath);
	args_add(a, "-o");
	args_add(a, cpath.p);
	buf_free(&words);
	buf_free(&cpath);
}

/* Fork and exec argv with stdin, stdout and stderr on the given
 * descriptors (-1: /dev/null). */
static pid_t
spawn(char **argv, int in, int out, int err)
{
	pid_t pid = fork();
	int null;

	if (pid != 0)
		return pid;
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	dup2(in >= 0 ? in : null, 0);
	dup2(out >= 0 ? out : null, 1);
	dup2(err >= 0 ? err : null, 2);
	sig_child_reset();
	execvp(argv[0], argv);
	dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static void
nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* A pipe end kept by one side of the mirror's fork: closed on exec, and
 * with nb never blocking. */
static int
pipe_end(int fd, bool nb)
{
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (nb)
		nonblock(fd);
	return fd;
}

/* Start r's connection: ssh running the program for what r knows. */
static void
connect_src(struct rsrc *r, int64_t now)
{
	struct buf prog = {0};
	struct args a = {0};
	int in[2], out[2], err[2];
	uint64_t *fill;

	ssh_words(&a);
	if (r->spec.port != NULL) {
		args_add(&a, "-p");
		args_add(&a, r->spec.port);
	}
	args_add(&a, "--");
	args_add(&a, r->spec.host);
	args_add(&a, "sh");
	args_add(&a, "-s");
	/* The holes of the files asked for whole are sent first, and the
	 * rest of the heads asked for. */
	fill = xcalloc(2 * r->n + 1, sizeof *fill);
	for (size_t i = 0; i < r->n; i++)
		if (r->want[i] || r->head[i]) {
			fill[2 * i] = r->hole[2 * i];
			fill[2 * i + 1] = r->want[i]
						  ? r->hole[2 * i + 1]
						  : MIN(r->hole[2 * i + 1], (uint64_t)FLEET_HEAD);
		}
	remote_script(&prog, r->spec.path, r->kind == 'f' ? NULL : r->names, r->n, r->off, r->ino,
		      fill, r->heads, !r->single);
	free(fill);
	if (pipe(in) != 0 || pipe(out) != 0 || pipe(err) != 0)
		die("remote: pipe: %s", strerror(errno));
	for (int i = 0; i < 2; i++) {
		fcntl(in[i], F_SETFD, FD_CLOEXEC);
		fcntl(out[i], F_SETFD, FD_CLOEXEC);
		fcntl(err[i], F_SETFD, FD_CLOEXEC);
	}
	r->pid = spawn(a.v, in[0], out[1], err[1]);
	close(in[0]);
	close(out[1]);
	close(err[1]);
	/* The program is a few KiB per thousand files: it fits the pipe, or
	 * ssh reads it as it connects. */
	for (size_t at = 0; r->pid > 0 && at < prog.n;) {
		ssize_t w = write(in[1], prog.p + at, prog.n - at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		at += (size_t)w;
	}
	close(in[1]);
	r->out = out[0];
	r->err = err[0];
	nonblock(r->out);
	nonblock(r->err);
	rparser_free(&r->rp);
	rparser_init(&r->rp);
	/* A batch the last program did not end is not this one's. */
	r->nbat = 0;
	r->whole = false;
	buf_reset(&r->bheads);
	buf_reset(&r->btails);
	buf_reset(&r->errtxt);
	r->state = R_RUNNING;
	r->last_ms = now;
	r->again = false;
	r->adopt = r->kind != 'f' && r->n == 0;
	r->why = NULL;
	args_free(&a);
	buf_free(&prog);
}

/* Text s[0..n), which may hold what a remote sent (its error, up to a
 * frame's 4 MiB: hostile), appended to out through the gate of every
 * shown text, on one line, cut short. */
static void
shown(struct buf *out, const char *s, size_t n)
{
	text_sanitize(out, s, MIN(n, (size_t)SAY_MAX), TEXT_ONELINE);
	if (n > SAY_MAX)
		buf_addf(out, "… %zu bytes more", n - SAY_MAX);
}

/* Tell the parent "idx R kind", "idx M d" or "idx why" (one line,
 * sanitized); false when it no longer listens (it stopped waiting for
 * the first rounds: remote_start). */
static bool
report(int fd, size_t idx, const char *what)
{
	bool ok;

	struct buf b = {0};

	buf_addf(&b, "%zu ", idx);
	shown(&b, what, strlen(what));
	buf_addc(&b, '\n');
	ok = fd >= 0 && write(fd, b.p, b.n) == (ssize_t)b.n;
	buf_free(&b);
	return ok;
}

/* The local path of r's file i. */
static void
mirror_path(const struct rsrc *r, size_t i, struct buf *b)
{
	buf_reset(b);
	buf_addf(b, "%s/%s", r->mirror, r->names[i]);
}

/* The local path file i of r is read at while it is opened before it is
 * whole (remote_open): in the mirror's ".open" folder, as the list skips
 * hidden names. */
static void
open_path(const struct rsrc *r, size_t i, struct buf *b)
{
	buf_reset(b);
	buf_addf(b, "%s/.open/%s", r->mirror, r->names[i]);
}

/* The slot of name[0..n) in r's index: the one that holds it, or the
 * free one where it would go. */
static size_t
name_slot(const struct rsrc *r, const char *name, size_t n)
{
	size_t mask = r->nslot - 1, i = hash_bytes(name, n, 0) & mask;

	while (r->slot[i] != 0 && !(strlen(r->names[r->slot[i] - 1]) == n &&
				    memcmp(r->names[r->slot[i] - 1], name, n) == 0))
		i = (i + 1) & mask;
	return i;
}

/* Whether r has asked for the file name[0..n) already. */
static bool
has_name(const struct rsrc *r, const char *name, size_t n)
{
	return r->nslot > 0 && r->slot[name_slot(r, name, n)] != 0;
}

static void
add_name(struct rsrc *r, const char *name, size_t n)
{
	size_t cap = r->cap;

	ARRAY_RESERVE(r->names, r->cap, r->n + 1);
	/* The arrays beside names grow with it, only when it grew (a
	 * realloc each name would be a copy each under some allocators). */
	if (r->cap != cap || r->off == NULL) {
		r->off = xreallocarray(r->off, r->cap, sizeof *r->off);
		r->ino = xreallocarray(r->ino, r->cap, sizeof *r->ino);
		r->hole = xreallocarray(r->hole, r->cap, 2 * sizeof *r->hole);
		r->mt = xreallocarray(r->mt, r->cap, sizeof *r->mt);
		r->want = xreallocarray(r->want, r->cap, sizeof *r->want);
		r->head = xreallocarray(r->head, r->cap, sizeof *r->head);
	}
	r->names[r->n] = xstrndup(name, n);
	r->off[r->n] = 0;
	r->ino[r->n] = NULL;
	r->hole[2 * r->n] = r->hole[2 * r->n + 1] = 0;
	r->mt[r->n] = INT64_MIN;
	r->want[r->n] = false;
	r->head[r->n] = false;
	r->n++;
	if (2 * r->n > r->nslot) {
		free(r->slot);
		r->nslot = r->nslot > 0 ? r->nslot * 2 : 64;
		r->slot = xcalloc(r->nslot, sizeof *r->slot);
		for (size_t i = 0; i < r->n; i++)
			r->slot[name_slot(r, r->names[i], strlen(r->names[i]))] = (uint32_t)i + 1;
	} else {
		r->slot[name_slot(r, name, n)] = (uint32_t)r->n;
	}
}

/* The folders of r's file i's path under its mirror (the remote's own
 * sessions: "claude/projects/x/y.jsonl"), made. */
static void
make_parents(const struct rsrc *r, size_t i)
{
	struct buf b = {0};

	mirror_path(r, i, &b);
	for (char *c = b.p + strlen(r->mirror) + 1; (c = strchr(c, '/')) != NULL; c++) {
		*c = '\0';
		mkdir(b.p, 0700);
		*c = '/';
	}
	buf_free(&b);
}

/* A part of a folder's list (a round's D frames are its list): names not
 * asked for yet are added (as many as frames can number), and a new
 * program asks for them; the first list of a program given no names is
 * read by it already, numbered as it comes (a name in it twice: a new
 * program). NULL, or the rule it broke. */
static const char *
take_list(struct rsrc *r, const char *p, size_t len)
{
	const char *end = p + len;
	bool adopt = r->adopt;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		if (r->kind == 's' ? !remote_store_name_ok(p, n) : !remote_name_ok(p, n))
			return "a file name that is not one here";
		if (!has_name(r, p, n)) {
			if (r->n >= RFRAME_FILES)
				return "more files than a folder may have";
			add_name(r, p, n);
			if (r->kind == 's')
				make_parents(r, r->n - 1);
			r->again = r->again || !adopt;
		} else if (adopt) {
			r->again = true;
			return "a file named twice";
		}
		p += n + 1;
	}
	return NULL;
}

/* An empty file in place of file i (atomically: a reader following it
 * sees it replaced, never shorter in place). */
static void
replace_empty(struct rsrc *r, size_t i, struct buf *path)
{
	struct buf tmp = {0};
	int fd;

	mirror_path(r, i, path);
	buf_addf(&tmp, "%s/.replace", r->mirror);
	fd = open(tmp.p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0) {
		close(fd);
		rename(tmp.p, path->p);
	}
	buf_free(&tmp);
	r->off[i] = 0;
}

/* Say what happened to a source: on stderr, or quiet, down the news
 * pipe (dropped when the screen has not read the last ones). */
static void PRINTF_LIKE(2, 3) say(bool quiet, const char *fmt, ...)
{
	struct buf raw = {0}, b = {0};
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&raw, fmt, ap);
	va_end(ap);
	shown(&b, raw.p, raw.n);
	if (!quiet)
		fprintf(stderr, "agentview: %s\n", b.p);
	else if (news_out >= 0) {
		buf_addc(&b, '\n');
		if (write(news_out, b.p, b.n) < 0) {
			/* full, or the screen is gone */
		}
	}
	buf_free(&raw);
	buf_free(&b);
}

/* The name of a remote file's mirror: its own, unless that cannot be a
 * local name. */
static const char *
file_name(const struct remote_spec *s)
{
	const char *base = strrchr(s->path, '/');

	base = base != NULL ? base + 1 : s->path;
	return remote_name_ok(base, strlen(base)) ? base : "session.ndjson";
}

/* Tell the parent file i of r is whole (or will not be: gone). */
static void
answer(struct rsrc *r, size_t i)
{
	struct buf path = {0};

	r->want[i] = false;
	mirror_path(r, i, &path);
	buf_addc(&path, '\n');
	if (whole_out >= 0 && write(whole_out, path.p, path.n) < 0) {
		/* the screen is gone, or asks no more */
	}
	buf_free(&path);
}

/* File i of r replaced by a copy of itself (its bytes where they are,
 * its hole left a hole, its time kept): whoever reads it reads it again
 * (the list, after the rest of its head came in place). */
static void
replace_copy(struct rsrc *r, size_t i)
{
	struct buf path = {0}, tmp = {0};
	uint64_t from[2] = {0, r->hole[2 * i + 1]};
	uint64_t to[2] = {r->hole[2 * i], r->off[i]};
	struct stat st;
	char chunk[65536];
	bool ok;
	int in, out;

	if (r->hole[2 * i] >= r->hole[2 * i + 1]) {
		to[0] = r->off[i];
		from[1] = to[1];
	}
	mirror_path(r, i, &path);
	buf_addf(&tmp, "%s/.replace", r->mirror);
	in = open(path.p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	out = open(tmp.p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	ok = in >= 0 && out >= 0 && fstat(in, &st) == 0 && ftruncate(out, (off_t)r->off[i]) == 0;
	for (int k = 0; ok && k < 2; k++)
		for (uint64_t at = from[k]; ok && at < to[k];) {
			ssize_t got =
				pread(in, chunk, (size_t)MIN(sizeof chunk, to[k] - at), (off_t)at);

			ok = got > 0 && pwrite(out, chunk, (size_t)got, (off_t)at) == got;
			at += ok ? (uint64_t)got : 0;
		}
	if (ok)
		ok = futimens(out, (struct timespec[2]){{.tv_nsec = UTIME_OMIT}, st.st_mtim}) == 0;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (ok)
		rename(tmp.p, path.p);
	else
		unlink(tmp.p);
	buf_free(&path);
	buf_free(&tmp);
}

/* The end of a round: the files asked for whole that are answered, or
 * a new program that sends their holes. */
static void
round_end(struct rsrc *r)
{
	for (size_t i = 0; i < r->n; i++) {
		/* A head asked for: once sent, a file that holds it (one try). */
		if (r->head[i] && (r->hole[2 * i] >= MIN(r->hole[2 * i + 1], (uint64_t)FLEET_HEAD)))
			replace_copy(r, i);
		r->head[i] = false;
	}
	for (size_t i = 0; i < r->n; i++)
		if (r->want[i] && r->hole[2 * i] >= r->hole[2 * i + 1])
			answer(r, i);
		else if (r->want[i])
			r->again = true;
}

static bool take_frame(struct rsrc *r, size_t idx, const struct rframe *f, int rep, bool quiet);

/* Put data in the mirror's file name (".live", ".rows", ".down") whole:
 * written to name.tmp, then renamed over it, so that a reader never
 * meets it half written. 1 when it is in place; 0 when it could not be
 * (the temporary removed); -1 when no temporary could be made. */
static int
mirror_put(const struct rsrc *r, const char *name, const char *data, size_t len)
{
	struct buf path = {0}, tmp = {0};
	int fd, done = -1;

	buf_addf(&path, "%s/%s", r->mirror, name);
	buf_addf(&tmp, "%s.tmp", path.p);
	fd = open(tmp.p, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		bool all = write(fd, data, len) == (ssize_t)len;

		done = close(fd) == 0 && all && rename(tmp.p, path.p) == 0;
		if (done == 0)
			unlink(tmp.p);
	}
	buf_free(&path);
	buf_free(&tmp);
	return done;
}

/* The rows an agentview there made of a folder (R), before its files'
 * bytes: read (remote_rows_parse: anything not as remote.h says is let
 * go, the sh path alone goes on), then left in the mirror's ".rows" for
 * the list (fleet_preset), and the screen told it need wait no more.
 * Only the first look of a folder on the screen asks for them. */
static void
take_rows(struct rsrc *r, size_t idx, const struct rframe *f, int rep, bool quiet)
{
	struct buf rows = {0};

	/* (its files' times by this clock, as the sh path's copies have
	 * theirs: the remote's clock said first, U) */
	if (!r->heads || r->kind != 0 || r->ready || r->rows || r->spec.path[0] == '\0' ||
	    !remote_rows_shift(f->data, f->len, r->skew, &rows)) {
		buf_free(&rows);
		return;
	}
	if (mirror_put(r, ".rows", rows.p, rows.n) == 1) {
		r->rows = true;
		say(quiet, "%s: via agentview there", r->spec.host);
		report(rep, idx, "R d");
	}
	buf_free(&rows);
}

/* The first round of a folder whose rows an agentview there made is all
 * written: its ".rows" goes, and with it (fleet.c) a row of a file the
 * sh path does not list (removed there meanwhile). */
static void
rows_done(struct rsrc *r, bool quiet)
{
	struct buf path = {0};

	buf_addf(&path, "%s/.rows", r->mirror);
	unlink(path.p);
	buf_free(&path);
	say(quiet, "%s: every row read over ssh", r->spec.host);
}

/* The files of r opened before they were whole: the bytes of each that
 * have no hole before them, copied from its mirror to its open path (so
 * it grows there as a file being written does), and how far it is said
 * ("devbox: fetching x.jsonl… 40%", then "fetched"). */
static void
sync_open(struct rsrc *r, bool quiet)
{
	struct buf from = {0}, to = {0};
	char chunk[65536];

	for (size_t k = 0; k < r->nop; k++) {
		struct opened *o = &r->op[k];
		size_t i = o->i;
		uint64_t end = r->hole[2 * i] < r->hole[2 * i + 1] ? r->hole[2 * i] : r->off[i];
		int in, out, pct;

		if (end <= o->len)
			continue;
		mirror_path(r, i, &from);
		open_path(r, i, &to);
		in = open(from.p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		out = open(to.p, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
		while (in >= 0 && out >= 0 && o->len < end) {
			ssize_t got = pread(in, chunk, (size_t)MIN(sizeof chunk, end - o->len),
					    (off_t)o->len);

			if (got <= 0 || pwrite(out, chunk, (size_t)got, (off_t)o->len) != got)
				break;
			o->len += (uint64_t)got;
		}
		if (in >= 0)
			close(in);
		if (out >= 0)
			close(out);
		pct = r->off[i] > 0 ? (int)(o->len * 100 / r->off[i]) : 100;
		if (o->len >= r->off[i] && o->pct < 100)
			say(quiet, "%s: %s fetched", r->spec.host, r->names[i]);
		else if (pct != o->pct && o->len < r->off[i])
			say(quiet, "%s: fetching %s… %d%%", r->spec.host, r->names[i], pct);
		o->pct = o->len >= r->off[i] ? 100 : pct;
	}
	buf_free(&from);
	buf_free(&to);
}

/* File i of r opened before it is whole: its open path made (empty, then
 * filled by sync_open). */
static void
open_early(struct rsrc *r, size_t i, bool quiet)
{
	struct buf b = {0};
	int fd;

	for (size_t k = 0; k < r->nop; k++)
		if (r->op[k].i == i)
			return;
	open_path(r, i, &b);
	for (char *c = b.p + strlen(r->mirror) + 1; (c = strchr(c, '/')) != NULL; c++) {
		*c = '\0';
		mkdir(b.p, 0700);
		*c = '/';
	}
	fd = open(b.p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0)
		close(fd);
	ARRAY_RESERVE(r->op, r->opcap, r->nop + 1);
	r->op[r->nop++] = (struct opened){i, 0, -1};
	buf_free(&b);
	sync_open(r, quiet);
}

/* The end of a batch: kept, each file's head and tail written as their
 * own frames would (F, P, F), found in the B and C bodies by length
 * (remote_split), or each small file's bytes as its one F would, found
 * in W's by their sizes; not kept, dropped (the remote sends them one
 * by one). A batch not laid out as its files say: the connection made
 * again with first looks one by one (a head or tail that frames
 * otherwise). */
static bool
take_batch(struct rsrc *r, size_t idx, int rep, bool quiet, bool kept)
{
	const char **heads = xcalloc(r->nbat + 1, sizeof *heads);
	const char **tails = xcalloc(r->nbat + 1, sizeof *tails);
	uint64_t *names = xcalloc(r->nbat + 1, sizeof *names);
	uint64_t *sizes = xcalloc(r->nbat + 1, sizeof *sizes);
	bool ok = true, laid = true;

	for (size_t j = 0; j < r->nbat; j++) {
		names[j] = r->bat[j].namelen;
		sizes[j] = r->bat[j].size;
		/* (B and C: big files alone) */
		if (!r->whole && r->bat[j].size <= (uint64_t)FLEET_HEAD + FLEET_TAIL + 1)
			laid = false;
	}
	if (kept && laid && r->whole)
		laid = r->btails.n == 0 &&
		       remote_split_whole(r->bheads.p, r->bheads.n, sizes, r->nbat,
					  (uint64_t)FLEET_HEAD + FLEET_TAIL + 1, heads);
	else if (kept && laid)
		laid = remote_split(r->bheads.p, r->bheads.n, names, r->nbat, REMOTE_HEAD, heads) &&
		       remote_split(r->btails.p, r->btails.n, names, r->nbat, FLEET_TAIL + 1,
				    tails);
	if (kept && !laid) {
		r->why = "a batch not laid out as its files";
		r->single = true;
		r->again = true;
		ok = false;
	}
	for (size_t j = 0; ok && kept && r->whole && j < r->nbat; j++) {
		struct rframe f = {.type = RF_BYTES,
				   .idx = r->bat[j].idx,
				   .data = heads[j],
				   .len = (size_t)r->bat[j].size};

		ok = take_frame(r, idx, &f, rep, quiet);
	}
	for (size_t j = 0; ok && kept && !r->whole && j < r->nbat; j++) {
		const struct batch *b = &r->bat[j];
		uint64_t tail = b->size - (FLEET_TAIL + 1);
		struct rframe f[3] = {
			{.type = RF_BYTES, .idx = b->idx, .data = heads[j], .len = REMOTE_HEAD},
			{.type = RF_HOLE, .idx = b->idx, .off = REMOTE_HEAD, .to = tail},
			{.type = RF_BYTES,
			 .idx = b->idx,
			 .off = tail,
			 .data = tails[j],
			 .len = FLEET_TAIL + 1},
		};

		for (int k = 0; ok && k < 3; k++)
			ok = take_frame(r, idx, &f[k], rep, quiet);
	}
	r->nbat = 0;
	r->whole = false;
	buf_reset(&r->bheads);
	buf_reset(&r->btails);
	free(heads);
	free(tails);
	free(names);
	free(sizes);
	return ok;
}

/* One frame of r's connection; false when the connection must end. */
static bool
take_frame(struct rsrc *r, size_t idx, const struct rframe *f, int rep, bool quiet)
{
	struct buf path = {0}, why = {0};
	size_t i = f->idx - 1;
	const char *broke;
	bool ok = true;
	int fd;

	if ((f->type == RF_BYTES || f->type == RF_TRUNC || f->type == RF_GONE ||
	     f->type == RF_INODE || f->type == RF_MTIME || f->type == RF_HOLE ||
	     f->type == RF_BATCH) &&
	    (r->kind == 0 || f->idx > r->n)) {
		r->why = "a file number it was not given";
		return false;
	}
	switch (f->type) {
	case RF_MODE:
		if (r->kind != 0 && r->kind != f->mode) {
			r->why = "a file that became a folder, or the other way";
			return false;
		}
		if (r->kind == 0 && f->mode == 'f')
			add_name(r, file_name(&r->spec), strlen(file_name(&r->spec)));
		/* A folder: the screen need not wait for its first round. */
		if (r->kind == 0 && f->mode == 'd' && !r->ready)
			report(rep, idx, "M d");
		r->kind = f->mode;
		break;
	case RF_LIST:
		broke = r->kind == 'd' || r->kind == 's' ? take_list(r, f->data, f->len)
							 : "a file name that is not one here";
		if (broke != NULL) {
			r->why = broke;
			ok = false;
		}
		break;
	case RF_INODE:
		free(r->ino[i]);
		buf_addf(&why, "%llu", (unsigned long long)f->ino);
		r->ino[i] = xstrdup(why.p);
		break;
	case RF_HOLE:
		/* Only a folder's file, and only where the bytes end. */
		if (r->kind == 'f' || !r->heads || f->off != r->off[i]) {
			r->why = "bytes left out where it may not";
			ok = false;
			break;
		}
		r->hole[2 * i] = f->off;
		r->hole[2 * i + 1] = f->to;
		r->off[i] = f->to;
		break;
	case RF_TRUNC:
		replace_empty(r, i, &path);
		r->hole[2 * i] = r->hole[2 * i + 1] = 0;
		for (size_t k = 0; k < r->nop; k++)
			if (r->op[k].i == i) {
				struct buf o = {0}, tmp = {0};

				/* Replaced, as its mirror is (never shorter in
				 * place under its reader). */
				open_path(r, i, &o);
				buf_addf(&tmp, "%s/.replace", r->mirror);
				fd = open(tmp.p,
					  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
					  0600);
				if (fd >= 0) {
					close(fd);
					rename(tmp.p, o.p);
				}
				r->op[k].len = 0;
				buf_free(&o);
				buf_free(&tmp);
			}
		break;
	case RF_GONE:
		mirror_path(r, i, &path);
		unlink(path.p);
		r->hole[2 * i] = r->hole[2 * i + 1] = 0;
		r->off[i] = 0;
		free(r->ino[i]);
		r->ino[i] = NULL;
		break;
	case RF_BYTES:
		/* Bytes past what was written would leave a hole. */
		if (f->off > r->off[i]) {
			r->why = "bytes past those written";
			ok = false;
			break;
		}
		mirror_path(r, i, &path);
		fd = open(path.p, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd < 0 || pwrite(fd, f->data, f->len, (off_t)f->off) != (ssize_t)f->len)
			ok = false;
		/* Its time there, said before its bytes (S): the list never
		 * reads the time of the write here. */
		if (ok && r->mt[i] != INT64_MIN) {
			struct timespec t[2] = {{.tv_nsec = UTIME_OMIT},
						{.tv_sec = (time_t)r->mt[i]}};

			futimens(fd, t);
		}
		if (fd >= 0)
			close(fd);
		if (ok && f->off + f->len > r->off[i])
			r->off[i] = f->off + f->len;
		/* Bytes of its hole, sent as asked: it shrinks. */
		if (ok && f->off <= r->hole[2 * i] && f->off + f->len > r->hole[2 * i])
			r->hole[2 * i] = MIN(f->off + f->len, r->hole[2 * i + 1]);
		break;
	case RF_CLOCK:
		r->skew = remote_skew(clock_wall_ms(), f->off);
		break;
	case RF_MTIME: {
		/* Its time, as the list reads a file's last change: now, and
		 * after each of its bytes that follow. */
		struct timespec t[2] = {{.tv_nsec = UTIME_OMIT}, {.tv_sec = 0}};

		r->mt[i] = remote_time(f->off, r->skew);
		t[1].tv_sec = (time_t)r->mt[i];
		mirror_path(r, i, &path);
		utimensat(AT_FDCWD, path.p, t, AT_SYMLINK_NOFOLLOW);
		break;
	}
	case RF_LIVE: {
		/* The remote's live processes: the file remote_live reads,
		 * replaced whole. */
		struct remote_procs procs = {0};

		if (r->kind != 's' || !remote_procs_parse(f->data, f->len, &procs)) {
			r->why = r->kind != 's' ? "processes for a folder or a file"
						: "a list of processes not as said";
			ok = false;
			break;
		}
		remote_procs_free(&procs);
		ok = mirror_put(r, ".live", f->data, f->len) != 0;
		break;
	}
	case RF_BATCH:
		if (r->kind == 'f' || !r->heads || r->single || r->off[i] != 0 || f->off == 0 ||
		    r->nbat >= RFRAME_FILES) {
			r->why = "a batch where it may not";
			ok = false;
			break;
		}
		ARRAY_RESERVE(r->bat, r->batcap, r->nbat + 1);
		r->bat[r->nbat++] = (struct batch){f->idx, f->off, f->to};
		break;
	case RF_HEADS:
	case RF_WHOLE:
		buf_reset(&r->bheads);
		buf_add(&r->bheads, f->data, f->len);
		r->whole = f->type == RF_WHOLE;
		break;
	case RF_TAILS:
		buf_reset(&r->btails);
		buf_add(&r->btails, f->data, f->len);
		break;
	case RF_BATCH_END:
		ok = take_batch(r, idx, rep, quiet, f->off == 1);
		break;
	case RF_ERROR:
		buf_add(&why, f->data, f->len);
		if (r->ready || !report(rep, idx, why.p))
			say(quiet, "%s: %s", r->spec.host, why.p);
		r->state = R_DEAD;
		ok = false;
		break;
	case RF_ROWS:
		take_rows(r, idx, f, rep, quiet);
		break;
	case RF_TICK:
		/* (the first list is whole: the next one's new names are not
		 * the program's) */
		r->adopt = false;
		round_end(r);
		if (r->down) {
			buf_reset(&path);
			buf_addf(&path, "%s/.down", r->mirror);
			unlink(path.p);
			r->down = false;
		}
		if (!r->ready && !r->again) {
			r->ready = true;
			if (r->rows)
				rows_done(r, quiet);
			report(rep, idx, r->kind == 'f' ? "R f" : r->kind == 's' ? "R s" : "R d");
		}
		/* New files: a new program that asks for them too. */
		ok = !r->again;
		break;
	default:
		break;
	}
	buf_free(&path);
	buf_free(&why);
	return ok;
}

/* The words for a connection that never worked, from what ssh said. */
static void
never_worked(const struct rsrc *r, struct buf *out)
{
	const char *t = r->errtxt.p != NULL ? r->errtxt.p : "";
	const char *last = t, *end;

	if (strstr(t, "Permission denied") != NULL) {
		buf_addf(out, "ssh needs a password for %s: run ssh %s once, or use a key",
			 r->spec.host, r->spec.host);
		return;
	}
	if (strstr(t, "Host key verification failed") != NULL) {
		buf_addf(out, "%s: its host key is not known or changed: run ssh %s once",
			 r->spec.host, r->spec.host);
		return;
	}
	/* ssh's last line says why. */
	for (const char *c = t; *c != '\0'; c++)
		if (*c == '\n' && c[1] != '\0')
			last = c + 1;
	end = strchr(last, '\n');
	if (end != NULL && end > last && end[-1] == '\r')
		end--;
	buf_addf(out, "%s: cannot connect: ", r->spec.host);
	if (end == last || *last == '\0')
		buf_adds(out, "ssh failed");
	else
		text_sanitize(out, last, end != NULL ? (size_t)(end - last) : strlen(last), 0);
}

/* The remote's own sessions (HOST:): its connection dropped now_ms
 * (wall clock), written in the mirror's .down (the first drop's time,
 * kept through the tries that follow) for remote_live, which trusts the
 * processes the last L said only REMOTE_GRACE_MS more; removed once a
 * new connection's first round has ended (its L is in .live then). */
static void
mark_down(struct rsrc *r)
{
	char text[32];
	int n;

	if (r->kind != 's' || r->down)
		return;
	n = snprintf(text, sizeof text, "%lld\n", (long long)clock_wall_ms());
	r->down = mirror_put(r, ".down", text, (size_t)n) == 1;
}

/* r's ssh ended: reap it, then connect again (now, or after a pause), or
 * give up on a source that never worked. */
static void
ended(struct rsrc *r, size_t idx, int rep, bool quiet, int64_t now)
{
	int st;

	if (r->out >= 0)
		close(r->out);
	if (r->err >= 0)
		close(r->err);
	r->out = r->err = -1;
	/* Never kill(-1): a fork that failed has no child to stop. */
	if (r->pid > 0) {
		kill(r->pid, SIGTERM);
		while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	r->pid = 0;
	if (r->state == R_DEAD)
		return;
	r->state = R_IDLE;
	if (r->again) {
		r->next_ms = now;
		return;
	}
	if (!r->ever) {
		struct buf why = {0};

		never_worked(r, &why);
		if (r->ready || !report(rep, idx, why.p))
			say(quiet, "%s", why.p);
		buf_free(&why);
		r->state = R_DEAD;
		return;
	}
	r->attempts++;
	mark_down(r);
	/* Before its first round is in, agentview waits for it: not for
	 * ever. */
	if (!r->ready && r->attempts > START_TRIES) {
		struct buf why = {0};

		buf_addf(&why,
			 "%s: the connection dropped %d times before the first round was read",
			 r->spec.host, r->attempts);
		if (r->why != NULL)
			buf_addf(&why, " (the remote sent %s)", r->why);
		if (!report(rep, idx, why.p))
			say(quiet, "%s", why.p);
		buf_free(&why);
		r->state = R_DEAD;
		return;
	}
	r->next_ms = now + MIN(PAUSE_MAX_MS, 1000 << MIN(r->attempts - 1, 4));
	if (r->why != NULL)
		say(quiet, "%s: the remote sent %s", r->spec.host, r->why);
	say(quiet, "%s: reconnecting (%d)", r->spec.host, r->attempts);
}

/* Read what r's ssh has; false once its stdout ended. */
static bool
pump(struct rsrc *r, size_t idx, int rep, bool quiet, int64_t now)
{
	char chunk[65536];
	ssize_t got = -1;
	struct rframe f;
	int k;

	while (r->err >= 0 && (got = read(r->err, chunk, sizeof chunk)) > 0) {
		buf_add(&r->errtxt, chunk, (size_t)got);
		if (r->errtxt.n > 4096) {
			memmove(r->errtxt.p, r->errtxt.p + r->errtxt.n - 2048, 2048);
			buf_cut(&r->errtxt, 2048);
		}
	}
	/* A stderr that ended is polled no more (it would wake at once). */
	if (r->err >= 0 && got == 0) {
		close(r->err);
		r->err = -1;
	}
	while ((got = read(r->out, chunk, sizeof chunk)) > 0) {
		r->last_ms = now;
		rparser_feed(&r->rp, chunk, (size_t)got);
		while ((k = rparser_next(&r->rp, &f)) == 1) {
			if (f.type == RF_HELLO)
				r->ever = true;
			/* Back once a whole round came through. */
			if (f.type == RF_TICK && r->attempts > 0) {
				say(quiet, "%s: connected again", r->spec.host);
				r->attempts = 0;
			}
			if (!take_frame(r, idx, &f, rep, quiet))
				return false;
		}
		if (r->nop > 0)
			sync_open(r, quiet);
		if (k < 0) {
			snprintf(r->rpwhy, sizeof r->rpwhy, "%s", r->rp.why);
			r->why = r->rpwhy;
			return false;
		}
		if (got < (ssize_t)sizeof chunk)
			break;
	}
	if (got == 0)
		return false;
	return got > 0 || errno == EAGAIN || errno == EINTR;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* The end: ssh children stopped, their master connections too, the
 * folder removed. */
static void
mirror_end(struct rsrc *v, size_t n)
{
	int st;

	for (size_t i = 0; i < n; i++)
		if (v[i].state == R_RUNNING && v[i].pid > 0) {
			kill(v[i].pid, SIGTERM);
			while (waitpid(v[i].pid, &st, 0) < 0 && errno == EINTR)
				;
		}
	for (size_t i = 0; i < n; i++) {
		struct args a = {0};
		pid_t pid;

		if (!v[i].ever)
			continue;
		ssh_words(&a);
		args_add(&a, "-O");
		args_add(&a, "exit");
		if (v[i].spec.port != NULL) {
			args_add(&a, "-p");
			args_add(&a, v[i].spec.port);
		}
		args_add(&a, "--");
		args_add(&a, v[i].spec.host);
		pid = spawn(a.v, -1, -1, -1);
		while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		args_free(&a);
	}
	nftw(control_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	nftw(mirror_root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Free what v[0..n) holds, and v. */
static void
rsrc_free(struct rsrc *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct rsrc *r = &v[i];

		remote_spec_free(&r->spec);
		free(r->mirror);
		for (size_t j = 0; j < r->n; j++) {
			free(r->names[j]);
			free(r->ino[j]);
		}
		free(r->names);
		free(r->slot);
		free(r->ino);
		free(r->off);
		free(r->hole);
		free(r->mt);
		free(r->want);
		free(r->head);
		rparser_free(&r->rp);
		buf_free(&r->errtxt);
		free(r->bat);
		free(r->op);
		buf_free(&r->bheads);
		buf_free(&r->btails);
	}
	free(v);
}

/* The paths asked for whole, read from the parent: each found among the
 * files of v[0..n), answered at once when it has all its bytes, else its
 * connection made again to send them (round_end answers). */
static void
take_wants(struct rsrc *v, size_t n, int rep, bool quiet)
{
	static struct buf part;
	struct buf path = {0};
	char chunk[4096];
	ssize_t got;
	char *nl;

	while ((got = read(want_in, chunk, sizeof chunk)) > 0)
		buf_add(&part, chunk, (size_t)got);
	if (got == 0) {
		close(want_in);
		want_in = -1;
	}
	while (part.n > 0 && (nl = memchr(part.p, '\n', part.n)) != NULL) {
		size_t len = (size_t)(nl - part.p);
		/* "o PATH": opened now, read at its open path as it fills;
		 * "h PATH": the rest of its head (nobody waits). */
		bool head = len > 2 && memcmp(part.p, "h ", 2) == 0;
		size_t at = len > 2 && (head || memcmp(part.p, "o ", 2) == 0) ? 2 : 0;
		bool found = false;

		for (size_t k = 0; k < n && !found; k++)
			for (size_t i = 0; i < v[k].n && !found; i++) {
				mirror_path(&v[k], i, &path);
				if (path.n != len - at ||
				    memcmp(path.p, part.p + at, len - at) != 0)
					continue;
				found = true;
				if (head) {
					/* Only a head not all there yet. */
					if (v[k].hole[2 * i] >= FLEET_HEAD ||
					    v[k].hole[2 * i] >= v[k].hole[2 * i + 1] ||
					    v[k].head[i])
						continue;
					v[k].head[i] = true;
				} else {
					v[k].want[i] = true;
				}
				if (head && v[k].state == R_RUNNING) {
					v[k].again = true;
					ended(&v[k], k, rep, quiet, clock_mono_ms());
					continue;
				}
				if (head)
					continue;
				if (v[k].hole[2 * i] >= v[k].hole[2 * i + 1]) {
					answer(&v[k], i);
					continue;
				}
				if (at > 0) {
					open_early(&v[k], i, quiet);
					if (whole_out >= 0 &&
					    write(whole_out, part.p, len + 1) < 0) {
						/* the screen is gone */
					}
				}
				if (v[k].state == R_RUNNING) {
					/* Now, not after the round's wait. */
					v[k].again = true;
					ended(&v[k], k, rep, quiet, clock_mono_ms());
				}
			}
		/* Not a file of ours: nothing to wait for, read where it is. */
		if (!found && !head && whole_out >= 0 &&
		    write(whole_out, part.p + at, len + 1 - at) < 0) {
			/* the screen is gone */
		}
		memmove(part.p, nl + 1, part.n - len - 1);
		buf_cut(&part, part.n - len - 1);
	}
	buf_free(&path);
}

/* The mirror process: until `life` closes (agentview ended). */
static void NORETURN
mirror_main(struct rsrc *v, size_t n, int life, int rep, bool quiet)
{
	struct pollfd *fds = xcalloc(2 * n + 2, sizeof *fds);

	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	setsid();
	for (;;) {
		int64_t now = clock_mono_ms();
		int wait = -1, nf = 0;

		for (size_t i = 0; i < n; i++) {
			struct rsrc *r = &v[i];

			if (r->state == R_IDLE && r->next_ms <= now)
				connect_src(r, now);
			if (r->state == R_RUNNING && now - r->last_ms > STALL_MS) {
				say(quiet, "%s: no answer for %d s", r->spec.host, STALL_MS / 1000);
				ended(r, i, rep, quiet, now);
				continue;
			}
			if (r->state == R_IDLE)
				wait = wait < 0 ? (int)(r->next_ms - now)
						: MIN(wait, (int)(r->next_ms - now));
			if (r->state == R_RUNNING)
				wait = wait < 0 ? (int)(r->last_ms + STALL_MS + 1 - now)
						: MIN(wait, (int)(r->last_ms + STALL_MS + 1 - now));
		}
		fds[nf++] = (struct pollfd){.fd = life, .events = POLLIN};
		for (size_t i = 0; i < n; i++) {
			fds[nf++] = (struct pollfd){.fd = v[i].state == R_RUNNING ? v[i].out : -1,
						    .events = POLLIN};
			fds[nf++] = (struct pollfd){.fd = v[i].state == R_RUNNING ? v[i].err : -1,
						    .events = POLLIN};
		}
		fds[nf++] = (struct pollfd){.fd = want_in, .events = POLLIN};
		if (poll(fds, (nfds_t)nf, wait < 0 ? -1 : MAX(wait, 0)) < 0 && errno != EINTR)
			break;
		if (fds[0].revents != 0)
			break;
		now = clock_mono_ms();
		for (size_t i = 0; i < n; i++)
			if (v[i].state == R_RUNNING &&
			    (fds[1 + 2 * i].revents != 0 || fds[2 + 2 * i].revents != 0) &&
			    !pump(&v[i], i, rep, quiet, now))
				ended(&v[i], i, rep, quiet, now);
		if (fds[nf - 1].revents != 0)
			take_wants(v, n, rep, quiet);
	}
	mirror_end(v, n);
	rsrc_free(v, n);
	free(fds);
	_exit(0);
}

/* A private folder for the mirrors and ssh's control sockets. */
static bool
make_root(struct buf *err)
{
	const char *tmp = getenv("TMPDIR");
	struct buf b = {0};

	buf_addf(&b, "%s/agentview-remote.XXXXXX", tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
	if (mkdtemp(b.p) == NULL) {
		buf_addf(err, "cannot make a folder for remote sources in %s: %s",
			 tmp != NULL ? tmp : "/tmp", strerror(errno));
		buf_free(&b);
		return false;
	}
	mirror_root = xstrdup(b.p);
	buf_reset(&b);
	buf_addf(&b, "%s/c", mirror_root);
	if (b.n + 60 > 100) {
		buf_reset(&b);
		buf_adds(&b, "/tmp/agentview-ssh.XXXXXX");
		if (mkdtemp(b.p) == NULL) {
			buf_addf(err, "cannot make a folder for ssh in /tmp: %s", strerror(errno));
			buf_free(&b);
			return false;
		}
	} else {
		mkdir(b.p, 0700);
	}
	control_dir = b.p;
	return true;
}

/* r's mirror, of kind ('d', 'f' or 's'), known from now on (remote_show,
 * remote_host_of): the path to read it at (owned by the caller). */
static char *
mirror_add(const struct rsrc *r, char kind, size_t *mcap)
{
	struct buf p = {0};

	buf_adds(&p, r->mirror);
	if (kind == 'f')
		buf_addf(&p, "/%s", file_name(&r->spec));
	ARRAY_RESERVE(mirrors, *mcap, nmirrors + 1);
	mirrors[nmirrors] = (struct mirror){0};
	mirrors[nmirrors].dir = xstrdup(r->mirror);
	mirrors[nmirrors].path = xstrdup(r->spec.path);
	mirrors[nmirrors].kind = kind;
	mirrors[nmirrors].port = r->spec.port != NULL ? xstrdup(r->spec.port) : NULL;
	mirrors[nmirrors++].host = xstrdup(r->spec.host);
	return p.p;
}

int
remote_start(char **files, int *nfiles, bool quiet, bool heads)
{
	struct rsrc *v = NULL;
	size_t n = 0, cap = 0, left;
	int *at = NULL, life[2], rep[2], news[2], want[2], whole[2], kept = 0;
	size_t mcap = 0;
	bool *done;
	char *known; /* 's' or 'd' once it is known to be a folder */
	int64_t until;
	struct buf err = {0}, line = {0};
	char chunk[1024];
	ssize_t got;

	for (int i = 0; i < *nfiles; i++) {
		struct remote_spec s;
		int r = remote_spec_parse(files[i], &s, &err);

		if (r < 0) {
			fprintf(stderr, "agentview: %s\n", err.p);
			buf_free(&err);
			return -1;
		}
		if (r == 0)
			continue;
		ARRAY_RESERVE(v, cap, n + 1);
		at = xreallocarray(at, cap, sizeof *at);
		memset(&v[n], 0, sizeof v[n]);
		v[n].spec = s;
		v[n].out = v[n].err = -1;
		v[n].heads = heads;
		at[n++] = i;
	}
	if (n == 0)
		return 0;
	if (!make_root(&err)) {
		fprintf(stderr, "agentview: %s\n", err.p);
		buf_free(&err);
		return -1;
	}
	known = xcalloc(n, 1);
	for (size_t i = 0; i < n; i++) {
		buf_reset(&err);
		buf_addf(&err, "%s/%zu", mirror_root, i + 1);
		mkdir(err.p, 0700);
		v[i].mirror = xstrdup(err.p);
		/* The remote's own sessions: a folder for each source, there
		 * before the list reads them (store.h's roots). */
		for (int s = 0; v[i].spec.path[0] == '\0' && s < SRC_COUNT; s++) {
			buf_reset(&err);
			buf_addf(&err, "%s/%s", v[i].mirror,
				 store_source_name((enum store_source)s));
			mkdir(err.p, 0700);
		}
		if (v[i].spec.path[0] == '\0')
			known[i] = 's';
	}
	if (pipe(life) != 0 || pipe(rep) != 0 || pipe(news) != 0 || pipe(want) != 0 ||
	    pipe(whole) != 0)
		die("remote: pipe: %s", strerror(errno));
	done = xcalloc(n, sizeof *done);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die("remote: fork: %s", strerror(errno));
	if (pid == 0) {
		close(life[1]);
		close(rep[0]);
		close(news[0]);
		close(want[1]);
		close(whole[0]);
		want_in = pipe_end(want[0], true);
		whole_out = pipe_end(whole[1], true);
		news_out = pipe_end(news[1], true);
		free(at);
		free(done);
		free(known);
		mirror_main(v, n, pipe_end(life[0], false), pipe_end(rep[1], false), quiet);
	}
	close(life[0]);
	close(rep[1]);
	close(news[1]);
	close(want[0]);
	close(whole[1]);
	want_out = pipe_end(want[1], false);
	whole_in = pipe_end(whole[0], true);
	news_in = pipe_end(news[0], true);
	/* Kept open (close-on-exec) until agentview ends. */
	pipe_end(life[1], false);
	/* Every source's first round, or why it has none; on the screen, a
	 * second at most for the folders (HOST:, or a path the remote said
	 * is one): their files come in as they are read, and what goes
	 * wrong later is news. A file is always waited for (one source
	 * alone is viewed, not listed). */
	until = clock_mono_ms() + START_WAIT_MS;
	for (left = n; left > 0;) {
		char *nl;

		if (quiet) {
			int64_t wait = until - clock_mono_ms();
			struct pollfd pfd = {.fd = rep[0], .events = POLLIN};
			bool folders = true;

			for (size_t i = 0; i < n; i++)
				folders = folders && (done[i] || known[i] != 0);
			if (wait <= 0 && folders)
				break;
			if (poll(&pfd, 1, wait > 0 ? (int)wait : -1) == 0)
				continue;
		}
		got = read(rep[0], chunk, sizeof chunk);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		buf_add(&line, chunk, (size_t)got);
		while ((nl = memchr(line.p, '\n', line.n)) != NULL) {
			char *what;
			size_t i = strtoul(line.p, &what, 10);

			*nl = '\0';
			if (i < n && *what == ' ' && strcmp(what + 1, "M d") == 0) {
				known[i] = 'd';
			} else if (i < n && *what == ' ' && !done[i]) {
				what++;
				if (strcmp(what, "R f") == 0 || strcmp(what, "R d") == 0 ||
				    strcmp(what, "R s") == 0) {
					files[at[i]] = mirror_add(&v[i], what[2], &mcap);
				} else {
					fprintf(stderr, "agentview: %s\n", what);
					files[at[i]] = NULL;
				}
				done[i] = true;
				left--;
			}
			memmove(line.p, nl + 1, line.n - (size_t)(nl + 1 - line.p));
			buf_cut(&line, line.n - (size_t)(nl + 1 - line.p));
		}
	}
	/* The folders not read whole yet: shown as they fill. */
	for (size_t i = 0; i < n; i++)
		if (!done[i] && known[i] != 0 && quiet) {
			files[at[i]] = mirror_add(&v[i], known[i], &mcap);
			done[i] = true;
		}
	close(rep[0]);
	/* A source the mirror never answered for (it died) is dropped too;
	 * then the files left close up. */
	for (size_t i = 0; i < n; i++)
		if (!done[i]) {
			fprintf(stderr, "agentview: %s: no answer\n", v[i].spec.host);
			files[at[i]] = NULL;
		}
	for (int i = 0; i < *nfiles; i++)
		if (files[i] != NULL)
			files[kept++] = files[i];
	*nfiles = kept;
	free(done);
	free(known);
	free(at);
	rsrc_free(v, n);
	buf_free(&line);
	buf_free(&err);
	return (int)n;
}

static const struct rproc *
mirror_proc(const struct mirror *mi, long pid)
{
	for (size_t i = 0; i < mi->procs.n; i++)
		if (mi->procs.v[i].pid == pid)
			return &mi->procs.v[i];
	return NULL;
}

/* The start of a remote's process pid, as its last L frame said (the
 * mirror's .live): false when it did not name it. */
static bool
live_start(void *ctx, long pid, uint64_t *start)
{
	const struct rproc *p = mirror_proc(ctx, pid);

	if (p != NULL)
		*start = p->start;
	return p != NULL;
}

/* The processes it named. */
static size_t
live_pids(void *ctx, long *v, size_t max)
{
	const struct mirror *mi = ctx;
	size_t n = MIN(mi->procs.n, max);

	for (size_t i = 0; i < n; i++)
		v[i] = mi->procs.v[i].pid;
	return n;
}

/* What the remote said of its codex, gemini and cursor-agent processes:
 * their name for argv (it judged them by store.c's rule, store_cli), a
 * codex one's CODEX_HOME and HOME for the environment, the others'
 * folder; nothing of others. */
static bool
live_cmdline(void *ctx, long pid, struct buf *out)
{
	const struct rproc *p = mirror_proc(ctx, pid);

	buf_reset(out);
	if (p == NULL || (p->codex == 0 && p->gemini == 0 && p->cursor == 0))
		return false;
	buf_adds(out, p->codex != 0 ? "codex" : p->gemini != 0 ? "gemini" : "cursor-agent");
	return true;
}

static bool
live_environ(void *ctx, long pid, struct buf *out)
{
	const struct mirror *mi = ctx;
	const struct rproc *p = mirror_proc(mi, pid);

	buf_reset(out);
	if (p == NULL || p->codex != 'e')
		return false;
	buf_add(out, mi->procs.text.p + p->text, p->ntext);
	return true;
}

static bool
live_cwd(void *ctx, long pid, struct buf *out)
{
	const struct mirror *mi = ctx;
	const struct rproc *p = mirror_proc(mi, pid);

	buf_reset(out);
	if (p == NULL || (p->gemini != 'w' && p->cursor != 'w'))
		return false;
	buf_add(out, mi->procs.text.p + p->text, p->ntext);
	return true;
}

/* The mirror's .live read again, at most once a second of now_ms. */
static void
mirror_procs(struct mirror *mi, int64_t now_ms)
{
	struct buf path = {0}, text = {0};

	if (mi->procs_ms != INT64_MIN && now_ms >= mi->procs_ms && now_ms - mi->procs_ms < 1000)
		return;
	mi->procs_ms = now_ms;
	buf_addf(&path, "%s/.live", mi->dir);
	mi->procs_known = store_read_small(path.p, RFRAME_MAX + 1, &text, true) &&
			  remote_procs_parse(text.p, text.n, &mi->procs);
	if (!mi->procs_known)
		remote_procs_free(&mi->procs);
	store_live_codex_far(mi->sl, mi->procs.codex_root);
	/* (a .down not as mark_down writes it: dropped long ago) */
	buf_reset(&path);
	buf_addf(&path, "%s/.down", mi->dir);
	mi->down_ms = INT64_MIN;
	if (store_read_small(path.p, 32, &text, true)) {
		char *end = NULL;
		long long v = strtoll(text.p, &end, 10);

		mi->down_ms = end != text.p && *end == '\n' && v >= 0 ? (int64_t)v : 0;
	}
	buf_free(&path);
	buf_free(&text);
}

enum store_liveness
remote_live(const char *path, enum store_source s, int64_t now_ms, struct buf *why, bool *stale)
{
	struct mirror *mi = NULL;
	enum store_liveness l;

	*stale = false;

	for (size_t i = 0; path != NULL && i < nmirrors && mi == NULL; i++)
		if (mirrors[i].kind == 's' &&
		    strncmp(path, mirrors[i].dir, strlen(mirrors[i].dir)) == 0 &&
		    path[strlen(mirrors[i].dir)] == '/')
			mi = &mirrors[i];
	/* Gemini's and Cursor's signals are their processes' folders, sent
	 * (and Gemini's projects' .project_root files mirrored beside their
	 * chats; Cursor's chat stores are not mirrored). */
	if (mi == NULL || s == SRC_KEPT)
		return SL_UNKNOWN;
	if (mi->sl == NULL) {
		/* (no comm: the remote looked only at the names that count) */
		struct store_proc proc = {mi,       live_start,   live_pids, live_cmdline,
					  live_cwd, live_environ, NULL};
		struct buf root = {0};

		buf_addf(&root, "%s/%s", mi->dir, store_source_name(SRC_CLAUDE));
		mi->sl = store_live_new_at(&proc, root.p);
		mi->procs_ms = INT64_MIN;
		buf_free(&root);
	}
	mirror_procs(mi, now_ms);
	/* Nothing sent yet, or no /proc there: nothing known, a guess. */
	if (!mi->procs_known || mi->procs.noproc)
		return SL_UNKNOWN;
	l = store_live(mi->sl, s, path, now_ms, why);
	/* The connection down for longer than a reconnect takes: what it
	 * said last, no longer known. */
	*stale = !remote_procs_fresh(mi->down_ms, now_ms);
	return l;
}

/* Send the mirror process `ask` (a line), then wait at most ms for its
 * answer a (1) or b (2, when not NULL): 0 when none came in time, -1
 * when it cannot be asked. Answers to questions given up on before are
 * passed over. */
static int
ask_mirror(const char *ask, const char *a, const char *b, int ms)
{
	int64_t until = clock_mono_ms() + ms;
	struct buf got = {0};
	char chunk[4096];
	int found = 0;

	if (want_out < 0 || write(want_out, ask, strlen(ask)) != (ssize_t)strlen(ask))
		return -1;
	while (found == 0) {
		struct pollfd pfd = {.fd = whole_in, .events = POLLIN};
		int64_t wait = until - clock_mono_ms();
		ssize_t r;
		char *nl;

		if (wait <= 0 || poll(&pfd, 1, (int)wait) <= 0) {
			if (wait > 0 && errno == EINTR)
				continue;
			break;
		}
		r = read(whole_in, chunk, sizeof chunk);
		if (r <= 0 && (r == 0 || (errno != EAGAIN && errno != EINTR))) {
			found = -1;
			break;
		}
		if (r > 0)
			buf_add(&got, chunk, (size_t)r);
		while (found == 0 && got.n > 0 && (nl = memchr(got.p, '\n', got.n)) != NULL) {
			size_t len = (size_t)(nl + 1 - got.p);

			if (len == strlen(a) && memcmp(got.p, a, len) == 0)
				found = 1;
			else if (b != NULL && len == strlen(b) && memcmp(got.p, b, len) == 0)
				found = 2;
			memmove(got.p, nl + 1, got.n - len);
			buf_cut(&got, got.n - len);
		}
	}
	buf_free(&got);
	return found;
}

bool
remote_whole(const char *path, int ms, struct buf *err)
{
	const struct mirror *mi = mirror_of(path);
	struct buf line = {0};
	int r;

	if (mi == NULL || mi->kind == 'f')
		return true;
	buf_addf(&line, "%s\n", path);
	r = ask_mirror(line.p, line.p, NULL, ms);
	if (r < 0)
		buf_addf(err, "%s: cannot ask for the whole file", mi->host);
	else if (r == 0)
		buf_addf(err, "%s: the file is still coming: try again", mi->host);
	buf_free(&line);
	return r == 1;
}

bool
remote_head(const char *path)
{
	const struct mirror *mi = mirror_of(path);
	struct buf line = {0};
	bool asked;

	if (mi == NULL || mi->kind == 'f' || want_out < 0)
		return false;
	buf_addf(&line, "h %s\n", path);
	/* (not: the mirror process is gone, nothing comes) */
	asked = write(want_out, line.p, line.n) == (ssize_t)line.n;
	buf_free(&line);
	return asked;
}

bool
remote_open(const char *path, struct buf *use, bool *fetching, struct buf *err)
{
	const struct mirror *mi = mirror_of(path);
	struct buf whole = {0}, early = {0};
	int r;

	*fetching = false;
	buf_reset(use);
	if (mi == NULL || mi->kind == 'f') {
		buf_adds(use, path);
		return true;
	}
	buf_addf(&whole, "%s\n", path);
	buf_addf(&early, "o %s\n", path);
	r = ask_mirror(early.p, early.p, whole.p, REMOTE_OPEN_MS);
	if (r == 1) {
		buf_addf(use, "%s/.open/%s", mi->dir, path + strlen(mi->dir) + 1);
		*fetching = true;
	} else if (r == 2) {
		buf_adds(use, path);
	} else {
		buf_addf(err, "%s: cannot ask for the file", mi->host);
	}
	buf_free(&whole);
	buf_free(&early);
	return r > 0;
}

int
remote_news_fd(void)
{
	return news_in;
}

bool
remote_news(struct buf *out, bool *lasting)
{
	static struct buf part;
	char chunk[1024];
	ssize_t got;
	bool any = false;

	*lasting = false;
	if (news_in < 0)
		return false;
	while ((got = read(news_in, chunk, sizeof chunk)) > 0)
		buf_add(&part, chunk, (size_t)got);
	if (got == 0) {
		close(news_in);
		news_in = -1;
	}
	/* The newest whole line. */
	for (char *nl; part.n > 0 && (nl = memchr(part.p, '\n', part.n)) != NULL;) {
		buf_reset(out);
		buf_add(out, part.p, (size_t)(nl - part.p));
		memmove(part.p, nl + 1, part.n - (size_t)(nl + 1 - part.p));
		buf_cut(&part, part.n - (size_t)(nl + 1 - part.p));
		any = true;
	}
	if (any)
		*lasting = strstr(out->p, ": reconnecting (") != NULL ||
			   strstr(out->p, ": fetching ") != NULL ||
			   strstr(out->p, ": no answer for") != NULL ||
			   strstr(out->p, ": via agentview there") != NULL;
	return any;
}

const char *
remote_show(const char *path)
{
	static struct buf b;

	for (size_t i = 0; i < nmirrors; i++) {
		size_t n = strlen(mirrors[i].dir);

		if (strncmp(path, mirrors[i].dir, n) != 0 || path[n] != '/')
			continue;
		buf_reset(&b);
		buf_addf(&b, "%s:%s", mirrors[i].host, mirrors[i].path);
		/* A folder's file: its name after the folder; the remote's
		 * own sessions': its source, then its path under the source's
		 * root ("HOST:claude/projects/x/y.jsonl"). */
		if (mirrors[i].kind != 'f')
			buf_addf(&b, "%s%s", b.p[b.n - 1] == '/' || b.p[b.n - 1] == ':' ? "" : "/",
				 path + n + 1 + (strncmp(path + n + 1, ".open/", 6) == 0 ? 6 : 0));
		return b.p;
	}
	return path;
}

bool
remote_stores(const char *path)
{
	for (size_t i = 0; i < nmirrors; i++)
		if (mirrors[i].kind == 's' && strcmp(path, mirrors[i].dir) == 0)
			return true;
	return false;
}

bool
remote_any(void)
{
	return nmirrors > 0;
}

/* The mirror path is, or is in; NULL for a local path. */
static const struct mirror *
mirror_of(const char *path)
{
	for (size_t i = 0; path != NULL && i < nmirrors; i++) {
		size_t n = strlen(mirrors[i].dir);

		if (strncmp(path, mirrors[i].dir, n) == 0 && (path[n] == '/' || path[n] == '\0'))
			return &mirrors[i];
	}
	return NULL;
}

const char *
remote_host_of(const char *path)
{
	const struct mirror *mi = mirror_of(path);

	return mi != NULL ? mi->host : NULL;
}

const char *
remote_port_of(const char *path)
{
	const struct mirror *mi = mirror_of(path);

	return mi != NULL ? mi->port : NULL;
}
