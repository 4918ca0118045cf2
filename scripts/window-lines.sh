#!/usr/bin/env bash
# The windows of issue 69 around each position's published value v, as batch input lines
# that give their own window (`; window A,B;`): [v-1,v+1] (the exact v comes back),
# [v+1,v+9] (an upper bound U, v <= U <= v+1) and [v-9,v-1] (a lower bound L,
# v-1 <= L <= v), each kept within -64..64. v is the best MOVE:SCORE of the line (or its
# score alone).
#
#   scripts/window-lines.sh suites/fforum-40-59.obf > windows.obf
#   finale batch windows.obf --out windows.csv
#   scripts/window-lines.sh --check windows.obf windows.csv
#
# --check reads the batch's rows back (by line of windows.obf) and prints one line per
# row that does not answer its window as v says, then a count; exit 1 if any.
set -euo pipefail
clamp() { local x=$1 lo=$2 hi=$3; ((x < lo)) && x=$lo; ((x > hi)) && x=$hi; echo "$x"; }
value_of() {
  # The best listed score, or a score given alone.
  tr ';' '\n' <<<"$1" | sed -n '2,$p' | sed 's/^ *//; s/ *$//' | grep -v '^window' |
    sed 's/^[A-Ha-h][1-8]://' | grep -E '^[+-]?[0-9]+$' | sed 's/^+//' | sort -n | tail -1
}
if [ "${1:-}" != "--check" ]; then
  [ $# -eq 1 ] || { echo "usage: $0 FILE.obf | $0 --check WINDOWS.obf OUT.csv" >&2; exit 2; }
  while IFS= read -r line; do
    body=${line%%%*}
    [ -n "${body// /}" ] || continue
    v=$(value_of "$body")
    [ -n "$v" ] || { echo "$0: no published value on: $line" >&2; exit 2; }
    base=$(sed 's/;* *$//' <<<"$body")
    echo "$base; window $(clamp $((v - 1)) -64 63),$(clamp $((v + 1)) -63 64); % value $v"
    echo "$base; window $(clamp $((v + 1)) -64 63),$(clamp $((v + 9)) -63 64); % value $v"
    echo "$base; window $(clamp $((v - 9)) -64 63),$(clamp $((v - 1)) -63 64); % value $v"
  done <"$1"
  exit 0
fi
[ $# -eq 3 ] || { echo "usage: $0 --check WINDOWS.obf OUT.csv" >&2; exit 2; }
# Line number -> published value, from the comments written above.
awk -F, -v obf="$2" '
  BEGIN {
    n = 0
    while ((getline l < obf) > 0) { n++; if (match(l, /% value -?[0-9]+/)) v[n] = substr(l, RSTART + 8, RLENGTH - 8) + 0 }
  }
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  {
    line = $c["line"]; a = $c["alpha"] + 0; b = $c["beta"] + 0; lo = $c["lower"] + 0; up = $c["upper"] + 0
    val = v[line]; rows++; bad = 0
    if ($c["status"] != "solved" || lo > val || up < val) bad = 1
    else if (a < val && val < b) { if (lo != val || up != val) bad = 1 }
    else if (val <= a) { if (up > a) bad = 1 }
    else if (lo < b) bad = 1
    if (bad) { wrong++; printf "wrong: line %s window %d,%d value %d bounds %d..%d (%s)\n", line, a, b, val, lo, up, $c["status"] }
  }
  END { printf "rows %d  answering their window %d  wrong %d\n", rows, rows - wrong, wrong; exit (wrong > 0) }
' "$3"
