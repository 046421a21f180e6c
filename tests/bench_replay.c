/* bench_replay.c: how long a replay's seek, step back, step forward and
 * jumps take on a big recording, from the key to everything a 120x40
 * screen shows (the panes' rows and the status bar, built as the viewer
 * builds them; only curses' copy to the terminal is left out). Not part of
 * make test:
 *
 *   make tests/bench_replay
 *   tests/bench_replay --gen /tmp/big-one.rec    (840k events, one session)
 *   tests/bench_replay /tmp/big-one.rec [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "status.h"
#include "replay.h"
#include "view.h"

#define TRANSCRIPT_W 66
#define TIMELINE_W 53
#define BODY_H 38

struct screen {
	struct model *m;
	struct replay *rp;
	struct render r;
	struct scroll ts;
	struct list tl;
	struct rowsrc rows;
	struct rline line;
};

static uint32_t
rows_of(void *ctx, uint32_t it)
{
	return render_rows(&((struct screen *)ctx)->r, it);
}

/* What one frame after a replay key costs: the model as of the replay,
 * the transcript following its end, the timeline's rows, the status bar. */
static size_t
screen_draw(struct screen *s, int64_t now)
{
	struct buf mode = {0}, pos = {0}, detail = {0};
	struct status_in in = {0};
	size_t bytes = 0, ncall;
	uint32_t it, row;
	int y = 0;

	replay_apply(s->rp, s->m, now);
	s->rows.n = (uint32_t)model_nitems(s->m);
	scroll_end(&s->ts, &s->rows, BODY_H);
	for (it = s->ts.top, row = s->ts.row; it != NONE && it < s->rows.n && y < BODY_H;
	     it++, row = 0) {
		const struct block *b = render_item(&s->r, it);

		for (; row < b->nrow && y < BODY_H; row++, y++)
			bytes += b->row[row].len;
	}
	ncall = model_ncalls(s->m);
	list_select(&s->tl, (uint32_t)ncall, BODY_H, NONE);
	for (uint32_t c = s->tl.top; c < ncall && c < s->tl.top + BODY_H; c++) {
		render_timeline_row(&s->r, c, TIMELINE_W, &s->line);
		bytes += s->line.text.n;
	}
	replay_describe(s->rp, now, &mode, &pos, &detail);
	in.mode = mode.n > 0 ? mode.p : NULL;
	in.position = pos.p;
	in.detail = detail.p;
	in.progress = -1;
	status_build(s->m, &in, 120, &s->line);
	bytes += s->line.text.n;
	buf_free(&mode);
	buf_free(&pos);
	buf_free(&detail);
	return bytes;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static double
us(int64_t ns)
{
	return (double)ns / 1000.0;
}

/* Print the median, 99th percentile and maximum of n samples. */
static void
report(const char *what, int64_t *ns, int n)
{
	qsort(ns, (size_t)n, sizeof *ns, cmp_i64);
	printf("%-34s n=%-5d median %8.1f us  p99 %8.1f us  max %8.1f us\n", what, n, us(ns[n / 2]),
	       us(ns[n * 99 / 100]), us(ns[n - 1]));
}

/* Write a recording of about 840k events in one session: rounds of four
 * text deltas and two parallel shell calls, a prompt every 500 rounds, a
 * line every 15 to 300 ms. */
static int
generate(const char *path)
{
	FILE *f = fopen(path, "w");
	long long t = 1800000000000LL;
	long n = 1, r;

	if (f == NULL)
		return 1;
	fprintf(f,
		"{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"big\","
		"\"model\":\"M\",\"cwd\":\"/w\",\"agentview_ms\":%lld}\n",
		t);
	for (r = 0; n < 840000; r++) {
		t += 40;
		if (r % 500 == 0) {
			fprintf(f,
				"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":"
				"[{\"type\":\"text\",\"text\":\"prompt %ld\"}]},\"agentview_ms\":%lld}\n",
				r, t);
			n++;
		}
		for (int k = 0; k < 4; k++, n++) {
			t += 20;
			fprintf(f,
				"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\","
				"\"content\":[{\"type\":\"text\",\"text\":\"word %d \"}]},"
				"\"timestamp_ms\":%lld,\"agentview_ms\":%lld}\n",
				k, t, t);
		}
		for (int c = 0; c < 2; c++, n++) {
			t += 15;
			fprintf(f,
				"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c%ld-%d\","
				"\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"make test %ld\"}}},"
				"\"agentview_ms\":%lld}\n",
				r, c, r, t);
		}
		for (int c = 1; c >= 0; c--, n++) {
			t += 300;
			fprintf(f,
				"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c%ld-%d\","
				"\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"make test %ld\"},"
				"\"result\":{\"success\":{\"exitCode\":0,\"stdout\":\"ok\"}}}},"
				"\"agentview_ms\":%lld}\n",
				r, c, r, t);
		}
	}
	return fclose(f) == 0 ? 0 : 1;
}

enum op { OP_SEEK, OP_STEP_BACK, OP_STEP, OP_JUMP_PCT, OP_PREV_CALL, OP_PREV_PROMPT, OP_COUNT };

int
main(int argc, char **argv)
{
	static const char *const names[OP_COUNT] = {
		"seek to a random time",  "step back (,)",       "step forward (.)", "jump 0-9",
		"previous tool call ([)", "previous prompt ({)",
	};
	struct source src;
	struct buf err = {0};
	struct line ln;
	struct replay rp;
	struct screen s;
	int n = argc > 2 ? atoi(argv[2]) : 2000;
	int64_t t0, *ns = calloc((size_t)n, sizeof *ns);
	unsigned srcno;
	size_t sink = 0;

	if (argc == 3 && strcmp(argv[1], "--gen") == 0)
		return generate(argv[2]);
	if (argc < 2 || source_open_path(&src, argv[1], false, &err) != 0) {
		fprintf(stderr, "usage: bench_replay FILE [N] %s\n", err.p ? err.p : "");
		return 2;
	}
	memset(&s, 0, sizeof s);
	s.m = model_new();
	srcno = model_add_source(s.m, &src);
	t0 = clock_mono_ns();
	while (source_next_line(&src, &ln))
		model_add_line(s.m, srcno, &ln, TIME_NONE);
	model_end_source(s.m, srcno);
	printf("indexed %zu events, %zu items, %zu calls, %zu sessions in %.0f ms\n", s.m->nev,
	       s.m->nit, s.m->ncall, s.m->nses, us(clock_mono_ns() - t0) / 1000);
	t0 = clock_mono_ns();
	replay_init(&rp, 1, -1, 0);
	replay_index(&rp, s.m, true);
	printf("scheduled in %.0f ms: %s, %.0f s long, %zu anchors\n",
	       us(clock_mono_ns() - t0) / 1000, replay_timing_name(replay_timing(&rp)),
	       (double)replay_length(&rp) / 1000, rp.nanc);
	s.rp = &rp;
	render_init(&s.r, s.m);
	render_set_width(&s.r, TRANSCRIPT_W);
	scroll_init(&s.ts, true);
	list_init(&s.tl);
	s.rows.rows = rows_of;
	s.rows.ctx = &s;
	srand(1);
	for (int op = 0; op < OP_COUNT; op++) {
		for (int i = 0; i < n; i++) {
			int64_t len = replay_length(&rp);
			int64_t at = (int64_t)((double)rand() / RAND_MAX * (double)len);

			/* Start from a random place, drawn: the cache holds
			 * what that screen showed, as in the viewer. */
			replay_seek(&rp, at, 0);
			sink += screen_draw(&s, 0);
			t0 = clock_mono_ns();
			switch (op) {
			case OP_SEEK:
				replay_seek(&rp, (int64_t)((double)rand() / RAND_MAX * (double)len),
					    0);
				break;
			case OP_STEP_BACK:
				replay_step(&rp, s.m, -1, 0);
				break;
			case OP_STEP:
				replay_step(&rp, s.m, 1, 0);
				break;
			case OP_JUMP_PCT:
				replay_seek(&rp, len * (rand() % 10) / 10, 0);
				break;
			case OP_PREV_CALL:
				replay_goto_call(&rp, s.m, -1, 0);
				break;
			default:
				replay_goto_prompt(&rp, -1, 0);
				break;
			}
			sink += screen_draw(&s, 0);
			ns[i] = clock_mono_ns() - t0;
		}
		report(names[op], ns, n);
	}
	printf("(%zu bytes drawn)\n", sink);
	render_free(&s.r);
	rline_free(&s.line);
	replay_free(&rp);
	model_free(s.m);
	source_close(&src);
	free(ns);
	return 0;
}
