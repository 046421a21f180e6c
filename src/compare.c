/* compare.c: --compare A B. Each side's file is read whole into a model of
 * its own; what the scorecard says of its session is gathered once (counts,
 * sorted lists of files and commands, the steps taken), then written as a
 * table of two columns in text or Markdown, or as JSON. */
#include "compare.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agent.h"
#include "copy.h"
#include "glyph.h"
#include "input.h"
#include "json.h"
#include "model.h"
#include "print.h"
#include "redact.h"
#include "text.h"
#include "tool.h"
#include "words.h"

/* Cells of the label column, and at most of side A's column. */
#define LABEL_W 15
#define SIDE_MAX 48

/* Strings, NUL-separated in one buffer; sorted and made unique once all
 * are in. */
struct strs {
	struct buf b;
	size_t *off;
	size_t n, cap;
};

/* One side: its file and session, read, and what is said about it. */
struct side {
	const char *arg; /* as given: "run.ndjson#2" */
	struct buf file;
	long want; /* N of FILE#N; -1: the newest session */
	struct model *m;
	struct input in;
	uint32_t s;
	uint32_t ncalls;
	uint32_t nkind[TK_NKINDS];
	uint32_t nstate[CS_NSTATES];
	uint32_t nfailed; /* calls failed, rejected, erred or orphaned */
	struct strs read, changed, commands;
	struct strs steps; /* each call's kind and target, in order */
	uint32_t *call;    /* the call of each step */
	int64_t span;      /* ms from the session's start to its end */
};

/* Append s[0..n) to l. */
static void
strs_add(struct strs *l, const char *s, size_t n)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->off = xreallocarray(l->off, l->cap, sizeof *l->off);
	}
	l->off[l->n++] = l->b.n;
	buf_add(&l->b, s, n);
	buf_addc(&l->b, '\0');
}

static const char *
strs_at(const struct strs *l, size_t i)
{
	return l->b.p + l->off[i];
}

/* The buffer qsort compares offsets into. */
static const char *sort_base;

/* qsort: two offsets by the strings they point at. */
static int
strs_cmp(const void *a, const void *b)
{
	return strcmp(sort_base + *(const size_t *)a, sort_base + *(const size_t *)b);
}

/* Sort l and drop repeats. */
static void
strs_sort_unique(struct strs *l)
{
	size_t k = 0;

	if (l->n == 0)
		return;
	sort_base = l->b.p;
	qsort(l->off, l->n, sizeof *l->off, strs_cmp);
	for (size_t i = 1; i < l->n; i++)
		if (strcmp(strs_at(l, i), strs_at(l, k)) != 0)
			l->off[++k] = l->off[i];
	l->n = k + 1;
}

static void
strs_free(struct strs *l)
{
	buf_free(&l->b);
	free(l->off);
}

long
compare_split(const char *arg, struct buf *file)
{
	const char *hash = strrchr(arg, '#');
	struct stat st;
	char *end;
	long n;

	buf_reset(file);
	if (hash != NULL && hash[1] >= '0' && hash[1] <= '9' && stat(arg, &st) != 0) {
		errno = 0;
		n = strtol(hash + 1, &end, 10);
		if (*end == '\0' && errno == 0) {
			buf_add(file, arg, (size_t)(hash - arg));
			return n;
		}
	}
	buf_adds(file, arg);
	return -1;
}

/* Split the side's "FILE#N" into its file and N. */
static void
side_split(struct side *sd)
{
	sd->want = compare_split(sd->arg, &sd->file);
}

/* Read the side's file whole into its model. */
static int
side_read(struct side *sd, int agent, struct buf *err)
{
	struct pollfd fds[INPUT_MAX];

	sd->m = model_new();
	sd->m->agent = agent;
	input_init(&sd->in, sd->m, false);
	if (input_add_path(&sd->in, sd->file.p, err) != 0)
		return -1;
	for (;;) {
		int n;

		while (input_pump(&sd->in, 0))
			;
		if (input_done(&sd->in))
			break;
		n = input_pollfds(&sd->in, fds, INPUT_MAX);
		if (n == 0)
			break;
		if (poll(fds, (nfds_t)n, -1) < 0 && errno != EINTR) {
			buf_addf(err, "%s: %s", sd->file.p, strerror(errno));
			return -1;
		}
	}
	sd->m->now_ms = clock_wall_ms();
	return 0;
}

