#!/usr/bin/env bash
# Instructions per cell of each generator and of the metrics on the grids other than the square
# one, against the square grid, counted by valgrind's callgrind (repeatable where timings on a
# shared machine are not): a 64x64 square, hex and triangle grid and a 36-ring polar grid
# (3,931 cells against 4,096: rings of 1, 6, 12, 3 x 24, 6 x 48, 11 x 96 and 13 x 192 cells).
# Each grid's cell count is read from its first run's output (`BIN summary`: dead ends,
# junctions and corridors sum to the cells), not assumed.
#
#   benches/grids_callgrind.sh [BIN] [COUNT] [ALGOS]
#
# BIN must have symbols: build it with `cargo build --profile profiling` (the default,
# target/profiling/batchgen); the release profile strips them. Each (grid, generator) runs once as
# `BIN --algo A [--grid G] --size S --count COUNT --threads 1 -q --out FILE` under
# `valgrind --tool=callgrind`, and `callgrind_annotate --inclusive=yes` gives the instructions
# spent inside the generation call, maze reset included (`batchgen::generate::regenerate::
# regenerate_from_base` on the square grid, `batchgen::topo::generate::generate` on the others,
# or its `generate_pair` where a worker makes two mazes at once (the backtracker, hunt-and-kill);
# where the compiler inlined it into its caller, the outermost of the dispatcher
# `Algorithm::generate` and the generator's own `MODULE::generate` that has a symbol, or
# `MODULE::generate_pair` where a worker makes two mazes at once (Aldous–Broder); Kruskal's
# shared `join_in_random_order` where even its `generate` was inlined into the batch loop)
# and inside the metrics (`batchgen::metrics::measure` on the square grid, or `measure_pair` /
# `measure_2d_pair` where a worker measures two mazes at once (every two perfect 2D rows; an
# even COUNT measures every maze in pairs), `batchgen::topo::measure::measure` on the others), each with everything it calls. Printed: instructions per cell, and the ratio
# to the square grid. The metrics are counted over every generator's mazes (their trees
# differ), so each grid's metrics line sums all of its runs.
set -euo pipefail
bin=${1:-target/profiling/batchgen}
count=${2:-20}
algos=${3:-backtracker,kruskal,wilson,aldous-broder,prim,growing-tree,hunt-and-kill}
command -v valgrind >/dev/null || { echo "grids_callgrind.sh: valgrind is not installed" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
nm -C "$bin" >"$dir/symbols" 2>/dev/null || true
[[ -s $dir/symbols ]] || {
    echo "grids_callgrind.sh: $bin has no symbols (build it with --profile profiling)" >&2
    exit 2
}

grids=(square hex triangle polar)
declare -A flags=([square]="--size 64x64" [hex]="--grid hex --size 64x64"
    [triangle]="--grid triangle --size 64x64" [polar]="--grid polar --size 36")
declare -A cells

# Inclusive instructions of the functions whose name matches the regex $2 in profile $1 (the
# outermost match on each call path: a matching function called by another is not added again).
inclusive() {
    callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
        awk -v re="$2" '
            # Lines: "  1,234,567 (12.34%)  file:function [binary]".
            $1 ~ /^[0-9,]+$/ {
                fn = $0; sub(/^ *[0-9,]+ *(\([^)]*\))? */, "", fn); sub(/^[^:]*:/, "", fn)
                sub(/ \[[^]]*\]$/, "", fn)
                if (fn ~ re) { gsub(",", "", $1); if ($1 + 0 > best) best = $1 + 0 }
            }
            END { printf "%.0f\n", best }'
}

declare -A gen met
for grid in "${grids[@]}"; do
    met[$grid]=0
    for algo in ${algos//,/ }; do
        module=${algo%%:*}
        module=${module//-/_}
        if [[ $grid == square ]]; then
            gen_re="^batchgen::generate::(regenerate::regenerate_from_base|Algorithm::generate|${module}::generate|${module}::generate_pair|shared::join_in_random_order)$"
            met_re="^batchgen::metrics::(measure|measure_pair|measure_2d_pair)$"
        else
            gen_re="^batchgen::topo::generate::(generate|generate_pair|${module}::generate|${module}::generate_pair)$"
            met_re="^batchgen::topo::measure::measure$"
        fi
        out="$dir/$grid.$module.out"
        # shellcheck disable=SC2086 # the flags are words
        valgrind --tool=callgrind --callgrind-out-file="$out" \
            "$bin" --algo "$algo" ${flags[$grid]} --count "$count" --threads 1 -q \
            --out "$dir/out.parquet" 2>"$dir/log" || { cat "$dir/log" >&2; exit 1; }
        g=$(inclusive "$out" "$gen_re")
        m=$(inclusive "$out" "$met_re")
        if [[ $g == 0 || $m == 0 ]]; then
            echo "grids_callgrind.sh: nothing counted for $algo on $grid (inlined away?)" >&2
            exit 1
        fi
        gen[$grid.$algo]=$g
        met[$grid]=$((${met[$grid]} + m))
        if [[ -z ${cells[$grid]:-} ]]; then
            cells[$grid]=$("$bin" summary "$dir/out.parquet" --format csv | awk -F, '
                $4 == "dead_ends" || $4 == "junctions" || $4 == "corridors" { n += $5 }
                END { printf "%.0f", n }')
        fi
    done
done

n_algos=$(wc -w <<<"${algos//,/ }")
echo "instructions per cell (callgrind, $count mazes per run, one thread), and x square:"
printf "%-22s" algo
for grid in "${grids[@]}"; do printf "%18s" "$grid"; done
echo
row() { # name, then one total per grid (instructions over `count` mazes, or more)
    local name=$1 per base
    shift
    printf "%-22s" "$name"
    for grid in "${grids[@]}"; do
        per=$(awk -v i="$1" -v k="$count" -v c="${cells[$grid]}" -v n="$2" \
            'BEGIN { printf "%.1f", i / (k * c * n) }')
        [[ $grid == square ]] && base=$per
        awk -v p="$per" -v b="$base" 'BEGIN { printf "%9s (%4.2fx)", p, p / b }'
        shift 2
    done
    echo
}
for algo in ${algos//,/ }; do
    args=()
    for grid in "${grids[@]}"; do args+=("${gen[$grid.$algo]}" 1); done
    row "$algo" "${args[@]}"
done
args=()
for grid in "${grids[@]}"; do args+=("${met[$grid]}" "$n_algos"); done
row "metrics (every run)" "${args[@]}"
