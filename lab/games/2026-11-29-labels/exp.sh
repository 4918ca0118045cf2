#!/bin/bash
# Issue 49, 2026-11-29: real positions at 25-27 empties labelled by depth-6 searches
# (finale batch --label-depth 6), beside real positions at 24 with their theoretical
# scores, on top of 20k eval-play games. Run from the repository's root:
#   B: finale at 746a0c7; S: the training sets of results/games/2026-11-29-eval-real.md
#   (train24.obf: the 1977-2009 positions at 24 with their theoretical scores;
#   r25-27.obf: the 1977-2009 positions at 25-27 of train-14-36.obf).
#   finale batch $S/r25-27.obf --out r25-27-d6.csv --label-depth 6 --threads 1
#   scripts/labels-obf.py r25-27-d6.csv > r25-27-d6.obf
B=${B:-finale}; S=${S:-sets}
G=results/games
err() { # static error of weights $1 on the held-out sets at 24, 20 and 26 empties
  for s in 24-all 20-seed4920 26-seed4926; do
    $B eval --eval "$1" --file $G/inputs/real-heldout-$s.obf --csv /tmp/e-$s.csv > /dev/null
    lab=$G/labels/real-heldout-$s.csv; [ $s = 24-all ] && lab=$G/inputs/real-heldout-24-all.obf
    python3 scripts/eval-error.py /tmp/e-$s.csv $lab | grep -E "^ +(20|24|26) "
  done
}
run() { n=$1; shift; $B train --play-eval weights/eval.bin --play eval --generations 1 --games 20000 --exact-max-empties 14 --mobility --own-phase --out $n.bin --force --no-progress "$@" > $n.log 2>&1; echo "== $n"; err $n.bin; }
run E1b --real $S/train24.obf
run E5 --real $S/train24.obf --real r25-27-d6.obf
# E6: the 930 423 positions one move on from the 1977-2009 positions at 25 empties
# (r25.obf), none of them a real position at 24 or a held-out one, labelled at depth 6:
#   scripts/children-obf.py $S/r25.obf results/games/inputs/real-heldout-*.obf $S/all24.obf > c24.obf
#   finale batch c24.obf --out c24-d6.csv --label-depth 6 --threads 2
#   scripts/labels-obf.py c24-d6.csv > c24-d6.obf
run E6 --real $S/train24.obf --real c24-d6.obf
