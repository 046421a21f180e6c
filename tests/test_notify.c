/* test_notify.c: what a notification writes to the terminal (the bell,
 * OSC 9 and 777, tmux's passthrough), that no event text gets through as
 * a control character, and which changes of a model's sessions are told.
 * (--notify-cmd runs in the background: tests/run_fleet.sh tests it.) */
#include <fcntl.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "notify.h"

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
 * while it runs; once each. */
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
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_model),
	};

	setlocale(LC_ALL, "C.UTF-8");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
