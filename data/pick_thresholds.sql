-- Per generator, the dead_end_share threshold that keeps a target fraction of its mazes, and
-- the share a filter `dead_end_share <= threshold` really keeps (ties can make it larger):
--   python data/run_sql.py data/pick_thresholds.sql path/to/metrics.parquet keep=0.2
WITH t AS (
    SELECT algo, quantile_disc(dead_end_share, getvariable('keep')) AS threshold
    FROM read_parquet(getvariable('file'))
    GROUP BY algo
)
SELECT m.algo,
       t.threshold,
       avg(CASE WHEN m.dead_end_share <= t.threshold THEN 1.0 ELSE 0.0 END) AS kept_share
FROM read_parquet(getvariable('file')) m JOIN t USING (algo)
GROUP BY m.algo, t.threshold
ORDER BY m.algo;
