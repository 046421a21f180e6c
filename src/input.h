/* input.h: drives the sources into the model. Files are read in the order
 * given; streams as their bytes arrive; followed files as they grow (inotify,
 * so nothing wakes up while nothing happens), starting again when one is
 * truncated or replaced. Every line added is passed to a callback (the
 * printer, the screen) and, when asked, to a recorder. */
#ifndef AGENTVIEW_INPUT_H
#define AGENTVIEW_INPUT_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "source.h"
#include "model.h"
#include "record.h"

#define INPUT_MAX MODEL_MAX_SOURCES

/* Called for each line handed to the model (ev is NONE for a blank one). */
typedef void (*input_line_fn)(void *ctx, const struct source *s, const struct line *ln,
			      uint32_t ev);

struct input {
	struct model *m; /* not owned */
	struct source src[INPUT_MAX];
	unsigned msrc[INPUT_MAX]; /* model index of each source */
	bool live[INPUT_MAX];     /* lines get arrival times */
	bool ended[INPUT_MAX];    /* told the model it ended */
	bool err[INPUT_MAX];      /* a command's stderr: read alongside its
				     stdout, recorded as stderr */
	size_t n;
	bool follow;
	bool copy;             /* files read into memory, not mapped
				  (source_open_copy): the list's sessions */
	int inotify;           /* -1 unless following */
	int wd[INPUT_MAX];     /* watch of each followed file */
	int dwd[INPUT_MAX];    /* watch of its directory */
	struct recorder *rec;  /* not owned; may be NULL */
	input_line_fn on_line; /* input_on_line's */
	void *ctx;
	struct buf note;      /* the latest thing worth telling the user
				     ("run.ndjson was truncated: read again") */
	uint64_t notes;       /* times note was set: a change to show */
	bool gone[INPUT_MAX]; /* a followed file's path was removed (said) */
	uint64_t restarts;    /* times the input was read again */
	uint64_t changes;     /* lines handed out, sources ended: what a
				     screen watches to know it must redraw */
};

void input_init(struct input *in, struct model *m, bool follow);
void input_free(struct input *in);
/* Call fn(ctx, ...) for each line handed out from now on (fn NULL: none).
 * ctx must live until the next call: whoever sets it clears it (fn NULL)
 * before ctx goes. */
void input_on_line(struct input *in, input_line_fn fn, void *ctx);
/* Add a file ("-" is stdin). -1 with the reason in err. */
int input_add_path(struct input *in, const char *path, struct buf *err);
/* Add an open descriptor as a stream (a pipe from a child); takes it. */
unsigned input_add_fd(struct input *in, int fd, const char *name);

/* Source i is the stderr of the command whose stdout is source `of`. */
void input_set_stderr(struct input *in, unsigned i, unsigned of);
/* Stop reading source i (a stream): what was read is handed out by the
 * next input_pump, and then it ends. */
void input_close(struct input *in, unsigned i);

/* Read and hand out lines, at most about `budget` bytes of lines (0: no
 * limit). Returns true when more lines are ready without waiting (the
 * caller should draw and call again), false when it must wait for fds. */
bool input_pump(struct input *in, size_t budget);
/* Fill fds with what to poll; returns how many. */
int input_pollfds(struct input *in, struct pollfd *fds, int max);
/* Every source has ended (never true while following). */
bool input_done(const struct input *in);
/* More may come: a file is followed (-f), or a stream (a pipe, a COMMAND)
 * has not ended. A file read without -f never grows. */
bool input_grows(const struct input *in);
/* Bytes read so far and, for mapped files, the total: for progress. */
void input_progress(const struct input *in, uint64_t *done, uint64_t *total);

#endif
