/* detail.c: the rows of a tool call's detail: the lines every call has,
 * its outcome, the raw events, and the rows its kind's builder writes
 * (detail_kind.c). */
#include "detail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail_impl.h"
#include "glyph.h"
#include "json.h"
#include "redact.h"
#include "theme.h"

#define LABEL_W 12 /* cells of a field's label */

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
	uint64_t v = ((uint64_t)m->call[c].done_ev + 1) * 8 + st;

	/* Any clock a stream gives: a stamp, not a number (it wraps). */
	if (st == CS_RUNNING && m->now_ms != TIME_NONE)
		v += (uint64_t)(m->now_ms / 1000) << 36;
	return (int64_t)v;
}

bool
detail_stale(const struct detail *d, int width)
{
	return d->call == NONE || d->call >= d->m->ncall || d->width != width ||
	       d->stamp != call_stamp(d->m, d->call) || d->redacted != (redact_active() != NULL);
}

/* --- rows --------------------------------------------------------------- */

/* Append a row for bytes [off, off + len) of the text. */
static struct drow *
row_add(struct detail *d, size_t off, size_t len, size_t width, size_t lead, enum role role,
	int indent)
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
	r->flags = (uint8_t)((d->quiet > 0 ? DROW_QUIET : 0) |
			     (d->field && lead > 0 ? DROW_LABEL : 0));
	return r;
}

/* The last row of a detail that was cut: what it holds at most, and how
 * much more there was. Nothing but blank rows came after the cut. */
static void
cut_row(struct detail *d)
{
	size_t off;

	if (d->plain)
		return;
	while (d->nrow > 0 && d->row[d->nrow - 1].len == 0)
		d->nrow--;
	d->quiet++;
	off = d->text.n;
	buf_adds(&d->text, GLYPH_ELLIPSIS " cut: the detail holds at most ");
	fmt_bytes(&d->text, d->max);
	buf_adds(&d->text, "; ");
	fmt_bytes(&d->text, d->more);
	buf_adds(&d->text, " more not shown");
	row_add(d, off, d->text.n - off, text_width(d->text.p + off, d->text.n - off), 0, ROLE_DIM,
		0);
	d->quiet--;
}

/* Room left for text; false once it is spent, the `rest` bytes that
 * came then counted as not shown. */
bool
detail_room(struct detail *d, size_t rest)
{
	if (d->text.n < d->max)
		return true;
	d->cut = true;
	d->more += rest;
	return false;
}

/* A blank row between sections, never two in a row. */
void
detail_blank(struct detail *d)
{
	if (!d->plain && d->nrow > 0 && d->row[d->nrow - 1].len > 0)
		row_add(d, d->text.n, 0, 0, 0, ROLE_NORMAL, 0);
}

/* What detail_wrap does for a search (d->plain): the text as it is, a
 * line, unless it is quiet. */
static void
plain_wrap(struct detail *d, const char *s, size_t n)
{
	if (d->quiet > 0 || !detail_room(d, n))
		return;
	if (n > d->max - d->text.n) {
		size_t keep = redact_cut(s, n, d->max - d->text.n);

		d->more += n - keep;
		n = keep;
		d->cut = true;
	}
	buf_add(&d->text, s, n);
	buf_addc(&d->text, '\n');
}

/* Raw text s[0..n), sanitized and wrapped at the width less indent; the
 * first row starts with `lead` (raw, shown dim) and the rows after it are
 * indented by the lead's width instead. */
void
detail_wrap(struct detail *d, const char *s, size_t n, enum role role, int indent, const char *lead)
{
	size_t leadn = 0, leadw = 0, w, end = 0;
	bool cut = false;

	if (d->plain) {
		plain_wrap(d, s, n);
		return;
	}
	if (!detail_room(d, n))
		return;
	if (n > d->max - d->text.n) {
		/* On a code point, and never through a secret. */
		size_t keep = redact_cut(s, n, d->max - d->text.n);

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
		const char *src = d->tmp.p + leadn;
		size_t off = d->text.n;
		bool cont = i > 0 && memchr(src + end, '\n', tr->off - end) == NULL;

		if (cont) {
			/* The spaces the break dropped: kept between the rows,
			 * not drawn, so that the line reads whole. */
			buf_add(&d->text, src + end, tr->off - end);
			off = d->text.n;
		}
		end = tr->off + tr->len;
		if (i == 0) {
			buf_add(&d->text, d->tmp.p, leadn);
			buf_add(&d->text, src + tr->off, tr->len);
			row_add(d, off, leadn + tr->len, leadw + tr->width, leadn, role, indent);
		} else {
			buf_add(&d->text, src + tr->off, tr->len);
			row_add(d, off, tr->len, tr->width, 0, role, indent + (int)leadw)->flags |=
				cont ? DROW_CONT : 0;
		}
	}
	if (cut)
		d->cut = true;
}

