/* copy.c: the texts y and Y copy, and the OSC 52 sequence that carries
 * them. */
#include "copy.h"

#include <string.h>

#include "agent.h"
#include "json.h"
#include "tool.h"
#include "words.h"

/* Append the string at paths (separated by '|') under obj; false when
 * there is none. */
static bool
str_at(const struct json *j, int obj, const char *paths, struct buf *out)
{
	int t;

	if (j == NULL || obj < 0)
		return false;
	t = json_path_typed(j, obj, paths, JSON_STRING);
	if (t < 0)
		return false;
	json_decode(j, t, out);
	return true;
}

/* A file's path in a call's arguments or result (Codex: the first file
 * it changed). */
static bool
call_path(const struct callview *v, struct buf *out)
{
	int ch;

	if (str_at(v->aj, v->args, "path|file_path|absolute_path|notebook_path|dir_path", out) ||
	    str_at(v->rj, v->var, "path|file.filePath|filePath", out))
		return true;
	ch = v->aj != NULL && v->args >= 0 ? json_get(v->aj, v->args, "changes") : -1;
	return json_type(v->aj, ch) == JSON_ARRAY && json_size(v->aj, ch) > 0 &&
	       str_at(v->aj, ch + 1, "path", out);
}

const char *
copy_call_target(struct model *m, uint32_t c, struct buf *out)
{
	enum tool_kind k = (enum tool_kind)m->call[c].kind;
	struct json *sj = json_new(), *dj = json_new();
	struct tool_desc d = {0};
	struct callview v;
	const char *what = NULL;
	size_t from = out->n;

	tool_load(m, c, sj, dj, &v);
	if (tool_kind_is_path(k) && call_path(&v, out)) {
		what = "path";
	} else {
		tool_describe_view(m, c, &v, &d);
		buf_add(out, d.what.p, d.what.n);
		what = k == TK_SHELL                  ? "command"
		       : k == TK_GREP || k == TK_GLOB ? "pattern"
		       : tool_kind_is_path(k)         ? "path"
						      : "target";
	}
	if (out->n == from)
		what = NULL;
	tool_desc_free(&d);
	json_free(sj);
	json_free(dj);
	return what;
}

/* A shell's streams: the two interleaved when the agent gives them so,
 * else stdout and then stderr. */
static bool
shell_output(const struct callview *v, struct buf *out)
{
	struct buf err = {0};
	size_t from = out->n;

	if (str_at(v->rj, v->var, "interleavedOutput", out) && out->n > from)
		return true;
	str_at(v->rj, v->var, "stdout", out);
	if (str_at(v->rj, v->var, "stderr", &err) && err.n > 0) {
		if (out->n > from && out->p[out->n - 1] != '\n')
			buf_addc(out, '\n');
		buf_add(out, err.p, err.n);
	}
	buf_free(&err);
	return out->n > from;
}

/* The lines of a structured patch's hunks (Claude Code's), one a line. */
static bool
patch_text(const struct callview *v, struct buf *out)
{
	const struct json *j = v->rj;
	int p = j != NULL && v->var >= 0 ? json_get(j, v->var, "structuredPatch") : -1, h;

	if (json_type(j, p) != JSON_ARRAY)
		return false;
	h = p + 1;
	for (int i = 0; i < json_size(j, p); i++, h = json_next(j, h)) {
		int ls = json_get(j, h, "lines"), l;

		if (json_type(j, ls) != JSON_ARRAY)
			continue;
		l = ls + 1;
		for (int k = 0; k < json_size(j, ls); k++, l = json_next(j, l)) {
			json_decode(j, l, out);
			buf_addc(out, '\n');
		}
	}
	return true;
}

