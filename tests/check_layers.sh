#!/bin/sh
# check_layers.sh: the layers of src/ hold (`make check-layers`, part of
# `make test`). Each argument is a layer, the bottom one first, as
# NAME=FILE... with the Makefile's lists (a file's name without .c):
#
#   sh tests/check_layers.sh "reading=util source ..." "model=..." ...
#
# - Every src/*.c is in a layer; X.h and X_impl.h are X.c's, and a header
#   with no .c of its own is named in a layer like a file (glyph).
# - A file includes headers of its own layer and of the layers below it,
#   never of one above.
# - Only the layer named "screen" includes curses (<curses.h>,
#   <ncurses.h>, <ncursesw/curses.h>, <term.h>); the ones above it reach
#   it through its header.
# Prints each file that breaks a rule, and fails; silent when all hold.
set -eu
[ $# -gt 0 ] || { echo "usage: check_layers.sh NAME=FILE... ..." >&2; exit 2; }
specs=
for l in "$@"; do
	specs="$specs$l
"
done
{
	for f in src/*.c src/*.h; do
		echo "F $f"
	done
	grep -H '^#[ \t]*include' src/*.c src/*.h
} | awk -v specs="$specs" '
function stem(path,   s) {
	s = path
	sub(/^.*\//, "", s)
	sub(/\.[ch]$/, "", s)
	sub(/_impl$/, "", s)
	return s
}
function layer_of(path,   s) {
	s = stem(path)
	return (s in layer) ? layer[s] : -1
}
BEGIN {
	n = split(specs, lines, "\n")
	nl = 0
	for (i = 1; i <= n; i++) {
		if (lines[i] == "")
			continue
		eq = index(lines[i], "=")
		name[nl] = substr(lines[i], 1, eq - 1)
		k = split(substr(lines[i], eq + 1), files, " ")
		for (j = 1; j <= k; j++)
			layer[files[j]] = nl
		nl++
	}
	bad = 0
}
$1 == "F" {
	if (layer_of($2) < 0) {
		print $2 ": in no layer of the Makefile"
		bad++
	}
	next
}
{
	colon = index($0, ":")
	f = substr($0, 1, colon - 1)
	line = substr($0, colon + 1)
	fl = layer_of(f)
	if (fl < 0)
		next
	if (match(line, /<(n?curses|ncursesw\/curses|term)\.h>/)) {
		if (name[fl] != "screen") {
			print f " (" name[fl] "): includes curses, which only the screen may"
			bad++
		}
		next
	}
	if (!match(line, /"[^"]+"/))
		next
	h = substr(line, RSTART + 1, RLENGTH - 2)
	hl = layer_of(h)
	if (hl < 0) {
		print f " (" name[fl] "): includes " h ", which is in no layer"
		bad++
	} else if (hl > fl) {
		print f " (" name[fl] "): includes " h " of " name[hl] ", a layer above it"
		bad++
	}
}
END {
	exit bad > 0
}'
