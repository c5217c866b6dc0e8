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
//! uniform direction from 2 random bits, redrawn when it points off the grid: rejection keeps
//! the choice uniform among the existing neighbours.
//!
//! Speed: the walk runs on a padded `(W+2)×(H+2)` state array whose border cells are marked
//! "outside", so a step needs no coordinates and no bounds test beyond one byte read; the tree's
//! edges are written to the maze in one linear pass at the end.

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

const FREE: u8 = 0;
const IN_TREE: u8 = 1;
const OUTSIDE: u8 = 2;

/// Prepare the padded `(w+2)×(h+2)` state shared by Wilson and the backtracker: `s.mark` with
/// its border outside and everything else free, `s.next` zeroed to the same length. Returns
/// the index step for each direction (east, south, west, north) in the padded array.
pub(crate) fn padded_state(s: &mut Scratch, w: u32, h: u32) -> [u32; 4] {
    padded_marks(&mut s.mark, w, h);
    s.next.clear();
    s.next.resize(s.mark.len(), 0);
    let pw = w + 2;
    [1, pw, 1u32.wrapping_neg(), pw.wrapping_neg()]
}

/// Mark the border of a padded `(w+2)×(h+2)` state array as outside, everything else free.
fn padded_marks(mark: &mut Vec<u8>, w: u32, h: u32) {
    let pw = (w + 2) as usize;
    let ph = (h + 2) as usize;
    mark.clear();
    mark.resize(pw * ph, FREE);
    mark[..pw].fill(OUTSIDE);
    mark[(ph - 1) * pw..].fill(OUTSIDE);
    for y in 1..ph - 1 {
        mark[y * pw] = OUTSIDE;
        mark[y * pw + pw - 1] = OUTSIDE;
    }
}

/// Carve a uniform spanning tree by loop-erased random walks.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let pw = w + 2;
    let delta = padded_state(s, w, h);
    let root = (h / 2 + 1) * pw + w / 2 + 1;
    s.mark[root as usize] = IN_TREE;
    for y in 1..=h {
        for x in 1..=w {
            let start = y * pw + x;
            if s.mark[start as usize] != FREE {
                continue;
            }
            // Random walk until the tree is hit.
            let mut u = start;
            loop {
                let d = rng.dir4();
                let nb = u.wrapping_add(delta[d as usize]);
                let m = s.mark[nb as usize];
                if m == OUTSIDE {
                    continue;
                }
                s.next[u as usize] = d as u8;
                u = nb;
                if m == IN_TREE {
                    break;
                }
            }
            // Retrace the loop-erased path and add it to the tree.
            let mut u = start;
            while s.mark[u as usize] == FREE {
                s.mark[u as usize] = IN_TREE;
                u = u.wrapping_add(delta[s.next[u as usize] as usize]);
            }
        }
    }
    // Every cell but the root points to its parent: open those walls.
    carve_parent_links(maze, &s.next, root);
}

/// Open, for every cell but `root` (a padded index), the wall in the direction recorded for it
/// in the padded `next` array: one linear pass that turns parent links into passages.
pub(crate) fn carve_parent_links(maze: &mut Maze, next: &[u8], root: u32) {
    let (w, h) = (maze.width(), maze.height());
    let pw = w + 2;
    let mut c = 0u32;
    for y in 1..=h {
        for x in 1..=w {
            let p = y * pw + x;
            if p != root {
                maze.carve(c, Dir::from_index(next[p as usize] as u32));
            }
            c += 1;
        }
    }
}
