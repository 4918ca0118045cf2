#!/usr/bin/env python3
"""Upgrade a finale batch CSV of 34 columns (before window solves) to the 38-column format.

The four new columns (alpha, beta, lower, upper) follow engine_status. An exact or wld row
of the old format searched the full window, so it gets alpha -64, beta 64, and for exact
rows lower = upper = score (wld rows: the bounds its score proves). Usage: SRC DST.
"""
import csv
import sys

src, dst = sys.argv[1], sys.argv[2]
with open(src, newline="") as f:
    rows = list(csv.reader(f))
head = rows[0]
assert len(head) == 34 and "alpha" not in head, "not a 34-column batch CSV"
at = head.index("engine_status") + 1
mode_i, score_i, status_i = head.index("mode"), head.index("score"), head.index("status")
out = [head[:at] + ["alpha", "beta", "lower", "upper"] + head[at:]]
for r in rows[1:]:
    assert len(r) == 34, r
    assert r[mode_i] == "exact" and r[status_i] == "solved", "only solved exact rows are upgraded"
    s = r[score_i]
    out.append(r[:at] + ["-64", "64", s, s] + r[at:])
with open(dst, "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(out)