/* A section title on a row of its own, after a blank row; the row it is
 * on. */
size_t
detail_heading(struct detail *d, const char *s)
{
	size_t row;

	detail_blank(d);
	row = d->nrow;
	d->quiet++;
	detail_wrap(d, s, strlen(s), ROLE_TITLE, 0, NULL);
	d->quiet--;
	return row;
}

/* The rows from `row` to the last one are section `name` (a literal),
 * whose raw text is s[0..n): kept as far as the detail's bytes go. */
struct dsection *
detail_take(struct detail *d, const char *name, size_t row, const char *s, size_t n)
{
	struct dsection *sec;

	if (d->plain || row >= d->nrow)
		return NULL;
	ARRAY_RESERVE(d->sec, d->seccap, d->nsec + 1);
	sec = &d->sec[d->nsec++];
	memset(sec, 0, sizeof *sec);
	sec->name = name;
	sec->row = (uint32_t)row;
	sec->end = (uint32_t)d->nrow;
	n = d->taken.n < DETAIL_MAX_BYTES ? redact_cut(s, n, DETAIL_MAX_BYTES - d->taken.n) : 0;
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

bool
detail_line(const struct detail *d, size_t row, size_t *first, size_t *end, size_t *a, size_t *b)
{
	size_t f = row, e = row + 1;

	if (row >= d->nrow || (d->row[row].flags & DROW_QUIET))
		return false;
	while (f > 0 && (d->row[f].flags & DROW_CONT))
		f--;
	while (e < d->nrow && (d->row[e].flags & DROW_CONT))
		e++;
	*first = f;
	*end = e;
	*a = d->row[f].off + d->row[f].lead;
	*b = d->row[e - 1].off + d->row[e - 1].len;
	return true;
}

const char *
detail_part(const struct detail *d, size_t row, struct buf *scratch)
{
	const struct dsection *sec = detail_section_at(d, row);
	size_t f, e, a, b;

	if (sec != NULL)
		return sec->name;
	if (!detail_line(d, row, &f, &e, &a, &b) || !(d->row[f].flags & DROW_LABEL))
		return NULL;
	/* A field's label, without the spaces that pad it. */
	buf_reset(scratch);
	buf_add(scratch, d->text.p + d->row[f].off, d->row[f].lead);
	while (scratch->n > 0 && scratch->p[scratch->n - 1] == ' ')
		scratch->p[--scratch->n] = '\0';
	return scratch->n > 0 ? scratch->p : NULL;
}

/* "label       value", the value wrapped under itself. */
void
detail_field(struct detail *d, const char *label, const char *v, size_t n, enum role role)
{
	char lead[64];

	snprintf(lead, sizeof lead, "%-*s", LABEL_W, label);
	d->field = true;
	detail_wrap(d, v, n, role, 0, lead);
	d->field = false;
}

/* A field whose value is formatted. */
void
detail_fieldf(struct detail *d, const char *label, const char *fmt, ...)
{
	va_list ap;
	struct buf b = {0};

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	detail_field(d, label, b.p, b.n, ROLE_NORMAL);
	buf_free(&b);
}

/* Text as lines numbered from `first`, each wrapped under itself. */
void
detail_numbered(struct detail *d, const char *s, size_t n, int64_t first)
{
	size_t lines = 0, digits = 1, i = 0;
	char lead[48];

	if (n == 0) {
		detail_wrap(d, "(empty)", 7, ROLE_DIM, 2, NULL);
		return;
	}
	for (size_t k = 0; k < n; k++)
		lines += s[k] == '\n';
	lines += s[n - 1] != '\n';
	for (int64_t last = first + (int64_t)lines - 1; last >= 10; last /= 10)
		digits++;
	for (int64_t no = first; i < n && detail_room(d, n - i); no++) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n, len = end - i;

		if (len > 0 && s[i + len - 1] == '\r')
			len--;
		snprintf(lead, sizeof lead, "%*lld " GLYPH_VRULE " ", (int)digits, (long long)no);
		detail_wrap(d, s + i, len, ROLE_NORMAL, 0, lead);
		i = end + 1;
	}
}

