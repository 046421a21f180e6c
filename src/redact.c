/* redact.c: find secrets in text and replace each with "[redacted]". The
 * well-known shapes are matched by hand in one pass (they must cost little
 * on a page of 200 MB); the user's patterns with regexec. */
#define _GNU_SOURCE /* memmem */
#include "redact.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

struct redact {
	regex_t *re;
	size_t nre, capre;
};

/* Where a secret is: bytes [a, b) of the text. */
struct span {
	size_t a, b;
};

struct spans {
	struct span *v;
	size_t n, cap;
};

static const struct redact *in_use;
static bool on;

/* Create a redactor of the well-known shapes and no user pattern yet. */
struct redact *
redact_new(void)
{
	return xcalloc(1, sizeof(struct redact));
}

/* Free the redactor and its compiled patterns. */
void
redact_free(struct redact *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nre; i++)
		regfree(&r->re[i]);
	free(r->re);
	free(r);
}

/* Compile ere as a user pattern; regcomp's words in err when it fails. */
bool
redact_add(struct redact *r, const char *ere, struct buf *err)
{
	char msg[256];
	int rc;

	ARRAY_RESERVE(r->re, r->capre, r->nre + 1);
	rc = regcomp(&r->re[r->nre], ere, REG_EXTENDED | REG_NEWLINE);
	if (rc != 0) {
		regerror(rc, &r->re[r->nre], msg, sizeof msg);
		buf_addf(err, "%s", msg);
		return false;
	}
	r->nre++;
	return true;
}

/* Set the redactor every output applies, and whether it is on. */
void
redact_use(const struct redact *r, bool hide)
{
	in_use = r;
	on = hide;
}

/* Turn the redactor in use off or on again; whether it is on now. */
bool
redact_toggle(void)
{
	on = !on && in_use != NULL;
	return on;
}

/* The redactor every output applies, or NULL while there is none on. */
const struct redact *
redact_active(void)
{
	return on ? in_use : NULL;
}

/* JSON-quote s[0..n) into out, its secrets out while they are hidden. */
void
redact_json_quote(struct buf *out, const char *s, size_t n)
{
	struct buf clean = {0};

	if (redact_text(redact_active(), s, n, &clean)) {
		json_quote(out, clean.p, clean.n);
		buf_free(&clean);
		return;
	}
	json_quote(out, s, n);
}

/* --- the well-known shapes ------------------------------------------------ */

static bool
is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool
is_ident(unsigned char c)
{
	return is_alnum(c) || c == '_';
}

/* base64url: the letters of keys, tokens and JWT parts. */
static bool
is_b64url(unsigned char c)
{
	return is_ident(c) || c == '-';
}

static bool
is_upalnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
}

static bool
is_xox(unsigned char c)
{
	return is_alnum(c) || c == '-';
}

/* Bytes from i on that are all of class cls. */
static size_t
run(const char *s, size_t n, size_t i, bool (*cls)(unsigned char))
{
	size_t j = i;

	while (j < n && cls((unsigned char)s[j]))
		j++;
	return j - i;
}

/* Whether s[i..n) starts with the literal lit (case-insensitively when
 * fold, lit in lower case). */
