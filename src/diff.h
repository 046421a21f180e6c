/* diff.h: a line diff of two texts, to show an edit whose diff the agent
 * did not send: the longest common subsequence of lines, shown as a
 * unified diff. */
#ifndef AGENTVIEW_DIFF_H
#define AGENTVIEW_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* Above this many line pairs to compare (after the common head and tail
 * are set aside), the changed middle is shown as removed, then added. */
#define DIFF_MAX_CELLS (4u << 20)

enum diff_op {
	DIFF_SAME,
	DIFF_DEL, /* a line of the old text only */
	DIFF_ADD, /* a line of the new text only */
};

struct diff_line {
	uint8_t op;
	uint32_t a; /* line index in the old text (SAME, DEL) */
	uint32_t b; /* line index in the new text (SAME, ADD) */
};

struct diff {
	struct diff_line *v;
	size_t n, cap;
	bool exact; /* false: the middle was too large to compare */
};

/* The lines of old[0..na) and new[0..nb) (a final newline ends the last
 * line, it does not start another), in order: deletions come before the
 * additions that replace them. */
void diff_compute(struct diff *d, const char *old, size_t na, const char *new, size_t nb);
void diff_free(struct diff *d);

/* Append the unified diff of old and new with `context` lines around each
 * change ("@@ -3,7 +3,8 @@", then lines starting with ' ', '-' or '+');
 * nothing when they are the same. Returns the number of changed lines. */
size_t diff_unified(const char *old, size_t na, const char *new, size_t nb, int context,
		    struct buf *out);

#endif
