/* agent.h: one adapter per agent stream. Cursor, Claude Code, Gemini CLI
 * and Codex each print their own NDJSON; an adapter turns the lines of its
 * agent into the model's events (a session starts, a prompt, thinking,
 * reply text, a tool call starts or ends, a notice, the session ends)
 * through the builder below, and says where its lines keep what the rest
 * of agentview reads (a session's model, usage, a call's facts: facts.h).
 * The model, the panes, search, replay, recording and every output are
 * one and the same for all agents, and know no agent's words.
 *
 * The agent of a session is recognised from its first line (each agent
 * starts a session its own way), with no flag; a source can hold sessions
 * of several agents one after another; --agent forces one. */
#ifndef AGENTVIEW_AGENT_H
#define AGENTVIEW_AGENT_H

#include <stdbool.h>
#include <stdint.h>

#include "facts.h"
#include "json.h"
#include "model.h"
#include "tool.h"
#include "util.h"

/* The top-level keys the model looks up on every line, in one pass, for
 * whichever adapter reads it: k[TOP_...] is the value token, or -1. Each
 * is a role an adapter spells its own way (struct agent's `top`);
 * agentview's own lines spell TOP_TYPE, TOP_SUBTYPE and TOP_AV_MS. */
enum top_key {
	TOP_TYPE,       /* what the line is */
	TOP_SUBTYPE,    /* what more it is */
	TOP_MS,         /* its time, ms since the epoch */
	TOP_MODEL_CALL, /* the model's step it is part of */
	TOP_CALL_ID,    /* the tool call it is about */
	TOP_TOOL_CALL,  /* the tool call it holds */
	TOP_AV_MS,      /* agentview_ms: a recording's arrival time */
	TOP_ISO,        /* its time as ISO 8601 */
	TOP_COUNT
};

/* The names the model looks up on every line: every spelling of every
 * role once (at most JSON_KEYS_MAX), and the role of each. */
struct agent_keys {
	const char *name[JSON_KEYS_MAX];
	uint8_t role[JSON_KEYS_MAX];
	int n;
	bool same; /* name r is role r's only spelling, for every role: what
		      json_getk finds needs no mapping */
};

/* A line of token usage: where a count is in the end event, and its
 * label ("in", "out", "cache read"). */
struct usage_field {
	const char *path;
	const char *label;
	bool skip_zero; /* say nothing when it is 0 */
};

/* The line being added, as the builder sees it. */
struct build {
	struct model *m;
	unsigned src;
	unsigned agent; /* the adapter reading it (enum agent_id, or one
			   agent_add gave) */
	const struct line *ln;
	const struct json *j; /* the line, parsed */
	const int *k;         /* its top-level keys: enum top_key */
	int64_t ms;           /* its time: arrival, else its own, or TIME_NONE */
	unsigned flags;       /* EVF_* of the events made of it */
	uint32_t ev;          /* the last event made of it, or NONE */
	uint32_t parent;      /* the sub-agent call it comes from, or NONE */
};

/* How a tool event names its call: the token of its id (a JSON string, an
 * opaque key), its kind, and for a completion, its result and the call's
 * own clock when the event carries one (ms, or TIME_NONE). */
struct call_ref {
	int id;
	enum tool_kind kind;
	enum call_result result;
	int64_t started_ms;
	int64_t completed_ms;
	bool has_args; /* a completion that carries the arguments again */
	int part;      /* which part of the line the call is (0: the
			    first or only one) */
};

/* The builder: each call makes one event of the line (a line may make
 * several) and returns it. build_session: a session of the adapter
 * reading the line starts. */
uint32_t build_session(struct build *b);
uint32_t build_prompt(struct build *b);
/* The line comes from the sub-agent run by the call whose id is token
 * id (Claude's parent_tool_use_id): its events go under that call. */
void build_parent(struct build *b, int id);
enum think_part {
	THINK_DELTA, /* a piece of a thinking phase */
	THINK_DONE,  /* the end of the phase */
	THINK_WHOLE, /* a whole phase at once (or, after its deltas, its end) */
};
uint32_t build_thinking(struct build *b, enum think_part part);
enum text_part {
	TEXT_DELTA,   /* a piece of a streamed segment */
	TEXT_SEGMENT, /* a whole segment: after deltas of the same segment it
			 only repeats them and is not shown */
	TEXT_MESSAGE, /* a whole message, a paragraph of its own */
};
uint32_t build_text(struct build *b, enum text_part part);
uint32_t build_call_start(struct build *b, const struct call_ref *r);
uint32_t build_call_done(struct build *b, const struct call_ref *r);
struct agent;
/* A call starts from a tool_use block t of the line (Anthropic's message
 * shape: its id, its name read by agent a's table), part `part` of it. */
