//! `batchgen summary`: its numbers equal DuckDB's on the same files (count, mean, standard
//! error, quantile_cont); the pass-rate preview equals the pipeline's recorded acceptance rate
//! for the same filter and seed; folders (hive-partitioned), globs and files give the same
//! groups; bad input exits 2 with a clear message.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use predicates::str::contains;

/// `summary --format csv` parsed: (algo, size, metric) → the row's fields by header name.
fn summary_csv(args: &[&str]) -> Vec<HashMap<String, String>> {
    let out = common::batchgen()
        .arg("summary")
        .args(args)
        .args(["--format", "csv"])
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            head.iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

const DUCKDB: &str = r#"
import sys, duckdb
files = sys.argv[1:]
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")  # no bar in the output after 2 s
con.execute(f"CREATE VIEW t AS SELECT * FROM read_parquet({files!r})")
skip = {"algo","seed","maze_seed","maze_hash","index","width","height","depth","diameter_start","diameter_end","cells","mask_hash"}
cols = [r[0] for r in con.execute("DESCRIBE t").fetchall() if r[0] not in skip]
for c in cols:
    q = f"""SELECT algo, width || 'x' || height, count(*), avg({c}), stddev_samp({c}) / sqrt(count(*)),
            quantile_cont({c}, 0.05), quantile_cont({c}, 0.25), quantile_cont({c}, 0.5),
            quantile_cont({c}, 0.75), quantile_cont({c}, 0.95) FROM t GROUP BY ALL"""
    for r in con.execute(q).fetchall():
        print(",".join([r[0], r[1], c] + [repr(float(x)) for x in r[2:]]))
"#;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-12)
}

#[test]
fn summary_equals_duckdb() {
    let d = tempfile::tempdir().unwrap();
    let a = d.path().join("a.parquet");
    let b = d.path().join("b.parquet");
    for (out, size, seed) in [(&a, "16x12", "3"), (&b, "9x7", "4")] {
        common::batchgen()
            .args(["--algo", "wilson,backtracker,binary-tree", "--size", size])
            .args(["--count", "3000", "--seed", seed, "--quiet", "--out"])
            .arg(out)
            .assert()
            .success();
    }
    let ours = summary_csv(&[a.to_str().unwrap(), b.to_str().unwrap()]);
    let out = std::process::Command::new(common::python())
        .arg("-c")
        .arg(DUCKDB)
        .args([&a, &b])
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split(',').collect();
        let (algo, size, metric) = (f[0], f[1], f[2]);
        let row = ours
            .iter()
            .find(|r| r["algo"] == algo && r["size"] == size && r["metric"] == metric)
            .unwrap_or_else(|| panic!("no summary row for {algo} {size} {metric}"));
        assert_eq!(row["rows"], f[3].trim_end_matches(".0"), "{line}");
        assert_eq!(
            row["exact_quantiles"], "true",
            "{metric}: few values, exact"
        );
        for (k, name) in ["mean", "std_err", "p5", "p25", "p50", "p75", "p95"]
            .iter()
            .enumerate()
        {
            let want: f64 = f[4 + k].parse().unwrap();
            let got: f64 = row[*name].parse().unwrap();
            assert!(
                close(got, want),
                "{algo} {size} {metric} {name}: {got} vs DuckDB {want}"
            );
        }
        checked += 1;
    }
    // 3 algorithms × 2 sizes × every metric column (gen_ns included).
    assert_eq!(checked, ours.len());
    assert!(checked >= 6 * 9, "{checked}");
}

