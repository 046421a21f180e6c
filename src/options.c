/* options.c: the command line's one table, the parsing made from it, and
 * what is written from it: the --help text, the man page's OPTIONS
 * section, and the bash, zsh and fish completions (what is fixed in them
 * - the theme names asked of agentview itself, the command after "--" -
 * as text, a line a row for the options). */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "keys.h"
#include "print.h"
#include "text.h"
#include "theme.h"

#ifndef AGENTVIEW_VERSION
#define AGENTVIEW_VERSION "dev"
#endif

/* Where --help's text column starts; how wide its lines are at most. */
#define HELP_COL 25
#define HELP_WIDTH 100

/* --agent's words: the adapters' names, by id (words_of fills them from
 * the table of agents). */
static struct opt_word agent_words[MAX_AGENTS + 1];

static const struct opt_word color_words[] = {
	{"auto", COLOR_AUTO},
	{"always", COLOR_ALWAYS},
	{"never", COLOR_NEVER},
	{NULL, 0},
};

static const struct opt_word shell_words[] = {
	{"bash", SHELL_BASH},
	{"zsh", SHELL_ZSH},
	{"fish", SHELL_FISH},
	{NULL, 0},
};

/* --help. */
static void
act_help(struct buf *out, int value)
{
	(void)value;
	options_help(out);
}

/* --version. */
static void
act_version(struct buf *out, int value)
{
	(void)value;
	buf_adds(out, "agentview " AGENTVIEW_VERSION "\n");
}

/* --roff-keys: the man page's KEYS section, for `make update-man`. */
static void
act_keys_roff(struct buf *out, int value)
{
	(void)value;
	keys_roff(out);
}

/* --roff-options: the man page's OPTIONS section, for `make update-man`. */
static void
act_options_roff(struct buf *out, int value)
{
	(void)value;
	options_roff(out);
}

/* --shell-completion SHELL: the shell's completion script, for
 * `make update-completions`. */
static void
act_completion(struct buf *out, int value)
{
	complete_script(out, (enum shell)value);
}

/* --list-themes: the names --theme takes, for the completions. */
static void
act_list_themes(struct buf *out, int value)
{
	(void)value;
	theme_names(NULL, out);
}