/* Pick the session asked for: the Nth, or the newest. */
static int
side_pick(struct side *sd, struct buf *err)
{
	size_t n = model_nsessions(sd->m);

	if (n == 0) {
		buf_addf(err, "%s: no session in it", sd->file.p);
		return -1;
	}
	if (sd->want == 0 || (sd->want > 0 && (size_t)sd->want > n)) {
		buf_addf(err, "%s: no session %ld: it has %zu (FILE#1 to FILE#%zu)", sd->file.p,
			 sd->want, n, n);
		return -1;
	}
	sd->s = sd->want > 0 ? (uint32_t)(sd->want - 1) : (uint32_t)(n - 1);
	return 0;
}

/* Call c's target, a path relative to its session's directory. */
static const char *
side_target(struct side *sd, uint32_t c, struct buf *out)
{
	struct buf t = {0}, cwd = {0};
	const char *what = copy_call_target(sd->m, c, &t);

	if (what != NULL && strcmp(what, "path") == 0 && model_session_cwd(sd->m, sd->s, &cwd) &&
	    cwd.n > 0)
		text_path_relative(out, t.p, t.n, cwd.p, cwd.n);
	else if (what != NULL)
		buf_add(out, t.p, t.n);
	buf_free(&t);
	buf_free(&cwd);
	return what;
}

/* Milliseconds from the session's first time to its end (its duration,
 * or its last event's time, whichever is later); 0 when unknown. */
static int64_t
side_span(const struct side *sd)
{
	const struct session *ses = &sd->m->ses[sd->s];
	int64_t d = model_session_duration(sd->m, sd->s);

	if (ses->start_ms == TIME_NONE)
		return 0;
	if (d == TIME_NONE || d < 0)
		d = 0;
	if (ses->last_ms != TIME_NONE && ms_sub(ses->last_ms, ses->start_ms) > d)
		d = ms_sub(ses->last_ms, ses->start_ms);
	return d;
}

/* Gather what the scorecard says of the side's session. */
static void
side_gather(struct side *sd)
{
	struct model *m = sd->m;
	struct buf t = {0}, step = {0};

	for (uint32_t c = 0; c < model_ncalls(m); c++) {
		enum tool_kind k = (enum tool_kind)m->call[c].kind;
		enum call_state st;
		const char *what;

		if (m->call[c].session != sd->s)
			continue;
		st = model_call_state(m, c);
		sd->ncalls++;
		sd->nkind[k]++;
		sd->nstate[st]++;
		if (st == CS_FAILED || st == CS_REJECTED || st == CS_ERROR || st == CS_ORPHANED)
			sd->nfailed++;
		buf_reset(&t);
		what = side_target(sd, c, &t);
		buf_reset(&step);
		buf_adds(&step, tool_kind_name(k));
		if (what != NULL) {
			buf_addc(&step, ' ');
			buf_add(&step, t.p, t.n);
		}
		strs_add(&sd->steps, step.p, step.n);
		sd->call = xreallocarray(sd->call, sd->steps.cap, sizeof *sd->call);
		sd->call[sd->steps.n - 1] = c;
		if (what == NULL)
			continue;
		if (k == TK_READ && strcmp(what, "path") == 0)
			strs_add(&sd->read, t.p, t.n);
		else if ((k == TK_EDIT || k == TK_WRITE || k == TK_DELETE) &&
			 strcmp(what, "path") == 0)
			strs_add(&sd->changed, t.p, t.n);
		else if (k == TK_SHELL)
			strs_add(&sd->commands, t.p, t.n);
	}
	sd->span = side_span(sd);
	strs_sort_unique(&sd->read);
	strs_sort_unique(&sd->changed);
	strs_sort_unique(&sd->commands);
	buf_free(&t);
	buf_free(&step);
}

