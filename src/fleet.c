/* fleet.c: the folders and files listed, what happens to them, and the
 * updates that read it into rows (fleet_read.c reads a file). */
#define _GNU_SOURCE /* qsort_r */
#include "fleet_impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "record.h"
#include "remote.h"

struct fleet *
fleet_new(unsigned flags, int agent)
{
	struct fleet *f = xcalloc(1, sizeof *f);

	f->flags = flags;
	f->agent = agent;
	f->w = watch_new();
	f->m = model_new();
	/* Pieces are small: no parser thread. */
	f->m->ahead_min = SIZE_MAX;
	source_open_over(&f->src, "piece", NULL, 0);
	model_add_source(f->m, &f->src);
	f->j = json_new();
	return f;
}

void
fleet_free(struct fleet *f)
{
	if (f == NULL)
		return;
	for (size_t i = 0; i < f->ndir; i++) {
		free(f->dir[i].path);
		free(f->dir[i].pattern);
	}
	for (size_t i = 0; i < f->nfile; i++) {
		free(f->file[i].path);
		free(f->file[i].more_read);
	}
	for (size_t i = 0; i < f->nplace; i++)
		free(f->place[i].path);
	free(f->place);
	free(f->dir);
	free(f->file);
	free(f->map.key);
	free(f->map.file);
	free(f->row);
	free(f->told);
	free(f->touched);
	free(f->changed);
	free(f->queue);
	free(f->live);
	free(f->more);
	watch_free(f->w);
	store_live_free(f->sl);
	fleet_gap_free(f);
	model_free(f->m);
	source_close(&f->src); /* its bytes are f->chunk's, not its own */
	json_free(f->j);
	tool_desc_free(&f->td);
	buf_free(&f->chunk);
	buf_free(&f->tmp);
	free(f);
}

void
fleet_on_change(struct fleet *f, fleet_change_fn fn, void *ctx)
{
	f->fn = fn;
	f->ctx = ctx;
}

void
fleet_on_head(struct fleet *f, bool (*more)(const char *path))
{
	f->more_head = more;
}

/* --- the map of paths ------------------------------------------------------ */

static uint64_t
path_key(const char *path)
{
	return hash_bytes(path, strlen(path), 0x666c656574ull) | 1;
}

/* The file named path, or NONE. A file renamed leaves its old key behind:
 * the path compared tells. */
static uint32_t
map_find(const struct fleet *f, const char *path)
{
	uint64_t k = path_key(path);

	if (f->map.cap == 0)
		return NONE;
	for (size_t i = k & (f->map.cap - 1);; i = (i + 1) & (f->map.cap - 1)) {
		if (f->map.key[i] == 0)
			return NONE;
		if (f->map.key[i] == k && strcmp(f->file[f->map.file[i]].path, path) == 0)
			return f->map.file[i];
	}
}

static void map_put(struct fleet *f, const char *path, uint32_t fi);

/* Twice the room, every key put again. */
static void
map_grow(struct fleet *f)
{
	struct fmap old = f->map;

	f->map.cap = old.cap ? old.cap * 2 : 64;
	f->map.key = xcalloc(f->map.cap, sizeof *f->map.key);
	f->map.file = xcalloc(f->map.cap, sizeof *f->map.file);
	f->map.n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.key[i] != 0)
			map_put(f, f->file[old.file[i]].path, old.file[i]);
	free(old.key);
	free(old.file);
}

static void
map_put(struct fleet *f, const char *path, uint32_t fi)
{
	uint64_t k = path_key(path);
	size_t i;

	if ((f->map.n + 1) * 2 > f->map.cap)
		map_grow(f);
	for (i = k & (f->map.cap - 1); f->map.key[i] != 0; i = (i + 1) & (f->map.cap - 1))
		;
	f->map.key[i] = k;
	f->map.file[i] = fi;
	f->map.n++;
}

/* --- rows ------------------------------------------------------------------- */

/* Files whose newest row ran at the last look: still? */
static void
settle_live(struct fleet *f)
{
	size_t k = 0;

	for (size_t i = 0; i < f->nlive; i++) {
		uint32_t fi = f->live[i];
		struct ffile *ff = &f->file[fi];
		enum fleet_state st;

		/* Its sub-agents write files of their own (looked at once a
		 * second while it runs). */
		if (!ff->more_due && ms_sub(f->now, ff->more_ms) >= 1000)
			fleet_read_more(f, fi);
		fleet_row_update(f, ff->last_row);
		st = (enum fleet_state)f->row[ff->last_row].state;
		if (st == FS_RUNNING || st == FS_WAITING)
			f->live[k++] = fi;
		else
			ff->live = false;
	}
	f->nlive = k;
}

