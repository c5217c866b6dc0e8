//! Where measured rows go: an Arrow table ([`arrow`], feature `store`) and, in the run layer, Parquet
//! files that encode those tables (`parquet`). Sinks only consume rows; they never generate or
//! measure.

pub mod arrow;
#[cfg(feature = "parquet")]
#[doc(hidden)]
pub mod parquet;

pub use self::arrow::RunInfo;
#[cfg(feature = "parquet")]
pub use self::parquet::{ParquetSink, SinkError};
