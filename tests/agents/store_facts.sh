# tests/agents/store_facts.sh: what holds of a snapshot of an agent's own
# session store (../shared/STORES.md), taken by tests/agents/stores.sh while
# a real CLI ran or after it, or kept in tests/stores/AGENT/KIND/SNAPSHOT/.
# POSIX sh, sourced by tests/agents/run.sh (make test-agents, on the live
# snapshots) and tests/run_agents_offline.sh (make test, on the fixtures).
#
#   store_facts AGENT KIND SNAPSHOT DIR   the checks of one snapshot: its
#       files where STORES.md says, their first records, the state the
#       snapshot was taken in (running, busy, idle, waiting, done, failed)
#   store_reads_any AGENT KIND SNAPSHOT [CCUSAGE]   what agentview reads in
#       its session file, alone, for every agent; store_reads_claude, deeper
#       for Claude Code's
#   store_lists AGENT KIND SNAPSHOT DIR   what agentview lists of it (known
#       open: agentview does not read the stores yet, issue 23);
#       store_lists_live, of a live store
#   store_var AGENT                       the environment variable of its root
# with, set by the caller: sfail WHAT, called for each check that fails;
# jq, python3 (for SQLite, read from a copy) and $bin (agentview).
# SNAPSHOT names the moment; KIND the run (tests/agents/stores.sh).

store_var() {
	case $1 in
	claude) echo CLAUDE_CONFIG_DIR ;;
	codex) echo CODEX_HOME ;;
	gemini) echo GEMINI_CLI_HOME ;;
	copilot) echo COPILOT_HOME ;;
	esac
}

# sone PATTERN: the one file of the snapshot matching PATTERN (a glob under
# $sf_dir); fails and prints nothing when there is none or more.
sone() {
	# shellcheck disable=SC2086
	set -- $sf_dir/$1
	if [ "$#" -ne 1 ] || [ ! -f "$1" ]; then
		sfail "not one file $(echo "$*" | sed "s|$sf_dir/||g")"
		return 1
	fi
	echo "$1"
}

# sholds WHAT JQ FILE...: JQ holds of the lines of the files, slurped;
# given $kind, $snap, $a and $b (sf_a and sf_b), and $main (the session
# file's lines).
sholds() {
	sf_what=$1 sf_jq=$2
	shift 2
	jq -e -s --arg kind "$sf_kind" --arg snap "$sf_snap" --arg a "${sf_a-}" --arg b "${sf_b-}" \
		--slurpfile main "$sf_main" "$sf_jq" "$@" >/dev/null 2>"$sf_dir.jqerr" ||
		sfail "$sf_what$( [ -s "$sf_dir.jqerr" ] && echo ": $(head -c 200 "$sf_dir.jqerr")")"
	rm -f "$sf_dir.jqerr"
	sf_a= sf_b=
}

# sopen CHECK RC WHAT: a check known open (view_open names it by
# AGENT-store-KIND/SNAPSHOT:CHECK) that gave RC: said while it fails, a
# failure once it passes.
sopen() {
	sf_key=$sf_agent-store-$sf_kind/$sf_snap:$1
	sf_why=$(view_open "$sf_key")
	if [ -z "$sf_why" ]; then
		[ "$2" -eq 0 ] || sfail "$1: $3"
	else
		view_open_seen=$((${view_open_seen:-0} + 1))
		if [ "$2" -eq 0 ]; then
			sfail "$sf_key passes now: remove it from view_open in tests/agents/view.sh (it was: $sf_why)"
		else
			echo "known open $sf_key: $3 — $sf_why"
		fi
	fi
}

# sql DB QUERY: the rows of QUERY (tab-separated) in the SQLite database DB
# of the snapshot, read from a copy of it and its write-ahead log.
sql() {
	sf_sqldir=$(mktemp -d "${TMPDIR:-/tmp}/agentview-sql.XXXXXX") || return 1
	cp "$sf_dir/$1" "$sf_sqldir/"
	for sf_x in -wal -shm; do
		[ -f "$sf_dir/$1$sf_x" ] && cp "$sf_dir/$1$sf_x" "$sf_sqldir/"
	done
	python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for r in c.execute(sys.argv[2]):
    print("\t".join("" if v is None else str(v) for v in r))
' "$sf_sqldir/$(basename "$1")" "$2"
	sf_rc=$?
	rm -rf "$sf_sqldir"
	return "$sf_rc"
}