#[test]
fn pass_rate_preview_equals_the_pipelines_recorded_rate() {
    let d = tempfile::tempdir().unwrap();
    let expr = "dead_end_share <= 0.3 AND solution_length BETWEEN 20 AND 40";
    let base = ["--size", "11x8", "--seed", "9"];
    let acc = common::run(
        d.path(),
        "acc.parquet",
        &[
            &base[..],
            &[
                "--algo",
                "kruskal,wilson",
                "--count",
                "200",
                "--accept",
                expr,
            ],
        ]
        .concat(),
    );
    // The same candidates, unfiltered: indices 0..candidates of each generator.
    let mut files = Vec::new();
    for algo in ["kruskal", "wilson"] {
        let n = &acc.meta[&format!("batchgen.candidates.{algo}")];
        let f = d.path().join(format!("{algo}.parquet"));
        common::batchgen()
            .args(base)
            .args(["--algo", algo, "--count", n, "--quiet", "--out"])
            .arg(&f)
            .assert()
            .success();
        files.push(f.to_str().unwrap().to_string());
    }
    let out = common::batchgen()
        .args(["summary", &files[0], &files[1], "--by", "algo"])
        .args(["--format", "json", "--accept", expr])
        .output()
        .unwrap();
    assert!(out.status.success());
    let groups: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    for algo in ["kruskal", "wilson"] {
        let rec = groups.iter().find(|g| g["algo"] == algo).unwrap();
        let num = |key: &str| -> f64 { rec[key].as_f64().unwrap() };
        assert_eq!(num("passing"), 200.0, "{algo}: the pipeline accepted 200");
        let recorded: f64 = acc.meta[&format!("batchgen.acceptance_rate.{algo}")]
            .parse()
            .unwrap();
        assert!(
            (num("share") - recorded).abs() <= 5e-7,
            "{algo}: {} vs {recorded}",
            num("share")
        );
        assert!((num("candidates_per_accepted") - 1.0 / num("share")).abs() < 1e-9);
    }
    // The table says the same in words.
    common::batchgen()
        .args(["summary", &files[1], "--accept", expr])
        .assert()
        .success()
        .stdout(contains("200 pass ("))
        .stdout(contains("candidates per accepted maze"));
}

#[test]
fn folders_globs_and_files_agree() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("ds");
    let mut files = Vec::new();
    for (algo, size) in [("wilson", "8x8"), ("kruskal", "8x8"), ("wilson", "6x5")] {
        let dir = root
            .join(format!("algo={algo}"))
            .join(format!("size={size}"));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("part-00000-of-00001.parquet");
        common::batchgen()
            .args(["--algo", algo, "--size", size, "--count", "500", "--quiet"])
            .arg("--out")
            .arg(&f)
            .assert()
            .success();
        files.push(f.to_str().unwrap().to_string());
    }
    // An in-progress temporary file is not an input; an empty shard found in a folder is
    // skipped (named explicitly, it is an error: see bad_input_is_refused_with_exit_2).
    std::fs::write(root.join("algo=wilson/.part.parquet.tmp-1"), b"partial").unwrap();
    let empty = root.join("algo=kruskal/size=8x8/part-00001-of-00002.parquet");
    common::batchgen()
        .args([
            "--algo", "kruskal", "--size", "8x8", "--count", "0", "--quiet",
        ])
        .arg("--out")
        .arg(&empty)
        .assert()
        .success();
    let by_files = summary_csv(&files.iter().map(String::as_str).collect::<Vec<_>>());
    let by_dir = summary_csv(&[root.to_str().unwrap()]);
    let pattern = format!("{}/**/part-*.parquet", root.display());
    let by_glob = summary_csv(&[&pattern]);
    let key = |v: &Vec<HashMap<String, String>>| {
        let mut k: Vec<String> = v
            .iter()
            .map(|r| format!("{} {} {} {}", r["algo"], r["size"], r["metric"], r["p50"]))
            .filter(|s| !s.contains("gen_ns"))
            .collect();
        k.sort();
        k
    };
    assert_eq!(key(&by_files), key(&by_dir));
    assert_eq!(key(&by_files), key(&by_glob));
    let groups: std::collections::BTreeSet<(String, String)> = by_dir
        .iter()
        .map(|r| (r["algo"].clone(), r["size"].clone()))
        .collect();
    assert_eq!(groups.len(), 3);
    // --by size merges the generators.
    let by_size = summary_csv(&[root.to_str().unwrap(), "--by", "size"]);
    let rows: Vec<&str> = by_size
        .iter()
        .filter(|r| r["metric"] == "dead_ends")
        .map(|r| r["rows"].as_str())
        .collect();
    assert_eq!(rows, ["500", "1000"]);
}

