//! Real clients read our files: DuckDB and pandas run the recipes of data/README.md
//! (`data/per_algo_stats.sql`, `data/per_algo_stats.py`) on a file made by the binary, and
//! their per-algorithm counts, means and quantiles equal what this test computes from the same
//! file with the parquet crate; pyarrow reads a maze store (`data/read_store.py`) and sees the
//! same identifiers, ends and wall words as batchgen's reader, and DuckDB counts its rows.

use crate::common;

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

/// A store of three record batches (two generators, 20,000 mazes each, `--ends diameter`) read
/// by pyarrow: the metadata, every field of records on both sides of each batch boundary and
/// a spread of others, and DuckDB's per-generator counts equal what the Rust reader says.
#[test]
fn pyarrow_reads_the_maze_store_as_the_rust_reader_does() {
    use batchgen::store::{self, StoreReader};
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("mazes.arrow");
    common::batchgen()
        .args(["--algo", "wilson,prim", "--size", "9x6", "--count", "20000"])
        .args(["--seed", "5", "--ends", "diameter", "-q", "--out"])
        .arg(d.path().join("m.parquet"))
        .arg("--mazes")
        .arg(&path)
        .assert()
        .success();
    let st = StoreReader::open(&path).unwrap();
    assert_eq!(st.len(), 40_000);
    let per = store::rows_per_batch(st.words_per_maze()) as u64;
    assert!(per < 40_000 / 2, "the test needs several batches");
    let mut wanted: Vec<u64> = vec![0, per - 1, per, 2 * per - 1, 2 * per, 39_999];
    wanted.extend((0..40_000).step_by(997));
    let out = std::process::Command::new(common::python())
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/data/read_store.py"))
        .arg(&path)
        .args(wanted.iter().map(|k| k.to_string()))
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for (key, value) in [
        ("batchgen.store_format", store::FORMAT_VERSION.to_string()),
        ("batchgen.version", env!("CARGO_PKG_VERSION").to_string()),
        (
            "batchgen.seeding_scheme",
            batchgen::rng::SEEDING_SCHEME.to_string(),
        ),
        ("batchgen.width", "9".into()),
        ("batchgen.height", "6".into()),
        ("batchgen.depth", "1".into()),
        ("batchgen.seed", "5".into()),
        ("batchgen.ends_rule", st.ends_rule.clone()),
    ] {
        let want = format!("meta {key} {value}");
        assert!(lines.contains(&want.as_str()), "{want} in\n{text}");
    }
    let records: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("record "))
        .collect();
    assert_eq!(records.len(), wanted.len());
    let mut varied_ends = std::collections::HashSet::new();
    for (k, got) in wanted.iter().zip(records) {
        let r = st.record(*k).unwrap();
        let walls: Vec<String> = r.walls.iter().map(u64::to_string).collect();
        let want = format!(
            "record {k} {} {} {} {} {} {} {} {} {} {} {}",
            r.algo,
            r.width,
            r.height,
            r.depth,
            r.seed,
            r.index,
            r.maze_seed,
            r.maze_hash,
            r.entrance,
            r.exit,
            walls.join(",")
        );
        assert_eq!(got, want);
        varied_ends.insert((r.entrance, r.exit));
    }
    assert!(varied_ends.len() > 10, "diameter ends vary per maze");
    let mut counts = std::collections::BTreeMap::new();
    for k in 0..st.len() {
        *counts.entry(st.record(k).unwrap().algo).or_insert(0u64) += 1;
    }
    for (algo, n) in counts {
        let want = format!("duckdb {algo} {n}");
        assert!(lines.contains(&want.as_str()), "{want} in\n{text}");
    }
}

/// The README's three lines that read a store from Python run as written, on a store made by
/// the README's level command, and print record 0 as batchgen's reader sees it.
#[test]
fn the_readme_three_line_python_store_reader_runs() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("```python\nimport pyarrow as pa\nmazes = pa.ipc.open_file(")
        .expect("the README shows how to read the store with pyarrow");
    let body = &readme[start + "```python\n".len()..];
    let snippet = &body[..body.find("```").unwrap()];
    assert_eq!(snippet.lines().count(), 3, "three lines:\n{snippet}");
    let d = tempfile::tempdir().unwrap();
    common::batchgen()
        .current_dir(d.path())
        .args(["--algo", "backtracker", "--size", "7x5", "--count", "4"])
        .args(["--ends", "diameter", "-q", "--out", "level.parquet"])
        .args(["--mazes", "level.arrow"])
        .assert()
        .success();
    let out = std::process::Command::new(common::python())
        .args(["-c", snippet])
        .current_dir(d.path())
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let st = batchgen::store::StoreReader::open(&d.path().join("level.arrow")).unwrap();
    let r = st.record(0).unwrap();
    for want in [
        "'algo': 'backtracker'".to_string(),
        format!("'maze_seed': {}", r.maze_seed),
        format!("'entrance': {}, 'exit': {}", r.entrance, r.exit),
        format!(
            "'walls': [{}]",
            r.walls
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ] {
        assert!(text.contains(&want), "{want} in {text}");
    }
}

/// Files pyarrow rewrote keep batchgen's metadata: with its default codec (Snappy) `summary`
/// reads them; with a codec this build lacks (GZIP, Brotli) it refuses them up front with
/// exit 2, naming the codec, instead of failing part-way.
#[test]
fn summary_reads_snappy_from_pyarrow_and_names_codecs_it_lacks() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("m.parquet");
    common::batchgen()
        .args([
            "--algo", "kruskal", "--size", "6x6", "--count", "50", "-q", "--out",
        ])
        .arg(&src)
        .assert()
        .success();
    let py = r#"
import sys
import pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
# Keep the file's key-value metadata (pyarrow writes the schema's).
t = t.replace_schema_metadata(pq.read_metadata(sys.argv[1]).metadata)
for codec in ("snappy", "gzip", "brotli"):
    pq.write_table(t, f"{sys.argv[2]}/{codec}.parquet", compression=codec)
"#;
    let out = std::process::Command::new(common::python())
        .args(["-c", py])
        .arg(&src)
        .arg(d.path())
        .output()
        .unwrap();
    common::assert_ok(&out);
    common::batchgen()
        .arg("summary")
        .arg(d.path().join("snappy.parquet"))
        .assert()
        .success();
    for (file, codec) in [("gzip", "GZIP"), ("brotli", "BROTLI")] {
        common::batchgen()
            .arg("summary")
            .arg(d.path().join(format!("{file}.parquet")))
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "compressed with {codec}"
            )));
    }
}
