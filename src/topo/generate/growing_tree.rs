//! Growing tree on a cell graph: an active list of cells (insertion order kept), starting with a
//! random cell; each step picks an active cell by the policy (`newest`: the last; `oldest`: the
//! first; `random`: uniform; `mix:P`: the last with probability `P`, else uniform), opens the
//! edge to one of its unvisited neighbours (uniform, slot order) and appends that neighbour, or
//! removes the cell from the list when it has none.
//!
//! Speed: where no cell has more than 8 neighbours, each cell keeps the mask of its unvisited
//! neighbours ([`Unvisited`]), so a picked cell finds its choices in one byte.

use super::{candidates, count, random_cell, slot_at, slots_with, GraphScratch, Unvisited};
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
    let Some(full) = g.full_masks() else {
        return scan(g, maze, s, rng, policy);
    };
    let mut open = Unvisited::new(full, &mut s.open);
    let active = &mut s.stack;
    active.clear();
    let start = random_cell(g, rng);
    open.visit(g, start);
    active.push(start);
    // `oldest` removes from the front: keep a head index instead of shifting the list.
    let mut head = 0usize;
    while head < active.len() {
        let i = pick(active.len() - head, policy, rng) + head;
        let u = active[i];
        let m = open.of(u);
        if m == 0 {
            retire(active, &mut head, i);
            continue;
        }
        let slot = slot_at(g, u, m, rng.choose(count(m)));
        let v = g.nbr(slot);
        open.visit(g, v);
        maze.open(g.edge(slot));
        active.push(v);
    }
}

/// The index of the picked cell among the `live` active ones (the policy's draws).
#[inline(always)]
fn pick<R: RandomSource>(live: usize, policy: Policy, rng: &mut R) -> usize {
    match policy {
        Policy::Newest => live - 1,
        Policy::Oldest => 0,
        Policy::Random => rng.choose(live as u32) as usize,
        Policy::Mix(p) => {
            if rng.unit_below(Chance::new(p)) {
                live - 1
            } else {
                rng.choose(live as u32) as usize
            }
        }
    }
}

/// Take active cell `i` off the list (`head` and on are live): the head moves on, any other
/// is removed in place (the list keeps its order).
#[inline(always)]
fn retire(active: &mut Vec<u32>, head: &mut usize, i: usize) {
    if i == *head {
        *head += 1;
    } else {
        active.remove(i);
    }
}

/// [`generate`] reading the neighbours' marks (any degree).
pub(super) fn scan<R: RandomSource>(
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
        let i = pick(active.len() - head, policy, rng) + head;
        let u = active[i];
        let k = slots_with(g, &s.mark, u, 0, &mut opts);
        if k == 0 {
            retire(active, &mut head, i);
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
