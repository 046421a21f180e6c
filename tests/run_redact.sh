#!/bin/sh
# run_redact.sh: --redact on recordings/secrets.ndjson (every secret in it
# made up). Each print format and the HTML page byte for byte against
# tests/golden/redact/ (UPDATE_GOLDEN=1 rewrites them); none of the secrets
# left in any of them, while the same run without --redact shows them all;
# the usage errors; and in tmux, the viewer started with --redact, then R
# showing the secrets and R hiding them again, on the panes and in a
# call's detail, and y copying them only while they are shown.
set -u
top=$(pwd)
bin=$top/src/agentview
rec=recordings/secrets.ndjson
. "$top/tests/lib/tmux.sh"
tmux_test redact
printf 'set -g set-clipboard on\n' >>"$work/tmux.conf"

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

# --compare's scorecard, in its three formats, hides them too.
for fmt in text markdown json; do
	cases=$((cases + 1))
	"$bin" --compare --redact --format "$fmt" "$rec" recordings/demo.ndjson \
		>"$work/compare.$fmt"
	left=$(grep -F -o -f "$work/secrets" "$work/compare.$fmt" | sort -u | tr '\n' ' ')
	[ -z "$left" ] || fail "compare-$fmt" "secrets left: $left"
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

echo "redact: $cases cases, $fails failures"
[ "$fails" -eq 0 ]
