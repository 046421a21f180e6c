/* ahead.c: a second thread parsing the lines of a whole file ahead of the
 * model, chunk by chunk.
 *
 * Chunk n holds the lines that start in bytes [from + n * AHEAD_CHUNK,
 * from + (n + 1) * AHEAD_CHUNK): either thread can find them without the
 * chunks before. A chunk's lines are parsed into one buffer (their tokens,
 * saved with json_save, and the keys the model looks up). Chunks are
 * claimed in order from an atomic counter by whichever thread is free: the
 * worker all the time, and the model when the chunk it needs next is not
 * ready yet (it helps instead of waiting). At most AHEAD_WINDOW chunks are
 * in flight; when they all are, the worker sleeps until the model is done
 * with one, so an idle model costs no CPU. Hand-overs are a few atomic
 * operations per chunk of about 300 lines, never per line. */
#include "ahead.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "glyph.h"
#include "util.h"

/* Bytes of line starts per chunk: a hand-over for some hundreds of lines,
 * small enough that the model has the first ones soon. */
#define AHEAD_CHUNK (16u << 10)
/* Chunks in flight, each a buffer reused in turn. */
#define AHEAD_WINDOW 8
/* A line whose tokens take more is not kept: the model parses it. */
#define AHEAD_MAX_SAVED (1u << 20)
/* A chunk buffer's tokens above this are freed before it is used again:
 * a chunk of unusually many tokens does not make every buffer big. */
#define AHEAD_TOK_KEEP (64u << 10)
/* Keys kept per line (the model looks up the adapters' top keys). */
#define AHEAD_KEYS JSON_KEYS_MAX

enum { C_FREE, C_BUSY, C_READY };

/* One line of a chunk. */
struct aline {
	size_t off, len;  /* as the model will ask for it */
	size_t tok, ntok; /* its saved tokens: bytes [tok, tok + ntok) */
	bool kept;        /* parsed without error and saved */
	int k[AHEAD_KEYS];
};

/* A chunk's buffer; aligned so that the two threads' stores to different
 * buffers do not share a cache line. */
struct chunk {
	_Alignas(64) atomic_int state;
	size_t idx;         /* the chunk it holds */
	struct aline *line; /* owned */
	size_t nline, linecap;
	char *tok; /* owned: the saved tokens */
	size_t ntok, tokcap;
};

struct ahead {
	const char *data; /* borrowed: the source's bytes */
	size_t size, from, nchunks;
	struct chunk chunk[AHEAD_WINDOW];
	_Alignas(64) atomic_size_t next;     /* the first chunk not claimed */
	_Alignas(64) atomic_size_t consumed; /* chunks the model is done with */
	_Alignas(64) atomic_bool sleeping;   /* the worker waits for room */
	atomic_bool mwaiting;                /* the model waits for a chunk */
	atomic_bool stop;
	pthread_mutex_t lock;
	pthread_cond_t wake;  /* the worker's */
	pthread_cond_t ready; /* the model's */
	pthread_t thread;
	bool started;
	struct json *wjson; /* the worker's parser and keys */
	struct json_keys wkeys;
	struct json *mjson; /* the model thread's, for chunks it parses */
	struct json_keys mkeys;
	size_t cur, li;      /* the model's chunk and line in it */
	bool broken;         /* the model's lines are not the chunks' */
	ahead_skip_fn *skip; /* lines left unparsed, or NULL */
};

static const char bom[3] = GLYPH_BOM;

/* Offset of the first line that starts at or after x. */
static size_t
line_start(const struct ahead *a, size_t x)
{
	const char *nl;

	if (x <= a->from)
		return a->from;
	if (x >= a->size)
		return a->size;
	nl = memchr(a->data + x - 1, '\n', a->size - (x - 1));
	return nl != NULL ? (size_t)(nl - a->data) + 1 : a->size;
}

/* Claim the next chunk: its number, or SIZE_MAX when there is none left
 * (*full false) or no room for one (*full true). */