/* clang-format off */
const struct opt options_table[] = {
	{.name = "follow", .letter = 'f', .kind = OPT_FLAG, .to = OPT_AT(follow),
	 .help = "keep reading FILE as it grows (tail -F: survives truncation and replacement)",
	 .man = "Keep reading\n"
		".I FILE\n"
		"as it grows, like\n"
		".BR \"tail \\-F\" :\n"
		"a file that is truncated or replaced is read again from the start, and the\n"
		"status bar says so.\n"
		"Without\n"
		".BR \\-f ,\n"
		"a file is mapped into memory, not copied: cut short while it is viewed, it\n"
		"ends agentview with SIGBUS at the next read past its new end (the terminal\n"
		"restored, and the reason said).\n"},
	{.name = "recursive", .letter = 'R', .kind = OPT_FLAG, .to = OPT_AT(recursive),
	 .help = "with FOLDERs: the folders in them too, all the way down",
	 .man = "With\n"
		".IR FOLDER s:\n"
		"list the sessions of the folders in them too, all the way down (without\n"
		"it, one level).\n"},
	{.name = "replay", .letter = 'r', .kind = OPT_FLAG, .to = OPT_AT(replay),
	 .help = "replay with the recorded timing instead of showing everything at once\n"
		 "(with --print, the plain output comes out at that timing too)",
	 .man = "Replay with the recorded timing instead of showing everything at once\n"
		"(see\n"
		".BR REPLAY ).\n"
		"With\n"
		".BR \\-\\-print ,\n"
		"the plain output comes out at that timing too.\n"},
	{.name = "speed", .letter = 's', .kind = OPT_NUMBER, .arg = "X",
	 .to = OPT_AT(speed), .help = "replay speed factor (default 1)",
	 .man = "Replay speed factor (default 1); with\n"
		".B \\-\\-replay\n"
		"only.\n"},
	{.name = "idle-limit", .letter = 'i', .kind = OPT_NUMBER, .arg = "SEC",
	 .to = OPT_AT(idle_limit), .flags = OPTF_ZERO,
	 .help = "cap every pause in a replay at SEC seconds",
	 .man = "Cap every pause in a replay at\n"
		".I SEC\n"
		"seconds; with\n"
		".B \\-\\-replay\n"
		"only.\n"},
	{.name = "record", .kind = OPT_FILE, .arg = "FILE", .to = OPT_AT(record),
	 .help = "write what is read (stdin or COMMAND's output) to FILE as a recording",
	 .man = "Write what is read (standard input or\n"
		".IR COMMAND 's\n"
		"output) to\n"
		".I FILE\n"
		"as a recording (see\n"
		".BR RECORDINGS ).\n"
		"A recording that cannot be written (a full disk, a missing directory, the\n"
		"file removed) is reported at once, in the status bar or on standard error\n"
		"with\n"
		".BR \\-\\-print ;\n"
		"reading and showing go on, and the exit status is 1.\n"},
	{.name = "no-record", .kind = OPT_FLAG, .to = OPT_AT(no_record),
	 .help = "keep nothing of what is read live (AGENTVIEW_RECORD=0 says the same);\n"
		 "without it, stdin or COMMAND's output is also kept in the folder of\n"
		 "sessions, $XDG_STATE_HOME/agentview/sessions",
	 .man = "Keep nothing of what is read live.\n"
		"Without it (and without\n"
		".BR AGENTVIEW_RECORD=0 ),\n"
		"a stream read live (a pipe, or\n"
		".IR COMMAND 's\n"
		"output) is also recorded, as\n"
		".B \\-\\-record\n"
		"does, into the folder of sessions (see\n"
		".BR \"KEPT SESSIONS\" ).\n"
		"A kept session that cannot be written is said, and changes no exit status.\n"},
	{.name = "keep", .kind = OPT_NUMBER, .arg = "DAYS", .to = OPT_AT(keep),
	 .flags = OPTF_ZERO,
	 .help = "remove the sessions agentview kept itself after DAYS days without a\n"
		 "write (default 30, or AGENTVIEW_KEEP_DAYS; 0: never)",
	 .man = "Remove the sessions agentview kept on its own after\n"
		".I DAYS\n"
		"days without a write (default 30, or\n"
		".BR AGENTVIEW_KEEP_DAYS ;\n"
		".B 0\n"
		"keeps them for ever).\n"
		"Nothing else is ever removed: not a file of\n"
		".BR \\-\\-record ,\n"
		"not a file someone else put there.\n"},
	{.name = "sources", .kind = OPT_FILE, .arg = "LIST", .to = OPT_AT(sources),
	 .help = "what agentview alone lists: claude, codex, gemini, copilot, cursor, kept,\n"
		 "comma-separated (default all, or AGENTVIEW_SOURCES)",
	 .man = "What\n"
		".B agentview\n"
		"alone lists: a comma-separated list of\n"
		".BR claude ,\n"
		".BR codex ,\n"
		".BR gemini ,\n"
		".BR copilot ,\n"
		".B cursor\n"
		"(the agents' own session stores, read only; see\n"
		".BR \"SESSION STORES\" )\n"
		"and\n"
		".B kept\n"
		"(the sessions agentview kept itself).\n"
		"Without it,\n"
		".B AGENTVIEW_SOURCES\n"
		"says the same; without either, all of them.\n"},
	{.name = "print", .letter = 'p', .kind = OPT_FLAG, .to = OPT_AT(print),
	 .help = "plain output, no screen (the default when stdout is not a terminal)",
	 .man = "Plain output, no screen (the default when standard output is not a\n"
		"terminal).\n"},
	{.name = "agent", .kind = OPT_ENUM, .arg = "NAME", .words = agent_words,
	 .to = OPT_AT(agent),
	 .help = "read every line as this agent's stream: cursor, claude, gemini, codex,\n"
		 "copilot (its stream and its store); or its store: claude-store,\n"
		 "codex-rollout, gemini-chat, cursor-transcript (without it, each\n"
		 "session's agent is recognised from its first line)",
	 .man = "Read every line as the stream of\n"
		".IR NAME :\n"
		".BR cursor ,\n"
		".BR claude \" (Claude Code), \" gemini \" (Gemini CLI), \" codex\n"
		"or\n"
		".BR copilot \" (Copilot CLI, its stream and its own session files);\"\n"
		"or the files of its own session store:\n"
		".BR claude-store \" (Claude Code's transcripts), \" codex-rollout \" (Codex's rollouts), \" gemini-chat \" (Gemini CLI's chats) or \" cursor-transcript \" (Cursor Agent's transcripts).\"\n"
		"Without it, the agent of each session is recognised from its first line,\n"
		"and a file may hold sessions of several agents one after another.\n"},
	{.name = "format", .kind = OPT_ENUM, .arg = "FMT", .flags = OPTF_FORMATS,
	 .to = OPT_AT(format), .given = OPT_AT(format_given)},
	{.name = "redact", .kind = OPT_FLAG, .to = OPT_AT(redact),
	 .help = "hide secrets (API keys, tokens, private keys, passwords) in every\n"
		 "output and on screen: each reads [redacted]",
	 .man = "Hide secrets in every output and on screen, in what\n"
		".B y\n"
		"copies and\n"
		".B o\n"
		"pages, and in\n"
		".BR \\-\\-notify\\-cmd 's\n"
		"environment: API keys and tokens of well-known shapes (those of\n"
		"gitleaks' default rules:\n"
		".BR sk\\- ,\n"
		".BR ghp_ ,\n"
		".BR glpat\\- ,\n"
		".BR AKIA ,\n"
		".BR AIza ,\n"
		".BR sk_live_ ,\n"
		".BR hf_ ,\n"
		".BR npm_ ,\n"
		".BR xoxb\\- ,\n"
		"Slack's webhooks, JWTs and more), private key blocks, the values of\n"
		"names that hold secrets\n"
		".RB ( PASSWORD= ,\n"
		".BR DB_PASS= ,\n"
		".BR TOKEN= ,\n"
		".BR *_KEY= ,\n"
		".BR \"SECRET_KEY = \\(aq...\\(aq\" ,\n"
		".BR \"\\(dqapi_key\\(dq: ...\" ,\n"
		".BR \"api_key: ...\" ,\n"
		".BR X\\-Api\\-Key: ,\n"
		".BR Cookie: ,\n"
		".B Authorization:\n"
		"after its scheme,\n"
		".BR \"\\-\\-password ...\" ),\n"
		"passwords in URLs and in\n"
		".BR \"curl \\-u\" ,\n"
		".B \"mysql \\-p\"\n"
		"and\n"
		".BR \"sshpass \\-p\" ,\n"
		"also when JSON spells them with\n"
		".B \\eu\n"
		"escapes; and what matches a\n"
		".BR \\-\\-redact\\-pattern .\n"
		"Each reads\n"
		".BR [redacted] ;\n"
		"a text cut short is never cut through one.\n"
		"On screen the key\n"
		".B R\n"
		"turns it on and off.\n"
		"The raw format and recordings keep the stream as it came.\n"},
	{.name = "redact-pattern", .kind = OPT_PATTERN, .arg = "RE",
	 .to = OPT_AT(patterns), .given = OPT_AT(redact),
	 .help = "hide what matches RE too (POSIX extended; repeatable; implies --redact)",
	 .man = "Hide what matches\n"
		".I RE\n"
		"too, a POSIX extended regular expression in which\n"
		".B ^\n"
		"and\n"
		".B $\n"
		"match at each line; repeatable, and implies\n"
		".BR \\-\\-redact .\n"
		"One that does not compile is a usage error.\n"},
	{.name = "status-line", .kind = OPT_FLAG, .to = OPT_AT(status_line),
	 .help = "print one status line for the newest session of FILE and exit\n"
		 "(a session without result is live while FILE was modified in\n"
		 "the last 2 minutes); with FOLDERs or FILEs (or none, on a terminal:\n"
		 "the kept sessions), their sessions summed up: 3 running, 1 waiting, ...",
	 .man = "Print one line about the newest session of\n"
		".I FILE\n"
		"and exit; with\n"
		".IR FOLDER s\n"
		"or several\n"
		".IR FILE s\n"
		"(or none, and standard input is no pipe nor file: the kept sessions), one\n"
		"line that sums their sessions up (see\n"
		".BR \"STATUS LINE\" ).\n"},
	{.name = "tmux-style", .kind = OPT_FLAG, .to = OPT_AT(tmux_style),
	 .help = "with --status-line: tmux #[fg=...] colours, '#' doubled",
	 .man = "With\n"
		".BR \\-\\-status\\-line :\n"
		"colour the state and the failures with tmux\n"
		".B #[fg=...]\n"
		"styles, and double every\n"
		".B #\n"
		"taken from event text, since tmux expands formats in the output of\n"
		".BR #() .\n"
		"Without it the line holds no escape of any kind; inside tmux\n"
		"(\n"
		".B TMUX\n"
		"set) every\n"
		".B #\n"
		"of event text is doubled all the same, since the line most likely\n"
		"goes into tmux's bar, where a stream's\n"
		".B #(...)\n"
		"would run.\n"},
	{.name = "compare", .kind = OPT_FLAG, .to = OPT_AT(compare),
	 .help = "compare two runs: the two FILEs (FILE#N: its Nth session, else its\n"
		 "newest) side by side, in --format text, markdown or json; on a\n"
		 "terminal, in the viewer, the timelines on one time axis",
	 .man = "Compare two runs and exit: the two\n"
		".IR FILE s\n"
		"(each its newest session, or\n"
		".IB FILE # N\n"
		"for its\n"
		".IR N th,\n"
		"from 1), side by side: agent and model, state, duration, tokens, cost, tool\n"
		"calls by kind and by state, files read and changed, commands run, failures,\n"
		"the tool calls of both as bars on one time axis, and the first step at\n"
		"which the two runs differ.\n"
		"In\n"
		".B \\-\\-format text\n"
		"(default),\n"
		".B markdown\n"
		"or\n"
		".BR json .\n"
		"On a terminal without\n"
		".BR \\-\\-format ,\n"
		"the two files open in the viewer instead, every session's tool calls on one\n"
		"time axis from its own start, so that the same time is the same place:\n"
		"each row of the timeline is marked A (the first file's) or B, a divider\n"
		"stands between the runs, each session's header in the transcript says its\n"
		"run, and the status bar says both (A's state, time and calls, then B's).\n"},
	{.name = "theme", .kind = OPT_THEME, .arg = "NAME", .to = OPT_AT(theme),
	 .help = "colour theme: default, light, mono, high-contrast, or a theme file's path",
	 .man = "Colour theme:\n"
		".BR default \" (dark), \" light \", \" mono \" (attributes only), \" high\\-contrast ,\n"
		"or one of your own (see\n"
		".BR THEMES ).\n"
		"A\n"
		".I NAME\n"
		"with a\n"
		".B /\n"
		"in it is the path of a theme file.\n"
		"A theme that cannot be found or read, or has a mistake in it, is named in\n"
		"the status bar (with the line of the mistake) and the default is used.\n"},
	{.name = "color", .alias = "colour", .kind = OPT_ENUM, .arg = "WHEN",
	 .words = color_words, .to = OPT_AT(color),
	 .help = "auto, always, never (NO_COLOR, when non-empty, means never)",
	 .man = ".BR auto \", \" always \" or \" never .\n"
		".B NO_COLOR\n"
		"(when non-empty) means never, unless\n"
		".B always\n"
		"is given.\n"
		"Without colours only bold, reverse and underline are used: call states\n"
		"differ by their glyphs, the status bar and the selection are in reverse\n"
		"video.\n"},
	{.name = "bell", .kind = OPT_FLAG, .to = OPT_AT(bell),
	 .help = "ring the terminal bell when the session ends or a tool call fails",
	 .man = "Ring the terminal bell when the session ends or a tool call fails, is\n"
		"rejected or errs.\n"},
	{.name = "title", .kind = OPT_FLAG, .to = OPT_AT(title),
	 .help = "name the session and its state in the terminal's (tmux pane's) title",
	 .man = "Name the session and its state in the terminal's title (in tmux, the\n"
		"pane title:\n"
		".BR \"agentview: live \\(bu Grok 4.7 \\(bu 17e650d2\" ),\n"
		"made only of agentview's own sanitized text; set back to\n"
		".B agentview\n"
		"on the way out.\n"},
	{.name = "mouse", .kind = OPT_SET, .to = OPT_AT(mouse), .set = 1,
	 .help = "wheel and clicks in the viewer, also inside tmux",
	 .man = "Take the mouse: the wheel scrolls, a click selects, a click on the selected\n"
		"tool call opens its detail.\n"
		"This is the default outside tmux.\n"},
	{.name = "no-mouse", .kind = OPT_SET, .to = OPT_AT(mouse), .set = 0,
	 .help = "leave the mouse to the terminal (the default inside tmux,\n"
		 "so that selecting text works)",
	 .man = "Leave the mouse to the terminal, so that selecting text works.\n"
		"This is the default inside tmux (when\n"
		".B TMUX\n"
		"is set).\n"},
	{.name = "notify", .kind = OPT_FLAG, .to = OPT_AT(notify),
	 .help = "when a session is done, fails or waits for a decision: ring the bell and\n"
		 "send a desktop notification (OSC 9 and 777; tmux: allow-passthrough on)",
	 .man = "When a session is done, fails, or waits for a decision: ring the\n"
		"terminal's bell and send a desktop notification through the terminal\n"
		"(see\n"
		".BR NOTIFICATIONS ).\n"},
	{.name = "notify-cmd", .kind = OPT_FILE, .arg = "CMD", .to = OPT_AT(notify_cmd),
	 .help = "run CMD (sh -c) when a session is done, fails or waits; what happened is\n"
		 "in its environment: AGENTVIEW_EVENT, _SESSION, _AGENT, _STATE, _SUMMARY, _FILE",
	 .man = "Run\n"
		".I CMD\n"
		"with\n"
		".B sh \\-c\n"
		"when a session is done, fails, or waits for a decision, in the\n"
		"background, with what happened in its environment only (never in the\n"
		"command's text; see\n"
		".BR NOTIFICATIONS ).\n"},
	{.name = "help", .letter = 'h', .kind = OPT_ACTION, .act = act_help,
	 .help = "usage on stdout, exit 0",
	 .man = "Usage on standard output, exit 0.\n"},
	{.name = "version", .letter = 'V', .kind = OPT_ACTION, .act = act_version,
	 .help = "version on stdout, exit 0",
	 .man = "Version on standard output, exit 0.\n"},
	/* For tests, benchmarks, the generated man page and the completions. */
	{.name = "frames", .kind = OPT_NUMBER, .arg = "N", .to = OPT_AT(frames),
	 .flags = OPTF_HIDDEN, .help = "quit the screen after N frames"},
	{.name = "roff-keys", .kind = OPT_ACTION, .act = act_keys_roff,
	 .flags = OPTF_HIDDEN, .help = "the man page's KEYS section"},
	{.name = "roff-options", .kind = OPT_ACTION, .act = act_options_roff,
	 .flags = OPTF_HIDDEN, .help = "the man page's OPTIONS section"},
	{.name = "shell-completion", .kind = OPT_ACTION, .arg = "SHELL",
	 .words = shell_words, .act = act_completion, .flags = OPTF_HIDDEN,
	 .help = "the completion script of SHELL"},
	{.name = "list-themes", .kind = OPT_ACTION, .act = act_list_themes,
	 .flags = OPTF_HIDDEN, .help = "the theme names --theme takes, one a line"},
	{.name = NULL},
};
/* clang-format on */

