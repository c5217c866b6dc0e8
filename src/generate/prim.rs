//! Simplified randomised Prim: keep a list of frontier walls (walls between a cell in the maze
//! and one outside it) and repeatedly remove a uniformly random one; if the cell behind it is
//! still outside, open the wall and add that cell's walls to outside neighbours.
//!
//! This is the wall-list version (Wikipedia's "randomized Prim's"), not the cell-list one: a
//! cell with several walls on the frontier is proportionally more likely to join next, which
//! is what gives the dense short dead ends this generator is known for. Choices: the start
//! cell is uniform (`below(W·H)`, one division per maze to get its column); walls are only
//! pushed towards cells outside the maze, so each wall enters the list at most once; a wall
//! whose far cell has joined meanwhile is dropped when drawn. Entries pack
//! `far_padded << 32 | far_cell << 2 | direction_into_far_cell`, so no division is needed in
//! the loop, and swap-remove keeps removal O(1) (the list order is irrelevant to a uniform pick).
//!
//! Speed: cells live on the padded byte array of [`super::padded`] ([`super::padded::padded_marks`], border outside),
//! so a wall's far cell is one byte read away with no border test. The loop has no
//! data-dependent branch: the list is a buffer with its own length, each candidate wall is
//! written unconditionally and kept by adding its condition to the length, and a drawn wall
//! whose far cell has joined meanwhile (stale) opens nothing and pushes nothing through the
//! same masks. The buffer keeps its size across mazes (never re-zeroed: only entries below the
//! length are read) and doubles when a push might not fit.
//!
//! The 3D path stays a file of its own ([`super::prim_3d`]): a push written once over the
//! topology (the same branch-free push over four or six directions) took whole 2D runs about
//! 12% more user time (median ratio of nine alternating runs of
//! `batchgen --algo prim --size 64x64 --count 20000 --threads 1`), while the backtracker,
//! growing tree and hunt-and-kill share one implementation at no measurable cost.

use super::padded::{padded_marks_steps_of, random_cell, FREE, IN_TREE as VISITED};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a perfect maze by simplified randomised Prim.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let w = maze.width();
    let start = random_cell(maze, rng);
    let pw = w + 2;
    let dp = padded_marks_steps_of(&mut s.mark, maze);
    let size = maze.size();
    let dc = size.cell_steps();
    let wb = size.wall_id_steps();
    let mut walls = maze.wall_writer();
    let mark = &mut s.mark[..];
    let list = &mut s.stack;
    let mut len = 0usize;
    // Push the walls from cell `c` (padded `p`, just joined, when `fresh`) to outside cells.
    // The buffer grows (rarely, a predictable branch) so that the 4 unconditional writes fit.
    let push = |list: &mut Vec<u64>, len: &mut usize, mark: &[u8], p: u32, c: u32, fresh: bool| {
        if *len + 4 > list.len() {
            let grown = (2 * list.len()).max(64);
            list.resize(grown, 0);
        }
        // The four conditions are loaded side by side and summed as a tree: `len` carries the
        // loop's dependency chain (the next draw needs it), so it takes one add, not four.
        let keep: [usize; 4] = std::array::from_fn(|d| {
            (fresh & (mark[p.wrapping_add(dp[d]) as usize] == FREE)) as usize
        });
        let at = [
            *len,
            *len + keep[0],
            *len + keep[0] + keep[1],
            *len + keep[0] + keep[1] + keep[2],
        ];
        for d in 0..4usize {
            let fp = p.wrapping_add(dp[d]);
            let fc = c.wrapping_add(dc[d]);
            list[at[d]] = (fp as u64) << 32 | (fc as u64) << 2 | d as u64;
        }
        *len += (keep[0] + keep[1]) + (keep[2] + keep[3]);
    };
    let ps = (start / w + 1) * pw + start % w + 1;
    mark[ps as usize] = VISITED;
    push(list, &mut len, mark, ps, start, true);
    while len > 0 {
        let i = if len == 1 {
            0
        } else {
            rng.below(len as u32) as usize
        };
        let e = list[i];
        len -= 1;
        list[i] = list[len];
        let p = (e >> 32) as u32;
        let c = (e as u32) >> 2;
        let fresh = mark[p as usize] == FREE;
        mark[p as usize] = VISITED;
        // The wall faces back towards the cell already in the maze (direction d + 2 from c).
        let b = size.east_wall_id(c).wrapping_add(wb[(e as usize + 2) & 3]);
        walls.open_if(b, fresh);
        push(list, &mut len, mark, p, c, fresh);
    }
}
