/* remote_rows.c: the rows of a folder's sessions as text, made by an
 * agentview on a remote machine and read here (remote.h says the text):
 * written from a struct fleet_row, read back into one with every field
 * bounded, so that a hostile remote can make this side keep no more than
 * a frame's bytes, show no control byte, and name no file but one of
 * its folder. No curses. */
#include "remote.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

#ifndef AGENTVIEW_VERSION
#define AGENTVIEW_VERSION "dev"
#endif

#define NONE_WORD "-"

/* The first line, as this agentview writes it and reads it. */
static void
first_line(struct buf *out)
{
	buf_addf(out, "agentview-rows %d %s\n", RROWS_WIRE, AGENTVIEW_VERSION);
}

void
remote_rows_begin(struct buf *out)
{
	first_line(out);
}

static void
add_time(struct buf *out, int64_t t)
{
	if (t == TIME_NONE)
		buf_adds(out, " " NONE_WORD);
	else
		buf_addf(out, " %" PRId64, t);
}

/* A count that may be unknown (< 0). */
static void
add_count(struct buf *out, int64_t v)
{
	if (v < 0)
		buf_adds(out, " " NONE_WORD);
	else
		buf_addf(out, " %" PRId64, v);
}

static void
add_text(struct buf *out, const char *s, size_t cap)
{
	size_t n = strnlen(s, cap - 1);

	buf_addf(out, " %zu:", n);
	buf_add(out, s, n);
}

void
remote_rows_add(struct buf *out, const char *name, int64_t mtime_ms, const struct fleet_row *r)
{
	size_t n = strlen(name);

	buf_addf(out, "%zu:", n);
	buf_add(out, name, n);
	add_time(out, mtime_ms);
	buf_addf(out,
		 " %" PRIu32 " %" PRIu64 " %u %u %u %u %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32
		 " %" PRIu64 " %" PRIu64,
		 r->index, r->offset, r->state, r->agent, r->flags, r->tail, r->ok, r->failed,
		 r->running, r->asking, r->asks[0], r->asks[1]);
	add_time(out, r->start_ms);
	add_time(out, r->last_ms);
	add_time(out, r->duration_ms);
	add_count(out, r->tokens_in);
	add_count(out, r->tokens_out);
	/* A cost as nano-dollars: read back, the same double to the cent. */
	add_count(out, r->cost_usd < 0 || !(r->cost_usd < 9e6)
			       ? -1
			       : (int64_t)(r->cost_usd * 1e9 + 0.5));
	buf_addf(out, " %u", r->ncalls);
	for (unsigned i = 0; i < r->ncalls && i < FLEET_CALLS; i++) {
		buf_addf(out, " %" PRIu64, r->calls[i].key);
		add_time(out, r->calls[i].start_ms);
		add_text(out, r->calls[i].what, sizeof r->calls[i].what);
	}
	add_text(out, r->id, sizeof r->id);
	add_text(out, r->model, sizeof r->model);
	add_text(out, r->cwd, sizeof r->cwd);
	add_text(out, r->prompt, sizeof r->prompt);
	add_text(out, r->how, sizeof r->how);
	buf_addc(out, '\n');
}

