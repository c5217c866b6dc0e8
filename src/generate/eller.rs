//! Eller's algorithm: build the maze row by row, keeping track of which cells of the current
//! row are already connected (through rows above), so that no loop is ever closed.
//!
//! For each row but the last: (1) each pair of adjacent cells in different sets is joined with
//! probability 1/2; (2) every cell opens south with probability 1/2, and each set that opened
//! nothing south opens south from one of its cells in this row chosen uniformly, so every set
//! continues into the next row; the cells below start as new singletons. The last row joins
//! every adjacent pair still in different sets. Peers get this wrong (knossos's Eller makes
//! loops); here set membership is a union-find over cell ids, so "different sets" is always
//! exact: every opened wall joins two different components, which with `W·H − 1` openings
//! means a tree. (A classic Eller keeps only one row of set labels; the union-find over all
//! cells costs `W·H` words of scratch but makes every merge O(α) instead of a relabelling scan
//! of the row, which would be quadratic in the width.)
//!
//! Per row, `stack` holds each cell's root (`root << 1 | opens_south`); `count[root]` counts
//! the set's cells in the row and `next[root]` flags whether it opened south (0 no, 1 yes,
//! 2 a forced cell has been drawn, 3 done). Draws: coins and one `below(count)` per set
//! without a south passage (exactly enumerable).

use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a perfect maze by Eller's algorithm.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let n = maze.cells();
    s.dsu.reset(n);
    s.count.clear();
    s.count.resize(n as usize, 0);
    s.next.clear();
    s.next.resize(n as usize, 0);
    for y in 0..h {
        let row = y * w;
        let last = row + w - 1;
        if y + 1 == h {
            for c in row..last {
                if s.dsu.union(c, c + 1) {
                    maze.carve_east(c);
                }
            }
            break;
        }
        // (1) Random joins within the row.
        for c in row..last {
            if s.dsu.find(c) != s.dsu.find(c + 1) && rng.coin() {
                s.dsu.union(c, c + 1);
                maze.carve_east(c);
            }
        }
        // (2) Random south passages, counted per set.
        s.stack.clear();
        for c in row..=last {
            let r = s.dsu.find(c);
            let down = rng.coin();
            s.stack.push((r as u64) << 1 | down as u64);
            s.count[r as usize] += 1;
            if down {
                s.next[r as usize] = 1;
            }
        }
        // Sets with no south passage: force one, at a uniform position among their cells.
        for (c, e) in (row..=last).zip(s.stack.iter_mut()) {
            let r = (*e >> 1) as usize;
            if s.next[r] == 0 {
                let k = s.count[r];
                s.count[r] = if k == 1 { 0 } else { rng.below(k) };
                s.next[r] = 2;
            }
            if s.next[r] == 2 {
                if s.count[r] == 0 {
                    *e |= 1;
                    s.next[r] = 3;
                } else {
                    s.count[r] -= 1;
                }
            }
            if *e & 1 != 0 {
                maze.carve_south(c);
            }
        }
        // Link the cells below into their sets and reset the per-set counters.
        for (c, &e) in (row..=last).zip(s.stack.iter()) {
            let r = (e >> 1) as usize;
            s.count[r] = 0;
            s.next[r] = 0;
            if e & 1 != 0 {
                s.dsu.union(c, c + w);
            }
        }
    }
}
