/* test_agent_loom.c: an agent is one file. Loom (tests/agent_loom.c),
 * made up here with words none of the real streams use, is added to the
 * table of agents and read through everything the real ones are: its
 * sessions recognised and listed, its calls' kinds, lines and details,
 * the resume command, y, e and the HTML page. Nothing of src/ knows it. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "agent_loom.c"
#include "copy.h"
#include "glyph.h"
#include "fleet.h"
#include "open.h"
#include "options.h"
#include "print.h"
#include "words.h"

/* Two sessions in one stream: the first ends failed, the second well. */
#define LOOM \
	"{\"ev\":\"begin\",\"sid\":\"L1\",\"dir\":\"/home/u/p\",\"llm\":\"loom-7\"," \
	"\"t\":1700000000000}\n" \
	"{\"ev\":\"ask\",\"text\":\"fix the tests\",\"t\":1700000001000}\n" \
	"{\"ev\":\"say\",\"text\":\"Looking.\",\"t\":1700000002000}\n" \
	"{\"ev\":\"use\",\"tool\":\"run\",\"id\":\"u1\",\"in\":{\"line\":\"make test\"}," \
	"\"t\":1700000003000}\n" \
	"{\"ev\":\"used\",\"id\":\"u1\",\"ok\":true,\"code\":0,\"out\":\"all passed\\n\"," \
	"\"t\":1700000004000}\n" \
	"{\"ev\":\"use\",\"tool\":\"peek\",\"id\":\"u2\",\"in\":{\"file\":\"src/a.c\"," \
	"\"from\":3,\"to\":5},\"t\":1700000005000}\n" \
	"{\"ev\":\"used\",\"id\":\"u2\",\"ok\":true,\"body\":\"three\\nfour\\nfive\\n\"," \
	"\"total\":9,\"t\":1700000006000}\n" \
	"{\"ev\":\"use\",\"tool\":\"patch\",\"id\":\"u3\",\"in\":{\"file\":\"src/a.c\"," \
	"\"was\":\"four\",\"now\":\"FOUR\"},\"t\":1700000007000}\n" \
	"{\"ev\":\"used\",\"id\":\"u3\",\"ok\":false,\"why\":\"file changed on disk\"," \
	"\"t\":1700000008000}\n" \
	"{\"ev\":\"end\",\"ok\":false,\"ms\":8000,\"tokens\":{\"in\":120,\"out\":45}," \
	"\"t\":1700000009000}\n" \
	"{\"ev\":\"begin\",\"sid\":\"L2\",\"dir\":\"/home/u/q\",\"llm\":\"loom-7\"," \
	"\"t\":1700000010000}\n" \
	"{\"ev\":\"ask\",\"text\":\"say hi\",\"t\":1700000011000}\n" \
	"{\"ev\":\"say\",\"text\":\"Hi.\",\"t\":1700000012000}\n" \
	"{\"ev\":\"end\",\"ok\":true,\"ms\":2000,\"t\":1700000013000}\n"

/* Loom's id in the table. */
static int loom;

static int
add_loom(void **state)
{
	(void)state;
	loom = agent_add(&agent_loom);
	return loom < 0;
}

static struct fixture *
read_loom(unsigned flags)
{
	return fixture_new(LOOM, strlen(LOOM), flags);
}

/* The words of item it, in f->b. */
static const char *
item_words(struct fixture *f, uint32_t it)
{
	struct tool_desc td = {0};

	buf_reset(&f->b);
	words_item(f->m, it, 0, &td, &f->b);
	tool_desc_free(&td);
	return f->b.p;
}

/* Each session starts with Loom's begin, and is Loom's; --agent takes
 * its name. */
