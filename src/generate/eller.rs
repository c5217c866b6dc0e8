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
//! Between rows the union-find is rebuilt for the next row in one pass: a cell below a south
//! passage points to the first column of its set that went south (a root), every other cell
//! is a singleton. Only "same set?" is ever asked, so this row-local forest answers exactly
//! like one over all cells, in `O(W)` scratch that stays in L1.
//!
//! Scratch ([`Rows`], one row of `W` entries each): `parent`, each column's `root` this row,
//! per root the set's cell `cnt` in the row and the next row's `rep`resentative; `flag[root]`
//! whether the set opened south (0 no, 1 yes, 2 a forced cell has been drawn, 3 done),
//! `down[x]` whether column `x` opens south. Draws: coins (a join's coin only when the two cells
//! are in different sets, [`RandomSource::coin_if`], so the loop has no branch on it; the south
//! coins of a row drawn up to 64 at a time by [`RandomSource::coins`], the same coins in the
//! same order) and one `below(count)` per set without a south passage (exactly enumerable).
//! Walls are opened through the wall writer with selects, not branches.

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

/// No representative chosen yet for the next row.
const NONE: u32 = u32::MAX;

/// Eller's scratch: one entry per column of the current row (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Rows {
    /// Four rows of `u32` in one buffer, split when a maze starts: `parent` (the union-find
    /// over the row's columns), each column's `root` this row, and per root `cnt` (the set's
    /// cells in the row, then the countdown to its forced south cell) and `rep` (the next
    /// row's representative).
    words: Vec<u32>,
    /// Per root: 0 no south passage yet, 1 one, 2 a forced cell drawn, 3 it is opened.
    flag: Vec<u8>,
    /// Per column: 1 when it opens south.
    down: Vec<u8>,
}

/// Root of `x` in `parent`. Roots point to themselves, so the first two hops need no test
/// (a chain of loads instead of a mispredicted loop exit per find); a loop finishes the rare
/// deeper paths, and `x` and its parent are then linked straight to the root (as
/// [`crate::dsu`]'s finds).
#[inline(always)]
fn find(parent: &mut [u32], x: u32) -> u32 {
    let p1 = parent[x as usize];
    let mut r = parent[p1 as usize];
    loop {
        let up = parent[r as usize];
        if up == r {
            break;
        }
        r = parent[up as usize];
    }
    parent[x as usize] = r;
    parent[p1 as usize] = r;
    r
}

/// Carve a perfect maze by Eller's algorithm.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let wu = w as usize;
    let Rows { words, flag, down } = &mut s.eller;
    words.clear();
    words.resize(4 * wu, NONE);
    let (parent, rest) = words.split_at_mut(wu);
    let (root, rest) = rest.split_at_mut(wu);
    let (cnt, rep) = rest.split_at_mut(wu);
    cnt.fill(0);
    for (x, p) in parent.iter_mut().enumerate() {
        *p = x as u32;
    }
    flag.clear();
    flag.resize(wu, 0);
    let flag = &mut flag[..];
    down.clear();
    down.resize(wu, 0);
    let down = &mut down[..];
    let size = maze.size();
    let mut walls = maze.wall_writer();
    for y in 0..h {
        let row = y * w;
        let east = |x: u32| size.wall_id(row + x, Dir::East);
        let south = |x: u32| size.wall_id(row + x, Dir::South);
        if y + 1 == h {
            let mut a = find(parent, 0);
            for x in 0..w - 1 {
                let b = find(parent, x + 1);
                let join = a != b;
                parent[b as usize] = if join { a } else { b };
                walls.open_if(east(x), join);
                a = if join { a } else { b };
            }
            break;
        }
        // (1) Random joins within the row, without a branch on the coin or on "different
        // sets?" (`coin_if` flips only then). `a` is the root of column x's set, carried along
        // instead of found again; a root `b` that is not joined keeps pointing to itself.
        let mut a = find(parent, 0);
        for x in 0..w - 1 {
            let b = find(parent, x + 1);
            let join = rng.coin_if(a != b);
            parent[b as usize] = if join { a } else { b };
            walls.open_if(east(x), join);
            a = if join { a } else { b };
        }
        // (2) Random south passages, counted per set.
        let mut x0 = 0u32;
        while x0 < w {
            let k = (w - x0).min(64);
            let coins = rng.coins(k);
            for i in 0..k {
                let x = x0 + i;
                let r = find(parent, x);
                root[x as usize] = r;
                let d = (coins >> i) as u8 & 1;
                down[x as usize] = d;
                cnt[r as usize] += 1;
                flag[r as usize] |= d;
            }
            x0 += k;
        }
        // Sets with no south passage: force one, at a uniform position among their cells
        // (drawn at the set's first cell, then counted down; no branch per cell).
        for x in 0..wu {
            let r = root[x] as usize;
            if flag[r] == 0 {
                cnt[r] = rng.choose(cnt[r]);
                flag[r] = 2;
            }
            let f = flag[r];
            let counting = f == 2;
            let hit = counting & (cnt[r] == 0);
            down[x] |= hit as u8;
            flag[r] = if hit { 3 } else { f };
            cnt[r] -= (counting & !hit) as u32;
            walls.open_if(south(x as u32), down[x] != 0);
        }
        // The next row's forest: below a south passage, the set's first such column (the
        // smallest, as columns go up); else a singleton.
        for x in 0..wu {
            let r = root[x] as usize;
            let south = down[x] != 0;
            let first = rep[r].min(x as u32);
            rep[r] = if south { first } else { rep[r] };
            parent[x] = if south { first } else { x as u32 };
        }
        for &r in root.iter() {
            let r = r as usize;
            rep[r] = NONE;
            cnt[r] = 0;
            flag[r] = 0;
        }
    }
}