static size_t
ahead_claim(struct ahead *a, bool *full)
{
	size_t n = atomic_load(&a->next);

	*full = false;
	for (;;) {
		if (n >= a->nchunks)
			return SIZE_MAX;
		if (n >= atomic_load(&a->consumed) + AHEAD_WINDOW) {
			*full = true;
			return SIZE_MAX;
		}
		if (atomic_compare_exchange_weak(&a->next, &n, n + 1))
			return n;
	}
}

/* Parse chunk n with parser j and keys ks into its buffer, then hand it
 * over. The buffer is the claimer's: chunk n - AHEAD_WINDOW is done. */
static void
ahead_parse(struct ahead *a, size_t n, struct json *j, struct json_keys *ks)
{
	struct chunk *c = &a->chunk[n % AHEAD_WINDOW];
	size_t lo = a->from + n * AHEAD_CHUNK;
	size_t hi = MIN(lo + AHEAD_CHUNK, a->size);
	size_t pos = line_start(a, lo);

	c->idx = n;
	c->nline = 0;
	c->ntok = 0;
	if (c->tokcap > AHEAD_TOK_KEEP) {
		free(c->tok);
		c->tok = NULL;
		c->tokcap = 0;
	}
	while (pos < hi) {
		const char *p = a->data + pos;
		const char *nl = memchr(p, '\n', a->size - pos);
		size_t len = nl != NULL ? (size_t)(nl - p) : a->size - pos;
		size_t pn = len;
		struct aline *l;

		ARRAY_RESERVE(c->line, c->linecap, c->nline + 1);
		l = &c->line[c->nline++];
		l->off = pos;
		l->len = len;
		l->kept = false;
		if (pos == 0 && pn >= 3 && memcmp(p, bom, 3) == 0) {
			p += 3;
			pn -= 3;
		}
		if ((a->skip == NULL || !a->skip(p, pn)) && json_parse(j, p, pn) == JSON_OK &&
		    json_saved_size(j) <= AHEAD_MAX_SAVED) {
			l->ntok = json_saved_size(j);
			if (c->ntok + l->ntok > c->tokcap) {
				c->tokcap = MAX(c->ntok + l->ntok, 2 * c->tokcap);
				c->tok = xrealloc(c->tok, c->tokcap);
			}
			l->tok = c->ntok;
			json_save(j, c->tok + c->ntok);
			c->ntok += l->ntok;
			json_getk(j, 0, ks, l->k);
			l->kept = true;
		}
		pos += len + (nl != NULL);
	}
	atomic_store(&c->state, C_READY);
	if (atomic_load(&a->mwaiting) && atomic_exchange(&a->mwaiting, false)) {
		pthread_mutex_lock(&a->lock);
		pthread_cond_signal(&a->ready);
		pthread_mutex_unlock(&a->lock);
	}
}

/* The model needs chunk c, which the worker is parsing: spin a little
 * (chunks take tens of microseconds), then sleep until it is ready. */
static void
ahead_await(struct ahead *a, struct chunk *c)
{
	for (int i = 0; i < 2000; i++)
		if (atomic_load_explicit(&c->state, memory_order_acquire) == C_READY)
			return;
	pthread_mutex_lock(&a->lock);
	atomic_store(&a->mwaiting, true);
	while (atomic_load(&a->mwaiting) && atomic_load(&c->state) != C_READY)
		pthread_cond_wait(&a->ready, &a->lock);
	atomic_store(&a->mwaiting, false);
	pthread_mutex_unlock(&a->lock);
}

/* The worker: claim and parse chunks until none is left. */
static void *
ahead_run(void *arg)
{
	struct ahead *a = arg;

	while (!atomic_load(&a->stop)) {
		bool full;
		size_t n = ahead_claim(a, &full);

		if (n != SIZE_MAX) {
			ahead_parse(a, n, a->wjson, &a->wkeys);
			continue;
		}
		if (!full)
			break;
		pthread_mutex_lock(&a->lock);
		atomic_store(&a->sleeping, true);
		while (atomic_load(&a->sleeping) && !atomic_load(&a->stop) &&
		       atomic_load(&a->next) >= atomic_load(&a->consumed) + AHEAD_WINDOW)
			pthread_cond_wait(&a->wake, &a->lock);
		atomic_store(&a->sleeping, false);
		pthread_mutex_unlock(&a->lock);
	}
	return NULL;
}

