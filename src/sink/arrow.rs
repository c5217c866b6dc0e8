//! The metric rows as an Arrow table: the schema derived from [`crate::metrics::COLUMNS`], the
//! run's key-value metadata, and a [`RecordBatch`] per chunk of rows. This is what a Parquet
//! metrics file holds (the program's Parquet writer encodes these batches) and what a binding
//! hands out as a table, so both carry the same columns, types, values and metadata.
//!
//! Build a table of rows without writing any file:
//!
//! ```
//! use batchgen::grid::Size;
//! use batchgen::metrics::{self, Ends, Row};
//! use batchgen::sink::arrow::{self, RunInfo};
//! use batchgen::{generate, Algorithm, Maze};
//!
//! let (algo, size, seed) = (Algorithm::Kruskal, Size::planar(8, 8), 42);
//! let mut maze = Maze::with_size(size);
//! let (mut gen, mut scratch) = (generate::Scratch::new(), metrics::Scratch::new());
//! let rows: Vec<Row> = (0..3)
//!     .map(|index| {
//!         let maze_seed = generate::regenerate(&algo, &mut maze, &mut gen, seed, index);
//!         let metrics = metrics::measure(&maze, Ends::first_last(size), &mut scratch);
//!         Row { index, maze_seed, gen_ns: 0, metrics }
//!     })
//!     .collect();
//! let info = RunInfo { ends_rule: "corners".into(), ..RunInfo::default() };
//! let schema = arrow::schema_with_metadata(&arrow::base_metadata(&info));
//! let batch = arrow::record_batch(&schema, &algo.name(), size, seed, &rows)?;
//! assert_eq!((batch.num_rows(), batch.num_columns()), (3, metrics::COLUMNS.len()));
//! assert_eq!(batch.schema().metadata()["batchgen.ends"], "corners");
//! # Ok::<(), arrow_schema::ArrowError>(())
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{Float64Builder, StringBuilder, UInt32Builder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};

use crate::grid::Size;
use crate::metrics::{Get, Row, RowView, COLUMNS};

/// Metadata keys of a metrics table (and of the Parquet file that holds one).
pub use crate::meta_keys as keys;

/// Run-level facts recorded in the table's key-value metadata.
#[derive(Clone, Debug, Default)]
pub struct RunInfo {
    /// The command line that made the table (empty when a library call made it).
    pub command_line: String,
    /// How entrance and exit were chosen ([`crate::metrics::Ends::rule`]).
    pub ends_rule: String,
    /// Any further `(key, value)` pairs, e.g. [`run_metadata`].
    pub extra: Vec<(String, String)>,
}

/// The Arrow schema of a metrics table, derived from the one column table
/// [`crate::metrics::COLUMNS`] (names, types and order), without metadata.
pub fn schema() -> SchemaRef {
    Arc::new(fields())
}

fn fields() -> Schema {
    let fields: Vec<Field> = COLUMNS
        .iter()
        .map(|c| {
            let t = match c.get {
                Get::Algo => DataType::Utf8,
                Get::U32(_) => DataType::UInt32,
                Get::U64(_) => DataType::UInt64,
                Get::F64(_) => DataType::Float64,
                Get::OptU64(_) => DataType::UInt64,
            };
            Field::new(c.name, t, c.is_nullable())
        })
        .collect();
    Schema::new(fields)
}

/// [`schema`] carrying `metadata` (later pairs win over earlier ones with the same key, as in
/// a Parquet footer read back).
pub fn schema_with_metadata(metadata: &[(String, String)]) -> SchemaRef {
    let kv: HashMap<String, String> = metadata.iter().cloned().collect();
    Arc::new(fields().with_metadata(kv))
}

/// The metadata keys of every table, with their values for this build, then `info.extra`.
pub fn base_metadata(info: &RunInfo) -> Vec<(String, String)> {
    let mut kv = vec![
        (keys::VERSION.into(), env!("CARGO_PKG_VERSION").into()),
        (
            keys::SEEDING_SCHEME.into(),
            crate::rng::SEEDING_SCHEME.to_string(),
        ),
        (keys::RNG.into(), crate::rng::RNG_NAME.into()),
        (keys::ENDS.into(), info.ends_rule.clone()),
        (keys::COMMAND_LINE.into(), info.command_line.clone()),
    ];
    kv.extend(info.extra.iter().cloned());
    kv
}

/// What a run was asked for, as recorded before it starts (see [`run_metadata`]).
#[derive(Clone, Debug)]
pub struct RunParams<'a> {
    /// The generators' canonical names, in run order.
    pub algos: &'a [String],
    /// Grid size.
    pub size: Size,
    /// Mazes per generator of the whole (unsharded) run.
    pub count: u64,
    /// Master seed.
    pub seed: u64,
    /// `K/N` of this file's shard (`1/1` unsharded).
    pub shard: String,
    /// Where the shard came from (`none` unsharded).
    pub shard_source: String,
    /// The indices this table holds, per generator (`0..count` unsharded, unfiltered).
    pub indices: std::ops::Range<u64>,
    /// The filter's source text and the candidate limit, when there is a filter.
    pub accept: Option<(&'a str, u64)>,
    /// The braid chance (0 for perfect mazes, which record nothing).
    pub braid: f64,
}

