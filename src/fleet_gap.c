/* fleet_gap.c: the middles of the files the list read as their head and
 * tail only (FR_GAP), read once the first look is over (FLEET_GAPS): the
 * newest file first, from its start, a piece at a time and a few pieces an
 * update, into the rows of a fleet of its own (the shadow). When the
 * shadow has read as far as the file's rows were read, its rows take the
 * place of the file's at once: the same row numbers (matched by where each
 * session starts), a new row for a session wholly in the middle, the gap
 * gone, and what that changed not told (the session did nothing). A file
 * that changes meanwhile goes on as before: the shadow reads on to where
 * its rows are now; one truncated or replaced (read again from its start)
 * is dropped, and one that cannot be read is left with its gap. */
#define _GNU_SOURCE /* memrchr */
#include "fleet_impl.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "remote.h"

/* Bytes read into the shadow at a time (but for a longer line), and the
 * pieces an update reads at most. */
#define GAP_PIECE (1024 * 1024)
#define GAP_PIECES 4
/* A line longer than this is not read whole: the middle is left unread. */
#define GAP_LINE_MAX (64u << 20)

struct fgap {
	struct fleet *sh; /* the shadow: its one file is f's file fi */
	uint32_t fi;
	uint64_t pos; /* the shadow's rows hold every line before it */
};

/* A fleet reading file fi of f from its start, with no folder, no watch. */
static struct fleet *
shadow_new(const struct fleet *f, uint32_t fi)
{
	struct fleet *sh = xcalloc(1, sizeof *sh);
	struct ffile *sf;

	sh->flags = f->flags & (unsigned)~FLEET_GAPS;
	sh->agent = f->agent;
	sh->now = f->now;
	sh->m = model_new();
	sh->m->ahead_min = SIZE_MAX; /* pieces are small: no parser thread */
	source_open_over(&sh->src, "piece", NULL, 0);
	model_add_source(sh->m, &sh->src);
	sh->j = json_new();
	sh->file = xcalloc(1, sizeof *sh->file);
	sh->nfile = sh->filecap = 1;
	sf = &sh->file[0];
	*sf = f->file[fi];
	sf->path = xstrdup(f->file[fi].path);
	sf->kind = FK_STREAM;
	sf->read_to = 0;
	sf->nrows = sf->reuse = sf->last_row = 0;
	sf->placeholder = sf->queued = sf->live = sf->gap = false;
	return sh;
}

static void
shadow_free(struct fleet *sh)
{
	free(sh->file[0].path);
	free(sh->file);
	free(sh->row);
	free(sh->told);
	free(sh->touched);
	free(sh->changed);
	model_free(sh->m);
	source_close(&sh->src);
	json_free(sh->j);
	tool_desc_free(&sh->td);
	buf_free(&sh->chunk);
	buf_free(&sh->tmp);
	free(sh);
}

void
fleet_gap_free(struct fleet *f)
{
	if (f->gap == NULL)
		return;
	shadow_free(f->gap->sh);
	free(f->gap);
	f->gap = NULL;
}

/* Whether file fi's middle is to be read: a stream of this machine (a
 * remote's mirror holds only the head and tail it was sent). */
static bool
gapped(const struct ffile *ff)
{
	return ff->gap && ff->kind == FK_STREAM && !ff->gone && !ff->rows && !ff->queued &&
	       remote_host_of(ff->path) == NULL;
}

/* The newest file with a middle to read in its shadow; false: none. */
static bool
gap_start(struct fleet *f)
{
	uint32_t best = NONE;

	for (size_t i = 0; i < f->nfile; i++)
		if (gapped(&f->file[i]) &&
		    (best == NONE || f->file[i].mtime_ms > f->file[best].mtime_ms))
			best = (uint32_t)i;
	f->gap_none = best == NONE;
	if (best == NONE)
		return false;
	f->gap = xcalloc(1, sizeof *f->gap);
	f->gap->fi = best;
	f->gap->sh = shadow_new(f, best);
	return true;
}

/* The middle being read left unread (its rows say so) until the file
 * has a new gap: it cannot be read, a line is too long, or no session
 * was found in it. */
static void
gap_leave(struct fleet *f)
{
	f->file[f->gap->fi].gap = false;
	fleet_gap_free(f);
}

