/* fleet_words.c: the rows in order, filtered, and what their columns say. */
#define _GNU_SOURCE /* qsort_r, strcasestr */
#include "fleet_impl.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "agent.h"
#include "glyph.h"
#include "redact.h"
#include "remote.h"
#include "text.h"

/* A running session says nothing for this long before "quiet" shows. */
#define QUIET_MS 60000
/* Between two columns. */
#define GAP 1

const char *
fleet_state_name(enum fleet_state st)
{
	static const char *const names[FS_NSTATES] = {
		"waiting", "failed", "running", "incomplete", "done", "file",
	};

	return (unsigned)st < FS_NSTATES ? names[st] : "?";
}

const char *
fleet_state_glyph(enum fleet_state st)
{
	static const char *const glyphs[FS_NSTATES] = {
		GLYPH_WAITING, GLYPH_FAILED, GLYPH_LIVE, GLYPH_INCOMPLETE, GLYPH_OK, GLYPH_DOT,
	};

	return (unsigned)st < FS_NSTATES ? glyphs[st] : "?";
}

const char *
fleet_sort_name(enum fleet_sort sort)
{
	static const char *const names[FSORT_COUNT] = {
		"attention",
		"newest",
		"longest",
		"cwd",
	};

	return (unsigned)sort < FSORT_COUNT ? names[sort] : "?";
}

const char *
fleet_cwd_name(const struct fleet_row *r)
{
	const char *slash = strrchr(r->cwd, '/');

	return slash != NULL && slash[1] != '\0' ? slash + 1 : r->cwd;
}

/* Whether a row runs (its times tick). */
static bool
running(const struct fleet_row *r)
{
	return r->state == FS_RUNNING || r->state == FS_WAITING;
}

/* The time a row shows: elapsed while it runs, else its duration; TIME_NONE
 * when unknown. */
static int64_t
row_time(const struct fleet *f, uint32_t ri, int64_t now_ms)
{
	const struct fleet_row *r = &f->row[ri];
	int64_t end;

	if (r->state == FS_FILE)
		return TIME_NONE;
	if (running(r))
		return r->start_ms != TIME_NONE && now_ms >= r->start_ms
			       ? ms_sub(now_ms, r->start_ms)
			       : TIME_NONE;
	if (r->duration_ms != TIME_NONE)
		return r->duration_ms;
	/* Its last event; the file's last write when no line had a time. */
	end = r->last_ms != TIME_NONE ? r->last_ms : fleet_row_when(f, ri);
	return r->start_ms != TIME_NONE && end >= r->start_ms ? ms_sub(end, r->start_ms)
							      : TIME_NONE;
}

/* --- order and filter ---------------------------------------------------------- */

struct order {
	const struct fleet *f;
	enum fleet_sort sort;
	int64_t now;
};

/* Attention's ranks: who needs a person first. */
static int
rank(const struct fleet_row *r)
{
	switch (r->state) {
	case FS_WAITING:
		return 0;
	case FS_FAILED:
		return 1;
	case FS_RUNNING:
		return 2;
	default:
		return 3;
	}
}

/* -1, 0, 1 for a before b when x > y (the larger first). */
static int
desc(int64_t x, int64_t y)
{
	return x > y ? -1 : x < y ? 1 : 0;
}

static int
compare(const void *pa, const void *pb, void *ctx)
{
	const struct order *o = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct fleet_row *ra = &o->f->row[a], *rb = &o->f->row[b];
	int c = 0;

	switch (o->sort) {
	case FSORT_ATTENTION:
		c = rank(ra) - rank(rb);
		break;
	case FSORT_NEWEST:
		c = desc(ra->start_ms != TIME_NONE ? ra->start_ms : fleet_row_when(o->f, a),
			 rb->start_ms != TIME_NONE ? rb->start_ms : fleet_row_when(o->f, b));
		break;
	case FSORT_LONGEST:
		c = desc(row_time(o->f, a, o->now), row_time(o->f, b, o->now));
		break;
	case FSORT_CWD: /* rows with no cwd last */
		c = (ra->cwd[0] == '\0') - (rb->cwd[0] == '\0');
		if (c == 0)
			c = strcasecmp(fleet_cwd_name(ra), fleet_cwd_name(rb));
		break;
	case FSORT_COUNT:
		break;
	}
	if (c == 0)
		c = desc(fleet_row_when(o->f, a), fleet_row_when(o->f, b));
	/* Sessions of one file with no times: the later one is newer. */
	if (c == 0 && ra->file == rb->file)
		c = desc(ra->index, rb->index);
	return c != 0 ? c : a < b ? -1 : a > b;
}

