/* fleet_read.c: the rows, and a file's lines into the rows of its
 * sessions, reading only its head and its tail, then what it gains: each
 * piece is read into a model of its own (the model and the agents'
 * adapters say what the lines mean), whose sessions then go into the rows;
 * nothing of the piece is kept. A row's state follows from what was read
 * and whether its file is still written. */
#define _GNU_SOURCE /* memmem, memrchr */
#include "fleet_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "glyph.h"
#include "json.h"
#include "record.h"
#include "redact.h"
#include "remote.h"
#include "words.h"

/* Why a Gemini chat that ends with tool results failed. */
#define GEMINI_UNANSWERED "the model never answered its tool results; the run ended"

/* --- rows ------------------------------------------------------------------- */

/* A row as new: nothing known yet. */
static void
row_clear(struct fleet_row *r, uint32_t fi, uint8_t keep_flags)
{
	memset(r, 0, sizeof *r);
	r->file = fi;
	r->flags = keep_flags;
	r->state = FS_FILE;
	r->start_ms = r->last_ms = r->duration_ms = TIME_NONE;
	r->tokens_in = r->tokens_out = -1;
	r->cost_usd = -1;
}

/* The row of file fi numbered index, or NONE. */
static uint32_t
row_of_file(const struct fleet *f, uint32_t fi, uint32_t index)
{
	for (size_t r = 0; r < f->nrow; r++)
		if (f->row[r].file == fi && f->row[r].index == index)
			return (uint32_t)r;
	return NONE;
}

uint32_t
fleet_new_row(struct fleet *f, uint32_t fi, bool session)
{
	struct ffile *ff = &f->file[fi];
	uint32_t ri = NONE, index = session ? ff->nrows : 0;

	if (ff->placeholder)
		ri = ff->last_row;
	else if (index < ff->reuse)
		ri = row_of_file(f, fi, index);
	if (ri == NONE) {
		size_t cap = f->rowcap;

		ARRAY_RESERVE(f->row, f->rowcap, f->nrow + 1);
		if (f->rowcap != cap) {
			f->told = xreallocarray(f->told, f->rowcap, 1);
			f->touched = xreallocarray(f->touched, f->rowcap, 1);
		}
		ri = (uint32_t)f->nrow++;
		f->told[ri] = FS_NSTATES;
		f->touched[ri] = 0;
		row_clear(&f->row[ri], fi, 0);
	} else {
		row_clear(&f->row[ri], fi, f->row[ri].flags & FR_REREAD);
	}
	if (session) {
		/* The session before ends where this one starts. */
		if (ff->nrows > 0 && ff->last_row != ri) {
			f->row[ff->last_row].flags |= FR_OVER;
			fleet_touch(f, ff->last_row);
		}
		ff->placeholder = false;
		ff->nrows++;
	}
	f->row[ri].index = index;
	ff->last_row = ri;
	fleet_touch(f, ri);
	return ri;
}

void
fleet_touch(struct fleet *f, uint32_t r)
{
	f->result |= FLEET_ROWS;
	if (f->touched[r])
		return;
	f->touched[r] = 1;
	ARRAY_RESERVE(f->changed, f->changedcap, f->nchanged + 1);
	f->changed[f->nchanged++] = r;
}

int64_t
fleet_live_until(const struct ffile *ff, const struct fleet_row *r)
{
	int64_t until = ms_add(ff->mtime_ms, MODEL_LIVE_SECS * 1000);

	if (ff->recording)
		return INT64_MAX;
	if (r->last_ms != TIME_NONE)
		until = MIN(until, ms_add(r->last_ms, FLEET_OLD_MS));
	return until;
}

/* Whether the file of row r is written: a writer holds it (agentview's
 * recordings), its store says its process is at work (store.h: said,
 * with why it waits), or (no signal, or a guess: guess set for a store's
 * file) it changed a short while ago and its events are not old. */
static enum file_life
file_life(const struct fleet *f, const struct ffile *ff, const struct fleet_row *r, bool *guess,
	  enum store_liveness *said, struct buf *why)
{
	enum store_liveness l = SL_UNKNOWN;

	*guess = false;
	*said = SL_UNKNOWN;
	if (ff->gone || (ff->recording && !ff->writer))
		return FILE_CLOSED;
	if (ff->recording)
		return FILE_WRITTEN;
	/* A remote's session: judged by what its machine sent. Its host
	 * out of reach a while, one at work when it was is a guess now
	 * ("running?"), until the host is back. */
	if (ff->store > 0 && remote_host_of(ff->path) != NULL) {
		l = remote_live(ff->path, (enum store_source)(ff->store - 1), f->now, why, guess);
		if (*guess && l == SL_WAITING)
			l = SL_RUNNING;
	} else if (ff->store > 0 && f->sl != NULL)
		l = store_live(f->sl, (enum store_source)(ff->store - 1), ff->path, f->now, why);
	/* Copilot's process holds its session at its prompt too: at work
	 * only until the model has the last word (STORES.md §4). */
	if (l == SL_RUNNING && ff->store == SRC_COPILOT + 1 && r->tail == FT_REPLY &&
	    r->running == 0 && r->asking == 0)
		l = SL_IDLE;
	*said = l;
	switch (l) {
	case SL_WAITING:
	case SL_RUNNING:
		return FILE_WRITTEN;
	case SL_IDLE:
		return FILE_QUIET;
	case SL_GONE:
		return FILE_CLOSED;
	default:
		*guess = ff->store > 0;
		return f->now < fleet_live_until(ff, r) ? FILE_WRITTEN : FILE_QUIET;
	}
}

/* A store's session that no process has, or whose process sits idle at
 * its prompt (its file has no end record: STORES.md, each store's
 * "Running, waiting, done, failed"): done when its last turn ended, the
 * model having the last word with every call answered; a Gemini CLI chat
 * (no end record at all, §3) failed too when an error record or tool
 * results it never answered end it (the run died); else over without a
 * result. */
static enum fleet_state
store_end(const struct ffile *ff, struct fleet_row *r)
{
	bool gemini = ff->store == SRC_GEMINI + 1;

	if (ff->store == 0 || r->running > 0 || r->asking > 0)
		return FS_INCOMPLETE;
	switch (r->tail) {
	case FT_REPLY:
		return FS_DONE;
	case FT_TOOLS:
		if (!gemini)
			return FS_INCOMPLETE;
		fleet_copy(r->how, sizeof r->how, GEMINI_UNANSWERED, strlen(GEMINI_UNANSWERED));
		return FS_FAILED;
	case FT_ERROR:
		if (!gemini)
			return FS_INCOMPLETE;
		if (r->how[0] == '\0') /* said while its process lived */
			fleet_copy(r->how, sizeof r->how, "error", 5);
		return FS_FAILED;
	default:
		return FS_INCOMPLETE;
	}
}

