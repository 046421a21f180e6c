/* statusline.c: the newest session of a file, in one line. */
#define _GNU_SOURCE /* memrchr */
#include "statusline.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "glyph.h"
#include "json.h"
#include "source.h"
#include "text.h"
#include "tool.h"
#include "words.h"

#define DOT " " GLYPH_DOT " "
#define ELLIPSIS GLYPH_ELLIPSIS
/* Widths, in cells, of the pieces taken from event text. */
#define MODEL_CELLS 24
#define TOOL_CELLS 40
#define REASON_CELLS 60

/* A line that starts a session (of any agent: it holds an adapter's
 * mark): a cheap test first, since most lines are not, then a real
 * parse. */
static bool
is_init_line(const char *p, size_t n, bool first, struct json *j)
{
	if (!agent_marked(p, n))
		return false;
	if (first && n >= 3 && memcmp(p, GLYPH_BOM, 3) == 0) {
		p += 3;
		n -= 3;
	}
	return json_parse(j, p, n) == JSON_OK && agent_line_starts(j) >= 0;
}

size_t
statusline_newest_init(const char *p, size_t n, struct json *j)
{
	size_t end = n; /* the line looked at ends here (exclusive) */

	for (;;) {
		const char *nl = end > 0 ? memrchr(p, '\n', end) : NULL;
		size_t start = nl != NULL ? (size_t)(nl - p) + 1 : 0;

		if (is_init_line(p + start, end - start, start == 0, j))
			return start;
		if (nl == NULL)
			return SIZE_MAX;
		end = (size_t)(nl - p);
	}
}

/* Append event text: one line, safe for a terminal, at most cells wide
 * (cut with "…"), with '#' doubled for tmux. */
static void
add_text(struct buf *out, const char *s, size_t n, size_t cells, int flags)
{
	struct buf san = {0};
	size_t used, len;

	text_sanitize(&san, s, n, TEXT_ONELINE);
	len = san.n;
	if (text_width(san.p, san.n) > cells)
		len = text_fit(san.p, san.n, cells - 1, &used);
	for (size_t i = 0; i < len; i++) {
		if (san.p[i] == '#' && (flags & (SL_TMUX | SL_HASH)))
			buf_addc(out, '#');
		buf_addc(out, san.p[i]);
	}
	if (len < san.n)
		buf_adds(out, ELLIPSIS);
	buf_free(&san);
}

/* Append lit, in a tmux colour when asked. */
static void
add_styled(struct buf *out, const char *colour, const char *lit, int flags)
{
	if (flags & SL_TMUX)
		buf_addf(out, "#[fg=%s]%s#[default]", colour, lit);
	else
		buf_adds(out, lit);
}

/* The running call of session s that started last, or NONE. */
static uint32_t
newest_running(const struct model *m, uint32_t s)
{
	uint32_t best = NONE;

	if (m->ses[s].nopen == 0)
		return NONE;
	for (size_t c = m->ncall; c-- > 0;) {
		const struct call *call = &m->call[c];

		if (call->session != s || call->done_ev != NONE ||
		    model_call_state(m, (uint32_t)c) != CS_RUNNING)
			continue;
		if (best == NONE ||
		    (call->start_ms != TIME_NONE && (m->call[best].start_ms == TIME_NONE ||
						     call->start_ms > m->call[best].start_ms)))
			best = (uint32_t)c;
	}
	return best;
}

/* Append "1 running, 12 done, 2 failed" (zero counts left out); false when
 * the session made no call. */
static bool
add_counts(struct model *m, uint32_t s, int flags, struct buf *out)
{
	uint32_t c[CS_NSTATES], failed;
	bool any = false;

	model_session_counts(m, s, c);
	failed = c[CS_FAILED] + c[CS_ERROR] + c[CS_REJECTED] + c[CS_ORPHANED];
	if (c[CS_RUNNING] > 0) {
		buf_addf(out, "%u running", c[CS_RUNNING]);
		any = true;
	}
	if (c[CS_OK] > 0) {
		buf_addf(out, "%s%u done", any ? ", " : "", c[CS_OK]);
		any = true;
	}
	if (failed > 0) {
		char t[32];

		snprintf(t, sizeof t, "%u failed", failed);
		buf_adds(out, any ? ", " : "");
		add_styled(out, "red", t, flags);
		any = true;
	}
	return any;
}

/* Append why the session failed: the command's end, or the result's text
 * when it said is_error. */
static void
add_reason(struct model *m, uint32_t s, int flags, struct buf *out)
{
	struct buf t = {0};

	words_failure(m, s, &t);
	if (t.n > 0) {
		buf_adds(out, DOT);
		if (flags & SL_TMUX)
			buf_adds(out, "#[fg=red]");
		add_text(out, t.p, t.n, REASON_CELLS, flags);
		if (flags & SL_TMUX)
			buf_adds(out, "#[default]");
	}
	buf_free(&t);
}

