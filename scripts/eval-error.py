#!/usr/bin/env python3
"""Error of the evaluation against exact scores, by empties (issue 14).

Usage: eval-error.py EVAL_CSV EXACT_CSV [EXACT_CSV ...]

EVAL_CSV is written by `finale eval --file F --depth D --csv EVAL_CSV`. Each EXACT_CSV is a
`finale calibrate` CSV (columns board, exact_score), a `finale suite` or `finale batch` CSV
of exact solves (columns board, side, score), or an OBF file whose lines give a score alone
(`BOARD SIDE; +12;`, as `finale games` writes WTHOR's theoretical scores). Positions are matched by board and side to move; the exact
scores come from the solver, never from the evaluation. Prints rms and mean error in discs
per empties count and per band, and the positions that had no exact score.
"""
import csv
import math
import sys
from collections import defaultdict


def key(board, side):
    return board.strip() + " " + side.strip()


def obf_scores(path):
    """(board, side, score) of each OBF line that gives a score alone."""
    with open(path) as f:
        for line in f:
            fields = line.split("%", 1)[0].split(";")
            if len(fields) < 2 or not fields[1].strip():
                continue
            score = fields[1].strip()
            if ":" in score:
                continue
            board, side = fields[0].split()
            yield board, side, score


def exact_scores(paths):
    exact = {}
    for path in paths:
        if path.endswith(".obf"):
            for board, side, score in obf_scores(path):
                k = key(board, side)
                if exact.setdefault(k, int(score)) != int(score):
                    sys.exit(f"eval-error: {path}: two exact scores for {k}")
            continue
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if "exact_score" in row:
                    # calibrate: "board" is "<64 squares> <side>"; one row per level.
                    board, side = row["board"].split()
                    score = row["exact_score"]
                elif row.get("mode") == "exact":
                    board, side, score = row["board"], row["side"], row["score"]
                else:
                    continue
                k = key(board, side)
                s = int(score)
                if exact.setdefault(k, s) != s:
                    sys.exit(f"eval-error: {path}: two exact scores for {k}")
    return exact


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[2])
    exact = exact_scores(sys.argv[2:])
    errs = defaultdict(list)
    missing = 0
    depth = None
    with open(sys.argv[1], newline="") as f:
        for row in csv.DictReader(f):
            k = key(row["board"], row["side"])
            if k not in exact:
                missing += 1
                continue
            depth = row["depth"]
            errs[int(row["empties"])].append(float(row["eval"]) - exact[k])

    def line(label, e):
        rms = math.sqrt(sum(x * x for x in e) / len(e))
        mean = sum(e) / len(e)
        mae = sum(abs(x) for x in e) / len(e)
        print(f"{label:>8} {len(e):6d} {rms:8.2f} {mae:8.2f} {mean:8.2f}")

    print(f"depth {depth}: error = eval - exact, discs")
    print(f"{'empties':>8} {'n':>6} {'rms':>8} {'mae':>8} {'mean':>8}")
    for n in sorted(errs):
        line(str(n), errs[n])
    for lo, hi in [(14, 19), (20, 24), (25, 30), (14, 30)]:
        e = [x for n in errs if lo <= n <= hi for x in errs[n]]
        if e:
            line(f"{lo}-{hi}", e)
    if missing:
        print(f"{missing} positions had no exact score")


if __name__ == "__main__":
    main()
