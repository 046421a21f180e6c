/* model.h: the event model. Lines go in one at a time; out come sessions,
 * transcript items, tool calls paired by call_id, and diagnostics, following
 * the rules of src/FORMAT.md. The model stores offsets into the sources and
 * small index entries, never copies of lines or token arrays: text is
 * decoded again from the line when it is needed. */
#ifndef AGENTVIEW_MODEL_H
#define AGENTVIEW_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"
#include "source.h"
#include "tool.h"
#include "util.h"

#define NONE UINT32_MAX
#define TIME_NONE INT64_MIN
/* An agent can be silent this long (a model call, a slow tool) while it
 * still works: a session without a result whose file was written longer
 * ago is taken as cut off (the status line, the session list). */
#define MODEL_LIVE_SECS 120
/* A call open this long, its process at work, may be held for the user's
 * approval where its store records no such wait (Codex, STORES.md §2):
 * "running or waiting" (model_session_may_wait, the session list). */
#define MODEL_MAY_WAIT_MS 5000

enum ev_type {
	EV_INIT,        /* system/init: a session starts */
	EV_USER,        /* the prompt */
	EV_THINK_DELTA, /* thinking/delta */
	EV_THINK_DONE,  /* thinking/completed */
	EV_TEXT_DELTA,  /* assistant token delta: timestamp_ms, no model_call_id */
	EV_TEXT,        /* assistant text shown as a whole segment */
	EV_TEXT_RECAP,  /* assistant text repeating streamed deltas: not shown */
	EV_TOOL_START,  /* tool_call/started */
	EV_TOOL_DONE,   /* tool_call/completed */
	EV_RESULT,      /* result */
	EV_NOTICE,      /* task_notification, connection, retry, other system,
			   unknown types and subtypes */
	EV_BAD,         /* not JSON, or JSON that is not an object */
	EV_STDERR,      /* a line the command wrote on stderr (recordings) */
	EV_META,        /* agentview's own recording lines */
	EV_HIDDEN,      /* a line of an agent's own bookkeeping (partial
			   message frames, token counters): kept, not shown */
	EV_ASK,         /* the agent asks for a decision (Cursor's
			   interaction_query/request) */
	EV_ANSWER,      /* the decision (interaction_query/response) */
	EV_NTYPES
};

/* Event flags. */
enum {
	EVF_ARRIVAL = 1, /* ms is an arrival time (live or recorded) */
	EVF_TS = 2,      /* the event carried timestamp_ms */
	EVF_GLUED = 4,   /* a whole reply text after several model steps: it
			    may hold two segments glued ("DONEThe …") */
	EVF_CUT = 8,     /* the end of a streamed segment whose whole text
			    never came: the text before was cut off */
	EVF_RULE = 16,   /* a notice that parts the transcript, drawn as a
			    rule (a conversation compacted) */
};

/* One input line that is not blank: 24 bytes. */
struct event {
	uint64_t pos;  /* offset:40 | source:8 | type:8 | flags:8 */
	uint32_t len;  /* bytes of the line without '\n'; a line longer than
			  4 GiB - 1 is cut to a diagnostic */
	uint32_t item; /* transcript item it belongs to, or NONE */
	int64_t ms;    /* arrival time when known, else timestamp_ms, else
			  TIME_NONE */
};

#define EV_OFF(e) ((size_t)((e)->pos & 0xFFFFFFFFFFull))
#define EV_SRC(e) ((unsigned)(((e)->pos >> 40) & 0xFF))
#define EV_TYPE(e) ((enum ev_type)(((e)->pos >> 48) & 0xFF))
#define EV_FLAGS(e) ((unsigned)(((e)->pos >> 56) & 0xFF))
/* Its line (its source and offset), never 0: what a parse of the line is
 * labelled with, shared by the events the line made. */
#define EV_LINE(e) (((e)->pos & 0xFFFFFFFFFFFFull) + 1)
#define MODEL_MAX_SOURCES 255