uint32_t build_tool_use(struct build *b, const struct agent *a, int t, int part);
/* The same for a store that names no calls (Cursor's transcripts): it
 * completes the oldest open call of the line's thread (the session's, or
 * a sub-agent's), its results coming in its calls' order. */
uint32_t build_call_done_next(struct build *b, const struct call_ref *r);
/* The call that event e (of this line) started also goes by name[0..n):
 * a sub-agent's file naming it so (agent_more_fn's call) runs under it,
 * where the store gives its calls no id (Cursor's transcripts). */
void build_call_name(struct build *b, uint32_t e, const char *name, size_t n);
uint32_t build_result(struct build *b, bool is_error, int64_t duration_ms);
/* Another turn of the session starts (a hidden line): the session goes on
 * until that turn's result. */
uint32_t build_turn(struct build *b);
/* A system, connection or retry event, or one nobody documented. */
uint32_t build_notice(struct build *b);
/* A notice that parts the transcript (a conversation compacted): drawn as
 * a rule across. */
uint32_t build_rule(struct build *b);
/* A line of progress of the call whose id is token call (a hidden line):
 * what it is doing, said in its running call's words. */
uint32_t build_progress(struct build *b, int call);
/* A line of the agent's own bookkeeping: kept, not shown. */
uint32_t build_hidden(struct build *b);
/* A streamed segment ends (a hidden line): if its whole text never came,
 * its message was cut off (Claude Code sends it again). */
uint32_t build_segment_end(struct build *b);
/* A call goes on in the background under task id `task` (a token): the
 * call whose id is token `call`, or with call < 0 the one this line just
 * made. It ends with build_task_end. */
void build_background(struct build *b, int call, int task);
/* The kind (enum tool_kind) of the call whose id is token id, in the
 * session of the line; -1 when there is no such call. */
int build_call_kind(struct build *b, int id);
/* Whether the call whose id is token id, in the session of the line, is
 * open (started, not completed). */
bool build_call_open(struct build *b, int id);
/* The call this line just started waits for background task `task`. */
void build_wait(struct build *b, int task);
/* The notice that background task `task` ended, how, and how long it
 * ran (run_ms, or TIME_NONE: until the notice came). quiet: a task that
 * names no call gone to the background says nothing (a hidden line: a
 * foreground command's task is its call's progress). */
uint32_t build_task_end(struct build *b, int task, enum call_result r, int64_t run_ms, bool quiet);
/* The same, the task named by the bytes task[0..n) (an id inside a text:
 * Claude Code's store says a sub-agent's end in words), said. */
uint32_t build_task_end_named(struct build *b, const char *task, size_t n, enum call_result r,
			      int64_t run_ms);
/* The call this line just completed made (create) or changed task `task`
 * (an id token) of its session's task list: its state now (enum
 * todo_state), or -1 when it is unchanged. A task that comes gone:
 * TASK_GONE. */
void build_todo(struct build *b, int task, int state, bool create);
/* The agent asks for a decision: its query id token, the id token of the
 * tool call it is about (-1: none), its kind. */
uint32_t build_ask(struct build *b, int id, int call, enum query_kind kind);
/* The decision on query id (kind: for an answer whose question never
 * came). */
uint32_t build_answer(struct build *b, int id, enum query_kind kind, enum query_decision d);

/* The line just built also holds the session's facts its start does not
 * (FACT_ID to FACT_BRANCH: a store whose first reply names the model), read
 * there when the start lacks them. The first such line counts. */
void build_facts(struct build *b);
/* The line's tokens, added to its session's (build_tokens) once for the
 * message whose id is token id (several lines of one message repeat
 * them; id < 0: no id, always counted). */
void build_usage(struct build *b, int id, const struct tokens *t);
/* The line just built says why the session failed (an API error with no
 * result of its own): the session's end, if it comes, failed, and this
 * line's notice is why. */
void build_failure(struct build *b);
/* The line just built says the run was stopped (Copilot's abort: the
 * CLI killed, or its user's Esc): the calls open then never end
 * (orphaned) and the session has ended without a result (incomplete),
 * until a prompt takes it up again. build_stopped: whether the line's
 * session is stopped so (what its agent writes after, a result, is no
 * clean end). */
