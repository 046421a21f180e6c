/* tool.c: the table of tool kinds, a call's pieces, and its one-line
 * account. */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "detail.h"
#include "glyph.h"
#include "model.h"
#include "text.h"

/* How a kind's line reads (the flags of a row). */
enum {
	TKF_CODE = 1,     /* the target is code: shown as a code span */
	TKF_ARROW = 2,    /* the outcome is what it gave: " → exit 1" */
	TKF_ADDED = 4,    /* an outcome of added lines follows with a space:
			     "+3 −1", not " · +3 −1" */
	TKF_REJECTED = 8, /* the detail builder also draws a rejected call */
	TKF_PATH = 16,    /* the target is a file's path: shown relative to
			     the session's cwd, cut in the middle */
};

/* Appends a call's target or outcome, read from its view. */
typedef void tool_words_fn(const struct callview *v, struct buf *out);

/* A kind: how it reads (each adapter says which of its tools are of
 * which kind: agent.h, struct agent_tool). Field names are paths
 * under the arguments (what) or the result (what_res), several ways of
 * spelling one thing separated by '|' (agents name them their own way). */
struct kind {
	const char *name;       /* "shell": the JSON summary, the filters */
	const char *label;      /* "Shell": the transcript */
	const char *tag;        /* at most 7 cells, for the timeline; NULL:
				   the label */
	const char *what;       /* argument fields holding the target; NULL
				   and no what_fn: the first string argument */
	const char *what_res;   /* the result's, when the arguments are not
				   there */
	tool_words_fn *what_fn; /* a target that is not one field */
	tool_words_fn *success; /* how a success reads; NULL: `ok` */
	const char *ok;         /* or these words; NULL: "ok" */
	tool_detail_fn *detail; /* its detail's rows; NULL: as JSON */
	unsigned flags;         /* TKF_* */
};

static tool_words_fn what_shell, what_edit, what_todos, what_mcp, what_mcp_tools, what_question;
static tool_words_fn success_shell, success_read, success_edit, success_write, success_grep,
	success_glob, success_ls, success_todos, success_mcp, success_task, success_await,
	success_websearch;

