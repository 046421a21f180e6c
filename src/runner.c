/* runner.c: starting, watching, stopping and reaping the COMMAND. */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "record.h"
#include "sig.h"
#include "text.h"

/* The command still running when agentview exits (die(), a return from
 * main): the atexit hook stops it. */
static struct runner *running;

bool
runner_stdin_usable(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return false;
	return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISREG(st.st_mode);
}

/* A pipe whose both ends are close-on-exec: only the dup2'd copies in the
 * child survive its exec. */
static int
cloexec_pipe(int fds[2])
{
	if (pipe(fds) != 0)
		return -1;
	if (fcntl(fds[0], F_SETFD, FD_CLOEXEC) != 0 || fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		errno = e;
		return -1;
	}
	return 0;
}

/* Write all of p to fd, from the child (no stdio, no allocation). */
static void
child_write(int fd, const void *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p = (const char *)p + w;
		n -= (size_t)w;
	}
}

/* The child, between fork and exec: its own group, the signals agentview
 * inherited, stdin, the pipes. On failure errno goes up the status pipe. */
NORETURN static void
runner_child(char *const *argv, int out, int err, int status, bool pass_stdin, pid_t parent)
{
	int e;

	setpgid(0, 0);
	sig_child_reset();
#ifdef __linux__
	/* If agentview is killed outright, the command is told to stop too. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(1);
#else
	(void)parent;
#endif
	/* Above 2 first, so no dup2 below overwrites the other pipe. */
	if ((out = fcntl(out, F_DUPFD_CLOEXEC, 3)) < 0 ||
	    (err = fcntl(err, F_DUPFD_CLOEXEC, 3)) < 0)
		goto fail;
	if (!pass_stdin) {
		int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (fd < 0 || dup2(fd, STDIN_FILENO) < 0)
			goto fail;
	}
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		goto fail;
	execvp(argv[0], argv);
fail:
	e = errno;
	child_write(status, &e, sizeof e);
	_exit(127);
}

/* Record a wait status. */
static void
runner_status(struct runner *r, int st)
{
	if (WIFEXITED(st)) {
		r->exited = true;
		r->exit_status = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		r->signal = WTERMSIG(st);
	}
	r->reaped = true;
	r->reaped_ms = clock_mono_ms();
	if (running == r)
		running = NULL;
}

/* Whatever path leads out of agentview, the command does not outlive it. */
static void
runner_atexit(void)
{
	if (running != NULL)
		runner_stop(running, RUNNER_GRACE_MS);
}

