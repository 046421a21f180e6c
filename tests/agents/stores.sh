# tests/agents/stores.sh: the store runs of make test-agents, sourced by
# tests/agents/run.sh (bash; it uses run.sh's install, server_start, fail).
# Each CLI runs with its own store root in a scratch folder (CLAUDE_CONFIG_DIR,
# CODEX_HOME, GEMINI_CLI_HOME, COPILOT_HOME), headless and interactively in
# tmux (its prompt typed with send-keys), and the store it writes is
# snapshotted at chosen moments: while a reply is held back by the model
# server (running, busy), while a permission prompt waits for its answer
# (waiting), at the prompt after the answer (idle) and after the CLI exited
# (done). Each snapshot is checked (tests/agents/store_facts.sh); with
# --capture it becomes the fixture tests/stores/AGENT/KIND/SNAPSHOT/, the
# files as the CLI wrote them, and ccusage's totals of the last snapshot go
# to tests/stores/AGENT/KIND/ccusage.json.
#
# The kinds of run (store_run AGENT KIND):
#   headless   the CLI's headless mode on store-run: running, done
#   failed     headless, the model answering HTTP 500 (scenario http500): done
#   subagents  Claude Code headless on subagents (two sub-agent files): done
#   subagent   Copilot CLI headless on subagent (subagent.* events): done
#   tmux       interactive in tmux on store-run, tools allowed: busy, idle, done
#   ask        interactive on store-ask, a command that needs permission:
#              waiting (the prompt on screen), done (allowed, answered, exited)

stores_dir=$top/tests/stores

# store_root AGENT D: the folder the CLI keeps its sessions in, for a run
# in D: CLAUDE_CONFIG_DIR, CODEX_HOME, COPILOT_HOME; for Gemini CLI,
# GEMINI_CLI_HOME, the folder that holds its .gemini.
store_root() {
	echo "$2/root"
}

# store_files AGENT SNAPSHOT: the paths under the store root a snapshot
# keeps (those STORES.md names), one a line. The SQLite indexes (half a
# MB or more with their write-ahead logs) are kept where they tell a state:
# the headless run while it runs, the failed run's end, the ask run while
# it waits and at its end.
store_files() {
	local sql=no
	case $2 in
	running | waiting | failed-done | ask-done) sql=yes ;;
	esac
	case $1 in
	claude) printf '%s\n' projects sessions tasks history.jsonl ;;
	codex)
		printf '%s\n' sessions archived_sessions session_index.jsonl history.jsonl
		[ "$sql" = yes ] && printf '%s\n' state_5.sqlite state_5.sqlite-wal state_5.sqlite-shm \
			thread_history_1.sqlite thread_history_1.sqlite-wal thread_history_1.sqlite-shm
		;;
	gemini) printf '%s\n' .gemini/tmp .gemini/history .gemini/projects.json ;;
	copilot)
		printf '%s\n' session-state
		[ "$sql" = yes ] && printf '%s\n' session-store.db session-store.db-wal session-store.db-shm
		;;
	esac
}

# store_snap AGENT KIND SNAPSHOT D: copies the store's files (store_files)
# to D/snap/SNAPSHOT, as they are (times kept). Never a key file: Claude
# Code's sessions/<pid>.<hash>.key is left out by name, never opened.
store_snap() {
	local root dest paths=() p
	root=$(store_root "$1" "$4")
	dest=$4/snap/$3
	rm -rf "$dest"
	mkdir -p "$dest"
	while IFS= read -r p; do
		[ -e "$root/$p" ] && paths+=("$p")
	done < <(store_files "$1" "$([ "$3" = done ] && echo "$2-done" || echo "$3")")
	[ "${#paths[@]}" -eq 0 ] && return
	tar -C "$root" --exclude='*.key' -cf - "${paths[@]}" 2>>"$4/snap.err" |
		tar -C "$dest" -xpf - 2>>"$4/snap.err"
	if [ -n "$(find "$dest" -name '*.key' | head -1)" ]; then
		find "$dest" -name '*.key' -delete
		fail "$1-store-$2" "a key file reached the snapshot $3 (removed)"
	fi
}

