# Run one of the SQL recipes in data/ on a metrics file, from any folder:
#   python data/run_sql.py data/per_algo_stats.sql path/to/metrics.parquet [NAME=VALUE …] [--csv]
# The file path becomes the DuckDB variable `file`; NAME=VALUE pairs set more variables
# (numbers stay numbers), e.g. keep=0.2 for data/pick_thresholds.sql.
# Needs: pip install duckdb
import csv
import pathlib
import sys

import duckdb

args = [a for a in sys.argv[1:] if a != "--csv"]
if len(args) < 2:
    sys.exit(__doc__ or "usage: run_sql.py RECIPE.sql FILE.parquet [NAME=VALUE …] [--csv]")
sql = pathlib.Path(args[0]).read_text()
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")  # no bar in the output after 2 s
con.execute("SET VARIABLE file = ?", [args[1]])
for pair in args[2:]:
    name, value = pair.split("=", 1)
    try:
        value = float(value)
    except ValueError:
        pass
    con.execute(f"SET VARIABLE {name} = ?", [value])
cur = con.execute(sql)
cols = [d[0] for d in cur.description]
rows = cur.fetchall()
if "--csv" in sys.argv:
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(cols)
    w.writerows(rows)
else:
    widths = [max(len(str(c)), *(len(str(r[i])) for r in rows)) for i, c in enumerate(cols)]
    print("  ".join(str(c).rjust(w) for c, w in zip(cols, widths)))
    for r in rows:
        print("  ".join(str(v).rjust(w) for v, w in zip(r, widths)))
