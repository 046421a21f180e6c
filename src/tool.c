/* tool.c: the table of tool kinds, a call's pieces, and its one-line
 * account. */
#include "tool.h"

#include <string.h>

#include "agent.h"
#include "detail.h"
#include "glyph.h"
#include "model.h"

/* How a kind's line reads (the flags of a row). */
enum {
	TKF_CODE = 1,     /* the target is code: shown as a code span */
	TKF_ARROW = 2,    /* the outcome is what it gave: " → exit 1" */
	TKF_ADDED = 4,    /* an outcome of added lines follows with a space:
			     "+3 −1", not " · +3 −1" */
	TKF_REJECTED = 8, /* the detail builder also draws a rejected call */
};

/* Appends a call's target or outcome, read from its view. */
typedef void tool_words_fn(const struct callview *v, struct buf *out);

/* A kind: what agents call it, and how it reads. */
struct kind {
	const char *name;      /* "shell": the JSON summary, the filters */
	const char *label;     /* "Shell": the transcript, the timeline */
	const char *names[4];  /* the agents' names for it */
	const char *what[2];   /* argument fields holding the target, the
				  first one present wins; none and no
				  what_fn: the first string argument */
	const char *what_res;  /* the result's field for it, when the
				  arguments are not there */
	tool_words_fn *what_fn; /* a target that is not one field */
	tool_words_fn *success; /* how a success reads; NULL: `ok` */
	const char *ok;        /* or these words; NULL: "ok" */
	tool_detail_fn *detail; /* its detail's rows; NULL: as JSON */
	unsigned flags;        /* TKF_* */
};

static tool_words_fn what_todos, what_mcp_tools;
static tool_words_fn success_shell, success_read, success_edit,
	success_write, success_grep, success_glob, success_ls, success_todos,
	success_mcp, success_task, success_await;

static const struct kind kinds[TK_NKINDS] = {
	[TK_SHELL] = {"shell", "Shell", {"shellToolCall"}, {"command"},
		      "command", NULL, success_shell, NULL, detail_shell,
		      TKF_CODE | TKF_ARROW | TKF_REJECTED},
	[TK_READ] = {"read", "Read", {"readToolCall"}, {"path"}, "path", NULL,
		     success_read, NULL, detail_read, 0},
	[TK_EDIT] = {"edit", "Edit", {"editToolCall"}, {"path"}, "path", NULL,
		     success_edit, NULL, detail_edit, TKF_ADDED},
	[TK_WRITE] = {"write", "Write", {"writeToolCall"}, {"path"}, "path",
		      NULL, success_write, NULL, detail_write, TKF_ADDED},
	[TK_GREP] = {"grep", "Grep", {"grepToolCall"}, {"pattern"}, "pattern",
		     NULL, success_grep, NULL, detail_grep, 0},
	[TK_DELETE] = {"delete", "Delete", {"deleteToolCall"}, {"path"},
		       "path", NULL, NULL, "deleted", detail_delete, 0},
	[TK_GLOB] = {"glob", "Glob", {"globToolCall"}, {"globPattern"},
		     "pattern", NULL, success_glob, NULL, NULL, 0},
	[TK_LS] = {"ls", "List", {"lsToolCall"}, {"path"}, "path", NULL,
		   success_ls, NULL, NULL, 0},
	[TK_TODOS] = {"todos", "Todos", {"updateTodosToolCall"}, {NULL}, NULL,
		      what_todos, success_todos, NULL, detail_todos, 0},
	[TK_MCP] = {"mcp", "MCP", {"mcpToolCall"}, {"name", "toolName"}, NULL,
		    NULL, success_mcp, NULL, detail_mcp, 0},
	[TK_MCP_TOOLS] = {"mcp_tools", "Schema", {"getMcpToolsToolCall"},
			  {NULL}, NULL, what_mcp_tools, NULL, NULL,
			  detail_mcp_tools, 0},
	[TK_TASK] = {"task", "Task", {"taskToolCall"}, {"description"}, NULL,
		     NULL, success_task, NULL, detail_task, 0},
	[TK_AWAIT] = {"await", "Await", {"awaitToolCall"}, {"taskId"}, NULL,
		      NULL, success_await, NULL, NULL, TKF_ARROW},
	[TK_SEMSEARCH] = {"semsearch", "Search", {"semSearchToolCall"},
			  {"query"}, NULL, NULL, NULL, NULL, NULL, 0},
	[TK_WEBFETCH] = {"webfetch", "Fetch", {"webFetchToolCall"}, {"url"},
			 NULL, NULL, NULL, NULL, NULL, 0},
	[TK_LINTS] = {"lints", "Lints", {"readLintsToolCall"}, {NULL}, NULL,
		      NULL, NULL, NULL, NULL, 0},
	[TK_OTHER] = {"other", "Tool", {NULL}, {NULL}, NULL, NULL, NULL, NULL,
		      NULL, 0},
};

