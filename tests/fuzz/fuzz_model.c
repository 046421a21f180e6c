/* fuzz_model.c: libFuzzer harness for the event model and everything that
 * reads it. The input is a stream: its lines go into the model (from one
 * source, or alternately from two), through the four printers and into a
 * recording. Then every query runs on every event, item, call and session.
 * Checked: the model's indices stay in range and its counts agree; text
 * and Markdown output hold no byte a terminal could act on and are valid
 * UTF-8; the JSON summary parses; the raw stream recovered from the
 * recording equals the one recovered from the input (the input itself when
 * it is not a recording); the recording, read back, gives the same
 * sessions and calls in the same states; and every call's detail, built
 * and raw, has rows that fit its width and nothing a terminal acts on.
 *
 * Built with FUZZ_AGENT set (fuzz_claude.c and its siblings), every line
 * is read by that agent's adapter, as --agent does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <locale.h>

#include "agent.h"
#include "detail.h"
#include "fuzz.h"
#include "json.h"
#include "source.h"
#include "model.h"
#include "print.h"
#include "summary.h"
#include "record.h"
#include "search.h"
#include "text.h"
#include "tool.h"
#include "util.h"
#include "words.h"

/* The agent every line is read as, or -1: each session's own. */
#ifndef FUZZ_AGENT
#define FUZZ_AGENT (-1)
#endif

/* Where recordings are written, reused by every run. */
static char rec_path[] = "/tmp/agentview-fuzz-rec-XXXXXX";

static void
remove_rec(void)
{
	unlink(rec_path);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd;

	(void)argc;
	(void)argv;
	setlocale(LC_CTYPE, "C.UTF-8");
	fd = mkstemp(rec_path);
	CHECK(fd >= 0);
	close(fd);
	atexit(remove_rec);
	return 0;
}

/* Whether s[0..n) holds the word "agentview" (memmem is a GNU extension). */
static bool
has_agentview(const char *s, size_t n)
{
	for (size_t i = 0; i + 9 <= n; i++)
		if (s[i] == 'a' && memcmp(s + i, "agentview", 9) == 0)
			return true;
	return false;
}

/* Text safe for a terminal: valid UTF-8, no C0 but LF, no DEL, no C1. */
static void
check_safe(const char *s, size_t n)
{
	size_t i = 0;

	CHECK(fuzz_utf8_ok(s, n));
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);

		CHECK(cp == '\n' || (cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp < 0xA0)));
		i += k;
	}
}

/* The stream record_raw_line gives back from s[0..n). */
static char *
raw_of(const char *s, size_t n, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);
	struct source src;
	struct line ln;

	source_open_mem(&src, "raw", s, n);
	while (source_next_line(&src, &ln))
		record_raw_line(f, source_at(&src, ln.off), ln.len, ln.terminated);
	fclose(f);
	source_close(&src);
	return out;
}

/* Every index the model holds points inside its arrays, and its counts
 * agree with what the queries derive. */
