/* detail_kind.c: the builders of the kinds' details, each laying out what
 * one kind of call holds, the table that names each kind's, and a call's
 * detail built with its kind's (detail_build, at the end). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "detail_impl.h"
#include "diff.h"
#include "glyph.h"
#include "json.h"
#include "redact.h"
#include "theme.h"

/* --- helpers ------------------------------------------------------------ */

/* Room for element e of array (or object) `of` of j, and those after it;
 * once it is spent, their bytes, as the JSON has them, count as not
 * shown. */
static bool
room_for(struct detail *d, const struct json *j, int of, int e)
{
	size_t on, end, at = json_offset(j, e);

	json_raw(j, of, &on);
	end = json_offset(j, of) + on;
	return detail_room(d, at < end ? end - at : 0);
}

/* "Exit code N" at the start of the result text: the code (Claude Code's
 * failed Bash says it only there). */
static bool
text_exit_code(struct detail *d, const struct callview *v, int64_t *code)
{
	char *end;

	buf_reset(&d->a);
	if (!detail_tok(v->tj, v->text, &d->a) || d->a.n <= 10 ||
	    memcmp(d->a.p, "Exit code ", 10) != 0)
		return false;
	*code = strtoll(d->a.p + 10, &end, 10);
	return end > d->a.p + 10;
}

/* The strings of an array (or what names each of its objects: path,
 * name, file) under a heading, one a row: section `title` (a literal),
 * the names one a line; false when it has none. */
static bool
list_section(struct detail *d, const char *title, const struct json *j, int arr)
{
	int e = arr + 1;
	size_t row;
	struct buf text = {0};

	if (json_type(j, arr) != JSON_ARRAY || json_size(j, arr) == 0)
		return false;
	row = detail_heading(d, title);
	for (int i = 0; i < json_size(j, arr) && room_for(d, j, arr, e); i++, e = json_next(j, e)) {
		buf_reset(&d->b);
		if (detail_tok(j, e, &d->b) || detail_str(j, e, "path|name|file", &d->b)) {
			detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 2, NULL);
			buf_add(&text, d->b.p, d->b.n);
			buf_addc(&text, '\n');
		} else {
			detail_json(d, j, e);
		}
	}
	detail_take(d, title, row, text.p ? text.p : "", text.n);
	buf_free(&text);
	return true;
}

/* --- the kinds ------------------------------------------------------------ */

/* A shell: command, directory, exit code, timing, stdout and stderr (or
 * the two together, or what it gave as text). */
static void
detail_shell(struct detail *d, const struct callview *v)
{
	const struct json *rj = v->rj;
	int r = v->var;
	int64_t code;
	bool any;

	if (!detail_field_taken(d, "command", v->aj, v->args, "command|cmd"))
		detail_field_taken(d, "command", rj, r, "command");
	if (!detail_field_at(d, "directory", v->aj, v->args, "workingDirectory|dir_path|directory"))
		detail_field_at(d, "directory", rj, r, "workingDirectory");
	if (!detail_field_at(d, "description", v->aj, v->holder, "description"))
		detail_field_at(d, "description", v->aj, v->args, "description");
	if (!detail_field_prim(d, "exit code", rj, r, "exitCode|exit_code", NULL) &&
	    text_exit_code(d, v, &code))
		detail_fieldf(d, "exit code", "%lld", (long long)code);
	detail_field_at(d, "signal", rj, r, "signal");
	detail_field_prim(d, "aborted", rj, r, "aborted", NULL);
	detail_field_prim(d, "interrupted", rj, r, "interrupted", NULL);
	detail_field_prim(d, "run time", rj, r, "executionTime", " ms");
	detail_field_prim(d, "local time", rj, r, "localExecutionTimeMs", " ms");
	detail_field_prim(d, "timeout", v->aj, v->args, "timeout", " ms");
	detail_field_prim(d, "background", v->aj, v->args, "isBackground|run_in_background", NULL);
	detail_field_at(d, "shell id", rj, r, "shellId");
	detail_field_prim(d, "pid", rj, r, "pid", NULL);
	detail_field_at(d, "why", rj, r, "backgroundReason");
	if (rj == NULL || (r < 0 && v->text < 0))
		return;
	any = detail_section(d, "stdout", rj, r, "stdout", true);
	any |= detail_section(d, "stderr", rj, r, "stderr", true);
	/* The two streams together, when that is all there is. */
	if (!any)
		any = detail_section(d, "output", rj, r, "interleavedOutput", true);
	if (!any)
		any = detail_output(d, "output", v);
	if (!any && !detail_variant(v, "rejected")) {
		detail_blank(d);
		detail_wrap(d, "(no output)", 11, ROLE_DIM, 0, NULL);
	}
}