/* --- folders and files -------------------------------------------------------- */

/* Put file fi in the read queue. */
static void
enqueue(struct fleet *f, uint32_t fi)
{
	if (f->file[fi].queued)
		return;
	f->file[fi].queued = true;
	ARRAY_RESERVE(f->queue, f->qcap, f->nqueue + 1);
	f->queue[f->nqueue++] = fi;
}

/* Whether a file of a listed folder is listed: a stream by its name, or a
 * recording by its first bytes. */
static bool
listed_name(const char *dir, const char *name)
{
	size_t n = strlen(name);
	char head[64], path[4096];
	bool kept;
	ssize_t got;
	int fd;

	if (name[0] == '.')
		return false;
	if ((n > 7 && strcmp(name + n - 7, ".ndjson") == 0) ||
	    (n > 6 && strcmp(name + n - 6, ".jsonl") == 0))
		return true;
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
		return false;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	got = pread(fd, head, sizeof head, 0);
	close(fd);
	return got > 0 && record_starts(head, (size_t)got, &kept);
}

/* A new file of folder d at path, seen in this scan, no row yet. */
static uint32_t
add_file(struct fleet *f, int d, const char *path)
{
	uint32_t fi;
	struct ffile *ff;

	ARRAY_RESERVE(f->file, f->filecap, f->nfile + 1);
	fi = (uint32_t)f->nfile++;
	ff = &f->file[fi];
	memset(ff, 0, sizeof *ff);
	ff->path = xstrdup(path);
	ff->dir = d;
	ff->seen = f->scan;
	ff->last_row = NONE;
	map_put(f, path, fi);
	return fi;
}

/* The file at path (in folder d), listed from now on, or as it was; read
 * again at the next update when it changed. */
static uint32_t
note_file(struct fleet *f, int d, const char *path, const struct stat *st)
{
	uint32_t fi = map_find(f, path);
	struct ffile *ff;

	if (fi != NONE)
		f->file[fi].seen = f->scan;
	if (fi == NONE) {
		fi = add_file(f, d, path);
		f->file[fi].mtime_ms =
			(int64_t)st->st_mtim.tv_sec * 1000 + st->st_mtim.tv_nsec / 1000000;
		enqueue(f, fi);
		return fi;
	}
	ff = &f->file[fi];
	if (ff->gone || st->st_ino != ff->ino || st->st_dev != ff->dev ||
	    (uint64_t)st->st_size != ff->size ||
	    (int64_t)st->st_mtim.tv_sec * 1000 + st->st_mtim.tv_nsec / 1000000 != ff->mtime_ms)
		enqueue(f, fi);
	return fi;
}

/* File fi went away: its rows stay, said so. */
static void
file_gone(struct fleet *f, uint32_t fi)
{
	struct ffile *ff = &f->file[fi];

	if (ff->gone)
		return;
	ff->gone = true;
	for (size_t r = 0; r < f->nrow; r++) {
		if (f->row[r].file == fi) {
			f->row[r].flags |= FR_GONE;
			fleet_touch(f, (uint32_t)r);
		}
	}
}

static int add_dir(struct fleet *f, const char *path, bool listing);
static int add_store_dir(struct fleet *f, const char *path, const char *pattern, uint8_t store);

/* Whether name matches the fnmatch pattern p[0..n). */
static bool
part_matches(const char *p, size_t n, const char *name)
{
	char pat[256];

	if (n >= sizeof pat)
		return false;
	memcpy(pat, p, n);
	pat[n] = '\0';
	return fnmatch(pat, name, FNM_PERIOD) == 0;
}

/* A store folder's pattern (lines of parts; a line after '!' leaves out
 * what it names) against an entry's name: for a folder, the rest of each
 * line whose first part matches, into rest; for a file, whether a line of
 * one part matches it and none left out. */