/* Whether row ri says filter somewhere, in any case. */
static bool
matches(const struct fleet *f, uint32_t ri, const char *filter)
{
	const struct fleet_row *r = &f->row[ri];
	const char *const fields[] = {
		fleet_state_name((enum fleet_state)r->state),
		agent_get(r->agent)->name,
		r->model,
		r->id,
		r->cwd,
		r->prompt,
		r->how,
		fleet_name(f, ri),
	};

	for (size_t i = 0; i < ARRAY_LEN(fields); i++)
		if (strcasestr(fields[i], filter) != NULL)
			return true;
	for (unsigned i = 0; i < r->ncalls; i++)
		if (strcasestr(r->calls[i].what, filter) != NULL)
			return true;
	return false;
}

size_t
fleet_rows(const struct fleet *f, enum fleet_sort sort, const char *filter, int64_t now_ms,
	   uint32_t *v, size_t max)
{
	struct order o = {f, sort, now_ms};
	uint8_t *hide = fleet_twins(f);
	size_t n = 0;

	for (size_t r = 0; r < f->nrow && n < max; r++)
		if ((hide == NULL || !hide[r]) &&
		    (filter == NULL || filter[0] == '\0' || matches(f, (uint32_t)r, filter)))
			v[n++] = (uint32_t)r;
	free(hide);
	qsort_r(v, n, sizeof *v, compare, &o);
	return n;
}

/* --- columns ----------------------------------------------------------------- */

/* Each column: its title, its width, and its priority (0 stays longest;
 * the prompt and the running call take what width is left). */
static const struct {
	const char *title;
	int width;
	int priority;
} columns[FC_NCOLS] = {
	[FC_STATE] = {"STATE", 12, 0}, [FC_AGENT] = {"AGENT", 5, 4},
	[FC_MODEL] = {"MODEL", 14, 9}, [FC_ID] = {"ID", 8, 8},
	[FC_CWD] = {"CWD", 14, 5},     [FC_PROMPT] = {"PROMPT", 14, 1},
	[FC_NOW] = {"NOW", 20, 3},     [FC_TIME] = {"TIME", 7, 2},
	[FC_CALLS] = {"CALLS", 11, 6}, [FC_TOKENS] = {"TOKENS", 11, 10},
	[FC_COST] = {"COST", 7, 11},   [FC_QUIET] = {"QUIET", 11, 7},
	[FC_FILE] = {"FILE", 22, 12},  [FC_HOST] = {"HOST", 10, 3},
};

/* The widest agent's name the AGENT column says (FC_AGENT: the name
 * before any "-"), at least its title's width and at most a model's. */
static int
agent_width(void)
{
	int w = columns[FC_AGENT].width;

	for (unsigned a = 0; a < agent_count(); a++)
		w = MAX(w, (int)strcspn(agent_get(a)->name, "-"));
	return MIN(w, columns[FC_MODEL].width);
}

/* Column c's width before what is left is shared out. */
static int
column_width(int c)
{
	return c == FC_AGENT ? agent_width() : columns[c].width;
}

