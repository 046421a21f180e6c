#!/bin/sh
# fake_agent.sh: a stand-in for cursor-agent in tests of `agentview --
# COMMAND`. Options, then an optional FILE whose lines it prints on stdout:
#   -d SEC   pause SEC seconds before each line of FILE (without -d, FILE is
#            copied byte for byte)
#   -b LINE  write LINE on stderr before FILE (repeatable)
#   -e LINE  write LINE on stderr after FILE (repeatable)
#   -i       read one line of stdin and write "stdin: LINE" (or "stdin: EOF")
#            on stderr, first
#   -g       leave a grandchild in its process group that ignores SIGTERM
#            and keeps stdout open (600 s)
#   -s SEC   sleep SEC seconds at the end
#   -x CODE  exit with CODE (default 0)
#   -k SIG   at the end, kill itself with signal SIG instead of exiting
#   -m MARK  a marker to find its processes with ps (the grandchild's name
#            is fake-agent-grandchild-MARK)
set -u
delay=
before=
after=
nl='
'
read_stdin=no
grandchild=no
pause=
mark=
code=0
sig=
while getopts d:b:e:igs:x:k:m: opt; do
	case $opt in
	d) delay=$OPTARG ;;
	b) before="$before$OPTARG$nl" ;;
	e) after="$after$OPTARG$nl" ;;
	i) read_stdin=yes ;;
	g) grandchild=yes ;;
	s) pause=$OPTARG ;;
	x) code=$OPTARG ;;
	k) sig=$OPTARG ;;
	m) mark=$OPTARG ;;
	*) echo "fake_agent.sh: bad option" >&2; exit 64 ;;
	esac
done
shift $((OPTIND - 1))
file=${1:-}

if [ "$read_stdin" = yes ]; then
	if IFS= read -r line; then
		echo "stdin: $line" >&2
	else
		echo "stdin: EOF" >&2
	fi
fi
if [ "$grandchild" = yes ]; then
	sh -c 'trap "" TERM; sleep 600' "fake-agent-grandchild-$mark" &
fi
printf '%s' "$before" >&2
if [ -n "$file" ]; then
	if [ -z "$delay" ]; then
		cat "$file"
	else
		while IFS= read -r line || [ -n "$line" ]; do
			sleep "$delay"
			printf '%s\n' "$line"
		done <"$file"
	fi
fi
printf '%s' "$after" >&2
[ -n "$pause" ] && sleep "$pause"
if [ -n "$sig" ]; then
	kill -s "$sig" $$
	sleep 5 # a signal it ignores: do not exit 0 by accident
	exit 99
fi
exit "$code"
