#!/bin/sh
# pair.sh 'CMD1' 'CMD2': two tiers of make test at once, each a command
# line for sh -c (tiers that mostly wait: on an sshd, a pane, a round),
# the output of each printed whole, in their order, once both ended.
# Fails when either failed.
set -u
d=$(mktemp -d "${TMPDIR:-/tmp}/agentview-pair.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
sh -c "$1" >"$d/1" 2>&1 &
p=$!
sh -c "$2" >"$d/2" 2>&1
r2=$?
wait "$p"
r1=$?
cat "$d/1" "$d/2"
[ "$r1" -eq 0 ] && [ "$r2" -eq 0 ]
