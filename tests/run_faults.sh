#!/bin/sh
# run_faults.sh: faults around the input and the recording, in print mode
# (the screen's own faults are tested with it):
#   - a followed file truncated, replaced, removed and created again:
#     agentview keeps following and says so;
#   - stdin closed in the middle of a line: the last line is read;
#   - a file that cannot be read: a clear message, exit 1;
#   - --record to /dev/full, to a file that fills up, to a directory that
#     is removed, to one that does not exist: the error is said at once,
#     while the input is still open, printing goes on, exit 1;
#   - a recording that hit no write error gives the input back byte for
#     byte;
#   - kept sessions (issue 15): stdin and COMMAND kept by default, 0600 in
#     a 0700 folder, named by time and session; nothing kept when told
#     not to; two agentviews keeping at once; a full disk and a folder that
#     cannot be made said, the exit status left alone; old kept files
#     removed after DAYS, nothing else;
#   - write errors: every output path to /dev/full and to a closed stdout
#     exits 1 and says so.
# Waits poll the output (up to 10 s) instead of sleeping a fixed time.
set -u
. ./tests/lib/env.sh
bin=${AGENTVIEW:-./src/agentview}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=${TMPDIR:-/tmp}/agentview-faults.$$
mkdir -p "$tmp"
# Recording is on by default (issue 15): whatever this test reads live is
# kept in its own scratch folder, never in the real ~/.local/state.
XDG_STATE_HOME=$tmp/state
export XDG_STATE_HOME
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
. ./tests/lib/expect.sh

init() {
	line "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"$1\",\"model\":\"m\"}"
}
say() {
	line "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"$1\\n\"}]}}"
}
# fill_until_stopped: lines into fd 3 until agentview says in $tmp/err that
# its recording stopped (at most 200 lines).
fill_until_stopped() {
	n=0
	while ! grep -q "stopped" "$tmp/err" 2>/dev/null && [ "$n" -lt 200 ]; do
		say "line $n of a long session" >&3
		n=$((n + 1))
		[ $((n % 10)) -eq 0 ] && sleep 0.05
	done
}

# --- a followed file ---------------------------------------------------------

# follow FORMAT: start agentview --print -f on $tmp/f/run.ndjson.
follow() {
	rm -rf "$tmp/f"
	mkdir -p "$tmp/f"
	init one >"$tmp/f/run.ndjson"
	"$bin" --print --format "$1" -f "$tmp/f/run.ndjson" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	pids="$pids $pid"
}

# stop NAME: agentview must still be running; then end it.
stop() {
	kill -0 "$pid" 2>/dev/null || fail "$1" "agentview stopped by itself: $(head -c 300 "$tmp/err")"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}

cases=$((cases + 1))
follow text
f=$tmp/f/run.ndjson
expect follow "$tmp/out" "== session one"
say hello >>"$f"
expect follow "$tmp/out" "hello"
init two >"$f" # shorter than before: truncated
expect follow "$tmp/out" "== $f was truncated: read again from the start"
expect follow "$tmp/out" "== session two"
{ init three; say again; } >"$f.new"
mv "$f.new" "$f"
expect follow "$tmp/out" "== $f was replaced: read again from the start"
expect follow "$tmp/out" "again"
rm "$f"
expect follow "$tmp/out" "== $f was removed: waiting for it to come back"
init four >"$f"
expect follow "$tmp/out" "== session four"
stop follow
[ -s "$tmp/err" ] && fail follow "stderr: $(head -c 300 "$tmp/err")"
echo "follow: truncated, replaced, removed, created again: said in the log, followed on"

cases=$((cases + 1))
follow raw
f=$tmp/f/run.ndjson
expect follow-raw "$tmp/out" '"session_id":"one"'
init 2 >"$f" # shorter than before: truncated
expect follow-raw "$tmp/err" "agentview: $f was truncated: read again from the start"
expect follow-raw "$tmp/out" '"session_id":"2"'
rm "$f"
expect follow-raw "$tmp/err" "agentview: $f was removed: waiting for it to come back"
stop follow-raw
echo "follow (raw, json): the same notes, on stderr"

# --- stdin ends in the middle of a line -----------------------------------------

