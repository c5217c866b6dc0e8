//! The 3D path of Aldous–Broder ([`super::aldous_broder`] on a maze of depth > 1): a random walk
//! from cell (0,0,0) over the six-neighbour grid; the edge by which the walk first enters a cell
//! joins the tree, which is uniform over all spanning trees on any graph. A step is a uniform
//! direction among the existing neighbours (three random bits, rejected when 6, 7 or outside:
//! [`super::space::random_step`]). Runs on the padded 3D state of [`super::space`].

use super::padded::{FREE, IN_TREE};
use super::shared::Poll;
use super::space::{carve_parent_links3, padded_state3, random_step, OPPOSITE};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a uniform spanning tree of a 3D grid by a covering random walk.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let sp = padded_state3(&mut s.mark, &mut s.next, maze.size());
    let mark = &mut s.mark[..];
    let next = &mut s.next[..];
    let start = sp.padded(0);
    let mut u = start;
    mark[u as usize] = IN_TREE;
    let mut left = maze.cells() - 1;
    let mut poll = Poll::new();
    while left > 0 {
        if poll.stop(1) {
            return super::abandon(maze, s, rng);
        }
        let d = random_step(mark, &sp, u, rng);
        let v = u.wrapping_add(sp.dp[d]);
        if mark[v as usize] == FREE {
            mark[v as usize] = IN_TREE;
            next[v as usize] = OPPOSITE[d];
            left -= 1;
        }
        u = v;
    }
    carve_parent_links3(maze, &sp, next, start);
}
