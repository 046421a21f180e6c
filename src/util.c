/* util.c: allocation, arrays, buffers, clocks, small formatters. */
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void (*die_hook)(void);

void
die_set_hook(void (*hook)(void))
{
	die_hook = hook;
}

void
die(const char *fmt, ...)
{
	va_list ap;

	if (die_hook != NULL) {
		void (*hook)(void) = die_hook;

		die_hook = NULL; /* a failing hook must not recurse */
		hook();
	}
	fputs("agentview: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		die("out of memory allocating %zu bytes", size);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		die("out of memory allocating %zu x %zu bytes", n, size);
	return p;
}

void *
xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);

	if (q == NULL)
		die("out of memory allocating %zu bytes", size);
	return q;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		die("allocation of %zu x %zu bytes overflows", n, size);
	return xrealloc(p, n * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void *
array_grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap;

	if (need <= ncap)
		return p;
	if (ncap < 16)
		ncap = 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 3)
			die("array of %zu elements is too large", need);
		ncap += ncap / 2;
	}
	p = xreallocarray(p, ncap, size);
	*cap = ncap;
	return p;
}

void
buf_reserve(struct buf *b, size_t extra)
{
	size_t need;

	if (extra > SIZE_MAX - b->n - 1)
		die("buffer of %zu bytes is too large", b->n);
	need = b->n + extra + 1;
	if (need > b->cap) {
		size_t ncap = b->cap < 64 ? 64 : b->cap;

		while (ncap < need)
			ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
		b->p = xrealloc(b->p, ncap);
		b->cap = ncap;
	}
}

void
buf_add(struct buf *b, const void *s, size_t n)
{
	buf_reserve(b, n);
	if (n > 0)
		memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addc(struct buf *b, char c)
{
	buf_reserve(b, 1);
	b->p[b->n++] = c;
	b->p[b->n] = '\0';
}

void
buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		die("bad format string");
	buf_reserve(b, (size_t)n);
	vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
	b->n += (size_t)n;
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void
buf_add_utf8(struct buf *b, uint32_t cp)
{
	char s[4];

	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		buf_addc(b, (char)cp);
	} else if (cp < 0x800) {
		s[0] = (char)(0xC0 | (cp >> 6));
		s[1] = (char)(0x80 | (cp & 0x3F));
		buf_add(b, s, 2);
	} else if (cp < 0x10000) {
		s[0] = (char)(0xE0 | (cp >> 12));
		s[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		s[2] = (char)(0x80 | (cp & 0x3F));
		buf_add(b, s, 3);
	} else {
		s[0] = (char)(0xF0 | (cp >> 18));
		s[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		s[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		s[3] = (char)(0x80 | (cp & 0x3F));
		buf_add(b, s, 4);
	}
}

void
buf_reset(struct buf *b)
{
	b->n = 0;
	if (b->cap > 0)
		b->p[0] = '\0';
}

void
buf_cut(struct buf *b, size_t n)
{
	if (n >= b->n)
		return;
	b->n = n;
	b->p[n] = '\0';
}

void
buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}

static int64_t
clock_ms(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) != 0)
		die("clock_gettime: %s", strerror(errno));
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
clock_wall_ms(void)
{
	return clock_ms(CLOCK_REALTIME);
}

int64_t
clock_mono_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

int64_t
clock_mono_us(void)
{
	return clock_mono_ns() / 1000;
}

int64_t
clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Read from /proc rather than getrusage: ru_maxrss counts the pages of a
 * mapped input file too, and the memory target is about what we allocate. */
long
mem_rss_anon_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "re");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "RssAnon: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

