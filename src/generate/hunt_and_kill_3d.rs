//! The 3D path of hunt-and-kill ([`super::hunt_and_kill`] on a maze of depth > 1): a random walk
//! from (0,0,0) into unvisited cells, choosing with `below(k)` among the unvisited neighbours
//! listed in [`crate::grid::Dir::ALL`] order (no draw when there is one); when stuck, the hunt
//! takes the first unvisited cell in cell-id order and joins it to a random visited neighbour.
//! As in 2D a cursor only moves forward: every cell before it is visited and it is not cell 0,
//! so its west, north or up neighbour exists and is visited, and the first unvisited cell is
//! the first one with a visited neighbour; the run is linear. Runs on the padded 3D state of
//! [`super::space`], carrying the padded index and the cell id side by side.

use super::padded::{FREE, IN_TREE as VISITED};
use super::space::{options_with, padded_marks3, pick};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a perfect 3D maze by hunt-and-kill.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let sp = padded_marks3(&mut s.mark, maze.size());
    let mut walls = maze.wall_writer();
    let mark = &mut s.mark[..];
    let (mut p, mut c) = (sp.padded(0), 0u32);
    mark[p as usize] = VISITED;
    // Cursor: the cell id of the first possibly-unvisited cell, and its row's coordinates.
    let (mut cz, mut cy, mut cx) = (0u32, 0u32, 0u32);
    loop {
        let (opts, k) = options_with(mark, &sp, p, FREE);
        if k > 0 {
            let d = pick(opts, k, rng);
            walls.open(sp.wall(c, d));
            p = p.wrapping_add(sp.dp[d]);
            c = c.wrapping_add(sp.dc[d]);
            mark[p as usize] = VISITED;
            continue;
        }
        // Hunt: the first unvisited cell in cell-id order.
        loop {
            let base = sp.row_start(cy, cz) as usize;
            while cx < sp.w && mark[base + cx as usize] != FREE {
                cx += 1;
            }
            if cx < sp.w {
                break;
            }
            cx = 0;
            cy += 1;
            if cy == sp.h {
                cy = 0;
                cz += 1;
                if cz == sp.d {
                    return;
                }
            }
        }
        p = sp.row_start(cy, cz) + cx;
        c = cx + sp.w * (cy + sp.h * cz);
        let (opts, k) = options_with(mark, &sp, p, VISITED);
        debug_assert!(k > 0, "hunted cell has no visited neighbour");
        let d = pick(opts, k, rng);
        walls.open(sp.wall(c, d));
        mark[p as usize] = VISITED;
    }
}
