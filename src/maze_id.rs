//! One identity for a maze: the generator, the size, the mask's hash, the braid chance, the
//! master seed, the index and the ends rule. These make the maze (walls, bit for bit, on any
//! machine) *and* its solution, so a row of a metrics table, a record of a maze store, a
//! binding and a game all name a maze the same way and get the same level back.
//!
//! A metrics row holds all but the ends as columns (`algo`, `width`, `height`, `depth`,
//! `mask_hash`, `braid`, `seed`, `index`); the ends rule is the table's metadata
//! (`batchgen.ends`, see [`Ends::rule`]): a row made with `--ends diameter` has another
//! solution than the corners give, and only the rule says so. A store record holds its
//! entrance and exit cells itself.
//!
//! A mask is too big for an id: the id holds its hash (0 without a mask) and the mask itself
//! is the file's `batchgen.mask` metadata ([`crate::grid::Mask::from_text`]) or the store's
//! [`StoreReader::mask`]; [`MazeId::level_on`] takes it and refuses one of another hash. An id
//! of an unmasked perfect maze prints (and [parses](std::str::FromStr)) as
//! `wilson 32x32 seed 42 index 15, <ends rule>`; a masked or braided one adds
//! `mask <hash>` and `braid <p>` after the size.
//!
#![cfg_attr(
    feature = "store",
    doc = r##"From an Arrow batch of metric rows (a Parquet file read with arrow, or
[`crate::sink::arrow::record_batch`]) to the level of its row, with that row's solution:

