/* facts.h: what a tool call's events say, in no agent's words. When a call
 * is shown, its adapter's load (agent.h) fills a struct call_facts from
 * the call's events, parsed; the kinds' lines (tool.c), the detail
 * (detail.c, detail_kind.c), what y copies (copy.c), what e opens (open.c),
 * the JSON summary and the session list read nothing else. No field name of
 * any agent is spelled above the adapters.
 *
 * A fact is where a value is, not a copy of it (the model keeps offsets): a
 * token of one of the call's parsed events, decoded when it is read (and
 * of a string, maybe only its middle: Codex's command without the shell
 * around it), or a number or words the adapter worked out (Gemini's read
 * offset made 1-based). A record holds the facts of one call at a time,
 * as long as the parsers it was filled from are not used again. Lists (a
 * grep's matches, the todos, a patch's hunks) are facts too: the array in
 * its event, each element read, when it is shown, by the adapter's elem
 * function into a struct elem_facts.
 *
 * The next readings fit as facts of their own: a sub-agent's own calls
 * linked by CALL_SUB_ID, a call's real start and end times, a task
 * list's items as a list. */
#ifndef AGENTVIEW_FACTS_H
#define AGENTVIEW_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

struct json;

/* What a fact is: absent, a token of a parsed event, a number, or words
 * of the adapter's own. */
enum fact_form { FACT_NONE, FACT_TOKEN, FACT_NUMBER, FACT_WORDS };

/* A fact's value: where it is, or the adapter's own. */
struct factval {
	uint8_t form;         /* enum fact_form */
	int t;                /* FACT_TOKEN: the token in j */
	uint32_t head, tail;  /* of a string token: decoded bytes left out at
				 its start and end */
	const struct json *j; /* FACT_TOKEN: the parsed event */
	int64_t n;            /* FACT_NUMBER */
	const char *words;    /* FACT_WORDS: a literal */
};

/* The facts of a call. Each says what it is, whatever the kind: the
 * builders of the kinds read the ones theirs has. */
