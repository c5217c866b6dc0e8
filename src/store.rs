//! The maze store: the mazes of a run, one row per maze, in an Arrow IPC file (extension
//! [`EXTENSION`], `.arrow`), so pyarrow, polars and DuckDB (through pyarrow) read it with no
//! script from this repository, and batchgen memory-maps it and reads record `k` in O(1)
//! without copying.
//!
//! Why Arrow IPC and not Parquet: IPC keeps each column as one contiguous, uncompressed,
//! 8-byte-aligned buffer per record batch, so a record's wall words are a plain `&[u64]` slice
//! of the mapped file. Why not the format-1 `.bgm` file of earlier versions: every user had to
//! copy a reader script from this repository.
//!
//! Readers: pyarrow (`pa.ipc.open_file(pa.memory_map("level.arrow")).read_all()`, memory-mapped;
//! the README shows it, `data/read_store.py` prints every field), polars (`pl.read_ipc`), DuckDB
//! (through the pyarrow table), and in Rust [`StoreReader`] below. A dataset folder
//! (`--mazes DIR/`) holds one `part-KKKKK-of-NNNNN.arrow` per generator and shard.
//!
//! Columns: the table in the doc of [`fields`] (algo, width, height, depth, seed, index,
//! maze_seed, maze_hash, entrance, exit, loops, walls). The schema is declared once
//! (`store_schema!` below): the Arrow fields, that table, [`Entry`], [`Record`], the writer's
//! row buffers and the reader's positions are all made from it.
//!
//! Wall words: bit `2·id` is the east wall of cell `id = y·width + x`, bit `2·id + 1` its south
//! wall; a set bit is an open wall (a passage); border walls are never open. A 3D maze
//! (depth > 1, `id = x + width·(y + height·z)`, layer 0 on top) adds after those planar words
//! one plane of `⌈cells/64⌉` words whose bit `id` is the down wall of cell `id` ([`Maze::words`]). The schema's
//! key-value metadata holds `batchgen.store_format` ([`FORMAT_VERSION`]), `batchgen.version`,
//! `batchgen.seeding_scheme`, `batchgen.rng`, `batchgen.width`, `batchgen.height`,
//! `batchgen.depth`, `batchgen.seed`, `batchgen.words_per_maze`, `batchgen.rows_per_batch`,
//! `batchgen.ends_rule` and `batchgen.wall_layout` (the sentence above). A store of masked
//! mazes (`--mask`) adds `batchgen.mask`, the mask as text (`.` a cell, `#` a hole, one line
//! per row, as in a metrics file), and `batchgen.mask_hash`, its hash (the `mask_hash` column
//! of the metrics file): the reader refuses a mask text that does not parse, is not of the
//! store's size or does not hash to the recorded value, and hands every maze back with its mask.
//! A store of braided mazes (`--braid P`, P above 0) adds `batchgen.braid`, the chance P as
//! written by Rust's `f64` formatting (which reads back to the same number), so that a record's
//! identifiers (with [`StoreReader::braid`]) regenerate its maze; the reader refuses a value
//! that is not a number from 0 to 1. A store without it holds perfect mazes, or braided ones
//! whose chance it does not know. A store of mazes on a hex, triangle or polar grid adds
//! `batchgen.grid` (its name); `width` and `height` are the grid's `W×H` (polar: rings and the
//! cells of the first ring), and the walls are the open bits of the grid's edges, 64 to a word,
//! edge 0 in bit 0 of word 0 (edges numbered as `src/topo/README.md` says), so the words per
//! maze follow from the grid and its mask. Such a record is read with `StoreReader::graph_maze`;
//! `StoreReader::maze` refuses it.
//!
//! Writing: rows are buffered [`rows_per_batch`] at a time (at most 16,384 mazes and about
//! 16 MiB of walls) and written as one record batch, so memory does not grow with the run. The
//! file goes through an [`AtomicFile`] and is committed with [`crate::atomic_file::commit_all`]
//! together with the run's Parquet file: the Arrow footer is written last, so a cut file has no
//! footer and is refused as truncated.
//!
//! Reading: [`StoreReader::open`] maps the file with memmap2 and checks, before handing anything
//! out, the Arrow magic at both ends, the footer, the schema (the exact columns above and the
//! batchgen metadata, refusing foreign files and newer format versions), the algo dictionary,
//! and every record batch's header: row count (every batch but the last holds exactly
//! `rows_per_batch` rows, so record `k` lies in batch `k / rows_per_batch`), no compression, no
//! nulls, and every column buffer inside the file and 8-byte aligned. That is one pass over the
//! footer's list of batches (a few bytes each); the rows themselves are not touched. Then
//! [`StoreReader::record`] is arithmetic: the fields and the wall words are read straight from
//! the map, the walls as a borrowed `&[u64]` (zero-copy). The parsing is done here on the
//! flatbuffers of `arrow-ipc` rather than through its `FileDecoder`, because the decoder panics
//! (slices out of range) on a file whose buffer offsets lie, and a damaged store must be an
//! error naming the file, never a panic. [`StoreReader::maze`] refuses a record that is not a
//! connected maze with exactly its recorded `loops` passages beyond a spanning tree (a perfect
//! maze when `loops` is 0, a braided one otherwise); on a mask, a maze of the mask's cells with
//! ends on them and no passage into a hole.

use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, DictionaryArray, FixedSizeListArray, Int32Array, RecordBatch, StringArray,
    UInt32Array, UInt64Array,
};
use arrow_schema::{ArrowError, DataType, Field, Schema};
use memmap2::Mmap;

use crate::atomic_file::{AtomicFile, OutputError, Prepared};
use crate::grid::{Mask, Maze, Size};
use crate::topo::{CellGraph, GraphMaze, Grid, GridSize};

/// The file extension of a maze store (and of its part files in a dataset folder): `.arrow`,
/// the Arrow project's extension for IPC files.
pub const EXTENSION: &str = "arrow";
/// Store format version written and understood (format 1 was the `.bgm` file of batchgen
/// 0.1 before the Arrow store; format 2 had no `loops` column and held perfect mazes only).
pub const FORMAT_VERSION: u32 = 3;
/// Largest number of mazes in one record batch.
pub const MAX_ROWS_PER_BATCH: usize = 16_384;
/// Wall bytes a record batch aims at (more rows are never buffered than fit in this, but at
/// least one).
pub const BATCH_WALL_BYTES: usize = 16 << 20;
/// The writer's file buffer.
const WRITE_BUFFER_BYTES: usize = 1 << 20;
/// How the wall words are laid out (also written into the file's metadata).
pub const WALL_LAYOUT: &str = "little-endian uint64 words; bit 2*id = east wall of cell id, \
    bit 2*id+1 = south wall; id = y*width + x; a set bit is an open wall (passage); \
    when depth > 1, id = x + width*(y + height*z) and the ceil(2*cells/64) planar words are \
    followed by ceil(cells/64) words whose bit id is the down wall of cell id (to layer z+1)";

/// Metadata keys.
pub use crate::meta_keys as keys;