static void
side_free(struct side *sd)
{
	if (sd->m != NULL) {
		input_free(&sd->in);
		model_free(sd->m);
	}
	buf_free(&sd->file);
	strs_free(&sd->read);
	strs_free(&sd->changed);
	strs_free(&sd->commands);
	strs_free(&sd->steps);
	free(sd->call);
}

/* --- the rows of the table ----------------------------------------------- */

enum row {
	R_FILE,
	R_AGENT,
	R_MODEL,
	R_SESSION,
	R_STATE,
	R_DURATION,
	R_TOKENS,
	R_COST,
	R_CALLS,
	R_KINDS,
	R_READ,
	R_CHANGED,
	R_COMMANDS,
	R_FAILURES,
	R_COUNT
};

static const char *const row_label[R_COUNT] = {
	"file", "agent",      "model",   "session",    "state",         "duration",     "tokens",
	"cost", "tool calls", "by kind", "files read", "files changed", "commands run", "failures",
};

/* "shell 3, read 2" for the side's calls by kind. */
static void
say_kinds(const struct side *sd, struct buf *out)
{
	bool first = true;

	for (int k = 0; k < TK_NKINDS; k++) {
		if (sd->nkind[k] == 0)
			continue;
		buf_addf(out, "%s%s %u", first ? "" : ", ", tool_kind_name((enum tool_kind)k),
			 sd->nkind[k]);
		first = false;
	}
	if (first)
		buf_adds(out, "-");
}

/* "2 calls · exit status 1: ..." for the side's failures. */
static void
say_failures(struct side *sd, struct buf *out)
{
	struct buf why = {0};
	bool failed = words_failure(sd->m, sd->s, &why);

	if (sd->nfailed > 0)
		buf_addf(out, "%u call%s", sd->nfailed, sd->nfailed == 1 ? "" : "s");
	else if (!failed)
		buf_adds(out, "none");
	if (failed)
		buf_addf(out, "%s%s", sd->nfailed > 0 ? " " GLYPH_DOT " " : "", why.p);
	buf_free(&why);
}

/* "10.5k in, 28 out": the tokens as words_tokens says them, without its
 * "tokens " before; "?" when the session's end does not say them. */
static void
say_tokens(struct side *sd, struct buf *out)
{
	struct buf t = {0};

	if (words_tokens(sd->m, sd->s, &t))
		buf_adds(out, t.p + strlen("tokens "));
	else
		buf_adds(out, "?");
	buf_free(&t);
}

/* Append what row r says of the side, raw (not yet sanitized). */
static void
side_row(struct side *sd, enum row r, struct buf *out)
{
	struct model *m = sd->m;
	size_t mark = out->n;
	int64_t d;

	switch (r) {
	case R_FILE:
		buf_adds(out, sd->arg);
		break;
	case R_AGENT:
		buf_adds(out, agent_get(m->ses[sd->s].agent)->label);
		break;
	case R_MODEL:
		if (!model_fact(m, sd->s, FACT_MODEL, out) || out->n == mark)
			buf_adds(out, "?");
		break;
	case R_SESSION:
		if (!model_fact(m, sd->s, FACT_ID, out) || out->n == mark)
			buf_adds(out, "?");
		if (model_nsessions(m) > 1)
			buf_addf(out, " (%u of %zu)", sd->s + 1, model_nsessions(m));
		break;
	case R_STATE:
		buf_adds(out, model_session_state_name(model_session_state(m, sd->s)));
		break;
	case R_DURATION:
		d = model_session_duration(m, sd->s);
		if (d != TIME_NONE)
			fmt_duration(out, d);
		else
			buf_adds(out, "?");
		break;
	case R_TOKENS:
		say_tokens(sd, out);
		break;
	case R_COST:
		if (!words_cost(m, sd->s, out))
			buf_adds(out, "?");
		break;
	case R_CALLS:
		words_call_counts(m, sd->s, out);
		break;
	case R_KINDS:
		say_kinds(sd, out);
		break;
	case R_READ:
		buf_addf(out, "%zu", sd->read.n);
		break;
	case R_CHANGED:
		buf_addf(out, "%zu", sd->changed.n);
		break;
	case R_COMMANDS:
		buf_addf(out, "%zu", sd->commands.n);
		break;
	case R_FAILURES:
		say_failures(sd, out);
		break;
	case R_COUNT:
		break;
	}
}

