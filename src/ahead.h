/* ahead.h: parses the lines of a source whose bytes are all there (a mapped
 * file read at once) on a second thread, ahead of the model. The model asks
 * ahead_take for each line and gets the parse the worker made; when the
 * worker is behind, the model parses the next chunk itself instead of
 * waiting, so on two cores the two threads share the parsing. Only the
 * read-only bytes and a few chunk buffers are shared; the result is the
 * parse json_parse makes, line for line. */
#ifndef AGENTVIEW_AHEAD_H
#define AGENTVIEW_AHEAD_H

#include <stdbool.h>
#include <stddef.h>

#include "json.h"

struct ahead;

/* Whether a line p[0..n) is left unparsed (it is known by its first
 * bytes to be of no use): ahead_take then says it was not parsed. */
typedef bool ahead_skip_fn(const char *p, size_t n);

/* Start a worker on the lines of data[from, size), split as
 * source_next_line splits a whole file (a BOM at offset 0 skipped, as the
 * model skips it), looking up keys (copied) in each, but for the lines
 * skip (NULL: none) says. NULL when no thread can be started: the caller
 * parses every line. */
struct ahead *ahead_start(const char *data, size_t size, size_t from, const struct json_keys *keys,
			  ahead_skip_fn *skip);

/* The model's next line, data[off, off + len), asked in order; p[0..n) is
 * what the model parses of it (without a BOM). True when it was parsed
 * without error: j holds the parse, as json_parse(j, p, n) makes it, and
 * k[] what json_getk found. False: the caller parses the line itself (an
 * error, whose details are not kept, or lines not split as expected). */
bool ahead_take(struct ahead *a, size_t off, size_t len, const char *p, size_t n, struct json *j,
		int *k);

/* Stop the worker (NULL is fine) and free everything. */
void ahead_stop(struct ahead *a);

#endif