uint64_t
hash_bytes(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;

	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* v, or the end of the range it went past. */
static int64_t
ms_clamp(bool over, int64_t v, bool up)
{
	if (over)
		return up ? INT64_MAX : -INT64_MAX;
	return v == INT64_MIN ? -INT64_MAX : v;
}

int64_t
ms_add(int64_t a, int64_t b)
{
	int64_t v;
	bool over = __builtin_add_overflow(a, b, &v);

	return ms_clamp(over, v, b > 0);
}

int64_t
ms_sub(int64_t a, int64_t b)
{
	int64_t v;
	bool over = __builtin_sub_overflow(a, b, &v);

	return ms_clamp(over, v, b < 0);
}

int64_t
ms_scale(int64_t a, int64_t num, int64_t den)
{
	int64_t q = a / den, r = a % den, v;
	long double x = (long double)r * (long double)num / (long double)den;

	/* (q * den + r) * num / den: q * num exactly, r * num / den (|r| <
	 * den) in long double, within a unit. */
	if (__builtin_mul_overflow(q, num, &v))
		return (q < 0) != (num < 0) ? -INT64_MAX : INT64_MAX;
	if (x >= (long double)INT64_MAX || x <= -(long double)INT64_MAX)
		return ms_add(ms_clamp(false, v, false), x > 0 ? INT64_MAX : -INT64_MAX);
	return ms_add(ms_clamp(false, v, false), (int64_t)x);
}

void
fmt_duration(struct buf *b, int64_t ms)
{
	if (ms < 0)
		ms = 0;
	if (ms < 1000)
		buf_addf(b, "%d ms", (int)ms);
	else if (ms < 60000)
		buf_addf(b, "%.1f s", (double)ms / 1000.0);
	else if (ms < 3600000)
		buf_addf(b, "%dm%02ds", (int)(ms / 60000), (int)(ms / 1000 % 60));
	else if (ms < 86400000)
		buf_addf(b, "%dh%02dm", (int)(ms / 3600000), (int)(ms / 60000 % 60));
	else /* days can pass INT_MAX: a duration_ms near INT64_MAX */
		buf_addf(b, "%lldd%02dh", (long long)(ms / 86400000), (int)(ms / 3600000 % 24));
}

void
fmt_clock(struct buf *b, int64_t ms)
{
	int64_t s;

	if (ms < 0)
		ms = 0;
	s = ms / 1000;
	if (s >= 3600)
		buf_addf(b, "%lld:%02d:%02d", (long long)(s / 3600), (int)(s / 60 % 60),
			 (int)(s % 60));
	else
		buf_addf(b, "%02d:%02d", (int)(s / 60), (int)(s % 60));
}

void
fmt_count(struct buf *b, uint64_t n)
{
	if (n < 1000)
		buf_addf(b, "%llu", (unsigned long long)n);
	else if (n < 1000000)
		buf_addf(b, "%.1fk", (double)n / 1e3);
	else
		buf_addf(b, "%.1fM", (double)n / 1e6);
}

void
fmt_bytes(struct buf *b, uint64_t n)
{
	if (n < 1024)
		buf_addf(b, "%llu bytes", (unsigned long long)n);
	else if (n < 1024 * 1024)
		buf_addf(b, "%.1f KB", (double)n / 1024);
	else if (n < 1024ull * 1024 * 1024)
		buf_addf(b, "%.1f MB", (double)n / (1024 * 1024));
	else
		buf_addf(b, "%.1f GB", (double)n / (1024.0 * 1024 * 1024));
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void
base64_encode(struct buf *out, const void *s, size_t n)
{
	const unsigned char *p = s;
	size_t i;

	buf_reserve(out, (n + 2) / 3 * 4);
	for (i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];

		buf_addc(out, b64[v >> 18]);
		buf_addc(out, b64[(v >> 12) & 63]);
		buf_addc(out, b64[(v >> 6) & 63]);
		buf_addc(out, b64[v & 63]);
	}
	if (i < n) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);

		buf_addc(out, b64[v >> 18]);
		buf_addc(out, b64[(v >> 12) & 63]);
		buf_addc(out, i + 1 < n ? b64[(v >> 6) & 63] : '=');
		buf_addc(out, '=');
	}
}

void
base64_decode(struct buf *out, const char *s, size_t n)
{
	uint32_t v = 0;
	int bits = 0;

	for (size_t i = 0; i < n; i++) {
		const char *q;

		if (s[i] == '=')
			break;
		q = memchr(b64, s[i], 64);
		if (q == NULL || s[i] == '\0')
			break;
		v = v << 6 | (uint32_t)(q - b64);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf_addc(out, (char)((v >> bits) & 0xFF));
		}
	}
}
