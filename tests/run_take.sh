#!/bin/sh
# run_take.sh: what leaves the viewer, in tmux. y and Y put text on the
# clipboard by OSC 52, read back with `tmux show-buffer` (set-clipboard on);
# e and o hand the terminal to $EDITOR and $PAGER, here scripts that record
# their arguments, and take it back; a missing file or program is said in
# the status bar, and the viewer goes on.
set -u
. ./tests/lib/env.sh
top=$(pwd)
bin=$top/src/agentview
. "$top/tests/lib/tmux.sh"
tmux_test take
printf 'set -g set-clipboard on\n' >>"$work/tmux.conf"

# buffer_is TEXT: the newest tmux buffer is TEXT exactly.
buffer_is() {
	[ "$($T show-buffer 2>/dev/null)" = "$1" ]
}

# panes: the screen without its status bar, where notes come and go.
panes() {
	screen | sed '$d'
}

# same_as FILE: the panes are FILE (a capture in the middle of a frame
# fails, and poll tries again).
same_as() {
	panes | cmp -s - "$1"
}

# The session's directory, where the demo's agent read and edited
# src/duration.js: the recording made to point there.
proj=$work/proj
mkdir -p "$proj/src"
i=1
while [ "$i" -le 40 ]; do
	echo "line $i"
	i=$((i + 1))
done >"$proj/src/duration.js"
sed "s|/home/dev/project|$proj|g" recordings/demo.ndjson >"$work/demo.ndjson"

# The editor (named vi, so that it is given +LINE) and the pager: each
# writes its arguments one a line; the pager keeps a copy of its file.
mkdir "$work/bin"
cat >"$work/bin/vi" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >"$work/editor.argv"
EOF
cat >"$work/pager" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >"$work/pager.argv"
cat "\$1" >"$work/paged"
EOF
chmod +x "$work/bin/vi" "$work/pager"
env="env -u VISUAL EDITOR=$work/bin/vi PAGER=$work/pager"

# y on a shell call: its command, then (y again) its output; Y: the
# command that resumes the session; each said in the status bar.
cases=$((cases + 1))
start 120 40 "$env $bin $work/demo.ndjson"
wait_for 'done' || fail copy "did not draw"
keys ']' ']'
wait_for '\(2/9\)' || fail copy "] ] did not select the second call"
keys y
wait_for 'copied the command, 8 bytes' || fail copy "no note of the command copied"
poll 2 buffer_is 'npm test' || fail copy "the buffer is '$($T show-buffer 2>&1)', not 'npm test'"
keys y
wait_for 'copied the output, [0-9]+ bytes' || fail copy "y again did not copy the output"
$T show-buffer >"$work/output.txt"
grep -q '^> jest' "$work/output.txt" || fail copy "the output copied lacks '> jest'"
grep -q 'Ran all test suites' "$work/output.txt" || fail copy "the output copied is not whole"
keys Y
wait_for 'copied the resume command' || fail copy "no note of the resume command"
poll 2 buffer_is "cd -- $proj && cursor-agent --resume ad7140d9-2cc2-4134-8bae-6b90ba3dede2" ||
	fail copy "Y copied '$($T show-buffer 2>&1)'"

# In the detail, y copies the part the cursor row is in: on the command
# row (the 8th), the command; on a row of stdout, all of stdout.
cases=$((cases + 1))
keys Enter
wait_for 'Tool call 2/9' || fail detail "Enter did not open the detail"
keys j j j j j j j y
wait_for 'copied the command, 8 bytes' || fail detail "y on the command row: $(screen | tail -1)"
poll 2 buffer_is 'npm test' || fail detail "the buffer is '$($T show-buffer 2>&1)'"
keys j j j j j j j j j j y
wait_for 'copied the stdout, [0-9]+ bytes' || fail detail "y on stdout: $(screen | tail -1)"
$T show-buffer | grep -qx '> jest' || fail detail "stdout copied: $($T show-buffer 2>&1)"
keys q
wait_for ' Transcript ' || fail detail "q did not close the detail"

# o on the same call: the pager gets a private file holding the output y
# copied, removed once the pager is done; the screen comes back.
cases=$((cases + 1))
panes >"$work/before-pager.txt"
keys o
poll 5 test -s "$work/paged" || fail pager "the pager did not run"
cmp -s "$work/paged" "$work/output.txt" || fail pager "the pager did not get the output copied"
paged=$(head -1 "$work/pager.argv")
[ "$(wc -l <"$work/pager.argv")" -eq 1 ] || fail pager "arguments: $(cat "$work/pager.argv")"
poll 2 test ! -e "$paged" || fail pager "the file $paged is still there"
poll 5 same_as "$work/before-pager.txt" || fail pager "the screen did not come back"

