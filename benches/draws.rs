//! What the random draws cost each generator: every generator run
//! twice over the same mazes, once drawing from [`Rng`] as the batch does and once replaying the
//! values those very calls returned, recorded beforehand.
//!
//! - `rng`: the batch's generation, the generator seeded per maze (`Rng::from_maze_seed`).
//! - `replay`: the same generator over the same mazes with a source that returns the recorded
//!   result of each call (one sequential load; the next value's address never depends on the
//!   maze, so it is ready before the walk needs it). The control flow, the memory traffic and
//!   the maze are those of `rng` (the maze hashes are asserted equal); producing the numbers is
//!   gone, and so is any dependency of a result on the call's arguments (the bound of a draw,
//!   the open directions of a biased step), which in `rng` sits on the walk's dependency chain.
//!
//! So `replay` is what the generator would cost with free randomness, and `rng − replay` is an
//! upper bound on what any change to the draws (cheaper bounded draws, fewer bits per draw, a
//! different generator) could save. A generator whose `replay` alone is above a target cannot
//! reach it by drawing differently.
//!
//! Run: `cargo bench --bench draws` (optionally filters such as `64x64` or `backtracker`).
//! Environment as in `benches/metrics.rs`: `METRICS_BENCH_ROUNDS` (default 31),
//! `METRICS_BENCH_MS` (default 20).

mod common;

use std::hint::black_box;

use batchgen::generate::Scratch;
use batchgen::{rng, Algorithm, Chance, Maze, RandomSource, Rng};

/// [`Rng`] with every call's result appended to a log (as a `u64`).
struct Recorder<'a> {
    inner: Rng,
    log: &'a mut Vec<u64>,
}

impl Recorder<'_> {
    fn keep<T: Copy + Into<u64>>(&mut self, v: T) -> T {
        self.log.push(v.into());
        v
    }
}

/// Every method of the trait forwards to [`Rng`]'s own (never to a default built on other
/// methods), so each call of the generator is one log entry.
// SAFETY: every draw is `Rng`'s, in range.
unsafe impl RandomSource for Recorder<'_> {
    fn below(&mut self, n: u32) -> u32 {
        let v = RandomSource::below(&mut self.inner, n);
        self.keep(v)
    }
    fn bits(&mut self, k: u32) -> u32 {
        let v = RandomSource::bits(&mut self.inner, k);
        self.keep(v)
    }
    fn unit_f64(&mut self) -> f64 {
        let v = RandomSource::unit_f64(&mut self.inner);
        self.keep(v.to_bits());
        v
    }
    fn unit_below(&mut self, chance: Chance) -> bool {
        let v = self.inner.unit_below(chance);
        self.keep(v)
    }
    fn dir4(&mut self) -> u32 {
        let v = RandomSource::dir4(&mut self.inner);
        self.keep(v)
    }
    fn coin(&mut self) -> bool {
        let v = RandomSource::coin(&mut self.inner);
        self.keep(v)
    }
    fn coin_if(&mut self, flip: bool) -> bool {
        let v = self.inner.coin_if(flip);
        self.keep(v)
    }
    fn coins(&mut self, k: u32) -> u64 {
        let v = RandomSource::coins(&mut self.inner, k);
        self.keep(v)
    }
    fn tails_before_head(&mut self, max: u32) -> u32 {
        let v = RandomSource::tails_before_head(&mut self.inner, max);
        self.keep(v)
    }
    fn choose(&mut self, n: u32) -> u32 {
        let v = self.inner.choose(n);
        self.keep(v)
    }
    fn below_or_zero(&mut self, n: u32) -> u32 {
        let v = self.inner.below_or_zero(n);
        self.keep(v)
    }
    fn dir4_x32(&mut self) -> u64 {
        let v = RandomSource::dir4_x32(&mut self.inner);
        self.keep(v)
    }
    fn dir4_unless(&mut self, prefer: bool, keep: u32, valid: u32) -> u32 {
        let v = self.inner.dir4_unless(prefer, keep, valid);
        self.keep(v)
    }
    fn turn_unless(&mut self, prefer: bool, l: u32, r: u32, valid: u32) -> u32 {
        let v = self.inner.turn_unless(prefer, l, r, valid);
        self.keep(v)
    }
    fn dir6_unless(&mut self, prefer: bool, keep: u32, valid: u32) -> u32 {
        let v = self.inner.dir6_unless(prefer, keep, valid);
        self.keep(v)
    }
}

/// Returns a [`Recorder`]'s log, one entry per call, whatever the call.
struct Replay<'a> {
    log: &'a [u64],
    at: usize,
}

