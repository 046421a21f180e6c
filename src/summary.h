/* summary.h: the words people read about sessions, shared by the printers
 * and the screen: headers, closing lines, token usage, calls by state. All
 * output is raw UTF-8, to be sanitized by whoever shows it. */
#ifndef AGENTVIEW_SUMMARY_H
#define AGENTVIEW_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "util.h"

/* "17e650d2 · Grok 4.7 · /cwd" from an init event. */
void summary_session_header(struct model *m, uint32_t init_ev, struct buf *out);
/* "ok · 25.4 s · 5 tool calls: 4 ok, 1 failed · tokens 32.0k in, 664 out" */
void summary_session_line(struct model *m, uint32_t s, struct buf *out);
/* "5 tool calls: 4 ok, 1 failed", or "no tool calls". */
void summary_call_counts(struct model *m, uint32_t s, struct buf *out);
/* "tokens 10.5k in, 28 out, 5.9k cache read"; false when the result has
 * no usage (nothing is appended then). */
bool summary_tokens(struct model *m, uint32_t result_ev, struct buf *out);
/* "thinking · 1.2 s" for a thinking item. */
void summary_thinking(struct model *m, uint32_t it, struct buf *out);

#endif