/// Failure reading or writing a maze store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// I/O on `path` failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// The Arrow writer failed.
    #[error("{path}: writing the Arrow file: {source}")]
    Arrow {
        /// The file.
        path: PathBuf,
        /// The writer's error.
        source: ArrowError,
    },
    /// The target was refused, or creating, syncing or renaming the file failed.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The file is not a store this version can read.
    #[error("{path}: not a batchgen maze store: {why}")]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What did not match.
        why: String,
    },
    /// A store of a newer format than this batchgen reads.
    #[error("{path}: maze store format version {found}, this batchgen reads version {FORMAT_VERSION}: upgrade batchgen")]
    Newer {
        /// The file.
        path: PathBuf,
        /// The file's format version.
        found: u32,
    },
    /// The file ends before its Arrow footer: cut short, or still being written.
    #[error("{path}: truncated: {why}")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// What is missing.
        why: String,
    },
    /// The mask recorded in the metadata is damaged: it does not parse, is not of the store's
    /// size, or does not hash to the recorded hash.
    #[error("{path}: the mask in its metadata is damaged: {why}")]
    BadMask {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The braid chance recorded in the metadata is not a number from 0 to 1.
    #[error("{path}: its {} metadata '{value}' is damaged: {why}", keys::BRAID)]
    BadBraid {
        /// The file.
        path: PathBuf,
        /// The recorded text.
        value: String,
        /// What is wrong.
        why: String,
    },
    /// A record number past the end.
    #[error("record {record} does not exist: the store has {count} records (0..{count})")]
    NoSuchRecord {
        /// Asked for.
        record: u64,
        /// Records present.
        count: u64,
    },
    /// A record's fields or wall bits are not a valid maze of the store's size.
    #[error("record {record} is corrupt: {why}")]
    BadRecord {
        /// The record number.
        record: u64,
        /// What is wrong.
        why: String,
    },
    /// A record's wall bits are a valid grid but not the maze it says: not connected, or not
    /// exactly `cells − 1 + loops` passages (a perfect maze when `loops` is 0).
    #[error("record {record} is not a connected maze with {loops} loops ({passages} passages for {cells} cells, expected {expected} and every cell connected): the store is corrupt")]
    NotPerfect {
        /// The record number.
        record: u64,
        /// Open walls found.
        passages: u64,
        /// Cells of the grid.
        cells: u64,
        /// The record's `loops`.
        loops: u32,
        /// Passages expected (`cells - 1 + loops`).
        expected: u64,
    },
}

fn words_per_maze(width: u32, height: u32, depth: u32) -> usize {
    Size::new(width, height, depth).words_per_maze()
}

/// Rows per record batch for mazes of `words` wall words: at most [`MAX_ROWS_PER_BATCH`] and
/// about [`BATCH_WALL_BYTES`] of walls, at least 1.
pub fn rows_per_batch(words: usize) -> usize {
    (BATCH_WALL_BYTES / (8 * words.max(1))).clamp(1, MAX_ROWS_PER_BATCH)
}

/// The most a [`StoreWriter`] for mazes of `words` wall words holds at once (for
/// `memory::estimate`): one record batch of walls being written, the copy of it the Arrow writer
/// encodes, and the file buffer.
pub fn writer_peak_bytes(words: usize) -> u64 {
    let batch = (rows_per_batch(words) * words * 8) as u64;
    2 * batch + WRITE_BUFFER_BYTES as u64
}

/// How a store column is typed: the algo dictionary, a flat `uint32` or `uint64` column, or
/// the walls list. Gives the Arrow type and the record batch layout the reader checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `dictionary<int32, utf8>`.
    Dictionary,
    /// `uint32`.
    U32,
    /// `uint64`.
    U64,
    /// `fixed_size_list<uint64>[words]`.
    Walls,
}

impl Kind {
    /// The column's Arrow field.
    fn field(self, name: &str, words: usize) -> Field {
        match self {
            Kind::Dictionary => Field::new_dictionary(name, DataType::Int32, DataType::Utf8, false),
            Kind::U32 => Field::new(name, DataType::UInt32, false),
            Kind::U64 => Field::new(name, DataType::UInt64, false),
            Kind::Walls => Field::new(
                name,
                DataType::FixedSizeList(wall_item(), words as i32),
                false,
            ),
        }
    }

    /// Field nodes of the column in a record batch (a list adds its child).
    const fn nodes(self) -> usize {
        match self {
            Kind::Walls => 2,
            _ => 1,
        }
    }

    /// Buffers of the column in a record batch: validity + values of a flat column (dictionary
    /// keys included); validity of the list, then validity + values of its child.
    const fn buffers(self) -> usize {
        match self {
            Kind::Walls => 3,
            _ => 2,
        }
    }

    /// Byte width of one value (walls: one word; a row holds `words` of them).
    const fn value_bytes(self) -> usize {
        match self {
            Kind::Dictionary | Kind::U32 => 4,
            Kind::U64 | Kind::Walls => 8,
        }
    }
}

/// The child field of the walls list.
fn wall_item() -> Arc<Field> {
    Arc::new(Field::new("item", DataType::UInt64, false))
}

/// A flat column's Rust type: its [`Kind`], its Arrow array and how a value is read from the
/// mapped file.
trait Flat: Copy {
    /// The column kind of this type.
    const KIND: Kind;
    /// The values as an Arrow array.
    fn array(values: Vec<Self>) -> ArrayRef;
    /// The little-endian value at `at` (in bounds: checked when the store was opened).
    fn read(b: &[u8], at: usize) -> Self;
}

impl Flat for u32 {
    const KIND: Kind = Kind::U32;
    fn array(values: Vec<u32>) -> ArrayRef {
        Arc::new(UInt32Array::from(values))
    }
    fn read(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..][..4].try_into().expect("4"))
    }
}

impl Flat for u64 {
    const KIND: Kind = Kind::U64;
    fn array(values: Vec<u64>) -> ArrayRef {
        Arc::new(UInt64Array::from(values))
    }
    fn read(b: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(b[at..][..8].try_into().expect("8"))
    }
}

/// One column of the store: its name and kind (its meaning is in the doc of [`fields`]).
#[derive(Clone, Copy, Debug)]
struct Column {
    name: &'static str,
    kind: Kind,
}

/// The Arrow type of a flat column's Rust type, as the schema table in the docs names it.
macro_rules! arrow_type_name {
    (u32) => {
        "uint32"
    };
    (u64) => {
        "uint64"
    };
}