cases=$((cases + 1))
{ init s; printf '{"type":"assistant","message":{"content":[{"type":"text","text":"last words"}]}}'; } >"$tmp/cut"
"$bin" --print <"$tmp/cut" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail stdin-cut "exit $rc, not 3"
grep -qx 'last words' "$tmp/out" || fail stdin-cut "the last line is not shown"
{ init s; printf '{"type":"assistant","mess'; } | "$bin" --print >"$tmp/out" 2>&1
grep -qF '  ! line 2: truncated JSON: {"type":"assistant","mess' "$tmp/out" ||
	fail stdin-cut "a line cut inside JSON is not shown as such"
# The same through a pipe whose writer dies in the middle of a line.
(sh -c 'printf "%s\n{\"type\":\"assistant\",\"mess" "$1"; kill -KILL $$' sh "$(init s)" |
	"$bin" --print >"$tmp/out" 2>&1) 2>/dev/null
grep -qF '  ! line 2: truncated JSON' "$tmp/out" || fail stdin-cut "a killed writer's last line is lost"
echo "stdin closed mid-line: the last line read (a diagnostic when it is cut JSON)"

# --- a file that cannot be read -----------------------------------------------------

cases=$((cases + 1))
init s >"$tmp/secret"
chmod 000 "$tmp/secret"
if [ "$(id -u)" -eq 0 ]; then
	chmod 755 "$tmp"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" --print "$tmp/secret" >"$tmp/out" 2>"$tmp/err"
else
	"$bin" --print "$tmp/secret" >"$tmp/out" 2>"$tmp/err"
fi
rc=$?
[ "$rc" -eq 1 ] || fail no-permission "exit $rc, not 1"
[ "$(cat "$tmp/err")" = "agentview: $tmp/secret: Permission denied" ] ||
	fail no-permission "stderr: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail no-permission "printed something"
echo "no permission: 'agentview: FILE: Permission denied', exit 1"

# --- recordings -------------------------------------------------------------------------

# record NAME TARGET [ULIMIT]: agentview --print --record TARGET reading a
# FIFO that fd 3 writes to. The last case's out and err go first: the
# shell that truncates them runs in the background, and a look at err
# before it did would see the last case's message.
record() {
	rm -f "$tmp/fifo" "$tmp/out" "$tmp/err"
	mkfifo "$tmp/fifo"
	(
		[ -n "${3:-}" ] && ulimit -f "$3"
		exec "$bin" --print --record "$2" <"$tmp/fifo" >"$tmp/out" 2>"$tmp/err"
	) &
	pid=$!
	pids="$pids $pid"
	exec 3>"$tmp/fifo"
}

# finish NAME: close the input, and agentview must end with status 1 and
# have printed every line.
finish() {
	exec 3>&-
	wait "$pid"
	rc=$?
	[ "$rc" -eq 1 ] || fail "$1" "exit $rc, not 1"
	expect "$1" "$tmp/out" "the end"
}

cases=$((cases + 1))
record dev-full /dev/full
init s >&3
expect dev-full "$tmp/err" "agentview: recording to /dev/full stopped: No space left on device"
say "the end" >&3
finish dev-full
echo "--record /dev/full: said before the second line was written; printing went on; exit 1"

cases=$((cases + 1))
record fills-up "$tmp/full.ndjson" 4
init s >&3
fill_until_stopped
expect fills-up "$tmp/err" "agentview: recording to $tmp/full.ndjson stopped: File too large"
say "the end" >&3
finish fills-up
expect fills-up "$tmp/out" "line $((n - 1)) of a long session"
# What was recorded is whole lines, a prefix of the input.
"$bin" --print --format raw "$tmp/full.ndjson" >"$tmp/back"
{ init s; i=0; while [ "$i" -lt "$n" ]; do say "line $i of a long session"; i=$((i + 1)); done; } >"$tmp/sent"
[ -s "$tmp/back" ] && [ "$(tail -c 1 "$tmp/back")" = "" ] &&
	head -c "$(wc -c <"$tmp/back")" "$tmp/sent" | cmp -s - "$tmp/back" ||
	fail fills-up "the recording is not a prefix of the input in whole lines"
echo "--record to a file that fills up (EFBIG): said at once, whole lines kept; exit 1"

cases=$((cases + 1))
mkdir -p "$tmp/gone"
record dir-removed "$tmp/gone/rec.ndjson"
init s >&3
say "before" >&3
expect dir-removed "$tmp/out" "before"
rm -rf "$tmp/gone"
say "after" >&3
expect dir-removed "$tmp/err" "agentview: $tmp/gone/rec.ndjson was removed: nothing more is recorded"
say "the end" >&3
finish dir-removed
echo "--record, directory removed while recording: said at once; printing went on; exit 1"

