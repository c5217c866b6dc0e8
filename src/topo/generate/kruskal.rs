//! Kruskal on a cell graph: the edges in a uniformly shuffled order (Fisher–Yates with
//! unbiased `below`), each opened when its two cells are not yet joined (union-find).
//!
//! Speed: the batch's generator runs on a copy in locals, stored back once (the same draws);
//! the union loop works on the borrowed forest and opens an edge without a branch on whether
//! it joined two sets (a coin flip to the branch predictor).

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
    if let Some(rng) = rng.as_rng() {
        let mut local = rng.clone();
        join(g, maze, s, &mut local);
        *rng = local;
    } else {
        join(g, maze, s, rng);
    }
}

/// The shuffle and the union loop of [`generate`].
#[inline(always)]
fn join<R: RandomSource>(g: &CellGraph, maze: &mut GraphMaze, s: &mut GraphScratch, rng: &mut R) {
    s.order.clear();
    s.order.extend(0..g.edges());
    let order = &mut s.order[..];
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        order.swap(i, j);
    }
    s.dsu.reset(g.len());
    let mut forest = s.dsu.forest();
    let mut left = g.cells() - 1;
    for &e in order.iter() {
        if left == 0 {
            break;
        }
        let [a, b] = g.ends(e);
        let joined = forest.union(a, b);
        maze.open_if(e, joined);
        left -= joined as u32;
    }
}
