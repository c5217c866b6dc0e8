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
    s.marks(g.len());
    let mut u = random_cell(g, rng);
    s.mark[u as usize] = 1;
    let mut left = g.cells() - 1;
    while left > 0 {
        let slots = g.slots(u);
        let slot = slots.start + rng.choose(slots.end - slots.start);
        let v = g.nbr(slot);
        if s.mark[v as usize] == 0 {
            s.mark[v as usize] = 1;
            maze.open(g.edge(slot));
            left -= 1;
        }
        u = v;
    }
}
