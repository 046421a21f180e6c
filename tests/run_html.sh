#!/bin/sh
# run_html.sh: the HTML page (--print --format html) of every file of
# recordings/ and ../shared/corpus/:
#   - agentview exits 0 or 3;
#   - tests/html_check.py: every element and attribute is one agentview
#     writes, with a value of its shape; no raw '<' or '>' between tags;
#     one <style> and one <script>, those the page's Content-Security-
#     Policy names by hash.
# Then the pages in a real browser, Chromium headless (--dump-dom, its
# console on stderr with --enable-logging=stderr --v=0):
#   - first, two pages made to fail show that a script error and a CSP
#     violation do reach that log (else the check below proves nothing);
#   - each page loads with no console message at all: no script error, no
#     CSP violation (style or script not the page's own), no fetch refused;
#   - its script ran: the fold buttons it makes are in the DOM;
#   - the DOM's text holds the prompt, a call's line, the summary;
#   - the DOM of the pages of hostile recordings holds only elements and
#     attributes agentview writes (html_check.py --dom);
#   - light and dark: the page's background in a screenshot with
#     --blink-settings=preferredColorScheme=1 and 0.
# Chromium is skipped, and that said, only when it cannot start at all;
# under CI (CI set) that fails instead. CHROMIUM names the browser.
# HTML_SHOTS=DIR keeps screenshots of the demo's page and of the Markdown
# reply's (light, dark) in DIR.
set -u
. ./tests/lib/env.sh
bin=${AGENTVIEW:-./src/agentview}
corpus=${CORPUS:-../shared/corpus}
tmp=${TMPDIR:-/tmp}/agentview-html.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
fails=0
pages=0
browsed=0

fail() {
	echo "FAIL $1: $2"
	fails=$((fails + 1))
}

# --- every page, parsed -----------------------------------------------------

