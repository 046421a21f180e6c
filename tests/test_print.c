/* test_print.c: the text, Markdown, JSON and HTML printers. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"
#include "markdown_check.h"

#include "fleet_print.h"
#include "print.h"
#include "summary.h"
#include "words.h"

static const char session[] =
	"{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"login\","
	"\"cwd\":\"/home/dev/p\",\"session_id\":\"17e650d2-1c02-439a\",\"model\":\"Grok 4.7\","
	"\"permissionMode\":\"default\"}\n"
	"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\","
	"\"text\":\"run it\\nnow\"}]}}\n"
	"{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"Plan\",\"timestamp_ms\":1000}\n"
	"{\"type\":\"thinking\",\"subtype\":\"completed\",\"timestamp_ms\":1500}\n"
	"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"I'll\"}]},"
	"\"timestamp_ms\":1600}\n"
	"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\" run\"}]},"
	"\"timestamp_ms\":1601}\n"
	"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"I'll run\"}]},"
	"\"model_call_id\":\"r-0-x\",\"timestamp_ms\":1602}\n"
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c-1\\nfc_1\","
	"\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"echo \\u001b]0;x\\u0007\"}}},"
	"\"timestamp_ms\":1700}\n"
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c-1\\nfc_1\","
	"\"tool_call\":{\"shellToolCall\":{\"result\":{\"failure\":{\"exitCode\":2}}}},"
	"\"timestamp_ms\":2900}\n"
	"not json at all \x1b[2J\n"
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c-2\","
	"\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"a.txt\"}}},\"timestamp_ms\":3000}\n"
	"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"Done.\"}]},"
	"\"timestamp_ms\":3100}\n"
	"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"Done.\"}]}}\n"
	"{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":2100,\"is_error\":false,"
	"\"result\":\"I'll runDone.\",\"session_id\":\"17e650d2-1c02-439a\",\"request_id\":\"req-1\","
	"\"usage\":{\"inputTokens\":10528,\"outputTokens\":28,\"cacheReadTokens\":5888,"
	"\"cacheWriteTokens\":0}}\n";

/* Run the printer in format fmt over text; the output, NUL-terminated. */
static char *
run(const char *text, const struct format *fmt, size_t *len)
{
	struct fixture *x = fixture_new(text, strlen(text), FX_UNREAD);
	struct line ln;
	uint32_t ev;
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	struct printer *p = printer_new(x->m, fmt, f);

	while (fixture_next(x, &ln, &ev))
		printer_line(p, &x->s, &ln, ev);
	fixture_end(x);
	printer_finish(p);
	printer_free(p);
	fclose(f);
	fixture_free(x);
	if (len != NULL)
		*len = n;
	return out;
}

/* No byte that could steer a terminal: ESC, BEL, other C0 but LF. */
static void
assert_terminal_safe(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 && s[i] != '\n')
			fail_msg("control byte 0x%02x at %zu", (unsigned char)s[i], i);
}

static void
test_text_log(void **state)
{
	size_t n;
	char *out = run(session, &format_text, &n);

	(void)state;
	assert_terminal_safe(out, n);
	assert_non_null(
		strstr(out, "== session 17e650d2 \xC2\xB7 Grok 4.7 \xC2\xB7 /home/dev/p\n"));
	assert_non_null(strstr(out, "> run it\n> now\n"));
	assert_non_null(strstr(out, "  thinking \xC2\xB7 500 ms\n"));
	/* The reply once, not doubled by the recap. */
	assert_non_null(strstr(out, "\nI'll run\n"));
	assert_null(strstr(out, "I'll runI'll run"));
	assert_non_null(strstr(
		out, "  \xE2\x9C\x97 Shell `echo ^[]0;x^G` \xE2\x86\x92 exit 2 \xC2\xB7 1.2 s\n"));
	assert_non_null(strstr(out, "  ! line 10: not JSON: not json at all ^[[2J\n"));
	assert_non_null(strstr(out, "\nDone.\n"));
	assert_null(strstr(out, "Done.Done."));
	assert_non_null(strstr(
		out, "== ok \xC2\xB7 2.1 s \xC2\xB7 2 tool calls: 1 failed, 1 orphaned \xC2\xB7 "
		     "tokens 10.5k in, 28 out, 5.9k cache read\n"));
	/* The orphaned call is listed at the end. */
	assert_non_null(strstr(out, "  ? Read a.txt \xC2\xB7 no completed event\n"));
	free(out);
}

static void
test_markdown(void **state)
{
	size_t n;
	char *out = run(session, &format_markdown, &n);

	(void)state;
	assert_terminal_safe(out, n);
	assert_non_null(strstr(out, "## Session 17e650d2"));
	assert_non_null(strstr(out, "> run it\n> now\n"));
	assert_non_null(
		strstr(out, "<details><summary>thinking \xC2\xB7 500 ms</summary>\n\nPlan\n"));
	assert_non_null(strstr(out, "- \xE2\x9C\x97 Shell `echo ^[]0;x^G` \xE2\x86\x92 exit 2"));
	assert_non_null(strstr(out, "**Result:** ok"));
	assert_null(strstr(out, "I'll runI'll run"));
	free(out);
}

#define CODEX_REPLY(id, text) \
	"{\"type\":\"item.completed\",\"item\":{\"id\":\"" id "\"," \
	"\"type\":\"agent_message\",\"text\":\"" text "\"}}\n"

/* assistant_text joins a reply's segments by a blank line, as the logs
 * show them; an empty one adds none. Kept as the lines go by and made
 * from the lines alike. */
