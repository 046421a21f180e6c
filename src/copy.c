/* copy.c: the texts y and Y copy, and the OSC 52 sequence that carries
 * them. */
#include "copy.h"

#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "json.h"
#include "redact.h"
#include "remote.h"
#include "text.h"
#include "tool.h"
#include "words.h"

const char *
copy_call_target(struct model *m, uint32_t c, struct buf *out)
{
	enum tool_kind k = (enum tool_kind)m->call[c].kind;
	struct json *sj = json_new(), *dj = json_new();
	struct tool_desc d = {0};
	struct call_facts v;
	const char *what = NULL;
	size_t from = out->n;

	tool_load(m, c, sj, dj, &v);
	if (tool_kind_is_path(k) && fact_str(call_fact(&v, CALL_PATH), out)) {
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
shell_output(struct call_facts *v, struct buf *out)
{
	struct buf err = {0};
	size_t from = out->n;

	if (fact_str(call_fact(v, CALL_OUTPUT), out) && out->n > from)
		return true;
	fact_str(call_fact(v, CALL_STDOUT), out);
	if (fact_str(call_fact(v, CALL_STDERR), &err) && err.n > 0) {
		if (out->n > from && out->p[out->n - 1] != '\n')
			buf_addc(out, '\n');
		buf_add(out, err.p, err.n);
	}
	buf_free(&err);
	return out->n > from;
}

/* The lines of a structured patch's hunks, one a line. */
static bool
patch_text(struct call_facts *v, struct buf *out)
{
	const struct factval *p = call_fact(v, CALL_HUNKS);
	struct elem_facts h;
	const struct json *j;
	int t;

	if (!fact_array(p))
		return false;
	j = p->j;
	t = p->t + 1;
	for (int i = 0; i < json_size(j, p->t); i++, t = json_next(j, t)) {
		const struct factval *ls;
		int l;

		if (!call_elem(v, FL_HUNKS, j, t, &h) || !fact_array(ls = elem_fact(&h, EL_LINES)))
			continue;
		l = ls->t + 1;
		for (int k = 0; k < json_size(j, ls->t); k++, l = json_next(j, l)) {
			json_decode(j, l, out);
			buf_addc(out, '\n');
		}
	}
	return true;
}

/* What a call's kind calls its output, appended; NULL when none. */
static const char *
kind_output(enum tool_kind k, struct call_facts *v, struct buf *out)
{
	switch (k) {
	case TK_SHELL:
		return shell_output(v, out) ? "output" : NULL;
	case TK_READ:
		return fact_str(call_fact(v, CALL_CONTENT), out) ? "content" : NULL;
	case TK_EDIT:
		return fact_str(call_fact(v, CALL_DIFF), out) || patch_text(v, out) ? "diff" : NULL;
	default:
		return NULL;
	}
}

const char *
copy_call_output(struct model *m, uint32_t c, struct buf *out)
{
	struct json *sj = json_new(), *dj = json_new();
	struct call_facts v;
	const struct factval *r;
	const char *what;
	size_t from = out->n;

	tool_load(m, c, sj, dj, &v);
	what = kind_output((enum tool_kind)m->call[c].kind, &v, out);
	if (what == NULL && tool_text(&v, out))
		what = "output";
	if (what == NULL && (r = call_fact(&v, CALL_RESULT)) != NULL && r->form == FACT_TOKEN) {
		json_pretty(r->j, r->t, 0, out);
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

/* A letter or a digit of ASCII, whatever the locale. */
static bool
alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether s[0..n) is a session id of the shape every agent's are (UUIDs,
 * Codex's thread ids): [A-Za-z0-9][A-Za-z0-9._-]*, nothing a shell or a
 * CLI could read as more than the id (an option, a second command). */
static bool
id_plain(const char *s, size_t n)
{
	if (n == 0 || !alnum(s[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!alnum(s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

/* Whether s[0..n) may reach a shell as how says: what the screen shows
 * of it is the text itself (no control character but tab and newline, no
 * invalid byte, no bidi control), and a word is on one line. */
static bool
shell_may(const char *s, size_t n, enum copy_shell how)
{
	struct buf shown = {0};
	bool ok;

	text_sanitize(&shown, s, n, TEXT_TABS | TEXT_REDACTED);
	ok = shown.n == n && (n == 0 || memcmp(shown.p, s, n) == 0);
	buf_free(&shown);
	return ok && (how == COPY_SHELL_LINE ||
		      (memchr(s, '\t', n) == NULL && memchr(s, '\n', n) == NULL));
}

bool
copy_shell(struct buf *out, const char *s, size_t n, enum copy_shell how)
{
	bool plain = n > 0;

	if (!shell_may(s, n, how))
		return false;
	for (size_t i = 0; i < n && plain && how == COPY_SHELL_WORD; i++)
		plain = alnum(s[i]) || strchr("_-.,:/@%+=", s[i]) != NULL;
	if (how == COPY_SHELL_LINE || plain) {
		buf_add(out, s, n);
		return true;
	}
	/* A quote or a backslash outside the quotes, escaped: fish reads
	 * \' and \\ inside them as escapes, sh and the others do not. */
	buf_addc(out, '\'');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\'')
			buf_adds(out, "'\\''");
		else if (s[i] == '\\')
			buf_adds(out, "'\\\\'");
		else
			buf_addc(out, s[i]);
	}
	buf_addc(out, '\'');
	return true;
}

bool
copy_resume(struct model *m, uint32_t s, struct buf *out, struct buf *why)
{
	const struct agent *a = agent_get(m->ses[s].agent);
	struct buf id = {0}, dir = {0}, cmd = {0};
	bool ok = false;

	if (a->resume[0] == NULL) {
		buf_addf(why, "no resume command: %s has none", a->label);
	} else if (!model_fact(m, s, FACT_ID, &id) || id.n == 0) {
		buf_adds(why, "the stream does not say the session's id: nothing to resume");
	} else if (!id_plain(id.p, id.n)) {
		buf_adds(why, "no resume command: the session id is not plain");
	} else {
		/* A relative folder made ./DIR: cd reads "-" as $OLDPWD and
		 * looks other names up in $CDPATH. */
		if (model_session_cwd(m, s, &dir) && dir.n > 0 && dir.p[0] != '/') {
			buf_reset(&dir);
			buf_adds(&dir, "./");
			model_session_cwd(m, s, &dir);
		}
		ok = true;
		if (dir.n > 0) {
			buf_adds(&cmd, "cd -- ");
			ok = copy_shell(&cmd, dir.p, dir.n, COPY_SHELL_WORD);
			buf_adds(&cmd, " && ");
		}
		if (!ok)
			buf_adds(why, "no resume command: the session's folder holds a control "
				      "character");
	}
	if (ok) {
		buf_add(out, cmd.p, cmd.n);
		/* The adapter's words (plain: its own), then the plain id. */
		for (size_t i = 0; i < ARRAY_LEN(a->resume) && a->resume[i] != NULL; i++) {
			buf_adds(out, a->resume[i]);
			buf_addc(out, ' ');
		}
		buf_add(out, id.p, id.n);
	}
	buf_free(&id);
	buf_free(&dir);
	buf_free(&cmd);
	return ok;
}

bool
copy_resume_on(struct model *m, uint32_t s, const char *host, const char *port, struct buf *out,
	       struct buf *why)
{
	const char *env = getenv("AGENTVIEW_SSH");
	struct buf inner = {0}, ssh = {0}, cmd = {0};
	bool ok;

	if (host == NULL)
		return copy_resume(m, s, out, why);
	if (!remote_host_ok(host) ||
	    (port != NULL && (port[0] == '\0' || strspn(port, "0123456789") != strlen(port)))) {
		buf_adds(why, "no resume command: the host is not one ssh may be given");
		return false;
	}
	if (!copy_resume(m, s, &inner, why))
		return false;
	/* ssh, or $AGENTVIEW_SSH's words as agentview runs them, each a
	 * word for the shell it is pasted in. */
	buf_adds(&ssh, env != NULL && env[strspn(env, " \t")] != '\0' ? env : "ssh");
	ok = true;
	for (char *w = strtok(ssh.p, " \t"); w != NULL && ok; w = strtok(NULL, " \t")) {
		ok = copy_shell(&cmd, w, strlen(w), COPY_SHELL_WORD);
		buf_addc(&cmd, ' ');
	}
	buf_adds(&cmd, "-t ");
	if (port != NULL)
		buf_addf(&cmd, "-p %s ", port);
	buf_adds(&cmd, host);
	buf_addc(&cmd, ' ');
	/* The command for the remote shell, one word here: quoted once. */
	ok = ok && copy_shell(&cmd, inner.p, inner.n, COPY_SHELL_WORD);
	if (ok)
		buf_add(out, cmd.p, cmd.n);
	else
		buf_adds(why, "no resume command: $AGENTVIEW_SSH holds a control character");
	buf_free(&inner);
	buf_free(&ssh);
	buf_free(&cmd);
	return ok;
}

bool
copy_gate(const char *what, const char *s, size_t n, struct buf *out, struct buf *why)
{
	bool shell = strcmp(what, "command") == 0 || strcmp(what, "resume command") == 0;
	struct buf clean = {0};

	/* Cut, `rm -rf ~/tmp/x` would be `rm -rf ~`. */
	if (shell && n > COPY_MAX) {
		buf_addf(why, "not copied: the %s is longer than the %u KiB OSC 52 carries", what,
			 COPY_MAX >> 10);
		return false;
	}
	if (shell && !shell_may(s, n, COPY_SHELL_LINE)) {
		buf_addf(why, "not copied: the %s holds a control character", what);
		return false;
	}
	/* Secrets out of the whole first (one cut in two would not be
	 * seen), then only what OSC 52 can carry shown: each byte is shown
	 * in one byte or more, but for CRLF's two in one. */
	if (redact_text(redact_active(), s, n, &clean)) {
		s = clean.p;
		n = clean.n;
	}
	text_sanitize(out, s, MIN(n, 2 * (size_t)COPY_MAX + 2), TEXT_TABS | TEXT_REDACTED);
	buf_free(&clean);
	return true;
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
