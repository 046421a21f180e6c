/* record.h: recordings. A recording is still a stream-json file that jq and
 * other consumers read, and from which the original stream comes back byte
 * for byte:
 *
 *   - a header line:
 *       {"type":"agentview","subtype":"recording","version":1,
 *        "agentview_ms":T,"source":"stdin"|"command","argv":[...]}
 *     (T: when it began, which is when the live stream was opened: its
 *     first session's time counts from then, model_stream_opened)
 *     with ,"kept":true after "version" in a recording agentview made on
 *     its own in the folder of kept sessions (keep.h), which is what lets
 *     it remove them after a while and never anything else;
 *   - each line that is a JSON object with at least one member, as it was,
 *     with ,"agentview_ms":T inserted before its closing brace (T: arrival
 *     time, ms since the epoch);
 *   - any other line (not JSON, not an object, "{}", or a last line with no
 *     newline) wrapped:
 *       {"type":"agentview","subtype":"line","agentview_ms":T,
 *        "text":"..."}   (or "base64":"..." when it is not valid UTF-8;
 *                         "newline":false when it had no '\n')
 *   - a wrapped command's stderr lines and its end:
 *       {"type":"agentview","subtype":"stderr","agentview_ms":T,"text":"..."}
 *       {"type":"agentview","subtype":"exit","agentview_ms":T,
 *        "exit_status":N|null,"signal":N|null}
 *
 * A line that already carries agentview_ms (recording a recording) is kept
 * as it is, so timestamps never nest. */
#ifndef AGENTVIEW_RECORD_H
#define AGENTVIEW_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

struct json;

struct recorder {
	int fd;            /* -1 when not recording; holds an flock(LOCK_EX)
			      while open: a writer is alive (fleet.c) and the
			      file is not to be removed (keep.c) */
	char *path;        /* owned; changes when a kept recording is named */
	char *stem;        /* a kept recording not named yet: renamed to
			      <stem>-<session id>.ndjson once the first
			      session's id is known; owned, NULL otherwise */
	int err;           /* errno of the first write error, 0 if none */
	bool kept;         /* a kept session (keep.h), not asked for: its
			      failures are said but change no exit status */
	bool ended;        /* the last line written was a recording's end
			      (a recording recorded again): no second one */
	int64_t start_ms;  /* when it began: its header's agentview_ms */
	uint64_t lines;    /* lines written */
	uint64_t size;     /* bytes written, all in whole lines */
	struct json *json; /* owned */
	struct buf line;   /* the line being written */
};

/* Create (truncate) path and write the header. argv is NULL for stdin.
 * Returns -1 with the reason in err when path cannot be opened; a write
 * error, even of the header, leaves r->err set instead. */
int record_open(struct recorder *r, const char *path, char *const *argv, struct buf *err);
/* The same on fd, a file just made for a kept recording at path (taken
 * over); the header says "kept", and the file is renamed after its first
 * session (the stem is path up to its last '-'). */
void record_open_kept(struct recorder *r, int fd, const char *path, char *const *argv);
/* Record one line of the stream read at ms. After a write error nothing
 * more is written; r->err says why. */
void record_line(struct recorder *r, const char *p, size_t n, bool terminated, int64_t ms);
/* Record one line the command wrote on stderr. */
void record_stderr(struct recorder *r, const char *p, size_t n, int64_t ms);
/* Record how the command ended (signal 0: it exited with status). */
void record_exit(struct recorder *r, bool exited, int status, int signal, int64_t ms);
/* Record that the stream ended, at ms: how long it stayed open after its
 * last line (a run killed while it waited). Nothing when nothing was
 * recorded. */
void record_end(struct recorder *r, int64_t ms);
/* Look at the file: once it has been removed (or its directory), what is
 * written goes nowhere, so r->err becomes ENOENT and writing stops. */
void record_check(struct recorder *r);
/* Close; a kept recording that got no line is removed. */
void record_close(struct recorder *r);

/* Whether p[0..n), the start of a file, is a recording's header; *kept
 * says whether it is a kept one (the folder of kept sessions, keep.h). */
bool record_starts(const char *p, size_t n, bool *kept);

/* Write to out the original bytes of one line of a recording (or of any
 * stream: a line that is not a recording line is written as it is). */
void record_raw_line(FILE *out, const char *p, size_t n, bool terminated);

#endif
