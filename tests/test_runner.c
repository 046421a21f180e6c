/* test_runner.c: what the runner and the signal self-pipe decide, without
 * starting processes (tests/run_runner.sh runs real ones). */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "testutil.h"

#include "input.h"
#include "record.h"
#include "runner.h"
#include "sig.h"

/* Where the command's stdin comes from: the pipe, socket or file it was
 * given; /dev/null for a terminal or nothing. */
static void
test_stdin_usable(void **state)
{
	int p[2], sv[2], pty, tty;
	FILE *f = tmpfile();
	int devnull = open("/dev/null", O_RDONLY);

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_true(runner_stdin_usable(p[0]));
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_true(runner_stdin_usable(sv[0]));
	assert_non_null(f);
	assert_true(runner_stdin_usable(fileno(f)));
	assert_false(runner_stdin_usable(devnull));
	pty = posix_openpt(O_RDWR | O_NOCTTY);
	assert_true(pty >= 0);
	assert_int_equal(grantpt(pty), 0);
	assert_int_equal(unlockpt(pty), 0);
	tty = open(ptsname(pty), O_RDWR | O_NOCTTY);
	assert_true(tty >= 0);
	assert_false(runner_stdin_usable(tty));
	close(p[1]);
	assert_false(runner_stdin_usable(p[1])); /* closed */
	close(p[0]);
	close(sv[0]);
	close(sv[1]);
	close(tty);
	close(pty);
	close(devnull);
	fclose(f);
}

/* What agentview passes on, as a shell would. */
static void
test_exit_code(void **state)
{
	struct runner r;

	(void)state;
	memset(&r, 0, sizeof r);
	r.reaped = r.exited = true;
	assert_int_equal(runner_exit_code(&r), 0);
	r.exit_status = 7;
	assert_int_equal(runner_exit_code(&r), 7);
	r.exited = false;
	r.signal = 9;
	assert_int_equal(runner_exit_code(&r), 137);
	memset(&r, 0, sizeof r);
	r.exec_errno = ENOENT;
	assert_int_equal(runner_exit_code(&r), 127);
	r.exec_errno = EACCES;
	assert_int_equal(runner_exit_code(&r), 126);
}

/* A runner whose command "exited" (status 4) while its pipes, written here,
 * stay open: the state a grandchild holding them leaves. */
struct fx {
	struct model *m;
	struct input in;
	struct recorder rec;
	struct runner r;
	int out[2], err[2];
	char path[32];
};

static struct fx *
fx_new(void)
{
	struct fx *f = calloc(1, sizeof *f);
	struct buf e = {0};
	char *argv[] = {(char *)"agent", (char *)"-p", NULL};
	int fd;

	strcpy(f->path, "/tmp/av-run-XXXXXX");
	fd = mkstemp(f->path);
	assert_true(fd >= 0);
	close(fd);
	f->m = model_new();
	input_init(&f->in, f->m, false);
	assert_int_equal(record_open(&f->rec, f->path, argv, &e), 0);
	f->in.rec = &f->rec;
	assert_int_equal(pipe(f->out), 0);
	assert_int_equal(pipe(f->err), 0);
	f->r.in = &f->in;
	f->r.pid = getpid(); /* never signalled: it is reaped already */
	f->r.out = input_add_fd(&f->in, f->out[0], "agent");
	f->r.err = input_add_fd(&f->in, f->err[0], "stderr");
	input_set_stderr(&f->in, f->r.err, f->r.out);
	f->r.reaped = f->r.exited = true;
	f->r.exit_status = 4;
	f->r.reaped_ms = clock_mono_ms();
	buf_free(&e);
	return f;
}

static void
fx_free(struct fx *f)
{
	close(f->out[1]);
	close(f->err[1]);
	record_close(&f->rec);
	input_free(&f->in);
	model_free(f->m);
	unlink(f->path);
	free(f);
}

/* The last line of the recording. */
static char *
last_line(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[4096], *last = NULL;

	assert_non_null(fp);
	while (fgets(line, sizeof line, fp) != NULL) {
		free(last);
		last = strdup(line);
	}
	fclose(fp);
	return last;
}

/* Pipes held open after the command exited are read for a while, then no
 * more: what was read is kept, and the end is told. */
static void
test_drain(void **state)
{
	static const char out[] = "{\"type\":\"system\",\"subtype\":\"init\"}\npartial";
	static const char err[] = "Error: quota\n";
	struct fx *f = fx_new();
	char *last;
	int t;

	(void)state;
	assert_int_equal(write(f->out[1], out, sizeof out - 1), (ssize_t)sizeof out - 1);
	assert_int_equal(write(f->err[1], err, sizeof err - 1), (ssize_t)sizeof err - 1);
	input_pump(&f->in, 0);
	/* Just reaped: still waiting for the pipes, with a deadline. */
	assert_false(runner_check(&f->r));
	t = runner_timeout(&f->r);
	assert_true(t > 0 && t <= RUNNER_DRAIN_MS);
	assert_false(f->m->cmd.exited);
	/* The drain time is over. */
	f->r.reaped_ms -= RUNNER_DRAIN_MS + 1;
	assert_int_equal(runner_timeout(&f->r), 0);
	assert_true(runner_check(&f->r));
	assert_true(f->r.done);
	assert_int_equal(runner_timeout(&f->r), -1);
	assert_true(input_done(&f->in));
	/* The unterminated rest was handed out, the end was told. */
	assert_int_equal(f->m->nev, 3);
	assert_int_equal(EV_TYPE(&f->m->ev[2]), EV_BAD);
	assert_int_equal(f->m->cmd.nstderr, 1);
	assert_true(f->m->cmd.exited);
	assert_int_equal(f->m->cmd.exit_status, 4);
	assert_int_equal(model_session_state(f->m, 0), SS_FAILED);
	last = last_line(f->path);
	assert_non_null(strstr(last, "\"subtype\":\"exit\""));
	assert_non_null(strstr(last, "\"exit_status\":4,\"signal\":null}"));
	free(last);
	fx_free(f);
}

