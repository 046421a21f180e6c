#!/bin/sh
# run_runner.sh: `agentview -- COMMAND` with real processes, driven by
# tests/fake_agent.sh:
#   - --print passes on the exit status (0, 1, 7; 137 for SIGKILL), 3 when
#     the command exited 0 without a result, 127 when it cannot be run;
#   - stderr lines in the text log and in the JSON summary's command.stderr;
#   - a non-zero exit with no result is `failed`, with its last stderr line;
#   - a command that prints no JSON, or nothing, is said to have done so;
#   - agentview killed with SIGTERM or SIGHUP stops the whole process group
#     of the command (a grandchild that ignores SIGTERM too): nothing is
#     left, and agentview dies of the signal after printing its summary;
#   - a command that exited is reaped at once, even while a grandchild keeps
#     its stdout open (no zombie), and agentview stops waiting for that pipe;
#   - stdin is passed through when it is a pipe or a file, /dev/null when it
#     is a terminal; a command that reads the terminal itself is stopped and
#     said so, not waited for; the command inherits no descriptor of
#     agentview's;
#   - --record of a command holds its stdout, stderr and exit status, and
#     --print --format raw gives its stdout back byte for byte; --record of
#     piped stdin works in print mode;
#   - --status-line for ok, live, failed and incomplete sessions, and with
#     --tmux-style, through tmux's own format expansion.
set -u
. ./tests/lib/env.sh
bin=${AGENTVIEW:-./src/agentview}
agent=./tests/fake_agent.sh
rec=recordings
out=${TMPDIR:-/tmp}/agentview-runner.$$
mkdir -p "$out"
# Recording is on by default (issue 15): whatever this test reads live is
# kept in its own scratch folder, never in the real ~/.local/state.
XDG_STATE_HOME=$out/state
export XDG_STATE_HOME
. ./tests/lib/tmux.sh
tmux_init runner "$out"
mark=av-runner-test-$$
cleanup() {
	# Only what this script started: processes carrying its marker.
	for p in $(pgrep -f "$mark" 2>/dev/null); do
		pkill -KILL -P "$p" 2>/dev/null
		kill -KILL "$p" 2>/dev/null
	done
	tmux_stop
	rm -rf "$out"
}
trap cleanup EXIT
fails=0
checks=0

