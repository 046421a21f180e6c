#!/bin/sh
# run_screen.sh: the viewer as a person sees it. Each case runs agentview in
# a private tmux server at a fixed size, presses keys, reads the screen with
# capture-pane and compares it with what a person should see: golden screens
# in tests/golden/ (UPDATE_GOLDEN=1 rewrites them), and properties that must
# hold (alignment, a pane title that escape sequences cannot change, a
# terminal restored on every way out).
set -u
. ./tests/lib/env.sh
top=$(pwd)
bin=$top/src/agentview
. "$top/tests/lib/tmux.sh"
tmux_test screen
# Recording is on by default (issue 15): whatever this test reads live is
# kept in its own scratch folder, never in the real ~/.local/state.
XDG_STATE_HOME=$work/state
export XDG_STATE_HOME

cc -std=c11 -D_XOPEN_SOURCE=700 -O1 -o "$work/colcheck" "$top/tests/colcheck.c" || exit 1

# sgr_params: the parameters of the SGR sequences on stdin, one a line.
sgr_params() {
	grep -o "$(printf '\033')\[[0-9;]*m" | sed 's/^.\[//; s/m$//' | tr ';' '\n'
}

# until_ok CMD...: run CMD until it succeeds (5 s at most): for what a
# screen must show that a pattern cannot say.
until_ok() {
	poll 5 "$@"
}

# reversed TEXT: the screen line holding TEXT has reverse video on it.
reversed() {
	screen_sgr | grep -F -- "$1" | sgr_params | grep -qx 7
}

not_reversed() {
	! reversed "$1"
}

# sgr_settled FILE: the first 39 rows with their SGR, once two captures
# in a row agree (a capture can land in the middle of a frame).
sgr_settled() {
	screen_sgr | head -39 >"$1"
	until_ok sgr_same "$1"
}

# sgr_same FILE: the first 39 rows with their SGR are FILE (a new capture
# replaces it when they are not, for the next try).
sgr_same() {
	screen_sgr | head -39 >"$1.new"
	cmp -s "$1" "$1.new" && return 0
	mv "$1.new" "$1"
	return 1
}

# sgr_like FILE: the first 39 rows with their SGR are FILE.
sgr_like() {
	screen_sgr | head -39 | cmp -s - "$1"
}

# sgr_before WORD: the parameters of the SGR sequences just before the
# first WORD on screen (what it is drawn in), one a line.
sgr_before() {
	screen_sgr | grep -o "\($(printf '\033')\[[0-9;]*m\)*$1" | head -1 | sgr_params
}

# sgr_colors: the colour parameters on stdin (30-38, 40-48, 90-97,
# 100-107; 39 and 49 set the terminal's default and are not colours).
sgr_colors() {
	sgr_params | grep -E '^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$'
}

# same_screen FILE [LINES]: the first LINES (default all) rows of the screen
# equal FILE's; a capture in the middle of a frame gets a second look.
same_screen() {
	n=${2:-999}
	screen | head -n "$n" | cmp -s - "$1" && return 0
	sleep 0.5
	screen | head -n "$n" | cmp -s - "$1"
}

