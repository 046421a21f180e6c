#!/bin/sh
# run_replay.sh: recording and replaying, end to end. A slow writer's stream
# recorded through agentview must parse with jq, give back its bytes and
# keep its timing; a recording of a recording must not nest; --print
# --replay prints what --print prints, at the recorded pace; and in tmux
# (private server, fixed size, as run_screen.sh), a paused replay stays
# still, '.' and ',' move by one event, '5' lands in the middle, and a
# recording to a full disk is reported while the viewer goes on.
set -u
. ./tests/lib/env.sh
top=$(pwd)
bin=$top/src/agentview
. "$top/tests/lib/tmux.sh"
tmux_test replay
# Recording is on by default (issue 15): whatever this test reads live is
# kept in its own scratch folder, never in the real ~/.local/state.
XDG_STATE_HOME=$work/state
export XDG_STATE_HOME

cc -std=c11 -O1 -o "$work/pace" "$top/tests/pace.c" || exit 1

# The "event N/M" of the status bar: N.
event_no() {
	screen | tail -1 | sed -n 's/.*event \([0-9]*\)\/[0-9]*.*/\1/p'
}

# Seconds of an mm:ss clock.
secs() {
	echo "$1" | awk -F: '{ print $1 * 60 + $2 }'
}

# A stream as a pipe carries it: JSON events, lines that are not JSON
# (text, invalid UTF-8, an escape, CRLF, an empty object, a blank line),
# and a last line with no newline.
{
	head -12 recordings/demo.ndjson
	printf 'npm WARN deprecated: not JSON\n'
	printf 'bytes \377\376 that are not UTF-8\n'
	printf '\033]0;title\007 escape\n'
	printf '{"type":"user","message":{"role":"user","content":"crlf"}}\r\n'
	printf '{}\n'
	printf '\n'
	sed -n '13,20p' recordings/demo.ndjson
	printf 'the end, without a newline'
} >"$work/stream"
lines=$(awk 'END { print NR }' "$work/stream")

# --- recording with --print ---------------------------------------------------
cases=$((cases + 1))
"$work/pace" 50 "$work/stream" "$work/written" |
	"$bin" --print --record "$work/rec.ndjson" >"$work/print.out"
jq . "$work/rec.ndjson" >/dev/null 2>&1 || fail record-jq "the recording does not parse with jq"
"$bin" --print --format raw "$work/rec.ndjson" >"$work/back"
cmp -s "$work/back" "$work/stream" || fail record-raw "the original bytes do not come back: $(cmp "$work/back" "$work/stream")"
[ "$(awk 'END { print NR }' "$work/rec.ndjson")" = $((lines + 2)) ] ||
	fail record-lines "not one recording line per line read, plus the header and the end"
# The end of the stream, last, at or after the last line's arrival.
jq -e -s '.[-1].subtype == "end" and .[-1].agentview_ms >= .[-2].agentview_ms' "$work/rec.ndjson" \
	>/dev/null || fail record-end "the recording does not end with the stream's end: $(tail -1 "$work/rec.ndjson")"
# Arrival times against the writer's clock: each within a few ms, and the
# pace between them 50 ms.
jq -r 'select(.subtype != "recording" and .subtype != "end") | .agentview_ms' "$work/rec.ndjson" \
	>"$work/arrived"
paste "$work/written" "$work/arrived" | awk '{ d = $2 - $1; print d < 0 ? -d : d }' |
	sort -n >"$work/diffs"
