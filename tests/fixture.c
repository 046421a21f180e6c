/* fixture.c: a model read from text in memory, for the unit tests; and
 * the environment every unit test starts from. */
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "testutil.h"

#include "fixture.h"

extern char **environ;

/* Variables of the user's that change what agentview does, and that no
 * unit test may inherit: a test that depends on one sets it. */
static const char *const user_vars[] = {
	"TMUX",           "TMUX_PANE",       "NO_COLOR",        "COLORTERM",
	"TERM",           "VISUAL",          "EDITOR",          "PAGER",
	"HOME",           "XDG_STATE_HOME",  "XDG_CONFIG_HOME", "XDG_DATA_HOME",
	"XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "COLUMNS",         "LINES",
};

/* Before main: the same environment wherever the tests run (a terminal,
 * inside tmux, under nohup, in CI). None of the user's variables above nor
 * any AGENTVIEW_*; HOME a folder that cannot exist (nothing is written to
 * the real one), TMPDIR /tmp, TZ UTC; no signal ignored (nohup ignores
 * SIGHUP, a shell's background job SIGINT, some runners SIGPIPE, and
 * agentview keeps ignored what it was started with ignored), none
 * blocked. */
__attribute__((constructor)) static void
fixture_environment(void)
{
	struct sigaction sa;
	sigset_t none;
	char name[128];

	for (size_t i = 0; i < ARRAY_LEN(user_vars); i++)
		unsetenv(user_vars[i]);
	for (size_t i = 0; environ[i] != NULL;) {
		const char *eq = strchr(environ[i], '=');
		size_t n = eq != NULL ? (size_t)(eq - environ[i]) : 0;

		if (strncmp(environ[i], "AGENTVIEW_", 10) == 0 && n < sizeof name) {
			memcpy(name, environ[i], n);
			name[n] = '\0';
			unsetenv(name); /* environ moved down: look at i again */
			continue;
		}
		i++;
	}
	setenv("HOME", "/dev/null/agentview-test-home", 1);
	setenv("TMPDIR", "/tmp", 1);
	setenv("TZ", "UTC", 1);
	tzset();
	/* Only what was inherited: a handler here is a sanitizer's own. */
	for (int s = 1; s < NSIG; s++) {
		if (sigaction(s, NULL, &sa) != 0 || sa.sa_handler != SIG_IGN)
			continue;
		sa.sa_handler = SIG_DFL;
		sigaction(s, &sa, NULL);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Open, read and end as flags say, then set up the views asked for. */
struct fixture *
fixture_new(const char *text, size_t n, unsigned flags)
{
	struct fixture *f = calloc(1, sizeof *f);

	assert_non_null(f);
	f->flags = flags;
	source_open_mem(&f->s, "t", text, n);
	f->m = model_new();
	f->src = model_add_source(f->m, &f->s);
	if (!(flags & FX_UNREAD)) {
		fixture_feed(f, SIZE_MAX);
		if (!(flags & FX_LIVE))
			fixture_end(f);
	}
	if (flags & FX_RENDER)
		render_init(&f->r, f->m);
	if (flags & FX_DETAIL)
		detail_init(&f->d, f->m);
	if (flags & FX_SEARCH)
		search_init(&f->se, f->m);
	return f;
}

/* Add one line, as the viewer does when nothing says when it arrived. */
bool
fixture_next(struct fixture *f, struct line *ln, uint32_t *ev)
{
	struct line l;
	uint32_t e;

	if (ln == NULL)
		ln = &l;
	if (!source_next_line(&f->s, ln))
		return false;
	e = model_add_line(f->m, f->src, ln, TIME_NONE);
	if (ev != NULL)
		*ev = e;
	return true;
}

/* Add up to max lines. */
size_t
fixture_feed(struct fixture *f, size_t max)
{
	size_t n = 0;

	while (n < max && fixture_next(f, NULL, NULL))
		n++;
	return n;
}

/* End the source in the model. */
void
fixture_end(struct fixture *f)
{
	model_end_source(f->m, f->src);
}

/* Start the source's line reader again at the first byte. */
void
fixture_rewind(struct fixture *f)
{
	f->s.scan = 0;
	f->s.lineno = 0;
}

/* Set up rp over the model as it is now. */
void
fixture_replay(struct fixture *f, double speed, double idle_limit_s, bool complete)
{
	replay_init(&f->rp, speed, idle_limit_s, 0);
	replay_index(&f->rp, f->m, complete);
	f->flags |= FX_REPLAY;
}

/* Free the views, the model and the source. */
void
fixture_free(struct fixture *f)
{
	if (f->flags & FX_RENDER)
		render_free(&f->r);
	if (f->flags & FX_DETAIL)
		detail_free(&f->d);
	if (f->flags & FX_SEARCH)
		search_free(&f->se);
	if (f->flags & FX_REPLAY)
		replay_free(&f->rp);
	buf_free(&f->b);
	model_free(f->m);
	source_close(&f->s);
	free(f);
}

/* Read a whole file (a recording, a theme) into memory. */
char *
fixture_slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	char *text;
	long size;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	size = ftell(fp);
	assert_true(size >= 0);
	rewind(fp);
	text = malloc((size_t)size + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)size, fp), (size_t)size);
	text[size] = '\0';
	fclose(fp);
	*n = (size_t)size;
	return text;
}

struct fixture *
fixture_file(const char *path, unsigned flags)
{
	size_t n;
	char *text = fixture_slurp(path, &n);
	struct fixture *f = fixture_new(text, n, flags);

	free(text);
	return f;
}

struct fixture *
fixture_recording(const char *name, unsigned flags)
{
	char path[256];

	snprintf(path, sizeof path, "recordings/%s.ndjson", name);
	return fixture_file(path, flags);
}

char *
fixture_tmpdir(const char *name)
{
	char tmpl[256];
	char *dir;

	snprintf(tmpl, sizeof tmpl, "/tmp/av-%s-XXXXXX", name);
	assert_non_null(mkdtemp(tmpl));
	dir = strdup(tmpl);
	assert_non_null(dir);
	return dir;
}

void
fixture_rmtree(char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

void
fixture_put(const char *dir, const char *name, const char *text, int64_t ms, bool append)
{
	char path[1024];
	struct timespec ts[2];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fp = fopen(path, append ? "a" : "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	ts[0].tv_sec = ts[1].tv_sec = (time_t)(ms / 1000);
	ts[0].tv_nsec = ts[1].tv_nsec = (long)(ms % 1000) * 1000000;
	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

const char *
fixture_written(void (*fn)(const struct fleet *, int, int, int64_t, FILE *), const struct fleet *f,
		int64_t now_ms)
{
	static char *text;
	size_t n;
	FILE *fp;

	free(text);
	fp = open_memstream(&text, &n);
	assert_non_null(fp);
	fn(f, -1, 120, now_ms, fp);
	assert_int_equal(fclose(fp), 0);
	return text;
}

void
fixture_sql(const char *path, const char *sql)
{
	sqlite3 *w = NULL;
	char *err = NULL;

	if (sqlite3_open(path, &w) != SQLITE_OK)
		fail_msg("%s: %s", path, sqlite3_errmsg(w));
	if (sqlite3_exec(w, sql, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("%s: %s", sql, err);
	assert_int_equal(sqlite3_close(w), SQLITE_OK);
}
