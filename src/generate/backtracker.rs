//! Recursive backtracker as an iterative depth-first search (never recursive, so 4096×4096
//! cannot overflow the call stack).
//!
//! Starts at (0,0). At the top of the stack, the unvisited neighbours are listed in the order
//! east, south, west, north and one is chosen with an unbiased draw (no draw when there is a
//! single choice); a cell with none is popped. Stack entries pack `cell << 32 | x` so no
//! division is needed to know which neighbours exist.

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

/// Carve a perfect maze by randomised DFS.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let w = maze.width();
    let n = maze.cells();
    s.mark.clear();
    s.mark.resize(n as usize, 0);
    s.stack.clear();
    s.mark[0] = 1;
    s.stack.push(0);
    while let Some(&top) = s.stack.last() {
        let c = (top >> 32) as u32;
        let x = top as u32;
        let mut opts = [(0u32, Dir::East, 0u32); 4];
        let mut k = 0usize;
        if x + 1 < w && s.mark[(c + 1) as usize] == 0 {
            opts[k] = (c + 1, Dir::East, x + 1);
            k += 1;
        }
        if c + w < n && s.mark[(c + w) as usize] == 0 {
            opts[k] = (c + w, Dir::South, x);
            k += 1;
        }
        if x > 0 && s.mark[(c - 1) as usize] == 0 {
            opts[k] = (c - 1, Dir::West, x - 1);
            k += 1;
        }
        if c >= w && s.mark[(c - w) as usize] == 0 {
            opts[k] = (c - w, Dir::North, x);
            k += 1;
        }
        if k == 0 {
            s.stack.pop();
            continue;
        }
        let pick = if k == 1 {
            0
        } else {
            rng.below(k as u32) as usize
        };
        let (nb, d, nx) = opts[pick];
        maze.carve(c, d);
        s.mark[nb as usize] = 1;
        s.stack.push((nb as u64) << 32 | nx as u64);
    }
}
