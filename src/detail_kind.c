/* detail_kind.c: the builders of the kinds' details, named in tool.c's
 * table of kinds: each lays out what one kind of call holds. */
#include <stdio.h>
#include <string.h>

#include "detail_impl.h"
#include "diff.h"
#include "glyph.h"
#include "json.h"
#include "theme.h"

/* A shell: command, directory, exit code, timing, stdout and stderr. */
void
detail_shell(struct detail *d, const struct callview *v)
{
	const struct json *rj = v->rj;
	int r = v->var;
	bool any;

	if (!detail_field_at(d, "command", v->aj, v->args, "command"))
		detail_field_at(d, "command", rj, r, "command");
	if (!detail_field_at(d, "directory", v->aj, v->args, "workingDirectory"))
		detail_field_at(d, "directory", rj, r, "workingDirectory");
	if (!detail_field_at(d, "description", v->aj, v->holder, "description"))
		detail_field_at(d, "description", v->aj, v->args, "description");
	detail_field_prim(d, "exit code", rj, r, "exitCode", NULL);
	detail_field_at(d, "signal", rj, r, "signal");
	detail_field_prim(d, "aborted", rj, r, "aborted", NULL);
	detail_field_prim(d, "run time", rj, r, "executionTime", " ms");
	detail_field_prim(d, "local time", rj, r, "localExecutionTimeMs", " ms");
	detail_field_prim(d, "timeout", v->aj, v->args, "timeout", " ms");
	detail_field_prim(d, "background", v->aj, v->args, "isBackground", NULL);
	detail_field_at(d, "shell id", rj, r, "shellId");
	detail_field_prim(d, "pid", rj, r, "pid", NULL);
	detail_field_at(d, "why", rj, r, "backgroundReason");
	if (rj == NULL || r < 0)
		return;
	any = detail_section(d, "stdout", rj, r, "stdout", true);
	any |= detail_section(d, "stderr", rj, r, "stderr", true);
	/* The two streams together, when that is all there is. */
	if (!any)
		any = detail_section(d, "output", rj, r, "interleavedOutput", true);
	if (!any && !detail_variant(v, "rejected")) {
		detail_blank(d);
		detail_wrap(d, "(no output)", 11, ROLE_DIM, 0, NULL);
	}
}

/* A read: path, range and the content with its line numbers. */
void
detail_read(struct detail *d, const struct callview *v)
{
	const struct json *rj = v->rj;
	int r = v->var;
	int64_t first = 1, a, b;

	if (!detail_field_at(d, "path", v->aj, v->args, "path"))
		detail_field_at(d, "path", rj, r, "path");
	if (json_int_at(rj, r, "readRange.startLine", &a)) {
		first = a;
		if (json_int_at(rj, r, "readRange.endLine", &b))
			detail_fieldf(d, "lines", "%lld-%lld", (long long)a, (long long)b);
	} else if (json_int_at(v->aj, v->args, "offset", &a) && a > 0) {
		first = a;
	}
	detail_field_prim(d, "total lines", rj, r, "totalLines", NULL);
	detail_field_prim(d, "file size", rj, r, "fileSize", " bytes");
	detail_field_prim(d, "truncated", rj, r, "exceededLimit", NULL);
	if (detail_str(rj, r, "content", &d->b)) {
		detail_heading(d, "content");
		detail_numbered(d, d->b.p, d->b.n, first);
	}
}

/* old and new text as a diff under a heading. */
static void
diff_section(struct detail *d, const char *title, const char *a, size_t na,
	     const char *b, size_t nb)
{
	struct buf out = {0};

	detail_heading(d, title);
	if (diff_unified(a, na, b, nb, 3, &out) == 0)
		detail_wrap(d, "(no change)", 11, ROLE_DIM, 2, NULL);
	else
		detail_diff(d, out.p, out.n);
	buf_free(&out);
}