/// The run's metadata pairs, in the order the program writes them (goes in [`RunInfo::extra`]).
pub fn run_metadata(spec: &RunParams<'_>) -> Vec<(String, String)> {
    let mut kv: Vec<(String, String)> = vec![
        (keys::COUNT.into(), spec.count.to_string()),
        (keys::SIZE.into(), spec.size.to_string()),
        (keys::SEED.into(), spec.seed.to_string()),
        (keys::ALGOS.into(), spec.algos.join(",")),
        (keys::SHARD.into(), spec.shard.clone()),
        (keys::SHARD_SOURCE.into(), spec.shard_source.clone()),
        (keys::INDEX_START.into(), spec.indices.start.to_string()),
        (keys::INDEX_END.into(), spec.indices.end.to_string()),
    ];
    if let Some((source, max)) = spec.accept {
        kv.push((keys::ACCEPT.into(), source.to_string()));
        kv.push((keys::MAX_CANDIDATES.into(), max.to_string()));
    }
    if spec.braid > 0.0 {
        kv.push((keys::BRAID.into(), spec.braid.to_string()));
    }
    kv
}

/// The pairs that close a run for one generator: candidates tried, rows kept and, with a
/// filter, the acceptance rate (six decimals).
pub fn tally_metadata(
    algo: &str,
    candidates: u64,
    accepted: u64,
    filtered: bool,
) -> Vec<(String, String)> {
    let mut kv = vec![
        (keys::candidates(algo), candidates.to_string()),
        (keys::accepted(algo), accepted.to_string()),
    ];
    if filtered {
        let rate = accepted as f64 / candidates.max(1) as f64;
        kv.push((keys::acceptance_rate(algo), format!("{rate:.6}")));
    }
    kv
}

/// One chunk of rows of one generator (`algo`, its canonical name), size and master seed as a
/// batch of `schema` (from [`schema`] or [`schema_with_metadata`]).
pub fn record_batch(
    schema: &SchemaRef,
    algo: &str,
    size: Size,
    seed: u64,
    rows: &[Row],
) -> Result<RecordBatch, ArrowError> {
    RecordBatch::try_new(schema.clone(), columns(algo, size, seed, rows))
}

/// The column that a table of mazes on a grid other than the square one ends with (`hex`,
/// `triangle` or `polar`); square tables do not have it.
pub const GRID_COLUMN: &str = "grid";

/// `schema` with the [`GRID_COLUMN`] appended (its metadata kept).
pub fn with_grid_column(schema: &SchemaRef) -> SchemaRef {
    let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
    fields.push(Field::new(GRID_COLUMN, DataType::Utf8, false));
    Arc::new(Schema::new(fields).with_metadata(schema.metadata().clone()))
}

/// [`record_batch`] for a schema from [`with_grid_column`]: every row's `grid` is `grid`.
pub fn grid_record_batch(
    schema: &SchemaRef,
    grid: &str,
    algo: &str,
    size: Size,
    seed: u64,
    rows: &[Row],
) -> Result<RecordBatch, ArrowError> {
    let mut columns = columns(algo, size, seed, rows);
    let mut b = StringBuilder::with_capacity(rows.len(), rows.len() * grid.len());
    for _ in rows {
        b.append_value(grid);
    }
    columns.push(Arc::new(b.finish()));
    RecordBatch::try_new(schema.clone(), columns)
}

/// The arrays of [`COLUMNS`] for one chunk of rows.
fn columns(algo: &str, size: Size, seed: u64, rows: &[Row]) -> Vec<ArrayRef> {
    let n = rows.len();
    let views = rows.iter().map(|row| RowView {
        algo,
        // No column of COLUMNS reads it (a grid table's own column is appended after them).
        grid: crate::topo::Grid::Square,
        size,
        seed,
        row,
    });
    COLUMNS
        .iter()
        .map(|c| -> ArrayRef {
            match c.get {
                Get::Algo => {
                    let mut b = StringBuilder::with_capacity(n, n * algo.len());
                    for _ in 0..n {
                        b.append_value(algo);
                    }
                    Arc::new(b.finish())
                }
                Get::U32(f) => {
                    let mut b = UInt32Builder::with_capacity(n);
                    b.extend(views.clone().map(|v| Some(f(&v))));
                    Arc::new(b.finish())
                }
                Get::U64(f) => {
                    let mut b = UInt64Builder::with_capacity(n);
                    b.extend(views.clone().map(|v| Some(f(&v))));
                    Arc::new(b.finish())
                }
                Get::F64(f) => {
                    let mut b = Float64Builder::with_capacity(n);
                    b.extend(views.clone().map(|v| Some(f(&v))));
                    Arc::new(b.finish())
                }
                Get::OptU64(f) => {
                    let mut b = UInt64Builder::with_capacity(n);
                    b.extend(views.clone().map(|v| f(&v)));
                    Arc::new(b.finish())
                }
            }
        })
        .collect()
}
