/* redact.c: find secrets in text and replace each with "[redacted]". The
 * well-known shapes (gitleaks' default rules were the checklist; the table
 * and the matchers are our own) are found by hand in one pass over the
 * bytes, which must cost little on a page of 200 MB: a token's prefix is
 * looked for only where a word starts and only among the rows of the
 * table that start with that byte; a named value only at '=' and ':'; an
 * option only at '-'. Text that holds JSON's \u escapes is matched decoded
 * too. The user's patterns with regexec. */
#define _GNU_SOURCE /* memmem */
#include "redact.h"

#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* What runs after a token's prefix. */
enum run {
	R_ALNUM,   /* A-Z a-z 0-9 */
	R_WORD,    /* and _ */
	R_B64URL,  /* and _ - */
	R_B64,     /* and _ - + / = (either base64) */
	R_DOTTED,  /* and _ - . = */
	R_HEX,     /* 0-9 a-f A-F */
	R_UPALNUM, /* A-Z 0-9 */
	R_ALPHA,   /* A-Z a-z */
	R_PATH,    /* a URL's path: A-Z a-z 0-9 _ - / */
	R_URL,     /* anything to a blank, a quote or a bracket */
	R_BEARER,  /* a bearer token: A-Z a-z 0-9 _ - . ~ + / = */
	R_JWT,     /* three base64url parts joined by dots, the first "eyJ..." */
};

/* A token: its prefix (case as written), then a run of min to max bytes
 * of its class (max 0: no bound; with a bound, the run must end the
 * word). KEEP shows the prefix and hides the run alone. */
struct shape {
	const char *prefix;
	uint8_t run;
	uint8_t keep;
	uint16_t min, max;
};

enum { KEEP = 1 };

/* The tokens, by provider. Kept in this order for people; redact_new
 * indexes them by their first byte. */
