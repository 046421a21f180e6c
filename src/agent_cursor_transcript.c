/* agent_cursor_transcript.c: Cursor Agent's own transcripts
 * (~/.cursor/projects/<project>/agent-transcripts/<sid>/<sid>.jsonl,
 * ../shared/STORES.md §5). Cursor's CLI cannot be run here: the shapes
 * are those public readers agree on, not seen. Each line is a row
 * {role, message: {content: [blocks]}}: a user row is a prompt (its text
 * wrapped in <user_query>, after a <timestamp> the CLI wrote in words),
 * an assistant row holds text, thinking and tool_use blocks, a user row
 * with tool_result blocks ends calls; {type: "turn_ended", status} ends a
 * turn (success, aborted, error). No row has a time, a tool id, tokens or
 * the model: calls are paired with their results in order, the session
 * is untimed, and its id is its file's name. Its model is in the CLI's
 * chat store (~/.cursor/chats/<md5 of cwd>/<sid>/store.db, SQLite), read
 * only, when there is one. No line starts a session: the first row read
 * begins one (a piece read from inside the file goes on with it).
 *
 * A sub-agent's transcript is <sid>/subagents/<id>.jsonl beside its
 * session's, in the same rows (STORES.md §5, from public readers). As its
 * rows name no call, it runs under the Task call whose prompt is its
 * first prompt (Claude Code's sub-agents start so: not seen for Cursor);
 * its turns' ends are its own, not its session's. */
#define _GNU_SOURCE /* memmem */
#include "agent.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json.h"
#include "rodb.h"

/* Its tools: the names its rows use, old and new. */
static const struct agent_tool transcript_tools[] = {
	{"run_terminal_cmd", TK_SHELL},
	{"Shell", TK_SHELL},
	{"read_file", TK_READ},
	{"Read", TK_READ},
	{"edit_file", TK_EDIT},
	{"search_replace", TK_EDIT},
	{"StrReplace", TK_EDIT},
	{"Edit", TK_EDIT},
	{"write", TK_WRITE},
	{"Write", TK_WRITE},
	{"delete_file", TK_DELETE},
	{"Delete", TK_DELETE},
	{"grep", TK_GREP},
	{"grep_search", TK_GREP},
	{"Grep", TK_GREP},
	{"glob_file_search", TK_GLOB},
	{"Glob", TK_GLOB},
	{"list_dir", TK_LS},
	{"LS", TK_LS},
	{"todo_write", TK_TODOS},
	{"TodoWrite", TK_TODOS},
	{"codebase_search", TK_SEMSEARCH},
	{"SemanticSearch", TK_SEMSEARCH},
	{"web_search", TK_WEBSEARCH},
	{"WebSearch", TK_WEBSEARCH},
	{"WebFetch", TK_WEBFETCH},
	{"Task", TK_TASK},
	{"AskQuestion", TK_QUESTION},
	{"read_lints", TK_LINTS},
	{"ReadLints", TK_LINTS},
	{"mcp_*", TK_MCP},
	{NULL, TK_OTHER},
};

/* No line starts a session. */
static bool
transcript_starts(const struct json *j, const int *k)
{
	(void)j;
	(void)k;
	return false;
}

/* A row: a role and a message object, with no type beside them (Claude
 * Code's store has both); or the end of a turn. */
static bool
transcript_looks(const struct json *j, const int *k)
{
	int role = json_get(j, 0, "role");

	if (k[TOP_TYPE] >= 0)
		return json_streq(j, k[TOP_TYPE], "turn_ended") &&
		       json_type(j, json_get(j, 0, "status")) == JSON_STRING;
	return (json_streq(j, role, "user") || json_streq(j, role, "assistant")) &&
	       json_type(j, json_get(j, 0, "message")) == JSON_OBJECT;
}

/* No row has a time. */
static int64_t
transcript_time(const struct json *j, const int *k)
{
	(void)j;
	(void)k;
	return TIME_NONE;
}

/* The message's content: an array of blocks, or a string. */
static int
content(const struct json *j)
{
	return json_path(j, 0, "message.content");
}

/* Block `part` of the row's content, or -1. */
static int
block(const struct json *j, unsigned part)
{
	int c = content(j), t = c + 1;

	if (part > INT_MAX)
		return -1;
	t = json_nth(j, c, (int)part);
	return json_type(j, t) == JSON_OBJECT ? t : -1;
}

/* Whether block t is thinking (Anthropic's "thinking", or "reasoning"). */
static bool
is_thinking(const struct json *j, int t)
{
	int type = json_get(j, t, "type");

	return json_streq(j, type, "thinking") || json_streq(j, type, "reasoning") ||
	       json_streq(j, type, "redacted_thinking");
}

/* The session's oldest open call, ended by a result that names none;
 * else by its tool_use_id when the rows have ids after all. */
static void
result_block(struct build *b, int t, int part)
{
	const struct json *j = b->j;
	bool err = false;
	struct call_ref r = {json_get(j, t, "tool_use_id"),
			     TK_OTHER,
			     CR_SUCCESS,
			     TIME_NONE,
			     TIME_NONE,
			     false,
			     part};

	if (json_bool(j, json_get(j, t, "is_error"), &err) && err)
		r.result = CR_FAILURE;
	if (json_type(j, r.id) == JSON_STRING)
		build_call_done(b, &r);
	else
		build_call_done_next(b, &r);
}

/* Whether the line is a sub-agent's (a file of its own, agent_more). */
static bool
sub_agent(const struct build *b)
{
	return b->m->src[b->src].sub_of != NONE;
}

/* A user row: its tool results end calls; any text is a prompt, another
 * turn of the session after one ended. */
