//! Aldous–Broder: a random walk over the whole grid; the edge by which the walk first enters a
//! cell joins the tree. The result is uniform over all spanning trees (Aldous 1990, Broder
//! 1989), like Wilson's algorithm, so the two are a cross-check of each other.
//!
//! It exists because it is the textbook uniform generator and the simplest one to prove, not
//! because it is fast: the walk must cover the grid, which takes about `n log² n` steps on an
//! `n`-cell grid (Wilson needs far fewer). Choices: the walk starts at (0,0) (any fixed start
//! keeps the result uniform); a step is a uniform direction from 2 buffered bits, redrawn when
//! it points off the grid, which keeps the choice uniform among the existing neighbours and
//! uses only exactly enumerable draws. Coordinates are tracked incrementally (no division).

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

/// Column step per direction (east, south, west, north), as wrapping `u32` additions.
const DX: [u32; 4] = [1, 0, u32::MAX, 0];
/// Row step per direction.
const DY: [u32; 4] = [0, 1, 0, u32::MAX];

/// Carve a uniform spanning tree by a covering random walk.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let n = maze.cells();
    s.mark.clear();
    s.mark.resize(n as usize, 0);
    let delta = [1u32, w, 1u32.wrapping_neg(), w.wrapping_neg()];
    let (mut u, mut ux, mut uy) = (0u32, 0u32, 0u32);
    s.mark[0] = 1;
    let mut left = n - 1;
    while left > 0 {
        let valid = (ux + 1 < w) as u32
            | ((uy + 1 < h) as u32) << 1
            | ((ux > 0) as u32) << 2
            | ((uy > 0) as u32) << 3;
        let d = loop {
            let d = rng.dir4();
            if valid >> d & 1 != 0 {
                break d;
            }
        };
        let v = u.wrapping_add(delta[d as usize]);
        if s.mark[v as usize] == 0 {
            s.mark[v as usize] = 1;
            maze.carve(u, Dir::from_index(d));
            left -= 1;
        }
        u = v;
        // Table steps instead of a `match`: the direction is random, so a branch would be
        // mispredicted most of the time.
        ux = ux.wrapping_add(DX[d as usize]);
        uy = uy.wrapping_add(DY[d as usize]);
    }
}
