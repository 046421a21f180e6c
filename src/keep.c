/* keep.c: the folder of kept sessions: where it is, a new file in it, and
 * the removal of old ones. */
#include "keep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Bytes of a file's start read to know whether it is a kept recording. */
#define HEAD_BYTES 4096

bool
keep_dir(struct buf *out)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");

	/* The XDG spec: a relative XDG_STATE_HOME is invalid, ignored. */
	if (state != NULL && state[0] == '/') {
		buf_addf(out, "%s/agentview/sessions", state);
		return true;
	}
	if (home != NULL && home[0] != '\0') {
		buf_addf(out, "%s/.local/state/agentview/sessions", home);
		return true;
	}
	buf_adds(out, "neither XDG_STATE_HOME nor HOME is set");
	return false;
}

bool
keep_wanted(void)
{
	const char *v = getenv("AGENTVIEW_RECORD");

	return v == NULL || !(strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0 ||
			      strcasecmp(v, "off") == 0 || strcasecmp(v, "false") == 0);
}

double
keep_days(double days)
{
	const char *v = getenv("AGENTVIEW_KEEP_DAYS");
	char *end;
	double d;

	if (days >= 0)
		return days;
	if (v != NULL && v[0] != '\0') {
		d = strtod(v, &end);
		if (*end == '\0' && d >= 0 && d < 1e6)
			return d;
	}
	return KEEP_DAYS_DEFAULT;
}

/* mkdir -p with mode 0700 for what it makes (XDG's base directories are
 * 0700 too). */
static int
make_dirs(const char *path, struct buf *err)
{
	char *p = xstrdup(path);
	int rc = 0;

	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST) {
			buf_addf(err, "cannot make %s: %s", p, strerror(errno));
			rc = -1;
			break;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

int
keep_make_dir(const char *dir, struct buf *err)
{
	return make_dirs(dir, err);
}

int
keep_open(struct recorder *r, char *const *argv, int64_t now_ms, struct buf *err)
{
	struct buf dir = {0}, path = {0};
	time_t t = (time_t)(now_ms / 1000);
	struct tm tm;
	char stamp[32];
	int fd = -1;

	if (!keep_dir(&dir)) {
		buf_add(err, dir.p, dir.n);
		buf_free(&dir);
		return -1;
	}
	if (make_dirs(dir.p, err) != 0) {
		buf_free(&dir);
		return -1;
	}
	localtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	/* Two runs of one process in a second (tests): a number more. */
	for (int i = 0; fd < 0 && i < 100; i++) {
		buf_reset(&path);
		buf_addf(&path, "%s/%s-p%ld", dir.p, stamp, (long)getpid());
		if (i > 0)
			buf_addf(&path, "_%d", i);
		buf_adds(&path, ".ndjson");
		fd = open(path.p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0)
		buf_addf(err, "cannot keep the session in %s: %s", dir.p, strerror(errno));
	else
		record_open_kept(r, fd, path.p, argv);
	buf_free(&dir);
	buf_free(&path);
	return fd < 0 ? -1 : 0;
}

/* Whether the file name ends in .ndjson. */
static bool
is_ndjson(const char *name)
{
	size_t n = strlen(name);

	return n > 7 && strcmp(name + n - 7, ".ndjson") == 0;
}

/* Remove dir/name when it is an old kept recording nobody writes. */
static bool
prune_one(int dfd, const char *name, int64_t before_ms)
{
	char head[HEAD_BYTES];
	struct stat st;
	bool kept = false, gone = false;
	ssize_t n;
	int fd;

	if (!is_ndjson(name))
		return false;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == getuid() &&
	    (int64_t)st.st_mtim.tv_sec * 1000 < before_ms &&
	    (n = pread(fd, head, sizeof head, 0)) > 0 && record_starts(head, (size_t)n, &kept) &&
	    kept && flock(fd, LOCK_EX | LOCK_NB) == 0)
		gone = unlinkat(dfd, name, 0) == 0;
	close(fd);
	return gone;
}

int
keep_prune(const char *dir, double days, int64_t now_ms)
{
	int64_t before = now_ms - (int64_t)(days * 86400000.0);
	struct dirent *d;
	DIR *dp;
	int n = 0;

	if (days <= 0 || (dp = opendir(dir)) == NULL)
		return 0;
	while ((d = readdir(dp)) != NULL)
		if (d->d_type == DT_REG || d->d_type == DT_UNKNOWN)
			n += prune_one(dirfd(dp), d->d_name, before);
	closedir(dp);
	return n;
}
