//! Recursive backtracker on a cell graph (iterative): from a random cell, step to a random
//! unvisited neighbour (slot order, `choose`), carving; when there is none, back up the stack.
//!
//! Speed: where no cell has more than 8 neighbours, each cell keeps the mask of its unvisited
//! neighbours ([`Unvisited`]), so the current cell finds its choices in one byte instead of
//! reading each neighbour's mark (once when it is reached and again each time a child returns).
//! On a full hex grid the search runs on the padded layout of [`HexLayout`] instead: a step
//! is one add and a visit six byte updates at fixed offsets ([`HexMoves`]), with the same
//! draws and passages. The stack is a slice with room for every cell (each is pushed once),
//! not a growing vector, and the current cell is kept out of it (as on the square grid). A
//! step is then a chain of dependent loads (the mask, the draw, the next cell's neighbours), so
//! a batch worker makes two mazes of one graph at once ([`generate_pair`]), their steps
//! interleaved one by one: each search's chain runs while the other's waits. The two end
//! together (each cell is entered once and left once, whatever the draws).

use super::hex_layout::{HexLayout, HexMoves, SEEN};
use super::{by_stride, candidates, random_cell, slots_with, GraphScratch, Unvisited};
use crate::rng::RandomSource;
use crate::topo::{CellGraph, GraphMaze};

/// One search over a graph whose cells have at most 8 neighbours: the current cell, its
/// ancestors (`stack[..top]`, room for every cell) and the masks of unvisited neighbours.
/// `K` is the stride of the masks' visits ([`Unvisited`]).
struct Search<'a, const K: usize> {
    open: Unvisited<'a, K>,
    stack: &'a mut [u32],
    top: usize,
    /// The current cell, kept out of the stack: a step reads its mask without waiting on the
    /// store of the step before.
    cur: u32,
}

impl<'a, const K: usize> Search<'a, K> {
    /// Start at a random cell of `g` (the first draw).
    #[inline(always)]
    fn begin<R: RandomSource>(
        g: &'a CellGraph,
        s: &'a mut GraphScratch,
        rng: &mut R,
    ) -> Search<'a, K> {
        let mut open = Unvisited::new(g, &mut s.open);
        let start = random_cell(g, rng);
        // SAFETY: a drawn cell is a cell id.
        unsafe { open.visit(start) };
        // Each cell is pushed once (when it is visited).
        let len = g.len() as usize;
        if s.stack.len() < len {
            s.stack.resize(len, 0);
        }
        Search {
            open,
            stack: &mut s.stack[..len],
            top: 0,
            cur: start,
        }
    }

    /// One step: carve to a random unvisited neighbour of the current cell (slot order,
    /// `choose`) or go back to its parent when it has none. False, with nothing changed, once
    /// the first cell has none left.
    #[inline(always)]
    fn advance<R: RandomSource>(&mut self, maze: &mut GraphMaze, rng: &mut R) -> bool {
        let u = self.cur;
        let m = self.open.of(u);
        if m == 0 {
            if self.top == 0 {
                return false;
            }
            self.top -= 1;
            // SAFETY: `top < stack.len()`: it moved up only past a store at `stack[top]`.
            self.cur = unsafe { *self.stack.get_unchecked(self.top) };
            return true;
        }
        // SAFETY: `u` is a cell id (a drawn cell or a carved-to neighbour) and `m` its mask.
        self.cur = unsafe { self.open.carve(maze, u, m, rng) };
        self.stack[self.top] = u;
        self.top += 1;
        true
    }
}

/// One search on a full hex grid's padded layout: the current walker, its ancestors
/// (`stack[..top]`, room for every cell) and the masks of unvisited directions ([`HexMoves`]).
struct HexSearch<'a> {
    open: &'a mut [u8],
    edges: &'a [u32],
    stack: &'a mut [u64],
    top: usize,
    /// The current walker, kept out of the stack (as in [`Search`]).
    cur: u64,
}