enum item_type {
	IT_SESSION,  /* a session starts (its init) */
	IT_PROMPT,   /* the user's prompt */
	IT_THINKING, /* one thinking phase: its deltas */
	IT_TEXT,     /* assistant text: consecutive shown assistant events */
	IT_TOOL,     /* a tool call, where it started (or completed, unpaired) */
	IT_NOTICE,   /* a system, connection, retry or unknown event */
	IT_DIAG,     /* a line that is not a JSON object */
	IT_STDERR,   /* a line of the command's stderr */
	IT_RESULT,   /* the result event */
	IT_QUERY,    /* a decision asked for (ref: query index) */
	IT_NTYPES
};

/* Item flags. */
enum {
	IF_CUT = 1, /* streamed text whose message was cut off (the agent may
		       send it again): not part of the reply */
};

/* One transcript entry: 24 bytes. */
struct item {
	uint32_t first_ev; /* the event that made it */
	uint32_t last_ev;  /* the latest event added to it */
	uint32_t session;
	uint32_t ref; /* IT_TOOL: call index; IT_DIAG: diag index */
	uint8_t type; /* enum item_type */
	uint8_t src;
	uint8_t depth; /* 0; 1 for what a sub-agent did, 2 for its own
			      sub-agent's, ... */
	uint8_t flags; /* IF_* */
	uint16_t nev;  /* events in it, saturating at 65535 */
};

enum call_result {
	CR_NONE, /* no completed event (yet) */
	CR_SUCCESS,
	CR_FAILURE,
	CR_REJECTED,
	CR_ERROR,
	CR_OTHER, /* a result variant nobody documented */
	CR_EMPTY, /* completed, but with no result object */
};

enum call_state { CS_RUNNING, CS_OK, CS_FAILED, CS_REJECTED, CS_ERROR, CS_ORPHANED, CS_NSTATES };

/* Call flags. */
enum {
	CF_STARTED = 1,    /* a started event was seen */
	CF_ARGS_DONE = 2,  /* the completed event carries args */
	CF_BACKGROUND = 4, /* it went on in the background when it completed:
			      its end is a later notification (bg_ev) */
	CF_SUB = 8,        /* a sub-agent it ran made items (under its own) */
};

/* One tool call. Times are ms on the session's clock, or TIME_NONE. */
struct call {
	uint32_t start_ev; /* NONE for a completed event that never started */
	uint32_t done_ev;  /* NONE while open */
	uint32_t session;
	uint32_t item;
	uint32_t parent; /* the sub-agent call it was made under, or NONE */
	uint32_t query;  /* the latest decision asked about it, or NONE */
	uint32_t bg_ev;  /* CF_BACKGROUND: the notification that it ended,
			      or NONE */
	uint32_t waits;  /* an await: the call it waits for, or NONE */
	int64_t start_ms;
	int64_t end_ms;
	uint8_t kind;   /* enum tool_kind */
	uint8_t result; /* enum call_result */
	uint8_t flags;
	uint8_t bg_result; /* CF_BACKGROUND: how it ended (enum call_result) */
	uint16_t spart;    /* the part of its started line that is the call
			      (a line can start several: Claude Code), or
			      CALL_PART_FAR */
	uint16_t dpart;    /* the part of its completed line, or CALL_PART_FAR */
};
/* A call's part past those counted: its line is not read for its facts. */
#define CALL_PART_FAR UINT16_MAX

/* A task of a session's task list (Claude Code's TaskCreate makes one;
 * TaskUpdate changes it): the call that made it (NONE: one made before
 * the stream), its state now (enum todo_state, or TASK_GONE). */
struct task {
	uint32_t session, call;
	uint32_t step; /* the step that made it (m->todo) */
	uint8_t state;
};
#define TASK_GONE 255

/* A call that made or changed one task of its session's list: which, its
 * state then, and the list's size and tasks done after it. */
struct todo_step {
	uint32_t call, task;
	uint32_t total, done;
	uint8_t state;
};

/* Decisions the agent asks for (Cursor's interaction_query). */
enum query_kind {
	QK_WEB_FETCH,
	QK_WEB_SEARCH,
	QK_QUESTION,
	QK_PLAN,
	QK_SHELL,
	QK_OTHER,
};

enum query_decision {
	QD_PENDING,
	QD_APPROVED,
	QD_REJECTED,
	QD_SKIPPED,  /* rejected as an answer: nobody answered the question */
	QD_ANSWERED, /* an answer was given */
};