files=$(ls recordings/*.ndjson recordings/*.txt 2>/dev/null)
[ -d "$corpus" ] && files="$files $(ls "$corpus"/*.ndjson 2>/dev/null)"
for f in $files; do
	name=$(basename "$f")
	pages=$((pages + 1))
	"$bin" --print --format html "$f" >"$tmp/$name.html" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
		fail "$name" "exited $rc: $(head -c 300 "$tmp/err")"
		continue
	fi
	out=$(python3 tests/html_check.py "$tmp/$name.html" 2>&1) || fail "$name" "$out"
done

# --- in Chromium ---------------------------------------------------------------

chromium=${CHROMIUM:-}
if [ -z "$chromium" ]; then
	for c in chromium chromium-browser; do
		command -v "$c" >/dev/null 2>&1 && chromium=$c && break
	done
fi

# browse FILE OUT LOG [FLAGS...]: Chromium loads FILE, doing what FLAGS
# say (--dump-dom: the DOM once the page's script ran, to OUT); its log
# (console messages) to LOG.
browse() {
	page=$1 dom=$2 log=$3
	shift 3
	browsed=$((browsed + 1))
	timeout 60 "$chromium" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$tmp/profile.$browsed" \
		--enable-logging=stderr --v=0 "$@" "file://$page" >"$dom" 2>"$log"
}

# console LOG: the page's console messages in LOG.
console() {
	grep -a 'CONSOLE' "$1"
}

# shot FILE PNG SCHEME: a screenshot of FILE, the browser preferring
# SCHEME (0 dark, 1 light).
shot() {
	browse "$1" "$tmp/shot.out" "$tmp/shot.log" --hide-scrollbars \
		--blink-settings=preferredColorScheme="$3" --window-size=1280,2000 \
		--screenshot="$2"
}

# corner PNG: the colour of the top left pixel, "r,g,b". Whatever the
# filter of the first row, its first pixel's bytes are the pixel.
corner() {
	python3 - "$1" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat, head = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IHDR":
        head = data[pos + 8:pos + 8 + n]
    elif kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
depth, colour = head[8], head[9]
assert depth == 8 and colour in (2, 6), "not 8-bit RGB(A)"
raw = zlib.decompressobj().decompress(idat, 8)
print("%d,%d,%d" % tuple(raw[1:4]))
EOF
}

# Whether the browser starts at all: a page it must change.
cat >"$tmp/start.html" <<'EOF'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>start</title></head>
<body><p id="x">before</p><script>document.getElementById("x").textContent = "after";</script></body></html>
EOF
started=no
if [ -n "$chromium" ]; then
	browse "$tmp/start.html" "$tmp/start.dom" "$tmp/start.log" --dump-dom
	grep -q '<p id="x">after</p>' "$tmp/start.dom" && started=yes
fi
if [ "$started" = no ]; then
	why="${chromium:-no chromium or chromium-browser in PATH}"
	[ -n "$chromium" ] && why="$chromium does not start: $(tail -n 3 "$tmp/start.log" | tr '\n' ' ' | head -c 400)"
	if [ -n "${CI:-}" ]; then
		fail chromium "$why (CI installs it: sh .ci/deps test)"
	else
		echo "html: SKIPPED the browser checks: $why"
	fi
else
	# The log does show a script's error, and a style and a script the
	# policy does not allow.
	cat >"$tmp/error.html" <<'EOF'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>error</title></head>
<body><script>notDefinedAnywhere();</script></body></html>
EOF
	cat >"$tmp/csp.html" <<'EOF'
<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-AAAA'">
<title>csp</title><style>p { color: red }</style></head>
<body><p>x</p><script>document.title = "ran";</script></body></html>
EOF
	browse "$tmp/error.html" "$tmp/error.dom" "$tmp/error.log" --dump-dom
	console "$tmp/error.log" | grep -q 'notDefinedAnywhere' ||
		fail chromium "a script error does not reach the log: this test cannot see one"
	browse "$tmp/csp.html" "$tmp/csp.dom" "$tmp/csp.log" --dump-dom
	[ "$(console "$tmp/csp.log" | grep -c 'Content Security Policy')" -ge 2 ] ||
		fail chromium "a CSP violation does not reach the log: this test cannot see one"

	# check NAME [--text STRING]...: the page of recordings/NAME.ndjson in
	# the browser: no console message, the script ran, the DOM is the
	# page's own, its text holds each STRING.
	check() {
		name=$1
		shift
		browse "$tmp/$name.ndjson.html" "$tmp/$name.dom" "$tmp/$name.log" --dump-dom
		if [ ! -s "$tmp/$name.dom" ]; then
			fail "$name" "Chromium gave no DOM: $(tail -n 3 "$tmp/$name.log")"
			return
		fi
		msgs=$(console "$tmp/$name.log")
		[ -z "$msgs" ] || fail "$name" "console messages: $(echo "$msgs" | head -c 600)"
		out=$(python3 tests/html_check.py "$tmp/$name.dom" --dom \
			--text "Unfold all" --text "Fold all" "$@" 2>&1) ||
			fail "$name" "in the browser: $out"
	}
	check demo \
		--text "The test \`formatDuration › carries rounded seconds into minutes\` fails on CI." \
		--text "✗ Shell \`npm test\` → exit 1 · 2.8 s" \
		--text "ok · 28.8 s · 9 tool calls: 8 ok, 1 failed · tokens 41.4k in, 1.2k out, 112.6k cache read" \
		--text "✓ Edit src/duration.js +2 −2" \
		--text "+  let rest = Math.round(ms / 1000) * 1000;"
	check markup \
		--text "Auto <img src=x onerror=\"alert(1)\"> · /home/u/<b>proj</b>" \
		--text "Explain <script>alert('prompt')</script> & fix \`Vec<T>\`." \
		--text "Here </details><svg onload=alert(2)> is the fix;" \
		--text "<script>kept as code</script>" \
		--text "! line 12: not JSON: <style>body{display:none}</style>"
	check escapes \
		--text "Show me what motd.txt prints ^[]0;PROMPT-TITLE^Gand explain" \
		--text "a right-to-left override: \\u202Egpj.exe"
	check multi-session --text "3 sessions: 3 ok" --text "✓ Await 518274 → exit 0"
	check all-tools
	check cursor-0915-askquestion --text "? question \"Which file to edit?\""
	check claude-subagent --text "SUBAGENT: run the shell command"
	# A reply's Markdown (issue 22 item 12), in each agent's stream: its
	# elements, its link out with no referrer, its code as code.
	for md in markdown markdown-claude markdown-gemini markdown-codex; do
		check "$md" --element h5 --element h6 --element ol --element ul --element li \
			--element blockquote --element table --element th --element td \
			--element strong --element em --element pre --element code \
			--href https://ci.example.com/run/42 \
			--text "Why the build fails" --text "parse_line(struct parser *p" \
			--text "What I changed" --text "412 lines" --text "Note:"
	done
	# Tracking images and links of every kind: never an image, a link only
	# to http, https or mailto.
	check md-links
	check gemini-edit
	check codex-shell-fail

	# Light and dark, as the browser prefers.
	shot "$tmp/demo.ndjson.html" "$tmp/light.png" 1
	shot "$tmp/demo.ndjson.html" "$tmp/dark.png" 0
	[ "$(corner "$tmp/light.png" 2>&1)" = "255,255,255" ] ||
		fail demo "light: the page's corner is $(corner "$tmp/light.png" 2>&1), not white"
	[ "$(corner "$tmp/dark.png" 2>&1)" = "13,17,23" ] ||
		fail demo "dark: the page's corner is $(corner "$tmp/dark.png" 2>&1), not #0d1117"
	if [ -n "${HTML_SHOTS:-}" ]; then
		mkdir -p "$HTML_SHOTS"
		cp "$tmp/light.png" "$HTML_SHOTS/demo-light.png"
		cp "$tmp/dark.png" "$HTML_SHOTS/demo-dark.png"
		shot "$tmp/markdown.ndjson.html" "$HTML_SHOTS/markdown-light.png" 1
		shot "$tmp/markdown.ndjson.html" "$HTML_SHOTS/markdown-dark.png" 0
	fi
fi

echo "html: $pages pages, $browsed loads in Chromium (started: $started), $fails failures"
[ "$fails" -eq 0 ]
