#!/bin/sh
# bench.sh: `make bench`. Generates the recordings (tests/gen_bench, never
# committed), measures agentview on them beside `wc -l` and `jq -c .type`
# on the same file in the same run, and prints one table against the
# targets ("required"; the latest tables are in tests/BENCH.md). Times are medians of
# several runs (hyperfine).
#
# Environment:
#   BENCH_SIZES  file sizes in MB (default "20 200"; the targets are for 200)
#   BENCH_RUNS   runs per command (default 7; jq gets 3, it is slow)
#   BENCH_DIR    where the recordings go (default ${TMPDIR:-/tmp}/agentview-bench)
#   BENCH_FOLLOW seconds of each following measure (default 60)
#   BENCH_PARTS  what to measure: "view" (one big recording), "fleet" (the
#                session list over trees of 1,000 and 10,000 files),
#                "stores" (the agents' own stores: 2,000 Claude Code sessions
#                and 2,000 Codex rollouts, 4 GB, and a 500 MB transcript,
#                beside ccusage and lnav), "remote" (sessions on another
#                machine, over a loopback sshd: tests/lib/sshd.sh); default
#                all four
#   BENCH_SCALE  the stores' share of their full size (default 1: 4,000
#                sessions, 4 GB; 0.1 makes 400 sessions, 0.4 GB)
#   BENCH_TRANSCRIPT_MB  the big Claude Code transcript's size (default 500)
#   AGENTVIEW    the binary (default ./src/agentview)
#
# Hooks of agentview's for it (in the environment, not in --help):
#   AGENTVIEW_MEMSTAT=1     print the peak RssAnon at exit (stderr)
#   AGENTVIEW_ONE_THREAD=1  index without the parser thread (src/ahead.c),
#                           and the list's --format json read by one
#                           process, without helpers (src/fleet_print.c)
#   AGENTVIEW_FRAMESTAT=1   say when the first frame was drawn, and how
#                           many were, at exit (stderr)
#   (with the session list, AGENTVIEW_MEMSTAT says rows= and files= instead
#   of events=)
#
# The screen rows run the viewer in a 120x40 tmux of a private server; keys,
# searches, seeks and steps are timed by tests/bench_view and
# tests/bench_replay (the same code the panes run, without curses' copy to
# the terminal). Each row is one call of `row`, so adding one is adding a
# function and a call at the bottom.
set -eu
bin=${AGENTVIEW:-./src/agentview}
gen=./tests/gen_bench
sizes=${BENCH_SIZES:-"20 200"}
runs=${BENCH_RUNS:-7}
dir=${BENCH_DIR:-${TMPDIR:-/tmp}/agentview-bench}
big=$(echo "$sizes" | awk '{ print $NF }')
work=$(mktemp -d "${TMPDIR:-/tmp}/agentview-bench-run.XXXXXX")
# Recording is on by default (issue 15): whatever this test reads live is
# kept in its own scratch folder, never in the real ~/.local/state.
XDG_STATE_HOME=$work/state
export XDG_STATE_HOME
rows=$work/rows
srows=$work/srows
. ./tests/lib/tmux.sh
tmux_init bench "$work"
fpid=
trap 'tmux_stop; [ -z "$fpid" ] || kill "$fpid" 2>/dev/null || :; ! command -v stop_sshd >/dev/null || stop_sshd; rm -rf "$work"' EXIT INT TERM
: >"$rows"
: >"$srows"

for tool in hyperfine jq awk tmux; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "bench: $tool is missing (sh .ci/deps bench installs it)" >&2
		exit 1
	}
done
[ -x "$bin" ] && [ -x "$gen" ] && [ -x tests/bench_view ] &&
	[ -x tests/bench_replay ] && [ -x tests/bench_fleet ] && [ -x tests/pace ] && [ -x tests/gen_stores ] || {
	echo "bench: build first: make all tests/gen_bench tests/gen_stores tests/bench_view tests/bench_replay tests/bench_fleet tests/pace" >&2
	exit 1
}
mkdir -p "$dir"

# row WHAT FILE AGENTVIEW WC JQ VS_WC VS_JQ TARGET VERDICT: one line of the
# table (fields must not hold a tab).
row() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$rows"
}

# srow WHAT STORES AGENTVIEW PEER VS_PEER TARGET VERDICT: one line of the
# stores' table (issue 23), whose peers are other programs than wc and jq,
# with the load average (1 and 5 minutes) when it was measured: these rows
# read gigabytes and are the first to suffer on a shared machine.
srow() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" "$(cut -d' ' -f1,2 /proc/loadavg)" >>"$srows"
}

# ok VALUE OP LIMIT: "met" or "NOT MET" (OP is >= or <=).
verdict() {
	awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
		ok = op == ">=" ? v >= l : v <= l
		print ok ? "met" : "NOT MET"
	}'
}

# An awk function: x with 3 significant digits.
awk_fmt3='function fmt3(x) {
	if (x >= 100) return sprintf("%.0f", x); if (x >= 10) return sprintf("%.1f", x)
	if (x >= 1) return sprintf("%.2f", x); return sprintf("%.3f", x) }'

# fmt3 X: a number with 3 significant digits.
fmt3() {
	awk -v x="$1" "$awk_fmt3"' BEGIN { print fmt3(x) }'
}

# ratio A B: A / B with 3 significant digits and an x.
ratio() {
	awk -v a="$1" -v b="$2" "$awk_fmt3"' BEGIN { print (b > 0 ? fmt3(a / b) : "?") "x" }'
}

# median JSON N: the median time in seconds of hyperfine's command N (0-based).
median() {
	jq -r ".results[$2].median" "$1"
}

# recording SIZE: the path of the generated file of SIZE MB, made when missing
# or older than the generator (the bytes depend only on the generator).
recording() {
	f=$dir/bench-$1MB.ndjson
	if [ ! -s "$f" ] || [ "$gen" -nt "$f" ]; then
		"$gen" "$1" "$f.tmp" >&2 && mv "$f.tmp" "$f"
	fi
	echo "$f"
}