fail() {
	echo "FAIL $1"
	fails=$((fails + 1))
}
ok() {
	checks=$((checks + 1))
}
# check NAME COMMAND...: the command must succeed.
check() {
	name=$1
	shift
	if "$@"; then ok; else fail "$name"; fi
}
# Wait up to 5 s for a child of process $1; print its pid.
child_of() {
	i=0
	while [ $i -lt 50 ]; do
		p=$(pgrep -P "$1" | head -n 1)
		[ -n "$p" ] && { echo "$p"; return 0; }
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# jq -e, quietly.
jqe() {
	jq -e "$@" >/dev/null
}
# Live processes in process group $1 (none: empty output). A zombie there
# is one agentview no longer owns: whoever inherited it reaps it.
in_group() {
	ps -e -o pgid=,pid=,stat=,args= | awk -v g="$1" '$1 == g && $3 !~ /^Z/'
}
# Wait up to 2 s for process group $1 to have no live process (SIGKILL
# takes a moment); true when it did.
group_gone() {
	i=0
	while [ $i -lt 20 ]; do
		[ -z "$(in_group "$1")" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	in_group "$1" >&2
	return 1
}

# --- exit status passed on --------------------------------------------------
"$bin" --print -- "$agent" "$rec/demo.ndjson" >"$out/t" 2>"$out/e"
rc=$?
check "exit 0 with a result gives 0 (got $rc)" [ $rc -eq 0 ]
for code in 1 7; do
	"$bin" --print -- "$agent" -x "$code" "$rec/demo.ndjson" >"$out/t" 2>"$out/e"
	rc=$?
	check "exit $code is passed on (got $rc)" [ $rc -eq "$code" ]
done
"$bin" --print -- "$agent" -k KILL "$rec/no-result.ndjson" >"$out/t" 2>"$out/e"
rc=$?
check "SIGKILL gives 137 (got $rc)" [ $rc -eq 137 ]
check "SIGKILL is in the closing line" grep -q '^== failed (killed by signal 9' "$out/t"
"$bin" --print -- "$agent" "$rec/no-result.ndjson" >"$out/t" 2>"$out/e"
rc=$?
check "exit 0 without a result gives 3 (got $rc)" [ $rc -eq 3 ]
"$bin" --print -- ./tests/no-such-agent >"$out/t" 2>"$out/e"
rc=$?
check "a command that is not there gives 127 (got $rc)" [ $rc -eq 127 ]
check "and says why" grep -q 'cannot run ./tests/no-such-agent: No such file' "$out/e"

# --- stderr, and failed with its message --------------------------------------
"$bin" --print -- "$agent" -b "Warning: old CLI" -e "$(printf 'Error: \033]0;pwned\007usage limit')" \
	-x 1 "$rec/no-result.ndjson" >"$out/t" 2>"$out/e"
rc=$?
check "failure exit 1 (got $rc)" [ $rc -eq 1 ]
check "stderr line in the text log" grep -q '^  stderr: Warning: old CLI$' "$out/t"
check "failed with its message" \
	grep -qF '== failed (exit status 1: Error: ^[]0;pwned^Gusage limit) ' "$out/t"
check "no control byte reaches the log" sh -c "! LC_ALL=C grep -q \"\$(printf '[\\001-\\011\\013-\\037\\177]')\" '$out/t'"
check "one session (stderr before init joins it)" sh -c "! grep -q 'sessions:' '$out/t'"
"$bin" --print --format json -- "$agent" -b "Warning: old CLI" -e "Error: usage limit" \
	-x 1 "$rec/no-result.ndjson" >"$out/j" 2>"$out/e"
check "JSON: command object" jqe --arg a "$agent" '
	.command.argv == [$a, "-b", "Warning: old CLI", "-e", "Error: usage limit",
	                  "-x", "1", "recordings/no-result.ndjson"] and
	.command.exit_status == 1 and .command.signal == null and
	.command.stderr == ["Warning: old CLI", "Error: usage limit"]' "$out/j"
check "JSON: failed with its error" jqe '
	(.sessions | length) == 1 and .sessions[0].state == "failed" and
	.sessions[0].error == "exit status 1: Error: usage limit" and
	all(.sessions[0].tool_calls[]; .state == "orphaned")' "$out/j"
"$bin" --print --format json -- "$agent" -k KILL "$rec/demo.ndjson" >"$out/j" 2>"$out/e"
check "JSON: a signal, and a result that the kill still fails" jqe '
	.command.exit_status == null and .command.signal == 9 and
	.sessions[0].state == "failed" and .sessions[0].error == "killed by signal 9"' "$out/j"

# --- no JSON --------------------------------------------------------------------
"$bin" --print -- "$agent" "$rec/text-format.txt" >"$out/t" 2>"$out/e"
check "no JSON: said on stderr" grep -qx \
	"agentview: $agent printed no JSON events (is --output-format stream-json missing?)" "$out/e"
check "no JSON: said in the log" grep -qx \
	"== $agent printed no JSON events (is --output-format stream-json missing?)" "$out/t"
check "no JSON: the lines are still shown" grep -q '^  ! line 1: not JSON: ' "$out/t"
"$bin" --print -- "$agent" -e "Authentication required." -x 1 >"$out/t" 2>"$out/e"
check "nothing at all: said" grep -qx "agentview: $agent printed nothing on its standard output" "$out/e"
check "nothing at all: its stderr shown" grep -q '^  stderr: Authentication required.$' "$out/t"
"$bin" --print -- "$agent" "$rec/demo.ndjson" >"$out/t" 2>"$out/e"
check "JSON output: no such message" sh -c "! grep -q 'printed no' '$out/e' '$out/t'"

# --- agentview stopped: the whole group goes ------------------------------------
for s in TERM HUP; do
	"$bin" --print -- "$agent" -m "$mark-$s" -g -s 600 -d 0.01 "$rec/demo.ndjson" \
		>"$out/t" 2>"$out/e" &
	av=$!
	child=$(child_of "$av") || { fail "SIG$s: the command did not start"; continue; }
	child_of "$child" >/dev/null || fail "SIG$s: no grandchild"
	check "SIG$s: the command leads its own group" [ -n "$(in_group "$child")" ]
	# Let it print a few lines first.
	sleep 0.3
	kill -s "$s" "$av"
	wait "$av" 2>/dev/null
	rc=$?
	case $s in TERM) want=143 ;; HUP) want=129 ;; esac
	check "SIG$s: agentview dies of it (got $rc, want $want)" [ $rc -eq "$want" ]
	check "SIG$s: nothing left in the command's group" group_gone "$child"
	check "SIG$s: the summary is printed" grep -q '^== failed (killed by signal 15' "$out/t"