fn write_parquet(path: &Path, with_meta: bool, rows: usize) {
    use arrow_array::{RecordBatch, UInt32Array};
    use std::sync::Arc;
    let schema = Arc::new(arrow_schema::Schema::new(vec![arrow_schema::Field::new(
        "x",
        arrow_schema::DataType::UInt32,
        false,
    )]));
    let props = parquet::file::properties::WriterProperties::builder()
        .set_key_value_metadata(with_meta.then(|| {
            vec![parquet::file::metadata::KeyValue::new(
                "batchgen.version".into(),
                "0.1.0".to_string(),
            )]
        }))
        .build();
    let f = std::fs::File::create(path).unwrap();
    let mut w = parquet::arrow::ArrowWriter::try_new(f, schema.clone(), Some(props)).unwrap();
    if rows > 0 {
        let col = UInt32Array::from((0..rows as u32).collect::<Vec<_>>());
        w.write(&RecordBatch::try_new(schema, vec![Arc::new(col)]).unwrap())
            .unwrap();
    }
    w.close().unwrap();
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n).to_str().unwrap().to_string();
    write_parquet(Path::new(&p("other.parquet")), false, 3);
    write_parquet(Path::new(&p("empty.parquet")), true, 0);
    std::fs::write(p("text.parquet"), "not parquet").unwrap();
    std::fs::write(p("zero.parquet"), "").unwrap();
    std::fs::create_dir(p("nothing")).unwrap();
    let good = p("good.parquet");
    common::batchgen()
        .args([
            "--algo", "wilson", "--size", "5x5", "--count", "10", "--quiet",
        ])
        .args(["--out", &good])
        .assert()
        .success();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![p("missing.parquet")], "no such file"),
        (vec![p("other.parquet")], "not a batchgen metrics file"),
        (vec![p("empty.parquet")], "the file has no rows"),
        (vec![p("text.parquet")], "not a readable Parquet file"),
        (vec![p("zero.parquet")], "not a readable Parquet file"),
        (vec![p("nothing")], "holds no .parquet files"),
        (vec![p("*.nomatch")], "no such file"),
        (vec![good.clone(), p("missing.parquet")], "missing.parquet"),
        (
            vec![good.clone(), "--accept".into(), "dead_ends >".into()],
            "--accept",
        ),
        (
            vec![good.clone(), "--format".into(), "xml".into()],
            "--format",
        ),
        (vec![good.clone(), "--by".into(), "colour".into()], "--by"),
    ];
    for (args, want) in cases {
        common::batchgen()
            .arg("summary")
            .args(&args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(want));
    }
}

