/* watch.c: inotify over folders, and the poll where it cannot be had. */
#include "watch.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#define NOT_YET INT64_MIN

/* What a folder's watch asks inotify for. */
#define DIR_MASK \
	(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | \
	 IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

enum dir_mode {
	DIR_WATCHED,
	DIR_POLLED, /* no watch to be had: looked at every WATCH_POLL_MS */
	DIR_GONE,   /* removed: looked for every WATCH_POLL_MS */
};

struct wdir {
	char *path; /* owned */
	int wd;     /* inotify's number, or -1 */
	enum dir_mode mode;
	int64_t next_ms; /* the next look, when polled or gone; NOT_YET:
			    set by the next watch_read (the folder was just
			    looked at by whoever added it) */
};

struct watch {
	int fd; /* inotify, or -1 */
	struct wdir *dir;
	size_t ndir, cap;
	int max;  /* watches allowed (tests), or -1 */
	int used; /* watches held */
};

struct watch *
watch_new(void)
{
	struct watch *w = xcalloc(1, sizeof *w);
	const char *max = getenv("AGENTVIEW_WATCH_MAX");

	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	w->max = max != NULL && *max != '\0' ? atoi(max) : -1;
	return w;
}

void
watch_free(struct watch *w)
{
	if (w == NULL)
		return;
	for (size_t i = 0; i < w->ndir; i++)
		free(w->dir[i].path);
	free(w->dir);
	if (w->fd >= 0)
		close(w->fd);
	free(w);
}

void
watch_set_max(struct watch *w, int n)
{
	w->max = n;
}

/* Try to watch folder d; it is polled when no watch can be had, and gone
 * when it is not there. */
static void
watch_try(struct watch *w, struct wdir *d)
{
	struct stat st;

	d->wd = -1;
	if (stat(d->path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		d->mode = DIR_GONE;
		return;
	}
	d->mode = DIR_POLLED;
	if (w->fd < 0 || (w->max >= 0 && w->used >= w->max))
		return;
	d->wd = inotify_add_watch(w->fd, d->path, DIR_MASK);
	if (d->wd >= 0) {
		d->mode = DIR_WATCHED;
		w->used++;
	}
}

int
watch_add(struct watch *w, const char *path)
{
	struct wdir *d;

	ARRAY_RESERVE(w->dir, w->cap, w->ndir + 1);
	d = &w->dir[w->ndir];
	memset(d, 0, sizeof *d);
	d->path = xstrdup(path);
	d->next_ms = NOT_YET;
	watch_try(w, d);
	return (int)w->ndir++;
}

bool
watch_polled(const struct watch *w, int d)
{
	return d >= 0 && (size_t)d < w->ndir && w->dir[d].mode == DIR_POLLED;
}

size_t
watch_npolled(const struct watch *w)
{
	size_t n = 0;

	for (size_t i = 0; i < w->ndir; i++)
		n += w->dir[i].mode == DIR_POLLED;
	return n;
}

bool
watch_gone(const struct watch *w, int d)
{
	return d >= 0 && (size_t)d < w->ndir && w->dir[d].mode == DIR_GONE;
}

int
watch_fd(const struct watch *w)
{
	return w->fd;
}

int
watch_timeout(const struct watch *w, int64_t now_ms)
{
	int64_t best = -1;

	for (size_t i = 0; i < w->ndir; i++) {
		const struct wdir *d = &w->dir[i];
		int64_t t;

		if (d->mode == DIR_WATCHED)
			continue;
		t = d->next_ms == NOT_YET ? WATCH_POLL_MS : MAX(d->next_ms - now_ms, 0);
		if (best < 0 || t < best)
			best = t;
	}
	return best < 0 ? -1 : (int)MIN(best, INT_MAX);
}

/* The folder of inotify's watch wd, or NULL. */
static struct wdir *
dir_of(struct watch *w, int wd, int *num)
{
	for (size_t i = 0; i < w->ndir; i++) {
		if (w->dir[i].mode == DIR_WATCHED && w->dir[i].wd == wd) {
			*num = (int)i;
			return &w->dir[i];
		}
	}
	return NULL;
}

/* Folder d went away: looked for from now on, said once. */
static void
dir_gone(struct watch *w, struct wdir *d, int num, int64_t now_ms, watch_fn fn, void *ctx)
{
	if (d->wd >= 0) {
		inotify_rm_watch(w->fd, d->wd); /* EINVAL once IN_IGNORED */
		d->wd = -1;
		w->used--;
	}
	d->mode = DIR_GONE;
	d->next_ms = now_ms + WATCH_POLL_MS;
	fn(ctx, num, NULL, WATCH_DIR_GONE);
}

/* One inotify event. */
static void
watch_event(struct watch *w, const struct inotify_event *ev, int64_t now_ms, watch_fn fn, void *ctx)
{
	const char *name = ev->len > 0 ? ev->name : NULL;
	struct wdir *d;
	int num;

	if (ev->mask & IN_Q_OVERFLOW) {
		for (size_t i = 0; i < w->ndir; i++)
			if (w->dir[i].mode == DIR_WATCHED)
				fn(ctx, (int)i, NULL, WATCH_RESCAN);
		return;
	}
	if ((d = dir_of(w, ev->wd, &num)) == NULL)
		return;
	if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT)) {
		if (ev->mask & IN_IGNORED) { /* the kernel dropped it already */
			d->wd = -1;
			w->used--;
		}
		dir_gone(w, d, num, now_ms, fn, ctx);
	} else if (name == NULL) {
		return;
	} else if (ev->mask & (IN_CREATE | IN_MOVED_TO)) {
		fn(ctx, num, name, WATCH_NEW);
	} else if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
		fn(ctx, num, name, WATCH_GONE);
	} else if (ev->mask & (IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB)) {
		fn(ctx, num, name, WATCH_CHANGED);
	}
}

/* Drain inotify. */
static void
watch_drain(struct watch *w, int64_t now_ms, watch_fn fn, void *ctx)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	if (w->fd < 0)
		return;
	while ((n = read(w->fd, buf, sizeof buf)) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const void *)p;

			watch_event(w, ev, now_ms, fn, ctx);
			p += sizeof *ev + ev->len;
		}
	}
}

void
watch_read(struct watch *w, int64_t now_ms, watch_fn fn, void *ctx)
{
	watch_drain(w, now_ms, fn, ctx);
	for (size_t i = 0; i < w->ndir; i++) {
		struct wdir *d = &w->dir[i];
		enum dir_mode was = d->mode;

		if (d->mode == DIR_WATCHED)
			continue;
		if (d->next_ms == NOT_YET) {
			d->next_ms = now_ms + WATCH_POLL_MS;
			continue;
		}
		if (d->next_ms > now_ms)
			continue;
		/* A watch may be free by now; a removed folder may be back. */
		watch_try(w, d);
		d->next_ms = now_ms + WATCH_POLL_MS;
		if (d->mode != DIR_GONE || was != DIR_GONE)
			fn(ctx, (int)i, NULL, WATCH_RESCAN);
	}
}
