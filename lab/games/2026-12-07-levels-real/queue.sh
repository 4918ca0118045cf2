#!/bin/bash
# Issue 70's long jobs, each step resumable (a step that finished is skipped in seconds),
# in two lanes so that no core idles while one deep position finishes:
#   lane A, the real calibration set: its last label (on two threads), then every level
#   on its positions;
#   lane B, the generated held-out set at 31-32: its labels, then every level on them.
# Start it at the beginning of a session,
#     setsid nohup lab/games/2026-12-07-levels-real/queue.sh > /work/logs/queue.log 2>&1 < /dev/null &
# and stop it with `pkill -TERM -f finale-lanes`: each step keeps every row it finished; a
# batch's positions in progress go on from their saved tables next time, calibrate's are
# solved again. SIGSTOP/SIGCONT pauses it for a timing or CI. A step's table is moved into
# results/ only when the step ends. FINALE (default: a copy of target/release/finale, so
# that rebuilding does not touch the running binary) must be the shipped search (weights
# 7ec978cc, bench 169381159) from 5856198 on, whose batch saves the tables of positions in
# progress (--save-tables: their files, 2 GB each, are in OUT.csv.tables/, never committed)
# and searches a position on several threads (--position-threads).
# A step already running on its own (started by hand) is waited for, then run again,
# which resumes it (a finished step is skipped in seconds).
set -u
R=$(cd "$(dirname "$0")/../../.." && pwd)
F=/tmp/finale-lanes.$$
cp "${FINALE:-$R/target/release/finale}" $F
# Both label CSVs were started with the weights before 2026-12-07 (7f48bc5d) and a batch
# resumes a file only with the weights it started with; exact scores do not depend on them.
OLD=/tmp/eval-7f48bc5d.bin
git -C "$R" show 429c406:weights/eval.bin > $OLD
FX=$R/tests/fixtures/selectivity/2026-12-07-real-weights

# Line 150's solve on $1 threads (see lane A).
solve_150() {
    $F batch inputs/real-heldout-calib-20-32.obf --mode exact \
        --threads $1 --position-threads $1 \
        --hash-mb 2048 --eval $OLD --no-progress --save-tables 600 \
        --out labels/real-heldout-calib-20-32.csv
}

# Whether lane B (of this queue or another) is still at work: looked at twice, so that
# the moment between its two steps does not count as its end.
lane_b_busy() {
    pgrep -f "finale-lanes.* \.\./inputs/deep-27-32" > /dev/null \
        || { sleep 10; pgrep -f "finale-lanes.* \.\./inputs/deep-27-32" > /dev/null; }
}

lane_a() {
    cd "$R/results/games" || return 1
    # 1. The real calibration set's last label (157 of 158 are rows of
    #    labels/real-heldout-calib-20-32.csv, from a one-thread batch at 2048 MB): line
    #    150, whose one-thread solve ran 2.5 h+ and was lost at a session end. Its proof
    #    from a frontier of 31 (labels/proof-line-150/, 2026-12-07) gave up two leaves at
    #    the hour (95 G nodes lost to splits). A batch that saves its table every 10
    #    minutes (--save-tables, from 3bb5fef) loses at most that at a restart. From the
    #    seventh session on it runs first, because its size is the largest unknown left.
    #    One thread while lane B runs: each lane is its own scheduling group (setsid), so
    #    the kernel gives each one core, and two search threads on one core only add
    #    speculative work. Once lane B has ended, the solve is stopped and goes on from
    #    its saved table on both cores (--position-threads, from 5856198).
    if lane_b_busy; then
        solve_150 1 &
        local pid=$!
        while kill -0 $pid 2> /dev/null && lane_b_busy; do sleep 60; done
        kill -TERM $pid 2> /dev/null
        wait $pid
    fi
    # Skipped in seconds if solved above.
    solve_150 2 || return 1
    # 2. Every level on the whole set (rows of one position and level are the units a
    #    restart loses, minutes at 31-32 empties; the rows of 20-30 and those of 31 done
    #    before are reused). 31-32 at 1024 MB, the table `solve` gives a 32-empty
    #    position. Two threads: with lane B running that is three on two cores (nodes,
    #    not times, are what this measures).
    $F calibrate inputs/real-heldout-calib-20-32.obf \
        --labels labels/real-heldout-calib-20-32.csv \
        --threads 2 --hash-mb 1024 --no-progress --csv $FX/real-heldout-calib.csv \
        > /tmp/table-20-32.txt || return 1
    mv /tmp/table-20-32.txt 2026-12-07-levels-real/table-20-32.txt
}

lane_b() {
    cd "$R/results/selectivity/deep-27-32" || return 1
    # 3. The generated held-out set's labels at 31-32.
    while pgrep -f "finale-lanes.* batch ../inputs/deep-27-32" > /dev/null; do sleep 60; done
    $F batch ../inputs/deep-27-32/heldout-31-32.obf --mode exact --threads 1 --hash-mb 2048 \
        --eval $OLD --no-progress --save-tables 600 --out labels-heldout-27-32.csv || return 1
    # 4. Every level on them.
    $F calibrate ../inputs/deep-27-32/heldout-31-32.obf --labels labels-heldout-27-32.csv \
        --threads 2 --hash-mb 1024 --no-progress --csv $FX/heldout-31-32.csv \
        > /tmp/table-31-32.txt || return 1
    mv /tmp/table-31-32.txt ../2026-12-07-real-weights/table-31-32.txt
}

# LANES=A or LANES=B runs one lane only (the other already running, say).
case ${LANES:-AB} in *A*) lane_a > /tmp/lane-a.log 2>&1 && echo "lane A done" & ;; esac
case ${LANES:-AB} in *B*) lane_b > /tmp/lane-b.log 2>&1 && echo "lane B done" & ;; esac
wait
echo "queue ended (lane logs: /tmp/lane-a.log, /tmp/lane-b.log)"
