/* test_notify.c: what a notification writes to the terminal (the bell,
 * OSC 9 and 777, tmux's passthrough), that no event text gets through as
 * a control character, --notify-cmd's environment made the same way, and
 * which changes of a model's sessions are told. (--notify-cmd runs in the
 * background: tests/run_fleet.sh and tests/run_redact.sh run it.) */
#include <fcntl.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "notify.h"
#include "redact.h"

/* The bytes of e, with or without tmux. */
static const char *
bytes(const struct notify_event *e, bool tmux)
{
	static struct buf b;
	struct notifier n;

	notify_init(&n, true, NULL, -1);
	n.tmux = tmux;
	buf_reset(&b);
	notify_bytes(&n, e, &b);
	return b.p;
}

static void
test_bytes(void **state)
{
	struct notify_event e = {"done",
				 "17e650d2",
				 "cursor",
				 "done",
				 "done · cursor · Composer 2.5 · fix it · 4m05s",
				 "/x/a.ndjson"};

	(void)state;
	assert_string_equal(
		bytes(&e, false),
		"\a\033]9;agentview: done · cursor · Composer 2.5 · fix it · 4m05s\a"
		"\033]777;notify;agentview done;done · cursor · Composer 2.5 · fix it · 4m05s\a");
	assert_string_equal(
		bytes(&e, true),
		"\a\033Ptmux;\033\033]9;agentview: done · cursor · Composer 2.5 · fix it · 4m05s\a\033\\"
		"\033Ptmux;\033\033]777;notify;agentview done;done · cursor · Composer 2.5 · fix it · 4m05s\a\033\\");
}

/* Inside tmux ($TMUX set and not empty) the sequences go through its
 * passthrough; elsewhere, as they are. */
static void
test_tmux_env(void **state)
{
	struct notifier n;

	(void)state;
	setenv("TMUX", "/tmp/tmux-0/default,1,0", 1);
	notify_init(&n, true, NULL, -1);
	assert_true(n.tmux);
	setenv("TMUX", "", 1);
	notify_init(&n, true, NULL, -1);
	assert_false(n.tmux);
	unsetenv("TMUX");
	notify_init(&n, true, NULL, -1);
	assert_false(n.tmux);
}

/* Event text cannot end the OSC, start another, ring or move anything:
 * ESC, BEL, C1 (CSI, ST), newlines are shown escaped, ';' is a ','. */
static void
test_hostile(void **state)
{
	struct notify_event e = {"failed",
				 "",
				 "cursor",
				 "failed",
				 "failed · \033]0;owned\a\033\\ \xc2\x9b"
				 "2J;x\ny\r",
				 ""};
	const char *b;

	(void)state;
	b = bytes(&e, false);
	assert_string_equal(
		b, "\a\033]9;agentview: failed · ^[]0,owned^G^[\\ \\u009B2J,x↵y^M\a"
		   "\033]777;notify;agentview failed;failed · ^[]0,owned^G^[\\ \\u009B2J,x↵y^M\a");
	/* Long words are cut, never in the middle of a character. */
	{
		char longs[1601];

		for (int i = 0; i < 400; i++)
			memcpy(longs + 4 * i, "é·", 4);
		longs[1600] = '\0';
		e.summary = longs;
		b = bytes(&e, false);
		assert_true(strlen(b) < 600);
		/* 66 cells of it: 33 "é·". */
		assert_non_null(strstr(b, ";agentview: é·é·"));
		assert_non_null(strstr(b, "é·\a\033]777"));
		assert_null(strstr(
			b, "é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·é·"));
	}
}

/* Whether s[0..n) holds a byte or a character no shown text may: a C0
 * control, DEL, a C1 control (U+0080..U+009F). */
static bool
has_control(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7F ||
		    (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] < 0xA0))
			return true;
	}
	return false;
}

/* The value of variable name= in the NUL-ended assignments v, or "". */
static const char *
var(const struct buf *v, const char *name)
{
	for (size_t at = 0; at < v->n; at += strlen(v->p + at) + 1)
		if (strncmp(v->p + at, name, strlen(name)) == 0)
			return v->p + at + strlen(name);
	return "";
}

/* --notify-cmd's environment: every AGENTVIEW_* value passes the gate of
 * every shown text (one line, no control byte, secrets out while they are
 * hidden) and is bounded; a hostile stream's words cannot reach the
 * command's terminal nor a secret the command. */
