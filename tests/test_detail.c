/* test_detail.c: the rows of a tool call's detail, per kind. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "detail.h"
#include "redact.h"
#include "theme.h"

/* The model of text, read to its end, and the detail of its calls. */
static struct fixture *
load(const char *text)
{
	return fixture_new(text, strlen(text), FX_DETAIL);
}

/* Every row as the screen shows it (indent as spaces), one per line. */
static char *
rows(const struct detail *d)
{
	struct buf b = {0};

	for (size_t i = 0; i < d->nrow; i++) {
		const struct drow *r = &d->row[i];

		for (int k = 0; k < r->indent; k++)
			buf_addc(&b, ' ');
		buf_add(&b, d->text.p + r->off, r->len);
		buf_addc(&b, '\n');
		/* A row never passes the width. */
		assert_true(r->indent + r->width <= d->width);
		assert_true(r->lead <= r->len);
	}
	buf_addc(&b, '\0');
	return b.p;
}

/* The rows of the detail of the fixture's first call at width w. */
static char *
built(struct fixture *f, int w)
{
	detail_build(&f->d, 0, w, false);
	return rows(&f->d);
}

/* The row whose text starts with s. */
static const struct drow *
row_starting(const struct detail *d, const char *s)
{
	for (size_t i = 0; i < d->nrow; i++)
		if (d->row[i].len >= strlen(s) &&
		    memcmp(d->text.p + d->row[i].off, s, strlen(s)) == 0)
			return &d->row[i];
	fail_msg("no row starts with '%s'", s);
	return NULL;
}

#define INIT \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"model\":\"M\",\"cwd\":\"/w\"}\n"
#define STARTED(kind, args) \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c1\"," \
	"\"tool_call\":{\"" kind "\":{\"args\":" args "}}}\n"
#define COMPLETED(kind, result) \
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\"," \
	"\"tool_call\":{\"" kind "\":{\"result\":" result "}}}\n"

static void
test_shell(void **state)
{
	struct fixture *f = load(
		INIT STARTED("shellToolCall",
			     "{\"command\":\"make test\",\"workingDirectory\":\"/w\"}")
			COMPLETED(
				"shellToolCall",
				"{\"failure\":{\"exitCode\":2,\"signal\":\"\","
				"\"stdout\":\"ok 1\\nnot ok 2\\n\",\"stderr\":\"\\u001b[31mboom\\u001b[0m\","
				"\"executionTime\":1200,\"aborted\":false}}"));
	char *s;

	(void)state;
	s = built(f, 40);
	assert_string_equal(s, "\xE2\x9C\x97 Shell `make test` \xE2\x86\x92 exit 2\n"
			       "\n"
			       "kind        shell (shellToolCall)\n"
			       "state       failed\n"
			       "call id     c1\n"
			       "command     make test\n"
			       "directory   /w\n"
			       "exit code   2\n"
			       "run time    1200 ms\n"
			       "\n"
			       "stdout\n"
			       "ok 1\n"
			       "not ok 2\n"
			       "\n"
			       "stderr\n"
			       /* Escape sequences are shown, never sent. */
			       "^[[31mboom^[[0m\n");
	free(s);
	assert_int_equal(f->d.row[0].role, ROLE_TOOL_FAILED);
	assert_int_equal(row_starting(&f->d, "stdout")->role, ROLE_TITLE);
	assert_int_equal(row_starting(&f->d, "command")->lead, 12);
	/* The same call, no longer stale; another width is. */
	assert_false(detail_stale(&f->d, 40));
	assert_true(detail_stale(&f->d, 41));
	fixture_free(f);
}

/* What a search looks in: the rows of the call's own text, not the
 * detail's words (the lines every call has, headings, labels); a line
 * wrapped into rows reads whole, the spaces of its breaks kept between
 * them; built plain, the same lines as the stream has them. */
static void
test_searched_rows(void **state)
{
	struct fixture *f = load(INIT STARTED("shellToolCall", "{\"command\":\"make test\"}") COMPLETED(
		"shellToolCall",
		"{\"failure\":{\"exitCode\":2,\"signal\":\"\","
		"\"stdout\":\"one two   three four\\nfive\",\"stderr\":\"\\u001b[31mboom\"}}"));
	const struct drow *r;
	struct buf scratch = {0};
	size_t first, end, a, b, i;
	struct detail plain;

	(void)state;
	free(built(f, 16));
	/* The header and the headings are quiet. */
	for (i = 0; i < f->d.nrow; i++) {
		r = &f->d.row[i];
		if (i < 5 || r->role == ROLE_TITLE)
			assert_true(r->flags & DROW_QUIET);
	}
	/* The command's value is searched, its label is not. */
	r = row_starting(&f->d, "command");
	assert_false(r->flags & DROW_QUIET);
	assert_true(detail_line(&f->d, (size_t)(r - f->d.row), &first, &end, &a, &b));
	assert_int_equal(b - a, strlen("make test"));
	assert_memory_equal(f->d.text.p + a, "make test", b - a);
	assert_string_equal(detail_part(&f->d, first, &scratch), "command");
	/* "one two   three four" at 16 cells: rows "one two   three", "four"
	 * or so, one line. */
	r = row_starting(&f->d, "one");
	i = (size_t)(r - f->d.row);
	assert_true(detail_line(&f->d, i, &first, &end, &a, &b));
	assert_int_equal(first, i);
	assert_true(end > i + 1);
	assert_true(f->d.row[i + 1].flags & DROW_CONT);
	assert_int_equal(b - a, strlen("one two   three four"));
	assert_memory_equal(f->d.text.p + a, "one two   three four", b - a);
	assert_string_equal(detail_part(&f->d, i + 1, &scratch), "stdout");
	/* The next line is another. */
	assert_false(f->d.row[end].flags & DROW_CONT);
	assert_memory_equal(f->d.text.p + f->d.row[end].off, "five", 4);
	assert_false(detail_line(&f->d, 0, &first, &end, &a, &b));
	/* Plain: the searched lines as they are, and the call described. */
	detail_init(&plain, f->m);
	plain.plain = true;
	detail_build(&plain, 0, 0, false);
	assert_int_equal(plain.nrow, 1);
	assert_int_equal(plain.nsec, 0);
	buf_addc(&plain.text, '\0');
	assert_string_equal(plain.text.p,
			    "make test\n2\none two   three four\nfive\n\x1b[31mboom\n");
	assert_memory_equal(plain.td.what.p, "make test", 9);
	detail_free(&plain);
	buf_free(&scratch);
	fixture_free(f);
}

/* A read: its content numbered from the first line read. */
static void
test_read(void **state)
{
	struct fixture *f =
		load(INIT STARTED("readToolCall", "{\"path\":\"a.c\",\"offset\":9}") COMPLETED(
			"readToolCall",
			"{\"success\":{\"content\":\"int x;\\r\\n\\tint y;\\nreturn 0;\","
			"\"totalLines\":40,\"readRange\":{\"startLine\":9,\"endLine\":11}}}"));
	char *s;

	(void)state;
	s = built(f, 30);
	assert_non_null(strstr(s, "path        a.c\n"
				  "lines       9-11\n"
				  "total lines 40\n"
				  "\n"
				  "content\n"
				  /* A CR before the newline is not shown; a tab expands. */
				  " 9 \xE2\x94\x82 int x;\n"
				  "10 \xE2\x94\x82         int y;\n"
				  "11 \xE2\x94\x82 return 0;\n"));
	/* The line number is the dim lead of its row. */
	assert_int_equal(row_starting(&f->d, " 9 ")->lead, strlen(" 9 \xE2\x94\x82 "));
	free(s);
	fixture_free(f);
}

/* Kinds whose detail ends in a part of their own: an edit with before
 * and after but no diffString, its diff computed; grep's matches grouped
 * by file, context lines marked as grep does. The rows from the part's
 * first line on, a field row above it, and the roles of the part's rows. */
