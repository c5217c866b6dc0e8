//! The padded `(W+2)×(H+2)×(D+2)` state shared by the 3D paths of the generators (the 3D
//! counterpart of [`super::padded`]): one byte per cell with a shell of "outside" cells around
//! the box, so a step in any of the six directions is one table add and one byte read, with no
//! coordinates and no bounds test; the wall-id table that opens a cell's wall in direction `d`
//! without a `match`; and the linear pass that turns per-cell parent directions into walls.
//!
//! Directions are small integers `0..6` in [`Dir::ALL`] order (east, south, west, north, down,
//! up); [`OPPOSITE`] maps each to its opposite. [`Space`] is the 3D side of
//! [`super::topology::Topology`] (the generators written once for both shapes), and the 3D
//! twin kept (biased Wilson) uses this module directly.

use super::padded::{EDGE, FREE, OUTSIDE, UNSEEN};
use crate::grid::{Dir, Maze, Size};

/// The opposite of each direction `0..6` ([`Dir::ALL`] order).
pub(crate) const OPPOSITE: [u8; 6] = [2, 3, 0, 1, 5, 4];

/// A parent direction meaning "no parent" (the root of a tree) in 3D.
pub(crate) const NO_PARENT3: u8 = 6;

/// The geometry of a padded 3D box and the steps of each direction in it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Space {
    /// Cells along x, y, z.
    pub(crate) w: u32,
    pub(crate) h: u32,
    pub(crate) d: u32,
    /// Padded row length, `W + 2`.
    pub(crate) pw: u32,
    /// Padded layer size, `(W + 2)·(H + 2)`.
    pub(crate) plane: u32,
    /// Padded-index step of each direction (wrapping `u32` additions).
    pub(crate) dp: [u32; 6],
    /// Cell-id step of each direction (wrapping `u32` additions).
    pub(crate) dc: [u32; 6],
    /// Wall ids: the wall of cell `c` in direction `k` is `(c << shift[k]) + add[k]` (wrapping).
    shift: [u32; 6],
    add: [u32; 6],
}

impl Space {
    /// The padded geometry of `size` (any depth, though only 3D paths use it).
    pub(crate) fn new(size: Size) -> Space {
        let (w, h, d) = (size.width, size.height, size.depth);
        let pw = w + 2;
        let plane = pw * (h + 2);
        let layer = size.layer_cells();
        let neg = |x: u32| x.wrapping_neg();
        // The down walls' ids start past the planar ones; `wall_id` knows where.
        let down_base = if size.is_3d() {
            size.wall_id(0, Dir::Down)
        } else {
            0
        };
        Space {
            w,
            h,
            d,
            pw,
            plane,
            dp: [1, pw, neg(1), neg(pw), plane, neg(plane)],
            dc: [1, w, neg(1), neg(w), layer, neg(layer)],
            shift: [1, 1, 1, 1, 0, 0],
            add: [
                0,
                1,
                neg(2),
                neg(2 * w - 1),
                down_base,
                down_base.wrapping_sub(layer),
            ],
        }
    }

    /// Length of the padded array.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.plane as usize * (self.d + 2) as usize
    }

    /// The padded index of cell `c` (divisions: once per maze, not per step).
    #[inline]
    pub(crate) fn padded(&self, c: u32) -> u32 {
        let (x, r) = (c % self.w, c / self.w);
        let (y, z) = (r % self.h, r / self.h);
        (z + 1) * self.plane + (y + 1) * self.pw + x + 1
    }

    /// The padded index of the first cell of row `y` of layer `z`.
    #[inline]
    pub(crate) fn row_start(&self, y: u32, z: u32) -> u32 {
        (z + 1) * self.plane + (y + 1) * self.pw + 1
    }

    /// The id of the wall of cell `c` in direction `k` (`0..6`, which must be interior).
    #[inline]
    pub(crate) fn wall(&self, c: u32, k: usize) -> u32 {
        (c << self.shift[k]).wrapping_add(self.add[k])
    }
}

/// The directions `0..6` whose neighbour of padded cell `p` has state `want`, in [`Dir::ALL`]
/// order, without branches: the directions packed three bits each (option `j` in bits
/// `3j..3j+3`) and their count. As [`super::shared::options4`] in 2D: the six tests load side
/// by side, the slot positions are prefix sums, and no options array is stored and reloaded.
///
/// # Safety
///
/// `p` is a cell of the box (not the padding layer) and `mark` the padded array of `sp`, so
/// that each of its six neighbours lies inside `mark`.
#[inline(always)]
pub(crate) unsafe fn options_with(mark: &[u8], sp: &Space, p: u32, want: u8) -> (u32, usize) {
    let f: [u32; 6] = std::array::from_fn(|d| {
        let nb = p.wrapping_add(sp.dp[d]) as usize;
        debug_assert!(nb < mark.len());
        // SAFETY: each of `p`'s six neighbours lies inside `mark` (the caller's promise).
        (unsafe { *mark.get_unchecked(nb) } == want) as u32
    });
    let (a, b) = (f[0] + f[1], f[2] + f[3]);
    let at = [0, f[0], a, a + f[2], a + b, a + b + f[4]];
    // Direction 0 adds nothing (its value is 0); a direction that is not an option adds 0 and
    // leaves its slot to the next one.
    let packed = (1..6).fold(0u32, |acc, d| acc | (d as u32 * f[d]) << (3 * at[d]));
    (packed, (a + b + (f[4] + f[5])) as usize)
}