/* The lines of --help around the options. */
static const char help_head[] =
	"usage: agentview [OPTIONS] [FILE]                view FILE; '-' or piped stdin = live input\n"
	"       agentview [OPTIONS] -- COMMAND [ARG ...]  run COMMAND and view its output live\n"
	"       agentview [OPTIONS] FOLDER|FILE ...       a live list of the sessions of FOLDERs and FILEs\n"
	"                                                 (*.ndjson, *.jsonl, recordings; Enter opens\n"
	"                                                 one); with no argument on a terminal, the\n"
	"                                                 sessions agentview kept; HOST:PATH, HOST: or\n"
	"                                                 ssh://HOST:PORT/PATH for those of another\n"
	"                                                 machine, over ssh\n";
static const char help_tail[] =
	"On screen, q (or Ctrl-C) while COMMAND runs asks before stopping it.\n"
	"COMMAND reads agentview's stdin when that is a pipe or a file, else /dev/null; its\n"
	"stderr shows as stderr lines; it runs in its own process group, which SIGTERM,\n"
	"SIGINT and SIGHUP stop: SIGTERM, then SIGKILL to what is left once COMMAND has\n"
	"exited or after 3 s.\n"
	"Exit status: 0 success; 1 I/O or runtime error; 2 usage error; with --print or\n"
	"--status-line, 3 when the input ended without a result event; with -- COMMAND,\n"
	"COMMAND's non-zero exit status is passed on (128+N when signal N killed it).\n";

