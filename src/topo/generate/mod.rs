//! The generators on a [`CellGraph`]: each makes a spanning tree of the graph's cells into a
//! [`GraphMaze`], drawing only from the per-maze random source, with the worker's
//! [`GraphScratch`] reused for every maze (no allocation once the buffers have grown). One file
//! per generator; [`generate`] dispatches an [`Algorithm`] to its file and [`check`] says, before
//! any work, whether a generator runs on a grid.
//!
//! Which generators run where:
//!
//! - On every grid (they need only a connected graph): backtracker, kruskal, wilson,
//!   aldous-broder, prim, growing-tree, hunt-and-kill.
//! - Biased Wilson (`wilson-straight:P`, `wilson-turn:P`) needs a "straight on": on a hex grid it
//!   is the opposite side (`wilson_biased.rs`); a triangle has no opposite sides and a polar
//!   cell's outward neighbours are not one direction, so both refuse it by name.
//! - Binary tree and sidewinder have their classic polar forms (`polar_rows.rs`); on hex and
//!   triangle grids they are refused.
//! - Eller, recursive division and fractal are defined by rows and rectangles of squares and
//!   are refused on every other grid.

mod aldous_broder;
mod backtracker;
mod growing_tree;
mod hex_layout;
mod hunt_and_kill;
mod kruskal;
mod polar_rows;
mod prim;
mod walk_steps;
mod wilson;
mod wilson_biased;

use super::{CellGraph, GraphMaze, Grid};
use crate::dsu::Dsu;
use crate::popcount::{count, select};
use crate::rng::RandomSource;
use crate::Algorithm;

/// A worker's buffers, reused for every maze it makes.
#[derive(Debug, Default)]
pub struct GraphScratch {
    /// Per-cell state (visited, in tree).
    mark: Vec<u8>,
    /// A stack, queue or active list of cells.
    stack: Vec<u32>,
    /// Per-cell slot (Wilson's walk) or a list of slots (Prim's frontier).
    next: Vec<u32>,
    /// The shuffled edges (Kruskal).
    order: Vec<u32>,
    /// Packed entries (Prim's frontier on a full hex grid).
    wide: Vec<u64>,
    /// A list of 16-bit ids (the growing tree's active cells, Kruskal's shuffled edges).
    narrow: Vec<u16>,
    /// Kruskal's union-find.
    dsu: Dsu,
    /// Per-cell masks of the neighbours not visited yet ([`Unvisited`]).
    open: Vec<u8>,
    /// The full hex grid's initial masks ([`hex_layout::HexMoves::masks`]).
    hex: hex_layout::HexMasks,
}

impl GraphScratch {
    /// Empty buffers.
    pub fn new() -> GraphScratch {
        GraphScratch::default()
    }

    /// `mark` holding `len` zeros.
    fn marks(&mut self, len: u32) -> &mut Vec<u8> {
        self.mark.clear();
        self.mark.resize(len as usize, 0);
        &mut self.mark
    }
}

