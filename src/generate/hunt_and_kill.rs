//! Hunt-and-kill: a random walk that only steps into unvisited cells ("kill"); when it is stuck,
//! scan the grid row by row for the first unvisited cell next to a visited one ("hunt"), join
//! it to a random visited neighbour and walk on from there. Written once for 2D and 3D grids
//! ([`Topology`]; the rows of a 3D box are taken layer by layer, in cell-id order).
//!
//! The naive hunt rescans from the top and is quadratic. Here the walk starts at the first
//! cell, and a cursor keeps the first unvisited cell in cell-id order; it only moves forward.
//! Every cell before the cursor is visited and the cursor is not cell 0, so its west, north or
//! up neighbour is visited: the first unvisited cell *is* the first unvisited cell with a
//! visited neighbour, exactly what the row-by-row hunt finds, and the whole run is linear. Walk
//! steps and the hunted cell's link are chosen with unbiased `below(k)` draws among the options
//! listed in direction order (east, south, west, north, then down, up in 3D; no draw when there
//! is one option), like the backtracker.
//!
//! Speed: the walk runs on padded byte arrays of the topology, whose padding is marked outside,
//! so it needs no coordinate check. Each cell also keeps a byte of its free (unvisited)
//! neighbours ([`Topology::free_masks`]), and a cell that joins clears its bit in each
//! neighbour's byte ([`Topology::visit`]): a walk step finds its options in one byte where it
//! read a mark per neighbour; the hunt reads the marks. The walk carries its padded index and
//! its cell id side by side (one step table each), and opens walls with a third table of
//! wall-id steps
//! ([`Topology::wall`]). The marks and walls are written without bounds checks (the
//! invariants are in the SAFETY comments of [`advance`]).
//!
//! A walk step is a chain of dependent operations (the cell, its mask, the count of free
//! neighbours, the draw, the next cell), so one maze leaves the processor waiting. A
//! batch worker makes 2D mazes two at a time ([`generate_pair`]): the steps of two mazes, each
//! drawing from its own source, are interleaved one by one, so each chain runs while the other
//! waits. A step joins one cell (a walk step, or a hunt and its link), so two mazes on the
//! same cells end together.
//!
//! On a mask (2D) the walk starts at the mask's first cell and the holes are marked outside.
//! The first unvisited cell may then have only holes to its west and north, so the masked hunt
//! (a separate instantiation, `MASKED`) keeps the cursor on the first unvisited cell and scans
//! on from it to the first unvisited cell with a visited neighbour.

use super::padded::{FREE, IN_TREE as VISITED};
use super::shared::{free_option, free_options, pair_in_locals};
use super::topology::{marks_and_free_masks, Planar, Topology};
use super::Scratch;
use crate::grid::{Maze, WallWriter};
use crate::rng::{with_local_rng, RandomSource};

/// One hunt-and-kill in progress: the marks, the walls, where the walk is and the hunt's cursor.
struct Hunt<'a> {
    /// The padded cell states.
    mark: &'a mut [u8],
    /// Each padded cell's free neighbours ([`Topology::free_masks`]).
    free: &'a mut [u8],
    /// The maze's walls.
    walls: WallWriter<'a>,
    /// The walk's cell (padded index).
    p: u32,
    /// The walk's cell (cell id).
    c: u32,
    /// The cursor's row.
    cy: u32,
    /// The cursor's column.
    cx: u32,
    /// The padded index of the cursor row's first cell (recomputed only when the row changes).
    base: u32,
}

/// Mark the grid of `maze` and start the walk at its first cell.
#[inline(always)]
fn begin<'a, T: Topology>(maze: &'a mut Maze, s: &'a mut Scratch) -> (T, Hunt<'a>) {
    let c = maze.first_cell();
    let (t, p) = marks_and_free_masks::<T>(maze, s, c);
    let mark = &mut s.mark[..];
    mark[p as usize] = VISITED;
    let h = Hunt {
        mark,
        free: &mut s.sides[..],
        walls: maze.wall_writer(),
        p,
        c,
        cy: 0,
        cx: 0,
        base: t.row_start(0),
    };
    (t, h)
}

