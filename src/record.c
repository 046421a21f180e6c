/* record.c: writing recordings, and getting the original stream back. */
#define _GNU_SOURCE /* renameat2 */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "glyph.h"
#include "json.h"
#include "text.h"

#define WRAP_PREFIX "{\"type\":\"agentview\","
#define STAMP_KEY ",\"agentview_ms\":"

/* Write all of b, or remember why not. */
static void
record_write(struct recorder *r, const struct buf *b)
{
	size_t done = 0;

	if (r->fd < 0 || r->err != 0)
		return;
	while (done < b->n) {
		ssize_t w = write(r->fd, b->p + done, b->n - done);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			r->err = errno;
			/* Take back the part of the line that made it (a full
			 * disk often takes some): the recording keeps whole
			 * lines, every one of them readable. */
			if (done > 0)
				(void)ftruncate(r->fd, (off_t)r->size);
			return;
		}
		done += (size_t)w;
	}
	r->lines++;
	r->size += b->n;
}

/* Say that a writer is alive: an exclusive flock for as long as the file
 * is open. Whoever tests it (the list, the removal of old kept files)
 * holds it for a moment only, so a few tries get it; a file someone else
 * records to already is recorded to all the same, unlocked. */
static void
record_lock(int fd)
{
	struct timespec ms = {0, 1000000};

	for (int i = 0; i < 50; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK)
			return;
		nanosleep(&ms, NULL);
	}
}

/* Start recording on fd, open on path: the lock and the header. */
static void
record_begin(struct recorder *r, int fd, const char *path, char *const *argv, bool kept)
{
	memset(r, 0, sizeof *r);
	r->fd = fd;
	r->start_ms = clock_wall_ms();
	record_lock(fd);
	r->path = xstrdup(path);
	r->json = json_new();
	buf_addf(&r->line,
		 WRAP_PREFIX "\"subtype\":\"recording\",\"version\":1%s" STAMP_KEY
			     "%lld,\"source\":\"%s\"",
		 kept ? ",\"kept\":true" : "", (long long)r->start_ms, argv ? "command" : "stdin");
	if (argv != NULL) {
		buf_adds(&r->line, ",\"argv\":[");
		for (char *const *a = argv; *a != NULL; a++) {
			if (a != argv)
				buf_addc(&r->line, ',');
			json_quote(&r->line, *a, strlen(*a));
		}
		buf_addc(&r->line, ']');
	}
	buf_adds(&r->line, "}\n");
	/* A full disk is a write error like any later one: r->err says so and
	 * the caller shows it, but the session being watched goes on. */
	record_write(r, &r->line);
}

int
record_open(struct recorder *r, const char *path, char *const *argv, struct buf *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0) {
		memset(r, 0, sizeof *r);
		r->fd = -1;
		buf_addf(err, "cannot record to %s: %s", path, strerror(errno));
		return -1;
	}
	record_begin(r, fd, path, argv, false);
	return 0;
}

void
record_open_kept(struct recorder *r, int fd, const char *path, char *const *argv)
{
	const char *dash = strrchr(path, '-');

	record_begin(r, fd, path, argv, true);
	r->kept = true;
	if (dash != NULL)
		r->stem = xstrndup(path, (size_t)(dash - path));
}

/* The first 8 characters of a session id that are safe in a file name
 * (letters, digits, '_' and '-'), into out. */
static void
name_part(struct buf *out, const char *id, size_t n)
{
	for (size_t i = 0; i < n && out->n < 8; i++) {
		char c = id[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '_' || c == '-')
			buf_addc(out, c);
	}
}

/* Rename from to to, never over a file that is there (EEXIST then):
 * renameat2's RENAME_NOREPLACE, or link and unlink where the file system
 * has no such rename. A rename, not a link, where it can: inotify names
 * the writes of the open file by the name it was opened with, which an
 * unlink leaves to the dead name, while a rename moves it along, so that
 * the session list that watches the folder sees them. */
static int
record_rename(const char *from, const char *to)
{
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	if (link(from, to) != 0)
		return -1;
	unlink(from);
	return 0;
}

/* A kept recording takes its session's id into its name at the first line
 * that starts a session: <stem>-<id>.ndjson, never over another file.
 * Tried once: a stream whose first session names no id keeps its first
 * name. */
