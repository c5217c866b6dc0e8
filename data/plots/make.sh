#!/usr/bin/env bash
# The pictures in this folder: `batchgen plot` on a small run of all 14 generators (one panel
# each), and on two generators with a rectangle filter (its exact region shaded).
#
#   data/plots/make.sh [BATCHGEN]      (default target/release/batchgen)
set -euo pipefail
bin=${1:-target/release/batchgen}
here=$(dirname "$0")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin" --algo all --size 16x16 --count 2000 -q --out "$dir/m.parquet"
"$bin" plot "$dir/m.parquet" -o "$dir/all"
"$bin" plot "$dir/m.parquet" -o "$dir/two" --algo backtracker,wilson \
    --accept 'dead_end_share BETWEEN 0.25 AND 0.3 AND solution_length >= 40'
cp "$dir/all/hist_gen_ns.png" "$here/facet_hist_gen_ns.png"
cp "$dir/all/density_solution_length_vs_dead_end_share.png" "$here/facet_density.png"
cp "$dir/two/hist_dead_end_share.png" "$here/hist_dead_end_share.png"
cp "$dir/two/density_solution_length_vs_dead_end_share.png" \
    "$here/density_solution_length_vs_dead_end_share.png"
