//! `--summary-json FILE|-`: the main job's machine-readable summary for scripts: the batchgen
//! version and seeding scheme, the command line and parameters, per generator the mazes,
//! candidates, seconds and mazes/s, every output file with its path and size, and totals.
//! A file is created with the other outputs before any work (so an unwritable folder is
//! refused up front), written once they are complete (it reports their sizes) and committed in
//! the same group as them: all appear together or none. `-` writes it to stdout after the
//! commit.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use batchgen::atomic_file::{AtomicFile, Prepared, Target};
use batchgen::uniformity::json::Value;

use super::progress::GenStats;

/// Everything the summary reports besides the per-generator statistics.
pub struct RunFacts<'a> {
    /// The command line as run.
    pub command_line: &'a str,
    /// `WxH`.
    pub size: String,
    /// Master seed.
    pub seed: u64,
    /// Mazes per generator asked for (`--count`).
    pub count: u64,
    /// This run's shard, `K/N`.
    pub shard: String,
    /// The `--accept` expression.
    pub accept: Option<&'a str>,
    /// Outputs: (kind, path, bytes), kind `parquet` or `maze_store`.
    pub outputs: Vec<(&'static str, String, u64)>,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
}

fn int(n: u64) -> Value {
    Value::Int(n as i128)
}

fn file(path: &Path, bytes: u64) -> Value {
    Value::obj([
        ("path", Value::str(path.display().to_string())),
        ("bytes", int(bytes)),
    ])
}

/// The summary document.
pub fn document(facts: &RunFacts<'_>, stats: &[GenStats]) -> Value {
    let rate = |n: u64, s: f64| Value::Float(if s > 0.0 { n as f64 / s } else { 0.0 });
    let gens = stats
        .iter()
        .map(|s| {
            let mut g = vec![
                ("name", Value::str(&s.name)),
                ("mazes", int(s.mazes)),
                ("candidates", int(s.candidates)),
                ("seconds", Value::Float(s.seconds)),
                ("mazes_per_second", rate(s.mazes, s.seconds)),
            ];
            if let Some((p, b)) = &s.out {
                g.push(("out", file(p, *b)));
            }
            if let Some((p, b)) = &s.store {
                g.push(("store", file(p, *b)));
            }
            Value::obj(g)
        })
        .collect();
    let outputs = facts
        .outputs
        .iter()
        .map(|(kind, path, bytes)| {
            Value::obj([
                ("kind", Value::str(*kind)),
                ("path", Value::str(path)),
                ("bytes", int(*bytes)),
            ])
        })
        .collect();
    let mazes: u64 = stats.iter().map(|s| s.mazes).sum();
    let candidates: u64 = stats.iter().map(|s| s.candidates).sum();
    let bytes: u64 = facts.outputs.iter().map(|o| o.2).sum();
    Value::obj([
        ("batchgen_version", Value::str(env!("CARGO_PKG_VERSION"))),
        ("seeding_scheme", int(batchgen::rng::SEEDING_SCHEME as u64)),
        ("command_line", Value::str(facts.command_line)),
        ("size", Value::str(&facts.size)),
        ("seed", int(facts.seed)),
        ("count_per_generator", int(facts.count)),
        ("shard", Value::str(&facts.shard)),
        ("accept", facts.accept.map_or(Value::Null, Value::str)),
        ("generators", Value::Arr(gens)),
        ("outputs", Value::Arr(outputs)),
        (
            "totals",
            Value::obj([
                ("mazes", int(mazes)),
                ("candidates", int(candidates)),
                ("seconds", Value::Float(facts.seconds)),
                ("mazes_per_second", rate(mazes, facts.seconds)),
                ("bytes", int(bytes)),
            ]),
        ),
    ])
}

/// Where the summary goes: stdout, or a checked file.
#[derive(Clone, Debug)]
pub enum Destination {
    /// `-`
    Stdout,
    /// A file, checked before the run.
    File(Target),
}

/// Write the document into the summary's temporary file and make it ready to commit with the
/// run's other outputs.
pub fn prepare(mut file: AtomicFile, doc: &Value) -> anyhow::Result<Prepared> {
    let shown = file.target().requested.display().to_string();
    file.write_all(doc.pretty().as_bytes())
        .with_context(|| format!("writing --summary-json {shown}"))?;
    Ok(file.prepare()?)
}
