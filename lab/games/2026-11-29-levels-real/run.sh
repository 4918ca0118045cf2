#!/bin/bash
# Issue 49, 2026-11-29 (session 20): today's levels on held-out real positions (partial).
# Run from results/games. calib98.obf: the first 98 positions of the calibration set (20-29
# empties), the ones labelled so far:
#   grep -v "^%" inputs/real-heldout-calib-20-32.obf | head -98 > calib98.obf
# Resumable: the same command goes on where it stopped (stopped by SIGTERM with 311 of
# 378 positions: all of the 20 set and of calib98, 73 of the 26 set's 140 others).
D=2026-11-29-levels-real
finale calibrate inputs/real-heldout-20-seed4920.obf $D/calib98.obf inputs/real-heldout-26-seed4926.obf \
  --labels labels/real-heldout-calib-20-32.csv,labels/real-heldout-20-seed4920.csv,labels/real-heldout-26-seed4926.csv \
  --threads 1 --csv $D/cal-real.csv
python3 ../../lab/games/$D/summ.py $D/cal-real.csv  # summ.py: beside this script
