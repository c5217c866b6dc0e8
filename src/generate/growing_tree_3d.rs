//! The 3D path of the growing tree ([`super::growing_tree`] on a maze of depth > 1): the same
//! active list, [`Policy`] and lazy retirement as in 2D (retired entries skipped at the ends,
//! rejected and redrawn by `random`, compacted once they outnumber live ones), with neighbours
//! over six directions listed in [`crate::grid::Dir::ALL`] order and chosen with `below(k)` (no
//! draw when there is one). The start cell is uniform (`below(W·H·D)`). Runs on the padded 3D
//! state of [`super::space`]; list entries are `padded << 32 | cell`.

use super::growing_tree::Active;
use super::padded::FREE;
use super::space::{options_with, padded_marks3, pick};
use super::{Policy, Scratch};
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a perfect 3D maze by the growing-tree method with the given selection policy.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, policy: Policy) {
    let n = maze.cells();
    let sp = padded_marks3(&mut s.mark, maze.size());
    let mut walls = maze.wall_writer();
    let start = rng.below(n);
    let ps = sp.padded(start);
    let mut active = Active::start(&mut s.stack, n as usize, &mut s.mark, ps, start, policy);
    let (stack, mark) = (&mut s.stack[..], &mut s.mark[..]);
    while active.any() {
        let i = active.pick(stack, mark, policy, rng);
        let e = stack[i];
        let p = (e >> 32) as u32;
        let c = e as u32;
        let (opts, k) = options_with(mark, &sp, p, FREE);
        if k == 0 {
            active.retire(stack, mark, p);
            continue;
        }
        let d = pick(opts, k, rng);
        walls.open(sp.wall(c, d));
        active.push(
            stack,
            mark,
            p.wrapping_add(sp.dp[d]),
            c.wrapping_add(sp.dc[d]),
        );
    }
}
