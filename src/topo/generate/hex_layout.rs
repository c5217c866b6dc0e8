//! A full hex grid (no mask) as the square generators see theirs: cells in a padded
//! `(W+2)×(H+2)` byte array whose ring holds "outside", so a neighbour is one add away (by the
//! row's parity on the diagonals) with no bounds test, and the edge between two cells one read
//! of a padded table of each cell's first forward edge, built once per grid size, instead of
//! the graph's slot tables. The edge ids are those of [`crate::topo::CellGraph`] (each cell's
//! forward edges E, SE, SW counted row by row, [`HexLayout::forward_edge`]); the tests check
//! them against the graph. The table replaced computing the edge from the walker's coordinates
//! at each step (about twenty instructions): per cell on a 64x64 grid, hunt-and-kill 0.87×,
//! the backtracker 0.91× and Prim 0.96× the time (`benches/generators.sh OLD NEW 5 -- --algo
//! prim,hunt-and-kill,backtracker --grid hex --size 64x64 --count 3000`).

use super::{count, select};
use crate::rng::RandomSource;
use crate::topo::{CellGraph, GraphMaze, Grid};

/// The constants of a full hex grid's padded layout.
#[derive(Clone, Copy, Debug)]
pub(super) struct HexLayout {
    /// Width and height in cells.
    pub w: u32,
    pub h: u32,
}

/// The largest width and height of a [`HexLayout`]: a walker's row fits its 14 bits.
pub(super) const MAX_SIDE: u32 = 1 << 14;

impl HexLayout {
    /// The layout of `g` when it is a full hex grid (no mask) of sides below [`MAX_SIDE`].
    pub fn of(g: &CellGraph) -> Option<HexLayout> {
        let size = g.size();
        let (w, h) = (size.a, size.b);
        (size.grid == Grid::Hex && g.cells() == g.len() && w < MAX_SIDE && h < MAX_SIDE)
            .then_some(HexLayout { w, h })
    }

    /// The width of a padded row.
    #[inline(always)]
    pub fn pw(&self) -> u32 {
        self.w + 2
    }

    /// The padded index of cell `(x, y)`.
    #[inline(always)]
    pub fn padded(&self, x: u32, y: u32) -> u32 {
        (y + 1) * self.pw() + x + 1
    }

    /// The padded index step of direction `d` (E 0, SE 1, SW 2, W 3, NW 4, NE 5) from a row of
    /// parity `odd`, wrapping.
    #[inline(always)]
    pub fn step(&self, odd: u32, d: usize) -> u32 {
        DY[d].wrapping_mul(self.pw()).wrapping_add(dx(odd, d))
    }

    /// The directions (bit `d`) in which cell `(x, y)` has a neighbour.
    pub fn sides(&self, x: u32, y: u32) -> u8 {
        let (w, h, odd) = (self.w, self.h, y & 1);
        let (e, wst) = (x + 1 < w, x >= 1);
        let (r, l) = (x + odd < w, x + odd >= 1);
        let (down, up) = (y + 1 < h, y >= 1);
        [e, down && r, down && l, wst, up && l, up && r]
            .iter()
            .enumerate()
            .fold(0, |m, (d, &b)| m | (b as u8) << d)
    }

    /// The id of the edge from cell `(x, y)` in forward direction `k` (E 0, SE 1, SW 2), which
    /// the cell must have.
    #[inline(always)]
    pub fn forward_edge(&self, x: u32, y: u32, k: u32) -> u32 {
        let (w, h) = (self.w, self.h);
        let base = y * (3 * w - 2);
        if y + 1 == h {
            // The last row has its east edges only.
            return base + x;
        }
        // Rows above the last have 3W − 2 edges: on an even row the first cell has no SW and
        // the last no E; on an odd row the last cell has SW only.
        // Without a branch on the parity, which is a coin flip at the joins of a search.
        let first = (x == 0) as u32;
        let last = (x + 1 == w) as u32;
        let odd = y & 1;
        let even = odd ^ 1;
        (base + 3 * x + k + even * first)
            .wrapping_sub(even)
            .wrapping_sub(last * (1 + odd))
    }
}