/* clang-format off */
static const struct kind kinds[TK_NKINDS] = {
	[TK_SHELL] = {.name = "shell", .label = "Shell",
		      .what_fn = what_shell, .success = success_shell,
		      .detail = detail_shell,
		      .flags = TKF_CODE | TKF_ARROW | TKF_REJECTED},
	[TK_READ] = {.name = "read", .label = "Read",
		     .what = "path|file_path|absolute_path", .what_res = "path",
		     .success = success_read, .detail = detail_read,
		     .flags = TKF_PATH},
	[TK_EDIT] = {.name = "edit", .label = "Edit",
		     .what_fn = what_edit, .success = success_edit,
		     .detail = detail_edit, .flags = TKF_PATH | TKF_ADDED},
	[TK_WRITE] = {.name = "write", .label = "Write",
		      .what = "path|file_path", .what_res = "path",
		      .success = success_write, .detail = detail_write,
		      .flags = TKF_PATH | TKF_ADDED},
	[TK_GREP] = {.name = "grep", .label = "Grep",
		     .what = "pattern", .what_res = "pattern",
		     .success = success_grep, .detail = detail_grep},
	[TK_DELETE] = {.name = "delete", .label = "Delete", .what = "path",
		       .what_res = "path", .ok = "deleted",
		       .detail = detail_delete, .flags = TKF_PATH},
	[TK_GLOB] = {.name = "glob", .label = "Glob",
		     .what = "globPattern|pattern", .what_res = "pattern",
		     .success = success_glob,
		     .detail = detail_glob},
	[TK_LS] = {.name = "ls", .label = "List",
		   .what = "path|dir_path", .what_res = "path",
		   .success = success_ls, .flags = TKF_PATH},
	[TK_TODOS] = {.name = "todos", .label = "Todos",
		      .what_fn = what_todos, .success = success_todos,
		      .detail = detail_todos},
	[TK_MCP] = {.name = "mcp", .label = "MCP",
		    .what_fn = what_mcp, .success = success_mcp,
		    .detail = detail_mcp},
	[TK_MCP_TOOLS] = {.name = "mcp_tools", .label = "Schema",
			  .what_fn = what_mcp_tools,
			  .detail = detail_mcp_tools},
	[TK_TASK] = {.name = "task", .label = "Task",
		     .what = "description|agent_name|tool",
		     .success = success_task, .detail = detail_task},
	[TK_AWAIT] = {.name = "await", .label = "Await",
		      .what = "taskId|bash_id", .success = success_await,
		      .flags = TKF_ARROW},
	[TK_SEMSEARCH] = {.name = "semsearch", .label = "Search", .what = "query"},
	[TK_WEBFETCH] = {.name = "webfetch", .label = "Fetch",
			 .what = "url|prompt",
			 .detail = detail_webfetch, .flags = TKF_REJECTED},
	[TK_WEBSEARCH] = {.name = "websearch", .label = "Web search",
			  .tag = "Web",
			  .what = "searchTerm|query",
			  .success = success_websearch,
			  .detail = detail_websearch, .flags = TKF_REJECTED},
	[TK_QUESTION] = {.name = "question", .label = "Question", .tag = "Ask",
			 .what_fn = what_question,
			 .detail = detail_question, .flags = TKF_REJECTED},
	[TK_LINTS] = {.name = "lints", .label = "Lints"},
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

tool_detail_fn *
tool_kind_detail(enum tool_kind k)
{
	return kind_row(k)->detail;
}

/* A call's kind in words: known's (the label or the tag), else the
 * agent's name for it without Cursor's "ToolCall". */
static void
kind_words(enum tool_kind k, const char *known, const char *name, size_t n, struct buf *out)
{
	if (k != TK_OTHER || n == 0) {
		buf_adds(out, known);
		return;
	}
	if (n > 8 && memcmp(name + n - 8, "ToolCall", 8) == 0)
		n -= 8;
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

/* --- a call's pieces ------------------------------------------------------ */

int
tool_object(const struct json *j, int tc, int *name)
{
	int n, k;

	if (tc < 0)
		tc = json_get(j, 0, "tool_call");
	if (json_type(j, tc) != JSON_OBJECT)
		return -1;
	n = json_size(j, tc);
	k = tc + 1;
	for (int i = 0; i < n; i++) {
		if (json_type(j, k + 1) == JSON_OBJECT && json_strsuffix(j, k, "ToolCall")) {
			*name = k;
			return k + 1;
		}
		k = json_next(j, k + 1);
	}
	/* The shape one consumer claims (src/FORMAT.md §3):
	 * "tool_call":{"tool":{"case":"readToolCall","value":{…}}}. */
	k = json_get(j, tc, "tool");
	if (json_type(j, json_get(j, k, "case")) == JSON_STRING &&
	    json_type(j, json_get(j, k, "value")) == JSON_OBJECT) {
		*name = json_get(j, k, "case");
		return json_get(j, k, "value");
	}
	return -1;
}

void
tool_load(struct model *m, uint32_t c, struct json *sj, struct json *dj, struct callview *v)
{
	const struct call *call = &m->call[c];
	const struct json *s = NULL, *d = NULL;

	memset(v, 0, sizeof *v);
	v->args = v->holder = v->name = v->result = v->var = v->varkey = -1;
	v->id = v->text = -1;
	v->agent = m->ses[call->session].agent;
	if (call->start_ev != NONE)
		s = model_parsed(m, call->start_ev, sj);
	/* In a replay, a completion past the cut-off has not happened yet. */
	if (model_seen(m, call->done_ev))
		d = model_parsed(m, call->done_ev, dj);
	agent_get(v->agent)->load(m, c, s, d, v);
}

/* --- the words of a call -------------------------------------------------- */

/* Append the string at path (paths separated by '|') under obj; false
 * when absent or empty. */
static bool
str_at(const struct json *j, int obj, const char *path, struct buf *out)
{
	int t;
	size_t before = out->n;

	if (obj < 0)
		return false;
	t = json_path_typed(j, obj, path, JSON_STRING);
	if (t < 0)
		return false;
	json_decode(j, t, out);
	return out->n > before;
}

/* Members of the array (or object) at path under obj, or -1. */
static int
size_at(const struct json *j, int obj, const char *path)
{
	int t = obj < 0 ? -1 : json_path_any(j, obj, path);

	if (json_type(j, t) != JSON_ARRAY && json_type(j, t) != JSON_OBJECT)
		return -1;
	return json_size(j, t);
}

/* An integer at path under obj (paths separated by '|'). */
static bool
int_at(const struct json *j, int obj, const char *path, int64_t *out)
{
	return obj >= 0 && json_int(j, json_path_any(j, obj, path), out);
}

/* "1 line", "2 lines". */
static void
count_of(struct buf *out, int64_t n, const char *one, const char *many)
{
	buf_addf(out, "%lld %s", (long long)n, n == 1 ? one : many);
}

bool
tool_text(const struct callview *v, struct buf *out)
{
	const struct json *j = v->tj;
	size_t before = out->n;
	int t = v->text, n;

	if (json_type(j, t) == JSON_STRING) {
		json_decode(j, t, out);
	} else if (json_type(j, t) == JSON_ARRAY) {
		n = json_size(j, t);
		t++;
		for (int i = 0; i < n; i++, t = json_next(j, t))
			str_at(j, t, "text", out);
	}
	return out->n > before;
}

/* The first line of the result text that says something, as an outcome;
 * false when there is none. */
static bool
text_first_line(const struct callview *v, struct buf *out)
{
	struct buf t = {0};
	size_t i = 0, e;

	tool_text(v, &t);
	while (i < t.n && (t.p[i] == '\n' || t.p[i] == ' ' || t.p[i] == '\t'))
		i++;
	for (e = i; e < t.n && t.p[e] != '\n'; e++)
		;
	if (e > i) /* t.p is NULL when there is no text */
		buf_add(out, t.p + i, e - i);
	buf_free(&t);
	return e > i;
}

/* The target of a call of unknown kind: its first string argument. */
static void
what_generic(const struct callview *v, struct buf *out)
{
	const struct json *j = v->aj;
	int n, k;

	if (json_type(j, v->args) != JSON_OBJECT)
		return;
	n = json_size(j, v->args);
	k = v->args + 1;
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

/* A command, without the `/bin/bash -lc '…'` around it that Codex shows
 * (the detail keeps it whole). */
static void
what_shell(const struct callview *v, struct buf *out)
{
	static const char *const wraps[] = {"/bin/bash -lc '", "bash -lc '", "/bin/sh -c '",
					    "sh -c '"};
	size_t from = out->n, n;

	if (!str_at(v->aj, v->args, "command|cmd", out) && !str_at(v->rj, v->var, "command", out))
		return;
	n = out->n - from;
	if (v->agent != AGENT_CODEX || n < 2 || out->p[out->n - 1] != '\'')
		return;
	for (size_t i = 0; i < ARRAY_LEN(wraps); i++) {
		size_t w = strlen(wraps[i]);
		char *in = out->p + from + w;

		if (n > w && memcmp(out->p + from, wraps[i], w) == 0 &&
		    memchr(in, '\'', n - w - 1) == NULL) {
			memmove(out->p + from, in, n - w - 1);
			out->n = from + n - w - 1;
			out->p[out->n] = '\0';
			return;
		}
	}
}

static void
what_edit(const struct callview *v, struct buf *out)
{
	int n;

	if (str_at(v->aj, v->args, "path|file_path|notebook_path", out) ||
	    str_at(v->rj, v->var, "path", out))
		return;
	/* Codex: the files it changed. */
	n = size_at(v->aj, v->args, "changes");
	if (n > 0 && json_type(v->aj, json_get(v->aj, v->args, "changes") + 1) == JSON_OBJECT &&
	    str_at(v->aj, json_get(v->aj, v->args, "changes") + 1, "path", out) && n > 1)
		buf_addf(out, " and %d more", n - 1);
}

static void
what_todos(const struct callview *v, struct buf *out)
{
	int n = size_at(v->aj, v->args, "todos|items");

	if (n >= 0)
		count_of(out, n, "todo", "todos");
}

static void
what_mcp(const struct callview *v, struct buf *out)
{
	const char *name;
	size_t n;

	if (str_at(v->aj, v->args, "name|toolName", out))
		return;
	if (str_at(v->aj, v->args, "server", out)) { /* Codex */
		buf_addc(out, '/');
		str_at(v->aj, v->args, "tool", out);
		return;
	}
	/* Claude Code: mcp__server__tool. */
	name = json_raw(v->nj, v->name, &n);
	if (n > 5 && memcmp(name, "mcp__", 5) == 0) {
		const char *sep = NULL;

		for (size_t i = 5; i + 1 < n && sep == NULL; i++)
			if (name[i] == '_' && name[i + 1] == '_')
				sep = name + i;
		if (sep == NULL) {
			buf_add(out, name + 5, n - 5);
			return;
		}
		buf_add(out, name + 5, (size_t)(sep - name) - 5);
		buf_addc(out, '/');
		buf_add(out, sep + 2, n - (size_t)(sep + 2 - name));
	}
}

static void
what_mcp_tools(const struct callview *v, struct buf *out)
{
	if (str_at(v->aj, v->args, "server", out))
		buf_addc(out, ' ');
	str_at(v->aj, v->args, "toolName", out);
}

/* A question: its title (or first question) in quotes, and the first
 * question's options: "Which file?" (a.txt / b.txt). */
static void
what_question(const struct callview *v, struct buf *out)
{
	const struct json *j = v->aj;
	int qs = json_path_any(j, v->args, "questions"), q, opts, o;

	buf_addc(out, '"');
	q = json_type(j, qs) == JSON_ARRAY && json_size(j, qs) > 0 ? qs + 1 : -1;
	if (!str_at(j, v->args, "title", out))
		str_at(j, q, "prompt|question", out);
	buf_addc(out, '"');
	opts = json_path_any(j, q, "options");
	if (json_type(j, opts) != JSON_ARRAY || json_size(j, opts) == 0)
		return;
	buf_adds(out, " (");
	o = opts + 1;
	for (int i = 0; i < json_size(j, opts); i++, o = json_next(j, o)) {
		if (i > 0)
			buf_adds(out, " / ");
		if (!str_at(j, o, "label", out) && json_type(j, o) == JSON_STRING)
			json_decode(j, o, out);
	}
	buf_addc(out, ')');
}

/* The call's target, as its kind's row says where to find it. */
static void
describe_what(const struct kind *k, const struct callview *v, struct buf *out)
{
	if (k->what_fn != NULL)
		k->what_fn(v, out);
	else if (k->what == NULL)
		what_generic(v, out);
	else if (!str_at(v->aj, v->args, k->what, out) && k->what_res != NULL)
		str_at(v->rj, v->var, k->what_res, out);
}

static void
success_shell(const struct callview *v, struct buf *out)
{
	int64_t a;

	if (int_at(v->rj, v->var, "exitCode|exit_code", &a))
		buf_addf(out, "exit %lld", (long long)a);
	else if (int_at(v->rj, v->var, "pid", &a))
		buf_addf(out, "background, pid %lld", (long long)a);
	else if (!text_first_line(v, out))
		buf_adds(out, "ok");
}

void
tool_big_read(const struct callview *v, struct buf *out)
{
	int64_t size, lines;
	bool n = false;

	buf_adds(out, "content not in the stream");
	if (int_at(v->rj, v->var, "fileSize", &size) && size >= 0) {
		buf_adds(out, " (");
		fmt_bytes(out, (uint64_t)size);
		n = true;
	}
	if (int_at(v->rj, v->var, "totalLines", &lines)) {
		buf_adds(out, n ? ", " : " (");
		count_of(out, lines, "line", "lines");
		n = true;
	}
	if (n)
		buf_addc(out, ')');
}

static void
success_read(const struct callview *v, struct buf *out)
{
	int64_t a;

	/* A big file's text is left out of the stream (src/FORMAT.md §3):
	 * never read as an empty file. */
	if (json_get(v->rj, v->var, "contentBlobId") >= 0 && json_get(v->rj, v->var, "content") < 0)
		tool_big_read(v, out);
	else if (int_at(v->rj, v->var, "totalLines|file.totalLines|file.numLines", &a))
		count_of(out, a, "line", "lines");
	else
		buf_adds(out, "read");
}

/* Lines added and removed by the hunks of a structured patch (Claude
 * Code's: [{lines: ["-old", "+new", " same"]}]). */
static bool
patch_counts(const struct json *j, int patch, int64_t *add, int64_t *del)
{
	int h = patch + 1;

	if (json_type(j, patch) != JSON_ARRAY)
		return false;
	for (int i = 0; i < json_size(j, patch); i++, h = json_next(j, h)) {
		int ls = json_get(j, h, "lines"), l = ls + 1;

		for (int k = 0; k < json_size(j, ls); k++, l = json_next(j, l)) {
			size_t n;
			const char *p = json_raw(j, l, &n);

			if (json_type(j, l) != JSON_STRING || n == 0)
				continue;
			*add += p[0] == '+';
			*del += p[0] == '-';
		}
	}
	return true;
}

static void
success_edit(const struct callview *v, struct buf *out)
{
	int64_t a = 0, b = 0;
	int n;
	struct buf t = {0};

	if (patch_counts(v->rj, json_get(v->rj, v->var, "structuredPatch"), &a, &b)) {
		/* as counted */
	} else if (str_at(v->aj, v->args, "new_string", &t)) {
		a = text_lines(t.p, t.n);
		buf_reset(&t);
		if (str_at(v->aj, v->args, "old_string", &t))
			b = text_lines(t.p, t.n);
	} else if ((n = size_at(v->aj, v->args, "changes")) >= 0) {
		count_of(out, n, "file changed", "files changed");
		buf_free(&t);
		return;
	} else {
		json_int_at(v->rj, v->var, "linesAdded", &a);
		json_int_at(v->rj, v->var, "linesRemoved", &b);
	}
	buf_free(&t);
	buf_addf(out, "+%lld " GLYPH_MINUS "%lld", (long long)a, (long long)b);
}

static void
success_write(const struct callview *v, struct buf *out)
{
	int64_t a;
	struct buf t = {0};

	if (json_int_at(v->rj, v->var, "linesCreated", &a))
		buf_addf(out, "+%lld", (long long)a);
	else if (str_at(v->aj, v->args, "content", &t))
		buf_addf(out, "+%lld", (long long)text_lines(t.p, t.n));
	else
		buf_adds(out, "written");
	buf_free(&t);
}

static void
success_grep(const struct callview *v, struct buf *out)
{
	const struct json *j = v->rj;
	int wr = json_get(j, v->var, "workspaceResults");
	int n = -1;
	int64_t a = 0;

	if (json_type(j, wr) == JSON_OBJECT && json_size(j, wr) > 0) {
		n = size_at(j, wr + 2, "content.matches");
		json_int_at(j, wr + 2, "content.totalMatchedLines", &a);
	} else if (v->agent != AGENT_CURSOR) {
		if (int_at(j, v->var, "numFiles", &a))
			count_of(out, a, "file", "files");
		else if (!text_first_line(v, out))
			buf_adds(out, "ok");
		return;
	}
	count_of(out, a, "match", "matches");
	if (n >= 0)
		buf_addf(out, " in %d file%s", n, n == 1 ? "" : "s");
}

static void
success_glob(const struct callview *v, struct buf *out)
{
	int64_t a;

	if (int_at(v->rj, v->var, "totalFiles|numFiles", &a) ||
	    (a = size_at(v->rj, v->var, "files|filenames")) >= 0)
		count_of(out, a, "file", "files");
	else
		buf_adds(out, "ok");
}

static void
success_ls(const struct callview *v, struct buf *out)
{
	int64_t a = size_at(v->rj, v->var, "directoryTreeRoot.childrenFiles");
	int64_t b = size_at(v->rj, v->var, "directoryTreeRoot.childrenDirs");

	if (v->agent != AGENT_CURSOR && a < 0 && b < 0)
		buf_adds(out, "ok");
	else
		buf_addf(out, "%lld entries", (long long)(MAX(a, 0) + MAX(b, 0)));
}

/* Whether todo t is done, as agents say it: "TODO_STATUS_COMPLETED",
 * "completed", or completed: true. */
static bool
todo_done(const struct json *j, int t)
{
	bool done = false;
	int st = json_get(j, t, "status");

	if (json_strsuffix(j, st, "COMPLETED") || json_streq(j, st, "completed"))
		return true;
	return json_bool(j, json_get(j, t, "completed"), &done) && done;
}

static void
success_todos(const struct callview *v, struct buf *out)
{
	const struct json *j = v->rj;
	int t = json_path_any(j, v->var, "todos|newTodos|items");
	int total, done = 0, e;

	if (json_type(j, t) != JSON_ARRAY) {
		buf_adds(out, "updated");
		return;
	}
	total = json_size(j, t);
	e = t + 1;
	for (int i = 0; i < total; i++, e = json_next(j, e))
		done += json_type(j, e) == JSON_OBJECT && todo_done(j, e);
	buf_addf(out, "%d/%d done", done, total);
}

static void
success_mcp(const struct callview *v, struct buf *out)
{
	bool err = false;

	buf_adds(out, json_bool(v->rj, json_get(v->rj, v->var, "isError"), &err) && err ? "error"
											: "ok");
}

static void
success_task(const struct callview *v, struct buf *out)
{
	int n = size_at(v->rj, v->var, "conversationSteps");

	if (n >= 0)
		count_of(out, n, "step", "steps");
	else
		buf_adds(out, "done");
}

static void
success_await(const struct callview *v, struct buf *out)
{
	int64_t a;

	if (json_int_at(v->rj, v->var, "complete.exitCode", &a))
		buf_addf(out, "exit %lld", (long long)a);
	else
		buf_adds(out, "done");
}

static void
success_websearch(const struct callview *v, struct buf *out)
{
	int n = size_at(v->rj, v->var, "references|results");

	if (n >= 0)
		count_of(out, n, "result", "results");
	else
		buf_adds(out, "done");
}

/* "Exit code 2" at the start of a result text (Claude Code's failed
 * Bash): the code. */
static bool
text_exit_code(const struct callview *v, int64_t *code)
{
	struct buf t = {0};
	bool ok = false;

	if (tool_text(v, &t) && t.n > 10 && memcmp(t.p, "Exit code ", 10) == 0) {
		char *end;

		*code = strtoll(t.p + 10, &end, 10);
		ok = end > t.p + 10;
	}
	buf_free(&t);
	return ok;
}

/* How a call that did not succeed reads: its exit code or message. */
static void
describe_failure(const struct callview *v, const char *none, struct buf *out)
{
	int64_t code;

	if (int_at(v->rj, v->var, "exitCode|exit_code", &code) || text_exit_code(v, &code))
		buf_addf(out, "exit %lld", (long long)code);
	else if (!str_at(v->rj, v->var,
			 "errorMessage|message|error|error.message|"
			 "modelVisibleError",
			 out) &&
		 !text_first_line(v, out))
		buf_adds(out, none);
}

/* A call gone to the background: "background #339917" while it runs,
 * then how its notification says it ended. */
static void
describe_background(struct model *m, uint32_t c, const struct callview *v, enum call_state st,
		    struct buf *out)
{
	const struct call *call = &m->call[c];
	int t = json_path_any(v->rj, v->var, "shellId|agentId");

	buf_adds(out, "background");
	if (json_is_value(v->rj, t)) {
		buf_adds(out, " #");
		json_decode(v->rj, t, out);
	}
	if (st == CS_ORPHANED) {
		buf_adds(out, ", its end not seen");
	} else if (st != CS_RUNNING) {
		size_t mark = out->n;

		buf_adds(out, ": ");
		if (!model_event_field(m, call->bg_ev, "status", out)) {
			buf_cut(out, mark);
			buf_adds(out, st == CS_OK ? ", done" : ", failed");
		}
	}
}

static void
describe_outcome(struct model *m, uint32_t c, const struct kind *k, const struct callview *v,
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
		if (!str_at(v->rj, v->var, "reason", out))
			buf_cut(out, before);
		return;
	default:
		break;
	}
	if (m->call[c].result == CR_ERROR)
		describe_failure(v, "error", out);
	else if (m->call[c].result == CR_OTHER && v->varkey >= 0)
		json_decode(v->rj, v->varkey, out);
	else
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
tool_describe_view(struct model *m, uint32_t c, const struct callview *v, struct tool_desc *d)
{
	const struct kind *k = kind_row((enum tool_kind)m->call[c].kind);

	buf_reset(&d->key);
	buf_reset(&d->what);
	buf_reset(&d->outcome);
	if (v->name >= 0)
		json_decode(v->nj, v->name, &d->key);
	describe_what(k, v, &d->what);
	describe_outcome(m, c, k, v, &d->outcome);
	fold_space(&d->outcome, 0);
}

void
tool_describe(struct model *m, uint32_t c, struct tool_desc *d)
{
	struct callview v;

	tool_load(m, c, m->qjson, m->qjson2, &v);
	tool_describe_view(m, c, &v, d);
}

void
tool_desc_free(struct tool_desc *d)
{
	buf_free(&d->key);
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

	tool_label(k, d->key.p, d->key.n, out);
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

bool
tool_detail_rejected(enum tool_kind k)
{
	return (kind_row(k)->flags & TKF_REJECTED) != 0;
}
