//! Writing to stdout and stderr without panicking (`println!` panics when the write fails).
//!
//! Every command prints through [`out`] and [`err`] (or the [`outln!`](crate::outln) and
//! [`errln!`](crate::errln) macros), which return a [`StreamError`] instead.
//!
//! - stdout carries a command's product (a listing, a summary, a picture, `--summary-json -`):
//!   `main` turns a failed write into the exit: a closed pipe (`batchgen list-algos | head -1`)
//!   ends quietly with status 0, as ripgrep does; any other failure (a full device, an I/O
//!   error) is one line on stderr and status 1.
//! - stderr carries messages about the work (progress, warnings, the closing line, errors): a
//!   stderr that cannot be written (a full device, a closed pipe) is ignored, so the command
//!   does the same work and exits with the same status as it would with a working stderr. A
//!   warning that cannot be shown must not stop a run before it writes its outputs, nor a
//!   closing line turn a committed run into a failure.

use std::io::{self, Write};

/// Writing to stdout or stderr failed.
#[derive(Debug, thiserror::Error)]
#[error("writing to {stream}")]
pub struct StreamError {
    /// `stdout` or `stderr`.
    pub stream: &'static str,
    /// The OS error.
    pub source: io::Error,
}

impl StreamError {
    /// The reader went away (`| head`): not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        self.source.kind() == io::ErrorKind::BrokenPipe
    }
}

fn write(stream: &'static str, mut w: impl Write, bytes: &[u8]) -> Result<(), StreamError> {
    w.write_all(bytes)
        .and_then(|()| w.flush())
        .map_err(|source| StreamError { stream, source })
}

/// Write `bytes` to stdout and flush.
pub fn out(bytes: impl AsRef<[u8]>) -> Result<(), StreamError> {
    write("stdout", io::stdout().lock(), bytes.as_ref())
}

/// Write `bytes` to stderr; a write that fails is dropped (see the module docs), so this
/// returns `Ok` whatever happens.
pub fn err(bytes: impl AsRef<[u8]>) -> Result<(), StreamError> {
    let _ = write("stderr", io::stderr().lock(), bytes.as_ref());
    Ok(())
}

/// `println!` that returns `Result<(), StreamError>` instead of panicking.
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => {
        $crate::cmd::stdio::out(format!("{}\n", format_args!($($t)*)))
    };
}

/// `eprintln!` that returns `Result<(), StreamError>` instead of panicking.
#[macro_export]
macro_rules! errln {
    ($($t:tt)*) => {
        $crate::cmd::stdio::err(format!("{}\n", format_args!($($t)*)))
    };
}
