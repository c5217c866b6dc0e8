//! The braid pass against generation at 64×64 (one core), for the backtracker and Wilson:
//! `generate` makes maze `0, 1, 2, …` as the batch does; `braid P` (P = 0.5 and 1) braids 200
//! of those mazes in turn, each restored from its perfect copy first (`Maze::clone_from`, a
//! copy of 1 KiB of walls), and `copy` is that restore alone. The braid pass costs `braid P`
//! minus `copy`; its share of generation is that over `generate`.
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
        let mut maze = Maze::with_size(size);
        let mut scratch = Scratch::new();
        let mut i = 0u64;
        g.bench_function(BenchmarkId::from_parameter("generate"), |b| {
            b.iter(|| {
                regenerate_from_base(&algo, &mut maze, &mut scratch, base, i);
                i += 1;
                black_box(maze.words()[0])
            })
        });
        let perfect: Vec<(Maze, u64)> = (0..200)
            .map(|i| {
                let seed = regenerate_from_base(&algo, &mut maze, &mut scratch, base, i);
                (maze.clone(), seed)
            })
            .collect();
        for p in [None, Some(0.5), Some(1.0)] {
            let mut bs = braid::Scratch::new();
            let mut k = 0;
            let label = p.map_or("copy".to_string(), |p| format!("braid {p}"));
            g.bench_function(BenchmarkId::from_parameter(label), |b| {
                b.iter(|| {
                    k = (k + 1) % perfect.len();
                    let (m, seed) = &perfect[k];
                    maze.clone_from(m);
                    if let Some(p) = p {
                        braid::braid_seeded(&mut maze, Chance::new(p), *seed, &mut bs);
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
