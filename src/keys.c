/* keys.c: the key table, its lookup, and the help and man page text made
 * from it. */
#include "keys.h"

#include <string.h>

#include "text.h"

/* clang-format off */
const struct binding key_table[] = {
	{KC_GLOBAL, ACT_QUIT, {'q', 'Q', 0}, "q", "quit (Ctrl-C too)"},
	{KC_GLOBAL, ACT_NEXT_PANE, {'\t', K_BTAB, 0}, "Tab",
	 "next pane (the narrow layout shows one at a time)"},
	{KC_GLOBAL, ACT_FOLLOW, {'F', 0}, "F",
	 "follow new events, or stop following"},
	{KC_GLOBAL, ACT_THINKING, {'t', 0}, "t", "fold or unfold thinking"},
	{KC_GLOBAL, ACT_MARKDOWN, {'M', 0}, "M",
	 "replies and plans: their Markdown rendered, or as written"},
	{KC_GLOBAL, ACT_REDRAW, {KEY_CTRL('l'), 0}, "Ctrl-L", "redraw the screen"},
	{KC_GLOBAL, ACT_HELP, {'?', 'h', K_F1, 0}, "?, h, F1", "show every key (this help)"},
	{KC_SCROLL, ACT_DOWN, {'j', K_DOWN, KEY_CTRL('n'), KEY_CTRL('e'), 0},
	 "j, Down", "down one line (timeline: next call)"},
	{KC_SCROLL, ACT_UP, {'k', K_UP, KEY_CTRL('p'), KEY_CTRL('y'), 0},
	 "k, Up", "up one line (timeline: previous call)"},
	{KC_SCROLL, ACT_PAGE_DOWN, {' ', 'f', K_PGDN, KEY_CTRL('f'), 0},
	 "Space, PgDn", "down one page"},
	{KC_SCROLL, ACT_PAGE_UP, {'b', K_PGUP, KEY_CTRL('b'), 0}, "b, PgUp",
	 "up one page"},
	{KC_SCROLL, ACT_HALF_DOWN, {'d', KEY_CTRL('d'), 0}, "d", "down half a page"},
	{KC_SCROLL, ACT_HALF_UP, {'u', KEY_CTRL('u'), 0}, "u", "up half a page"},
	{KC_SCROLL, ACT_TOP, {'g', '<', K_HOME, 0}, "g, Home", "to the top"},
	{KC_SCROLL, ACT_BOTTOM, {'G', '>', K_END, 0}, "G, End",
	 "to the end, and follow new events"},
	{KC_HELP, ACT_HELP_CLOSE, {'q', 'Q', K_ESC, '?', 'h', K_F1, 0}, "q, Esc, ?",
	 "close the help (the transcript's keys scroll it)"},
	{KC_GLOBAL, ACT_SEARCH, {'/', 0}, "/",
	 "search the transcript and the calls' details (smartcase: case matters when the "
	 "pattern has a capital)"},
	{KC_GLOBAL, ACT_SEARCH_NEXT, {'n', 0}, "n",
	 "next match (Enter opens a call's detail at its match)"},
	{KC_GLOBAL, ACT_SEARCH_PREV, {'N', 0}, "N", "previous match"},
	{KC_GLOBAL, ACT_FILTER, {'&', 0}, "&",
	 "show only the items that match (& alone: every item again)"},
	{KC_GLOBAL, ACT_PREV_TOOL, {'[', 0}, "[", "previous tool call"},
	{KC_GLOBAL, ACT_NEXT_TOOL, {']', 0}, "]", "next tool call"},
	{KC_GLOBAL, ACT_PREV_PROMPT, {'{', 0}, "{", "previous prompt"},
	{KC_GLOBAL, ACT_NEXT_PROMPT, {'}', 0}, "}", "next prompt"},
	{KC_GLOBAL, ACT_NEXT_PROBLEM, {'!', 0}, "!",
	 "next failed, rejected, error or orphaned tool call (wraps)"},
	{KC_GLOBAL, ACT_HIDE_THINKING, {'T', 0}, "T", "hide or show thinking"},
	{KC_GLOBAL, ACT_HIDE_TOOLS, {'C', 0}, "C", "hide or show tool calls"},
	{KC_GLOBAL, ACT_HIDE_NOTICES, {'S', 0}, "S",
	 "hide or show system, connection and retry notices"},
	{KC_GLOBAL, ACT_HIDE_DIAGS, {'D', 0}, "D",
	 "hide or show diagnostics (lines that are not JSON) and stderr lines"},
	{KC_GLOBAL, ACT_REDACT, {'R', 0}, "R",
	 "hide or show secrets (keys, tokens, passwords: [redacted])"},
	{KC_SCROLL, ACT_DETAIL, {'\r', '\n', K_ENTER, 0}, "Enter",
	 "open the detail of the selected tool call (transcript: the call of the match "
	 "shown, at the match, or the selected or first visible call)"},
	{KC_SCROLL, ACT_COPY, {'y', 0}, "y",
	 "copy to the clipboard (OSC 52) the selected call's command or path (y again: "
	 "its output), reply or prompt (transcript: the selected or first visible one)"},
	{KC_GLOBAL, ACT_COPY_RESUME, {'Y', 0}, "Y",
	 "copy the command that resumes the session (claude --resume ID, ...)"},
	{KC_SCROLL, ACT_EDIT, {'e', 0}, "e",
	 "open the selected call's file in $VISUAL or $EDITOR (vi), at its line"},
	{KC_SCROLL, ACT_PAGER, {'o', 0}, "o",
	 "open the selected call's whole output, or the reply, in $PAGER (less)"},
	{KC_DETAIL, ACT_CLOSE, {'q', 'Q', K_ESC, 0}, "q, Esc",
	 "close the detail, back to where you were"},
	{KC_DETAIL, ACT_DETAIL_RAW, {'r', 0}, "r",
	 "show the raw JSON of both events, or the detail again"},
	{KC_DETAIL, ACT_SEARCH, {'/', 0}, "/", "search this detail"},
	{KC_DETAIL, ACT_SEARCH_NEXT, {'n', 0}, "n", "next match in this detail"},
	{KC_DETAIL, ACT_SEARCH_PREV, {'N', 0}, "N", "previous match in this detail"},
	{KC_DETAIL, ACT_PREV_TOOL, {'[', 0}, "[", "the previous tool call's detail"},
	{KC_DETAIL, ACT_NEXT_TOOL, {']', 0}, "]", "the next tool call's detail"},
	{KC_DETAIL, ACT_COPY, {'y', 0}, "y",
	 "copy the part the cursor row is in (command, stdout, diff, a match, "
	 "an event's JSON line), else the whole detail"},
	{KC_DETAIL, ACT_EDIT, {'e', 0}, "e",
	 "open the call's file in the editor, at the cursor row's line (a read's "
	 "line, a grep match) or the call's"},
	{KC_DETAIL, ACT_PAGER, {'o', 0}, "o", "the call's whole output in $PAGER"},
	{KC_PROMPT, ACT_PROMPT_ACCEPT, {'\r', '\n', K_ENTER, 0}, "Enter",
	 "keep the match found (an empty pattern repeats the last search); after &, "
	 "show the items that match"},
	{KC_PROMPT, ACT_PROMPT_CANCEL, {K_ESC, KEY_CTRL('g'), 0},
	 "Esc", "cancel: back to where you were"},
	{KC_PROMPT, ACT_PROMPT_ERASE, {K_BACKSPACE, 127, KEY_CTRL('h'), 0},
	 "Backspace", "erase a character"},
	{KC_PROMPT, ACT_PROMPT_CLEAR, {KEY_CTRL('u'), 0}, "Ctrl-U",
	 "erase the pattern"},
	{KC_REPLAY, ACT_REPLAY_PAUSE, {' ', 0}, "Space",
	 "pause or resume (at the end: play again from the start)"},
	{KC_REPLAY, ACT_REPLAY_STEP, {'.', 0}, ".",
	 "one event forward, and pause"},
	{KC_REPLAY, ACT_REPLAY_STEP_BACK, {',', 0}, ",",
	 "one event back, and pause"},
	{KC_REPLAY, ACT_REPLAY_SEEK_BACK, {K_LEFT, 0}, "Left", "back 5 s"},
	{KC_REPLAY, ACT_REPLAY_SEEK, {K_RIGHT, 0}, "Right", "forward 5 s"},
	{KC_REPLAY, ACT_REPLAY_SEEK_BACK_LONG, {K_SLEFT, 0}, "Shift-Left",
	 "back 30 s"},
	{KC_REPLAY, ACT_REPLAY_SEEK_LONG, {K_SRIGHT, 0}, "Shift-Right",
	 "forward 30 s"},
	{KC_REPLAY, ACT_REPLAY_JUMP,
	 {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 0}, "0 ... 9",
	 "jump to 0 %, 10 %, ... 90 % of the replay"},
	{KC_REPLAY, ACT_REPLAY_PREV_CALL, {'[', 0}, "[",
	 "back to the start of the previous tool call"},
	{KC_REPLAY, ACT_REPLAY_NEXT_CALL, {']', 0}, "]",
	 "on to the start of the next tool call"},
	{KC_REPLAY, ACT_REPLAY_PREV_PROMPT, {'{', 0}, "{",
	 "back to the previous prompt"},
	{KC_REPLAY, ACT_REPLAY_NEXT_PROMPT, {'}', 0}, "}",
	 "on to the next prompt"},
	{KC_REPLAY, ACT_REPLAY_FASTER, {'+', '=', 0}, "+", "twice as fast"},
	{KC_REPLAY, ACT_REPLAY_SLOWER, {'-', '_', 0}, "-", "half as fast"},
	{KC_LIST, ACT_LIST_MOVE, {0}, "j, k, PgDn",
	 "move the selection, with the transcript's keys (Space, b, d, u, g, G too)"},
	{KC_LIST, ACT_LIST_OPEN, {'\r', '\n', K_ENTER, 0}, "Enter",
	 "open the session selected in the transcript and timeline (its new mark goes)"},
	{KC_LIST, ACT_LIST_BACK, {'q', 'Q', K_ESC, 0}, "q, Esc",
	 "in a session opened from the list: back to the list, at the same row "
	 "(on the list: Esc empties the filter, q quits)"},
	{KC_LIST, ACT_LIST_PREV, {'(', 0}, "(",
	 "in a session opened from the list: the list's previous session"},
	{KC_LIST, ACT_LIST_NEXT, {')', 0}, ")",
	 "in a session opened from the list: the list's next session"},
	{KC_LIST, ACT_LIST_NEXT_ATTENTION, {'w', 0}, "w",
	 "the next session that waits for a decision or failed (wraps)"},
	{KC_LIST, ACT_LIST_PREV_ATTENTION, {'W', 0}, "W",
	 "the previous session that waits or failed"},
	{KC_LIST, ACT_LIST_SORT, {'s', 0}, "s",
	 "sort by attention (waiting, failed, running, then the latest), newest, longest, cwd"},
	{KC_LIST, ACT_LIST_REVERSE, {'S', 0}, "S", "reverse the order"},
	{KC_LIST, ACT_LIST_HIDE, {'x', 0}, "x",
	 "hide the sessions that are over and need nothing (done, incomplete), or show them"},
	{KC_LIST, ACT_LIST_FILTER, {'/', 0}, "/",
	 "filter the rows as you type (any case); Enter keeps it, Esc puts back the last"},
	{KC_LIST, ACT_COPY_RESUME, {'Y', 0}, "Y",
	 "copy the command that resumes the selected session (claude --resume ID, ...)"},
	{KC_LIST, ACT_PAGER, {'o', 0}, "o",
	 "the selected session as text in $PAGER (less)"},
	{KC_LIST, ACT_EDIT, {'e', 0}, "e",
	 "the selected session's folder (its cwd) in $VISUAL or $EDITOR"},
	{KC_GLOBAL, ACT_NONE, {0}, NULL, NULL},
};
/* clang-format on */