/* A file's text under a heading, numbered from `first`: section `title`. */
void
detail_numbered_section(struct detail *d, const char *title, const char *s, size_t n, int64_t first)
{
	size_t row = detail_heading(d, title);
	struct dsection *sec;

	detail_numbered(d, s, n, first);
	sec = detail_take(d, title, row, s, n);
	if (sec != NULL)
		sec->numbered = true;
}

void
detail_diff_path(struct detail *d, const char *p, size_t n, struct buf *out)
{
	struct buf cwd = {0};

	if (d->call < d->m->ncall)
		model_session_cwd(d->m, d->m->call[d->call].session, &cwd);
	if (n > 0 && p[0] == '/' && cwd.n > 0)
		text_path_relative(out, p, n, cwd.p, cwd.n);
	else
		buf_add(out, p, n);
	buf_free(&cwd);
}

/* A unified diff, each line in the role of its sign; a header's path (an
 * absolute one after a/ or b/: Cursor writes "a//home/...") as git writes
 * it, relative to the session's folder (detail_diff_path). */
void
detail_diff(struct detail *d, const char *s, size_t n)
{
	for (size_t i = 0; i < n && detail_room(d, n - i);) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n, len = end - i;
		enum role role = ROLE_NORMAL;

		if (len >= 3 && (memcmp(s + i, "---", 3) == 0 || memcmp(s + i, "+++", 3) == 0))
			role = ROLE_DIM;
		else if (len > 0 && s[i] == '+')
			role = ROLE_TOOL_OK;
		else if (len > 0 && s[i] == '-')
			role = ROLE_TOOL_FAILED;
		else if (len > 0 && s[i] == '@')
			role = ROLE_SESSION;
		if (len > 0 && s[i + len - 1] == '\r')
			len--;
		if (len > 7 &&
		    (memcmp(s + i, "--- a//", 7) == 0 || memcmp(s + i, "+++ b//", 7) == 0)) {
			struct buf line = {0};

			buf_reset(&d->a);
			detail_diff_path(d, s + i + 6, len - 6, &d->a);
			buf_add(&line, s + i, 6);
			buf_add(&line, d->a.p[0] == '/' ? d->a.p + 1 : d->a.p,
				d->a.n - (d->a.p[0] == '/'));
			detail_wrap(d, line.p, line.n, role, 0, NULL);
			buf_free(&line);
		} else {
			detail_wrap(d, s + i, len, role, 0, NULL);
		}
		i = end + 1;
	}
}

/* A unified diff under a heading: section `name`. */
void
detail_diff_section(struct detail *d, const char *title, const char *name, const char *s, size_t n)
{
	size_t row = detail_heading(d, title);

	detail_diff(d, s, n);
	detail_take(d, name, row, s, n);
}

/* Indented text s[0..n) (JSON as json_pretty writes it) at `indent`
 * cells: each line wrapped at its own indentation, so that the rows of a
 * long line go on where it starts, not at the margin. */
static void
detail_indented(struct detail *d, const char *s, size_t n, int indent)
{
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl != NULL ? (size_t)(nl - s) : n, at = i;

		while (at < end && s[at] == ' ' && (int)(at - i) < d->width / 2)
			at++;
		detail_wrap(d, s + at, end - at, ROLE_NORMAL, indent + (int)(at - i), NULL);
		i = end + 1;
	}
}

/* Token t of j as indented JSON. */
void
detail_json(struct detail *d, const struct json *j, int t)
{
	size_t rn;
	const char *raw = json_raw(j, t, &rn);

	if (rn > DETAIL_MAX_BYTES / 4) {
		/* Indenting would only make it larger than what is shown. */
		detail_wrap(d, "(too large to indent: as it is)", 31, ROLE_DIM, 2, NULL);
		detail_wrap(d, raw, rn, ROLE_NORMAL, 2, NULL);
		return;
	}
	buf_reset(&d->b);
	json_pretty(j, t, 0, &d->b);
	detail_indented(d, d->b.p ? d->b.p : "", d->b.n, 2);
}

