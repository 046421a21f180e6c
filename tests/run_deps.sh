#!/bin/sh
# run_deps.sh: the check a plain `make` runs before compiling anything
# (sh .ci/deps --check build), with fake dpkg-query, pkg-config and cc in
# front of PATH:
#   - all there: silent, status 0 (and so on this machine as it is);
#   - dpkg knowing of none, but the tools, ncursesw, jsmn.h and md4c found
#     (a build from source): status 0;
#   - libncurses-dev, libjsmn-dev and libmd4c-dev missing: status 1, the
#     three packages named and how to install them;
#   - `make` (and `make -j2`) in a copy of the tree stops with that
#     message before compiling anything.
set -u
. ./tests/lib/env.sh
top=$(pwd)
work=${TMPDIR:-/tmp}/agentview-deps.$$
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/installed" "$work/tools" "$work/nolibs" "$work/tree"
fails=0
checks=0

fail() {
	echo "FAIL deps: $1"
	fails=$((fails + 1))
}

# fake DIR NAME BODY: an executable NAME in DIR running BODY.
fake() {
	printf '#!/bin/sh\n%s\n' "$3" >"$1/$2"
	chmod +x "$1/$2"
}

# A dpkg that has everything, and one that has only the tools.
# shellcheck disable=SC2016
fake "$work/installed" dpkg-query \
	'for p; do case $p in -*) ;; *) echo "$p installed";; esac; done'
# shellcheck disable=SC2016
fake "$work/tools" dpkg-query \
	'for p; do case $p in gcc|make|pkg-config) echo "$p installed";; esac; done'
# No ncursesw, no jsmn.h, no md4c; the rest of what they do is the real
# tools'.
fake "$work/nolibs" pkg-config \
	'case "$*" in *ncursesw*|*md4c*) exit 1;; esac; exec /usr/bin/pkg-config "$@"'
fake "$work/nolibs" cc 'case "$*" in *-E*) exit 1;; esac; exec /usr/bin/cc "$@"'

want="agentview: cannot build yet: missing Debian packages: libncurses-dev libjsmn-dev libmd4c-dev
agentview: 'make run' or 'make test' installs them (or: sh .ci/deps build), then 'make' builds"

# run NAME STATUS OUT PATH-FRONT [ARGS...]: the check with PATH-FRONT first
# in PATH ends with STATUS and says OUT on stderr (nothing on stdout).
run() {
	name=$1 status=$2 out=$3 front=$4
	shift 4
	checks=$((checks + 1))
	PATH="$front:$PATH" CC=cc sh "$top/.ci/deps" --check build "$@" \
		>"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" -eq "$status" ] || fail "$name: status $rc, not $status"
	[ "$(cat "$work/err")" = "$out" ] || fail "$name: says '$(cat "$work/err")'"
	[ -s "$work/out" ] && fail "$name: writes on stdout: $(cat "$work/out")"
}
run "this machine" 0 "" /nonexistent
run "all installed" 0 "" "$work/installed"
run "from source" 0 "" "$work/tools"
run "missing" 1 "$want" "$work/tools:$work/nolibs"

# make, in a copy of the tree: the message, and no object compiled.
cp -r "$top/Makefile" "$top/src" "$top/.ci" "$top/themes" "$work/tree/"
for jobs in -j1 -j2; do
	checks=$((checks + 1))
	(cd "$work/tree" && find . -name '*.o' -delete && rm -f src/agentview src/libcore.a &&
		MAKEFLAGS='' PATH="$work/tools:$work/nolibs:$PATH" make $jobs >"$work/out" 2>&1)
	rc=$?
	[ "$rc" -ne 0 ] || fail "make $jobs: status 0 with the packages missing"
	grep -qxF "agentview: cannot build yet: missing Debian packages: libncurses-dev libjsmn-dev libmd4c-dev" \
		"$work/out" || fail "make $jobs: the message is not said: $(cat "$work/out")"
	[ -z "$(find "$work/tree" -name '*.o')" ] || fail "make $jobs: compiled before the check"
	grep -q -- ' -c ' "$work/out" && fail "make $jobs: ran the compiler: $(cat "$work/out")"
done

echo "deps: $checks checks, $fails failures"
[ "$fails" -eq 0 ]