static void
test_reply_segments(void **state)
{
	static const char text[] = "{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n" CODEX_REPLY(
		"item_0", "fix it.") CODEX_REPLY("item_1", "")
		CODEX_REPLY(
			"item_2",
			"Running the test suite") "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}\n";
	static const char want[] = "\"assistant_text\":\"fix it.\\n\\nRunning the test suite\"";
	char *out = run(text, &format_json, NULL);
	struct fixture *f = fixture_new(text, strlen(text), 0);
	struct buf all = {0};

	(void)state;
	assert_non_null(strstr(out, want));
	summary_write(f->m, NULL, &all, NULL);
	assert_non_null(strstr(all.p, want));
	buf_free(&all);
	fixture_free(f);
	free(out);
}

static void
test_json_summary(void **state)
{
	char *out = run(session, &format_json, NULL);

	(void)state;
	assert_non_null(strstr(out, "{\"lines\":14,\"diagnostics\":[{\"line\":10,"
				    "\"message\":\"not JSON\",\"excerpt\":\"not json at all "
				    "\\u001b[2J\",\"bytes\":20}],\"command\":null,"));
	assert_non_null(strstr(out,
			       "\"session_id\":\"17e650d2-1c02-439a\",\"agent\":\"cursor\","
			       "\"model\":\"Grok 4.7\","
			       "\"cwd\":\"/home/dev/p\",\"permission_mode\":\"default\","
			       "\"state\":\"ok\",\"duration_ms\":2100,\"request_id\":\"req-1\","));
	assert_non_null(strstr(out, "\"usage\":{\"inputTokens\":10528,\"outputTokens\":28,"
				    "\"cacheReadTokens\":5888,\"cacheWriteTokens\":0}"));
	assert_non_null(strstr(out, "\"prompts\":[\"run it\\nnow\"]"));
	/* The reply's segments, joined by a blank line as the logs show
	 * them. */
	assert_non_null(strstr(out, "\"assistant_text\":\"I'll run\\n\\nDone.\""));
	/* The call_id keeps its newline, escaped; control bytes are escaped. */
	assert_non_null(strstr(out, "{\"call_id\":\"c-1\\nfc_1\",\"parent\":null,"
				    "\"tool\":\"shellToolCall\","
				    "\"kind\":\"shell\",\"state\":\"failed\",\"started\":true,"
				    "\"summary\":\"echo \\u001b]0;x\\u0007\""));
	assert_non_null(strstr(out, "\"start_ms\":1700,\"end_ms\":2900,\"duration_ms\":1200}"));
	assert_non_null(strstr(out, "\"state\":\"orphaned\",\"started\":true"));
	assert_non_null(strstr(out, "\"start_ms\":3000,\"end_ms\":null,\"duration_ms\":null}"));
	free(out);
}

/* A second session, in another source, to interleave with `session`:
 * parallel calls completed out of order, a completed call that never
 * started, a duplicate call_id, two results. */
static const char other[] =
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s2\",\"model\":\"Auto\"}\n"
	"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"Caf\\u00e9 \"}]},"
	"\"timestamp_ms\":10}\n"
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"a\","
	"\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"x\"}}},\"timestamp_ms\":11}\n"
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"b\","
	"\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"ls\"}}},\"timestamp_ms\":12}\n"
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"b\","
	"\"tool_call\":{\"shellToolCall\":{\"result\":{\"success\":{\"exitCode\":0}}}},\"timestamp_ms\":20}\n"
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"z\","
	"\"tool_call\":{\"grepToolCall\":{\"result\":{\"error\":{\"errorMessage\":\"no\"}}}}}\n"
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"a\","
	"\"tool_call\":{\"readToolCall\":{\"result\":{\"success\":{\"totalLines\":3}}}},\"timestamp_ms\":25}\n"
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"a\","
	"\"tool_call\":{\"readToolCall\":{\"result\":{\"success\":{}}}},\"timestamp_ms\":26}\n"
	"{\"type\":\"result\",\"is_error\":false,\"result\":\"Caf\\u00e9 \",\"request_id\":\"r1\"}\n"
	"{\"type\":\"result\",\"is_error\":true,\"request_id\":\"r2\",\"usage\":{\"inputTokens\":1}}\n"
	"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s3\"}\n"
	"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"whole\"}]}}\n";

/* The JSON printer keeps pieces of the summary as the lines go by; what it
 * prints must be the summary made afterwards from the lines alone, also
 * with two sources interleaved and after the model started again. */
static void
test_json_cache_same(void **state)
{
	struct source s[2];
	struct model *m = model_new();
	struct line ln;
	unsigned src[2];
	char *out = NULL;
	size_t n = 0;
	struct buf want = {0};
	FILE *f = open_memstream(&out, &n);
	struct printer *p = printer_new(m, &format_json, f);
	bool more[2] = {true, true};

	(void)state;
	source_open_mem(&s[0], "a", session, strlen(session));
	source_open_mem(&s[1], "b", other, strlen(other));
	src[0] = model_add_source(m, &s[0]);
	src[1] = model_add_source(m, &s[1]);
	/* Some lines, then the model starts again, as for a truncated file. */
	for (int i = 0; i < 5 && source_next_line(&s[0], &ln); i++)
		printer_line(p, &s[0], &ln, model_add_line(m, src[0], &ln, TIME_NONE));
	model_clear(m);
	s[0].scan = 0;
	s[0].lineno = 0;
	while (more[0] || more[1]) {
		for (int k = 0; k < 2; k++) {
			more[k] = more[k] && source_next_line(&s[k], &ln);
			if (more[k])
				printer_line(p, &s[k], &ln,
					     model_add_line(m, src[k], &ln, TIME_NONE));
		}
	}
	model_end_source(m, src[0]);
	model_end_source(m, src[1]);
	printer_finish(p);
	fclose(f);
	summary_write(m, NULL, &want, NULL);
	buf_addc(&want, '\n');
	assert_int_equal(n, want.n);
	assert_memory_equal(out, want.p, n);
	assert_non_null(strstr(out, "\"assistant_text\":\"Caf\u00e9 \""));
	assert_non_null(strstr(out, "\"request_id\":\"r2\",\"usage\":{\"inputTokens\":1}"));
	/* Two files read: each session says its own. */
	assert_non_null(strstr(out, "\"error\":null,\"file\":\"a\"}"));
	assert_non_null(strstr(out, "\"error\":null,\"file\":\"b\"}"));
	printer_free(p);
	buf_free(&want);
	free(out);
	model_free(m);
	source_close(&s[0]);
	source_close(&s[1]);
}