# Golden screens at the three sizes, with every pane.
for size in 120x40 80x24 40x30; do
	cols=${size%x*}
	rows=${size#*x}
	start "$cols" "$rows" "$bin recordings/demo.ndjson"
	wait_for 'done' || fail "demo-$size" "no 'done' in the status bar"
	golden "demo-$size"
	keys G
	golden "demo-$size-end"
	keys Tab
	golden "demo-$size-timeline"
done

# "following" only when more can come (issue 25): a file read without -f,
# at its end, is at its end; with -f it is followed.
cases=$((cases + 1))
start 120 40 "$bin recordings/demo.ndjson"
wait_for 'done' || fail not-following "no 'done' in the status bar"
keys G
wait_for ' end *│' || fail not-following "G did not go to the end"
screen | grep -q 'follow' && fail not-following "a file read without -f says it follows: $(screen | grep follow)"
keys F
screen | grep -q 'follow' && fail not-following "F on a file read without -f says it follows: $(screen | grep follow)"
cases=$((cases + 1))
start 120 40 "$bin -f recordings/demo.ndjson"
wait_for 'end, following' || fail following "-f does not say it follows: $(screen | head -1)"
screen | tail -1 | grep -q 'follow' || fail following "-f: no 'follow' in the status bar: $(screen | tail -1)"

# A filter is said once (issue 25): the status bar's standing piece says
# what is hidden, no passing message says it again.
cases=$((cases + 1))
start 120 40 "$bin recordings/demo.ndjson"
wait_for 'done' || fail filter-once "no 'done' in the status bar"
keys T
keys C
wait_for 'hiding thinking, tool calls' || fail filter-once "the bar does not say what is hidden: $(screen | tail -1)"
[ "$(screen | tail -1 | grep -o hiding | wc -l)" -eq 1 ] ||
	fail filter-once "said twice: $(screen | tail -1)"
keys C
wait_for 'showing tool calls' || fail filter-once "showing them again is not said: $(screen | tail -1)"

# --compare on a screen (issue 25): every row of the timeline says its
# run, a divider stands between the runs, the status bar names both.
for size in 120x40 80x24 40x30; do
	cases=$((cases + 1))
	start "${size%x*}" "${size#*x}" "$bin --compare recordings/claude-shell-ok.ndjson recordings/claude-shell-fail.ndjson"
	wait_for 'B ✗ failed|B ✓ done' || fail "compare-$size" "the status bar does not name run B: $(screen | tail -1)"
	screen | tail -1 | grep -q 'A ✓ done' || fail "compare-$size" "the status bar does not name run A: $(screen | tail -1)"
	[ "$size" = 40x30 ] && keys Tab
	screen | grep -q '^A ✓ Shell *echo hello\|│A ✓ Shell *echo hello' ||
		fail "compare-$size" "run A's call is not marked A"
	screen | grep -q '^B ✗ Shell *ls /nonexistent\|│B ✗ Shell *ls /nonexistent' ||
		fail "compare-$size" "run B's call is not marked B"
	screen | grep -q '── B: claude-shell-fail.ndjson ─' || fail "compare-$size" "no divider before run B"
	screen | grep -q 'A · Session 64af87fb' || [ "$size" = 40x30 ] ||
		fail "compare-$size" "the transcript does not say run A's session"
done

# The status bar names model, session and state; the timeline pairs calls.
cases=$((cases + 1))
start 120 40 "$bin recordings/failures.ndjson"
wait_for 'done' || fail status "no state"
last=$(screen | tail -1)
for want in 'done' 'Grok 4.7 256K Extra High' '2ec74699' '✗1' '⊘2'; do
	echo "$last" | grep -qF -- "$want" || fail status "status bar lacks '$want': $last"
done
screen | grep -q '⊘ Shell.*npm run db:migrate' || fail timeline "rejected call not in the timeline"
screen | grep -q '✗ Shell.*npm run typecheck' || fail timeline "failed call not in the timeline"

# Korean text lines up: wide characters take two cells, so the rule between
# the panes stays in one column on every row, and so does the rule between
# the columns of the reply's Markdown table (its cells in Hangul, one
# wrapped).
cases=$((cases + 1))
start 120 40 "$bin recordings/lang-ko.ndjson"
wait_for 'done' || fail korean "did not draw"
keys G
screen | grep -q '출력 형식을' || fail korean "Korean text not shown"
cols=$(screen | head -39 | "$work/colcheck" -l '│' | sort -u)
[ "$cols" = 66 ] || fail korean "the rule between the panes moved: columns $(echo $cols)"
rows=$(screen | head -39 | grep -E '^(필드|[a-z_]+) +│ ')
[ "$(echo "$rows" | wc -l)" = 9 ] || fail korean "the table's rows are not shown: $rows"
cols=$(echo "$rows" | "$work/colcheck" '│' | sort -u)
[ "$cols" = 16 ] || fail korean "the table's rule moved: columns $(echo $cols)"
screen | grep -q '^                │ 연결한 값) *│$' || fail korean "the table's wrapped cell is not under its column"
start 80 24 "$bin recordings/lang-ko.ndjson"
wait_for 'done' || fail korean "did not draw at 80x24"
keys G
golden "lang-ko-80x24-end"

# A shell that went on in the background: its bar runs to the
# notification of its end, past the await's, and its line says how it
# ended.
cases=$((cases + 1))
start 120 40 "$bin recordings/cursor-background.ndjson"
wait_for 'done' || fail background "did not draw"
screen | grep -q 'Shell `sh -c .sleep 5; echo BGDONE.` → background #339917' ||
	fail background "the shell's line does not say it went to the background"
screen | grep -q '│✓ Shell .* 5\.5 s$' ||
	fail background "the shell's row does not end with the notification"
golden "background-120x40"

# A sub-agent's items and calls under the call that ran it, in both
# panes, however late its lines came (recordings/claude-subagents: a
# foreground sub-agent, then one in the background whose lines come after
# the session's own); ] and [ in the detail go through the calls in the
# timeline's order.
cases=$((cases + 1))
start 120 40 "$bin recordings/claude-subagents.ndjson"
wait_for 'done' || fail subagents "did not draw"
screen | awk '/^✓ Task Run echo from-bg/ { t = NR } /^  Running it in the background/ { r = NR }
	/^While it runs, my own command/ { o = NR } END { exit !(t && t < r && r < o) }' ||
	fail subagents "the background sub-agent's text is not under its task, before the session's next line"
screen | grep -A1 '│✓ Task    Run echo from-bg' | grep -q '│  ✓ Shell   sleep 2; echo from-bg' ||
	fail subagents "the timeline does not list the sub-agent's call under its task"
golden "subagents-120x40"
keys Tab g j Enter
wait_for 'Tool call 2/5' || fail subagents "the second row of the timeline is not the second call"
screen | grep -q 'Shell `echo from-fg` → "from-fg"' || fail subagents "the second row is not the sub-agent's Shell"
keys ']'
wait_for 'Tool call 3/5' || fail subagents "] did not go to the third row"
screen | grep -q 'Task Run echo from-bg' || fail subagents "] did not go to the background task"
keys q
start 80 24 "$bin recordings/claude-subagents.ndjson"
wait_for 'done' || fail subagents "did not draw at 80x24"
keys G
golden "subagents-80x24-end"
start 40 30 "$bin recordings/claude-subagents.ndjson"
wait_for 'done' || fail subagents "did not draw at 40x30"
golden "subagents-40x30"

# Claude Code's task list, built from TaskCreate and TaskUpdate: each
# line says the list after it and the task; the last update's detail
# shows the list (recordings/claude-todos).
cases=$((cases + 1))
start 120 40 "$bin recordings/claude-todos.ndjson"
wait_for 'done' || fail todos "did not draw"
screen | grep -q '✓ Todos 3 tasks · 1 done · Tag the release · done' ||
	fail todos "the last update does not say the list and its task"
golden "todos-120x40"
start 80 24 "$bin recordings/claude-todos.ndjson"
wait_for 'done' || fail todos "did not draw at 80x24"
keys Tab G Enter
wait_for 'Tool call 7/7' || fail todos "Enter did not open the last call's detail"
golden "todos-detail-80x24"

# A failed Gemini CLI run says why only in its result: the reason whole as
# a notice before its closing line, and after the failed word of the
# status bar (issue 22.7).
cases=$((cases + 1))
start 120 40 "$bin recordings/gemini-rate-limit-fail.ndjson"
wait_for 'failed' || fail gemini-failed "did not draw"
golden "gemini-failed-120x40"

# Codex read from a file has no times: no bar, and the timeline's title
# and the status bar say so; its new file reads as a Write (22.9, 22.10).
cases=$((cases + 1))
start 80 24 "$bin recordings/codex-write-edit.ndjson"
wait_for 'done' || fail codex-untimed "did not draw"
golden "codex-untimed-80x24"
start 40 30 "$bin recordings/codex-write-edit.ndjson"
wait_for 'done' || fail codex-untimed "did not draw at 40x30"
keys Tab
golden "codex-untimed-40x30-timeline"

# Copilot CLI's stream (recordings/copilot-subagent): its session's id
# from its last line, the task call with the sub-agent's Shell under it in
# the transcript and the timeline, at each size.
cases=$((cases + 1))
start 120 40 "$bin recordings/copilot-subagent.ndjson"
wait_for 'done' || fail copilot "did not draw"
screen | grep -q '^── Session 4f8034aa · Copilot CLI ─' || fail copilot "the header does not name the session and the agent"
screen | grep -A1 '│✓ Task    Run echo from-sub' | grep -q '│  ✓ Shell   echo from-sub' ||
	fail copilot "the timeline does not list the sub-agent's call under its task"
golden "copilot-subagent-120x40"
start 80 24 "$bin recordings/copilot-subagent.ndjson"
wait_for 'done' || fail copilot "did not draw at 80x24"
golden "copilot-subagent-80x24"
start 40 30 "$bin recordings/copilot-subagent.ndjson"
wait_for 'done' || fail copilot "did not draw at 40x30"
keys Tab
golden "copilot-subagent-40x30-timeline"

# Escape sequences in events never reach the terminal: the title, the
# screen and the clipboard stay as they were.
cases=$((cases + 1))
start 120 40 "$bin recordings/escapes.ndjson"
wait_for 'done' || fail escapes "did not draw"
title_before=$($T display -p -t 0 '#{pane_title}')
for k in G g ' ' ' ' t G Tab G; do
	keys "$k"
done
title=$($T display -p -t 0 '#{pane_title}')
case $title in
*PWNED* | *RAW-TITLE*) fail escapes "the pane title changed to '$title'" ;;
esac
[ "$title" = "$title_before" ] || fail escapes "the pane title changed: '$title_before' -> '$title'"
[ -z "$($T list-buffers 2>/dev/null)" ] || fail escapes "something wrote to the clipboard (tmux buffers)"
screen | grep -qF '^[' || fail escapes "escapes not shown as ^["
$T capture-pane -p -e -t 0 | grep -q "$(printf '\033]')" && fail escapes "an OSC sequence reached the screen"
keys g
golden "escapes-120x40"

