//! The random walks' steps (Aldous–Broder, Wilson). On hex and polar grids most cells have
//! their neighbours at fixed offsets, slot `d` in direction `d` ([`FastSteps`]): on a hex grid a
//! cell with six neighbours (by its row's parity: E, SE, SW, W, NW, NE, the layout of
//! [`crate::topo::CellGraph`]), on a polar grid a cell inside a run of rings of one count
//! (clockwise, outward, counter-clockwise, inward). The walker computes the next cell by
//! additions, and the walk keeps one byte per cell that tells both its own state of the cell
//! and whether the cell is such a *fast* cell ([`SLOW`] when not), so a step reads one byte:
//! the cell it lands on, which is also the next step's cell. The draws and the values are
//! those of the graph walk: `draw` of the cell's degree, then the neighbour of that slot. A
//! slow cell (the border, a mask's edge, a polar ring's seam or a ring whose neighbours differ
//! from it) draws from its slot span as the graph walk does. Other grids walk by the graph's
//! slots ([`Slots`]: no cell is fast).

use super::hex_layout::{DIAG, DX, DY};
use super::GraphScratch;
use crate::rng::{with_local_rng, RandomSource};
use crate::topo::{CellGraph, GraphMaze, Grid};

/// A random-walk generator's loop, for any [`FastSteps`] and draw.
pub(super) trait Walk {
    /// One maze on `g` by `steps`, each step's slot drawn by `draw`.
    fn walk<R: RandomSource, F: FastSteps, D: Fn(&mut R, u32) -> u32>(
        g: &CellGraph,
        steps: &F,
        maze: &mut GraphMaze,
        s: &mut GraphScratch,
        rng: &mut R,
        draw: D,
    );
}

/// One maze of the walk `W` on `g`: by [`HexSteps`] on a hex grid, by [`PolarSteps`] on a
/// polar one, by the graph's slots otherwise. The batch's generator runs on a copy in locals
/// (kept in registers across the walk, where through `rng` its state went to memory every
/// draw), stored back once: the same draws.
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
        Grid::Polar => match two {
            true => W::walk(g, &PolarSteps, maze, s, rng, R::below),
            false => W::walk(g, &PolarSteps, maze, s, rng, R::choose),
        },
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

/// The graph walk's steps: the cell's slot span, the drawn slot, its neighbour. As
/// [`FastSteps`], a grid with no fast cell.
pub(super) struct Slots;

