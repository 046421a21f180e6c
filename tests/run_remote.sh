#!/bin/sh
# run_remote.sh: sessions on other machines (issue 24) against a real
# OpenSSH sshd on 127.0.0.1 at a free port, started here in the foreground
# (-D -e) with a host key, an authorized key and a client config of its
# own (AGENTVIEW_SSH="ssh -F CFG"), killed at the end:
#   - HOST:FILE printed is byte for byte the local print of that file;
#   - HOST:DIR listed; HOST: is the remote's kept sessions and the
#     agents' stores there (found by the remote's environment), as
#     `agentview` alone lists them on that machine, read only;
#   - a file growing remotely followed (-f): its new lines appear;
#   - the sshd killed meanwhile, lines written while it is down, sshd
#     started again: "reconnecting (N)" said, then every line once;
#   - a host refused as typed (-oProxyCommand=...), one that does not
#     exist, one whose key is refused: said, the local source beside it
#     still listed, nothing run;
#   - hostile file and folder names (spaces, quotes, $(...), a leading
#     '-') read as they are, nothing run.
# Skipped, with the reason, where there is no sshd (Debian's
# openssh-server, .ci/deps test) or no way to run one. Waits poll with a
# deadline (tests/lib/expect.sh: 10 s), never a bare sleep.
set -u
bin=${AGENTVIEW:-./src/agentview}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=${TMPDIR:-/tmp}/agentview-remote-test.$$
mkdir -p "$tmp"
chmod 700 "$tmp"
XDG_STATE_HOME=$tmp/state
export XDG_STATE_HOME
# agentview's private folders (its mirrors, ssh's control sockets) here,
# so that the end can wait for every one to be gone: the proof that no
# mirror process, ssh child or master connection outlived agentview.
mkdir -p "$tmp/t"
TMPDIR=$tmp/t
export TMPDIR
pids=
sshd=${SSHD:-/usr/sbin/sshd}
tm=:
# (the real one once there is an sshd: tests/lib/sshd.sh)
stop_sshd() { :; }
trap '$tm kill-server 2>/dev/null; for p in $pids; do kill "$p" 2>/dev/null; done; cleaned; stop_sshd; rm -rf "$tmp"' EXIT
# Killed (a timeout, ^C): the same end, sshd included.
trap 'exit 1' HUP INT TERM
# Until agentview's mirror folders are gone (10 s at most).
cleaned() {
	i=0
	while [ -n "$(ls "$tmp/t" 2>/dev/null)" ] && [ "$i" -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	[ -z "$(ls "$tmp/t" 2>/dev/null)" ]
}
. ./tests/lib/expect.sh
. ./tests/lib/cursor.sh
# up NAME COMMAND...: COMMAND started, its pid in up_pid, once its name
# (comm) is NAME (5 s at most).
up() {
	up_name=$1
	shift
	"$@" &
	up_pid=$!
	pids="$pids $up_pid"
	i=0
	while [ "$(cat "/proc/$up_pid/comm" 2>/dev/null)" != "$up_name" ] && [ "$i" -lt 50 ]; do
		i=$((i + 1))
		sleep 0.1
	done
}

# --- a remote that lies (no sshd needed) ---------------------------------------------

# AGENTVIEW_SSH is a program that prints the frames of a file, whatever
# it is asked: a remote that sends names out of its folder, lengths too
# large, frames inside a file's bytes.
cat >"$tmp/fake_ssh" <<'EOF'
cat >/dev/null
cat "$1"
EOF
# frames ARG: agentview --print --format raw ARG through the fake ssh,
# which prints $tmp/frames.
frames() {
	AGENTVIEW_SSH="sh $tmp/fake_ssh $tmp/frames" "$bin" --print --format raw "$1" >"$tmp/out" 2>"$tmp/err"
}
cases=$((cases + 1))
printf 'H agentview-remote 1\nM d\nD 22\n../../../escape.ndjson\n\nK\n' >"$tmp/frames"
frames fake:/x
rc=$?
[ "$rc" -eq 1 ] || fail lies "a name out of the folder: exit $rc"
[ ! -e "$tmp/escape.ndjson" ] || fail lies "a file was written out of the mirror"
grep -q "fake: the connection dropped 4 times before the first round was read (the remote sent a file name that is not one here)" "$tmp/err" ||
	fail lies "not said: $(cat "$tmp/err")"
printf 'H agentview-remote 1\nM f\nF 1 0 99999999999\n' >"$tmp/frames"
frames fake:/x.ndjson
rc=$?
[ "$rc" -eq 1 ] || fail lies "a huge length: exit $rc"
grep -q "(the remote sent a length out of range)" "$tmp/err" || fail lies "not said: $(cat "$tmp/err")"
# A list of processes whose lengths run past its end (a path of 999
# bytes in 8), or that holds a NUL: the stream is broken, said.
for body in 'r 999\nab' 'r 1\n/\nc 7 1 2 0\na\0\n'; do
	printf "H agentview-remote 1\nM s\nL %d\n$body\nK\n" "$(printf "$body" | wc -c)" >"$tmp/frames"
	frames fake:
	grep -q "(the remote sent a list of processes not as said)" "$tmp/err" ||
		fail lies "a list of processes that lies ($body): $(cat "$tmp/err")"
done
# Frames inside a file's bytes are its bytes.
body='{"a":1}
K
F 1 0 5
hello
E 3
bad
'
printf 'H agentview-remote 1\nM f\nF 1 0 %d\n%s\nK\n' ${#body} "$body" >"$tmp/frames"
frames fake:/x.ndjson
printf '%s' "$body" | cmp -s - "$tmp/out" || fail lies "the bytes of a frame: $(od -c "$tmp/out" | head -n 5)"
# Its error full of what a terminal acts on (OSC 52 writes the clipboard,
# a C1 CSI, DEL), before its first round and after it (-f): said on
# stderr as text, on one line, never as the bytes.
esc=$(printf 'boom \033]52;c;ZWNobyBwd25lZA==\007 \302\2332J \177 end')
printf 'H agentview-remote 1\nM f\nE %d\n%s\n' "$(printf '%s' "$esc" | wc -c)" "$esc" >"$tmp/frames"
frames fake:/x.ndjson
line='{"a":1}'
printf 'H agentview-remote 1\nM f\nF 1 0 %d\n%s\n\nK\nE %d\n%s\n' $((${#line} + 1)) "$line" \
	"$(printf '%s' "$esc" | wc -c)" "$esc" >"$tmp/frames"
AGENTVIEW_SSH="sh $tmp/fake_ssh $tmp/frames" timeout 3 "$bin" --print -f fake:/x.ndjson \
	>/dev/null 2>>"$tmp/err"
bad=$(printf '[\001-\011\013-\037\177]|\302[\200-\237]')
grep -q "boom" "$tmp/err" || fail lies "the remote's error not said: $(cat -v "$tmp/err")"
! LC_ALL=C grep -Eq "$bad" "$tmp/err" || fail lies "the remote's error reached the terminal raw: $(cat -v "$tmp/err")"
# More names than frames can number (100 001, in one list): refused,
# soon (each name was looked for among all the others before it: a
# minute of the mirror's CPU, and no bound on them).
awk 'BEGIN { for (i = 0; i <= 100000; i++) print "n" i ".ndjson" }' >"$tmp/names"
printf 'H agentview-remote 1\nM d\nD %d\n' "$(($(wc -c <"$tmp/names") - 1))" >"$tmp/frames"
cat "$tmp/names" >>"$tmp/frames"
printf 'K\n' >>"$tmp/frames"
AGENTVIEW_SSH="sh $tmp/fake_ssh $tmp/frames" timeout 20 "$bin" --print fake:/x >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || fail lies "100 001 names: exit $rc"
grep -q "(the remote sent more files than a folder may have)" "$tmp/err" ||
	fail lies "100 001 names not said: $(head -c 300 "$tmp/err")"
echo "a remote that lies: names out of its folder, huge lengths, frames in the bytes, escapes, too many names"

# --- the remote program under dash and busybox (no sshd needed) ----------------------

# AGENTVIEW_SSH is a program that runs what it is sent with a shell here:
# dash, and busybox's sh with only busybox's ls, stat, tail, head, wc and
# sleep on its PATH (as on a small machine).
shells=dash
if command -v busybox >/dev/null 2>&1; then
	mkdir -p "$tmp/bb"
	for t in sh ls stat tail head wc sleep cat; do
		ln -s "$(command -v busybox)" "$tmp/bb/$t"
	done
	shells="$shells busybox"
else
	echo "run_remote: busybox not installed: the program is checked under dash only"
fi
b=$tmp/plain
mkdir -p "$b"
{ init p0000001 plain; user "read by $shells"; started c1 make; result false 2000 "ok"; } >"$b/p.ndjson"
{ init p0000002 plain; user "second"; } >"$b/q.ndjson"
touch -d '2026-01-05 10:00' "$b/p.ndjson" "$b/q.ndjson"
"$bin" --print --format json "$b" | jq -c '[.sessions[] | [.state, .session_id]] | sort' >"$tmp/local.json"
for sh in $shells; do
	cases=$((cases + 1))
	case $sh in
	dash) printf 'exec dash -s\n' >"$tmp/local_ssh" ;;
	busybox) printf 'PATH=%s exec %s/sh -s\n' "$tmp/bb" "$tmp/bb" >"$tmp/local_ssh" ;;
	esac
	AGENTVIEW_SSH="sh $tmp/local_ssh" "$bin" --print --format raw "here:$b/p.ndjson" >"$tmp/out" 2>"$tmp/err"
	cmp -s "$b/p.ndjson" "$tmp/out" || fail "$sh" "a file: $(head -c 300 "$tmp/err")"
	AGENTVIEW_SSH="sh $tmp/local_ssh" "$bin" --print --format json "here:$b" 2>"$tmp/err" |
		jq -c '[.sessions[] | [.state, .session_id]] | sort' >"$tmp/remote.json"
	cmp -s "$tmp/local.json" "$tmp/remote.json" ||
		fail "$sh" "a folder: $(cat "$tmp/remote.json") $(head -c 300 "$tmp/err")"
	echo "the remote program under $sh: a file byte for byte, a folder's rows with their times"
done

# A big remote folder: 20 000 files whose names (215 bytes) make a list
# longer than a frame may be (4 MiB), read under dash and busybox: the
# sessions among them (one in 2 000: the others are empty, each file read
# is a process or two) listed, those of the list's last part too, in a
# bounded time (the program's rounds grow with the number of files, not
# with its square: it was minutes).
big=$tmp/big
mkdir -p "$big"
awk -v d="$big" 'BEGIN { pad = sprintf("%0200d", 0)
	for (i = 0; i < 20000; i++) {
		f = sprintf("%s/s%05d-%s.ndjson", d, i, pad)
		if (i % 2000 == 1999)
			print "{\"type\":\"user\",\"message\":{\"content\":\"n" i "\"}}" >f
		else
			printf "" >f
		close(f)
	} }'
for sh in $shells; do
	cases=$((cases + 1))
	case $sh in
	dash) printf 'echo "$*" >>%s/conns\nexec dash -s\n' "$tmp" >"$tmp/local_ssh" ;;
	busybox) printf 'echo "$*" >>%s/conns\nPATH=%s exec %s/sh -s\n' "$tmp" "$tmp/bb" "$tmp/bb" >"$tmp/local_ssh" ;;
	esac
	: >"$tmp/conns"
	t0=$(date +%s)
	got=$(AGENTVIEW_SSH="sh $tmp/local_ssh" timeout 60 "$bin" --print --format json "here:$big" \
		2>"$tmp/err" | jq -r '.sessions[].file | capture("/s(?<n>[0-9]{5})-").n' | sort | tr '\n' ' ')
	t1=$(date +%s)
	[ "$got" = "01999 03999 05999 07999 09999 11999 13999 15999 17999 19999 " ] ||
		fail "big-$sh" "listed: ${got:-none} $(head -c 300 "$tmp/err")"
	# (its list in several parts is still the first program's: one
	# connection)
	n=$(grep -c ' sh -s$' "$tmp/conns")
	[ "$n" -eq 1 ] || fail "big-$sh" "$n connections for the first look: $(cut -c 1-80 "$tmp/conns")"
	echo "a remote folder of 20 000 files under $sh: its 10 sessions listed in $((t1 - t0)) s"
done
rm -rf "$big"

# The first look at a folder is one connection: the program, given no
# names yet, reads those of its first list in the same round (not one
# connection that lists, then another that reads).
cases=$((cases + 1))
printf 'echo "$*" >>%s/conns\nexec dash -s\n' "$tmp" >"$tmp/count_ssh"
: >"$tmp/conns"
AGENTVIEW_SSH="sh $tmp/count_ssh" "$bin" --print --format json "here:$b" 2>"$tmp/err" |
	jq -c '[.sessions[] | [.state, .session_id]] | sort' >"$tmp/remote.json"
cmp -s "$tmp/local.json" "$tmp/remote.json" ||
	fail first "a folder: $(cat "$tmp/remote.json") $(head -c 300 "$tmp/err")"
n=$(grep -c ' sh -s$' "$tmp/conns")
[ "$n" -eq 1 ] || fail first "$n connections for the first look at a folder: $(cat "$tmp/conns")"
echo "the first look at a folder: $n connection"

# A remote whose clock is wrong: its files' times are read by this clock
# (the program says the remote's, U). Two hours behind, a file written
# there just now is live here; two hours ahead, one written there an
# hour ago is an hour old here, not a session of the future.
for skew in -7200 7200; do
	cases=$((cases + 1))
	ck=$tmp/clock$skew
	mkdir -p "$ck/bin" "$ck/there"
	printf '#!/bin/sh
