/* tool.c: the table of tool kinds, a call's facts, and its one-line
 * account. */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "glyph.h"
#include "json.h"
#include "model.h"
#include "redact.h"
#include "text.h"

/* How a kind's line reads (the flags of a row). */
enum {
	TKF_CODE = 1,  /* the target is code: shown as a code span */
	TKF_ARROW = 2, /* the outcome is what it gave: " → exit 1" */
	TKF_ADDED = 4, /* an outcome of added lines follows with a space:
			     "+3 −1", not " · +3 −1" */
	TKF_PATH = 8,  /* the target is a file's path: shown relative to
			     the session's cwd, cut in the middle */
};

/* Appends a call's target or outcome, read from its facts. */
typedef void tool_words_fn(struct call_facts *v, struct buf *out);

/* A kind: how it reads (each adapter says which of its tools are of
 * which kind: agent.h, struct agent_tool). */
struct kind {
	const char *name;       /* "shell": the JSON summary, the filters */
	const char *label;      /* "Shell": the transcript */
	const char *tag;        /* at most 7 cells, for the timeline; NULL:
				   the label */
	uint8_t what[3];        /* the facts its target is, the first there
				   (CALL_NONE ends them); none and no
				   what_fn: the first string argument */
	tool_words_fn *what_fn; /* a target that is not one fact */
	tool_words_fn *success; /* how a success reads; NULL: `ok` */
	const char *ok;         /* or these words; NULL: "ok" */
	unsigned flags;         /* TKF_* */
};

static tool_words_fn what_edit, what_todos, what_mcp, what_mcp_tools, what_question, what_tools;
static tool_words_fn success_shell, success_read, success_edit, success_write, success_grep,
	success_glob, success_ls, success_todos, success_mcp, success_task, success_await,
	success_websearch;

/* clang-format off */
static const struct kind kinds[TK_NKINDS] = {
	[TK_SHELL] = {.name = "shell", .label = "Shell", .what = {CALL_COMMAND},
		      .success = success_shell,
		      .flags = TKF_CODE | TKF_ARROW},
	[TK_READ] = {.name = "read", .label = "Read", .what = {CALL_PATH},
		     .success = success_read,
		     .flags = TKF_PATH},
	[TK_EDIT] = {.name = "edit", .label = "Edit",
		     .what_fn = what_edit, .success = success_edit, .flags = TKF_PATH | TKF_ADDED},
	[TK_WRITE] = {.name = "write", .label = "Write",
		      .what_fn = what_edit, .success = success_write,
		      .flags = TKF_PATH | TKF_ADDED},
	[TK_GREP] = {.name = "grep", .label = "Grep", .what = {CALL_QUERY},
		     .success = success_grep},
	[TK_DELETE] = {.name = "delete", .label = "Delete",
		       .what_fn = what_edit, .ok = "deleted",
		       .flags = TKF_PATH},
	[TK_GLOB] = {.name = "glob", .label = "Glob", .what = {CALL_QUERY},
		     .success = success_glob},
	[TK_LS] = {.name = "ls", .label = "List", .what = {CALL_PATH},
		   .success = success_ls, .flags = TKF_PATH},
	[TK_TODOS] = {.name = "todos", .label = "Todos",
		      .what_fn = what_todos, .success = success_todos},
	[TK_MCP] = {.name = "mcp", .label = "MCP",
		    .what_fn = what_mcp, .success = success_mcp},
	[TK_MCP_TOOLS] = {.name = "mcp_tools", .label = "Schema",
			  .what_fn = what_mcp_tools},
	[TK_TASK] = {.name = "task", .label = "Task",
		     .what = {CALL_DESCRIPTION, CALL_SUB_TYPE, CALL_TOOL},
		     .success = success_task},
	[TK_AWAIT] = {.name = "await", .label = "Await", .what = {CALL_TASK_ID},
		      .success = success_await, .flags = TKF_ARROW},
	[TK_SEMSEARCH] = {.name = "semsearch", .label = "Search",
			  .what = {CALL_QUERY}},
	[TK_WEBFETCH] = {.name = "webfetch", .label = "Fetch",
			 .what = {CALL_URL, CALL_PROMPT}},
	[TK_WEBSEARCH] = {.name = "websearch", .label = "Web search",
			  .tag = "Web", .what = {CALL_QUERY},
			  .success = success_websearch},
	[TK_QUESTION] = {.name = "question", .label = "Question", .tag = "Ask",
			 .what_fn = what_question},
	[TK_LINTS] = {.name = "lints", .label = "Lints"},
	[TK_TOOLS] = {.name = "tools", .label = "Tools", .what_fn = what_tools},
	[TK_OTHER] = {.name = "other", .label = "Tool"},
};
/* clang-format on */

