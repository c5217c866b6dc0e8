//! Real clients read our files: DuckDB and pandas run the README's query and snippet
//! (`data/per_algo_stats.sql`, `data/per_algo_stats.py`) on a file made by the binary, and
//! their per-algorithm counts, means and quantiles equal what this test computes from the same
//! file with the parquet crate.

mod common;

use std::collections::HashMap;

/// Linear-interpolation quantile (DuckDB's `quantile_cont`, pandas' default).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

#[test]
fn duckdb_and_pandas_reproduce_the_per_algorithm_statistics() {
    let d = tempfile::tempdir().unwrap();
    let t = common::run(
        d.path(),
        "metrics.parquet",
        &[
            "--algo", "all", "--size", "16x12", "--count", "3000", "--seed", "5",
        ],
    );
    // Expected values, from the parquet crate's reading of the file.
    let (algo_c, share_c, diam_c, sol_c) = (
        t.col("algo"),
        t.col("dead_end_share"),
        t.col("diameter"),
        t.col("solution_length"),
    );
    let mut by_algo: HashMap<String, Vec<&Vec<String>>> = HashMap::new();
    for r in &t.rows {
        by_algo.entry(r[algo_c].clone()).or_default().push(r);
    }
    let col = |rows: &[&Vec<String>], c: usize| -> Vec<f64> {
        let mut v: Vec<f64> = rows.iter().map(|r| r[c].parse().unwrap()).collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;

    let out = std::process::Command::new(common::python())
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/interop_check.py"
        ))
        .current_dir(d.path())
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    for engine in ["duckdb", "pandas"] {
        for (algo, rows) in &by_algo {
            let share = col(rows, share_c);
            let diam = col(rows, diam_c);
            let sol = col(rows, sol_c);
            let want = [
                ("mazes", rows.len() as f64),
                ("mean_dead_end_share", mean(&share)),
                ("p10_dead_end_share", quantile(&share, 0.1)),
                ("p90_dead_end_share", quantile(&share, 0.9)),
                ("mean_diameter", mean(&diam)),
                ("mean_solution_length", mean(&sol)),
                ("median_solution_length", quantile(&sol, 0.5)),
            ];
            for (name, value) in want {
                let got = json_number(&text, engine, algo, name);
                assert!(
                    close(got, value),
                    "{engine} {algo} {name}: {got} vs {value}"
                );
            }
        }
    }
    assert_eq!(by_algo.len(), batchgen::Algorithm::all().len());
}

/// Find `"engine": {... "algo": {... "name": NUMBER` in the checker's JSON (flat enough that a
/// tiny scanner is clearer than pulling in a JSON crate for one test).
fn json_number(text: &str, engine: &str, algo: &str, name: &str) -> f64 {
    let e = text
        .find(&format!("\"{engine}\": {{"))
        .unwrap_or_else(|| panic!("{engine} in {text}"));
    let rest = &text[e..];
    let a = rest
        .find(&format!("\"{algo}\": {{"))
        .unwrap_or_else(|| panic!("{algo} in {rest}"));
    let rest = &rest[a..];
    let end = rest.find('}').unwrap();
    let rec = &rest[..end];
    let n = rec
        .find(&format!("\"{name}\": "))
        .unwrap_or_else(|| panic!("{name} in {rec}"));
    let num = &rec[n + name.len() + 4..];
    let stop = num.find([',', '}']).unwrap_or(num.len());
    num[..stop].trim().parse().unwrap()
}
