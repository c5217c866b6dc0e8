//! Randomised Kruskal: interior walls in an unbiased random order, each opened when it joins
//! two components (union-find).
//!
//! The order is drawn lazily: step `i` of a Fisher–Yates shuffle swaps a uniformly chosen wall
//! from the unprocessed tail into place `i` and processes it at once. That is the same
//! distribution over orders as shuffling the whole list first, and it lets us stop as soon as
//! `W·H − 1` unions have been made.

use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a perfect maze by randomised Kruskal.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let n = maze.cells();
    // The wall list is rebuilt every maze (a linear write) so each maze's order depends only on
    // its own draws, not on the previous maze's shuffle. Order: cell by cell, east then south.
    s.walls.clear();
    for y in 0..h - 1 {
        let row = y * w;
        s.walls
            .extend((row..row + w - 1).flat_map(|c| [2 * c, 2 * c + 1]));
        s.walls.push(2 * (row + w - 1) + 1);
    }
    let row = (h - 1) * w;
    s.walls.extend((row..row + w - 1).map(|c| 2 * c));
    s.dsu.reset(n);
    join_in_random_order(maze, s, n - 1, rng);
}

/// Take the walls of `s.walls` in a lazily drawn uniform random order (step `i` of Fisher–Yates
/// picks from the unprocessed tail), opening each one that joins two different sets of
/// `s.dsu`, until `need` walls have been opened. Wall ids are `2 * cell + (0 east | 1 south)`.
/// Kruskal runs it on every wall; fractal uses it to reconnect the pieces left after cropping.
pub(crate) fn join_in_random_order<R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    mut need: u32,
    rng: &mut R,
) {
    let w = maze.width();
    let len = s.walls.len() as u32;
    let mut i = 0u32;
    while need > 0 {
        let j = i + rng.below(len - i);
        s.walls.swap(i as usize, j as usize);
        let wall = s.walls[i as usize];
        i += 1;
        let a = wall >> 1;
        let south = wall & 1 != 0;
        // East neighbour `a + 1` or south neighbour `a + w`, without a branch.
        let b = a + 1 + (wall & 1) * (w - 1);
        let joined = s.dsu.union(a, b);
        maze.carve_east_or_south_if(a, south, joined);
        need -= joined as u32;
    }
}
