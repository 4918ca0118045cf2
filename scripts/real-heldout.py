#!/usr/bin/env python3
"""A seeded sample of held-out real positions (issue 49): positions that occur in games of
the held-out years and in no game of an earlier year.

Usage: real-heldout.py ALL.obf FIRST_YEAR COUNT SEED > OUT.obf

ALL.obf is `finale games ../shared/games/wthor/WTH_*.wtb --empties E --out ALL.obf` over
every year in file order: a position met in several games is written once, with the first
game's comment, so a line whose comment names a year from FIRST_YEAR on is a position no
earlier year's game reached. COUNT of those lines (all if fewer) are drawn by Python's
random.Random(SEED) and written in their file order.
"""
import random
import re
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[3])
    path, first, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    year = re.compile(r"% (\d{4}) game ")
    lines = []
    with open(path) as f:
        for line in f:
            m = year.search(line)
            if m and int(m.group(1)) >= first:
                lines.append(line)
    keep = sorted(random.Random(seed).sample(range(len(lines)), min(count, len(lines))))
    sys.stdout.write("".join(lines[i] for i in keep))


if __name__ == "__main__":
    main()
