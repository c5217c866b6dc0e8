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
//! Speed: the walk runs on the padded grid shared with Wilson, on a per-cell byte of the
//! directions that stay on the grid with a flag added once the cell is in the tree (one read
//! per step, no coordinates, no separate state byte); the tree is written from
//! parent directions in one linear pass at the end. Whether the walk takes its preference is a
//! coin flip with probability `P`, which a branch predictor gets wrong half the time at
//! `P = 0.5`: [`RandomSource::dir4_unless`] and [`RandomSource::turn_unless`] compute the
//! preferred and the uniform step and select one, consuming only the draws the chosen one
//! needs (1.7–1.8× fewer ns per step, `cargo bench --bench walks`). The draws are the same, in
//! the same order, as a coordinate-based walk makes, so the mazes are unchanged. Each
//! preference has its own walk loop, the first (uniform) step of a walk is taken before it, and
//! an interior cell (all four neighbours on the grid, most of them) takes a path where the
//! valid-direction tests fold away, and the batch's generator is walked as a copy in locals
//! (its state in registers, not stored every draw): 0.60× (turn) and 0.69× (straight) the
//! instructions per cell of one loop for both on the generator behind a reference
//! (`benches/counts.sh`). The start cells are found eight `sides` bytes at a time
//! ([`next_free`]): one branch per word instead of one per cell, whose outcome (already in the
//! tree or not) a branch predictor cannot guess.
//!
//! This 2D path keeps its 3D twin ([`super::wilson_biased_3d`]) rather than a version written
//! once over the topology: the shared version made the same mazes but measured slower here,
//! whole-process `batchgen --algo wilson-straight:0.5 --size 64x64 --count 20000 --threads 1`,
//! shared/twin median CPU-time ratio 1.05 (four runs of 5–10 pairs: 1.088, 1.046, 1.012, 1.050).
//!
//! [`wilson`]: super::wilson

use super::padded::{
    carve_parent_links, padded_sides, padded_sides_masked, padded_state_of, wilson_root, FREE,
};
use super::shared::Poll;
use super::walk::next_free;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::{with_local_rng, Chance, RandomSource};

/// Added to a cell's byte of on-grid directions once the cell is in the tree (or is a hole):
/// above every set of directions, so one comparison tells it.
const JOINED: u8 = 16;

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

/// Carve a spanning tree by loop-erased walks with a direction bias (not uniform).
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, bias: Bias) {
    // The batch's generator runs on a copy in locals, stored back once: the same draws.
    if !with_local_rng!(rng, |r| walks_for(maze, s, r, bias)) {
        super::abandon(maze, s, rng);
    }
}

/// [`walks`] for `bias`: one walk loop per preference, so neither carries the other's code or
/// a test of `bias`. False when a caught signal stopped the walks.
#[inline(always)]
fn walks_for<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, bias: Bias) -> bool {
    match bias {
        Bias::Straight(_) => walks::<R, false>(maze, s, rng, bias.chance()),
        Bias::Turn(_) => walks::<R, true>(maze, s, rng, bias.chance()),
    }
}

/// The step after the first from a cell whose on-grid directions are `valid`, the walk having
/// come in by `prev`: with `TURN`, a turn (left or right) when one is possible and the
/// `chance` comes up, otherwise straight on when possible and the `chance` comes up; failing
/// that a uniform direction among `valid`. The preference is a coin flip with probability `p`:
/// it selects between the preferred step and a uniform one without a branch (`*_unless`); only
/// the test whether a preference exists at all branches, as it decides whether the probability
/// is drawn. Called with the constant `valid = 15` for interior cells, where that test, the
/// turns' count and the rejection of off-grid directions all fold away.
#[inline(always)]
fn biased_step<R: RandomSource, const TURN: bool>(
    rng: &mut R,
    chance: Chance,
    prev: u32,
    valid: u32,
) -> u32 {
    if TURN {
        let (l, r) = ((prev + 1) & 3, (prev + 3) & 3);
        let prefer = valid & (1 << l | 1 << r) != 0 && rng.unit_below(chance);
        rng.turn_unless(prefer, l, r, valid)
    } else {
        let prefer = valid >> prev & 1 != 0 && rng.unit_below(chance);
        rng.dir4_unless(prefer, prev, valid)
    }
}

