//! What braiding costs, per maze, on one core: the braid pass against the generator that made
//! the maze, and `metrics::measure` on the braided maze (the graph pass: BFS, path counts and
//! the exact iFUB diameter) against the same call on the perfect maze under it.
//!
//! Run: `cargo bench --bench braid` (or with a filter such as `-- wilson`). One line per
//! (generator, P) at 64×64: median over rounds of the mean ns per maze of generation, of the
//! braid pass and of measuring the perfect and the braided maze, and the two ratios
//! (braid / generation, braided / perfect measure).
//!
//! Environment: `BRAID_BENCH_ROUNDS` (default 15) rounds over `BRAID_BENCH_MAZES` (default 400)
//! mazes.

use std::hint::black_box;
use std::time::Instant;

use batchgen::braid;
use batchgen::generate::{self, Scratch};
use batchgen::{metrics, rng, Algorithm, Chance, Ends, Maze, Size};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The median over `rounds` of the mean ns per call of `f` over `n` items.
fn time(rounds: u64, n: usize, mut f: impl FnMut(usize)) -> f64 {
    let per_round = (0..rounds).map(|_| {
        let t = Instant::now();
        for i in 0..n {
            f(i);
        }
        t.elapsed().as_nanos() as f64 / n as f64
    });
    median(per_round.collect())
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let rounds = env("BRAID_BENCH_ROUNDS", 15).max(1);
    let n = env("BRAID_BENCH_MAZES", 400).max(1) as usize;
    let size = Size::planar(64, 64);
    let ends = Ends::first_last(size);
    println!("64x64, {n} mazes, median of {rounds} rounds, ns per maze");
    println!(
        "{:<22} {:>5} {:>10} {:>9} {:>8} {:>10} {:>10} {:>8}",
        "generator", "P", "generate", "braid", "ratio", "measure", "braided", "ratio"
    );
    for algo in [
        "backtracker",
        "kruskal",
        "wilson",
        "prim",
        "eller",
        "binary-tree",
    ] {
        for p in [0.1, 0.5, 1.0] {
            let name = format!("{algo}/{p}");
            if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
                continue;
            }
            let a = Algorithm::parse(algo).unwrap();
            let base = generate::seed_base(&a, size, 3);
            let seeds: Vec<u64> = (0..n as u64)
                .map(|i| rng::maze_seed_from_base(base, i))
                .collect();
            let mut gs = Scratch::new();
            let mut m = Maze::with_size(size);
            let gen = time(rounds, n, |i| {
                generate::generate_seeded(&a, &mut m, &mut gs, seeds[i]);
                black_box(&m);
            });
            let perfect: Vec<Maze> = seeds
                .iter()
                .map(|&s| {
                    let mut m = Maze::with_size(size);
                    generate::generate_seeded(&a, &mut m, &mut gs, s);
                    m
                })
                .collect();
            let chance = Chance::new(p);
            let mut bs = braid::Scratch::new();
            let mut work = perfect.clone();
            let pass = time(rounds, n, |i| {
                work[i].clone_from(&perfect[i]);
                black_box(braid::braid_seeded(&mut work[i], chance, seeds[i], &mut bs));
            });
            // The copy back is part of the timed loop: time it alone and take it off.
            let copy = time(rounds, n, |i| {
                work[i].clone_from(&perfect[i]);
                black_box(&work[i]);
            });
            let pass = (pass - copy).max(0.0);
            let braided = work;
            let mut ms = metrics::Scratch::new();
            let tree = time(rounds, n, |i| {
                black_box(metrics::measure(&perfect[i], ends, &mut ms));
            });
            let graph = time(rounds, n, |i| {
                black_box(metrics::measure(&braided[i], ends, &mut ms));
            });
            println!(
                "{:<22} {:>5} {:>10.0} {:>9.0} {:>8.3} {:>10.0} {:>10.0} {:>8.3}",
                algo,
                p,
                gen,
                pass,
                pass / gen,
                tree,
                graph,
                graph / tree
            );
        }
    }
}
