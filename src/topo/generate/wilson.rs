//! Wilson on a cell graph: the root is the middle cell of [`CellGraph::ids`]; every other cell,
//! in id order, starts a random walk (uniform neighbour each step) that runs until it meets the
//! tree, remembering the slot it last left each cell by (`next`); retracing those slots from the
//! start is the loop-erased walk, which joins the tree. Uniform over the spanning trees. The
//! walks move by [`super::walk_steps`] (on a hex grid, by additions: the same draws and cells,
//! fewer dependent reads).

use super::walk_steps::{self, Steps, Walk};
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
    walk_steps::run::<Wilson, R>(g, maze, s, rng)
}

/// The walks' loop.
struct Wilson;

impl Walk for Wilson {
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
        s.next.clear();
        s.next.resize(g.len() as usize, 0);
        let ids = g.ids();
        s.mark[ids[ids.len() / 2] as usize] = 1;
        for &start in ids {
            if s.mark[start as usize] != 0 {
                continue;
            }
            let (mark, next) = (&s.mark[..], &mut s.next[..]);
            let mut p = steps.at(g, start);
            // The walker's cell is always a cell (the start, then a neighbour): below `len()`,
            // the length of `mark` and `next`.
            // SAFETY: `S::cell(&p) < len()`.
            while unsafe { *mark.get_unchecked(S::cell(&p) as usize) } == 0 {
                let u = S::cell(&p);
                let slot = steps.step(g, &mut p, rng, &draw);
                // SAFETY: `u < len()`.
                unsafe { *next.get_unchecked_mut(u as usize) = slot };
            }
            super::wilson_biased::join(g, maze, s, start);
        }
    }
}