# A slow pipe: lines appear as they come; at the end the state says how
# the session ended, and the viewer stays until q.
cases=$((cases + 1))
head -40 recordings/demo.ndjson >"$work/slow.ndjson"
cat >"$work/slow.sh" <<'EOF'
while IFS= read -r line; do printf '%s\n' "$line"; sleep 0.1; done < "$1"
EOF
start 80 24 "sh $work/slow.sh $work/slow.ndjson | $bin"
wait_for 'live' 3 || fail slow-pipe "no live state while the pipe is open"
sleep 1
n1=$(screen | grep -c '✓\|✗')
sleep 1.2
n2=$(screen | grep -c '✓\|✗')
[ "$n2" -gt "$n1" ] || fail slow-pipe "no new lines arrived on screen ($n1 then $n2)"
wait_for 'incomplete' 8 || fail slow-pipe "no 'incomplete' after the pipe closed"
sleep 0.3
$T list-panes -F '#{pane_dead}' | grep -q 0 || fail slow-pipe "the viewer did not stay open"

# The help: ? shows every key of the key table over the panes (the whole
# screen when narrow), scrolls with the transcript's keys, and q, Esc or ?
# close it without quitting.
cases=$((cases + 1))
start 120 40 "$bin recordings/demo.ndjson"
wait_for 'done' || fail help "did not draw"
$T send-keys -t 0 '?'
wait_for 'Ctrl-L +redraw the screen' || fail help "no key list after ?"
for want in '│   q +quit \(Ctrl-C too\)' '│   g, Home +to the top' \
	'│   \?, h, F1 +show every key' '│ Transcript and timeline'; do
	screen | grep -qE -- "$want" || fail help "the help lacks '$want'"
done
golden help-120x40
# The last keys are further down: the help scrolls to them.
$T send-keys -t 0 G
wait_for '│   q, Esc, \? +close the help' || fail help "the help lacks its own keys at its end"
$T send-keys -t 0 g
wait_for '│   q +quit \(Ctrl-C too\)' || fail help "g did not scroll the help back"
for close in '?' Escape q; do
	$T send-keys -t 0 "$close"
	wait_gone '─ Keys ─' || fail help "$close did not close the help"
	$T send-keys -t 0 '?'
	wait_for '─ Keys ─' || fail help "? did not open the help again"
done
$T send-keys -t 0 q
wait_gone '─ Keys ─' || fail help "q did not close the help"
golden demo-120x40
$T list-panes -F '#{pane_dead}' | grep -q 0 || fail help "q in the help quit the viewer"

cases=$((cases + 1))
start 40 30 "$bin recordings/demo.ndjson"
wait_for 'done' || fail help-narrow "did not draw"
$T send-keys -t 0 '?'
wait_for '─ Keys ─' || fail help-narrow "no help after ?"
golden help-40x30
$T send-keys -t 0 G
wait_for 'close the help' || fail help-narrow "G did not scroll to the last key"
golden help-40x30-end
$T send-keys -t 0 g
wait_for '│ Anywhere' || fail help-narrow "g did not scroll back to the top"

# NO_COLOR and --color never: attributes only, no colour at all, and the
# selection and the status bar are still there in reverse video.
for how in "env NO_COLOR=1 $bin" "$bin --color never"; do
	cases=$((cases + 1))
	start 120 40 "$how recordings/demo.ndjson"
	wait_for 'done' || fail no-color "$how: did not draw"
	$T send-keys -t 0 Tab
	wait_for 'Tool calls · 9  \(1/9\)' || fail no-color "$how: Tab did not focus the timeline"
	colors=$(screen_sgr | sgr_colors | sort -u | tr '\n' ' ')
	[ -z "$colors" ] || fail no-color "$how: colour escapes on screen: $colors"
	until_ok reversed 'Todos   3 todos' ||
		fail no-color "$how: the selected call is not in reverse video"
	until_ok reversed ' done ' ||
		fail no-color "$how: the status bar is not in reverse video"
	$T send-keys -t 0 j
	wait_for 'Tool calls · 9  \(2/9\)' || fail no-color "$how: j did not move the selection"
	until_ok reversed 'Shell   npm test ' ||
		fail no-color "$how: the new selection is not in reverse video"
	until_ok not_reversed 'Todos   3 todos' ||
		fail no-color "$how: the old selection is still in reverse video"
done
# --color always wins over NO_COLOR.
cases=$((cases + 1))
start 120 40 "env NO_COLOR=1 $bin --color always recordings/demo.ndjson"
wait_for 'done' || fail color-always "did not draw"
has_colors() {
	[ -n "$(screen_sgr | sgr_colors)" ]
}
until_ok has_colors || fail color-always "no colours with --color always"

# Markdown in a reply (issue 25 item 9): headings, nested lists, a code
# block under its language and cut, never wrapped, a table as a grid, a
# quote, links with their URL, in roles of their own; M shows the reply as
# the agent wrote it, and back. Golden screens at each size, and one per
# agent's stream of the same reply (Claude, Gemini, Codex).
# has_sgr TEXT PARAM...: the screen row holding TEXT sets every PARAM.
has_sgr() {
	row=$(screen_sgr | grep -F -- "$1" | sgr_params)
	shift
	for p in "$@"; do
		echo "$row" | grep -qx "$p" || return 1
	done
}
for size in 40x30 120x40; do
	cases=$((cases + 1))
	start "${size%x*}" "${size#*x}" "$bin recordings/markdown.ndjson"
	wait_for 'done' || fail "markdown-$size" "did not draw"
	keys G
	golden "markdown-$size"
	# (A capture sets only the attributes that change from the cell
	# before: each row checked comes after one that sets none of them.)
	[ "$size" = 40x30 ] && { until_ok has_sgr 'return parse_bytes' 2 ||
		fail markdown "the cut code line has no dim mark"; }
