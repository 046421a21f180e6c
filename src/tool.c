/* tool.c: tool kinds and the one-line account of a tool call. */
#include "tool.h"

#include <string.h>

#include "model.h"

static const struct {
	const char *key;
	const char *name;
	const char *label;
} kinds[TK_NKINDS] = {
	[TK_SHELL] = {"shellToolCall", "shell", "Shell"},
	[TK_READ] = {"readToolCall", "read", "Read"},
	[TK_EDIT] = {"editToolCall", "edit", "Edit"},
	[TK_WRITE] = {"writeToolCall", "write", "Write"},
	[TK_GREP] = {"grepToolCall", "grep", "Grep"},
	[TK_DELETE] = {"deleteToolCall", "delete", "Delete"},
	[TK_GLOB] = {"globToolCall", "glob", "Glob"},
	[TK_LS] = {"lsToolCall", "ls", "List"},
	[TK_TODOS] = {"updateTodosToolCall", "todos", "Todos"},
	[TK_MCP] = {"mcpToolCall", "mcp", "MCP"},
	[TK_MCP_TOOLS] = {"getMcpToolsToolCall", "mcp_tools", "Schema"},
	[TK_TASK] = {"taskToolCall", "task", "Task"},
	[TK_AWAIT] = {"awaitToolCall", "await", "Await"},
	[TK_SEMSEARCH] = {"semSearchToolCall", "semsearch", "Search"},
	[TK_WEBFETCH] = {"webFetchToolCall", "webfetch", "Fetch"},
	[TK_LINTS] = {"readLintsToolCall", "lints", "Lints"},
	[TK_OTHER] = {NULL, "other", "Tool"},
};

enum tool_kind
tool_kind_of(const char *key, size_t n)
{
	for (int k = 0; k < TK_OTHER; k++)
		if (strlen(kinds[k].key) == n && memcmp(kinds[k].key, key, n) == 0)
			return (enum tool_kind)k;
	return TK_OTHER;
}

const char *
tool_kind_name(enum tool_kind k)
{
	return kinds[(unsigned)k < TK_NKINDS ? k : TK_OTHER].name;
}

const char *
tool_kind_label(enum tool_kind k)
{
	return kinds[(unsigned)k < TK_NKINDS ? k : TK_OTHER].label;
}

const char *
tool_kind_key(enum tool_kind k)
{
	return kinds[(unsigned)k < TK_NKINDS ? k : TK_OTHER].key;
}

/* Both events of a call, parsed, with their kind objects. */
struct callview {
	const struct json *j;  /* the document args come from */
	int args;        /* args object, or -1 */
	const struct json *rj; /* the completed event */
	int res;         /* the result variant's value, or -1 */
	int resobj;      /* the result object, or -1 */
};

/* The value of obj's key ending in "ToolCall", with its key token. */
static int
kind_object(const struct json *j, int *key)
{
	int tc = json_get(j, 0, "tool_call"), n, k;

	if (tc < 0 || json_type(j, tc) != JSON_OBJECT)
		return -1;
	n = json_size(j, tc);
	k = tc + 1;
	for (int i = 0; i < n; i++) {
		if (json_type(j, k + 1) == JSON_OBJECT &&
		    json_strsuffix(j, k, "ToolCall")) {
			*key = k;
			return k + 1;
		}
		k = json_next(j, k + 1);
	}
	return -1;
}

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

