//! One identity for a maze: the generator, the size, the master seed, the index and the ends
//! rule. These five make the maze (walls, bit for bit, on any machine) *and* its solution, so a
//! row of a metrics table, a record of a maze store, a binding and a game all name a maze the
//! same way and get the same level back.
//!
//! A metrics row holds the first four as columns (`algo`, `width`, `height`, `depth`, `seed`,
//! `index`); the ends rule is the table's metadata (`batchgen.ends`, see [`Ends::rule`]): a row
//! made with `--ends diameter` has another solution than the corners give, and only the rule
//! says so. A store record holds its entrance and exit cells itself.
//!
//! From an Arrow batch of metric rows (a Parquet file read with arrow, or
//! [`crate::sink::arrow::record_batch`]) to the level of its row, with that row's solution:
//!
//! ```
//! use batchgen::grid::Size;
//! use batchgen::metrics::{self, Ends, Row};
//! use batchgen::sink::arrow::{self, RunInfo};
//! use batchgen::{generate, Algorithm, Maze, MazeId};
//!
//! // A table of three wilson rows measured between a farthest pair (`--ends diameter`).
//! let (algo, size, seed, ends) = (Algorithm::Wilson, Size::planar(32, 32), 42, Ends::Diameter);
//! let (mut maze, mut gen, mut scratch) =
//!     (Maze::with_size(size), generate::Scratch::new(), metrics::Scratch::new());
//! let rows: Vec<Row> = (13..16)
//!     .map(|index| {
//!         let maze_seed = generate::regenerate(&algo, &mut maze, &mut gen, seed, index);
//!         Row { index, maze_seed, gen_ns: 0, metrics: metrics::measure(&maze, ends, &mut scratch) }
//!     })
//!     .collect();
//! let info = RunInfo { ends_rule: ends.rule(size), ..RunInfo::default() };
//! let schema = arrow::schema_with_metadata(&arrow::base_metadata(&info));
//! let batch = arrow::record_batch(&schema, &algo.name(), size, seed, &rows)?;
//!
//! let id = MazeId::from_batch(&batch, 2)?; // the row of index 15
//! assert_eq!((id.index, id.ends), (15, Ends::Diameter));
//! let level = id.level()?;
//! assert_eq!(level.maze().hash(), rows[2].metrics.maze_hash);
//! assert_eq!(level.metrics().solution_length, rows[2].metrics.solution_length);
//! assert_eq!(level.metrics().solution_length, level.metrics().diameter);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, RecordBatch};
use arrow_schema::DataType;

use crate::generate::{Algorithm, UnknownAlgorithm};
use crate::grid::Size;
use crate::level::{Level, LevelError};
use crate::meta_keys as keys;
use crate::metrics::Ends;
use crate::store::{StoreError, StoreReader};

/// The identity of one maze and its solution: regenerating it ([`MazeId::level`]) always gives
/// the maze of the row or record it came from, measured between the same ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MazeId {
    /// The generator.
    pub algo: Algorithm,
    /// The grid size (depth 1 for 2D).
    pub size: Size,
    /// The run's master seed.
    pub seed: u64,
    /// The maze's index among the generator's mazes of the run.
    pub index: u64,
    /// Where the solution starts and ends.
    pub ends: Ends,
}

