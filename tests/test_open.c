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
	char *file;

	(void)state;
	assert_true(open_call_file(f->m, 0, &path, &line, &why));
	assert_string_equal(path.p, "/w/src/a.c");
	assert_int_equal(line, 40);
	buf_reset(&path);
	assert_true(open_call_file(f->m, 1, &path, &line, &why));
	assert_string_equal(path.p, "/abs/b.c");
	assert_int_equal(line, 8);
	buf_reset(&path);
	assert_false(open_call_file(f->m, 2, &path, &line, &why));
	assert_string_equal(why.p, "a shell call names no file to open");
	assert_int_equal(path.n, 0);
	fixture_free(f);

	/* Claude Code: the range it read; the edit's structured patch. */
	f = fixture_recording("claude-read", 0);
	buf_reset(&path);
	assert_true(open_call_file(f->m, 0, &path, &line, &why));
	assert_string_equal(path.p, "/tmp/agentview-agents.PvsWk5/claude-read/work/notes.txt");
	assert_int_equal(line, 1);
	fixture_free(f);
	f = fixture_recording("claude-edit", 0);
	buf_reset(&path);
	assert_true(open_call_file(f->m, 1, &path, &line, &why));
	assert_string_equal(path.p, "/tmp/agentview-agents.PvsWk5/claude-edit/work/greet.txt");
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
	assert_true(open_call_file(f->m, 0, &path, &line, &why));
	assert_string_equal(path.p, file);
	assert_int_equal(line, 3);
	/* Gemini CLI's offset counts from 0. */
	assert_true(open_call_file(f->m, 1, &path, &line, &why));
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

/* The editor's command line: +LINE for the editors that take it, -g for
 * VS Code; the file an argument of its own, whatever it holds. */
static void
test_argv(void **state)
{
	static const char hostile[] = "a b;$(touch /tmp/agentview-pwned)'\"`x`\n.c";
	char **argv;
	char *out;

	(void)state;
	argv = open_argv("vim", "f.c", 12);
	assert_string_equal(argv[0], "/bin/sh");
	assert_string_equal(argv[1], "-c");
	assert_string_equal(argv[2], "vim \"$@\"");
	assert_string_equal(argv[3], "vim");
	assert_string_equal(argv[4], "+12");
	assert_string_equal(argv[5], "f.c");
	assert_null(argv[6]);
	open_argv_free(argv);
	argv = open_argv("/usr/bin/nvim", "f.c", 0);
	assert_string_equal(argv[4], "f.c");
	assert_null(argv[5]);
	open_argv_free(argv);
	argv = open_argv("code -w", "f.c", 3);
	assert_string_equal(argv[2], "code -w \"$@\"");
	assert_string_equal(argv[4], "-g");
	assert_string_equal(argv[5], "f.c:3");
	open_argv_free(argv);
	argv = open_argv("ed", "f.c", 3);
	assert_string_equal(argv[4], "f.c");
	assert_null(argv[5]);
	open_argv_free(argv);
	/* Run through the shell: the words of the program split, the file
	 * passed whole, never read by the shell. */
	argv = open_argv("printf '<%s>\\n' first", hostile, 0);
	out = run(argv);
	assert_string_equal(out, "<first>\n<a b;$(touch /tmp/agentview-pwned)'\"`x`\n.c>\n");
	assert_int_equal(access("/tmp/agentview-pwned", F_OK), -1);
	free(out);
	open_argv_free(argv);
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
		cmocka_unit_test(test_diff_line), cmocka_unit_test(test_call_file),
		cmocka_unit_test(test_argv),      cmocka_unit_test(test_program_found),
		cmocka_unit_test(test_temp),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
