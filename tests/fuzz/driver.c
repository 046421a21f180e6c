/* driver.c: runs a libFuzzer harness over files, without libFuzzer, so that
 * make test can build the harnesses with the usual compiler (under ASan and
 * UBSan) and check their properties on the seeds: they cannot rot between
 * fuzzing campaigns. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* The bytes of a file, or NULL when it cannot be read. */
static uint8_t *
read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
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

int
main(int argc, char **argv)
{
	int runs = 0;

	if (LLVMFuzzerInitialize != NULL)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		size_t n;
		uint8_t *p = read_file(argv[i], &n);

		if (p == NULL) {
			fprintf(stderr, "%s: cannot read\n", argv[i]);
			return 1;
		}
		LLVMFuzzerTestOneInput(p, n);
		free(p);
		runs++;
	}
	printf("%s: %d inputs\n", argv[0], runs);
	return 0;
}
