-- Per-generator means and quantiles of a batchgen metrics file, in DuckDB, from any folder:
--   python data/run_sql.py data/per_algo_stats.sql path/to/metrics.parquet
--   (the runner sets the variable `file`; in the DuckDB CLI: SET VARIABLE file = '…';)
SELECT algo,
       count(*)                            AS mazes,
       avg(dead_end_share)                 AS mean_dead_end_share,
       quantile_cont(dead_end_share, 0.1)  AS p10_dead_end_share,
       quantile_cont(dead_end_share, 0.9)  AS p90_dead_end_share,
       avg(diameter)                       AS mean_diameter,
       avg(solution_length)                AS mean_solution_length,
       quantile_cont(solution_length, 0.5) AS median_solution_length
FROM read_parquet(getvariable('file'))
GROUP BY algo
ORDER BY algo;
