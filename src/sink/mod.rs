//! Where measured rows go: an Arrow table ([`arrow`], in the core) and, in the program, Parquet
//! files that encode those tables (`parquet`). Sinks only consume rows; they never generate or
//! measure.

pub mod arrow;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod parquet;

pub use self::arrow::RunInfo;
#[cfg(feature = "cli")]
pub use self::parquet::{ParquetSink, SinkError};
