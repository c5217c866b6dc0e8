//! Exact distributions: drive the real generator code over every branch of its random choices.
//!
//! [`EnumSource`] is a [`RandomSource`] that replays a recorded prefix of choices and, at the
//! first draw past the prefix, takes outcome 0 and records the draw's arity (`below(n)`: `n`
//! outcomes, `bits(k)`: `2^k`), each outcome having exact probability `1/arity`. A depth-first
//! walk over this choice tree — re-running the generator once per leaf, advancing the deepest
//! choice that still has untried outcomes — visits every possible run exactly once; a leaf's
//! probability is `1 / ∏ arities` along its path. Summing per produced maze gives its exact
//! rational probability, computed from the very code the batch uses. The same walk runs on the
//! square grids (through [`Algorithm::generate`]) and on the cell graphs of the hex, triangle
//! and polar grids (through [`crate::topo::generate::generate`]).
//!
//! A generator whose choice tree is infinite (Wilson and Aldous–Broder: a random walk or a
//! rejection loop can last arbitrarily long) hits the depth cap; one that calls
//! [`RandomSource::unit_f64`] cannot be branched on. Both are reported as not enumerable, with
//! the reason: the source raises a flag and falls back to a real [`Rng`] so the generator
//! finishes normally (no panic), and the run is discarded.
//!
//! Before enumerating, [`estimate`] predicts the number of leaves with Knuth's estimator (the
//! mean of `∏ arities` over random root-to-leaf paths is exactly the leaf count in expectation),
//! so huge enumerations are refused up front with a time estimate.

use super::TreeKey;
use crate::generate::{Algorithm, Scratch};
use crate::grid::{Mask, Maze, Size};
use crate::rng::{RandomSource, Rng};
use crate::topo::generate::{self as tgen, GraphScratch};
use crate::topo::{CellGraph, GraphMaze};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Instant;

/// Why a generator's exact distribution cannot be computed by enumeration.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NotEnumerable {
    /// The generator draws a floating-point number, which has no finite set of outcomes.
    #[error("draws a floating-point number (unit_f64): no finite set of outcomes to branch on")]
    UsesFloat,
    /// A run went past the depth cap: the choice tree is infinite (random walks, rejection loops).
    #[error("a run needed more than {cap} draws: the tree of random choices is unbounded (random walk / rejection loop), so it cannot be walked exhaustively")]
    Unbounded {
        /// The cap that was exceeded.
        cap: usize,
    },
    /// The tree is finite but too large for the time budget.
    #[error("{}, estimated {} on this machine (over the {} budget; --force runs it)", branches(*.leaves), super::human_duration(*.seconds), super::human_duration(*.budget))]
    TooLarge {
        /// Estimated number of leaves.
        leaves: f64,
        /// Estimated wall-clock seconds.
        seconds: f64,
        /// The budget in seconds.
        budget: f64,
    },
    /// Replaying the same draws did not reproduce the same requests: the generator depends on
    /// something besides its draws (e.g. stale scratch state), which is a generator bug.
    #[error("replaying draw {draw} asked for {got} outcomes where the recorded run had {recorded}: the generator is not a function of its draws")]
    Nondeterministic {
        /// Index of the draw.
        draw: usize,
        /// Arity recorded on the first run.
        recorded: u32,
        /// Arity asked for on the replay.
        got: u32,
    },
    /// A path's probability denominator does not fit in 128 bits: the run went so deep (a
    /// random walk with three or more choices per step reaches this before the depth cap) that
    /// the tree cannot be walked.
    #[error("a run of {draws} draws has a probability below 2^-128 (its denominator overflows 128 bits): the tree of random choices is too deep (random walk / rejection loop), so it cannot be walked exhaustively")]
    DenominatorOverflow {
        /// The draws of the run whose denominator overflowed.
        draws: usize,
    },
}

fn branches(leaves: f64) -> String {
    if leaves.is_finite() {
        format!("about {leaves:.3e} branches")
    } else {
        "more than 10^308 branches".into()
    }
}

/// A random source that enumerates every outcome of every draw (see the module docs).
#[derive(Debug)]
pub struct EnumSource {
    /// `(choice, arity)` of every draw made so far in this run, the replayed prefix first.
    path: Vec<(u32, u32)>,
    pos: usize,
    cap: usize,
    abort: Option<NotEnumerable>,
    fallback: Rng,
}

impl EnumSource {
    /// A source that replays `prefix` and then takes outcome 0 of every new draw, flagging an
    /// abort once a run makes more than `cap` draws.
    pub fn new(prefix: Vec<(u32, u32)>, cap: usize) -> EnumSource {
        EnumSource {
            path: prefix,
            pos: 0,
            cap,
            abort: None,
            fallback: Rng::from_maze_seed(0x5eed),
        }
    }

