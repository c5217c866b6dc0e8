#!/bin/sh
# Peak RSS per cell of one maze on one thread, per grid and generator, for
# memory::grid_bytes_per_cell: the run's peak minus that of a 4x4 (polar: 2-ring) run of the
# same grid, over the big grid's cells (2048x2048 hex and triangle, 1160 polar rings).
# Usage: benches/grid_memory.sh [BATCHGEN]   (default target/release/batchgen)
set -eu
B=${1:-target/release/batchgen}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# The peak RSS in kB of a run that succeeds; nothing for a refused one.
rss() {
    /usr/bin/time -f "%x %M" "$B" "$@" --count 1 --threads 1 --quiet --out "$T/m.parquet" \
        2>&1 >/dev/null | tail -1 | awk '$1 == 0 {print $2}'
}
for g in hex:2048x2048:4x4 triangle:2048x2048:4x4 polar:1160:2; do
    grid=$(echo "$g" | cut -d: -f1)
    size=$(echo "$g" | cut -d: -f2)
    small=$(echo "$g" | cut -d: -f3)
    base=$(rss --grid "$grid" --size "$small" --algo backtracker)
    for a in backtracker kruskal wilson aldous-broder prim growing-tree:mix:0.5 hunt-and-kill \
        wilson-straight:0.5 sidewinder binary-tree; do
        peak=$(rss --grid "$grid" --size "$size" --algo "$a" || true)
        case "$peak" in *[!0-9]* | "") continue ;; esac
        # cells = dead_ends / dead_end_share (the summary's means of one row).
        cells=$("$B" summary "$T/m.parquet" --format csv |
            awk -F, '$4=="dead_ends"{d=$5} $4=="dead_end_share"{s=$5} END{printf "%.0f", d/s}')
        echo "$grid $a cells=$cells bytes/cell=$(echo "($peak - $base) * 1024 / $cells" | bc -l | cut -c1-5)"
    done
done
