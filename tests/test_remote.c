/* test_remote.c: what a remote source may be (hosts refused before ssh
 * sees them), paths quoted for sh, and the reader of the remote's frames:
 * frames split anywhere, garbage, lengths too large, bodies shorter than
 * they said. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#include "model.h"
#include "remote.h"
#include "store.h"

/* Parse arg; the host, port and path found, as "host|port|path". */
static int
parse(const char *arg, struct buf *out)
{
	struct remote_spec s;
	int r;

	buf_reset(out);
	r = remote_spec_parse(arg, &s, out);
	if (r == 1) {
		buf_addf(out, "%s|%s|%s", s.host, s.port != NULL ? s.port : "", s.path);
		remote_spec_free(&s);
	}
	return r;
}

static void
test_spec(void **state)
{
	struct buf b = {0};

	(void)state;
	assert_int_equal(parse("devbox:", &b), 1);
	assert_string_equal(b.p, "devbox||");
	assert_int_equal(parse("devbox:/var/runs", &b), 1);
	assert_string_equal(b.p, "devbox||/var/runs");
	assert_int_equal(parse("me@ci-1.example.org:runs/a b.ndjson", &b), 1);
	assert_string_equal(b.p, "me@ci-1.example.org||runs/a b.ndjson");
	assert_int_equal(parse("ssh://me@devbox:2222/srv/x", &b), 1);
	assert_string_equal(b.p, "me@devbox|2222|/srv/x");
	assert_int_equal(parse("ssh://devbox/~/runs", &b), 1);
	assert_string_equal(b.p, "devbox||runs");
	assert_int_equal(parse("ssh://devbox", &b), 1);
	assert_string_equal(b.p, "devbox||");
	assert_int_equal(parse("[::1]:/tmp", &b), 1);
	assert_string_equal(b.p, "::1||/tmp");
	assert_int_equal(parse("ssh://me@[fe80::1%eth0]:22/", &b), 1);
	assert_string_equal(b.p, "me@fe80::1%eth0|22|/");
	/* Local: no colon, a slash before it, or an empty host. */
	assert_int_equal(parse("run.ndjson", &b), 0);
	assert_int_equal(parse("./a:b", &b), 0);
	assert_int_equal(parse("dir/a:b", &b), 0);
	assert_int_equal(parse(":x", &b), 0);
	assert_int_equal(parse("-", &b), 0);
	buf_free(&b);
}

/* A file here whose name has a colon is the local file. */
static void
test_spec_local_file(void **state)
{
	struct buf b = {0};
	char dir[] = "/tmp/test_remote.XXXXXX", cwd[4096];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(dir), 0);
	f = fopen("host:file", "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(parse("host:file", &b), 0);
	assert_int_equal(parse("host:other", &b), 1);
	assert_int_equal(unlink("host:file"), 0);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(rmdir(dir), 0);
	buf_free(&b);
}

/* Nothing that could be an option of ssh, or hold a shell's word, is a
 * host; the refusal says why. */
static void
test_host_refused(void **state)
{
	static const char *bad[] = {
		"-oProxyCommand=sh:x",
		"-p2222:x",
		"ho st:x",
		"a;b:x",
		"$(id):x",
		"a`b`:x",
		"a'b:x",
		"a\"b:x",
		"a\\b:x",
		"a\tb:x",
		"a\nb:x",
		"a|b:x",
		"ssh://-oX=y/tmp",
		"ssh://a b/",
		"ssh://h:0/",
		"ssh://h:65536/",
		"ssh://h:2x/",
		"ssh://:22/",
		"ssh:///x",
	};
	struct buf b = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		if (parse(bad[i], &b) != -1)
			fail_msg("%s was taken: %s", bad[i], b.p);
		assert_true(b.n > 0);
	}
	assert_int_equal(parse("-oProxyCommand=sh:x", &b), -1);
	assert_non_null(strstr(b.p, "starts with '-'"));
	assert_false(remote_host_ok(""));
	assert_false(remote_host_ok("-x"));
	assert_false(remote_host_ok("a,b"));
	assert_false(remote_host_ok("é"));
	assert_true(remote_host_ok("user@host-1.example"));
	assert_true(remote_host_ok("[::1]"));
	buf_free(&b);
}

static void
test_quote(void **state)
{
	struct buf b = {0};

	(void)state;
	remote_quote(&b, "it's $(rm -rf ~) `x` \"y\"\n-z");
	assert_string_equal(b.p, "'it'\\''s $(rm -rf ~) `x` \"y\"\n-z'");
	buf_reset(&b);
	remote_quote(&b, "");
	assert_string_equal(b.p, "''");
	buf_free(&b);
}