static const struct shape shapes[] = {
	/* AI */
	{"sk-", R_B64URL, 0, 20, 0}, /* OpenAI sk-, sk-proj-, sk-svcacct-; Anthropic sk-ant- */
	{"pplx-", R_ALNUM, 0, 48, 0},
	{"hf_", R_ALPHA, 0, 30, 0},
	{"api_org_", R_ALPHA, 0, 30, 0},
	/* code hosting and packages */
	{"ghp_", R_ALNUM, 0, 30, 0},
	{"gho_", R_ALNUM, 0, 30, 0},
	{"ghu_", R_ALNUM, 0, 30, 0},
	{"ghs_", R_ALNUM, 0, 30, 0},
	{"ghr_", R_ALNUM, 0, 30, 0},
	{"github_pat_", R_WORD, 0, 22, 0},
	{"glpat-", R_B64URL, 0, 20, 0},
	{"glptt-", R_HEX, 0, 40, 0},
	{"gldt-", R_B64URL, 0, 20, 0},
	{"glft-", R_B64URL, 0, 20, 0},
	{"glrt-", R_B64URL, 0, 20, 0},
	{"glcbt-", R_B64URL, 0, 20, 0},
	{"glimt-", R_B64URL, 0, 25, 0},
	{"glagent-", R_B64URL, 0, 50, 0},
	{"gloas-", R_B64URL, 0, 64, 0},
	{"glsoat-", R_B64URL, 0, 20, 0},
	{"glffct-", R_B64URL, 0, 20, 0},
	{"GR1348941", R_B64URL, 0, 20, 0},
	{"_gitlab_session=", R_ALNUM, 0, 32, 0},
	{"npm_", R_ALNUM, 0, 36, 0},
	{"pypi-AgEIcHlwaS5vcmc", R_B64URL, 0, 50, 0},
	{"rubygems_", R_HEX, 0, 48, 0},
	{"CLOJARS_", R_ALNUM, 0, 60, 0},
	{"sgp_", R_WORD, 0, 40, 0},
	{"AKCp", R_ALNUM, 0, 69, 0},
	/* clouds and platforms */
	{"AKIA", R_UPALNUM, 0, 16, 16},
	{"ASIA", R_UPALNUM, 0, 16, 16},
	{"ABIA", R_UPALNUM, 0, 16, 16},
	{"ACCA", R_UPALNUM, 0, 16, 16},
	{"A3T", R_UPALNUM, 0, 17, 17},
	{"AIza", R_B64URL, 0, 35, 0},
	{"LTAI", R_ALNUM, 0, 20, 20},
	{"dop_v1_", R_HEX, 0, 64, 64},
	{"doo_v1_", R_HEX, 0, 64, 64},
	{"dor_v1_", R_HEX, 0, 64, 64},
	{"hvs.", R_B64URL, 0, 90, 0},
	{"hvb.", R_B64URL, 0, 138, 0},
	{"v1.0-", R_B64URL, 0, 150, 0},
	{"AGE-SECRET-KEY-1", R_UPALNUM, 0, 58, 58},
	{"sha256~", R_B64URL, 0, 43, 0},
	{"pscale_tkn_", R_DOTTED, 0, 32, 0},
	{"pscale_pw_", R_DOTTED, 0, 32, 0},
	{"pscale_oauth_", R_DOTTED, 0, 32, 0},
	{"dapi", R_HEX, 0, 32, 32},
	{"dt0c01.", R_DOTTED, 0, 80, 0},
	{"HRKU-AA", R_B64URL, 0, 58, 0},
	{"fo1_", R_B64URL, 0, 43, 0},
	{"fm1a_", R_B64, 0, 100, 0},
	{"fm1r_", R_B64, 0, 100, 0},
	{"fm2_", R_B64, 0, 100, 0},
	{"pul-", R_HEX, 0, 40, 40},
	{"tk-us-", R_B64URL, 0, 48, 0},
	{"ATATT3", R_B64, 0, 180, 0},
	{"dnkey-", R_B64URL, 0, 70, 0},
	{"ops_eyJ", R_B64, 0, 200, 0},
	{"eyJrIjoi", R_ALNUM, 0, 60, 0},
	{"glc_", R_B64, 0, 32, 0},
	{"glsa_", R_WORD, 0, 41, 0},
	{"pnu_", R_ALNUM, 0, 36, 0},
	{"lin_api_", R_ALNUM, 0, 40, 0},
	{"ntn_", R_ALNUM, 0, 46, 0},
	{"rdme_", R_ALNUM, 0, 70, 0},
	{"PMAK-", R_B64URL, 0, 50, 0},
	{"sntryu_", R_HEX, 0, 64, 0},
	{"sntrys_", R_B64, 0, 60, 0},
	{"NRAK-", R_UPALNUM, 0, 27, 0},
	{"NRII-", R_B64URL, 0, 32, 0},
	{"NRJS-", R_HEX, 0, 19, 0},
	{"dp.pt.", R_ALNUM, 0, 43, 0},
	{"fio-u-", R_B64URL, 0, 64, 0},
	{"p8e-", R_ALNUM, 0, 32, 0},
	{"ico-", R_ALNUM, 0, 32, 32},
	{"API-", R_UPALNUM, 0, 26, 26},
	{"sm_aat_", R_ALNUM, 0, 16, 0},
	{"sm_pat_", R_ALNUM, 0, 16, 0},
	{"sm_sat_", R_ALNUM, 0, 16, 0},
	/* payments and shops */
	{"sk_live_", R_ALNUM, 0, 10, 0},
	{"sk_test_", R_ALNUM, 0, 10, 0},
	{"sk_prod_", R_ALNUM, 0, 10, 0},
	{"rk_live_", R_ALNUM, 0, 10, 0},
	{"rk_test_", R_ALNUM, 0, 10, 0},
	{"rk_prod_", R_ALNUM, 0, 10, 0},
	{"sq0atp-", R_B64URL, 0, 22, 0},
	{"sq0csp-", R_B64URL, 0, 22, 0},
	{"shpat_", R_HEX, 0, 32, 32},
	{"shpca_", R_HEX, 0, 32, 32},
	{"shppa_", R_HEX, 0, 32, 32},
	{"shpss_", R_HEX, 0, 32, 32},
	{"shippo_live_", R_HEX, 0, 40, 0},
	{"shippo_test_", R_HEX, 0, 40, 0},
	{"EZAK", R_ALNUM, 0, 54, 0},
	{"EZTK", R_ALNUM, 0, 54, 0},
	{"FLWSECK_TEST-", R_ALNUM, 0, 12, 0},
	{"FLWSECK-", R_ALNUM, 0, 12, 0},
	{"duffel_live_", R_B64URL, 0, 43, 0},
	{"duffel_test_", R_B64URL, 0, 43, 0},
	/* messaging and mail */
	{"xoxa-", R_B64URL, 0, 10, 0},
	{"xoxb-", R_B64URL, 0, 10, 0},
	{"xoxe-", R_B64URL, 0, 10, 0},
	{"xoxe.xox", R_B64URL, 0, 10, 0},
	{"xoxo-", R_B64URL, 0, 10, 0},
	{"xoxp-", R_B64URL, 0, 10, 0},
	{"xoxr-", R_B64URL, 0, 10, 0},
	{"xoxs-", R_B64URL, 0, 10, 0},
	{"xapp-", R_B64URL, 0, 20, 0},
	{"hooks.slack.com/services/", R_PATH, KEEP, 20, 0},
	{"hooks.slack.com/workflows/", R_PATH, KEEP, 20, 0},
	{"hooks.slack.com/triggers/", R_PATH, KEEP, 20, 0},
	{"discord.com/api/webhooks/", R_PATH, KEEP, 20, 0},
	{"discordapp.com/api/webhooks/", R_PATH, KEEP, 20, 0},
	{"webhook.office.com/webhookb2/", R_URL, KEEP, 40, 0},
	{"SG.", R_DOTTED, 0, 60, 0},
	{"xkeysib-", R_B64URL, 0, 70, 0},
	{"SK", R_HEX, 0, 32, 32}, /* Twilio */
	/* anywhere */
	{"eyJ", R_JWT, 0, 0, 0},
	{"Bearer ", R_BEARER, KEEP, 16, 0},
	{"bearer ", R_BEARER, KEEP, 16, 0},
};

