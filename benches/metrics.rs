//! Measurement throughput: `metrics::measure` on pre-generated mazes (one core).
//!
//! Run: `cargo bench --bench metrics`.

use std::hint::black_box;

use batchgen::generate::Scratch;
use batchgen::{metrics, rng, Algorithm, Ends, Maze, Rng};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn measure(c: &mut Criterion) {
    for (w, h) in [(20u32, 20u32), (64, 64)] {
        let mut g = c.benchmark_group(format!("measure/{w}x{h}"));
        g.throughput(Throughput::Elements(1));
        for algo in [Algorithm::Backtracker, Algorithm::Kruskal] {
            let mut scratch = Scratch::new();
            let mazes: Vec<Maze> = (0..64)
                .map(|i| {
                    let mut m = Maze::new(w, h);
                    let mut r = Rng::from_maze_seed(rng::maze_seed(3, &algo.name(), w, h, i));
                    algo.generate(&mut m, &mut scratch, &mut r);
                    m
                })
                .collect();
            let mut ms = metrics::Scratch::new();
            let mut k = 0;
            g.bench_function(BenchmarkId::from_parameter(algo.name()), |b| {
                b.iter(|| {
                    k = (k + 1) % mazes.len();
                    black_box(metrics::measure(&mazes[k], Ends::corners(w, h), &mut ms))
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, measure);
criterion_main!(benches);
