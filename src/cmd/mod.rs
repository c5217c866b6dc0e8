//! TEMPORARY WIRING (issue-uni branch only): the lead's `src/cmd/mod.rs` on main replaces this.

pub mod uniformity;

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
