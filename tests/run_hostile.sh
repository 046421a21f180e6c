#!/bin/sh
# run_hostile.sh: hostile input through every --print format, each case with
# the result the "Bad input" table of tests/README.md promises:
#   - agentview exits 0 or 3 (3: no result event), never crashes or hangs;
#   - text, Markdown and HTML hold no byte a terminal acts on (no C0 but
#     LF, no DEL, no C1) and are valid UTF-8; escape sequences are shown
#     escaped; the page (when under 16 MB) passes tests/html_check.py;
#   - the JSON summary is valid JSON, its strings escape every control;
#   - raw gives the input back byte for byte;
#   - peak RSS (from /usr/bin/time) stays under a bound per case.
# Big inputs are generated under ${TMPDIR:-/tmp} and removed at exit.
# Prints one row per case: name, exit status, peak RSS, what was shown.
set -u
. ./tests/lib/env.sh
bin=${AGENTVIEW:-./src/agentview}
tmp=${TMPDIR:-/tmp}/agentview-hostile.$$
# Recording is on by default (issue 15); lines of 100 MB piped in would be
# kept for nothing and double the disk this test takes: keep nothing.
AGENTVIEW_RECORD=0
export AGENTVIEW_RECORD
mkdir -p "$tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fails=0
cases=0
LC_ALL=C
export LC_ALL

fail() {
	line "FAIL $1: $2"
	fails=$((fails + 1))
}

# Control bytes: C0 but LF, DEL, and C1 as UTF-8 (C2 80..C2 9F).
c0=$(printf '[\001-\011\013-\037\177]')
c1=$(printf '\302[\200-\237]')

# run FORMAT FILE [stdin]: agentview --print on FILE (or FILE through a
# pipe on stdin, read as a stream); output in $tmp/out, exit status in $rc,
# peak RSS in MB in $mb.
run() {
	if [ "${3:-}" = stdin ]; then
		cat "$2" | /usr/bin/time -f %M -o "$tmp/rss" timeout 120 "$bin" \
			--print --format "$1" >"$tmp/out" 2>"$tmp/err"
	else
		/usr/bin/time -f %M -o "$tmp/rss" timeout 120 "$bin" --print \
			--format "$1" "$2" >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
	mb=$(($(tail -n 1 "$tmp/rss") / 1024))
}

# check NAME FORMAT FILE MAXMB [stdin]: one run, and the checks every
# case gets; $peak keeps the largest RSS of the case. Raw must give back
# $want (the input, but for agentview's own recording lines).
check() {
	run "$2" "$3" "${5:-}"
	[ "$mb" -gt "$peak" ] && peak=$mb
	case $rc in
	0 | 3) ;;
	*) fail "$1" "--format $2 exited $rc: $(head -c 300 "$tmp/err")" ;;
	esac
	[ "$mb" -le "$4" ] || fail "$1" "--format $2 peaked at $mb MB (bound $4 MB)"
	case $2 in
	text | markdown | html)
		if grep -q "$c0" "$tmp/out" || grep -q "$c1" "$tmp/out"; then
			fail "$1" "--format $2 holds terminal control bytes"
		fi
		iconv -f UTF-8 -t UTF-8 "$tmp/out" >/dev/null 2>&1 ||
			fail "$1" "--format $2 is not valid UTF-8"
		if [ "$2" = html ] && [ "$(wc -c <"$tmp/out")" -lt 16000000 ]; then
			why=$(python3 tests/html_check.py "$tmp/out" 2>&1) ||
				fail "$1" "the page: $(echo "$why" | head -c 300)"
		fi
		;;
	json)
		# One line of JSON: no raw control byte but the final LF.
		if [ "$(wc -l <"$tmp/out")" -ne 1 ] || grep -q "$c0" "$tmp/out" ||
			grep -q "$c1" "$tmp/out"; then
			fail "$1" "--format json holds raw control bytes"
		fi
		if [ "$(wc -c <"$tmp/out")" -lt 50000000 ]; then
			jq -e . "$tmp/out" >/dev/null 2>&1 || fail "$1" "--format json is not valid JSON"
		fi
		;;
	raw)
		cmp -s "$want" "$tmp/out" || fail "$1" "--format raw differs from the input"
		;;
	esac
}

