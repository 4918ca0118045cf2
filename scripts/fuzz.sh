#!/usr/bin/env bash
# Fuzzes finale's input parsers with cargo-fuzz (libFuzzer): runs every target in fuzz/
# in turn for SECONDS_PER_TARGET seconds (default 600), one fuzzer process at a time.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# Each target starts from the committed seeds in fuzz/seeds/TARGET and grows its own
# corpus in fuzz/corpus/TARGET (not committed). Logs go to fuzz/artifacts/TARGET.log and
# crash inputs to fuzz/artifacts/TARGET/. Prints per target the runs executed and the
# time taken; exits non-zero, naming the target and its crash input, if any target fails.
#
# Installs cargo-fuzz (`cargo install cargo-fuzz --locked`) when `cargo fuzz` is missing,
# and g++ (apt-get) when there is no C++ compiler for libFuzzer.
# cargo-fuzz needs a nightly compiler: the nightly toolchain when rustup has one,
# otherwise the stable one with RUSTC_BOOTSTRAP=1. FUZZ_TOOLCHAIN=nightly or
# FUZZ_TOOLCHAIN=stable forces one. Like .cargo/config.toml, builds for this machine's
# CPU (cargo-fuzz sets RUSTFLAGS, which would otherwise drop the config's flags), so the
# vector move generation kernels are the ones fuzzed; set RUSTFLAGS to override.
# Replay a crash: cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-600}
if ! [[ $secs =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [SECONDS_PER_TARGET] [TARGET...]" >&2
  exit 2
fi
[ $# -gt 0 ] && shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in fuzz/fuzz_targets/*.rs; do
    t=${f##*/}
    targets+=("${t%.rs}")
  done
fi
for t in "${targets[@]}"; do
  if [ ! -f "fuzz/fuzz_targets/$t.rs" ]; then
    echo "no fuzz target $t (fuzz/fuzz_targets/$t.rs)" >&2
    exit 2
  fi
done

# libFuzzer is C++, built by libfuzzer-sys: a fresh machine may lack the compiler.
if ! command -v c++ >/dev/null 2>&1 && ! command -v clang++ >/dev/null 2>&1; then
  echo "no C++ compiler found: installing g++"
  apt-get update -qq && apt-get install -y -qq g++ >/dev/null
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "cargo fuzz not found: installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

toolchain=()
choice=${FUZZ_TOOLCHAIN:-auto}
if [ "$choice" = auto ]; then
  choice=stable
  if command -v rustup >/dev/null 2>&1 && rustup toolchain list | grep '^nightly' >/dev/null; then
    choice=nightly
  fi
fi
case $choice in
  nightly) toolchain=(+nightly) ;;
  stable) export RUSTC_BOOTSTRAP=1 ;;
  *)
    echo "FUZZ_TOOLCHAIN must be nightly, stable or auto, not $choice" >&2
    exit 2
    ;;
esac
export RUSTFLAGS=${RUSTFLAGS:--C target-cpu=native}
echo "toolchain: $choice ($(rustc "${toolchain[@]}" --version)); RUSTFLAGS=$RUSTFLAGS"

# Build every target first so that the time given is all fuzzing.
cargo "${toolchain[@]}" fuzz build

mkdir -p fuzz/artifacts
# The batch and run_csv targets write scratch files on every run: keep them in memory
# where possible (ten times the runs of a disk-backed /tmp).
scratch_base=${TMPDIR:-/tmp}
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  scratch_base=/dev/shm
fi
scratch=$(mktemp -d "$scratch_base/finale-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
summary=()
failed=()
for t in "${targets[@]}"; do
  corpus=fuzz/corpus/$t
  seeds=fuzz/seeds/$t
  log=fuzz/artifacts/$t.log
  mkdir -p "$corpus" "$seeds"
  echo "fuzzing $t for $secs s (log: $log)"
  start=$(date +%s)
  status=0
  TMPDIR=$scratch cargo "${toolchain[@]}" fuzz run "$t" "$corpus" "$seeds" -- \
    -max_total_time="$secs" -timeout=30 -print_final_stats=1 >"$log" 2>&1 || status=$?
  took=$(($(date +%s) - start))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  if [ -z "$runs" ]; then
    runs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
  fi
  units=$(find "$corpus" -type f | wc -l)
  if [ "$status" -eq 0 ]; then
    line="$t: ok, ${runs:-?} runs in $took s, corpus $units inputs"
  else
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
    line="$t: FAILED (exit $status) after ${runs:-?} runs in $took s; input: ${artifact:-none written}; log: $log"
    failed+=("$t")
    echo "---- $t: what failed (whole log: $log)"
    what='panicked at|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|^error'
    if grep -q -E "$what" "$log"; then
      grep -E -A 6 "$what" "$log" | head -n 40 || true
    else
      tail -n 20 "$log"
    fi
    echo "----"
  fi
  echo "$line"
  summary+=("$line")
done

echo
echo "fuzz summary ($secs s per target):"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "no crash"
