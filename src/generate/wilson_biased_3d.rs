//! The 3D path of biased Wilson ([`super::wilson_biased`] on a maze of depth > 1): loop-erased
//! walks on the six-neighbour grid that prefer to go straight on, or to turn. **Not uniform.**
//!
//! The first step from each start cell is a uniform neighbour. After that, with
//! `wilson-straight:P` the walk keeps its previous direction (same axis and sense) with
//! probability `P` when that neighbour exists; with `wilson-turn:P` it turns with probability
//! `P` when a turn is possible, a turn being any of the (up to four) existing neighbours on the
//! two axes perpendicular to the previous step, chosen uniformly (`below(k)`, no draw when there
//! is one); otherwise it steps to a uniform neighbour (three random bits, rejected when 6, 7 or
//! off the grid). As in 2D, retracing the walk's steps (`to`) from the start is the
//! loop-erased path for any walk, so the result is always a spanning tree. Runs on the padded
//! 3D state of [`super::space`].

use super::padded::FREE;
use super::shared::Poll;
use super::space::{carve_parent_links3, padded_sides3, padded_state3};
use super::walk::loop_erased_walks;
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

/// Carve a spanning tree of a 3D grid by loop-erased walks with a direction bias (not uniform).
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, bias: Bias) {
    let size = maze.size();
    let sp = padded_state3(&mut s.mark, &mut s.next, size);
    padded_sides3(&mut s.sides, &sp);
    let sides = &s.sides[..];
    let mark = &mut s.mark[..];
    let next = &mut s.next[..];
    // The cell each walk step led to, for the retrace; stale entries are never read.
    let to = &mut s.cells;
    let root = sp.padded(size.cell(sp.w / 2, sp.h / 2, sp.d / 2));
    let chance = bias.chance();
    let mut poll = Poll::new();
    let mut step = |u: u32, prev: u32| {
        // Bit d set when the neighbour in direction d exists.
        let valid = sides[u as usize] as u32;
        // A uniform step is `random_step`'s draws: three bits, rejected when not in `valid`
        // (`dir6_unless` with nothing preferred). Whether a straight walk keeps its direction
        // is a coin flip with probability `P`: `dir6_unless` selects between the kept and the
        // uniform step without a branch on it (the 2D walk's `dir4_unless`).
        match bias {
            _ if prev == 6 => rng.dir6_unless(false, 0, valid),
            Bias::Straight(_) => {
                let prefer = valid >> prev & 1 != 0 && rng.unit_below(chance);
                rng.dir6_unless(prefer, prev, valid)
            }
            Bias::Turn(_) => {
                let turns = valid & PERPENDICULAR[prev as usize];
                if turns != 0 && rng.unit_below(chance) {
                    let mut nth = rng.choose(turns.count_ones());
                    let mut t = turns;
                    while nth > 0 {
                        t &= t - 1;
                        nth -= 1;
                    }
                    t.trailing_zeros()
                } else {
                    rng.dir6_unless(false, 0, valid)
                }
            }
        }
    };
    let done = loop_erased_walks(&sp, mark, next, to, root, |mark, next, to, start| {
        // Walk from `start` (no previous direction: 6) until the tree is hit.
        let (mut u, mut prev) = (start, 6u32);
        while mark[u as usize] == FREE {
            if poll.stop(1) {
                return false;
            }
            let d = step(u, prev);
            next[u as usize] = d as u8;
            let nb = u.wrapping_add(sp.dp[d as usize]);
            to[u as usize] = nb;
            u = nb;
            prev = d;
        }
        true
    });
    if !done {
        return super::abandon(maze, s, rng);
    }
    carve_parent_links3(maze, &sp, next, root);
}
