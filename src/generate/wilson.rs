//! Wilson's algorithm: loop-erased random walks, uniform over all spanning trees.
//!
//! Implemented as Wilson's `RandomTreeWithRoot` (1996): walk from a cell not yet in the tree,
//! recording in `next[u]` the direction the walk last left `u` by, until the walk hits the tree;
//! then retrace from the start following `next`, which is exactly the loop-erased path, and add
//! it. No path list and no explicit loop erasure are needed.
//!
//! Choices that keep it uniform (any root and any order of start cells do): the root is the
//! cell nearest the centre, `(W/2, H/2)`, which roughly halves the walks on a grid compared with
//! a corner root; start cells are taken in row-major order. A random neighbour is drawn as a
//! uniform direction from 2 buffered bits, redrawn when it points off the grid: rejection keeps
//! the choice uniform among the existing neighbours.

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

/// Column step per direction (east, south, west, north), as wrapping `u32` additions.
const DX: [u32; 4] = [1, 0, u32::MAX, 0];
/// Row step per direction.
const DY: [u32; 4] = [0, 1, 0, u32::MAX];

/// Carve a uniform spanning tree by loop-erased random walks.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let n = maze.cells() as usize;
    s.mark.clear();
    s.mark.resize(n, 0);
    s.next.clear();
    s.next.resize(n, 0);
    let root = (h / 2) * w + w / 2;
    s.mark[root as usize] = 1;
    let delta = [1u32, w, 1u32.wrapping_neg(), w.wrapping_neg()];
    for y in 0..h {
        for x in 0..w {
            let start = y * w + x;
            if s.mark[start as usize] != 0 {
                continue;
            }
            // Random walk until the tree is hit.
            let (mut u, mut ux, mut uy) = (start, x, y);
            while s.mark[u as usize] == 0 {
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
                s.next[u as usize] = d as u8;
                u = u.wrapping_add(delta[d as usize]);
                // Table steps instead of a `match`: the direction is random, so a branch
                // would be mispredicted most of the time.
                ux = ux.wrapping_add(DX[d as usize]);
                uy = uy.wrapping_add(DY[d as usize]);
            }
            // Retrace the loop-erased path and add it to the tree.
            let mut u = start;
            while s.mark[u as usize] == 0 {
                s.mark[u as usize] = 1;
                let d = s.next[u as usize] as u32;
                maze.carve(u, Dir::from_index(d));
                u = u.wrapping_add(delta[d as usize]);
            }
        }
    }
}
