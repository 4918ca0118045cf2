import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
bands = [(20,20),(20,24),(25,29),(26,26)]
by = collections.defaultdict(list)
for r in rows:
    e = int(r['empties']); lv = r['selectivity']
    if lv == '100': continue
    for lo, hi in bands:
        if lo <= e <= hi: by[(lv, lo, hi)].append(r)
print("level band n best% exact% mae nodes/exact")
for (lv, lo, hi), rs in sorted(by.items(), key=lambda k: (int(k[0][0]), k[0][1], k[0][2])):
    n = len(rs)
    best = sum(r['move_ok'] == 'true' for r in rs) / n * 100
    ex = sum(r['score_ok'] == 'true' for r in rs) / n * 100
    mae = sum(float(r['abs_error']) for r in rs) / n
    nodes = sum(int(r['nodes']) for r in rs) / sum(int(r['exact_nodes']) for r in rs)
    print(f"{lv} {lo}-{hi} {n} {best:.1f} {ex:.1f} {mae:.2f} {nodes:.3f}")
