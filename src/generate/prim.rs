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
//! as written). The list, the marks and the pushed slots are indexed without bounds checks:
//! an entry is kept only when its far cell is free, so every entry below the length names a
//! grid cell, whose neighbours all lie in the padded array; a draw is below the length; and
//! the loop runs only while a pop and a push fit in the buffer.
//!
//! A draw is a chain of dependent steps (the length, the draw below it, the entry, the marks
//! around its cell, the new length), so one maze leaves the processor waiting. A batch worker
//! makes 2D mazes two at a time ([`generate_pair`]): the draws of two mazes, each from its own
//! source, are interleaved one by one, so each chain runs while the other waits. Both buffers
//! are kept at one length, so one bound checks both lists, and a list of one wall (a few times
//! per maze) is taken outside the loop, so a draw needs no test for it. With the unchecked
//! indexing, whole `batchgen --algo prim --size 64x64 --count 10000 --threads 1` runs take 0.79
//! of the CPU time and 0.83 of the instructions of the bounds-checked loop making one maze at
//! a time (`benches/whole_process.sh`, `benches/counts.sh`).
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
use super::shared::pair_in_locals;
use super::topology::{Planar, Topology};
use super::Scratch;
use crate::grid::{Maze, WallWriter};
use crate::rng::{with_local_rng, RandomSource};

/// Push the walls from the cell of entry `base` (`padded << 32 | cell << 3`, just joined, when
/// `fresh`) to outside cells, into `buf` (the `T::DIRS` slots from `at` on), without a branch
/// on the cells: every slot is written (entry `base + step[d]`) and each is kept by adding its
/// condition to the returned count.
///
/// # Safety
///
/// `base`'s cell must be a grid cell of `mark`'s topology `t` (so its neighbours lie in the
/// padded array) and `at + T::DIRS <= buf.len()`: both are indexed without bounds checks.
#[inline(always)]
unsafe fn push<T: Topology>(
    t: &T,
    step: &[u64; 6],
    buf: &mut [u64],
    at: usize,
    mark: &[u8],
    base: u64,
    fresh: bool,
) -> usize {
    let p = (base >> 32) as u32;
    debug_assert!(at + T::DIRS <= buf.len());
    // The conditions are loaded side by side and summed as a tree: the list's length carries
    // the loop's dependency chain (the next draw needs it), so it takes one add.
    let keep: [usize; 6] = std::array::from_fn(|d| {
        if d >= T::DIRS {
            return 0;
        }
        let q = p.wrapping_add(t.step(d)) as usize;
        debug_assert!(q < mark.len());
        // SAFETY: `p` is a grid cell and the padded array has a ring of padding (a shell in
        // 3D) around the grid, so every neighbour `q` of a grid cell is inside `mark`.
        (fresh & (unsafe { *mark.get_unchecked(q) } == FREE)) as usize
    });
    let mut off = [0usize; 6];
    for d in 1..T::DIRS {
        off[d] = off[d - 1] + keep[d - 1];
    }
    for d in 0..T::DIRS {
        // SAFETY: `off[d] <= d < T::DIRS` and the caller leaves `T::DIRS` slots from `at`.
        unsafe { *buf.get_unchecked_mut(at + off[d]) = base.wrapping_add(step[d]) };
    }
    (keep[0] + keep[1]) + (keep[2] + keep[3]) + (keep[4] + keep[5])
}

/// One maze being grown: its frontier list (a buffer whose entries below `len` are the list),
/// its cell marks and its walls.
struct Growth<'a> {
    /// The frontier buffer (only entries below `len` are read).
    list: &'a mut Vec<u64>,
    /// Frontier walls in the list.
    len: usize,
    /// The padded cell states.
    mark: &'a mut [u8],
    /// The maze's walls.
    walls: WallWriter<'a>,
}

impl Growth<'_> {
    /// Make room for a pop and a push of `T::DIRS` (the buffer doubles, rarely); whether the
    /// list has walls left.
    #[inline(always)]
    fn room<T: Topology>(&mut self) -> bool {
        if self.len + T::DIRS > self.list.len() {
            let grown = 2 * self.list.len();
            self.grow_to(grown);
        }
        self.len > 0
    }

    /// Lengthen the buffer to `n` entries (never shortened).
    #[inline]
    fn grow_to(&mut self, n: usize) {
        if n > self.list.len() {
            self.list.resize(n, 0);
        }
    }
}

