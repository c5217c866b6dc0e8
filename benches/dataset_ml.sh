#!/usr/bin/env bash
# benches/dataset_ml.sh: `batchgen dataset-ml` on N 16x16 Wilson mazes with tokens,
# deduplicated (exact) and split, against maze-dataset 1.4.2 generating M 16x16 Wilson mazes,
# removing duplicates and tokenizing them with its default tokenizer, in the same sitting.
# Prints wall time, CPU time and peak RSS of each (GNU time) and the per-maze ratio.
#
#   benches/dataset_ml.sh [N=1000000] [M=1000]
#
# Needs a release build (cargo build --release) and a Python with maze-dataset==1.4.2 and
# muutils==0.8.12 (PYTHON=..., default: the test venv target/python-venv/bin/python).
set -euo pipefail
N=${1:-1000000}
M=${2:-1000}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BATCHGEN:-$root/target/release/batchgen}
py=${PYTHON:-$root/target/python-venv/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

measure() { # label, command...
  local label=$1; shift
  /usr/bin/time -v "$@" 2>"$work/$label.time" >/dev/null || { cat "$work/$label.time"; exit 1; }
  grep -v '^\s' "$work/$label.time" | grep -v 'Command exited' || true
  local wall user sys rss
  wall=$(grep 'Elapsed (wall clock)' "$work/$label.time" | awk '{print $NF}')
  user=$(grep 'User time' "$work/$label.time" | awk '{print $NF}')
  sys=$(grep 'System time' "$work/$label.time" | awk '{print $NF}')
  rss=$(grep 'Maximum resident' "$work/$label.time" | awk '{print $NF}')
  echo "$label: wall $wall, cpu $(echo "$user + $sys" | bc) s, peak RSS $rss kB"
  # wall time in seconds for the ratio
  echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }' >"$work/$label.wall"
}

measure batchgen "$bin" dataset-ml --algo wilson --size 16x16 --count "$N" --dedup exact \
  --out "$work/ds"
grep -A5 '^| split' "$work/ds/README.md"

cat >"$work/md.py" <<PY
import time
t0 = time.perf_counter()
from maze_dataset import MazeDataset, MazeDatasetConfig
from maze_dataset.generation import LatticeMazeGenerators
from maze_dataset.tokenization import MazeTokenizer, TokenizationMode
t1 = time.perf_counter()
cfg = MazeDatasetConfig(name="bench", grid_n=16, n_mazes=$M,
                        maze_ctor=LatticeMazeGenerators.gen_wilson)
ds = MazeDataset.from_config(cfg, load_local=False, save_local=False, do_download=False)
ds = ds.filter_by.remove_duplicates()
tok = MazeTokenizer(tokenization_mode=TokenizationMode.AOTP_UT_uniform)
n = sum(len(m.as_tokens(tok)) for m in ds)
import sys
print(f"maze-dataset in-process (imports excluded): {time.perf_counter() - t1:.2f} s for {len(ds)} mazes, {n} tokens", file=sys.stderr)
PY
measure maze-dataset "$py" "$work/md.py"

awk -v n="$N" -v m="$M" -v a="$(cat "$work/batchgen.wall")" -v b="$(cat "$work/maze-dataset.wall")" \
  'BEGIN { pa = a / n; pb = b / m;
           printf "per maze: batchgen %.3g s, maze-dataset %.3g s: %.0fx\n", pa, pb, pb / pa }'
