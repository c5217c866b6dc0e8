//! The batch pipeline: many mazes of one size, generated and measured in parallel, delivered in
//! index order, chunk by chunk.
//!
//! Work is split into chunks of consecutive indices, held in a ring of [`CHUNKS_IN_FLIGHT`]
//! slots. Each pool thread takes small blocks of indices from the earliest chunk with work left
//! and copies the finished rows into that chunk's slot, going on to the next chunk without
//! waiting for the rest of this one; the calling thread hands each chunk, once complete and in
//! order, to the caller (a Parquet writer, say) while the workers fill the following ones. So
//! the workers wait for the caller only when every slot is full, and memory is bounded by
//! [`CHUNKS_IN_FLIGHT`] chunks whatever `count` is.
//! Each pool thread owns one [`Worker`] (maze, scratch buffers, RNG) for the whole run, so nothing
//! is allocated per maze. A maze depends only on (algo, size, seed, index): thread count and
//! chunk size cannot change a row. (Cargo feature `parallel`.)
//!
//! A run as a library call: the caller owns the stop flag (a binding sets it on Ctrl-C, the
//! program from its signal handler), and each chunk becomes an Arrow batch of the metrics
//! table ([`crate::sink::arrow`]):
//!
//! ```
//! use std::sync::atomic::{AtomicBool, Ordering};
//! use batchgen::batch::{self, Job};
//! use batchgen::sink::arrow::{self, RunInfo};
//! use batchgen::{Algorithm, Ends, Size};
//!
//! let size = Size::planar(16, 16);
//! let job = Job::sized(vec![Algorithm::Wilson, Algorithm::Kruskal], size, 500, 42);
//! let info = RunInfo { ends_rule: Ends::first_last(size).rule(size), ..RunInfo::default() };
//! let schema = arrow::schema_with_metadata(&arrow::base_metadata(&info));
//! let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build()?;
//! let stop = AtomicBool::new(false);
//! let mut batches = Vec::new();
//! let tallies = batch::run_cancellable(&job, &pool, &stop, |chunk| {
//!     let name = chunk.algo.name();
//!     batches.push(arrow::record_batch(&schema, &name, size, job.seed, chunk.rows)?);
//!     Ok::<(), arrow_schema::ArrowError>(())
//! })?;
//! assert!(!stop.load(Ordering::Relaxed)); // finished, not stopped
//! assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 1000);
//! assert!(tallies.iter().all(|t| t.accepted == 500));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::accept::{Accept, Candidate};
use crate::braid;
use crate::generate::{self, Algorithm};
use std::sync::Arc;

use crate::grid::{Mask, Maze, Size};
pub use crate::metrics::Row;
use crate::metrics::{self, Ends, Metrics};
use crate::rng::Chance;
use crate::topo::braid::BraidScratch;
use crate::topo::generate::{self as tgen, GraphScratch};
use crate::topo::measure_graph::Scratch as GraphMeasure;
use crate::topo::{self, CellGraph, GraphEnds, GraphMaze, Grid, GridEnds, GridSize};

/// Everything one worker thread reuses from maze to maze.
#[derive(Debug)]
pub struct Worker {
    maze: Maze,
    gen: generate::Scratch,
    braid: braid::Scratch,
    measure: metrics::Scratch,
    /// On a grid other than the square one: its maze and buffers (then `maze` is unused).
    graph: Option<Box<GraphWorker>>,
    /// The second maze of a pair ([`Worker::row_pair`]), made on the first pair.
    twin: Option<Box<Twin>>,
}

/// The second maze of a pair and its generator's buffers.
#[derive(Debug)]
struct Twin {
    maze: Maze,
    gen: generate::Scratch,
}

/// A grid other than the square one, as a job makes its mazes: the cell graph (built once per
/// run), the grid size the seeds mix in, the ends and the mask's hash (0 without one).
#[derive(Clone, Debug)]
pub struct GraphJob {
    /// The grid and its size.
    pub size: GridSize,
    /// Its cells and neighbours (a mask's cells only, with one).
    pub graph: Arc<CellGraph>,
    /// Entrance and exit of the solution.
    pub ends: GraphEnds,
    /// The mask's hash for the `mask_hash` column (0 without a mask).
    pub mask_hash: u64,
}

/// A worker's maze and buffers on a [`GraphJob`]'s grid.
#[derive(Debug)]
struct GraphWorker {
    job: GraphJob,
    maze: GraphMaze,
    gen: GraphScratch,
    braid: BraidScratch,
    measure: GraphMeasure,
    /// The second maze of a pair ([`GraphWorker::row_pair`]) and its generator's buffers, made
    /// on the first pair.
    twin: Option<Box<GraphTwin>>,
}

impl GraphWorker {
    /// Generate, braid (chance `braid`, [`crate::topo::braid`]) and measure maze `index`
    /// (seeds: [`crate::topo::seed_base`]); `ends` is [`Ends::Diameter`] for a farthest pair,
    /// otherwise the job's cells.
    fn row(
        &mut self,
        algo: &Algorithm,
        seed_base: u64,
        index: u64,
        ends: Ends,
        braid: Chance,
    ) -> Row {
        let g = &*self.job.graph;
        let maze_seed = crate::rng::maze_seed_from_base(seed_base, index);
        let mut rng = crate::Rng::from_maze_seed(maze_seed);
        let t = Instant::now();
        tgen::generate(algo, g, &mut self.maze, &mut self.gen, &mut rng);
        topo::braid::braid_seeded(g, &mut self.maze, braid, maze_seed, &mut self.braid);
        let gen_ns = t.elapsed().as_nanos() as u64;
        let (job, measure) = (&self.job, &mut self.measure);
        graph_row(
            job,
            &self.maze,
            measure,
            (index, maze_seed, gen_ns),
            ends,
            braid,
        )
    }