/// Entry steps: `padded << 32 | cell << 3 | d` of the neighbour in direction `d` is the cell's
/// `padded << 32 | cell << 3` plus `step[d]` (signed steps; exact for a neighbour on the grid,
/// and only those entries are kept).
#[inline(always)]
fn steps<T: Topology>(t: &T) -> [u64; 6] {
    std::array::from_fn(|d| {
        if d < T::DIRS {
            let (dp, dc) = (t.step(d) as i32 as i64, t.cell_step(d) as i32 as i64);
            ((dp << 32) + (dc << 3) + d as i64) as u64
        } else {
            0
        }
    })
}

/// Draw the start cell, mark the grid and push the start's walls: the state before the loop.
#[inline(always)]
fn start<'a, T: Topology, R: RandomSource>(
    maze: &'a mut Maze,
    s: &'a mut Scratch,
    rng: &mut R,
) -> (T, Growth<'a>) {
    let first = random_cell(maze, rng);
    let t = T::marks(&mut s.mark, maze);
    let (mark, list) = (&mut s.mark[..], &mut s.stack);
    let ps = t.padded(first);
    mark[ps as usize] = VISITED;
    if list.len() < 64 {
        list.resize(64, 0);
    }
    let base = (ps as u64) << 32 | (first as u64) << 3;
    // SAFETY: `first` is a grid cell (drawn below the cell count), so `ps` is its padded
    // index in `t`'s marks, and the buffer has 64 entries, more than `T::DIRS`.
    let len = unsafe { push(&t, &steps(&t), list, 0, mark, base, true) };
    let walls = maze.wall_writer();
    (
        t,
        Growth {
            list,
            len,
            mark,
            walls,
        },
    )
}

/// Take entry `i` out of the first `len` entries of `buf` (swap-remove) and, if its far cell
/// is outside the maze, open its wall and push that cell's walls.
///
/// # Safety
///
/// `i < len` and `len + T::DIRS - 1 <= buf.len()`, and every entry below `len` has a grid
/// cell of `t` as its far cell (`mark` and `walls` being `t`'s maze's): the entries, marks and
/// walls are indexed without bounds checks.
#[inline(always)]
unsafe fn take<T: Topology>(
    t: &T,
    step: &[u64; 6],
    buf: &mut [u64],
    len: &mut usize,
    i: usize,
    mark: &mut [u8],
    walls: &mut WallWriter<'_>,
) {
    let n = *len - 1;
    debug_assert!(i <= n && n + T::DIRS <= buf.len());
    // SAFETY: `i <= n < buf.len()` (an index below the length, and the room asked above).
    let e = unsafe { *buf.get_unchecked(i) };
    // SAFETY: as above.
    unsafe { *buf.get_unchecked_mut(i) = *buf.get_unchecked(n) };
    let p = (e >> 32) as usize;
    let c = (e as u32) >> 3;
    debug_assert!(p < mark.len());
    // SAFETY: an entry is kept only when its far cell is a free grid cell (the push's
    // condition), so `p` is a cell of the padded array.
    let fresh = unsafe { *mark.get_unchecked(p) } == FREE;
    // In a box most draws are stale (six walls per cell): a branch skips them.
    if T::DIRS > 4 && !fresh {
        *len = n;
        return;
    }
    // SAFETY: as above.
    unsafe { *mark.get_unchecked_mut(p) = VISITED };
    // The wall faces back towards the cell already in the maze: it joins two grid cells.
    let b = t.wall(c, T::opposite((e & 7) as usize));
    // SAFETY: a wall between two grid cells is interior.
    unsafe { walls.open_if_unchecked(b, fresh) };
    // SAFETY: `e`'s far cell is a grid cell (above), and `n + T::DIRS <= buf.len()` (the
    // caller's room).
    *len = n + unsafe { push(t, step, buf, n, mark, e & !7, fresh) };
}

/// One draw from a list of at least two walls: [`take`] a uniform one.
///
/// # Safety
///
/// As [`take`]'s, with `len >= 2` in place of `i < len` (the draw is below `len`: a
/// [`RandomSource`] keeps its draws in range).
#[inline(always)]
unsafe fn draw<T: Topology, R: RandomSource>(
    t: &T,
    step: &[u64; 6],
    buf: &mut [u64],
    len: &mut usize,
    mark: &mut [u8],
    walls: &mut WallWriter<'_>,
    rng: &mut R,
) {
    debug_assert!(*len >= 2);
    let i = rng.below(*len as u32) as usize;
    // SAFETY: `i < len` (a draw below it), the rest is the caller's.
    unsafe { take(t, step, buf, len, i, mark, walls) };
}

