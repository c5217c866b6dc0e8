#!/usr/bin/env bash
# Whole-process time per maze, old binary against new, in one sitting.
#
#   benches/whole_process.sh OLD_BIN NEW_BIN [SIZE] [COUNT] [REPS] [ALGOS]
#
# e.g. build an older commit in its own worktree and target dir (benches/report.sh does), then
#   benches/whole_process.sh ../base/target/release/batchgen target/release/batchgen 64x64 5000 5
#
# Each run is `--algo A --size SIZE --count COUNT --threads 1 -q --out FILE` (generation,
# metrics and Parquet included). Runs of the two binaries alternate, REPS times, and the median
# of each is reported as CPU (user + sys) microseconds per maze, with the old/new ratio. CPU time
# is used rather than wall time because the machine may be shared; it still varies with load
# (caches, SMT), so compare the ratio, measured side by side, not the absolute numbers.
set -euo pipefail
old=$1
new=$2
size=${3:-64x64}
count=${4:-5000}
reps=${5:-5}
algos=${6:-backtracker,kruskal,wilson}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=benches/lib.sh
source "$(dirname "$0")/lib.sh"

printf "%-22s %12s %12s %8s   (%s, --count %s, %s runs each, CPU us per maze, median)\n" \
    algo old new ratio "$size" "$count" "$reps"
for algo in ${algos//,/ }; do
    : >"$dir/old"
    : >"$dir/new"
    for _ in $(seq "$reps"); do
        cpu_us_per_maze "$old" "$algo" "$size" "$count" "$dir/out.parquet" >>"$dir/old"
        cpu_us_per_maze "$new" "$algo" "$size" "$count" "$dir/out.parquet" >>"$dir/new"
    done
    o=$(median <"$dir/old")
    n=$(median <"$dir/new")
    printf "%-22s %12s %12s %7.2fx\n" "$algo" "$o" "$n" "$(awk -v o="$o" -v n="$n" 'BEGIN { print o / n }')"
done