done

# --- reaped at once, even with its stdout held open --------------------------------
"$bin" --print --format json -- "$agent" -m "$mark-drain" -g "$rec/demo.ndjson" >"$out/j" 2>"$out/e" &
av=$!
sleep 0.5
# The command has exited (it only copies a file); its grandchild keeps the
# pipe open, so agentview is still there, with no child, zombie or not.
check "drain: agentview waits for the pipe a while" kill -0 "$av"
check "drain: the exited command is reaped at once" [ -z "$(ps -o pid=,stat= --ppid "$av")" ]
# Waiting is not spinning: under 0.2 s of CPU in these 0.5 s (clock ticks).
ticks=$(awk '{ print $14 + $15 }' "/proc/$av/stat" 2>/dev/null)
hz=$(getconf CLK_TCK)
check "drain: waits without spinning (${ticks:-?} ticks)" [ "${ticks:-999}" -lt $((hz / 5)) ]
gc=$(pgrep -f "fake-agent-grandchild-$mark-drain")
wait "$av" 2>/dev/null
rc=$?
check "drain: agentview ends though a grandchild holds the pipe (rc $rc)" [ $rc -eq 0 ]
check "drain: exit status known" jqe '.command.exit_status == 0 and .sessions[0].state == "ok"' "$out/j"
# The grandchild outlives a command that exited by itself, as it would
# under a shell; this script started it, so it ends it.
check "drain: the grandchild was there" [ -n "$gc" ]
for p in $gc; do
	pkill -KILL -P "$p"
	kill -KILL "$p"
done

# --- stdin and descriptors ----------------------------------------------------------
echo "fix the tests" | "$bin" --print --format json -- "$agent" -i "$rec/demo.ndjson" >"$out/j" 2>"$out/e"
check "piped stdin reaches the command" jqe '.command.stderr == ["stdin: fix the tests"]' "$out/j"
printf 'from a file\n' >"$out/in"
"$bin" --print --format json -- "$agent" -i "$rec/demo.ndjson" <"$out/in" >"$out/j" 2>"$out/e"
check "stdin from a file reaches the command" jqe '.command.stderr == ["stdin: from a file"]' "$out/j"
# A terminal on stdin: the command gets /dev/null (and does not hang).
TERM=dumb timeout 20 script -qec "$bin --print --format json -- $agent -i $rec/demo.ndjson >$out/j 2>$out/e" /dev/null \
	>/dev/null 2>&1 </dev/null
check "a terminal on stdin: the command reads /dev/null" jqe '.command.stderr == ["stdin: EOF"]' "$out/j"
# A command that reads the terminal itself is stopped by the kernel
# (SIGTTIN: its group is not the terminal's); agentview ends it, not hangs.
TERM=dumb timeout 20 script -qec "$bin --print -- sh -c 'read x </dev/tty' >$out/t 2>$out/e" /dev/null \
	>/dev/null 2>&1 </dev/null
