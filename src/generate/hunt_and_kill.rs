//! Hunt-and-kill: a random walk that only steps into unvisited cells ("kill"); when it is stuck,
//! scan the grid row by row for the first unvisited cell next to a visited one ("hunt"), join
//! it to a random visited neighbour and walk on from there.
//!
//! The naive hunt rescans from the top and is quadratic. Here the walk starts at (0,0), and a
//! cursor keeps the first unvisited cell in row-major order; it only moves forward. Every cell
//! before the cursor is visited and the cursor is not cell 0, so its west or north neighbour is
//! visited: the first unvisited cell *is* the first unvisited cell with a visited neighbour,
//! exactly what the row-by-row hunt finds, and the whole run is linear. Walk steps and the
//! hunted cell's link are chosen with unbiased `below(k)` draws among the options listed east,
//! south, west, north (no draw when there is one option), like the backtracker.
//!
//! Speed: the walk runs on a padded `(W+2)×(H+2)` byte array whose border is marked outside
//! ([`super::padded::padded_marks`]), so a neighbour test is one byte read with no coordinate check, and the
//! options are collected without branches. The walk carries its padded index and its cell id
//! side by side (one step table each), and opens walls with a third table of wall-bit offsets
//! ([`crate::grid::Size::wall_id_steps`]).
//!
//! On a mask the walk starts at the mask's first cell and the holes are marked outside. The
//! first unvisited cell may then have only holes to its west and north, so the masked hunt
//! (a separate instantiation, `MASKED`) keeps the cursor on the first unvisited cell and scans
//! on from it to the first unvisited cell with a visited neighbour.

use super::padded::{padded_marks_steps_of, padded_of, FREE, IN_TREE as VISITED};
use super::shared::{option, options4};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a perfect maze by hunt-and-kill.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    if maze.mask().is_some() {
        hunt::<R, true>(maze, s, rng)
    } else {
        hunt::<R, false>(maze, s, rng)
    }
}

/// [`generate`], with the masked hunt when `MASKED`.
#[inline(always)]
fn hunt<R: RandomSource, const MASKED: bool>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let pw = w + 2;
    let dp = padded_marks_steps_of(&mut s.mark, maze);
    let size = maze.size();
    let dc = size.cell_steps();
    let wb = size.wall_id_steps();
    let c0 = maze.first_cell();
    let mut walls = maze.wall_writer();
    let mark = &mut s.mark[..];
    let (mut p, mut c) = (padded_of(c0, w), c0);
    mark[p as usize] = VISITED;
    // Cursor: padded row and column of the first possibly-unvisited cell.
    let (mut cy, mut cx) = (1u32, 1u32);
    loop {
        // Kill: step into a random unvisited neighbour.
        let (opts, k) = options4(mark, &dp, p, FREE);
        if k > 0 {
            let d = option(opts, rng.choose(k)) as usize;
            walls.open(size.east_wall_id(c).wrapping_add(wb[d]));
            p = p.wrapping_add(dp[d]);
            c = c.wrapping_add(dc[d]);
            mark[p as usize] = VISITED;
            continue;
        }
        // Hunt: the first unvisited cell in row-major order.
        loop {
            let base = (cy * pw) as usize;
            while cx <= w && mark[base + cx as usize] != FREE {
                cx += 1;
            }
            if cx <= w {
                break;
            }
            cy += 1;
            cx = 1;
            if cy > h {
                return;
            }
        }
        p = cy * pw + cx;
        if MASKED {
            // On to the first unvisited cell with a visited neighbour (holes and padding are
            // outside, so this stays on the grid; the mask is connected, so one exists).
            while mark[p as usize] != FREE || options4(mark, &dp, p, VISITED).1 == 0 {
                p += 1;
            }
            c = (p / pw - 1) * w + p % pw - 1;
        } else {
            c = (cy - 1) * w + cx - 1;
        }
        // Link it to a random visited neighbour (west and north ones are before the cursor).
        let (opts, k) = options4(mark, &dp, p, VISITED);
        debug_assert!(k > 0, "hunted cell has no visited neighbour");
        let d = option(opts, rng.choose(k)) as usize;
        walls.open(size.east_wall_id(c).wrapping_add(wb[d]));
        mark[p as usize] = VISITED;
    }
}
