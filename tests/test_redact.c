/* test_redact.c: the secrets src/redact.c finds, the near misses it
 * leaves, overlaps, the user's patterns and text_sanitize applying it.
 * Every secret here is made up. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "redact.h"
#include "text.h"

struct redact_case {
	const char *in;
	const char *out; /* NULL: nothing to redact */
};

/* Run each case through r: out exactly, or false and out untouched. */
static void
check_cases(const struct redact *r, const struct redact_case *c, size_t n)
{
	struct buf b = {0};

	for (size_t i = 0; i < n; i++) {
		bool hit;

		buf_reset(&b);
		buf_adds(&b, "<");
		hit = redact_text(r, c[i].in, strlen(c[i].in), &b);
		if (c[i].out == NULL) {
			if (hit)
				fail_msg("case %zu redacted: %s", i, b.p);
			assert_int_equal(b.n, 1);
			continue;
		}
		if (!hit)
			fail_msg("case %zu not redacted: %s", i, c[i].in);
		if (strcmp(b.p + 1, c[i].out) != 0)
			fail_msg("case %zu: got '%s', want '%s'", i, b.p + 1, c[i].out);
	}
	buf_free(&b);
}

/* Each well-known shape, alone and in a sentence. */
static void
test_shapes(void **state)
{
	static const struct redact_case cases[] = {
		{"sk-proj-Fake0Fake1Fake2Fake3Fake4", "[redacted]"},
		{"key sk-ant-api03-fake_fake-fake_fake-00 here", "key [redacted] here"},
		{"ghp_FAKEfake0123456789FAKEfake0123456789", "[redacted]"},
		{"token=(gho_FAKEfake0123456789FAKEfake0123456789)", "token=([redacted])"},
		{"github_pat_11FAKE0000_fakefakefakefakefake", "[redacted]"},
		{"id AKIAFAKEFAKEFAKE0000.", "id [redacted]."},
		{"xoxb-0000000000-fakefakefake", "[redacted]"},
		{"xoxp-1111-2222-fakefake", "[redacted]"},
		{"jwt: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.ZmFrZXNpZ25hdHVyZQ ok",
		 "jwt: [redacted] ok"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEfake\nfake==\n"
		 "-----END RSA PRIVATE KEY-----\n",
		 "-----BEGIN RSA PRIVATE KEY-----\n[redacted]\n"
		 "-----END RSA PRIVATE KEY-----\n"},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn (cut",
		 "-----BEGIN OPENSSH PRIVATE KEY-----\n[redacted]"},
		{"curl -H \"Authorization: Bearer fake.token.value\" x",
		 "curl -H \"Authorization: Bearer [redacted]\" x"},
		{"authorization: fakefakefake\nnext", "authorization: [redacted]\nnext"},
		{"{\"Authorization\": \"Basic ZmFrZTpmYWtl\"}",
		 "{\"Authorization\": \"Basic [redacted]\"}"},
		{"export OPENAI_API_KEY=fake123 && go", "export OPENAI_API_KEY=[redacted] && go"},
		{"GH_TOKEN='fake value'", "GH_TOKEN='[redacted]'"},
		{"CLIENT_SECRET=\"fa ke\"\n", "CLIENT_SECRET=\"[redacted]\"\n"},
		{"PASSWORD=hunter2;DB_PASSWORD=x", "PASSWORD=[redacted];DB_PASSWORD=[redacted]"},
		{"--password=fake", "--password=[redacted]"},
		{"\"cmd\": \"API_KEY=fake\\\" run\"", "\"cmd\": \"API_KEY=[redacted]\\\" run\""},
	};

	struct redact *r = redact_new();

	(void)state;
	check_cases(r, cases, ARRAY_LEN(cases));
	redact_free(r);
}