static bool
pattern_step(const char *pattern, const char *name, bool dir, struct buf *rest)
{
	bool hit = false, out = false;

	for (const char *l = pattern; *l != '\0';) {
		size_t n = strcspn(l, "\n"), neg = l[0] == '!';
		size_t part = strcspn(l + neg, "/\n") + neg;

		if (dir && part < n && part_matches(l + neg, part - neg, name)) {
			if (rest->n > 0)
				buf_addc(rest, '\n');
			buf_add(rest, "!", neg);
			buf_add(rest, l + part + 1, n - part - 1);
			hit = hit || !neg;
		} else if (!dir && part == n && part_matches(l + neg, n - neg, name)) {
			hit = hit || !neg;
			out = out || neg;
		}
		l += n + (l[n] == '\n');
	}
	return hit && !out;
}

/* Store folder d's entry name (at path, lstat st): a folder its pattern
 * goes on into, or a session file it names; never a link. */
static void
store_entry(struct fleet *f, int d, const char *name, const char *path, const struct stat *st)
{
	struct buf rest = {0};
	uint32_t fi;

	if (S_ISDIR(st->st_mode)) {
		if (pattern_step(f->dir[d].pattern, name, true, &rest))
			add_store_dir(f, path, rest.p, f->dir[d].store);
	} else if (S_ISREG(st->st_mode) && (map_find(f, path) != NONE ||
					    pattern_step(f->dir[d].pattern, name, false, &rest))) {
		fi = note_file(f, d, path, st); /* f->file may move */
		f->file[fi].store = f->dir[d].store;
	}
	buf_free(&rest);
}

/* The file at path of folder d (a remote's mirror), to take the rows an
 * agentview there made: a new one, or one the mirror made that has no
 * byte yet; NONE for any other (its rows are its own). */
static uint32_t
preset_file(struct fleet *f, int d, const char *path, int64_t mtime_ms)
{
	uint32_t fi = map_find(f, path);
	struct ffile *ff;

	if (fi != NONE) {
		ff = &f->file[fi];
		if (ff->gone || ff->nrows > 0 || ff->size > 0 ||
		    (ff->kind != FK_UNREAD && ff->kind != FK_EMPTY))
			return NONE;
	} else {
		fi = add_file(f, d, path);
		ff = &f->file[fi];
	}
	/* In whole seconds, as the mirror's copy will have it (the sh path
	 * says a file's time so: S), so that no row moves once it is read. */
	ff->mtime_ms = mtime_ms > 0 ? mtime_ms - mtime_ms % 1000 : mtime_ms;
	ff->kind = FK_UNREAD;
	ff->preset = true;
	return fi;
}

/* The rows an agentview on a remote made of the files of folder d, its
 * mirror (remote.h: its ".rows" at path): each file not listed yet is,
 * with them, until its own bytes are read. Nothing of a file the mirror
 * has already: its own rows are the sh path's. */
static void
preset_rows(struct fleet *f, int d, const char *path)
{
	struct remote_rows p = {0};
	struct buf text = {0}, fp = {0};
	uint32_t fi = NONE;
	bool take = false;
	char chunk[65536];
	ssize_t got;
	int fd;

	if (!f->dir[d].listing || f->dir[d].pattern != NULL ||
	    remote_host_of(f->dir[d].path) == NULL)
		return;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	while (text.n <= RFRAME_MAX && (got = read(fd, chunk, sizeof chunk)) > 0)
		buf_add(&text, chunk, (size_t)got);
	close(fd);
	if (text.n > RFRAME_MAX || !remote_rows_parse(text.p, text.n, &p)) {
		buf_free(&text);
		return;
	}
	for (size_t i = 0; i < p.n; i++) {
		const struct remote_row *w = &p.v[i];
		struct fleet_row *r;
		uint32_t ri;

		if (w->r.index == 0) {
			if (fi != NONE && take)
				fleet_settle(f, fi);
			buf_reset(&fp);
			buf_addf(&fp, "%s/%s", f->dir[d].path, p.names.p + w->name);
			fi = preset_file(f, d, fp.p, w->mtime_ms);
			take = fi != NONE;
		}
		if (!take)
			continue;
		ri = fleet_new_row(f, fi, true);
		r = &f->row[ri];
		*r = w->r;
		r->file = fi;
		r->index = (uint32_t)(f->file[fi].nrows - 1);
	}
	if (fi != NONE && take)
		fleet_settle(f, fi);
	remote_rows_free(&p);
	buf_free(&text);
	buf_free(&fp);
}