/* A failed session's JSON summary says why, whatever its stream says it
 * with: Claude Code's result text, Gemini CLI's error, Codex's
 * turn.failed; whole, its lines kept. */
static void
test_json_error_reason(void **state)
{
	static const struct {
		const char *stream, *error;
	} cases[] = {
		{"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"tools\":[],"
		 "\"claude_code_version\":\"2.1.332\"}\n"
		 "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":true,\"duration_ms\":9,"
		 "\"result\":\"API Error: 500 Internal server error.\\nTry again.\","
		 "\"session_id\":\"s\"}\n",
		 "\"error\":\"API Error: 500 Internal server error.\\nTry again.\"}"},
		{"{\"type\":\"init\",\"timestamp\":\"2026-11-23T20:57:53.359Z\",\"session_id\":\"g\","
		 "\"model\":\"gemini-2.5-pro\"}\n"
		 "{\"type\":\"result\",\"timestamp\":\"2026-11-23T20:58:14.273Z\",\"status\":\"error\","
		 "\"error\":{\"type\":\"unknown\",\"message\":\"[API Error: exhausted]\\nPlease wait.\"},"
		 "\"stats\":{\"input_tokens\":0}}\n",
		 "\"error\":\"[API Error: exhausted]\\nPlease wait.\"}"},
		{"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n{\"type\":\"turn.started\"}\n"
		 "{\"type\":\"error\",\"message\":\"high demand\"}\n"
		 "{\"type\":\"turn.failed\",\"error\":{\"message\":\"high demand\"}}\n",
		 "\"error\":\"high demand\"}"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char *out = run(cases[i].stream, &format_json, NULL);

		assert_non_null(strstr(out, "\"state\":\"failed\""));
		if (strstr(out, cases[i].error) == NULL)
			fail_msg("case %zu: no %s in %s", i, cases[i].error, out);
		free(out);
	}
}

/* Without a result: the session is incomplete, and says so. */
static void
test_incomplete(void **state)
{
	char *out = run("{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"abc\"}\n"
			"RetriableError: boom",
			&format_text, NULL);

	(void)state;
	assert_non_null(strstr(out, "\n== incomplete (no result) \xC2\xB7 no tool calls\n"));
	assert_non_null(strstr(out, "1 line could not be read as JSON"));
	free(out);
	out = run("{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"abc\"}\n",
		  &format_json, NULL);
	assert_non_null(strstr(out, "\"state\":\"incomplete\""));
	assert_non_null(strstr(out, "\"request_id\":null,\"usage\":null"));
	free(out);
}

/* A run kept while it was read live, killed after 100 s of silence: it
 * lasted until its stream ended, and says how long it was silent, in
 * every format. */
static void
test_silent_end(void **state)
{
	static const char rec[] =
		"{\"type\":\"agentview\",\"subtype\":\"recording\",\"version\":1,"
		"\"agentview_ms\":1000,\"source\":\"stdin\"}\n"
		"{\"type\":\"init\",\"timestamp\":\"2026-11-27T08:58:30.766Z\","
		"\"session_id\":\"230ff603\",\"model\":\"gemini-2.5-pro\",\"agentview_ms\":1100}\n"
		"{\"type\":\"message\",\"timestamp\":\"2026-11-27T08:58:30.800Z\","
		"\"role\":\"assistant\",\"content\":\"First.\",\"delta\":true,"
		"\"agentview_ms\":1244}\n"
		"{\"type\":\"agentview\",\"subtype\":\"end\",\"agentview_ms\":101244}\n";
	char *out = run(rec, &format_text, NULL);

	(void)state;
	assert_non_null(strstr(out, "\n== incomplete (no result; silent for its last 1m40s) "
				    "\xC2\xB7 1m40s \xC2\xB7 no tool calls\n"));
	free(out);
	out = run(rec, &format_markdown, NULL);
	assert_non_null(strstr(out, "incomplete (no result; silent for its last 1m40s)"));
	free(out);
	out = run(rec, &format_json, NULL);
	/* From its header's opening (1000) to its end. */
	assert_non_null(strstr(out, "\"state\":\"incomplete\",\"duration_ms\":100244,"));
	free(out);
	out = run(rec, &format_html, NULL);
	assert_non_null(strstr(out, "silent for its last 1m40s"));
	free(out);
}

/* The HTML page of a stream without times: no bar, and its axis says
 * why; with times, bars on an axis of durations. */
static void
test_html_untimed(void **state)
{
	size_t n;
	char *text = fixture_slurp("recordings/codex-slow-shell.ndjson", &n);
	char *out = run(text, &format_html, NULL);
	const char *svg = strstr(out, "<svg class=\"timeline\"");

	(void)state;
	assert_non_null(svg);
	assert_non_null(strstr(svg, "<g class=\"axis\"><text x="));
	assert_non_null(strstr(svg, ">no timing in this stream</text></g>"));
	assert_null(strstr(svg, "<rect"));
	free(out);
	free(text);
	text = fixture_slurp("recordings/gemini-slow-shell.ndjson", &n);
	out = run(text, &format_html, NULL);
	svg = strstr(out, "<svg class=\"timeline\"");
	assert_non_null(svg);
	assert_non_null(strstr(svg, "<rect"));
	assert_null(strstr(out, "no timing"));
	free(out);
	free(text);
}

/* A command's stdout and stderr, line by line in the given order ('o' or
 * 'e' per line), then its end; the output in format fmt. */
static char *
run_command(const char *out, const char *err, const char *order, int status, int sig,
	    const struct format *fmt, size_t *len)
{
	struct source so, se;
	struct model *m = model_new();
	struct line ln;
	unsigned io, ie;
	char *res = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&res, &n);
	struct printer *p = printer_new(m, fmt, f);

	source_open_mem(&so, "out", out, strlen(out));
	source_open_mem(&se, "stderr", err, strlen(err));
	io = model_add_source(m, &so);
	ie = model_add_source(m, &se);
	model_set_stderr(m, ie, io);
	m->cmd.present = true;
	m->cmd.argv = calloc(3, sizeof *m->cmd.argv);
	m->cmd.argv[0] = strdup("agent");
	m->cmd.argv[1] = strdup("-p");
	for (const char *o = order; *o != '\0'; o++) {
		struct source *s = *o == 'o' ? &so : &se;

		assert_true(source_next_line(s, &ln));
		printer_line(p, s, &ln, model_add_line(m, *o == 'o' ? io : ie, &ln, TIME_NONE));
	}
	model_end_source(m, io);
	model_end_source(m, ie);
	m->cmd.exited = sig == 0;
	m->cmd.exit_status = status;
	m->cmd.signal = sig;
	printer_finish(p);
	printer_free(p);
	fclose(f);
	model_free(m);
	source_close(&so);
	source_close(&se);
	if (len != NULL)
		*len = n;
	return res;
}

