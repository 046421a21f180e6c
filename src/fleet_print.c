/* fleet_print.c: the session list printed, followed, and summed up. */
#define _GNU_SOURCE /* qsort_r */
#include "fleet_print.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "glyph.h"
#include "json.h"
#include "redact.h"
#include "remote.h"
#include "source.h"
#include "model.h"
#include "print.h"
#include "sig.h"
#include "statusline.h"
#include "summary.h"
#include "text.h"

/* How long -f gathers changes once one came (a line appears at most this
 * late in the log). */
#define FOLLOW_GATHER_MS 100

/* The columns of the Markdown table. */
static const enum fleet_col md_cols[] = {
	FC_STATE, FC_AGENT, FC_MODEL, FC_ID,     FC_CWD,  FC_PROMPT,
	FC_NOW,   FC_TIME,  FC_CALLS, FC_TOKENS, FC_COST, FC_FILE,
};
static const char *const md_titles[] = {
	"state", "agent", "model", "id",     "cwd",  "prompt",
	"now",   "time",  "calls", "tokens", "cost", "file",
};

/* The Markdown table of the rows in v[0..n). */
static void
print_markdown(const struct fleet *f, const uint32_t *v, size_t n, int64_t now_ms, struct buf *out)
{
	struct buf cell = {0};

	buf_adds(out, "|");
	for (size_t c = 0; c < ARRAY_LEN(md_titles); c++)
		buf_addf(out, " %s |", md_titles[c]);
	buf_adds(out, "\n|");
	for (size_t c = 0; c < ARRAY_LEN(md_titles); c++)
		buf_adds(out, "---|");
	buf_addc(out, '\n');
	for (size_t i = 0; i < n; i++) {
		buf_adds(out, "|");
		for (size_t c = 0; c < ARRAY_LEN(md_cols); c++) {
			buf_reset(&cell);
			fleet_cell(f, v[i], md_cols[c], now_ms, &cell);
			buf_addc(out, ' ');
			text_md_escape(out, cell.p ? cell.p : "", cell.n, MD_CELL, NULL);
			buf_adds(out, " |");
		}
		buf_addc(out, '\n');
	}
	buf_free(&cell);
}

/* The rows in the order of attention into v (n + 1 of them), and how many. */
static size_t
rows(const struct fleet *f, int64_t now_ms, uint32_t **v)
{
	size_t n = fleet_nrows(f);

	*v = xcalloc(n + 1, sizeof **v);
	return fleet_rows(f, FSORT_ATTENTION, NULL, now_ms, *v, n);
}

/* The list's summary line after the rows in b, all of it to out. */
static void
list_end(const struct fleet *f, struct buf *b, FILE *out)
{
	fleet_summary(f, false, b);
	buf_addc(b, '\n');
	fwrite(b->p, 1, b->n, out);
	buf_free(b);
}

void
fleet_list_text(const struct fleet *f, int agent, int width, int64_t now_ms, FILE *out)
{
	uint32_t *v;
	size_t n = rows(f, now_ms, &v);
	struct fleet_colw cols[FC_NCOLS];
	struct buf b = {0};
	int nc = fleet_columns(width, cols);

	(void)agent;
	fleet_header(cols, nc, &b);
	buf_addc(&b, '\n');
	for (size_t i = 0; i < n; i++) {
		fleet_line(f, v[i], cols, nc, now_ms, &b);
		/* No blanks at the end of a line of a log. */
		while (b.n > 0 && b.p[b.n - 1] == ' ')
			b.n--;
		buf_addc(&b, '\n');
	}
	list_end(f, &b, out);
	free(v);
}

