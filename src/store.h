/* store.h: where the agents keep their own sessions (../shared/STORES.md),
 * which of those sources `agentview` alone lists, and whether a store's
 * session still has a process behind it.
 *
 * Each source is a root folder (its CLI's environment variable, else a
 * folder of HOME) and the patterns of its session files under it, one
 * folder level a part ("projects/x/y.jsonl"): fleet.c walks and watches
 * them (fleet_add_store), so that a new session, project or day shows up
 * live. A root that does not exist is said, never made. Nothing here
 * writes, locks or renames in a root, follows a link out of it, or opens
 * a `*.key` file; files are opened O_RDONLY | O_NOFOLLOW.
 *
 * Liveness, the strongest signal first (store_live):
 *   Claude Code  <root>/sessions/<pid>.json names the session, its pid
 *                lives and started when the file says (procStart, the
 *                22nd field of /proc/<pid>/stat): busy, waiting (+
 *                waitingFor) or idle. No such file while <root>/sessions
 *                exists: no process.
 *   Copilot CLI  session-state/<id>/inuse.<pid>.lock holding that pid, live:
 *                running; none: no process. Waiting is its adapter's:
 *                build_ask on permission.requested and build_answer on
 *                its permission.completed (agent.h) leave the row a
 *                decision asked for, and a running row with one reads
 *                waiting (fleet_row_state); one whose model had the last
 *                word is at its prompt, idle (fleet_read.c's file_life).
 *   Gemini CLI   a `gemini` process whose cwd is the project
 *                (tmp/<project>/.project_root): maybe running, a guess
 *                the file's age decides; none: no process, and the chat's
 *                last item says how it ended (fleet_read.c's store_end).
 *   Codex        while a codex process lives and its writer's -wal and
 *                -shm are there, thread_history_1.sqlite (opened
 *                read-only: a mode=ro URI; busy or unreadable: nothing
 *                known): its thread's newest turn inProgress: running (or
 *                waiting for an approval, which it never records);
 *                closed: idle. Else, or a thread it does not have: the
 *                file's age. A remote's (store_live_codex_far): only
 *                whether a codex process of that root lives there (its
 *                index is not read over ssh): none, no process; one, the
 *                file's age.
 *   Cursor       a `cursor-agent` process whose cwd, dashed as Cursor
 *                names a project's folder, is the transcript's project:
 *                maybe running, a guess the file's age decides; none: no
 *                process (its name and install path not seen here).
 *   kept files   nothing here; the file's age (fleet.c).
 * A process is a CLI's when its name (comm) is one that counts and its
 * argv runs the CLI (store_proc_name, store_cli: a remote's program
 * judges its processes by the same table). /proc is read through struct
 * store_proc, which the unit tests fake. */
#ifndef AGENTVIEW_STORE_H
#define AGENTVIEW_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum store_source {
	SRC_CLAUDE,
	SRC_CODEX,
	SRC_GEMINI,
	SRC_COPILOT,
	SRC_CURSOR,
	SRC_KEPT, /* agentview's own folder of kept sessions (keep.h) */
	SRC_COUNT
};

#define STORE_ALL ((1u << SRC_COUNT) - 1)

/* "claude", ..., "kept". */
const char *store_source_name(enum store_source s);
/* The sources a comma-separated list names ("claude,codex"; blanks
 * around names allowed; NULL, "" or "all": every one) into *mask; -1
 * with the reason in err for a name that is none. */
int store_sources(const char *list, unsigned *mask, struct buf *err);
/* The sources --sources (NULL when not given) or else AGENTVIEW_SOURCES
 * choose; -1 as store_sources. */
int store_sources_chosen(const char *opt, unsigned *mask, struct buf *err);

/* The root of store s (not SRC_KEPT) into out, from its environment
 * variable or HOME; false when neither is set. */
bool store_root(enum store_source s, struct buf *out);
/* How the root of s (not SRC_KEPT) is found, for a shell elsewhere to
 * find it the same way: *var's value (when set and not empty; *var NULL
 * when there is none) then *sub, else HOME, '/', then *home. */
void store_root_rule(enum store_source s, const char **var, const char **sub, const char **home);
/* Where the root comes from: "$CLAUDE_CONFIG_DIR or ~/.claude". */
const char *store_root_words(enum store_source s);
/* The patterns of s's session files under its root, one per line, each
 * a path of fnmatch(3) patterns, one a folder level; a line after '!'
 * leaves out the files it names. */