static void
user_row(struct build *b)
{
	const struct json *j = b->j;
	int c = content(b->j), t = c + 1;
	bool prompt = json_type(j, c) == JSON_STRING;
	uint32_t s = b->m->src[b->src].session;

	for (int i = 0; i < json_size(j, c); i++, t = json_next(j, t)) {
		int type = json_get(j, t, "type");

		if (json_streq(j, type, "text"))
			prompt = true;
		else if (json_streq(j, type, "tool_result"))
			result_block(b, t, i);
	}
	if (!prompt) {
		if (b->ev == NONE)
			build_hidden(b);
		return;
	}
	if (s != NONE && !sub_agent(b) && b->m->ses[s].turn_ev != NONE &&
	    b->m->ses[s].turn_ev == b->m->ses[s].result_ev)
		build_turn(b);
	build_prompt(b);
}

static void prompt_text(struct buf *t, struct buf *out);

/* A Task call started by tool_use block t (event e) goes by its prompt,
 * as its sub-agent's file is named (transcript_more). */
static void
task_name(struct build *b, uint32_t e, int t)
{
	const struct json *j = b->j;
	int name = json_get(j, t, "name"), prompt = json_path(j, t, "input.prompt");
	struct buf all = {0}, p = {0};
	const char *raw;
	size_t n;

	if (json_type(j, name) != JSON_STRING || json_type(j, prompt) != JSON_STRING)
		return;
	raw = json_raw(j, name, &n);
	if (agent_tool_kind(&agent_cursor_transcript, raw, n) != TK_TASK)
		return;
	json_decode(j, prompt, &all);
	prompt_text(&all, &p);
	build_call_name(b, e, p.p, p.n);
	buf_free(&all);
	buf_free(&p);
}

/* An assistant row: its text (all text blocks, one event), each thinking
 * block, each tool call, each result it holds. */
static void
assistant_row(struct build *b)
{
	const struct json *j = b->j;
	int c = content(j), t = c + 1;
	bool text = json_type(j, c) == JSON_STRING;

	if (text)
		build_text(b, TEXT_MESSAGE);
	for (int i = 0; i < json_size(j, c); i++, t = json_next(j, t)) {
		int type = json_get(j, t, "type");

		if (json_streq(j, type, "text") && !text) {
			text = true;
			build_text(b, TEXT_MESSAGE);
		} else if (is_thinking(j, t)) {
			build_thinking(b, THINK_WHOLE);
		} else if (json_streq(j, type, "tool_use")) {
			task_name(b, build_tool_use(b, &agent_cursor_transcript, t, i), t);
		} else if (json_streq(j, type, "tool_result")) {
			result_block(b, t, i);
		}
	}
	if (b->ev == NONE)
		build_hidden(b);
}

/* The end of a turn: success; aborted (the user stopped it); error, with
 * its text said first. */
static void
turn_ended(struct build *b)
{
	const struct json *j = b->j;
	int st = json_get(j, 0, "status");

	/* A sub-agent's turn ends within its session's: said only when it
	 * did not succeed. */
	if (sub_agent(b)) {
		if (json_streq(j, st, "success"))
			build_hidden(b);
		else
			build_notice(b);
		return;
	}
	if (json_streq(j, st, "success")) {
		build_result(b, false, TIME_NONE);
		return;
	}
	build_notice(b);
	if (json_streq(j, st, "error")) {
		build_failure(b);
		build_result(b, true, TIME_NONE);
	} else {
		build_result(b, false, TIME_NONE);
	}
}

static void
transcript_line(struct build *b)
{
	const struct json *j = b->j;
	int role = json_get(j, 0, "role");

	if (json_streq(j, b->k[TOP_TYPE], "turn_ended"))
		turn_ended(b);
	else if (json_streq(j, role, "user"))
		user_row(b);
	else if (json_streq(j, role, "assistant"))
		assistant_row(b);
	else
		build_notice(b);
}

/* The bytes s[0..n) between <tag> and </tag>, or NULL. */
static const char *
inside(const char *s, size_t n, const char *tag, size_t *len)
{
	char open[32], close[32];
	const char *a, *z;

	snprintf(open, sizeof open, "<%s>", tag);
	snprintf(close, sizeof close, "</%s>", tag);
	/* An empty text may have no bytes at all (NULL): memmem's is UB. */
	if (n == 0 || (a = memmem(s, n, open, strlen(open))) == NULL)
		return NULL;
	a += strlen(open);
	if ((z = memmem(a, n - (size_t)(a - s), close, strlen(close))) == NULL)
		return NULL;
	*len = (size_t)(z - a);
	return a;
}

/* A prompt as the user typed it: what <user_query> holds, without the
 * blank lines around it; the whole text when there is none. */
static void
prompt_text(struct buf *t, struct buf *out)
{
	size_t n = t->n;
	const char *p = inside(t->p, t->n, "user_query", &n);

	if (p == NULL)
		p = t->p;
	while (n > 0 && (*p == '\n' || *p == '\r' || *p == ' ')) {
		p++;
		n--;
	}
	while (n > 0 && (p[n - 1] == '\n' || p[n - 1] == '\r' || p[n - 1] == ' '))
		n--;
	buf_add(out, p, n);
}

