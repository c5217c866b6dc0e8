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
//! `far_cell << 32 | far_x << 2 | direction_into_far_cell`, so no division is needed in the
//! loop, and `swap_remove` keeps removal O(1) (the list order is irrelevant to a uniform pick).

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

/// Push the frontier walls of `c` (column `x`, just joined) towards cells outside the maze.
#[inline]
fn push_walls(s: &mut Scratch, w: u32, n: u32, c: u32, x: u32) {
    if x + 1 < w && s.mark[(c + 1) as usize] == 0 {
        s.stack
            .push(((c + 1) as u64) << 32 | ((x + 1) as u64) << 2 | Dir::East as u64);
    }
    if c + w < n && s.mark[(c + w) as usize] == 0 {
        s.stack
            .push(((c + w) as u64) << 32 | (x as u64) << 2 | Dir::South as u64);
    }
    if x > 0 && s.mark[(c - 1) as usize] == 0 {
        s.stack
            .push(((c - 1) as u64) << 32 | ((x - 1) as u64) << 2 | Dir::West as u64);
    }
    if c >= w && s.mark[(c - w) as usize] == 0 {
        s.stack
            .push(((c - w) as u64) << 32 | (x as u64) << 2 | Dir::North as u64);
    }
}

/// Carve a perfect maze by simplified randomised Prim.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let w = maze.width();
    let n = maze.cells();
    s.mark.clear();
    s.mark.resize(n as usize, 0);
    s.stack.clear();
    let start = rng.below(n);
    s.mark[start as usize] = 1;
    push_walls(s, w, n, start, start % w);
    while !s.stack.is_empty() {
        let len = s.stack.len() as u32;
        let i = if len == 1 { 0 } else { rng.below(len) };
        let e = s.stack.swap_remove(i as usize);
        let c = (e >> 32) as u32;
        if s.mark[c as usize] != 0 {
            continue;
        }
        s.mark[c as usize] = 1;
        // The wall faces back towards the cell already in the maze.
        maze.carve(c, Dir::from_index(e as u32 + 2));
        push_walls(s, w, n, c, (e as u32) >> 2);
    }
}