/* A name a remote sends is one part of a path here, or refused. */
static void
test_name(void **state)
{
	char long_name[300];

	(void)state;
	assert_true(remote_name_ok("run.ndjson", 10));
	assert_true(remote_name_ok("-a b'$(x).ndjson", 16));
	assert_false(remote_name_ok("", 0));
	assert_false(remote_name_ok(".", 1));
	assert_false(remote_name_ok("..", 2));
	assert_false(remote_name_ok(".replace", 8));
	assert_false(remote_name_ok("../x.ndjson", 11));
	assert_false(remote_name_ok("a/b", 3));
	assert_false(remote_name_ok("a\0b", 3));
	/* A newline would be two lines of the asks for files (remote_head,
	 * remote_whole), the second one of the remote's making. */
	assert_false(remote_name_ok("a\nb.ndjson", 10));
	memset(long_name, 'a', sizeof long_name);
	assert_false(remote_name_ok(long_name, sizeof long_name));
	assert_true(remote_name_ok(long_name, 255));
}

/* The program sets the names and offsets as quoted data. */
static void
test_script(void **state)
{
	char n1[] = "a b.ndjson", n2[] = "-$(x)'.jsonl", i1[] = "12";
	char *names[] = {n1, n2};
	char *ino[] = {i1, NULL};
	uint64_t off[] = {100, 0};
	struct buf b = {0};

	(void)state;
	remote_script(&b, "/srv/it's", names, 2, off, ino, NULL, false, false);
	assert_non_null(strstr(b.p, "p='/srv/it'\\''s'\n"));
	assert_non_null(strstr(b.p, "set -- 'a b.ndjson' '-$(x)'\\''.jsonl'\n"));
	assert_non_null(strstr(b.p, "o1=100 n1='12'\no2=0 n2=''\n"));
	/* A file's time before its bytes: the round's S before its first
	 * look's F and its loop of F; a batch's S before its heads (B). */
	{
		const char *t = strstr(b.p, "printf 'S %d %s\\n' $i"),
			   *head = strstr(b.p, "printf 'F %d 0 %d\\n' $i $hd"),
			   *tail = strstr(b.p, "printf 'F %d %d %d\\n' $i $o $c"),
			   *bt = strstr(b.p, "printf 'S %d %s\\n' $bj"),
			   *bh = strstr(b.p, "printf 'B %d\\n'");

		assert_non_null(t);
		assert_non_null(head);
		assert_non_null(tail);
		assert_non_null(bt);
		assert_non_null(bh);
		assert_true(t < head && head < tail && bt < bh);
		assert_null(strstr(t + 1, "printf 'S %d %s\\n' $i"));
	}
	assert_non_null(strstr(b.p, "hd= tl= bt= hz=131073\n"));
	assert_null(strstr(b.p, "bt=1\n"));
	assert_null(strstr(b.p, "h1="));
	buf_free(&b);
	/* Heads and tails: the first 16 KiB of a head (the rest when the
	 * list asks) and as much of a tail as the list reads, for files of
	 * more than the list's head and tail; a hole to send. */
	uint64_t fill[] = {65536, 800000, 0, 0};
	remote_script(&b, "/srv", names, 2, off, ino, fill, true, true);
	assert_non_null(strstr(b.p, "hd=16384 tl=65537\nbt=1\n"));
	assert_non_null(strstr(b.p, "o1=100 n1='12'\nh1=65536 e1=800000\no2=0 n2=''\n"));
	assert_null(strstr(b.p, "h2="));
	buf_free(&b);
}

/* The remote's own sessions: every store's root as store.c finds it,
 * by the remote's own environment, and every pattern of its table in
 * the program (a store added there is looked for there too). */
static void
test_script_stores(void **state)
{
	struct buf b = {0}, want = {0};

	(void)state;
	remote_script(&b, "", NULL, 0, NULL, NULL, NULL, false, false);
	assert_non_null(
		strstr(b.p, "if [ -n \"${CLAUDE_CONFIG_DIR:-}\" ]; then r1=$CLAUDE_CONFIG_DIR''; "
			    "else r1=${HOME:+\"$HOME\"/'.claude'}; fi\n"));
	assert_non_null(strstr(b.p, "r3=$GEMINI_CLI_HOME'/.gemini'"));
	assert_non_null(strstr(b.p, " r5=${HOME:+\"$HOME\"/'.cursor'}\n"));
	assert_non_null(strstr(b.p, "case $rel in *'\n'* | projects/*/agent-*.jsonl) continue"));
	/* The files that name the pids of the stores' processes, listed with
	 * the sessions, and the pids /proc has there sent (L). */
	assert_non_null(strstr(b.p, "for f in \"$r1\"/sessions/[0-9]*.json; do\n"));
	assert_non_null(strstr(b.p, "for f in \"$r4\"/session-state/*/inuse.[0-9]*.lock; do\n"));
	assert_non_null(strstr(b.p, "for f in \"$r3\"/tmp/*/.project_root; do\n"));
	assert_non_null(strstr(b.p, "printf 'L %d\\n%s\\n'"));
	/* The processes it looks at: store.c's names that count, each
	 * judged by store.c's CLIs in their order (one table for both). */
	{
		const char *name, *pkg, *at = b.p;
		enum store_source src;
		bool node = false;

		buf_reset(&want);
		buf_adds(&want, "  case $cm in");
		for (size_t i = 0; (name = store_proc_name(i)) != NULL; i++) {
			buf_addf(&want, "%s %s", i == 0 ? "" : " |", name);
			node = node || strcmp(name, "node") == 0;
		}
		buf_adds(&want, ") ;; *) continue ;; esac\n");
		assert_non_null(strstr(b.p, want.p));
		assert_true(node);
		for (size_t i = 0; store_cli(i, &src, &name, &pkg); i++) {
			buf_reset(&want);
			buf_addf(&want, "%s ru '%s' '%s'; then\n", i == 0 ? "if" : "elif", name,
				 pkg);
			assert_non_null(at = strstr(at, want.p));
		}
	}
	for (int s = 0; s < SRC_KEPT; s++) {
		const char *pat = store_patterns((enum store_source)s);

		for (const char *l = pat; *l != '\0';) {
			size_t n = strcspn(l, "\n");

			buf_reset(&want);
			if (l[0] == '!')
				buf_addf(&want, " | %.*s", (int)n - 1, l + 1);
			else
				buf_addf(&want, "\"$r%d\"/%.*s", s + 1, (int)n, l);
			/* A database (Cursor's chat stores) is not mirrored: its
			 * head and tail are not a database. */
			if (n > 3 && memcmp(l + n - 3, ".db", 3) == 0)
				assert_null(strstr(b.p, want.p));
			else
				assert_non_null(strstr(b.p, want.p));
			l += n + (l[n] == '\n');
		}
		buf_reset(&want);
		buf_addf(&want, "   %s/*) q=$r%d/${f#*/} ;;\n",
			 store_source_name((enum store_source)s), s + 1);
		assert_non_null(strstr(b.p, want.p));
	}
	buf_free(&b);
	buf_free(&want);
}