static void
transcript_text(const struct json *j, enum ev_type type, struct buf *out)
{
	int c = content(j), t = c + 1;
	bool thinking = type == EV_THINK_DELTA || type == EV_THINK_DONE;
	struct buf all = {0};

	if (json_type(j, c) == JSON_STRING) {
		if (!thinking)
			json_decode(j, c, &all);
	} else {
		for (int i = 0; i < json_size(j, c); i++, t = json_next(j, t)) {
			int v = -1;

			if (thinking && is_thinking(j, t))
				v = json_path_typed(j, t, "thinking|text|reasoning", JSON_STRING);
			else if (!thinking && json_streq(j, json_get(j, t, "type"), "text"))
				v = json_get(j, t, "text");
			if (json_type(j, v) != JSON_STRING)
				continue;
			if (all.n > 0)
				buf_adds(&all, "\n\n");
			json_decode(j, v, &all);
		}
	}
	if (type == EV_USER)
		prompt_text(&all, out);
	else
		buf_add(out, all.p, all.n);
	buf_free(&all);
}

/* Where a call's facts are: its tool_use block's input, and its
 * tool_result block. */
enum { ARGS, RES };

/* clang-format off */
static const struct fact_row transcript_facts[] = {
	{TK_SHELL, CALL_COMMAND, ARGS, "command"},
	{TK_SHELL, CALL_DIR, ARGS, "cwd|working_directory"},
	{TK_SHELL, CALL_DESCRIPTION, ARGS, "explanation|description"},
	{TK_SHELL, CALL_BACKGROUND, ARGS, "is_background"},
	{TK_READ, CALL_PATH, ARGS, "path|target_file|file_path"},
	{TK_READ, CALL_FIRST_LINE, ARGS, "offset"},
	{TK_EDIT, CALL_PATH, ARGS, "path|target_file|file_path"},
	{TK_EDIT, CALL_OLD_TEXT, ARGS, "old_string"},
	{TK_EDIT, CALL_NEW_TEXT, ARGS, "new_string"},
	{TK_EDIT, CALL_INSTRUCTION, ARGS, "instructions"},
	{TK_WRITE, CALL_PATH, ARGS, "path|target_file|file_path"},
	{TK_WRITE, CALL_WRITTEN, ARGS, "contents|content|code_edit"},
	{TK_DELETE, CALL_PATH, ARGS, "path|target_file|file_path"},
	{TK_GREP, CALL_QUERY, ARGS, "pattern|query"},
	{TK_GREP, CALL_PATH, ARGS, "path"},
	{TK_GREP, CALL_GLOB, ARGS, "glob|include_pattern"},
	{TK_GLOB, CALL_QUERY, ARGS, "glob_pattern|pattern"},
	{TK_GLOB, CALL_DIR, ARGS, "target_directory|path"},
	{TK_LS, CALL_PATH, ARGS, "target_directory|path"},
	{TK_SEMSEARCH, CALL_QUERY, ARGS, "query"},
	{TK_WEBSEARCH, CALL_QUERY, ARGS, "search_term|query"},
	{TK_WEBFETCH, CALL_URL, ARGS, "url"},
	{TK_TASK, CALL_PROMPT, ARGS, "prompt"},
	{TK_TASK, CALL_DESCRIPTION, ARGS, "description"},
	{TK_TODOS, CALL_MERGE, ARGS, "merge"},
};
/* clang-format on */

static void
transcript_load(const struct model *m, uint32_t c, const struct json *sj, const struct json *dj,
		struct call_facts *v)
{
	const struct call *call = &m->call[c];
	int s = sj != NULL ? block(sj, call->spart) : -1;
	int d = dj != NULL ? block(dj, call->dpart) : -1;

	v->rows = transcript_facts;
	v->nrows = ARRAY_LEN(transcript_facts);
	if (s >= 0) {
		v->place[ARGS] = (struct fact_place){sj, json_get(sj, s, "input")};
		call_set(v, CALL_ID, sj, json_get(sj, s, "id"));
		call_set(v, CALL_NAME, sj, json_get(sj, s, "name"));
		call_set(v, CALL_ARGS, sj, v->place[ARGS].t);
	}
	if (d >= 0) {
		v->place[RES] = (struct fact_place){dj, d};
		if (s < 0)
			call_set(v, CALL_ID, dj, json_get(dj, d, "tool_use_id"));
		call_set(v, CALL_RESULT, dj, d);
		call_set(v, CALL_TEXT, dj, json_get(dj, d, "content"));
	}
}

static bool
transcript_elem(enum fact_list l, const struct json *j, int t, struct elem_facts *e)
{
	if (l == FL_PARTS && agent_elem_string(j, t, EL_TEXT, e))
		return true;
	if (json_type(j, t) != JSON_OBJECT)
		return false;
	if (l == FL_PARTS || l == FL_CONTENT) {
		elem_find(e, EL_TEXT, j, t, "text");
		return true;
	}
	if (l == FL_TODOS) {
		elem_find(e, EL_TEXT, j, t, "content");
		return true;
	}
	return false;
}

/* How a turn that did not succeed ended, in words. */
static bool
transcript_notice(const struct json *j, struct buf *out)
{
	int st = json_get(j, 0, "status");

	if (!json_streq(j, json_get(j, 0, "type"), "turn_ended"))
		return false;
	if (json_streq(j, st, "aborted")) {
		buf_adds(out, "turn aborted");
		return true;
	}
	if (json_streq(j, st, "error")) {
		buf_adds(out, "turn failed");
		if (json_type(j, json_get(j, 0, "error")) == JSON_STRING)
			agent_say(j, ": ", "error", out);
		else
			agent_say(j, ": ", "error.message|message", out);
		return true;
	}
	return false;
}

/* --- sub-agents ----------------------------------------------------------- */

/* A sub-agent's first prompt is in its first lines. */
#define HEAD_MAX 65536

/* The first prompt of the transcript at path, as transcript_text says it,
 * into out; false when its first HEAD_MAX bytes have none. Read only,
 * never following a link. */