void
fleet_row_update(struct fleet *f, uint32_t ri)
{
	struct fleet_row *r = &f->row[ri];
	const struct ffile *ff = &f->file[r->file];
	enum fleet_state st;
	bool guess = false;
	uint8_t flags = r->flags & (uint8_t)~FR_GUESS;
	struct buf why = {0};

	if (ff->placeholder && ff->last_row == ri)
		st = FS_FILE;
	else {
		enum store_liveness said;
		enum file_life life = file_life(f, ff, r, &guess, &said, &why);

		if (said != SL_WAITING)
			buf_reset(&why);
		st = fleet_row_state(r, ff->last_row == ri, life);
		/* Its process at work, as its store says, outranks what its
		 * file said last (a turn's end): the session goes on, waiting
		 * while a decision it asked for has no answer (Copilot). */
		if (ff->last_row == ri && said == SL_RUNNING && st != FS_WAITING)
			st = FS_RUNNING;
		else if (ff->last_row == ri && said == SL_WAITING)
			st = FS_WAITING;
		/* No process has it, its process is idle at its prompt, or
		 * nothing here can tell (a remote's mirror) and its file is
		 * quiet. */
		else if (ff->last_row == ri && st == FS_INCOMPLETE &&
			 (said == SL_GONE || said == SL_IDLE ||
			  (said == SL_UNKNOWN && life == FILE_QUIET)))
			st = store_end(ff, r);
	}
	if (st == FS_RUNNING && guess)
		flags |= FR_GUESS;
	if (flags != r->flags) {
		r->flags = flags;
		fleet_touch(f, ri);
	}
	/* What a store says its session waits for, while it does (how says
	 * nothing else but of a failed session, or a file). */
	if (st != FS_FAILED && st != FS_FILE &&
	    (why.n != strlen(r->how) || (why.n > 0 && memcmp(why.p, r->how, why.n) != 0))) {
		fleet_copy(r->how, sizeof r->how, why.p != NULL ? why.p : "", why.n);
		fleet_touch(f, ri);
	}
	buf_free(&why);
	if (st != r->state) {
		r->state = (uint8_t)st;
		f->result |= FLEET_STATES;
		fleet_touch(f, ri);
	}
}

void
fleet_settle(struct fleet *f, uint32_t fi)
{
	struct ffile *ff = &f->file[fi];
	bool running;

	if (ff->nrows == 0 && !ff->placeholder)
		return;
	fleet_row_update(f, ff->last_row);
	running = f->row[ff->last_row].state == FS_RUNNING ||
		  f->row[ff->last_row].state == FS_WAITING;
	if (running && !ff->live) {
		ARRAY_RESERVE(f->live, f->livecap, f->nlive + 1);
		f->live[f->nlive++] = fi;
		ff->live = true;
	}
}

/* --- a file's lines --------------------------------------------------------- */

void
fleet_copy(char *dst, size_t cap, const char *s, size_t n)
{
	struct buf t = {0};
	bool blank = false;
	size_t k;

	/* Folded as far as the cut and what redact_cut looks at past it. */
	for (size_t i = 0; i < n && t.n < cap + REDACT_CUT_SLACK; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n' || c == '\t' || c == '\r' || c == ' ') {
			blank = t.n > 0;
			continue;
		}
		if (blank)
			buf_addc(&t, ' ');
		blank = false;
		buf_addc(&t, (char)c);
	}
	/* Never half a character, never the start of a secret. */
	k = t.n > 0 ? redact_cut(t.p, t.n, cap - 1) : 0;
	while (k > 0 && t.p[k - 1] == ' ')
		k--;
	if (k > 0)
		memcpy(dst, t.p, k);
	dst[k] = '\0';
	buf_free(&t);
}

/* A line that starts a session (any agent's): a cheap look first, at its
 * start only, where every agent puts the type of a session's start
 * (a tool's output of 30 KB need not be searched). */
static bool
starts_session(struct fleet *f, const char *p, size_t n)
{
	size_t head = MIN(n, (size_t)256);

	if (!agent_marked(p, head))
		return false;
	return json_parse(f->j, p, n) == JSON_OK && agent_line_starts(f->j) >= 0;
}

/* The hash of call c's id (never 0), or 0 when it has none. */
static uint64_t
call_key(struct model *m, uint32_t c)
{
	struct call_facts v;
	const struct factval *id;
	const char *raw;
	size_t n;

	tool_load(m, c, m->qjson, m->qjson2, &v);
	if ((id = call_fact(&v, CALL_ID)) == NULL || id->form != FACT_TOKEN)
		return 0;
	raw = json_raw(id->j, id->t, &n);
	return hash_bytes(raw, n, 0) | 1;
}

/* Remember an open call of row r: the newest FLEET_CALLS of them. */
static void
call_open(struct fleet *f, struct fleet_row *r, uint32_t c, uint64_t key)
{
	struct model *m = f->m;
	struct fleet_call *fc;

	r->running++;
	if (r->ncalls == FLEET_CALLS) {
		memmove(&r->calls[0], &r->calls[1], (FLEET_CALLS - 1) * sizeof r->calls[0]);
		r->ncalls--;
	}
	fc = &r->calls[r->ncalls++];
	fc->key = key;
	fc->start_ms = m->call[c].start_ms;
	tool_describe(m, c, &f->td);
	buf_reset(&f->td.outcome); /* "running", which the row says */
	buf_reset(&f->tmp);
	/* Paths as the transcript shows them: relative to the cwd. */
	tool_line_at((enum tool_kind)m->call[c].kind, &f->td, r->cwd[0] == '/' ? r->cwd : NULL,
		     strlen(r->cwd), 0, &f->tmp);
	fleet_copy(fc->what, sizeof fc->what, f->tmp.p, f->tmp.n);
}

