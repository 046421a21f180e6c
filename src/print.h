/* print.h: output without a screen, in the formats of one table. A format
 * is one file that fills a struct format: its name, what --help and the
 * man page say of it, and hooks that a printer calls as the lines of a
 * stream are added to the model. The text and Markdown logs stream (each
 * line's contribution is printed as soon as the line has been added); the
 * JSON summary and the HTML page are made at the end; raw is the input
 * stream as it came. The same row names the writers of the other outputs
 * in that format: the session list (fleet_print.h) and two runs compared
 * (compare.h). */
#ifndef AGENTVIEW_PRINT_H
#define AGENTVIEW_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "source.h"
#include "tool.h"
#include "util.h"

struct compare;
struct fleet;
struct printer;

/* What a log (text, Markdown) writes around one kind of its lines: markup
 * of its own before (`mark`, written as it is), words that start the line
 * (`text`: sanitized and escaped with the line, its tab stops counted from
 * them), and markup after (`end`). NULL is "". */
struct log_lead {
	const char *mark, *text, *end;
};

/* The style of a log, the one writer of the text log and the Markdown
 * document (print_log.c) reads. */
struct log_style {
	/* Markdown: event text escaped (text_md_escape), a reply's line
	 * held until it ends, blocks apart by a blank line, a diagnostic's
	 * and stderr's text a code span. */
	bool markdown;
	struct log_lead session; /* a session's header */
	struct log_lead prompt;  /* each line of a prompt */
	struct log_lead think;   /* thinking's line (a summary when it folds) */
	const char *fold;        /* non-NULL: thinking's text follows its line,
				    as prose, then this */
	struct log_lead call;    /* a call's line, a decision's */
	struct log_lead notice;  /* a notice, the note of a reply cut off */
	struct log_lead diag;    /* a line that was not JSON */
	struct log_lead err;     /* a line of the command's stderr */
	struct log_lead result;  /* a session's result */
	struct log_lead note;    /* something said between events */
	struct log_lead summary; /* at the end: a session without a result */
	struct log_lead totals;  /* at the end: the sessions by state */
	const char *none;        /* at the end, when there was no session */
	struct log_lead diags;   /* then, around "N lines could not be read
				    as JSON" (written as it is, as is aside) */
	struct log_lead aside;   /* a line of agentview's own after the log
				    (a COMMAND that printed no JSON) */
	int nest;                /* cells a sub-agent's lines go further in
				    than its task's, a level */
};

/* An output format. Hooks may be NULL: nothing to do then. */
struct format {
	const char *name;  /* --format's word */
	const char *alias; /* another word --format takes for it, or NULL */
	const char *help;  /* what --help says of it after its name, or NULL */
	/* The same in roff, or NULL; a last line that is a macro (".BR
	 * OUTPUT") takes the punctuation after it as its argument. */
	const char *man;
	unsigned flags;                /* FMT_* */
	const struct log_style *style; /* the logs' (text, Markdown); NULL */
	size_t size;                   /* bytes of a printer's state (p->state) */

	/* A printer's hooks, in the order they come. */
	void (*begin)(struct printer *p);
	/* Each line as it came, whether it made an event or not. */
	void (*line)(struct printer *p, const struct source *s, const struct line *ln);
	/* Event e was just added to the model: the start of its item's
	 * session (EV_INIT), or any other. */
	void (*session)(struct printer *p, uint32_t e);
	void (*item)(struct printer *p, uint32_t e);
	/* Something said between events (a followed file was truncated: the
	 * model may start again); NULL: the format's output is data, the
	 * note goes to stderr. */
	void (*note)(struct printer *p, const char *msg, size_t n);
	/* All input has ended: what is left, and what is made at the end. */
	void (*finish)(struct printer *p);
	/* Free the state (p->state itself is freed after). */
	void (*free)(struct printer *p);

	/* The session list in this format, once (fleet_print.h); NULL: a
	 * list is not written in it. */
	void (*list)(const struct fleet *f, int agent, int width, int64_t now_ms, FILE *out);
	/* A line per change of a session's state (-f); was: an enum
	 * fleet_state. */
	void (*change)(const struct fleet *f, uint32_t row, int was, int64_t now_ms,
		       struct buf *out);
	/* Two runs compared (compare.h); NULL: not written in it. */
	void (*compare)(struct compare *c, struct buf *out);
};

enum {
	FMT_VERBATIM = 1 << 0, /* the stream as it came: nothing is hidden in it */
};

/* The formats, each in its file. */
extern const struct format format_text, format_markdown, format_json, format_html, format_raw;

/* At most this many formats (--format's words are a table of options.c). */
#define FORMAT_MAX 16

/* The table, in the order --help names them; the first is the default.
 * format_at(i) for i < format_count(); format_find: by name or alias, or
 * NULL. */
size_t format_count(void);
const struct format *format_at(size_t i);
const struct format *format_find(const char *name);
/* What --help (roff: the man page) says of --format: "with --print: " and
 * each format's name and words, lines at most width long (--help's). */
void format_help(struct buf *out, size_t width);
void format_roff(struct buf *out);

/* A printer: a format writing to out (not owned) from the model. */
struct printer {
	const struct format *fmt;
	struct model *m;
	FILE *out;
	void *state; /* the format's own, fmt->size bytes, zeroed at first */
};

struct printer *printer_new(struct model *m, const struct format *fmt, FILE *out);
void printer_free(struct printer *p);

/* Call after each line of source src has been given to the model; ev is
 * what model_add_line returned. */
void printer_line(struct printer *p, const struct source *s, const struct line *ln, uint32_t ev);
/* Say something between events; false when the format does not (its
 * output is data: the caller says it on stderr). */
bool printer_note(struct printer *p, const char *msg, size_t n);
/* Call once all input has ended: prints what is left and the summary. */
void printer_finish(struct printer *p);
/* A line of agentview's own after the end (msg: sanitized words), in a
 * log; nothing where the output is data. */
void printer_aside(struct printer *p, const char *msg);

#endif
