#!/bin/sh
# run_completion.sh: the completions `make install` lays out, run by the
# shells themselves, found where each looks (XDG_DATA_DIRS, fpath):
#   - bash through bash-completion's loader: `complete -p`, then the
#     function called with COMP_WORDS/COMP_CWORD as readline sets them;
#   - zsh in a pseudo-terminal (zsh/zpty), Tab pressed, the matches caught;
#   - fish with `complete -C`.
# Each: the --format and --color words, an option from its start, the
# theme names (agentview's list: the shipped themes and the user's), no
# value offered for a number, files for FILE, and after "--" the command
# and its own arguments.
set -u
. ./tests/lib/env.sh
top=$(pwd)
work=${TMPDIR:-/tmp}/agentview-completion.$$
dest=$work/dest
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/empty" "$work/files/sub" "$work/bin" \
	"$work/home/.config/agentview/themes"
fails=0
checks=0

fail() {
	echo "FAIL completion: $1"
	fails=$((fails + 1))
}

# The words of $1 on one line, a space between them (no globbing).
flat() {
	set -f
	# shellcheck disable=SC2086
	echo $1
	set +f
}

for sh in bash zsh fish; do
	command -v $sh >/dev/null 2>&1 || fail "no $sh: sh .ci/deps test installs it"
done
[ -f /usr/share/bash-completion/bash_completion ] ||
	fail "no bash-completion: sh .ci/deps test installs it"
[ "$fails" -eq 0 ] || exit 1
if ! MAKEFLAGS='' make -s -C "$top" install DESTDIR="$dest" PREFIX=/usr >"$work/log" 2>&1; then
	cat "$work/log"
	fail "make install failed"
	exit 1
fi

# The shells' world: agentview from the build tree (so its themes/ are
# found), a user's theme, a command with completions of its own, files.
export PATH="$top/src:$work/bin:$PATH"
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
export XDG_DATA_HOME="$work/home/.local/share"
export XDG_DATA_DIRS="$dest/usr/share:/usr/share"
printf 'user = red\n' >"$work/home/.config/agentview/themes/mine.theme"
printf '#!/bin/sh\n' >"$work/bin/fakecmd"
chmod +x "$work/bin/fakecmd"
: >"$work/files/rec.ndjson"
themes=$(agentview --list-themes)
for t in "$top"/themes/*.theme mine; do
	t=${t##*/}
	case " $(flat "$themes") " in
	*" ${t%.theme} "*) ;;
	*) fail "agentview --list-themes lacks ${t%.theme}: $(flat "$themes")" ;;
	esac
done

# expect SHELL LINE WANT [DIR] [sorted]: completing LINE (in DIR, else an
# empty folder) offers exactly the words of WANT (in that order, or sorted).
expect() {
	checks=$((checks + 1))
	got=$(cd "${4:-$work/empty}" && "complete_$1" "$2" | sed '/^$/d')
	[ "${5:-}" = sorted ] && got=$(echo "$got" | sort -u)
	if [ "$(flat "$got")" != "$(flat "$3")" ]; then
		fail "$1: '$2' offers '$(flat "$got")', not '$(flat "$3")'"
	fi
}

# --- bash ----------------------------------------------------------------------
cat >"$work/complete.bash" <<'END'
source /usr/share/bash-completion/bash_completion
complete -W 'alpha beta' fakecmd
__load_completion agentview || { echo "not loaded"; exit 1; }
if [[ $1 == -p ]]; then
	complete -p agentview
	exit
fi
line=$1
COMP_LINE=$line
COMP_POINT=${#line}
read -ra COMP_WORDS <<<"$line"
[[ $line == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMPREPLY=()
_agentview agentview "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" \
	2> >(grep -v 'compopt: not currently executing' >&2)
printf '%s\n' "${COMPREPLY[@]}"
END
complete_bash() {
	bash --norc --noprofile "$work/complete.bash" "$1"
}
checks=$((checks + 1))
got=$(bash --norc --noprofile "$work/complete.bash" -p)
[ "$got" = "complete -F _agentview agentview" ] ||
	fail "bash: complete -p agentview says '$got'"
expect bash "agentview --format " "text markdown json html raw rows"
expect bash "agentview -p --color " "auto always never"
expect bash "agentview --the" "--theme"
expect bash "agentview --theme " "$themes"
expect bash "agentview --speed " ""
expect bash "agentview r" "rec.ndjson" "$work/files"
expect bash "agentview --record s" "sub" "$work/files"
expect bash "agentview -- fakec" "fakecmd" "" sorted
expect bash "agentview -r -s 2 -- fakecmd al" "alpha"

# --- zsh -----------------------------------------------------------------------
# The matches zsh adds are printed between two marks, then the shell ends.
cat >"$work/complete.zsh" <<'END'
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT= RPROMPT=; unset zle_bracketed_paste; fpath=(${(q)1} \$fpath)"
zpty -w z 'autoload -U compinit; compinit -u -D; bindkey "^I" complete-word'
zpty -w z '_fakecmd() { compadd alpha beta }; compdef _fakecmd fakecmd'
zpty -w z 'compprefuncs=(_m); comppostfuncs=(_m exit); _m() { print -- "\n@@\x40" }'
zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
	builtin compadd "$@"; return; fi; local -a h; builtin compadd -A h "$@"
	(( $#h )) && print -rl -- "" $IPREFIX${^h}; builtin compadd "$@" }'
zpty -w z "$2"$'\t'
out=
while zpty -r z chunk; do out+=$chunk; done
print -r -- "${${out#*@@@}%%@@@*}" | tr -d '\r'
END
complete_zsh() {
	timeout 20 zsh -f "$work/complete.zsh" "$dest/usr/share/zsh/site-functions" "$1"
}
expect zsh "agentview --format " "html json markdown raw rows text" "" sorted
expect zsh "agentview -p --color " "always auto never" "" sorted
expect zsh "agentview --the" "--theme"
expect zsh "agentview --theme " "$themes" "" sorted
expect zsh "agentview --speed " ""
expect zsh "agentview r" "rec.ndjson" "$work/files"
expect zsh "agentview -- fakec" "fakecmd"
expect zsh "agentview -r -s 2 -- fakecmd al" "alpha"

# --- fish ----------------------------------------------------------------------
complete_fish() {
	timeout 20 fish -c "complete -c fakecmd -f -a 'alpha beta'; complete -C '$1'" | cut -f1
}
expect fish "agentview --format " "html json markdown raw rows text" "" sorted
expect fish "agentview -p --color " "always auto never" "" sorted
expect fish "agentview --the" "--theme"
expect fish "agentview --theme " "$themes" "" sorted
expect fish "agentview --speed " ""
expect fish "agentview r" "rec.ndjson" "$work/files"
expect fish "agentview -- fakec" "fakecmd"
expect fish "agentview -r -s 2 -- fakecmd al" "alpha"

echo "completion: $checks checks, $fails failures"
[ "$fails" -eq 0 ]