int
options_usage(struct buf *err, const char *fmt, ...)
{
	va_list ap;

	buf_adds(err, "agentview: ");
	va_start(ap, fmt);
	buf_vaddf(err, fmt, ap);
	va_end(ap);
	buf_adds(err, "\nTry 'agentview --help' for more information.\n");
	return 2;
}

/* The words row o takes; --agent's are the table of agents'. */
static const struct opt_word *
words_of(const struct opt *o)
{
	unsigned n = agent_count();

	if (o->words != agent_words)
		return o->words;
	for (unsigned a = 0; a < n; a++)
		agent_words[a] = (struct opt_word){agent_get(a)->name, (int)a};
	agent_words[n] = (struct opt_word){NULL, 0};
	return agent_words;
}

/* Whether w is an alias: an earlier word of its list has its value. */
static bool
word_is_alias(const struct opt_word *words, const struct opt_word *w)
{
	for (const struct opt_word *v = words; v < w; v++)
		if (v->value == w->value)
			return true;
	return false;
}

const struct opt_word *
options_words_of(const struct opt *r)
{
	static struct opt_word formats[2 * FORMAT_MAX + 1];
	size_t k = 0;

	if (!(r->flags & OPTF_FORMATS))
		return words_of(r);
	/* Each format's name, then the other words they go by. */
	if (formats[0].word == NULL) {
		for (size_t i = 0; i < format_count(); i++)
			formats[k++] = (struct opt_word){format_at(i)->name, (int)i};
		for (size_t i = 0; i < format_count(); i++)
			if (format_at(i)->alias != NULL)
				formats[k++] = (struct opt_word){format_at(i)->alias, (int)i};
	}
	return formats;
}

