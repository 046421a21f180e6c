/* fleet.h: the sessions of many files at once, for the session list and
 * the headless modes (--print DIR, --status-line DIR): one row per session
 * of every stream file of the folders given (*.ndjson, *.jsonl and
 * agentview's recordings; one level, or all with FLEET_RECURSIVE) and of
 * the files given, kept up to date as files appear, grow, are truncated,
 * replaced or removed (watch.h: inotify, or a poll where no watch is left).
 *
 * A row is made from the head and the tail of its file only (as the
 * status line reads only the newest session): the head up to the first
 * prompt, and the last FLEET_TAIL bytes; then what the file gains. A file
 * with more between the two is flagged FR_GAP: its calls are counted in
 * what was read, and sessions wholly in the middle are not listed (opening
 * the file reads all of it), until (FLEET_GAPS) the middle is read in the
 * background and its rows are made exact. A row holds what it shows in
 * under 1 KiB; nothing of a file is kept once its rows are made.
 *
 * A session without a result is running while a writer holds its file
 * (every recording agentview writes holds an flock), or, for a file
 * agentview does not write, while the file changed in the last
 * MODEL_LIVE_SECS and its newest event is not old (a copy of an old stream
 * is written now, but runs no more); otherwise it is incomplete. A session
 * whose question has no answer is waiting however long its file is quiet,
 * but for a recording whose writer is gone (nobody can answer any more).
 *
 * The screen's pane and the headless modes use it the same way:
 *
 *     f = fleet_new(flags, agent);
 *     fleet_add(f, path, &err) ...       folders and files
 *     fleet_on_change(f, fn, ctx);       states that change after the
 *                                        first look (notifications, -f)
 *     loop: poll(fleet_fd(f), fleet_timeout(f, now, ticking));
 *           fleet_update(f, now, budget) -> what changed
 *           n = fleet_rows(f, sort, filter, now, v, max);
 *           fleet_line(f, v[i], cols, ncols, now, &line) ...
 *     Enter: fleet_path(f, row) and row->index / row->offset
 *
 * Row numbers stay: a row is never moved nor reused for another session,
 * so a selection kept as a row number survives updates and sorting.
 * Text in rows is raw UTF-8, cut short; fleet_cell and fleet_line
 * sanitize what they give. No curses. */
#ifndef AGENTVIEW_FLEET_H
#define AGENTVIEW_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "util.h"

/* Bytes read of a file's end, and at most of its start. */
#define FLEET_TAIL (64 * 1024)
#define FLEET_HEAD (64 * 1024)
/* Running calls a row remembers (more are counted). */
#define FLEET_CALLS 3

enum fleet_state {
	FS_WAITING,    /* running, and a decision asked for has no answer */
	FS_FAILED,     /* a result that is an error, or the command failed */
	FS_RUNNING,    /* no result yet, and its file is being written */
	FS_INCOMPLETE, /* ended without a result */
	FS_DONE,       /* a result that is not an error */
	FS_FILE,       /* no session: a file that is not a stream, cannot be
			  read, or holds none yet (the row's note says) */
	FS_NSTATES
};

enum fleet_sort {
	FSORT_ATTENTION, /* waiting, failed, running, then by recency */
	FSORT_NEWEST,    /* the latest start first */
	FSORT_LONGEST,   /* the longest elapsed time or duration first */
	FSORT_CWD,       /* by the cwd's last part, then the newest */
	FSORT_COUNT
};

/* The columns of a row, in the order they are shown. */
enum fleet_col {
	FC_STATE,  /* "● running" */
	FC_HOST,   /* the machine: "local", or the host of a remote source
		      (shown only when there is one) */
	FC_AGENT,  /* "cursor" */
	FC_MODEL,  /* "Composer 2.5" */
	FC_ID,     /* "17e650d2" */
	FC_CWD,    /* the cwd's last part */
	FC_PROMPT, /* the first prompt's start */
	FC_NOW,    /* the running call and its time, or how it ended */
	FC_TIME,   /* elapsed (running) or duration */
	FC_CALLS,  /* "12 ok 1 failed" */
	FC_TOKENS, /* "32.0k/664" in/out */
	FC_COST,   /* "$0.02" */
	FC_QUIET,  /* "6m00s" since its last event (running only) */
	FC_FILE,   /* the file's name */
	FC_NCOLS
};

