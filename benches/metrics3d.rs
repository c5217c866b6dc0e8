//! Measurement cost in 3D against 2D at the same cell count: `metrics::measure` on random
//! spanning trees of 16×16×16 and of 64×64 (4096 cells each), built here by random Kruskal and
//! by randomized depth-first search (so the bench needs no 3D generator), timed in interleaved
//! rounds so that both sizes see the same machine load. The trees come from
//! `tests/trees/mod.rs`, shared with `tests/metrics3d.rs`.
//!
//! Run: `cargo bench --bench metrics3d`. It prints, per (maze kind, size), the median over rounds
//! of the mean ns per `measure()` call and per cell, and the 3D/2D ratio of the medians.
//!
//! Environment: `METRICS_BENCH_ROUNDS` (default 31) rounds; `METRICS_BENCH_MS` (default 20)
//! target milliseconds per size and round. With `METRICS_BENCH_ROUNDS=1 METRICS_BENCH_MS=0`
//! every maze is measured twice (warm-up and one round), the mode for callgrind instruction
//! counts (`--toggle-collect='batchgen::metrics::measure'`).

use std::hint::black_box;
use std::time::Instant;

use batchgen::grid::Size;
use batchgen::{metrics, Ends, Maze, Rng};

#[path = "../tests/trees/mod.rs"]
mod trees;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Random Kruskal without forced walls.
fn kruskal(size: Size, rng: &mut Rng) -> Maze {
    trees::kruskal(size, rng, &[])
}

fn main() {
    let rounds = env("METRICS_BENCH_ROUNDS", 31).max(1) as usize;
    let target_ns = env("METRICS_BENCH_MS", 20) * 1_000_000;
    let sizes = [Size::planar(64, 64), Size::new(16, 16, 16)];
    type Build = fn(Size, &mut Rng) -> Maze;
    for (kind, build) in [
        ("kruskal", kruskal as Build),
        ("backtracker", trees::backtracker),
    ] {
        let sets: Vec<Vec<Maze>> = sizes
            .iter()
            .map(|&size| {
                let mut rng = Rng::from_maze_seed(3);
                (0..256).map(|_| build(size, &mut rng)).collect()
            })
            .collect();
        let mut ms = metrics::Scratch::new();
        let pass = |set: &[Maze], ms: &mut metrics::Scratch| {
            for m in set {
                black_box(metrics::measure(
                    black_box(m),
                    Ends::first_last(m.size()),
                    ms,
                ));
            }
        };
        // Warm up and find how many passes fill a round, per size.
        let passes: Vec<u64> = sets
            .iter()
            .map(|set| {
                let t = Instant::now();
                pass(set, &mut ms);
                (target_ns / t.elapsed().as_nanos().max(1) as u64).max(1)
            })
            .collect();
        let mut per_maze = vec![Vec::with_capacity(rounds); sets.len()];
        for _ in 0..rounds {
            for (k, set) in sets.iter().enumerate() {
                let t = Instant::now();
                for _ in 0..passes[k] {
                    pass(set, &mut ms);
                }
                let ns = t.elapsed().as_nanos() as f64 / (passes[k] * set.len() as u64) as f64;
                per_maze[k].push(ns);
            }
        }
        let medians: Vec<f64> = per_maze
            .iter_mut()
            .map(|v| {
                v.sort_by(|x, y| x.partial_cmp(y).unwrap());
                v[v.len() / 2]
            })
            .collect();
        for (size, med) in sizes.iter().zip(&medians) {
            let name = format!("measure3d/{size}/{kind}");
            println!(
                "{name:<32} median_ns={med:>10.1} ns_per_cell={:.2}",
                med / size.cells() as f64
            );
        }
        println!(
            "{:<32} 3d_over_2d={:.3}",
            format!("measure3d/ratio/{kind}"),
            medians[1] / medians[0]
        );
    }
}