/* A decision asked for, paired with its answer by the query's id. */
struct query {
	uint32_t ask_ev;    /* NONE: an answer whose question never came */
	uint32_t answer_ev; /* NONE while waiting */
	uint32_t session;
	uint32_t item;
	uint32_t call;    /* the tool call it is about, or NONE */
	uint8_t kind;     /* enum query_kind */
	uint8_t decision; /* enum query_decision, as of the answer */
};

/* Tokens, with one meaning for every agent: input without the cache's
 * reads and writes, the cache's reads, its writes, output with reasoning
 * included. */
struct tokens {
	int64_t in, cache_read, cache_write, out;
};

enum session_state {
	SS_LIVE,       /* no result yet and the input is still open */
	SS_OK,         /* result with is_error false */
	SS_FAILED,     /* is_error true, or the command exited non-zero */
	SS_INCOMPLETE, /* the input ended without a result */
	SS_WAITING,    /* live, and a decision asked for has no answer yet */
	SS_NSTATES
};

struct session {
	uint32_t init_ev;   /* NONE: events came before any system/init */
	uint32_t result_ev; /* NONE until the result */
	uint32_t first_ev;
	uint32_t last_ev;
	uint32_t first_item;
	uint32_t src;
	int64_t start_ms;    /* time of the first event with a time, or
				its stream's opening before it */
	int64_t opened_ms;   /* when its stream was opened live, if it is
				the first session of it, or TIME_NONE
				(model_stream_opened) */
	int64_t last_ms;     /* time of the latest event with a time */
	int64_t duration_ms; /* the result's duration_ms, or TIME_NONE */
	int64_t closed_ms;   /* when its stream ended while it had no result
				(model_stream_closed), or TIME_NONE */
	uint32_t closed_ev;  /* the event as of which that is known: its
				source's last then, or a recording's end
				line */
	uint32_t ncalls;
	uint32_t nopen;             /* calls with no completed event */
	uint32_t nbg;               /* completed calls still going on in the
				background */
	uint32_t ndone[CS_NSTATES]; /* completed calls by state */
	uint32_t nprompts;
	uint32_t nasking; /* decisions asked for with no answer yet */
	bool has_cut;     /* some of its text is IF_CUT */
	bool is_error;    /* the result said so */
	bool goes_on;     /* a background task ended after its result:
			     the agent starts another turn */
	uint32_t turn_ev; /* its latest result or init of another turn
			     (m->turns links each to the one before) */
	uint32_t nturns;  /* turns begun: its init, and each init after */
	uint32_t nresults;
	uint32_t ntasks; /* its task list: tasks, and tasks done */
	uint32_t ntasks_done;
	uint8_t agent;    /* enum agent_id: whose stream it is */
	uint32_t cwd_off; /* its cwd: bytes [cwd_off, cwd_off + cwd_len) of
				its start line, as JSON writes them (paths
				are shown relative to it); cwd_len 0: none */
	uint32_t cwd_len;
	uint32_t facts_ev;  /* a later line that holds the facts its start
			       does not (Claude Code's store names the model
			       on its first reply), or NONE */
	uint32_t fail_ev;   /* the line that says why it failed, when no
			       result of its own says it (an API error in
			       Claude Code's store), or NONE */
	uint32_t stop_ev;   /* the line that says the run was stopped
			       (Copilot's abort: killed, or the user's
			       Esc), or NONE: its open calls never end, and
			       it ends there without a result */
	uint32_t prompt_ev; /* its latest prompt, or NONE: one after its
			       stop takes it up again */
	bool has_tokens;    /* its store said its tokens (build_tokens) */
	bool tok_sum;       /* they are its lines' own, summed (no total said):
			       what a piece of its file adds to another's */
	struct tokens tok;  /* what they are, as of its latest line */
};

/* Why a line is a diagnostic. */
enum diag_code {
	DG_JSON,     /* json_parse failed: see err */
	DG_TOO_LONG, /* longer than 4 GiB */
	DG_RECORDED, /* a non-JSON line kept in a recording */
	DG_DOCUMENT, /* the first line opens a JSON document written across
			lines (Gemini CLI's older session-*.json): the
			lines after it are not read */
};

