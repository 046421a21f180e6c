# tests/agents/view.sh: what agentview must make of each scenario of
# tests/agents/scenarios.json, read from a real CLI's stream: the calls, their
# kinds, states, pairing and outcomes, the reply, usage, cost and duration
# where the stream has them, the session's state, its agent, and why it
# failed. POSIX sh, sourced by tests/run_agents_offline.sh (make test: over
# the captures in recordings/) and tests/agents/run.sh (make test-agents: over
# the live runs, read from a file, from a pipe and through -- COMMAND).
#
#   view_run AGENT SCENARIO   run the checks of SCENARIO (view_SCENARIO) for
#                             AGENT (claude, claude-partial, gemini, codex)
# with, set by the caller:
#   vjson   agentview --print --format json of the stream
#   vtext   agentview --print --format text of it
#   vraw    the stream itself (every line JSON)
#   vlive   yes when agentview read it live (its lines have arrival times)
# and vfail WHAT, called for each check that fails.
#
# Facts that are the CLI's own (ids, usage, cost, durations) are compared
# with the stream, so that the checks hold for every run of the scenario.

# The jq definitions of every check: $v is the summary, s its one session,
# $raw the stream's lines, $text the text output, $agent the agent.
view_lib='
def s: $v[0].sessions[0];
def calls: s.tool_calls;
def raws($t): [$raw[] | select(.type == $t)];
def last_result: raws("result") | last;
# The calls as [kind, state, summary, outcome]; a path is compared by its
# end, as the work directory differs from run to run.
def shape: [calls[] | [.kind, .state, .summary, .outcome]];
def like($want): shape as $got | ($got | length) == ($want | length) and
	all(range($want | length) as $i | [$got[$i], $want[$i]];
	    . as [$g, $w] | $g[0] == $w[0] and $g[1] == $w[1] and
	    ($g[2] | endswith($w[2])) and ($g[3] | startswith($w[3])));
def tools($names): [calls[].tool] == $names;
# How the session ended, and why (the text output says the reason).
def ended($st): s.state == $st;
def failed_with($why): s.state == "failed" and
	($text | split("\n") | map(select(startswith("== failed ("))) | length == 1 and
	 (.[0] | test($why)));
def reply($t): s.assistant_text == $t;
def notice($re): $text | split("\n") | any(test("^  ~ " + $re));
# Each call paired by the id the stream gives it, in the order it started
# (a sub-agent'"'"'s calls too).
def ids: if $agent == "claude" then
		[raws("assistant")[].message.content[] | select(.type == "tool_use") | .id]
	elif $agent == "gemini" then [raws("tool_use")[].tool_id]
	else [raws("item.started")[].item | select(.type | IN("agent_message",
		"reasoning", "error") | not) | .id] end;
def paired: all(calls[]; .started and (.state | IN("ok", "failed"))) and
	[calls[].call_id] == ids;
# An ISO time of the stream ("2026-11-23T20:57:14.459Z") in ms.
def iso_ms: (.[0:19] + "Z" | fromdateiso8601) * 1000 + (.[20:23] | tonumber);
# Usage, cost and duration as the stream gives them (Claude Code: a turn
# after a background task notification adds its time; tokens and cost of
# its last result. Codex: tokens of its last turn.completed; no cost; no
# time but when its lines arrived, read live. Gemini CLI: stats, no cost;
# a failed run says 0 ms, and its lines'"'"' times tell).
def accounted:
	if $agent == "claude" then
		s.usage.input_tokens == last_result.usage.input_tokens and
		s.usage.output_tokens == last_result.usage.output_tokens and
		s.cost_usd == last_result.total_cost_usd and
		s.duration_ms == (raws("result") | map(.duration_ms) | add)
	elif $agent == "gemini" then
		s.usage.input_tokens == last_result.stats.input_tokens and s.cost_usd == null and
		s.duration_ms == (if last_result.status == "success" then last_result.stats.duration_ms
			else ($raw[-1].timestamp | iso_ms) - ($raw[0].timestamp | iso_ms) end)
	else
		s.cost_usd == null and
		(if $live == "yes" then s.duration_ms >= 0 else s.duration_ms == null end) and
		(raws("turn.completed") | if length == 0 then s.usage == null
		 else s.usage.input_tokens == last.usage.input_tokens end)
	end;
