//! A row of the output: one measured maze with the identifiers that regenerate it. It lives
//! beside the metrics, below the pipeline, so the sinks that write rows ([`crate::sink`]) need
//! nothing from the pipeline that makes them ([`crate::batch`] re-exports it).

use super::Metrics;

/// One measured maze: the identifiers that regenerate it, its metrics and its generation time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Row {
    /// Maze number within (algo, size, seed).
    pub index: u64,
    /// The derived per-maze seed.
    pub maze_seed: u64,
    /// Time spent in the generator, nanoseconds.
    pub gen_ns: u64,
    /// The measurements.
    pub metrics: Metrics,
}