/// The store's schema, declared once. From this one list come the Arrow fields ([`fields`],
/// whose doc is the column table), [`Entry`], [`Record`], the writer's row buffers, and the
/// positions the reader checks and reads. `algo` (the dictionary) is first and `walls` (the
/// list) last; between them the flat columns: `run` columns hold one value for the whole store
/// (taken from the [`StoreInfo`] field of the same name), `row` columns come from each
/// [`Entry`]. A new column is one new line here.
macro_rules! store_schema {
    (
        algo: $algo_doc:literal;
        run { $($run:ident: $run_ty:ident, $run_doc:literal;)* }
        row { $($row:ident: $row_ty:ident, $row_doc:literal;)* }
        walls: $walls_doc:literal;
    ) => {
        /// Position of each column in the schema.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        enum Col {
            algo,
            $($run,)*
            $($row,)*
            walls,
        }

        /// Columns of the store.
        const COLUMN_COUNT: usize = Col::walls as usize + 1;

        /// The store's columns, in schema order.
        const SCHEMA: [Column; COLUMN_COUNT] = [
            Column { name: "algo", kind: Kind::Dictionary },
            $(Column { name: stringify!($run), kind: <$run_ty as Flat>::KIND },)*
            $(Column { name: stringify!($row), kind: <$row_ty as Flat>::KIND },)*
            Column { name: "walls", kind: Kind::Walls },
        ];

        #[doc = concat!(
            "The store's columns, in order, for mazes of `words` wall words (format ",
            "[`FORMAT_VERSION`]; every column non-null):\n\n",
            "| column | Arrow type | meaning |\n",
            "|---|---|---|\n",
            "| algo | `dictionary<int32, utf8>` | ", $algo_doc, " |\n",
            $("| ", stringify!($run), " | ", arrow_type_name!($run_ty), " | ", $run_doc, " |\n",)*
            $("| ", stringify!($row), " | ", arrow_type_name!($row_ty), " | ", $row_doc, " |\n",)*
            "| walls | `fixed_size_list<uint64>[words]` | ", $walls_doc, " |\n",
        )]
        pub fn fields(words: usize) -> Vec<Field> {
            SCHEMA.iter().map(|c| c.kind.field(c.name, words)).collect()
        }

        /// One maze handed to [`StoreWriter::append`].
        #[derive(Clone, Copy, Debug)]
        pub struct Entry<'a> {
            /// Position of the generator in the writer's algo list.
            pub algo: u32,
            $(#[doc = $row_doc] pub $row: $row_ty,)*
            /// The maze's [`Maze::words`].
            pub walls: &'a [u64],
        }

        /// One record, borrowed from the mapped file.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Record<'a> {
            #[doc = $algo_doc]
            pub algo: &'a str,
            $(#[doc = $run_doc] pub $run: $run_ty,)*
            $(#[doc = $row_doc] pub $row: $row_ty,)*
            /// The wall words, zero-copy.
            pub walls: &'a [u64],
        }

        /// The values of the `run` columns, the same on every row of a store.
        #[derive(Clone, Copy, Debug)]
        struct RunValues {
            $($run: $run_ty,)*
        }

        impl RunValues {
            fn of(info: &StoreInfo) -> RunValues {
                RunValues { $($run: info.$run,)* }
            }
        }

        /// The writer's buffered rows, one vector per column fed by an [`Entry`].
        #[derive(Debug, Default)]
        struct RowBuffers {
            algo: Vec<i32>,
            $($row: Vec<$row_ty>,)*
            walls: Vec<u64>,
        }

        impl RowBuffers {
            /// Rows buffered.
            fn len(&self) -> usize {
                self.algo.len()
            }

            fn push(&mut self, e: &Entry<'_>) {
                self.algo.push(e.algo as i32);
                $(self.$row.push(e.$row);)*
                self.walls.extend_from_slice(e.walls);
            }

            /// Room for `rows` rows of `words` wall words.
            fn reserve(&mut self, rows: usize, words: usize) {
                self.algo.reserve_exact(rows);
                $(self.$row.reserve_exact(rows);)*
                self.walls.reserve_exact(rows * words);
            }

            /// The buffered rows as the batch's columns, in schema order. The buffers are moved
            /// into the arrays (left empty, without capacity).
            fn take_columns(
                &mut self,
                run: &RunValues,
                algo_values: &ArrayRef,
                words: usize,
            ) -> Vec<ArrayRef> {
                let n = self.len();
                let keys = Int32Array::from(std::mem::take(&mut self.algo));
                let algo = DictionaryArray::<Int32Type>::try_new(keys, algo_values.clone())
                    .expect("keys checked in append");
                let walls = UInt64Array::from(std::mem::take(&mut self.walls));
                let walls = FixedSizeListArray::new(wall_item(), words as i32, Arc::new(walls), None);
                vec![
                    Arc::new(algo),
                    $(<$run_ty as Flat>::array(vec![run.$run; n]),)*
                    $(<$row_ty as Flat>::array(std::mem::take(&mut self.$row)),)*
                    Arc::new(walls),
                ]
            }
        }

        /// Record `row` of a batch whose column values start at `values`, with its algo name
        /// and walls already resolved.
        fn read_record<'a>(
            b: &'a [u8],
            values: &[usize; COLUMN_COUNT],
            row: usize,
            algo: &'a str,
            walls: &'a [u64],
        ) -> Record<'a> {
            Record {
                algo,
                $($run: <$run_ty as Flat>::read(
                    b,
                    values[Col::$run as usize] + SCHEMA[Col::$run as usize].kind.value_bytes() * row,
                ),)*
                $($row: <$row_ty as Flat>::read(
                    b,
                    values[Col::$row as usize] + SCHEMA[Col::$row as usize].kind.value_bytes() * row,
                ),)*
                walls,
            }
        }
    };
}

store_schema! {
    algo: "Canonical generator name.";
    run {
        width: u32, "Grid width.";
        height: u32, "Grid height.";
        depth: u32, "Grid depth (1 for 2D).";
        seed: u64, "Master seed of the run.";
    }
    row {
        index: u64, "Maze index within (algo, size, seed).";
        maze_seed: u64, "The per-maze seed.";
        maze_hash: u64, "[`Maze::hash`] of the walls (as in the Parquet file).";
        entrance: u32, "Entrance cell id the maze was measured with.";
        exit: u32, "Exit cell id the maze was measured with.";
        loops: u32, "Passages beyond a spanning tree (`loops` in the Parquet file; 0 unless braided).";
    }
    walls: "The maze's wall words ([`Maze::words`]).";
}

/// Field nodes of a record batch: one per column, two for the walls list.
const NODES: usize = {
    let mut n = 0;
    let mut c = 0;
    while c < COLUMN_COUNT {
        n += SCHEMA[c].kind.nodes();
        c += 1;
    }
    n
};

/// Buffers of a record batch (see [`Kind::buffers`]).
const BUFFERS: usize = {
    let mut n = 0;
    let mut c = 0;
    while c < COLUMN_COUNT {
        n += SCHEMA[c].kind.buffers();
        c += 1;
    }
    n
};

/// Position of each column's values buffer among a record batch's buffers: the last of the
/// column's buffers (a flat column's values follow its validity, the walls' child values follow
/// the list's and the child's validity).
const VALUES_BUFFER: [usize; COLUMN_COUNT] = {
    let mut at = [0; COLUMN_COUNT];
    let mut start = 0;
    let mut c = 0;
    while c < COLUMN_COUNT {
        start += SCHEMA[c].kind.buffers();
        at[c] = start - 1;
        c += 1;
    }
    at
};

/// What a store describes besides its rows.
#[derive(Clone, Debug)]
pub struct StoreInfo {
    /// Grid width.
    pub width: u32,
    /// Grid height.
    pub height: u32,
    /// Grid depth (1 for 2D).
    pub depth: u32,
    /// Master seed of the run.
    pub seed: u64,
    /// Canonical generator names (a row's `algo` is a position in this list).
    pub algos: Vec<String>,
    /// The run's entrance/exit rule, in words.
    pub ends_rule: String,
    /// The mask every maze spans (`--mask`), if any; its size is the store's.
    pub mask: Option<Arc<Mask>>,
    /// The braid chance per dead end (`--braid`, 0 to 1; 0 for perfect mazes), recorded as
    /// [`keys::BRAID`] when above 0.
    pub braid: f64,
}

