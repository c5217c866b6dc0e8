# Run by tests/interop.rs: executes the DuckDB recipe of data/README.md (data/per_algo_stats.sql) and
# pandas snippet (data/per_algo_stats.py) in the current folder, which holds metrics.parquet,
# and prints both results as JSON: {"duckdb": {algo: {column: value}}, "pandas": {...}}.
import io
import json
import pathlib
import runpy
import sys
from contextlib import redirect_stdout

import duckdb

here = pathlib.Path(__file__).resolve().parent
sql = (here / "per_algo_stats.sql").read_text()
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")  # no bar in the output after 2 s
con.execute("SET VARIABLE file = 'metrics.parquet'")
cur = con.execute(sql)
cols = [d[0] for d in cur.description]
result = {"duckdb": {}, "pandas": {}}
for row in cur.fetchall():
    rec = dict(zip(cols, row))
    algo = rec.pop("algo")
    result["duckdb"][algo] = {k: float(v) for k, v in rec.items()}

sys.argv = ["per_algo_stats.py", "metrics.parquet"]
with redirect_stdout(io.StringIO()):
    g = runpy.run_path(str(here / "per_algo_stats.py"))
stats = g["stats"]
for algo, rec in stats.iterrows():
    result["pandas"][str(algo)] = {k: float(v) for k, v in rec.items()}
json.dump(result, sys.stdout)
