#!/usr/bin/env bash
# Same mazes, same measurements on the hex, triangle and polar grids: run two binaries with
# `--algo all` (every generator defined on the grid) and with the generators' other variants,
# at several sizes (1x1 and 1 ring, odd and oblong sizes, a polar grid with a 3-cell first
# ring), on masks (`data/masks/rooms.txt` on hex and triangle grids, and a ring-shaped mask
# with a hole), braided (`--braid 0.5`) and with `--ends diameter`, and compare every Parquet
# column but `gen_ns` (a timing) as multisets of rows with DuckDB (`same_parquet` of
# benches/lib.sh, as benches/same_output.sh does for square grids). A generator change that
# alters a maze changes `maze_hash`; a metrics change that alters a value changes its column.
#
#   benches/same_output_grids.sh OLD_BIN NEW_BIN [COUNT] [PYTHON]
#
# Both binaries must know `--grid`. PYTHON must have the `duckdb` module; the default is the
# venv the interop tests build (`cargo test --release --test tests -- interop::` creates
# target/tmp/interop-venv).
set -euo pipefail
# shellcheck source=benches/lib.sh
. "$(dirname "$0")/lib.sh"
same_output_args "$@"
rooms=$(dirname "$0")/../data/masks/rooms.txt
printf '%s\n' '.......' '..###..' '.......' '.......' >"$dir/ring.txt"
variants=growing-tree:newest,growing-tree:oldest,growing-tree:random,growing-tree:mix:0.25
# Each run: a name, then the flags before `--count COUNT`.
runs=(
    "hex-1x1 --grid hex --size 1x1 --algo all"
    "hex-2x2 --grid hex --size 2x2 --algo all"
    "hex-7x5 --grid hex --size 7x5 --algo all"
    "hex-32x32 --grid hex --size 32x32 --algo all"
    "hex-variants --grid hex --size 9x6 --algo $variants,wilson-straight:0.9,wilson-turn:0.2"
    "hex-rooms --grid hex --mask $rooms --algo all"
    "hex-ring --grid hex --mask $dir/ring.txt --algo all"
    "hex-braid --grid hex --size 15x11 --algo all --braid 0.5"
    "hex-diameter --grid hex --size 13x7 --algo all --ends diameter"
    "triangle-1x1 --grid triangle --size 1x1 --algo all"
    "triangle-3x2 --grid triangle --size 3x2 --algo all"
    "triangle-9x7 --grid triangle --size 9x7 --algo all"
    "triangle-40x24 --grid triangle --size 40x24 --algo all"
    "triangle-variants --grid triangle --size 11x5 --algo $variants"
    "triangle-rooms --grid triangle --mask $rooms --algo all"
    "triangle-ring --grid triangle --mask $dir/ring.txt --algo all"
    "triangle-braid --grid triangle --size 17x9 --algo all --braid 0.5"
    "triangle-diameter --grid triangle --size 11x9 --algo all --ends diameter"
    "polar-1 --grid polar --size 1 --algo all"
    "polar-2 --grid polar --size 2 --algo all"
    "polar-5 --grid polar --size 5 --algo all"
    "polar-3x3 --grid polar --size 3x3 --algo all"
    "polar-12 --grid polar --size 12 --algo all"
    "polar-variants --grid polar --size 7 --algo $variants"
    "polar-braid --grid polar --size 9 --algo all --braid 0.5"
    "polar-diameter --grid polar --size 7x5 --algo all --ends diameter"
)
same_output_runs "$old" "$new" "$count" "$py" "$dir" "${runs[@]}"