static bool
first_prompt(const char *path, struct buf *out)
{
	char *text = xmalloc(HEAD_MAX);
	ssize_t n = agent_read_head(path, text, HEAD_MAX);
	struct json *j = json_new();
	size_t at = 0;

	while (n > 0 && at < (size_t)n && out->n == 0) {
		const char *nl = memchr(text + at, '\n', (size_t)n - at);
		size_t len = nl != NULL ? (size_t)(nl - text) - at : (size_t)n - at;

		if (nl == NULL && n == HEAD_MAX)
			break; /* a line cut short */
		if (json_parse(j, text + at, len) == JSON_OK &&
		    json_streq(j, json_get(j, 0, "role"), "user"))
			transcript_text(j, EV_USER, out);
		at += len + 1;
	}
	json_free(j);
	free(text);
	return out->n > 0 && memchr(out->p, '\0', out->n) == NULL;
}

/* A transcript <dir>/<sid>/<sid>.jsonl keeps its sub-agents' in
 * <dir>/<sid>/subagents/<id>.jsonl: fn for each, in the order of their
 * names, with its first prompt, which names the Task call it runs under
 * (task_name). */
static void
transcript_more(const char *path, agent_more_fn *fn, void *ctx)
{
	const char *base = strrchr(path, '/'), *up;
	size_t n = strlen(path), k;
	struct buf dir = {0}, file = {0}, prompt = {0};
	char **names;

	if (base == NULL || n <= 6 || strcmp(path + n - 6, ".jsonl") != 0)
		return;
	/* Its folder has its name. */
	for (up = base; up > path && up[-1] != '/'; up--)
		;
	if (up == path || (size_t)(base - up) != strlen(base + 1) - 6 ||
	    strncmp(up, base + 1, (size_t)(base - up)) != 0)
		return;
	buf_add(&dir, path, (size_t)(base - path));
	buf_adds(&dir, "/subagents");
	k = agent_files(dir.p, "", &names);
	for (size_t i = 0; i < k; i++) {
		buf_reset(&file);
		buf_addf(&file, "%s/%s", dir.p, names[i]);
		buf_reset(&prompt);
		fn(ctx, file.p, first_prompt(file.p, &prompt) ? prompt.p : NULL);
		free(names[i]);
	}
	free(names);
	buf_free(&dir);
	buf_free(&file);
	buf_free(&prompt);
}

/* --- the older plain-text transcripts -------------------------------------- */

/* Cursor's older transcripts, <sid>.txt flat in agent-transcripts/
 * (STORES.md §5, from a public reader; not seen): blocks each begun by a
 * line "user:" or "assistant:"; in an assistant's, a line "[Thinking] …"
 * begins its thinking, "[Tool call] NAME" a call whose arguments follow as
 * indented "key: value" lines, "[Tool result] NAME" the result of the
 * oldest open call; other lines are its text. Read as the rows of the
 * JSON transcripts (one a part), which the functions above read. */
enum part { P_NONE, P_USER, P_TEXT, P_THINK, P_CALL, P_RESULT };

struct txt {
	struct buf *out;
	enum part part;
	struct buf text; /* the part's text (a call's: its argument's value) */
	struct buf name; /* a call's name */
	struct buf key;  /* a call's argument being read */
	struct buf args; /* a call's arguments so far, as JSON members */
};

/* s[0..*n) without the blanks around it. */
static const char *
trimmed(const char *s, size_t *n)
{
	while (*n > 0 && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) {
		s++;
		(*n)--;
	}
	while (*n > 0 &&
	       (s[*n - 1] == ' ' || s[*n - 1] == '\t' || s[*n - 1] == '\r' || s[*n - 1] == '\n'))
		(*n)--;
	return s;
}

/* The argument read so far, a member of the call's arguments. */
static void
txt_arg(struct txt *x)
{
	size_t n = x->text.n;
	const char *v = trimmed(x->text.p != NULL ? x->text.p : "", &n);

	if (x->key.n > 0) {
		if (x->args.n > 0)
			buf_addc(&x->args, ',');
		json_quote(&x->args, x->key.p, x->key.n);
		buf_addc(&x->args, ':');
		json_quote(&x->args, v, n);
	}
	buf_reset(&x->key);
	buf_reset(&x->text);
}

/* The part read so far, as its row. */
static void
txt_flush(struct txt *x)
{
	size_t n = x->text.n;
	const char *t = trimmed(x->text.p != NULL ? x->text.p : "", &n);
	struct buf *o = x->out;

	switch (x->part) {
	case P_CALL:
		txt_arg(x);
		buf_adds(o, "{\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":"
			    "\"tool_use\",\"name\":");
		json_quote(o, x->name.p != NULL ? x->name.p : "", x->name.n);
		buf_addf(o, ",\"input\":{%.*s}}]}}\n", (int)x->args.n,
			 x->args.p != NULL ? x->args.p : "");
		break;
	case P_RESULT:
		buf_adds(o, "{\"role\":\"user\",\"message\":{\"content\":[{\"type\":"
			    "\"tool_result\",\"content\":");
		json_quote(o, t, n);
		buf_adds(o, "}]}}\n");
		break;
	case P_USER:
	case P_TEXT:
	case P_THINK:
		if (n == 0)
			break;
		buf_addf(o, "{\"role\":\"%s\",\"message\":{\"content\":[{\"type\":\"%s\",\"%s\":",
			 x->part == P_USER ? "user" : "assistant",
			 x->part == P_THINK ? "thinking" : "text",
			 x->part == P_THINK ? "thinking" : "text");
		json_quote(o, t, n);
		buf_adds(o, "}]}}\n");
		break;
	case P_NONE:
		break;
	}
	x->part = P_NONE;
	buf_reset(&x->text);
	buf_reset(&x->name);
	buf_reset(&x->key);
	buf_reset(&x->args);
}

