/* fuzz.h: what the fuzz harnesses and their driver share: the check that
 * aborts (so that libFuzzer keeps the input), and small helpers. */
#ifndef AGENTVIEW_FUZZ_H
#define AGENTVIEW_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed property: say which, and abort. */
#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			abort(); \
		} \
	} while (0)

/* Whether s[0..n) is valid UTF-8 (U+FFFD only where it was written). */
static inline bool
fuzz_utf8_ok(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);

		if (cp == 0xFFFD && !(k == 3 && memcmp(s + i, "\xEF\xBF\xBD", 3) == 0))
			return false;
		i += k;
	}
	return true;
}

/* The bytes of a file (owned by the caller), or NULL. */
static inline char *
fuzz_read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	size_t len = 0, cap = 0, r;

	if (f == NULL)
		return NULL;
	do {
		if (cap - len < 65536) {
			cap = cap * 2 + 65536;
			p = xrealloc(p, cap);
		}
		r = fread(p + len, 1, cap - len, f);
		len += r;
	} while (r > 0);
	fclose(f);
	*n = len;
	return p;
}

#endif
