//! A full hex grid (no mask) as the square generators see theirs: cells in a padded
//! `(W+2)×(H+2)` byte array whose ring holds "outside", so a neighbour is one add away (by the
//! row's parity on the diagonals) with no bounds test, and the edge between two cells computed
//! from coordinates instead of read from the graph's tables. The edge ids are those of
//! [`crate::topo::CellGraph`] (each cell's forward edges E, SE, SW counted row by row); the
//! tests check them against the graph.

use crate::topo::{CellGraph, Grid};

/// The constants of a full hex grid's padded layout.
#[derive(Clone, Copy, Debug)]
pub(super) struct HexLayout {
    /// Width and height in cells.
    pub w: u32,
    pub h: u32,
}

/// The largest width and height the packed coordinates of [`HexLayout`]'s users hold.
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
        let pw = self.pw();
        [
            1,
            pw + odd,
            pw + odd - 1,
            u32::MAX,
            (odd.wrapping_sub(1)).wrapping_sub(pw),
            odd.wrapping_sub(pw),
        ][d]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topo::GridSize;

    /// Every forward edge by the formula is the graph's edge of that slot.
    #[test]
    fn forward_edges_are_the_graphs() {
        for (w, h) in [(1, 1), (1, 4), (2, 2), (3, 3), (4, 1), (5, 6), (8, 7)] {
            let g = CellGraph::new(GridSize::new(Grid::Hex, w, h));
            let l = HexLayout::of(&g).unwrap();
            let pw = l.pw() as i64;
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
                }
                // The steps to missing neighbours land on the ring.
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
