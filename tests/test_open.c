/* test_open.c: the file and line e opens, and the command lines that run
 * the editor and the pager. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "open.h"

/* The first changed line of a diff, in the new file. */
static void
test_diff_line(void **state)
{
	static const struct {
		const char *diff;
		int64_t line;
	} cases[] = {
		{"@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n", 2},
		{"--- a/x\n+++ b/x\n@@ -10 +12 @@\n+x\n", 12},
		{"@@ -0,0 +1,2 @@\n+a\n+b\n", 1},
		{"@@ -4,4 +4,3 @@\n a\n\n b\n-c\n", 7},
		{"no hunk\n+not counted\n", 0},
		{"", 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		assert_int_equal(open_diff_line(cases[i].diff, strlen(cases[i].diff)),
				 cases[i].line);
}

/* A scratch directory of the test's own, with a file in it. */
static char *
scratch(const char *name, const char *text)
{
	char dir[] = "/tmp/agentview-test-open.XXXXXX";
	char *path;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	path = malloc(strlen(dir) + strlen(name) + 2);
	sprintf(path, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Remove what scratch made. */
static void
scratch_free(char *path)
{
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	free(path);
}

/* The file and line of each kind of call, from each agent's stream. */
static void
test_call_file(void **state)
{
	static const char cursor[] =
		"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"cwd\":\"/w/\"}\n"
		"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c1\","
		"\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"./src/a.c\",\"offset\":40}}}}\n"
		"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c2\","
		"\"tool_call\":{\"editToolCall\":{\"args\":{\"path\":\"/abs/b.c\"},\"result\":{\"success\":"
		"{\"path\":\"/abs/b.c\",\"diffString\":\"@@ -7,3 +7,3 @@\\n x\\n-y\\n+z\\n\"}}}}}\n"
		"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c3\","
		"\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"ls\"}}}}\n";
	struct fixture *f = fixture_new(cursor, sizeof cursor - 1, 0);
	struct buf path = {0}, why = {0};
	int64_t line;
	bool abs;
	char *file;

	(void)state;
	assert_true(open_call_file(f->m, 0, &path, &abs, &line, &why));
	assert_string_equal(path.p, "/w/src/a.c");
	assert_true(abs);
	assert_int_equal(line, 40);
	buf_reset(&path);
	assert_true(open_call_file(f->m, 1, &path, &abs, &line, &why));
	assert_string_equal(path.p, "/abs/b.c");
	assert_int_equal(line, 8);
	buf_reset(&path);
	assert_false(open_call_file(f->m, 2, &path, &abs, &line, &why));
	assert_string_equal(why.p, "a shell call names no file to open");
	assert_int_equal(path.n, 0);
	fixture_free(f);

	/* Claude Code: the range it read; the edit's structured patch. */
	f = fixture_recording("claude-read", 0);
	buf_reset(&path);
	assert_true(open_call_file(f->m, 0, &path, &abs, &line, &why));
	assert_string_equal(path.p, "/tmp/agentview-agents.aTlj5y/claude-read/work/notes.txt");
	assert_int_equal(line, 1);
	fixture_free(f);
	f = fixture_recording("claude-edit", 0);
	buf_reset(&path);
	assert_true(open_call_file(f->m, 1, &path, &abs, &line, &why));
	assert_string_equal(path.p, "/tmp/agentview-agents.aTlj5y/claude-edit/work/greet.txt");
	assert_int_equal(line, 1);
	fixture_free(f);

	/* Gemini CLI: a replace has no diff: where its new text is now. */
	file = scratch("greet.txt", "first\nsecond\nhello there\nbye\n");
	{
		struct buf t = {0};

		buf_addf(&t,
			 "{\"type\":\"init\",\"session_id\":\"g\",\"model\":\"m\"}\n"
			 "{\"type\":\"tool_use\",\"tool_name\":\"replace\",\"tool_id\":\"r1\","
			 "\"parameters\":{\"file_path\":\"%s\",\"old_string\":\"hello\","
			 "\"new_string\":\"hello there\\nbye\"}}\n"
			 "{\"type\":\"tool_use\",\"tool_name\":\"read_file\",\"tool_id\":\"r2\","
			 "\"parameters\":{\"file_path\":\"%s\",\"offset\":0}}\n",
			 file, file);
		f = fixture_new(t.p, t.n, 0);
		buf_free(&t);
	}
	buf_reset(&path);
	assert_true(open_call_file(f->m, 0, &path, &abs, &line, &why));
	assert_string_equal(path.p, file);
	assert_int_equal(line, 3);
	/* Gemini CLI's offset counts from 0. */
	assert_true(open_call_file(f->m, 1, &path, &abs, &line, &why));
	assert_int_equal(line, 1);
	assert_int_equal(open_find_line(file, "\nbye\n", 5), 4);
	assert_int_equal(open_find_line(file, "absent", 6), 0);
	fixture_free(f);
	scratch_free(file);
	assert_int_equal(open_find_line("/nonexistent/agentview", "x", 1), 0);
	buf_free(&path);
	buf_free(&why);
}

/* Run argv with stdout to a pipe; what it printed. */
static char *
run(char **argv)
{
	int fd[2], st;
	pid_t pid;
	struct buf out = {0};
	char chunk[256];
	ssize_t n;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	while ((n = read(fd[0], chunk, sizeof chunk)) > 0)
		buf_add(&out, chunk, (size_t)n);
	close(fd[0]);
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	buf_addc(&out, '\0');
	return out.p;
}

/* The one builder of an editor's argv, as a table: each editor known
 * (and one that is not) by each shape of path, with a line and without.
 * What follows sh -c 'PROGRAM "$@"' PROGRAM, the arguments joined by |. */
static void
test_argv_table(void **state)
{
	static const struct {
		const char *program, *file;
		int64_t line;
		const char *args;
	} cases[] = {
		/* vim's parser: +LINE an option, everything after -- a file. */
		{"vim", "/abs/f.c", 12, "+12|--|/abs/f.c"},
		{"vim", "/abs/f.c", 0, "--|/abs/f.c"},
		{"vim", "+!touch x", 3, "+3|--|./+!touch x"},
		{"vim", "-c touch x", 3, "+3|--|./-c touch x"},
		{"vim", "scp://host/x", 0, "--|./scp://host/x"},
		{"/usr/bin/nvim -u NONE", "f.c", 7, "+7|--|./f.c"},
		{"vi", "./f.c", 2, "+2|--|./f.c"},
		{"view", "../f.c", 2, "+2|--|./../f.c"},
		{"emacs -nw", "-l evil.el", 4, "+4|--|./-l evil.el"},
		{"hx", "/a", 9, "+9|--|/a"},
		{"helix", "+5", 0, "--|./+5"},
		{"kak", "-e x", 1, "+1|--|./-e x"},
		/* getopt's and Go's flag: -- first, +LINE an operand. */
		{"nano", "+!x", 3, "--|+3|./+!x"},
		{"nano", "-", 0, "--|./-"},
		{"micro", "/a", 5, "--|+5|/a"},
		{"micro", "-config-dir=/tmp", 0, "--|./-config-dir=/tmp"},
		{"emacsclient -t", "/a", 8, "--|+8|/a"},
		/* +LINE, no -- known: the path's shape alone. */
		{"pico", "+x", 3, "+3|./+x"},
		/* VS Code and its kin: -g FILE:LINE, FILE never an option. */
		{"code -w", "/a/f.c", 3, "-g|/a/f.c:3"},
		{"code", "-x", 3, "-g|./-x:3"},
		{"cursor", "--disable-extensions", 0, "./--disable-extensions"},
		/* A program not known: no line, no --. */
		{"ed", "f.c", 3, "./f.c"},
		{"ed", "-s", 0, "./-s"},
		/* The pager. */
		{"less -R", "/tmp/agentview-x", 0, "--|/tmp/agentview-x"},
		{"less", "+!sh", 0, "--|./+!sh"},
		{"more", "-d", 0, "./-d"},
	};
	struct buf got = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char **argv = open_argv(cases[i].program, cases[i].file, cases[i].line);

		assert_string_equal(argv[0], "/bin/sh");
		assert_string_equal(argv[1], "-c");
		assert_string_equal(argv[3], cases[i].program);
		buf_reset(&got);
		for (char **a = argv + 4; *a != NULL; a++)
			buf_addf(&got, "%s%s", a == argv + 4 ? "" : "|", *a);
		if (strcmp(got.p, cases[i].args) != 0)
			fail_msg("case %zu, %s: got %s, want %s", i, cases[i].program, got.p,
				 cases[i].args);
		open_argv_free(argv);
	}
	buf_free(&got);
}

/* The editor's command line run through the shell: the words of the
 * program split, the file passed whole, never read by the shell. */
static void
test_argv(void **state)
{
	static const char hostile[] = "a b;$(touch /tmp/agentview-pwned)'\"`x`\n.c";
	char **argv;
	char *out;

	(void)state;
	argv = open_argv("vim", "f.c", 12);
	assert_string_equal(argv[2], "vim \"$@\"");
	open_argv_free(argv);
	argv = open_argv("printf '<%s>\\n' first", hostile, 0);
	out = run(argv);
	assert_string_equal(out, "<first>\n<./a b;$(touch /tmp/agentview-pwned)'\"`x`\n.c>\n");
	assert_int_equal(access("/tmp/agentview-pwned", F_OK), -1);
	free(out);
	open_argv_free(argv);
}

/* Where a stream's path is, for each agent's carrier: absolute against
 * an absolute folder the session says; left relative (and said so) when
 * the session says none (Gemini CLI, Codex) or one that is not absolute. */
static void
test_resolve(void **state)
{
#define CURSOR(cwd, path) \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"cwd\":\"" cwd "\"}\n" \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c1\",\"tool_call\":" \
	"{\"readToolCall\":{\"args\":{\"path\":\"" path "\"}}}}\n"
#define CLAUDE(cwd, path) \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"cwd\":\"" cwd "\"," \
	"\"tools\":[],\"claude_code_version\":\"2.1.0\",\"model\":\"M\"}\n" \
	"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":" \
	"\"tool_use\",\"id\":\"t1\",\"name\":\"Read\",\"input\":{\"file_path\":\"" path "\"}}]}," \
	"\"parent_tool_use_id\":null,\"session_id\":\"s\"}\n"
#define GEMINI(path) \
	"{\"type\":\"init\",\"session_id\":\"g\",\"model\":\"m\"}\n" \
	"{\"type\":\"tool_use\",\"tool_name\":\"read_file\",\"tool_id\":\"r1\"," \
	"\"parameters\":{\"file_path\":\"" path "\"}}\n"
#define CODEX(path) \
	"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n" \
	"{\"type\":\"item.completed\",\"item\":{\"id\":\"item_3\",\"type\":\"file_change\"," \
	"\"changes\":[{\"path\":\"" path "\",\"kind\":\"update\"}],\"status\":\"completed\"}}\n"
	static const struct {
		const char *text, *path;
		bool abs;
	} cases[] = {
		{CURSOR("/w", "-c touch x"), "/w/-c touch x", true},
		{CURSOR("/w/", "./+!x"), "/w/+!x", true},
		{CURSOR("-", "x"), "x", false},
		{CURSOR("/w", "/etc/hosts"), "/etc/hosts", true},
		/* The path only in the result (an edit's). */
		{"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"cwd\":\"-\"}\n"
		 "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c2\","
		 "\"tool_call\":{\"editToolCall\":{\"args\":{},\"result\":{\"success\":"
		 "{\"path\":\"+!x\"}}}}}\n",
		 "+!x", false},
		{CLAUDE("+!touch x", "f.c"), "f.c", false},
		{CLAUDE("", "f.c"), "f.c", false},
		{CLAUDE("/w", "+12"), "/w/+12", true},
		{GEMINI("+!touch x"), "+!touch x", false},
		{GEMINI("/abs/+x"), "/abs/+x", true},
		{CODEX("-rf"), "-rf", false},
		{CODEX("/w/a.c"), "/w/a.c", true},
	};
	struct buf path = {0}, why = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fixture *f = fixture_new(cases[i].text, strlen(cases[i].text), 0);
		int64_t line;
		bool abs;

		buf_reset(&path);
		assert_true(open_call_file(f->m, 0, &path, &abs, &line, &why));
		if (strcmp(path.p, cases[i].path) != 0 || abs != cases[i].abs)
			fail_msg("case %zu: got %s (%s), want %s", i, path.p,
				 abs ? "absolute" : "relative", cases[i].path);
		fixture_free(f);
	}
	buf_free(&path);
	buf_free(&why);
#undef CURSOR
#undef CLAUDE
#undef GEMINI
#undef CODEX
}

/* A relative path made absolute in agentview's own folder, once the
 * person said yes. */
static void
test_here(void **state)
{
	char dir[] = "/tmp/agentview-test-here.XXXXXX", *old = getcwd(NULL, 0), *real;
	struct buf d = {0}, out = {0}, want = {0};

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chdir(dir), 0);
	real = getcwd(NULL, 0);
	assert_true(open_here("./+!touch x", 11, &d, &out));
	assert_string_equal(d.p, real);
	buf_addf(&want, "%s/+!touch x", real);
	assert_string_equal(out.p, want.p);
	assert_int_equal(chdir(old), 0);
	rmdir(dir);
	free(old);
	free(real);
	buf_free(&d);
	buf_free(&out);
	buf_free(&want);
}

/* A FIFO where the stream says the edited file is: not waited on (the
 * screen would hang), no line. */
static void
test_find_line_fifo(void **state)
{
	char dir[] = "/tmp/agentview-test-fifo.XXXXXX";
	struct buf p = {0};

	(void)state;
	assert_non_null(mkdtemp(dir));
	buf_addf(&p, "%s/fifo", dir);
	assert_int_equal(mkfifo(p.p, 0600), 0);
	assert_int_equal(open_find_line(p.p, "x", 1), 0);
	assert_int_equal(open_find_line("/dev/zero", "x", 1), 0);
	unlink(p.p);
	rmdir(dir);
	buf_free(&p);
}

/* A missing editor is told before the screen is handed over. */
static void
test_program_found(void **state)
{
	struct buf name = {0};

	(void)state;
	assert_true(open_program_found("sh -c true", &name));
	assert_string_equal(name.p, "sh");
	assert_false(open_program_found("  agentview-no-such-editor --wait", &name));
	assert_string_equal(name.p, "agentview-no-such-editor");
	assert_true(open_program_found("/bin/sh", &name));
	assert_false(open_program_found("/nonexistent/vi", &name));
	/* Only a shell could tell. */
	assert_true(open_program_found("\"my editor\" -x", &name));
	assert_true(open_program_found("FOO=1 vi", &name));
	setenv("VISUAL", " ", 1);
	setenv("EDITOR", "nano", 1);
	assert_string_equal(open_editor(), "nano");
	setenv("VISUAL", "vim", 1);
	assert_string_equal(open_editor(), "vim");
	unsetenv("VISUAL");
	unsetenv("EDITOR");
	assert_string_equal(open_editor(), "vi");
	unsetenv("PAGER");
	assert_string_equal(open_pager(), "less");
	buf_free(&name);
}

/* The pager's file: private, holding the bytes given. */
static void
test_temp(void **state)
{
	struct buf path = {0}, err = {0};
	struct stat st;
	size_t n;
	char *back;

	(void)state;
	assert_int_equal(open_temp("out\033[31m\n", 9, &path, &err), 0);
	assert_int_equal(stat(path.p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	back = fixture_slurp(path.p, &n);
	assert_bytes_equal(back, n, "out\033[31m\n");
	free(back);
	unlink(path.p);
	setenv("TMPDIR", "/nonexistent/agentview", 1);
	assert_int_equal(open_temp("x", 1, &path, &err), -1);
	assert_non_null(strstr(err.p, "cannot make a file in /nonexistent/agentview"));
	unsetenv("TMPDIR");
	buf_free(&path);
	buf_free(&err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_line),      cmocka_unit_test(test_call_file),
		cmocka_unit_test(test_argv_table),     cmocka_unit_test(test_argv),
		cmocka_unit_test(test_resolve),        cmocka_unit_test(test_here),
		cmocka_unit_test(test_find_line_fifo), cmocka_unit_test(test_program_found),
		cmocka_unit_test(test_temp),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