void build_stop(struct build *b);
bool build_stopped(const struct build *b);
/* Whether a record of id token id (kind what, 0 to 3) came before in the
 * line's session; it is remembered. An agent's store may write a record
 * again (Gemini CLI's chats: the same message, then with its calls). */
bool build_seen(struct build *b, int id, unsigned what);
/* The session's tokens as its store counts them (model.h: struct
 * tokens): the whole so far (total), or more to add to it. */
void build_tokens(struct build *b, const struct tokens *t, bool total);

/* An agent's name for a tool and the kind it is (tool.h): a row of an
 * adapter's table, which ends with a NULL name. A name that ends in '*'
 * stands for every longer one that starts with the rest ("mcp__*":
 * Claude Code's MCP tools). */
struct agent_tool {
	const char *name;
	enum tool_kind kind;
};

/* An element of a list that is a string (a text, a name), as fact f of
 * e; false when it is not one. */
bool agent_elem_string(const struct json *j, int t, enum elem_fact f, struct elem_facts *e);

/* What a decision asked for says, decoded (raw UTF-8). */
struct query_words {
	struct buf id;     /* the query's id */
	struct buf type;   /* the agent's name for its type */
	struct buf what;   /* "web fetch https://…", "question "…" (a / b)" */
	struct buf call;   /* the id of the tool call it is about */
	struct buf reason; /* why it was rejected or skipped */
	struct buf body;   /* more to read: a plan's text */
};

/* A file that holds more of a session: its path, and the id of the call
 * it runs under (NULL: none known). */
typedef void agent_more_fn(void *ctx, const char *path, const char *call);

/* What a line is to the session list (agent_quiet). */
enum line_quiet {
	LINE_HEARD,  /* it may change a row: parsed */
	LINE_QUIET,  /* it changes none: passed over unparsed */
	LINE_TOTALS, /* the session's totals so far (Codex's token_count,
			cumulative): passed over, but for the last of a
			session in a piece, which is read */
};

