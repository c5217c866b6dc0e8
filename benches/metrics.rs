//! Measurement throughput: `metrics::measure` on pre-generated mazes (one core), written so the
//! same file builds against any commit (it only uses `metrics::measure`, `Ends::corners` and
//! generation), which is how before/after ratios are taken: copy this file into a worktree of
//! the old commit, build both, run them interleaved.
//!
//! Run: `cargo bench --bench metrics` (all sizes), or with a filter such as
//! `cargo bench --bench metrics -- 64x64`. It prints one line per (size, generator): the median
//! over rounds of the mean ns per `measure()` call in a round, plus the quartiles.
//!
//! Environment: `METRICS_BENCH_ROUNDS` (default 31) rounds; `METRICS_BENCH_MS` (default 20)
//! target milliseconds per round. With `METRICS_BENCH_ROUNDS=1 METRICS_BENCH_MS=0` every maze is
//! measured exactly once, which is the mode for `valgrind --tool=callgrind
//! --toggle-collect='*metrics*measure*'` instruction counts.
//!
//! Then a criterion group, `braid/64x64/wilson`: `measure` on 200 perfect 64×64 Wilson mazes
//! (`perfect`) against the same mazes braided (`0.1`, `0.5`, `1`), one maze per iteration in
//! turn, so the ratio of the medians is what braiding costs the metrics (the graph pass with
//! the exact diameter). Filter it alone with `cargo bench --bench metrics -- braid`; this
//! group needs `batchgen::braid` (commits since `--braid`).

use std::hint::black_box;
use std::time::Instant;

use batchgen::generate::{self, Scratch};
use batchgen::{braid, metrics, rng, Algorithm, Chance, Ends, Maze, Rng, Size};
use criterion::{BenchmarkId, Criterion};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let mut c = Criterion::default().configure_from_args();
    braided(&mut c);
    c.final_summary();
    let rounds = env("METRICS_BENCH_ROUNDS", 31).max(1);
    let target_ns = env("METRICS_BENCH_MS", 20) * 1_000_000;
    for (w, h) in [(20u32, 20u32), (64, 64), (256, 256)] {
        for algo in ["backtracker", "kruskal", "wilson"] {
            let name = format!("measure/{w}x{h}/{algo}");
            if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
                continue;
            }
            let a = Algorithm::parse(algo).unwrap();
            // About a million cells of mazes (at least 8), so every size sees many shapes.
            let count = ((1u64 << 20) / (w * h) as u64).max(8);
            let mut scratch = Scratch::new();
            let mazes: Vec<Maze> = (0..count)
                .map(|i| {
                    let mut m = Maze::new(w, h);
                    // The seeding spelled out (not `generate::regenerate`, which older
                    // commits lack), so this file builds against any commit.
                    let mut r = Rng::from_maze_seed(rng::maze_seed(3, algo, w, h, i));
                    a.generate(&mut m, &mut scratch, &mut r);
                    m
                })
                .collect();
            let mut ms = metrics::Scratch::new();
            let ends = Ends::corners(w, h);
            // Warm up (buffers grow) and find how many passes fill a round.
            let t = Instant::now();
            for m in &mazes {
                black_box(metrics::measure(black_box(m), ends, &mut ms));
            }
            let once = t.elapsed().as_nanos().max(1) as u64;
            let passes = (target_ns / once).max(1);
            let mut per_maze: Vec<f64> = (0..rounds)
                .map(|_| {
                    let t = Instant::now();
                    for _ in 0..passes {
                        for m in &mazes {
                            black_box(metrics::measure(black_box(m), ends, &mut ms));
                        }
                    }
                    t.elapsed().as_nanos() as f64 / (passes * count) as f64
                })
                .collect();
            per_maze.sort_by(|x, y| x.partial_cmp(y).unwrap());
            let q = |f: f64| per_maze[((per_maze.len() - 1) as f64 * f).round() as usize];
            println!(
                "{name:<28} median_ns={:>10.1} q1={:.1} q3={:.1} ns_per_cell={:.2}",
                q(0.5),
                q(0.25),
                q(0.75),
                q(0.5) / (w * h) as f64
            );
        }
    }
}

/// `measure` on perfect 64×64 Wilson mazes against the same mazes braided.
fn braided(c: &mut Criterion) {
    let size = Size::planar(64, 64);
    let ends = Ends::first_last(size);
    let a = Algorithm::Wilson;
    let base = generate::seed_base(&a, size, 3);
    let mut gs = Scratch::new();
    let perfect: Vec<(Maze, u64)> = (0..200)
        .map(|i| {
            let seed = rng::maze_seed_from_base(base, i);
            let mut m = Maze::with_size(size);
            generate::generate_seeded(&a, &mut m, &mut gs, seed);
            (m, seed)
        })
        .collect();
    let mut g = c.benchmark_group("braid/64x64/wilson");
    let mut bs = braid::Scratch::new();
    for p in [None, Some(0.1), Some(0.5), Some(1.0)] {
        let mazes: Vec<Maze> = perfect
            .iter()
            .map(|(m, seed)| {
                let mut m = m.clone();
                if let Some(p) = p {
                    braid::braid_seeded(&mut m, Chance::new(p), *seed, &mut bs);
                }
                m
            })
            .collect();
        let label = p.map_or("perfect".to_string(), |p| p.to_string());
        let mut ms = metrics::Scratch::new();
        let mut i = 0;
        g.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter(|| {
                i = (i + 1) % mazes.len();
                black_box(metrics::measure(black_box(&mazes[i]), ends, &mut ms))
            })
        });
    }
    g.finish();
}
