//! The run layer, between the core and the front ends: a run of many mazes described by typed
//! fields ([`RunSpec`]), checked once into a [`Run`] with errors that name fields
//! ([`RunError`]), and executed over [`RowSink`]s (Parquet, the maze store, an Arrow table in
//! memory) that carry the run's metadata. The command line, the Python module and the
//! explorer's printed commands are translations into and out of it. [`value`] parses a run's
//! values from text (sizes, cells, counts, chances) for every front end.

pub mod error;
#[cfg(feature = "run")]
mod execute;
#[cfg(feature = "run")]
pub mod grid_cost;
#[cfg(feature = "run")]
pub mod layout;
#[cfg(feature = "run")]
pub mod paths;
#[cfg(feature = "run")]
mod render_spec;
#[cfg(feature = "run")]
mod spec;
pub mod value;

pub use error::{Field, Names, Reason, RunError};
#[cfg(feature = "parquet")]
pub use execute::ParquetOutput;
#[cfg(feature = "run")]
pub use execute::{ArrowTable, CreateError, ExecuteError, RowSink, SinkFailure, StoreOutput};
#[cfg(feature = "run")]
pub use render_spec::RenderSpec;
#[cfg(feature = "run")]
pub use spec::{
    check_walk_steps, graph_of, grid_graph, grid_size, select_algos, MaskArg, Output, Run, RunSpec,
    DEFAULT_COUNT, DEFAULT_SIZE, MAX_WALK_STEPS,
};
pub use value::EndsRule;
