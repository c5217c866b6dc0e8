//! Braiding: the post-pass that turns a perfect maze into one with loops (`--braid P`), so a
//! level has alternative routes and fewer dead ends.
//!
//! Buck's method: list the maze's dead ends (cells with exactly one passage), visit them in a
//! uniformly random order, and for each cell that is *still* a dead end when its turn comes,
//! with probability `P` open one more of its walls, preferring a neighbour that is itself a dead
//! end (so one new passage removes two dead ends); among the preferred walls (or, when no
//! neighbour is a dead end, among all its closed interior walls) the choice is uniform.
//!
//! The draws are made in an order that costs less and gives the same distribution: each dead
//! end's chance is drawn first, in cell order, and only the chosen ones are shuffled and
//! visited. A dead end that is not chosen does nothing at its turn, so only the chosen ones'
//! order matters, and the order of a subset under a uniformly random order of the whole is
//! uniform and independent of the subset (a test compares this with the method drawn at each
//! turn, by chi-square). At `P = 1` every dead end is chosen and no chance is drawn.
//!
//! The draws come from their own stream, [`crate::rng::braid_seed`] of the maze seed, taken
//! after the generator has finished: the perfect maze under the loops is exactly the maze the
//! same identifiers give without braiding, and `P = 0` skips the pass (no draw, no change).
//! Every wall opened adds one loop: a braided maze has `cells − 1 + loops` passages and stays
//! connected. At `P = 1` no dead end survives unless it has no closed interior wall at all (the
//! two ends of a grid one cell wide, which nothing can braid). Works on 2D and 3D grids alike
//! (six neighbours in 3D).
//!
//! On a [mask](crate::grid::Mask) the pass stays inside the mask: a neighbour that is a hole is
//! never a candidate wall, so no passage leads into a hole, and a dead end that survives
//! `P = 1` has no other mask neighbour to open towards.

use crate::grid::{Dir, Maze, Size};
use crate::metrics::degrees;
use crate::popcount::ONES;
use crate::rng::{Chance, RandomSource, Rng};

/// Buffers of the braid pass, reused from maze to maze.
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    /// The dead ends of the perfect maze, then shuffled.
    dead: Vec<u32>,
    /// Each cell's open sides as a byte (the bits of [`Maze::open_mask`]), kept up to date as
    /// walls open.
    open: Vec<u8>,
    /// Each cell's sides that lead to another cell of the maze (inside the grid, not a hole),
    /// as a byte of direction bits; depends on the size and the mask only.
    inside: Vec<u8>,
    /// The size and mask hash (0 without a mask) `inside` was built for.
    inside_of: Option<(Size, u64)>,
}

impl Scratch {
    /// Empty scratch; the buffers grow on first use.
    pub fn new() -> Scratch {
        Scratch::default()
    }

    /// Build `inside` for `maze`'s size and mask, unless it already is.
    fn inside_for(&mut self, maze: &Maze) {
        let key = (maze.size(), maze.mask().map_or(0, |m| m.hash()));
        if self.inside_of == Some(key) {
            return;
        }
        let size = maze.size();
        self.inside.clear();
        self.inside.extend((0..maze.cells()).map(|c| {
            Dir::ALL
                .iter()
                .filter(|&&d| {
                    maze.has_cell(c)
                        && size.has_neighbour(c, d)
                        && maze.has_cell(size.neighbour(c, d))
                })
                .fold(0u8, |b, &d| b | 1 << d as u8)
        }));
        self.inside_of = Some(key);
    }
}

/// Braid `maze` with chance `p` per dead end, drawing from `rng` (seed it with
/// [`crate::rng::braid_seed`] of the maze seed). Returns the number of walls opened, which is
/// the number of loops added. `p = 0` returns at once without drawing.
pub fn braid(maze: &mut Maze, p: Chance, rng: &mut Rng, s: &mut Scratch) -> u32 {
    if p.p() <= 0.0 {
        return 0;
    }
    dead_ends_and_sides(maze, s);
    // Each dead end's chance, drawn in cell order; the chosen ones are kept in place (a store
    // at every step, the end advanced by the outcome: no branch on the draw). At `P = 1` every
    // dead end is chosen and nothing is drawn.
    let dead = &mut s.dead;
    if p.p() < 1.0 {
        let mut kept = 0;
        for i in 0..dead.len() {
            dead[kept] = dead[i];
            kept += rng.unit_below(p) as usize;
        }
        dead.truncate(kept);
    }
    // A uniformly random visiting order.
    rng.shuffle(dead);
    s.inside_for(maze);
    if maze.depth() > 1 {
        open_chosen::<6>(maze, rng, s)
    } else {
        open_chosen::<4>(maze, rng, s)
    }
}