impl Slots {
    /// One step from `p`: draws the slot as the graph walk does (`draw` of the cell's degree,
    /// in slot order), moves `p` to that slot's neighbour and returns the slot.
    #[inline(always)]
    pub(super) fn step<R, D: Fn(&mut R, u32) -> u32>(
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

impl FastSteps for Slots {
    type At = u32;
    const DEGREE: u32 = 0;
    #[inline(always)]
    fn at(&self, _g: &CellGraph, u: u32) -> u32 {
        u
    }
    #[inline(always)]
    fn cell(p: &u32) -> u32 {
        *p
    }
    fn mark_slow(&self, g: &CellGraph, mark: &mut [u8]) {
        assert!(mark.len() == g.len() as usize);
        for m in mark {
            *m |= SLOW;
        }
    }
    fn fast(&self, _p: &mut u32, _d: u32) {
        unreachable!("a graph walked by its slots has no fast cell")
    }
    #[inline(always)]
    fn slow(&self, g: &CellGraph, p: &mut u32, slot: u32) {
        *p = g.nbr(slot);
    }
}

/// In a walk's byte per cell ([`FastSteps::mark_slow`]): the cell is not fast, so a step
/// from it draws from its slot span.
pub(super) const SLOW: u8 = 2;

/// How a walk moves on a grid whose fast cells have their neighbours at fixed offsets, slot
/// `d` in direction `d` (see the module docs).
pub(super) trait FastSteps {
    /// Where the walker is: its cell and what the steps keep about it.
    type At: Copy;
    /// The degree of a fast cell.
    const DEGREE: u32;
    /// The walker at cell `u` of `g`.
    fn at(&self, g: &CellGraph, u: u32) -> Self::At;
    /// The walker's cell.
    fn cell(p: &Self::At) -> u32;
    /// Add [`SLOW`] to the byte in `mark` (one per cell of `g`) of every cell that is not fast.
    fn mark_slow(&self, g: &CellGraph, mark: &mut [u8]);
    /// From a fast cell, to its neighbour in direction `d`, below [`FastSteps::DEGREE`].
    fn fast(&self, p: &mut Self::At, d: u32);
    /// To the neighbour at slot `slot` of the walker's cell (any cell).
    fn slow(&self, g: &CellGraph, p: &mut Self::At, slot: u32);

    /// One step from `p`, whose cell's byte is `b`: draws the slot as the graph walk does
    /// (`draw` of the cell's degree, in slot order), moves `p` to that slot's neighbour and
    /// returns the slot's index in the cell's slot span. A fast cell's slot span is not read.
    #[inline(always)]
    fn step<R, D: Fn(&mut R, u32) -> u32>(
        &self,
        g: &CellGraph,
        p: &mut Self::At,
        b: u8,
        rng: &mut R,
        draw: &D,
    ) -> u32 {
        if b & SLOW == 0 {
            let d = draw(rng, Self::DEGREE);
            self.fast(p, d);
            d
        } else {
            // SAFETY: the walker's cell is a cell (the start, then always a neighbour), below
            // `len()`.
            let (a, n) = unsafe { g.slot_span_unchecked(Self::cell(p)) };
            let k = draw(rng, n);
            self.slow(g, p, a + k);
            k
        }
    }
}

/// The steps of a hex grid: a cell with six neighbours is fast.
pub(super) struct HexSteps {
    w: u32,
    /// Per `8 · (y & 1) + d`: the id offset of direction `d` from a row of that parity
    /// (wrapping); 16 entries so that an index `& 15` needs no check.
    add: [u32; 16],
    /// Per direction: 8 when it changes the row's parity (the diagonals), else 0.
    flip: [u32; 8],
}

impl HexSteps {
    /// The steps of `g`, a hex grid (a mask's or a full one).
    pub(super) fn new(g: &CellGraph) -> HexSteps {
        let w = g.size().a;
        HexSteps {
            w,
            add: std::array::from_fn(|i| {
                let (odd, d) = ((i >> 3) as u32, i & 7);
                DY[d]
                    .wrapping_mul(w)
                    .wrapping_add(DX[d])
                    .wrapping_add((DIAG >> d) & odd)
            }),
            flip: std::array::from_fn(|d| ((DIAG >> d) & 1) << 3),
        }
    }
}

/// A walker on a hex grid: its cell and `8 · (y & 1)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct HexAt {
    /// The cell id, `y·W + x`.
    u: u32,
    /// 8 on an odd row, else 0.
    po: u32,
}

impl FastSteps for HexSteps {
    type At = HexAt;
    const DEGREE: u32 = 6;
    #[inline(always)]
    fn at(&self, _g: &CellGraph, u: u32) -> HexAt {
        HexAt {
            u,
            po: ((u / self.w) & 1) << 3,
        }
    }
    #[inline(always)]
    fn cell(p: &HexAt) -> u32 {
        p.u
    }
    fn mark_slow(&self, g: &CellGraph, mark: &mut [u8]) {
        assert!(mark.len() == g.len() as usize);
        for (c, m) in mark.iter_mut().enumerate() {
            // SAFETY: `c` is below `len()`.
            let (_, n) = unsafe { g.slot_span_unchecked(c as u32) };
            *m |= SLOW * (n != 6) as u8;
        }
    }
    #[inline(always)]
    fn fast(&self, p: &mut HexAt, d: u32) {
        p.u = p.u.wrapping_add(self.add[((p.po + d) & 15) as usize]);
        p.po ^= self.flip[(d & 7) as usize];
    }
    #[inline(always)]
    fn slow(&self, g: &CellGraph, p: &mut HexAt, slot: u32) {
        self.fast(p, g.dir(slot) as u32);
        debug_assert_eq!(p.u, g.nbr(slot));
    }
}

/// The steps of a polar grid. Where three rings in a row have the same count `n`, a cell `i`
/// of the middle ring with `1 <= i <= n - 2` is fast: its four neighbours are at fixed
/// offsets, in slot order clockwise `+1`, outward `+n`, counter-clockwise `−1`, inward `−n`.
/// The walker keeps its cell and its ring's count, which a fast step keeps (it stays in a ring
/// of that count) and a slow one looks up where it lands.
pub(super) struct PolarSteps;

/// A walker on a polar grid: its cell and its ring's count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PolarAt {
    u: u32,
    n: u32,
}

