//! Accept filters end to end: accepted rows satisfy the expression and are exactly the first
//! passing candidates in index order (the rejected ones did not pass), whatever the thread
//! count; impossible filters stop with the counts and a non-zero exit; parse errors exit 2.

use crate::common;

use predicates::str::contains;

const EXPR: &str = "dead_end_share <= 0.3 && solution_length >= 20 || diameter > 60";

#[test]
fn accepted_rows_are_the_first_passing_candidates() {
    let d = tempfile::tempdir().unwrap();
    let base = [
        "--algo",
        "kruskal,backtracker",
        "--size",
        "11x8",
        "--seed",
        "4",
    ];
    let acc = common::run(
        d.path(),
        "a.parquet",
        &[
            &base[..],
            &["--count", "150", "--accept", EXPR, "--threads", "1"],
        ]
        .concat(),
    );
    let acc2 = common::run(
        d.path(),
        "b.parquet",
        &[&base[..], &["--count", "150", "--accept", EXPR]].concat(),
    );
    assert_eq!(
        acc.without_timing(),
        acc2.without_timing(),
        "same set for any thread count"
    );
    // Every candidate, unfiltered (enough of them to cover the accepted range).
    let all = common::run(
        d.path(),
        "all.parquet",
        &[&base[..], &["--count", "2000"]].concat(),
    );
    let c = |t: &common::Table, n: &str| t.col(n);
    let pass = |t: &common::Table, r: &Vec<String>| {
        let f = |n: &str| r[c(t, n)].parse::<f64>().unwrap();
        f("dead_end_share") <= 0.3 && f("solution_length") >= 20.0 || f("diameter") > 60.0
    };
    for algo in ["kruskal", "backtracker"] {
        let want: Vec<Vec<String>> = all
            .without_timing()
            .into_iter()
            .zip(&all.rows)
            .filter(|(_, r)| r[c(&all, "algo")] == algo && pass(&all, r))
            .map(|(w, _)| w)
            .take(150)
            .collect();
        assert_eq!(want.len(), 150, "enough passing candidates among 2000");
        let got: Vec<Vec<String>> = acc
            .without_timing()
            .into_iter()
            .filter(|r| r[c(&acc, "algo")] == algo)
            .collect();
        assert_eq!(
            got, want,
            "{algo}: accepted = first 150 passing candidates, indices kept"
        );
        let last = want.last().unwrap()[c(&acc, "index")].clone();
        let tried: u64 = last.parse::<u64>().unwrap() + 1;
        assert_eq!(
            acc.meta[&format!("batchgen.candidates.{algo}")],
            tried.to_string()
        );
        assert_eq!(acc.meta[&format!("batchgen.accepted.{algo}")], "150");
        assert!(acc
            .meta
            .contains_key(&format!("batchgen.acceptance_rate.{algo}")));
    }
    assert_eq!(acc.meta["batchgen.accept"], EXPR);
}

#[test]
fn closing_line_reports_the_acceptance_rate() {
    let d = tempfile::tempdir().unwrap();
    common::batchgen()
        .args([
            "--algo",
            "wilson",
            "--size",
            "8x8",
            "--count",
            "10",
            "--accept",
            "index >= 90",
        ])
        .arg("--out")
        .arg(d.path().join("r.parquet"))
        .assert()
        .success()
        .stderr(contains("accepted 10 of 100 candidates (10.00%"));
}

#[test]
fn an_impossible_filter_stops_with_counts_and_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("never.parquet");
    let store = d.path().join("never.bgm");
    common::batchgen()
        .args(["--algo", "wilson,kruskal", "--size", "6x6", "--count", "5"])
        .args([
            "--accept",
            "dead_ends > 1000",
            "--max-candidates",
            "3000",
            "--quiet",
        ])
        .arg("--mazes")
        .arg(&store)
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .code(1)
        .stderr(contains("wilson: 0 of 3000 candidates"))
        .stderr(contains("kruskal: 0 of 3000 candidates"))
        .stderr(contains("nothing was written"));
    assert_eq!(
        std::fs::read_dir(d.path()).unwrap().count(),
        0,
        "no file, no temp file"
    );
}