/* Text that looks a little like a secret and is not one. */
static void
test_near_misses(void **state)
{
	static const struct redact_case cases[] = {
		{"sk-learn and sk-short", NULL},
		{"task-Fake0Fake1Fake2Fake3Fake4", NULL},
		{"ghp_short", NULL},
		{"xghp_FAKEfake0123456789FAKEfake0123456789", NULL},
		{"ghx_FAKEfake0123456789FAKEfake0123456789", NULL},
		{"AKIAFAKEFAKEFAKE00001", NULL},
		{"AKIAfakefakefake0000", NULL},
		{"xoxz-0000000000-fakefakefake", NULL},
		{"xoxb-short", NULL},
		{"eyJhbGciOiJIUzI1NiJ9.short.x", NULL},
		{"eyJhbGciOiJIUzI1NiJ9 alone", NULL},
		{"-----BEGIN PUBLIC KEY-----\nMIIBfake\n-----END PUBLIC KEY-----", NULL},
		{"-----BEGIN CERTIFICATE-----", NULL},
		{"the authorization header", NULL},
		{"Authorization:", NULL},
		{"MY_KEYS=a KEY=b monkey=c TOKENS=d", NULL},
		{"API_KEY=$API_KEY and API_KEY=", NULL},
		{"passwords=x", NULL},
		{"", NULL},
	};
	struct redact *r = redact_new();

	(void)state;
	check_cases(r, cases, ARRAY_LEN(cases));
	redact_free(r);
}

/* Secrets that overlap or touch read as one; UTF-8 around them stays. */
static void
test_overlap_utf8(void **state)
{
	static const struct redact_case cases[] = {
		{"OPENAI_API_KEY=sk-proj-Fake0Fake1Fake2Fake3Fake4", "OPENAI_API_KEY=[redacted]"},
		{"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.ZmFrZXNpZ25hdHVyZQ",
		 "Authorization: Bearer [redacted]"},
		{"키 sk-proj-Fake0Fake1Fake2Fake3Fake4 입니다 🔑", "키 [redacted] 입니다 🔑"},
		{"größe=1 GH_TOKEN=fäke€ ok", "größe=1 GH_TOKEN=[redacted] ok"},
		{"JWT_TOKEN=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.ZmFrZXNpZ25hdHVyZQ",
		 "JWT_TOKEN=[redacted]"},
		{"é\xffsk-proj-Fake0Fake1Fake2Fake3Fake4\xff", "é\xff[redacted]\xff"},
	};
	struct redact *r = redact_new();

	(void)state;
	check_cases(r, cases, ARRAY_LEN(cases));
	redact_free(r);
}

/* The user's patterns: POSIX ERE, repeatable, by line, past NUL bytes;
 * a pattern that does not compile says why. */
static void
test_patterns(void **state)
{
	static const struct redact_case cases[] = {
		{"ticket ACME-1234 and ACME-99", "ticket [redacted] and [redacted]"},
		{"host db.internal.example", "host [redacted]"},
		{"a\nb^x", NULL},
		{"nothing here", NULL},
	};
	struct redact *r = redact_new();
	struct buf err = {0}, b = {0};
	static const char nul[] = "ACME-1\0ACME-2";

	(void)state;
	assert_true(redact_add(r, "ACME-[0-9]+", &err));
	assert_true(redact_add(r, "[a-z]+\\.internal\\.example", &err));
	assert_true(redact_add(r, "^x", &err));
	assert_int_equal(err.n, 0);
	check_cases(r, cases, ARRAY_LEN(cases));
	assert_true(redact_text(r, nul, sizeof nul - 1, &b));
	assert_bytes_equal(b.p, b.n, "[redacted]\0[redacted]");
	assert_false(redact_add(r, "a(b", &err));
	assert_true(err.n > 0);
	buf_free(&err);
	buf_free(&b);
	redact_free(r);
}

/* text_sanitize redacts while a redactor is in use, before escaping
 * (a key split by an escape would otherwise slip through), and not after. */
