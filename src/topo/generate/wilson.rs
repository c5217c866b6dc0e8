//! Wilson on a cell graph: the root is the middle cell of [`CellGraph::ids`]; every other cell,
//! in id order, starts a random walk (uniform neighbour each step) that runs until it meets the
//! tree, remembering the slot it last left each cell by (`next`); retracing those slots from the
//! start is the loop-erased walk, which joins the tree. Uniform over the spanning trees. The
//! walks move by [`super::walk_steps`] (on hex and polar grids by additions, reading one byte
//! per step: the same draws and cells).

use super::walk_steps::{self, FastSteps, SlotWalk, Slots, Walk};
use super::wilson_biased::IN;
use super::GraphScratch;
use crate::rng::RandomSource;
use crate::topo::{CellGraph, GraphMaze};

/// One maze (see the module docs).
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    walk_steps::run::<Wilson, R>(g, maze, s, rng)
}

/// Two mazes of `g` at once, each with its own buffers and random source: exactly the mazes
/// [`generate`] makes of each alone, their walks' steps interleaved
/// ([`walk_steps::slot_pair`]); a walk that meets its tree is retraced at once and its maze's
/// next start begins.
///
/// # Panics
///
/// On a hex or polar grid.
pub(super) fn generate_pair<R: RandomSource>(
    g: &CellGraph,
    a: (&mut GraphMaze, &mut GraphScratch, &mut R),
    b: (&mut GraphMaze, &mut GraphScratch, &mut R),
) {
    walk_steps::slot_pair::<Walks, R>(g, a, b)
}

/// The marks and `next` of a maze begun: only the root, the middle cell of the graph's ids, in
/// the tree ([`IN`]).
fn begin(g: &CellGraph, s: &mut GraphScratch) {
    s.marks(g.len());
    s.next.clear();
    s.next.resize(g.len() as usize, 0);
    let ids = g.ids();
    s.mark[ids[ids.len() / 2] as usize] = IN;
}

/// The walks of one maze of [`generate_pair`] in progress: the place in the graph's ids of
/// the start whose walk runs, and the walker's cell (`u32::MAX` once every start is in the
/// tree).
struct Walks {
    at: usize,
    p: u32,
}

impl Walks {
    /// From `at` on, the first start not in the tree (the walker there), or done.
    #[inline(always)]
    fn next_start(&mut self, g: &CellGraph, s: &GraphScratch) {
        let ids = g.ids();
        while self.at < ids.len() && s.mark[ids[self.at] as usize] != 0 {
            self.at += 1;
        }
        self.p = ids.get(self.at).copied().unwrap_or(u32::MAX);
    }
}

impl SlotWalk for Walks {
    /// The root in the tree, and the first walk begun (no draw).
    fn start<R: RandomSource>(g: &CellGraph, s: &mut GraphScratch, _rng: &mut R) -> Walks {
        begin(g, s);
        let mut w = Walks { at: 0, p: 0 };
        w.next_start(g, s);
        w
    }

    /// Every start is in the tree.
    #[inline(always)]
    fn done(&self) -> bool {
        self.p == u32::MAX
    }

    /// One step of the walk; when it meets the tree, retrace it and begin the next start's.
    #[inline(always)]
    fn step<R, D: Fn(&mut R, u32) -> u32>(
        &mut self,
        g: &CellGraph,
        maze: &mut GraphMaze,
        s: &mut GraphScratch,
        rng: &mut R,
        draw: &D,
    ) {
        let u = self.p;
        let slot = Slots.step(g, &mut self.p, rng, draw);
        s.next[u as usize] = slot;
        if s.mark[self.p as usize] != 0 {
            super::wilson_biased::join(g, maze, s, g.ids()[self.at]);
            self.next_start(g, s);
        }
    }
}

/// The walks' loop.
struct Wilson;

impl Walk for Wilson {
    /// One byte per cell: [`IN`] once the cell is in the tree, and [`walk_steps::SLOW`]
    /// ([`FastSteps`]). `next` keeps the drawn slot's index in the cell's span, which the join
    /// turns into the slot.
    #[inline(always)]
    fn walk<R: RandomSource, F: FastSteps, D: Fn(&mut R, u32) -> u32>(
        g: &CellGraph,
        steps: &F,
        maze: &mut GraphMaze,
        s: &mut GraphScratch,
        rng: &mut R,
        draw: D,
    ) {
        begin(g, s);
        let ids = g.ids();
        let (mark, next) = (&mut s.mark[..], &mut s.next[..]);
        steps.mark_slow(g, mark);
        assert!(next.len() == mark.len());
        for &start in ids {
            if mark[start as usize] & IN != 0 {
                continue;
            }
            let mut p = steps.at(g, start);
            let mut b = mark[start as usize];
            // The walker's cell is always a cell (the start, then a neighbour): below `len()`,
            // the length of `mark` and `next` (asserted above).
            while b & IN == 0 {
                let at = F::cell(&p);
                let k = steps.step(g, &mut p, b, rng, &draw);
                debug_assert_eq!(F::cell(&p), g.nbr(g.slots(at).start + k));
                // SAFETY: `at < len()` and the neighbour `F::cell(&p) < len()`.
                unsafe {
                    *next.get_unchecked_mut(at as usize) = k;
                    b = *mark.get_unchecked(F::cell(&p) as usize);
                }
            }
            // The loop-erased walk joins the tree (`join`, with slot indices).
            let mut u = start;
            while mark[u as usize] & IN == 0 {
                mark[u as usize] |= IN;
                let slot = g.slots(u).start + next[u as usize];
                maze.open(g.edge(slot));
                u = g.nbr(slot);
            }
        }
    }
}
