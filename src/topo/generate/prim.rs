//! Simplified Prim on a cell graph: from a random cell, keep a list of the frontier slots (from a
//! tree cell to a neighbour); take a uniform one (swap-remove); when its neighbour is not in the
//! tree yet, open it and add that cell's slots to cells outside the tree.
//!
//! Speed: a frontier entry holds the slot's neighbour and edge, not the slot, so a draw tests
//! the cell it drew without first loading it through the slot; the buffer keeps its size across
//! mazes (only entries below the length are read); the batch's generator runs on a copy in
//! locals, stored back once (the same draws). A stale draw (the neighbour joined meanwhile) is
//! skipped by a branch, which mispredicts often (on a hex grid about two thirds of the draws
//! are stale), yet a branch-free loop that pushes every drawn cell's slots with none kept when
//! stale, over a fixed number of slots per cell, was slower: whole runs of `batchgen --algo
//! prim --grid hex --size 64x64 --count 3000 --threads 1` took 0.74 to 0.84 s of user time
//! against 0.55 to 0.58 s, as the length the next draw needs then waits on the marks of every
//! drawn cell's neighbours, where a predicted skip does not.

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
    if let Some(rng) = rng.as_rng() {
        let mut local = rng.clone();
        grow(g, maze, s, &mut local);
        *rng = local;
    } else {
        grow(g, maze, s, rng);
    }
}

/// The loop of [`generate`]. Entry `k` of the frontier is `front[2k]`, the neighbour of its
/// slot, and `front[2k + 1]`, the slot's edge: a draw reads the cell it tests at once, not
/// through the slot (one load less on the path from one draw to the next).
#[inline(always)]
fn grow<R: RandomSource>(g: &CellGraph, maze: &mut GraphMaze, s: &mut GraphScratch, rng: &mut R) {
    s.marks(g.len());
    let start = random_cell(g, rng);
    // A slot joins the frontier at most once (when its cell joins the tree), so the buffer
    // holds every edge once, plus one cell's slots written past the length; only entries
    // below the length are read, so it is never re-zeroed.
    let room = 2 * (g.edges() as usize + g.max_degree() as usize + 1);
    let front = &mut s.next;
    if front.len() < room {
        front.resize(room, 0);
    }
    let front = &mut front[..];
    let mark = &mut s.mark[..];
    mark[start as usize] = 1;
    let mut len = push(g, front, mark, 0, start);
    while len > 0 {
        let i = rng.choose(len as u32) as usize;
        let (v, e) = (front[2 * i], front[2 * i + 1]);
        len -= 1;
        front[2 * i] = front[2 * len];
        front[2 * i + 1] = front[2 * len + 1];
        if mark[v as usize] != 0 {
            continue;
        }
        mark[v as usize] = 1;
        maze.open(e);
        len = push(g, front, mark, len, v);
    }
}

/// Push the slots of cell `c` to cells outside the tree onto `front` (see [`grow`]) from entry
/// `len` on, in slot order, without a branch on the marks (each slot is written, and the
/// length moves past it only when its neighbour is outside); returns the new length.
#[inline(always)]
fn push(g: &CellGraph, front: &mut [u32], mark: &[u8], mut len: usize, c: u32) -> usize {
    for t in g.slots(c) {
        let v = g.nbr(t);
        front[2 * len] = v;
        front[2 * len + 1] = g.edge(t);
        len += (mark[v as usize] == 0) as usize;
    }
    len
}