static const struct kind *
kind_row(enum tool_kind k)
{
	return &kinds[(unsigned)k < TK_NKINDS ? k : TK_OTHER];
}

const char *
tool_kind_name(enum tool_kind k)
{
	return kind_row(k)->name;
}

const char *
tool_kind_label(enum tool_kind k)
{
	return kind_row(k)->label;
}

const char *
tool_kind_tag(enum tool_kind k)
{
	const struct kind *r = kind_row(k);

	return r->tag != NULL ? r->tag : r->label;
}

/* A call's kind in words: known's (the label or the tag), else the
 * tool's name as people read it. */
static void
kind_words(enum tool_kind k, const char *known, const char *name, size_t n, struct buf *out)
{
	if (k != TK_OTHER || n == 0)
		buf_adds(out, known);
	else
		buf_add(out, name, n);
}

void
tool_label(enum tool_kind k, const char *name, size_t n, struct buf *out)
{
	kind_words(k, tool_kind_label(k), name, n, out);
}

void
tool_tag(enum tool_kind k, const char *name, size_t n, struct buf *out)
{
	kind_words(k, tool_kind_tag(k), name, n, out);
}

/* --- a call's facts ------------------------------------------------------- */

void
tool_load(struct model *m, uint32_t c, struct json *sj, struct json *dj, struct call_facts *v)
{
	const struct call *call = &m->call[c];
	const struct agent *a = agent_get(m->ses[call->session].agent);
	const struct json *s = NULL, *d = NULL;

	facts_reset(v);
	v->kind = call->kind;
	v->result = call->result;
	v->elem = a->elem;
	if (call->start_ev != NONE && call->spart != CALL_PART_FAR)
		s = model_parsed(m, call->start_ev, sj);
	/* In a replay, a completion past the cut-off has not happened yet. */
	if (model_seen(m, call->done_ev) && call->dpart != CALL_PART_FAR)
		d = model_parsed(m, call->done_ev, dj);
	v->done = d != NULL || (model_seen(m, call->done_ev) && call->dpart == CALL_PART_FAR);
	a->load(m, c, s, d, v);
}

/* --- the words of a call -------------------------------------------------- */

/* Append fact f's text; false when it has none (or it is empty). */
static bool
str(struct call_facts *v, enum call_fact f, struct buf *out)
{
	return fact_text(call_fact(v, f), out);
}

/* Fact f as a whole number. */
static bool
num(struct call_facts *v, enum call_fact f, int64_t *out)
{
	return fact_int(call_fact(v, f), out);
}

/* Members of the list (or object) fact f, or -1. */
static int
size(struct call_facts *v, enum call_fact f)
{
	return fact_size(call_fact(v, f));
}

/* "1 line", "2 lines". */
static void
count_of(struct buf *out, int64_t n, const char *one, const char *many)
{
	buf_addf(out, "%lld %s", (long long)n, n == 1 ? one : many);
}

bool
tool_text(struct call_facts *v, struct buf *out)
{
	const struct factval *f = call_fact(v, CALL_TEXT);
	size_t before = out->n;
	struct elem_facts e;
	int n, t;

	if (fact_str(f, out))
		return out->n > before;
	if (!fact_array(f))
		return false;
	n = json_size(f->j, f->t);
	t = f->t + 1;
	for (int i = 0; i < n; i++, t = json_next(f->j, t))
		if (call_elem(v, FL_PARTS, f->j, t, &e))
			fact_str(elem_fact(&e, EL_TEXT), out);
	return out->n > before;
}

/* Where the first line of t that says something starts (*at) and ends;
 * its end is *at when there is none. */
static size_t
first_said(const struct buf *t, size_t *at)
{
	size_t i = 0, e;

	while (i < t->n && (t->p[i] == '\n' || t->p[i] == ' ' || t->p[i] == '\t'))
		i++;
	for (e = i; e < t->n && t->p[e] != '\n'; e++)
		;
	*at = i;
	return e;
}

