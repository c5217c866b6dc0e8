# Per-generator means and quantiles of a batchgen metrics file, in pandas:
#   python data/per_algo_stats.py   (in the folder holding metrics.parquet)
import pandas as pd

df = pd.read_parquet("metrics.parquet")
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
print(stats.to_string())