/* Row flags. */
enum {
	FR_GAP = 1 << 0,    /* the middle of its file was not read */
	FR_GONE = 1 << 1,   /* its file was removed, or holds it no more */
	FR_REREAD = 1 << 2, /* its file was truncated or replaced, and read
			       again from the start */
	FR_RESULT = 1 << 3, /* its result was read */
	FR_EXITED = 1 << 4, /* its recorded command's end was read */
	FR_OVER = 1 << 5,   /* another session followed it in its file */
};

/* What a session's newest item is, for a store with no end record (its
 * process gone, or idle at its prompt): whether the model had the last
 * word. */
enum fleet_tail {
	FT_NONE,  /* nothing said yet, or a prompt */
	FT_REPLY, /* the model's reply */
	FT_TOOLS, /* a tool call: its result awaits the model's answer */
	FT_ERROR, /* an error record (how says it) */
};

/* A running call a row shows. */
struct fleet_call {
	uint64_t key;     /* hash of the call's id */
	int64_t start_ms; /* TIME_NONE when unknown */
	char what[52];    /* "Shell `npm test`" */
};

/* One session: all its row shows. */
struct fleet_row {
	uint32_t file;       /* fleet_path(f, row) names it */
	uint32_t index;      /* its session number in the file, from 0, as
				read (without FR_GAP: the one the viewer
				gives it) */
	uint64_t offset;     /* where its first line starts in the file */
	uint8_t state;       /* enum fleet_state */
	uint8_t agent;       /* enum agent_id */
	uint8_t flags;       /* FR_* */
	uint8_t ncalls;      /* calls[] in use */
	uint8_t tail;        /* enum fleet_tail: what its newest item is */
	uint32_t ok;         /* calls that ended well */
	uint32_t failed;     /* calls failed, rejected, in error, orphaned */
	uint32_t running;    /* calls open (the newest in calls[]) */
	uint32_t asking;     /* decisions asked for with no answer */
	uint64_t asks[2];    /* the newest of them, by the hash of their id */
	int64_t start_ms;    /* its first event's time, or TIME_NONE */
	int64_t last_ms;     /* its latest event's time, or TIME_NONE */
	int64_t duration_ms; /* the result's duration, or TIME_NONE */
	int64_t tokens_in;   /* from its file; -1: unknown (fleet_row_tokens
				adds its sub-agents') */
	int64_t tokens_out;
	double cost_usd; /* < 0: unknown */
	struct fleet_call calls[FLEET_CALLS];
	char id[40]; /* the session id (cut) */
	char model[40];
	char cwd[112];    /* the working directory; when it is longer,
				"…/" and its last part (fleet_cwd_name) */
	char prompt[112]; /* the first prompt's start, on one line */
	char how[112];    /* how it ended, why it failed; for FS_FILE,
				what the file is */
};

enum {
	FLEET_RECURSIVE = 1 << 0,   /* folders' folders too (-R) */
	FLEET_STATES_ONLY = 1 << 1, /* only the states are wanted (--status-line):
				     lines that change none (Cursor's tool
				     calls) are passed over, and rows count no
				     calls */
	FLEET_GAPS = 1 << 2,        /* after the first look, the middles of the
				     files read as their head and tail are
				     read too, a slice an update, the newest
				     file first, until every row is as if its
				     file were read whole (the list on the
				     screen, and printed once) */
	FLEET_NO_TOKENS = 1 << 3,   /* no row's tokens are wanted (the JSON
				     summary reads each file whole itself):
				     the last totals a file holds and its
				     sub-agents' files are not read */
};

/* What fleet_update changed. */
enum {
	FLEET_ROWS = 1 << 0,   /* rows were added, or what one shows changed */
	FLEET_STATES = 1 << 1, /* a row's state changed */
};

