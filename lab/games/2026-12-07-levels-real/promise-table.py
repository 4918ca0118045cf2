#!/usr/bin/env python3
"""The README's promise table: per level, over calibrate CSVs of one kind (generated or
real held-out positions), the lowest band's best-move and exact-score shares up to a
checked maximum of empties, and nodes / exact over all rows.

    promise-table.py MAX KIND=A.csv,B.csv [KIND=C.csv ...]
"""
import csv, sys
from collections import defaultdict

BANDS = [(0, 13), (14, 19), (20, 24), (25, 29), (30, 34)]

def band(e):
    return next(f"{lo}-{hi}" for lo, hi in BANDS if lo <= e <= hi)

top = int(sys.argv[1])
for arg in sys.argv[2:]:
    kind, files = arg.split("=")
    rows = [r for f in files.split(",") for r in csv.DictReader(open(f))]
    exact = {r["key"]: int(r["nodes"]) for r in rows if r["selectivity"] == "100"}
    acc = defaultdict(lambda: [0, 0, 0])
    nodes = defaultdict(lambda: [0, 0])
    for r in rows:
        lev, e = int(r["selectivity"]), int(r["empties"])
        if lev == 100 or e > top:
            continue
        a = acc[(lev, band(e))]
        a[0] += 1
        a[1] += r["move_ok"] == "true"
        a[2] += r["score_ok"] == "true"
        nodes[lev][0] += int(r["nodes"])
        nodes[lev][1] += exact[r["key"]]
    print(f"{kind} (to {top} empties)")
    for lev in sorted({l for l, _ in acc}):
        bands = [(b, v) for (l, b), v in acc.items() if l == lev]
        n = sum(v[0] for _, v in bands)
        mv = min(bands, key=lambda bv: bv[1][1] / bv[1][0])
        sc = min(bands, key=lambda bv: bv[1][2] / bv[1][0])
        print(f"  {lev}%  positions {n}  lowest best move {100*mv[1][1]/mv[1][0]:.1f}% ({mv[0]}, "
              f"{mv[1][1]}/{mv[1][0]})  lowest exact {100*sc[1][2]/sc[1][0]:.1f}% ({sc[0]}, "
              f"{sc[1][2]}/{sc[1][0]})  nodes/exact {nodes[lev][0]/nodes[lev][1]:.3f}")
