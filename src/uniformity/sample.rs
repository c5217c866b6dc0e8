//! Sampling: N mazes per generator through the same generator code and seeding as the batch
//! ([`crate::generate::regenerate`]), counted per
//! tree (keyed by the wall words) and per open wall, in parallel chunks (rayon). Against the
//! uniform distribution over τ trees it reports Pearson's chi-square with τ − 1 degrees of
//! freedom and its p-value, the total-variation distance of the empirical distribution, and the
//! trees never seen.

use super::stats::{chi_square_p_value, chi_square_uniform};
use super::{interior_walls, TreeKey};
use crate::generate::{regenerate_from_base, seed_base_masked, Algorithm, Scratch};
use crate::grid::{Mask, Maze, Size};
use crate::topo::generate::{self as tgen, GraphScratch};
use crate::topo::{CellGraph, GraphMaze};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

/// Mazes per parallel chunk.
const CHUNK: u64 = 1 << 15;

/// Counts from sampling one generator.
#[derive(Clone, Debug)]
pub struct SampleCounts {
    /// Number of mazes drawn (indices `0..samples`).
    pub samples: u64,
    /// Master seed.
    pub seed: u64,
    /// Per tree seen, sorted by wall words, its count; `None` when trees were not tracked.
    pub trees: Option<Vec<(TreeKey, u64)>>,
    /// Per interior wall (in [`interior_walls`] order), how many mazes had it open.
    pub wall_open: Vec<u64>,
    /// Mazes that were not perfect (wrong passage count): must be 0.
    pub imperfect: u64,
    /// Wall-clock seconds spent.
    pub seconds: f64,
}

/// Per-worker counts: trees (optional), open walls by wall id, imperfect mazes.
struct Tally {
    trees: HashMap<TreeKey, u64>,
    by_wall: Vec<u64>,
    bad: u64,
    need: u64,
    track: bool,
}

impl Tally {
    fn new(size: Size, cells: u64, track: bool) -> Tally {
        Tally::with_walls(size.wall_id_bound() as usize, cells, track)
    }

    fn with_walls(walls: usize, cells: u64, track: bool) -> Tally {
        Tally {
            trees: HashMap::new(),
            by_wall: vec![0; walls],
            bad: 0,
            need: cells - 1,
            track,
        }
    }

    /// Count one maze: visit only its open walls (set bits), so the cost is one increment per
    /// passage rather than one test per wall.
    #[inline]
    fn add(&mut self, maze: &Maze) {
        let mut open = 0u64;
        for id in maze.open_wall_ids() {
            self.by_wall[id as usize] += 1;
            open += 1;
        }
        if open != self.need {
            self.bad += 1;
        }
        if self.track {
            let words = maze.words();
            if let Some(n) = self.trees.get_mut(words) {
                *n += 1;
            } else {
                self.trees.insert(words.into(), 1);
            }
        }
    }