static void
test_kind_parts(void **state)
{
	static const struct {
		const char *text;
		int width;
		const char *from, *part, *field;
		struct {
			const char *start;
			enum role role;
		} roles[3];
	} cases[] = {
		{INIT STARTED("editToolCall", "{\"path\":\"b.txt\"}") COMPLETED(
			 "editToolCall",
			 "{\"success\":{\"path\":\"b.txt\",\"linesAdded\":1,\"linesRemoved\":1,"
			 "\"beforeFullFileContent\":\"one\\ntwo\\nthree\\n\","
			 "\"afterFullFileContent\":\"one\\n2\\nthree\\n\"}}"),
		 60,
		 "\ndiff (computed",
		 "\ndiff (computed from the file before and after)\n"
		 "--- a/b.txt\n"
		 "+++ b/b.txt\n"
		 "@@ -1,3 +1,3 @@\n"
		 " one\n"
		 "-two\n"
		 "+2\n"
		 " three\n",
		 "lines       +1 \xE2\x88\x92"
		 "1\n",
		 {{"-two", ROLE_TOOL_FAILED}, {"+2", ROLE_TOOL_OK}, {"@@", ROLE_SESSION}}},
		{INIT STARTED("grepToolCall", "{\"pattern\":\"TODO\"}") COMPLETED(
			 "grepToolCall",
			 "{\"success\":{\"pattern\":\"TODO\",\"outputMode\":\"content\","
			 "\"workspaceResults\":{\"/w\":{\"content\":{\"matches\":["
			 "{\"file\":\"a.js\",\"matches\":[{\"lineNumber\":9,\"content\":\"x\",\"isContextLine\":true},"
			 "{\"lineNumber\":10,\"content\":\"// TODO a\",\"isContextLine\":false}]},"
			 "{\"file\":\"b.js\",\"matches\":[{\"lineNumber\":3,\"content\":\"// TODO b\"}]}],"
			 "\"totalMatchedLines\":2}}}}}"),
		 40,
		 "\na.js\n",
		 "\na.js\n"
		 "   9- x\n"
		 "  10: // TODO a\n"
		 "\n"
		 "b.js\n"
		 "  3: // TODO b\n",
		 "pattern     TODO\nmode        content\nmatched     2 lines\n",
		 {{"a.js", ROLE_TITLE}}},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fixture *f = load(cases[i].text);
		char *s, *part;

		detail_build(&f->d, 0, cases[i].width, false);
		s = rows(&f->d);
		part = strstr(s, cases[i].from);
		assert_non_null(part);
		assert_string_equal(part, cases[i].part);
		for (size_t k = 0; k < ARRAY_LEN(cases[i].roles) && cases[i].roles[k].start; k++)
			assert_int_equal(row_starting(&f->d, cases[i].roles[k].start)->role,
					 cases[i].roles[k].role);
		assert_non_null(strstr(s, cases[i].field));
		free(s);
		fixture_free(f);
	}
}

/* A kind nobody documented: arguments and result as indented JSON. */
static void
test_unknown_kind(void **state)
{
	struct fixture *f = load(INIT STARTED("frobToolCall", "{\"target\":\"x\",\"n\":[1,2]}")
					 COMPLETED("frobToolCall", "{\"success\":{\"ok\":true}}"));
	char *s;

	(void)state;
	s = built(f, 40);
	assert_string_equal(s, "\xE2\x9C\x93 frob target: x \xC2\xB7 ok\n"
			       "\n"
			       "kind        other (frobToolCall)\n"
			       "state       ok\n"
			       "call id     c1\n"
			       "\n"
			       "arguments\n"
			       "  {\n"
			       "    \"target\": \"x\",\n"
			       "    \"n\": [\n"
			       "      1,\n"
			       "      2\n"
			       "    ]\n"
			       "  }\n"
			       "\n"
			       "result\n"
			       "  {\n"
			       "    \"success\": {\n"
			       "      \"ok\": true\n"
			       "    }\n"
			       "  }\n");
	free(s);
	fixture_free(f);
}

/* Rejected, error, todos, the raw JSON of both events. */
static void
test_states_and_raw(void **state)
{
	struct fixture *f = load(INIT COMPLETED(
		"shellToolCall",
		"{\"rejected\":{\"command\":\"rm -rf /\",\"reason\":\"\"}}") "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c2\","
									     "\"tool_call\":{\"updateTodosToolCall\":{\"args\":{\"todos\":["
									     "{\"content\":\"write\",\"status\":\"TODO_STATUS_COMPLETED\"},"
									     "{\"content\":\"test\",\"status\":\"TODO_STATUS_IN_PROGRESS\"},"
									     "{\"content\":\"ship\",\"status\":\"TODO_STATUS_PENDING\"}]}}}}\n");
	char *s;

	(void)state;
	s = built(f, 80);
	assert_non_null(strstr(s, "state       rejected (no started event)\n"));
	assert_non_null(strstr(
		s,
		"\nrejected\nreason      (none given: without --force, shell commands are rejected)\n"
		"command     rm -rf /\n"));
	free(s);
	/* The todos of a call still open when the input ended. */
	detail_build(&f->d, 1, 80, false);
	s = rows(&f->d);
	assert_non_null(strstr(s, "state       orphaned\n"));
	assert_non_null(strstr(
		s, "\ntodos\n  \xE2\x9C\x93 write\n  \xE2\x96\xB8 test\n  \xE2\x97\x8B ship\n"));
	assert_int_equal(row_starting(&f->d, "\xE2\x96\xB8")->role, ROLE_RUNNING);
	free(s);
	/* Raw: both events, pretty, with their line numbers. */
	detail_build(&f->d, 1, 80, true);
	s = rows(&f->d);
	assert_non_null(strstr(s, "\nstarted event, line 3\n  {\n    \"type\": \"tool_call\",\n"));
	assert_non_null(strstr(s, "\nno completed event\n"));
	free(s);
	fixture_free(f);
}

/* The raw JSON wrapped at a narrow width: a line's rows after its first
 * stand at its indentation, not at the left margin. */
static void
test_raw_wrap_indented(void **state)
{
	struct fixture *f = load(INIT STARTED(
		"shellToolCall", "{\"command\":\"echo aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd "
				 "eeeeeeeeee ffffffffff gggggggggg\"}"));
	size_t line = 0, conts = 0;

	(void)state;
	detail_build(&f->d, 0, 40, true);
	for (size_t i = 0; i < f->d.nrow; i++) {
		const struct drow *r = &f->d.row[i];
		size_t at = r->indent;

		for (size_t k = 0; k < r->len && f->d.text.p[r->off + k] == ' '; k++)
			at++;
		if (!(r->flags & DROW_CONT)) {
			line = at;
			continue;
		}
		conts++;
		if (at != line)
			fail_msg(
				"row %zu: a wrapped line goes on at %zu cells, its first row at %zu",
				i, at, line);
	}
	assert_true(conts > 0);
	fixture_free(f);
}

/* A huge output stays bounded and every row fits. */
static void
test_large_output(void **state)
{
	size_t big = 3u << 20;
	struct buf t = {0};
	struct fixture *f;
	char *s;

	(void)state;
	buf_adds(
		&t,
		INIT STARTED(
			"shellToolCall",
			"{\"command\":\"yes\"}") "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\","
						 "\"tool_call\":{\"shellToolCall\":{\"result\":{\"success\":{\"exitCode\":0,\"stdout\":\"");
	for (size_t i = 0; i < big / 4; i++)
		buf_adds(&t, "y\\ny");
	buf_adds(&t, "\"}}}}}\n");
	f = load(t.p);
	detail_build(&f->d, 0, 80, false);
	/* One row per line of output, and no more text than was there. */
	assert_true(f->d.nrow > big / 4);
	assert_true(f->d.text.n < 2 * big);
	s = rows(&f->d);
	free(s);
	fixture_free(f);
	buf_free(&t);
}

