/* detail.c: the rows of a tool call's detail, per kind. */
#include "detail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "glyph.h"
#include "json.h"
#include "redact.h"
#include "theme.h"

#define LABEL_W 12                  /* cells of a field's label */

void
detail_init(struct detail *d, struct model *m)
{
	memset(d, 0, sizeof *d);
	d->m = m;
	d->call = NONE;
	d->max = DETAIL_MAX_BYTES;
	d->sj = json_new();
	d->dj = json_new();
	d->xj = json_new();
}

void
detail_free(struct detail *d)
{
	json_free(d->sj);
	json_free(d->dj);
	json_free(d->xj);
	buf_free(&d->text);
	buf_free(&d->taken);
	free(d->sec);
	buf_free(&d->a);
	buf_free(&d->b);
	buf_free(&d->tmp);
	text_rows_free(&d->wrap);
	tool_desc_free(&d->td);
	free(d->row);
	memset(d, 0, sizeof *d);
}

/* What changes the detail of call c: its completion and state, and while
 * it runs, the second on the clock. */
static int64_t
call_stamp(const struct model *m, uint32_t c)
{
	enum call_state st = model_call_state(m, c);
	int64_t v = ((int64_t)m->call[c].done_ev + 1) * 8 + st;

	if (st == CS_RUNNING && m->now_ms != TIME_NONE)
		v += (m->now_ms / 1000) << 36;
	return v;
}

bool
detail_stale(const struct detail *d, int width)
{
	return d->call == NONE || d->call >= d->m->ncall || d->width != width ||
	       d->stamp != call_stamp(d->m, d->call) ||
	       d->redacted != (redact_active() != NULL);
}

/* --- rows --------------------------------------------------------------- */

/* Append a row for bytes [off, off + len) of the text. */
static void
row_add(struct detail *d, size_t off, size_t len, size_t width, size_t lead,
	enum role role, int indent)
{
	struct drow *r;

	ARRAY_RESERVE(d->row, d->cap, d->nrow + 1);
	r = &d->row[d->nrow++];
	r->off = (uint32_t)off;
	r->len = (uint32_t)len;
	r->width = (uint16_t)MIN(width, (size_t)UINT16_MAX);
	r->lead = (uint16_t)MIN(lead, len);
	r->role = (uint8_t)role;
	r->indent = (uint8_t)MIN(indent, 255);
}

/* The last row of a detail that was cut: what it holds at most, and how
 * much more there was. Nothing but blank rows came after the cut. */
static void
cut_row(struct detail *d)
{
	size_t off;

	while (d->nrow > 0 && d->row[d->nrow - 1].len == 0)
		d->nrow--;
	off = d->text.n;
	buf_adds(&d->text, GLYPH_ELLIPSIS " cut: the detail holds at most ");
	fmt_bytes(&d->text, d->max);
	buf_adds(&d->text, "; ");
	fmt_bytes(&d->text, d->more);
	buf_adds(&d->text, " more not shown");
	row_add(d, off, d->text.n - off, text_width(d->text.p + off, d->text.n - off),
		0, ROLE_DIM, 0);
}

/* Room left for text; false once it is spent, the `rest` bytes that
 * came then counted as not shown. */
static bool
room(struct detail *d, size_t rest)
{
	if (d->text.n < d->max)
		return true;
	d->cut = true;
	d->more += rest;
	return false;
}

/* A blank row between sections, never two in a row. */
static void
blank(struct detail *d)
{
	if (d->nrow > 0 && d->row[d->nrow - 1].len > 0)
		row_add(d, d->text.n, 0, 0, 0, ROLE_NORMAL, 0);
}

/* Raw text s[0..n), sanitized and wrapped at the width less indent; the
 * first row starts with `lead` (raw, shown dim) and the rows after it are
 * indented by the lead's width instead. */