    /// Rows `index` and `index + 1` as [`GraphWorker::row`] makes them, the two mazes generated
    /// together ([`tgen::generate_pair`], where [`tgen::pairs_faster`]): each
    /// row's `gen_ns` is half the pair's generation plus its own braid pass. The first maze is
    /// left in `maze`, the second in `twin`.
    fn row_pair(
        &mut self,
        algo: &Algorithm,
        seed_base: u64,
        index: u64,
        ends: Ends,
        braid: Chance,
    ) -> [Row; 2] {
        let g = &*self.job.graph;
        let twin = self.twin.get_or_insert_with(|| {
            Box::new(GraphTwin {
                maze: GraphMaze::new(g),
                gen: GraphScratch::new(),
            })
        });
        let seeds = [index, index + 1].map(|i| crate::rng::maze_seed_from_base(seed_base, i));
        let [mut ra, mut rb] = seeds.map(crate::Rng::from_maze_seed);
        let t = Instant::now();
        tgen::generate_pair(
            algo,
            g,
            (&mut self.maze, &mut self.gen, &mut ra),
            (&mut twin.maze, &mut twin.gen, &mut rb),
        );
        let half = t.elapsed().as_nanos() as u64 / 2;
        let (job, braids, measure) = (&self.job, &mut self.braid, &mut self.measure);
        let mut row = |k: usize, maze: &mut GraphMaze| {
            let t = Instant::now();
            topo::braid::braid_seeded(g, maze, braid, seeds[k], braids);
            let gen_ns = half + t.elapsed().as_nanos() as u64;
            let at = (index + k as u64, seeds[k], gen_ns);
            graph_row(job, maze, measure, at, ends, braid)
        };
        [row(0, &mut self.maze), row(1, &mut twin.maze)]
    }
}

/// The second maze of a grid pair ([`GraphWorker::row_pair`]) and its generator's buffers.
#[derive(Debug)]
struct GraphTwin {
    maze: GraphMaze,
    gen: GraphScratch,
}

/// Measure `maze` of `job`'s grid as row `index` of seed `maze_seed`, made (and braided with
/// chance `braid`) in `gen_ns`; `ends` is [`Ends::Diameter`] for a farthest pair, otherwise
/// the job's cells.
fn graph_row(
    job: &GraphJob,
    maze: &GraphMaze,
    measure: &mut GraphMeasure,
    (index, maze_seed, gen_ns): (u64, u64, u64),
    ends: Ends,
    braid: Chance,
) -> Row {
    let ends = match ends {
        Ends::Diameter => GridEnds::Diameter,
        Ends::Cells { .. } => GridEnds::Cells(job.ends),
    };
    let mut metrics = topo::measure_maze(&job.graph, maze, ends, job.mask_hash, measure);
    metrics.braid = braid.p();
    Row {
        index,
        maze_seed,
        gen_ns,
        metrics,
    }
}

impl Worker {
    /// A worker for `width × height` mazes.
    pub fn new(width: u32, height: u32) -> Worker {
        Worker::sized(Size::planar(width, height))
    }

    /// A worker for mazes of `size` (2D or 3D).
    pub fn sized(size: Size) -> Worker {
        Worker {
            maze: Maze::with_size(size),
            gen: generate::Scratch::new(),
            braid: braid::Scratch::new(),
            measure: metrics::Scratch::new(),
            graph: None,
            twin: None,
        }
    }

    /// A worker for `job`'s mazes: its size and mask, or its grid.
    pub fn for_job(job: &Job) -> Worker {
        match &job.graph {
            None => {
                let mut w = Worker::sized(job.size);
                w.maze.set_mask(job.mask.clone());
                w
            }
            Some(g) => Worker::on_grid(g),
        }
    }

    /// A worker for mazes of `job`'s grid (hex, triangle, polar).
    pub fn on_grid(job: &GraphJob) -> Worker {
        let mut w = Worker::sized(Size::planar(1, 1));
        w.graph = Some(Box::new(GraphWorker {
            maze: GraphMaze::new(&job.graph),
            job: job.clone(),
            gen: GraphScratch::new(),
            braid: BraidScratch::new(),
            measure: GraphMeasure::new(),
            twin: None,
        }));
        w
    }

    /// The wall words of the last maze made: [`Maze::words`], or on another grid one open bit
    /// per edge ([`GraphMaze::words`]).
    #[inline]
    pub fn words(&self) -> &[u64] {
        match &self.graph {
            None => self.maze.words(),
            Some(g) => g.maze.words(),
        }
    }

    /// The wall words of the two mazes of the last [`Worker::row_pair`] ([`Worker::words`] of
    /// each).
    fn pair_words(&self) -> [&[u64]; 2] {
        match &self.graph {
            None => [
                self.maze.words(),
                self.twin.as_ref().map_or(&[], |t| t.maze.words()),
            ],
            Some(g) => [
                g.maze.words(),
                g.twin.as_ref().map_or(&[], |t| t.maze.words()),
            ],
        }
    }

    /// Generate the maze whose per-maze seed is `maze_seed` with `algo` into this worker's maze
    /// (and return it).
    #[inline]
    pub fn generate(&mut self, algo: &Algorithm, maze_seed: u64) -> &Maze {
        generate::generate_seeded(algo, &mut self.maze, &mut self.gen, maze_seed);
        &self.maze
    }

    /// Generate, braid with chance `braid` ([`crate::braid`]; 0 = a perfect maze) and measure
    /// one maze, timing the generator and the braid pass.
    #[inline]
    pub fn row(
        &mut self,
        algo: &Algorithm,
        seed_base: u64,
        index: u64,
        ends: Ends,
        braid: Chance,
    ) -> Row {
        if let Some(g) = &mut self.graph {
            return g.row(algo, seed_base, index, ends, braid);
        }
        let t = Instant::now();
        let maze_seed =
            generate::regenerate_from_base(algo, &mut self.maze, &mut self.gen, seed_base, index);
        let gen_ns = t.elapsed().as_nanos() as u64;
        let scratch = (&mut self.braid, &mut self.measure);
        braid_and_measure(
            &mut self.maze,
            scratch,
            (index, maze_seed, gen_ns),
            ends,
            braid,
        )
    }