/// Can `algo` generate on `grid`? `Err` names the generator and the grid, and the generators
/// that do run there.
pub fn check(algo: &Algorithm, grid: Grid) -> Result<(), String> {
    if grid == Grid::Square || supported(algo, grid) {
        return Ok(());
    }
    let why = match algo {
        Algorithm::WilsonStraight(_) | Algorithm::WilsonTurn(_) => match grid {
            Grid::Triangle => "a triangle has no opposite sides to go straight through",
            _ => "a polar cell's outward neighbours are not one direction to keep",
        },
        Algorithm::BinaryTree | Algorithm::Sidewinder => {
            "it is defined on square and polar grids only"
        }
        _ => "it is defined by rows and rectangles of square cells",
    };
    Err(format!(
        "{} does not run on a {grid} grid: {why}; generators on the {grid} grid: {}",
        algo.name(),
        on_grid(grid)
            .iter()
            .map(|a| a.family().name)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// The families that run on `grid` (their default parameters), in canonical order.
pub fn on_grid(grid: Grid) -> Vec<Algorithm> {
    Algorithm::all()
        .into_iter()
        .filter(|a| grid == Grid::Square || supported(a, grid))
        .collect()
}

fn supported(algo: &Algorithm, grid: Grid) -> bool {
    match algo {
        Algorithm::Backtracker
        | Algorithm::Kruskal
        | Algorithm::Wilson
        | Algorithm::AldousBroder
        | Algorithm::Prim
        | Algorithm::GrowingTree(_)
        | Algorithm::HuntAndKill => true,
        Algorithm::WilsonStraight(_) | Algorithm::WilsonTurn(_) => grid == Grid::Hex,
        Algorithm::BinaryTree | Algorithm::Sidewinder => grid == Grid::Polar,
        Algorithm::Eller | Algorithm::RecursiveDivision | Algorithm::Fractal => false,
    }
}

/// Make one maze of `algo` on `g` into `maze` (cleared first).
///
/// # Panics
///
/// If `algo` does not run on `g`'s grid ([`check`]), or on the square grid (whose mazes come
/// from [`crate::generate`]).
pub fn generate<R: RandomSource>(
    algo: &Algorithm,
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    assert_runs(algo, g.size().grid);
    maze.clear(g);
    match *algo {
        Algorithm::Backtracker => backtracker::generate(g, maze, s, rng),
        Algorithm::Kruskal => kruskal::generate(g, maze, s, rng),
        Algorithm::Wilson => wilson::generate(g, maze, s, rng),
        Algorithm::AldousBroder => aldous_broder::generate(g, maze, s, rng),
        Algorithm::Prim => prim::generate(g, maze, s, rng),
        Algorithm::GrowingTree(p) => growing_tree::generate(g, maze, s, rng, p),
        Algorithm::HuntAndKill => hunt_and_kill::generate(g, maze, s, rng),
        Algorithm::WilsonStraight(p) => wilson_biased::generate(g, maze, s, rng, true, p),
        Algorithm::WilsonTurn(p) => wilson_biased::generate(g, maze, s, rng, false, p),
        Algorithm::BinaryTree => polar_rows::binary_tree(g, maze, rng),
        Algorithm::Sidewinder => polar_rows::sidewinder(g, maze, rng),
        Algorithm::Eller | Algorithm::RecursiveDivision | Algorithm::Fractal => {
            unreachable!("refused above")
        }
    }
}

/// Whether [`generate_pair`] makes two mazes of `algo` on `g` together, faster than one after
/// the other: the backtracker, hunt-and-kill, Kruskal (where its ids fit 16 bits), Prim (where
/// the graph has 16-bit slot records), and Aldous–Broder and Wilson on a triangle grid (whose
/// walks read the graph's tables: the hex and polar walkers step by additions, and two of
/// those interleaved were slower), whose steps are chains of dependent loads that two
/// interleaved mazes overlap.
pub fn pairs_faster(algo: &Algorithm, g: &CellGraph) -> bool {
    match algo {
        Algorithm::Backtracker | Algorithm::HuntAndKill => true,
        Algorithm::Kruskal => kruskal::pairs(g),
        Algorithm::Prim => prim::pairs(g),
        Algorithm::AldousBroder | Algorithm::Wilson => g.size().grid == Grid::Triangle,
        _ => false,
    }
}

/// Make two mazes of `algo` on `g`, `a` from `ra` and `b` from `rb`, each with its own buffers:
/// exactly the two mazes [`generate`] makes of each, made together when [`pairs_faster`],
/// else one after the other.
///
/// # Panics
///
/// As [`generate`].
pub fn generate_pair<R: RandomSource>(
    algo: &Algorithm,
    g: &CellGraph,
    (ma, sa, ra): (&mut GraphMaze, &mut GraphScratch, &mut R),
    (mb, sb, rb): (&mut GraphMaze, &mut GraphScratch, &mut R),
) {
    if !pairs_faster(algo, g) {
        generate(algo, g, ma, sa, ra);
        return generate(algo, g, mb, sb, rb);
    }
    assert_runs(algo, g.size().grid);
    ma.clear(g);
    mb.clear(g);
    match *algo {
        Algorithm::Backtracker => backtracker::generate_pair(g, (ma, sa, ra), (mb, sb, rb)),
        Algorithm::HuntAndKill => hunt_and_kill::generate_pair(g, (ma, sa, ra), (mb, sb, rb)),
        Algorithm::Kruskal => kruskal::generate_pair(g, (ma, sa, ra), (mb, sb, rb)),
        Algorithm::Prim => prim::generate_pair(g, (ma, sa, ra), (mb, sb, rb)),
        Algorithm::AldousBroder => aldous_broder::generate_pair(g, (ma, sa, ra), (mb, sb, rb)),
        Algorithm::Wilson => wilson::generate_pair(g, (ma, sa, ra), (mb, sb, rb)),
        _ => unreachable!("pairs_faster"),
    }
}

/// Panics, with [`check`]'s message, unless `algo` runs on `grid` here (not the square grid,
/// whose mazes come from [`crate::generate`]).
fn assert_runs(algo: &Algorithm, grid: Grid) {
    assert!(
        grid != Grid::Square && supported(algo, grid),
        "{}",
        check(algo, grid)
            .err()
            .unwrap_or_else(|| "the square grid has its own generators".into())
    );
}

/// A uniformly drawn cell of `g` (one draw when there is a choice).
#[inline]
fn random_cell<R: RandomSource>(g: &CellGraph, rng: &mut R) -> u32 {
    g.ids()[rng.choose(g.cells()) as usize]
}

/// The slots of `u` whose neighbour has `mark == want`, in slot order, into the front of `out`
/// (sized by [`candidates`]); returns how many. Written without a branch on the marks (each
/// slot is stored, and the count moves past it only when it qualifies), since whether a
/// neighbour is visited is a coin flip to the branch predictor.
#[inline]
fn slots_with(g: &CellGraph, mark: &[u8], u: u32, want: u8, out: &mut [u32]) -> u32 {
    let mut k = 0usize;
    for s in g.slots(u) {
        out[k] = s;
        k += (mark[g.nbr(s) as usize] == want) as usize;
    }
    k as u32
}

/// `body` with the const `K` the stride of `g`'s fixed visits ([`CellGraph::back_stride`]) where
/// the generators have a copy for it (3: triangle grids; 5: polar grids; 6: masked hex grids),
/// else 0 (a visit loops over the cell's slots): the one dispatch of the loops over
/// [`Unvisited`].
macro_rules! by_stride {
    ($g:expr, $k:ident => $body:expr) => {
        match $g.back_stride().0 {
            3 => {
                const $k: usize = 3;
                $body
            }
            5 => {
                const $k: usize = 5;
                $body
            }
            6 => {
                const $k: usize = 6;
                $body
            }
            _ => {
                const $k: usize = 0;
                $body
            }
        }
    };
}
use by_stride;

/// The unvisited neighbours of every cell as one byte per cell (bit `i` for the cell's `i`-th
/// slot), on a graph whose cells have at most 8 neighbours ([`CellGraph::full_masks`]).
/// Visiting a cell clears its bit in each neighbour's mask, once; then the choices of a cell are
/// its mask, with no neighbour to read: the `i`-th choice in slot order is the `i`-th set bit,
/// and there are as many as set bits, so the draws are those of [`slots_with`].
///
/// A visit reads each neighbour and the bit to clear in one packed word of the graph's
/// [`CellGraph::nbrs_back`]: against the neighbour and the bit in two tables, per cell on a
/// 36-ring polar grid hunt-and-kill 0.90× the time, the growing tree 0.96×, the backtracker
/// 0.99× (`benches/generators.sh OLD NEW 5 -- --algo backtracker,hunt-and-kill,growing-tree
/// --grid polar --size 36 --count 3000`). A carve reads the neighbour from that table too
/// ([`CellGraph::nbr_packed`]) rather than from the graph's neighbour table, one table fewer in
/// the cache: on the same grid the backtracker 0.97× the time, hunt-and-kill 0.96×.
///
/// The masks keep their graph, which has them ([`Unvisited::new`] asserts their length once), so
/// a visit and a carve read the graph's tables without bounds checks (their callers promise a
/// cell id): instructions per cell of the backtracker on a 64x64 triangle grid 119.4 → 102.4 and
/// on a 36-ring polar grid 131.1 → 114.2 (with its flat stack), of hunt-and-kill 131.8 → 115.8
/// and 132.8 → 116.7 (`benches/grids_callgrind.sh BIN 20`), and 0.95× and 0.98× the time per
/// cell of both (`benches/generators.sh OLD NEW 5 -- --algo backtracker,hunt-and-kill --grid
/// triangle --size 64x64 --count 3000`, and `--grid polar --size 36`).
///
/// `K` is the graph's stride of [`CellGraph::back_stride`] (3, 5 or 6: see [`by_stride`]), or 0:
/// with a stride, a visit clears exactly `K` bits, through the padded table of
/// [`CellGraph::nbrs_back_fixed_unchecked`], unrolled (the padding's bits land in a byte past
/// the cells); with 0 it loops over the cell's slots. The loop's control took more instructions
/// than its 4 or 5 entries: per cell, the backtracker 114.2 → 104.8 on a 36-ring polar grid and
/// 102.4 → 91.2 on a 64x64 triangle grid, hunt-and-kill 116.7 → 106.6 and 115.8 → 101.7
/// (`benches/grids_callgrind.sh BIN 20`), in time 0.96× and 0.91×, 0.99× and 0.93×
/// (`benches/generators.sh OLD NEW 5 -- --algo backtracker,hunt-and-kill --grid G --size S
/// --count 3000`).
struct Unvisited<'a, const K: usize = 0> {
    g: &'a CellGraph,
    masks: &'a mut [u8],
    /// The graph's one cell with more neighbours than `K` (`u32::MAX` when none), visited by
    /// the loop.
    wide: u32,
}

impl<'a, const K: usize> Unvisited<'a, K> {
    /// Every neighbour of `g`'s cells unvisited, in `buf` (reused), with one byte more for the
    /// padding of a fixed-count visit.
    ///
    /// # Panics
    ///
    /// If `g` has a cell of more than 8 neighbours ([`CellGraph::full_masks`] is `None`), or
    /// `K` is neither 0 nor the graph's stride.
    fn new(g: &'a CellGraph, buf: &'a mut Vec<u8>) -> Unvisited<'a, K> {
        let full = g.full_masks().expect("at most 8 neighbours per cell");
        // The reads below skip their bound checks on this length: every cell id is below it.
        assert_eq!(full.len(), g.len() as usize);
        let (stride, wide) = g.back_stride();
        assert!(
            K == 0 || K == stride as usize,
            "a visit of {K} for a stride of {stride}"
        );
        buf.clear();
        buf.extend_from_slice(full);
        buf.push(0);
        Unvisited {
            g,
            masks: &mut buf[..],
            wide,
        }
    }

    /// Mark `v` visited.
    ///
    /// # Safety
    ///
    /// `v` is a cell id of the graph (below its `len()`).
    #[inline(always)]
    unsafe fn visit(&mut self, v: u32) {
        if K > 0 && v != self.wide {
            // SAFETY: `v < len()` (the caller's promise), not the wide cell, and `K` the
            // graph's stride (`new`).
            for &x in unsafe { self.g.nbrs_back_fixed_unchecked::<K>(v) } {
                // SAFETY: `x >> 3` is a neighbour, below `len()`, or the padding's `len()`:
                // below the masks' length `len() + 1`.
                unsafe { *self.masks.get_unchecked_mut((x >> 3) as usize) &= !(1 << (x & 7)) };
            }
            return;
        }
        // SAFETY: `v < len()` (the caller's promise) and the graph has its masks (`new`).
        for &x in unsafe { self.g.nbrs_back_unchecked(v) } {
            // SAFETY: `x >> 3` is a neighbour, a cell id below `len()`, inside the masks.
            unsafe { *self.masks.get_unchecked_mut((x >> 3) as usize) &= !(1 << (x & 7)) };
        }
    }

    /// Carve from `u` to one of the neighbours in `m` (its unvisited ones), drawn uniformly in
    /// slot order (`choose`): open the passage and visit the neighbour, which is returned.
    ///
    /// # Safety
    ///
    /// `u` is a cell id of the graph and `m` is not empty and holds only bits of `u`'s mask
    /// (as [`Unvisited::of`] gives it: bits of the cell's slots).
    #[inline(always)]
    unsafe fn carve<R: RandomSource>(
        &mut self,
        maze: &mut GraphMaze,
        u: u32,
        m: u8,
        rng: &mut R,
    ) -> u32 {
        debug_assert!(m != 0 && m & !self.masks[u as usize] == 0);
        // SAFETY: `u < len()` (the caller's promise).
        let (first, _) = unsafe { self.g.slot_span_unchecked(u) };
        let slot = first + select(m, rng.choose(count(m)));
        // SAFETY: `slot` is a slot of `u`: the `i`-th set bit of `m` (`i < count(m)`) is the
        // index of one of its slots (the caller's promise), and the graph has its masks.
        let (v, e) = unsafe {
            (
                self.g.nbr_packed_unchecked(slot),
                self.g.edge_unchecked(slot),
            )
        };
        maze.open(e);
        // SAFETY: `v` is a neighbour, a cell id.
        unsafe { self.visit(v) };
        v
    }

    /// The mask of `u`'s unvisited neighbours.
    #[inline(always)]
    fn of(&self, u: u32) -> u8 {
        self.masks[u as usize]
    }
}

/// The slot of `u` at the `i`-th set bit of `m` (a mask of `u`'s slots).
#[inline(always)]
fn slot_at(g: &CellGraph, u: u32, m: u8, i: u32) -> u32 {
    g.slots(u).start + select(m, i)
}

/// `buf` sized for [`slots_with`] on `g`: one entry per slot of the cell with the most.
#[inline]
fn candidates(g: &CellGraph, buf: &mut Vec<u32>) {
    buf.clear();
    buf.resize(g.max_degree() as usize, 0);
}

#[cfg(test)]
mod tests;