/* A command that failed: its stderr in the log, the reason in the closing
 * line and the summary; raw is its stdout alone. */
static void
test_command_failed(void **state)
{
	static const char out[] =
		"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"abc\",\"model\":\"M\"}\n"
		"{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"go\"}]}}\n";
	static const char err[] = "\n\x1b[31mError: usage limit\n";
	static const char ok[] =
		"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"abc\"}\n"
		"{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
		"\"result\":\"\",\"duration_ms\":5}\n";
	size_t n;
	char *text = run_command(out, err, "eeoo", 1, 0, &format_text, NULL);
	char *json = run_command(out, err, "oeoe", 1, 0, &format_json, NULL);
	char *raw = run_command(out, err, "oeoe", 1, 0, &format_raw, &n);
	char *killed = run_command(ok, "quota\n", "ooe", 0, 9, &format_text, NULL);

	(void)state;
	assert_terminal_safe(text, strlen(text));
	assert_non_null(strstr(text, "  stderr: ^[[31mError: usage limit\n"));
	assert_non_null(strstr(text, "== failed (exit status 1: ^[[31mError: usage limit)"));
	/* The stderr line before the init did not make a session of its own. */
	assert_null(strstr(text, "sessions"));
	assert_non_null(strstr(json, "\"command\":{\"argv\":[\"agent\",\"-p\"],"
				     "\"exit_status\":1,\"signal\":null,"
				     "\"stderr\":[\"\\u001b[31mError: usage limit\"]}"));
	assert_non_null(strstr(json, "\"state\":\"failed\""));
	assert_non_null(
		strstr(json, "\"error\":\"exit status 1: \\u001b[31mError: usage limit\"}"));
	assert_int_equal(n, sizeof out - 1);
	assert_memory_equal(raw, out, n);
	/* A result, then killed: the log's last word is the failure. */
	assert_non_null(strstr(killed, "== ok"));
	assert_non_null(strstr(killed, "\n== failed (killed by signal 9: quota)"));
	free(text);
	free(json);
	free(raw);
	free(killed);
}

/* Raw gives the input back, byte for byte. */
static void
test_raw(void **state)
{
	static const char text[] = "{\"a\":1}\r\n\n  \nnot json \x1b\x01\n{\"b\":2}";
	size_t n;
	char *out = run(text, &format_raw, &n);

	(void)state;
	assert_int_equal(n, sizeof text - 1);
	assert_memory_equal(out, text, n);
	free(out);
}

/* A header is one line, whole: a NUL in the model name hid the cwd after
 * it, and a newline in it could fake a line of the log. */
static void
test_header_fields(void **state)
{
	static const char text[] =
		"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\\n== ok\","
		"\"model\":\"M\\u0000X\\n== ok\",\"cwd\":\"/w\"}\n";
	char *out = run(text, &format_text, NULL);

	(void)state;
	assert_non_null(strstr(out, "== session s\xE2\x86\xB5== ok \xC2\xB7 "
				    "M^@X\xE2\x86\xB5== ok \xC2\xB7 /w\n"));
	free(out);
	out = run(text, &format_markdown, NULL);
	assert_non_null(strstr(out, "## Session s\xE2\x86\xB5== ok \xC2\xB7 "
				    "M^@X\xE2\x86\xB5== ok \xC2\xB7 /w\n"));
	free(out);
}