store_facts() {
	sf_agent=$1 sf_kind=$2 sf_snap=$3 sf_dir=$4
	[ -z "$(find "$sf_dir" -name '*.key' | head -1)" ] || sfail "a key file is in the snapshot"
	"sf_$1"
}

# Claude Code: projects/<slug>/<session>.jsonl, sessions/<pid>.json while
# the process lives.
sf_claude() {
	sf_main=$(sone 'projects/*/*.jsonl') || return
	sf_a=${sf_main#"$sf_dir"/projects/}
	sholds "projects/<slug>/<session>.jsonl: the slug is the cwd with every non-alphanumeric made -, the name the session id" '
		first(.[] | select(.cwd)) as $r | $a == ($r.cwd | gsub("[^A-Za-z0-9]"; "-")) + "/" + $r.sessionId + ".jsonl"' "$sf_main"
	sholds "the first user record is the prompt, a string, from $( [ "$sf_kind" = tmux ] || [ "$sf_kind" = ask ] && echo 'typing (cli)' || echo 'the SDK (sdk-cli)')" '
		first(.[] | select(.type == "user")) | (.message.content | type == "string") and
		if $kind | IN("tmux", "ask") then .promptSource == "typed" and .entrypoint == "cli"
		else .promptSource == "sdk" and .entrypoint == "sdk-cli" end' "$sf_main"
	sholds "no init, no result: the stream's own lines are not in the store" \
		'all(.[]; .type != "result" and (.type != "system" or .subtype != "init"))' "$sf_main"
	case $sf_snap in
	running | busy | idle | waiting)
		sf_live=$(sone 'sessions/*.json') || return
		sf_a=$(basename "$sf_main" .jsonl) sf_b=$(basename "$sf_live" .json)
		sholds "sessions/<pid>.json: the session, $(echo "$sf_snap" | sed 's/running/busy/')" '
			.[0] | .sessionId == $a and (.pid | tostring) == $b and .kind == "interactive" and
			.status == ({"running": "busy", "busy": "busy", "idle": "idle", "waiting": "waiting"}[$snap]) and
			(if $snap == "waiting" then .waitingFor == "permission prompt" else .waitingFor == null end)' "$sf_live"
		;;
	done)
		[ -z "$(ls "$sf_dir/sessions" 2>/dev/null)" ] || sfail "sessions/ still holds a file after the exit"
		sholds "a cost-state record at the exit" 'any(.[]; .type == "cost-state" and .totalCostUSD > 0)' "$sf_main"
		;;
	esac
	case $sf_kind-$sf_snap in
	ask-waiting) sholds "the Bash call waits: its tool_use has no tool_result" '
		[.[] | select(.type == "assistant") | .message.content[] | select(.type == "tool_use")] as $u |
		($u | length) == 1 and ([.[] | select(.type == "user") | .message.content | arrays | .[] |
		 select(.type == "tool_result" and .tool_use_id == $u[0].id)] | length) == 0' "$sf_main" ;;
	ask-done) sholds "the Bash call's result, allowed by the user once" '
		any(.[]; .type == "user" and .permissionDecision.source == "user_temporary" and
		    (.message.content[0] | .type == "tool_result" and .is_error == false))' "$sf_main" ;;
	failed-done) sholds "the failure: an assistant record isApiErrorMessage, 500, from <synthetic>" '
		any(.[]; .type == "assistant" and .isApiErrorMessage == true and .apiErrorStatus == 500 and
		    .message.model == "<synthetic>")' "$sf_main" ;;
	subagents-done)
		sf_sub=$(dirname "$sf_main")/$(basename "$sf_main" .jsonl)/subagents
		set -- "$sf_sub"/agent-*.jsonl
		[ "$#" -eq 2 ] || sfail "not two subagents/agent-*.jsonl: $*"
		for sf_x in "$@"; do
			sf_a=$(basename "$sf_x" .jsonl | sed 's/^agent-//')
			sholds "$(basename "$sf_x"): sidechain records of its agent id" \
				'all(.[] | select(.type == "user" or .type == "assistant"); .isSidechain == true and .agentId == $a)' "$sf_x"
		done
		sholds "each .meta.json names an Agent call of the session: foreground, then background" '
			[$main[] | select(.type == "assistant") | .message.content[] | select(.type == "tool_use" and .name == "Agent") | .id] as $ids |
			(map(.toolUseId) | sort) == ($ids | sort) and (sort_by(.toolUseId) | map(.requestShape)) == ["foreground", "background"]' \
			"$sf_sub"/agent-*.meta.json
		;;
	esac
}

