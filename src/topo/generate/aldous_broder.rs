//! Aldous–Broder on a cell graph: a random walk (each step to a uniform neighbour, `below` of
//! the cell's degree) from a random cell; the first entry into each cell opens the edge it came
//! by. Uniform over the spanning trees of the graph. The walk moves by [`super::walk_steps`]
//! (on hex and polar grids by additions, reading one byte per step: the same draws and
//! cells).

use super::walk_steps::{self, FastSteps, SlotWalk, Slots, Walk};
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
    walk_steps::run::<AldousBroder, R>(g, maze, s, rng)
}

/// Two mazes of `g` at once, each with its own buffers and random source: exactly the mazes
/// [`generate`] makes of each alone, their steps interleaved ([`walk_steps::slot_pair`]).
///
/// # Panics
///
/// On a hex or polar grid.
pub(super) fn generate_pair<R: RandomSource>(
    g: &CellGraph,
    a: (&mut GraphMaze, &mut GraphScratch, &mut R),
    b: (&mut GraphMaze, &mut GraphScratch, &mut R),
) {
    walk_steps::slot_pair::<Walker, R>(g, a, b)
}

/// The walk's loop.
struct AldousBroder;

/// One walk of [`generate_pair`] in progress: the walker's cell and the cells it has not
/// entered yet (the step of [`Walk::walk`]'s loop, whose single walk keeps these in locals).
struct Walker {
    p: u32,
    left: u32,
}

impl SlotWalk for Walker {
    /// Start at a random cell of `g` (the first draw).
    #[inline(always)]
    fn start<R: RandomSource>(g: &CellGraph, s: &mut GraphScratch, rng: &mut R) -> Walker {
        s.marks(g.len());
        let first = random_cell(g, rng);
        s.mark[first as usize] = 1;
        Walker {
            p: first,
            left: g.cells() - 1,
        }
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.left == 0
    }

    /// To a neighbour drawn by `draw`, opening the edge when the walk enters the cell for the
    /// first time.
    #[inline(always)]
    fn step<R, D: Fn(&mut R, u32) -> u32>(
        &mut self,
        g: &CellGraph,
        maze: &mut GraphMaze,
        s: &mut GraphScratch,
        rng: &mut R,
        draw: &D,
    ) {
        let slot = Slots.step(g, &mut self.p, rng, draw);
        let m = &mut s.mark[self.p as usize];
        if *m == 0 {
            *m = 1;
            maze.open(g.edge(slot));
            self.left -= 1;
        }
    }
}

impl Walk for AldousBroder {
    /// One byte per cell: [`SEEN`] once the walk has entered it, and [`walk_steps::SLOW`]
    /// ([`FastSteps`]). The edge of a first entry is looked up then, from the cell left and the
    /// drawn slot's index in its span.
    #[inline(always)]
    fn walk<R: RandomSource, F: FastSteps, D: Fn(&mut R, u32) -> u32>(
        g: &CellGraph,
        steps: &F,
        maze: &mut GraphMaze,
        s: &mut GraphScratch,
        rng: &mut R,
        draw: D,
    ) {
        let Walker { p: first, mut left } = Walker::start(g, s, rng);
        let mark = &mut s.mark[..];
        steps.mark_slow(g, mark);
        let mut p = steps.at(g, first);
        let mut b = mark[first as usize];
        while left > 0 {
            let at = F::cell(&p);
            let k = steps.step(g, &mut p, b, rng, &draw);
            let u = F::cell(&p);
            debug_assert_eq!(u, g.nbr(g.slots(at).start + k));
            // SAFETY: a neighbour is a cell, below `len()`, the marks' length (`mark_slow`
            // asserts it).
            let m = unsafe { mark.get_unchecked_mut(u as usize) };
            b = *m;
            if b & SEEN == 0 {
                b |= SEEN;
                *m = b;
                // SAFETY: `at` is a cell, as above.
                let (a, _) = unsafe { g.slot_span_unchecked(at) };
                maze.open(g.edge(a + k));
                left -= 1;
            }
        }
    }
}

/// Entered by the walk (the mark of [`Walker`]), in [`AldousBroder::walk`]'s bytes.
const SEEN: u8 = 1;