/* An edit: its diff, sent or computed, or a new file's content. */
void
detail_edit(struct detail *d, const struct callview *v)
{
	const struct json *rj = v->rj;
	int r = v->var;
	int64_t add, del;
	struct buf before = {0};

	if (!detail_field_at(d, "path", v->aj, v->args, "path"))
		detail_field_at(d, "path", rj, r, "path");
	if (json_int_at(rj, r, "linesAdded", &add) && json_int_at(rj, r, "linesRemoved", &del))
		detail_fieldf(d, "lines", "+%lld " GLYPH_MINUS "%lld", (long long)add,
		       (long long)del);
	detail_field_at(d, "message", rj, r, "message");
	if (detail_str(rj, r, "diffString", &d->b) && d->b.n > 0) {
		detail_heading(d, "diff");
		detail_diff(d, d->b.p, d->b.n);
	} else if (detail_str(rj, r, "beforeFullFileContent", &before) &&
		   detail_str(rj, r, "afterFullFileContent", &d->b)) {
		diff_section(d, "diff (computed from the file before and after)",
			     before.p, before.n, d->b.p, d->b.n);
	} else if (detail_str(rj, r, "afterFullFileContent", &d->b) ||
		   detail_str(v->aj, v->args, "streamContent", &d->b)) {
		detail_heading(d, "new content");
		detail_numbered(d, d->b.p, d->b.n, 1);
	} else if (detail_str(v->aj, v->args, "strReplace.oldText", &before) &&
		   detail_str(v->aj, v->args, "strReplace.newText", &d->b)) {
		diff_section(d, "replace", before.p, before.n, d->b.p, d->b.n);
	} else if (detail_str(v->aj, v->args, "applyPatch.patchContent", &d->b)) {
		detail_heading(d, "patch");
		detail_diff(d, d->b.p, d->b.n);
	} else if (v->args >= 0) {
		detail_heading(d, "arguments");
		detail_json(d, v->aj, v->args);
	}
	buf_free(&before);
}

/* A write (the old shape): the text written, numbered. */
void
detail_write(struct detail *d, const struct callview *v)
{
	if (!detail_field_at(d, "path", v->aj, v->args, "path"))
		detail_field_at(d, "path", v->rj, v->var, "path");
	detail_field_prim(d, "lines", v->rj, v->var, "linesCreated", NULL);
	detail_field_prim(d, "file size", v->rj, v->var, "fileSize", " bytes");
	if (detail_str(v->aj, v->args, "fileText", &d->b)) {
		detail_heading(d, "content");
		detail_numbered(d, d->b.p, d->b.n, 1);
	}
}

/* A delete: the path and what the file held. */
void
detail_delete(struct detail *d, const struct callview *v)
{
	if (!detail_field_at(d, "path", v->aj, v->args, "path"))
		detail_field_at(d, "path", v->rj, v->var, "path");
	detail_field_prim(d, "file size", v->rj, v->var, "fileSize", " bytes");
	if (detail_str(v->rj, v->var, "prevContent", &d->b)) {
		detail_heading(d, "content before");
		detail_numbered(d, d->b.p, d->b.n, 1);
	}
}

/* The matches of one file: "12: text" for a match, "13- text" for a line
 * of context, as grep prints them. */