/// One step: the walk into a random unvisited neighbour ("kill"), or, when it is stuck, the
/// hunt for the next cell and its link to a visited neighbour (the masked hunt when `MASKED`).
/// False, once the hunt finds no unvisited cell: the maze is done, and `advance` must not be
/// called on it again.
#[inline(always)]
fn advance<T: Topology, R: RandomSource, const MASKED: bool>(
    t: &T,
    h: &mut Hunt<'_>,
    rng: &mut R,
) -> bool {
    // Kill: step into a random unvisited neighbour.
    // SAFETY: the walk's cell is a grid cell (the first cell, a free neighbour or a hunted
    // cell), and `free` the padded array's masks.
    let (opts, k) = unsafe { free_options(h.free, h.p) };
    if k > 0 {
        let d = free_option(opts, rng.choose(k));
        // SAFETY: the wall between two grid cells (the walk's and a free neighbour) is interior.
        unsafe { h.walls.open_if_unchecked(t.wall(h.c, d), true) };
        h.p = h.p.wrapping_add(t.step(d));
        h.c = h.c.wrapping_add(t.cell_step(d));
        debug_assert!((h.p as usize) < h.mark.len());
        // SAFETY: a free neighbour is a grid cell (padding and holes are outside), so its
        // padded index is inside `mark`.
        unsafe { *h.mark.get_unchecked_mut(h.p as usize) = VISITED };
        // SAFETY: as above, a grid cell.
        unsafe { t.visit(h.free, h.p) };
        return true;
    }
    // Hunt: the first unvisited cell in cell-id order (the cursor in locals while it scans).
    let (w, mut cx) = (t.width(), h.cx);
    loop {
        while cx < w && {
            debug_assert!(((h.base + cx) as usize) < h.mark.len());
            // SAFETY: `cx < w` and the cursor's row is a grid row (`cy < rows`), so
            // `base + cx` is a grid cell of the padded array.
            (unsafe { *h.mark.get_unchecked((h.base + cx) as usize) }) != FREE
        } {
            cx += 1;
        }
        if cx < w {
            break;
        }
        h.cy += 1;
        cx = 0;
        if h.cy == t.rows() {
            h.cx = cx;
            return false;
        }
        h.base = t.row_start(h.cy);
    }
    h.cx = cx;
    let mut p = h.base + cx;
    if MASKED {
        // On to the first unvisited cell with a visited neighbour (holes and padding are
        // outside, so this stays on the grid; the mask is connected, so one exists).
        // SAFETY (`options`): asked only of a cell marked free, a cell of the grid.
        while h.mark[p as usize] != FREE || unsafe { t.options(h.mark, p, VISITED) }.1 == 0 {
            p += 1;
        }
        h.c = t.cell(p);
    } else {
        h.c = h.cy * w + cx;
    }
    h.p = p;
    // Link it to a random visited neighbour (west and north ones are before the cursor).
    // SAFETY: the hunted cell is a grid cell (marked free), and `mark` the padded array.
    let (opts, k) = unsafe { t.options(h.mark, p, VISITED) };
    debug_assert!(k > 0, "hunted cell has no visited neighbour");
    let d = T::option(opts, rng.choose(k));
    // SAFETY: the hunted cell and its visited neighbour are grid cells: an interior wall.
    unsafe { h.walls.open_if_unchecked(t.wall(h.c, d), true) };
    h.mark[p as usize] = VISITED;
    // SAFETY: as above, a grid cell.
    unsafe { t.visit(h.free, p) };
    true
}

/// Carve a perfect maze by hunt-and-kill on topology `T`.
pub(crate) fn generate<T: Topology, R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
) {
    // The batch's generator runs on a copy in locals, stored back once: the same draws.
    with_local_rng!(rng, |r| if maze.mask().is_some() {
        hunt::<T, _, true>(maze, s, r)
    } else {
        hunt::<T, _, false>(maze, s, r)
    })
}

/// [`generate`], with the masked hunt when `MASKED`.
#[inline(always)]
fn hunt<T: Topology, R: RandomSource, const MASKED: bool>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
) {
    let (t, mut h) = begin::<T>(maze, s);
    while advance::<T, R, MASKED>(&t, &mut h, rng) {}
}