/// Fill `mark` with the padded state of `size`: the shell outside, every cell free.
pub(crate) fn padded_marks3(mark: &mut Vec<u8>, size: Size) -> Space {
    padded_fill3(mark, size, FREE, OUTSIDE)
}

/// The one-array state of Aldous–Broder on a 3D box (the counterpart of
/// [`super::padded::padded_links`]): every cell [`UNSEEN`], the shell [`EDGE`]; a reached cell
/// then holds its parent direction (`0..6`), which [`carve_parent_links3`] reads as it is.
pub(crate) fn padded_links3(links: &mut Vec<u8>, size: Size) -> Space {
    padded_fill3(links, size, UNSEEN, EDGE)
}

/// Fill a padded byte array of `size`: `inside` on the cells, `outside` on the shell. Row by
/// row with slice fills.
fn padded_fill3(a: &mut Vec<u8>, size: Size, inside: u8, outside: u8) -> Space {
    let sp = Space::new(size);
    a.clear();
    a.resize(sp.len(), outside);
    for z in 0..sp.d {
        for y in 0..sp.h {
            let p = sp.row_start(y, z) as usize;
            a[p..p + sp.w as usize].fill(inside);
        }
    }
    sp
}

/// Fill `sides` with, for each cell of the padded array of `sp`, the set of directions (bit `k`
/// for direction `k` of [`Space::dp`]: east, south, west, north, down, up) whose neighbour is
/// on the grid: one byte read instead of six mark reads per walk step (the 3D counterpart of
/// [`super::padded::padded_sides`]). Row by row with slice fills; the shell gets 0.
pub(crate) fn padded_sides3(sides: &mut Vec<u8>, sp: &Space) {
    sides.clear();
    sides.resize(sp.len(), 0);
    let (w, h, d) = (sp.w, sp.h, sp.d);
    for z in 0..d {
        for y in 0..h {
            let mut row = 63u8;
            if y == 0 {
                row &= !8;
            }
            if y + 1 == h {
                row &= !2;
            }
            if z + 1 == d {
                row &= !16;
            }
            if z == 0 {
                row &= !32;
            }
            let start = sp.row_start(y, z) as usize;
            let cells = &mut sides[start..start + w as usize];
            cells.fill(row);
            cells[0] &= !4;
            cells[w as usize - 1] &= !1;
        }
    }
}

/// [`padded_marks3`] plus `next` zeroed to the same length (the parent-direction generators).
pub(crate) fn padded_state3(mark: &mut Vec<u8>, next: &mut Vec<u8>, size: Size) -> Space {
    let sp = padded_marks3(mark, size);
    next.clear();
    next.resize(sp.len(), 0);
    sp
}