struct diag {
	uint64_t line; /* 1-based line number in its source */
	uint32_t ev;
	uint32_t pos; /* byte where the error was found */
	uint8_t code; /* enum diag_code */
	uint8_t err;  /* enum json_err */
};

/* How a wrapped command ended (from the runner or a recording). */
struct command_info {
	bool present;
	char **argv; /* NULL-terminated; owned */
	bool exited;
	int exit_status;      /* when exited */
	int signal;           /* 0 unless killed by a signal */
	uint32_t nstderr;     /* stderr lines seen */
	uint32_t last_stderr; /* the newest stderr event that says something,
				 or NONE */
};

struct ahead;

/* Per-source parsing state. */
struct srcstate {
	struct source *src;  /* not owned */
	struct ahead *ahead; /* the parser thread, while one runs; owned */
	bool ahead_tried;    /* one was started (or could not be) */
	uint32_t session;    /* current session, NONE before the first event */
	uint32_t think_item; /* open thinking item, or NONE */
	uint32_t text_item;  /* open assistant text item, or NONE */
	bool seg_deltas;     /* the current text segment had deltas */
	bool seg_whole;      /* ...and the whole segment came after them */
	uint8_t steps;       /* thinking phases ended since the last text or
				 tool call: model steps that said nothing */
	bool ended;          /* the source reached its end for good */
	uint32_t thread;     /* the sub-agent call its latest line came from,
				 or NONE for the session's own */
	/* The open items of the thread before (the session's own while a
	 * sub-agent talks, the sub-agent's while the session does), so that
	 * interleaved streams each go on in their own items. */
	uint32_t away_thread, away_text, away_think;
	bool away_seg, away_whole;
	int64_t opened_ms;  /* when it was opened live, until its first
			       session takes it (model_stream_opened), or
			       TIME_NONE */
	bool recording;     /* lines carry agentview_ms */
	uint32_t stderr_of; /* a command's stderr: the source whose sessions
				 its lines join (each line an EV_STDERR);
				 NONE for any other source */
	uint32_t last_ev;   /* its latest event, NONE before the first */
	uint32_t sub_of;    /* the source whose session its lines go on, as
			       a sub-agent's (model_set_parent), or NONE */
	char *sub_call;     /* the id of the call that sub-agent runs under
			       (owned), or NULL */
	bool document;      /* it is one JSON document across lines: its
			       first line is a DG_DOCUMENT diagnostic, the
			       others are not read */
	size_t first_off;   /* where a recording's header says the stream's
			       own first line is (0: none said) */
	/* With the model's totals_late: the running totals lines of its
	 * session passed over since they were last read. */
	struct line *late;
	size_t nlate, latecap;
};

/* An item of a sub-agent, and the item of the call that ran it. */
struct subitem {
	uint32_t item, parent;
	uint32_t top; /* the item its chain of parents starts at */
};

struct order;

/* A map of open calls by (session, call_id hash). */
struct callmap {
	struct callslot *v;
	size_t cap; /* power of two */
	size_t n;
};

