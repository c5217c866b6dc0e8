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

use super::padded::{carve_parent_links, padded_of, padded_state_of, FREE, IN_TREE};
use super::shared::{option, options4};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a perfect maze by randomised DFS.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let delta = padded_state_of(s, maze);
    let start = padded_of(maze.first_cell(), w);
    // The stack holds the ancestors of the current cell `c` (which stays in a register); it
    // never holds more than every cell once.
    let n = (w * h) as usize;
    if s.cells.len() < n {
        s.cells.resize(n, 0);
    }
    let stack = &mut s.cells[..];
    let mark = &mut s.mark[..];
    let next = &mut s.next[..];
    let mut sp = 0usize;
    let mut c = start;
    mark[c as usize] = IN_TREE;
    loop {
        // The free neighbours in the order east, south, west, north, listed without branches.
        let (opts, k) = options4(mark, &delta, c, FREE);
        if k == 0 {
            if sp == 0 {
                break;
            }
            sp -= 1;
            c = stack[sp];
            continue;
        }
        // No draw when there is one option (`choose`), without a branch on it in the batch.
        let d = option(opts, rng.choose(k));
        let nb = c.wrapping_add(delta[d as usize]);
        mark[nb as usize] = IN_TREE;
        // Record the direction from the new cell back to its parent.
        next[nb as usize] = ((d + 2) & 3) as u8;
        stack[sp] = c;
        sp += 1;
        c = nb;
    }
    carve_parent_links(maze, next, &mut s.codes, start);
}
