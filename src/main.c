/* main.c: the choice between screen and print, and each of them run. */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "fleet.h"
#include "fleet_print.h"
#include "input.h"
#include "keep.h"
#include "model.h"
#include "notify.h"
#include "options.h"
#include "print.h"
#include "record.h"
#include "redact.h"
#include "remote.h"
#include "runner.h"
#include "sig.h"
#include "statusline.h"
#include "store.h"
#include "text.h"
#include "replay.h"
#include "ui.h"
#include "util.h"

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

/* Developer hook for `make bench`, kept out of --help: with
 * AGENTVIEW_MEMSTAT set in the environment, a thread reads RssAnon every
 * millisecond and the largest value seen (also at the points where memory
 * peaks: input indexed, output built) goes to stderr as one line at the
 * end. Linux keeps no peak of RssAnon, and the peak can come and go
 * between two points of the code (buffers of the parser thread). */
static _Atomic long memstat_peak = -1;

/* Note the anonymous memory now. */
static void
memstat_note(void)
{
	long kib = mem_rss_anon_kib(), old = memstat_peak;

	while (kib > old && !atomic_compare_exchange_weak(&memstat_peak, &old, kib))
		;
}

/* The sampling thread. */
static void *
memstat_run(void *arg)
{
	struct timespec ms = {0, 1000000};

	(void)arg;
	for (;;) {
		memstat_note();
		nanosleep(&ms, NULL);
	}
	return NULL;
}

/* Start sampling, when the hook is on. */
static void
memstat_start(void)
{
	pthread_t t;

	if (getenv("AGENTVIEW_MEMSTAT") == NULL)
		return;
	memstat_note();
	if (pthread_create(&t, NULL, memstat_run, NULL) == 0)
		pthread_detach(t);
}

/* Note the anonymous memory now, when the hook is on. */
static void
memstat_sample(void)
{
	if (getenv("AGENTVIEW_MEMSTAT") != NULL)
		memstat_note();
}

/* Say the peak and how many events it held, when the hook is on. */
static void
memstat_report(const struct model *m)
{
	if (getenv("AGENTVIEW_MEMSTAT") == NULL)
		return;
	fprintf(stderr,
		"agentview-memstat: events=%zu lines=%llu bytes=%llu rss_anon_peak_kib=%ld\n",
		m->nev, (unsigned long long)m->lines, (unsigned long long)m->bytes,
		(long)memstat_peak);
}

/* When main started, for the AGENTVIEW_FRAMESTAT hook: the time to the
 * first frame is counted from here (exec and loading the libraries before
 * take about a millisecond more). */
static int64_t main_started_us;

/* What the print loop has told the user so far. */
struct print_run {
	struct printer *p;
	struct input *in;
	uint64_t notes;       /* in->notes already shown */
	struct recorder *rec; /* NULL when not recording */
	bool rec_failed;      /* the recording failed, and that was said */
	input_line_fn inner;  /* what prints a line: the printer, or the
				 replay's wrapper of it */
	void *inner_ctx;
	struct notifier *tell; /* --notify, --notify-cmd of a live stream;
				  NULL: none */
	struct notify_watch told;
};

static bool reads_live(const struct options *o);

/* Tell the sessions that came to an end or wait, when asked (a live
 * stream only: a file read at once has no news). */
static void
print_tell(struct print_run *r, const struct options *o)
{
	const char *name = r->rec != NULL ? r->rec->path : o->nfiles > 0 ? o->files[0] : "-";

	if (r->tell != NULL)
		notify_model(r->tell, &r->told, r->in->m, name);
}

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
	if (printer_note(r->p, r->in->note.p, r->in->note.n))
		return;
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
		fprintf(stderr, "agentview: recording to %s stopped: %s\n", r->rec->path,
			strerror(r->rec->err));
}

/* Each line: notes first, then the line, then a write error it hit. */
static void
print_line(void *ctx, const struct source *s, const struct line *ln, uint32_t ev)
{
	struct print_run *r = ctx;

	print_notes(r);
	r->inner(r->inner_ctx, s, ln, ev);
	record_report(r);
}