/* Whether line l[0..n) (trimmed) begins with marker m; what follows it in
 * *rest. */
static bool
marker(const char *l, size_t n, const char *m, const char **rest, size_t *rn)
{
	size_t k = strlen(m);

	if (n < k || memcmp(l, m, k) != 0)
		return false;
	*rn = n - k;
	*rest = trimmed(l + k, rn);
	return true;
}

/* One line of an assistant's block. */
static void
txt_assistant(struct txt *x, const char *l, size_t n)
{
	size_t tn = n, rn;
	const char *t = trimmed(l, &tn), *rest;

	if (marker(t, tn, "[Thinking]", &rest, &rn)) {
		txt_flush(x);
		x->part = P_THINK;
		buf_add(&x->text, rest, rn);
	} else if (marker(t, tn, "[Tool call]", &rest, &rn)) {
		txt_flush(x);
		x->part = P_CALL;
		buf_add(&x->name, rest, rn);
	} else if (marker(t, tn, "[Tool result]", &rest, &rn)) {
		txt_flush(x);
		x->part = P_RESULT;
	} else if (x->part == P_CALL) {
		bool indented = n > 0 && (l[0] == ' ' || l[0] == '\t');
		size_t k = 0;

		/* An indented "key: value", else more of the value before it;
		 * a line not indented ends the call. */
		while (k < tn && (t[k] == '_' || (t[k] >= 'a' && t[k] <= 'z') ||
				  (t[k] >= 'A' && t[k] <= 'Z') || (t[k] >= '0' && t[k] <= '9')))
			k++;
		if (indented && k > 0 && k < tn && t[k] == ':') {
			txt_arg(x);
			buf_add(&x->key, t, k);
			rn = tn - k - 1;
			rest = trimmed(t + k + 1, &rn);
			buf_add(&x->text, rest, rn);
		} else if (indented && tn > 0 && x->key.n > 0) {
			buf_addc(&x->text, '\n');
			buf_add(&x->text, t, tn);
		} else if (tn > 0) {
			txt_flush(x); /* text after the call */
			x->part = P_TEXT;
			buf_add(&x->text, l, n);
		}
	} else {
		if (x->part == P_NONE)
			x->part = P_TEXT;
		if (x->text.n > 0 || n > 0)
			buf_addc(&x->text, '\n');
		buf_add(&x->text, l, n);
	}
}

/* An older plain-text transcript (<sid>.txt) as its rows. */
static bool
txt_rows(const char *path, const char *p, size_t n, struct buf *out)
{
	size_t len = strlen(path), at = 0, from = out->n, k;
	struct txt x = {out, P_NONE, {0}, {0}, {0}, {0}};
	bool assistant = false, begun = false;

	if (len <= 4 || strcmp(path + len - 4, ".txt") != 0)
		return false;
	while (at < n) {
		const char *nl = memchr(p + at, '\n', n - at), *l = p + at, *t;
		size_t ln = nl != NULL ? (size_t)(nl - l) : n - at;

		at += ln + 1;
		k = ln;
		t = trimmed(l, &k);
		if ((k == 5 && memcmp(t, "user:", 5) == 0) ||
		    (k == 10 && memcmp(t, "assistant:", 10) == 0)) {
			txt_flush(&x);
			assistant = k == 10;
			x.part = assistant ? P_NONE : P_USER;
			begun = true;
			continue;
		}
		if (!begun) {
			if (k == 0)
				continue;
			break; /* not a transcript */
		}
		if (assistant) {
			txt_assistant(&x, l, ln);
		} else {
			if (x.text.n > 0)
				buf_addc(&x.text, '\n');
			buf_add(&x.text, l, ln);
		}
	}
	if (begun)
		txt_flush(&x);
	buf_free(&x.text);
	buf_free(&x.name);
	buf_free(&x.key);
	buf_free(&x.args);
	if (!begun)
		out->n = from;
	return begun;
}

/* --- the chat store ------------------------------------------------------- */

/* Whether path names a chat store (.../<sid>/store.db). */
static bool
is_store(const char *path)
{
	size_t n = strlen(path);

	return n > 9 && strcmp(path + n - 9, "/store.db") == 0;
}

/* The chats under a root's chats/ folder: "<id>\0<bucket>\0" for each
 * chats/<bucket>/<id>/, in the order readdir gives them; read again at
 * most once a second, when a chat is looked for that it lacks. One for
 * each chats/ folder looked in (a list holds few roots). */
struct chat_index {
	char *chats;
	struct buf pairs;
	int64_t ms; /* when it was read (clock_mono_ms), or TIME_NONE */
};
static struct chat_index *indexes;
static size_t nindexes, indexcap;