struct model {
	struct event *ev;
	size_t nev, evcap;
	struct item *it;
	size_t nit, itcap;
	struct session *ses;
	size_t nses, sescap;
	struct call *call;
	size_t ncall, callcap;
	struct diag *diag;
	size_t ndiag, diagcap;
	struct query *query;
	size_t nquery, querycap;
	struct srcstate src[MODEL_MAX_SOURCES];
	size_t nsrc;
	struct callmap open;  /* open calls */
	struct callmap ids;   /* every call, by its id */
	struct callmap asks;  /* decisions asked for, by query id */
	struct callmap qwait; /* decisions about a call that has not started
				 yet, by the call's id: query index */
	struct callmap bg;    /* calls gone to the background, by task id */
	struct callmap turns; /* a session's result or init of another turn:
				 the one before it, by event */
	struct task *task;    /* every session's task list */
	size_t ntask, taskcap;
	struct todo_step *todo; /* each call that changed one, in order */
	size_t ntodo, todocap;
	struct callmap tasks;    /* a task by (session, its id): its index */
	struct callmap steps;    /* a call's step, by the call */
	struct callmap progress; /* a call's latest progress line, by the
				    call */
	struct callmap msgs;     /* the messages whose tokens were counted,
				    by their id (build_usage) */
	struct callmap seen;     /* ids of records an agent's store writes
				    again (build_seen) */
	struct subitem *sub;     /* every item of a sub-agent, in order */
	size_t nsub, subcap;
	bool moved;                /* a sub-agent's item came after items that
				      are not its task's: the order the
				      outputs walk is not the items' */
	struct order *order;       /* that order, made when asked for
				      (model_order.c); NULL in a reader */
	struct json *json;         /* parser for model_add_line */
	struct json_keys top_keys; /* what model_add_line looks up */
	uint32_t json_ev;          /* the event whose line json holds, or NONE */
	struct json *qjson;        /* parser for queries */
	struct json *qjson2;       /* a second one, when two events are needed */
	struct json *qjson3;       /* a third, for an event a call's facts take
				      from besides its own (the task a todo
				      update changes: the call that made it) */
	struct json *sjson;        /* the newest session's start, kept parsed
				      (its facts are asked for after the lines
				      that follow it); NULL in a reader */
	uint64_t lines;            /* input lines read, blank ones included */
	uint64_t bytes;            /* input bytes read */
	struct command_info cmd;
	int64_t now_ms;     /* the clock for live states (set by the caller) */
	uint32_t limit;     /* a replay's cut-off: the last event shown, or
			       NONE for all. Items, calls, sessions and
			       diagnostics past it are not shown; states,
			       counts, texts and durations are as of it. */
	size_t ahead_min;   /* parse on a second thread the lines of a whole
			       file with more bytes than this ahead */
	int agent;          /* the agent every line is read as (--agent),
			       or -1: recognised per session */
	uint32_t said;      /* a session whose state the caller knows better
			     than its lines (a store's liveness: the list's
			     row), or NONE */
	uint8_t said_state; /* enum session_state of said */
	bool totals_late;   /* a session's running totals lines (an
			       adapter's LINE_TOTALS, whole) passed over
			       unparsed, only the newest read, when its
			       source ends or its session does
			       (model_read_totals): for a reader of whole
			       files, which asks for tokens at the end */
	struct json *ljson; /* the parser for those */
	bool may_wait;      /* its newest session's process is at work, as
			       its store says, which records no wait for an
			       approval (Codex's; the list's row says so):
			       model_session_may_wait */
	bool same_axis;     /* every session's axis as long as the longest
			       one's, from its own start (--compare on a
			       screen: runs drawn on one time axis; the
			       sessions of source 0 are run A, the others'
			       run B: model_session_run) */
};

struct model *model_new(void);
void model_free(struct model *m);
/* Forget every event, keeping the sources (a followed file restarts). */
void model_clear(struct model *m);
/* model_clear, and what it knew of a command (a recording's argv, its
 * end) too: the model is read anew from other bytes (a file's piece). */
void model_reset(struct model *m);
/* r (zeroed at first) becomes a reader of m for another thread: a copy
 * that shares m's arrays and sources and has parsers of its own, so that
 * queries (texts, fields, tool descriptions) can run on r and on m at
 * once. Valid while m does not change: sync again after it did. Freed
 * with model_reader_free, never model_free. */
void model_reader_sync(struct model *r, const struct model *m);
void model_reader_free(struct model *r);

/* Register a source; returns its index. Lines of different sources may
 * interleave; each source has its own current session. */
unsigned model_add_source(struct model *m, struct source *s);
/* Source src carries the stderr of the command whose stdout is source
 * `of`: every line of it is an EV_STDERR item in of's current session. */
void model_set_stderr(struct model *m, unsigned src, unsigned of);
/* Source src holds a sub-agent of the session of source `of` (Claude
 * Code's store keeps each in a file of its own): its lines go on that
 * session, under the call whose id is call (NULL: none known). */
void model_set_parent(struct model *m, unsigned src, unsigned of, const char *call);
/* Add one line of source src. arrival_ms is when it was read live, or
 * TIME_NONE for a file read at once. Returns the new event, or NONE for a
 * blank line. */