void
options_text(const struct opt *r, bool roff, struct buf *out)
{
	if (!(r->flags & OPTF_FORMATS))
		buf_adds(out, roff ? r->man : r->help);
	else if (roff)
		format_roff(out);
	else
		format_help(out, HELP_WIDTH - HELP_COL);
}

void
options_words(struct buf *out, const struct opt *o, const char *sep)
{
	const struct opt_word *words = options_words_of(o);
	bool first = true;

	for (const struct opt_word *w = words; w != NULL && w->word != NULL; w++) {
		if (word_is_alias(words, w))
			continue;
		if (!first)
			buf_adds(out, sep);
		buf_adds(out, w->word);
		first = false;
	}
}

/* The value of word s for option o; -1 with a usage error in err when o
 * does not take it. */
static int
parse_word(const struct opt *o, const char *s, int *value, struct buf *err)
{
	struct buf list = {0};

	for (const struct opt_word *w = options_words_of(o); w->word != NULL; w++) {
		if (strcmp(s, w->word) == 0) {
			*value = w->value;
			return 0;
		}
	}
	options_words(&list, o, ", ");
	options_usage(err, "--%s: '%s' is not one of %s", o->name, s, list.p);
	buf_free(&list);
	return -1;
}

/* The number s for option o; -1 with a usage error in err when it is not
 * one o takes. */
static int
parse_number(const struct opt *o, const char *s, double *value, struct buf *err)
{
	bool zero = o->flags & OPTF_ZERO;
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v < 0 || (!zero && v == 0)) {
		options_usage(err, "--%s: '%s' is not a %s number", o->name, s,
			      zero ? "non-negative" : "positive");
		return -1;
	}
	*value = v;
	return 0;
}

/* The field of o that at (an OPT_AT) names. */
static void *
field(struct options *o, size_t at)
{
	return (char *)o + at - 1;
}

/* Check the regular expression s of option r and add it to o->patterns;
 * -1 with a usage error in err when it does not compile. */
static int
add_pattern(struct options *o, const struct opt *r, const char *s, struct buf *err)
{
	char msg[256];
	regex_t re;
	int rc = regcomp(&re, s, REG_EXTENDED | REG_NEWLINE | REG_NOSUB);

	if (rc != 0) {
		regerror(rc, &re, msg, sizeof msg);
		options_usage(err, "--%s: '%s' is not a regular expression: %s", r->name, s, msg);
		return -1;
	}
	regfree(&re);
	o->patterns = xreallocarray(o->patterns, (size_t)o->npatterns + 1, sizeof *o->patterns);
	o->patterns[o->npatterns++] = s;
	return 0;
}

/* Take option row r with its value arg (NULL for none) into o. Returns -1
 * to go on, or the exit status, as options_parse. */
static int
take(struct options *o, const struct opt *r, const char *arg, struct buf *out, struct buf *err)
{
	int value = 0;

	switch (r->kind) {
	case OPT_FLAG:
		*(bool *)field(o, r->to) = true;
		break;
	case OPT_SET:
		*(int *)field(o, r->to) = r->set;
		break;
	case OPT_NUMBER:
		if (parse_number(r, arg, field(o, r->to), err) != 0)
			return 2;
		break;
	case OPT_ENUM:
		if (parse_word(r, arg, field(o, r->to), err) != 0)
			return 2;
		break;
	case OPT_FILE:
	case OPT_THEME:
		*(const char **)field(o, r->to) = arg;
		break;
	case OPT_PATTERN:
		if (add_pattern(o, r, arg, err) != 0)
			return 2;
		break;
	case OPT_ACTION:
		if (r->words != NULL && parse_word(r, arg, &value, err) != 0)
			return 2;
		r->act(out, value);
		return 0;
	}
	if (r->given != 0)
		*(bool *)field(o, r->given) = true;
	return -1;
}

/* getopt_long's tables made from options_table, in one allocation to
 * free: a row's val is its letter, or 256 + its index. */
static struct option *
getopt_tables(char **shortopts)
{
	size_t rows = 0, n = 0;
	struct option *longopts;
	char *s;

	while (options_table[rows].name != NULL)
		rows++;
	/* Two getopt rows a row at most (an alias), and the end; then three
	 * letters a row at most ("s:"), ':' first and the NUL. */
	longopts = xcalloc(1, (2 * rows + 1) * sizeof *longopts + 3 * rows + 2);
	s = *shortopts = (char *)(longopts + 2 * rows + 1);
	*s++ = ':'; /* a missing value returns ':' */
	for (size_t i = 0; i < rows; i++) {
		const struct opt *r = &options_table[i];
		int has = r->arg != NULL ? required_argument : no_argument;
		int val = r->letter != 0 ? r->letter : 256 + (int)i;

		longopts[n++] = (struct option){r->name, has, NULL, val};
		if (r->alias != NULL)
			longopts[n++] = (struct option){r->alias, has, NULL, val};
		if (r->letter != 0) {
			*s++ = r->letter;
			if (r->arg != NULL)
				*s++ = ':';
		}
	}
	*s = '\0';
	return longopts;
}

