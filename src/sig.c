/* sig.c: the self-pipe, the flags, and the inherited dispositions. */
#include "sig.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#ifndef NSIG
#define NSIG 65
#endif

static volatile sig_atomic_t pending[NSIG];
static int pipe_r = -1, pipe_w = -1;
static bool inherited_known;
static bool inherited_ign[NSIG]; /* SIG_IGN when agentview started */

void
sig_bus_say(int fd)
{
	static const char msg[] = "agentview: the input file was cut short while it was read "
				  "(SIGBUS); a file that changes wants -f\n";

	(void)!write(fd, msg, sizeof msg - 1);
}

void
sig_fatal_first(void)
{
	static atomic_flag taken = ATOMIC_FLAG_INIT;

	if (!atomic_flag_test_and_set(&taken))
		return;
	for (;;)
		pause();
}

/* SIGBUS: say why, then die of it. */
static void
on_bus(int signo)
{
	sig_fatal_first();
	sig_bus_say(STDERR_FILENO);
	signal(signo, SIG_DFL);
	raise(signo);
}

void
sig_init(void)
{
	struct sigaction sa;

	if (inherited_known)
		return;
	inherited_known = true;
	for (int s = 1; s < NSIG; s++)
		inherited_ign[s] = sigaction(s, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_bus;
	sigaction(SIGBUS, &sa, NULL);
}

/* Async-signal-safe: a flag, then a byte to wake poll(). */
static void
sig_handler(int signo)
{
	int saved = errno;

	if (signo > 0 && signo < NSIG)
		pending[signo] = 1;
	if (pipe_w >= 0) {
		ssize_t w = write(pipe_w, "", 1);

		(void)w; /* a full pipe already holds a wake-up */
	}
	errno = saved;
}

/* Both ends close-on-exec and non-blocking: the handler must never block,
 * and children must not inherit them. */
static void
sig_open_pipe(void)
{
	int fds[2];

	if (pipe_r >= 0)
		return;
	if (pipe(fds) != 0)
		die("pipe: %s", strerror(errno));
	for (int i = 0; i < 2; i++) {
		if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0 ||
		    fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK) != 0)
			die("fcntl: %s", strerror(errno));
	}
	pipe_r = fds[0];
	pipe_w = fds[1];
}

bool
sig_watch(int signo)
{
	struct sigaction sa;

	sig_init();
	if (signo <= 0 || signo >= NSIG)
		return false;
	if (inherited_ign[signo] && signo != SIGCHLD)
		return false;
	sig_open_pipe();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = sig_handler;
	sigemptyset(&sa.sa_mask);
	/* Interrupted reads and writes go on; poll() is woken by the pipe. */
	sa.sa_flags = SA_RESTART;
	if (sigaction(signo, &sa, NULL) != 0)
		die("sigaction %d: %s", signo, strerror(errno));
	return true;
}

int
sig_fd(void)
{
	return pipe_r;
}

void
sig_drain(void)
{
	char b[64];

	if (pipe_r < 0)
		return;
	while (read(pipe_r, b, sizeof b) > 0)
		;
}

bool
sig_take(int signo)
{
	if (signo <= 0 || signo >= NSIG || !pending[signo])
		return false;
	pending[signo] = 0;
	return true;
}

void
sig_restore(int signo)
{
	struct sigaction sa;

	sig_init();
	if (signo <= 0 || signo >= NSIG)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = inherited_ign[signo] ? SIG_IGN : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(signo, &sa, NULL);
}

void
sig_child_reset(void)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	for (int s = 1; s < NSIG; s++) {
		if (s == SIGKILL || s == SIGSTOP)
			continue;
		/* Signals glibc reserves refuse this; nothing to undo there. */
		sa.sa_handler = inherited_known && inherited_ign[s] ? SIG_IGN : SIG_DFL;
		sigaction(s, &sa, NULL);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}
