/* fleet_impl.h: what fleet.c (folders, files, updates), fleet_read.c (the
 * rows, a file's lines into them) and fleet_words.c (sorting, columns,
 * words) share. Not for other modules: they use fleet.h. */
#ifndef AGENTVIEW_FLEET_IMPL_H
#define AGENTVIEW_FLEET_IMPL_H

#include <sys/types.h>

#include "fleet.h"
#include "source.h"
#include "model.h"
#include "tool.h"
#include "watch.h"

/* FR_* flags of fleet.h go up to 1 << 5; these are the fleet's own. */
enum {
	FR_FAILED = 1 << 6, /* its result says it failed, or its command did */
	FR_GUESS = 1 << 7,  /* a store's session running by a guess: no signal
			       of its process but its file's age (store.h) */
};

/* Whether a file is written: by a writer that holds it (a recording of
 * agentview's), or lately; or known to be written no more. */
enum file_life {
	FILE_CLOSED,  /* removed, or a recording whose writer is gone */
	FILE_QUIET,   /* not written lately, or only with old events */
	FILE_WRITTEN, /* being written */
};

/* A file written just now whose newest event is older than this is a copy
 * of an old stream, not a session at work (a reply streams its untimed
 * deltas for minutes, never for this long). */
#define FLEET_OLD_MS (30 * 60000LL)

/* What a file turned out to be. */
enum file_kind {
	FK_UNREAD, /* not looked at yet (or read again from the start) */
	FK_EMPTY,  /* no whole line yet */
	FK_STREAM, /* JSON lines: read into rows */
	FK_OTHER,  /* not a stream: listed as such, never parsed */
	FK_ERROR,  /* cannot be read (err says why) */
};

/* A folder listed, or holding files given one by one. */
struct fdir {
	char *path;    /* owned */
	bool listing;  /* its stream files are all listed (a folder given,
			   or one under it with FLEET_RECURSIVE); else only
			   the files given */
	char *pattern; /* a store's folder (fleet_add_store): what is listed
			   of it and below, its lines of fnmatch parts; owned */
	uint8_t store; /* the store's source + 1 (store.h), 0: none */
	/* A remote's mirror whose ".rows" (fleet_preset) was there, and the
	 * scan that last saw it: once it is gone (the sh path's first round
	 * is all written), a file of those rows the mirror has not is gone. */
	bool rows;
	uint32_t rows_seen;
};

/* A file listed. */
struct ffile {
	char *path; /* owned */
	int dir;    /* its folder's number (watch.h's) */
	dev_t dev;
	ino_t ino;
	uint64_t size;    /* as last seen */
	uint64_t read_to; /* every line before it is in the rows */
	int64_t mtime_ms;
	uint32_t last_row; /* its newest row, when nrows or placeholder */
	uint32_t nrows;    /* sessions read (rows with an index) */
	uint32_t reuse;    /* after a restart: rows with index below it are
			      taken again by the sessions read */
	uint32_t seen;     /* the folder scan that last noted it */
	uint8_t kind;      /* enum file_kind */
	int err;           /* FK_ERROR: errno */
	bool given;        /* named on the command line */
	bool gone;         /* removed (its rows stay, flagged FR_GONE) */
	bool recording;    /* agentview's: live while a writer holds it */
	bool writer;       /* a writer held it when last read */
	bool placeholder;  /* last_row is its FS_FILE row, with no session */
	bool queued;       /* in the read queue */
	bool live;         /* in the list of files whose newest row may be
			      running (looked at by every update) */
	bool gap;          /* a part of it was never read */
	bool rows;         /* in a form of its agent's own, read whole once
			      as its rows (agent_rows) */
	uint8_t store;     /* its store's source + 1 (store.h), 0: none */
	/* A remote's mirror: the rest of its head was asked for
	 * (remote_head), once since it was last read from its start; the
	 * file that holds it (the mirror replaced) is not waited for yet. */
	bool head_asked, head_wait;
	uint64_t head_sig; /* head_wait: head_sig's of the file asked of */
	/* A Cursor chat store: what it and its log were (their sizes and
	 * times, hashed; 0: not read yet) when its meta was read, and when;
	 * chat_due: they changed since, read again once its second is over. */
	uint64_t chat_sig;
	int64_t chat_ms;
	bool chat_due;
	/* A remote's mirror: its rows as an agentview there made them
	 * (fleet_preset), its own bytes not read yet; once they are, their
	 * sessions take those rows again, in order. */
	bool preset;
	/* Its sub-agents' files (agent_more): the tokens they hold (-1:
	 * none), which its newest row adds to its own; what the files were
	 * when read (a hash of their names, sizes and times; 0: none, and
	 * the tokens are not), and when they were last looked at. */
	int64_t more_in, more_out;
	uint64_t more_sig;
	int64_t more_ms;
	bool more_due; /* they wait to be read (after the first look) */
	/* What each was when read and the tokens it held, by their keys:
	 * one as it was is not read again when another changes. */
	struct more_read *more_read;
	size_t nmore_read;
};

/* A sub-agent's file as it was read: a hash of its name, inode, size and
 * time; its tokens (any: it held some). */
struct more_read {
	uint64_t key;
	int64_t in, out;
	bool any;
};

/* A map from a path to its file. */
struct fmap {
	uint64_t *key; /* hash | 1; 0: empty */
	uint32_t *file;
	size_t cap; /* power of two */
	size_t n;
};

