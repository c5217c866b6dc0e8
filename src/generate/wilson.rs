//! Wilson's algorithm: loop-erased random walks, uniform over all spanning trees. Written once
//! for 2D and 3D grids ([`Walk`]).
//!
//! Implemented as Wilson's `RandomTreeWithRoot` (1996): walk from a cell not yet in the tree,
//! recording in `next[u]` the direction the walk last left `u` by (and in `to[u]` the cell that
//! step led to), until the walk hits the tree; then retrace from the start following `to`,
//! which is exactly the loop-erased path, and add it ([`loop_erased_walks`]). No path list and
//! no explicit loop erasure are needed.
//!
//! Choices that keep it uniform (any root and any order of start cells do): the root is the
//! cell nearest the centre, `(W/2, H/2)` or `(W/2, H/2, D/2)`, which roughly halves the walks on
//! a grid compared with a corner root (on a mask, the mask cell nearest the centroid of its
//! cells, the same cell for a mask of every cell); start cells are taken in cell-id order (x,
//! then y, then z). A random neighbour is drawn as a uniform direction ([`Walk::draw_block`]: 2
//! bits in 2D, 3 bits redrawn on 6 or 7 in 3D), redrawn when it points off the grid or into a
//! hole of a mask: rejection keeps the choice uniform among the existing neighbours.
//!
//! Speed: the walk runs on a padded state array whose border cells are marked "outside", so a
//! step needs no coordinates and no bounds test beyond one byte read; in 2D the directions come
//! 32 to a word ([`Dirs`]), taken in a loop of their own with the refill and the stop-flag count
//! outside it, laid out so that the common step (onto a free cell) falls through to the count
//! test, the loop's one taken branch (a step is a few instructions, so taken branches, not
//! work, would bound it); the start cells are found eight mark bytes at a time
//! ([`next_free`](super::walk::next_free)); the tree's edges are written to the maze in one
//! linear pass at the end.

use super::padded::{FREE, OUTSIDE};
use super::shared::Poll;
use super::topology::Walk;
use super::walk::{loop_erased_walks, Dirs};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a uniform spanning tree by loop-erased random walks on topology `T`.
pub(crate) fn generate<T: Walk, R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let t = T::state(s, maze);
    let root = t.wilson_root(maze);
    let mark = &mut s.mark[..];
    let next = &mut s.next[..];
    // The cell each walk step led to, for the retrace; stale entries are never read.
    let to = &mut s.cells;
    let mut dirs = Dirs::<T>::new();
    let mut poll = Poll::new();
    let done = loop_erased_walks(&t, mark, next, to, root, |mark, next, to, start| {
        // Random walk until the tree is hit. The common step (onto a free cell) takes one
        // branch; off-grid draws are rejected, which keeps the step uniform among the existing
        // neighbours.
        let mut u = start;
        loop {
            if dirs.is_empty() {
                if poll.stop(T::BLOCK) {
                    return false;
                }
                dirs.refill(rng);
            }
            // The rest of the block, in a loop left by a step that does not land on a free
            // cell: the common step falls through to the count test, the loop's only taken
            // branch.
            let (mut block, mut left) = dirs.take();
            let m = loop {
                let d = T::take_dir(&mut block);
                left -= 1;
                let nb = u.wrapping_add(t.step(d));
                debug_assert!((nb as usize) < mark.len() && next.len() == mark.len());
                debug_assert!(to.len() >= mark.len());
                // SAFETY: `u` is always a grid cell (the walk never moves onto padding), so its
                // neighbour `nb` lies inside the padded array, `next` has the same length as
                // `mark` and `to` is at least as long.
                let m = unsafe { *mark.get_unchecked(nb as usize) };
                // SAFETY: as above, `u` is inside the padded array.
                unsafe {
                    *next.get_unchecked_mut(u as usize) = d as u8;
                    *to.get_unchecked_mut(u as usize) = nb;
                }
                if m != FREE {
                    break m;
                }
                u = nb;
                if left == 0 {
                    break FREE;
                }
            };
            dirs.keep(block, left);
            // Off the grid the draw is rejected (the walk stays); the tree ends the walk.
            if m != FREE && m != OUTSIDE {
                return true;
            }
        }
    });
    if !done {
        return super::abandon(maze, s, rng);
    }
    // Every cell but the root points to its parent: open those walls.
    t.carve_parent_links(maze, next, &mut s.codes, root);
}
