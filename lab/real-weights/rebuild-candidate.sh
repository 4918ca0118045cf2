#!/usr/bin/env bash
# Rebuilds the candidate weights of issue 70 (results/eval/2026-12-07-real-weights/) from the
# shared files, and the lab binary that measured them.
#
#   lab/real-weights/rebuild-candidate.sh DIR
#
# 1. today's weights from nothing (scripts/rebuild-weights.sh, about 50 minutes on 2 cores);
# 2. the training years' real positions of 14-36 empties (WTHOR 1977-2009);
# 3. one generation of eval-play games from today's weights, with those real positions
#    (about 15 minutes on 2 cores): DIR/real1.bin, checksum 7ec978cc;
# 4. the probcut error model refitted to real1.bin on the labelled probcut nodes of
#    tests/fixtures/selectivity/deep-27-32/ (seconds);
# 5. a worktree of HEAD with real1.bin as weights/eval.bin and candidate-settings.patch
#    (the refitted MPC_MEAN and MPC_SIGMA), built into DIR/finale-real1.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mkdir -p "${1:?DIR}" && cd "$1" && pwd)
finale=$root/target/release/finale
(cd "$root" && cargo build --release --quiet)
[ -f "$dir/eval.bin" ] || "$root/scripts/rebuild-weights.sh" "$dir"
"$finale" games "$root"/../shared/games/wthor/WTH_19*.wtb "$root"/../shared/games/wthor/WTH_200*.wtb \
    --empties 14-36 --out "$dir/train-14-36.obf"
"$finale" train --play-eval "$dir/eval.bin" --play eval --generations 1 --games 100000 \
    --exact-max-empties 14 --mobility --own-phase --real "$dir/train-14-36.obf" \
    --out "$dir/real1.bin" --force
fix=$root/tests/fixtures/selectivity/deep-27-32
"$finale" train-mpc --from-labels "$fix/labels-nodes-fit-14-26.csv,$fix/labels-deepnodes-fit.csv,$fix/labels-deepnodes-fit-b.csv" \
    --max-depth 7 --threads 1 --eval "$dir/real1.bin" | tail -1
rm -rf "$dir/worktree"
git -C "$root" worktree add -q --detach "$dir/worktree" HEAD
cp "$dir/real1.bin" "$dir/worktree/weights/eval.bin"
git -C "$dir/worktree" apply "$root/lab/real-weights/candidate-settings.patch"
(cd "$dir/worktree" && cargo build --release --quiet)
cp "$dir/worktree/target/release/finale" "$dir/finale-real1"
"$dir/finale-real1" bench | tail -1
