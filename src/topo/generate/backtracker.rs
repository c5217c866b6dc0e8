//! Recursive backtracker on a cell graph (iterative): from a random cell, step to a random
//! unvisited neighbour (slot order, `choose`), carving; when there is none, back up the stack.
//!
//! Speed: where no cell has more than 8 neighbours, each cell keeps the mask of its unvisited
//! neighbours ([`Unvisited`]), so the top of the stack finds its choices in one byte instead of
//! reading each neighbour's mark (once when it is pushed and again each time a child returns).

use super::{candidates, count, random_cell, slot_at, slots_with, GraphScratch, Unvisited};
use crate::rng::RandomSource;
use crate::topo::{CellGraph, GraphMaze};

/// One maze (see the module docs).
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    let Some(full) = g.full_masks() else {
        return scan(g, maze, s, rng);
    };
    let mut open = Unvisited::new(full, &mut s.open);
    let start = random_cell(g, rng);
    open.visit(g, start);
    s.stack.clear();
    s.stack.push(start);
    while let Some(&u) = s.stack.last() {
        let m = open.of(u);
        if m == 0 {
            s.stack.pop();
            continue;
        }
        let slot = slot_at(g, u, m, rng.choose(count(m)));
        let v = g.nbr(slot);
        maze.open(g.edge(slot));
        open.visit(g, v);
        s.stack.push(v);
    }
}

/// [`generate`] reading the neighbours' marks (any degree).
pub(super) fn scan<R: RandomSource>(
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