# all NAME FILE MAXMB [RAW]: the five formats (raw must give back RAW,
# default FILE); ends with the text output in $tmp/text, the Markdown in
# $tmp/md, the page in $tmp/html and the summary in $tmp/json.
all() {
	peak=0
	want=${4:-$2}
	cases=$((cases + 1))
	check "$1" raw "$2" "$3"
	check "$1" json "$2" "$3"
	mv "$tmp/out" "$tmp/json"
	check "$1" markdown "$2" "$3"
	mv "$tmp/out" "$tmp/md"
	check "$1" html "$2" "$3"
	mv "$tmp/out" "$tmp/html"
	check "$1" text "$2" "$3"
	cp "$tmp/out" "$tmp/text"
}

# has NAME FILE STRING: the output FILE shows STRING.
has() {
	grep -qF -- "$3" "$2" || fail "$1" "$(basename "$2") does not show: $3"
}

# mdhas NAME STRING...: the Markdown, as GitHub renders it, shows each
# STRING, and nothing of the recording's making is markup in it
# (tests/md_check.py).
mdhas() {
	n=$1
	shift
	for s in "$@"; do
		why=$(python3 tests/md_check.py "$tmp/md" --text "$s" 2>&1) ||
			fail "$n" "the Markdown: $(echo "$why" | head -c 300)"
	done
}

# jqis NAME FILTER VALUE: the summary's FILTER gives VALUE.
jqis() {
	got=$(jq -c "$2" "$tmp/json" 2>&1)
	[ "$got" = "$3" ] || fail "$1" "summary $2 is $got, not $3"
}

# row NAME SHOWN: one line of the results table.
row() {
	printf '%-28s exit %-2s %5s MB  %s\n' "$1" "$rc" "$peak" "$2"
}

init='{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/w"}'

# line TEXT: TEXT and a newline (echo would read its backslashes).
line() {
	printf '%s\n' "$*"
}

# --- size ---------------------------------------------------------------------

# A line of 100 MB: an assistant text, read whole (from the file and
# through a pipe), and the same bytes as a line that is not JSON.
f=$tmp/line100
{
	printf '{"type":"assistant","message":{"content":[{"type":"text","text":"'
	head -c 104857600 /dev/zero | tr '\0' x
	printf '"}]}}\n'
} >"$f"
all line-100MB "$f" 450
[ "$(grep -c '^x\{1000\}' "$tmp/text")" -eq 1 ] && [ "$(wc -c <"$tmp/text")" -gt 104857600 ] ||
	fail line-100MB "the text is not shown whole"
jqis line-100MB '.sessions[0].assistant_text | length' 104857600
check line-100MB text "$f" 450 stdin
# (Read live, the session gets a duration: compare the reply only.)
head -n 1 "$tmp/out" >"$tmp/a"
head -n 1 "$tmp/text" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail line-100MB "stdin and file give different text"
rm -f "$tmp/a" "$tmp/b"
row line-100MB "read whole: the 100 MB reply in every format, file or pipe"
rm -f "$f"

f=$tmp/notjson100
{
	head -c 104857600 /dev/zero | tr '\0' y
	echo
} >"$f"
# The diagnostic shows the line's first 200 bytes, in every format, and
# costs no copy of it: the peak is the file's pages, mapped (and through a
# pipe, the line read).
all line-100MB-not-JSON "$f" 120
y200=$(head -c 200 /dev/zero | tr '\0' y)
has line-100MB-not-JSON "$tmp/text" "  ! line 1: not JSON: $y200 … 104857400 bytes more"
has line-100MB-not-JSON "$tmp/md" "line 1: not JSON: \`$y200\` … 104857400 bytes more"
has line-100MB-not-JSON "$tmp/html" "! line 1: not JSON: $y200 … 104857400 bytes more<"
for o in text md html; do
	[ "$(wc -c <"$tmp/$o")" -lt 20000 ] || fail line-100MB-not-JSON "the $o output is $(wc -c <"$tmp/$o") bytes"
