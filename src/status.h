/* status.h: the status bar's model, without curses: the pieces it can
 * show (the newest session's state, model, id, directory, clock, calls and
 * tokens; the command; bad lines; new events; a replay's place; the
 * search; a passing message), which of them go first when the width does
 * not hold them all, and the line they make. pane_status.c draws it. */
#ifndef AGENTVIEW_STATUS_H
#define AGENTVIEW_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "render.h"

/* What the status bar says besides the model. */
struct status_in {
	bool following;       /* the transcript follows new events */
	uint64_t new_events;  /* events that came while scrolled away */
	int progress;         /* percent of the input indexed, or -1 */
	const char *note;     /* a passing message, or NULL */
	const char *mode;     /* "replay ×4", "paused", or NULL */
	const char *position; /* "01:12 / 04:30" in a replay, or NULL */
	const char *nav;      /* "match 3/17", filters on, or NULL */
	const char *where;    /* where the match is ("in Shell npm test
				 stderr"): after nav, left out first */
	const char *detail;   /* a replay's timing and event, or NULL */
	bool compact;         /* the narrow layout */
	const char *question; /* replaces everything when not NULL */
	bool command;         /* a COMMAND is being run */
	bool command_running; /* ...and has not ended */
};

/* The status bar of model m, at most width cells: its pieces in their
 * order, two cells apart, the least important left out until the rest
 * fit (the session's state always stays). */
void status_build(struct model *m, const struct status_in *in, int width, struct rline *out);

#endif