```
use batchgen::grid::Size;
use batchgen::metrics::{self, Ends, Row};
use batchgen::sink::arrow::{self, RunInfo};
use batchgen::{generate, Algorithm, Maze, MazeId};

// A table of three wilson rows measured between a farthest pair (`--ends diameter`).
let (algo, size, seed, ends) = (Algorithm::Wilson, Size::planar(32, 32), 42, Ends::Diameter);
let (mut maze, mut gen, mut scratch) =
    (Maze::with_size(size), generate::Scratch::new(), metrics::Scratch::new());
let rows: Vec<Row> = (13..16)
    .map(|index| {
        let maze_seed = generate::regenerate(&algo, &mut maze, &mut gen, seed, index);
        Row { index, maze_seed, gen_ns: 0, metrics: metrics::measure(&maze, ends, &mut scratch) }
    })
    .collect();
let info = RunInfo { ends_rule: ends.rule(size), ..RunInfo::default() };
let schema = arrow::schema_with_metadata(&arrow::base_metadata(&info));
let batch = arrow::record_batch(&schema, &algo.name(), size, seed, &rows)?;

let id = MazeId::from_batch(&batch, 2)?; // the row of index 15
assert_eq!((id.index, id.ends), (15, Ends::Diameter));
let level = id.level()?;
assert_eq!(level.maze().hash(), rows[2].metrics.maze_hash);
assert_eq!(level.metrics().solution_length, rows[2].metrics.solution_length);
assert_eq!(level.metrics().solution_length, level.metrics().diameter);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]

use std::fmt;

#[cfg(feature = "store")]
use arrow_array::cast::AsArray;
#[cfg(feature = "store")]
use arrow_array::types::{Float64Type, UInt32Type, UInt64Type};
#[cfg(feature = "store")]
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, RecordBatch};
#[cfg(feature = "store")]
use arrow_schema::DataType;

use crate::generate::{Algorithm, UnknownAlgorithm};
use crate::grid::Size;
use crate::meta_keys as keys;
use crate::metrics::Ends;
#[cfg(feature = "store")]
use crate::store::{StoreError, StoreReader};
use crate::topo::{Grid, GridSize};

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
    /// The hash of the mask the maze fills ([`crate::grid::Mask::hash`], the `mask_hash` column; 0 without
    /// a mask).
    pub mask_hash: u64,
    /// The braid chance per dead end (the `braid` column; 0 for a perfect maze).
    pub braid: f64,
    /// The shape of the cells (the `grid` column; [`Grid::Square`] for files without one). On
    /// the other grids `size` is `W×H×1`, or for polar `R×C×1` (rings, cells of the first
    /// ring), as the `width` and `height` columns hold it, and the ends are cells.
    pub grid: Grid,
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
    #[cfg(feature = "store")]
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A store record of a braided maze in a store that does not record the braid chance
    /// ([`StoreReader::braid`] is `None`): the store keeps the record's walls and its loops,
    /// but its identifiers alone do not make it.
    #[error(
        "record {record} has {loops} loops and the store does not record the braid chance: \
         take the maze as stored (Level::from_store) or give the chance (MazeId::braided)"
    )]
    BraidUnknown {
        /// The record.
        record: u64,
        /// Its loops.
        loops: u32,
    },
    /// Text that is not an id as [`MazeId`]'s `Display` writes it.
    #[error("'{text}' is not a maze id ({why}); expected e.g. 'wilson 32x32 seed 42 index 15, {}'", Ends::corners(32, 32).rule(Size::planar(32, 32)))]
    Parse {
        /// The text.
        text: String,
        /// What is wrong.
        why: String,
    },
}

impl MazeId {
    /// The identity of maze `index` of `algo` at `size` with master `seed`, solved between
    /// `ends`.
    /// `ends`: unmasked and perfect ([`MazeId::on_mask`], [`MazeId::braided`] say otherwise).
    pub fn new(algo: Algorithm, size: Size, seed: u64, index: u64, ends: Ends) -> MazeId {
        MazeId {
            algo,
            size,
            seed,
            index,
            ends,
            mask_hash: 0,
            braid: 0.0,
            grid: Grid::Square,
        }
    }

    /// The same id on `grid` (see [`MazeId::grid`]).
    pub fn on_grid(mut self, grid: Grid) -> MazeId {
        self.grid = grid;
        self
    }

    /// The grid and size of the maze ([`MazeId::size`] read for [`MazeId::grid`]).
    pub fn grid_size(&self) -> GridSize {
        GridSize::new(self.grid, self.size.width, self.size.height)
    }

    /// The same id on the mask whose hash is `mask_hash` (0: no mask).
    pub fn on_mask(mut self, mask_hash: u64) -> MazeId {
        self.mask_hash = mask_hash;
        self
    }

    /// The same id braided with chance `braid` (0: perfect).
    pub fn braided(mut self, braid: f64) -> MazeId {
        self.braid = braid;
        self
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

    /// [`MazeId::from_columns`] for a row of a file with a `grid` column: `grid` is its value
    /// (`square` is [`MazeId::from_columns`]); on the other grids `width` and `height` are the
    /// columns (for polar the rings and the cells of the first ring) and the ends rule is the
    /// one those files record ([`grid_ends_rule`]).
    pub fn from_grid_columns(
        grid: &str,
        algo: &str,
        width: u32,
        height: u32,
        seed: u64,
        index: u64,
        ends_rule: &str,
    ) -> Result<MazeId, MazeIdError> {
        let size = Size::planar(width, height);
        let grid = Grid::parse(grid).map_err(|why| MazeIdError::Parse {
            text: grid.to_string(),
            why,
        })?;
        if grid == Grid::Square {
            return MazeId::from_columns(algo, size, seed, index, ends_rule);
        }
        let gs = GridSize::new(grid, width, height);
        let ends = parse_grid_ends_rule(ends_rule, gs).ok_or_else(|| MazeIdError::BadEndsRule {
            rule: ends_rule.to_string(),
            size,
        })?;
        Ok(MazeId::new(Algorithm::parse(algo)?, size, seed, index, ends).on_grid(grid))
    }

    #[cfg(feature = "store")]
    /// The identity of row `row` of a batch of metric rows: its `algo`, `width`, `height`,
    /// `depth`, `seed` and `index` columns, its `mask_hash` and `braid` columns (taken as 0 when
    /// a table has none) and the `batchgen.ends` value of the batch's schema
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

    #[cfg(feature = "store")]
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
        let u32_at = |name| number::<UInt32Type>(batch, row, name, "UInt32");
        let u64_at = |name| number::<UInt64Type>(batch, row, name, "UInt64");
        let algo = string_at(batch, row, "algo")?;
        let has = |name| batch.column_by_name(name).is_some();
        let grid = if has("grid") {
            string_at(batch, row, "grid")?
        } else {
            "square"
        };
        let id = if grid == "square" {
            let size = Size::new(u32_at("width")?, u32_at("height")?, u32_at("depth")?);
            MazeId::from_columns(algo, size, u64_at("seed")?, u64_at("index")?, ends_rule)?
        } else {
            MazeId::from_grid_columns(
                grid,
                algo,
                u32_at("width")?,
                u32_at("height")?,
                u64_at("seed")?,
                u64_at("index")?,
                ends_rule,
            )?
        };
        let mask_hash = if has("mask_hash") {
            u64_at("mask_hash")?
        } else {
            0
        };
        let braid = if has("braid") {
            number::<Float64Type>(batch, row, "braid", "Float64")?
        } else {
            0.0
        };
        Ok(id.on_mask(mask_hash).braided(braid))
    }

    #[cfg(feature = "store")]
    /// The identity of record `k` of a maze store, between the entrance and exit it records,
    /// on the store's mask, braided with the store's braid chance ([`StoreReader::braid`]). A
    /// record with loops in a store that does not record the chance is refused
    /// ([`MazeIdError::BraidUnknown`]).
    pub fn from_store(store: &StoreReader, k: u64) -> Result<MazeId, MazeIdError> {
        let r = store.record(k)?;
        let braid = store.braid();
        if r.loops > 0 && braid.is_none() {
            return Err(MazeIdError::BraidUnknown {
                record: k,
                loops: r.loops,
            });
        }
        Ok(MazeId::new(
            Algorithm::parse(r.algo)?,
            Size::new(r.width, r.height, r.depth),
            r.seed,
            r.index,
            Ends::cells(r.entrance, r.exit),
        )
        .on_mask(store.mask().map_or(0, |m| m.hash()))
        .braided(braid.unwrap_or(0.0))
        .on_grid(store.grid().map_or(Grid::Square, |g| g.size().grid)))
    }

    /// The maze's own seed (the `maze_seed` column).
    pub fn maze_seed(&self) -> u64 {
        if self.grid != Grid::Square {
            return crate::topo::maze_seed(
                self.seed,
                &self.algo.name(),
                self.grid_size(),
                self.index,
            );
        }
        crate::rng::maze_seed_from_base(
            crate::generate::seed_base_mask_hash(&self.algo, self.size, self.mask_hash, self.seed),
            self.index,
        )
    }
}

#[cfg(feature = "store")]
/// The string at `row` of column `name` (plain, large or view strings; dictionary-encoded
/// columns are decoded by arrow's Parquet reader).
fn string_at<'b>(
    batch: &'b RecordBatch,
    row: usize,
    name: &'static str,
) -> Result<&'b str, MazeIdError> {
    let c = cell(batch, row, name, "a string")?;
    Ok(match c.data_type() {
        DataType::Utf8 => c.as_string::<i32>().value(row),
        DataType::LargeUtf8 => c.as_string::<i64>().value(row),
        DataType::Utf8View => c.as_string_view().value(row),
        _ => {
            return Err(MazeIdError::Column {
                name,
                expected: "a string",
            })
        }
    })
}

#[cfg(feature = "store")]
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

#[cfg(feature = "store")]
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
    /// ends rule as [`Ends::rule`] writes it); a masked or braided maze adds `mask <hash>` and
    /// `braid <p>` after the size.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.grid != Grid::Square {
            write!(f, "{} {} {}", self.algo, self.grid, self.grid_size())?;
        } else {
            write!(f, "{} {}", self.algo, self.size)?;
        }
        if self.mask_hash != 0 {
            write!(f, " mask {}", self.mask_hash)?;
        }
        if self.braid != 0.0 {
            write!(f, " braid {}", self.braid)?;
        }
        let rule = match self.grid {
            Grid::Square => self.ends.rule(self.size),
            _ => grid_ends_rule(self.ends, self.grid),
        };
        write!(f, " seed {} index {}, {rule}", self.seed, self.index)
    }
}

/// The ends rule of a maze on a grid other than the square one, as its files record it
/// (`batchgen.ends`): `entrance=cell E exit=cell X (…)`, cell ids as `src/topo/README.md`
/// numbers them. Those grids have fixed ends only: [`Ends::Diameter`] is written as `diameter`,
/// which [`parse_grid_ends_rule`] refuses.
pub fn grid_ends_rule(ends: Ends, grid: Grid) -> String {
    match ends {
        Ends::Cells { entrance, exit } => {
            format!("entrance=cell {entrance} exit=cell {exit} (cell ids of the {grid} grid)")
        }
        Ends::Diameter => "diameter".into(),
    }
}

/// The ends of a rule `entrance=cell E exit=cell X …` ([`grid_ends_rule`], and the rule the
/// main job writes for these grids), checked to be cells of `size`; `None` otherwise.
pub fn parse_grid_ends_rule(rule: &str, size: GridSize) -> Option<Ends> {
    if rule.trim_start().starts_with("diameter") {
        return Some(Ends::Diameter);
    }
    let words: Vec<&str> = rule.split_whitespace().collect();
    let cell = |key: &str| -> Option<u32> {
        let at = words.iter().position(|w| *w == key)?;
        let c: u32 = words.get(at + 1)?.parse().ok()?;
        (u64::from(c) < size.cells_u64()).then_some(c)
    };
    Some(Ends::cells(cell("entrance=cell")?, cell("exit=cell")?))
}

impl std::str::FromStr for MazeId {
    type Err = MazeIdError;

    /// The id that `Display` wrote: `wilson 32x32 [mask H] [braid P] seed 42 index 15, RULE`.
    fn from_str(text: &str) -> Result<MazeId, MazeIdError> {
        let bad = |why: &str| MazeIdError::Parse {
            text: text.to_string(),
            why: why.to_string(),
        };
        let (head, rule) = text
            .split_once(", ")
            .ok_or_else(|| bad("no ', ' before the ends rule"))?;
        let mut words = head.split_whitespace().peekable();
        let algo = words.next().ok_or_else(|| bad("no generator"))?;
        let grid = match words.peek().and_then(|w| Grid::parse(w).ok()) {
            Some(g) if g != Grid::Square => {
                words.next();
                g
            }
            _ => Grid::Square,
        };
        let size = match grid {
            Grid::Square => words
                .next()
                .and_then(|s| crate::run::value::parse_size3("size", s).ok())
                .ok_or_else(|| bad("no size WxH[xD] after the generator"))?,
            g => {
                let gs = words
                    .next()
                    .and_then(|s| GridSize::parse(g, s).ok())
                    .ok_or_else(|| bad(&format!("no {g} size after the grid")))?;
                Size::planar(gs.a, gs.b)
            }
        };
        let (mut mask_hash, mut braid, mut seed, mut index) = (0, 0.0, None, None);
        while let Some(key) = words.next() {
            let value = words
                .next()
                .ok_or_else(|| bad(&format!("'{key}' without a value")))?;
            let whole = || {
                value
                    .parse::<u64>()
                    .map_err(|_| bad(&format!("{key} '{value}' is not a whole number")))
            };
            match key {
                "mask" => mask_hash = whole()?,
                "braid" => {
                    braid = crate::run::value::braid_value(value)
                        .map_err(|why| bad(&format!("braid '{value}': {why}")))?
                }
                "seed" => seed = Some(whole()?),
                "index" => index = Some(whole()?),
                other => return Err(bad(&format!("unknown word '{other}'"))),
            }
        }
        let (Some(seed), Some(index)) = (seed, index) else {
            return Err(bad("it needs 'seed S index I'"));
        };
        let id = match grid {
            Grid::Square => MazeId::from_columns(algo, size, seed, index, rule)?,
            g => MazeId::from_grid_columns(
                g.name(),
                algo,
                size.width,
                size.height,
                seed,
                index,
                rule,
            )?,
        };
        Ok(id.on_mask(mask_hash).braided(braid))
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