done
jqis line-100MB-not-JSON '.diagnostics' "[{\"line\":1,\"message\":\"not JSON\",\"excerpt\":\"$y200\",\"bytes\":104857600}]"
check line-100MB-not-JSON text "$f" 120 stdin
has line-100MB-not-JSON "$tmp/out" "  ! line 1: not JSON: $y200 … 104857400 bytes more"
row line-100MB-not-JSON "a diagnostic of its first 200 bytes, the rest counted"
rm -f "$f"

# A million tokens in one line: read whole; five million: a diagnostic.
f=$tmp/tok1m
awk 'BEGIN { printf "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"tokens ok\"}]},\"pad\":[1";
	for (i = 1; i < 1000000; i++) printf ",1"; print "]}" }' >"$f"
all tokens-1M "$f" 150
has tokens-1M "$tmp/text" "tokens ok"
jqis tokens-1M '.diagnostics | length' 0
row tokens-1M "read whole"
awk 'BEGIN { printf "{\"pad\":[1"; for (i = 1; i < 5000000; i++) printf ",1"; print "]}" }' >"$f"
all tokens-5M "$f" 300
has tokens-5M "$tmp/text" "  ! line 1: too many JSON tokens: {\"pad\":[1,1,1"
row tokens-5M "diagnostic: too many JSON tokens (limit 4M)"

# Nesting 100k deep.
awk 'BEGIN { printf "{\"a\":"; for (i = 0; i < 100000; i++) printf "[";
	for (i = 0; i < 100000; i++) printf "]"; print "}" }' >"$f"
all nesting-100k "$f" 50
has nesting-100k "$tmp/text" "  ! line 1: nested too deeply: {\"a\":[[[["
jqis nesting-100k '.diagnostics[0].message' '"nested too deeply"'
row nesting-100k "diagnostic: nested too deeply (limit 512)"

# A file of 10^6 calls started and never completed.
f=$tmp/calls
awk -v init="$init" 'BEGIN { print init; for (i = 0; i < 1000000; i++)
	printf "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c%d\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"sleep %d\"}}},\"timestamp_ms\":%d}\n", i, i, 1000 + i }' >"$f"
all calls-1M-open "$f" 350
has calls-1M-open "$tmp/text" "  ? Shell \`sleep 999999\` → no completed event"
has calls-1M-open "$tmp/text" "== incomplete (no result) · 16m39s · 1000000 tool calls: 1000000 orphaned"
[ "$(grep -o '"state":"orphaned"' "$tmp/json" | wc -l)" -eq 1000000 ] ||
	fail calls-1M-open "the summary does not list 10^6 orphaned calls"
check calls-1M-open text "$f" 450 stdin
row calls-1M-open "every call listed orphaned (?), session incomplete"
rm -f "$f"

# 10^5 sessions.
f=$tmp/sessions
awk 'BEGIN { for (i = 0; i < 100000; i++) {
	printf "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s%d\",\"model\":\"m\"}\n", i
	printf "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"duration_ms\":%d,\"result\":\"r\",\"session_id\":\"s%d\"}\n", i, i } }' >"$f"
all sessions-100k "$f" 150
has sessions-100k "$tmp/text" "== 100000 sessions: 100000 ok"
jqis sessions-100k '.sessions | length' 100000
row sessions-100k "each session with its result, then the totals"

# --- call ids and numbers ---------------------------------------------------

f=$tmp/ids
{
	line "$init"
	line '{"type":"tool_call","subtype":"started","call_id":"dup","tool_call":{"readToolCall":{"args":{"path":"first"}}}}'
	line '{"type":"tool_call","subtype":"started","call_id":"dup","tool_call":{"readToolCall":{"args":{"path":"second"}}}}'
	line '{"type":"tool_call","subtype":"completed","call_id":"dup","tool_call":{"readToolCall":{"result":{"success":{"totalLines":3}}}}}'
	line '{"type":"tool_call","subtype":"started","call_id":"","tool_call":{"readToolCall":{"args":{"path":"empty"}}}}'
	line '{"type":"tool_call","subtype":"completed","call_id":"","tool_call":{"readToolCall":{"result":{"success":{"totalLines":1}}}}}'
	line '{"type":"tool_call","subtype":"completed","call_id":"never","tool_call":{"readToolCall":{"args":{"path":"lone"},"result":{"success":{"totalLines":2}}}}}'
	line '{"type":"tool_call","subtype":"started","call_id":"nl\nfc","tool_call":{"readToolCall":{"args":{"path":"newline"}}}}'
	line '{"type":"tool_call","subtype":"completed","call_id":"nl\nfc","tool_call":{"readToolCall":{"result":{"success":{"totalLines":4}}}}}'
} >"$f"
all call-ids "$f" 50
jqis call-ids '[.sessions[0].tool_calls[] | [.call_id, .summary, .state, .started]]' \
	'[["dup","first","orphaned",true],["dup","second","ok",true],["","empty","ok",true],["never","lone","ok",false],["nl\nfc","newline","ok",true]]'
