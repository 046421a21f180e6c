/* rodb.c: an agent's SQLite file opened for reading only (rodb.h). */
#include "rodb.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

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

/* Whether path is there as a regular file (never through a link), or,
 * with absent_ok, is not there at all. A fifo, a device or a socket in an
 * agent's folder is never opened: an open of a fifo waits for its writer,
 * for ever. */
static bool
plain_file(const char *path, bool absent_ok)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return absent_ok && errno == ENOENT;
	return S_ISREG(st.st_mode);
}

static int
ro_open(sqlite3_vfs *v, const char *name, sqlite3_file *f, int flags, int *out)
{
	sqlite3_vfs *base = v->pAppData;

	/* Nothing is made, so a file not there is not opened either. */
	if (name != NULL && !plain_file(name, false)) {
		f->pMethods = NULL;
		return SQLITE_CANTOPEN;
	}
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

	if (vfs == NULL)
		return NULL;
	/* The shared memory is opened past the VFS's xOpen: looked at here. */
	buf_addf(&wal, "%s-shm", path);
	if (!plain_file(wal.p, true)) {
		buf_free(&wal);
		return NULL;
	}
	buf_reset(&wal);
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
