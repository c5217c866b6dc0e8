//! Binary tree: every cell except the north-east corner opens exactly one wall, north or east,
//! chosen by a fair coin; cells on the north row can only go east and cells in the east column
//! only north.
//!
//! Each cell's passage leads strictly towards the north-east corner, so the passages form a
//! tree rooted there with exactly `W·H − 1` edges. It is the fastest generator (one buffered
//! bit per cell, no scratch at all) and the most biased: the north row and east column are
//! open corridors and every path to the north-east corner is monotone. North/east is the
//! usual convention (Jamis Buck, knossos's default).

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

/// Carve a binary-tree maze (north/east bias).
pub fn generate<R: RandomSource>(maze: &mut Maze, _s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    // North row: one corridor towards the east.
    for c in 0..w - 1 {
        maze.carve_east(c);
    }
    for y in 1..h {
        let row = y * w;
        for c in row..row + w - 1 {
            if rng.coin() {
                maze.carve(c, Dir::North);
            } else {
                maze.carve_east(c);
            }
        }
        // East column: only north is possible.
        maze.carve(row + w - 1, Dir::North);
    }
}