# bench_index FILE SIZE: full index time, throughput and events per second
# through --print --format json, beside wc -l and jq -c .type.
bench_index() {
	f=$1
	bytes=$(wc -c <"$f")
	mb=$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')
	events=$(AGENTVIEW_MEMSTAT=1 "$bin" --print --format json "$f" 2>&1 >/dev/null |
		sed -n 's/.*events=\([0-9]*\).*/\1/p')
	hyperfine -N --style none --warmup 1 --runs "$runs" --output null \
		--export-json "$work/idx.json" \
		"$bin --print --format json $f" "wc -l $f" \
		"env AGENTVIEW_ONE_THREAD=1 $bin --print --format json $f" \
		>/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	jqruns=$((runs < 3 ? runs : 3))
	hyperfine -N --style none --runs "$jqruns" --output null \
		--export-json "$work/jq.json" "jq -c .type $f" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	t_av=$(median "$work/idx.json" 0)
	t_wc=$(median "$work/idx.json" 1)
	t_jq=$(median "$work/jq.json" 0)
	mbs_av=$(awk -v m="$mb" -v t="$t_av" 'BEGIN { print m / t }')
	mbs_wc=$(awk -v m="$mb" -v t="$t_wc" 'BEGIN { print m / t }')
	mbs_jq=$(awk -v m="$mb" -v t="$t_jq" 'BEGIN { print m / t }')
	evs=$(awk -v e="$events" -v t="$t_av" 'BEGIN { print e / t / 1e6 }')
	evs_wc=$(awk -v e="$events" -v t="$t_wc" 'BEGIN { print e / t / 1e6 }')
	evs_jq=$(awk -v e="$events" -v t="$t_jq" 'BEGIN { print e / t / 1e6 }')
	cpu_av=$(jq -r '.results[0] | .user + .system' "$work/idx.json")
	cpu_wc=$(jq -r '.results[1] | .user + .system' "$work/idx.json")
	cpu_jq=$(jq -r '.results[0] | .user + .system' "$work/jq.json")
	name="$2 MB, $events events"
	row "full index: time (median)" "$name" "$(fmt3 "$t_av") s" \
		"$(fmt3 "$t_wc") s" "$(fmt3 "$t_jq") s" \
		"$(ratio "$t_wc" "$t_av")" "$(ratio "$t_jq" "$t_av")" "" ""
	row "full index: CPU, user+sys (mean)" "$name" "$(fmt3 "$cpu_av") s" \
		"$(fmt3 "$cpu_wc") s" "$(fmt3 "$cpu_jq") s" \
		"$(ratio "$cpu_wc" "$cpu_av")" "$(ratio "$cpu_jq" "$cpu_av")" "" ""
	if [ "$2" = "$big" ]; then
		tgt=">= 500 MB/s"
		v=$(verdict "$mbs_av" ">=" 500)
		tgte=">= 2 M/s"
		ve=$(verdict "$evs" ">=" 2)
	else
		tgt="" v="" tgte="" ve=""
	fi
	row "full index: throughput" "$name" "$(fmt3 "$mbs_av") MB/s" \
		"$(fmt3 "$mbs_wc") MB/s" "$(fmt3 "$mbs_jq") MB/s" \
		"$(ratio "$mbs_av" "$mbs_wc")" "$(ratio "$mbs_av" "$mbs_jq")" "$tgt" "$v"
	row "full index: events/s" "$name" "$(fmt3 "$evs") M/s" \
		"$(fmt3 "$evs_wc") M/s" "$(fmt3 "$evs_jq") M/s" \
		"$(ratio "$evs" "$evs_wc")" "$(ratio "$evs" "$evs_jq")" "$tgte" "$ve"
	t_1=$(median "$work/idx.json" 2)
	mbs_1=$(awk -v m="$mb" -v t="$t_1" 'BEGIN { print m / t }')
	evs_1=$(awk -v e="$events" -v t="$t_1" 'BEGIN { print e / t / 1e6 }')
	row "  same on one thread (no src/ahead.c)" "$name" \
		"$(fmt3 "$mbs_1") MB/s, $(fmt3 "$evs_1") M/s" "" "" \
		"$(ratio "$mbs_1" "$mbs_wc")" "$(ratio "$mbs_1" "$mbs_jq")" "" ""
}

# max_rss_kib CMD...: peak resident memory of CMD in KiB (GNU time), or "".
max_rss_kib() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$work/rss" "$@" >/dev/null 2>&1 || true
		cat "$work/rss"
	fi
}

# bench_memory FILE SIZE: peak anonymous memory per event (the
# AGENTVIEW_MEMSTAT hook), beside the peak RSS of wc -l and jq -c .type.
bench_memory() {
	f=$1
	line=$(AGENTVIEW_MEMSTAT=1 "$bin" --print --format json "$f" 2>&1 >/dev/null)
	events=$(echo "$line" | sed -n 's/.*events=\([0-9]*\).*/\1/p')
	kib=$(echo "$line" | sed -n 's/.*rss_anon_peak_kib=\([0-9]*\).*/\1/p')
	per=$(awk -v k="$kib" -v e="$events" 'BEGIN { print k * 1024 / e }')
	wc_kib=$(max_rss_kib wc -l "$f")
	jq_kib=$(max_rss_kib jq -c .type "$f")
	mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }
	row "memory: peak RssAnon per event" "$2 MB, $events events" \
		"$(fmt3 "$per") B ($(mib "$kib"))" \
		"${wc_kib:+$(mib "$wc_kib") max RSS}" "${jq_kib:+$(mib "$jq_kib") max RSS}" \
		"${wc_kib:+$(ratio "$wc_kib" "$kib")}" "${jq_kib:+$(ratio "$jq_kib" "$kib")}" \
		"<= 32 B/event" "$(verdict "$per" "<=" 32)"
}

# check_summary FILE: the summary of a generated file has one session per
# result line, all ok: a wrong index is no benchmark.
check_summary() {
	want=$(grep -c '^{"type":"result"' "$1")
	got=$("$bin" --print --format json "$1" | jq '[.sessions[] | select(.state == "ok")] | length')
	if [ "$want" != "$got" ]; then
		echo "bench: $1: $got sessions ok in the summary, $want results in the file" >&2
		exit 1
	fi
}

# --- the screen -------------------------------------------------------------

# bench_first_screen FILE SIZE: time from start to the first frame drawn, in
# a terminal (the AGENTVIEW_FRAMESTAT hook, with --frames 1 to quit after it).
bench_first_screen() {
	: >"$work/ff"
	i=0
	while [ "$i" -lt "$runs" ]; do
		start 120 40 "AGENTVIEW_FRAMESTAT=1 $bin --frames 1 $1 2>>$work/ff"
		wait_exit 60 || :
		i=$((i + 1))
	done
	set -- "$1" "$2" $(sed -n 's/.*first_frame_ms=\([0-9.]*\).*/\1/p' "$work/ff" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : -1), v[NR] }')
	[ "$3" != -1 ] || { echo "bench: no first frame (AGENTVIEW_FRAMESTAT)" >&2; cat "$work/ff" >&2; exit 1; }
	row "first screen (in tmux, 120x40)" "$2 MB" "$(fmt3 "$3") ms (max $(fmt3 "$4"))" \
		"" "" "" "" "<= 150 ms" "$(verdict "$4" "<=" 150)"
}

# view_worst AWK_CONDITION: the largest median and the largest maximum, in
# ms, of the lines of tests/bench_view's output that match the condition:
# "name<TAB>n=N<TAB>median_ms=X<TAB>max_ms=Y[<TAB>matches=M]".
view_worst() {
	awk -F '\t' '$2 ~ /^n=/ && ('"$1"') { sub("median_ms=", "", $3); sub("max_ms=", "", $4)
		if ($3 > med) med = $3; if ($4 > max) max = $4 } END { print med, max }' "$work/view"
}