#[test]
fn parse_errors_point_at_the_position_and_list_columns() {
    let d = tempfile::tempdir().unwrap();
    common::batchgen()
        .args([
            "--accept",
            "dead_end_share <= 0.12 && solutoin_length >= 300",
            "--out",
        ])
        .arg(d.path().join("x.parquet"))
        .assert()
        .code(2)
        .stderr(contains("--accept"))
        .stderr(contains("unknown column 'solutoin_length' at position 27"))
        // In the column table's (Parquet) order, depth included.
        .stderr(contains(
            "valid columns: algo, width, height, depth, index, dead_ends",
        ));
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}

/// A non-finite literal and a non-ASCII identifier are reported whole.
#[test]
fn bad_literals_and_identifiers_are_reported_whole() {
    let d = tempfile::tempdir().unwrap();
    for (expr, want) in [
        ("dead_ends < 1e999", "the number '1e999' is out of range"),
        ("déad_ends > 3", "unknown column 'déad_ends' at position 1"),
        (
            "dead_ends > 3 AND 5abc < 2",
            "'5abc' is not a number at position 19",
        ),
        ("algo = 3", "cannot compare a string with a number"),
    ] {
        common::batchgen()
            .args(["--accept", expr, "--out"])
            .arg(d.path().join("x.parquet"))
            .assert()
            .code(2)
            .stderr(contains(want))
            .stderr(contains("^"));
    }
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}

/// The SQL spelling of a filter accepts exactly the rows of the C-style spelling.
#[test]
fn sql_and_c_style_spellings_accept_the_same_mazes() {
    let d = tempfile::tempdir().unwrap();
    let base = [
        "--algo",
        "kruskal,wilson",
        "--size",
        "11x8",
        "--count",
        "60",
    ];
    let c = common::run(
        d.path(),
        "c.parquet",
        &[&base[..], &["--accept", EXPR]].concat(),
    );
    let sql = "dead_end_share <= 0.3 AND solution_length >= 20 OR diameter > 60";
    let s = common::run(
        d.path(),
        "s.parquet",
        &[&base[..], &["--accept", sql]].concat(),
    );
    assert_eq!(c.without_timing(), s.without_timing());
    let sql = "algo = 'wilson' AND solution_length BETWEEN 20 AND 30 \
               OR algo <> 'wilson' AND solution_length / diameter > 0.9";
    let t = common::run(
        d.path(),
        "t.parquet",
        &[&base[..], &["--accept", sql]].concat(),
    );
    let (a, sl, di) = (t.col("algo"), t.col("solution_length"), t.col("diameter"));
    for r in &t.rows {
        let (l, m): (f64, f64) = (r[sl].parse().unwrap(), r[di].parse().unwrap());
        if r[a] == "wilson" {
            assert!((20.0..=30.0).contains(&l), "{r:?}");
        } else {
            assert!(l / m > 0.9, "{r:?}");
        }
    }
    assert_eq!(t.rows.len(), 120);
}

#[test]
fn ends_diameter_makes_the_solution_a_longest_path() {
    let d = tempfile::tempdir().unwrap();
    let t = common::run(
        d.path(),
        "e.parquet",
        &["--size", "12x9", "--count", "300", "--ends", "diameter"],
    );
    let (s, di) = (t.col("solution_length"), t.col("diameter"));
    assert!(t.rows.iter().all(|r| r[s] == r[di]));
    assert!(t.meta["batchgen.ends"].starts_with("diameter"));
    common::batchgen()
        .args(["--ends", "diameter", "--exit", "1,1", "--out"])
        .arg(d.path().join("y.parquet"))
        .assert()
        .code(2)
        .stderr(contains("--ends diameter"));
}