/* An output larger than the detail holds: cut, with a row that says so. */
static void
test_cut(void **state)
{
	size_t big = DETAIL_MAX_BYTES + (1u << 20);
	struct buf t = {0};
	struct fixture *f;

	(void)state;
	buf_adds(
		&t,
		INIT STARTED(
			"shellToolCall",
			"{\"command\":\"yes\"}") "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\","
						 "\"tool_call\":{\"shellToolCall\":{\"result\":{\"success\":{\"exitCode\":0,\"stdout\":\"");
	buf_reserve(&t, big + 256);
	for (size_t i = 0; i < big / 64; i++)
		buf_adds(&t, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\\n");
	buf_adds(&t, "\"}}}}}\n");
	f = load(t.p);
	buf_free(&t);
	detail_build(&f->d, 0, 80, false);
	/* The stdout is decoded no further than the detail holds, and its
	 * last row says what is left out. */
	assert_true(f->d.text.n <= DETAIL_MAX_BYTES + 256);
	assert_true(f->d.nrow > 1000);
	assert_memory_equal(f->d.text.p + f->d.row[f->d.nrow - 1].off, "\xE2\x80\xA6 cut", 7);
	/* The raw JSON is cut too, not indented. */
	detail_build(&f->d, 0, 80, true);
	assert_true(f->d.cut);
	assert_true(f->d.text.n <= DETAIL_MAX_BYTES + 256);
	assert_int_equal(f->d.row[f->d.nrow - 1].role, ROLE_DIM);
	assert_memory_equal(f->d.text.p + f->d.row[f->d.nrow - 1].off,
			    "\xE2\x80\xA6 cut: the detail holds at most 16.0 MB; ", 43);
	fixture_free(f);
}

/* A detail made to hold less (the HTML page's): cut there, on a code
 * point, and its last row says how much more there was, counting the
 * sections that did not fit at all. */
static void
test_budget(void **state)
{
	struct buf t = {0};
	struct fixture *f;
	const struct drow *last;
	char *s;

	(void)state;
	buf_adds(
		&t,
		INIT STARTED(
			"shellToolCall",
			"{\"command\":\"yes\"}") "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\","
						 "\"tool_call\":{\"shellToolCall\":{\"result\":{\"success\":{\"exitCode\":0,"
						 "\"stdout\":\"");
	/* 3000 lines of "é" and 9 bytes: 33,000 bytes of stdout. */
	for (int i = 0; i < 3000; i++)
		buf_adds(&t, "\u00e9 line 67\\n");
	buf_adds(&t, "\",\"stderr\":\"0123456789\"}}}}}\n");
	f = load(t.p);
	buf_free(&t);
	f->d.max = 4096;
	detail_build(&f->d, 0, 80, false);
	assert_true(f->d.cut);
	assert_true(f->d.text.n <= 4096 + 128);
	/* What was shown and what was not make the stdout and the stderr
	 * (and the stderr's heading, which came after the cut). */
	assert_true(f->d.more > 33000 - 4096);
	assert_true(f->d.more < 33000 + 10 + 16);
	last = &f->d.row[f->d.nrow - 1];
	assert_int_equal(last->role, ROLE_DIM);
	s = xstrndup(f->d.text.p + last->off, last->len);
	assert_string_equal(
		s, "\xE2\x80\xA6 cut: the detail holds at most 4.0 KB; 28.3 KB more not shown");
	free(s);
	/* Valid UTF-8 up to the cut: no U+FFFD made by cutting an "é". */
	assert_null(strstr(f->d.text.p, "\xEF\xBF\xBD"));
	/* Built again with the screen's budget: nothing cut. */
	f->d.max = DETAIL_MAX_BYTES;
	detail_build(&f->d, 0, 80, false);
	assert_false(f->d.cut);
	assert_int_equal(f->d.more, 0);
	fixture_free(f);
}

/* In a replay the cut-off hides a completion that has not happened yet:
 * the call is running and its result is not shown, also in the raw view. */
static void
test_replay_cutoff(void **state)
{
	struct fixture *f =
		load(INIT STARTED("shellToolCall", "{\"command\":\"make test\"}")
			     COMPLETED("shellToolCall", "{\"success\":{\"exitCode\":0,"
							"\"stdout\":\"FUTURE-OUTPUT\"}}"));
	char *s;

	(void)state;
	f->m->limit = 1; /* init and started */
	s = built(f, 60);
	assert_non_null(strstr(s, "state       running"));
	assert_null(strstr(s, "FUTURE-OUTPUT"));
	free(s);
	detail_build(&f->d, 0, 60, true);
	s = rows(&f->d);
	assert_null(strstr(s, "FUTURE-OUTPUT"));
	assert_non_null(strstr(s, "no completed event"));
	free(s);
	/* Played on: the result is there. */
	f->m->limit = NONE;
	assert_true(detail_stale(&f->d, 60));
	s = built(f, 60);
	assert_non_null(strstr(s, "FUTURE-OUTPUT"));
	free(s);
	fixture_free(f);
}

/* The rows of call c's detail at width w, the model read from the file
 * at path (a real capture of recordings/). */
static char *
detail_of_file(const char *path, uint32_t c, int w, struct fixture **fp)
{
	struct fixture *f = fixture_file(path, FX_DETAIL);

	assert_true(c < f->m->ncall);
	detail_build(&f->d, c, w, false);
	*fp = f;
	return rows(&f->d);
}

/* Each row s holds, in this order (a row may hold several). */
static void
assert_in_order(const char *s, const char *const *want, size_t n)
{
	const char *at = s;

	for (size_t i = 0; i < n && want[i] != NULL; i++) {
		const char *hit = strstr(at, want[i]);

		if (hit == NULL)
			fail_msg("'%s' not found (in order) in:\n%s", want[i], s);
		at = hit + strlen(want[i]);
	}
}

/* Claude Code's calls, from real captures: an Edit's structured patch as
 * a coloured diff, a Read's file under tool_use_result, a failed Bash's
 * exit code and output from its result text, a sub-agent's answer. */
static void
test_claude(void **state)
{
	static const struct {
		const char *file;
		uint32_t call;
		const char *want[8];
		const char *never;
	} cases[] = {
		{"recordings/claude-edit.ndjson",
		 0,
		 {"path        /tmp/agentview-agents.aTlj5y/claude-edit/work/greet.txt\n"
		  "lines       1-3\ntotal lines 3\n\ncontent\n"
		  "1 \xE2\x94\x82 hello world\n2 \xE2\x94\x82 bye world\n"},
		 "tool_result"},
		{"recordings/claude-shell-ok.ndjson",
		 0,
		 {"command     echo hello\ndescription Run echo hello\n", "\nstdout\nhello\n"},
		 "(no output)"},
		{"recordings/claude-shell-fail.ndjson",
		 0,
		 {"exit code   2\n",
		  "\noutput\nExit code 2\nls: cannot access '/nonexistent': No such file or directory\n"},
		 "stdout"},
		{"recordings/claude-read-missing.ndjson",
		 0,
		 {"state       failed\n", "\noutput\nFile does not exist."},
		 "(not in the stream)"},
		{"recordings/claude-subagent.ndjson",
		 0,
		 {"description Run echo from-sub\ntype        general-purpose\n",
		  "status      completed\nrun time    256 ms\ntokens      131\ntool calls  1\n",
		  "\nprompt\nSUBAGENT: run the shell command",
		  "\nresult\n<tools-used-before-summary>Bash</tools-used-before-summary>\n"
		  "It printed from-sub.\n"},
		 /* The sub-agent's own answer, not the frame the model got. */
		 "Subagent hand-back"},
		{"recordings/claude-subagent-bg.ndjson",
		 0,
		 {"status      async_launched\nbackground  true\noutput file /tmp/",
		  "\nresult\nAsync agent launched successfully."},
		 NULL},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fixture *f;
		char *s = detail_of_file(cases[i].file, cases[i].call, 80, &f);

		assert_in_order(s, cases[i].want, ARRAY_LEN(cases[i].want));
		if (cases[i].never != NULL && strstr(s, cases[i].never) != NULL)
			fail_msg("%s: '%s' in:\n%s", cases[i].file, cases[i].never, s);
		free(s);
		fixture_free(f);
	}
}

/* A Claude Code Edit whole, as the detail pane shows it, and the roles of
 * its diff. */
static void
test_claude_edit(void **state)
{
	struct fixture *f;
	char *s = detail_of_file("recordings/claude-edit.ndjson", 1, 80, &f);

	(void)state;
	assert_string_equal(
		s,
		"\xE2\x9C\x93 Edit /tmp/agentview-agents.aTlj5y/claude-edit/work/greet.txt +1 \xE2\x88\x92"
		"1\n"
		"\n"
		"kind        edit (Edit)\n"
		"state       ok\n"
		"started     +00:00 into the session\n"
		"duration    23 ms\n"
		"call id     toolu_01AgentViewM10\n"
		"path        /tmp/agentview-agents.aTlj5y/claude-edit/work/greet.txt\n"
		"lines       +1 \xE2\x88\x92"
		"1\n"
		"\n"
		"diff\n"
		"--- a/greet.txt\n"
		"+++ b/greet.txt\n"
		"@@ -1,2 +1,2 @@\n"
		"-hello world\n"
		"+hello there\n"
		" bye world\n");
	assert_int_equal(row_starting(&f->d, "+++ b/greet.txt")->role, ROLE_DIM);
	assert_int_equal(row_starting(&f->d, "-hello")->role, ROLE_TOOL_FAILED);
	assert_int_equal(row_starting(&f->d, "+hello")->role, ROLE_TOOL_OK);
	assert_int_equal(row_starting(&f->d, "@@")->role, ROLE_SESSION);
	free(s);
	fixture_free(f);
}

/* Gemini CLI's calls, from real captures: parameters, output, the error
 * of a failed call, a replace diffed from its old and new strings. */
static void
test_gemini(void **state)
{
	static const struct {
		const char *file;
		uint32_t call;
		const char *want[6];
	} cases[] = {
		{"recordings/gemini-shell-ok.ndjson",
		 0,
		 {"command     echo hello\ndescription Run echo hello\n", "\noutput\nhello\n"}},
		{"recordings/gemini-read-missing.ndjson",
		 0,
		 {"state       failed\n", "error       File not found: \n            /tmp/",
		  "\noutput\nFile not found.\n"}},
		{"recordings/gemini-read.ndjson",
		 0,
		 /* The stream does not carry what read_file read. */
		 {"path        /tmp/", "\ncontent\n  (not in the stream)\n"}},
		{"recordings/gemini-edit.ndjson",
		 1,
		 {"instruction Replace hello world with hello there\n",
		  "\nreplace\n@@ -1 +1 @@\n-hello world\n+hello there\n"}},
		{"recordings/gemini-subagent.ndjson",
		 0,
		 {"type        generalist\n", "\nprompt\nSUBAGENT: run"}},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fixture *f;
		char *s = detail_of_file(cases[i].file, cases[i].call, 80, &f);

		assert_in_order(s, cases[i].want, ARRAY_LEN(cases[i].want));
		free(s);
		fixture_free(f);
	}
	{
		struct fixture *f;
		char *s = detail_of_file("recordings/gemini-read-missing.ndjson", 0, 80, &f);

		assert_int_equal(row_starting(&f->d, "error")->role, ROLE_TOOL_FAILED);
		free(s);
		fixture_free(f);
	}
}

/* Codex's items, from real captures: a command whole (its wrapper kept),
 * a failed one's exit code and output (a command that succeeded says no
 * exit code, as Claude Code's do: its line reads by its output), a
 * file_change's list of files, a new file's, the wait of a
 * collab_tool_call. */
static void
test_codex(void **state)
{
	static const struct {
		const char *file;
		uint32_t call;
		const char *want[4];
	} cases[] = {
		{"recordings/codex-shell-fail.ndjson",
		 0,
		 {"state       failed\n", "exit code   2\n",
		  "\noutput\nls: cannot access '/nonexistent': No such file or directory\n"}},
		{"recordings/codex-edit.ndjson",
		 1,
		 {"\nchanges\n  update  /tmp/agentview-agents.PvsWk5/codex-edit/work/greet.txt\n"
		  "  (the stream holds no diff)\n"}},
		{"recordings/codex-write-edit.ndjson",
		 0,
		 {"\xE2\x9C\x93 Write /tmp/agentview-agents.02kY5S/codex-write-edit/work/hello.py \xC2\xB7 "
		  "new file\n",
		  "kind        write (file_change)\n",
		  "\nchanges\n  add     /tmp/agentview-agents.02kY5S/codex-write-edit/work/hello.py\n"
		  "  (the stream holds no diff)\n"}},
		{"recordings/codex-subagent.ndjson",
		 0,
		 {"kind        task (collab_tool_call)\n",
		  "tool        wait\nstatus      completed\n"}},
	};
	struct fixture *f;
	char *s = detail_of_file("recordings/codex-shell-ok.ndjson", 0, 60, &f);

	(void)state;
	assert_string_equal(s, "\xE2\x9C\x93 Shell `echo hello` \xE2\x86\x92 \"hello\"\n"
			       "\n"
			       "kind        shell (command_execution)\n"
			       "state       ok\n"
			       "call id     item_2\n"
			       "command     /bin/bash -lc 'echo hello'\n"
			       "\n"
			       "output\n"
			       "hello\n");
	free(s);
	fixture_free(f);
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		s = detail_of_file(cases[i].file, cases[i].call, 80, &f);
		assert_in_order(s, cases[i].want, ARRAY_LEN(cases[i].want));
		free(s);
		fixture_free(f);
	}
}

