#!/usr/bin/env bash
# GNU parallel: solve an OBF input in N shards, on this machine or on several over ssh.
#
#   scripts/parallel-batch.sh positions.obf out/ 8                # 8 shards on this machine
#   HOSTS=nodes.txt scripts/parallel-batch.sh positions.obf out/ 32 # over ssh (parallel's
#                                                                 # --sshloginfile format)
#
# Shard i of n holds the positions whose key is i mod n. Each shard writes its own CSV,
# so a shard that dies (a reboot, a lost ssh link) is simply rerun: finale resumes, skipping
# the keys already in that CSV. parallel's --retries reruns failed shards, and the whole
# command can be run again after an interruption. Over ssh, the input and output paths must
# be on a shared file system and finale on each host's PATH (or FINALE=/path).
# At the end the shards are merged into OUT_DIR/all.csv; conflicting rows make merge exit 1.
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 INPUT.obf OUT_DIR/ SHARDS  (env: HOSTS=sshloginfile, JOBS, THREADS, HASH_MB, TIME_LIMIT, FINALE)" >&2
  exit 2
fi
input=$1 out_dir=$2 shards=$3
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "error: SHARDS must be a positive integer, got '$shards'" >&2; exit 2; }
[ -f "$input" ] || { echo "error: $input: no such file" >&2; exit 2; }
command -v parallel >/dev/null || { echo "error: GNU parallel is not installed (apt install parallel)" >&2; exit 2; }
mkdir -p "$out_dir"

finale=${FINALE:-finale}
jobs=${JOBS:-1}            # shards at once per host
threads=${THREADS:-0}      # positions at once per shard (0: all cores / JOBS)
if [ "$threads" = 0 ]; then
  threads=$(( $(nproc) / jobs ))
  [ "$threads" -ge 1 ] || threads=1
fi
hash_mb=${HASH_MB:-256}
time_limit=${TIME_LIMIT:-3600}

remote=()
[ -n "${HOSTS:-}" ] && remote=(--sshloginfile "$HOSTS")

seq 0 $((shards - 1)) | parallel "${remote[@]}" --jobs "$jobs" --retries 3 --halt never \
  --joblog "$out_dir/parallel.joblog" --tagstring 'shard {}' \
  "$finale" batch "$input" --out "$out_dir/shard-{}.csv" --shard "{}/$shards" \
  --threads "$threads" --hash-mb "$hash_mb" --time-limit "$time_limit" --no-progress

"$finale" merge "$out_dir"/shard-*.csv --out "$out_dir/all.csv" --force
