#!/bin/sh
# unit_env.sh TEST...: each unit test binary again, in the environment of
# a person's shell at its strangest: inside tmux ($TMUX), NO_COLOR, a dumb
# TERM, HOME and XDG_* folders that do not exist, an editor and a pager that
# fail, another time zone, every AGENTVIEW_* hook set, and every signal
# ignored from the start (as nohup, a shell's background job or a CI
# runner leave some). Each must pass as it does in a clean one: a unit test
# sets what it depends on (tests/fixture.c starts every one from the same
# environment). Prints one closing line; non-zero on a failure.
set -u
fails=0
n=0
for t in "$@"; do
	n=$((n + 1))
	out=$(
		trap '' HUP INT QUIT PIPE TERM USR1 USR2 ALRM TSTP TTIN TTOU WINCH
		exec env TMUX=/tmp/tmux-0/default,1,0 TMUX_PANE=%1 NO_COLOR=1 COLORTERM=truecolor \
			TERM=dumb HOME=/nonexistent/home XDG_STATE_HOME=/nonexistent/state \
			XDG_CONFIG_HOME=/nonexistent/config XDG_DATA_HOME=/nonexistent/data \
			XDG_CACHE_HOME=/nonexistent/cache XDG_RUNTIME_DIR=/nonexistent/run \
			VISUAL=false EDITOR=false PAGER=false TMPDIR=/nonexistent/tmp \
			TZ=America/New_York COLUMNS=7 LINES=3 AGENTVIEW_RECORD=0 \
			AGENTVIEW_KEEP_DAYS=1 AGENTVIEW_WATCH_MAX=0 AGENTVIEW_ONE_THREAD=1 \
			AGENTVIEW_MEMSTAT=1 AGENTVIEW_FRAMESTAT=1 "./$t" 2>&1 </dev/null
	) && continue
	echo "FAIL $t in a strange environment:"
	printf '%s\n' "$out" | grep -E 'FAILED|error|LINE' | head -8
	fails=$((fails + 1))
done
echo "unit tests in a strange environment: $n binaries, $fails failures"
[ "$fails" -eq 0 ]