enum call_fact {
	CALL_NONE, /* no fact (ends a list of them) */
	/* The call, its result and how it ended. */
	CALL_ID,            /* its id */
	CALL_NAME,          /* the agent's name for the tool ("Bash") */
	CALL_LABEL,         /* that name as people read it, when less of it
			       says it (without Cursor's "ToolCall") */
	CALL_ARGS,          /* its arguments, as sent (shown as JSON) */
	CALL_RESULT,        /* its result, as its completion holds it */
	CALL_PAYLOAD,       /* what the result holds of its own: there when
			       the completion has more than a text to read
			       (Gemini's: its whole line) */
	CALL_SHOWN,         /* the result as the detail shows it as JSON
			       when no builder draws the call */
	CALL_VARIANT,       /* the word the result names its ending by, when
			       agentview knows no such ending */
	CALL_TEXT,          /* what it gave the model as text: a string, or
			       a list (FL_PARTS) */
	CALL_ERROR,         /* why it failed, in words */
	CALL_REASON,        /* why it was rejected */
	CALL_REJECTED_NOTE, /* what a rejection without a reason means */
	CALL_READ_ONLY,     /* rejected as the mode was read-only */
	/* What it is about. */
	CALL_COMMAND,      /* a command, as people read it */
	CALL_COMMAND_SENT, /* the command as sent, when that says more */
	CALL_PATH,         /* a file's path (or a folder's, listed) */
	CALL_MORE,         /* how many more files it changed */
	CALL_URL,
	CALL_QUERY,   /* what a search looks for: a pattern, a term */
	CALL_PROMPT,  /* what a fetch's page or a sub-agent is asked */
	CALL_TITLE,   /* a question's title */
	CALL_TASK_ID, /* the background task it waits for */
	CALL_DESCRIPTION,
	/* How it is done. */
	CALL_DIR,  /* the folder it runs or searches in */
	CALL_GLOB, /* the files a search looks in */
	CALL_IGNORE_CASE,
	CALL_MODE, /* what a search gives: lines, files, counts */
	CALL_TIMEOUT_MS,
	CALL_BACKGROUND, /* it runs in the background */
	CALL_MERGE,      /* its todos are merged into the list */
	CALL_REPLACE_ALL,
	CALL_INSTRUCTION,
	/* A command's end. */
	CALL_EXIT,
	CALL_SIGNAL,
	CALL_ABORTED,
	CALL_INTERRUPTED,
	CALL_RUN_MS,   /* how long it ran */
	CALL_LOCAL_MS, /* how long it ran where it ran */
	CALL_PID,
	CALL_BG_ID,  /* the background task it became */
	CALL_BG_WHY, /* why it went to the background */
	CALL_STDOUT,
	CALL_STDERR,
	CALL_OUTPUT, /* the two interleaved */
	/* A read. */
	CALL_FIRST_LINE, /* the first line read, from 1 */
	CALL_LAST_LINE,  /* the last */
	CALL_TOTAL_LINES,
	CALL_FILE_SIZE,
	CALL_TRUNCATED,
	CALL_CONTENT,   /* the text read */
	CALL_ELSEWHERE, /* the text read is not in the stream */
	/* A change. */
	CALL_HUNKS,    /* a structured patch (FL_HUNKS) */
	CALL_DIFF,     /* a unified diff */
	CALL_BEFORE,   /* the file before */
	CALL_AFTER,    /* and after */
	CALL_WRITTEN,  /* the text written */
	CALL_OLD_TEXT, /* a text replaced */
	CALL_NEW_TEXT, /* by this */
	CALL_PATCH,    /* a patch asked for */
	CALL_EDITS,    /* several replacements (FL_EDITS) */
	CALL_CHANGES,  /* the files changed, and how (FL_CHANGES) */
	CALL_CREATED,  /* a write made a new file (no file was there) */
	CALL_LINES_ADDED,
	CALL_LINES_REMOVED,
	CALL_MESSAGE,
	/* A search, a listing. */
	CALL_MATCH_COUNT, /* lines that match */
	CALL_MATCH_FILES, /* files they are in */
	CALL_FILE_COUNT,
	CALL_LINE_COUNT,
	CALL_MATCH_TEXT, /* the matching lines as text */
	CALL_FILES,      /* names (FL_FILES) */
	CALL_ROOTS,      /* matches by folder searched (FL_ROOTS) */
	CALL_ENTRIES,    /* a folder's entries */
	CALL_RESULTS,    /* a web search's results (FL_RESULTS) */
	CALL_RUN_S,      /* how long it took, in seconds */
	/* Todos. */
	CALL_TODOS_ASKED, /* the list it was given (FL_TODOS) */
	CALL_TODOS,       /* the list after it (FL_TODOS) */
	CALL_SUBJECT,     /* the one task it made or changed (the session's
			     list is the model's: model_todo_step) */
	CALL_TODO_STATE,  /* that task's state after it (enum todo_state), or
			     TODO_MADE: it made the task */
	CALL_TODO_COUNT,  /* the tasks of the list after it */
	CALL_TODO_DONE,   /* and those done */
	/* Tools loaded by name. */
	CALL_LOADED, /* their names (FL_FILES) */
	/* An MCP server's tool. */
	CALL_MCP_NAME,   /* the name it was called by, when it is its own */
	CALL_MCP_SERVER, /* the server */
	CALL_MCP_TOOL,   /* the tool's name on it */
	CALL_MCP_ARGS,
	CALL_MCP_CONTENT, /* what it gave (FL_CONTENT) */
	CALL_IS_ERROR,
	CALL_SCHEMA, /* a tool's schema, as JSON in a string */
	/* A sub-agent. */
	CALL_SUB_TYPE,
	CALL_TOOL, /* the tool it is asked to use */
	CALL_MODEL,
	CALL_SUB_ID, /* the sub-agent's id: its link */
	CALL_STATUS,
	CALL_TOKENS,
	CALL_TOOL_CALLS,
	CALL_OUTPUT_FILE,
	CALL_STEPS,  /* its steps (FL_STEPS) */
	CALL_ANSWER, /* its answer: a string or a list (FL_PARTS) */
	/* A web fetch. */
	CALL_STATUS_CODE,
	CALL_STATUS_TEXT,
	CALL_SIZE,
	CALL_PAGE, /* the page as Markdown */
	/* A question. */
	CALL_QUESTIONS, /* FL_QUESTIONS */
	CALL_ANSWERS,   /* an object: each question, and its answer */
	CALL_NFACTS
};

