#!/bin/sh
# same_summary.sh REF_BIN [NEW_BIN] [FILE ...]: the JSON summary
# (--print --format json) of NEW_BIN (default ./src/agentview) is byte for
# byte the one of REF_BIN, a build of an earlier commit, on every FILE
# (default: every file of recordings/, of ../shared/corpus/, and the
# generated bench recordings when present). For speed work: a faster index
# must not change what it finds. Exit status 1 when any summary differs.
set -u
ref=${1:?usage: same_summary.sh REF_BIN [NEW_BIN] [FILE ...]}
new=${2:-./src/agentview}
[ $# -ge 2 ] && shift 2 || shift $#
corpus=${CORPUS:-../shared/corpus}
bench=${BENCH_DIR:-${TMPDIR:-/tmp}/agentview-bench}
if [ $# -eq 0 ]; then
	set -- recordings/*.ndjson recordings/*.txt
	for f in "$corpus"/*.ndjson "$bench"/bench-*MB.ndjson; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/agentview-same.XXXXXX")
trap 'rm -rf "$out"' EXIT
same=0
differ=0
for f in "$@"; do
	"$ref" --print --format json "$f" >"$out/ref" 2>/dev/null
	rr=$?
	"$new" --print --format json "$f" >"$out/new" 2>/dev/null
	rn=$?
	if [ "$rr" -eq "$rn" ] && cmp -s "$out/ref" "$out/new"; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "DIFFERS $f (exit $rr, now $rn): $(cmp "$out/ref" "$out/new" 2>&1 | head -n 1)"
	fi
done
echo "same_summary: $same files identical, $differ differ"
[ "$differ" -eq 0 ]