/* The first step at which the two sides differ (0-based), or -1 when they
 * took the same steps. */
static long
first_difference(const struct side *a, const struct side *b)
{
	size_t n = a->steps.n < b->steps.n ? a->steps.n : b->steps.n;

	for (size_t i = 0; i < n; i++)
		if (strcmp(strs_at(&a->steps, i), strs_at(&b->steps, i)) != 0)
			return (long)i;
	return a->steps.n == b->steps.n ? -1 : (long)n;
}

/* Step i of a side in words ("shell npm test"), or "(no more steps)". */
static const char *
step_words(const struct side *sd, long i)
{
	return (size_t)i < sd->steps.n ? strs_at(&sd->steps, (size_t)i) : "(no more steps)";
}

/* --- plain text and Markdown --------------------------------------------- */

/* Append s as one line of text a terminal shows as it is; for Markdown,
 * escaped as a table's cell (text_md_escape). */
static void
say_cell(struct buf *out, const char *s, size_t n, bool md)
{
	struct buf clean = {0};

	text_sanitize(&clean, s, n, TEXT_ONELINE);
	if (md)
		text_md_escape(out, clean.p != NULL ? clean.p : "", clean.n, MD_CELL, NULL);
	else
		buf_add(out, clean.p, clean.n);
	buf_free(&clean);
}

/* Append s, cut with "…" to at most w cells, padded with spaces to w. */
static void
say_padded(struct buf *out, const char *s, size_t w)
{
	size_t used, n = strlen(s);
	size_t len = text_fit(s, n, w, &used);

	if (len < n) {
		len = text_fit(s, n, w - 1, &used);
		buf_add(out, s, len);
		buf_adds(out, GLYPH_ELLIPSIS);
		used++;
	} else {
		buf_add(out, s, len);
	}
	for (; used < w; used++)
		buf_addc(out, ' ');
}

/* The table: a row a line (text) or a Markdown table's row. */
static void
write_table(struct side *a, struct side *b, bool md, struct buf *out)
{
	struct buf va[R_COUNT] = {{0}}, vb[R_COUNT] = {{0}}, raw = {0};
	size_t w = 1;

	for (int r = 0; r < R_COUNT; r++) {
		buf_reset(&raw);
		side_row(a, (enum row)r, &raw);
		say_cell(&va[r], raw.p, raw.n, md);
		buf_reset(&raw);
		side_row(b, (enum row)r, &raw);
		say_cell(&vb[r], raw.p, raw.n, md);
		if (text_width(va[r].p, va[r].n) > w)
			w = text_width(va[r].p, va[r].n);
	}
	w = w > SIDE_MAX ? SIDE_MAX : w;
	if (md)
		buf_adds(out, "| | A | B |\n|---|---|---|\n");
	else
		buf_addf(out, "%-*s  %-*s  B\n", LABEL_W, "", (int)w, "A");
	for (int r = 0; r < R_COUNT; r++) {
		if (md) {
			buf_addf(out, "| %s | %s | %s |\n", row_label[r], va[r].p, vb[r].p);
		} else {
			buf_addf(out, "%-*s  ", LABEL_W, row_label[r]);
			say_padded(out, va[r].p, w);
			buf_addf(out, "  %s\n", vb[r].p);
		}
		buf_free(&va[r]);
		buf_free(&vb[r]);
	}
	buf_free(&raw);
}

/* A list of both sides' strings, each marked with the sides that have it:
 * "A B  src/a.c", "A -  ...", "- B  ..." (Markdown: "- A and B: ...",
 * "- A only: ...", "- B only: ..."). */
static void
write_union(const char *title, const struct strs *la, const struct strs *lb, bool md,
	    struct buf *out)
{
	size_t i = 0, j = 0;

