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
//!
//! Speed: cells live on the padded byte array of [`super::padded`] ([`super::padded::padded_marks`], border
//! outside), list entries carry the padded index next to the cell id, neighbour options are
//! collected without branches and walls are opened through the wall-id steps of [`crate::grid::Size::wall_id_steps`], so the loop
//! has no coordinate arithmetic and no border tests.

use super::padded::{padded_marks_steps, FREE, IN_TREE as VISITED};
use super::{Policy, Scratch};
use crate::grid::Maze;
use crate::rng::RandomSource;

/// In the list (a maze cell that may still have unvisited neighbours).
const ACTIVE: u8 = VISITED;
/// Taken out of the list (lazily: its entry stays until skipped or compacted away).
const RETIRED: u8 = 3;

/// The padded index of a list entry (`padded << 32 | cell`).
#[inline]
fn padded(e: u64) -> usize {
    (e >> 32) as usize
}

/// Carve a perfect maze by the growing-tree method with the given selection policy.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, policy: Policy) {
    let (w, h) = (maze.width(), maze.height());
    let n = maze.cells();
    let pw = w + 2;
    let dp = padded_marks_steps(&mut s.mark, w, h);
    let size = maze.size();
    let dc = size.cell_steps();
    let wb = size.wall_id_steps();
    let mut walls = maze.wall_writer();
    s.stack.clear();
    let start = rng.below(n);
    let ps = (start / w + 1) * pw + start % w + 1;
    s.mark[ps as usize] = ACTIVE;
    s.stack.push((ps as u64) << 32 | start as u64);
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
            while s.mark[padded(s.stack[s.stack.len() - 1])] == RETIRED {
                s.stack.pop();
                dead -= 1;
            }
            s.stack.len() - 1
        } else if policy == Policy::Oldest {
            while s.mark[padded(s.stack[head])] == RETIRED {
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
                if s.mark[padded(s.stack[i])] != RETIRED {
                    break i;
                }
            }
        };
        let e = s.stack[i];
        let p = (e >> 32) as u32;
        let c = e as u32;
        let mut opts = [0u32; 4];
        let mut k = 0usize;
        for d in 0..4u32 {
            opts[k] = d;
            k += (s.mark[p.wrapping_add(dp[d as usize]) as usize] == FREE) as usize;
        }
        if k == 0 {
            s.mark[p as usize] = RETIRED;
            live -= 1;
            dead += 1;
            if dead > live && dead >= 64 {
                let mark = &s.mark;
                s.stack.drain(..head);
                s.stack.retain(|&e| mark[padded(e)] != RETIRED);
                head = 0;
                dead = 0;
            }
            continue;
        }
        let d = opts[if k == 1 {
            0
        } else {
            rng.below(k as u32) as usize
        }] as usize;
        walls.open(size.east_wall_id(c).wrapping_add(wb[d]));
        let (np, nc) = (p.wrapping_add(dp[d]), c.wrapping_add(dc[d]));
        s.mark[np as usize] = ACTIVE;
        s.stack.push((np as u64) << 32 | nc as u64);
        live += 1;
    }
}
