/* tool.h: tool kinds (the key of `tool_call` that ends in "ToolCall") and
 * what a person reads about a call: what it did, and how it ended. */
#ifndef AGENTVIEW_TOOL_H
#define AGENTVIEW_TOOL_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

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
	TK_LINTS,
	TK_OTHER, /* a kind nobody documented: shown generically */
	TK_NKINDS
};

/* The kind named by a tool_call key such as "shellToolCall". */
enum tool_kind tool_kind_of(const char *key, size_t n);
/* "shell", "read", ... ("other" for TK_OTHER). */
const char *tool_kind_name(enum tool_kind k);
/* "Shell", "Read", ... as the transcript shows it. */
const char *tool_kind_label(enum tool_kind k);
/* "shellToolCall", ... (NULL for TK_OTHER). */
const char *tool_kind_key(enum tool_kind k);

/* What a person reads about call c, decoded from its events. Every field
 * is raw UTF-8 (not yet escaped for a terminal). */
struct tool_desc {
	struct buf key;     /* the tool_call key: "shellToolCall" */
	struct buf what;    /* the target: a command, a path, a pattern */
	struct buf outcome; /* "exit 1", "54 lines", "+3 −1", "rejected: …" */
};

/* Fill d (reset first) for call c. */
void tool_describe(struct model *m, uint32_t c, struct tool_desc *d);
void tool_desc_free(struct tool_desc *d);

/* The transcript line of a described call, raw UTF-8: "Shell `npm test` →
 * exit 1", "Read README.md · 54 lines", "Edit src/a.c +3 −1". */
void tool_line(enum tool_kind k, const struct tool_desc *d, struct buf *out);

/* Append s as a Markdown-style code span: `s`, with more backticks around
 * it when s holds some. */
void tool_code_span(struct buf *out, const char *s, size_t n);

/* One glyph per call state (enum call_state): ✓ ok, ✗ failed, ⊘ rejected,
 * ! error, ? orphaned, … running. Distinct without colour. */
const char *tool_state_glyph(int state);

#endif
