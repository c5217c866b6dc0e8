//! The 3D path of simplified randomised Prim ([`super::prim`] on a maze of depth > 1): a list
//! of frontier walls, each drawn uniformly (`below(len)`, no draw when there is one), opened
//! when the cell behind it is still outside the maze, which then pushes its walls to outside
//! neighbours. The start cell is uniform (`below(W·H·D)`). Entries pack
//! `far_padded << 32 | far_cell << 3 | direction_into_far_cell`; swap-remove keeps removal O(1)
//! (the list order does not matter to a uniform pick). Runs on the padded 3D state of
//! [`super::space`]; the list is the reused `Scratch::stack`, with its own length, and the loop
//! has no data-dependent branch (as in 2D).

use super::padded::{FREE, IN_TREE as VISITED};
use super::space::{padded_marks3, Space, OPPOSITE};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Push the walls from cell `c` (padded `p`, just joined, when `fresh`) to its neighbours
/// outside the maze, without branches as in 2D ([`super::prim`]): the six entries are written
/// unconditionally at prefix-sum positions and the length grows by the number kept. The buffer
/// grows (rarely, a predictable branch) so that the six writes fit.
#[inline(always)]
fn push(
    list: &mut Vec<u64>,
    len: &mut usize,
    mark: &[u8],
    sp: &Space,
    p: u32,
    c: u32,
    fresh: bool,
) {
    if *len + 6 > list.len() {
        let grown = (2 * list.len()).max(64);
        list.resize(grown, 0);
    }
    let keep: [usize; 6] = std::array::from_fn(|d| {
        (fresh & (mark[p.wrapping_add(sp.dp[d]) as usize] == FREE)) as usize
    });
    let (a, b) = (keep[0] + keep[1], keep[2] + keep[3]);
    let at = [0, keep[0], a, a + keep[2], a + b, a + b + keep[4]];
    for d in 0..6usize {
        let fp = p.wrapping_add(sp.dp[d]);
        let fc = c.wrapping_add(sp.dc[d]);
        list[*len + at[d]] = (fp as u64) << 32 | (fc as u64) << 3 | d as u64;
    }
    *len += a + b + (keep[4] + keep[5]);
}

/// Carve a perfect 3D maze by simplified randomised Prim.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let n = maze.cells();
    let sp = padded_marks3(&mut s.mark, maze.size());
    let mut walls = maze.wall_writer();
    let mark = &mut s.mark[..];
    let list = &mut s.stack;
    // Only entries below `len` are read: the buffer is never cleared.
    let mut len = 0usize;
    let start = rng.below(n);
    let ps = sp.padded(start);
    mark[ps as usize] = VISITED;
    push(list, &mut len, mark, &sp, ps, start, true);
    while len > 0 {
        let i = if len == 1 {
            0
        } else {
            rng.below(len as u32) as usize
        };
        // Swap-remove, as `Vec::swap_remove`.
        let e = list[i];
        len -= 1;
        list[i] = list[len];
        let p = (e >> 32) as u32;
        // A wall whose far cell joined meanwhile (stale) opens nothing and pushes nothing.
        let fresh = mark[p as usize] == FREE;
        let c = (e as u32) >> 3;
        let d = (e & 7) as usize;
        mark[p as usize] = VISITED;
        walls.open_if(sp.wall(c, OPPOSITE[d] as usize), fresh);
        push(list, &mut len, mark, &sp, p, c, fresh);
    }
}
