//! Where measured rows go. Today: Parquet files ([`parquet`]). Sinks only consume rows; they
//! never generate or measure.

pub mod parquet;

pub use self::parquet::{ParquetSink, RunInfo, SinkError};