cases=$((cases + 1))
record no-dir "$tmp/nowhere/rec.ndjson"
expect no-dir "$tmp/err" "agentview: cannot record to $tmp/nowhere/rec.ndjson: No such file or directory"
init s >&3
say "the end" >&3
finish no-dir
echo "--record into a directory that does not exist: said at once; exit 1"

# Recordings lose nothing: every kind of line, written in small pieces.
# (Not lines that are recording lines themselves: those are taken as such,
# so that recording a recording does not nest.)
cases=$((cases + 1))
{
	printf '\357\273\277'
	init s
	printf '\n  \n{}\n{ }\r\n'
	say "crlf" | tr '\n' '\r'
	printf '\n'
	printf 'not json \033]0;title\007 \000 \377\376\n'
	printf '{"type":"assistant","message":{"content":[{"type":"text","text":"no newline'
} >"$tmp/stream"
{
	# dd: pieces of 7 bytes, a pause now and then, so lines span reads
	size=$(wc -c <"$tmp/stream")
	off=0
	while [ "$off" -lt "$size" ]; do
		dd if="$tmp/stream" bs=1 skip="$off" count=7 2>/dev/null
		off=$((off + 7))
		[ $((off % 70)) -eq 0 ] && sleep 0.01
	done
} | "$bin" --print --record "$tmp/rec.ndjson" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail lossless "exit $rc, not 3: $(head -c 300 "$tmp/err")"
"$bin" --print --format raw "$tmp/rec.ndjson" >"$tmp/back"
cmp -s "$tmp/back" "$tmp/stream" || fail lossless "the raw stream of the recording differs from the input"
jq -c . "$tmp/rec.ndjson" >/dev/null 2>&1 || fail lossless "the recording is not JSON lines"
echo "recording of every kind of line, in pieces: raw gives the input back byte for byte"

# --- kept sessions ----------------------------------------------------------------------

result() {
	line '{"type":"result","subtype":"success","is_error":false,"duration_ms":5,"result":"ok"}'
}

# kept DIR: the files of the folder of sessions under state folder DIR.
kept() {
	ls "$1/agentview/sessions" 2>/dev/null
}

cases=$((cases + 1))
st=$tmp/k1
{ init 5e55100a-0001; say hi; result; } >"$tmp/sent"
cat "$tmp/sent" | XDG_STATE_HOME=$st "$bin" --print >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail kept "exit $rc: $(head -c 300 "$tmp/err")"
f=$(kept "$st")
case $f in
[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9]-5e55100a.ndjson) ;;
*) fail kept "the folder holds '$f', not one file named by time and session" ;;
esac
[ "$(stat -c %a "$st/agentview/sessions/$f" 2>/dev/null)" = 600 ] || fail kept "the file is not 0600"
[ "$(stat -c %a "$st/agentview/sessions")" = 700 ] || fail kept "the folder is not 0700"
"$bin" --print --format raw "$st/agentview/sessions/$f" | cmp -s - "$tmp/sent" ||
	fail kept "the kept file does not give the stream back"
head -1 "$st/agentview/sessions/$f" | grep -q '"kept":true' || fail kept "the header does not say kept"
# (its name is taken in the first one's second, however slow the machine:
# the names of the next seconds are there first, empty, then removed)
now=$(date +%s)
for t in 0 1 2 3 4 5; do
	n=$st/agentview/sessions/$(date -d "@$((now + t))" +%Y%m%d-%H%M%S)-5e55100a.ndjson
	[ -e "$n" ] || : >"$n"
done
XDG_STATE_HOME=$st "$bin" --print -- cat "$tmp/sent" >/dev/null 2>&1
find "$st/agentview/sessions" -type f -empty -exec rm -f {} +
[ "$(kept "$st" | wc -l)" -eq 2 ] || fail kept "a COMMAND's output is not kept beside it: $(kept "$st")"
kept "$st" | grep -q -- '-5e55100a-2\.ndjson$' || fail kept "the second run of the session is not -2"
cat "$tmp/sent" | XDG_STATE_HOME=$st "$bin" --print --no-record >/dev/null
cat "$tmp/sent" | XDG_STATE_HOME=$st AGENTVIEW_RECORD=0 "$bin" --print >/dev/null
XDG_STATE_HOME=$st "$bin" --print <"$tmp/sent" >/dev/null
XDG_STATE_HOME=$st "$bin" --print "$tmp/sent" >/dev/null
[ "$(kept "$st" | wc -l)" -eq 2 ] || fail kept "kept what it was told not to, or a file: $(kept "$st")"
echo "kept: stdin and COMMAND kept by default (0600 in 0700, named by time and session); not with --no-record, AGENTVIEW_RECORD=0, a file"