/* Print mode with a COMMAND: the signals that end agentview stop the
 * command first (SIGPIPE too: a reader that went away). Returns the signal
 * that came, or 0. */
static int
print_signals(struct runner *run)
{
	static const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE};

	sig_drain();
	for (size_t i = 0; i < ARRAY_LEN(sigs); i++) {
		if (sig_take(sigs[i])) {
			runner_stop(run, RUNNER_GRACE_MS);
			return sigs[i];
		}
	}
	if (run->stop_signal != 0 && !run->stopping) {
		fprintf(stderr,
			"agentview: %s stopped on %s: it tried to use the "
			"terminal, which only agentview may; stopping it\n",
			run->in->src[run->out].name,
			run->stop_signal == SIGTTIN ? "SIGTTIN" : "SIGTTOU");
		runner_stop(run, RUNNER_GRACE_MS);
	}
	return 0;
}

/* Print mode with a COMMAND that printed no JSON: say so plainly, in the
 * log and on stderr. */
static void
print_no_json(struct runner *run, struct printer *p)
{
	struct buf msg = {0};

	if (!runner_no_json(run, &msg))
		return;
	printer_aside(p, msg.p);
	fflush(stdout);
	fprintf(stderr, "agentview: %s\n", msg.p);
	buf_free(&msg);
}

/* Print mode: stream the input through a printer until it ends (and, with
 * a COMMAND, until it is reaped). *caught is the signal that ended it. */