/* An agent. Its functions get the line parsed (j) with its top keys. */
struct agent {
	const char *name;  /* "cursor": --agent, the JSON summary */
	const char *label; /* "Cursor Agent": what people call it */
	/* Whether the line starts a session of this agent. */
	bool (*starts)(const struct json *j, const int *k);
	/* Whether the line looks like this agent's, for a stream that begins
	 * without a session start. */
	bool (*looks)(const struct json *j, const int *k);
	/* The line's own time (ms since the epoch), or TIME_NONE. */
	int64_t (*time)(const struct json *j, const int *k);
	/* Make the line's events. */
	void (*line)(struct build *b);
	/* Append the text of a prompt, thinking or reply event, parsed. */
	void (*text)(const struct json *j, enum ev_type type, struct buf *out);
	/* The same for a delta (EV_THINK_DELTA, EV_TEXT_DELTA) from the head
	 * of its line p[0..n) only, parsed into j (json_parse_head): a
	 * search decodes every delta. False, with nothing appended, when the
	 * head does not hold all of the text. NULL: the line is parsed. */
	bool (*text_head)(struct json *j, const char *p, size_t n, enum ev_type type,
			  struct buf *out);
	/* Fill v (reset, its kind, result and done set) with the facts of
	 * call c, from its events parsed (NULL: the event is not there, or
	 * not shown yet): those it must work out, and for the others its
	 * table of where they are (v's rows and places, facts.h). */
	void (*load)(const struct model *m, uint32_t c, const struct json *sj,
		     const struct json *dj, struct call_facts *v);
	/* Read an element of a list its calls hold (facts.h). */
	fact_elem_fn *elem;
	/* Fill w (reset) from a decision's question and answer events,
	 * parsed (either may be NULL). NULL: the agent asks none. */
	void (*query)(const struct json *ask, const struct json *answer, struct query_words *w);
	/* Append a notice in words; false (nothing appended) for one it does
	 * not know, which is then shown as its type and JSON. NULL: none. */
	bool (*notice)(const struct json *j, struct buf *out);
	const struct agent_tool *tools;  /* its names for tools, by kind */
	const char *top[TOP_COUNT];      /* how it spells the top keys it reads
					    (NULL: a role it has none of) */
	const char *fact[FACT_COUNT];    /* where each fact is: a path in the
					 session's start event (FACT_ID to
					 FACT_BRANCH) or end event */
	const struct usage_field *usage; /* ends with a NULL path */
	const char *task_status;         /* how a background task's end says
					    how it ended: a path in it */
	const char *task_answer;         /* and a sub-agent's answer */
	unsigned fact_add;               /* bit f: fact f of an end event
					    (FACT_TURNS, FACT_USAGE) counts
					    that turn's only: a session's
					    sum them */
	bool bg_turns;                   /* a background task's end starts
					    another turn: a result while one
					    runs does not end the session */
	/* The words of the command that resumes a session, before its id
	 * ("claude", "--resume"; what the CLI's --help says, src/FORMAT.md
	 * §10.5); none: it cannot be resumed. copy.c builds the command, or
	 * refuses to. */
	const char *resume[4];
	/* Bytes every line that starts a session holds (its type, quoted:
	 * "\"init\""): lines without any adapter's are not parsed to
	 * find a session's start (the session list, the tmux line, a
	 * recording's name). */
	const char *mark;
	/* How lines that change no row of the session list begin (a token
	 * of a reply), and a call's line, which only the states shown
	 * without a screen can skip too: such a line never starts a
	 * session. NULL: none. */
	const char *quiet[2];
	const char *quiet_call;
	/* The same, for lines whose kind comes after bytes that vary (a
	 * rollout's timestamp and ordinal): what p[0..n) is to the list
	 * (LINE_TOTALS: Codex's token_count). NULL: none. */
	enum line_quiet (*quiet_line)(const char *p, size_t n);
	/* The tokens of a line quiet_line calls LINE_TOTALS, read late
	 * (model_read_totals: only the newest of a session's is read):
	 * b->j holds it parsed, b->k its top keys; build_tokens as reading
	 * the line would. Whether it said them (the one before is read
	 * when not). NULL: such lines are read in their turn. */
	bool (*totals)(struct build *b);
	/* A member the session list never reads, as it follows another in
	 * its lines (",\"base_instructions\":": Codex's 22 KB of them in a
	 * session's start): cut out of a long line before it is parsed
	 * there (agent_lean). NULL: none. */
	const char *lean;
	/* Whether the line p[0..n) of one of its sessions is only the
	 * agent's bookkeeping, known by its first bytes: kept as a hidden
	 * line without being parsed (Claude Code's store holds request
	 * bodies of megabytes). NULL: none. */
	bool (*skip)(const char *p, size_t n);
	/* The time of such a line, from its first bytes, which keeps the
	 * session's clock as a parsed hidden line would; TIME_NONE or NULL:
	 * none. */
	int64_t (*skip_ms)(const char *p, size_t n);
	/* The files that hold more of the session in the file at path (a
	 * store's sub-agents, each in a file of its own): fn(ctx, its path,
	 * the id of the call it runs under or NULL) for each. NULL: none. */
	void (*more)(const char *path, agent_more_fn *fn, void *ctx);
	/* A file at path in a form of the agent's own, not JSON lines
	 * (Cursor's older plain-text transcripts): p[0..n), read whole, as
	 * the JSON lines of the rows it holds, appended to out; false (out
	 * as it was) for a file it does not read so. NULL: none. */
	bool (*rows)(const char *path, const char *p, size_t n, struct buf *out);
	/* The stream read when nothing tells (Cursor's): the session's
	 * header, the status bar and the tmux line do not name the agent,
	 * and a header says that the model is unknown. */
	bool unnamed;
	/* Fact f (FACT_ID to FACT_BRANCH) of a session whose lines do not
	 * hold it, from the path of its file, appended to out; false when it
	 * has none. NULL: none (Cursor's transcripts: the id is the file's
	 * name, the model in its chat store). */
	bool (*file_fact)(const char *path, enum fact f, struct buf *out);
};

enum agent_id {
	AGENT_CURSOR,
	AGENT_CLAUDE,
	AGENT_GEMINI,
	AGENT_CODEX,
	AGENT_CLAUDE_STORE,
	AGENT_CODEX_ROLLOUT,
	AGENT_GEMINI_CHAT,
	AGENT_COPILOT,
	AGENT_CURSOR_TRANSCRIPT,
	AGENT_COUNT
};

/* Most adapters the table holds: the four above and those agent_add
 * adds. */
#define MAX_AGENTS 16