/// Writes a store; records are appended as mazes are accepted and written one record batch at
/// a time.
pub struct StoreWriter {
    out: arrow_ipc::writer::FileWriter<BufWriter<AtomicFile>>,
    final_path: PathBuf,
    schema: Arc<Schema>,
    algo_values: ArrayRef,
    run: RunValues,
    words: usize,
    batch_rows: usize,
    count: u64,
    rows: RowBuffers,
}

impl std::fmt::Debug for StoreWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreWriter")
            .field("path", &self.final_path)
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

impl StoreWriter {
    /// Start a store for `info.width × info.height × info.depth` mazes of `info.algos`.
    /// Panics if that size is not [valid](Size::is_valid) (callers validate sizes first).
    pub fn create(path: &Path, info: &StoreInfo) -> Result<StoreWriter, StoreError> {
        StoreWriter::create_on(path, info, None)
    }

    /// [`StoreWriter::create`] for mazes on `graph`, a grid other than the square one (its
    /// size `W×H`, or `R×C` for polar, is `info.width × info.height`): the walls are its open
    /// bits, one per edge ([`GraphMaze::words`]), and [`keys::GRID`] names the grid.
    pub fn create_on(
        path: &Path,
        info: &StoreInfo,
        graph: Option<&CellGraph>,
    ) -> Result<StoreWriter, StoreError> {
        assert!(
            Size::new(info.width, info.height, info.depth).is_valid(),
            "store size out of range"
        );
        if let Some(m) = &info.mask {
            assert_eq!(
                m.size(),
                Size::new(info.width, info.height, info.depth),
                "mask size differs from the store's"
            );
        }
        assert!(
            (0.0..=1.0).contains(&info.braid),
            "braid chance out of range"
        );
        let file = AtomicFile::create(path)?;
        let words = match graph {
            None => words_per_maze(info.width, info.height, info.depth),
            Some(g) => g.words_per_maze(),
        };
        let grid_meta = graph.map(|g| (keys::GRID, g.size().grid.name().to_string()));
        let batch_rows = rows_per_batch(words);
        let mask_meta = info.mask.iter().flat_map(|m| {
            [
                (keys::MASK, m.to_text()),
                (keys::MASK_HASH, m.hash().to_string()),
            ]
        });
        let meta: std::collections::HashMap<String, String> = [
            (keys::STORE_FORMAT, FORMAT_VERSION.to_string()),
            (keys::VERSION, env!("CARGO_PKG_VERSION").to_string()),
            (keys::SEEDING_SCHEME, crate::rng::SEEDING_SCHEME.to_string()),
            (keys::RNG, crate::rng::RNG_NAME.to_string()),
            (keys::WIDTH, info.width.to_string()),
            (keys::HEIGHT, info.height.to_string()),
            (keys::DEPTH, info.depth.to_string()),
            (keys::SEED, info.seed.to_string()),
            (keys::WORDS, words.to_string()),
            (keys::ROWS_PER_BATCH, batch_rows.to_string()),
            (keys::ENDS_RULE, info.ends_rule.clone()),
            (keys::WALL_LAYOUT, WALL_LAYOUT.to_string()),
        ]
        .into_iter()
        .chain(mask_meta)
        .chain(grid_meta)
        .chain((info.braid > 0.0).then(|| (keys::BRAID, info.braid.to_string())))
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let schema = Arc::new(Schema::new_with_metadata(fields(words), meta));
        let arrow_err = |source| StoreError::Arrow {
            path: path.to_path_buf(),
            source,
        };
        // A failure below drops the AtomicFile, which removes the temporary file.
        let out = arrow_ipc::writer::FileWriter::try_new(
            BufWriter::with_capacity(WRITE_BUFFER_BYTES, file),
            &schema,
        )
        .map_err(arrow_err)?;
        let algo_values: ArrayRef = Arc::new(StringArray::from(info.algos.clone()));
        let mut writer = StoreWriter {
            out,
            final_path: path.to_path_buf(),
            schema,
            algo_values,
            run: RunValues::of(info),
            words,
            batch_rows,
            count: 0,
            rows: RowBuffers::default(),
        };
        writer.reserve_batch();
        Ok(writer)
    }

    /// Append one record; a full batch is written out.
    pub fn append(&mut self, e: Entry<'_>) -> Result<(), StoreError> {
        assert_eq!(e.walls.len(), self.words, "wall words of another size");
        assert!(
            (e.algo as usize) < self.algo_values.len(),
            "algo position beyond the list"
        );
        self.rows.push(&e);
        self.count += 1;
        if self.rows.len() == self.batch_rows {
            self.flush_batch(false)?;
            // Right away, so the new buffers reuse the memory the written batch freed.
            self.reserve_batch();
        }
        Ok(())
    }

    /// Write the buffered rows as one record batch (none when nothing is buffered, unless
    /// `even_empty`: a store of no maze still needs one batch to carry the algo dictionary).
    fn flush_batch(&mut self, even_empty: bool) -> Result<(), StoreError> {
        if self.rows.len() == 0 && !even_empty {
            return Ok(());
        }
        // The buffers are moved into the batch and allocated again only once it is written
        // (`append` calls `reserve_batch`): the writer encodes a copy of the batch, so
        // allocating here would hold three batches of walls at once instead of two
        // (`memory::estimate` counts two).
        let columns = self
            .rows
            .take_columns(&self.run, &self.algo_values, self.words);
        let batch =
            RecordBatch::try_new(self.schema.clone(), columns).expect("columns match the schema");
        self.out.write(&batch).map_err(|source| StoreError::Arrow {
            path: self.final_path.clone(),
            source,
        })
    }

    /// Give the buffers room for a whole batch: when the writer is made, and again after each
    /// batch is written (see [`StoreWriter::flush_batch`]).
    fn reserve_batch(&mut self) {
        self.rows.reserve(self.batch_rows, self.words);
    }

    /// Records written so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Write the last batch and the footer and sync: complete but not yet visible; commit it
    /// with [`crate::atomic_file::commit_all`] (together with the run's Parquet file).
    pub fn prepare(mut self) -> Result<Prepared, StoreError> {
        self.flush_batch(self.count == 0)?;
        let path = self.final_path.clone();
        let arrow_err = |source| StoreError::Arrow {
            path: path.clone(),
            source,
        };
        // On any error below the AtomicFile is dropped, which removes the temporary file.
        self.out.finish().map_err(arrow_err)?;
        let buffered = self.out.into_inner().map_err(arrow_err)?;
        let file = buffered.into_inner().map_err(|e| StoreError::Io {
            path: path.clone(),
            source: e.into_error(),
        })?;
        Ok(file.prepare()?)
    }

    /// Finish, sync, rename into place; returns the file size in bytes.
    pub fn finish(self) -> Result<u64, StoreError> {
        Ok(self.prepare()?.commit()?)
    }
}

/// The bytes of an opened store: a read-only map of a file, or bytes handed over in memory
/// (kept in `u64`s so that they are 8-byte aligned like a map).
#[derive(Debug)]
enum Backing {
    Map(Mmap),
    Owned(Vec<u64>, usize),
}

impl std::ops::Deref for Backing {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Backing::Map(m) => m,
            Backing::Owned(v, len) => &bytemuck::cast_slice(v)[..*len],
        }
    }
}

/// Where one record batch's column values start in the file.
#[derive(Clone, Copy, Debug)]
struct Batch {
    values: [usize; COLUMN_COUNT],
}