/* A call of row r ended whose start an earlier piece read. */
static void
call_close(struct fleet_row *r, uint64_t key)
{
	for (unsigned i = 0; key != 0 && i < r->ncalls; i++) {
		if (r->calls[i].key == key) {
			memmove(&r->calls[i], &r->calls[i + 1],
				(r->ncalls - i - 1) * sizeof r->calls[0]);
			r->ncalls--;
			r->running--;
			return;
		}
	}
	/* One of those not remembered; or one whose start was never read. */
	if (r->running > r->ncalls)
		r->running--;
}

/* The calls of session s into row r. */
static void
merge_calls(struct fleet *f, struct fleet_row *r, uint32_t s)
{
	struct model *m = f->m;

	for (size_t c = 0; c < m->ncall; c++) {
		const struct call *call = &m->call[c];
		enum call_state st;

		if (call->session != s)
			continue;
		if (call->done_ev == NONE) {
			call_open(f, r, (uint32_t)c, call_key(m, (uint32_t)c));
			continue;
		}
		/* (Its id, read from its lines, only when a call is
		 * remembered that it may be.) */
		if (call->start_ev == NONE)
			call_close(r, r->ncalls > 0 ? call_key(m, (uint32_t)c) : 0);
		st = model_result_state((enum call_result)call->result);
		if (st == CS_OK || st == CS_RUNNING)
			r->ok++;
		else
			r->failed++;
	}
}

/* The decisions session s asked for and got into row r. */
static void
merge_queries(struct fleet *f, struct fleet_row *r, uint32_t s)
{
	struct model *m = f->m;
	struct query_words w = {0};

	for (size_t q = 0; q < m->nquery; q++) {
		const struct query *qu = &m->query[q];
		uint64_t key;

		if (qu->session != s || (qu->ask_ev != NONE && qu->answer_ev != NONE))
			continue;
		words_query_load(m, (uint32_t)q, &w);
		key = hash_bytes(w.id.p ? w.id.p : "", w.id.n, 0) | 1;
		if (qu->answer_ev == NONE) { /* asked, no answer yet */
			r->asking++;
			r->asks[1] = r->asks[0];
			r->asks[0] = key;
		} else if (r->asking > 0) { /* an answer to an earlier piece */
			r->asking--;
			if (r->asks[0] == key) {
				r->asks[0] = r->asks[1];
				r->asks[1] = 0;
			} else if (r->asks[1] == key) {
				r->asks[1] = 0;
			}
		}
	}
	words_query_free(&w);
}

/* Fact fact of session s into dst, when the row has none yet. */
static void
merge_fact(struct fleet *f, uint32_t s, enum fact fact, char *dst, size_t cap)
{
	if (dst[0] != '\0')
		return;
	buf_reset(&f->tmp);
	if (model_fact(f->m, s, fact, &f->tmp) && f->tmp.n > 0)
		fleet_copy(dst, cap, f->tmp.p, f->tmp.n);
}

/* Fact fact of a session of agent a from its file at path into dst, when
 * it has none yet. */
static void
merge_file_fact(struct fleet *f, unsigned a, const char *path, enum fact fact, char *dst,
		size_t cap)
{
	if (dst[0] != '\0')
		return;
	buf_reset(&f->tmp);
	if (agent_file_fact(a, path, fact, &f->tmp) && f->tmp.n > 0)
		fleet_copy(dst, cap, f->tmp.p, f->tmp.n);
}

/* The folder in f->tmp into row r: whole, or when it is too long, "…/"
 * and its last part. */
static void
set_cwd(struct fleet *f, struct fleet_row *r)
{
	const char *slash;
	size_t n = f->tmp.n;

	while (n > 1 && f->tmp.p[n - 1] == '/')
		n--;
	if (n < sizeof r->cwd && memchr(f->tmp.p, '\n', n) == NULL) {
		fleet_copy(r->cwd, sizeof r->cwd, f->tmp.p, n);
		return;
	}
	slash = memrchr(f->tmp.p, '/', n);
	buf_reset(&f->chunk); /* scratch: the piece's bytes are read */
	buf_adds(&f->chunk, GLYPH_ELLIPSIS "/");
	if (slash != NULL)
		buf_add(&f->chunk, slash + 1, (size_t)(f->tmp.p + n - slash - 1));
	fleet_copy(r->cwd, sizeof r->cwd, f->chunk.p, f->chunk.n);
}

/* The cwd of session s into row r, when it has none yet. */
static void
merge_cwd(struct fleet *f, struct fleet_row *r, uint32_t s)
{
	if (r->cwd[0] != '\0')
		return;
	buf_reset(&f->tmp);
	if (model_session_cwd(f->m, s, &f->tmp) && f->tmp.n > 0)
		set_cwd(f, r);
}

/* A stored Copilot session's folder and title (its first prompt, or the
 * name its user gave it) from the workspace.yaml beside its events.jsonl,
 * where its events gave none. */
static void
merge_workspace(struct fleet *f, const struct ffile *ff, struct fleet_row *r)
{
	const char *slash = strrchr(ff->path, '/');
	struct buf path = {0};

	if (ff->store != SRC_COPILOT + 1 || (r->cwd[0] != '\0' && r->prompt[0] != '\0') ||
	    slash == NULL || strcmp(slash, "/events.jsonl") != 0)
		return;
	buf_add(&path, ff->path, (size_t)(slash - ff->path));
	buf_adds(&path, "/workspace.yaml");
	buf_reset(&f->tmp);
	if (r->cwd[0] == '\0' && agent_copilot_workspace(path.p, "cwd", &f->tmp))
		set_cwd(f, r);
	buf_reset(&f->tmp);
	if (r->prompt[0] == '\0' && agent_copilot_workspace(path.p, "name", &f->tmp))
		fleet_copy(r->prompt, sizeof r->prompt, f->tmp.p, f->tmp.n);
	buf_free(&path);
}

/* A Cursor session's title and time from its chat store (its transcript's
 * or its own): the title in place of its first prompt, as Cursor lists
 * its chats; looked for until the row has a start. */
static void
merge_chat(struct fleet *f, uint32_t fi, struct fleet_row *r)
{
	struct cursor_chat c = {{0}, {0}, TIME_NONE, {0}};

	if (f->file[fi].store != SRC_CURSOR + 1 || r->start_ms != TIME_NONE ||
	    r->agent != AGENT_CURSOR_TRANSCRIPT)
		return;
	if (cursor_chat_read(f->file[fi].path, &c)) {
		if (c.title.n > 0)
			fleet_copy(r->prompt, sizeof r->prompt, c.title.p, c.title.n);
		if (r->model[0] == '\0' && c.model.n > 0)
			fleet_copy(r->model, sizeof r->model, c.model.p, c.model.n);
		r->start_ms = c.created_ms;
	}
	cursor_chat_free(&c);
}

