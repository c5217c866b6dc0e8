//! Recursive backtracker on a cell graph (iterative): from a random cell, step to a random
//! unvisited neighbour (slot order, `choose`), carving; when there is none, back up the stack.

use super::{candidates, random_cell, slots_with, GraphScratch};
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
