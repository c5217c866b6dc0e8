//! Per-core generation throughput at 64×64: batchgen next to knossos 1.2 on every algorithm both
//! have, measured in the same run, plus batchgen's generators knossos lacks.
//!
//! Run: `cargo bench --manifest-path benches/knossos/Cargo.toml -- --warm-up-time 1
//! --measurement-time 3`. It is a crate of its own so that knossos (which pulls in `image` and
//! an AV1 encoder) is not built by `cargo test` of batchgen.
//! Bench ids are `gen64/<batchgen name>/{batchgen,knossos}`; compare the medians.
//!
//! What is timed, per maze. batchgen: re-seed the per-maze RNG (as the batch does) and generate
//! into a reused maze and scratch. knossos: its public API, `OrthogonalMazeBuilder` with a seed,
//! which allocates the grid and boxes the algorithm for every maze; its grid type is private, so
//! there is no way to reuse one. Algorithm pairs: backtracker ↔ `RecursiveBacktracking`,
//! kruskal ↔ `Kruskal`, prim ↔ `Prim` (knossos picks a random frontier *cell*, batchgen a random
//! frontier *wall*), aldous-broder ↔ `AldousBroder`, growing-tree:mix:0.5 ↔
//! `GrowingTree(Newest50Random50)`, hunt-and-kill ↔ `HuntAndKill`, eller ↔ `Eller`,
//! sidewinder ↔ `Sidewinder`, binary-tree ↔ `BinaryTree(NorthEast)`, recursive-division ↔
//! `RecursiveDivision`.

use std::hint::black_box;

use batchgen::generate::{regenerate_from_base, Scratch};
use batchgen::{rng, Algorithm, Maze};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use knossos::maze::{self as km, OrthogonalMazeBuilder};

const W: u32 = 64;
const H: u32 = 64;

/// The knossos counterpart of a batchgen algorithm, if knossos has one.
fn knossos_algorithm(a: &Algorithm) -> Option<Box<dyn km::Algorithm>> {
    Some(match a {
        Algorithm::Backtracker => Box::new(km::RecursiveBacktracking),
        Algorithm::Kruskal => Box::new(km::Kruskal),
        Algorithm::Prim => Box::new(km::Prim::new()),
        Algorithm::AldousBroder => Box::new(km::AldousBroder),
        Algorithm::GrowingTree(_) => Box::new(km::GrowingTree::new(km::Method::Newest50Random50)),
        Algorithm::HuntAndKill => Box::new(km::HuntAndKill::new()),
        Algorithm::Eller => Box::new(km::Eller),
        Algorithm::Sidewinder => Box::new(km::Sidewinder),
        Algorithm::BinaryTree => Box::new(km::BinaryTree::new(km::Bias::NorthEast)),
        Algorithm::RecursiveDivision => Box::new(km::RecursiveDivision),
        _ => return None,
    })
}

fn compare(c: &mut Criterion) {
    let mut g = c.benchmark_group("gen64");
    g.throughput(Throughput::Elements(1));
    for algo in Algorithm::all() {
        let name = algo.name();
        let base = rng::maze_seed_base(1, &name, W, H);
        let mut maze = Maze::new(W, H);
        let mut scratch = Scratch::new();
        let mut i = 0u64;
        g.bench_function(BenchmarkId::new(&name, "batchgen"), |b| {
            b.iter(|| {
                regenerate_from_base(&algo, &mut maze, &mut scratch, base, i);
                i += 1;
                black_box(maze.words()[0])
            })
        });
        if knossos_algorithm(&algo).is_some() {
            let mut seed = 0u64;
            g.bench_function(BenchmarkId::new(&name, "knossos"), |b| {
                b.iter(|| {
                    seed += 1;
                    let m = OrthogonalMazeBuilder::new()
                        .width(W as usize)
                        .height(H as usize)
                        .algorithm(knossos_algorithm(&algo).unwrap())
                        .seed(Some(seed))
                        .build();
                    black_box(m)
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, compare);
criterion_main!(benches);
