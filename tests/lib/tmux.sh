# tests/lib/tmux.sh: the tmux harness of the shell tests (POSIX sh, sourced
# by run_screen.sh, run_take.sh, run_replay.sh, run_runner.sh and bench.sh).
#
# Every start runs its command in a tmux server of its own: a private socket
# (-L agentview-NAME-PID-N, so that runs in several worktrees at once never
# share a server), the harness's config (-f: no status line, no escape
# delay, no history), a fixed size, LC_ALL=C.UTF-8 and TERM=xterm-256color,
# from the top of the repository (the directory the tests run in).
#
#   tmux_init NAME DIR          name the sockets; the config and captures
#                               go to DIR (a scratch directory that exists)
#   tmux_test NAME              for a test made of cases on screens: the
#                               scratch directory $work, removed at exit
#                               with the server, tmux_init, the counters
#                               $cases and $fails, and fail NAME WHY
#   start COLS ROWS CMD         a fresh server running CMD in a COLSxROWS
#                               pane; $T is its tmux command ($T send-keys)
#   tmux_stop                   kill the server, if any (for the EXIT trap)
#   screen, screen_sgr          the pane's text, without and with its
#                               attributes and colours as SGR sequences
#   keys KEY...                 send keys, then give the viewer a frame
#   poll SECONDS CMD...         run CMD every 50 ms until it succeeds
#   wait_for PATTERN [SECONDS]  until the screen shows PATTERN (grep -E)
#   wait_gone PATTERN [SECONDS] until the screen no longer shows PATTERN
#   wait_exit [SECONDS]         until the pane's command has ended
#   golden NAME                 the screen must equal tests/golden/NAME.txt
#                               (UPDATE_GOLDEN=1 rewrites it); counts one
#                               case in $cases, reports through `fail`

T=:

# tmux_init NAME DIR: the sockets are agentview-NAME-$$-1, -2, ...; the
# config is DIR/tmux.conf.
tmux_init() {
	tmux_name=agentview-$1-$$
	tmux_dir=$2
	tmux_top=$(pwd)
	tmux_servers=0
	printf 'set -g status off\nset -g escape-time 0\nset -g history-limit 0\n' \
		>"$tmux_dir/tmux.conf"
}

# tmux_test NAME: the scratch directory, the counters and the exit trap of
# run_screen.sh and run_replay.sh.
tmux_test() {
	work=${TMPDIR:-/tmp}/agentview-$1.$$
	mkdir -p "$work"
	tmux_init "$1" "$work"
	fails=0
	cases=0
	trap 'tmux_stop; rm -rf "$work"' EXIT
}

# fail NAME WHY: one failure, said and counted (run_runner.sh has its own).
fail() {
	echo "FAIL $1: $2"
	fails=$((fails + 1))
}

# start COLS ROWS CMD: a fresh server (its own socket) running CMD in a
# COLSxROWS pane; the one before it is killed.
start() {
	tmux_stop
	tmux_servers=$((tmux_servers + 1))
	T="tmux -L $tmux_name-$tmux_servers -f $tmux_dir/tmux.conf"
	$T new-session -d -x "$1" -y "$2" \
		"cd '$tmux_top' && env LC_ALL=C.UTF-8 TERM=xterm-256color $3"
}

# tmux_stop: kill the server of the last start, if it still runs.
tmux_stop() {
	$T kill-server 2>/dev/null || :
}

screen() {
	$T capture-pane -p -t 0
}

screen_sgr() {
	$T capture-pane -p -e -t 0
}

# keys KEY...: send keys, then give the viewer a frame to draw them.
keys() {
	$T send-keys -t 0 "$@"
	sleep 0.15
}

# poll SECONDS CMD...: run CMD every 50 ms until it succeeds, for SECONDS
# at most; false when it never did.
poll() {
	tries=$(($1 * 20))
	shift
	while [ "$tries" -gt 0 ]; do
		"$@" && return 0
		sleep 0.05
		tries=$((tries - 1))
	done
	return 1
}

# shows PATTERN, hides PATTERN: the screen shows PATTERN (grep -E), or not.
shows() {
	screen | grep -qE -- "$1"
}

hides() {
	! shows "$1"
}

# wait_for PATTERN [SECONDS]: until the screen shows PATTERN (5 s at most).
wait_for() {
	poll "${2:-5}" shows "$1"
}

# wait_gone PATTERN [SECONDS]: until the screen no longer shows PATTERN.
wait_gone() {
	poll "${2:-5}" hides "$1"
}

# wait_exit [SECONDS]: until the pane's command has ended and the server
# with it (60 s at most).
wait_exit() {
	poll "${1:-60}" server_gone
}

server_gone() {
	! $T has-session 2>/dev/null
}

# golden NAME: the screen must equal tests/golden/NAME.txt.
golden() {
	cases=$((cases + 1))
	screen >"$tmux_dir/$1.txt"
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$tmux_dir/$1.txt" "$tmux_top/tests/golden/$1.txt"
		return
	fi
	# A capture can land in the middle of a frame: let it settle once.
	if ! cmp -s "$tmux_dir/$1.txt" "$tmux_top/tests/golden/$1.txt"; then
		sleep 0.5
		screen >"$tmux_dir/$1.txt"
	fi
	if ! cmp -s "$tmux_dir/$1.txt" "$tmux_top/tests/golden/$1.txt"; then
		fail "$1" "screen differs from tests/golden/$1.txt:"
		diff "$tmux_top/tests/golden/$1.txt" "$tmux_dir/$1.txt" | head -20
	fi
}
