#!/bin/sh
# check_circles.sh: no two files of src/ use each other, directly or
# through others (`make check-circles`, part of `make test`). A file uses
# another when its object refers to a function or a table the other's
# object defines (nm); a circle is a set of files each of which uses every
# other one, through the others. What would be a circle is one file, or
# goes one way.
#
#   sh tests/check_circles.sh 'KNOWN...' OBJECT...
#
# KNOWN lists the circles still to undo, each as its files' names joined
# by commas in sorted order (print,print_html): each must be found as it
# is written, so that the list only shrinks. Prints every other circle,
# and every known one that is gone, and fails; silent when all hold.
set -eu
[ $# -gt 1 ] || { echo "usage: check_circles.sh 'KNOWN...' OBJECT..." >&2; exit 2; }
known=$1
shift
for o in "$@"; do
	f=${o##*/}
	f=${f%.o}
	nm --defined-only -g "$o" | awk -v f="$f" 'NF == 3 { print "D", f, $3 }'
	nm -u "$o" | awk -v f="$f" '{ print "U", f, $NF }'
done | awk -v known="$known" '
$1 == "D" { def[$3] = $2; files[$2] = 1; next }
{ files[$2] = 1; uses[$2, $3] = 1 }
# Every file the walk from f reaches, into reach[from, to].
function walk(from, f,   to, nt, i) {
	nt = split(adj[f], to, " ")
	for (i = 1; i <= nt; i++)
		if (!((from, to[i]) in reach)) {
			reach[from, to[i]] = 1
			walk(from, to[i])
		}
}
END {
	for (k in uses) {
		split(k, p, SUBSEP)
		if ((p[2] in def) && def[p[2]] != p[1] && !((p[1], def[p[2]]) in edge)) {
			edge[p[1], def[p[2]]] = 1
			adj[p[1]] = adj[p[1]] " " def[p[2]]
		}
	}
	n = 0
	for (f in files)
		name[n++] = f
	# Sorted names, so that a circle is written one way.
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && name[j - 1] > name[j]; j--) {
			t = name[j]; name[j] = name[j - 1]; name[j - 1] = t
		}
	for (i = 0; i < n; i++)
		walk(name[i], name[i])
	nk = split(known, ks, " ")
	for (i = 1; i <= nk; i++)
		want[ks[i]] = 1
	bad = 0
	for (i = 0; i < n; i++) {
		a = name[i]
		if (a in done || !((a, a) in reach))
			continue
		c = a
		for (j = i + 1; j < n; j++) {
			b = name[j]
			if (((a, b) in reach) && ((b, a) in reach)) {
				c = c "," b
				done[b] = 1
			}
		}
		found[c] = 1
		if (!(c in want)) {
			print "a circle of files that use each other: " c
			bad++
		}
	}
	for (k in want)
		if (!(k in found)) {
			print "no longer a circle (take it off CIRCLES_KNOWN in the Makefile): " k
			bad++
		}
	exit bad > 0
}'
