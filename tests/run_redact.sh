#!/bin/sh
# run_redact.sh: --redact on recordings/secrets.ndjson (every secret in it
# made up). Each print format and the HTML page byte for byte against
# tests/golden/redact/ (UPDATE_GOLDEN=1 rewrites them); none of the secrets
# left in any of them, while the same run without --redact shows them all;
# the same in every other way out: --compare, the status line, the session
# list printed, --notify-cmd's environment (and the README's notify-send
# recipe), a text cut at the list's and the HTML page's bounds; the usage
# errors; and in tmux, the viewer started with --redact, then R showing the
# secrets and R hiding them again, on the panes and in a call's detail, y
# copying them only while they are shown (in the raw JSON too, a secret
# spelled with \u escapes), o paging them likewise; and every field of
# every agent's stream as the carrier of a secret, through all of it.
set -u
. ./tests/lib/env.sh
top=$(pwd)
bin=$top/src/agentview
rec=recordings/secrets.ndjson
. "$top/tests/lib/tmux.sh"
tmux_test redact
printf 'set -g set-clipboard on\n' >>"$work/tmux.conf"
# The streams piped in below are kept: in the scratch directory, not in
# the home's folder of sessions.
XDG_STATE_HOME=$work/state
export XDG_STATE_HOME

# The secrets of the recording, as fixed strings (ACME-4711 by a pattern).
cat >"$work/secrets" <<'EOS'
sk-proj-FAKEfake0000Fake1111Fake2222
ghp_FAKEfake0123456789FAKEfake0123456789
0123456789FAKEfake0123456789
AKIAFAKEFAKE00000000
xoxb-0000000000-FAKEfakeFAKE
eyJhbGciOiJIUzI1NiJ9
ZmFrZS1zaWduYXR1cmUtMDA
b3BlbnNzaC1rZXktdjEAAAAAFAKEFAKEFAKE
AAAAC3NzaC1lZDI1NTE5AAAAIFAKEFAKEFAKE
correct horse battery staple
hunter2
FAKEfakeFAKEfake/0000
new value
ACME-4711
EOS
pattern='ACME-[0-9]+'
# The secrets added for issue 20 (every shape gitleaks knows that --redact
# missed) are all spelled FAKE...; and no key may be left spelled with a
# JSON escape either.
printf 'FAKE\n\\u0073k-proj\n' >>"$work/secrets"

# left NAME FILE: no secret in FILE, else a failure of NAME; one case.
left() {
	cases=$((cases + 1))
	l=$(grep -F -o -f "$work/secrets" "$2" | sort -u | tr '\n' ' ')
	[ -z "$l" ] || fail "$1" "secrets left: $l"
}

for fmt in text markdown json html; do
	cases=$((cases + 1))
	out=$work/secrets.$fmt
	"$bin" --print --format "$fmt" --redact --redact-pattern "$pattern" \
		"$rec" >"$out" 2>"$work/err"
	st=$?
	[ "$st" -eq 0 ] || fail "$fmt" "exit status $st: $(cat "$work/err")"
	left=$(grep -F -o -f "$work/secrets" "$out" | sort -u | tr '\n' ' ')
	[ -z "$left" ] || fail "$fmt" "secrets left: $left"
	grep -q -F '[redacted]' "$out" || fail "$fmt" "no [redacted]"
	# Without --redact every secret is there: the check above can fail.
	"$bin" --print --format "$fmt" "$rec" >"$work/plain.$fmt"
	for s in sk-proj-FAKEfake0000Fake1111Fake2222 ACME-4711 \
		eyJhbGciOiJIUzI1NiJ9; do
		grep -q -F -- "$s" "$work/plain.$fmt" ||
			fail "$fmt" "without --redact, $s is not shown"
	done
	golden=tests/golden/redact/secrets.$fmt
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		mkdir -p tests/golden/redact
		cp "$out" "$golden"
	elif ! cmp -s "$out" "$golden"; then
		fail "$fmt" "differs from $golden: $(diff "$golden" "$out" | head -5)"
	fi
done