static void
test_sanitize_applies(void **state)
{
	static const char in[] = "\x1b[1m sk-proj-Fake0Fake1Fake2Fake3Fake4\x1b[0m";
	struct redact *r = redact_new();
	struct buf b = {0};

	(void)state;
	redact_use(r, true);
	assert_ptr_equal(redact_active(), r);
	text_sanitize(&b, in, sizeof in - 1, 0);
	assert_string_equal(b.p, "^[[1m [redacted]^[[0m");
	assert_false(redact_toggle());
	assert_null(redact_active());
	buf_reset(&b);
	text_sanitize(&b, in, sizeof in - 1, 0);
	assert_string_equal(b.p, "^[[1m sk-proj-Fake0Fake1Fake2Fake3Fake4^[[0m");
	assert_true(redact_toggle());
	buf_reset(&b);
	text_sanitize(&b, in, sizeof in - 1, TEXT_REDACTED);
	assert_string_equal(b.p, "^[[1m sk-proj-Fake0Fake1Fake2Fake3Fake4^[[0m");
	redact_use(NULL, false);
	assert_false(redact_toggle());
	buf_free(&b);
	redact_free(r);
}

/* The shapes of gitleaks' default rules that --redact missed (issue 20,
 * item 5): named values in every spelling (env, spaced, Django, JSON,
 * YAML, headers, options), passwords in URLs and command lines, and the
 * prefixes of the providers' tokens. */
