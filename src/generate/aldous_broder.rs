//! Aldous–Broder: a random walk over the whole grid; the edge by which the walk first enters a
//! cell joins the tree. The result is uniform over all spanning trees (Aldous 1990, Broder
//! 1989), like Wilson's algorithm, so the two are a cross-check of each other. Written once for
//! 2D and 3D grids ([`Walk`]).
//!
//! It exists because it is the textbook uniform generator and the simplest one to prove, not
//! because it is fast: the walk must cover the grid, which takes about `n log² n` steps on an
//! `n`-cell grid (Wilson needs far fewer). Choices: the walk starts at the first cell ((0,0),
//! or (0,0,0); a mask's first cell in row order; any fixed start keeps the result uniform); a
//! step is a uniform direction ([`Walk::draw_block`]: 2 bits in 2D, 3 bits redrawn on 6 or 7
//! in 3D), redrawn when it points off the grid or into a hole of a mask, which keeps the choice
//! uniform among the existing neighbours and uses only exactly enumerable draws.
//!
//! Speed: the walk runs on a padded byte array ([`Walk::links`]) whose one byte per cell is
//! both the state and the parent direction: the padding is marked, so a step needs no
//! coordinates, and a step reads and writes one byte. In 2D directions come 32 to a word (the
//! same sequence as one `dir4()` per step) and the 32 steps of a word run without testing
//! whether the walk is done (once every cell is reached, further steps change nothing). Those
//! 32 steps are written out one after another, so each takes its direction by a constant shift
//! and the walk's cell and count stay in registers (0.66× the instructions of a loop over the
//! word, `benches/counts.sh`); each cell's entrance is recorded without a branch, and the walls
//! are written in one linear pass at the end. Late in a walk most blocks enter no fresh cell
//! and change nothing but the walk's position, so after a block that entered none the next is
//! first walked reading only ([`scouted`]: a load and an OR per step), and taken again with its
//! writes only when it does enter one. A batch worker makes 2D mazes two at a time
//! ([`generate_pair`]): the walk's steps are a chain of dependent loads, and the steps of two
//! walks interleaved keep the processor busy while each waits.

use super::padded::{EDGE, UNSEEN};
use super::shared::Poll;
use super::topology::Walk;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// `f(i)` for each listed constant `i` below `n`, written out one after another.
macro_rules! unroll {
    ($f:ident, $n:expr; $($i:literal)*) => {
        $(if $i < $n { $f($i); })*
    };
}

/// Carve a uniform spanning tree by a covering random walk on topology `T`.
pub(crate) fn generate<T: Walk, R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (t, start) = setup::<T>(&mut s.next, maze);
    let dp = steps(&t);
    let (mut u, mut left) = (start, maze.tree_cells() - 1);
    if !walk::<T, R>(&mut s.next, &dp, &mut u, &mut left, rng, &mut Poll::new()) {
        return super::abandon(maze, s, rng);
    }
    t.carve_parent_links(maze, &mut s.next, &mut s.codes, start);
}