int
runner_start(struct runner *r, struct input *in, char *const *argv, struct buf *err)
{
	static bool hooked;
	int out[2], errp[2], status[2], cerr = 0;
	pid_t pid, self = getpid();
	ssize_t n;
	size_t argc = 0;
	struct model *m = in->m;

	memset(r, 0, sizeof *r);
	r->in = in;
	sig_watch(SIGCHLD);
	r->stdin_passed = runner_stdin_usable(STDIN_FILENO);
	if (cloexec_pipe(out) != 0 || cloexec_pipe(errp) != 0 || cloexec_pipe(status) != 0) {
		/* Out of descriptors: agentview exits, and they go with it. */
		r->exec_errno = errno;
		buf_addf(err, "cannot run %s: pipe: %s", argv[0], strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0)
		runner_child(argv, out[1], errp[1], status[1], r->stdin_passed, self);
	close(out[1]);
	close(errp[1]);
	close(status[1]);
	if (pid < 0) {
		r->exec_errno = errno;
		buf_addf(err, "cannot run %s: fork: %s", argv[0], strerror(errno));
		close(out[0]);
		close(errp[0]);
		close(status[0]);
		return -1;
	}
	/* Both sides set the group, so it exists whichever runs first. */
	setpgid(pid, pid);
	/* The status pipe closes at exec; before that, an errno comes up. */
	while ((n = read(status[0], &cerr, sizeof cerr)) < 0 && errno == EINTR)
		;
	close(status[0]);
	if (n == (ssize_t)sizeof cerr) {
		int st;

		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		close(out[0]);
		close(errp[0]);
		r->exec_errno = cerr;
		buf_addf(err, "cannot run %s: %s", argv[0], strerror(cerr));
		return -1;
	}
	r->pid = pid;
	r->out = input_add_fd(in, out[0], argv[0]);
	r->err = input_add_fd(in, errp[0], "stderr");
	input_set_stderr(in, r->err, r->out);
	while (argv[argc] != NULL)
		argc++;
	if (m->cmd.argv == NULL) {
		m->cmd.argv = xcalloc(argc + 1, sizeof *m->cmd.argv);
		for (size_t i = 0; i < argc; i++)
			m->cmd.argv[i] = xstrdup(argv[i]);
	}
	m->cmd.present = true;
	running = r;
	if (!hooked) {
		atexit(runner_atexit);
		hooked = true;
	}
	return 0;
}

/* Told the model and the recording how the command ended. */
static void
runner_finish(struct runner *r)
{
	struct model *m = r->in->m;

	m->cmd.present = true;
	m->cmd.exited = r->exited;
	m->cmd.exit_status = r->exit_status;
	m->cmd.signal = r->signal;
	if (r->in->rec != NULL)
		record_exit(r->in->rec, r->exited, r->exit_status, r->signal, clock_wall_ms());
	r->done = true;
}

bool
runner_check(struct runner *r)
{
	struct input *in = r->in;

	if (r->pid <= 0 || r->done)
		return r->done;
	if (!r->reaped) {
		int st;
		pid_t p;

		while ((p = waitpid(r->pid, &st, WNOHANG | WUNTRACED)) < 0 && errno == EINTR)
			;
		if (p == r->pid && WIFSTOPPED(st)) {
			int s = WSTOPSIG(st);

			if (s == SIGTTIN || s == SIGTTOU)
				r->stop_signal = s;
		} else if (p == r->pid) {
			runner_status(r, st);
		} else if (p < 0 && errno == ECHILD) {
			/* Not ours to wait for any more: status unknown. */
			runner_status(r, 0);
			r->exited = false;
		}
	}
	if (!r->reaped)
		return false;
	if (!in->ended[r->out] || !in->ended[r->err]) {
		if (clock_mono_ms() - r->reaped_ms < RUNNER_DRAIN_MS)
			return false;
		input_close(in, r->out);
		input_close(in, r->err);
		input_pump(in, 0);
	}
	runner_finish(r);
	return true;
}

int
runner_timeout(const struct runner *r)
{
	int64_t left;

	if (r->pid <= 0 || !r->reaped || r->done)
		return -1;
	left = r->reaped_ms + RUNNER_DRAIN_MS - clock_mono_ms();
	return left < 0 ? 0 : (int)left;
}

/* Whether the command has exited, without reaping it: while it is a zombie
 * its pid, and so its group id, cannot be reused by another process. */
static bool
runner_exited_nowait(const struct runner *r)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	while (waitid(P_PID, (id_t)r->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
		if (errno != EINTR)
			return true; /* gone already: nothing to wait for */
	}
	return si.si_pid == r->pid;
}

void
runner_stop(struct runner *r, int grace_ms)
{
	int64_t deadline;
	int st;

	if (r->pid <= 0 || r->reaped)
		return;
	r->stopping = true;
	kill(-r->pid, SIGTERM);
	kill(-r->pid, SIGCONT);
	deadline = clock_mono_ms() + grace_ms;
	while (!runner_exited_nowait(r)) {
		int64_t left = deadline - clock_mono_ms();
		struct pollfd p = {sig_fd(), POLLIN, 0};

		if (left <= 0)
			break;
		/* SIGCHLD writes to the self-pipe and wakes this. */
		if (poll(&p, 1, (int)left) > 0)
			sig_drain();
		/* Asked again: no more waiting. */
		if (sig_take(SIGTERM) || sig_take(SIGINT) || sig_take(SIGHUP))
			break;
	}
	kill(-r->pid, SIGKILL);
	while (waitpid(r->pid, &st, 0) < 0) {
		if (errno != EINTR) {
			st = 0;
			break;
		}
	}
	runner_status(r, st);
}

int
runner_exit_code(const struct runner *r)
{
	if (r->exec_errno != 0)
		return r->exec_errno == ENOENT ? 127 : 126;
	if (r->signal != 0)
		return 128 + r->signal;
	if (r->exited)
		return r->exit_status;
	return 0;
}

bool
runner_no_json(const struct runner *r, struct buf *msg)
{
	const struct input *in = r->in;
	const struct model *m = in->m;
	unsigned src = in->msrc[r->out];
	const char *name;

	if (r->pid <= 0)
		return false;
	for (size_t e = 0; e < m->nev; e++)
		if (EV_SRC(&m->ev[e]) == src && EV_TYPE(&m->ev[e]) != EV_BAD)
			return false;
	name = in->src[r->out].name;
	text_sanitize(msg, name, strlen(name), TEXT_ONELINE);
	if (in->src[r->out].lineno == 0)
		buf_adds(msg, " printed nothing on its standard output");
	else
		buf_adds(msg, " printed no JSON events (is --output-format "
			      "stream-json missing?)");
	return true;
}