int
fleet_columns(int width, struct fleet_colw *cols)
{
	bool on[FC_NCOLS];
	int used = 0, n = 0, extra, x = 0;

	for (int c = 0; c < FC_NCOLS; c++) {
		/* The machine is said once there is more than this one. */
		on[c] = c != FC_HOST || remote_any();
		if (on[c])
			used += column_width(c) + (c > 0 ? GAP : 0);
	}
	/* Drop the least needed column until the rest fits (three stay). */
	for (int p = 12; p > 2 && used > width; p--) {
		for (int c = 0; c < FC_NCOLS; c++) {
			if (on[c] && columns[c].priority == p) {
				on[c] = false;
				used -= column_width(c) + GAP;
			}
		}
	}
	extra = MAX(width - used, 0);
	for (int c = 0; c < FC_NCOLS; c++) {
		int w = column_width(c);

		if (!on[c])
			continue;
		/* The prompt takes most of what is left, the call the rest. */
		if (c == FC_PROMPT)
			w += on[FC_NOW] ? extra * 3 / 5 : extra;
		else if (c == FC_NOW)
			w += extra - extra * 3 / 5;
		cols[n].col = (enum fleet_col)c;
		cols[n].x = x;
		cols[n].width = w;
		x += w + GAP;
		n++;
	}
	/* Narrower than the three: the prompt gives what it must. */
	if (x - GAP > width && n > 0) {
		int over = x - GAP - width;

		for (int i = 0; i < n; i++) {
			if (cols[i].col == FC_PROMPT)
				cols[i].width = MAX(cols[i].width - over, 1);
			if (i > 0)
				cols[i].x = cols[i - 1].x + cols[i - 1].width + GAP;
		}
	}
	return n;
}

/* Append "4m05s", or "-". */
static void
add_time(struct buf *out, int64_t ms)
{
	if (ms == TIME_NONE)
		buf_adds(out, "-");
	else
		fmt_duration(out, ms);
}

/* Whether row r's newest open call c may wait for the user's approval,
 * which its store does not record: the call without output for
 * MODEL_MAY_WAIT_MS. */
static bool
may_wait(const struct fleet *f, uint32_t ri, const struct fleet_call *c, int64_t now_ms)
{
	return fleet_row_may_wait(f, ri) && c->start_ms != TIME_NONE &&
	       ms_sub(now_ms, c->start_ms) >= MODEL_MAY_WAIT_MS;
}

/* What the NOW column says: the newest running call and its time (first
 * when it may wait for an approval: running or waiting); or the decision
 * waited for; or how it ended. */
static void
cell_now(const struct fleet *f, uint32_t ri, int64_t now_ms, struct buf *out)
{
	const struct fleet_row *r = &f->row[ri];

	if (r->state == FS_WAITING && r->asking == 0 && r->how[0] != '\0') {
		buf_addf(out, "waits: %s", r->how); /* its store's words */
	} else if (r->state == FS_WAITING) {
		buf_adds(out, "asks for a decision");
	} else if (r->state == FS_RUNNING && r->ncalls > 0 &&
		   may_wait(f, ri, &r->calls[r->ncalls - 1], now_ms)) {
		buf_adds(out, "running or waiting ");
		fmt_duration(out, ms_sub(now_ms, r->calls[r->ncalls - 1].start_ms));
		buf_addf(out, ": %s", r->calls[r->ncalls - 1].what);
		if (r->running > 1)
			buf_addf(out, " (+%u)", r->running - 1);
	} else if (r->state == FS_RUNNING && r->ncalls > 0) {
		const struct fleet_call *c = &r->calls[r->ncalls - 1];

		buf_adds(out, c->what);
		if (c->start_ms != TIME_NONE && now_ms >= c->start_ms) {
			buf_addc(out, ' ');
			fmt_duration(out, ms_sub(now_ms, c->start_ms));
		}
		if (r->running > 1)
			buf_addf(out, " (+%u)", r->running - 1);
	} else if (r->state == FS_DONE) {
		buf_adds(out, "ok");
	} else if (r->state == FS_FAILED || r->state == FS_FILE) {
		buf_adds(out, r->how[0] != '\0' ? r->how : "failed");
	} else if (r->state == FS_INCOMPLETE) {
		buf_adds(out, "no result");
	}
	/* A Cursor session read from its chat store alone: no times of its
	 * own, no turn's end, and what the store's tree orders is unread. */
	if (r->state != FS_FILE && fleet_chat_store(f, r->file))
		buf_adds(out, " (no transcript)");
	if (r->state != FS_FILE && f->file[r->file].gone)
		buf_adds(out, " (file removed)");
	else if (r->state != FS_FILE && (r->flags & FR_GONE))
		buf_adds(out, " (no longer in its file)");
	else if (r->flags & FR_REREAD)
		buf_adds(out, " (file read again)");
	if ((r->flags & FR_GAP) && !running(r))
		buf_adds(out, " (middle not read)");
}

