/* test_options.c: the option table, the parsing made from it (every kind
 * of value, every usage error word for word), and what is written from
 * it: --help, the man page's OPTIONS section, the shell completions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "fixture.h"
#include "agent.h"
#include "keys.h"
#include "options.h"
#include "print.h"
#include "text.h"
#include "theme.h"

/* A parse of one command line: argv stays here, since o points into it. */
struct parsed {
	char *argv[32];
	struct options o;
	struct buf out, err;
	int status;
};

/* Parse "agentview" and the words of args (NULL-terminated) into p. */
static void
parse(struct parsed *p, const char *const *args)
{
	int argc = 0;

	memset(p, 0, sizeof *p);
	p->argv[argc++] = (char *)"agentview";
	for (; *args != NULL; args++)
		p->argv[argc++] = (char *)*args;
	p->status = options_parse(&p->o, argc, p->argv, &p->out, &p->err);
}

/* Free what a parse wrote. */
static void
parsed_free(struct parsed *p)
{
	buf_free(&p->out);
	buf_free(&p->err);
}

/* Append the bytes of the file at path to b. */
static void
slurp(const char *path, struct buf *b)
{
	size_t n;
	char *p = fixture_slurp(path, &n);

	buf_add(b, p, n);
	free(p);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Nothing given: the defaults. */
static void
test_defaults(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, (const char *const[]){NULL});
	assert_int_equal(p.status, -1);
	assert_false(p.o.follow || p.o.replay || p.o.print || p.o.format_given);
	assert_true(p.o.speed == 1 && p.o.idle_limit == -1 && p.o.frames == 0);
	assert_ptr_equal(format_at((size_t)p.o.format), &format_text);
	assert_int_equal(p.o.color, COLOR_AUTO);
	assert_int_equal(p.o.mouse, -1);
	assert_null(p.o.theme);
	assert_null(p.o.record);
	assert_null(p.o.command);
	assert_int_equal(p.o.nfiles, 0);
	assert_int_equal(p.out.n + p.err.n, 0);
	parsed_free(&p);
}

/* Each kind of value lands in its field. */
static void
test_kinds(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, ARGS("-fr", "-s", "2.5", "--idle-limit=0", "--format", "md", "--theme", "light",
		       "--colour", "never", "--mouse", "--no-mouse", "--bell", "--title", "-p",
		       "--frames", "3", "a.ndjson", "b.ndjson"));
	assert_int_equal(p.status, -1);
	assert_true(p.o.follow && p.o.replay && p.o.print && p.o.bell && p.o.title);
	assert_true(p.o.speed == 2.5 && p.o.idle_limit == 0 && p.o.frames == 3);
	assert_ptr_equal(format_at((size_t)p.o.format), &format_markdown);
	assert_true(p.o.format_given);
	assert_string_equal(p.o.theme, "light");
	assert_int_equal(p.o.color, COLOR_NEVER);
	assert_int_equal(p.o.mouse, 0);
	assert_int_equal(p.o.nfiles, 2);
	assert_string_equal(p.o.files[0], "a.ndjson");
	assert_string_equal(p.o.files[1], "b.ndjson");
	parsed_free(&p);

	/* The last of --mouse and --no-mouse wins; abbreviations work. */
	parse(&p, ARGS("--no-mouse", "--mou", "--col=always", "--format=json", "--status-line",
		       "--tmux", "x"));
	assert_int_equal(p.status, -1);
	assert_int_equal(p.o.mouse, 1);
	assert_int_equal(p.o.color, COLOR_ALWAYS);
	assert_ptr_equal(format_at((size_t)p.o.format), &format_json);
	assert_true(p.o.status_line && p.o.tmux_style);
	parsed_free(&p);

	/* --compare: two FILEs, which may name a session (FILE#N). */
	parse(&p, ARGS("--compare", "--format", "json", "a.ndjson#2", "b.ndjson"));
	assert_int_equal(p.status, -1);
	assert_true(p.o.compare);
	assert_int_equal(p.o.nfiles, 2);
	assert_string_equal(p.o.files[0], "a.ndjson#2");
	parsed_free(&p);

	/* Everything after the first "--" is the command, options too. */
	parse(&p, ARGS("--record", "r.ndjson", "--", "agent", "-p", "--", "x"));
	assert_int_equal(p.status, -1);
	assert_string_equal(p.o.record, "r.ndjson");
	assert_int_equal(p.o.nfiles, 0);
	assert_string_equal(p.o.command[0], "agent");
	assert_string_equal(p.o.command[1], "-p");
	assert_string_equal(p.o.command[3], "x");
	assert_null(p.o.command[4]);
	parsed_free(&p);
}