/* A read whose text is not in the stream (Cursor's big read: a
 * contentBlobId instead of content), said as its line says it. */
static void
read_elsewhere(struct detail *d, const struct callview *v)
{
	struct buf b = {0};

	tool_big_read(v, &b);
	detail_heading(d, "content");
	detail_wrap(d, b.p, b.n, ROLE_DIM, 2, NULL);
	buf_free(&b);
}

/* A read: path, range and the content with its line numbers (Claude
 * Code's under file; Gemini CLI's stream has only what it told the
 * model). */
static void
detail_read(struct detail *d, const struct callview *v)
{
	const struct json *rj = v->rj;
	int r = v->var;
	int64_t first = 1, a, b;

	if (!detail_field_taken(d, "path", v->aj, v->args, "path|file_path|absolute_path"))
		detail_field_taken(d, "path", rj, r, "path|file.filePath");
	if (json_int_at(rj, r, "readRange.startLine", &a)) {
		first = a;
		if (json_int_at(rj, r, "readRange.endLine", &b))
			detail_fieldf(d, "lines", "%lld-%lld", (long long)a, (long long)b);
	} else if (json_int_at(rj, r, "file.startLine", &a)) {
		first = a;
		if (json_int_at(rj, r, "file.numLines", &b) && b > 0 && a <= INT64_MAX - b)
			detail_fieldf(d, "lines", "%lld-%lld", (long long)a,
				      (long long)(a + b - 1));
	} else if (json_int_at(v->aj, v->args, "offset", &a) && a > 0) {
		first = a;
	}
	detail_field_prim(d, "total lines", rj, r, "totalLines|file.totalLines", NULL);
	detail_field_prim(d, "file size", rj, r, "fileSize", " bytes");
	detail_field_prim(d, "truncated", rj, r, "exceededLimit", NULL);
	if (detail_str(rj, r, "content|file.content", &d->b)) {
		detail_numbered_section(d, "content", d->b.p, d->b.n, first);
	} else if (json_get(rj, r, "contentBlobId") >= 0) {
		read_elsewhere(d, v);
	} else if (!detail_output(d, "output", v) && rj != NULL && v->agent != AGENT_CURSOR) {
		detail_heading(d, "content");
		detail_wrap(d, "(not in the stream)", 19, ROLE_DIM, 2, NULL);
	}
}

/* old and new text as a diff under a heading. */
static void
diff_section(struct detail *d, const char *title, const char *a, size_t na, const char *b,
	     size_t nb)
{
	struct buf out = {0};

	if (diff_unified(a, na, b, nb, 3, &out) == 0) {
		detail_heading(d, title);
		detail_wrap(d, "(no change)", 11, ROLE_DIM, 2, NULL);
	} else {
		detail_diff_section(d, title, "diff", out.p, out.n);
	}
	buf_free(&out);
}

/* Claude Code's structured patch (hunks {oldStart, oldLines, newStart,
 * newLines, lines: ["-old", "+new", " same"]}) as a unified diff into
 * out, counting the lines added and removed; false when it has no hunk. */
static bool
patch_text(const struct json *j, int patch, struct buf *out, int64_t *add, int64_t *del)
{
	int h = patch + 1;

	if (json_type(j, patch) != JSON_ARRAY || json_size(j, patch) == 0)
		return false;
	for (int i = 0; i < json_size(j, patch) && out->n < DETAIL_MAX_BYTES;
	     i++, h = json_next(j, h)) {
		int64_t at[4] = {0, 0, 0, 0};
		int ls = json_get(j, h, "lines"), l = ls + 1;
		size_t from;

		json_int_at(j, h, "oldStart", &at[0]);
		json_int_at(j, h, "oldLines", &at[1]);
		json_int_at(j, h, "newStart", &at[2]);
		json_int_at(j, h, "newLines", &at[3]);
		buf_addf(out, "@@ -%lld,%lld +%lld,%lld @@\n", (long long)at[0], (long long)at[1],
			 (long long)at[2], (long long)at[3]);
		for (int k = 0; k < json_size(j, ls) && out->n < DETAIL_MAX_BYTES;
		     k++, l = json_next(j, l)) {
			from = out->n;
			if (!detail_tok(j, l, out))
				continue;
			*add += out->n > from && out->p[from] == '+';
			*del += out->n > from && out->p[from] == '-';
			buf_addc(out, '\n');
		}
	}
	return true;
}

