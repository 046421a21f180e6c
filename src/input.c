/* input.c: sources into the model, in order, live, or followed. */
#include "input.h"

#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "agent.h"

void
input_init(struct input *in, struct model *m, bool follow)
{
	memset(in, 0, sizeof *in);
	in->m = m;
	in->follow = follow;
	in->inotify = -1;
	for (size_t i = 0; i < INPUT_MAX; i++)
		in->wd[i] = in->dwd[i] = -1;
}

void
input_on_line(struct input *in, input_line_fn fn, void *ctx)
{
	in->on_line = fn;
	in->ctx = fn != NULL ? ctx : NULL;
}

void
input_free(struct input *in)
{
	for (size_t i = 0; i < in->n; i++) {
		/* The model may be reading the bytes on another thread. */
		model_release_source(in->m, in->msrc[i]);
		source_close(&in->src[i]);
	}
	if (in->inotify >= 0)
		close(in->inotify);
	buf_free(&in->note);
	in->n = 0;
}

/* Watch a followed file and its directory (to see it replaced). */
static void
input_watch(struct input *in, size_t i)
{
	char dir[PATH_MAX];

	if (in->inotify < 0) {
		in->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		if (in->inotify < 0)
			return;
	}
	if (in->wd[i] >= 0)
		inotify_rm_watch(in->inotify, in->wd[i]);
	in->wd[i] = inotify_add_watch(in->inotify, in->src[i].path,
				      IN_MODIFY | IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF |
					      IN_CLOSE_WRITE);
	if (in->dwd[i] < 0) {
		snprintf(dir, sizeof dir, "%s", in->src[i].path);
		in->dwd[i] = inotify_add_watch(in->inotify, dirname(dir), IN_CREATE | IN_MOVED_TO);
	}
}

static unsigned
input_register(struct input *in)
{
	size_t i = in->n++;

	in->msrc[i] = model_add_source(in->m, &in->src[i]);
	/* Read as it comes: a pipe, not a file, nor bytes all there already
	 * (agent_source_rows'). */
	in->live[i] = in->src[i].kind == SOURCE_STREAM && !in->src[i].follow && in->src[i].fd >= 0;
	/* Its session's time counts from now, as its recording's header
	 * says it (the same, so that it reads back as long). */
	if (in->live[i])
		model_stream_opened(in->m, in->msrc[i],
				    in->rec != NULL ? in->rec->start_ms : clock_wall_ms());
	if (in->src[i].follow)
		input_watch(in, i);
	return (unsigned)i;
}

/* Where the files that hold more of a session go: the input, and the
 * model's source of that session. */
struct more {
	struct input *in;
	unsigned of;
};

/* The file at path opened as the next source. */
static int
open_file(struct input *in, const char *path, struct buf *err)
{
	return (in->copy ? source_open_copy : source_open_path)(&in->src[in->n], path, in->follow,
								err);
}

/* A file that holds more of a session (a sub-agent's, agent_more): a
 * source of its own, its lines on that session. One that cannot be read
 * is left out. */
static void
input_add_more(void *ctx, const char *path, const char *call)
{
	struct more *mo = ctx;
	struct input *in = mo->in;
	struct buf err = {0};

	if (in->n < INPUT_MAX &&
	    source_open_plain(&in->src[in->n], path, in->follow, in->copy, &err) == 0)
		model_set_parent(in->m, in->msrc[input_register(in)], mo->of, call);
	buf_free(&err);
}

int
input_add_path(struct input *in, const char *path, struct buf *err)
{
	unsigned i;

	if (in->n >= INPUT_MAX) {
		buf_addf(err, "too many inputs (at most %d)", INPUT_MAX);
		return -1;
	}
	if (strcmp(path, "-") == 0) {
		source_open_fd(&in->src[in->n], dup(0), "-");
		input_register(in);
		return 0;
	}
	if (open_file(in, path, err) != 0)
		return -1;
	agent_source_rows(&in->src[in->n], path);
	i = input_register(in);
	/* The files of its sub-agents, each after it. */
	agent_more(-1, path, input_add_more, &(struct more){in, in->msrc[i]});
	return 0;
}

unsigned
input_add_fd(struct input *in, int fd, const char *name)
{
	if (in->n >= INPUT_MAX)
		die("too many inputs");
	source_open_fd(&in->src[in->n], fd, name);
	return input_register(in);
}

void
input_set_stderr(struct input *in, unsigned i, unsigned of)
{
	in->err[i] = true;
	model_set_stderr(in->m, in->msrc[i], in->msrc[of]);
}

void
input_close(struct input *in, unsigned i)
{
	struct source *s = &in->src[i];

	if (s->kind != SOURCE_STREAM || s->fd < 0)
		return;
	close(s->fd);
	s->fd = -1;
	s->eof = true;
}

/* Whether source i is being read now: files are read one after another,
 * unless following, where all are read at once. A command's stderr is read
 * alongside its stdout, or a full stderr pipe would block the command. */
static bool
input_active(const struct input *in, size_t i)
{
	if (in->follow || in->err[i])
		return true;
	for (size_t k = 0; k < i; k++)
		if (!in->ended[k])
			return false;
	return true;
}

/* Read everything again from the start: a followed file was truncated or
 * replaced, and offsets into the old bytes mean nothing now. */
static void
input_restart(struct input *in, size_t which, enum source_change why)
{
	struct buf err = {0};

	buf_reset(&in->note);
	buf_addf(&in->note, "%s was %s: read again from the start", in->src[which].name,
		 why == SOURCE_TRUNCATED ? "truncated" : "replaced");
	if (source_restart(&in->src[which], &err) != 0) {
		buf_reset(&in->note);
		buf_add(&in->note, err.p, err.n);
	}
	in->notes++;
	in->gone[which] = false;
	buf_free(&err);
	if (in->src[which].follow)
		input_watch(in, which);
	model_clear(in->m);
	for (size_t i = 0; i < in->n; i++) {
		in->src[i].scan = 0;
		in->src[i].lineno = 0;
		in->ended[i] = false;
	}
	in->restarts++;
	in->changes++;
}