extern const struct agent agent_cursor, agent_claude, agent_gemini, agent_codex;
extern const struct agent agent_claude_store;

/* Claude Code's messages read the same in its stream and its store
 * (agent_claude.c, agent_claude_store.c): its tools, a text, a call's
 * facts, an element of their lists. */
extern const struct agent_tool claude_tools[];
void claude_text(const struct json *j, enum ev_type type, struct buf *out);
void claude_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
		 struct call_facts *v);
bool claude_elem(enum fact_list l, const struct json *j, int t, struct elem_facts *e);
/* The agents' own session stores (../shared/STORES.md). */
extern const struct agent agent_codex_rollout, agent_gemini_chat;
/* GitHub Copilot CLI: its stream and its store's events.jsonl, one family
 * of events (agent_copilot.c). */
extern const struct agent agent_copilot;
/* Cursor Agent's own transcripts (agent_cursor_transcript.c). */
extern const struct agent agent_cursor_transcript;
/* The string member key ("name", "lastUsedModel") of the JSON that the
 * meta table of Cursor's chat store at path db holds under key '0' (hex),
 * appended to out; false when there is none. SQLite opens it read-only
 * (file:db?mode=ro), never writing; a writer that holds it a while makes
 * it none. */
bool cursor_chat_meta(const char *db, const char *key, struct buf *out);
/* What the chat store of a Cursor session says of it. */
struct cursor_chat {
	struct buf title;   /* its name, as Cursor lists the chat */
	struct buf model;   /* lastUsedModel */
	int64_t created_ms; /* createdAt, or TIME_NONE */
	struct buf why;     /* when it cannot be read: why, in words */
};
/* The chat store of the Cursor session at path (its transcript, found by
 * its id under chats/, or a store.db itself), read into c (rodb.h: read
 * only, never through a link); false, with c->why, when there is none or
 * it cannot be read. cursor_chat_free frees what c holds. */
bool cursor_chat_read(const char *path, struct cursor_chat *c);
void cursor_chat_free(struct cursor_chat *c);

/* Where Gemini CLI's tools keep their facts, by their arguments (place 0)
 * and their result (place 1): its stream's and its store's alike. */
extern const struct fact_row gemini_facts[];
extern const size_t gemini_nfacts;

/* A time in ms sent as a number or a string of digits; TIME_NONE when
 * absent or negative. */
int64_t agent_ms(const struct json *j, int t);
/* An ISO 8601 time ("2026-11-23T20:39:47.939Z", UTC or with an offset)
 * in ms since the epoch; TIME_NONE when t is not one. */
int64_t agent_iso_ms(const struct json *j, int t);
/* The same of the raw string p[0..n), without its quotes. */
int64_t agent_iso_raw_ms(const char *p, size_t n);
/* Append "<label><the string at path>"; false (nothing appended) when
 * there is no such string. */
bool agent_say(const struct json *j, const char *label, const char *path, struct buf *out);

/* A top-level `key: value` of Copilot CLI's workspace.yaml at path (beside
 * a stored session's events.jsonl: `name` its title, `cwd` its folder), as
 * the text it is (quotes off; a block scalar's lines joined), appended to
 * out; false when the file or the key is not there. Opened read-only, a
 * link not followed, at most 64 KiB read. */
bool agent_copilot_workspace(const char *path, const char *key, struct buf *out);

/* Fact f of a session of agent a that its lines do not hold, from the
 * path of its file (its file_fact), appended to out; false when none. */
bool agent_file_fact(unsigned a, const char *path, enum fact f, struct buf *out);
/* The name of the file at path without ".jsonl" (or ".txt": Cursor's
 * older transcripts), appended to out, when it is an id (letters, digits, '-' and '_', not starting with '-'); else
 * false, nothing appended. */
bool agent_file_id(const char *path, struct buf *out);

/* The kind of the tool agent a names name[0..n): TK_OTHER for a name its
 * table does not list. */
enum tool_kind agent_tool_kind(const struct agent *a, const char *name, size_t n);

/* The adapter of agent a (the default one for anything unknown). */
const struct agent *agent_get(unsigned a);
/* The agent named name ("claude"), or -1. */
int agent_find(const char *name);
/* How many agents the table holds: ids 0 to agent_count() - 1. */
unsigned agent_count(void);
/* The agent whose adapter reads a line nobody else claims (Cursor's): the
 * last one asked. */
