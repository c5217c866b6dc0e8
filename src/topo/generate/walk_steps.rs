//! The random walks' steps (Aldous–Broder, Wilson). On a hex grid a cell with six
//! neighbours has them at fixed offsets (by its row's parity): the walker keeps its cell and its
//! row's parity and computes the next cell by additions, so the walk's chain from one cell to
//! the next is a few adds instead of two dependent table reads (the cell's slot span, then the
//! neighbour of the drawn slot). The draws and the values are those of the graph walk: `draw`
//! of the cell's degree, then the neighbour of that slot, since a cell with six neighbours has
//! its slots in direction order (E, SE, SW, W, NW, NE: the layout of
//! [`crate::topo::CellGraph`]). A cell with fewer (the border, a mask's edge) draws from its
//! slot span as the graph walk does and moves by the slot's direction label. On a polar grid,
//! [`PolarSteps`] does the same for the cells of a run of equal rings; other grids walk by the
//! graph's slots ([`Slots`]).

use super::hex_layout::{DIAG, DX, DY};
use super::GraphScratch;
use crate::rng::{with_local_rng, RandomSource};
use crate::topo::{CellGraph, GraphMaze, Grid};

/// How a walk moves from cell to cell on a graph: a walker, and its step.
pub(super) trait Steps {
    /// Where the walker is: its cell and what the steps keep about it.
    type At: Copy;
    /// The walker at cell `u` of `g`.
    fn at(&self, g: &CellGraph, u: u32) -> Self::At;
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
    with_local_rng!(rng, |r| run_on::<W, _>(g, maze, s, r))
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
    let two = g.min_degree() >= 2;
    match g.size().grid {
        Grid::Hex => {
            let h = HexSteps::new(g);
            match two {
                true => W::walk(g, &h, maze, s, rng, R::below),
                false => W::walk(g, &h, maze, s, rng, R::choose),
            }
        }
        Grid::Polar => {
            // The ring table lives in the scratch's stack (unused by the walks), reused.
            let mut bands = std::mem::take(&mut s.stack);
            let p = PolarSteps::new(g, &mut bands);
            match two {
                true => W::walk(g, &p, maze, s, rng, R::below),
                false => W::walk(g, &p, maze, s, rng, R::choose),
            }
            s.stack = bands;
        }
        _ => match two {
            true => W::walk(g, &Slots, maze, s, rng, R::below),
            false => W::walk(g, &Slots, maze, s, rng, R::choose),
        },
    }
}

/// One maze's walks on a graph walked by its slots ([`Slots`]), as [`slot_pair`] runs two.
pub(super) trait SlotWalk: Sized {
    /// The walks begun on `g` in `s`'s buffers (any first draw from `rng`).
    fn start<R: RandomSource>(g: &CellGraph, s: &mut GraphScratch, rng: &mut R) -> Self;
    /// The maze is done.
    fn done(&self) -> bool;
    /// One step of the walk, its slot drawn by `draw` (only while not done).
    fn step<R, D: Fn(&mut R, u32) -> u32>(
        &mut self,
        g: &CellGraph,
        maze: &mut GraphMaze,
        s: &mut GraphScratch,
        rng: &mut R,
        draw: &D,
    );
}

