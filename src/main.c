/* main.c: the command line, and the choice between screen and print. */
#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "model.h"
#include "print.h"
#include "record.h"
#include "text.h"
#include "util.h"

#ifndef AGENTVIEW_VERSION
#define AGENTVIEW_VERSION "dev"
#endif

enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct options {
	bool follow;
	bool replay;
	double speed;
	double idle_limit; /* seconds; < 0: none */
	const char *record;
	bool print;
	enum print_format format;
	bool format_given;
	bool status_line;
	const char *theme;
	enum color_when color;
	char **files;
	int nfiles;
	char **command; /* after "--", NULL-terminated; NULL if none */
};

static const char usage_text[] =
	"usage: agentview [OPTIONS] [FILE ...]            view FILE(s); '-' or piped stdin = live input\n"
	"       agentview [OPTIONS] -- COMMAND [ARG ...]  run COMMAND and view its output live\n"
	"  -f, --follow           keep reading FILE as it grows (tail -F: survives truncation and replacement)\n"
	"  -r, --replay           replay with the recorded timing instead of showing everything at once\n"
	"                         (with --print, the plain output comes out at that timing too)\n"
	"  -s, --speed X          replay speed factor (default 1)\n"
	"  -i, --idle-limit SEC   cap every pause in a replay at SEC seconds\n"
	"      --record FILE      write what is read (stdin or COMMAND's output) to FILE as a recording\n"
	"  -p, --print            plain output, no screen (the default when stdout is not a terminal)\n"
	"      --format FMT       with --print: text (default), markdown, json, raw (the original stream,\n"
	"                         byte for byte, also out of a recording)\n"
	"      --status-line      print one status line for the newest session and exit\n"
	"      --theme NAME       colour theme\n"
	"      --color WHEN       auto, always, never (NO_COLOR, when non-empty, means never)\n"
	"  -h, --help             usage on stdout, exit 0\n"
	"  -V, --version          version on stdout, exit 0\n"
	"Exit status: 0 success; 1 I/O or runtime error; 2 usage error; with --print or\n"
	"--status-line, 3 when the input ended without a result event; with -- COMMAND,\n"
	"COMMAND's non-zero exit status is passed on.\n";

/* A usage error: say what is wrong, point at --help, exit 2. */
NORETURN static void PRINTF_LIKE(1, 2)
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("agentview: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'agentview --help' for more information.\n", stderr);
	exit(2);
}