/* The first line of the result text that says something, as an outcome;
 * false when there is none. */
static bool
text_first_line(struct call_facts *v, struct buf *out)
{
	struct buf t = {0};
	size_t i, e;

	tool_text(v, &t);
	e = first_said(&t, &i);
	if (e > i) /* t.p is NULL when there is no text */
		buf_add(out, t.p + i, e - i);
	buf_free(&t);
	return e > i;
}

/* The target of a call of unknown kind: its first string argument. */
static void
what_generic(struct call_facts *v, struct buf *out)
{
	const struct factval *a = call_fact(v, CALL_ARGS);
	const struct json *j;
	int n, k;

	if (!fact_object(a))
		return;
	j = a->j;
	n = json_size(j, a->t);
	k = a->t + 1;
	for (int i = 0; i < n; i++) {
		if (json_type(j, k + 1) == JSON_STRING) {
			json_decode(j, k, out);
			buf_adds(out, ": ");
			json_decode(j, k + 1, out);
			return;
		}
		k = json_next(j, k + 1);
	}
}

/* A file's path, or the first of the files it changed and how many
 * more. */
static void
what_edit(struct call_facts *v, struct buf *out)
{
	int64_t more;

	if (str(v, CALL_PATH, out) && num(v, CALL_MORE, &more) && more > 0)
		buf_addf(out, " and %lld more", (long long)more);
}

/* A list given whole: "3 todos"; one task of the session's list made or
 * changed: the list after it, and the task ("3 tasks · 1 done · Tag the
 * release"). */
static void
what_todos(struct call_facts *v, struct buf *out)
{
	int n = size(v, CALL_TODOS_ASKED);
	int64_t total, done;

	if (n >= 0) {
		count_of(out, n, "todo", "todos");
	} else if (num(v, CALL_TODO_COUNT, &total) && num(v, CALL_TODO_DONE, &done)) {
		count_of(out, total, "task", "tasks");
		buf_addf(out, " " GLYPH_DOT " %lld done", (long long)done);
		if (call_fact(v, CALL_SUBJECT) != NULL)
			buf_adds(out, " " GLYPH_DOT " ");
		str(v, CALL_SUBJECT, out);
	} else {
		str(v, CALL_SUBJECT, out);
	}
}

/* The tools loaded ("load tools Read, Write"), else what was asked. */
static void
what_tools(struct call_facts *v, struct buf *out)
{
	const struct factval *f = call_fact(v, CALL_LOADED);
	struct elem_facts e;
	size_t mark = out->n;
	int t;

	if (fact_array(f) && json_size(f->j, f->t) > 0) {
		buf_adds(out, "load tools ");
		t = f->t + 1;
		for (int i = 0; i < json_size(f->j, f->t); i++, t = json_next(f->j, t)) {
			if (i > 0)
				buf_adds(out, ", ");
			if (call_elem(v, FL_FILES, f->j, t, &e))
				fact_text(elem_fact(&e, EL_NAME), out);
		}
		return;
	}
	buf_adds(out, "find tools ");
	if (!str(v, CALL_QUERY, out))
		buf_cut(out, mark);
}

/* The name the tool was called by, else server/tool. */
static void
what_mcp(struct call_facts *v, struct buf *out)
{
	if (str(v, CALL_MCP_NAME, out))
		return;
	if (str(v, CALL_MCP_SERVER, out))
		buf_addc(out, '/');
	str(v, CALL_MCP_TOOL, out);
}

static void
what_mcp_tools(struct call_facts *v, struct buf *out)
{
	if (str(v, CALL_MCP_SERVER, out))
		buf_addc(out, ' ');
	str(v, CALL_MCP_TOOL, out);
}

/* A question: its title (or first question) in quotes, and the first
 * question's options: "Which file?" (a.txt / b.txt). */
static void
what_question(struct call_facts *v, struct buf *out)
{
	const struct factval *qs = call_fact(v, CALL_QUESTIONS), *opts;
	struct elem_facts q, o;
	bool first = fact_array(qs) && json_size(qs->j, qs->t) > 0 &&
		     call_elem(v, FL_QUESTIONS, qs->j, qs->t + 1, &q);
	int t;

	buf_addc(out, '"');
	if (!str(v, CALL_TITLE, out) && first)
		fact_text(elem_fact(&q, EL_TEXT), out);
	buf_addc(out, '"');
	opts = first ? elem_fact(&q, EL_OPTIONS) : NULL;
	if (!fact_array(opts) || json_size(opts->j, opts->t) == 0)
		return;
	buf_adds(out, " (");
	t = opts->t + 1;
	for (int i = 0; i < json_size(opts->j, opts->t); i++, t = json_next(opts->j, t)) {
		if (i > 0)
			buf_adds(out, " / ");
		if (call_elem(v, FL_OPTIONS, opts->j, t, &o))
			fact_text(elem_fact(&o, EL_TEXT), out);
	}
	buf_addc(out, ')');
}

