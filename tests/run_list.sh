#!/bin/sh
# run_list.sh: the session list on the screen (issue 15), as a person sees
# it in a private tmux server: the rows of a folder at 120, 80 and 40
# columns (columns dropped by priority down to state, prompt and time), a
# live change (lines appended to a file of the folder change its row, a
# new file adds one), s cycling the order, / filtering, Enter opening a
# session in the transcript and q coming back to the same row, q on the
# list quitting. File times are set long ago but for the live file, so the
# order of recency is known.
set -u
. ./tests/lib/env.sh
top=$(pwd)
bin=${AGENTVIEW:-$top/src/agentview}
case $bin in /*) ;; *) bin=$top/$bin ;; esac
. "$top/tests/lib/tmux.sh"
tmux_test list
XDG_STATE_HOME=$work/state
export XDG_STATE_HOME

line() {
	printf '%s\n' "$1"
}
. "$top/tests/lib/cursor.sh"

# reversed TEXT: the screen line holding TEXT has reverse video on it (the
# selection).
reversed() {
	screen_sgr | grep -F -- "$1" | grep -o "$(printf '\033')\[[0-9;]*m" |
		sed 's/^.\[//; s/m$//' | tr ';' '\n' | grep -qx 7
}

d=$work/fleet
mkdir -p "$d"
{ init d0000001 alpha; user "fix the tests"; result false 245000 "the tests pass"; } >"$d/done.ndjson"
{ init f0000001 beta; user "deploy it"; result true 61000 "make failed"; } >"$d/failed.ndjson"
{ init c0000001 gamma; user "refactor"; started c1 make; } >"$d/cut.ndjson"
touch -d '2026-01-05 10:00' "$d/done.ndjson"
touch -d '2026-01-05 09:00' "$d/failed.ndjson"
touch -d '2026-01-05 08:00' "$d/cut.ndjson"
{ init l0000001 delta; user "run the e2e suite"; started c1 "npm run e2e"; } >"$d/live.ndjson"

# list COLS ROWS: agentview over the folder, the first screen drawn.
list() {
	start "$1" "$2" "$bin $d"
	wait_for 'attention order' || fail "list-$1" "no list: $(screen | head -3)"
}

# --- the rows at three widths ------------------------------------------------------

# at COLS LINE PATTERN: screen line LINE matches PATTERN (grep -E), at COLS.
at() {
	screen | sed -n "$2p" | grep -qE -- "$3" || fail "list-$1" "line $2: $(screen | sed -n "$2p")"
}

cases=$((cases + 1))
list 120 20
at 120 1 '^● 1 running · ✗ 1 failed · ◌ 1 incomplete · ✓ 1 done$'
at 120 2 '^ STATE +AGENT +ID +CWD +PROMPT +NOW +TIME +CALLS +QUIET *$'
at 120 3 '^ ✗ failed +cursor +f0000001 beta +deploy it +make failed +1m01s'
at 120 4 '^ ● running +cursor +l0000001 delta +run the e2e suite +Shell `npm run e2e`'
at 120 20 '^attention order · 4 sessions'
screen | sed -n '3,6p' | cut -c2-13 | sed 's/ *$//' >"$work/states"
# (cut counts bytes: the glyphs take 3.)
printf '%s\n' "✗ failed" "● running" "✓ done" "◌ incomple" >"$work/want"
cmp -s "$work/states" "$work/want" || fail list-120 "attention first: $(tr '\n' '|' <"$work/states")"
reversed "f0000001" || fail list-120 "the first row is not selected"
echo "120 columns: every column but model, tokens, cost and file; attention first; the first row selected"

cases=$((cases + 1))
list 80 20
at 80 2 '^ STATE +AGENT +CWD +PROMPT +NOW +TIME$'
at 80 3 '^ ✗ failed +cursor +beta +deploy it +make failed +1m01s$'
list 40 20
at 40 2 '^ STATE +PROMPT +TIME$'
at 40 3 '^ ✗ failed +deploy it +1m01s$'
at 40 4 '^ ● running +run the e2e suite +-$'
echo "80 and 40 columns: columns dropped by priority, down to state, prompt and time"

# --- live ------------------------------------------------------------------------------

cases=$((cases + 1))
list 120 20
{ line '{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"shellToolCall":{"args":{"command":"npm run e2e"},"result":{"success":{"exitCode":0}}}}}'
  result false 5000 "e2e green"; } >>"$d/live.ndjson"
wait_for '^.✓ done +cursor +l0000001 delta +run the e2e suite +ok +5.0 s ✓1' ||
	fail live "the appended result did not change the row: $(screen | sed -n '3,7p')"
shows '^✗ 1 failed · ◌ 1 incomplete · ✓ 2 done$' || fail live "summary line: $(screen | head -1)"
# Its start said by its own time, a minute ahead: newer than the live one
# however the two are read (both untimed, a look that reads them together
# gave them one clock and no order).
t=$(($(date +%s) * 1000 + 60000))
{ line "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"n0000001\",\"model\":\"Composer 2.5\",\"cwd\":\"/w/eta\",\"timestamp_ms\":$t}"
  user "a new one"; } >"$d/new.ndjson"
wait_for '^ ● running +cursor +n0000001 eta +a new one' || fail live "a new file is not listed: $(screen | sed -n '3,8p')"
wait_for '^attention order · 5 sessions' || fail live "status bar: $(screen | tail -1)"
echo "live: a result appended changes its row, a new file adds one"

# --- sorting, filtering ------------------------------------------------------------------

cases=$((cases + 1))
keys s
wait_for 'sorted by newest' || fail sort "s: no note"
# The newest start first: the new file, the live one, then by their times.
screen | sed -n '3,4p' | grep -o '[a-z]0000001' | tr '\n' ' ' >"$work/ids"
[ "$(cat "$work/ids")" = "n0000001 l0000001 " ] || fail sort "newest: $(cat "$work/ids")"
keys s
wait_for 'sorted by longest' || fail sort "s again: no note"
screen | sed -n 3p | grep -qE '^ ✓ done +cursor +d0000001' ||
	fail sort "longest first: $(screen | sed -n 3p)"
keys s s
wait_for 'sorted by attention' || fail sort "s round to attention: $(screen | tail -1)"
echo "s: newest, longest, cwd, and back to attention"

cases=$((cases + 1))
keys / d e p
wait_for '^filter: dep_' || fail filter "no prompt: $(screen | tail -1)"
shows 'f0000001' || fail filter "the match is gone"
shows 'd0000001|l0000001|n0000001' && fail filter "rows that do not match are shown"
keys Enter
wait_for '1 of 5 sessions · filter "dep"' || fail filter "status bar: $(screen | tail -1)"
keys Escape
wait_for '^attention order · 5 sessions' || fail filter "Esc did not empty the filter: $(screen | tail -1)"
shows 'd0000001' || fail filter "rows did not come back"
echo "/: the rows filtered as it is typed; Esc empties the filter"

# --- open and back ---------------------------------------------------------------------

cases=$((cases + 1))
keys j j
row=$(screen | sed -n 5p | grep -o '[a-z]0000001')
reversed "$row" || fail open "the third row is not selected"
keys Enter
wait_for "Session $row" || fail open "Enter did not open $row: $(screen | head -3)"
wait_for 'q or Esc: back to the list' || fail open "the status bar does not say how to come back: $(screen | tail -1)"
keys q
wait_for 'attention order' || fail open "q did not come back to the list: $(screen | tail -1)"
reversed "$row" || fail open "back on another row than $row"
keys Enter
wait_for "Session $row" || fail open "Enter again did not open $row"
# The search looks in the session open, not in the list's empty model:
# the first word of its prompt is found.
word=$(screen | sed -n 's/^❯ \([a-z0-9]*\).*/\1/p' | head -1)
[ -n "$word" ] || fail open "no prompt shown in $row"
keys / $(printf '%s' "$word" | sed 's/./& /g')
wait_for "/$word .*match 1/[0-9]" || fail open "/$word found nothing in the session open: $(screen | tail -1)"
keys Enter
wait_gone "^/$word" || fail open "Enter did not close the search prompt"
keys Escape
wait_for 'attention order' || fail open "Esc did not come back to the list"
keys q
wait_exit 5 || fail open "q on the list did not quit"
echo "Enter opens the session, q and Esc come back to its row, q quits"

