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
    match maze.mask() {
        None => maze.size().interior_wall_ids(&mut s.walls),
        Some(mask) => mask_wall_ids(mask, &mut s.walls),
    }
    s.dsu.reset(n);
    join_in_random_order(maze, s, maze.tree_cells() - 1, rng);
}

/// Replace `out` with the ids of the walls between two cells of `mask` (only those can open),
/// in increasing id order, which is the order of [`crate::grid::Size::interior_wall_ids`]
/// filtered: each mask cell's east and south walls whose other side is in the mask, from the
/// mask's cell list (no pass over the holes, no wall decoding).
fn mask_wall_ids(mask: &crate::grid::Mask, out: &mut Vec<u32>) {
    let w = mask.size().width;
    let n = mask.size().cells();
    out.clear();
    for &c in mask.ids() {
        if c % w + 1 < w && mask.contains(c + 1) {
            out.push(2 * c);
        }
        if c + w < n && mask.contains(c + w) {
            out.push(2 * c + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Mask;

    #[test]
    fn mask_walls_are_the_interior_walls_between_mask_cells_in_order() {
        for text in [
            "...\n.#.\n...\n",
            "#.#.#.#\n#.#.#.#\n.......\n",
            "##....##\n#......#\n...##...\n...##...\n#......#\n##....##\n",
            ".\n.\n.\n",
            "....\n",
        ] {
            let mask = Mask::from_text(text).unwrap();
            let size = mask.size();
            let mut want = Vec::new();
            size.interior_wall_ids(&mut want);
            want.retain(|&id| {
                let wall = size.wall(id);
                mask.contains(wall.a) && mask.contains(wall.b)
            });
            let mut got = vec![7];
            mask_wall_ids(&mask, &mut got);
            assert_eq!(got, want, "{text}");
        }
    }
}