/// A store opened for reading (memory-mapped, or from bytes in memory).
#[derive(Debug)]
pub struct StoreReader {
    map: Backing,
    path: PathBuf,
    /// Grid width.
    pub width: u32,
    /// Grid height.
    pub height: u32,
    /// Grid depth (1 for 2D).
    pub depth: u32,
    /// Master seed of the run.
    pub seed: u64,
    /// Seeding scheme the records were made with.
    pub seeding_scheme: u32,
    /// Version of batchgen that wrote the file.
    pub batchgen_version: String,
    /// The run's entrance/exit rule, in words.
    pub ends_rule: String,
    mask: Option<Arc<Mask>>,
    braid: Option<f64>,
    /// The grid of a store of mazes on a grid other than the square one.
    grid: Option<Arc<CellGraph>>,
    count: u64,
    rows_per_batch: u64,
    words: usize,
    batches: Vec<Batch>,
    algos: Vec<String>,
}

const ARROW_MAGIC: &[u8; 6] = b"ARROW1";

impl StoreReader {
    /// The grid size of every record (depth 1 for 2D).
    pub fn size(&self) -> Size {
        Size::new(self.width, self.height, self.depth)
    }

    /// Map and validate a store file.
    pub fn open(path: &Path) -> Result<StoreReader, StoreError> {
        let io_err = |source| StoreError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = crate::folder_walk::open_regular(path).map_err(|e| io_err(e.into()))?;
        // SAFETY: the map is read-only and private to this reader; batchgen never modifies a
        // finished store (writers go through a temporary file and rename), and every access
        // below is bounds-checked against the length validated here.
        let map = unsafe { Mmap::map(&file) }.map_err(io_err)?;
        Self::validate(Backing::Map(map), path)
    }

    /// Validate a store held in memory (`name` is used in error messages only). Never panics
    /// and never allocates more than the bytes given justify, whatever they hold: this is what
    /// the `store_reader` fuzz target drives.
    pub fn from_bytes(bytes: Vec<u8>, name: &Path) -> Result<StoreReader, StoreError> {
        let len = bytes.len();
        let mut words = vec![0u64; len.div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..len].copy_from_slice(&bytes);
        Self::validate(Backing::Owned(words, len), name)
    }

    fn validate(map: Backing, path: &Path) -> Result<StoreReader, StoreError> {
        let foreign = foreign(path);
        let b = &map[..];
        let footer = read_footer(b, path)?;
        let schema = footer
            .schema()
            .ok_or_else(|| foreign("Arrow footer without a schema".into()))?;
        let schema = arrow_ipc::convert::try_fb_to_schema(schema)
            .map_err(|e| foreign(format!("unreadable Arrow schema: {e}")))?;
        let meta = schema.metadata();
        let shape = Shape::read(meta, path)?;
        check_columns(&schema, shape.words, &foreign)?;
        let algos = read_algos(b, &footer, &foreign)?;
        let (batches, count) = read_batches(b, &footer, &shape, &foreign)?;
        let text = |key: &str| meta.get(key).cloned().unwrap_or_default();
        Ok(StoreReader {
            path: path.to_path_buf(),
            width: shape.width,
            height: shape.height,
            depth: shape.depth,
            seed: meta_u64(meta, keys::SEED, path)?,
            seeding_scheme: meta_u32(meta, keys::SEEDING_SCHEME, path)?,
            batchgen_version: text(keys::VERSION),
            ends_rule: text(keys::ENDS_RULE),
            mask: shape.mask,
            grid: shape.grid,
            braid: read_braid(meta, path)?,
            count,
            rows_per_batch: shape.rows_per_batch,
            words: shape.words,
            batches,
            algos,
            map,
        })
    }

    /// The grid of a store of hex, triangle or polar mazes ([`keys::GRID`]), built from its
    /// size and mask; `None` for square mazes.
    pub fn grid(&self) -> Option<&CellGraph> {
        self.grid.as_deref()
    }

    /// [`StoreReader::grid`], shared: the graph a [`crate::Level`] of a record keeps.
    pub fn grid_shared(&self) -> Option<Arc<CellGraph>> {
        self.grid.clone()
    }

    /// Record `k` of a store on a grid other than the square one as a maze of
    /// [`StoreReader::grid`] (copies the walls). Checks that its ends are cells of the grid,
    /// that it connects the grid's cells with exactly `cells − 1 + loops` passages (a spanning
    /// tree when the record's `loops` is 0) and that it hashes to the recorded `maze_hash`; a square store is refused (see [`StoreReader::maze`]).
    pub fn graph_maze(&self, k: u64) -> Result<GraphMaze, StoreError> {
        let r = self.record(k)?;
        let bad = |why: String| StoreError::BadRecord { record: k, why };
        let Some(g) = self.grid() else {
            return Err(bad("a square store: read it with StoreReader::maze".into()));
        };
        if !g.has_cell(r.entrance) || !g.has_cell(r.exit) {
            return Err(bad(format!(
                "ends {} and {} are not both cells of the {} grid",
                r.entrance,
                r.exit,
                g.size().grid
            )));
        }
        let m = GraphMaze::from_words(g, r.walls)
            .ok_or_else(|| bad("a wall bit beyond the grid's edges is set".into()))?;
        let expected = g.cells() as u64 - 1 + r.loops as u64;
        if m.passages() != expected || !m.is_connected(g) {
            return Err(StoreError::NotPerfect {
                record: k,
                passages: m.passages(),
                cells: g.cells() as u64,
                loops: r.loops,
                expected,
            });
        }
        let hash = m.hash(g.size());
        if hash != r.maze_hash {
            return Err(bad(format!(
                "walls hash to {hash}, the record says {}",
                r.maze_hash
            )));
        }
        Ok(m)
    }

    /// The mask every maze of the store spans, if the run had one.
    pub fn mask(&self) -> Option<&Arc<Mask>> {
        self.mask.as_ref()
    }

    /// The braid chance the run's mazes were made with ([`keys::BRAID`]) when it is above 0;
    /// `None` for perfect mazes, and for a store that does not record it.
    pub fn braid(&self) -> Option<f64> {
        self.braid
    }

    /// Number of records.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// True when the store holds no records.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The algorithm names of the dictionary, in order.
    pub fn algos(&self) -> &[String] {
        &self.algos
    }

    /// Wall words per maze.
    pub fn words_per_maze(&self) -> usize {
        self.words
    }

