/* watch.h: folders watched for the files that appear in them, change and
 * go. One inotify watch per folder, which reports its files too, so that
 * a folder of 10,000 sessions costs one watch; where no watch can be had
 * (the user's inotify watch limit, fs.inotify.max_user_watches), the
 * folder is looked at every WATCH_POLL_MS instead, and watch_npolled says
 * how many are, for the status bar. A folder that is removed is looked
 * for every WATCH_POLL_MS until it comes back. Nothing wakes up while
 * nothing happens in watched folders. No curses. */
#ifndef AGENTVIEW_WATCH_H
#define AGENTVIEW_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WATCH_POLL_MS 1000

enum watch_what {
	WATCH_CHANGED,  /* a file was written to, closed, or its mode changed */
	WATCH_NEW,      /* a name appeared: created, or moved in */
	WATCH_GONE,     /* a name went: removed, or moved away */
	WATCH_DIR_GONE, /* the folder itself was removed or moved */
	WATCH_RESCAN,   /* look at every file of the folder: events were lost,
			   it is polled, or it came back */
};

/* What happened to name (NULL for the folder's own events) in folder
 * number dir. */
typedef void (*watch_fn)(void *ctx, int dir, const char *name, enum watch_what what);

struct watch;

struct watch *watch_new(void);
void watch_free(struct watch *w);
/* Watch folder path (kept as given); returns its number, from 0 on. A
 * folder that cannot be watched is polled. */
int watch_add(struct watch *w, const char *path);
/* Whether folder d is polled instead of watched, and how many are. */
bool watch_polled(const struct watch *w, int d);
size_t watch_npolled(const struct watch *w);
/* Whether folder d is gone (removed, and not back yet). */
bool watch_gone(const struct watch *w, int d);
/* The descriptor to poll for events, or -1 when there is none. */
int watch_fd(const struct watch *w);
/* Milliseconds from now_ms until the next look at a polled or removed
 * folder; -1 when none is due ever. */
int watch_timeout(const struct watch *w, int64_t now_ms);
/* Read what happened and make the looks that are due at now_ms, calling
 * fn for each. */
void watch_read(struct watch *w, int64_t now_ms, watch_fn fn, void *ctx);
/* For tests: at most n watches, as if the watch limit were reached after
 * n (-1: no limit of agentview's own). AGENTVIEW_WATCH_MAX=n in the
 * environment says the same to watch_new. */
void watch_set_max(struct watch *w, int n);

#endif