# store_setup AGENT KIND D PORT: the CLI's configuration in its store root
# (left out of the snapshots), and the environment of its runs, one
# assignment a line.
store_setup() {
	local agent=$1 kind=$2 d=$3 port=$4 root
	root=$(store_root "$agent" "$d")
	mkdir -p "$root"
	case $agent in
	claude)
		# Onboarding done, the key "x" approved, the folder trusted: the
		# interactive CLI starts at its prompt. Interactive, it fetches a
		# model catalog from downloads.claude.ai and clones its plugin
		# marketplace from github.com unless told not to.
		cat >"$root/.claude.json" <<-EOF
		{"hasCompletedOnboarding": true, "theme": "dark",
		 "customApiKeyResponses": {"approved": ["x"], "rejected": []},
		 "projects": {"$d/work": {"hasTrustDialogAccepted": true, "allowedTools": []}}}
		EOF
		printf '%s\n' "CLAUDE_CONFIG_DIR=$root" "ANTHROPIC_BASE_URL=http://127.0.0.1:$port" \
			ANTHROPIC_API_KEY=x CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 \
			DISABLE_AUTOUPDATER=1 DISABLE_ERROR_REPORTING=1 CLAUDE_CODE_MAX_RETRIES=0 \
			CLAUDE_CODE_MODEL_CATALOG=off CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1
		;;
	codex)
		# The approval of the ask run: on-request, and the model asks for
		# its command to run outside the sandbox. The notice of a newer
		# model is marked seen, tooltips off.
		codex_config "$root/config.toml" "$port" 0 \
			"$(printf '%s\n' 'approval_policy = "on-request"' 'sandbox_mode = "workspace-write"')"
		cat >>"$root/config.toml" <<-EOF
		[projects."$d/work"]
		trust_level = "trusted"
		[notice.model_migrations]
		"gpt-5.5" = "gpt-6-sol"
		[tui]
		show_tooltips = false
		EOF
		# The TUI fetches a tip from raw.githubusercontent.com whatever its
		# configuration: the model server is its proxy, and refuses.
		printf '%s\n' "CODEX_HOME=$root" OPENAI_API_KEY=x "HTTPS_PROXY=http://127.0.0.1:$port" \
			NO_PROXY=127.0.0.1,localhost
		;;
	gemini)
		mkdir -p "$root/.gemini"
		cat >"$root/.gemini/settings.json" <<-EOF
		{"security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
		 "general": {"maxAttempts": 1, "disableAutoUpdate": true, "enableAutoUpdate": false,
		             "enableAutoUpdateNotification": false},
		 "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false}}
		EOF
		printf '%s\n' "GEMINI_CLI_HOME=$root" "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:$port" \
			GEMINI_API_KEY=x
		;;
	copilot)
		printf '{"trusted_folders": ["%s"]}\n' "$d/work" >"$root/config.json"
		printf '%s\n' "COPILOT_HOME=$root" "XDG_CACHE_HOME=$tmp/copilot-cache" \
			"COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:$port/v1" COPILOT_OFFLINE=true \
			COPILOT_MODEL=claude-sonnet-4.5 COPILOT_AUTO_UPDATE=false
		;;
	esac
}

