/* source.h: where bytes come from, and the one line reader. A source is a
 * regular file mapped into memory, or a stream (pipe, terminal, a child's
 * output, a followed file) read into an append-only buffer. Either way its
 * bytes stay addressable by offset for the life of the source, which is what
 * lets the model keep offsets instead of copies. */
#ifndef AGENTVIEW_SOURCE_H
#define AGENTVIEW_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

enum source_kind {
	SOURCE_MAPPED, /* a regular file, mapped whole, read once */
	SOURCE_STREAM, /* read(2) into a buffer that grows */
	SOURCE_OVER,   /* bytes its caller keeps (source_open_over) */
};

/* What source_refresh found out about a followed file. */
enum source_change {
	SOURCE_SAME,      /* nothing new */
	SOURCE_GREW,      /* more bytes to read */
	SOURCE_TRUNCATED, /* shorter than what was read: start again */
	SOURCE_REPLACED,  /* the path names another file now: start again */
	SOURCE_GONE,      /* the path was removed; still reading the old file */
};

struct source {
	char *name; /* as given by the user ("-" for stdin); owned */
	char *path; /* file to follow, or NULL; owned */
	int fd;     /* -1 once closed */
	enum source_kind kind;
	char *data; /* bytes [0, size); owned (mapping or buffer), but
		       SOURCE_OVER's */
	size_t size;
	size_t cap;      /* buffer capacity, or mapping length */
	size_t scan;     /* first byte not yet handed out in a line */
	size_t nl_base;  /* scan when a search for '\n' last failed, */
	size_t nl_at;    /* and where it stopped: none in [nl_base, nl_at) */
	uint64_t lineno; /* lines handed out so far */
	bool eof;        /* no more bytes until source_refresh says so */
	bool follow;     /* keep reading at end of file */
	bool copied;     /* SOURCE_MAPPED read into memory (source_open_copy) */
	dev_t dev;       /* identity of the followed file */
	ino_t ino;
};

/* One line: bytes [off, off + len) of the source, without the '\n'. */
struct line {
	size_t off;
	size_t len;
	uint64_t no;     /* 1-based line number */
	bool terminated; /* false only for a last line that had no '\n' */
};

/* Open a file by path. A regular file is mapped (or, when following,
 * streamed); anything else (a FIFO, /dev/stdin) is streamed. On failure
 * returns -1 and writes the reason to err. */
int source_open_path(struct source *s, const char *path, bool follow, struct buf *err);
/* The same, but a regular file of at most SOURCE_COPY_MAX bytes is read
 * into memory, not mapped: one cut short while it is shown (an agent's
 * store, rewritten by its CLI or by anyone) leaves what was read, where a
 * mapping dies of SIGBUS. A larger one is mapped still. */
int source_open_copy(struct source *s, const char *path, bool follow, struct buf *err);
#define SOURCE_COPY_MAX (256u << 20)
/* Either of those (copy: source_open_copy's) for a file an agent's own
 * files name (a sub-agent's): opened only when it is a regular file, not
 * through a link, told by what was opened (nothing swapped in after a
 * look is opened). */
int source_open_plain(struct source *s, const char *path, bool follow, bool copy, struct buf *err);
/* Read from an open descriptor (stdin, a pipe); takes ownership of fd. */
void source_open_fd(struct source *s, int fd, const char *name);
/* Open from memory (for tests): a copy of n bytes, already at end. */
void source_open_mem(struct source *s, const char *name, const void *p, size_t n);
/* Open over p[0..n), which the caller owns and keeps while the lines are
 * read (no copy; closing frees none of it), already at end; source_over
 * turns it to other bytes, read from their start (the session list reads
 * each piece of a file so). */
void source_open_over(struct source *s, const char *name, char *p, size_t n);
void source_over(struct source *s, char *p, size_t n);
void source_close(struct source *s);

/* Read what the descriptor has, appending to the buffer. Returns the number
 * of bytes added; 0 at end of input (eof is set; a followed file stays
 * open); -1 when nothing is available now (EAGAIN) or on a read error
 * (errno is set, and eof too unless it is EAGAIN/EINTR). */
ssize_t source_read(struct source *s);

/* Hand out the next complete line. At end of input (eof set), an
 * unterminated rest is handed out as a last line. Returns false when no
 * complete line is available yet. */
bool source_next_line(struct source *s, struct line *ln);

/* For a followed file at end of input: look at the file again. */
enum source_change source_refresh(struct source *s);

/* Start a followed file again from its beginning (after truncation or
 * replacement): reopen by path if needed, drop what was read. */
int source_restart(struct source *s, struct buf *err);

/* The bytes at offset off (valid until the next source_read). */
static inline const char *
source_at(const struct source *s, size_t off)
{
	return s->data + off;
}

#endif