# e on the read: the file at the read's line; on the edit: at its first
# changed line (18: `let rest = ...`, the line the fix changed); the
# screen comes back whole.
cases=$((cases + 1))
keys ']'
wait_for '\(3/9\)' || fail editor "] did not select the read"
keys e
poll 5 test -s "$work/editor.argv" || fail editor "the editor did not run"
printf '+1\n--\n%s\n' "$proj/src/duration.js" | cmp -s - "$work/editor.argv" ||
	fail editor "the read opened as: $(cat "$work/editor.argv")"
rm -f "$work/editor.argv"
keys ']' ']'
wait_for '\(5/9\)' || fail editor "] ] did not select the edit"
keys e
poll 5 test -s "$work/editor.argv" || fail editor "the editor did not run on the edit"
printf '+18\n--\n%s\n' "$proj/src/duration.js" | cmp -s - "$work/editor.argv" ||
	fail editor "the edit opened as: $(cat "$work/editor.argv")"
wait_for 'done' || fail editor "the screen did not come back"
wait_for 'Edit src/duration.js' || fail editor "the transcript did not come back"

# A file that is not there, an editor that is not there: said, and the
# viewer goes on.
cases=$((cases + 1))
rm -f "$work/editor.argv"
start 120 40 "env EDITOR=$work/no-such-editor PAGER=$work/pager $bin $work/demo.ndjson"
wait_for 'done' || fail missing "did not draw"
keys ']' ']' ']' e
wait_for 'no editor: .*no-such-editor was not found' || fail missing "no note of the missing editor"
start 120 40 "$env $bin recordings/demo.ndjson"
wait_for 'done' || fail missing "did not draw"
keys ']' ']' ']' e
wait_for 'duration.js: No such file or directory' || fail missing "no note of the missing file"
[ ! -e "$work/editor.argv" ] || fail missing "the editor ran: $(cat "$work/editor.argv")"
keys q
wait_exit 5 || fail missing "q did not end the viewer after the notes"

# A hostile stream (src/copy.c, src/open.c): what leaves through y, Y, e
# and o never carries a control byte, never runs anything, never reaches
# a program as an option. Each carrier is a field an agent writes.
c0=$(printf '[\001-\010\013-\037\177]')
c1=$(printf '\302[\200-\237]')
# clean FILE: no control byte but tab and newline, raw or as UTF-8 C1.
clean() {
	! LC_ALL=C grep -q "$c0" "$1" && ! LC_ALL=C grep -q "$c1" "$1"
}
buffer_clean() {
	$T show-buffer >"$work/buffer" 2>/dev/null && clean "$work/buffer"
}

# y on a command holding ^C and the end of a bracketed paste: pasted into
# a shell, the text after them would run. Not copied, and said; y again
# copies the output, its escapes made visible (OSC 52, CSI as C1, ^C).
cases=$((cases + 1))
cat >"$work/hostile-y.ndjson" <<EOF2
{"type":"system","subtype":"init","cwd":"$proj","session_id":"5b0c7e1d-0000-4000-8000-0000000000aa","model":"Auto"}
{"type":"tool_call","subtype":"started","call_id":"h1","tool_call":{"shellToolCall":{"args":{"command":"echo hi\u0003 touch $work/pwned\u001b[201~ ls"}}}}
{"type":"tool_call","subtype":"completed","call_id":"h1","tool_call":{"shellToolCall":{"args":{"command":"echo hi\u0003 touch $work/pwned\u001b[201~ ls"},"result":{"success":{"exitCode":0,"stdout":"out \u001b]52;c;cHduZWQ=\u0007 \u009b31m \u0003\u001b[201~ end\tx\r\n","stderr":""}}}}}
{"type":"result","subtype":"success","duration_ms":200,"is_error":false,"result":""}
EOF2
start 120 40 "$env $bin $work/hostile-y.ndjson"
wait_for 'done' || fail hostile-y "did not draw"
$T set-buffer sentinel
keys ']'
keys y
wait_for 'not copied: the command holds a control character' ||
	fail hostile-y "y on the command: $(screen | tail -1)"
buffer_is sentinel || fail hostile-y "the command reached the clipboard: $($T show-buffer | od -c | head -3)"
keys y
wait_for 'copied the output' || fail hostile-y "y again: $(screen | tail -1)"
poll 2 buffer_clean || fail hostile-y "the output copied holds a control byte: $(od -c "$work/buffer" | head -4)"
grep -q '\^\[\]52;c;cHduZWQ=\^G' "$work/buffer" || fail hostile-y "OSC 52 not shown: $(cat "$work/buffer")"
grep -q '\\u009B31m \^C\^\[\[201~ end	x$' "$work/buffer" ||
	fail hostile-y "C1, ^C, a tab, CRLF not as the screen says: $(cat "$work/buffer")"
