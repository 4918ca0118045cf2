#!/usr/bin/env python3
"""Batch labels as OBF lines that `finale train --real` takes (issue 49).

Usage: labels-obf.py LABELS.csv... > OUT.obf

Each solved row of a `finale batch --label-depth D` (mode `depthD`) or exact
(mode `exact`) output becomes `BOARD SIDE; SCORE; % MODE FILE:LINE`: the score alone,
which labels its position. Timeouts, errors and rows of other modes are skipped.
All rows must be of one mode and one set of weights (`variant`), and a position labelled
twice must have one score: else the script stops naming both rows, having written
nothing, since a mix of depths or weights would train on labels of two kinds without
saying so.
"""
import csv
import re
import sys

MODE = re.compile(r"^(exact|depth\d+)$")


def labels(paths):
    """The OBF lines of the solved rows of `paths`, or an error line naming two rows."""
    seen = {}
    kind = None
    lines = []
    for path in paths:
        with open(path, newline="") as f:
            for n, row in enumerate(csv.DictReader(f), start=2):
                if row.get("status") != "solved" or not MODE.match(row.get("mode", "")):
                    continue
                key, score, mode = row["key"], int(row["score"]), row["mode"]
                variant = row.get("variant", "")
                where = f"{path}:{n}"
                if kind is None:
                    kind = (mode, variant, where)
                elif kind[:2] != (mode, variant):
                    return None, (
                        f"error: {where}: {mode} {variant or '(no weights named)'}, but "
                        f"{kind[2]} is {kind[0]} {kind[1] or '(no weights named)'}: "
                        "labels of one mode and weights only"
                    )
                if key in seen:
                    first = seen[key]
                    if first[0] != score:
                        return None, (
                            f"error: {where}: position {key} is {mode} {score:+d}, "
                            f"but {first[1]} says {first[0]:+d}"
                        )
                    continue
                seen[key] = (score, where)
                lines.append(f"{row['board']} {row['side']}; {score:+d}; % {mode} {where}\n")
    return lines, None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[2])
    lines, error = labels(sys.argv[1:])
    if error:
        sys.exit(error)
    sys.stdout.writelines(lines)


if __name__ == "__main__":
    main()