echo $(($(%s +%%s) + %s))
' "$(command -v date)" "$skew" >"$ck/bin/date"
	chmod +x "$ck/bin/date"
	printf 'PATH=%s:$PATH exec dash -s\n' "$ck/bin" >"$ck/ssh"
	{ init k0000001 clock; user "a clock $skew s off"; } >"$ck/there/k.ndjson"
	if [ "$skew" -lt 0 ]; then
		touch -d "@$(($(date +%s) + skew))" "$ck/there/k.ndjson"
		want=live
	else
		touch -d "@$(($(date +%s) + skew - 3600))" "$ck/there/k.ndjson"
		want=incomplete
	fi
	got=$(AGENTVIEW_SSH="sh $ck/ssh" "$bin" --print --format json "here:$ck/there" 2>"$ck/err" |
		jq -r '.sessions[].state')
	[ "$got" = "$want" ] || fail "clock$skew" "${got:-nothing} where $want is right: $(head -c 300 "$ck/err")"
	echo "a remote clock $skew s off: its session $got, as by this clock"
done

# The wait between rounds: inotifywait where the remote has it (woken by
# a change of the folders it reads), else sleep. A remote with only dash,
# ls, stat, tail, head, wc and a slow sleep (3 s, so that a wake-up by a
# change is told apart from a round's end), with and without inotifywait
# (a wrapper that logs how each of its waits ended: 0 a change, 2 the
# timeout): a line appended is followed with both, and with it, a
# change ended a wait.
iw=$(command -v inotifywait 2>/dev/null)
for with in no yes; do
	if [ "$with" = yes ] && [ -z "$iw" ]; then
		echo "run_remote: inotifywait not installed (Debian's inotify-tools): its wait is not checked"
		break
	fi
	cases=$((cases + 1))
	rb=$tmp/iw-$with
	mkdir -p "$rb/bin"
	for t in ls stat tail head wc; do
		ln -s "$(command -v "$t")" "$rb/bin/$t"
	done
	printf '#!/bin/sh\nexec %s 3\n' "$(command -v sleep)" >"$rb/bin/sleep"
	if [ "$with" = yes ]; then
		printf '#!/bin/sh\n%s "$@"\nr=$?\necho "$r" >>%s/waits\nexit "$r"\n' "$iw" "$rb" >"$rb/bin/inotifywait"
	fi
	chmod +x "$rb/bin/sleep" "$rb/bin/inotifywait" 2>/dev/null
	printf 'PATH=%s exec %s -s\n' "$rb/bin" "$(command -v dash)" >"$rb/ssh"
	# (in a folder of its own: only its changes end a wait)
	mkdir -p "$rb/there"
	{ init w0000001 wait; user "waits"; } >"$rb/there/w.ndjson"
	AGENTVIEW_SSH="sh $rb/ssh" "$bin" --print -f --format raw "here:$rb/there/w.ndjson" >"$rb/out" 2>"$rb/err" &
	pids="$pids $!"
	wait_for "$rb/out" '"waits"' || fail "wait-$with" "the file is not read: $(head -c 300 "$rb/err")"
	sleep 0.5
	: >"$rb/waits"
	t0=$(date +%s%N)
	line '{"type":"assistant","marker":"written"}' >>"$rb/there/w.ndjson"
	wait_for "$rb/out" '"written"' || fail "wait-$with" "the line is not followed: $(head -c 300 "$rb/err")"
	t1=$(date +%s%N)
	if [ "$with" = yes ]; then
		grep -qx 0 "$rb/waits" || fail "wait-yes" "no wait ended by a change: $(tr '\n' ' ' <"$rb/waits")"
	fi
	kill "$!" 2>/dev/null
	echo "the wait between rounds, inotifywait $with: a line followed in $(((t1 - t0) / 1000000)) ms"
done

