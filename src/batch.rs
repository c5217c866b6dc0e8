//! The batch pipeline: many mazes of one size, generated and measured in parallel, delivered in
//! index order, chunk by chunk.
//!
//! Work is split into fixed chunks of consecutive indices. Each chunk is filled by the rayon pool
//! (an indexed parallel iterator collected into a reused vector, so order is kept) and handed to
//! the caller on the calling thread while the pool fills the next one, so the workers do not
//! wait for the caller (a Parquet writer, say); memory is bounded by two chunks whatever
//! `count` is.
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

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use crate::accept::{Accept, Candidate};
use crate::braid;
use crate::generate::{self, Algorithm};
use std::sync::Arc;

use crate::grid::{Mask, Maze, Size};
pub use crate::metrics::Row;
use crate::metrics::{self, Ends};
use crate::rng::Chance;
use crate::topo::generate::{self as tgen, GraphScratch};
use crate::topo::{self, CellGraph, GraphEnds, GraphMaze, GridSize, MeasureScratch};

/// Everything one worker thread reuses from maze to maze.
#[derive(Debug)]
pub struct Worker {
    maze: Maze,
    gen: generate::Scratch,
    braid: braid::Scratch,
    measure: metrics::Scratch,
    /// On a grid other than the square one: its maze and buffers (then `maze` is unused).
    graph: Option<Box<GraphWorker>>,
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
    measure: MeasureScratch,
}