impl<'a> HexSearch<'a> {
    /// Start at a random cell of `g` (the first draw), in `s`'s buffers.
    #[inline(always)]
    fn begin<R: RandomSource>(
        g: &CellGraph,
        mv: &HexMoves,
        s: &'a mut GraphScratch,
        rng: &mut R,
    ) -> HexSearch<'a> {
        let (open, stack) = (&mut s.open, &mut s.wide);
        let (_, edges, v) = mv.start(g, open, &mut s.hex, rng);
        // Each cell is pushed once (when it is visited).
        let len = g.len() as usize;
        if stack.len() < len {
            stack.resize(len, 0);
        }
        HexSearch {
            open,
            edges,
            stack: &mut stack[..len],
            top: 0,
            cur: v,
        }
    }

    /// One step, as [`Search::advance`].
    #[inline(always)]
    fn advance<R: RandomSource>(
        &mut self,
        mv: &HexMoves,
        maze: &mut GraphMaze,
        rng: &mut R,
    ) -> bool {
        let v = self.cur;
        let m = self.open[HexMoves::index(v)] & !SEEN;
        if m == 0 {
            if self.top == 0 {
                return false;
            }
            self.top -= 1;
            // SAFETY: `top < stack.len()`: it moved up only past a store at `stack[top]`.
            self.cur = unsafe { *self.stack.get_unchecked(self.top) };
            return true;
        }
        self.cur = mv.carve(self.open, self.edges, maze, v, m, rng);
        self.stack[self.top] = v;
        self.top += 1;
        true
    }
}

/// One maze (see the module docs).
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    if let Some(l) = HexLayout::of(g) {
        let mv = HexMoves::new(l);
        let mut search = HexSearch::begin(g, &mv, s, rng);
        while search.advance(&mv, maze, rng) {}
        return;
    }
    if g.full_masks().is_none() {
        return scan(g, maze, s, rng);
    }
    by_stride!(g, K => search::<K, _>(g, maze, s, rng))
}

/// [`generate`] by the masks of [`Unvisited`], whose visits clear `K` bits.
fn search<const K: usize, R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    let mut search = Search::<K>::begin(g, s, rng);
    while search.advance(maze, rng) {}
}

/// Two mazes of `g` at once, each with its own buffers and random source: exactly the mazes
/// [`generate`] makes of each alone (each search takes its own draws in its own order). The
/// steps are interleaved one by one; both searches take `2 · (cells − 1)` steps, so they end
/// together. A graph with a cell of more than 8 neighbours makes the two one after the other.
pub(super) fn generate_pair<RA: RandomSource, RB: RandomSource>(
    g: &CellGraph,
    (ma, sa, ra): (&mut GraphMaze, &mut GraphScratch, &mut RA),
    (mb, sb, rb): (&mut GraphMaze, &mut GraphScratch, &mut RB),
) {
    if let Some(l) = HexLayout::of(g) {
        let mv = HexMoves::new(l);
        let mut a = HexSearch::begin(g, &mv, sa, ra);
        let mut b = HexSearch::begin(g, &mv, sb, rb);
        while a.advance(&mv, ma, ra) {
            let more_b = b.advance(&mv, mb, rb);
            debug_assert!(more_b);
        }
        debug_assert!(!b.advance(&mv, mb, rb));
        return;
    }
    if g.full_masks().is_none() {
        scan(g, ma, sa, ra);
        return scan(g, mb, sb, rb);
    }
    by_stride!(g, K => search_pair::<K, _, _>(g, (ma, sa, ra), (mb, sb, rb)))
}

/// [`generate_pair`] by the masks of [`Unvisited`], whose visits clear `K` bits.
fn search_pair<const K: usize, RA: RandomSource, RB: RandomSource>(
    g: &CellGraph,
    (ma, sa, ra): (&mut GraphMaze, &mut GraphScratch, &mut RA),
    (mb, sb, rb): (&mut GraphMaze, &mut GraphScratch, &mut RB),
) {
    let mut a = Search::<K>::begin(g, sa, ra);
    let mut b = Search::<K>::begin(g, sb, rb);
    while a.advance(ma, ra) {
        let more_b = b.advance(mb, rb);
        debug_assert!(more_b);
    }
    debug_assert!(!b.advance(mb, rb));
}

/// [`generate`] reading the neighbours' marks (any degree).
pub(super) fn scan<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    s.marks(g.len());
    let start = random_cell(g, rng);
    s.mark[start as usize] = 1;
    s.stack.clear();
    s.stack.push(start);
    let mut opts = std::mem::take(&mut s.next);
    candidates(g, &mut opts);
    while let Some(&u) = s.stack.last() {
        let k = slots_with(g, &s.mark, u, 0, &mut opts);
        if k == 0 {
            s.stack.pop();
            continue;
        }
        let slot = opts[rng.choose(k) as usize];
        let v = g.nbr(slot);
        maze.open(g.edge(slot));
        s.mark[v as usize] = 1;
        s.stack.push(v);
    }
    s.next = opts;
}