# store_argv AGENT KIND PROMPT: the CLI's command line, one argument a line
# (no prompt for an interactive run: it is typed).
store_argv() {
	local agent=$1 kind=$2 prompt=$3 cmd
	eval "cmd=\$cmd_$agent"
	case $agent-$kind in
	claude-tmux) printf '%s\n' "$cmd" --allowedTools Bash ;;
	claude-ask) printf '%s\n' "$cmd" --permission-mode default ;;
	claude-*) printf '%s\n' "$cmd" -p "$prompt" --output-format stream-json --verbose \
		--allowedTools Bash Agent Task ;;
	codex-tmux) printf '%s\n' "$cmd" --dangerously-bypass-approvals-and-sandbox ;;
	codex-ask) printf '%s\n' "$cmd" ;;
	codex-*) printf '%s\n' "$cmd" exec --json --skip-git-repo-check \
		--dangerously-bypass-approvals-and-sandbox "$prompt" ;;
	gemini-tmux) printf '%s\n' "$cmd" -m gemini-2.5-pro --yolo ;;
	gemini-ask) printf '%s\n' "$cmd" -m gemini-2.5-pro ;;
	gemini-*) printf '%s\n' "$cmd" -m gemini-2.5-pro -p "$prompt" --output-format stream-json --yolo ;;
	copilot-tmux) printf '%s\n' "$cmd" --allow-all-tools ;;
	copilot-ask) printf '%s\n' "$cmd" ;;
	copilot-*) printf '%s\n' "$cmd" -p "$prompt" --allow-all-tools --output-format json ;;
	esac
}

# store_scenario KIND: the model server's scenario of a kind of run.
store_scenario() {
	case $1 in
	headless | tmux) echo store-run ;;
	ask) echo store-ask ;;
	failed) echo http500 ;;
	*) echo "$1" ;;
	esac
}

# held D TURN: the model server holds back TURN ("main turn 1") now.
held() {
	grep -q "\"holding\": \"$2\"" "$1/server.log" 2>/dev/null
}

# answered D TURN: the model server answered TURN.
answered() {
	grep -q "\"answer\": \"$2 (" "$1/server.log" 2>/dev/null
}

# store_headless AGENT KIND: a headless run, its store snapshotted while the
# last reply is held back (store-run only) and after the CLI's exit.
store_headless() {
	local agent=$1 kind=$2 d=$3 cpid rc envs=() args=()
	mapfile -t envs < <(store_setup "$agent" "$kind" "$d" "$port")
	mapfile -t args < <(store_argv "$agent" "$kind" "$prompt")
	(cd "$d/work" && env -i "PATH=$PATH" "HOME=$d/home" "TMPDIR=$d/tmp" LANG=C.UTF-8 "${envs[@]}" \
		timeout -k 5 "$timeout_s" $(store_strace "$d") "${args[@]}") </dev/null >"$d/out" 2>"$d/err" &
	cpid=$!
	if [ "$kind" = headless ]; then
		if poll 30 held "$d" "main turn 1"; then
			sleep 1
			store_snap "$agent" "$kind" running "$d"
		else
			fail "$run" "the model server never held the last turn: $(tail -c 300 "$d/err")"
		fi
	fi
	wait "$cpid"
	rc=$?
	echo "$rc" >"$d/rc"
	store_snap "$agent" "$kind" done "$d"
	case $kind in
	failed) [ "$rc" -ne 0 ] || fail "$run" "the failed run exited 0" ;;
	*) [ "$rc" -eq 0 ] || fail "$run" "exit status $rc: $(tail -c 300 "$d/err")" ;;
	esac
}

# store_ready AGENT: the pattern of an interactive CLI's screen ready for a
# prompt (Codex's composer shows before its session has started, and an
# Enter typed then is lost: its status line of model and folder shows
# once it has); store_asks AGENT: of its permission prompt; store_quit AGENT: what
# ends it.
store_ready() {
	case $1 in
	claude) echo '^❯' ;;
	codex) echo 'default · |Use existing model' ;;
	gemini) echo 'Type your message' ;;
	copilot) echo '^❯' ;;
	esac
}
store_asks() {
	case $1 in
	claude) echo 'Do you want to proceed' ;;
	codex) echo 'Would you like to run' ;;
	gemini) echo 'Allow execution' ;;
	copilot) echo 'Do you want to run this command' ;;
	esac
}
store_quit() {
	case $1 in
	codex | gemini) echo /quit ;;
	*) echo /exit ;;
	esac
}

