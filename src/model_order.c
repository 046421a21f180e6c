/* model_order.c: the order the transcript is read in. A sub-agent's lines
 * (Claude Code's parent_tool_use_id) arrive while its task's session goes
 * on, after the session's later lines; every output reads them under the
 * task that ran them: each item, then its sub-agent's items, a level
 * deeper, in the order they came. Nested by id, never by position.
 *
 * The items stay where they are; the order is made on demand into two
 * arrays (position to item, item to position) when it is not theirs, and
 * made again once more items are shown. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "model_impl.h"

static int
by_parent(const void *a, const void *b)
{
	const struct subitem *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return x->item < y->item ? -1 : x->item > y->item;
}

/* The first of kids[0..k) whose parent is it or after it. */
static size_t
kids_from(const struct subitem *kids, size_t k, uint32_t it)
{
	size_t lo = 0, hi = k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (kids[mid].parent < it)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Put item it at the next position. */
static void
place(struct order *o, size_t *at, uint32_t it)
{
	o->map[MAP_ITEM][*at] = it;
	o->map[MAP_POS][it] = (uint32_t)*at;
	(*at)++;
}

/* Make the order of the first n items: each top-level item, then the
 * items under it, depth first (a walk with a stack of its own: a chain of
 * sub-agents can be as long as the input). */
static void
order_make(const struct model *m, struct order *o, size_t n)
{
	size_t k = 0, at = 0, si = 0, depth = 0;

	if (o->cap < n) {
		o->map[MAP_ITEM] = xreallocarray(o->map[MAP_ITEM], n, sizeof *o->map[MAP_ITEM]);
		o->map[MAP_POS] = xreallocarray(o->map[MAP_POS], n, sizeof *o->map[MAP_POS]);
		o->cap = n;
	}
	while (k < m->nsub && m->sub[k].item < n)
		k++;
	ARRAY_RESERVE(o->kids, o->kcap, k);
	memcpy(o->kids, m->sub, k * sizeof *m->sub);
	qsort(o->kids, k, sizeof *o->kids, by_parent);
	for (uint32_t it = 0; it < n; it++) {
		size_t f;

		if (si < k && m->sub[si].item == it) {
			si++; /* placed under its parent */
			continue;
		}
		place(o, &at, it);
		f = kids_from(o->kids, k, it);
		depth = 0;
		ARRAY_RESERVE(o->stack, o->scap, 1);
		o->stack[depth][0] = (uint32_t)f;
		o->stack[depth][1] = (uint32_t)f;
		while (o->stack[depth][1] < k && o->kids[o->stack[depth][1]].parent == it)
			o->stack[depth][1]++;
		for (;;) {
			uint32_t kid, *lv = o->stack[depth];

			if (lv[0] == lv[1]) {
				if (depth == 0)
					break;
				depth--;
				continue;
			}
			kid = o->kids[lv[0]++].item;
			place(o, &at, kid);
			f = kids_from(o->kids, k, kid);
			if (f == k || o->kids[f].parent != kid)
				continue;
			depth++;
			ARRAY_RESERVE(o->stack, o->scap, depth + 1);
			o->stack[depth][0] = o->stack[depth][1] = (uint32_t)f;
			while (o->stack[depth][1] < k && o->kids[o->stack[depth][1]].parent == kid)
				o->stack[depth][1]++;
		}
	}
	/* Every item placed once: a parent comes before its items, so
	 * every chain ends at a top-level one. Never otherwise; but then
	 * the items' own order. */
	if (at != n)
		for (uint32_t it = 0; it < n; it++)
			o->map[MAP_ITEM][it] = o->map[MAP_POS][it] = it;
	/* The calls, in the order of their items. */
	if (o->ccap < model_ncalls(m)) {
		o->ccap = model_ncalls(m);
		o->map[MAP_CALL] =
			xreallocarray(o->map[MAP_CALL], o->ccap, sizeof *o->map[MAP_CALL]);
		o->map[MAP_ROW] = xreallocarray(o->map[MAP_ROW], o->ccap, sizeof *o->map[MAP_ROW]);
	}
	for (uint32_t c = 0; c < model_ncalls(m); c++)
		o->map[MAP_CALL][c] = o->map[MAP_ROW][c] = c;
	at = 0;
	for (size_t p = 0; p < n; p++) {
		const struct item *item = &m->it[o->map[MAP_ITEM][p]];

		if (item->type == IT_TOOL && item->ref < o->ccap && at < o->ccap) {
			o->map[MAP_CALL][at] = item->ref;
			o->map[MAP_ROW][item->ref] = (uint32_t)at++;
		}
	}
	o->n = n;
	o->nsub = m->nsub;
	o->made = true;
}

/* The order of the items shown, made again when more are; NULL when it is
 * theirs. */
static const struct order *
order_get(struct model *m)
{
	size_t n = model_nitems(m);

	if (!m->moved)
		return NULL;
	if (m->order == NULL)
		m->order = xcalloc(1, sizeof *m->order);
	if (!m->order->made || m->order->n != n || m->order->nsub != m->nsub)
		order_make(m, m->order, n);
	return m->order;
}

/* Entry i of map k of the order (i itself when the order is the items'
 * own); NONE from n on. */
static uint32_t
order_map(struct model *m, enum order_map k, uint32_t i, size_t n)
{
	const struct order *o;

	if (i >= n)
		return NONE;
	o = order_get(m);
	return o != NULL ? o->map[k][i] : i;
}

uint32_t
model_order_item(struct model *m, uint32_t pos)
{
	return order_map(m, MAP_ITEM, pos, model_nitems(m));
}

uint32_t
model_order_pos(struct model *m, uint32_t it)
{
	return order_map(m, MAP_POS, it, model_nitems(m));
}

uint32_t
model_order_call(struct model *m, uint32_t row)
{
	return order_map(m, MAP_CALL, row, model_ncalls(m));
}

uint32_t
model_call_row(struct model *m, uint32_t c)
{
	return order_map(m, MAP_ROW, c, model_ncalls(m));
}
