/* rodb.h: an agent's SQLite file opened for reading only. Even opened
 * read-only, SQLite makes a write-ahead database's -wal and -shm when they
 * are not there (seen with 3.40) and rebuilds a -shm its last writer
 * left: in a folder that is the agent's. Here every file is opened
 * through a VFS that never creates, writes or removes one; with its log
 * there (its writer has it open) the shared memory is opened read-only
 * too, and without, the file alone is read as it is, with no lock. Only
 * regular files are opened, never through a link (the links on the way
 * to the file are followed): a fifo or a device put where the file, its
 * -wal or its -shm would be makes the open fail, at once (an open of a
 * fifo would wait for its writer for ever), told by what was opened, not
 * by a look before that something could be swapped in after. What the
 * file says is hostile too: the work an opening's queries may do is
 * bounded (rodb.c), past it a step fails with SQLITE_INTERRUPT, and so is
 * the length of a value read (SQLITE_TOOBIG). */
#ifndef AGENTVIEW_RODB_H
#define AGENTVIEW_RODB_H

#include <sqlite3.h>

/* The database at path, or NULL (it cannot be opened, or the VFS cannot
 * be made). A writer's lock is waited for a little (50 ms), then given
 * up: the caller does without. Closed with sqlite3_close. */
sqlite3 *rodb_open(const char *path);

#endif
