#!/bin/sh
# run_install.sh: `make install DESTDIR=... PREFIX=/usr` lays out every file
# and nothing else: the binary (755), the man page, the shipped themes and
# the bash, zsh and fish completions (644), each a copy of its source; and
# the installed binary runs.
set -u
. ./tests/lib/env.sh
top=$(pwd)
work=${TMPDIR:-/tmp}/agentview-install.$$
dest=$work/dest
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
fails=0
checks=0

fail() {
	echo "FAIL install: $1"
	fails=$((fails + 1))
}

# check WHAT COMMAND...: COMMAND succeeds, or WHAT failed.
check() {
	what=$1
	shift
	checks=$((checks + 1))
	"$@" || fail "$what"
}

# Not the caller's make: its flags (a jobserver) are not ours.
if ! MAKEFLAGS='' make -s -C "$top" install DESTDIR="$dest" PREFIX=/usr >"$work/log" 2>&1; then
	cat "$work/log"
	fail "make install failed"
fi

# What each installed file is a copy of, and its mode.
{
	echo "755 usr/bin/agentview src/agentview"
	echo "644 usr/share/man/man1/agentview.1 src/agentview.1"
	for t in "$top"/themes/*.theme; do
		t=${t##*/}
		echo "644 usr/share/agentview/themes/$t themes/$t"
	done
	echo "644 usr/share/bash-completion/completions/agentview src/completions/agentview.bash"
	echo "644 usr/share/zsh/site-functions/_agentview src/completions/_agentview"
	echo "644 usr/share/fish/vendor_completions.d/agentview.fish src/completions/agentview.fish"
} | sort -k2 >"$work/want"

checks=$((checks + 1))
(cd "$dest" && find . -type f -printf '%m %P\n') | sort -k2 >"$work/got"
cut -d' ' -f1,2 "$work/want" | cmp -s - "$work/got" || {
	echo "want:"; cut -d' ' -f1,2 "$work/want"; echo "got:"; cat "$work/got"
	fail "the installed files are not the expected ones"
}
while read -r _ path src; do
	check "$path is not $src" cmp -s "$dest/$path" "$top/$src"
done <"$work/want"
check "the installed binary does not run" "$dest/usr/bin/agentview" --version >/dev/null

echo "install: $checks checks, $fails failures"
[ "$fails" -eq 0 ]