/* Claude Code's lines: a session, a tool_use and its tool_result with the
 * rich tool_use_result beside it, as Claude Code 2.1 sends them. */
#define C_INIT \
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"model\":\"claude\"," \
	"\"cwd\":\"/w\",\"tools\":[\"Bash\"],\"claude_code_version\":\"2.1.330\"}\n"
#define C_USE(name, input) \
	"{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"role\":\"assistant\",\"content\":[" \
	"{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"" name "\",\"input\":" input "}]}," \
	"\"parent_tool_use_id\":null,\"session_id\":\"s\"}\n"
#define C_RESULT(content, rich) \
	"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"tool_use_id\":\"toolu_1\"," \
	"\"type\":\"tool_result\",\"content\":" content "}]},\"parent_tool_use_id\":null," \
	"\"session_id\":\"s\",\"tool_use_result\":" rich "}\n"
/* Codex's: a thread, an item started and completed. */
#define X_INIT "{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n{\"type\":\"turn.started\"}\n"
#define X_ITEM(ev, item) "{\"type\":\"item." ev "\",\"item\":" item "}\n"

/* The shapes of the tools no capture holds yet, each kind's detail laid
 * out from them: Claude Code's Grep, Glob, Write, MultiEdit, TodoWrite,
 * WebFetch, WebSearch, AskUserQuestion and an MCP tool; Codex's
 * mcp_tool_call, web_search and todo_list; Cursor's big read and web
 * fetch (src/FORMAT.md §3). */
