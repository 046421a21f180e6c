/* fleet_print.c: the session list printed, followed, and summed up. */
#define _GNU_SOURCE /* qsort_r */
#include "fleet_print.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
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
	model_end_source(mo->m, si);
}

/* File fi of fl's summary pieces: its sessions to out (and f), its
 * diagnostics kept in diags; its lines counted. The file is read into
 * memory, not mapped: the line ends are then looked for in bytes the copy
 * left in the cache (over mapped pages, their faults and the memchr cost
 * twice as much), and a file cut short meanwhile is what was read. Its
 * newest session is over when the list says so (open: it still runs or
 * waits), in the state the list gives it when that is a store's (said;
 * FS_NSTATES: its lines'), said to may wait for an approval as its row
 * says, its times as of now_ms. */
static void
json_file(const struct fleet *fl, size_t fi, int agent, int64_t now_ms, struct buf *out, FILE *f,
	  struct buf *diags, bool *sfirst, bool *dfirst, uint64_t *lines)
{
	static const uint8_t as[FS_NSTATES] = {
		[FS_WAITING] = SS_WAITING,       [FS_FAILED] = SS_FAILED, [FS_RUNNING] = SS_LIVE,
		[FS_INCOMPLETE] = SS_INCOMPLETE, [FS_DONE] = SS_OK,       [FS_FILE] = SS_NSTATES,
	};
	const char *path = fleet_file_path(fl, fi);
	bool open = fleet_file_open(fl, fi);
	enum fleet_state said = fleet_store_state(fl, fi);
	struct source src;
	struct model *m;
	struct buf err = {0};
	struct line ln;
	struct more mo = {0};
	unsigned si;

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
	m->may_wait = fleet_file_may_wait(fl, fi);
	si = model_add_source(m, &src);
	mo.m = m;
	mo.of = si;
	while (source_next_line(&src, &ln))
		json_line(&mo, si, &ln);
	if (!open)
		model_end_source(m, si);
	/* Its newest session's state as the list has it. */
	for (size_t s = m->nses; said < FS_NSTATES && as[said] < SS_NSTATES && s-- > 0;) {
		if (m->ses[s].src == si) {
			m->said = (uint32_t)s;
			m->said_state = as[said];
			break;
		}
	}
	/* Its sub-agents' files, more of its sessions. */
	mo.diags = diags;
	mo.dfirst = dfirst;
	agent_more(path, json_more, &mo);
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
 * processes (one a core but one, at most HELPERS_MAX), file i read by
 * helper i % n (0: this one), each helper's pieces sent back over its pipe
 * in the files' order and written out in theirs, so that the output is
 * the same byte for byte as read by one. A process, not a thread: nothing
 * of the model is shared. A file of more than HELPER_FILE_MAX bytes is
 * read here, its summary streamed rather than held. */
#define HELPERS_MAX 8
#define HELPER_FILE_MAX ((off_t)4 << 20)

/* What a helper sends for a file: its lines, then its sessions and its
 * diagnostics (each without a leading comma), ns and nd bytes. */
struct piece {
	uint64_t lines, ns, nd;
};

/* The whole of n bytes at p written to fd; false when it could not be. */
static bool
write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		c += w;
		n -= (size_t)w;
	}
	return true;
}

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
	unsigned char *mine; /* file k read here, whoever's turn */
};

/* Who reads the k-th file of files: helper k % n, unless it is big. */
static size_t
helper_of(const struct helpers *hp, size_t k)
{
	return hp->mine[k] ? 0 : k % hp->n;
}

/* Start the helpers for files[0..k): each reads its share, sends it and
 * exits (never returning here); hp->n is 1 where none could start. */
