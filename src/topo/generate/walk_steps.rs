//! The random walks' steps (Aldous–Broder, Wilson) on a hex grid, where a cell with six
//! neighbours has them at fixed offsets (by its row's parity): the walker keeps its cell and its
//! row's parity and computes the next cell by additions, so the walk's chain from one cell to
//! the next is a few adds instead of two dependent table reads (the cell's slot span, then the
//! neighbour of the drawn slot). The draws and the values are those of the graph walk: `draw`
//! of the cell's degree, then the neighbour of that slot, since a cell with six neighbours has
//! its slots in direction order (E, SE, SW, W, NW, NE: the layout of
//! [`crate::topo::CellGraph`]). A cell with fewer (the border, a mask's edge) draws from its
//! slot span as the graph walk does and moves by the slot's direction label.

use super::GraphScratch;
use crate::rng::{RandomSource, Rng};
use crate::topo::{CellGraph, GraphMaze, Grid};

/// How a walk moves from cell to cell on a graph: a walker, and its step.
pub(super) trait Steps {
    /// Where the walker is: its cell and what the steps keep about it.
    type At: Copy;
    /// The walker at cell `u`.
    fn at(&self, u: u32) -> Self::At;
    /// The walker's cell.
    fn cell(p: &Self::At) -> u32;
    /// One step from `p`: draws the slot as the graph walk does (`draw` of the cell's degree,
    /// in slot order), moves `p` to that slot's neighbour and returns the slot.
    fn step<R, D: Fn(&mut R, u32) -> u32>(
        &self,
        g: &CellGraph,
        p: &mut Self::At,
        rng: &mut R,
        draw: &D,
    ) -> u32;
}

/// A random-walk generator's loop, for any [`Steps`] and draw.
pub(super) trait Walk {
    /// One maze on `g` by `steps`, each step's slot drawn by `draw`.
    fn walk<R: RandomSource, S: Steps, D: Fn(&mut R, u32) -> u32>(
        g: &CellGraph,
        steps: &S,
        maze: &mut GraphMaze,
        s: &mut GraphScratch,
        rng: &mut R,
        draw: D,
    );
}

/// One maze of the walk `W` on `g`: by [`HexSteps`] on a hex grid, by the graph's slots
/// otherwise. The batch's generator runs on a copy in locals (kept in registers across the
/// walk, where through `rng` its state went to memory every draw), stored back once: the same
/// draws.
pub(super) fn run<W: Walk, R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    if let Some(rng) = rng.as_rng() {
        let mut local = rng.clone();
        run_on::<W, Rng>(g, maze, s, &mut local);
        *rng = local;
    } else {
        run_on::<W, R>(g, maze, s, rng);
    }
}

#[inline(always)]
fn run_on<W: Walk, R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    // `choose(n)` is `below(n)` when `n > 1` (the same draws and values): where every cell has
    // two neighbours or more, the walk skips its test for `n == 1`.
    match (HexSteps::of(g), g.min_degree() >= 2) {
        (Some(h), true) => W::walk(g, &h, maze, s, rng, R::below),
        (Some(h), false) => W::walk(g, &h, maze, s, rng, R::choose),
        (None, true) => W::walk(g, &Slots, maze, s, rng, R::below),
        (None, false) => W::walk(g, &Slots, maze, s, rng, R::choose),
    }
}

/// The graph walk's steps: the cell's slot span, the drawn slot, its neighbour.
pub(super) struct Slots;

impl Steps for Slots {
    type At = u32;
    #[inline(always)]
    fn at(&self, u: u32) -> u32 {
        u
    }
    #[inline(always)]
    fn cell(p: &u32) -> u32 {
        *p
    }
    #[inline(always)]
    fn step<R, D: Fn(&mut R, u32) -> u32>(
        &self,
        g: &CellGraph,
        p: &mut u32,
        rng: &mut R,
        draw: &D,
    ) -> u32 {
        // SAFETY: `*p` is a cell (the start, then always a neighbour), below `len()`.
        let (a, n) = unsafe { g.slot_span_unchecked(*p) };
        let slot = a + draw(rng, n);
        *p = g.nbr(slot);
        slot
    }
}

/// A walker on a hex grid: its cell and whether the cell's row is odd.
#[derive(Clone, Copy, Debug)]
pub(super) struct HexAt {
    /// The cell id, `y·W + x`.
    u: u32,
    /// `y & 1`.
    odd: u32,
}

/// The constants of a hex grid's steps.
pub(super) struct HexSteps {
    w: u32,
    /// Per direction, the id offset on an even row (wrapping); 8 entries so that `d & 7`
    /// indexes without a check.
    du: [u32; 8],
}

/// Per direction: the column offset on an even row, and the row offset (wrapping; padded to 8).
const DX: [u32; 8] = [1, 0, u32::MAX, u32::MAX, u32::MAX, 0, 0, 0];
const DY: [u32; 8] = [0, 1, 1, 0, u32::MAX, u32::MAX, 0, 0];
/// The directions that change row (the diagonals), as bits: on an odd row their column is
/// one more than on an even row.
const DIAG: u32 = 0b110110;

impl HexSteps {
    /// The steps of `g` when it is a hex grid (a mask's or a full one), `None` otherwise.
    fn of(g: &CellGraph) -> Option<HexSteps> {
        let size = g.size();
        if size.grid != Grid::Hex {
            return None;
        }
        let w = size.a;
        let du = std::array::from_fn(|d| DY[d].wrapping_mul(w).wrapping_add(DX[d]));
        Some(HexSteps { w, du })
    }
}

impl Steps for HexSteps {
    type At = HexAt;
    #[inline(always)]
    fn at(&self, u: u32) -> HexAt {
        HexAt {
            u,
            odd: (u / self.w) & 1,
        }
    }
    #[inline(always)]
    fn cell(p: &HexAt) -> u32 {
        p.u
    }
    #[inline(always)]
    fn step<R, D: Fn(&mut R, u32) -> u32>(
        &self,
        g: &CellGraph,
        p: &mut HexAt,
        rng: &mut R,
        draw: &D,
    ) -> u32 {
        // SAFETY: `p.u` is a cell (the start, then always a neighbour), below `len()`.
        let (a, n) = unsafe { g.slot_span_unchecked(p.u) };
        let (slot, d) = if n == 6 {
            // Six neighbours, slot `i` in direction `i`: the next cell does not wait for the
            // slot span (read above), which only confirms the branch and names the slot.
            let d = draw(rng, 6);
            (a + d, d)
        } else {
            let slot = a + draw(rng, n);
            (slot, g.dir(slot) as u32)
        };
        let q = (DIAG >> d) & 1;
        p.u =
            p.u.wrapping_add(self.du[d as usize & 7])
                .wrapping_add(q & p.odd);
        p.odd ^= q;
        debug_assert_eq!(p.u, g.nbr(slot));
        slot
    }
}
