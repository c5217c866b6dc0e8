//! The 3D path of Wilson's algorithm ([`super::wilson`] on a maze of depth > 1): loop-erased
//! random walks on the six-neighbour grid, uniform over all spanning trees (any root and any
//! order of start cells keep it uniform). The root is the cell nearest the centre,
//! `(W/2, H/2, D/2)`; start cells are taken in cell-id order (x, then y, then z). A step is a
//! uniform direction among the existing neighbours ([`super::space::random_step`]); `next[u]`
//! keeps the direction the walk last left `u` by, and retracing it from the start is the
//! loop-erased path. Runs on the padded 3D state of [`super::space`].

use super::space::{carve_parent_links3, loop_erased_walks3, padded_state3, random_step};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a uniform spanning tree of a 3D grid by loop-erased random walks.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let size = maze.size();
    let sp = padded_state3(&mut s.mark, &mut s.next, size);
    let mark = &mut s.mark[..];
    let next = &mut s.next[..];
    let root = sp.padded(size.cell(sp.w / 2, sp.h / 2, sp.d / 2));
    if !loop_erased_walks3(mark, next, &sp, root, |mark, u, _| {
        random_step(mark, &sp, u, rng) as u32
    }) {
        return super::abandon(maze, s, rng);
    }
    carve_parent_links3(maze, &sp, next, root);
}
