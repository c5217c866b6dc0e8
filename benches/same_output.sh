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
old=$1
new=$2
count=${3:-400}
py=${4:-target/tmp/interop-venv/bin/python}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mask=$(dirname "$0")/../data/masks/rooms.txt
# Each run: a name, then the flags after `--algo all --count COUNT`.
runs=(
    "20x20 --size 20x20" "64x64 --size 64x64" "7x13 --size 7x13" "1x9 --size 1x9"
    "8x8x8 --size 8x8x8" "5x3x4 --size 5x3x4" "rooms --mask $mask"
    "braid-32x32 --size 32x32 --braid 0.5" "braid-6x5x4 --size 6x5x4 --braid 0.5"
)
names=()
for run in "${runs[@]}"; do
    read -r name flags <<<"$run"
    names+=("$name")
    # shellcheck disable=SC2086 # the flags are words
    "$old" --algo all $flags --count "$count" -q --out "$dir/old-$name.parquet" 2>/dev/null
    # shellcheck disable=SC2086
    "$new" --algo all $flags --count "$count" -q --out "$dir/new-$name.parquet" 2>/dev/null
done
"$py" - "$dir" "${names[@]}" <<'PY'
import sys, duckdb
d, sizes = sys.argv[1], sys.argv[2:]
c = duckdb.connect()
c.execute("SET enable_progress_bar = false")  # no bar in the output after 2 s
bad = 0
for s in sizes:
    o, n = f"'{d}/old-{s}.parquet'", f"'{d}/new-{s}.parquet'"
    cols = [r[0] for r in c.execute(f"describe select * from {o}").fetchall() if r[0] != "gen_ns"]
    sel = ", ".join(cols)
    diff = c.execute(f"select count(*) from ((select {sel} from {o} except all select {sel} from {n})"
                     f" union all (select {sel} from {n} except all select {sel} from {o}))").fetchone()[0]
    rows = c.execute(f"select count(*) from {n}").fetchone()[0]
    print(f"{s:12s} {rows:6d} rows, {len(cols)} columns, {diff} rows differ")
    bad += diff
print("same output" if bad == 0 else f"DIFFERENT: {bad} rows")
sys.exit(1 if bad else 0)
PY