/* The row getopt_long's c stands for, or NULL. */
static const struct opt *
row_of(int c)
{
	for (size_t i = 0; options_table[i].name != NULL; i++) {
		const struct opt *r = &options_table[i];

		if (c == (r->letter != 0 ? r->letter : 256 + (int)i))
			return r;
	}
	return NULL;
}

/* The rules between options, once all are read: 0, or 2 with the usage
 * error in err. */
static int
check(const struct options *o, struct buf *err)
{
	if (o->command != NULL && o->nfiles > 0)
		return options_usage(err, "give FILEs or '-- COMMAND', not both");
	if (o->redact && o->format_given && (format_at((size_t)o->format)->flags & FMT_VERBATIM))
		return options_usage(err, "--redact: --format raw is the stream as it "
					  "came, with nothing hidden");
	if (o->record != NULL && o->nfiles > 0 &&
	    !(o->nfiles == 1 && strcmp(o->files[0], "-") == 0))
		return options_usage(err, "--record records stdin or a COMMAND, not FILEs");
	if (o->no_record && o->record != NULL)
		return options_usage(err, "--record and --no-record: one or the other");
	if (o->follow && o->command != NULL)
		return options_usage(err, "--follow needs a FILE or a FOLDER");
	if (o->tmux_style && !o->status_line)
		return options_usage(err, "--tmux-style goes with --status-line");
	if (o->status_line && (o->command != NULL || o->record != NULL || o->follow))
		return options_usage(err, "--status-line reads FILEs and FOLDERs");
	if (o->compare && (o->nfiles != 2 || o->command != NULL || o->follow || o->replay ||
			   o->record != NULL || o->status_line))
		return options_usage(err, "--compare reads two FILEs (FILE#N: its Nth session)");
	if (o->compare && format_at((size_t)o->format)->compare == NULL)
		return options_usage(err, "--compare writes text, markdown or json");
	if ((o->speed != 1 || o->idle_limit >= 0) && !o->replay)
		return options_usage(err, "--speed and --idle-limit go with --replay");
	return 0;
}

/* The options of argv[1..nargs) into o, as options_parse. */
static int
parse_args(struct options *o, int nargs, char **argv, struct buf *out, struct buf *err)
{
	char *shortopts;
	struct option *longopts = getopt_tables(&shortopts);
	int c, status = -1;

	opterr = 0;
	optind = 0; /* from the start, also when called again (tests) */
	while (status < 0 && (c = getopt_long(nargs, argv, shortopts, longopts, NULL)) != -1) {
		const struct opt *r = row_of(c);

		if (c == ':')
			status = options_usage(err, "option '%s' needs a value", argv[optind - 1]);
		else if (r == NULL && row_of(optopt) != NULL)
			/* getopt's optopt for "--bell=x" is --bell's val. */
			status = options_usage(err, "option '--%s' takes no value",
					       row_of(optopt)->name);
		else if (r == NULL && optopt != 0)
			status = options_usage(err, "unknown option '-%c'", optopt);
		else if (r == NULL)
			status = options_usage(err, "unknown option '%s'", argv[optind - 1]);
		else
			status = take(o, r, optarg, out, err);
	}
	free(longopts);
	o->files = &argv[optind];
	o->nfiles = nargs - optind;
	return status;
}

int
options_parse(struct options *o, int argc, char **argv, struct buf *out, struct buf *err)
{
	int nargs = argc, status;

	memset(o, 0, sizeof *o);
	o->speed = 1;
	o->idle_limit = -1;
	o->mouse = -1;
	o->agent = -1;
	o->keep = -1;
	/* Everything after the first "--" is the command to run. */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			nargs = i;
			if (i + 1 >= argc)
				return options_usage(err, "'--' must be followed by a COMMAND");
			o->command = &argv[i + 1];
			break;
		}
	}
	status = parse_args(o, nargs, argv, out, err);
	if (status >= 0)
		return status;
	return check(o, err) != 0 ? 2 : -1;
}

void
options_free(struct options *o)
{
	free(o->patterns);
	o->patterns = NULL;
	o->npatterns = 0;
}

/* Whether row r is shown to people. */
static bool
shown(const struct opt *r)
{
	return !(r->flags & OPTF_HIDDEN);
}

void
options_help(struct buf *out)
{
	struct buf text = {0};

	buf_adds(out, help_head);
	for (const struct opt *r = options_table; r->name != NULL; r++) {
		size_t start = out->n;

		if (!shown(r))
			continue;
		if (r->letter != 0)
			buf_addf(out, "  -%c, ", r->letter);
		else
			buf_adds(out, "      ");
		buf_addf(out, "--%s", r->name);
		if (r->arg != NULL)
			buf_addf(out, " %s", r->arg);
		/* The text in its column, or under it when the names are long. */
		if (out->n - start > HELP_COL - 2)
			buf_addf(out, "\n%*s", HELP_COL, "");
		else
			buf_addf(out, "%*s", (int)(HELP_COL - (out->n - start)), "");
		buf_reset(&text);
		options_text(r, false, &text);
		for (const char *s = text.p; *s != '\0'; s++) {
			buf_addc(out, *s);
			if (*s == '\n')
				buf_addf(out, "%*s", HELP_COL, "");
		}
		buf_addc(out, '\n');
	}
	buf_adds(out, help_tail);
	buf_free(&text);
}