/* A name of the remote's own sessions: a source, then parts as a
 * folder's names; never out of the mirror. */
static void
test_store_name(void **state)
{
	(void)state;
#define OK(s) remote_store_name_ok(s, strlen(s))
	assert_true(OK("claude/projects/-w/a.jsonl"));
	assert_true(OK("kept/x.ndjson"));
	assert_true(OK("codex/sessions/2026/11/27/rollout-x.jsonl"));
	assert_false(OK("claude"));
	assert_false(OK("claude/"));
	assert_false(OK("nobody/x.jsonl"));
	assert_false(OK("/claude/x.jsonl"));
	assert_false(OK("claude/../x.jsonl"));
	assert_false(OK("claude/projects/../../x"));
	assert_false(OK("claude/.hidden/x.jsonl"));
	assert_false(OK("claude//x.jsonl"));
	assert_false(OK("claude/a/b/c/d/e/f/g/h.jsonl"));
	assert_true(OK("claude/a/b/c/d/e/f/g.jsonl"));
	assert_false(remote_store_name_ok("kept/a\0b", 8));
	/* A store's file its liveness reads beside its sessions (Gemini's
	 * project root) may start with a dot: that one name, where its glob
	 * says, never another dot name, "." or "..". */
	assert_true(OK("gemini/tmp/work/.project_root"));
	assert_false(OK("gemini/tmp/.project_root"));
	assert_false(OK("gemini/tmp/../.project_root"));
	assert_false(OK("gemini/tmp/./.project_root"));
	assert_false(OK("gemini/tmp/.w/.project_root"));
	assert_false(OK("gemini/tmp/work/.project_rooty"));
	assert_false(OK("gemini/tmp/work/chats/.project_root"));
	assert_false(OK("claude/tmp/work/.project_root"));
	assert_false(OK("gemini/tmp/work/.."));
	/* (its other parts as any name's: none empty, none a line more, none
	 * longer than a name may be) */
	assert_false(OK("kept/a\nh /x.ndjson"));
	assert_false(OK("gemini/tmp//.project_root"));
	assert_false(OK("gemini/tmp/a\nb/.project_root"));
	{
		char n[300] = "gemini/tmp/";

		memset(n + 11, 'a', 270);
		strcpy(n + 281, "/.project_root");
		assert_false(OK(n));
	}
#undef OK
}

/* Feed text whole, and again one byte at a time: the same frames. */
static void
frames(const char *text, size_t n, struct buf *out)
{
	for (int pass = 0; pass < 2; pass++) {
		struct rparser p;
		struct rframe f;
		int r = 0;

		rparser_init(&p);
		buf_reset(out);
		for (size_t i = 0; i < n; i += pass == 0 ? n : 1) {
			rparser_feed(&p, text + i, pass == 0 ? n : 1);
			while ((r = rparser_next(&p, &f)) == 1) {
				buf_addf(out, "%c", f.type);
				if (f.type == RF_MODE)
					buf_addf(out, "%c", f.mode);
				if (f.idx != 0)
					buf_addf(out, "%u", f.idx);
				if (f.type == RF_BYTES || f.type == RF_MTIME ||
				    f.type == RF_CLOCK || f.type == RF_BATCH ||
				    f.type == RF_BATCH_END)
					buf_addf(out, "@%llu", (unsigned long long)f.off);
				if (f.type == RF_BATCH)
					buf_addf(out, "/%llu", (unsigned long long)f.to);
				if (f.type == RF_HOLE)
					buf_addf(out, "@%llu-%llu", (unsigned long long)f.off,
						 (unsigned long long)f.to);
				if (f.type == RF_INODE)
					buf_addf(out, "#%llu", (unsigned long long)f.ino);
				if (f.data != NULL) {
					buf_addc(out, '[');
					buf_add(out, f.data, f.len);
					buf_addc(out, ']');
				}
				buf_addc(out, ' ');
			}
			if (r < 0)
				break;
		}
		if (r < 0)
			buf_addf(out, "! %s", p.why);
		rparser_free(&p);
	}
}