static void
test_more_shapes(void **state)
{
	static const struct redact_case cases[] = {
		{"PGPASSWORD=fakepgpass psql -h db", "PGPASSWORD=[redacted] psql -h db"},
		{"DB_PASS=fakedbpass ./run", "DB_PASS=[redacted] ./run"},
		{"TOKEN=faketoken SECRET=fakesecret", "TOKEN=[redacted] SECRET=[redacted]"},
		{"aws_secret_access_key = FAKEfake/FAKEfake+0000\n",
		 "aws_secret_access_key = [redacted]\n"},
		{"SECRET_KEY = 'django-insecure-fake0000'", "SECRET_KEY = '[redacted]'"},
		{"{\"password\": \"hunter2\", \"api_key\": 12345678}",
		 "{\"password\": \"[redacted]\", \"api_key\": [redacted]}"},
		{"{\"password\":\"pa\\\"ss\"}", "{\"password\":\"[redacted]\"}"},
		{"db:\n  api_key: fakeyamlkey0000\n  host: db\n",
		 "db:\n  api_key: [redacted]\n  host: db\n"},
		{"- password: \"fake yaml pass\"", "- password: \"[redacted]\""},
		{"postgres://app:fakepgpass@db.example:5432/app",
		 "postgres://app:[redacted]@db.example:5432/app"},
		{"redis://:fakeredispass@cache:6379", "redis://:[redacted]@cache:6379"},
		{"curl -sS -u admin:fakecurlpass https://x.test",
		 "curl -sS -u admin:[redacted] https://x.test"},
		{"curl --user 'admin:fake pass' x", "curl --user 'admin:[redacted]' x"},
		{"mysql -h db -uroot -pFakeMysql0 app", "mysql -h db -uroot -p[redacted] app"},
		{"sshpass -p fakesshpass ssh host", "sshpass -p [redacted] ssh host"},
		{"mysqldump --password=fake0 db", "mysqldump --password=[redacted] db"},
		{"docker login --password fakedocker0 r.test",
		 "docker login --password [redacted] r.test"},
		{"curl -H 'X-Api-Key: fakeapikey0000' x", "curl -H 'X-Api-Key: [redacted]' x"},
		{"Cookie: session=fakesess; csrftoken=fakecsrf\nHost: x",
		 "Cookie: [redacted]\nHost: x"},
		{"set-cookie: sid=fake; Path=/; HttpOnly", "set-cookie: [redacted]"},
		{"Proxy-Authorization: Basic ZmFrZTpmYWtl",
		 "Proxy-Authorization: Basic [redacted]"},
		{"x sk_live_FAKEfake0000FAKEfake00 y", "x [redacted] y"},
		{"rk_live_FAKEfake0000FAKEfake00", "[redacted]"},
		{"key=AIzaFAKEfake0000FAKEfake0000FAKEfake000", "key=[redacted]"},
		{"glpat-FAKEfake0000FAKEfake", "[redacted]"},
		{"hf_FAKEfakeFAKEfakeFAKEfakeFAKEfakeFA", "[redacted]"},
		{"//registry.npmjs.org/:_authToken=npm_FAKEfake0000FAKEfake0000FAKEfake0000",
		 "//registry.npmjs.org/:_authToken=[redacted]"},
		{"npm_FAKEfake0000FAKEfake0000FAKEfake0000", "[redacted]"},
		{"https://hooks.slack.com/services/T00000000/B00000000/FAKEfakeFAKEfakeFAKEfake0",
		 "https://hooks.slack.com/services/[redacted]"},
		{"sk-ant-api03-FAKEfake0000FAKEfake0000-fakeAA", "[redacted]"},
		{"apiKey: \"fakecamel0000\"", "apiKey: \"[redacted]\""},
		{"const clientSecret = \"fakejs0000\";", "const clientSecret = \"[redacted]\";"},
		{"'password' => 'fakephp0'", "'password' => '[redacted]'"},
		{"spring.datasource.password=fakejava0", "spring.datasource.password=[redacted]"},
		{"token := \"fakego0000\"", "token := \"[redacted]\""},
		{"password=Fake0pw[ next PASSWORD=Fake1pw( x",
		 "password=[redacted] next PASSWORD=[redacted] x"},
		{"password=Fake2pw체(", "password=[redacted]"},
		{"Authorization: Bearer fake.token.value", "Authorization: Bearer [redacted]"},
		{"-H \"X-Auth: Bearer FAKEfake0000FAKEfake00\"",
		 "-H \"X-Auth: Bearer [redacted]\""},
		{"-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQfake\n-----END PGP PRIVATE KEY BLOCK-----",
		 "-----BEGIN PGP PRIVATE KEY BLOCK-----\n[redacted]\n-----END PGP PRIVATE KEY BLOCK-----"},
		{"xoxe-1-FAKEfake0000FAKEfake", "[redacted]"},
		{"AGE-SECRET-KEY-1FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFA",
		 "[redacted]"},
		{"dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		 "[redacted]"},
		{"SG.FAKEfake0000FAKEfake00.FAKEfake0000FAKEfake0000FAKEfake0000FAKEfake00",
		 "[redacted]"},
		{"shpat_0123456789abcdef0123456789abcdef", "[redacted]"},
		{"pypi-AgEIcHlwaS5vcmcFAKEfake0000FAKEfake0000FAKEfake0000FAKEfake0000FAKEfake0000",
		 "[redacted]"},
		{"hvs.FAKEfake0000FAKEfake0000FAKEfake0000FAKEfake0000FAKEfake0000FAKEfake0000"
		 "FAKEfake0000FAKEfake0000",
		 "[redacted]"},
	};
	struct redact *r = redact_new();

	(void)state;
	check_cases(r, cases, ARRAY_LEN(cases));
	redact_free(r);
}

/* Prose, code, hashes, UUIDs, paths and settings that look a little like
 * the shapes above stay as they are. */
static void
test_more_near_misses(void **state)
{
	static const struct redact_case cases[] = {
		{"Pass the token to the function; the secret is in the vault.", NULL},
		{"The token: it expired yesterday.", NULL},
		{"token = get_token()", NULL},
		{"password = os.environ[\"DB_PASSWORD\"]", NULL},
		{"if password == \"\":", NULL},
		{"def login(user, password: str, token: Optional[str] = None) -> bool:", NULL},
		{"  apiKey: string;", NULL},
		{"password = None\nsecret: null\n\"token\": true", NULL},
		{"token: ${TOKEN}\npassword: \"$DB_PASS\"\nsecret: {{ .Values.secret }}", NULL},
		{"commit 3f786850e387550fdab836ed7e6dc881de23001b", NULL},
		{"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", NULL},
		{"session_id=5ec7e75e-0000-4000-8000-5ec7e75e0001", NULL},
		{"/home/dev/.ssh/id_rsa src/token.c tests/test_password.py ~/.config/secrets/",
		 NULL},
		{"key: value\nprimary_key=id\npublic_key: ssh-ed25519 AAAAC3Nz\ncsrf_token=x",
		 NULL},
		{"max_tokens=1000 token_count: 5 password_hash=x secret_name=db", NULL},
		{"http://localhost:8080/path git@github.com:org/repo.git https://user@x.test/",
		 NULL},
		{"mkdir -p build && ssh -p 2222 host && docker run -u 1000:1000 img && sort -u f",
		 NULL},
		{"PWD=/home/dev OLDPWD=/tmp", NULL},
		{"hf_hub_download(repo_id) sk_test_it npm_config", NULL},
		{"Bearer tokens are short-lived.", NULL},
		{"a \\\\u0073k-proj-Fake0Fake1Fake2Fake3Fake4", NULL},
		{"std::string key; x::password(); a:=b", NULL},
		{"--password-stdin --token-file ./t --no-password", NULL},
	};
	struct redact *r = redact_new();

	(void)state;
	check_cases(r, cases, ARRAY_LEN(cases));
	redact_free(r);
}

/* Redaction works on decoded text: a secret spelled with JSON's \u
 * escapes, in a value or in the middle of a key's name, is found and
 * hidden whole, escapes and all. */
static void
test_escapes(void **state)
{
	static const struct redact_case cases[] = {
		{"\"\\u0073k-proj-Fake0Fake1Fake2Fake3Fake4\"", "\"[redacted]\""},
		{"{\"pass\\u0077ord\": \"hunter2\"}", "{\"pass\\u0077ord\": \"[redacted]\"}"},
		{"{\"text\":\"k\\u00e9y sk-pro\\u006a-Fake0Fake1Fake2Fake3Fake4 \\ud83d\\udd11\"}",
		 "{\"text\":\"k\\u00e9y [redacted] \\ud83d\\udd11\"}"},
		{"GH_TOKEN\\u003dfake123 go", "GH_TOKEN\\u003d[redacted] go"},
	};
	struct redact *r = redact_new();

	(void)state;
	check_cases(r, cases, ARRAY_LEN(cases));
	redact_free(r);
}

/* Redact first, cut after: a cut never leaves the start of a secret
 * (whether secrets are hidden or shown: R may hide them later); with no
 * redactor in use, the cut stays where it was asked. */
static void
test_cut(void **state)
{
	static const char key[] = "my key is sk-proj-Fake0Fake1Fake2Fake3Fake4 ok";
	static const char pem[] = "k: -----BEGIN RSA PRIVATE KEY-----\nMIIEfakefakefake\n";
	static const char utf[] = "größe größe";
	struct redact *r = redact_new();

	(void)state;
	assert_int_equal(redact_cut(key, strlen(key), 15), 15);
	redact_use(r, false);
	assert_int_equal(redact_cut(key, strlen(key), 15), 10);
	assert_int_equal(redact_cut(key, strlen(key), 10), 10);
	assert_int_equal(redact_cut(key, strlen(key), 8), 8);
	assert_int_equal(redact_cut(key, strlen(key), 45), 45);
	assert_int_equal(redact_cut(key, strlen(key), 100), strlen(key));
	redact_use(r, true);
	assert_int_equal(redact_cut(key, strlen(key), 30), 10);
	assert_int_equal(redact_cut(pem, strlen(pem), 40), 35);
	/* Never half a character. */
	assert_int_equal(redact_cut(utf, strlen(utf), 3), 2);
	redact_use(NULL, false);
	redact_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_near_misses),
		cmocka_unit_test(test_overlap_utf8),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_sanitize_applies),
		cmocka_unit_test(test_more_shapes),
		cmocka_unit_test(test_more_near_misses),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