static void
wrapped(struct detail *d, const char *s, size_t n, enum role role,
	int indent, const char *lead)
{
	size_t leadn = 0, leadw = 0, w;
	bool cut = false;

	if (!room(d, n))
		return;
	if (n > d->max - d->text.n) {
		size_t keep = d->max - d->text.n;

		/* Cut on a code point, not inside one. */
		while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
			keep--;
		d->more += n - keep;
		n = keep;
		cut = true;
	}
	buf_reset(&d->tmp);
	if (lead != NULL) {
		text_sanitize(&d->tmp, lead, strlen(lead), TEXT_ONELINE);
		leadn = d->tmp.n;
		leadw = text_width(d->tmp.p, leadn);
	}
	text_sanitize(&d->tmp, s, n, 0);
	w = (size_t)MAX(1, d->width - indent - (int)leadw);
	d->wrap.n = 0;
	text_wrap(&d->wrap, d->tmp.p + leadn, d->tmp.n - leadn, w);
	for (size_t i = 0; i < d->wrap.n; i++) {
		const struct text_row *tr = &d->wrap.v[i];
		size_t off = d->text.n;

		if (i == 0) {
			buf_add(&d->text, d->tmp.p, leadn);
			buf_add(&d->text, d->tmp.p + leadn + tr->off, tr->len);
			row_add(d, off, leadn + tr->len, leadw + tr->width, leadn,
				role, indent);
		} else {
			buf_add(&d->text, d->tmp.p + leadn + tr->off, tr->len);
			row_add(d, off, tr->len, tr->width, 0, role,
				indent + (int)leadw);
		}
	}
	if (cut)
		d->cut = true;
}

/* A section title on a row of its own, after a blank row; the row it is
 * on. */
static size_t
heading(struct detail *d, const char *s)
{
	size_t row;

	blank(d);
	row = d->nrow;
	wrapped(d, s, strlen(s), ROLE_TITLE, 0, NULL);
	return row;
}

/* The rows from `row` to the last one are section `name` (a literal),
 * whose raw text is s[0..n): kept as far as the detail's bytes go. */
static struct dsection *
section(struct detail *d, const char *name, size_t row, const char *s,
	size_t n)
{
	struct dsection *sec;

	if (row >= d->nrow)
		return NULL;
	ARRAY_RESERVE(d->sec, d->seccap, d->nsec + 1);
	sec = &d->sec[d->nsec++];
	memset(sec, 0, sizeof *sec);
	sec->name = name;
	sec->row = (uint32_t)row;
	sec->end = (uint32_t)d->nrow;
	n = d->taken.n < DETAIL_MAX_BYTES ? MIN(n, DETAIL_MAX_BYTES - d->taken.n) : 0;
	sec->off = (uint32_t)d->taken.n;
	sec->len = (uint32_t)n;
	buf_add(&d->taken, s, n);
	return sec;
}

const struct dsection *
detail_section_at(const struct detail *d, size_t row)
{
	for (size_t i = d->nsec; i-- > 0;)
		if (d->sec[i].row <= row && row < d->sec[i].end)
			return &d->sec[i];
	return NULL;
}

int64_t
detail_row_line(const struct detail *d, size_t row)
{
	const struct dsection *sec = detail_section_at(d, row);
	int64_t no = 0;

	if (sec == NULL || !sec->numbered)
		return 0;
	/* A wrapped line's first row holds its number. */
	while (row > sec->row && d->row[row].lead == 0)
		row--;
	if (d->row[row].lead > 0) {
		const char *p = d->text.p + d->row[row].off;
		const char *end = p + d->row[row].lead;

		while (p < end && *p == ' ')
			p++;
		while (p < end && *p >= '0' && *p <= '9' && no < INT64_MAX / 10)
			no = no * 10 + (*p++ - '0');
	}
	return no;
}

/* "label       value", the value wrapped under itself. */
static void
field(struct detail *d, const char *label, const char *v, size_t n,
      enum role role)
{
	char lead[64];

	snprintf(lead, sizeof lead, "%-*s", LABEL_W, label);
	wrapped(d, v, n, role, 0, lead);
}

/* A field whose value is formatted. */
static void
fieldf(struct detail *d, const char *label, const char *fmt, ...)
	PRINTF_LIKE(3, 4);

static void
fieldf(struct detail *d, const char *label, const char *fmt, ...)
{
	va_list ap;
	struct buf b = {0};

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	field(d, label, b.p, b.n, ROLE_NORMAL);
	buf_free(&b);
}

