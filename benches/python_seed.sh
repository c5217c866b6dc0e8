#!/usr/bin/env bash
# batchgen at 20×20 against the seed study's Python, in one sitting.
#
#   benches/python_seed.sh [BIN] [REPS] [COUNT]
#
# Runs `benches/python/maze_metrics.py` (the seed's script, verbatim; only its printed
# precision is raised here, on a temporary copy, from 0.1 to 0.001 ms) REPS times, and
# `BIN --algo A --size 20x20 --count COUNT --threads 1` for the same three generators REPS times
# (CPU time per maze, Parquet included), and prints the medians and the ratio. The Python
# times generation only, batchgen the whole process: the ratio is in Python's favour.
set -euo pipefail
bin=${1:-target/release/batchgen}
reps=${2:-3}
count=${3:-40000}
here=$(dirname "$0")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=benches/lib.sh
source "$here/lib.sh"

sed 's/{elapsed:5.1f} ms per maze/{elapsed:.3f} ms per maze/' "$here/python/maze_metrics.py" \
    >"$dir/maze_metrics.py"
grep -q '{elapsed:.3f} ms per maze' "$dir/maze_metrics.py" ||
    { echo "python_seed.sh: the script's timing line has changed" >&2; exit 1; }
for _ in $(seq "$reps"); do
    python3 "$dir/maze_metrics.py" >>"$dir/py.out"
done

printf "%-14s %12s %12s %9s   (20x20; Python: %s runs of 200 mazes; batchgen: %s runs of --count %s)\n" \
    algo "python ms" "batchgen us" ratio "$reps" "$reps" "$count"
for pair in "recursive backtracker:backtracker" "Kruskal:kruskal" "Wilson:wilson"; do
    name=${pair%%:*}
    algo=${pair##*:}
    py=$(grep "^$name " "$dir/py.out" | sed -E 's/.*\( *([0-9.]+) ms per maze\)/\1/' | median)
    : >"$dir/bg"
    for _ in $(seq "$reps"); do
        cpu_us_per_maze "$bin" "$algo" 20x20 "$count" "$dir/out.parquet" >>"$dir/bg"
    done
    bg=$(median <"$dir/bg")
    printf "%-14s %12s %12s %8.0fx\n" "$algo" "$py" "$bg" "$(awk -v p="$py" -v b="$bg" 'BEGIN { print p * 1000 / b }')"
done
