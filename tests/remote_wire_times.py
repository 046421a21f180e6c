#!/usr/bin/env python3
"""remote_wire_times.py WIRE: whether the frames a remote program sent
(remote.h) say each file's time (S) before its bytes: in each round, a
file's S before its first F; a batch's files' S before its heads (B) or
their whole bytes (W); no file's bytes before any S of it. Prints what is
not so; exits 1 then."""
import sys

data = open(sys.argv[1], "rb").read()
pos, bad = 0, []
timed = set()  # files whose time was ever said
rnd_s, rnd_f = set(), set()  # this round's S, and files with F before S
batch = []
while pos < len(data):
    end = data.find(b"\n", pos)
    if end < 0:
        break
    head = data[pos:end].decode("ascii", "replace").split()
    pos = end + 1
    kind, args = head[0], head[1:]
    if kind == "F":
        pos += int(args[2]) + 1
        i = args[0]
        if i not in timed:
            bad.append("bytes of file %s before any time of it" % i)
        rnd_f.add(i)
    elif kind == "S":
        i = args[0]
        if i in rnd_f:
            bad.append("file %s: its time after its bytes in a round" % i)
        timed.add(i)
        rnd_s.add(i)
    elif kind == "A":
        batch.append(args[0])
    elif kind in ("B", "W"):
        pos += int(args[0]) + 1
        for i in batch:
            if i not in rnd_s:
                bad.append("batch file %s: its time not before the batch's heads" % i)
            timed.add(i)
        batch = []
    elif kind in ("D", "L", "E", "C"):
        pos += int(args[0]) + 1
    elif kind == "K":
        rnd_s, rnd_f = set(), set()
if not timed:
    bad.append("no time said at all")
for b in bad[:5]:
    print(b)
sys.exit(1 if bad else 0)