static void
test_env(void **state)
{
	static const char *const names[] = {
		"AGENTVIEW_EVENT=", "AGENTVIEW_SESSION=", "AGENTVIEW_AGENT=",
		"AGENTVIEW_STATE=", "AGENTVIEW_SUMMARY=", "AGENTVIEW_FILE="};
	char big[20000];
	struct notify_event e = {"failed",
				 "s\033]0;owned\a sk-proj-Fake0Fake1Fake2Fake3Fake4",
				 "cursor",
				 "failed",
				 "failed \xc2\x9b"
				 "2J · TOKEN=faketoken\nnext\r\tx",
				 "/w/a\nb.ndjson"};
	struct redact *r = redact_new();
	struct buf v = {0};
	size_t at = 0, k = 0;

	(void)state;
	redact_use(r, true);
	notify_vars(&e, &v);
	while (at < v.n) {
		const char *s = v.p + at;
		size_t n = strlen(s);

		assert_true(k < ARRAY_LEN(names));
		assert_memory_equal(s, names[k], strlen(names[k]));
		assert_false(has_control(s, n));
		assert_null(strstr(s, "Fake0"));
		assert_null(strstr(s, "faketoken"));
		at += n + 1;
		k++;
	}
	assert_int_equal(k, ARRAY_LEN(names));
	assert_string_equal(var(&v, "AGENTVIEW_SESSION="), "s^[]0;owned^G [redacted]");
	assert_string_equal(var(&v, "AGENTVIEW_SUMMARY="),
			    "failed \\u009B2J · TOKEN=[redacted]↵next^M       x");
	assert_string_equal(var(&v, "AGENTVIEW_FILE="), "/w/a↵b.ndjson");
	/* Shown, the secrets are told; the control bytes never. */
	redact_toggle();
	buf_reset(&v);
	notify_vars(&e, &v);
	assert_string_equal(var(&v, "AGENTVIEW_SESSION="),
			    "s^[]0;owned^G sk-proj-Fake0Fake1Fake2Fake3Fake4");
	assert_non_null(strstr(var(&v, "AGENTVIEW_SUMMARY="), "TOKEN=faketoken↵next"));
	for (size_t i = 0; i < v.n; i += strlen(v.p + i) + 1)
		assert_false(has_control(v.p + i, strlen(v.p + i)));
	/* A value is bounded: an environment string must stay far below
	 * what execve takes. */
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	e.summary = big;
	buf_reset(&v);
	notify_vars(&e, &v);
	assert_true(strlen(var(&v, "AGENTVIEW_SUMMARY=")) <= 4096);
	assert_true(strlen(var(&v, "AGENTVIEW_SUMMARY=")) > 1000);
	redact_use(NULL, false);
	redact_free(r);
	buf_free(&v);
}

#define INIT "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s1\",\"model\":\"m1\"}\n"
#define USER "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}}\n"
#define ASK \
	"{\"type\":\"interaction_query\",\"subtype\":\"request\",\"query_type\":\"webFetchRequestQuery\",\"query\":{\"id\":1,\"webFetchRequestQuery\":{\"args\":{\"url\":\"https://e.com/\"}}}}\n"
#define ANSWER \
	"{\"type\":\"interaction_query\",\"subtype\":\"response\",\"query_type\":\"webFetchRequestQuery\",\"response\":{\"id\":1,\"webFetchRequestResponse\":{\"result\":{\"approved\":{}}}}}\n"
#define RESULT \
	"{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":1500,\"is_error\":true,\"result\":\"boom\"}\n"

/* What n wrote to the pipe since the last look. */
static const char *
drain(int fd)
{
	static char b[4096];
	ssize_t r = read(fd, b, sizeof b - 1);

	b[r > 0 ? r : 0] = '\0';
	return b;
}

/* A session read live: told when it waits, and when it fails; never
 * while it runs; once each. Outside tmux: the sequences as they are. */
static void
test_model(void **state)
{
	static const char text[] = INIT USER ASK ANSWER RESULT;
	struct fixture *fx = fixture_new(text, sizeof text - 1, FX_UNREAD);
	struct notify_watch w = {0};
	struct notifier n;
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
	unsetenv("TMUX");
	notify_init(&n, true, NULL, p[1]);
	fixture_feed(fx, 2);
	notify_model(&n, &w, fx->m, "run.ndjson");
	assert_string_equal(drain(p[0]), "");
	fixture_feed(fx, 1);
	notify_model(&n, &w, fx->m, "run.ndjson");
	assert_string_equal(drain(p[0]),
			    "\a\033]9;agentview: waiting · cursor · m1\a"
			    "\033]777;notify;agentview waiting;waiting · cursor · m1\a");
	notify_model(&n, &w, fx->m, "run.ndjson");
	assert_string_equal(drain(p[0]), "");
	fixture_feed(fx, 1);
	notify_model(&n, &w, fx->m, "run.ndjson");
	assert_string_equal(drain(p[0]), "");
	fixture_feed(fx, 1);
	notify_model(&n, &w, fx->m, "run.ndjson");
	assert_string_equal(
		drain(p[0]),
		"\a\033]9;agentview: failed · cursor · m1 · 1.5 s: boom\a"
		"\033]777;notify;agentview failed;failed · cursor · m1 · 1.5 s: boom\a");
	assert_int_equal(n.sent, 2);
	notify_watch_free(&w);
	fixture_free(fx);
	close(p[0]);
	close(p[1]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes),   cmocka_unit_test(test_tmux_env),
		cmocka_unit_test(test_hostile), cmocka_unit_test(test_env),
		cmocka_unit_test(test_model),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