/* Inputs the fuzzers found, each with what it must print. */
static void
test_fuzz_regressions(void **state)
{
	char *out;

	(void)state;
	/* A prompt with no text, as the first event: its decoded text was
	 * a NULL buffer handed to memchr (UBSan, fuzz_model). */
	out = run("{\"type\":\"user\",\"m\":{}}\n", &format_text, NULL);
	assert_string_equal(out, "> \n== incomplete (no result) \xC2\xB7 no tool calls\n");
	free(out);
	out = run("{\"type\":\"user\",\"m\":{}}\n", &format_markdown, NULL);
	assert_non_null(strstr(out, "> \n\n"));
	free(out);
	/* Hours past INT_MAX were cut to int: "-2047687697h12m"; days now. */
	out = run("{\"type\":\"result\",\"duration_ms\":9223372036854775807}\n", &format_text,
		  NULL);
	assert_string_equal(out, "== ok \xC2\xB7 106751991167d07h \xC2\xB7 no tool calls\n");
	free(out);
}

/* A line that is not JSON shows its first 200 bytes and how many more,
 * in every format and in the words the screen and y take (a code point
 * never cut); a line kept in a recording (as text, or as base64 when it
 * was not UTF-8) likewise, decoded. */
static void
test_bad_line_excerpt(void **state)
{
	size_t big = 1 << 20, n;
	char *line = malloc(big + 2), *text, *out;
	struct fixture *x;
	struct buf b = {0};
	static const struct {
		const struct format *fmt;
		const char *want;
	} fmts[] = {
		{&format_text, "\xC3\xA9\xC3\xA9 \xE2\x80\xA6 1048377 bytes more\n"},
		{&format_markdown, "\xC3\xA9\xC3\xA9` \xE2\x80\xA6 1048377 bytes more\n"},
		{&format_json, "\xC3\xA9\xC3\xA9\",\"bytes\":1048576}"},
		{&format_html, "\xC3\xA9\xC3\xA9 \xE2\x80\xA6 1048377 bytes more<"},
	};

	(void)state;
	/* "x" then "é" up to a megabyte: 200 bytes would cut an é. */
	line[0] = 'x';
	for (size_t i = 1; i + 1 < big; i += 2)
		memcpy(line + i, "\xC3\xA9", 2);
	line[big - 1] = 'x';
	line[big] = '\n';
	line[big + 1] = '\0';
	for (size_t i = 0; i < ARRAY_LEN(fmts); i++) {
		out = run(line, fmts[i].fmt, &n);
		assert_true(n < 16384);
		if (strstr(out, fmts[i].want) == NULL)
			fail_msg("format %d: no \"%s\" in %.400s", fmts[i].fmt, fmts[i].want, out);
		free(out);
	}
	x = fixture_new(line, big + 1, 0);
	words_item(x->m, 0, WORDS_WHOLE, NULL, &b);
	assert_int_equal(b.n, strlen("! line 1: not JSON: ") + 199 +
				      strlen(" \xE2\x80\xA6 1048377 bytes more"));
	buf_reset(&b);
	model_item_text(x->m, 0, &b);
	assert_int_equal(b.n, 199);
	assert_memory_equal(b.p, line, 199);
	fixture_free(x);

	/* Recorded: 279 bytes of text with escapes; 300 bytes in base64. */
	text = (char *)"{\"type\":\"agentview\",\"subtype\":\"line\",\"agentview_ms\":1,\"text\":\""
		       "\\u00e9\\n\\\"1234567890123456789012345678901234567890123456789012345678901234567890"
		       "1234567890123456789012345678901234567890123456789012345678901234567890"
		       "1234567890123456789012345678901234567890123456789012345678901234567890"
		       "12345678901234567890123456789012345678901234567890123456789012345\"}\n";
	out = run(text, &format_json, NULL);
	assert_non_null(strstr(out, "\"excerpt\":\"\xC3\xA9\\n\\\"1234"));
	assert_non_null(strstr(out, "890123456\",\"bytes\":279}"));
	free(out);
	buf_reset(&b);
	buf_adds(&b,
		 "{\"type\":\"agentview\",\"subtype\":\"line\",\"agentview_ms\":1,\"base64\":\"");
	for (int i = 0; i < 100; i++)
		buf_adds(&b, "/wAx"); /* FF 00 31: not UTF-8 */
	buf_adds(&b, "\"}\n");
	out = run(b.p, &format_text, NULL);
	assert_non_null(strstr(out, "\xEF\xBF\xBD^@1\xEF\xBF\xBD^@1"));
	assert_non_null(strstr(out, " \xE2\x80\xA6 100 bytes more\n"));
	free(out);
	buf_free(&b);
	free(line);
}

/* A reply goes on across a sub-agent's call that starts and prints
 * nothing (tests/captures/claude-partial-subagent-bg-2.1.330.ndjson, a
 * capture of Claude Code 2.1.330 kept as it was: the sub-agent's Bash
 * starts between "I will " and "tell you"; recordings/ are captured again
 * with each new CLI, and the interleaving is chance): its line is not
 * broken, in the text log as in Markdown. */
static void
test_reply_across_subagent(void **state)
{
	static const char whole[] = "is running; I will tell you when it is done.\n";
	size_t n;
	char *text = fixture_slurp("tests/captures/claude-partial-subagent-bg-2.1.330.ndjson", &n);
	char *out;

	(void)state;
	out = run(text, &format_text, NULL);
	assert_non_null(strstr(out, whole));
	free(out);
	out = run(text, &format_markdown, NULL);
	assert_non_null(strstr(out, whole));
	free(out);
	free(text);
}