    /// The file (or the name given to [`StoreReader::from_bytes`]).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Record `k`, in O(1) and without copying: its batch is `k / rows_per_batch`, whose
    /// column positions were checked when the store was opened.
    pub fn record(&self, k: u64) -> Result<Record<'_>, StoreError> {
        if k >= self.count {
            return Err(StoreError::NoSuchRecord {
                record: k,
                count: self.count,
            });
        }
        let batch = &self.batches[(k / self.rows_per_batch) as usize];
        let row = (k % self.rows_per_batch) as usize;
        let b = &self.map[..];
        let v = &batch.values;
        let key = u32::read(b, v[Col::algo as usize] + 4 * row);
        let algo = self
            .algos
            .get(key as usize)
            .ok_or_else(|| StoreError::BadRecord {
                record: k,
                why: format!("algo key {key} beyond the {} names", self.algos.len()),
            })?;
        let start = v[Col::walls as usize] + 8 * self.words * row;
        // Aligned (checked at open: the base is 8-aligned, the offset a multiple of 8).
        let walls: &[u64] =
            bytemuck::try_cast_slice(&b[start..start + 8 * self.words]).map_err(|e| {
                StoreError::BadRecord {
                    record: k,
                    why: format!("wall words: {e}"),
                }
            })?;
        Ok(read_record(b, v, row, algo, walls))
    }

    /// Record `k` as a maze (copies the walls), with the store's mask set when it has one.
    /// Checks that the record is of the store's size, that its ends are cells of the grid (of
    /// the mask), that no border bit is set, that no passage opens into a hole of the mask,
    /// that the walls form a connected maze of the grid's (the mask's) cells with exactly the
    /// record's `loops` extra passages and that they hash to the recorded `maze_hash`: a
    /// corrupt record is an error naming it, never a panic later.
    pub fn maze(&self, k: u64) -> Result<Maze, StoreError> {
        let r = self.record(k)?;
        let bad = |why: String| StoreError::BadRecord { record: k, why };
        if let Some(g) = self.grid() {
            return Err(bad(format!(
                "a maze on a {} grid, not square cells: read it with StoreReader::graph_maze",
                g.size().grid
            )));
        }
        if (r.width, r.height, r.depth) != (self.width, self.height, self.depth) {
            return Err(bad(format!(
                "size {}x{}x{} in a {}x{}x{} store",
                r.width, r.height, r.depth, self.width, self.height, self.depth
            )));
        }
        let size = Size::new(self.width, self.height, self.depth);
        let cells = size.cells();
        if r.entrance >= cells || r.exit >= cells {
            return Err(bad(format!(
                "ends {} and {} outside the {cells} cells",
                r.entrance, r.exit
            )));
        }
        if let Some(mask) = &self.mask {
            if !mask.contains(r.entrance) || !mask.contains(r.exit) {
                return Err(bad(format!(
                    "ends {} and {} are not both cells of the mask",
                    r.entrance, r.exit
                )));
            }
        }
        let mut m = Maze::from_words_sized(size, r.walls)
            .ok_or_else(|| bad("a border wall is open".into()))?;
        if let Some(mask) = &self.mask {
            if let Some(hole) = (0..cells).find(|&c| !mask.contains(c) && m.open_mask(c) != 0) {
                let (x, y, _) = size.coords(hole);
                return Err(bad(format!(
                    "a passage opens into the hole at {x},{y} of the mask"
                )));
            }
            m.set_mask(Some(mask.clone()));
        }
        let cells = m.tree_cells() as u64;
        let expected = cells - 1 + r.loops as u64;
        if m.passages() != expected || !m.is_connected() {
            return Err(StoreError::NotPerfect {
                record: k,
                passages: m.passages(),
                cells,
                loops: r.loops,
                expected,
            });
        }
        if m.hash() != r.maze_hash {
            return Err(bad(format!(
                "walls hash to {}, the record says {}",
                m.hash(),
                r.maze_hash
            )));
        }
        Ok(m)
    }
}

/// A [`StoreError::Foreign`] about `path`.
fn foreign(path: &Path) -> impl Fn(String) -> StoreError + '_ {
    |why| StoreError::Foreign {
        path: path.to_path_buf(),
        why,
    }
}

/// The Arrow IPC footer of a store's bytes, after its magic, byte order and length checks.
fn read_footer<'b>(b: &'b [u8], path: &Path) -> Result<arrow_ipc::Footer<'b>, StoreError> {
    let foreign = foreign(path);
    let truncated = |why: String| StoreError::Truncated {
        path: path.to_path_buf(),
        why,
    };
    if b.starts_with(b"BGMAZES\0") {
        return Err(foreign(
            "a format-1 .bgm store of an older batchgen; make it again with --mazes FILE.arrow"
                .into(),
        ));
    }
    if b.len() < 8 || &b[..6] != ARROW_MAGIC {
        return Err(foreign(
            "not an Arrow IPC file (no \"ARROW1\" magic at its start)".into(),
        ));
    }
    if cfg!(target_endian = "big") {
        return Err(foreign(
            "stores are little-endian; this machine is not".into(),
        ));
    }
    if b.len() < 18 || &b[b.len() - 6..] != ARROW_MAGIC {
        return Err(truncated(format!(
            "an Arrow file of {} bytes without its footer (cut short, or still being written)",
            b.len()
        )));
    }
    let tail = b.len() - 10;
    let footer_len = i32::from_le_bytes(b[tail..tail + 4].try_into().expect("4 bytes"));
    let footer_len = usize::try_from(footer_len)
        .ok()
        .filter(|&n| n <= tail - 8)
        .ok_or_else(|| truncated(format!("footer length {footer_len} does not fit the file")))?;
    arrow_ipc::root_as_footer(&b[tail - footer_len..tail])
        .map_err(|e| foreign(format!("unreadable Arrow footer: {e}")))
}

/// Metadata `key` as a number.
fn meta_u64(meta: &arrow_schema::Metadata, key: &str, path: &Path) -> Result<u64, StoreError> {
    meta.get(key)
        .and_then(|v| v.parse::<u64>().ok())
        .ok_or_else(|| foreign(path)(format!("metadata {key} missing or not a number")))
}

/// Metadata `key` as a number that fits 32 bits.
fn meta_u32(meta: &arrow_schema::Metadata, key: &str, path: &Path) -> Result<u32, StoreError> {
    u32::try_from(meta_u64(meta, key, path)?)
        .map_err(|_| foreign(path)(format!("metadata {key} out of range")))
}

/// What a store's metadata says its records are.
struct Shape {
    width: u32,
    height: u32,
    depth: u32,
    /// Wall words per maze.
    words: usize,
    rows_per_batch: u64,
    mask: Option<Arc<Mask>>,
    /// The grid of [`keys::GRID`], when it is not the square one.
    grid: Option<Arc<CellGraph>>,
}

impl Shape {
    /// The format version (this one, or a clear error), the size, the words per maze, the
    /// rows per batch and the mask, consistent with each other.
    fn read(meta: &arrow_schema::Metadata, path: &Path) -> Result<Shape, StoreError> {
        let foreign = foreign(path);
        let num = |key: &str| meta_u64(meta, key, path);
        let small = |key: &str| meta_u32(meta, key, path);
        let Some(format) = meta.get(keys::STORE_FORMAT) else {
            return Err(foreign(format!(
                "an Arrow file without batchgen's metadata ({} missing)",
                keys::STORE_FORMAT
            )));
        };
        let version = num(keys::STORE_FORMAT)?;
        if version > FORMAT_VERSION as u64 {
            return Err(StoreError::Newer {
                path: path.to_path_buf(),
                found: u32::try_from(version).unwrap_or(u32::MAX),
            });
        }
        if version != FORMAT_VERSION as u64 {
            return Err(foreign(format!(
                "format version {format}, this batchgen reads version {FORMAT_VERSION}"
            )));
        }
        let (width, height, depth) = (
            small(keys::WIDTH)?,
            small(keys::HEIGHT)?,
            small(keys::DEPTH)?,
        );
        let words = num(keys::WORDS)? as usize;
        let rows_per_batch = num(keys::ROWS_PER_BATCH)?;
        if let Some(name) = meta.get(keys::GRID) {
            return Shape::read_grid(meta, path, name, (width, height, depth), words);
        }
        if !Size::new(width, height, depth).is_valid()
            || words != words_per_maze(width, height, depth)
            || rows_per_batch == 0
            || rows_per_batch > MAX_ROWS_PER_BATCH as u64
        {
            return Err(foreign(format!(
                "inconsistent metadata (size {width}x{height}x{depth}, {words} words per maze, \
                 {rows_per_batch} rows per batch)"
            )));
        }
        let mask = read_mask(meta, Size::new(width, height, depth)).map_err(|why| {
            StoreError::BadMask {
                path: path.to_path_buf(),
                why,
            }
        })?;
        Ok(Shape {
            width,
            height,
            depth,
            words,
            rows_per_batch,
            mask,
            grid: None,
        })
    }

