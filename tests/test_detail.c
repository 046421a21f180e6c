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

#define INIT "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"model\":\"M\",\"cwd\":\"/w\"}\n"
#define STARTED(kind, args) \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c1\"," \
	"\"tool_call\":{\"" kind "\":{\"args\":" args "}}}\n"
#define COMPLETED(kind, result) \
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\"," \
	"\"tool_call\":{\"" kind "\":{\"result\":" result "}}}\n"

static void
test_shell(void **state)
{
	struct fixture *f = load(INIT
		STARTED("shellToolCall", "{\"command\":\"make test\",\"workingDirectory\":\"/w\"}")
		COMPLETED("shellToolCall", "{\"failure\":{\"exitCode\":2,\"signal\":\"\","
			  "\"stdout\":\"ok 1\\nnot ok 2\\n\",\"stderr\":\"\\u001b[31mboom\\u001b[0m\","
			  "\"executionTime\":1200,\"aborted\":false}}"));
	char *s;

	(void)state;
	detail_build(&f->d, 0, 40, false);
	s = rows(&f->d);
	assert_string_equal(s,
		"\xE2\x9C\x97 Shell `make test` \xE2\x86\x92 exit 2\n"
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

/* A read: its content numbered from the first line read. */
static void
test_read(void **state)
{
	struct fixture *f = load(INIT
		STARTED("readToolCall", "{\"path\":\"a.c\",\"offset\":9}")
		COMPLETED("readToolCall", "{\"success\":{\"content\":\"int x;\\r\\n\\tint y;\\nreturn 0;\","
			  "\"totalLines\":40,\"readRange\":{\"startLine\":9,\"endLine\":11}}}"));
	char *s;

	(void)state;
	detail_build(&f->d, 0, 30, false);
	s = rows(&f->d);
	assert_non_null(strstr(s,
		"path        a.c\n"
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
		{INIT
		 STARTED("editToolCall", "{\"path\":\"b.txt\"}")
		 COMPLETED("editToolCall", "{\"success\":{\"path\":\"b.txt\",\"linesAdded\":1,\"linesRemoved\":1,"
			   "\"beforeFullFileContent\":\"one\\ntwo\\nthree\\n\","
			   "\"afterFullFileContent\":\"one\\n2\\nthree\\n\"}}"),
		 60, "\ndiff (computed",
		 "\ndiff (computed from the file before and after)\n"
		 "@@ -1,3 +1,3 @@\n"
		 " one\n"
		 "-two\n"
		 "+2\n"
		 " three\n",
		 "lines       +1 \xE2\x88\x92" "1\n",
		 {{"-two", ROLE_TOOL_FAILED}, {"+2", ROLE_TOOL_OK}, {"@@", ROLE_SESSION}}},
		{INIT
		 STARTED("grepToolCall", "{\"pattern\":\"TODO\"}")
		 COMPLETED("grepToolCall", "{\"success\":{\"pattern\":\"TODO\",\"outputMode\":\"content\","
			   "\"workspaceResults\":{\"/w\":{\"content\":{\"matches\":["
			   "{\"file\":\"a.js\",\"matches\":[{\"lineNumber\":9,\"content\":\"x\",\"isContextLine\":true},"
			   "{\"lineNumber\":10,\"content\":\"// TODO a\",\"isContextLine\":false}]},"
			   "{\"file\":\"b.js\",\"matches\":[{\"lineNumber\":3,\"content\":\"// TODO b\"}]}],"
			   "\"totalMatchedLines\":2}}}}}"),
		 40, "\na.js\n",
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
	struct fixture *f = load(INIT
		STARTED("frobToolCall", "{\"target\":\"x\",\"n\":[1,2]}")
		COMPLETED("frobToolCall", "{\"success\":{\"ok\":true}}"));
	char *s;

	(void)state;
	detail_build(&f->d, 0, 40, false);
	s = rows(&f->d);
	assert_string_equal(s,
		"\xE2\x9C\x93 frob target: x \xC2\xB7 ok\n"
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
	struct fixture *f = load(INIT
		COMPLETED("shellToolCall", "{\"rejected\":{\"command\":\"rm -rf /\",\"reason\":\"\"}}")
		"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c2\","
		"\"tool_call\":{\"updateTodosToolCall\":{\"args\":{\"todos\":["
		"{\"content\":\"write\",\"status\":\"TODO_STATUS_COMPLETED\"},"
		"{\"content\":\"test\",\"status\":\"TODO_STATUS_IN_PROGRESS\"},"
		"{\"content\":\"ship\",\"status\":\"TODO_STATUS_PENDING\"}]}}}}\n");
	char *s;

	(void)state;
	detail_build(&f->d, 0, 80, false);
	s = rows(&f->d);
	assert_non_null(strstr(s, "state       rejected (no started event)\n"));
	assert_non_null(strstr(s, "\nrejected\nreason      (none given: without --force, shell commands are rejected)\n"
				  "command     rm -rf /\n"));
	free(s);
	/* The todos of a call still open when the input ended. */
	detail_build(&f->d, 1, 80, false);
	s = rows(&f->d);
	assert_non_null(strstr(s, "state       orphaned\n"));
	assert_non_null(strstr(s, "\ntodos\n  \xE2\x9C\x93 write\n  \xE2\x96\xB8 test\n  \xE2\x97\x8B ship\n"));
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

/* A huge output stays bounded and every row fits. */
static void
test_large_output(void **state)
{
	size_t big = 3u << 20;
	struct buf t = {0};
	struct fixture *f;
	char *s;

	(void)state;
	buf_adds(&t, INIT STARTED("shellToolCall", "{\"command\":\"yes\"}")
		 "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\","
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
	buf_adds(&t, INIT STARTED("shellToolCall", "{\"command\":\"yes\"}")
		 "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\","
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
	assert_memory_equal(f->d.text.p + f->d.row[f->d.nrow - 1].off,
			    "\xE2\x80\xA6 cut", 7);
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
	buf_adds(&t, INIT STARTED("shellToolCall", "{\"command\":\"yes\"}")
		 "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\","
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
	assert_string_equal(s, "\xE2\x80\xA6 cut: the detail holds at most 4.0 KB; 28.3 KB more not shown");
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
	struct fixture *f = load(INIT
		STARTED("shellToolCall", "{\"command\":\"make test\"}")
		COMPLETED("shellToolCall", "{\"success\":{\"exitCode\":0,"
			  "\"stdout\":\"FUTURE-OUTPUT\"}}"));
	char *s;

	(void)state;
	f->m->limit = 1; /* init and started */
	detail_build(&f->d, 0, 60, false);
	s = rows(&f->d);
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
	detail_build(&f->d, 0, 60, false);
	s = rows(&f->d);
	assert_non_null(strstr(s, "FUTURE-OUTPUT"));
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
	struct fixture *f = load(INIT
		STARTED("shellToolCall", "{\"command\":\"printf '\\u001b[31m'; make\"}")
		COMPLETED("shellToolCall", "{\"success\":{\"exitCode\":0,"
			  "\"stdout\":\"red \\u001b[31mtext\\nline 2\\n\",\"stderr\":\"warn\"}}")
		"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c2\","
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
	assert_int_equal(detail_row_line(&f->d, (size_t)(row_starting(&f->d, "line 2") - f->d.row)), 0);

	detail_build(&f->d, 1, 24, false);
	sec = section_of(&f->d, "content", &raw);
	assert_true(sec->numbered);
	assert_string_equal(raw.p, "int x;\nint a_long_line_that_wraps_at_twenty;\nreturn 0;");
	assert_int_equal(detail_row_line(&f->d, (size_t)(row_starting(&f->d, " 9 ") - f->d.row)), 9);
	/* A wrapped line's second row is the same line. */
	i = (size_t)(row_starting(&f->d, "10 ") - f->d.row);
	assert_int_equal(f->d.row[i + 1].lead, 0);
	assert_int_equal(detail_row_line(&f->d, i + 1), 10);
	assert_int_equal(detail_row_line(&f->d, (size_t)(row_starting(&f->d, "11 ") - f->d.row)), 11);
	assert_int_equal(detail_row_line(&f->d, (size_t)(row_starting(&f->d, "content") - f->d.row)), 0);
	sec = section_of(&f->d, "path", &raw);
	assert_string_equal(raw.p, "a.c");

	detail_build(&f->d, 2, 40, false);
	sec = section_of(&f->d, "3: ", &raw);
	assert_string_equal(sec->name, "matches");
	assert_string_equal(raw.p, "// TODO b\nnext\n");
	assert_bytes_equal(f->d.taken.p + sec->file_off, sec->file_len, "src/b.js");
	assert_int_equal(detail_row_line(&f->d, (size_t)(row_starting(&f->d, "4- ") - f->d.row)), 4);
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

/* A secret in a command reads [redacted] while secrets are hidden; the
 * detail built before is stale once they are hidden or shown. */
static void
test_redacted(void **state)
{
	struct fixture *f = load(INIT
		STARTED("shellToolCall", "{\"command\":\"GH_TOKEN=fake123 gh pr list\"}"));
	struct redact *r = redact_new();
	char *s;

	(void)state;
	detail_build(&f->d, 0, 60, false);
	s = rows(&f->d);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shell),
		cmocka_unit_test(test_redacted),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_kind_parts),
		cmocka_unit_test(test_unknown_kind),
		cmocka_unit_test(test_states_and_raw),
		cmocka_unit_test(test_large_output),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_replay_cutoff),
		cmocka_unit_test(test_sections),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
