#!/usr/bin/env python3
"""The split points' waste by pass, split kind, expected type and empties, from the
`waste:` lines a knob build (knobs.patch, X_WASTE=1) prints at its end. Percentages are
of T1, one thread's nodes on tune-23-26-seed4949.obf. Usage: waste-table.py ERR..."""
import sys, collections
T1=1438.2e6
for f in sys.argv[1:]:
    rows=[l.split()[1:] for l in open(f) if l.startswith('waste:') and l.split()[1] in ('sel','exact')]
    agg=collections.defaultdict(lambda:[0]*6)
    tot=[0]*6
    for r in rows:
        p,a,e,n=r[0],int(r[1]),int(r[2]),int(r[3])
        v=list(map(int,r[4:]))
        key=(p,'once' if a else 'after', 'all' if e else 'cut', 'n>=20' if n>=20 else ('16-19' if n>=16 else '12-15'))
        for i in range(6): agg[key][i]+=v[i]
    print(f)
    print("%-6s %-6s %-4s %-6s %9s %8s %8s %8s %8s %7s"%('pass','split','type','empties','splits','cut%','nodesM','wasteM','waste%T1','cut1st%'))
    for k in sorted(agg):
        v=agg[k]
        print("%-6s %-6s %-4s %-6s %9d %7.1f%% %8.1f %8.1f %7.2f%% %6.1f%%"%(*k,v[0],100*v[1]/v[0],v[2]/1e6,v[3]/1e6,100*v[3]/T1,100*v[5]/max(1,v[1])))