# Codex: sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, the SQLite indexes.
sf_codex() {
	sf_main=$(sone 'sessions/*/*/*/rollout-*.jsonl') || return
	sf_a=$(basename "$sf_main")
	sholds "its first record: session_meta, the file's id, 0.171.0, $( [ "$sf_kind" = tmux ] || [ "$sf_kind" = ask ] && echo codex-tui || echo codex_exec)" '
		.[0] | .payload.id as $id | .type == "session_meta" and ($a | endswith("-" + $id + ".jsonl")) and
		($a | test("^rollout-[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}-[0-9]{2}-[0-9]{2}-")) and
		.payload.cli_version == "0.171.0" and
		.payload.originator == (if $kind | IN("tmux", "ask") then "codex-tui" else "codex_exec" end)' "$sf_main"
	sholds "every record has a time and an ordinal" 'all(.[]; (.timestamp | test("^20")) and (.ordinal | type == "number"))' "$sf_main"
	case $sf_snap in
	running | busy | waiting) sholds "the turn is open: task_started, no task_complete" \
		'any(.[]; .payload.type? == "task_started") and all(.[]; .payload.type? != "task_complete")' "$sf_main" ;;
	*) sholds "the turn is closed: task_complete" 'any(.[]; .payload.type? == "task_complete")' "$sf_main" ;;
	esac
	case $sf_kind-$sf_snap in
	failed-done) sholds "task_complete says the error" \
		'any(.[]; .payload.type? == "task_complete" and (.payload.error.message | test("high demand")))' "$sf_main" ;;
	ask-waiting) sholds "the exec_command asking to run outside the sandbox has no output yet" '
		[.[] | select(.type == "response_item" and .payload.type == "function_call")] | last | .payload as $c |
		($c.arguments | fromjson | .sandbox_permissions == "require_escalated")' "$sf_main"
		sholds "no function_call_output for it" '
		([.[] | select(.type == "response_item" and .payload.type == "function_call")] | last | .payload.call_id) as $id |
		all(.[]; .payload.type? != "function_call_output" or .payload.call_id != $id)' "$sf_main" ;;
	ask-done | headless-done | tmux-idle | tmux-done) sholds "the command's item: CommandExecution, exit 0, with its start and end" '
		any(.[]; .payload.type? == "item_completed" and .payload.item.type == "CommandExecution" and
		    .payload.item.exit_code == 0 and .payload.completed_at_ms >= .payload.started_at_ms)' "$sf_main" ;;
	esac
	if [ -f "$sf_dir/thread_history_1.sqlite" ]; then
		sf_want=$(case $sf_snap in running | waiting) echo inProgress ;; *) [ "$sf_kind" = failed ] && echo failed || echo completed ;; esac)
		sf_got=$(sql thread_history_1.sqlite 'select status from thread_turns order by started_at desc limit 1' 2>&1)
		[ "$sf_got" = "$sf_want" ] || sfail "thread_history_1.sqlite: the turn is \"$sf_got\", not $sf_want"
		sf_got=$(sql state_5.sqlite 'select rollout_path, cli_version from threads' 2>&1)
		case $sf_got in
		*"/$(basename "$sf_main")	0.171.0") ;;
		*) sfail "state_5.sqlite: threads does not name the rollout: $sf_got" ;;
		esac
	fi
}

