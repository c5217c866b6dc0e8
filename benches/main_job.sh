#!/usr/bin/env bash
# The main job, old binary against new, in one sitting: wall time and peak
# RSS of `--size 64x64 --count COUNT --algo ALGOS` with the default threads, and the new
# binary with one thread against two (the thread-scaling target).
#
#   benches/main_job.sh OLD_BIN NEW_BIN [COUNT] [ALGOS] [REPS]
#
# e.g. benches/main_job.sh ../base/target/release/batchgen target/release/batchgen 100000 all 2
#
# Runs of the two binaries alternate REPS times; medians are reported. The full job
# (`--count 1000000 --algo all`) takes about 14 minutes on 2 cores (README, "The main job");
# a tenth of it gives the same ratios within a few percent. Wall time is
# what the user waits for, so nothing else should run meanwhile.
set -euo pipefail
old=$1
new=$2
count=${3:-100000}
algos=${4:-all}
reps=${5:-2}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=benches/lib.sh
source "$(dirname "$0")/lib.sh"

run() { # BIN THREADS -> "wall_s peak_mb"
    local t
    t=$( { /usr/bin/time -f "%e %M" "$1" --algo "$algos" --size 64x64 --count "$count" \
        ${2:+--threads "$2"} -q --out "$dir/out.parquet" >/dev/null; } 2>&1 | tail -1)
    awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.2f %.1f\n", a[1], a[2] / 1024 }'
}

for _ in $(seq "$reps"); do
    run "$old" "" >>"$dir/old"
    run "$new" "" >>"$dir/new"
    run "$new" 1 >>"$dir/new1"
done
o=$(cut -d' ' -f1 "$dir/old" | median)
n=$(cut -d' ' -f1 "$dir/new" | median)
n1=$(cut -d' ' -f1 "$dir/new1" | median)
printf "main job --algo %s --size 64x64 --count %s, %s runs each (median wall s, peak RSS MB)\n" \
    "$algos" "$count" "$reps"
printf "%-16s %10s s %8s MB\n" old "$o" "$(cut -d' ' -f2 "$dir/old" | median)"
printf "%-16s %10s s %8s MB\n" new "$n" "$(cut -d' ' -f2 "$dir/new" | median)"
printf "%-16s %10s s %8s MB\n" "new, 1 thread" "$n1" "$(cut -d' ' -f2 "$dir/new1" | median)"
awk -v o="$o" -v n="$n" -v n1="$n1" \
    'BEGIN { printf "old / new: %.2fx   new 1 thread / default threads: %.2fx\n", o / n, n1 / n }'