# worst_row WHAT SIZE LIMIT_MS TARGET MEDIAN_MS MAX_MS: a row, met when the
# max is within the limit.
worst_row() {
	row "$1" "$2 MB" "median $(fmt3 "$5") ms, max $(fmt3 "$6") ms" "" "" "" "" \
		"$4" "$(verdict "$6" "<=" "$3")"
}

# bench_keys FILE SIZE: scroll, jump, search (tests/bench_view) and replay
# seek and step (tests/bench_replay) on the big file.
bench_keys() {
	tests/bench_view "$1" 200 >"$work/view" 2>&1 || { cat "$work/view" >&2; exit 1; }
	tests/bench_replay "$1" 1000 >"$work/replay" 2>&1 || { cat "$work/replay" >&2; exit 1; }
	worst_row "scroll, jump: j space g G ] } ! (worst key)" "$2" 16 "<= 16 ms each" \
		$(view_worst '$1 !~ /search|cache/')
	# "seek to a random time   n=2000  median  872.2 us  p99  2166.4 us  max  2258.6 us"
	worst_row "replay: seek, step back/forward, jump (worst)" "$2" 16 "<= 16 ms each" \
		$(awk '/ median / { for (i = 1; i < NF; i++) { if ($i == "median" && $(i + 1) > med) med = $(i + 1)
			if ($i == "max" && $(i + 1) > max) max = $(i + 1) } } END { print med / 1000, max / 1000 }' "$work/replay")
	worst_row "search, first over the whole file (worst of 4)" "$2" 500 "<= 0.5 s" \
		$(view_worst '$1 ~ /^first search/')
}

# proc_stat PID: CPU ticks (user + system) and voluntary context switches
# (each a wake-up from poll) of PID.
proc_stat() {
	echo "$(awk '{ print $14 + $15 }' "/proc/$1/stat") \
$(awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status")"
}

# follow_start NAME FILE: agentview -f FILE in tmux; its pid, once it has
# read the file and drawn (the shell says its own, then becomes agentview).
follow_start() {
	start 120 40 "sh -c 'echo \$\$ >$work/$1.pid; AGENTVIEW_FRAMESTAT=1 exec $bin -f $2 2>$work/$1.err'"
	sleep 3
	pid=$(cat "$work/$1.pid")
}

# follow_stop NAME: quit the viewer; the frames it drew.
follow_stop() {
	$T send-keys -t 0 q
	wait_exit 60 || :
	sed -n 's/.*frames=\([0-9]*\).*/\1/p' "$work/$1.err"
}

# bench_follow FILE SIZE: CPU and wake-ups while following a file nobody
# writes to (every session ended: nothing ticks), and while tests/pace
# appends 500 lines/s (from the 20 MB recording, after its first 40k lines,
# which are the file followed: sessions go on).
bench_follow() {
	secs=${BENCH_FOLLOW:-60}
	hz=$(getconf CLK_TCK)
	follow_start quiet "$1"
	a=$(proc_stat "$pid")
	sleep "$secs"
	b=$(proc_stat "$pid")
	follow_stop quiet >/dev/null
	set -- $a $b
	cpu=$(awk -v t=$(($3 - $1)) -v hz="$hz" -v s="$secs" 'BEGIN { print t / hz / s * 100 }')
	row "following a quiet file (CPU, wake-ups)" "$size MB, ${secs} s" \
		"$(fmt3 "$cpu") % ($(($3 - $1)) ticks), $(($4 - $2)) wake-ups" "" "" "" "" \
		"0 %" "$(verdict "$cpu" "<=" 0)"
	src=$(recording "$(echo "$sizes" | awk '{ print $1 }')")
	lines=$((secs * 500))
	head -n 40000 "$src" >"$work/live.ndjson"
	tail -n +40001 "$src" | head -n "$lines" >"$work/more"
	follow_start live "$work/live.ndjson"
	a=$(proc_stat "$pid")
	t0=$(date +%s.%N)
	tests/pace 2 "$work/more" /dev/null >>"$work/live.ndjson"
	t1=$(date +%s.%N)
	b=$(proc_stat "$pid")
	frames=$(follow_stop live)
	set -- $a $b
	cpu=$(awk -v t=$(($3 - $1)) -v hz="$hz" -v a="$t0" -v b="$t1" 'BEGIN { print t / hz / (b - a) * 100 }')
	fps=$(awk -v f="$frames" -v a="$t0" -v b="$t1" 'BEGIN { print f / (b - a) }')
	row "following 500 lines/s (CPU, redraws)" "$lines lines, $(fmt3 "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')") s" \
		"$(fmt3 "$cpu") % ($(($3 - $1)) ticks), $(fmt3 "$fps") redraws/s" "" "" "" "" \
		"<= 2 %, <= 30 redraws/s" \
		"$(awk -v c="$cpu" -v f="$fps" 'BEGIN { print c <= 2 && f <= 30 ? "met" : "NOT MET" }')"
}

# bench_status_line FILE: --status-line (issue 6: <= 50 ms on 10 MB, <= 0.3 s
# on 200 MB) on FILE made one session (every init but the first left out:
# the worst case, all of it is the session that is shown), and on its first
# 10 MB.
bench_status_line() {
	awk 'NR == 1 || !/^\{"type":"system","subtype":"init"/' "$1" >"$work/one.ndjson"
	awk '{ n += length($0) + 1; if (n > 10000000) exit; print }' "$work/one.ndjson" >"$work/one10.ndjson"
	hyperfine -N --style none --warmup 1 --runs "$runs" --output null \
		--export-json "$work/sl.json" \
		"$bin --status-line $work/one10.ndjson" "$bin --status-line $work/one.ndjson" \
		>/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	for k in 0 1; do
		med=$(awk -v t="$(median "$work/sl.json" "$k")" 'BEGIN { print t * 1000 }')
		max=$(jq -r ".results[$k].max * 1000" "$work/sl.json")
		if [ "$k" = 0 ]; then
			what="10 MB, one session" lim=50
		else
			what="$size MB, one session" lim=300
		fi
		row "--status-line" "$what" "median $(fmt3 "$med") ms, max $(fmt3 "$max") ms" \
			"" "" "" "" "<= $lim ms" "$(verdict "$max" "<=" "$lim")"
	done
	rm -f "$work/one.ndjson" "$work/one10.ndjson"
}

# --- the session list (issue 15) -----------------------------------------------

# fleet_tree N MB: a folder of N session files, MB in all (tests/gen_bench
# --fleet; made when missing or older than the generator); the running and
# waiting ones written to now, as live sessions are.
fleet_tree() {
	t=$dir/fleet-$1
	if [ ! -f "$t/.made" ] || [ "$gen" -nt "$t/.made" ]; then
		rm -rf "$t"
		"$gen" --fleet "$1" "$2" "$t" >&2 && touch "$t/.made"
	fi
	find "$t" -name '*-live.ndjson' -exec touch {} + -o -name '*-ask.ndjson' -exec touch {} +
	echo "$t"
}

