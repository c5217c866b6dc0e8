//! Masked generation against unmasked, per cell, for every mask-capable generator (the target:
//! masked within 1.3× of unmasked per cell). Three masks, each against an unmasked grid:
//!
//! - `disc72`: a disc of 4,060 cells inside a 72×72 grid, against the full 64×64 grid (4,096
//!   cells);
//! - `holes64`: the 64×64 grid with a room cut out of every 8×8 tile (2 to 5 cells a side, at
//!   a fixed pseudo-random place inside the tile, so the tiles' borders keep it connected;
//!   3,237 cells), against the full 64×64 grid;
//! - `rooms`: `data/masks/rooms.txt` (230 cells in a 26×14 grid), against the full 23×10 grid
//!   (230 cells).
//!
//! Per cell means per cell of the maze: the mask's cells, not width × height. Each round times
//! a batch of masked mazes and a batch of unmasked ones in turn, by the thread's CPU clock (so
//! other processes on a shared machine slow neither side); the ratio quoted is the median of
//! the rounds' ratios, which holds when the machine's speed drifts. Beside the times the bench
//! counts the random draws a maze takes per cell (mean over 200 mazes): a random walk's length
//! is set by the shape (Wilson's expected walk is the mean commute time between its root and a
//! random cell, Aldous–Broder's the cover time), so the ratio per draw separates what the mask
//! costs the code from what the shape costs the walk.
//!
//! Run: `cargo bench --bench masks` (a filter such as `wilson` selects generators; environment:
//! `METRICS_BENCH_ROUNDS`, default 31, and `METRICS_BENCH_MS`, default 20, milliseconds per
//! side and round).

#[allow(dead_code)] // the shared helpers this bench does not call (the median wall-clock timer)
mod common;

use std::hint::black_box;
use std::sync::Arc;

use batchgen::generate::{regenerate_from_base, seed_base_masked, Scratch};
use batchgen::grid::{Mask, Size};
use batchgen::rng::{RandomSource, Rng};
use batchgen::{Algorithm, Maze};

/// A disc of radius 36 centred in a 72×72 grid.
fn disc() -> Mask {
    let r = 36.0f64;
    Mask::from_fn(72, 72, |x, y| {
        let (dx, dy) = (x as f64 + 0.5 - r, y as f64 + 0.5 - r);
        dx * dx + dy * dy <= r * r
    })
    .expect("a disc is connected")
}

/// The 64×64 grid with a room cut out of every 8×8 tile: a rectangle of 2 to 5 cells a side at
/// an offset inside the tile's inner 6×6, both from a fixed hash of the tile, so the tiles'
/// outer rows and columns stay cells and keep the mask connected.
fn holes() -> Mask {
    let hash = |t: u32, k: u32| {
        let mut z = (t as u64) << 8 | k as u64;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as u32
    };
    Mask::from_fn(64, 64, |x, y| {
        let t = (y / 8) * 8 + x / 8;
        let (hw, hh) = (2 + hash(t, 0) % 4, 2 + hash(t, 1) % 4);
        let (ox, oy) = (1 + hash(t, 2) % (7 - hw), 1 + hash(t, 3) % (7 - hh));
        let (lx, ly) = (x % 8, y % 8);
        !(lx >= ox && lx < ox + hw && ly >= oy && ly < oy + hh)
    })
    .expect("the tile borders connect every cell")
}

/// `data/masks/rooms.txt`.
fn rooms() -> Mask {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/masks/rooms.txt");
    Mask::from_text(&std::fs::read_to_string(path).expect("data/masks/rooms.txt"))
        .expect("rooms.txt is a mask")
}

/// A random source that counts its draws: every call of the three primitive draws (the other
/// methods are the trait's defaults, which draw through them).
struct Counting {
    rng: Rng,
    draws: u64,
}

// SAFETY: every draw is `Rng`'s, in range.
unsafe impl RandomSource for Counting {
    fn below(&mut self, n: u32) -> u32 {
        self.draws += 1;
        self.rng.below(n)
    }
    fn bits(&mut self, k: u32) -> u32 {
        self.draws += 1;
        RandomSource::bits(&mut self.rng, k)
    }
    fn unit_f64(&mut self) -> f64 {
        self.draws += 1;
        self.rng.unit_f64()
    }
}

/// One side of a comparison: a generator on a grid, with or without a mask.
struct Side {
    maze: Maze,
    scratch: Scratch,
    base: u64,
    next: u64,
    cells: u32,
}