static int
run_print(struct input *in, struct model *m, const struct options *o, struct runner *run,
	  int *caught)
{
	struct printer *p = printer_new(m, format_at((size_t)o->format), stdout);
	struct pollfd fds[INPUT_MAX + 2];
	struct print_run r = {p, in, 0, in->rec, false, NULL, NULL, NULL, {0}};
	int status = 0, tty = -1;
	struct replay_printer rpp;
	struct notifier nt;

	if ((o->notify || o->notify_cmd != NULL) && (run != NULL || o->follow || reads_live(o))) {
		if (o->notify)
			tty = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
		notify_init(&nt, o->notify, o->notify_cmd, tty);
		r.tell = &nt;
	}

	r.inner = (input_line_fn)printer_line;
	r.inner_ctx = p;
	if (o->replay) {
		/* Each line comes out when its event is due. */
		replay_printer_init(&rpp, m, r.inner, r.inner_ctx, stdout, o->speed, o->idle_limit,
				    &replay_real_clock);
		r.inner = replay_printer_line;
		r.inner_ctx = &rpp;
	}
	input_on_line(in, print_line, &r);
	for (;;) {
		int n, timeout;

		while (input_pump(in, 0))
			;
		print_notes(&r);
		print_tell(&r, o);
		if (in->rec != NULL)
			record_check(in->rec);
		record_report(&r);
		if (run != NULL ? runner_check(run) : input_done(in))
			break;
		/* After runner_check: it is what notices a stopped command. */
		if (run != NULL && *caught == 0) {
			bool was = run->stopping;

			*caught = print_signals(run);
			if (run->stopping != was)
				continue; /* stopped and reaped: read the rest */
			/* A SIGCHLD after runner_check looked was drained with
			 * the others: look again rather than poll for it. */
			if (sig_take(SIGCHLD))
				continue;
		}
		timeout = run != NULL ? runner_timeout(run) : -1;
		/* Output that cannot be written ends a follow (said at the
		 * end); a COMMAND's output is still drained. */
		if (fflush(stdout) != 0 && run == NULL)
			break;
		n = input_pollfds(in, fds, (int)ARRAY_LEN(fds) - 1);
		if (run != NULL) {
			fds[n].fd = sig_fd();
			fds[n].events = POLLIN;
			fds[n].revents = 0;
			n++;
		}
		if (n == 0)
			break;
		if (poll(fds, (nfds_t)n, timeout) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
	}
	/* r ends with this frame: the input no longer calls back into it. */
	input_on_line(in, NULL, NULL);
	m->now_ms = clock_wall_ms();
	print_tell(&r, o);
	notify_watch_free(&r.told);
	if (tty >= 0)
		close(tty);
	memstat_sample();
	printer_finish(p);
	memstat_sample();
	memstat_report(m);
	if (run != NULL)
		print_no_json(run, p);
	printer_free(p);
	if (o->replay)
		replay_printer_free(&rpp);
	if (in->rec != NULL && in->rec->err != 0 && !in->rec->kept)
		status = 1;
	if (m->nses == 0 || m->ses[m->nses - 1].result_ev == NONE)
		status = 3;
	if (r.rec_failed && !in->rec->kept)
		status = 1;
	return status;
}

/* Screen mode: the viewer until the user quits; -1 when there is no
 * terminal to read keys from. */
static int
run_screen(struct input *in, struct model *m, const struct options *o, struct runner *run,
	   const char *note, struct fleet *f, struct notifier *tell, const char *tell_file)
{
	struct ui_opts uo = {0};
	bool stdin_events = f == NULL && o->command == NULL && o->nfiles == 0;
	int status;

	for (int i = 0; i < o->nfiles; i++)
		stdin_events |= strcmp(o->files[i], "-") == 0;
	uo.color = o->color == COLOR_NEVER    ? UI_COLOR_NEVER
		   : o->color == COLOR_ALWAYS ? UI_COLOR_ALWAYS
					      : UI_COLOR_AUTO;
	uo.theme = o->theme;
	uo.frames = (long)o->frames;
	/* Live input starts at its end, following, and so does a replay; a
	 * file starts at its top. */
	uo.follow = o->follow || stdin_events || run != NULL || o->replay;
	uo.keys_stdin = isatty(STDIN_FILENO) && !stdin_events;
	uo.ring = o->bell;
	uo.title = o->title;
	uo.mouse = o->mouse;
	uo.replay = o->replay;
	uo.speed = o->speed;
	uo.idle_limit = o->idle_limit;
	uo.run = run;
	/* Developer hook for `make bench`, kept out of --help. */
	uo.framestat = getenv("AGENTVIEW_FRAMESTAT") != NULL;
	uo.started_us = main_started_us;
	uo.note = note;
	uo.fleet = f;
	uo.tell = tell;
	uo.tell_file = tell_file;
	status = ui_run(m, in, &uo, f != NULL ? pane_list_open : pane_main_open);
	return status < 0 ? -1 : status;
}

/* The status line's flags: tmux's styles with --tmux-style; and inside
 * tmux ($TMUX set) every '#' of event text doubled even without it, since
 * the line is most likely going into tmux's bar, where a stream's "#(...)"
 * would run and its "#[...]" restyle. Elsewhere a '#' stays one. */
static int
status_line_flags(const struct options *o)
{
	const char *tmux = getenv("TMUX");

	return (o->tmux_style ? SL_TMUX : 0) | (tmux != NULL && *tmux != '\0' ? SL_HASH : 0);
}

/* --status-line: one line about the newest session of the FILE (or of
 * stdin), and its exit status. */
static int
run_status_line(const struct options *o)
{
	struct buf err = {0};
	int status;

	status = statusline_run(o->nfiles == 1 ? o->files[0] : "-", status_line_flags(o), o->agent,
				clock_wall_ms(), stdout, &err);
	if (status == 1)
		fprintf(stderr, "agentview: %s\n", err.p);
	buf_free(&err);
	return status;
}

/* Whether agentview reads a stream live: a COMMAND's output, or stdin
 * that is a pipe or a terminal. */
static bool
reads_live(const struct options *o)
{
	struct stat st;

	if (o->command != NULL)
		return true;
	if (!(o->nfiles == 0 || (o->nfiles == 1 && strcmp(o->files[0], "-") == 0)))
		return false;
	/* A pipe, a socket, a terminal: not a file, nor /dev/null. */
	return fstat(STDIN_FILENO, &st) == 0 &&
	       (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || isatty(STDIN_FILENO));
}

/* Keep what is read live in the folder of sessions (keep.h), unless told
 * not to, and remove the kept files that are old. A folder or a file that
 * cannot be made is said, once, on stderr (in note, for the screen); the
 * session is read and shown all the same, and the exit status stays. */
static void
keep_start(struct input *in, struct recorder *rec, const struct options *o, struct buf *note)
{
	struct buf err = {0}, dir = {0};
	int64_t now = clock_wall_ms();

	if (o->record != NULL || o->no_record || o->replay || !keep_wanted() || !reads_live(o))
		return;
	if (keep_open(rec, o->command, now, &err) == 0) {
		in->rec = rec;
		if (keep_dir(&dir))
			keep_prune(dir.p, keep_days(o->keep), now);
	} else {
		buf_addf(note,
			 "not keeping this session: %s (--no-record: "
			 "do not try)",
			 err.p);
		fprintf(stderr, "agentview: %s\n", note->p);
	}
	buf_free(&err);
	buf_free(&dir);
}

/* Whether the command line asks for the sessions of many files (issue
 * 15): a FOLDER, several FILEs, or none with nothing piped in or read
 * from a file. */
static bool
wants_fleet(const struct options *o)
{
	struct stat st;

	if (o->command != NULL || o->replay || o->record != NULL ||
	    format_at((size_t)o->format)->list == NULL)
		return false;
	/* A list's format alone (rows): a FILE is listed too. */
	if (format_at((size_t)o->format)->list == fleet_list_rows && o->nfiles > 0)
		return true;
	/* Nothing piped in: a terminal, /dev/null, none (--status-line runs
	 * under tmux's #() with no terminal; a script with </dev/null). */
	if (o->nfiles == 0)
		return fstat(STDIN_FILENO, &st) != 0 ||
		       !(S_ISFIFO(st.st_mode) || S_ISREG(st.st_mode));
	if (o->nfiles > 1)
		return true;
	return stat(o->files[0], &st) == 0 && S_ISDIR(st.st_mode);
}

/* The width a text list is laid out in: the terminal's, COLUMNS, or 160
 * for a log. */
static int
list_width(void)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return MAX(ws.ws_col, 40);
	if (cols != NULL && atoi(cols) > 0)
		return MAX(atoi(cols), 40);
	return 160;
}