/// Draw until `g`'s list is empty. A list of one wall takes it without a draw; that happens
/// a few times per maze, so the loop runs on lists of two or more and needs no test for it.
#[inline(always)]
fn finish<T: Topology, R: RandomSource>(t: &T, step: &[u64; 6], g: &mut Growth<'_>, rng: &mut R) {
    while g.room::<T>() {
        if g.len == 1 {
            // SAFETY: `0 < len = 1`, `room` left `len + T::DIRS <= buf.len()`, and the list
            // holds only pushed entries, whose far cells are grid cells.
            unsafe { take(t, step, g.list, &mut g.len, 0, g.mark, &mut g.walls) };
            continue;
        }
        let buf = &mut g.list[..];
        // Draws while `2 <= len <= buf.len() - T::DIRS` (one unsigned compare).
        let fits = buf.len() - T::DIRS - 1;
        let mut len = g.len;
        while len.wrapping_sub(2) < fits {
            // SAFETY: `2 <= len <= buf.len() - T::DIRS` (the loop's test), and the list holds
            // only pushed entries, whose far cells are grid cells.
            unsafe { draw(t, step, buf, &mut len, g.mark, &mut g.walls, rng) };
        }
        g.len = len;
    }
}

/// Carve a perfect maze by simplified randomised Prim on topology `T`.
pub(crate) fn generate<T: Topology, R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
) {
    // The batch's generator runs on a copy in locals, stored back once: the same draws.
    with_local_rng!(rng, |r| {
        let (t, mut g) = start::<T, _>(maze, s, r);
        finish(&t, &steps(&t), &mut g, r)
    })
}

/// [`generate`] for two 2D mazes of one size at once, each with its own scratch and random
/// source: exactly the two mazes [`generate`] makes of each alone (each takes the same draws
/// from its own source). A draw is a chain of dependent steps (the list's length, the draw
/// below it, the entry, the marks of its cell's neighbours, the new length), so one maze leaves
/// the processor waiting; the two mazes' draws are interleaved one by one, so each chain runs
/// while the other waits. Once one list is empty the other goes on alone. Never inlined, so a
/// profile counts it on its own (one call per two mazes).
#[inline(never)]
pub(crate) fn generate_pair<R: RandomSource>(
    a: &mut Maze,
    sa: &mut Scratch,
    ra: &mut R,
    b: &mut Maze,
    sb: &mut Scratch,
    rb: &mut R,
) {
    pair_in_locals!(grow_pair, a, sa, ra, b, sb, rb)
}

/// The loop of [`generate_pair`].
#[inline(always)]
fn grow_pair<RA: RandomSource, RB: RandomSource>(
    a: &mut Maze,
    sa: &mut Scratch,
    ra: &mut RA,
    b: &mut Maze,
    sb: &mut Scratch,
    rb: &mut RB,
) {
    let (t, mut ga) = start::<Planar, _>(a, sa, ra);
    // One size, so one geometry: the steps and wall ids are the same for both.
    let (_, mut gb) = start::<Planar, _>(b, sb, rb);
    let step = steps(&t);
    // Both buffers are kept at one length, so one bound serves both lists.
    let mut cap = ga.list.len().max(gb.list.len());
    loop {
        if ga.len.max(gb.len) + Planar::DIRS > cap {
            cap *= 2;
        }
        ga.grow_to(cap);
        gb.grow_to(cap);
        if ga.len == 0 || gb.len == 0 {
            break;
        }
        // SAFETY (both takes): `0 < len = 1`, both buffers hold `cap >= len + Planar::DIRS`
        // entries (grown above), and the lists hold only pushed entries, whose far cells are
        // grid cells of `t`, the geometry of both mazes.
        if ga.len == 1 {
            unsafe { take(&t, &step, ga.list, &mut ga.len, 0, ga.mark, &mut ga.walls) };
            continue;
        }
        if gb.len == 1 {
            unsafe { take(&t, &step, gb.list, &mut gb.len, 0, gb.mark, &mut gb.walls) };
            continue;
        }
        let (bufa, bufb) = (&mut ga.list[..cap], &mut gb.list[..cap]);
        // Draws while both lengths are in `2..=cap - Planar::DIRS`.
        let fits = cap - Planar::DIRS - 1;
        let (mut la, mut lb) = (ga.len, gb.len);
        while (la.wrapping_sub(2) < fits) & (lb.wrapping_sub(2) < fits) {
            // SAFETY: `2 <= la, lb <= cap - Planar::DIRS` (the loop's test) with buffers of
            // `cap` entries, and as above for the entries.
            unsafe {
                draw(&t, &step, bufa, &mut la, ga.mark, &mut ga.walls, ra);
                draw(&t, &step, bufb, &mut lb, gb.mark, &mut gb.walls, rb);
            }
        }
        (ga.len, gb.len) = (la, lb);
    }
    // At most one of the two lists is not empty.
    finish(&t, &step, &mut ga, ra);
    finish(&t, &step, &mut gb, rb);
}