# A quiet remote folder, followed: what the program starts and how often
# it wakes (its voluntary context switches: each wait for a process, or
# for its output, is one), over 6 s after its first round. With
# inotifywait, a quiet folder needs one look in 5 s: an inotifywait and,
# once it saw nothing, a stat (at most five wake-ups: the inotifywait's
# end, the stat's output and end, the subshell's); without, a sleep then
# one stat a second, and at most three wake-ups a round (the stat's
# output, its end, the wait).
for with in no yes; do
	if [ "$with" = yes ] && [ -z "$iw" ]; then
		break
	fi
	cases=$((cases + 1))
	qb=$tmp/quiet-$with
	mkdir -p "$qb/bin" "$qb/there"
	for t in ls stat tail head wc cat sleep inotifywait; do
		[ "$t" != inotifywait ] || [ "$with" = yes ] || continue
		printf '#!/bin/sh\necho %s >>%s/calls\nexec %s "$@"\n' "$t" "$qb" "$(command -v "$t")" >"$qb/bin/$t"
		chmod +x "$qb/bin/$t"
	done
	printf 'echo $$ >%s/pid\nPATH=%s exec %s -s\n' "$qb" "$qb/bin" "$(command -v dash)" >"$qb/ssh"
	: >"$qb/calls"
	for k in 1 2 3; do
		{ init "q000000$k" quiet; user "quiet $k"; } >"$qb/there/q$k.ndjson"
	done
	AGENTVIEW_SSH="sh $qb/ssh" "$bin" --print -f "here:$qb/there" >"$qb/out" 2>"$qb/err" &
	pids="$pids $!"
	# (its first round's one stat of all files)
	wait_for "$qb/calls" stat || fail "quiet-$with" "not read: $(head -c 300 "$qb/err")"
	sleep 1.5
	rp=$(cat "$qb/pid")
	c0=$(wc -l <"$qb/calls") w0=$(awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$rp/status")
	sleep 6
	c1=$(wc -l <"$qb/calls") w1=$(awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$rp/status")
	kill "$!" 2>/dev/null
	calls=$((c1 - c0)) wakes=$((w1 - w0))
	if [ "$with" = yes ]; then
		[ "$calls" -le 2 ] || fail quiet-yes "$calls processes in 6 quiet s: $(tail -n "$calls" "$qb/calls" | sort | uniq -c | tr '\n' ' ')"
		[ "$wakes" -le 5 ] || fail quiet-yes "$wakes wake-ups in 6 quiet s"
	else
		[ "$calls" -le 14 ] || fail quiet-no "$calls processes in 6 quiet s: $(tail -n "$calls" "$qb/calls" | sort | uniq -c | tr '\n' ' ')"
		[ "$wakes" -le 21 ] || fail quiet-no "$wakes wake-ups in 6 quiet s"
	fi
	echo "a quiet remote folder, inotifywait $with: $calls processes started and $wakes wake-ups in 6 s"
done

# A line written between a quiet round's look and the start of
# inotifywait's watch is no change inotifywait sees: the stand-in
# inotifywait writes one just before it starts watching (its first wait
# only). The round after the wait's 5 s looks all the same and sends it
# (the program skipped that look once: the line never came).
if [ -n "$iw" ]; then
	cases=$((cases + 1))
	rz=$tmp/race
	mkdir -p "$rz/bin" "$rz/there"
	for t in ls stat tail head wc cat sleep; do
		ln -s "$(command -v "$t")" "$rz/bin/$t"
	done
	line '{"type":"assistant","marker":"between"}' >"$rz/line"
	printf '#!/bin/sh
[ -e %s/raced ] || { : >%s/raced; cat %s/line >>%s/there/r.ndjson; }
exec %s "$@"
' \
		"$rz" "$rz" "$rz" "$rz" "$iw" >"$rz/bin/inotifywait"
	chmod +x "$rz/bin/inotifywait"
	printf 'PATH=%s exec %s -s\n' "$rz/bin" "$(command -v dash)" >"$rz/ssh"
	{ init z0000001 race; user "raced"; } >"$rz/there/r.ndjson"
	AGENTVIEW_SSH="sh $rz/ssh" "$bin" --print -f --format raw "here:$rz/there/r.ndjson" >"$rz/out" 2>"$rz/err" &
	pids="$pids $!"
	wait_for "$rz/out" '"raced"' || fail race "the file is not read: $(head -c 300 "$rz/err")"
	wait_for "$rz/out" '"between"' || fail race "a line written as the watch began is not followed: $(head -c 300 "$rz/err")"
	[ -e "$rz/raced" ] || fail race "the stand-in inotifywait never ran"
	kill "$!" 2>/dev/null
	echo "a line written between a round's look and inotifywait's watch: followed after its wait"
fi

# A remote's codex processes whose environment is strange (their own to
# set: nothing bounds it): a HOME longer than a frame's path may be is
# said as not read (the session its file's age's to judge), never a list
# the local side refuses, which broke the whole connection; a value with
# a newline in it names no variable of its own (here a HOME that would
# make the session the process's, before its real, other HOME). The
# remote is this machine's dash with a /proc made up
# (AGENTVIEW_REMOTE_PROC): one codex process, pid 4242.
cases=$((cases + 1))
ep=$tmp/envproc
mkdir -p "$ep/proc/self" "$ep/proc/4242" "$ep/state"
cp -R tests/stores/codex/headless/done "$ep/.codex"
ep_file=$(find "$ep/.codex/sessions" -name 'rollout-*.jsonl' | head -n 1)
ep_id=$(basename "$ep_file" .jsonl | sed 's/.*-\([0-9a-f]\{8\}\)-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{12\}$/\1/')
# (its turn open, its times now: a live process's session is running?)
cp "$ep_file" "$ep/keep"
head -n 6 "$ep/keep" |
	sed "s/\"timestamp\":\"[^\"]*\"/\"timestamp\":\"$(date -u +%Y-%m-%dT%H:%M:%S).000Z\"/" >"$ep_file"
echo '4242 (codex) S 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 777 0' >"$ep/proc/4242/stat"
cp "$ep/proc/4242/stat" "$ep/proc/self/stat"
echo codex >"$ep/proc/4242/comm"
printf '/usr/bin/codex\0' >"$ep/proc/4242/cmdline"
# (the remote's Codex root its HOME's: not the CODEX_HOME here)
printf 'exec env -u CODEX_HOME HOME="%s" XDG_STATE_HOME="%s" AGENTVIEW_REMOTE_PROC="%s" dash -s\n' \
	"$ep" "$ep/state" "$ep/proc" >"$ep/ssh"
# ep_state: the Codex session's STATE cell there into st, the exit in ep_rc.
ep_state() {
	CLAUDE_CONFIG_DIR=$tmp/nowhere COLUMNS=200 AGENTVIEW_SSH="sh $ep/ssh" \
		"$bin" --print --sources codex "here:" >"$ep/out" 2>"$ep/err"
	ep_rc=$?
	st=$(grep " $ep_id " "$ep/out" | sed 's/^[^ ]* \([^ ]*\) .*/\1/')
}
printf 'HOME=%s\0' "$ep" >"$ep/proc/4242/environ"
ep_state
[ "$st" = "running?" ] || fail env "a codex of that HOME: $st $(head -c 300 "$ep/err")"
printf 'HOME=%s%s\0' "$ep" "$(head -c 5000 /dev/zero | tr '\0' /)" >"$ep/proc/4242/environ"
ep_state
[ "$ep_rc" -eq 0 ] && [ "$st" = "running?" ] ||
	fail env "a HOME of 5000 bytes: exit $ep_rc, $st $(head -c 300 "$ep/err")"
printf 'X=a\nHOME=%s\0HOME=%s/elsewhere\0' "$ep" "$ep" >"$ep/proc/4242/environ"
ep_state
[ "$ep_rc" -eq 0 ] && [ "$st" = incomplete ] ||
	fail env "a newline before HOME= in a value: exit $ep_rc, $st $(head -c 300 "$ep/err")"
echo "a remote codex's environment: a long HOME not read, a newline in a value no variable"
# The remote's own CODEX_HOME longer than a frame's path may be (Codex's
# root there): said as not read, never a list the local side refuses
# (which broke the whole connection: no row of any store); its codex
# process may be the session's (running?, as one not read).
cases=$((cases + 1))
printf 'exec env CODEX_HOME="%s" HOME="%s" XDG_STATE_HOME="%s" AGENTVIEW_REMOTE_PROC="%s" dash -s\n' \
	"$ep/$(head -c 5000 /dev/zero | tr '\0' /).codex" "$ep" "$ep/state" "$ep/proc" >"$ep/ssh"
mkdir -p "$ep/state/agentview/sessions"
{ init k0000001 kept; user "kept there"; } >"$ep/state/agentview/sessions/k.ndjson"
CLAUDE_CONFIG_DIR=$tmp/nowhere COLUMNS=200 AGENTVIEW_SSH="sh $ep/ssh" \
	"$bin" --print --sources codex,kept "here:" >"$ep/out" 2>"$ep/err"
ep_rc=$?
[ "$ep_rc" -eq 0 ] && grep -q "kept there" "$ep/out" && ! grep -q "not as said" "$ep/err" ||
	fail env "a CODEX_HOME of 5000 bytes: exit $ep_rc, $(head -c 300 "$ep/out") $(head -c 300 "$ep/err")"
echo "a remote's CODEX_HOME of 5000 bytes: said as not read, its other sessions listed"

# A quiet HOST: (the remote's own sessions) among processes of the names
# that count (two stand-ins named node, one running gemini): each one's
# argv read once (one tr), a gemini one's folder once (one readlink), never
# once a round; here through this machine's dash (AGENTVIEW_SSH).
cases=$((cases + 1))
hq=$tmp/quiet-host
mkdir -p "$hq/bin" "$hq/home/.gemini/tmp/p/chats" "$hq/nb"
for t in ls stat tail head wc cat sleep tr readlink; do
	printf '#!/bin/sh\nprintf "%%s\\n" "%s $(%s /proc/$$/fd/0) $*" >>%s/calls\nexec %s "$@"\n' \
		"$t" "$(command -v readlink)" "$hq" "$(command -v "$t")" >"$hq/bin/$t"
	chmod +x "$hq/bin/$t"
done
printf 'PATH=%s HOME=%s exec %s -s\n' "$hq/bin" "$hq/home" "$(command -v dash)" >"$hq/ssh"
printf '{}\n' >"$hq/home/.gemini/tmp/p/chats/session-1.jsonl"
ln -s "$(command -v tail)" "$hq/nb/node"
: >"$hq/nb/gemini"
: >"$hq/nb/other.js"
up node "$hq/nb/node" "$hq/nb/gemini" -f
hq1=$up_pid
up node "$hq/nb/node" "$hq/nb/other.js" -f
hq2=$up_pid
: >"$hq/calls"
AGENTVIEW_SSH="sh $hq/ssh" "$bin" --print -f "here:" >"$hq/out" 2>"$hq/err" &
hqv=$!
pids="$pids $hqv"
wait_for "$hq/calls" "/proc/$hq1/cwd" || fail quiet-host "no folder read: $(head -c 300 "$hq/err")"
sleep 5
kill "$hqv" "$hq1" "$hq2" 2>/dev/null
[ "$(grep -c '^sleep ' "$hq/calls")" -ge 3 ] || fail quiet-host "not 3 rounds: $(head -c 300 "$hq/err")"
for p in $hq1 $hq2; do
	grep -q "^tr /proc/$p/cmdline " "$hq/calls" || fail quiet-host "the argv of $p not read"
done
[ -z "$(grep '^tr \|^readlink ' "$hq/calls" | sort | uniq -d)" ] ||
	fail quiet-host "read again: $(grep '^tr \|^readlink ' "$hq/calls" | sort | uniq -d | head -n 3)"
grep -q "^readlink .* /proc/$hq2/" "$hq/calls" && fail quiet-host "the folder of a node not gemini read"
echo "a quiet HOST: among node processes: $(grep -c '^tr ' "$hq/calls") argv and $(grep -c '^readlink ' "$hq/calls") folder read in 6 s, each once"

# The program's memory of the processes it looked at (not read again
# while they live) is dropped when they are gone: a remote where short
# processes come and go for days does not grow its shell without end.
# Its variables counted after each look (the program, as sent, given a
# line that counts them, here only) while 20 gemini processes of a
# made-up /proc live, then once they are gone.
cases=$((cases + 1))
pc=$tmp/proc-cache
mkdir -p "$pc/proc/self" "$pc/w" "$pc/state/agentview/sessions"
echo '1 (sh) S 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 777 0' >"$pc/proc/self/stat"
{ init c0000001 kept; user "kept there"; } >"$pc/state/agentview/sessions/k.ndjson"
i=100
while [ "$i" -lt 120 ]; do
	mkdir "$pc/proc/$i"
	echo "$i (gemini) S 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 9$i 0" >"$pc/proc/$i/stat"
	echo gemini >"$pc/proc/$i/comm"
	printf 'gemini\0' >"$pc/proc/$i/cmdline"
	ln -s "$pc/w" "$pc/proc/$i/cwd"
	i=$((i + 1))
done
cat >"$pc/ssh" <<EOF
sed 's/^ \[ \$m != s \] || cx\$/ [ \$m != s ] || { cx; set | grep -c "^c[gsv][0-9]" >>"\$VARS"; }/' |
	env HOME="$pc" XDG_STATE_HOME="$pc/state" AGENTVIEW_REMOTE_PROC="$pc/proc" VARS="$pc/vars" dash -s
EOF
: >"$pc/vars"
# pc_vars N: until the last count is N (10 s at most).
pc_vars() {
	i=0
	while [ "$(tail -n 1 "$pc/vars")" != "$1" ] && [ "$i" -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	[ "$(tail -n 1 "$pc/vars")" = "$1" ]
}
CLAUDE_CONFIG_DIR=$tmp/nowhere AGENTVIEW_SSH="sh $pc/ssh" "$bin" --print -f "here:" >"$pc/out" 2>"$pc/err" &
pcv=$!
pids="$pids $pcv"
pc_vars 60 || fail proc-cache "20 processes, not 3 variables each: $(tail -n 3 "$pc/vars" | tr '\n' ' ') $(head -c 300 "$pc/err")"
rm -rf "$pc/proc/1"[01][0-9]
pc_vars 0 || fail proc-cache "20 processes gone, their variables kept: $(tail -n 3 "$pc/vars" | tr '\n' ' ') $(head -c 300 "$pc/err")"
kill "$pcv" 2>/dev/null
echo "the program's memory of 20 processes: $(sort -n "$pc/vars" | tail -n 1) variables, $(tail -n 1 "$pc/vars") once they are gone"

# Where the remote has no readlink (busybox without it, old systems), a
# gemini process's folder is known all the same (cd into /proc/PID/cwd
# in a subshell, then pwd -P: builtins): the Gemini session judged as
# with readlink. The remote is dash with ls, stat, tail, head, wc, cat,
# sleep and tr only, over a made-up /proc: one gemini process whose
# folder is the project's (a newline in its name), then in another.
cases=$((cases + 1))
rl=$tmp/no-readlink
mkdir -p "$rl/proc/self" "$rl/proc/4343" "$rl/bin" "$rl/other" "$rl/pro
j 1"
for t in ls stat tail head wc cat sleep tr; do
	ln -s "$(command -v "$t")" "$rl/bin/$t"
done
cp -R tests/stores/gemini/headless/running/.gemini "$rl/.gemini"
rl_file=$(find "$rl/.gemini/tmp" -name 'session-*.jsonl' | head -n 1)
rl_id=$(jq -r 'select(.sessionId != null) | .sessionId' "$rl_file" | head -n 1)
printf '%s' "$rl/pro
j 1" >"$(dirname "$(dirname "$rl_file")")/.project_root"
touch "$rl_file"
echo '1 (sh) S 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 777 0' >"$rl/proc/self/stat"
echo '4343 (gemini) S 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 888 0' >"$rl/proc/4343/stat"
echo gemini >"$rl/proc/4343/comm"
printf 'gemini\0' >"$rl/proc/4343/cmdline"
# rl_state PATH: the Gemini session's state there, the remote's PATH
# that one.
rl_state() {
	printf 'exec env -u GEMINI_CLI_HOME PATH="%s" HOME="%s" AGENTVIEW_REMOTE_PROC="%s" %s -s\n' \
		"$1" "$rl" "$rl/proc" "$(command -v dash)" >"$rl/ssh"
	AGENTVIEW_SSH="sh $rl/ssh" "$bin" --print --format json --sources gemini "here:" 2>"$rl/err" |
		jq -r --arg s "$rl_id" '.sessions[] | select(.session_id == $s) | .state'
}
ln -s "$rl/other" "$rl/proc/4343/cwd"
rl_none=$(rl_state "$rl/bin")
rm "$rl/proc/4343/cwd"
ln -s "$rl/pro
j 1" "$rl/proc/4343/cwd"
rl_with=$(rl_state "$rl/bin:$PATH")
rl_without=$(rl_state "$rl/bin")
[ -n "$rl_none" ] && [ "$rl_with" != "$rl_none" ] && [ "$rl_without" = "$rl_with" ] ||
	fail no-readlink "in its project: $rl_without without readlink, $rl_with with it, $rl_none in another folder $(head -c 300 "$rl/err")"
echo "a remote without readlink: a gemini in its project's folder $rl_without, as with readlink; in another $rl_none"

if [ ! -x "$sshd" ] || ! command -v ssh >/dev/null 2>&1 || ! command -v ssh-keygen >/dev/null 2>&1; then
	echo "run_remote: the sshd's cases skipped: no $sshd or ssh (Debian's openssh-server and openssh-client)"
	echo "run_remote: $cases cases, $fails failures"
	[ "$fails" -eq 0 ]
	exit
fi

# --- the sshd ----------------------------------------------------------------------

. ./tests/lib/sshd.sh
sshd_setup "$tmp" "SetEnv XDG_STATE_HOME=$tmp/remote-state HOME=$tmp/remote-home CLAUDE_CONFIG_DIR=$tmp/remote-claude PATH=$tmp/rbin:/usr/local/bin:/usr/bin:/bin" || exit 1
if ! start_sshd; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "run_remote: the sshd's cases skipped: sshd cannot run here as $me"
		echo "run_remote: $cases cases, $fails failures"
		[ "$fails" -eq 0 ]
		exit
	fi
	exit 1
fi

# The sessions, in a folder whose name is hostile too.
d="$tmp/runs 'q' \$(touch $tmp/pwned-dir)"
mkdir -p "$d"
{ init r0000001 alpha; user "fix the tests"; started c1 make; result false 245000 "the tests pass"; } >"$d/run.ndjson"
hostile="-a b'c\"\$(touch $tmp/pwned-file) \`id\`.ndjson"
hostile=$(printf '%s' "$hostile" | tr / _)
{ init h0000001 beta; user "hostile name"; result false 1000 "done"; } >"$d/$hostile"

# --- HOST:FILE printed ---------------------------------------------------------------

cases=$((cases + 1))
"$bin" --print "$d/run.ndjson" >"$tmp/local.txt" 2>&1
"$bin" --print "av-test:$d/run.ndjson" >"$tmp/remote.txt" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail print "exit $rc: $(head -c 300 "$tmp/err")"
cmp -s "$tmp/local.txt" "$tmp/remote.txt" ||
	fail print "not the local print: $(diff "$tmp/local.txt" "$tmp/remote.txt" | head -n 5)"
grep -q "== ok · 4m05s" "$tmp/remote.txt" || fail print "no result in $(head -c 300 "$tmp/remote.txt")"
"$bin" --print --format raw "ssh://$me@av-test/$d/run.ndjson" >"$tmp/remote.raw" 2>"$tmp/err"
cmp -s "$d/run.ndjson" "$tmp/remote.raw" || fail print "ssh://: raw is not the file: $(head -c 300 "$tmp/err")"
"$bin" --print "av-test:$d/$hostile" >"$tmp/remote.txt" 2>"$tmp/err"
grep -q "hostile name" "$tmp/remote.txt" || fail hostile "the hostile file: $(head -c 300 "$tmp/err")"
echo "HOST:FILE --print: the local print byte for byte, ssh:// URL, a hostile name"

# --- HOST:DIR and HOST: listed -------------------------------------------------------

{ init l0000001 local; user "a local session"; result false 1000 "ok"; } >"$tmp/local.ndjson"

cases=$((cases + 1))
"$bin" --print "av-test:$d" "$tmp/local.ndjson" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail list "exit $rc: $(head -c 300 "$tmp/err")"
grep -q "fix the tests" "$tmp/out" || fail list "run.ndjson's row: $(head -c 400 "$tmp/out")"
grep -q "hostile name" "$tmp/out" || fail list "the hostile file's row: $(head -c 400 "$tmp/out")"
grep -q "a local session" "$tmp/out" || fail list "the local file's row: $(head -c 400 "$tmp/out")"
# HOST: is the remote user's kept sessions: its XDG_STATE_HOME is the
# sshd's SetEnv, another folder than this side's.
mkdir -p "$tmp/remote-state/agentview/sessions"
{ init k0000001 kept; user "a kept session"; result false 1000 "ok"; } \
	>"$tmp/remote-state/agentview/sessions/kept.ndjson"
"$bin" --print "av-test:" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail kept "exit $rc: $(head -c 300 "$tmp/err")"
grep -q "a kept session" "$tmp/out" || fail kept "HOST: does not list the kept session: $(cat "$tmp/out")"
# HOST: is the agents' stores there too, each found as the remote's own
# shell finds it (CLAUDE_CONFIG_DIR and HOME are the sshd's SetEnv; ours
# point elsewhere): the rows `agentview` alone lists on that machine.
# Real stores (tests/stores), an old-style sub-agent file and a link
# that the stores' patterns leave out; nothing in them changes.
rh=$tmp/remote-home
mkdir -p "$rh"
cp -a tests/stores/claude/subagents/done "$tmp/remote-claude"
cp -a tests/stores/codex/headless/done "$rh/.codex"
cp -a tests/stores/gemini/headless/done/.gemini "$rh/.gemini"
cp -a tests/stores/copilot/headless/done "$rh/.copilot"
for p in "$tmp/remote-claude"/projects/*; do
	{ init a0000001 sub; user "an old sub-agent file"; } >"$p/agent-a0000001.jsonl"
	ln -s "$d/run.ndjson" "$p/linked.jsonl"
done
(cd "$tmp" && find remote-claude remote-home -exec ls -ld --full-time {} + &&
	find remote-claude remote-home -type f -exec cksum {} +) >"$tmp/stores.before"
CLAUDE_CONFIG_DIR=$tmp/nowhere CODEX_HOME=$tmp/nowhere "$bin" --print --format json "av-test:" \
	>"$tmp/out.json" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail stores "exit $rc: $(head -c 300 "$tmp/err")"
jq -c '[.sessions[] | [.state, .agent, .session_id]] | sort' "$tmp/out.json" >"$tmp/remote.json"
env HOME="$rh" CLAUDE_CONFIG_DIR="$tmp/remote-claude" XDG_STATE_HOME="$tmp/remote-state" \
	"$bin" --print --format json | jq -c '[.sessions[] | [.state, .agent, .session_id]] | sort' >"$tmp/local.json"
cmp -s "$tmp/local.json" "$tmp/remote.json" ||
	fail stores "not the rows listed there: $(cat "$tmp/remote.json") vs $(cat "$tmp/local.json")"
for a in claude codex gemini copilot kept; do
	jq -r '.sessions[].file' "$tmp/out.json" | grep -q "^av-test:$a/" ||
		fail stores "no row of $a: $(jq -r '.sessions[].file' "$tmp/out.json")"
done
grep -q "an old sub-agent file\|linked" "$tmp/out.json" && fail stores "a file the patterns leave out is listed"
# --sources (or AGENTVIEW_SOURCES) chooses among a remote's sources too.
AGENTVIEW_SOURCES=codex "$bin" --print --format json --sources claude,kept "av-test:" 2>"$tmp/err" |
	jq -r '.sessions[].file' | sed 's|/.*||' | sort -u | tr '\n' ' ' >"$tmp/out"
[ "$(cat "$tmp/out")" = "av-test:claude av-test:kept " ] || fail stores "--sources: $(cat "$tmp/out") $(cat "$tmp/err")"
(cd "$tmp" && find remote-claude remote-home -exec ls -ld --full-time {} + &&
	find remote-claude remote-home -type f -exec cksum {} +) >"$tmp/stores.after"
cmp -s "$tmp/stores.before" "$tmp/stores.after" ||
	fail stores "the stores changed: $(diff "$tmp/stores.before" "$tmp/stores.after" | head -n 5)"
# A Claude session whose process lives there is running, judged there:
# its sessions/<pid>.json names a live process (a stand-in, its start
# time as /proc says it) though its file is old and this side's Claude
# folder is elsewhere; once that process ends it is not.
cases=$((cases + 1))
sleep 300 &
live_pid=$!
pids="$pids $live_pid"
live_start=$(sed 's/.*) //' "/proc/$live_pid/stat" | cut -d' ' -f20)
sid=3ed0aa9c-f0ca-4757-92a0-fb81b88fcea2
mkdir -p "$tmp/remote-claude/sessions"
printf '{"pid":%d,"sessionId":"%s","status":"busy","procStart":"%s"}\n' "$live_pid" "$sid" "$live_start" \
	>"$tmp/remote-claude/sessions/$live_pid.json"
touch -d '2026-01-05 10:00' "$tmp/remote-claude"/projects/*/"$sid.jsonl"
live_state() {
	CLAUDE_CONFIG_DIR=$tmp/nowhere "$bin" --print --format json "av-test:" 2>"$tmp/err" |
		jq -r --arg s "$sid" '.sessions[] | select(.session_id == $s) | .state'
}
st=$(live_state)
[ "$st" = live ] || fail live "a live process's session there: $st $(head -c 300 "$tmp/err")"
kill "$live_pid"
wait "$live_pid" 2>/dev/null
st=$(live_state)
[ -n "$st" ] && [ "$st" != live ] || fail live "its process ended: $st"
rm -r "$tmp/remote-claude/sessions"
echo "HOST: a Claude session's process judged there: running while it lives ($live_pid), not after"

# Codex there: a session is judged by the processes named codex there
# (their comm), counted only when their CODEX_HOME (else HOME/.codex) is
# the store's root, as here (its thread index is not read there: a
# codex's session is its file's age's to judge, a guess). Its rollout cut
# before its turn ends, its times now; the stand-in is sleep under the
# name codex, killed by its pid.
cases=$((cases + 1))
cx_file=$(find "$rh/.codex/sessions" -name 'rollout-*.jsonl' | head -n 1)
cx_id=$(basename "$cx_file" .jsonl | sed 's/.*-\([0-9a-f]\{8\}\)-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{12\}$/\1/')
cp -p "$cx_file" "$tmp/rollout.keep"
now=$(date -u +%Y-%m-%dT%H:%M:%S)
head -n 6 "$tmp/rollout.keep" | sed "s/\"timestamp\":\"[^\"]*\"/\"timestamp\":\"$now.000Z\"/" >"$cx_file"
mkdir -p "$tmp/cxbin"
ln -s "$(command -v sleep)" "$tmp/cxbin/codex"
# row_state [ENV...]: the STATE cell of the Codex session's row there.
row_state() {
	env "$@" CLAUDE_CONFIG_DIR=$tmp/nowhere CODEX_HOME=$tmp/nowhere COLUMNS=200 "$bin" --print "av-test:" \
		2>"$tmp/err" | grep " $cx_id " | sed 's/^[^ ]* \([^ ]*\) .*/\1/'
}
# codex_up ENV...: a stand-in codex with that environment; its pid in cx_pid.
codex_up() {
	up codex env -u CODEX_HOME "$@" "$tmp/cxbin/codex" 300
	cx_pid=$up_pid
}
st=$(row_state)
[ "$st" = incomplete ] || fail codex "no codex process there: $st $(head -c 300 "$tmp/err")"
codex_up HOME="$rh"
st=$(row_state)
[ "$st" = "running?" ] || fail codex "a codex of that HOME there: $st $(head -c 300 "$tmp/err")"
kill "$cx_pid"
codex_up HOME="$tmp/elsewhere" CODEX_HOME="$rh//.codex/"
st=$(row_state)
[ "$st" = "running?" ] || fail codex "a codex of that CODEX_HOME there: $st $(head -c 300 "$tmp/err")"
kill "$cx_pid"
codex_up HOME="$tmp/elsewhere"
st=$(row_state)
[ "$st" = incomplete ] || fail codex "only a codex of another HOME there: $st $(head -c 300 "$tmp/err")"
kill "$cx_pid"
echo "HOST: a Codex session judged by the codex processes there: of its root, running?; of another, none: not"

# Gemini there: a session is judged by the gemini processes there (node
# running gemini: comm node, argv's first two naming gemini, as store.c's
# rule says) whose folder is the one its project's .project_root names,
# mirrored beside its chats: one there, its file's age's guess; none, or one in another
# folder, or a node running something else in it: not; each as the same
# store read here says with the same processes. The project's
# folder holds a newline and what looks like a record (sent by its length).
# The stand-in is tail under the name node (tail -f of a file named
# gemini), killed by its pid.
cases=$((cases + 1))
gm_file=$(find "$rh/.gemini/tmp" -name 'session-*.jsonl' | head -n 1)
gm_id=$(jq -r 'select(.sessionId != null) | .sessionId' "$gm_file" | head -n 1)
gm_root=$(dirname "$(dirname "$gm_file")")/.project_root
cp -p "$gm_root" "$tmp/project_root.keep"
gproj="$tmp/gem
g 1 1 1"
mkdir -p "$gproj" "$tmp/gmbin" "$tmp/gother"
printf '%s' "$gproj" >"$gm_root"
ln -s "$(command -v tail)" "$tmp/gmbin/node"
: >"$tmp/gmbin/gemini"
: >"$tmp/gmbin/other.js"
touch "$gm_file"
# gm_state: the state of the Gemini session's row there; gm_here: the
# same store read here (the same rule, its processes this machine's).
gm_state() {
	"$bin" --print --format json "av-test:" 2>"$tmp/err" |
		jq -r --arg s "$gm_id" '.sessions[] | select(.session_id == $s) | .state'
}
gm_here() {
	env -u GEMINI_CLI_HOME HOME="$rh" "$bin" --print --format json --sources gemini 2>/dev/null |
		jq -r --arg s "$gm_id" '.sessions[] | select(.session_id == $s) | .state'
}
# node_up DIR SCRIPT: a stand-in node running SCRIPT in DIR; its pid in gm_pid.
node_up() {
	up node sh -c 'cd "$1" && exec "$2" "$3" -f' sh "$1" "$tmp/gmbin/node" "$2"
	gm_pid=$up_pid
}
st_none=$(gm_state)
[ -n "$st_none" ] && [ "$st_none" = "$(gm_here)" ] ||
	fail gemini "no gemini process there: $st_none, here $(gm_here) $(head -c 300 "$tmp/err")"
node_up "$gproj" "$tmp/gmbin/gemini"
st=$(gm_state)
[ "$st" != "$st_none" ] && [ "$st" = "$(gm_here)" ] ||
	fail gemini "a gemini in its project's folder there: $st, none $st_none, here $(gm_here) $(head -c 300 "$tmp/err")"
kill "$gm_pid"
wait "$gm_pid" 2>/dev/null
node_up "$tmp/gother" "$tmp/gmbin/gemini"
st=$(gm_state)
[ "$st" = "$st_none" ] || fail gemini "only a gemini in another folder there: $st $(head -c 300 "$tmp/err")"
kill "$gm_pid"
wait "$gm_pid" 2>/dev/null
node_up "$gproj" "$tmp/gmbin/other.js"
st=$(gm_state)
[ "$st" = "$st_none" ] || fail gemini "a node running another script there: $st $(head -c 300 "$tmp/err")"
kill "$gm_pid"
wait "$gm_pid" 2>/dev/null
cp -p "$tmp/project_root.keep" "$gm_root"
echo "HOST: a Gemini session judged by the gemini processes there as here: in its project's folder or not"

# The processes that count are the same there and here (store.c's names,
# then their argv): node running Codex's npm script (which starts its
# binary, named codex) counts; sleep run under the name codex (exec -a:
# its name still sleep) does not. The Codex session's row there is the
# row here, with the same process.
cases=$((cases + 1))
mkdir -p "$tmp/npm/@openai/codex/bin"
: >"$tmp/npm/@openai/codex/bin/codex.js"
# cx_here: the same STATE cell of the store read here.
cx_here() {
	env -u CODEX_HOME HOME="$rh" CLAUDE_CONFIG_DIR=$tmp/nowhere COLUMNS=200 "$bin" --print \
		--sources codex 2>/dev/null | grep " $cx_id " | sed 's/^[^ ]* \([^ ]*\) .*/\1/'
}
up node env -u CODEX_HOME HOME="$rh" "$tmp/gmbin/node" "$tmp/npm/@openai/codex/bin/codex.js" -f
cx_pid=$up_pid
st=$(row_state)
[ "$st" = "running?" ] && [ "$(cx_here)" = "$st" ] ||
	fail names "node running Codex's script: $st there, $(cx_here) here $(head -c 300 "$tmp/err")"
kill "$cx_pid"
wait "$cx_pid" 2>/dev/null
up sleep env -u CODEX_HOME HOME="$rh" bash -c 'exec -a codex sleep 300'
cx_pid=$up_pid
st=$(row_state)
[ "$st" = incomplete ] && [ "$(cx_here)" = "$st" ] ||
	fail names "sleep run as codex: $st there, $(cx_here) here $(head -c 300 "$tmp/err")"
kill "$cx_pid"
wait "$cx_pid" 2>/dev/null
echo "HOST: the processes that count the same there and here: node running Codex's script, not sleep named codex"

# Cursor there: a transcript is judged by the cursor-agent processes
# there (here a stand-in node running a script of a cursor-agent folder)
# whose folder, dashed, is its project's name, as the same store read
# here judges it: one in it, the file's age's guess; none: not running.
cases=$((cases + 1))
cproj="$tmp/cursor proj"
mkdir -p "$cproj" "$tmp/cabin/cursor-agent" "$rh/.cursor/projects"
: >"$tmp/cabin/cursor-agent/index.js"
dashed=$(printf '%s' "$cproj" | LC_ALL=C sed 's/[^A-Za-z0-9][^A-Za-z0-9]*/-/g; s/^-//')
cp -a tests/stores/cursor/running/projects/home-u-proj "$rh/.cursor/projects/$dashed"
find "$rh/.cursor" -type f -exec touch {} +
# cu_state: the states of Cursor's rows there; cu_here: here.
cu_state() {
	"$bin" --print --format json "av-test:" 2>"$tmp/err" |
		jq -r '[.sessions[] | select(.file | test("cursor/projects/")) | .state] | join(",")'
}
cu_here() {
	env HOME="$rh" "$bin" --print --format json --sources cursor 2>/dev/null |
		jq -r '[.sessions[] | select(.file | test("cursor/projects/")) | .state] | join(",")'
}
st_none=$(cu_state)
[ -n "$st_none" ] && [ "$st_none" = "$(cu_here)" ] ||
	fail cursor "no cursor-agent there: $st_none, here $(cu_here) $(head -c 300 "$tmp/err")"
up node sh -c 'cd "$1" && exec "$2" "$3" -f' sh "$cproj" "$tmp/gmbin/node" "$tmp/cabin/cursor-agent/index.js"
st=$(cu_state)
[ "$st" != "$st_none" ] && [ "$st" = "$(cu_here)" ] ||
	fail cursor "a cursor-agent in its project there: $st, none $st_none, here $(cu_here) $(head -c 300 "$tmp/err")"
kill "$up_pid"
wait "$up_pid" 2>/dev/null
rm -r "$rh/.cursor"
echo "HOST: a Cursor transcript judged by the cursor-agent processes there as here: $st_none, then $st"

# A remote without /proc (macOS, BSD: here its path made another by the
# program's AGENTVIEW_REMOTE_PROC): nothing known of its processes, so a
# Claude session whose sessions/ folder names no live process is a guess its
# file's age makes (running?), never not running for that; with /proc,
# not running. The remote is this machine's sh (AGENTVIEW_SSH).
cases=$((cases + 1))
cl_file=$(find "$tmp/remote-claude/projects" -name "$sid.jsonl")
cp -p "$cl_file" "$tmp/claude.keep"
head -n 3 "$tmp/claude.keep" | sed "s/\"timestamp\":\"[^\"]*\"/\"timestamp\":\"$now.000Z\"/g" >"$cl_file"
# (a file its dead process left: sessions/ there, and no live pid in it)
mkdir -p "$tmp/remote-claude/sessions"
printf '{"pid":%d,"sessionId":"%s","status":"busy"}\n' "$live_pid" "$sid" \
	>"$tmp/remote-claude/sessions/$live_pid.json"
printf 'exec env HOME="%s" CLAUDE_CONFIG_DIR="%s" XDG_STATE_HOME="%s" AGENTVIEW_REMOTE_PROC="$PROC" sh -s\n' \
	"$rh" "$tmp/remote-claude" "$tmp/remote-state" >"$tmp/proc_ssh"
# cl_state PROC: the Claude session's STATE cell, the remote's /proc at PROC.
cl_state() {
	PROC=$1 AGENTVIEW_SSH="sh $tmp/proc_ssh" CLAUDE_CONFIG_DIR=$tmp/nowhere COLUMNS=200 \
		"$bin" --print "here:" 2>"$tmp/err" | grep " ${sid%%-*} " | sed 's/^[^ ]* \([^ ]*\) .*/\1/'
}
st=$(cl_state /proc)
[ -n "$st" ] && [ "$st" != "running?" ] && [ "$st" != running ] || fail noproc "with /proc: $st $(head -c 300 "$tmp/err")"
st=$(cl_state "$tmp/noproc")
[ "$st" = "running?" ] || fail noproc "without /proc: $st $(head -c 300 "$tmp/err")"
rm -r "$tmp/remote-claude/sessions"
cp -p "$tmp/claude.keep" "$cl_file"
cp -p "$tmp/rollout.keep" "$cx_file"
echo "HOST: a remote without /proc: its stores' sessions a guess by their age, never not running for that"

# The same rows as the folder read here: states from the files' times too.
"$bin" --print --format json "av-test:$d" | jq -c '[.sessions[] | [.state, .session_id]] | sort' >"$tmp/remote.json"
"$bin" --print --format json "$d" | jq -c '[.sessions[] | [.state, .session_id]] | sort' >"$tmp/local.json"
cmp -s "$tmp/local.json" "$tmp/remote.json" ||
	fail list "not the local rows: $(cat "$tmp/remote.json") vs $(cat "$tmp/local.json")"
# Files are named as typed in JSON, never by agentview's private copies.
"$bin" --print --format json "av-test:$d" "$tmp/local.ndjson" | jq -r '.sessions[].file' | sort >"$tmp/out"
printf '%s\n' "av-test:$d/$hostile" "av-test:$d/run.ndjson" "$tmp/local.ndjson" | sort >"$tmp/want"
cmp -s "$tmp/want" "$tmp/out" || fail list "JSON files: $(cat "$tmp/out")"
COLUMNS=120 "$bin" --print "av-test:$d" "$tmp/local.ndjson" >"$tmp/out"
grep -q "^STATE  *HOST " "$tmp/out" || fail list "no HOST column: $(head -n 1 "$tmp/out")"
grep -q "^✓ done  *av-test " "$tmp/out" || fail list "no row says av-test: $(cat "$tmp/out")"
grep -q "^✓ done  *local " "$tmp/out" || fail list "no row says local: $(cat "$tmp/out")"
"$bin" --status-line "$d" >"$tmp/local.line"
"$bin" --status-line "av-test:$d" >"$tmp/remote.line" 2>"$tmp/err"
cmp -s "$tmp/local.line" "$tmp/remote.line" ||
	fail list "--status-line: $(cat "$tmp/remote.line") vs $(cat "$tmp/local.line")"
COLUMNS=120 "$bin" --print "$d" >"$tmp/out"
grep -q "HOST" "$tmp/out" && fail list "a HOST column with no remote source"
echo "HOST:DIR listed beside a local file, as the folder here, with a HOST column; --status-line; HOST: the kept sessions and the agents' stores, read only"

# --- refused, unreachable, a key refused ---------------------------------------------

cases=$((cases + 1))
"$bin" --print "ssh://-oProxyCommand=touch_$tmp/pwned-proxy" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail refused "exit $rc"
grep -q "refused as a host: it starts with '-'" "$tmp/err" || fail refused "said: $(cat "$tmp/err")"
"$bin" --print 'a$(touch x):/tmp' >"$tmp/out" 2>"$tmp/err"
grep -q "refused as a host: only letters" "$tmp/err" || fail refused "said: $(cat "$tmp/err")"
"$bin" --print "av-bad:$d" "$d/run.ndjson" "$tmp/local.ndjson" >"$tmp/out" 2>"$tmp/err"
grep -q "ssh needs a password for av-bad: run ssh av-bad once, or use a key" "$tmp/err" ||
	fail refused "a refused key: $(cat "$tmp/err")"
grep -q "fix the tests" "$tmp/out" || fail refused "the local source beside it: $(head -c 300 "$tmp/out")"
"$bin" --print "no-such-host.invalid:/tmp" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || fail unreachable "exit $rc"
grep -q "no-such-host.invalid: cannot connect: " "$tmp/err" || fail unreachable "said: $(cat "$tmp/err")"
"$bin" --print "av-test:$tmp/nothing-here" >"$tmp/out" 2>"$tmp/err"
grep -q "no such file or folder" "$tmp/err" || fail missing "said: $(cat "$tmp/err")"
echo "refused hosts, a refused key beside a local source, an unknown host, a missing path: said"

# --- followed, through an sshd stopped and started again -----------------------------

cases=$((cases + 1))
g=$d/grow.ndjson
{ init g0000001 grow; user "grow"; } >"$g"
"$bin" --print -f "av-test:$g" >"$tmp/follow" 2>"$tmp/follow.err" &
pids="$pids $!"
expect follow "$tmp/follow" "grow"
user "line-one" >>"$g"
expect follow "$tmp/follow" "line-one"
stop_sshd
expect reconnect "$tmp/follow.err" "av-test: reconnecting (1)"
user "line-two-written-while-down" >>"$g"
user "line-three-written-while-down" >>"$g"
start_sshd || fail reconnect "sshd did not start again"
expect reconnect "$tmp/follow" "line-three-written-while-down"
user "line-four" >>"$g"
expect reconnect "$tmp/follow" "line-four"
for w in line-one line-two-written-while-down line-three-written-while-down line-four; do
	n=$(grep -c -- "$w" "$tmp/follow")
	[ "$n" -eq 1 ] || fail reconnect "$w shown $n times"
done
# What the mirror holds is the file, byte for byte: printed again whole.
"$bin" --print --format raw "av-test:$g" >"$tmp/raw" 2>/dev/null
cmp -s "$g" "$tmp/raw" || fail reconnect "the file read again differs"
echo "-f over ssh: lines appear; sshd stopped and started: reconnected, nothing lost or doubled"

cases=$((cases + 1))
: >"$g"
{ init g0000002 again; user "after-the-truncation"; } >>"$g"
expect truncated "$tmp/follow" "after-the-truncation"
n=$(grep -c -- "after-the-truncation" "$tmp/follow")
[ "$n" -eq 1 ] || fail truncated "shown $n times"
echo "-f over ssh: a file truncated remotely is read again"

cases=$((cases + 1))
"$bin" --print -f "av-test:$d" >"$tmp/dirfollow" 2>"$tmp/dirfollow.err" &
pids="$pids $!"
# Once its first round is in (the mirror holds the folder's files), a
# file appears.
i=0
until [ -n "$(find "$tmp/t" -name run.ndjson 2>/dev/null)" ] || [ "$i" -gt 100 ]; do
	i=$((i + 1))
	sleep 0.1
done
{ init n0000001 newer; user "a new remote file"; } >"$d/new.ndjson"
expect dir-follow "$tmp/dirfollow" 'a new remote file'
{ result false 3000 "done"; } >>"$d/new.ndjson"
expect dir-follow "$tmp/dirfollow" '✓ done cursor Composer 2.5 "a new remote file"'
echo "-f over ssh of a folder: a new file and its end"

# --- the list on a screen, in tmux --------------------------------------------------

# screen_has PATTERN: until the pane shows PATTERN (grep -E), 10 s at most.
screen_has() {
	i=0
	until $tm capture-pane -p -t av | grep -Eq -- "$1"; do
		i=$((i + 1))
		[ "$i" -gt 100 ] && return 1
		sleep 0.1
	done
}
cases=$((cases + 1))
printf 'set -g status off\nset -g escape-time 0\n' >"$tmp/tmux.conf"
tm="tmux -L agentview-remote-$$ -f $tmp/tmux.conf"
# The hostile folder's name reaches agentview through the environment,
# never through tmux's shell.
REMOTE_DIR=$d
export REMOTE_DIR
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color '$bin' \"av-test:\$REMOTE_DIR\" '$tmp/local.ndjson'"
screen_has '^( |•)STATE +HOST +AGENT' || fail screen "no HOST column at 120: $($tm capture-pane -p -t av)"
screen_has '^( |•)✓ done +av-test +cursor' || fail screen "no av-test row: $($tm capture-pane -p -t av)"
screen_has '^( |•)✓ done +local +cursor' || fail screen "no local row: $($tm capture-pane -p -t av)"
$tm resize-window -t av -x 40 -y 20
screen_has '^( |•)STATE +PROMPT +TIME' || fail screen "at 40: $($tm capture-pane -p -t av)"
$tm capture-pane -p -t av | grep -q HOST && fail screen "HOST kept at 40 columns"
$tm resize-window -t av -x 120 -y 20
stop_sshd
screen_has 'av-test: reconnecting \([0-9]+\)' ||
	fail screen "no reconnecting said: $($tm capture-pane -p -t av)"
start_sshd || fail screen "sshd did not start again"
screen_has 'av-test: connected again' || fail screen "not back: $($tm capture-pane -p -t av)"
$tm send-keys -t av q
i=0
while $tm has-session -t av 2>/dev/null && [ "$i" -lt 100 ]; do
	i=$((i + 1))
	sleep 0.1
done
$tm has-session -t av 2>/dev/null && fail screen "q did not end it"
# A remote file on the screen is live, as -f.
REMOTE_FILE=$g
export REMOTE_FILE
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color '$bin' \"av-test:\$REMOTE_FILE\""
screen_has 'after-the-truncation' || fail screen "the remote file: $($tm capture-pane -p -t av)"
user "seen-on-the-screen" >>"$g"
screen_has 'seen-on-the-screen' || fail screen "not live: $($tm capture-pane -p -t av)"
$tm kill-server 2>/dev/null
echo "the list on a screen: HOST at 120 columns, not at 40; reconnecting said, then back; a remote file live"

# A Claude session at work there, its host out of reach: what the host
# said last holds for a while (REMOTE_GRACE_MS, 5 s: a reconnect takes
# less), then it is a guess (running?), until the host is back.
cases=$((cases + 1))
sleep 300 &
gr_pid=$!
pids="$pids $gr_pid"
gr_start=$(sed 's/.*) //' "/proc/$gr_pid/stat" | cut -d' ' -f20)
mkdir -p "$tmp/remote-claude/sessions"
printf '{"pid":%d,"sessionId":"%s","status":"busy","procStart":"%s"}\n' "$gr_pid" "$sid" "$gr_start" \
	>"$tmp/remote-claude/sessions/$gr_pid.json"
$tm new-session -d -s av -x 160 -y 30 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color CLAUDE_CONFIG_DIR='$tmp/nowhere' '$bin' av-test:"
screen_has 'running +av-test +claude' || fail grace "not running at first: $($tm capture-pane -p -t av)"
stop_sshd
screen_has 'av-test: reconnecting \([0-9]+\)' || fail grace "no reconnecting said: $($tm capture-pane -p -t av)"
# (at once: the drop was seen, the 5 s have just begun)
$tm capture-pane -p -t av | grep -Eq 'running +av-test +claude' ||
	fail grace "not what it said last at the drop: $($tm capture-pane -p -t av)"
screen_has 'running\? +av-test +claude' || fail grace "no guess past the grace: $($tm capture-pane -p -t av)"
start_sshd || fail grace "sshd did not start again"
# (its next try may be 8 s away: 20 s at most)
screen_has 'running +av-test +claude' || screen_has 'running +av-test +claude' ||
	fail grace "not running once back: $($tm capture-pane -p -t av)"
$tm kill-server 2>/dev/null
kill "$gr_pid"
rm -r "$tmp/remote-claude/sessions"
echo "HOST: a session at work there, its host out of reach: running, after 5 s running?, back: running"

# --- the list reads heads and tails; a session opened comes whole -----------------

# Two sessions of about 1 MB each, listed on the screen through a remote
# (dash here, its output counted): only the head and the tail of each
# come (what the list reads of a big file, 128 KiB); Enter on one brings
# the rest of that one only, and it is then the remote file byte for byte.
cases=$((cases + 1))
hb=$tmp/heads
mkdir -p "$hb/d"
for k in 1 2; do
	{
		init "b000000$k" "big$k"
		user "big session $k"
		awk 'BEGIN { for (i = 0; i < 4500; i++) printf "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c%d\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"echo %0200d\"}}}}\n", i, i }'
		result false 2000 "the end of big $k"
	} >"$hb/d/b$k.ndjson"
done
touch -d '2026-01-05 10:00' "$hb/d/b1.ndjson"
touch -d '2026-01-06 10:00' "$hb/d/b2.ndjson"
printf '%s -s | tee -a %s/wire\n' "$(command -v dash)" "$hb" >"$hb/ssh"
: >"$hb/wire"
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $hb/ssh' '$bin' 'here:$hb/d'"
screen_has 'big session 1' || fail heads "no row of b1: $($tm capture-pane -p -t av)"
screen_has 'big session 2' || fail heads "no row of b2: $($tm capture-pane -p -t av)"
sleep 1.5
size=$(($(wc -c <"$hb/d/b1.ndjson") + $(wc -c <"$hb/d/b2.ndjson")))
listed=$(wc -c <"$hb/wire")
[ "$listed" -lt $((2 * 131073 + 4096)) ] ||
	fail heads "the list brought $listed bytes of $size: more than their heads and tails"
# b2, the newer, is the first row.
$tm send-keys -t av Enter
# The session's view (its hint may be replaced at once by the notes of
# its fetch, "fetching…" then "fetched", when it opens before it is whole).
screen_has '^ Transcript .*│ Tool calls · ' || fail heads "Enter: $($tm capture-pane -p -t av)"
screen_has '[^0-9]4500 ' || fail heads "not the whole session: $($tm capture-pane -p -t av)"
opened=$(wc -c <"$hb/wire")
cmp -s "$hb/d/b2.ndjson" "$tmp"/t/agentview-remote.*/1/b2.ndjson || fail heads "b2's mirror is not its file"
# (its bytes fetched later written with its time there, not the time here)
[ "$(stat -c %Y "$tmp"/t/agentview-remote.*/1/b2.ndjson)" = "$(stat -c %Y "$hb/d/b2.ndjson")" ] ||
	fail heads "b2's mirror has not its time: $(stat -c %Y "$tmp"/t/agentview-remote.*/1/b2.ndjson)"
why=$(python3 tests/remote_wire_times.py "$hb/wire") || fail heads "$why"
cmp -s "$hb/d/b1.ndjson" "$tmp"/t/agentview-remote.*/1/b1.ndjson && fail heads "b1 came whole, not opened"
$tm kill-server 2>/dev/null
echo "the list of 2 sessions of $size bytes: $listed bytes over the wire; one opened: $opened"

# A big session whose first prompt is past the 16 KiB of its head that
# the first look brings (a 40 KB line before it): its row is the one the
# list makes of its head and tail (its prompt, its end, and no "file
# read again" for the mirror that got the rest of its head); no more of
# its middle comes.
cases=$((cases + 1))
mkdir -p "$hb/late"
{
	line "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"b0000003\",\"model\":\"Composer 2.5\",\"cwd\":\"/w/big3\",\"pad\":\"$(awk 'BEGIN { while (n++ < 40000) printf "x" }')\"}"
	user "late big 3"
	awk 'BEGIN { for (i = 0; i < 4500; i++) printf "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c%d\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"echo %0200d\"}}}}\n", i, i }'
	result false 2000 "the end of big 3"
} >"$hb/late/b3.ndjson"
: >"$hb/wire"
$tm new-session -d -s av -x 200 -y 20 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $hb/ssh' '$bin' 'here:$hb/late'"
screen_has '^ *.✓ done +here +cursor .* late big 3 ' ||
	fail late "no prompt in the row of b3: $($tm capture-pane -p -t av)"
sleep 1
row=$($tm capture-pane -p -t av | grep ' late big 3 ')
case $row in
*'✓ done '*' late big 3 '*' ok '*) ;;
*) fail late "not its prompt and end in the row of b3: $row" ;;
esac
case $row in
*'read again'*) fail late "the row of b3 says its file was read again: $row" ;;
esac
listed=$(wc -c <"$hb/wire")
[ "$listed" -lt $((131073 + 8192)) ] ||
	fail late "the list brought $listed bytes of $(wc -c <"$hb/late/b3.ndjson"): more than its head and tail"