/// Why a row or a record does not name a maze.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MazeIdError {
    /// A column of the metrics table is missing or not of its type.
    #[error("column '{name}' is missing or is not {expected} (not a batchgen metrics table?)")]
    Column {
        /// The column name.
        name: &'static str,
        /// Its type in a metrics table.
        expected: &'static str,
    },
    /// A row past the end of the table, or a null in an identifying column.
    #[error("row {row}: {why}")]
    Row {
        /// The row asked for.
        row: usize,
        /// What is wrong.
        why: String,
    },
    /// The table does not record how its entrance and exit were chosen.
    #[error(
        "the table's metadata has no '{}' (the entrance/exit rule of its rows)",
        keys::ENDS
    )]
    NoEndsRule,
    /// An ends rule that is not one batchgen writes, or that names a cell outside the grid.
    #[error("ends rule '{rule}' does not fit a {size} maze")]
    BadEndsRule {
        /// The rule as recorded.
        rule: String,
        /// The maze size.
        size: Size,
    },
    /// The generator name is not one batchgen knows.
    #[error(transparent)]
    UnknownAlgorithm(#[from] UnknownAlgorithm),
    /// Reading the store record failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl MazeId {
    /// The identity of maze `index` of `algo` at `size` with master `seed`, solved between
    /// `ends`.
    pub fn new(algo: Algorithm, size: Size, seed: u64, index: u64, ends: Ends) -> MazeId {
        MazeId {
            algo,
            size,
            seed,
            index,
            ends,
        }
    }

    /// The identity of a metrics row given by its columns (`algo` as written there, e.g.
    /// `"wilson"` or `"wilson-straight:0.5"`) and its table's ends rule (the `batchgen.ends`
    /// metadata value).
    pub fn from_columns(
        algo: &str,
        size: Size,
        seed: u64,
        index: u64,
        ends_rule: &str,
    ) -> Result<MazeId, MazeIdError> {
        let ends = Ends::parse_rule(ends_rule, size).ok_or_else(|| MazeIdError::BadEndsRule {
            rule: ends_rule.to_string(),
            size,
        })?;
        Ok(MazeId::new(
            Algorithm::parse(algo)?,
            size,
            seed,
            index,
            ends,
        ))
    }

    /// The identity of row `row` of a batch of metric rows: its `algo`, `width`, `height`,
    /// `depth`, `seed` and `index` columns and the `batchgen.ends` value of the batch's schema
    /// metadata. (arrow's Parquet reader keeps a file's key-value metadata in the schema of its
    /// builder, `ParquetRecordBatchReaderBuilder::schema`, not in the batches it decodes:
    /// `batch.with_schema(builder.schema().clone())` puts it back, or use
    /// [`MazeId::from_batch_with_rule`].)
    pub fn from_batch(batch: &RecordBatch, row: usize) -> Result<MazeId, MazeIdError> {
        let schema = batch.schema();
        let rule = schema
            .metadata()
            .get(keys::ENDS)
            .ok_or(MazeIdError::NoEndsRule)?;
        MazeId::from_batch_with_rule(batch, row, rule)
    }

    /// [`MazeId::from_batch`] with the table's ends rule given (the `batchgen.ends` value of
    /// the file's metadata).
    pub fn from_batch_with_rule(
        batch: &RecordBatch,
        row: usize,
        ends_rule: &str,
    ) -> Result<MazeId, MazeIdError> {
        if row >= batch.num_rows() {
            return Err(MazeIdError::Row {
                row,
                why: format!("the table has {} rows", batch.num_rows()),
            });
        }
        let column = |name: &'static str, expected: &'static str| cell(batch, row, name, expected);
        let u32_at = |name| number::<UInt32Type>(batch, row, name, "UInt32");
        let u64_at = |name| number::<UInt64Type>(batch, row, name, "UInt64");
        let algo_col = column("algo", "a string")?;
        let algo = match algo_col.data_type() {
            DataType::Utf8 => algo_col.as_string::<i32>().value(row),
            DataType::LargeUtf8 => algo_col.as_string::<i64>().value(row),
            DataType::Utf8View => algo_col.as_string_view().value(row),
            _ => {
                return Err(MazeIdError::Column {
                    name: "algo",
                    expected: "a string",
                })
            }
        };
        let size = Size::new(u32_at("width")?, u32_at("height")?, u32_at("depth")?);
        MazeId::from_columns(algo, size, u64_at("seed")?, u64_at("index")?, ends_rule)
    }

    /// The identity of record `k` of a maze store, between the entrance and exit it records.
    pub fn from_store(store: &StoreReader, k: u64) -> Result<MazeId, MazeIdError> {
        let r = store.record(k)?;
        Ok(MazeId::new(
            Algorithm::parse(r.algo)?,
            Size::new(r.width, r.height, r.depth),
            r.seed,
            r.index,
            Ends::cells(r.entrance, r.exit),
        ))
    }

    /// The maze's own seed (the `maze_seed` column).
    pub fn maze_seed(&self) -> u64 {
        crate::rng::maze_seed_from_base(
            crate::generate::seed_base(&self.algo, self.size, self.seed),
            self.index,
        )
    }

    /// Regenerate the maze and measure it between its ends: the row's or record's level.
    pub fn level(&self) -> Result<Level, LevelError> {
        Level::from_id(self)
    }
}

/// Column `name` of `batch`, checked to hold a value at `row`.
fn cell<'b>(
    batch: &'b RecordBatch,
    row: usize,
    name: &'static str,
    expected: &'static str,
) -> Result<&'b ArrayRef, MazeIdError> {
    let c = batch
        .column_by_name(name)
        .ok_or(MazeIdError::Column { name, expected })?;
    if c.is_null(row) {
        return Err(MazeIdError::Row {
            row,
            why: format!("'{name}' is null"),
        });
    }
    Ok(c)
}

/// The number at `row` of the `T` column `name` (`expected` names `T` for the error).
fn number<T: ArrowPrimitiveType>(
    batch: &RecordBatch,
    row: usize,
    name: &'static str,
    expected: &'static str,
) -> Result<T::Native, MazeIdError> {
    let a = cell(batch, row, name, expected)?
        .as_primitive_opt::<T>()
        .ok_or(MazeIdError::Column { name, expected })?;
    Ok(a.value(row))
}

impl fmt::Display for MazeId {
    /// `wilson 32x32 seed 42 index 15, diameter: …` (the generator, size, seed, index and the
    /// ends rule as [`Ends::rule`] writes it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} seed {} index {}, {}",
            self.algo,
            self.size,
            self.seed,
            self.index,
            self.ends.rule(self.size)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_rules_read_back_for_every_mode() {
        for size in [Size::planar(7, 5), Size::new(4, 3, 2)] {
            for ends in [
                Ends::Diameter,
                Ends::first_last(size),
                Ends::cells(size.cells() / 2, 1),
            ] {
                assert_eq!(Ends::parse_rule(&ends.rule(size), size), Some(ends));
            }
        }
        let size = Size::planar(7, 5);
        assert_eq!(Ends::parse_rule("entrance=7,0 exit=1,1", size), None);
        assert_eq!(Ends::parse_rule("entrance=1,1", size), None);
        assert_eq!(Ends::parse_rule("", size), None);
    }

    #[test]
    fn a_store_record_and_its_id_give_one_level() {
        let id = MazeId::from_columns("kruskal", Size::planar(6, 4), 9, 3, "diameter").unwrap();
        let level = id.level().unwrap();
        assert_eq!(level.maze_seed(), id.maze_seed());
        assert_eq!(level.metrics().solution_length, level.metrics().diameter);
        let again = level.id().level().unwrap();
        assert_eq!(again.solution(), level.solution());
        assert_eq!(again.maze(), level.maze());
    }
}
