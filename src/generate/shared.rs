//! Helpers shared by several generators, so that no generator file imports a sibling: the
//! lazy-shuffle union loop (Kruskal, fractal repair), cell bitsets (binary tree, sidewinder),
//! the listing of a cell's planar options ([`options4`]) and the countdown by which the walks
//! look at the stop flag ([`Poll`]).
//! The padded per-cell state and parent-link carving live in [`super::padded`].

use super::Scratch;
use crate::grid::Maze;
use crate::popcount::{count, select};
use crate::rng::{with_local_rng, RandomSource};

/// The body of a generator's `generate_pair(a, sa, ra, b, sb, rb)`: checks that the two mazes
/// have one size (a pair loop takes its geometry from the first maze and indexes the second's
/// buffers by it), then runs `$pair(a, sa, x, b, sb, y)` with each maze's random source copied
/// into locals ([`with_local_rng`]: the same draws, its state in registers).
macro_rules! pair_in_locals {
    ($pair:expr, $a:ident, $sa:ident, $ra:ident, $b:ident, $sb:ident, $rb:ident) => {{
        assert_eq!($a.size(), $b.size(), "a pair of mazes has one size");
        $crate::rng::with_local_rng!($ra, |x| $crate::rng::with_local_rng!($rb, |y| $pair(
            $a, $sa, x, $b, $sb, y
        )))
    }};
}
pub(super) use pair_in_locals;

/// A countdown of walk steps: every [`crate::interrupt::POLL_STEPS`] steps it looks at the stop
/// flag, so a random walk that would run for hours stops soon after SIGINT/SIGTERM/SIGHUP.
/// One subtraction and a predictable branch per count.
pub(super) struct Poll(u32);

impl Poll {
    pub(super) fn new() -> Poll {
        Poll(crate::interrupt::POLL_STEPS)
    }

    /// Count `n` steps (`n` divides `POLL_STEPS`); true when the run has been asked to stop.
    #[inline(always)]
    pub(super) fn stop(&mut self, n: u32) -> bool {
        self.0 -= n;
        if self.0 != 0 {
            return false;
        }
        self.look()
    }

    /// Look at the stop flag and start a new count. Out of line and cold, so that a walk
    /// counting every step falls through to its next step.
    #[cold]
    #[inline(never)]
    fn look(&mut self) -> bool {
        self.0 = crate::interrupt::POLL_STEPS;
        crate::interrupt::stop_requested()
    }
}

/// Take the walls of `s.walls` in a lazily drawn uniform random order (step `i` of Fisher–Yates
/// picks from the unprocessed tail), opening each one that joins two different sets of
/// `s.dsu`, until `need` walls have been opened. Wall ids are [`crate::grid::Wall`] ids. The
/// processed places of `s.walls` are not rewritten, so the list is left as scratch.
/// Kruskal runs it on every wall; fractal uses it to reconnect the pieces left after cropping.
///
/// # Panics
/// If the walls run out before `need` walls have been opened, or a wall's cells are not cells
/// of `s.dsu`.
pub(crate) fn join_in_random_order<R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    need: u32,
    rng: &mut R,
) {
    // Every wall of a 2D maze is planar: its loop decodes without the test for a down wall
    // (a separate instantiation, so the 2D loop carries no 3D code at all).
    // The batch's generator is copied into locals for the loop ([`with_local_rng`]): through
    // `rng` its state would be stored every step, ready for the panic of the loop's check.
    with_local_rng!(rng, |r| if maze.size().is_3d() {
        join_loop::<_, false>(maze, s, need, r)
    } else {
        join_loop::<_, true>(maze, s, need, r)
    })
}