# The JSON summary stays JSON; literal values outside secrets stay.
cases=$((cases + 1))
jq -e '.sessions[0].assistant_text | contains("sk-learn, task-1234, the monkey=banana")' \
	"$work/secrets.json" >/dev/null || fail json "near misses were redacted"

# The shapes added for issue 20 are in the stream: without --redact they
# show, and the near misses beside them stay with it.
cases=$((cases + 1))
for s in FAKEpgpass0000 FAKEcurlpass0000 FAKEjsonpass0000 FAKEcookie0000 \
	AIzaFAKEgoogle sk-proj-FAKEescaped0000; do
	grep -q -F -- "$s" "$work/plain.html" || fail plain "without --redact, $s is not shown"
done
for s in 'primary_key=id, token_count: 5, sha 3f786850e387550fdab836ed7e6dc881de23001b' \
	'http://localhost:8080/x'; do
	grep -q -F -- "$s" "$work/secrets.html" || fail near-misses "redacted: $s"
done

# The status line, the session list printed (a folder holding the
# recording) in its three formats.
"$bin" --status-line --redact --redact-pattern "$pattern" "$rec" >"$work/status" 2>&1
left status-line "$work/status"
mkdir -p "$work/dir"
cp "$rec" "$work/dir/"
for fmt in text markdown json; do
	"$bin" --print --format "$fmt" --redact --redact-pattern "$pattern" "$work/dir" \
		>"$work/list.$fmt" 2>&1
	left "list-$fmt" "$work/list.$fmt"
done

# Redact first, cut after: a key across the list's 112 bytes of a prompt
# and of a reason, and across the HTML page's 1 MiB of a text, leaves no
# part of it.
cut_key=sk-proj-FAKEcut0000Fake1111Fake2222Fake3333
pad=$(printf '%0100d' 0)
mkdir -p "$work/cut"
{
	printf '{"type":"system","subtype":"init","session_id":"c0000001","model":"m","cwd":"/w/c"}\n'
	printf '{"type":"user","message":{"content":[{"type":"text","text":"%s %s"}]}}\n' "$pad" "$cut_key"
	printf '{"type":"result","subtype":"success","duration_ms":5,"is_error":true,"result":"%s %s"}\n' \
		"$pad" "$cut_key"
} >"$work/cut/cut.ndjson"
for fmt in markdown; do
	"$bin" --print --format "$fmt" --redact "$work/cut" >"$work/cut.$fmt" 2>&1
	cases=$((cases + 1))
	grep -q -F "$pad" "$work/cut.$fmt" ||
		fail "cut-$fmt" "the prompt is not listed: $(head -c 300 "$work/cut.$fmt")"
	grep -q -F 'sk-pr' "$work/cut.$fmt" &&
		fail "cut-$fmt" "a key's start is left: $(grep -o 'sk-pr[^ "]*' "$work/cut.$fmt" | head -1)"
done
big=$(awk 'BEGIN { for (i = 0; i < 1048570; i++) printf "a" }')
{
	printf '{"type":"system","subtype":"init","session_id":"h0000001","model":"m","cwd":"/w"}\n'
	printf '{"type":"user","message":{"content":[{"type":"text","text":"%s %s"}]}}\n' "$big" "$cut_key"
} >"$work/big.ndjson"
"$bin" --print --format html --redact "$work/big.ndjson" >"$work/big.html"
cases=$((cases + 1))
grep -q -F 'more not shown' "$work/big.html" || fail cut-html "the prompt was not cut"
grep -q -F 'sk-pr' "$work/big.html" && fail cut-html "a key's start is left at the cut"

# The list followed (-f), in JSON and in text: a change's line carries
# no secret of the session's id, model, prompt or reason either.
for fmt in json text; do
	mkdir -p "$work/follow.$fmt"
	{
		printf '%s\n' '{"type":"system","subtype":"init","session_id":"f0000001 TOKEN=FAKEfid0000","model":"m PASSWORD=FAKEfmodel0000","cwd":"/w/f"}'
		printf '%s\n' '{"type":"user","message":{"content":[{"type":"text","text":"deploy with sk-proj-FAKEfprompt0000Fake1111"}]}}'
	} >"$work/follow.$fmt/s.ndjson"
	"$bin" --print -f --format "$fmt" --redact "$work/follow.$fmt" >"$work/follow.$fmt.out" 2>&1 &
	fpid=$!
	poll 5 grep -q running "$work/follow.$fmt.out"
	printf '%s\n' '{"type":"result","subtype":"success","duration_ms":5,"is_error":true,"result":"denied: SECRET=FAKEfhow0000"}' \
		>>"$work/follow.$fmt/s.ndjson"
	poll 5 grep -q failed "$work/follow.$fmt.out" || fail "follow-$fmt" "no change told: $(cat "$work/follow.$fmt.out")"
	kill "$fpid" 2>/dev/null
	wait "$fpid" 2>/dev/null
	left "follow-$fmt" "$work/follow.$fmt.out"