/* Where `agentview` alone looks for sessions, in this order: one row a
 * place, its words (the empty list says where it looked) and its folder
 * (the agents' own stores come next: issue 23). kept: agentview's own,
 * made when missing, its old files removed, where what is piped into
 * agentview is kept; another place that is not there is passed over. */
static const struct {
	const char *what;
	bool (*dir)(struct buf *out);
	bool kept;
} places[] = {
	{"the sessions agentview keeps", keep_dir, true},
};

/* The mirror of a remote's own sessions (HOST:, remote.h) into f: its
 * kept sessions and each agent's store of mask, as `agentview` alone
 * lists them there (without their liveness: its processes are not this
 * machine's). */
static void
fleet_fill_remote(struct fleet *f, const char *mirror, unsigned mask)
{
	struct buf dir = {0}, err = {0};

	for (int s = 0; s < SRC_COUNT; s++) {
		if (!(mask & (1u << s)))
			continue;
		buf_reset(&dir);
		buf_addf(&dir, "%s/%s", mirror, store_source_name((enum store_source)s));
		if (s == SRC_KEPT)
			fleet_add_place(f, dir.p, store_what(SRC_KEPT), false, &err);
		else
			fleet_add_store(f, dir.p, store_patterns((enum store_source)s),
					(enum store_source)s);
	}
	buf_free(&dir);
	buf_free(&err);
}

/* The folders and files of the command line into f; with none, the
 * sources chosen (--sources, AGENTVIEW_SOURCES): the places above (the
 * folder of kept sessions) and the agents' stores that are there
 * (store.h: read only, never made). */