	buf_addf(out, md ? "\n### %s\n\n" : "\n%s:\n", title);
	if (la->n == 0 && lb->n == 0)
		buf_adds(out, md ? "none\n" : "  none\n");
	while (i < la->n || j < lb->n) {
		int c = i == la->n ? 1 : j == lb->n ? -1 : strcmp(strs_at(la, i), strs_at(lb, j));
		const char *s = c <= 0 ? strs_at(la, i) : strs_at(lb, j);

		if (md)
			buf_adds(out, c == 0 ? "- A and B: " : c < 0 ? "- A only: " : "- B only: ");
		else
			buf_addf(out, "  %s %s  ", c <= 0 ? "A" : "-", c >= 0 ? "B" : "-");
		say_cell(out, s, strlen(s), md);
		buf_addc(out, '\n');
		i += c <= 0;
		j += c >= 0;
	}
}

/* Cells of a timeline's bar, and at most the rows of a side's timeline. */
#define BAR_W 40
#define TIMELINE_MAX 100

/* One call's row of the timeline: its state, kind and target, and its
 * bar on the axis [0, span] ms from its session's start. */
static void
timeline_row(const struct side *sd, const char *name, size_t i, int64_t span, struct buf *out)
{
	struct model *m = sd->m;
	uint32_t c = sd->call[i];
	enum call_state st = model_call_state(m, c);
	int64_t a0 = m->ses[sd->s].start_ms, t0 = m->call[c].start_ms;
	int64_t t1 = model_call_end(m, c);
	struct buf cell = {0};
	size_t from = BAR_W, to = 0;
	long double end;

	buf_addf(out, "  %s %s ", name, tool_state_glyph(st));
	say_cell(&cell, strs_at(&sd->steps, i), strlen(strs_at(&sd->steps, i)), false);
	say_padded(out, cell.p, 32);
	if (a0 != TIME_NONE && t0 != TIME_NONE) {
		if (t1 == TIME_NONE || t1 < t0)
			t1 = ms_add(a0, span);
		/* Cells of the axis, the end's rounded up. */
		from = (size_t)MIN(MAX(ms_scale(ms_sub(t0, a0), BAR_W, span), 0), BAR_W - 1);
		end = (long double)ms_sub(t1, a0) * BAR_W / (long double)span;
		to = end <= 0       ? 0
		     : end >= BAR_W ? BAR_W
				    : (size_t)end + ((long double)(size_t)end < end);
		to = to <= from ? from + 1 : to;
	}
	buf_adds(out, " |");
	for (size_t x = 0; x < BAR_W; x++)
		buf_adds(out, x < from || x >= to ? " "
			      : st == CS_OK       ? GLYPH_BAR_OK
			      : st == CS_RUNNING  ? GLYPH_BAR_RUNNING
						  : GLYPH_BAR_FAILED);
	buf_adds(out, "|\n");
	buf_free(&cell);
}

/* Both runs' calls as bars on one time axis, A's rows above B's. */
static void
write_timelines(const struct side *a, const struct side *b, bool md, struct buf *out)
{
	int64_t span = a->span > b->span ? a->span : b->span;

	buf_adds(out, md ? "\n### Timelines\n\n" : "\nTimelines");
	buf_adds(out, md ? "On one time axis, from each run's start to " : " (on one axis, 0 to ");
	fmt_duration(out, span);
	buf_adds(out, md ? ":\n\n```text\n" : "):\n");
	span = span > 0 ? span : 1;
	for (int k = 0; k < 2; k++) {
		const struct side *sd = k == 0 ? a : b;
		size_t n = sd->steps.n < TIMELINE_MAX ? sd->steps.n : TIMELINE_MAX;

		if (sd->steps.n == 0)
			buf_addf(out, "  %s   (no tool calls)\n", k == 0 ? "A" : "B");
		for (size_t i = 0; i < n; i++)
			timeline_row(sd, k == 0 ? "A" : "B", i, span, out);
		if (sd->steps.n > n)
			buf_addf(out, "  %s   (%zu more calls)\n", k == 0 ? "A" : "B",
				 sd->steps.n - n);
	}
	if (md)
		buf_adds(out, "```\n");
}