static void
test_more_shapes(void **state)
{
	static const struct {
		const char *text;
		const char *want[6];
	} cases[] = {
		{C_INIT C_USE(
			 "Grep",
			 "{\"pattern\":\"TODO\",\"path\":\"/w\",\"output_mode\":\"files_with_matches\"}")
			 C_RESULT(
				 "\"Found 2 files\\na.c\\nb.c\"",
				 "{\"mode\":\"files_with_matches\",\"filenames\":[\"a.c\",\"b.c\"],\"numFiles\":2}"),
		 {"pattern     TODO\npath        /w\nmode        files_with_matches\nfiles       2\n",
		  "\nfiles\n  a.c\n  b.c\n"}},
		{C_INIT C_USE("Grep",
			      "{\"pattern\":\"TODO\",\"output_mode\":\"content\",\"-i\":true}")
			 C_RESULT(
				 "\"a.c:3:// TODO x\"",
				 "{\"mode\":\"content\",\"numFiles\":0,\"filenames\":[],\"content\":\"a.c:3:// TODO x\",\"numLines\":1}"),
		 {"ignore case true\nmode        content\n", "\nmatches\na.c:3:// TODO x\n"}},
		{C_INIT C_USE("Glob", "{\"pattern\":\"**/*.c\"}") C_RESULT(
			 "\"/w/a.c\"",
			 "{\"filenames\":[\"/w/a.c\"],\"durationMs\":5,\"numFiles\":1,\"truncated\":false}"),
		 {"pattern     **/*.c\nfiles       1\n", "\nfiles\n  /w/a.c\n"}},
		{C_INIT C_USE("Write", "{\"file_path\":\"/w/n.txt\",\"content\":\"one\\ntwo\\n\"}") C_RESULT(
			 "\"File created successfully at: /w/n.txt\"",
			 "{\"type\":\"create\",\"filePath\":\"/w/n.txt\",\"content\":\"one\\ntwo\\n\",\"structuredPatch\":[]}"),
		 {"path        /w/n.txt\n", "\ncontent\n1 \xE2\x94\x82 one\n2 \xE2\x94\x82 two\n"}},
		{C_INIT C_USE(
			 "MultiEdit",
			 "{\"file_path\":\"/w/a.c\",\"edits\":[{\"old_string\":\"a\",\"new_string\":\"b\"},"
			 "{\"old_string\":\"c\",\"new_string\":\"d\"}]}")
			 C_RESULT("\"Applied 2 edits\"", "\"Applied 2 edits\""),
		 {"path        /w/a.c\n", "\nedit 1\n@@ -1 +1 @@\n-a\n+b\n",
		  "\nedit 2\n@@ -1 +1 @@\n-c\n+d\n"}},
		{C_INIT C_USE(
			 "TodoWrite",
			 "{\"todos\":[{\"content\":\"write\",\"status\":\"completed\",\"activeForm\":\"Writing\"},"
			 "{\"content\":\"test\",\"status\":\"in_progress\",\"activeForm\":\"Testing\"},"
			 "{\"content\":\"ship\",\"status\":\"pending\",\"activeForm\":\"Shipping\"}]}")
			 C_RESULT(
				 "\"Todos have been modified successfully.\"",
				 "{\"oldTodos\":[],\"newTodos\":[{\"content\":\"write\",\"status\":\"completed\"},"
				 "{\"content\":\"test\",\"status\":\"in_progress\"},{\"content\":\"ship\",\"status\":\"pending\"}]}"),
		 {"\ntodos\n  \xE2\x9C\x93 write\n  \xE2\x96\xB8 test\n  \xE2\x97\x8B ship\n"}},
		{C_INIT C_USE("WebFetch",
			      "{\"url\":\"https://example.com\",\"prompt\":\"What is it?\"}")
			 C_RESULT(
				 "\"An example page.\"",
				 "{\"bytes\":1256,\"code\":200,\"codeText\":\"OK\",\"result\":\"An example page.\","
				 "\"durationMs\":300,\"url\":\"https://example.com\"}"),
		 {"url         https://example.com\nprompt      What is it?\nstatus      200 OK\n"
		  "size        1256 bytes\nrun time    300 ms\n",
		  "\nresult\nAn example page.\n"}},
		{C_INIT C_USE("WebSearch", "{\"query\":\"agentview\"}") C_RESULT(
			 "\"Web search results\"",
			 "{\"query\":\"agentview\",\"results\":[{\"tool_use_id\":\"srvtoolu_1\",\"content\":["
			 "{\"title\":\"A\",\"url\":\"https://a.example\"},{\"title\":\"B\",\"url\":\"https://b.example\"}]},"
			 "\"Both say so.\"],\"durationSeconds\":1.5}"),
		 {"term        agentview\nrun time    1.5 s\n",
		  "\nresults\n  1. A\n     https://a.example\n  2. B\n     https://b.example\n  Both say so.\n"}},
		{C_INIT C_USE(
			 "AskUserQuestion",
			 "{\"questions\":[{\"question\":\"Which file?\",\"header\":\"File\","
			 "\"options\":[{\"label\":\"a.txt\",\"description\":\"the first\"},"
			 "{\"label\":\"b.txt\",\"description\":\"the second\"}],\"multiSelect\":true}]}")
			 C_RESULT("\"User has answered your questions: Which file?=a.txt\"",
				  "{\"questions\":[],\"answers\":{\"Which file?\":\"a.txt\"}}"),
		 {"\nquestion 1\n  Which file?\n    \xE2\x97\x8B a.txt\n      the first\n"
		  "    \xE2\x97\x8B b.txt\n      the second\n    (several may be chosen)\n",
		  "\nanswers\n  Which file?\n    \xE2\x86\x92 a.txt\n"}},
		{C_INIT C_USE("mcp__docs__search", "{\"q\":\"hi\"}")
			 C_RESULT("[{\"type\":\"text\",\"text\":\"found it\"}]",
				  "[{\"type\":\"text\",\"text\":\"found it\"}]"),
		 {"kind        mcp (mcp__docs__search)\n",
		  "\narguments\n  {\n    \"q\": \"hi\"\n  }\n", "\ncontent\nfound it\n"}},
		{X_INIT X_ITEM(
			 "started",
			 "{\"id\":\"item_1\",\"type\":\"mcp_tool_call\",\"server\":\"docs\",\"tool\":\"search\","
			 "\"arguments\":{\"q\":\"x\"},\"result\":null,\"error\":null,\"status\":\"in_progress\"}")
			 X_ITEM("completed",
				"{\"id\":\"item_1\",\"type\":\"mcp_tool_call\",\"server\":\"docs\",\"tool\":\"search\","
				"\"arguments\":{\"q\":\"x\"},\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"found\"}],"
				"\"structured_content\":null},\"error\":null,\"status\":\"completed\"}"),
		 {"tool        search\nserver      docs\n", "\narguments\n",
		  "\ncontent\n  found\n"}},
		{X_INIT X_ITEM(
			 "started",
			 "{\"id\":\"item_1\",\"type\":\"mcp_tool_call\",\"server\":\"fs\",\"tool\":\"read\","
			 "\"arguments\":{\"path\":\"/x\"},\"result\":null,\"error\":null,\"status\":\"in_progress\"}")
			 X_ITEM("completed",
				"{\"id\":\"item_1\",\"type\":\"mcp_tool_call\",\"server\":\"fs\",\"tool\":\"read\","
				"\"arguments\":{\"path\":\"/x\"},\"result\":null,\"error\":{\"message\":\"File not found\"},"
				"\"status\":\"failed\"}"),
		 {"state       failed\n", "error       File not found\n",
		  "tool        read\nserver      fs\n"}},
		{X_INIT X_ITEM(
			 "completed",
			 "{\"id\":\"item_2\",\"type\":\"web_search\",\"query\":\"rust async\"}"),
		 {"kind        websearch (web_search)\n", "term        rust async\n"}},
		{X_INIT X_ITEM(
			 "started",
			 "{\"id\":\"item_0\",\"type\":\"todo_list\",\"items\":[{\"text\":\"a\",\"completed\":false},"
			 "{\"text\":\"b\",\"completed\":false}]}")
			 X_ITEM("completed",
				"{\"id\":\"item_0\",\"type\":\"todo_list\",\"items\":[{\"text\":\"a\",\"completed\":true},"
				"{\"text\":\"b\",\"completed\":false}]}"),
		 {"\ntodos\n  \xE2\x9C\x93 a\n  \xE2\x97\x8B b\n"}},
		{INIT STARTED("readToolCall", "{\"path\":\"big.c\"}") COMPLETED(
			 "readToolCall",
			 "{\"success\":{\"path\":\"big.c\",\"isEmpty\":false,\"exceededLimit\":false,"
			 "\"totalLines\":412,\"fileSize\":14540,\"contentBlobId\":\"q8S0mJxwYyV1c3QgYSBoYXNo\"}}"),
		 /* never an empty file */
		 {"total lines 412\nfile size   14540 bytes\n\ncontent\n  content not in the stream (14.2 KB, 412 lines)\n"}},
		{INIT STARTED("webFetchToolCall", "{\"url\":\"https://example.com\"}") COMPLETED(
			 "webFetchToolCall",
			 "{\"success\":{\"url\":\"https://example.com\","
			 "\"markdown\":\"# Example Domain\\n\\nThis domain is for use in examples.\"}}"),
		 {"url         https://example.com\n\ncontent\n# Example Domain\n\nThis domain is for use in examples.\n"}},
		/* A diff's header reads as git writes it: a new file from
		 * /dev/null, the path relative to the session's folder. */
		{INIT STARTED("editToolCall", "{\"path\":\"/w/src/new.js\"}") COMPLETED(
			 "editToolCall",
			 "{\"success\":{\"path\":\"/w/src/new.js\",\"linesAdded\":1,\"linesRemoved\":0,"
			 "\"diffString\":\"--- /dev/null\\n+++ b//w/src/new.js\\n@@ -1,0 +1 @@\\n+x\"}}"),
		 {"\ndiff\n--- /dev/null\n+++ b/src/new.js\n@@ -1,0 +1 @@\n+x\n"}},
		/* A diff agentview makes of a structured patch has git's
		 * header too. */
		{C_INIT C_USE(
			 "Edit",
			 "{\"file_path\":\"/w/g.txt\",\"old_string\":\"a\",\"new_string\":\"b\"}")
			 C_RESULT(
				 "\"updated\"",
				 "{\"filePath\":\"/w/g.txt\",\"structuredPatch\":[{\"oldStart\":1,\"oldLines\":1,"
				 "\"newStart\":1,\"newLines\":1,\"lines\":[\"-a\",\"+b\"]}]}"),
		 {"\ndiff\n--- a/g.txt\n+++ b/g.txt\n@@ -1,1 +1,1 @@\n-a\n+b\n"}},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fixture *f = load(cases[i].text);
		char *s;

		assert_int_equal(f->m->ncall, 1);
		detail_build(&f->d, 0, 80, false);
		s = rows(&f->d);
		assert_in_order(s, cases[i].want, ARRAY_LEN(cases[i].want));
		/* Each is laid out by its kind, never dumped whole. */
		assert_null(strstr(s, "\nresult\n  {"));
		free(s);
		fixture_free(f);
	}
}