/* Codex's file_change: the files it changed and how (add, delete,
 * update); its stream holds no diff. False when there is no list. */
static bool
changes_section(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj != NULL ? v->rj : v->aj;
	int cs = json_get(j, v->rj != NULL ? v->var : v->args, "changes");
	int c = cs + 1;
	char lead[24];

	if (json_type(j, cs) != JSON_ARRAY || json_size(j, cs) == 0)
		return false;
	detail_heading(d, "changes");
	for (int i = 0; i < json_size(j, cs) && room_for(d, j, cs, c); i++, c = json_next(j, c)) {
		if (!detail_str(j, c, "kind", &d->a))
			buf_adds(&d->a, "?");
		snprintf(lead, sizeof lead, "%-7.16s ", d->a.p);
		detail_str(j, c, "path", &d->b);
		detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, ROLE_NORMAL, 2, lead);
	}
	detail_wrap(d, "(the stream holds no diff)", 26, ROLE_DIM, 2, NULL);
	return true;
}

/* Another agent's edit that sends no patch: the text it was asked to
 * replace and with what (one pair, or MultiEdit's edits), or Codex's
 * changed files. False when it is none of these. */
static bool
edit_asked(struct detail *d, const struct callview *v)
{
	const struct json *j = v->aj;
	int es = json_get(j, v->args, "edits"), e = es + 1;
	struct buf old = {0};
	bool pair, any = false;

	pair = detail_str(j, v->args, "old_string", &old) &&
	       detail_str(j, v->args, "new_string", &d->b);
	if (pair)
		diff_section(d, "replace", old.p, old.n, d->b.p, d->b.n);
	for (int i = 0; !pair && i < json_size(j, es) && room_for(d, j, es, e);
	     i++, e = json_next(j, e)) {
		char title[32];

		if (!detail_str(j, e, "old_string", &old) || !detail_str(j, e, "new_string", &d->b))
			continue;
		snprintf(title, sizeof title, "edit %d", i + 1);
		diff_section(d, title, old.p, old.n, d->b.p, d->b.n);
		any = true;
	}
	buf_free(&old);
	return pair || any || changes_section(d, v);
}

/* An edit: its diff, sent or computed, or a new file's content. */
static void
detail_edit(struct detail *d, const struct callview *v)
{
	const struct json *rj = v->rj;
	int r = v->var;
	int64_t add = 0, del = 0;
	struct buf before = {0}, patch = {0};
	bool hunks = patch_text(rj, json_get(rj, r, "structuredPatch"), &patch, &add, &del);

	if (!detail_field_taken(d, "path", v->aj, v->args, "path|file_path|notebook_path"))
		detail_field_taken(d, "path", rj, r, "path|filePath");
	if ((json_int_at(rj, r, "linesAdded", &add) && json_int_at(rj, r, "linesRemoved", &del)) ||
	    hunks)
		detail_fieldf(d, "lines", "+%lld " GLYPH_MINUS "%lld", (long long)add,
			      (long long)del);
	detail_field_at(d, "message", rj, r, "message");
	detail_field_at(d, "instruction", v->aj, v->args, "instruction");
	detail_field_prim(d, "replace all", v->aj, v->args, "replace_all", NULL);
	if (hunks) {
		detail_diff_section(d, "diff", "diff", patch.p, patch.n);
	} else if (detail_str(rj, r, "diffString", &d->b) && d->b.n > 0) {
		detail_diff_section(d, "diff", "diff", d->b.p, d->b.n);
	} else if (detail_str(rj, r, "beforeFullFileContent", &before) &&
		   detail_str(rj, r, "afterFullFileContent", &d->b)) {
		diff_section(d, "diff (computed from the file before and after)", before.p,
			     before.n, d->b.p, d->b.n);
	} else if (detail_str(rj, r, "afterFullFileContent", &d->b) ||
		   detail_str(v->aj, v->args, "streamContent", &d->b)) {
		detail_numbered_section(d, "new content", d->b.p, d->b.n, 1);
	} else if (detail_str(v->aj, v->args, "strReplace.oldText", &before) &&
		   detail_str(v->aj, v->args, "strReplace.newText", &d->b)) {
		diff_section(d, "replace", before.p, before.n, d->b.p, d->b.n);
	} else if (detail_str(v->aj, v->args, "applyPatch.patchContent", &d->b)) {
		detail_diff_section(d, "patch", "patch", d->b.p, d->b.n);
	} else if (!edit_asked(d, v) && v->args >= 0) {
		detail_json_section(d, "arguments", v->aj, v->args);
	}
	buf_free(&before);
	buf_free(&patch);
}

