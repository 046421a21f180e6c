/* source.c: sources (mapped files, streams) and the line reader. */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Smallest free space a stream buffer offers to read(2). */
#define READ_CHUNK (256 * 1024)

static void
source_init(struct source *s, const char *name)
{
	memset(s, 0, sizeof *s);
	s->name = xstrdup(name);
	s->fd = -1;
	s->kind = SOURCE_STREAM;
}

/* Map a regular file whole; an empty file needs no mapping. */
static int
source_map(struct source *s, const struct stat *st, struct buf *err)
{
	void *p;

	s->kind = SOURCE_MAPPED;
	s->size = (size_t)st->st_size;
	s->eof = true;
	if (s->size == 0)
		return 0;
	p = mmap(NULL, s->size, PROT_READ, MAP_PRIVATE, s->fd, 0);
	if (p == MAP_FAILED) {
		buf_addf(err, "%s: cannot map: %s", s->name, strerror(errno));
		return -1;
	}
	(void)madvise(p, s->size, MADV_SEQUENTIAL);
	s->data = p;
	s->cap = s->size;
	return 0;
}

/* Read a regular file of st's size whole into memory, as a mapping
 * would hold it; one that shrinks meanwhile is what was read. */
static int
source_copy(struct source *s, const struct stat *st, struct buf *err)
{
	size_t n = 0, want = (size_t)st->st_size;
	ssize_t got;

	s->kind = SOURCE_MAPPED;
	s->copied = true;
	s->eof = true;
	s->data = xmalloc(want + 1);
	while (n < want &&
	       ((got = read(s->fd, s->data + n, want - n)) > 0 || (got < 0 && errno == EINTR)))
		n += got > 0 ? (size_t)got : 0;
	if (n < want && got < 0) {
		buf_addf(err, "%s: %s", s->name, strerror(errno));
		return -1;
	}
	s->size = n;
	s->cap = want + 1;
	return 0;
}

/* source_open_path's, source_open_copy's (copy: read, not mapped) and
 * source_open_plain's (plain: a regular file, not through a link). */
static int
open_path(struct source *s, const char *path, bool follow, bool copy, bool plain, struct buf *err)
{
	struct stat st;

	source_init(s, path);
	s->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (plain ? O_NOFOLLOW | O_NOCTTY : 0));
	if (s->fd < 0 || fstat(s->fd, &st) != 0) {
		buf_addf(err, "%s: %s", path, strerror(errno));
		source_close(s);
		return -1;
	}
	if (plain && !S_ISREG(st.st_mode)) {
		buf_addf(err, "%s: not a regular file", path);
		source_close(s);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		buf_addf(err, "%s: is a directory", path);
		source_close(s);
		return -1;
	}
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	if (S_ISREG(st.st_mode) && !follow) {
		if ((copy && (uint64_t)st.st_size <= SOURCE_COPY_MAX
			     ? source_copy(s, &st, err)
			     : source_map(s, &st, err)) != 0) {
			source_close(s);
			return -1;
		}
		/* Everything is in memory now: the descriptor is not needed. */
		close(s->fd);
		s->fd = -1;
		return 0;
	}
	/* Streams and followed files are read; a followed file is not mapped
	 * because a truncation under a mapping kills the reader with SIGBUS. */
	s->follow = follow && S_ISREG(st.st_mode);
	if (s->follow)
		s->path = xstrdup(path);
	return 0;
}

int
source_open_path(struct source *s, const char *path, bool follow, struct buf *err)
{
	return open_path(s, path, follow, false, false, err);
}

int
source_open_copy(struct source *s, const char *path, bool follow, struct buf *err)
{
	return open_path(s, path, follow, true, false, err);
}

int
source_open_plain(struct source *s, const char *path, bool follow, bool copy, struct buf *err)
{
	return open_path(s, path, follow, copy, true, err);
}

void
source_open_fd(struct source *s, int fd, const char *name)
{
	struct stat st;
	struct buf err = {0};

	source_init(s, name);
	s->fd = fd;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0 &&
	    source_map(s, &st, &err) == 0) {
		close(fd);
		s->fd = -1;
		buf_free(&err);
		return;
	}
	buf_free(&err);
	s->kind = SOURCE_STREAM;
	s->eof = false;
	s->size = 0;
	s->data = NULL;
	s->cap = 0;
}