/* Folder d's entry name: a file to list, or (FLEET_RECURSIVE) a folder. */
static void
scan_entry(struct fleet *f, int d, const char *name)
{
	struct buf path = {0};
	struct stat st;

	buf_addf(&path, "%s/%s", f->dir[d].path, name);
	if (strcmp(name, ".rows") == 0) {
		f->dir[d].rows = true;
		f->dir[d].rows_seen = f->scan;
		preset_rows(f, d, path.p);
		goto out;
	}
	if (lstat(path.p, &st) != 0)
		goto out;
	if (f->dir[d].pattern != NULL) {
		store_entry(f, d, name, path.p, &st);
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		if ((f->flags & FLEET_RECURSIVE) && f->dir[d].listing && name[0] != '.')
			add_dir(f, path.p, true);
		goto out;
	}
	/* A link to a file is listed as the file; never a link's folder. */
	if (S_ISLNK(st.st_mode) && (stat(path.p, &st) != 0 || !S_ISREG(st.st_mode)))
		goto out;
	if (!S_ISREG(st.st_mode))
		goto out;
	if (map_find(f, path.p) != NONE || (f->dir[d].listing && listed_name(f->dir[d].path, name)))
		note_file(f, d, path.p, &st);
out:
	buf_free(&path);
}

/* Look at every file of folder d: the new ones, the changed ones, the
 * ones gone. */
static void
scan_dir(struct fleet *f, int d)
{
	struct dirent *de;
	struct stat st;
	DIR *dp = opendir(f->dir[d].path);
	bool rows_over = false;

	f->scan++;

	if (dp != NULL && f->dir[d].listing) {
		while ((de = readdir(dp)) != NULL)
			if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
				scan_entry(f, d, de->d_name);
		rows_over = f->dir[d].rows && f->dir[d].rows_seen != f->scan;
		if (rows_over)
			f->dir[d].rows = false;
	}
	if (dp != NULL)
		closedir(dp);
	/* The files the folder no longer names, or that it does not list
	 * (files given one by one): there still? A file of a remote's rows
	 * the mirror has not: gone, once its first round is all there. */
	for (size_t i = 0; i < f->nfile; i++) {
		if (f->file[i].dir != d || f->file[i].seen == f->scan)
			continue;
		if (f->file[i].preset) {
			if (rows_over) {
				f->file[i].preset = false;
				file_gone(f, (uint32_t)i);
			}
			continue;
		}
		if (stat(f->file[i].path, &st) == 0 && S_ISREG(st.st_mode))
			note_file(f, d, f->file[i].path, &st);
		else if (errno == ENOENT || errno == ENOTDIR)
			file_gone(f, (uint32_t)i);
	}
}

/* The number of the folder at path, or -1. */
static int
find_dir(const struct fleet *f, const char *path)
{
	for (size_t i = 0; i < f->ndir; i++)
		if (strcmp(f->dir[i].path, path) == 0)
			return (int)i;
	return -1;
}

/* Watch the folder at path and list its files (listing: all its streams;
 * else only the files given). */
static int
add_dir(struct fleet *f, const char *path, bool listing)
{
	int d = find_dir(f, path);

	if (d >= 0) {
		if (listing && !f->dir[d].listing) {
			f->dir[d].listing = true;
			scan_dir(f, d);
		}
		return d;
	}
	d = watch_add(f->w, path);
	ARRAY_RESERVE(f->dir, f->dircap, (size_t)d + 1);
	f->ndir = (size_t)d + 1;
	f->dir[d] = (struct fdir){.path = xstrdup(path), .listing = listing};
	if (listing)
		scan_dir(f, d);
	return d;
}

/* Watch the store folder at path and list what pattern names in it and
 * below. */
static int
add_store_dir(struct fleet *f, const char *path, const char *pattern, uint8_t store)
{
	int d = find_dir(f, path);

	if (d >= 0)
		return d;
	d = add_dir(f, path, false);
	f->dir[d].pattern = xstrdup(pattern);
	f->dir[d].store = store;
	f->dir[d].listing = true;
	scan_dir(f, d);
	return d;
}