enum action
keys_lookup(enum key_ctx ctx, int key)
{
	for (const struct binding *b = key_table; b->action != ACT_NONE; b++) {
		if (b->ctx != ctx)
			continue;
		for (int i = 0; i < KEYS_MAX && b->keys[i] != 0; i++)
			if (b->keys[i] == key)
				return b->action;
	}
	return ACT_NONE;
}

const char *
keys_ctx_title(enum key_ctx ctx)
{
	static const char *const titles[KC_CONTEXTS] = {
		[KC_GLOBAL] = "Anywhere",
		[KC_SCROLL] = "Transcript and timeline",
		[KC_HELP] = "Help",
		[KC_DETAIL] = "Tool-call detail (scrolls with the keys above)",
		[KC_PROMPT] = "Search prompt",
		[KC_REPLAY] = "Replay (--replay)",
		[KC_LIST] = "Session list (a folder, several files, or none)",
	};

	return (unsigned)ctx < KC_CONTEXTS && titles[ctx] ? titles[ctx] : "?";
}

void
keys_roff(struct buf *out)
{
	for (int ctx = 0; ctx < KC_CONTEXTS; ctx++) {
		buf_adds(out, ".SS ");
		text_roff(out, keys_ctx_title((enum key_ctx)ctx));
		buf_addc(out, '\n');
		for (const struct binding *b = key_table; b->action != ACT_NONE; b++) {
			if (b->ctx != (enum key_ctx)ctx)
				continue;
			buf_adds(out, ".TP\n.B ");
			text_roff(out, b->names);
			buf_addc(out, '\n');
			text_roff(out, b->help);
			buf_addc(out, '\n');
		}
	}
}