uint32_t model_add_line(struct model *m, unsigned src, const struct line *ln, int64_t arrival_ms);
/* With m->totals_late: the tokens of source src's session from the newest
 * of its running totals lines passed over that says them, as though each
 * had been read in its turn (they are cumulative). Called when the source
 * ends; a new session of it, and a line that says tokens, call it first. */
void model_read_totals(struct model *m, unsigned src);
/* The bytes of source src are about to go away (closed, unmapped): stop
 * the thread that may be reading them ahead. Lines may still be added. */
void model_release_source(struct model *m, unsigned src);
/* The source ended for good: its open session is incomplete. */
void model_end_source(struct model *m, unsigned src);
/* Source src was opened live at ms (a pipe, a command's output; read
 * back, a recording's header says when), on the clock its lines arrive
 * on: the first session of its stream started then, not at its first
 * line (a CLI writes that seconds after it starts), unless that line
 * came before. */
void model_stream_opened(struct model *m, unsigned src, int64_t ms);
/* The stream of source src ended at ms (the clock its lines arrived on;
 * a recording's end line says it): the session it was in, if it has no
 * result, lasted until then, however long it was silent. */
void model_stream_closed(struct model *m, unsigned src, int64_t ms);
/* Every source has ended. */
bool model_ended(const struct model *m);

/* Whether event e is shown: it exists and is not past m->limit. */
static inline bool
model_seen(const struct model *m, uint32_t e)
{
	return e != NONE && e <= m->limit;
}

/* How many items, calls, sessions and diagnostics are shown: the ones
 * whose first event is not past m->limit (they are in that order, so this
 * is a binary search). All of them when there is no limit. */
size_t model_nitems(const struct model *m);
size_t model_ncalls(const struct model *m);
size_t model_nsessions(const struct model *m);
size_t model_ndiags(const struct model *m);

/* The state a completed call's result gives it. */
enum call_state model_result_state(enum call_result r);

/* What people read about a session, wherever its agent's stream keeps
 * it (agent.h says where). */
enum fact {
	FACT_ID,      /* the session id */
	FACT_MODEL,   /* the model's name */
	FACT_CWD,     /* the working directory */
	FACT_MODE,    /* the permission mode */
	FACT_BRANCH,  /* the git branch it worked on */
	FACT_REQUEST, /* in its end: the request id */
	FACT_RESULT,  /* in its end: the reply as the result says it */
	FACT_USAGE,   /* in its end: the usage object */
	FACT_COST,    /* in its end: what it cost, in US dollars */
	FACT_TURNS,   /* in its end: the model turns it took */
	FACT_ERROR,   /* in its end: why it failed, when its end says so
			 apart from the result */
	FACT_DENIALS, /* in its end: the permissions denied (an array) */
	FACT_STOP,    /* in its end: why the run stopped ("completed",
			 "max_turns": Claude Code's terminal_reason) */
	FACT_COUNT
};

/* Append session s's working directory, decoded; false when unknown.
 * Cheap: where it is was kept when the session started. */
bool model_session_cwd(const struct model *m, uint32_t s, struct buf *out);
/* Members of the array or object at path in event e, or -1. */
int64_t model_event_count(struct model *m, uint32_t e, const char *path);
/* Append how background call c's task ended, as the notification of its
 * end says it (its adapter's task_status); false when it does not. */
bool model_task_status(struct model *m, uint32_t c, struct buf *out);
/* Append the answer its notification gives, for a sub-agent's: false
 * when it gives none (or an empty one). */
bool model_task_answer(struct model *m, uint32_t c, struct buf *out);
/* Append fact f of session s (a string, or a primitive's text); false
 * when its stream does not say it (or not yet, as of m->limit). */
bool model_fact(struct model *m, uint32_t s, enum fact f, struct buf *out);
/* The event that holds fact f of session s, and the path to it in the
 * event; NONE when there is none. */
uint32_t model_fact_at(const struct model *m, uint32_t s, enum fact f, const char **path);

/* The latest result of session s shown, or NONE. A session can have
 * several (Claude Code starts a turn of its own when a background agent
 * ends): the last one is its end, unless another turn is on its way. */
uint32_t model_last_result(const struct model *m, uint32_t s);
/* Whether result event e ends its session: its latest, with no other
 * turn on the way (as of m->limit). */
