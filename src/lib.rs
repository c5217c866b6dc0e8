//! batchgen: perfect mazes by the million, each one measured.
//!
//! The pipeline, per maze:
//!
//! ```text
//! generate::regenerate(&algo, &mut maze, &mut scratch, seed, index)  // one RNG per maze,
//!     // seeded from rng::maze_seed(seed, algo, width, height, index)
//! row  = metrics::measure(&maze, ends, &mut metrics_scratch)
//! batch::run → ordered rayon chunks → sink::arrow record batches (→ Parquet in the program)
//! ```
//!
//! The same, for one maze, as a program (this example is run by `cargo test`):
//!
//! ```
//! use batchgen::{generate, metrics, rng, Algorithm, Ends, Maze};
//!
//! let algo = Algorithm::parse("wilson").unwrap();
//! let mut maze = Maze::new(64, 64);
//! let seed = generate::regenerate(&algo, &mut maze, &mut generate::Scratch::new(), 42, 17);
//! assert_eq!(seed, rng::maze_seed(42, "wilson", 64, 64, 17));
//! assert!(maze.is_perfect()); // 4095 passages, every cell reachable
//!
//! let mut scratch = metrics::Scratch::new();
//! let m = metrics::measure(&maze, Ends::corners(64, 64), &mut scratch);
//! assert_eq!(scratch.solution_path().len() as u32, m.solution_length + 1);
//! assert!(m.diameter >= m.solution_length);
//! ```
//!
//! # From a row into a game: [`Level`]
//!
//! A level designer picks mazes in SQL from the Parquet file; a game then needs only the
//! identifiers of the chosen rows. A maze is a function of the seeding scheme, algo, size,
//! seed and index (the same walls, bit for bit, on any machine); its solution also depends on
//! the file's ends rule (`--ends`, recorded as the `batchgen.ends` metadata). A [`MazeId`]
//! holds all of them, so the [`Level`] it makes has the row's maze *and* the row's solution:
//!
//! ```
//! use batchgen::{MazeId, Size};
//!
//! // A row's algo, width, height, depth, seed and index, e.g. from DuckDB:
//! //   SELECT algo, width, height, depth, seed, index FROM 'level.parquet' WHERE ... LIMIT 1
//! // and the file's ends rule, here of a run with `--ends diameter`:
//! let rule = "diameter: entrance=diameter_start exit=diameter_end (a farthest pair)";
//! let id = MazeId::from_columns("wilson", Size::new(32, 32, 1), 42, 15, rule)?;
//! let level = id.level()?; // the row's maze, solved between the row's ends
//! assert_eq!(level.metrics().solution_length, level.metrics().diameter);
//! assert_eq!(level.maze_seed(), id.maze_seed()); // the row's maze_seed
//! print!("{level}"); // box-drawing characters, the solution marked
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`MazeId::from_batch`] reads the same from an Arrow batch of rows, [`MazeId::from_store`]
//! from a store record. A [`LevelSpec`] makes the maze from the identifiers alone, measured
//! from corner to corner unless it is given other ends:
//!
//! Regenerate a level from a Parquet row's identifiers and draw it:
//!
//! ```
//! use batchgen::{Dir, LevelSpec, Size};
//!
//! // The identifiers of a row, e.g. from DuckDB:
//! //   SELECT algo, width, height, seed, index FROM 'mazes.parquet' WHERE ... LIMIT 1
//! let (algo, width, height, seed, index) = ("wilson", 8, 5, 42, 17);
//! let level = LevelSpec::new(algo.parse()?, Size::planar(width, height), seed, index).build()?;
//! assert_eq!(
//!     level.maze_seed(),
//!     batchgen::rng::maze_seed(seed, algo, width, height, index) // the row's maze_seed
//! );
//! // The solution runs from the top-left to the bottom-right cell.
//! let path = level.solution();
//! assert_eq!((path[0], path[path.len() - 1]), (0, width * height - 1));
//! assert_eq!(path.len() as u32, level.metrics().solution_length + 1);
//! // Walls for the game: can a player step east from (0, 0)?
//! let _open = level.can_move(0, 0, Dir::East);
//! // `#` wall, space open, `.` the solution: 2·5+1 lines of 2·8+1 characters.
//! let art = level.ascii(true)?;
//! print!("{art}");
//! assert_eq!(art.lines().count(), 11);
//! assert!(art.lines().all(|l| l.len() == 17));
//! assert_eq!(art.matches('.').count() as u32, 2 * level.metrics().solution_length + 1);
//! # Ok::<(), batchgen::LevelError>(())
//! ```
//!
//! Filter in code and keep the first N levels that pass (what `--accept` does for a run):
//!
//! ```
//! use batchgen::{Algorithm, Ends, LevelSpec, Size};
//!
//! let mut kept = Vec::new();
//! for index in 0.. {
//!     // The solution between a farthest pair of cells: the longest walk this maze allows.
//!     let level = LevelSpec::new(Algorithm::Backtracker, Size::planar(12, 12), 7, index)
//!         .ends(Ends::Diameter)
//!         .build()?;
//!     let m = level.metrics();
//!     if m.dead_end_share < 0.12 && m.solution_length >= 60 {
//!         kept.push(level);
//!         if kept.len() == 3 {
//!             break;
//!         }
//!     }
//! }
//! for level in &kept {
//!     assert_eq!(level.metrics().solution_length, level.metrics().diameter);
//!     println!("index {}: solution of {} steps", level.index(), level.metrics().solution_length);
//! }
//! # Ok::<(), batchgen::LevelError>(())
//! ```
//!
#![cfg_attr(
    feature = "store",
    doc = r##"Read a record of a maze store (`--mazes FILE.arrow`; here a small one is written first):

