//! Simplified Prim on a cell graph: from a random cell, keep a list of the frontier slots (from a
//! tree cell to a neighbour); take a uniform one (swap-remove); when its neighbour is not in the
//! tree yet, open it and add that cell's slots to cells outside the tree.

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
    s.marks(g.len());
    let front = &mut s.next;
    front.clear();
    let start = random_cell(g, rng);
    s.mark[start as usize] = 1;
    front.extend(g.slots(start));
    while !front.is_empty() {
        let i = rng.choose(front.len() as u32) as usize;
        let slot = front.swap_remove(i);
        let v = g.nbr(slot);
        if s.mark[v as usize] != 0 {
            continue;
        }
        s.mark[v as usize] = 1;
        maze.open(g.edge(slot));
        for t in g.slots(v) {
            if s.mark[g.nbr(t) as usize] == 0 {
                front.push(t);
            }
        }
    }
}