/* The lists a call holds, for the adapter to read an element of. */
enum fact_list {
	FL_PARTS,      /* texts: EL_TEXT */
	FL_FILES,      /* EL_NAME */
	FL_TODOS,      /* EL_TEXT, EL_STATE */
	FL_QUESTIONS,  /* EL_TEXT, EL_OPTIONS, EL_MULTI */
	FL_OPTIONS,    /* EL_TEXT, EL_DETAIL */
	FL_RESULTS,    /* EL_TEXT, or EL_TITLE, EL_URL, EL_SNIPPET; or EL_LINKS */
	FL_LINKS,      /* EL_TEXT, or EL_TITLE, EL_URL, EL_SNIPPET */
	FL_STEPS,      /* EL_TEXT */
	FL_CONTENT,    /* EL_TEXT */
	FL_HUNKS,      /* EL_OLD_START ... EL_NEW_LINES, EL_LINES (strings) */
	FL_EDITS,      /* EL_OLD, EL_NEW */
	FL_CHANGES,    /* EL_KIND, EL_PATH */
	FL_ROOTS,      /* an object's members: EL_NAME, EL_MATCHED,
			  EL_TRUNCATED, EL_FILES (FL_GREP_FILES); the
			  member's value as JSON when it has none of these */
	FL_GREP_FILES, /* EL_FILE, EL_MATCHES (FL_MATCHES) */
	FL_MATCHES,    /* EL_LINE, EL_TEXT, EL_CONTEXT */
};

/* A todo's state. */
enum todo_state { TODO_PENDING, TODO_ACTIVE, TODO_DONE, TODO_CANCELLED };
#define TODO_MADE (-1)

enum elem_fact {
	EL_TEXT,
	EL_NAME,
	EL_TITLE,
	EL_URL,
	EL_SNIPPET,
	EL_DETAIL,  /* what an option means */
	EL_STATE,   /* a todo's: enum todo_state */
	EL_MULTI,   /* several options may be chosen */
	EL_OPTIONS, /* FL_OPTIONS */
	EL_LINKS,   /* FL_LINKS */
	EL_OLD,
	EL_NEW,
	EL_KIND, /* how a file changed: add, delete, update */
	EL_PATH,
	EL_OLD_START,
	EL_OLD_LINES,
	EL_NEW_START,
	EL_NEW_LINES,
	EL_LINES,
	EL_FILE,
	EL_MATCHES,
	EL_LINE,
	EL_CONTEXT, /* a line around a match, not one */
	EL_FILES,
	EL_MATCHED,
	EL_TRUNCATED,
	EL_NFACTS
};

/* The facts of an element of a list. */
struct elem_facts {
	uint32_t set; /* bit f: f[f] is set */
	struct factval f[EL_NFACTS];
};

/* Read element t of j, in list l, into e (reset); false when it is not
 * one of the list's shape (shown as JSON then). */
typedef bool fact_elem_fn(enum fact_list l, const struct json *j, int t, struct elem_facts *e);

/* A place in a call's parsed events: token t of j (j NULL: not there). */
struct fact_place {
	const struct json *j;
	int t;
};