struct ahead *
ahead_start(const char *data, size_t size, size_t from, const struct json_keys *keys,
	    ahead_skip_fn *skip)
{
	struct ahead *a;

	if (keys->n > AHEAD_KEYS)
		return NULL;
	a = xcalloc(1, sizeof *a);
	a->data = data;
	a->skip = skip;
	a->size = size;
	a->from = from;
	a->nchunks = size > from ? (size - from + AHEAD_CHUNK - 1) / AHEAD_CHUNK : 0;
	for (int i = 0; i < AHEAD_WINDOW; i++)
		atomic_init(&a->chunk[i].state, C_FREE);
	atomic_init(&a->next, 0);
	atomic_init(&a->consumed, 0);
	atomic_init(&a->sleeping, false);
	atomic_init(&a->mwaiting, false);
	atomic_init(&a->stop, false);
	a->wjson = json_new();
	a->mjson = json_new();
	a->wkeys = *keys;
	a->mkeys = *keys;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->wake, NULL);
	pthread_cond_init(&a->ready, NULL);
	if (pthread_create(&a->thread, NULL, ahead_run, a) != 0) {
		ahead_stop(a);
		return NULL;
	}
	a->started = true;
	return a;
}

/* The model is done with its chunk: free the buffer, wake the worker. */
static void
ahead_release(struct ahead *a, struct chunk *c)
{
	atomic_store(&c->state, C_FREE);
	a->cur++;
	a->li = 0;
	atomic_store(&a->consumed, a->cur);
	if (atomic_load(&a->sleeping) && atomic_exchange(&a->sleeping, false)) {
		pthread_mutex_lock(&a->lock);
		pthread_cond_signal(&a->wake);
		pthread_mutex_unlock(&a->lock);
	}
}

bool
ahead_take(struct ahead *a, size_t off, size_t len, const char *p, size_t n, struct json *j, int *k)
{
	while (!a->broken && a->cur < a->nchunks) {
		struct chunk *c = &a->chunk[a->cur % AHEAD_WINDOW];
		bool full;
		size_t claim;

		if (atomic_load_explicit(&c->state, memory_order_acquire) == C_READY &&
		    c->idx == a->cur) {
			const struct aline *l;

			if (a->li == c->nline) {
				ahead_release(a, c);
				continue;
			}
			l = &c->line[a->li++];
			/* One the model passed over unparsed (its agent's skip,
			 * a running total read late): not asked for. */
			if (l->off < off)
				continue;
			if (l->off != off || l->len != len) {
				a->broken = true; /* lines split otherwise */
				break;
			}
			if (!l->kept)
				return false; /* an error, or huge: parse again */
			json_restore(j, p, n, c->tok + l->tok, l->ntok);
			memcpy(k, l->k, (size_t)a->mkeys.n * sizeof *k);
			return true;
		}
		/* Not ready: parse the next chunk nobody has claimed, rather
		 * than wait; wait only when all are claimed. */
		claim = ahead_claim(a, &full);
		if (claim != SIZE_MAX)
			ahead_parse(a, claim, a->mjson, &a->mkeys);
		else
			ahead_await(a, c);
	}
	return false;
}

void
ahead_stop(struct ahead *a)
{
	if (a == NULL)
		return;
	atomic_store(&a->stop, true);
	pthread_mutex_lock(&a->lock);
	atomic_store(&a->sleeping, false);
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
	if (a->started)
		pthread_join(a->thread, NULL);
	for (int i = 0; i < AHEAD_WINDOW; i++) {
		free(a->chunk[i].line);
		free(a->chunk[i].tok);
	}
	json_free(a->wjson);
	json_free(a->mjson);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->wake);
	pthread_cond_destroy(&a->ready);
	free(a);
}
