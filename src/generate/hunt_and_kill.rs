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
//! Speed: the walk runs on the padded byte array of the topology, whose padding is marked
//! outside, so a neighbour test is one byte read with no coordinate check, and the options are
//! collected without branches. The walk carries its padded index and its cell id side by side
//! (one step table each), and opens walls with a third table of wall-id steps
//! ([`Topology::wall`]).
//!
//! On a mask (2D) the walk starts at the mask's first cell and the holes are marked outside.
//! The first unvisited cell may then have only holes to its west and north, so the masked hunt
//! (a separate instantiation, `MASKED`) keeps the cursor on the first unvisited cell and scans
//! on from it to the first unvisited cell with a visited neighbour.

use super::padded::{FREE, IN_TREE as VISITED};
use super::topology::Topology;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::{with_local_rng, RandomSource};

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
    let t = T::marks(&mut s.mark, maze);
    let (w, rows) = (t.width(), t.rows());
    let c0 = maze.first_cell();
    let mut walls = maze.wall_writer();
    let mark = &mut s.mark[..];
    let (mut p, mut c) = (t.padded(c0), c0);
    mark[p as usize] = VISITED;
    // Cursor: the row and column of the first possibly-unvisited cell, and the row's padded
    // start (recomputed only when the cursor changes rows).
    let (mut cy, mut cx) = (0u32, 0u32);
    let mut base = t.row_start(0);
    loop {
        // Kill: step into a random unvisited neighbour.
        let (opts, k) = t.options(mark, p, FREE);
        if k > 0 {
            let d = T::option(opts, rng.choose(k));
            walls.open(t.wall(c, d));
            p = p.wrapping_add(t.step(d));
            c = c.wrapping_add(t.cell_step(d));
            mark[p as usize] = VISITED;
            continue;
        }
        // Hunt: the first unvisited cell in cell-id order.
        loop {
            while cx < w && mark[(base + cx) as usize] != FREE {
                cx += 1;
            }
            if cx < w {
                break;
            }
            cy += 1;
            cx = 0;
            if cy == rows {
                return;
            }
            base = t.row_start(cy);
        }
        p = base + cx;
        if MASKED {
            // On to the first unvisited cell with a visited neighbour (holes and padding are
            // outside, so this stays on the grid; the mask is connected, so one exists).
            while mark[p as usize] != FREE || t.options(mark, p, VISITED).1 == 0 {
                p += 1;
            }
            c = t.cell(p);
        } else {
            c = cy * w + cx;
        }
        // Link it to a random visited neighbour (west and north ones are before the cursor).
        let (opts, k) = t.options(mark, p, VISITED);
        debug_assert!(k > 0, "hunted cell has no visited neighbour");
        let d = T::option(opts, rng.choose(k));
        walls.open(t.wall(c, d));
        mark[p as usize] = VISITED;
    }
}
