#!/bin/bash
# Issue 49, 2026-11-29 (session 20): would a richer evaluation model learn more from the
# same positions? Run from the repository's root. B: finale at 7a3adad; S: the training
# sets of results/games/2026-11-29-eval-real.md (train24.obf: the 103 985 positions of
# 1977-2009 at 24 empties with their theoretical scores).
B=${B:-finale}; S=${S:-sets}; H=results/games/inputs
D=results/games/2026-11-29-richer-model; L=lab/games/2026-11-29-richer-model
# 1. The labelled positions of one training run (E1b of results/games/2026-11-29-labels.md,
#    with --data):
$B train --play-eval weights/eval.bin --play eval --generations 1 --games 20000 \
  --exact-max-empties 14 --mobility --own-phase --out B0.bin --force --no-progress \
  --real $S/train24.obf --data B0-data.csv > $D/B0.log 2>&1
# 2. The harness (out of tree: a separate package over the finale library):
cargo build --release --manifest-path $L/fitx/Cargo.toml
X=$L/fitx/target/release/fitx
# fitx DATA LO HI EXTRAS L2 ITERS REALFRAC HELDOUT.obf: fits the phase of empties LO-HI
# (finale's model, plus the extra patterns named), early-stopped on the held-out games of
# the training years, and prints the error on HELDOUT (2010-2014, never fitted or tuned on).
ALL=triangle,edgeblock,kite,inner2x4
for ex in - triangle edgeblock kite inner2x4 $ALL; do $X B0-data.csv 24 27 $ex 8 300 1 $H/real-heldout-24-all.obf; done
for l2 in 2 32; do $X B0-data.csv 24 27 - $l2 300 1 $H/real-heldout-24-all.obf; done
REAL_ONLY=1 $X B0-data.csv 24 27 - 8 300 1 $H/real-heldout-24-all.obf
SELF_ONLY=1 $X B0-data.csv 24 27 - 8 300 1 $H/real-heldout-24-all.obf
$X B0-data.csv 24 24 - 8 300 1 $H/real-heldout-24-all.obf     # a phase of one count of empties
for f in 0.5 0.25; do $X B0-data.csv 24 27 - 8 300 $f $H/real-heldout-24-all.obf; done
for f in 0.5 0.25; do $X B0-data.csv 24 27 $ALL 8 300 $f $H/real-heldout-24-all.obf; done
# The second stage: a 64-unit network on the linear stage's group sums and counts.
MLP=32 $X B0-data.csv 24 27 - 8 250 1 $H/real-heldout-24-all.obf
for f in 1 0.5 0.25; do EPOCHS=80 MLP=64 $X B0-data.csv 24 27 $ALL 8 300 $f $H/real-heldout-24-all.obf; done
EPOCHS=80 MLP=64 $X B0-data.csv 24 27 - 8 300 1 $H/real-heldout-24-all.obf
EPOCHS=200 MLP=64 $X B0-data.csv 24 27 $ALL 8 300 1 $H/real-heldout-24-all.obf
# Today's weights on the same set: scripts/eval-error.py over finale eval --file (7.86).