/// Write the maze from parent directions: `next[p]` (padded index `p`) is the direction from
/// each cell to its parent, except at `root`, which has none (it is set to [`NO_PARENT3`]
/// here). As [`super::padded::carve_parent_links`] in 2D: a wall is open when either side
/// points through it, so each cell's three bits come from four bytes — east: `next[p] == E ||
/// next[p+1] == W`; south: `next[p] == S || next[p+pw] == N`; down: `next[p] == Down ||
/// next[p+plane] == Up` — computed row by row over whole slices (vectorised) and packed into
/// the maze by [`Maze::set_cell_codes3`]: no branch on the (random) directions, no per-wall
/// read-modify-write. The codes are written into `next` itself, cell `c` at index `c`: a row's
/// codes land below its padded index and every later read lies at or past it, so no byte is
/// overwritten before it is read; `next` holds the codes afterwards, not the directions.
/// Padding cells must hold a value other than west (2), north (3) and up (5), which would
/// point back into the box: 0 ([`padded_state3`]) does.
pub(crate) fn carve_parent_links3(maze: &mut Maze, sp: &Space, next: &mut [u8], root: u32) {
    next[root as usize] = NO_PARENT3;
    let (w, pw, plane) = (sp.w as usize, sp.pw as usize, sp.plane as usize);
    let mut c = 0usize;
    for z in 0..sp.d {
        for y in 0..sp.h {
            let p = sp.row_start(y, z) as usize;
            let (done, rest) = next.split_at_mut(p);
            let out = &mut done[c..c + w];
            let here = &rest[..w];
            let right = &rest[1..1 + w];
            let south = &rest[pw..pw + w];
            let below = &rest[plane..plane + w];
            for ((((o, &a), &r), &s), &b) in
                out.iter_mut().zip(here).zip(right).zip(south).zip(below)
            {
                let east = (a == 0) | (r == 2);
                let south = (a == 1) | (s == 3);
                let down = (a == 4) | (b == 5);
                *o = east as u8 | (south as u8) << 1 | (down as u8) << 2;
            }
            c += w;
        }
    }
    maze.set_cell_codes3(&next[..c]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vectorised carve against one opened wall per cell, on parent directions drawn at
    /// random among each cell's neighbours (not a tree: every wall a direction names, from
    /// either side, must open, and no other), with the root anywhere.
    #[test]
    fn carve_matches_one_wall_per_cell() {
        for size in [
            Size::new(3, 2, 4),
            Size::new(1, 1, 3),
            Size::new(7, 5, 3),
            Size::new(8, 8, 8),
        ] {
            let sp = Space::new(size);
            let mut x = 0x2545_f491u32 ^ size.cells();
            for root in [0, size.cells() / 2, size.cells() - 1] {
                let (mut mark, mut next) = (Vec::new(), Vec::new());
                padded_state3(&mut mark, &mut next, size);
                let mut want = Maze::with_size(size);
                for c in 0..size.cells() {
                    let dirs: Vec<usize> = (0..6)
                        .filter(|&k| size.has_neighbour(c, Dir::ALL[k]))
                        .collect();
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    let k = dirs[x as usize % dirs.len()];
                    next[sp.padded(c) as usize] = k as u8;
                    if c != root {
                        want.carve(c, Dir::ALL[k]);
                    }
                }
                let mut got = Maze::with_size(size);
                got.open_all();
                carve_parent_links3(&mut got, &sp, &mut next, sp.padded(root));
                assert_eq!(got, want, "{size} root {root}");
            }
        }
    }

    #[test]
    fn sides_are_the_neighbours_inside_the_shell() {
        for size in [
            Size::new(3, 2, 4),
            Size::new(1, 1, 3),
            Size::new(5, 4, 3),
            Size::new(1, 6, 2),
        ] {
            let mut mark = Vec::new();
            let sp = padded_marks3(&mut mark, size);
            let mut sides = Vec::new();
            padded_sides3(&mut sides, &sp);
            assert_eq!(sides.len(), mark.len());
            for (p, &m) in mark.iter().enumerate() {
                let want = if m == OUTSIDE {
                    0
                } else {
                    (0..6).fold(0u8, |v, k| {
                        let nb = (p as u32).wrapping_add(sp.dp[k]) as usize;
                        v | ((mark[nb] != OUTSIDE) as u8) << k
                    })
                };
                assert_eq!(sides[p], want, "{size:?} at padded {p}");
            }
        }
    }

    #[test]
    fn steps_and_wall_ids_match_the_grid() {
        for size in [Size::new(3, 2, 4), Size::new(1, 1, 3), Size::new(5, 4, 3)] {
            let sp = Space::new(size);
            let mut mark = Vec::new();
            padded_marks3(&mut mark, size);
            assert_eq!(
                mark.iter().filter(|&&m| m == FREE).count() as u32,
                size.cells()
            );
            for c in 0..size.cells() {
                let p = sp.padded(c);
                assert_eq!(mark[p as usize], FREE);
                for (k, dir) in Dir::ALL.into_iter().enumerate() {
                    let q = p.wrapping_add(sp.dp[k]) as usize;
                    assert_eq!(
                        mark[q] == FREE,
                        size.has_neighbour(c, dir),
                        "{size} {c} {dir:?}"
                    );
                    if size.has_neighbour(c, dir) {
                        let nb = size.neighbour(c, dir);
                        assert_eq!(c.wrapping_add(sp.dc[k]), nb);
                        assert_eq!(q as u32, sp.padded(nb));
                        assert_eq!(sp.wall(c, k), size.wall_id(c, dir));
                        assert_eq!(Dir::ALL[OPPOSITE[k] as usize], dir.opposite());
                    }
                }
            }
        }
    }

    /// Every set of the six neighbours of a middle cell: the packed list holds exactly the
    /// matching directions, in order.
    #[test]
    fn options_with_lists_the_matching_directions_in_order() {
        let size = Size::new(3, 3, 3);
        let sp = Space::new(size);
        let mut mark = Vec::new();
        padded_marks3(&mut mark, size);
        let p = sp.padded(13); // (1, 1, 1)
        for set in 0..64u32 {
            for (d, &step) in sp.dp.iter().enumerate() {
                mark[p.wrapping_add(step) as usize] = if set >> d & 1 == 1 { 7 } else { FREE };
            }
            // SAFETY: (1, 1, 1) is a cell of the box and `mark` its padded array.
            let (packed, k) = unsafe { options_with(&mark, &sp, p, 7) };
            let want: Vec<u32> = (0..6).filter(|d| set >> d & 1 == 1).collect();
            let got: Vec<u32> = (0..k).map(|j| packed >> (3 * j) & 7).collect();
            assert_eq!(got, want, "neighbour set {set:06b}");
        }
    }
}