/// [`generate`] for two 2D mazes of one size at once, each with its own scratch and random
/// source: exactly the two mazes [`generate`] makes of each alone (each takes the same draws
/// from its own source). The steps of the two are interleaved one by one (a walk step, or a
/// hunt and its link), so each walk's chain of dependent loads runs while the other waits.
/// Every step joins one cell, whether it walks or hunts, so two mazes on the same cells end
/// together; mazes of one size on different masks (different numbers of cells) end apart, and
/// the one left finishes alone. With a mask on either maze, both take the masked hunt (on an
/// unmasked grid it finds the same cells). Never inlined, so a profile counts it on its own
/// (one call per two mazes).
#[inline(never)]
pub(crate) fn generate_pair<R: RandomSource>(
    a: &mut Maze,
    sa: &mut Scratch,
    ra: &mut R,
    b: &mut Maze,
    sb: &mut Scratch,
    rb: &mut R,
) {
    if a.mask().is_some() || b.mask().is_some() {
        pair_in_locals!(hunt_pair::<_, _, true>, a, sa, ra, b, sb, rb)
    } else {
        pair_in_locals!(hunt_pair::<_, _, false>, a, sa, ra, b, sb, rb)
    }
}

/// The loop of [`generate_pair`], with the masked hunt when `MASKED`.
#[inline(always)]
fn hunt_pair<RA: RandomSource, RB: RandomSource, const MASKED: bool>(
    a: &mut Maze,
    sa: &mut Scratch,
    ra: &mut RA,
    b: &mut Maze,
    sb: &mut Scratch,
    rb: &mut RB,
) {
    let (t, mut ha) = begin::<Planar>(a, sa);
    // One size, so one geometry: the steps and wall ids are the same for both.
    let (_, mut hb) = begin::<Planar>(b, sb);
    // Each step joins one cell: on the same cells both end in the same round.
    loop {
        if !advance::<_, _, MASKED>(&t, &mut ha, ra) {
            while advance::<_, _, MASKED>(&t, &mut hb, rb) {}
            return;
        }
        if !advance::<_, _, MASKED>(&t, &mut hb, rb) {
            while advance::<_, _, MASKED>(&t, &mut ha, ra) {}
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Mask;
    use crate::rng::Rng;
    use std::sync::Arc;

    /// A pair of one size whose mazes have different cells (two masks, or a mask and the full
    /// grid) ends apart: the one left must be finished alone, on its own source, whichever of
    /// the two ends first.
    #[test]
    fn a_pair_on_different_cells_is_two_single_mazes() {
        let masks = [
            "..#....\n.##.#..\n....#..\n.#.....\n",
            "#......\n.......\n...##..\n.......\n",
        ]
        .map(|m| Maze::masked(Arc::new(Mask::from_text(m).unwrap())));
        let full = Maze::with_size(masks[0].size());
        let sides = [
            (&masks[0], &masks[1]),
            (&masks[1], &masks[0]),
            (&masks[0], &full),
            (&full, &masks[1]),
        ];
        for (ta, tb) in sides {
            for i in 0..12u64 {
                let seeds = [i.wrapping_mul(0x9e37_79b9_7f4a_7c15), i ^ 0x55];
                let (mut a, mut b) = (ta.clone(), tb.clone());
                let (mut ra, mut rb) =
                    (Rng::from_maze_seed(seeds[0]), Rng::from_maze_seed(seeds[1]));
                let (mut sa, mut sb) = (Scratch::new(), Scratch::new());
                generate_pair(&mut a, &mut sa, &mut ra, &mut b, &mut sb, &mut rb);
                for (got, template, seed, after) in [(&a, ta, seeds[0], ra), (&b, tb, seeds[1], rb)]
                {
                    let (mut want, mut r) = (template.clone(), Rng::from_maze_seed(seed));
                    generate::<Planar, _>(&mut want, &mut Scratch::new(), &mut r);
                    assert_eq!(got, &want, "seed {seed}");
                    assert!(got.is_perfect());
                    assert_eq!(format!("{after:?}"), format!("{r:?}"), "seed {seed}");
                }
            }
        }
    }
}
