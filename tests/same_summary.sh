#!/bin/sh
# same_summary.sh REF_BIN [NEW_BIN] [FILE ...]: the JSON summary
# (--print --format json) of NEW_BIN (default ./src/agentview) is byte for
# byte the one of REF_BIN, a build of an earlier commit, on every FILE
# (default: every file of recordings/, of ../shared/corpus/, and the
# generated bench recordings when present). For speed work: a faster index
# must not change what it finds; for a change of the printers, every
# format: FORMATS="text markdown json html raw" (default: json), and ARGS
# added to each run (ARGS=--redact). Exit status 1 when any output differs.
set -u
ref=${1:?usage: same_summary.sh REF_BIN [NEW_BIN] [FILE ...]}
new=${2:-./src/agentview}
[ $# -ge 2 ] && shift 2 || shift $#
corpus=${CORPUS:-../shared/corpus}
bench=${BENCH_DIR:-${TMPDIR:-/tmp}/agentview-bench}
formats=${FORMATS:-json}
args=${ARGS:-}
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
	for fmt in $formats; do
		# shellcheck disable=SC2086 # ARGS is words
		"$ref" --print --format "$fmt" $args "$f" >"$out/ref" 2>/dev/null
		rr=$?
		# shellcheck disable=SC2086
		"$new" --print --format "$fmt" $args "$f" >"$out/new" 2>/dev/null
		rn=$?
		if [ "$rr" -eq "$rn" ] && cmp -s "$out/ref" "$out/new"; then
			same=$((same + 1))
		else
			differ=$((differ + 1))
			echo "DIFFERS $fmt $f (exit $rr, now $rn): $(cmp "$out/ref" "$out/new" 2>&1 | head -n 1)"
		fi
	done
done
echo "same_summary: $same outputs identical, $differ differ ($formats)"
[ "$differ" -eq 0 ]