static int
by_file_index(const void *a, const void *b, void *ctx)
{
	const struct fleet_row *x = fleet_row(ctx, *(const uint32_t *)a);
	const struct fleet_row *y = fleet_row(ctx, *(const uint32_t *)b);

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void
fleet_list_rows(const struct fleet *f, int agent, int width, int64_t now_ms, FILE *out)
{
	size_t n = fleet_nrows(f), k = 0, said = 0;
	uint32_t *v = xcalloc(n + 1, sizeof *v);
	struct buf b = {0};

	(void)agent;
	(void)width;
	(void)now_ms;
	for (size_t i = 0; i < n; i++) {
		const struct fleet_row *r = fleet_row(f, (uint32_t)i);

		/* A stream's sessions, each of its own file still there. */
		if (r->state != FS_FILE && fleet_file_note(f, r->file) == NULL &&
		    !(r->flags & FR_GONE))
			v[k++] = (uint32_t)i;
	}
	qsort_r(v, k, sizeof *v, by_file_index, (void *)(uintptr_t)f);
	remote_rows_begin(&b);
	/* A file's rows all or none: its sessions numbered from 0, as read,
	 * each as the reader takes it (a control byte in a text or the name,
	 * or a file the sh path does not list, a recording named otherwise:
	 * none; the sh path brings that file's rows), its name as its folder
	 * has it. */
	for (size_t i = 0, j; i < k; i = j) {
		const struct fleet_row *r = fleet_row(f, v[i]);
		const char *name = fleet_name(f, v[i]);
		bool ok = remote_rows_name_ok(name);
		struct stat st;

		for (j = i; j < k && fleet_row(f, v[j])->file == r->file; j++)
			ok = ok && fleet_row(f, v[j])->index == j - i &&
			     remote_row_ok(fleet_row(f, v[j]));
		if (!ok || stat(fleet_path(f, v[i]), &st) != 0)
			continue;
		for (size_t x = i; x < j; x++)
			remote_rows_add(&b, name,
					(int64_t)st.st_mtim.tv_sec * 1000 +
						st.st_mtim.tv_nsec / 1000000,
					fleet_row(f, v[x]));
		said += j - i;
		if (b.n >= 1 << 16) {
			fwrite(b.p, 1, b.n, out);
			buf_reset(&b);
		}
	}
	remote_rows_end(&b, said);
	fwrite(b.p, 1, b.n, out);
	buf_free(&b);
	free(v);
}

/* -f: a row a change, as the list writes it (without its first and last
 * lines). */
static void
rows_change(const struct fleet *f, uint32_t row, int was, int64_t now_ms, struct buf *out)
{
	const char *name = fleet_name(f, row);
	struct stat st;

	(void)was;
	(void)now_ms;
	if (remote_rows_name_ok(name) && stat(fleet_path(f, row), &st) == 0)
		remote_rows_add(out, name,
				(int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000,
				fleet_row(f, row));
}

const struct format format_rows = {
	.name = "rows",
	.help = "the list as agentview HOST: reads it from an agentview there",
	.man = "the list as agentview HOST: reads it from an agentview there",
	.list = fleet_list_rows,
	.change = rows_change,
};

void
fleet_list_markdown(const struct fleet *f, int agent, int width, int64_t now_ms, FILE *out)
{
	uint32_t *v;
	size_t n = rows(f, now_ms, &v);
	struct buf b = {0};

	(void)agent;
	(void)width;
	print_markdown(f, v, n, now_ms, &b);
	buf_addc(&b, '\n');
	list_end(f, &b, out);
	free(v);
}

/* The most --format json reads of a file, a session's or a sub-agent's:
 * the list on the screen reads 128 KB of each; the largest transcripts
 * agents write are some hundred MB, read whole for their totals. A larger
 * file (a sparse one of 10 GB took 26 s) is not read: a diagnostic says
 * so, and its sessions are left out (agentview FILE shows it). */
#define JSON_FILE_MAX ((off_t)1 << 30)

/* Whether the file at path, size bytes, is too big to read: said in
 * diags if so. */
static bool
too_big(const char *path, uint64_t size, struct buf *diags, bool *dfirst)
{
	struct buf msg = {0};

	if (size <= (uint64_t)JSON_FILE_MAX)
		return false;
	buf_adds(&msg, "not read: ");
	fmt_bytes(&msg, size);
	buf_adds(&msg, ", more than the list reads of a file (");
	fmt_bytes(&msg, (uint64_t)JSON_FILE_MAX);
	buf_adds(&msg, "); its sessions are left out");
	buf_addf(diags, "%s{\"line\":0,\"message\":", *dfirst ? "" : ",");
	json_quote(diags, msg.p, msg.n);
	buf_adds(diags, ",\"file\":");
	json_quote(diags, remote_show(path), strlen(remote_show(path)));
	buf_addc(diags, '}');
	*dfirst = false;
	buf_free(&msg);
	return true;
}

/* Where the files that hold more of a session go: its model and source,
 * and theirs, open until the model is done with; what is not read, said
 * in diags. */
struct more {
	struct model *m;
	unsigned of;
	struct source *src;
	size_t n, cap;
	struct summary sc; /* what the summary keeps as the lines go by */
	struct tool_desc td;
	struct buf *diags;
	bool *dfirst;
};

/* A line of mo's model read: what the summary needs of the events it
 * made kept now, while the model holds the line parsed (made at the end
 * from the lines, each call's and each text's line would be parsed again). */
static void
json_line(struct more *mo, unsigned si, const struct line *ln)
{
	uint32_t e = (uint32_t)mo->m->nev;

	model_add_line(mo->m, si, ln, TIME_NONE);
	for (; e < mo->m->nev; e++)
		summary_line(&mo->sc, mo->m, e, &mo->td);
}

/* A file that holds more of a session (a sub-agent's): read whole into
 * its model now, under the call it runs under. */
static void
json_more(void *ctx, const char *path, const char *call)
{
	struct more *mo = ctx;
	struct buf err = {0};
	struct source *src;
	struct line ln;
	unsigned si;

	if (mo->m->nsrc >= MODEL_MAX_SOURCES)
		return;
	ARRAY_RESERVE(mo->src, mo->cap, mo->n + 1);
	src = &mo->src[mo->n];
	if (source_open_plain(src, path, false, true, &err) != 0) {
		buf_free(&err);
		return;
	}
	if (too_big(path, src->size, mo->diags, mo->dfirst)) {
		source_close(src);
		return;
	}
	mo->n++;
	si = model_add_source(mo->m, src);
	model_set_parent(mo->m, si, mo->of, call);
	while (source_next_line(src, &ln))
		json_line(mo, si, &ln);
	model_read_totals(mo->m, si);
	model_end_source(mo->m, si);
}

/* The list's word on a file, which its summary follows: whether its
 * newest session is open (it still runs or waits: its file is read as one
 * still written), the state the list gives it when that is a store's
 * (FS_NSTATES: its lines'), whether it may wait for an approval. */
struct word {
	uint8_t open, said, may_wait;
};

static void
word_of(const struct fleet *fl, size_t fi, struct word *w)
{
	w->open = fleet_file_open(fl, fi);
	w->said = (uint8_t)fleet_store_state(fl, fi);
	w->may_wait = fleet_file_may_wait(fl, fi);
}

static bool
same_word(const struct word *a, const struct word *b)
{
	return a->open == b->open && a->said == b->said && a->may_wait == b->may_wait;
}

/* The file at path's summary pieces: its sessions to out (and f), its
 * diagnostics kept in diags; its lines counted. The file is read into
 * memory, not mapped: the line ends are then looked for in bytes the copy
 * left in the cache (over mapped pages, their faults and the memchr cost
 * twice as much), and a file cut short meanwhile is what was read. Its
 * newest session is over unless the list's word w says it is open, in
 * the state w gives it (store: a store's file), said to may wait as w
 * says, its times as of now_ms. With guess, the list has no word yet: w
 * is made as the list's would be for a session long over (not open, not
 * waiting, in its lines' state), to be checked against the list's. */
static void
json_file(const char *path, struct word *w, bool guess, bool store, int agent, int64_t now_ms,
	  struct buf *out, FILE *f, struct buf *diags, bool *sfirst, bool *dfirst, uint64_t *lines)
{
	static const uint8_t as[FS_NSTATES] = {
		[FS_WAITING] = SS_WAITING,       [FS_FAILED] = SS_FAILED, [FS_RUNNING] = SS_LIVE,
		[FS_INCOMPLETE] = SS_INCOMPLETE, [FS_DONE] = SS_OK,       [FS_FILE] = SS_NSTATES,
	};
	static const uint8_t fs[SS_NSTATES] = {
		[SS_WAITING] = FS_WAITING,       [SS_FAILED] = FS_FAILED, [SS_LIVE] = FS_RUNNING,
		[SS_INCOMPLETE] = FS_INCOMPLETE, [SS_OK] = FS_DONE,
	};
	struct source src;
	struct model *m;
	struct buf err = {0};
	struct line ln;
	struct more mo = {0};
	unsigned si;

	if (guess)
		w->open = w->may_wait = false;
	if (source_open_copy(&src, path, false, &err) != 0) {
		buf_addf(diags, "%s{\"line\":0,\"message\":", *dfirst ? "" : ",");
		json_quote(diags, err.p, err.n);
		buf_adds(diags, ",\"file\":");
		json_quote(diags, remote_show(path), strlen(remote_show(path)));
		buf_addc(diags, '}');
		*dfirst = false;
		buf_free(&err);
		return;
	}
	if (too_big(path, src.size, diags, dfirst)) {
		source_close(&src);
		return;
	}
	agent_source_rows(&src, path);
	m = model_new();
	m->agent = agent;
	m->now_ms = now_ms;
	m->may_wait = w->may_wait;
	/* Of a session's running totals only the newest is read: the
	 * summary asks for its tokens once its lines are read. */
	m->totals_late = true;
	si = model_add_source(m, &src);
	mo.m = m;
	mo.of = si;
	while (source_next_line(&src, &ln))
		json_line(&mo, si, &ln);
	model_read_totals(m, si);
	if (!w->open)
		model_end_source(m, si);
	/* Its newest session's state as the list has it (or would have). */
	if (guess)
		w->said = FS_NSTATES;
	for (size_t s = m->nses; s-- > 0;) {
		if (m->ses[s].src != si)
			continue;
		if (guess && store)
			w->said = fs[model_session_state(m, (uint32_t)s)];
		if (w->said < FS_NSTATES && as[w->said] < SS_NSTATES) {
			m->said = (uint32_t)s;
			m->said_state = as[w->said];
		}
		break;
	}
	/* Its sub-agents' files, more of its sessions. */
	mo.diags = diags;
	mo.dfirst = dfirst;
	if (m->nses > 0)
		agent_more(m->ses[0].agent, path, json_more, &mo);
	/* A remote file is named as the user typed it, not by its mirror. */
	summary_sessions(m, &mo.sc, remote_show(path), out, f, sfirst);
	summary_diagnostics(m, remote_show(path), diags, NULL, dfirst);
	*lines += m->lines;
	model_free(m);
	summary_free(&mo.sc);
	tool_desc_free(&mo.td);
	source_close(&src);
	for (size_t i = 0; i < mo.n; i++)
		source_close(&mo.src[i]);
	free(mo.src);
}

/* --format json reads every file whole: the files are shared with helper
 * processes (one a core but one, at most HELPERS_MAX), each helper taking
 * the next file no one has taken, in the order of their paths, and
 * sending its pieces back over its pipe; this process writes them out in
 * that order, reading itself the files it reaches first, so that the
 * output is the same byte for byte as read by one. A process, not a
 * thread: nothing of the model is shared. The helpers start before the
 * list is made (fleet_json_begin), on the files known then, and read
 * while this process makes it: a helper guesses the list's word on each
 * file (json_file), and a file whose guess the list does not confirm is
 * read again here, as is a file the list found after they started. A
 * file of more than HELPER_FILE_MAX bytes is read here, its summary
 * streamed rather than held; a helper keeps at most HELPER_QUEUE_MAX
 * bytes of pieces not taken yet (while the list is made, none are). */
#define HELPERS_MAX 8
#define HELPER_FILE_MAX ((off_t)4 << 20)
#define HELPER_QUEUE_MAX ((size_t)8 << 20)
/* A file no process has taken yet. */
#define OWNER_FREE 0xff

/* What a helper sends for a file: which one (its index in the fleet),
 * whether it read it (a file it declined is read here), its word as the
 * helper had it, its lines, then its sessions and its diagnostics (each
 * without a leading comma), ns and nd bytes. */
struct piece {
	uint64_t fi, lines, ns, nd;
	struct word w;
	uint8_t declined;
};

/* n bytes from fd into p; false at an early end or an error. */
static bool
read_all(int fd, void *p, size_t n)
{
	char *c = p;

	while (n > 0) {
		ssize_t r = read(fd, c, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		c += r;
		n -= (size_t)r;
	}
	return true;
}

struct helpers {
	size_t n;            /* processes, this one included */
	int fd[HELPERS_MAX]; /* the pipe of helper h (fd[0]: none) */
	pid_t pid[HELPERS_MAX];
	size_t nfile;        /* the files known when they started */
	size_t *order;       /* those, in the order of their paths */
	size_t *pos;         /* where file i is in order */
	atomic_uchar *owner; /* shared: who reads order[j]: OWNER_FREE, 0 (this
				 process) or a helper */
	bool known;          /* the list was made before they started */
};

struct fleet_json {
	struct helpers hp;
};

/* Whether a helper reads file fi: a regular file, not too big, never a
 * store's through a link; once the list is made, one it summarises. */
static bool
helper_reads(const struct helpers *hp, const struct fleet *f, size_t fi)
{
	const char *path = fleet_file_path(f, fi);
	struct stat st;

	if (hp->known && (fleet_file_note(f, fi) != NULL || fleet_chat_twin(f, fi)))
		return false;
	return (fleet_file_of_store(f, fi) ? lstat(path, &st) : stat(path, &st)) == 0 &&
	       S_ISREG(st.st_mode) && st.st_size <= HELPER_FILE_MAX;
}

/* The bytes of q from *sent written to the pipe fd (not blocking): as
 * many as it takes now, or with all, every one; false on an error. */
static bool
helper_send(int fd, struct buf *q, size_t *sent, bool all)
{
	while (*sent < q->n) {
		ssize_t w = write(fd, q->p + *sent, q->n - *sent);
		struct pollfd p = {fd, POLLOUT, 0};

		if (w > 0)
			*sent += (size_t)w;
		else if (w < 0 && errno == EAGAIN && all)
			(void)poll(&p, 1, -1);
		else if (w < 0 && errno == EAGAIN)
			return true;
		else if (!(w < 0 && errno == EINTR))
			return false;
	}
	buf_reset(q);
	*sent = 0;
	return true;
}

/* Helper h: the files no one has taken, read and sent over fd as they
 * are, held while the pipe is full (up to HELPER_QUEUE_MAX). Never
 * returns. */
static void
helper_run(struct helpers *hp, size_t h, const struct fleet *f, int agent, int64_t now_ms, int fd)
{
	struct buf q = {0}, s = {0}, d = {0};
	size_t sent = 0;

	(void)fcntl(fd, F_SETFL, O_NONBLOCK);
	for (size_t j = 0; j < hp->nfile; j++) {
		unsigned char free_ = OWNER_FREE;
		size_t fi = hp->order[j];
		struct piece pc = {.fi = fi};
		bool sf = true, df = true;

		if (!atomic_compare_exchange_strong(&hp->owner[j], &free_, (unsigned char)h))
			continue;
		buf_reset(&s);
		buf_reset(&d);
		if (helper_reads(hp, f, fi)) {
			if (hp->known)
				word_of(f, fi, &pc.w);
			json_file(fleet_file_path(f, fi), &pc.w, !hp->known,
				  fleet_file_of_store(f, fi), agent, now_ms, &s, NULL, &d, &sf, &df,
				  &pc.lines);
		} else {
			pc.declined = 1;
		}
		pc.ns = s.n;
		pc.nd = d.n;
		buf_add(&q, &pc, sizeof pc);
		buf_add(&q, s.p, s.n);
		buf_add(&q, d.p, d.n);
		if (!helper_send(fd, &q, &sent, q.n - sent > HELPER_QUEUE_MAX))
			_exit(1);
	}
	_exit(helper_send(fd, &q, &sent, true) ? 0 : 1);
}

/* Files in the order of their paths. */
static int
by_path(const void *a, const void *b, void *ctx)
{
	const struct fleet *f = *(const struct fleet **)ctx;

	return strcmp(fleet_file_path(f, *(const size_t *)a),
		      fleet_file_path(f, *(const size_t *)b));
}

/* Start the helpers for the files f knows now: each reads its share,
 * sends it and exits (never returning here); hp->n is 1 where none could
 * start. */
static void
helpers_start(struct helpers *hp, const struct fleet *f, int agent, int64_t now_ms, FILE *out)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	void *shared;

	hp->nfile = fleet_nfiles(f);
	hp->known = !fleet_loading(f);
	hp->order = xcalloc(hp->nfile + 1, sizeof *hp->order);
	hp->pos = xcalloc(hp->nfile + 1, sizeof *hp->pos);
	for (size_t i = 0; i < hp->nfile; i++)
		hp->order[i] = i;
	qsort_r(hp->order, hp->nfile, sizeof *hp->order, by_path, &f);
	for (size_t j = 0; j < hp->nfile; j++)
		hp->pos[hp->order[j]] = j;
	hp->n = cores > 1 ? (size_t)cores : 1;
	if (hp->n > HELPERS_MAX)
		hp->n = HELPERS_MAX;
	if (hp->n > hp->nfile)
		hp->n = hp->nfile > 0 ? hp->nfile : 1;
	if (getenv("AGENTVIEW_ONE_THREAD") != NULL)
		hp->n = 1;
	if (hp->n > 1) {
		shared = mmap(NULL, hp->nfile, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			      -1, 0);
		if (shared == MAP_FAILED) {
			hp->n = 1;
		} else {
			hp->owner = shared;
			for (size_t j = 0; j < hp->nfile; j++)
				atomic_init(&hp->owner[j], OWNER_FREE);
		}
	}
	fflush(out); /* nothing buffered twice */
	for (size_t h = 1; h < hp->n; h++) {
		int p[2] = {-1, -1};

		if (pipe(p) != 0 || (hp->pid[h] = fork()) < 0) {
			if (p[0] >= 0) {
				close(p[0]);
				close(p[1]);
			}
			hp->n = h;
			break;
		}
		if (hp->pid[h] == 0) {
			close(p[0]);
			for (size_t j = 1; j < h; j++)
				close(hp->fd[j]);
			helper_run(hp, h, f, agent, now_ms, p[1]);
		}
		close(p[1]);
#ifdef F_SETPIPE_SZ
		(void)fcntl(p[0], F_SETPIPE_SZ, 1 << 20); /* room to run ahead */
#endif
		hp->fd[h] = p[0];
	}
}

/* Once the list is made, this process takes its share of the files no
 * helper has taken yet (every n-th): were it to take only the next one
 * it writes out, a helper, which takes the next free file as soon as it
 * sent one, would always be first, and this process would wait. */
static void
helpers_share(struct helpers *hp)
{
	for (size_t j = 0; hp->n > 1 && j < hp->nfile; j += hp->n) {
		unsigned char who = OWNER_FREE;

		atomic_compare_exchange_strong(&hp->owner[j], &who, 0);
	}
}

/* order[j] taken by this process; or the helper that took it first. */
static size_t
claim(struct helpers *hp, size_t j)
{
	unsigned char who = OWNER_FREE;

	if (hp->n <= 1 || atomic_compare_exchange_strong(&hp->owner[j], &who, 0))
		return 0;
	return who;
}

/* The piece helper h sent for file fi into pc, its bytes into t; false
 * when the helper ended (or sent another file's), which is read from no
 * more. */
static bool
helper_recv(struct helpers *hp, size_t h, size_t fi, struct piece *pc, struct buf *t)
{
	bool ok = hp->fd[h] >= 0 && read_all(hp->fd[h], pc, sizeof *pc) && pc->fi == fi &&
		  pc->ns <= SIZE_MAX - pc->nd;

	buf_reset(t);
	if (ok) {
		buf_reserve(t, (size_t)(pc->ns + pc->nd));
		ok = read_all(hp->fd[h], t->p, (size_t)(pc->ns + pc->nd));
	}
	if (!ok && hp->fd[h] >= 0) {
		close(hp->fd[h]);
		hp->fd[h] = -1;
	}
	return ok;
}

/* order[j], a file not summarised: taken, or its piece passed over. */
static void
helper_pass(struct helpers *hp, size_t j, struct buf *t)
{
	struct piece pc;
	size_t h = claim(hp, j);

	if (h != 0)
		helper_recv(hp, h, hp->order[j], &pc, t);
}

/* The helpers gone: their pipes closed, each waited for. */
static void
helpers_end(struct helpers *hp)
{
	for (size_t h = 1; h < hp->n; h++) {
		if (hp->fd[h] >= 0)
			close(hp->fd[h]);
		while (waitpid(hp->pid[h], NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (hp->owner != NULL)
		munmap(hp->owner, hp->nfile);
	free(hp->order);
	free(hp->pos);
}

struct fleet_json *
fleet_json_begin(const struct fleet *f, int agent, int64_t now_ms, FILE *out)
{
	struct fleet_json *j = xcalloc(1, sizeof *j);

	helpers_start(&j->hp, f, agent, now_ms, out);
	return j;
}

/* A helper's piece of a file (bytes t, as pc says) after those in b and
 * diags. */
static void
put_piece(const struct piece *pc, const struct buf *t, struct buf *b, struct buf *diags,
	  bool *sfirst, bool *dfirst, uint64_t *lines)
{
	if (pc->ns > 0) {
		if (!*sfirst)
			buf_addc(b, ',');
		buf_add(b, t->p, (size_t)pc->ns);
		*sfirst = false;
	}
	if (pc->nd > 0) {
		if (!*dfirst)
			buf_addc(diags, ',');
		buf_add(diags, t->p + pc->ns, (size_t)pc->nd);
		*dfirst = false;
	}
	*lines += pc->lines;
}

void
fleet_json_end(struct fleet_json *fj, const struct fleet *f, int agent, int64_t now_ms, FILE *out)
{
	/* The list's states by the names the sessions' "state" has. */
	static const char *const names[FS_NSTATES] = {
		[FS_WAITING] = "waiting",       [FS_FAILED] = "failed", [FS_RUNNING] = "live",
		[FS_INCOMPLETE] = "incomplete", [FS_DONE] = "ok",
	};
	struct helpers *hp = &fj->hp;
	size_t n = fleet_nfiles(f), k = 0, j = 0;
	size_t *files = xcalloc(n + 1, sizeof *files);
	struct buf b = {0}, diags = {0}, t = {0};
	bool sfirst = true, dfirst = true;
	struct fleet_stats st;
	uint64_t lines = 0;

	for (size_t i = 0; i < n; i++) {
		const char *note = fleet_file_note(f, i);

		if (fleet_chat_twin(f, i)) /* its sessions are its transcript's */
			continue;
		if (note == NULL) {
			files[k++] = i;
			continue;
		}
		/* Not a stream, not readable: said, never read whole. */
		buf_addf(&diags, "%s{\"line\":0,\"message\":", dfirst ? "" : ",");
		json_quote(&diags, note, strlen(note));
		buf_adds(&diags, ",\"file\":");
		json_quote(&diags, fleet_file_path(f, i), strlen(fleet_file_path(f, i)));
		buf_addc(&diags, '}');
		dfirst = false;
	}
	qsort_r(files, k, sizeof *files, by_path, &f);
	helpers_share(hp);
	/* The sessions first: they go out as each file is read. */
	buf_adds(&b, "{\"sessions\":[");
	for (size_t i = 0; i < k; i++) {
		size_t fi = files[i], h = 0;
		struct piece pc;
		struct word w;

		word_of(f, fi, &w);
		if (fi < hp->nfile && hp->pos[fi] >= j) {
			for (; j < hp->pos[fi]; j++)
				helper_pass(hp, j, &t);
			h = claim(hp, j++);
		}
		if (h != 0 && helper_recv(hp, h, fi, &pc, &t) && !pc.declined &&
		    same_word(&pc.w, &w)) {
			put_piece(&pc, &t, &b, &diags, &sfirst, &dfirst, &lines);
			if (b.n >= (1u << 16)) {
				fwrite(b.p, 1, b.n, out);
				buf_reset(&b);
			}
			continue;
		}
		/* Read here: its helper declined it, guessed its word wrong,
		 * is gone, or none had it. */
		json_file(fleet_file_path(f, fi), &w, false, fleet_file_of_store(f, fi), agent,
			  now_ms, &b, out, &diags, &sfirst, &dfirst, &lines);
	}
	for (; j < hp->nfile; j++)
		helper_pass(hp, j, &t);
	helpers_end(hp);
	free(fj);
	buf_adds(&b, "],\"diagnostics\":[");
	buf_add(&b, diags.p ? diags.p : "", diags.n);
	buf_addf(&b, "],\"lines\":%llu,\"command\":null,\"states\":{", (unsigned long long)lines);
	/* The count every view of the list says. */
	fleet_stats(f, &st);
	for (int s = 0, first = 1; s < FS_NSTATES; s++) {
		if (names[s] == NULL)
			continue;
		buf_addf(&b, "%s\"%s\":%zu", first ? "" : ",", names[s], st.by_state[s]);
		first = 0;
	}
	buf_adds(&b, "}}\n");
	fwrite(b.p, 1, b.n, out);
	buf_free(&b);
	buf_free(&diags);
	buf_free(&t);
	free(files);
}

void
fleet_list_json(const struct fleet *f, int agent, int width, int64_t now_ms, FILE *out)
{
	(void)width;
	fleet_json_end(fleet_json_begin(f, agent, now_ms, out), f, agent, now_ms, out);
}

/* Append a JSON string member: ,"key":"s" (or null when s is empty). */
static void
json_member(struct buf *out, const char *key, const char *s)
{
	buf_addf(out, ",\"%s\":", key);
	if (s != NULL && s[0] != '\0')
		redact_json_quote(out, s, strlen(s));
	else
		buf_adds(out, "null");
}

void
fleet_change_json(const struct fleet *f, uint32_t row, int was, int64_t now_ms, struct buf *out)
{
	const struct fleet_row *r = fleet_row(f, row);
	enum fleet_state st = (enum fleet_state)r->state;

	buf_addf(out, "{\"time_ms\":%lld,\"state\":\"%s\",\"was\":", (long long)now_ms,
		 fleet_state_name(st));
	if (was == FS_NSTATES)
		buf_adds(out, "null");
	else
		buf_addf(out, "\"%s\"", fleet_state_name((enum fleet_state)was));
	json_member(out, "session_id", r->id);
	buf_addf(out, ",\"agent\":\"%s\"", agent_get(r->agent)->name);
	json_member(out, "model", r->model);
	json_member(out, "cwd", r->cwd);
	json_member(out, "prompt", r->prompt);
	json_member(out, "how", r->how);
	buf_adds(out, ",\"duration_ms\":");
	if (r->duration_ms != TIME_NONE)
		buf_addf(out, "%lld", (long long)r->duration_ms);
	else
		buf_adds(out, "null");
	json_member(out, "file", remote_show(fleet_path(f, row)));
	buf_addf(out, ",\"index\":%u}\n", r->index);
}

void
fleet_change_text(const struct fleet *f, uint32_t row, int was, int64_t now_ms, struct buf *out)
{
	const struct fleet_row *r = fleet_row(f, row);
	enum fleet_state st = (enum fleet_state)r->state;
	time_t t = (time_t)(now_ms / 1000);
	struct buf cell = {0};
	struct tm tm;
	char clock[16];

	(void)was;
	localtime_r(&t, &tm);
	strftime(clock, sizeof clock, "%H:%M:%S", &tm);
	buf_addf(out, "%s %s %s %s", clock, fleet_state_glyph(st), fleet_state_name(st),
		 agent_get(r->agent)->name);
	fleet_cell(f, row, FC_MODEL, now_ms, &cell);
	if (cell.n > 0)
		buf_addf(out, " %s", cell.p);
	buf_reset(&cell);
	fleet_cell(f, row, FC_PROMPT, now_ms, &cell);
	if (cell.n > 0) {
		size_t used, n = text_fit(cell.p, cell.n, 40, &used);

		buf_addf(out, " \"%.*s%s\"", (int)n, cell.p, n < cell.n ? GLYPH_ELLIPSIS : "");
	}
	buf_reset(&cell);
	fleet_cell(f, row, FC_TIME, now_ms, &cell);
	if (cell.n > 0 && strcmp(cell.p, "-") != 0)
		buf_addf(out, " %s", cell.p);
	if (st == FS_FAILED || st == FS_FILE) {
		buf_reset(&cell);
		text_sanitize(&cell, r->how, strlen(r->how), TEXT_ONELINE);
		if (cell.n > 0)
			buf_addf(out, ": %s", cell.p);
	}
	buf_addc(out, '\n');
	buf_free(&cell);
}

/* What -f does with each change. */
struct follow {
	const struct format *fmt;
	struct notifier *n;
	FILE *out;
	int64_t now;
	struct buf line;
};

static void
follow_change(void *ctx, struct fleet *f, uint32_t row, enum fleet_state was)
{
	struct follow *c = ctx;
	enum fleet_state st = (enum fleet_state)fleet_row(f, row)->state;

	/* A file that holds no session (yet) is no session's news. */
	if (st == FS_FILE)
		return;
	if (was == FS_FILE)
		was = FS_NSTATES;
	buf_reset(&c->line);
	c->fmt->change(f, row, (int)was, c->now, &c->line);
	fwrite(c->line.p, 1, c->line.n, c->out);
	if (c->n != NULL && notify_wanted(st))
		notify_row(c->n, f, row, c->now);
}

int
fleet_follow(struct fleet *f, const struct format *fmt, struct notifier *n, FILE *out)
{
	static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
	struct follow c = {fmt, n, out, 0, {0}};
	int status = 0;

	for (size_t i = 0; i < ARRAY_LEN(sigs); i++)
		sig_watch(sigs[i]);
	fleet_on_change(f, follow_change, &c);
	for (;;) {
		struct pollfd p[2] = {{sig_fd(), POLLIN, 0}, {fleet_fd(f), POLLIN, 0}};
		bool stop = false;

		c.now = clock_wall_ms();
		fleet_update(f, c.now, 0);
		if (fflush(out) != 0 || ferror(out)) {
			status = 1;
			break;
		}
		if (poll(p, p[1].fd >= 0 ? 2 : 1, fleet_timeout(f, c.now, false)) < 0 &&
		    errno != EINTR)
			die("poll: %s", strerror(errno));
		/* Lines trickle in from many files: gather them a while, as a
		 * screen gathers them for a frame, instead of waking for each
		 * (a signal still ends the wait). */
		if (p[1].revents != 0 && p[0].revents == 0)
			poll(p, 1, FOLLOW_GATHER_MS);
		sig_drain();
		for (size_t i = 0; i < ARRAY_LEN(sigs); i++)
			stop |= sig_take(sigs[i]);
		if (stop)
			break;
	}
	fleet_on_change(f, NULL, NULL);
	buf_free(&c.line);
	return status;
}

void
fleet_status_line(const struct fleet *f, int flags, struct buf *out)
{
	fleet_summary(f, (flags & SL_TMUX) != 0, out);
}