/// The recipes in data/ run from any folder with the file as an argument, and their numbers
/// equal `batchgen summary`'s: the DuckDB and pandas statistics, and the threshold picker's
/// expression, whose pass shares `summary --accept` reproduces.
#[test]
fn recipes_run_from_anywhere_and_agree_with_summary() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("m.parquet");
    common::batchgen()
        .args(["--algo", "wilson,backtracker,sidewinder", "--size", "10x9"])
        .args(["--count", "2000", "--seed", "21", "--quiet", "--out"])
        .arg(&f)
        .assert()
        .success();
    let elsewhere = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let py = |args: &[&std::ffi::OsStr]| -> String {
        let out = std::process::Command::new(common::python())
            .args(args)
            .current_dir(elsewhere.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let ours = summary_csv(&[f.to_str().unwrap(), "--by", "algo"]);
    let get = |algo: &str, metric: &str, col: &str| -> f64 {
        ours.iter()
            .find(|r| r["algo"] == algo && r["metric"] == metric)
            .unwrap()[col]
            .parse()
            .unwrap()
    };
    // The same per-algorithm table from DuckDB (SQL recipe) and pandas.
    let sql = py(&[
        data.join("run_sql.py").as_os_str(),
        data.join("per_algo_stats.sql").as_os_str(),
        f.as_os_str(),
        "--csv".as_ref(),
    ]);
    let pandas = py(&[
        data.join("per_algo_stats.py").as_os_str(),
        f.as_os_str(),
        "--csv".as_ref(),
    ]);
    for text in [sql, pandas] {
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let mut n = 0;
        for l in lines.filter(|l| !l.is_empty()) {
            let r: HashMap<&str, &str> = head.iter().copied().zip(l.split(',')).collect();
            let algo = r["algo"];
            let v = |k: &str| {
                r.get(k)
                    .unwrap_or_else(|| panic!("{k} in {text}"))
                    .parse::<f64>()
                    .unwrap()
            };
            assert_eq!(v("mazes"), 2000.0);
            assert!(close(
                v("mean_dead_end_share"),
                get(algo, "dead_end_share", "mean")
            ));
            assert!(close(v("mean_diameter"), get(algo, "diameter", "mean")));
            assert!(close(
                v("median_solution_length"),
                get(algo, "solution_length", "p50")
            ));
            n += 1;
        }
        assert_eq!(n, 3, "{text}");
    }
    // Thresholds for a target fraction; summary --accept reproduces the kept shares.
    for (metric, keep, high) in [
        ("dead_end_share", "0.2", false),
        ("solution_length", "0.3", true),
    ] {
        let mut args = vec![
            data.join("pick_thresholds.py").into_os_string(),
            f.clone().into_os_string(),
            "--metric".into(),
            metric.into(),
            "--keep".into(),
            keep.into(),
        ];
        if high {
            args.push("--high".into());
        }
        let out = std::process::Command::new(common::python())
            .args(&args)
            .current_dir(elsewhere.path())
            .output()
            .unwrap();
        assert!(out.status.success());
        let expr = String::from_utf8(out.stdout).unwrap().trim().to_string();
        let report = String::from_utf8(out.stderr).unwrap();
        let shares = summary_csv(&[f.to_str().unwrap(), "--by", "algo", "--accept", &expr]);
        for line in report.lines() {
            // "# wilson: dead_end_share <= 0.27 keeps 0.213500"
            let algo = line[2..line.find(':').unwrap()].to_string();
            let kept: f64 = line.rsplit(' ').next().unwrap().parse().unwrap();
            let share: f64 = shares.iter().find(|r| r["algo"] == algo).unwrap()["share"]
                .parse()
                .unwrap();
            assert!((share - kept).abs() < 1e-6, "{algo}: {share} vs {kept}");
            assert!(
                share >= keep.parse::<f64>().unwrap(),
                "{algo} keeps {share}"
            );
        }
        assert_eq!(report.lines().count(), 3, "{report}");
    }
}

#[test]
fn huge_and_non_finite_values_are_counted_not_averaged() {
    let d = tempfile::tempdir().unwrap();
    let base = d.path().join("base.parquet");
    common::run(
        d.path(),
        "base.parquet",
        &["--algo", "kruskal", "--size", "6x6", "--count", "300"],
    );
    // Every row 1e308: a plain or shifted sum overflows; the mean is 1e308.
    let huge = d.path().join("huge.parquet");
    common::with_float_column(&base, &huge, "dead_end_share", |_| 1e308);
    let rows = summary_csv(&[huge.to_str().unwrap()]);
    let r = rows
        .iter()
        .find(|r| r["metric"] == "dead_end_share")
        .unwrap();
    assert_eq!(r["mean"].parse::<f64>().unwrap(), 1e308, "{r:?}");
    assert_eq!(r["std_err"].parse::<f64>().unwrap(), 0.0, "{r:?}");
    // 1 row in 10 +inf, 1 in 10 -inf, 1 in 30 NaN: counted by kind, the mean of the rest.
    let odd = d.path().join("odd.parquet");
    let v = |i: usize| match (i % 10, i % 30) {
        (_, 29) => f64::NAN,
        (0, _) => f64::INFINITY,
        (1, _) => f64::NEG_INFINITY,
        _ => (i % 7) as f64,
    };
    common::with_float_column(&base, &odd, "dead_end_share", v);
    let rows = summary_csv(&[odd.to_str().unwrap()]);
    let r = rows
        .iter()
        .find(|r| r["metric"] == "dead_end_share")
        .unwrap();
    let finite: Vec<f64> = (0..300).map(v).filter(|x| x.is_finite()).collect();
    let mean = finite.iter().sum::<f64>() / finite.len() as f64;
    assert!(
        (r["mean"].parse::<f64>().unwrap() - mean).abs() < 1e-12,
        "{r:?}"
    );
    assert_eq!(r["pos_inf"], "30");
    assert_eq!(r["neg_inf"], "30");
    assert_eq!(r["nan"], "10");
    let out = common::batchgen()
        .arg("summary")
        .arg(&odd)
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("70 non-finite (+inf 30, -inf 30, NaN 10), left out"),
        "{text}"
    );
}