static int
fleet_fill(struct fleet *f, const struct options *o, int64_t now)
{
	struct buf dir = {0}, err = {0};
	struct stat st;
	unsigned mask = 0;
	int status = 0;
	bool stores = o->nfiles == 0;

	/* A remote's big files: the rest of a head the list reads past what
	 * their first look brought, asked for. */
	fleet_on_head(f, remote_head);
	/* The sources chosen: of this machine, or of a remote's (HOST:). */
	for (int i = 0; i < o->nfiles; i++)
		stores = stores || remote_stores(o->files[i]);
	if (stores && store_sources_chosen(o->sources, &mask, &err) != 0)
		status = 2;
	for (size_t i = 0;
	     o->nfiles == 0 && (mask & (1u << SRC_KEPT)) && i < ARRAY_LEN(places) && status == 0;
	     i++) {
		buf_reset(&dir);
		if (!places[i].kept) {
			/* Another's place: read as it is, when it is there. */
			if (places[i].dir(&dir) && stat(dir.p, &st) == 0 &&
			    fleet_add_place(f, dir.p, places[i].what, false, &err) != 0)
				status = 1;
		} else if (!places[i].dir(&dir) || keep_make_dir(dir.p, &err) != 0) {
			fprintf(stderr, "agentview: no folder of kept sessions: %s\n",
				err.n > 0 ? err.p : dir.p);
			status = 1;
		} else {
			keep_prune(dir.p, keep_days(o->keep), now);
			if (fleet_add_place(f, dir.p, places[i].what, true, &err) != 0)
				status = 1;
		}
	}
	if (o->nfiles == 0 && status == 0 && (mask & ~(1u << SRC_KEPT))) {
		fleet_set_live(f, store_live_new(NULL));
		for (int s = 0; s < SRC_KEPT; s++) {
			buf_reset(&dir);
			if ((mask & (1u << s)) && store_root((enum store_source)s, &dir))
				fleet_add_store(f, dir.p, store_patterns((enum store_source)s),
						(enum store_source)s);
		}
	}
	for (int i = 0; i < o->nfiles && status == 0; i++)
		if (remote_stores(o->files[i]))
			fleet_fill_remote(f, o->files[i], mask);
		else if (fleet_add(f, o->files[i], &err) != 0)
			status = 1;
	if (status != 0 && err.n > 0)
		fprintf(stderr, "agentview: %s%s\n",
			status != 2          ? ""
			: o->sources != NULL ? "--sources: "
					     : "AGENTVIEW_SOURCES: ",
			err.p);
	buf_free(&dir);
	buf_free(&err);
	return status;
}

/* With no session at all, where `agentview` alone looked (each source's
 * folder, there or not), on stderr: stdout is the list's. */
static void
say_where(const struct fleet *f, const struct options *o)
{
	struct buf b = {0}, kept = {0};
	unsigned mask;

	if (o->nfiles > 0 || fleet_nrows(f) > 0 ||
	    store_sources_chosen(o->sources, &mask, &b) != 0) {
		buf_free(&b);
		return;
	}
	keep_dir(&kept);
	buf_adds(&b, "agentview: no sessions; it looked in:\n");
	store_looked(mask, kept.n > 0 ? kept.p : NULL, getenv("HOME"), &b);
	fputs(b.p, stderr);
	buf_free(&b);
	buf_free(&kept);
}

/* The sessions of many files, without a screen: the list printed once,
 * followed (-f, with notifications), or summed up (--status-line). The
 * list printed once is exact: its rows' middles are read before it is
 * (the JSON reads each file whole itself). */
