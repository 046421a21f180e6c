/* open.c: the file and line e opens, the editor's and the pager's command
 * lines, and the pager's temporary file. */
#include "open.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "copy.h"
#include "diff.h"
#include "json.h"
#include "tool.h"

bool
open_resolve(struct model *m, uint32_t s, const char *path, size_t n, struct buf *out)
{
	size_t from = out->n;

	if (n > 0 && path[0] == '/') {
		buf_add(out, path, n);
		return true;
	}
	/* Only a folder that is a folder: a relative one ("-", "+cmd")
	 * says nothing of where the path is. */
	if (model_session_cwd(m, s, out) && out->n > from && out->p[from] == '/') {
		if (out->p[out->n - 1] != '/')
			buf_addc(out, '/');
		/* "./a.c" reads better as "a.c" after the directory. */
		while (n >= 2 && path[0] == '.' && path[1] == '/') {
			path += 2;
			n -= 2;
		}
		buf_add(out, path, n);
		return true;
	}
	buf_cut(out, from);
	buf_add(out, path, n);
	return false;
}

bool
open_here(const char *path, size_t n, struct buf *dir, struct buf *out)
{
	char *cwd = getcwd(NULL, 0);

	if (cwd == NULL)
		return false;
	buf_adds(dir, cwd);
	buf_adds(out, cwd);
	if (cwd[0] == '\0' || cwd[strlen(cwd) - 1] != '/')
		buf_addc(out, '/');
	while (n >= 2 && path[0] == '.' && path[1] == '/') {
		path += 2;
		n -= 2;
	}
	buf_add(out, path, n);
	free(cwd);
	return true;
}

int64_t
open_diff_line(const char *s, size_t n)
{
	int64_t line = 0;
	bool hunk = false;

	for (size_t i = 0; i < n;) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n;
		long long a, c;

		if (end - i >= 2 && s[i] == '@' && s[i + 1] == '@') {
			/* "@@ -a[,b] +c[,d] @@": the new file's line c. */
			if (sscanf(s + i, "@@ -%lld%*[,0-9] +%lld", &a, &c) == 2 ||
			    sscanf(s + i, "@@ -%lld +%lld", &a, &c) == 2) {
				line = c;
				hunk = true;
			}
		} else if (hunk && end > i && (s[i] == '+' || s[i] == '-')) {
			return MAX(line, 1);
		} else if (hunk && (end == i || s[i] == ' ')) {
			line++;
		}
		i = end + 1;
	}
	return 0;
}

/* The first place of needle[0..n) in s[0..len), or NULL (memmem is not
 * in POSIX). */
static const char *
find(const char *s, size_t len, const char *needle, size_t n)
{
	for (const char *p = s; n > 0 && (size_t)(s + len - p) >= n;) {
		p = memchr(p, needle[0], (size_t)(s + len - p) - n + 1);
		if (p == NULL)
			return NULL;
		if (memcmp(p, needle, n) == 0)
			return p;
		p++;
	}
	return NULL;
}