done

# --notify-cmd: every AGENTVIEW_* value one line, no control byte, no
# secret; a stream read live (a pipe) that fails, its session id, model
# and reason hostile.
cat >"$work/cmd" <<'EOF'
for v in EVENT SESSION AGENT STATE SUMMARY FILE; do
	eval "printf '%s' \"\$AGENTVIEW_$v\"" >"$NOTES.$v"
done
printf done >"$NOTES.end"
EOF
NOTES=$work/notes
export NOTES
hostile() {
	printf '%s\n' '{"type":"system","subtype":"init","session_id":"s\u001b]0;owned\u0007 sk-proj-FAKEsid0000Fake1111Fake2222","model":"M\u001b[31m\nX-Api-Key: FAKEmodel0000","cwd":"/w"}'
	printf '%s\n' '{"type":"user","message":{"content":[{"type":"text","text":"PGPASSWORD=FAKEprompt0000 psql"}]}}'
	printf '%s\n' '{"type":"result","subtype":"success","duration_ms":5,"is_error":true,"result":"\u001b]52;c;eA==\u0007denied: TOKEN=FAKEreason0000\r\nnext"}'
}
for mode in redact plain; do
	rm -f "$NOTES".*
	flag=--redact
	[ "$mode" = plain ] && flag=--color=never
	hostile | "$bin" --print "$flag" --notify-cmd ". $work/cmd" >/dev/null 2>&1
	cases=$((cases + 1))
	if ! poll 5 test -f "$NOTES.end"; then
		fail "notify-$mode" "the command did not run"
		continue
	fi
	for v in EVENT SESSION AGENT STATE SUMMARY FILE; do
		LC_ALL=C grep -q '[[:cntrl:]]' "$NOTES.$v" &&
			fail "notify-$mode" "AGENTVIEW_$v holds a control byte: $(od -c "$NOTES.$v" | head -3)"
	done
	[ "$(cat "$NOTES.EVENT")" = failed ] || fail "notify-$mode" "event: $(cat "$NOTES.EVENT")"
	if [ "$mode" = redact ]; then
		cat "$NOTES".* >"$work/notes.all"
		left notify "$work/notes.all"
		grep -q -F '[redacted]' "$NOTES.SUMMARY" ||
			fail notify "the summary is not redacted: $(cat "$NOTES.SUMMARY")"
	else
		grep -q -F 'TOKEN=FAKEreason0000' "$NOTES.SUMMARY" ||
			fail notify-plain "the reason is not told: $(cat "$NOTES.SUMMARY")"
	fi
done

# The README's notify-send recipe, as written there, with notify-send
# replaced by a script that keeps its arguments: libnotify reads markup,
# so <, > and & arrive escaped.
cases=$((cases + 1))
mkdir -p "$work/bin"
printf '#!/bin/sh\nfor a; do printf "%%s\\n" "$a"; done >"%s/sent"\n' "$work" >"$work/bin/notify-send"
chmod +x "$work/bin/notify-send"
recipe=$(sed -n "s/^agentview --print -f --notify-cmd '\(.*notify-send.*\)' > \/dev\/null\$/\1/p" README.md)
if [ -z "$recipe" ]; then
	fail recipe "no notify-send recipe in README.md"
