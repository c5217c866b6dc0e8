//! Sidewinder: the north row is one corridor; every other row is cut into runs, and each run
//! opens one passage north from a uniformly chosen cell of the run.
//!
//! Scanning a row west to east, a fair coin decides after each cell whether the run goes on
//! east or is closed (the last cell of a row always closes its run). Every run of row `y > 0`
//! is a path joined to row `y − 1` by exactly one passage, so the result is a tree. The texture
//! is an open north corridor and a mild upward bias: a path north never needs to go south.
//! Only buffered coins and one `below(run length)` per run are drawn (exactly enumerable).

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

/// Carve a sidewinder maze.
pub fn generate<R: RandomSource>(maze: &mut Maze, _s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    for c in 0..w - 1 {
        maze.carve_east(c);
    }
    for y in 1..h {
        let row = y * w;
        let last = row + w - 1;
        let mut run = row;
        for c in row..=last {
            if c == last || rng.coin() {
                let len = c - run + 1;
                let pick = if len == 1 { 0 } else { rng.below(len) };
                maze.carve(run + pick, Dir::North);
                run = c + 1;
            } else {
                maze.carve_east(c);
            }
        }
    }
}
