#!/usr/bin/env python3
"""The work-and-span table of one position set (issue 48): per position and for the set,
the work W, the span S, the splits, the parallelism W/S and Brent's bound on the speed-up
at P threads, T1 / (W_P / P + S), where T1 is one thread's nodes (W unless `--t1` gives
them) and W_P the median nodes of the oversubscribed runs at P threads.

Usage: scripts/span-table.py SPAN.err [--t1 ONE] [P:RUN.csv[,RUN.csv...]]...

SPAN.err is the stderr of a span build's suite (`cargo build --release --features span`,
`finale suite FILE --threads P --oversubscribe`): its `span:` lines, one per solve in file
order. Each P:CSVS names the suite CSVs of the runs `finale suite FILE --threads P
--oversubscribe --csv RUN.csv` (the default build; three runs, whose median is taken per
position). When the rules of P threads search in another order than one thread (the
all-at-once splits do), the span build's work is not one thread's: `--t1 ONE` then gives
T1, from a one-thread suite CSV or a span build's stderr (a 1-thread or 2-thread account,
whose work is one thread's nodes). Positions of at least 1 G nodes are also marked; the set's figures are sums
(sum W / sum S, and Brent's bound on sum T1, sum W_P, sum S)."""
import csv
import statistics
import sys


def span_rows(path):
    rows = []
    for line in open(path):
        f = line.split()
        if len(f) == 7 and f[0] == "span:" and f[1].isdigit():
            rows.append({"empties": int(f[2]), "work": int(f[3]), "span": int(f[4]),
                         "splits": int(f[5])})
    return rows


def run_nodes(path):
    return [int(r["nodes"]) for r in csv.DictReader(open(path))]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    spans = span_rows(sys.argv[1])
    args = sys.argv[2:]
    t1 = [r["work"] for r in spans]
    if args[:1] == ["--t1"]:
        path = args[1]
        t1 = run_nodes(path) if path.endswith(".csv") else [r["work"] for r in span_rows(path)]
        if len(t1) != len(spans):
            sys.exit(f"{path}: {len(t1)} positions, the span run has {len(spans)}")
        args = args[2:]
    runs = {}
    for arg in args:
        p, files = arg.split(":", 1)
        per_run = [run_nodes(f) for f in files.split(",")]
        for nodes in per_run:
            if len(nodes) != len(spans):
                sys.exit(f"{files}: {len(nodes)} positions, the span run has {len(spans)}")
        runs[int(p)] = [statistics.median(col) for col in zip(*per_run)]
    ps = sorted(runs)
    same = t1 == [r["work"] for r in spans]
    head = ["#", "empties", "W = T1" if same else "W", "S", "splits", "W/S"]
    if not same:
        head.append("T1")
    for p in ps:
        head += [f"W_{p} / T1", f"Brent {p}"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    tot_w = tot_s = tot_t1 = 0
    tot_wp = {p: 0 for p in ps}
    for i, r in enumerate(spans):
        w, s, one = r["work"], r["span"], t1[i]
        tot_w += w
        tot_s += s
        tot_t1 += one
        cells = [str(i + 1) + (" (1 G+)" if one >= 1e9 else ""), str(r["empties"]), f"{w:,}",
                 f"{s:,}", f"{r['splits']:,}", f"{w / s:.1f}"]
        if not same:
            cells.append(f"{one:,}")
        for p in ps:
            wp = runs[p][i]
            tot_wp[p] += wp
            cells += [f"{wp / one:.3f}", f"{one / (wp / p + s):.1f}"]
        print("| " + " | ".join(cells) + " |")
    cells = ["all", "", f"{tot_w:,}", f"{tot_s:,}", "", f"{tot_w / tot_s:.1f}"]
    if not same:
        cells.append(f"{tot_t1:,}")
    for p in ps:
        cells += [f"{tot_wp[p] / tot_t1:.3f}", f"**{tot_t1 / (tot_wp[p] / p + tot_s):.1f}**"]
    print("| " + " | ".join(cells) + " |")


main()
