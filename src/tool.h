/* tool.h: the one table of tool kinds, and what a person reads about a
 * call. A kind is agentview's own idea (a shell, a read, an edit ...), not
 * an agent's name for it (each adapter's table says which of its tools is
 * which kind: agent.h): its row says where its target is and how its
 * success reads. Adding a kind is one row in tool.c, plus a builder in
 * detail_kind.c's table if it needs one.
 *
 * A call's facts are found once, by tool_load (its adapter's load), in a
 * struct call_facts (facts.h) that the one-line account, the detail, y, e
 * and the JSON summary all read. */
#ifndef AGENTVIEW_TOOL_H
#define AGENTVIEW_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "facts.h"
#include "util.h"

struct json;
struct model;

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
	TK_TOOLS, /* tools loaded by name (Claude Code's ToolSearch) */
	TK_OTHER, /* a kind nobody documented: shown generically */
	TK_NKINDS
};

/* Fill v with call c's facts, parsing its events into sj (started) and
 * dj (completed): scratch parsers, or the model's own query parsers,
 * which keep a line parsed while it is asked about again. v's facts are
 * tokens of those: good until they parse another line. */
void tool_load(struct model *m, uint32_t c, struct json *sj, struct json *dj, struct call_facts *v);
/* "content not in the stream (14.2 KB, 412 lines)": a read whose text
 * the stream leaves out (CALL_ELSEWHERE: Cursor's big reads), for the line
 * and the detail. */
void tool_big_read(struct call_facts *v, struct buf *out);
/* Append the text the call gave (CALL_TEXT); false when none. */
bool tool_text(struct call_facts *v, struct buf *out);
/* "shell", "read", ... ("other" for TK_OTHER). */
const char *tool_kind_name(enum tool_kind k);
/* "Shell", "Read", ... as the transcript shows it. */
const char *tool_kind_label(enum tool_kind k);
/* The label in at most 7 cells, for the timeline's column. */
const char *tool_kind_tag(enum tool_kind k);
/* The label of a call: its kind's, or for TK_OTHER the tool's name as
 * people read it (tool_desc's label: "frobnicate"). */
void tool_label(enum tool_kind k, const char *name, size_t n, struct buf *out);
/* The same in at most 7 cells where a kind has a tag (the timeline). */
void tool_tag(enum tool_kind k, const char *name, size_t n, struct buf *out);

/* What a person reads about call c, decoded from its events. Every field
 * is raw UTF-8 (not yet escaped for a terminal). */
struct tool_desc {
	struct buf key;     /* the agent's name for the tool: "shellToolCall" */
	struct buf label;   /* of a kind nobody knew (TK_OTHER), that name as
			       people read it: "frobnicate" for Cursor's
			       "frobnicateToolCall" (CALL_LABEL) */
	struct buf what;    /* the target: a command, a path, a pattern */
	struct buf outcome; /* "exit 1", "54 lines", "+3 −1", "rejected: …" */
};

/* Fill d (reset first) for call c. */
void tool_describe(struct model *m, uint32_t c, struct tool_desc *d);
/* The same from c's view, loaded already. */
void tool_describe_view(struct model *m, uint32_t c, struct call_facts *v, struct tool_desc *d);
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
