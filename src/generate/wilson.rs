//! Wilson's algorithm: loop-erased random walks, uniform over all spanning trees.
//!
//! Implemented as Wilson's `RandomTreeWithRoot` (1996): walk from a cell not yet in the tree,
//! recording in `next[u]` the direction the walk last left `u` by, until the walk hits the tree;
//! then retrace from the start following `next`, which is exactly the loop-erased path, and add
//! it. No path list and no explicit loop erasure are needed.
//!
//! Choices that keep it uniform (any root and any order of start cells do): the root is the
//! cell nearest the centre, `(W/2, H/2)`, which roughly halves the walks on a grid compared with
//! a corner root (on a mask, the mask cell nearest the centroid of its cells, the same cell for
//! a mask of every cell); start cells are taken in row-major order. A random neighbour is drawn
//! as a uniform direction from 2 random bits, redrawn when it points off the grid or into a hole
//! of a mask: rejection keeps the choice uniform among the existing neighbours.
//!
//! Speed: the walk runs on a padded `(W+2)×(H+2)` state array whose border cells are marked
//! "outside", so a step needs no coordinates and no bounds test beyond one byte read; the tree's
//! edges are written to the maze in one linear pass at the end.

use super::padded::{carve_parent_links, padded_state_of, wilson_root, FREE, IN_TREE, OUTSIDE};
use super::shared::{Dirs, Poll};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a uniform spanning tree by loop-erased random walks.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let pw = w + 2;
    let delta = padded_state_of(s, maze);
    let root = wilson_root(maze);
    let mark = &mut s.mark[..];
    let next = &mut s.next[..];
    mark[root as usize] = IN_TREE;
    // Directions come 32 to a word, consumed from the low end: the same sequence as one
    // `dir4()` per step, without the bit-buffer bookkeeping on every step.
    let mut dirs = Dirs::default();
    let mut poll = Poll::new();
    for y in 1..=h {
        let row = y * pw;
        for start in row + 1..=row + w {
            if mark[start as usize] != FREE {
                continue;
            }
            // Random walk until the tree is hit. The common step (onto a free cell) takes
            // one branch; off-grid draws are rejected, which keeps the step uniform among the
            // existing neighbours.
            let mut u = start;
            loop {
                if dirs.is_empty() && poll.stop(32) {
                    return super::abandon(maze, s, rng);
                }
                let d = dirs.next(rng);
                let nb = u.wrapping_add(delta[d as usize]);
                debug_assert!((nb as usize) < mark.len() && next.len() == mark.len());
                // SAFETY: `u` is always a grid cell (the walk never moves onto padding), so
                // its neighbour `nb` lies inside the padded array, and `next` has the same
                // length as `mark`.
                let m = unsafe { *mark.get_unchecked(nb as usize) };
                // SAFETY: as above, `u` is inside the padded array.
                unsafe { *next.get_unchecked_mut(u as usize) = d as u8 };
                if m != FREE {
                    if m == OUTSIDE {
                        continue;
                    }
                    break;
                }
                u = nb;
            }
            // Retrace the loop-erased path and add it to the tree.
            let mut u = start;
            while mark[u as usize] == FREE {
                mark[u as usize] = IN_TREE;
                u = u.wrapping_add(delta[next[u as usize] as usize]);
            }
        }
    }
    // Every cell but the root points to its parent: open those walls.
    carve_parent_links(maze, next, &mut s.codes, root);
}
