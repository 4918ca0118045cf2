#!/bin/bash
set -e
cd /tmp/repro
B=/tmp/finale-83de9c7
date +%s > t0
$B train --out w.bin > train1.log 2>&1
date +%s > t1
$B train --play-eval w.bin --play eval --generations 1 --games 100000 --exact-max-empties 14 --mobility --own-phase --out eval.bin --force > train2.log 2>&1
date +%s > t2
cmp eval.bin /work/main/weights/eval.bin && echo SAME > verdict || echo DIFFERENT > verdict