$tm kill-server 2>/dev/null
echo "a session whose first prompt is past 16 KiB: its row, $listed bytes over the wire"

# --- the first look at many big files: the same few processes for all ------------

# Twelve sessions of about 200 KB and one whose name holds head's own
# header text and whose bytes hold a forged header for another file:
# listed on a screen through dash and busybox, every head, tail, ls, wc,
# stat and cat the remote runs counted (wrappers first on its PATH). The
# first look at all of them is one head and one tail (and one ls a file
# for its size and time): the mirrors then hold each file's own head and
# tail, byte for byte, whatever the names and bytes said.
mb=$tmp/many
mkdir -p "$mb/d"
hn='x <== ==> m1.ndjson <==.ndjson'
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
	f=$mb/d/m$k.ndjson
	[ "$k" -lt 13 ] || f=$mb/d/$hn
	{
		init "m00000$k" "many$k"
		user "many session $k"
		[ "$k" -lt 13 ] || printf '\n==> %s <==\n\n==> ./m1.ndjson <==\n' "$mb/d/m1.ndjson"
		awk -v k="$k" 'BEGIN { for (i = 0; i < 900 + k; i++) printf "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c%d\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"echo %0200d\"}}}}\n", i, i }'
		result false 2000 "the end of many $k"
	} >"$f"