/* The call's target, as its kind's row says where to find it. */
static void
describe_what(const struct kind *k, struct call_facts *v, struct buf *out)
{
	if (k->what_fn != NULL) {
		k->what_fn(v, out);
		return;
	}
	if (k->what[0] == CALL_NONE) {
		what_generic(v, out);
		return;
	}
	for (size_t i = 0; i < ARRAY_LEN(k->what) && k->what[i] != CALL_NONE; i++)
		if (str(v, k->what[i], out))
			return;
}

/* What a command printed, as output: its first line that says something
 * in quotes, cut to QUOTE_MAX bytes, and how many lines there were
 * ("\"1\" · 5000 lines"); false when it printed nothing. */
enum { QUOTE_MAX = 64 };

static bool
printed(struct call_facts *v, struct buf *out)
{
	struct buf t = {0};
	size_t i, e, k;
	int64_t lines;

	tool_text(v, &t);
	e = first_said(&t, &i);
	if (e > i) {
		k = redact_cut(t.p + i, e - i, QUOTE_MAX);
		buf_addc(out, '"');
		buf_add(out, t.p + i, k);
		if (k < e - i)
			buf_adds(out, GLYPH_ELLIPSIS);
		buf_addc(out, '"');
		lines = text_lines(t.p, t.n);
		if (lines > 1)
			buf_addf(out, " " GLYPH_DOT " %lld lines", (long long)lines);
	}
	buf_free(&t);
	return e > i;
}

/* A command's exit code where the stream says it; else what it printed,
 * read as output (a stream may say success for a command that printed an
 * error: its word is kept, and the error reads as what it printed). */
static void
success_shell(struct call_facts *v, struct buf *out)
{
	int64_t a;

	if (num(v, CALL_EXIT, &a))
		buf_addf(out, "exit %lld", (long long)a);
	else if (num(v, CALL_PID, &a))
		buf_addf(out, "background, pid %lld", (long long)a);
	else if (!printed(v, out))
		buf_adds(out, "ok");
}

void
tool_big_read(struct call_facts *v, struct buf *out)
{
	int64_t size, lines;
	bool n = false;

	buf_adds(out, "content not in the stream");
	if (num(v, CALL_FILE_SIZE, &size) && size >= 0) {
		buf_adds(out, " (");
		fmt_bytes(out, (uint64_t)size);
		n = true;
	}
	if (num(v, CALL_TOTAL_LINES, &lines)) {
		buf_adds(out, n ? ", " : " (");
		count_of(out, lines, "line", "lines");
		n = true;
	}
	if (n)
		buf_addc(out, ')');
}

static void
success_read(struct call_facts *v, struct buf *out)
{
	int64_t a;

	/* A big file's text is left out of the stream (src/FORMAT.md §3):
	 * never read as an empty file. */
	if (call_fact(v, CALL_ELSEWHERE) != NULL)
		tool_big_read(v, out);
	else if (num(v, CALL_TOTAL_LINES, &a))
		count_of(out, a, "line", "lines");
	else
		buf_adds(out, "read");
}

/* Lines added and removed by the hunks of a structured patch (each
 * hunk's lines: "-old", "+new", " same"). */
static bool
patch_counts(struct call_facts *v, int64_t *add, int64_t *del)
{
	const struct factval *p = call_fact(v, CALL_HUNKS);
	const struct json *j;
	struct elem_facts h;
	int t;

	if (!fact_array(p))
		return false;
	j = p->j;
	t = p->t + 1;
	for (int i = 0; i < json_size(j, p->t); i++, t = json_next(j, t)) {
		const struct factval *ls;
		int l;

		if (!call_elem(v, FL_HUNKS, j, t, &h) || !fact_array(ls = elem_fact(&h, EL_LINES)))
			continue;
		l = ls->t + 1;
		for (int k = 0; k < json_size(j, ls->t); k++, l = json_next(j, l)) {
			size_t n;
			const char *s = json_raw(j, l, &n);

			if (json_type(j, l) != JSON_STRING || n == 0)
				continue;
			*add += s[0] == '+';
			*del += s[0] == '-';
		}
	}
	return true;
}