static void
check_structure(struct model *m)
{
	size_t calls = 0;

	for (size_t e = 0; e < m->nev; e++) {
		const struct event *ev = &m->ev[e];

		CHECK(EV_TYPE(ev) < EV_NTYPES);
		CHECK(EV_SRC(ev) < m->nsrc);
		CHECK(EV_OFF(ev) + ev->len <= m->src[EV_SRC(ev)].src->size);
		CHECK(ev->item == NONE || ev->item < m->nit);
	}
	for (size_t i = 0; i < m->nit; i++) {
		const struct item *it = &m->it[i];

		CHECK(it->type < IT_NTYPES);
		CHECK(it->first_ev <= it->last_ev && it->last_ev < m->nev);
		CHECK(it->session < m->nses);
		if (it->type == IT_TOOL)
			CHECK(it->ref < m->ncall && m->call[it->ref].item == i);
		if (it->type == IT_DIAG)
			CHECK(it->ref < m->ndiag);
	}
	for (size_t d = 0; d < m->ndiag; d++)
		CHECK(m->diag[d].ev < m->nev && EV_TYPE(&m->ev[m->diag[d].ev]) == EV_BAD);
	for (size_t c = 0; c < m->ncall; c++) {
		const struct call *call = &m->call[c];

		CHECK(call->session < m->nses && call->item < m->nit);
		CHECK(call->start_ev == NONE || call->start_ev < m->nev);
		CHECK(call->done_ev == NONE || call->done_ev < m->nev);
		CHECK(call->start_ev != NONE || call->done_ev != NONE);
		CHECK(call->kind < TK_NKINDS);
		CHECK(model_call_state(m, (uint32_t)c) < CS_NSTATES);
		CHECK(model_call_duration(m, (uint32_t)c) == TIME_NONE ||
		      model_call_duration(m, (uint32_t)c) >= 0);
	}
	for (size_t s = 0; s < m->nses; s++) {
		const struct session *ses = &m->ses[s];
		uint32_t counts[CS_NSTATES], by_call[CS_NSTATES] = {0}, sum = 0;
		enum session_state state;

		CHECK(ses->init_ev == NONE || ses->init_ev < m->nev);
		CHECK(ses->result_ev == NONE || ses->result_ev < m->nev);
		CHECK(ses->first_item <= m->nit);
		CHECK(ses->src < m->nsrc);
		/* the counts the status bar shows are the calls' own states */
		model_session_counts(m, (uint32_t)s, counts);
		for (size_t c = 0; c < m->ncall; c++)
			if (m->call[c].session == s)
				by_call[model_call_state(m, (uint32_t)c)]++;
		for (int st = 0; st < CS_NSTATES; st++) {
			CHECK(counts[st] == by_call[st]);
			sum += counts[st];
		}
		CHECK(sum == ses->ncalls);
		calls += ses->ncalls;
		/* waiting (for a decision) and live only while the input
		 * is open */
		state = model_session_state(m, (uint32_t)s);
		CHECK(state < SS_NSTATES);
		CHECK(!model_ended(m) || (state != SS_LIVE && state != SS_WAITING));
		CHECK(model_session_duration(m, (uint32_t)s) == TIME_NONE ||
		      model_session_duration(m, (uint32_t)s) >= 0);
	}
	CHECK(calls == m->ncall);
}

/* Whether event e's line is one its session's adapter skips unparsed. */
static bool
skipped(const struct model *m, uint32_t e)
{
	size_t n;
	const char *p = model_line(m, e, &n);

	return agent_skips_any(p, n);
}

/* Every query on every event, item and call. */
static void
check_queries(struct model *m)
{
	struct buf b = {0};
	struct tool_desc td = {0};
	struct json *j = json_new();

	for (size_t e = 0; e < m->nev; e++) {
		enum ev_type t = EV_TYPE(&m->ev[e]);

		buf_reset(&b);
		model_event_text(m, (uint32_t)e, &b);
		if (t == EV_NOTICE)
			model_notice_text(m, (uint32_t)e, &b);
		model_event_field(m, (uint32_t)e, "session_id", &b);
		model_event_field(m, (uint32_t)e, "message.content", &b);
		/* a recorded non-JSON line is a diagnostic but parses; a line
		 * its adapter skips by its first bytes is hidden unparsed */
		CHECK(model_parse(m, (uint32_t)e, j) || t == EV_BAD ||
		      (t == EV_HIDDEN && skipped(m, (uint32_t)e)));
		CHECK(model_item_at_event(m, (uint32_t)e) == NONE ||
		      model_item_at_event(m, (uint32_t)e) < m->nit);
		if (e < 64) /* linear in the offset: only the first ones */
			CHECK(model_event_lineno(m, (uint32_t)e) >= 1);
	}
	for (size_t i = 0; i < m->nit; i++) {
		buf_reset(&b);
		model_item_text(m, (uint32_t)i, &b);
	}
	for (size_t d = 0; d < m->ndiag; d++) {
		buf_reset(&b);
		model_diag_message(m, (uint32_t)d, &b);
		CHECK(b.n > 0);
	}
	for (size_t c = 0; c < m->ncall; c++) {
		tool_describe(m, (uint32_t)c, &td);
		buf_reset(&b);
		tool_line((enum tool_kind)m->call[c].kind, &td, &b);
		CHECK(b.n > 0);
	}
	tool_desc_free(&td);
	buf_free(&b);
	json_free(j);
}

