#!/bin/bash
# Issue 70 step 3: each level at its t and at the next narrower width, on the generated fit set
# (14-24, seed 1001) and on the training years' real fit set (20-28), with the shipped weights.
set -e
cd /work/main/results/selectivity/2026-12-07-t-scan
F=/work/lab/finale-new
LAB=../../games/labels/real-train-fit-20-28.csv
REAL=../../games/inputs/real-train-fit-20-28.obf
for c in gen-default gen-73-t1.25 gen-87-t2.5 gen-95-t3.5 gen-98-t4.5 gen-99-t5.5; do
  [ -f $c.csv ] || cp /work/lab/gen-exact.csv $c.csv
done
$F calibrate fit-14-24.obf --threads 2 --csv gen-default.csv > gen-default.txt
for lt in 73:1.25 87:2.5 95:3.5 98:4.5 99:5.5; do l=${lt%:*}; t=${lt#*:}
  $F calibrate fit-14-24.obf --levels $l --probcut-t $t --threads 2 --csv gen-$l-t$t.csv > gen-$l-t$t.txt
done
# (waited here for the label batch of the real fit set to finish)
while kill -0 8573 2>/dev/null; do sleep 10; done
$F calibrate $REAL --labels $LAB --threads 2 --csv real-default.csv > real-default.txt
for lt in 73:1.25 87:2.5 95:3.5 98:4.5 99:5.5; do l=${lt%:*}; t=${lt#*:}
  $F calibrate $REAL --labels $LAB --levels $l --probcut-t $t --threads 2 --csv real-$l-t$t.csv > real-$l-t$t.txt
done
echo done

# Then, in place of the real set's narrower 95/98/99 runs (95 % at 4.0 had no margin there):
#   for lt in 87:2.5 95:4.5 95:5.0; do ... (as above, real set) ...; done
#   (95 % at 5.0 stopped part way), then 95 % at 4.25:
#   $F calibrate $REAL --labels $LAB --levels 95 --probcut-t 4.25 --threads 2 --csv real-95-t4.25.csv > real-95-t4.25.txt
