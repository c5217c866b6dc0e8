//! Recursive backtracker as an iterative depth-first search (never recursive, so 4096×4096
//! cannot overflow the call stack).
//!
//! Starts at (0,0). At the top of the stack, the unvisited neighbours are listed in the order
//! east, south, west, north and one is chosen with an unbiased draw (no draw when there is a
//! single choice); a cell with none is popped.
//!
//! Speed: the search runs on the padded `(W+2)×(H+2)` state array shared with Wilson (border
//! cells pre-marked), so neighbour tests are one byte read each and need no coordinates; each
//! cell records the direction back to its parent, and the passages are written to the maze in
//! one linear pass at the end.

use super::wilson::{carve_parent_links, padded_state};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

const FREE: u8 = 0;

/// Carve a perfect maze by randomised DFS.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let pw = w + 2;
    let delta = padded_state(s, w, h);
    let start = pw + 1;
    s.mark[start as usize] = 1;
    s.stack.clear();
    s.stack.push(start as u64);
    while let Some(&top) = s.stack.last() {
        let c = top as u32;
        let mut opts = [0u32; 4];
        let mut k = 0usize;
        for d in 0..4u32 {
            opts[k] = d;
            k += (s.mark[c.wrapping_add(delta[d as usize]) as usize] == FREE) as usize;
        }
        if k == 0 {
            s.stack.pop();
            continue;
        }
        let d = opts[if k == 1 {
            0
        } else {
            rng.below(k as u32) as usize
        }];
        let nb = c.wrapping_add(delta[d as usize]);
        s.mark[nb as usize] = 1;
        // Record the direction from the new cell back to its parent.
        s.next[nb as usize] = ((d + 2) & 3) as u8;
        s.stack.push(nb as u64);
    }
    carve_parent_links(maze, &s.next, start);
}