#define FRAMES(lit, out) frames(lit, sizeof(lit) - 1, out)

static void
test_frames(void **state)
{
	struct buf b = {0};

	(void)state;
	FRAMES("H agentview-remote 1\nM d\nD 6\na\nb c\n\nF 2 10 5\nF 1 \n\nT 3\nG 1\nK\n", &b);
	assert_string_equal(b.p, "H Md D[a\nb c\n] F2@10[F 1 \n] T3 G1 K ");
	/* A body that holds frames' text is only bytes. */
	FRAMES("F 1 0 10\nK\nE 3\nabc\n\nK\n", &b);
	assert_string_equal(b.p, "F1@0[K\nE 3\nabc\n] K ");
	FRAMES("M s\nM f\n", &b);
	assert_string_equal(b.p, "Ms Mf ");
	FRAMES("S 2 1767225600\nN 1 123\n", &b);
	assert_string_equal(b.p, "S2@1767225600 N1#123 ");
	FRAMES("S 2 99999999999999999\n", &b);
	assert_string_equal(b.p, "! a file number or time out of range");
	/* The remote's clock. */
	FRAMES("H agentview-remote 1\nU 1767225600\nK\n", &b);
	assert_string_equal(b.p, "H U@1767225600 K ");
	FRAMES("U 99999999999999999\n", &b);
	assert_string_equal(b.p, "! a clock out of range");
	FRAMES("U -5\n", &b);
	assert_string_equal(b.p, "! a clock out of range");
	FRAMES("U 5 6\n", &b);
	assert_string_equal(b.p, "! a header with more than it should have");
	FRAMES("E 4\nfail\n", &b);
	assert_string_equal(b.p, "E[fail] ");
	/* The remote's live processes. */
	FRAMES("L 13\n123 4567\n9 8\n\n", &b);
	assert_string_equal(b.p, "L[123 4567\n9 8\n] ");
	/* Bytes left out: from, to. */
	FRAMES("P 2 65536 900000\n", &b);
	assert_string_equal(b.p, "P2@65536-900000 ");
	FRAMES("P 2 900000 65536\n", &b);
	assert_string_equal(b.p, "! a file number or range out of range");
	FRAMES("P 0 1 2\n", &b);
	assert_string_equal(b.p, "! a file number or range out of range");
	FRAMES("P 1 2\n", &b);
	assert_string_equal(b.p, "! a file number or range out of range");
	/* A batch: its files, their heads and tails, its end. */
	FRAMES("A 3 200000 12\nB 2\nab\nC 1\nc\nY 1\nY 0\n", &b);
	assert_string_equal(b.p, "A3@200000/12 B[ab] C[c] Y@1 Y@0 ");
	FRAMES("Y 2\n", &b);
	assert_string_equal(b.p, "! a batch's end neither 0 nor 1");
	FRAMES("A 3 200000 0\n", &b);
	assert_string_equal(b.p, "! a file number, size or name length out of range");
	FRAMES("A 3 200000 4097\n", &b);
	assert_string_equal(b.p, "! a file number, size or name length out of range");
	/* A batch of small files: their bytes whole, one after the other. */
	FRAMES("A 1 2 5\nA 2 3 5\nW 5\nxyabc\nY 1\n", &b);
	assert_string_equal(b.p, "A1@2/5 A2@3/5 W[xyabc] Y@1 ");
	FRAMES("W 4\nxyabc\n", &b);
	assert_string_equal(b.p, "! a frame's bytes not as long as it said");
	buf_free(&b);
}

/* A remote's clock against this one: how far apart, in whole seconds,
 * and its files' times read by this clock; under 2 s apart is the time
 * the frame took, not a clock that is wrong. */
