//! Aldous–Broder: a random walk over the whole grid; the edge by which the walk first enters a
//! cell joins the tree. The result is uniform over all spanning trees (Aldous 1990, Broder
//! 1989), like Wilson's algorithm, so the two are a cross-check of each other.
//!
//! It exists because it is the textbook uniform generator and the simplest one to prove, not
//! because it is fast: the walk must cover the grid, which takes about `n log² n` steps on an
//! `n`-cell grid (Wilson needs far fewer). Choices: the walk starts at (0,0) (any fixed start
//! keeps the result uniform); a step is a uniform direction from 2 buffered bits, redrawn when
//! it points off the grid, which keeps the choice uniform among the existing neighbours and
//! uses only exactly enumerable draws.
//!
//! Speed: the walk runs on a padded byte array ([`super::padded::padded_links`]) whose one byte
//! per cell is both the state and the parent direction: the padding ring is marked, so a step
//! needs no coordinates, and a step reads and writes one byte. Directions come 32 to a word
//! (the same sequence as one `dir4()` per step) and the 32 steps of a word run without testing
//! whether the walk is done (once every cell is reached, further steps change nothing); each
//! cell's entrance is recorded without a branch, and the walls are written in one linear pass
//! at the end.

use super::padded::{
    carve_parent_links, padded_delta, padded_holes, padded_links, padded_of, EDGE, NO_PARENT,
    UNSEEN,
};
use super::shared::Poll;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a uniform spanning tree by a covering random walk.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    padded_links(&mut s.next, w, h);
    padded_holes(&mut s.next, maze, EDGE);
    let delta = padded_delta(w);
    let link = &mut s.next[..];
    let start = padded_of(maze.first_cell(), w);
    let mut u = start;
    link[u as usize] = NO_PARENT;
    let mut left = maze.tree_cells() - 1;
    let mut poll = Poll::new();
    while left > 0 {
        if poll.stop(32) {
            return super::abandon(maze, s, rng);
        }
        let mut block = rng.dir4_x32();
        for _ in 0..32 {
            let d = (block & 3) as u32;
            block >>= 2;
            let v = u.wrapping_add(delta[d as usize]);
            debug_assert!((v as usize) < link.len());
            // SAFETY: `u` is always a grid cell (the walk never moves onto padding), so its
            // neighbour `v` lies inside the padded array.
            let m = unsafe { *link.get_unchecked(v as usize) };
            if m == EDGE {
                continue;
            }
            // First entrance: remember the way back. Written without a branch (a cell is fresh
            // about half the time early on and rarely late, which a branch would mispredict).
            let fresh = m == UNSEEN;
            let back = ((d + 2) & 3) as u8;
            // SAFETY: `v` is in bounds, as above.
            unsafe { *link.get_unchecked_mut(v as usize) = if fresh { back } else { m } };
            left -= fresh as u32;
            u = v;
        }
    }
    carve_parent_links(maze, link, &mut s.codes, start);
}
