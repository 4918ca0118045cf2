#!/usr/bin/env python3
"""Copies a proof folder, leaving out every leaf row of more than CAP nodes, so that
`finale prove --dir COPY --leaf-nodes CAP` finishes the proof again with no leaf row
above the cap: the positions of the rows left out are planned again, and a solve that
reaches the cap gives up and is split into its moves.

    capped-copy.py SRC DST CAP

Prints the rows left out (round, position, window, status, nodes). Every other file of
SRC (tree, prediction, checks, batch inputs) is copied as it is.
"""
import csv
import shutil
import sys
from pathlib import Path

src, dst, cap = Path(sys.argv[1]), Path(sys.argv[2]), int(float(sys.argv[3]))
if dst.exists():
    sys.exit(f"{dst}: exists; give a new folder")
shutil.copytree(src, dst)
left_out = 0
for path in sorted(dst.glob("round-*.csv")):
    with open(path, newline="") as f:
        text = f.read()
    lines = text.splitlines(keepends=True)
    header = next(csv.reader([lines[0]]))
    nodes = header.index("nodes")
    kept = [lines[0]]
    for line in lines[1:]:
        row = next(csv.reader([line]))
        if len(row) == len(header) and row[nodes] and int(row[nodes]) > cap:
            d = dict(zip(header, row))
            print(path.name, d["board"], d["side"], d["alpha"], d["beta"],
                  d["status"], d["nodes"])
            left_out += 1
            continue
        kept.append(line)
    with open(path, "w", newline="") as f:
        f.write("".join(kept))
print(f"{left_out} rows above {cap} nodes left out of {dst}")