static bool
starts(const char *s, size_t n, size_t i, const char *lit, bool fold)
{
	size_t k = strlen(lit);

	if (n - i < k)
		return false;
	for (size_t j = 0; j < k; j++) {
		unsigned char c = (unsigned char)s[i + j];

		if (fold && c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		if (c != (unsigned char)lit[j])
			return false;
	}
	return true;
}

static void
span_add(struct spans *sp, size_t a, size_t b)
{
	if (b <= a)
		return;
	ARRAY_RESERVE(sp->v, sp->cap, sp->n + 1);
	sp->v[sp->n++] = (struct span){a, b};
}

/* A prefix and at least min bytes of class cls after it: the end of the
 * token, or 0. */
static size_t
token(const char *s, size_t n, size_t i, const char *prefix, size_t min, bool (*cls)(unsigned char))
{
	size_t k = strlen(prefix), len;

	if (!starts(s, n, i, prefix, false))
		return 0;
	len = run(s, n, i + k, cls);
	return len >= min ? i + k + len : 0;
}

/* A GitHub token: gh[pousr]_ and 30 or more letters or digits, or a
 * fine-grained github_pat_ one. */
static size_t
github(const char *s, size_t n, size_t i)
{
	if (starts(s, n, i, "github_pat_", false))
		return token(s, n, i, "github_pat_", 22, is_ident);
	if (!starts(s, n, i, "gh", false) || n - i < 5 || s[i + 2] == '\0' ||
	    strchr("pousr", s[i + 2]) == NULL || s[i + 3] != '_')
		return 0;
	return token(s, n, i + 4, "", 30, is_alnum);
}

/* A Slack token: xox[abprs]- and 10 or more letters, digits or dashes. */
static size_t
slack(const char *s, size_t n, size_t i)
{
	if (!starts(s, n, i, "xox", false) || n - i < 6 || s[i + 3] == '\0' ||
	    strchr("abprs", s[i + 3]) == NULL || s[i + 4] != '-')
		return 0;
	return token(s, n, i + 5, "", 10, is_xox);
}

/* A JWT: three base64url parts (the first "eyJ...") joined by dots. */
static size_t
jwt(const char *s, size_t n, size_t i)
{
	size_t j = i;

	if (!starts(s, n, i, "eyJ", false))
		return 0;
	for (int part = 0; part < 3; part++) {
		size_t len = run(s, n, j, is_b64url);

		if (len < 10)
			return 0;
		j += len;
		if (part < 2) {
			if (j >= n || s[j] != '.')
				return 0;
			j++;
		}
	}
	return j;
}

/* An AWS access key id: AKIA or ASIA and 16 upper-case letters or digits. */
static size_t
aws(const char *s, size_t n, size_t i)
{
	if (!starts(s, n, i, "AKIA", false) && !starts(s, n, i, "ASIA", false))
		return 0;
	if (run(s, n, i + 4, is_upalnum) != 16 ||
	    (i + 20 < n && is_alnum((unsigned char)s[i + 20])))
		return 0;
	return i + 20;
}

/* The body of a "-----BEGIN ... PRIVATE KEY-----" block (to its END
 * line, or to the end of the text when cut), whitespace around it kept. */
static void
key_block(const char *s, size_t n, size_t i, struct spans *sp)
{
	size_t j = i + 11, a, b;
	const char *end;

	while (j < n && (is_upalnum((unsigned char)s[j]) || s[j] == ' '))
		j++;
	if (j < i + 11 + 5 || !starts(s, n, j - 12, " private key", true) ||
	    !starts(s, n, j, "-----", false))
		return;
	a = j + 5;
	end = memmem(s + a, n - a, "-----END ", 9);
	b = end != NULL ? (size_t)(end - s) : n;
	while (a < b && (s[a] == ' ' || s[a] == '\n' || s[a] == '\r'))
		a++;
	while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\n' || s[b - 1] == '\r'))
		b--;
	span_add(sp, a, b);
}

/* Where a header's or an assignment's value ends: a quote, a backslash
 * (JSON's escapes), the line's end, or a byte of stop. */
static size_t
value_end(const char *s, size_t n, size_t i, const char *stop)
{
	while (i < n && s[i] != '"' && s[i] != '\'' && s[i] != '\\' && s[i] != '\n' &&
	       s[i] != '\r' && strchr(stop, s[i]) == NULL)
		i++;
	return i;
}

/* "Authorization:" and its value, after its scheme ("Bearer ") if any. */
static void
authorization(const char *s, size_t n, size_t i, struct spans *sp)
{
	size_t j = i + 13, w, b;

	if (!starts(s, n, i, "authorization", true))
		return;
	while (j < n && (s[j] == '"' || s[j] == '\\'))
		j++;
	if (j >= n || s[j] != ':')
		return;
	j++;
	while (j < n &&
	       (s[j] == ' ' || s[j] == '\t' || s[j] == '"' || s[j] == '\'' || s[j] == '\\'))
		j++;
	w = j;
	while (w < n && ((s[w] >= 'a' && s[w] <= 'z') || (s[w] >= 'A' && s[w] <= 'Z')))
		w++;
	if (w > j && w + 1 < n && s[w] == ' ' && s[w + 1] != ' ')
		j = w + 1;
	b = value_end(s, n, j, "");
	while (b > j && (s[b - 1] == ' ' || s[b - 1] == '\t'))
		b--;
	span_add(sp, j, b);
}

/* Whether the name s[a..b) is one whose value is a secret: *_KEY,
 * *_TOKEN, *_SECRET, PASSWORD or *_PASSWORD, in any case. */
static bool
secret_name(const char *s, size_t a, size_t b)
{
	static const char *const ends[] = {"_key", "_token", "_secret", "password"};

	for (size_t k = 0; k < ARRAY_LEN(ends); k++) {
		size_t len = strlen(ends[k]);

		if (b - a >= len && starts(s, b, b - len, ends[k], true) &&
		    (k < 3 || b - a == len || s[b - len - 1] == '_'))
			return true;
	}
	return false;
}

/* NAME=value at the '=' at i, NAME a secret's: the value (inside its
 * quotes, if quoted; a "$VAR" is a reference, not a secret). */
static void
assignment(const char *s, size_t n, size_t i, struct spans *sp)
{
	size_t a = i, j = i + 1, b;

	while (a > 0 && is_ident((unsigned char)s[a - 1]))
		a--;
	if (a == i || !secret_name(s, a, i) || j >= n)
		return;
	if (s[j] == '\\' && j + 1 < n && s[j + 1] == '"')
		j++;
	if (s[j] == '"' || s[j] == '\'') {
		const char *q = memchr(s + j + 1, s[j], n - j - 1);

		b = q != NULL ? (size_t)(q - s) : n;
		if (b > j + 1 && s[b - 1] == '\\')
			b--;
		j++;
		if (memchr(s + j, '\n', b - j) != NULL)
			b = (size_t)((const char *)memchr(s + j, '\n', b - j) - s);
	} else {
		b = value_end(s, n, j, " \t;&`),");
	}
	if (j < b && s[j] != '$')
		span_add(sp, j, b);
}

/* Every well-known shape found in s[0..n). */
static void
find_shapes(const char *s, size_t n, struct spans *sp)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		bool edge = i == 0 || !is_b64url((unsigned char)s[i - 1]);
		size_t e = 0;

		if (c == '=') {
			assignment(s, n, i, sp);
			continue;
		}
		if (c == '-' && starts(s, n, i, "-----BEGIN ", false)) {
			key_block(s, n, i, sp);
			continue;
		}
		if ((c == 'a' || c == 'A') && (i == 0 || !is_ident((unsigned char)s[i - 1])))
			authorization(s, n, i, sp);
		if (!edge)
			continue;
		if (c == 's')
			e = token(s, n, i, "sk-", 20, is_b64url);
		else if (c == 'g')
			e = github(s, n, i);
		else if (c == 'A')
			e = aws(s, n, i);
		else if (c == 'x')
			e = slack(s, n, i);
		else if (c == 'e')
			e = jwt(s, n, i);
		if (e > 0) {
			span_add(sp, i, e);
			i = e - 1;
		}
	}
}

