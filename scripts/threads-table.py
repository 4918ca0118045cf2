#!/usr/bin/env python3
"""Per-position speed-up and extra nodes of the thread-count variants in one suite CSV
(`finale suite ... --variant='--threads=1' --variant='--threads=2' ...`), against the
first variant, plus totals and whether every variant gave the same score and best moves.
Usage: scripts/threads-table.py RUN.csv [FIRST]   (FIRST: number of the first position,
e.g. 40 for FFO 40-59; default 1)"""
import csv
import sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
first = int(sys.argv[2]) if len(sys.argv) > 2 else 1
variants = list(dict.fromkeys(r["variant"] for r in rows))
by = defaultdict(dict)
for r in rows:
    by[(int(r["index"]), r["empties"])][r["variant"]] = r
base = variants[0]
print("| # | empties | " + " | ".join(
    f"{v} nodes | {v} time (s)" + ("" if v == base else f" | speed-up | extra nodes")
    for v in variants) + " |")
print("|" + "---|" * (2 + sum(2 if v == base else 4 for v in variants)))
tot = defaultdict(lambda: [0, 0.0])
same = True
for (i, e), vs in sorted(by.items()):
    cells = [str(i + first - 1), e]
    b = vs[base]
    for v in variants:
        r = vs[v]
        n, t = int(r["nodes"]), float(r["time_s"])
        tot[v][0] += n
        tot[v][1] += t
        cells += [f"{n:,}", f"{t:.2f}"]
        if v != base:
            cells += [f"{float(b['time_s']) / t:.2f}", f"{n / int(b['nodes']) - 1:+.1%}"]
        if (r["score"], sorted(r["best_moves"].split())) != (b["score"], sorted(b["best_moves"].split())):
            same = False
        if r["ok"] != "true":
            same = False
    print("| " + " | ".join(cells) + " |")
cells = ["all", ""]
for v in variants:
    n, t = tot[v]
    cells += [f"{n:,}", f"{t:.2f}"]
    if v != base:
        cells += [f"{tot[base][1] / t:.3f}", f"{n / tot[base][0] - 1:+.1%}"]
print("| " + " | ".join(cells) + " |")
print()
print("scores and best moves identical across variants and right:", same)