# Two agentviews keeping the same session at the same time, their lines
# interleaved: two files, each with its own stream whole.
cases=$((cases + 1))
st=$tmp/k2
rm -f "$tmp/fa" "$tmp/fb"
mkfifo "$tmp/fa" "$tmp/fb"
XDG_STATE_HOME=$st "$bin" --print <"$tmp/fa" >"$tmp/oa" 2>&1 &
pa=$!
XDG_STATE_HOME=$st "$bin" --print <"$tmp/fb" >"$tmp/ob" 2>&1 &
pb=$!
pids="$pids $pa $pb"
exec 4>"$tmp/fa" 5>"$tmp/fb"
init 5e55100b-0002 >&4
init 5e55100b-0002 >&5
i=0
while [ "$i" -lt 50 ]; do
	say "a $i" >&4
	say "b $i" >&5
	i=$((i + 1))
done
exec 4>&- 5>&-
wait "$pa" "$pb"
[ "$(kept "$st" | wc -l)" -eq 2 ] || fail kept-twice "not two files: $(kept "$st")"
for f in $(kept "$st"); do
	"$bin" --print --format raw "$st/agentview/sessions/$f" >"$tmp/back"
	w=$(head -2 "$tmp/back" | tail -1 | sed -n 's/.*"text":"\([ab]\) 0.*/\1/p')
	{ init 5e55100b-0002; i=0; while [ "$i" -lt 50 ]; do say "$w $i"; i=$((i + 1)); done; } |
		cmp -s - "$tmp/back" || fail kept-twice "$f is not one whole stream"
done
echo "kept twice at once: two files, each stream whole"

# A full disk while keeping: said at once, the session goes on, and the
# exit status is the session's (nobody asked for the file).
cases=$((cases + 1))
st=$tmp/k3
rm -f "$tmp/fifo"
mkfifo "$tmp/fifo"
( ulimit -f 4; XDG_STATE_HOME=$st exec "$bin" --print <"$tmp/fifo" >"$tmp/out" 2>"$tmp/err" ) &
pid=$!
pids="$pids $pid"
exec 3>"$tmp/fifo"
init 5e55100c >&3
fill_until_stopped
expect kept-full "$tmp/err" "agentview: recording to $st/agentview/sessions/"
expect kept-full "$tmp/err" "stopped: File too large"
say "the end" >&3
result >&3
exec 3>&-
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || fail kept-full "exit $rc, not 0"
expect kept-full "$tmp/out" "the end"
echo "kept, disk full (EFBIG): said at once, printing went on, exit status the session's"

cases=$((cases + 1))
{ init s; result; } | XDG_STATE_HOME=/dev/null/state "$bin" --print >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail kept-nowhere "exit $rc, not 0"
[ "$(cat "$tmp/err")" = "agentview: not keeping this session: cannot make /dev/null/state: Not a directory (--no-record: do not try)" ] ||
	fail kept-nowhere "stderr: $(cat "$tmp/err")"
grep -q "== session s" "$tmp/out" || fail kept-nowhere "the session is not printed"
echo "kept, folder cannot be made: said once, the session printed, exit 0"