/* A write: the text written, numbered (Cursor's old shape, Claude Code's
 * and Gemini CLI's), or the diff of a file it wrote over (Claude Code). */
static void
detail_write(struct detail *d, const struct callview *v)
{
	int64_t add = 0, del = 0;
	struct buf patch = {0};

	if (!detail_field_taken(d, "path", v->aj, v->args, "path|file_path"))
		detail_field_taken(d, "path", v->rj, v->var, "path|filePath");
	detail_field_prim(d, "lines", v->rj, v->var, "linesCreated", NULL);
	detail_field_prim(d, "file size", v->rj, v->var, "fileSize", " bytes");
	if (patch_text(v->rj, json_get(v->rj, v->var, "structuredPatch"), &patch, &add, &del)) {
		detail_fieldf(d, "lines", "+%lld " GLYPH_MINUS "%lld", (long long)add,
			      (long long)del);
		detail_diff_section(d, "diff", "diff", patch.p, patch.n);
	} else if (detail_str(v->aj, v->args, "fileText|content", &d->b)) {
		detail_numbered_section(d, "content", d->b.p, d->b.n, 1);
	}
	buf_free(&patch);
}

/* A delete: the path and what the file held. */
static void
detail_delete(struct detail *d, const struct callview *v)
{
	if (!detail_field_taken(d, "path", v->aj, v->args, "path"))
		detail_field_taken(d, "path", v->rj, v->var, "path");
	detail_field_prim(d, "file size", v->rj, v->var, "fileSize", " bytes");
	if (detail_str(v->rj, v->var, "prevContent", &d->b))
		detail_numbered_section(d, "content before", d->b.p, d->b.n, 1);
}

/* The matches of one file: "12: text" for a match, "13- text" for a line
 * of context, as grep prints them. */
static void
grep_file(struct detail *d, const struct json *j, int f)
{
	int ms = json_get(j, f, "matches"), e, n, digits = 1;
	int64_t no, maxno = 0;
	char lead[48];
	size_t row = d->nrow;
	struct buf file = {0}, text = {0};
	struct dsection *sec;

	if (detail_str(j, f, "file", &file))
		row = detail_heading(d, file.p);
	if (ms < 0 || json_type(j, ms) != JSON_ARRAY) {
		buf_free(&file);
		return;
	}
	n = json_size(j, ms);
	for (int i = 0, t = ms + 1; i < n; i++, t = json_next(j, t))
		if (json_type(j, t) == JSON_OBJECT && json_int_at(j, t, "lineNumber", &no))
			maxno = MAX(maxno, no);
	for (; maxno >= 10; maxno /= 10)
		digits++;
	e = ms + 1;
	/* Past the room, each match is still counted as not shown. */
	for (int i = 0; i < n; i++, e = json_next(j, e)) {
		bool ctx = false;
		int c;

		if (json_type(j, e) != JSON_OBJECT)
			continue;
		if (!json_int_at(j, e, "lineNumber", &no))
			no = 0;
		c = json_get(j, e, "isContextLine");
		json_bool(j, c, &ctx);
		snprintf(lead, sizeof lead, "%*lld%c ", digits, (long long)no, ctx ? '-' : ':');
		detail_str(j, e, "content", &d->a);
		detail_wrap(d, d->a.p ? d->a.p : "", d->a.n, ctx ? ROLE_DIM : ROLE_NORMAL, 2, lead);
		buf_add(&text, d->a.p, d->a.n);
		buf_addc(&text, '\n');
	}
	/* The matches' lines, and the file they are in (for e). */
	sec = detail_take(d, "matches", row, text.p ? text.p : "", text.n);
	if (sec != NULL) {
		sec->numbered = true;
		sec->file_off = (uint32_t)d->taken.n;
		buf_add(&d->taken, file.p, file.n);
		sec->file_len = (uint32_t)file.n;
	}
	buf_free(&file);
	buf_free(&text);
}