static const struct kind *
kind_row(enum tool_kind k)
{
	return &kinds[(unsigned)k < TK_NKINDS ? k : TK_OTHER];
}

enum tool_kind
tool_kind_of(const char *name, size_t n)
{
	for (int k = 0; k < TK_OTHER; k++)
		for (size_t i = 0; i < ARRAY_LEN(kinds[k].names); i++) {
			const char *s = kinds[k].names[i];

			if (s != NULL && strlen(s) == n && memcmp(s, name, n) == 0)
				return (enum tool_kind)k;
		}
	return TK_OTHER;
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

tool_detail_fn *
tool_kind_detail(enum tool_kind k)
{
	return kind_row(k)->detail;
}

void
tool_label(enum tool_kind k, const char *name, size_t n, struct buf *out)
{
	if (k != TK_OTHER || n == 0) {
		buf_adds(out, tool_kind_label(k));
		return;
	}
	if (n > 8 && memcmp(name + n - 8, "ToolCall", 8) == 0)
		n -= 8;
	buf_add(out, name, n);
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
		if (json_type(j, k + 1) == JSON_OBJECT &&
		    json_strsuffix(j, k, "ToolCall")) {
			*name = k;
			return k + 1;
		}
		k = json_next(j, k + 1);
	}
	return -1;
}

void
tool_load(struct model *m, uint32_t c, struct json *sj, struct json *dj,
	  struct callview *v)
{
	const struct call *call = &m->call[c];
	const struct json *s = NULL, *d = NULL;

	memset(v, 0, sizeof *v);
	v->args = v->holder = v->name = v->result = v->var = v->varkey = -1;
	v->id = -1;
	if (call->start_ev != NONE)
		s = model_parsed(m, call->start_ev, sj);
	/* In a replay, a completion past the cut-off has not happened yet. */
	if (model_seen(m, call->done_ev))
		d = model_parsed(m, call->done_ev, dj);
	agent_get(m->ses[call->session].agent)->load(m, c, s, d, v);
}

/* --- the words of a call -------------------------------------------------- */

/* Append the string at path under obj; false when absent or empty. */
static bool
str_at(const struct json *j, int obj, const char *path, struct buf *out)
{
	int t;
	size_t before = out->n;

	if (j == NULL || obj < 0)
		return false;
	t = json_path(j, obj, path);
	if (t < 0 || json_type(j, t) != JSON_STRING)
		return false;
	json_decode(j, t, out);
	return out->n > before;
}

/* Members of the array (or object) at path under obj, or -1. */
static int
size_at(const struct json *j, int obj, const char *path)
{
	int t;

	if (j == NULL || obj < 0)
		return -1;
	t = json_path(j, obj, path);
	if (t < 0 || (json_type(j, t) != JSON_ARRAY &&
		      json_type(j, t) != JSON_OBJECT))
		return -1;
	return json_size(j, t);
}

/* "1 line", "2 lines". */
static void
count_of(struct buf *out, int64_t n, const char *one, const char *many)
{
	buf_addf(out, "%lld %s", (long long)n, n == 1 ? one : many);
}

/* The target of a call of unknown kind: its first string argument. */
static void
what_generic(const struct callview *v, struct buf *out)
{
	const struct json *j = v->aj;
	int n, k;

	if (j == NULL || json_type(j, v->args) != JSON_OBJECT)
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

static void
what_todos(const struct callview *v, struct buf *out)
{
	int n = size_at(v->aj, v->args, "todos");

	if (n >= 0)
		count_of(out, n, "todo", "todos");
}

static void
what_mcp_tools(const struct callview *v, struct buf *out)
{
	if (str_at(v->aj, v->args, "server", out))
		buf_addc(out, ' ');
	str_at(v->aj, v->args, "toolName", out);
}

/* The call's target, as its kind's row says where to find it. */
static void
describe_what(const struct kind *k, const struct callview *v,
	      struct buf *out)
{
	if (k->what_fn != NULL) {
		k->what_fn(v, out);
		return;
	}
	if (k->what[0] == NULL) {
		what_generic(v, out);
		return;
	}
	for (size_t i = 0; i < ARRAY_LEN(k->what) && k->what[i] != NULL; i++)
		if (str_at(v->aj, v->args, k->what[i], out))
			return;
	if (k->what_res != NULL)
		str_at(v->rj, v->var, k->what_res, out);
}

static void
success_shell(const struct callview *v, struct buf *out)
{
	int64_t a;

	if (json_int_at(v->rj, v->var, "exitCode", &a))
		buf_addf(out, "exit %lld", (long long)a);
	else if (json_int_at(v->rj, v->var, "pid", &a))
		buf_addf(out, "background, pid %lld", (long long)a);
	else
		buf_adds(out, "ok");
}

static void
success_read(const struct callview *v, struct buf *out)
{
	int64_t a;

	if (json_int_at(v->rj, v->var, "totalLines", &a))
		count_of(out, a, "line", "lines");
	else
		buf_adds(out, "read");
}

static void
success_edit(const struct callview *v, struct buf *out)
{
	int64_t a = 0, b = 0;

	json_int_at(v->rj, v->var, "linesAdded", &a);
	json_int_at(v->rj, v->var, "linesRemoved", &b);
	buf_addf(out, "+%lld " GLYPH_MINUS "%lld", (long long)a, (long long)b);
}

static void
success_write(const struct callview *v, struct buf *out)
{
	int64_t a;

	if (json_int_at(v->rj, v->var, "linesCreated", &a))
		buf_addf(out, "+%lld", (long long)a);
	else
		buf_adds(out, "written");
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
	}
	count_of(out, a, "match", "matches");
	if (n >= 0)
		buf_addf(out, " in %d file%s", n, n == 1 ? "" : "s");
}

