//! Biased Wilson on a hex grid (`wilson-straight:P`, `wilson-turn:P`): Wilson's loop-erased
//! walks where a step after the first prefers to go straight on, or to turn. On a hex grid
//! "straight on" is leaving a cell by the side opposite the one the walk came in by: the same
//! direction label as the last step. `wilson-straight:P` takes that side with probability `P`
//! when it exists; `wilson-turn:P` takes, with probability `P` when there is one, a uniform
//! choice among the sides that are neither straight on nor back (the 60° and 120° turns, up to
//! four); otherwise a step goes to a uniform neighbour. **Not uniform**, as on the square grid.
//! The loop erasure keeps the last exit of each cell, which gives a spanning tree for any walk.
//!
//! The other grids refuse it ([`super::check`]): a triangle has no opposite sides and a polar
//! cell's outward neighbours are not one direction.

use super::GraphScratch;
use crate::rng::{Chance, RandomSource};
use crate::topo::{CellGraph, GraphMaze};

/// One maze (see the module docs): `straight` for `wilson-straight:p`, else `wilson-turn:p`.
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
    straight: bool,
    p: f64,
) {
    let chance = Chance::new(p);
    s.marks(g.len());
    s.next.clear();
    s.next.resize(g.len() as usize, 0);
    let mut turns = std::mem::take(&mut s.stack);
    let ids = g.ids();
    s.mark[ids[ids.len() / 2] as usize] = 1;
    for &start in ids {
        if s.mark[start as usize] != 0 {
            continue;
        }
        let mut u = start;
        let mut last = u8::MAX;
        while s.mark[u as usize] == 0 {
            let slots = g.slots(u);
            let mut slot = u32::MAX;
            if last != u8::MAX {
                if straight {
                    if let Some(t) = slots.clone().find(|&t| g.dir(t) == last) {
                        if rng.unit_below(chance) {
                            slot = t;
                        }
                    }
                } else {
                    let back = g.opposite(last);
                    turns.clear();
                    turns.extend(
                        slots
                            .clone()
                            .filter(|&t| g.dir(t) != last && g.dir(t) != back),
                    );
                    if !turns.is_empty() && rng.unit_below(chance) {
                        slot = turns[rng.choose(turns.len() as u32) as usize];
                    }
                }
            }
            if slot == u32::MAX {
                slot = slots.start + rng.choose(slots.end - slots.start);
            }
            s.next[u as usize] = slot;
            last = g.dir(slot);
            u = g.nbr(slot);
        }
        join(g, maze, s, start);
    }
    s.stack = turns;
}

/// Retrace the walk from `start` along `next` until the tree, opening each edge and adding each
/// cell to the tree: the loop-erased walk.
#[inline]
pub(super) fn join(g: &CellGraph, maze: &mut GraphMaze, s: &mut GraphScratch, start: u32) {
    let (mark, next) = (&mut s.mark[..], &s.next[..]);
    let mut u = start;
    loop {
        let m = &mut mark[u as usize];
        if *m != 0 {
            break;
        }
        *m = 1;
        let slot = next[u as usize];
        maze.open(g.edge(slot));
        u = g.nbr(slot);
    }
}