/// The loop of [`join_in_random_order`]; `PLANAR` when every wall is planar (a 2D maze).
/// The list is read without bounds checks, behind one check that it has not run out, and the
/// generator lives in locals: with the union-find's fourth unconditional link
/// ([`crate::dsu`]), whole `batchgen --algo kruskal --size 64x64 --threads 1` runs went from
/// 876,591 to 828,309 instructions per maze (`benches/counts.sh` on the release binaries) and
/// from 54.0 to 51.0 µs of CPU per maze (`benches/whole_process.sh`, 40,000 mazes, medians of
/// 7).
#[inline(always)]
fn join_loop<R: RandomSource, const PLANAR: bool>(
    maze: &mut Maze,
    s: &mut Scratch,
    mut need: u32,
    rng: &mut R,
) {
    let size = maze.size();
    let mut walls = maze.wall_writer();
    // Local views: through `s` the loop would reload the vectors after every store.
    let list = &mut s.walls[..];
    let mut forest = s.dsu.forest();
    let len = list.len() as u32;
    let mut i = 0u32;
    while need > 0 {
        assert!(i < len, "the walls ran out before the last join");
        // Step `i` of the shuffle: the wall drawn from the tail comes into place `i`, which is
        // never read again, so only the tail slot is written (half a swap).
        let j = i + rng.below(len - i);
        debug_assert!(j < len);
        // SAFETY: `i < len` (asserted) and `j` lies in `i..len`, as `below(len - i) < len - i`.
        let wall = unsafe { *list.get_unchecked(j as usize) };
        // SAFETY: as above.
        unsafe { *list.get_unchecked_mut(j as usize) = *list.get_unchecked(i as usize) };
        i += 1;
        let wall = if PLANAR {
            size.planar_wall(wall)
        } else {
            size.wall(wall)
        };
        let joined = forest.union(wall.a, wall.b);
        // SAFETY: `union` checked that both cells are below the cell count `n`, and an id
        // that decodes to two such cells has its bit in the wall words: a planar wall's bit
        // `2a + s < 2n`, a down wall's `a < n - layer` past the planar words.
        unsafe { walls.open_if_unchecked(wall.id, joined) };
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

/// The planar directions (east, south, west, north) whose neighbour of padded cell `p` has
/// state `want`, in that order, without branches: the count `k` and the directions packed two
/// bits each (option `j` in bits `2j..2j+2`, read with [`option`]). The four tests load side by
/// side and the count is summed as a tree, so a walker's dependency chain (neighbour loads →
/// count → draw → direction → next cell) carries two adds instead of four and no store and
/// reload of an options array.
///
/// # Safety
///
/// `p` is a grid cell of the padded array `mark` (not its padding) and `delta` the array's
/// steps, so that each of its four neighbours `p + delta[d]` lies inside `mark`.
#[inline(always)]
pub(super) unsafe fn options4(mark: &[u8], delta: &[u32; 4], p: u32, want: u8) -> (u32, u32) {
    let f: [u32; 4] = std::array::from_fn(|d| {
        let nb = p.wrapping_add(delta[d]) as usize;
        debug_assert!(nb < mark.len());
        // SAFETY: each of `p`'s four neighbours lies inside `mark` (the caller's promise).
        (unsafe { *mark.get_unchecked(nb) } == want) as u32
    });
    let (p1, p2) = (f[0], f[0] + f[1]);
    let p3 = p2 + f[2];
    // Direction 0 adds nothing (its value is 0); a direction that is not an option adds 0
    // and leaves its slot to the next one.
    let packed = (f[1] << (2 * p1)) | ((2 * f[2]) << (2 * p2)) | ((3 * f[3]) << (2 * p3));
    (packed, (f[0] + f[1]) + (f[2] + f[3]))
}

/// The free neighbours of padded cell `p` by its mask
/// ([`Topology::free_masks`](super::topology::Topology::free_masks)): the mask (read option `j`
/// with [`free_option`]) and their count. Two loads, no branch.
///
/// # Safety
///
/// `p` is a cell of the padded array whose masks `free` holds (below `free.len()`).
#[inline(always)]
pub(super) unsafe fn free_options(free: &[u8], p: u32) -> (u32, u32) {
    debug_assert!((p as usize) < free.len());
    // SAFETY: `p < free.len()` (the caller's promise).
    let m = unsafe { *free.get_unchecked(p as usize) };
    (m as u32, count(m))
}

/// Option `j` (in direction order, below the count) of a mask from [`free_options`].
#[inline(always)]
pub(super) fn free_option(mask: u32, j: u32) -> usize {
    select(mask as u8, j) as usize
}

/// Option `j` of a packed list from [`options4`].
#[inline(always)]
pub(super) fn option(packed: u32, j: u32) -> u32 {
    packed >> (2 * j) & 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Size;

    /// Asking for more joins than the walls can make stops at the end of the list (the loop
    /// reads the list unchecked, so this check is what keeps it inside).
    #[test]
    #[should_panic(expected = "the walls ran out before the last join")]
    fn join_stops_when_the_walls_run_out() {
        let mut maze = Maze::with_size(Size::planar(3, 2));
        let mut s = Scratch::new();
        maze.size().interior_wall_ids(&mut s.walls);
        s.dsu.reset(maze.cells());
        let mut rng = crate::rng::Rng::from_maze_seed(1);
        // Six cells join in five unions; a sixth cannot be made.
        join_in_random_order(&mut maze, &mut s, 6, &mut rng);
    }

    #[test]
    fn options4_lists_the_matching_directions_in_order() {
        // A 3×3 padded array, centre cell 4; every set of neighbours in state 7.
        let delta = [1u32, 3, 1u32.wrapping_neg(), 3u32.wrapping_neg()];
        for set in 0..16u32 {
            let mut mark = [0u8; 9];
            for (d, &step) in delta.iter().enumerate() {
                if set >> d & 1 == 1 {
                    mark[4u32.wrapping_add(step) as usize] = 7;
                }
            }
            // SAFETY: cell 4 is the middle of the 3x3 array: its neighbours are inside.
            let (packed, k) = unsafe { options4(&mark, &delta, 4, 7) };
            let want: Vec<u32> = (0..4).filter(|d| set >> d & 1 == 1).collect();
            let got: Vec<u32> = (0..k).map(|j| option(packed, j)).collect();
            assert_eq!(got, want, "neighbour set {set:04b}");
        }
    }
}