done
# counted DIR SH: DIR/ssh runs the program it is sent with SH (dash, or
# busybox's sh with only busybox's tools), what it sends kept in DIR/wire;
# its head, tail, ls, wc, stat and cat (DIR/w, first on its PATH) say
# their names in DIR/calls; DIR/t a TMPDIR for agentview.
counted() {
	rm -rf "$1/w" "$1/t"
	mkdir -p "$1/w" "$1/t"
	for t in head tail ls wc stat cat; do
		case $2 in
		dash) real=$(command -v $t) ;;
		busybox) real=$tmp/bb/$t ;;
		esac
		printf '#!/bin/sh\necho %s >>%s/calls\nexec %s "$@"\n' "$t" "$1" "$real" >"$1/w/$t"
		chmod +x "$1/w/$t"
	done
	case $2 in
	dash) printf 'PATH=%s:$PATH %s -s' "$1/w" "$(command -v dash)" ;;
	busybox) printf 'PATH=%s:%s %s/sh -s' "$1/w" "$tmp/bb" "$tmp/bb" ;;
	esac >"$1/ssh"
	printf ' | tee -a %s/wire\n' "$1" >>"$1/ssh"
	: >"$1/calls"
	: >"$1/wire"
}
for sh in $shells; do
	cases=$((cases + 1))
	counted "$mb" "$sh"
	$tm new-session -d -s av -x 120 -y 20 \
		"cd '$(pwd)' && env TMPDIR='$mb/t' LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $mb/ssh' '$bin' 'here:$mb/d'"
	screen_has 'many session 1 ' || fail many "$sh: no row of m1: $($tm capture-pane -p -t av)"
	screen_has 'many session 13' || fail many "$sh: no row of the hostile name: $($tm capture-pane -p -t av)"
	sleep 0.5
	# The first round's: every file looked at once by ls, then the rest.
	calls=$(($(wc -l <"$mb/calls")))
	[ "$calls" -le 16 ] ||
		fail many "$sh: $calls processes for the first look at 13 files: $(sort "$mb/calls" | uniq -c | tr '\n' ' ')"
	for f in "$mb"/d/*; do
		m=$(ls -d "$mb"/t/agentview-remote.*/1)/${f##*/}
		# (the first 16 KiB of the head: its first prompt is in them)
		head -c 16384 "$f" >"$mb/want"
		head -c 16384 "$m" 2>/dev/null | cmp -s - "$mb/want" || fail many "$sh: the head of ${f##*/} in its mirror"
		[ "$(wc -c <"$m")" = "$(wc -c <"$f")" ] || fail many "$sh: the mirror of ${f##*/} is not as long"
		tail -c 65537 "$f" >"$mb/want"
		tail -c 65537 "$m" | cmp -s - "$mb/want" || fail many "$sh: the tail of ${f##*/} in its mirror"
	done
	$tm kill-server 2>/dev/null
	# (a server started while the last one still ends may end with it)
	sleep 0.5
	echo "the first look at 13 big files under $sh: $calls processes, $(sort "$mb/calls" | uniq -c | tr -s ' \n' ' '); each mirror its file's head and tail"
done

# Seventy sessions of about 140 KB: their heads are more than one batch
# holds (4 MiB), so the first look is two batches; every file of the
# second is still sized by the round's one stat, not by an ls of its own.
cases=$((cases + 1))
rm -rf "$mb/d"
mkdir -p "$mb/d"
awk -v d="$mb/d" 'BEGIN {
	for (k = 1; k <= 70; k++) {
		f = sprintf("%s/n%02d.ndjson", d, k)
		printf "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"n%02d\",\"model\":\"m\",\"cwd\":\"/w\"}\n", k >f
		printf "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"batched session %d\"}]}}\n", k >f
		for (i = 0; i < 640; i++)
			printf "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c%d\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"echo %0150d\"}}}}\n", i, i >f
		close(f)
	}
}'
# (what it sends kept in wire: each file's time before its bytes)
counted "$mb" dash
touch -d '2026-01-05 10:00' "$mb"/d/*
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env TMPDIR='$mb/t' LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $mb/ssh' '$bin' 'here:$mb/d'"
screen_has '^attention order · 70 sessions  ' || fail batches "not 70 rows: $($tm capture-pane -p -t av)"
sleep 0.5
calls=$(grep -c '^ls$' "$mb/calls")
[ "$calls" -le 3 ] || fail batches "$calls ls for the first look at 70 files: $(sort "$mb/calls" | uniq -c | tr '\n' ' ')"
for k in 01 64 70; do
	f=$mb/d/n$k.ndjson
	m=$(ls -d "$mb"/t/agentview-remote.*/1)/n$k.ndjson
	tail -c 65537 "$f" >"$mb/want"
	tail -c 65537 "$m" | cmp -s - "$mb/want" || fail batches "the tail of n$k in its mirror"