unsigned agent_default(void);
/* Add an adapter to the table (a test's): recognised before the
 * default one. Its id, or -1 when the table is full. */
int agent_add(const struct agent *a);
/* The top keys of the adapters in the table (agent_add them first). */
const struct agent_keys *agent_keys(void);
/* The top keys by role from what json_getk found of agent_keys()'s names
 * (s): s itself when the names are the roles, else k, filled. */
const int *agent_key_roles(const int *s, int *k);
/* Whether p[0..n) holds any adapter's mark: it may start a session. */
bool agent_marked(const char *p, size_t n);
/* The line p[0..n) without the members the session list never reads
 * (each adapter's lean one, where it is in the line's first
 * AGENT_LEAN_LOOK bytes): moved in place, its new length returned. Only
 * a line longer than AGENT_LEAN_MIN bytes is looked at. */
#define AGENT_LEAN_MIN 4096
#define AGENT_LEAN_LOOK 4096
size_t agent_lean(char *p, size_t n);
/* Whether any adapter skips the line p[0..n) unparsed (its skip): for a
 * reader that does not know the line's agent yet (ahead.c). */
bool agent_skips_any(const char *p, size_t n);
/* A string literal and its length, measured once where it is written. */
struct agent_lit {
	const char *s;
	size_t n;
};
#define AGENT_LIT(lit) \
	{ \
		lit, sizeof lit - 1 \
	}
/* Whether p[0..n) begins with one of s[0..ns): asked of every line by the
 * adapters' skip, whose tables are measured when compiled, not each line. */
bool agent_begins_any(const char *p, size_t n, const struct agent_lit *s, size_t ns);
/* The files that hold more of the session in the file at path, as agent
 * a's adapter finds them (its more): fn for each. a < 0: as any adapter
 * does (a file not read yet, its agent not known). */
void agent_more(int a, const char *path, agent_more_fn *fn, void *ctx);
/* Whether p[0..n) begins a SQLite file (a store an adapter's rows read
 * through its path, rodb.h): its first bytes are all that is read of it. */
bool agent_rows_db(const char *p, size_t n);
/* The rows of a file in a form of an agent's own (struct agent's rows):
 * false for one that none reads so. */
bool agent_rows(const char *path, const char *p, size_t n, struct buf *out);
/* The largest such file read: it is read whole. */
#define AGENT_ROWS_MAX (64u << 20)
/* Source s, just opened from path, made of the rows of its file instead
 * when the file is in a form of an agent's own: read whole, once, not
 * followed. Any other file's source stays as it is. */
void agent_source_rows(struct source *s, const char *path);
/* The first max bytes at most of the file at path into p, read only,
 * never following a link, and only a regular file's (told by what was
 * opened): how many, or -1. */
ssize_t agent_read_head(const char *path, char *p, size_t max);
/* The names of the regular files (never links) prefix*.jsonl in folder
 * dir (a store's more files), in order, into *names (free each and it):
 * how many. */
size_t agent_files(const char *dir, const char *prefix, char ***names);
/* Whether agent a skips the line p[0..n) unparsed. */
bool agent_skips(unsigned a, const char *p, size_t n);
/* The time agent a reads in the first bytes of a line it skips, or
 * TIME_NONE. */
int64_t agent_skipped_ms(unsigned a, const char *p, size_t n);
/* Whether agent a's session list can skip the line p[0..n) (quiet, or a
 * call's line when only states are shown), and whether the last such line
 * of a piece is read all the same (LINE_TOTALS). */
enum line_quiet agent_quiet(unsigned a, const char *p, size_t n, bool states);
/* Whether agent a's line p[0..n) is a running total its adapter can read
 * late (quiet_line's LINE_TOTALS, with totals; its first bytes, which say
 * its time, without escapes). */
bool agent_late_totals(unsigned a, const char *p, size_t n);
/* Whether any adapter skips the line (agent_skips_any) or reads it late
 * (agent_late_totals): for the parser thread of a model that passes
 * running totals over (totals_late). */
bool agent_skips_late_any(const char *p, size_t n);
/* The agent whose session a parsed line starts, or -1 (for a reader
 * that has not looked its top keys up). */
int agent_line_starts(const struct json *j);
/* The agent whose session the line starts, or -1. */
int agent_starts(const struct json *j, const int *k);
/* The agent the line looks like, for a line outside any session (Cursor
 * when nothing tells). */
unsigned agent_guess(const struct json *j, const int *k);

#endif