/* Output that has ended is not waited for. */
static void
test_no_drain_when_closed(void **state)
{
	struct fx *f = fx_new();

	(void)state;
	assert_int_equal(write(f->out[1], "{\"type\":\"user\"}\n", 16), 16);
	close(f->out[1]);
	close(f->err[1]);
	f->out[1] = open("/dev/null", O_WRONLY);
	f->err[1] = open("/dev/null", O_WRONLY);
	input_pump(&f->in, 0);
	assert_true(runner_check(&f->r));
	assert_int_equal(f->m->cmd.exit_status, 4);
	fx_free(f);
}

/* "printed no JSON", "printed nothing", or nothing to say. */
static void
test_no_json(void **state)
{
	static const char text[] = "Hello\n\x1b]0;t\a\n";
	struct fx *f = fx_new();
	struct buf msg = {0};

	(void)state;
	input_pump(&f->in, 0);
	assert_true(runner_no_json(&f->r, &msg));
	assert_string_equal(msg.p, "agent printed nothing on its standard output");
	assert_int_equal(write(f->out[1], text, sizeof text - 1), (ssize_t)sizeof text - 1);
	input_pump(&f->in, 0);
	buf_reset(&msg);
	assert_true(runner_no_json(&f->r, &msg));
	assert_string_equal(msg.p, "agent printed no JSON events (is --output-format "
				   "stream-json missing?)");
	assert_int_equal(write(f->out[1], "{\"type\":\"user\"}\n", 16), 16);
	input_pump(&f->in, 0);
	buf_reset(&msg);
	assert_false(runner_no_json(&f->r, &msg));
	assert_int_equal(msg.n, 0);
	buf_free(&msg);
	fx_free(f);
}

/* A caught signal sets a flag and wakes poll() once. */
static void
test_sig_pipe(void **state)
{
	struct pollfd p;

	(void)state;
	assert_true(sig_watch(SIGUSR1));
	assert_true(sig_fd() >= 0);
	assert_true(fcntl(sig_fd(), F_GETFD) & FD_CLOEXEC);
	assert_false(sig_take(SIGUSR1));
	raise(SIGUSR1);
	raise(SIGUSR1);
	p.fd = sig_fd();
	p.events = POLLIN;
	assert_int_equal(poll(&p, 1, 0), 1);
	sig_drain();
	assert_int_equal(poll(&p, 1, 0), 0);
	assert_true(sig_take(SIGUSR1));
	assert_false(sig_take(SIGUSR1));
	assert_false(sig_take(SIGUSR2));
}

/* Ignored when agentview started (see main): stays ignored, but SIGCHLD,
 * which waiting for children needs. */
static void
test_sig_inherited(void **state)
{
	struct sigaction sa;

	(void)state;
	assert_false(sig_watch(SIGUSR2));
	assert_int_equal(sigaction(SIGUSR2, NULL, &sa), 0);
	assert_true(sa.sa_handler == SIG_IGN);
	assert_true(sig_watch(SIGCHLD));
	assert_int_equal(sigaction(SIGCHLD, NULL, &sa), 0);
	assert_true(sa.sa_handler != SIG_IGN && sa.sa_handler != SIG_DFL);
}

/* What a child gets before exec: handlers gone, inherited SIG_IGN kept,
 * nothing blocked. (Last: it takes this process's handlers away.) */
static void
test_sig_child_reset(void **state)
{
	struct sigaction sa;
	sigset_t set;

	(void)state;
	assert_true(sig_watch(SIGUSR1));
	signal(SIGPIPE, SIG_IGN); /* agentview's own choice, not inherited */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sig_child_reset();
	assert_int_equal(sigaction(SIGUSR1, NULL, &sa), 0);
	assert_true(sa.sa_handler == SIG_DFL);
	assert_int_equal(sigaction(SIGPIPE, NULL, &sa), 0);
	assert_true(sa.sa_handler == SIG_DFL);
	assert_int_equal(sigaction(SIGCHLD, NULL, &sa), 0);
	assert_true(sa.sa_handler == SIG_DFL);
	assert_int_equal(sigaction(SIGUSR2, NULL, &sa), 0);
	assert_true(sa.sa_handler == SIG_IGN);
	sigprocmask(SIG_SETMASK, NULL, &set);
	assert_false(sigismember(&set, SIGTERM));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stdin_usable),  cmocka_unit_test(test_exit_code),
		cmocka_unit_test(test_drain),         cmocka_unit_test(test_no_drain_when_closed),
		cmocka_unit_test(test_no_json),       cmocka_unit_test(test_sig_pipe),
		cmocka_unit_test(test_sig_inherited), cmocka_unit_test(test_sig_child_reset),
	};

	/* As if agentview had been started with SIGUSR2 ignored (nohup). */
	signal(SIGUSR2, SIG_IGN);
	sig_init();
	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
