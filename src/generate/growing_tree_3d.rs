//! The 3D path of the growing tree ([`super::growing_tree`] on a maze of depth > 1): the same
//! active list, [`Policy`] and lazy retirement as in 2D (retired entries skipped at the ends,
//! rejected and redrawn by `random`, compacted once they outnumber live ones), with neighbours
//! over six directions listed in [`crate::grid::Dir::ALL`] order and chosen with `below(k)` (no
//! draw when there is one). The start cell is uniform (`below(W·H·D)`). Runs on the padded 3D
//! state of [`super::space`]; list entries are `padded << 32 | cell`.

use super::padded::{FREE, IN_TREE as ACTIVE};
use super::space::{options_with, padded_marks3, pick};
use super::{Policy, Scratch};
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Taken out of the list (lazily: its entry stays until skipped or compacted away).
const RETIRED: u8 = 3;

/// The padded index of a list entry (`padded << 32 | cell`).
#[inline]
fn padded(e: u64) -> usize {
    (e >> 32) as usize
}

/// Carve a perfect 3D maze by the growing-tree method with the given selection policy.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, policy: Policy) {
    let n = maze.cells();
    let sp = padded_marks3(&mut s.mark, maze.size());
    let mut walls = maze.wall_writer();
    s.stack.clear();
    let start = rng.below(n);
    let ps = sp.padded(start);
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
        let (opts, k) = options_with(&s.mark, &sp, p, FREE);
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
        let d = pick(&opts, k, rng);
        walls.open(sp.wall(c, d));
        let (np, nc) = (p.wrapping_add(sp.dp[d]), c.wrapping_add(sp.dc[d]));
        s.mark[np as usize] = ACTIVE;
        s.stack.push((np as u64) << 32 | nc as u64);
        live += 1;
    }
}