done
until_ok has_sgr 'What I changed' 1 4 || fail markdown "the heading is not bold and underlined"
until_ok has_sgr 'static int' 32 || fail markdown "the code block is not in its colour"
until_ok has_sgr 'Note:' 1 36 || fail markdown "strong and a code span in the quote"
until_ok has_sgr '(https://ci.example.com/run/42)' 34 4 2 || fail markdown "the link and its dim URL"
cases=$((cases + 1))
start 80 24 "$bin recordings/markdown.ndjson"
wait_for 'done' || fail markdown-80x24 "did not draw"
keys G b
golden markdown-80x24
keys M
wait_for 'Markdown as written' || fail markdown-raw "M said nothing"
wait_for '^   - it handles \*\*CRLF\*\* endings$' || fail markdown-raw "M did not show the reply as written"
golden markdown-80x24-raw
keys M
wait_for 'Markdown rendered' || fail markdown-raw "M again said nothing"
wait_for '^   ◦ it handles CRLF endings$' || fail markdown-raw "M again did not render the reply"
for agent in claude gemini codex; do
	cases=$((cases + 1))
	start 120 40 "$bin recordings/markdown-$agent.ndjson"
	wait_for 'done' || fail "markdown-$agent" "did not draw"
	keys G
	golden "markdown-$agent-120x40"
done
# Without colours: attributes only, each kind still told apart.
cases=$((cases + 1))
start 120 40 "env NO_COLOR=1 $bin recordings/markdown.ndjson"
wait_for 'done' || fail markdown-mono "did not draw"
keys G
until_ok has_sgr 'What I changed' 1 4 || fail markdown-mono "the heading is not bold and underlined"
until_ok has_sgr 'The linker stops at' 1 4 || fail markdown-mono "the code span and the emphasis"
colors=$(screen_sgr | sgr_colors | sort -u | tr '\n' ' ')
[ -z "$colors" ] || fail markdown-mono "colour escapes on screen: $colors"

# Themes: light differs from the default; the user's directory comes
# before the shipped themes; a bad file is named with its line in the
# status bar, and the viewer goes on with the default.
cases=$((cases + 1))
start 120 40 "$bin recordings/demo.ndjson"
wait_for 'done' || fail theme "default: did not draw"
sgr_settled "$work/default.sgr" || fail theme "default: the screen did not settle"
start 120 40 "$bin --theme light recordings/demo.ndjson"
wait_for 'done' || fail theme "light: did not draw"
sgr_settled "$work/light.sgr" || fail theme "light: the screen did not settle"
cmp -s "$work/default.sgr" "$work/light.sgr" && fail theme "--theme light looks like the default"
grep -q '48;5;24m' "$work/light.sgr" || fail theme "light: no colour24 behind the focused title"
screen | grep -q 'unknown theme' && fail theme "light: not found"

cases=$((cases + 1))
mkdir -p "$work/xdg/agentview/themes"
printf '# mine
title_focus = black colour201 bold
' >"$work/xdg/agentview/themes/light.theme"
start 120 40 "env XDG_CONFIG_HOME=$work/xdg $bin --theme light recordings/demo.ndjson"
wait_for 'done' || fail theme-xdg "did not draw"
title_201() {
	screen_sgr | head -1 | grep -q '48;5;201m'
}
until_ok title_201 || fail theme-xdg "the user's light.theme was not used"

cases=$((cases + 1))
printf '# a theme with a typo
user = cyan default bold

thinking = purpel
' >"$work/bad.theme"
start 120 40 "$bin --theme $work/bad.theme recordings/demo.ndjson"
wait_for "bad.theme:4: unknown colour 'purpel'" || fail theme-bad "no file:line in the status bar: $(screen | tail -1)"
until_ok sgr_like "$work/default.sgr" || fail theme-bad "the default theme was not used"
$T send-keys -t 0 G
wait_for ' end *│' || fail theme-bad "the viewer does not take keys"

cases=$((cases + 1))
start 120 40 "$bin --theme nosuch recordings/demo.ndjson"
wait_for "unknown theme 'nosuch'" || fail theme-unknown "no message for an unknown theme"

# Resizing from 120 to 40 columns and back keeps the position.
cases=$((cases + 1))
start 120 40 "$bin recordings/demo.ndjson"
wait_for 'done' || fail resize "did not draw"
keys j j j j j j j j j j j j
first=$(screen | sed -n 2p | cut -c1-20)
$T resize-window -t 0 -x 40 -y 30
sleep 0.3
$T resize-window -t 0 -x 120 -y 40
sleep 0.3
again=$(screen | sed -n 2p | cut -c1-20)
[ "$first" = "$again" ] || fail resize "position lost: '$first' became '$again'"

# The detail of a tool call: ] selects the next call, Enter opens it; the
# failing `npm test` shows its output; r shows the raw JSON; q and Esc go
# back to the very same screen.
cases=$((cases + 1))
start 80 24 "$bin recordings/demo.ndjson"
wait_for 'done' || fail detail "did not draw"
keys ']'
wait_for '\(1/9\)' || fail detail "] did not select the first call"
keys ']'
wait_for '\(2/9\)' || fail detail "] did not select the second call"
screen >"$work/before-detail.txt"
keys Enter
wait_for 'Tool call 2/9' || fail detail "Enter did not open the detail"
for want in 'Shell `npm test` → exit 1' 'exit code   1' '^stdout$' '> jest' '^stderr$'; do
	screen | grep -q -- "$want" || fail detail "the detail lacks '$want'"
done
golden "detail-shell-80x24"
keys G
wait_for 'Ran all test suites' || fail detail "G did not reach the end of the output"
keys r
wait_for 'raw JSON' || fail detail "r did not show the raw JSON"
wait_for 'started event, line' || fail detail "no started event in the raw JSON"
golden "detail-raw-80x24"
keys q
wait_for ' Transcript ' || fail detail "q did not close the detail"
same_screen "$work/before-detail.txt" || fail detail "q did not come back to the same screen"
keys Enter
wait_for 'Tool call 2/9' || fail detail "Enter did not open the detail again"
keys Escape
wait_for ' Transcript ' || fail detail "Esc did not close the detail"
same_screen "$work/before-detail.txt" || fail detail "Esc did not come back to the same screen"

