/* fuzz_remote.c: libFuzzer harness for what a remote sends (remote.h):
 * the frames of its program's output (rparser) and the body of its list
 * of processes (remote_procs_parse), on arbitrary bytes, as a hostile
 * remote would send them. Beyond "no crash, no leak, no undefined
 * behaviour" it checks that the frames are the same whether the bytes
 * come at once or a byte at a time, that a frame's bytes lie within what
 * was sent, and that a list of processes read is as remote.h lays it out
 * (or read as nothing). */
#include "fuzz.h"
#include "remote.h"

/* The frames of data[0..n) fed in pieces of step bytes (0: at once),
 * each one's fields and bytes appended to out; its last word (1 more to
 * come, -1 broken, 0 wants more) as a letter. */
static void
frames(const uint8_t *data, size_t n, size_t step, struct buf *out)
{
	struct rparser p;
	struct rframe f;
	size_t at = 0;
	int k = 0;

	rparser_init(&p);
	do {
		size_t take = step == 0 ? n - at : MIN(step, n - at);

		rparser_feed(&p, data + at, take);
		at += take;
		while ((k = rparser_next(&p, &f)) == 1) {
			if (f.data != NULL)
				CHECK(f.data >= p.in.p && f.data + f.len <= p.in.p + p.in.n);
			buf_addf(out, "%c%c %u %llu %llu %llu %zu:", f.type, f.mode ? f.mode : '-',
				 (unsigned)f.idx, (unsigned long long)f.off,
				 (unsigned long long)f.to, (unsigned long long)f.ino,
				 f.data != NULL ? f.len : 0);
			if (f.data != NULL)
				buf_add(out, f.data, f.len);
			buf_addc(out, '\n');
		}
	} while (k == 0 && at < n);
	buf_addc(out, k < 0 ? 'x' : 'w');
	rparser_free(&p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct remote_procs procs = {0};
	struct buf whole = {0}, bytes = {0};

	frames(data, size, 0, &whole);
	frames(data, size, 1, &bytes);
	CHECK(whole.n == bytes.n && memcmp(whole.p, bytes.p, whole.n) == 0);
	buf_free(&whole);
	buf_free(&bytes);

	if (remote_procs_parse((const char *)data, size, &procs)) {
		CHECK(procs.codex_root == NULL || strlen(procs.codex_root) <= 4096);
		for (size_t i = 0; i < procs.n; i++) {
			const struct rproc *r = &procs.v[i];

			CHECK(r->pid > 0 && r->pid <= 0x3fffffff);
			CHECK(r->codex == 0 || r->codex == 'e' || r->codex == '?');
			CHECK(r->gemini == 0 || r->gemini == 'w' || r->gemini == '?');
			CHECK(r->cursor == 0 || r->cursor == 'w' || r->cursor == '?');
			/* One kind a record: a codex, gemini or cursor-agent one. */
			CHECK((r->codex != 0) + (r->gemini != 0) + (r->cursor != 0) <= 1);
			if (r->codex == 'e' || r->gemini == 'w' || r->cursor == 'w')
				CHECK(r->text + r->ntext <= procs.text.n);
			if (r->codex == 'e') {
				CHECK(r->ntext >= 2);
				CHECK(procs.text.p[r->text + r->ntext - 1] == '\0');
				CHECK(memcmp(procs.text.p + r->text, "CODEX_HOME=", 11) == 0);
			}
			if (r->gemini == 'w' || r->cursor == 'w')
				CHECK(r->ntext <= 4096 &&
				      memchr(procs.text.p + r->text, '\0', r->ntext) == NULL);
		}
	} else {
		CHECK(procs.n == 0 && procs.codex_root == NULL && !procs.noproc);
	}
	remote_procs_free(&procs);
	return 0;
}
