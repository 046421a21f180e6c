/* detail_kind.c: the builders of the kinds' details, each laying out what
 * one kind of call holds from its facts (facts.h), the table that names
 * each kind's, and a call's detail built with its kind's (detail_build, at
 * the end). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A field from an element's fact, a value, as detail_field_value. */
static void
elem_field(struct detail *d, const char *label, const struct elem_facts *e, enum elem_fact f,
	   const char *unit)
{
	buf_reset(&d->a);
	if (!fact_value(elem_fact(e, f), &d->a) || d->a.n == 0 || strcmp(d->a.p, "null") == 0 ||
	    strcmp(d->a.p, "false") == 0)
		return;
	if (unit != NULL)
		buf_adds(&d->a, unit);
	detail_field(d, label, d->a.p, d->a.n, ROLE_NORMAL);
}

/* The names of a list (FL_FILES) under a heading, one a row: section
 * `title` (a literal), the names one a line; false when it has none. */
static bool
list_section(struct detail *d, const char *title, struct call_facts *v, enum call_fact f)
{
	const struct factval *l = call_fact(v, f);
	const struct json *j;
	struct elem_facts e;
	size_t row;
	struct buf text = {0};
	int t;

	if (!fact_array(l) || json_size(l->j, l->t) == 0)
		return false;
	j = l->j;
	row = detail_heading(d, title);
	t = l->t + 1;
	for (int i = 0; i < json_size(j, l->t) && room_for(d, j, l->t, t);
	     i++, t = json_next(j, t)) {
		if (call_elem(v, FL_FILES, j, t, &e) && detail_elem(&e, EL_NAME, &d->b)) {
			detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 2, NULL);
			buf_add(&text, d->b.p, d->b.n);
			buf_addc(&text, '\n');
		} else {
			detail_json(d, j, t);
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
detail_shell(struct detail *d, struct call_facts *v)
{
	bool any;

	if (!detail_field_taken(d, "command", v, CALL_COMMAND_SENT))
		detail_field_taken(d, "command", v, CALL_COMMAND);
	detail_field_of(d, "directory", v, CALL_DIR);
	detail_field_of(d, "description", v, CALL_DESCRIPTION);
	detail_field_value(d, "exit code", v, CALL_EXIT, NULL);
	detail_field_of(d, "signal", v, CALL_SIGNAL);
	detail_field_value(d, "aborted", v, CALL_ABORTED, NULL);
	detail_field_value(d, "interrupted", v, CALL_INTERRUPTED, NULL);
	detail_field_value(d, "run time", v, CALL_RUN_MS, " ms");
	detail_field_value(d, "local time", v, CALL_LOCAL_MS, " ms");
	detail_field_value(d, "timeout", v, CALL_TIMEOUT_MS, " ms");
	detail_field_value(d, "background", v, CALL_BACKGROUND, NULL);
	detail_field_of(d, "shell id", v, CALL_BG_ID);
	detail_field_value(d, "pid", v, CALL_PID, NULL);
	detail_field_of(d, "why", v, CALL_BG_WHY);
	if (!detail_has_result(v))
		return;
	any = detail_section(d, "stdout", v, CALL_STDOUT, true);
	any |= detail_section(d, "stderr", v, CALL_STDERR, true);
	/* The two streams together, when that is all there is. */
	if (!any)
		any = detail_section(d, "output", v, CALL_OUTPUT, true);
	if (!any)
		any = detail_output(d, "output", v);
	if (!any && v->result != CR_REJECTED) {
		detail_blank(d);
		detail_wrap(d, "(no output)", 11, ROLE_DIM, 0, NULL);
	}
}

/* A read whose text is not in the stream (Cursor's big read), said as
 * its line says it. */
static void
read_elsewhere(struct detail *d, struct call_facts *v)
{
	struct buf b = {0};

	tool_big_read(v, &b);
	detail_heading(d, "content");
	detail_wrap(d, b.p, b.n, ROLE_DIM, 2, NULL);
	buf_free(&b);
}

/* A read: path, range and the content with its line numbers (or what it
 * told the model, or that the stream does not hold it). */
static void
detail_read(struct detail *d, struct call_facts *v)
{
	int64_t first = 1, a, b;

	detail_field_taken(d, "path", v, CALL_PATH);
	if (fact_int(call_fact(v, CALL_FIRST_LINE), &a) && a > 0)
		first = a;
	if (fact_int(call_fact(v, CALL_FIRST_LINE), &a) &&
	    fact_int(call_fact(v, CALL_LAST_LINE), &b))
		detail_fieldf(d, "lines", "%lld-%lld", (long long)a, (long long)b);
	detail_field_value(d, "total lines", v, CALL_TOTAL_LINES, NULL);
	detail_field_value(d, "file size", v, CALL_FILE_SIZE, " bytes");
	detail_field_value(d, "truncated", v, CALL_TRUNCATED, NULL);
	if (detail_fact(v, CALL_CONTENT, &d->b)) {
		detail_numbered_section(d, "content", d->b.p, d->b.n, first);
	} else if (call_fact(v, CALL_ELSEWHERE) != NULL) {
		read_elsewhere(d, v);
	} else if (!detail_output(d, "output", v) && v->done) {
		detail_heading(d, "content");
		detail_wrap(d, "(not in the stream)", 19, ROLE_DIM, 2, NULL);
	}
}

/* git's header of a diff of the call's file, into out: "--- a/PATH",
 * "+++ b/PATH" (from /dev/null for a file added), the path as a header
 * names it (detail_diff_path); nothing when the call names no file. */
static void
diff_head(struct detail *d, struct call_facts *v, bool added, struct buf *out)
{
	struct buf path = {0}, rel = {0};
	size_t skip;

	if (fact_text(call_fact(v, CALL_PATH), &path) && path.n > 0) {
		detail_diff_path(d, path.p, path.n, &rel);
		skip = rel.p[0] == '/';
		if (added) {
			buf_adds(out, "--- /dev/null\n");
		} else {
			buf_adds(out, "--- a/");
			buf_add(out, rel.p + skip, rel.n - skip);
			buf_addc(out, '\n');
		}
		buf_adds(out, "+++ b/");
		buf_add(out, rel.p + skip, rel.n - skip);
		buf_addc(out, '\n');
	}
	buf_free(&path);
	buf_free(&rel);
}

/* old and new text as a diff under a heading; of the call's whole file
 * (v not NULL), with git's header. */
static void
diff_section(struct detail *d, struct call_facts *v, const char *title, const char *a, size_t na,
	     const char *b, size_t nb)
{
	struct buf out = {0};

	if (v != NULL)
		diff_head(d, v, na == 0, &out);
	if (diff_unified(a, na, b, nb, 3, &out) == 0) {
		detail_heading(d, title);
		detail_wrap(d, "(no change)", 11, ROLE_DIM, 2, NULL);
	} else {
		detail_diff_section(d, title, "diff", out.p, out.n);
	}
	buf_free(&out);
}

/* A structured patch (CALL_HUNKS: hunks with their starts and lengths,
 * and their lines "-old", "+new", " same") as a unified diff into out,
 * counting the lines added and removed; false when it has no hunk. */
static bool
patch_text(struct call_facts *v, struct buf *out, int64_t *add, int64_t *del)
{
	const struct factval *p = call_fact(v, CALL_HUNKS);
	static const enum elem_fact at[4] = {EL_OLD_START, EL_OLD_LINES, EL_NEW_START,
					     EL_NEW_LINES};
	const struct json *j;
	struct elem_facts h;
	int t;

	if (!fact_array(p) || json_size(p->j, p->t) == 0)
		return false;
	j = p->j;
	t = p->t + 1;
	for (int i = 0; i < json_size(j, p->t) && out->n < DETAIL_MAX_BYTES;
	     i++, t = json_next(j, t)) {
		int64_t n[4] = {0, 0, 0, 0};
		const struct factval *ls = NULL;
		int l;
		size_t from;

		if (call_elem(v, FL_HUNKS, j, t, &h)) {
			for (int k = 0; k < 4; k++)
				fact_int(elem_fact(&h, at[k]), &n[k]);
			ls = elem_fact(&h, EL_LINES);
		}
		buf_addf(out, "@@ -%lld,%lld +%lld,%lld @@\n", (long long)n[0], (long long)n[1],
			 (long long)n[2], (long long)n[3]);
		if (!fact_array(ls))
			continue;
		l = ls->t + 1;
		for (int k = 0; k < json_size(j, ls->t) && out->n < DETAIL_MAX_BYTES;
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

/* patch_text with git's header before it (from /dev/null when its one
 * hunk adds the file's first lines). */
static bool
patch_whole(struct detail *d, struct call_facts *v, struct buf *out, int64_t *add, int64_t *del)
{
	struct buf hunks = {0};
	bool any = patch_text(v, &hunks, add, del);

	if (any) {
		diff_head(d, v, hunks.n >= 8 && memcmp(hunks.p, "@@ -0,0 ", 8) == 0, out);
		buf_add(out, hunks.p, hunks.n);
	}
	buf_free(&hunks);
	return any;
}

/* The files a change changed and how (add, delete, update), when the
 * stream holds no diff. False when there is no list. */
static bool
changes_section(struct detail *d, struct call_facts *v)
{
	const struct factval *cs = call_fact(v, CALL_CHANGES);
	const struct json *j;
	struct elem_facts e;
	char lead[24];
	int c;

	if (!fact_array(cs) || json_size(cs->j, cs->t) == 0)
		return false;
	j = cs->j;
	detail_heading(d, "changes");
	c = cs->t + 1;
	for (int i = 0; i < json_size(j, cs->t) && room_for(d, j, cs->t, c);
	     i++, c = json_next(j, c)) {
		if (!call_elem(v, FL_CHANGES, j, c, &e))
			e.set = 0;
		if (!detail_elem(&e, EL_KIND, &d->a))
			buf_adds(&d->a, "?");
		snprintf(lead, sizeof lead, "%-7.16s ", d->a.p);
		detail_elem(&e, EL_PATH, &d->b);
		detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, ROLE_NORMAL, 2, lead);
	}
	detail_wrap(d, "(the stream holds no diff)", 26, ROLE_DIM, 2, NULL);
	return true;
}

/* An edit that sends no patch: the text it was asked to replace and
 * with what (one pair, or several), or the files it changed. False when
 * it is none of these. */
static bool
edit_asked(struct detail *d, struct call_facts *v)
{
	const struct factval *es = call_fact(v, CALL_EDITS);
	struct buf old = {0};
	struct elem_facts e;
	bool pair, any = false;
	int t;

	pair = detail_fact(v, CALL_OLD_TEXT, &old) && detail_fact(v, CALL_NEW_TEXT, &d->b);
	if (pair)
		diff_section(d, NULL, "replace", old.p, old.n, d->b.p, d->b.n);
	t = fact_array(es) ? es->t + 1 : -1;
	for (int i = 0;
	     !pair && t >= 0 && i < json_size(es->j, es->t) && room_for(d, es->j, es->t, t);
	     i++, t = json_next(es->j, t)) {
		char title[32];

		if (!call_elem(v, FL_EDITS, es->j, t, &e) || !detail_elem(&e, EL_OLD, &old) ||
		    !detail_elem(&e, EL_NEW, &d->b))
			continue;
		snprintf(title, sizeof title, "edit %d", i + 1);
		diff_section(d, NULL, title, old.p, old.n, d->b.p, d->b.n);
		any = true;
	}
	buf_free(&old);
	return pair || any || changes_section(d, v);
}

/* An edit: its diff, sent or computed, or a new file's content. */
static void
detail_edit(struct detail *d, struct call_facts *v)
{
	int64_t add = 0, del = 0;
	struct buf before = {0}, patch = {0};
	const struct factval *a = call_fact(v, CALL_ARGS);
	bool hunks = patch_whole(d, v, &patch, &add, &del);

	/* The files of a change that lists them are said below. */
	if (call_fact(v, CALL_CHANGES) == NULL)
		detail_field_taken(d, "path", v, CALL_PATH);
	if ((fact_int(call_fact(v, CALL_LINES_ADDED), &add) &&
	     fact_int(call_fact(v, CALL_LINES_REMOVED), &del)) ||
	    hunks)
		detail_fieldf(d, "lines", "+%lld " GLYPH_MINUS "%lld", (long long)add,
			      (long long)del);
	detail_field_of(d, "message", v, CALL_MESSAGE);
	detail_field_of(d, "instruction", v, CALL_INSTRUCTION);
	detail_field_value(d, "replace all", v, CALL_REPLACE_ALL, NULL);
	if (hunks) {
		detail_diff_section(d, "diff", "diff", patch.p, patch.n);
	} else if (detail_fact(v, CALL_DIFF, &d->b) && d->b.n > 0) {
		detail_diff_section(d, "diff", "diff", d->b.p, d->b.n);
	} else if (detail_fact(v, CALL_BEFORE, &before) && detail_fact(v, CALL_AFTER, &d->b)) {
		diff_section(d, v, "diff (computed from the file before and after)", before.p,
			     before.n, d->b.p, d->b.n);
	} else if (detail_fact(v, CALL_AFTER, &d->b) || detail_fact(v, CALL_WRITTEN, &d->b)) {
		detail_numbered_section(d, "new content", d->b.p, d->b.n, 1);
	} else if (detail_fact(v, CALL_PATCH, &d->b)) {
		detail_diff_section(d, "patch", "patch", d->b.p, d->b.n);
	} else if (!edit_asked(d, v) && a != NULL && a->form == FACT_TOKEN) {
		detail_json_section(d, "arguments", a->j, a->t);
	}
	buf_free(&before);
	buf_free(&patch);
}

/* A write: the text written, numbered, or the diff of a file it wrote
 * over, or the files it made when the stream holds neither. */
static void
detail_write(struct detail *d, struct call_facts *v)
{
	int64_t add = 0, del = 0;
	struct buf patch = {0};

	/* The files of a change that lists them are said below. */
	if (call_fact(v, CALL_CHANGES) == NULL)
		detail_field_taken(d, "path", v, CALL_PATH);
	detail_field_value(d, "lines", v, CALL_LINES_ADDED, NULL);
	detail_field_value(d, "file size", v, CALL_FILE_SIZE, " bytes");
	if (patch_whole(d, v, &patch, &add, &del)) {
		detail_fieldf(d, "lines", "+%lld " GLYPH_MINUS "%lld", (long long)add,
			      (long long)del);
		detail_diff_section(d, "diff", "diff", patch.p, patch.n);
	} else if (detail_fact(v, CALL_WRITTEN, &d->b)) {
		detail_numbered_section(d, "content", d->b.p, d->b.n, 1);
	} else {
		changes_section(d, v);
	}
	buf_free(&patch);
}

/* A delete: the path and what the file held, or the files a change
 * deleted. */
static void
detail_delete(struct detail *d, struct call_facts *v)
{
	/* The files of a change that lists them are said below. */
	if (call_fact(v, CALL_CHANGES) == NULL)
		detail_field_taken(d, "path", v, CALL_PATH);
	detail_field_value(d, "file size", v, CALL_FILE_SIZE, " bytes");
	if (detail_fact(v, CALL_BEFORE, &d->b))
		detail_numbered_section(d, "content before", d->b.p, d->b.n, 1);
	else
		changes_section(d, v);
}

/* The matches of one file (an element of FL_GREP_FILES): "12: text" for a
 * match, "13- text" for a line of context, as grep prints them. */
static void
grep_file(struct detail *d, struct call_facts *v, const struct elem_facts *f)
{
	const struct factval *ms = elem_fact(f, EL_MATCHES);
	const struct json *j;
	int e, n, digits = 1;
	int64_t no, maxno = 0;
	char lead[48];
	size_t row = d->nrow;
	struct buf file = {0}, text = {0};
	struct elem_facts m;
	struct dsection *sec;

	if (detail_elem(f, EL_FILE, &file))
		row = detail_heading(d, file.p);
	if (!fact_array(ms)) {
		buf_free(&file);
		return;
	}
	j = ms->j;
	n = json_size(j, ms->t);
	for (int i = 0, t = ms->t + 1; i < n; i++, t = json_next(j, t))
		if (call_elem(v, FL_MATCHES, j, t, &m) && fact_int(elem_fact(&m, EL_LINE), &no))
			maxno = MAX(maxno, no);
	for (; maxno >= 10; maxno /= 10)
		digits++;
	e = ms->t + 1;
	/* Past the room, each match is still counted as not shown. */
	for (int i = 0; i < n; i++, e = json_next(j, e)) {
		bool ctx;

		if (!call_elem(v, FL_MATCHES, j, e, &m))
			continue;
		if (!fact_int(elem_fact(&m, EL_LINE), &no))
			no = 0;
		ctx = fact_true(elem_fact(&m, EL_CONTEXT));
		snprintf(lead, sizeof lead, "%*lld%c ", digits, (long long)no, ctx ? '-' : ':');
		detail_elem(&m, EL_TEXT, &d->a);
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

/* The matches by folder searched (FL_ROOTS), then by file. */
static void
grep_roots(struct detail *d, struct call_facts *v)
{
	const struct factval *wr = call_fact(v, CALL_ROOTS);
	const struct json *j = wr->j;
	int n = json_size(j, wr->t), k = wr->t + 1;
	struct elem_facts r, f;

	for (int i = 0; i < n; i++, k = json_next(j, k + 1)) {
		bool found = call_elem(v, FL_ROOTS, j, k, &r);
		const struct factval *fs;

		if (n > 1 || !found) {
			buf_reset(&d->b);
			json_decode(j, k, &d->b);
			detail_heading(d, "in");
			detail_field(d, "root", d->b.p, d->b.n, ROLE_NORMAL);
		}
		if (!found) {
			detail_json(d, j, k + 1);
			continue;
		}
		elem_field(d, "matched", &r, EL_MATCHED, " lines");
		elem_field(d, "truncated", &r, EL_TRUNCATED, NULL);
		fs = elem_fact(&r, EL_FILES);
		if (!fact_array(fs))
			continue;
		for (int m = 0, t = fs->t + 1; m < json_size(j, fs->t); m++, t = json_next(j, t))
			if (call_elem(v, FL_GREP_FILES, j, t, &f))
				grep_file(d, v, &f);
	}
}

/* Grep: the pattern, then the matches grouped by folder and file, or how
 * many files and lines, the matching lines as text or the files that
 * match, or what it gave. */
static void
detail_grep(struct detail *d, struct call_facts *v)
{
	const struct factval *r;

	detail_field_taken(d, "pattern", v, CALL_QUERY);
	detail_field_of(d, "path", v, CALL_DIR);
	detail_field_of(d, "glob", v, CALL_GLOB);
	detail_field_value(d, "ignore case", v, CALL_IGNORE_CASE, NULL);
	detail_field_of(d, "mode", v, CALL_MODE);
	if (!detail_has_result(v))
		return;
	if (fact_object(call_fact(v, CALL_ROOTS))) {
		grep_roots(d, v);
		return;
	}
	detail_field_value(d, "files", v, CALL_FILE_COUNT, NULL);
	detail_field_value(d, "lines", v, CALL_LINE_COUNT, NULL);
	detail_field_value(d, "matches", v, CALL_MATCH_COUNT, NULL);
	if (detail_section(d, "matches", v, CALL_MATCH_TEXT, true) ||
	    list_section(d, "files", v, CALL_FILES) || detail_output(d, "output", v))
		return;
	/* Nothing of the above: the result as it is. */
	if ((r = call_fact(v, CALL_SHOWN)) != NULL && r->form == FACT_TOKEN)
		detail_json_section(d, "result", r->j, r->t);
}

/* A glob: the pattern, where, and the files it found. */
static void
detail_glob(struct detail *d, struct call_facts *v)
{
	detail_field_taken(d, "pattern", v, CALL_QUERY);
	detail_field_of(d, "directory", v, CALL_DIR);
	detail_field_value(d, "files", v, CALL_FILE_COUNT, NULL);
	detail_field_value(d, "truncated", v, CALL_TRUNCATED, NULL);
	if (!list_section(d, "files", v, CALL_FILES))
		detail_output(d, "output", v);
}

/* An MCP call: tool, server, arguments as JSON, the content's texts (or
 * what it gave as text). */
static void
detail_mcp(struct detail *d, struct call_facts *v)
{
	const struct factval *a = call_fact(v, CALL_MCP_ARGS), *c;
	bool named = detail_field_of(d, "tool", v, CALL_MCP_NAME);
	struct elem_facts e;

	if (!named)
		detail_field_of(d, "tool", v, CALL_MCP_TOOL);
	detail_field_of(d, "server", v, CALL_MCP_SERVER);
	if (named)
		detail_field_of(d, "tool name", v, CALL_MCP_TOOL);
	detail_field_of(d, "description", v, CALL_DESCRIPTION);
	detail_field_value(d, "is error", v, CALL_IS_ERROR, NULL);
	if (a != NULL && a->form == FACT_TOKEN && json_type(a->j, a->t) != JSON_PRIMITIVE)
		detail_json_section(d, "arguments", a->j, a->t);
	if (!detail_has_result(v))
		return;
	c = call_fact(v, CALL_MCP_CONTENT);
	if (!fact_array(c)) {
		detail_output(d, "content", v);
		return;
	}
	detail_heading(d, "content");
	for (int i = 0, t = c->t + 1; i < json_size(c->j, c->t); i++, t = json_next(c->j, t)) {
		if (call_elem(v, FL_CONTENT, c->j, t, &e) && detail_elem(&e, EL_TEXT, &d->b))
			detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 2, NULL);
		else
			detail_json(d, c->j, t);
	}
}

/* A tool's schema, indented. */
static void
detail_mcp_tools(struct detail *d, struct call_facts *v)
{
	detail_field_of(d, "server", v, CALL_MCP_SERVER);
	detail_field_of(d, "tool name", v, CALL_MCP_TOOL);
	if (!detail_fact(v, CALL_SCHEMA, &d->b))
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

/* A sub-agent: what it is, its prompt, then each of its steps or what it
 * answered. */
static void
detail_task(struct detail *d, struct call_facts *v)
{
	const struct factval *steps;
	struct elem_facts e;

	detail_field_of(d, "description", v, CALL_DESCRIPTION);
	detail_field_of(d, "type", v, CALL_SUB_TYPE);
	detail_field_of(d, "tool", v, CALL_TOOL);
	detail_field_of(d, "model", v, CALL_MODEL);
	detail_field_of(d, "agent", v, CALL_SUB_ID);
	detail_field_of(d, "status", v, CALL_STATUS);
	detail_field_value(d, "run time", v, CALL_RUN_MS, " ms");
	detail_field_value(d, "tokens", v, CALL_TOKENS, NULL);
	detail_field_value(d, "tool calls", v, CALL_TOOL_CALLS, NULL);
	detail_field_value(d, "background", v, CALL_BACKGROUND, NULL);
	detail_field_of(d, "output file", v, CALL_OUTPUT_FILE);
	detail_section(d, "prompt", v, CALL_PROMPT, false);
	if (!detail_has_result(v))
		return;
	steps = call_fact(v, CALL_STEPS);
	if (!fact_array(steps)) {
		/* The sub-agent's own answer, else what the model was
		 * told it said. */
		if (!detail_parts(d, "result", v, CALL_ANSWER))
			detail_output(d, "result", v);
		return;
	}
	for (int i = 0, t = steps->t + 1; i < json_size(steps->j, steps->t);
	     i++, t = json_next(steps->j, t)) {
		char title[32];

		snprintf(title, sizeof title, "step %d", i + 1);
		detail_heading(d, title);
		if (call_elem(v, FL_STEPS, steps->j, t, &e) && detail_elem(&e, EL_TEXT, &d->b))
			detail_wrap(d, d->b.p, d->b.n, ROLE_ASSISTANT, 2, NULL);
		else
			detail_json(d, steps->j, t);
	}
}

/* A todo's state as a glyph that reads without colour, and its role. */
static const char *
todo_glyph(const struct elem_facts *e, enum role *role)
{
	int64_t st = TODO_PENDING;

	fact_int(elem_fact(e, EL_STATE), &st);
	switch (st) {
	case TODO_DONE:
		*role = ROLE_TOOL_OK;
		return GLYPH_OK " ";
	case TODO_ACTIVE:
		*role = ROLE_RUNNING;
		return GLYPH_FOLDED " ";
	case TODO_CANCELLED:
		*role = ROLE_DIM;
		return GLYPH_REJECTED " ";
	default: /* or a state nobody documented */
		*role = ROLE_NORMAL;
		return GLYPH_PENDING " ";
	}
}

/* The tasks of a session's list one by one, read from the calls that
 * made them (their own parsers: the detailed call's facts stay). */
struct task_rows {
	struct detail *d;
	struct json *sj, *dj;
	struct call_facts v;
};

static void
task_row(void *ctx, uint32_t call, enum todo_state st)
{
	struct task_rows *t = ctx;
	struct detail *d = t->d;
	struct elem_facts e = {0};
	enum role role;
	const char *g;

	buf_reset(&d->b);
	if (call != NONE) {
		tool_load(d->m, call, t->sj, t->dj, &t->v);
		fact_text(call_fact(&t->v, CALL_SUBJECT), &d->b);
	}
	if (d->b.n == 0)
		buf_adds(&d->b, "(a task made before the stream)");
	elem_set_number(&e, EL_STATE, st);
	g = todo_glyph(&e, &role);
	detail_wrap(d, d->b.p, d->b.n, role, 2, g);
}

/* The session's task list as of the call, which made or changed one task
 * of it (model_todo_list). */
static void
detail_tasks(struct detail *d)
{
	struct task_rows t = {d, json_new(), json_new(), {0}};

	detail_heading(d, "tasks");
	model_todo_list(d->m, d->call, task_row, &t);
	json_free(t.sj);
	json_free(t.dj);
}

/* Todos, each with a glyph for its state. */
static void
detail_todos(struct detail *d, struct call_facts *v)
{
	const struct factval *t = call_fact(v, CALL_TODOS);
	struct elem_facts e;
	struct todo_step st;

	/* One task of the session's list: the task, then the list. */
	if (model_todo_step(d->m, d->call, &st)) {
		detail_field_of(d, "task", v, CALL_SUBJECT);
		detail_tasks(d);
		return;
	}
	/* What the call ended with, else what it asked for. */
	if (!fact_array(t))
		t = call_fact(v, CALL_TODOS_ASKED);
	detail_field_value(d, "merge", v, CALL_MERGE, NULL);
	if (!fact_array(t))
		return;
	detail_heading(d, "todos");
	for (int i = 0, k = t->t + 1; i < json_size(t->j, t->t); i++, k = json_next(t->j, k)) {
		enum role role;
		const char *g;

		if (!call_elem(v, FL_TODOS, t->j, k, &e))
			continue;
		g = todo_glyph(&e, &role);
		detail_elem(&e, EL_TEXT, &d->b);
		detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, role, 2, g);
	}
}

/* A web fetch: the url (and what the model asked of the page), then the
 * page as Markdown, the answer made of it, or what it gave. */
static void
detail_webfetch(struct detail *d, struct call_facts *v)
{
	int64_t code;

	detail_field_of(d, "url", v, CALL_URL);
	detail_field_of(d, "prompt", v, CALL_PROMPT);
	if (fact_int(call_fact(v, CALL_STATUS_CODE), &code)) {
		if (!detail_fact(v, CALL_STATUS_TEXT, &d->a))
			buf_reset(&d->a);
		detail_fieldf(d, "status", "%lld%s%s", (long long)code, d->a.n > 0 ? " " : "",
			      d->a.n > 0 ? d->a.p : "");
	}
	detail_field_value(d, "size", v, CALL_SIZE, " bytes");
	detail_field_value(d, "run time", v, CALL_RUN_MS, " ms");
	if (!detail_section(d, "content", v, CALL_PAGE, false) &&
	    !detail_section(d, "result", v, CALL_ANSWER, true))
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

/* One result of a web search (FL_RESULTS, or one level down FL_LINKS),
 * numbered: its title, its url and the start of its text; a result that
 * is a list of links, each of them so. */
static void
search_result(struct detail *d, struct call_facts *v, const struct json *j, int e, int *no,
	      bool top)
{
	const struct factval *links;
	struct elem_facts r;
	char lead[24];
	bool titled;

	if (!call_elem(v, top ? FL_RESULTS : FL_LINKS, j, e, &r)) {
		detail_json(d, j, e);
		return;
	}
	links = elem_fact(&r, EL_LINKS);
	if (top && fact_array(links)) {
		for (int i = 0, l = links->t + 1;
		     i < json_size(j, links->t) && room_for(d, j, links->t, l);
		     i++, l = json_next(j, l))
			search_result(d, v, j, l, no, false);
		return;
	}
	if (elem_fact(&r, EL_TEXT) != NULL) {
		detail_elem(&r, EL_TEXT, &d->b);
		detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, ROLE_NORMAL, 2, NULL);
		return;
	}
	snprintf(lead, sizeof lead, "%d. ", ++*no);
	/* With no title, the url says which. */
	titled = detail_elem(&r, EL_TITLE, &d->b) && d->b.n > 0;
	if (!titled)
		detail_elem(&r, EL_URL, &d->b);
	detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, ROLE_NORMAL, 2, lead);
	if (titled && detail_elem(&r, EL_URL, &d->b))
		detail_wrap(d, d->b.p, d->b.n, ROLE_DIM, 2 + (int)strlen(lead), NULL);
	if (detail_elem(&r, EL_SNIPPET, &d->a)) {
		buf_reset(&d->b);
		text_start(&d->b, d->a.p, d->a.n, 240);
		detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, ROLE_NORMAL, 2 + (int)strlen(lead),
			    NULL);
	}
}

/* A web search: the term, then each result found (or what it gave). */
static void
detail_websearch(struct detail *d, struct call_facts *v)
{
	const struct factval *refs = call_fact(v, CALL_RESULTS);
	int no = 0;

	detail_field_of(d, "term", v, CALL_QUERY);
	detail_field_value(d, "run time", v, CALL_RUN_S, " s");
	if (!fact_array(refs) || json_size(refs->j, refs->t) == 0) {
		detail_output(d, "output", v);
		return;
	}
	detail_heading(d, "results");
	for (int i = 0, e = refs->t + 1;
	     i < json_size(refs->j, refs->t) && room_for(d, refs->j, refs->t, e);
	     i++, e = json_next(refs->j, e))
		search_result(d, v, refs->j, e, &no, true);
}

/* One question asked (FL_QUESTIONS): its text, then each option (with
 * what it means, when said). */
static void
question_rows(struct detail *d, struct call_facts *v, const struct elem_facts *q, int no)
{
	const struct factval *opts = elem_fact(q, EL_OPTIONS);
	struct elem_facts o;
	char title[32];

	snprintf(title, sizeof title, "question %d", no);
	detail_heading(d, title);
	if (detail_elem(q, EL_TEXT, &d->b))
		detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 2, NULL);
	for (int i = 0, t = fact_array(opts) ? opts->t + 1 : -1;
	     t >= 0 && i < json_size(opts->j, opts->t) && room_for(d, opts->j, opts->t, t);
	     i++, t = json_next(opts->j, t)) {
		if (!call_elem(v, FL_OPTIONS, opts->j, t, &o) || !detail_elem(&o, EL_TEXT, &d->b))
			continue;
		detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 4, GLYPH_PENDING " ");
		if (detail_elem(&o, EL_DETAIL, &d->b) && d->b.n > 0)
			detail_wrap(d, d->b.p, d->b.n, ROLE_DIM, 6, NULL);
	}
	if (fact_true(elem_fact(q, EL_MULTI)))
		detail_wrap(d, "(several may be chosen)", 23, ROLE_DIM, 4, NULL);
}

/* A question to the user: its title, each question with its options, and
 * the answers (a rejection, as print mode gives, is said above it). */
static void
detail_question(struct detail *d, struct call_facts *v)
{
	const struct factval *qs = call_fact(v, CALL_QUESTIONS), *as = call_fact(v, CALL_ANSWERS);
	const struct factval *p = call_fact(v, CALL_PAYLOAD);
	struct elem_facts q;

	detail_field_of(d, "title", v, CALL_TITLE);
	for (int i = 0, t = fact_array(qs) ? qs->t + 1 : -1;
	     t >= 0 && i < json_size(qs->j, qs->t) && room_for(d, qs->j, qs->t, t);
	     i++, t = json_next(qs->j, t))
		if (call_elem(v, FL_QUESTIONS, qs->j, t, &q))
			question_rows(d, v, &q, i + 1);
	if (!v->done || v->result == CR_REJECTED)
		return;
	/* Each question, then its answer under it. */
	if (fact_object(as) && json_size(as->j, as->t) > 0) {
		const struct json *j = as->j;

		detail_heading(d, "answers");
		for (int i = 0, a = as->t + 1; i < json_size(j, as->t) && room_for(d, j, as->t, a);
		     i++, a = json_next(j, a + 1)) {
			buf_reset(&d->b);
			detail_tok(j, a, &d->b);
			detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, ROLE_NORMAL, 2, NULL);
			buf_reset(&d->b);
			if (!detail_tok(j, a + 1, &d->b))
				json_decode(j, a + 1, &d->b);
			detail_wrap(d, d->b.p ? d->b.p : "", d->b.n, ROLE_ASSISTANT, 4,
				    GLYPH_ARROW " ");
		}
	} else if (!detail_output(d, "output", v) && p != NULL && p->form == FACT_TOKEN &&
		   p->t > 0) {
		/* An answer in a shape nobody documented: as it is (unless it
		 * is the whole event, which the output tells). */
		detail_json_section(d, "result", p->j, p->t);
	}
}

/* --- the builders by kind --------------------------------------------------- */

/* Each kind's builder, and whether it draws a rejected call too (a shell's
 * rejection says which command); a kind without one shows its call's
 * arguments and result as they are. */
static const struct {
	void (*build)(struct detail *d, struct call_facts *v);
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
	struct call_facts v;

	detail_begin(d, c, width, raw);
	if (detail_head(d, c, raw, builders[k].build != NULL, builders[k].rejected, &v)) {
		builders[k].build(d, &v);
		if (d->nrow == 0)
			detail_wrap(d, "(nothing to show)", 17, ROLE_DIM, 0, NULL);
	}
	detail_end(d);
}