# Gemini CLI: .gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl, a
# patch log (replayed: a later record of an id replaces it, $set.messages
# resets the list, $rewindTo cuts it).
sf_gemini() {
	sf_main=$(sone '.gemini/tmp/*/chats/session-*.jsonl') || return
	sf_project=$(basename "$(dirname "$(dirname "$sf_main")")")
	sf_a=$(basename "$sf_main")
	sholds "its first record: the session id (the file name's end), the project hash, main" '
		.[0] | .sessionId as $id | ($a | test("^session-[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}-[0-9]{2}-" + $id[0:8] + "[.]jsonl$")) and
		(.projectHash | length == 64) and .kind == "main"' "$sf_main"
	sf_a=$sf_project sf_b=$(cat "$sf_dir/.gemini/tmp/$sf_project/.project_root" 2>/dev/null)
	sholds ".gemini/projects.json names the project folder by its path, as .project_root does" \
		'.[0].projects[$b] == $a and ($b | startswith("/"))' "$sf_dir/.gemini/projects.json"
	# The messages once the patch log is replayed.
	sf_replay='reduce .[] as $r ([];
		if $r["$set"].messages then $r["$set"].messages
		elif $r["$rewindTo"] then (map(.id) | index($r["$rewindTo"])) as $i | if $i then .[:$i] else . end
		elif $r.id and $r.type then (map(.id) | index($r.id)) as $i | if $i then .[$i] = $r else . + [$r] end
		else . end)'
	[ "$sf_snap" = waiting ] ||
		sholds "a gemini message is written again with the same id once its tools ran" \
			'[.[] | select(.type == "gemini") | .id] | length > (unique | length)' "$sf_main"
	case $sf_kind-$sf_snap in
	ask-waiting) sholds "waiting: the last gemini message has its text and no toolCalls" \
		"$sf_replay | [.[] | select(.type == \"gemini\")] | last | .content == \"Making it.\" and ((.toolCalls // []) | length == 0)" "$sf_main" ;;
	ask-done) sholds "the shell call in the gemini message, success, then the reply" \
		"$sf_replay | [.[] | select(.type == \"gemini\")] | (.[0].toolCalls[0] | .name == \"run_shell_command\" and .status == \"success\") and .[-1].content == \"made.txt is there.\"" "$sf_main" ;;
	failed-done) sholds "no error record: the file ends with the tool's result" \
		"$sf_replay | all(.[]; .type != \"error\") and (last | .type == \"user\" and .content[0].functionResponse)" "$sf_main" ;;
	*-running | *-busy) sholds "the shell call done, no reply after it yet" \
		"$sf_replay | ([.[] | select(.type == \"gemini\")] | length == 1 and (.[0].toolCalls[0].status == \"success\"))" "$sf_main" ;;
	*) sholds "the shell call done, then the reply, with tokens" \
		"$sf_replay | [.[] | select(.type == \"gemini\")] | (.[0].toolCalls[0].status == \"success\") and (.[-1] | .content == \"The command printed hello. Done.\" and .tokens.input > 0)" "$sf_main" ;;
	esac
	# /quit writes nothing.
	if [ "$sf_kind-$sf_snap" = tmux-done ] && [ -d "$sf_dir/../idle" ]; then
		cmp -s "$sf_main" "$sf_dir/../idle/${sf_main#"$sf_dir"/}" || sfail "/quit changed the chat file"
	fi
}