# top_is ID: the transcript's first rows show session ID's start.
top_is() {
	screen | sed -n '2,3p' | grep -q "── Session $1"
}

# A file of two sessions: each row opens on its own session.
cases=$((cases + 1))
{ init a0000001 zeta; user "first run"; result false 1000 one; init a0000002 zeta; user "second run"; result false 2000 two; } >"$d/two.ndjson"
touch -d '2026-01-05 07:00' "$d/two.ndjson"
list 120 20
keys / z e t a Enter
wait_for 'filter "zeta"' || fail two "no filter: $(screen | tail -1)"
at 120 3 'a0000002 zeta +second run'
keys Enter
wait_for '── Session a0000002' || fail two "the second session is not shown: $(screen | head -4)"
# (The first frame may show the file from its start, both sessions.)
poll 5 top_is a0000002 || fail two "the second session is not at the top: $(screen | head -4)"
keys q j Enter
wait_for '── Session a0000001' || fail two "the first session is not shown: $(screen | head -4)"
echo "a file of two sessions: each row opens on its own"

# --- acting from the list (issue 25) ---------------------------------------------------

# A folder of one session of each state, the failed one in a real folder
# (e opens it); a pager and an editor that write down what they got.
a=$work/act
mkdir -p "$a" "$work/here"
{ init w0000001 ask; user "may I fetch it"; ask; } >"$a/wait.ndjson"
{ line "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"f0000002\",\"model\":\"m\",\"cwd\":\"$work/here\"}"
  user "deploy it"; result true 61000 "make failed"; } >"$a/failed.ndjson"
{ init d0000002 alpha; user "fix the tests"; result false 245000 "green"; } >"$a/done.ndjson"
{ init r0000002 delta; user "run the e2e suite"; started c1 "npm run e2e"; } >"$a/run.ndjson"
touch -d '2026-01-05 10:00' "$a/done.ndjson" "$a/failed.ndjson"
printf '#!/bin/sh\ncat "$1" >%s/paged\n' "$work" >"$work/pager"
printf '#!/bin/sh\necho "$@" >%s/edited\n' "$work" >"$work/editor"
chmod +x "$work/pager" "$work/editor"
act() {
	start "$1" "$2" "env PAGER=$work/pager EDITOR=$work/editor VISUAL= $bin $a"
	wait_for 'attention order' || fail "act-$1" "no list: $(screen | head -3)"
}