/// `depth` is a column like the others: 1 for every 2D maze, so `depth = 1` keeps every
/// candidate and `depth > 1` none; `summary --accept` reads it from the file.
#[test]
fn the_depth_column_can_be_filtered_on() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("flat.parquet");
    common::batchgen()
        .args(["--algo", "kruskal", "--size", "7x5", "--count", "20"])
        .args(["--accept", "depth = 1 AND width * height * depth = 35"])
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stderr(contains("accepted 20 of 20 candidates"));
    common::batchgen()
        .args(["--algo", "kruskal", "--size", "7x5", "--count", "2"])
        .args(["--accept", "depth > 1", "--max-candidates", "50", "--quiet"])
        .arg("--out")
        .arg(d.path().join("none.parquet"))
        .assert()
        .code(1)
        .stderr(contains("kruskal: 0 of 50 candidates"));
    common::batchgen()
        .arg("summary")
        .arg(&out)
        .args(["--accept", "depth = 1"])
        .assert()
        .success()
        .stdout(contains("20 pass (100.00%)"));
}

/// `grid` is a string column like `algo`: on a hex run `grid = 'hex'` passes every candidate
/// and keeps the other terms' rows (the first passing ones, as without the grid term), a
/// square run's rows are `square` (`grid = 'hex'` selects nothing), `IN`, `<>` and order work
/// as on `algo`, a name that is no grid selects nothing (as an unknown generator name does),
/// and comparing it with a number is a type error (exit 2).
#[test]
fn the_grid_column_filters_like_algo() {
    let d = tempfile::tempdir().unwrap();
    let hex = [
        "--grid",
        "hex",
        "--size",
        "7x5",
        "--algo",
        "wilson,prim",
        "--seed",
        "3",
    ];
    let run = |name: &str, args: &[&str], expr: &str| {
        common::run(
            d.path(),
            name,
            &[args, &["--count", "20", "--threads", "2", "--accept", expr]].concat(),
        )
    };
    let key = |t: &common::Table| -> Vec<(String, String)> {
        let (a, i) = (t.col("algo"), t.col("index"));
        t.rows
            .iter()
            .map(|r| (r[a].clone(), r[i].clone()))
            .collect()
    };
    let plain = run("plain.parquet", &hex, "dead_ends >= 9");
    for (k, expr) in [
        "grid = 'hex' AND dead_ends >= 9",
        "dead_ends >= 9 AND grid IN ('polar', 'hex')",
        "grid <> 'square' AND NOT grid = 'triangle' AND dead_ends >= 9",
        "grid >= 'h' AND grid < 'i' AND dead_ends >= 9",
        "(grid = 'hexagon' OR dead_ends >= 9) AND grid = 'hex'",
    ]
    .into_iter()
    .enumerate()
    {
        let t = run(&format!("hex{k}.parquet"), &hex, expr);
        assert_eq!(key(&t), key(&plain), "{expr}");
        let g = t.col("grid");
        assert!(t.rows.iter().all(|r| r[g] == "hex"), "{expr}");
        assert_eq!(t.rows.len(), 40, "{expr}");
    }
    let square = ["--size", "6x6", "--algo", "wilson"];
    let t = run(
        "sq.parquet",
        &square,
        "grid = 'square' AND grid NOT IN ('hex')",
    );
    assert_eq!(t.rows.len(), 20);
    assert_eq!(t.meta["batchgen.candidates.wilson"], "20");
    for (args, expr) in [
        (&square[..], "grid = 'hex'"),
        (&square[..], "grid IN ('hex', 'triangle', 'polar')"),
        (&hex[..], "grid = 'square'"),
        (&hex[..], "grid = 'hexagon'"),
    ] {
        common::batchgen()
            .args(args)
            .args(["--count", "3", "--max-candidates", "50", "--accept", expr])
            .args(["--quiet", "--out"])
            .arg(d.path().join("none.parquet"))
            .assert()
            .code(1)
            .stderr(contains("0 of 50 candidates"))
            .stderr(contains("nothing was written"));
    }
    assert!(!d.path().join("none.parquet").exists());
    for (expr, why) in [
        ("grid = 3", "cannot compare a string with a number"),
        ("grid + 1 > 2", "arithmetic needs numbers, found a string"),
        (
            "grid > 1 OR dead_ends > 2",
            "cannot compare a string with a number",
        ),
    ] {
        common::batchgen()
            .args(hex)
            .args(["--accept", expr, "--out"])
            .arg(d.path().join("bad.parquet"))
            .assert()
            .code(2)
            .stderr(contains("--accept"))
            .stderr(contains(why))
            .stderr(contains("solution_twist, grid"));
    }
}
