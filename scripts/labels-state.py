#!/usr/bin/env python3
"""How far a label batch has got: per empties count, positions labelled of those in the
input, their nodes and one-thread hours, and the total.

Usage: labels-state.py INPUT.obf LABELS.csv

Positions are matched by board and side to move. Hours are the rows' own `time_s`, the
wall time of one thread on a machine that may have been shared: read them as cost, not speed.
"""
import csv
import sys
from collections import Counter, defaultdict


def obf_keys(path):
    with open(path) as f:
        for line in f:
            fields = line.split("%", 1)[0].split(";")[0].split()
            if len(fields) == 2:
                yield fields[0], fields[1]


def main():
    inp, labels = sys.argv[1], sys.argv[2]
    wanted = Counter()
    empties_of = {}
    for board, side in obf_keys(inp):
        n = board.count("-")
        empties_of[(board, side)] = n
        wanted[n] += 1
    done = defaultdict(lambda: [0, 0, 0.0])
    with open(labels, newline="") as f:
        for r in csv.DictReader(f):
            k = (r["board"], r["side"])
            if k not in empties_of or r["status"] != "solved":
                continue
            d = done[empties_of[k]]
            d[0] += 1
            d[1] += int(r["nodes"])
            d[2] += float(r["time_s"]) / 3600
    print("| empties | labelled | nodes | hours (one thread) |")
    print("|---|---|---|---|")
    tot = [0, 0, 0.0]
    for n in sorted(wanted):
        d = done[n]
        tot = [a + b for a, b in zip(tot, d)]
        print(f"| {n} | {d[0]} of {wanted[n]} | {d[1] / 1e9:.2f} G | {d[2]:.2f} |")
    print(f"| all | {tot[0]} of {sum(wanted.values())} | {tot[1] / 1e9:.2f} G | {tot[2]:.2f} |")


if __name__ == "__main__":
    main()