    /// [`Shape::read`] of a store on the grid named `name` (hex, triangle, polar): its size
    /// and mask make the cell graph, whose edges give the words per maze.
    fn read_grid(
        meta: &arrow_schema::Metadata,
        path: &Path,
        name: &str,
        (width, height, depth): (u32, u32, u32),
        words: usize,
    ) -> Result<Shape, StoreError> {
        let foreign = foreign(path);
        let grid = Grid::parse(name)
            .ok()
            .filter(|&g| g != Grid::Square)
            .ok_or_else(|| foreign(format!("{} '{name}' is not a grid", keys::GRID)))?;
        let rows_per_batch = meta_u64(meta, keys::ROWS_PER_BATCH, path)?;
        let size = GridSize::parse(grid, &format!("{width}x{height}"))
            .ok()
            .filter(|_| depth == 1)
            .ok_or_else(|| foreign(format!("size {width}x{height}x{depth} of a {grid} grid")))?;
        let bad_mask = |why: String| StoreError::BadMask {
            path: path.to_path_buf(),
            why,
        };
        let (mask, graph) =
            match read_grid_mask(meta, Size::planar(width, height)).map_err(bad_mask)? {
                None => (None, CellGraph::new(size)),
                Some(m) => {
                    let cells: Vec<bool> = (0..width * height).map(|c| m.contains(c)).collect();
                    let g = CellGraph::masked(size, width, height, &cells)
                        .map_err(|e| bad_mask(e.to_string()))?;
                    (Some(m), g)
                }
            };
        if words != graph.words_per_maze()
            || rows_per_batch == 0
            || rows_per_batch > MAX_ROWS_PER_BATCH as u64
        {
            return Err(foreign(format!(
                "inconsistent metadata ({grid} grid {size}, {words} words per maze, \
                 {rows_per_batch} rows per batch)"
            )));
        }
        Ok(Shape {
            width,
            height,
            depth,
            words,
            rows_per_batch,
            mask,
            grid: Some(Arc::new(graph)),
        })
    }
}

/// The schema's columns are a format-[`FORMAT_VERSION`] store's.
fn check_columns(
    schema: &Schema,
    words: usize,
    foreign: &impl Fn(String) -> StoreError,
) -> Result<(), StoreError> {
    let want = fields(words);
    let got = schema.fields();
    if got.len() != want.len()
        || got
            .iter()
            .zip(&want)
            .any(|(g, w)| g.name() != w.name() || g.data_type() != w.data_type())
    {
        let names: Vec<String> = got
            .iter()
            .map(|f| format!("{}: {}", f.name(), f.data_type()))
            .collect();
        return Err(foreign(format!(
            "columns [{}] differ from a format-{FORMAT_VERSION} store's",
            names.join(", ")
        )));
    }
    Ok(())
}

/// The algo dictionary: one non-delta dictionary batch of UTF-8 names.
fn read_algos(
    b: &[u8],
    footer: &arrow_ipc::Footer,
    foreign: &impl Fn(String) -> StoreError,
) -> Result<Vec<String>, StoreError> {
    let dicts: Vec<arrow_ipc::Block> = footer
        .dictionaries()
        .into_iter()
        .flatten()
        .copied()
        .collect();
    let [dict] = dicts[..] else {
        return Err(foreign(format!(
            "{} dictionary batches, expected 1 (the algo names)",
            dicts.len()
        )));
    };
    let (msg, body) = message(b, &dict).map_err(&foreign)?;
    let d = msg
        .header_as_dictionary_batch()
        .filter(|d| !d.isDelta())
        .and_then(|d| d.data())
        .ok_or_else(|| foreign("the algo dictionary is not a plain dictionary batch".into()))?;
    let (n, bufs) = layout(&d, body, 1, 3).map_err(&foreign)?;
    let offsets = n
        .checked_add(1)
        .and_then(|m| m.checked_mul(4))
        .and_then(|len| slice::<i32>(b, bufs[1], len))
        .ok_or_else(|| foreign("algo dictionary offsets out of bounds".into()))?;
    let data_len = (body.1 as usize).saturating_sub(bufs[2] - body.0);
    let data = &b[bufs[2]..bufs[2] + data_len];
    let mut algos = Vec::with_capacity(n);
    for k in 0..n {
        let (s, e) = (offsets[k], offsets[k + 1]);
        let name = usize::try_from(s)
            .ok()
            .zip(usize::try_from(e).ok())
            .and_then(|(s, e)| data.get(s..e))
            .and_then(|s| std::str::from_utf8(s).ok())
            .ok_or_else(|| foreign(format!("algo dictionary entry {k} is not UTF-8 in bounds")))?;
        algos.push(name.to_string());
    }
    Ok(algos)
}

/// Every record batch's header: rows, no compression, buffers in bounds and aligned; the
/// batches' column offsets and the total record count.
fn read_batches(
    b: &[u8],
    footer: &arrow_ipc::Footer,
    shape: &Shape,
    foreign: &impl Fn(String) -> StoreError,
) -> Result<(Vec<Batch>, u64), StoreError> {
    let (rows_per_batch, words) = (shape.rows_per_batch, shape.words);
    let blocks = footer.recordBatches();
    let nblocks = blocks.map_or(0, |v| v.len());
    let mut batches = Vec::with_capacity(nblocks.min(b.len() / 64));
    let mut count = 0u64;
    for (i, block) in blocks.into_iter().flatten().enumerate() {
        let block = &block;
        let bad = |why: String| foreign(format!("record batch {i}: {why}"));
        let (msg, body) = message(b, block).map_err(&bad)?;
        let rb = msg
            .header_as_record_batch()
            .ok_or_else(|| bad("not a record batch".into()))?;
        let (rows, bufs) = layout(&rb, body, NODES, BUFFERS).map_err(&bad)?;
        let last = i + 1 == nblocks;
        if rows as u64 > rows_per_batch || (!last && rows as u64 != rows_per_batch) {
            return Err(bad(format!(
                "{rows} rows where every batch but the last holds {rows_per_batch}"
            )));
        }
        let nodes = rb.nodes().expect("checked by layout");
        if nodes.get(NODES - 1).length() as u64 != rows as u64 * words as u64 {
            return Err(bad("walls of the wrong length".into()));
        }
        let mut values = [0usize; COLUMN_COUNT];
        for (c, column) in SCHEMA.iter().enumerate() {
            let at = VALUES_BUFFER[c];
            let per_row = if column.kind == Kind::Walls { words } else { 1 };
            let need = rows * column.kind.value_bytes() * per_row;
            let ok = bufs[at] % 8 == 0
                && bufs[at]
                    .checked_add(need)
                    .is_some_and(|end| end <= body.0 + body.1 as usize);
            if !ok {
                return Err(bad(format!("column {c} out of bounds or unaligned")));
            }
            values[c] = bufs[at];
        }
        count += rows as u64;
        batches.push(Batch { values });
    }
    Ok((batches, count))
}

