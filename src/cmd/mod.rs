//! The command layer: one file per subcommand, each turning validated arguments into work.
//!
//! Errors here are `anyhow`; a [`UsageError`] inside one means the user's input was wrong and
//! the process exits with status 2 before any work started.

pub mod check;
pub mod color;
pub mod completions;
pub mod dataset_ml;
pub mod explore;
pub mod generate;
pub mod grid_render;
pub mod levels;
pub mod list_algos;
pub mod man;
pub mod mask_arg;
pub mod plot;
pub mod progress;
pub mod render;
pub mod run_summary;
pub mod stdio;
pub mod summary;
pub mod uniformity;
pub mod values;

use std::fmt;

/// Bad input from the command line: reported as `error: <message>` with exit status 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl UsageError {
    /// A usage error naming the flag and the offending value.
    pub fn flag(flag: &str, value: &str, why: impl fmt::Display) -> UsageError {
        UsageError(format!("invalid value '{value}' for '{flag}': {why}"))
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// The run was stopped by a signal; `main` prints the message and exits with `128 + signal`.
#[derive(Debug)]
pub struct Interrupted {
    /// The signal number (SIGINT 2, SIGTERM 15, SIGHUP 1).
    pub signal: i32,
    /// How far the run got, what was cleaned up.
    pub message: String,
}

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Interrupted {}

impl From<batchgen::args::ArgError> for UsageError {
    fn from(e: batchgen::args::ArgError) -> UsageError {
        UsageError(e.to_string())
    }
}
