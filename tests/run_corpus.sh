#!/bin/sh
# run_corpus.sh: every file in recordings/ and, when present, every capture
# in ../shared/corpus/, through all five --print formats:
#   - exit status 0, or 3 for a session without result; never a crash;
#   - text, Markdown and HTML carry no terminal control bytes (the page's
#     markup is checked by tests/run_html.sh);
#   - the Markdown, as GitHub renders it (tests/md_check.py, cmark-gfm),
#     holds no element, image or link of the recording's making; so do the
#     session list's Markdown table of all of them and --compare's
#     Markdown of each file against itself;
#   - the JSON summary is valid, has the fields of agentview(1) (OUTPUT,
#     json), leaves no call "running", and (for every capture whose result
#     was not edited, and for all Cursor recordings) the reply equals the
#     result's text; for the real Claude Code, Gemini CLI and Codex
#     captures, what each stream says the reply is;
#   - raw gives the input back byte for byte;
#   - under valgrind (when installed, unless VALGRIND=no): no error, no leak.
# AGENTVIEW names the binary (default ./src/agentview).
set -u
. ./tests/lib/env.sh
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

# agent_reply FILE NAME: what holds of the reply in the real Claude Code,
# Gemini CLI, Codex and Copilot CLI captures of tests/agents/ (one session each), its
# segments joined by a blank line: Claude Code's segments are the text
# blocks of the session's own assistant lines (not a sub-agent's; not the
# <synthetic> one saying an API error, nor the deltas of a message cut off;
# with none, the result's text), and its result.result, when it succeeded,
# is the last of them (a run killed before its end has no result); Gemini
# CLI's are its runs of assistant messages (the deltas, each run ended by
# another line), Codex's its agent_message items, Copilot CLI's the
# contents of its own assistant.message lines (not a sub-agent's, whose
# lines name their agentId; a reply cut off never has one).
agent_reply() {
	jq -n -e --slurpfile raw "$1" --slurpfile v "$o/json" '
		($v[0].sessions | length) == 1 and $v[0].sessions[0].assistant_text as $t |
		($raw | map(select(.type == "result")) | last) as $r |
		if $raw[0].type == "system" then
			($raw | map(select(.type == "assistant" and .parent_tool_use_id == null and
				.message.model != "<synthetic>") | .message.content[] |
				select(.type == "text") | .text | select(. != "")) | join("\n\n")) as $own |
			# With no reply at all, the summary takes the result'"'"'s text.
			$t == (if $own == "" then $r.result else $own end) and
			($r == null or $r.is_error or ($t | endswith($r.result)))
		elif $raw[0].type == "init" then
			$t == (reduce $raw[] as $l ([];
				if $l.type == "message" and $l.role == "assistant" then
					if (.[-1] | type) == "string" then .[-1] += $l.content else . + [$l.content] end
				else . + [null] end) | map(strings | select(. != "")) | join("\n\n"))
		elif $raw[0].type | IN("session.skills_loaded", "session.start") then
			$t == ($raw | map(select(.type == "assistant.message" and .agentId == null) |
				.data.content | select(. != "")) | join("\n\n"))
		else $t == ($raw | map(select(.type == "item.completed" and .item.type == "agent_message") |
				  .item.text | select(. != "")) | join("\n\n"))
		end' >/dev/null 2>&1
	[ $? -eq 0 ] || fail "$2" "assistant_text is not the reply its stream says"
}

# Control bytes: C0 but LF, DEL, and C1 as UTF-8 (C2 80..C2 9F).
c0=$(printf '[\001-\011\013-\037\177]')
c1=$(printf '\302[\200-\237]')

