/* colcheck.c: print, for each line of stdin, the display column (0-based,
 * in cells) of the first occurrence of the UTF-8 character CHAR, or -1;
 * with -l, of its last. The screen tests use it to check that wide text
 * keeps columns aligned:
 *
 *   colcheck [-l] CHAR < screen */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int
main(int argc, char **argv)
{
	char line[65536];
	wchar_t target;
	int last = argc == 3 && strcmp(argv[1], "-l") == 0;

	if (argc != 2 + last || setlocale(LC_ALL, "C.UTF-8") == NULL ||
	    mbtowc(&target, argv[argc - 1], strlen(argv[argc - 1])) <= 0) {
		fprintf(stderr, "usage: colcheck [-l] CHAR < screen\n");
		return 2;
	}
	while (fgets(line, sizeof line, stdin) != NULL) {
		const char *p = line;
		mbstate_t st;
		int col = 0, found = -1;
		wchar_t wc;
		size_t n;

		memset(&st, 0, sizeof st);
		while (*p != '\0' && *p != '\n' &&
		       (n = mbrtowc(&wc, p, strlen(p), &st)) != (size_t)-1 && n != (size_t)-2 &&
		       n != 0) {
			int w;

			if (wc == target) {
				found = col;
				if (!last)
					break;
			}
			w = wcwidth(wc);
			col += w > 0 ? w : 0;
			p += n;
		}
		printf("%d\n", found);
	}
	return 0;
}