/* Another agent's grep: how many files and lines, the matching lines as
 * text or the files that match (Claude Code), or what it gave (Gemini
 * CLI). */
static void
grep_other(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj;

	detail_field_prim(d, "files", j, v->var, "numFiles", NULL);
	detail_field_prim(d, "lines", j, v->var, "numLines", NULL);
	detail_field_prim(d, "matches", j, v->var, "numMatches", NULL);
	if (!detail_section(d, "matches", j, v->var, "content", true) &&
	    !list_section(d, "files", j, json_get(j, v->var, "filenames")))
		detail_output(d, "output", v);
}

/* Grep: the pattern, then the matches grouped by file. */
static void
detail_grep(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj;
	int wr, n, k;

	if (!detail_field_taken(d, "pattern", v->aj, v->args, "pattern"))
		detail_field_taken(d, "pattern", j, v->var, "pattern");
	detail_field_at(d, "path", v->aj, v->args, "path|dir_path");
	detail_field_at(d, "glob", v->aj, v->args, "glob|include");
	detail_field_prim(d, "ignore case", v->aj, v->args, "caseInsensitive|-i", NULL);
	if (!detail_field_at(d, "mode", j, v->var, "outputMode|mode"))
		detail_field_at(d, "mode", v->aj, v->args, "output_mode");
	if (j == NULL || (v->var < 0 && v->text < 0))
		return;
	wr = json_get(j, v->var, "workspaceResults");
	if ((wr < 0 || json_type(j, wr) != JSON_OBJECT) && v->agent != AGENT_CURSOR) {
		grep_other(d, v);
		return;
	}
	if (wr < 0 || json_type(j, wr) != JSON_OBJECT) {
		detail_json_section(d, "result", j, v->result);
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

/* A glob: the pattern, where, and the files it found. */
static void
detail_glob(struct detail *d, const struct callview *v)
{
	if (!detail_field_taken(d, "pattern", v->aj, v->args, "globPattern|pattern"))
		detail_field_taken(d, "pattern", v->rj, v->var, "pattern");
	if (!detail_field_at(d, "directory", v->aj, v->args, "targetDirectory|path|dir_path"))
		detail_field_at(d, "directory", v->rj, v->var, "path");
	detail_field_prim(d, "files", v->rj, v->var, "totalFiles|numFiles", NULL);
	detail_field_prim(d, "truncated", v->rj, v->var, "clientTruncated|truncated", NULL);
	if (!list_section(d, "files", v->rj, json_path_any(v->rj, v->var, "files|filenames")))
		detail_output(d, "output", v);
}

/* An MCP call: tool, server, arguments as JSON, the content texts (Codex:
 * under result; Claude Code: the tool's whole input is its arguments, and
 * what it gave is the result's text). */
static void
detail_mcp(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj;
	bool cursor = v->agent == AGENT_CURSOR;
	int a, content;

	detail_field_at(d, "tool", v->aj, v->args, "name|tool");
	detail_field_at(d, "server", v->aj, v->args, "providerIdentifier|server");
	detail_field_at(d, "tool name", v->aj, v->args, "toolName");
	detail_field_at(d, "description", v->aj, v->holder, "description");
	detail_field_prim(d, "is error", j, v->var, "isError", NULL);
	a = json_path_any(v->aj, v->args, "args|arguments");
	if (a < 0 && v->agent == AGENT_CLAUDE)
		a = v->args;
	if (a >= 0 && (cursor || json_type(v->aj, a) != JSON_PRIMITIVE))
		detail_json_section(d, "arguments", v->aj, a);
	if (j == NULL || (v->var < 0 && v->text < 0))
		return;
	content = json_path_any(j, v->var, "content|result.content");
	if (content < 0 || json_type(j, content) != JSON_ARRAY) {
		detail_output(d, "content", v);
		return;
	}
	detail_heading(d, "content");
	for (int i = 0, e = content + 1; i < json_size(j, content); i++, e = json_next(j, e)) {
		if (json_type(j, e) == JSON_OBJECT &&
		    detail_str(j, e, cursor ? "text.text" : "text.text|text", &d->b))
			detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 2, NULL);
		else
			detail_json(d, j, e);
	}
}

/* getMcpTools: the tool's schema, indented. */
static void
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

/* A subagent: what it is, its prompt, then each of its steps (Cursor) or
 * what it answered (Claude Code's result text). */
static void
detail_task(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj;
	int steps;

	detail_field_at(d, "description", v->aj, v->args, "description");
	detail_field_at(d, "type", v->aj, v->args, "subagent_type|agent_name");
	detail_field_at(d, "tool", v->aj, v->args, "tool");
	detail_field_at(d, "model", v->aj, v->args, "model");
	if (!detail_field_at(d, "agent", v->aj, v->args, "agentId"))
		detail_field_at(d, "agent", j, v->var, "agentId");
	detail_field_at(d, "status", j, v->var, "status");
	detail_field_prim(d, "run time", j, v->var, "durationMs|totalDurationMs", " ms");
	detail_field_prim(d, "tokens", j, v->var, "totalTokens", NULL);
	detail_field_prim(d, "tool calls", j, v->var, "totalToolUseCount", NULL);
	if (!detail_field_prim(d, "background", j, v->var, "isBackground|isAsync", NULL))
		detail_field_prim(d, "background", v->aj, v->args, "run_in_background", NULL);
	detail_field_at(d, "output file", j, v->var, "outputFile");
	detail_section(d, "prompt", v->aj, v->args, "prompt", false);
	if (j == NULL || (v->var < 0 && v->text < 0))
		return;
	steps = json_get(j, v->var, "conversationSteps");
	if (steps < 0 || json_type(j, steps) != JSON_ARRAY) {
		/* The sub-agent's own answer, else what the model was
		 * told it said. */
		if (!detail_parts(d, "result", j, json_get(j, v->var, "content")))
			detail_output(d, "result", v);
		return;
	}
	for (int i = 0, e = steps + 1; i < json_size(j, steps); i++, e = json_next(j, e)) {
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

/* A todo's state as a glyph that reads without colour, and its role:
 * Cursor's status "TODO_STATUS_COMPLETED", Claude Code's and Gemini CLI's
 * "completed", Codex's completed: true. */
static const char *
todo_glyph(const struct json *j, int t, enum role *role)
{
	int st = json_get(j, t, "status");
	bool done = false;

	*role = ROLE_NORMAL;
	if (json_strsuffix(j, st, "COMPLETED") || json_streq(j, st, "completed") ||
	    (json_bool(j, json_get(j, t, "completed"), &done) && done)) {
		*role = ROLE_TOOL_OK;
		return GLYPH_OK " ";
	}
	if (json_strsuffix(j, st, "IN_PROGRESS") || json_streq(j, st, "in_progress")) {
		*role = ROLE_RUNNING;
		return GLYPH_FOLDED " ";
	}
	if (json_strsuffix(j, st, "CANCELLED") || json_streq(j, st, "cancelled")) {
		*role = ROLE_DIM;
		return GLYPH_REJECTED " ";
	}
	return GLYPH_PENDING " "; /* or a state nobody documented */
}

/* Todos, each with a glyph for its state. */
static void
detail_todos(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj;
	int t = json_path_any(j, v->var, "todos|newTodos|items");

	/* What the call ended with, else what it asked for. */
	if (t < 0 || json_type(j, t) != JSON_ARRAY) {
		j = v->aj;
		t = json_path_any(j, v->args, "todos|items");
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
		g = todo_glyph(j, e, &role);
		detail_str(j, e, "content|text|description", &d->b);
		detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, role, 2, g);
	}
}

/* A web fetch: the url (and what the model asked of the page), then the
 * page as Markdown (Cursor), the answer made of it (Claude Code), or what
 * it gave. */
static void
detail_webfetch(struct detail *d, const struct callview *v)
{
	const struct json *rj = v->rj;
	int r = v->var;
	int64_t code;

	if (!detail_field_at(d, "url", v->aj, v->args, "url"))
		detail_field_at(d, "url", rj, r, "url");
	detail_field_at(d, "prompt", v->aj, v->args, "prompt");
	if (json_int_at(rj, r, "code", &code)) {
		if (!detail_str(rj, r, "codeText", &d->a))
			buf_reset(&d->a);
		detail_fieldf(d, "status", "%lld%s%s", (long long)code, d->a.n > 0 ? " " : "",
			      d->a.n > 0 ? d->a.p : "");
	}
	detail_field_prim(d, "size", rj, r, "bytes", " bytes");
	detail_field_prim(d, "run time", rj, r, "durationMs", " ms");
	if (!detail_section(d, "content", rj, r, "markdown", false) &&
	    !detail_section(d, "result", rj, r, "result", true))
		detail_output(d, "output", v);
}

/* The start of s[0..n) into out: runs of white space as one space, no
 * more than max bytes (a character is never cut, nor a secret), "…"
 * when there is more. */
static void
text_start(struct buf *out, const char *s, size_t n, size_t max)
{
	size_t from = out->n, k;
	bool space = false, more = false;

	for (size_t i = 0; i < n && !more; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
			space = out->n > from;
			continue;
		}
		/* What redact_cut looks at past the cut is kept until then. */
		more = out->n - from >= max + REDACT_CUT_SLACK;
		if (space && !more)
			buf_addc(out, ' ');
		space = false;
		if (!more)
			buf_addc(out, (char)c);
	}
	k = redact_cut(out->p + from, out->n - from, max);
	more = more || from + k < out->n;
	while (k > 0 && out->p[from + k - 1] == ' ')
		k--;
	out->n = from + k;
	if (more)
		buf_adds(out, " " GLYPH_ELLIPSIS);
	else if (out->cap > 0)
		out->p[out->n] = '\0';
}

/* One result of a web search, numbered: its title, its url and the start
 * of its text (Cursor's references[{title, url, chunk}]). Claude Code's
 * results hold {content: [{title, url}]} (each shown so, one level down)
 * and text. */
static void
search_result(struct detail *d, const struct json *j, int e, int *no, bool top)
{
	int links = json_get(j, e, "content"), l = links + 1;
	char lead[24];
	bool titled;

	if (top && json_type(j, links) == JSON_ARRAY) {
		for (int i = 0; i < json_size(j, links) && room_for(d, j, links, l);
		     i++, l = json_next(j, l))
			search_result(d, j, l, no, false);
		return;
	}
	buf_reset(&d->b);
	if (detail_tok(j, e, &d->b)) {
		detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 2, NULL);
		return;
	}
	if (json_type(j, e) != JSON_OBJECT) {
		detail_json(d, j, e);
		return;
	}
	snprintf(lead, sizeof lead, "%d. ", ++*no);
	/* With no title, the url says which. */
	titled = detail_str(j, e, "title", &d->b) && d->b.n > 0;
	if (!titled)
		detail_str(j, e, "url", &d->b);
	detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, ROLE_NORMAL, 2, lead);
	if (titled && detail_str(j, e, "url", &d->b))
		detail_wrap(d, d->b.p, d->b.n, ROLE_DIM, 2 + (int)strlen(lead), NULL);
	if (detail_str(j, e, "chunk", &d->a)) {
		buf_reset(&d->b);
		text_start(&d->b, d->a.p, d->a.n, 240);
		detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, ROLE_NORMAL, 2 + (int)strlen(lead),
			    NULL);
	}
}

