//! Nanoseconds per walk step of the random-walk generators: Aldous–Broder,
//! `wilson-straight:0.5`, `wilson-turn:0.5`, and plain Wilson for comparison, at 64×64.
//!
//! Criterion times the real generator over a fixed cycle of 64 maze seeds, with the throughput
//! set to the mean number of walk steps over that cycle, so its "elem/s" is walk steps per
//! second (ns per step = 1e9 / that). The steps are counted by straightforward reference walks
//! below (coordinates, one draw per call, the draws in the same order as the generators make
//! them); each reference maze is checked equal to the generator's, so the count is the count of
//! the very walk being timed. Uses only the public API, so the file runs unchanged against older
//! commits (copy it into their `benches/` and add the `[[bench]]` entry).
//!
//! Run: `cargo bench --bench walks`.

use std::hint::black_box;

use batchgen::generate::Scratch;
use batchgen::grid::Dir;
use batchgen::{rng, Algorithm, Maze, Rng};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const SEEDS: u64 = 64;
const DX: [u32; 4] = [1, 0, u32::MAX, 0];
const DY: [u32; 4] = [0, 1, 0, u32::MAX];

/// Which neighbours of (x, y) exist, as a 4-bit set (east, south, west, north).
fn valid(w: u32, h: u32, x: u32, y: u32) -> u32 {
    (x + 1 < w) as u32 | ((y + 1 < h) as u32) << 1 | ((x > 0) as u32) << 2 | ((y > 0) as u32) << 3
}

fn uniform_dir(r: &mut Rng, valid: u32) -> u32 {
    loop {
        let d = r.dir4();
        if valid >> d & 1 != 0 {
            return d;
        }
    }
}

/// Aldous–Broder from (0,0): the maze and the number of steps the walk took.
fn aldous_broder(w: u32, h: u32, r: &mut Rng) -> (Maze, u64) {
    let mut m = Maze::new(w, h);
    let mut seen = vec![false; (w * h) as usize];
    let (mut x, mut y) = (0u32, 0u32);
    seen[0] = true;
    let (mut left, mut steps) = (w * h - 1, 0u64);
    while left > 0 {
        let d = uniform_dir(r, valid(w, h, x, y));
        let (nx, ny) = (
            x.wrapping_add(DX[d as usize]),
            y.wrapping_add(DY[d as usize]),
        );
        steps += 1;
        if !seen[(ny * w + nx) as usize] {
            seen[(ny * w + nx) as usize] = true;
            m.carve(y * w + x, Dir::from_index(d));
            left -= 1;
        }
        (x, y) = (nx, ny);
    }
    (m, steps)
}

/// Wilson (bias `None`) or biased Wilson with root (W/2, H/2) and row-major starts.
fn wilson(w: u32, h: u32, r: &mut Rng, bias: Option<(bool, f64)>) -> (Maze, u64) {
    let mut m = Maze::new(w, h);
    let n = (w * h) as usize;
    let (mut in_tree, mut next) = (vec![false; n], vec![0u8; n]);
    in_tree[((h / 2) * w + w / 2) as usize] = true;
    let mut steps = 0u64;
    for start in 0..w * h {
        let (mut x, mut y, mut prev) = (start % w, start / w, 4u32);
        while !in_tree[(y * w + x) as usize] {
            let v = valid(w, h, x, y);
            let d = match bias {
                _ if prev == 4 => uniform_dir(r, v),
                None => uniform_dir(r, v),
                Some((true, p)) => {
                    if v >> prev & 1 != 0 && r.unit_f64() < p {
                        prev
                    } else {
                        uniform_dir(r, v)
                    }
                }
                Some((false, p)) => {
                    let (l, rt) = ((prev + 1) & 3, (prev + 3) & 3);
                    let turns = v & (1 << l | 1 << rt);
                    if turns != 0 && r.unit_f64() < p {
                        if turns == (1 << l | 1 << rt) {
                            if r.coin() {
                                l
                            } else {
                                rt
                            }
                        } else {
                            turns.trailing_zeros()
                        }
                    } else {
                        uniform_dir(r, v)
                    }
                }
            };
            next[(y * w + x) as usize] = d as u8;
            (x, y, prev) = (
                x.wrapping_add(DX[d as usize]),
                y.wrapping_add(DY[d as usize]),
                d,
            );
            steps += 1;
        }
        let mut c = start;
        while !in_tree[c as usize] {
            in_tree[c as usize] = true;
            let d = Dir::from_index(next[c as usize] as u32);
            m.carve(c, d);
            c = m.neighbour(c, d);
        }
    }
    (m, steps)
}

fn walks(c: &mut Criterion) {
    let (w, h) = (64u32, 64u32);
    let mut g = c.benchmark_group("walk_steps/64x64");
    for algo in [
        Algorithm::AldousBroder,
        Algorithm::WilsonStraight(0.5),
        Algorithm::WilsonTurn(0.5),
        Algorithm::Wilson,
    ] {
        let name = algo.name();
        let base = rng::maze_seed_base(1, &name, w, h);
        let seeds: Vec<u64> = (0..SEEDS)
            .map(|i| rng::maze_seed_from_base(base, i))
            .collect();
        let (mut maze, mut scratch) = (Maze::new(w, h), Scratch::new());
        let mut total = 0u64;
        for &s in &seeds {
            let mut r = Rng::from_maze_seed(s);
            let (want, steps) = match algo {
                Algorithm::AldousBroder => aldous_broder(w, h, &mut r),
                Algorithm::WilsonStraight(p) => wilson(w, h, &mut r, Some((true, p))),
                Algorithm::WilsonTurn(p) => wilson(w, h, &mut r, Some((false, p))),
                _ => wilson(w, h, &mut r, None),
            };
            algo.generate(&mut maze, &mut scratch, &mut Rng::from_maze_seed(s));
            assert_eq!(
                maze, want,
                "{name}: the reference walk is not the generator's walk"
            );
            total += steps;
        }
        println!(
            "{name}: {:.0} walk steps per 64x64 maze",
            total as f64 / SEEDS as f64
        );
        g.throughput(Throughput::Elements(total / SEEDS));
        let mut i = 0usize;
        g.bench_function(BenchmarkId::from_parameter(&name), |b| {
            b.iter(|| {
                // Spelled out (not `generate::generate_seeded`, which older commits lack).
                let mut r = Rng::from_maze_seed(seeds[i % seeds.len()]);
                algo.generate(&mut maze, &mut scratch, &mut r);
                i += 1;
                black_box(maze.words()[0])
            })
        });
    }
    g.finish();
}

criterion_group!(benches, walks);
criterion_main!(benches);
