#!/bin/sh
# run_fleet.sh: the sessions of folders and files (issue 15) without a
# screen, with real files and processes:
#   - --print DIR: the list (text, Markdown), attention first; the JSON
#     summary of every session with its "file" (read by helper processes,
#     the same byte for byte as by one); a single FILE as before;
#   - --status-line DIR|FILE...: the sums, with --tmux-style; one FILE as
#     before; none (stdin not a pipe): the kept sessions;
#   - --print -f DIR: a line per change of state, new files, -R;
#     --notify-cmd with the facts in its environment, none of them run as
#     shell text;
#   - faults: a file deleted, truncated, replaced; a folder removed and
#     back; a file without read permission; a file that is no stream; a
#     sparse 5 GB file (listed at once); no inotify watch left
#     (AGENTVIEW_WATCH_MAX=0: polled each second); agentview goes on and
#     loses no row;
#   - a session piped into agentview is kept, and listed live;
#   - --notify inside tmux: OSC 9 and 777 reach the terminal tmux runs in
#     (script(1)'s typescript) through the passthrough;
#   - on a terminal, agentview DIR and agentview alone show the list;
#   - agentview alone with HOME a copy of the agents' own stores
#     (tests/stores/): a row for each store's session, --sources and
#     AGENTVIEW_SOURCES choosing, and where it looked when none is there.
# Waits poll the output (up to 10 s) instead of sleeping a fixed time.
set -u
. ./tests/lib/env.sh
bin=${AGENTVIEW:-./src/agentview}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=${TMPDIR:-/tmp}/agentview-fleet.$$
mkdir -p "$tmp"
# Recording is on by default (issue 15): whatever this test reads live is
# kept in its own scratch folder, never in the real ~/.local/state.
XDG_STATE_HOME=$tmp/state
export XDG_STATE_HOME
# agentview alone reads the agents' stores under HOME: an empty one here.
HOME=$tmp/home
export HOME
mkdir -p "$HOME"
pids=
tm=:
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; $tm kill-server 2>/dev/null; chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
. ./tests/lib/expect.sh

. ./tests/lib/cursor.sh

# A folder of sessions in every state, last written an hour ago.
d=$tmp/fleet
mkdir -p "$d"
{ init d0000001 alpha; user "fix the tests"; result false 245000 "the tests pass"; } >"$d/done.ndjson"
{ init f0000001 beta; user "deploy it"; result true 61000 "make failed"; } >"$d/failed.ndjson"
{ init c0000001 gamma; user "refactor"; started c1 make; } >"$d/cut.ndjson"
{ init a0000001 zeta; user "first"; result false 1000 one; init a0000002 zeta; user "second"; result false 2000 two; } >"$d/two.ndjson"
line "plain text, no stream" >"$d/notes.jsonl"
line "not listed" >"$d/readme.txt"
# Long ago, each at its own time: the order of recency is known.
touch -d '2026-01-05 10:00' "$d/done.ndjson"
touch -d '2026-01-05 09:00' "$d/failed.ndjson"
touch -d '2026-01-05 08:00' "$d/cut.ndjson"
touch -d '2026-01-05 07:00' "$d/two.ndjson"
touch -d '2026-01-05 06:00' "$d/notes.jsonl" "$d/readme.txt"

# --- printed once ------------------------------------------------------------------

cases=$((cases + 1))
"$bin" --print "$d" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail list "exit $rc: $(head -c 300 "$tmp/err")"
sed '$d' "$tmp/out" | cut -c1-12 | sed 's/ *$//' >"$tmp/states"
printf '%s\n' STATE "✗ failed" "✓ done" "◌ incomple" "✓ done" "✓ done" "· file" >"$tmp/want"
cmp -s "$tmp/states" "$tmp/want" || fail list "states in order: $(tr '\n' '|' <"$tmp/states")"
grep -q "readme" "$tmp/out" && fail list "a .txt file is listed"
grep -q "notes.jsonl *not a stream" "$tmp/out" || fail list "notes.jsonl is not said to be no stream"
[ "$(tail -n 1 "$tmp/out")" = "✗ 1 failed · ◌ 1 incomplete · ✓ 3 done" ] || fail list "summary line: $(tail -n 1 "$tmp/out")"
"$bin" --print --format markdown "$d" >"$tmp/out"
grep -q '^| state | agent | model |' "$tmp/out" || fail list "no Markdown table"
grep -q '^| ✗ failed | cursor | Composer 2.5 | f0000001 | beta | deploy it | make failed |' "$tmp/out" ||
	fail list "the failed row in Markdown: $(grep failed "$tmp/out")"