# Copilot CLI: session-state/<id>/events.jsonl, workspace.yaml,
# inuse.<pid>.lock while a process holds the session.
sf_copilot() {
	sf_main=$(sone 'session-state/*/events.jsonl') || return
	sf_sid=$(basename "$(dirname "$sf_main")")
	sf_a=$sf_sid
	# The records are one chain by parentId, each record's parent another
	# record; not always in the file's order: with a sub-agent, a record
	# was seen written just before the one it names as its parent.
	sholds "its first record: session.start of the folder's id, 1.0.102; the records one chain by parentId" '
		(.[0] | .type == "session.start" and .data.sessionId == $a and .data.copilotVersion == "1.0.102" and
		 .data.producer == "copilot-agent") and
		([.[].id] as $ids | [.[1:][].parentId] as $ps |
		 ($ps | all(. as $p | $ids | index([$p]) != null)) and ($ps | unique | length) == ($ps | length) and
		 ($ids | unique | length) == length)' "$sf_main"
	grep -qxF "cwd: $(head -1 "$sf_main" | jq -r .data.context.cwd)" "$sf_dir/session-state/$sf_sid/workspace.yaml" ||
		sfail "workspace.yaml does not give session.start's cwd"
	set -- "$sf_dir/session-state/$sf_sid"/inuse.*.lock
	case $sf_snap in
	done)
		[ -f "$1" ] && sfail "an inuse lock is left after the exit: $(basename "$1")"
		sholds "session.shutdown ends it" '.[-1].type == "session.shutdown"' "$sf_main"
		;;
	*)
		[ "$#" -eq 1 ] && [ -f "$1" ] && [ "$(cat "$1")" = "$(basename "$1" | sed 's/^inuse\.\([0-9]*\)\.lock$/\1/')" ] ||
			sfail "no inuse.<pid>.lock holding its pid while the CLI runs"
		sholds "no session.shutdown while it runs" 'all(.[]; .type != "session.shutdown")' "$sf_main"
		;;
	esac
	case $sf_snap in
	running | busy) sholds "a turn open: assistant.turn_start without its turn_end" '
		[.[] | select(.type | IN("assistant.turn_start", "assistant.turn_end"))] | last | .type == "assistant.turn_start"' "$sf_main" ;;
	waiting) sholds "permission.requested for the shell call, no permission.completed" '
		[.[] | select(.type == "permission.requested") | .data] as $q | ($q | length) == 1 and
		$q[0].permissionRequest.kind == "shell" and all(.[]; .type != "permission.completed")' "$sf_main" ;;
	esac
	case $sf_kind-$sf_snap in
	ask-done) sholds "permission.completed: approved, by the request's id" '
		[.[] | select(.type | startswith("permission.")) | .data] as $p |
		($p | length) == 2 and $p[0].requestId == $p[1].requestId and $p[1].result.kind == "approved"' "$sf_main" ;;
	failed-done) sholds "session.error: 500, before the shutdown" \
		'any(.[]; .type == "session.error" and .data.statusCode == 500)' "$sf_main" ;;
	subagent-done) sholds "subagent.started and subagent.completed of the task call" '
		[.[] | select(.type == "assistant.message") | .data.toolRequests[] | select(.name == "task") | .toolCallId] as $t |
		($t | length) == 1 and any(.[]; .type == "subagent.started" and .data.toolCallId == $t[0]) and
		any(.[]; .type == "subagent.completed" and .data.toolCallId == $t[0])' "$sf_main" ;;
	*-done | *-idle) sholds "the usage of each model call: session.usage_record" \
		'any(.[]; .type == "session.usage_record" and .data.usage.inputTokens > 0)' "$sf_main" ;;
	esac
}

# store_reads_any AGENT KIND SNAPSHOT [CCUSAGE]: agentview --print --format json
# of the session file store_facts found ($sf_main): one session of the
# agent's store, no diagnostic; once the snapshot is done or idle, every
# call paired by its id with its start and end times; once done, the state
# (ok, or failed for a failed run, where the store says it); with CCUSAGE
# the same token totals. Known open for the stores agentview does not
# read yet.
store_reads_any() {
	[ -n "${sf_main:-}" ] && [ -f "$sf_main" ] || return
	sf_json=$(mktemp "${TMPDIR:-/tmp}/agentview-reads.XXXXXX") || return
	"$bin" --print --format json "$sf_main" >"$sf_json" 2>/dev/null
	# Gemini CLI's store says neither (STORES.md §3). An idle session's
	# file alone has no end (the list says done from its process's state).
	sf_state=$(case $1-$2-$3 in gemini-*) echo '' ;; *-failed-done) echo failed ;;
		*-done) echo ok ;; *) echo '' ;; esac)
	jq -e --arg agent "$1" --arg snap "$3" --arg state "$sf_state" '
		(.sessions | length) == 1 and (.diagnostics | length) == 0 and
		(.sessions[0] | (.agent | startswith($agent)) and
		 ($state == "" or .state == $state) and
		 (if $snap | IN("done", "idle") then (.tool_calls | length) > 0 and
		  all(.tool_calls[]; .started and (.state | IN("ok", "failed")) and
		      .start_ms != null and .end_ms != null and .end_ms >= .start_ms)
		  else true end))' "$sf_json" >/dev/null 2>&1
	sopen reads "$?" "its session file read as the store's: one session, its calls paired with their times$( [ -n "$sf_state" ] && echo ", $sf_state")"
	if [ -n "${4:-}" ]; then
		jq -e -n --slurpfile v "$sf_json" --slurpfile c "$4" '
			$v[0].sessions[0].usage as $u | $c[0].totals as $t |
			($u.input_tokens + $u.output_tokens + $u.cache_read_input_tokens + $u.cache_creation_input_tokens) == $t.totalTokens and
			$u.output_tokens == $t.outputTokens and $u.cache_read_input_tokens == $t.cacheReadTokens' >/dev/null 2>&1
		sopen reads-ccusage "$?" "its session file's tokens those ccusage counts (ccusage.json)"
	fi
	rm -f "$sf_json"
}

