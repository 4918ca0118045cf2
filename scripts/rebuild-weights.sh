#!/usr/bin/env bash
# Rebuilds the shipped evaluation weights (weights/eval.bin, checksum 7ec978cc) from
# nothing: the three training commands of docs/evaluation.md in a row, over the shared
# WTHOR files (../shared/games/wthor, or WTHOR=DIR).
#
#   scripts/rebuild-weights.sh [DIR]        (DIR default: the current directory)
#
# Writes DIR/w.bin (the weights shipped until 2026-11-27, checksum 6d311aa3), then
# DIR/mobility.bin (shipped 2026-11-27 to 2026-12-07, checksum 7f48bc5d), then the training
# years' real positions DIR/train-14-36.obf (WTHOR 1977-2009) and DIR/eval.bin, and compares
# it with weights/eval.bin. Resumable by step: a finished w.bin or mobility.bin is kept, and
# the first step itself starts again from w.bin.gen1 when stopped in its second generation;
# the other steps (one generation each) start over. FINALE names the binary (default:
# target/release/finale, built here if missing). About 65 minutes on 2 cores
# (results/eval/2026-11-27-reproduction/, results/eval/2026-12-07-real-weights/).
#
# Exit code: 0 when eval.bin equals weights/eval.bin byte for byte; 1 when it differs; 2
# when a step fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-.}
finale=${FINALE:-$root/target/release/finale}
wthor=${WTHOR:-$root/../shared/games/wthor}
wthor=$(cd "$wthor" 2>/dev/null && pwd) || {
    echo "rebuild-weights: no WTHOR directory ${WTHOR:-$root/../shared/games/wthor}; set WTHOR=DIR" >&2
    exit 2
}
if [ -z "${FINALE:-}" ] && [ ! -x "$finale" ]; then
    (cd "$root" && cargo build --release --quiet) || exit 2
fi
if [ ! -x "$finale" ]; then
    echo "rebuild-weights: $finale is not an executable finale binary" >&2
    exit 2
fi
if ! compgen -G "$wthor/WTH_19*.wtb" >/dev/null; then
    echo "rebuild-weights: no WTHOR files (WTH_19*.wtb) in $wthor; set WTHOR=DIR" >&2
    exit 2
fi
mkdir -p "$dir" || exit 2
if [ ! -f "$dir/w.bin" ]; then
    "$finale" train --out "$dir/w.bin" || exit 2
fi
if [ ! -f "$dir/mobility.bin" ]; then
    "$finale" train --play-eval "$dir/w.bin" --play eval --generations 1 --games 100000 \
        --exact-max-empties 14 --mobility --own-phase --out "$dir/mobility.bin" --force || exit 2
fi
# The training years only: 2010 on are held out (results/games/README.md). Run inside DIR:
# the weight file records the --real file as named, so the name must be train-14-36.obf.
cd "$dir" || exit 2
"$finale" games "$wthor"/WTH_19*.wtb "$wthor"/WTH_200*.wtb --empties 14-36 \
    --out train-14-36.obf || exit 2
"$finale" train --play-eval mobility.bin --play eval --generations 1 --games 100000 \
    --exact-max-empties 14 --mobility --own-phase --real train-14-36.obf \
    --out eval.bin --force || exit 2
if cmp eval.bin "$root/weights/eval.bin"; then
    echo "eval.bin equals weights/eval.bin byte for byte"
else
    echo "eval.bin differs from weights/eval.bin" >&2
    exit 1
fi