struct fleet;

/* A row's state changed from `was` (FS_NSTATES: a row that is new since
 * the first look) to its state now. Not called for what the first look
 * finds. */
typedef void (*fleet_change_fn)(void *ctx, struct fleet *f, uint32_t row, enum fleet_state was);

/* A place the list looks in: a folder or a file of the command line, or
 * one `agentview` alone looks in (main.c's table of places). */
struct fleet_place {
	char *path;
	const char *what; /* its words ("the sessions agentview keeps"), or
			     NULL for the command line's */
	bool kept;        /* where agentview keeps what is piped into it */
};

/* A fleet with flags FLEET_*; agent: --agent's, or -1. */
struct fleet *fleet_new(unsigned flags, int agent);
void fleet_free(struct fleet *f);
/* Add a folder, or a file, to list. -1 with the reason in err when it
 * cannot be read at all; a folder that goes away later is looked for.
 * fleet_add_place the same, saying what the place is. */
int fleet_add(struct fleet *f, const char *path, struct buf *err);
int fleet_add_place(struct fleet *f, const char *path, const char *what, bool kept,
		    struct buf *err);
/* The places added, in order. */
size_t fleet_nplaces(const struct fleet *f);
const struct fleet_place *fleet_place(const struct fleet *f, size_t i);
void fleet_on_change(struct fleet *f, fleet_change_fn fn, void *ctx);
/* Who brings the rest of a big file's head, past the REMOTE_HEAD bytes
 * a remote mirror's first look at it holds (remote.h): more(path) asks
 * for them, without waiting, and says whether they come (the file then
 * replaced by one that holds them, read again). None: every file is
 * whole. */
void fleet_on_head(struct fleet *f, bool (*more)(const char *path));
/* A store's sessions (store.h): the files under the folder root that
 * patterns name (lines, each a path of fnmatch parts), of source s;
 * folders watched as they come, never a link followed. -1 when root is
 * no folder. Their rows' liveness is sl's (f owns it; NULL: their files'
 * age), and a session both kept and in its store is one row
 * (fleet_rows). */
int fleet_add_store(struct fleet *f, const char *root, const char *patterns, enum store_source s);
void fleet_set_live(struct fleet *f, struct store_live *sl);

/* The descriptor to poll for changes (or -1). */
int fleet_fd(const struct fleet *f);
/* Milliseconds from now_ms until fleet_update must run again: files still
 * to read (0), folders polled, a running session that becomes incomplete
 * when its file stays quiet; with ticking (a row shows a running time),
 * the next second too. -1: only when fleet_fd says so. */
int fleet_timeout(const struct fleet *f, int64_t now_ms, bool ticking);
/* Read what changed, at now_ms, for at most budget_us microseconds of
 * reading (0: until everything is read). Returns FLEET_* flags. */
unsigned fleet_update(struct fleet *f, int64_t now_ms, int64_t budget_us);
/* Whether the first look has files left to read. */
bool fleet_loading(const struct fleet *f);
/* Whether a file's middle, or its sub-agents' files, are still to be
 * read (FLEET_GAPS): some row counts only what its file's head and tail
 * hold, or only its own file's tokens. */
bool fleet_gaps_left(const struct fleet *f);

/* The rows, all of them, and one. */
size_t fleet_nrows(const struct fleet *f);
const struct fleet_row *fleet_row(const struct fleet *f, uint32_t row);
/* Whether a row is one an agentview on a remote made (remote.h), its
 * file's bytes not here yet: nothing to open yet. */
bool fleet_row_early(const struct fleet *f, uint32_t row);
/* The file of a row, and its name (the path's last part). */
const char *fleet_path(const struct fleet *f, uint32_t row);
const char *fleet_name(const struct fleet *f, uint32_t row);

/* The files listed, in the order they were found: the path of each, and
 * for one that holds no stream, what it is ("not a stream", "cannot
 * read: Permission denied", "removed"); NULL for a stream. */
