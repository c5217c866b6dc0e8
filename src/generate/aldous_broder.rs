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
//! Speed: the walk runs on the padded state array shared with Wilson (off-grid cells marked
//! outside, so a step needs no coordinates), takes its directions 32 to a word (the same
//! sequence as one `dir4()` per step), records each cell's entrance as a parent direction
//! without a branch, and writes the walls in one linear pass at the end.

use super::padded::{carve_parent_links, padded_origin, padded_state, FREE, IN_TREE, OUTSIDE};
use super::shared::Dirs;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a uniform spanning tree by a covering random walk.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let delta = padded_state(s, w, h);
    let mark = &mut s.mark[..];
    let next = &mut s.next[..];
    let start = padded_origin(w);
    let mut u = start;
    mark[u as usize] = IN_TREE;
    let mut left = w * h - 1;
    let mut dirs = Dirs::default();
    while left > 0 {
        let d = dirs.next(rng);
        let v = u.wrapping_add(delta[d as usize]);
        debug_assert!((v as usize) < mark.len() && next.len() == mark.len());
        // SAFETY: `u` is always a grid cell (the walk never moves onto padding), so its
        // neighbour `v` lies inside the padded array; `next` has the same length as `mark`.
        let m = unsafe { *mark.get_unchecked(v as usize) };
        if m == OUTSIDE {
            continue;
        }
        // First entrance: remember the way back. Written without a branch (a cell is fresh
        // about half the time early on and rarely late, which a branch would mispredict).
        let fresh = m == FREE;
        let back = ((d + 2) & 3) as u8;
        // SAFETY: `v` is in bounds, as above.
        let link = unsafe { next.get_unchecked_mut(v as usize) };
        *link = if fresh { back } else { *link };
        // SAFETY: `v` is in bounds, as above.
        unsafe { *mark.get_unchecked_mut(v as usize) = IN_TREE };
        left -= fresh as u32;
        u = v;
    }
    carve_parent_links(maze, next, &mut s.codes, start);
}