static void
test_skew(void **state)
{
	const int64_t now = 1767225600123; /* ms */

	(void)state;
	assert_int_equal(remote_skew(now, 1767225600), 0);
	assert_int_equal(remote_skew(now, 1767225599), 0);
	assert_int_equal(remote_skew(now, 1767225602), 0);
	/* An hour ahead there: its times an hour back here. */
	assert_int_equal(remote_skew(now, 1767225600 + 3600), -3600);
	assert_int_equal(remote_skew(now, 1767225600 - 90), 90);
	assert_int_equal(remote_skew(now, 1767225597), 3);
	assert_int_equal(remote_time(1767225000 + 3600, -3600), 1767225000);
	assert_int_equal(remote_time(1767225000, 0), 1767225000);
	/* Clocks a lie cannot make wrap: never before 1970, never past the
	 * most a frame may say. */
	assert_int_equal(remote_skew(now, (uint64_t)INT64_MAX), 0);
	assert_int_equal(remote_skew(-1, 5), 0);
	assert_int_equal(remote_time(100, -3600), 0);
	assert_int_equal(remote_time((uint64_t)INT64_MAX / 1000, 3600), INT64_MAX / 1000);
	assert_int_equal(remote_time(UINT64_MAX, 0), INT64_MAX / 1000);
	/* (a remote that says the end of time: every time of its is 1970) */
	assert_int_equal(remote_time(1767225600, remote_skew(now, (uint64_t)INT64_MAX / 1000)), 0);
}

/* A remote's processes after its connection dropped: trusted for
 * REMOTE_GRACE_MS (a reconnect within it goes unseen), then not, until a
 * new connection says them again (the mirror's .down removed). */
static void
test_grace(void **state)
{
	const int64_t drop = 1767225600123; /* ms */

	(void)state;
	assert_true(remote_procs_fresh(INT64_MIN, drop));
	assert_true(remote_procs_fresh(drop, drop));
	assert_true(remote_procs_fresh(drop, drop + REMOTE_GRACE_MS - 1));
	assert_false(remote_procs_fresh(drop, drop + REMOTE_GRACE_MS));
	assert_false(remote_procs_fresh(drop, drop + 3600 * 1000));
	/* A clock set back since the drop: trusted until it passes it. */
	assert_true(remote_procs_fresh(drop, drop - 60 * 1000));
	/* A time that is none (a .down not as written): long ago, and no
	 * difference that could wrap. */
	assert_false(remote_procs_fresh(0, drop));
	assert_false(remote_procs_fresh(-5, INT64_MAX));
	assert_false(remote_procs_fresh(drop, -1));
}

/* A batch's body is split by the lengths said, never by its text: a
 * name that holds head's header, bytes that hold one for another file. */
static void
test_split(void **state)
{
	static const char body[] = "==> /d/x <== ==> /d/y <==\n"
				   "\n==> /d/y <==\nAB"
				   "\n==> /d/y <==\n"
				   "0123456789abcdef";
	const char *at[2];
	uint64_t names[] = {sizeof "/d/x <== ==> /d/y" - 1, 4};
	size_t len = sizeof body - 1;

	(void)state;
	assert_true(remote_split(body, len, names, 2, 16, at));
	assert_ptr_equal(at[0], body + 26);
	assert_memory_equal(at[0], "\n==> /d/y <==\nAB", 16);
	assert_memory_equal(at[1], "0123456789abcdef", 16);
	/* The name's length as the header's text would have it: refused. */
	names[0] = 4;
	assert_false(remote_split(body, len, names, 2, 16, at));
	names[0] = sizeof "/d/x <== ==> /d/y" - 1;
	/* A file short (head could not open it, or it shrank), bytes more
	 * than said, no separator: refused. */
	assert_false(remote_split(body, len - 1, names, 2, 16, at));
	assert_false(remote_split(body, len, names, 2, 15, at));
	assert_false(remote_split(body, len, names, 1, 16, at));
	assert_false(remote_split("==> a <==\nxy==> b <==\nzw", 24, (uint64_t[]){1, 1}, 2, 2, at));
	assert_true(remote_split("==> a <==\nxy\n==> b <==\nzw", 25, (uint64_t[]){1, 1}, 2, 2, at));
	assert_true(remote_split("", 0, names, 0, 16, at));
	/* One file: its bytes alone, as head and tail print them. */
	assert_true(remote_split("xy", 2, (uint64_t[]){1}, 1, 2, at));
	assert_memory_equal(at[0], "xy", 2);
	assert_false(remote_split("xyz", 3, (uint64_t[]){1}, 1, 2, at));
	assert_false(remote_split("==> a <==\nxy", 12, (uint64_t[]){1}, 1, 12, at));
}

/* A batch of small files is split by the sizes said: they add up to
 * its bytes, none bigger than a small file may be. */
static void
test_split_whole(void **state)
{
	const char *at[3];

	(void)state;
	assert_true(remote_split_whole("abcdef", 6, (uint64_t[]){1, 2, 3}, 3, 3, at));
	assert_memory_equal(at[0], "a", 1);
	assert_memory_equal(at[1], "bc", 2);
	assert_memory_equal(at[2], "def", 3);
	/* Short, long, one too big for a small file, one past the end. */
	assert_false(remote_split_whole("abcde", 5, (uint64_t[]){1, 2, 3}, 3, 3, at));
	assert_false(remote_split_whole("abcdefg", 7, (uint64_t[]){1, 2, 3}, 3, 3, at));
	assert_false(remote_split_whole("abcdef", 6, (uint64_t[]){1, 1, 4}, 3, 3, at));
	assert_false(remote_split_whole("abcdef", 6, (uint64_t[]){5, UINT64_MAX - 3, 5}, 3,
					UINT64_MAX, at));
	assert_true(remote_split_whole("", 0, NULL, 0, 3, at));
	assert_false(remote_split_whole("a", 1, NULL, 0, 3, at));
}