    /// Count one maze given by its open-wall words, bit `i` counting for wall id `i`.
    #[inline]
    fn add_words(&mut self, words: &[u64]) {
        let mut open = 0u64;
        for (k, &w) in words.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                self.by_wall[k * 64 + w.trailing_zeros() as usize] += 1;
                w &= w - 1;
                open += 1;
            }
        }
        if open != self.need {
            self.bad += 1;
        }
        if self.track {
            if let Some(n) = self.trees.get_mut(words) {
                *n += 1;
            } else {
                self.trees.insert(words.into(), 1);
            }
        }
    }

    /// The finished counts of `samples` mazes with master `seed`, begun at `start`, with the
    /// per-wall counts `wall_open` (in the report's wall order).
    fn counts(self, samples: u64, seed: u64, wall_open: Vec<u64>, start: Instant) -> SampleCounts {
        let trees = self.track.then(|| {
            let mut v: Vec<(TreeKey, u64)> = self.trees.into_iter().collect();
            v.sort_by(|a, b| a.0.cmp(&b.0));
            v
        });
        SampleCounts {
            samples,
            seed,
            trees,
            wall_open,
            imperfect: self.bad,
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    fn merge(&mut self, other: Tally) {
        for (k, n) in other.trees {
            *self.trees.entry(k).or_insert(0) += n;
        }
        for (x, y) in self.by_wall.iter_mut().zip(other.by_wall) {
            *x += y;
        }
        self.bad += other.bad;
    }
}

/// Draw `samples` mazes of `algo` at `size` (2D or 3D) with master `seed`, exactly as the batch
/// would (maze `i` is the batch's maze `i`). Per-tree counts are kept when `track_trees`.
pub fn sample(
    algo: &Algorithm,
    size: Size,
    samples: u64,
    seed: u64,
    track_trees: bool,
) -> SampleCounts {
    sample_on(algo, size, None, samples, seed, track_trees)
}

/// [`sample`] on the cells of `mask` when there is one (its size is `size`): the mazes the
/// batch makes with `--mask`. The per-wall counts cover the walls between two mask cells
/// ([`super::kirchhoff::mask_walls`] order), the edges of the masked graph.
pub fn sample_on(
    algo: &Algorithm,
    size: Size,
    mask: Option<&Arc<Mask>>,
    samples: u64,
    seed: u64,
    track_trees: bool,
) -> SampleCounts {
    let t = Instant::now();
    let walls = mask.map_or_else(|| interior_walls(size), |m| super::kirchhoff::mask_walls(m));
    let base = seed_base_masked(algo, size, mask.map(|m| &**m), seed);
    let cells = mask.map_or(size.cells_u64(), |m| m.cells() as u64);
    let chunks = samples.div_ceil(CHUNK);
    let parts: Vec<Tally> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut maze = Maze::with_size(size);
            maze.set_mask(mask.cloned());
            let mut scratch = Scratch::new();
            let mut tally = Tally::new(size, cells, track_trees);
            for i in c * CHUNK..((c + 1) * CHUNK).min(samples) {
                regenerate_from_base(algo, &mut maze, &mut scratch, base, i);
                tally.add(&maze);
            }
            tally
        })
        .collect();
    let mut total = Tally::new(size, cells, track_trees);
    for p in parts {
        total.merge(p);
    }
    let wall_open = walls.iter().map(|w| total.by_wall[w.id as usize]).collect();
    total.counts(samples, seed, wall_open, t)
}

/// [`sample`] on the cell graph `g` of a hex, triangle or polar grid (whole or masked): maze
/// `i` is maze `i` of the grid's main job with master `seed` ([`crate::topo::maze_seed`]). The
/// per-wall counts are per edge of `g`, in edge order; trees are keyed by the edge words.
pub fn sample_graph(
    algo: &Algorithm,
    g: &CellGraph,
    samples: u64,
    seed: u64,
    track_trees: bool,
) -> SampleCounts {
    let t = Instant::now();
    let base = crate::topo::seed_base(seed, &algo.name(), g.size());
    let (edges, cells) = (g.edges() as usize, g.cells() as u64);
    let chunks = samples.div_ceil(CHUNK);
    let parts: Vec<Tally> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut maze = GraphMaze::new(g);
            let mut scratch = GraphScratch::new();
            let mut tally = Tally::with_walls(edges.next_multiple_of(64), cells, track_trees);
            for i in c * CHUNK..((c + 1) * CHUNK).min(samples) {
                let mut rng = crate::Rng::from_maze_seed(crate::rng::maze_seed_from_base(base, i));
                tgen::generate(algo, g, &mut maze, &mut scratch, &mut rng);
                tally.add_words(maze.words());
            }
            tally
        })
        .collect();
    let mut total = Tally::with_walls(edges.next_multiple_of(64), cells, track_trees);
    for p in parts {
        total.merge(p);
    }
    let wall_open = total.by_wall[..edges].to_vec();
    total.counts(samples, seed, wall_open, t)
}

/// Measured single-thread seconds per sampled maze of `algo` at this size (generation plus
/// counting, a short timing run) on the cells of `mask` when there is one, for planning.
pub(crate) fn seconds_per_maze(
    algo: &Algorithm,
    size: Size,
    mask: Option<&Arc<Mask>>,
    track_trees: bool,
) -> f64 {
    let cells = mask.map_or(size.cells_u64(), |m| m.cells() as u64).max(1);
    let runs = (2_000_000 / cells).clamp(5, 4000);
    let mut maze = Maze::with_size(size);
    maze.set_mask(mask.cloned());
    let mut scratch = Scratch::new();
    let mut tally = Tally::new(size, cells, track_trees);
    let base = seed_base_masked(algo, size, mask.map(|m| &**m), 0xca1b);
    let t = Instant::now();
    for i in 0..runs {
        regenerate_from_base(algo, &mut maze, &mut scratch, base, i);
        tally.add(&maze);
    }
    t.elapsed().as_secs_f64() / runs as f64
}

