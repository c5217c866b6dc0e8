//! Sidewinder: the north row is one corridor; every other row is cut into runs, and each run
//! opens one passage north from a uniformly chosen cell of the run.
//!
//! Scanning a row west to east, a fair coin decides after each cell whether the run goes on
//! east or is closed (the last cell of a row always closes its run). Every run of row `y > 0`
//! is a path joined to row `y − 1` by exactly one passage, so the result is a tree. The texture
//! is an open north corridor and a mild upward bias: a path north never needs to go south.
//! Only coins and one `below(run length)` per run of two cells or more are drawn (exactly
//! enumerable).
//!
//! Order of draws (generator version 2): per chunk of up to 64 cells of a row, first the
//! chunk's coins in one [`RandomSource::coins`] call, then the north cell of every run closed
//! in the chunk, west to east, by [`RandomSource::below_or_zero`] (the batch's [`crate::Rng`]
//! spends a draw on one-cell runs too, so the loop has no branch on the run length). Version 1
//! interleaved each run's draw with the coins; the distribution is the same (every coin and
//! every pick is an independent uniform choice of the same arity), but a seed gives a
//! different maze. The coins then fill a bitset `heads` (`east = !heads` within the row), the
//! north picks a bitset `north`, and the wall words are written whole from both, as the binary
//! tree does.

use super::shared::or_bits;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a sidewinder maze.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let words = maze.cell_bitset_words();
    // `stack` holds two cell bitsets: north openings, then east openings.
    s.stack.clear();
    s.stack.resize(2 * words, 0);
    let (north, east) = s.stack.split_at_mut(words);
    // North row: one corridor (cells 0..w-1 open east).
    let mut p = 0u32;
    while p < w - 1 {
        let k = (w - 1 - p).min(64);
        or_bits(east, p, u64::MAX >> (64 - k));
        p += k;
    }
    for y in 1..h {
        let row = y * w;
        let end = row + w; // one past the row
        let mut run = row;
        let mut p = row;
        while p < end {
            // Coins for cells p..p+k; the row's last cell closes its run without one.
            let k = (end - p).min(64);
            let mut heads = if p + k == end {
                let c = if k > 1 { rng.coins(k - 1) } else { 0 };
                c | 1 << (k - 1)
            } else {
                rng.coins(k)
            };
            // Tails go east (never the row's last cell, which is a head).
            or_bits(east, p, !heads & (u64::MAX >> (64 - k)));
            while heads != 0 {
                let close = p + heads.trailing_zeros();
                let pick = rng.below_or_zero(close - run + 1);
                let c = run + pick;
                north[(c >> 6) as usize] |= 1 << (c & 63);
                run = close + 1;
                heads &= heads - 1;
            }
            p += k;
        }
    }
    maze.set_from_cell_bitsets(east, north);
}
