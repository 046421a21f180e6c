/* keep.h: the folder of kept sessions. Every stream agentview reads live
 * (a pipe, -- COMMAND) is also recorded, as --record does, into
 * $XDG_STATE_HOME/agentview/sessions/ (~/.local/state/agentview/sessions/
 * without it): one file per run, mode 0600 in a 0700 folder, first named
 * by its start time and process (20261123-203947-p4242.ndjson), then by
 * its start time and session once the first session says its id
 * (20261123-203947-17e650d2.ndjson: record.c renames it). The name is a
 * convenience for people; what makes a file agentview's own is its
 * header ("kept":true), and only such files are ever removed, after
 * KEEP_DAYS_DEFAULT days without a write, when no writer holds them.
 * AGENTVIEW_RECORD=0 or --no-record keep nothing; --keep DAYS or
 * AGENTVIEW_KEEP_DAYS say how long (0: for ever). */
#ifndef AGENTVIEW_KEEP_H
#define AGENTVIEW_KEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"
#include "util.h"

#define KEEP_DAYS_DEFAULT 30

/* The folder into out; false (out says why) when neither XDG_STATE_HOME
 * nor HOME is set. */
bool keep_dir(struct buf *out);
/* Whether sessions are kept: AGENTVIEW_RECORD is not 0 (or no, off,
 * false). */
bool keep_wanted(void);
/* How many days kept files stay: days when given (>= 0), else
 * AGENTVIEW_KEEP_DAYS when it is a number, else KEEP_DAYS_DEFAULT. 0: for
 * ever. */
double keep_days(double days);
/* Make folder dir (mode 0700, and its parents) when it is missing; -1
 * with the reason in err. */
int keep_make_dir(const char *dir, struct buf *err);
/* Make the folder and a new file in it, named by now_ms (local time) and
 * the process, and record to it. -1 with the reason in err. */
int keep_open(struct recorder *r, char *const *argv, int64_t now_ms, struct buf *err);
/* Remove the kept recordings of dir last written more than days ago
 * (days > 0): regular files of this user named *.ndjson whose header says
 * "kept", that no writer holds. Returns how many went. */
int keep_prune(const char *dir, double days, int64_t now_ms);

#endif
