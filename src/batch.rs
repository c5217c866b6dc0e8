//! The batch pipeline: many mazes of one size, generated and measured in parallel, delivered in
//! index order, chunk by chunk.
//!
//! Work is split into fixed chunks of consecutive indices. Each chunk is filled by the rayon pool
//! (an indexed parallel iterator collected into a reused vector, so order is kept) and handed to
//! the caller before the next chunk starts; memory is bounded by one chunk whatever `count` is.
//! Each pool thread owns one [`Worker`] (maze, scratch buffers, RNG) for the whole run, so nothing
//! is allocated per maze. A maze depends only on (algo, size, seed, index): thread count and
//! chunk size cannot change a row.

use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use crate::generate::{self, Algorithm};
use crate::grid::Maze;
use crate::metrics::{self, Ends, Metrics};
use crate::rng::{self, Rng};

/// One measured maze: the identifiers that regenerate it, its metrics and its generation time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Row {
    /// Maze number within (algo, size, seed).
    pub index: u64,
    /// The derived per-maze seed.
    pub maze_seed: u64,
    /// Time spent in the generator, nanoseconds.
    pub gen_ns: u64,
    /// The measurements.
    pub metrics: Metrics,
}

/// Everything one worker thread reuses from maze to maze.
#[derive(Debug)]
pub struct Worker {
    maze: Maze,
    gen: generate::Scratch,
    measure: metrics::Scratch,
    rng: Rng,
}

impl Worker {
    /// A worker for `width × height` mazes.
    pub fn new(width: u32, height: u32) -> Worker {
        Worker {
            maze: Maze::new(width, height),
            gen: generate::Scratch::new(),
            measure: metrics::Scratch::new(),
            rng: Rng::from_maze_seed(0),
        }
    }

    /// Generate maze `maze_seed` with `algo` into this worker's maze (and return it).
    #[inline]
    pub fn generate(&mut self, algo: &Algorithm, maze_seed: u64) -> &Maze {
        self.rng.reseed(maze_seed);
        algo.generate(&mut self.maze, &mut self.gen, &mut self.rng);
        &self.maze
    }

    /// Generate and measure one maze, timing the generator.
    #[inline]
    pub fn row(&mut self, algo: &Algorithm, seed_base: u64, index: u64, ends: Ends) -> Row {
        let maze_seed = rng::maze_seed_from_base(seed_base, index);
        let t = Instant::now();
        self.generate(algo, maze_seed);
        let gen_ns = t.elapsed().as_nanos() as u64;
        let metrics = metrics::measure(&self.maze, ends, &mut self.measure);
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
    /// Grid width.
    pub width: u32,
    /// Grid height.
    pub height: u32,
    /// Mazes per algorithm.
    pub count: u64,
    /// Master seed.
    pub seed: u64,
    /// Entrance and exit for `solution_length` / `solution_turns`.
    pub ends: Ends,
}

/// Mazes per chunk for a grid of `cells` cells: about 16M cells of work per chunk (tens of
/// milliseconds at 64×64), at least 4 mazes per thread, at most 65,536 rows.
pub fn chunk_len(cells: u64, threads: usize) -> u64 {
    ((1u64 << 24) / cells.max(1)).clamp(4 * threads as u64, 65_536)
}

/// Run `job` on `pool`, calling `on_chunk(algo, rows)` for each chunk in order (indices
/// ascending within an algorithm, algorithms in job order). Stops at the first error from
/// `on_chunk` and returns it.
pub fn run<E>(
    job: &Job,
    pool: &rayon::ThreadPool,
    mut on_chunk: impl FnMut(&Algorithm, &[Row]) -> Result<(), E>,
) -> Result<(), E> {
    let threads = pool.current_num_threads();
    let workers: Vec<Mutex<Worker>> = (0..threads)
        .map(|_| Mutex::new(Worker::new(job.width, job.height)))
        .collect();
    let chunk = chunk_len(job.width as u64 * job.height as u64, threads);
    let mut rows: Vec<Row> = Vec::with_capacity(chunk.min(job.count) as usize);
    for algo in &job.algos {
        let base = rng::maze_seed_base(job.seed, &algo.name(), job.width, job.height);
        let mut start = 0u64;
        while start < job.count {
            let end = (start + chunk).min(job.count);
            pool.install(|| {
                (0..(end - start) as usize)
                    .into_par_iter()
                    .with_min_len(16)
                    .map(|i| {
                        let t = rayon::current_thread_index().unwrap_or(0);
                        // Each pool thread only ever locks its own worker: never contended.
                        let mut w = workers[t].lock().unwrap_or_else(|e| e.into_inner());
                        w.row(algo, base, start + i as u64, job.ends)
                    })
                    .collect_into_vec(&mut rows)
            });
            on_chunk(algo, &rows)?;
            start = end;
        }
    }
    Ok(())
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
        run::<()>(job, &pool, |a, rows| {
            out.extend(rows.iter().map(|r| {
                let mut r = *r;
                r.gen_ns = 0;
                (a.name(), r)
            }));
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn rows_do_not_depend_on_threads() {
        let job = Job {
            algos: Algorithm::all(),
            width: 9,
            height: 7,
            count: 300,
            seed: 5,
            ends: Ends::corners(9, 7),
        };
        let one = collect(&job, 1);
        assert_eq!(one.len(), 300 * job.algos.len());
        assert_eq!(one, collect(&job, 3));
        assert!(one
            .iter()
            .enumerate()
            .all(|(k, (_, r))| r.index == k as u64 % 300));
    }
}
