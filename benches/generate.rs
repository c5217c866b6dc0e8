//! Generation throughput per generator at 20×20 and 64×64 (one core), every 3D-capable generator
//! at 16×16×16 (the same 4096 cells as 64×64), plus the wall-bit storage micro-benchmark that
//! justifies `Vec<u64>` over `bitvec::BitVec` in `grid.rs`.
//!
//! Run: `cargo bench --bench generate` (add `-- --quick` for a short run).

use std::hint::black_box;

use batchgen::generate::{regenerate_from_base, Scratch};
use batchgen::grid::Size;
use batchgen::{rng, Algorithm, Maze, Rng};
use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};

/// Mazes `0, 1, 2, …` of `algo` at `size`, seeded as the batch seeds them.
fn bench_one(g: &mut BenchmarkGroup<'_, WallTime>, algo: Algorithm, size: Size) {
    let name = algo.name();
    let base = rng::maze_seed_base_sized(1, &name, size);
    let mut maze = Maze::with_size(size);
    let mut scratch = Scratch::new();
    let mut i = 0u64;
    g.bench_function(BenchmarkId::from_parameter(&name), |b| {
        b.iter(|| {
            regenerate_from_base(&algo, &mut maze, &mut scratch, base, i);
            i += 1;
            black_box(maze.words()[0])
        })
    });
}

fn generators(c: &mut Criterion) {
    for (w, h) in [(20u32, 20u32), (64, 64)] {
        let mut g = c.benchmark_group(format!("generate/{w}x{h}"));
        g.throughput(Throughput::Elements(1));
        for algo in Algorithm::all() {
            bench_one(&mut g, algo, Size::planar(w, h));
        }
        g.finish();
    }
}

/// The 3D paths at 16×16×16 (4096 cells, comparable with 64×64).
fn generators_3d(c: &mut Criterion) {
    let size = Size::new(16, 16, 16);
    let mut g = c.benchmark_group(format!("generate/{size}"));
    g.throughput(Throughput::Elements(1));
    for algo in Algorithm::all_3d() {
        bench_one(&mut g, algo, size);
    }
    g.finish();
}

/// Set and test random wall bits of a 64×64 maze: plain `u64` words against `bitvec::BitVec`.
fn wall_bits(c: &mut Criterion) {
    use bitvec::prelude::*;
    let bits = 2 * 64 * 64;
    let mut r = Rng::from_maze_seed(9);
    let idx: Vec<u32> = (0..4096).map(|_| r.below(bits as u32)).collect();
    let mut g = c.benchmark_group("wall_bits/64x64");
    g.throughput(Throughput::Elements(idx.len() as u64));
    let mut words = vec![0u64; bits / 64];
    g.bench_function("vec_u64", |b| {
        b.iter(|| {
            words.fill(0);
            let mut n = 0u32;
            for &i in &idx {
                words[(i >> 6) as usize] |= 1 << (i & 63);
                n += (words[((i ^ 1) >> 6) as usize] >> ((i ^ 1) & 63)) as u32 & 1;
            }
            black_box(n)
        })
    });
    let mut bv: BitVec<u64, Lsb0> = BitVec::repeat(false, bits);
    g.bench_function("bitvec", |b| {
        b.iter(|| {
            bv.fill(false);
            let mut n = 0u32;
            for &i in &idx {
                bv.set(i as usize, true);
                n += bv[(i ^ 1) as usize] as u32;
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, generators, generators_3d, wall_bits);
criterion_main!(benches);