void
source_open_mem(struct source *s, const char *name, const void *p, size_t n)
{
	source_init(s, name);
	s->data = xmalloc(n + 1);
	if (n > 0)
		memcpy(s->data, p, n);
	s->size = n;
	s->cap = n + 1;
	s->eof = true;
}

void
source_open_over(struct source *s, const char *name, char *p, size_t n)
{
	source_init(s, name);
	s->kind = SOURCE_OVER;
	source_over(s, p, n);
}

void
source_over(struct source *s, char *p, size_t n)
{
	s->data = p;
	s->size = s->cap = n;
	s->scan = s->nl_base = s->nl_at = 0;
	s->lineno = 0;
	s->eof = true;
}

void
source_close(struct source *s)
{
	if (s->fd >= 0)
		close(s->fd);
	if (s->kind == SOURCE_MAPPED && s->copied) {
		free(s->data);
	} else if (s->kind == SOURCE_MAPPED) {
		if (s->data != NULL)
			munmap(s->data, s->cap);
	} else if (s->kind == SOURCE_STREAM) {
		free(s->data);
	}
	free(s->name);
	free(s->path);
	memset(s, 0, sizeof *s);
	s->fd = -1;
}

ssize_t
source_read(struct source *s)
{
	ssize_t n;

	if (s->fd < 0 || s->kind == SOURCE_MAPPED) {
		s->eof = true;
		return 0;
	}
	if (s->cap - s->size < READ_CHUNK) {
		size_t ncap = s->cap < READ_CHUNK ? 2 * READ_CHUNK : s->cap;

		while (ncap - s->size < READ_CHUNK)
			ncap += ncap / 2;
		s->data = xrealloc(s->data, ncap);
		s->cap = ncap;
	}
	n = read(s->fd, s->data + s->size, s->cap - s->size);
	if (n > 0) {
		s->size += (size_t)n;
		s->eof = false;
		return n;
	}
	if (n == 0) {
		s->eof = true;
		return 0;
	}
	if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
		s->eof = true;
	return -1;
}

bool
source_next_line(struct source *s, struct line *ln)
{
	const char *p, *nl;
	size_t left, from = s->scan;

	if (s->scan >= s->size)
		return false;
	p = s->data + s->scan;
	left = s->size - s->scan;
	/* A line that arrives in pieces is searched only in its new bytes:
	 * from its start each time, a 100 MB line through a pipe took
	 * seconds (quadratic in its length). Whoever moves scan (input.c
	 * starts sources again) makes nl_base differ, so the hint lapses. */
	if (s->nl_base == s->scan && s->nl_at > from && s->nl_at <= s->size)
		from = s->nl_at;
	nl = memchr(s->data + from, '\n', s->size - from);
	if (nl != NULL) {
		ln->off = s->scan;
		ln->len = (size_t)(nl - p);
		ln->terminated = true;
		s->scan += ln->len + 1;
	} else if (s->eof && !s->follow) {
		ln->off = s->scan;
		ln->len = left;
		ln->terminated = false;
		s->scan = s->size;
	} else {
		s->nl_base = s->scan;
		s->nl_at = s->size;
		return false;
	}
	ln->no = ++s->lineno;
	return true;
}

enum source_change
source_refresh(struct source *s)
{
	struct stat fst, pst;

	if (!s->follow || s->fd < 0)
		return SOURCE_SAME;
	if (fstat(s->fd, &fst) != 0)
		return SOURCE_SAME;
	if (stat(s->path, &pst) != 0)
		return (size_t)fst.st_size > s->size ? SOURCE_GREW : SOURCE_GONE;
	if (pst.st_dev != s->dev || pst.st_ino != s->ino) {
		/* Read what the old file still holds before switching. */
		if ((size_t)fst.st_size > s->size)
			return SOURCE_GREW;
		return SOURCE_REPLACED;
	}
	if ((size_t)fst.st_size < s->size)
		return SOURCE_TRUNCATED;
	if ((size_t)fst.st_size > s->size)
		return SOURCE_GREW;
	return SOURCE_SAME;
}

int
source_restart(struct source *s, struct buf *err)
{
	struct stat st;
	int fd;

	fd = open(s->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) != 0) {
		buf_addf(err, "%s: %s", s->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(s->fd);
	s->fd = fd;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->size = 0;
	s->scan = 0;
	s->nl_base = s->nl_at = 0;
	s->lineno = 0;
	s->eof = false;
	return 0;
}
