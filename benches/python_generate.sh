#!/usr/bin/env bash
# The Python package against the CLI and against maze-dataset, on this machine.
#
#   benches/python_generate.sh [PYTHON] [BIN] [COUNT] [THREADS] [REPS]
#
# PYTHON has batchgen, pyarrow and maze-dataset installed (default: the venv `cargo test
# --release --test tests -- python::` builds, target/python-venv/bin/python); BIN is the CLI
# (default target/release/batchgen). Prints:
# 1. per maze, `batchgen.generate("wilson", "32x32", COUNT, threads=THREADS)` (the call alone,
#    inside an already running interpreter) against the CLI's whole process for the same run
#    (`--out` a Parquet file), medians of REPS alternating runs of wall time, and their ratio;
# 2. peak memory of generate() at COUNT/10 and COUNT mazes, with the table's own bytes, so
#    what the run holds besides the table can be compared (it should not grow with COUNT);
# 3. mazes per second at 32x32 of maze-dataset's gen_dfs, gen_kruskal and gen_wilson, and of
#    batchgen's backtracker, kruskal and wilson on one thread, one Level() per maze and in a
#    generate() batch of 10000 (median of 3 calls after a warm-up).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py=${1:-$root/target/python-venv/bin/python}
bin=${2:-$root/target/release/batchgen}
count=${3:-1000000}
threads=${4:-$(nproc)}
reps=${5:-5}
script=$root/benches/python/generate_speed.py
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=benches/lib.sh
source "$root/benches/lib.sh"

: >"$dir/cli"
: >"$dir/py"
for _ in $(seq "$reps"); do
    { /usr/bin/time -f "%e" "$bin" --algo wilson --size 32x32 --count "$count" \
        --threads "$threads" -q --out "$dir/m.parquet" >/dev/null; } 2>&1 | tail -1 >>"$dir/cli"
    "$py" "$script" generate wilson 32x32 "$count" "$threads" >>"$dir/py"
done
cli=$(median <"$dir/cli")
pyt=$(median <"$dir/py")
awk -v c="$cli" -v p="$pyt" -v n="$count" -v t="$threads" -v r="$reps" 'BEGIN {
    printf "wilson 32x32 x %d, %d threads, median of %d: CLI whole process %.3f s (%.0f ns/maze), generate() %.3f s (%.0f ns/maze), ratio %.3f\n",
        n, t, r, c, c * 1e9 / n, p, p * 1e9 / n, p / c }'

for n in $((count / 10)) "$count"; do
    read -r peak table < <("$py" "$script" memory wilson 32x32 "$n" "$threads")
    awk -v n="$n" -v p="$peak" -v t="$table" 'BEGIN {
        printf "generate() of %d mazes: peak RSS %.1f MB, table %.1f MB, peak minus table %.1f MB\n",
            n, p / 1e6, t / 1e6, (p - t) / 1e6 }'
done

"$py" "$script" maze-dataset 32 10
"$py" "$script" batchgen 32 3