cases=$((cases + 1))
act 120 24
at 120 3 '^ ⏸ waiting +cursor +w0000001'
keys S
wait_for 'attention order, reversed' || fail reverse "S said nothing: $(screen | tail -1)"
at 120 3 '^ ✓ done +cursor +d0000002'
at 120 6 '^ ⏸ waiting +cursor +w0000001'
keys S x
wait_for 'done and incomplete sessions hidden' || fail hide "x said nothing: $(screen | tail -1)"
shows 'd0000002' && fail hide "the done row is still shown"
shows 'r0000002' || fail hide "the running row went too"
wait_for '3 of 4 sessions · done and incomplete hidden' || fail hide "status bar: $(screen | tail -1)"
keys x
wait_for 'd0000002' || fail hide "x again did not show it"
echo "S reverses the order, x hides the done ones and shows them again"

cases=$((cases + 1))
keys G w
reversed w0000001 || fail w "w from the last row did not wrap to the waiting one"
keys w
reversed f0000002 || fail w "w did not go on to the failed one"
keys W
reversed w0000001 || fail w "W did not go back"
echo "w and W go to the sessions that wait or failed, round the ends"

cases=$((cases + 1))
keys '?'
wait_for '─ Keys ─' || fail help "? on the list opened no help"
shows 'Session list' || fail help "the list's help is not the list's: $(screen | sed -n 2,4p)"
shows 'Anywhere|previous tool call' && fail help "the list's help shows the transcript's keys"
shows 'w +the next session that waits' || fail help "w is not in the list's help"
keys q
wait_gone '─ Keys ─' || fail help "q did not close the list's help"
keys Z
wait_for 'no such key: Z \(\? for help\)' || fail help "an unknown key said nothing: $(screen | tail -1)"
echo "? on the list shows the list's keys; an unknown key is said"