static void
test_recognised(void **state)
{
	struct fixture *f = read_loom(0);
	struct options o;
	struct buf out = {0}, err = {0};
	char a0[] = "agentview", a1[] = "--agent", a2[] = "loom", a3[] = "x.ndjson";
	char *argv[] = {a0, a1, a2, a3, NULL};

	(void)state;
	assert_int_equal(agent_find("loom"), loom);
	/* Its "ev" and "t" are looked up with the others' top keys, as the
	 * roles of type and time. */
	assert_false(agent_keys()->same);
	/* Its mark is one the list looks for; a line without any is not
	 * parsed there (nor one whose mark is only in a string). */
	assert_true(agent_marked(LOOM, 40));
	assert_false(agent_marked("{\"ev\":\"ask\",\"text\":\"x\"}", 23));
	assert_false(agent_marked("{\"ev\":\"say\",\"text\":\"\\\"begin\\\"\"}", 31));
	assert_true(agent_marked("{\"type\":\"session_meta\"", 22));
	assert_false(agent_marked("{\"type\":\"session_meta\"", 21));
	assert_int_equal(f->m->nses, 2);
	assert_int_equal(f->m->ses[0].agent, loom);
	assert_int_equal(f->m->ses[1].agent, loom);
	assert_int_equal(model_session_state(f->m, 0), SS_FAILED);
	assert_int_equal(model_session_state(f->m, 1), SS_OK);
	assert_int_equal(options_parse(&o, 4, argv, &out, &err), -1);
	assert_int_equal(o.agent, loom);
	buf_free(&out);
	buf_free(&err);
	fixture_free(f);
}

/* The session's header names the agent; Y's command resumes it. */
static void
test_header_resume(void **state)
{
	struct fixture *f = read_loom(0);
	struct buf out = {0}, why = {0};

	(void)state;
	words_session_header(f->m, 0, &out);
	assert_string_equal(out.p, "L1 \xc2\xb7 Loom \xc2\xb7 loom-7 \xc2\xb7 /home/u/p");
	buf_reset(&out);
	assert_true(copy_resume(f->m, 1, &out, &why));
	assert_string_equal(out.p, "cd -- /home/u/q && loom resume L2");
	buf_free(&out);
	buf_free(&why);
	fixture_free(f);
}

/* The session list of a folder whose file holds both sessions: a row
 * each, Loom's, with its model and id, failed and done. */
static void
test_list(void **state)
{
	char *dir = fixture_tmpdir("loom");
	struct fleet *fl = fleet_new(0, -1);
	struct buf err = {0}, cell = {0};

	(void)state;
	fixture_put(dir, "loom.ndjson", LOOM, 1700000014000, false);
	assert_int_equal(fleet_add(fl, dir, &err), 0);
	fleet_update(fl, 1700000015000, 0);
	assert_false(fleet_loading(fl));
	assert_int_equal(fleet_nrows(fl), 2);
	for (uint32_t r = 0; r < 2; r++) {
		const struct fleet_row *row = fleet_row(fl, r);

		assert_int_equal(row->agent, loom);
		assert_string_equal(row->model, "loom-7");
		assert_string_equal(row->id, row->index == 0 ? "L1" : "L2");
		assert_int_equal(row->state, row->index == 0 ? FS_FAILED : FS_DONE);
		buf_reset(&cell);
		fleet_cell(fl, r, FC_AGENT, 1700000015000, &cell);
		assert_string_equal(cell.p, "loom");
	}
	buf_free(&cell);
	buf_free(&err);
	fleet_free(fl);
	fixture_rmtree(dir);
}

/* Its tools are kinds, their lines read as the real agents' do. */
static void
test_kinds(void **state)
{
	struct fixture *f = read_loom(0);
	struct model *m = f->m;

	(void)state;
	assert_int_equal(m->ncall, 3);
	assert_int_equal(m->call[0].kind, TK_SHELL);
	assert_int_equal(m->call[1].kind, TK_READ);
	assert_int_equal(m->call[2].kind, TK_EDIT);
	assert_string_equal(item_words(f, m->call[0].item),
			    "\xe2\x9c\x93 Shell `make test` \xe2\x86\x92 exit 0");
	assert_string_equal(item_words(f, m->call[1].item),
			    "\xe2\x9c\x93 Read src/a.c \xc2\xb7 9 lines");
	assert_string_equal(item_words(f, m->call[2].item),
			    "\xe2\x9c\x97 Edit src/a.c \xc2\xb7 file changed on disk");
	fixture_free(f);
}

/* Row r of the detail, as shown. */
static const char *
row_text(struct fixture *f, size_t r)
{
	buf_reset(&f->b);
	buf_add(&f->b, f->d.text.p + f->d.row[r].off, f->d.row[r].len);
	return f->b.p;
}

/* The row of the detail that starts with lead (after its indent), or
 * -1. */