/* Drain inotify events; look again at every followed file. */
static void
input_check_follow(struct input *in)
{
	char evbuf[4096];

	if (in->inotify >= 0)
		while (read(in->inotify, evbuf, sizeof evbuf) > 0)
			;
	for (size_t i = 0; i < in->n; i++) {
		enum source_change ch;

		if (!in->src[i].follow)
			continue;
		ch = source_refresh(&in->src[i]);
		if (ch == SOURCE_TRUNCATED || ch == SOURCE_REPLACED) {
			input_restart(in, i, ch);
			return;
		}
		if (ch == SOURCE_GREW)
			in->src[i].eof = false;
		/* Said once: tail -F goes on with the old file too, and a new
		 * file at the path comes as SOURCE_REPLACED. */
		if (ch == SOURCE_GONE && !in->gone[i]) {
			in->gone[i] = true;
			buf_reset(&in->note);
			buf_addf(&in->note, "%s was removed: waiting for it to come back",
				 in->src[i].name);
			in->notes++;
		}
	}
}

/* Hand out the lines of source i, up to budget bytes (0: all). Returns
 * true if it stopped because of the budget. */
static bool
input_lines(struct input *in, size_t i, size_t budget, size_t *used)
{
	struct source *s = &in->src[i];
	struct line ln;
	int64_t now = in->live[i] ? clock_wall_ms() : TIME_NONE;
	/* Piped stdin that is a redirected file is read at once, but it is
	 * what --record was asked to keep: it arrives now. */
	int64_t rec_ms = in->rec == NULL || now != TIME_NONE ? now : clock_wall_ms();

	while (source_next_line(s, &ln)) {
		uint32_t ev;

		if (in->rec != NULL && in->err[i])
			record_stderr(in->rec, source_at(s, ln.off), ln.len, rec_ms);
		else if (in->rec != NULL)
			record_line(in->rec, source_at(s, ln.off), ln.len, ln.terminated, rec_ms);
		ev = model_add_line(in->m, in->msrc[i], &ln, now);
		in->changes++;
		if (in->on_line != NULL)
			in->on_line(in->ctx, s, &ln, ev);
		*used += ln.len + 1;
		if (budget != 0 && *used >= budget)
			return true;
	}
	return false;
}

/* Source i ended: when, for the model when it was read live, and for the
 * recording (a command's stderr is not the stream). */
static void
input_closed(struct input *in, size_t i)
{
	int64_t now;

	if (in->err[i])
		return;
	now = clock_wall_ms();
	if (in->live[i])
		model_stream_closed(in->m, in->msrc[i], now);
	if (in->rec != NULL)
		record_end(in->rec, now);
}

/* Whether a read of fd would not block. */
static bool
readable(int fd)
{
	struct pollfd p = {fd, POLLIN, 0};

	while (poll(&p, 1, 0) < 0)
		if (errno != EINTR)
			return true; /* let read report the error */
	return p.revents != 0;
}

bool
input_pump(struct input *in, size_t budget)
{
	size_t used = 0;

	if (in->follow)
		input_check_follow(in);
	for (size_t i = 0; i < in->n; i++) {
		struct source *s = &in->src[i];

		if (in->ended[i] || !input_active(in, i))
			continue;
		if (input_lines(in, i, budget, &used))
			return true;
		if (s->kind == SOURCE_STREAM && s->fd >= 0) {
			ssize_t r = 0;

			/* Descriptors stay blocking (stdin is shared with
			 * the shell): read only what poll says is there. */
			while (readable(s->fd) && (r = source_read(s)) > 0) {
				if (input_lines(in, i, budget, &used))
					return true;
			}
			if (!s->eof)
				continue; /* nothing more for now */
		}
		if (s->eof) {
			if (s->follow) {
				/* At the end of a followed file: from now on
				 * lines arrive live. */
				in->live[i] = true;
				continue;
			}
			input_lines(in, i, 0, &used);
			input_closed(in, i);
			in->ended[i] = true;
			in->changes++;
			model_end_source(in->m, in->msrc[i]);
		}
	}
	return false;
}

int
input_pollfds(struct input *in, struct pollfd *fds, int max)
{
	int n = 0;

	for (size_t i = 0; i < in->n && n < max; i++) {
		const struct source *s = &in->src[i];

		if (in->ended[i] || s->fd < 0 || s->follow || !input_active(in, i))
			continue;
		fds[n].fd = s->fd;
		fds[n].events = POLLIN;
		fds[n].revents = 0;
		n++;
	}
	if (in->inotify >= 0 && n < max) {
		fds[n].fd = in->inotify;
		fds[n].events = POLLIN;
		fds[n].revents = 0;
		n++;
	}
	return n;
}

bool
input_done(const struct input *in)
{
	for (size_t i = 0; i < in->n; i++)
		if (!in->ended[i])
			return false;
	return true;
}

bool
input_grows(const struct input *in)
{
	if (in->follow)
		return true;
	for (size_t i = 0; i < in->n; i++)
		if (in->src[i].kind == SOURCE_STREAM && !in->ended[i])
			return true;
	return false;
}

void
input_progress(const struct input *in, uint64_t *done, uint64_t *total)
{
	*done = *total = 0;
	for (size_t i = 0; i < in->n; i++) {
		*done += in->src[i].scan;
		*total += in->src[i].size;
	}
}