/// [`generate`] for two mazes of one size at once, each with its own scratch and random
/// source: exactly the two mazes [`generate`] makes of each alone (each walk takes the same
/// draws from its own source), in less time than the two calls. The walk is a chain
/// of dependent loads (a step's cell is known only once the previous step's byte is read), so
/// one walk leaves the processor waiting; the two walks' steps are interleaved one by one, so
/// each chain runs while the other waits. Once one walk has covered its grid the other goes on
/// alone. Never inlined, so a profile counts it on its own (one call per two mazes).
#[inline(never)]
pub(crate) fn generate_pair<T: Walk, R: RandomSource>(
    a: &mut Maze,
    sa: &mut Scratch,
    ra: &mut R,
    b: &mut Maze,
    sb: &mut Scratch,
    rb: &mut R,
) {
    assert_eq!(a.size(), b.size(), "a pair of mazes has one size");
    let (ta, start_a) = setup::<T>(&mut sa.next, a);
    let (tb, start_b) = setup::<T>(&mut sb.next, b);
    // One size, so one geometry: the padded steps are the same for both.
    let dp = steps(&ta);
    let (mut ua, mut left_a) = (start_a, a.tree_cells() - 1);
    let (mut ub, mut left_b) = (start_b, b.tree_cells() - 1);
    let mut poll = Poll::new();
    let done = 'walks: {
        let (la, lb) = (&mut sa.next[..], &mut sb.next[..]);
        // Whether each walk's last block entered a fresh cell (see [`walk`]).
        let (mut fresh_a, mut fresh_b) = (true, true);
        while left_a > 0 && left_b > 0 {
            if poll.stop(2 * T::BLOCK) {
                break 'walks false;
            }
            let (block_a, block_b) = (T::draw_block(ra), T::draw_block(rb));
            let write_a = fresh_a || !scouted::<T>(la, &dp, &mut ua, block_a);
            let write_b = fresh_b || !scouted::<T>(lb, &dp, &mut ub, block_b);
            let (was_a, was_b) = (left_a, left_b);
            match (write_a, write_b) {
                (true, true) => {
                    let mut step2 = |i: u32| {
                        step::<T>(la, &dp, &mut ua, &mut left_a, block_a, i);
                        step::<T>(lb, &dp, &mut ub, &mut left_b, block_b, i);
                    };
                    unroll!(step2, T::BLOCK; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
                        16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
                }
                (true, false) => steps_of::<T>(la, &dp, &mut ua, &mut left_a, block_a),
                (false, true) => steps_of::<T>(lb, &dp, &mut ub, &mut left_b, block_b),
                (false, false) => {}
            }
            (fresh_a, fresh_b) = (left_a != was_a, left_b != was_b);
        }
        // At most one of the two is still walking.
        walk::<T, R>(la, &dp, &mut ua, &mut left_a, ra, &mut poll)
            && walk::<T, R>(lb, &dp, &mut ub, &mut left_b, rb, &mut poll)
    };
    if !done {
        super::abandon(a, sa, ra);
        return super::abandon(b, sb, rb);
    }
    ta.carve_parent_links(a, &mut sa.next, &mut sa.codes, start_a);
    tb.carve_parent_links(b, &mut sb.next, &mut sb.codes, start_b);
}

/// Fill `link` with the walk's state for `maze` ([`Walk::links`]) and mark its start cell
/// reached, with no parent; return the geometry and the start (padded index).
#[inline(always)]
fn setup<T: Walk>(link: &mut Vec<u8>, maze: &Maze) -> (T, u32) {
    let t = T::links(link, maze);
    let start = t.padded(maze.first_cell());
    // As a parent direction, `DIRS` means "none" (the root's); the carve writes it again.
    link[start as usize] = T::DIRS as u8;
    (t, start)
}

/// The padded steps of `t`'s directions, copied out so the walk reads them from registers or
/// the stack (entries past `T::DIRS` repeat them and are never taken).
#[inline(always)]
fn steps<T: Walk>(t: &T) -> [u32; 8] {
    std::array::from_fn(|d| t.step(d % T::DIRS))
}

/// Walk from padded cell `u` until `left` (cells not yet reached) is 0, drawing a block of
/// directions at a time from `rng`; false when a stop was asked for ([`Poll`]) first.
#[inline(always)]
fn walk<T: Walk, R: RandomSource>(
    link: &mut [u8],
    dp: &[u32; 8],
    u: &mut u32,
    left: &mut u32,
    rng: &mut R,
    poll: &mut Poll,
) -> bool {
    // In locals, so they stay in registers through the block.
    let (mut at, mut todo) = (*u, *left);
    // Whether the last block entered a fresh cell: then this one likely does too, and is
    // taken with its writes at once; otherwise it is scouted first.
    let mut fresh = true;
    while todo > 0 {
        if poll.stop(T::BLOCK) {
            return false;
        }
        let block = T::draw_block(rng);
        if !fresh && scouted::<T>(link, dp, &mut at, block) {
            continue;
        }
        let was = todo;
        steps_of::<T>(link, dp, &mut at, &mut todo, block);
        fresh = todo != was;
    }
    (*u, *left) = (at, todo);
    true
}

