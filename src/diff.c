/* diff.c: line diff by longest common subsequence, and unified output. */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

/* Where each line of a text starts, and its hash. */
struct lines {
	const char *p;
	size_t *off; /* n + 1 entries: line i is [off[i], off[i + 1] - 1) */
	uint64_t *h;
	size_t n;
};

/* Split text p[0..n) into lines, hashed so that most compares are one. */
static void
lines_split(struct lines *l, const char *p, size_t n)
{
	size_t cap = 0, count = 0;

	memset(l, 0, sizeof *l);
	l->p = p;
	for (size_t i = 0; i < n; i++)
		count += p[i] == '\n';
	if (n > 0 && p[n - 1] != '\n')
		count++;
	ARRAY_RESERVE(l->off, cap, count + 1);
	l->h = xreallocarray(NULL, count + 1, sizeof *l->h);
	l->off[0] = 0;
	for (size_t i = 0, k = 0; k < count; k++) {
		const char *nl = memchr(p + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - p) : n;

		l->h[k] = hash_bytes(p + i, end - i, 0);
		i = end + 1;
		l->off[k + 1] = i;
	}
	l->n = count;
}

/* Free what lines_split made. */
static void
lines_free(struct lines *l)
{
	free(l->off);
	free(l->h);
}

/* Bytes of line i, without its newline. */
static const char *
line_at(const struct lines *l, size_t i, size_t *len)
{
	*len = l->off[i + 1] - l->off[i] - 1;
	return l->p + l->off[i];
}

/* Line i of a equals line j of b. */
static bool
lines_eq(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
	size_t na, nb;
	const char *pa = line_at(a, i, &na), *pb = line_at(b, j, &nb);

	return a->h[i] == b->h[j] && na == nb && memcmp(pa, pb, na) == 0;
}

/* Append one line of the diff. */
static void
push(struct diff *d, enum diff_op op, size_t a, size_t b)
{
	ARRAY_RESERVE(d->v, d->cap, d->n + 1);
	d->v[d->n].op = (uint8_t)op;
	d->v[d->n].a = (uint32_t)a;
	d->v[d->n].b = (uint32_t)b;
	d->n++;
}

/* The middle a[a0..a1) against b[b0..b1): a table of LCS lengths of the
 * suffixes, walked from the start, so deletions come first in a change. */
static void
diff_middle(struct diff *d, const struct lines *a, size_t a0, size_t a1, const struct lines *b,
	    size_t b0, size_t b1)
{
	size_t n = a1 - a0, m = b1 - b0, w = m + 1;
	uint16_t *L;
	size_t i = 0, j = 0;

	if (n == 0 || m == 0 || n > DIFF_MAX_CELLS / m || MIN(n, m) >= UINT16_MAX) {
		if (n > 0 && m > 0)
			d->exact = false;
		for (size_t k = a0; k < a1; k++)
			push(d, DIFF_DEL, k, b0);
		for (size_t k = b0; k < b1; k++)
			push(d, DIFF_ADD, a1, k);
		return;
	}
	L = xcalloc((n + 1) * w, sizeof *L);
	for (size_t x = n; x-- > 0;)
		for (size_t y = m; y-- > 0;)
			L[x * w + y] = lines_eq(a, a0 + x, b, b0 + y)
					       ? (uint16_t)(L[(x + 1) * w + y + 1] + 1)
					       : MAX(L[(x + 1) * w + y], L[x * w + y + 1]);
	while (i < n || j < m) {
		if (i < n && j < m && lines_eq(a, a0 + i, b, b0 + j)) {
			push(d, DIFF_SAME, a0 + i, b0 + j);
			i++;
			j++;
		} else if (j == m || (i < n && L[(i + 1) * w + j] >= L[i * w + j + 1])) {
			push(d, DIFF_DEL, a0 + i, b0 + j);
			i++;
		} else {
			push(d, DIFF_ADD, a0 + i, b0 + j);
			j++;
		}
	}
	free(L);
}

/* Diff of two split texts. */
static void
diff_lines(struct diff *d, const struct lines *a, const struct lines *b)
{
	size_t head = 0, tail = 0;

	d->n = 0;
	d->exact = true;
	while (head < a->n && head < b->n && lines_eq(a, head, b, head))
		head++;
	while (tail < a->n - head && tail < b->n - head &&
	       lines_eq(a, a->n - 1 - tail, b, b->n - 1 - tail))
		tail++;
	for (size_t k = 0; k < head; k++)
		push(d, DIFF_SAME, k, k);
	diff_middle(d, a, head, a->n - tail, b, head, b->n - tail);
	for (size_t k = tail; k > 0; k--)
		push(d, DIFF_SAME, a->n - k, b->n - k);
}

void
diff_compute(struct diff *d, const char *old, size_t na, const char *new, size_t nb)
{
	struct lines a, b;

	lines_split(&a, old, na);
	lines_split(&b, new, nb);
	diff_lines(d, &a, &b);
	lines_free(&a);
	lines_free(&b);
}

void
diff_free(struct diff *d)
{
	free(d->v);
	memset(d, 0, sizeof *d);
}

/* "-3,7" or "+3,8": 1-based start and count; an empty range names the
 * line before it, as diff -u does. */
static void
range(struct buf *out, char sign, size_t start, size_t count)
{
	buf_addf(out, "%c%zu", sign, count == 0 ? start : start + 1);
	if (count != 1)
		buf_addf(out, ",%zu", count);
}

size_t
diff_unified(const char *old, size_t na, const char *new, size_t nb, int context, struct buf *out)
{
	struct lines a, b;
	struct diff d = {0};
	size_t changed = 0, i = 0, c = context < 0 ? 0 : (size_t)context;

	lines_split(&a, old, na);
	lines_split(&b, new, nb);
	diff_lines(&d, &a, &b);
	while (i < d.n) {
		size_t first, last, start, end, na0 = 0, nb0 = 0;

		while (i < d.n && d.v[i].op == DIFF_SAME)
			i++;
		if (i == d.n)
			break;
		/* A hunk: changes closer than two contexts apart join. */
		first = last = i;
		for (size_t k = i; k < d.n; k++) {
			if (d.v[k].op == DIFF_SAME)
				continue;
			if (k > last + 2 * c + 1)
				break;
			last = k;
		}
		start = first > c ? first - c : 0;
		end = MIN(d.n, last + c + 1);
		for (size_t k = start; k < end; k++) {
			na0 += d.v[k].op != DIFF_ADD;
			nb0 += d.v[k].op != DIFF_DEL;
		}
		buf_adds(out, "@@ ");
		range(out, '-', d.v[start].a, na0);
		buf_addc(out, ' ');
		range(out, '+', d.v[start].b, nb0);
		buf_adds(out, " @@\n");
		for (size_t k = start; k < end; k++) {
			const struct lines *src = d.v[k].op == DIFF_ADD ? &b : &a;
			size_t idx = d.v[k].op == DIFF_ADD ? d.v[k].b : d.v[k].a, len;
			const char *p = line_at(src, idx, &len);

			buf_addc(out, d.v[k].op == DIFF_SAME  ? ' '
				      : d.v[k].op == DIFF_DEL ? '-'
							      : '+');
			buf_add(out, p, len);
			buf_addc(out, '\n');
			changed += d.v[k].op != DIFF_SAME;
		}
		i = end;
	}
	diff_free(&d);
	lines_free(&a);
	lines_free(&b);
	return changed;
}