impl Side {
    fn new(algo: &Algorithm, size: Size, mask: Option<Arc<Mask>>) -> Side {
        let cells = mask.as_ref().map_or(size.cells(), |m| m.cells());
        let base = seed_base_masked(algo, size, mask.as_deref(), 1);
        let mut maze = Maze::with_size(size);
        maze.set_mask(mask);
        Side {
            maze,
            scratch: Scratch::new(),
            base,
            next: 0,
            cells,
        }
    }

    /// Generate `count` mazes; the thread CPU nanoseconds they took.
    fn run(&mut self, algo: &Algorithm, count: u64) -> u64 {
        let t = cpu_ns();
        for _ in 0..count {
            regenerate_from_base(
                algo,
                &mut self.maze,
                &mut self.scratch,
                self.base,
                self.next,
            );
            self.next += 1;
            black_box(self.maze.words()[0]);
        }
        cpu_ns() - t
    }

    /// Mazes per batch for about `target_ns` of CPU time.
    fn batch(&mut self, algo: &Algorithm, target_ns: u64) -> u64 {
        let once = self.run(algo, 4).max(1) / 4;
        (target_ns / once.max(1)).max(1)
    }

    /// Mean random draws per cell over 200 mazes.
    fn draws_per_cell(&mut self, algo: &Algorithm) -> f64 {
        let mut src = Counting {
            rng: Rng::from_maze_seed(0),
            draws: 0,
        };
        for seed in 0..200 {
            src.rng = Rng::from_maze_seed(seed);
            algo.generate(&mut self.maze, &mut self.scratch, &mut src);
        }
        src.draws as f64 / 200.0 / self.cells as f64
    }
}

/// This thread's CPU time in nanoseconds.
fn cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and CLOCK_THREAD_CPUTIME_ID is a clock every
    // Linux kernel provides; the call writes only `ts`.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(r, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// The median of `v` (not empty).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[(v.len() - 1) / 2]
}

fn main() {
    let filter = common::Filter::from_args();
    let rounds = common::env("METRICS_BENCH_ROUNDS", 31).max(1);
    let target_ns = common::env("METRICS_BENCH_MS", 20) * 1_000_000;
    let (disc, holes, rooms) = (Arc::new(disc()), Arc::new(holes()), Arc::new(rooms()));
    let pairs: [(&str, Arc<Mask>, &str, Size); 3] = [
        ("disc72", disc, "64x64", Size::planar(64, 64)),
        ("holes64", holes, "64x64", Size::planar(64, 64)),
        ("rooms", rooms, "23x10", Size::planar(23, 10)),
    ];
    println!(
        "{:<22} {:<8} {:>6} {:<6} {:>6} {:>10} {:>10} {:>7} {:>9} {:>9} {:>8}",
        "generator",
        "mask",
        "cells",
        "grid",
        "cells",
        "masked_ns",
        "plain_ns",
        "ratio",
        "draws_m",
        "draws_p",
        "per_draw"
    );
    for algo in Algorithm::all().into_iter().filter(|a| a.supports_mask()) {
        for (label, mask, plain_label, plain_size) in &pairs {
            let name = format!("{}/{label}", algo.name());
            if !filter.selects(&name) {
                continue;
            }
            let size = mask.size();
            let mut m = Side::new(&algo, size, Some(mask.clone()));
            let mut p = Side::new(&algo, *plain_size, None);
            let (dm, dp) = (m.draws_per_cell(&algo), p.draws_per_cell(&algo));
            let (bm, bp) = (m.batch(&algo, target_ns), p.batch(&algo, target_ns));
            let (mut ns_m, mut ns_p, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..rounds {
                let a = m.run(&algo, bm) as f64 / (bm * m.cells as u64) as f64;
                let b = p.run(&algo, bp) as f64 / (bp * p.cells as u64) as f64;
                ns_m.push(a);
                ns_p.push(b);
                ratios.push(a / b);
            }
            let ratio = median(ratios);
            println!(
                "{:<22} {:<8} {:>6} {:<6} {:>6} {:>10.2} {:>10.2} {:>7.3} {:>9.2} {:>9.2} {:>8.3}",
                algo.name(),
                label,
                m.cells,
                plain_label,
                p.cells,
                median(ns_m),
                median(ns_p),
                ratio,
                dm,
                dp,
                ratio * dp / dm
            );
        }
    }
}