/// [`seconds_per_maze`] on the cell graph `g` of a hex, triangle or polar grid: mazes made and
/// tallied as [`sample_graph`] makes and tallies them.
pub(crate) fn seconds_per_maze_graph(algo: &Algorithm, g: &CellGraph, track_trees: bool) -> f64 {
    let (edges, cells) = (g.edges() as usize, u64::from(g.cells()).max(1));
    let runs = (2_000_000 / cells).clamp(5, 4000);
    let mut maze = GraphMaze::new(g);
    let mut scratch = GraphScratch::new();
    let mut tally = Tally::with_walls(edges.next_multiple_of(64), cells, track_trees);
    let base = crate::topo::seed_base(0xca1b, &algo.name(), g.size());
    let t = Instant::now();
    for i in 0..runs {
        let mut rng = crate::Rng::from_maze_seed(crate::rng::maze_seed_from_base(base, i));
        tgen::generate(algo, g, &mut maze, &mut scratch, &mut rng);
        tally.add_words(maze.words());
    }
    t.elapsed().as_secs_f64() / runs as f64
}

/// Chi-square test of sampled tree counts against uniform over `tau` trees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChiSquare {
    /// Pearson's statistic.
    pub statistic: f64,
    /// Degrees of freedom, τ − 1.
    pub df: f64,
    /// Upper-tail p-value.
    pub p_value: f64,
    /// Total-variation distance between the empirical distribution and uniform (includes
    /// sampling noise: about `½·sqrt(2τ/(πN))` for a uniform generator).
    pub(crate) tv: f64,
    /// Spanning trees never seen.
    pub unseen: u64,
}

/// The chi-square test of per-tree `counts` (trees seen) against uniform over `tau` trees.
pub fn chi_square(counts: &[u64], tau: u64) -> ChiSquare {
    let v: Vec<u64> = counts.to_vec();
    let total: u64 = v.iter().sum();
    let statistic = chi_square_uniform(&v, tau);
    let df = (tau - 1) as f64;
    let u = 1.0 / tau as f64;
    let unseen = tau.saturating_sub(v.len() as u64);
    let tv = 0.5
        * (v.iter()
            .map(|&c| (c as f64 / total as f64 - u).abs())
            .sum::<f64>()
            + unseen as f64 * u);
    ChiSquare {
        statistic,
        df,
        p_value: chi_square_p_value(statistic, df),
        tv,
        unseen,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_is_reproducible_and_perfect() {
        let a = sample(&Algorithm::Kruskal, Size::planar(3, 2), 10_000, 7, true);
        let b = sample(&Algorithm::Kruskal, Size::planar(3, 2), 10_000, 7, true);
        assert_eq!(a.trees, b.trees);
        assert_eq!(a.imperfect, 0);
        assert_eq!(a.trees.as_ref().unwrap().len(), 15);
        let total: u64 = a.trees.unwrap().iter().map(|t| t.1).sum();
        assert_eq!(total, 10_000);
        // Every maze has W·H − 1 = 5 open walls.
        assert_eq!(a.wall_open.iter().sum::<u64>(), 50_000);
    }

    #[test]
    fn same_maze_as_the_batch_seeding() {
        // Maze 5 of the sample is the maze the batch makes for index 5.
        let s = sample(&Algorithm::Backtracker, Size::planar(2, 2), 6, 42, true);
        let mut maze = Maze::new(2, 2);
        let mut scratch = Scratch::new();
        let mut seen = std::collections::HashSet::new();
        for i in 0..6 {
            let seed = crate::rng::maze_seed(42, "backtracker", 2, 2, i);
            Algorithm::Backtracker.generate(
                &mut maze,
                &mut scratch,
                &mut crate::Rng::from_maze_seed(seed),
            );
            seen.insert(maze.words().to_vec());
        }
        let keys: std::collections::HashSet<Vec<u64>> =
            s.trees.unwrap().iter().map(|t| t.0.to_vec()).collect();
        assert_eq!(keys, seen);
    }
}