impl GraphWorker {
    /// Generate and measure maze `index` (seeds: [`crate::topo::seed_base`]).
    fn row(&mut self, algo: &Algorithm, seed_base: u64, index: u64) -> Row {
        let g = &*self.job.graph;
        let maze_seed = crate::rng::maze_seed_from_base(seed_base, index);
        let mut rng = crate::Rng::from_maze_seed(maze_seed);
        let t = Instant::now();
        tgen::generate(algo, g, &mut self.maze, &mut self.gen, &mut rng);
        let gen_ns = t.elapsed().as_nanos() as u64;
        let metrics = topo::measure(
            g,
            &self.maze,
            self.job.ends,
            self.job.mask_hash,
            &mut self.measure,
        );
        Row {
            index,
            maze_seed,
            gen_ns,
            metrics,
        }
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
            Some(g) => {
                let mut w = Worker::sized(Size::planar(1, 1));
                w.graph = Some(Box::new(GraphWorker {
                    maze: GraphMaze::new(&g.graph),
                    job: g.clone(),
                    gen: GraphScratch::new(),
                    measure: MeasureScratch::new(),
                }));
                w
            }
        }
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
            return g.row(algo, seed_base, index);
        }
        let t = Instant::now();
        let maze_seed =
            generate::regenerate_from_base(algo, &mut self.maze, &mut self.gen, seed_base, index);
        braid::braid_seeded(&mut self.maze, braid, maze_seed, &mut self.braid);
        let gen_ns = t.elapsed().as_nanos() as u64;
        let mut metrics = metrics::measure(&self.maze, ends, &mut self.measure);
        metrics.braid = braid.p();
        Row {
            index,
            maze_seed,
            gen_ns,
            metrics,
        }
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
    /// `W×H` as written, `R×C` for polar, and `ends`, `mask` and `braid` are not used).
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
            Some(g) => (g.graph.edges() as usize).div_ceil(64),
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
    mut on_chunk: impl FnMut(&Chunk<'_>) -> Result<(), E>,
) -> Result<Vec<Tally>, E> {
    let threads = pool.current_num_threads();
    let workers: Vec<Mutex<Worker>> = (0..threads)
        .map(|_| Mutex::new(Worker::for_job(job)))
        .collect();
    let chunk = chunk_len(job.cells(), threads);
    let wpm = job.words_per_maze();
    let first = job.first_index;
    let limit = first.saturating_add(match job.accept {
        Some(_) => job.max_candidates,
        None => job.count,
    });
    // Two chunks in flight at most: the one handed to `on_chunk` (on this thread) and the one
    // the pool fills meanwhile, so the workers do not wait while the caller writes.
    let mut cur = Buffers::default();
    let mut nxt = Buffers::default();
    let mut tallies = Vec::with_capacity(job.algos.len());
    for algo in &job.algos {
        let algo_name = algo.name();
        let base = job.seed_base(algo);
        // Fill `buf` with the rows (and walls) of candidates `start..end`.
        let fill = |buf: &mut Buffers, start: u64, end: u64| {
            let len = (end - start) as usize;
            let (rows, walls) = (&mut buf.rows, &mut buf.walls);
            rows.clear();
            rows.resize(len, Row::default());
            walls.clear();
            if job.keep_walls {
                walls.resize(len * wpm, 0);
            }
            let make = |i: usize, row: &mut Row, words: Option<&mut [u64]>| {
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                let t = rayon::current_thread_index().unwrap_or(0);
                // Each pool thread only ever locks its own worker: never contended.
                let mut w = workers[t].lock().unwrap_or_else(|e| e.into_inner());
                *row = w.row(algo, base, start + i as u64, job.ends, job.braid);
                if let Some(words) = words {
                    words.copy_from_slice(w.words());
                }
            };
            pool.install(|| {
                if job.keep_walls {
                    rows.par_iter_mut()
                        .zip(walls.par_chunks_mut(wpm))
                        .enumerate()
                        .with_min_len(16)
                        .for_each(|(i, (r, wd))| make(i, r, Some(wd)));
                } else {
                    rows.par_iter_mut()
                        .enumerate()
                        .with_min_len(16)
                        .for_each(|(i, r)| make(i, r, None));
                }
            });
        };
        // The candidates of the chunk after `start`, from the tally so far, if any are needed.
        let next_range = |tally: &Tally, start: u64| -> Option<(u64, u64)> {
            if tally.accepted >= job.count || start >= limit {
                return None;
            }
            // With a filter, size the chunk to the candidates still likely needed (from the
            // acceptance rate so far) so little work is thrown away past the last acceptance.
            let step = match job.accept {
                None => chunk,
                Some(_) => {
                    let rate = (tally.accepted.max(1) as f64) / ((start - first).max(1) as f64);
                    let need = (job.count - tally.accepted) as f64 / rate.min(1.0);
                    ((need * 1.25) as u64).clamp(16 * threads as u64, chunk)
                }
            };
            Some((start, (start + step).min(limit)))
        };
        let mut tally = Tally::default();
        let Some((mut start, mut end)) = next_range(&tally, first) else {
            tallies.push(tally);
            continue;
        };
        fill(&mut cur, start, end);
        loop {
            if cancel.load(Ordering::Relaxed) {
                tallies.push(tally);
                return Ok(tallies);
            }
            let len = (end - start) as usize;
            let (rows, walls) = (&mut cur.rows, &mut cur.walls);
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
                if job.accept.is_some() && i % 64 == 0 && cancel.load(Ordering::Relaxed) {
                    tallies.push(tally);
                    return Ok(tallies);
                }
                let pass = job.accept.as_ref().is_none_or(|a| {
                    a.eval(&Candidate {
                        algo: &algo_name,
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
            tally.candidates = start - first + tried as u64;
            tally.accepted += kept as u64;
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
            };
            let Some(next) = next_range(&tally, end) else {
                on_chunk(&done)?;
                break;
            };
            // The pool fills the next chunk while this thread hands this one over.
            let handed = std::thread::scope(|scope| {
                let filling = scope.spawn(|| fill(&mut nxt, next.0, next.1));
                let handed = on_chunk(&done);
                if let Err(panic) = filling.join() {
                    std::panic::resume_unwind(panic);
                }
                handed
            });
            handed?;
            std::mem::swap(&mut cur, &mut nxt);
            (start, end) = next;
        }
        tallies.push(tally);
    }
    Ok(tallies)
}

/// The rows of one chunk and, with [`Job::keep_walls`], their wall words.
#[derive(Default)]
struct Buffers {
    rows: Vec<Row>,
    walls: Vec<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

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
