//! Randomised Kruskal: interior walls in an unbiased random order, each opened when it joins
//! two components (union-find).
//!
//! The order is drawn lazily: step `i` of a Fisher–Yates shuffle swaps a uniformly chosen wall
//! from the unprocessed tail into place `i` and processes it at once. That is the same
//! distribution over orders as shuffling the whole list first, and it lets us stop as soon as
//! `W·H − 1` unions have been made.
//!
//! The same code serves 3D mazes: the wall list ([`crate::grid::Size::interior_wall_ids`]) and
//! the union loop work on any grid, so Kruskal has no separate 3D path.

use super::shared::join_in_random_order;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a perfect maze by randomised Kruskal.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let n = maze.cells();
    // The wall list is rebuilt every maze (a linear write) so each maze's order depends only on
    // its own draws, not on the previous maze's shuffle. Order: [`crate::grid::Size::interior_walls`].
    maze.size().interior_wall_ids(&mut s.walls);
    if let Some(mask) = maze.mask() {
        // Only the walls between two cells of the mask can open.
        let size = maze.size();
        s.walls.retain(|&id| {
            let wall = size.wall(id);
            mask.contains(wall.a) && mask.contains(wall.b)
        });
    }
    s.dsu.reset(n);
    join_in_random_order(maze, s, maze.tree_cells() - 1, rng);
}
