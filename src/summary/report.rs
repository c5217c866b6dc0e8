//! Printing a [`Summary`] as an aligned table (the seed's "dead ends= 10.6% … (0.6 ms per
//! maze)" line grown into one block per group), as CSV (one row per group and metric) or as
//! JSON (one object per group, [`super::report_json`]).

use crate::printable::printable;
use crate::thousands::thousands;
use std::fmt::Write;

use super::{Group, Key, Summary, QUANTILES};

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned text for people.
    Table,
    /// One row per group and metric.
    Csv,
    /// An array of group objects.
    Json,
}

impl Format {
    /// Parse `table`, `csv` or `json`.
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "table" => Some(Format::Table),
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

/// A group's name for the table, control characters escaped (the values come from files).
fn label(k: &Key) -> String {
    let p = |s: &str| printable(s).into_owned();
    match (&k.algo, &k.size) {
        (Some(a), Some(s)) => format!("{} {}", p(a), p(s)),
        (Some(a), None) => p(a),
        (None, Some(s)) => p(s),
        (None, None) => "all".into(),
    }
}

/// A number for people, to `digits` significant digits (`0.1023`, `37450`, `1.8e-5`): whole
/// numbers below 10^`digits` as they are, trailing zeros dropped, scientific notation only
/// outside 0.001..1e15. (CSV and JSON keep full precision.)
pub fn sig(x: f64, digits: u32) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    if x == 0.0 {
        return "0".into();
    }
    let digits = digits.max(1) as i32;
    let mag = x.abs().log10().floor() as i32;
    if !(-3..15).contains(&mag) {
        let e = format!("{:.*e}", (digits - 1) as usize, x);
        // `1.800e-5` → `1.8e-5`
        return match e.split_once('e') {
            Some((m, exp)) if m.contains('.') => {
                format!("{}e{exp}", m.trim_end_matches('0').trim_end_matches('.'))
            }
            _ => e,
        };
    }
    let decimals = (digits - 1 - mag).max(0) as usize;
    // Round to `digits` significant digits, also left of the point (37451.4 → 37450).
    let r = if mag + 1 > digits {
        let scale = 10f64.powi(mag + 1 - digits);
        (x / scale).round() * scale
    } else {
        x
    };
    let t = format!("{r:.decimals$}");
    if t.contains('.') {
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        t
    }
}

/// Four significant digits: the precision of the summary table.
fn short(x: f64) -> String {
    sig(x, 4)
}

/// Generation time per maze in milliseconds: (mean, median) of the `gen_ns` column.
fn gen_ms(g: &Group) -> Option<(f64, f64)> {
    g.metrics
        .iter()
        .find(|m| m.0 == "gen_ns" && m.1.count() > 0)
        .map(|m| (m.1.mean() / 1e6, m.1.quantiles(&[0.5])[0] / 1e6))
}

fn table(s: &Summary) -> String {
    let mut out = String::new();
    for (k, g) in &s.groups {
        let _ = write!(out, "{}: {} mazes", label(k), thousands(g.rows));
        if let Some((mean, median)) = gen_ms(g) {
            let _ = write!(
                out,
                ", generation time per maze: mean {} ms, median {} ms",
                sig(mean, 3),
                sig(median, 3)
            );
        }
        out.push('\n');
        if let Some(a) = &s.accept {
            let (share, per) = g.pass_rate();
            let _ = writeln!(
                out,
                "  --accept '{a}': {} pass ({:.2}%), {}",
                thousands(g.passing),
                100.0 * share,
                if per.is_finite() {
                    format!("{per:.1} candidates per accepted maze")
                } else {
                    "no maze accepted".into()
                }
            );
        }
        let _ = writeln!(
            out,
            "  {:<22} {:>24} {:>10} {:>10} {:>10} {:>10} {:>10}",
            "metric", "mean ± s.e.", "p5", "p25", "p50", "p75", "p95"
        );
        for (name, st) in &g.metrics {
            let q = st.quantiles(&QUANTILES);
            let mean = format!("{} ± {}", short(st.mean()), short(st.std_err()));
            let mark = if st.exact() { "" } else { " ≈" };
            let _ = writeln!(
                out,
                "  {:<22} {:>24} {:>10} {:>10} {:>10} {:>10} {:>10}{mark}",
                printable(name),
                mean,
                short(q[0]),
                short(q[1]),
                short(q[2]),
                short(q[3]),
                short(q[4])
            );
            let nf = st.nonfinite();
            if nf.total() > 0 {
                let _ = writeln!(out, "  {:<22} {nf}, left out of the figures above", "");
            }
        }
    }
    if s.groups
        .iter()
        .any(|g| g.1.metrics.iter().any(|m| !m.1.exact()))
    {
        out.push_str(
            "≈: quantiles from a logarithmic sketch, within 0.5% of the exact value \
             (more than 65,536 distinct values)\n",
        );
    }
    out
}

/// What a cell of the compact table shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellStat {
    /// `mean ± s.e.`
    Mean,
    /// `median [p5–p95]`
    Median,
}