# In the detail, y on the command's row: the same refusal.
keys Enter
wait_for 'Tool call 1/1' || fail hostile-y "Enter did not open the detail"
$T set-buffer sentinel
# The cursor is on the detail's first row, the screen's second.
row=$(screen | grep -n '^command ' | head -1 | cut -d: -f1)
i=2
while [ "$i" -lt "${row:-2}" ]; do
	keys j
	i=$((i + 1))
done
keys y
wait_for 'not copied: the command holds a control character' ||
	fail hostile-y "y on the detail's command row: $(screen | tail -1)"
buffer_is sentinel || fail hostile-y "the detail's command reached the clipboard"
keys q
# o: the pager's file holds what the screen shows, no escape for `less -R`.
rm -f "$work/paged"
keys o
poll 5 test -s "$work/paged" || fail hostile-y "the pager did not run"
clean "$work/paged" || fail hostile-y "the pager's file holds a control byte: $(od -c "$work/paged" | head -4)"
[ ! -e "$work/pwned" ] || fail hostile-y "something ran"

# Y: an id holding ^C and a paste's end, an id that is an option: no
# resume command, said; a cwd of "-" (cd's way back) made ./-.
# claude_hello ID CWD: a Claude Code session with that id and cwd, which
# says hello, in the viewer.
claude_hello() {
	cat >"$work/hostile-Y.ndjson" <<EOF2
{"type":"system","subtype":"init","cwd":"$2","session_id":"$1","model":"m","tools":[],"claude_code_version":"2.1.0"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"hello there"}]},"parent_tool_use_id":null,"session_id":"$1"}
EOF2
	start 120 40 "$env $bin $work/hostile-Y.ndjson"
	wait_for 'hello there' || fail hostile-Y "did not draw"
	$T set-buffer sentinel
	keys Y
}
cases=$((cases + 1))
for id in 'x\u0003\u001b[201~; touch '"$work"'/pwned #' '--dangerously-skip-permissions'; do
	claude_hello "$id" /tmp
	wait_for 'no resume command: the session id is not plain' ||
		fail hostile-Y "Y on '$id': $(screen | tail -1)"
	buffer_is sentinel || fail hostile-Y "Y on '$id' copied: $($T show-buffer | od -c | head -3)"
done
claude_hello 0b1f9c2e-aaaa-4bbb-8ccc-123456789abc -
wait_for 'copied the resume command' || fail hostile-Y "Y with cwd -: $(screen | tail -1)"
poll 2 buffer_is "cd -- ./- && claude --resume 0b1f9c2e-aaaa-4bbb-8ccc-123456789abc" ||
	fail hostile-Y "Y with cwd - copied '$($T show-buffer 2>&1)'"

# e: a path vim reads as a command (+!cmd), from a session that says no
# folder (Gemini CLI's): asked first, relative to agentview's own; once
# confirmed the editor gets it absolute, after --. A cwd that is not
# absolute (a Claude Code cwd of "+x") counts as none.
cases=$((cases + 1))
here=$work/here
mkdir -p "$here"
printf 'one\ntwo\n' >"$here/+!touch pwned"
printf 'one\n' >"$here/f.c"
cat >"$work/hostile-e.ndjson" <<'EOF2'
{"type":"init","timestamp":"2026-11-23T20:57:33.596Z","session_id":"4c46ddb9-f729-4a17-8f09-8cf056c9bcef","model":"gemini-2.5-pro"}
{"type":"tool_use","timestamp":"2026-11-23T20:57:33.946Z","tool_name":"read_file","tool_id":"r1","parameters":{"file_path":"+!touch pwned","offset":1}}
{"type":"tool_result","timestamp":"2026-11-23T20:57:34.070Z","tool_id":"r1","status":"success","output":""}
EOF2
rm -f "$work/editor.argv"
start 120 40 "env -C $here $env $bin $work/hostile-e.ndjson"
wait_for 'touch pwned' || fail hostile-e "did not draw"
keys ']' e
wait_for "open \\+!touch pwned relative to .*here\\? \\(y/n\\)" ||
	fail hostile-e "no question before opening: $(screen | tail -1)"
[ ! -e "$work/editor.argv" ] || fail hostile-e "the editor ran before the answer: $(cat "$work/editor.argv")"
keys n
wait_for 'not opened' || fail hostile-e "n: $(screen | tail -1)"
[ ! -e "$work/editor.argv" ] || fail hostile-e "the editor ran on n: $(cat "$work/editor.argv")"
keys e
wait_for 'relative to' || fail hostile-e "no question the second time"
keys y
poll 5 test -s "$work/editor.argv" || fail hostile-e "the editor did not run on y"
printf '+2\n--\n%s\n' "$here/+!touch pwned" | cmp -s - "$work/editor.argv" ||
	fail hostile-e "opened as: $(cat "$work/editor.argv")"
