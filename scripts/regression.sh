#!/usr/bin/env bash
# Speed and search regression check of the working tree against a base revision.
#
#   scripts/regression.sh BASE_REV [ROUNDS]        (ROUNDS default 5)
#
# Builds BASE_REV (in a temporary git worktree) and the current tree in release mode, then
# runs `finale bench` with both binaries in turn, ROUNDS times (base, head, base, head, ...),
# so that both see the same machine load. Prints:
#   - the bench node counts: they must be identical unless the search changed (a change of
#     search behaviour updates bench.signature and says `Bench: N` in its commit message);
#   - the time of each round and the head/base time ratio per round, its median and spread.
# With SUITE=FILE.obf each round also runs `finale suite FILE` with both binaries; every
# position must be right.
#
# Exit code: 0 when head is correct and not slower than MAX_SLOWDOWN percent (default 3) by
# the median ratio with the fastest round also slower (a slowdown beyond noise); 1 when
# nodes differ and EXPECT_SAME_NODES=1, a suite position is wrong, or head is slower;
# 2 for usage errors or a failed build.
set -euo pipefail

usage() {
  echo "usage: $0 BASE_REV [ROUNDS]  (env: SUITE=FILE.obf, MAX_SLOWDOWN=3, EXPECT_SAME_NODES=0)" >&2
  exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
base_rev=$1
rounds=${2:-5}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "error: ROUNDS must be a positive integer, got '$rounds'" >&2; exit 2; }
max_slowdown=${MAX_SLOWDOWN:-3}
suite=${SUITE:-}
if [ -n "$suite" ] && [ ! -f "$suite" ]; then
  echo "error: SUITE=$suite: no such file" >&2
  exit 2
fi

root=$(git rev-parse --show-toplevel)
cd "$root"
base_sha=$(git rev-parse --verify --quiet "$base_rev^{commit}") ||
  { echo "error: $base_rev is not a commit of this repository" >&2; exit 2; }
head_sha=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- || head_sha="$head_sha+dirty"

tmp=$(mktemp -d)
cleanup() {
  git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "building base ${base_sha:0:7} ..." >&2
git worktree add --detach --quiet "$tmp/base" "$base_sha"
# Separate target directories: neither build disturbs the other's or the user's cache.
if ! (cd "$tmp/base" && CARGO_TARGET_DIR="$root/target/regression-base" \
  cargo build --release --quiet); then
  echo "error: base ${base_sha:0:7} does not build" >&2
  exit 2
fi
cp "$root/target/regression-base/release/finale" "$tmp/finale-base"
echo "building head $head_sha ..." >&2
cargo build --release --quiet || { echo "error: the working tree does not build" >&2; exit 2; }
cp "$root/target/release/finale" "$tmp/finale-head"
if ! "$tmp/finale-base" bench --help >/dev/null 2>&1; then
  echo "error: base ${base_sha:0:7} has no bench command (it predates 74bc8a3)" >&2
  exit 2
fi

status=0
# bench_once BIN OUTFILE: prints nodes and milliseconds from the last line.
bench_once() {
  "$1" bench >"$2" 2>&1 || { echo "error: $1 bench failed:" >&2; tail -3 "$2" >&2; exit 2; }
  awk '/^bench:/{print $2, $4}' "$2" | tail -1
}
for ((r = 1; r <= rounds; r++)); do
  for side in base head; do
    line=$(bench_once "$tmp/finale-$side" "$tmp/bench-$side.txt")
    read -r nodes ms <<<"$line"
    echo "$nodes" >"$tmp/$side.nodes"
    echo "$ms" >>"$tmp/$side.ms"
    if [ -n "$suite" ]; then
      if ! "$tmp/finale-$side" suite "$suite" --csv "$tmp/suite-$side-$r.csv" >"$tmp/suite-$side.txt" 2>&1; then
        echo "round $r: $side got a position of $suite wrong (or failed):" >&2
        grep -E '^(wrong|error)' "$tmp/suite-$side.txt" >&2 || tail -3 "$tmp/suite-$side.txt" >&2
        status=1
      fi
    fi
  done
  echo "round $r/$rounds: base $(tail -1 "$tmp/base.ms") ms, head $(tail -1 "$tmp/head.ms") ms" >&2
done

base_nodes=$(cat "$tmp/base.nodes")
head_nodes=$(cat "$tmp/head.nodes")
echo "base ${base_sha:0:7}: bench $base_nodes nodes"
echo "head $head_sha: bench $head_nodes nodes"
if [ "$base_nodes" = "$head_nodes" ]; then
  echo "nodes: identical"
else
  awk -v a="$base_nodes" -v b="$head_nodes" \
    'BEGIN{printf "nodes: differ, head/base %.4f (the search changed: bench.signature must change with it)\n", b/a}'
  [ "${EXPECT_SAME_NODES:-0}" = 1 ] && status=1
fi
# Per-round ratios head/base, then median and spread.
paste "$tmp/base.ms" "$tmp/head.ms" | awk '{printf "%.4f\n", $2/$1}' | sort -n >"$tmp/ratios"
verdict=$(awk -v max="$max_slowdown" '
  {r[NR]=$1}
  END {
    med = (NR % 2) ? r[(NR+1)/2] : (r[NR/2] + r[NR/2+1]) / 2
    printf "time: head/base median %.3f (min %.3f, max %.3f, %d rounds)\n", med, r[1], r[NR], NR
    if (NR < 3) { print "verdict: too few rounds to tell speed from noise (use 3 or more)"; exit 0 }
    if (med > 1 + max/100 && r[1] > 1) { print "verdict: SLOWER beyond noise"; exit 1 }
    if (med < 1 - max/100 && r[NR] < 1) { print "verdict: faster beyond noise"; exit 0 }
    print "verdict: same speed within noise (threshold " max " %)"
  }' "$tmp/ratios") || status=1
echo "$verdict"
exit $status
