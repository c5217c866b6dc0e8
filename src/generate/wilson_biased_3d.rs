//! The 3D path of biased Wilson ([`super::wilson_biased`] on a maze of depth > 1): loop-erased
//! walks on the six-neighbour grid that prefer to go straight on, or to turn. **Not uniform.**
//!
//! The first step from each start cell is a uniform neighbour. After that, with
//! `wilson-straight:P` the walk keeps its previous direction (same axis and sense) with
//! probability `P` when that neighbour exists; with `wilson-turn:P` it turns with probability
//! `P` when a turn is possible, a turn being any of the (up to four) existing neighbours on the
//! two axes perpendicular to the previous step, chosen uniformly (`below(k)`, no draw when there
//! is one); otherwise it steps to a uniform neighbour (three random bits, rejected when 6, 7 or
//! off the grid). As in 2D, retracing `next` from the start is the loop-erased path for any
//! walk, so the result is always a spanning tree. Runs on the padded 3D state of
//! [`super::space`].

use super::padded::{FREE, IN_TREE, OUTSIDE};
use super::space::{add_loop_erased, carve_parent_links3, padded_state3};
use super::wilson_biased::Bias;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// For each direction `0..6`, the mask of the four directions perpendicular to it.
const PERPENDICULAR: [u32; 6] = [
    0b11_1010, // east: south, north, down, up
    0b11_0101, // south: east, west, down, up
    0b11_1010, // west
    0b11_0101, // north
    0b00_1111, // down: the four planar ones
    0b00_1111, // up
];

/// A uniform direction among those set in `valid` (not empty), by rejection of 3-bit draws.
#[inline]
fn uniform_dir<R: RandomSource>(rng: &mut R, valid: u32) -> u32 {
    loop {
        let d = rng.bits(3);
        if valid >> d & 1 != 0 {
            return d;
        }
    }
}

/// Carve a spanning tree of a 3D grid by loop-erased walks with a direction bias (not uniform).
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, bias: Bias) {
    let size = maze.size();
    let sp = padded_state3(&mut s.mark, &mut s.next, size);
    let mark = &mut s.mark[..];
    let next = &mut s.next[..];
    let root = sp.padded(size.cell(sp.w / 2, sp.h / 2, sp.d / 2));
    mark[root as usize] = IN_TREE;
    for z in 0..sp.d {
        for y in 0..sp.h {
            let row = sp.row_start(y, z);
            for start in row..row + sp.w {
                if mark[start as usize] != FREE {
                    continue;
                }
                let mut u = start;
                let mut prev = 6u32; // no previous direction yet
                while mark[u as usize] == FREE {
                    // Bit d set when the neighbour in direction d exists.
                    let mut valid = 0u32;
                    for (k, &dk) in sp.dp.iter().enumerate() {
                        valid |= ((mark[u.wrapping_add(dk) as usize] != OUTSIDE) as u32) << k;
                    }
                    let d = match bias {
                        _ if prev == 6 => uniform_dir(rng, valid),
                        Bias::Straight(p) => {
                            if valid >> prev & 1 != 0 && rng.unit_f64() < p {
                                prev
                            } else {
                                uniform_dir(rng, valid)
                            }
                        }
                        Bias::Turn(p) => {
                            let turns = valid & PERPENDICULAR[prev as usize];
                            if turns != 0 && rng.unit_f64() < p {
                                let k = turns.count_ones();
                                let mut nth = if k == 1 { 0 } else { rng.below(k) };
                                let mut t = turns;
                                while nth > 0 {
                                    t &= t - 1;
                                    nth -= 1;
                                }
                                t.trailing_zeros()
                            } else {
                                uniform_dir(rng, valid)
                            }
                        }
                    };
                    next[u as usize] = d as u8;
                    u = u.wrapping_add(sp.dp[d as usize]);
                    prev = d;
                }
                add_loop_erased(mark, next, &sp, start);
            }
        }
    }
    carve_parent_links3(maze, &sp, next, root);
}
