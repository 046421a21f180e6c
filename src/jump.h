/* jump.h: moving around the transcript, without curses: the next or
 * previous tool call, prompt or call that went wrong from an item, the
 * filters that hide kinds of items, and the words that name them. The
 * screen and the replay share these. */
#ifndef AGENTVIEW_JUMP_H
#define AGENTVIEW_JUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "keys.h"
#include "model.h"
#include "util.h"

/* What a jump looks for. */
enum jump_target {
	JUMP_TOOL,    /* any tool call */
	JUMP_PROMPT,  /* a user prompt */
	JUMP_PROBLEM, /* a call that failed, was rejected, erred or orphaned */
};

/* The nearest item after `from` (dir > 0) or before it (dir < 0), in the
 * order the transcript is read in (model_order.c), that is a target and
 * whose type is not in `hide`; from == NONE starts outside the ends.
 * With wrap, the search goes on from the other end (and may come back to
 * `from` itself). NONE when there is none. */
uint32_t jump_find(struct model *m, uint32_t from, int dir, enum jump_target what, unsigned hide,
		   bool wrap);

/* The item types an action hides or shows (0 for other actions). */
unsigned jump_filter_mask(enum action a);
/* Append "thinking, tool calls" for the hidden types, in key order. */
void jump_filter_names(unsigned hide, struct buf *out);

#endif