/// Per direction (E 0, SE 1, SW 2, W 3, NW 4, NE 5): the column offset on an even row, and the
/// row offset (wrapping; padded to 8 so that `d & 7` indexes without a check).
pub(super) const DX: [u32; 8] = [1, 0, u32::MAX, u32::MAX, u32::MAX, 0, 0, 0];
pub(super) const DY: [u32; 8] = [0, 1, 1, 0, u32::MAX, u32::MAX, 0, 0];
/// The directions that change row (the diagonals), as bits: on an odd row their column is
/// one more than on an even row.
pub(super) const DIAG: u32 = 0b110110;

/// The column step of direction `d` from a row of parity `odd` (wrapping).
#[inline]
pub(super) fn dx(odd: u32, d: usize) -> u32 {
    DX[d].wrapping_add(odd & (DIAG >> d))
}

/// The masks of every cell unvisited and the forward edges on the last hex grid size
/// [`HexMoves::tables`] was asked for, kept in a worker's scratch so that a maze copies the
/// masks instead of building them (4 bytes per padded cell for the edges, 2 for the masks).
#[derive(Debug, Default)]
pub(super) struct HexMasks {
    /// The grid's width and height, once built.
    of: Option<(u32, u32)>,
    /// Each cell's directions, the ring [`SEEN`].
    open: Vec<u8>,
    /// Each cell's directions, the ring 0.
    full: Vec<u8>,
    /// Per padded cell: the id of its first forward edge (E, SE, SW: `+ k` for the `k`-th).
    edges: Vec<u32>,
}

/// A visited cell's bit in the masks of [`HexMoves`].
pub(super) const SEEN: u8 = 0x80;

/// The moves of a walker on a full hex grid, `p << 32 | y << 17` (its padded index and row,
/// whose parity, bit 17, picks the diagonal steps): a step is one add, and the edge of a step is
/// read from the table of forward edges ([`HexMoves::edge`]). The searches keep per padded cell
/// a byte of unvisited neighbours by direction (bit `d`; a cell's directions in order are its
/// slots in order, so the `i`-th choice is the graph's `i`-th) and [`SEEN`] once the cell is
/// visited (the ring starts visited).
pub(super) struct HexMoves {
    l: HexLayout,
    /// Per row parity and direction: the padded step, and the walker's step (sign-extended
    /// fields).
    pub dq: [[u32; 6]; 2],
    pub step: [[u64; 6]; 2],
}

impl HexMoves {
    /// The moves on `l`.
    pub fn new(l: HexLayout) -> HexMoves {
        let dq: [[u32; 6]; 2] =
            std::array::from_fn(|odd| std::array::from_fn(|d| l.step(odd as u32, d)));
        let step = std::array::from_fn(|odd| {
            std::array::from_fn(|d| {
                // A step up leaves a row of at least 1: the low word stays non-negative.
                let lo = DY[d] << 17;
                (((dq[odd][d] as i32 as i64) << 32) + lo as i32 as i64) as u64
            })
        });
        HexMoves { l, dq, step }
    }

    /// The walker at padded index `p` (a cell).
    pub fn walker(&self, p: u32) -> u64 {
        let y = p / self.l.pw() - 1;
        (p as u64) << 32 | (y << 17) as u64
    }

    /// The walker at cell id `c`.
    pub fn at_cell(&self, c: u32) -> u64 {
        self.walker(self.l.padded(c % self.l.w, c / self.l.w))
    }

