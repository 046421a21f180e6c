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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),           cmocka_unit_test(test_near_misses),
		cmocka_unit_test(test_overlap_utf8),     cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_sanitize_applies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