static void
grep_file(struct detail *d, const struct json *j, int f)
{
	int ms = json_get(j, f, "matches"), e, n, digits = 1;
	int64_t no, maxno = 0;
	char lead[48];

	if (detail_str(j, f, "file", &d->b))
		detail_heading(d, d->b.p);
	if (ms < 0 || json_type(j, ms) != JSON_ARRAY)
		return;
	n = json_size(j, ms);
	for (int i = 0, t = ms + 1; i < n; i++, t = json_next(j, t))
		if (json_type(j, t) == JSON_OBJECT && json_int_at(j, t, "lineNumber", &no))
			maxno = MAX(maxno, no);
	for (; maxno >= 10; maxno /= 10)
		digits++;
	e = ms + 1;
	for (int i = 0; i < n && detail_room(d); i++, e = json_next(j, e)) {
		bool ctx = false;
		int c;

		if (json_type(j, e) != JSON_OBJECT)
			continue;
		if (!json_int_at(j, e, "lineNumber", &no))
			no = 0;
		c = json_get(j, e, "isContextLine");
		json_bool(j, c, &ctx);
		snprintf(lead, sizeof lead, "%*lld%c ", digits, (long long)no,
			 ctx ? '-' : ':');
		detail_str(j, e, "content", &d->a);
		detail_wrap(d, d->a.p ? d->a.p : "", d->a.n,
			    ctx ? ROLE_DIM : ROLE_NORMAL, 2, lead);
	}
}

/* Grep: the pattern, then the matches grouped by file. */
void
detail_grep(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj;
	int wr, n, k;

	if (!detail_field_at(d, "pattern", v->aj, v->args, "pattern"))
		detail_field_at(d, "pattern", j, v->var, "pattern");
	detail_field_at(d, "path", v->aj, v->args, "path");
	detail_field_at(d, "glob", v->aj, v->args, "glob");
	detail_field_prim(d, "ignore case", v->aj, v->args, "caseInsensitive", NULL);
	detail_field_at(d, "mode", j, v->var, "outputMode");
	if (j == NULL || v->var < 0)
		return;
	wr = json_get(j, v->var, "workspaceResults");
	if (wr < 0 || json_type(j, wr) != JSON_OBJECT) {
		detail_heading(d, "result");
		detail_json(d, j, v->result);
		return;
	}
	n = json_size(j, wr);
	k = wr + 1;
	for (int i = 0; i < n; i++, k = json_next(j, k + 1)) {
		int content = json_get(j, k + 1, "content"), ms, f;

		if (n > 1 || content < 0) {
			buf_reset(&d->b);
			json_decode(j, k, &d->b);
			detail_heading(d, "in");
			detail_field(d, "root", d->b.p, d->b.n, ROLE_NORMAL);
		}
		if (content < 0 || json_type(j, content) != JSON_OBJECT) {
			detail_json(d, j, k + 1);
			continue;
		}
		detail_field_prim(d, "matched", j, content, "totalMatchedLines", " lines");
		detail_field_prim(d, "truncated", j, content, "clientTruncated", NULL);
		ms = json_get(j, content, "matches");
		if (ms < 0 || json_type(j, ms) != JSON_ARRAY)
			continue;
		f = ms + 1;
		for (int m = 0; m < json_size(j, ms); m++, f = json_next(j, f))
			if (json_type(j, f) == JSON_OBJECT)
				grep_file(d, j, f);
	}
}

/* An MCP call: tool, server, arguments as JSON, the content texts. */
void
detail_mcp(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj;
	int a, content;

	detail_field_at(d, "tool", v->aj, v->args, "name");
	detail_field_at(d, "server", v->aj, v->args, "providerIdentifier");
	detail_field_at(d, "tool name", v->aj, v->args, "toolName");
	detail_field_at(d, "description", v->aj, v->holder, "description");
	detail_field_prim(d, "is error", j, v->var, "isError", NULL);
	if (v->aj != NULL && v->args >= 0 &&
	    (a = json_get(v->aj, v->args, "args")) >= 0) {
		detail_heading(d, "arguments");
		detail_json(d, v->aj, a);
	}
	if (j == NULL || v->var < 0)
		return;
	content = json_get(j, v->var, "content");
	if (content < 0 || json_type(j, content) != JSON_ARRAY)
		return;
	detail_heading(d, "content");
	for (int i = 0, e = content + 1; i < json_size(j, content);
	     i++, e = json_next(j, e)) {
		if (json_type(j, e) == JSON_OBJECT && detail_str(j, e, "text.text", &d->b))
			detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 2, NULL);
		else
			detail_json(d, j, e);
	}
}

