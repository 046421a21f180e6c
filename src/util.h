/* util.h: allocation that never fails, growable arrays, byte buffers, die(). */
#ifndef AGENTVIEW_UTIL_H
#define AGENTVIEW_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))
#else
#define PRINTF_LIKE(f, a)
#define NORETURN
#endif

/* Print "agentview: msg" to stderr and exit(1), after running the hook
 * registered with die_set_hook (the screen uses it to restore the terminal). */
NORETURN void die(const char *fmt, ...) PRINTF_LIKE(1, 2);
void die_set_hook(void (*hook)(void));

/* Allocators that die on failure and on size overflow. */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Make room for at least `need` elements of `size` bytes in the array *p of
 * capacity *cap, growing by half again; new elements are not initialised. */
void *array_grow(void *p, size_t *cap, size_t need, size_t size);

/* ARRAY_RESERVE(v, cap, need): typed wrapper over array_grow. */
#define ARRAY_RESERVE(v, cap, need) \
	((need) > (cap) ? (void)((v) = array_grow((v), &(cap), (need), sizeof *(v))) : (void)0)

/* A growable byte buffer; `p` is always NUL-terminated when cap > 0.
 * The buffer owns `p`. */
struct buf {
	char *p;
	size_t n;
	size_t cap;
};

void buf_reserve(struct buf *b, size_t extra);
void buf_add(struct buf *b, const void *s, size_t n);
void buf_adds(struct buf *b, const char *s);
void buf_addc(struct buf *b, char c);
void buf_addf(struct buf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
void buf_vaddf(struct buf *b, const char *fmt, va_list ap) PRINTF_LIKE(2, 0);
/* Append code point cp as UTF-8 (U+FFFD for values that are not scalars). */
void buf_add_utf8(struct buf *b, uint32_t cp);
void buf_reset(struct buf *b);
/* Keep the first n bytes (n <= b->n): what was appended after a mark
 * taken back. */
void buf_cut(struct buf *b, size_t n);
void buf_free(struct buf *b);

/* Append the bytes that base64 text s[0..n) encodes; stops at the first
 * character that is not base64. */
void base64_decode(struct buf *out, const char *s, size_t n);
/* Append s[0..n) encoded as base64. */
void base64_encode(struct buf *out, const void *s, size_t n);

/* Milliseconds since the epoch (wall clock), and a monotonic clock in ms,
 * microseconds and nanoseconds. */
int64_t clock_wall_ms(void);
int64_t clock_mono_ms(void);
int64_t clock_mono_us(void);
int64_t clock_mono_ns(void);

/* Arithmetic on times and durations in ms that come from a stream (any
 * int64_t): a + b, a - b, and a * num / den (den > 0, rounded toward zero;
 * an axis's ticks and cells), each saturated to [-INT64_MAX, INT64_MAX]
 * instead of overflowing, so never INT64_MIN (TIME_NONE, which the caller
 * tests first). Every duration, offset and axis is computed with them. */
int64_t ms_add(int64_t a, int64_t b);
int64_t ms_sub(int64_t a, int64_t b);
int64_t ms_scale(int64_t a, int64_t num, int64_t den);

/* The process's resident anonymous memory (RssAnon of /proc/self/status)
 * in KiB, or -1 where there is no such file. For the memory figure of
 * `make bench`. */
long mem_rss_anon_kib(void);

/* 64-bit hash of n bytes (FNV-1a mixed with a finaliser). */
uint64_t hash_bytes(const void *p, size_t n, uint64_t seed);

/* Format a duration in ms as "850 ms", "12.3 s", "4m05s", "1h02m", "36d19h". */
void fmt_duration(struct buf *b, int64_t ms);
/* Format ms as a clock, "mm:ss" or "h:mm:ss". */
void fmt_clock(struct buf *b, int64_t ms);
/* Format a count with k/M suffixes: 950, 12.3k, 4.1M. */
void fmt_count(struct buf *b, uint64_t n);
/* "512 bytes", "14.2 KB", "3.0 MB" (1 KB = 1024 bytes). */
void fmt_bytes(struct buf *b, uint64_t n);

#endif