static void
helpers_start(struct helpers *hp, const struct fleet *f, const size_t *files, size_t k, int agent,
	      int64_t now_ms, FILE *out)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	struct stat st;

	hp->n = cores > 1 ? (size_t)cores : 1;
	if (hp->n > HELPERS_MAX)
		hp->n = HELPERS_MAX;
	if (hp->n > k)
		hp->n = k > 0 ? k : 1;
	if (getenv("AGENTVIEW_ONE_THREAD") != NULL)
		hp->n = 1;
	hp->mine = xcalloc(k + 1, 1);
	for (size_t i = 0; i < k && hp->n > 1; i++)
		hp->mine[i] = stat(fleet_file_path(f, files[i]), &st) == 0 &&
			      st.st_size > HELPER_FILE_MAX;
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
			struct buf s = {0}, d = {0};

			close(p[0]);
			for (size_t j = 1; j < h; j++)
				close(hp->fd[j]);
			for (size_t i = 0; i < k; i++) {
				struct piece pc = {0};
				bool sf = true, df = true;

				if (helper_of(hp, i) != h)
					continue;
				buf_reset(&s);
				buf_reset(&d);
				json_file(f, files[i], agent, now_ms, &s, NULL, &d, &sf, &df,
					  &pc.lines);
				pc.ns = s.n;
				pc.nd = d.n;
				if (!write_all(p[1], &pc, sizeof pc) ||
				    !write_all(p[1], s.p, s.n) || !write_all(p[1], d.p, d.n))
					_exit(1);
			}
			_exit(0);
		}
		close(p[1]);
#ifdef F_SETPIPE_SZ
		(void)fcntl(p[0], F_SETPIPE_SZ, 1 << 20); /* room to run ahead */
#endif
		hp->fd[h] = p[0];
	}
}

/* The pieces of a file helper h read, into b (the sessions) and diags;
 * false when the helper ended before it sent them all. */
static bool
helper_take(struct helpers *hp, size_t h, struct buf *b, struct buf *diags, bool *sfirst,
	    bool *dfirst, uint64_t *lines)
{
	struct piece pc;
	struct buf t = {0};
	bool ok =
		hp->fd[h] >= 0 && read_all(hp->fd[h], &pc, sizeof pc) && pc.ns <= SIZE_MAX - pc.nd;

	if (ok) {
		buf_reserve(&t, (size_t)(pc.ns + pc.nd));
		ok = read_all(hp->fd[h], t.p, (size_t)(pc.ns + pc.nd));
	}
	if (!ok) {
		if (hp->fd[h] >= 0)
			close(hp->fd[h]);
		hp->fd[h] = -1;
		buf_free(&t);
		return false;
	}
	if (pc.ns > 0) {
		if (!*sfirst)
			buf_addc(b, ',');
		buf_add(b, t.p, (size_t)pc.ns);
		*sfirst = false;
	}
	if (pc.nd > 0) {
		if (!*dfirst)
			buf_addc(diags, ',');
		buf_add(diags, t.p + pc.ns, (size_t)pc.nd);
		*dfirst = false;
	}
	*lines += pc.lines;
	buf_free(&t);
	return true;
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
	free(hp->mine);
}

/* Files in the order of their paths. */
static int
by_path(const void *a, const void *b, void *ctx)
{
	const struct fleet *f = *(const struct fleet **)ctx;

	return strcmp(fleet_file_path(f, *(const size_t *)a),
		      fleet_file_path(f, *(const size_t *)b));
}

void
fleet_list_json(const struct fleet *f, int agent, int width, int64_t now_ms, FILE *out)
{
	/* The list's states by the names the sessions' "state" has. */
	static const char *const names[FS_NSTATES] = {
		[FS_WAITING] = "waiting",       [FS_FAILED] = "failed", [FS_RUNNING] = "live",
		[FS_INCOMPLETE] = "incomplete", [FS_DONE] = "ok",
	};
	size_t n = fleet_nfiles(f), k = 0;
	size_t *files = xcalloc(n + 1, sizeof *files);
	struct buf b = {0}, diags = {0};
	bool sfirst = true, dfirst = true;
	struct fleet_stats st;
	struct helpers hp = {0};
	uint64_t lines = 0;

	(void)width;
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
	/* The sessions first: they go out as each file is read. */
	buf_adds(&b, "{\"sessions\":[");
	helpers_start(&hp, f, files, k, agent, now_ms, out);
	for (size_t i = 0; i < k; i++) {
		size_t h = helper_of(&hp, i);

		if (h != 0 && helper_take(&hp, h, &b, &diags, &sfirst, &dfirst, &lines)) {
			if (b.n >= (1u << 16)) {
				fwrite(b.p, 1, b.n, out);
				buf_reset(&b);
			}
			continue;
		}
		/* Its helper's file read here if the helper is gone. */
		json_file(f, files[i], agent, now_ms, &b, out, &diags, &sfirst, &dfirst, &lines);
	}
	helpers_end(&hp);
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
	free(files);
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