bool model_result_closes(const struct model *m, uint32_t e);
/* The whole number at path of session s's end, the path of fact f (a
 * path under it for FACT_USAGE): summed over its results when its agent
 * counts each turn's apart (agent.h: fact_add). Parses into m->qjson. */
bool model_end_int(struct model *m, uint32_t s, enum fact f, const char *path, int64_t *out);

/* The latest line of progress of call c (a sub-agent's: Claude Code's
 * task_progress), when it is shown; NONE otherwise. */
uint32_t model_call_progress(const struct model *m, uint32_t c);
/* The step of the task list call c made, when it made or changed one;
 * false otherwise. */
bool model_todo_step(const struct model *m, uint32_t c, struct todo_step *out);
/* The tasks of call c's session as of c's step, in the order they were
 * made: for each, fn(ctx, the call that made it (NONE: unknown), its state
 * then). False when c made no step. */
bool model_todo_list(const struct model *m, uint32_t c,
		     void (*fn)(void *ctx, uint32_t call, enum todo_state st), void *ctx);

/* Derived states (as of m->limit). */
enum call_state model_call_state(const struct model *m, uint32_t c);
enum session_state model_session_state(const struct model *m, uint32_t s);
/* Calls of session s by state, open ones counted as running or orphaned. */
void model_session_counts(const struct model *m, uint32_t s, uint32_t counts[CS_NSTATES]);
const char *model_call_state_name(enum call_state st);
const char *model_session_state_name(enum session_state st);
/* When a call ended: its completion, or for one that went on in the
 * background, the notification that it ended; TIME_NONE while it runs or
 * when unknown. */
int64_t model_call_end(const struct model *m, uint32_t c);
/* Session s's tokens as its store counts them (build_tokens): false when
 * its lines said none that way (a stream's are in its result). */
bool model_session_tokens(const struct model *m, uint32_t s, struct tokens *out);
/* Whether live session s may be held for an approval nothing records
 * (m->may_wait): the newest, its newest open call started
 * MODEL_MAY_WAIT_MS or more before m->now_ms, with no output yet. */
bool model_session_may_wait(const struct model *m, uint32_t s);
/* Whether session s waits for a decision (as of m->limit). */
bool model_session_asking(const struct model *m, uint32_t s);
const char *model_query_decision_name(enum query_decision d);
/* Duration of a call in ms: end - start, or now - start while running;
 * TIME_NONE when unknown. */
int64_t model_call_duration(const struct model *m, uint32_t c);
/* The session's duration: the result's duration_ms, or its span of
 * events (to the end of its stream, when that is known), or (while live
 * or waiting) now - start. TIME_NONE when unknown. */
int64_t model_session_duration(const struct model *m, uint32_t s);
/* How long session s was silent before its stream ended without a
 * result: from its last event with a time to that end; TIME_NONE when
 * that is not known (as of m->limit). */
int64_t model_session_silence(const struct model *m, uint32_t s);
/* Whether session s has a time at all: a stream without times (Codex's,
 * read from a file) has no axis to draw its calls on. */
bool model_session_timed(const struct model *m, uint32_t s);
/* The time axis of session s, on which its calls are drawn as bars (the
 * timeline, the HTML page): [*a0, *a1] in ms, never empty. */
void model_session_axis(const struct model *m, uint32_t s, int64_t *a0, int64_t *a1);
/* Of two runs compared on a screen (same_axis), the one session s is of:
 * 'A' (the first file's) or 'B'; 0 when no runs are compared. */
char model_session_run(const struct model *m, uint32_t s);
/* The newest session of run ('A' or 'B'), or NONE. */
uint32_t model_run_last(const struct model *m, char run);
/* Where call c lies on its session's axis, as fractions of it: 0 <=
 * *from <= *to <= 1. A call with no start time starts at 0; one with no
 * end ends now while it runs, else at the end of the axis. */
void model_call_span(const struct model *m, uint32_t c, double *from, double *to);

/* The bytes of event e's line, and its length. */
const char *model_line(const struct model *m, uint32_t e, size_t *len);
/* The line number of event e in its source: stored for diagnostics,
 * otherwise counted from the start of the source (linear). */
