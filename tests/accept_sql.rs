//! One filter language: every expression of a corpus selects exactly the same rows (by
//! `(algo, index)`) in batchgen's evaluator and in DuckDB's `WHERE`, on a file made by the
//! binary with several generators. Where DuckDB stops with an error (unsigned overflow,
//! integer division by zero) the test checks that it does, and that batchgen's documented
//! answer equals DuckDB's on the documented rewriting (`::BIGINT`, `TRY(…)`).

use crate::common;

use std::collections::BTreeSet;
use std::io::Write;

use batchgen::accept::{Accept, COLUMNS};
use batchgen::metrics::Filter;
use batchgen::topo::Grid;

/// Expressions as a user would paste them from DuckDB.
const CORPUS: &[&str] = &[
    "dead_end_share <= 0.3 AND solution_length >= 20",
    "dead_end_share <= 0.3 and solution_length >= 20 or diameter > 60",
    "NOT (diameter > 40)",
    "not diameter > 40 and dead_ends < 30",
    "diameter = 40",
    "diameter <> 40",
    "diameter == 40",
    "diameter != 40",
    "solution_length BETWEEN 20 AND 40",
    "solution_length NOT BETWEEN 20 AND 40",
    "dead_ends IN (20, 22, 24, 26)",
    "dead_ends NOT IN (20, 22, 24, 26)",
    "algo = 'wilson'",
    "algo <> 'wilson' AND dead_ends > 25",
    "algo IN ('kruskal', 'backtracker') OR diameter < 30",
    "algo NOT IN ('binary-tree')",
    "algo < 'k'",
    "algo >= 'binary-tree' AND algo <= 'kruskal'",
    "solution_length / diameter > 0.8",
    "solution_length / diameter >= 1",
    "solution_length * 1.0 / diameter > 0.75",
    "(solution_length + diameter) / 2 > 35",
    "dead_ends * 2 + junctions > 40",
    "diameter - solution_length > 10",
    "solution_length / (diameter - diameter) > 1",
    "0 / (diameter - diameter) > 1e308",
    "(dead_ends - dead_ends) / (diameter - diameter) = 0 / 0",
    "solution_turns / (junctions - junctions) < 0",
    "-1 / (diameter - diameter) < 0",
    "1 / (solution_turns % 2) > 1e300",
    "solution_length // 7 = 5",
    "solution_length % 7 = 3",
    "(solution_length::BIGINT - 40) // 3 = -2",
    "(solution_length::BIGINT - 40) % 3 = -1",
    "dead_end_share // 0.05 > 5.5",
    "dead_end_share % 0.07 < 0.03",
    "-solution_length::BIGINT < -30",
    "solution_length::BIGINT - 50 > -10",
    "CAST(dead_end_share * 100 AS BIGINT) = 25",
    "(dead_end_share * 10)::BIGINT = 3",
    "dead_end_share * 100 > 25 AND dead_end_share * 100 < 27",
    "dead_end_share > 2.5e-1",
    "dead_end_share >= 25E-2 OR solution_turns >= 1.2e1",
    "solution_length * 1e-1 > 3",
    "solution_length * 0.1 > 3",
    "dead_ends * 0.1 > 2.7",
    "dead_ends * 1e-1 > 2.7",
    "solution_length * 0.1 = 3.0",
    "dead_ends * 0.01 + 0.05 BETWEEN 0.25 AND 0.3",
    "(solution_length * 0.1)::BIGINT = 3",
    "(solution_length * 0.05)::BIGINT = 2",
    "solution_length % 2.5 = 0",
    "-0.5 * dead_ends < -12",
    "dead_ends / 0.3 > 80",
    "dead_ends // 0.3 > 80",
    "0.1 * dead_end_share * 100 > 2.5",
    "(diameter > 40 OR dead_ends < 20) AND NOT (junctions BETWEEN 5 AND 10)",
    "diameter > NULL OR dead_ends > 25",
    "NOT (diameter > NULL) OR dead_ends > 25",
    "NOT (diameter > NULL AND dead_ends > 25)",
    "dead_ends IN (25, NULL)",
    "dead_ends NOT IN (25, NULL)",
    "(dead_ends > NULL) IS NULL AND diameter > 45",
    "NOT NULL OR dead_ends > 25",
    "NULL OR TRUE AND dead_ends > 25",
    "(NULL OR TRUE) AND dead_ends > 25",
    "(NULL AND FALSE) IS NOT NULL AND dead_ends > 25",
    "NULL IS NULL AND diameter > 45",
    "index % 2 = 0 AND index < 100",
    "width * height = 108 AND index BETWEEN 10 AND 20",
    "depth = 1 AND width * height * depth = 108 AND index < 30",
    "depth > 1 OR dead_ends > 25",
    "dead_ends / junctions > 2.5",
    "straights / corridors > 0.5",
    "DEAD_ENDS > 25 AND Diameter < 50",
    "\"dead_ends\" > 25",
    "dead_ends % junctions = 0",
    "diameter_start > diameter_end",
    "TRUE AND dead_ends > 25",
    "NOT FALSE AND NOT dead_ends < 25",
    "dead_end_share BETWEEN 0.2 AND 0.3 AND algo IN ('wilson', 'kruskal')",
    "- - diameter::BIGINT = diameter",
    "+diameter > 40",
    "solution_turns * solution_turns > diameter * 3",
    "dead_end_share * solution_length > 8.5",
    "dead_end_share / 0 > 1",
    "(dead_end_share - dead_end_share) / 0 >= 0",
];