# An edit's diff, reached from the timeline.
cases=$((cases + 1))
keys Tab G k k k k
wait_for '\(5/9\)' || fail detail-edit "the timeline did not select the edit"
keys Enter
wait_for 'Tool call 5/9' || fail detail-edit "Enter on the timeline did not open the detail"
golden "detail-edit-80x24"
keys q

# Search: a word near the end of the session lands on screen, matched
# without case (smartcase), highlighted, counted in the status bar; Esc
# in the prompt goes back to where the view was.
cases=$((cases + 1))
start 80 24 "$bin recordings/demo.ndjson"
wait_for 'done' || fail search "did not draw"
keys / c h a n g e l o g
wait_for '^/changelog .*match 1/1' || fail search "the prompt does not count the match: $(screen | tail -1)"
keys Enter
wait_for 'match 1/1' || fail search "no 'match 1/1' in the status bar: $(screen | tail -1)"
screen | grep -q "I didn't touch the CHANGELOG" || fail search "the match is not on screen"
# The match shown is in reverse, as less shows it.
sgr_before CHANGELOG | grep -qx 7 || fail search "the match shown is not in reverse"
keys g / f o r m a t d u r a t i o n Enter
wait_for 'match 1/' || fail search "no match for formatduration"
total=$(screen | tail -1 | sed -n 's/.*match 1\/\([0-9]*\).*/\1/p')
[ "${total:-0}" -ge 5 ] || fail search "formatduration: $total matches, want at least 5"
keys n
wait_for "match 2/$total" || fail search "n did not go to match 2: $(screen | tail -1)"
keys N N
wait_for "match $total/$total" || fail search "N did not wrap to the last match: $(screen | tail -1)"
# A capital: case matters.
keys / F O R M A T D U R A T I O N Enter
wait_for 'no match' || fail search "FORMATDURATION matched: $(screen | tail -1)"
keys g
wait_for 'Transcript +top' || fail search "g did not go to the top"
screen | head -n 23 >"$work/before-search.txt"
keys / T e s t s space p a s s
wait_for '^/Tests pass .*match 1/' || fail search "no match for Tests pass"
same_screen "$work/before-search.txt" 23 && fail search "the view did not move to the match"
keys Escape
wait_for 'done' || fail search "Esc did not close the prompt"
same_screen "$work/before-search.txt" 23 || fail search "Esc did not go back to where the view was"

# The match shown stands apart from the others: in reverse, the others
# black on yellow; n moves it, and the screen with it; a match in a call's
# detail selects the call and the status bar says where it is.
cases=$((cases + 1))
esc=$(printf '\033')
# Any SGR sequences, between reverse video and the text it starts.
sgrs="\\(${esc}\\[[0-9;]*m\\)*"
start 120 40 "$bin recordings/demo.ndjson"
wait_for 'done' || fail search-mark "did not draw"
keys / m i n u t e s Enter
wait_for 'match 1/9' || fail search-mark "no match: $(screen | tail -1)"
until_ok eval 'sgr_before minutes | grep -qx 7' ||
	fail search-mark "the first match is not in reverse: $(sgr_before minutes | tr '\n' ' ')"
screen_sgr | grep -q "${esc}\\[30m${esc}\\[43mminutes" ||
	fail search-mark "the other matches are not black on yellow"
row1=$(screen_sgr | grep -n "7m${sgrs}minutes" | cut -d: -f1)
keys n
wait_for 'match 2/9 · in Shell npm test stderr' ||
	fail search-mark "n did not say where match 2 is: $(screen | tail -1)"
screen_sgr | grep -q "7m${sgrs}✗ Shell \`npm test\`" ||
	fail search-mark "the call holding match 2 is not selected"
keys n n
wait_for 'match 4/9' || fail search-mark "n n did not go to match 4: $(screen | tail -1)"
screen_sgr | grep -n "7m${sgrs}minutes" >"$work/mark4"
[ "$(wc -l <"$work/mark4")" = 1 ] || fail search-mark "not one match in reverse: $(cat -v "$work/mark4")"
[ "$(cut -d: -f1 "$work/mark4")" != "$row1" ] || fail search-mark "the match in reverse did not move"

# A match in folded thinking opens its fold.
cases=$((cases + 1))
start 80 24 "$bin recordings/demo.ndjson"
wait_for 'done' || fail search-fold "did not draw"
screen | grep -q '▸ thinking · 4 ms' || fail search-fold "the thinking is not folded at first"
keys / R e p r o d u c e space i t Enter
wait_for 'match 1/1' || fail search-fold "no match: $(screen | tail -1)"
wait_for '▾ thinking · 4 ms' || fail search-fold "the fold holding the match did not open"
screen | grep -q 'Reproduce it first' || fail search-fold "the thinking's text is not shown"
sgr_before 'Reproduce it' | grep -qx 7 || fail search-fold "the match is not in reverse"
# Another thinking stays folded.
screen | grep -q '▸ thinking · 214 ms' || fail search-fold "another thinking opened too"

# The failed test's "Expected" is in the call's output, not in the
# transcript: the search finds it there and says where; Enter opens the
# detail at its line, in reverse; / searches the detail, n moves on in it.
cases=$((cases + 1))
for size in 120x40 80x24 40x30; do
	start "${size%x*}" "${size#*x}" "$bin recordings/demo.ndjson"
	wait_for 'done' || fail "search-detail-$size" "did not draw"
	keys / E x p e c t e d Enter
	wait_for 'match 1/1' || fail "search-detail-$size" "no match: $(screen | tail -1)"
	[ "$size" = 40x30 ] ||
		screen | tail -1 | grep -q 'match 1/1 · in Shell npm test stderr' ||
		fail "search-detail-$size" "the status bar does not say where: $(screen | tail -1)"
	keys Enter
	wait_for 'Tool call 2/9' || fail "search-detail-$size" "Enter did not open the call's detail"
	screen | grep -q 'Expected: "1m 0s"' || fail "search-detail-$size" "the match's line is not on screen"
	sgr_before Expected | grep -qx 7 || fail "search-detail-$size" "the match is not in reverse"
	screen | tail -1 | grep -q 'match 1/1 in this detail' ||
		fail "search-detail-$size" "the status bar does not count the detail's match: $(screen | tail -1)"
	keys / t e s t / d
	wait_for '^/test/d' || fail "search-detail-$size" "/ did not open the prompt in the detail"
	keys Enter
	# The first from the cursor row on: the second of the two, below.
	wait_for 'match 2/2 in this detail' ||
		fail "search-detail-$size" "/test/d in the detail: $(screen | tail -1)"
	row1=$(screen_sgr | grep -n "7m${sgrs}test/d" | cut -d: -f1)
	keys n
	wait_for 'match 1/2 in this detail' || fail "search-detail-$size" "n did not move: $(screen | tail -1)"
	row2=$(screen_sgr | grep -n "7m${sgrs}test/d" | cut -d: -f1)
	[ -n "$row1" ] && [ -n "$row2" ] && [ "$row1" != "$row2" ] ||
		fail "search-detail-$size" "the match in reverse did not move: '$row1' then '$row2'"
	keys q
	wait_gone 'Tool call 2/9' || fail "search-detail-$size" "q did not close the detail"