impl FastSteps for PolarSteps {
    type At = PolarAt;
    const DEGREE: u32 = 4;
    #[inline(always)]
    fn at(&self, g: &CellGraph, u: u32) -> PolarAt {
        PolarAt {
            u,
            n: g.ring_len(g.ring_of(u).0),
        }
    }
    #[inline(always)]
    fn cell(p: &PolarAt) -> u32 {
        p.u
    }
    fn mark_slow(&self, g: &CellGraph, mark: &mut [u8]) {
        assert!(mark.len() == g.len() as usize);
        let (rings, count) = (g.rings(), |r: u32| g.ring_len(r));
        let mut c = 0usize;
        for r in 0..rings {
            let n = count(r);
            let band = r >= 1 && r + 1 < rings && n >= 3 && count(r - 1) == n && count(r + 1) == n;
            for (i, m) in mark[c..c + n as usize].iter_mut().enumerate() {
                let fast = band && i >= 1 && i + 2 <= n as usize;
                *m |= SLOW * !fast as u8;
            }
            c += n as usize;
        }
        assert_eq!(c, mark.len(), "the rings hold the cells, in id order");
    }
    #[inline(always)]
    fn fast(&self, p: &mut PolarAt, d: u32) {
        let m = if d & 1 != 0 { p.n } else { 1 };
        p.u =
            p.u.wrapping_add(if d & 2 != 0 { m.wrapping_neg() } else { m });
    }
    #[inline(always)]
    fn slow(&self, g: &CellGraph, p: &mut PolarAt, slot: u32) {
        *p = self.at(g, g.nbr(slot));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topo::GridSize;

    /// From every cell, each draw `k` of its degree names slot `k` and moves the walker to that
    /// slot's neighbour, in the state a walker placed there has, by the fast step exactly where
    /// `mark_slow` leaves the cell fast; and a fast cell's slot `d` is its direction `d`.
    /// Returns the number of fast cells.
    fn every_step<F: FastSteps>(g: &CellGraph, steps: &F) -> usize
    where
        F::At: PartialEq + std::fmt::Debug,
    {
        let mut mark = vec![0u8; g.len() as usize];
        steps.mark_slow(g, &mut mark);
        let mut fast = 0;
        for &u in g.ids() {
            let slots = g.slots(u);
            let b = mark[u as usize];
            if b & SLOW == 0 {
                fast += 1;
                assert_eq!(slots.len() as u32, F::DEGREE, "cell {u}");
            }
            for k in 0..slots.len() as u32 {
                let mut p = steps.at(g, u);
                let draw = |_: &mut (), n: u32| {
                    assert_eq!(n, slots.len() as u32, "cell {u}");
                    k
                };
                assert_eq!(steps.step(g, &mut p, b, &mut (), &draw), k, "cell {u}");
                assert_eq!(F::cell(&p), g.nbr(slots.start + k), "cell {u} slot {k}");
                assert_eq!(p, steps.at(g, F::cell(&p)), "cell {u} slot {k}");
            }
        }
        fast
    }

    #[test]
    fn hex_steps_are_the_graph_steps() {
        let mut grids: Vec<CellGraph> = [(1, 1), (2, 2), (3, 3), (5, 4), (8, 7)]
            .map(|(w, h)| CellGraph::new(GridSize::new(Grid::Hex, w, h)))
            .into();
        let cells: Vec<bool> = (0..48).map(|c| c % 7 != 3 && c != 20).collect();
        grids.push(CellGraph::masked(GridSize::new(Grid::Hex, 8, 6), 8, 6, &cells).unwrap());
        let fast: Vec<usize> = grids
            .iter()
            .map(|g| every_step(g, &HexSteps::new(g)))
            .collect();
        // The inner cells of the full grids (a 5x4 grid has 3 x 2), and some of the mask's.
        assert_eq!(fast[..5], [0, 0, 1, 6, 30]);
        assert!(fast[5] > 0);
    }

    #[test]
    fn slot_steps_are_the_graph_steps() {
        for (w, h) in [(1, 1), (3, 2), (9, 7)] {
            let g = CellGraph::new(GridSize::new(Grid::Triangle, w, h));
            assert_eq!(every_step(&g, &Slots), 0);
        }
    }

    #[test]
    fn polar_steps_are_the_graph_steps() {
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
            let fast = every_step(&g, &PolarSteps);
            // 36 rings: the bands of 24, 48, 96 and 192 cells have 1, 4, 9 and 11 inner rings.
            if (r, c) == (36, 6) {
                assert_eq!(fast, 22 + 4 * 46 + 9 * 94 + 11 * 190);
            }
        }
    }
}