# look_field NAME: a field of tests/bench_fleet look's line.
look_field() {
	tr '\t' '\n' <"$work/look" | sed -n "s/^$1=//p"
}

# bench_fleet_look N MB LIMIT_MS: the list's first screen over a tree: every
# file's rows read, sorted, 40 laid out (tests/bench_fleet, median of RUNS);
# beside wc -l and ls -l of the same tree (hyperfine).
bench_fleet_look() {
	t=$(fleet_tree "$1" "$2")
	gb=$(du -sb "$t" | awk '{ printf "%.1f", $1 / 1e9 }')
	tests/bench_fleet look "$t" "$runs" >"$work/look" || { cat "$work/look" >&2; exit 1; }
	hyperfine -N --style none --warmup 1 --runs 3 --output null --export-json "$work/ls.json" \
		"ls -l $t" "sh -c 'wc -l $t/*.ndjson'" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	med=$(look_field median_ms)
	ls_ms=$(awk -v t="$(median "$work/ls.json" 0)" 'BEGIN { print t * 1000 }')
	wc_ms=$(awk -v t="$(median "$work/ls.json" 1)" 'BEGIN { print t * 1000 }')
	row "session list: first screen (every row read, sorted, 40 laid out)" \
		"$1 files, $gb GB" "median $(fmt3 "$med") ms, max $(fmt3 "$(look_field max_ms)") ms" \
		"$(fmt3 "$wc_ms") ms" "ls -l: $(fmt3 "$ls_ms") ms" \
		"$(ratio "$wc_ms" "$med")" "ls -l: $(ratio "$ls_ms" "$med")" "<= $3 ms" \
		"$(verdict "$med" "<=" "$3")"
	row "  read in slices of 20 ms, as the screen will (keys between)" "$1 files" \
		"first slice $(fmt3 "$(look_field first_slice_ms)") ms, longest $(fmt3 "$(look_field longest_slice_ms)") ms, $(look_field slices) slices" \
		"" "" "" "" "" ""
}

# bench_list_screen N MB LIMIT_MS: the list on a terminal (tmux, 120x40)
# over a tree: its first frame (keys work from then on, while the files are
# read in slices) and the first frame that shows every row (the
# AGENTVIEW_FRAMESTAT hook), median of RUNS.
bench_list_screen() {
	t=$(fleet_tree "$1" "$2")
	: >"$work/lf"
	i=0
	while [ "$i" -lt "$runs" ]; do
		start 120 40 "AGENTVIEW_FRAMESTAT=1 $bin $t 2>>$work/lf"
		wait_for '^attention order · [0-9]+ sessions  ' 60 || { echo "bench: the list never showed every row" >&2; exit 1; }
		keys q
		wait_exit 10 || :
		i=$((i + 1))
	done
	first=$(sed -n 's/.*first_frame_ms=\([0-9.]*\).*/\1/p' "$work/lf" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : -1) }')
	all=$(sed -n 's/.*all_rows_ms=\([0-9.]*\).*/\1/p' "$work/lf" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : -1), v[NR] }')
	[ "$first" != -1 ] && [ "${all% *}" != -1 ] || { echo "bench: no frame times (AGENTVIEW_FRAMESTAT)" >&2; cat "$work/lf" >&2; exit 1; }
	row "session list on a terminal (tmux 120x40): every row shown" "$1 files" \
		"median $(fmt3 "${all% *}") ms, max $(fmt3 "${all#* }") ms; first frame $(fmt3 "$first") ms" \
		"" "" "" "" "<= $3 ms" "$(verdict "${all% *}" "<=" "$3")"
}

# bench_fleet_status_line N MB: --status-line over a tree (hyperfine).
bench_fleet_status_line() {
	t=$(fleet_tree "$1" "$2")
	hyperfine -N --style none --warmup 1 --runs "$runs" --output null --export-json "$work/fsl.json" \
		"$bin --status-line $t" "ls -l $t" "sh -c 'wc -l $t/*.ndjson'" \
		>/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	med=$(awk -v t="$(median "$work/fsl.json" 0)" 'BEGIN { print t * 1000 }')
	max=$(jq -r '.results[0].max * 1000' "$work/fsl.json")
	ls_ms=$(awk -v t="$(median "$work/fsl.json" 1)" 'BEGIN { print t * 1000 }')
	wc_ms=$(awk -v t="$(median "$work/fsl.json" 2)" 'BEGIN { print t * 1000 }')
	row "--status-line over a folder" "$1 files" \
		"median $(fmt3 "$med") ms, max $(fmt3 "$max") ms ($($bin --status-line "$t"))" \
		"$(fmt3 "$wc_ms") ms" "ls -l: $(fmt3 "$ls_ms") ms" \
		"$(ratio "$wc_ms" "$med")" "ls -l: $(ratio "$ls_ms" "$med")" "<= 100 ms" \
		"$(verdict "$med" "<=" 100)"
}

# bench_fleet_memory N MB: anonymous memory per listed session (peak, the
# AGENTVIEW_MEMSTAT hook), less that of an empty list, beside the max RSS
# of ls -l and wc -l.
bench_fleet_memory() {
	t=$(fleet_tree "$1" "$2")
	mkdir -p "$work/empty"
	k0=$(AGENTVIEW_MEMSTAT=1 "$bin" --print "$work/empty" 2>&1 >/dev/null |
		sed -n 's/.*rss_anon_peak_kib=\([0-9]*\).*/\1/p')
	line=$(AGENTVIEW_MEMSTAT=1 "$bin" --print "$t" 2>&1 >/dev/null)
	nrows=$(echo "$line" | sed -n 's/.*rows=\([0-9]*\).*/\1/p')
	k=$(echo "$line" | sed -n 's/.*rss_anon_peak_kib=\([0-9]*\).*/\1/p')
	per=$(awk -v k="$k" -v k0="$k0" -v r="$nrows" 'BEGIN { print (k - k0) / r }')
	ls_kib=$(max_rss_kib ls -l "$t")
	wc_kib=$(max_rss_kib sh -c "wc -l $t/*.ndjson")
	row "session list: memory per listed session" "$1 files, $nrows rows" \
		"$(fmt3 "$per") KiB ($k KiB, $k0 with none)" "${wc_kib:+$wc_kib KiB max RSS}" \
		"${ls_kib:+ls -l: $ls_kib KiB max RSS}" "" "" "<= 4 KiB" "$(verdict "$per" "<=" 4)"
}

# follow_fleet NAME DIR: agentview --print -f DIR in the background (no
# screen yet: the list's screen comes with the screen refactor), its pid
# once it has read the folder.
follow_fleet() {
	"$bin" --print -f "$2" >"$work/$1.out" 2>"$work/$1.err" &
	fpid=$!
	sleep 3
}