static int
run_fleet(const struct options *o)
{
	const struct format *fmt = format_at((size_t)o->format);
	bool json = !o->status_line && !o->follow && fmt->list == fleet_list_json;
	/* The rows for another machine's agentview: as the list reads them
	 * first, heads and tails. */
	bool exact = !o->status_line && !o->follow && !json && fmt->list != fleet_list_rows;
	struct fleet *f = fleet_new((o->recursive ? FLEET_RECURSIVE : 0) |
					    (o->status_line ? FLEET_STATES_ONLY : 0) |
					    (json ? FLEET_NO_TOKENS : 0) | (exact ? FLEET_GAPS : 0),
				    o->agent);
	int64_t now = clock_wall_ms();
	struct notifier n;
	struct buf line = {0};
	struct fleet_json *fj = NULL;
	int status = fleet_fill(f, o, now), tty = -1;

	if (status != 0) {
		fleet_free(f);
		return status;
	}
	/* The JSON summary's helpers read the files while the list is made. */
	if (json)
		fj = fleet_json_begin(f, o->agent, now, stdout);
	fleet_update(f, now, 0);
	while (exact && fleet_gaps_left(f))
		fleet_update(f, now, 0);
	memstat_sample();
	if (getenv("AGENTVIEW_MEMSTAT") != NULL)
		fprintf(stderr, "agentview-memstat: rows=%zu files=%zu rss_anon_peak_kib=%ld\n",
			fleet_nrows(f), fleet_nfiles(f), (long)memstat_peak);
	if (o->status_line) {
		fleet_status_line(f, status_line_flags(o), &line);
		buf_addc(&line, '\n');
		fwrite(line.p, 1, line.n, stdout);
	} else if (o->follow) {
		if (o->notify)
			tty = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
		notify_init(&n, o->notify, o->notify_cmd, tty);
		status = fleet_follow(f, fmt, o->notify || o->notify_cmd ? &n : NULL, stdout);
		if (tty >= 0)
			close(tty);
	} else {
		if (fj != NULL)
			fleet_json_end(fj, f, o->agent, now, stdout);
		else
			fmt->list(f, o->agent, list_width(), now, stdout);
		say_where(f, o);
	}
	buf_free(&line);
	fleet_free(f);
	return status;
}

/* The session list on the screen: the folders and files of the command
 * line, or the folder of kept sessions; printed when there is no terminal
 * for keys. */
static int
run_list(const struct options *o)
{
	struct fleet *f = fleet_new((o->recursive ? FLEET_RECURSIVE : 0) | FLEET_GAPS, o->agent);
	struct model *m;
	struct input in;
	struct notifier n;
	int status = fleet_fill(f, o, clock_wall_ms()), tty = -1;

	if (status != 0) {
		fleet_free(f);
		return status;
	}
	m = model_new();
	m->agent = o->agent;
	input_init(&in, m, false);
	if (o->notify)
		tty = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	notify_init(&n, o->notify, o->notify_cmd, tty);
	n.quiet = true;
	status = run_screen(&in, m, o, NULL, NULL, f,
			    o->notify || o->notify_cmd != NULL ? &n : NULL, NULL);
	if (tty >= 0)
		close(tty);
	input_free(&in);
	model_free(m);
	fleet_free(f);
	if (status < 0) {
		fprintf(stderr, "agentview: no terminal for keys (/dev/tty): printing instead\n");
		return run_fleet(o);
	}
	return status;
}

/* Print what the command line had to say (--help, a usage error) and
 * return status. */
static int
say(int status, struct buf *out, struct buf *err)
{
	if (out->n > 0)
		fputs(out->p, stdout);
	if (err->n > 0)
		fputs(err->p, stderr);
	buf_free(out);
	buf_free(err);
	return status;
}

/* The viewer of one input, telling its sessions' ends with --notify and
 * --notify-cmd when the input is live (a file read at once has no news). */
static int
screen_one(struct input *in, struct model *m, const struct options *o, struct runner *run,
	   const char *note, const char *recorded)
{
	struct notifier nt, *tell = NULL;
	int status, tty = -1;

	if ((o->notify || o->notify_cmd != NULL) && (run != NULL || o->follow || reads_live(o))) {
		if (o->notify)
			tty = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
		notify_init(&nt, o->notify, o->notify_cmd, tty);
		nt.quiet = true; /* the screen is up */
		tell = &nt;
	}
	status = run_screen(in, m, o, run, note, NULL, tell,
			    recorded != NULL ? recorded
			    : o->nfiles > 0  ? o->files[0]
					     : "-");
	if (tty >= 0)
		close(tty);
	return status;
}

