#!/bin/bash
# Issue 70's long jobs in order, each resumable (a step that finished is skipped in
# seconds): start it at the beginning of a session,
#     setsid nohup lab/games/2026-12-07-levels-real/queue.sh > /tmp/queue.log 2>&1 < /dev/null &
# and stop it with `pkill -TERM -f 'finale-queue'` (each step keeps every row it finished;
# the positions in progress are solved again next time). FINALE (default: a copy of
# target/release/finale, so that rebuilding does not touch the running binary) must be
# the shipped build (weights 7ec978cc, bench 169381159).
set -eu
R=$(cd "$(dirname "$0")/../../.." && pwd)
F=/tmp/finale-queue
cp "${FINALE:-$R/target/release/finale}" $F
# Both label CSVs were started with the weights before 2026-12-07 (7f48bc5d) and a batch
# resumes a file only with the weights it started with; exact scores do not depend on them.
OLD=/tmp/eval-7f48bc5d.bin
git -C "$R" show 429c406:weights/eval.bin > $OLD
FX=$R/tests/fixtures/selectivity/2026-12-07-real-weights

# 1. The real calibration set's labels, 158 (2048 MB a position for 31-32 empties).
cd "$R/results/games"
$F batch inputs/real-heldout-calib-20-32.obf --mode exact --threads 2 --hash-mb 2048 \
    --eval $OLD --no-progress --out labels/real-heldout-calib-20-32.csv
# 2. Every level on the whole set (the rows of 20-30 are reused; 31-32 at 1024 MB, the
#    table `solve` gives a 32-empty position).
$F calibrate inputs/real-heldout-calib-20-32.obf --labels labels/real-heldout-calib-20-32.csv \
    --threads 2 --hash-mb 1024 --no-progress --csv $FX/real-heldout-calib.csv \
    > 2026-12-07-levels-real/table-20-32.txt
# 3. The generated held-out set's labels at 31-32.
cd "$R/results/selectivity/deep-27-32"
$F batch ../inputs/deep-27-32/heldout-31-32.obf --mode exact --threads 2 --hash-mb 2048 \
    --eval $OLD --no-progress --out labels-heldout-27-32.csv
# 4. Every level on them.
$F calibrate ../inputs/deep-27-32/heldout-31-32.obf --labels labels-heldout-27-32.csv \
    --threads 2 --hash-mb 1024 --no-progress --csv $FX/heldout-31-32.csv \
    > ../2026-12-07-real-weights/table-31-32.txt
echo "queue done"
