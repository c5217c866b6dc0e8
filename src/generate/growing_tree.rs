//! Growing tree: keep a list of active cells; pick one by the [`Policy`], carve to a random
//! unvisited neighbour and add it to the list, or retire the picked cell when it has none.
//! `newest` behaves like the backtracker, `random` like Prim, `oldest` grows long straight
//! spokes from the start, `mix:P` takes the newest with probability `P`, otherwise a random one.
//!
//! Choices: the start cell is uniform (`below(W·H)`, one division per maze for its column);
//! neighbour choice is an unbiased `below(k)` over the unvisited neighbours listed east, south,
//! west, north. Retiring a cell from the middle of the list must keep the order (`newest` in
//! a mix means the most recently added live cell), and removing from the middle of a `Vec` is
//! linear, so retirement is lazy: the cell is marked retired in `mark` (2), retired entries are
//! skipped at the ends (newest/oldest) or rejected and redrawn (random, which keeps the pick
//! uniform over live cells), and the list is compacted in order once retired entries
//! outnumber live ones. Everything stays amortised O(1) per cell. `newest`, `oldest` and
//! `random` draw only with `below`; `mix:P` also draws `unit_f64` (sampled, not enumerable).

use super::{Policy, Scratch};
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

const UNVISITED: u8 = 0;
const ACTIVE: u8 = 1;
const RETIRED: u8 = 2;

/// Carve a perfect maze by the growing-tree method with the given selection policy.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, policy: Policy) {
    let w = maze.width();
    let n = maze.cells();
    s.mark.clear();
    s.mark.resize(n as usize, UNVISITED);
    s.stack.clear();
    let start = rng.below(n);
    s.mark[start as usize] = ACTIVE;
    s.stack.push((start as u64) << 32 | (start % w) as u64);
    let mut head = 0usize; // entries before `head` are retired
    let mut live = 1usize;
    let mut dead = 0usize; // retired entries at or after `head`
    while live > 0 {
        let newest = match policy {
            Policy::Newest => true,
            Policy::Oldest | Policy::Random => false,
            Policy::Mix(p) => rng.unit_f64() < p,
        };
        let i = if newest {
            while s.mark[(s.stack[s.stack.len() - 1] >> 32) as usize] == RETIRED {
                s.stack.pop();
                dead -= 1;
            }
            s.stack.len() - 1
        } else if policy == Policy::Oldest {
            while s.mark[(s.stack[head] >> 32) as usize] == RETIRED {
                head += 1;
                dead -= 1;
            }
            head
        } else {
            let span = (s.stack.len() - head) as u32;
            loop {
                let i = head
                    + if span == 1 {
                        0
                    } else {
                        rng.below(span) as usize
                    };
                if s.mark[(s.stack[i] >> 32) as usize] != RETIRED {
                    break i;
                }
            }
        };
        let e = s.stack[i];
        let c = (e >> 32) as u32;
        let x = e as u32;
        let mut opts = [(0u32, Dir::East, 0u32); 4];
        let mut k = 0usize;
        if x + 1 < w && s.mark[(c + 1) as usize] == UNVISITED {
            opts[k] = (c + 1, Dir::East, x + 1);
            k += 1;
        }
        if c + w < n && s.mark[(c + w) as usize] == UNVISITED {
            opts[k] = (c + w, Dir::South, x);
            k += 1;
        }
        if x > 0 && s.mark[(c - 1) as usize] == UNVISITED {
            opts[k] = (c - 1, Dir::West, x - 1);
            k += 1;
        }
        if c >= w && s.mark[(c - w) as usize] == UNVISITED {
            opts[k] = (c - w, Dir::North, x);
            k += 1;
        }
        if k == 0 {
            s.mark[c as usize] = RETIRED;
            live -= 1;
            dead += 1;
            if dead > live && dead >= 64 {
                let mark = &s.mark;
                s.stack.drain(..head);
                s.stack.retain(|&e| mark[(e >> 32) as usize] != RETIRED);
                head = 0;
                dead = 0;
            }
            continue;
        }
        let pick = if k == 1 {
            0
        } else {
            rng.below(k as u32) as usize
        };
        let (nb, d, nx) = opts[pick];
        maze.carve(c, d);
        s.mark[nb as usize] = ACTIVE;
        s.stack.push((nb as u64) << 32 | nx as u64);
        live += 1;
    }
}