done
# Each file's time is said before its bytes (a batch's before its heads;
# a file that grows, before its new bytes): its copy here has its time
# there as soon as it has its bytes, never the time of the write here.
cases=$((cases + 1))
for k in 01 64 70; do
	m=$(ls -d "$mb"/t/agentview-remote.*/1)/n$k.ndjson
	[ "$(stat -c %Y "$m")" = "$(stat -c %Y "$mb/d/n$k.ndjson")" ] ||
		fail times "n$k: its copy's time $(stat -c %Y "$m"), not its time there"
done
sleep 1.1
line '{"type":"assistant","marker":"grown"}' >>"$mb/d/n01.ndjson"
m=$(ls -d "$mb"/t/agentview-remote.*/1)/n01.ndjson
wait_for "$m" '"grown"' || fail times "the line is not mirrored"
[ "$(stat -c %Y "$m")" = "$(stat -c %Y "$mb/d/n01.ndjson")" ] ||
	fail times "n01 grown: its copy's time $(stat -c %Y "$m"), not its time there $(stat -c %Y "$mb/d/n01.ndjson")"
why=$(python3 tests/remote_wire_times.py "$mb/wire") || fail times "$why"
grep -c '^S ' "$mb/wire" >"$mb/ns"
echo "each file's time before its bytes: $(cat "$mb/ns") times said, each before its bytes; the copies' times the files' there"
$tm kill-server 2>/dev/null
sleep 0.5
rm -rf "$mb/d"
echo "the first look at 70 big files, two batches: $calls ls, $(sort "$mb/calls" | uniq -c | tr -s ' \n' ' ')"

