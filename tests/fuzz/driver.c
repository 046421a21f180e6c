/* driver.c: runs a libFuzzer harness over files, without libFuzzer, so that
 * make test can build the harnesses with the usual compiler (under ASan and
 * UBSan) and check their properties on the seeds: they cannot rot between
 * fuzzing campaigns. */
#include "fuzz.h"

/* Optional in a harness: a weak reference is NULL when it has none. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int
main(int argc, char **argv)
{
	int runs = 0;

	if (LLVMFuzzerInitialize != NULL)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		size_t n;
		char *p = fuzz_read_file(argv[i], &n);

		if (p == NULL) {
			fprintf(stderr, "%s: cannot read\n", argv[i]);
			return 1;
		}
		LLVMFuzzerTestOneInput((const uint8_t *)p, n);
		free(p);
		runs++;
	}
	printf("%s: %d inputs\n", argv[0], runs);
	return 0;
}