void
statusline_format(struct model *m, uint32_t s, int flags, struct buf *out)
{
	static const char *const glyph[SS_NSTATES] = {
		[SS_LIVE] = GLYPH_LIVE, [SS_OK] = GLYPH_OK,           [SS_FAILED] = GLYPH_FAILED,
		[SS_INCOMPLETE] = "?",  [SS_WAITING] = GLYPH_WAITING,
	};
	static const char *const colour[SS_NSTATES] = {
		[SS_LIVE] = "yellow",        [SS_OK] = "green",     [SS_FAILED] = "red",
		[SS_INCOMPLETE] = "magenta", [SS_WAITING] = "cyan",
	};
	enum session_state st = model_session_state(m, s);
	struct buf t = {0};
	int64_t d = model_session_duration(m, s);
	size_t mark;
	uint32_t c;

	add_styled(out, colour[st], glyph[st], flags);
	/* A stream that names no model (Codex's) says whose it is. */
	if (!model_fact(m, s, FACT_MODEL, &t) && !agent_get(m->ses[s].agent)->unnamed)
		buf_adds(&t, agent_get(m->ses[s].agent)->label);
	if (t.n > 0) {
		buf_addc(out, ' ');
		add_text(out, t.p, t.n, MODEL_CELLS, flags);
	}
	if (d != TIME_NONE) {
		buf_adds(out, DOT);
		fmt_duration(out, d);
	}
	mark = out->n;
	buf_adds(out, DOT);
	if (!add_counts(m, s, flags, out))
		buf_cut(out, mark);
	if (st == SS_LIVE && (c = newest_running(m, s)) != NONE) {
		struct tool_desc td = {0};
		int64_t cd = model_call_duration(m, c);

		tool_describe(m, c, &td);
		buf_reset(&t);
		tool_line((enum tool_kind)m->call[c].kind, &td, &t);
		buf_adds(out, DOT);
		add_text(out, t.p, t.n, TOOL_CELLS, flags);
		if (cd != TIME_NONE) {
			buf_addc(out, ' ');
			fmt_duration(out, cd);
		}
		tool_desc_free(&td);
	} else if (st == SS_FAILED) {
		add_reason(m, s, flags, out);
	}
	buf_free(&t);
}

/* A line the status line can pass over unparsed: an assistant or thinking
 * event. The model takes the first "type" of a line, so a line that
 * begins with one of these is that kind of event, whatever follows; such
 * events change no call, result or state, only the session's clock. */
static bool
statusline_skippable(const char *p, size_t n)
{
	static const char a[] = "{\"type\":\"assistant\",";
	static const char t[] = "{\"type\":\"thinking\",";

	return (n >= sizeof a - 1 && memcmp(p, a, sizeof a - 1) == 0) ||
	       (n >= sizeof t - 1 && memcmp(p, t, sizeof t - 1) == 0);
}

/* Read a stream (a FIFO, piped stdin) to its end. */
static int
read_all(struct source *s, struct buf *err)
{
	while (!s->eof) {
		struct pollfd p = {s->fd, POLLIN, 0};

		if (poll(&p, 1, -1) < 0 && errno != EINTR) {
			buf_addf(err, "%s: %s", s->name, strerror(errno));
			return -1;
		}
		if (source_read(s) < 0 && errno != EAGAIN && errno != EINTR &&
		    errno != EWOULDBLOCK) {
			buf_addf(err, "%s: %s", s->name, strerror(errno));
			return -1;
		}
	}
	return 0;
}

int
statusline_run(const char *path, int flags, int agent, int64_t now_ms, FILE *out, struct buf *err)
{
	struct source src;
	struct stat st;
	struct model *m;
	struct line ln;
	struct buf line = {0};
	bool fresh = false;
	size_t off;
	unsigned si;
	uint32_t s;
	int status;

	if (strcmp(path, "-") == 0) {
		source_open_fd(&src, dup(STDIN_FILENO), "-");
	} else {
		if (source_open_path(&src, path, false, err) != 0)
			return 1;
		/* Only a file that is still being written can be live. */
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			int64_t mtime =
				(int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;

			fresh = ms_sub(now_ms, mtime) < MODEL_LIVE_SECS * 1000;
		}
	}
	if (src.kind == SOURCE_STREAM && read_all(&src, err) != 0) {
		source_close(&src);
		return 1;
	}
	src.eof = true;
	m = model_new();
	m->now_ms = now_ms;
	m->agent = agent;
	/* Most lines are passed over: a second parsing thread would not pay. */
	m->ahead_min = SIZE_MAX;
	si = model_add_source(m, &src);
	off = statusline_newest_init(src.data, src.size, m->json);
	if (off != SIZE_MAX)
		src.scan = off;
	while (source_next_line(&src, &ln)) {
		/* Deltas are most of a long session and tell nothing here, but
		 * the first and the last times: read those. */
		if (m->nses > 0 && m->ses[m->nses - 1].start_ms != TIME_NONE &&
		    src.scan < src.size && statusline_skippable(source_at(&src, ln.off), ln.len))
			continue;
		model_add_line(m, si, &ln, TIME_NONE);
	}
	if (m->nses == 0) {
		fputs("? no session\n", out);
		status = 3;
		goto done;
	}
	s = (uint32_t)(m->nses - 1);
	/* No result, and no recorded end of the command: live while the file
	 * changes. */
	if (!(fresh && m->ses[s].result_ev == NONE && !m->cmd.exited && m->cmd.signal == 0))
		model_end_source(m, si);
	statusline_format(m, s, flags, &line);
	buf_addc(&line, '\n');
	fwrite(line.p, 1, line.n, out);
	status = m->ses[s].result_ev == NONE ? 3 : 0;
done:
	buf_free(&line);
	model_free(m);
	source_close(&src);
	return status;
}