static void
test_format_names(void **state)
{
	(void)state;
	/* Every row whole: a name (and alias) of its own, a hook that
	 * writes, and a list that can be followed too. */
	for (size_t i = 0; i < format_count(); i++) {
		const struct format *f = format_at(i);

		assert_non_null(f->name);
		assert_ptr_equal(format_find(f->name), f);
		if (f->alias != NULL)
			assert_ptr_equal(format_find(f->alias), f);
		for (size_t k = i + 1; k < format_count(); k++)
			assert_string_not_equal(f->name, format_at(k)->name);
		/* A list's alone (rows, for another machine's agentview): any
		 * FILE is listed (main.c), never printed as a stream. */
		if (f == &format_rows)
			assert_true(f->list != NULL && f->line == NULL && f->item == NULL &&
				    f->finish == NULL);
		else
			assert_true(f->line != NULL || f->item != NULL || f->finish != NULL);
		assert_true((f->list == NULL) == (f->change == NULL));
	}
	assert_ptr_equal(format_find("markdown"), &format_markdown);
	assert_ptr_equal(format_find("md"), &format_markdown);
	assert_ptr_equal(format_find("raw"), &format_raw);
	assert_null(format_find("yaml"));
	assert_ptr_equal(format_at(0), &format_text);
}

/* Markup in a recording (recordings/markup.ndjson) is text in the
 * Markdown document: header fields, the prompt, call lines, notices and
 * diagnostics have '<', '>' and '&' as entities or stand in code spans;
 * replies and thinking keep their Markdown, their code spans and fenced
 * blocks as they are, and no tag outside them. */
static void
test_markdown_markup(void **state)
{
	static const char *const never[] = {
		"<img",     "<b>",     "<script>alert", "</details><svg", "<svg", "<iframe",
		"<marquee", "<a href", "<blink",        "<object",        "<u>",  "&lt;u&gt;",
	};
	static const char *const always[] = {
		"## Session 9d1c2e3f \xC2\xB7 Auto &lt;img src=x onerror=\"alert(1)\"&gt; "
		"\xC2\xB7 /home/u/&lt;b&gt;proj&lt;/b&gt;\n",
		"> Explain &lt;script&gt;alert('prompt')&lt;/script&gt; &amp; fix `Vec<T>`.\n",
		"The page has &lt;/details>&lt;b>bold&lt;/b> in it.",
		"Here &lt;/details>&lt;svg onload=alert(2)> is the fix; the type `Vec<T>` "
		"stays code, and a > b & c stays text.",
		"```html\n<script>kept as code</script>\n```\n",
		"`grep -n '<div>' index.html`",
		"&lt;marquee&gt;not found&lt;/marquee&gt;",
		"surprise/&lt;blink&gt;",
		"`<style>body{display:none}</style> a line that is not JSON`",
		"Done: &lt;u>all&lt;/u> fixed.\n\n**Result:**",
	};
	size_t n;
	char *text = fixture_slurp("recordings/markup.ndjson", &n);
	char *out = run(text, &format_markdown, NULL);
	const char *d;

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(never); i++)
		if (strstr(out, never[i]) != NULL)
			fail_msg("\"%s\" in:\n%s", never[i], out);
	for (size_t i = 0; i < ARRAY_LEN(always); i++)
		if (strstr(out, always[i]) == NULL)
			fail_msg("no \"%s\" in:\n%s", always[i], out);
	/* The only details element is the thinking's, whole. */
	d = strstr(out, "<details>");
	assert_non_null(d);
	assert_null(strstr(d + 1, "<details>"));
	assert_non_null(strstr(d, "\n</details>\n"));
	assert_null(strstr(strstr(d, "\n</details>\n") + 2, "</details>"));
	free(out);
	free(text);
}

/* Every '<' of an HTML page opens one of the elements the page writes
 * (or closes one): none of event text's making. */
static void
assert_html_tags(const char *s, size_t n)
{
	static const char *const tags[] = {
		"!DOCTYPE html",
		"html",
		"head",
		"meta",
		"title",
		"style",
		"body",
		"main",
		"header",
		"h1",
		"h2",
		"h3",
		"span",
		"div",
		"section",
		"nav",
		"ol",
		"li",
		"dl",
		"dt",
		"dd",
		"p",
		"strong",
		"details",
		"summary",
		"pre",
		"code",
		"footer",
		"svg",
		"g",
		"a",
		"text",
		"line",
		"rect",
		"script",
		/* A reply's Markdown (markdown_html). */
		"h4",
		"h5",
		"h6",
		"ul",
		"blockquote",
		"hr",
		"br",
		"em",
		"del",
		"table",
		"thead",
		"tbody",
		"tr",
		"th",
		"td",
	};
	size_t scripts = 0;

	for (const char *lt = memchr(s, '<', n); lt != NULL;
	     lt = memchr(lt + 1, '<', n - (size_t)(lt + 1 - s))) {
		const char *name = lt + 1 + (lt[1] == '/');
		size_t k = 0;
		bool ok = false;

		while (name + k < s + n && name[k] != ' ' && name[k] != '>' && name[k] != '/' &&
		       name[k] != '\n')
			k++;
		for (size_t i = 0; i < ARRAY_LEN(tags) && !ok; i++)
			ok = strncmp(name, tags[i], k) == 0 && tags[i][k] == '\0';
		if (strcmp(tags[0], "!DOCTYPE html") == 0 && k == 8 &&
		    strncmp(name, "!DOCTYPE", 8) == 0)
			ok = true;
		if (!ok)
			fail_msg("'<%.*s' at byte %zu is not the page's markup", (int)k, name,
				 (size_t)(lt - s));
		scripts += lt[1] != '/' && k == 6 && strncmp(name, "script", 6) == 0;
	}
	/* The page's own, and no other. */
	assert_int_equal(scripts, 1);
}