/* Append help text s wrapped to width cells, each row after the first
 * indented by indent spaces (the first is where the caller is). */
static void
help_wrap(struct buf *out, const char *s, int width, int indent)
{
	struct text_rows rows = {0};
	struct buf clean = {0};

	text_sanitize(&clean, s, strlen(s), TEXT_ONELINE);
	text_wrap(&rows, clean.p, clean.n, (size_t)MAX(width, 1));
	for (size_t i = 0; i < rows.n; i++) {
		if (i > 0)
			buf_addf(out, "%*s", indent, "");
		buf_add(out, clean.p + rows.v[i].off, rows.v[i].len);
		/* A row keeps the spaces of its break; help lines end clean. */
		while (out->n > 0 && out->p[out->n - 1] == ' ')
			out->p[--out->n] = '\0';
		buf_addc(out, '\n');
	}
	text_rows_free(&rows);
	buf_free(&clean);
}

void
keys_help(struct buf *out, int width, enum key_ctx only)
{
	int namew = 0, helpw;
	bool stacked, first = true;

	for (const struct binding *b = key_table; b->action != ACT_NONE; b++)
		if (only == KC_CONTEXTS || b->ctx == only)
			namew = MAX(namew, (int)text_width(b->names, strlen(b->names)));
	if (width <= 0)
		width = 1 << 20;
	/* Two columns while the help column keeps room for a few words. */
	helpw = width - 2 - namew - 2;
	stacked = helpw < 20;
	for (int ctx = 0; ctx < KC_CONTEXTS; ctx++) {
		if (only != KC_CONTEXTS && ctx != (int)only)
			continue;
		if (!first)
			buf_addc(out, '\n');
		first = false;
		help_wrap(out, keys_ctx_title((enum key_ctx)ctx), width, 0);
		for (const struct binding *b = key_table; b->action != ACT_NONE; b++) {
			if (b->ctx != (enum key_ctx)ctx)
				continue;
			if (stacked) {
				buf_adds(out, "  ");
				help_wrap(out, b->names, width - 2, 2);
				buf_adds(out, "    ");
				help_wrap(out, b->help, width - 4, 4);
			} else {
				/* Padded by cells: names may hold arrows. */
				buf_addf(out, "  %s%*s  ", b->names,
					 namew - (int)text_width(b->names, strlen(b->names)), "");
				help_wrap(out, b->help, helpw, 2 + namew + 2);
			}
		}
	}
}

