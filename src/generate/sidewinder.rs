//! Sidewinder: the north row is one corridor; every other row is cut into runs, and each run
//! opens one passage north from a uniformly chosen cell of the run.
//!
//! Scanning a row west to east, a fair coin decides after each cell whether the run goes on
//! east or is closed (the last cell of a row always closes its run). Every run of row `y > 0`
//! is a path joined to row `y − 1` by exactly one passage, so the result is a tree. The texture
//! is an open north corridor and a mild upward bias: a path north never needs to go south.
//! Only buffered coins and one `below(run length)` per run are drawn (exactly enumerable).
//!
//! Speed: a run is drawn whole, [`RandomSource::tails_before_head`] counting the tails before
//! the closing head (the same coins, in the same order, as one `coin()` per cell), and its east
//! passages are written as one masked OR per wall word instead of one bit per cell.

use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Open the east walls of cells `a..b` (same row) in the wall words.
#[inline]
fn open_east(words: &mut [u64], a: u32, b: u32) {
    let mut a = a;
    while a < b {
        let i = a >> 5;
        let lo = a & 31;
        let hi = (b - (i << 5)).min(32);
        let mask = 0x5555_5555_5555_5555u64 & (u64::MAX << (2 * lo)) & (u64::MAX >> (64 - 2 * hi));
        words[i as usize] |= mask;
        a = (i + 1) << 5;
    }
}

/// Carve a sidewinder maze.
pub fn generate<R: RandomSource>(maze: &mut Maze, _s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let words = maze.words_mut();
    open_east(words, 0, w - 1);
    for y in 1..h {
        let row = y * w;
        let last = row + w - 1;
        let mut run = row;
        while run <= last {
            // Cells run..run+z go east; cell run+z closes the run (a head, or the row's end).
            let z = rng.tails_before_head(last - run);
            open_east(words, run, run + z);
            let pick = if z == 0 { 0 } else { rng.below(z + 1) };
            // North of cell c is the south wall of cell c - w.
            let b = 2 * (run + pick - w) + 1;
            words[(b >> 6) as usize] |= 1 << (b & 63);
            run += z + 1;
        }
    }
}