has call-ids "$tmp/text" "  ✓ Read second · 3 lines"
has call-ids "$tmp/text" "  ? Read first · no completed event"
row call-ids "opaque keys: the latest duplicate pairs, the other is orphaned"

f=$tmp/numbers
{
	line "$init"
	for ts in 1e400 -5 18446744073709551616 '"abc"' 1.5 '"-1"' 9223372036854775808; do
		line "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"t$ts\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"c\"},\"startedAtMs\":$ts}},\"timestamp_ms\":$ts}"
		line "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"t$ts\",\"tool_call\":{\"shellToolCall\":{\"result\":{\"success\":{\"exitCode\":$ts}}},\"completedAtMs\":$ts},\"timestamp_ms\":$ts}"
	done
	line '{"type":"result","subtype":"success","is_error":false,"duration_ms":1e400,"result":"","usage":{"inputTokens":1e400,"outputTokens":-5}}'
} | sed 's/"call_id":"t"\([^"]*\)""/"call_id":"t\1"/' >"$f"
all numbers-out-of-range "$f" 50
jqis numbers-out-of-range '[.sessions[0].tool_calls[] | [.start_ms, .end_ms, .duration_ms, .state]] | unique' '[[null,null,null,"ok"]]'
jqis numbers-out-of-range '.sessions[0].duration_ms' null
has numbers-out-of-range "$tmp/text" "  ✓ Shell \`c\` → ok"
has numbers-out-of-range "$tmp/text" "== ok · 7 tool calls: 7 ok"
row numbers-out-of-range "treated as absent: no time, no duration, no exit code"

# --- bytes ---------------------------------------------------------------------

# Invalid UTF-8 of every class, raw inside a JSON string and in a line that
# is not JSON: one U+FFFD per maximal invalid subpart (Unicode 3.9).
f=$tmp/utf8
{
	line "$init"
	for bytes in '\200' '\277' '\302' '\340\240' '\360\220\200' '\300\200' '\301\277' \
		'\340\200\200' '\340\237\277' '\360\200\200\200' '\360\217\277\277' \
		'\355\240\200' '\355\277\277' '\364\220\200\200' '\365\200\200\200' \
		'\370\210\200\200\200' '\374\204\200\200\200\200' '\376' '\377' '\300\233'; do
		printf '{"type":"assistant","message":{"content":[{"type":"text","text":"<'"$bytes"'>"}]}}\n'
	done
	printf 'not json <\300\200\355\240\200\377>\n'
} >"$f"
all invalid-utf8 "$f" 50
r='�'
has invalid-utf8 "$tmp/text" "<$r><$r><$r><$r><$r><$r$r><$r$r><$r$r$r><$r$r$r><$r$r$r$r><$r$r$r$r><$r$r$r><$r$r$r><$r$r$r$r><$r$r$r$r><$r$r$r$r$r><$r$r$r$r$r$r><$r><$r><$r$r>"
has invalid-utf8 "$tmp/text" "  ! line 22: not JSON: not json <$r$r$r$r$r$r>"
jqis invalid-utf8 '.sessions[0].assistant_text | test("\u001b") | not' true
row invalid-utf8 "U+FFFD per maximal invalid subpart; overlong ESC stays U+FFFD"

