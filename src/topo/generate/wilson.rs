//! Wilson on a cell graph: the root is the middle cell of [`CellGraph::ids`]; every other cell,
//! in id order, starts a random walk (uniform neighbour each step) that runs until it meets the
//! tree, remembering the slot it last left each cell by (`next`); retracing those slots from the
//! start is the loop-erased walk, which joins the tree. Uniform over the spanning trees.

use super::GraphScratch;
use crate::rng::RandomSource;
use crate::topo::{CellGraph, GraphMaze};

/// One maze (see the module docs).
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    // `choose(n)` is `below(n)` when `n > 1` (the same draws and values): where every cell has
    // two neighbours or more, the walk skips its test for `n == 1`.
    if g.min_degree() >= 2 {
        walks(g, maze, s, rng, R::below)
    } else {
        walks(g, maze, s, rng, R::choose)
    }
}

#[inline(always)]
fn walks<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
    draw: impl Fn(&mut R, u32) -> u32,
) {
    s.marks(g.len());
    s.next.clear();
    s.next.resize(g.len() as usize, 0);
    let ids = g.ids();
    s.mark[ids[ids.len() / 2] as usize] = 1;
    for &start in ids {
        if s.mark[start as usize] != 0 {
            continue;
        }
        let (mark, next) = (&s.mark[..], &mut s.next[..]);
        let mut u = start;
        // `u` is always a cell (the start, then a neighbour): below `len()`, the length of
        // `mark` and `next`.
        // SAFETY: `u < len()`.
        while unsafe { *mark.get_unchecked(u as usize) } == 0 {
            // SAFETY: `u < len()`.
            let (a, n) = unsafe { g.slot_span_unchecked(u) };
            let slot = a + draw(rng, n);
            // SAFETY: `u < len()`.
            unsafe { *next.get_unchecked_mut(u as usize) = slot };
            u = g.nbr(slot);
        }
        super::wilson_biased::join(g, maze, s, start);
    }
}
