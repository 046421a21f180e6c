/* gen_bench.c: writes a realistic stream-json recording of a given size for
 * `make bench`. Deterministic: a fixed seed and no clock, so the same size
 * gives the same bytes on every run and every machine.
 *
 *   tests/gen_bench SIZE_MB FILE    (FILE "-" is stdout)
 *
 * The mix follows what long agent sessions look like (issue 7): about 97 %
 * of the events are small thinking and assistant token deltas
 * (src/FORMAT.md §4: with recaps before tool calls and a final recap
 * before the result), about a third of the bytes are large tool results,
 * parallel calls complete in another order than they started, text mixes
 * English, Korean, German and emoji with JSON escapes (\n \t \" \\ \u00e9,
 * a few \u001b), call_ids hold an escaped newline, startedAtMs/completedAtMs
 * are strings, and a few lines are about 1 MB. Each session has init, user,
 * result and usage. A summary of the mix goes to stderr.
 *
 *   tests/gen_bench --fleet N SIZE_MB DIR
 *
 * writes N files of one session each, SIZE_MB in all, into DIR (made if
 * missing), for the session list's rows of `make bench`: one in twenty
 * failed, one incomplete (no result), one still running a tool call and
 * one waiting for a decision (named s00002-live.ndjson, s00003-ask.ndjson
 * ...: bench.sh makes those fresh), the rest ok. Their times are fixed:
 * file i was last written at 2026-09-01 plus i minutes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

/* Output buffer: written out whenever it holds this much. */
#define OUT_CHUNK (1u << 20)
/* One line of about 1 MB every this many bytes of output, the first early. */
#define BIG_EVERY 48000000ull
#define BIG_FIRST 3000000ull
#define BIG_SIZE (1u << 20)

/* A growable byte string. */
struct str {
	char *p;
	size_t n, cap;
};

/* What has been written, by kind, for the summary on stderr. */
struct stats {
	uint64_t bytes, events, deltas, results, result_bytes, big, sessions, calls;
};

/* The generator's state: the PRNG, the clock, the output. */
struct gen {
	uint64_t rng;
	int64_t ms; /* the stream's clock, ms since the epoch */
	FILE *out;
	struct str buf;  /* pending output */
	struct str line; /* the line being composed */
	struct str text; /* the session's assistant text, escaped */
	struct str seg;  /* the current segment's text, escaped */
	char sid[37];    /* session_id */
	char rid[37];    /* request_id */
	uint64_t next_big;
	struct stats st;
};

/* Die with a message: the generator has no error to recover from. */
static void
fail(const char *what)
{
	perror(what);
	exit(1);
}

/* Make room for n more bytes. */
static void
str_reserve(struct str *s, size_t n)
{
	if (s->n + n + 1 <= s->cap)
		return;
	while (s->n + n + 1 > s->cap)
		s->cap = s->cap ? s->cap * 2 : 4096;
	s->p = realloc(s->p, s->cap);
	if (s->p == NULL)
		fail("realloc");
}

/* Append n bytes. */
static void
str_add(struct str *s, const char *p, size_t n)
{
	str_reserve(s, n);
	memcpy(s->p + s->n, p, n);
	s->n += n;
	s->p[s->n] = '\0';
}

/* Append a C string. */
static void
str_adds(struct str *s, const char *p)
{
	str_add(s, p, strlen(p));
}

/* Append a signed decimal number. */
static void
str_addi(struct str *s, int64_t v)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof tmp, "%lld", (long long)v);

	str_add(s, tmp, (size_t)n);
}