/* What a byte is to the scan. */
enum {
	B_WORD = 1,    /* of a word (base64url): a token starts after none */
	B_START = 2,   /* a token's first */
	B_TRIGGER = 4, /* '=', ':' (a named value), '-' (an option), '\\' */
};

struct redact {
	regex_t *re;
	size_t nre, capre;
	/* The shapes that start with byte c: order[lo[c]] to order[hi[c]). */
	uint8_t order[ARRAY_LEN(shapes)];
	uint8_t lo[256], hi[256];
	uint8_t plen[ARRAY_LEN(shapes)]; /* their prefixes' lengths */
	uint8_t byte[256];               /* B_* */
};

/* Where a secret is: bytes [a, b) of the text. */
struct span {
	size_t a, b;
};

struct spans {
	struct span *v;
	size_t n, cap;
};

/* The longest name of a named value looked at. */
#define NAME_MAX_LEN 64
/* The longest word of such a name compared. */
#define WORD_MAX 24

static const struct redact *in_use;
static bool on;

static bool is_b64url(unsigned char c);

/* Create a redactor of the well-known shapes and no user pattern yet. */
struct redact *
redact_new(void)
{
	struct redact *r = xcalloc(1, sizeof(struct redact));
	size_t at = 0;

	for (unsigned c = 0; c < 256; c++) {
		r->lo[c] = (uint8_t)at;
		for (size_t k = 0; k < ARRAY_LEN(shapes); k++)
			if ((unsigned char)shapes[k].prefix[0] == c)
				r->order[at++] = (uint8_t)k;
		r->hi[c] = (uint8_t)at;
		r->byte[c] = (uint8_t)((is_b64url((unsigned char)c) ? B_WORD : 0) |
				       (r->hi[c] > r->lo[c] ? B_START : 0) |
				       (c != 0 && strchr("=:-\\", (int)c) != NULL ? B_TRIGGER : 0));
	}
	for (size_t k = 0; k < ARRAY_LEN(shapes); k++)
		r->plen[k] = (uint8_t)strlen(shapes[k].prefix);
	return r;
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

/* --- bytes ------------------------------------------------------------------ */

static bool
is_upper(unsigned char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool
is_lower(unsigned char c)
{
	return c >= 'a' && c <= 'z';
}

static bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool
is_alnum(unsigned char c)
{
	return is_digit(c) || is_upper(c) || is_lower(c);
}

/* base64url: the letters of keys, tokens and JWT parts. */
static bool
is_b64url(unsigned char c)
{
	return is_alnum(c) || c == '_' || c == '-';
}

static bool
is_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

static bool
is_quote(unsigned char c)
{
	return c == '"' || c == '\'' || c == '`';
}

static bool
in_run(enum run k, unsigned char c)
{
	switch (k) {
	case R_ALNUM:
		return is_alnum(c);
	case R_WORD:
		return is_alnum(c) || c == '_';
	case R_B64URL:
		return is_b64url(c);
	case R_B64:
		return is_b64url(c) || c == '+' || c == '/' || c == '=';
	case R_DOTTED:
		return is_b64url(c) || c == '.' || c == '=';
	case R_HEX:
		return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	case R_UPALNUM:
		return is_digit(c) || is_upper(c);
	case R_ALPHA:
		return is_upper(c) || is_lower(c);
	case R_PATH:
		return is_b64url(c) || c == '/';
	case R_URL:
		return c > ' ' && c != 0x7F && !is_quote(c) && strchr("<>()[]{}\\", c) == NULL;
	case R_BEARER:
		return is_b64url(c) || c == '.' || c == '~' || c == '+' || c == '/' || c == '=';
	default:
		return false;
	}
}

/* Bytes from i on that are all of class k. */
static size_t
run_len(const char *s, size_t n, size_t i, enum run k)
{
	size_t j = i;

	while (j < n && in_run(k, (unsigned char)s[j]))
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

		if (fold && is_upper(c))
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

/* --- tokens ------------------------------------------------------------------ */

/* A JWT at i: three base64url parts (the first "eyJ...") joined by dots;
 * its end, or 0. */
static size_t
jwt(const char *s, size_t n, size_t i)
{
	size_t j = i;

	for (int part = 0; part < 3; part++) {
		size_t len = run_len(s, n, j, R_B64URL);

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

/* The token of shape k, whose prefix is p bytes long, at i: its end, or
 * 0. */
static size_t
token(const struct shape *k, size_t p, const char *s, size_t n, size_t i)
{
	size_t len;

	if (n - i < p || memcmp(s + i + 1, k->prefix + 1, p - 1) != 0)
		return 0;
	if (k->run == R_JWT)
		return jwt(s, n, i);
	len = run_len(s, n, i + p, (enum run)k->run);
	if (len < k->min || (k->max > 0 && len > k->max))
		return 0;
	/* A token of a fixed length is a word of its own. */
	if (k->max > 0 && i + p + len < n && is_alnum((unsigned char)s[i + p + len]))
		return 0;
	return i + p + len;
}

/* The first token of the table that starts at i, a word's start: added;
 * where it ends, or 0. */
static size_t
tokens(const struct redact *r, const char *s, size_t n, size_t i, struct spans *sp)
{
	unsigned char c = (unsigned char)s[i];

	for (unsigned o = r->lo[c]; o < r->hi[c]; o++) {
		const struct shape *k = &shapes[r->order[o]];
		size_t p = r->plen[r->order[o]], e;

		if (i + 1 < n && (unsigned char)s[i + 1] != (unsigned char)k->prefix[1])
			continue;
		e = token(k, p, s, n, i);
		if (e > 0) {
			span_add(sp, k->keep ? i + p : i, e);
			return e;
		}
	}
	return 0;
}

/* --- private keys -------------------------------------------------------------- */

/* The body of a "-----BEGIN ... PRIVATE KEY-----" (or "PRIVATE KEY
 * BLOCK") block, to its END line or to the end of the text when cut,
 * whitespace around it kept. */
static void
key_block(const char *s, size_t n, size_t i, struct spans *sp)
{
	size_t j = i + 11, a, b;
	const char *end;

	while (j < n && j - i < 128 &&
	       (is_upper((unsigned char)s[j]) || is_digit((unsigned char)s[j]) || s[j] == ' '))
		j++;
	if (!starts(s, n, j, "-----", false))
		return;
	if (!(j >= i + 11 + 11 && starts(s, n, j - 12, " private key", true)) &&
	    !(j >= i + 11 + 17 && starts(s, n, j - 18, " private key block", true)))
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

/* --- names whose values are secrets ------------------------------------------ */

enum name_kind {
	NK_NONE,
	NK_VALUE,  /* its value: PASSWORD=…, "api_key": …, X-Api-Key: … */
	NK_SCHEME, /* its value after a scheme: Authorization: Bearer … */
	NK_LINE,   /* the rest of its line: Cookie: … */
};

/* Whether w is one of the words of list. */
static bool
word_in(const char *w, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(w, list[i]) == 0)
			return true;
	return false;
}

static bool
ends_with(const char *w, const char *suffix)
{
	size_t a = strlen(w), b = strlen(suffix);

	return a >= b && memcmp(w + a - b, suffix, b) == 0;
}

/* The word of name s[0..e) that ends at e, in lower case into w (empty
 * when longer than a word of ours): where it starts. Words are split at
 * '_', '-', '.' and where camelCase starts one ("apiKey", "APIKey"). */
static size_t
word_before(const char *s, size_t e, char w[WORD_MAX])
{
	size_t a = e;

	while (a > 0 && is_alnum((unsigned char)s[a - 1])) {
		a--;
		/* A camelCase word starts at its capital: "api|Key", "API|Key". */
		if (a > 0 && is_upper((unsigned char)s[a]) &&
		    (is_lower((unsigned char)s[a - 1]) ||
		     (is_upper((unsigned char)s[a - 1]) && a + 1 < e &&
		      is_lower((unsigned char)s[a + 1]))))
			break;
	}
	if (e - a >= WORD_MAX) {
		w[0] = '\0';
		return a;
	}
	for (size_t i = a; i < e; i++)
		w[i - a] = (char)(is_upper((unsigned char)s[i]) ? s[i] - 'A' + 'a' : s[i]);
	w[e - a] = '\0';
	return a;
}

/* What the value of a name s[0..n) is: its last word says (the one
 * before it sometimes), so that API_KEY, apiKey, X-Api-Key, PGPASSWORD
 * and spring.datasource.password are secrets, and primary_key,
 * token_count, csrf_token, PWD and password_hash are not. */
static enum name_kind
name_kind(const char *s, size_t n)
{
	static const char *const alone[] = {
		"secret",    "apikey",     "secretkey",   "accesskey", "privatekey",
		"authtoken", "credential", "credentials", "creds",
	};
	/* Tokens that are not secrets: what a form, a page or a count is. */
	static const char *const not_token[] = {
		"csrf",         "xsrf", "public", "next", "page",
		"continuation", "sync", "cancel", "max",  "min",
	};
	/* Keys that are not secrets: a table's, a cache's, a sort's. */
	static const char *const not_key[] = {
		"public", "pub",   "primary", "foreign",     "sort",    "partition", "cache",
		"idx",    "index", "schema",  "sequence",    "natural", "bucket",    "row",
		"hash",   "map",   "dict",    "lookup",      "group",   "object",    "hot",
		"unique", "shard", "routing", "idempotency", "dedup",   "composite", "sorting",
	};
	char last[WORD_MAX], prev[WORD_MAX];
	size_t e = n, a;
	bool upper = true;

	for (size_t i = 0; i < n; i++)
		if (is_lower((unsigned char)s[i]))
			upper = false;
	a = word_before(s, e, last);
	if (last[0] == '\0' || a == e)
		return NK_NONE;
	while (a > 0 && !is_alnum((unsigned char)s[a - 1]))
		a--;
	word_before(s, a, prev);
	if (strcmp(last, "authorization") == 0)
		return NK_SCHEME;
	if (strcmp(last, "cookie") == 0)
		return NK_LINE;
	if (ends_with(last, "password") || ends_with(last, "passwd") ||
	    ends_with(last, "passphrase") || word_in(last, alone, ARRAY_LEN(alone)))
		return NK_VALUE;
	if (strcmp(last, "token") == 0)
		return word_in(prev, not_token, ARRAY_LEN(not_token)) ? NK_NONE : NK_VALUE;
	if (strcmp(last, "key") == 0)
		return prev[0] != '\0' && !word_in(prev, not_key, ARRAY_LEN(not_key)) ? NK_VALUE
										      : NK_NONE;
	/* DB_PASS, MYSQL_PWD; not PWD, not renderPass */
	if ((strcmp(last, "pass") == 0 || strcmp(last, "pwd") == 0) && prev[0] != '\0' && upper)
		return NK_VALUE;
	return NK_NONE;
}

static bool
is_name(unsigned char c)
{
	return is_b64url(c) || c == '.';
}

/* Words a value is when it is no secret: nothing, a type, a switch. */
static bool
no_secret(const char *s, size_t n)
{
	static const char *const words[] = {
		"true",   "false",     "null",    "none",  "nil",      "undefined",
		"yes",    "no",        "on",      "off",   "str",      "string",
		"int",    "bool",      "boolean", "bytes", "number",   "any",
		"object", "secretstr", "char",    "void",  "required", "optional",
	};
	char w[WORD_MAX];

	if (n == 0 || n >= WORD_MAX)
		return n == 0;
	for (size_t i = 0; i < n; i++)
		w[i] = (char)(is_upper((unsigned char)s[i]) ? s[i] - 'A' + 'a' : s[i]);
	w[n] = '\0';
	return word_in(w, words, ARRAY_LEN(words));
}

/* Code, not a value: a name (a.b_c) called or indexed, the run of the
 * value s[0..n) ending at its '(' or '[' and stopped by what closes it or
 * a quote (get_token(), os.environ["X"]); stop is the byte after it. */
static bool
code(const char *s, size_t n, int stop)
{
	if (n < 2 || (s[n - 1] != '(' && s[n - 1] != '[') || is_digit((unsigned char)s[0]) ||
	    (stop != ')' && stop != ']' && stop != '"' && stop != '\''))
		return false;
	for (size_t i = 0; i + 1 < n; i++)
		if (!is_alnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

/* A reference to a secret, not one: $VAR, ${VAR}, {{ a template }}. */
static bool
reference(const char *s, size_t n)
{
	return n > 0 && (s[0] == '$' || (n > 1 && s[0] == '{' && s[1] == '{'));
}

/* The value at v (blanks skipped): a quoted string's inside (a quote,
 * a backtick or JSON's \" opens it; the line ends it when nothing
 * closes it), or a run of bytes to a blank, a quote or punctuation.
 * With bare false, an unquoted value is not taken. Its span in *a, *b;
 * false when it is none, or no secret: empty, a reference, a word like
 * true or str, code (a call, an index). */
static bool
value_at(const char *s, size_t n, size_t v, bool bare, size_t *a, size_t *b)
{
	size_t w;

	while (v < n && is_blank((unsigned char)s[v]))
		v++;
	if (v >= n)
		return false;
	if (s[v] == '\\' && v + 1 < n && s[v + 1] == '"') {
		const char *q = v + 2 < n ? memmem(s + v + 2, n - v - 2, "\\\"", 2) : NULL;
		const char *nl = v + 2 < n ? memchr(s + v + 2, '\n', n - v - 2) : NULL;

		w = q != NULL ? (size_t)(q - s) : n;
		if (nl != NULL && (size_t)(nl - s) < w)
			w = (size_t)(nl - s);
		*a = v + 2;
	} else if (is_quote((unsigned char)s[v])) {
		char q = s[v];

		for (w = v + 1; w < n && s[w] != q && s[w] != '\n'; w++)
			if (s[w] == '\\' && w + 1 < n && s[w + 1] != '\n')
				w++;
		w = MIN(w, n);
		*a = v + 1;
	} else {
		if (!bare)
			return false;
		for (w = v; w < n; w++) {
			unsigned char c = (unsigned char)s[w];

			if (c <= ' ' || is_quote(c) || c == '\\' || strchr(";&,|)]}<>", c) != NULL)
				break;
		}
		*a = v;
		if (w == v || strchr("({[<%!*", s[v]) != NULL || no_secret(s + v, w - v) ||
		    code(s + v, w - v, w < n ? s[w] : 0))
			return false;
	}
	*b = w;
	return *b > *a && !reference(s + *a, *b - *a);
}

/* Whether the name that starts at a follows no word on its line (prose
 * reads "the token: it expired"). */
static bool
not_in_prose(const char *s, size_t a)
{
	while (a > 0 && is_blank((unsigned char)s[a - 1]))
		a--;
	return a == 0 || !is_alnum((unsigned char)s[a - 1]);
}

/* Whether the name that starts at a starts a line (after blanks, a list's
 * "- ", curl's "> " and "< "), a quoted string or a header: a YAML key,
 * an HTTP header. */
static bool
line_head(const char *s, size_t a)
{
	while (a > 0 && is_blank((unsigned char)s[a - 1]))
		a--;
	if (a > 0 && strchr("-<>", s[a - 1]) != NULL) {
		a--;
		while (a > 0 && is_blank((unsigned char)s[a - 1]))
			a--;
	}
	return a == 0 || s[a - 1] == '\n' || s[a - 1] == '\r' || is_quote((unsigned char)s[a - 1]);
}

/* A header's value to the end of its line (or of the quotes around it). */
static void
line_value(const char *s, size_t n, size_t v, struct spans *sp)
{
	size_t b;

	while (v < n && is_blank((unsigned char)s[v]))
		v++;
	for (b = v; b < n && !is_quote((unsigned char)s[b]) && s[b] != '\\' && s[b] != '\n' &&
		    s[b] != '\r';
	     b++)
		;
	while (b > v && is_blank((unsigned char)s[b - 1]))
		b--;
	span_add(sp, v, b);
}

/* Authorization's value at v: after its scheme ("Bearer "), if any. */
static void
scheme_value(const char *s, size_t n, size_t v, struct spans *sp)
{
	size_t w;

	while (v < n &&
	       (is_blank((unsigned char)s[v]) || is_quote((unsigned char)s[v]) || s[v] == '\\'))
		v++;
	w = v;
	while (w < n && (is_upper((unsigned char)s[w]) || is_lower((unsigned char)s[w])))
		w++;
	if (w > v && w + 1 < n && s[w] == ' ' && s[w + 1] != ' ')
		v = w + 1;
	line_value(s, n, v, sp);
}

/* scheme://user:password@host at the ':' of "://" at i: the password. */
static void
userinfo(const char *s, size_t n, size_t i, struct spans *sp)
{
	size_t e = i + 3, at = 0, colon = 0;

	if (i == 0 || !is_alnum((unsigned char)s[i - 1]))
		return;
	for (; e < n && e - i < 1024; e++) {
		unsigned char c = (unsigned char)s[e];

		if (c <= ' ' || is_quote(c) || strchr("/?#<>\\()", c) != NULL)
			break;
		if (c == '@')
			at = e;
	}
	for (size_t k = i + 3; k < at; k++)
		if (s[k] == ':') {
			colon = k;
			break;
		}
	if (colon > 0 && colon + 1 < at && !reference(s + colon + 1, at - colon - 1))
		span_add(sp, colon + 1, at);
}

/* A name and its value around the '=' or ':' at i: NAME=value, NAME =
 * 'value', name := "value", 'name' => 'value', "name": value, name:
 * value at a line's head, Header: value. */
static void
named(const char *s, size_t n, size_t i, struct spans *sp)
{
	size_t j = i, a, b, v = i + 1, va, vb;
	bool colon = s[i] == ':', quoted = false;
	enum name_kind kind;
	char q = 0;

	if (colon) {
		if (v < n && (s[v] == ':' || s[v] == '='))
			return;
		if (v + 1 < n && s[v] == '/' && s[v + 1] == '/') {
			userinfo(s, n, i, sp);
			return;
		}
	} else {
		if (v < n && s[v] == '=')
			return;
		if (i > 0 &&
		    (s[i - 1] == '=' || s[i - 1] == '!' || s[i - 1] == '<' || s[i - 1] == '>'))
			return;
		if (v < n && s[v] == '>')
			v++;
		else if (i > 0 && s[i - 1] == ':')
			j--;
	}
	while (j > 0 && i - j < 8 && is_blank((unsigned char)s[j - 1]))
		j--;
	if (j > 0 && (s[j - 1] == '"' || s[j - 1] == '\'')) {
		q = s[--j];
		quoted = true;
		if (j > 0 && s[j - 1] == '\\')
			j--;
	}
	b = j;
	/* The last letter of a name that holds a secret: tokeN, cookiE,
	 * passworD, secreT, keY, credS, credentiaL. */
	if (b == 0 || strchr("nedtyslNEDTYSL", s[b - 1]) == NULL || s[b - 1] == '\0')
		return;
	while (j > 0 && b - j < NAME_MAX_LEN && is_name((unsigned char)s[j - 1]))
		j--;
	a = j;
	if (a == b || (a > 0 && is_name((unsigned char)s[a - 1])))
		return;
	if (quoted && (a == 0 || s[a - 1] != q))
		return;
	while (a < b && s[a] == '-')
		a++;
	kind = name_kind(s + a, b - a);
	if (kind == NK_NONE || (colon && !quoted && !not_in_prose(s, j)))
		return;
	if (kind == NK_SCHEME) {
		scheme_value(s, n, v, sp);
	} else if (kind == NK_LINE && colon) {
		line_value(s, n, v, sp);
	} else if (value_at(s, n, v, !colon || quoted || line_head(s, j), &va, &vb)) {
		span_add(sp, va, vb);
	}
}

/* Whether the line that s[i] is on holds the word w before i. */
static bool
on_line(const char *s, size_t i, const char *w)
{
	size_t a = i, k = strlen(w);

	while (a > 0 && i - a < 4096 && s[a - 1] != '\n')
		a--;
	for (const char *p = s + a; (p = memmem(p, (size_t)(s + i - p), w, k)) != NULL; p++)
		if (p == s || !is_alnum((unsigned char)p[-1]))
			return true;
	return false;
}

/* user:password at v: the password. */
static void
user_pass(const char *s, size_t n, size_t v, struct spans *sp)
{
	size_t a, b;
	const char *colon;

	if (!value_at(s, n, v, true, &a, &b) &&
	    !(v < n && s[v] == '\'' && value_at(s, n, v, false, &a, &b)))
		return;
	colon = memchr(s + a, ':', b - a);
	if (colon != NULL && !reference(colon + 1, (size_t)(s + b - colon - 1)))
		span_add(sp, (size_t)(colon - s) + 1, b);
}

/* An option at the '-' at i that carries a secret: --password VALUE
 * (--name=value is a named value), curl's -u/--user user:password,
 * mysql's -pPASSWORD, sshpass's -p PASSWORD; and a private key's block. */
static void
dash(const char *s, size_t n, size_t i, struct spans *sp)
{
	size_t a, b;

	if (i + 1 >= n)
		return;
	if (s[i + 1] == '-' && starts(s, n, i, "-----BEGIN ", false)) {
		key_block(s, n, i, sp);
		return;
	}
	if (i > 0 && !is_blank((unsigned char)s[i - 1]) && !is_quote((unsigned char)s[i - 1]) &&
	    s[i - 1] != '\n')
		return;
	if (s[i + 1] == '-') {
		size_t e = i + 2;

		while (e < n && e - i < NAME_MAX_LEN && is_b64url((unsigned char)s[e]))
			e++;
		if (e >= n || s[e] != ' ' || e + 1 >= n || s[e + 1] == '-')
			return;
		if (e - i == 6 && starts(s, n, i + 2, "user", false) && on_line(s, i, "curl"))
			user_pass(s, n, e + 1, sp);
		else if (name_kind(s + i + 2, e - i - 2) == NK_VALUE &&
			 value_at(s, n, e + 1, true, &a, &b))
			span_add(sp, a, b);
		return;
	}
	if (s[i + 1] == 'u' && i + 2 < n && s[i + 2] == ' ' && on_line(s, i, "curl")) {
		user_pass(s, n, i + 3, sp);
	} else if (s[i + 1] == 'p' && i + 2 < n) {
		if (s[i + 2] != ' ' && s[i + 2] != '-' &&
		    (on_line(s, i, "mysql") || on_line(s, i, "mariadb"))) {
			if (value_at(s, n, i + 2, true, &a, &b))
				span_add(sp, a, b);
		} else if (s[i + 2] == ' ' && on_line(s, i, "sshpass")) {
			if (value_at(s, n, i + 3, true, &a, &b))
				span_add(sp, a, b);
		}
	}
}

/* Every well-known shape found in s[0..n); whether it holds a \u escape. */
static bool
find_shapes(const struct redact *r, const char *s, size_t n, struct spans *sp)
{
	bool word = false, escape = false;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		uint8_t b = r->byte[c];
		size_t e;

		if (b & B_TRIGGER) {
			if (c == '=' || c == ':')
				named(s, n, i, sp);
			else if (c == '-')
				dash(s, n, i, sp);
			else if (i + 1 < n && s[i + 1] == 'u')
				escape = true;
		} else if ((b & B_START) && !word && (e = tokens(r, s, n, i, sp)) > 0) {
			i = e - 1;
			b = r->byte[(unsigned char)s[i]];
		}
		word = b & B_WORD;
	}
	return escape;
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

/* The shapes and the user's patterns in s[0..n); whether it holds a \u
 * escape. */
static bool
find_all(const struct redact *r, const char *s, size_t n, struct spans *sp)
{
	bool escape = find_shapes(r, s, n, sp);

	if (r->nre > 0) {
		char *z = xmalloc(n + 1);

		memcpy(z, s, n);
		z[n] = '\0';
		find_patterns(r, z, n, sp);
		free(z);
	}
	return escape;
}

/* --- the text decoded ---------------------------------------------------------- */

/* A \u escape of the text: its bytes [raw, raw + rn) are bytes
 * [dec, dec + dn) of the text decoded. */
struct escape {
	size_t raw, rn, dec, dn;
};

struct escapes {
	struct escape *v;
	size_t n, cap;
};

/* Four hex digits at p, or -1. */
static long
hex4(const char *p)
{
	long v = 0;

	for (int i = 0; i < 4; i++) {
		unsigned char c = (unsigned char)p[i];

		if (!in_run(R_HEX, c))
			return -1;
		v = v * 16 + (is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

/* s[0..n) with each \uXXXX decoded into d (a pair of them as one
 * character; "\\" kept as it is, so that "\\u0041" stays), the escapes
 * in e. */
static void
decode_u(const char *s, size_t n, struct buf *d, struct escapes *e)
{
	size_t i = 0;

	while (i < n) {
		const char *bs = memchr(s + i, '\\', n - i);
		size_t k = bs != NULL ? (size_t)(bs - s) : n, from;
		long hi, lo;

		buf_add(d, s + i, k - i);
		i = k;
		if (i + 1 >= n || s[i + 1] != 'u' || i + 6 > n || (hi = hex4(s + i + 2)) < 0) {
			size_t len = MIN(n - i, (size_t)2);

			buf_add(d, s + i, len);
			i += len;
			continue;
		}
		from = d->n;
		k = 6;
		if (hi >= 0xD800 && hi <= 0xDBFF && i + 12 <= n && s[i + 6] == '\\' &&
		    s[i + 7] == 'u' && (lo = hex4(s + i + 8)) >= 0xDC00 && lo <= 0xDFFF) {
			hi = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
			k = 12;
		} else if (hi >= 0xD800 && hi <= 0xDFFF) {
			hi = 0xFFFD;
		}
		buf_add_utf8(d, (uint32_t)hi);
		ARRAY_RESERVE(e->v, e->cap, e->n + 1);
		e->v[e->n++] = (struct escape){i, k, from, d->n - from};
		i += k;
	}
}

/* Where byte x of the decoded text is in the text: an escape is taken
 * whole, its start for a span's start, its end for a span's end. */
static size_t
raw_at(const struct escapes *e, size_t x, bool end)
{
	size_t lo = 0, hi = e->n;
	const struct escape *k;

	/* The last escape that starts at x or before. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (e->v[mid].dec <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return x;
	k = &e->v[lo - 1];
	if (x == k->dec)
		return k->raw;
	if (x < k->dec + k->dn)
		return end ? k->raw + k->rn : k->raw;
	return k->raw + k->rn + (x - k->dec - k->dn);
}

/* The secrets of s[0..n) read with its \u escapes decoded, as spans of
 * s: a key spelled "\u0073k-…" or a name "pass\u0077ord". */
static void
find_decoded(const struct redact *r, const char *s, size_t n, struct spans *sp)
{
	struct buf d = {0};
	struct escapes e = {0};
	struct spans ds = {0};

	decode_u(s, n, &d, &e);
	if (e.n > 0) {
		find_all(r, d.p, d.n, &ds);
		for (size_t k = 0; k < ds.n; k++)
			span_add(sp, raw_at(&e, ds.v[k].a, false), raw_at(&e, ds.v[k].b, true));
	}
	free(ds.v);
	free(e.v);
	buf_free(&d);
}

/* --- replacing ------------------------------------------------------------ */

static int
span_cmp(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	return a->a < b->a ? -1 : a->a > b->a ? 1 : 0;
}

/* The secrets of s[0..n) in sp, sorted, those that overlap or touch
 * made one; how many there are. */
static size_t
find(const struct redact *r, const char *s, size_t n, struct spans *sp)
{
	size_t k = 0;

	if (find_all(r, s, n, sp))
		find_decoded(r, s, n, sp);
	if (sp->n == 0)
		return 0;
	qsort(sp->v, sp->n, sizeof *sp->v, span_cmp);
	for (size_t i = 1; i < sp->n; i++) {
		if (sp->v[i].a <= sp->v[k].b)
			sp->v[k].b = MAX(sp->v[k].b, sp->v[i].b);
		else
			sp->v[++k] = sp->v[i];
	}
	sp->n = k + 1;
	return sp->n;
}

/* Append s[0..n) to out with every secret replaced; false if none. */
bool
redact_text(const struct redact *r, const char *s, size_t n, struct buf *out)
{
	struct spans sp = {0};
	size_t at = 0;

	if (r == NULL || n == 0 || find(r, s, n, &sp) == 0) {
		free(sp.v);
		return false;
	}
	for (size_t i = 0; i < sp.n; i++) {
		buf_add(out, s + at, sp.v[i].a - at);
		buf_adds(out, REDACTED);
		at = sp.v[i].b;
	}
	buf_add(out, s + at, n - at);
	free(sp.v);
	return true;
}

/* Where to cut s[0..n) at max bytes at most: on a character's start, and
 * before a secret the cut would go through. */
size_t
redact_cut(const char *s, size_t n, size_t max)
{
	struct spans sp = {0};
	size_t k = MIN(n, max);

	if (k < n && in_use != NULL && find(in_use, s, MIN(n, k + REDACT_CUT_SLACK), &sp) > 0) {
		for (size_t i = sp.n; i-- > 0;)
			if (sp.v[i].a < k && k < sp.v[i].b)
				k = sp.v[i].a;
	}
	free(sp.v);
	while (k > 0 && k < n && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	return k;
}