cat >"$work/hostile-e2.ndjson" <<'EOF2'
{"type":"system","subtype":"init","cwd":"+x","session_id":"df4290cc-2a38-476a-b858-00a54b4ec501","model":"m","tools":[],"claude_code_version":"2.1.0"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"f.c"}}]},"parent_tool_use_id":null,"session_id":"df4290cc-2a38-476a-b858-00a54b4ec501"}
EOF2
rm -f "$work/editor.argv"
start 120 40 "env -C $here $env $bin $work/hostile-e2.ndjson"
wait_for 'f\.c' || fail hostile-e "cwd +x: did not draw"
keys ']' e
wait_for "open f\\.c relative to .*here\\? \\(y/n\\)" ||
	fail hostile-e "cwd +x: no question: $(screen | tail -1)"
keys y
poll 5 test -s "$work/editor.argv" || fail hostile-e "cwd +x: the editor did not run"
printf -- '--\n%s\n' "$here/f.c" | cmp -s - "$work/editor.argv" ||
	fail hostile-e "cwd +x opened as: $(cat "$work/editor.argv")"
[ ! -e "$here/pwned" ] && [ ! -e "$work/pwned" ] || fail hostile-e "something ran"
# An edit of a FIFO: looking for its line must not wait for a writer (the
# screen would hang), nor the editor be handed it.
mkfifo "$proj/fifo"
cat >"$work/hostile-e3.ndjson" <<EOF2
{"type":"system","subtype":"init","cwd":"$proj","session_id":"df4290cc-2a38-476a-b858-00a54b4ec501","model":"m","tools":[],"claude_code_version":"2.1.0"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"fifo","old_string":"a","new_string":"b"}}]},"parent_tool_use_id":null,"session_id":"df4290cc-2a38-476a-b858-00a54b4ec501"}
EOF2
rm -f "$work/editor.argv"
start 120 40 "$env $bin $work/hostile-e3.ndjson"
wait_for 'fifo' || fail hostile-e "fifo: did not draw"
keys ']' e
wait_for 'fifo is not a regular file' || fail hostile-e "fifo: $(screen | tail -1)"
[ ! -e "$work/editor.argv" ] || fail hostile-e "fifo: the editor ran: $(cat "$work/editor.argv")"
keys q
wait_exit 5 || fail hostile-e "fifo: q did not end the viewer"
rm -f "$proj/fifo"

# --compare on a terminal: the two files in the viewer, each session's
# calls on one time axis from its own start. A run of 200 ms beside the
# demo's 28.8 s: its call of 100 ms is half of its own axis (four cells),
# one cell of the shared one.
cases=$((cases + 1))
cat >"$work/short.ndjson" <<'EOF2'
{"type":"system","subtype":"init","cwd":"/w","session_id":"5b0c7e1d-0000-4000-8000-000000000001","model":"Auto"}
{"type":"tool_call","subtype":"started","call_id":"d","tool_call":{"readToolCall":{"args":{"path":"short.txt"}}},"timestamp_ms":90000}
{"type":"tool_call","subtype":"completed","call_id":"d","tool_call":{"readToolCall":{"result":{"success":{"totalLines":3}}}},"timestamp_ms":90100}
{"type":"result","subtype":"success","duration_ms":200,"is_error":false,"result":""}
EOF2
# (Several FILEs without --compare are the session list: alone is the
# short run by itself.)
for mode in own compare; do
	files=$work/short.ndjson
	[ "$mode" = compare ] && files="--compare recordings/demo.ndjson $work/short.ndjson"
	start 120 30 "$bin $files"
	[ "$mode" = own ] || wait_for 'A ✓ done.*B ✓ done' || fail compare "$mode: did not draw both sessions"
	keys Tab
	wait_for 'Read    short.txt' || fail compare "$mode: no timeline"
	screen | grep 'Read    short.txt' | sed 's/.*short.txt *//; s/ *100 ms.*//' >"$work/bar.$mode"
	keys q
	wait_exit 5 || fail compare "$mode: q did not end the viewer"
done
[ "$(cat "$work/bar.own")" = "████" ] ||
	fail compare "alone, the short run's bar is not four cells: '$(cat "$work/bar.own")'"
[ "$(cat "$work/bar.compare")" = "█" ] ||
	fail compare "compared, the short run's bar is not one cell: '$(cat "$work/bar.compare")'"

echo "take: $cases cases, $fails failures"
[ "$fails" -eq 0 ]
