//! The classic row generators on a polar grid, ring by ring from the centre outward.
//!
//! - **Binary tree**: every cell but the centre opens one edge, chosen uniformly between its
//!   inward neighbour and its counter-clockwise neighbour (cell `i − 1` of its ring); cell 0 of
//!   a ring has only the inward one (no draw). Every cell links to a cell of smaller id, so the
//!   result is a spanning tree rooted at the centre.
//! - **Sidewinder**: each ring from ring 1 is walked clockwise from cell 0 in runs; at each cell
//!   a fair coin says whether the run closes (the last cell of a ring always closes it); an open
//!   run extends clockwise (the edge to cell `i + 1` is opened), a closed run opens the inward
//!   edge of one of its cells, drawn uniformly. The edge from the last cell of a ring back to
//!   cell 0 is never opened, so every ring is a set of runs each hanging inward: a spanning
//!   tree.

use crate::rng::RandomSource;
use crate::topo::{CellGraph, GraphMaze};

/// The slot of `u` whose direction label is `d` (the first one).
#[inline]
fn slot_of(g: &CellGraph, u: u32, d: u8) -> u32 {
    g.slots(u)
        .find(|&s| g.dir(s) == d)
        .expect("the neighbour exists")
}

/// Binary tree (see the module docs).
pub(super) fn binary_tree<R: RandomSource>(g: &CellGraph, maze: &mut GraphMaze, rng: &mut R) {
    for c in 1..g.len() {
        let (_, i) = g.ring_of(c);
        let inward = slot_of(g, c, 3);
        let slot = if i == 0 || rng.coin() {
            inward
        } else {
            slot_of(g, c, 2)
        };
        maze.open(g.edge(slot));
    }
}

/// Sidewinder (see the module docs).
pub(super) fn sidewinder<R: RandomSource>(g: &CellGraph, maze: &mut GraphMaze, rng: &mut R) {
    let mut c = 1;
    for r in 1..g.rings() {
        let n = g.ring_len(r);
        let first = c;
        let mut run = first;
        for i in 0..n {
            let cell = first + i;
            if i + 1 == n || rng.coin() {
                let pick = run + rng.choose(cell - run + 1);
                maze.open(g.edge(slot_of(g, pick, 3)));
                run = cell + 1;
            } else {
                maze.open(g.edge(slot_of(g, cell, 0)));
            }
        }
        c += n;
    }
}
