#!/usr/bin/env bash
# Same mazes, same measurements: run two binaries on `--algo all` at several sizes (2D and 3D,
# square, oblong and one-row), on the mask `data/masks/rooms.txt` and braided (`--braid 0.5`,
# 2D and 3D), and compare every Parquet column but `gen_ns` (a timing) as multisets of rows
# with DuckDB. For speed work that must not change any output: a generator
# change that alters a maze changes `maze_hash`; a metrics change that alters a value changes
# its column.
#
#   benches/same_output.sh OLD_BIN NEW_BIN [COUNT] [PYTHON]
#
# PYTHON must have the `duckdb` module; the default is the venv the interop tests build
# (`cargo test --release --test tests -- interop::` creates target/tmp/interop-venv).
set -euo pipefail
# shellcheck source=benches/lib.sh
. "$(dirname "$0")/lib.sh"
same_output_args "$@"
mask=$(dirname "$0")/../data/masks/rooms.txt
# Each run: a name, then the flags before `--count COUNT`.
runs=(
    "20x20 --algo all --size 20x20" "64x64 --algo all --size 64x64"
    "7x13 --algo all --size 7x13" "1x9 --algo all --size 1x9"
    "8x8x8 --algo all --size 8x8x8" "5x3x4 --algo all --size 5x3x4"
    "rooms --algo all --mask $mask"
    "braid-32x32 --algo all --size 32x32 --braid 0.5"
    "braid-6x5x4 --algo all --size 6x5x4 --braid 0.5"
)
same_output_runs "$old" "$new" "$count" "$py" "$dir" "${runs[@]}"
