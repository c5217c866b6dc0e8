//! The 3D path of the recursive backtracker ([`super::backtracker`] on a maze of depth > 1): the
//! same iterative depth-first search from cell (0,0,0), over six directions. At the top of the
//! stack the free neighbours are listed in [`crate::grid::Dir::ALL`] order (east, south, west,
//! north, down, up) and one is chosen with `below(k)` (no draw when there is one); a cell with
//! none is popped. Runs on the padded 3D state of [`super::space`]; each cell records the
//! direction back to its parent and the walls are opened in one pass at the end.

use super::padded::FREE;
use super::padded::IN_TREE;
use super::space::{carve_parent_links3, options_with, padded_state3, pick, OPPOSITE};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a perfect 3D maze by randomised DFS.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let sp = padded_state3(&mut s.mark, &mut s.next, maze.size());
    let n = maze.cells() as usize;
    if s.cells.len() < n {
        s.cells.resize(n, 0);
    }
    let stack = &mut s.cells[..];
    let mark = &mut s.mark[..];
    let next = &mut s.next[..];
    let start = sp.padded(0);
    let mut sp_len = 0usize;
    let mut c = start;
    mark[c as usize] = IN_TREE;
    loop {
        let (opts, k) = options_with(mark, &sp, c, FREE);
        if k == 0 {
            if sp_len == 0 {
                break;
            }
            sp_len -= 1;
            c = stack[sp_len];
            continue;
        }
        let d = pick(opts, k, rng);
        let nb = c.wrapping_add(sp.dp[d]);
        mark[nb as usize] = IN_TREE;
        next[nb as usize] = OPPOSITE[d];
        stack[sp_len] = c;
        sp_len += 1;
        c = nb;
    }
    carve_parent_links3(maze, &sp, next, start);
}