done

# & shows only the items that match, counted in the status bar; & alone
# shows them all again.
cases=$((cases + 1))
start 120 40 "$bin recordings/demo.ndjson"
wait_for 'done' || fail filter "did not draw"
screen | grep -q 'Running the test suite' || fail filter "the reply is not there at first"
keys '&' l i n t e r Enter
wait_for '&linter: 1 item' || fail filter "the status bar does not count: $(screen | tail -1)"
screen | grep -q 'Running the test suite' && fail filter "an item that does not match is shown"
screen | grep -q 'Running the linter' || fail filter "the item that matches is not shown"
keys '&' Enter g
wait_for 'Running the test suite' || fail filter "& alone did not show every item"
screen | tail -1 | grep -q '&linter' && fail filter "the filter is still said: $(screen | tail -1)"
keys '?'
wait_for 'Anywhere' || fail filter "? is not the help any more"
keys q

# A status message is said once, and "no match" goes with the next key.
cases=$((cases + 1))
start 120 40 "$bin recordings/demo.ndjson"
wait_for 'done' || fail status-once "did not draw"
keys T
wait_for 'hiding thinking' || fail status-once "T said nothing"
[ "$(screen | tail -1 | grep -o 'hiding thinking' | wc -l)" = 1 ] ||
	fail status-once "said twice: $(screen | tail -1)"
keys T / z z z q q Enter
wait_for 'no match' || fail status-once "no 'no match': $(screen | tail -1)"
keys ']'
wait_gone 'no match' || fail status-once "'no match' stayed after a jump: $(screen | tail -1)"

# Jumps: ! goes to the next rejected call (then the next problem), and
# the timeline follows; { } go between prompts.
cases=$((cases + 1))
start 80 24 "$bin recordings/failures.ndjson"
wait_for 'done' || fail jump "did not draw"
keys '!'
wait_for '\(1/5\)' || fail jump "! did not select the first rejected call"
# Reverse video (SGR 7) starts the selected row (tmux may send it at the
# end of the row before).
$T capture-pane -p -e -t 0 | tr '\n' ' ' | grep -q '7m *⊘ Shell `npm run db:migrate`' ||
	fail jump "the rejected call is not shown selected"
keys '!'
wait_for '\(2/5\)' || fail jump "! did not go on to the next rejected call"
screen | grep -q '⊘ Shell `rm -rf build`' || fail jump "the second rejected call is not on screen"
keys '!' '!' '!' '!'
wait_for 'wrapped' || fail jump "! did not wrap around"
start 80 24 "$bin recordings/multi-session.ndjson"
wait_for 'done' || fail jump "did not draw multi-session"
keys '}' '}'
wait_for '❯' || fail jump "} did not show a prompt"
keys '{'
screen | grep -q '❯' || fail jump "{ did not show a prompt"

# Filters: T hides thinking (and says so), T shows it again; C hides the
# tool calls.
cases=$((cases + 1))
start 80 24 "$bin recordings/demo.ndjson"
wait_for 'done' || fail filter "did not draw"
screen | grep -q '▸ thinking' || fail filter "no thinking to hide"
keys T
wait_for 'hiding thinking' || fail filter "the status bar does not say thinking is hidden"
screen | head -14 | grep -q '▸ thinking' && fail filter "thinking still shown"
keys C
wait_for 'hiding thinking, tool calls' || fail filter "the status bar does not name both filters"
screen | head -14 | grep -q '✓ Todos' && fail filter "tool calls still shown in the transcript"
keys T C
wait_for '▸ thinking' || fail filter "thinking not shown again"

# The mouse: off inside tmux unless asked for; --mouse makes the wheel
# scroll and a click select.
cases=$((cases + 1))
start 80 24 "$bin recordings/demo.ndjson"
wait_for 'done' || fail mouse "did not draw"
[ "$($T display -p -t 0 '#{mouse_any_flag}')" = 0 ] || fail mouse "the mouse is taken inside tmux by default"
start 80 24 "$bin --mouse recordings/demo.ndjson"
wait_for 'done' || fail mouse "did not draw with --mouse"
[ "$($T display -p -t 0 '#{mouse_any_flag}')" = 1 ] || fail mouse "--mouse did not ask for the mouse"
$T send-keys -t 0 -l "$(printf '\033[<65;10;5M')"
wait_for 'Transcript +[0-9]+%' || fail mouse "the wheel did not scroll"
$T send-keys -t 0 -l "$(printf '\033[<0;10;18M\033[<0;10;18m')"
wait_for '\(3/9\)' || fail mouse "a click did not select the timeline row"
$T send-keys -t 0 -l "$(printf '\033[<0;10;18M\033[<0;10;18m')"
wait_for 'Tool call 3/9' || fail mouse "a click on the selected row did not open its detail"

# The terminal is restored on every way out: q, Ctrl-C, SIGTERM, SIGHUP.
for how in q C-c TERM HUP; do
	cases=$((cases + 1))
	rm -f "$work/before" "$work/after"
	cp recordings/demo.ndjson "$work/restore-$how.ndjson"
	# The wrapper stands for the user's shell, which survives Ctrl-C; it
	# catches SIGINT rather than ignoring it, so that agentview does not
	# inherit it ignored.
	start 80 24 "sh -c 'trap : INT; stty -a >$work/before; $bin $work/restore-$how.ndjson; echo \"exit=\$?\"; stty -a >$work/after; echo RESTORED; sleep 30'"
	wait_for 'done' || fail "restore-$how" "did not draw"
	case $how in
	q | C-c) keys "$how" ;;
	*) pkill "-$how" -f "^$bin $work/restore-$how.ndjson" ;;
	esac
	wait_for RESTORED 5 || fail "restore-$how" "did not exit"
	[ "$($T display -p -t 0 '#{alternate_on}')" = 0 ] ||
		fail "restore-$how" "still on the alternate screen"
	cmp -s "$work/before" "$work/after" ||
		fail "restore-$how" "terminal modes differ: $(diff "$work/before" "$work/after" | head -4)"
	screen | grep -q '── Session\|Transcript' &&
		fail "restore-$how" "the viewer's screen is still shown"
