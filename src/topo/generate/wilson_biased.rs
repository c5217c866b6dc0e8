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

use super::walk_steps::{FastSteps, HexSteps, SLOW};
use super::GraphScratch;
use crate::rng::{Chance, RandomSource};
use crate::topo::{CellGraph, GraphMaze};

/// One maze (see the module docs): `straight` for `wilson-straight:p`, else `wilson-turn:p`.
///
/// The walk's byte per cell carries the tree mark ([`IN`]) and [`SLOW`]: a cell
/// with six neighbours has slot `d` in direction `d`, so a step after the first from such a
/// cell takes its preference and its uniform choice from the direction alone (the same draws as
/// the slot lists give, without reading them), and the walker moves by additions
/// ([`HexSteps`]). Other cells, and each walk's first step, take the slot lists ([`slot_step`]).
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
    s.mark[ids[ids.len() / 2] as usize] = IN;
    let steps = HexSteps::new(g);
    steps.mark_slow(g, &mut s.mark);
    // Per last direction, the turns from a cell with six neighbours: the other directions but
    // straight on and back, in slot order.
    let turn: [[u32; 4]; 6] = std::array::from_fn(|last| {
        let back = g.opposite(last as u8) as usize;
        let mut t = (0..6).filter(|&d| d != last && d != back);
        std::array::from_fn(|_| t.next().expect("four turns") as u32)
    });
    for &start in ids {
        if s.mark[start as usize] & IN != 0 {
            continue;
        }
        let mut p = steps.at(g, start);
        let mut b = s.mark[start as usize];
        let mut last = u8::MAX;
        while b & IN == 0 {
            let u = HexSteps::cell(&p);
            let (slot, d) = if b & SLOW == 0 && last != u8::MAX {
                let l = last as usize % 6;
                // The preference is a coin flip: it selects between the preferred and the
                // uniform step without a branch, drawing what the branch would draw.
                let prefer = rng.unit_below(chance);
                let d = if straight {
                    // Straight on, or `choose(6)` (drawn only then).
                    let c = rng.choose_flat_when(!prefer, 6);
                    std::hint::select_unpredictable(prefer, l as u32, c)
                } else {
                    // `choose(4)` of the turns, or `choose(6)`: one draw either way.
                    let c = rng.choose_flat(std::hint::select_unpredictable(prefer, 4, 6));
                    std::hint::select_unpredictable(prefer, turn[l][c as usize % 4], c)
                };
                (g.slots(u).start + d, d)
            } else {
                let slot = slot_step(g, u, last, straight, chance, rng, &mut turns);
                (slot, g.dir(slot) as u32)
            };
            s.next[u as usize] = slot;
            last = d as u8;
            steps.fast(&mut p, d);
            debug_assert_eq!(HexSteps::cell(&p), g.nbr(slot));
            b = s.mark[HexSteps::cell(&p) as usize];
        }
        join(g, maze, s, start);
    }
    s.stack = turns;
}

/// In the tree: bit 0 of a cell's mark, which [`join`] tests and sets (the walks of
/// [`generate`] and of Wilson on hex and polar grids keep [`SLOW`] beside it).
pub(super) const IN: u8 = 1;

/// The slot of a step from `u` by its slot list, the walk having come in by direction `last`
/// (`u8::MAX` before the first step): the preferred slot with the chance when there is one,
/// else a uniform one. `turns` is a reused buffer.
#[inline]
fn slot_step<R: RandomSource>(
    g: &CellGraph,
    u: u32,
    last: u8,
    straight: bool,
    chance: Chance,
    rng: &mut R,
    turns: &mut Vec<u32>,
) -> u32 {
    let slots = g.slots(u);
    if last != u8::MAX {
        if straight {
            if let Some(t) = slots.clone().find(|&t| g.dir(t) == last) {
                if rng.unit_below(chance) {
                    return t;
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
                return turns[rng.choose(turns.len() as u32) as usize];
            }
        }
    }
    slots.start + rng.choose(slots.end - slots.start)
}

/// Retrace the walk from `start` along `next` until the tree, opening each edge and adding each
/// cell to the tree: the loop-erased walk.
#[inline]
pub(super) fn join(g: &CellGraph, maze: &mut GraphMaze, s: &mut GraphScratch, start: u32) {
    let (mark, next) = (&mut s.mark[..], &s.next[..]);
    let mut u = start;
    loop {
        let m = &mut mark[u as usize];
        if *m & IN != 0 {
            break;
        }
        *m |= IN;
        let slot = next[u as usize];
        maze.open(g.edge(slot));
        u = g.nbr(slot);
    }
}
