#!/usr/bin/env bash
# Per-cell cost of the grids other than the square one: each generator's median `gen_ns` per
# cell (the generator alone, from the Parquet column) and the whole run's CPU time per cell
# (generation, metrics and writing, one thread), on a 64x64 square grid, a 64x64 hex grid, a
# 64x64 triangle grid and a 36-ring polar grid (4,095 cells against 4,096), relative to square.
#
#   benches/grids.sh BIN [COUNT] [PYTHON]
#
# PYTHON must have the `duckdb` module (default: the interop tests' venv).
set -euo pipefail
bin=$1
count=${2:-2000}
py=${3:-target/tmp/interop-venv/bin/python}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
algos=backtracker,kruskal,wilson,aldous-broder,prim,growing-tree,hunt-and-kill
for run in "square --size 64x64" "hex --grid hex --size 64x64" \
    "triangle --grid triangle --size 64x64" "polar --grid polar --size 36"; do
    read -r name flags <<<"$run"
    # shellcheck disable=SC2086 # the flags are words
    /usr/bin/time -f "%U %S" -o "$dir/$name.time" \
        "$bin" --algo "$algos" $flags --count "$count" --threads 1 -q --out "$dir/$name.parquet"
done
"$py" - "$dir" "$count" <<'PY'
import sys, duckdb
d, count = sys.argv[1], int(sys.argv[2])
c = duckdb.connect()
c.execute("SET enable_progress_bar = false")
grids = ["square", "hex", "triangle", "polar"]
gen, cpu = {}, {}
for g in grids:
    rows = c.execute(f"select algo, median(gen_ns / cells), sum(cells) from '{d}/{g}.parquet' group by algo").fetchall()
    gen[g] = {a: m for a, m, _ in rows}
    cells = sum(n for _, _, n in rows)
    u, s = map(float, open(f"{d}/{g}.time").read().split())
    cpu[g] = (u + s) * 1e9 / cells
print("generator ns per cell (median gen_ns / cells), and x square:")
print(f"{'algo':22s}" + "".join(f"{g:>18s}" for g in grids))
for a in sorted(gen["square"]):
    base = gen["square"][a]
    print(f"{a:22s}" + "".join(f"{gen[g][a]:9.2f} ({gen[g][a]/base:4.2f}x)" for g in grids))
print("whole run, CPU ns per cell (generate + measure + write), and x square:")
print("".join(f"{g:>10s} {cpu[g]:7.1f} ({cpu[g]/cpu['square']:4.2f}x)" for g in grids))
PY