int
fleet_add_store(struct fleet *f, const char *root, const char *patterns, enum store_source s)
{
	struct stat st;

	/* A place looked in, there or not: the empty list says it. */
	ARRAY_RESERVE(f->place, f->placecap, f->nplace + 1);
	f->place[f->nplace++] = (struct fleet_place){xstrdup(root), store_what(s), false};
	if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode))
		return -1;
	add_store_dir(f, root, patterns, (uint8_t)(s + 1));
	return 0;
}

void
fleet_set_live(struct fleet *f, struct store_live *sl)
{
	f->sl = sl;
}

int
fleet_add(struct fleet *f, const char *path, struct buf *err)
{
	return fleet_add_place(f, path, NULL, false, err);
}

size_t
fleet_nplaces(const struct fleet *f)
{
	return f->nplace;
}

const struct fleet_place *
fleet_place(const struct fleet *f, size_t i)
{
	return &f->place[i];
}

int
fleet_add_place(struct fleet *f, const char *path, const char *what, bool kept, struct buf *err)
{
	struct stat st;
	char *p = xstrdup(path), *slash;
	size_t n = strlen(p);
	int d;

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	ARRAY_RESERVE(f->place, f->placecap, f->nplace + 1);
	f->place[f->nplace++] = (struct fleet_place){xstrdup(p), what, kept};
	if (stat(p, &st) != 0) {
		buf_addf(err, "%s: %s", path, strerror(errno));
		free(p);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		add_dir(f, p, true);
	} else if (S_ISREG(st.st_mode)) {
		uint32_t fi;

		slash = strrchr(p, '/');
		if (slash == NULL)
			d = add_dir(f, ".", false);
		else if (slash == p)
			d = add_dir(f, "/", false);
		else {
			*slash = '\0';
			d = add_dir(f, p, false);
			*slash = '/';
		}
		fi = note_file(f, d, p, &st);
		f->file[fi].given = true;
	} else {
		buf_addf(err, "%s: not a file nor a folder", path);
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

/* A file of folder d moved to name: the file listed with its identity,
 * when there is one (a recording named after its session), renamed. */
static bool
file_renamed(struct fleet *f, int d, const char *path, const struct stat *st)
{
	for (size_t i = 0; i < f->nfile; i++) {
		struct ffile *ff = &f->file[i];

		if (ff->dir != d || ff->ino != st->st_ino || ff->dev != st->st_dev ||
		    ff->kind == FK_UNREAD || strcmp(ff->path, path) == 0)
			continue;
		free(ff->path);
		ff->path = xstrdup(path);
		map_put(f, path, (uint32_t)i);
		ff->gone = false;
		for (size_t r = 0; r < f->nrow; r++) {
			if (f->row[r].file == i && (f->row[r].flags & FR_GONE) &&
			    !(f->row[r].flags & FR_REREAD)) {
				f->row[r].flags &= (uint8_t)~FR_GONE;
				fleet_touch(f, (uint32_t)r);
			}
		}
		enqueue(f, (uint32_t)i);
		return true;
	}
	return false;
}

/* The chat store whose log (store.db-wal) path is, or NONE. */
static uint32_t
chat_log(struct fleet *f, const struct buf *path)
{
	struct buf db = {0};
	uint32_t fi = NONE;

	if (path->n > 13 && strcmp(path->p + path->n - 13, "/store.db-wal") == 0) {
		buf_add(&db, path->p, path->n - 4);
		fi = map_find(f, db.p);
		if (fi != NONE && !fleet_chat_store(f, fi))
			fi = NONE;
	}
	buf_free(&db);
	return fi;
}

/* What the watch says happened in folder d. */
static void
on_watch(void *ctx, int d, const char *name, enum watch_what what)
{
	struct fleet *f = ctx;
	struct buf path = {0};
	struct stat st;
	uint32_t fi, log;

	/* (a remote's rows gone: the files the mirror has not, with them) */
	if (what == WATCH_RESCAN || what == WATCH_DIR_GONE ||
	    (what == WATCH_GONE && f->dir[d].rows && strcmp(name, ".rows") == 0)) {
		scan_dir(f, d);
		return;
	}
	buf_addf(&path, "%s/%s", f->dir[d].path, name);
	fi = map_find(f, path.p);
	if (what == WATCH_GONE) {
		if (fi != NONE)
			file_gone(f, fi);
	} else if (what == WATCH_NEW && lstat(path.p, &st) == 0 && S_ISREG(st.st_mode) &&
		   file_renamed(f, d, path.p, &st)) {
		/* listed already, under its new name */
	} else if (fi == NONE && (log = chat_log(f, &path)) != NONE) {
		/* A chat store's log: what Cursor writes first. */
		enqueue(f, log);
	} else if (what == WATCH_NEW || fi == NONE) {
		scan_entry(f, d, name);
	} else {
		enqueue(f, fi);
	}
	buf_free(&path);
}

/* --- updates ------------------------------------------------------------------ */

static int
by_mtime_desc(const void *a, const void *b, void *ctx)
{
	const struct fleet *f = ctx;
	int64_t x = f->file[*(const uint32_t *)a].mtime_ms;
	int64_t y = f->file[*(const uint32_t *)b].mtime_ms;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* --- one row a session ------------------------------------------------------ */

/* Rows in the order of their session ids. */
static int
by_id(const void *a, const void *b, void *ctx)
{
	const struct fleet *f = *(const struct fleet *const *)ctx;

	return strcmp(f->row[*(const uint32_t *)a].id, f->row[*(const uint32_t *)b].id);
}

/* How much of its session a row shows: its result (the end, tokens, cost
 * and duration the agent said, which most stores do not record) counts
 * most; then being read from the agent's store (its whole record: every
 * turn, sub-agents, times, the liveness of its process) rather than from
 * what passed through one pipe into agentview's kept file. */
static int
richness(const struct fleet *f, uint32_t r)
{
	return ((f->row[r].flags & FR_RESULT) ? 2 : 0) + (f->file[f->row[r].file].store > 0);
}

/* Whether chat store b is newer than chat store a (its file written
 * later; of two as old, the one whose path sorts last): of one chat in
 * two stores, the one whose facts its row has. */
static bool
chat_newer(const struct fleet *f, uint32_t b, uint32_t a)
{
	int64_t tb = f->file[b].mtime_ms, ta = f->file[a].mtime_ms;

	return tb > ta || (tb == ta && strcmp(f->file[b].path, f->file[a].path) > 0);
}

uint8_t *
fleet_twins(const struct fleet *f)
{
	uint32_t *v = xcalloc(f->nrow + 1, sizeof *v);
	uint8_t *hide = NULL, *chat = xcalloc(f->nrow + 1, 1);
	size_t n = 0, stores = 0, chats = 0;

	for (size_t r = 0; r < f->nrow; r++) {
		if (strlen(f->row[r].id) < 8)
			continue;
		v[n++] = (uint32_t)r;
		stores += f->file[f->row[r].file].store > 0;
		chat[r] = fleet_chat_store(f, f->row[r].file);
		chats += chat[r];
	}
	if ((stores > 0 && stores < n) || (chats > 0 && chats < n) || chats > 1) {
		hide = xcalloc(f->nrow + 1, 1);
		qsort_r(v, n, sizeof *v, by_id, &f);
	}
	/* A Cursor chat store's row gives way to any other of its session
	 * (its transcript's, a kept stream's: they hold its calls), and to
	 * a newer chat store's; a kept row and a store's, to the richer. */
	for (size_t i = 0, j; hide != NULL && i < n; i = j) {
		for (j = i + 1; j < n && strcmp(f->row[v[j]].id, f->row[v[i]].id) == 0; j++)
			;
		for (size_t a = i; a < j; a++)
			for (size_t b = i; b < j; b++)
				if ((chat[v[a]] && !chat[v[b]]) ||
				    (chat[v[a]] && chat[v[b]] &&
				     f->row[v[a]].file != f->row[v[b]].file &&
				     chat_newer(f, f->row[v[b]].file, f->row[v[a]].file)) ||
				    (!chat[v[a]] && !chat[v[b]] &&
				     (f->file[f->row[v[a]].file].store > 0) !=
					     (f->file[f->row[v[b]].file].store > 0) &&
				     richness(f, v[b]) > richness(f, v[a])))
					hide[v[a]] = 1;
	}
	free(v);
	free(chat);
	return hide;
}

bool
fleet_chat_twin(const struct fleet *f, size_t fi)
{
	bool any = false;

	if (!fleet_chat_store(f, (uint32_t)fi))
		return false;
	for (size_t r = 0; r < f->nrow; r++) {
		bool found = false;

		if (f->row[r].file != fi)
			continue;
		if (strlen(f->row[r].id) < 8)
			return false;
		for (size_t o = 0; o < f->nrow && !found; o++)
			found = f->row[o].file != fi &&
				(!fleet_chat_store(f, f->row[o].file) ||
				 chat_newer(f, f->row[o].file, (uint32_t)fi)) &&
				strcmp(f->row[o].id, f->row[r].id) == 0;
		if (!found)
			return false;
		any = true;
	}
	return any;
}

/* Tell the changes of the rows touched; forget they were. */
static void
tell(struct fleet *f)
{
	uint8_t *hide = f->nchanged > 0 && f->fn != NULL ? fleet_twins(f) : NULL;

	for (size_t i = 0; i < f->nchanged; i++) {
		uint32_t r = f->changed[i];
		enum fleet_state was = (enum fleet_state)f->told[r];

		fleet_row_update(f, r);
		f->touched[r] = 0;
		if (!f->first_done || was == f->row[r].state)
			continue;
		f->told[r] = f->row[r].state;
		/* A session's twin is not its news a second time. */
		if (f->fn != NULL && (hide == NULL || !hide[r]))
			f->fn(f->ctx, f, r, was);
	}
	f->nchanged = 0;
	free(hide);
}

unsigned
fleet_update(struct fleet *f, int64_t now_ms, int64_t budget_us)
{
	int64_t t0 = budget_us > 0 ? clock_mono_us() : 0;
	bool looked = f->first_done;

	f->now = now_ms;
	/* Rows made between two updates (a remote's rows, fleet_add) are news
	 * of this one. */
	f->result = f->nchanged > 0 ? FLEET_ROWS : 0;
	if (!f->sorted) {
		/* The first look reads the newest files first. */
		if (f->nqueue > 1)
			qsort_r(f->queue, f->nqueue, sizeof *f->queue, by_mtime_desc, f);
		f->sorted = true;
	}
	watch_read(f->w, now_ms, on_watch, f);
	/* The chat stores that changed within a second of their last read,
	 * once it is over. */
	for (size_t i = 0; f->chat_due > 0 && i < f->nfile; i++)
		if (f->file[i].chat_due && ms_sub(now_ms, f->file[i].chat_ms) >= 1000) {
			f->file[i].chat_due = false;
			f->chat_due--;
			enqueue(f, (uint32_t)i);
		}
	while (f->qhead < f->nqueue) {
		uint32_t fi = f->queue[f->qhead++];

		f->file[fi].queued = false;
		fleet_read(f, fi);
		if (budget_us > 0 && clock_mono_us() - t0 >= budget_us)
			break;
	}
	if (f->qhead == f->nqueue)
		f->qhead = f->nqueue = 0;
	/* After the first screen, the sub-agents' files and the middles it
	 * went without. */
	if (looked && f->nqueue == 0) {
		fleet_more_work(f, t0, budget_us);
		fleet_gap_work(f, t0, budget_us);
	}
	settle_live(f);
	tell(f);
	if (!f->first_done && f->nqueue == 0) {
		f->first_done = true;
		for (size_t r = 0; r < f->nrow; r++)
			f->told[r] = f->row[r].state;
	}
	return f->result;
}

bool
fleet_loading(const struct fleet *f)
{
	return !f->first_done;
}

int
fleet_fd(const struct fleet *f)
{
	return watch_fd(f->w);
}

int
fleet_timeout(const struct fleet *f, int64_t now_ms, bool ticking)
{
	int64_t t = watch_timeout(f->w, now_ms);

	if (f->qhead < f->nqueue || (f->first_done && fleet_gaps_left(f)))
		return 0;
	for (size_t i = 0; i < f->nlive; i++) {
		const struct ffile *ff = &f->file[f->live[i]];
		const struct fleet_row *r = &f->row[ff->last_row];
		int64_t left;

		/* A recording's writer's end is an event; a question waits
		 * for its answer, which is a write. */
		if (ff->recording || r->state == FS_WAITING)
			continue;
		left = ms_sub(fleet_live_until(ff, r), now_ms);
		left = MAX(left, 0);
		/* A store's signal is looked at again each second. */
		if (ff->store > 0 && f->sl != NULL)
			left = 1000 - ((now_ms % 1000) + 1000) % 1000;
		if (t < 0 || left < t)
			t = left;
	}
	for (size_t i = 0; f->chat_due > 0 && i < f->nfile; i++)
		if (f->file[i].chat_due) {
			int64_t left = MAX(ms_sub(ms_add(f->file[i].chat_ms, 1000), now_ms), 0);

			if (t < 0 || left < t)
				t = left;
		}
	if (ticking && f->nlive > 0) {
		int64_t tick = 1000 - ((now_ms % 1000) + 1000) % 1000;

		if (t < 0 || tick < t)
			t = tick;
	}
	return t < 0 ? -1 : (int)MIN(t, 86400000);
}

size_t
fleet_nrows(const struct fleet *f)
{
	return f->nrow;
}

const struct fleet_row *
fleet_row(const struct fleet *f, uint32_t row)
{
	return &f->row[row];
}

const char *
fleet_path(const struct fleet *f, uint32_t row)
{
	return f->file[f->row[row].file].path;
}

bool
fleet_row_early(const struct fleet *f, uint32_t row)
{
	return f->file[f->row[row].file].preset;
}

const char *
fleet_name(const struct fleet *f, uint32_t row)
{
	const char *p = fleet_path(f, row), *slash = strrchr(p, '/');

	return slash != NULL ? slash + 1 : p;
}

int64_t
fleet_row_when(const struct fleet *f, uint32_t ri)
{
	const struct fleet_row *r = &f->row[ri];
	const struct ffile *ff = &f->file[r->file];
	int64_t t = r->last_ms != TIME_NONE ? r->last_ms : r->start_ms;

	if (t == TIME_NONE || (ff->last_row == ri && ff->mtime_ms > t))
		t = ff->mtime_ms;
	return t;
}

void
fleet_stats(const struct fleet *f, struct fleet_stats *st)
{
	uint8_t *hide = fleet_twins(f);

	memset(st, 0, sizeof *st);
	st->files = f->nfile;
	for (size_t i = 0; i < f->nfile; i++)
		st->unread += f->file[i].kind == FK_UNREAD;
	st->polled = watch_npolled(f->w);
	for (size_t d = 0; d < f->ndir; d++)
		st->gone += watch_gone(f->w, (int)d);
	for (size_t r = 0; r < f->nrow; r++)
		if (hide == NULL || !hide[r]) /* a twin is counted as its twin */
			st->by_state[f->row[r].state]++;
	free(hide);
}

bool
fleet_file_open(const struct fleet *f, size_t i)
{
	const struct ffile *ff = &f->file[i];
	uint8_t st;

	if (ff->nrows == 0 || ff->placeholder || ff->last_row == NONE)
		return false;
	st = f->row[ff->last_row].state;
	return st == FS_RUNNING || st == FS_WAITING;
}

enum fleet_state
fleet_store_state(const struct fleet *f, size_t i)
{
	const struct ffile *ff = &f->file[i];

	if (ff->store == 0 || ff->nrows == 0 || ff->placeholder || ff->last_row == NONE)
		return FS_NSTATES;
	return (enum fleet_state)f->row[ff->last_row].state;
}

bool
fleet_row_may_wait(const struct fleet *f, uint32_t ri)
{
	const struct fleet_row *r = &f->row[ri];
	const struct ffile *ff = &f->file[r->file];

	return ff->store == SRC_CODEX + 1 && r->state == FS_RUNNING && !(r->flags & FR_GUESS) &&
	       ff->last_row == ri && !ff->placeholder;
}

bool
fleet_file_may_wait(const struct fleet *f, size_t i)
{
	const struct ffile *ff = &f->file[i];

	return ff->nrows > 0 && !ff->placeholder && ff->last_row != NONE &&
	       fleet_row_may_wait(f, ff->last_row);
}

bool
fleet_file_of_store(const struct fleet *f, size_t i)
{
	return f->file[i].store > 0;
}

size_t
fleet_nfiles(const struct fleet *f)
{
	return f->nfile;
}

const char *
fleet_file_path(const struct fleet *f, size_t i)
{
	return f->file[i].path;
}

const char *
fleet_file_note(const struct fleet *f, size_t i)
{
	const struct ffile *ff = &f->file[i];

	if ((ff->kind == FK_STREAM || ff->preset) && !ff->gone)
		return NULL;
	if (ff->placeholder && ff->last_row != NONE)
		return f->row[ff->last_row].how;
	return ff->gone ? "removed" : "not read";
}