# NUL bytes, a lone CR, CRLF, a BOM, \u0000 in strings.
f=$tmp/bytes
{
	printf '\357\273\277%s\r\n' "$init"
	printf '{"type":"assistant","message":{"content":[{"type":"text","text":"nul\\u0000esc cr\\ralone"}]}}\r\n'
	printf '{"type":"user","message":{"content":[{"type":"text","text":"raw \000 nul"}]}}\n'
	printf 'not json \000 with a NUL and a lone \r CR\n'
	printf '{"type":"assistant","message":{"content":[{"type":"text","text":"last, no newline"}]}}'
} >"$f"
all nul-cr-bom "$f" 50
has nul-cr-bom "$tmp/text" "== session s1 · m · /w"
has nul-cr-bom "$tmp/text" "nul^@esc cr^Malone"
has nul-cr-bom "$tmp/text" "  ! line 3: NUL byte at byte 65: {\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"raw ^@ nul\"}]}}"
has nul-cr-bom "$tmp/text" "  ! line 4: NUL byte at byte 10: not json ^@ with a NUL and a lone ^M CR"
has nul-cr-bom "$tmp/text" "last, no newline"
jqis nul-cr-bom '[.diagnostics[].line]' '[3,4]'
jqis nul-cr-bom '.sessions[0].assistant_text' '"nul\u0000esc cr\ralone\n\nlast, no newline"'
row nul-cr-bom "BOM and CRLF accepted; NUL as ^@ (raw NUL: a diagnostic); lone CR as ^M"

# A JSON document indented across lines (Gemini CLI's older session-*.json),
# not JSON Lines: one diagnostic, not one a line.
f=$tmp/document
{
	line '{'
	line '  "sessionId": "g-1",'
	line '  "messages": ['
	line '    {"id": "u1", "type": "user", "content": "\u001b]0;title\u0007"}'
	line '  ]'
	line '}'
} >"$f"
all json-document "$f" 50
has json-document "$tmp/text" "  ! line 1: a JSON document across lines, not one JSON object a line: the lines after it are not read: {"
jqis json-document '[.diagnostics[].line]' '[1]'
row json-document "one diagnostic for a JSON document across lines; its other lines not read"

# Every C0 and C1 control, and DEL, as escapes in a string.
f=$tmp/controls
{
	line "$init"
	printf '{"type":"assistant","message":{"content":[{"type":"text","text":"C0['
	for i in $(seq 0 31) 127; do
		[ "$i" -eq 10 ] || [ "$i" -eq 9 ] || printf '\\u%04x' "$i"
	done
	printf '] C1['
	for i in $(seq 128 159); do printf '\\u%04x' "$i"; done
	printf ']"}]}}\n'
	printf '{"type":"assistant","message":{"content":[{"type":"text","text":" raw C1[\302\233\302\235\302\220]"}]}}\n'
} >"$f"
all controls-C0-C1 "$f" 50
has controls-C0-C1 "$tmp/text" 'C0[^@^A^B^C^D^E^F^G^H^K^L^M^N^O^P^Q^R^S^T^U^V^W^X^Y^Z^[^\^]^^^_^?]'
has controls-C0-C1 "$tmp/text" 'C1[\u0080\u0081\u0082\u0083\u0084\u0085\u0086\u0087\u0088\u0089\u008A\u008B\u008C\u008D\u008E\u008F\u0090\u0091\u0092\u0093\u0094\u0095\u0096\u0097\u0098\u0099\u009A\u009B\u009C\u009D\u009E\u009F]'
has controls-C0-C1 "$tmp/text" 'raw C1[\u009B\u009D\u0090]'
row controls-C0-C1 "C0 in caret notation (^[), C1 as \\u0080..\\u009F"