done

# -- COMMAND: q asks while it runs; yes stops its whole group, nothing is
# left behind, and its exit status is passed on. (The command line sits in
# a script, so that only the command's own processes carry the marker.)
cases=$((cases + 1))
mark=av-screen-ask-$$
printf 'cd %s && exec env LC_ALL=C.UTF-8 TERM=xterm-256color %s -- tests/fake_agent.sh -m %s -g -s 600 recordings/demo.ndjson\n' \
	"$top" "$bin" "$mark" >"$work/ask.sh"
start 100 24 "sh -c 'trap : INT; sh $work/ask.sh; echo EXIT=\$?; sleep 30'"
wait_for 'running' || fail ask "the command is not shown running"
keys q
wait_for 'stop it and quit\? \(y/n\)' || fail ask "q did not ask"
keys n
wait_for 'running' || fail ask "n did not go back to the viewer"
[ "$(pgrep -f "fake_agent.sh -m $mark" | wc -l)" -ge 1 ] || fail ask "the command died without a yes"
keys C-c
wait_for 'stop it and quit' || fail ask "Ctrl-C did not ask"
keys y
wait_for 'EXIT=143' 8 || fail ask "no exit status 143 (SIGTERM) passed on: $(screen | grep EXIT)"
sleep 0.3
left=$(pgrep -f "$mark" | wc -l)
[ "$left" -eq 0 ] || fail ask "$left processes of the command left behind"

# --title: the pane title names the state, from our text only; on the way
# out it is set back ("agentview", or the title before agentview when the
# terminal keeps a title stack, as xterm's rmcup pops it).
cases=$((cases + 1))
before=""
start 100 24 "sh -c 'sleep 0.3; $bin --title recordings/demo.ndjson; sleep 30'"
before=$($T display -p -t 0 '#{pane_title}')
wait_for 'done' || fail title "did not draw"
title=$($T display -p -t 0 '#{pane_title}')
[ "$title" = "agentview: ok · Composer 2.5 · ad7140d9" ] || fail title "title is '$title'"
keys q
sleep 0.3
title=$($T display -p -t 0 '#{pane_title}')
[ "$title" = agentview ] || [ "$title" = "$before" ] || fail title "title left as '$title'"

# --bell: a failing call in a live stream rings (tmux flags the window).
cases=$((cases + 1))
printf 'exec sh %s/tests/fake_agent.sh -d 0.02 %s/recordings/failures.ndjson\n' "$top" "$top" >"$work/bell.sh"
start 100 24 "$bin --bell -- sh $work/bell.sh"
$T new-window -d
wait_for 'done|failed' 8 || fail bell "the session did not end"
[ "$($T display -p -t :0 '#{window_bell_flag}')" = 1 ] || fail bell "no bell"

# Recipe: a 50-column side pane following a recording as it is written.
cases=$((cases + 1))
head -12 recordings/demo.ndjson >"$work/side.ndjson"
start 160 40 "sleep 60"
$T split-window -h -l 50 -t 0 "cd '$top' && env LC_ALL=C.UTF-8 TERM=xterm-256color $bin -f $work/side.ndjson"
sleep 0.5
[ "$($T display -p -t 0.1 '#{pane_width}')" = 50 ] || fail side-pane "pane is not 50 columns"
$T capture-pane -p -t 0.1 | grep -q 'Transcript · Tab: calls' || fail side-pane "not the narrow layout"
sed -n 13,40p recordings/demo.ndjson >>"$work/side.ndjson"
tries=100
until $T capture-pane -p -t 0.1 | grep -q 'npm test'; do
	tries=$((tries - 1))
	[ $tries -gt 0 ] || { fail side-pane "appended lines did not show"; break; }
	sleep 0.05
done
$T capture-pane -p -t 0.1 | tail -1 | grep -q 'live' || fail side-pane "status is not live"

# Recipe: a popup (display-popup needs an attached client: attach one from
# a second tmux, and read the screen through it).
cases=$((cases + 1))
start 120 40 "sleep 60"
inner=$T
outer="tmux -L agentview-screen-$$-outer -f $work/tmux.conf"
$outer new-session -d -x 120 -y 40 "env TERM=xterm-256color $inner attach"
sleep 0.8
client=$($inner list-clients -F '#{client_name}' | head -1)
($inner display-popup -c "$client" -E -w 90 -h 30 \
	"cd '$top' && env LC_ALL=C.UTF-8 $bin recordings/demo.ndjson" &)
tries=100
until $outer capture-pane -p | grep -q 'Transcript'; do
	tries=$((tries - 1))
	[ $tries -gt 0 ] || { fail popup "the viewer did not show in the popup"; break; }
	sleep 0.05
done
$outer capture-pane -p | grep -q 'done.*Composer 2.5' || fail popup "no status bar in the popup"
$outer kill-server 2>/dev/null

# A resize storm, down to a 1x1 terminal and back: the viewer keeps
# running, draws the right layout at the end, and quits cleanly.
cases=$((cases + 1))
start 120 40 "sh -c 'trap : INT; stty -a >$work/storm-before; $bin recordings/demo.ndjson; echo \"exit=\$?\"; stty -a >$work/storm-after; echo RESTORED; sleep 30'"
wait_for 'done' || fail storm "did not draw"
for size in 1x1 2x1 1x2 39x9 40x10 80x24 13x7 200x60 1x1 3x3 120x40 41x11 79x23 120x40; do
	$T resize-window -t 0 -x "${size%x*}" -y "${size#*x}" 2>/dev/null
done
wait_for 'done.*Composer 2.5' 5 || fail storm "not drawn again after the storm"
$T resize-window -t 0 -x 1 -y 1
sleep 0.3
[ "$(pgrep -f "^$bin recordings/demo.ndjson" | wc -l)" -ge 1 ] || fail storm "died at 1x1"
$T resize-window -t 0 -x 120 -y 40
wait_for 'Transcript.*│ Tool calls' 5 || fail storm "no wide layout after 1x1"
keys q
wait_for RESTORED 5 || fail storm "did not quit"
cmp -s "$work/storm-before" "$work/storm-after" || fail storm "terminal modes differ after the storm"
screen | grep -q 'exit=0' || fail storm "exit status not 0: $(screen | grep exit=)"