/// (batchgen expression, DuckDB spelling of what batchgen computes, why DuckDB differs).
const REWRITTEN: &[(&str, &str)] = &[
    // DuckDB: "Overflow in subtraction of UINT32"; batchgen computes the true difference.
    ("dead_ends - 30 > -5", "dead_ends::BIGINT - 30 > -5"),
    (
        "junctions - dead_ends < 0",
        "junctions::BIGINT - dead_ends < 0",
    ),
    // DuckDB: "Division by zero" for integers; batchgen gives NULL, as DuckDB's TRY does.
    (
        "1 // (diameter - diameter) IS NULL AND dead_ends > 25",
        "TRY(1 // (diameter - diameter)) IS NULL AND dead_ends > 25",
    ),
    (
        "(solution_length % (diameter - diameter) = 0) IS NULL AND dead_ends > 25",
        "(TRY(solution_length % (diameter - diameter)) = 0) IS NULL AND dead_ends > 25",
    ),
];

const PY: &str = r#"
import json, sys
import duckdb
path = sys.argv[1]
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")  # no bar in the output after 2 s
con.execute(f"CREATE VIEW t AS SELECT * FROM read_parquet('{path}')")
for line in sys.stdin:
    expr = json.loads(line)
    try:
        rows = con.execute(f"SELECT algo, index FROM t WHERE {expr}").fetchall()
        print(json.dumps({"rows": [f"{a}:{i}" for a, i in rows]}))
    except Exception as e:
        print(json.dumps({"error": str(e).splitlines()[0]}))
"#;

