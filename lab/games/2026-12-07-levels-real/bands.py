#!/usr/bin/env python3
"""Where a growing `finale calibrate` CSV stands, per level and number of empties (from
N up, default 30): positions with a row, best move found, exact score found, and nodes
against the exact solve (sums). A lab peek at a run in progress; calibrate's own table is
the record."""
import csv, sys
from collections import defaultdict
path = sys.argv[1]
lo = int(sys.argv[2]) if len(sys.argv) > 2 else 30
rows = list(csv.DictReader(open(path)))
agg = defaultdict(lambda: [0, 0, 0, 0, 0])
for r in rows:
    e = int(r["empties"])
    if e < lo or r["selectivity"] == "100":
        continue
    a = agg[(int(r["selectivity"]), e)]
    a[0] += 1
    a[1] += r["move_ok"] == "true"
    a[2] += r["score_ok"] == "true"
    a[3] += int(r["nodes"])
    a[4] += int(r["exact_nodes"])
print("level empties  n  best  exact  nodes/exact")
for (lev, e), (n, b, s, nd, ex) in sorted(agg.items()):
    print(f"{lev:4}% {e:6} {n:3} {b:4} {s:6}   {nd / max(ex, 1):.3f}")