rc=$?
check "reading the terminal: stopped and ended (got $rc)" [ $rc -eq 143 ]
check "reading the terminal: said why" grep -q 'sh stopped on SIGTTIN: it tried to use the terminal' "$out/e"
# ls lists its own descriptors: under agentview, the same as run here.
ls /proc/self/fd >"$out/fds-direct"
"$bin" --print --format raw -- ls /proc/self/fd >"$out/fds" 2>"$out/e"
check "the command inherits no descriptor of agentview's" cmp -s "$out/fds" "$out/fds-direct"

# --- recordings ------------------------------------------------------------------------
(cat "$rec/demo.ndjson" && printf 'not json, no newline') >"$out/stdout"
"$bin" --print --record "$out/r.ndjson" -- "$agent" -b "early" -e "late" -x 2 "$out/stdout" \
	>"$out/t" 2>"$out/e"
rc=$?
check "recording a command: exit 2 passed on (got $rc)" [ $rc -eq 2 ]
check "recording: header, stderr, exit" jqe -s '
	(.[0] | .subtype == "recording" and .source == "command" and (.argv | length) == 8) and
	([.[] | select(.type == "agentview" and .subtype == "stderr") | .text] == ["early", "late"]) and
	(.[-1] | .subtype == "exit" and .exit_status == 2 and .signal == null) and
	all(.[]; has("agentview_ms"))' "$out/r.ndjson"
"$bin" --print --format raw "$out/r.ndjson" >"$out/raw"
check "recording: raw gives stdout back byte for byte" cmp -s "$out/raw" "$out/stdout"
"$bin" --print --format json "$out/r.ndjson" >"$out/j"
check "recording read back: the same command and state" jqe '
	.command.exit_status == 2 and .command.stderr == ["early", "late"] and
	(.command.argv | length) == 8 and .sessions[-1].state == "failed"' "$out/j"
"$bin" --print --record "$out/k.ndjson" -- "$agent" -k KILL "$rec/no-result.ndjson" >/dev/null 2>&1
check "recording: a signal" jqe -s '.[-1] | .subtype == "exit" and .exit_status == null and .signal == 9' \
	"$out/k.ndjson"
cat "$rec/demo.ndjson" | "$bin" --print --record "$out/s.ndjson" >"$out/t" 2>"$out/e"
check "recording piped stdin in print mode" jqe -s '.[0].source == "stdin" and (length == 121) and
	.[-1].subtype == "end"' "$out/s.ndjson"
"$bin" --print --format raw "$out/s.ndjson" >"$out/raw"
check "recording piped stdin: raw is the input" cmp -s "$out/raw" "$rec/demo.ndjson"
check "recording to a directory fails clearly" sh -c \
	"! '$bin' --print --record / -- '$agent' >/dev/null 2>'$out/e' && grep -q 'cannot record to /' '$out/e'"

# --- the status line ----------------------------------------------------------------------
dot=$(printf '\302\267')
# A session being recorded right now: live, its running call ticking.
"$bin" --print --record "$out/live.ndjson" -- "$agent" -s 600 "$rec/no-result.ndjson" \
	>"$out/t" 2>"$out/e" &
