-- A whole dataset folder (the --out DIR/ of sharded runs) as one table, in DuckDB: the folder
-- names add the columns `algo` (the same as the file's) and `size`.
--   duckdb -c ".read data/cluster/dataset_stats.sql"   (in the folder holding dataset/)
SELECT algo,
       size,
       count(*)                AS mazes,
       count(DISTINCT index)   AS distinct_indices,
       min(index)              AS first_index,
       max(index)              AS last_index,
       avg(dead_end_share)     AS mean_dead_end_share,
       avg(solution_length)    AS mean_solution_length
FROM read_parquet('dataset/**/*.parquet', hive_partitioning = true)
GROUP BY algo, size
ORDER BY algo, size;