/* The HTML page: the session's words, the transcript with thinking and
 * calls folded, each call's detail, the chart's bars where the calls
 * lie on the session's axis, and nothing a terminal or a browser would
 * act on. */
static void
test_html(void **state)
{
	static const char *const always[] = {
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		"style-src 'sha256-",
		"<h2>Session 17e650d2 \xC2\xB7 Grok 4.7 \xC2\xB7 /home/dev/p</h2>",
		"<dt>Session id</dt><dd>17e650d2-1c02-439a</dd><dt>Agent</dt>"
		"<dd>Cursor Agent</dd><dt>Model</dt><dd>Grok 4.7</dd>",
		"<p class=\"status st-ok\">ok \xC2\xB7 2.1 s \xC2\xB7 2 tool calls: "
		"1 failed, 1 orphaned \xC2\xB7 tokens 10.5k in, 28 out, 5.9k cache read</p>",
		"<div class=\"text\">run it\nnow</div>",
		"<details class=\"thinking\"><summary>thinking \xC2\xB7 500 ms</summary>"
		"<div class=\"text\">Plan</div>\n</details>",
		"<div class=\"md\"><p>I&#39;ll run</p>\n</div>",
		/* The ESC and BEL of the command shown, as on the screen. */
		"<details class=\"call st-failed\" id=\"c1\"><summary><span class=\"g\">"
		"\xE2\x9C\x97</span> Shell `echo ^[]0;x^G` \xE2\x86\x92 exit 2 \xC2\xB7 1.2 s"
		"</summary><pre class=\"detail\"><span class=\"lead\">kind        </span>"
		"shell (shellToolCall)\n",
		"<span class=\"lead\">exit code   </span>2\n",
		/* The call id's newline as the detail shows it. */
		"<span class=\"r-dim\">c-1\xE2\x86\xB5"
		"fc_1</span>",
		"<p class=\"line diag\">! line 10: not JSON: not json at all ^[[2J</p>",
		"<p class=\"line result st-ok\"><strong>Result:</strong> ok \xC2\xB7 2.1 s",
		/* The axis: 2.1 s in quarters, and the bars: c-1 from 0.7 s to
		 * 1.9 s, c-2 (orphaned) from 2.0 s to the end. */
		"<text x=\"715.0\" y=\"14\" text-anchor=\"middle\">1.1 s</text>",
		"<a href=\"#c1\"><g class=\"st-failed\"><title>\xE2\x9C\x97 Shell `echo "
		"^[]0;x^G` \xE2\x86\x92 exit 2 \xC2\xB7 1.2 s</title><text x=\"4\" y=\"35\">"
		"\xE2\x9C\x97 Shell `echo ^[]0;x^G` \xE2\x86\x92 exit 2</text>"
		"<rect x=\"623.3\" y=\"26\" width=\"314.3\" height=\"12\" rx=\"2\"/></g></a>",
		"<a href=\"#c2\"><g class=\"st-orphaned\">",
		"<rect x=\"963.8\" y=\"44\" width=\"26.2\" height=\"12\" rx=\"2\"/>",
		"<footer>1 line could not be read as JSON. Made by agentview ",
		"</script>\n</body>\n</html>\n",
	};
	size_t n;
	char *out = run(session, &format_html, &n);

	(void)state;
	assert_terminal_safe(out, n);
	assert_html_tags(out, n);
	for (size_t i = 0; i < ARRAY_LEN(always); i++)
		if (strstr(out, always[i]) == NULL)
			fail_msg("no \"%s\" in:\n%s", always[i], out);
	/* The reply's streamed deltas and its recap are one text. */
	assert_null(strstr(out, "I&#39;ll runI&#39;ll run"));
	assert_memory_equal(out, "<!DOCTYPE html>\n", 16);
	free(out);
}

/* The page of recordings full of markup and escape sequences: every tag
 * is the page's own, event text is shown as text, and agrees with the
 * Markdown export's words. */
static void
test_html_markup(void **state)
{
	static const char *const files[] = {"recordings/markup.ndjson",
					    "recordings/escapes.ndjson"};
	static const char *const always[] = {
		"Auto &lt;img src=x onerror=&quot;alert(1)&quot;&gt;",
		"Explain &lt;script&gt;alert(&#39;prompt&#39;)&lt;/script&gt; &amp; fix "
		"`Vec&lt;T&gt;`.",
		"The page has &lt;/details&gt;&lt;b&gt;bold&lt;/b&gt; in it.",
		"<p>Here &lt;/details&gt;&lt;svg onload=alert(2)&gt; is the fix; the type "
		"<code>Vec&lt;T&gt;</code> stays code, and a &gt; b &amp; c stays text.</p>\n"
		"<div class=\"lang\">html</div>\n"
		"<pre class=\"code\"><code>&lt;script&gt;kept as code&lt;/script&gt;"
		"</code></pre>\n</div>",
		"! Read &lt;iframe&gt;.md \xC2\xB7 &lt;marquee&gt;not found&lt;/marquee&gt;",
		"surprise/&lt;blink&gt;: {&quot;type&quot;:&quot;surprise&quot;",
		"! line 12: not JSON: &lt;style&gt;body{display:none}&lt;/style&gt;",
		"Done: &lt;u&gt;all&lt;/u&gt; fixed.",
	};

	(void)state;
	for (size_t f = 0; f < ARRAY_LEN(files); f++) {
		size_t n;
		char *text = fixture_slurp(files[f], &n);
		char *out = run(text, &format_html, &n);

		assert_terminal_safe(out, n);
		assert_html_tags(out, n);
		for (size_t i = 0; f == 0 && i < ARRAY_LEN(always); i++)
			if (strstr(out, always[i]) == NULL)
				fail_msg("no \"%s\" in:\n%s", always[i], out);
		if (f == 1)
			assert_non_null(strstr(out, "Show me what motd.txt prints "
						    "^[]0;PROMPT-TITLE^Gand explain"));
		free(out);
		free(text);
	}
}