#[test]
fn fourteen_generators_fit_a_compact_table() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("all.parquet");
    common::run(
        d.path(),
        "all.parquet",
        &["--algo", "all", "--size", "8x8", "--count", "200"],
    );
    let table = |extra: &[&str]| -> String {
        let out = common::batchgen()
            .arg("summary")
            .arg(&f)
            .args(extra)
            .output()
            .unwrap();
        common::assert_ok(&out);
        String::from_utf8(out.stdout).unwrap()
    };
    for extra in [&[][..], &["--stat", "median"][..]] {
        let text = table(extra);
        let lines: Vec<&str> = text.lines().collect();
        // A header, one row per generator, the legend.
        assert_eq!(lines.len(), 1 + 14 + 1, "{text}");
        assert!(lines[0].starts_with("group") && lines[0].contains("dead_end_share"));
        for l in &lines {
            assert!(
                l.chars().count() <= 100,
                "{} columns: {l}",
                l.chars().count()
            );
        }
    }
    // --columns chooses (and orders) the metrics, in every format; a misspelt one is named.
    let text = table(&["--columns", "diameter,dead_ends"]);
    let head: Vec<&str> = text.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(head, ["group", "rows", "diameter", "dead_ends"]);
    let rows = summary_csv(&[f.to_str().unwrap(), "--columns", "junctions"]);
    assert_eq!(rows.len(), 14);
    assert!(rows.iter().all(|r| r["metric"] == "junctions"));
    common::batchgen()
        .arg("summary")
        .arg(&f)
        .args(["--columns", "dead_end_shar"])
        .assert()
        .code(2)
        .stderr(contains("did you mean 'dead_end_share'?"));
    // The blocks of old stay one flag away.
    assert!(table(&["--layout", "blocks"]).contains("generation time per maze: mean"));
}

/// A seeded two-generator run into `dir` (folders `d/` and `m/`, `--accept`), with its summary
/// written to `dir/run.json`.
fn seeded_run(dir: &Path) {
    common::batchgen()
        .current_dir(dir)
        .args([
            "--algo",
            "backtracker,wilson",
            "--size",
            "8x8",
            "--count",
            "300",
        ])
        .args(["--seed", "7", "--out", "d/", "--mazes", "m/"])
        .args([
            "--accept",
            "dead_end_share <= 0.4",
            "--summary-json",
            "run.json",
        ])
        .assert()
        .success();
}