# store_lists_live AGENT KIND SNAPSHOT ROOT STATE...: agentview alone, with
# the agent's root the live store (the CLI still in that moment), lists one
# session in one of the STATEs (the JSON summary's names: live, waiting).
store_lists_live() {
	sf_agent=$1 sf_kind=$2 sf_snap=$3
	sf_home=$(mktemp -d "${TMPDIR:-/tmp}/agentview-lists.XXXXXX") || return
	env -i "PATH=$PATH" "HOME=$sf_home" "XDG_STATE_HOME=$sf_home/state" "TMPDIR=$sf_home" \
		"AGENTVIEW_SOURCES=$1" "$(store_var "$1")=$4" \
		"$bin" --print --format json </dev/null >"$sf_home/list.json" 2>"$sf_home/err"
	shift 4
	jq -e --arg states "$*" '(.sessions | length) == 1 and (.sessions[0].state | IN($states | split(" ")[]))' \
		"$sf_home/list.json" >/dev/null 2>&1
	sopen live "$?" "while the CLI is in it, one session $(echo "$*" | sed 's/ / or /g')"
	rm -rf "$sf_home"
}

# store_lists AGENT KIND SNAPSHOT DIR [CCUSAGE]: agentview alone, with the
# agent's root the snapshot (AGENTVIEW_SOURCES=AGENT), lists its session:
# one row, the store's session id, done or failed at the end, never running
# for a process that is gone; and with CCUSAGE (its ccusage.json) the same
# token totals. Known open: agentview does not read the stores yet.
store_lists() {
	sf_agent=$1 sf_kind=$2 sf_snap=$3 sf_dir=$4
	sf_home=$(mktemp -d "${TMPDIR:-/tmp}/agentview-lists.XXXXXX") || return
	env -i "PATH=$PATH" "HOME=$sf_home" "XDG_STATE_HOME=$sf_home/state" "TMPDIR=$sf_home" \
		"AGENTVIEW_SOURCES=$1" "$(store_var "$1")=$4" \
		"$bin" --print --format json </dev/null >"$sf_home/list.json" 2>"$sf_home/err"
	sf_state=$(case $3-$2 in done-failed) echo failed ;; done-*) echo ok ;; *) echo '' ;; esac)
	jq -e --arg state "$sf_state" '(.sessions | length) == 1 and (.sessions[0] | .agent != null and
		(if $state == "" then (.state | IN("live", "waiting") | not) else .state == $state end))' \
		"$sf_home/list.json" >/dev/null 2>&1
	sopen lists "$?" "one row of the store's session, $( [ -n "$sf_state" ] && echo "$sf_state" || echo 'not running (its process is gone)')"
	# --status-line (which reads states only) says what the list's last
	# line says.
	sf_a=$(env -i "PATH=$PATH" "HOME=$sf_home" "XDG_STATE_HOME=$sf_home/state" "TMPDIR=$sf_home" \
		LC_ALL=C.UTF-8 "AGENTVIEW_SOURCES=$1" "$(store_var "$1")=$4" \
		"$bin" --status-line </dev/null 2>/dev/null)
	sf_b=$(env -i "PATH=$PATH" "HOME=$sf_home" "XDG_STATE_HOME=$sf_home/state" "TMPDIR=$sf_home" \
		LC_ALL=C.UTF-8 "AGENTVIEW_SOURCES=$1" "$(store_var "$1")=$4" \
		"$bin" --print </dev/null 2>/dev/null | tail -n 1)
	[ -n "$sf_a" ] && [ "$sf_a" = "$sf_b" ]
	sopen status-line "$?" "--status-line ($sf_a) as the list's last line ($sf_b)"
	if [ -n "${5:-}" ]; then
		jq -e -n --slurpfile v "$sf_home/list.json" --slurpfile c "$5" '
			$v[0].sessions[0].usage as $u | $c[0].totals as $t |
			($u.input_tokens + $u.output_tokens + $u.cache_read_input_tokens + $u.cache_creation_input_tokens) == $t.totalTokens and
			$u.output_tokens == $t.outputTokens' >/dev/null 2>&1
		sopen ccusage "$?" "the session's tokens those ccusage counts (ccusage.json)"
		# The row of the list printed (its head and tail read, then its
		# middle) says the same tokens in and out as the JSON.
		env -i "PATH=$PATH" "HOME=$sf_home" "XDG_STATE_HOME=$sf_home/state" "TMPDIR=$sf_home" \
			"AGENTVIEW_SOURCES=$1" "$(store_var "$1")=$4" \
			"$bin" --print --format markdown </dev/null >"$sf_home/list.md" 2>/dev/null
		sf_a=$(awk -F ' [|] ' 'NR == 3 { print $10 }' "$sf_home/list.md")
		sf_b=$(jq -r '.sessions[0].usage | [.input_tokens, .output_tokens][]' "$sf_home/list.json" |
			awk 'function n(v) { return v < 1000 ? v : v < 1e6 ? sprintf("%.1fk", v / 1e3) : sprintf("%.1fM", v / 1e6) }
				{ printf("%s%s", (NR > 1 ? "/" : ""), n($1)) }')
		[ -n "$sf_b" ] && [ "$sf_a" = "$sf_b" ]
		sopen row-tokens "$?" "the printed row's tokens ($sf_a) the JSON's ($sf_b)"
	fi
	rm -rf "$sf_home"
}

