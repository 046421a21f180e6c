/* options.h: the command line as one table of options. getopt_long's
 * table, the parsing (a value parser per kind), --help, the man page's
 * OPTIONS section and the shell completions are made from it, so they cannot disagree. Adding an option is a row of the table, a
 * field in struct options, and what the program does with it. */
#ifndef AGENTVIEW_OPTIONS_H
#define AGENTVIEW_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

/* What the command line asks for. Strings and arrays point into argv. */
struct options {
	bool follow;
	bool recursive;         /* -R: folders' folders too */
	bool notify;            /* the bell and a desktop notification when a
			      session is done, fails or waits */
	const char *notify_cmd; /* run when it is */
	bool replay;
	double speed;
	double idle_limit; /* seconds; < 0: none */
	const char *record;
	bool no_record; /* keep nothing of what is read live */
	double keep;    /* days kept sessions stay (0: for ever); < 0:
			      not given */
	bool print;
	int format; /* a format: its index in the table (print.h) */
	bool format_given;
	bool status_line;
	bool tmux_style;
	bool compare; /* --compare A B: the two FILEs */
	bool bell;    /* ring when a session ends or a call fails */
	bool title;   /* set the window title to the session's state */
	const char *theme;
	int color; /* enum color_when */
	int agent; /* enum agent_id every line is read as, or -1:
			      recognised per session */
	int mouse; /* 1 --mouse, 0 --no-mouse, -1 neither */
	char **files;
	int nfiles;
	char **command;        /* after "--", NULL-terminated; NULL if none */
	double frames;         /* hidden: quit the screen after N frames (tests) */
	bool redact;           /* hide secrets from the start */
	const char **patterns; /* --redact-pattern's, in order (the array allocated) */
	int npatterns;
	/* --sources: what `agentview` alone lists (NULL: not given). */
	const char *sources;
};

/* What an option's value is: how it is parsed, stored and completed. */
enum opt_kind {
	OPT_FLAG,    /* no value: sets a bool */
	OPT_SET,     /* no value: sets an int to .set (--mouse, --no-mouse) */
	OPT_NUMBER,  /* a positive number (OPTF_ZERO: or 0), into a double */
	OPT_ENUM,    /* one of .words, its value into an int */
	OPT_FILE,    /* a file's path, kept as given */
	OPT_THEME,   /* a theme's name or a theme file's path, kept as given */
	OPT_PATTERN, /* a POSIX extended regular expression, checked; each
			one given is added to struct options' patterns (the
			only such field: .to names it) */
	OPT_ACTION,  /* prints what .act writes and exits 0; with .words, takes
		       one of them (its value goes to .act) */
};

/* A word an OPT_ENUM or OPT_ACTION option takes, and the value it stands
 * for. A word whose value an earlier word has is an alias: taken, never
 * shown. The list ends with a NULL word. */
struct opt_word {
	const char *word;
	int value;
};

enum {
	OPTF_HIDDEN = 1 << 0,  /* for tests and tools: not in --help, the man
				 page or the completions */
	OPTF_ZERO = 1 << 1,    /* OPT_NUMBER: 0 is a value too */
	OPTF_FORMATS = 1 << 2, /* OPT_ENUM: its words, .help and .man are the
				  table of formats' (print.h) */
};

/* Where in struct options a value goes: OPT_AT(field); 0 is nowhere. */
#define OPT_AT(f) (offsetof(struct options, f) + 1)

/* One option: a row of options_table. */
struct opt {
	const char *name; /* long name, without "--" */
	char letter;      /* short name, or 0 */
	enum opt_kind kind;
	const char *arg;              /* the value's name in --help ("SEC"); NULL: none */
	const struct opt_word *words; /* OPT_ENUM, OPT_ACTION: the words */
	size_t to;                    /* OPT_AT of the field the value goes into */
	size_t given;                 /* OPT_AT of a bool set when the option is given */
	int set;                      /* OPT_SET: the value */
	void (*act)(struct buf *out, int value); /* OPT_ACTION */
	unsigned flags;                          /* OPTF_* */
	const char *alias;                       /* another long name, taken, never shown */
	const char *help;                        /* --help: a line, more after '\n' */
	const char *man;                         /* the man page's paragraph, in roff */
};

/* The table, in the order --help shows it; ends with a NULL name. */
extern const struct opt options_table[];

/* Parse argv into o, with the checks between options. Returns -1 when
 * agentview is to go on; otherwise the exit status, with what goes to
 * stdout (--help, --version, ...) in out or a usage error in err. */
int options_parse(struct options *o, int argc, char **argv, struct buf *out, struct buf *err);

/* Free what options_parse allocated in o. */
void options_free(struct options *o);

/* A usage error in err ("agentview: ...", and where to read more); returns
 * the exit status of one, 2. */
int options_usage(struct buf *err, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* The text of --help; the man page's OPTIONS section (roff). */
void options_help(struct buf *out);
void options_roff(struct buf *out);

/* The words of o shown to people, joined by sep ("text, markdown, ..."). */
void options_words(struct buf *out, const struct opt *o, const char *sep);
/* The words row r takes (NULL: none), and its text: --help's, or (roff)
 * the man page's, appended to out. */
const struct opt_word *options_words_of(const struct opt *r);
void options_text(const struct opt *r, bool roff, struct buf *out);

/* The shell completions, written from the table: its options, the words
 * of --format and --color, the theme names agentview lists, files, and the
 * command after "--". The scripts are committed under src/completions/
 * (`make update-completions` writes them; test_options checks they are
 * what this gives). */
enum shell { SHELL_BASH, SHELL_ZSH, SHELL_FISH };

/* Append the completion script of shell sh to out. */
void complete_script(struct buf *out, enum shell sh);

#endif