void
options_roff(struct buf *out)
{
	for (const struct opt *r = options_table; r->name != NULL; r++) {
		if (!shown(r))
			continue;
		buf_adds(out, ".TP\n");
		if (r->letter != 0) {
			buf_addf(out, ".BR \\-%c \", \" \\-\\-", r->letter);
			text_roff(out, r->name);
			if (r->arg != NULL)
				buf_addf(out, " \" \\fI%s\\fR\"", r->arg);
		} else {
			buf_adds(out, r->arg != NULL ? ".BI \\-\\-" : ".B \\-\\-");
			text_roff(out, r->name);
			if (r->arg != NULL)
				buf_addf(out, " \" %s\"", r->arg);
		}
		buf_addc(out, '\n');
		options_text(r, true, out);
	}
}

/* --- the shell completions ------------------------------------------------ */

static const char bash_head[] =
	"# bash completion for agentview: generated from its option table\n"
	"# (src/options.c) by 'make update-completions'; do not edit.\n"
	"\n"
	"# --theme: the names agentview lists (it looks where it would) and\n"
	"# folders, or the folders and .theme files of a path.\n"
	"_agentview_theme()\n"
	"{\n"
	"\tlocal IFS=$'\\n'\n"
	"\tif [[ $cur != */* ]]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(\"$1\" --list-themes 2>/dev/null)\" -- \"$cur\"))\n"
	"\t\t_filedir -d\n"
	"\telse\n"
	"\t\t_filedir theme\n"
	"\tfi\n"
	"}\n"
	"\n"
	"_agentview()\n"
	"{\n"
	"\tlocal cur prev words cword split i\n"
	"\t# After \"--\", the command to run, completed as its own.\n"
	"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	"\t\tif [[ ${COMP_WORDS[i]} == -- ]]; then\n"
	"\t\t\t_command_offset $((i + 1))\n"
	"\t\t\treturn\n"
	"\t\tfi\n"
	"\tdone\n"
	"\t_init_completion -s || return\n"
	"\tcase $prev in\n";
/* The end of the case, and the options, around their words. */
static const char bash_tail[] = "\tesac\n"
				"\t$split && return\n"
				"\tif [[ $cur == -* ]]; then\n"
				"\t\tCOMPREPLY=($(compgen -W '";
static const char bash_end[] = "' -- \"$cur\"))\n"
			       "\t\treturn\n"
			       "\tfi\n"
			       "\t_filedir\n"
			       "}\n"
			       "complete -F _agentview agentview\n";

static const char zsh_head[] =
	"#compdef agentview\n"
	"# zsh completion for agentview: generated from its option table\n"
	"# (src/options.c) by 'make update-completions'; do not edit.\n"
	"\n"
	"# --theme: the names agentview lists (it looks where it would) and\n"
	"# folders, or the folders and .theme files of a path.\n"
	"_agentview_themes() {\n"
	"\tlocal -a names\n"
	"\tif [[ $PREFIX == */* ]]; then\n"
	"\t\t_files -g '*.theme(-.)'\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tnames=(${(f)\"$(_call_program themes $words[1] --list-themes 2>/dev/null)\"})\n"
	"\t_alternative 'themes:theme:compadd -a names' 'folders:folder:_files -/'\n"
	"}\n"
	"\n"
	"_agentview() {\n"
	"\tlocal i=${words[(i)--]}\n"
	"\n"
	"\t# After \"--\", the command to run, completed as its own.\n"
	"\tif (( i < CURRENT )); then\n"
	"\t\tshift i words\n"
	"\t\t(( CURRENT -= i ))\n"
	"\t\t_normal\n"
	"\t\treturn\n"
	"\tfi\n"
	"\t_arguments -s -S \\\n";
static const char zsh_tail[] = "\t\t'*:file:_files'\n"
			       "}\n"
			       "\n"
			       "_agentview \"$@\"\n";

static const char fish_head[] =
	"# fish completion for agentview: generated from its option table\n"
	"# (src/options.c) by 'make update-completions'; do not edit.\n"
	"\n"
	"# The words after \"--\" (the command to run), when the line has a \"--\"\n"
	"# before the word being completed.\n"
	"function __agentview_command\n"
	"\tset -l words (commandline -opc)\n"
	"\tset -l at (contains -i -- -- $words); or return 1\n"
	"\tset -e words[1..$at]\n"
	"\tprintf '%s\\n' $words\n"
	"end\n"
	"\n"
	"# --theme: the names agentview lists (it looks where it would) and\n"
	"# folders, or the folders and .theme files of a path.\n"
	"function __agentview_themes\n"
	"\tset -l token (commandline -ct)\n"
	"\tset -l cmd (commandline -opc)[1]\n"
	"\tif string match -q -- '*/*' $token\n"
	"\t\t__fish_complete_suffix .theme | string match -r -- '.*(/|\\.theme)$'\n"
	"\telse\n"
	"\t\tcommand $cmd --list-themes 2>/dev/null\n"
	"\t\t__fish_complete_directories $token\n"
	"\tend\n"
	"end\n"
	"\n"
	"complete -c agentview -n __agentview_command -f "
	"-a '(__fish_complete_subcommand --commandline (__agentview_command) (commandline -ct))'\n";