static void
test_frames_refused(void **state)
{
	struct buf b = {0};

	(void)state;
	FRAMES("M x\n", &b);
	assert_string_equal(b.p, "! an unknown mode");
	FRAMES("K\nhello\n", &b);
	assert_string_equal(b.p, "K ! an unknown frame");
	FRAMES("H other-program\n", &b);
	assert_string_equal(b.p, "! not agentview's remote program");
	FRAMES("F 1 0 99999999999\n", &b);
	assert_string_equal(b.p, "! a length out of range");
	FRAMES("F 1 0 4194305\n", &b);
	assert_string_equal(b.p, "! a length out of range");
	FRAMES("D 18446744073709551616\n", &b);
	assert_string_equal(b.p, "! a length out of range");
	FRAMES("F 0 0 1\nx\n", &b);
	assert_string_equal(b.p, "! a file number or offset out of range");
	FRAMES("F 1 9223372036854775807 2\nxy\n", &b);
	assert_string_equal(b.p, "! an offset out of range");
	FRAMES("T 100001\n", &b);
	assert_string_equal(b.p, "! a file number out of range");
	FRAMES("F 1 -1 2\nxy\n", &b);
	assert_string_equal(b.p, "! a file number or offset out of range");
	FRAMES("F 1 0 2 \nxy\n", &b);
	assert_string_equal(b.p, "! a header with more than it should have");
	FRAMES("K \n", &b);
	assert_string_equal(b.p, "! a header with more than it should have");
	/* A body shorter than it said: the next header is not taken as bytes. */
	FRAMES("F 1 0 5\nab\nK\nK\n", &b);
	assert_string_equal(b.p, "! a frame's bytes not as long as it said");
	FRAMES("K\0\n", &b);
	assert_string_equal(b.p, "! a NUL in a header");
	/* A header that never ends is refused once it is too long. */
	FRAMES("F 1 0 1111111111111111111111111111111111111111111111111111111111111111111", &b);
	assert_string_equal(b.p, "! a header line too long");
	/* A frame not all there yet is waited for. */
	FRAMES("K\nF 1 0 10\nabc", &b);
	assert_string_equal(b.p, "K ");
	buf_free(&b);
}

/* The body of an L frame: its records read by their lengths, never by
 * where a '\n' is in a path; one that lies is refused whole. */
static void
test_procs(void **state)
{
	struct remote_procs p = {0};
	/* A path with a newline and what looks like a record in it. */
	static const char good[] = "r 10\n/h/.co\ndex\n"
				   "123 456\n"
				   "c 77 88 6 12\n/x\n9 9/home/u\n1 2\n\n"
				   "c 78 89\n"
				   /* gemini ones: a cwd with a newline, one unreadable */
				   "g 90 91 6\n/w\ng 1\n"
				   "g 92 93\n"
				   "u 94 95 3\n/cw\n";

	(void)state;
	assert_true(remote_procs_parse(good, sizeof good - 1, &p));
	assert_false(p.noproc);
	assert_string_equal(p.codex_root, "/h/.co\ndex");
	assert_int_equal(p.n, 6);
	assert_int_equal(p.v[0].pid, 123);
	assert_int_equal(p.v[0].start, 456);
	assert_int_equal(p.v[0].codex, 0);
	assert_int_equal(p.v[1].pid, 77);
	assert_int_equal(p.v[1].codex, 'e');
	assert_int_equal(p.v[1].ntext, 36);
	assert_memory_equal(p.text.p + p.v[1].text, "CODEX_HOME=/x\n9 9\0HOME=/home/u\n1 2\n\0",
			    36);
	assert_int_equal(p.v[2].codex, '?');
	assert_int_equal(p.v[2].gemini, 0);
	assert_int_equal(p.v[3].pid, 90);
	assert_int_equal(p.v[3].start, 91);
	assert_int_equal(p.v[3].codex, 0);
	assert_int_equal(p.v[3].gemini, 'w');
	assert_int_equal(p.v[3].ntext, 6);
	assert_memory_equal(p.text.p + p.v[3].text, "/w\ng 1", 6);
	assert_int_equal(p.v[4].pid, 92);
	assert_int_equal(p.v[4].gemini, '?');
	assert_int_equal(p.v[5].pid, 94);
	assert_int_equal(p.v[5].gemini, 0);
	assert_int_equal(p.v[5].cursor, 'w');
	assert_memory_equal(p.text.p + p.v[5].text, "/cw", 3);
	assert_true(remote_procs_parse("-\n", 2, &p));
	assert_true(p.noproc);
	assert_int_equal(p.n, 0);
	assert_true(remote_procs_parse("", 0, &p));
	assert_false(p.noproc);
	/* Codex's root there not read (longer than a frame's path may be):
	 * "r" alone, its processes as those whose environment is not. */
	assert_true(remote_procs_parse("r\n5 6\n", 6, &p));
	assert_null(p.codex_root);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.v[0].pid, 5);
	/* Lengths past the end, or too large; a path with a NUL; numbers
	 * out of range; a record unknown, or cut short. */
	static const char *const bad[] = {
		"r 999\nab\n",
		"r 2\nab",
		"r 2\nabc\n",
		"r 1\n\0\n",
		"r 18446744073709551616\n",
		"r 1\n/\nr 1\n/\n",
		"r\nr 1\n/\n",
		"r\nr\n",
		"r 4097\n",
		"r \n",
		"c 7 1 2 0\na\0\n",
		"c 7 1 5000 0\n",
		"c 7 1 18446744073709551615 1\nab\n",
		"c 7 1 1\nab\n",
		"c 7\n",
		"g 7 1 3\nab\n",
		"g 7 1 3\nab",
		"g 7 1 1\nab\n",
		"g 7 1 5000\n",
		"g 7 1 2\na\0\n",
		"g 7 1 0 0\n\n",
		"g 7\n",
		"u 7 1 4\nab\n",
		"0 1\n",
		"1073741824 1\n",
		"12 18446744073709551616\n",
		"12 -1\n",
		"12  1\n",
		"12 1 \n",
		"12 1",
		"x\n",
		"--\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		size_t n = strlen(bad[i]);

		if (i == 3 || i == 10 || i == 19)
			n += (i == 19 ? 2 : 4); /* the NUL and what follows it */
		assert_true(remote_procs_parse("5 6\n", 4, &p));
		if (remote_procs_parse(bad[i], n, &p))
			fail_msg("taken: case %zu", i);
		assert_int_equal(p.n, 0);
		assert_null(p.codex_root);
	}
	remote_procs_free(&p);
}