# Old kept files go when a new session is kept; nothing else does.
cases=$((cases + 1))
st=$tmp/k4
d=$st/agentview/sessions
mkdir -p "$d"
hk='{"type":"agentview","subtype":"recording","version":1,"kept":true,"agentview_ms":1}'
hr='{"type":"agentview","subtype":"recording","version":1,"agentview_ms":1}'
line "$hk" >"$d/old.ndjson"
line "$hk" >"$d/young.ndjson"
line "$hr" >"$d/recorded.ndjson"
init x >"$d/stream.ndjson"
line "$hk" >"$d/notes.txt"
touch -d '40 days ago' "$d/old.ndjson" "$d/recorded.ndjson" "$d/stream.ndjson" "$d/notes.txt"
touch -d '20 days ago' "$d/young.ndjson"
{ init s; result; } | XDG_STATE_HOME=$st "$bin" --print --keep 0 >/dev/null
[ -e "$d/old.ndjson" ] || fail prune "--keep 0 removed a file"
{ init s; result; } | XDG_STATE_HOME=$st AGENTVIEW_KEEP_DAYS=50 "$bin" --print >/dev/null
[ -e "$d/old.ndjson" ] || fail prune "AGENTVIEW_KEEP_DAYS=50 removed a file of 40 days"
{ init s; result; } | XDG_STATE_HOME=$st "$bin" --print >/dev/null
[ -e "$d/old.ndjson" ] && fail prune "a kept file of 40 days is still there"
for f in young.ndjson recorded.ndjson stream.ndjson notes.txt; do
	[ -e "$d/$f" ] || fail prune "$f was removed"
done
{ init s; result; } | XDG_STATE_HOME=$st "$bin" --print --keep 10 >/dev/null
[ -e "$d/young.ndjson" ] && fail prune "--keep 10 left a kept file of 20 days"
echo "kept files removed after DAYS (30, AGENTVIEW_KEEP_DAYS, --keep; 0: never); nothing else"

# --- write errors ---------------------------------------------------------------

# Every output path, to a full disk and to a closed stdout: exit status 1
# and "agentview: writing output: ..." on stderr, never a silent 0. A
# followed list stops at its first failed write.
cases=$((cases + 1))
mkdir -p "$tmp/w"
{ init w1; say "hello"; result; } >"$tmp/w/run.ndjson"
w=$tmp/w/run.ndjson
# wrote NAME ARGS...: agentview ARGS to /dev/full and with stdout closed.
wrote() {
	n=$1
	shift
	for to in full closed; do
		if [ "$to" = full ]; then
			timeout 10 "$bin" "$@" >/dev/full 2>"$tmp/err" </dev/null
		else
			timeout 10 "$bin" "$@" >&- 2>"$tmp/err" </dev/null
		fi
		rc=$?
		[ "$rc" -eq 1 ] || fail "write-$n" "$* to $to stdout: exit $rc, not 1"
		grep -q "^agentview: writing output: " "$tmp/err" ||
			fail "write-$n" "$* to $to stdout said: $(head -c 200 "$tmp/err")"
	done
}
wrote help --help
wrote version --version
for sh in bash zsh fish; do wrote "completion-$sh" --shell-completion "$sh"; done
for fmt in text markdown json html raw; do wrote "print-$fmt" --print --format "$fmt" "$w"; done
wrote print-replay --print --replay --speed 1000 "$w"
wrote status-line --status-line "$w"
wrote status-line-dir --status-line "$tmp/w"
for fmt in text markdown json; do wrote "list-$fmt" --print --format "$fmt" "$tmp/w"; done
# A followed file writes what it holds, a followed list at the first
# change: each stops at its first failed write.
for to in full closed file-full file-closed; do
	case $to in
	full) "$bin" --print -f "$tmp/w" >/dev/full 2>"$tmp/err" </dev/null & ;;
	closed) "$bin" --print -f "$tmp/w" >&- 2>"$tmp/err" </dev/null & ;;
	file-full) "$bin" --print -f "$w" >/dev/full 2>"$tmp/err" </dev/null & ;;
	file-closed) "$bin" --print -f "$w" >&- 2>"$tmp/err" </dev/null & ;;
	esac
	pid=$!
	pids="$pids $pid"
	sleep 0.3
	{ init "w-$to"; say "changed"; } >>"$tmp/w/new-$to.ndjson"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		fail write-follow "-f to $to stdout still runs after a change"
		kill "$pid"
	fi
	wait "$pid"
	rc=$?
	[ "$rc" -eq 1 ] || fail write-follow "-f to $to stdout: exit $rc, not 1"
	grep -q "^agentview: writing output: " "$tmp/err" ||
		fail write-follow "-f to $to stdout said: $(head -c 200 "$tmp/err")"
done
for fmt in text markdown json; do wrote "compare-$fmt" --compare --format "$fmt" "$w" "$w"; done
wrote command --print -- sh -c 'echo not json'
echo "write errors: every output path to /dev/full and a closed stdout exits 1 and says so"

echo "faults: $cases cases, $fails failures"
[ "$fails" -eq 0 ]