cases=$((cases + 1))
keys g j o
poll 5 test -s "$work/paged" || fail pager "o did not run the pager"
grep -q 'f0000002' "$work/paged" && grep -q 'deploy it' "$work/paged" ||
	fail pager "the pager did not get the session: $(head -3 "$work/paged")"
grep -q 'w0000001' "$work/paged" && fail pager "the pager got another session"
keys e
poll 5 test -s "$work/edited" || fail editor "e did not run the editor"
[ "$(cat "$work/edited")" = "$work/here" ] || fail editor "the editor got: $(cat "$work/edited")"
echo "o shows the selected session in the pager, e its folder in the editor"

# A session that ends while you are elsewhere is marked new until opened;
# ( and ) go through the list's sessions without coming back to it.
cases=$((cases + 1))
result false 5000 "e2e green" >>"$a/run.ndjson"
wait_for '^•✓ done +cursor +r0000002' || fail new "no mark on the session that ended: $(screen | sed -n 3,7p)"
keys g
at=$(screen | grep -n 'r0000002' | cut -d: -f1)
for _ in $(seq 4 "$at"); do keys j; done
reversed r0000002 || fail new "could not select r0000002 on line $at"
keys Enter
wait_for '── Session r0000002' || fail new "Enter did not open it"
keys q
wait_for 'attention order' || fail new "q did not come back"
shows '^•' && fail new "the mark stayed after opening: $(screen | grep '^•')"
wait_gone 'q or Esc: back to the list' || fail new "the session's note stayed on the list: $(screen | tail -1)"
keys g Enter
wait_for '── Session w0000001' || fail step "Enter did not open the first"
keys ')'
wait_for '── Session f0000002' || fail step ") did not open the next: $(screen | sed -n 2p)"
keys '('
wait_for '── Session w0000001' || fail step "( did not open the previous: $(screen | sed -n 2p)"
keys '('
wait_for 'the first session of the list' || fail step "( on the first said nothing: $(screen | tail -1)"
keys q
wait_for 'attention order' || fail step "q did not come back to the list"
echo "a session that ended is marked new until opened; ( and ) step through the list"

# Nothing to list: where agentview looked and what to try, wrapped to the
# width; too small a screen says so.
cases=$((cases + 1))
mkdir -p "$work/home/.codex"
for size in "80 24" "40 30"; do
	set -- $size
	start "$1" "$2" "env -u XDG_STATE_HOME HOME=$work/home $bin"
	wait_for 'No sessions yet. agentview looked in:' || fail empty "nothing said at $1: $(screen | sed -n 3,5p)"
	shows '~/.local/state/agentview/sessions' || fail empty "the kept folder is not said at $1"
	# Each agent's store, there or not (issue 23); wrapped at 40.
	if [ "$1" = 80 ]; then
		shows "~/.claude  \\(Claude Code's own sessions\\), not there" ||
			fail empty "Claude Code's store is not said at $1: $(screen | sed -n 3,12p)"
		shows "~/.codex  \\(Codex's own sessions\\)\$" || fail empty "Codex's store (there) is not said at $1"
	else
		shows "~/.claude  \\(Claude Code's own" || fail empty "Claude Code's store is not said at $1"
	fi
	shows '^  agentview DIR' || fail empty "agentview DIR is not said at $1: $(screen)"
	# Wrapped, not cut: the last words are on the screen.
	shows 'its folders\)$' || fail empty "the last line is cut at $1: $(screen | sed -n 3,20p)"