static void
record_name(struct recorder *r, const char *p, size_t n)
{
	struct buf id = {0}, part = {0}, to = {0};
	const char *path;
	int a, t;

	if (!agent_marked(p, n))
		return;
	if (json_parse(r->json, p, n) != JSON_OK || (a = agent_line_starts(r->json)) < 0)
		return;
	path = agent_get((unsigned)a)->fact[FACT_ID];
	if (path != NULL && (t = json_path(r->json, 0, path)) >= 0)
		json_decode(r->json, t, &id);
	name_part(&part, id.p, id.n);
	for (int i = 1; part.n > 0 && i < 10; i++) {
		buf_reset(&to);
		buf_addf(&to, "%s-%s", r->stem, part.p);
		if (i > 1)
			buf_addf(&to, "-%d", i);
		buf_adds(&to, ".ndjson");
		if (record_rename(r->path, to.p) == 0) {
			free(r->path);
			r->path = xstrdup(to.p);
			break;
		}
		if (errno != EEXIST)
			break;
	}
	free(r->stem);
	r->stem = NULL;
	buf_free(&id);
	buf_free(&part);
	buf_free(&to);
}

/* True if s[0..n) is valid UTF-8. */
static bool
utf8_valid(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		uint32_t cp;
		size_t k;

		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		k = utf8_decode(s + i, n - i, &cp);
		/* U+FFFD in the input is three bytes long; a decoding error
		 * is not. */
		if (cp == 0xFFFD && !(k == 3 && memcmp(s + i, GLYPH_REPLACEMENT, 3) == 0))
			return false;
		i += k;
	}
	return true;
}

/* The byte offset of the suffix ,"agentview_ms":digits before the final
 * brace of s[0..n), or n when the line carries no stamp. */
static size_t
stamp_at(const char *s, size_t n, size_t *brace)
{
	size_t end = n, d;

	while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\r'))
		end--;
	if (end == 0 || s[end - 1] != '}')
		return n;
	*brace = end - 1;
	d = *brace;
	while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
		d--;
	if (d == *brace || d < sizeof STAMP_KEY - 1 ||
	    memcmp(s + d - (sizeof STAMP_KEY - 1), STAMP_KEY, sizeof STAMP_KEY - 1) != 0)
		return n;
	return d - (sizeof STAMP_KEY - 1);
}

/* What every recording starts with, and what its header says when it is
 * a kept one (record_open_kept). */
#define HEADER WRAP_PREFIX "\"subtype\":\"recording\""
#define KEPT "\"kept\":true"

bool
record_starts(const char *p, size_t n, bool *kept)
{
	const char *nl;

	*kept = false;
	if (n < sizeof HEADER - 1 || memcmp(p, HEADER, sizeof HEADER - 1) != 0)
		return false;
	nl = memchr(p, '\n', n);
	*kept = memmem(p, nl != NULL ? (size_t)(nl - p) : n, KEPT, sizeof KEPT - 1) != NULL;
	return true;
}

static bool
is_wrapper(const char *p, size_t n)
{
	return n >= sizeof WRAP_PREFIX - 1 && memcmp(p, WRAP_PREFIX, sizeof WRAP_PREFIX - 1) == 0;
}

/* A recording's end line (a recording read again ends where it ended). */
static bool
is_end(const char *p, size_t n)
{
	static const char end[] = WRAP_PREFIX "\"subtype\":\"end\"";

	return n >= sizeof end - 1 && memcmp(p, end, sizeof end - 1) == 0;
}

/* Append a wrapper line of the given subtype holding p[0..n). */
static void
wrap(struct buf *b, const char *subtype, const char *p, size_t n, bool newline, int64_t ms)
{
	buf_addf(b, WRAP_PREFIX "\"subtype\":\"%s\"" STAMP_KEY "%lld", subtype, (long long)ms);
	if (utf8_valid(p, n)) {
		buf_adds(b, ",\"text\":");
		json_quote(b, p, n);
	} else {
		buf_adds(b, ",\"base64\":\"");
		base64_encode(b, p, n);
		buf_addc(b, '"');
	}
	if (!newline)
		buf_adds(b, ",\"newline\":false");
	buf_adds(b, "}\n");
}