/// All the steps of a block from padded cell `u` ([`step`]). Every step is written out
/// (`unroll!`), so the shifts are constants and the walk's position and count stay in
/// registers; `i < T::BLOCK` is decided at compile time.
#[inline(always)]
fn steps_of<T: Walk>(link: &mut [u8], dp: &[u32; 8], u: &mut u32, left: &mut u32, block: u64) {
    let mut step1 = |i: u32| step::<T>(link, dp, u, left, block, i);
    unroll!(step1, T::BLOCK; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
        16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
}

/// A bit that [`UNSEEN`] has and no parent direction (`0..=DIRS`, at most 6) has.
const UNSEEN_BIT: u8 = 0x80;
const _: () = assert!(UNSEEN & UNSEEN_BIT != 0 && 6 & UNSEEN_BIT == 0);

/// Walk a block's steps from padded cell `u` reading only: when none of them enters a fresh
/// cell, the block would change nothing but the walk's position, so move `u` to where it ends
/// and return true; otherwise leave `u` and return false (the caller then takes the block with
/// [`steps_of`]). Late in a walk most blocks reach only cells already in the tree, and a step
/// that only reads (no store, no count, no choice of the byte to write) takes far fewer
/// instructions. Only for blocks of many steps (2D); a 3D block is one step.
#[inline(always)]
fn scouted<T: Walk>(link: &[u8], dp: &[u32; 8], u: &mut u32, block: u64) -> bool {
    if T::BLOCK == 1 {
        return false;
    }
    let (mut at, mut seen) = (*u, 0u8);
    // Every step written out (constant shifts), each a way out to the loop of the rest.
    macro_rules! look {
        ($($i:literal)*) => {$(
            if $i < T::BLOCK {
                let (v, m) = neighbour(link, dp, at, T::dir_at(block, $i));
                if m == EDGE {
                    // Rare, and a way out rather than a select: the walk's position must not
                    // wait on the load.
                    return scouted_rest::<T>(link, dp, u, block, at, seen, $i + 1);
                }
                seen |= m;
                at = v;
            }
        )*};
    }
    look!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
    scout_end(u, at, seen)
}

/// [`scouted`] from step `from` of the block, at padded cell `at`, having seen `seen`: the
/// steps after one off the grid, in a loop of their own, out of line (most blocks have no step
/// off the grid).
#[cold]
#[inline(never)]
fn scouted_rest<T: Walk>(
    link: &[u8],
    dp: &[u32; 8],
    u: &mut u32,
    block: u64,
    mut at: u32,
    mut seen: u8,
    from: u32,
) -> bool {
    for i in from..T::BLOCK {
        let (v, m) = neighbour(link, dp, at, T::dir_at(block, i));
        if m != EDGE {
            seen |= m;
            at = v;
        }
    }
    scout_end(u, at, seen)
}

/// The end of a scouted block that ended at padded cell `at` having seen the links `seen`
/// (ORed): whether it entered no fresh cell, and if so the walk moves to `at`.
#[inline(always)]
fn scout_end(u: &mut u32, at: u32, seen: u8) -> bool {
    let clean = seen & UNSEEN_BIT == 0;
    if clean {
        *u = at;
    }
    clean
}

/// The padded cell one step from the walk's cell `at` in direction `d`, and its link byte.
#[inline(always)]
fn neighbour(link: &[u8], dp: &[u32; 8], at: u32, d: usize) -> (u32, u8) {
    let v = at.wrapping_add(dp[d]);
    debug_assert!((v as usize) < link.len());
    // SAFETY: `at` is always a grid cell (the walk never moves onto padding), so its neighbour
    // `v` lies inside the padded array.
    (v, unsafe { *link.get_unchecked(v as usize) })
}

/// Step `i` of a block: from padded cell `u`, in the block's direction `i`, unless that leads
/// off the grid; a cell entered for the first time records the way back and counts down
/// `left`.
#[inline(always)]
fn step<T: Walk>(link: &mut [u8], dp: &[u32; 8], u: &mut u32, left: &mut u32, block: u64, i: u32) {
    let d = T::dir_at(block, i);
    let (v, m) = neighbour(link, dp, *u, d);
    if m == EDGE {
        return;
    }
    // First entrance: remember the way back. Written without a branch (a cell is fresh about
    // half the time early on and rarely late, which a branch would mispredict).
    let fresh = m == UNSEEN;
    let back = T::opposite(d) as u8;
    // SAFETY: `v` is in bounds ([`neighbour`] read it).
    unsafe { *link.get_unchecked_mut(v as usize) = if fresh { back } else { m } };
    *left -= fresh as u32;
    *u = v;
}
