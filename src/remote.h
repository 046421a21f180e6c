/* remote.h: sessions on other machines, the parts that need no process:
 * what the user typed (HOST:PATH, user@host:PATH, ssh://user@host:port/PATH)
 * read and checked, a path quoted for the remote sh, the sh program sent
 * to the remote (only sh, ls, stat, tail, head, cat, sleep, wc, date run there, and
 * inotifywait where it is), and the reader of its frames.
 *
 * The wire, remote to local, is length-prefixed frames: a header line of
 * at most RFRAME_HEAD bytes, then for frames with a body exactly that many
 * bytes and a '\n' (checked: a short body is caught, never read as the
 * next header). A stream's text cannot forge a frame: it is only ever
 * inside a body whose length was said before it.
 *
 *     H agentview-remote 1        hello
 *     U <seconds>                 the remote's clock as the program
 *                                 starts (`date +%s`; none where date
 *                                 says no such number): the local side
 *                                 moves the times of S by how far it is
 *                                 from its own, 2 s or more
 *     M d | M f | M s             the path is a folder, a file, or (an
 *                                 empty path) the remote's own sessions
 *     D <len>\n<names>\n          a folder's session files, one a line
 *                                 (M s: "kept/x.ndjson", "claude/..."
 *                                 each under its source's root); a
 *                                 round's D frames together are its list
 *                                 (the remote sends one of at most 1 MiB
 *                                 for each part of a longer one)
 *     F <idx> <off> <len>\n<bytes>\n   bytes of file idx at offset off
 *     T <idx>                     file idx was truncated or replaced
 *     G <idx>                     file idx is gone
 *     N <idx> <inode>             file idx is this file (first, or new)
 *     P <idx> <from> <to>         file idx's bytes [from, to) are not
 *                                 sent (a list reads the head and the
 *                                 tail of a big file): to is where the
 *                                 next bytes are; sent when asked for
 *     S <idx> <seconds>           file idx was last written then (before
 *                                 its new bytes, or a batch's B: the local
 *                                 copy keeps it as they are written;
 *                                 where stat says it)
 *     L <len>\n<records>\n        the remote's own sessions (M s): its
 *                                 processes, sent when they changed
 *                                 (remote_procs_parse), each record a
 *                                 line, some with bytes of said lengths:
 *        -                          there is no /proc: nothing known
 *        r <n>\n<n bytes>\n          Codex's root there (the first record
 *                                   where there is /proc)
 *        r                          the same, not read (longer than 4096
 *                                   bytes): every codex process may be
 *                                   the store's
 *        <pid> <start>              a process a store's live file names
 *                                   (start: /proc/pid/stat's 22nd field)
 *        c <pid> <start> <k> <h>\n<k bytes><h bytes>\n
 *                                   a process named codex, its CODEX_HOME
 *                                   and HOME (empty: not set)
 *        c <pid> <start>            one whose environment is not readable
 *                                   (or whose CODEX_HOME or HOME is
 *                                   longer than 4096 bytes)
 *        g <pid> <start> <w>\n<w bytes>\n
 *                                   a gemini process, its working folder
 *        g <pid> <start>            one whose folder is not readable
 *        u <pid> <start> <w>\n<w bytes>\n, u <pid> <start>
 *                                   the same of a cursor-agent process
 *                                   (c, g and u: store.c's rule of the
 *                                   names that count, store_cli)
 *     A <idx> <size> <namelen>    file idx is in the batch that follows
 *                                 (the first look at a file, heads on:
 *                                 a big one's head and tail, B and C,
 *                                 or small ones whole, W): its size
 *                                 then, and the bytes of its path as
 *                                 head and tail name it
 *     B <len>\n<bytes>\n           `head -c REMOTE_HEAD` of the batch's
 *                                 files at once, headers and all (none
 *                                 for one file)
 *     C <len>\n<bytes>\n           `tail -c FLEET_TAIL+1` of them
 *     W <len>\n<bytes>\n           `cat` of a batch of small files (of
 *                                 FLEET_HEAD + FLEET_TAIL + 1 bytes or
 *                                 fewer): their bytes one after the
 *                                 other, each as long as its A said
 *     Y <0|1>                     the batch ends: 1, no file of it
 *                                 changed size while it was read (its
 *                                 bytes are theirs), 0, they are not
 *                                 (the remote sends them one by one)
 *     E <len>\n<text>\n           the remote could not go on
 *     R <len>\n<rows>\n           the rows of a folder's sessions as an
 *                                 agentview there made them (its
 *                                 --format rows, remote_rows_parse):
 *                                 sent first, before the files' bytes,
 *                                 when the program was asked for them
 *                                 and that agentview is this one's
 *                                 version and wire; never otherwise
 *     K                           a round is over (one a second, or
 *                                 sooner: inotifywait saw a change; where
 *                                 inotifywait watches every file's folder,
 *                                 one in 5 s when none changes)
 *
 * The files of a folder are numbered from 1 in the order the local side
 * named them in the program (remote_script); a program given none numbers
 * those of its first D in their order, and reads them in that round; a
 * file given as such is 1.
 * No curses. */
