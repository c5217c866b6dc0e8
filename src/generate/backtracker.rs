//! Recursive backtracker as an iterative depth-first search (never recursive, so 4096×4096
//! cannot overflow the call stack), written once for 2D and 3D grids ([`Topology`]).
//!
//! Starts at the first cell ((0,0), or (0,0,0); a mask's first cell in row order). At the top
//! of the stack, the unvisited neighbours are listed in direction order (east, south, west,
//! north, then down, up in 3D) and one is chosen with an unbiased draw (no draw when there is a
//! single choice); a cell with none is popped.
//!
//! Speed: the search runs on padded arrays of the topology, so it needs no coordinates. Each
//! cell keeps a byte of its free (unvisited) neighbours ([`Topology::free_masks`]: the padding
//! and a mask's holes are never in it), and a cell that joins clears its bit in each
//! neighbour's byte ([`Topology::visit`]): a step finds its options in one byte where it read a
//! mark per neighbour. Each cell records the direction back to its parent, and the passages are
//! written to the maze in one linear pass at the end ([`Topology::carve_parent_links`]). The
//! stack, masks and parent links are indexed without bounds checks (the invariants are in the
//! SAFETY comments of [`advance`]).
//!
//! A step is a chain of dependent operations (the cell, its mask, the count of free
//! neighbours, the draw, the next cell, or the pop's load of the parent), so one search leaves
//! the processor waiting. A batch worker makes 2D mazes two at a time ([`generate_pair`]): the
//! steps of two searches, each drawing from its own source, are interleaved one by one, so each
//! chain runs while the other waits. A search of a given grid (or mask) takes the same number
//! of steps whatever its draws (each cell is entered once and left once), so the two end
//! together. Whole `batchgen --algo backtracker --size 64x64 --count 10000 --threads 1` runs
//! take 0.89 of the CPU time of the single loop with bounds checks (`benches/whole_process.sh`,
//! medians of 7 alternating runs: 58 against 65 µs per maze).

use super::shared::{free_option, free_options, pair_in_locals};
use super::topology::{free_masks_from, Planar, Topology};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// One search in progress: its stack, free-neighbour masks and parent links, the current cell
/// and the depth.
struct Search<'a> {
    /// The ancestors of the current cell (below `sp`); it never holds more than every cell once.
    stack: &'a mut [u32],
    /// Each padded cell's free neighbours ([`Topology::free_masks`]).
    free: &'a mut [u8],
    /// The direction from each reached padded cell to its parent.
    next: &'a mut [u8],
    /// Entries on the stack.
    sp: usize,
    /// The current cell (padded index), kept out of the stack.
    c: u32,
    /// The first cell (padded index): the root of the parent links.
    start: u32,
}

/// Set up the search for `maze`: the topology's state, room for the stack, the free-neighbour
/// masks with the first cell taken. Also returns the scratch's code buffer for
/// [`Topology::carve_parent_links`].
#[inline(always)]
fn begin<'a, T: Topology>(maze: &Maze, s: &'a mut Scratch) -> (T, Search<'a>, &'a mut Vec<u8>) {
    let t = T::state(s, maze);
    let start = t.padded(maze.first_cell());
    let n = maze.size().cells() as usize;
    if s.cells.len() < n {
        s.cells.resize(n, 0);
    }
    // SAFETY: the padded index of the maze's first cell, a cell id.
    unsafe { free_masks_from(&t, s, maze, start) };
    // `advance` writes `next` at the padded indices `free` covers.
    assert_eq!(s.sides.len(), s.next.len());
    let search = Search {
        stack: &mut s.cells[..],
        free: &mut s.sides[..],
        next: &mut s.next[..],
        sp: 0,
        c: start,
        start,
    };
    (t, search, &mut s.codes)
}