uint64_t model_event_lineno(const struct model *m, uint32_t e);
/* Parse event e's line into j (a JSON object). False for EV_BAD. */
bool model_parse(const struct model *m, uint32_t e, struct json *j);
/* The parsed line of event e: the model's own parse when e is the event
 * model_add_line just added (so a printer or the screen looking at the
 * newest event does not parse it again), else e's line parsed into
 * scratch, unless scratch is m->qjson or m->qjson2 and already holds it.
 * NULL when the line is not a JSON object. */
const struct json *model_parsed(const struct model *m, uint32_t e, struct json *scratch);
/* Keep the model's parse of the line of event e, just added, in m->qjson
 * (the two parsers trade places): model_parsed(m, e2, m->qjson) of an
 * event of that line parses nothing until something else is parsed there.
 * For a call's start, read again when the call ends. */
void model_keep_parse(struct model *m, uint32_t e);

/* Append to out the decoded text of an item: the prompt, the thinking, the
 * assistant text; for a diagnostic or stderr line, the line itself. */
void model_item_text(struct model *m, uint32_t it, struct buf *out);
/* The agent (enum agent_id) whose stream event e is from. */
unsigned model_event_agent(const struct model *m, uint32_t e);
/* Append the decoded text of one assistant or thinking event; of a line
 * that is not JSON, its first MODEL_EXCERPT bytes (model_bad_text). */
void model_event_text(struct model *m, uint32_t e, struct buf *out);
/* A line that is not JSON (EV_BAD) is shown, copied and searched by its
 * first MODEL_EXCERPT bytes, in every format and on the screen: a line of
 * gigabytes costs its excerpt, never a copy of itself. */
#define MODEL_EXCERPT 200
/* Append the first MODEL_EXCERPT bytes of bad line e's text (no UTF-8
 * sequence cut; a recorded line decoded), and return its whole length. */
size_t model_bad_text(struct model *m, uint32_t e, struct buf *out);
/* Append the decoded value of a string field of event e at path ("model"
 * or "cwd" of an init; "a.b"; "a|b" for either); false when absent. */
bool model_event_field(struct model *m, uint32_t e, const char *path, struct buf *out);
/* Append a one-line account of a notice: "connection lost, reconnecting
 * (attempt 2)", "task sleep 5 completed"; for an event nobody documented,
 * its type/subtype and its whole JSON line. */
void model_notice_text(struct model *m, uint32_t e, struct buf *out);
/* Append why session s failed when the wrapped command's end says so:
 * "exit status 1: <its last stderr line>", "killed by signal 9"; false
 * (nothing appended) when the command did not fail or speaks for another
 * session. */
bool model_command_failure(struct model *m, uint32_t s, struct buf *out);
/* Append a diagnostic's message ("not JSON: truncated JSON at byte 41"). */
void model_diag_message(const struct model *m, uint32_t d, struct buf *out);

/* The order the transcript is read in, on screen and in every output:
 * each item, then the items of the sub-agent its call ran (a level
 * deeper), wherever their lines arrived among the others; as of
 * m->limit. Positions 0 to model_nitems(m) - 1. The order is made when
 * first asked for after items came (O(items) when a sub-agent's items
 * came late, else none at all): the thread that adds lines only. */
uint32_t model_order_item(struct model *m, uint32_t pos);
/* Item it's position, or NONE when it is not shown. */
uint32_t model_order_pos(struct model *m, uint32_t it);
/* The same for the calls (the timeline's rows): the call at row `row`,
 * and call c's row; NONE when not shown. */
uint32_t model_order_call(struct model *m, uint32_t row);
uint32_t model_call_row(struct model *m, uint32_t c);
/* The item of the call whose sub-agent made item it, or NONE. */
uint32_t model_item_parent(const struct model *m, uint32_t it);
/* The item the chain of parents of item it starts at (the top-level
 * call whose sub-agents, however deep, made it), or NONE: at once, not
 * up the chain. */
uint32_t model_item_top(const struct model *m, uint32_t it);
/* Forget the order (the model is cleared or freed). */
void model_order_free(struct model *m);

/* Index of the item holding event e, or the nearest item before it. */
uint32_t model_item_at_event(const struct model *m, uint32_t e);

#endif