/// Each generator's seconds are its share of the run's (the workers make chunks of several
/// generators at once, so the gaps between chunks are not what each cost): they add up to the
/// run's seconds, and each rate is its mazes over its seconds.
#[test]
fn generator_seconds_add_up_to_the_run() {
    let d = tempfile::tempdir().unwrap();
    seeded_run(d.path());
    let run: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.path().join("run.json")).unwrap()).unwrap();
    let gens = run["generators"].as_array().unwrap();
    assert_eq!(gens.len(), 2);
    let total = run["totals"]["seconds"].as_f64().unwrap();
    let sum: f64 = gens.iter().map(|g| g["seconds"].as_f64().unwrap()).sum();
    assert!(
        total > 0.0 && (sum - total).abs() <= 1e-9 * total,
        "{sum} {total}"
    );
    for g in gens {
        let (n, secs) = (g["mazes"].as_f64().unwrap(), g["seconds"].as_f64().unwrap());
        assert!(secs > 0.0, "{g}");
        let rate = g["mazes_per_second"].as_f64().unwrap();
        assert!((rate - n / secs).abs() <= 1e-9 * rate, "{g}");
    }
}

#[test]
fn json_outputs_are_the_reference_outputs() {
    let d = tempfile::tempdir().unwrap();
    seeded_run(d.path());
    // The run's summary, byte for byte apart from what changes from run to run.
    let varying = ["seconds", "mazes_per_second", "bytes", "command_line"];
    let run = std::fs::read_to_string(d.path().join("run.json")).unwrap();
    assert_eq!(
        common::mask_json_members(&run, &varying),
        common::mask_json_members(&common::json_fixture("run-summary.json"), &varying)
    );
    // `list-algos --format json`, byte for byte.
    let out = common::batchgen()
        .args(["list-algos", "--format", "json"])
        .output()
        .unwrap();
    common::assert_ok(&out);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        common::json_fixture("list-algos.json")
    );
    // `summary --format json`: the same tokens (names, numbers, key order) as the reference;
    // the layout is the pretty one every JSON output of the program shares.
    let columns = "dead_ends,dead_end_share,diameter,solution_length,tortuosity,braid";
    for (extra, fixture) in [
        (&[][..], "summary.json"),
        (
            &["--by", "none", "--accept", "dead_ends > 1000"][..],
            "summary-accept.json",
        ),
    ] {
        let out = common::batchgen()
            .current_dir(d.path())
            .args(["summary", "d/", "--format", "json", "--columns", columns])
            .args(extra)
            .output()
            .unwrap();
        common::assert_ok(&out);
        let got = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            common::json_tokens(&got),
            common::json_tokens(&common::json_fixture(fixture)),
            "{fixture}"
        );
    }
}

/// A column alternating ±1e308 (a plain or shifted sum overflows): the mean is 0 up to
/// rounding, the standard error finite and exact to rounding (1e308/√199 for 100 of each), the
/// median 0, in the table and in JSON; nothing printed as inf or NaN.
#[test]
fn values_alternating_near_the_f64_limits_give_finite_statistics() {
    let d = tempfile::tempdir().unwrap();
    let base = d.path().join("base.parquet");
    common::batchgen()
        .args([
            "--algo", "kruskal", "--size", "6x6", "--count", "200", "-q", "--out",
        ])
        .arg(&base)
        .assert()
        .success();
    let odd = d.path().join("mixbig.parquet");
    common::with_float_column(&base, &odd, "dead_end_share", |i| {
        if i % 2 == 0 {
            1e308
        } else {
            -1e308
        }
    });
    let out = common::batchgen()
        .arg("summary")
        .arg(&odd)
        .args(["--format", "json"])
        .output()
        .unwrap();
    common::assert_ok(&out);
    let groups: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let m = &groups[0]["metrics"]["dead_end_share"];
    let mean = m["mean"].as_f64().unwrap();
    let se = m["std_err"].as_f64().unwrap();
    assert!(mean.abs() <= 1e-12 * 1e308, "{m}");
    let want = 1e308 / 199f64.sqrt();
    assert!((se - want).abs() <= 1e-9 * want, "{m}");
    assert_eq!(m["p50"].as_f64(), Some(0.0), "{m}");
    let table = common::batchgen()
        .arg("summary")
        .arg(&odd)
        .output()
        .unwrap();
    common::assert_ok(&table);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(!text.contains("inf") && !text.contains("NaN"), "{text}");
}
