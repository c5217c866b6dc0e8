#!/usr/bin/env bash
# `batchgen levels` picking about 1,000 levels in every format from a metrics file: wall time
# and peak memory per format (GNU time), the levels written and the output's size.
#
#   benches/levels.sh FILE [BIN] [ACCEPT]
#
# FILE is a metrics file (or a glob or dataset folder) of the main job's kind, e.g. made with
# `batchgen --algo all --size 64x64 --count 50000 --out m.parquet`. The count per (algo, size)
# group is chosen so that about 1,000 levels are picked in all (1,000 / groups, rounded up);
# the contact sheets (png, svg) show at most 400 levels, so they pick 400 / groups. ACCEPT is
# the filter (default: 'solution_length >= 100 AND dead_end_share < 0.3', which passes rows
# of most generators of a 64x64 run). `first` stops reading a group once it has its levels;
# the `sample` line reads every row, so it shows the cost of a whole scan.
set -euo pipefail
file=${1:?usage: benches/levels.sh FILE [BIN] [ACCEPT]}
bin=${2:-$(dirname "$0")/../target/release/batchgen}
accept=${3:-solution_length >= 100 AND dead_end_share < 0.3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Groups: one line per (algo, size) in summary's CSV (header and one line per metric each).
groups=$("$bin" summary "$file" --format json | grep -c '"algo"' || true)
groups=$((groups > 0 ? groups : 1))
per=$(((1000 + groups - 1) / groups))
sheet=$(((400 + groups - 1) / groups))
echo "file: $file; groups: $groups; --count $per (sheets: $sheet); --accept '$accept'"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
run() {
    local label=$1 target=$2
    shift 2
    rm -rf "$target"
    local t
    t=$( { /usr/bin/time -f "%e s, peak %M kB" "$bin" levels "$file" --accept "$accept" "$@" \
        --out "$target" >/dev/null; } 2>&1 | tail -1)
    local n size
    if [ -d "$target" ]; then
        n=$(find "$target" -name '*-*-*.*' | wc -l)
    else
        n=-
    fi
    size=$(du -sh "$target" | cut -f1)
    printf '%-14s %s; files: %s; size: %s\n' "$label" "$t" "$n" "$size"
}
run "store" "$out/l.arrow" --count "$per" --format store
run "jsonl" "$out/l.jsonl" --count "$per" --format jsonl
run "json" "$out/json" --count "$per" --format json
run "tmx" "$out/tmx" --count "$per" --format tmx
run "tmj" "$out/tmj" --count "$per" --format tmj
run "png sheet" "$out/s.png" --count "$sheet" --format png
run "svg sheet" "$out/s.svg" --count "$sheet" --format svg
run "jsonl sample" "$out/s.jsonl" --count "$per" --pick sample --pick-seed 1 --format jsonl
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
