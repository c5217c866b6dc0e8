//! Masked generation against unmasked, per cell, for every mask-capable generator: mazes on a
//! disc of 4,053 cells inside a 72×72 grid against mazes on the full 64×64 grid (4,096 cells).
//! Throughput is in cells, so criterion's elements/s compare the two directly (the target is
//! masked within 1.3× of unmasked per cell).
//!
//! Run: `cargo bench --bench masks` (add `-- --quick` for a short run).

use std::hint::black_box;
use std::sync::Arc;

use batchgen::generate::{regenerate_from_base, seed_base_masked, Scratch};
use batchgen::grid::{Mask, Size};
use batchgen::{Algorithm, Maze};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// A disc of radius 36 centred in a 72×72 grid.
fn disc() -> Mask {
    let r = 36.0f64;
    Mask::from_fn(72, 72, |x, y| {
        let (dx, dy) = (x as f64 + 0.5 - r, y as f64 + 0.5 - r);
        dx * dx + dy * dy <= r * r
    })
    .expect("a disc is connected")
}

fn masks(c: &mut Criterion) {
    let disc = Arc::new(disc());
    let full = Size::planar(64, 64);
    for algo in Algorithm::all().into_iter().filter(|a| a.supports_mask()) {
        let mut g = c.benchmark_group(format!("mask/{}", algo.name()));
        for (label, mask) in [("64x64", None), ("disc72", Some(disc.clone()))] {
            let size = mask.as_ref().map_or(full, |m| m.size());
            let cells = mask.as_ref().map_or(full.cells(), |m| m.cells());
            g.throughput(Throughput::Elements(cells as u64));
            let base = seed_base_masked(&algo, size, mask.as_deref(), 1);
            let mut maze = Maze::with_size(size);
            maze.set_mask(mask);
            let mut scratch = Scratch::new();
            let mut i = 0u64;
            g.bench_function(BenchmarkId::from_parameter(label), |b| {
                b.iter(|| {
                    regenerate_from_base(&algo, &mut maze, &mut scratch, base, i);
                    i += 1;
                    black_box(maze.words()[0])
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, masks);
criterion_main!(benches);
