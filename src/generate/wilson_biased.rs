//! Biased Wilson (`wilson-straight:P`, `wilson-turn:P`): Wilson's loop-erased random walks with
//! a walk that prefers to go straight on, or to turn. **Not uniform**: the point is a texture
//! that level designers ask for (longer straight corridors, or twistier ones) while keeping
//! Wilson's structure.
//!
//! The walk: its first step from each start cell is a uniform neighbour (as in [`wilson`]).
//! After that, with `wilson-straight:P` it keeps its previous direction with probability `P`
//! when that is possible; with `wilson-turn:P` it turns left or right (a fair coin when both
//! are possible) with probability `P` when at least one is possible; otherwise it steps to a
//! uniform neighbour (which may also be straight on, or back). `P = 0` is plain Wilson in
//! distribution. The loop erasure is the same as in [`wilson`]: `next[u]` keeps the direction
//! the walk last left `u` by, and retracing it from the start is the loop-erased path for *any*
//! walk, Markov or not, so the result is always a spanning tree; with `P < 1` for
//! `wilson-straight` every step keeps a positive probability of going to any neighbour, so every
//! walk ends (at `P = 1` a walk turns only at the border and can circle it forever, so the
//! parser refuses it); with `wilson-turn:1` the walk alternates horizontal and vertical steps
//! in the interior and is uniform at the border, which still reaches every cell. The probability test
//! draws `unit_f64`, so these variants are sampled, not enumerated, by the uniformity lab.
//!
//! [`wilson`]: super::wilson

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

/// Column step per direction (east, south, west, north), as wrapping `u32` additions.
const DX: [u32; 4] = [1, 0, u32::MAX, 0];
/// Row step per direction.
const DY: [u32; 4] = [0, 1, 0, u32::MAX];

/// What the walk prefers, with the probability of taking its preference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bias {
    /// Keep the previous direction.
    Straight(f64),
    /// Turn left or right.
    Turn(f64),
}

/// A uniform direction among those set in `valid` (not empty), by rejection.
#[inline]
fn uniform_dir<R: RandomSource>(rng: &mut R, valid: u32) -> u32 {
    loop {
        let d = rng.dir4();
        if valid >> d & 1 != 0 {
            return d;
        }
    }
}

/// Carve a spanning tree by loop-erased walks with a direction bias (not uniform).
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, bias: Bias) {
    let (w, h) = (maze.width(), maze.height());
    let n = maze.cells() as usize;
    s.mark.clear();
    s.mark.resize(n, 0);
    s.next.clear();
    s.next.resize(n, 0);
    let root = (h / 2) * w + w / 2;
    s.mark[root as usize] = 1;
    let delta = [1u32, w, 1u32.wrapping_neg(), w.wrapping_neg()];
    for y in 0..h {
        for x in 0..w {
            let start = y * w + x;
            if s.mark[start as usize] != 0 {
                continue;
            }
            let (mut u, mut ux, mut uy) = (start, x, y);
            let mut prev = 4u32; // no previous direction yet
            while s.mark[u as usize] == 0 {
                let valid = (ux + 1 < w) as u32
                    | ((uy + 1 < h) as u32) << 1
                    | ((ux > 0) as u32) << 2
                    | ((uy > 0) as u32) << 3;
                let d = match bias {
                    _ if prev == 4 => uniform_dir(rng, valid),
                    Bias::Straight(p) => {
                        if valid >> prev & 1 != 0 && rng.unit_f64() < p {
                            prev
                        } else {
                            uniform_dir(rng, valid)
                        }
                    }
                    Bias::Turn(p) => {
                        let (l, r) = ((prev + 1) & 3, (prev + 3) & 3);
                        let turns = valid & (1 << l | 1 << r);
                        if turns != 0 && rng.unit_f64() < p {
                            if turns == (1 << l | 1 << r) {
                                if rng.coin() {
                                    l
                                } else {
                                    r
                                }
                            } else {
                                turns.trailing_zeros()
                            }
                        } else {
                            uniform_dir(rng, valid)
                        }
                    }
                };
                s.next[u as usize] = d as u8;
                u = u.wrapping_add(delta[d as usize]);
                // Table steps instead of a `match`: the direction is random, so a branch
                // would be mispredicted most of the time.
                ux = ux.wrapping_add(DX[d as usize]);
                uy = uy.wrapping_add(DY[d as usize]);
                prev = d;
            }
            let mut u = start;
            while s.mark[u as usize] == 0 {
                s.mark[u as usize] = 1;
                let d = s.next[u as usize] as u32;
                maze.carve(u, Dir::from_index(d));
                u = u.wrapping_add(delta[d as usize]);
            }
        }
    }
}
