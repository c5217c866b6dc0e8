//! Eller's algorithm: build the maze row by row, keeping track of which cells of the current
//! row are already connected (through rows above), so that no loop is ever closed.
//!
//! For each row but the last: (1) each pair of adjacent cells in different sets is joined with
//! probability 1/2; (2) every cell opens south with probability 1/2, and each set that opened
//! nothing south opens south from one of its cells in this row chosen uniformly, so every set
//! continues into the next row; the cells below start as new singletons. The last row joins
//! every adjacent pair still in different sets. Peers get this wrong (knossos's Eller makes
//! loops); here set membership is a union-find over the columns of the current row, so
//! "different sets" is always exact: every opened wall joins two different components, which
//! with `W·H − 1` openings means a tree. (A classic Eller relabels the row on every merge,
//! which is quadratic in the width; the union-find makes a merge O(α).)
//!
//! A row takes three passes over its columns: the joins; the south coins, with each column's
//! find (which leaves it pointing to its root), per set its cells and whether one opened south,
//! and each set's first column; and, after each set without a south passage has drawn its
//! forced cell (found by counting the set's columns from its first), one pass that rebuilds
//! the union-find for the next row and writes the row's walls. The rebuild: a cell below a
//! south passage points to the first column of its set that went south (a root), every other
//! cell is a singleton. Only "same set?" is ever asked, so this row-local forest answers
//! exactly like one over all cells, in `O(W)` scratch that stays in L1.
//!
//! Scratch ([`Rows`]): per column `parent`, and per root the set's `state` (its cell count and
//! whether a south coin came up; see [`SOUTH`]) and the next row's `rep`; the row's joins,
//! south passages and sets' first columns as bitsets, one bit per column. Draws: coins (a
//! join's coin only when the two cells are in different sets, [`RandomSource::coin_if`], so
//! the loop has no branch on it; the south coins of a row drawn up to 64 at a time by
//! [`RandomSource::coins`], the same coins in the same order) and one `choose(count)` per set
//! without a south passage, in the order of the sets' first columns (exactly enumerable).
//! Decisions are selects, not branches, but for a loop's end; the walls are written 32 cells
//! at a time from the bitsets ([`crate::grid::WallWriter::open_cells32`]).

use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// No representative chosen yet for the next row.
const NONE: u32 = u32::MAX;

/// Eller's scratch: one entry per column of the current row (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Rows {
    /// Three rows of `u32` in one buffer, split when a maze starts: `parent` (the union-find
    /// over the row's columns; after the south coins, each column's root), per root `state`
    /// (see [`generate`]) and `rep` (the next row's representative).
    words: Vec<u32>,
    /// Three bitsets of one bit per column, split when a maze starts: `east` (the row's
    /// joins), `south` (its south passages) and `firsts` (each set's first column).
    bits: Vec<u64>,
}

/// Entry `i` of a per-column slice (`parent`, `state` or `rep`, each exactly `W` long).
///
/// Every index this module passes is a column of the row, below `W`: a loop's column, or a
/// `parent` entry, and `parent` only ever holds columns (its start, the roots `find` returns,
/// and the next row's representatives, which are columns that opened south).
#[inline(always)]
fn at(s: &[u32], i: u32) -> u32 {
    debug_assert!((i as usize) < s.len());
    // SAFETY: `i` is a column, below the slice's length (see above).
    unsafe { *s.get_unchecked(i as usize) }
}

/// Set entry `i` of a per-column slice to `v` (`i` a column, as for [`at`]).
#[inline(always)]
fn put(s: &mut [u32], i: u32, v: u32) {
    debug_assert!((i as usize) < s.len());
    // SAFETY: `i` is a column, below the slice's length (see [`at`]).
    unsafe { *s.get_unchecked_mut(i as usize) = v }
}

/// Root of `x` in `parent`. Roots point to themselves, so the first two hops need no test
/// (a chain of loads instead of a mispredicted loop exit per find); a loop finishes the rare
/// deeper paths, and `x` and its parent are then linked straight to the root (as
/// [`crate::dsu`]'s finds).
#[inline(always)]
fn find(parent: &mut [u32], x: u32) -> u32 {
    let p1 = at(parent, x);
    let mut r = at(parent, p1);
    loop {
        let up = at(parent, r);
        if up == r {
            break;
        }
        r = at(parent, up);
    }
    put(parent, x, r);
    put(parent, p1, r);
    r
}

/// A set's `state` in a row: bit 0 set when one of its south coins came up, and the bits
/// above the count of its cells in the row.
const SOUTH: u32 = 1;
/// One in the count of a `state` (see [`SOUTH`]).
const ONE: u32 = 2;