/* Token t of j as indented JSON under a heading: section `title`. */
void
detail_json_section(struct detail *d, const char *title, const struct json *j, int t)
{
	size_t row = detail_heading(d, title), rn;
	const char *raw = json_raw(j, t, &rn);

	detail_json(d, j, t);
	if (rn > DETAIL_MAX_BYTES / 4)
		detail_take(d, title, row, raw, rn);
	else
		detail_take(d, title, row, d->b.p ? d->b.p : "", d->b.n);
}

/* --- reading the events --------------------------------------------------- */

/* Append string token t decoded to out; false when t is not a string. */
bool
detail_tok(const struct json *j, int t, struct buf *out)
{
	const char *raw;
	size_t rn, k;

	if (json_type(j, t) != JSON_STRING)
		return false;
	raw = json_raw(j, t, &rn);
	/* More than the detail shows is not decoded at all; the end says
	 * so. The cut goes through no secret, escaped or not. */
	k = rn > DETAIL_MAX_BYTES ? redact_cut(raw, rn, DETAIL_MAX_BYTES) : rn;
	json_unescape(out, raw, k);
	if (k < rn)
		buf_addf(out, "\n" GLYPH_ELLIPSIS " cut: %zu more bytes of JSON not shown", rn - k);
	return true;
}

bool
detail_fact_tok(const struct factval *f, struct buf *out)
{
	if (f != NULL && f->form == FACT_TOKEN && f->head == 0 && f->tail == 0)
		return detail_tok(f->j, f->t, out);
	return fact_str(f, out);
}

bool
detail_fact(struct call_facts *v, enum call_fact f, struct buf *out)
{
	buf_reset(out);
	return detail_fact_tok(call_fact(v, f), out);
}

bool
detail_elem(const struct elem_facts *e, enum elem_fact f, struct buf *out)
{
	buf_reset(out);
	return detail_fact_tok(elem_fact(e, f), out);
}

bool
detail_field_of(struct detail *d, const char *label, struct call_facts *v, enum call_fact f)
{
	if (!detail_fact(v, f, &d->a) || d->a.n == 0)
		return false;
	detail_field(d, label, d->a.p, d->a.n, ROLE_NORMAL);
	return true;
}

bool
detail_field_taken(struct detail *d, const char *label, struct call_facts *v, enum call_fact f)
{
	size_t row = d->nrow;

	if (!detail_field_of(d, label, v, f))
		return false;
	detail_take(d, label, row, d->a.p, d->a.n);
	return true;
}

bool
detail_field_value(struct detail *d, const char *label, struct call_facts *v, enum call_fact f,
		   const char *unit)
{
	buf_reset(&d->a);
	if (!fact_value(call_fact(v, f), &d->a))
		return false;
	/* false is what a flag says when all is as usual. */
	if (d->a.n == 0 || strcmp(d->a.p, "null") == 0 || strcmp(d->a.p, "false") == 0)
		return false;
	if (unit != NULL)
		buf_adds(&d->a, unit);
	detail_field(d, label, d->a.p, d->a.n, ROLE_NORMAL);
	return true;
}

bool
detail_section(struct detail *d, const char *title, struct call_facts *v, enum call_fact f,
	       bool skip_empty)
{
	size_t row;

	if (!detail_fact(v, f, &d->b) || (skip_empty && d->b.n == 0))
		return false;
	row = detail_heading(d, title);
	if (d->b.n == 0)
		detail_wrap(d, "(empty)", 7, ROLE_DIM, 2, NULL);
	else
		detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 0, NULL);
	detail_take(d, title, row, d->b.p, d->b.n);
	return true;
}

bool
detail_parts(struct detail *d, const char *title, struct call_facts *v, enum call_fact f)
{
	const struct factval *x = call_fact(v, f);
	struct elem_facts e;
	size_t row;

	buf_reset(&d->b);
	if (fact_array(x)) {
		int n = json_size(x->j, x->t), t = x->t + 1;

		for (int i = 0; i < n && d->b.n < DETAIL_MAX_BYTES; i++, t = json_next(x->j, t))
			if (call_elem(v, FL_PARTS, x->j, t, &e))
				detail_fact_tok(elem_fact(&e, EL_TEXT), &d->b);
	} else {
		detail_fact_tok(x, &d->b);
	}
	if (d->b.n == 0)
		return false;
	row = detail_heading(d, title);
	detail_wrap(d, d->b.p, d->b.n, ROLE_NORMAL, 0, NULL);
	detail_take(d, title, row, d->b.p, d->b.n);
	return true;
}

