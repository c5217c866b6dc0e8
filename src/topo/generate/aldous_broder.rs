//! Aldous–Broder on a cell graph: a random walk (each step to a uniform neighbour, `below` of
//! the cell's degree) from a random cell; the first entry into each cell opens the edge it came
//! by. Uniform over the spanning trees of the graph. The walk moves by [`super::walk_steps`]
//! (on a hex grid, by additions: the same draws and cells, fewer dependent reads).

use super::walk_steps::{self, Steps, Walk};
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
    walk_steps::run::<AldousBroder, R>(g, maze, s, rng)
}

/// The walk's loop.
struct AldousBroder;

impl Walk for AldousBroder {
    #[inline(always)]
    fn walk<R: RandomSource, S: Steps, D: Fn(&mut R, u32) -> u32>(
        g: &CellGraph,
        steps: &S,
        maze: &mut GraphMaze,
        s: &mut GraphScratch,
        rng: &mut R,
        draw: D,
    ) {
        s.marks(g.len());
        let mark = &mut s.mark[..];
        let first = random_cell(g, rng);
        let mut p = steps.at(g, first);
        mark[first as usize] = 1;
        let mut left = g.cells() - 1;
        while left > 0 {
            let slot = steps.step(g, &mut p, rng, &draw);
            // SAFETY: a neighbour is a cell, below `len()`, the length of `mark`.
            let m = unsafe { mark.get_unchecked_mut(S::cell(&p) as usize) };
            if *m == 0 {
                *m = 1;
                maze.open(g.edge(slot));
                left -= 1;
            }
        }
    }
}