/// Two mazes of the walk `W` on `g` at once, each with its own buffers and random source:
/// exactly the mazes each makes alone. A step is a chain (the draw, the slot span, the next
/// cell, its mark), so the two mazes take a step each per round; once one is done the other
/// goes on alone. Both generators run on copies in locals, stored back once. Only on a graph
/// walked by its slots: the hex and polar walkers step by additions, and run faster one at a
/// time.
///
/// # Panics
///
/// On a hex or polar grid.
pub(super) fn slot_pair<W: SlotWalk, R: RandomSource>(
    g: &CellGraph,
    (ma, sa, ra): (&mut GraphMaze, &mut GraphScratch, &mut R),
    (mb, sb, rb): (&mut GraphMaze, &mut GraphScratch, &mut R),
) {
    assert!(
        !matches!(g.size().grid, Grid::Hex | Grid::Polar),
        "a pair of walks on the graph's slots"
    );
    // `below` where every cell has two neighbours or more, else `choose` (as in `run_on`).
    let two = g.min_degree() >= 2;
    with_local_rng!(ra, |x| with_local_rng!(rb, |y| {
        let mut a = W::start(g, sa, x);
        let mut b = W::start(g, sb, y);
        macro_rules! both {
            ($draw:ident) => {{
                while !a.done() && !b.done() {
                    a.step(g, ma, sa, x, &|r: &mut _, n| r.$draw(n));
                    b.step(g, mb, sb, y, &|r: &mut _, n| r.$draw(n));
                }
                while !a.done() {
                    a.step(g, ma, sa, x, &|r: &mut _, n| r.$draw(n));
                }
                while !b.done() {
                    b.step(g, mb, sb, y, &|r: &mut _, n| r.$draw(n));
                }
            }};
        }
        match two {
            true => both!(below),
            false => both!(choose),
        }
    }))
}

/// The graph walk's steps: the cell's slot span, the drawn slot, its neighbour.
pub(super) struct Slots;

