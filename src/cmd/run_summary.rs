//! `--summary-json FILE|-`: the main job's machine-readable summary for scripts: the batchgen
//! version and seeding scheme, the command line and parameters, per generator the mazes,
//! candidates, seconds and mazes/s, every output file with its path and size, and totals.
//! A file is created with the other outputs before any work (so an unwritable folder is
//! refused up front), written once they are complete (it reports their sizes) and committed in
//! the same group as them: all appear together or none. `-` writes it to stdout after the
//! commit.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use batchgen::atomic_file::{AtomicFile, Prepared, Target};
use batchgen::json;
use serde::Serialize;

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

/// The summary document (`--summary-json`).
#[derive(Serialize)]
struct Document<'a> {
    batchgen_version: &'static str,
    seeding_scheme: u32,
    command_line: &'a str,
    size: &'a str,
    seed: u64,
    count_per_generator: u64,
    shard: &'a str,
    accept: Option<&'a str>,
    generators: Vec<Generator<'a>>,
    outputs: Vec<Output<'a>>,
    totals: Totals,
}

/// One generator's line of the run.
#[derive(Serialize)]
struct Generator<'a> {
    name: &'a str,
    mazes: u64,
    candidates: u64,
    seconds: f64,
    mazes_per_second: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<File>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store: Option<File>,
}

/// A file a generator wrote.
#[derive(Serialize)]
struct File {
    path: String,
    bytes: u64,
}

impl File {
    fn of((path, bytes): &(PathBuf, u64)) -> File {
        File {
            path: path.display().to_string(),
            bytes: *bytes,
        }
    }
}

/// One output of the run.
#[derive(Serialize)]
struct Output<'a> {
    kind: &'static str,
    path: &'a str,
    bytes: u64,
}

/// The run's totals.
#[derive(Serialize)]
struct Totals {
    mazes: u64,
    candidates: u64,
    seconds: f64,
    mazes_per_second: f64,
    bytes: u64,
}

/// The summary document as JSON text.
pub fn document(facts: &RunFacts<'_>, stats: &[GenStats]) -> String {
    let rate = |n: u64, s: f64| if s > 0.0 { n as f64 / s } else { 0.0 };
    let generators = (stats.iter())
        .map(|s| Generator {
            name: &s.name,
            mazes: s.mazes,
            candidates: s.candidates,
            seconds: s.seconds,
            mazes_per_second: rate(s.mazes, s.seconds),
            out: s.out.as_ref().map(File::of),
            store: s.store.as_ref().map(File::of),
        })
        .collect();
    let outputs = (facts.outputs.iter())
        .map(|(kind, path, bytes)| Output {
            kind,
            path,
            bytes: *bytes,
        })
        .collect();
    let mazes: u64 = stats.iter().map(|s| s.mazes).sum();
    json::pretty(&Document {
        batchgen_version: env!("CARGO_PKG_VERSION"),
        seeding_scheme: batchgen::rng::SEEDING_SCHEME,
        command_line: facts.command_line,
        size: &facts.size,
        seed: facts.seed,
        count_per_generator: facts.count,
        shard: &facts.shard,
        accept: facts.accept,
        generators,
        outputs,
        totals: Totals {
            mazes,
            candidates: stats.iter().map(|s| s.candidates).sum(),
            seconds: facts.seconds,
            mazes_per_second: rate(mazes, facts.seconds),
            bytes: facts.outputs.iter().map(|o| o.2).sum(),
        },
    })
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
pub fn prepare(mut file: AtomicFile, doc: &str) -> anyhow::Result<Prepared> {
    let shown = file.target().requested.display().to_string();
    file.write_all(doc.as_bytes())
        .with_context(|| format!("writing --summary-json {shown}"))?;
    Ok(file.prepare()?)
}