else
	{
		printf '%s\n' '{"type":"system","subtype":"init","session_id":"r0000001","model":"<i>m</i>","cwd":"/w"}'
		printf '%s\n' '{"type":"result","subtype":"success","duration_ms":5,"is_error":true,"result":"<b>bold</b> & more"}'
	} | PATH="$work/bin:$PATH" "$bin" --print --notify-cmd "$recipe" >/dev/null 2>&1
	poll 5 test -s "$work/sent" || fail recipe "notify-send did not run"
	grep -q -F '&lt;i&gt;m&lt;/i&gt;' "$work/sent" &&
		grep -q -F '&lt;b&gt;bold&lt;/b&gt; &amp; more' "$work/sent" ||
		fail recipe "markup not escaped: $(cat "$work/sent" 2>&1)"
fi

# --compare's scorecard, in its three formats, hides them too.
for fmt in text markdown json; do
	cases=$((cases + 1))
	"$bin" --compare --redact --format "$fmt" "$rec" recordings/demo.ndjson \
		>"$work/compare.$fmt"
	left "compare-$fmt" "$work/compare.$fmt"
	# Markdown escapes the brackets.
	grep -q -F -e 'Bearer [redacted]' -e 'Bearer \[redacted\]' "$work/compare.$fmt" ||
		fail "compare-$fmt" "the curl command is not there, redacted"
done

# Usage errors: a pattern that does not compile, raw with --redact.
cases=$((cases + 1))
"$bin" --print --redact-pattern 'a(b' "$rec" >/dev/null 2>"$work/err"
st=$?
[ "$st" -eq 2 ] || fail bad-pattern "exit status $st, not 2"
grep -q "redact-pattern: 'a(b' is not a regular expression" "$work/err" ||
	fail bad-pattern "no clear message: $(cat "$work/err")"
cases=$((cases + 1))
"$bin" --print --format raw --redact "$rec" >/dev/null 2>&1
st=$?
[ "$st" -eq 2 ] || fail raw "--format raw --redact: exit status $st, not 2"

# The screen: hidden from the start, R shows them, R hides them again.
on_screen() {
	screen | grep -F -o -f "$work/secrets" | sort -u | tr '\n' ' '
}
cases=$((cases + 1))
start 160 50 "$bin --redact --redact-pattern '$pattern' $rec"
wait_for 'ok ' || fail screen "the session did not show"
s=$(on_screen)
[ -z "$s" ] || fail screen "secrets on screen with --redact: $s"
screen | grep -q -F '[redacted]' || fail screen "no [redacted] on screen"
keys R
wait_for 'secrets shown' || fail screen "R did not say it shows secrets"
s=$(on_screen)
case $s in
*sk-proj-FAKEfake0000Fake1111Fake2222*ACME-4711*) ;;
*ACME-4711*sk-proj-FAKEfake0000Fake1111Fake2222*) ;;
*) fail screen "R did not show the secrets: $s" ;;
esac
keys R
wait_for 'secrets hidden' || fail screen "R again did not say it hides secrets"
s=$(on_screen)
[ -z "$s" ] || fail screen "secrets on screen after R twice: $s"

# In a call's detail too: the .env read, R shows its values, R hides them.
cases=$((cases + 1))
keys ']' Enter
wait_for 'OPENAI_API_KEY=' || fail detail "the read's detail did not open"
s=$(on_screen)
[ -z "$s" ] || fail detail "secrets in the detail with --redact: $s"
keys R
wait_for 'OPENAI_API_KEY=sk-proj' || fail detail "R did not show the detail's secrets"
keys R
wait_gone 'OPENAI_API_KEY=sk-proj' || fail detail "R again did not hide them"
s=$(on_screen)
[ -z "$s" ] || fail detail "secrets in the detail after R twice: $s"

# y copies what the screen shows: no secret while they are hidden.
cases=$((cases + 1))
start 160 50 "$bin --redact $rec"
wait_for 'ok ' || fail copy "the session did not show"
keys ']' ']' y
wait_for 'copied the command' || fail copy "y did not copy the command"
poll 2 sh -c "$T show-buffer 2>/dev/null | grep -q -F 'Bearer [redacted]'" ||
	fail copy "the copy is not redacted: $($T show-buffer 2>&1)"
