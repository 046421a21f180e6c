/* fuzz_remote.c: libFuzzer harness for what a remote sends (remote.h):
 * the frames of its program's output (rparser) and the body of its list
 * of processes (remote_procs_parse), on arbitrary bytes, as a hostile
 * remote would send them. Beyond "no crash, no leak, no undefined
 * behaviour" it checks that the frames are the same whether the bytes
 * come at once or a byte at a time, that a frame's bytes lie within what
 * was sent, that a list of processes read is as remote.h lays it out
 * (or read as nothing), and that rows read (remote_rows_parse) name only
 * files of a folder, once each, hold no control byte, and are written
 * back as the same text. */
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

/* Whether s holds no control byte. */
static bool
clean(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static void
rows(const uint8_t *data, size_t size)
{
	struct remote_rows p = {0};
	struct buf back = {0};

	if (!remote_rows_parse((const char *)data, size, &p)) {
		CHECK(p.n == 0 && p.v == NULL && p.names.n == 0);
		return;
	}
	CHECK(p.n <= RROWS_MAX && p.nfiles <= p.n);
	remote_rows_begin(&back);
	for (size_t i = 0; i < p.n; i++) {
		const struct remote_row *w = &p.v[i];
		const struct fleet_row *r = &w->r;
		const char *name = p.names.p + w->name;

		CHECK(w->name + w->nname < p.names.n && strlen(name) == w->nname);
		CHECK(remote_name_ok(name, w->nname));
		CHECK(r->file < p.nfiles && r->state < FS_NSTATES && r->ncalls <= FLEET_CALLS);
		CHECK(i == 0 || r->file == p.v[i - 1].r.file
			      ? r->index == (i == 0 ? 0 : p.v[i - 1].r.index + 1)
			      : r->index == 0);
		CHECK(clean(r->id) && clean(r->model) && clean(r->cwd) && clean(r->prompt) &&
		      clean(r->how));
		for (unsigned c = 0; c < r->ncalls; c++)
			CHECK(clean(r->calls[c].what));
		remote_rows_add(&back, name, w->mtime_ms, r);
	}
	remote_rows_end(&back, p.n);
	/* One way to write each row: what was read is written back as it
	 * came (a cost to the nano-dollar). */
	CHECK(back.n == size && memcmp(back.p, data, size) == 0);
	buf_free(&back);
	remote_rows_free(&p);
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
	rows(data, size);
	return 0;
}