    /// Every cell unvisited: `open` holds each cell's directions and the ring [`SEEN`]; returns
    /// the full masks (each cell's directions, the ring 0) and the forward edges
    /// ([`HexMoves::edge`]). They are built once per grid size into `cache` ([`HexMoves::tables`])
    /// and the masks copied from it for each maze.
    pub fn masks<'c>(&self, open: &mut Vec<u8>, cache: &'c mut HexMasks) -> (&'c [u8], &'c [u32]) {
        let cache = self.tables(cache);
        open.clear();
        open.extend_from_slice(&cache.open);
        (&cache.full, &cache.edges)
    }

    /// The tables of this layout in `cache`, built there unless they are of this grid size
    /// already.
    pub fn tables<'c>(&self, cache: &'c mut HexMasks) -> &'c HexMasks {
        let l = &self.l;
        if cache.of != Some((l.w, l.h)) {
            let n = (l.pw() * (l.h + 2)) as usize;
            cache.open.clear();
            cache.open.resize(n, SEEN);
            cache.full.clear();
            cache.full.resize(n, 0);
            cache.edges.clear();
            cache.edges.resize(n, 0);
            for y in 0..l.h {
                for x in 0..l.w {
                    let p = l.padded(x, y) as usize;
                    cache.full[p] = l.sides(x, y);
                    cache.edges[p] = l.forward_edge(x, y, 0);
                    cache.open[p] = cache.full[p];
                }
            }
            cache.of = Some((l.w, l.h));
        }
        cache
    }

    /// Per padded cell, the id of its first forward edge ([`HexMoves::edge`]), from `cache`.
    pub fn forward_edges<'c>(&self, cache: &'c mut HexMasks) -> &'c [u32] {
        &self.tables(cache).edges
    }

    /// A search's start: every cell unvisited ([`HexMoves::masks`]), then a random cell of `g`
    /// (the first draw) visited. Returns the full masks and the walker at that cell.
    pub fn start<'c, R: RandomSource>(
        &self,
        g: &CellGraph,
        open: &mut Vec<u8>,
        cache: &'c mut HexMasks,
        rng: &mut R,
    ) -> (&'c [u8], &'c [u32], u64) {
        let (full, edges) = self.masks(open, cache);
        let v = self.at_cell(super::random_cell(g, rng));
        self.visit(open, v);
        (full, edges, v)
    }

    /// The padded index of walker `v`.
    #[inline(always)]
    pub fn index(v: u64) -> usize {
        (v >> 32) as usize
    }

    /// Walker `v` moved in direction `d` (which it has).
    #[inline(always)]
    pub fn moved(&self, v: u64, d: usize) -> u64 {
        v.wrapping_add(self.step[((v >> 17) & 1) as usize][d])
    }

    /// Visit the cell of walker `v`: mark it, and clear it from its neighbours' masks (the bit
    /// of the direction back to it).
    ///
    /// # Panics
    ///
    /// If `open` is shorter than the layout (it must be the masks of [`HexMoves::masks`]).
    #[inline(always)]
    pub fn visit(&self, open: &mut [u8], v: u64) {
        let p = (v >> 32) as u32;
        let dq = &self.dq[((v >> 17) & 1) as usize];
        let l = &self.l;
        // A walker's cell is inside the ring, so its neighbours' indices are below the last
        // padded row's end; one check here covers the seven accesses.
        assert!(open.len() >= (l.pw() * (l.h + 2)) as usize);
        debug_assert!((l.pw()..l.pw() * (l.h + 1)).contains(&p));
        // SAFETY: `p` is the padded index of a cell (row 1..=h, column 1..=w), so `p` and
        // `p` plus any of the six steps (one row and one column at most) index the padded
        // `(w + 2) × (h + 2)` array, which `open` holds (asserted above).
        unsafe {
            *open.get_unchecked_mut(p as usize) |= SEEN;
            for (d, &s) in dq.iter().enumerate() {
                *open.get_unchecked_mut(p.wrapping_add(s) as usize) &= !(1 << ((d + 3) % 6));
            }
        }
    }

    /// Carve from walker `v` to one of the directions in `m` (its unvisited ones), drawn
    /// uniformly in direction order (`choose`): open the passage and visit the new cell, which
    /// is returned.
    #[inline(always)]
    pub fn carve<R: RandomSource>(
        &self,
        open: &mut [u8],
        edges: &[u32],
        maze: &mut GraphMaze,
        v: u64,
        m: u8,
        rng: &mut R,
    ) -> u64 {
        let d = select(m, rng.choose(count(m))) as usize;
        let t = self.moved(v, d);
        maze.open(Self::edge(edges, v, t, d));
        self.visit(open, t);
        t
    }

    /// The edge from the cell of walker `v` in direction `d`, to the cell of walker `t`:
    /// `edges` ([`HexMoves::forward_edges`]) holds each cell's first forward edge (E, SE, SW
    /// count on from it), and the edge is the forward one of `v` (`d` < 3) or of `t`. A cell
    /// without an east edge holds the id below its first edge, which wraps below 0 where that
    /// id is 0 ([`HexLayout::forward_edge`] is wrapping too), so the count wraps as well.
    #[inline(always)]
    pub fn edge(edges: &[u32], v: u64, t: u64, d: usize) -> u32 {
        let (lo, k) = if d < 3 { (v, d) } else { (t, d - 3) };
        edges[Self::index(lo)].wrapping_add(k as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topo::GridSize;

    /// Every forward edge by the formula is the graph's edge of that slot, and so is the edge
    /// of every slot by the walkers and the table of forward edges.
    #[test]
    fn forward_edges_are_the_graphs() {
        for (w, h) in [(1, 1), (1, 4), (2, 2), (3, 3), (4, 1), (5, 6), (8, 7)] {
            let g = CellGraph::new(GridSize::new(Grid::Hex, w, h));
            let l = HexLayout::of(&g).unwrap();
            let pw = l.pw() as i64;
            let mv = HexMoves::new(l);
            let mut cache = HexMasks::default();
            let edges = mv.forward_edges(&mut cache);
            for c in 0..g.len() {
                let (x, y) = (c % w, c / w);
                for t in g.slots(c) {
                    let d = g.dir(t) as usize;
                    let v = g.nbr(t);
                    // The padded step lands on the neighbour.
                    let p = l.padded(x, y).wrapping_add(l.step(y & 1, d));
                    assert_eq!(p, l.padded(v % w, v / w), "{w}x{h} cell {c} dir {d}");
                    if d < 3 {
                        assert_eq!(l.forward_edge(x, y, d as u32), g.edge(t), "{w}x{h} {c} {d}");
                    }
                    // The walkers' move, and the edge from the table, in every direction.
                    let (a, b) = (mv.at_cell(c), mv.at_cell(v));
                    assert_eq!(mv.moved(a, d), b, "{w}x{h} cell {c} dir {d}");
                    assert_eq!(HexMoves::edge(edges, a, b, d), g.edge(t), "{w}x{h} {c} {d}");
                }
                // The steps to missing neighbours land on the ring.
                let dirs: u8 = g.slots(c).fold(0, |m, t| m | 1 << g.dir(t));
                assert_eq!(l.sides(x, y), dirs, "{w}x{h} cell {c}");
                for d in 0..6 {
                    let p = l.padded(x, y).wrapping_add(l.step(y & 1, d)) as i64;
                    let (px, py) = (p % pw, p / pw);
                    let on_grid = (1..=w as i64).contains(&px) && (1..=h as i64).contains(&py);
                    let has = g.slots(c).any(|t| g.dir(t) as usize == d);
                    assert_eq!(on_grid, has, "{w}x{h} cell {c} dir {d}");
                }
            }
        }
        let mask = [true, false, true, true];
        let g = CellGraph::masked(GridSize::new(Grid::Hex, 2, 2), 2, 2, &mask).unwrap();
        assert!(HexLayout::of(&g).is_none());
    }
}