left=$($T show-buffer 2>/dev/null | grep -F -o -f "$work/secrets" | tr '\n' ' ')
[ -z "$left" ] || fail copy "secrets copied while hidden: $left"
keys R y
poll 2 sh -c "$T show-buffer 2>/dev/null | grep -q -F 'Bearer eyJhbGciOiJIUzI1NiJ9'" ||
	fail copy "with R, the copy is not whole: $($T show-buffer 2>&1)"

# y and o on the call with PGPASSWORD=, curl -u, mysql -p and the rest:
# its command, its output, and the output paged; none with a secret.
cat >"$work/pager" <<EOF
#!/bin/sh
cat "\$1" >"$work/paged"
EOF
chmod +x "$work/pager"
start 160 50 "env PAGER=$work/pager $bin --redact $rec"
wait_for 'ok ' || fail copy-more "the session did not show"
keys ']' ']' ']' y
wait_for 'copied the command' || fail copy-more "y did not copy the command"
$T show-buffer >"$work/buffer" 2>&1
grep -q -F 'PGPASSWORD=[redacted]' "$work/buffer" || fail copy-more "not the command: $(cat "$work/buffer")"
left copy-command "$work/buffer"
keys y
wait_for 'copied the output' || fail copy-more "y again did not copy the output"
$T show-buffer >"$work/buffer" 2>&1
left copy-output "$work/buffer"
keys o
poll 5 test -s "$work/paged" || fail pager "the pager did not run"
left pager "$work/paged"
grep -q -F 'api_key: [redacted]' "$work/paged" || fail pager "not the output: $(head -c 300 "$work/paged")"

# The raw JSON of the call whose command, a key's name and a value are
# spelled with \u escapes: shown decoded and redacted; y copies what is
# shown (the JSON as indented there), without a secret.
keys ']' Enter r
wait_for 'raw JSON' || fail raw "r did not show the raw JSON"
wait_for '"password": "\[redacted\]"' || fail raw "the escaped key's value is not shown redacted"
s=$(on_screen)
[ -z "$s" ] || fail raw "secrets in the raw JSON on screen: $s"
keys j j j j j j j j j j y
wait_for 'copied the started event' || fail raw "y did not copy the started event"
$T show-buffer >"$work/buffer" 2>&1
left copy-raw "$work/buffer"
grep -q -F '  "type": "tool_call",' "$work/buffer" && grep -q -F '"password": "[redacted]",' "$work/buffer" ||
	fail copy-raw "not what the screen shows: $(head -c 400 "$work/buffer")"

# y on a row in no part: the whole detail as shown.
keys q Enter r
wait_for 'raw JSON' || fail raw "r did not show the raw JSON again"
keys y
wait_for 'copied the whole detail' || fail raw "y did not copy the whole detail"
$T show-buffer >"$work/buffer" 2>&1
left copy-raw-whole "$work/buffer"
grep -q -F '"password": "[redacted]",' "$work/buffer" ||
	fail copy-raw-whole "not what the screen shows: $(head -c 400 "$work/buffer")"

# --title: the window's title (a model cut at 200 bytes of it, an id cut
# to 8) and the status bar (an id cut to 8) are cut before a secret, not
# through it.
model=$(printf 'M%0168d' 0)
printf '{"type":"system","subtype":"init","session_id":"s1","model":"%s sk-proj-FAKEtitle1111Fake2222","cwd":"/w"}\n' \
	"$model" >"$work/title1.ndjson"
printf '{"type":"system","subtype":"init","session_id":"sk-proj-FAKEtitle0000Fake1111","model":"m","cwd":"/w"}\n' \
	>"$work/title2.ndjson"
for t in title1 title2; do
	cases=$((cases + 1))
	start 120 40 "$bin --title --redact $work/$t.ndjson"
	wait_for ' Transcript ' || fail "$t" "the session did not show"
	poll 2 sh -c "$T display -p '#{pane_title}' | grep -q '^agentview: '" || fail "$t" "no title set"
	title=$($T display -p '#{pane_title}')
	case $title in
	*sk-p* | *FAKE*) fail "$t" "a key's start in the title: $title" ;;
	esac
	# The status bar shows 8 bytes of the id: not a key's start either.
	screen | grep -q -e 'sk-p' -e FAKE && fail "$t" "a key's start on screen: $(screen | grep -e 'sk-p' -e FAKE)"
