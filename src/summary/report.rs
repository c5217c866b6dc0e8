//! Printing a [`Summary`] as an aligned table (the seed's "dead ends= 10.6% … (0.6 ms per
//! maze)" line grown into one block per group), as CSV (one row per group and metric) or as
//! JSON (one object per group).

use crate::printable::printable;
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

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A number for people: integers as integers, else 4 significant digits (at least 1 decimal).
fn short(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{x:.0}");
    }
    let mag = if x == 0.0 {
        0
    } else {
        x.abs().log10().floor() as i32
    };
    let decimals = (3 - mag).clamp(1, 8) as usize;
    format!("{x:.decimals$}")
}

/// Pass-rate figures of a group: share of rows passing and candidates per accepted maze.
pub fn pass_rate(g: &Group) -> (f64, f64) {
    let share = g.passing as f64 / g.rows.max(1) as f64;
    let per = if g.passing == 0 {
        f64::INFINITY
    } else {
        g.rows as f64 / g.passing as f64
    };
    (share, per)
}

fn gen_ms(g: &Group) -> Option<f64> {
    g.metrics
        .iter()
        .find(|m| m.0 == "gen_ns")
        .map(|m| m.1.mean() / 1e6)
}

fn table(s: &Summary) -> String {
    let mut out = String::new();
    for (k, g) in &s.groups {
        let _ = write!(out, "{}: {} mazes", label(k), thousands(g.rows));
        if let Some(ms) = gen_ms(g) {
            let _ = write!(out, ", {ms:.3} ms per maze");
        }
        out.push('\n');
        if let Some(a) = &s.accept {
            let (share, per) = pass_rate(g);
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
                name,
                mean,
                short(q[0]),
                short(q[1]),
                short(q[2]),
                short(q[3]),
                short(q[4])
            );
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
    let mut out =
        String::from("algo,size,rows,metric,mean,std_err,p5,p25,p50,p75,p95,exact_quantiles");
    if s.accept.is_some() {
        out.push_str(",passing,share,candidates_per_accepted");
    }
    out.push('\n');
    for (k, g) in &s.groups {
        for (name, st) in &g.metrics {
            let q = st.quantiles(&QUANTILES);
            let _ = write!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{}",
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
                st.exact()
            );
            if s.accept.is_some() {
                let (share, per) = pass_rate(g);
                let _ = write!(out, ",{},{share},{per}", g.passing);
            }
            out.push('\n');
        }
    }
    out
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn json_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:?}")
    } else {
        "null".into()
    }
}

fn json(s: &Summary) -> String {
    let mut out = String::from("[\n");
    for (gi, (k, g)) in s.groups.iter().enumerate() {
        let opt = |v: &Option<String>| v.as_deref().map_or("null".into(), json_str);
        let _ = write!(
            out,
            "  {{\"algo\": {}, \"size\": {}, \"rows\": {}",
            opt(&k.algo),
            opt(&k.size),
            g.rows
        );
        if let Some(a) = &s.accept {
            let (share, per) = pass_rate(g);
            let _ = write!(
                out,
                ", \"accept\": {}, \"passing\": {}, \"share\": {}, \"candidates_per_accepted\": {}",
                json_str(a),
                g.passing,
                json_num(share),
                json_num(per)
            );
        }
        out.push_str(", \"metrics\": {");
        for (mi, (name, st)) in g.metrics.iter().enumerate() {
            let q = st.quantiles(&QUANTILES);
            let _ = write!(
                out,
                "{}\n    {}: {{\"mean\": {}, \"std_err\": {}, \"p5\": {}, \"p25\": {}, \"p50\": {}, \
                 \"p75\": {}, \"p95\": {}, \"exact_quantiles\": {}}}",
                if mi > 0 { "," } else { "" },
                json_str(name),
                json_num(st.mean()),
                json_num(st.std_err()),
                json_num(q[0]),
                json_num(q[1]),
                json_num(q[2]),
                json_num(q[3]),
                json_num(q[4]),
                st.exact()
            );
        }
        out.push_str("}}");
        out.push_str(if gi + 1 < s.groups.len() { ",\n" } else { "\n" });
    }
    out.push_str("]\n");
    out
}

/// Render the summary.
pub fn render(s: &Summary, f: Format) -> String {
    match f {
        Format::Table => table(s),
        Format::Csv => csv(s),
        Format::Json => json(s),
    }
}
