/* fleet_take.h: one session of the session list, taken from its file:
 * what the list's Y copies, o pages and e opens. No curses. */
#ifndef AGENTVIEW_FLEET_TAKE_H
#define AGENTVIEW_FLEET_TAKE_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

/* One session of the list, taken from its file (path) where it starts
 * (offset), read as agent (--agent's, or -1) reads it, to the next
 * session's start: its text log as --print writes it (open: it still runs
 * or waits, not ended), for the pager; the command that resumes it
 * (copy_resume, with its checks of the id and the folder); its folder,
 * when the session says an absolute one. False, with the reason in
 * err/why, when the file cannot be read or the session says none. */
bool fleet_session_text(const char *path, uint64_t offset, int agent, bool open, struct buf *out,
			struct buf *err);
bool fleet_session_resume(const char *path, uint64_t offset, int agent, struct buf *out,
			  struct buf *why);
bool fleet_session_cwd(const char *path, uint64_t offset, int agent, struct buf *out,
		       struct buf *why);

#endif
