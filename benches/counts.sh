#!/usr/bin/env bash
# Instructions and simulated branch mispredictions per cell of each generator (what bounds
# it), counted by valgrind's callgrind, which is repeatable where timings on a
# shared VM are not.
#
#   benches/counts.sh [BIN] [SIZE] [COUNT] [ALGOS]
#
# e.g. benches/counts.sh target/release/batchgen 64x64 20 backtracker,hunt-and-kill
#
# Each generator runs as `BIN --algo A --size SIZE --count COUNT --threads 1 -q --out FILE`
# under `valgrind --tool=callgrind --branch-sim=yes`, with collection switched on only inside
# the generator's own `generate` function and what it calls (so the metrics and Parquet are not
# counted). Printed per cell: instructions (Ir), conditional branches (Bc) and their
# mispredictions (Bcm) under callgrind's simulated predictor, which is simpler than the CPU's:
# read Bcm as an estimate. Needs valgrind (Debian package `valgrind`) and `nm`. A generator
# whose `generate` the compiler inlined into its caller (3D Kruskal, in some builds) has nothing
# to collect inside: the script then stops with a message instead of printing zeros.
#
# A stripped binary (the release profile strips; `nm` finds no symbols), such as a baseline
# build, cannot be cut at `generate`: then the whole process is counted (generation, metrics
# and Parquet, nothing subtracted), and the columns are per maze: instructions (Ir), and
# mispredicted conditional and indirect branches (Bcm+Bim) per cell. Run it on both binaries
# of a comparison in one sitting and read the ratio, e.g.
#
#   benches/counts.sh /path/to/old/batchgen 64x64 200 aldous-broder,wilson-turn:0.5
#   benches/counts.sh target/release/batchgen 64x64 200 aldous-broder,wilson-turn:0.5
set -euo pipefail
bin=${1:-target/release/batchgen}
size=${2:-64x64}
count=${3:-20}
algos=${4:-backtracker,hunt-and-kill,growing-tree:mix:0.5,recursive-division,kruskal,wilson}
command -v valgrind >/dev/null || { echo "counts.sh: valgrind is not installed" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

nm -C "$bin" >"$dir/symbols" 2>/dev/null || true
whole=0
[[ -s $dir/symbols ]] || whole=1

# Cells per maze from SIZE (WxH or WxHxD).
cells=$(awk -v s="$size" 'BEGIN { n = split(s, a, "x"); c = 1; for (i = 1; i <= n; i++) c *= a[i]; print c }')

if ((whole)); then
    printf "%-22s %12s %14s   (%s, %s mazes, whole process: %s)\n" algo Ir/maze Bcm+Bim/cell \
        "$size" "$count" "$bin"
else
    printf "%-22s %10s %10s %10s %8s   (%s, %s mazes, per cell)\n" algo Ir Bc Bcm Bcm/Bc \
        "$size" "$count"
fi
for algo in ${algos//,/ }; do
    # The module holding the generator: the name before any ':' parameters, '-' as '_';
    # the biased Wilson walks live in `wilson_biased`; for a 3D size, the module's `_3d`
    # twin when the binary has one (Kruskal and Eller, say, have a single generic one).
    module=${algo%%:*}
    module=${module//-/_}
    case $module in wilson_straight | wilson_turn) module=wilson_biased ;; esac
    if [[ $size == *x*x* ]] && grep -q "::${module}_3d::generate" "$dir/symbols"; then
        module=${module}_3d
    fi
    out="$dir/$module.out"
    if ((whole)); then
        valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$out" \
            "$bin" --algo "$algo" --size "$size" --count "$count" --threads 1 -q \
            --out "$dir/out.parquet" 2>"$dir/log" || { cat "$dir/log" >&2; exit 1; }
        # The totals line: Ir Bc Bcm Bi Bim.
        read -r ir bcm bim < <(awk '/^summary:/ { print $2, $4, $6 }' "$out")
        awk -v a="$algo" -v ir="$ir" -v m="$((bcm + bim))" -v k="$count" -v c="$cells" \
            'BEGIN { printf "%-22s %12.0f %14.3f\n", a, ir / k, m / (k * c) }'
        continue
    fi
    valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$out" \
        --toggle-collect="*::${module}::generate*" \
        "$bin" --algo "$algo" --size "$size" --count "$count" --threads 1 -q \
        --out "$dir/out.parquet" 2>"$dir/log" || { cat "$dir/log" >&2; exit 1; }
    # The totals line: Ir Bc Bcm Bi Bim.
    read -r ir bc bcm _ < <(awk '/^summary:/ { print $2, $3, $4, $5 }' "$out")
    if [[ -z ${ir:-} || $ir == 0 ]]; then
        echo "counts.sh: nothing counted for $algo (is ${module}::generate inlined away?)" >&2
        exit 1
    fi
    awk -v a="$algo" -v ir="$ir" -v bc="$bc" -v bcm="$bcm" -v n="$((cells * count))" \
        'BEGIN { printf "%-22s %10.1f %10.2f %10.3f %7.1f%%\n", a, ir / n, bc / n, bcm / n, 100 * bcm / bc }'
done