# Escape sequences in every string field that reaches the output: CSI, OSC
# 0 and 2 (title), 52 (clipboard), 8 (hyperlink), DCS, bare ESC (ESC c
# resets a terminal), C1 CSI/OSC/DCS, BEL, DEL, NUL, a bidi override.
# As JSON escapes in string fields; as raw bytes in the lines that are not
# JSON and, since jsmn lets raw control bytes through, in one prompt.
e='\u001b]0;pwned\u0007\u001b]2;pwned\u001b\\\u001b]52;c;cHduZWQ=\u0007\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\\u001bP+q544e\u001b\\\u001b[2J\u001b[31m\u001bc\u009b31m\u009d0;pwned\u009c\u0090q\u009c\u0007\u007f\u0000\u202e'
shown='^[]0;pwned^G^[]2;pwned^[\^[]52;c;cHduZWQ=^G^[]8;;http://x^[\link^[]8;;^[\^[P+q544e^[\^[[2J^[[31m^[c\u009B31m\u009D0;pwned\u009C\u0090q\u009C^G^?^@\u202E'
raw=$(printf '\033]0;pwned\007\033]52;c;cHduZWQ=\007\033[2J\033c\302\233\061m')
rawshown='^[]0;pwned^G^[]52;c;cHduZWQ=^G^[[2J^[c\u009B1m'
f=$tmp/escapes
{
	line "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"S$e\",\"model\":\"Model$e\",\"cwd\":\"Cwd$e\",\"permissionMode\":\"Perm$e\"}"
	line "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"Prompt$e\"}]}}"
	printf '{"type":"user","message":{"content":[{"type":"text","text":"RawPrompt%s"}]}}\n' "$raw"
	line "{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"Thinking$e\",\"timestamp_ms\":1}"
	line '{"type":"thinking","subtype":"completed","timestamp_ms":2}'
	line "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"Assistant$e\"}]}}"
	for k in "shellToolCall command Command$e failure exitCode 1" \
		"readToolCall path Path$e error errorMessage ErrorMessage$e" \
		"grepToolCall pattern Pattern$e success totalMatchedLines 0" \
		"shellToolCall command Shell2 rejected reason Reason$e" \
		"frob${e}ToolCall thing Unknown$e success x 1"; do
		set -f
		set -- $k
		set +f
		line "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"Id$e$3\",\"tool_call\":{\"$1\":{\"args\":{\"$2\":\"$3\"}}}}"
		line "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"Id$e$3\",\"tool_call\":{\"$1\":{\"result\":{\"$4\":{\"$5\":\"$6\"}}}}}"
	done
	line "{\"type\":\"system\",\"subtype\":\"task_notification\",\"task_id\":\"t\",\"title\":\"Title$e\",\"status\":\"Status$e\"}"
	line "{\"type\":\"Type$e\",\"subtype\":\"Sub$e\"}"
	printf 'NotJSON%s\n' "$raw"
	line "{\"type\":\"agentview\",\"subtype\":\"stderr\",\"agentview_ms\":5,\"text\":\"Stderr$e\"}"
	line '{"type":"agentview","subtype":"exit","agentview_ms":6,"exit_status":0,"signal":null}'
	line "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"Result$e\",\"session_id\":\"S$e\",\"request_id\":\"Req$e\"}"
} >"$f"
grep -v '^{"type":"agentview"' "$f" >"$f.raw"
all escapes-every-field "$f" 50 "$f.raw"
for field in Model Cwd Prompt Assistant Command Path ErrorMessage Pattern Reason Unknown Title Status Type Sub Stderr; do
	has escapes-every-field "$tmp/text" "$field$shown"
	mdhas escapes-every-field "$field$shown"
	[ "$field" = Assistant ] && continue
	has escapes-every-field "$tmp/html" "$field$shown"
done
# On the page a reply is its Markdown, read once it is sanitized: a
# backslash before punctuation escapes it (ESC \ ESC shows as ^[^[).
has escapes-every-field "$tmp/html" "Assistant$(printf "%s\n" "$shown" | sed 's/\\^/^/g')"
mdhas escapes-every-field "Thinking$shown"
has escapes-every-field "$tmp/html" "Thinking$shown"
has escapes-every-field "$tmp/html" "NotJSON$rawshown"
has escapes-every-field "$tmp/text" "== session S^[]0;pwn"
has escapes-every-field "$tmp/text" "RawPrompt$rawshown"
mdhas escapes-every-field "RawPrompt$rawshown"
has escapes-every-field "$tmp/text" "NotJSON$rawshown"
mdhas escapes-every-field "NotJSON$rawshown"
has escapes-every-field "$tmp/text" "~ Type$shown/Sub$shown: {\"type\":\"Type"
for k in session_id model cwd permission_mode request_id; do
	jqis escapes-every-field ".sessions[0].$k | test(\"pwned\\u0007\")" true
