#!/usr/bin/env bash
# Each generator's cost in two binaries, side by side: the median `gen_ns` per cell (the
# generator alone, from the Parquet column) of every generator a run makes, the two binaries'
# runs alternating REPS times, with the ratio new / old. For changes to shared code (the random
# source, the batch loop) that can move one generator and not the others: the whole job's time
# (main_job.sh) hides a generator that is 1/14 of it. Ratios above 1.05 are marked.
#
#   benches/generators.sh OLD_BIN NEW_BIN [REPS] [PYTHON] [-- RUN FLAGS]
#
# e.g. benches/generators.sh ../base/target/release/batchgen target/release/batchgen 3 \
#          target/tmp/interop-venv/bin/python -- --algo all --grid hex --size 64x64 --count 600
#
# The default run is `--algo all --size 64x64 --count 3000`; given flags replace all of it (name
# the generators with `--algo`). Each run has `--threads 1 -q`. PYTHON must have the
# `duckdb` module (default: the interop tests' venv).
set -euo pipefail
old=$1
new=$2
reps=${3:-3}
py=${4:-target/tmp/interop-venv/bin/python}
shift $(($# < 4 ? $# : 4))
[ "${1:-}" = -- ] && shift
flags=("$@")
[ ${#flags[@]} -gt 0 ] || flags=(--algo all --size 64x64 --count 3000)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for rep in $(seq "$reps"); do
    for b in old new; do
        "${!b}" "${flags[@]}" --threads 1 -q --out "$dir/$b.$rep.parquet"
    done
done
"$py" - "$dir" "$reps" <<'PY'
import sys, duckdb, statistics
d, reps = sys.argv[1], int(sys.argv[2])
c = duckdb.connect()
c.execute("SET enable_progress_bar = false")
per = {}
for b in ["old", "new"]:
    for r in range(1, reps + 1):
        q = f"select algo, median(gen_ns / cells) from '{d}/{b}.{r}.parquet' group by algo"
        for algo, ns in c.execute(q).fetchall():
            per.setdefault(algo, {}).setdefault(b, []).append(ns)
print(f"{'generator':28s} {'old ns/cell':>11s} {'new ns/cell':>11s} {'new/old':>8s}  (medians of {reps})")
for algo in sorted(per):
    o, n = (statistics.median(per[algo][b]) for b in ["old", "new"])
    mark = "  <- slower" if n / o > 1.05 else ""
    print(f"{algo:28s} {o:11.2f} {n:11.2f} {n / o:8.3f}{mark}")
PY
