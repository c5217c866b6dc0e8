//! Maze `i` of (algorithm, size, master seed), in one call: the seeding scheme the batch uses
//! (a per-maze seed derived from the master seed, the canonical algorithm name, the size and
//! the index; one fresh [`Rng`] per maze), so the batch worker, the uniformity sampler, `render`,
//! the tests and a game regenerating a level all make exactly the same maze.

use super::{Algorithm, Scratch};
use crate::grid::{Mask, Maze, Size};
use crate::rng::{self, Rng};

/// The part of a maze's seed shared by every maze of (`algo`, `size`, `seed`): compute it once,
/// then call [`regenerate_from_base`] per maze (no hashing of the name, no allocation). The
/// depth takes part only when it is more than 1 ([`rng::maze_seed_base_sized`]), so 2D seeds
/// are those of every release before 3D.
pub fn seed_base(algo: &Algorithm, size: Size, seed: u64) -> u64 {
    rng::maze_seed_base_sized(seed, &algo.name(), size)
}

/// [`seed_base`] for mazes on `mask` (if any): the mask's hash is mixed in only when there is
/// a mask, so unmasked mazes keep their seeds and mazes on different masks get different ones.
pub fn seed_base_masked(algo: &Algorithm, size: Size, mask: Option<&Mask>, seed: u64) -> u64 {
    seed_base_mask_hash(algo, size, mask.map_or(0, Mask::hash), seed)
}

/// [`seed_base_masked`] from the mask's hash alone (the `mask_hash` column; 0 for no mask,
/// which no mask hashes to).
pub fn seed_base_mask_hash(algo: &Algorithm, size: Size, mask_hash: u64, seed: u64) -> u64 {
    let base = seed_base(algo, size, seed);
    match mask_hash {
        0 => base,
        h => rng::splitmix64(base ^ h),
    }
}

/// Generate maze `index` of the run whose seed base is `base` ([`seed_base`]) into `maze`,
/// which must already have the run's size; `scratch` is reused. Returns the maze's seed (the
/// `maze_seed` column).
#[inline]
pub fn regenerate_from_base(
    algo: &Algorithm,
    maze: &mut Maze,
    scratch: &mut Scratch,
    base: u64,
    index: u64,
) -> u64 {
    let maze_seed = rng::maze_seed_from_base(base, index);
    generate_seeded(algo, maze, scratch, maze_seed);
    maze_seed
}

/// Generate the maze whose per-maze seed is `maze_seed` (as recorded in the `maze_seed` column
/// or a store record) into `maze` (already sized).
#[inline]
pub fn generate_seeded(algo: &Algorithm, maze: &mut Maze, scratch: &mut Scratch, maze_seed: u64) {
    algo.generate(maze, scratch, &mut Rng::from_maze_seed(maze_seed));
}

/// [`generate_seeded`] for two mazes at once, `a` from `seeds[0]` and `b` from `seeds[1]` (same
/// size and mask, each with its own scratch): the same two mazes, made together where the
/// generator gains by it ([`Algorithm::generate_pair`]).
#[inline]
pub fn generate_pair_seeded(
    algo: &Algorithm,
    (a, sa): (&mut Maze, &mut Scratch),
    (b, sb): (&mut Maze, &mut Scratch),
    seeds: [u64; 2],
) {
    let (mut ra, mut rb) = (Rng::from_maze_seed(seeds[0]), Rng::from_maze_seed(seeds[1]));
    algo.generate_pair((a, sa, &mut ra), (b, sb, &mut rb));
}

/// Generate maze `index` of (`algo`, the maze's size and mask, master `seed`) into `maze`,
/// reusing its buffer and `scratch`: exactly the maze the batch writes as row `index`. Returns
/// its seed.
pub fn regenerate(
    algo: &Algorithm,
    maze: &mut Maze,
    scratch: &mut Scratch,
    seed: u64,
    index: u64,
) -> u64 {
    let base = seed_base_masked(algo, maze.size(), maze.mask().map(|m| &**m), seed);
    regenerate_from_base(algo, maze, scratch, base, index)
}

/// [`regenerate`] into a new maze of the given size (allocates; for one-off use).
pub fn regenerated(algo: &Algorithm, size: Size, seed: u64, index: u64) -> Maze {
    let mut maze = Maze::with_size(size);
    regenerate(algo, &mut maze, &mut Scratch::new(), seed, index);
    maze
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regenerate_is_the_seeding_scheme() {
        let algo = Algorithm::Wilson;
        let size = Size::planar(9, 7);
        let ms = rng::maze_seed(5, "wilson", 9, 7, 3);
        let mut want = Maze::with_size(size);
        algo.generate(&mut want, &mut Scratch::new(), &mut Rng::from_maze_seed(ms));
        let mut got = Maze::with_size(size);
        let mut scratch = Scratch::new();
        regenerate(&Algorithm::Kruskal, &mut got, &mut scratch, 5, 3);
        assert_eq!(regenerate(&algo, &mut got, &mut scratch, 5, 3), ms);
        assert_eq!(got, want);
        assert_eq!(regenerated(&algo, size, 5, 3), want);
        assert_ne!(regenerated(&algo, size, 5, 4), want);
    }

    /// Two mazes made together are the two made alone: on planar sizes (one row, one column,
    /// one cell), a mask, 3D and a generator that does not pair, with seeds whose walks end at
    /// different times, the reused buffers of each side holding the last pair's state.
    #[test]
    fn a_pair_is_the_two_mazes_made_alone() {
        let mask = crate::grid::Mask::from_text("..#....\n.##.#..\n....#..\n.#.....\n").unwrap();
        let mazes = [
            Maze::with_size(Size::planar(64, 64)),
            Maze::with_size(Size::planar(9, 7)),
            Maze::with_size(Size::planar(1, 9)),
            Maze::with_size(Size::planar(9, 1)),
            Maze::with_size(Size::planar(1, 1)),
            Maze::masked(std::sync::Arc::new(mask)),
            Maze::with_size(Size::new(4, 3, 2)),
        ];
        let (mut sa, mut sb, mut s) = (Scratch::new(), Scratch::new(), Scratch::new());
        for template in mazes {
            for algo in [
                Algorithm::AldousBroder,
                Algorithm::Prim,
                Algorithm::Backtracker,
                Algorithm::HuntAndKill,
                Algorithm::Wilson,
            ] {
                let (mut a, mut b, mut want) =
                    (template.clone(), template.clone(), template.clone());
                for i in 0..20u64 {
                    let seeds = [i.wrapping_mul(0x9e37_79b9_7f4a_7c15), i ^ 0x55];
                    generate_pair_seeded(&algo, (&mut a, &mut sa), (&mut b, &mut sb), seeds);
                    for (got, seed) in [(&a, seeds[0]), (&b, seeds[1])] {
                        generate_seeded(&algo, &mut want, &mut s, seed);
                        assert_eq!(got, &want, "{} {} seed {seed}", algo.name(), want.size());
                    }
                }
                assert!(a.is_perfect() && b.is_perfect());
            }
        }
    }
}
