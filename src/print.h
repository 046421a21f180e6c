/* print.h: output without a screen: a plain-text live log, a Markdown
 * document, the JSON summary of agentview(1) (OUTPUT, json), an HTML page
 * (print_html.h), and the raw input stream. The text and Markdown
 * printers stream: each line's contribution is printed as soon as the
 * line has been added to the model; the summary and the page are made at
 * the end. */
#ifndef AGENTVIEW_PRINT_H
#define AGENTVIEW_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "source.h"
#include "model.h"

enum print_format {
	PF_TEXT,
	PF_MARKDOWN,
	PF_JSON,
	PF_RAW,
	PF_HTML,
};

struct printer;

/* A printer writing to out (not owned). */
struct printer *printer_new(struct model *m, enum print_format fmt, FILE *out);
void printer_free(struct printer *p);

/* Call after each line of source src has been given to the model; ev is
 * what model_add_line returned. */
void printer_line(struct printer *p, const struct source *s, const struct line *ln, uint32_t ev);
/* Say something between events in the text and Markdown logs (a
 * followed file was truncated and is read again); does nothing in the
 * JSON and raw formats, whose output is data. */
void printer_note(struct printer *p, const char *msg, size_t n);
/* Call once all input has ended: prints what is left and the summary. */
void printer_finish(struct printer *p);

/* Parse a --format name; false if unknown. */
bool print_format_parse(const char *name, enum print_format *fmt);

/* The line about call c as every printer says it: its words
 * (words_call, described into td) and, once known, its duration:
 * "✓ Shell `ls` → exit 0 · 0.2 s". */
void print_call_line(struct model *m, uint32_t c, struct tool_desc *td, struct buf *out);

/* Write the JSON summary of the whole model to out. */
void print_summary_json(struct model *m, struct buf *out);

#endif