/* The first prompt of session s into row r, when it has none yet. */
static void
merge_prompt(struct fleet *f, struct fleet_row *r, uint32_t s)
{
	struct model *m = f->m;

	if (r->prompt[0] != '\0' || m->ses[s].nprompts == 0)
		return;
	for (size_t i = m->ses[s].first_item; i < m->nit; i++) {
		if (m->it[i].session != s || m->it[i].type != IT_PROMPT)
			continue;
		buf_reset(&f->tmp);
		model_item_text(m, (uint32_t)i, &f->tmp);
		fleet_copy(r->prompt, sizeof r->prompt, f->tmp.p, f->tmp.n);
		return;
	}
}

/* A row's tokens (-1: none yet) with a piece's v: added, or in their
 * place. */
static int64_t
tokens_more(int64_t had, int64_t v, bool add)
{
	if (!add || had < 0)
		return v;
	return v <= INT64_MAX - had ? had + v : INT64_MAX;
}

/* What the end of session s says: the result's tokens, cost, duration,
 * whether it failed and why; the recorded command's end. */
static void
merge_end(struct fleet *f, struct fleet_row *r, uint32_t s)
{
	struct model *m = f->m;
	const struct session *ses = &m->ses[s];
	const struct usage_field *u;
	bool sum;
	int64_t v;

	/* Tokens its store counted: a total it said replaces what an earlier
	 * piece gave, its lines' own are added to it. */
	if (ses->has_tokens) {
		r->tokens_in = tokens_more(r->tokens_in, ses->tok.in, ses->tok_sum);
		r->tokens_out = tokens_more(r->tokens_out, ses->tok.out, ses->tok_sum);
	}
	if (ses->result_ev != NONE) {
		r->flags |= FR_RESULT;
		r->duration_ms = ses->duration_ms;
		u = agent_get(ses->agent)->usage;
		sum = agent_get(ses->agent)->fact_add >> FACT_USAGE & 1;
		/* Summed over its results when its agent counts each turn's:
		 * the piece's added to the earlier pieces'. */
		for (; u->path != NULL && !ses->has_tokens; u++) {
			if (!model_end_int(m, s, FACT_USAGE, u->path, &v))
				continue;
			if (strcmp(u->label, "in") == 0)
				r->tokens_in = tokens_more(r->tokens_in, v, sum);
			else if (strcmp(u->label, "out") == 0)
				r->tokens_out = tokens_more(r->tokens_out, v, sum);
		}
		buf_reset(&f->tmp);
		if (model_fact(m, s, FACT_COST, &f->tmp))
			r->cost_usd = strtod(f->tmp.p, NULL);
	}
	if (m->cmd.present && (m->cmd.exited || m->cmd.signal != 0) && s + 1 == m->nses)
		r->flags |= FR_EXITED;
	if (model_session_state(m, s) == SS_FAILED) {
		r->flags |= FR_FAILED;
		buf_reset(&f->tmp);
		words_failure(m, s, &f->tmp);
		fleet_copy(r->how, sizeof r->how, f->tmp.p, f->tmp.n);
	}
}

/* What session s's newest item in the piece is, into row r (kept when
 * the piece has none: a piece of bookkeeping lines); an error's words
 * into its how. */
static void
merge_tail(struct fleet *f, struct fleet_row *r, uint32_t s)
{
	struct model *m = f->m;
	uint32_t fail = m->ses[s].fail_ev;

	for (size_t i = m->nit; i-- > m->ses[s].first_item;) {
		const struct item *it = &m->it[i];

		if (it->session != s || it->depth > 0)
			continue;
		if (it->type == IT_NOTICE && fail != NONE && fail >= it->first_ev &&
		    fail <= it->last_ev) {
			r->tail = FT_ERROR;
			buf_reset(&f->tmp);
			model_notice_text(m, fail, &f->tmp);
			fleet_copy(r->how, sizeof r->how, f->tmp.p, f->tmp.n);
			return;
		}
		if (it->type == IT_TEXT || it->type == IT_TOOL || it->type == IT_PROMPT) {
			r->tail = it->type == IT_TEXT   ? FT_REPLY
				  : it->type == IT_TOOL ? FT_TOOLS
							: FT_NONE;
			return;
		}
	}
}

/* Session s of the piece read at base into the rows of file fi. */
static void
merge(struct fleet *f, uint32_t fi, uint32_t s, uint64_t base)
{
	struct ffile *ff = &f->file[fi];
	struct model *m = f->m;
	const struct session *ses = &m->ses[s];
	struct fleet_row *r;
	uint32_t ri;

	if (s == 0 && ses->init_ev == NONE && ff->nrows > 0) {
		ri = ff->last_row; /* the session an earlier piece began */
	} else {
		ri = fleet_new_row(f, fi, true);
		f->row[ri].offset = base + EV_OFF(&m->ev[ses->first_ev]);
		f->row[ri].agent = ses->agent;
	}
	r = &f->row[ri];
	if (ff->gap)
		r->flags |= FR_GAP;
	merge_fact(f, s, FACT_ID, r->id, sizeof r->id);
	merge_fact(f, s, FACT_MODEL, r->model, sizeof r->model);
	/* What its lines lack, its file may say (a Cursor session's chat
	 * store, looked for once for its model too). */
	merge_prompt(f, r, s);
	merge_chat(f, fi, r);
	merge_file_fact(f, ses->agent, ff->path, FACT_ID, r->id, sizeof r->id);
	merge_file_fact(f, ses->agent, ff->path, FACT_MODEL, r->model, sizeof r->model);
	merge_cwd(f, r, s);
	merge_workspace(f, ff, r);
	if (r->start_ms == TIME_NONE)
		r->start_ms = ses->start_ms;
	if (ses->last_ms != TIME_NONE && (r->last_ms == TIME_NONE || ses->last_ms > r->last_ms))
		r->last_ms = ses->last_ms;
	merge_calls(f, r, s);
	merge_queries(f, r, s);
	merge_end(f, r, s);
	merge_tail(f, r, s);
	if (s + 1 < m->nses)
		r->flags |= FR_OVER;
	fleet_touch(f, ri);
}

