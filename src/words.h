/* words.h: the words people read about sessions and items, shared by the
 * screen, the search and the printers: what each item of the transcript
 * says, session headers, closing lines, token usage, calls by state. All
 * output is raw UTF-8, to be sanitized by whoever shows it. */
#ifndef AGENTVIEW_WORDS_H
#define AGENTVIEW_WORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "agent.h"
#include "tool.h"
#include "util.h"

/* "17e650d2 · Grok 4.7 · /cwd" of session s (from its start event). */
void words_session_header(struct model *m, uint32_t s, struct buf *out);
/* The same in at most `cells` cells where it can: the cwd cut in the
 * middle ("…/project"), or left out. */
void words_session_header_fit(struct model *m, uint32_t s, size_t cells, struct buf *out);
/* "ok · 25.4 s · 5 tool calls: 4 ok, 1 failed · tokens 32.0k in, 664 out" */
void words_session_line(struct model *m, uint32_t s, struct buf *out);
/* "5 tool calls: 4 ok, 1 failed", or "no tool calls". */
void words_call_counts(struct model *m, uint32_t s, struct buf *out);
/* "tokens 10.5k in, 28 out, 5.9k cache read" of session s (summed over
 * its results when its agent counts each turn's); false when its end has
 * no usage (nothing is appended then). */
bool words_tokens(struct model *m, uint32_t s, struct buf *out);
/* "$0.0166": what session s cost, where its stream says; false (nothing
 * appended) elsewhere. */
bool words_cost(struct model *m, uint32_t s, struct buf *out);
/* "thinking · 1.2 s" for a thinking item. */
void words_thinking(struct model *m, uint32_t it, struct buf *out);
/* Why session s failed, in one line: the command's end ("exit status 1:
 * …"), or what its stream's end says; false (nothing appended) when it
 * did not fail or does not say. */
bool words_failure(struct model *m, uint32_t s, struct buf *out);
/* The same, whole: every line of what the stream's end says (the JSON
 * summary's error). */
bool words_failure_whole(struct model *m, uint32_t s, struct buf *out);
/* "no timing in this stream" when session s has no time at all (the
 * timeline, the status bar and the HTML page say it where a bar or a
 * duration would be); false (nothing appended) when it has times. */
bool words_no_timing(const struct model *m, uint32_t s, struct buf *out);
/* At most this many bytes of a reason in a line (Copilot CLI says the
 * cause of a failed run last, after some 110 bytes of retries). */
#define WORDS_REASON_MAX 200
/* Silence at the end of a stream worth saying (a run that hung). */
#define WORDS_SILENCE_MS 1000
/* "line 12: truncated JSON at byte 41" for diagnostic d. */
void words_diag(const struct model *m, uint32_t d, struct buf *out);
/* " … N bytes more", when a text of total bytes was shown cut to shown
 * (a line that is not JSON: model_bad_text). */
void words_more(struct buf *out, size_t total, size_t shown);
/* "✓ Shell `npm test` → exit 1" for call c, described in d. */
void words_call(const struct model *m, uint32_t c, const struct tool_desc *d, struct buf *out);
/* The line about call c as every printer says it: its words
 * (words_call, described into td) and, once known, its duration:
 * "✓ Shell `ls` → exit 0 · 0.2 s". */
void words_call_timed(struct model *m, uint32_t c, struct tool_desc *td, struct buf *out);
/* The same as words_call, to fit in `cells` cells (0: whole) where it can: a path in it
 * is cut in the middle first (the caller cuts what is still too wide). */
void words_call_fit(const struct model *m, uint32_t c, const struct tool_desc *d, size_t cells,
		    struct buf *out);

/* A decision asked for (query q): its words loaded into w (freed with
 * words_query_free), its decision as of m->limit, and its line:
 * "? approve web fetch https://… → rejected: User Rejected". */
void words_query_load(struct model *m, uint32_t q, struct query_words *w);
void words_query_free(struct query_words *w);
enum query_decision words_query_decision(const struct model *m, uint32_t q);
void words_query(struct model *m, uint32_t q, const struct query_words *w, struct buf *out);

/* The text of a reply event as people read it: two replies glued in one
 * event (src/FORMAT.md §4) get a paragraph between them. The JSON summary
 * keeps model_event_text's, the agent's own. */
void words_event_text(struct model *m, uint32_t e, struct buf *out);

/* An event's text (a diagnostic's or stderr line, a notice) is said up to
 * this many bytes in a line of the transcript; the rest stays in the
 * detail and the raw output. */
#define WORDS_LINE_MAX 4096

enum {
	WORDS_BODY = 1,  /* a thinking item's text after its line */
	WORDS_WHOLE = 2, /* event text whole, not cut at WORDS_LINE_MAX */
};

/* Append what item it says, as the transcript shows it before layout:
 * "Session 17e650d2 · Grok 4.7 · /cwd", a prompt's or a reply's text,
 * "thinking · 1.2 s", a call's line (described into td), a notice,
 * "! line 12: not JSON: <the line>", "stderr: <the line>", a session's
 * closing line. flags: WORDS_*. */
void words_item(struct model *m, uint32_t it, unsigned flags, struct tool_desc *td,
		struct buf *out);

#endif
