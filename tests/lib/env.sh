# tests/lib/env.sh: the environment every shell test starts from (POSIX sh,
# sourced first by each tests/run_*.sh, from the top of the repository), so
# that `make test` gives the same results in a terminal, inside tmux, under
# nohup and in CI. A test that depends on one of these sets it itself.
#
# - Signals: nohup ignores SIGHUP, a shell's background job SIGINT and
#   SIGQUIT, some runners SIGPIPE; agentview keeps ignored what it was
#   started with ignored (as nohup wants), and a shell cannot handle a
#   signal ignored when it started. So the script runs again, once, with
#   every signal at its default (coreutils' env --default-signal).
# - None of the user's variables that change what agentview or the tools
#   it starts do: TMUX, NO_COLOR, the editor, the pager, the size, any
#   AGENTVIEW_* hook.
# - HOME a folder that cannot be made (/dev/null/...), and the XDG_*
#   folders under it: no user's theme, config or kept sessions are read,
#   and nothing is written there; a test that keeps sessions or needs a
#   home names its own scratch folder.

if [ "${AGENTVIEW_TEST_ENV:-}" != signals ] && env --default-signal true 2>/dev/null; then
	AGENTVIEW_TEST_ENV=signals exec env --default-signal sh "$0" "$@"
fi
unset TMUX TMUX_PANE NO_COLOR COLORTERM VISUAL EDITOR PAGER LESS COLUMNS LINES
unset XDG_STATE_HOME XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_RUNTIME_DIR
for _v in $(env | sed -n 's/^\(AGENTVIEW_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$_v"
done
unset _v
HOME=/dev/null/agentview-test-home
export HOME
