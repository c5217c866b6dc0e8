# Per-generator means and quantiles of a batchgen metrics file, in pandas, from any folder:
#   python data/per_algo_stats.py path/to/metrics.parquet [--csv]
import sys

import pandas as pd

path = sys.argv[1] if len(sys.argv) > 1 else "metrics.parquet"
df = pd.read_parquet(path)
stats = (
    df.groupby("algo")
    .agg(
        mazes=("index", "size"),
        mean_dead_end_share=("dead_end_share", "mean"),
        p10_dead_end_share=("dead_end_share", lambda s: s.quantile(0.1)),
        p90_dead_end_share=("dead_end_share", lambda s: s.quantile(0.9)),
        mean_diameter=("diameter", "mean"),
        mean_solution_length=("solution_length", "mean"),
        median_solution_length=("solution_length", "median"),
    )
    .sort_index()
)
print(stats.to_csv() if "--csv" in sys.argv else stats.to_string())