static long
row_of(struct fixture *f, const char *lead)
{
	for (size_t r = 0; r < f->d.nrow; r++)
		if (strncmp(row_text(f, r), lead, strlen(lead)) == 0)
			return (long)r;
	return -1;
}

/* The details: a shell's command, exit code and output; a read's range
 * and its lines numbered from where it read; an edit's replacement as a
 * diff and why it failed. */
static void
test_details(void **state)
{
	struct fixture *f = read_loom(FX_DETAIL);
	long r;

	(void)state;
	detail_build(&f->d, 0, 80, false);
	assert_true(row_of(f, "command") >= 0);
	assert_non_null(strstr(row_text(f, (size_t)row_of(f, "command")), "make test"));
	assert_non_null(strstr(row_text(f, (size_t)row_of(f, "exit code")), "0"));
	assert_true((r = row_of(f, "all passed")) >= 0);
	assert_string_equal(detail_section_at(&f->d, (size_t)r)->name, "output");

	detail_build(&f->d, 1, 80, false);
	assert_non_null(strstr(row_text(f, (size_t)row_of(f, "lines")), "3-5"));
	assert_non_null(strstr(row_text(f, (size_t)row_of(f, "total lines")), "9"));
	assert_true((r = row_of(f, "3 ")) >= 0);
	assert_string_equal(row_text(f, (size_t)r), "3 " GLYPH_VRULE " three");
	assert_int_equal(detail_row_line(&f->d, (size_t)r), 3);
	assert_int_equal(detail_row_line(&f->d, (size_t)r + 2), 5);

	detail_build(&f->d, 2, 80, false);
	assert_non_null(strstr(row_text(f, (size_t)row_of(f, "error")), "file changed on disk"));
	assert_true(row_of(f, "-four") >= 0);
	assert_true(row_of(f, "+FOUR") >= 0);
	fixture_free(f);
}

/* y copies a shell's command and its output; e opens the file read at
 * the first line it read. */
static void
test_take(void **state)
{
	struct fixture *f = read_loom(0);
	struct buf out = {0}, why = {0};
	bool abs = false;
	int64_t line = 0;

	(void)state;
	assert_string_equal(copy_call_target(f->m, 0, &out), "command");
	assert_string_equal(out.p, "make test");
	buf_reset(&out);
	assert_string_equal(copy_call_output(f->m, 0, &out), "output");
	assert_string_equal(out.p, "all passed\n");
	buf_reset(&out);
	assert_true(open_call_file(f->m, 1, &out, &abs, &line, &why));
	assert_true(abs);
	assert_string_equal(out.p, "/home/u/p/src/a.c");
	assert_int_equal(line, 3);
	buf_free(&out);
	buf_free(&why);
	fixture_free(f);
}

/* A line of Loom's that nobody has words for is shown by its type, as
Loom spells it, and as it is. */
static void
test_notice(void **state)
{
	static const char text[] = "{\"ev\":\"begin\",\"sid\":\"L9\",\"t\":1700000000000}\n"
				   "{\"ev\":\"ping\",\"t\":1700000001000}\n";
	struct fixture *f = fixture_new(text, strlen(text), 0);

	(void)state;
	assert_int_equal(f->m->nit, 2);
	assert_string_equal(item_words(f, 1), "ping: {\"ev\":\"ping\",\"t\":1700000001000}");
	fixture_free(f);
}

/* The HTML page says whose sessions they are and shows their calls. */
static void
test_html(void **state)
{
	struct fixture *f = read_loom(0);
	char *page = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&page, &n);
	struct printer *p;

	(void)state;
	assert_non_null(out);
	p = printer_new(f->m, &format_html, out);
	printer_finish(p);
	printer_free(p);
	fclose(out);
	assert_non_null(strstr(page, "<dd>Loom</dd>"));
	assert_non_null(strstr(page, "make test"));
	assert_non_null(strstr(page, "src/a.c"));
	assert_non_null(strstr(page, "file changed on disk"));
	free(page);
	fixture_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recognised), cmocka_unit_test(test_header_resume),
		cmocka_unit_test(test_list),       cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_details),    cmocka_unit_test(test_take),
		cmocka_unit_test(test_notice),     cmocka_unit_test(test_html),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, add_loom, NULL);
}