/* splitmix64: small, fast and the same everywhere. */
static uint64_t
rnd(struct gen *g)
{
	uint64_t z = (g->rng += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* A number in [lo, hi]. */
static uint64_t
between(struct gen *g, uint64_t lo, uint64_t hi)
{
	return lo + rnd(g) % (hi - lo + 1);
}

/* True with probability pct/100. */
static int
chance(struct gen *g, unsigned pct)
{
	return rnd(g) % 100 < pct;
}

/* A lowercase UUID from the PRNG. */
static void
uuid(struct gen *g, char out[37])
{
	static const char hex[] = "0123456789abcdef";
	uint64_t a = rnd(g), b = rnd(g);

	for (int i = 0, k = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			out[i] = '-';
			continue;
		}
		out[i] = hex[(k < 16 ? a >> (4 * k) : b >> (4 * (k - 16))) & 15];
		k++;
	}
	out[36] = '\0';
}

/* Send the composed line (with its newline) to the output. */
static void
emit(struct gen *g)
{
	str_add(&g->line, "\n", 1);
	str_add(&g->buf, g->line.p, g->line.n);
	g->st.bytes += g->line.n;
	g->st.events++;
	g->line.n = 0;
	if (g->buf.n >= OUT_CHUNK) {
		if (fwrite(g->buf.p, 1, g->buf.n, g->out) != g->buf.n)
			fail("write");
		g->buf.n = 0;
	}
}

/* Tokens of assistant and thinking text, as they appear inside a JSON
 * string (already escaped). Most are ASCII words; some are Korean, German
 * or emoji; some are escapes. */
static const char *const words[] = {
	" the",        " test",       " run",      " file",
	" I'll",       " check",      " output",   " and",
	" then",       " fix",        " build",    " error",
	" in",         " src",        "/main.c",   ".",
	",",           " function",   " returns",  " value",
	" config",     " we",         " need",     " to",
	" update",     " it",         " now",      " looks",
	" good",       " command",    " is",       " a",
	" of",         " for",        " with",     " that",
	" this",       " line",       " change",   " 테스트를",
	" 실행합니다", " 파일",       " 확인",     "했습니다",
	" Größe",      " überprüfen", " Änderung", " müssen",
	" für",        " 🚀",          " ✅",        " 🔧",
	"\\n",         "\\n\\n",      "\\t",       " \\\"done\\\"",
	" C:\\\\tmp",  " caf\\u00e9", " `make`",   " **note**",
	" (ok)",       " 42",         " 3.14",     " — ",
};
/* A rare token that would recolour a terminal if printed raw. */
static const char esc_word[] = " \\u001b[31mred\\u001b[0m";

/* Lines of tool output (escaped, each ending in an escaped newline). */
static const char *const out_lines[] = {
	"src/main.c:42:\\tint status = run(argc, argv);\\n",
	"    at Object.<anonymous> (/home/dev/project/test/index.test.js:17:5)\\n",
	"PASS  test/parser.test.ts (12.3 s)\\n",
	"FAIL  test/render.test.ts\\n",
	"  ● render › draws the \\\"status\\\" bar\\n",
	"warning: unused variable ‘tmp’ [-Wunused-variable]\\n",
	"// Größe der Datei prüfen, bevor sie gelesen wird\\n",
	"// 파일 크기를 확인한 다음 읽습니다\\n",
	"static const char *path = \\\"C:\\\\\\\\Users\\\\\\\\dev\\\";\\n",
	"\\treturn strcmp(a->name, b->name);\\n",
	"}\\n",
	"\\n",
	"diff --git a/src/model.c b/src/model.c\\n",
	"@@ -120,7 +120,9 @@ static void add_text(struct model *m)\\n",
	"-\\tif (delta)\\n",
	"+\\tif (delta && !recap)\\n",
	"  café ✓ résumé naïve — ok 🚀\\n",
	"npm ERR! code ELIFECYCLE\\n",
	"\\u001b[32m✓\\u001b[0m 128 tests passed\\n",
	"total 48\\ndrwxr-xr-x  5 dev dev 4096 Oct  1 12:59 .\\n",
	"import { describe, it, expect } from \\\"vitest\\\";\\n",
	"    expect(parse(\\\"{\\\\\\\"a\\\\\\\":1}\\\")).toEqual({ a: 1 });\\n",
};

/* Append about `size` bytes of escaped tool output to s. */
static void
add_output(struct gen *g, struct str *s, size_t size)
{
	size_t start = s->n;

	while (s->n - start < size)
		str_adds(s, out_lines[rnd(g) % (sizeof out_lines / sizeof *out_lines)]);
}

/* Append one escaped text token (also to the text being recapped). */
static const char *
pick_word(struct gen *g)
{
	if (rnd(g) % 4096 == 0)
		return esc_word;
	return words[rnd(g) % (sizeof words / sizeof *words)];
}

/* The fields that end most events: session_id and timestamp_ms. */
static void
tail_ts(struct gen *g)
{
	str_adds(&g->line, ",\"session_id\":\"");
	str_adds(&g->line, g->sid);
	str_adds(&g->line, "\",\"timestamp_ms\":");
	str_addi(&g->line, g->ms);
	str_adds(&g->line, "}");
}

/* An assistant event whose text is t: a delta (timestamp, no
 * model_call_id), a recap (both) or a final recap (neither). */
static void
assistant(struct gen *g, const char *t, size_t n, const char *mcid, int ts)
{
	str_adds(
		&g->line,
		"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"");
	str_add(&g->line, t, n);
	str_adds(&g->line, "\"}]},\"session_id\":\"");
	str_adds(&g->line, g->sid);
	str_adds(&g->line, "\"");
	if (mcid != NULL) {
		str_adds(&g->line, ",\"model_call_id\":\"");
		str_adds(&g->line, mcid);
		str_adds(&g->line, "\"");
	}
	if (ts) {
		str_adds(&g->line, ",\"timestamp_ms\":");
		str_addi(&g->line, g->ms);
	}
	str_adds(&g->line, "}");
	emit(g);
}

/* A thinking phase: n deltas, then completed. */
static void
thinking(struct gen *g, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const char *w = pick_word(g);

		g->ms += (int64_t)between(g, 0, 30);
		str_adds(&g->line, "{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"");
		str_adds(&g->line, w);
		if (chance(g, 15))
			str_adds(&g->line, pick_word(g));
		str_adds(&g->line, "\"");
		tail_ts(g);
		emit(g);
		g->st.deltas++;
	}
	g->ms += (int64_t)between(g, 1, 50);
	str_adds(&g->line, "{\"type\":\"thinking\",\"subtype\":\"completed\"");
	tail_ts(g);
	emit(g);
}

/* A segment of n assistant token deltas, kept in g->seg for its recap. */
static void
segment(struct gen *g, unsigned n)
{
	g->seg.n = 0;
	for (unsigned i = 0; i < n; i++) {
		const char *w = pick_word(g);
		size_t len = strlen(w);

		g->ms += (int64_t)between(g, 0, 20);
		assistant(g, w, len, NULL, 1);
		str_add(&g->seg, w, len);
		str_add(&g->text, w, len);
		g->st.deltas++;
	}
}

/* The kinds of calls made, with their share in percent. */
enum kind { K_SHELL, K_READ, K_EDIT, K_GREP };

/* One tool call in flight. */
struct call {
	enum kind kind;
	char id[128];  /* escaped: holds "\n" */
	int64_t start; /* startedAtMs */
	int64_t end;   /* completedAtMs */
	unsigned out;  /* bytes of output */
	int variant;   /* 0 success, 1 failure, 2 rejected */
	char path[64];
};

static const char *const kind_key[] = {
	"shellToolCall",
	"readToolCall",
	"editToolCall",
	"grepToolCall",
};

/* The tool_call object's metadata siblings and closing brace. */
static void
call_meta(struct gen *g, const struct call *c, int done)
{
	str_adds(&g->line, ",\"hookAdditionalContexts\":[],\"toolCallId\":\"");
	str_adds(&g->line, c->id);
	str_adds(&g->line, "\",\"startedAtMs\":\"");
	str_addi(&g->line, c->start);
	str_adds(&g->line, "\"");
	if (done) {
		str_adds(&g->line, ",\"completedAtMs\":\"");
		str_addi(&g->line, c->end);
		str_adds(&g->line, "\"");
	}
	str_adds(&g->line, "}");
}

/* The args of a call. */
static void
call_args(struct gen *g, const struct call *c)
{
	switch (c->kind) {
	case K_SHELL:
		str_adds(&g->line, "\"args\":{\"command\":\"npm test -- ");
		str_adds(&g->line, c->path);
		str_adds(&g->line,
			 "\",\"workingDirectory\":\"\",\"timeout\":30000,\"toolCallId\":\"");
		str_adds(&g->line, c->id);
		str_adds(
			&g->line,
			"\",\"simpleCommands\":[\"npm\"],\"hasInputRedirect\":false,\"hasOutputRedirect\":false,"
			"\"parsingResult\":{\"parsingFailed\":false,\"executableCommands\":[{\"name\":\"npm\",\"args\":"
			"[{\"type\":\"word\",\"value\":\"test\"},{\"type\":\"word\",\"value\":\"--\"}],\"fullText\":\"npm test\"}],"
			"\"hasRedirects\":false,\"hasCommandSubstitution\":false,\"redirects\":[]},"
			"\"fileOutputThresholdBytes\":\"40000\",\"isBackground\":false,\"skipApproval\":false,"
			"\"timeoutBehavior\":\"TIMEOUT_BEHAVIOR_BACKGROUND\",\"hardTimeout\":86400000,"
			"\"description\":\"Run the tests\",\"closeStdin\":true,\"conversationId\":\"");
		str_adds(&g->line, g->sid);
		str_adds(&g->line, "\",\"adminCommandDenylist\":[],\"requestId\":\"");
		str_adds(&g->line, g->rid);
		str_adds(&g->line, "\"}");
		break;
	case K_READ:
		str_adds(&g->line, "\"args\":{\"path\":\"");
		str_adds(&g->line, c->path);
		str_adds(&g->line, "\"}");
		break;
	case K_EDIT:
		str_adds(&g->line, "\"args\":{\"path\":\"");
		str_adds(&g->line, c->path);
		str_adds(&g->line, "\",\"streamContent\":\"");
		add_output(g, &g->line, 600);
		str_adds(&g->line, "\"}");
		break;
	case K_GREP:
		str_adds(
			&g->line,
			"\"args\":{\"pattern\":\"TODO|FIXME\",\"caseInsensitive\":false,\"multiline\":false,\"toolCallId\":\"");
		str_adds(&g->line, c->id);
		str_adds(&g->line, "\",\"offset\":0}");
		break;
	}
}

/* The result object of a completed call, with its large output. */
static void
call_result(struct gen *g, const struct call *c)
{
	size_t before = g->line.n;

	switch (c->kind) {
	case K_SHELL:
		if (c->variant == 2) {
			str_adds(&g->line, "\"result\":{\"rejected\":{\"command\":\"npm test -- ");
			str_adds(&g->line, c->path);
			str_adds(
				&g->line,
				"\",\"workingDirectory\":\"/home/dev/project\",\"reason\":\"\",\"isReadonly\":false}}");
			break;
		}
		str_adds(&g->line,
			 c->variant ? "\"result\":{\"failure\":{" : "\"result\":{\"success\":{");
		str_adds(&g->line, "\"command\":\"npm test -- ");
		str_adds(&g->line, c->path);
		str_adds(&g->line, "\",\"workingDirectory\":\"\",\"exitCode\":");
		str_adds(&g->line, c->variant ? "1" : "0");
		str_adds(&g->line, ",\"signal\":\"\",\"stdout\":\"");
		add_output(g, &g->line, c->out / 2);
		str_adds(&g->line, "\",\"stderr\":\"\",\"executionTime\":");
		str_addi(&g->line, c->end - c->start);
		str_adds(&g->line, ",\"interleavedOutput\":\"");
		add_output(g, &g->line, c->out / 2);
		str_adds(&g->line, "\",\"localExecutionTimeMs\":");
		str_addi(&g->line, (c->end - c->start) / 2);
		str_adds(&g->line, c->variant ? ",\"aborted\":false}" : "}");
		str_adds(&g->line, ",\"isBackground\":false}");
		break;
	case K_READ:
		str_adds(&g->line, "\"result\":{\"success\":{\"content\":\"");
		add_output(g, &g->line, c->out);
		str_adds(&g->line, "\",\"isEmpty\":false,\"exceededLimit\":false,\"totalLines\":");
		str_addi(&g->line, (int64_t)c->out / 40);
		str_adds(&g->line, ",\"fileSize\":");
		str_addi(&g->line, (int64_t)c->out);
		str_adds(&g->line, ",\"path\":\"");
		str_adds(&g->line, c->path);
		str_adds(&g->line, "\",\"readRange\":{\"startLine\":1,\"endLine\":");
		str_addi(&g->line, (int64_t)c->out / 40);
		str_adds(&g->line, "},\"relatedCursorRulePaths\":[],\"relatedCursorRules\":[]}}");
		break;
	case K_EDIT:
		str_adds(&g->line, "\"result\":{\"success\":{\"path\":\"");
		str_adds(&g->line, c->path);
		str_adds(&g->line, "\",\"linesAdded\":3,\"linesRemoved\":1,\"diffString\":\"");
		add_output(g, &g->line, c->out / 3);
		str_adds(&g->line, "\",\"afterFullFileContent\":\"");
		add_output(g, &g->line, 2 * c->out / 3);
		str_adds(&g->line, "\",\"message\":\"Wrote the file\"}}");
		break;
	case K_GREP:
		str_adds(
			&g->line,
			"\"result\":{\"success\":{\"pattern\":\"TODO|FIXME\",\"path\":\"/home/dev/project\",\"outputMode\":\"content\","
			"\"workspaceResults\":{\"/home/dev/project\":{\"content\":{\"matches\":[");
		for (unsigned i = 0; g->line.n - before < c->out; i++) {
			if (i > 0)
				str_adds(&g->line, ",");
			str_adds(&g->line, "{\"file\":\"src/f");
			str_addi(&g->line, i);
			str_adds(&g->line, ".c\",\"matches\":[{\"lineNumber\":");
			str_addi(&g->line, (int64_t)between(g, 1, 2000));
			str_adds(&g->line, ",\"content\":\"");
			str_adds(&g->line,
				 out_lines[rnd(g) % (sizeof out_lines / sizeof *out_lines)]);
			str_adds(&g->line,
				 "\",\"contentTruncated\":false,\"isContextLine\":false}]}");
		}
		str_adds(
			&g->line,
			"],\"totalLines\":12,\"totalMatchedLines\":12,\"clientTruncated\":false,\"ripgrepTruncated\":false}}}}}");
		break;
	}
	g->st.result_bytes += g->line.n - before;
}

/* A tool_call event: started (args) or completed (args unless rejected,
 * and the result). */
static void
call_event(struct gen *g, const struct call *c, const char *mcid, int done)
{
	str_adds(&g->line, "{\"type\":\"tool_call\",\"subtype\":\"");
	str_adds(&g->line, done ? "completed" : "started");
	str_adds(&g->line, "\",\"call_id\":\"");
	str_adds(&g->line, c->id);
	str_adds(&g->line, "\",\"tool_call\":{\"");
	str_adds(&g->line, kind_key[c->kind]);
	str_adds(&g->line, "\":{");
	if (!done || c->variant != 2) {
		call_args(g, c);
		if (done)
			str_adds(&g->line, ",");
	}
	if (done)
		call_result(g, c);
	str_adds(&g->line, "}");
	call_meta(g, c, done);
	str_adds(&g->line, ",\"model_call_id\":\"");
	str_adds(&g->line, mcid);
	str_adds(&g->line, "\"");
	tail_ts(g);
	if (done)
		g->st.results++;
	emit(g);
}

/* A step that ends in tool calls: its segment's recap, then 1 to 4 calls
 * started in order (now and then out of order) and completed in another. */
static void
tool_step(struct gen *g, unsigned step)
{
	struct call calls[4];
	unsigned n = chance(g, 65) ? 1 : (unsigned)between(g, 2, 4);
	unsigned order[4];
	char mcid[64];
	char fc[37];

	snprintf(mcid, sizeof mcid, "%s-%u-%04x", g->rid, step, (unsigned)(rnd(g) & 0xffff));
	g->ms += (int64_t)between(g, 1, 5);
	assistant(g, g->seg.p, g->seg.n, mcid, 1);
	uuid(g, fc);
	for (unsigned i = 0; i < n; i++) {
		struct call *c = &calls[i];
		unsigned r = (unsigned)(rnd(g) % 100);
		char cu[37];

		uuid(g, cu);
		c->kind = r < 55 ? K_SHELL : r < 85 ? K_READ : r < 95 ? K_EDIT : K_GREP;
		snprintf(c->id, sizeof c->id, "call-%s-%u\\nfc_%s_%u", cu, i, fc, i);
		snprintf(c->path, sizeof c->path, "src/module_%u/file_%u.c",
			 (unsigned)between(g, 1, 40), (unsigned)between(g, 1, 400));
		c->variant = c->kind == K_SHELL ? (chance(g, 80) ? 0 : chance(g, 70) ? 1 : 2) : 0;
		/* Log-uniform-ish sizes: most a few KB, some tens of KB. */
		c->out = (unsigned)(1200u << between(g, 0, 5)) + (unsigned)between(g, 0, 3000);
		if (g->st.bytes >= g->next_big) {
			c->kind = K_READ;
			c->variant = 0;
			c->out = BIG_SIZE;
			g->next_big += BIG_EVERY;
			g->st.big++;
		}
		c->start = g->ms + (int64_t)between(g, 100, 300);
		c->end = c->start + (int64_t)between(g, 50, 8000);
		order[i] = i;
	}
	if (n > 1 && chance(g, 20)) { /* started out of index order */
		struct call t = calls[0];

		calls[0] = calls[1];
		calls[1] = t;
	}
	for (unsigned i = 0; i < n; i++) {
		g->ms += (int64_t)between(g, 0, 3);
		call_event(g, &calls[i], mcid, 0);
	}
	/* Completions in the order the calls end. */
	for (unsigned i = 1; i < n; i++)
		for (unsigned k = i; k > 0 && calls[order[k]].end < calls[order[k - 1]].end; k--) {
			unsigned t = order[k];

			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	for (unsigned i = 0; i < n; i++) {
		const struct call *c = &calls[order[i]];

		if (c->end > g->ms)
			g->ms = c->end;
		call_event(g, c, mcid, 1);
	}
	g->st.calls += n;
}

/* How a session ends. */
enum end {
	END_OK,     /* a result */
	END_FAILED, /* a result with is_error */
	END_NONE,   /* cut: no result */
	END_CALL,   /* still running: a call started, not completed */
	END_ASK,    /* still running: a decision asked for, no answer */
};

/* The end of a session that has no result: a call started, or a decision
 * asked for. */
static void
open_end(struct gen *g, enum end end)
{
	g->ms += 7;
	if (end == END_CALL) {
		str_adds(
			&g->line,
			"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"open-1\","
			"\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"npm run e2e\"}}}");
		tail_ts(g);
		emit(g);
	} else if (end == END_ASK) {
		str_adds(&g->line,
			 "{\"type\":\"interaction_query\",\"subtype\":\"request\","
			 "\"query_type\":\"webFetchRequestQuery\",\"query\":{\"id\":1,"
			 "\"webFetchRequestQuery\":{\"args\":{\"url\":\"https://example.com/\"}}}");
		tail_ts(g);
		emit(g);
	}
}

/* One whole session of about `size` bytes. */
static void
session(struct gen *g, uint64_t size, enum end end)
{
	uint64_t start = g->st.bytes;
	int64_t t0 = g->ms;
	unsigned step = 0;

	uuid(g, g->sid);
	uuid(g, g->rid);
	g->text.n = 0;
	str_adds(
		&g->line,
		"{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"login\",\"cwd\":\"/home/dev/프로젝트/größe\",\"session_id\":\"");
	str_adds(&g->line, g->sid);
	str_adds(&g->line,
		 "\",\"model\":\"Grok 4.7 256K Extra High\",\"permissionMode\":\"default\"}");
	emit(g);
	str_adds(
		&g->line,
		"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"");
	str_adds(
		&g->line,
		"Fix the failing tests in src/ and run \\\"npm test\\\" again.\\n테스트를 고쳐 주세요. Prüfe die Größe. 🚀");
	str_adds(&g->line, "\"}]},\"session_id\":\"");
	str_adds(&g->line, g->sid);
	str_adds(&g->line, "\"}");
	emit(g);
	for (;;) {
		thinking(g, (unsigned)between(g, 90, 370));
		segment(g, (unsigned)between(g, 30, 130));
		if (g->st.bytes - start >= size)
			break;
		tool_step(g, step++);
		if (chance(g, 5)) {
			g->ms += 5;
			str_adds(
				&g->line,
				"{\"type\":\"system\",\"subtype\":\"task_notification\",\"task_id\":\"t");
			str_addi(&g->line, step);
			str_adds(&g->line,
				 "\",\"status\":\"completed\",\"title\":\"npm run watch\"");
			tail_ts(g);
			emit(g);
		}
	}
	if (end != END_OK && end != END_FAILED) {
		open_end(g, end);
		g->st.sessions++;
		return;
	}
	/* The final recap repeats the last segment, with neither field. */
	assistant(g, g->seg.p, g->seg.n, NULL, 0);
	g->ms += (int64_t)between(g, 5, 50);
	str_adds(&g->line, "{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":");
	str_addi(&g->line, g->ms - t0);
	str_adds(&g->line, ",\"duration_api_ms\":");
	str_addi(&g->line, g->ms - t0);
	str_adds(&g->line, end == END_FAILED ? ",\"is_error\":true,\"result\":\""
					     : ",\"is_error\":false,\"result\":\"");
	str_add(&g->line, g->text.p, g->text.n);
	str_adds(&g->line, "\",\"session_id\":\"");
	str_adds(&g->line, g->sid);
	str_adds(&g->line, "\",\"request_id\":\"");
	str_adds(&g->line, g->rid);
	str_adds(&g->line, "\",\"usage\":{\"inputTokens\":");
	str_addi(&g->line, (int64_t)between(g, 10000, 900000));
	str_adds(&g->line, ",\"outputTokens\":");
	str_addi(&g->line, (int64_t)between(g, 100, 90000));
	str_adds(&g->line, ",\"cacheReadTokens\":");
	str_addi(&g->line, (int64_t)between(g, 0, 500000));
	str_adds(&g->line, ",\"cacheWriteTokens\":0}}");
	emit(g);
	g->ms += (int64_t)between(g, 60000, 600000); /* the next run, later */
	g->st.sessions++;
}

/* Write what is pending to g->out and close it. */
static void
finish(struct gen *g)
{
	if (fwrite(g->buf.p, 1, g->buf.n, g->out) != g->buf.n || fclose(g->out) != 0)
		fail("write");
	g->buf.n = 0;
}

/* --fleet N SIZE_MB DIR: N files of one session each. */
static int
fleet(struct gen *g, unsigned long n, unsigned long mb, const char *dir)
{
	static const char *const names[] = {"ok", "failed", "cut", "live", "ask"};
	uint64_t each = (uint64_t)mb * 1000000 / n;
	char path[4096];

	mkdir(dir, 0755);
	g->next_big = UINT64_MAX; /* no line of 1 MB: files are small */
	for (unsigned long i = 0; i < n; i++) {
		enum end end = i % 20 <= 4 ? (enum end)(i % 20) : END_OK;
		struct timeval tv[2];

		/* END_NONE is named "cut", END_CALL "live", END_ASK "ask". */
		snprintf(path, sizeof path, "%s/s%05lu-%s.ndjson", dir, i, names[end]);
		g->out = fopen(path, "wb");
		if (g->out == NULL)
			fail(path);
		session(g, each, end);
		finish(g);
		tv[0].tv_sec = tv[1].tv_sec = 1788220800 + (time_t)i * 60;
		tv[0].tv_usec = tv[1].tv_usec = 0;
		if (utimes(path, tv) != 0)
			fail(path);
	}
	fprintf(stderr, "gen_bench: %lu files in %s, %llu bytes, %llu events\n", n, dir,
		(unsigned long long)g->st.bytes, (unsigned long long)g->st.events);
	return 0;
}

int
main(int argc, char **argv)
{
	struct gen g;
	char *end;
	unsigned long mb = 0;
	uint64_t target;

	if ((argc != 3 && argc != 5) ||
	    (argc == 3 && ((mb = strtoul(argv[1], &end, 10)) == 0 || *end != '\0'))) {
		fprintf(stderr, "usage: gen_bench SIZE_MB FILE | --fleet N SIZE_MB DIR\n");
		return 2;
	}
	memset(&g, 0, sizeof g);
	g.rng = 0x61676E7476696577ULL; /* "agentview" */
	g.ms = 1790994267000;
	g.next_big = BIG_FIRST;
	if (argc == 5 && strcmp(argv[1], "--fleet") == 0) {
		unsigned long n = strtoul(argv[2], &end, 10);

		mb = strtoul(argv[3], &end, 10);
		if (n == 0 || mb == 0) {
			fprintf(stderr, "usage: gen_bench --fleet N SIZE_MB DIR\n");
			return 2;
		}
		return fleet(&g, n, mb, argv[4]);
	}
	g.out = strcmp(argv[2], "-") == 0 ? stdout : fopen(argv[2], "wb");
	if (g.out == NULL)
		fail(argv[2]);
	target = (uint64_t)mb * 1000000;
	/* Sessions of 2 to 8 MB (10^6 bytes); the last one is cut to land near the size. */
	while (g.st.bytes < target) {
		uint64_t size = between(&g, 2000000, 8000000);

		if (size > target - g.st.bytes)
			size = target - g.st.bytes;
		session(&g, size, END_OK);
	}
	finish(&g);
	fprintf(stderr,
		"gen_bench: %llu bytes, %llu events (%.1f %% deltas), %llu sessions, "
		"%llu calls, %.1f %% of bytes in tool results, %llu lines of 1 MB\n",
		(unsigned long long)g.st.bytes, (unsigned long long)g.st.events,
		100.0 * (double)g.st.deltas / (double)g.st.events,
		(unsigned long long)g.st.sessions, (unsigned long long)g.st.calls,
		100.0 * (double)g.st.result_bytes / (double)g.st.bytes,
		(unsigned long long)g.st.big);
	free(g.buf.p);
	free(g.line.p);
	free(g.text.p);
	free(g.seg.p);
	return 0;
}
