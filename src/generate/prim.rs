//! Simplified randomised Prim: keep a list of frontier walls (walls between a cell in the maze
//! and one outside it) and repeatedly remove a uniformly random one; if the cell behind it is
//! still outside, open the wall and add that cell's walls to outside neighbours. Written once
//! for 2D and 3D grids ([`Topology`]).
//!
//! This is the wall-list version (Wikipedia's "randomized Prim's"), not the cell-list one: a
//! cell with several walls on the frontier is proportionally more likely to join next, which
//! is what gives the dense short dead ends this generator is known for. Choices: the start
//! cell is uniform (`below(cells)`, one division per maze to get its padded index); walls are
//! only pushed towards cells outside the maze, in direction order, so each wall enters the list
//! at most once; a wall whose far cell has joined meanwhile is dropped when drawn. Entries pack
//! `far_padded << 32 | far_cell << 3 | direction_into_far_cell`, so no division is needed in
//! the loop, and swap-remove keeps removal O(1) (the list order is irrelevant to a uniform pick).
//!
//! Speed: cells live on the padded byte array of the topology (the padding, and a mask's holes,
//! outside), so a wall's far cell is one byte read away with no border test. The loop has no
//! data-dependent branch: the list is a buffer with its own length, each candidate wall is
//! written unconditionally and kept by adding its condition to the length, and a drawn wall
//! whose far cell has joined meanwhile (stale) opens nothing and pushes nothing through the
//! same masks. The buffer keeps its size across mazes (never re-zeroed: only entries below the
//! length are read) and doubles when a push might not fit.

use super::padded::{random_cell, FREE, IN_TREE as VISITED};
use super::topology::Topology;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Push the walls from cell `c` (padded `p`, just joined, when `fresh`) to outside cells.
/// The buffer grows (rarely, a predictable branch) so that the unconditional writes fit.
#[inline(always)]
fn push<T: Topology>(
    t: &T,
    list: &mut Vec<u64>,
    len: &mut usize,
    mark: &[u8],
    p: u32,
    c: u32,
    fresh: bool,
) {
    if *len + T::DIRS > list.len() {
        let grown = (2 * list.len()).max(64);
        list.resize(grown, 0);
    }
    // The conditions are loaded side by side and summed as a tree: `len` carries the loop's
    // dependency chain (the next draw needs it), so it takes one add, not one per direction.
    // Directions past `T::DIRS` keep 0 (constants once the loops unroll).
    let mut keep = [0usize; 6];
    for (d, k) in keep.iter_mut().enumerate().take(T::DIRS) {
        *k = (fresh & (mark[p.wrapping_add(t.step(d)) as usize] == FREE)) as usize;
    }
    let mut at = [0usize; 6];
    for d in 1..T::DIRS {
        at[d] = at[d - 1] + keep[d - 1];
    }
    for (d, &a) in at.iter().enumerate().take(T::DIRS) {
        let fp = p.wrapping_add(t.step(d));
        let fc = c.wrapping_add(t.cell_step(d));
        list[*len + a] = (fp as u64) << 32 | (fc as u64) << 3 | d as u64;
    }
    *len += (keep[0] + keep[1]) + (keep[2] + keep[3]) + (keep[4] + keep[5]);
}

/// Carve a perfect maze by simplified randomised Prim on topology `T`.
pub(crate) fn generate<T: Topology, R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
) {
    let start = random_cell(maze, rng);
    let t = T::marks(&mut s.mark, maze);
    let mut walls = maze.wall_writer();
    let mark = &mut s.mark[..];
    let list = &mut s.stack;
    let mut len = 0usize;
    let ps = t.padded(start);
    mark[ps as usize] = VISITED;
    push(&t, list, &mut len, mark, ps, start, true);
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
        let c = (e as u32) >> 3;
        let fresh = mark[p as usize] == FREE;
        mark[p as usize] = VISITED;
        // The wall faces back towards the cell already in the maze.
        walls.open_if(t.wall(c, T::opposite(e as usize & 7)), fresh);
        push(&t, list, &mut len, mark, p, c, fresh);
    }
}