/* One viewer or one log of the input (FILEs, standard input or COMMAND):
 * its model, recording, command and exit status. */
static int
run_one(struct options *o, bool same_axis, int *caught)
{
	struct model *m;
	struct input in;
	struct recorder rec = {.fd = -1};
	struct runner run = {0};
	bool record_failed = false;
	struct buf rec_note = {0}, err = {0};
	int status = 0;

	m = model_new();
	m->agent = o->agent;
	m->same_axis = same_axis;
	/* Developer hook for `make bench`: the index on one thread. */
	if (getenv("AGENTVIEW_ONE_THREAD") != NULL)
		m->ahead_min = SIZE_MAX;
	input_init(&in, m, o->follow);
	/* A recording that cannot start is said at once; the input is still
	 * read and shown (it may be a pipe that nothing else will drain), and
	 * the exit status is 1. */
	if (o->record != NULL) {
		if (record_open(&rec, o->record, o->command, &err) == 0) {
			in.rec = &rec;
		} else {
			fprintf(stderr, "agentview: %s\n", err.p);
			buf_add(&rec_note, err.p, err.n);
			buf_reset(&err);
			record_failed = true;
		}
	}
	keep_start(&in, &rec, o, &rec_note);
	if (o->command != NULL) {
		static const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE};

		for (size_t i = 0; i < ARRAY_LEN(sigs); i++)
			sig_watch(sigs[i]);
		if (runner_start(&run, &in, o->command, &err) != 0) {
			fprintf(stderr, "agentview: %s\n", err.p);
			status = runner_exit_code(&run);
			goto out;
		}
	} else if (o->nfiles == 0) {
		input_add_path(&in, "-", &err);
	} else {
		for (int i = 0; i < o->nfiles; i++) {
			if (input_add_path(&in, o->files[i], &err) != 0) {
				fprintf(stderr, "agentview: %s\n", err.p);
				status = 1;
				goto out;
			}
		}
	}
	if (o->print) {
		status = run_print(&in, m, o, o->command != NULL ? &run : NULL, caught);
	} else {
		status = screen_one(&in, m, o, o->command != NULL ? &run : NULL,
				    rec_note.n > 0 ? rec_note.p : NULL,
				    in.rec != NULL ? rec.path : NULL);
		if (status < 0) {
			fprintf(stderr,
				"agentview: no terminal for keys (/dev/tty): printing instead\n");
			status = run_print(&in, m, o, o->command != NULL ? &run : NULL, caught);
		}
	}
	/* COMMAND's failure is what a CI wrapper must see. */
	if (o->command != NULL && runner_exit_code(&run) != 0)
		status = runner_exit_code(&run);
	/* An I/O error outranks "no result", not a command's own status. */
	if (record_failed && (status == 0 || status == 3))
		status = 1;
out:
	if (in.rec != NULL) {
		if (rec.err != 0 && status == 0 && !rec.kept)
			status = 1;
		if (rec.err != 0 && !o->print)
			fprintf(stderr, "agentview: recording to %s: %s\n", rec.path,
				strerror(rec.err));
		record_close(&rec);
	}
	input_free(&in);
	model_free(m);
	buf_free(&err);
	buf_free(&rec_note);
	return status;
}

/* Standard descriptors closed by the caller ("agentview >&-") are held by
 * /dev/null, read-only: nothing opened later (the input, a pipe to the
 * COMMAND, a recording) takes their place, and a write to a closed
 * stdout fails, to be said at the end. */
static void
hold_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int got;

		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		got = open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
		if (got >= 0 && got != fd) {
			dup2(got, fd);
			close(got);
		}
	}
}

/* Every output goes to stdout through stdio; whether all of it was
 * written is known once it is flushed, here, for every way out of main:
 * a write that failed (a full disk, a closed stdout, a reader gone) is said
 * and makes the exit status 1, unless a COMMAND's own failure is to be
 * passed on. */