/* Cursor's web search: each reference's title, url and the start of its
 * chunk (a chunk can be ~15 KB: src/FORMAT.md §3). */
static void
test_cursor_websearch(void **state)
{
	struct fixture *f = load(
		INIT STARTED("webSearchToolCall", "{\"searchTerm\":\"retry-after header\"}") COMPLETED(
			"webSearchToolCall",
			"{\"success\":{\"references\":[{\"title\":\"RFC 9110\","
			"\"url\":\"https://www.rfc-editor.org/rfc/rfc9110\",\"chunk\":\"## 10.2.3 Retry-After\\n\\n"
			"Servers send the Retry-After header field to indicate how long the user agent ought to wait "
			"before making a follow-up request. When sent with a 503 response, Retry-After indicates how "
			"long the service is expected to be unavailable to the client. This text goes on.\"},"
			"{\"title\":\"\",\"url\":\"https://b.example\"}]}}"));
	char *s;

	(void)state;
	s = built(f, 80);
	assert_non_null(strstr(
		s,
		"term        retry-after header\n"
		"\n"
		"results\n"
		"  1. RFC 9110\n"
		"     https://www.rfc-editor.org/rfc/rfc9110\n"
		/* the start of the chunk, white space folded, cut at 240
		 * bytes */
		"     ## 10.2.3 Retry-After Servers send the Retry-After header field to indicate\n"
		"     how long the user agent ought to wait before making a follow-up request. \n"
		"     When sent with a 503 response, Retry-After indicates how long the service \n"
		"     is expected to be \xE2\x80\xA6\n"
		/* no title: the url says which, once */
		"  2. https://b.example\n"));
	assert_null(strstr(s, "     https://b.example"));
	assert_int_equal(row_starting(&f->d, "https://www")->role, ROLE_DIM);
	free(s);
	fixture_free(f);
}

/* Cursor's askQuestion and a refused web fetch, as cursor-agent
 * 2026.09.15 printed them (corpus: harness-cli-normalizer probe-20 and
 * probe-15): drawn by their kind though rejected, the reason first. */
static void
test_cursor_rejected_kinds(void **state)
{
	static const char question[] = INIT
		"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"call_Rt3n\\nfc_007b\",\"tool_call\":"
		"{\"askQuestionToolCall\":{\"args\":{\"title\":\"Which file to edit?\",\"questions\":[{\"id\":\"file_choice\","
		"\"prompt\":\"Which file should I edit?\",\"options\":[{\"id\":\"notes.txt\",\"label\":\"notes.txt\"},"
		"{\"id\":\"other.txt\",\"label\":\"other.txt\"}],\"allowMultiple\":false}],\"runAsync\":false,"
		"\"asyncOriginalToolCallId\":\"\"}},\"hookAdditionalContexts\":[],\"toolCallId\":\"call_Rt3n\\nfc_007b\","
		"\"startedAtMs\":\"1789644688094\"},\"model_call_id\":\"4a03-0-o11o\",\"session_id\":\"s\",\"timestamp_ms\":1789644688725}\n"
		"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"call_Rt3n\\nfc_007b\",\"tool_call\":"
		"{\"askQuestionToolCall\":{\"args\":{\"title\":\"Which file to edit?\",\"questions\":[{\"id\":\"file_choice\","
		"\"prompt\":\"Which file should I edit?\",\"options\":[{\"id\":\"notes.txt\",\"label\":\"notes.txt\"},"
		"{\"id\":\"other.txt\",\"label\":\"other.txt\"}],\"allowMultiple\":false}],\"runAsync\":false,"
		"\"asyncOriginalToolCallId\":\"\"},\"result\":{\"rejected\":{\"reason\":\"Questions skipped by the user, "
		"continue with the information you already have\"}}},\"hookAdditionalContexts\":[],"
		"\"toolCallId\":\"call_Rt3n\\nfc_007b\",\"startedAtMs\":\"1789644688094\",\"completedAtMs\":\"1789644688925\"},"
		"\"model_call_id\":\"4a03-0-o11o\",\"session_id\":\"s\",\"timestamp_ms\":1789644688727}\n";
	static const char fetch[] = INIT
		"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"call_1JVg\\nfc_0510\",\"tool_call\":"
		"{\"webFetchToolCall\":{\"args\":{\"url\":\"https://example.com\",\"toolCallId\":\"call_1JVg\\nfc_0510\"}},"
		"\"hookAdditionalContexts\":[],\"toolCallId\":\"call_1JVg\\nfc_0510\",\"startedAtMs\":\"1789644669692\"},"
		"\"model_call_id\":\"3044-0-4qhu\",\"session_id\":\"s\",\"timestamp_ms\":1789644669748}\n"
		"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"call_1JVg\\nfc_0510\",\"tool_call\":"
		"{\"webFetchToolCall\":{\"result\":{\"rejected\":{\"reason\":\"User Rejected\"}}},\"hookAdditionalContexts\":[],"
		"\"toolCallId\":\"call_1JVg\\nfc_0510\",\"startedAtMs\":\"1789644669692\",\"completedAtMs\":\"1789644670001\"},"
		"\"model_call_id\":\"3044-0-4qhu\",\"session_id\":\"s\",\"timestamp_ms\":1789644669798}\n";
	struct fixture *f = load(question);
	char *s;

	(void)state;
	s = built(f, 80);
	assert_non_null(strstr(
		s, "\nrejected\n"
		   "reason      Questions skipped by the user, continue with the information you \n"
		   "            already have\n"
		   "title       Which file to edit?\n"
		   "\n"
		   "question 1\n"
		   "  Which file should I edit?\n"
		   "    \xE2\x97\x8B notes.txt\n"
		   "    \xE2\x97\x8B other.txt\n"));
	assert_null(strstr(s, "several"));
	free(s);
	fixture_free(f);
	f = load(fetch);
	s = built(f, 80);
	assert_non_null(strstr(
		s, "\nrejected\nreason      User Rejected\nurl         https://example.com\n"));
	assert_null(strstr(s, "arguments"));
	free(s);
	fixture_free(f);
}