done
jqis escapes-every-field '[.sessions[0].tool_calls[].call_id | test("^Id\u001b]0;pwned")] | all' true
jqis escapes-every-field '.command.stderr[0] | test("^Stderr\u001b")' true
row escapes-every-field "shown escaped (^[ ^G \\u009B) in every field and on the page; JSON escapes them"

# --- bidirectional controls in JSON -------------------------------------------

# A file named with U+202E (and a session id and model holding every bidi
# control): the JSON outputs escape them (\u202e), never carry them raw.
cases=$((cases + 1))
d=$tmp/bidi
mkdir -p "$d"
bidi=$(printf '\330\234\342\200\216\342\200\217\342\200\252\342\200\253\342\200\254\342\200\255\342\200\256\342\201\246\342\201\247\342\201\250\342\201\251')
f="$d/run-$(printf '\342\200\256')lmth.ndjson"
line "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s$bidi\",\"model\":\"m$bidi\",\"cwd\":\"/w\"}" >"$f"
line '{"type":"result","subtype":"success","is_error":false,"duration_ms":5,"result":"ok"}' >>"$f"
raw=$(printf '\330\234\|\342\200[\216\217\252-\256]\|\342\201[\246-\251]')
"$bin" --print --format json "$d" >"$tmp/out" 2>/dev/null
"$bin" --print --format json "$f" >>"$tmp/out" 2>/dev/null
"$bin" --compare --format json "$f" "$f" >>"$tmp/out" 2>/dev/null
rc=$?
LC_ALL=C grep -q "$raw" "$tmp/out" && fail bidi-json "a bidi control is raw in the JSON: $(LC_ALL=C grep -o "$raw" "$tmp/out" | head -3 | od -c | head -2)"
has bidi-json "$tmp/out" 'run-\u202elmth.ndjson'
has bidi-json "$tmp/out" 'm\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069'
peak=0
row bidi-json "U+061C, U+200E/F, U+202A-E, U+2066-9 escaped in every JSON output"

# --- the tmux status line -------------------------------------------------------

# A stream's "#[...]" and "#(...)" must not restyle tmux's bar or run in it:
# inside tmux ($TMUX set) every '#' of event text is doubled, with or
# without --tmux-style; outside, a plain --status-line leaves it alone.
cases=$((cases + 1))
# A fresh copy: the session is live (its running call shown) while its
# file was written in the last two minutes.
f=$tmp/tmux-hash.ndjson
cp recordings/tmux-hash.ndjson "$f"
rc=0
# single FILE: a '#' of the stream's not doubled (one not after another).
single() {
	grep -q '\(^\|[^#]\)\(##\)*#[[(]' "$1"
}
TMUX=/tmp/tmux-0/default,1,0 "$bin" --status-line "$f" >"$tmp/out" 2>/dev/null
has tmux-hash "$tmp/out" "M##[fg=red,bg=blue]##(tou"
has tmux-hash "$tmp/out" 'Shell `echo ##(touch'
single "$tmp/out" && fail tmux-hash "inside tmux, a # of the stream is not doubled: $(cat "$tmp/out")"
TMUX=/tmp/tmux-0/default,1,0 "$bin" --status-line --tmux-style "$f" >"$tmp/out" 2>/dev/null
has tmux-hash "$tmp/out" "#[fg=yellow]"
has tmux-hash "$tmp/out" 'Shell `echo ##(touch'
env -u TMUX "$bin" --status-line --tmux-style "$f" >"$tmp/out" 2>/dev/null
has tmux-hash "$tmp/out" 'Shell `echo ##(touch'
env -u TMUX "$bin" --status-line "$f" >"$tmp/out" 2>/dev/null
has tmux-hash "$tmp/out" 'Shell `echo #(touch'
peak=0
row tmux-hash "every # of the stream doubled inside tmux (\$TMUX), with or without --tmux-style"

echo "hostile: $cases cases, $fails failures"
[ "$fails" -eq 0 ]