static int
output_checked(int status)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	/* A reader that went away (| head) knows. */
	if (errno != EPIPE)
		fprintf(stderr, "agentview: writing output: %s\n",
			errno != 0 ? strerror(errno) : "failed");
	return status == 0 || status == 3 ? 1 : status;
}

static int run_main(int argc, char **argv);

int
main(int argc, char **argv)
{
	hold_std_fds();
	return output_checked(run_main(argc, argv));
}

static int
run_main(int argc, char **argv)
{
	struct options o;
	struct buf out = {0}, err = {0}, cmp[2] = {{0}};
	struct redact *red;
	int status, caught = 0;
	bool fleet, quiet;

	main_started_us = clock_mono_us();
	sig_init();
	setup_locale();
	memstat_start();
	/* A file size limit must be a write error to report (EFBIG), not a
	 * signal that kills the viewer. */
	signal(SIGXFSZ, SIG_IGN);
	status = options_parse(&o, argc, argv, &out, &err);
	if (status >= 0) {
		options_free(&o);
		return say(status, &out, &err);
	}
	/* Secrets hidden from the start with --redact; the viewer's key can
	 * hide them later without it. */
	red = redact_new();
	for (int i = 0; i < o.npatterns; i++)
		if (!redact_add(red, o.patterns[i], &err))
			die("--redact-pattern: %s", err.p); /* checked by options */
	redact_use(red, o.redact);
	/* On a screen, two runs compared are their files in the viewer, each
	 * session's calls on one time axis from its own start. */
	if (o.compare && isatty(STDOUT_FILENO) && !o.format_given) {
		for (int i = 0; i < 2; i++) {
			compare_split(o.files[i], &cmp[i]);
			o.files[i] = cmp[i].p;
		}
		o.compare = false;
	}
	if (o.compare) {
		status = compare_run(o.files[0], o.files[1], format_at((size_t)o.format), o.agent,
				     stdout, &err);
		if (status != 0)
			fprintf(stderr, "agentview: %s\n", err.p);
		buf_free(&err);
		return status;
	}
	/* Sources on other machines are read into local mirrors first (the
	 * screen says no news on stderr: it owns the terminal). The list on
	 * the screen reads the heads and tails of big files: only those come,
	 * the rest when a session is opened (remote_whole). */
	quiet = isatty(STDOUT_FILENO) && !o.format_given && !o.print && !o.status_line;
	status = remote_start(o.files, &o.nfiles, quiet,
			      quiet && cmp[0].p == NULL && o.command == NULL && !o.replay &&
				      o.record == NULL);
	if (status < 0 || (status > 0 && o.nfiles == 0))
		return status < 0 ? 2 : 1;
	/* A remote file on the screen is shown live, as the list opens one. */
	for (int i = 0; i < o.nfiles && status > 0; i++) {
		struct stat st;

		if (remote_host_of(o.files[i]) != NULL && stat(o.files[i], &st) == 0 &&
		    S_ISREG(st.st_mode) && isatty(STDOUT_FILENO) && !o.print && !o.format_given)
			o.follow = true;
	}
	/* Two runs compared on a screen are one viewer, not a list. */
	fleet = cmp[0].p == NULL && wants_fleet(&o);
	if (o.status_line && !fleet)
		return run_status_line(&o);
	/* No screen to draw on: print. */
	if (!isatty(STDOUT_FILENO) || o.format_given)
		o.print = true;
	if (fleet && (o.print || o.status_line))
		return run_fleet(&o);
	if (fleet)
		return run_list(&o);
	if (o.follow && o.nfiles == 0)
		return say(options_usage(&err, "--follow needs a FILE or a FOLDER"), &out, &err);
	status = run_one(&o, cmp[0].p != NULL, &caught);
	buf_free(&err);
	buf_free(&cmp[0]);
	buf_free(&cmp[1]);
	redact_use(NULL, false);
	redact_free(red);
	options_free(&o);
	if (caught != 0) {
		/* Die of it, so the shell that started agentview knows. */
		fflush(stdout);
		sig_restore(caught);
		raise(caught);
		status = 128 + caught;
	}
	return status;
}