/* Whether s holds no control byte. */
static bool
clean(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

bool
remote_row_ok(const struct fleet_row *r)
{
	bool ok = clean(r->id) && clean(r->model) && clean(r->cwd) && clean(r->prompt) &&
		  clean(r->how);

	for (unsigned i = 0; i < r->ncalls && i < FLEET_CALLS; i++)
		ok = ok && clean(r->calls[i].what);
	return ok;
}

bool
remote_rows_name_ok(const char *name)
{
	size_t n = strlen(name);

	return remote_name_ok(name, n) && clean(name) &&
	       ((n > 7 && strcmp(name + n - 7, ".ndjson") == 0) ||
		(n > 6 && strcmp(name + n - 6, ".jsonl") == 0));
}

void
remote_rows_end(struct buf *out, size_t nrows)
{
	buf_addf(out, ". %zu\n", nrows);
}

void
remote_rows_free(struct remote_rows *p)
{
	free(p->v);
	buf_free(&p->names);
	memset(p, 0, sizeof *p);
}

/* Reading: a line at [*s, end), one field at a time. */
struct rd {
	const char *s, *end;
	bool first; /* no space before the next field */
};

/* The next field's start: after one space (none for the first). */
static bool
field(struct rd *d)
{
	if (d->first) {
		d->first = false;
		return true;
	}
	if (d->s >= d->end || *d->s != ' ')
		return false;
	d->s++;
	return true;
}

/* A number in [0, max]: digits, no leading zero but "0" itself. */
static bool
rd_num(struct rd *d, uint64_t max, uint64_t *v)
{
	const char *s;

	if (!field(d))
		return false;
	s = d->s;
	*v = 0;
	if (s < d->end && *s == '0' && s + 1 < d->end && s[1] >= '0' && s[1] <= '9')
		return false;
	while (d->s < d->end && *d->s >= '0' && *d->s <= '9') {
		uint64_t k = (uint64_t)(*d->s - '0');

		if (k > max || *v > (max - k) / 10)
			return false;
		*v = *v * 10 + k;
		d->s++;
	}
	return d->s > s;
}

/* A number in [-max, max], or '-' (none: *v is none). */
static bool
rd_signed(struct rd *d, int64_t max, int64_t none, int64_t *v)
{
	uint64_t u;
	bool neg = false;

	if (!field(d))
		return false;
	if (d->s < d->end && *d->s == '-' &&
	    (d->s + 1 == d->end || d->s[1] == ' ' || d->s[1] == '\n')) {
		d->s++;
		*v = none;
		return true;
	}
	if (d->s < d->end && *d->s == '-') {
		neg = true;
		d->s++;
	}
	d->first = true;
	if (!rd_num(d, (uint64_t)max, &u) || (neg && u == 0))
		return false;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return true;
}

/* Text of at most cap - 1 bytes, none of them a control byte, into dst
 * (cap bytes with its NUL); dst NULL: at [*at, +*n) of the line. */
static bool
rd_text(struct rd *d, char *dst, size_t cap, const char **at, size_t *n)
{
	uint64_t len;

	if (!rd_num(d, cap - 1, &len) || d->s >= d->end || *d->s != ':' ||
	    (size_t)(d->end - d->s - 1) < len)
		return false;
	d->s++;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)d->s[i];

		if (c < 0x20 || c == 0x7f)
			return false;
	}
	if (dst != NULL) {
		memcpy(dst, d->s, (size_t)len);
		dst[len] = '\0';
	} else {
		*at = d->s;
		*n = (size_t)len;
	}
	d->s += len;
	return true;
}

/* A count, or '-' (unknown: -1). */
static bool
rd_count(struct rd *d, int64_t max, int64_t *v)
{
	if (!rd_signed(d, max, -1, v))
		return false;
	return *v >= 0 || (*v == -1 && d->s[-1] == '-');
}

static bool
rd_u32(struct rd *d, uint32_t max, uint32_t *v)
{
	uint64_t u;

	if (!rd_num(d, max, &u))
		return false;
	*v = (uint32_t)u;
	return true;
}

static bool
rd_u8(struct rd *d, uint8_t max, uint8_t *v)
{
	uint64_t u;

	if (!rd_num(d, max, &u))
		return false;
	*v = (uint8_t)u;
	return true;
}

/* One row's line [s, end) into w. */
static bool
row_line(const char *s, const char *end, struct remote_row *w, const char **name, size_t *nname)
{
	struct rd d = {s, end, true};
	struct fleet_row *r = &w->r;
	int64_t cost;
	uint8_t ncalls;

	memset(w, 0, sizeof *w);
	if (!rd_text(&d, NULL, 256, name, nname) || !remote_name_ok(*name, *nname) ||
	    !rd_signed(&d, INT64_MAX, TIME_NONE, &w->mtime_ms) ||
	    !rd_u32(&d, RROWS_MAX, &r->index) || !rd_num(&d, INT64_MAX, &r->offset) ||
	    !rd_u8(&d, FS_NSTATES - 1, &r->state) || !rd_u8(&d, AGENT_COUNT - 1, &r->agent) ||
	    !rd_u8(&d, UINT8_MAX, &r->flags) || !rd_u8(&d, FT_ERROR, &r->tail) ||
	    !rd_u32(&d, UINT32_MAX, &r->ok) || !rd_u32(&d, UINT32_MAX, &r->failed) ||
	    !rd_u32(&d, UINT32_MAX, &r->running) || !rd_u32(&d, UINT32_MAX, &r->asking) ||
	    !rd_num(&d, UINT64_MAX, &r->asks[0]) || !rd_num(&d, UINT64_MAX, &r->asks[1]) ||
	    !rd_signed(&d, INT64_MAX, TIME_NONE, &r->start_ms) ||
	    !rd_signed(&d, INT64_MAX, TIME_NONE, &r->last_ms) ||
	    !rd_signed(&d, INT64_MAX, TIME_NONE, &r->duration_ms) ||
	    !rd_count(&d, INT64_MAX, &r->tokens_in) || !rd_count(&d, INT64_MAX, &r->tokens_out) ||
	    !rd_count(&d, (int64_t)1 << 53, &cost) || !rd_u8(&d, FLEET_CALLS, &ncalls))
		return false;
	r->cost_usd = cost < 0 ? -1 : (double)cost / 1e9;
	r->ncalls = ncalls;
	for (unsigned i = 0; i < ncalls; i++)
		if (!rd_num(&d, UINT64_MAX, &r->calls[i].key) ||
		    !rd_signed(&d, INT64_MAX, TIME_NONE, &r->calls[i].start_ms) ||
		    !rd_text(&d, r->calls[i].what, sizeof r->calls[i].what, NULL, NULL))
			return false;
	return rd_text(&d, r->id, sizeof r->id, NULL, NULL) &&
	       rd_text(&d, r->model, sizeof r->model, NULL, NULL) &&
	       rd_text(&d, r->cwd, sizeof r->cwd, NULL, NULL) &&
	       rd_text(&d, r->prompt, sizeof r->prompt, NULL, NULL) &&
	       rd_text(&d, r->how, sizeof r->how, NULL, NULL) && d.s == d.end;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether no file's name comes twice (its rows in two runs). */
static bool
names_once(const struct remote_rows *p)
{
	const char **v = xcalloc(p->nfiles + 1, sizeof *v);
	size_t k = 0;
	bool ok = true;

	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].r.index == 0)
			v[k++] = p->names.p + p->v[i].name;
	qsort(v, k, sizeof *v, by_name);
	for (size_t i = 1; i < k && ok; i++)
		ok = strcmp(v[i - 1], v[i]) != 0;
	free(v);
	return ok;
}