/* Each usage error, word for word, with exit status 2. */
static void
test_usage_errors(void **state)
{
	static const struct {
		const char *args[6];
		const char *message;
	} cases[] = {
		{{"--bogus"}, "unknown option '--bogus'"},
		{{"-x"}, "unknown option '-x'"},
		{{"-fx"}, "unknown option '-x'"},
		{{"--fo", "json"}, "unknown option '--fo'"},
		{{"--follow=x", "f"}, "option '--follow' takes no value"},
		{{"--bell=x"}, "option '--bell' takes no value"},
		{{"--he=1"}, "option '--help' takes no value"},
		{{"--speed"}, "option '--speed' needs a value"},
		{{"-s"}, "option '-s' needs a value"},
		{{"--format"}, "option '--format' needs a value"},
		{{"-r", "--speed", "0", "f"}, "--speed: '0' is not a positive number"},
		{{"-r", "-s", "2x", "f"}, "--speed: '2x' is not a positive number"},
		{{"-r", "-s", "inf", "f"}, "--speed: 'inf' is not a positive number"},
		{{"-r", "-i", "-1", "f"}, "--idle-limit: '-1' is not a non-negative number"},
		{{"--frames", "0"}, "--frames: '0' is not a positive number"},
		{{"--format", "xml"},
		 "--format: 'xml' is not one of text, markdown, json, html, raw, rows"},
		{{"--colour", "red"}, "--color: 'red' is not one of auto, always, never"},
		{{"--"}, "'--' must be followed by a COMMAND"},
		{{"f", "--"}, "'--' must be followed by a COMMAND"},
		{{"f", "--", "true"}, "give FILEs or '-- COMMAND', not both"},
		{{"--record", "r", "f"}, "--record records stdin or a COMMAND, not FILEs"},
		{{"-f", "--", "true"}, "--follow needs a FILE or a FOLDER"},
		{{"--record", "r", "--no-record"}, "--record and --no-record: one or the other"},
		{{"--keep", "-1"}, "--keep: '-1' is not a non-negative number"},
		{{"--tmux-style", "f"}, "--tmux-style goes with --status-line"},
		{{"--status-line", "-f", "f"}, "--status-line reads FILEs and FOLDERs"},
		{{"--status-line", "--record", "r"}, "--status-line reads FILEs and FOLDERs"},
		{{"--status-line", "--", "true"}, "--status-line reads FILEs and FOLDERs"},
		{{"-s", "2", "f"}, "--speed and --idle-limit go with --replay"},
		{{"-i", "0", "f"}, "--speed and --idle-limit go with --replay"},
		{{"--compare", "a"}, "--compare reads two FILEs (FILE#N: its Nth session)"},
		{{"--compare", "a", "b", "c"},
		 "--compare reads two FILEs (FILE#N: its Nth session)"},
		{{"--compare", "-f", "a", "b"},
		 "--compare reads two FILEs (FILE#N: its Nth session)"},
		{{"--compare", "--", "true"},
		 "--compare reads two FILEs (FILE#N: its Nth session)"},
		{{"--compare", "--format=raw", "a", "b"},
		 "--compare writes text, markdown or json"},
		{{"--bogus", "--help"}, "unknown option '--bogus'"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct parsed p;
		struct buf want = {0};

		parse(&p, cases[i].args);
		buf_addf(&want, "agentview: %s\nTry 'agentview --help' for more information.\n",
			 cases[i].message);
		if (p.status != 2 || p.err.n != want.n || strcmp(p.err.p, want.p) != 0)
			fail_msg("case %zu: status %d, '%s', not '%s'", i, p.status,
				 p.err.p ? p.err.p : "", want.p);
		assert_int_equal(p.out.n, 0);
		buf_free(&want);
		parsed_free(&p);
	}
}

/* --help is the text it has always been; it and the other actions print
 * and end the parse with 0, before a later mistake is seen. */
static void
test_actions(void **state)
{
	struct parsed p;
	struct buf want = {0};

	(void)state;
	slurp("tests/golden/help.txt", &want);
	parse(&p, ARGS("--help", "--bogus"));
	assert_int_equal(p.status, 0);
	assert_int_equal(p.out.n, want.n);
	assert_string_equal(p.out.p, want.p);
	assert_int_equal(p.err.n, 0);
	parsed_free(&p);
	parse(&p, ARGS("-h"));
	assert_string_equal(p.out.p, want.p);
	parsed_free(&p);
	buf_reset(&want);
	parse(&p, ARGS("-Vh"));
	assert_int_equal(p.status, 0);
	assert_string_equal(p.out.p, "agentview " AGENTVIEW_VERSION "\n");
	parsed_free(&p);
	complete_script(&want, SHELL_ZSH);
	parse(&p, ARGS("--shell-completion", "zsh"));
	assert_int_equal(p.status, 0);
	assert_string_equal(p.out.p, want.p);
	parsed_free(&p);
	buf_reset(&want);
	parse(&p, ARGS("--shell-completion=tcsh"));
	assert_int_equal(p.status, 2);
	assert_string_equal(p.err.p,
			    "agentview: --shell-completion: 'tcsh' is not one of "
			    "bash, zsh, fish\nTry 'agentview --help' for more information.\n");
	parsed_free(&p);
	theme_names(NULL, &want);
	parse(&p, ARGS("--list-themes"));
	assert_int_equal(p.status, 0);
	assert_string_equal(p.out.p, want.p);
	parsed_free(&p);
	buf_reset(&want);
	keys_roff(&want);
	parse(&p, ARGS("--roff-keys"));
	assert_int_equal(p.status, 0);
	assert_string_equal(p.out.p, want.p);
	parsed_free(&p);
	buf_free(&want);
}

/* The man page's OPTIONS section is what the table generates. */
static void
test_man_page_in_step(void **state)
{
	struct buf man = {0}, want = {0};
	const char *from, *to;

	(void)state;
	slurp("src/agentview.1", &man);
	from = strstr(man.p, ".\\\" options-begin");
	to = strstr(man.p, ".\\\" options-end\n");
	assert_true(from != NULL && to != NULL && from < to);
	from = strchr(from, '\n') + 1;
	options_roff(&want);
	if ((size_t)(to - from) != want.n || memcmp(from, want.p, want.n) != 0)
		fail_msg(
			"src/agentview.1 OPTIONS differs from src/options.c: run 'make update-man'");
	buf_free(&man);
	buf_free(&want);
}

/* The committed completions are what the table generates. */
static void
test_completions_in_step(void **state)
{
	static const char *const files[] = {
		[SHELL_BASH] = "src/completions/agentview.bash",
		[SHELL_ZSH] = "src/completions/_agentview",
		[SHELL_FISH] = "src/completions/agentview.fish",
	};

	(void)state;
	for (int sh = SHELL_BASH; sh <= SHELL_FISH; sh++) {
		struct buf file = {0}, want = {0};

		slurp(files[sh], &file);
		complete_script(&want, (enum shell)sh);
		if (file.n != want.n || memcmp(file.p, want.p, want.n) != 0)
			fail_msg("%s differs from src/options.c: run 'make update-completions'",
				 files[sh]);
		buf_free(&file);
		buf_free(&want);
	}
}

/* Fail unless text (called what) holds the string fmt makes as a word:
 * followed by a space or, when it fills --help's column, a newline. */
static void PRINTF_LIKE(3, 4) assert_word(const char *text, const char *what, const char *fmt, ...)
{
	struct buf want = {0};
	const char *p = text;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&want, fmt, ap);
	va_end(ap);
	while ((p = strstr(p, want.p)) != NULL && p[want.n] != ' ' && p[want.n] != '\n')
		p++;
	if (p == NULL)
		fail_msg("%s lacks \"%s\" as a word", what, want.p);
	buf_free(&want);
}

