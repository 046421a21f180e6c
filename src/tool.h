/* tool.h: the one table of tool kinds, and what a person reads about a
 * call. A kind is agentview's own idea (a shell, a read, an edit ...), not
 * an agent's name for it (each adapter's table says which of its tools is
 * which kind: agent.h): its row says where its target is, how its success
 * reads, and which detail builder draws it. Adding a kind is one row in
 * tool.c, plus a builder in detail_kind.c if it needs one.
 *
 * A call's pieces are found once, by tool_load, in a struct callview that
 * the one-line account, the detail and the JSON summary all read. */
#ifndef AGENTVIEW_TOOL_H
#define AGENTVIEW_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct json;
struct model;
struct detail;

enum tool_kind {
	TK_SHELL,
	TK_READ,
	TK_EDIT,
	TK_WRITE,
	TK_GREP,
	TK_DELETE,
	TK_GLOB,
	TK_LS,
	TK_TODOS,
	TK_MCP,
	TK_MCP_TOOLS,
	TK_TASK,
	TK_AWAIT,
	TK_SEMSEARCH,
	TK_WEBFETCH,
	TK_WEBSEARCH,
	TK_QUESTION,
	TK_LINTS,
	TK_OTHER, /* a kind nobody documented: shown generically */
	TK_NKINDS
};

/* Where a call's pieces are, in its two parsed events. A token is -1 and
 * a document NULL when the events do not have it. */
struct callview {
	const struct json *aj; /* the event the arguments come from */
	int args;              /* the arguments object */
	int holder;            /* the object holding args and what stands
				  beside them (Cursor's kind object, with its
				  `description`) */
	const struct json *nj; /* the event naming the tool */
	int name;              /* the token of the tool's name */
	const struct json *rj; /* the completed event (not in a replay
				  before it is shown) */
	int result;            /* the result object */
	int var;               /* the result's payload (Cursor: the value of
				  result.success, .failure, ...) */
	int varkey;            /* the token naming the payload ("success") */
	const struct json *ij; /* the event naming the call */
	int id;                /* the token of the call's id */
	const struct json *tj; /* the event holding the result's text */
	int text;              /* what the call gave, as text for the model
				  (Claude's tool_result content, Gemini's
				  output, Codex's aggregated_output): a string
				  or an array of text parts */
	unsigned agent;        /* enum agent_id of the call's session */
};

/* Fill v for call c, parsing its events into sj (started) and dj
 * (completed): scratch parsers, or the model's own query parsers, which
 * keep a line parsed while it is asked about again. */
void tool_load(struct model *m, uint32_t c, struct json *sj, struct json *dj, struct callview *v);
/* The tool object of a parsed tool event (Cursor: the value of the
 * `tool_call` key that ends in "ToolCall"), with the token naming it in
 * *name; -1 when there is none. tc is the event's tool_call value when
 * the caller has it, or -1. */
int tool_object(const struct json *j, int tc, int *name);
/* "content not in the stream (14.2 KB, 412 lines)": a read whose text
 * the stream leaves out (Cursor's contentBlobId), for the line and the
 * detail. */
void tool_big_read(const struct callview *v, struct buf *out);
/* Append the call's result text (see callview.text); false when none. */
bool tool_text(const struct callview *v, struct buf *out);
/* "shell", "read", ... ("other" for TK_OTHER). */
const char *tool_kind_name(enum tool_kind k);
/* "Shell", "Read", ... as the transcript shows it. */
const char *tool_kind_label(enum tool_kind k);
/* The label in at most 7 cells, for the timeline's column. */
const char *tool_kind_tag(enum tool_kind k);
/* The detail builder of kind k (detail.c), or NULL: arguments and result
 * shown as they are. */
typedef void tool_detail_fn(struct detail *d, const struct callview *v);
tool_detail_fn *tool_kind_detail(enum tool_kind k);
/* Whether kind k's builder draws a rejected call too (a shell's rejection
 * says which command); else a rejection shows the call as it is. */
bool tool_detail_rejected(enum tool_kind k);
/* The label of a call: its kind's, or for TK_OTHER the agent's name for
 * the tool without Cursor's "ToolCall" ("frobnicate"). */
void tool_label(enum tool_kind k, const char *name, size_t n, struct buf *out);
/* The same in at most 7 cells where a kind has a tag (the timeline). */
void tool_tag(enum tool_kind k, const char *name, size_t n, struct buf *out);

/* What a person reads about call c, decoded from its events. Every field
 * is raw UTF-8 (not yet escaped for a terminal). */
struct tool_desc {
	struct buf key;     /* the agent's name for the tool: "shellToolCall" */
	struct buf what;    /* the target: a command, a path, a pattern */
	struct buf outcome; /* "exit 1", "54 lines", "+3 −1", "rejected: …" */
};

/* Fill d (reset first) for call c. */
void tool_describe(struct model *m, uint32_t c, struct tool_desc *d);
/* The same from c's view, loaded already. */
void tool_describe_view(struct model *m, uint32_t c, const struct callview *v, struct tool_desc *d);
void tool_desc_free(struct tool_desc *d);

/* The transcript line of a described call, raw UTF-8: "Shell `npm test` →
 * exit 1", "Read README.md · 54 lines", "Edit src/a.c +3 −1". */
void tool_line(enum tool_kind k, const struct tool_desc *d, struct buf *out);

/* The same with a path target shown relative to the directory cwd
 * (NULL: as it is) and cut in the middle to at most `cells` cells (0:
 * whole). */
void tool_line_at(enum tool_kind k, const struct tool_desc *d, const char *cwd, size_t cwdn,
		  size_t cells, struct buf *out);
/* Whether kind k's target is a file's path. */
bool tool_kind_is_path(enum tool_kind k);
/* The target alone, shown so. */
void tool_what(enum tool_kind k, const struct tool_desc *d, const char *cwd, size_t cwdn,
	       size_t cells, struct buf *out);

/* Append s as a Markdown-style code span: `s`, with more backticks around
 * it when s holds some. */
void tool_code_span(struct buf *out, const char *s, size_t n);

/* One glyph per call state (enum call_state): ✓ ok, ✗ failed, ⊘ rejected,
 * ! error, ? orphaned, … running. Distinct without colour. */
const char *tool_state_glyph(int state);

#endif