/* The section of the row whose text starts with s: its name and raw
 * text. */
static const struct dsection *
section_of(const struct detail *d, const char *s, struct buf *raw)
{
	const struct drow *r = row_starting(d, s);
	const struct dsection *sec = detail_section_at(d, (size_t)(r - d->row));

	buf_reset(raw);
	if (sec != NULL)
		buf_add(raw, d->taken.p + sec->off, sec->len);
	return sec;
}

/* What y copies and e opens in a detail: each part's rows and its text as
 * the stream has it (escapes and all), and the line a file's row shows. */
static void
test_sections(void **state)
{
	struct fixture *f = load(INIT STARTED("shellToolCall", "{\"command\":\"printf '\\u001b[31m'; make\"}") COMPLETED(
		"shellToolCall",
		"{\"success\":{\"exitCode\":0,"
		"\"stdout\":\"red \\u001b[31mtext\\nline 2\\n\",\"stderr\":\"warn\"}}") "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c2\","
											"\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"a.c\",\"offset\":9}}}}\n"
											"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c2\","
											"\"tool_call\":{\"readToolCall\":{\"result\":{\"success\":{\"content\":"
											"\"int x;\\nint a_long_line_that_wraps_at_twenty;\\nreturn 0;\"}}}}}\n"
											"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c3\","
											"\"tool_call\":{\"grepToolCall\":{\"args\":{\"pattern\":\"TODO\"}}}}\n"
											"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c3\","
											"\"tool_call\":{\"grepToolCall\":{\"result\":{\"success\":{\"workspaceResults\":{\"/w\":{\"content\":{\"matches\":["
											"{\"file\":\"src/b.js\",\"matches\":[{\"lineNumber\":3,\"content\":\"// TODO b\"},"
											"{\"lineNumber\":4,\"content\":\"next\",\"isContextLine\":true}]}]}}}}}}}}\n");
	struct buf raw = {0};
	const struct dsection *sec;
	size_t i;

	(void)state;
	detail_build(&f->d, 0, 40, false);
	/* The header's lines are no section: y takes the whole detail. */
	assert_null(detail_section_at(&f->d, 0));
	sec = section_of(&f->d, "command", &raw);
	assert_non_null(sec);
	assert_string_equal(sec->name, "command");
	assert_string_equal(raw.p, "printf '\033[31m'; make");
	sec = section_of(&f->d, "stdout", &raw);
	assert_string_equal(sec->name, "stdout");
	assert_string_equal(raw.p, "red \033[31mtext\nline 2\n");
	/* Every row of it, to the last, is in it; the next heading is not. */
	sec = section_of(&f->d, "line 2", &raw);
	assert_string_equal(sec->name, "stdout");
	sec = section_of(&f->d, "stderr", &raw);
	assert_string_equal(sec->name, "stderr");
	assert_string_equal(raw.p, "warn");
	assert_int_equal(detail_row_line(&f->d, (size_t)(row_starting(&f->d, "line 2") - f->d.row)),
			 0);

	detail_build(&f->d, 1, 24, false);
	sec = section_of(&f->d, "content", &raw);
	assert_true(sec->numbered);
	assert_string_equal(raw.p, "int x;\nint a_long_line_that_wraps_at_twenty;\nreturn 0;");
	assert_int_equal(detail_row_line(&f->d, (size_t)(row_starting(&f->d, " 9 ") - f->d.row)),
			 9);
	/* A wrapped line's second row is the same line. */
	i = (size_t)(row_starting(&f->d, "10 ") - f->d.row);
	assert_int_equal(f->d.row[i + 1].lead, 0);
	assert_int_equal(detail_row_line(&f->d, i + 1), 10);
	assert_int_equal(detail_row_line(&f->d, (size_t)(row_starting(&f->d, "11 ") - f->d.row)),
			 11);
	assert_int_equal(
		detail_row_line(&f->d, (size_t)(row_starting(&f->d, "content") - f->d.row)), 0);
	sec = section_of(&f->d, "path", &raw);
	assert_string_equal(raw.p, "a.c");

	detail_build(&f->d, 2, 40, false);
	sec = section_of(&f->d, "3: ", &raw);
	assert_string_equal(sec->name, "matches");
	assert_string_equal(raw.p, "// TODO b\nnext\n");
	assert_bytes_equal(f->d.taken.p + sec->file_off, sec->file_len, "src/b.js");
	assert_int_equal(detail_row_line(&f->d, (size_t)(row_starting(&f->d, "4- ") - f->d.row)),
			 4);
	sec = section_of(&f->d, "pattern", &raw);
	assert_string_equal(raw.p, "TODO");

	/* The raw view: each event's line as the agent wrote it. */
	detail_build(&f->d, 0, 40, true);
	sec = section_of(&f->d, "completed event", &raw);
	assert_string_equal(sec->name, "completed event");
	assert_true(strncmp(raw.p, "{\"type\":\"tool_call\",\"subtype\":\"completed\"", 41) == 0);
	assert_null(memchr(raw.p, '\n', raw.n));
	buf_free(&raw);
	fixture_free(f);
}

/* A list past the detail's budget: it stops there, and the names not
 * shown count in how much more there was. */
static void
test_budget_list(void **state)
{
	struct buf t = {0};
	struct fixture *f;
	char *s;

	(void)state;
	buf_adds(&t, C_INIT C_USE("Glob", "{\"pattern\":\"**/*.c\"}"));
	buf_adds(&t,
		 "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"tool_use_id\":"
		 "\"toolu_1\",\"type\":\"tool_result\",\"content\":\"found\"}]},"
		 "\"parent_tool_use_id\":null,\"session_id\":\"s\",\"tool_use_result\":"
		 "{\"numFiles\":400,\"filenames\":[");
	/* 400 names of 16 bytes: 6,400 bytes, with quotes and commas 7,599. */
	for (int i = 0; i < 400; i++)
		buf_addf(&t, "%s\"/w/src/f%03d.cpp\"", i > 0 ? "," : "", i);
	buf_adds(&t, "]}}\n");
	f = load(t.p);
	buf_free(&t);
	f->d.max = 1024;
	s = built(f, 80);
	assert_true(f->d.cut);
	assert_non_null(strstr(s, "\nfiles\n  /w/src/f000.cpp\n"));
	assert_null(strstr(s, "f399"));
	/* Most of the names were not shown, and are counted. */
	assert_true(f->d.more > 6400 - 1024);
	assert_true(f->d.more < 7599);
	assert_int_equal(f->d.row[f->d.nrow - 1].role, ROLE_DIM);
	free(s);
	fixture_free(f);
}

