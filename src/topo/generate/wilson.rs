//! Wilson on a cell graph: the root is the middle cell of [`CellGraph::ids`]; every other cell,
//! in id order, starts a random walk (uniform neighbour each step) that runs until it meets the
//! tree, remembering the slot it last left each cell by (`next`); retracing those slots from the
//! start is the loop-erased walk, which joins the tree. Uniform over the spanning trees. The
//! walks move by [`super::walk_steps`] (on a hex grid, by additions: the same draws and cells,
//! fewer dependent reads).

use super::walk_steps::{self, SlotWalk, Slots, Steps, Walk};
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
        s.marks(g.len());
        s.next.clear();
        s.next.resize(g.len() as usize, 0);
        let ids = g.ids();
        s.mark[ids[ids.len() / 2] as usize] = 1;
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
    #[inline(always)]
    fn walk<R: RandomSource, S: Steps, D: Fn(&mut R, u32) -> u32>(
        g: &CellGraph,
        steps: &S,
        maze: &mut GraphMaze,
        s: &mut GraphScratch,
        rng: &mut R,
        draw: D,
    ) {
        s.marks(g.len());
        s.next.clear();
        s.next.resize(g.len() as usize, 0);
        let ids = g.ids();
        s.mark[ids[ids.len() / 2] as usize] = 1;
        for &start in ids {
            if s.mark[start as usize] != 0 {
                continue;
            }
            let (mark, next) = (&s.mark[..], &mut s.next[..]);
            let mut p = steps.at(g, start);
            // The walker's cell is always a cell (the start, then a neighbour): below `len()`,
            // the length of `mark` and `next`.
            // SAFETY: `S::cell(&p) < len()`.
            while unsafe { *mark.get_unchecked(S::cell(&p) as usize) } == 0 {
                let u = S::cell(&p);
                let slot = steps.step(g, &mut p, rng, &draw);
                // SAFETY: `u < len()`.
                unsafe { *next.get_unchecked_mut(u as usize) = slot };
            }
            super::wilson_biased::join(g, maze, s, start);
        }
    }
}