/* getMcpTools: the tool's schema, indented. */
void
detail_mcp_tools(struct detail *d, const struct callview *v)
{
	detail_field_at(d, "server", v->aj, v->args, "server");
	detail_field_at(d, "tool name", v->aj, v->args, "toolName");
	if (!detail_str(v->rj, v->var, "content", &d->b))
		return;
	detail_heading(d, "schema");
	/* The schema comes as a string of JSON: shown indented when it is
	 * an object, as it is otherwise. */
	if (json_parse(d->xj, d->b.p, d->b.n) == JSON_OK) {
		detail_json(d, d->xj, 0);
	} else {
		buf_reset(&d->a);
		buf_add(&d->a, d->b.p, d->b.n);
		detail_wrap(d, d->a.p, d->a.n, ROLE_NORMAL, 2, NULL);
	}
}

/* A subagent: its prompt, then each of its steps. */
void
detail_task(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj;
	int steps;

	detail_field_at(d, "description", v->aj, v->args, "description");
	detail_field_at(d, "model", v->aj, v->args, "model");
	detail_field_at(d, "agent", v->aj, v->args, "agentId");
	detail_field_prim(d, "run time", j, v->var, "durationMs", " ms");
	detail_field_prim(d, "background", j, v->var, "isBackground", NULL);
	detail_section(d, "prompt", v->aj, v->args, "prompt", false);
	if (j == NULL || v->var < 0)
		return;
	steps = json_get(j, v->var, "conversationSteps");
	if (steps < 0 || json_type(j, steps) != JSON_ARRAY)
		return;
	for (int i = 0, e = steps + 1; i < json_size(j, steps);
	     i++, e = json_next(j, e)) {
		char title[32];

		snprintf(title, sizeof title, "step %d", i + 1);
		detail_heading(d, title);
		if (json_type(j, e) == JSON_OBJECT &&
		    detail_str(j, e, "assistantMessage.text", &d->b))
			detail_wrap(d, d->b.p, d->b.n, ROLE_ASSISTANT, 2, NULL);
		else
			detail_json(d, j, e);
	}
}

/* A todo's state as a glyph that reads without colour, and its role. */
static const char *
todo_glyph(const struct json *j, int st, enum role *role)
{
	*role = ROLE_NORMAL;
	if (json_strsuffix(j, st, "COMPLETED")) {
		*role = ROLE_TOOL_OK;
		return GLYPH_OK " ";
	}
	if (json_strsuffix(j, st, "IN_PROGRESS")) {
		*role = ROLE_RUNNING;
		return GLYPH_FOLDED " ";
	}
	if (json_strsuffix(j, st, "CANCELLED")) {
		*role = ROLE_DIM;
		return GLYPH_REJECTED " ";
	}
	return GLYPH_PENDING " "; /* or a state nobody documented */
}

/* Todos, each with a glyph for its state. */
void
detail_todos(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj;
	int t = j != NULL && v->var >= 0 ? json_get(j, v->var, "todos") : -1;

	/* What the call ended with, else what it asked for. */
	if (t < 0 || json_type(j, t) != JSON_ARRAY) {
		j = v->aj;
		t = j != NULL && v->args >= 0 ? json_get(j, v->args, "todos") : -1;
	}
	detail_field_prim(d, "merge", v->aj, v->args, "merge", NULL);
	if (t < 0 || json_type(j, t) != JSON_ARRAY)
		return;
	detail_heading(d, "todos");
	for (int i = 0, e = t + 1; i < json_size(j, t); i++, e = json_next(j, e)) {
		enum role role;
		const char *g;

		if (json_type(j, e) != JSON_OBJECT)
			continue;
		g = todo_glyph(j, json_get(j, e, "status"), &role);
		detail_str(j, e, "content", &d->b);
		detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, role, 2, g);
	}
}