    /// Rows `index` and `index + 1` as [`Worker::row`] makes them. On another grid, the two
    /// mazes are generated together ([`GraphWorker::row_pair`]; only where
    /// [`tgen::pairs_faster`]). On the square grid, where `algo` [`Algorithm::pairs_faster`]
    /// the two mazes are generated together ([`Algorithm::generate_pair`]) and each row's
    /// `gen_ns` is half the pair's generation, otherwise each is generated and timed on its
    /// own; each adds its own braid pass. The two are measured together
    /// ([`metrics::measure_pair`], which overlaps the searches of two perfect 2D mazes). The
    /// first maze is left in `maze`, the second in `twin`.
    fn row_pair(
        &mut self,
        algo: &Algorithm,
        seed_base: u64,
        index: u64,
        ends: Ends,
        braid: Chance,
    ) -> [Row; 2] {
        if let Some(g) = &mut self.graph {
            return g.row_pair(algo, seed_base, index, ends, braid);
        }
        let twin = self.twin.get_or_insert_with(|| {
            let mut maze = Maze::with_size(self.maze.size());
            maze.set_mask(self.maze.mask().cloned());
            Box::new(Twin {
                maze,
                gen: generate::Scratch::new(),
            })
        });
        let seeds = [index, index + 1].map(|i| crate::rng::maze_seed_from_base(seed_base, i));
        let mut gen_ns = [0; 2];
        if algo.pairs_faster(self.maze.size()) {
            let t = Instant::now();
            generate::generate_pair_seeded(
                algo,
                (&mut self.maze, &mut self.gen),
                (&mut twin.maze, &mut twin.gen),
                seeds,
            );
            gen_ns = [t.elapsed().as_nanos() as u64 / 2; 2];
        } else {
            for (k, (maze, gen)) in [
                (&mut self.maze, &mut self.gen),
                (&mut twin.maze, &mut twin.gen),
            ]
            .into_iter()
            .enumerate()
            {
                let t = Instant::now();
                generate::generate_seeded(algo, maze, gen, seeds[k]);
                gen_ns[k] = t.elapsed().as_nanos() as u64;
            }
        }
        for (k, maze) in [&mut self.maze, &mut twin.maze].into_iter().enumerate() {
            gen_ns[k] += braid_timed(maze, &mut self.braid, seeds[k], braid);
        }
        let metrics = metrics::measure_pair([&self.maze, &twin.maze], ends, &mut self.measure);
        std::array::from_fn(|k| {
            braided_row((index + k as u64, seeds[k], gen_ns[k]), metrics[k], braid)
        })
    }

    /// The maze made by the last call to [`Worker::generate`] or [`Worker::row`].
    pub fn maze(&self) -> &Maze {
        &self.maze
    }

    /// The metrics scratch of the last measurement (BFS parents for drawing the solution).
    pub fn measure_scratch(&self) -> &metrics::Scratch {
        &self.measure
    }
}

/// Braid `maze` (chance `braid`) and measure it as row `index` of seed `maze_seed`, whose
/// generation took `gen_ns` (the braid pass is added to it).
#[inline]
fn braid_and_measure(
    maze: &mut Maze,
    (braids, measure): (&mut braid::Scratch, &mut metrics::Scratch),
    (index, maze_seed, gen_ns): (u64, u64, u64),
    ends: Ends,
    braid: Chance,
) -> Row {
    let gen_ns = gen_ns + braid_timed(maze, braids, maze_seed, braid);
    let metrics = metrics::measure(maze, ends, measure);
    braided_row((index, maze_seed, gen_ns), metrics, braid)
}

/// Braid `maze` of seed `maze_seed` (chance `braid`); the nanoseconds it took.
#[inline]
fn braid_timed(maze: &mut Maze, braids: &mut braid::Scratch, maze_seed: u64, braid: Chance) -> u64 {
    let t = Instant::now();
    braid::braid_seeded(maze, braid, maze_seed, braids);
    t.elapsed().as_nanos() as u64
}

/// Row `index` of seed `maze_seed`, made in `gen_ns` (braid pass included), with the maze's
/// `metrics` and the braid chance it was made with.
#[inline]
fn braided_row(
    (index, maze_seed, gen_ns): (u64, u64, u64),
    metrics: Metrics,
    braid: Chance,
) -> Row {
    Row {
        index,
        maze_seed,
        gen_ns,
        metrics: Metrics {
            braid: braid.p(),
            ..metrics
        },
    }
}

/// What to make: `count` mazes of each algorithm, one size, one master seed.
#[derive(Clone, Debug)]
pub struct Job {
    /// Generators, run one after the other in this order.
    pub algos: Vec<Algorithm>,
    /// Grid size (depth 1 for 2D).
    pub size: Size,
    /// Mazes per algorithm (accepted mazes, when there is a filter).
    pub count: u64,
    /// Master seed.
    pub seed: u64,
    /// Entrance and exit for `solution_length` / `solution_turns`.
    pub ends: Ends,
    /// Keep only candidates that pass this filter (tried in index order).
    pub accept: Option<Accept>,
    /// Give up on an algorithm after this many candidates (only matters with a filter).
    pub max_candidates: u64,
    /// Hand each chunk's wall words to the caller too (for the maze store).
    pub keep_walls: bool,
    /// First maze index of every algorithm (a shard's slice starts here; 0 otherwise):
    /// candidates are `first_index..first_index + count` (or `+ max_candidates`).
    pub first_index: u64,
    /// The mask every maze fills (its size is `size`), if any.
    pub mask: Option<Arc<Mask>>,
    /// Braid every maze with this chance per dead end ([`crate::braid`]; 0 = perfect mazes).
    pub braid: Chance,
    /// On a grid other than the square one: its graph, ends and mask hash (then `size` is
    /// `W×H` as written, `R×C` for polar, `mask` is not used, and of `ends` only
    /// [`Ends::Diameter`] counts: otherwise the graph's ends are).
    pub graph: Option<GraphJob>,
}

impl Job {
    /// A 2D job (`width × height`) without filter that keeps no walls.
    pub fn new(algos: Vec<Algorithm>, width: u32, height: u32, count: u64, seed: u64) -> Job {
        Job::sized(algos, Size::planar(width, height), count, seed)
    }

    /// A job for mazes of `size` (2D or 3D) without filter that keeps no walls; the ends are
    /// the first and the last cell.
    pub fn sized(algos: Vec<Algorithm>, size: Size, count: u64, seed: u64) -> Job {
        Job {
            algos,
            size,
            count,
            seed,
            ends: Ends::first_last(size),
            accept: None,
            max_candidates: count,
            keep_walls: false,
            first_index: 0,
            mask: None,
            braid: Chance::new(0.0),
            graph: None,
        }
    }

    /// The part of `algo`'s maze seeds that does not depend on the index (the grid's,
    /// [`crate::topo::seed_base`], on a grid other than the square one).
    pub fn seed_base(&self, algo: &Algorithm) -> u64 {
        match &self.graph {
            None => generate::seed_base_masked(algo, self.size, self.mask.as_deref(), self.seed),
            Some(g) => topo::seed_base(self.seed, &algo.name(), g.size),
        }
    }

    /// Cells of one maze (the slots of the grid's graph on another grid).
    pub fn cells(&self) -> u64 {
        match &self.graph {
            None => self.size.cells_u64(),
            Some(g) => g.graph.len() as u64,
        }
    }