static void
index_read(struct chat_index *x)
{
	struct buf sub = {0};
	struct dirent *de, *e;
	DIR *d, *b;

	buf_reset(&x->pairs);
	x->ms = clock_mono_ms();
	if ((d = opendir(x->chats)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		buf_reset(&sub);
		buf_addf(&sub, "%s/%s", x->chats, de->d_name);
		if ((b = opendir(sub.p)) == NULL)
			continue;
		while ((e = readdir(b)) != NULL)
			if (e->d_name[0] != '.') {
				buf_add(&x->pairs, e->d_name, strlen(e->d_name) + 1);
				buf_add(&x->pairs, de->d_name, strlen(de->d_name) + 1);
			}
		closedir(b);
	}
	closedir(d);
	buf_free(&sub);
}

/* The store.db of chat sid in the folder chats indexes (x), into db:
 * the first chats/<bucket>/<sid>/store.db that is a regular file. */
static bool
index_find(const struct chat_index *x, const char *sid, struct buf *db)
{
	struct stat st;

	for (size_t at = 0; at < x->pairs.n;) {
		const char *id = x->pairs.p + at, *bucket = id + strlen(id) + 1;

		at = (size_t)(bucket - x->pairs.p) + strlen(bucket) + 1;
		if (strcmp(id, sid) != 0)
			continue;
		buf_reset(db);
		buf_addf(db, "%s/%s/%s/store.db", x->chats, bucket, sid);
		if (lstat(db->p, &st) == 0 && S_ISREG(st.st_mode))
			return true;
	}
	return false;
}

/* The store.db of chat sid under the folder chats (db holds its path),
 * looked up in its index, read first or again (a chat made since). */
static bool
chat_find(const char *chats, const char *sid, struct buf *db)
{
	struct chat_index *x = NULL;

	for (size_t i = 0; i < nindexes && x == NULL; i++)
		if (strcmp(indexes[i].chats, chats) == 0)
			x = &indexes[i];
	if (x == NULL) {
		ARRAY_RESERVE(indexes, indexcap, nindexes + 1);
		x = &indexes[nindexes++];
		memset(x, 0, sizeof *x);
		x->chats = xstrdup(chats);
		x->ms = TIME_NONE;
	}
	if (x->ms == TIME_NONE)
		index_read(x);
	if (index_find(x, sid, db))
		return true;
	if (clock_mono_ms() - x->ms < 1000)
		return false;
	index_read(x);
	return index_find(x, sid, db);
}

/* The chat store of the session at path: itself, when it is one; for a
 * transcript, its root (~/.cursor) found from .../projects/<project>/
 * agent-transcripts/, the store.db of chats/<any>/<sid>/ (chat_find).
 * Into db; false when there is none. */
static bool
chat_db(const char *path, struct buf *db)
{
	struct buf sid = {0}, chats = {0};
	const char *at = NULL, *p, *proj = NULL;
	bool found;

	if (is_store(path)) {
		buf_reset(db);
		buf_adds(db, path);
		return true;
	}
	for (p = path; (p = strstr(p, "/agent-transcripts/")) != NULL; p++)
		at = p;
	/* <root>/projects/<project>/agent-transcripts/ */
	for (p = path; at != NULL && p < at; p++)
		if (strncmp(p, "/projects/", 10) == 0 &&
		    memchr(p + 10, '/', (size_t)(at - p - 10)) == NULL)
			proj = p;
	if (proj == NULL || proj == path || !agent_file_id(path, &sid)) {
		buf_free(&sid);
		return false;
	}
	buf_add(&chats, path, (size_t)(proj - path));
	buf_adds(&chats, "/chats");
	found = chat_find(chats.p, sid.p, db);
	buf_free(&chats);
	buf_free(&sid);
	return found;
}

/* The id of the chat whose store is at path: its folder's name, when it
 * is one an id can be. */
static bool
store_id(const char *path, struct buf *out)
{
	size_t n = strlen(path) - 9, at = n;

	while (at > 0 && path[at - 1] != '/')
		at--;
	if (at == n || path[at] == '-')
		return false;
	for (size_t i = at; i < n; i++)
		if (!((path[i] >= '0' && path[i] <= '9') || (path[i] >= 'a' && path[i] <= 'z') ||
		      (path[i] >= 'A' && path[i] <= 'Z') || path[i] == '-' || path[i] == '_'))
			return false;
	buf_add(out, path + at, n - at);
	return true;
}

/* Append the bytes of hex text s[0..n); false for one that is not. */
static bool
unhex(const char *s, size_t n, struct buf *out)
{
	static const char digits[] = "0123456789abcdef";

	if (n % 2 != 0)
		return false;
	for (size_t i = 0; i < n; i += 2) {
		const char *hi = strchr(digits, s[i] | 0x20), *lo = strchr(digits, s[i + 1] | 0x20);

		if (s[i] == '\0' || s[i + 1] == '\0' || hi == NULL || lo == NULL)
			return false;
		buf_addc(out, (char)((hi - digits) << 4 | (lo - digits)));
	}
	return true;
}

/* The JSON that meta's key '0' of store h holds (hex of it, as the
 * readers found it; or the JSON itself), parsed into j from doc; false
 * with why (SQLite's words, or ours) when there is none. */
static bool
meta_doc(sqlite3 *h, struct json *j, struct buf *doc, struct buf *why)
{
	sqlite3_stmt *q = NULL;
	const char *v;
	int n, rc;
	bool ok = false;

	if (sqlite3_prepare_v2(h, "SELECT value FROM meta WHERE key = '0'", -1, &q, NULL) !=
		    SQLITE_OK ||
	    ((rc = sqlite3_step(q)) != SQLITE_ROW && rc != SQLITE_DONE)) {
		buf_adds(why, sqlite3_errmsg(h));
		goto out;
	}
	if (rc != SQLITE_ROW) {
		buf_adds(why, "no meta");
		goto out;
	}
	v = (const char *)sqlite3_column_text(q, 0);
	n = sqlite3_column_bytes(q, 0);
	buf_reset(doc);
	if (v != NULL && n > 0 && v[0] == '{')
		buf_add(doc, v, (size_t)n);
	else if (v == NULL || n <= 0 || !unhex(v, (size_t)n, doc))
		doc->n = 0;
	ok = doc->n > 0 && json_parse(j, doc->p, doc->n) == JSON_OK &&
	     json_type(j, 0) == JSON_OBJECT;
	if (!ok)
		buf_adds(why, "its meta is not the JSON of a chat");
out:
	sqlite3_finalize(q);
	return ok;
}

/* String member key of meta's object in j, decoded, appended to out. */
static bool
meta_string(const struct json *j, const char *key, struct buf *out)
{
	int t = json_get(j, 0, key);
	size_t from = out->n;

	if (json_type(j, t) != JSON_STRING || json_size(j, t) < 0)
		return false;
	json_decode(j, t, out);
	return out->n > from;
}

bool
cursor_chat_meta(const char *db, const char *key, struct buf *out)
{
	struct buf doc = {0}, why = {0};
	struct json *j = json_new();
	sqlite3 *h = rodb_open(db);
	bool ok = h != NULL && meta_doc(h, j, &doc, &why) && meta_string(j, key, out);

	sqlite3_close(h);
	json_free(j);
	buf_free(&doc);
	buf_free(&why);
	return ok;
}

bool
cursor_chat_read(const char *path, struct cursor_chat *c)
{
	struct buf db = {0}, doc = {0};
	struct json *j = json_new();
	sqlite3 *h = NULL;
	int64_t ms;
	bool ok = false;

	buf_reset(&c->title);
	buf_reset(&c->model);
	buf_reset(&c->why);
	c->created_ms = TIME_NONE;
	if (!chat_db(path, &db)) {
		buf_adds(&c->why, "no chat store");
		goto out;
	}
	/* Not a regular file, a link, or not made a database of. */
	if ((h = rodb_open(db.p)) == NULL) {
		buf_adds(&c->why, "cannot open it read-only (a link, or not a file)");
		goto out;
	}
	if (!meta_doc(h, j, &doc, &c->why))
		goto out;
	meta_string(j, "name", &c->title);
	meta_string(j, "lastUsedModel", &c->model);
	/* Milliseconds since 1970, after 2001 and before 2286. */
	if (json_int_at(j, 0, "createdAt", &ms) && ms >= 1000000000000LL && ms < 10000000000000LL)
		c->created_ms = ms;
	ok = true;
out:
	sqlite3_close(h);
	json_free(j);
	buf_free(&db);
	buf_free(&doc);
	return ok;
}

void
cursor_chat_free(struct cursor_chat *c)
{
	buf_free(&c->title);
	buf_free(&c->model);
	buf_free(&c->why);
}

/* The longest message read from the store, in bytes: under rodb's cap of
 * a value, which would stop the query; a longer one is passed over. */
#define CHAT_BLOB_MAX (1000 * 1000)

/* JSON value t of j, on one line (a raw newline is whitespace between
 * tokens: no string of a parsed line holds one), appended to out. */
static void
raw(const struct json *j, int t, struct buf *out)
{
	size_t n;
	const char *v = json_raw(j, t, &n);
	bool str = json_type(j, t) == JSON_STRING;

	if (str) /* its raw bytes are inside its quotes */
		buf_addc(out, '"');
	for (size_t i = 0; v != NULL && i < n; i++)
		buf_addc(out, v[i] == '\n' || v[i] == '\r' ? ' ' : v[i]);
	if (str)
		buf_addc(out, '"');
}

/* Member key of object t as ,"name":value (name its name in the rows),
 * when it has one. */
static void
member(const struct json *j, int t, const char *key, const char *name, struct buf *out)
{
	int v = json_get(j, t, key);

	if (v < 0)
		return;
	buf_addf(out, ",\"%s\":", name);
	raw(j, v, out);
}

/* The blocks of content array c as a transcript's, appended to out: a
 * tool-call a tool_use, a tool-result a tool_result, the others as they
 * are (text, reasoning); how many. */
static int
blocks(const struct json *j, int c, struct buf *out)
{
	int t = c + 1, n = 0;

	for (int i = 0; i < json_size(j, c); i++, t = json_next(j, t)) {
		int type = json_get(j, t, "type");

		if (json_type(j, t) != JSON_OBJECT || json_type(j, type) != JSON_STRING)
			continue;
		if (n++ > 0)
			buf_addc(out, ',');
		if (json_streq(j, type, "tool-call")) {
			buf_adds(out, "{\"type\":\"tool_use\"");
			member(j, t, "toolCallId", "id", out);
			member(j, t, "toolName", "name", out);
			member(j, t, "args", "input", out);
			buf_addc(out, '}');
		} else if (json_streq(j, type, "tool-result")) {
			buf_adds(out, "{\"type\":\"tool_result\"");
			member(j, t, "toolCallId", "tool_use_id", out);
			member(j, t, "result", "content", out);
			member(j, t, "isError", "is_error", out);
			buf_addc(out, '}');
		} else {
			raw(j, t, out);
		}
	}
	return n;
}

/* One message of the store, p[0..n), as a transcript's row appended to
 * out: a user's (its text a prompt), the assistant's, a tool's results
 * (a user row of tool_result blocks, as a transcript has them). Anything
 * else (the system prompt, a protobuf node, what is not JSON) adds
 * nothing. */
static void
message_row(struct json *j, const char *p, size_t n, struct buf *out)
{
	size_t from = out->n;
	int role, c;

	if (n == 0 || p[0] != '{' || json_parse(j, p, n) != JSON_OK ||
	    json_type(j, 0) != JSON_OBJECT)
		return;
	role = json_get(j, 0, "role");
	c = json_get(j, 0, "content");
	if (json_streq(j, role, "tool"))
		buf_adds(out, "{\"role\":\"user\",\"message\":{\"content\":");
	else if (json_streq(j, role, "user") || json_streq(j, role, "assistant"))
		buf_addf(out, "{\"role\":\"%s\",\"message\":{\"content\":",
			 json_streq(j, role, "user") ? "user" : "assistant");
	else
		return;
	if (json_type(j, c) == JSON_STRING && !json_streq(j, role, "tool")) {
		raw(j, c, out);
	} else if (json_type(j, c) == JSON_ARRAY) {
		buf_addc(out, '[');
		if (blocks(j, c, out) == 0) {
			out->n = from;
			return;
		}
		buf_addc(out, ']');
	} else {
		out->n = from;
		return;
	}
	buf_adds(out, "}}\n");
}

/* The messages of the chat store at path, in the order they were stored
 * (the blobs' rows: the order of the store's own tree, a protobuf, is not
 * read), as a transcript's rows appended to out; false when its blobs
 * cannot be read. */
static bool
store_rows(const char *path, struct buf *out)
{
	sqlite3 *h = rodb_open(path);
	sqlite3_stmt *q = NULL;
	struct json *j;
	size_t from = out->n;
	int rc = SQLITE_ERROR;

	if (h == NULL)
		return false;
	/* A text's length is in characters: four bytes at most each. */
	if (sqlite3_prepare_v2(
		    h,
		    "SELECT data FROM blobs WHERE (typeof(data) = 'blob' AND length(data) "
		    "<= ?1) OR (typeof(data) = 'text' AND length(data) <= ?1 / 4) "
		    "ORDER BY rowid",
		    -1, &q, NULL) != SQLITE_OK) {
		sqlite3_close(h);
		return false;
	}
	sqlite3_bind_int(q, 1, CHAT_BLOB_MAX);
	j = json_new();
	while (out->n - from < AGENT_ROWS_MAX && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *p = sqlite3_column_blob(q, 0);
		int n = sqlite3_column_bytes(q, 0);

		if (p != NULL && n > 0)
			message_row(j, p, (size_t)n, out);
	}
	json_free(j);
	sqlite3_finalize(q);
	sqlite3_close(h);
	/* What was read before an error stays. */
	return rc == SQLITE_DONE || rc == SQLITE_ROW || out->n > from;
}

/* A file of Cursor's own that is not JSON lines: a chat store (SQLite,
 * read by its path), or an older plain-text transcript. */
static bool
transcript_rows(const char *path, const char *p, size_t n, struct buf *out)
{
	if (is_store(path))
		return agent_rows_db(p, n) && store_rows(path, out);
	return txt_rows(path, p, n, out);
}

/* The model of the session whose transcript is at path, as its chat store
 * last said it, appended to out. The screen asks on every frame: the last
 * answer is kept while the store and its log are unchanged, and a store
 * not found is looked for again at most once a second. */
static bool
chat_model(const char *path, struct buf *out)
{
	static struct {
		char *path;
		struct buf db, model;
		struct timespec mt[2];
		off_t size[2];
		int64_t looked_ms;
	} c;
	struct stat st[2];
	struct buf wal = {0};
	bool same;

	if (c.path == NULL || strcmp(c.path, path) != 0) {
		free(c.path);
		c.path = xstrdup(path);
		buf_reset(&c.db);
		c.looked_ms = TIME_NONE;
	}
	if (c.db.n == 0) {
		if (c.looked_ms != TIME_NONE && clock_mono_ms() - c.looked_ms < 1000)
			return false;
		c.looked_ms = clock_mono_ms();
		if (!chat_db(path, &c.db)) {
			buf_reset(&c.db);
			return false;
		}
		memset(c.mt, 0, sizeof c.mt);
	}
	buf_addf(&wal, "%s-wal", c.db.p);
	memset(st, 0, sizeof st);
	if (stat(c.db.p, &st[0]) != 0) {
		buf_reset(&c.db);
		buf_free(&wal);
		return false;
	}
	(void)stat(wal.p, &st[1]);
	buf_free(&wal);
	same = c.mt[0].tv_sec != 0;
	for (int i = 0; i < 2; i++) {
		same = same && st[i].st_mtim.tv_sec == c.mt[i].tv_sec &&
		       st[i].st_mtim.tv_nsec == c.mt[i].tv_nsec && st[i].st_size == c.size[i];
		c.mt[i] = st[i].st_mtim;
		c.size[i] = st[i].st_size;
	}
	if (!same) {
		buf_reset(&c.model);
		if (!cursor_chat_meta(c.db.p, "lastUsedModel", &c.model))
			buf_reset(&c.model);
	}
	buf_add(out, c.model.p, c.model.n);
	return c.model.n > 0;
}

/* What its lines lack: its id is its file's name (a chat store's, its
 * folder's), its model in its chat store. */
static bool
transcript_file_fact(const char *path, enum fact f, struct buf *out)
{
	if (f == FACT_ID)
		return is_store(path) ? store_id(path, out) : agent_file_id(path, out);
	if (f == FACT_MODEL)
		return chat_model(path, out);
	return false;
}

static const struct usage_field transcript_usage[] = {
	{NULL, NULL, false},
};

const struct agent agent_cursor_transcript = {
	.name = "cursor-transcript",
	.label = "Cursor Agent",
	.starts = transcript_starts,
	.looks = transcript_looks,
	.time = transcript_time,
	.line = transcript_line,
	.text = transcript_text,
	.load = transcript_load,
	.elem = transcript_elem,
	.tools = transcript_tools,
	.notice = transcript_notice,
	.top = {[TOP_TYPE] = "type"},
	.fact =
		{
			[FACT_ERROR] = "error",
		},
	.usage = transcript_usage,
	.resume = {"cursor-agent", "--resume"},
	.file_fact = transcript_file_fact,
	.more = transcript_more,
	.rows = transcript_rows,
};