static double
parse_number(const char *opt, const char *s, bool allow_zero)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v < 0 ||
	    (!allow_zero && v == 0))
		usage_error("%s: '%s' is not a %s number", opt, s,
			    allow_zero ? "non-negative" : "positive");
	return v;
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	enum { OPT_RECORD = 256, OPT_FORMAT, OPT_STATUS, OPT_THEME, OPT_COLOR };
	static const struct option longopts[] = {
		{"follow", no_argument, NULL, 'f'},
		{"replay", no_argument, NULL, 'r'},
		{"speed", required_argument, NULL, 's'},
		{"idle-limit", required_argument, NULL, 'i'},
		{"record", required_argument, NULL, OPT_RECORD},
		{"print", no_argument, NULL, 'p'},
		{"format", required_argument, NULL, OPT_FORMAT},
		{"status-line", no_argument, NULL, OPT_STATUS},
		{"theme", required_argument, NULL, OPT_THEME},
		{"color", required_argument, NULL, OPT_COLOR},
		{"colour", required_argument, NULL, OPT_COLOR},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int c, nargs = argc;

	memset(o, 0, sizeof *o);
	o->speed = 1;
	o->idle_limit = -1;
	/* Everything after the first "--" is the command to run. */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			nargs = i;
			if (i + 1 >= argc)
				usage_error("'--' must be followed by a COMMAND");
			o->command = &argv[i + 1];
			break;
		}
	}
	opterr = 0;
	while ((c = getopt_long(nargs, argv, ":frs:i:phV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->follow = true;
			break;
		case 'r':
			o->replay = true;
			break;
		case 's':
			o->speed = parse_number("--speed", optarg, false);
			break;
		case 'i':
			o->idle_limit = parse_number("--idle-limit", optarg, true);
			break;
		case OPT_RECORD:
			o->record = optarg;
			break;
		case 'p':
			o->print = true;
			break;
		case OPT_FORMAT:
			if (!print_format_parse(optarg, &o->format))
				usage_error("--format: '%s' is not one of text, markdown, json, raw",
					    optarg);
			o->format_given = true;
			break;
		case OPT_STATUS:
			o->status_line = true;
			break;
		case OPT_THEME:
			o->theme = optarg;
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") == 0)
				o->color = COLOR_AUTO;
			else if (strcmp(optarg, "always") == 0)
				o->color = COLOR_ALWAYS;
			else if (strcmp(optarg, "never") == 0)
				o->color = COLOR_NEVER;
			else
				usage_error("--color: '%s' is not one of auto, always, never",
					    optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case 'V':
			printf("agentview %s\n", AGENTVIEW_VERSION);
			exit(0);
		case ':':
			usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt != 0)
				usage_error("unknown option '-%c'", optopt);
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	o->files = &argv[optind];
	o->nfiles = nargs - optind;
	if (o->command != NULL && o->nfiles > 0)
		usage_error("give FILEs or '-- COMMAND', not both");
	if (o->record != NULL && o->nfiles > 0 &&
	    !(o->nfiles == 1 && strcmp(o->files[0], "-") == 0))
		usage_error("--record records stdin or a COMMAND, not FILEs");
	if (o->follow && o->nfiles == 0)
		usage_error("--follow needs a FILE");
}

/* Text goes out as UTF-8 whatever the locale says; widths need a UTF-8
 * LC_CTYPE, so fall back to C.UTF-8 when the locale is plain C. */
static void
setup_locale(void)
{
	const char *cs;

	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	if (cs == NULL || strcmp(cs, "UTF-8") != 0)
		setlocale(LC_CTYPE, "C.UTF-8");
}

/* What the print loop has told the user so far. */
struct print_run {
	struct printer *p;
	struct input *in;
	enum print_format fmt;
	uint64_t notes;       /* in->notes already shown */
	struct recorder *rec; /* NULL when not recording */
	bool rec_failed;      /* the recording failed, and that was said */
};

/* Say what the input has to say (a followed file truncated, replaced or
 * removed) before the next line: in the log for text and Markdown, on
 * stderr where the output is data. */
static void
print_notes(struct print_run *r)
{
	struct buf safe = {0};

	if (r->in->notes == r->notes)
		return;
	r->notes = r->in->notes;
	if (r->fmt == PF_TEXT || r->fmt == PF_MARKDOWN) {
		printer_note(r->p, r->in->note.p, r->in->note.n);
		return;
	}
	text_sanitize(&safe, r->in->note.p, r->in->note.n, TEXT_ONELINE);
	fflush(stdout);
	fprintf(stderr, "agentview: %s\n", safe.p);
	buf_free(&safe);
}

/* Report a recording that stopped, once, as soon as it is seen; reading
 * and printing go on. */
static void
record_report(struct print_run *r)
{
	if (r->rec == NULL || r->rec->err == 0 || r->rec_failed)
		return;
	r->rec_failed = true;
	fflush(stdout);
	if (r->rec->err == ENOENT)
		fprintf(stderr, "agentview: %s was removed: nothing more is recorded\n",
			r->rec->path);
	else
		fprintf(stderr, "agentview: recording to %s stopped: %s\n",
			r->rec->path, strerror(r->rec->err));
}

/* Each line: notes first, then the line, then a write error it hit. */
static void
print_line(void *ctx, const struct source *s, const struct line *ln,
	   uint32_t ev)
{
	struct print_run *r = ctx;

	print_notes(r);
	printer_line(r->p, s, ln, ev);
	record_report(r);
}

/* Print mode: stream the input through a printer until it ends. */
static int
run_print(struct input *in, struct model *m, const struct options *o,
	  struct recorder *rec)
{
	struct printer *p = printer_new(m, o->format, stdout);
	struct pollfd fds[INPUT_MAX + 2];
	struct print_run r = {p, in, o->format, 0, rec, false};
	int status = 0;

	in->on_line = print_line;
	in->ctx = &r;
	for (;;) {
		while (input_pump(in, 0))
			;
		print_notes(&r);
		if (rec != NULL)
			record_check(rec);
		record_report(&r);
		if (input_done(in))
			break;
		fflush(stdout);
		int n = input_pollfds(in, fds, (int)ARRAY_LEN(fds));

		if (n == 0)
			break;
		if (poll(fds, (nfds_t)n, -1) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
	}
	m->now_ms = clock_wall_ms();
	printer_finish(p);
	printer_free(p);
	if (m->nses == 0 || m->ses[m->nses - 1].result_ev == NONE)
		status = 3;
	if (ferror(stdout) || fflush(stdout) != 0) {
		fprintf(stderr, "agentview: writing output: %s\n",
			strerror(errno));
		status = 1;
	}
	if (r.rec_failed)
		status = 1;
	return status;
}

int
main(int argc, char **argv)
{
	struct options o;
	struct model *m;
	struct input in;
	struct recorder rec = {.fd = -1};
	bool recording = false;
	struct buf err = {0};
	int status;

	setup_locale();
	/* A file size limit must be a write error to report (EFBIG), not a
	 * signal that kills the viewer. */
	signal(SIGXFSZ, SIG_IGN);
	parse_options(argc, argv, &o);
	if (o.command != NULL)
		usage_error("-- COMMAND is not built yet");
	if (o.nfiles == 0 && isatty(STDIN_FILENO))
		usage_error("no input: give a FILE, pipe a stream into agentview, or use -- COMMAND");
	if (!o.print && !o.status_line && isatty(STDOUT_FILENO) &&
	    !o.format_given)
		o.print = true; /* the screen comes with the viewer */
	m = model_new();
	input_init(&in, m, o.follow);
	if (o.nfiles == 0) {
		input_add_path(&in, "-", &err);
	} else {
		for (int i = 0; i < o.nfiles; i++) {
			if (input_add_path(&in, o.files[i], &err) != 0) {
				fprintf(stderr, "agentview: %s\n", err.p);
				buf_free(&err);
				input_free(&in);
				model_free(m);
				return 1;
			}
		}
	}
	/* A recording that cannot start is said at once; the input is still
	 * read and printed (it may be a pipe that nothing else will drain),
	 * and the exit status is 1. */
	if (o.record != NULL) {
		if (record_open(&rec, o.record, NULL, &err) == 0) {
			in.rec = &rec;
			recording = true;
		} else {
			fprintf(stderr, "agentview: %s\n", err.p);
			buf_reset(&err);
		}
	}
	status = run_print(&in, m, &o, recording ? &rec : NULL);
	if (o.record != NULL && !recording)
		status = 1;
	if (recording)
		record_close(&rec);
	input_free(&in);
	model_free(m);
	buf_free(&err);
	return status;
}
