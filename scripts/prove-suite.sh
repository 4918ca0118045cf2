#!/usr/bin/env bash
# Proves every position of an OBF file with `finale prove` (one work folder each under
# DIR), checks each proof with `prove --check`, and prints a table: the published value,
# the proven bounds, the check's bounds, rounds, leaf rows, leaf nodes, the largest leaf
# the prediction nodes and the leaves' probable checks' nodes.
#
#   scripts/prove-suite.sh suites/fforum-40-49.obf DIR FRONTIER [finale prove arguments]
#
# FINALE names the binary (default: target/release/finale). A rerun resumes each proof.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 FILE.obf DIR FRONTIER [prove arguments]" >&2; exit 2; }
file=$1 dir=$2 frontier=$3
shift 3
finale=${FINALE:-target/release/finale}
mkdir -p "$dir"
echo "index published proven check rounds leaf_rows leaf_nodes largest_leaf predict_nodes check_nodes"
n=0
grep -v '^ *%' "$file" | grep -v '^ *$' | while IFS= read -r line; do
  n=$((n + 1))
  position=$(cut -d';' -f1 <<<"$line")
  published=$(tr ';' '\n' <<<"$line" | sed -n '2,$p' | sed 's/^ *[A-Ha-h][1-8]://; s/^ *//; s/^+//' |
    grep -E '^-?[0-9]+ *$' | sort -n | tail -1 | tr -d ' ' || true)
  work="$dir/$(printf '%02d' "$n")"
  # shellcheck disable=SC2086
  out=$("$finale" prove $position --dir "$work" --frontier "$frontier" --no-progress "$@")
  check=$("$finale" prove --check --dir "$work" --sample 3 | tail -1)
  rounds=$(grep -c '^round' <<<"$out" || true)
  totals=$(grep '^leaf rows' <<<"$out")
  read -r _ _ rows _ _ lnodes _ _ largest _ _ pnodes _ _ cnodes _ <<<"$totals"
  echo "$n ${published:-?} $(tail -1 <<<"$out" | cut -d' ' -f2-3 | tr ' ' ,) $(cut -d' ' -f2-3 <<<"$check" | tr ' ' ,) $rounds $rows $lnodes $largest $pnodes $cnodes"
done
