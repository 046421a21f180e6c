# tests/lib/expect.sh: what the shell tests that watch files and output
# grow share (POSIX sh, sourced by run_faults.sh and run_fleet.sh). Waits
# poll (up to 10 s) instead of sleeping a fixed time.
#
#   fail NAME WHY             one failure, said and counted in $fails
#   line TEXT                 TEXT and a newline (echo would read its
#                             backslashes)
#   wait_for FILE STRING      until FILE holds STRING; false after 10 s
#   expect NAME FILE STRING   FILE comes to hold STRING, else a failure
# It sets $fails and $cases to 0.

fails=0
cases=0

fail() {
	echo "FAIL $1: $2"
	fails=$((fails + 1))
}

line() {
	printf '%s\n' "$*"
}

wait_for() {
	i=0
	while ! grep -qF -- "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -gt 100 ] && return 1
		sleep 0.1
	done
	return 0
}

expect() {
	wait_for "$2" "$3" || fail "$1" "$(basename "$2") does not show: $3"
}
