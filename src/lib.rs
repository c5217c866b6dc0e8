//! batchgen: perfect mazes by the million, each one measured.
//!
//! The pipeline, per maze:
//!
//! ```text
//! generate::regenerate(&algo, &mut maze, &mut scratch, seed, index)  // one RNG per maze,
//!     // seeded from rng::maze_seed(seed, algo, width, height, index)
//! row  = metrics::measure(&maze, ends, &mut metrics_scratch)
//! batch::run → ordered rayon chunks → sink::parquet (one row per maze)
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
//! `grid`, `dsu` and `rng` depend on nothing of ours; `generate` on those; `metrics` on `grid`;
//! `batch` on `generate` + `metrics` + `accept`; `sink`, `store` and `render` only consume;
//! `shard` picks a slice of the index range (flag or cluster engine) and `dataset` lays out
//! and checks hive-partitioned folders of shard files; `uniformity` drives the generators with
//! its own random sources; the binary's `cmd` layer
//! wires them.
#![deny(missing_docs)]

pub mod accept;
pub mod args;
pub mod atomic_file;
pub mod batch;
pub mod dataset;
pub mod dsu;
pub mod generate;
pub mod grid;
pub mod interrupt;
pub mod memory;
pub mod metrics;
pub mod plot;
pub mod render;
pub mod rng;
pub mod shard;
pub mod sink;
pub mod store;
pub mod summary;
pub mod uniformity;

pub use generate::Algorithm;
pub use grid::Maze;
pub use metrics::{measure, Ends, Metrics};
pub use rng::{RandomSource, Rng};
