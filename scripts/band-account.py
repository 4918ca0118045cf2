#!/usr/bin/env python3
"""Per-band account of a finale run: where the time goes, per node.

usage: perf record --call-graph dwarf,8192 -F 199 -o P.data finale suite ... --threads 1
       perf script -i P.data | scripts/band-account.py ACCOUNT.txt SECONDS

Each perf sample is charged to the band of the innermost search function on its stack
(the kernels, the table, stability and the evaluation are charged to the band that called
them). ACCOUNT.txt holds the `account:` lines that a build with `--features account`
prints for the same run (same revision and settings), SECONDS the run's total search time.
Prints a markdown table: band, nodes, share of time, seconds and nanoseconds per node.
"""
import re
import sys

# Innermost match wins; order only matters within one frame's symbol.
# The search's functions are the band files' (before the kernel sets) or the kernel sets'
# entries (`search/kernel_dispatch.rs`, e.g. `<...Avx2 as ...Entries>::last_3::f`).
BANDS = [
    ("ordering and probcut searches", re.compile(r"search::evaluated::|Evaluator::evaluate|Entries>::evaluated")),
    ("last 1-4", re.compile(r"search::last::|Entries>::last")),
    ("shallow", re.compile(r"search::shallow::|Entries>::shallow")),
    ("endgame", re.compile(r"search::endgame::|search::etc::|TranspositionTable::(probe|store)|search::root::|search::parallel::|Entries>::(endgame|rest)")),
]
# The account's bands, merged into the profile's: the table used does not show in a stack.
ACCOUNT = {
    "last 1-4": "last 1-4",
    "shallow": "shallow",
    "endgame (local table)": "endgame",
    "endgame (shared table)": "endgame",
    "ordering and probcut searches": "ordering and probcut searches",
}


def samples(lines):
    stack = []
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            if stack:
                yield stack
            stack = []
        elif line.startswith((" ", "\t")):
            parts = line.split(None, 1)
            stack.append(parts[1] if len(parts) > 1 else "")
        else:
            stack = []
    if stack:
        yield stack


def band_of(stack):
    for frame in stack:
        for name, pattern in BANDS:
            if pattern.search(frame):
                return name
    return "other (set-up, root moves, table clears)"


def main():
    account_file, seconds = sys.argv[1], float(sys.argv[2])
    nodes = {}
    for line in open(account_file):
        m = re.match(r"account: (.*?)\s+(\d+) nodes", line)
        if m:
            band = ACCOUNT[m.group(1)]
            nodes[band] = nodes.get(band, 0) + int(m.group(2))
    counts = {}
    leaves = {}
    for stack in samples(sys.stdin):
        b = band_of(stack)
        counts[b] = counts.get(b, 0) + 1
        leaf = re.sub(r"\+0x[0-9a-f]+ \(.*\)$", "", stack[0])
        leaf = re.sub(r"<impl [^>]*>::", "", leaf.replace("finale::", ""))
        leaves[(b, leaf)] = leaves.get((b, leaf), 0) + 1
    total = sum(counts.values())
    searched = sum(c for b, c in counts.items() if not b.startswith("other"))
    print("| band | nodes | share of nodes | share of time | seconds | ns per node |")
    print("|---|---|---|---|---|---|")
    all_nodes = sum(nodes.values())
    for name, _ in BANDS[::-1]:
        c = counts.get(name, 0)
        secs = seconds * c / searched
        n = nodes.get(name, 0)
        ns = secs * 1e9 / n if n else float("nan")
        print(f"| {name} | {n / 1e6:.1f} M | {100 * n / all_nodes:.1f} % | {100 * c / total:.1f} % | {secs:.2f} | {ns:.1f} |")
    for b, c in counts.items():
        if b.startswith("other"):
            print(f"| {b} | | | {100 * c / total:.1f} % | | |")
    print(f"| all | {all_nodes / 1e6:.1f} M | | {total} samples | {seconds:.2f} | {seconds * 1e9 / all_nodes:.1f} |")
    print()
    print("Within each band, the innermost function (share of all samples, 1 % or more):")
    print()
    for name, _ in BANDS[::-1]:
        items = sorted(((c, leaf) for (b, leaf), c in leaves.items() if b == name), reverse=True)
        shown = [f"{leaf} {100 * c / total:.1f} %" for c, leaf in items if c >= total / 100]
        print(f"- {name}: " + "; ".join(shown))


if __name__ == "__main__":
    main()