/// Join adjacent columns of a row left to right where `join(different sets?)` says so, and
/// record join x–x+1 as bit x of `east`. No branch on the outcome: a random join's coin is
/// flipped only when the sets differ ([`RandomSource::coin_if`]). `a` is the root of column
/// x's set, carried along instead of found again; a root `b` that is not joined keeps pointing
/// to itself.
#[inline(always)]
fn join_row(parent: &mut [u32], east: &mut [u64], w: u32, mut join: impl FnMut(bool) -> bool) {
    let mut a = find(parent, 0);
    for (c, word) in east.iter_mut().enumerate() {
        let lo = 64 * c as u32;
        let mut joins = 0u64;
        for x in lo..(lo + 64).min(w - 1) {
            let b = find(parent, x + 1);
            let j = join(a != b);
            put(parent, b, if j { a } else { b });
            joins |= (j as u64) << (x - lo);
            a = if j { a } else { b };
        }
        *word = joins;
    }
}

/// Carve a perfect maze by Eller's algorithm.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let wu = w as usize;
    let nw = wu.div_ceil(64);
    let Rows { words, bits } = &mut s.eller;
    words.clear();
    words.resize(3 * wu, 0);
    let (parent, rest) = words.split_at_mut(wu);
    let (state, rep) = rest.split_at_mut(wu);
    for (x, p) in parent.iter_mut().enumerate() {
        *p = x as u32;
    }
    bits.clear();
    bits.resize(3 * nw, 0);
    let (east, rest) = bits.split_at_mut(nw);
    let (south, firsts) = rest.split_at_mut(nw);
    let mut walls = maze.wall_writer();
    for y in 0..h {
        let row = y * w;
        let last = y + 1 == h;
        // (1) Joins within the row (the last row joins whenever the sets differ).
        if last {
            join_row(parent, east, w, |differ| differ);
        } else {
            join_row(parent, east, w, |differ| rng.coin_if(differ));
        }
        if last {
            for (c, &joins) in east.iter().enumerate() {
                let x0 = 64 * c as u32;
                walls.open_cells32(row + x0, joins as u32, 0);
                if w - x0 > 32 {
                    walls.open_cells32(row + x0 + 32, (joins >> 32) as u32, 0);
                }
            }
            break;
        }
        // (2) Random south coins (up to 64 at a time: the same coins in the same order), and
        // per set its cells in the row and whether one opens south; each set's first column
        // (its state still 0) is marked in `firsts`. Every column's find leaves it pointing to
        // its root.
        state.fill(0);
        for c in 0..nw {
            let x0 = 64 * c as u32;
            let k = (w - x0).min(64);
            let coins = rng.coins(k);
            south[c] = coins;
            let mut first = 0u64;
            for i in 0..k {
                let r = find(parent, x0 + i);
                let st = at(state, r);
                first |= ((st == 0) as u64) << i;
                put(state, r, (st + ONE) | (coins >> i) as u32 & SOUTH);
            }
            firsts[c] = first;
        }
        // (3) The forced cells, in the order of their sets' first columns: the sets without a
        // south passage are picked out without a branch per set (which would miss as often as
        // such sets come), then each draws its cell, uniform among its cells, which is found
        // by counting the set's columns from its first (none to count for the many
        // one-cell sets), and opens it in `south`.
        for (c, &first) in firsts.iter().enumerate() {
            let x0 = 64 * c as u32;
            let mut sets = first;
            let mut need = 0u64;
            while sets != 0 {
                let i = sets.trailing_zeros();
                sets &= sets - 1;
                need |= ((at(state, at(parent, x0 + i)) & SOUTH == 0) as u64) << i;
            }
            while need != 0 {
                let mut x = x0 + need.trailing_zeros();
                need &= need - 1;
                let r = at(parent, x);
                // The set has more than `k` cells from `x` on, so `x` stays a column.
                let mut k = rng.choose_flat(at(state, r) / ONE);
                while k > 0 {
                    x += 1;
                    k -= (at(parent, x) == r) as u32;
                }
                south[(x / 64) as usize] |= 1 << (x % 64);
            }
        }
        // (4) In one pass per column, the next row's forest: below a south passage, the set's
        // first such column (the smallest, as columns go up); else a singleton. The row's
        // walls are written 32 columns at a time.
        rep.fill(NONE);
        for c in 0..nw {
            let x0 = 64 * c as u32;
            let k = (w - x0).min(64);
            let down = south[c];
            for i in 0..k {
                let x = x0 + i;
                let r = at(parent, x);
                let opens = (down >> i) & 1 != 0;
                let first = at(rep, r).min(if opens { x } else { NONE });
                put(rep, r, first);
                put(parent, x, if opens { first } else { x });
            }
            let joins = east[c];
            walls.open_cells32(row + x0, joins as u32, down as u32);
            if k > 32 {
                walls.open_cells32(row + x0 + 32, (joins >> 32) as u32, (down >> 32) as u32);
            }
        }
    }
}