    fn draw(&mut self, arity: u32) -> u32 {
        if self.abort.is_some() {
            return self.fallback.below(arity);
        }
        if self.pos < self.path.len() {
            let (c, a) = self.path[self.pos];
            if a != arity {
                self.abort = Some(NotEnumerable::Nondeterministic {
                    draw: self.pos,
                    recorded: a,
                    got: arity,
                });
                return self.fallback.below(arity);
            }
            self.pos += 1;
            return c;
        }
        if self.path.len() >= self.cap {
            self.abort = Some(NotEnumerable::Unbounded { cap: self.cap });
            return self.fallback.below(arity);
        }
        self.path.push((0, arity));
        self.pos += 1;
        0
    }
}

/// [`RandomSource`] for a walker of the choice tree (a type with `draw(arity)`, `abort` and
/// `fallback`): every integer draw is a branch of `draw`; a floating-point draw cannot be
/// enumerated, so it aborts the walk ([`NotEnumerable::UsesFloat`]) and the fallback answers.
macro_rules! choice_source {
    ($t:ty) => {
        // SAFETY: `draw(arity)` returns a recorded choice below its arity (a path entry
        // `(c, a)` is replayed only when `a == arity`, and `c` counts up to `a - 1`) or the
        // fallback `Rng`'s draw below `arity`; `bits(k)` is `draw(1 << k)`.
        unsafe impl RandomSource for $t {
            fn below(&mut self, n: u32) -> u32 {
                self.draw(n)
            }
            fn bits(&mut self, k: u32) -> u32 {
                self.draw(1 << k)
            }
            fn unit_f64(&mut self) -> f64 {
                if self.abort.is_none() {
                    self.abort = Some(NotEnumerable::UsesFloat);
                }
                self.fallback.unit_f64()
            }
        }
    };
}

choice_source!(EnumSource);

/// The exact distribution of one generator over the trees it can produce.
#[derive(Clone, Debug)]
pub struct ExactDistribution {
    /// Every tree produced with non-zero probability, sorted by wall words, with its probability.
    pub trees: Vec<(TreeKey, BigRational)>,
    /// Leaves of the choice tree walked (generator runs).
    pub leaves: u64,
    /// The most draws any run made.
    pub max_depth: usize,
}

impl ExactDistribution {
    /// Sum of all probabilities (exactly 1 for a correct enumeration).
    pub fn total(&self) -> BigRational {
        self.trees
            .iter()
            .fold(BigRational::zero(), |acc, (_, p)| acc + p)
    }

    /// Exact total-variation distance from the uniform distribution over `tau` trees:
    /// `½ Σ |p(T) − 1/τ|`, trees never produced contributing `1/τ` each.
    pub fn tv_from_uniform(&self, tau: &BigInt) -> BigRational {
        let u = BigRational::new(BigInt::one(), tau.clone());
        let mut s = BigRational::zero();
        for (_, p) in &self.trees {
            let d = p - &u;
            s += if d < BigRational::zero() { -d } else { d };
        }
        let missing = tau - BigInt::from(self.trees.len());
        s += &u * BigRational::from_integer(missing);
        s / BigRational::from_integer(2.into())
    }

    /// Number of spanning trees never produced, out of `tau`.
    pub fn never_produced(&self, tau: &BigInt) -> BigInt {
        tau - BigInt::from(self.trees.len())
    }
}

/// Draw cap for a graph of `cells` cells and `walls` walls between them: far above what any
/// finite generator needs.
fn cap_for(cells: usize, walls: usize) -> usize {
    8 * (cells + walls) + 64
}

/// Draw cap for a grid of `size`: far above what any finite generator needs.
pub(crate) fn depth_cap(size: Size) -> usize {
    cap_for(size.cells() as usize, size.interior_wall_count() as usize)
}

/// What a walk runs the generator on: a square grid (2D or 3D, with its mask when there is
/// one) through [`Algorithm::generate`], or the cell graph of a hex, triangle or polar grid
/// (whole or masked) through [`crate::topo::generate::generate`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum On<'a> {
    /// The square grid of this size.
    Square(Size, Option<&'a Arc<Mask>>),
    /// A cell graph of another grid.
    Graph(&'a CellGraph),
}

impl On<'_> {
    fn cap(&self) -> usize {
        match self {
            On::Square(size, _) => depth_cap(*size),
            On::Graph(g) => cap_for(g.cells() as usize, g.edges() as usize),
        }
    }
}

