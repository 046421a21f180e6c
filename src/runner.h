/* runner.h: runs the COMMAND of `agentview -- COMMAND`. Its stdout and
 * stderr come back on two pipes that become sources of an input (stdout
 * the event stream, stderr lines EV_STDERR items); it runs in a process
 * group of its own, so that stopping it stops what it started; and it is
 * reaped on every path: SIGCHLD wakes the caller's poll() through the sig
 * self-pipe, runner_check collects the status, runner_stop ends it, and an
 * exit() with the command still running stops it too. The screen and the
 * printer share it. No curses.
 *
 * A poll() loop with a runner:
 *     fds: input_pollfds(...), and sig_fd() for POLLIN
 *     timeout: runner_timeout(r) (-1: none)
 *     after poll: sig_drain(); input_pump(...); runner_check(r)
 *     on SIGTERM/SIGINT/SIGHUP (sig_take) or q: runner_stop(r, grace)
 *     done when runner_check(r) is true (it implies every source ended). */
#ifndef AGENTVIEW_RUNNER_H
#define AGENTVIEW_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "input.h"
#include "util.h"

/* Between SIGTERM to the group and SIGKILL. */
#define RUNNER_GRACE_MS 3000
/* How long pipes may stay open once the command has exited (a background
 * process it left holds them) before they are read no more. */
#define RUNNER_DRAIN_MS 1000

struct runner {
	pid_t pid;         /* the command, leader of its group; 0: none */
	int exec_errno;    /* why it could not be started, or 0 */
	bool stdin_passed; /* it reads agentview's stdin, else /dev/null */
	bool reaped;       /* it ended; the status below is known */
	bool exited;       /* it exited, with exit_status */
	int exit_status;
	int signal;        /* the signal that killed it, or 0 */
	int stop_signal;   /* SIGTTIN/SIGTTOU when it stopped on the
				terminal it may not use, else 0 */
	bool stopping;     /* runner_stop sent SIGTERM */
	bool done;         /* reaped, output read, model and recording told */
	int64_t reaped_ms; /* clock_mono_ms() when reaped */
	struct input *in;  /* not owned */
	unsigned out, err; /* its stdout and stderr: sources of in */
};

/* Start argv[0] (looked up in PATH) with argv. Its stdout and stderr become
 * sources of in; in->m->cmd gets argv; in->rec (if any) will get its end.
 * Watches SIGCHLD. Returns -1 with the reason in err when it could not be
 * started (runner_exit_code then says 127 or 126, as a shell would). */
int runner_start(struct runner *r, struct input *in, char *const *argv, struct buf *err);
/* Reap the command if it ended; once it has and its output is read (or
 * RUNNER_DRAIN_MS have passed since), tell the model (cmd.exited,
 * exit_status, signal) and the recording (record_exit), and return true.
 * Cheap: call it after every poll() wake-up. */
bool runner_check(struct runner *r);
/* The poll() timeout the runner needs, in ms, or -1 for none: the end of
 * the drain after the command exited. */
int runner_timeout(const struct runner *r);
/* SIGTERM to the command's group (and SIGCONT, so a stopped one can act on
 * it); once the command has exited, or after grace_ms, or when SIGTERM,
 * SIGINT or SIGHUP comes again, SIGKILL to what is left of the group; then
 * reap it. Returns at once if it was already reaped. */
void runner_stop(struct runner *r, int grace_ms);
/* What agentview passes on: 0, the command's exit status, 128 + its
 * signal, or 127/126 when it could not be started. */
int runner_exit_code(const struct runner *r);
/* When the command printed no JSON event on stdout, append why to msg
 * ("cursor-agent printed no JSON events (is --output-format stream-json
 * missing?)", or that it printed nothing) and return true. */
bool runner_no_json(const struct runner *r, struct buf *msg);
/* Whether a command may read fd as its stdin: a pipe, a socket or a
 * regular file; not a terminal, where the CLI would wait for a prompt. */
bool runner_stdin_usable(int fd);

#endif
