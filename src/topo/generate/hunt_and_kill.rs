//! Hunt-and-kill on a cell graph: a random walk to unvisited neighbours (uniform, slot order)
//! from a random cell, opening each step; when it is stuck, the hunt scans the cells in id order
//! for the first unvisited cell with a visited neighbour, joins it to one of those (uniform) and
//! walks on from it. The scan resumes where the last one found no cell before it unvisited.
//!
//! Speed: where no cell has more than 8 neighbours, each cell keeps the mask of its unvisited
//! neighbours ([`Unvisited`]): a step finds its choices in one byte, and the hunt tells whether
//! an unvisited cell has a visited neighbour by comparing its mask with the full one, instead
//! of reading each neighbour's mark (the walk starts at a random cell, so the cells before it in
//! id order stay unvisited, and are scanned again, for much of the run).
use super::hex_layout::{HexLayout, HexMoves, SEEN};
use super::SELECT;
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
    if let Some(l) = HexLayout::of(g) {
        return hex(g, &l, maze, s, rng);
    }
    let Some(full) = g.full_masks() else {
        return scan(g, maze, s, rng);
    };
    s.marks(g.len());
    let mark = &mut s.mark[..];
    let mut open = Unvisited::new(full, &mut s.open);
    let mut u = random_cell(g, rng);
    mark[u as usize] = 1;
    open.visit(g, u);
    let mut left = g.cells() - 1;
    // Every id before `ids[lo]` is visited or a hole.
    let mut lo = 0usize;
    let ids = g.ids();
    while left > 0 {
        let m = open.of(u);
        if m != 0 {
            let slot = slot_at(g, u, m, rng.choose(count(m)));
            u = g.nbr(slot);
            maze.open(g.edge(slot));
            mark[u as usize] = 1;
            open.visit(g, u);
            left -= 1;
            continue;
        }
        // Hunt: an unvisited cell with a visited neighbour has a bit of its full mask cleared.
        while mark[ids[lo] as usize] != 0 {
            lo += 1;
        }
        let mut i = lo;
        let c = loop {
            let c = ids[i];
            if mark[c as usize] == 0 && open.of(c) != full[c as usize] {
                break c;
            }
            i += 1;
        };
        let seen = full[c as usize] & !open.of(c);
        let slot = slot_at(g, c, seen, rng.choose(count(seen)));
        maze.open(g.edge(slot));
        mark[c as usize] = 1;
        open.visit(g, c);
        left -= 1;
        u = c;
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

/// [`generate`] on a full hex grid, by the moves of [`HexMoves`] on the padded layout of
/// [`HexLayout`] (the direction masks in `s.open`, the full ones in `s.mark`): the same draws
/// and passages, with a step one add, a visit six byte updates at fixed offsets and the hunt a
/// scan of the padded masks in id order.
fn hex<R: RandomSource>(
    g: &CellGraph,
    l: &HexLayout,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    let mv = HexMoves::new(*l);
    mv.masks(&mut s.open, &mut s.mark);
    let (open, full) = (&mut s.open[..], &s.mark[..]);
    let mut v = mv.at_cell(random_cell(g, rng));
    mv.visit(open, v);
    let mut left = g.cells() - 1;
    // Every padded index before `lo` is visited or on the ring.
    let mut lo = 0usize;
    while left > 0 {
        let m = open[HexMoves::index(v)] & !SEEN;
        if m != 0 {
            let d = SELECT[m as usize][rng.choose(count(m)) as usize & 7] as usize;
            let t = mv.moved(v, d);
            maze.open(mv.edge(v, t, d));
            mv.visit(open, t);
            v = t;
            left -= 1;
            continue;
        }
        // Hunt: an unvisited cell with a visited neighbour has a bit of its full mask cleared.
        while open[lo] & SEEN != 0 {
            lo += 1;
        }
        let mut i = lo;
        while open[i] & SEEN != 0 || open[i] == full[i] {
            i += 1;
        }
        let c = mv.walker(i as u32);
        let seen = full[i] & !open[i];
        let d = SELECT[seen as usize][rng.choose(count(seen)) as usize & 7] as usize;
        let t = mv.moved(c, d);
        maze.open(mv.edge(c, t, d));
        mv.visit(open, c);
        left -= 1;
        v = c;
    }
}