/* A reply's Markdown on the page (issue 22 item 12): its elements, its
 * link out with no opener and no referrer; inside every reply of a
 * recording full of tracking images and links of every scheme, only the
 * elements markdown_html writes, never an image. */
static void
test_html_markdown(void **state)
{
	static const char *const files[] = {"recordings/markdown.ndjson",
					    "recordings/md-links.ndjson"};
	static const char *const want[] = {
		"<div class=\"reply\"><div class=\"md\"><h5>Why the build fails</h5>\n",
		"<p>The linker stops at <strong><code>parse_line</code></strong>: it is defined in "
		"<em>two</em> files",
		"<a href=\"https://ci.example.com/run/42\" rel=\"noopener noreferrer nofollow\">the "
		"CI log</a>",
		"<h6>What I changed</h6>\n<ol>\n<li>Removed the copy in <code>src/util.c</code>\n"
		"</li>\n<li>Kept the one in <code>src/parse.c</code>, because:\n<ul>\n"
		"<li>it handles <strong>CRLF</strong> endings\n</li>\n",
		"<div class=\"lang\">c</div>\n<pre class=\"code\"><code>static int\n",
		"<thead>\n<tr><th>file</th><th>before</th><th>after</th></tr>\n</thead>\n",
		"<blockquote>\n<p><strong>Note:</strong> run <code>make clean</code> once",
	};

	(void)state;
	for (size_t f = 0; f < ARRAY_LEN(files); f++) {
		size_t n, replies = 0;
		char *text = fixture_slurp(files[f], &n);
		char *out = run(text, &format_html, &n);
		const char *p = out;

		assert_terminal_safe(out, n);
		assert_html_tags(out, n);
		assert_null(strstr(out, "<img"));
		/* Elements, not lines: the page keeps no blank of a reply. */
		assert_null(strstr(out, ".md{white-space:pre-wrap"));
		assert_null(strstr(out, ",.md{white-space:pre-wrap"));
		while ((p = strstr(p, "<div class=\"md\">")) != NULL) {
			const char *e = strstr(p, "</div>\n</div>\n");

			p += strlen("<div class=\"md\">");
			assert_non_null(e);
			if (markdown_html_stranger(p, (size_t)(e - p)) != NULL)
				fail_msg("%s: not markdown_html's: %.80s", files[f],
					 markdown_html_stranger(p, (size_t)(e - p)));
			replies++;
		}
		assert_true(replies >= (f == 0 ? 3u : 1u));
		for (size_t i = 0; f == 0 && i < ARRAY_LEN(want); i++)
			if (strstr(out, want[i]) == NULL)
				fail_msg("no \"%s\" in:\n%s", want[i], out);
		free(out);
		free(text);
	}
}

/* Long text is cut where it is, saying how much more there was: a reply
 * at 1 MiB, a call's detail at 32 KiB. */
static void
test_html_cuts(void **state)
{
	struct buf t = {0};
	size_t n;
	char *out;

	(void)state;
	buf_adds(&t, "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\","
		     "\"model\":\"m\"}\n"
		     "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\","
		     "\"text\":\"");
	/* 5 bytes decoded each, 3,000,000 in all: 1 MiB ends inside an "é". */
	for (int i = 0; i < 600000; i++)
		buf_adds(&t, "\\u00e9<&>");
	buf_adds(&t, "\"}]}}\n"
		     "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c\","
		     "\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"yes\"}}}}\n"
		     "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c\","
		     "\"tool_call\":{\"shellToolCall\":{\"result\":{\"success\":{"
		     "\"exitCode\":0,\"stdout\":\"");
	for (int i = 0; i < 20000; i++) /* 80,000 bytes */
		buf_adds(&t, "yes\\n");
	buf_adds(&t, "\"}}}}}\n");
	out = run(t.p, &format_html, &n);
	assert_terminal_safe(out, n);
	assert_html_tags(out, n);
	/* 1 MiB of the reply shown, cut on a code point, its markup escaped. */
	assert_non_null(strstr(out, "\xC3\xA9&lt;&amp;&gt;</p>\n</div>\n<p class=\"cut\">"
				    "\xE2\x80\xA6 1.9 MB more not shown (the page shows at "
				    "most 1.0 MB of a text)</p>"));
	assert_null(strstr(out, "\xEF\xBF\xBD"));
	assert_non_null(strstr(out, "<span class=\"r-dim\">\xE2\x80\xA6 cut: the detail "
				    "holds at most 32.0 KB; "));
	/* Whole, the reply alone would make 9 MB of page. */
	assert_true(n < (4u << 20));
	free(out);
	buf_free(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_log),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_markdown_markup),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_html_markup),
		cmocka_unit_test(test_html_markdown),
		cmocka_unit_test(test_html_cuts),
		cmocka_unit_test(test_json_summary),
		cmocka_unit_test(test_reply_segments),
		cmocka_unit_test(test_json_cache_same),
		cmocka_unit_test(test_incomplete),
		cmocka_unit_test(test_silent_end),
		cmocka_unit_test(test_html_untimed),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_command_failed),
		cmocka_unit_test(test_header_fields),
		cmocka_unit_test(test_fuzz_regressions),
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_bad_line_excerpt),
		cmocka_unit_test(test_reply_across_subagent),
		cmocka_unit_test(test_json_error_reason),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