/* Text as lines numbered from `first`, each wrapped under itself. */
static void
numbered(struct detail *d, const char *s, size_t n, int64_t first)
{
	size_t lines = 0, digits = 1, i = 0;
	char lead[48];

	if (n == 0) {
		wrapped(d, "(empty)", 7, ROLE_DIM, 2, NULL);
		return;
	}
	for (size_t k = 0; k < n; k++)
		lines += s[k] == '\n';
	lines += s[n - 1] != '\n';
	for (int64_t last = first + (int64_t)lines - 1; last >= 10; last /= 10)
		digits++;
	for (int64_t no = first; i < n && room(d, n - i); no++) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n, len = end - i;

		if (len > 0 && s[i + len - 1] == '\r')
			len--;
		snprintf(lead, sizeof lead, "%*lld " GLYPH_VRULE " ", (int)digits,
			 (long long)no);
		wrapped(d, s + i, len, ROLE_NORMAL, 0, lead);
		i = end + 1;
	}
}

/* A file's text under a heading, numbered from `first`: section `title`. */
static void
numbered_section(struct detail *d, const char *title, const char *s, size_t n,
		 int64_t first)
{
	size_t row = heading(d, title);
	struct dsection *sec;

	numbered(d, s, n, first);
	sec = section(d, title, row, s, n);
	if (sec != NULL)
		sec->numbered = true;
}

/* A unified diff, each line in the role of its sign. */
static void
diff_rows(struct detail *d, const char *s, size_t n)
{
	for (size_t i = 0; i < n && room(d, n - i);) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n, len = end - i;
		enum role role = ROLE_NORMAL;

		if (len >= 3 && (memcmp(s + i, "---", 3) == 0 ||
				 memcmp(s + i, "+++", 3) == 0))
			role = ROLE_DIM;
		else if (len > 0 && s[i] == '+')
			role = ROLE_TOOL_OK;
		else if (len > 0 && s[i] == '-')
			role = ROLE_TOOL_FAILED;
		else if (len > 0 && s[i] == '@')
			role = ROLE_SESSION;
		if (len > 0 && s[i + len - 1] == '\r')
			len--;
		wrapped(d, s + i, len, role, 0, NULL);
		i = end + 1;
	}
}

/* Token t of j as indented JSON. */
static void
json_rows(struct detail *d, const struct json *j, int t)
{
	size_t rn;
	const char *raw = json_raw(j, t, &rn);

	if (rn > DETAIL_MAX_BYTES / 4) {
		/* Indenting would only make it larger than what is shown. */
		wrapped(d, "(too large to indent: as it is)", 31, ROLE_DIM, 2, NULL);
		wrapped(d, raw, rn, ROLE_NORMAL, 2, NULL);
		return;
	}
	buf_reset(&d->b);
	json_pretty(j, t, 0, &d->b);
	wrapped(d, d->b.p ? d->b.p : "", d->b.n, ROLE_NORMAL, 2, NULL);
}

/* Token t of j as indented JSON under a heading: section `title`. */
static void
json_section(struct detail *d, const char *title, const struct json *j, int t)
{
	size_t row = heading(d, title), rn;
	const char *raw = json_raw(j, t, &rn);

	json_rows(d, j, t);
	if (rn > DETAIL_MAX_BYTES / 4)
		section(d, title, row, raw, rn);
	else
		section(d, title, row, d->b.p ? d->b.p : "", d->b.n);
}

/* --- reading the events --------------------------------------------------- */

/* The decoded string at path under obj into out (reset); false when it
 * is absent or not a string. */
static bool
str_at(const struct json *j, int obj, const char *path, struct buf *out)
{
	const char *raw;
	size_t rn;
	int t;

	buf_reset(out);
	if (j == NULL || obj < 0)
		return false;
	t = json_path(j, obj, path);
	if (t < 0 || json_type(j, t) != JSON_STRING)
		return false;
	raw = json_raw(j, t, &rn);
	/* More than the detail shows is not decoded at all; the end says
	 * so. */
	json_unescape(out, raw, MIN(rn, (size_t)DETAIL_MAX_BYTES));
	if (rn > DETAIL_MAX_BYTES)
		buf_addf(out, "\n" GLYPH_ELLIPSIS " cut: %zu more bytes of JSON not shown",
			 rn - DETAIL_MAX_BYTES);
	return true;
}

/* A field from a string at path under obj, when present and not empty. */
static bool
field_at(struct detail *d, const char *label, const struct json *j, int obj,
	 const char *path)
{
	if (!str_at(j, obj, path, &d->a) || d->a.n == 0)
		return false;
	field(d, label, d->a.p, d->a.n, ROLE_NORMAL);
	return true;
}

