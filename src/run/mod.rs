//! The run layer, between the core and the front ends: a run of many mazes described by typed
//! fields ([`RunSpec`]), checked once into a [`Run`] with errors that name fields
//! ([`RunError`]), and executed over [`RowSink`]s (Parquet, the maze store, an Arrow table in
//! memory) that carry the run's metadata. The command line, the Python module and the
//! explorer's printed commands are translations into and out of it. [`value`] parses a run's
//! values from text (sizes, cells, counts, chances) for every front end.

pub mod error;
#[cfg(feature = "cli")]
mod execute;
#[cfg(feature = "cli")]
mod spec;
pub mod value;

pub use error::{Field, Names, Reason, RunError};
#[cfg(feature = "cli")]
pub use execute::{
    ArrowTable, CreateError, ExecuteError, ParquetOutput, RowSink, SinkFailure, StoreOutput,
};
#[cfg(feature = "cli")]
pub use spec::{MaskArg, Output, Run, RunSpec, DEFAULT_COUNT, DEFAULT_SIZE, MAX_WALK_STEPS};
pub use value::EndsRule;