bool
remote_rows_parse(const char *body, size_t len, struct remote_rows *p)
{
	const char *s = body, *end = body + len, *nl;
	struct buf want = {0};
	uint64_t said;
	bool ok = false;

	remote_rows_free(p);
	first_line(&want);
	if (len < want.n || memcmp(body, want.p, want.n) != 0)
		goto out;
	for (s += want.n; s < end; s = nl + 1) {
		struct remote_row w;
		const char *name;
		size_t nname;

		nl = memchr(s, '\n', (size_t)(end - s));
		if (nl == NULL)
			goto out;
		if (nl - s >= 2 && s[0] == '.' && s[1] == ' ') {
			struct rd d = {s + 2, nl, true};

			ok = rd_num(&d, RROWS_MAX, &said) && d.s == nl && said == p->n &&
			     nl + 1 == end && names_once(p);
			goto out;
		}
		if (p->n == RROWS_MAX || !row_line(s, nl, &w, &name, &nname))
			goto out;
		/* A file's rows come together, numbered from 0; a name once. */
		if (p->n > 0 && p->v[p->n - 1].nname == nname &&
		    memcmp(p->names.p + p->v[p->n - 1].name, name, nname) == 0) {
			if (w.r.index != p->v[p->n - 1].r.index + 1 ||
			    w.mtime_ms != p->v[p->n - 1].mtime_ms)
				goto out;
			w.name = p->v[p->n - 1].name;
			w.r.file = p->v[p->n - 1].r.file;
		} else {
			if (w.r.index != 0)
				goto out;
			w.name = p->names.n;
			buf_add(&p->names, name, nname);
			buf_addc(&p->names, '\0');
			w.r.file = (uint32_t)p->nfiles++;
		}
		w.nname = nname;
		ARRAY_RESERVE(p->v, p->cap, p->n + 1);
		p->v[p->n++] = w;
	}
out:
	buf_free(&want);
	if (!ok)
		remote_rows_free(p);
	return ok;
}

/* t moved by d milliseconds, never past what a time may be nor before
 * 1970 (TIME_NONE and times before 1970 as they are). */
static int64_t
shift_ms(int64_t t, int64_t d)
{
	if (t < 0)
		return t;
	if (d > 0 && t > INT64_MAX - d)
		return INT64_MAX;
	return t + d < 0 ? 0 : t + d;
}

bool
remote_rows_shift(const char *body, size_t len, int64_t skew, struct buf *out)
{
	struct remote_rows p = {0};

	if (!remote_rows_parse(body, len, &p))
		return false;
	remote_rows_begin(out);
	for (size_t i = 0; i < p.n; i++)
		remote_rows_add(out, p.names.p + p.v[i].name,
				shift_ms(p.v[i].mtime_ms, skew * 1000), &p.v[i].r);
	remote_rows_end(out, p.n);
	remote_rows_free(&p);
	return true;
}