/// DuckDB's answer for each expression: the selected `algo:index` keys, or its error.
fn duckdb(path: &std::path::Path, exprs: &[&str]) -> Vec<Result<BTreeSet<String>, String>> {
    let mut child = std::process::Command::new(common::python())
        .arg("-c")
        .arg(PY)
        .arg(path)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        for e in exprs {
            writeln!(
                stdin,
                "\"{}\"",
                e.replace('\\', "\\\\").replace('"', "\\\"")
            )
            .unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .map(|l| {
            if let Some(e) = l.strip_prefix("{\"error\": ") {
                return Err(e.to_string());
            }
            let body = l
                .strip_prefix("{\"rows\": [")
                .and_then(|b| b.strip_suffix("]}"))
                .unwrap_or_else(|| panic!("unexpected line {l}"));
            Ok(body
                .split(", ")
                .filter(|s| !s.is_empty())
                .map(|s| s.trim_matches('"').to_string())
                .collect())
        })
        .collect()
}

/// batchgen's answer, from the library's evaluator over the rows read back from the file.
fn ours(t: &common::Table, expr: &str) -> BTreeSet<String> {
    let a = Accept::parse(expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
    // Indexed like the column table; only the columns a filter may read are looked up.
    let cols: Vec<usize> = COLUMNS
        .iter()
        .map(|c| match c.filter {
            Filter::Number => t.col(c.name),
            _ => usize::MAX,
        })
        .collect();
    let (algo, index) = (t.col("algo"), t.col("index"));
    // A square file has no `grid` column: its rows are on the square grid.
    let grid = t.columns.iter().position(|c| c == "grid");
    let grid_of = |r: &[String]| grid.map_or(Grid::Square, |g| Grid::parse(&r[g]).unwrap());
    t.rows
        .iter()
        .filter(|r| {
            a.eval_with(&r[algo], grid_of(r), |i| {
                r[cols[i as usize]].parse().unwrap()
            })
        })
        .map(|r| format!("{}:{}", r[algo], r[index]))
        .collect()
}

/// On a hex file (which has the `grid` column) the grid comparisons select DuckDB's rows, and
/// a square file's rows are `square` (DuckDB has no `grid` column there).
#[test]
fn grid_comparisons_select_the_same_rows_as_duckdb() {
    let d = tempfile::tempdir().unwrap();
    let t = common::run(
        d.path(),
        "hex.parquet",
        &[
            "--grid",
            "hex",
            "--size",
            "6x5",
            "--algo",
            "wilson,prim",
            "--count",
            "60",
        ],
    );
    let exprs = [
        "grid = 'hex'",
        "grid == 'hex' AND dead_ends > 8",
        "grid <> 'hex' OR dead_ends < 7",
        "grid IN ('triangle', 'hex') AND algo = 'prim'",
        "grid NOT IN ('hex') OR dead_ends = 8",
        "grid = 'square'",
        "grid = 'hexagon' OR dead_ends > 9",
        "grid < 'i' AND grid > 'h' AND dead_ends > 8",
        "grid = algo OR grid < algo AND dead_ends > 8",
    ];
    let want = duckdb(&d.path().join("hex.parquet"), &exprs);
    let mut nontrivial = 0;
    for (expr, want) in exprs.iter().zip(want) {
        let want = want.unwrap_or_else(|e| panic!("DuckDB refused {expr}: {e}"));
        let got = ours(&t, expr);
        nontrivial += usize::from(!got.is_empty() && got.len() < t.rows.len());
        assert_eq!(got, want, "{expr}");
    }
    assert!(
        nontrivial >= 5,
        "only {nontrivial} expressions split the rows"
    );
    let sq = common::run(
        d.path(),
        "sq.parquet",
        &["--algo", "wilson", "--size", "5x5", "--count", "20"],
    );
    assert!(ours(&sq, "grid = 'hex'").is_empty());
    assert_eq!(ours(&sq, "grid = 'square' AND grid <> 'hex'").len(), 20);
}

#[test]
fn sql_accept_selects_the_same_rows_as_duckdb() {
    assert!(CORPUS.len() >= 40);
    let d = tempfile::tempdir().unwrap();
    let t = common::run(
        d.path(),
        "m.parquet",
        &[
            "--algo",
            "wilson,kruskal,backtracker,binary-tree,recursive-division",
            "--size",
            "12x9",
            "--count",
            "400",
            "--seed",
            "11",
        ],
    );
    let path = d.path().join("m.parquet");
    let want = duckdb(&path, CORPUS);
    let mut nontrivial = 0;
    for (expr, want) in CORPUS.iter().zip(want) {
        let want = want.unwrap_or_else(|e| panic!("DuckDB refused {expr}: {e}"));
        let got = ours(&t, expr);
        if !got.is_empty() && got.len() < t.rows.len() {
            nontrivial += 1;
        }
        assert!(
            got == want,
            "{expr}: batchgen selects {} rows, DuckDB {}; only batchgen: {:?}; only DuckDB: {:?}",
            got.len(),
            want.len(),
            got.difference(&want).take(5).collect::<Vec<_>>(),
            want.difference(&got).take(5).collect::<Vec<_>>()
        );
    }
    // The corpus must discriminate: most expressions select some rows but not all.
    assert!(
        nontrivial >= 30,
        "only {nontrivial} expressions split the rows"
    );

    let ours_exprs: Vec<&str> = REWRITTEN.iter().map(|p| p.0).collect();
    let sql_exprs: Vec<&str> = REWRITTEN.iter().map(|p| p.1).collect();
    for ((expr, raw), rewritten) in ours_exprs
        .iter()
        .zip(duckdb(&path, &ours_exprs))
        .zip(duckdb(&path, &sql_exprs))
    {
        let err = raw.expect_err(&format!("DuckDB was expected to refuse {expr}"));
        assert!(
            err.contains("Overflow") || err.contains("Division by zero"),
            "{expr}: {err}"
        );
        let want = rewritten.unwrap();
        assert!(!want.is_empty(), "{expr}: select something");
        assert_eq!(ours(&t, expr), want, "{expr}");
    }
}

/// A constant cast out of an integer type's range (or of NaN or infinity) is refused by DuckDB
/// ("Conversion Error") and by batchgen's parser, naming the cast; in range, both compute it.
#[test]
fn constant_casts_out_of_range_are_refused_like_duckdb() {
    let d = tempfile::tempdir().unwrap();
    let t = common::run(
        d.path(),
        "m.parquet",
        &["--algo", "wilson", "--size", "6x6", "--count", "50"],
    );
    let path = d.path().join("m.parquet");
    let refused = [
        "CAST(1e300 AS BIGINT) > 0 OR dead_ends > 5",
        "(0/0)::BIGINT > 0 OR dead_ends > 5",
        "(1/0)::BIGINT > 0 OR dead_ends > 5",
        "CAST(3e9 AS INTEGER) > 0 OR dead_ends > 5",
        "CAST(-1e39 AS HUGEINT) > 0 OR dead_ends > 5",
    ];
    for (expr, duck) in refused.iter().zip(duckdb(&path, &refused)) {
        let err = duck.expect_err(&format!("DuckDB was expected to refuse {expr}"));
        assert!(
            err.contains("Conversion Error") || err.contains("out of range"),
            "{expr}: {err}"
        );
        let ours = Accept::parse(expr).unwrap_err().to_string();
        assert!(
            ours.contains("CAST of") && ours.contains("out of range"),
            "{expr}: {ours}"
        );
    }
    let kept = [
        "CAST(3e9 AS BIGINT) > 0 AND dead_ends > 5",
        "CAST(-2147483648 AS INTEGER) < 0 AND dead_ends > 5",
        "(2.5e18)::BIGINT > 0 AND dead_ends > 5",
    ];
    for (expr, duck) in kept.iter().zip(duckdb(&path, &kept)) {
        assert_eq!(ours(&t, expr), duck.unwrap(), "{expr}");
    }
}

/// A literal with a decimal point is an exact DECIMAL, as in DuckDB: `3 * 0.1` is exactly 0.3
/// (a double product would be 0.30000000000000004); a DOUBLE operand makes the step a double.
#[test]
fn decimal_literals_are_exact() {
    let m = batchgen::Metrics {
        solution_length: 30,
        dead_ends: 3,
        dead_end_share: 0.25,
        ..Default::default()
    };
    let row = batchgen::metrics::Row {
        metrics: m,
        ..Default::default()
    };
    let c = batchgen::accept::Candidate {
        algo: "wilson",
        grid: batchgen::topo::Grid::Square,
        size: batchgen::grid::Size::planar(1, 1),
        seed: 0,
        row: &row,
    };
    let t = |e: &str| Accept::parse(e).unwrap().eval(&c);
    assert!(!t("dead_ends * 0.1 > 0.3"));
    assert!(t("dead_ends * 0.1 = 0.3"));
    assert!(t("dead_ends * 1e-1 > 0.3"), "1e-1 is a DOUBLE");
    assert!(t("solution_length * 0.1 = 3"));
    assert!(t("(solution_length * 0.1 + 0.15)::BIGINT = 3"));
    assert!(
        t("(solution_length * 0.05)::BIGINT = 2"),
        "1.5 rounds away from 0"
    );
    assert!(
        t("(dead_end_share * 10)::BIGINT = 2"),
        "2.5 as a double rounds to even"
    );
    assert!(t("0.1 + 0.2 = 0.3 AND 1e-1 + 2e-1 <> 3e-1"));
}