#ifndef AGENTVIEW_REMOTE_H
#define AGENTVIEW_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fleet.h"
#include "store.h"
#include "util.h"

/* A header line's most bytes, a frame body's, and the most files. */
#define RFRAME_HEAD 64
#define RFRAME_MAX (4u << 20)
#define RFRAME_FILES 100000

/* A remote source as typed. */
struct remote_spec {
	char *host; /* "host" or "user@host", what ssh is given; owned */
	char *port; /* digits, or NULL; owned */
	char *path; /* the remote path; "" for the kept sessions; owned */
};

/* Whether arg names a remote source: 1 (s filled, free it with
 * remote_spec_free), 0 (a local path: one that exists, or has a '/'
 * before its first ':', or no ':'), -1 (looks remote but is refused: why
 * in err). */
int remote_spec_parse(const char *arg, struct remote_spec *s, struct buf *err);
void remote_spec_free(struct remote_spec *s);
/* Whether host can be given to ssh as a host: not empty, no leading '-',
 * only [A-Za-z0-9._@:%[]-]. */
bool remote_host_ok(const char *host);

/* Whether name[0..n), as a remote sent it, can be a file of a local
 * mirror folder: one part (no '/', no NUL), not hidden (nor "." or
 * ".."), shorter than 256 bytes. */
bool remote_name_ok(const char *name, size_t n);
/* Whether name[0..n), as a remote sent it for its own sessions (M s),
 * can be a file of a local mirror folder: a source's name (store.h),
 * then at most 7 parts as remote_name_ok says, shorter than 1024. */
bool remote_store_name_ok(const char *name, size_t n);
/* Append s single-quoted for sh ('it'\''s'): any bytes but NUL. */
void remote_quote(struct buf *b, const char *s);
/* The sh program for path (a folder or a file; "" is the remote's kept
 * sessions), given the names of a folder's files asked for with their
 * offsets and identities (inode as the remote said it, or "" when none
 * is known): names NULL for a file (then nnames is 1, its offset's),
 * none (nnames 0) while what path is is not known yet. fill: for each
 * file the bytes [from, to) to send first (two numbers a file; NULL, or
 * from == to: none). heads: a folder's big files come as the head and
 * the tail the list reads of them (fleet.h), the rest left out (P); batch:
 * the first looks at them all at once (A, B, C, Y), not one by one. */
void remote_script(struct buf *b, const char *path, char *const *names, size_t nnames,
		   const uint64_t *off, char *const *ino, const uint64_t *fill, bool heads,
		   bool batch);

enum rframe_type {
	RF_HELLO = 'H',
	RF_CLOCK = 'U',
	RF_MODE = 'M',
	RF_LIST = 'D',
	RF_BYTES = 'F',
	RF_TRUNC = 'T',
	RF_GONE = 'G',
	RF_INODE = 'N',
	RF_MTIME = 'S',
	RF_HOLE = 'P',
	RF_LIVE = 'L',
	RF_ERROR = 'E',
	RF_TICK = 'K',
	RF_BATCH = 'A',
	RF_HEADS = 'B',
	RF_TAILS = 'C',
	RF_WHOLE = 'W',
	RF_BATCH_END = 'Y',
	RF_ROWS = 'R',
};

/* How many seconds a clock whose time is now_ms is ahead of a remote's
 * that said remote_s (U) a moment before: 0 when under 2 s either way
 * (the time the frame took, or clocks as good as the same). */
int64_t remote_skew(int64_t now_ms, uint64_t remote_s);
/* A remote's time t (seconds, S) by this clock, skew as remote_skew said:
 * never before 1970 nor past what a frame may say. */
int64_t remote_time(uint64_t t, int64_t skew);

/* How long after a connection dropped the processes its remote last
 * said (L) are still taken as what runs there (a reconnect usually takes
 * less); past it, whether a session runs is its file's age's to guess
 * again, until a new connection's first round has ended. */
#define REMOTE_GRACE_MS 5000
/* Whether they are at now_ms, the connection down since down_ms
 * (INT64_MIN: it is up). */
bool remote_procs_fresh(int64_t down_ms, int64_t now_ms);

/* One frame read; data points into the parser's buffer until the next
 * call. */
