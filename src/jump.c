/* jump.c: jumps between items and filters, as plain functions. */
#include "jump.h"

#include "words.h"

/* Whether item it is what the jump looks for. */
static bool
jump_is(const struct model *m, uint32_t it, enum jump_target what)
{
	const struct item *item = &m->it[it];

	switch (what) {
	case JUMP_TOOL:
		return item->type == IT_TOOL;
	case JUMP_PROMPT:
		return item->type == IT_PROMPT;
	case JUMP_PROBLEM:
		/* A decision waiting, refused or skipped needs the reader too. */
		if (item->type == IT_QUERY)
			return words_query_decision(m, item->ref) == QD_PENDING ||
			       words_query_decision(m, item->ref) == QD_REJECTED ||
			       words_query_decision(m, item->ref) == QD_SKIPPED;
		if (item->type != IT_TOOL)
			return false;
		switch (model_call_state(m, item->ref)) {
		case CS_FAILED:
		case CS_REJECTED:
		case CS_ERROR:
		case CS_ORPHANED:
			return true;
		default:
			return false;
		}
	}
	return false;
}

uint32_t
jump_find(struct model *m, uint32_t from, int dir, enum jump_target what, unsigned hide, bool wrap)
{
	uint32_t n = (uint32_t)model_nitems(m), i, it;

	if (n == 0)
		return NONE;
	/* Outside the ends: the first step lands on the first (or last). */
	if (from == NONE || from >= n) {
		from = dir > 0 ? n - 1 : 0;
		wrap = true;
	} else {
		from = model_order_pos(m, from);
	}
	/* Positions in the order read from here. */
	i = from;
	for (uint32_t k = 0; k < n; k++) {
		if (dir > 0) {
			if (i + 1 >= n) {
				if (!wrap)
					return NONE;
				i = 0;
			} else {
				i++;
			}
		} else {
			if (i == 0) {
				if (!wrap)
					return NONE;
				i = n - 1;
			} else {
				i--;
			}
		}
		it = m->moved ? model_order_item(m, i) : i;
		if (!(hide & (1u << m->it[it].type)) && jump_is(m, it, what))
			return it;
	}
	return NONE;
}

unsigned
jump_filter_mask(enum action a)
{
	switch (a) {
	case ACT_HIDE_THINKING:
		return 1u << IT_THINKING;
	case ACT_HIDE_TOOLS:
		/* The decisions asked about calls go with them. */
		return (1u << IT_TOOL) | (1u << IT_QUERY);
	case ACT_HIDE_NOTICES:
		return 1u << IT_NOTICE;
	case ACT_HIDE_DIAGS:
		return (1u << IT_DIAG) | (1u << IT_STDERR);
	default:
		return 0;
	}
}

void
jump_filter_names(unsigned hide, struct buf *out)
{
	static const struct {
		enum action a;
		const char *name;
	} names[] = {
		{ACT_HIDE_THINKING, "thinking"},
		{ACT_HIDE_TOOLS, "tool calls"},
		{ACT_HIDE_NOTICES, "notices"},
		{ACT_HIDE_DIAGS, "diagnostics"},
	};
	bool first = true;

	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		if (!(hide & jump_filter_mask(names[i].a)))
			continue;
		if (!first)
			buf_adds(out, ", ");
		buf_adds(out, names[i].name);
		first = false;
	}
}
