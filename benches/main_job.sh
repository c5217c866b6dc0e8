#!/usr/bin/env bash
# The main job, old binary against new, in one sitting: wall time, CPU time (user + sys) and
# peak RSS of `--size 64x64 --count COUNT --algo ALGOS` with the default threads, and the new
# binary with one thread against two (the thread-scaling target; ONE_THREAD=0 skips it).
#
#   benches/main_job.sh OLD_BIN NEW_BIN [COUNT] [ALGOS] [REPS]
#
# e.g. benches/main_job.sh ../base/target/release/batchgen target/release/batchgen 100000 all 2
#
# Runs of the two binaries alternate REPS times; medians are reported. The full job
# (`--count 1000000 --algo all`) takes about 8 to 9 minutes on 2 cores (README, "The main job");
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

run() { # BIN THREADS -> "wall_s peak_mb cpu_s"
    local t
    t=$( { /usr/bin/time -f "%e %M %U %S" "$1" --algo "$algos" --size 64x64 --count "$count" \
        ${2:+--threads "$2"} -q --out "$dir/out.parquet" >/dev/null; } 2>&1 | tail -1)
    awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.2f %.1f %.2f\n", a[1], a[2] / 1024, a[3] + a[4] }'
}

one_thread=${ONE_THREAD:-1}
for _ in $(seq "$reps"); do
    run "$old" "" >>"$dir/old"
    run "$new" "" >>"$dir/new"
    if [ "$one_thread" = 1 ]; then
        run "$new" 1 >>"$dir/new1"
    fi
done
col() { cut -d' ' -f"$1" "$dir/$2" | median; }
printf "main job --algo %s --size 64x64 --count %s, %s runs each (medians)\n" \
    "$algos" "$count" "$reps"
printf "%-16s %10s %10s %10s\n" "" "wall s" "CPU s" "peak MB"
for f in old new; do
    printf "%-16s %10s %10s %10s\n" "$f" "$(col 1 $f)" "$(col 3 $f)" "$(col 2 $f)"
done
awk -v o="$(col 1 old)" -v n="$(col 1 new)" -v oc="$(col 3 old)" -v nc="$(col 3 new)" \
    'BEGIN { printf "new / old: wall %.3fx, CPU %.3fx\n", n / o, nc / oc }'
if [ "$one_thread" = 1 ]; then
    printf "%-16s %10s %10s %10s\n" "new, 1 thread" "$(col 1 new1)" "$(col 3 new1)" "$(col 2 new1)"
    awk -v n="$(col 1 new)" -v n1="$(col 1 new1)" \
        'BEGIN { printf "new 1 thread / default threads: %.2fx wall\n", n1 / n }'
fi
