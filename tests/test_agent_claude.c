/* test_agent_claude.c: Claude Code's stream as the real CLI prints it
 * (recordings/claude-*, src/FORMAT.md §10): content blocks as events,
 * partial deltas never doubled, a message cut off and sent again, a
 * sub-agent's lines under its call, a second turn of the same session. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "fixture.h"

#include "detail.h"
#include "jump.h"
#include "model.h"
#include "print.h"
#include "summary.h"
#include "tool.h"
#include "words.h"

#define INIT \
	"{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/w\"," \
	"\"session_id\":\"s\",\"tools\":[\"Bash\"],\"model\":\"claude-x\"," \
	"\"claude_code_version\":\"2.1.330\"}\n"
#define TEXT(parent, t) \
	"{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":" \
	"[{\"type\":\"text\",\"text\":\"" t "\"}]},\"parent_tool_use_id\":" parent "}\n"
#define DELTA(parent, t) \
	"{\"type\":\"stream_event\",\"event\":{\"type\":\"content_block_delta\"," \
	"\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" t "\"}}," \
	"\"parent_tool_use_id\":" parent "}\n"
#define STOP(parent) \
	"{\"type\":\"stream_event\",\"event\":{\"type\":\"content_block_stop\"," \
	"\"index\":0},\"parent_tool_use_id\":" parent "}\n"
#define USE(parent, id, name, input) \
	"{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":" \
	"[{\"type\":\"tool_use\",\"id\":\"" id "\",\"name\":\"" name "\"," \
	"\"input\":" input "}]},\"parent_tool_use_id\":" parent "}\n"
#define RESULT_OF(parent, id, content) \
	"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":" \
	"[{\"tool_use_id\":\"" id "\",\"type\":\"tool_result\",\"content\":" \
	"\"" content "\",\"is_error\":false}]},\"parent_tool_use_id\":" parent "}\n"
#define END \
	"{\"duration_ms\":400,\"is_error\":false,\"num_turns\":2," \
	"\"subtype\":\"success\",\"result\":\"Done.\",\"session_id\":\"s\"," \
	"\"total_cost_usd\":0.0166,\"type\":\"result\"}\n"

/* clang-format off */
#define SYS(rest) "{\"type\":\"system\",\"session_id\":\"s\"," rest "}\n"
/* A Bash of 3 s in the foreground (recordings/claude-slow-shell). */
#define SLOW_BASH \
	USE("null", "b1", "Bash", "{\"command\":\"sleep 3\"}") \
	SYS("\"subtype\":\"task_started\",\"task_id\":\"bk\",\"tool_use_id\":\"b1\"," \
	    "\"description\":\"Run sleep 3\",\"is_backgrounded\":false,\"task_type\":\"local_bash\"") \
	SYS("\"subtype\":\"task_notification\",\"task_id\":\"bk\",\"tool_use_id\":\"b1\"," \
	    "\"status\":\"completed\",\"summary\":\"Run sleep 3\"") \
	RESULT_OF("null", "b1", "done")
/* A sub-agent in the background (recordings/claude-subagent-bg): the
 * Agent call's result is its launch; its notification, its end. */
