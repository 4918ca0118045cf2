#!/usr/bin/env python3
"""Batch labels as OBF lines that `finale train --real` takes (issue 49).

Usage: labels-obf.py LABELS.csv... > OUT.obf

Each solved row of a `finale batch --label-depth D` (mode `depthD`) or exact
(mode `exact`) output becomes `BOARD SIDE; SCORE; % MODE FILE:LINE`: the score alone,
which labels its position. Timeouts, errors and rows of other modes are skipped. A
position labelled twice must have one mode and one score, else the script stops naming
both rows: a mix of depths would train on labels of two kinds without saying so.
"""
import csv
import re
import sys

MODE = re.compile(r"^(exact|depth\d+)$")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[2])
    seen = {}
    out = sys.stdout
    for path in sys.argv[1:]:
        with open(path, newline="") as f:
            for n, row in enumerate(csv.DictReader(f), start=2):
                if row.get("status") != "solved" or not MODE.match(row.get("mode", "")):
                    continue
                key, score, mode = row["key"], int(row["score"]), row["mode"]
                where = f"{path}:{n}"
                if key in seen:
                    first = seen[key]
                    if first[:2] != (mode, score):
                        sys.exit(
                            f"error: {where}: position {key} is {mode} {score:+d}, "
                            f"but {first[2]} says {first[0]} {first[1]:+d}"
                        )
                    continue
                seen[key] = (mode, score, where)
                out.write(f"{row['board']} {row['side']}; {score:+d}; % {mode} {where}\n")


if __name__ == "__main__":
    main()