/* How each shell completes a value of each kind: what it writes for a
 * number, a file, a theme, and around the words of an enum. */
static const struct {
	const char *number, *file, *theme, *words, *words_end;
} value_of[] = {
	[SHELL_BASH] = {"", "\t\t_filedir\n", "\t\t_agentview_theme \"$1\"\n",
			"\t\tCOMPREPLY=($(compgen -W '", "' -- \"$cur\"))\n"},
	[SHELL_ZSH] = {" ", "_files", "_agentview_themes", "(", ")"},
	[SHELL_FISH] = {" -x", " -r -F", " -x -a '(__agentview_themes)'", " -x -a '", "'"},
};

/* Append how shell sh completes the value of row r. */
static void
add_value(struct buf *out, const struct opt *r, enum shell sh)
{
	if (r->kind == OPT_NUMBER || r->kind == OPT_PATTERN)
		buf_adds(out, value_of[sh].number);
	else if (r->kind == OPT_FILE)
		buf_adds(out, value_of[sh].file);
	else if (r->kind == OPT_THEME)
		buf_adds(out, value_of[sh].theme);
	else if (options_words_of(r) != NULL) {
		buf_adds(out, value_of[sh].words);
		options_words(out, r, " ");
		buf_adds(out, value_of[sh].words_end);
	}
}

/* Whether row r is offered. */
static bool
offered(const struct opt *r)
{
	return !(r->flags & OPTF_HIDDEN);
}

/* Append s inside single quotes of shell sh: bash and zsh close the quote
 * around a quote ('\''), fish escapes it. */
static void
add_quoted(struct buf *out, const char *s, enum shell sh)
{
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			buf_adds(out, sh == SHELL_FISH ? "\\'" : "'\\''");
		else if (*s == '\\' && sh == SHELL_FISH)
			buf_adds(out, "\\\\");
		else
			buf_addc(out, *s);
	}
}

/* Append a row's --help text as one line, for a description; zsh's
 * _arguments wants its brackets and colons escaped. */
static void
add_description(struct buf *out, const struct opt *r, enum shell sh)
{
	struct buf line = {0}, help = {0};

	options_text(r, false, &help);
	for (const char *s = help.p; *s != '\0'; s++) {
		if (sh == SHELL_ZSH && strchr("[]:\\", *s) != NULL)
			buf_addc(&line, '\\');
		buf_addc(&line, *s == '\n' ? ' ' : *s);
	}
	add_quoted(out, line.p, sh);
	buf_free(&line);
	buf_free(&help);
}

/* bash: a branch of "case $prev" for a row that takes a value. */
static void
bash_row(struct buf *out, const struct opt *r)
{
	buf_addf(out, "\t--%s", r->name);
	if (r->letter != 0)
		buf_addf(out, " | -%c", r->letter);
	if (r->alias != NULL)
		buf_addf(out, " | --%s", r->alias);
	buf_adds(out, ")\n");
	add_value(out, r, SHELL_BASH);
	buf_adds(out, "\t\treturn\n\t\t;;\n");
}

/* The bash script: values by the option before them, then options or
 * files. */
static void
bash_script(struct buf *out)
{
	struct buf words = {0};

	buf_adds(out, bash_head);
	for (const struct opt *r = options_table; r->name != NULL; r++) {
		if (!offered(r))
			continue;
		if (r->arg != NULL)
			bash_row(out, r);
		if (r->letter != 0)
			buf_addf(&words, "%s-%c", words.n ? " " : "", r->letter);
		buf_addf(&words, "%s--%s", words.n ? " " : "", r->name);
	}
	buf_adds(out, bash_tail);
	buf_adds(out, words.p);
	buf_adds(out, bash_end);
	buf_free(&words);
}

/* zsh: a spec of _arguments for row r. */
static void
zsh_row(struct buf *out, const struct opt *r)
{
	const char *eq = r->arg != NULL ? "=" : "";

	buf_adds(out, "\t\t");
	if (r->letter != 0)
		buf_addf(out, "'(-%c --%s)'{-%c%s,--%s%s}'", r->letter, r->name, r->letter,
			 r->arg != NULL ? "+" : "", r->name, eq);
	else
		buf_addf(out, "'--%s%s", r->name, eq);
	buf_addc(out, '[');
	add_description(out, r, SHELL_ZSH);
	buf_addc(out, ']');
	if (r->arg != NULL)
		buf_addf(out, ":%s:", r->arg);
	add_value(out, r, SHELL_ZSH);
	buf_adds(out, "' \\\n");
}

/* fish: a complete line for row r. */
static void
fish_row(struct buf *out, const struct opt *r)
{
	buf_adds(out, "complete -c agentview -n 'not __agentview_command'");
	if (r->letter != 0)
		buf_addf(out, " -s %c", r->letter);
	buf_addf(out, " -l %s", r->name);
	add_value(out, r, SHELL_FISH);
	buf_adds(out, " -d '");
	add_description(out, r, SHELL_FISH);
	buf_adds(out, "'\n");
}

void
complete_script(struct buf *out, enum shell sh)
{
	if (sh == SHELL_BASH) {
		bash_script(out);
		return;
	}
	buf_adds(out, sh == SHELL_ZSH ? zsh_head : fish_head);
	for (const struct opt *r = options_table; r->name != NULL; r++) {
		if (!offered(r))
			continue;
		if (sh == SHELL_ZSH)
			zsh_row(out, r);
		else
			fish_row(out, r);
	}
	if (sh == SHELL_ZSH)
		buf_adds(out, zsh_tail);
}