# A connection that drops in the middle of a batch (after one A frame,
# as when the list's ask for a head's rest starts a new program, or a
# network drop): the next program's batch is its own, not one with the
# dropped one's files in front, which no layout fits and which made the
# source read every big file one by one from then on (a program without
# bt=1), after one more connection.
cases=$((cases + 1))
cb=$tmp/cut-batch
mkdir -p "$cb/d" "$cb/t"
awk -v d="$cb/d" 'BEGIN {
	for (k = 1; k <= 3; k++) {
		f = sprintf("%s/c%d.ndjson", d, k)
		printf "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"c%d\",\"model\":\"m\",\"cwd\":\"/w\"}\n", k >f
		printf "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"cut batch %d\"}]}}\n", k >f
		for (i = 0; i < 900; i++)
			printf "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c%d\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"echo %0150d\"}}}}\n", i, i >f
		close(f)
	}
}'
# (each program kept; the first one's output cut after its first A)
cat >"$cb/ssh" <<EOF
n=\$(cat "$cb/conns" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >"$cb/conns"
cat >"$cb/prog\$n"
if [ \$n = 1 ]; then $(command -v dash) "$cb/prog\$n" | sed '/^A /q'
else exec $(command -v dash) "$cb/prog\$n"; fi
EOF
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env TMPDIR='$cb/t' LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $cb/ssh' '$bin' 'here:$cb/d'"
screen_has 'cut batch 3' || fail cut-batch "no rows: $($tm capture-pane -p -t av)"
sleep 1.5
cn=$(cat "$cb/conns")
[ "$cn" = 2 ] || fail cut-batch "$cn connections, not 2"
for p in "$cb"/prog*; do
	grep -q '^bt=1$' "$p" || fail cut-batch "${p##*/} reads its big files one by one"
done
$tm kill-server 2>/dev/null
sleep 0.5
echo "a batch cut by a dropped connection: $cn connections, every one's first look in batches"

# --- the first look at many small files: whole, a few at a time ----------------

# Six hundred small sessions (under a head and a tail's bytes), one with a
# hostile name, and two big ones, listed on a screen through dash and
# busybox: the small ones come whole in batches (one cat and one wc for up
# to 256 of them), not one tail and one head each; every mirror is its
# file byte for byte, with its time there. A file that grows while its
# batch is read (the first cat appends a line to it first) is not taken
# from it (Y 0): it comes alone at the next round, whole. A first program
# whose batch lies about a size (the bytes no longer add up): the next
# one reads the first looks one by one, and the mirrors are the same.
ms=$tmp/small
rm -rf "$ms"
mkdir -p "$ms/d"
awk -v d="$ms/d" 'BEGIN {
	for (k = 1; k <= 600; k++) {
		f = sprintf("%s/s%03d.ndjson", d, k)
		if (k == 600) f = d "/-n x$(touch y) ==> s001.ndjson <==.ndjson"
		printf "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s%03d\",\"model\":\"m\",\"cwd\":\"/w\"}\n", k >f
		printf "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"small session %d\"}]}}\n", k >f
		for (i = 0; i < k % 7; i++)
			printf "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c%d\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"echo %0" k "d\"}}}}\n", i, i >f
		close(f)
	}
	for (k = 1; k <= 2; k++) {
		f = sprintf("%s/big%d.ndjson", d, k)
		printf "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"big%d\",\"model\":\"m\",\"cwd\":\"/w\"}\n", k >f
		printf "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"big session %d\"}]}}\n", k >f
		for (i = 0; i < 900; i++)
			printf "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c%d\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"echo %0150d\"}}}}\n", i, i >f
		close(f)
	}
}'
touch -d '2026-01-05 10:00' "$ms"/d/*
# small_same WHAT: every mirror its file byte for byte (a big one's head
# and tail), with its time there.
small_same() {
	sm=$(ls -d "$ms"/t/agentview-remote.*/1)
	for f in "$ms"/d/*; do
		case $f in
		*/big*) [ "$(head -c 16384 "$sm/${f##*/}" | cksum)" = "$(head -c 16384 "$f" | cksum)" ] &&
			[ "$(tail -c 65537 "$sm/${f##*/}" | cksum)" = "$(tail -c 65537 "$f" | cksum)" ] ;;
		*) cmp -s "$f" "$sm/${f##*/}" ;;
		esac || {
			fail small "$1: the mirror of ${f##*/}"
			return
		}
	done
	for f in "$ms/d/s001.ndjson" "$ms/d/s012.ndjson"; do
		[ "$(stat -c %Y "$sm/${f##*/}")" = "$(stat -c %Y "$f")" ] ||
			fail small "$1: the mirror of ${f##*/} not with its time there"
	done
}
for sh in $shells; do
	cases=$((cases + 1))
	counted "$ms" "$sh"
	$tm new-session -d -s av -x 120 -y 20 \
		"cd '$ms' && env TMPDIR='$ms/t' LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $ms/ssh' '$bin' 'here:$ms/d'"
	screen_has '^attention order · 602 sessions  ' || fail small "$sh: not 602 rows: $($tm capture-pane -p -t av | head -n 3)"
	sleep 0.5
	# (the first round's, and the rounds' after it: an ls or a stat)
	n=$(grep -c '^cat$' "$ms/calls")
	t=$(grep -c '^tail$' "$ms/calls")
	[ "$n" -le 8 ] && [ "$t" -le 3 ] ||
		fail small "$sh: $n cat and $t tail for 602 files: $(sort "$ms/calls" | uniq -c | tr '\n' ' ')"
	[ "$(grep -c '^W ' "$ms/wire")" = 3 ] || fail small "$sh: not 3 batches of small files: $(grep -c '^W ' "$ms/wire")"
	small_same "$sh"
	why=$(python3 tests/remote_wire_times.py "$ms/wire") || fail small "$sh: $why"
	[ ! -e "$ms/y" ] && [ ! -e "$ms/d/y" ] || fail small "$sh: a name ran a command"
	$tm kill-server 2>/dev/null
	sleep 0.5
	echo "the first look at 600 small files and 2 big under $sh: $(sort "$ms/calls" | uniq -c | tr -s ' \n' ' '); each mirror its file"
done
# A file that grows while its batch is read.
cases=$((cases + 1))
counted "$ms" dash
{
	echo '#!/bin/sh'
	echo 'case "$*" in'
	echo "*/s001.ndjson*) [ -e '$ms/grown' ] || { : >'$ms/grown'; echo '{\"type\":\"assistant\",\"marker\":\"grown\"}' >>'$ms/d/s001.ndjson'; } ;;"
	echo 'esac'
	echo "exec $(command -v cat) \"\$@\""
} >"$ms/w/cat"
chmod +x "$ms/w/cat"
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$ms' && env TMPDIR='$ms/t' LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $ms/ssh' '$bin' 'here:$ms/d'"
screen_has '^attention order · 602 sessions  ' || fail small "grown: not 602 rows: $($tm capture-pane -p -t av | head -n 3)"
wait_for "$(ls -d "$ms"/t/agentview-remote.*/1)/s001.ndjson" '"grown"' || fail small "grown: the line is not mirrored"
sleep 0.5
[ "$(grep -c '^Y 0$' "$ms/wire")" = 1 ] || fail small "grown: not one batch not kept: $(grep '^[WY] ' "$ms/wire" | tr '\n' ' ')"
small_same grown
$tm kill-server 2>/dev/null
sleep 0.5
echo "a small file grown while its batch is read: the batch not kept, every mirror its file"
# A first program whose batch lies about a file's size (twenty small
# files and the two big: one by one, six hundred take long).
cases=$((cases + 1))
rm -rf "$ms/t" "$ms/conns" "$ms"/d/s0[2-9]?.ndjson "$ms"/d/s[1-5]??.ndjson
mkdir -p "$ms/t"
{
	echo "n=\$(cat '$ms/conns' 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >'$ms/conns'"
	echo "cat >'$ms/prog'\$n"
	printf '%s\n' "if [ \$n = 1 ]; then $(command -v dash) '$ms/prog1' | sed -u 's/^A 7 \([0-9]*\) /A 7 1\1 /'"
	echo "else exec $(command -v dash) '$ms/prog'\$n; fi"
} >"$ms/ssh"
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$ms' && env TMPDIR='$ms/t' LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $ms/ssh' '$bin' 'here:$ms/d'"
screen_has '^attention order · 22 sessions  ' || fail small "lies: not 22 rows: $($tm capture-pane -p -t av | head -n 3)"
sleep 1.5
[ "$(cat "$ms/conns")" -ge 2 ] || fail small "lies: one connection"
! grep -q '^bt=1$' "$ms/prog2" || fail small "lies: the second program batches still"
small_same lies
$tm kill-server 2>/dev/null
sleep 0.5
rm -rf "$ms"
echo "a batch of small files that lies about a size: read again one by one, every mirror its file"
# A file the remote user may not read (the program run as nobody, where
# this test runs as root): never sent, and not taken for the bytes of
# another (a batch's wc was short of its line; a lone read of it sent no
# bytes, and the frames after them passed for them).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	cases=$((cases + 1))
	un=$(mktemp -d /tmp/agentview-unread.XXXXXX)
	chmod 755 "$un"
	mkdir -p "$un/d" "$un/t"
	{ init u0000001 one; user "readable one"; } >"$un/d/one.ndjson"
	{ init u0000002 two; user "unreadable two"; } >"$un/d/two.ndjson"
	cp "$un/d/one.ndjson" "$un/d/three.ndjson"
	chmod 000 "$un/d/two.ndjson"
	chmod 755 "$un/d"
	printf 'setpriv --reuid=65534 --regid=65534 --clear-groups %s -s | tee -a %s/wire\n' \
		"$(command -v dash)" "$un" >"$un/ssh"
	: >"$un/wire"
	$tm new-session -d -s av -x 120 -y 20 \
		"cd '$un' && env TMPDIR='$un/t' LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $un/ssh' '$bin' 'here:$un/d'"
	screen_has 'readable one' || fail unread "no row: $($tm capture-pane -p -t av | head -n 4)"
	sleep 1.5
	um=$(ls -d "$un"/t/agentview-remote.*/1)
	cmp -s "$un/d/one.ndjson" "$um/one.ndjson" && cmp -s "$un/d/three.ndjson" "$um/three.ndjson" ||
		fail unread "the readable files' mirrors"
	[ ! -s "$um/two.ndjson" ] || fail unread "the unreadable file's mirror holds: $(od -c "$um/two.ndjson" | head -n 2)"
	! grep -aq '^[FA] 3 ' "$un/wire" || fail unread "the unreadable file was sent: $(grep -a '^[FAWY] ' "$un/wire" | tr '\n' ' ')"
	[ "$(grep -ac '^H ' "$un/wire")" = 1 ] || fail unread "$(grep -ac '^H ' "$un/wire") connections"
	$tm kill-server 2>/dev/null
	sleep 0.5
	chmod 644 "$un/d/two.ndjson"
	rm -rf "$un"
	echo "a file the remote user may not read: not sent, nothing else taken for its bytes, one connection"
fi

# --- the screen does not wait on a slow remote -------------------------------------

# Every remote's ssh starts 3 s late: the local row is on the screen
# before that; HOST:'s rows come in once read; a key refused after the
# screen is up is said in its header.
cases=$((cases + 1))
cat >"$tmp/slow_ssh" <<EOF
sleep 3
exec ssh -F $tmp/ssh_config "\$@"
EOF
t0=$(date +%s%N)
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $tmp/slow_ssh' '$bin' '$tmp/local.ndjson' av-test: av-bad:"
screen_has 'a local session' || fail slow "no local row: $($tm capture-pane -p -t av)"
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -lt 2500 ] || fail slow "the local row shown after $ms ms"
$tm capture-pane -p -t av | grep -q 'a kept session' && fail slow "av-test's row before its ssh started"
# (said for a few seconds, as any note: looked for first)
screen_has 'ssh needs a password for av-bad' || fail slow "av-bad not said: $($tm capture-pane -p -t av)"
screen_has 'a kept session' || fail slow "av-test's rows never came: $($tm capture-pane -p -t av)"
# A store's file, folders deep (codex/sessions/Y/M/D/): its folders made
# while the list already watched the store's root.
screen_has 'av-test +codex' || fail slow "av-test's codex row never came: $($tm capture-pane -p -t av)"
$tm kill-server 2>/dev/null
echo "the screen with a slow remote: the local row in $ms ms, the remote's once read, a refused key said in the header"

# --- opening a big remote session does not wait for it ----------------------------

# The two big sessions through the real sshd, every ssh 3 s late: Enter
# opens b2 at once on its head, says it is fetching, answers keys, and
# the rest comes in as a growing file's does.
cases=$((cases + 1))
sleep 0.5
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $tmp/slow_ssh' '$bin' 'av-test:$hb/d'"
screen_has 'big session 2' || fail opening "no row of b2: $($tm capture-pane -p -t av)"
screen_has 'big session 1' || fail opening "no row of b1: $($tm capture-pane -p -t av)"
# b2, the newer, is the first row once both files' times have come (a
# row is drawn as soon as its bytes are, its time a frame later): g goes
# there then.
i=0
until $tm capture-pane -p -t av | grep -E 'big session [12]' | head -1 | grep -q 'big session 2'; do
	i=$((i + 1))
	[ "$i" -gt 100 ] && fail opening "b1 above b2: $($tm capture-pane -p -t av)" && break
	sleep 0.1
done
$tm send-keys -t av g
t0=$(date +%s%N)
$tm send-keys -t av Enter
screen_has 'av-test: fetching b2.ndjson… [0-9]+%' || fail opening "not said: $($tm capture-pane -p -t av)"
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -lt 1500 ] || fail opening "the session shown $ms ms after Enter"
# Its head: the session's id (its first line), its first calls.
$tm capture-pane -p -t av | grep -q 'b0000002' || fail opening "not its head: $($tm capture-pane -p -t av)"
$tm capture-pane -p -t av | grep -Eq '[^0-9]4500 ' && fail opening "whole before its ssh started"
# A key while it comes: the help, at once.
t1=$(date +%s%N)
$tm send-keys -t av '?'
screen_has '[Kk]eys' || fail opening "? while fetching: $($tm capture-pane -p -t av)"
kms=$((($(date +%s%N) - t1) / 1000000))
$tm send-keys -t av Escape
screen_has 'av-test: b2.ndjson fetched' || fail opening "never fetched: $($tm capture-pane -p -t av)"
# The hint the fetching covered comes back beside its end.
screen_has 'fetched · q or Esc: back to the list' || fail opening "the hint not back: $($tm capture-pane -p -t av)"
screen_has '[^0-9]4500 ' || fail opening "the end never shown: $($tm capture-pane -p -t av)"
$tm kill-server 2>/dev/null
echo "a big remote session opened with a slow ssh: shown in $ms ms, fetching said, ? answered in $kms ms, then whole"

# --- Y, o and e on a remote session, in tmux ---------------------------------------

# Y copies `ssh -t HOST 'cd DIR && cursor-agent --resume ID'` (ssh's words
# those of AGENTVIEW_SSH): run as it is, it resumes the session there (a
# cursor-agent on the remote's PATH, the sshd's SetEnv, says where it
# ran). o and e show a copy of the session, read-only, and say so; e on
# a call's file does not open a file of the same path here.
cases=$((cases + 1))
w="$tmp/rwork/it's here"
mkdir -p "$w" "$tmp/rbin" "$tmp/resume"
printf 'notes\n' >"$w/notes.txt"
cat >"$tmp/rbin/cursor-agent" <<'SH'
#!/bin/sh
printf 'resumed %s %s in %s\n' "$1" "$2" "$(pwd)"
SH
cat >"$tmp/editor" <<SH
#!/bin/sh
printf '%s\n' "\$@" >"$tmp/editor.argv"
stat -c %a "\$1" >"$tmp/editor.mode"
cat "\$1" >"$tmp/edited"
SH
cat >"$tmp/pager" <<SH
#!/bin/sh
stat -c %a "\$1" >"$tmp/pager.mode"
cat "\$1" >"$tmp/paged"
SH
chmod +x "$tmp/rbin/cursor-agent" "$tmp/editor" "$tmp/pager"
wj=$(printf '%s' "$w" | sed 's/\\/\\\\/g; s/"/\\"/g')
{
	line "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"r5e0-abc\",\"model\":\"Composer 2.5\",\"cwd\":\"$wj\"}"
	user "resume me"
	line "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"rd\",\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"$wj/notes.txt\"}}}}"
	result false 1000 "read"
} >"$tmp/resume/r.ndjson"
printf 'set -g set-clipboard on\n' >>"$tmp/tmux.conf"
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color EDITOR='$tmp/editor' PAGER='$tmp/pager' '$bin' 'av-test:$tmp/resume'"
screen_has 'resume me' || fail take "the list: $($tm capture-pane -p -t av)"
$tm send-keys -t av Y
screen_has 'copied the resume command' || fail take "Y: $($tm capture-pane -p -t av)"
$tm show-buffer >"$tmp/copied" 2>/dev/null
grep -q "^ssh -F $tmp/ssh_config -t av-test 'cd -- " "$tmp/copied" || fail take "Y copied: $(cat "$tmp/copied")"
sh -c "$(cat "$tmp/copied")" >"$tmp/resumed" 2>/dev/null </dev/null
[ "$(cat "$tmp/resumed")" = "resumed --resume r5e0-abc in $w" ] ||
	fail take "the copied command ran: $(cat "$tmp/resumed")"
# (fish runs it too: its quotes read \' and \\ as escapes, so the command
# holds no backslash inside quotes)
if command -v fish >/dev/null 2>&1; then
	fish --no-config -c "$(cat "$tmp/copied")" >"$tmp/resumed" 2>/dev/null </dev/null
	[ "$(cat "$tmp/resumed")" = "resumed --resume r5e0-abc in $w" ] ||
		fail take "the copied command ran by fish: $(cat "$tmp/resumed")"
fi
$tm send-keys -t av o
screen_has "shown from a copy of av-test's session, read-only" || fail take "o: $($tm capture-pane -p -t av)"
grep -q "resume me" "$tmp/paged" || fail take "o paged: $(head -c 200 "$tmp/paged")"
[ "$(cat "$tmp/pager.mode")" = 400 ] || fail take "o: the copy is mode $(cat "$tmp/pager.mode")"
$tm send-keys -t av e
screen_has "opened a copy of av-test's session file, read-only" || fail take "e: $($tm capture-pane -p -t av)"
cmp -s "$tmp/resume/r.ndjson" "$tmp/edited" || fail take "e: not the session file"
[ "$(cat "$tmp/editor.mode")" = 400 ] || fail take "e: the copy is mode $(cat "$tmp/editor.mode")"
rm -f "$tmp/editor.argv"
# In the session: Y the same; e on the call's file is refused.
$tm send-keys -t av Enter
screen_has 'q or Esc: back to the list' || fail take "Enter: $($tm capture-pane -p -t av)"
$tm set-buffer -b x sentinel
$tm send-keys -t av Y
screen_has 'copied the resume command' || fail take "Y in the session: $($tm capture-pane -p -t av)"
$tm show-buffer | cmp -s - "$tmp/copied" || fail take "Y in the session copied: $($tm show-buffer)"
$tm send-keys -t av ']' e
screen_has 'is on av-test, not here: not opened' || fail take "e on the call: $($tm capture-pane -p -t av)"
[ ! -e "$tmp/editor.argv" ] || fail take "e opened $(cat "$tmp/editor.argv")"
$tm kill-server 2>/dev/null
echo "Y on a remote session: ssh -t HOST '...', run as copied it resumes there; o and e: a read-only copy, said; e on a call's file: not here"

# --- the rows from an agentview there ------------------------------------------------

# The remote's PATH (the sshd's SetEnv) has $tmp/rbin first: this agentview
# there, or a stand-in. Its tail, and its cat of session files, are slowed
# there (1 s a run), so that the rows an agentview there made are on the
# screen alone for a while.
ad=$tmp/avrows
mkdir -p "$ad"
for k in 1 2 3; do
	{ init "v000000$k" "av$k"; user "rows made there $k"; started c1 make; result false 2000 "ok $k"; } >"$ad/v$k.ndjson"
done
{ init v0000004 av4; user "a failed one"; result true 1000 "it broke"; } >"$ad/v4.ndjson"
touch -d '2026-01-05 10:00' "$ad"/*.ndjson
# Three written within one second, the newest by its milliseconds last in
# the names' order: the remote says whole seconds, so the rows made there
# must be ordered as the ones read here will be, or they move once.
touch -d '2026-01-05 10:00:00.100' "$ad/v1.ndjson"
touch -d '2026-01-05 10:00:00.200' "$ad/v2.ndjson"
touch -d '2026-01-05 10:00:00.300' "$ad/v3.ndjson"
absbin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
# slow S: the remote's tail, and its cat of session files, S seconds late.
slow() {
	printf '#!/bin/sh\nsleep %s\nexec /usr/bin/tail "$@"\n' "$1" >"$tmp/rbin/tail"
	printf '#!/bin/sh\ncase "$*" in *.ndjson*) sleep %s ;; esac\nexec /usr/bin/cat "$@"\n' "$1" >"$tmp/rbin/cat"
	chmod +x "$tmp/rbin/tail" "$tmp/rbin/cat"
}
slow 1
# --format rows leaves out a file whose row holds a control byte (the
# reader would refuse all the rows): the other files' rows, none of it.
cases=$((cases + 1))
mkdir -p "$tmp/esc"
cp recordings/escapes.ndjson "$ad/v1.ndjson" "$tmp/esc/"
"$bin" --print --format rows "$tmp/esc" >"$tmp/esc.rows"
[ "$(tail -n 1 "$tmp/esc.rows")" = ". 1" ] && grep -q '^9:v1.ndjson ' "$tmp/esc.rows" &&
	! grep -q escapes "$tmp/esc.rows" || fail rows-esc "$(cat -v "$tmp/esc.rows" | head -c 400)"
echo "--format rows: a file whose row holds an escape left out, the others' rows there"
# rows_of FILE: the sessions' rows of a capture, sorted.
rows_of() {
	grep -E '^( |•)(✓|✗)' "$1" | sed 's/^•/ /' | sort
}
# four_rows: until the pane shows the 4 sessions' rows, 10 s at most.
four_rows() {
	i=0
	until $tm capture-pane -p -t av >"$tmp/rows.now" && [ "$(rows_of "$tmp/rows.now" | wc -l)" -eq 4 ]; do
		i=$((i + 1))
		[ "$i" -gt 100 ] && return 1
		sleep 0.1
	done
}
cases=$((cases + 1))
ln -sf "$absbin" "$tmp/rbin/agentview"
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color '$bin' 'av-test:$ad'"
screen_has 'av-test: via agentview there' || fail rows "not said: $($tm capture-pane -p -t av)"
four_rows || fail rows "not 4 rows: $($tm capture-pane -p -t av)"
$tm capture-pane -p -t av >"$tmp/rows.there"
grep -q 'every row read over ssh' "$tmp/rows.there" && fail rows "the sh path was first: tail and cat are not slowed"
screen_has 'every row read over ssh' || fail rows "the sh path never ended: $($tm capture-pane -p -t av)"
sleep 0.5
$tm capture-pane -p -t av >"$tmp/rows.here"
rows_of "$tmp/rows.there" >"$tmp/rows.there.s"
rows_of "$tmp/rows.here" >"$tmp/rows.here.s"
cmp -s "$tmp/rows.there.s" "$tmp/rows.here.s" ||
	fail rows "the rows made there are not those read here: $(diff "$tmp/rows.there.s" "$tmp/rows.here.s")"
grep -E '^( |•)(✓|✗)' "$tmp/rows.there" | sed 's/^•/ /' >"$tmp/rows.there.o"
grep -E '^( |•)(✓|✗)' "$tmp/rows.here" | sed 's/^•/ /' >"$tmp/rows.here.o"
cmp -s "$tmp/rows.there.o" "$tmp/rows.here.o" ||
	fail rows "the rows made there moved once read here: $(diff "$tmp/rows.there.o" "$tmp/rows.here.o")"
$tm kill-server 2>/dev/null
sleep 0.3
# Without agentview there, the same rows once settled.
rm -f "$tmp/rbin/agentview"
start=$(date +%s%N)
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color '$bin' 'av-test:$ad'"
four_rows || fail rows "sh path: not 4 rows: $($tm capture-pane -p -t av)"
shtook=$((($(date +%s%N) - start) / 1000000))
sleep 0.5
$tm capture-pane -p -t av >"$tmp/rows.sh"
grep -q 'via agentview there' "$tmp/rows.sh" && fail rows "said without agentview there"
rows_of "$tmp/rows.sh" >"$tmp/rows.sh.s"
cmp -s "$tmp/rows.there.s" "$tmp/rows.sh.s" ||
	fail rows "not the sh path's rows: $(diff "$tmp/rows.there.s" "$tmp/rows.sh.s")"
$tm kill-server 2>/dev/null
sleep 0.3
# --print and --status-line over HOST: are the sh path's, agentview there or not.
ln -sf "$absbin" "$tmp/rbin/agentview"
COLUMNS=200 "$bin" --print "av-test:$ad" >"$tmp/rows.print" 2>"$tmp/err"
[ "$(grep -c 'rows made there' "$tmp/rows.print")" -eq 3 ] ||
	fail rows "--print: $(head -c 400 "$tmp/rows.print") $(head -c 200 "$tmp/err")"
"$bin" --status-line "av-test:$ad" >"$tmp/rows.status" 2>"$tmp/err"
grep -q '3 done' "$tmp/rows.status" && grep -q '1 failed' "$tmp/rows.status" ||
	fail rows "--status-line: $(cat "$tmp/rows.status") $(head -c 200 "$tmp/err")"
echo "HOST:DIR with agentview there: its rows first, said, then the same rows read here; --print, --status-line"

# Through this machine's dash (AGENTVIEW_SSH), where the rows are there
# before the list first looks at its folder: on the screen at once, and
# Enter on one says its file is still coming.
cases=$((cases + 1))
printf 'PATH=%s:$PATH exec dash -s\n' "$tmp/rbin" >"$tmp/avloc_ssh"
# (its tail and cat 3 s there: no row of the sh path before)
slow 3
start=$(date +%s%N)
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $tmp/avloc_ssh' '$bin' 'here:$ad'"
four_rows || fail rows-here "not 4 rows: $($tm capture-pane -p -t av)"
took=$((($(date +%s%N) - start) / 1000000))
[ "$took" -lt 2500 ] || fail rows-here "the rows made there shown after $took ms"
$tm capture-pane -p -t av >"$tmp/rows.loc"
grep -q 'every row read over ssh' "$tmp/rows.loc" && fail rows-here "the sh path was first"
$tm send-keys -t av Enter
screen_has 'v[0-9].ndjson: still coming over ssh, a moment' ||
	fail rows-here "Enter: $($tm capture-pane -p -t av)"
slow 1
screen_has 'every row read over ssh' || fail rows-here "the sh path never ended: $($tm capture-pane -p -t av)"
$tm send-keys -t av Enter
screen_has '^ Transcript ' || fail rows-here "Enter once read: $($tm capture-pane -p -t av)"
$tm kill-server 2>/dev/null
sleep 0.3
echo "HOST:DIR with agentview there, its rows there before the list looks: shown in $took ms, Enter waits for the file"

# Stand-ins: another version, garbage, one that hangs. The sh path alone
# each time, the rows all there, nothing said of agentview.
for kind in version garbage hang; do
	cases=$((cases + 1))
	case $kind in
	version) printf '#!/bin/sh\nprintf "agentview-rows 1 0.0.0-other\\n. 0\\n"\n' ;;
	garbage) printf '#!/bin/sh\nprintf "R 5\\nK\\nE 3\\nxyz\\n\\033[2J\\0"; head -c 100000 /dev/urandom\n' ;;
	hang) printf '#!/bin/sh\nexec sleep 30\n' ;;
	esac >"$tmp/stand-in"
	# (never written through the link to this agentview)
	rm -f "$tmp/rbin/agentview"
	mv "$tmp/stand-in" "$tmp/rbin/agentview"
	chmod +x "$tmp/rbin/agentview"
	start=$(date +%s%N)
	$tm new-session -d -s av -x 120 -y 20 \
		"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color '$bin' 'av-test:$ad'"
	four_rows || fail "rows-$kind" "not 4 rows: $($tm capture-pane -p -t av)"
	took=$((($(date +%s%N) - start) / 1000000))
	$tm capture-pane -p -t av >"$tmp/rows.$kind"
	grep -q 'via agentview there' "$tmp/rows.$kind" && fail "rows-$kind" "said: $(cat "$tmp/rows.$kind")"
	rows_of "$tmp/rows.$kind" >"$tmp/rows.$kind.s"
	cmp -s "$tmp/rows.sh.s" "$tmp/rows.$kind.s" ||
		fail "rows-$kind" "not the sh path's rows: $(diff "$tmp/rows.sh.s" "$tmp/rows.$kind.s")"
	# A stand-in that hangs is waited for a few tenths of a second at most.
	[ "$took" -lt $((shtook + 1500)) ] || fail "rows-$kind" "the rows came after $took ms, $shtook without it"
	$tm kill-server 2>/dev/null
	sleep 0.3
	echo "HOST:DIR with a stand-in agentview there ($kind): the sh path alone, in $took ms ($shtook without it)"
done
# A stand-in whose rows name one file more than the folder has (removed
# there between its look and the sh path's): once the sh path's first
# round is all read, that row says its file is removed (it stayed a
# session for ever).
cases=$((cases + 1))
rm -f "$tmp/rbin/agentview"
# (its rows made here first, by this agentview: the stand-in only prints
# them, well within the 0.3 s an agentview there is given, even under
# ASan on a busy machine)
"$absbin" --print --format rows "$ad" >"$tmp/ghost.made" || fail rows-ghost "--format rows failed"
{
	sed '$d' "$tmp/ghost.made"
	grep '^9:v1.ndjson ' "$tmp/ghost.made" |
		sed 's/^9:v1.ndjson /12:ghost.ndjson /; s/17:rows made there 1/17:ghost row there 1/'
	echo ". $(($(/usr/bin/tail -n 1 "$tmp/ghost.made" | cut -d ' ' -f 2) + 1))"
} >"$tmp/ghost.rows"
printf '#!/bin/sh\nexec /usr/bin/cat "%s"\n' "$tmp/ghost.rows" >"$tmp/rbin/agentview"
chmod +x "$tmp/rbin/agentview"
"$tmp/rbin/agentview" --print --format rows "$ad" | grep -q '^12:ghost.ndjson ' ||
	fail rows-ghost "the stand-in made no ghost: $("$tmp/rbin/agentview" --print --format rows "$ad" | head -c 300)"
$tm new-session -d -s av -x 120 -y 20 \
	"cd '$(pwd)' && env LC_ALL=C.UTF-8 TERM=xterm-256color AGENTVIEW_SSH='sh $tmp/avloc_ssh' '$bin' 'here:$ad'"
screen_has 'ghost row there 1' || fail rows-ghost "the rows made there not shown: $($tm capture-pane -p -t av)"
screen_has 'every row read over ssh' || fail rows-ghost "the sh path never ended: $($tm capture-pane -p -t av)"
screen_has 'ghost row there 1 .*\(file removed\)' ||
	fail rows-ghost "the row of no file: $($tm capture-pane -p -t av)"
$tm kill-server 2>/dev/null
sleep 0.3
echo "HOST:DIR with rows there of a file the folder has not: its row says the file is removed"
rm -f "$tmp/rbin/agentview" "$tmp/rbin/tail" "$tmp/rbin/cat"

for f in pwned-dir pwned-file pwned-proxy; do
	[ ! -e "$tmp/$f" ] || fail hostile "$f was made: a name reached a shell"
done
[ ! -e x ] || fail hostile "x was made"

cases=$((cases + 1))
for p in $pids; do kill "$p" 2>/dev/null; done
pids=
cleaned || fail cleanup "agentview's remote folders left: $(ls "$tmp/t")"
echo "agentview gone: its mirrors, ssh children and master connections with it"

echo "run_remote: $cases cases, $fails failures"
[ "$fails" -eq 0 ]