void
keys_name(int key, struct buf *out)
{
	static const char *const names[] = {
		[K_UP - K_FIRST] = "Up",
		[K_DOWN - K_FIRST] = "Down",
		[K_LEFT - K_FIRST] = "Left",
		[K_RIGHT - K_FIRST] = "Right",
		[K_SLEFT - K_FIRST] = "Shift-Left",
		[K_SRIGHT - K_FIRST] = "Shift-Right",
		[K_PGUP - K_FIRST] = "PgUp",
		[K_PGDN - K_FIRST] = "PgDn",
		[K_HOME - K_FIRST] = "Home",
		[K_END - K_FIRST] = "End",
		[K_ENTER - K_FIRST] = "Enter",
		[K_BTAB - K_FIRST] = "Shift-Tab",
		[K_ESC - K_FIRST] = "Esc",
		[K_MOUSE - K_FIRST] = "the mouse",
		[K_OTHER - K_FIRST] = "that function key",
		[K_BACKSPACE - K_FIRST] = "Backspace",
		[K_F1 - K_FIRST] = "F1",
	};
	unsigned i = (unsigned)(key - K_FIRST);

	if (key > K_FIRST && i < ARRAY_LEN(names) && names[i] != NULL)
		buf_adds(out, names[i]);
	else if (key == ' ')
		buf_adds(out, "Space");
	else if (key == 0x7F)
		buf_adds(out, "Backspace");
	else if (key >= 0 && key < 0x20)
		buf_addf(out, "Ctrl-%c", key + '@');
	else if (key > 0x20 && key < K_FIRST && key <= 0x10FFFF)
		buf_add_utf8(out, (uint32_t)key);
	else
		buf_adds(out, "that key");
}