med=$(sed -n "$(( ($(wc -l <"$work/diffs") + 1) / 2 ))p" "$work/diffs")
max=$(tail -1 "$work/diffs")
pace=$(awk 'NR > 1 { p = ($1 - last) - 50; s += p < 0 ? -p : p; n++ } { last = $1 }
	END { printf "%.1f", s / n }' "$work/arrived")
echo "record-timing: $(wc -l <"$work/arrived") lines; arrival - written: median $med ms, max $max ms; mean error of the 50 ms pace: $pace ms"
[ "$med" -le 5 ] && [ "$max" -le 40 ] && awk -v p="$pace" 'BEGIN { exit !(p <= 5) }' ||
	fail record-timing "arrival times are not within a few ms of the writer's"

# Recording a recording keeps its lines as they are: no nested stamps.
cases=$((cases + 1))
cat "$work/rec.ndjson" | "$bin" --print --record "$work/rec2.ndjson" >/dev/null
tail -n +2 "$work/rec2.ndjson" | cmp -s - "$work/rec.ndjson" ||
	fail record-nesting "a recording recorded again changed"
grep -q 'agentview_ms":[0-9]*,"agentview_ms' "$work/rec2.ndjson" && fail record-nesting "nested stamps"
"$bin" --print --format raw "$work/rec2.ndjson" | cmp -s - "$work/stream" ||
	fail record-nesting "the original bytes do not come back from the second recording"

# --- --print --replay -----------------------------------------------------------
cases=$((cases + 1))
"$bin" --print "$work/rec.ndjson" >"$work/plain.out"
t0=$(date +%s%N)
"$bin" --print --replay --speed 4 "$work/rec.ndjson" >"$work/replay.out"
t1=$(date +%s%N)
cmp -s "$work/plain.out" "$work/replay.out" || fail print-replay "the replayed log differs from the log"
# About 1.3 s recorded, at 4x: at least 0.25 s (a lower bound only: a
# loaded machine may take longer).
[ $(( (t1 - t0) / 1000000 )) -ge 250 ] || fail print-replay "done in $(( (t1 - t0) / 1000000 )) ms: not at the recorded pace"
"$bin" --print --format raw --replay --speed 1000 "$work/rec.ndjson" | cmp -s - "$work/stream" ||
	fail print-replay "--format raw --replay does not give the original bytes"
"$bin" --print --speed 2 "$work/rec.ndjson" >/dev/null 2>&1
[ $? = 2 ] || fail usage "--speed without --replay is not a usage error"

# --- the viewer ------------------------------------------------------------------
# A recording of demo.ndjson with a line every 200 ms: 23.6 s long.
awk '{ t = sprintf("%.0f", 1800000000000 + NR * 200); sub(/\}$/, ",\"agentview_ms\":" t "}"); print }' \
	recordings/demo.ndjson >"$work/demo.rec"

# A replay moves; paused, it stays still.
cases=$((cases + 1))
start 120 40 "$bin --replay $work/demo.rec"
wait_for 'replay ×1' || fail pause "no 'replay ×1' in the status bar"
wait_for 'event [0-9]{2,}/' 8 || fail pause "the replay does not move"
a=$(screen)
sleep 1
b=$(screen)
[ "$a" != "$b" ] || fail pause "no progress in 1 s while playing"
$T send-keys -t 0 Space
wait_for ' paused ' || fail pause "no 'paused' in the status bar"
a=$(screen)
sleep 1
b=$(screen)
[ "$a" = "$b" ] || fail pause "the screen changed while paused: $(echo "$a" | tail -1) / $(echo "$b" | tail -1)"

# '.' shows one more event, ',' takes it back.
cases=$((cases + 1))
$T send-keys -t 0 .
sleep 0.3
n=$(event_no)
before=$(screen)
$T send-keys -t 0 .
wait_for "event $((n + 1))/" 3 || fail step "'.' did not move one event from $n: $(screen | tail -1)"
[ "$(screen)" != "$before" ] || fail step "'.' changed nothing on screen"
$T send-keys -t 0 ,
wait_for "event $n/" 3 || fail step "',' did not move one event back to $n: $(screen | tail -1)"
[ "$(screen)" = "$before" ] || fail step "',' did not give back the screen before '.'"

# '5' lands in the middle.
cases=$((cases + 1))
$T send-keys -t 0 5
sleep 0.3
pos=$(screen | tail -1 | grep -oE '[0-9]{2}:[0-9]{2} / [0-9]{2}:[0-9]{2}')
p=$(secs "${pos%% /*}")
l=$(secs "${pos##*/ }")
[ -n "$pos" ] && [ $((p * 2 - l)) -le 1 ] && [ $((l - p * 2)) -le 1 ] ||
	fail middle "'5' did not land in the middle: '$pos'"
n=$(event_no)
[ "${n:-0}" -ge 55 ] && [ "${n:-0}" -le 65 ] || fail middle "'5' shows event $n of 119"
golden replay-120x40-middle

# ']' goes to the start of the next tool call: it runs; '{' back to the
# prompt, then the end.
cases=$((cases + 1))
$T send-keys -t 0 ']'
wait_for '→ running' 3 || fail jumps "']' did not land on a running call"
$T send-keys -t 0 '{'
wait_for 'event 2/119' 3 || fail jumps "'{' did not go back to the prompt: $(screen | tail -1)"
$T send-keys -t 0 9 Space
wait_for 'done .*event 119/119' 8 || fail jumps "the replay did not reach the end: $(screen | tail -1)"

# The narrow layout: the status says the same, compactly.
start 40 30 "$bin --replay --speed 2 $work/demo.rec"
wait_for 'replay ×2' || fail narrow "no 'replay ×2'"
$T send-keys -t 0 Space
wait_for ' paused ' || fail narrow "no 'paused'"
$T send-keys -t 0 5
sleep 0.3
golden replay-40x30-middle

# A decision asked for and not answered yet: the session waits, said in
# the status bar, on the question's line and on its call's timeline row.
cases=$((cases + 1))
start 120 40 "$bin --replay recordings/cursor-waiting.ndjson"
wait_for 'replay' || fail waiting "the replay did not start"
$T send-keys -t 0 Space
wait_for ' paused ' || fail waiting "no 'paused'"
$T send-keys -t 0 0
for i in 1 2 3 4 5 6; do
	[ "$(event_no)" = 5 ] && break
	$T send-keys -t 0 .
	sleep 0.2
done
wait_for 'event 5/6' 3 || fail waiting "did not reach the question: $(screen | tail -1)"
screen | grep -q '? approve web fetch https://example.com → waiting for a decision' ||
	fail waiting "no line for the question"
screen | grep -q '│⏸ Fetch' || fail waiting "the call's row does not wait"
golden waiting-120x40
# Live, the status bar says the session waits.
start 120 40 "$bin -f recordings/cursor-waiting.ndjson"
wait_for 'waiting for a decision' || fail waiting "no question on screen"
screen | tail -1 | grep -q 'waiting for a decision' ||
	fail waiting "the status bar does not say it waits: $(screen | tail -1)"

# Recording in the viewer: a full disk is said at once, and the session
# goes on.
cases=$((cases + 1))
start 120 40 "sh -c 'cat recordings/demo.ndjson; sleep 30' | $bin --record /dev/full"
wait_for 'recording to /dev/full failed: No space left on device' ||
	fail full-disk "no recording error in the status bar"
wait_for 'done' || fail full-disk "the session did not go on"
screen | grep -q 'Shell `npm test`' || fail full-disk "the transcript is not shown"

# Recording in the viewer, from a slow pipe.
cases=$((cases + 1))
start 80 24 "$work/pace 20 $work/stream $work/written2 | $bin --record $work/rec3.ndjson"
wait_for 'incomplete' 8 || fail viewer-record "the stream did not end"
$T send-keys -t 0 q
sleep 0.3
"$bin" --print --format raw "$work/rec3.ndjson" | cmp -s - "$work/stream" ||
	fail viewer-record "the original bytes do not come back"

echo "replay: $cases cases, $fails failures"
[ "$fails" -eq 0 ]