/* The shadow's rows in the place of file fi's. */
static void
gap_done(struct fleet *f)
{
	struct fleet *sh = f->gap->sh;
	uint32_t fi = f->gap->fi;
	struct ffile *ff = &f->file[fi];
	const struct ffile *sf = &sh->file[0];
	uint32_t *was = NULL, *to = xreallocarray(NULL, sh->nrow + 1, sizeof *to);
	uint8_t *before = xreallocarray(NULL, sh->nrow + 1, 1);
	size_t nwas = 0;

	if (sf->nrows == 0) { /* no session read: the rows read stay */
		free(to);
		free(before);
		gap_leave(f);
		return;
	}

	for (size_t r = 0; r < f->nrow; r++)
		if (f->row[r].file == fi) {
			was = xreallocarray(was, nwas + 1, sizeof *was);
			was[nwas++] = (uint32_t)r;
		}
	/* Each session's row: the one that starts where it does, else new
	 * (fleet_new_row takes the placeholder, then makes one). */
	ff->nrows = ff->reuse = 0;
	for (size_t k = 0; k < sh->nrow; k++) {
		const struct fleet_row *sr = &sh->row[k];
		uint32_t ri = NONE;

		for (size_t i = 0; i < nwas && ri == NONE; i++)
			if (was[i] != NONE && f->row[was[i]].offset == sr->offset &&
			    !(ff->placeholder && ff->last_row == was[i])) {
				ri = was[i];
				was[i] = NONE;
			}
		/* Its state before: what a change the file made (not the
		 * middle read) is told from; none for a session new here. */
		if (ri != NONE) {
			fleet_row_update(f, ri);
			before[k] = f->row[ri].state;
		} else {
			before[k] = FS_NSTATES;
		}
		to[k] = ri != NONE ? ri : fleet_new_row(f, fi, true);
	}
	for (size_t k = 0; k < sh->nrow; k++) {
		struct fleet_row *r = &f->row[to[k]];
		uint8_t state = r->state, keep = r->flags & FR_REREAD;

		*r = sh->row[k];
		r->file = fi;
		r->state = state;
		r->flags = (uint8_t)((r->flags & ~FR_GAP) | keep);
		fleet_touch(f, to[k]);
	}
	/* A row no session of the file starts at: a piece read wrong. */
	for (size_t i = 0; i < nwas; i++)
		if (was[i] != NONE && !(ff->placeholder && ff->last_row == was[i])) {
			f->row[was[i]].flags |= FR_GONE;
			fleet_touch(f, was[i]);
		}
	ff->nrows = sf->nrows;
	ff->placeholder = false;
	ff->last_row = to[sf->last_row];
	ff->gap = false;
	ff->read_to = f->gap->pos;
	/* Their states as the file's life says, and nothing told of what
	 * reading the middle changed (the session did nothing); a change
	 * its file made, not told yet, is told from where it was. */
	for (size_t k = 0; k < sh->nrow; k++) {
		fleet_row_update(f, to[k]);
		if (before[k] == FS_NSTATES || f->told[to[k]] == before[k])
			f->told[to[k]] = f->row[to[k]].state;
	}
	fleet_settle(f, fi);
	free(was);
	free(to);
	free(before);
	fleet_gap_free(f);
}

/* Read a piece of the file in the shadow (the shadow's rows done when
 * it reaches the file's), or drop it. */
static void
gap_piece(struct fleet *f)
{
	struct fgap *g = f->gap;
	struct fleet *sh = g->sh;
	struct ffile *ff = &f->file[g->fi];
	uint64_t to = ff->read_to;
	size_t want, n = 0, used;
	struct stat st;
	int fd;

	if (!gapped(ff) || g->pos > to) {
		fleet_gap_free(f); /* read again from its start, or gone */
		return;
	}
	fd = open(ff->path,
		  O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (ff->store > 0 ? O_NOFOLLOW : 0));
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_dev != ff->dev || st.st_ino != ff->ino ||
	    (uint64_t)st.st_size < to) {
		if (fd >= 0)
			close(fd);
		gap_leave(f); /* the next read of the file says why */
		return;
	}
	/* Whole lines: a longer line than the piece, a longer piece. */
	for (want = GAP_PIECE; g->pos < to; want *= 2) {
		const char *nl;

		want = (size_t)MIN((uint64_t)want, to - g->pos);
		if (!fleet_read_at(sh, fd, g->pos, want) || sh->chunk.n < want) {
			close(fd);
			gap_leave(f);
			return;
		}
		n = want;
		if (g->pos + n == to)
			break;
		if ((nl = memrchr(sh->chunk.p, '\n', n)) != NULL) {
			n = (size_t)(nl - sh->chunk.p) + 1;
			break;
		}
		if (want >= GAP_LINE_MAX) {
			close(fd);
			gap_leave(f);
			return;
		}
	}
	close(fd);
	sh->now = f->now;
	used = n > 0 ? fleet_feed(sh, 0, g->pos, sh->chunk.p, n, false) : 0;
	g->pos = MIN(g->pos + MAX(used, n), to);
	if (g->pos >= to)
		gap_done(f);
}

void
fleet_gap_work(struct fleet *f, int64_t t0, int64_t budget_us)
{
	if (!(f->flags & FLEET_GAPS))
		return;
	for (int k = 0; k < GAP_PIECES; k++) {
		if (f->gap == NULL && (f->gap_none || !gap_start(f)))
			return;
		gap_piece(f);
		if (budget_us > 0 && clock_mono_us() - t0 >= budget_us)
			return;
	}
}

bool
fleet_gaps_left(const struct fleet *f)
{
	return (f->flags & FLEET_GAPS) && (f->gap != NULL || !f->gap_none || f->mhead < f->nmore);
}