# bench_fleet_follow: CPU while 100 files get 10 lines/s each, and a quiet
# folder of 1,000 files (CPU, wake-ups).
bench_fleet_follow() {
	secs=${BENCH_FOLLOW:-60}
	hz=$(getconf CLK_TCK)
	rm -rf "$work/live100"
	"$gen" --fleet 100 100 "$work/live100" 2>/dev/null
	follow_fleet live "$work/live100"
	a=$(proc_stat "$fpid")
	tests/bench_fleet write "$work/live100" 100 10 "$secs" >"$work/wrote"
	b=$(proc_stat "$fpid")
	kill "$fpid"
	wait "$fpid" 2>/dev/null || :
	set -- $a $b
	cpu=$(awk -v t=$(($3 - $1)) -v hz="$hz" -v s="$secs" 'BEGIN { print t / hz / s * 100 }')
	row "session list: 100 live files, 10 lines/s each (--print -f)" \
		"$(sed -n 's/.*lines=\([0-9]*\).*/\1/p' "$work/wrote") lines, $secs s" \
		"$(fmt3 "$cpu") % ($(($3 - $1)) ticks), $(($4 - $2)) wake-ups" "" "" "" "" \
		"<= 2 %" "$(verdict "$cpu" "<=" 2)"
	t=$(fleet_tree 1000 1000)
	follow_fleet quiet "$t"
	a=$(proc_stat "$fpid")
	sleep "$secs"
	b=$(proc_stat "$fpid")
	kill "$fpid"
	wait "$fpid" 2>/dev/null || :
	set -- $a $b
	cpu=$(awk -v t=$(($3 - $1)) -v hz="$hz" -v s="$secs" 'BEGIN { print t / hz / s * 100 }')
	row "session list: a quiet folder (--print -f: no clock shown)" "1000 files, $secs s" \
		"$(fmt3 "$cpu") % ($(($3 - $1)) ticks), $(($4 - $2)) wake-ups" "" "" "" "" \
		"0 wake-ups" "$(verdict "$(($4 - $2))" "<=" 0)"
}

# --- sessions on other machines (issue 24) ---------------------------------------

# Over OpenSSH's sshd on 127.0.0.1 (tests/lib/sshd.sh, as run_remote.sh
# starts it: host av-test). AGENTVIEW_SSH is a wrapper that runs the
# remote program as ssh would, keeps its pid there (rsh.pids) and counts
# the bytes it sends (wire: the frames; ssh's own cipher and packets add
# to that on a real network). REMOTE_PATH, when set, is the remote's PATH
# (a folder without inotifywait: the 1 s poll).
remote_setup() {
	mkdir -p "$work/sshd"
	. ./tests/lib/sshd.sh
	sshd_setup "$work/sshd" "" >&2 && start_sshd >&2 || { echo "bench: no sshd" >&2; exit 1; }
	cat >"$work/rssh" <<EOR
#!/bin/bash
ssh -F $work/sshd/ssh_config "\${@:1:\$#-2}" "echo \\\$\\\$ >>$work/rsh.pids; \${REMOTE_PATH:+PATH=\$REMOTE_PATH }exec sh -s" | tee -a $work/wire
EOR
	chmod +x "$work/rssh"
	mkdir -p "$work/noiw"
	for t in sh ls stat tail head wc sleep cat; do
		ln -sf "$(command -v "$t")" "$work/noiw/$t"
	done
	export REMOTE_PATH
	REMOTE_PATH=
}

# tree_ticks PID: CPU ticks of PID and all its descendants.
tree_ticks() {
	python3 - "$1" <<'EOP'
import os, sys
kids, ticks = {}, {}
for p in filter(str.isdigit, os.listdir("/proc")):
    try:
        f = open("/proc/%s/stat" % p).read().rsplit(")", 1)[1].split()
    except OSError:
        continue
    kids.setdefault(f[1], []).append(p)
    ticks[p] = int(f[11]) + int(f[12])
todo, n = [sys.argv[1]], 0
while todo:
    p = todo.pop()
    n += ticks.get(p, 0)
    todo += kids.get(p, [])
print(n)
EOP
}

