#!/bin/sh
# run_corpus.sh: every file in recordings/ and, when present, every capture
# in ../shared/corpus/, through all five --print formats:
#   - exit status 0, or 3 for a session without result; never a crash;
#   - text, Markdown and HTML carry no terminal control bytes (the page's
#     markup is checked by tests/run_html.sh);
#   - the JSON summary is valid, has the fields of agentview(1) (OUTPUT,
#     json), leaves no call "running", and (for every capture whose result
#     was not edited, and for all Cursor recordings) the reply equals the
#     result's text;
#   - raw gives the input back byte for byte;
#   - under valgrind (when installed, unless VALGRIND=no): no error, no leak.
# AGENTVIEW names the binary (default ./src/agentview).
set -u
bin=${AGENTVIEW:-./src/agentview}
corpus=${CORPUS:-../shared/corpus}
out=${TMPDIR:-/tmp}/agentview-corpus.$$
mkdir -p "$out"
# Recording is on by default (issue 15): whatever this test reads live is
# kept in its own scratch folder, never in the real ~/.local/state.
XDG_STATE_HOME=$out/state
export XDG_STATE_HOME
trap 'rm -rf "$out"' EXIT
fails=0
checked=0

fail() {
	echo "FAIL $1: $2"
	fails=$((fails + 1))
}

# Captures that SOURCES.tsv marks as excerpts or edited: their result text
# may not match their events.
edited=
if [ -f "$corpus/SOURCES.tsv" ]; then
	edited=$(awk -F '\t' 'tolower($6) ~ /excerpt|derived|edited/ { print $1 }' "$corpus/SOURCES.tsv")
fi

# Control bytes: C0 but LF, DEL, and C1 as UTF-8 (C2 80..C2 9F).
c0=$(printf '[\001-\011\013-\037\177]')
c1=$(printf '\302[\200-\237]')

files=$(ls recordings/*.ndjson recordings/*.txt 2>/dev/null)
[ -d "$corpus" ] && files="$files $(ls "$corpus"/*.ndjson 2>/dev/null)"
# VALGRIND=no: the binary is built with ASan, which valgrind cannot run.
have_valgrind=no
[ "${VALGRIND:-yes}" != no ] && command -v valgrind >/dev/null 2>&1 && have_valgrind=yes

for f in $files; do
	name=$(basename "$f")
	checked=$((checked + 1))
	for fmt in text markdown json raw html; do
		"$bin" --print --format "$fmt" "$f" >"$out/$fmt" 2>"$out/$fmt.err"
		rc=$?
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
			fail "$name" "--format $fmt exited $rc: $(head -c 300 "$out/$fmt.err")"
		fi
	done
	for fmt in text markdown html; do
		if LC_ALL=C grep -q "$c0" "$out/$fmt" || LC_ALL=C grep -q "$c1" "$out/$fmt"; then
			fail "$name" "--format $fmt holds terminal control bytes"
		fi
		[ -s "$out/$fmt" ] || fail "$name" "--format $fmt printed nothing"
	done
	cmp -s "$f" "$out/raw" || fail "$name" "--format raw differs from the input"
	if ! jq -e '
		(.lines | type == "number") and (.diagnostics | type == "array") and
		has("command") and (.sessions | type == "array") and
		all(.sessions[]; has("session_id") and has("model") and has("cwd") and
		    has("permission_mode") and has("duration_ms") and has("request_id") and
		    has("usage") and (.prompts | type == "array") and
		    (.assistant_text | type == "string") and
		    (.state | IN("ok", "failed", "incomplete", "live")) and
		    all(.tool_calls[]; has("call_id") and has("tool") and has("kind") and
		        (.state | IN("ok", "failed", "rejected", "error", "orphaned")) and
		        (.started | type == "boolean") and (.summary | type == "string") and
		        has("start_ms") and has("end_ms") and has("duration_ms")))' \
		"$out/json" >/dev/null 2>&1; then
		fail "$name" "JSON summary lacks a field of agentview(1) or is not JSON"
	fi
	# The real Claude Code, Gemini CLI and Codex captures of tests/agents/:
	# Claude's result.result is the last reply only, Gemini's and Codex's
	# streams have none; their replies are for the adapters' tests to check.
	agent_capture=
	case $name in claude-* | gemini-* | codex-*) agent_capture=" $name" ;; esac
	case " $(echo $edited)$agent_capture " in
	*" $name "*) ;;
	*)
		# The reply of each session with a result equals its text.
		jq -R 'fromjson? | select(.type == "result") | .result // ""' "$f" >"$out/want" 2>/dev/null
		jq '.sessions[] | select(.state == "ok" or .state == "failed") | .assistant_text' \
			"$out/json" >"$out/got"
		cmp -s "$out/want" "$out/got" ||
			fail "$name" "assistant_text differs from result.result"
		;;
	esac
	if [ "$have_valgrind" = yes ]; then
		for fmt in json text; do
			valgrind -q --error-exitcode=99 --leak-check=full \
				--errors-for-leak-kinds=definite,indirect,possible \
				"$bin" --print --format "$fmt" "$f" >/dev/null 2>"$out/vg"
			[ $? -eq 99 ] && fail "$name" "valgrind ($fmt): $(head -c 600 "$out/vg")"
		done
	fi
done

echo "corpus: $checked files, $fails failures (valgrind: $have_valgrind)"
[ "$fails" -eq 0 ]