"$bin" --print --format json "$d" >"$tmp/out"
jq -e '(.sessions | length) == 5 and ([.sessions[].file] | unique | length) == 4
	and (.diagnostics[0].message == "not a stream") and (.lines == 15)' "$tmp/out" >/dev/null ||
	fail list "JSON: $(head -c 400 "$tmp/out")"
jq -e '[.sessions[] | select(.session_id == "a0000002")][0] | .state == "ok" and .file == "'"$d"'/two.ndjson"' \
	"$tmp/out" >/dev/null || fail list "JSON: the second session of two.ndjson"
echo "--print DIR: text attention first, Markdown, JSON with every session and its file"

# A file bigger than --format json reads (1 GB, JSON_FILE_MAX): a stream
# by its head, then sparse to 1.1 GB. Not read: a diagnostic names it and
# says what was left out; the other file's session is there.
cases=$((cases + 1))
big=$tmp/big
mkdir -p "$big"
{ init b0000001 huge; user "a session"; result false 1000 done; } >"$big/a.ndjson"
{ init b0000002 huge; user "a file of 1.1 GB"; } >"$big/huge.ndjson"
truncate -s 1100M "$big/huge.ndjson"
timeout 60 "$bin" --print --format json "$big" >"$tmp/out"
jq -e '(.sessions | length) == 1 and .sessions[0].session_id == "b0000001"
	and (.diagnostics | length) == 1 and .diagnostics[0].file == "'"$big"'/huge.ndjson"
	and .diagnostics[0].message == "not read: 1.1 GB, more than the list reads of a file (1.0 GB); its sessions are left out"' \
	"$tmp/out" >/dev/null || fail list-big "JSON: $(head -c 400 "$tmp/out")"
rm -rf "$big"
echo "--print --format json DIR: a file over 1 GB not read, said"

cases=$((cases + 1))
"$bin" --print "$d/two.ndjson" >"$tmp/out"
grep -q "^== session a0000002" "$tmp/out" || fail one-file "--print FILE is no longer the transcript"
"$bin" --status-line "$d/done.ndjson" >"$tmp/out"
[ "$(cat "$tmp/out")" = "✓ Composer 2.5 · 4m05s" ] || fail one-file "--status-line FILE: $(cat "$tmp/out")"
echo "one FILE: --print and --status-line as before"

cases=$((cases + 1))
e=$tmp/today
mkdir -p "$e"
{ init t0000001 x; user run; started c1 "npm test"; } >"$e/live.ndjson"
{ init t0000002 x; user ask; ask; } >"$e/ask.ndjson"
{ init t0000003 x; user fail; result true 10 no; } >"$e/fail.ndjson"
{ init t0000004 x; user ok; result false 10 yes; } >"$e/ok.ndjson"
cp "$e/ok.ndjson" "$e/ok2.ndjson"
"$bin" --status-line "$e" >"$tmp/out"
[ "$(cat "$tmp/out")" = "● 1 running · ⏸ 1 waiting · ✗ 1 failed · ✓ 2 done" ] ||
	fail status-line "$(cat "$tmp/out")"
"$bin" --status-line --tmux-style "$e/live.ndjson" "$e/fail.ndjson" >"$tmp/out"
[ "$(cat "$tmp/out")" = "#[fg=yellow]● 1 running#[default] · #[fg=red]✗ 1 failed#[default]" ] ||
	fail status-line "tmux: $(cat "$tmp/out")"
"$bin" --status-line </dev/null >"$tmp/out"
[ "$(cat "$tmp/out")" = "no sessions" ] || fail status-line "no kept session: $(cat "$tmp/out")"
[ -d "$XDG_STATE_HOME/agentview/sessions" ] || fail status-line "the folder of kept sessions was not made"
echo "--status-line DIR|FILE...: running, waiting, failed and done summed up, tmux colours; none: the kept sessions"