static void
success_edit(struct call_facts *v, struct buf *out)
{
	int64_t a = 0, b = 0;
	int n;
	struct buf t = {0};

	if (patch_counts(v, &a, &b)) {
		/* as counted */
	} else if (call_fact(v, CALL_LINES_ADDED) != NULL ||
		   call_fact(v, CALL_LINES_REMOVED) != NULL) {
		num(v, CALL_LINES_ADDED, &a);
		num(v, CALL_LINES_REMOVED, &b);
	} else if (str(v, CALL_NEW_TEXT, &t)) {
		a = text_lines(t.p, t.n);
		buf_reset(&t);
		if (str(v, CALL_OLD_TEXT, &t))
			b = text_lines(t.p, t.n);
	} else if ((n = size(v, CALL_CHANGES)) >= 0) {
		count_of(out, n, "file changed", "files changed");
		return;
	}
	buf_free(&t);
	buf_addf(out, "+%lld " GLYPH_MINUS "%lld", (long long)a, (long long)b);
}

static void
success_write(struct call_facts *v, struct buf *out)
{
	int64_t a;
	struct buf t = {0};

	if (num(v, CALL_LINES_ADDED, &a))
		buf_addf(out, "+%lld", (long long)a);
	else if (str(v, CALL_WRITTEN, &t))
		buf_addf(out, "+%lld", (long long)text_lines(t.p, t.n));
	else if (fact_true(call_fact(v, CALL_CREATED)))
		buf_adds(out, "new file");
	else
		buf_adds(out, "written");
	buf_free(&t);
}

static void
success_grep(struct call_facts *v, struct buf *out)
{
	int64_t a, n;

	if (num(v, CALL_MATCH_COUNT, &a)) {
		count_of(out, a, "match", "matches");
		if (num(v, CALL_MATCH_FILES, &n))
			buf_addf(out, " in %lld file%s", (long long)n, n == 1 ? "" : "s");
	} else if (num(v, CALL_FILE_COUNT, &a)) {
		count_of(out, a, "file", "files");
	} else if (!text_first_line(v, out)) {
		buf_adds(out, "ok");
	}
}

static void
success_glob(struct call_facts *v, struct buf *out)
{
	int64_t a;

	if (num(v, CALL_FILE_COUNT, &a) || (a = size(v, CALL_FILES)) >= 0)
		count_of(out, a, "file", "files");
	else
		buf_adds(out, "ok");
}

static void
success_ls(struct call_facts *v, struct buf *out)
{
	int64_t a;

	if (num(v, CALL_ENTRIES, &a))
		buf_addf(out, "%lld entries", (long long)a);
	else
		buf_adds(out, "ok");
}

static void
success_todos(struct call_facts *v, struct buf *out)
{
	static const char *const states[] = {
		[TODO_PENDING] = "pending",
		[TODO_ACTIVE] = "in progress",
		[TODO_DONE] = "done",
		[TODO_CANCELLED] = "cancelled",
	};
	const struct factval *t = call_fact(v, CALL_TODOS);
	struct elem_facts e;
	int total, done = 0, k;
	int64_t st;

	/* One task: how it is after the call, "new" when it made it. */
	if (num(v, CALL_TODO_STATE, &st)) {
		buf_adds(out, st == TODO_MADE                             ? "new"
			      : st >= 0 && (size_t)st < ARRAY_LEN(states) ? states[st]
									  : "gone");
		return;
	}
	if (!fact_array(t)) {
		buf_adds(out, "updated");
		return;
	}
	total = json_size(t->j, t->t);
	k = t->t + 1;
	for (int i = 0; i < total; i++, k = json_next(t->j, k))
		done += call_elem(v, FL_TODOS, t->j, k, &e) &&
			fact_int(elem_fact(&e, EL_STATE), &st) && st == TODO_DONE;
	buf_addf(out, "%d/%d done", done, total);
}

static void
success_mcp(struct call_facts *v, struct buf *out)
{
	buf_adds(out, fact_true(call_fact(v, CALL_IS_ERROR)) ? "error" : "ok");
}

