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