/* The agent whose lines a piece that begins inside a session are read
 * as: its session's, until a line starts another (or --agent's). */
static int
piece_agent(const struct fleet *f, const struct ffile *ff)
{
	if (f->agent >= 0)
		return f->agent;
	if (ff->nrows > 0 && !ff->placeholder)
		return f->row[ff->last_row].agent;
	return -1;
}

size_t
fleet_feed(struct fleet *f, uint32_t fi, uint64_t base, char *p, size_t n, bool head)
{
	struct model *m = f->m;
	int cont = piece_agent(f, &f->file[fi]);
	size_t used = 0;
	struct line ln, passed, total;
	bool pending = false, totals = false;
	enum line_quiet q = LINE_HEARD;

	model_reset(m);
	source_over(&f->src, p, n);
	m->agent = cont;
	while (source_next_line(&f->src, &ln)) {
		const char *lp = p + ln.off;
		int agent = m->agent >= 0 ? m->agent : m->nses > 0 ? m->ses[m->nses - 1].agent : -1;

		used = ln.off + ln.len + 1;
		/* A line of the session's agent that changes no row (most of
		 * a long session; it never starts one), once the session's
		 * start time is known: its quiet lines, and the bookkeeping
		 * the model would skip unparsed (but for its time, which the
		 * last line passed over gives). With states only, a call's
		 * line too: it changes no state. Of the totals so far, the
		 * last is read (below), unless only states are wanted. */
		if (agent >= 0 &&
		    (m->nses > 0 ? m->ses[m->nses - 1].start_ms != TIME_NONE : cont >= 0) &&
		    ((q = agent_quiet((unsigned)agent, lp, ln.len, f->flags & FLEET_STATES_ONLY)) !=
			     LINE_HEARD ||
		     agent_skips((unsigned)agent, lp, ln.len))) {
			if (q == LINE_TOTALS &&
			    !(f->flags & (FLEET_STATES_ONLY | FLEET_NO_TOKENS))) {
				total = ln;
				totals = true;
			}
			passed = ln;
			pending = true;
			continue;
		}
		pending = false;
		/* The totals of the session a line may end: read before it. */
		if (totals && agent_marked(lp, MIN(ln.len, (size_t)256))) {
			model_add_line(m, 0, &total, TIME_NONE);
			totals = false;
		}
		/* What no row reads of a long line, cut out before it is
		 * parsed (the piece is a copy of the file's bytes). */
		if (ln.len > AGENT_LEAN_MIN)
			ln.len = agent_lean(p + ln.off, ln.len);
		if (m->agent >= 0 && f->agent < 0 && starts_session(f, lp, ln.len))
			m->agent = -1; /* another session: recognised again */
		model_add_line(m, 0, &ln, TIME_NONE);
		/* A session begun without its start, read as cont's. */
		if (m->nses == 1 && m->ses[0].init_ev == NONE && cont >= 0)
			m->ses[0].agent = (uint8_t)cont;
		if (head && m->nses > 0 && m->ses[0].nprompts > 0)
			break;
	}
	/* The last totals passed over; the last line passed over holds the
	 * session's latest time, which its span (an incomplete session's
	 * time) ends at. */
	if (totals)
		model_add_line(m, 0, &total, TIME_NONE);
	if (pending && !(totals && passed.off == total.off))
		model_add_line(m, 0, &passed, TIME_NONE);
	for (uint32_t s = 0; s < m->nses; s++)
		merge(f, fi, s, base);
	source_over(&f->src, NULL, 0);
	return used;
}