    /// Wall words per maze ([`Worker::words`]).
    pub fn words_per_maze(&self) -> usize {
        match &self.graph {
            None => self.size.words_per_maze(),
            Some(g) => g.graph.words_per_maze(),
        }
    }
}

/// One chunk of finished rows of one algorithm, in index order.
#[derive(Debug)]
pub struct Chunk<'a> {
    /// The generator.
    pub algo: &'a Algorithm,
    /// The (accepted) rows.
    pub rows: &'a [Row],
    /// With [`Job::keep_walls`]: the wall words of each row's maze, `words_per_maze` each, in
    /// row order (as [`Maze::words`]); otherwise empty.
    pub walls: &'a [u64],
    /// Words per maze in `walls`.
    pub words_per_maze: usize,
    /// Candidates tried so far for this algorithm, this chunk included.
    pub candidates: u64,
    /// Summed over the workers: the time spent making, measuring and copying this chunk's
    /// candidates. Chunks are made ahead of the caller (up to [`CHUNKS_IN_FLIGHT`] at once,
    /// of several algorithms when mazes are small), so the time between two chunks' arrivals
    /// is not what either cost; this is.
    pub busy: Duration,
}

/// Per-algorithm totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Candidates generated and measured (indices `first_index..first_index + candidates`).
    pub candidates: u64,
    /// Rows delivered.
    pub accepted: u64,
}

/// After a run with a filter: the message naming the generators (`names`, in job order) that
/// found fewer than `job.count` accepted mazes within `job.max_candidates`, or `None` when every
/// one found enough.
pub fn shortfall(job: &Job, tallies: &[Tally], names: &[String]) -> Option<String> {
    let short: Vec<String> = tallies
        .iter()
        .zip(names)
        .filter(|(t, _)| t.accepted < job.count)
        .map(|(t, n)| format!("{n}: {} of {} candidates", t.accepted, t.candidates))
        .collect();
    if short.is_empty() {
        return None;
    }
    Some(format!(
        "--accept '{}' accepted too few mazes within --max-candidates {} (needed {} per \
         algorithm): {}; nothing was written. Loosen the filter or raise --max-candidates.",
        job.accept.as_ref().map_or("", |a| a.source()),
        job.max_candidates,
        job.count,
        short.join("; ")
    ))
}

/// Mazes per chunk for a grid of `cells` cells: about 16M cells of work per chunk (tens of
/// milliseconds at 64×64), at least 4 mazes per thread, at most 65,536 rows.
pub fn chunk_len(cells: u64, threads: usize) -> u64 {
    ((1u64 << 24) / cells.max(1)).clamp(4 * threads as u64, 65_536)
}