/// One step of the search: go to a free neighbour of the current cell (drawn among them in
/// direction order), or back to its parent when it has none. False, with nothing changed, once
/// the whole tree is done (the stack is empty and the first cell has no free neighbour).
#[inline(always)]
fn advance<T: Topology, R: RandomSource>(t: &T, g: &mut Search<'_>, rng: &mut R) -> bool {
    // The free neighbours, one byte read.
    // SAFETY: the current cell is a grid cell (the first cell, a free neighbour carved to, or
    // one back from the stack, which holds only those), and `free` the padded array's masks.
    let (free, k) = unsafe { free_options(g.free, g.c) };
    if k == 0 {
        if g.sp == 0 {
            return false;
        }
        g.sp -= 1;
        debug_assert!(g.sp < g.stack.len());
        // SAFETY: `sp` was below the stack's length when this entry was pushed.
        g.c = unsafe { *g.stack.get_unchecked(g.sp) };
        return true;
    }
    // No draw when there is one option (`choose`), without a branch on it in the batch.
    let d = free_option(free, rng.choose(k));
    let nb = g.c.wrapping_add(t.step(d)) as usize;
    debug_assert!(nb < g.next.len() && g.sp < g.stack.len());
    // SAFETY: `nb` is a free neighbour (its bit was set in the mask), so a cell of the grid.
    unsafe { t.visit(g.free, nb as u32) };
    // Record the direction from the new cell back to its parent.
    // SAFETY: `nb` is a grid cell of the padded array, whose length `next` has (asserted in
    // `begin`).
    unsafe { *g.next.get_unchecked_mut(nb) = T::opposite(d) as u8 };
    // SAFETY: the stack holds distinct cells other than the current one, so `sp` is below the
    // number of cells, and `begin` made the stack at least that long.
    unsafe { *g.stack.get_unchecked_mut(g.sp) = g.c };
    g.sp += 1;
    g.c = nb as u32;
    true
}

/// Carve a perfect maze by randomised DFS on topology `T`.
pub(crate) fn generate<T: Topology, R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
) {
    let (t, mut g, codes) = begin::<T>(maze, s);
    while advance(&t, &mut g, rng) {}
    t.carve_parent_links(maze, g.next, codes, g.start);
}

/// [`generate`] for two 2D mazes of one size at once, each with its own scratch and random
/// source: exactly the two mazes [`generate`] makes of each alone (each takes the same draws
/// from its own source). The steps of the two searches are interleaved one by one, so each
/// one's chain of dependent loads runs while the other waits; the two end together (one step
/// per cell entered, one per cell left). Never inlined, so a profile counts it on its own (one call per two mazes).
#[inline(never)]
pub(crate) fn generate_pair<R: RandomSource>(
    a: &mut Maze,
    sa: &mut Scratch,
    ra: &mut R,
    b: &mut Maze,
    sb: &mut Scratch,
    rb: &mut R,
) {
    pair_in_locals!(search_pair, a, sa, ra, b, sb, rb)
}

/// The loop of [`generate_pair`].
#[inline(always)]
fn search_pair<RA: RandomSource, RB: RandomSource>(
    a: &mut Maze,
    sa: &mut Scratch,
    ra: &mut RA,
    b: &mut Maze,
    sb: &mut Scratch,
    rb: &mut RB,
) {
    let (t, mut ga, ca) = begin::<Planar>(a, sa);
    // One size, so one geometry: the steps are the same for both.
    let (_, mut gb, cb) = begin::<Planar>(b, sb);
    // Both searches take the same number of steps: each cell the first cell reaches is
    // entered once and left once, then one more step finds the stack empty (2·cells − 1
    // steps), and both have the same cells. So they end together.
    while advance(&t, &mut ga, ra) {
        let more_b = advance(&t, &mut gb, rb);
        debug_assert!(more_b);
    }
    debug_assert!(!advance(&t, &mut gb, rb));
    t.carve_parent_links(a, ga.next, ca, ga.start);
    t.carve_parent_links(b, gb.next, cb, gb.start);
}
