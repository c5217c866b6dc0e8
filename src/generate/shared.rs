//! Helpers shared by several generators, so that no generator file imports a sibling: the
//! lazy-shuffle union loop (Kruskal, fractal repair), random directions 32 at a time (Wilson,
//! Aldous–Broder) and cell bitsets (binary tree, sidewinder).
//! The padded per-cell state and parent-link carving live in [`super::padded`].

use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Take the walls of `s.walls` in a lazily drawn uniform random order (step `i` of Fisher–Yates
/// picks from the unprocessed tail), opening each one that joins two different sets of
/// `s.dsu`, until `need` walls have been opened. Wall ids are [`crate::grid::Wall`] ids.
/// Kruskal runs it on every wall; fractal uses it to reconnect the pieces left after cropping.
pub(crate) fn join_in_random_order<R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    need: u32,
    rng: &mut R,
) {
    // Every wall of a 2D maze is planar: its loop decodes without the test for a down wall
    // (a separate instantiation, so the 2D loop carries no 3D code at all).
    if maze.size().is_3d() {
        join_loop::<R, false>(maze, s, need, rng)
    } else {
        join_loop::<R, true>(maze, s, need, rng)
    }
}

/// The loop of [`join_in_random_order`]; `PLANAR` when every wall is planar (a 2D maze).
#[inline(always)]
fn join_loop<R: RandomSource, const PLANAR: bool>(
    maze: &mut Maze,
    s: &mut Scratch,
    mut need: u32,
    rng: &mut R,
) {
    let size = maze.size();
    let mut walls = maze.wall_writer();
    let len = s.walls.len() as u32;
    let mut i = 0u32;
    while need > 0 {
        let j = i + rng.below(len - i);
        s.walls.swap(i as usize, j as usize);
        let wall = s.walls[i as usize];
        i += 1;
        let wall = if PLANAR {
            size.planar_wall(wall)
        } else {
            size.wall(wall)
        };
        let joined = s.dsu.union(wall.a, wall.b);
        walls.open_if(wall.id, joined);
        need -= joined as u32;
    }
}

/// OR the 64 bits of `v` into bitset `b` at bit `p` (`b` must hold the word after `p`'s).
#[inline]
pub(super) fn or_bits(b: &mut [u64], p: u32, v: u64) {
    let i = (p >> 6) as usize;
    let o = p & 63;
    b[i] |= v << o;
    b[i + 1] |= (v >> 1) >> (63 - o);
}

/// Random planar directions drawn 32 at a time ([`RandomSource::dir4_x32`]) and handed out one
/// by one, for the random walks (one refill test per step instead of one draw).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Dirs {
    block: u64,
    left: u32,
}

impl Dirs {
    /// The next direction, `0..4` (east, south, west, north).
    #[inline(always)]
    pub(super) fn next<R: RandomSource>(&mut self, rng: &mut R) -> u32 {
        if self.left == 0 {
            self.block = rng.dir4_x32();
            self.left = 32;
        }
        let d = (self.block & 3) as u32;
        self.block >>= 2;
        self.left -= 1;
        d
    }
}
