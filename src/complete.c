/* complete.c: the bash, zsh and fish completions of agentview, written
 * from the option table: what is fixed (the theme names asked of agentview
 * itself, the command after "--") as text, a line a row for the options. */
#include "complete.h"

#include <string.h>

#include "options.h"

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