done
start 30 8 "$bin $a"
wait_for 'too small: 30×8 < 40×10' || fail small "the list at 30x8: $(screen)"
keys Enter
wait_for 'too small: 30×8 < 40×10' || fail small "a session at 30x8: $(screen)"
echo "an empty list says where it looked and what to try; under 40x10, too small"

# A big file's row becomes exact: the list's first screen reads a file
# over 128 KiB by its head and tail only, then its middle in the
# background, and the row says what the whole file holds (the Claude
# Code store's 166 KB session: 210/41 tokens and its call, as --print
# --format json says), without "(middle not read)".
cases=$((cases + 1))
cs=$top/tests/stores/claude/tmux/done
start 160 12 "env -u XDG_STATE_HOME HOME=$work/home CLAUDE_CONFIG_DIR=$cs AGENTVIEW_SOURCES=claude $bin"
wait_for '027c60fc' || fail gap "no row: $(screen | sed -n 1,4p)"
wait_for ' 210/41 ' 3 || fail gap "the row's tokens are not the whole file's: $(screen | sed -n 3p)"
shows '027c60fc.* ✓1 ' || fail gap "the row's call is not counted: $(screen | sed -n 3p)"
shows 'middle not read' && fail gap "the row still says its middle is not read: $(screen | sed -n 3p)"
keys q
echo "a big file's row becomes the whole file's after the first screen (210/41, its call)"
# Printed once, the same row is the whole file's before it is written.
cases=$((cases + 1))
env -u XDG_STATE_HOME HOME="$work/home" CLAUDE_CONFIG_DIR="$cs" AGENTVIEW_SOURCES=claude \
	"$bin" --print >"$work/printed" 2>&1 </dev/null
grep -q '027c60fc.* ok  .* ✓1  .* 210/41 ' "$work/printed" ||
	fail gap-print "the printed row is not the whole file's: $(sed -n 2p "$work/printed")"
grep -q 'middle not read' "$work/printed" && fail gap-print "the printed row says its middle is not read"
echo "printed once, a big file's row is the whole file's (210/41, its call)"

# A live Codex call held at the approval prompt (the snapshot the real CLI
# wrote then, its turn in progress in thread_history_1.sqlite, a codex
# process of that store alive): Codex records no such wait, so the row
# says "running or waiting", and so does the session opened from it, in
# its status bar, at every size; its state stays running.
cases=$((cases + 1))
cx=$work/codex
cp -R "$top/tests/stores/codex/ask/waiting" "$cx"
# (a stand-in: sleep under the name codex, as the native binary's process
# is named; its name, then its argv, is what counts)
mkdir -p "$work/bin"
ln -s "$(command -v sleep)" "$work/bin/codex"
CODEX_HOME=$cx "$work/bin/codex" 600 &
codex_pid=$!
for size in "120 40" "80 24" "40 30"; do
	set -- $size
	start "$1" "$2" "env -u XDG_STATE_HOME HOME=$work/home CODEX_HOME=$cx AGENTVIEW_SOURCES=codex $bin"
	wait_for '● running' || fail may-wait "no running row at $1: $(screen | sed -n 1,3p)"
	if [ "$1" != 40 ]; then
		wait_for '● running .*running or waiting' ||
			fail may-wait "the row does not say running or waiting at $1: $(screen | sed -n 3p)"
	fi
	keys Enter
	wait_for '^ ?● running or waiting ' ||
		fail may-wait "the opened session's status bar at $1: $(screen | tail -1)"
	keys q
	wait_for '● running' || fail may-wait "q did not come back to the list at $1"