/* What a call's kind calls its output, appended; NULL when none. */
static const char *
kind_output(enum tool_kind k, const struct callview *v, struct buf *out)
{
	switch (k) {
	case TK_SHELL:
		return shell_output(v, out) ? "output" : NULL;
	case TK_READ:
		return str_at(v->rj, v->var, "content|file.content", out) ? "content" : NULL;
	case TK_EDIT:
		return str_at(v->rj, v->var, "diffString", out) || patch_text(v, out) ? "diff"
										      : NULL;
	default:
		return NULL;
	}
}

const char *
copy_call_output(struct model *m, uint32_t c, struct buf *out)
{
	struct json *sj = json_new(), *dj = json_new();
	struct callview v;
	const char *what;
	size_t from = out->n;

	tool_load(m, c, sj, dj, &v);
	what = kind_output((enum tool_kind)m->call[c].kind, &v, out);
	if (what == NULL && tool_text(&v, out))
		what = "output";
	if (what == NULL && v.rj != NULL && v.result >= 0) {
		json_pretty(v.rj, v.result, 0, out);
		what = "result";
	}
	if (out->n == from)
		what = NULL;
	json_free(sj);
	json_free(dj);
	return what;
}

const char *
copy_item(struct model *m, uint32_t it, struct buf *out)
{
	const struct item *item = &m->it[it];
	struct tool_desc td = {0};
	size_t from = out->n;
	const char *what;

	switch (item->type) {
	case IT_TOOL:
		return copy_call_target(m, item->ref, out);
	case IT_PROMPT:
		what = "prompt";
		model_item_text(m, it, out);
		break;
	case IT_TEXT:
		what = "reply";
		model_item_text(m, it, out);
		break;
	case IT_THINKING:
		what = "thinking";
		model_item_text(m, it, out);
		break;
	case IT_SESSION:
		what = "session id";
		model_fact(m, item->session, FACT_ID, out);
		break;
	case IT_DIAG:
	case IT_STDERR:
		what = "line";
		model_item_text(m, it, out);
		break;
	default:
		what = "line";
		words_item(m, it, WORDS_WHOLE, &td, out);
		tool_desc_free(&td);
		break;
	}
	return out->n > from ? what : NULL;
}

void
copy_shell_quote(struct buf *out, const char *s, size_t n)
{
	bool plain = n > 0;

	for (size_t i = 0; i < n && plain; i++)
		plain = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			       "0123456789_-.,:/@%+=",
			       s[i]) != NULL &&
			s[i] != '\0';
	if (plain) {
		buf_add(out, s, n);
		return;
	}
	buf_addc(out, '\'');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\'')
			buf_adds(out, "'\\''");
		else
			buf_addc(out, s[i]);
	}
	buf_addc(out, '\'');
}

bool
copy_resume(struct model *m, uint32_t s, struct buf *out)
{
	/* What each CLI's --help says (src/FORMAT.md §10.5). */
	static const char *const cmds[AGENT_COUNT] = {
		[AGENT_CURSOR] = "cursor-agent --resume ",
		[AGENT_CLAUDE] = "claude --resume ",
		[AGENT_GEMINI] = "gemini --resume ",
		[AGENT_CODEX] = "codex resume ",
	};
	struct buf id = {0}, cwd = {0};
	unsigned a = m->ses[s].agent;
	bool ok = model_fact(m, s, FACT_ID, &id) && id.n > 0;

	if (ok) {
		if (model_session_cwd(m, s, &cwd) && cwd.n > 0) {
			buf_adds(out, "cd ");
			copy_shell_quote(out, cwd.p, cwd.n);
			buf_adds(out, " && ");
		}
		buf_adds(out, cmds[a < AGENT_COUNT ? a : AGENT_CURSOR]);
		copy_shell_quote(out, id.p, id.n);
	}
	buf_free(&id);
	buf_free(&cwd);
	return ok;
}

size_t
copy_osc52(struct buf *out, const char *s, size_t n, size_t max)
{
	if (n > max) {
		n = max;
		/* Not in the middle of a character. */
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	buf_adds(out, "\033]52;c;");
	base64_encode(out, s, n);
	buf_addc(out, '\a');
	return n;
}
