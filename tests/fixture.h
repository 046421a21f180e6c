/* fixture.h: a model read from text in memory, and the views the unit
 * tests look at it through: the one way they build one (linked into every
 * test binary by the Makefile). */
#ifndef AGENTVIEW_FIXTURE_H
#define AGENTVIEW_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "detail.h"
#include "model.h"
#include "render.h"
#include "replay.h"
#include "search.h"

/* What fixture_new does besides opening the source and the model. */
enum {
	FX_LIVE = 1 << 0,   /* all lines read, the source not ended */
	FX_UNREAD = 1 << 1, /* no line read: the test feeds them */
	FX_RENDER = 1 << 2, /* r, over the model */
	FX_DETAIL = 1 << 3, /* d, over the model */
	FX_SEARCH = 1 << 4, /* se, over the model */
	FX_REPLAY = 1 << 5, /* rp, set by fixture_replay */
};

/* One source over a copy of the test's text and the model it feeds (lines
 * come with no arrival time), the views asked for, and a scratch buffer
 * for the test's own helpers. fixture_free frees all of it. */
struct fixture {
	struct source s;
	struct model *m;
	unsigned src; /* s's number in m */
	unsigned flags;
	struct render r;
	struct detail d;
	struct search se;
	struct replay rp;
	struct buf b;
};

/* The model of text[0..n): every line read and the source ended, unless
 * flags say FX_LIVE or FX_UNREAD; then the views of flags over it. */
struct fixture *fixture_new(const char *text, size_t n, unsigned flags);
/* Read the next line and add it to the model: the line in *ln and its
 * event in *ev (either may be NULL); false when no line is left. */
bool fixture_next(struct fixture *f, struct line *ln, uint32_t *ev);
/* Add at most max more lines (SIZE_MAX: all); how many were added. */
size_t fixture_feed(struct fixture *f, size_t max);
/* The source ends: open calls are orphaned, sessions complete. */
void fixture_end(struct fixture *f);
/* Hand out the text's lines again from the first (after model_clear). */
void fixture_rewind(struct fixture *f);
/* A replay of the model at speed, from now = 0, indexed so far; complete:
 * the input has ended. */
void fixture_replay(struct fixture *f, double speed, double idle_limit_s, bool complete);
void fixture_free(struct fixture *f);

/* The bytes of the file at path, NUL-terminated, their count in *n; the
 * test fails when it cannot be read. */
char *fixture_slurp(const char *path, size_t *n);
/* fixture_new over the whole file at path (flags: FX_*). */
struct fixture *fixture_file(const char *path, unsigned flags);
/* The same over recordings/NAME.ndjson. */
struct fixture *fixture_recording(const char *name, unsigned flags);

/* Files on disk, for the tests of what reads folders: a new folder
 * /tmp/av-NAME-XXXXXX (its path, to give to fixture_rmtree, which removes
 * it with all in it and frees the path); text written to dir/name (added
 * to the end with append), then its times set to ms since the epoch. */
char *fixture_tmpdir(const char *name);
void fixture_rmtree(char *dir);
void fixture_put(const char *dir, const char *name, const char *text, int64_t ms, bool append);

/* What fn (fleet_list_text, fleet_list_json) writes of the list f at
 * now_ms, any agent, 120 columns, as a string: the last call's, freed by
 * the next. */
struct fleet;
const char *fixture_written(void (*fn)(const struct fleet *, int, int, int64_t, FILE *),
			    const struct fleet *f, int64_t now_ms);
/* An SQLite file at path made by sql (statements run in order, path
 * created when it is not there), closed: as an agent's store would be
 * left (its writer gone). The test fails, saying SQLite's words, when it
 * cannot be. */
void fixture_sql(const char *path, const char *sql);

#endif