struct rframe {
	char type;        /* enum rframe_type */
	char mode;        /* RF_MODE: 'd', 'f' or 's' */
	uint32_t idx;     /* RF_BYTES, RF_TRUNC, RF_GONE: from 1 */
	uint64_t off;     /* RF_BYTES; RF_HOLE: from; RF_BATCH: the size;
			     RF_MTIME, RF_CLOCK: seconds;
			     RF_BATCH_END: 1 kept, 0 not */
	uint64_t to;      /* RF_HOLE; RF_BATCH: its path's length */
	uint64_t ino;     /* RF_INODE */
	const char *data; /* RF_BYTES, RF_LIST, RF_ERROR */
	size_t len;
};

struct rparser {
	struct buf in; /* bytes received, from pos on not yet read */
	size_t pos;
	bool bad;     /* the stream broke the rules: stop reading it */
	char why[80]; /* how */
};

void rparser_init(struct rparser *p);
void rparser_free(struct rparser *p);
/* Bytes received. */
void rparser_feed(struct rparser *p, const void *b, size_t n);
/* The next whole frame: 1, 0 when more bytes are needed, -1 when the
 * stream is broken (for good, p->why says how). */
int rparser_next(struct rparser *p, struct rframe *f);

/* The bytes of each of n files in the body of a B or C frame: the
 * output of one `head -c each` (or tail) over files whose paths are
 * namelen[j] bytes long, each at least `each` bytes. Each file's part is
 * found by those lengths alone, never by reading a header's text (a
 * name or a file's bytes could look like one): at[j] is where its bytes
 * start. false when the body is not laid out so (a file unreadable,
 * shorter than said, or a head that frames otherwise). */
bool remote_split(const char *body, size_t len, const uint64_t *namelen, size_t n, size_t each,
		  const char **at);
/* The bytes of each of n small files in the body of a W frame: `cat` of
 * them, each size[j] bytes (at most most): at[j] where file j's start.
 * false when they do not add up to the body, or one is too big. */
bool remote_split_whole(const char *body, size_t len, const uint64_t *size, size_t n, uint64_t most,
			const char **at);

/* The rows of a folder's sessions, made by an agentview on the remote
 * (its `--print --format rows DIR`) and sent before the sh program reads
 * the files (the R frame): shown until the files' own bytes are read here
 * and make the same rows (fleet_preset). The remote is hostile: every
 * field is bounded, text holds no control byte, a file is named once,
 * its sessions numbered from 0 in order. The text, lines:
 *
 *     agentview-rows <wire> <version>     the first: both this agentview's
 *     <row>                               each, as below
 *     . <rows>                            the last: how many were
 *
 * A row: fields one space apart, numbers in decimal ('-' for none: a
 * time, tokens or a cost unknown), text as <bytes>:<text>:
 *
 *     name mtime_ms index offset state agent flags tail ok failed
 *     running asking ask0 ask1 start_ms last_ms duration_ms tokens_in
 *     tokens_out cost_nano ncalls [key start_ms what]... id model cwd
 *     prompt how
 *
 * name is a file of the folder (remote_name_ok), mtime_ms its last
 * write; the rest is a struct fleet_row's (cost in 1e-9 dollars). */
#define RROWS_WIRE 1
#define RROWS_MAX 20000
struct remote_row {
	size_t name, nname; /* the file's name in the names' text */
	int64_t mtime_ms;
	struct fleet_row r; /* its file field: the row's file's number,
			       from 0, in the order they came */
};
struct remote_rows {
	struct remote_row *v;
	size_t n, cap;
	size_t nfiles;
	struct buf names;
};
/* Append the first line, a row of file name (mtime_ms its last write),
 * the last line. */
void remote_rows_begin(struct buf *out);
void remote_rows_add(struct buf *out, const char *name, int64_t mtime_ms,
		     const struct fleet_row *r);
void remote_rows_end(struct buf *out, size_t nrows);
/* Whether r's text has no control byte (remote_rows_parse takes it). */
bool remote_row_ok(const struct fleet_row *r);
/* Whether a file of that name has rows the reader takes: one the sh path
 * lists too (remote_name_ok, a .ndjson or .jsonl) with no control byte. */
bool remote_rows_name_ok(const char *name);
/* Read body[0..len) into p (emptied first): false when it is not laid out
 * so, or is another version's or wire's (p then empty). */
bool remote_rows_parse(const char *body, size_t len, struct remote_rows *p);
void remote_rows_free(struct remote_rows *p);
/* The rows of body[0..len) written again into out with each file's time
 * by this clock, skew as remote_skew said of the remote's (as its
 * mirror's files have theirs, remote_time): false when body is not rows
 * remote_rows_parse takes. */