void
record_line(struct recorder *r, const char *p, size_t n, bool terminated, int64_t ms)
{
	size_t brace;

	if (r->fd < 0 || r->err != 0)
		return;
	buf_reset(&r->line);
	r->ended = false;
	if (terminated && (is_wrapper(p, n) || stamp_at(p, n, &brace) < n)) {
		/* Already a recording line: keep it, never nest stamps. */
		r->ended = is_end(p, n);
		buf_add(&r->line, p, n);
		buf_addc(&r->line, '\n');
	} else if (terminated && json_parse(r->json, p, n) == JSON_OK &&
		   json_size(r->json, 0) > 0) {
		size_t len;
		const char *obj = json_raw(r->json, 0, &len);
		size_t close = (size_t)(obj - p) + len - 1;

		buf_add(&r->line, p, close);
		buf_addf(&r->line, STAMP_KEY "%lld", (long long)ms);
		buf_add(&r->line, p + close, n - close);
		buf_addc(&r->line, '\n');
	} else {
		wrap(&r->line, "line", p, n, terminated, ms);
	}
	record_write(r, &r->line);
	if (r->stem != NULL && terminated && r->err == 0)
		record_name(r, p, n);
}

void
record_stderr(struct recorder *r, const char *p, size_t n, int64_t ms)
{
	if (r->fd < 0 || r->err != 0)
		return;
	buf_reset(&r->line);
	wrap(&r->line, "stderr", p, n, true, ms);
	record_write(r, &r->line);
}

void
record_exit(struct recorder *r, bool exited, int status, int signal, int64_t ms)
{
	if (r->fd < 0 || r->err != 0)
		return;
	buf_reset(&r->line);
	buf_addf(&r->line, WRAP_PREFIX "\"subtype\":\"exit\"" STAMP_KEY "%lld", (long long)ms);
	if (exited)
		buf_addf(&r->line, ",\"exit_status\":%d,\"signal\":null}\n", status);
	else
		buf_addf(&r->line, ",\"exit_status\":null,\"signal\":%d}\n", signal);
	record_write(r, &r->line);
}

void
record_end(struct recorder *r, int64_t ms)
{
	if (r->fd < 0 || r->err != 0 || r->lines <= 1 || r->ended)
		return;
	buf_reset(&r->line);
	buf_addf(&r->line, WRAP_PREFIX "\"subtype\":\"end\"" STAMP_KEY "%lld}\n", (long long)ms);
	record_write(r, &r->line);
}

/* A removed file still takes writes, to an inode nobody can open. */
void
record_check(struct recorder *r)
{
	struct stat st;

	if (r->fd < 0 || r->err != 0)
		return;
	if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 0)
		r->err = ENOENT;
}

void
record_close(struct recorder *r)
{
	/* A kept recording that got nothing but its header kept nothing. */
	if (r->kept && r->fd >= 0 && r->lines <= 1 && r->err == 0)
		unlink(r->path);
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->path);
	r->path = NULL;
	free(r->stem);
	r->stem = NULL;
	json_free(r->json);
	r->json = NULL;
	buf_free(&r->line);
}

void
record_raw_line(FILE *out, const char *p, size_t n, bool terminated)
{
	size_t brace, at;

	/* Every line record_line writes ends in '\n': a last line without
	 * one is the stream's own, whatever it looks like. */
	if (!terminated) {
		fwrite(p, 1, n, out);
		return;
	}
	if (is_wrapper(p, n)) {
		struct json *j = json_new();
		struct buf b = {0};
		bool newline = true;
		int t;

		if (json_parse(j, p, n) != JSON_OK) {
			/* Not one of ours after all (record_line keeps such a
			 * line as it was): the stream's own, kept. */
			fwrite(p, 1, n, out);
			fputc('\n', out);
		} else if (json_streq(j, json_get(j, 0, "subtype"), "line")) {
			if ((t = json_get(j, 0, "text")) >= 0) {
				json_decode(j, t, &b);
			} else if ((t = json_get(j, 0, "base64")) >= 0) {
				size_t rn;
				const char *raw = json_raw(j, t, &rn);

				base64_decode(&b, raw, rn);
			}
			json_bool(j, json_get(j, 0, "newline"), &newline);
			if (newline)
				buf_addc(&b, '\n');
			fwrite(b.p ? b.p : "", 1, b.n, out);
		}
		buf_free(&b);
		json_free(j);
		return;
	}
	at = stamp_at(p, n, &brace);
	if (at < n) {
		fwrite(p, 1, at, out);
		fwrite(p + brace, 1, n - brace, out);
	} else {
		fwrite(p, 1, n, out);
	}
	fputc('\n', out);
}
