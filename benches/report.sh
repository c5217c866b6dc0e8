#!/usr/bin/env bash
# The benches side by side against another commit, written as one results table.
#
#   benches/report.sh BASELINE [COUNT] [REPS] [OUT]
#
# BASELINE is a commit (a `git worktree` of it is made under target/report/ and built there
# with `cargo build --release`; set BASELINE_BIN=PATH to use an already built binary of that
# commit instead). The current working tree is built with `cargo build --release`. Then, the
# two binaries alternating REPS times (medians):
#   1. the whole process per maze, `--threads 1`, 64x64 and 20x20, backtracker, Kruskal and
#      Wilson (benches/whole_process.sh; COUNT mazes per run at 64x64, 4·COUNT at 20x20);
#   2. the main job's shape, `--algo all --size 64x64`, 10·COUNT mazes per generator (more than
#      one full 262,144-row group at the default): wall time, peak RSS, and one thread against
#      the default (benches/main_job.sh);
#   3. the stripped binary's size.
# The table goes to OUT (default benches/results.md) with the machine (CPU model, cores,
# memory), the date, both commits and the load average before and after, so a reader knows
# how loaded the machine was. Defaults: COUNT 2000, REPS 3: minutes, not the main job.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
base=${1:?usage: benches/report.sh BASELINE [COUNT] [REPS] [OUT]}
count=${2:-2000}
reps=${3:-3}
out=${4:-benches/results.md}
base_sha=$(git rev-parse --short "$base^{commit}")
head_sha=$(git rev-parse --short HEAD)
dirty=$(git status --porcelain --untracked-files=no | grep -q . && echo " (with uncommitted changes)" || true)

if [ -n "${BASELINE_BIN:-}" ]; then
    old=$BASELINE_BIN
else
    wt=target/report/base-$base_sha
    [ -d "$wt" ] || git worktree add --detach "$wt" "$base_sha" >/dev/null
    (cd "$wt" && CARGO_TARGET_DIR="$root/target/report/target-$base_sha" cargo build --release --quiet)
    old=$root/target/report/target-$base_sha/release/batchgen
fi
cargo build --release --quiet
new=$root/target/release/batchgen

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
    echo "### Whole process per maze, one thread (CPU µs per maze, median of $reps)"
    echo
    echo '```text'
    benches/whole_process.sh "$old" "$new" 64x64 "$count" "$reps"
    benches/whole_process.sh "$old" "$new" 20x20 $((4 * count)) "$reps"
    echo '```'
    echo
    echo "### The main job's shape, $((10 * count)) mazes per generator (wall s and peak RSS, median of $reps)"
    echo
    echo '```text'
    benches/main_job.sh "$old" "$new" $((10 * count)) all "$reps"
    echo '```'
    echo
    echo "### Binary size (stripped)"
    echo
    echo '```text'
    printf "%-16s %10s bytes\n" "$base_sha" "$(stat -c %s "$old")" "$head_sha" "$(stat -c %s "$new")"
    echo '```'
} >"$tmp"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
mem=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
{
    echo "# Bench results: $head_sha$dirty against $base_sha"
    echo
    echo "Written by \`benches/report.sh $base $count $reps\` on $(date -u '+%Y-%m-%d %H:%M UTC'):"
    echo "$cpu, $(nproc) cores, $mem; load average $load_before before and $load_after after"
    echo "(1, 5 and 15 minutes). Compare the ratios, measured side by side, rather than the absolute"
    echo "times: on a loaded machine both binaries slow down together. The main job itself is in"
    echo "the README; \`benches/README.md\` says what each bench measures."
    echo
    cat "$tmp"
} >"$out"
echo "wrote $out"
