//! Growing tree on a cell graph: an active list of cells (insertion order kept), starting with a
//! random cell; each step picks an active cell by the policy (`newest`: the last; `oldest`: the
//! first; `random`: uniform; `mix:P`: the last with probability `P`, else uniform), opens the
//! edge to one of its unvisited neighbours (uniform, slot order) and appends that neighbour, or
//! removes the cell from the list when it has none.
//!
//! Speed: where no cell has more than 8 neighbours, each cell keeps the mask of its unvisited
//! neighbours ([`Unvisited`]), so a picked cell finds its choices in one byte. The default
//! `mix:P` has its own loop ([`mix`]): no branch on the policy's coin, and a retired cell's
//! entry leaves a list of 16-bit ids by the shorter shift (median `gen_ns` per cell of
//! `benches/grids.sh`'s 64x64 hex run, three runs in turn, 31 ns against 46 to 47 ns with the
//! general loop).

use super::{by_stride, candidates, random_cell, slots_with, GraphScratch, Unvisited};
use crate::generate::Policy;
use crate::rng::{with_local_rng, Chance, RandomSource};
use crate::topo::{CellGraph, GraphMaze};

/// One maze (see the module docs).
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
    policy: Policy,
) {
    if g.full_masks().is_none() {
        return scan(g, maze, s, rng, policy);
    }
    if let (Policy::Mix(p), true) = (policy, g.len() <= 1 << 16) {
        let newest = Chance::new(p);
        return with_local_rng!(rng, |r| mix(g, maze, s, r, newest));
    }
    by_stride!(g, K => grow::<K, _>(g, maze, s, rng, policy))
}

/// [`generate`] by the masks of [`Unvisited`], whose visits clear `K` bits, for any policy.
fn grow<const K: usize, R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
    policy: Policy,
) {
    let mut open = Unvisited::<K>::new(g, &mut s.open);
    let active = &mut s.stack;
    active.clear();
    let start = random_cell(g, rng);
    // SAFETY: a drawn cell is a cell id.
    unsafe { open.visit(start) };
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
        // SAFETY: `u` is a cell id (a drawn cell or a carved-to neighbour) and `m` its mask.
        let v = unsafe { open.carve(maze, u, m, rng) };
        active.push(v);
    }
}

/// [`generate`] with the `mix:P` policy on a graph of at most `2^16` cells: the same draws,
/// picks and passages. The coin only selects between the newest entry and a drawn one, whose
/// draw [`RandomSource::choose_flat`] keeps or drops without a branch on the coin (a coin flip
/// to the branch predictor). The active list holds 16-bit cell ids in `s.narrow`, and a retired
/// cell leaves it by shifting the shorter side of the list, the entries before it up (the head
/// moves on) or those after it down, so that removal in place, which keeps the order the picks
/// index, moves a quarter of the bytes of a shift of 32-bit entries from the end. Its visits
/// loop over the cell's slots: with the fixed-count visits of [`Unvisited`] a 64x64 triangle
/// grid's mazes took 1.06× the time (`benches/generators.sh OLD NEW 7 -- --algo growing-tree
/// --grid triangle --size 64x64 --count 2000`).
fn mix<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
    newest: Chance,
) {
    let mut open = Unvisited::<0>::new(g, &mut s.open);
    // Every cell enters the list once.
    let cells = g.cells() as usize;
    if s.narrow.len() < cells {
        s.narrow.resize(cells, 0);
    }
    let active = &mut s.narrow[..];
    let start = random_cell(g, rng);
    // SAFETY: a drawn cell is a cell id.
    unsafe { open.visit(start) };
    active[0] = start as u16;
    // The live entries are `head..len`.
    let (mut head, mut len) = (0usize, 1usize);
    while head < len {
        let live = len - head;
        let take_newest = rng.unit_below(newest);
        let n = std::hint::select_unpredictable(take_newest, 1, live as u32);
        let drawn = rng.choose_flat(n) as usize;
        let i = head + std::hint::select_unpredictable(take_newest, live - 1, drawn);
        let u = active[i] as u32;
        let m = open.of(u);
        if m == 0 {
            if i - head < len - 1 - i {
                active.copy_within(head..i, head + 1);
                head += 1;
            } else {
                active.copy_within(i + 1..len, i);
                len -= 1;
            }
            continue;
        }
        // SAFETY: `u` is a cell id (a drawn cell or a carved-to neighbour) and `m` its mask.
        let v = unsafe { open.carve(maze, u, m, rng) };
        active[len] = v as u16;
        len += 1;
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