# store_reads_claude AGENT KIND SNAPSHOT DIR [CCUSAGE]: agentview reads the
# session file of the snapshot (agentview FILE) as deeply as the stream:
# one session of the store's adapter with the store's id, model and cwd,
# no diagnostic, every call paired by its id at the times of its records,
# ok or failed once the CLI exited (else incomplete: the file ends without
# an end), its cost the last cost-state's; with CCUSAGE, the tokens
# ccusage counts (the sub-agents' files read as more of the session).
# Claude Code's store only, so far.
store_reads_claude() {
	sf_agent=$1 sf_kind=$2 sf_snap=$3 sf_dir=$4
	[ "$1" = claude ] || return 0
	sf_main=$(sone 'projects/*/*.jsonl') || return
	sf_out=$(mktemp "${TMPDIR:-/tmp}/agentview-reads.XXXXXX") || return
	"$bin" --print --format json "$sf_main" >"$sf_out" 2>/dev/null
	sf_state=$(case $3-$2 in done-failed) echo failed ;; done-*) echo ok ;; *) echo incomplete ;; esac)
	sf_a=$(basename "$sf_main" .jsonl) sf_b=$sf_state
	sholds "read as a session: the store's id, model and cwd, $sf_state, no diagnostic" '
		.[0] as $v | ($v.sessions | length) == 1 and ($v.diagnostics | length) == 0 and
		($v.sessions[0] | .agent == "claude-store" and .session_id == $a and .state == $b and
		 .model == ([$main[] | select(.type == "assistant") | .message.model |
			     select(. != "<synthetic>")] | first) and
		 .cwd == ([$main[] | .cwd // empty] | first))' "$sf_out"
	sholds "every call paired by its id, started and ended at its records' times; a sub-agent's under its call" '
		.[0].sessions[0].tool_calls as $c | ($c | map(select(.parent == null) | .call_id)) as $top |
		$top == [$main[] | select(.type == "assistant") | .message.content[] |
			select(.type == "tool_use") | .id] and
		all($c[] | select(.parent != null); .parent as $p | $top | index($p) != null) and
		all($c[]; .started and .start_ms != null and
		    (if .state | IN("ok", "failed") then .end_ms >= .start_ms else true end))' "$sf_out"
	sholds "its cost: the last cost-state's" '
		.[0].sessions[0].cost_usd == ([$main[] | select(.type == "cost-state") | .totalCostUSD] | last)' "$sf_out"
	if [ -n "${5:-}" ]; then
		sholds "the tokens ccusage counts (ccusage.json), the sub-agents' included" '
			.[0].sessions[0].usage as $u | .[1].totals as $t |
			$u.input_tokens == $t.inputTokens and $u.output_tokens == $t.outputTokens and
			$u.cache_read_input_tokens == $t.cacheReadTokens and
			$u.cache_creation_input_tokens == $t.cacheCreationTokens' "$sf_out" "$5"
	fi
	rm -f "$sf_out"
}