static void
success_task(struct call_facts *v, struct buf *out)
{
	int n = size(v, CALL_STEPS);

	if (n >= 0)
		count_of(out, n, "step", "steps");
	else
		buf_adds(out, "done");
}

static void
success_await(struct call_facts *v, struct buf *out)
{
	int64_t a;

	if (num(v, CALL_EXIT, &a))
		buf_addf(out, "exit %lld", (long long)a);
	else
		buf_adds(out, "done");
}

static void
success_websearch(struct call_facts *v, struct buf *out)
{
	int n = size(v, CALL_RESULTS);

	if (n >= 0)
		count_of(out, n, "result", "results");
	else
		buf_adds(out, "done");
}

/* How a call that did not succeed reads: its exit code or message. */
static void
describe_failure(struct call_facts *v, const char *none, struct buf *out)
{
	int64_t code;

	if (num(v, CALL_EXIT, &code))
		buf_addf(out, "exit %lld", (long long)code);
	else if (!str(v, CALL_ERROR, out) && !text_first_line(v, out))
		buf_adds(out, none);
}

/* What a running call's latest progress says: " · Bash · 1 tool use". */
static void
progress(struct model *m, uint32_t c, struct buf *out)
{
	uint32_t e = model_call_progress(m, c);
	size_t mark = out->n;

	if (e == NONE)
		return;
	buf_adds(out, " " GLYPH_DOT " ");
	model_notice_text(m, e, out);
	if (out->n == mark + strlen(" " GLYPH_DOT " "))
		buf_cut(out, mark);
}

/* A call gone to the background: "background #339917" while it runs,
 * then how its notification says it ended. */
static void
describe_background(struct model *m, uint32_t c, struct call_facts *v, enum call_state st,
		    struct buf *out)
{
	size_t mark = out->n;

	/* A sub-agent's answer says how it ended. */
	if (st != CS_RUNNING && st != CS_ORPHANED && m->call[c].kind == TK_TASK &&
	    model_task_answer(m, c, out))
		return;
	buf_adds(out, "background #");
	if (!fact_value(call_fact(v, CALL_BG_ID), out))
		buf_cut(out, mark + 10);
	if (st == CS_RUNNING)
		progress(m, c, out);
	if (st == CS_ORPHANED) {
		buf_adds(out, ", its end not seen");
	} else if (st != CS_RUNNING) {
		mark = out->n;
		buf_adds(out, ": ");
		if (!model_task_status(m, c, out)) {
			buf_cut(out, mark);
			buf_adds(out, st == CS_OK ? ", done" : ", failed");
		}
	}
}

static void
describe_outcome(struct model *m, uint32_t c, const struct kind *k, struct call_facts *v,
		 struct buf *out)
{
	size_t before;
	enum call_state st = model_call_state(m, c);

	if ((m->call[c].flags & CF_BACKGROUND) && m->call[c].result == CR_SUCCESS &&
	    model_seen(m, m->call[c].done_ev)) {
		describe_background(m, c, v, st, out);
		return;
	}
	switch (st) {
	case CS_RUNNING:
		buf_adds(out, "running");
		progress(m, c, out);
		return;
	case CS_ORPHANED:
		buf_adds(out, "no completed event");
		return;
	case CS_OK:
		if (k->success != NULL)
			k->success(v, out);
		else
			buf_adds(out, k->ok != NULL ? k->ok : "ok");
		return;
	case CS_FAILED:
		describe_failure(v, "failed", out);
		return;
	case CS_REJECTED:
		buf_adds(out, "rejected");
		before = out->n;
		buf_adds(out, ": ");
		if (!str(v, CALL_REASON, out))
			buf_cut(out, before);
		return;
	default:
		break;
	}
	if (m->call[c].result == CR_ERROR)
		describe_failure(v, "error", out);
	else if (m->call[c].result != CR_OTHER || !fact_value(call_fact(v, CALL_VARIANT), out))
		buf_adds(out, "no result");
}

/* Fold runs of white space from offset `from` on into single spaces, so a
 * multi-line reason or message reads as one line. */
static void
fold_space(struct buf *b, size_t from)
{
	size_t w = from;
	bool space = false;

	for (size_t r = from; r < b->n; r++) {
		char c = b->p[r];

		if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
			space = w > from;
			continue;
		}
		if (space)
			b->p[w++] = ' ';
		space = false;
		b->p[w++] = c;
	}
	b->n = w;
	if (b->cap > 0)
		b->p[w] = '\0';
}