/* A web search: the term, then each result found (or what it gave). */
static void
detail_websearch(struct detail *d, const struct callview *v)
{
	const struct json *rj = v->rj;
	int refs = json_path_any(rj, v->var, "references|results"), e = refs + 1;
	int no = 0;

	if (!detail_field_at(d, "term", v->aj, v->args, "searchTerm|query"))
		detail_field_at(d, "term", rj, v->var, "query");
	detail_field_prim(d, "run time", rj, v->var, "durationSeconds", " s");
	if (json_type(rj, refs) != JSON_ARRAY || json_size(rj, refs) == 0) {
		detail_output(d, "output", v);
		return;
	}
	detail_heading(d, "results");
	for (int i = 0; i < json_size(rj, refs) && room_for(d, rj, refs, e);
	     i++, e = json_next(rj, e))
		search_result(d, rj, e, &no, true);
}

/* One question asked: its text, then each option (with what it means,
 * when said). Cursor's {prompt, options[{id, label}], allowMultiple};
 * Claude Code's {question, options[{label, description}], multiSelect}. */
static void
question_rows(struct detail *d, const struct json *j, int q, int no)
{
	int opts = json_get(j, q, "options"), o = opts + 1;
	bool many = false;
	char title[32];

	snprintf(title, sizeof title, "question %d", no);
	detail_heading(d, title);
	if (detail_str(j, q, "prompt|question", &d->b))
		detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 2, NULL);
	for (int i = 0; i < json_size(j, opts) && room_for(d, j, opts, o);
	     i++, o = json_next(j, o)) {
		buf_reset(&d->b);
		if (!detail_tok(j, o, &d->b) && !detail_str(j, o, "label|id", &d->b))
			continue;
		detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 4, GLYPH_PENDING " ");
		if (detail_str(j, o, "description", &d->b) && d->b.n > 0)
			detail_wrap(d, d->b.p, d->b.n, ROLE_DIM, 6, NULL);
	}
	if (json_bool(j, json_path_any(j, q, "allowMultiple|multiSelect"), &many) && many)
		detail_wrap(d, "(several may be chosen)", 23, ROLE_DIM, 4, NULL);
}

