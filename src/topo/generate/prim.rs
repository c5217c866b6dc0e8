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
    // The frontier in a buffer long enough for every slot (a slot joins it at most once, when
    // its cell joins the tree), so a slot is added without a branch on its neighbour's mark:
    // it is always written, and the length moves past it only when the neighbour is outside.
    let front = &mut s.next;
    front.clear();
    front.resize(2 * g.edges() as usize + 1, 0);
    let mut len = 0usize;
    let start = random_cell(g, rng);
    s.mark[start as usize] = 1;
    for t in g.slots(start) {
        front[len] = t;
        len += 1;
    }
    while len > 0 {
        let i = rng.choose(len as u32) as usize;
        let slot = front[i];
        len -= 1;
        front[i] = front[len];
        let v = g.nbr(slot);
        if s.mark[v as usize] != 0 {
            continue;
        }
        s.mark[v as usize] = 1;
        maze.open(g.edge(slot));
        for t in g.slots(v) {
            front[len] = t;
            len += (s.mark[g.nbr(t) as usize] == 0) as usize;
        }
    }
}