# type_line TEXT: TEXT typed into the pane, then Enter.
type_line() {
	$T send-keys -t 0 -l "$1"
	sleep 0.5
	$T send-keys -t 0 Enter
}

# store_stop_daemons D: ends the processes of Codex's app-server daemon
# of the run in D (their program is in its CODEX_HOME, D/root/packages/;
# two of them, which outlive the TUI), each by its id.
store_stop_daemons() {
	local p
	for p in /proc/[0-9]*; do
		tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -q "^$1/root/packages/" &&
			kill "${p#/proc/}" 2>/dev/null
	done
}

# store_live AGENT KIND SNAPSHOT D STATE...: what agentview lists of the
# live store now (store_lists_live), its failures the run's.
store_live() {
	local a=$1 k=$2 sn=$3 dd=$4
	shift 4
	sfail() { fail "$run/$sn" "$1"; }
	store_lists_live "$a" "$k" "$sn" "$(store_root "$a" "$dd")" "$@"
}

# store_tmux AGENT KIND D: an interactive run in tmux (120x40): the prompt
# typed; tmux: snapshots while the last reply is held back (busy), once it
# is on screen (idle) and after the CLI's exit (done); ask: while the
# permission prompt waits (waiting), then Enter (its first choice: allow
# once), and after the reply and the exit (done).
store_tmux() {
	local agent=$1 kind=$2 d=$3 envs=() args=() q=() a daemon
	mapfile -t envs < <(store_setup "$agent" "$kind" "$d" "$port")
	mapfile -t args < <(store_argv "$agent" "$kind" "$prompt")
	for a in "${envs[@]}" $(store_strace "$d") "${args[@]}"; do q+=("$(printf '%q' "$a")"); done
	start 120 40 "env -i -C $d/work PATH=$PATH HOME=$d/home TMPDIR=$d/tmp LANG=C.UTF-8 \
		LC_ALL=C.UTF-8 TERM=xterm-256color ${q[*]}"
	if ! wait_for "$(store_ready "$agent")" 30; then
		fail "$run" "the CLI never showed its prompt: $(screen | grep -v '^$' | tail -8)"
		tmux_stop
		[ "$agent" = codex ] && store_stop_daemons "$d"
		return
	fi
	# Codex shows a newer model's notice a moment after its prompt: keep
	# the model.
	if [ "$agent" = codex ]; then
		sleep 2
		if shows 'Use existing model'; then
			keys 2
			keys Enter
			wait_for 'default · ' 10
		fi
	fi
	sleep 1
	type_line "$prompt"
	if [ "$kind" = tmux ]; then
		if poll 30 held "$d" "main turn 1"; then
			sleep 1
			store_snap "$agent" "$kind" busy "$d"
			store_live "$agent" "$kind" busy "$d" live
		else
			fail "$run" "the model server never held the last turn: $(screen | grep -v '^$' | tail -8)"
		fi
		wait_for 'The command printed hello' 20 ||
			fail "$run" "the reply never showed: $(screen | grep -v '^$' | tail -8)"
		sleep 1.5
		store_snap "$agent" "$kind" idle "$d"
	else
		if wait_for "$(store_asks "$agent")" 30; then
			sleep 1.5
			store_snap "$agent" "$kind" waiting "$d"
			# Codex records no approval wait; Gemini CLI nothing at all.
			case $agent in
			claude | copilot) store_live "$agent" "$kind" waiting "$d" waiting ;;
			codex) store_live "$agent" "$kind" waiting "$d" live waiting ;;
			esac
			keys Enter
			wait_for 'made.txt is there' 30 ||
				fail "$run" "the reply after the answer never showed: $(screen | grep -v '^$' | tail -8)"
			[ -e "$d/work/made.txt" ] || fail "$run" "the allowed command did not run"
			sleep 1.5
		else
			fail "$run" "the permission prompt never showed: $(screen | grep -v '^$' | tail -8)"
		fi
	fi
	type_line "$(store_quit "$agent")"
	# Codex's TUI leaves its app-server daemon running (and the pane
	# with it, under strace -f): ours (its binary in this run's
	# CODEX_HOME) is stopped once the TUI said goodbye.
	if [ "$agent" = codex ]; then
		wait_for 'Disconnected from this task' 20
		store_stop_daemons "$d"
	fi
	wait_exit 20 || fail "$run" "the CLI did not exit on $(store_quit "$agent"): $(screen | grep -v '^$' | tail -5)"
	tmux_stop
	[ "$agent" = codex ] && store_stop_daemons "$d"
	sleep 0.5
	store_snap "$agent" "$kind" done "$d"
}