/* A row with every field set, and its text back. */
static void
test_rows(void **state)
{
	struct fleet_row r = {0}, r2 = {0};
	struct remote_rows p = {0};
	struct buf b = {0}, bad = {0};
	size_t head;

	(void)state;
	r.index = 0;
	r.offset = 12;
	r.state = FS_RUNNING;
	r.agent = 1;
	r.flags = FR_GAP;
	r.tail = FT_TOOLS;
	r.ok = 3;
	r.failed = 1;
	r.running = 1;
	r.asks[0] = 0xffffffffffffffffull;
	r.start_ms = 1000;
	r.last_ms = 2000;
	r.duration_ms = TIME_NONE;
	r.tokens_in = 32000;
	r.tokens_out = -1;
	r.cost_usd = 0.0215;
	r.ncalls = 1;
	r.calls[0].key = 7;
	r.calls[0].start_ms = -5;
	strcpy(r.calls[0].what, "Shell `npm test`");
	strcpy(r.id, "17e650d2");
	strcpy(r.model, "Composer 2.5");
	strcpy(r.cwd, "/srv/it's here");
	strcpy(r.prompt, "fix the bug");
	r2 = r;
	r2.index = 1;
	r2.state = FS_DONE;
	r2.ncalls = 0;
	remote_rows_begin(&b);
	head = b.n;
	remote_rows_add(&b, "a b.ndjson", 1795824711102, &r);
	remote_rows_add(&b, "a b.ndjson", 1795824711102, &r2);
	remote_rows_add(&b, "c.jsonl", 5, &r);
	remote_rows_end(&b, 3);
	assert_true(remote_rows_parse(b.p, b.n, &p));
	assert_int_equal(p.n, 3);
	assert_int_equal(p.nfiles, 2);
	assert_string_equal(p.names.p + p.v[0].name, "a b.ndjson");
	assert_string_equal(p.names.p + p.v[2].name, "c.jsonl");
	assert_int_equal(p.v[1].r.file, 0);
	assert_int_equal(p.v[2].r.file, 1);
	assert_int_equal(p.v[0].mtime_ms, 1795824711102);
	assert_int_equal(p.v[0].r.offset, 12);
	assert_int_equal(p.v[0].r.state, FS_RUNNING);
	assert_int_equal(p.v[0].r.asks[0], 0xffffffffffffffffull);
	assert_true(p.v[0].r.duration_ms == TIME_NONE);
	assert_int_equal(p.v[0].r.tokens_out, -1);
	assert_int_equal(p.v[0].r.calls[0].start_ms, -5);
	assert_string_equal(p.v[0].r.calls[0].what, "Shell `npm test`");
	assert_string_equal(p.v[0].r.cwd, "/srv/it's here");
	assert_true(p.v[0].r.cost_usd > 0.02149999 && p.v[0].r.cost_usd < 0.02150001);
	assert_int_equal(p.v[1].r.index, 1);
	assert_int_equal(p.v[1].r.ncalls, 0);
	remote_rows_free(&p);

	/* The rows of a remote whose clock is 2 h behind, by this clock: each
	 * file's time 2 h on, nothing else moved (its times in the stream are
	 * the stream's); one before 1970 by this clock is 1970. */
	{
		struct buf moved = {0}, again = {0};

		assert_true(remote_rows_shift(b.p, b.n, 7200, &moved));
		assert_true(remote_rows_parse(moved.p, moved.n, &p));
		assert_int_equal(p.n, 3);
		assert_int_equal(p.v[0].mtime_ms, 1795824711102 + 7200000);
		assert_int_equal(p.v[1].mtime_ms, 1795824711102 + 7200000);
		assert_int_equal(p.v[2].mtime_ms, 5 + 7200000);
		assert_int_equal(p.v[0].r.start_ms, 1000);
		assert_int_equal(p.v[0].r.calls[0].start_ms, -5);
		assert_true(remote_rows_shift(moved.p, moved.n, -7200, &again));
		assert_int_equal(again.n, b.n);
		assert_memory_equal(again.p, b.p, b.n);
		buf_reset(&moved);
		assert_true(remote_rows_shift(b.p, b.n, -7200, &moved));
		assert_true(remote_rows_parse(moved.p, moved.n, &p));
		assert_int_equal(p.v[2].mtime_ms, 0);
		assert_false(remote_rows_shift(b.p, b.n - 1, 0, &moved));
		remote_rows_free(&p);
		buf_free(&moved);
		buf_free(&again);
	}

	/* Each of these breaks one rule: nothing is read. */
	static const char *const refused[] = {
		"agentview-rows 2 x\n. 0\n", /* another wire */
		"5:x.ndjson 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n. 1\n", /* no first line */
		"5:.x.nd 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n. 1\n", /* hidden */
		"5:a/b.n 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n. 1\n", /* a path */
		"5:a.nnn 0 1 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n. 1\n", /* from 1 */
		"5:a.nnn 0 0 0 9 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n. 1\n", /* a state */
		"5:a.nnn 0 0 0 0 99 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n. 1\n", /* an agent */
		"5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 4 0: 0: 0: 0: 0:\n. 1\n", /* calls */
		"5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 2:\x1b[\n. 1\n", /* ESC */
		"5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n. 2\n", /* count */
		"5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n", /* no end */
		"5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0: \n. 1\n", /* more */
		"5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 9:abc 0: 0: 0: 0:\n. 1\n", /* short */
		"5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - -1 0 0: 0: 0: 0: 0:\n. 1\n", /* -1 */
		"5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n"
		"5:b.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n"
		"5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n. 3\n", /* twice */
		"5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n"
		"5:a.nnn 0 2 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n. 2\n", /* a gap */
		"5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 41:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		" 0: 0: 0: 0:\n. 1\n", /* an id longer than a row holds */
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		buf_reset(&bad);
		if (i > 0)
			buf_add(&bad, b.p, head);
		buf_adds(&bad, refused[i]);
		if (remote_rows_parse(bad.p, bad.n, &p))
			fail_msg("taken: case %zu", i);
		assert_int_equal(p.n, 0);
	}
	/* The same row laid out right is read (the cases above differ by
	 * their one fault). */
	buf_reset(&bad);
	buf_add(&bad, b.p, head);
	buf_adds(&bad, "5:a.nnn 0 0 0 0 0 0 0 0 0 0 0 0 0 - - - - - - 0 0: 0: 0: 0: 0:\n. 1\n");
	assert_true(remote_rows_parse(bad.p, bad.n, &p));
	remote_rows_free(&p);
	/* A row whose text holds a control byte is not written (its file's
	 * rows come by the sh path). */
	assert_true(remote_row_ok(&r));
	r.prompt[3] = '\033';
	assert_false(remote_row_ok(&r));
	r.prompt[3] = 'x';
	r.calls[0].what[0] = '\n';
	assert_false(remote_row_ok(&r));
	/* A frame of rows, as any frame with a body. */
	{
		struct rparser rp;
		struct rframe f;

		rparser_init(&rp);
		buf_reset(&bad);
		buf_addf(&bad, "R %zu\n", b.n);
		buf_add(&bad, b.p, b.n);
		buf_addc(&bad, '\n');
		rparser_feed(&rp, bad.p, bad.n);
		assert_int_equal(rparser_next(&rp, &f), 1);
		assert_int_equal(f.type, RF_ROWS);
		assert_int_equal(f.len, b.n);
		assert_memory_equal(f.data, b.p, b.n);
		rparser_free(&rp);
	}
	buf_free(&b);
	buf_free(&bad);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec),           cmocka_unit_test(test_spec_local_file),
		cmocka_unit_test(test_host_refused),   cmocka_unit_test(test_quote),
		cmocka_unit_test(test_script),         cmocka_unit_test(test_frames),
		cmocka_unit_test(test_frames_refused), cmocka_unit_test(test_name),
		cmocka_unit_test(test_script_stores),  cmocka_unit_test(test_store_name),
		cmocka_unit_test(test_split),          cmocka_unit_test(test_split_whole),
		cmocka_unit_test(test_skew),           cmocka_unit_test(test_grace),
		cmocka_unit_test(test_procs),          cmocka_unit_test(test_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
