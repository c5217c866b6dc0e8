//! Biased Wilson (`wilson-straight:P`, `wilson-turn:P`): Wilson's loop-erased random walks with
//! a walk that prefers to go straight on, or to turn. **Not uniform**: the point is a texture
//! that level designers ask for (longer straight corridors, or twistier ones) while keeping
//! Wilson's structure. Written once for 2D and 3D grids ([`Walk`]); only the turn differs.
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
//! In 3D "straight on" is the same axis and sense; a turn is any of the (up to four) existing
//! neighbours on the two axes perpendicular to the previous step, chosen uniformly (`choose(k)`,
//! no draw when there is one); a uniform step is three random bits, redrawn when they give 6,
//! 7 or point off the grid ([`Walk::turn_or_uniform`], [`Walk::keep_or_uniform`]).
//!
//! Speed: the walk runs on the padded state array shared with Wilson, and so do its loop
//! erasure and its order of start cells ([`loop_erased_walks`]), with a per-cell byte of the
//! directions that stay on the grid (one read, no coordinates); the tree is written from
//! parent directions in one linear pass at the end. Whether the walk takes its preference is a
//! coin flip with probability `P`, which a branch predictor gets wrong half the time at
//! `P = 0.5`: [`RandomSource::dir4_unless`] and [`RandomSource::turn_unless`] compute the
//! preferred and the uniform step and select one, consuming only the draws the chosen one
//! needs (1.7–1.8× fewer ns per step, `cargo bench --bench walks`). The draws are the same, in
//! the same order, as a coordinate-based walk makes, so the mazes are unchanged.
//!
//! [`wilson`]: super::wilson

use super::padded::FREE;
use super::shared::Poll;
use super::topology::Walk;
use super::walk::loop_erased_walks;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::{Chance, RandomSource};

/// What the walk prefers, with the probability of taking its preference.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Bias {
    /// Keep the previous direction.
    Straight(f64),
    /// Turn left or right.
    Turn(f64),
}

impl Bias {
    /// The probability of taking the preference, as a [`Chance`] (its integer threshold is
    /// computed once per maze).
    pub(super) fn chance(self) -> Chance {
        match self {
            Bias::Straight(p) | Bias::Turn(p) => Chance::new(p),
        }
    }
}

/// Carve a spanning tree by loop-erased walks with a direction bias (not uniform) on topology
/// `T`.
pub(crate) fn generate<T: Walk, R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
    bias: Bias,
) {
    let t = T::state(s, maze);
    t.sides(&mut s.sides, &s.mark, maze);
    let sides = &s.sides[..];
    let mark = &mut s.mark[..];
    let next = &mut s.next[..];
    let root = t.wilson_root(maze);
    let chance = bias.chance();
    let mut poll = Poll::new();
    let done = loop_erased_walks(&t, mark, next, root, |mark, next, start| {
        let mut u = start;
        let mut prev = T::DIRS; // no previous direction yet
        while mark[u as usize] == FREE {
            if poll.stop(1) {
                return false;
            }
            // Bit d set when the neighbour in direction d exists (is not padding).
            let valid = sides[u as usize] as u32;
            // The walk's preference is a coin flip with probability `p`: it selects between the
            // preferred step and a uniform one without a branch (`*_unless`); only the test
            // whether a preference exists at all (almost always true away from the border)
            // branches, as it decides whether the probability is drawn.
            let d = match bias {
                _ if prev == T::DIRS => T::keep_or_uniform(rng, false, 0, valid),
                Bias::Straight(_) => {
                    let prefer = valid >> prev & 1 != 0 && rng.unit_below(chance);
                    T::keep_or_uniform(rng, prefer, prev, valid)
                }
                Bias::Turn(_) => T::turn_or_uniform(rng, chance, prev, valid),
            };
            next[u as usize] = d as u8;
            u = u.wrapping_add(t.step(d as usize));
            prev = d;
        }
        true
    });
    if !done {
        return super::abandon(maze, s, rng);
    }
    t.carve_parent_links(maze, next, &mut s.codes, root);
}