/* What a cell says, raw. */
static void
cell_raw(const struct fleet *f, uint32_t ri, enum fleet_col col, int64_t now_ms, struct buf *out)
{
	const struct fleet_row *r = &f->row[ri];
	uint32_t failed = r->failed + (running(r) ? 0 : r->running);
	int64_t tin, tout;

	switch (col) {
	case FC_STATE:
		buf_addf(out, "%s %s", fleet_state_glyph((enum fleet_state)r->state),
			 fleet_state_name((enum fleet_state)r->state));
		if (r->flags & FR_GUESS)
			buf_addc(out, '?'); /* by its file's age only */
		break;
	case FC_AGENT:
		/* The agent, not the format its session was read in: a
		 * store's adapter is named "claude-store", its agent claude. */
		if (r->state != FS_FILE) {
			const char *name = agent_get(r->agent)->name;

			buf_add(out, name, strcspn(name, "-"));
		}
		break;
	case FC_MODEL:
		buf_adds(out, r->model[0] != '\0' || r->state == FS_FILE
				      ? r->model
				      : agent_get(r->agent)->label);
		break;
	case FC_ID:
		buf_add(out, r->id, redact_cut(r->id, strlen(r->id), 8));
		break;
	case FC_CWD:
		buf_adds(out, fleet_cwd_name(r));
		break;
	case FC_PROMPT:
		buf_adds(out, r->state == FS_FILE ? fleet_name(f, ri) : r->prompt);
		break;
	case FC_NOW:
		cell_now(f, ri, now_ms, out);
		break;
	case FC_TIME:
		if (r->state != FS_FILE)
			add_time(out, row_time(f, ri, now_ms));
		break;
	case FC_CALLS:
		if (r->ok > 0)
			buf_addf(out, GLYPH_OK "%u", r->ok);
		if (failed > 0)
			buf_addf(out, "%s" GLYPH_FAILED "%u", out->n ? " " : "", failed);
		if (running(r) && r->running > 0)
			buf_addf(out, "%s" GLYPH_RUNNING "%u", out->n ? " " : "", r->running);
		break;
	case FC_TOKENS:
		fleet_row_tokens(f, ri, &tin, &tout);
		if (tin >= 0 || tout >= 0) {
			fmt_count(out, (uint64_t)MAX(tin, 0));
			buf_addc(out, '/');
			fmt_count(out, (uint64_t)MAX(tout, 0));
		}
		break;
	case FC_COST:
		if (r->cost_usd >= 0)
			buf_addf(out, "$%.*f", r->cost_usd < 0.1 ? 4 : 2, r->cost_usd);
		break;
	case FC_QUIET: /* its title says what the time is */
		if (running(r) && ms_sub(now_ms, fleet_row_when(f, ri)) >= QUIET_MS)
			fmt_duration(out, ms_sub(now_ms, fleet_row_when(f, ri)) / 60000 * 60000);
		break;
	case FC_FILE:
		buf_adds(out, fleet_name(f, ri));
		break;
	case FC_HOST:
		buf_adds(out, remote_host_of(fleet_path(f, ri)) != NULL
				      ? remote_host_of(fleet_path(f, ri))
				      : "local");
		break;
	case FC_NCOLS:
		break;
	}
}