int64_t
open_find_line(const char *file, const char *text, size_t n)
{
	struct buf b = {0};
	char chunk[8192];
	size_t got, first = 0;
	ssize_t r;
	int64_t line = 0;
	const char *at;
	struct stat st;
	int fd;

	/* Its first line that says something. */
	while (first < n && (text[first] == '\n' || text[first] == '\r'))
		first++;
	for (n -= first, text += first, got = 0; got < n && text[got] != '\n'; got++)
		;
	n = got;
	/* A regular file only: the path is the stream's, and a FIFO there
	 * would hang the screen (opened without waiting, read never). */
	if (n == 0 || (fd = open(file, O_RDONLY | O_NONBLOCK | O_NOCTTY)) < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		while (b.n < (64u << 20) &&
		       ((r = read(fd, chunk, sizeof chunk)) > 0 || (r < 0 && errno == EINTR)))
			if (r > 0)
				buf_add(&b, chunk, (size_t)r);
	close(fd);
	at = b.n >= n ? find(b.p, b.n, text, n) : NULL;
	if (at != NULL) {
		line = 1;
		for (const char *p = b.p; p < at; p++)
			line += *p == '\n';
	}
	buf_free(&b);
	return line;
}

/* A read's first line, from 1; 0 when it does not say. */
static int64_t
read_line(struct call_facts *v)
{
	int64_t a;

	return fact_int(call_fact(v, CALL_FIRST_LINE), &a) && a > 0 ? a : 0;
}

/* A structured patch's hunks as a unified diff (their starts and lines). */
static void
patch_diff(struct call_facts *v, struct buf *out)
{
	const struct factval *p = call_fact(v, CALL_HUNKS);
	const struct json *j;
	struct elem_facts h;
	int64_t a, c;
	int t;

	if (!fact_array(p))
		return;
	j = p->j;
	t = p->t + 1;
	for (int i = 0; i < json_size(j, p->t); i++, t = json_next(j, t)) {
		const struct factval *ls;
		int l;

		if (!call_elem(v, FL_HUNKS, j, t, &h) ||
		    !fact_int(elem_fact(&h, EL_OLD_START), &a) ||
		    !fact_int(elem_fact(&h, EL_NEW_START), &c) ||
		    !fact_array(ls = elem_fact(&h, EL_LINES)))
			continue;
		buf_addf(out, "@@ -%lld +%lld @@\n", (long long)a, (long long)c);
		l = ls->t + 1;
		for (int k = 0; k < json_size(j, ls->t); k++, l = json_next(j, l)) {
			json_decode(j, l, out);
			buf_addc(out, '\n');
		}
	}
}

/* Fact f, a string, decoded into out (reset); false when it is none. */
static bool
str_of(struct call_facts *v, enum call_fact f, struct buf *out)
{
	buf_reset(out);
	return fact_str(call_fact(v, f), out);
}

/* An edit's first changed line: from its diff (sent, structured, or made
 * from the file before and after), else where its new text is now. */
static int64_t
edit_line(struct call_facts *v, const char *file)
{
	struct buf a = {0}, b = {0}, d = {0};
	int64_t line = 0;

	if (str_of(v, CALL_DIFF, &d) && d.n > 0)
		line = open_diff_line(d.p, d.n);
	else if (fact_array(call_fact(v, CALL_HUNKS)) && (patch_diff(v, &d), d.n > 0))
		line = open_diff_line(d.p, d.n);
	else if (str_of(v, CALL_BEFORE, &a) && str_of(v, CALL_AFTER, &b) &&
		 diff_unified(a.p, a.n, b.p, b.n, 0, &d) > 0)
		line = open_diff_line(d.p, d.n);
	if (line == 0 && str_of(v, CALL_NEW_TEXT, &b))
		line = open_find_line(file, b.p, b.n);
	buf_free(&a);
	buf_free(&b);
	buf_free(&d);
	return line;
}

bool
open_call_file(struct model *m, uint32_t c, struct buf *path, bool *abs, int64_t *line,
	       struct buf *why)
{
	enum tool_kind k = (enum tool_kind)m->call[c].kind;
	struct buf target = {0};
	const char *what = copy_call_target(m, c, &target);
	struct json *sj, *dj;
	struct call_facts v;

	*line = 0;
	if (what == NULL || strcmp(what, "path") != 0) {
		buf_addf(why, "a %s call names no file to open", tool_kind_name(k));
		buf_free(&target);
		return false;
	}
	*abs = open_resolve(m, m->call[c].session, target.p, target.n, path);
	buf_free(&target);
	sj = json_new();
	dj = json_new();
	tool_load(m, c, sj, dj, &v);
	if (k == TK_READ)
		*line = read_line(&v);
	else if (k == TK_EDIT)
		*line = edit_line(&v, path->p);
	json_free(sj);
	json_free(dj);
	return true;
}

/* The name of a program: the last part of its path. */
static const char *
base_name(const char *s, size_t n, size_t *len)
{
	const char *b = s;

	for (size_t i = 0; i < n; i++)
		if (s[i] == '/')
			b = s + i + 1;
	*len = n - (size_t)(b - s);
	return b;
}

/* How a program takes a line and the end of its options. */
struct takes {
	const char *name;
	char line;   /* '+': +LINE, 'g': -g FILE:LINE, 0: it takes none */
	char dashes; /* 'a': -- after +LINE, 'b': -- before it, 0: no -- */
};

/* The programs known, by the name their path ends with. */
static const struct takes programs[] = {
	/* vim's parser and nvi's: +LINE is an option, everything after
	 * -- a file; Emacs's command-line-1, helix's and kakoune's the
	 * same. */
	{"vi", '+', 'a'},
	{"vim", '+', 'a'},
	{"nvim", '+', 'a'},
	{"view", '+', 'a'},
	{"gvim", '+', 'a'},
	{"ex", '+', 'a'},
	{"nvi", '+', 'a'},
	{"emacs", '+', 'a'},
	{"hx", '+', 'a'},
	{"helix", '+', 'a'},
	{"kak", '+', 'a'},
	/* getopt (nano, emacsclient) and Go's flag package (micro): --
	 * ends the options, and +LINE is read from the operands after it
	 * (micro's flags stop at the first operand: -- after it would be
	 * a file). */
	{"nano", '+', 'b'},
	{"emacsclient", '+', 'b'},
	{"micro", '+', 'b'},
	/* +LINE, and no -- known to be taken: only the path's shape. */
	{"pico", '+', 0},
	{"elvis", '+', 0},
	{"vis", '+', 0},
	{"joe", '+', 0},
	{"jed", '+', 0},
	{"mg", '+', 0},
	{"ne", '+', 0},
	{"mcedit", '+', 0},
	{"gedit", '+', 0},
	/* VS Code and its kin: -g FILE:LINE. */
	{"code", 'g', 0},
	{"code-insiders", 'g', 0},
	{"codium", 'g', 0},
	{"cursor", 'g', 0},
	{"windsurf", 'g', 0},
	/* The pager. */
	{"less", 0, 'a'},
};

/* What program (a command line: its first word) takes; {0} when it is
 * not known. */
static struct takes
program_takes(const char *program)
{
	static const struct takes none = {NULL, 0, 0};
	const char *s = program + strspn(program, " \t");
	size_t n = strcspn(s, " \t"), len;
	const char *name = base_name(s, n, &len);

	for (size_t i = 0; i < ARRAY_LEN(programs); i++)
		if (strlen(programs[i].name) == len && memcmp(programs[i].name, name, len) == 0)
			return programs[i];
	return none;
}

char **
open_argv(const char *program, const char *file, int64_t line)
{
	char **argv = xcalloc(9, sizeof *argv);
	struct takes t = program_takes(program);
	struct buf b = {0}, f = {0};
	int n = 0;

	argv[n++] = xstrdup("/bin/sh");
	argv[n++] = xstrdup("-c");
	buf_addf(&b, "%s \"$@\"", program);
	argv[n++] = xstrdup(b.p);
	argv[n++] = xstrdup(program);
	/* Never an option, whatever the program: absolute, or ./PATH. */
	if (file[0] != '/' && strncmp(file, "./", 2) != 0)
		buf_adds(&f, "./");
	buf_adds(&f, file);
	if (line <= 0)
		t.line = 0;
	buf_reset(&b);
	if (t.line == 'g') {
		argv[n++] = xstrdup("-g");
		buf_addf(&b, "%s:%lld", f.p, (long long)line);
		argv[n++] = xstrdup(b.p);
	} else {
		if (t.dashes == 'b')
			argv[n++] = xstrdup("--");
		if (t.line == '+') {
			buf_addf(&b, "+%lld", (long long)line);
			argv[n++] = xstrdup(b.p);
		}
		if (t.dashes == 'a')
			argv[n++] = xstrdup("--");
		argv[n++] = xstrdup(f.p);
	}
	buf_free(&b);
	buf_free(&f);
	return argv;
}

void
open_argv_free(char **argv)
{
	if (argv == NULL)
		return;
	for (char **a = argv; *a != NULL; a++)
		free(*a);
	free(argv);
}

/* The value of an environment variable, NULL when unset or blank. */
static const char *
env_set(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && v[strspn(v, " \t")] != '\0' ? v : NULL;
}

const char *
open_editor(void)
{
	const char *e = env_set("VISUAL");

	if (e == NULL)
		e = env_set("EDITOR");
	return e != NULL ? e : "vi";
}

const char *
open_pager(void)
{
	const char *p = env_set("PAGER");

	return p != NULL ? p : "less";
}

bool
open_program_found(const char *cmdline, struct buf *name)
{
	const char *s = cmdline + strspn(cmdline, " \t"), *path;
	size_t n = strcspn(s, " \t");
	bool found = false;

	buf_reset(name);
	buf_add(name, s, n);
	/* What a shell would read first: not for us to tell. */
	if (n == 0 || strpbrk(name->p, "'\"\\$`=~*?[(){};&|<>") != NULL)
		return true;
	if (strchr(name->p, '/') != NULL)
		return access(name->p, X_OK) == 0;
	path = getenv("PATH");
	if (path == NULL)
		path = "/usr/bin:/bin";
	while (!found) {
		size_t k = strcspn(path, ":");
		struct buf f = {0};
		struct stat st;

		buf_add(&f, k > 0 ? path : ".", k > 0 ? k : 1);
		buf_addc(&f, '/');
		buf_add(&f, name->p, name->n);
		found = stat(f.p, &st) == 0 && S_ISREG(st.st_mode) && access(f.p, X_OK) == 0;
		buf_free(&f);
		if (path[k] == '\0')
			break;
		path += k + 1;
	}
	return found;
}

int
open_temp(const char *s, size_t n, struct buf *path, struct buf *err)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (dir == NULL || dir[0] == '\0')
		dir = "/tmp";
	buf_reset(path);
	buf_addf(path, "%s/agentview-XXXXXX", dir);
	/* mkstemp makes it 0600, and only ours. */
	fd = mkstemp(path->p);
	if (fd < 0) {
		buf_addf(err, "cannot make a file in %s: %s", dir, strerror(errno));
		return -1;
	}
	for (size_t done = 0; done < n;) {
		ssize_t w = write(fd, s + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			buf_addf(err, "cannot write %s: %s", path->p,
				 w < 0 ? strerror(errno) : "no space");
			close(fd);
			unlink(path->p);
			return -1;
		}
		done += (size_t)w;
	}
	if (close(fd) != 0) {
		buf_addf(err, "cannot write %s: %s", path->p, strerror(errno));
		unlink(path->p);
		return -1;
	}
	return 0;
}
