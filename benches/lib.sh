# Shell helpers shared by the timing scripts in benches/ (sourced, not run).

# The median of the numbers on standard input, one per line.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# CPU time (user + sys) in microseconds per maze of one run:
#   cpu_us_per_maze BIN ALGO SIZE COUNT OUT_FILE
# runs `BIN --algo ALGO --size SIZE --count COUNT --threads 1 -q --out OUT_FILE` (generation,
# metrics and Parquet). `/usr/bin/time` counts in steps of 10 ms, so pick COUNT for runs of a
# few seconds.
cpu_us_per_maze() {
    local t
    t=$( { /usr/bin/time -f "%U %S" "$1" --algo "$2" --size "$3" --count "$4" \
        --threads 1 -q --out "$5" >/dev/null; } 2>&1 | tail -1)
    awk -v t="$t" -v n="$4" 'BEGIN { split(t, a, " "); printf "%.2f\n", (a[1] + a[2]) * 1e6 / n }'
}

# Compare the Parquet files DIR/old-NAME.parquet and DIR/new-NAME.parquet of each NAME with
# DuckDB (PYTHON has the `duckdb` module): every column but the timing `gen_ns`, as multisets of
# rows. Prints one line per NAME and "same output" or "DIFFERENT: N rows"; fails when different.
#   same_parquet PYTHON DIR NAME...
same_parquet() {
    local py=$1 dir=$2
    shift 2
    "$py" - "$dir" "$@" <<'PY'
import sys, duckdb
d, sizes = sys.argv[1], sys.argv[2:]
c = duckdb.connect()
c.execute("SET enable_progress_bar = false")  # no bar in the output after 2 s
bad, w = 0, max(map(len, sizes))
for s in sizes:
    o, n = f"'{d}/old-{s}.parquet'", f"'{d}/new-{s}.parquet'"
    cols = [r[0] for r in c.execute(f"describe select * from {o}").fetchall() if r[0] != "gen_ns"]
    sel = ", ".join(cols)
    diff = c.execute(f"select count(*) from ((select {sel} from {o} except all select {sel} from {n})"
                     f" union all (select {sel} from {n} except all select {sel} from {o}))").fetchone()[0]
    rows = c.execute(f"select count(*) from {n}").fetchone()[0]
    print(f"{s:{w}s} {rows:6d} rows, {len(cols)} columns, {diff} rows differ")
    bad += diff
print("same output" if bad == 0 else f"DIFFERENT: {bad} rows")
sys.exit(1 if bad else 0)
PY
}

# Run OLD_BIN and NEW_BIN once per RUN ("NAME FLAGS…", the flags split on spaces) with
# `FLAGS --count COUNT -q`, writing DIR/old-NAME.parquet and DIR/new-NAME.parquet, then compare
# them with `same_parquet`.
#   same_output_runs OLD_BIN NEW_BIN COUNT PYTHON DIR RUN...
same_output_runs() {
    local old=$1 new=$2 count=$3 py=$4 dir=$5 run name flags
    shift 5
    local names=()
    for run in "$@"; do
        read -r name flags <<<"$run"
        names+=("$name")
        # shellcheck disable=SC2086 # the flags are words
        "$old" $flags --count "$count" -q --out "$dir/old-$name.parquet" 2>/dev/null
        # shellcheck disable=SC2086
        "$new" $flags --count "$count" -q --out "$dir/new-$name.parquet" 2>/dev/null
    done
    same_parquet "$py" "$dir" "${names[@]}"
}

# The arguments of the same-output scripts, OLD_BIN NEW_BIN [COUNT] [PYTHON], as the globals
# old, new, count (default 400) and py (default: the interop tests' venv), and a temporary
# folder dir removed on exit.
#   same_output_args "$@"
same_output_args() {
    old=$1
    new=$2
    count=${3:-400}
    py=${4:-target/tmp/interop-venv/bin/python}
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
}