# store_strace D: the strace prefix of every store run (the network check
# of run.sh: only 127.0.0.1), when strace can trace here.
store_strace() {
	[ "$netcheck" = yes ] &&
		echo "strace -f -qq --seccomp-bpf -e trace=connect,sendto,sendmsg,sendmmsg -o $1/strace"
}

# store_run AGENT KIND: one store run, its snapshots checked, and captured
# with --capture.
store_run() {
	local agent=$1 kind=$2 scen d port spid prompt run
	scen=$(store_scenario "$kind")
	run=$agent-store-$kind
	run_dir "$run"
	server_start "$scen" "$run" || return
	prompt=$(scen_get "$scen" .prompt)
	local t0=$(date +%s%N)
	case $kind in
	tmux | ask) store_tmux "$agent" "$kind" "$d" ;;
	*) store_headless "$agent" "$kind" "$d" ;;
	esac
	server_stop
	runs=$((runs + 1))
	echo "store $run: $(ls "$d/snap" | tr '\n' ' ')$((($(date +%s%N) - t0) / 1000000)) ms"
	check_server "$run"
	[ "$netcheck" = yes ] && check_net "$run"
	case $kind in tmux | ask) ;; *) store_same_id "$agent" "$d" ;; esac
	store_ccusage_live "$agent" "$kind" "$d"
	local snap
	for snap in "$d"/snap/*/; do
		snap=$(basename "$snap")
		sfail() { fail "$run/$snap" "$1"; }
		sf_main=
		store_facts "$agent" "$kind" "$snap" "$d/snap/$snap"
		store_reads_any "$agent" "$kind" "$snap" \
			"$([ "$snap" = done ] && [ -s "$d/ccusage.json" ] && echo "$d/ccusage.json")"
		store_reads_claude "$agent" "$kind" "$snap" "$d/snap/$snap" \
			"$([ "$snap" = done ] && [ -s "$d/ccusage.json" ] && echo "$d/ccusage.json")"
		store_lists "$agent" "$kind" "$snap" "$d/snap/$snap" \
			"$([ "$snap" = done ] && [ -s "$d/ccusage.json" ] && echo "$d/ccusage.json")"
	done
	if [ "$capture" = yes ]; then
		case " $failed_runs " in
		*" $run "*) echo "agents: $run failed, not captured" ;;
		*) store_capture "$agent" "$kind" "$d" ;;
		esac
	fi
}

# ccusage_of AGENT DIR: ccusage's session report (JSON, offline pricing)
# of a store root DIR, on stdout. It reads Gemini CLI's .gemini from
# GEMINI_DATA_DIR (GEMINI_CLI_HOME is not read).
ccusage_of() {
	local var=$(store_var "$1")=$2
	[ "$1" = gemini ] && var=GEMINI_DATA_DIR=$2/.gemini
	env -i "PATH=$PATH" "HOME=$tmp/ccusage-home" "TMPDIR=$tmp" "$var" NO_COLOR=1 \
		timeout 60 "$cmd_ccusage" "$1" session --json --offline
}

# store_ccusage_live AGENT KIND D: ccusage finds the run's session in its
# last snapshot, with tokens.
store_ccusage_live() {
	local last
	last=$(ls -d "$3"/snap/done 2>/dev/null)
	[ -n "$last" ] || return
	mkdir -p "$tmp/ccusage-home"
	if ! ccusage_of "$1" "$last" >"$3/ccusage.json" 2>"$3/ccusage.err"; then
		fail "$run" "ccusage failed: $(tail -c 300 "$3/ccusage.err")"
	elif ! jq -e '(.sessions | length) == 1 and .totals.totalTokens > 0' "$3/ccusage.json" >/dev/null; then
		fail "$run" "ccusage does not see one session with tokens: $(jq -c .totals "$3/ccusage.json" 2>&1 | head -c 300)"
	fi
}

# store_capture AGENT KIND D: the snapshots into tests/stores/AGENT/KIND/,
# replacing what was there, with ccusage.json.
store_capture() {
	local dest=$stores_dir/$1/$2
	rm -rf "$dest"
	mkdir -p "$dest"
	cp -a "$3/snap/." "$dest/"
	[ -s "$3/ccusage.json" ] && cp "$3/ccusage.json" "$dest/ccusage.json"
	echo "  captured tests/stores/$1/$2: $(du -sh "$dest" | cut -f1)"
}

# store_same_id AGENT D: a headless run's stream and its store name the
# same session.
store_same_id() {
	local sid got
	case $1 in
	claude) sid=$(jq -r 'select(.type == "system" and .subtype == "init") | .session_id' "$2/out" | head -1)
		got=$(basename "$(ls "$2"/snap/done/projects/*/*.jsonl 2>/dev/null | head -1)" .jsonl) ;;
	codex) sid=$(jq -r 'select(.type == "thread.started") | .thread_id' "$2/out")
		got=$(head -1 "$(ls "$2"/snap/done/sessions/*/*/*/*.jsonl 2>/dev/null | head -1)" | jq -r .payload.id) ;;
	gemini) sid=$(jq -r 'select(.type == "init") | .session_id' "$2/out")
		got=$(head -1 "$(ls "$2"/snap/done/.gemini/tmp/*/chats/*.jsonl 2>/dev/null | head -1)" | jq -r .sessionId) ;;
	copilot) sid=$(jq -r 'select(.type == "result") | .sessionId' "$2/out")
		got=$(basename "$(ls -d "$2"/snap/done/session-state/*/ 2>/dev/null | head -1)") ;;
	esac
	[ -n "$sid" ] && [ "$sid" = "$got" ] ||
		fail "$run" "the stream's session ($sid) is not the store's ($got)"
}