/* A question to the user: its title, each question with its options, and
 * the answers (a rejection, as print mode gives, is said above it). */
static void
detail_question(struct detail *d, const struct callview *v)
{
	const struct json *j = v->aj, *rj = v->rj;
	int qs = json_get(j, v->args, "questions"), q = qs + 1;
	int answers, a;

	detail_field_at(d, "title", j, v->args, "title");
	for (int i = 0; i < json_size(j, qs) && room_for(d, j, qs, q); i++, q = json_next(j, q))
		if (json_type(j, q) == JSON_OBJECT)
			question_rows(d, j, q, i + 1);
	if (rj == NULL || detail_variant(v, "rejected"))
		return;
	/* Claude Code: {answers: {question: answer}}. */
	answers = json_get(rj, v->var, "answers");
	if (json_type(rj, answers) == JSON_OBJECT && json_size(rj, answers) > 0) {
		detail_heading(d, "answers");
		a = answers + 1;
		/* The question, then its answer under it. */
		for (int i = 0; i < json_size(rj, answers) && room_for(d, rj, answers, a);
		     i++, a = json_next(rj, a + 1)) {
			buf_reset(&d->b);
			detail_tok(rj, a, &d->b);
			detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, ROLE_NORMAL, 2, NULL);
			buf_reset(&d->b);
			if (!detail_tok(rj, a + 1, &d->b))
				json_decode(rj, a + 1, &d->b);
			detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, ROLE_ASSISTANT, 4,
				    GLYPH_ARROW " ");
		}
	} else if (!detail_output(d, "output", v) && v->var > 0) {
		/* An answer in a shape nobody documented: as it is. */
		detail_json_section(d, "result", rj, v->var);
	}
}