/// The metrics the compact table shows when none are chosen: the ones a level designer
/// filters on first; they fit 100 columns beside the longest generator name.
pub const COMPACT_COLUMNS: [&str; 4] = [
    "dead_end_share",
    "solution_length",
    "diameter",
    "solution_turns",
];

fn cell(st: &super::dist::Stat, stat: CellStat) -> String {
    if st.count() == 0 {
        return "-".into();
    }
    match stat {
        CellStat::Mean => format!("{} ± {}", short(st.mean()), sig(st.std_err(), 2)),
        CellStat::Median => {
            let q = st.quantiles(&[0.05, 0.5, 0.95]);
            format!("{} [{}–{}]", short(q[1]), sig(q[0], 3), sig(q[2], 3))
        }
    }
}

/// The compact table: one row per group (its label and rows), one column per metric of the
/// summary (choose them beforehand), each cell `mean ± s.e.` or `median [p5–p95]`; with a
/// filter, the passing share as the last column.
pub fn compact(s: &Summary, stat: CellStat) -> String {
    let mut names: Vec<&str> = Vec::new();
    for (_, g) in &s.groups {
        for (m, _) in &g.metrics {
            if !names.contains(&m.as_str()) {
                names.push(m);
            }
        }
    }
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut head = vec!["group".to_string(), "rows".to_string()];
    head.extend(names.iter().map(|n| printable(n).into_owned()));
    if s.accept.is_some() {
        head.push("pass".into());
    }
    rows.push(head);
    for (k, g) in &s.groups {
        let mut r = vec![label(k), thousands(g.rows)];
        for n in &names {
            r.push(
                g.metrics
                    .iter()
                    .find(|m| m.0 == *n)
                    .map_or("-".into(), |m| cell(&m.1, stat)),
            );
        }
        if s.accept.is_some() {
            r.push(format!("{}%", sig(100.0 * g.pass_rate().0, 3)));
        }
        rows.push(r);
    }
    let cols = rows[0].len();
    let width: Vec<usize> = (0..cols)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in &rows {
        let mut line = String::new();
        for (c, v) in r.iter().enumerate() {
            let pad = width[c] - v.chars().count();
            if c == 0 {
                line += v;
                line += &" ".repeat(pad);
            } else {
                line += "  ";
                line += &" ".repeat(pad);
                line += v;
            }
        }
        out += line.trim_end();
        out.push('\n');
    }
    if let Some(a) = &s.accept {
        let _ = writeln!(out, "pass: the share of rows passing --accept '{a}'");
    }
    out += match stat {
        CellStat::Mean => "cells: mean ± standard error (4 and 2 significant digits)\n",
        CellStat::Median => "cells: median [5th–95th percentile]\n",
    };
    out
}

/// CSV field quoting (RFC 4180), control characters escaped (the values come from files).
fn csv_field(s: &str) -> String {
    let s = printable(s);
    if s.contains([',', '"']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(s: &Summary) -> String {
    let mut out = String::from(
        "algo,size,rows,metric,mean,std_err,p5,p25,p50,p75,p95,exact_quantiles,pos_inf,neg_inf,nan",
    );
    if s.accept.is_some() {
        out.push_str(",passing,share,candidates_per_accepted");
    }
    out.push('\n');
    for (k, g) in &s.groups {
        for (name, st) in &g.metrics {
            let q = st.quantiles(&QUANTILES);
            let _ = write!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(k.algo.as_deref().unwrap_or("")),
                csv_field(k.size.as_deref().unwrap_or("")),
                g.rows,
                csv_field(name),
                st.mean(),
                st.std_err(),
                q[0],
                q[1],
                q[2],
                q[3],
                q[4],
                st.exact(),
                st.nonfinite().pos_inf,
                st.nonfinite().neg_inf,
                st.nonfinite().nan
            );
            if s.accept.is_some() {
                let (share, per) = g.pass_rate();
                let _ = write!(out, ",{},{share},{per}", g.passing);
            }
            out.push('\n');
        }
    }
    out
}

/// Render the summary.
pub fn render(s: &Summary, f: Format) -> String {
    match f {
        Format::Table => table(s),
        Format::Csv => csv(s),
        Format::Json => super::report_json::render(s),
    }
}

#[cfg(test)]
mod tests {
    use super::sig;

    #[test]
    fn numbers_to_significant_digits() {
        for (x, want) in [
            (0.0, "0"),
            (100.0, "100"),
            (37451.4, "37450"),
            (114.04999999999927, "114"),
            (0.10234, "0.1023"),
            (0.000018, "1.8e-5"),
            (-2.5, "-2.5"),
            (1400000.0, "1400000"),
            (1e308, "1e308"),
            (0.5, "0.5"),
            (12.3456, "12.35"),
            (f64::INFINITY, "inf"),
        ] {
            assert_eq!(sig(x, 4), want, "{x}");
        }
        assert_eq!(sig(0.10234, 3), "0.102");
    }
}
