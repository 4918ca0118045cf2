#!/usr/bin/env bash
# Side-by-side timing of finale binaries on one OBF file: runs them in turn, ROUNDS times,
# and prints each binary's node count and the median, min and max of its suite time.
# On a shared, noisy machine only ratios measured this way mean anything.
#
#   scripts/ab-suite.sh suites/fforum-40-49.obf 3 ./finale-before ./finale-after [-- suite args]
#
# Every binary searches with one thread (reproducible node counts, and older binaries had
# no other) unless the extra arguments give --threads.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 FILE ROUNDS BINARY... [-- extra suite arguments]" >&2
  exit 2
fi
file=$1 rounds=$2
shift 2
bins=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do bins+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
extra=("$@")
case " ${extra[*]:-} " in
  *" --threads"*) ;;
  *) extra+=(--threads 1) ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((r = 1; r <= rounds; r++)); do
  for i in "${!bins[@]}"; do
    out=$("${bins[$i]}" suite "$file" --csv "$tmp/$i.csv" "${extra[@]}") || true
    awk '$1 == "time" {print $2}' <<<"$out" >>"$tmp/$i.times"
    awk '$1 == "nodes" {print $2}' <<<"$out" >"$tmp/$i.nodes"
  done
done
for i in "${!bins[@]}"; do
  echo "${bins[$i]} times in run order: $(tr '\n' ' ' <"$tmp/$i.times")"
done
for i in "${!bins[@]}"; do
  sort -n "$tmp/$i.times" | awk -v b="${bins[$i]}" -v n="$(cat "$tmp/$i.nodes")" \
    '{t[NR]=$1} END {printf "%s: nodes %s, time median %s s (min %s, max %s, %d runs)\n", b, n, t[int((NR+1)/2)], t[1], t[NR], NR}'
done