/* The same, the field a section of its own (its label the name). */
static bool
field_taken(struct detail *d, const char *label, const struct json *j, int obj,
	    const char *path)
{
	size_t row = d->nrow;

	if (!field_at(d, label, j, obj, path))
		return false;
	section(d, label, row, d->a.p, d->a.n);
	return true;
}

/* A field from a primitive (number, bool) or string at path. */
static bool
field_prim(struct detail *d, const char *label, const struct json *j, int obj,
	   const char *path, const char *unit)
{
	int t;

	if (j == NULL || obj < 0 || (t = json_path(j, obj, path)) < 0 ||
	    json_type(j, t) == JSON_OBJECT || json_type(j, t) == JSON_ARRAY)
		return false;
	buf_reset(&d->a);
	json_decode(j, t, &d->a);
	/* null says nothing; false is what a flag says when all is as usual. */
	if (d->a.n == 0 || strcmp(d->a.p, "null") == 0 ||
	    strcmp(d->a.p, "false") == 0)
		return false;
	if (unit != NULL)
		buf_adds(&d->a, unit);
	field(d, label, d->a.p, d->a.n, ROLE_NORMAL);
	return true;
}

/* A section of text under a heading, when the string is there. */
static bool
section_text(struct detail *d, const char *title, const struct json *j,
	     int obj, const char *path, bool skip_empty)
{
	size_t row;

	if (!str_at(j, obj, path, &d->b) || (skip_empty && d->b.n == 0))
		return false;
	row = heading(d, title);
	if (d->b.n == 0)
		wrapped(d, "(empty)", 7, ROLE_DIM, 2, NULL);
	else
		wrapped(d, d->b.p, d->b.n, ROLE_NORMAL, 0, NULL);
	section(d, title, row, d->b.p, d->b.n);
	return true;
}

/* The result variant is `name` (success, failure, rejected, error). */
static bool
variant_is(const struct callview *v, const char *name)
{
	return v->varkey >= 0 && json_streq(v->rj, v->varkey, name);
}

/* --- the kinds ------------------------------------------------------------ */

/* A shell: command, directory, exit code, timing, stdout and stderr. */
void
detail_shell(struct detail *d, const struct callview *v)
{
	const struct json *rj = v->rj;
	int r = v->var;
	bool any;

	if (!field_taken(d, "command", v->aj, v->args, "command"))
		field_taken(d, "command", rj, r, "command");
	if (!field_at(d, "directory", v->aj, v->args, "workingDirectory"))
		field_at(d, "directory", rj, r, "workingDirectory");
	if (!field_at(d, "description", v->aj, v->holder, "description"))
		field_at(d, "description", v->aj, v->args, "description");
	field_prim(d, "exit code", rj, r, "exitCode", NULL);
	field_at(d, "signal", rj, r, "signal");
	field_prim(d, "aborted", rj, r, "aborted", NULL);
	field_prim(d, "run time", rj, r, "executionTime", " ms");
	field_prim(d, "local time", rj, r, "localExecutionTimeMs", " ms");
	field_prim(d, "timeout", v->aj, v->args, "timeout", " ms");
	field_prim(d, "background", v->aj, v->args, "isBackground", NULL);
	field_at(d, "shell id", rj, r, "shellId");
	field_prim(d, "pid", rj, r, "pid", NULL);
	field_at(d, "why", rj, r, "backgroundReason");
	if (rj == NULL || r < 0)
		return;
	any = section_text(d, "stdout", rj, r, "stdout", true);
	any |= section_text(d, "stderr", rj, r, "stderr", true);
	/* The two streams together, when that is all there is. */
	if (!any)
		any = section_text(d, "output", rj, r, "interleavedOutput", true);
	if (!any && !variant_is(v, "rejected")) {
		blank(d);
		wrapped(d, "(no output)", 11, ROLE_DIM, 0, NULL);
	}
}

