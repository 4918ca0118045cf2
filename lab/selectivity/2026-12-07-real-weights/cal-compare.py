#!/usr/bin/env python3
"""Compares two sets of `finale calibrate` CSVs on the positions both measured: per level
and band of empties, best move and exact score shares, and the level's nodes (sum, and
the ratio new / old of the sums), with nodes/exact for each.

    cal-compare.py --old A.csv [A2.csv ...] --new B.csv [B2.csv ...]
"""
import argparse, csv
from collections import defaultdict

BANDS = [(0, 13), (14, 19), (20, 24), (25, 29), (30, 34)]

def read(files):
    rows = {}
    for f in files:
        for r in csv.DictReader(open(f)):
            rows[(r["key"], int(r["selectivity"]))] = r
    return rows

def band(e):
    for lo, hi in BANDS:
        if lo <= e <= hi:
            return f"{lo}-{hi}"
    return "?"

ap = argparse.ArgumentParser()
ap.add_argument("--old", nargs="+", required=True)
ap.add_argument("--new", nargs="+", required=True)
a = ap.parse_args()
old, new = read(a.old), read(a.new)
acc = defaultdict(lambda: [0, 0, 0, 0, 0, 0, 0, 0])
for (key, lev), n in new.items():
    if lev == 100 or (key, lev) not in old or (key, 100) not in new:
        continue
    o, ex = old[(key, lev)], new[(key, 100)]
    for b in (band(int(n["empties"])), "all"):
        t = acc[(lev, b)]
        t[0] += 1
        t[1] += n["move_ok"] == "true"
        t[2] += o["move_ok"] == "true"
        t[3] += n["score_ok"] == "true"
        t[4] += o["score_ok"] == "true"
        t[5] += int(n["nodes"])
        t[6] += int(o["nodes"])
        t[7] += int(ex["nodes"])
print("level  band   positions  best move new/old  exact score new/old  nodes/exact new/old  nodes new/old")
for (lev, b), t in sorted(acc.items(), key=lambda kv: (kv[0][0], kv[0][1] == "all", kv[0][1])):
    n = t[0]
    print(f"{lev:4d}%  {b:>5}  {n:9d}  {100*t[1]/n:6.1f}% / {100*t[2]/n:5.1f}%  {100*t[3]/n:8.1f}% / {100*t[4]/n:5.1f}%"
          f"  {t[5]/t[7]:10.3f} / {t[6]/t[7]:5.3f}  {t[5]/t[6]:12.3f}")