size_t fleet_nfiles(const struct fleet *f);
const char *fleet_file_path(const struct fleet *f, size_t i);
const char *fleet_file_note(const struct fleet *f, size_t i);

/* What the status bar says about the fleet as a whole. */
struct fleet_stats {
	size_t files;                /* files listed */
	size_t unread;               /* files of the first look not read yet */
	size_t polled;               /* folders polled: no inotify watch left */
	size_t gone;                 /* folders removed */
	size_t by_state[FS_NSTATES]; /* the rows in each state: the one count
					of sessions every view says */
};
void fleet_stats(const struct fleet *f, struct fleet_stats *st);
/* Whether file i's newest session still runs or waits (its file is read
 * as one still written). */
bool fleet_file_open(const struct fleet *f, size_t i);
/* The state of file i's newest session as the list has it, when file i
 * is an agent's store's (its liveness is known only here); FS_NSTATES for
 * any other file, or one with no session. */
enum fleet_state fleet_store_state(const struct fleet *f, size_t i);
/* Whether file i's newest session may wait for an approval its store
 * does not record (fleet_row_may_wait). */
bool fleet_file_may_wait(const struct fleet *f, size_t i);
/* Whether file i is an agent's store's (never read through a link). */
bool fleet_file_of_store(const struct fleet *f, size_t i);

/* Whether file i is a Cursor chat store whose every session has a row of
 * another file (its transcript's, or a newer chat store's): the list
 * shows that row alone, and a summary of every file passes it over. */
bool fleet_chat_twin(const struct fleet *f, size_t i);
/* Fill v (room for max) with the rows in sort order that match filter (a
 * piece of text, any case; NULL or "": all); returns how many. */
size_t fleet_rows(const struct fleet *f, enum fleet_sort sort, const char *filter, int64_t now_ms,
		  uint32_t *v, size_t max);
/* The last part of a row's cwd, as the list shows it. */
const char *fleet_cwd_name(const struct fleet_row *r);
/* "attention", "newest", "longest", "cwd". */
const char *fleet_sort_name(enum fleet_sort sort);
/* "running", "waiting", ...; and its glyph. */
const char *fleet_state_name(enum fleet_state st);
const char *fleet_state_glyph(enum fleet_state st);

/* A column in a layout: which, where, how wide (cells). */
struct fleet_colw {
	enum fleet_col col;
	int x;
	int width;
};
/* The columns that fit in width cells (at least 40: state, prompt, time),
 * dropped by priority as it shrinks, into cols (room for FC_NCOLS);
 * returns how many. */
int fleet_columns(int width, struct fleet_colw *cols);
/* The tokens in and out row shows (-1: unknown): its own, and for its
 * file's newest session those of its sub-agents' files (as --format json
 * counts them). */
void fleet_row_tokens(const struct fleet *f, uint32_t row, int64_t *in, int64_t *out);
/* Whether row's session runs on its process's word in a store that
 * records no wait for an approval (Codex's): an open call of it may be
 * held for one (model_session_may_wait). */
bool fleet_row_may_wait(const struct fleet *f, uint32_t row);
/* Append the text of a cell, sanitized, on one line (not cut). */
void fleet_cell(const struct fleet *f, uint32_t row, enum fleet_col col, int64_t now_ms,
		struct buf *out);
/* Append the column titles, and a row, laid out in cols: exactly the
 * width of the layout in cells (a session without a prompt shows its
 * file's name there, in parentheses, unless a column shows it). */
void fleet_header(const struct fleet_colw *cols, int n, struct buf *out);
void fleet_line(const struct fleet *f, uint32_t row, const struct fleet_colw *cols, int n,
		int64_t now_ms, struct buf *out);
/* The sessions by state, from fleet_stats: "● 3 running · ⏸ 1 waiting ·
 * ✗ 1 failed · ◌ 2 incomplete · ✓ 12 done", the states with none left out
 * ("no sessions" when all are); with tmux, each in its #[fg=] colour. The
 * list's summary line, --print's last line and --status-line. */
void fleet_summary(const struct fleet *f, bool tmux, struct buf *out);

#endif