/* A read: path, range and the content with its line numbers. */
void
detail_read(struct detail *d, const struct callview *v)
{
	const struct json *rj = v->rj;
	int r = v->var;
	int64_t first = 1, a, b;

	if (!field_taken(d, "path", v->aj, v->args, "path"))
		field_taken(d, "path", rj, r, "path");
	if (json_int_at(rj, r, "readRange.startLine", &a)) {
		first = a;
		if (json_int_at(rj, r, "readRange.endLine", &b))
			fieldf(d, "lines", "%lld-%lld", (long long)a, (long long)b);
	} else if (json_int_at(v->aj, v->args, "offset", &a) && a > 0) {
		first = a;
	}
	field_prim(d, "total lines", rj, r, "totalLines", NULL);
	field_prim(d, "file size", rj, r, "fileSize", " bytes");
	field_prim(d, "truncated", rj, r, "exceededLimit", NULL);
	if (str_at(rj, r, "content", &d->b))
		numbered_section(d, "content", d->b.p, d->b.n, first);
}

/* A unified diff under a heading: section `name`. */
static void
diff_heading(struct detail *d, const char *title, const char *name,
	     const char *s, size_t n)
{
	size_t row = heading(d, title);

	diff_rows(d, s, n);
	section(d, name, row, s, n);
}

/* old and new text as a diff under a heading. */
static void
diff_section(struct detail *d, const char *title, const char *a, size_t na,
	     const char *b, size_t nb)
{
	struct buf out = {0};

	if (diff_unified(a, na, b, nb, 3, &out) == 0) {
		heading(d, title);
		wrapped(d, "(no change)", 11, ROLE_DIM, 2, NULL);
	} else {
		diff_heading(d, title, "diff", out.p, out.n);
	}
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

	if (!field_taken(d, "path", v->aj, v->args, "path"))
		field_taken(d, "path", rj, r, "path");
	if (json_int_at(rj, r, "linesAdded", &add) && json_int_at(rj, r, "linesRemoved", &del))
		fieldf(d, "lines", "+%lld " GLYPH_MINUS "%lld", (long long)add,
		       (long long)del);
	field_at(d, "message", rj, r, "message");
	if (str_at(rj, r, "diffString", &d->b) && d->b.n > 0) {
		diff_heading(d, "diff", "diff", d->b.p, d->b.n);
	} else if (str_at(rj, r, "beforeFullFileContent", &before) &&
		   str_at(rj, r, "afterFullFileContent", &d->b)) {
		diff_section(d, "diff (computed from the file before and after)",
			     before.p, before.n, d->b.p, d->b.n);
	} else if (str_at(rj, r, "afterFullFileContent", &d->b) ||
		   str_at(v->aj, v->args, "streamContent", &d->b)) {
		numbered_section(d, "new content", d->b.p, d->b.n, 1);
	} else if (str_at(v->aj, v->args, "strReplace.oldText", &before) &&
		   str_at(v->aj, v->args, "strReplace.newText", &d->b)) {
		diff_section(d, "replace", before.p, before.n, d->b.p, d->b.n);
	} else if (str_at(v->aj, v->args, "applyPatch.patchContent", &d->b)) {
		diff_heading(d, "patch", "patch", d->b.p, d->b.n);
	} else if (v->args >= 0) {
		json_section(d, "arguments", v->aj, v->args);
	}
	buf_free(&before);
}

/* A write (the old shape): the text written, numbered. */
void
detail_write(struct detail *d, const struct callview *v)
{
	if (!field_taken(d, "path", v->aj, v->args, "path"))
		field_taken(d, "path", v->rj, v->var, "path");
	field_prim(d, "lines", v->rj, v->var, "linesCreated", NULL);
	field_prim(d, "file size", v->rj, v->var, "fileSize", " bytes");
	if (str_at(v->aj, v->args, "fileText", &d->b)) {
		numbered_section(d, "content", d->b.p, d->b.n, 1);
	}
}

/* A delete: the path and what the file held. */
void
detail_delete(struct detail *d, const struct callview *v)
{
	if (!field_taken(d, "path", v->aj, v->args, "path"))
		field_taken(d, "path", v->rj, v->var, "path");
	field_prim(d, "file size", v->rj, v->var, "fileSize", " bytes");
	if (str_at(v->rj, v->var, "prevContent", &d->b)) {
		numbered_section(d, "content before", d->b.p, d->b.n, 1);
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
	size_t row = d->nrow;
	struct buf file = {0}, text = {0};
	struct dsection *sec;

	if (str_at(j, f, "file", &file))
		row = heading(d, file.p);
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
		snprintf(lead, sizeof lead, "%*lld%c ", digits, (long long)no,
			 ctx ? '-' : ':');
		str_at(j, e, "content", &d->a);
		wrapped(d, d->a.p ? d->a.p : "", d->a.n,
			ctx ? ROLE_DIM : ROLE_NORMAL, 2, lead);
		buf_add(&text, d->a.p, d->a.n);
		buf_addc(&text, '\n');
	}
	/* The matches' lines, and the file they are in (for e). */
	sec = section(d, "matches", row, text.p ? text.p : "", text.n);
	if (sec != NULL) {
		sec->numbered = true;
		sec->file_off = (uint32_t)d->taken.n;
		buf_add(&d->taken, file.p, file.n);
		sec->file_len = (uint32_t)file.n;
	}
	buf_free(&file);
	buf_free(&text);
}