/* The scorecard as text or Markdown. */
static void
write_text(struct side *a, struct side *b, bool md, struct buf *out)
{
	long d = first_difference(a, b);

	if (md)
		buf_adds(out, "## Comparison\n\n");
	write_table(a, b, md, out);
	write_union("Files read", &a->read, &b->read, md, out);
	write_union("Files changed", &a->changed, &b->changed, md, out);
	write_union("Commands run", &a->commands, &b->commands, md, out);
	write_timelines(a, b, md, out);
	buf_adds(out, md ? "\n### First different step\n\n" : "\nFirst different step:\n");
	if (d < 0) {
		buf_addf(out, "%snone: the same %zu step%s\n", md ? "" : "  ", a->steps.n,
			 a->steps.n == 1 ? "" : "s");
		return;
	}
	for (int k = 0; k < 2; k++) {
		const char *s = step_words(k == 0 ? a : b, d);

		buf_addf(out, md ? "- %s, step %ld: " : "  %s, step %ld: ", k == 0 ? "A" : "B",
			 d + 1);
		say_cell(out, s, strlen(s), md);
		buf_addc(out, '\n');
	}
}

/* --- JSON ---------------------------------------------------------------- */

/* "key": s quoted, or null when s is NULL. */
static void
json_member(struct buf *out, const char *key, const char *s, size_t n)
{
	buf_addf(out, "\"%s\":", key);
	if (s == NULL)
		buf_adds(out, "null");
	else
		redact_json_quote(out, s, n);
}

/* "key": [strings]. */
static void
json_strs(struct buf *out, const char *key, const struct strs *l)
{
	buf_addf(out, "\"%s\":[", key);
	for (size_t i = 0; i < l->n; i++) {
		if (i > 0)
			buf_addc(out, ',');
		redact_json_quote(out, strs_at(l, i), strlen(strs_at(l, i)));
	}
	buf_addc(out, ']');
}

/* "tokens": {"in": N, ...}, from the session's end; {} when it has none. */
static void
json_tokens(struct side *sd, struct buf *out)
{
	struct model *m = sd->m;
	bool first = true;

	buf_adds(out, "\"tokens\":{");
	for (const struct usage_field *f = agent_get(m->ses[sd->s].agent)->usage; f->path != NULL;
	     f++) {
		int64_t v;

		if (!model_end_int(m, sd->s, FACT_USAGE, f->path, &v))
			continue;
		buf_addf(out, "%s\"%s\":%lld", first ? "" : ",", f->label, (long long)v);
		first = false;
	}
	buf_addc(out, '}');
}

/* "by_kind": {...}, "by_state": {...}: the counts that are not 0. */
static void
json_counts(const struct side *sd, struct buf *out)
{
	bool first = true;

	buf_addf(out, "\"tool_calls\":{\"total\":%u,\"by_kind\":{", sd->ncalls);
	for (int k = 0; k < TK_NKINDS; k++)
		if (sd->nkind[k] > 0) {
			buf_addf(out, "%s\"%s\":%u", first ? "" : ",",
				 tool_kind_name((enum tool_kind)k), sd->nkind[k]);
			first = false;
		}
	buf_adds(out, "},\"by_state\":{");
	first = true;
	for (int st = 0; st < CS_NSTATES; st++)
		if (sd->nstate[st] > 0) {
			buf_addf(out, "%s\"%s\":%u", first ? "" : ",",
				 model_call_state_name((enum call_state)st), sd->nstate[st]);
			first = false;
		}
	buf_adds(out, "}}");
}

