//! Simplified randomised Prim: keep a list of frontier walls (walls between a cell in the maze
//! and one outside it) and repeatedly remove a uniformly random one; if the cell behind it is
//! still outside, open the wall and add that cell's walls to outside neighbours. Written once
//! for 2D and 3D grids ([`Topology`]).
//!
//! This is the wall-list version (Wikipedia's "randomized Prim's"), not the cell-list one: a
//! cell with several walls on the frontier is proportionally more likely to join next, which
//! is what gives the dense short dead ends this generator is known for. Choices: the start
//! cell is uniform among the maze's cells ([`random_cell`]); walls are only pushed towards
//! cells outside the maze, in direction order, so each wall enters the list at most once; a
//! wall whose far cell has joined meanwhile (stale) is dropped when drawn; a draw is
//! `below(len)`, none when one wall is left. Entries pack
//! `far_padded << 32 | far_cell << 3 | direction_into_far_cell`, so no division is needed in
//! the loop, and swap-remove keeps removal O(1) (the list order is irrelevant to a uniform pick).
//!
//! Speed: cells live on the padded byte array of the topology (border and a mask's holes
//! outside), so a wall's far cell is one byte read away with no border test. The push has no
//! data-dependent branch: the list is a buffer with its own length, each of the `T::DIRS`
//! candidate walls is written unconditionally (one add: the cell's entry plus a per-direction
//! step) and kept by adding its condition to the length. The buffer keeps its size across
//! mazes (never re-zeroed: only entries below the length are read) and doubles, outside the
//! inner loop, when a pop and a push might not fit, so the loop works on a plain slice (through
//! a `Vec` the pointer and length are reloaded after every store). The push is an
//! `#[inline(always)]` function over the constant `T::DIRS`, not a closure: a closure
//! capturing the count is outlined and reads the count and the steps from memory (callgrind,
//! whole 2D runs of `--size 64x64 --count 2000 --threads 1`: 4.51 G instructions so, 2.91 G
//! as written).
//!
//! A stale draw pushes nothing through the same masks in 2D, but is skipped by a branch in 3D,
//! where most draws are stale (about 11,500 draws per 16×16×16 maze for 4,095 joins). Skipping
//! would cost 2D about 8% (median user-time ratio 1.080, range 1.004–1.269, of five
//! alternating runs of `batchgen --algo prim --size 64x64 --count 20000 --threads 1`); pushing
//! on every stale draw in 3D took whole 16×16×16 runs 1.66 times the instructions of the
//! branch (callgrind, `--count 2000 --threads 1`: 4.99 G against 3.00 G). Against a 3D path
//! with a branch per direction (as many instructions, 3.4 times the mispredicted branches in
//! callgrind's branch simulation), this one runs whole `--size 16x16x16 --count 20000
//! --threads 1` jobs in 0.64 of the user time.

use super::padded::{random_cell, FREE, IN_TREE as VISITED};
use super::topology::Topology;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::{with_local_rng, RandomSource};

/// Push the walls from the cell of entry `base` (`padded << 32 | cell << 3`, just joined, when
/// `fresh`) to outside cells, into `dst` (the `T::DIRS` slots from the list's length on),
/// without a branch on the cells: every slot is written (entry `base + step[d]`) and each is
/// kept by adding its condition to the returned count.
#[inline(always)]
fn push<T: Topology>(
    t: &T,
    step: &[u64; 6],
    dst: &mut [u64],
    mark: &[u8],
    base: u64,
    fresh: bool,
) -> usize {
    let p = (base >> 32) as u32;
    // The conditions are loaded side by side and summed as a tree: the list's length carries
    // the loop's dependency chain (the next draw needs it), so it takes one add.
    let keep: [usize; 6] = std::array::from_fn(|d| {
        (d < T::DIRS && fresh & (mark[p.wrapping_add(t.step(d)) as usize] == FREE)) as usize
    });
    let mut at = [0usize; 6];
    for d in 1..T::DIRS {
        at[d] = at[d - 1] + keep[d - 1];
    }
    for d in 0..T::DIRS {
        dst[at[d]] = base.wrapping_add(step[d]);
    }
    (keep[0] + keep[1]) + (keep[2] + keep[3]) + (keep[4] + keep[5])
}

/// Carve a perfect maze by simplified randomised Prim on topology `T`.
pub(crate) fn generate<T: Topology, R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
) {
    // The batch's generator runs on a copy in locals, stored back once: the same draws.
    with_local_rng!(rng, |r| grow::<T, _>(maze, s, r))
}

/// The loop of [`generate`].
#[inline(always)]
fn grow<T: Topology, R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let start = random_cell(maze, rng);
    let t = T::marks(&mut s.mark, maze);
    let mut walls = maze.wall_writer();
    let mark = &mut s.mark[..];
    let list = &mut s.stack;
    // Entry steps: `padded << 32 | cell << 3 | d` of the neighbour in direction `d` is the
    // cell's `padded << 32 | cell << 3` plus `step[d]` (signed steps; exact for a neighbour on
    // the grid, and only those entries are kept).
    let step: [u64; 6] = std::array::from_fn(|d| {
        if d < T::DIRS {
            let (dp, dc) = (t.step(d) as i32 as i64, t.cell_step(d) as i32 as i64);
            ((dp << 32) + (dc << 3) + d as i64) as u64
        } else {
            0
        }
    });
    let ps = t.padded(start);
    mark[ps as usize] = VISITED;
    if list.len() < 64 {
        list.resize(64, 0);
    }
    let mut len = push(
        &t,
        &step,
        &mut list[..T::DIRS],
        mark,
        (ps as u64) << 32 | (start as u64) << 3,
        true,
    );
    while len > 0 {
        // The buffer grows (rarely) so that a pop and a push of `T::DIRS` fit.
        if len + T::DIRS > list.len() {
            let grown = 2 * list.len();
            list.resize(grown, 0);
        }
        let buf = &mut list[..];
        while len > 0 && len + T::DIRS <= buf.len() {
            let i = if len == 1 {
                0
            } else {
                rng.below(len as u32) as usize
            };
            let e = buf[i];
            len -= 1;
            buf[i] = buf[len];
            let p = (e >> 32) as u32;
            let c = (e as u32) >> 3;
            let fresh = mark[p as usize] == FREE;
            // In a box most draws are stale (six walls per cell): a branch skips them.
            if T::DIRS > 4 && !fresh {
                continue;
            }
            mark[p as usize] = VISITED;
            // The wall faces back towards the cell already in the maze.
            let b = t.wall(c, T::opposite((e & 7) as usize));
            walls.open_if(b, fresh);
            len += push(&t, &step, &mut buf[len..len + T::DIRS], mark, e & !7, fresh);
        }
    }
}