/* Fail unless text (called what) holds the string fmt makes. */
static void PRINTF_LIKE(3, 4) assert_holds(const char *text, const char *what, const char *fmt, ...)
{
	struct buf want = {0};
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&want, fmt, ap);
	va_end(ap);
	if (strstr(text, want.p) == NULL)
		fail_msg("%s lacks \"%s\"", what, want.p);
	buf_free(&want);
}

/* The man page's NAME says whose sessions agentview views: every agent of
 * the table by its name, not one of them alone. */
static void
test_man_page_names_agents(void **state)
{
	struct buf man = {0};
	char *name, *end;

	(void)state;
	slurp("src/agentview.1", &man);
	name = strstr(man.p, ".SH NAME\n");
	assert_non_null(name);
	end = strstr(name + 1, ".SH ");
	assert_non_null(end);
	*end = '\0';
	for (unsigned a = 0; a < agent_count(); a++)
		assert_holds(name, "the man page's NAME", "%s", agent_get(a)->label);
	buf_free(&man);
}

/* Every option people see is in --help, the man page and the three
 * completions, with its letter and the words it takes; the hidden ones
 * are in none of them. */
static void
test_every_option_everywhere(void **state)
{
	struct buf help = {0}, man = {0}, bash = {0}, zsh = {0}, fish = {0};
	char *options_line;

	(void)state;
	options_help(&help);
	slurp("src/agentview.1", &man);
	complete_script(&bash, SHELL_BASH);
	complete_script(&zsh, SHELL_ZSH);
	complete_script(&fish, SHELL_FISH);
	/* bash offers the options on the line that completes "-...". */
	options_line = strstr(bash.p, "compgen -W '-");
	assert_non_null(options_line);
	*strchr(options_line, '\n') = '\0';
	for (const struct opt *r = options_table; r->name != NULL; r++) {
		struct buf roff = {0}, words = {0};

		text_roff(&roff, r->name);
		if (r->flags & OPTF_HIDDEN) {
			struct buf name = {0};

			buf_addf(&name, "--%s ", r->name);
			assert_null(strstr(help.p, name.p));
			assert_null(strstr(options_line, name.p + 2));
			buf_reset(&name);
			buf_addf(&name, "\\-\\-%s", roff.p);
			assert_null(strstr(man.p, name.p));
			buf_reset(&name);
			buf_addf(&name, "'--%s", r->name);
			assert_null(strstr(zsh.p, name.p));
			buf_reset(&name);
			buf_addf(&name, " -l %s ", r->name);
			assert_null(strstr(fish.p, name.p));
			buf_free(&name);
			buf_free(&roff);
			continue;
		}
		assert_word(help.p, "--help", "--%s%s%s", r->name, r->arg ? " " : "",
			    r->arg ? r->arg : "");
		assert_holds(man.p, "the man page", "\\-\\-%s", roff.p);
		assert_holds(options_line, "bash", " --%s", r->name);
		assert_holds(zsh.p, "zsh", "--%s", r->name);
		assert_holds(fish.p, "fish", " -l %s ", r->name);
		if (r->letter != 0) {
			assert_holds(help.p, "--help", "  -%c, --%s", r->letter, r->name);
			assert_holds(man.p, "the man page", ".BR \\-%c \", \" \\-\\-%s", r->letter,
				     roff.p);
			assert_holds(options_line, "bash", "-%c --%s", r->letter, r->name);
			assert_holds(zsh.p, "zsh", "{-%c", r->letter);
			assert_holds(fish.p, "fish", " -s %c -l %s ", r->letter, r->name);
		}
		if (r->words != NULL) {
			options_words(&words, r, " ");
			assert_holds(bash.p, "bash", "compgen -W '%s'", words.p);
			assert_holds(zsh.p, "zsh", ":(%s)'", words.p);
			assert_holds(fish.p, "fish", "-l %s -x -a '%s'", r->name, words.p);
		}
		buf_free(&roff);
		buf_free(&words);
	}
	buf_free(&help);
	buf_free(&man);
	buf_free(&bash);
	buf_free(&zsh);
	buf_free(&fish);
}

