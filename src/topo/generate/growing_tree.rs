//! Growing tree on a cell graph: an active list of cells (insertion order kept), starting with a
//! random cell; each step picks an active cell by the policy (`newest`: the last; `oldest`: the
//! first; `random`: uniform; `mix:P`: the last with probability `P`, else uniform), opens the
//! edge to one of its unvisited neighbours (uniform, slot order) and appends that neighbour, or
//! removes the cell from the list when it has none.

use super::{candidates, random_cell, slots_with, GraphScratch};
use crate::generate::Policy;
use crate::rng::{Chance, RandomSource};
use crate::topo::{CellGraph, GraphMaze};

/// One maze (see the module docs).
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
    policy: Policy,
) {
    s.marks(g.len());
    let mut opts = std::mem::take(&mut s.next);
    candidates(g, &mut opts);
    let active = &mut s.stack;
    active.clear();
    let start = random_cell(g, rng);
    s.mark[start as usize] = 1;
    active.push(start);
    // `oldest` removes from the front: keep a head index instead of shifting the list.
    let mut head = 0usize;
    while head < active.len() {
        let live = (active.len() - head) as u32;
        let i = head
            + match policy {
                Policy::Newest => live as usize - 1,
                Policy::Oldest => 0,
                Policy::Random => rng.choose(live) as usize,
                Policy::Mix(p) => {
                    if rng.unit_below(Chance::new(p)) {
                        live as usize - 1
                    } else {
                        rng.choose(live) as usize
                    }
                }
            };
        let u = active[i];
        let k = slots_with(g, &s.mark, u, 0, &mut opts);
        if k == 0 {
            if i == head {
                head += 1;
            } else {
                active.remove(i);
            }
            continue;
        }
        let slot = opts[rng.choose(k) as usize];
        let v = g.nbr(slot);
        s.mark[v as usize] = 1;
        maze.open(g.edge(slot));
        active.push(v);
    }
    s.next = opts;
}