/// The mask a store's metadata records ([`keys::MASK`] and [`keys::MASK_HASH`], both or
/// neither), checked against the store's `size`; `Err` says what is wrong with it.
fn read_mask(meta: &arrow_schema::Metadata, size: Size) -> Result<Option<Arc<Mask>>, String> {
    read_mask_with(meta, size, Mask::from_text)
}

/// [`read_mask`] on a grid other than the square one: the cells are connected through the
/// grid's own neighbours, which its graph checks.
fn read_grid_mask(meta: &arrow_schema::Metadata, size: Size) -> Result<Option<Arc<Mask>>, String> {
    read_mask_with(meta, size, |t| Mask::cells_from_bytes(t.as_bytes()))
}

/// [`read_mask`] with the text parsed by `parse`.
fn read_mask_with(
    meta: &arrow_schema::Metadata,
    size: Size,
    parse: impl Fn(&str) -> Result<Mask, crate::grid::MaskError>,
) -> Result<Option<Arc<Mask>>, String> {
    let (text, hash) = match (meta.get(keys::MASK), meta.get(keys::MASK_HASH)) {
        (None, None) => return Ok(None),
        (Some(t), Some(h)) => (t, h),
        (Some(_), None) => return Err(format!("{} without {}", keys::MASK, keys::MASK_HASH)),
        (None, Some(_)) => return Err(format!("{} without {}", keys::MASK_HASH, keys::MASK)),
    };
    let hash: u64 = hash
        .parse()
        .map_err(|_| format!("{} '{hash}' is not a number", keys::MASK_HASH))?;
    let m = parse(text).map_err(|e| format!("{}: {e}", keys::MASK))?;
    if m.size() != size {
        return Err(format!(
            "{} is a {} mask in a {size} store",
            keys::MASK,
            m.size()
        ));
    }
    if m.hash() != hash {
        return Err(format!(
            "{} hashes to {}, {} says {hash}: the mask was changed",
            keys::MASK,
            m.hash(),
            keys::MASK_HASH
        ));
    }
    Ok(Some(Arc::new(m)))
}

/// The braid chance a store's metadata records ([`keys::BRAID`]), a number from 0 to 1 as
/// `--braid` takes it; `None` when it is absent or 0.
fn read_braid(meta: &arrow_schema::Metadata, path: &Path) -> Result<Option<f64>, StoreError> {
    let Some(text) = meta.get(keys::BRAID) else {
        return Ok(None);
    };
    match crate::run::value::braid_value(text) {
        Ok(p) => Ok((p > 0.0).then_some(p)),
        Err(why) => Err(StoreError::BadBraid {
            path: path.to_path_buf(),
            value: text.clone(),
            why,
        }),
    }
}

/// The flatbuffer message of `block` and its body as (absolute start, length), all bounds
/// checked against the file.
fn message<'a>(
    b: &'a [u8],
    block: &arrow_ipc::Block,
) -> Result<(arrow_ipc::Message<'a>, (usize, u64)), String> {
    let (off, meta, body) = (block.offset(), block.metaDataLength(), block.bodyLength());
    let (Ok(off), Ok(meta), Ok(body)) = (
        usize::try_from(off),
        usize::try_from(meta),
        u64::try_from(body),
    ) else {
        return Err(format!("negative block position ({off}, {meta}, {body})"));
    };
    let end = (off as u64)
        .checked_add(meta as u64)
        .and_then(|x| x.checked_add(body));
    if meta < 8 || end.is_none_or(|e| e > b.len() as u64) {
        return Err(format!(
            "block at {off} ({meta} + {body} bytes) runs past the end of the {}-byte file",
            b.len()
        ));
    }
    let m = &b[off..off + meta];
    let m = if m[..4] == [0xff; 4] {
        &m[8..]
    } else {
        &m[4..]
    };
    let msg = arrow_ipc::root_as_message(m).map_err(|e| format!("unreadable message: {e}"))?;
    Ok((msg, (off + meta, body)))
}

/// Check a record batch's shape: `nodes` field nodes, all of the same length except the
/// last of a list, no nulls, no compression, `buffers` buffers inside the body. Returns the row
/// count and each buffer's absolute start.
fn layout(
    rb: &arrow_ipc::RecordBatch<'_>,
    body: (usize, u64),
    nodes: usize,
    buffers: usize,
) -> Result<(usize, Vec<usize>), String> {
    if rb.compression().is_some() {
        return Err("compressed (batchgen writes uncompressed stores)".into());
    }
    let rows = usize::try_from(rb.length()).map_err(|_| "negative length".to_string())?;
    let ns = rb.nodes().ok_or("no field nodes")?;
    let bs = rb.buffers().ok_or("no buffers")?;
    if ns.len() != nodes || bs.len() != buffers {
        return Err(format!(
            "{} field nodes and {} buffers, expected {nodes} and {buffers}",
            ns.len(),
            bs.len()
        ));
    }
    for (i, n) in ns.iter().enumerate() {
        if n.null_count() != 0 {
            return Err(format!("nulls in column {i}"));
        }
        // The last node of a store batch is the walls' child (rows × words long).
        if n.length() != rb.length() && !(nodes > 1 && i + 1 == nodes) {
            return Err(format!(
                "column {i} has {} rows, the batch {rows}",
                n.length()
            ));
        }
    }
    let mut starts = Vec::with_capacity(buffers);
    for bf in bs.iter() {
        let (Ok(o), Ok(l)) = (u64::try_from(bf.offset()), u64::try_from(bf.length())) else {
            return Err("negative buffer position".into());
        };
        if o.checked_add(l).is_none_or(|e| e > body.1) {
            return Err(format!(
                "buffer at {o} ({l} bytes) outside the {}-byte body",
                body.1
            ));
        }
        starts.push(body.0 + o as usize);
    }
    Ok((rows, starts))
}

/// `len` bytes at `at` as a slice of `T`, if in bounds and aligned.
fn slice<T: bytemuck::Pod>(b: &[u8], at: usize, len: usize) -> Option<&[T]> {
    b.get(at..at.checked_add(len)?)
        .and_then(|s| bytemuck::try_cast_slice(s).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_follows_the_arrow_columnar_format() {
        // Flat columns: validity + values; the walls list: its validity, then its child's.
        assert_eq!((COLUMN_COUNT, NODES, BUFFERS), (12, 13, 25));
        assert_eq!(
            VALUES_BUFFER,
            [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 24],
            "values buffer of each column"
        );
        let names: Vec<String> = fields(3).iter().map(|f| f.name().clone()).collect();
        assert_eq!(
            names,
            [
                "algo",
                "width",
                "height",
                "depth",
                "seed",
                "index",
                "maze_seed",
                "maze_hash",
                "entrance",
                "exit",
                "loops",
                "walls"
            ]
        );
        assert_eq!(
            fields(3)[11].data_type(),
            &DataType::FixedSizeList(wall_item(), 3)
        );
    }
}