# One count by state, whichever view says it (issue 25: 10 done rows, "8
# done today" under them, "9 done" in the status line): the rows printed,
# the summary line under them, --status-line, and the JSON summary's
# states and its sessions' own, over every recording, a running session
# and one that has waited an hour for its answer.
cases=$((cases + 1))
c=$tmp/counts
mkdir -p "$c"
cp recordings/*.ndjson "$c/"
touch -d '2 hours ago' "$c"/*.ndjson
{ init u0000001 x; user run; started c1 "npm test"; } >"$c/live-now.ndjson"
{ init u0000002 x; user ask; ask; } >"$c/asked-an-hour-ago.ndjson"
touch -d '1 hour ago' "$c/asked-an-hour-ago.ndjson"
"$bin" --print "$c" >"$tmp/out"
# "● 1 running · ⏸ 2 waiting · …" from the rows: glyph, count, word.
sed '1d;$d' "$tmp/out" | awk '$2 != "file" { n[$1 " " $2]++ }
	END { split("● running|⏸ waiting|✗ failed|◌ incomplete|✓ done", o, "|")
	      for (i = 1; i <= 5; i++) if (n[o[i]]) { split(o[i], w, " ")
		s = s (s ? " · " : "") w[1] " " n[o[i]] " " w[2] }
	      print s }' >"$tmp/rows"
tail -n 1 "$tmp/out" >"$tmp/summary"
"$bin" --status-line "$c" >"$tmp/status"
"$bin" --print --format json "$c" >"$tmp/json"
# The files are read by as many processes as there are cores: the same
# summary, byte for byte, as read by one (over the sessions that are over:
# the others' durations run to now).
mkdir -p "$tmp/over"
cp "$c"/*.ndjson "$tmp/over/"
jq -r '.sessions[] | select(.state == "waiting" or .state == "live") | .file | ltrimstr("'"$c"'/")' \
	"$tmp/json" | while read -r x; do rm -f "$tmp/over/$x"; done
# (and two files side by side with a bad line: diagnostics from each)
{ init b0000001 x; line "not json 1"; user "one"; } >"$tmp/over/bad1.ndjson"
{ init b0000002 x; line "not json 2"; user "two"; } >"$tmp/over/bad2.ndjson"
"$bin" --print --format json "$tmp/over" >"$tmp/json2"
AGENTVIEW_ONE_THREAD=1 "$bin" --print --format json "$tmp/over" >"$tmp/json1"
got=$(jq -r '"\(.sessions | length) \(.diagnostics | length)"' "$tmp/json1")
[ "${got% *}" -gt 100 ] && [ "${got#* }" -ge 2 ] || fail counts "too few sessions over, or diagnostics: $got"
cmp -s "$tmp/json2" "$tmp/json1" || fail counts "--format json read by helpers differs from one process's"
jq -r '.states as $s | [["●", "live", "running"], ["⏸", "waiting", "waiting"], ["✗", "failed", "failed"],
	["◌", "incomplete", "incomplete"], ["✓", "ok", "done"]]
	| map(select($s[.[1]] > 0) | "\(.[0]) \($s[.[1]]) \(.[2])") | join(" · ")' "$tmp/json" >"$tmp/states"
jq -r '[.sessions[].state] as $t | [["●", "live", "running"], ["⏸", "waiting", "waiting"],
	["✗", "failed", "failed"], ["◌", "incomplete", "incomplete"], ["✓", "ok", "done"]]
	| map(. as $o | [$t[] | select(. == $o[1])] | length | select(. > 0) | "\($o[0]) \(.) \($o[2])")
	| join(" · ")' "$tmp/json" >"$tmp/sessions"
grep -q '^● 1 running · ⏸ 2 waiting · ✗ [0-9]* failed · ◌ [0-9]* incomplete · ✓ [0-9]* done$' "$tmp/rows" ||
	fail counts "the rows: $(cat "$tmp/rows")"
for v in summary status states sessions; do
	cmp -s "$tmp/rows" "$tmp/$v" || fail counts "$v says $(cat "$tmp/$v"), the rows $(cat "$tmp/rows")"
done
echo "one count: rows, summary line, --status-line, JSON states and sessions ($(cat "$tmp/rows"))"

# Escape sequences in every field of a session (recordings/escapes.ndjson)
# reach no output as control bytes.
cases=$((cases + 1))
mkdir -p "$tmp/hostile"
cp recordings/escapes.ndjson "$tmp/hostile/"
for fmt in text markdown; do
	"$bin" --print --format "$fmt" "$tmp/hostile" >"$tmp/out"
	grep -q "bbdc79ef" "$tmp/out" || fail hostile "$fmt: the session is not listed"
	[ "$(tr -d '\n' <"$tmp/out" | LC_ALL=C tr -d '[:print:]\200-\377' | wc -c)" -eq 0 ] ||
		fail hostile "$fmt: a control byte got through"
done
echo "escape sequences in every field: none reaches the list's output"

# --- followed --------------------------------------------------------------------------

# follow NAME ARGS...: agentview --print -f ARGS in the background.
follow() {
	name=$1
	shift
	"$bin" --print -f "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	fpid=$!
	pids="$pids $fpid"
}

# stop NAME: it must still run; then end it with SIGTERM: exit 143.
stop() {
	kill -0 "$fpid" 2>/dev/null || fail "$1" "agentview stopped by itself: $(head -c 300 "$tmp/$1.err")"
	kill "$fpid" 2>/dev/null
	wait "$fpid"
	[ -s "$tmp/$1.err" ] && fail "$1" "stderr: $(head -c 300 "$tmp/$1.err")"
}

cases=$((cases + 1))
f=$tmp/f
mkdir -p "$f/sub"
{ init l0000001 delta; user "run the e2e suite"; started c1 "npm run e2e"; } >"$f/live.ndjson"
cat >"$tmp/cmd" <<'EOF'
printf '%s|%s|%s|%s|%s|%s\n' "$AGENTVIEW_EVENT" "$AGENTVIEW_SESSION" "$AGENTVIEW_AGENT" \
	"$AGENTVIEW_STATE" "$AGENTVIEW_SUMMARY" "$AGENTVIEW_FILE" >>"$NOTES"
EOF
NOTES=$tmp/notes
export NOTES
follow follow -R "$f" --notify-cmd ". $tmp/cmd"
sleep 0.5
result false 2000 "green" >>"$f/live.ndjson"
expect follow "$tmp/follow.out" '✓ done cursor Composer 2.5 "run the e2e suite" 2.0 s'
# Made whole elsewhere, then moved in: its first look sees both lines.
{ init 'n000$(touch pwned)' eta; user 'new `touch pwned2` work'; } >"$tmp/new.ndjson"
mv "$tmp/new.ndjson" "$f/sub/new.ndjson"
expect follow "$tmp/follow.out" '● running cursor Composer 2.5 "new `touch pwned2` work"'
ask >>"$f/sub/new.ndjson"
expect follow "$tmp/follow.out" '⏸ waiting cursor Composer 2.5'
result true 5000 'bad; $(touch pwned3)' >>"$f/sub/new.ndjson"
expect follow "$tmp/follow.out" '✗ failed cursor Composer 2.5 "new `touch pwned2` work" 5.0 s: bad; $(touch pwned3)'
expect follow "$tmp/notes" 'failed|n000$(touch pwned)|cursor|failed|failed · cursor · Composer 2.5 · new `touch pwned2` work · 5.0 s: bad; $(touch pwned3)|'"$f/sub/new.ndjson"
stop follow
grep -c . "$tmp/follow.out" | grep -qx 4 || fail follow "not one line per change: $(cat "$tmp/follow.out")"
grep -qx "done|l0000001|cursor|done|done · cursor · Composer 2.5 · run the e2e suite · 2.0 s|$f/live.ndjson" "$tmp/notes" ||
	fail follow "done not told: $(cat "$tmp/notes")"
grep -q "^waiting|" "$tmp/notes" || fail follow "waiting not told"
grep -q "^running|" "$tmp/notes" && fail follow "running was told"
ls pwned pwned2 pwned3 "$f"/pwned* 2>/dev/null && fail follow "event text ran as a command"
echo "-f DIR (-R): a line per change; --notify-cmd: done, failed, waiting, facts in its environment only"

cases=$((cases + 1))
f=$tmp/j
mkdir -p "$f"
{ init j0000001 theta; user "json"; } >"$f/a.ndjson"
follow json --format json "$f"
sleep 0.5
result false 3 ok >>"$f/a.ndjson"
expect json "$tmp/json.out" '"state":"done","was":"running","session_id":"j0000001"'
stop json
jq -e '.file == "'"$f"'/a.ndjson" and .index == 0 and .duration_ms == 3' "$tmp/json.out" >/dev/null ||
	fail json "$(cat "$tmp/json.out")"
echo "-f --format json: an object a change, with its file"

# --- faults -------------------------------------------------------------------------------

cases=$((cases + 1))
f=$tmp/faults
mkdir -p "$f"
{ init g0000001 a; user "to delete"; started c1 x; } >"$f/del.ndjson"
{ init g0000002 b; user "to truncate"; started c1 x; line '{"type":"assistant","message":{"content":[{"type":"text","text":"padding padding padding"}]}}'; } >"$f/trunc.ndjson"
{ init g0000003 c; user "to replace"; started c1 x; } >"$f/repl.ndjson"
follow faults "$f"
sleep 0.5
rm "$f/del.ndjson"
expect faults "$tmp/faults.out" '◌ incomplete cursor Composer 2.5 "to delete"'
{ init g0000004 b; user "truncated"; } >"$f/trunc.ndjson"
sleep 0.5
"$bin" --print "$f" >"$tmp/out"
grep -q '● running *cursor .* truncated *(file read again)' "$tmp/out" && fail faults "a new reader sees a file read again"
{ init g0000005 c; user "the replacement"; result false 5 done; } >"$f/repl.new"
mv "$f/repl.new" "$f/repl.ndjson"
expect faults "$tmp/faults.out" '✓ done cursor Composer 2.5 "the replacement"'
rm -rf "$f"
sleep 0.5
mkdir -p "$f"
{ init g0000006 d; user "back again"; } >"$f/back.ndjson"
expect faults "$tmp/faults.out" '● running cursor Composer 2.5 "back again"'
stop faults
"$bin" --print "$f" "$d" >"$tmp/out" 2>&1 || fail faults "list after: exit $?"
echo "deleted, truncated, replaced, folder removed and back: said, followed on"

cases=$((cases + 1))
f=$tmp/perm
mkdir -p "$f"
{ init h0000001 p; user "secret"; } >"$f/secret.ndjson"
{ init h0000002 p; user "open"; } >"$f/open.ndjson"
chmod 000 "$f/secret.ndjson"
touch -d '1 hour ago' "$f"/*.ndjson
if [ "$(id -u)" -eq 0 ]; then
	chmod 755 "$tmp" "$f"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" --print "$f" >"$tmp/out" 2>&1
else
	"$bin" --print "$f" >"$tmp/out" 2>&1
fi
rc=$?
[ "$rc" -eq 0 ] || fail no-permission "exit $rc: $(head -c 300 "$tmp/out")"
grep -q "secret.ndjson *cannot read: Permission d" "$tmp/out" || fail no-permission "$(cat "$tmp/out")"
grep -q "h0000002" "$tmp/out" || fail no-permission "the readable file is not listed"
echo "a file without read permission: listed, said; the rest listed"

cases=$((cases + 1))
f=$tmp/big
mkdir -p "$f"
truncate -s 5G "$f/zeros.ndjson"
{ init i0000001 q; user "then a hole"; } >"$f/holey.ndjson"
truncate -s 5G "$f/holey.ndjson"
touch -d '1 hour ago' "$f"/*
t0=$(date +%s%N)
timeout 10 "$bin" --print "$f" >"$tmp/out" 2>&1
rc=$?
t1=$(date +%s%N)
[ "$rc" -eq 0 ] || fail 5gb "exit $rc"
grep -q "zeros.ndjson *not a stream" "$tmp/out" || fail 5gb "$(cat "$tmp/out")"
grep -q "◌ incomplete .* then a hole" "$tmp/out" || fail 5gb "the stream's head is not listed"
[ $(( (t1 - t0) / 1000000 )) -lt 1000 ] || fail 5gb "took $(( (t1 - t0) / 1000000 )) ms: read whole?"
echo "two sparse 5 GB files: listed in $(( (t1 - t0) / 1000000 )) ms, by their heads"

cases=$((cases + 1))
f=$tmp/nowatch
mkdir -p "$f"
{ init k0000001 r; user "polled"; } >"$f/a.ndjson"
AGENTVIEW_WATCH_MAX=0 follow nowatch "$f"
sleep 0.5
result false 1 ok >>"$f/a.ndjson"
{ init k0000002 r; user "new, polled"; } >"$f/b.ndjson"
expect nowatch "$tmp/nowatch.out" '✓ done cursor Composer 2.5 "polled"'
expect nowatch "$tmp/nowatch.out" '● running cursor Composer 2.5 "new, polled"'
stop nowatch
echo "no inotify watch left: the folder polled every second, nothing missed"

# --- kept and listed ----------------------------------------------------------------------

cases=$((cases + 1))
k=$XDG_STATE_HOME/agentview/sessions
follow kept "$k"
sleep 0.5
{ init m0000001 s; user "piped in"; sleep 1; result false 1000 ok; } | "$bin" --print >/dev/null
expect kept "$tmp/kept.out" '● running cursor Composer 2.5'
expect kept "$tmp/kept.out" '✓ done cursor Composer 2.5 "piped in"'
stop kept
"$bin" --status-line </dev/null >"$tmp/out"
[ "$(cat "$tmp/out")" = "✓ 1 done" ] || fail kept "--status-line of the kept: $(cat "$tmp/out")"
echo "a session piped into agentview: kept, listed running then done"

# --notify inside tmux: the bell and OSC 9 and 777 go through tmux's
# passthrough (allow-passthrough on) to the terminal tmux runs in, here
# script(1)'s typescript.
cases=$((cases + 1))
f=$tmp/notify
mkdir -p "$f"
{ init o0000001 u; user "tell me"; } >"$f/a.ndjson"
n=9
tm="tmux -L agentview-fleet-$$-$n -f /dev/null"
$tm new-session -d -x 80 -y 24 "cd '$(pwd)' && env LC_ALL=C.UTF-8 XDG_STATE_HOME='$XDG_STATE_HOME' $bin --print -f --notify '$f' >/dev/null"
$tm set -gp allow-passthrough on
(TERM=xterm-256color timeout 20 script -f -q -c "$tm attach" "$tmp/typescript" >/dev/null 2>&1 &)
sleep 1
result false 1500 ok >>"$f/a.ndjson"
expect notify "$tmp/typescript" "]9;agentview: done · cursor · Composer 2.5 · tell me · 1.5 s"
expect notify "$tmp/typescript" "]777;notify;agentview done;done · cursor · Composer 2.5 · tell me · 1.5 s"
$tm kill-server 2>/dev/null
echo "--notify in tmux: OSC 9 and 777 through the passthrough to the outer terminal"

# --- on a terminal ------------------------------------------------------------------------

# On a terminal, agentview DIR and agentview alone open the list's screen
# (tests/run_list.sh has its keys): the rows at the terminal's width, and
# the kept sessions.
cases=$((cases + 1))
n=0
for args in "$d" ""; do
	$tm kill-server 2>/dev/null
	n=$((n + 1))
	tm="tmux -L agentview-fleet-$$-$n -f /dev/null"
	$tm new-session -d -x 80 -y 24 "cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME='$XDG_STATE_HOME' $bin $args; sleep 30"
	i=0
	while ! $tm capture-pane -p -t 0 2>/dev/null | grep -q "attention order"; do
		i=$((i + 1))
		[ "$i" -gt 100 ] && break
		sleep 0.1
	done
	$tm capture-pane -p -t 0 >"$tmp/screen"
	if [ -n "$args" ]; then
		grep -q "^ STATE        AGENT   CWD            PROMPT         NOW                     TIME$" "$tmp/screen" ||
			fail terminal "no list at 80 columns: $(head -3 "$tmp/screen")"
		grep -q "^ ✗ failed     cursor  beta           deploy it      make failed" "$tmp/screen" ||
			fail terminal "the failed row: $(cat "$tmp/screen")"
	else
		grep -q "m0000001 *s *piped in" "$tmp/screen" ||
			grep -q "s *piped in" "$tmp/screen" || fail terminal "the kept session is not listed: $(cat "$tmp/screen")"
	fi
done
$tm kill-server 2>/dev/null
echo "on a terminal: agentview DIR and agentview alone show the list at its width"

# The agents' own stores (issue 23): HOME a copy of a snapshot of each, as
# the real CLIs wrote them, and a Cursor transcript.
h=$tmp/storehome
mkdir -p "$h/.cursor/projects/home-dev-x/agent-transcripts/c1"
cp -R tests/stores/claude/headless/done "$h/.claude"
cp -R tests/stores/codex/headless/done "$h/.codex"
cp -R tests/stores/gemini/headless/done/.gemini "$h/.gemini"
cp -R tests/stores/copilot/headless/done "$h/.copilot"
echo '{"role":"user","message":{"content":[{"type":"text","text":"<user_query>hello</user_query>"}]}}' \
	>"$h/.cursor/projects/home-dev-x/agent-transcripts/c1/c1.jsonl"
# Written long ago (a checkout's times are its own): no session is live
# by its file's age.
find "$h" -type f -exec touch -d '2026-01-05 10:00' {} +
# stores [SOURCES]: the files of the sessions agentview alone lists, by
# their folder in HOME, sorted, on one line.
stores() {
	env HOME="$h" XDG_STATE_HOME="$h/state" ${1:+AGENTVIEW_SOURCES=$1} "$bin" --print --format json \
		</dev/null 2>"$tmp/stores.err" | jq -r '[.sessions[].file | ltrimstr("'"$h"'/") | split("/")[0]] | sort | join(" ")'
}
cases=$((cases + 1))
got=$(stores)
[ "$got" = ".claude .codex .copilot .cursor .gemini" ] || fail stores "agentview alone lists: $got"
env HOME="$h" XDG_STATE_HOME="$h/state" "$bin" --print --format json </dev/null >"$tmp/stores.json"
env HOME="$h" XDG_STATE_HOME="$h/state" AGENTVIEW_ONE_THREAD=1 "$bin" --print --format json \
	</dev/null >"$tmp/stores1.json"
cmp -s "$tmp/stores.json" "$tmp/stores1.json" || fail stores "--format json read by helpers differs from one process's"
got=$(stores codex,gemini)
[ "$got" = ".codex .gemini" ] || fail stores "AGENTVIEW_SOURCES=codex,gemini lists: $got"
got=$(env HOME="$h" XDG_STATE_HOME="$h/state" AGENTVIEW_SOURCES=codex "$bin" --print --format json \
	--sources copilot </dev/null | jq '.sessions | length')
[ "$got" = 1 ] || fail stores "--sources copilot over AGENTVIEW_SOURCES=codex: $got rows"
# The text list: a row each, none running (their processes are gone).
env HOME="$h" XDG_STATE_HOME="$h/state" "$bin" --print </dev/null >"$tmp/stores.txt" 2>&1
# (A row is its state's glyph and word; the closing line counts them.)
[ "$(grep -c '^[^ -~] [a-z]' "$tmp/stores.txt")" = 5 ] || fail stores "the text list: $(cat "$tmp/stores.txt")"
grep -q running "$tmp/stores.txt" && fail stores "a session whose process is gone runs: $(cat "$tmp/stores.txt")"
# A Claude session whose process waits at a permission prompt (its
# sessions/<pid>.json, of a live process with the start time /proc gives):
# waiting, however quiet its file; the same pid with another start time (a
# pid reused after a crash) is no process of it.
sleep 60 &
sp=$!
pids="$pids $sp"
mkdir -p "$h/.claude/sessions"
live() {
	printf '{"pid":%s,"sessionId":"54615237-bbb5-4b29-a566-b6a2f00a274a","procStart":"%s","status":"waiting","waitingFor":"permission prompt"}\n' \
		"$sp" "$1" >"$h/.claude/sessions/$sp.json"
	env HOME="$h" XDG_STATE_HOME="$h/state" AGENTVIEW_SOURCES=claude "$bin" --print </dev/null | awk 'NR == 2 { print $1, $2 }'
}
got=$(live "$(awk '{ print $22 }' "/proc/$sp/stat")")
[ "$got" = "⏸ waiting" ] || fail stores "a Claude session waiting: $got"
# The JSON list says the state the screen does: its store's liveness.
got=$(env HOME="$h" XDG_STATE_HOME="$h/state" AGENTVIEW_SOURCES=claude "$bin" --print --format json \
	</dev/null | jq -r '[.sessions[].state, .states.waiting] | join(" ")')
[ "$got" = "waiting 1" ] || fail stores "the JSON list of a Claude session waiting: $got"
# Its file says its turn ended (cost-state): done, once no process has it.
got=$(live 1)
[ "$got" = "✓ done" ] || fail stores "a Claude session of a reused pid: $got"
rm -f "$h/.claude/sessions/$sp.json"
rmdir "$h/.claude/sessions"
# A Copilot session held by a live process (its inuse.<pid>.lock) that
# asked for a permission: waiting, on the list and in its JSON; its
# workspace.yaml's title and folder where its events give none.
rm -rf "$h/.copilot"
cp -R tests/stores/copilot/ask/waiting "$h/.copilot"
cs=$(echo "$h"/.copilot/session-state/*)
rm -f "$cs"/inuse.*
echo "$sp" >"$cs/inuse.$sp.lock"
copilot() {
	env HOME="$h" XDG_STATE_HOME="$h/state" AGENTVIEW_SOURCES=copilot "$bin" --print "$@" </dev/null
}
got=$(copilot | awk 'NR == 2 { print $1, $2 }')
[ "$got" = "⏸ waiting" ] || fail stores "a Copilot session waiting: $got"
got=$(copilot --format json | jq -r '[.sessions[].state, .states.waiting] | join(" ")')
[ "$got" = "waiting 1" ] || fail stores "the JSON list of a Copilot session waiting: $got"
# Its process gone, its lock left behind (a crash): over, in both.
kill "$sp" 2>/dev/null
wait "$sp" 2>/dev/null
got=$(copilot | awk 'NR == 2 { print $1, $2 }')$(copilot --format json | jq -r '" " + .sessions[0].state')
[ "$got" = "◌ incomplete incomplete" ] || fail stores "a Copilot session whose process is gone: $got"
rm -rf "$h/.copilot"
cp -R tests/stores/copilot/headless/done "$h/.copilot"
# A Codex turn in progress in its index (thread_history_1.sqlite): running
# while a codex process of this store (its CODEX_HOME) lives, on the list
# and in its JSON; not once none does. The index is read, never written,
# nothing made beside it.
cx=$tmp/codexhome
cp -R tests/stores/codex/headless/running "$cx"
find "$cx" -type f -exec touch -d '2026-01-05 10:00' {} +
cp /bin/sleep "$tmp/codex"
CODEX_HOME="$cx" "$tmp/codex" 60 &
cp_=$!
pids="$pids $cp_"
codex() {
	env HOME="$h" XDG_STATE_HOME="$h/state" CODEX_HOME="$cx" AGENTVIEW_SOURCES=codex "$bin" --print "$@" </dev/null
}
got=$(codex | awk 'NR == 2 { print $1, $2 }')$(codex --format json | jq -r '" " + .sessions[0].state')
[ "$got" = "● running live" ] || fail stores "a Codex turn in progress, its process alive: $got"
kill "$cp_" 2>/dev/null
wait "$cp_" 2>/dev/null
got=$(codex | awk 'NR == 2 { print $1, $2 }')
[ "$got" = "◌ incomplete" ] || fail stores "a Codex turn in progress, no codex process: $got"
# Its -shm too: opened read-only (rodb.c), never a read mark written in it
# nor the file rebuilt; nothing made beside the index.
diff -r tests/stores/codex/headless/running "$cx" >/dev/null || fail stores "the Codex store changed: $(diff -rq tests/stores/codex/headless/running "$cx")"
# Nothing there: where it looked, each root.
env HOME="$tmp/nohome" XDG_STATE_HOME="$tmp/nohome/state" "$bin" --print </dev/null >"$tmp/stores.txt" 2>"$tmp/stores.err"
grep -q '^  claude  ~/.claude  (not there)$' "$tmp/stores.err" && grep -q '^  kept    ~/state/agentview/sessions  (there)$' "$tmp/stores.err" ||
	fail stores "where it looked: $(cat "$tmp/stores.err")"
"$bin" --print --sources claude,nope </dev/null >/dev/null 2>"$tmp/stores.err"
[ $? -eq 2 ] && grep -q 'no source "nope"' "$tmp/stores.err" || fail stores "--sources nope: $(cat "$tmp/stores.err")"
AGENTVIEW_SOURCES=nope "$bin" --print </dev/null >/dev/null 2>"$tmp/stores.err"
[ $? -eq 2 ] && grep -q '^agentview: AGENTVIEW_SOURCES: no source "nope"' "$tmp/stores.err" ||
	fail stores "AGENTVIEW_SOURCES=nope: $(cat "$tmp/stores.err")"
# Nothing in the stores is written: the copy is as it was.
diff -r tests/stores/claude/headless/done "$h/.claude" >/dev/null || fail stores "the Claude store changed"
diff -r tests/stores/copilot/headless/done "$h/.copilot" >/dev/null || fail stores "the Copilot store changed"
echo "stores: agentview alone lists each store's session; --sources and AGENTVIEW_SOURCES choose"

echo "fleet: $cases cases, $fails failures"
[ "$fails" -eq 0 ]