const char *store_patterns(enum store_source s);
/* The files under s's root its liveness reads beside its sessions: those
 * whose names are the pids of its live processes (Claude's
 * sessions/<pid>.json, Copilot's inuse.<pid>.lock), or Gemini's projects'
 * folders (tmp/<project>/.project_root); one pattern as store_patterns's
 * lines; NULL for none. */
const char *store_live_files(enum store_source s);
/* Whose sessions source s's are ("Codex's own sessions"). */
const char *store_what(enum store_source s);

/* Whether a process lives (what /proc says), for store_live. */
struct store_proc {
	void *ctx;
	/* The start time of process pid (clock ticks after boot, the 22nd
	 * field of /proc/pid/stat) into *start; false when it is gone. */
	bool (*start)(void *ctx, long pid, uint64_t *start);
	/* The processes, into v (room for max); how many there are. */
	size_t (*pids)(void *ctx, long *v, size_t max);
	/* Its argv, NUL-separated, into out; false when unreadable. */
	bool (*cmdline)(void *ctx, long pid, struct buf *out);
	/* Its working folder into out; false when unreadable. */
	bool (*cwd)(void *ctx, long pid, struct buf *out);
	/* Its environment, NUL-separated, into out; false when unreadable. */
	bool (*environ)(void *ctx, long pid, struct buf *out);
	/* Its name (/proc/pid/comm: its program's, cut at 15 bytes) into
	 * out; false when unreadable. NULL: every process is looked at. */
	bool (*comm)(void *ctx, long pid, struct buf *out);
};

/* The i-th name (comm) of the processes that may be an agent CLI's: the
 * CLIs' own (store_cli's, in its order), then the JavaScript runtimes'
 * that run them; NULL past the last. Only they are looked at (their argv
 * then judged: store_cli), here and by a remote's program (remote.c
 * makes its own from these), so that both count the same processes. */
const char *store_proc_name(size_t i);
/* The i-th CLI whose processes liveness looks for, of source *s: a
 * process runs it when the first or the second word of its argv is name
 * (its last part) or holds pkg (a path in its npm package); a process is
 * of the first CLI it runs, never two. False past the last. */
bool store_cli(size_t i, enum store_source *s, const char **name, const char **pkg);

/* Up to cap - 1 bytes of the file at path (with nofollow: a regular file,
 * never through a link, never waiting on a fifo) into out; false when it
 * cannot be read. */
bool store_read_small(const char *path, size_t cap, struct buf *out, bool nofollow);

/* The real /proc. */
extern const struct store_proc store_proc_linux;

enum store_liveness {
	SL_UNKNOWN, /* no signal: the file's age decides */
	SL_GONE,    /* no process has it: never running */
	SL_IDLE,    /* its process lives, waiting for a prompt: not running */
	SL_RUNNING, /* its process works on it */
	SL_WAITING, /* its process waits for the user's decision */
	SL_GUESS,   /* a process may have it (Gemini): the file's age decides */
};

struct store_live;

/* Liveness over proc (NULL: store_proc_linux), of the stores whose roots
 * the environment says now (store_root); read again at most once a second
 * of the clock given to store_live. */
struct store_live *store_live_new(const struct store_proc *proc);
/* The same for stores elsewhere (a remote's mirror): Claude's root given
 * (or NULL), Codex's none. */
struct store_live *store_live_new_at(const struct store_proc *proc, const char *claude_root);
/* Codex's root on the remote whose mirror sl judges (NULL: none), as
 * the remote names it: its processes' CODEX_HOME or HOME compared with
 * it by name, its thread index never read (it is there, not here), so a
 * session a codex process of that root may have is its file's age's to
 * judge (SL_UNKNOWN), and one none may have is SL_GONE. */
void store_live_codex_far(struct store_live *sl, const char *root);
void store_live_free(struct store_live *sl);
/* The liveness of the session file at path, of source s, at now_ms; what
 * it waits for (Claude's waitingFor) appended to why when not NULL. */
enum store_liveness store_live(struct store_live *sl, enum store_source s, const char *path,
			       int64_t now_ms, struct buf *why);
/* How many sessions/<pid>.json the last Claude scan read: those of live
 * pids, at most 1024 (more Claude processes at once are not seen). */
size_t store_live_claude_reads(const struct store_live *sl);

/* Where `agentview` alone looked: a line per source of mask, its folder
 * (home written ~ when it is under home) and whether it is there. */
void store_looked(unsigned mask, const char *kept_dir, const char *home, struct buf *out);

#endif