/* One side as a JSON object. */
static void
json_side(struct side *sd, struct buf *out)
{
	struct model *m = sd->m;
	struct buf t = {0};
	int64_t d = model_session_duration(m, sd->s);
	bool ok;

	buf_addc(out, '{');
	json_member(out, "file", sd->file.p, sd->file.n);
	buf_addf(out, ",\"session\":%u,\"sessions\":%zu,\"agent\":\"%s\",", sd->s + 1,
		 model_nsessions(m), agent_get(m->ses[sd->s].agent)->name);
	ok = model_fact(m, sd->s, FACT_MODEL, &t);
	json_member(out, "model", ok ? t.p : NULL, t.n);
	buf_reset(&t);
	ok = model_fact(m, sd->s, FACT_ID, &t);
	buf_addc(out, ',');
	json_member(out, "session_id", ok ? t.p : NULL, t.n);
	buf_addf(out, ",\"state\":\"%s\",\"duration_ms\":",
		 model_session_state_name(model_session_state(m, sd->s)));
	if (d != TIME_NONE)
		buf_addf(out, "%lld,", (long long)d);
	else
		buf_adds(out, "null,");
	json_tokens(sd, out);
	buf_reset(&t);
	ok = model_fact(m, sd->s, FACT_COST, &t) && t.n > 0;
	buf_addf(out, ",\"cost_usd\":");
	if (ok)
		buf_addf(out, "%.6g,", strtod(t.p, NULL));
	else
		buf_adds(out, "null,");
	json_counts(sd, out);
	buf_addc(out, ',');
	json_strs(out, "files_read", &sd->read);
	buf_addc(out, ',');
	json_strs(out, "files_changed", &sd->changed);
	buf_addc(out, ',');
	json_strs(out, "commands", &sd->commands);
	buf_addf(out, ",\"failed_calls\":%u,", sd->nfailed);
	buf_reset(&t);
	ok = words_failure(m, sd->s, &t);
	json_member(out, "failure", ok ? t.p : NULL, t.n);
	buf_addf(out, ",\"steps\":%zu}", sd->steps.n);
	buf_free(&t);
}

/* The scorecard as one JSON object. */
static void
write_json(struct side *a, struct side *b, struct buf *out)
{
	long d = first_difference(a, b);

	buf_adds(out, "{\"a\":");
	json_side(a, out);
	buf_adds(out, ",\"b\":");
	json_side(b, out);
	buf_adds(out, ",\"first_difference\":");
	if (d < 0) {
		buf_adds(out, "null}\n");
		return;
	}
	buf_addf(out, "{\"step\":%ld,", d + 1);
	json_member(out, "a", (size_t)d < a->steps.n ? strs_at(&a->steps, (size_t)d) : NULL,
		    (size_t)d < a->steps.n ? strlen(strs_at(&a->steps, (size_t)d)) : 0);
	buf_addc(out, ',');
	json_member(out, "b", (size_t)d < b->steps.n ? strs_at(&b->steps, (size_t)d) : NULL,
		    (size_t)d < b->steps.n ? strlen(strs_at(&b->steps, (size_t)d)) : 0);
	buf_adds(out, "}}\n");
}

/* Both sides: what a format's compare writer is given. */
struct compare {
	struct side sd[2];
};

void
compare_text(struct compare *c, struct buf *out)
{
	write_text(&c->sd[0], &c->sd[1], false, out);
}

void
compare_markdown(struct compare *c, struct buf *out)
{
	write_text(&c->sd[0], &c->sd[1], true, out);
}

void
compare_json(struct compare *c, struct buf *out)
{
	write_json(&c->sd[0], &c->sd[1], out);
}

int
compare_run(const char *a, const char *b, const struct format *fmt, int agent, FILE *out,
	    struct buf *err)
{
	struct compare c = {{{.arg = a}, {.arg = b}}};
	struct buf o = {0};
	int status = 0;

	for (int i = 0; i < 2 && status == 0; i++) {
		side_split(&c.sd[i]);
		if (side_read(&c.sd[i], agent, err) != 0 || side_pick(&c.sd[i], err) != 0)
			status = 1;
		else
			side_gather(&c.sd[i]);
	}
	if (status == 0) {
		fmt->compare(&c, &o);
		fwrite(o.p, 1, o.n, out); /* checked by its caller, with the rest */
	}
	side_free(&c.sd[0]);
	side_free(&c.sd[1]);
	buf_free(&o);
	return status;
}