/* A row's kind when it is every kind's. */
#define FACT_ANY_KIND 255

/* Most places an adapter looks in for a call's facts. */
#define FACT_PLACES 4

/* Where an adapter finds a fact of its calls of a kind: the first of
 * paths ("a.b|c") under one of its places (the arguments, the result,
 * ...) that is there and of the type the fact takes (facts.c). Rows of
 * one fact are asked in their order: the first found is the fact (an
 * empty string only when no row after it finds more). */
struct fact_row {
	uint8_t kind;  /* enum tool_kind; FACT_ANY_KIND: every kind */
	uint8_t fact;  /* enum call_fact */
	uint8_t place; /* an index into the call's places */
	const char *paths;
};

/* A call's facts: those its adapter set, and those its rows find in its
 * places when one is first asked for (a line asks for two or three of
 * them, a detail for its kind's). */
struct call_facts {
	uint8_t kind;   /* enum tool_kind */
	uint8_t result; /* enum call_result: how it ended */
	bool done;      /* its completion is there (shown, in a replay) */
	/* Bit f: f[f] is set; the rows were asked for fact f. */
	uint64_t set[(CALL_NFACTS + 63) / 64], asked[(CALL_NFACTS + 63) / 64];
	struct factval f[CALL_NFACTS];
	const struct fact_row *rows; /* the adapter's */
	size_t nrows;
	struct fact_place place[FACT_PLACES];
	fact_elem_fn *elem; /* the adapter's */
};

/* Forget every fact of v, its rows and its places. */
void facts_reset(struct call_facts *v);
/* Fact f of v, or NULL when there is none: one the adapter set, or the
 * first its rows find (asked the first time only). */
const struct factval *call_fact(struct call_facts *v, enum call_fact f);
/* Set fact f: a token of j (a string's whole text), a number, words. */
void call_set(struct call_facts *v, enum call_fact f, const struct json *j, int t);
void call_set_number(struct call_facts *v, enum call_fact f, int64_t n);
void call_set_words(struct call_facts *v, enum call_fact f, const char *words);
/* Set fact f to the string token t of j less `head` bytes at its start
 * and `tail` at its end, decoded. */
void call_set_part(struct call_facts *v, enum call_fact f, const struct json *j, int t,
		   uint32_t head, uint32_t tail);
/* Element t of j in list l of v, read by its adapter into e. */
bool call_elem(struct call_facts *v, enum fact_list l, const struct json *j, int t,
	       struct elem_facts *e);
/* Set element fact f, unless it is set (but to an empty string), to the
 * first of paths under obj of j that is there and of the type f takes;
 * false when none is. */
bool elem_find(struct elem_facts *e, enum elem_fact f, const struct json *j, int obj,
	       const char *paths);
void elem_set(struct elem_facts *e, enum elem_fact f, const struct json *j, int t);
void elem_set_number(struct elem_facts *e, enum elem_fact f, int64_t n);
const struct factval *elem_fact(const struct elem_facts *e, enum elem_fact f);

/* Reading a fact (f may be NULL: none). */
/* Append a string's decoded text (its part), or the words; false when f
 * is none of these (nothing appended). */
bool fact_str(const struct factval *f, struct buf *out);
/* The same, false too when nothing was appended. */
bool fact_text(const struct factval *f, struct buf *out);
/* A whole number: the adapter's, or a token holding one. */
bool fact_int(const struct factval *f, int64_t *out);
/* Append a string's decoded text or a number's or a boolean's text;
 * false for anything else (null, an object, none). */
bool fact_value(const struct factval *f, struct buf *out);
/* A true boolean (or a number not 0 the adapter set as a flag). */
bool fact_true(const struct factval *f);
/* Members of an array or an object; -1 for anything else. */
int fact_size(const struct factval *f);
/* A token whose type is an array (or an object). */
bool fact_array(const struct factval *f);
bool fact_object(const struct factval *f);

#endif