/* --- the builders by kind --------------------------------------------------- */

/* Each kind's builder, and whether it draws a rejected call too (a shell's
 * rejection says which command); a kind without one shows its call's
 * arguments and result as they are. */
static const struct {
	void (*build)(struct detail *d, const struct callview *v);
	bool rejected;
} builders[TK_NKINDS] = {
	[TK_SHELL] = {detail_shell, true},
	[TK_READ] = {detail_read, false},
	[TK_EDIT] = {detail_edit, false},
	[TK_WRITE] = {detail_write, false},
	[TK_GREP] = {detail_grep, false},
	[TK_DELETE] = {detail_delete, false},
	[TK_GLOB] = {detail_glob, false},
	[TK_TODOS] = {detail_todos, false},
	[TK_MCP] = {detail_mcp, false},
	[TK_MCP_TOOLS] = {detail_mcp_tools, false},
	[TK_TASK] = {detail_task, false},
	[TK_WEBFETCH] = {detail_webfetch, true},
	[TK_WEBSEARCH] = {detail_websearch, true},
	[TK_QUESTION] = {detail_question, true},
};

void
detail_build(struct detail *d, uint32_t c, int width, bool raw)
{
	unsigned k = d->m->call[c].kind < TK_NKINDS ? d->m->call[c].kind : TK_OTHER;
	struct callview v;

	detail_begin(d, c, width, raw);
	if (detail_head(d, c, raw, builders[k].build != NULL, builders[k].rejected, &v)) {
		builders[k].build(d, &v);
		if (d->nrow == 0)
			detail_wrap(d, "(nothing to show)", 17, ROLE_DIM, 0, NULL);
	}
	detail_end(d);
}