void
tool_describe_view(struct model *m, uint32_t c, struct call_facts *v, struct tool_desc *d)
{
	const struct kind *k = kind_row((enum tool_kind)m->call[c].kind);

	buf_reset(&d->key);
	buf_reset(&d->label);
	buf_reset(&d->what);
	buf_reset(&d->outcome);
	fact_value(call_fact(v, CALL_NAME), &d->key);
	/* Only a kind nobody knew is called by its name. */
	if (k == &kinds[TK_OTHER] && !fact_str(call_fact(v, CALL_LABEL), &d->label) && d->key.n > 0)
		buf_add(&d->label, d->key.p, d->key.n);
	describe_what(k, v, &d->what);
	describe_outcome(m, c, k, v, &d->outcome);
	fold_space(&d->outcome, 0);
}

void
tool_describe(struct model *m, uint32_t c, struct tool_desc *d)
{
	struct call_facts v;

	tool_load(m, c, m->qjson, m->qjson2, &v);
	tool_describe_view(m, c, &v, d);
}

void
tool_desc_free(struct tool_desc *d)
{
	buf_free(&d->key);
	buf_free(&d->label);
	buf_free(&d->what);
	buf_free(&d->outcome);
}

void
tool_code_span(struct buf *out, const char *s, size_t n)
{
	size_t run = 0, longest = 0;

	for (size_t i = 0; i < n; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		longest = MAX(longest, run);
	}
	for (size_t i = 0; i <= longest; i++)
		buf_addc(out, '`');
	if (longest > 0 || (n > 0 && s[0] == '`'))
		buf_addc(out, ' ');
	buf_add(out, s, n);
	if (longest > 0 || (n > 0 && s[n - 1] == '`'))
		buf_addc(out, ' ');
	for (size_t i = 0; i <= longest; i++)
		buf_addc(out, '`');
}

bool
tool_kind_is_path(enum tool_kind k)
{
	return (kind_row(k)->flags & TKF_PATH) != 0;
}

void
tool_what(enum tool_kind k, const struct tool_desc *d, const char *cwd, size_t cwdn, size_t cells,
	  struct buf *out)
{
	struct buf rel = {0};

	if (!(kind_row(k)->flags & TKF_PATH) || d->what.n == 0) {
		buf_add(out, d->what.p, d->what.n);
		return;
	}
	text_path_relative(&rel, d->what.p, d->what.n, cwd, cwd != NULL ? cwdn : 0);
	if (cells > 0)
		text_path_fit(out, rel.p, rel.n, cells);
	else
		buf_add(out, rel.p, rel.n);
	buf_free(&rel);
}

void
tool_line_at(enum tool_kind k, const struct tool_desc *d, const char *cwd, size_t cwdn,
	     size_t cells, struct buf *out)
{
	unsigned flags = kind_row(k)->flags;

	tool_label(k, d->label.p, d->label.n, out);
	if (d->what.n > 0) {
		buf_addc(out, ' ');
		if (flags & TKF_CODE)
			tool_code_span(out, d->what.p, d->what.n);
		else
			tool_what(k, d, cwd, cwdn, cells, out);
	}
	if (d->outcome.n == 0)
		return;
	if (flags & TKF_ARROW)
		buf_adds(out, " " GLYPH_ARROW " ");
	else if ((flags & TKF_ADDED) && d->outcome.p[0] == '+')
		buf_addc(out, ' ');
	else
		buf_adds(out, " " GLYPH_DOT " ");
	buf_add(out, d->outcome.p, d->outcome.n);
}

void
tool_line(enum tool_kind k, const struct tool_desc *d, struct buf *out)
{
	tool_line_at(k, d, NULL, 0, 0, out);
}

const char *
tool_state_glyph(int state)
{
	static const char *const glyphs[CS_NSTATES] = {
		[CS_RUNNING] = GLYPH_RUNNING,   [CS_OK] = GLYPH_OK, [CS_FAILED] = GLYPH_FAILED,
		[CS_REJECTED] = GLYPH_REJECTED, [CS_ERROR] = "!",   [CS_ORPHANED] = "?",
	};

	return (unsigned)state < CS_NSTATES ? glyphs[state] : "?";
}