/// A maze and scratch to run the generator in, reused from run to run.
enum Runner<'a> {
    Square(Maze, Scratch),
    Graph(&'a CellGraph, GraphMaze, GraphScratch),
}

impl<'a> Runner<'a> {
    fn new(on: On<'a>) -> Runner<'a> {
        match on {
            On::Square(size, mask) => {
                let mut maze = Maze::with_size(size);
                maze.set_mask(mask.cloned());
                Runner::Square(maze, Scratch::new())
            }
            On::Graph(g) => Runner::Graph(g, GraphMaze::new(g), GraphScratch::new()),
        }
    }

    /// Make one maze of `algo` with the draws of `src`; its open-wall words.
    fn run<R: RandomSource>(&mut self, algo: &Algorithm, src: &mut R) -> &[u64] {
        match self {
            Runner::Square(maze, scratch) => {
                algo.generate(maze, scratch, src);
                maze.words()
            }
            Runner::Graph(g, maze, scratch) => {
                tgen::generate(algo, g, maze, scratch, src);
                maze.words()
            }
        }
    }

    /// The last maze's hash (what sampling computes per maze).
    fn hash(&self) -> u64 {
        match self {
            Runner::Square(maze, _) => maze.hash(),
            Runner::Graph(g, maze, _) => maze.hash(g.size()),
        }
    }
}

/// Knuth's estimate of a generator's choice tree: leaves and time per leaf.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    /// Estimated number of leaves (generator runs needed).
    pub leaves: f64,
    /// Measured seconds per generator run (single thread, with the replay overhead).
    pub(crate) seconds_per_leaf: f64,
}

/// Bytes a walk holds per distinct tree it finds, an upper bound: each parallel job's map entry
/// (the tree's wall words and its map of path probabilities, about 400 bytes), the merged map's
/// entry (as much again) and the tree's exact probability in the result. Measured peak RSS:
/// sidewinder on 5x4 (166,375 trees) and 4x5 (194,481) took 84 and 91 MB above a 2x2 run,
/// 510 and 470 bytes per tree (December 2026); the bound leaves four times that for hash-table
/// growth and allocator slack. `tests/memory_estimate.rs` checks it against a real run.
pub const BYTES_PER_TREE: u64 = 2048;

impl Estimate {
    /// Estimated wall-clock seconds on `threads` threads.
    pub fn seconds(&self, threads: usize) -> f64 {
        self.leaves * self.seconds_per_leaf / threads.max(1) as f64
    }

    /// Estimated peak bytes of the walk: [`BYTES_PER_TREE`] for each distinct tree, of which
    /// there are at most as many as leaves, and at most `tau` (when known).
    pub fn bytes(&self, tau: Option<u64>) -> u64 {
        let leaves = if self.leaves.is_finite() && self.leaves < u64::MAX as f64 {
            self.leaves.ceil() as u64
        } else {
            u64::MAX
        };
        leaves
            .min(tau.unwrap_or(u64::MAX))
            .saturating_mul(BYTES_PER_TREE)
    }
}

/// Probe the choice tree: the all-first and all-last branches (which expose unbounded rejection
/// loops deterministically) and `probes` random paths (Knuth's estimator of the leaf count).
pub fn estimate(algo: &Algorithm, size: Size, probes: u32) -> Result<Estimate, NotEnumerable> {
    estimate_on(algo, size, None, probes)
}

/// [`estimate`] on the cells of `mask` when there is one (its size is `size`).
pub(crate) fn estimate_on(
    algo: &Algorithm,
    size: Size,
    mask: Option<&Arc<Mask>>,
    probes: u32,
) -> Result<Estimate, NotEnumerable> {
    estimate_in(algo, On::Square(size, mask), probes)
}

/// [`estimate`] on the cell graph `g` of a hex, triangle or polar grid (`algo` must run there:
/// [`crate::topo::generate::check`]).
pub fn estimate_graph(
    algo: &Algorithm,
    g: &CellGraph,
    probes: u32,
) -> Result<Estimate, NotEnumerable> {
    estimate_in(algo, On::Graph(g), probes)
}