/* Whether a name of row r (its name or alias) starts with the n bytes of p. */
static bool
row_starts(const struct opt *r, const char *p, size_t n)
{
	return strncmp(r->name, p, n) == 0 || (r->alias != NULL && strncmp(r->alias, p, n) == 0);
}

/* The hidden options take no abbreviation from the ones people see: the
 * shortest prefix that names one of those among them (--co for --color)
 * names it still. */
static void
test_hidden_keep_abbreviations(void **state)
{
	(void)state;
	for (const struct opt *r = options_table; r->name != NULL; r++) {
		size_t n = 1;

		if (r->flags & OPTF_HIDDEN)
			continue;
		for (const struct opt *s = options_table; s->name != NULL; s++)
			if (s != r && !(s->flags & OPTF_HIDDEN))
				while (n < strlen(r->name) && row_starts(s, r->name, n))
					n++;
		for (const struct opt *s = options_table; s->name != NULL; s++)
			if ((s->flags & OPTF_HIDDEN) && row_starts(s, r->name, n))
				fail_msg("--%s takes --%.*s from --%s", s->name, (int)n, r->name,
					 r->name);
	}
}
/* Every row is whole: a name used once, a letter used once, help and man
 * text for the rows people see, words for the kinds that take them. */
static void
test_table(void **state)
{
	struct buf t = {0};

	(void)state;
	for (const struct opt *r = options_table; r->name != NULL; r++) {
		bool takes_word = r->kind == OPT_ENUM || (r->kind == OPT_ACTION && r->arg != NULL);
		bool takes_value = takes_word || r->kind == OPT_NUMBER || r->kind == OPT_FILE ||
				   r->kind == OPT_THEME || r->kind == OPT_PATTERN;

		for (const struct opt *s = r + 1; s->name != NULL; s++) {
			if (strcmp(r->name, s->name) == 0 ||
			    (r->alias && strcmp(r->alias, s->name) == 0) ||
			    (r->letter != 0 && r->letter == s->letter))
				fail_msg("--%s and --%s clash", r->name, s->name);
		}
		if (takes_value != (r->arg != NULL))
			fail_msg("--%s: a value, or an argument name, not both", r->name);
		if (takes_word != (options_words_of(r) != NULL))
			fail_msg("--%s: words, or none", r->name);
		if ((r->kind == OPT_ACTION) != (r->act != NULL))
			fail_msg("--%s: an action without a function", r->name);
		if (r->kind != OPT_ACTION && r->to == 0)
			fail_msg("--%s: its value goes nowhere", r->name);
		/* Its own text, or the table's it names (never both). */
		if (r->flags & OPTF_FORMATS) {
			assert_null(r->help);
			assert_null(r->man);
			assert_null(r->words);
		} else {
			assert_non_null(r->help);
			if (!(r->flags & OPTF_HIDDEN) && r->man == NULL)
				fail_msg("--%s: no man page text", r->name);
		}
		buf_reset(&t);
		options_text(r, false, &t);
		assert_true(t.n > 0);
		buf_reset(&t);
		if (!(r->flags & OPTF_HIDDEN))
			options_text(r, true, &t);
		if (!(r->flags & OPTF_HIDDEN) && t.n == 0)
			fail_msg("--%s: no man page text", r->name);
	}
	buf_free(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_man_page_in_step),
		cmocka_unit_test(test_man_page_names_agents),
		cmocka_unit_test(test_completions_in_step),
		cmocka_unit_test(test_every_option_everywhere),
		cmocka_unit_test(test_hidden_keep_abbreviations),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