bool
detail_output(struct detail *d, const char *title, struct call_facts *v)
{
	return detail_parts(d, title, v, CALL_TEXT);
}

bool
detail_has_result(struct call_facts *v)
{
	return v->done && (call_fact(v, CALL_PAYLOAD) != NULL || call_fact(v, CALL_TEXT) != NULL);
}

/* Arguments and result as indented JSON, for every other kind, and what
 * it gave as text. */
static void
detail_generic(struct detail *d, struct call_facts *v)
{
	const struct factval *a = call_fact(v, CALL_ARGS), *r = call_fact(v, CALL_SHOWN);

	if (a != NULL && a->form == FACT_TOKEN)
		detail_json_section(d, "arguments", a->j, a->t);
	if (r != NULL && r->form == FACT_TOKEN)
		detail_json_section(d, "result", r->j, r->t);
	detail_output(d, "output", v);
}

/* --- the whole -------------------------------------------------------- */

/* The lines every call has: its line, kind, state, times, id. */
static void
header(struct detail *d, uint32_t c, struct call_facts *v)
{
	struct model *m = d->m;
	const struct call *call = &m->call[c];
	enum call_state st = model_call_state(m, c);
	int64_t dur = model_call_duration(m, c);
	static const enum role roles[CS_NSTATES] = {
		[CS_RUNNING] = ROLE_RUNNING,    [CS_OK] = ROLE_TOOL_OK,
		[CS_FAILED] = ROLE_TOOL_FAILED, [CS_REJECTED] = ROLE_TOOL_REJECTED,
		[CS_ERROR] = ROLE_TOOL_ERROR,   [CS_ORPHANED] = ROLE_TOOL_ORPHANED,
	};
	struct buf line = {0};

	tool_describe_view(m, c, v, &d->td);
	/* The call's line is the transcript's; the rest, the detail's own
	 * words, is not searched. */
	d->quiet++;
	if (d->plain) {
		/* A row for them, as on screen: the rows of a call's own text
		 * come after some. */
		row_add(d, d->text.n, 0, 0, 0, ROLE_NORMAL, 0);
		d->quiet--;
		return;
	}
	buf_adds(&line, tool_state_glyph(st));
	buf_addc(&line, ' ');
	tool_line((enum tool_kind)call->kind, &d->td, &line);
	detail_wrap(d, line.p, line.n, roles[st], 0, NULL);
	detail_blank(d);
	buf_reset(&line);
	buf_adds(&line, tool_kind_name((enum tool_kind)call->kind));
	if (d->td.key.n > 0)
		buf_addf(&line, " (%s)", d->td.key.p);
	detail_field(d, "kind", line.p, line.n, ROLE_NORMAL);
	buf_reset(&line);
	buf_adds(&line, model_call_state_name(st));
	if (call->result == CR_OTHER && call_fact(v, CALL_VARIANT) != NULL) {
		buf_adds(&line, ": result.");
		fact_value(call_fact(v, CALL_VARIANT), &line);
	}
	if (!(call->flags & CF_STARTED))
		buf_adds(&line, " (no started event)");
	detail_field(d, "state", line.p, line.n, roles[st]);
	if (call->start_ms != TIME_NONE && m->ses[call->session].start_ms != TIME_NONE) {
		buf_reset(&line);
		buf_addc(&line, '+');
		fmt_clock(&line, ms_sub(call->start_ms, m->ses[call->session].start_ms));
		buf_adds(&line, " into the session");
		detail_field(d, "started", line.p, line.n, ROLE_NORMAL);
	}
	if (dur != TIME_NONE) {
		buf_reset(&line);
		fmt_duration(&line, dur);
		if (st == CS_RUNNING)
			buf_adds(&line, ", running");
		detail_field(d, "duration", line.p, line.n, ROLE_NORMAL);
	}
	if (detail_fact(v, CALL_ID, &d->a)) {
		/* IDs hold newlines (src/FORMAT.md §1): one line, with ↵. */
		buf_reset(&line);
		text_sanitize(&line, d->a.p, d->a.n, TEXT_ONELINE);
		detail_field(d, "call id", line.p, line.n, ROLE_DIM);
	}
	d->quiet--;
	buf_free(&line);
}

