#!/usr/bin/env bash
# The README's level pipeline, from thresholds to a Tiled map, and the picture of that map as
# Tiled's own renderer draws it: data/levels/tiled-map.png. Needs Debian's `tiled` package
# (tmxrasterizer); runs headless.
#
#   data/levels/example.sh [BIN]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$repo/target/release/batchgen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
filter='solution_length >= 90 AND dead_end_share < 0.28'
"$bin" --algo wilson,backtracker --size 24x16 --count 2000 --seed 7 --out run.parquet --quiet
"$bin" summary run.parquet --accept "$filter"
"$bin" levels run.parquet --accept "$filter" --count 1 --format tmx --out maps
map=$(ls maps/wilson-24x16-*.tmx)
QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=$work tmxrasterizer "$map" "$repo/data/levels/tiled-map.png"
echo "drew $map"
