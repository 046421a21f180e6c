#!/usr/bin/env python3
"""inject_secrets.py plain|escaped < STREAM > STREAM: every string value of
a stream's JSON lines carries made-up secrets after what it held, so that
any field an agent writes (a prompt, a reply, a command, an output, a
path, an id, a model, an error) carries one into whatever shows it.

  plain    " PASSWORD=FAKEpw<tag> sk-proj-FAKE<tag>Fake1111Fake2222"
  escaped  the same key and a name spelled with JSON's \\u escapes:
           " \\u0073k-proj-FAKE<tag>... pass\\u0077ord=FAKEpw<tag>"

<tag> is made from the value, so that a value written twice (an id that
pairs a call with its end) is still written the same. The values that
say what a line is (type, subtype, role, a tool's name, a status) are
left alone; lines that are no JSON pass as they are. Every secret holds
FAKE: `grep FAKE` on an output finds any left."""

import hashlib
import json
import re
import sys

# Fields whose value says what a line or an item is: changed, the line
# would no longer read as what it is, and nothing would show.
KEEP = {"type", "subtype", "role", "name", "status", "tool_name", "kind", "stop_reason",
        "apiKeySource", "permissionMode", "query_type", "item_type"}
MARK = "\x00SECRET"


def tag(value):
    return hashlib.sha1(value.encode()).hexdigest()[:6]


def carry(node, mode, key=None):
    if isinstance(node, dict):
        return {k: carry(v, mode, k) for k, v in node.items()}
    if isinstance(node, list):
        return [carry(v, mode, key) for v in node]
    if isinstance(node, str) and key not in KEEP:
        t = tag(node)
        if mode == "plain":
            return f"{node} PASSWORD=FAKEpw{t} sk-proj-FAKE{t}Fake1111Fake2222"
        return f"{node} {MARK}{t}\x00"
    return node


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "plain"
    # json.dumps writes the marker's NULs as \u0000: put the escapes there.
    escaped = re.compile(r"\\u0000SECRET([0-9a-f]{6})\\u0000")
    for line in sys.stdin:
        line = line.rstrip("\n")
        try:
            node = json.loads(line)
        except ValueError:
            print(line)
            continue
        out = json.dumps(carry(node, mode), ensure_ascii=False, separators=(",", ":"))
        out = escaped.sub(lambda m: f"\\u0073k-proj-FAKE{m.group(1)}Fake1111Fake2222 "
                                    f"pass\\u0077ord=FAKEpw{m.group(1)}", out)
        print(out)


if __name__ == "__main__":
    main()