fn estimate_in(algo: &Algorithm, on: On, probes: u32) -> Result<Estimate, NotEnumerable> {
    let cap = on.cap();
    let mut runner = Runner::new(on);
    struct Probe {
        rng: Option<Rng>,
        last: bool,
        depth: usize,
        product: f64,
        cap: usize,
        abort: Option<NotEnumerable>,
        fallback: Rng,
    }
    impl Probe {
        fn draw(&mut self, arity: u32) -> u32 {
            if self.abort.is_some() {
                return self.fallback.below(arity);
            }
            self.depth += 1;
            self.product *= arity as f64;
            if self.depth > self.cap {
                self.abort = Some(NotEnumerable::Unbounded { cap: self.cap });
            }
            match &mut self.rng {
                Some(r) => r.below(arity),
                None if self.last => arity - 1,
                None => 0,
            }
        }
    }
    choice_source!(Probe);
    let mk = |rng: Option<Rng>, last: bool| Probe {
        rng,
        last,
        depth: 0,
        product: 1.0,
        cap,
        abort: None,
        fallback: Rng::from_maze_seed(1),
    };
    for last in [false, true] {
        let mut p = mk(None, last);
        runner.run(algo, &mut p);
        if let Some(e) = p.abort {
            return Err(e);
        }
    }
    let mut sum = 0.0;
    let t = Instant::now();
    for i in 0..probes {
        let mut p = mk(Some(Rng::from_maze_seed(0xe57 ^ i as u64)), false);
        runner.run(algo, &mut p);
        if let Some(e) = p.abort {
            return Err(e);
        }
        sum += p.product;
        // The enumerator also hashes the maze and replays a path: count that as one more run.
        std::hint::black_box(runner.hash());
    }
    let per = t.elapsed().as_secs_f64() / probes.max(1) as f64;
    Ok(Estimate {
        leaves: sum / probes.max(1) as f64,
        seconds_per_leaf: per * 2.0 + 2e-7,
    })
}

type Partial = HashMap<TreeKey, BTreeMap<u128, u64>>;

struct Walk {
    partial: Partial,
    leaves: u64,
    max_depth: usize,
}

/// Walk every leaf below `prefix`.
fn walk(
    algo: &Algorithm,
    on: On,
    prefix: &[(u32, u32)],
    cap: usize,
) -> Result<Walk, NotEnumerable> {
    let fixed = prefix.len();
    let mut runner = Runner::new(on);
    let mut out = Walk {
        partial: HashMap::new(),
        leaves: 0,
        max_depth: 0,
    };
    let mut path = prefix.to_vec();
    loop {
        let mut src = EnumSource::new(path, cap);
        let words = runner.run(algo, &mut src);
        if let Some(e) = src.abort {
            return Err(e);
        }
        assert_eq!(
            src.pos,
            src.path.len(),
            "run used fewer draws than replayed"
        );
        path = src.path;
        let mut denom: u128 = 1;
        for &(_, a) in &path {
            denom = denom
                .checked_mul(a as u128)
                .ok_or(NotEnumerable::DenominatorOverflow { draws: path.len() })?;
        }
        *out.partial
            .entry(words.into())
            .or_default()
            .entry(denom)
            .or_insert(0) += 1;
        out.leaves += 1;
        out.max_depth = out.max_depth.max(path.len());
        // Advance to the next leaf: bump the deepest choice with untried outcomes.
        loop {
            if path.len() <= fixed {
                return Ok(out);
            }
            let last = path.last_mut().expect("non-empty");
            last.0 += 1;
            if last.0 < last.1 {
                break;
            }
            path.pop();
        }
    }
}

/// Prefixes to split the walk into parallel jobs: expand the choice tree breadth-first until
/// there are at least `want` subtrees (or the tree is shallower than `max_levels`).
fn split(
    algo: &Algorithm,
    on: On,
    cap: usize,
    want: usize,
    max_levels: usize,
) -> Result<Vec<Vec<(u32, u32)>>, NotEnumerable> {
    let mut runner = Runner::new(on);
    let mut level = vec![Vec::new()];
    for _ in 0..max_levels {
        if level.len() >= want {
            break;
        }
        let mut next = Vec::new();
        for p in &level {
            let mut src = EnumSource::new(p.clone(), cap);
            runner.run(algo, &mut src);
            if let Some(e) = src.abort {
                return Err(e);
            }
            if src.path.len() > p.len() {
                let arity = src.path[p.len()].1;
                for c in 0..arity {
                    let mut q = p.clone();
                    q.push((c, arity));
                    next.push(q);
                }
            } else {
                next.push(p.clone()); // a leaf at this depth: its own job
            }
        }
        if next.len() == level.len() {
            break;
        }
        level = next;
    }
    Ok(level)
}

/// The exact distribution of `algo` on the grid of `size` (2D or 3D), by walking its whole
/// choice tree in parallel (rayon).
pub fn exact_distribution(
    algo: &Algorithm,
    size: Size,
) -> Result<ExactDistribution, NotEnumerable> {
    exact_distribution_on(algo, size, None)
}

