//! batchgen: perfect mazes by the million, each one measured.
//!
//! The pipeline, per maze:
//!
//! ```text
//! seed = rng::maze_seed(seed, algo, width, height, index)   // one RNG per maze, derived
//! algo.generate(&mut maze, &mut scratch, &mut Rng::from_maze_seed(seed))
//! row  = metrics::measure(&maze, ends, &mut metrics_scratch)
//! batch::run → ordered rayon chunks → sink::parquet (one row per maze)
//! ```
//!
//! `grid`, `dsu` and `rng` depend on nothing of ours; `generate` on those; `metrics` on `grid`;
//! `batch` on `generate` + `metrics`; `sink` and `render` only consume; the binary's `cmd` layer
//! wires them.
#![deny(missing_docs)]

pub mod accept;
pub mod batch;
pub mod dsu;
pub mod generate;
pub mod grid;
pub mod metrics;
pub mod render;
pub mod rng;
pub mod sink;
pub mod store;
pub mod uniformity;

pub use generate::Algorithm;
pub use grid::Maze;
pub use metrics::{measure, Ends, Metrics};
pub use rng::{RandomSource, Rng};
