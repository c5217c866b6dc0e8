//! Aldous–Broder on a cell graph: a random walk (each step to a uniform neighbour, `below` of
//! the cell's degree) from a random cell; the first entry into each cell opens the edge it came
//! by. Uniform over the spanning trees of the graph. The walk moves by [`super::walk_steps`]
//! (on a hex grid, by additions: the same draws and cells, fewer dependent reads).

use super::walk_steps::{self, Slots, Steps, Walk};
use super::{random_cell, GraphScratch};
use crate::rng::{with_local_rng, RandomSource};
use crate::topo::{CellGraph, GraphMaze, Grid};

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
/// [`generate`] makes of each alone. A step is a chain (the draw, the slot span, the next
/// cell, its mark), so the two walks' steps are interleaved one by one; once one walk has
/// entered every cell, the other goes on alone. Only on a graph walked by its slots
/// ([`walk_steps::run_pair`]: panics on a hex or polar grid).
///
/// # Panics
///
/// On a hex or polar grid.
pub(super) fn generate_pair<R: RandomSource>(
    g: &CellGraph,
    (ma, sa, ra): (&mut GraphMaze, &mut GraphScratch, &mut R),
    (mb, sb, rb): (&mut GraphMaze, &mut GraphScratch, &mut R),
) {
    assert!(
        !matches!(g.size().grid, Grid::Hex | Grid::Polar),
        "a pair of walks on the graph's slots"
    );
    // `below` where every cell has two neighbours or more, else `choose` (as in `run`); both
    // generators on copies in locals, stored back once.
    let two = g.min_degree() >= 2;
    with_local_rng!(ra, |x| with_local_rng!(rb, |y| {
        let mut a = Walker::start(g, &Slots, sa, x);
        let mut b = Walker::start(g, &Slots, sb, y);
        macro_rules! both {
            ($draw:ident) => {{
                while a.left > 0 && b.left > 0 {
                    a.step(g, &Slots, ma, x, &|r: &mut _, n| r.$draw(n));
                    b.step(g, &Slots, mb, y, &|r: &mut _, n| r.$draw(n));
                }
                while a.left > 0 {
                    a.step(g, &Slots, ma, x, &|r: &mut _, n| r.$draw(n));
                }
                while b.left > 0 {
                    b.step(g, &Slots, mb, y, &|r: &mut _, n| r.$draw(n));
                }
            }};
        }
        match two {
            true => both!(below),
            false => both!(choose),
        }
    }))
}

/// The walk's loop.
struct AldousBroder;

/// One walk in progress: its marks (one per cell id), the walker and the cells it has not
/// entered yet. [`generate_pair`] steps two; [`Walk::walk`] starts one and keeps these in
/// locals.
struct Walker<'a, S: Steps> {
    mark: &'a mut [u8],
    p: S::At,
    left: u32,
}

impl<'a, S: Steps> Walker<'a, S> {
    /// Start at a random cell of `g` (the first draw), in `s`'s buffers.
    #[inline(always)]
    fn start<R: RandomSource>(
        g: &CellGraph,
        steps: &S,
        s: &'a mut GraphScratch,
        rng: &mut R,
    ) -> Walker<'a, S> {
        s.marks(g.len());
        let mark = &mut s.mark[..];
        let first = random_cell(g, rng);
        mark[first as usize] = 1;
        Walker {
            mark,
            p: steps.at(g, first),
            left: g.cells() - 1,
        }
    }

    /// One step: to a neighbour drawn by `draw`, opening the edge when the walk enters the
    /// cell for the first time (only while `left > 0`). The single walk's loop does the same
    /// in locals: written through this method it ran slower on polar grids.
    #[inline(always)]
    fn step<R, D: Fn(&mut R, u32) -> u32>(
        &mut self,
        g: &CellGraph,
        steps: &S,
        maze: &mut GraphMaze,
        rng: &mut R,
        draw: &D,
    ) {
        let slot = steps.step(g, &mut self.p, rng, draw);
        assert!(self.mark.len() >= g.len() as usize);
        // SAFETY: a neighbour is a cell, below `len()`, at most the length of `mark`.
        let m = unsafe { self.mark.get_unchecked_mut(S::cell(&self.p) as usize) };
        if *m == 0 {
            *m = 1;
            maze.open(g.edge(slot));
            self.left -= 1;
        }
    }
}

impl Walk for AldousBroder {
    #[inline(always)]
    fn walk<R: RandomSource, S: Steps, D: Fn(&mut R, u32) -> u32>(
        g: &CellGraph,
        steps: &S,
        maze: &mut GraphMaze,
        s: &mut GraphScratch,
        rng: &mut R,
        draw: D,
    ) {
        let Walker {
            mark,
            mut p,
            mut left,
        } = Walker::start(g, steps, s, rng);
        while left > 0 {
            let slot = steps.step(g, &mut p, rng, &draw);
            // SAFETY: a neighbour is a cell, below `len()`, and `start` made one mark per
            // cell id.
            let m = unsafe { mark.get_unchecked_mut(S::cell(&p) as usize) };
            if *m == 0 {
                *m = 1;
                maze.open(g.edge(slot));
                left -= 1;
            }
        }
    }
}
