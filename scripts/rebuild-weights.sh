#!/usr/bin/env bash
# Rebuilds the shipped evaluation weights (weights/eval.bin, checksum 7f48bc5d) from
# nothing: the two training commands of docs/evaluation.md in a row.
#
#   scripts/rebuild-weights.sh [DIR]        (DIR default: the current directory)
#
# Writes DIR/w.bin (the weights shipped until 2026-11-27, checksum 6d311aa3), then
# DIR/eval.bin, and compares it with weights/eval.bin. Resumable by step: a finished w.bin
# is kept, and the first step itself starts again from w.bin.gen1 when stopped in its
# second generation; the second step (one generation) starts over. FINALE names the binary (default: target/release/finale, built
# here if missing). About 50 minutes on 2 cores (results/eval/2026-11-27-reproduction/).
#
# Exit code: 0 when eval.bin equals weights/eval.bin byte for byte; 1 when it differs; 2
# when a step fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-.}
finale=${FINALE:-$root/target/release/finale}
if [ -z "${FINALE:-}" ] && [ ! -x "$finale" ]; then
    (cd "$root" && cargo build --release --quiet) || exit 2
fi
if [ ! -x "$finale" ]; then
    echo "rebuild-weights: $finale is not an executable finale binary" >&2
    exit 2
fi
mkdir -p "$dir" || exit 2
if [ ! -f "$dir/w.bin" ]; then
    "$finale" train --out "$dir/w.bin" || exit 2
fi
"$finale" train --play-eval "$dir/w.bin" --play eval --generations 1 --games 100000 \
    --exact-max-empties 14 --mobility --own-phase --out "$dir/eval.bin" --force || exit 2
if cmp "$dir/eval.bin" "$root/weights/eval.bin"; then
    echo "eval.bin equals weights/eval.bin byte for byte"
else
    echo "eval.bin differs from weights/eval.bin" >&2
    exit 1
fi
