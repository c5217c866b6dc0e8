//! The 3D path of simplified randomised Prim ([`super::prim`] on a maze of depth > 1): a list
//! of frontier walls, each drawn uniformly (`below(len)`, no draw when there is one), opened
//! when the cell behind it is still outside the maze, which then pushes its walls to outside
//! neighbours. The start cell is uniform (`below(W·H·D)`). Entries pack
//! `far_padded << 32 | far_cell << 3 | direction_into_far_cell`; swap-remove keeps removal O(1)
//! (the list order does not matter to a uniform pick). Runs on the padded 3D state of
//! [`super::space`]; the list is the reused `Scratch::stack`. A twin of the 2D file, not a
//! shared implementation: see [`super::prim`] for why.

use super::padded::{FREE, IN_TREE as VISITED};
use super::space::{padded_marks3, Space, OPPOSITE};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Push the walls from cell `c` (padded `p`) to its neighbours outside the maze.
#[inline]
fn push(list: &mut Vec<u64>, mark: &[u8], sp: &Space, p: u32, c: u32) {
    for d in 0..6usize {
        let fp = p.wrapping_add(sp.dp[d]);
        if mark[fp as usize] == FREE {
            let fc = c.wrapping_add(sp.dc[d]);
            list.push((fp as u64) << 32 | (fc as u64) << 3 | d as u64);
        }
    }
}

/// Carve a perfect 3D maze by simplified randomised Prim.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let n = maze.cells();
    let sp = padded_marks3(&mut s.mark, maze.size());
    let mut walls = maze.wall_writer();
    let mark = &mut s.mark[..];
    let list = &mut s.stack;
    list.clear();
    let start = rng.below(n);
    let ps = sp.padded(start);
    mark[ps as usize] = VISITED;
    push(list, mark, &sp, ps, start);
    while !list.is_empty() {
        let i = if list.len() == 1 {
            0
        } else {
            rng.below(list.len() as u32) as usize
        };
        let e = list.swap_remove(i);
        let p = (e >> 32) as u32;
        if mark[p as usize] != FREE {
            continue; // its far cell joined meanwhile
        }
        let c = (e as u32) >> 3;
        let d = (e & 7) as usize;
        mark[p as usize] = VISITED;
        walls.open(sp.wall(c, OPPOSITE[d] as usize));
        push(list, mark, &sp, p, c);
    }
}
