/* bench_reply.h: a reply's Markdown as agents write them, made for the
 * benchmarks (bench_markdown.c parses and lays it out, bench_view.c
 * streams it in deltas): the same bytes on every run. */
#ifndef AGENTVIEW_BENCH_REPLY_H
#define AGENTVIEW_BENCH_REPLY_H

#include "util.h"

/* A reply as agents write them, section after section, to size bytes. */
static inline void
bench_reply(struct buf *b, size_t size)
{
	for (unsigned i = 1; b->n < size; i++) {
		buf_addf(b, "## Step %u: fix the `parser` module\n\n", i);
		buf_addf(b,
			 "The test **failed** because the *old* flags were kept; see [the log]"
			 "(https://ci.example.com/run/%u) and https://example.com/issue/%u. "
			 "Nothing else changed, so the cause is in `src/parse.c` near line %u, "
			 "where the buffer is reused without being reset between two calls.\n\n",
			 i, i, 100 + i);
		buf_adds(b,
			 "1. Clean the tree\n2. Build with `-Werror`:\n   ```sh\n"
			 "   make clean && make -j2 WERROR=-Werror all 2>&1 | tee build.log | grep "
			 "-E 'error|warning'\n   ```\n3. Run the tests again\n"
			 "   - [x] unit\n   - [ ] screen\n\n");
		buf_adds(b, "> **Note:** the cache lives in `~/.cache/agentview` and survives a "
			    "clean build; remove it by hand.\n\n");
		buf_adds(b, "| test | time | result |\n|------|-----:|--------|\n"
			    "| unit | 12 s | ok |\n| screen | 3 m | **failed** twice |\n\n");
		buf_adds(b,
			 "```c\nstatic int\nparse(struct parser *p, const char *s, size_t n)\n{\n"
			 "\tbuf_reset(&p->out);\n\treturn parse_line(p, s, n);\n}\n```\n\n");
	}
}

#endif
