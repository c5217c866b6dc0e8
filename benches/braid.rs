//! The braid pass against generation at 64×64 (one core): for the backtracker and Wilson,
//! `generate` makes maze `0, 1, 2, …` as the batch does, and `generate+braid P` makes the same
//! mazes and braids each with chance `P` (0.5 and 1) from its braid stream. The braid pass
//! costs the difference of the two medians; its share of generation is that difference over
//! `generate`.
//!
//! Run: `cargo bench --bench braid` (add `-- --quick` for a short run).

use std::hint::black_box;

use batchgen::generate::{regenerate_from_base, Scratch};
use batchgen::grid::Size;
use batchgen::{braid, rng, Algorithm, Chance, Maze};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

fn pass(c: &mut Criterion) {
    let size = Size::planar(64, 64);
    for algo in [Algorithm::Backtracker, Algorithm::Wilson] {
        let name = algo.name();
        let base = rng::maze_seed_base_sized(1, &name, size);
        let mut g = c.benchmark_group(format!("braid_pass/64x64/{name}"));
        for p in [None, Some(0.5), Some(1.0)] {
            let mut maze = Maze::with_size(size);
            let mut scratch = Scratch::new();
            let mut bs = braid::Scratch::new();
            let mut i = 0u64;
            let label = p.map_or("generate".to_string(), |p| format!("generate+braid {p}"));
            g.bench_function(BenchmarkId::from_parameter(label), |b| {
                b.iter(|| {
                    let seed = regenerate_from_base(&algo, &mut maze, &mut scratch, base, i);
                    i += 1;
                    if let Some(p) = p {
                        braid::braid_seeded(&mut maze, Chance::new(p), seed, &mut bs);
                    }
                    black_box(maze.words()[0])
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, pass);
criterion_main!(benches);
