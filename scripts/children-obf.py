#!/usr/bin/env python3
"""The positions one move on from those of an OBF file (issue 49): more real-like
positions to label for training.

Usage: children-obf.py IN.obf [EXCLUDE.obf...] > OUT.obf

Each legal move of each position of IN.obf gives a child, with the side to move's forced
pass made (a finished game is left out). Children are written once each, without a
score, and none that any EXCLUDE file lists (give every held-out set, so that no
held-out position is trained on). Moves and flips are found square by square, apart from
finale's move generation.
"""
import sys

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, me, sq):
    """The squares a disc of `me` on `sq` flips (none: not a legal move)."""
    if board[sq] != "-":
        return []
    them = "O" if me == "X" else "X"
    r0, c0 = divmod(sq, 8)
    out = []
    for dr, dc in DIRECTIONS:
        r, c, run = r0 + dr, c0 + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == them:
            run.append(r * 8 + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == me:
            out += run
    return out


def moves(board, me):
    return [sq for sq in range(64) if board[sq] == "-" and flips(board, me, sq)]


def positions(path):
    """(board, side) of each position line of an OBF file."""
    with open(path) as f:
        for line in f:
            if line[:1] not in ("%", "\n", ""):
                yield line[:64], line[65]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[3])
    exclude = {p for path in sys.argv[2:] for p in positions(path)}
    seen = set()
    for board, me in positions(sys.argv[1]):
        them = "O" if me == "X" else "X"
        for sq in moves(board, me):
            child = list(board)
            for f in [sq] + flips(board, me, sq):
                child[f] = me
            child, side = "".join(child), them
            if not moves(child, side):
                side = me
                if not moves(child, side):
                    continue
            if (child, side) in seen or (child, side) in exclude:
                continue
            seen.add((child, side))
            sys.stdout.write(f"{child} {side};\n")
    sys.stderr.write(f"{len(seen)} children; {len(exclude)} positions excluded\n")


if __name__ == "__main__":
    main()
