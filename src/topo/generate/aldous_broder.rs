//! Aldous–Broder on a cell graph: a random walk (each step to a uniform neighbour, `below` of
//! the cell's degree) from a random cell; the first entry into each cell opens the edge it came
//! by. Uniform over the spanning trees of the graph.

use super::{random_cell, GraphScratch};
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
        walk(g, maze, s, rng, R::below)
    } else {
        walk(g, maze, s, rng, R::choose)
    }
}

#[inline(always)]
fn walk<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
    draw: impl Fn(&mut R, u32) -> u32,
) {
    s.marks(g.len());
    let mark = &mut s.mark[..];
    let mut u = random_cell(g, rng);
    mark[u as usize] = 1;
    let mut left = g.cells() - 1;
    while left > 0 {
        // SAFETY: `u` is a cell (the first one drawn, then always a neighbour), below `len()`.
        let (a, n) = unsafe { g.slot_span_unchecked(u) };
        let slot = a + draw(rng, n);
        let v = g.nbr(slot);
        // SAFETY: a neighbour is a cell, below `len()`, the length of `mark`.
        let m = unsafe { mark.get_unchecked_mut(v as usize) };
        if *m == 0 {
            *m = 1;
            maze.open(g.edge(slot));
            left -= 1;
        }
        u = v;
    }
}
