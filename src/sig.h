/* sig.h: signals as wake-ups of a poll() loop. A handler only sets a flag
 * and writes a byte to a self-pipe whose read end the loop polls; the loop
 * then takes the flags, outside the handler, where anything is allowed.
 * It also remembers the dispositions agentview inherited, so that a child
 * starts with those and not with agentview's own. No curses. */
#ifndef AGENTVIEW_SIG_H
#define AGENTVIEW_SIG_H

#include <stdbool.h>

/* Remember the inherited dispositions. Call first thing in main, before
 * anything installs a handler; later sig_ calls do it if nobody did. It
 * also catches SIGBUS, to say why before dying of it (see sig_bus_say). */
void sig_init(void);
/* A mapped input file (src/source.c) that shrinks under the reader raises
 * SIGBUS at the first page read past its new end: say so on fd. Only
 * async-signal-safe calls. */
void sig_bus_say(int fd);
/* First thing in the handler of a fatal signal, which must not be
 * installed with SA_RESETHAND: the first thread to fault goes on (to
 * restore, say, and die); another one that faults meanwhile (the parser
 * and search threads read the same mapped file) waits there for the end,
 * instead of dying of the default action before the terminal is restored. */
void sig_fatal_first(void);
/* Catch signo from now on. A signal that agentview inherited as ignored
 * (nohup, a background job of a non-interactive shell) stays ignored,
 * except SIGCHLD, without which children cannot be waited for: returns
 * false then. */
bool sig_watch(int signo);
/* The read end of the self-pipe (close-on-exec, non-blocking), to poll for
 * POLLIN; -1 before the first sig_watch. */
int sig_fd(void);
/* Empty the self-pipe once poll says it is readable. */
void sig_drain(void);
/* Whether signo arrived since the last sig_take(signo); clears it. */
bool sig_take(int signo);
/* Put signo back to the disposition agentview inherited (before raising
 * it again to die the way a shell expects). */
void sig_restore(int signo);
/* In a forked child, before exec: every signal back to what agentview
 * inherited (handlers to the default, inherited SIG_IGN kept), and no
 * signal blocked. Only async-signal-safe calls. */
void sig_child_reset(void);

#endif