# rsh_ticks: CPU ticks of the remote programs running (with their children
# reaped) and their wake-ups (voluntary context switches: a sleep, a wait
# for inotifywait, and a wait for each command it runs).
rsh_ticks() {
	t=0 w=0
	for p in $(cat "$work/rsh.pids" 2>/dev/null); do
		[ -r "/proc/$p/stat" ] || continue
		t=$((t + $(sed 's/.*) //' "/proc/$p/stat" | awk '{ print $12 + $13 + $14 + $15 }')))
		w=$((w + $(awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$p/status")))
	done
	echo "$t $w"
}

# bench_remote_list N MB: the first screen of av-test:TREE (N sessions, MB
# in all) beside the same tree read here, each in a fresh tmux until every
# row is counted (median of RUNS), and one ssh round trip (a new
# connection running true); the sh path alone, and with this agentview on
# the remote's PATH (its rows first: --format rows there).
bench_remote_list() {
	t=$(fleet_tree "$1" "$2")
	pat="^attention order · $1 sessions  "
	l= r= w= a= aw=
	mkdir -p "$work/avbin"
	ln -sf "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" "$work/avbin/agentview"
	i=0
	while [ "$i" -lt "$runs" ]; do
		screen_ms "$pat" "$bin $t"
		l="$l $ms"
		# (the sessions by state, the list's first line: with agentview
		# there, its note covers the status line until the sh path ends)
		states=$(screen | head -n 1 | sed 's/ *$//')
		tmux_stop
		: >"$work/wire"
		screen_ms "$pat" "env AGENTVIEW_SSH=$work/rssh $bin av-test:$t"
		r="$r $ms"
		sleep 1
		tmux_stop
		w="$w $(wc -c <"$work/wire")"
		: >"$work/wire"
		screen_ms "^$states *\$" "env AGENTVIEW_SSH=$work/rssh REMOTE_PATH=$work/avbin:$PATH $bin av-test:$t"
		a="$a $ms"
		sleep 1
		tmux_stop
		aw="$aw $(wc -c <"$work/wire")"
		i=$((i + 1))
	done
	t0=$(date +%s%N)
	ssh -F "$work/sshd/ssh_config" -o BatchMode=yes av-test true
	rtt=$((($(date +%s%N) - t0) / 1000000))
	l=$(echo $l | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	r=$(echo $r | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	w=$(echo $w | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	row "remote list: first screen of av-test:DIR (loopback sshd)" "$1 files, $2 MB" \
		"$r ms (local $l ms, ssh round trip $rtt ms); $(fmt3 "$(awk -v w="$w" 'BEGIN { print w / 1e6 }')") MB over the wire" \
		"" "" "" "" "<= 1000 ms, <= 2x local + 1 round trip" \
		"$(awk -v r="$r" -v l="$l" -v t="$rtt" 'BEGIN { print r <= 1000 && r <= 2 * l + t ? "met" : "NOT MET" }')"
	a=$(echo $a | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	aw=$(echo $aw | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	row "remote list: the same with agentview there (its rows first)" "$1 files, $2 MB" \
		"$a ms (local $l ms, ssh round trip $rtt ms); $(fmt3 "$(awk -v w="$aw" 'BEGIN { print w / 1e6 }')") MB over the wire" \
		"" "" "" "" "<= 1000 ms, <= 2x local + 1 round trip" \
		"$(awk -v r="$a" -v l="$l" -v t="$rtt" 'BEGIN { print r <= 1000 && r <= 2 * l + t ? "met" : "NOT MET" }')"
}

# bench_remote_latency NAME TARGET_MS REMOTE_PATH: ms from a line appended to a remote file
# to its bytes out of agentview --print -f --format raw (median of 20).
bench_remote_latency() {
	REMOTE_PATH=$3
	f=$work/lat.ndjson
	printf '{"type":"system","subtype":"init","session_id":"lat"}\n' >"$f"
	AGENTVIEW_SSH=$work/rssh "$bin" --print -f --format raw "av-test:$f" >"$work/lat.out" 2>/dev/null &
	fpid=$!
	sleep 3
	v=
	i=0
	while [ "$i" -lt 20 ]; do
		t0=$(date +%s%N)
		printf '{"type":"x","n":"m%d"}\n' "$i" >>"$f"
		n=0
		until grep -q "\"m$i\"" "$work/lat.out"; do
			n=$((n + 1))
			[ "$n" -lt 2000 ] || break
			sleep 0.002
		done
		v="$v $((($(date +%s%N) - t0) / 1000000))"
		sleep 0.3
		i=$((i + 1))
	done
	kill "$fpid"
	wait "$fpid" 2>/dev/null || :
	fpid=
	REMOTE_PATH=
	set -- "$1" "$2" $(echo $v | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[NR] }')
	row "remote: a line written there shown here ($1)" "20 lines" \
		"median $3 ms, max $4 ms" "" "" "" "" "<= $2 ms" "$(verdict "$3" "<=" "$2")"
}

# bench_remote_live SECS: 10 remote files written 10 lines/s each while the
# list on a screen follows them: bytes over the wire beside the bytes they
# grew by.
bench_remote_live() {
	rm -rf "$work/live10"
	"$gen" --fleet 10 10 "$work/live10" 2>/dev/null
	start 120 40 "env AGENTVIEW_SSH=$work/rssh $bin av-test:$work/live10"
	wait_for '^attention order · 10 sessions  ' 60 || :
	sleep 2
	a=$(cat "$work/live10"/*.ndjson | wc -c)
	w0=$(wc -c <"$work/wire")
	tests/bench_fleet write "$work/live10" 10 10 "$1" >/dev/null
	sleep 2
	b=$(cat "$work/live10"/*.ndjson | wc -c)
	w1=$(wc -c <"$work/wire")
	$T send-keys -t 0 q
	wait_exit 10 || :
	row "remote: 10 live files followed, bytes over the wire" "$(($b - $a)) bytes grown, $1 s" \
		"$(($w1 - $w0)) bytes ($(ratio "$(($w1 - $w0))" "$(($b - $a))"))" "" "" "" "" \
		"<= 1.2x" "$(verdict "$(awk -v w=$(($w1 - $w0)) -v g=$(($b - $a)) 'BEGIN { print w / g }')" "<=" 1.2)"
}

# bench_remote_quiet N MB SECS: the list of a quiet remote tree on a
# screen: CPU here (agentview, its mirror process, ssh) and there (the
# remote program and what it runs), and the remote program's wake-ups.
bench_remote_quiet() {
	t=$(fleet_tree "$1" "$2")
	hz=$(getconf CLK_TCK)
	: >"$work/rsh.pids"
	start 120 40 "sh -c 'echo \$\$ >$work/rq.pid; exec env AGENTVIEW_SSH=$work/rssh $bin av-test:$t'"
	wait_for "^attention order · $1 sessions  " 60 || :
	sleep 3
	pid=$(cat "$work/rq.pid")
	a=$(tree_ticks "$pid") ra=$(rsh_ticks)
	sleep "$3"
	b=$(tree_ticks "$pid") rb=$(rsh_ticks)
	$T send-keys -t 0 q
	wait_exit 10 || :
	set -- "$1" "$2" "$3" $ra $rb
	cpu=$(awk -v t=$((b - a)) -v hz="$hz" -v s="$3" 'BEGIN { print t / hz / s * 100 }')
	rcpu=$(awk -v t=$(($6 - $4)) -v hz="$hz" -v s="$3" 'BEGIN { print t / hz / s * 100 }')
	row "remote: a quiet list of av-test:DIR on a screen (CPU)" "$1 files, $3 s" \
		"$(fmt3 "$cpu") % here ($((b - a)) ticks); there $(fmt3 "$rcpu") %, $(fmt3 "$(awk -v w=$(($7 - $5)) -v s="$3" 'BEGIN { print w / s }')") wake-ups/s" \
		"" "" "" "" "<= 0.5 % here, 1 wake-up/s there" \
		"$(awk -v c="$cpu" -v w=$(($7 - $5)) -v s="$3" 'BEGIN { print c <= 0.5 && w / s <= 1 ? "met" : "NOT MET" }')"
}

# --- the agents' own stores (issue 23) -------------------------------------------

# stores_home: a HOME holding 2,000 Claude Code sessions and 2,000 Codex
# rollouts of about 1 MB each (4 GB; BENCH_SCALE=0.1 makes a tenth of
# them), made by tests/gen_stores from the real fixtures of tests/stores/
# when missing or older than the generator.
store_claude=$(ls tests/stores/claude/tmux/done/projects/*/*.jsonl)
store_codex=$(ls tests/stores/codex/tmux/done/sessions/*/*/*/*.jsonl)
stores_home() {
	n=$(awk -v s="${BENCH_SCALE:-1}" 'BEGIN { printf "%d", 2000 * s + 0.5 }')
	h=$dir/stores-$n
	if [ ! -f "$h/.made" ] || [ tests/gen_stores -nt "$h/.made" ]; then
		rm -rf "$h"
		tests/gen_stores "$store_claude" "$store_codex" "$n" "$n" 960 "$h" >&2 && touch "$h/.made"
	fi
	echo "$h"
}

# transcript MB: one Claude Code session of MB MB (tests/gen_stores).
transcript() {
	f=$dir/claude-$1MB.jsonl
	if [ ! -s "$f" ] || [ tests/gen_stores -nt "$f" ]; then
		tests/gen_stores --transcript "$store_claude" "$1" "$f.tmp" >&2 && mv "$f.tmp" "$f"
	fi
	echo "$f"
}

# The agents' variables would point agentview elsewhere than the HOME given.
unset CLAUDE_CONFIG_DIR CODEX_HOME GEMINI_CLI_HOME COPILOT_HOME AGENTVIEW_SOURCES

# bench_store_screen HOME: `agentview` alone on a terminal (tmux 120x40)
# over the stores of HOME: the first frame and the first frame showing every
# row (AGENTVIEW_FRAMESTAT), median of RUNS; and memory per listed session:
# the peak RssAnon of --print (AGENTVIEW_MEMSTAT) less that of an empty
# HOME, and the max RSS of the screen itself (GNU time), per row.
bench_store_screen() {
	h=$1
	gb=$(du -sb "$h" | awk '{ printf "%.1f", $1 / 1e9 }')
	nfiles=$(find "$h/.claude" "$h/.codex" -name '*.jsonl' | wc -l)
	: >"$work/sf"
	i=0
	while [ "$i" -lt "$runs" ]; do
		start 120 40 "HOME=$h AGENTVIEW_FRAMESTAT=1 /usr/bin/time -f 'maxrss_kib=%M' -a -o $work/sf $bin 2>>$work/sf"
		wait_for '^attention order · [0-9]+ sessions  ' 120 || { echo "bench: the store list never showed every row" >&2; screen >&2; exit 1; }
		keys q
		wait_exit 10 || :
		i=$((i + 1))
	done
	first=$(sed -n 's/.*first_frame_ms=\([0-9.]*\).*/\1/p' "$work/sf" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : -1) }')
	all=$(sed -n 's/.*all_rows_ms=\([0-9.]*\).*/\1/p' "$work/sf" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : -1), v[NR] }')
	nrows=$(sed -n 's/.*rows=\([0-9]*\).*/\1/p' "$work/sf" | tail -n 1)
	rss=$(sed -n 's/^maxrss_kib=//p' "$work/sf" | sort -n | tail -n 1)
	[ "$first" != -1 ] && [ "${all% *}" != -1 ] || { echo "bench: no frame times (AGENTVIEW_FRAMESTAT)" >&2; cat "$work/sf" >&2; exit 1; }
	srow "agentview alone (tmux 120x40): every row shown" \
		"$nfiles sessions, $gb GB" \
		"median $(fmt3 "${all% *}") ms, max $(fmt3 "${all#* }") ms; first frame $(fmt3 "$first") ms" \
		"" "" "<= 200 ms" "$(verdict "${all% *}" "<=" 200)"
	mkdir -p "$work/nohome"
	k0=$(HOME=$work/nohome AGENTVIEW_MEMSTAT=1 "$bin" --print 2>&1 >/dev/null |
		sed -n 's/.*rss_anon_peak_kib=\([0-9]*\).*/\1/p')
	line=$(HOME=$h AGENTVIEW_MEMSTAT=1 "$bin" --print 2>&1 >/dev/null)
	prows=$(echo "$line" | sed -n 's/.*rows=\([0-9]*\).*/\1/p')
	k=$(echo "$line" | sed -n 's/.*rss_anon_peak_kib=\([0-9]*\).*/\1/p')
	per=$(awk -v k="$k" -v k0="$k0" -v r="$prows" 'BEGIN { print (k - k0) / r }')
	srow "  memory per listed session" "$prows rows" \
		"$(fmt3 "$per") KiB RssAnon ($k KiB, $k0 with none); the screen's max RSS: $(fmt3 "$(awk -v k="$rss" -v r="${nrows:-$prows}" 'BEGIN { print k / r }')") KiB a row ($rss KiB)" \
		"" "" "<= 4 KiB" "$(verdict "$per" "<=" 4)"
}

# ccusage: the pinned ccusage of the agents tier (tests/agents/run.sh),
# installed from npm into tests/agents/cache/ when missing; "" without npm.
ccusage_bin() {
	d=tests/agents/cache/ccusage@20.0.24
	if [ ! -x "$d/node_modules/.bin/ccusage" ] && command -v npm >/dev/null 2>&1; then
		mkdir -p "$d"
		(cd "$work" && npm install --prefix "$OLDPWD/$d" --no-save --no-package-lock --no-audit \
			--no-fund --loglevel=error ccusage@20.0.24) >"$d.log" 2>&1 && : >"$d/.installed"
	fi
	[ -x "$d/node_modules/.bin/ccusage" ] && echo "$PWD/$d/node_modules/.bin/ccusage"
}

# bench_store_print HOME: --print --format json over every session of HOME
# beside ccusage's session reports of the same stores (Claude Code and
# Codex, one after the other), offline; the token totals must be equal.
bench_store_print() {
	h=$1
	cc=$(ccusage_bin) || cc=
	mkdir -p "$work/cchome"
	ccenv="env -i PATH=$PATH HOME=$work/cchome TMPDIR=$work NO_COLOR=1"
	cmd_cl="$ccenv CLAUDE_CONFIG_DIR=$h/.claude $cc claude session --json --offline"
	cmd_cx="$ccenv CODEX_HOME=$h/.codex $cc codex session --json --offline"
	if [ -n "$cc" ]; then
		# (timed with its output thrown away, as agentview's is)
		printf '%s >/dev/null\n%s >/dev/null\n' "$cmd_cl" "$cmd_cx" >"$work/cc.sh"
		hyperfine -N --style none --warmup 1 --runs "$runs" --output null --export-json "$work/sp.json" \
			"env HOME=$h $bin --print --format json" "sh $work/cc.sh" \
			>/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	else
		hyperfine -N --style none --warmup 1 --runs "$runs" --output null --export-json "$work/sp.json" \
			"env HOME=$h $bin --print --format json" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	fi
	t_av=$(median "$work/sp.json" 0)
	HOME=$h "$bin" --print --format json >"$work/av.json"
	sum='map(.usage) | {in: (map(.input_tokens) | add), cr: (map(.cache_read_input_tokens) | add),
		cc: (map(.cache_creation_input_tokens) | add), out: (map(.output_tokens) | add)}'
	av=$(jq -c "[.sessions[] | select(.agent != null)] | $sum" "$work/av.json")
	nsess=$(jq '.sessions | length' "$work/av.json")
	if [ -n "$cc" ]; then
		$cmd_cl >"$work/cc-claude.json"
		$cmd_cx >"$work/cc-codex.json"
		t_cc=$(median "$work/sp.json" 1)
		ccs=$(jq -s -c 'map(.totals) | {in: (map(.inputTokens) | add), cr: (map(.cacheReadTokens) | add),
			cc: (map(.cacheCreationTokens) | add), out: (map(.outputTokens) | add)}' \
			"$work/cc-claude.json" "$work/cc-codex.json")
		nccs=$(jq -s 'map(.sessions | length) | add' "$work/cc-claude.json" "$work/cc-codex.json")
		same=$([ "$av" = "$ccs" ] && echo "same totals" || echo "TOTALS DIFFER: agentview $av, ccusage $ccs")
		v=$(awk -v a="$t_av" -v c="$t_cc" 'BEGIN { print c / a }')
		srow "--print --format json, beside ccusage session --json" \
			"$nsess sessions ($nccs in ccusage)" "median $(fmt3 "$t_av") s; $same $av" \
			"ccusage: median $(fmt3 "$t_cc") s" "$(ratio "$t_cc" "$t_av")" ">= 2x ccusage, same totals" \
			"$(awk -v v="$v" -v s="$same" 'BEGIN { print ((v >= 2 && s == "same totals") ? "met" : "NOT MET") }')"
	else
		srow "--print --format json, beside ccusage session --json" \
			"$nsess sessions" "median $(fmt3 "$t_av") s; $av" "ccusage: not installed (no npm)" \
			"" ">= 2x ccusage, same totals" "?"
	fi
}

# screen_ms PATTERN CMD: ms from starting CMD in a fresh tmux 120x40 until
# the screen shows PATTERN (the screen read every 10 ms), or -1 after 120 s,
# in ms. Run in this shell, never in $( ): start's server must be the one
# the next start stops (in a subshell each run made the same server anew,
# a session more in it, the earlier runs' agentviews still running and
# the screen read perhaps theirs).
screen_ms() {
	t0=$(date +%s%N)
	start 120 40 "$2"
	n=0
	until screen 2>/dev/null | grep -qE -- "$1"; do
		n=$((n + 1))
		[ "$n" -lt 12000 ] || { ms=-1; return; }
		sleep 0.01
	done
	ms=$((($(date +%s%N) - t0) / 1000000))
}

# bench_transcript FILE MB: a big Claude Code transcript opened in agentview
# (first frame, AGENTVIEW_FRAMESTAT) and in lnav, each in a fresh tmux
# 120x40, timed alike from the start of the command until its first screen
# shows the file (median of RUNS).
bench_transcript() {
	f=$1
	: >"$work/tf"
	: >"$work/tav"
	: >"$work/tlnav"
	mkdir -p "$work/lnavhome"
	i=0
	while [ "$i" -lt "$runs" ]; do
		screen_ms 'Run the shell command' "AGENTVIEW_FRAMESTAT=1 $bin $f 2>>$work/tf"
		echo "$ms" >>"$work/tav"
		keys q
		wait_exit 10 || :
		if command -v lnav >/dev/null 2>&1; then
			screen_ms '"type":"mode"' "HOME=$work/lnavhome lnav $f"
			echo "$ms" >>"$work/tlnav"
			$T kill-server 2>/dev/null || :
		fi
		i=$((i + 1))
	done
	med() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : -1), v[NR] }'; }
	first=$(sed -n 's/.*first_frame_ms=\([0-9.]*\).*/\1/p' "$work/tf" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : -1), v[NR] }')
	set -- "$f" "$2" $(med "$work/tav") $(med "$work/tlnav")
	srow "a Claude Code transcript opened (tmux 120x40): first frame" "$2 MB, one session" \
		"median $(fmt3 "${first% *}") ms, max $(fmt3 "${first#* }") ms" \
		"" "" "<= 1000 ms" "$(verdict "${first% *}" "<=" 1000)"
	if [ "${5:-}" != "" ]; then
		srow "  the same, from the start until the file shows, beside lnav" "$2 MB, one session" \
			"median $3 ms, max $4 ms" "lnav: median $5 ms, max $6 ms" \
			"$(ratio "$5" "$3")" "faster than lnav" \
			"$(awk -v a="$3" -v l="$5" 'BEGIN { print ((l == -1 || a < l) ? "met" : "NOT MET") }')"
	else
		srow "  the same, from the start until the file shows, beside lnav" "$2 MB, one session" \
			"median $3 ms, max $4 ms" "lnav: not installed" "" "faster than lnav" "?"
	fi
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
parts=${BENCH_PARTS:-"view fleet stores remote"}
case " $parts " in
*" view "*)
	for s in $sizes; do
		f=$(recording "$s")
		check_summary "$f"
		bench_index "$f" "$s"
		[ "$s" = "$big" ] && bench_memory "$f" "$s"
	done
	f=$(recording "$big")
	size=$big
	bench_first_screen "$f" "$big"
	bench_keys "$f" "$big"
	bench_follow "$f" "$big"
	bench_status_line "$f"
	;;
esac
case " $parts " in
*" fleet "*)
	bench_fleet_look 1000 1000 150
	bench_fleet_look 10000 4000 1000
	bench_list_screen 1000 1000 150
	bench_list_screen 10000 4000 1000
	bench_fleet_status_line 1000 1000
	bench_fleet_memory 10000 4000
	bench_fleet_follow
	;;
esac
case " $parts " in
*" remote "*)
	remote_setup
	bench_remote_list 100 100
	bench_remote_latency "poll" 1500 "$work/noiw"
	bench_remote_latency "inotifywait" 100 ""
	bench_remote_live "${BENCH_FOLLOW:-60}"
	bench_remote_quiet 100 100 "${BENCH_FOLLOW:-60}"
	stop_sshd
	;;
esac
case " $parts " in
*" stores "*)
	h=$(stores_home)
	bench_store_screen "$h"
	bench_store_print "$h"
	bench_transcript "$(transcript "${BENCH_TRANSCRIPT_MB:-500}")" "${BENCH_TRANSCRIPT_MB:-500}"
	;;
esac
load1=$(cut -d' ' -f1-3 /proc/loadavg)

cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)
echo "agentview bench: $(nproc) x $cpu; load average $load0 before, $load1 after"
echo "times: median of $runs runs (jq: of 3) by hyperfine after a warm-up; vs: how many times better agentview does (> 1: agentview is faster or smaller)"
echo "agentview parses a whole file of more than 4 MiB on two threads (src/ahead.c): CPU time can exceed the time"
echo
# table HEADERS FILE: the rows of FILE (tab-separated) as a Markdown table
# under HEADERS ("a|b|c"); nothing when FILE is empty.
table() {
	[ -s "$2" ] || return 0
	awk -F '\t' -v heads="$1" '
	BEGIN { n = split(heads, h, "|") }
	{ for (i = 1; i <= NF; i++) cell[NR, i] = $i; rows = NR }
	END {
		for (i = 1; i <= n; i++) { w[i] = length(h[i]); for (r = 1; r <= rows; r++) if (length(cell[r, i]) > w[i]) w[i] = length(cell[r, i]) }
		line = "|"; sep = "|"
		for (i = 1; i <= n; i++) { line = line sprintf(" %-*s |", w[i], h[i]); s = ""; for (k = 0; k < w[i]; k++) s = s "-"; sep = sep " " s " |" }
		print line; print sep
		for (r = 1; r <= rows; r++) { line = "|"; for (i = 1; i <= n; i++) line = line sprintf(" %-*s |", w[i], cell[r, i]); print line }
	}' "$2"
}
table "what|file|agentview|wc -l|jq -c .type|vs wc -l|vs jq|required|" "$rows"
[ -s "$rows" ] && [ -s "$srows" ] && echo
table "what|stores|agentview|peer|vs peer|required||load" "$srows"