/* Grep: the pattern, then the matches grouped by file. */
void
detail_grep(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj;
	int wr, n, k;

	if (!field_taken(d, "pattern", v->aj, v->args, "pattern"))
		field_taken(d, "pattern", j, v->var, "pattern");
	field_at(d, "path", v->aj, v->args, "path");
	field_at(d, "glob", v->aj, v->args, "glob");
	field_prim(d, "ignore case", v->aj, v->args, "caseInsensitive", NULL);
	field_at(d, "mode", j, v->var, "outputMode");
	if (j == NULL || v->var < 0)
		return;
	wr = json_get(j, v->var, "workspaceResults");
	if (wr < 0 || json_type(j, wr) != JSON_OBJECT) {
		json_section(d, "result", j, v->result);
		return;
	}
	n = json_size(j, wr);
	k = wr + 1;
	for (int i = 0; i < n; i++, k = json_next(j, k + 1)) {
		int content = json_get(j, k + 1, "content"), ms, f;

		if (n > 1 || content < 0) {
			buf_reset(&d->b);
			json_decode(j, k, &d->b);
			heading(d, "in");
			field(d, "root", d->b.p, d->b.n, ROLE_NORMAL);
		}
		if (content < 0 || json_type(j, content) != JSON_OBJECT) {
			json_rows(d, j, k + 1);
			continue;
		}
		field_prim(d, "matched", j, content, "totalMatchedLines", " lines");
		field_prim(d, "truncated", j, content, "clientTruncated", NULL);
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

	field_at(d, "tool", v->aj, v->args, "name");
	field_at(d, "server", v->aj, v->args, "providerIdentifier");
	field_at(d, "tool name", v->aj, v->args, "toolName");
	field_at(d, "description", v->aj, v->holder, "description");
	field_prim(d, "is error", j, v->var, "isError", NULL);
	if (v->aj != NULL && v->args >= 0 &&
	    (a = json_get(v->aj, v->args, "args")) >= 0) {
		json_section(d, "arguments", v->aj, a);
	}
	if (j == NULL || v->var < 0)
		return;
	content = json_get(j, v->var, "content");
	if (content < 0 || json_type(j, content) != JSON_ARRAY)
		return;
	heading(d, "content");
	for (int i = 0, e = content + 1; i < json_size(j, content);
	     i++, e = json_next(j, e)) {
		if (json_type(j, e) == JSON_OBJECT && str_at(j, e, "text.text", &d->b))
			wrapped(d, d->b.p, d->b.n, ROLE_NORMAL, 2, NULL);
		else
			json_rows(d, j, e);
	}
}

/* getMcpTools: the tool's schema, indented. */
void
detail_mcp_tools(struct detail *d, const struct callview *v)
{
	field_at(d, "server", v->aj, v->args, "server");
	field_at(d, "tool name", v->aj, v->args, "toolName");
	if (!str_at(v->rj, v->var, "content", &d->b))
		return;
	heading(d, "schema");
	/* The schema comes as a string of JSON: shown indented when it is
	 * an object, as it is otherwise. */
	if (json_parse(d->xj, d->b.p, d->b.n) == JSON_OK) {
		json_rows(d, d->xj, 0);
	} else {
		buf_reset(&d->a);
		buf_add(&d->a, d->b.p, d->b.n);
		wrapped(d, d->a.p, d->a.n, ROLE_NORMAL, 2, NULL);
	}
}

/* A subagent: its prompt, then each of its steps. */
void
detail_task(struct detail *d, const struct callview *v)
{
	const struct json *j = v->rj;
	int steps;

	field_at(d, "description", v->aj, v->args, "description");
	field_at(d, "model", v->aj, v->args, "model");
	field_at(d, "agent", v->aj, v->args, "agentId");
	field_prim(d, "run time", j, v->var, "durationMs", " ms");
	field_prim(d, "background", j, v->var, "isBackground", NULL);
	section_text(d, "prompt", v->aj, v->args, "prompt", false);
	if (j == NULL || v->var < 0)
		return;
	steps = json_get(j, v->var, "conversationSteps");
	if (steps < 0 || json_type(j, steps) != JSON_ARRAY)
		return;
	for (int i = 0, e = steps + 1; i < json_size(j, steps);
	     i++, e = json_next(j, e)) {
		char title[32];

		snprintf(title, sizeof title, "step %d", i + 1);
		heading(d, title);
		if (json_type(j, e) == JSON_OBJECT &&
		    str_at(j, e, "assistantMessage.text", &d->b))
			wrapped(d, d->b.p, d->b.n, ROLE_ASSISTANT, 2, NULL);
		else
			json_rows(d, j, e);
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
	field_prim(d, "merge", v->aj, v->args, "merge", NULL);
	if (t < 0 || json_type(j, t) != JSON_ARRAY)
		return;
	heading(d, "todos");
	for (int i = 0, e = t + 1; i < json_size(j, t); i++, e = json_next(j, e)) {
		enum role role;
		const char *g;

		if (json_type(j, e) != JSON_OBJECT)
			continue;
		g = todo_glyph(j, json_get(j, e, "status"), &role);
		str_at(j, e, "content", &d->b);
		wrapped(d, d->b.p ? d->b.p : "", d->b.n, role, 2, g);
	}
}

/* Arguments and result as indented JSON, for every other kind. */
static void
detail_generic(struct detail *d, const struct callview *v)
{
	if (v->args >= 0)
		json_section(d, "arguments", v->aj, v->args);
	if (v->rj != NULL && v->result >= 0)
		json_section(d, "result", v->rj, v->result);
}

/* --- the whole -------------------------------------------------------- */

/* The lines every call has: its line, kind, state, times, id. */
static void
header(struct detail *d, uint32_t c, const struct callview *v)
{
	struct model *m = d->m;
	const struct call *call = &m->call[c];
	enum call_state st = model_call_state(m, c);
	int64_t dur = model_call_duration(m, c);
	static const enum role roles[CS_NSTATES] = {
		[CS_RUNNING] = ROLE_RUNNING, [CS_OK] = ROLE_TOOL_OK,
		[CS_FAILED] = ROLE_TOOL_FAILED, [CS_REJECTED] = ROLE_TOOL_REJECTED,
		[CS_ERROR] = ROLE_TOOL_ERROR, [CS_ORPHANED] = ROLE_TOOL_ORPHANED,
	};
	struct buf line = {0};

	tool_describe_view(m, c, v, &d->td);
	buf_adds(&line, tool_state_glyph(st));
	buf_addc(&line, ' ');
	tool_line((enum tool_kind)call->kind, &d->td, &line);
	wrapped(d, line.p, line.n, roles[st], 0, NULL);
	blank(d);
	buf_reset(&line);
	buf_adds(&line, tool_kind_name((enum tool_kind)call->kind));
	if (d->td.key.n > 0)
		buf_addf(&line, " (%s)", d->td.key.p);
	field(d, "kind", line.p, line.n, ROLE_NORMAL);
	buf_reset(&line);
	buf_adds(&line, model_call_state_name(st));
	if (call->result == CR_OTHER && v->varkey >= 0) {
		buf_adds(&line, ": result.");
		json_decode(v->rj, v->varkey, &line);
	}
	if (!(call->flags & CF_STARTED))
		buf_adds(&line, " (no started event)");
	field(d, "state", line.p, line.n, roles[st]);
	if (call->start_ms != TIME_NONE && m->ses[call->session].start_ms != TIME_NONE) {
		buf_reset(&line);
		buf_addc(&line, '+');
		fmt_clock(&line, call->start_ms - m->ses[call->session].start_ms);
		buf_adds(&line, " into the session");
		field(d, "started", line.p, line.n, ROLE_NORMAL);
	}
	if (dur != TIME_NONE) {
		buf_reset(&line);
		fmt_duration(&line, dur);
		if (st == CS_RUNNING)
			buf_adds(&line, ", running");
		field(d, "duration", line.p, line.n, ROLE_NORMAL);
	}
	if ((v->rj != NULL && str_at(v->rj, 0, "call_id", &d->a)) ||
	    (v->aj != NULL && str_at(v->aj, 0, "call_id", &d->a))) {
		/* IDs hold newlines (src/FORMAT.md §1): one line, with ↵. */
		buf_reset(&line);
		text_sanitize(&line, d->a.p, d->a.n, TEXT_ONELINE);
		field(d, "call id", line.p, line.n, ROLE_DIM);
	}
	buf_free(&line);
}

/* Why a call did not succeed, from its result variant. */
static void
outcome(struct detail *d, const struct callview *v)
{
	if (v->var < 0)
		return;
	if (variant_is(v, "rejected")) {
		if (!str_at(v->rj, v->var, "reason", &d->b))
			buf_reset(&d->b);
		heading(d, "rejected");
		if (d->b.n == 0) {
			static const char why[] = "(none given: without --force, "
						  "shell commands are rejected)";

			field(d, "reason", why, sizeof why - 1, ROLE_DIM);
		} else {
			field(d, "reason", d->b.p, d->b.n, ROLE_TOOL_REJECTED);
		}
		field_prim(d, "read-only", v->rj, v->var, "isReadonly", NULL);
	} else if (variant_is(v, "error") || variant_is(v, "failure")) {
		if (str_at(v->rj, v->var, "errorMessage", &d->b) ||
		    str_at(v->rj, v->var, "message", &d->b))
			field(d, "error", d->b.p, d->b.n, ROLE_TOOL_FAILED);
	}
}

/* Both events, indented, with their line numbers. */
static void
raw_rows(struct detail *d, uint32_t c)
{
	struct model *m = d->m;
	const struct call *call = &m->call[c];
	const uint32_t evs[2] = {call->start_ev,
				 model_seen(m, call->done_ev) ? call->done_ev : NONE};
	static const char *const names[2] = {"started", "completed"};
	static const char *const sections[2] = {"started event",
						"completed event"};
	char title[96];
	size_t row, n;
	const char *p;

	for (int i = 0; i < 2; i++) {
		struct json *j = i == 0 ? d->sj : d->dj;

		if (evs[i] == NONE) {
			snprintf(title, sizeof title, "no %s event", names[i]);
			heading(d, title);
			continue;
		}
		snprintf(title, sizeof title, "%s event, line %llu", names[i],
			 (unsigned long long)model_event_lineno(m, evs[i]));
		row = heading(d, title);
		p = model_line(m, evs[i], &n);
		if (model_parse(m, evs[i], j))
			json_rows(d, j, 0);
		else
			wrapped(d, p, n, ROLE_NORMAL, 2, NULL);
		/* What is taken is the line as the agent wrote it. */
		section(d, sections[i], row, p, n);
	}
}

/* The rows of call c: its header, then both events or its kind's own. */
static void
build_rows(struct detail *d, uint32_t c, bool raw)
{
	enum tool_kind kind = (enum tool_kind)d->m->call[c].kind;
	tool_detail_fn *build = tool_kind_detail(kind);
	struct callview v;

	tool_load(d->m, c, d->sj, d->dj, &v);
	header(d, c, &v);
	if (raw) {
		raw_rows(d, c);
		return;
	}
	outcome(d, &v);
	/* A call that succeeded or failed, or has no result yet, is shown by
	 * its kind's builder (a shell's also when rejected). Anything else:
	 * its arguments and its result as they are. */
	if (build == NULL ||
	    !(v.rj == NULL || variant_is(&v, "success") ||
	      variant_is(&v, "failure") ||
	      (tool_detail_rejected(kind) && variant_is(&v, "rejected")))) {
		detail_generic(d, &v);
		return;
	}
	build(d, &v);
	if (d->nrow == 0)
		wrapped(d, "(nothing to show)", 17, ROLE_DIM, 0, NULL);
}

void
detail_build(struct detail *d, uint32_t c, int width, bool raw)
{
	d->call = c;
	d->width = MAX(width, 8);
	d->raw = raw;
	d->stamp = call_stamp(d->m, c);
	d->redacted = redact_active() != NULL;
	d->cut = false;
	d->more = 0;
	d->nrow = 0;
	d->nsec = 0;
	buf_reset(&d->text);
	buf_reset(&d->taken);
	build_rows(d, c, raw);
	if (d->cut)
		cut_row(d);
}