done
# Its JSON summary says so beside the state, which stays live.
env -u XDG_STATE_HOME HOME="$work/home" CODEX_HOME="$cx" AGENTVIEW_SOURCES=codex \
	"$bin" --print --format json >"$work/may-wait.json" 2>&1 </dev/null
grep -q '"state":"live","may_wait":true,' "$work/may-wait.json" ||
	fail may-wait-json "the JSON does not say may_wait: $(grep -o '"state":[^,]*,[^,]*' "$work/may-wait.json")"
kill "$codex_pid"
wait "$codex_pid" 2>/dev/null
echo "a live Codex call held for approval: running or waiting in its row, its opened view, its JSON"

# --- notifications, the poll, the clock ------------------------------------------------

# Told while the list is up: --notify-cmd gets the change to done. With
# no inotify watch left the folder is polled, and the status bar says so.
cases=$((cases + 1))
n=$work/notified
mkdir -p "$n"
{ init x0000001 theta; user "long job"; started c1 "make all"; } >"$n/job.ndjson"
printf 'echo "$AGENTVIEW_EVENT $AGENTVIEW_SESSION" >>%s/told\n' "$work" >"$work/tell.sh"
start 120 20 "env AGENTVIEW_WATCH_MAX=0 $bin --notify-cmd 'sh $work/tell.sh' $n"
wait_for '1 folder polled each second' || fail notify "the poll is not said: $(screen | tail -1)"
result false 3000 "built" >>"$n/job.ndjson"
wait_for '^.✓ done +cursor +x0000001' || fail notify "the row did not change: $(screen | sed -n 3p)"
poll 5 grep -q "done x0000001" "$work/told" || fail notify "--notify-cmd was not run: $(cat "$work/told" 2>/dev/null)"
echo "--notify-cmd told of a change to done while the list is up; a polled folder said"

# Told in the single session's view too, of live input only: a stream
# through -- COMMAND that ends tells done; the same file read at once
# (no news) tells nothing.
cases=$((cases + 1))
rm -f "$work/told"
start 120 20 "$bin --no-record --notify-cmd 'sh $work/tell.sh' -- cat $n/job.ndjson"
wait_for 'exited with status 0' || fail notify-one "the command did not end: $(screen | tail -1)"
poll 5 grep -q "done x0000001" "$work/told" || fail notify-one "--notify-cmd was not run: $(cat "$work/told" 2>/dev/null)"
keys q
rm -f "$work/told"
start 120 20 "$bin --no-record --notify-cmd 'sh $work/tell.sh' $n/job.ndjson"
wait_for 'done' || fail notify-one "the file was not drawn"
keys q
wait_exit 5 || fail notify-one "q did not end the viewer"
[ ! -e "$work/told" ] || fail notify-one "a file read at once was told: $(cat "$work/told")"
echo "--notify-cmd told of a live stream's end in the single session's view, not of a file's"

# The screen is drawn again each second only while a running row is shown.
cases=$((cases + 1))
q=$work/quiet
mkdir -p "$q"
cp "$d/done.ndjson" "$d/failed.ndjson" "$q/"
for dir in "$q" "$n"; do
	[ "$dir" = "$n" ] && { init y0000001 iota; user "running"; started c1 "sleep"; } >"$n/run.ndjson"
	start 120 20 "env AGENTVIEW_FRAMESTAT=1 $bin $dir 2>$work/frames"
	wait_for 'attention order' || fail clock "no list"
	sleep 3
	keys q
	wait_exit 5
	frames=$(sed -n 's/.*frames=\([0-9]*\).*/\1/p' "$work/frames")
	if [ "$dir" = "$q" ]; then
		[ "${frames:-99}" -le 3 ] || fail clock "a quiet list drew $frames frames in 3 s"
	else
		[ "${frames:-0}" -ge 3 ] && [ "${frames:-99}" -le 8 ] || fail clock "a running row: $frames frames in 3 s"
	fi
done
echo "a quiet list is not drawn again; a running row's clock is, once a second"

echo "list: $cases cases, $fails failures"
[ "$fails" -eq 0 ]