/* Why a call did not succeed: why it was rejected (when the adapter says
 * anything of it), or the message of a failure. */
static void
outcome(struct detail *d, struct call_facts *v)
{
	if (!v->done)
		return;
	if (v->result == CR_REJECTED &&
	    (call_fact(v, CALL_REASON) != NULL || call_fact(v, CALL_REJECTED_NOTE) != NULL)) {
		detail_heading(d, "rejected");
		if (detail_fact(v, CALL_REASON, &d->b) && d->b.n > 0)
			detail_field(d, "reason", d->b.p, d->b.n, ROLE_TOOL_REJECTED);
		else if (detail_fact(v, CALL_REJECTED_NOTE, &d->b))
			detail_field(d, "reason", d->b.p, d->b.n, ROLE_DIM);
		detail_field_value(d, "read-only", v, CALL_READ_ONLY, NULL);
	} else if ((v->result == CR_FAILURE || v->result == CR_ERROR) &&
		   detail_fact(v, CALL_ERROR, &d->b) && d->b.n > 0) {
		detail_field(d, "error", d->b.p, d->b.n, ROLE_TOOL_FAILED);
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
	static const char *const sections[2] = {"started event", "completed event"};
	char title[96];
	size_t row, n, rn;
	const char *p;

	for (int i = 0; i < 2; i++) {
		struct json *j = i == 0 ? d->sj : d->dj;

		if (evs[i] == NONE) {
			snprintf(title, sizeof title, "no %s event", names[i]);
			detail_heading(d, title);
			continue;
		}
		snprintf(title, sizeof title, "%s event, line %llu", names[i],
			 (unsigned long long)model_event_lineno(m, evs[i]));
		row = detail_heading(d, title);
		p = model_line(m, evs[i], &n);
		if (!model_parse(m, evs[i], j)) {
			detail_wrap(d, p, n, ROLE_NORMAL, 2, NULL);
		} else {
			detail_json(d, j, 0);
			/* While secrets are hidden, what is taken is what is
			 * shown: the JSON indented, its strings decoded (a key
			 * spelled with \u escapes reads as one), its secrets
			 * out once it is copied or paged. */
			json_raw(j, 0, &rn);
			if (redact_active() != NULL && rn <= DETAIL_MAX_BYTES / 4) {
				detail_take(d, sections[i], row, d->b.p ? d->b.p : "", d->b.n);
				continue;
			}
		}
		/* Else the line as the agent wrote it. */
		detail_take(d, sections[i], row, p, n);
	}
}

/* Whether a call is shown by its kind's builder: when it succeeded or
 * failed, or has no result yet (also when rejected, if the builder draws
 * that: rejected). Else its arguments and result are shown as they
 * are. */
static bool
by_builder(const struct call_facts *v, bool rejected)
{
	if (!v->done)
		return true;
	switch (v->result) {
	case CR_SUCCESS:
	case CR_FAILURE:
		return true;
	case CR_REJECTED:
		return rejected;
	default:
		return false;
	}
}

bool
detail_head(struct detail *d, uint32_t c, bool raw, bool built, bool rejected, struct call_facts *v)
{
	tool_load(d->m, c, d->sj, d->dj, v);
	header(d, c, v);
	if (raw) {
		raw_rows(d, c);
		return false;
	}
	outcome(d, v);
	if (!built || !by_builder(v, rejected)) {
		detail_generic(d, v);
		return false;
	}
	return true;
}

void
detail_begin(struct detail *d, uint32_t c, int width, bool raw)
{
	d->call = c;
	d->width = MAX(width, 8);
	d->raw = raw;
	d->stamp = call_stamp(d->m, c);
	d->redacted = redact_active() != NULL;
	d->cut = false;
	d->more = 0;
	d->quiet = 0;
	d->nrow = 0;
	d->nsec = 0;
	buf_reset(&d->text);
	buf_reset(&d->taken);
}

void
detail_end(struct detail *d)
{
	if (d->cut)
		cut_row(d);
}
