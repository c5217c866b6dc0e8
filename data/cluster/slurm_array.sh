#!/bin/bash
# A Slurm job array: 16 tasks, each one shard of the run (batchgen reads SLURM_ARRAY_TASK_ID,
# SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT itself). Submit with
#   sbatch data/cluster/slurm_array.sh
# then check the folder (and re-run only what it names) with
#   batchgen check "$OUT"
#SBATCH --job-name=batchgen
#SBATCH --array=0-15
#SBATCH --cpus-per-task=4
#SBATCH --mem=1G
#SBATCH --output=batchgen-%A_%a.log
set -euo pipefail
# A folder every node sees (shared file system). A failed task can be re-run alone
# (sbatch --array=5 data/cluster/slurm_array.sh): it overwrites only its own files.
OUT=${OUT:-$HOME/mazes/}
batchgen --algo all --size 128x128 --count 1000000 --seed 42 --quiet \
    --threads "${SLURM_CPUS_PER_TASK:-1}" --out "$OUT"
