# Thresholds that keep a target fraction of each generator's mazes, printed as one --accept
# expression (paste it into batchgen, or into a DuckDB WHERE: it is the same language):
#   python data/pick_thresholds.py path/to/metrics.parquet [--metric dead_end_share]
#          [--keep 0.2] [--high]
# Without --high the filter keeps the lowest values (metric <= threshold), with it the highest
# (metric >= threshold). The threshold is a value of the data (quantile_disc), so the share
# kept is at least the target; ties at the threshold can make it larger (printed per algo).
# Check it with: batchgen summary path/to/metrics.parquet --accept "$(python … )"
# Needs: pip install duckdb
import argparse
import sys

import duckdb

p = argparse.ArgumentParser()
p.add_argument("file")
p.add_argument("--metric", default="dead_end_share")
p.add_argument("--keep", type=float, default=0.2)
p.add_argument("--high", action="store_true")
a = p.parse_args()
if not 0 < a.keep <= 1:
    sys.exit("--keep must be in (0, 1]")
q = 1 - a.keep if a.high else a.keep
op = ">=" if a.high else "<="
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")  # no bar in the output after 2 s
rows = con.execute(
    f"""WITH m AS (SELECT * FROM read_parquet($file)),
        t AS (SELECT algo, quantile_disc("{a.metric}", $q) AS th FROM m GROUP BY algo)
        SELECT algo, th, avg(CASE WHEN "{a.metric}" {op} th THEN 1.0 ELSE 0.0 END)
        FROM m JOIN t USING (algo) GROUP BY algo, th ORDER BY algo""",
    {"file": a.file, "q": q},
).fetchall()
for algo, th, share in rows:
    print(f"# {algo}: {a.metric} {op} {th!r} keeps {share:.6f}", file=sys.stderr)
print(" OR ".join(f"(algo = '{algo}' AND {a.metric} {op} {th!r})" for algo, th, _ in rows))