struct fleet {
	unsigned flags; /* FLEET_* */
	int agent;      /* --agent's, or -1 */
	struct watch *w;
	struct fdir *dir; /* by watch.h's folder number */
	size_t ndir, dircap;
	struct ffile *file;
	size_t nfile, filecap;
	struct fmap map;
	struct fleet_place *place; /* what was added, in order */
	size_t nplace, placecap;
	struct fleet_row *row;
	size_t nrow, rowcap;
	uint8_t *told;     /* per row: the state last told, FS_NSTATES:
				 never told */
	uint8_t *touched;  /* per row: changed in this update */
	uint32_t *changed; /* the rows touched, in order */
	size_t nchanged, changedcap;
	uint32_t *queue; /* files to read */
	size_t qhead, nqueue, qcap;
	uint32_t *live; /* files whose newest row may be running */
	size_t nlive, livecap;
	size_t chat_due; /* files chat_due */
	uint32_t *more;  /* files whose sub-agents' files the first look went
			   without (FLEET_GAPS), in the order it read them */
	size_t mhead, nmore, morecap;
	uint32_t scan;   /* folder scans made: ffile.seen */
	bool first_done; /* the first look is over: changes are told */
	bool sorted;     /* the first look's queue is by mtime */
	fleet_change_fn fn;
	void *ctx;
	/* fleet_on_head's */
	bool (*more_head)(const char *path);
	struct store_live *sl; /* the stores' liveness, or NULL */
	struct fgap *gap;      /* the middle being read (fleet_gap.c), or NULL */
	bool gap_none;         /* the last look found no middle left to read */
	int64_t now;           /* of the update running */
	unsigned result;       /* FLEET_* of the update running */
	/* Reading: a model over one chunk of a file at a time. */
	struct model *m;
	struct source src; /* over chunk */
	struct buf chunk;
	struct json *j; /* to look at a line before the model does */
	struct tool_desc td;
	struct buf tmp;
};

/* fleet.c */
/* The rows to leave out (NULL: none), one a byte: a session both kept and
 * in its agent's store (the same id, of 8 characters or more) is one row,
 * the richer one; two rows of one kind both stay (a session resumed in
 * two runs, each kept), but for a chat in two Cursor chat stores: the
 * newest store's. The rows, the counts and the news use it. */
uint8_t *fleet_twins(const struct fleet *f);
/* When row ri last did something: its latest event, or (its file's
 * newest) its file's last write when later; for recency. */
int64_t fleet_row_when(const struct fleet *f, uint32_t ri);

/* fleet_read.c (which calls nothing of fleet.c) */
/* A new row for file fi, empty: for its next session (its placeholder
 * or, after a restart, its row of that number taken again, else a new
 * one), or (!session) for its placeholder. */
uint32_t fleet_new_row(struct fleet *f, uint32_t fi, bool session);
/* Row r changed in this update. */
void fleet_touch(struct fleet *f, uint32_t r);
/* Put row ri in its state now; touched when it changed. */
void fleet_row_update(struct fleet *f, uint32_t ri);
/* Put every row of file fi in its state now. */
void fleet_settle(struct fleet *f, uint32_t fi);
/* Read what is new in file fi (all of it the first time: its head and
 * tail), into its rows. */
void fleet_read(struct fleet *f, uint32_t fi);
/* Read the tokens of file fi's sub-agents' files (agent_more) again when
 * those files changed since they were last read. */
void fleet_read_more(struct fleet *f, uint32_t fi);
/* Read the sub-agents' files the first look went without, the newest
 * file's first, and no more once budget_us microseconds from t0 are spent
 * (0: no time limit). */
void fleet_more_work(struct fleet *f, int64_t t0, int64_t budget_us);
/* Read the whole lines of p[0..n), bytes base.. of file fi, into its rows;
 * with head, stop after the first prompt. Returns the bytes read. */
size_t fleet_feed(struct fleet *f, uint32_t fi, uint64_t base, char *p, size_t n, bool head);
/* Whether file fi is a Cursor chat store (its store's chats/<bucket>/
 * <sid>/store.db): a session that its transcript, when there is one,
 * shows better. */
bool fleet_chat_store(const struct fleet *f, uint32_t fi);
/* Cursor writes a chat's title and model later, into the store's log
 * (store.db-wal) first: chat store fi read, its meta is read again when
 * it or its log changed, at most once a second (chat_due meanwhile), and
 * its rows and its transcript's take its title and model. */
void fleet_chat_look(struct fleet *f, uint32_t fi);
/* Read bytes [off, off + n) of fd into f->chunk; false on an error. */
bool fleet_read_at(struct fleet *f, int fd, uint64_t off, size_t n);
/* The state a row is in, the newest of its file or not, its file's life. */
enum fleet_state fleet_row_state(const struct fleet_row *r, bool newest, enum file_life life);
/* Until when file fi's newest row r counts as written (FILE_WRITTEN) by
 * the file's last write and its events' times; INT64_MAX for a recording
 * (its writer's end is an event). */
int64_t fleet_live_until(const struct ffile *ff, const struct fleet_row *r);
/* Copy s[0..n) into dst (cap bytes with the NUL) on one line: blanks
 * folded, cut at a character's boundary and before a secret the cut
 * would go through (redact_cut). */
void fleet_copy(char *dst, size_t cap, const char *s, size_t n);

/* fleet_gap.c (which calls nothing of fleet.c) */
/* Read the middles of files read as their head and tail (FLEET_GAPS): a
 * few pieces, and no more once budget_us microseconds from t0 are spent
 * (0: no time limit). */
void fleet_gap_work(struct fleet *f, int64_t t0, int64_t budget_us);
void fleet_gap_free(struct fleet *f);

#endif