impl Replay<'_> {
    #[inline(always)]
    fn next(&mut self) -> u64 {
        let v = self.log[self.at];
        self.at += 1;
        v
    }
}

// SAFETY: a replay runs the recording's generator on the same mazes (their hashes are asserted
// equal), so each call is the recorded call and gets the value `Rng` returned to it, in range.
unsafe impl RandomSource for Replay<'_> {
    #[inline(always)]
    fn below(&mut self, _: u32) -> u32 {
        self.next() as u32
    }
    #[inline(always)]
    fn bits(&mut self, _: u32) -> u32 {
        self.next() as u32
    }
    #[inline(always)]
    fn unit_f64(&mut self) -> f64 {
        f64::from_bits(self.next())
    }
    #[inline(always)]
    fn unit_below(&mut self, _: Chance) -> bool {
        self.next() != 0
    }
    #[inline(always)]
    fn dir4(&mut self) -> u32 {
        self.next() as u32
    }
    #[inline(always)]
    fn coin(&mut self) -> bool {
        self.next() != 0
    }
    #[inline(always)]
    fn coin_if(&mut self, _: bool) -> bool {
        self.next() != 0
    }
    #[inline(always)]
    fn coins(&mut self, _: u32) -> u64 {
        self.next()
    }
    #[inline(always)]
    fn tails_before_head(&mut self, _: u32) -> u32 {
        self.next() as u32
    }
    #[inline(always)]
    fn choose(&mut self, _: u32) -> u32 {
        self.next() as u32
    }
    #[inline(always)]
    fn below_or_zero(&mut self, _: u32) -> u32 {
        self.next() as u32
    }
    #[inline(always)]
    fn dir4_x32(&mut self) -> u64 {
        self.next()
    }
    #[inline(always)]
    fn dir4_unless(&mut self, _: bool, _: u32, _: u32) -> u32 {
        self.next() as u32
    }
    #[inline(always)]
    fn turn_unless(&mut self, _: bool, _: u32, _: u32, _: u32) -> u32 {
        self.next() as u32
    }
    #[inline(always)]
    fn dir6_unless(&mut self, _: bool, _: u32, _: u32) -> u32 {
        self.next() as u32
    }
}

fn main() {
    let filter = common::Filter::from_args();
    for (w, h) in [(20u32, 20u32), (64, 64)] {
        for algo in Algorithm::all() {
            let label = algo.name();
            let name = format!("{w}x{h}/{label}");
            if !filter.selects(&name) {
                continue;
            }
            // About a quarter of a million cells per row, seeded as the batch seeds them.
            let count = ((1usize << 18) / (w * h) as usize).max(8);
            let base = rng::maze_seed_base(1, &label, w, h);
            let seeds: Vec<u64> = (0..count as u64)
                .map(|i| rng::maze_seed_from_base(base, i))
                .collect();
            let mut maze = Maze::new(w, h);
            let mut scratch = Scratch::new();
            // Record each maze's calls, and check that replaying them gives the same maze.
            let mut logs: Vec<Vec<u64>> = Vec::with_capacity(count);
            for &seed in &seeds {
                let mut log = Vec::new();
                let mut rec = Recorder {
                    inner: Rng::from_maze_seed(seed),
                    log: &mut log,
                };
                algo.generate(&mut maze, &mut scratch, &mut rec);
                let want = maze.hash();
                let mut rep = Replay { log: &log, at: 0 };
                algo.generate(&mut maze, &mut scratch, &mut rep);
                assert_eq!(maze.hash(), want, "{name}: replay gave another maze");
                assert_eq!(rep.at, log.len(), "{name}: replay left calls unused");
                logs.push(log);
            }
            let calls = logs.iter().map(Vec::len).sum::<usize>() as f64 / count as f64;
            let cells = (w * h) as f64;
            let drawn = common::median_ns_per_item(count, &mut |i| {
                let mut r = Rng::from_maze_seed(seeds[i]);
                algo.generate(&mut maze, &mut scratch, &mut r);
                black_box(maze.words()[0]);
            });
            let replayed = common::median_ns_per_item(count, &mut |i| {
                let mut r = Replay {
                    log: black_box(&logs[i]),
                    at: 0,
                };
                algo.generate(&mut maze, &mut scratch, &mut r);
                black_box(maze.words()[0]);
            });
            println!(
                "draws/{name:<32} rng_ns={drawn:>9.1} replay_ns={replayed:>9.1} \
                 draws_share={:>5.1}% calls_per_maze={calls:>8.0} \
                 rng_ns_per_cell={:.2} replay_ns_per_cell={:.2}",
                100.0 * (drawn - replayed) / drawn,
                drawn / cells,
                replayed / cells
            );
        }
    }
}