/* The target of a call of unknown kind: its first string argument. */
static void
what_generic(const struct json *j, int args, struct buf *out)
{
	int n, k;

	if (j == NULL || args < 0 || json_type(j, args) != JSON_OBJECT)
		return;
	n = json_size(j, args);
	k = args + 1;
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
describe_what(enum tool_kind kind, const struct callview *v, struct buf *out)
{
	const struct json *j = v->j;
	int a = v->args;
	int64_t n;

	switch (kind) {
	case TK_SHELL:
		if (!str_at(j, a, "command", out))
			str_at(v->rj, v->res, "command", out);
		break;
	case TK_READ:
	case TK_EDIT:
	case TK_WRITE:
	case TK_DELETE:
	case TK_LS:
		if (!str_at(j, a, "path", out))
			str_at(v->rj, v->res, "path", out);
		break;
	case TK_GREP:
		if (!str_at(j, a, "pattern", out))
			str_at(v->rj, v->res, "pattern", out);
		break;
	case TK_GLOB:
		if (!str_at(j, a, "globPattern", out))
			str_at(v->rj, v->res, "pattern", out);
		break;
	case TK_TODOS:
		if ((n = size_at(j, a, "todos")) >= 0)
			buf_addf(out, "%d todo%s", (int)n, n == 1 ? "" : "s");
		break;
	case TK_MCP:
		if (!str_at(j, a, "name", out))
			str_at(j, a, "toolName", out);
		break;
	case TK_MCP_TOOLS:
		if (str_at(j, a, "server", out))
			buf_addc(out, ' ');
		str_at(j, a, "toolName", out);
		break;
	case TK_TASK:
		str_at(j, a, "description", out);
		break;
	case TK_AWAIT:
		str_at(j, a, "taskId", out);
		break;
	case TK_SEMSEARCH:
		str_at(j, a, "query", out);
		break;
	case TK_WEBFETCH:
		str_at(j, a, "url", out);
		break;
	default:
		what_generic(j, a, out);
		break;
	}
}

/* How a successful call ended, per kind. */
static void
describe_success(enum tool_kind kind, const struct callview *v,
		 struct buf *out)
{
	const struct json *j = v->rj;
	int r = v->res;
	int64_t a = 0, b = 0;
	int n;

	switch (kind) {
	case TK_SHELL:
		if (json_int_at(j, r, "exitCode", &a))
			buf_addf(out, "exit %lld", (long long)a);
		else if (json_int_at(j, r, "pid", &a))
			buf_addf(out, "background, pid %lld", (long long)a);
		else
			buf_adds(out, "ok");
		break;
	case TK_READ:
		if (json_int_at(j, r, "totalLines", &a))
			buf_addf(out, "%lld line%s", (long long)a,
				 a == 1 ? "" : "s");
		else
			buf_adds(out, "read");
		break;
	case TK_EDIT:
		json_int_at(j, r, "linesAdded", &a);
		json_int_at(j, r, "linesRemoved", &b);
		buf_addf(out, "+%lld \xE2\x88\x92%lld", (long long)a,
			 (long long)b);
		break;
	case TK_WRITE:
		if (json_int_at(j, r, "linesCreated", &a))
			buf_addf(out, "+%lld", (long long)a);
		else
			buf_adds(out, "written");
		break;
	case TK_GREP:
		n = -1;
		if (j != NULL && r >= 0) {
			int wr = json_get(j, r, "workspaceResults");

			if (wr >= 0 && json_type(j, wr) == JSON_OBJECT &&
			    json_size(j, wr) > 0) {
				n = size_at(j, wr + 2, "content.matches");
				json_int_at(j, wr + 2, "content.totalMatchedLines",
				       &a);
			}
		}
		buf_addf(out, "%lld match%s", (long long)a, a == 1 ? "" : "es");
		if (n >= 0)
			buf_addf(out, " in %d file%s", n, n == 1 ? "" : "s");
		break;
	case TK_DELETE:
		buf_adds(out, "deleted");
		break;
	case TK_GLOB:
		if (json_int_at(j, r, "totalFiles", &a) ||
		    (a = size_at(j, r, "files")) >= 0)
			buf_addf(out, "%lld file%s", (long long)a,
				 a == 1 ? "" : "s");
		else
			buf_adds(out, "ok");
		break;
	case TK_LS:
		a = size_at(j, r, "directoryTreeRoot.childrenFiles");
		b = size_at(j, r, "directoryTreeRoot.childrenDirs");
		buf_addf(out, "%lld entries", (long long)(MAX(a, 0) + MAX(b, 0)));
		break;
	case TK_TODOS: {
		int t = j != NULL && r >= 0 ? json_get(j, r, "todos") : -1;
		int total = 0, done = 0;

		if (t >= 0 && json_type(j, t) == JSON_ARRAY) {
			int e = t + 1;

			total = json_size(j, t);
			for (int i = 0; i < total; i++) {
				int st = json_type(j, e) == JSON_OBJECT
						 ? json_get(j, e, "status")
						 : -1;

				if (st >= 0 &&
				    json_strsuffix(j, st, "COMPLETED"))
					done++;
				e = json_next(j, e);
			}
			buf_addf(out, "%d/%d done", done, total);
		} else {
			buf_adds(out, "updated");
		}
		break;
	}
	case TK_MCP: {
		bool err = false;
		int t = j != NULL && r >= 0 ? json_get(j, r, "isError") : -1;

		buf_adds(out, t >= 0 && json_bool(j, t, &err) && err ? "error"
								       : "ok");
		break;
	}
	case TK_TASK:
		if ((n = size_at(j, r, "conversationSteps")) >= 0)
			buf_addf(out, "%d step%s", n, n == 1 ? "" : "s");
		else
			buf_adds(out, "done");
		break;
	case TK_AWAIT:
		if (json_int_at(j, r, "complete.exitCode", &a))
			buf_addf(out, "exit %lld", (long long)a);
		else
			buf_adds(out, "done");
		break;
	default:
		buf_adds(out, "ok");
		break;
	}
}

static void
describe_outcome(struct model *m, uint32_t c, enum tool_kind kind,
		 const struct callview *v, struct buf *out)
{
	const struct call *call = &m->call[c];
	int64_t code;

	switch (model_call_state(m, c)) {
	case CS_RUNNING:
		buf_adds(out, "running");
		return;
	case CS_ORPHANED:
		buf_adds(out, "no completed event");
		return;
	case CS_OK:
		describe_success(kind, v, out);
		return;
	case CS_FAILED:
		if (json_int_at(v->rj, v->res, "exitCode", &code))
			buf_addf(out, "exit %lld", (long long)code);
		else if (!str_at(v->rj, v->res, "errorMessage", out) &&
			 !str_at(v->rj, v->res, "message", out))
			buf_adds(out, "failed");
		return;
	case CS_REJECTED:
		buf_adds(out, "rejected");
		{
			size_t before = out->n;

			buf_adds(out, ": ");
			if (!str_at(v->rj, v->res, "reason", out))
				out->n = before, out->p[before] = '\0';
		}
		return;
	default:
		break;
	}
	if (call->result == CR_ERROR) {
		if (!str_at(v->rj, v->res, "errorMessage", out) &&
		    !str_at(v->rj, v->res, "message", out))
			buf_adds(out, "error");
	} else if (call->result == CR_OTHER && v->rj != NULL &&
		   v->resobj >= 0) {
		json_decode(v->rj, v->resobj + 1, out);
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
tool_describe(struct model *m, uint32_t c, struct tool_desc *d)
{
	const struct call *call = &m->call[c];
	struct callview v = {NULL, -1, NULL, -1, -1};
	const struct json *sj = NULL, *dj = NULL;
	int skey = -1, dkey = -1, sobj = -1, dobj = -1;
	bool have_start = false, have_done = false;
	enum tool_kind kind = (enum tool_kind)call->kind;

	buf_reset(&d->key);
	buf_reset(&d->what);
	buf_reset(&d->outcome);
	if (call->start_ev != NONE &&
	    (sj = model_parsed(m, call->start_ev, m->qjson)) != NULL)
		have_start = (sobj = kind_object(sj, &skey)) >= 0;
	/* In a replay, a completion past the cut-off has not happened yet. */
	if (model_seen(m, call->done_ev) &&
	    (dj = model_parsed(m, call->done_ev, m->qjson2)) != NULL)
		have_done = (dobj = kind_object(dj, &dkey)) >= 0;
	if (have_done) {
		v.rj = dj;
		v.resobj = json_get(v.rj, dobj, "result");
		if (v.resobj >= 0 && json_type(v.rj, v.resobj) == JSON_OBJECT &&
		    json_size(v.rj, v.resobj) > 0 &&
		    json_type(v.rj, v.resobj + 2) == JSON_OBJECT)
			v.res = v.resobj + 2;
		else if (v.resobj >= 0 && json_type(v.rj, v.resobj) != JSON_OBJECT)
			v.resobj = -1;
		json_decode(v.rj, dkey, &d->key);
	}
	if (have_start && (!have_done || json_get(dj, dobj, "args") < 0)) {
		v.j = sj;
		v.args = json_get(v.j, sobj, "args");
		buf_reset(&d->key);
		json_decode(v.j, skey, &d->key);
	} else if (have_done) {
		v.j = dj;
		v.args = json_get(v.j, dobj, "args");
	}
	describe_what(kind, &v, &d->what);
	describe_outcome(m, c, kind, &v, &d->outcome);
	fold_space(&d->outcome, 0);
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
	if (k == TK_OTHER && d->key.n > 0) {
		size_t n = d->key.n;

		/* An unknown kind is named by its key: "frobnicate". */
		if (n > 8 && memcmp(d->key.p + n - 8, "ToolCall", 8) == 0)
			n -= 8;
		buf_add(out, d->key.p, n);
	} else {
		buf_adds(out, tool_kind_label(k));
	}
	if (d->what.n > 0) {
		buf_addc(out, ' ');
		if (k == TK_SHELL)
			tool_code_span(out, d->what.p, d->what.n);
		else
			buf_add(out, d->what.p, d->what.n);
	}
	if (d->outcome.n == 0)
		return;
	if (k == TK_SHELL || k == TK_AWAIT)
		buf_adds(out, " \xE2\x86\x92 "); /* → */
	else if ((k == TK_EDIT || k == TK_WRITE) && d->outcome.p[0] == '+')
		buf_addc(out, ' ');
	else
		buf_adds(out, " \xC2\xB7 "); /* · */
	buf_add(out, d->outcome.p, d->outcome.n);
}

const char *
tool_state_glyph(int state)
{
	static const char *const glyphs[CS_NSTATES] = {
		[CS_RUNNING] = "\xE2\x80\xA6",  /* … */
		[CS_OK] = "\xE2\x9C\x93",       /* ✓ */
		[CS_FAILED] = "\xE2\x9C\x97",   /* ✗ */
		[CS_REJECTED] = "\xE2\x8A\x98", /* ⊘ */
		[CS_ERROR] = "!",
		[CS_ORPHANED] = "?",
	};

	return (unsigned)state < CS_NSTATES ? glyphs[state] : "?";
}