/// Visit the chosen dead ends in their shuffled order and open one more wall of each that is
/// still a dead end; `D` is the number of directions (4 on a planar grid, 6 on a solid one).
/// Returns the number of walls opened.
#[inline(always)]
fn open_chosen<const D: usize>(maze: &mut Maze, rng: &mut Rng, s: &mut Scratch) -> u32 {
    let (open, inside) = (&mut s.open[..], &s.inside[..]);
    let size = maze.size();
    let (w, l) = (size.width, size.layer_cells());
    // Cell offsets of E, S, W, N, Down, Up as wrapping additions.
    let off = [
        1,
        w,
        1u32.wrapping_neg(),
        w.wrapping_neg(),
        l,
        l.wrapping_neg(),
    ];
    // The cell whose east or south wall is the wall in direction E, S, W, N.
    let west_north = [0, 0, off[2], off[3]];
    let mut opened = 0;
    for &c in s.dead.iter() {
        let o = open[c as usize];
        if !one_side(o) {
            continue;
        }
        // Closed walls to other cells, and the subset leading to dead ends, as direction bit
        // sets; a direction that is not closed looks at the cell itself (no branch, no read
        // outside the grid).
        let closed = inside[c as usize] & !o;
        let mut preferred = 0u8;
        for (d, &step) in off.iter().enumerate().take(D) {
            let bit = closed >> d & 1;
            let nb = c.wrapping_add(if bit == 1 { step } else { 0 });
            preferred |= (one_side(open[nb as usize]) as u8 & bit) << d;
        }
        let from = if preferred != 0 { preferred } else { closed } as u32;
        if from == 0 {
            continue;
        }
        let d = NTH_SIDE[from as usize][rng.below(ONES[from as usize] as u32) as usize] as usize;
        let nb = c.wrapping_add(off[d]);
        if d < 4 {
            // The planar wall's id without a branch on the direction: 2·cell (+ 1 for south)
            // of the cell itself (east, south) or of its west or north neighbour.
            maze.open_wall(2 * c.wrapping_add(west_north[d]) + (d as u32 & 1));
        } else {
            maze.carve(c, Dir::ALL[d]);
        }
        open[c as usize] |= 1 << d;
        open[nb as usize] |= 1 << Dir::ALL[d].opposite() as u8;
        opened += 1;
    }
    opened
}

/// [`braid`] with the braid stream of the maze whose per-maze seed is `maze_seed`
/// ([`crate::rng::braid_seed`]): what the batch, [`crate::Level`] and `render` do after
/// generating that maze.
pub fn braid_seeded(maze: &mut Maze, p: Chance, maze_seed: u64, s: &mut Scratch) -> u32 {
    if p.p() <= 0.0 {
        return 0;
    }
    let mut rng = Rng::from_maze_seed(crate::rng::braid_seed(maze_seed));
    braid(maze, p, &mut rng, s)
}

/// The dead ends of `maze` in increasing cell order into `s.dead`, and every cell's open sides
/// into `s.open`: one word-parallel pass of the metrics' degree count, whose dead-end plane
/// (bit `2k` of word `i` for cell `32·i + k`) lists the cells with exactly one open side.
fn dead_ends_and_sides(maze: &Maze, s: &mut Scratch) {
    let dead = &mut s.dead;
    dead.clear();
    let n = maze.cells();
    let push = |i: usize, mut one: u64| {
        while one != 0 {
            let c = 32 * i as u32 + one.trailing_zeros() / 2;
            one &= one - 1;
            if c < n {
                dead.push(c);
            }
        }
    };
    if maze.depth() > 1 {
        degrees::prepare_3d_with(maze, &mut s.open, push);
    } else {
        degrees::prepare_with(maze, &mut s.open, push);
    }
}

/// Bit `o` is set when the side set `o` (six bits) holds exactly one side: a dead end's test by
/// one shift, where `count_ones` would be a dozen instructions on a CPU without `popcnt` (the
/// portable target the release builds for).
const ONE_SIDE: u64 = 1 << 1 | 1 << 2 | 1 << 4 | 1 << 8 | 1 << 16 | 1 << 32;