av=$!
i=0
until grep -q connection "$out/live.ndjson" 2>/dev/null || [ $i -ge 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
"$bin" --status-line "$out/live.ndjson" >"$out/sl"
rc=$?
check "status line, live: exit 3 (got $rc)" [ $rc -eq 3 ]
check "status line, live: $(cat "$out/sl")" grep -qE \
	"^$(printf '\342\227\217') Auto $dot [0-9.]+ m?s $dot 1 running $dot Shell .npm run docs:build. $(printf '\342\206\222') running [0-9.]+ m?s\$" \
	"$out/sl"
kill -TERM "$av"
wait "$av" 2>/dev/null
"$bin" --status-line "$out/live.ndjson" >"$out/sl"
rc=$?
check "status line, killed: exit 3 (got $rc)" [ $rc -eq 3 ]
check "status line, killed: $(cat "$out/sl")" grep -qE \
	"^$(printf '\342\234\227') Auto $dot [0-9.]+ m?s $dot 1 failed $dot killed by signal 15\$" "$out/sl"
# The same file, untouched for a while: no longer live.
cp "$rec/no-result.ndjson" "$out/old.ndjson"
touch -d '10 minutes ago' "$out/old.ndjson"
"$bin" --status-line "$out/old.ndjson" >"$out/sl"
rc=$?
check "status line, incomplete: exit 3 (got $rc)" [ $rc -eq 3 ]
check "status line, incomplete: $(cat "$out/sl")" grep -qx "? Auto $dot 35.5 s $dot 1 failed" "$out/sl"
"$bin" --status-line "$rec/demo.ndjson" >"$out/sl"
rc=$?
check "status line, ok: exit 0 (got $rc)" [ $rc -eq 0 ]
check "status line, ok: $(cat "$out/sl")" grep -qx \
	"$(printf '\342\234\223') Composer 2.5 $dot 28.8 s $dot 8 done, 1 failed" "$out/sl"
# A failed command's recording (from above): why it failed.
"$bin" --status-line "$out/r.ndjson" >"$out/sl"
rc=$?
check "status line, failed: exit 0, it had a result (got $rc)" [ $rc -eq 0 ]
check "status line, failed: $(cat "$out/sl")" grep -qE \
	"^$(printf '\342\234\227') Composer 2.5 $dot [0-9.]+ m?s $dot 8 done, 1 failed $dot exit status 2: late\$" "$out/sl"
"$bin" --status-line --tmux-style "$out/r.ndjson" >"$out/sl"
check "status line, tmux: $(cat "$out/sl")" grep -qE \
	"^#\\[fg=red\\]$(printf '\342\234\227')#\\[default\\] Composer 2.5 $dot .* #\\[fg=red\\]1 failed#\\[default\\] $dot #\\[fg=red\\]exit status 2: late#\\[default\\]\$" \
	"$out/sl"
"$bin" --status-line --tmux-style "$rec/escapes.ndjson" >"$out/sl"
check "status line: no control byte from event text" sh -c "! LC_ALL=C grep -q \"\$(printf '[\001-\037\177]')\" '$out/sl'"
check "status line: plain has no tmux style" sh -c "! '$bin' --status-line '$rec/demo.ndjson' | grep -q '#\\['"
check "status line: one line" [ "$(wc -l <"$out/sl")" -eq 1 ]
# What tmux makes of the line: the same expansion as #() output gets. Event
# text stays as it was ('#' doubled), styles stay styles.
printf '%s\n' '{"type":"system","subtype":"init","model":"#{host} #(rm x) ##"}' \
	'{"type":"result","subtype":"success","is_error":false,"duration_ms":1000}' >"$out/hash.ndjson"
"$bin" --status-line --tmux-style "$out/hash.ndjson" >"$out/sl"
if start 80 10 'sleep 60' 2>/dev/null; then
	$T display-message -p "$(cat "$out/sl")" >"$out/tmux" 2>&1
	tmux_stop
	check "tmux shows event text as it is: $(cat "$out/tmux")" grep -qxF \
		"#[fg=green]$(printf '\342\234\223')#[default] #{host} #(rm x) ## $dot 1.0 s" "$out/tmux"
else
	fail "tmux: cannot start a server"
fi
# Several FILEs are summed up (issue 15: run_fleet.sh); a COMMAND is no
# status line's.
"$bin" --status-line -- "$agent" "$rec/demo.ndjson" >/dev/null 2>&1
check "status line: no COMMAND (usage error)" [ $? -eq 2 ]
"$bin" --tmux-style "$rec/demo.ndjson" >/dev/null 2>&1
check "--tmux-style alone: usage error" [ $? -eq 2 ]

echo "runner: $checks checks, $fails failures"
[ "$fails" -eq 0 ]