# The prompt: only Gemini CLI echoes it.
def prompted($p): s.prompts == (if $agent == "gemini" then [$p] else [] end);
def whole: ($v[0].sessions | length) == 1 and s.agent == $agent and
	($v[0].diagnostics | length) == 0 and paired and accounted;
'

# vholds WHAT JQ: the check JQ (with the definitions above) holds.
vholds() {
	jq -n -e --arg agent "$view_agent" --arg live "${vlive:-no}" \
		--slurpfile v "$vjson" --slurpfile raw "$vraw" \
		--rawfile text "$vtext" "$view_lib $2" >/dev/null 2>"$vjson.jq" ||
		vfail "$1$( [ -s "$vjson.jq" ] && echo ": $(head -c 300 "$vjson.jq")")"
}

# by CLAUDE GEMINI CODEX: the word of the agent being checked.
by() {
	case $view_agent in
	claude) echo "$1" ;;
	gemini) echo "$2" ;;
	*) echo "$3" ;;
	esac
}

view_run() {
	view_agent=${1%-partial}
	vholds "one session of $view_agent: no diagnostic, every call paired by its id, usage, cost and duration as the stream says" whole
	"view_$(echo "$2" | tr - _)"
}

view_shell_ok() {
	vholds "ok: one shell call of echo hello, then the reply" \
		"ended(\"ok\") and like([[\"shell\", \"ok\", \"echo hello\", \"$(by hello hello 'exit 0')\"]]) and
		 tools([\"$(by Bash run_shell_command command_execution)\"]) and
		 reply(\"Let me run the command.The command printed hello. Done.\") and
		 prompted(\"Run the shell command \`echo hello\` and tell me what it printed.\")"
}

view_shell_fail() {
	# Gemini CLI says success for a command that exits 2: only its output
	# tells.
	vholds "ok: the shell call of ls /nonexistent $(by failed ok failed)" \
		"ended(\"ok\") and like([[\"shell\", \"$(by failed ok failed)\", \"ls /nonexistent\",
		 \"$(by 'exit 2' 'ls: cannot access' 'exit 2')\"]]) and
		 reply(\"Listing it.The directory /nonexistent does not exist: ls failed.\")"
}

view_parallel() {
	vholds "ok: two shell calls, both ok" \
		"ended(\"ok\") and ([calls[] | [.kind, .state, .summary]] | sort) ==
		 [[\"shell\", \"ok\", \"echo one\"], [\"shell\", \"ok\", \"echo two\"]] and
		 reply(\"Running both at once.They printed one and two.\")"
	# Only streams with a clock show them at once.
	[ "$view_agent" = codex ] && return
	vholds "the two calls overlap in time" \
		'calls[0].start_ms <= calls[1].start_ms and calls[1].start_ms <= calls[0].end_ms'
}

view_read() {
	if [ "$view_agent" = codex ]; then
		vholds "ok: a cat of notes.txt" 'like([["shell", "ok", "cat notes.txt", "exit 0"]])'
	else
		# Claude Code counts the empty line after the last newline.
		vholds "ok: one read of notes.txt" \
			"like([[\"read\", \"ok\", \"/notes.txt\", \"$(by '' read '')\"]]) and
			 (calls[0].outcome | test(\"$(by '^[34] lines$' '^read$' '')\"))"
	fi
	vholds "the reply" 'ended("ok") and reply("Reading the file.Its first line is alpha.")'
}

view_read_missing() {
	if [ "$view_agent" = codex ]; then
		vholds "ok: the cat of missing.txt failed, exit 1" 'like([["shell", "failed", "cat missing.txt", "exit 1"]])'
	else
		vholds "ok: the read of missing.txt failed with its message" \
			"like([[\"read\", \"failed\", \"/missing.txt\", \"$(by 'File does not exist.' 'File not found' '')\"]])"
	fi
	vholds "the reply" 'ended("ok") and reply("Reading it.missing.txt does not exist.")'
}

view_edit() {
	case $view_agent in
	codex) vholds "ok: a cat, then a file_change of greet.txt" \
		'like([["shell", "ok", "cat greet.txt", "exit 0"], ["edit", "ok", "/greet.txt", "1 file changed"]]) and
		 tools(["command_execution", "file_change"])' ;;
	*) vholds "ok: a read, then an edit of greet.txt, +1 −1" \
		"like([[\"read\", \"ok\", \"/greet.txt\", \"$(by '' read '')\"],
		       [\"edit\", \"ok\", \"/greet.txt\", \"+1 −1\"]])" ;;
	esac
	vholds "the reply" 'ended("ok") and reply("Reading it first.Now the edit.greet.txt now says hello there.")'
}

view_subagent() {
	case $view_agent in
	claude) vholds "ok: the Agent call, and the sub-agent's Bash call" \
		'like([["task", "ok", "Run echo from-sub", "done"], ["shell", "ok", "echo from-sub", "from-sub"]]) and
		 tools(["Agent", "Bash"]) and reply("I will delegate this.The sub-agent saw from-sub.")' ;;
	# The sub-agent's own calls are not in Gemini CLI's stream.
	gemini) vholds "ok: one invoke_agent call" \
		'like([["task", "ok", "generalist", "done"]]) and reply("I will delegate this.The sub-agent saw from-sub.")' ;;
	# Codex shows the wait only.
	codex) vholds "ok: the wait of a collab_tool_call" \
		'like([["task", "ok", "wait", "done"]]) and tools(["collab_tool_call"]) and
		 reply("I will delegate this.Waiting for it.The sub-agent saw from-sub.")' ;;
	esac
	vholds "ok" 'ended("ok")'
}

view_subagent_bg() {
	# The Agent call returns at once; the sub-agent's Bash call and its
	# text come after, and its notification says how it ended.
	vholds "ok: the Agent call, ended by its notification, and the sub-agent's Bash call" \
		'ended("ok") and like([["task", "ok", "Run echo from-sub", "background #"],
		                      ["shell", "ok", "echo from-sub", "from-sub"]]) and
		 (calls[0].outcome | endswith(": completed"))'
	vholds "the reply is the session's own, to the notification's second turn too" \
		'reply("Starting it in the background.The sub-agent is running; I will tell you when it is done.The sub-agent saw from-sub.")'
}

view_long_output() {
	vholds "ok: one shell call of seq 1 5000" \
		"ended(\"ok\") and like([[\"shell\", \"ok\", \"seq 1 5000\", \"$(by 1 1 'exit 0')\"]]) and
		 reply(\"Running seq.The last number is 5000.\")"
}

view_http500() {
	vholds "failed: the call before the error ran" 'like([["shell", "ok", "echo before-error", ""]])'
	vholds "failed, with the error" \
		"failed_with(\"$(by 'API Error: 500' 'API Error: .*500' 'high demand')\")"
}

view_cut() {
	vholds "failed: the call before the cut ran" 'like([["shell", "ok", "echo before-cut", ""]])'
	vholds "failed, with the error" \
		"failed_with(\"$(by 'Connection to the API was lost' 'Incomplete JSON segment' 'stream disconnected before completion')\")"
}

view_cut_retry() {
	vholds "ok: the call, and the reply of the second try" \
		'ended("ok") and like([["shell", "ok", "echo before-cut", ""]]) and
		 (s.assistant_text | endswith("This reply came whole on the second try."))'
	# Gemini CLI says its retry on stderr only.
	[ "$view_agent" = gemini ] ||
		vholds "the retry said as a notice" "notice(\"$(by 'API error, retrying' '' 'error: Reconnecting[.]{3} 1/1')\")"
}

view_rate_limit() {
	vholds "ok: no call, the reply" \
		'ended("ok") and (calls | length) == 0 and reply("Hi, after waiting for the rate limit.")'
	[ "$view_agent" = gemini ] ||
		vholds "the retry after the 429 said as a notice" "notice(\"$(by 'API error 429, retrying' '' 'error: Reconnecting.*429')\")"
}

view_rate_limit_fail() {
	vholds "failed: no call, with the 429" \
		"(calls | length) == 0 and failed_with(\"$(by 429 'Resource has been exhausted' '429 Too Many Requests')\")"
}