/// Whether the side set `o` (below 64) holds exactly one side.
#[inline(always)]
fn one_side(o: u8) -> bool {
    ONE_SIDE >> o & 1 == 1
}

/// The position of the `k`-th set bit of `x` (from the lowest, `k < x.count_ones()`, at most
/// six bits set), without a branch on `k`.
const fn nth_bit(mut x: u32, k: u32) -> u32 {
    let mut i = 0;
    while i < k {
        x &= x.wrapping_sub(1);
        i += 1;
    }
    x.trailing_zeros()
}

/// [`nth_bit`] of every side set of six bits and every `k < 6`, as a table: one load per
/// opened wall instead of five conditional clears.
const NTH_SIDE: [[u8; 6]; 64] = {
    let mut t = [[0; 6]; 64];
    let mut x = 1;
    while x < 64 {
        let mut k = 0;
        while k < ONES[x] as usize {
            t[x][k] = nth_bit(x as u32, k as u32) as u8;
            k += 1;
        }
        x += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate_seeded, Algorithm, Scratch as GenScratch};
    use crate::grid::Size;
    use crate::rng::braid_seed;

    fn perfect(algo: &Algorithm, size: Size, seed: u64) -> Maze {
        let mut m = Maze::with_size(size);
        generate_seeded(algo, &mut m, &mut GenScratch::new(), seed);
        m
    }

    fn brute_dead_ends(m: &Maze) -> Vec<u32> {
        (0..m.cells()).filter(|&c| m.degree(c) == 1).collect()
    }

    #[test]
    fn dead_ends_match_the_degrees() {
        for size in [
            Size::planar(1, 7),
            Size::planar(33, 5),
            Size::planar(64, 64),
            Size::new(5, 4, 3),
        ] {
            let algo = if size.is_3d() {
                Algorithm::Backtracker
            } else {
                Algorithm::Wilson
            };
            let m = perfect(&algo, size, 9);
            let mut s = Scratch::new();
            dead_ends_and_sides(&m, &mut s);
            assert_eq!(s.dead, brute_dead_ends(&m), "{size}");
            for c in 0..m.cells() {
                assert_eq!(s.open[c as usize], m.open_mask(c), "{size} cell {c}");
            }
        }
    }

    #[test]
    fn full_braid_leaves_no_dead_end_and_each_wall_is_a_loop() {
        let mut s = Scratch::new();
        for (size, seed) in [
            (Size::planar(16, 16), 1),
            (Size::planar(2, 2), 2),
            (Size::planar(2, 9), 3),
            (Size::new(4, 4, 4), 4),
        ] {
            let algo = if size.is_3d() {
                Algorithm::Backtracker
            } else {
                Algorithm::Kruskal
            };
            let mut m = perfect(&algo, size, seed);
            let before = m.passages();
            let mut rng = Rng::from_maze_seed(braid_seed(seed));
            let opened = braid(&mut m, Chance::new(1.0), &mut rng, &mut s);
            assert!(brute_dead_ends(&m).is_empty(), "{size}");
            assert_eq!(m.passages(), before + opened as u64, "{size}");
        }
    }

    #[test]
    fn a_one_wide_grid_has_nothing_to_open() {
        let mut m = perfect(&Algorithm::Wilson, Size::planar(1, 9), 3);
        let orig = m.clone();
        let mut rng = Rng::from_maze_seed(braid_seed(3));
        assert_eq!(
            braid(&mut m, Chance::new(1.0), &mut rng, &mut Scratch::new()),
            0
        );
        assert_eq!(m, orig);
    }

    #[test]
    fn zero_chance_changes_nothing_and_draws_nothing() {
        let size = Size::planar(20, 12);
        let mut m = perfect(&Algorithm::Wilson, size, 5);
        let orig = m.clone();
        let mut rng = Rng::from_maze_seed(7);
        let mut fresh = rng.clone();
        assert_eq!(
            braid(&mut m, Chance::new(0.0), &mut rng, &mut Scratch::new()),
            0
        );
        assert_eq!(m, orig);
        assert_eq!(rng.next_u64(), fresh.next_u64());
    }

    #[test]
    fn a_half_braid_removes_about_half_the_dead_ends() {
        // Each visited dead end is opened with chance 1/2, and an opening towards a dead end
        // removes two; so strictly between none and all of them go, on a large maze.
        let size = Size::planar(64, 64);
        let mut m = perfect(&Algorithm::Wilson, size, 11);
        let before = brute_dead_ends(&m).len();
        let mut rng = Rng::from_maze_seed(braid_seed(11));
        let opened = braid(&mut m, Chance::new(0.5), &mut rng, &mut Scratch::new());
        let after = brute_dead_ends(&m).len();
        assert!(opened > 0 && after > 0 && after < before);
        assert!(before - after <= 2 * opened as usize);
    }

    // The chi-square p-value is the uniformity lab's, built with the `cli` feature: these run
    // in the default build, not in the lean core's.
    /// Buck's method as first written: every dead end shuffled, the chance drawn at its turn.
    #[cfg(feature = "cli")]
    fn buck_at_each_turn(m: &mut Maze, p: Chance, rng: &mut Rng) {
        let size = m.size();
        let mut dead = brute_dead_ends(m);
        rng.shuffle(&mut dead);
        for c in dead {
            if m.degree(c) != 1 || !rng.unit_below(p) {
                continue;
            }
            let closed: Vec<Dir> = Dir::ALL[..4]
                .iter()
                .copied()
                .filter(|&d| size.has_neighbour(c, d) && m.open_mask(c) & (1 << d as u8) == 0)
                .collect();
            let preferred: Vec<Dir> = closed
                .iter()
                .copied()
                .filter(|&d| m.degree(size.neighbour(c, d)) == 1)
                .collect();
            let from = if preferred.is_empty() {
                closed
            } else {
                preferred
            };
            if !from.is_empty() {
                m.carve(c, from[rng.below(from.len() as u32) as usize]);
            }
        }
    }

    /// Two-sample chi-square of the braided mazes `a` and `b` give from `runs` streams each,
    /// outcomes seen fewer than 10 times in both together pooled; the p-value.
    #[cfg(feature = "cli")]
    fn same_distribution_p(
        base: &Maze,
        runs: u64,
        mut a: impl FnMut(&mut Maze, &mut Rng),
        mut b: impl FnMut(&mut Maze, &mut Rng),
    ) -> f64 {
        use std::collections::BTreeMap;
        let mut counts: BTreeMap<Vec<u64>, (u64, u64)> = BTreeMap::new();
        for seed in 0..runs {
            let mut m = base.clone();
            a(&mut m, &mut Rng::from_maze_seed(seed));
            counts.entry(m.words().to_vec()).or_default().0 += 1;
            let mut m = base.clone();
            b(&mut m, &mut Rng::from_maze_seed(seed + runs));
            counts.entry(m.words().to_vec()).or_default().1 += 1;
        }
        let (mut stat, mut df, mut rare) = (0.0, 0u32, (0u64, 0u64));
        for &(x, y) in counts.values() {
            if x + y < 10 {
                rare = (rare.0 + x, rare.1 + y);
                continue;
            }
            stat += (x as f64 - y as f64).powi(2) / (x + y) as f64;
            df += 1;
        }
        if rare.0 + rare.1 > 0 {
            stat += (rare.0 as f64 - rare.1 as f64).powi(2) / (rare.0 + rare.1) as f64;
            df += 1;
        }
        crate::uniformity::stats::chi_square_p_value(stat, (df - 1) as f64)
    }

    #[cfg(feature = "cli")]
    #[test]
    fn chances_drawn_first_give_the_distribution_of_chances_drawn_at_each_turn() {
        // A 4x4 Kruskal maze with several dead ends, some side by side; 20,000 braids each way
        // (fixed streams), compared at the 0.1% level. The same test tells P = 0.5 from
        // P = 0.6, so it is not blind.
        let base = perfect(&Algorithm::Kruskal, Size::planar(4, 4), 3);
        assert!(brute_dead_ends(&base).len() >= 4);
        let mut s = Scratch::new();
        let half = Chance::new(0.5);
        let p_same = same_distribution_p(
            &base,
            20_000,
            |m, r| {
                braid(m, half, r, &mut s);
            },
            |m, r| buck_at_each_turn(m, half, r),
        );
        assert!(p_same > 0.001, "p = {p_same}");
        let mut s = Scratch::new();
        let p_other = same_distribution_p(
            &base,
            20_000,
            |m, r| {
                braid(m, half, r, &mut s);
            },
            |m, r| buck_at_each_turn(m, Chance::new(0.6), r),
        );
        assert!(p_other < 0.001, "p = {p_other}");
    }
}