void
fleet_cell(const struct fleet *f, uint32_t row, enum fleet_col col, int64_t now_ms, struct buf *out)
{
	struct buf raw = {0};

	cell_raw(f, row, col, now_ms, &raw);
	text_sanitize(out, raw.p ? raw.p : "", raw.n, TEXT_ONELINE);
	buf_free(&raw);
}

/* Append s[0..n) (safe text) in exactly width cells: cut with "…", or
 * padded; right-aligned with right. */
static void
add_fit(struct buf *out, const char *s, size_t n, int width, bool right)
{
	size_t w = text_width(s, n), used = 0, len = n;

	if (width <= 0)
		return;
	if (w > (size_t)width) {
		len = text_fit(s, n, (size_t)width - 1, &used);
		buf_add(out, s, len);
		buf_adds(out, GLYPH_ELLIPSIS);
		used++;
	} else {
		if (right)
			buf_addf(out, "%*s", width - (int)w, "");
		buf_add(out, s, n);
		used = w;
		if (right)
			return;
	}
	if ((int)used < width)
		buf_addf(out, "%*s", width - (int)used, "");
}

/* Whether a column's numbers line up on the right. */
static bool
right_aligned(enum fleet_col c)
{
	return c == FC_TIME || c == FC_TOKENS || c == FC_COST;
}

void
fleet_header(const struct fleet_colw *cols, int n, struct buf *out)
{
	for (int i = 0; i < n; i++) {
		const char *t = columns[cols[i].col].title;

		if (i > 0)
			buf_addf(out, "%*s", GAP, "");
		add_fit(out, t, strlen(t), cols[i].width, right_aligned(cols[i].col));
	}
}

void
fleet_line(const struct fleet *f, uint32_t row, const struct fleet_colw *cols, int n,
	   int64_t now_ms, struct buf *out)
{
	struct buf cell = {0};
	bool file = false;

	for (int i = 0; i < n; i++)
		file |= cols[i].col == FC_FILE;
	for (int i = 0; i < n; i++) {
		buf_reset(&cell);
		fleet_cell(f, row, cols[i].col, now_ms, &cell);
		/* A session without a prompt: its file's name says which it is,
		 * when no column does. */
		if (cols[i].col == FC_PROMPT && cell.n == 0 && !file) {
			const char *name = fleet_name(f, row);

			buf_addc(&cell, '(');
			text_sanitize(&cell, name, strlen(name), TEXT_ONELINE);
			buf_addc(&cell, ')');
		}
		if (i > 0)
			buf_addf(out, "%*s", GAP, "");
		add_fit(out, cell.p ? cell.p : "", cell.n, cols[i].width,
			right_aligned(cols[i].col));
	}
	buf_free(&cell);
}

void
fleet_summary(const struct fleet *f, bool tmux, struct buf *out)
{
	/* The states summed up, in this order, and their colours in tmux. */
	static const struct {
		enum fleet_state st;
		const char *colour;
	} sums[] = {
		{FS_RUNNING, "yellow"},     {FS_WAITING, "cyan"}, {FS_FAILED, "red"},
		{FS_INCOMPLETE, "magenta"}, {FS_DONE, "green"},
	};
	struct fleet_stats st;
	size_t mark = out->n;

	fleet_stats(f, &st);
	for (size_t i = 0; i < ARRAY_LEN(sums); i++) {
		size_t n = st.by_state[sums[i].st];

		if (n == 0)
			continue;
		if (out->n > mark)
			buf_adds(out, " " GLYPH_DOT " ");
		if (tmux)
			buf_addf(out, "#[fg=%s]", sums[i].colour);
		buf_addf(out, "%s %zu %s", fleet_state_glyph(sums[i].st), n,
			 fleet_state_name(sums[i].st));
		if (tmux)
			buf_adds(out, "#[default]");
	}
	if (out->n == mark)
		buf_adds(out, "no sessions");
}