files=$(ls recordings/*.ndjson recordings/*.txt 2>/dev/null)
[ -d "$corpus" ] && files="$files $(ls "$corpus"/*.ndjson 2>/dev/null)"
# VALGRIND=no: the binary is built with ASan, which valgrind cannot run.
have_valgrind=no
[ "${VALGRIND:-yes}" != no ] && command -v valgrind >/dev/null 2>&1 && have_valgrind=yes

# check FILE: every check of one file, its scratch files in $o (its
# shard's); copied into the folder the list reads below.
check() {
	f=$1
	name=$(basename "$f")
	checked=$((checked + 1))
	for fmt in text markdown json raw html; do
		"$bin" --print --format "$fmt" "$f" >"$o/$fmt" 2>"$o/$fmt.err"
		rc=$?
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
			fail "$name" "--format $fmt exited $rc: $(head -c 300 "$o/$fmt.err")"
		fi
	done
	for fmt in text markdown html; do
		if LC_ALL=C grep -q "$c0" "$o/$fmt" || LC_ALL=C grep -q "$c1" "$o/$fmt"; then
			fail "$name" "--format $fmt holds terminal control bytes"
		fi
		[ -s "$o/$fmt" ] || fail "$name" "--format $fmt printed nothing"
		# A decision asked for reads in words, never as its JSON
		# (issue 13): no output holds the event's own keys.
		if grep -q 'interaction_query\|"query_type"\|queryType' "$o/$fmt"; then
			fail "$name" "--format $fmt prints an interaction_query as JSON"
		fi
	done
	cmp -s "$f" "$o/raw" || fail "$name" "--format raw differs from the input"
	why=$(python3 tests/md_check.py "$o/markdown" 2>&1) ||
		fail "$name" "the Markdown renders markup of the stream's: $(echo "$why" | head -c 300)"
	"$bin" --compare "$f" "$f" --format markdown >"$o/compare.md" 2>"$o/compare.err"
	why=$(python3 tests/md_check.py "$o/compare.md" 2>&1) ||
		fail "$name" "--compare's Markdown renders markup of the stream's: $(echo "$why" | head -c 300)"
	# Each file in the folder the session list reads below, as .jsonl
	# (the list reads .jsonl and .ndjson files).
	mkdir -p "$out/list"
	cp "$f" "$out/list/$name.ndjson"
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
		"$o/json" >/dev/null 2>&1; then
		fail "$name" "JSON summary lacks a field of agentview(1) or is not JSON"
	fi
	case $name in
	# (md-links-claude.ndjson and the like: a capture with attacks added)
	claude-* | gemini-* | codex-* | copilot-* | *-claude.ndjson | *-gemini.ndjson | *-codex.ndjson)
		agent_reply "$f" "$name"
		;;
	*)
		case " $(echo $edited) " in
		*" $name "*) ;;
		*)
			# The reply of each session with a result is its text,
			# which glues the reply's segments that assistant_text
			# joins by a blank line.
			jq -R 'fromjson? | select(.type == "result") | .result // "" | gsub("\n\n"; "")' \
				"$f" >"$o/want" 2>/dev/null
			jq '.sessions[] | select(.state == "ok" or .state == "failed") |
				.assistant_text | gsub("\n\n"; "")' "$o/json" >"$o/got"
			cmp -s "$o/want" "$o/got" ||
				fail "$name" "assistant_text differs from result.result"
			;;
		esac
		;;
	esac
	if [ "$have_valgrind" = yes ]; then
		for fmt in json text; do
			valgrind -q --error-exitcode=99 --leak-check=full \
				--errors-for-leak-kinds=definite,indirect,possible \
				"$bin" --print --format "$fmt" "$f" >/dev/null 2>"$o/vg"
			[ $? -eq 99 ] && fail "$name" "valgrind ($fmt): $(head -c 600 "$o/vg")"
		done
	fi
}

# The files in as many shards as there are cores, each checked in a
# process of its own (valgrind runs one core: the corpus took 6 minutes of
# a 2-core CI run in one): file k in shard k mod n. Each shard says its
# count of files and of failures in its file.
n=$(nproc 2>/dev/null || echo 1)
[ "$n" -ge 1 ] 2>/dev/null || n=1
[ "$n" -le 4 ] || n=4
k=0
while [ "$k" -lt "$n" ]; do
	(
		o=$out/s$k
		mkdir -p "$o"
		i=0
		for f in $files; do
			[ $((i % n)) -eq "$k" ] && check "$f"
			i=$((i + 1))
		done
		echo "$checked $fails" >"$out/s$k.n"
	) &
	k=$((k + 1))
done
wait
k=0
while [ "$k" -lt "$n" ]; do
	if read -r c e <"$out/s$k.n"; then
		checked=$((checked + c)) fails=$((fails + e))
	else
		fail "shard $k" "it ended before its last file"
	fi
	k=$((k + 1))
done

# The session list of every file, as a Markdown table.
"$bin" --print "$out/list" --format markdown >"$out/list.md" 2>"$out/list.err"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || fail list "--print DIR --format markdown exited $rc"
why=$(python3 tests/md_check.py "$out/list.md" 2>&1) ||
	fail list "the session list's Markdown renders markup of the stream's: $(echo "$why" | head -c 300)"

echo "corpus: $checked files, $fails failures (valgrind: $have_valgrind)"
[ "$fails" -eq 0 ]