# store_kinds AGENT: the kinds of store run of an agent.
store_kinds() {
	case $1 in
	claude) echo headless failed subagents tmux ask ;;
	copilot) echo headless failed subagent tmux ask ;;
	*) echo headless failed tmux ask ;;
	esac
}

# stores_fixtures: make test-agents checks the committed fixtures again
# with the pinned ccusage: its totals are still those of ccusage.json.
stores_fixtures() {
	local f agent dir
	mkdir -p "$tmp/ccusage-home"
	for f in "$stores_dir"/*/*/ccusage.json; do
		[ -f "$f" ] || continue
		dir=$(dirname "$f")
		agent=$(basename "$(dirname "$dir")")
		run=$agent-store-$(basename "$dir")-fixture
		ccusage_of "$agent" "$dir/done" >"$tmp/ccusage.now" 2>"$tmp/ccusage.err" ||
			{ fail "$run" "ccusage failed: $(tail -c 300 "$tmp/ccusage.err")"; continue; }
		jq -e -n --slurpfile a "$f" --slurpfile b "$tmp/ccusage.now" '$a[0].totals == $b[0].totals' >/dev/null ||
			fail "$run" "ccusage's totals differ from ${f#"$top"/}: $(jq -c .totals "$tmp/ccusage.now")"
	done
}