/* --- the user's patterns ---------------------------------------------------- */

/* Every match of the user's patterns in s[0..n), which z holds
 * NUL-terminated; a NUL byte of the text ends a run regexec sees. */
static void
find_patterns(const struct redact *r, const char *z, size_t n, struct spans *sp)
{
	for (size_t k = 0; k < r->nre; k++) {
		size_t i = 0;

		while (i < n) {
			size_t seg = strlen(z + i);
			size_t at = i;
			regmatch_t m;

			while (at <= i + seg &&
			       regexec(&r->re[k], z + at, 1, &m,
				       at > i && z[at - 1] != '\n' ? REG_NOTBOL : 0) == 0) {
				size_t a = at + (size_t)m.rm_so;
				size_t b = at + (size_t)m.rm_eo;

				span_add(sp, a, b);
				at = b > a ? b : b + 1;
			}
			i += seg + 1;
		}
	}
}

/* --- replacing ------------------------------------------------------------ */

static int
span_cmp(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	return a->a < b->a ? -1 : a->a > b->a ? 1 : 0;
}

/* Append s[0..n) to out with every secret replaced; false if none. */
bool
redact_text(const struct redact *r, const char *s, size_t n, struct buf *out)
{
	struct spans sp = {0};
	size_t at = 0;

	if (r == NULL || n == 0)
		return false;
	find_shapes(s, n, &sp);
	if (r->nre > 0) {
		char *z = xmalloc(n + 1);

		memcpy(z, s, n);
		z[n] = '\0';
		find_patterns(r, z, n, &sp);
		free(z);
	}
	if (sp.n == 0)
		return false;
	qsort(sp.v, sp.n, sizeof *sp.v, span_cmp);
	for (size_t i = 0; i < sp.n;) {
		size_t a = sp.v[i].a, b = sp.v[i].b;

		/* Overlapping or touching secrets read as one. */
		for (i++; i < sp.n && sp.v[i].a <= b; i++)
			b = MAX(b, sp.v[i].b);
		buf_add(out, s + at, a - at);
		buf_adds(out, REDACTED);
		at = b;
	}
	buf_add(out, s + at, n - at);
	free(sp.v);
	return true;
}