bool
fleet_read_at(struct fleet *f, int fd, uint64_t off, size_t n)
{
	size_t got = 0;

	buf_reset(&f->chunk);
	buf_reserve(&f->chunk, n + 1);
	while (got < n) {
		ssize_t r = pread(fd, f->chunk.p + got, n - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	f->chunk.n = got;
	f->chunk.p[got] = '\0';
	return got > 0;
}

/* The row of a file with no session: what the file is. */
static void
placeholder(struct fleet *f, uint32_t fi, const char *how)
{
	struct ffile *ff = &f->file[fi];
	struct fleet_row *r;
	uint32_t ri = ff->placeholder ? ff->last_row : fleet_new_row(f, fi, false);

	r = &f->row[ri];
	ff->last_row = ri;
	ff->placeholder = true;
	if (strcmp(r->how, how) != 0) {
		fleet_copy(r->how, sizeof r->how, how, strlen(how));
		fleet_touch(f, ri);
	}
}

bool
fleet_chat_store(const struct fleet *f, uint32_t fi)
{
	const struct ffile *ff = &f->file[fi];
	size_t n = strlen(ff->path);

	return ff->store == SRC_CURSOR + 1 && n > 9 && strcmp(ff->path + n - 9, "/store.db") == 0;
}

/* The sizes and times of chat store path and its log, hashed (never 0). */
static uint64_t
chat_sig(const char *path)
{
	struct buf wal = {0};
	struct stat st;
	int64_t v[4] = {0, 0, 0, 0};

	buf_addf(&wal, "%s-wal", path);
	if (lstat(path, &st) == 0) {
		v[0] = (int64_t)st.st_size;
		v[1] = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	}
	if (lstat(wal.p, &st) == 0) {
		v[2] = (int64_t)st.st_size;
		v[3] = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	}
	buf_free(&wal);
	return hash_bytes(v, sizeof v, 0) | 1;
}

static void chat_placeholder(struct fleet *f, uint32_t fi);

/* Chat store fi's title and model read again, onto its rows and those of
 * its transcript (the same chat id). */
static void
chat_again(struct fleet *f, uint32_t fi)
{
	struct cursor_chat c = {{0}, {0}, TIME_NONE, {0}};

	if (f->file[fi].nrows == 0) {
		chat_placeholder(f, fi);
		return;
	}
	if (!cursor_chat_read(f->file[fi].path, &c)) {
		cursor_chat_free(&c);
		return;
	}
	for (size_t s = 0; s < f->nrow; s++) {
		if (f->row[s].file != fi)
			continue;
		for (size_t r = 0; r < f->nrow; r++) {
			struct fleet_row *o = &f->row[r];

			if (r != s && (strcmp(o->id, f->row[s].id) != 0 ||
				       f->file[o->file].store != SRC_CURSOR + 1 ||
				       o->agent != AGENT_CURSOR_TRANSCRIPT))
				continue;
			if (c.title.n > 0)
				fleet_copy(o->prompt, sizeof o->prompt, c.title.p, c.title.n);
			if (c.model.n > 0)
				fleet_copy(o->model, sizeof o->model, c.model.p, c.model.n);
			fleet_touch(f, (uint32_t)r);
		}
	}
	cursor_chat_free(&c);
}

void
fleet_chat_look(struct fleet *f, uint32_t fi)
{
	struct ffile *ff = &f->file[fi];
	uint64_t sig = chat_sig(ff->path);
	bool due = false;

	if (ff->chat_sig == 0) {
		ff->chat_sig = sig;
		ff->chat_ms = f->now;
	} else if (sig != ff->chat_sig && ms_sub(f->now, ff->chat_ms) < 1000) {
		due = true;
	} else if (sig != ff->chat_sig) {
		ff->chat_sig = sig;
		ff->chat_ms = f->now;
		chat_again(f, fi);
	}
	if (due && !ff->chat_due)
		f->chat_due++;
	else if (!due && ff->chat_due)
		f->chat_due--;
	ff->chat_due = due;
}

/* The row of a Cursor chat store of which no session was read: why, or
 * what it says it is. */
static void
chat_placeholder(struct fleet *f, uint32_t fi)
{
	struct cursor_chat c = {{0}, {0}, TIME_NONE, {0}};
	struct buf how = {0};

	buf_adds(&how, "chat store");
	if (!cursor_chat_read(f->file[fi].path, &c)) {
		buf_adds(&how, ": ");
		buf_add(&how, c.why.p, c.why.n);
	} else {
		/* The words first: a long title is cut where the row's are. */
		buf_adds(&how, ": no message read");
		if (c.model.n > 0)
			buf_addf(&how, " (%s)", c.model.p);
		if (c.title.n > 0)
			buf_addf(&how, ", \"%s\"", c.title.p);
	}
	placeholder(f, fi, how.p);
	cursor_chat_free(&c);
	buf_free(&how);
}

/* A file in a form of its agent's own (agent_rows: Cursor's older
 * plain-text transcripts, read whole; its chat stores, read by their
 * path), read once as the rows it holds; what it gains later is not
 * read. False for any other. */
static bool
read_rows(struct fleet *f, uint32_t fi, int fd)
{
	struct ffile *ff = &f->file[fi];
	struct buf rows = {0};
	bool ok, chat = fleet_chat_store(f, fi);

	if (!agent_rows_db(f->chunk.p, f->chunk.n) &&
	    (ff->size > AGENT_ROWS_MAX ||
	     (f->chunk.n < ff->size && !fleet_read_at(f, fd, 0, (size_t)ff->size))))
		return false;
	ok = agent_rows(ff->path, f->chunk.p, f->chunk.n, &rows);
	if (ok) {
		ff->kind = FK_STREAM;
		ff->rows = true;
		ff->read_to = ff->size;
		fleet_feed(f, fi, 0, rows.p, rows.n, false);
		if (ff->nrows == 0 && chat)
			chat_placeholder(f, fi);
		else if (ff->nrows == 0)
			placeholder(f, fi, "no session yet");
	} else if (chat) {
		ff->kind = FK_OTHER;
		ff->read_to = ff->size;
		chat_placeholder(f, fi);
		ok = true;
	}
	buf_free(&rows);
	return ok;
}

/* A hash of the first REMOTE_HEAD bytes of fd's file, as they are there
 * (never 0); 0 when it is shorter. */
static uint64_t
head_sig(int fd)
{
	char *b = xmalloc(REMOTE_HEAD);
	size_t got = 0;
	uint64_t h = 0;

	while (got < REMOTE_HEAD) {
		ssize_t r = pread(fd, b + got, REMOTE_HEAD - got, (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got == REMOTE_HEAD)
		h = hash_bytes(b, got, 0) | 1;
	free(b);
	return h;
}

/* A remote's big file whose head was read past the REMOTE_HEAD bytes
 * its first look brings: the rest of its head asked for, once (its
 * mirror is then replaced by one that holds it, read again from its
 * start as if it had always been whole: fleet_read). */
static void
more_head(struct fleet *f, struct ffile *ff, int fd, uint64_t read)
{
	if (!ff->head_asked && read > REMOTE_HEAD && f->more_head != NULL) {
		ff->head_asked = true;
		ff->head_wait = f->more_head(ff->path);
		if (ff->head_wait)
			ff->head_sig = head_sig(fd);
	}
}

/* The start of a file: whether it is a stream, and (a big file) its first
 * session's start up to its first prompt, (a small one) all of it. */
static void
read_head(struct fleet *f, uint32_t fi, int fd)
{
	struct ffile *ff = &f->file[fi];
	size_t w = FLEET_TAIL;
	bool whole = ff->size <= 2 * w;
	size_t want = whole ? (size_t)ff->size : w, i = 0;
	char *p;
	bool kept;

	if (want == 0 || !fleet_read_at(f, fd, 0, want)) {
		ff->kind = FK_EMPTY;
		placeholder(f, fi, "no session yet");
		return;
	}
	p = f->chunk.p;
	if (f->chunk.n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < f->chunk.n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	if (i < f->chunk.n && p[i] != '{') {
		if (read_rows(f, fi, fd))
			return;
		ff->kind = FK_OTHER;
		ff->read_to = ff->size;
		placeholder(f, fi, "not a stream");
		return;
	}
	if (memchr(p, '\n', f->chunk.n) == NULL) {
		/* One line so far, or a first line longer than the head. */
		if (!whole)
			more_head(f, ff, fd, f->chunk.n);
		ff->kind = f->chunk.n < FLEET_HEAD ? FK_EMPTY : FK_OTHER;
		placeholder(f, fi, ff->kind == FK_EMPTY ? "no session yet" : "not a stream");
		return;
	}
	ff->kind = FK_STREAM;
	ff->recording = record_starts(p, f->chunk.n, &kept);
	ff->read_to = fleet_feed(f, fi, 0, p, f->chunk.n, !whole);
	if (!whole)
		more_head(f, ff, fd, ff->read_to);
	if (ff->nrows == 0)
		placeholder(f, fi, "no session yet");
}

/* What the file gained since it was read: its last FLEET_TAIL bytes at
 * most, the rest is a gap. */
static void
read_tail(struct fleet *f, uint32_t fi, int fd)
{
	struct ffile *ff = &f->file[fi];
	uint64_t from = ff->read_to, skip = 0;
	size_t w = FLEET_TAIL;
	const char *nl;

	if (ff->size <= from || ff->rows)
		return;
	if (ff->size - from > w) {
		/* The byte before tells whether a line starts at from. */
		from = ff->size - w - 1;
		ff->gap = true;
		f->gap_none = false;
		if (!fleet_read_at(f, fd, from, w + 1))
			return;
		nl = memchr(f->chunk.p, '\n', f->chunk.n);
		if (nl == NULL)
			return;
		skip = (uint64_t)(nl - f->chunk.p) + 1;
	} else if (!fleet_read_at(f, fd, from, (size_t)(ff->size - from))) {
		return;
	}
	ff->read_to =
		from + skip +
		fleet_feed(f, fi, from + skip, f->chunk.p + skip, f->chunk.n - (size_t)skip, false);
	if (ff->nrows > 0 && ff->placeholder) /* cannot be: sessions came */
		ff->placeholder = false;
}

/* --- its sub-agents' files ----------------------------------------------- */

/* A sub-agent's file longer than this is not read for its tokens. */
#define MORE_MAX ((off_t)64 << 20)

/* The files of a session's sub-agents as agent_more names them, each
 * one's hash of its name, inode, size and time (key), and one of all. */
struct more_files {
	char **path;
	uint64_t *key;
	size_t n, cap, kcap;
	uint64_t sig;
};

static void
more_file(void *ctx, const char *path, const char *call)
{
	struct more_files *mf = ctx;
	struct stat st;
	int64_t v[4];

	(void)call;
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MORE_MAX)
		return;
	v[0] = (int64_t)st.st_ino;
	v[1] = (int64_t)st.st_size;
	v[2] = (int64_t)st.st_mtim.tv_sec;
	v[3] = (int64_t)st.st_mtim.tv_nsec;
	ARRAY_RESERVE(mf->path, mf->cap, mf->n + 1);
	ARRAY_RESERVE(mf->key, mf->kcap, mf->n + 1);
	mf->key[mf->n] = hash_bytes(v, sizeof v, hash_bytes(path, strlen(path), 0));
	mf->sig = hash_bytes(&mf->key[mf->n], sizeof mf->key[mf->n], mf->sig);
	mf->path[mf->n++] = xstrdup(path);
}

/* more_read by their keys (a file's sub-agents read, kept so: each one
 * found again by bsearch, not by a walk over the others). */
static int
by_key(const void *a, const void *b)
{
	uint64_t x = ((const struct more_read *)a)->key, y = ((const struct more_read *)b)->key;

	return x < y ? -1 : x > y;
}

/* The tokens of the sub-agent's file path, read whole as agent's lines
 * (each message once, as the model counts them), added to t; false when
 * it holds none. Never through a link, never more than MORE_MAX. */
static bool
more_tokens(struct fleet *f, const char *path, int agent, struct tokens *t)
{
	struct model *m = f->m;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	struct tokens k;
	struct line ln;
	bool any = false, ok;

	if (fd < 0)
		return false;
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	     st.st_size <= MORE_MAX && fleet_read_at(f, fd, 0, (size_t)st.st_size);
	close(fd);
	if (!ok)
		return false;
	model_reset(m);
	source_over(&f->src, f->chunk.p, f->chunk.n);
	m->agent = agent;
	while (source_next_line(&f->src, &ln)) {
		if (ln.len > AGENT_LEAN_MIN)
			ln.len = agent_lean(f->chunk.p + ln.off, ln.len);
		model_add_line(m, 0, &ln, TIME_NONE);
	}
	for (uint32_t s = 0; s < m->nses; s++) {
		if (!model_session_tokens(m, s, &k))
			continue;
		t->in = tokens_more(t->in, k.in, true);
		t->out = tokens_more(t->out, k.out, true);
		any = true;
	}
	source_over(&f->src, NULL, 0);
	return any;
}

void
fleet_read_more(struct fleet *f, uint32_t fi)
{
	struct ffile *ff = &f->file[fi];
	struct more_files mf = {0};
	struct tokens t = {0};
	struct more_read *seen;
	bool any = false;
	uint64_t sig;

	ff->more_due = false;
	if (ff->kind != FK_STREAM || ff->nrows == 0 || ff->placeholder || ff->last_row == NONE ||
	    (f->flags & (FLEET_STATES_ONLY | FLEET_NO_TOKENS)))
		return;
	ff->more_ms = f->now;
	agent_more(f->row[ff->last_row].agent, ff->path, more_file, &mf);
	sig = mf.n > 0 ? mf.sig | 1 : 0;
	if (sig != ff->more_sig) {
		/* Those as they were when read last, not read again. */
		seen = xreallocarray(NULL, mf.n + 1, sizeof *seen);
		for (size_t i = 0; i < mf.n; i++) {
			struct more_read *s = &seen[i], *was;
			struct tokens k = {0};

			was = ff->nmore_read == 0
				      ? NULL
				      : bsearch(&mf.key[i], ff->more_read, ff->nmore_read,
						sizeof *ff->more_read, by_key);
			if (was != NULL) {
				*s = *was;
			} else {
				s->key = mf.key[i];
				s->any = more_tokens(f, mf.path[i], f->row[ff->last_row].agent, &k);
				s->in = k.in;
				s->out = k.out;
			}
			if (s->any) {
				t.in = tokens_more(t.in, s->in, true);
				t.out = tokens_more(t.out, s->out, true);
				any = true;
			}
		}
		qsort(seen, mf.n, sizeof *seen, by_key);
		free(ff->more_read);
		ff->more_read = seen;
		ff->nmore_read = mf.n;
		ff->more_sig = sig;
		ff->more_in = any ? t.in : -1;
		ff->more_out = any ? t.out : -1;
		fleet_touch(f, ff->last_row);
	}
	for (size_t i = 0; i < mf.n; i++)
		free(mf.path[i]);
	free(mf.path);
	free(mf.key);
}

void
fleet_more_work(struct fleet *f, int64_t t0, int64_t budget_us)
{
	while (f->mhead < f->nmore) {
		uint32_t fi = f->more[f->mhead++];

		if (f->file[fi].more_due)
			fleet_read_more(f, fi);
		if (budget_us > 0 && clock_mono_us() - t0 >= budget_us)
			break;
	}
	if (f->mhead == f->nmore)
		f->mhead = f->nmore = 0;
}

/* File fi's sub-agents' files: read now, or (the first look of a list
 * made exact after it, FLEET_GAPS) once the first screen is shown. */
static void
more_after(struct fleet *f, uint32_t fi)
{
	struct ffile *ff = &f->file[fi];

	if (f->first_done || !(f->flags & FLEET_GAPS)) {
		fleet_read_more(f, fi);
	} else if (!ff->more_due && !(f->flags & (FLEET_STATES_ONLY | FLEET_NO_TOKENS))) {
		ff->more_due = true;
		ARRAY_RESERVE(f->more, f->morecap, f->nmore + 1);
		f->more[f->nmore++] = fi;
	}
}

void
fleet_row_tokens(const struct fleet *f, uint32_t ri, int64_t *in, int64_t *out)
{
	const struct fleet_row *r = &f->row[ri];
	const struct ffile *ff = &f->file[r->file];

	*in = r->tokens_in;
	*out = r->tokens_out;
	if (ff->more_sig != 0 && ff->more_in >= 0 && ff->last_row == ri && !ff->placeholder) {
		*in = tokens_more(*in, ff->more_in, true);
		*out = tokens_more(*out, ff->more_out, true);
	}
}

/* Whether a writer holds the file (a recording agentview writes). */
static bool
has_writer(int fd)
{
	if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		flock(fd, LOCK_UN);
		return false;
	}
	return errno == EWOULDBLOCK;
}

/* Its rows are read again from the start: the file (fd, now size
 * bytes) was truncated or replaced. Rows are taken again in order; those
 * left are gone. */
static void
restart(struct fleet *f, uint32_t fi, int fd, uint64_t size)
{
	struct ffile *ff = &f->file[fi];
	/* The mirror that holds the rest of the head asked for: the same
	 * file, not one read again. Only that: not shorter, its head's
	 * bytes those it had (a file the remote replaced meanwhile is
	 * another, whose head is asked for again). */
	bool same = ff->head_wait && ff->head_sig != 0 && size >= ff->size &&
		    head_sig(fd) == ff->head_sig;

	ff->head_asked = same;
	ff->head_wait = false;
	ff->chat_sig = 0; /* (its meta is read with its rows) */
	ff->reuse = ff->placeholder ? 1 : ff->nrows;
	ff->nrows = 0;
	ff->read_to = 0;
	ff->kind = FK_UNREAD;
	ff->gap = false;
	ff->rows = false;
	ff->more_sig = 0;
	for (size_t r = 0; r < f->nrow; r++) {
		if (f->row[r].file != fi)
			continue;
		f->row[r].flags |= (uint8_t)((same ? 0 : FR_REREAD) | FR_GONE);
		fleet_touch(f, (uint32_t)r);
	}
}

/* The file cannot be opened or read: said on its row. */
static void
read_error(struct fleet *f, uint32_t fi, int err)
{
	struct ffile *ff = &f->file[fi];
	struct buf how = {0};

	if (err == ENOENT) {
		ff->gone = true;
		for (size_t r = 0; r < f->nrow; r++)
			if (f->row[r].file == fi && !(f->row[r].flags & FR_GONE)) {
				f->row[r].flags |= FR_GONE;
				fleet_touch(f, (uint32_t)r);
			}
		if (ff->nrows + ff->placeholder == 0)
			placeholder(f, fi, "removed");
		return;
	}
	ff->err = err;
	if (ff->nrows > 0)
		return; /* its rows say what was read; the error waits */
	ff->kind = FK_ERROR;
	buf_addf(&how, "cannot read: %s", strerror(err));
	placeholder(f, fi, how.p);
	buf_free(&how);
}

void
fleet_read(struct fleet *f, uint32_t fi)
{
	struct ffile *ff = &f->file[fi];
	struct stat st;
	/* A store's file is never read through a link. */
	int fd = open(ff->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
					(ff->store > 0 ? O_NOFOLLOW : 0));

	if (fd < 0 || fstat(fd, &st) != 0) {
		read_error(f, fi, errno);
		if (fd >= 0)
			close(fd);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		read_error(f, fi, EINVAL);
		return;
	}
	ff->gone = false;
	ff->err = 0;
	/* Its own bytes at last: its sessions take the rows an agentview
	 * there made (fleet_preset), in order. Until then (the mirror made
	 * it empty), those rows stay. */
	if (ff->preset && st.st_size == 0) {
		close(fd);
		return;
	}
	if (ff->preset) {
		ff->preset = false;
		ff->reuse = ff->nrows;
		ff->nrows = 0;
	}
	if (ff->kind != FK_UNREAD && ff->kind != FK_ERROR &&
	    (st.st_dev != ff->dev || st.st_ino != ff->ino || (uint64_t)st.st_size < ff->read_to))
		restart(f, fi, fd, (uint64_t)st.st_size);
	ff->dev = st.st_dev;
	ff->ino = st.st_ino;
	ff->size = (uint64_t)st.st_size;
	/* Its time alone changed (touched, or a remote's mirror setting it
	 * after its bytes): its last row's time, by which lists sort. */
	if ((int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000 != ff->mtime_ms &&
	    ff->nrows > 0 && ff->last_row != NONE)
		fleet_touch(f, ff->last_row);
	ff->mtime_ms = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
	if (ff->kind == FK_UNREAD || ff->kind == FK_EMPTY || ff->kind == FK_ERROR)
		read_head(f, fi, fd);
	if (ff->kind == FK_STREAM)
		read_tail(f, fi, fd);
	ff->writer = ff->recording && has_writer(fd);
	close(fd);
	if (fleet_chat_store(f, fi) && (ff->kind == FK_STREAM || ff->kind == FK_OTHER))
		fleet_chat_look(f, fi);
	more_after(f, fi);
	fleet_settle(f, fi);
}

enum fleet_state
fleet_row_state(const struct fleet_row *r, bool newest, enum file_life life)
{
	if (r->flags & FR_FAILED)
		return FS_FAILED;
	if (r->flags & FR_RESULT)
		return FS_DONE;
	if ((r->flags & (FR_EXITED | FR_OVER | FR_GONE)) || !newest || life == FILE_CLOSED)
		return FS_INCOMPLETE;
	/* A question waits for its answer however long nothing is written. */
	if (r->asking > 0)
		return FS_WAITING;
	return life == FILE_WRITTEN ? FS_RUNNING : FS_INCOMPLETE;
}