/// [`exact_distribution`] on the cells of `mask` when there is one (its size is `size`).
pub fn exact_distribution_on(
    algo: &Algorithm,
    size: Size,
    mask: Option<&Arc<Mask>>,
) -> Result<ExactDistribution, NotEnumerable> {
    exact_distribution_in(algo, On::Square(size, mask))
}

/// [`exact_distribution`] on the cell graph `g` of a hex, triangle or polar grid (whole or
/// masked; `algo` must run there: [`crate::topo::generate::check`]). The trees are keyed by
/// the graph's edge words ([`GraphMaze::words`]).
pub fn exact_distribution_graph(
    algo: &Algorithm,
    g: &CellGraph,
) -> Result<ExactDistribution, NotEnumerable> {
    exact_distribution_in(algo, On::Graph(g))
}

fn exact_distribution_in(algo: &Algorithm, on: On) -> Result<ExactDistribution, NotEnumerable> {
    let cap = on.cap();
    let prefixes = split(algo, on, cap, 64, 4)?;
    let walks: Vec<Result<Walk, NotEnumerable>> = prefixes
        .par_iter()
        .map(|p| walk(algo, on, p, cap))
        .collect();
    let mut merged: HashMap<TreeKey, BTreeMap<u128, u64>> = HashMap::new();
    let (mut leaves, mut max_depth) = (0u64, 0usize);
    for w in walks {
        let w = w?;
        leaves += w.leaves;
        max_depth = max_depth.max(w.max_depth);
        for (k, m) in w.partial {
            let e = merged.entry(k).or_default();
            for (d, c) in m {
                *e.entry(d).or_insert(0) += c;
            }
        }
    }
    let mut trees: Vec<(TreeKey, BigRational)> = merged
        .into_iter()
        .map(|(k, m)| {
            let p = m.into_iter().fold(BigRational::zero(), |acc, (d, c)| {
                acc + BigRational::new(BigInt::from(c), BigInt::from(d))
            });
            (k, p)
        })
        .collect();
    trees.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(ExactDistribution {
        trees,
        leaves,
        max_depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backtracker_2x2_is_exact() {
        let d = exact_distribution(&Algorithm::Backtracker, Size::planar(2, 2)).unwrap();
        assert_eq!(d.total(), BigRational::one());
        // From (0,0): 2 choices, then the path is forced: 2 Hamiltonian paths… plus none else.
        assert_eq!(d.trees.len(), 2);
        assert_eq!(d.never_produced(&BigInt::from(4)), BigInt::from(2));
    }

    #[test]
    fn source_branches_and_flags_what_it_cannot_enumerate() {
        let mut s = EnumSource::new(vec![(2, 3)], 10);
        assert_eq!(s.below(3), 2); // replayed
        assert_eq!(s.bits(2), 0); // new draw: first outcome, arity 4 recorded
        assert_eq!(s.path, vec![(2, 3), (0, 4)]);
        assert!(s.abort.is_none());
        let _ = s.unit_f64();
        assert_eq!(s.abort, Some(NotEnumerable::UsesFloat));
        // A replay that asks for a different arity is reported, not panicked on.
        let mut s = EnumSource::new(vec![(1, 2)], 10);
        let _ = s.below(5);
        assert!(matches!(
            s.abort,
            Some(NotEnumerable::Nondeterministic { .. })
        ));
        // Past the cap: flagged, and draws keep coming (from a real RNG) so loops can end.
        let mut s = EnumSource::new(Vec::new(), 2);
        for _ in 0..100 {
            assert!(s.below(4) < 4);
        }
        assert_eq!(s.abort, Some(NotEnumerable::Unbounded { cap: 2 }));
    }

    #[test]
    fn wilson_is_unbounded() {
        let e = exact_distribution(&Algorithm::Wilson, Size::planar(2, 2)).unwrap_err();
        assert!(matches!(e, NotEnumerable::Unbounded { .. }));
        let e = estimate(&Algorithm::Wilson, Size::planar(2, 2), 10).unwrap_err();
        assert!(matches!(e, NotEnumerable::Unbounded { .. }));
    }

    #[test]
    fn knuth_estimate_is_close_for_kruskal() {
        let e = estimate(&Algorithm::Kruskal, Size::planar(3, 2), 4000).unwrap();
        let d = exact_distribution(&Algorithm::Kruskal, Size::planar(3, 2)).unwrap();
        let rel = (e.leaves - d.leaves as f64).abs() / d.leaves as f64;
        assert!(rel < 0.1, "estimate {} vs {}", e.leaves, d.leaves);
    }
}