static void
success_glob(const struct callview *v, struct buf *out)
{
	int64_t a;

	if (json_int_at(v->rj, v->var, "totalFiles", &a) ||
	    (a = size_at(v->rj, v->var, "files")) >= 0)
		count_of(out, a, "file", "files");
	else
		buf_adds(out, "ok");
}

static void
success_ls(const struct callview *v, struct buf *out)
{
	int64_t a = size_at(v->rj, v->var, "directoryTreeRoot.childrenFiles");
	int64_t b = size_at(v->rj, v->var, "directoryTreeRoot.childrenDirs");

	buf_addf(out, "%lld entries", (long long)(MAX(a, 0) + MAX(b, 0)));
}

static void
success_todos(const struct callview *v, struct buf *out)
{
	const struct json *j = v->rj;
	int t = json_get(j, v->var, "todos");
	int total, done = 0, e;

	if (json_type(j, t) != JSON_ARRAY) {
		buf_adds(out, "updated");
		return;
	}
	total = json_size(j, t);
	e = t + 1;
	for (int i = 0; i < total; i++, e = json_next(j, e)) {
		int st = json_type(j, e) == JSON_OBJECT ? json_get(j, e, "status")
							: -1;

		if (st >= 0 && json_strsuffix(j, st, "COMPLETED"))
			done++;
	}
	buf_addf(out, "%d/%d done", done, total);
}

static void
success_mcp(const struct callview *v, struct buf *out)
{
	bool err = false;
	int t = json_get(v->rj, v->var, "isError");

	buf_adds(out, t >= 0 && json_bool(v->rj, t, &err) && err ? "error"
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

/* How a call that did not succeed reads: its exit code or message. */
static void
describe_failure(const struct callview *v, const char *none,
		 struct buf *out)
{
	int64_t code;

	if (json_int_at(v->rj, v->var, "exitCode", &code))
		buf_addf(out, "exit %lld", (long long)code);
	else if (!str_at(v->rj, v->var, "errorMessage", out) &&
		 !str_at(v->rj, v->var, "message", out))
		buf_adds(out, none);
}

static void
describe_outcome(struct model *m, uint32_t c, const struct kind *k,
		 const struct callview *v, struct buf *out)
{
	size_t before;

	switch (model_call_state(m, c)) {
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
			out->n = before, out->p[before] = '\0';
		return;
	default:
		break;
	}
	if (m->call[c].result == CR_ERROR) {
		if (!str_at(v->rj, v->var, "errorMessage", out) &&
		    !str_at(v->rj, v->var, "message", out))
			buf_adds(out, "error");
	} else if (m->call[c].result == CR_OTHER && v->varkey >= 0) {
		json_decode(v->rj, v->varkey, out);
	} else {
		buf_adds(out, "no result");
	}
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
tool_describe_view(struct model *m, uint32_t c, const struct callview *v,
		   struct tool_desc *d)
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

void
tool_line(enum tool_kind k, const struct tool_desc *d, struct buf *out)
{
	unsigned flags = kind_row(k)->flags;

	tool_label(k, d->key.p, d->key.n, out);
	if (d->what.n > 0) {
		buf_addc(out, ' ');
		if (flags & TKF_CODE)
			tool_code_span(out, d->what.p, d->what.n);
		else
			buf_add(out, d->what.p, d->what.n);
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

const char *
tool_state_glyph(int state)
{
	static const char *const glyphs[CS_NSTATES] = {
		[CS_RUNNING] = GLYPH_RUNNING, [CS_OK] = GLYPH_OK,
		[CS_FAILED] = GLYPH_FAILED,   [CS_REJECTED] = GLYPH_REJECTED,
		[CS_ERROR] = "!",             [CS_ORPHANED] = "?",
	};

	return (unsigned)state < CS_NSTATES ? glyphs[state] : "?";
}

bool
tool_detail_rejected(enum tool_kind k)
{
	return (kind_row(k)->flags & TKF_REJECTED) != 0;
}
