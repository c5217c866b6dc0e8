//! Hunt-and-kill on a cell graph: a random walk to unvisited neighbours (uniform, slot order)
//! from a random cell, opening each step; when it is stuck, the hunt scans the cells in id order
//! for the first unvisited cell with a visited neighbour, joins it to one of those (uniform) and
//! walks on from it. The scan resumes where the last one found no cell before it unvisited.

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
    let mut opts = std::mem::take(&mut s.next);
    candidates(g, &mut opts);
    let mut u = random_cell(g, rng);
    s.mark[u as usize] = 1;
    let mut left = g.cells() - 1;
    // Every id before `lo` is visited or a hole.
    let mut lo = 0usize;
    let ids = g.ids();
    while left > 0 {
        let k = slots_with(g, &s.mark, u, 0, &mut opts);
        if k > 0 {
            let slot = opts[rng.choose(k) as usize];
            u = g.nbr(slot);
            s.mark[u as usize] = 1;
            maze.open(g.edge(slot));
            left -= 1;
            continue;
        }
        // Hunt.
        while s.mark[ids[lo] as usize] != 0 {
            lo += 1;
        }
        let mut i = lo;
        loop {
            let c = ids[i];
            if s.mark[c as usize] == 0 {
                let k = slots_with(g, &s.mark, c, 1, &mut opts);
                if k > 0 {
                    let slot = opts[rng.choose(k) as usize];
                    s.mark[c as usize] = 1;
                    maze.open(g.edge(slot));
                    left -= 1;
                    u = c;
                    break;
                }
            }
            i += 1;
        }
    }
    s.next = opts;
}
