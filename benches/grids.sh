#!/usr/bin/env bash
# Per-cell cost of the grids other than the square one: each generator's median `gen_ns` per
# cell (the generator alone, from the Parquet column) and the whole run's CPU time per cell
# (generation, metrics and writing, one thread), on a 64x64 square grid, a 64x64 hex grid, a
# 64x64 triangle grid and a 36-ring polar grid (3,931 cells against 4,096), relative to square.
#
#   benches/grids.sh BIN [COUNT] [PYTHON] [REPS]
#
# PYTHON must have the `duckdb` module (default: the interop tests' venv). With REPS > 1 the
# four runs are repeated REPS times in turn, and each number is the median over the repeats:
# a generator's `gen_ns` per cell, its ratio to the square run of the same repeat, and the
# whole run's CPU time per cell and its ratio.
set -euo pipefail
bin=$1
count=${2:-2000}
py=${3:-target/tmp/interop-venv/bin/python}
reps=${4:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
algos=backtracker,kruskal,wilson,aldous-broder,prim,growing-tree,hunt-and-kill
for rep in $(seq "$reps"); do
    for run in "square --size 64x64" "hex --grid hex --size 64x64" \
        "triangle --grid triangle --size 64x64" "polar --grid polar --size 36"; do
        read -r name flags <<<"$run"
        # shellcheck disable=SC2086 # the flags are words
        /usr/bin/time -f "%U %S" -o "$dir/$name.$rep.time" \
            "$bin" --algo "$algos" $flags --count "$count" --threads 1 -q \
            --out "$dir/$name.$rep.parquet"
    done
done
"$py" - "$dir" "$reps" <<'PY'
import sys, duckdb, statistics
d, reps = sys.argv[1], int(sys.argv[2])
c = duckdb.connect()
c.execute("SET enable_progress_bar = false")
grids = ["square", "hex", "triangle", "polar"]
# Per repeat: each grid's median gen_ns per cell by generator, and CPU ns per cell.
gen, cpu = [], []
for r in range(1, reps + 1):
    gen.append({}), cpu.append({})
    for g in grids:
        rows = c.execute(f"select algo, median(gen_ns / cells), sum(cells) from '{d}/{g}.{r}.parquet' group by algo").fetchall()
        gen[-1][g] = {a: m for a, m, _ in rows}
        cells = sum(n for _, _, n in rows)
        u, s = map(float, open(f"{d}/{g}.{r}.time").read().split())
        cpu[-1][g] = (u + s) * 1e9 / cells
med = statistics.median
label = "" if reps == 1 else f", medians of {reps} repeats"
print(f"generator ns per cell (median gen_ns / cells{label}), and x square:")
print(f"{'algo':22s}" + "".join(f"{g:>18s}" for g in grids))
for a in sorted(gen[0]["square"]):
    v = {g: med(x[g][a] for x in gen) for g in grids}
    x = {g: med(y[g][a] / y["square"][a] for y in gen) for g in grids}
    print(f"{a:22s}" + "".join(f"{v[g]:9.2f} ({x[g]:4.2f}x)" for g in grids))
print(f"whole run, CPU ns per cell (generate + measure + write{label}), and x square:")
v = {g: med(y[g] for y in cpu) for g in grids}
x = {g: med(y[g] / y["square"] for y in cpu) for g in grids}
print("".join(f"{g:>10s} {v[g]:7.1f} ({x[g]:4.2f}x)" for g in grids))
PY