/// The walks of [`generate`] for one preference (`TURN`, or straight on); false when a caught
/// signal stopped them (the maze is then unfinished).
#[inline(always)]
fn walks<R: RandomSource, const TURN: bool>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
    chance: Chance,
) -> bool {
    let (w, h) = (maze.width(), maze.height());
    let pw = w + 2;
    let delta = padded_state_of(s, maze);
    if maze.mask().is_some() {
        // A hole is off the grid to the walk: no direction leads into one.
        padded_sides_masked(&mut s.sides, &s.mark, w, h);
    } else {
        padded_sides(&mut s.sides, w, h);
    }
    // The walk reads one byte per step: a cell's on-grid directions, with [`JOINED`] added
    // once it is in the tree (holes of a mask too, so no walk starts on one; no direction
    // leads into one or onto the ring, which stays 0).
    let sides = &mut s.sides[..];
    let next = &mut s.next[..];
    debug_assert!(sides.len() == s.mark.len() && next.len() == sides.len());
    if maze.mask().is_some() {
        for (v, &m) in sides.iter_mut().zip(&s.mark) {
            if m != FREE {
                *v = JOINED;
            }
        }
    }
    let root = wilson_root(maze);
    sides[root as usize] |= JOINED;
    let mut poll = Poll::new();
    for y in 1..=h {
        let row = y * pw;
        let end = row + w + 1;
        let mut start = row;
        loop {
            start = next_free::<JOINED>(sides, start + 1, end);
            if start == end {
                break;
            }
            // The first step from a start cell is uniform (no previous direction yet).
            if poll.stop(1) {
                return false;
            }
            let mut prev = rng.dir4_unless(false, 0, sides[start as usize] as u32);
            next[start as usize] = prev as u8;
            let mut u = start.wrapping_add(delta[prev as usize & 3]);
            loop {
                debug_assert!((u as usize) < sides.len());
                // Bit d set when the neighbour in direction d exists (is not padding); an
                // interior cell (15, the common case) is told from the rest by one test.
                // SAFETY: `u` is a grid cell: the walk starts on one and steps only in
                // directions its `sides` byte marks as on the grid, and every array here has
                // the padded grid's length.
                let valid = unsafe { *sides.get_unchecked(u as usize) } as u32;
                if valid != 15 && valid >= JOINED as u32 {
                    break;
                }
                if poll.stop(1) {
                    return false;
                }
                let d = if valid == 15 {
                    biased_step::<R, TURN>(rng, chance, prev, 15)
                } else {
                    biased_step::<R, TURN>(rng, chance, prev, valid)
                };
                // SAFETY: as above.
                unsafe { *next.get_unchecked_mut(u as usize) = d as u8 };
                u = u.wrapping_add(delta[d as usize & 3]);
                prev = d;
            }
            // Retrace the loop-erased path and add it to the tree.
            let mut u = start;
            // SAFETY: `u` is the start, then a cell whose `next` the walk wrote (it left every
            // cell of the path by a step onto the grid), so `u` is a grid cell, inside both
            // arrays (same length), and `next[u]` is a direction, below 4.
            while unsafe { *sides.get_unchecked(u as usize) } < JOINED {
                unsafe {
                    *sides.get_unchecked_mut(u as usize) |= JOINED;
                    u = u.wrapping_add(
                        *delta.get_unchecked(*next.get_unchecked(u as usize) as usize),
                    );
                }
            }
        }
    }
    carve_parent_links(maze, next, &mut s.codes, root);
    true
}
