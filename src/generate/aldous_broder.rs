//! Aldous–Broder: a random walk over the whole grid; the edge by which the walk first enters a
//! cell joins the tree. The result is uniform over all spanning trees (Aldous 1990, Broder
//! 1989), like Wilson's algorithm, so the two are a cross-check of each other. Written once for
//! 2D and 3D grids ([`Walk`]).
//!
//! It exists because it is the textbook uniform generator and the simplest one to prove, not
//! because it is fast: the walk must cover the grid, which takes about `n log² n` steps on an
//! `n`-cell grid (Wilson needs far fewer). Choices: the walk starts at the first cell ((0,0),
//! or (0,0,0); a mask's first cell in row order; any fixed start keeps the result uniform); a
//! step is a uniform direction ([`Walk::draw_block`]: 2 bits in 2D, 3 bits redrawn on 6 or 7
//! in 3D), redrawn when it points off the grid or into a hole of a mask, which keeps the choice
//! uniform among the existing neighbours and uses only exactly enumerable draws.
//!
//! Speed: the walk runs on a padded byte array ([`Walk::links`]) whose one byte per cell is
//! both the state and the parent direction: the padding is marked, so a step needs no
//! coordinates, and a step reads and writes one byte. In 2D directions come 32 to a word (the
//! same sequence as one `dir4()` per step) and the 32 steps of a word run without testing
//! whether the walk is done (once every cell is reached, further steps change nothing). Those
//! 32 steps are written out one after another, so each takes its direction by a constant shift
//! and the walk's cell and count stay in registers (0.66× the instructions of a loop over the
//! word, `benches/counts.sh`); each cell's entrance is recorded without a branch, and the walls
//! are written in one linear pass at the end.

use super::padded::{EDGE, UNSEEN};
use super::shared::Poll;
use super::topology::Walk;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// `f(i)` for each listed constant `i` below `n`, written out one after another.
macro_rules! unroll {
    ($f:ident, $n:expr; $($i:literal)*) => {
        $(if $i < $n { $f($i); })*
    };
}

/// Carve a uniform spanning tree by a covering random walk on topology `T`.
pub(crate) fn generate<T: Walk, R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let t = T::links(&mut s.next, maze);
    let link = &mut s.next[..];
    let start = t.padded(maze.first_cell());
    let mut u = start;
    // Reached, with no parent (the carve writes the root's "no parent" again).
    // As a parent direction, `DIRS` means "none" (the root's).
    link[u as usize] = T::DIRS as u8;
    let mut left = maze.tree_cells() - 1;
    let mut poll = Poll::new();
    // The padded steps, copied out of `t` so the loop reads them from registers or the stack.
    let dp: [u32; 8] = std::array::from_fn(|d| t.step(d % T::DIRS));
    while left > 0 {
        if poll.stop(T::BLOCK) {
            return super::abandon(maze, s, rng);
        }
        let block = T::draw_block(rng);
        // One step of the block: direction `i` of it. Every step of a block is written out
        // (`unroll!`), so the shifts are constants and the walk's position and count stay in
        // registers; `i < T::BLOCK` is decided at compile time.
        let mut step = |i: u32| {
            let d = T::dir_at(block, i);
            let v = u.wrapping_add(dp[d]);
            debug_assert!((v as usize) < link.len());
            // SAFETY: `u` is always a grid cell (the walk never moves onto padding), so its
            // neighbour `v` lies inside the padded array.
            let m = unsafe { *link.get_unchecked(v as usize) };
            if m == EDGE {
                return;
            }
            // First entrance: remember the way back. Written without a branch (a cell is fresh
            // about half the time early on and rarely late, which a branch would mispredict).
            let fresh = m == UNSEEN;
            let back = T::opposite(d) as u8;
            // SAFETY: `v` is in bounds, as above.
            unsafe { *link.get_unchecked_mut(v as usize) = if fresh { back } else { m } };
            left -= fresh as u32;
            u = v;
        };
        unroll!(step, T::BLOCK; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
            16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
    }
    t.carve_parent_links(maze, link, &mut s.codes, start);
}