impl Steps for Slots {
    type At = u32;
    #[inline(always)]
    fn at(&self, _g: &CellGraph, u: u32) -> u32 {
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

impl HexSteps {
    /// The steps of `g`, a hex grid (a mask's or a full one).
    fn new(g: &CellGraph) -> HexSteps {
        let w = g.size().a;
        let du = std::array::from_fn(|d| DY[d].wrapping_mul(w).wrapping_add(DX[d]));
        HexSteps { w, du }
    }
}

impl Steps for HexSteps {
    type At = HexAt;
    #[inline(always)]
    fn at(&self, _g: &CellGraph, u: u32) -> HexAt {
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

/// The steps of a polar grid. Where three rings in a row have the same count `n` (a band), a
/// cell `i` of the middle ring with `1 <= i <= n - 2` has four neighbours at fixed offsets, in
/// slot order: clockwise `+1`, outward `+n`, counter-clockwise `−1`, inward `−n` (slot `d`
/// in direction `d`). The walker keeps its cell, its index in the ring and its band's id range
/// and count, so such a step is `draw(4)` and additions; any other cell draws from its slot
/// span as the graph walk does and looks up where it lands (its ring, index and band).
pub(super) struct PolarSteps<'a> {
    /// Per ring: the first id and the number of ids of the band of rings it belongs to, and
    /// the band's count (a band of no ids for a ring whose neighbours differ from it).
    bands: &'a [u32],
}

/// A walker on a polar grid.
#[derive(Clone, Copy, Debug)]
pub(super) struct PolarAt {
    u: u32,
    /// The index of `u` in its ring.
    i: u32,
    /// The first id and the number of ids of the band `u` was last found in, and its count.
    lo: u32,
    ids: u32,
    n: u32,
}

impl<'a> PolarSteps<'a> {
    /// The steps of `g`, a polar grid; `buf` (reused) holds the ring table.
    fn new(g: &CellGraph, buf: &'a mut Vec<u32>) -> PolarSteps<'a> {
        let rings = g.rings();
        buf.clear();
        let count = |r: u32| g.ring_len(r);
        let fast = |r: u32| {
            r >= 1 && r + 1 < rings && count(r) >= 3 && {
                let n = count(r);
                count(r - 1) == n && count(r + 1) == n
            }
        };
        let mut start = 0u32;
        let mut r = 0;
        while r < rings {
            if !fast(r) {
                buf.extend([0, 0, count(r)]);
                start += count(r);
                r += 1;
                continue;
            }
            let (a, n) = (r, count(r));
            let mut b = r;
            while b + 1 < rings && fast(b + 1) && count(b + 1) == n {
                b += 1;
            }
            for _ in a..=b {
                buf.extend([start, (b - a + 1) * n, n]);
            }
            start += (b - a + 1) * n;
            r = b + 1;
        }
        PolarSteps { bands: buf }
    }

    /// The walker at cell `u`.
    #[inline(always)]
    fn locate(&self, g: &CellGraph, u: u32) -> PolarAt {
        let (r, i) = g.ring_of(u);
        let b = &self.bands[3 * r as usize..3 * r as usize + 3];
        PolarAt {
            u,
            i,
            lo: b[0],
            ids: b[1],
            n: b[2],
        }
    }
}

/// Per direction of a band cell: the index offset in the ring (wrapping).
const DI: [u32; 4] = [1, 0, u32::MAX, 0];

impl Steps for PolarSteps<'_> {
    type At = PolarAt;
    #[inline(always)]
    fn at(&self, g: &CellGraph, u: u32) -> PolarAt {
        self.locate(g, u)
    }
    #[inline(always)]
    fn cell(p: &PolarAt) -> u32 {
        p.u
    }
    #[inline(always)]
    fn step<R, D: Fn(&mut R, u32) -> u32>(
        &self,
        g: &CellGraph,
        p: &mut PolarAt,
        rng: &mut R,
        draw: &D,
    ) -> u32 {
        // SAFETY: `p.u` is a cell (the start, then always a neighbour), below `len()`.
        let (a, n) = unsafe { g.slot_span_unchecked(p.u) };
        if (p.u.wrapping_sub(p.lo) < p.ids) & (p.i.wrapping_sub(1) < p.n.wrapping_sub(2)) {
            debug_assert_eq!(n, 4);
            let d = draw(rng, 4);
            let m = if d & 1 != 0 { p.n } else { 1 };
            let du = if d & 2 != 0 { m.wrapping_neg() } else { m };
            p.u = p.u.wrapping_add(du);
            p.i = p.i.wrapping_add(DI[d as usize & 3]);
            debug_assert_eq!(p.u, g.nbr(a + d));
            a + d
        } else {
            let slot = a + draw(rng, n);
            *p = self.locate(g, g.nbr(slot));
            slot
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topo::GridSize;

    /// From every cell, each draw `k` of its degree names slot `k` and moves the walker to that
    /// slot's neighbour, in the state a walker placed there has (`same`).
    fn every_step<S: Steps>(g: &CellGraph, steps: &S, same: impl Fn(&S::At, &S::At) -> bool) {
        for &u in g.ids() {
            let slots = g.slots(u);
            for k in 0..slots.len() as u32 {
                let mut p = steps.at(g, u);
                let draw = |_: &mut (), n: u32| {
                    assert_eq!(n, slots.len() as u32, "cell {u}");
                    k
                };
                let slot = steps.step(g, &mut p, &mut (), &draw);
                assert_eq!(slot, slots.start + k, "cell {u}");
                assert_eq!(S::cell(&p), g.nbr(slot), "cell {u} slot {k}");
                assert!(same(&p, &steps.at(g, S::cell(&p))), "cell {u} slot {k}");
            }
        }
    }

    #[test]
    fn hex_steps_are_the_graph_steps() {
        let mut grids: Vec<CellGraph> = [(1, 1), (2, 2), (3, 3), (5, 4), (8, 7)]
            .map(|(w, h)| CellGraph::new(GridSize::new(Grid::Hex, w, h)))
            .into();
        let cells: Vec<bool> = (0..48).map(|c| c % 7 != 3 && c != 20).collect();
        grids.push(CellGraph::masked(GridSize::new(Grid::Hex, 8, 6), 8, 6, &cells).unwrap());
        for g in &grids {
            every_step(g, &HexSteps::new(g), |a, b| (a.u, a.odd) == (b.u, b.odd));
        }
    }

    #[test]
    fn polar_steps_are_the_graph_steps() {
        let mut buf = Vec::new();
        for (r, c) in [
            (1, 6),
            (2, 6),
            (3, 3),
            (6, 6),
            (5, 3),
            (12, 6),
            (36, 6),
            (9, 2),
        ] {
            let g = CellGraph::new(GridSize::new(Grid::Polar, r, c));
            let steps = PolarSteps::new(&g, &mut buf);
            every_step(&g, &steps, |a, b| (a.u, a.i) == (b.u, b.i));
        }
    }
}