done
# The list's ID column, 8 bytes of it.
mkdir -p "$work/ids"
cp "$work/title2.ndjson" "$work/ids/"
for fmt in text markdown; do
	cases=$((cases + 1))
	"$bin" --print --format "$fmt" --redact "$work/ids" >"$work/ids.$fmt" 2>&1
	grep -q -e 'sk-p' -e FAKE "$work/ids.$fmt" && fail "ids-$fmt" "a key's start: $(cat "$work/ids.$fmt")"
done

# Every field of every agent's stream as the carrier of a secret
# (tests/inject_secrets.py puts one, plain or spelled with \u escapes, in
# every string value): no way out shows one. Without a screen, each
# output, the list, --compare and --notify-cmd's environment (a pipe: read
# live); on the screen, the transcript, a call's detail and raw JSON, y on
# them, Y.
cat >"$work/notify-all" <<'EOF'
for v in EVENT SESSION AGENT STATE SUMMARY FILE; do
	eval "printf '%s\n' \"\$AGENTVIEW_$v\"" >>"$NOTES.env"
done
EOF
for b in demo all-tools claude-subagent claude-partial-edit gemini-edit gemini-subagent \
	codex-edit codex-subagent; do
	for mode in plain escaped; do
		c=$work/carrier/$b.$mode
		mkdir -p "$c/dir"
		python3 tests/inject_secrets.py "$mode" <"recordings/$b.ndjson" >"$c/dir/s.ndjson"
		"$bin" --print --format html "$c/dir/s.ndjson" >"$c/plain" 2>&1
		cases=$((cases + 1))
		grep -q FAKE "$c/plain" || fail "carrier-$b.$mode" "without --redact no secret shows"
		for fmt in text markdown json html; do
			"$bin" --print --format "$fmt" --redact "$c/dir/s.ndjson" >"$c/out" 2>&1
			left "carrier-$b.$mode-$fmt" "$c/out"
		done
		"$bin" --status-line --redact "$c/dir/s.ndjson" >"$c/out" 2>&1
		left "carrier-$b.$mode-status" "$c/out"
		for fmt in text markdown json; do
			"$bin" --print --format "$fmt" --redact "$c/dir" "$c/dir" >"$c/out" 2>&1
			left "carrier-$b.$mode-list-$fmt" "$c/out"
			"$bin" --compare --format "$fmt" --redact "$c/dir/s.ndjson" "$c/dir/s.ndjson" \
				>"$c/out" 2>&1
			left "carrier-$b.$mode-compare-$fmt" "$c/out"
		done
		NOTES=$c/notes
		cat "$c/dir/s.ndjson" | "$bin" --print --redact --notify-cmd ". $work/notify-all" \
			>/dev/null 2>&1
		if poll 5 test -s "$NOTES.env"; then
			sleep 0.2
			left "carrier-$b.$mode-notify" "$NOTES.env"
		else
			fail "carrier-$b.$mode-notify" "the command did not run"
		fi
	done
done
for b in demo claude-subagent gemini-edit codex-edit; do
	for mode in plain escaped; do
		s=$work/carrier/$b.$mode/dir/s.ndjson
		start 120 40 "$bin --redact $s"
		wait_for ' Transcript ' || fail "carrier-$b.$mode" "the session did not show"
		screen >"$work/scr"
		left "carrier-$b.$mode-transcript" "$work/scr"
		keys ']' Enter
		screen >"$work/scr"
		left "carrier-$b.$mode-detail" "$work/scr"
		keys y
		$T show-buffer >"$work/buffer" 2>&1
		left "carrier-$b.$mode-detail-y" "$work/buffer"
		keys r
		screen >"$work/scr"
		left "carrier-$b.$mode-raw" "$work/scr"
		keys j j j j j j j j j j y
		$T show-buffer >"$work/buffer" 2>&1
		left "carrier-$b.$mode-raw-y" "$work/buffer"
		keys q Y
		$T show-buffer >"$work/buffer" 2>&1
		left "carrier-$b.$mode-Y" "$work/buffer"
	done
done

echo "redact: $cases cases, $fails failures"
[ "$fails" -eq 0 ]