```
use batchgen::store::{Entry, StoreInfo, StoreReader, StoreWriter};
use batchgen::{Algorithm, Ends, Level, LevelSpec, Size};

let dir = tempfile::tempdir()?;
let path = dir.path().join("mazes.arrow");
let info = StoreInfo {
    width: 10,
    height: 6,
    depth: 1,
    seed: 42,
    algos: vec!["kruskal".into()],
    ends_rule: "diameter".into(),
    mask: None,
    braid: 0.0,
};
let mut writer = StoreWriter::create(&path, &info)?;
for index in 0..5 {
    let level = LevelSpec::new(Algorithm::Kruskal, Size::planar(10, 6), 42, index)
        .ends(Ends::Diameter)
        .build()?;
    writer.append(Entry {
        algo: 0, // position in info.algos
        index,
        maze_seed: level.maze_seed(),
        maze_hash: level.maze().hash(),
        entrance: level.entrance(),
        exit: level.exit(),
        loops: level.metrics().loops,
        walls: level.walls(),
    })?;
}
writer.finish()?;

let store = StoreReader::open(&path)?; // memory-mapped; record k is read in O(1)
let record = store.record(3)?; // zero-copy: record.walls borrows the mapped file
assert_eq!((record.algo, record.index), ("kruskal", 3));
let level = Level::from_store(&store, 3)?; // measured between the recorded ends
assert_eq!(level.walls(), record.walls);
assert_eq!((level.entrance(), level.exit()), (record.entrance, record.exit));
assert_eq!(level.metrics().solution_length, level.metrics().diameter);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
//!
//! # Architecture and data flow
//!
//! A run is described by a [`run::RunSpec`] (the command line, the Python module and the
//! explorer's printed commands all translate into one), validated once into a [`run::Run`]
//! and executed over [`run::RowSink`]s that carry the run's metadata. It is a pure function of
//! its fields: for each generator, the index range `0..count`
//! is cut into chunks that worker threads take in order ([`batch`], rayon); each worker owns a
//! reused [`Maze`], a generator scratch and a metrics scratch, so no maze allocates. A maze is
//! generated from its own seed, measured by [`measure`] into a [`metrics::Row`], optionally
//! tested by the `--accept` program ([`accept`]), and the rows go, in index order, into Arrow
//! record batches ([`sink::arrow`]) that the program encodes to Parquet and, with `--mazes`,
//! into the maze [`store`]. Every output is written under a temporary name and committed at the
//! end (`atomic_file`), so a reader never sees a part.
//!
//! `grid`, `dsu` and `rng` depend on nothing of ours; `generate` on those; `metrics` on `grid`;
//! `batch` on `generate` + `metrics` + `accept`; `sink`, `store` and `render` only consume;
//! `level` (one maze for a game) on `generate`, `metrics` and `render` (and `store` with that
//! feature); `run` on `batch`, `sink` and `store`, and the front ends on `run`;
//! `shard` picks a slice of the index range (flag or cluster engine) and `dataset` lays out
//! and checks hive-partitioned folders of shard files; `atomic_file` writes every output and
//! `output_set` proves a run's outputs are distinct files; `uniformity` drives the generators with
//! its own random sources; the binary's `cmd` layer wires them.
//!
//! # Module map
//!
//! | module | holds |
//! |---|---|
//! | [`grid`] | `Maze`, `Size`, `Wall`, `Dir`: the one owner of topology (cells, walls, neighbours, wall bits), 2D and 3D |
//! | `dsu` | union-find over `u32` cell ids, reset and reused |
//! | [`rng`] | the seeding scheme, Xoshiro256++, unbiased bounded draws, the `RandomSource` trait |
//! | [`generate`] | one file per generator, the `Algorithm` enum and its families, `regenerate()`, shared helpers |
//! | [`metrics`] | `Metrics`, `Row` and `measure()`; `COLUMNS`, the one column table the schema and `--accept` derive from; [`metrics::definitions`], each column's exact definition |
//! | [`accept`] | the `--accept` language: parser, postfix code, evaluator |
//! | `batch` | ordered parallel chunks, per-thread scratch, accept filtering (feature `parallel`) |
//! | [`sink`] | metric rows as Arrow batches (`sink::arrow`, feature `store`) and the Parquet writer (feature `parquet`) |
//! | [`maze_id`], [`level`] | a row's identity (algo, size, seed, index, ends rule) and the maze it names, for a game |
//! | [`store`] | the maze store: Arrow IPC writer and memory-mapped reader; its format |
//! | [`render`] | ascii and unicode (`text.rs`), SVG, PNG (feature `png`) |
//! | `summary`, `plot`, `explore` | the `summary`, `plot` and `explore` subcommands' work |
//! | `shard`, `dataset` | `--shard K/N` and the cluster engines' environment; hive-partitioned folders and `batchgen check` |
//! | `atomic_file`, `output_set`, `folder_walk` | every output: temp file, fsync, rename, commit together; distinct outputs; one folder walker |
//! | `interrupt`, `memory` | SIGINT/SIGTERM/SIGHUP as a flag the workers poll; a run's memory estimate |
//! | [`run`] | a run of many mazes: [`run::RunSpec`] (typed fields, errors naming them, its printed command), [`run::Run::execute`] over [`run::RowSink`]s, and [`run::value`], the parsers of sizes, cells, counts and chances every front end uses |
//! | `args` | the command line's names for the parsers and path checks of [`run`] |
//! | `uniformity` | exact spanning-tree counts, exact generator distributions, chi-square |
//! | `cmd`, `cli`, `main.rs` | the command line (one file per subcommand in `src/cmd/`) |
//!
//! The user's guide to each subcommand is `src/cmd/README.md`; the column page is
//! `src/metrics/columns.md`, generated from [`metrics::COLUMNS`].
//!
//! # Seeding
//!
//! Every maze has its own seed, derived from (seed, algo, width, height, index; the depth too
//! for 3D) by SplitMix64 rounds, and its own Xoshiro256++ generator ([`rng`] gives the exact
//! derivation). So the maze of a given (algo, size, seed, index) is the same whatever the thread
//! count, chunk size, `--count`, the order of `--algo` or which other generators ran; bounded
//! draws are unbiased (Lemire's method with rejection). The seeding scheme
//! ([`rng::SEEDING_SCHEME`], now 2) and the crate version are stored in every Parquet file and
//! maze store, and `tests/golden.rs` pins seeds and maze hashes, so a row can be redrawn later
//! with `batchgen render --algo A --size WxH --seed S --index I`. Scheme 1 and 2 differ only in
//! `sidewinder`; every other generator gives the same mazes under both.
//!
//! # Wall layout and cell numbering
//!
//! A cell's id is `x + width·(y + height·z)` (`y·width + x` in 2D); layer `z = 0` is the top
//! and "down" goes to `z + 1`. Each cell owns its east and south walls (and down wall in 3D).
//! The wall words ([`Maze::words`]) hold two interleaved bits per cell: bit `2·id` is the east
//! wall of cell `id`, bit `2·id + 1` its south wall, a set bit an open wall (a passage); border
//! walls are never open. A 3D maze adds, after those planar words, one plane of `⌈cells/64⌉`
//! words whose bit `id` is the down wall of cell `id`. The maze store keeps exactly these words
//! ([`store`]), and [`Maze::hash`] hashes them with the size. The entrance and exit default to
//! the first and the last cell.
//!
//! # Cargo features
//!
//! The features follow the layers: core → `store` → `run` → front ends (`cli`, `python`).
//!
//! - **no features**: the core a game needs: [`grid`], [`rng`], [`generate`], [`metrics`],
//!   [`Level`] and [`MazeId`], the [`accept`] language, text/SVG [`render`]ing and the value
//!   parsers of [`run::value`]. Pure Rust, no Unix-only API, no Arrow.
//! - **`store`**: the Arrow stack: the maze [`store`] (written atomically; Unix), metric rows
//!   as Arrow batches ([`sink::arrow`]), [`MazeId::from_batch`], [`Level::from_store`].
//! - **`parallel`**: [`batch`], many mazes generated and measured on a rayon pool, with a stop
//!   flag the caller owns.
//! - **`run`** (`store` + `parallel`): the [`run`] layer, [`run::RunSpec`] validated into a
//!   [`run::Run`] and executed over [`run::RowSink`]s (maze store, Arrow table), shards,
//!   dataset folders. **`parquet`** adds its Parquet sink.
//! - **`png`**: PNG output in [`render`].
//! - **`python`** (`run` + `png`): the Python module.
//! - **default = `cli`** (`run` + `parquet` + `png`): the `batchgen` program and everything only
//!   it needs (plots, progress bars, signals, the uniformity lab). Its modules are plumbing of
//!   the program, hidden from these docs.
#![deny(missing_docs)]

pub mod accept;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod args;
#[cfg(feature = "store")]
#[doc(hidden)]
pub mod atomic_file;
#[cfg(feature = "parallel")]
pub mod batch;
#[cfg(feature = "python")]
mod bindings;
pub mod braid;
#[cfg(feature = "parquet")]
#[doc(hidden)]
pub mod dataset;
#[doc(hidden)]
pub mod dsu;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod explore;
#[cfg(feature = "cli")]
pub mod export;
#[cfg(feature = "store")]
#[doc(hidden)]
pub mod folder_walk;
pub mod generate;
pub mod grid;
#[doc(hidden)]
pub mod interrupt;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod json;
pub mod level;
pub mod maze_id;
#[cfg(feature = "run")]
#[doc(hidden)]
pub mod memory;
pub mod meta_keys;
pub mod metrics;
#[cfg(any(feature = "cli", feature = "python"))]
#[doc(hidden)]
pub mod ml;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod output_set;
#[cfg(feature = "cli")]
pub mod pick;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod plot;
mod popcount;
#[doc(hidden)]
pub mod printable;
#[cfg(any(feature = "cli", feature = "python"))]
#[cfg_attr(not(feature = "python"), allow(dead_code))]
pub(crate) mod python_literal;
pub mod render;
pub mod rng;
pub mod run;
#[cfg(feature = "run")]
#[doc(hidden)]
pub mod shard;
#[cfg(feature = "run")]
#[doc(hidden)]
pub mod shell;
#[cfg(feature = "store")]
pub mod sink;
#[cfg(feature = "store")]
pub mod store;
#[doc(hidden)]
pub mod suggest;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod summary;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod thousands;
pub mod topo;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod uniformity;

pub use generate::Algorithm;
pub use grid::{Dir, Mask, Maze, Size};
pub use level::{Level, LevelError, LevelSpec};
pub use maze_id::{MazeId, MazeIdError};
pub use metrics::{measure, Ends, Metrics};
pub use rng::{Chance, RandomSource, Rng};

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
