/* print_html.h: `--print --format html`: one self-contained page of every
 * session (header, status, the timeline as an SVG chart, the transcript
 * with thinking and tool calls folded, each call's detail), made at the
 * end from the model. Nothing on it is fetched: CSS and the one small
 * script are inline and pinned by the page's Content-Security-Policy, and
 * every byte of event text is sanitized and escaped. */
#ifndef AGENTVIEW_PRINT_HTML_H
#define AGENTVIEW_PRINT_HTML_H

#include <stdio.h>

#include "model.h"

/* What the page holds at most, each cut said where it happens: */
#define HTML_CALL_BYTES (32u << 10) /* of one call's detail (its text) */
#define HTML_TEXT_BYTES (1u << 20)  /* of one prompt, reply, thinking */
#define HTML_DETAIL_BYTES \
	(24u << 20)    /* of the page given to details; the
					 calls after show their line */
#define HTML_BARS 2000 /* bars in one session's chart */

/* Write the page of the whole model to out. */
void print_html(struct model *m, FILE *out);

#endif
