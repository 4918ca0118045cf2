"""Independent re-derivation of the drawn proof's root bounds from its rows and tree.txt,
and the smallest certificate: the leaf rows a proof of the bounds needs (fewest nodes)."""
import csv, glob, sys
from functools import lru_cache
sys.setrecursionlimit(100000)
D = sys.argv[1]
DIRS = [(0,1),(0,-1),(1,0),(-1,0),(1,1),(1,-1),(-1,1),(-1,-1)]
def flips(me, op, sq):
    r, c = divmod(sq, 8); out = 0
    for dr, dc in DIRS:
        rr, cc, f = r+dr, c+dc, 0
        while 0 <= rr < 8 and 0 <= cc < 8 and op >> (rr*8+cc) & 1:
            f |= 1 << (rr*8+cc); rr += dr; cc += dc
        if f and 0 <= rr < 8 and 0 <= cc < 8 and me >> (rr*8+cc) & 1: out |= f
    return out
def moves(me, op):
    res = []
    for sq in range(64):
        if not (me | op) >> sq & 1:
            f = flips(me, op, sq)
            if f: res.append((sq, f))
    return res
def play(me, op, sq, f):  # returns the position for the opponent to move
    return op & ~f, me | f | (1 << sq)
def name(sq): return 'ABCDEFGH'[sq % 8] + str(sq // 8 + 1)
def parse(board, side):
    x = sum(1 << i for i, ch in enumerate(board) if ch == 'X')
    o = sum(1 << i for i, ch in enumerate(board) if ch == 'O')
    return (x, o) if side == 'X' else (o, x)
def final(me, op):
    a, b = bin(me).count('1'), bin(op).count('1'); e = 64 - a - b
    return a - b + (e if a > b else -e if b > a else 0)
rows = {}   # (me, op) -> list of (lower, upper, nodes)
allnodes = 0; nrows = 0; biggest = 0
for f in glob.glob(D + '/round-*.csv'):
    for x in csv.DictReader(open(f)):
        n = int(x['nodes'] or 0); allnodes += n; nrows += 1; biggest = max(biggest, n)
        if x['status'] != 'solved': continue
        rows.setdefault(parse(x['board'], x['side']), []).append((int(x['lower']), int(x['upper']), n))
root = None
for line in open(D + '/prove.txt'):
    if line.startswith('root '):
        _, b, s = line.split(); root = parse(b, s)
expanded = set()
for line in open(D + '/tree.txt'):
    line = line.strip()
    if not line or line.startswith('%'): continue
    me, op = root
    for mv in ([] if line == '.' else line.split()):
        ms = dict((name(sq), (sq, f)) for sq, f in moves(me, op))
        if not ms:
            me, op = op, me; ms = dict((name(sq), (sq, f)) for sq, f in moves(me, op))
        sq, f = ms[mv]; me, op = play(me, op, sq, f)
    expanded.add((me, op))
    if not moves(me, op) and moves(op, me): expanded.add((op, me))
INF = float('inf')
@lru_cache(None)
def bounds(me, op):
    l, u = -64, 64
    for rl, ru, _ in rows.get((me, op), []): l, u = max(l, rl), min(u, ru)
    ms = moves(me, op)
    if not ms and not moves(op, me): return final(me, op), final(me, op)
    if (me, op) not in expanded: return l, u
    if not ms:
        cl, cu = bounds(op, me); return max(l, -cu), min(u, -cl)
    bl, bu = -64, -64
    for sq, f in ms:
        cl, cu = bounds(*play(me, op, sq, f)); bl, bu = max(bl, -cu), max(bu, -cl)
    return max(l, bl), min(u, bu)
@lru_cache(None)
def cert_ge(me, op, L):   # fewest-node set of rows proving value >= L: (nodes, frozenset of keys)
    if L <= -64: return 0, frozenset()
    best = (INF, None)
    ms = moves(me, op)
    if not ms and not moves(op, me): return (0, frozenset()) if final(me, op) >= L else best
    for rl, ru, n in rows.get((me, op), []):
        if rl >= L and n < best[0]: best = (n, frozenset([(me, op, 'ge', rl, ru)]))
    if (me, op) in expanded:
        if not ms:
            c = cert_le(op, me, -L); best = min(best, c, key=lambda t: t[0])
        else:
            for sq, f in ms:
                c = cert_le(*play(me, op, sq, f), -L)
                if c[0] < best[0]: best = c
    return best
@lru_cache(None)
def cert_le(me, op, U):
    if U >= 64: return 0, frozenset()
    best = (INF, None)
    ms = moves(me, op)
    if not ms and not moves(op, me): return (0, frozenset()) if final(me, op) <= U else best
    for rl, ru, n in rows.get((me, op), []):
        if ru <= U and n < best[0]: best = (n, frozenset([(me, op, 'le', rl, ru)]))
    if (me, op) in expanded:
        if not ms:
            c = cert_ge(op, me, -U)
            if c[0] < best[0]: best = c
        else:
            tot, keys = 0, frozenset()
            for sq, f in ms:
                c = cert_ge(*play(me, op, sq, f), -U)
                if c[0] == INF: tot = INF; break
                tot += c[0]; keys |= c[1]
            if tot < best[0]: best = (tot, keys)
    return best
L, U = bounds(*root)
print(f'rows {nrows}  all leaf nodes {allnodes}  largest row {biggest} ({100*biggest/allnodes:.2f} %)')
print(f'independent bounds {L} {U}  (tree {len(expanded)} positions, {len(rows)} solved positions)')
for what, c in (('>= %d' % L, cert_ge(*root, L)), ('<= %d' % U, cert_le(*root, U))):
    if c[0] == INF: print(what, 'no certificate'); continue
    ns = sorted((min(n for rl, ru, n in rows[(k[0], k[1])] if (rl >= k[3] if k[2]=='ge' else ru <= k[4])) for k in c[1]), reverse=True)
    print(f'certificate {what}: {len(c[1])} leaf rows, {c[0]} nodes, largest {ns[0] if ns else 0}')
