/* search.c: smartcase search over the transcript's text, prefiltered on
 * raw bytes where that is exact, with a bounded cache of decoded text. */
#include "search.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "render.h"
#include "words.h"
#include "text.h"

/* --- case folding -------------------------------------------------------- */

/* A code point that towlower maps to another: `from` folds to `to`. */
struct fold_pair {
	uint32_t to, from;
};

/* Every non-ASCII code point that folds to something else, by target;
 * built once, from the locale's towlower. */
static struct fold_pair *fold_tab;
static size_t nfold_tab;

/* Order pairs by target, then by source, for bsearch-like lookups. */
static int
fold_pair_cmp(const void *a, const void *b)
{
	const struct fold_pair *x = a, *y = b;

	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

/* The pairs are needed to know which letters a raw byte compare would
 * miss: U+0130 folds to "i", U+212A (Kelvin) to "k", U+1E9E to "ß". */
static void
fold_tab_build(void)
{
	size_t cap = 0;

	if (fold_tab != NULL)
		return;
	for (uint32_t c = 0x80; c < 0x110000; c++) {
		wint_t l;

		if (c >= 0xD800 && c < 0xE000)
			continue;
		l = towlower((wint_t)c);
		if ((uint32_t)l == c)
			continue;
		ARRAY_RESERVE(fold_tab, cap, nfold_tab + 1);
		fold_tab[nfold_tab].to = (uint32_t)l;
		fold_tab[nfold_tab].from = c;
		nfold_tab++;
	}
	if (fold_tab == NULL)
		fold_tab = xcalloc(1, sizeof *fold_tab);
	qsort(fold_tab, nfold_tab, sizeof *fold_tab, fold_pair_cmp);
}

/* The index of the first pair that folds to cp. */
static size_t
fold_tab_find(uint32_t cp)
{
	size_t lo = 0, hi = nfold_tab;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fold_tab[mid].to < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The code point compared in place of cp when case does not matter. */
static inline uint32_t
fold(uint32_t cp)
{
	if (cp < 0x80)
		return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
	return (uint32_t)towlower((wint_t)cp);
}

/* The code point at t[i], and its length in bytes. */
static inline size_t
cp_at(const char *t, size_t n, size_t i, uint32_t *cp)
{
	unsigned char c = (unsigned char)t[i];

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	return utf8_decode(t + i, n - i, cp);
}

/* --- the second thread ---------------------------------------------------- */

/* It decodes texts of the items of a step, with a reader of the model,
 * taking them one at a time from the same list as the searching thread,
 * which waits for it before the step ends: the model cannot change
 * meanwhile. */
struct search_helper {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	atomic_bool work; /* a step's items are being decoded */
	atomic_bool quit;
	struct model rd; /* the model's reader */
	struct tool_desc td;
	struct detail det;
	const struct search *s;   /* the search, read only during a step */
	struct search_plan *plan; /* the items to decode */
	size_t n;
	atomic_size_t take; /* the next of them not taken yet */
	struct buf text;    /* the texts this thread decoded */
	struct buf mine;    /* the texts the searching thread decoded */
};

static void item_decode(const struct search *s, struct model *m, struct detail *det,
			struct tool_desc *td, struct search_plan *p, struct buf *out);

/* Decode items of the list, one at a time, until none is left: m, det
 * and td are the thread's own, its texts go to out. */
static void
helper_share(struct search_helper *h, struct model *m, struct detail *det, struct tool_desc *td,
	     struct buf *out, bool helper)
{
	size_t i;

	while ((i = atomic_fetch_add(&h->take, 1)) < h->n) {
		item_decode(h->s, m, det, td, &h->plan[i], out);
		h->plan[i].helper = helper;
	}
}

/* How long a thread spins for the other before it sleeps: waking a
 * sleeping thread takes a few hundred microseconds on a virtual machine,
 * as long as a step's last items take, and steps follow each other. */
#define HELPER_SPIN_NS 2000000
/* The texts of a step kept between steps, at most (a step decodes about
 * its budget; a single huge item may decode much more). */
#define HELPER_KEEP_BYTES (4u << 20)

/* Wait until h->work is `want` (or, for the second thread, until it is
 * told to quit): spin a while, then sleep. */
static void
helper_await(struct search_helper *h, bool want)
{
	int64_t until = clock_mono_ns() + HELPER_SPIN_NS;

	while (atomic_load(&h->work) != want && !(want && atomic_load(&h->quit)))
		if (clock_mono_ns() > until) {
			pthread_mutex_lock(&h->mu);
			while (atomic_load(&h->work) != want && !(want && atomic_load(&h->quit)))
				pthread_cond_wait(&h->cv, &h->mu);
			pthread_mutex_unlock(&h->mu);
			return;
		}
}

/* Set h->work and wake the other thread if it sleeps on it. */
static void
helper_tell(struct search_helper *h, bool work)
{
	atomic_store(&h->work, work);
	pthread_mutex_lock(&h->mu);
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
}

/* The second thread: decode a step's items when asked, until told to
 * quit. */
static void *
helper_run(void *arg)
{
	struct search_helper *h = arg;

	for (;;) {
		helper_await(h, true);
		if (atomic_load(&h->quit))
			break;
		buf_reset(&h->text);
		helper_share(h, &h->rd, &h->det, &h->td, &h->text, true);
		helper_tell(h, false);
	}
	return NULL;
}

/* Start the second thread, once; false when it cannot be. */
static bool
helper_start(struct search *s)
{
	struct search_helper *h;

	if (s->helper != NULL)
		return true;
	h = xcalloc(1, sizeof *h);
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, NULL);
	atomic_init(&h->take, 0);
	atomic_init(&h->work, false);
	atomic_init(&h->quit, false);
	/* Its detail reads its own reader of the model. */
	detail_init(&h->det, &h->rd);
	h->det.plain = true;
	if (pthread_create(&h->th, NULL, helper_run, h) != 0) {
		detail_free(&h->det);
		pthread_mutex_destroy(&h->mu);
		pthread_cond_destroy(&h->cv);
		free(h);
		return false;
	}
	s->helper = h;
	return true;
}

/* Stop the second thread and free it. */
static void
helper_stop(struct search *s)
{
	struct search_helper *h = s->helper;

	if (h == NULL)
		return;
	atomic_store(&h->quit, true);
	helper_tell(h, false);
	pthread_join(h->th, NULL);
	pthread_mutex_destroy(&h->mu);
	pthread_cond_destroy(&h->cv);
	detail_free(&h->det);
	model_reader_free(&h->rd);
	tool_desc_free(&h->td);
	buf_free(&h->text);
	buf_free(&h->mine);
	free(h);
	s->helper = NULL;
}

/* Decode the items of plan[0..n) on both threads; when it returns, each
 * says where its text is. */
static void
helper_decode(struct search *s, struct search_plan *plan, size_t n)
{
	struct search_helper *h = s->helper;

	h->s = s;
	h->plan = plan;
	h->n = n;
	atomic_store(&h->take, 0);
	model_reader_sync(&h->rd, s->m);
	helper_tell(h, true);
	buf_reset(&h->mine);
	helper_share(h, s->m, &s->det, &s->td, &h->mine, false);
	helper_await(h, false);
}

/* --- the pattern ------------------------------------------------------- */

void
search_init(struct search *s, struct model *m)
{
	memset(s, 0, sizeof *s);
	s->m = m;
	s->helper_min = SEARCH_HELPER_MIN;
	detail_init(&s->det, m);
	s->det.plain = true;
}

void
search_free(struct search *s)
{
	helper_stop(s);
	free(s->plan);
	buf_free(&s->pat);
	buf_free(&s->needle);
	buf_free(&s->trig);
	buf_free(&s->ctext);
	buf_free(&s->text);
	tool_desc_free(&s->td);
	detail_free(&s->det);
	free(s->pcp);
	free(s->ncp);
	free(s->hit);
	free(s->coff);
	free(s->cstamp);
	memset(s, 0, sizeof *s);
}

bool
search_active(const struct search *s)
{
	return s->npcp > 0;
}

bool
search_done(const struct search *s)
{
	return s->next >= model_nitems(s->m);
}

/* A code point that stands in a JSON string as its own bytes, or as a
 * \u escape, and in no other way (", \ and / have escapes of their own,
 * controls are written \n, \t; U+FFFD may come from an invalid byte). With
 * icase, its other cases must be ASCII or absent, since bytes are compared
 * with ASCII case folding only. */
static bool
needle_safe(const struct search *s, uint32_t cp)
{
	if (cp < 0x20 || cp == '"' || cp == '\\' || cp == '/' || cp == 0xFFFD)
		return false;
	if (!s->icase || cp < 0x80)
		return true;
	return fold_tab_find(cp) >= nfold_tab || fold_tab[fold_tab_find(cp)].to != cp;
}

/* Choose the needle: the longest run of safe code points; with icase, the
 * non-ASCII code points that fold to its ASCII letters are triggers. */
static void
needle_choose(struct search *s)
{
	size_t best = 0, bestlen = 0, run = 0;

	buf_reset(&s->needle);
	buf_reset(&s->trig);
	s->nncp = 0;
	for (size_t i = 0; i <= s->npcp; i++) {
		if (i < s->npcp && needle_safe(s, s->pcp[i])) {
			run++;
			continue;
		}
		if (run > bestlen) {
			bestlen = run;
			best = i - run;
		}
		run = 0;
	}
	if (bestlen == 0)
		return;
	free(s->ncp);
	s->ncp = xreallocarray(NULL, bestlen, sizeof *s->ncp);
	for (size_t i = best; i < best + bestlen; i++) {
		uint32_t cp = s->pcp[i];

		s->ncp[s->nncp++] = cp;
		buf_add_utf8(&s->needle, cp);
		if (!s->icase || cp >= 0x80)
			continue;
		for (size_t k = fold_tab_find(cp); k < nfold_tab && fold_tab[k].to == cp; k++) {
			buf_add_utf8(&s->trig, fold_tab[k].from);
			buf_addc(&s->trig, '\0');
		}
	}
}

/* Forget what was found; search again from the first item. */
static void
search_rewind_all(struct search *s)
{
	s->nhit = 0;
	s->total = 0;
	s->next = 0;
	s->volatile_from = 0;
	s->seen_nev = s->m->nev;
	s->seen_nses = s->m->nses;
	s->seen_ended = model_ended(s->m);
	s->seen_limit = s->m->limit;
}

void
search_set(struct search *s, const char *pat, size_t n, unsigned hide)
{
	size_t cap = 0;

	if (n > SEARCH_MAX_PATTERN)
		n = SEARCH_MAX_PATTERN;
	fold_tab_build();
	buf_reset(&s->pat);
	buf_add(&s->pat, pat, n);
	s->hide = hide;
	s->gen++;
	free(s->pcp);
	s->pcp = NULL;
	s->npcp = 0;
	s->icase = true;
	for (size_t i = 0; i < n;) {
		uint32_t cp;

		i += cp_at(pat, n, i, &cp);
		ARRAY_RESERVE(s->pcp, cap, s->npcp + 1);
		s->pcp[s->npcp++] = cp;
		if (fold(cp) != cp)
			s->icase = false;
	}
	if (s->icase)
		for (size_t i = 0; i < s->npcp; i++)
			s->pcp[i] = fold(s->pcp[i]);
	needle_choose(s);
	search_rewind_all(s);
}

void
search_restart(struct search *s)
{
	s->gen++;
	buf_reset(&s->ctext);
	s->ncache = 0;
	s->warm = 0;
	s->cfull = false;
	search_rewind_all(s);
}

/* --- matching ------------------------------------------------------------ */

/* Whether the pattern starts at t[i]; its end in *end. */
static bool
match_at(const struct search *s, const char *t, size_t n, size_t i, size_t *end)
{
	for (size_t k = 0; k < s->npcp; k++) {
		uint32_t cp;

		if (i >= n)
			return false;
		i += cp_at(t, n, i, &cp);
		if (s->icase)
			cp = fold(cp);
		if (cp != s->pcp[k])
			return false;
	}
	*end = i;
	return true;
}

/* The next byte equal to ca or cb: two memchr scans, each result kept
 * until passed, beat a loop over every byte. A position NULL means none
 * is left. */
struct scan2 {
	const char *a, *b;
	unsigned char ca, cb;
	bool two;
};

/* Start looking for ca or cb from p. */
static void
scan2_init(struct scan2 *sc, const char *p, const char *end, unsigned char ca, unsigned char cb)
{
	sc->ca = ca;
	sc->cb = cb;
	sc->two = ca != cb;
	sc->a = memchr(p, ca, (size_t)(end - p));
	sc->b = sc->two ? memchr(p, cb, (size_t)(end - p)) : NULL;
}

/* The first of the two bytes at or after p, or NULL. */
static const char *
scan2_next(struct scan2 *sc, const char *p, const char *end)
{
	if (sc->a != NULL && sc->a < p)
		sc->a = p < end ? memchr(p, sc->ca, (size_t)(end - p)) : NULL;
	if (sc->two && sc->b != NULL && sc->b < p)
		sc->b = p < end ? memchr(p, sc->cb, (size_t)(end - p)) : NULL;
	if (sc->a == NULL)
		return sc->b;
	if (sc->b == NULL)
		return sc->a;
	return sc->a < sc->b ? sc->a : sc->b;
}

bool
search_find(const struct search *s, const char *t, size_t n, size_t from, size_t *a, size_t *b)
{
	uint32_t p0;
	size_t k;

	if (s->npcp == 0 || t == NULL || from >= n)
		return false;
	p0 = s->pcp[0];
	/* An ASCII first character that nothing else folds to: only its own
	 * bytes can start a match. */
	if (p0 < 0x80 &&
	    (!s->icase || (k = fold_tab_find(p0)) >= nfold_tab || fold_tab[k].to != p0)) {
		const char *end = t + n, *q = t + from;
		unsigned char c0 = (unsigned char)p0;
		struct scan2 sc;

		scan2_init(&sc, q, end, c0,
			   s->icase && c0 >= 'a' && c0 <= 'z' ? (unsigned char)(c0 - 32) : c0);
		while ((q = scan2_next(&sc, q, end)) != NULL) {
			if (match_at(s, t, n, (size_t)(q - t), b)) {
				*a = (size_t)(q - t);
				return true;
			}
			q++;
		}
		return false;
	}
	for (size_t i = from; i < n;) {
		unsigned char c = (unsigned char)t[i];
		uint32_t cp;
		size_t len;

		/* ASCII is most of the text: fold it without a call. */
		if (c < 0x80) {
			cp = s->icase && c >= 'A' && c <= 'Z' ? c + 32u : c;
			len = 1;
		} else {
			len = utf8_decode(t + i, n - i, &cp);
			if (s->icase)
				cp = fold(cp);
		}
		if (cp == p0 && match_at(s, t, n, i, b)) {
			*a = i;
			return true;
		}
		i += len;
	}
	return false;
}

uint32_t
search_count(const struct search *s, const char *t, size_t n)
{
	size_t a, b, from = 0;
	uint32_t count = 0;

	while (search_find(s, t, n, from, &a, &b)) {
		count++;
		from = b;
	}
	return count;
}

/* The first occurrence of nd[0..m) in p[0..n), m >= 1 (memmem is a GNU
 * extension; memchr finds the candidates as fast). */
static const char *
bytes_find(const char *p, size_t n, const char *nd, size_t m)
{
	const char *end = p + n;

	while ((size_t)(end - p) >= m) {
		p = memchr(p, (unsigned char)nd[0], (size_t)(end - p) - m + 1);
		if (p == NULL)
			return NULL;
		if (memcmp(p + 1, nd + 1, m - 1) == 0)
			return p;
		p++;
	}
	return NULL;
}

/* The needle in p[0..n), ASCII letters compared without case when icase. */
static bool
needle_in(const struct search *s, const char *p, size_t n)
{
	const char *nd = s->needle.p;
	size_t m = s->needle.n;
	unsigned char c0, c1;

	if (!s->icase)
		return bytes_find(p, n, nd, m) != NULL;
	c0 = (unsigned char)nd[0];
	c1 = c0 >= 'a' && c0 <= 'z' ? (unsigned char)(c0 - 32) : c0;
	{
		const char *end = p + n, *q = p;
		struct scan2 sc;

		scan2_init(&sc, q, end, c0, c1);
		while ((q = scan2_next(&sc, q, end)) != NULL) {
			size_t k;

			if ((size_t)(end - q) < m)
				return false;
			for (k = 1; k < m; k++) {
				unsigned char x = (unsigned char)q[k];

				if (x >= 'A' && x <= 'Z')
					x += 32;
				if (x != (unsigned char)nd[k])
					break;
			}
			if (k == m)
				return true;
			q++;
		}
	}
	return false;
}

/* Four hex digits at p, or -1. */
static long
hex4(const char *p)
{
	long v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* A \u escape in p[0..n) that decodes to a code point of the needle. */
static bool
escape_in(const struct search *s, const char *p, size_t n)
{
	const char *end = p + n, *q = p;

	while ((q = bytes_find(q, (size_t)(end - q), "\\u", 2)) != NULL) {
		long v = end - q >= 6 ? hex4(q + 2) : -1;
		uint32_t cp;

		q += 2;
		if (v < 0)
			continue;
		cp = (uint32_t)v;
		if (cp >= 0xD800 && cp < 0xDC00 && end - q >= 10 && q[4] == '\\' && q[5] == 'u') {
			long lo = hex4(q + 6);

			if (lo >= 0xDC00 && lo < 0xE000)
				cp = 0x10000 + ((cp - 0xD800) << 10) + (uint32_t)(lo - 0xDC00);
		}
		if (s->icase)
			cp = fold(cp);
		for (size_t i = 0; i < s->nncp; i++)
			if (s->ncp[i] == cp)
				return true;
	}
	return false;
}

bool
search_raw_maybe(const struct search *s, const char *p, size_t n)
{
	if (s->needle.n == 0)
		return true;
	if (needle_in(s, p, n) || escape_in(s, p, n))
		return true;
	for (size_t i = 0; i < s->trig.n; i += strlen(s->trig.p + i) + 1)
		if (bytes_find(p, n, s->trig.p + i, strlen(s->trig.p + i)) != NULL)
			return true;
	return false;
}

/* What identifies the text of item it: it changes when the text does. */
static uint32_t
item_stamp(const struct model *m, uint32_t it)
{
	const struct item *item = &m->it[it];
	uint32_t v;

	if (item->type == IT_TOOL) {
		const struct call *c = &m->call[item->ref];

		v = (c->done_ev + 1) * 8u + (uint32_t)model_call_state(m, item->ref);
	} else if (item->type == IT_RESULT) {
		v = item->last_ev * 8u + (uint32_t)model_session_state(m, item->session);
	} else {
		/* In a replay the text shown ends at the cut-off. */
		v = MIN(item->last_ev, m->limit) * 8u;
	}
	return v == 0 ? 1 : v;
}

/* A prompt or a text segment of one event is its line's strings, so the
 * raw line can rule it out. */
static bool
item_raw(const struct model *m, uint32_t it)
{
	const struct item *item = &m->it[it];

	return item->type == IT_PROMPT ||
	       (item->type == IT_TEXT && item->first_ev == item->last_ev);
}

/* Bytes of input behind item it: what decoding it costs. */
static size_t
item_bytes(const struct model *m, uint32_t it)
{
	const struct item *item = &m->it[it];
	size_t n = 0;

	if (item->type == IT_TOOL) {
		const struct call *c = &m->call[item->ref];

		if (c->start_ev != NONE)
			n += m->ev[c->start_ev].len;
		if (c->done_ev != NONE)
			n += m->ev[c->done_ev].len;
		return n;
	}
	for (uint32_t e = item->first_ev; e <= item->last_ev; e++)
		if (m->ev[e].item == it)
			n += m->ev[e].len;
	return n;
}

/* Keep the index entries for items [0, n), new ones empty. */
static void
cache_index(struct search *s, size_t n)
{
	size_t cap = s->ccap;

	if (n <= s->ncache)
		return;
	/* Both arrays grow from the same capacity to the same capacity. */
	ARRAY_RESERVE(s->coff, s->ccap, n);
	ARRAY_RESERVE(s->cstamp, cap, n);
	memset(s->cstamp + s->ncache, 0, (n - s->ncache) * sizeof *s->cstamp);
	s->ncache = n;
}

/* Remember the text of item it; the text of the item stored last is
 * replaced in place, so a growing item at the end costs no garbage. */
static void
cache_put(struct search *s, uint32_t it, uint32_t stamp, const char *t, size_t n)
{
	uint32_t len = (uint32_t)n;

	if (s->cfull || n > UINT32_MAX - 4)
		return;
	if (s->cstamp[it] != 0) {
		uint32_t old;

		memcpy(&old, s->ctext.p + s->coff[it], 4);
		if ((size_t)s->coff[it] + 4 + old == s->ctext.n)
			s->ctext.n = s->coff[it];
		s->cstamp[it] = 0;
	}
	if (s->ctext.cap == 0)
		buf_reserve(&s->ctext, SEARCH_CACHE_BYTES);
	if (s->ctext.n + 4 + n + 1 > SEARCH_CACHE_BYTES) {
		s->cfull = true;
		return;
	}
	s->coff[it] = (uint32_t)s->ctext.n;
	buf_add(&s->ctext, &len, 4);
	buf_add(&s->ctext, t, n);
	s->cstamp[it] = stamp;
}

/* The matches in t[0..n), item it's text just decoded, which the cache
 * keeps when it can. */
static uint32_t
text_count(struct search *s, uint32_t it, uint32_t stamp, const char *t, size_t n)
{
	cache_put(s, it, stamp, t, n);
	return search_count(s, t, n);
}

/* Whether item it is left out: its type hidden, or not among the items
 * searched. */
static bool
skipped(const struct search *s, uint32_t it)
{
	if (s->hide & (1u << s->m->it[it].type))
		return true;
	return s->only != NULL &&
	       (it >= s->nonly || !(s->only[it / 64] & ((uint64_t)1 << (it % 64))));
}

/* Whether the detail of call c may show the pattern: its events' raw
 * bytes may hold it (nothing a detail shows holds a newline). */
static bool
detail_maybe(const struct search *s, const struct model *m, uint32_t c)
{
	const struct call *call = &m->call[c];
	const char *p;
	size_t n;

	if (memchr(s->pat.p, '\n', s->pat.n) != NULL)
		return false;
	if (call->start_ev != NONE) {
		p = model_line(m, call->start_ev, &n);
		if (search_raw_maybe(s, p, n))
			return true;
	}
	if (model_seen(m, call->done_ev)) {
		p = model_line(m, call->done_ev, &n);
		if (search_raw_maybe(s, p, n))
			return true;
	}
	return false;
}

/* Decode what item p->item needs for the search into out, on either
 * thread (m, det and td that thread's): its text unless it is cached
 * (p->cached), and after it, for a call whose events may hold the
 * pattern, what its detail shows; the call's line then comes with the
 * detail, whose parse it shares. */
static void
item_decode(const struct search *s, struct model *m, struct detail *det, struct tool_desc *td,
	    struct search_plan *p, struct buf *out)
{
	const struct item *item = &m->it[p->item];

	p->off = out->n;
	p->len = p->dlen = 0;
	p->line = false;
	if (item->type == IT_TOOL && detail_maybe(s, m, item->ref)) {
		detail_build(det, item->ref, 0, false);
		words_call(m, item->ref, &det->td, out);
		p->line = true;
		p->len = out->n - p->off;
		buf_add(out, det->text.p, det->text.n);
		p->dlen = det->text.n;
		return;
	}
	if (!p->cached) {
		words_item(m, p->item, WORDS_BODY, td, out);
		p->line = true;
		p->len = out->n - p->off;
	}
}

/* The matches of an item decoded as p says, in t (the decoding thread's
 * buffer); those in its text in *shown. */
static uint32_t
plan_count(struct search *s, const struct search_plan *p, const char *t, uint32_t *shown)
{
	uint32_t stamp = item_stamp(s->m, p->item), len;

	if (p->line && !p->cached) {
		*shown = text_count(s, p->item, stamp, t + p->off, p->len);
	} else if (p->line) {
		/* Decoded with its detail: the cache has it already. */
		*shown = search_count(s, t + p->off, p->len);
	} else {
		memcpy(&len, s->ctext.p + s->coff[p->item], 4);
		*shown = search_count(s, s->ctext.p + s->coff[p->item] + 4, len);
	}
	return *shown + (p->dlen > 0 ? search_count(s, t + p->off + p->len, p->dlen) : 0);
}

/* The matches in item it (in *shown, those of its text), counting the
 * work done in *work as step_plan does: the bytes of input looked at, or
 * of cached text. */
static uint32_t
item_count(struct search *s, uint32_t it, size_t *work, uint32_t *shown)
{
	struct model *m = s->m;
	const struct item *item = &m->it[it];
	uint32_t stamp, len;
	struct search_plan p = {.item = it};

	*shown = 0;
	if (skipped(s, it))
		return 0;
	if (item_raw(m, it)) {
		size_t n;
		const char *raw = model_line(m, item->first_ev, &n);

		*work += n;
		if (!search_raw_maybe(s, raw, n))
			return 0;
		buf_reset(&s->text);
		model_item_text(m, it, &s->text);
		return *shown = search_count(s, s->text.p, s->text.n);
	}
	stamp = item_stamp(m, it);
	p.cached = s->cstamp[it] == stamp;
	if (p.cached && item->type != IT_TOOL) {
		memcpy(&len, s->ctext.p + s->coff[it], 4);
		*work += len;
		return *shown = search_count(s, s->ctext.p + s->coff[it] + 4, len);
	}
	buf_reset(&s->text);
	item_decode(s, m, &s->det, &s->td, &p, &s->text);
	*work += item_bytes(m, it);
	return plan_count(s, &p, s->text.p ? s->text.p : "", shown);
}

bool
search_warm(struct search *s, size_t budget)
{
	struct model *m = s->m;
	size_t work = 0;

	cache_index(s, m->nit);
	while (s->warm < m->nit && work < budget && !s->cfull) {
		uint32_t it = s->warm++, stamp;

		if (item_raw(m, it) || s->cstamp[it] == (stamp = item_stamp(m, it)))
			continue;
		buf_reset(&s->text);
		words_item(m, it, WORDS_BODY, &s->td, &s->text);
		work += item_bytes(m, it) + s->text.n;
		cache_put(s, it, stamp, s->text.p ? s->text.p : "", s->text.n);
	}
	return s->warm < m->nit && !s->cfull;
}

/* The first item that may still change: open text and thinking, calls
 * with no completed event. */
static uint32_t
volatile_items(const struct model *m)
{
	uint32_t v = (uint32_t)model_nitems(m);

	/* In a replay the cut-off may go through the last item shown. */
	if (m->limit != NONE && v > 0)
		v--;
	for (size_t i = 0; i < m->nsrc; i++) {
		if (m->src[i].text_item != NONE)
			v = MIN(v, m->src[i].text_item);
		if (m->src[i].think_item != NONE)
			v = MIN(v, m->src[i].think_item);
	}
	/* An orphaned call is over; a running one may complete or be
	 * orphaned when its session ends. */
	for (size_t c = model_ncalls(m); c-- > 0;)
		if ((m->call[c].done_ev == NONE || m->limit != NONE) &&
		    model_call_state(m, (uint32_t)c) == CS_RUNNING)
			v = MIN(v, m->call[c].item);
	return v;
}

/* Search again from item r on: the hits before it stand. */
static void
search_rewind(struct search *s, uint32_t r)
{
	size_t h = search_hit_from(s, r);

	s->nhit = h;
	s->total = h > 0 ? s->hit[h - 1].before + s->hit[h - 1].count : 0;
	s->next = MIN(s->next, r);
}

/* Record that item it holds count matches, shown of them in its text
 * (none: nothing to record). */
static void
step_add(struct search *s, uint32_t it, uint32_t count, uint32_t shown)
{
	if (count == 0)
		return;
	ARRAY_RESERVE(s->hit, s->hcap, s->nhit + 1);
	s->hit[s->nhit].item = it;
	s->hit[s->nhit].count = count;
	s->hit[s->nhit].before = s->total;
	s->hit[s->nhit].shown = shown;
	s->nhit++;
	s->total += count;
}

/* Plan the next step: the items from s->next up to the one returned, about
 * budget bytes of work as item_count counts it, and in s->plan those whose
 * text is to be decoded; the bytes of input behind these in *decode. */
static uint32_t
step_plan(struct search *s, size_t budget, size_t *decode)
{
	struct model *m = s->m;
	uint32_t it = s->next, n = (uint32_t)model_nitems(m), len;
	size_t work = 0;

	s->nplan = 0;
	*decode = 0;
	for (; it < n && work < budget; it++) {
		const struct item *item = &m->it[it];
		bool cached;
		size_t cost;

		if (skipped(s, it))
			continue;
		if (item_raw(m, it)) {
			work += m->ev[item->first_ev].len;
			continue;
		}
		cached = s->cstamp[it] == item_stamp(m, it);
		/* A call's events are looked at for its detail all the same. */
		if (cached && item->type != IT_TOOL) {
			memcpy(&len, s->ctext.p + s->coff[it], 4);
			work += len;
			continue;
		}
		cost = item_bytes(m, it);
		ARRAY_RESERVE(s->plan, s->pcap, s->nplan + 1);
		memset(&s->plan[s->nplan], 0, sizeof *s->plan);
		s->plan[s->nplan].item = it;
		s->plan[s->nplan++].cached = cached;
		*decode += cost;
		work += cost;
	}
	return it;
}

/* One step on two threads, when it has enough to decode: both decode the
 * planned items, taking them one at a time, then this one searches the
 * step's items in order, as item_count would one by one: the same matches,
 * the same cache. False, with nothing done, when the step is small. */
static bool
step_shared(struct search *s, size_t budget)
{
	struct search_helper *h;
	size_t decode, work = 0, i = 0;
	uint32_t end, it;

	if (s->helper_min == SIZE_MAX)
		return false;
	end = step_plan(s, budget, &decode);
	if (s->nplan < 2 || decode < s->helper_min)
		return false;
	if (!helper_start(s)) {
		s->helper_min = SIZE_MAX;
		return false;
	}
	h = s->helper;
	helper_decode(s, s->plan, s->nplan);
	for (it = s->next; it < end; it++) {
		uint32_t count, shown;

		if (i < s->nplan && s->plan[i].item == it) {
			const struct search_plan *p = &s->plan[i++];
			const char *t = p->helper ? h->text.p : h->mine.p;

			count = plan_count(s, p, t != NULL ? t : "", &shown);
		} else {
			count = item_count(s, it, &work, &shown);
		}
		step_add(s, it, count, shown);
	}
	s->next = end;
	/* A huge item leaves a huge buffer: keep a few steps' worth. */
	if (h->text.cap > HELPER_KEEP_BYTES)
		buf_free(&h->text);
	if (h->mine.cap > HELPER_KEEP_BYTES)
		buf_free(&h->mine);
	return true;
}

bool
search_step(struct search *s, size_t budget)
{
	struct model *m = s->m;
	size_t work = 0;

	if (!search_active(s))
		return false;
	if (m->nev != s->seen_nev || m->nses != s->seen_nses || model_ended(m) != s->seen_ended ||
	    m->limit != s->seen_limit) {
		/* Search again what might have changed, judged both before
		 * and after the change: a replay that went back cuts through
		 * an item the old position showed whole. */
		search_rewind(s, MIN(MIN(s->volatile_from, volatile_items(m)),
				     (uint32_t)model_nitems(m)));
		s->seen_nev = m->nev;
		s->seen_nses = m->nses;
		s->seen_ended = model_ended(m);
		s->seen_limit = m->limit;
	}
	cache_index(s, m->nit);
	if (!step_shared(s, budget)) {
		while (s->next < model_nitems(m) && work < budget) {
			uint32_t it = s->next++, shown, count = item_count(s, it, &work, &shown);

			step_add(s, it, count, shown);
		}
	}
	s->volatile_from = volatile_items(m);
	return s->next < model_nitems(m);
}

size_t
search_hit_from(const struct search *s, uint32_t it)
{
	size_t lo = 0, hi = s->nhit;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->hit[mid].item < it)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void
search_only(struct search *s, const uint64_t *only, size_t n)
{
	s->only = only;
	s->nonly = only != NULL ? n : 0;
	s->gen++;
	search_rewind_all(s);
}

/* --- in a detail on screen ------------------------------------------------- */

/* Walk the matches of detail d, line by line, until fn says stop (true);
 * j counts them from 0. */
typedef bool (*detail_visit)(uint64_t j, size_t row, size_t a, size_t b, void *ctx);

static uint64_t
detail_walk(const struct search *s, const struct detail *d, detail_visit fn, void *ctx)
{
	uint64_t j = 0;
	size_t row = 0;

	if (!search_active(s))
		return 0;
	while (row < d->nrow) {
		size_t first, end, a, b, ma, mb, from;

		if (!detail_line(d, row, &first, &end, &a, &b)) {
			row++;
			continue;
		}
		from = 0;
		while (search_find(s, d->text.p + a, b - a, from, &ma, &mb)) {
			size_t at = first;

			/* The row the match starts on. */
			while (at + 1 < end && d->row[at + 1].off <= a + ma)
				at++;
			if (fn != NULL && fn(j, at, a + ma, a + mb, ctx))
				return j;
			j++;
			from = mb;
		}
		row = end;
	}
	return j;
}

uint64_t
search_detail_count(const struct search *s, const struct detail *d)
{
	return detail_walk(s, d, NULL, NULL);
}

/* What detail_walk looks for, and where it found it. */
struct detail_seek {
	uint64_t j;    /* match j, or UINT64_MAX: by row */
	size_t row;    /* the row to start from */
	bool back;     /* the last match before row */
	uint64_t last; /* UINT64_MAX: none yet */
	size_t at, a, b;
};

static bool
seek_visit(uint64_t j, size_t row, size_t a, size_t b, void *ctx)
{
	struct detail_seek *k = ctx;

	if (k->j != UINT64_MAX) {
		if (j != k->j)
			return false;
	} else if (k->back) {
		if (row >= k->row)
			return true;
		k->last = j;
		return false;
	} else if (row < k->row) {
		return false;
	}
	k->last = j;
	k->at = row;
	k->a = a;
	k->b = b;
	return true;
}

bool
search_detail_match(const struct search *s, const struct detail *d, uint64_t j, size_t *row,
		    size_t *a, size_t *b)
{
	struct detail_seek k = {.j = j, .last = UINT64_MAX};

	detail_walk(s, d, seek_visit, &k);
	if (k.last == UINT64_MAX)
		return false;
	*row = k.at;
	*a = k.a;
	*b = k.b;
	return true;
}

bool
search_detail_from(const struct search *s, const struct detail *d, size_t row, bool back,
		   uint64_t *j)
{
	struct detail_seek k = {.j = UINT64_MAX, .row = row, .back = back, .last = UINT64_MAX};

	detail_walk(s, d, seek_visit, &k);
	if (k.last == UINT64_MAX)
		return false;
	*j = k.last;
	return true;
}