/* Every call's detail, built and raw, at two widths: each row inside the
 * detail's text, its lead inside it, as wide as it measures, within the
 * width; the text is safe for a terminal. */
static void
check_details(struct model *m)
{
	struct detail d;

	detail_init(&d, m);
	for (size_t c = 0; c < m->ncall; c++)
		for (int k = 0; k < 4; k++) {
			int w = (k & 1) ? 80 : 40;

			detail_build(&d, (uint32_t)c, w, (k & 2) != 0);
			CHECK(!detail_stale(&d, w));
			CHECK(d.nrow > 0);
			check_safe(d.text.p, d.text.n);
			for (size_t i = 0; i < d.nrow; i++) {
				const struct drow *r = &d.row[i];

				CHECK((size_t)r->off + r->len <= d.text.n);
				CHECK(r->lead <= r->len);
				CHECK(r->len == 0 ||
				      memchr(d.text.p + r->off, '\n', r->len) == NULL);
				CHECK(text_width(d.text.p + r->off, r->len) == r->width);
				CHECK(r->indent + r->width <= w);
			}
		}
	detail_free(&d);
}

/* Whether a call's detail is searched for the pattern (search.h): its
 * events' raw lines may hold it. */
static bool
detail_searched(const struct search *se, const struct model *m, uint32_t c)
{
	const struct call *call = &m->call[c];
	const char *p;
	size_t n;

	if (call->start_ev != NONE) {
		p = model_line(m, call->start_ev, &n);
		if (search_raw_maybe(se, p, n))
			return true;
	}
	if (!model_seen(m, call->done_ev))
		return false;
	p = model_line(m, call->done_ev, &n);
	return search_raw_maybe(se, p, n);
}

/* The search finds as many matches as counting each item's text, and a
 * call's detail built plain when its lines may hold the pattern, does: its
 * shortcuts (a raw line ruled out by its bytes, a delta's text read from
 * the head of its line, the text cache, the second thread that decodes)
 * change nothing. One search for every pattern, as the viewer keeps one:
 * for each, once on one thread (the first from cold, the next with the
 * cache the one before left), once with the cache partly warmed and every
 * step shared with the second thread. (A search reserves its whole cache
 * at once, which ASan makes slow: one for all patterns.) */
static void
check_search(struct model *m)
{
	static const char *const pats[] = {"e", "the", "\xC3\xBC", "Error", "\\n"};
	struct buf b = {0};
	struct tool_desc td = {0};
	struct search se;
	struct detail d;

	search_init(&se, m);
	detail_init(&d, m);
	d.plain = true;
	for (size_t k = 0; k < ARRAY_LEN(pats); k++) {
		uint64_t want = 0;

		search_set(&se, pats[k], strlen(pats[k]), 0);
		for (size_t i = 0; i < m->nit; i++) {
			const struct item *it = &m->it[i];

			buf_reset(&b);
			if (it->type == IT_PROMPT ||
			    (it->type == IT_TEXT && it->first_ev == it->last_ev))
				model_item_text(m, (uint32_t)i, &b);
			else
				words_item(m, (uint32_t)i, WORDS_BODY, &td, &b);
			want += search_count(&se, b.p ? b.p : "", b.n);
			/* Then what its call's detail shows. */
			if (it->type == IT_TOOL && detail_searched(&se, m, it->ref)) {
				detail_build(&d, it->ref, 0, false);
				want += search_count(&se, d.text.p ? d.text.p : "", d.text.n);
			}
		}
		for (int run = 0; run < 2; run++) {
			if (run == 1) {
				search_set(&se, "", 0, 0);
				(void)search_warm(&se, 4096);
				se.helper_min = 0;
				search_set(&se, pats[k], strlen(pats[k]), 0);
			} else {
				se.helper_min = SIZE_MAX;
			}
			while (search_step(&se, 1u << 12))
				;
			CHECK(search_done(&se));
			if (se.total != want)
				fprintf(stderr, "search %s, run %d: %llu matches, counted %llu\n",
					pats[k], run, (unsigned long long)se.total,
					(unsigned long long)want);
			CHECK(se.total == want);
		}
	}
	search_free(&se);
	detail_free(&d);
	tool_desc_free(&td);
	buf_free(&b);
}