/* The section row s starts in, in call c's detail of the capture at path:
 * its name is name and its raw text starts with raw. */
static const struct dsection *
assert_section(const char *path, uint32_t c, const char *s, const char *name, const char *raw,
	       struct fixture **fp)
{
	char *text = detail_of_file(path, c, 80, fp);
	const struct detail *d = &(*fp)->d;
	const struct dsection *sec = detail_section_at(d, (size_t)(row_starting(d, s) - d->row));

	free(text);
	if (sec == NULL)
		fail_msg("%s: no section at '%s'", path, s);
	assert_string_equal(sec->name, name);
	if (sec->len < strlen(raw) || memcmp(d->taken.p + sec->off, raw, strlen(raw)) != 0)
		fail_msg("%s: section %s is '%.*s'", path, name, (int)sec->len,
			 d->taken.p + sec->off);
	return sec;
}

/* The other agents' calls have the sections Cursor's do where they hold
 * the same fields (y copies them, e opens a numbered one at its line). */
static void
test_sections_agents(void **state)
{
	static const struct {
		const char *file;
		uint32_t call;
		const char *row, *name, *raw;
	} cases[] = {
		{"recordings/claude-shell-ok.ndjson", 0, "command", "command", "echo hello"},
		{"recordings/claude-shell-ok.ndjson", 0, "hello", "stdout", "hello"},
		{"recordings/claude-shell-fail.ndjson", 0, "ls: cannot", "output",
		 "Exit code 2\nls: "},
		{"recordings/claude-edit.ndjson", 0, "path", "path",
		 "/tmp/agentview-agents.aTlj5y/claude-edit/work/greet.txt"},
		{"recordings/claude-edit.ndjson", 1, "+hello", "diff",
		 "--- a/greet.txt\n+++ b/greet.txt\n@@ -1,2 +1,2 @@\n-hello world\n+hello there\n"},
		{"recordings/claude-subagent.ndjson", 0, "SUBAGENT", "prompt", "SUBAGENT: run"},
		{"recordings/gemini-shell-ok.ndjson", 0, "command", "command", "echo hello"},
		{"recordings/gemini-shell-ok.ndjson", 0, "hello", "output", "hello"},
		{"recordings/gemini-edit.ndjson", 1, "-hello", "diff",
		 "@@ -1 +1 @@\n-hello world\n+hello there\n"},
		{"recordings/codex-shell-ok.ndjson", 0, "command", "command",
		 "/bin/bash -lc 'echo hello'"},
		{"recordings/codex-shell-fail.ndjson", 0, "ls: cannot", "output",
		 "ls: cannot access"},
	};
	struct fixture *f;
	const struct dsection *sec;

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		assert_section(cases[i].file, cases[i].call, cases[i].row, cases[i].name,
			       cases[i].raw, &f);
		fixture_free(f);
	}
	/* Claude Code's Read: its content numbered, each row its line. */
	sec = assert_section("recordings/claude-edit.ndjson", 0, "2 ", "content",
			     "hello world\nbye world", &f);
	assert_true(sec->numbered);
	assert_int_equal(detail_row_line(&f->d, (size_t)(row_starting(&f->d, "2 ") - f->d.row)), 2);
	fixture_free(f);
}

/* A secret in a command reads [redacted] while secrets are hidden; the
 * detail built before is stale once they are hidden or shown. */
static void
test_redacted(void **state)
{
	struct fixture *f = load(
		INIT STARTED("shellToolCall", "{\"command\":\"GH_TOKEN=fake123 gh pr list\"}"));
	struct redact *r = redact_new();
	char *s;

	(void)state;
	s = built(f, 60);
	assert_non_null(strstr(s, "command     GH_TOKEN=fake123 gh pr list"));
	free(s);
	redact_use(r, true);
	assert_true(detail_stale(&f->d, 60));
	detail_build(&f->d, 0, 60, false);
	assert_false(detail_stale(&f->d, 60));
	s = rows(&f->d);
	assert_non_null(strstr(s, "command     GH_TOKEN=[redacted] gh pr list"));
	assert_null(strstr(s, "fake123"));
	free(s);
	assert_false(redact_toggle());
	assert_true(detail_stale(&f->d, 60));
	redact_use(NULL, false);
	redact_free(r);
	fixture_free(f);
}

/* The raw JSON while secrets are hidden: a secret and a key's name spelled
 * with \u escapes read decoded and redacted, and what y takes is what the
 * rows show (the JSON indented), not the line with its escapes; shown,
 * what is taken is the line as the agent wrote it. */
static void
test_redacted_raw(void **state)
{
	struct fixture *f = load(INIT STARTED(
		"shellToolCall", "{\"command\":\"echo \\u0073k-proj-Fake0Fake1Fake2Fake3Fake4\","
				 "\"pass\\u0077ord\":\"hunter2\"}"));
	struct redact *r = redact_new();
	const struct dsection *sec;
	struct buf shown = {0}, taken = {0};
	char *s;

	(void)state;
	redact_use(r, true);
	detail_build(&f->d, 0, 200, true);
	s = rows(&f->d);
	assert_non_null(strstr(s, "\"command\": \"echo [redacted]\",\n"));
	assert_non_null(strstr(s, "\"password\": \"[redacted]\"\n"));
	assert_null(strstr(s, "hunter2"));
	assert_null(strstr(s, "Fake0"));
	free(s);
	sec = section_of(&f->d, "started event", &taken);
	assert_non_null(sec);
	/* Each row as shown: its indentation past the section's two cells
	 * is the JSON's own. */
	for (size_t i = sec->row + 1; i < sec->end; i++) {
		for (int k = 2; k < f->d.row[i].indent; k++)
			buf_addc(&shown, ' ');
		buf_add(&shown, f->d.text.p + f->d.row[i].off, f->d.row[i].len);
		buf_addc(&shown, '\n');
	}
	buf_reset(&f->b);
	if (!redact_text(redact_active(), taken.p, taken.n, &f->b))
		fail_msg("what is taken holds no secret to hide: %s", taken.p);
	buf_addc(&f->b, '\n');
	assert_string_equal(f->b.p, shown.p);
	/* Shown: the line itself. */
	assert_false(redact_toggle());
	detail_build(&f->d, 0, 200, true);
	section_of(&f->d, "started event", &taken);
	assert_non_null(strstr(taken.p, "\"pass\\u0077ord\":\"hunter2\""));
	redact_use(NULL, false);
	redact_free(r);
	buf_free(&shown);
	buf_free(&taken);
	fixture_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shell),
		cmocka_unit_test(test_searched_rows),
		cmocka_unit_test(test_redacted),
		cmocka_unit_test(test_redacted_raw),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_kind_parts),
		cmocka_unit_test(test_unknown_kind),
		cmocka_unit_test(test_states_and_raw),
		cmocka_unit_test(test_raw_wrap_indented),
		cmocka_unit_test(test_large_output),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_replay_cutoff),
		cmocka_unit_test(test_claude),
		cmocka_unit_test(test_claude_edit),
		cmocka_unit_test(test_gemini),
		cmocka_unit_test(test_codex),
		cmocka_unit_test(test_more_shapes),
		cmocka_unit_test(test_cursor_websearch),
		cmocka_unit_test(test_cursor_rejected_kinds),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_sections_agents),
		cmocka_unit_test(test_budget_list),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