#define BG_AGENT \
	"{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":[{\"type\":" \
	"\"tool_use\",\"id\":\"a1\",\"name\":\"Agent\",\"input\":{\"description\":" \
	"\"Run echo\",\"prompt\":\"p\",\"run_in_background\":true}}]}," \
	"\"parent_tool_use_id\":null,\"timestamp\":\"2026-11-27T08:36:56.425Z\"}\n" \
	SYS("\"subtype\":\"background_tasks_changed\",\"tasks\":[{\"task_id\":\"ag\"}]") \
	SYS("\"subtype\":\"task_started\",\"task_id\":\"ag\",\"tool_use_id\":\"a1\"," \
	    "\"description\":\"Run echo\",\"is_backgrounded\":true,\"task_type\":\"local_agent\"") \
	RESULT_OF("null", "a1", "Async agent launched successfully.") \
	TEXT("\"a1\"", "Running it.") \
	SYS("\"subtype\":\"task_progress\",\"task_id\":\"ag\",\"tool_use_id\":\"a1\"," \
	    "\"usage\":{\"total_tokens\":102,\"tool_uses\":1,\"duration_ms\":106}," \
	    "\"last_tool_name\":\"Bash\"") \
	TEXT("null", "It runs.") \
	SYS("\"subtype\":\"task_updated\",\"task_id\":\"ag\",\"patch\":{\"status\":\"completed\"}") \
	SYS("\"subtype\":\"task_notification\",\"task_id\":\"ag\",\"tool_use_id\":\"a1\"," \
	    "\"status\":\"completed\",\"summary\":\"It printed from-sub.\"," \
	    "\"usage\":{\"total_tokens\":131,\"tool_uses\":1,\"duration_ms\":3192}")
/* clang-format on */

/* A result of a turn of n turns, i tokens in, o out; the cost so far. */
#define END_OF(idx, n, i, o) \
	"{\"duration_ms\":100,\"session_id\":\"s\",\"total_cost_usd\":0.0079," \
	"\"usage\":{\"input_tokens\":" #i ",\"output_tokens\":" #o \
	",\"output_tokens_details\":{\"thinking_tokens\":0}},\"is_error\":false," \
	"\"num_turns\":" #n ",\"subtype\":\"success\",\"result\":\"r\",\"type\":\"result\"," \
	"\"result_index\":" #idx ",\"modelUsage\":{\"claude-x\":{\"inputTokens\":1020}}}\n"

static struct fixture *
feed(const char *text)
{
	return fixture_new(text, strlen(text), 0);
}

/* The JSON summary's assistant_text of session 0, in f->b. */
static const char *
reply(struct fixture *f)
{
	struct buf all = {0};
	const char *p, *q;

	summary_write(f->m, NULL, &all, NULL);
	p = strstr(all.p, "\"assistant_text\":\"");
	assert_non_null(p);
	p += strlen("\"assistant_text\":\"");
	q = strstr(p, "\",\"tool_calls\"");
	assert_non_null(q);
	buf_reset(&f->b);
	buf_add(&f->b, p, (size_t)(q - p));
	buf_free(&all);
	return f->b.p;
}

/* What printer fmt makes of text, NUL-terminated (free it). */
static char *
printed(const char *text, const struct format *fmt)
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
	return out;
}

/* How many times needle is in s. */
static int
count(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* Deltas shown, the whole block after them a recap: the reply once. */
static void
test_partial_not_doubled(void **state)
{
	struct fixture *f = feed(INIT DELTA("null", "Let me ") DELTA("null", "run it.")
					 TEXT("null", "Let me run it.") STOP("null") END);

	(void)state;
	assert_string_equal(reply(f), "Let me run it.");
	assert_int_equal(f->m->it[1].type, IT_TEXT);
	assert_false(f->m->it[1].flags & IF_CUT);
	fixture_free(f);
}

/* A block whose whole text never came was cut off: it stays on screen,
 * said so, and is not part of the reply. */
static void
test_cut_off(void **state)
{
	struct fixture *f = feed(INIT DELTA("null", "This reply came ") STOP(
		"null") "{\"type\":\"system\",\"subtype\":\"api_retry\",\"attempt\":1,"
			"\"max_retries\":1,\"error\":\"unknown\"}\n" DELTA("null",
									   "This reply came whole.")
					 TEXT("null", "This reply came whole.") STOP("null") END);
	struct tool_desc td = {0};

	(void)state;
	assert_true(f->m->it[1].flags & IF_CUT);
	assert_true(f->m->ses[0].has_cut);
	assert_string_equal(reply(f), "This reply came whole.");
	buf_reset(&f->b);
	words_item(f->m, 1, 0, &td, &f->b);
	assert_string_equal(f->b.p, "This reply came \xE2\x80\xA6 (cut off)");
	buf_reset(&f->b);
	words_item(f->m, 2, 0, &td, &f->b);
	assert_string_equal(f->b.p, "API error, retrying (attempt 1 of 1)");
	tool_desc_free(&td);
	fixture_free(f);
}

/* A sub-agent's lines go under its call, in their own items even when
 * they interleave with the session's; its text is not the reply. */
static void
test_sub_agent(void **state)
{
	static const char stream[] = INIT TEXT("null", "Starting it.")
		USE("null", "t1", "Agent", "{\"description\":\"Run echo\",\"prompt\":\"p\"}")
			DELTA("null", "The sub-agent ") TEXT("\"t1\"", "Running it.")
				DELTA("null", "is running.") USE("\"t1\"", "t2", "Bash",
								 "{\"command\":\"echo from-sub\"}")
					RESULT_OF("\"t1\"", "t2", "from-sub")
						RESULT_OF("null", "t1", "done") END;
	struct fixture *f = feed(stream);
	uint32_t main_text = NONE, sub_text = NONE;
	char *out;

	(void)state;
	assert_int_equal(f->m->ncall, 2);
	assert_int_equal(f->m->call[0].kind, TK_TASK);
	assert_int_equal(f->m->call[0].parent, NONE);
	assert_int_equal(f->m->call[1].parent, 0);
	assert_int_equal(f->m->it[f->m->call[1].item].depth, 1);
	for (uint32_t i = 0; i < f->m->nit; i++) {
		if (f->m->it[i].type != IT_TEXT)
			continue;
		buf_reset(&f->b);
		model_item_text(f->m, i, &f->b);
		if (strcmp(f->b.p, "The sub-agent is running.") == 0)
			main_text = i;
		if (strcmp(f->b.p, "Running it.") == 0)
			sub_text = i;
	}
	assert_int_not_equal(main_text, NONE);
	assert_int_not_equal(sub_text, NONE);
	assert_int_equal(f->m->it[main_text].depth, 0);
	assert_int_equal(f->m->it[sub_text].depth, 1);
	assert_string_equal(reply(f), "Starting it.\\n\\nThe sub-agent is running.");
	fixture_free(f);
	/* The JSON summary nests each call by its parent's id. */
	out = printed(stream, &format_json);
	assert_non_null(strstr(out, "{\"call_id\":\"t1\",\"parent\":null,\"tool\":\"Agent\""));
	assert_non_null(strstr(out, "{\"call_id\":\"t2\",\"parent\":\"t1\",\"tool\":\"Bash\""));
	free(out);
}

/* A second init of the same session before its result goes on in it;
 * cost and turns come from the result. */
static void
test_second_turn(void **state)
{
	struct fixture *f = feed(INIT TEXT("null", "One.") INIT TEXT("null", "Two.") END);

	(void)state;
	assert_int_equal(f->m->nses, 1);
	buf_reset(&f->b);
	words_session_line(f->m, 0, &f->b);
	assert_string_equal(f->b.p, "ok \xC2\xB7 400 ms \xC2\xB7 no tool calls "
				    "\xC2\xB7 $0.0166 \xC2\xB7 2 turns");
	fixture_free(f);
	/* After its result, an init starts another session. */
	f = feed(INIT TEXT("null", "One.") END INIT TEXT("null", "Two.") END);
	assert_int_equal(f->m->nses, 2);
	fixture_free(f);
}

/* The notices of session 0, one a line, in f->b. */
static const char *
notices(struct fixture *f)
{
	struct tool_desc td = {0};

	buf_reset(&f->b);
	for (uint32_t i = 0; i < f->m->nit; i++) {
		if (f->m->it[i].type != IT_NOTICE)
			continue;
		words_item(f->m, i, 0, &td, &f->b);
		buf_addc(&f->b, '\n');
	}
	tool_desc_free(&td);
	return f->b.p != NULL ? f->b.p : "";
}

/* A foreground Bash's task_started and task_notification are the
 * progress of its call, no sub-agent's (issue 22.4); so are a task's
 * task_progress, task_updated and background_tasks_changed. */
static void
test_local_bash_no_subagent(void **state)
{
	struct fixture *f = feed(INIT SLOW_BASH TEXT("null", "It printed done.") END);

	(void)state;
	assert_string_equal(notices(f), "");
	assert_int_equal(model_call_state(f->m, 0), CS_OK);
	fixture_free(f);
	f = feed(INIT BG_AGENT END);
	assert_null(strstr(notices(f), "task_progress"));
	assert_null(strstr(notices(f), "task_updated"));
	assert_null(strstr(notices(f), "background_tasks_changed"));
	assert_non_null(strstr(notices(f), "sub-agent started: Run echo\n"));
	fixture_free(f);
}

/* A sub-agent in the background runs until its notification, then is
 * done with its answer and the time it ran (issue 22.5). */
static void
test_background_agent(void **state)
{
	struct fixture *f = fixture_new(INIT BG_AGENT, strlen(INIT BG_AGENT), FX_UNREAD);
	struct tool_desc td = {0};
	struct line ln;
	uint32_t ev, launch = NONE;

	(void)state;
	while (fixture_next(f, &ln, &ev)) {
		if (EV_TYPE(&f->m->ev[ev]) == EV_TOOL_DONE && f->m->call[0].done_ev == ev)
			launch = ev;
		if (launch != NONE && f->m->call[0].bg_ev == NONE)
			assert_int_equal(model_call_state(f->m, 0), CS_RUNNING);
		/* Its progress is its running line's, no notice. */
		if (model_call_progress(f->m, 0) == ev) {
			tool_describe(f->m, 0, &td);
			assert_string_equal(td.outcome.p,
					    "background \xC2\xB7 Bash \xC2\xB7 1 tool "
					    "use \xC2\xB7 102 tokens");
		}
	}
	assert_int_not_equal(model_call_progress(f->m, 0), NONE);
	assert_int_not_equal(launch, NONE);
	fixture_end(f);
	assert_int_equal(model_call_state(f->m, 0), CS_OK);
	tool_describe(f->m, 0, &td);
	assert_string_equal(td.outcome.p, "It printed from-sub.");
	assert_int_equal(model_call_duration(f->m, 0), 3192);
	/* Its start and end are said under it, with its lines. */
	for (uint32_t i = 0; i < f->m->nit; i++)
		if (f->m->it[i].type == IT_NOTICE)
			assert_int_equal(model_item_parent(f->m, i), f->m->call[0].item);
	assert_int_equal(f->m->ev[f->m->call[0].bg_ev].item != NONE, true);
	tool_desc_free(&td);
	fixture_free(f);
}

/* A background task's end starts another turn of the same session, with
 * a result of its own (issue 22.1): one session, one closing line, its
 * turns and tokens summed; as the real CLI sends them, both results at
 * the end, or the first before the notification. */
static void
test_two_results(void **state)
{
	static const char *const streams[] = {
		INIT TEXT("null", "Starting it.") BG_AGENT INIT TEXT("null", "It saw from-sub.")
			END_OF(0, 2, 210, 41) END_OF(1, 1, 120, 22),
		INIT TEXT("null", "Starting it.") USE(
			"null", "a1", "Agent", "{\"description\":\"Run echo\",\"prompt\":\"p\"}")
			SYS("\"subtype\":"
			    "\"task_started\","
			    "\"task_id\":\"ag\","
			    "\"tool_use_id\":\"a1\","
			    "\"is_backgrounded\":"
			    "true") RESULT_OF("null", "a1", "launched") END_OF(0, 2, 210, 41)
				SYS("\"subtype\":\"task_notification\",\"task_id\":"
				    "\"ag\",\"status\":\"completed\",\"summary\":\"s\"")
					INIT TEXT("null", "It saw from-sub.") END_OF(1, 1, 120, 22),
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(streams); i++) {
		struct fixture *f = feed(streams[i]);
		char *out;

		assert_int_equal(f->m->nses, 1);
		buf_reset(&f->b);
		words_session_line(f->m, 0, &f->b);
		assert_non_null(strstr(f->b.p, "tokens 330 in, 63 out"));
		assert_non_null(strstr(f->b.p, "3 turns"));
		fixture_free(f);
		out = printed(streams[i], &format_text);
		assert_int_equal(count(out, "\n== ok"), 1);
		assert_int_equal(count(out, "It saw from-sub."), 1);
		free(out);
		out = printed(streams[i], &format_markdown);
		assert_int_equal(count(out, "**Result:**"), 1);
		free(out);
		out = printed(streams[i], &format_json);
		assert_non_null(
			strstr(out, "\"usage\":{\"input_tokens\":330,\"output_tokens\":63,"));
		free(out);
	}
}

/* Between a first result and the turn its init said would follow, the
 * session is not over: its result is no closing line yet. */
static void
test_turn_between_results(void **state)
{
	static const char stream[] = INIT TEXT("null", "One.") INIT TEXT("null", "Two.")
		END_OF(0, 2, 210, 41) END_OF(1, 1, 120, 22);
	struct fixture *f = fixture_new(stream, strlen(stream), FX_LIVE);

	(void)state;
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	/* Each turn's text a paragraph of its own. */
	assert_int_equal(f->m->it[1].type, IT_TEXT);
	assert_int_equal(f->m->it[2].type, IT_TEXT);
	f->m->limit = (uint32_t)f->m->nev - 2; /* as of the first result */
	assert_int_equal(model_session_state(f->m, 0), SS_LIVE);
	buf_reset(&f->b);
	words_session_line(f->m, 0, &f->b);
	assert_non_null(strstr(f->b.p, "2 turns"));
	f->m->limit = NONE;
	fixture_free(f);
}

/* The order every output reads the items in: a sub-agent's under its
 * task's, wherever its lines came; a sub-agent's own sub-agent's under
 * its task, deeper; as of a replay's limit too. */
static void
test_order(void **state)
{
	static const char stream[] = INIT TEXT("null", "Starting it.")
		USE("null", "t1", "Agent", "{\"description\":\"Run echo\",\"prompt\":\"p\"}")
			DELTA("null", "The sub-agent ") TEXT("\"t1\"", "Running it.")
				DELTA("null", "is running.") USE("\"t1\"", "t2", "Agent",
								 "{\"description\":\"Deeper\"}")
					USE("\"t2\"", "t3", "Bash", "{\"command\":\"echo\"}")
						RESULT_OF("\"t2\"", "t3", "x")
							RESULT_OF("\"t1\"", "t2", "done")
								RESULT_OF("null", "t1", "done") END;
	/* session, text, t1, main text, sub text, t2, t3, result */
	static const uint32_t want[] = {0, 1, 2, 4, 5, 6, 3, 7};
	static const uint32_t depth[] = {0, 0, 0, 0, 1, 1, 2, 0};
	struct fixture *f = feed(stream);

	(void)state;
	assert_int_equal(f->m->nit, ARRAY_LEN(want));
	for (uint32_t i = 0; i < ARRAY_LEN(want); i++) {
		assert_int_equal(f->m->it[i].depth, depth[i]);
		assert_int_equal(model_order_item(f->m, i), want[i]);
		assert_int_equal(model_order_pos(f->m, want[i]), i);
	}
	assert_int_equal(model_item_parent(f->m, 4), 2);
	assert_int_equal(model_item_parent(f->m, 6), 5);
	assert_int_equal(model_item_parent(f->m, 3), NONE);
	/* The calls (the timeline's rows) in the same order. */
	for (uint32_t c = 0; c < 3; c++) {
		assert_int_equal(model_order_call(f->m, c), c);
		assert_int_equal(model_call_row(f->m, c), c);
	}
	/* The next call after the main text is none; after the task, the
	 * sub-agent's. */
	assert_int_equal(jump_find(f->m, 2, 1, JUMP_TOOL, 0, false), 5);
	assert_int_equal(jump_find(f->m, 3, 1, JUMP_TOOL, 0, false), NONE);
	assert_int_equal(jump_find(f->m, 3, -1, JUMP_TOOL, 0, false), 6);
	/* As of the sub-agent's text: it is under its task already. */
	f->m->limit = f->m->it[4].first_ev;
	assert_int_equal(model_order_item(f->m, 3), 4);
	assert_int_equal(model_order_item(f->m, 4), 3);
	assert_int_equal(model_order_item(f->m, 5), NONE);
	assert_int_equal(model_order_pos(f->m, 5), NONE);
	f->m->limit = NONE;
	assert_int_equal(model_order_item(f->m, 7), 7);
	fixture_free(f);
	/* Without a sub-agent, or one whose lines came in place: the items'
	 * own order, no arrays made. */
	f = feed(INIT TEXT("null", "Starting it.") USE("null", "t1", "Agent", "{}")
			 TEXT("\"t1\"", "Running it.") RESULT_OF("null", "t1", "done") END);
	assert_false(f->m->moved);
	assert_int_equal(model_order_item(f->m, 3), 3);
	assert_null(f->m->order);
	fixture_free(f);
}

/* The logs, streamed, write a sub-agent's work under its task's line
 * when the task ends (its notices as they come): the session's reply is
 * never broken by a sub-agent's, and each sub-agent's lines are under
 * its own task, a level deeper (recordings/claude-subagents: a
 * foreground and a background sub-agent, the latter's lines after the
 * session's). */
static void
test_log_nested(void **state)
{
	static const char want[] =
		"== session 9f95df43 \xC2\xB7 Claude Code \xC2\xB7 claude-opus-5-5 \xC2\xB7 "
		"/tmp/agentview-agents.02kY5S/claude-subagents/work\n"
		"First the foreground sub-agent.\n"
		"  ~ sub-agent started: Run echo from-fg\n"
		"  ~ sub-agent completed: It printed from-fg.\n"
		"  \xE2\x9C\x93 Task Run echo from-fg \xC2\xB7 done \xC2\xB7 249 ms\n"
		"    > FOREGROUND: run the shell command `echo from-fg` and report its output.\n"
		"      \xE2\x9C\x93 Shell `echo from-fg` \xE2\x86\x92 \"from-fg\" \xC2\xB7 43 ms\n"
		"Now one in the background.\n"
		"  ~ sub-agent started: Run echo from-bg\n"
		"While it runs, my own command.\n"
		"  \xE2\x9C\x93 Shell `echo main-after` \xE2\x86\x92 \"main-after\" \xC2\xB7 14 ms\n"
		"The foreground sub-agent saw from-fg; the background one is still running.\n"
		"  ~ sub-agent completed: It printed from-bg.\n"
		"  \xE2\x9C\x93 Task Run echo from-bg \xC2\xB7 It printed from-bg. \xC2\xB7 3.2 s\n"
		"    Running it in the background.\n"
		"      \xE2\x9C\x93 Shell `sleep 2; echo from-bg` \xE2\x86\x92 \"from-bg\" \xC2\xB7 2.0 s\n"
		"    It printed from-bg.\n"
		"The background sub-agent saw from-bg.\n"
		"== ok \xC2\xB7 801 ms \xC2\xB7 5 tool calls: 5 ok \xC2\xB7 tokens 600 in, 110 out "
		"\xC2\xB7 $0.0079 \xC2\xB7 5 turns\n";
	size_t n;
	char *text = fixture_slurp("recordings/claude-subagents.ndjson", &n);
	char *out = printed(text, &format_text);

	(void)state;
	assert_string_equal(out, want);
	free(out);
	/* Markdown: its lines a list nested in the task's item. */
	out = printed(text, &format_markdown);
	assert_non_null(strstr(
		out, "- \xE2\x9C\x93 Task Run echo from-bg \xC2\xB7 It printed from-bg. "
		     "\xC2\xB7 3.2 s\n\n  Running it in the background.\n\n"
		     "  - \xE2\x9C\x93 Shell `sleep 2; echo from-bg` \xE2\x86\x92 \"from-bg\" "
		     "\xC2\xB7 2.0 s\n\n  It printed from-bg.\n"));
	free(out);
	free(text);
}

/* The HTML page, made at the end, shows a sub-agent's items under its
 * task's row, where the task started, however late its lines came. */
static void
test_html_nested(void **state)
{
	size_t n;
	char *text = fixture_slurp("recordings/claude-subagents.ndjson", &n);
	char *out = printed(text, &format_html);
	const char *task, *sub, *own;
	struct fixture *f;

	(void)state;
	assert_non_null(strstr(out, "<h3>Transcript</h3>"));
	task = strstr(strstr(out, "<h3>Transcript</h3>"), "Task Run echo from-bg");
	sub = strstr(out, "Running it in the background.");
	own = strstr(out, "While it runs, my own command.");
	assert_non_null(task);
	assert_non_null(sub);
	assert_non_null(own);
	assert_true(task < sub && sub < own);
	assert_non_null(strstr(out, "<div class=\"reply depth1\">"));
	free(out);
	/* The timeline's rows too: the background sub-agent's Shell (call
	 * 4) under its task (2), before the session's own (3). */
	f = fixture_new(text, n, 0);
	assert_int_equal(model_order_call(f->m, 3), 4);
	assert_int_equal(model_order_call(f->m, 4), 3);
	assert_int_equal(model_call_row(f->m, 4), 3);
	fixture_free(f);
	free(text);
}

/* Claude Code 2.1.33x's task list: TaskCreate and TaskUpdate, behind
 * ToolSearch (recordings/claude-todos). One list per session, built from
 * the creates and updates: each call's line says the list after it and
 * the task it made or changed; its detail, the list (issue 22.3). */
static void
test_todos(void **state)
{
	static const struct {
		const char *what, *outcome;
	} want[] = {
		{"load tools TaskCreate, TaskUpdate", "ok"},
		{"1 task \xC2\xB7 0 done \xC2\xB7 Tag the release", "new"},
		{"2 tasks \xC2\xB7 0 done \xC2\xB7 Write the notes", "new"},
		{"3 tasks \xC2\xB7 0 done \xC2\xB7 Announce it", "new"},
		{"3 tasks \xC2\xB7 0 done \xC2\xB7 Tag the release", "in progress"},
		{"echo step-one", "\"step-one\""},
		{"3 tasks \xC2\xB7 1 done \xC2\xB7 Tag the release", "done"},
	};
	size_t n;
	char *text = fixture_slurp("recordings/claude-todos.ndjson", &n);
	struct fixture *f = fixture_new(text, n, FX_DETAIL);
	struct tool_desc td = {0};
	struct buf b = {0};

	(void)state;
	assert_int_equal(f->m->ncall, ARRAY_LEN(want));
	assert_int_equal(f->m->call[0].kind, TK_TOOLS);
	for (uint32_t c = 0; c < ARRAY_LEN(want); c++) {
		if (c > 0 && c != 5)
			assert_int_equal(f->m->call[c].kind, TK_TODOS);
		tool_describe(f->m, c, &td);
		assert_string_equal(td.what.p, want[c].what);
		assert_string_equal(td.outcome.p, want[c].outcome);
	}
	/* The list as of the last update, and as of the first create. */
	detail_build(&f->d, 6, 80, false);
	for (size_t i = 0; i < f->d.nrow; i++) {
		buf_add(&b, f->d.text.p + f->d.row[i].off, f->d.row[i].len);
		buf_addc(&b, '\n');
	}
	assert_non_null(strstr(b.p,
			       "tasks\n\xE2\x9C\x93 Tag the release\n\xE2\x97\x8B Write the notes\n"
			       "\xE2\x97\x8B Announce it\n"));
	buf_reset(&b);
	detail_build(&f->d, 4, 80, false);
	for (size_t i = 0; i < f->d.nrow; i++) {
		buf_add(&b, f->d.text.p + f->d.row[i].off, f->d.row[i].len);
		buf_addc(&b, '\n');
	}
	assert_non_null(strstr(b.p, "tasks\n\xE2\x96\xB8 Tag the release\n"));
	buf_free(&b);
	tool_desc_free(&td);
	fixture_free(f);
	free(text);
}

/* The rest of 2.1.33x's system lines and results (issue 22.6): status
 * says when it compacts; compact_boundary is a divider with the tokens
 * before and after; thinking_tokens is no notice; a <synthetic> reply is
 * the API's error; terminal_reason says why a run stopped short; a
 * result's keys in any order. */
static void
test_system_lines(void **state)
{
	static const char stream[] = INIT SYS("\"subtype\":\"status\",\"status\":\"requesting\"") SYS(
		"\"subtype\":\"thinking_tokens\",\"estimated_tokens\":40,"
		"\"estimated_tokens_delta\":8")
		SYS("\"subtype\":\"status\",\"status\":\"compacting\"") SYS(
			"\"subtype\":\"status\",\"status\":null,"
			"\"compact_result\":\"success\"")
			SYS("\"subtype\":\"compact_boundary\",\"compact_metadata\":{"
			    "\"trigger\":\"auto\",\"pre_tokens\":150210,"
			    "\"post_tokens\":12034,\"duration_ms\":3100}") "{\"type\":\"assistant\",\"message\":{\"id\":\"u\",\"model\":\"<synthetic>\","
									   "\"role\":\"assistant\",\"stop_reason\":\"stop_sequence\",\"content\":[{\"type\":"
									   "\"text\",\"text\":\"API Error: 529 Overloaded.\"}]},\"parent_tool_use_id\":null}\n"
									   "{\"terminal_reason\":\"max_turns\",\"num_turns\":9,\"result\":\"r\","
									   "\"is_error\":false,\"session_id\":\"s\",\"duration_ms\":5,\"type\":\"result\","
									   "\"subtype\":\"success\"}\n";
	struct fixture *f = feed(stream);
	const struct block *b = NULL;

	(void)state;
	assert_string_equal(notices(f),
			    "compacting the conversation\n"
			    "conversation compacted (auto): 150.2k \xE2\x86\x92 12.0k tokens "
			    "\xC2\xB7 3.1 s\n"
			    "API Error: 529 Overloaded.\n");
	/* The error is no reply: the reply is the result's. */
	assert_string_equal(reply(f), "r");
	assert_int_equal(model_session_state(f->m, 0), SS_OK);
	buf_reset(&f->b);
	words_session_line(f->m, 0, &f->b);
	assert_string_equal(f->b.p, "ok \xC2\xB7 5 ms \xC2\xB7 no tool calls \xC2\xB7 9 turns "
				    "\xC2\xB7 stopped: max_turns");
	fixture_free(f);
	/* On screen the compaction is a rule across. */
	f = fixture_new(stream, strlen(stream), FX_RENDER);
	for (uint32_t i = 0; i < f->m->nit; i++)
		if (f->m->it[i].type == IT_NOTICE &&
		    (EV_FLAGS(&f->m->ev[f->m->it[i].first_ev]) & EVF_RULE))
			b = render_item(&f->r, i);
	assert_non_null(b);
	assert_int_equal(b->nrow, 2); /* a blank row, the rule */
	assert_memory_equal(b->text.p + b->row[1].off, "\xE2\x94\x80\xE2\x94\x80 conversation", 16);
	fixture_free(f);
}

/* A sub-agent's line after its task's line was written: under that line
 * written again, at its depth; a call of it still open at the end once,
 * under the task's line again. */
static void
test_log_late(void **state)
{
	static const char stream[] =
		INIT USE("null", "t1", "Agent", "{\"description\":\"Run echo\",\"prompt\":\"p\"}")
			RESULT_OF("null", "t1", "done") TEXT("\"t1\"", "Late.")
				USE("\"t1\"", "t2", "Bash", "{\"command\":\"sleep 9\"}")
					TEXT("null", "Main.") END;
	static const char want[] =
		"== session s \xC2\xB7 Claude Code \xC2\xB7 claude-x \xC2\xB7 /w\n"
		"  \xE2\x9C\x93 Task Run echo \xC2\xB7 done\n"
		"  \xE2\x9C\x93 Task Run echo \xC2\xB7 done\n"
		"    Late.\n"
		"Main.\n"
		"== ok \xC2\xB7 400 ms \xC2\xB7 2 tool calls: 1 ok, 1 orphaned \xC2\xB7 $0.0166 \xC2\xB7 "
		"2 turns\n"
		"  \xE2\x9C\x93 Task Run echo \xC2\xB7 done\n"
		"      ? Shell `sleep 9` \xE2\x86\x92 no completed event\n";
	char *out = printed(stream, &format_text);

	(void)state;
	assert_string_equal(out, want);
	free(out);
	out = printed(stream, &format_markdown);
	assert_non_null(strstr(out, "\n\n  Late.\n\nMain.\n"));
	assert_non_null(strstr(out, "\n  - ? Shell `sleep 9` \xE2\x86\x92 no completed event\n"));
	free(out);
	/* Written running under its task, then again when it is known to
	 * have no end; a task never ended, once, its call under it. */
	out = printed(INIT USE("null", "t1", "Agent", "{\"description\":\"Run echo\"}")
			      USE("\"t1\"", "t2", "Bash", "{\"command\":\"sleep 9\"}") RESULT_OF(
				      "null", "t1", "done") USE("null", "t3", "Agent",
								"{\"description\":\"Hang\"}")
				      USE("\"t3\"", "t4", "Bash", "{\"command\":\"sleep 8\"}") END,
		      &format_text);
	assert_string_equal(out, "== session s \xC2\xB7 Claude Code \xC2\xB7 claude-x \xC2\xB7 /w\n"
				 "  \xE2\x9C\x93 Task Run echo \xC2\xB7 done\n"
				 "      \xE2\x80\xA6 Shell `sleep 9` \xE2\x86\x92 running\n"
				 "== ok \xC2\xB7 400 ms \xC2\xB7 4 tool calls: 1 ok, 3 orphaned "
				 "\xC2\xB7 $0.0166 \xC2\xB7 2 turns\n"
				 "  \xE2\x9C\x93 Task Run echo \xC2\xB7 done\n"
				 "      ? Shell `sleep 9` \xE2\x86\x92 no completed event\n"
				 "  ? Task Hang \xC2\xB7 no completed event\n"
				 "      ? Shell `sleep 8` \xE2\x86\x92 no completed event\n");
	free(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partial_not_doubled),
		cmocka_unit_test(test_cut_off),
		cmocka_unit_test(test_sub_agent),
		cmocka_unit_test(test_second_turn),
		cmocka_unit_test(test_local_bash_no_subagent),
		cmocka_unit_test(test_background_agent),
		cmocka_unit_test(test_two_results),
		cmocka_unit_test(test_turn_between_results),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_log_nested),
		cmocka_unit_test(test_log_late),
		cmocka_unit_test(test_html_nested),
		cmocka_unit_test(test_todos),
		cmocka_unit_test(test_system_lines),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