/// Run `job` on `pool`, calling `on_chunk` for each chunk in order (indices ascending within an
/// algorithm, algorithms in job order). Candidates are tried in index order; with a filter,
/// the first `count` that pass are delivered (keeping their candidate index), so the accepted
/// set does not depend on threads or chunking. Returns each algorithm's tally; an algorithm
/// that ran out of `max_candidates` has `accepted < count`. Stops at the first error from
/// `on_chunk` and returns it.
pub fn run<E>(
    job: &Job,
    pool: &rayon::ThreadPool,
    on_chunk: impl FnMut(&Chunk<'_>) -> Result<(), E>,
) -> Result<Vec<Tally>, E> {
    run_cancellable(job, pool, &AtomicBool::new(false), on_chunk)
}

/// [`run`], stopping early once `cancel` becomes true: workers skip their remaining mazes
/// (each checks the flag before starting a maze, so the run stops within one maze's time), the
/// filter looks at it every 64 candidates, the unfinished chunk is dropped without reaching
/// `on_chunk`, and the tallies so far are returned.
/// The caller tells a cancelled run from a finished one by looking at `cancel`.
pub fn run_cancellable<E>(
    job: &Job,
    pool: &rayon::ThreadPool,
    cancel: &AtomicBool,
    on_chunk: impl FnMut(&Chunk<'_>) -> Result<(), E>,
) -> Result<Vec<Tally>, E> {
    pipeline(job, pool, cancel, None, on_chunk)
}

/// [`run_cancellable`], also timing where the run's threads spent it ([`Waits`]). The plain
/// calls take no clock readings beyond the per-maze `gen_ns`; this one reads the clock once per
/// block of mazes and around each wait.
pub fn run_timed<E>(
    job: &Job,
    pool: &rayon::ThreadPool,
    cancel: &AtomicBool,
    waits: &mut Waits,
    on_chunk: impl FnMut(&Chunk<'_>) -> Result<(), E>,
) -> Result<Vec<Tally>, E> {
    pipeline(job, pool, cancel, Some(waits), on_chunk)
}

/// Where a run's time went, from [`run_timed`]: the workers' time split into making mazes and
/// the rest (waiting for a chunk slot the caller still holds, for the lock that hands out
/// work, for the run's start and end), and the caller's time split into `on_chunk` and
/// waiting for the next chunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Waits {
    /// Wall time of the whole run.
    pub wall: Duration,
    /// Worker threads.
    pub workers: usize,
    /// Summed over workers: time spent making, measuring and copying mazes.
    pub worker_busy: Duration,
    /// Summed over workers: the rest of the run's wall time (`workers × wall − worker_busy`).
    pub worker_idle: Duration,
    /// The calling thread's time inside `on_chunk` (and the filter).
    pub caller_busy: Duration,
    /// The calling thread's time waiting for its next chunk to be filled.
    pub caller_idle: Duration,
}

/// Chunks in flight at most: the one the caller holds (in `on_chunk`) and the ones the
/// workers fill meanwhile. It bounds the memory of a run (rows and, with
/// [`Job::keep_walls`], wall words of this many chunks) and how far the workers can run ahead
/// of a slow caller.
pub const CHUNKS_IN_FLIGHT: usize = 4;

/// Mazes a worker takes at a time: small against a chunk, so a chunk's tail is spread over
/// every worker, large enough that the lock handing them out is rarely touched.
fn block_len(chunk: u64, threads: usize) -> u64 {
    (chunk / (4 * threads as u64)).clamp(1, 64)
}

/// The pipeline behind [`run_cancellable`] and [`run_timed`].
///
/// The calling thread plans chunks (consecutive candidate ranges, in job order) into a ring of
/// [`CHUNKS_IN_FLIGHT`] slots. Every pool thread runs one worker loop: it takes the next block
/// of unclaimed indices of the earliest open chunk, makes those mazes into its own buffers,
/// and copies them into the chunk's slot; a worker never waits for a chunk to be written, only
/// for a free slot when every slot is full. The calling thread waits for the earliest chunk to
/// be complete, takes its buffers out of the slot, filters it and hands it to `on_chunk`, then
/// plans the next chunk into the freed slot.
fn pipeline<E>(
    job: &Job,
    pool: &rayon::ThreadPool,
    cancel: &AtomicBool,
    waits: Option<&mut Waits>,
    mut on_chunk: impl FnMut(&Chunk<'_>) -> Result<(), E>,
) -> Result<Vec<Tally>, E> {
    let began = Instant::now();
    let threads = pool.current_num_threads();
    let chunk = chunk_len(job.cells(), threads);
    let timed = waits.is_some();
    let shared = Shared {
        plan: Mutex::new(Open::default()),
        work: Condvar::new(),
        slots: (0..CHUNKS_IN_FLIGHT)
            .map(|_| (Mutex::new(Slot::default()), Condvar::new()))
            .collect(),
        halt: AtomicBool::new(false),
        cancel,
        busy_ns: AtomicU64::new(0),
        panicked: AtomicBool::new(false),
    };
    let bases: Vec<u64> = job.algos.iter().map(|algo| job.seed_base(algo)).collect();
    let block = block_len(chunk, threads);
    let (result, workers) = std::thread::scope(|scope| {
        let workers = scope.spawn(|| {
            pool.scope(|s| {
                for _ in 0..threads {
                    s.spawn(|_| work(&shared, job, &bases, block, timed));
                }
            })
        });
        let mut caller = Caller {
            job,
            shared: &shared,
            threads,
            chunk,
            planner: Planner {
                algo: 0,
                next: job.first_index,
            },
            queue: VecDeque::with_capacity(CHUNKS_IN_FLIGHT),
            free: (0..CHUNKS_IN_FLIGHT).map(|_| Buffers::default()).collect(),
            seq: 0,
            tallies: vec![Tally::default(); job.algos.len()],
            busy: Duration::ZERO,
            idle: Duration::ZERO,
            timed,
        };
        let halt = Halt(&shared);
        let result = caller.deliver(&mut on_chunk);
        drop(halt);
        (
            result.map(|t| (t, caller.busy, caller.idle)),
            workers.join(),
        )
    });
    if let Err(panic) = workers {
        std::panic::resume_unwind(panic);
    }
    let (tallies, caller_busy, caller_idle) = result?;
    if let Some(w) = waits {
        let wall = began.elapsed();
        let busy = Duration::from_nanos(shared.busy_ns.load(Ordering::Relaxed));
        *w = Waits {
            wall,
            workers: threads,
            worker_busy: busy,
            worker_idle: (wall * threads as u32).saturating_sub(busy),
            caller_busy,
            caller_idle,
        };
    }
    Ok(tallies)
}

/// Lock `m`, going on past a poisoned lock (a worker that panicked has already marked the run
/// as failed, and its panic is raised when the workers are joined).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the calling thread and the workers share.
struct Shared<'a> {
    /// The chunks with indices not yet handed to a worker, earliest first.
    plan: Mutex<Open>,
    /// Signalled when a chunk is opened or the run ends.
    work: Condvar,
    /// The ring: chunk `seq` lives in slot `seq % CHUNKS_IN_FLIGHT`; each slot's condvar is
    /// signalled when its chunk is complete or a worker leaves.
    slots: Vec<(Mutex<Slot>, Condvar)>,
    /// Set by the calling thread when it stops (done, `on_chunk` failed, or cancelled).
    halt: AtomicBool,
    /// The caller's stop flag.
    cancel: &'a AtomicBool,
    /// Workers' busy time, nanoseconds (only counted by [`run_timed`]).
    busy_ns: AtomicU64,
    /// A worker panicked: the caller stops waiting (the panic is raised at the join).
    panicked: AtomicBool,
}

impl Shared<'_> {
    fn stopped(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || self.halt.load(Ordering::Relaxed)
    }
}

/// The opened chunks' unclaimed indices.
#[derive(Default)]
struct Open {
    chunks: VecDeque<Claim>,
    /// No chunk will be opened any more: workers leave when `chunks` is empty.
    closed: bool,
}

/// Candidates `next..end` of algorithm `algo` (the job's position), chunk `seq`.
#[derive(Clone, Copy, Debug)]
struct Claim {
    seq: u64,
    algo: usize,
    next: u64,
    end: u64,
}

/// One ring slot: the buffers of chunk `seq` (candidates `start..start + len`) and how many of
/// its rows the workers have filled in. `seq` is `u64::MAX` while the slot holds no chunk (the
/// caller has taken its buffers), so late rows of a dropped chunk are recognised and discarded.
struct Slot {
    seq: u64,
    start: u64,
    len: usize,
    filled: usize,
    /// The workers' time spent on its rows so far ([`Chunk::busy`]).
    busy: Duration,
    buf: Buffers,
}

impl Default for Slot {
    fn default() -> Slot {
        Slot {
            seq: u64::MAX,
            start: 0,
            len: 0,
            filled: 0,
            busy: Duration::ZERO,
            buf: Buffers::default(),
        }
    }
}

/// The rows of one chunk and, with [`Job::keep_walls`], their wall words.
#[derive(Default)]
struct Buffers {
    rows: Vec<Row>,
    walls: Vec<u64>,
}

/// Ends the run for the workers whatever ended it for the caller (the end, an error, a stop,
/// a panic in `on_chunk`): none is left waiting for work.
struct Halt<'s, 'a>(&'s Shared<'a>);

impl Drop for Halt<'_, '_> {
    fn drop(&mut self) {
        self.0.halt.store(true, Ordering::Relaxed);
        lock(&self.0.plan).closed = true;
        self.0.work.notify_all();
    }
}

/// Marks a worker's exit, normal or by panic: adds its busy time and wakes the caller (which
/// may be waiting for a chunk this worker will not finish, after a stop or a panic).
struct Leave<'s, 'a> {
    shared: &'s Shared<'a>,
    busy: Duration,
}

impl Drop for Leave<'_, '_> {
    fn drop(&mut self) {
        let s = self.shared;
        if std::thread::panicking() {
            s.panicked.store(true, Ordering::Relaxed);
        }
        s.busy_ns
            .fetch_add(self.busy.as_nanos() as u64, Ordering::Relaxed);
        for (m, cv) in &s.slots {
            // Under the lock: the caller checks the flags and waits atomically.
            let _g = lock(m);
            cv.notify_all();
        }
    }
}

/// One pool thread's loop: claim a block of the earliest open chunk, make its mazes, copy them
/// into the chunk's slot; leave when the run stops or no chunk will be opened any more.
fn work(shared: &Shared<'_>, job: &Job, bases: &[u64], block: u64, timed: bool) {
    let mut w = Worker::for_job(job);
    let wpm = job.words_per_maze();
    let mut rows: Vec<Row> = Vec::with_capacity(block as usize);
    let mut walls: Vec<u64> = Vec::new();
    let mut leave = Leave {
        shared,
        busy: Duration::ZERO,
    };
    loop {
        let c = {
            let mut open = lock(&shared.plan);
            loop {
                if shared.stopped() {
                    return;
                }
                if let Some(front) = open.chunks.front_mut() {
                    let c = Claim {
                        end: (front.next + block).min(front.end),
                        ..*front
                    };
                    front.next = c.end;
                    if front.next == front.end {
                        open.chunks.pop_front();
                    }
                    break c;
                }
                if open.closed {
                    return;
                }
                open = shared.work.wait(open).unwrap_or_else(|e| e.into_inner());
            }
        };
        // One clock reading per block (tens of mazes): the chunk's busy time.
        let t = Instant::now();
        let algo = &job.algos[c.algo];
        let pairs = match &job.graph {
            None => true,
            Some(g) => tgen::pairs_faster(algo, &g.graph),
        };
        let base = bases[c.algo];
        rows.clear();
        walls.clear();
        let mut index = c.next;
        while index < c.end {
            if shared.stopped() {
                return;
            }
            if pairs && index + 1 < c.end {
                rows.extend(w.row_pair(algo, base, index, job.ends, job.braid));
                if job.keep_walls {
                    let [a, b] = w.pair_words();
                    walls.extend_from_slice(a);
                    walls.extend_from_slice(b);
                }
                index += 2;
                continue;
            }
            rows.push(w.row(algo, base, index, job.ends, job.braid));
            if job.keep_walls {
                walls.extend_from_slice(w.words());
            }
            index += 1;
        }
        let (m, cv) = &shared.slots[(c.seq % CHUNKS_IN_FLIGHT as u64) as usize];
        {
            let mut slot = lock(m);
            if slot.seq == c.seq {
                let at = (c.next - slot.start) as usize;
                slot.buf.rows[at..at + rows.len()].copy_from_slice(&rows);
                if job.keep_walls {
                    slot.buf.walls[at * wpm..(at + rows.len()) * wpm].copy_from_slice(&walls);
                }
                slot.filled += rows.len();
                let spent = t.elapsed();
                slot.busy += spent;
                if timed {
                    leave.busy += spent;
                }
                if slot.filled == slot.len {
                    cv.notify_all();
                }
            } else if timed {
                leave.busy += t.elapsed();
            }
        }
    }
}

/// Which chunk comes next: the position of the algorithm being planned and its next index.
struct Planner {
    algo: usize,
    next: u64,
}

/// A chunk the caller has opened: its sequence number, algorithm and candidates.
#[derive(Clone, Copy, Debug)]
struct Planned {
    seq: u64,
    algo: usize,
    start: u64,
    end: u64,
}

/// The calling thread's side of the pipeline: plans chunks, waits for them in order, filters
/// them and hands them to `on_chunk`.
struct Caller<'s, 'a> {
    job: &'s Job,
    shared: &'s Shared<'a>,
    threads: usize,
    chunk: u64,
    planner: Planner,
    /// The opened chunks, in order.
    queue: VecDeque<Planned>,
    /// Buffers of the free slots.
    free: Vec<Buffers>,
    /// The next chunk's sequence number.
    seq: u64,
    tallies: Vec<Tally>,
    busy: Duration,
    idle: Duration,
    timed: bool,
}

impl Caller<'_, '_> {
    /// Candidates `first_index..limit` may be tried per algorithm.
    fn limit(&self) -> u64 {
        self.job.first_index.saturating_add(match self.job.accept {
            Some(_) => self.job.max_candidates,
            None => self.job.count,
        })
    }

    /// The next chunk to open, if one is due now. Without a filter every algorithm's range is
    /// cut into full chunks, one algorithm after the other. With a filter the chunks of an
    /// algorithm are sized to the candidates still likely needed (from the acceptance rate so
    /// far, less those already in flight), so little work is thrown away past the last
    /// acceptance, and the next algorithm starts only once this one is settled.
    fn plan(&mut self) -> Option<(usize, u64, u64)> {
        let (job, limit, first) = (self.job, self.limit(), self.job.first_index);
        loop {
            let p = &mut self.planner;
            if p.algo >= job.algos.len() {
                return None;
            }
            let t = self.tallies[p.algo];
            let settled = t.accepted >= job.count || p.next >= limit;
            if settled {
                // With a filter, an algorithm ends with its last chunk delivered.
                if job.accept.is_some() && !self.queue.is_empty() {
                    return None;
                }
                p.algo += 1;
                p.next = first;
                continue;
            }
            let step = match job.accept {
                None => self.chunk,
                Some(_) => {
                    let tried = t.candidates;
                    let in_flight = p.next - first - tried;
                    let rate = (t.accepted.max(1) as f64) / (tried.max(1) as f64);
                    let need =
                        (job.count - t.accepted) as f64 / rate.min(1.0) * 1.25 - in_flight as f64;
                    if in_flight > 0 && need < 1.0 {
                        return None;
                    }
                    let least = (16 * self.threads as u64).min(self.chunk);
                    (need as u64).clamp(least, self.chunk)
                }
            };
            let start = p.next;
            p.next = (start + step).min(limit);
            return Some((p.algo, start, p.next));
        }
    }

    /// Open chunks into the free slots as far as the plan goes.
    fn open(&mut self) {
        while !self.free.is_empty() {
            let Some((algo, start, end)) = self.plan() else {
                return;
            };
            let mut buf = self.free.pop().unwrap_or_default();
            let len = (end - start) as usize;
            buf.rows.clear();
            buf.rows.resize(len, Row::default());
            buf.walls.clear();
            if self.job.keep_walls {
                buf.walls.resize(len * self.job.words_per_maze(), 0);
            }
            let seq = self.seq;
            self.seq += 1;
            *lock(&self.shared.slots[(seq % CHUNKS_IN_FLIGHT as u64) as usize].0) = Slot {
                seq,
                start,
                len,
                filled: 0,
                busy: Duration::ZERO,
                buf,
            };
            lock(&self.shared.plan).chunks.push_back(Claim {
                seq,
                algo,
                next: start,
                end,
            });
            self.shared.work.notify_all();
            self.queue.push_back(Planned {
                seq,
                algo,
                start,
                end,
            });
        }
    }

    /// Chunk `p`'s buffers and the workers' time on it once it is complete, or `None` when
    /// the run stops first.
    fn take(&mut self, p: Planned) -> Option<(Buffers, Duration)> {
        let t = self.timed.then(Instant::now);
        let (m, cv) = &self.shared.slots[(p.seq % CHUNKS_IN_FLIGHT as u64) as usize];
        let mut slot = lock(m);
        while slot.filled < slot.len
            && !self.shared.stopped()
            && !self.shared.panicked.load(Ordering::Relaxed)
        {
            slot = cv.wait(slot).unwrap_or_else(|e| e.into_inner());
        }
        if let Some(t) = t {
            self.idle += t.elapsed();
        }
        if slot.filled < slot.len {
            return None;
        }
        let slot = std::mem::take(&mut *slot);
        Some((slot.buf, slot.busy))
    }

    /// Drop the opened chunks (a filtered algorithm that is settled): their slots are freed and
    /// rows still being made for them are discarded.
    fn drop_opened(&mut self) {
        lock(&self.shared.plan).chunks.clear();
        while let Some(p) = self.queue.pop_back() {
            let slot = std::mem::take(&mut *lock(
                &self.shared.slots[(p.seq % CHUNKS_IN_FLIGHT as u64) as usize].0,
            ));
            self.free.push(slot.buf);
        }
    }

    /// Deliver every chunk in order, until the end, an error or a stop.
    fn deliver<E>(
        &mut self,
        on_chunk: &mut impl FnMut(&Chunk<'_>) -> Result<(), E>,
    ) -> Result<Vec<Tally>, E> {
        let job = self.job;
        let (first, limit) = (job.first_index, self.limit());
        let wpm = job.words_per_maze();
        let stopped = |me: &Self, algo: usize| Ok(me.tallies[..=algo].to_vec());
        loop {
            self.open();
            let Some(p) = self.queue.pop_front() else {
                return Ok(std::mem::take(&mut self.tallies));
            };
            let Some((mut buf, busy)) = self.take(p) else {
                return stopped(self, p.algo);
            };
            if self.shared.cancel.load(Ordering::Relaxed) {
                return stopped(self, p.algo);
            }
            let t = self.timed.then(Instant::now);
            let algo = &job.algos[p.algo];
            let algo_name = algo.name();
            let grid = job.graph.as_ref().map_or(Grid::Square, |g| g.size.grid);
            let mut tally = self.tallies[p.algo];
            let len = (p.end - p.start) as usize;
            let (rows, walls) = (&mut buf.rows, &mut buf.walls);
            // Keep the first passing candidates, in index order, up to the count.
            let mut kept = 0usize;
            let mut tried = len;
            for i in 0..len {
                if tally.accepted + kept as u64 == job.count {
                    tried = i;
                    break;
                }
                // A long filter takes tens of microseconds a row, seconds a chunk: look at the
                // flag every 64 rows so a signal is not kept waiting for the whole chunk.
                if job.accept.is_some() && i % 64 == 0 && self.shared.cancel.load(Ordering::Relaxed)
                {
                    return stopped(self, p.algo);
                }
                let pass = job.accept.as_ref().is_none_or(|a| {
                    a.eval(&Candidate {
                        algo: &algo_name,
                        grid,
                        size: job.size,
                        seed: job.seed,
                        row: &rows[i],
                    })
                });
                if pass {
                    if kept != i {
                        rows[kept] = rows[i];
                        if job.keep_walls {
                            walls.copy_within(i * wpm..(i + 1) * wpm, kept * wpm);
                        }
                    }
                    kept += 1;
                }
            }
            tally.candidates = p.start - first + tried as u64;
            tally.accepted += kept as u64;
            let settled = tally.accepted >= job.count || p.end >= limit;
            self.tallies[p.algo] = tally;
            let done = Chunk {
                algo,
                rows: &rows[..kept],
                walls: if job.keep_walls {
                    &walls[..kept * wpm]
                } else {
                    &[]
                },
                words_per_maze: wpm,
                candidates: tally.candidates,
                busy,
            };
            let handed = on_chunk(&done);
            self.free.push(buf);
            if let Some(t) = t {
                self.busy += t.elapsed();
            }
            handed?;
            if settled && job.accept.is_some() {
                self.drop_opened();
            }
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::topo::{Grid, GridSize};

    fn collect(job: &Job, threads: usize) -> Vec<(String, Row)> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut out = Vec::new();
        run::<()>(job, &pool, |c| {
            out.extend(c.rows.iter().map(|r| {
                let mut r = *r;
                r.gen_ns = 0;
                (c.algo.name(), r)
            }));
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn a_stop_flag_set_by_the_caller_ends_the_run_after_the_current_chunk() {
        let job = Job::new(
            vec![Algorithm::Wilson, Algorithm::Kruskal],
            8,
            8,
            100_000,
            1,
        );
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let stop = AtomicBool::new(false);
        let mut chunks = 0;
        let tallies = run_cancellable::<()>(&job, &pool, &stop, |c| {
            chunks += 1;
            assert_eq!(c.algo, &Algorithm::Wilson);
            stop.store(true, Ordering::Relaxed);
            Ok(())
        })
        .unwrap();
        assert_eq!(chunks, 1);
        let chunk = chunk_len(64, 2);
        assert_eq!(
            tallies,
            vec![Tally {
                candidates: chunk,
                accepted: chunk
            }]
        );
    }

    /// The worker loop makes and measures mazes two at a time (on the square grid Aldous–Broder,
    /// Prim, the backtracker and hunt-and-kill generated together, the others one after the
    /// other, all measured together; on the other grids the backtracker, hunt-and-kill,
    /// Kruskal, Prim and the triangle grid's Aldous–Broder and Wilson generated together): every
    /// row and wall word is the one [`Worker::row`] makes alone, on odd counts (a block ending
    /// in a single maze), with a mask and braided, whatever the threads.
    #[test]
    fn paired_mazes_are_the_mazes_made_one_by_one() {
        let mask = Arc::new(Mask::from_text("....#\n.#...\n...#.\n.....\n").unwrap());
        let mut jobs = Vec::new();
        let algos = [
            Algorithm::AldousBroder,
            Algorithm::Prim,
            Algorithm::Backtracker,
            Algorithm::HuntAndKill,
            Algorithm::Wilson,
            Algorithm::Kruskal,
        ];
        for (count, algo) in [1, 2, 7, 301]
            .into_iter()
            .flat_map(|c| algos.map(|a| (c, a)))
        {
            // Wilson and Kruskal are generated one maze at a time and measured in pairs.
            assert_eq!(
                algo.pairs_faster(Size::planar(6, 5)),
                !matches!(algo, Algorithm::Wilson | Algorithm::Kruskal)
            );
            let mut job = Job::new(vec![algo], 6, 5, count, 9);
            job.keep_walls = true;
            jobs.push(job.clone());
            job.mask = Some(mask.clone());
            job.size = mask.size();
            job.ends = Ends::first_last(job.size);
            job.braid = Chance::new(0.5);
            jobs.push(job);
        }
        // On the other grids: the backtracker and hunt-and-kill generated together (a full hex
        // grid by its padded layout, a masked one by the cell masks, a polar grid with a
        // centre of 12 neighbours one after the other), Kruskal, Prim (but on that polar grid,
        // which has no 16-bit slot records), and Aldous–Broder and Wilson on the triangle grid;
        // the others one by one.
        let ring: Vec<bool> = (0..48).map(|c| c % 8 != 3 || c / 8 == 5).collect();
        let graphs = [
            CellGraph::new(GridSize::new(Grid::Hex, 7, 5)),
            CellGraph::masked(GridSize::new(Grid::Hex, 8, 6), 8, 6, &ring).unwrap(),
            CellGraph::new(GridSize::new(Grid::Triangle, 7, 4)),
            CellGraph::new(GridSize::new(Grid::Polar, 4, 6)),
            CellGraph::new(GridSize::new(Grid::Polar, 3, 12)),
        ];
        for g in graphs {
            for (count, algo) in [1, 2, 301].into_iter().flat_map(|c| algos.map(|a| (c, a))) {
                let together = match algo {
                    Algorithm::Backtracker | Algorithm::HuntAndKill | Algorithm::Kruskal => true,
                    Algorithm::Prim => g.max_degree() <= 8,
                    Algorithm::AldousBroder | Algorithm::Wilson => g.size().grid == Grid::Triangle,
                    _ => false,
                };
                assert_eq!(tgen::pairs_faster(&algo, &g), together);
                let mut job = Job::new(vec![algo], g.size().a, g.size().b, count, 9);
                job.keep_walls = true;
                job.graph = Some(GraphJob {
                    size: g.size(),
                    ends: GraphEnds::corners(&g),
                    graph: Arc::new(g.clone()),
                    mask_hash: 0,
                });
                jobs.push(job.clone());
                job.braid = Chance::new(0.5);
                jobs.push(job);
            }
        }
        for job in &jobs {
            let algo = &job.algos[0];
            let mut one = Worker::for_job(job);
            let base = job.seed_base(algo);
            for threads in [1, 2, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let mut index = 0;
                run::<()>(job, &pool, |c| {
                    for (k, r) in c.rows.iter().enumerate() {
                        let mut want = one.row(algo, base, index, job.ends, job.braid);
                        want.gen_ns = r.gen_ns;
                        assert_eq!(*r, want);
                        let wpm = c.words_per_maze;
                        assert_eq!(&c.walls[k * wpm..(k + 1) * wpm], one.words());
                        index += 1;
                    }
                    Ok(())
                })
                .unwrap();
                assert_eq!(index, job.count);
            }
        }
    }

    #[test]
    fn rows_do_not_depend_on_threads() {
        let job = Job::new(Algorithm::all(), 9, 7, 300, 5);
        let one = collect(&job, 1);
        assert_eq!(one.len(), 300 * job.algos.len());
        assert_eq!(one, collect(&job, 3));
        assert!(one
            .iter()
            .enumerate()
            .all(|(k, (_, r))| r.index == k as u64 % 300));
    }

    /// Each chunk carries the workers' time on its own candidates: some time, and all of it
    /// together no more than the workers had.
    #[test]
    fn each_chunk_carries_its_workers_time() {
        let job = Job::new(Algorithm::all(), 16, 16, 500, 3);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let began = Instant::now();
        let (mut busy, mut chunks) = (Duration::ZERO, 0);
        run::<()>(&job, &pool, |c| {
            assert!(c.busy > Duration::ZERO, "{}", c.algo.name());
            busy += c.busy;
            chunks += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(chunks, job.algos.len());
        assert!(busy <= began.elapsed() * 2, "{busy:?}");
    }
}

#[cfg(test)]
mod accept_tests {
    use super::*;

    #[test]
    fn filtered_runs_keep_candidate_indices_and_walls() {
        let mut job = Job::new(
            vec![Algorithm::Kruskal, Algorithm::Backtracker],
            6,
            6,
            50,
            3,
        );
        job.accept = Some(Accept::parse("dead_ends >= 9").unwrap());
        job.max_candidates = 1_000_000;
        job.keep_walls = true;
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut seen = Vec::new();
            let tallies = run::<()>(&job, &pool, |c| {
                for (k, r) in c.rows.iter().enumerate() {
                    assert!(r.metrics.dead_ends >= 9);
                    let words = &c.walls[k * c.words_per_maze..(k + 1) * c.words_per_maze];
                    let m = generate::regenerated(c.algo, Size::planar(6, 6), 3, r.index);
                    assert_eq!(m.words(), words);
                    seen.push((c.algo.name(), r.index));
                }
                Ok(())
            })
            .unwrap();
            assert_eq!(seen.len(), 100);
            assert!(tallies.iter().all(|t| t.accepted == 50));
            // The last accepted index is the last candidate tried.
            assert_eq!(tallies[0].candidates, seen[49].1 + 1);
        }
    }

    #[test]
    fn impossible_filters_stop_at_the_limit() {
        let mut job = Job::new(vec![Algorithm::Wilson], 4, 4, 10, 1);
        job.accept = Some(Accept::parse("dead_ends > 100").unwrap());
        job.max_candidates = 5000;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let t = run::<()>(&job, &pool, |c| {
            assert!(c.rows.is_empty());
            Ok(())
        })
        .unwrap();
        assert_eq!(
            t,
            vec![Tally {
                candidates: 5000,
                accepted: 0
            }]
        );
    }
}
