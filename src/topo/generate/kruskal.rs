//! Kruskal on a cell graph: the edges in a uniformly shuffled order (Fisher–Yates with
//! unbiased `below`), each opened when its two cells are not yet joined (union-find).

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
    s.order.clear();
    s.order.extend(0..g.edges());
    for i in (1..s.order.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        s.order.swap(i, j);
    }
    s.dsu.reset(g.len());
    let mut left = g.cells() - 1;
    for &e in &s.order {
        if left == 0 {
            break;
        }
        let [a, b] = g.ends(e);
        if s.dsu.union(a, b) {
            maze.open(e);
            left -= 1;
        }
    }
}