bool remote_rows_shift(const char *body, size_t len, int64_t skew, struct buf *out);

/* The processes of a remote's L frame. */
struct remote_procs {
	bool noproc; /* no /proc there: nothing is known */
	char *codex_root;
	struct rproc {
		long pid;
		uint64_t start;
		char codex;  /* 0 not a codex process; 'e' its environment
				   read, in text at [text, text + ntext); '?' not */
		char gemini; /* 0 not a gemini process; 'w' its working
				folder read, in text as above; '?' not */
		char cursor; /* the same of a cursor-agent process */
		size_t text, ntext;
	} * v;
	size_t n, cap;
	/* the codex ones' "CODEX_HOME=...\0HOME=...\0", the gemini and
	 * cursor-agent ones' folders */
	struct buf text;
};

/* The body of an L frame read into p (emptied first): false when it is
 * not laid out as remote.h says (a length past its end, a NUL in a
 * path, a number out of range, a record unknown), p then empty. */
bool remote_procs_parse(const char *body, size_t len, struct remote_procs *p);
void remote_procs_free(struct remote_procs *p);

/* The mirror process (remote_run.c). The remote sources among
 * files[0..*nfiles) started there (heads: a folder's big files only as
 * far as the list reads them, until remote_whole or remote_open asks for one), each waited for until its first round
 * is written, and replaced in place by its local mirror (a folder, or a
 * file that grows); one that cannot be read is said on stderr and taken
 * out of files. Returns how many were remote, -1 when one was refused as
 * typed (said). quiet: later news (reconnecting) is not said on stderr
 * (the screen owns the terminal), and a folder (HOST:, or one the remote
 * said is) is waited for a second at most: its mirror then fills as it
 * is read, and a failure of it is news. */
int remote_start(char **files, int *nfiles, bool quiet, bool heads);
/* Wait until the mirror file path has all its bytes (remote_start's
 * heads), for at most ms: true at once for any other path; false with
 * why in err. */
bool remote_whole(const char *path, int ms, struct buf *err);
/* The first look at a big file of a folder sends the first REMOTE_HEAD
 * bytes of its head (where most sessions' first prompt is), not the
 * FLEET_HEAD the list may read: the list asks for the rest with
 * remote_head when its first prompt is not in them (fleet_read.c). */
#define REMOTE_HEAD (16 * 1024)
/* Ask, and do not wait, for the rest of the head of the mirror file path
 * (its first FLEET_HEAD bytes): once they are there the file is replaced
 * by one that holds them, which the list reads again (fleet_on_head);
 * nothing comes for a file whose head is all there. false, nothing
 * asked, for any other path. */
bool remote_head(const char *path);
/* How long the screen waits for that. */
#define REMOTE_WHOLE_MS 20000
/* Open the mirror file path now, whole or not (remote_start's heads):
 * use is the path to read it at, a copy that grows as its missing bytes
 * come (fetching true; "HOST: fetching NAME… N%" is news meanwhile),
 * or path itself when it is whole or not a remote's. false with why in
 * err when the mirror process does not answer in REMOTE_OPEN_MS. */
bool remote_open(const char *path, struct buf *use, bool *fetching, struct buf *err);
#define REMOTE_OPEN_MS 2000
/* With quiet, what the mirror process has to say comes here instead of
 * stderr: the descriptor to poll (-1 when none), and the newest line
 * read (true when there was one; lasting while a host is not back). */
int remote_news_fd(void);
bool remote_news(struct buf *out, bool *lasting);
/* How to name path in what agentview writes: "HOST:PATH" for a remote
 * source's mirror file (valid until the next call), else path. */
const char *remote_show(const char *path);
/* Whether path is the mirror of a remote's own sessions (HOST:): a
 * folder for each source of store.h, named by store_source_name, the
 * kept sessions in "kept" and each store as its root. */
bool remote_stores(const char *path);
/* The liveness of a session file of a remote's own sessions (HOST:),
 * as store_live says it from what the remote sent: its stores' files
 * (Claude's sessions/<pid>.json, Copilot's locks) and which of the pids
 * they name live there (L). SL_UNKNOWN for any other path. stale: the
 * connection has been down for REMOTE_GRACE_MS or more, the processes
 * said are the last ones known, not what runs there now. */
enum store_liveness remote_live(const char *path, enum store_source s, int64_t now_ms,
				struct buf *why, bool *stale);
/* Whether any source is remote. */
bool remote_any(void);
/* The host whose mirror path is, or is in; NULL for a local path (or a
 * NULL path). */
const char *remote_host_of(const char *path);
/* Its port as typed (digits), or NULL. */
const char *remote_port_of(const char *path);

#endif