/* Whether the input is free of what makes a recording show a line
 * differently from the live stream: lines that are recordings already, and
 * JSON objects the recorder must wrap as text (an empty object, a BOM in
 * front, a last line without '\n'). */
static bool
plain_stream(const char *s, size_t n)
{
	struct json *j;
	struct source src;
	struct line ln;
	bool plain = true;

	if (has_agentview(s, n))
		return false;
	j = json_new();
	source_open_mem(&src, "plain", s, n);
	while (plain && source_next_line(&src, &ln)) {
		const char *p = source_at(&src, ln.off);
		enum json_err err = json_parse(j, p, ln.len);

		if (ln.len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
			plain = false;
		else if (err == JSON_OK && (json_size(j, 0) == 0 || !ln.terminated))
			plain = false;
	}
	source_close(&src);
	json_free(j);
	return plain;
}

/* The next line when the input's lines go alternately to nsrc sources
 * that all hold it: line `no` (from 0) is source no % nsrc's, in *k. */
static bool
next_line(struct source *src, int nsrc, uint64_t no, struct line *ln, int *k)
{
	bool got = false;

	*k = (int)(no % (uint64_t)nsrc);
	for (int i = 0; i < nsrc; i++) {
		struct line other;

		if (i == *k)
			got = source_next_line(&src[i], ln);
		else
			source_next_line(&src[i], &other);
	}
	return got;
}

/* The formats run_stream prints in, out[F_TEXT] ... */
enum { F_TEXT, F_MARKDOWN, F_JSON, F_RAW };
static const struct format *const formats[] = {&format_text, &format_markdown, &format_json,
					       &format_raw};

/* Feed s[0..n) to a model as one stream (or two interleaved), printing
 * and recording as it goes. Returns the model; outputs in out[]. */
static struct model *
run_stream(const char *s, size_t n, unsigned cfg, struct source *src, char *out[4],
	   size_t outlen[4], bool record)
{
	struct model *m = model_new();
	struct printer *p[4];
	FILE *f[4];
	struct recorder rec;
	struct buf err = {0};
	struct line ln;
	unsigned sid[2];
	int nsrc = (cfg & 1) ? 2 : 1, k;
	uint64_t no;

	m->agent = FUZZ_AGENT;
	for (int i = 0; i < 4; i++) {
		f[i] = open_memstream(&out[i], &outlen[i]);
		p[i] = printer_new(m, formats[i], f[i]);
	}
	for (int i = 0; i < nsrc; i++) {
		source_open_mem(&src[i], i ? "b" : "a", s, n);
		sid[i] = model_add_source(m, &src[i]);
	}
	if (record)
		CHECK(record_open(&rec, rec_path, NULL, &err) == 0);
	for (no = 0; next_line(src, nsrc, no, &ln, &k); no++) {
		uint32_t ev;

		if (record)
			record_line(&rec, source_at(&src[k], ln.off), ln.len, ln.terminated,
				    1000 + (int64_t)no);
		ev = model_add_line(m, sid[k], &ln, (cfg & 2) ? 5000 + 3 * (int64_t)no : TIME_NONE);
		CHECK(ev == NONE || ev + 1 == m->nev);
		for (int i = 0; i < 4; i++)
			printer_line(p[i], &src[k], &ln, ev);
	}
	if (record) {
		CHECK(rec.err == 0);
		record_close(&rec);
	}
	/* A followed file that restarts: forget everything, read it all
	 * again, and the model must be what it was. */
	if (cfg & 8) {
		size_t nev = m->nev, nit = m->nit, nses = m->nses;
		size_t ncall = m->ncall, ndiag = m->ndiag;

		model_clear(m);
		CHECK(m->nev == 0 && m->nses == 0 && m->nsrc == (size_t)nsrc);
		for (int i = 0; i < nsrc; i++) {
			src[i].scan = 0;
			src[i].lineno = 0;
		}
		for (no = 0; next_line(src, nsrc, no, &ln, &k); no++)
			model_add_line(m, sid[k], &ln,
				       (cfg & 2) ? 5000 + 3 * (int64_t)no : TIME_NONE);
		CHECK(m->nev == nev && m->nit == nit && m->nses == nses);
		CHECK(m->ncall == ncall && m->ndiag == ndiag);
	}
	/* While live: states and durations against a clock. */
	m->now_ms = (cfg & 4) ? 6000 : TIME_NONE;
	check_structure(m);
	for (int i = 0; i < nsrc; i++)
		model_end_source(m, sid[i]);
	CHECK(model_ended(m));
	check_structure(m);
	check_queries(m);
	check_search(m);
	check_details(m);
	for (int i = 0; i < 4; i++) {
		printer_finish(p[i]);
		printer_free(p[i]);
		fclose(f[i]);
	}
	buf_free(&err);
	return m;
}

static void
free_run(struct model *m, struct source *src, char *out[4])
{
	for (size_t i = 0; i < m->nsrc; i++)
		source_close(&src[i]);
	model_free(m);
	for (int i = 0; i < 4; i++)
		free(out[i]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	unsigned cfg = (unsigned)(hash_bytes(data, size, 0) & 15);
	struct source src[2], rsrc[2];
	char *out[4], *rout[4], *rec, *raw_in, *raw_rec;
	size_t outlen[4], routlen[4], nrec, nraw_in, nraw_rec;
	struct model *m, *rm;
	struct json *j = json_new();
	struct buf sum = {0};
	enum json_err err;

	m = run_stream(s, size, cfg, src, out, outlen, true);
	check_safe(out[F_TEXT], outlen[F_TEXT]);
	check_safe(out[F_MARKDOWN], outlen[F_MARKDOWN]);
	/* The summary: one JSON object with no raw control byte. */
	err = json_parse(j, out[F_JSON], outlen[F_JSON]);
	CHECK(err == JSON_OK || err == JSON_TOO_DEEP || err == JSON_TOO_BIG);
	summary_write(m, NULL, &sum, NULL);
	for (size_t i = 0; i < sum.n; i++)
		CHECK((unsigned char)sum.p[i] >= 0x20 && sum.p[i] != 0x7F);

	/* Recordings lose nothing. */
	rec = fuzz_read_file(rec_path, &nrec);
	CHECK(rec != NULL);
	raw_in = raw_of(s, size, &nraw_in);
	raw_rec = raw_of(rec, nrec, &nraw_rec);
	CHECK(outlen[F_RAW] == nraw_in && memcmp(out[F_RAW], raw_in, nraw_in) == 0);
	CHECK(nraw_rec == nraw_in && memcmp(raw_rec, raw_in, nraw_in) == 0);
	if (!has_agentview(s, size))
		CHECK(nraw_in == size && memcmp(raw_in, s, size) == 0);

	/* ... and read back, show the same sessions and calls. */
	rm = run_stream(rec, nrec, cfg & ~9u, rsrc, rout, routlen, false);
	/* (Two sources keep a session each: compare one with one.) */
	if (!(cfg & 1) && plain_stream(s, size)) {
		CHECK(rm->nses == m->nses);
		CHECK(rm->ncall == m->ncall);
		CHECK(rm->ndiag == m->ndiag);
		for (size_t c = 0; c < m->ncall; c++) {
			CHECK(model_call_state(rm, (uint32_t)c) ==
			      model_call_state(m, (uint32_t)c));
			CHECK(rm->call[c].kind == m->call[c].kind);
		}
		for (size_t k = 0; k < m->nses; k++)
			CHECK(model_session_state(rm, (uint32_t)k) ==
			      model_session_state(m, (uint32_t)k));
	}
	free_run(rm, rsrc, rout);
	free(rec);
	free(raw_in);
	free(raw_rec);
	free_run(m, src, out);
	buf_free(&sum);
	json_free(j);
	return 0;
}