# A terminal of 10000x10000 (tmux makes one; no one can look at it): what
# is drawn is capped to what can be shown (1000x500), in memory too; it
# starts that big and grows that big, and comes back to 120x40 whole.
cases=$((cases + 1))
start 10000 10000 "$bin recordings/demo.ndjson"
wait_for 'Composer 2.5' 10 || fail huge "did not draw at 10000x10000"
pid=$(pgrep -f "^$bin recordings/demo.ndjson" | head -n 1)
$T resize-window -t 0 -x 120 -y 40
wait_for 'Transcript.*│ Tool calls' 5 || fail huge "no wide layout at 120x40"
$T resize-window -t 0 -x 10000 -y 10000
sleep 1
$T resize-window -t 0 -x 120 -y 40
wait_for 'Transcript.*│ Tool calls' 5 || fail huge "no wide layout after 10000x10000"
kb=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
[ -n "$kb" ] && [ "$kb" -lt 102400 ] || fail huge "peak memory at 10000x10000: ${kb:-?} kB (bound 100 MB)"
keys q

# Signals while the screen is busy: a fast stream is being drawn when
# SIGTERM, SIGHUP or SIGINT comes; the terminal is restored each time.
for how in TERM HUP INT; do
	cases=$((cases + 1))
	rm -f "$work/busy-before" "$work/busy-after"
	# A link with a name of its own marks this viewer for pkill.
	ln -sf "$bin" "$work/agentview-busy-$how"
	printf 'while cat %s/recordings/demo.ndjson; do :; done | exec %s\n' \
		"$top" "$work/agentview-busy-$how" >"$work/busy-$how.sh"
	start 100 30 "sh -c 'trap : INT; stty -a >$work/busy-before; sh $work/busy-$how.sh; stty -a >$work/busy-after; echo RESTORED; sleep 30'"
	wait_for 'live|done' 5 || fail "busy-$how" "did not draw"
	sleep 0.5
	pkill "-$how" -f "^$work/agentview-busy-$how" || fail "busy-$how" "no viewer to signal"
	wait_for RESTORED 8 || fail "busy-$how" "did not exit"
	[ "$($T display -p -t 0 '#{alternate_on}')" = 0 ] || fail "busy-$how" "still on the alternate screen"
	cmp -s "$work/busy-before" "$work/busy-after" || fail "busy-$how" "terminal modes differ"
done

# Combining marks and zero-width code points: a search match that ends
# before a mark keeps the mark with its base, next to wide characters
# (decomposed Japanese, as macOS names files); a zero-width code point that
# starts a row is not drawn as a replacement character, and does not push
# the row one cell wider; in the reply's Markdown (each line a paragraph of
# its own) and as written (M).
cases=$((cases + 1))
{
	printf '{"type":"system","subtype":"init","session_id":"s-marks","model":"m"}\n'
	printf '{"type":"assistant","message":{"content":[{"type":"text","text":"file: '
	printf '\343\201\213\343\202\231\343\201\215\343\202\231\343\201\217\343\202\231 end\\n\\n'
	printf '\342\200\213zero width\\n\\n\314\201mark first line\\n\\n\342\200\213'
	printf 'y%.0s' $(seq 80)
	printf '"}]}}\n'
} >"$work/marks.ndjson"
start 80 24 "$bin $work/marks.ndjson"
wait_for 'zero width' 5 || fail marks "did not draw"
for view in rendered written; do
	[ "$view" = written ] && keys M && wait_for 'Markdown as written' 5
	screen | grep -q '^zero width' || fail "marks $view" "the row of a leading zero-width space: $(screen | grep 'zero width')"
	screen | grep -q '^mark first line' || fail "marks $view" "the row of a leading mark: $(screen | grep 'mark first')"
	screen | grep -q '^y\{80\}$' || fail "marks $view" "80 y after a zero-width space, not: $(screen | grep yyy)"
	screen | grep -q "$(printf '\357\277\275')" && fail "marks $view" "a replacement character on screen"
done
keys / "$(printf '\343\201\215')" Enter
wait_for 'match 1/1' 5 || fail marks "no match"
screen | grep -q "file: $(printf '\343\201\213\343\202\231\343\201\215\343\202\231\343\201\217\343\202\231') end" ||
	fail marks "the marked letters around the match: $(screen | grep 'file:')"

# Resized smaller and back within one frame: curses cut its rows and filled
# them with blanks, so every row must be drawn again, not only those that
# changed.
cases=$((cases + 1))
start 100 30 "$bin recordings/all-tools.ndjson"
wait_for 'Tool calls' 5 || fail resize-back "did not draw"
screen >"$work/resize-before"
tty=$($T display -p -t 0 '#{pane_tty}')
# Both sizes come within the frame that the key j made due.
for i in 1 2 3; do
	$T send-keys -t 0 j
	stty -F "$tty" cols 60
	sleep 0.01 # the viewer takes this size before the next
	stty -F "$tty" cols 100
	sleep 0.2
done
keys k k k
sleep 0.3
screen >"$work/resize-after"
cmp -s "$work/resize-before" "$work/resize-after" ||
	fail resize-back "rows left cut: $(diff "$work/resize-before" "$work/resize-after" | head -4)"

# A file viewed without -f is mapped; cut short under the viewer, the next
# read past its new end is a SIGBUS: the terminal is restored and the
# message says why. 40 MB, more than the text cache holds, so that a search
# must read the file again.
cases=$((cases + 1))
i=0
while [ "$i" -lt 720 ]; do
	cat "$top/recordings/all-tools.ndjson"
	i=$((i + 1))
done >"$work/cut.ndjson"
start 100 30 "sh -c 'stty -a >$work/cut-before; $bin $work/cut.ndjson 2>$work/cut.err; echo exit=\$?; stty -a >$work/cut-after; echo RESTORED; sleep 30'"
wait_for 'Tool calls' 5 || fail cut "did not draw"
truncate -s 4096 "$work/cut.ndjson"
keys G / z z q Enter
wait_for RESTORED 8 || fail cut "did not end"
screen | grep -q 'exit=135' || fail cut "not killed by SIGBUS: $(screen | grep exit=)"
grep -q 'the input file was cut short while it was read (SIGBUS); a file that changes wants -f' \
	"$work/cut.err" || fail cut "no message: $(cat "$work/cut.err")"
[ "$($T display -p -t 0 '#{alternate_on}')" = 0 ] || fail cut "still on the alternate screen"
cmp -s "$work/cut-before" "$work/cut-after" || fail cut "terminal modes differ"
rm -f "$work/cut.ndjson"

echo "screen: $cases cases, $fails failures"
[ "$fails" -eq 0 ]
