/* rodb.c: an agent's SQLite file opened for reading only (rodb.h). */
#include "rodb.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static sqlite3_vfs ro_vfs;

/* The work one opening may do, in SQLite's virtual machine steps, counted
 * by the thousand: 20 M, some 0.2 s of CPU, ten times what store.c's query
 * takes on a Codex index of 100 000 turns (1.8 M). A hostile file (a view
 * that never ends, a table without the index the query needs, gone over
 * quadratically) is stopped there: SQLITE_INTERRUPT. One budget a thread,
 * set by rodb_open: a thread uses one opening at a time. */
#define STEPS_EVERY 1000
#define STEPS_MAX (20 * 1000)
static _Thread_local unsigned steps_left;
/* The longest value read: what the agents keep there is small (Cursor's
 * meta some hundred bytes, Codex's ids and states less); a hostile one of
 * gigabytes is refused (SQLITE_TOOBIG), not held in memory. */
#define VALUE_MAX (1024 * 1024)

static int
spent(void *ctx)
{
	(void)ctx;
	if (steps_left == 0)
		return 1;
	steps_left--;
	return 0;
}

/* SQLite's own open(2), under the one every file it opens goes through. */
static sqlite3_syscall_ptr sys_open;

/* Every file SQLite opens (the store, its log, its shared memory) opened
 * never through a link and never waiting (O_NONBLOCK: nothing for a
 * regular file), then kept only when what was opened is a regular file or
 * a folder (a /dev node too under /dev/, SQLite's randomness): a fifo, a
 * device or a socket in an agent's folder is refused, told by the
 * descriptor itself, so nothing can be swapped in between a check and the
 * open (an open of a fifo waits for its writer, for ever). */
static int
ro_sys_open(const char *path, int flags, int mode)
{
	int fd = ((int (*)(const char *, int, int))sys_open)(path, flags | O_NOFOLLOW | O_NONBLOCK,
							     mode);
	struct stat st;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ||
				    (S_ISCHR(st.st_mode) && strncmp(path, "/dev/", 5) == 0)))
		return fd;
	close(fd);
	errno = EACCES;
	return -1;
}

/* Whether path itself is a regular file, not a link to one: SQLite
 * resolves the links of a name before it opens it (those on the way, in
 * a home or an agent's folder, are followed; ro_sys_open never sees the
 * last one). Told by what opens, never waiting; SQLite opens the same
 * name a moment later, and what it then finds passes ro_sys_open. */
static bool
plain_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	bool plain;

	if (fd < 0)
		return false;
	plain = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	close(fd);
	return plain;
}

static int
ro_open(sqlite3_vfs *v, const char *name, sqlite3_file *f, int flags, int *out)
{
	sqlite3_vfs *base = v->pAppData;

	flags &= ~(SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_DELETEONCLOSE |
		   SQLITE_OPEN_EXCLUSIVE);
	return base->xOpen(base, name, f, flags | SQLITE_OPEN_READONLY, out);
}

static int
ro_delete(sqlite3_vfs *v, const char *name, int sync)
{
	(void)v;
	(void)name;
	(void)sync;
	return SQLITE_IOERR_DELETE;
}

/* The VFS's name, registered once (not as the default). */
static const char *
ro_vfs_name(void)
{
	sqlite3_vfs *base;

	if (ro_vfs.zName != NULL)
		return ro_vfs.zName;
	if ((base = sqlite3_vfs_find(NULL)) == NULL)
		return NULL;
	/* The open every file goes through (the shared memory is opened
	 * past xOpen): the unix VFS's, which this process uses only here. */
	if (base->iVersion < 3 || base->xGetSystemCall == NULL ||
	    (sys_open = base->xGetSystemCall(base, "open")) == NULL ||
	    base->xSetSystemCall(base, "open", (sqlite3_syscall_ptr)ro_sys_open) != SQLITE_OK)
		return NULL;
	ro_vfs = *base;
	ro_vfs.zName = "agentview-ro";
	ro_vfs.pNext = NULL;
	ro_vfs.pAppData = base;
	ro_vfs.xOpen = ro_open;
	ro_vfs.xDelete = ro_delete;
	if (sqlite3_vfs_register(&ro_vfs, 0) != SQLITE_OK) {
		ro_vfs.zName = NULL;
		return NULL;
	}
	return ro_vfs.zName;
}

sqlite3 *
rodb_open(const char *path)
{
	struct buf uri = {0}, wal = {0};
	const char *vfs = ro_vfs_name();
	sqlite3 *h = NULL;
	struct stat st;

	if (vfs == NULL || !plain_file(path))
		return NULL;
	/* file:PATH, the bytes a URI reserves escaped. */
	buf_adds(&uri, "file:");
	for (const unsigned char *c = (const unsigned char *)path; *c != '\0'; c++)
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr("/._-~", *c) != NULL)
			buf_addc(&uri, (char)*c);
		else
			buf_addf(&uri, "%%%02X", *c);
	buf_addf(&wal, "%s-wal", path);
	buf_adds(&uri, stat(wal.p, &st) == 0 ? "?mode=ro&readonly_shm=1" : "?mode=ro&immutable=1");
	if (sqlite3_open_v2(uri.p, &h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, vfs) != SQLITE_OK) {
		sqlite3_close(h);
		h = NULL;
	} else {
		sqlite3_busy_timeout(h, 50);
		steps_left = STEPS_MAX;
		sqlite3_limit(h, SQLITE_LIMIT_LENGTH, VALUE_MAX);
		sqlite3_progress_handler(h, STEPS_EVERY, spent, NULL);
	}
	buf_free(&uri);
	buf_free(&wal);
	return h;
}
