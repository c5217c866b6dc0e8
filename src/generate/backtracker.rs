//! Recursive backtracker as an iterative depth-first search (never recursive, so 4096×4096
//! cannot overflow the call stack), written once for 2D and 3D grids ([`Topology`]).
//!
//! Starts at the first cell ((0,0), or (0,0,0); a mask's first cell in row order). At the top
//! of the stack, the unvisited neighbours are listed in direction order (east, south, west,
//! north, then down, up in 3D) and one is chosen with an unbiased draw (no draw when there is a
//! single choice); a cell with none is popped.
//!
//! Speed: the search runs on the padded state array of the topology (the padding, and a mask's
//! holes, pre-marked outside), so neighbour tests are one byte read each and need no
//! coordinates; each cell records the direction back to its parent, and the passages are
//! written to the maze in one linear pass at the end ([`Topology::carve_parent_links`]).

use super::padded::{FREE, IN_TREE};
use super::topology::Topology;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a perfect maze by randomised DFS on topology `T`.
pub(crate) fn generate<T: Topology, R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
) {
    let t = T::state(s, maze);
    let start = t.padded(maze.first_cell());
    // The stack holds the ancestors of the current cell `c` (which stays in a register); it
    // never holds more than every cell once.
    let n = maze.size().cells() as usize;
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
        // The free neighbours in direction order, listed without branches.
        let (opts, k) = t.options(mark, c, FREE);
        if k == 0 {
            if sp == 0 {
                break;
            }
            sp -= 1;
            c = stack[sp];
            continue;
        }
        // No draw when there is one option (`choose`), without a branch on it in the batch.
        let d = T::option(opts, rng.choose(k));
        let nb = c.wrapping_add(t.step(d));
        mark[nb as usize] = IN_TREE;
        // Record the direction from the new cell back to its parent.
        next[nb as usize] = T::opposite(d) as u8;
        stack[sp] = c;
        sp += 1;
        c = nb;
    }
    t.carve_parent_links(maze, next, &mut s.codes, start);
}
