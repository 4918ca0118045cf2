#!/usr/bin/env bash
# Slurm job array: solve a big OBF input overnight on many machines, one shard per task.
#
#   sbatch scripts/slurm-batch.sh positions.obf out/          (submits 16 shards)
#   sbatch --array=0-63 scripts/slurm-batch.sh positions.obf out/
#
# Each task runs `finale batch` on its shard: finale reads SLURM_ARRAY_TASK_ID,
# SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT itself, so shard i of n takes the
# positions whose key is i mod n (disjoint, covering the input, independent of line order).
# A task that is killed or preempted (--requeue) resumes where it stopped: rerunning skips
# the keys already in its CSV, and a row torn by the kill is dropped, never duplicated.
# When all tasks are done, join the shards:
#
#   finale merge out/shard-*.csv --out out/all.csv
#
# or let Slurm do it: sbatch --dependency=afterok:<array job id> --wrap \
#   'finale merge out/shard-*.csv --out out/all.csv'
#
#SBATCH --job-name=finale-batch
#SBATCH --array=0-15
#SBATCH --cpus-per-task=8
#SBATCH --mem=8G
#SBATCH --time=12:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=finale-batch-%A_%a.log
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: sbatch $0 INPUT.obf... OUT_DIR/" >&2
  exit 2
fi
out_dir=${*: -1}
inputs=("${@:1:$#-1}")
mkdir -p "$out_dir"

# finale on PATH, or FINALE=/path/to/finale (build it on the machine kind that runs it:
# release builds use -C target-cpu=native).
finale=${FINALE:-finale}
threads=${SLURM_CPUS_PER_TASK:-1}
# One table per position solved at once: keep threads * hash within --mem.
hash_mb=${HASH_MB:-512}
time_limit=${TIME_LIMIT:-3600}

exec "$finale" batch "${inputs[@]}" \
  --out "$out_dir/shard-${SLURM_ARRAY_TASK_ID:?not running as a Slurm array task}.csv" \
  --threads "$threads" --hash-mb "$hash_mb" --time-limit "$time_limit" --no-progress
