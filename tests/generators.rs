//! Generator properties: every generator makes perfect mazes on every size, the texture
//! fingerprints (mean dead-end share at 100×100) fall in documented bands, the two uniform
//! generators agree with each other, and parameterised names round-trip.
//!
//! Every maze is seeded the way the batch seeds it (`generate::regenerate`), so
//! any failure names a maze that `batchgen render` can reproduce.

use batchgen::generate::{regenerate, Policy, Scratch};
use batchgen::grid::Size;
use batchgen::{measure, Algorithm, Ends, Maze};

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
    regenerate(&a, maze, s, seed, index);
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

/// One 4096×4096 maze, checked perfect: no stack overflow, nothing quadratic. One test per
/// generator so the harness spreads them over the cores (Aldous–Broder alone takes ~20 s: its
/// covering walk needs ~n·log²n steps).
macro_rules! big {
    ($($test:ident: $name:literal,)*) => {$(
        #[test]
        fn $test() {
            let a = Algorithm::parse($name).unwrap();
            let mut maze = Maze::new(1, 1);
            make(a, 4096, 4096, 1, 0, &mut maze, &mut Scratch::new());
            assert!(maze.is_perfect(), "{} 4096x4096", a.name());
        }
    )*
        /// The generators that have a 4096×4096 test.
        const BIG: &[&str] = &[$($name),*];
    };
}

big! {
    big_backtracker: "backtracker",
    big_kruskal: "kruskal",
    big_wilson: "wilson",
    big_aldous_broder: "aldous-broder",
    big_wilson_straight: "wilson-straight",
    big_wilson_turn: "wilson-turn",
    big_prim: "prim",
    big_growing_tree: "growing-tree",
    big_hunt_and_kill: "hunt-and-kill",
    big_eller: "eller",
    big_sidewinder: "sidewinder",
    big_binary_tree: "binary-tree",
    big_recursive_division: "recursive-division",
    big_fractal: "fractal",
}

#[test]
fn every_default_generator_has_a_big_test() {
    // Keep the list above in step with Algorithm::all().
    let big: Vec<Algorithm> = BIG.iter().map(|n| Algorithm::parse(n).unwrap()).collect();
    assert_eq!(big, Algorithm::all());
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
/// `cargo test --release --test tests -- --ignored --nocapture generators::reference_fingerprints`
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

/// Reference fingerprints at 100×100: (name, mean dead-end share, per-maze standard deviation),
/// each over 2000 mazes with master seed 2026, as printed by `reference_fingerprints`. See
/// `data/fingerprints.md` for the table next to the published values.
const REFERENCE: [(&str, f64, f64); 23] = [
    ("backtracker", 0.10021, 0.00183),
    ("kruskal", 0.30564, 0.00269),
    ("wilson", 0.29328, 0.00284),
    ("aldous-broder", 0.29325, 0.00280),
    ("wilson-straight:0.5", 0.28643, 0.00292),
    ("wilson-turn:0.5", 0.28325, 0.00274),
    ("prim", 0.32339, 0.00291),
    ("growing-tree:mix:0.5", 0.20068, 0.00415),
    ("hunt-and-kill", 0.09367, 0.00175),
    ("eller", 0.29503, 0.00281),
    ("sidewinder", 0.27689, 0.00268),
    ("binary-tree", 0.25005, 0.00244),
    ("recursive-division", 0.26956, 0.00319),
    ("fractal", 0.27843, 0.06649),
    ("growing-tree:newest", 0.10023, 0.00183),
    ("growing-tree:oldest", 0.02606, 0.00480),
    ("growing-tree:random", 0.27575, 0.00302),
    ("growing-tree:mix:0.9", 0.11711, 0.00256),
    ("wilson-straight:0", 0.29330, 0.00273),
    ("wilson-straight:0.9", 0.21701, 0.00525),
    ("wilson-straight:0.99", 0.08671, 0.01148),
    ("wilson-turn:0", 0.29320, 0.00282),
    ("wilson-turn:1", 0.26400, 0.00268),
];

/// Mazes per reference value.
const REFERENCE_COUNT: f64 = 2000.0;

/// The texture of every generator at 100×100, with fixed seeds (master seed 1, independent of
/// the reference's 2026). The sample size `m` is chosen from the reference standard deviation
/// so the standard error of the mean is at most 0.0015 (the issue asks for < 0.002; checked on
/// the sample itself too), with at least 100 mazes; fractal, whose whole texture is decided by
/// a handful of draws copied thousands of times, needs ~2000. The band is the reference mean
/// ± 5 standard errors of the difference, `5·sqrt(se_test² + se_ref²)`: a generator whose
/// distribution is unchanged lands outside it with probability below 1e-6, and a change of
/// texture bigger than ~0.002 (a fifth of a percentage point) is caught.
#[test]
fn texture_fingerprints_at_100x100() {
    assert_eq!(REFERENCE.len(), algorithms_and_variants().len());
    let mut failures = Vec::new();
    for (name, ref_mean, sd) in REFERENCE {
        let a = Algorithm::parse(name).unwrap();
        assert_eq!(a.name(), name);
        let m = ((sd / 0.0015).powi(2).ceil() as u64).max(100);
        let xs = dead_end_shares(a, 100, 100, 1, m);
        let (mean, se) = mean_se(&xs);
        assert!(se < 0.002, "{name}: standard error {se} with {m} mazes");
        let band = 5.0 * (se * se + sd * sd / REFERENCE_COUNT).sqrt();
        eprintln!("{name:<22} {mean:.5} (se {se:.5}, {m} mazes) band {ref_mean:.5} ± {band:.5}");
        if (mean - ref_mean).abs() > band {
            failures.push(format!(
                "{name}: mean dead-end share {mean:.5} over {m} mazes, expected {ref_mean:.5} ± {band:.5}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Mean dead-end share and mean diameter of `count` mazes at `w × h`, each with its standard
/// error.
fn dead_ends_and_diameter(a: Algorithm, w: u32, h: u32, count: u64) -> [(f64, f64); 2] {
    let mut maze = Maze::new(w, h);
    let mut s = Scratch::new();
    let mut ms = batchgen::metrics::Scratch::new();
    let (mut de, mut dia) = (Vec::new(), Vec::new());
    for i in 0..count {
        make(a, w, h, 3, i, &mut maze, &mut s);
        let m = measure(&maze, Ends::corners(w, h), &mut ms);
        de.push(m.dead_end_share);
        dia.push(m.diameter as f64);
    }
    [mean_se(&de), mean_se(&dia)]
}

/// Wilson and Aldous–Broder both sample uniform spanning trees, so on 20×20 their mean
/// dead-end share and mean diameter must agree within 4 standard errors of the difference
/// (3000 mazes each: standard errors about 0.0003 and 0.2 edges).
#[test]
fn wilson_and_aldous_broder_agree_on_20x20() {
    let w = dead_ends_and_diameter(Algorithm::Wilson, 20, 20, 3000);
    let ab = dead_ends_and_diameter(Algorithm::AldousBroder, 20, 20, 3000);
    for (what, (m1, se1), (m2, se2)) in [("dead-end share", w[0], ab[0]), ("diameter", w[1], ab[1])]
    {
        let tol = 4.0 * (se1 * se1 + se2 * se2).sqrt();
        assert!(
            (m1 - m2).abs() <= tol,
            "{what}: wilson {m1:.5} ± {se1:.5}, aldous-broder {m2:.5} ± {se2:.5}"
        );
    }
    // The biased walks are not uniform: going straight shows in the same statistics.
    let straight = dead_ends_and_diameter(Algorithm::WilsonStraight(0.9), 20, 20, 3000);
    assert!((straight[0].0 - w[0].0).abs() > 10.0 * w[0].1);
}

#[test]
fn parameterised_names_round_trip() {
    for a in algorithms_and_variants() {
        assert_eq!(Algorithm::parse(&a.name()), Ok(a), "{}", a.name());
    }
    for (input, canonical) in [
        ("wilson-straight:0.7", "wilson-straight:0.7"),
        ("wilson-straight:0.70", "wilson-straight:0.7"),
        (" wilson-turn:1 ", "wilson-turn:1"),
        ("wilson-turn:-0", "wilson-turn:0"),
        ("wilson-straight", "wilson-straight:0.5"),
        ("growing-tree", "growing-tree:mix:0.5"),
        ("growing-tree:newest", "growing-tree:newest"),
        ("growing-tree:oldest", "growing-tree:oldest"),
        ("growing-tree:random", "growing-tree:random"),
        ("growing-tree:mix:0.25", "growing-tree:mix:0.25"),
        ("growing-tree:mix:1", "growing-tree:mix:1"),
    ] {
        assert_eq!(
            Algorithm::parse(input).unwrap().name(),
            canonical,
            "{input}"
        );
    }
    let list = Algorithm::parse_list("growing-tree:newest,all,wilson-straight:0.7").unwrap();
    assert_eq!(list.len(), Algorithm::all().len() + 2);
    assert_eq!(&list[..3], &Algorithm::all()[..3]);
}

#[test]
fn bad_parameters_are_explained() {
    for (input, expect) in [
        ("wilson-straight:1.5", "0 <= P <= 0.999"),
        ("wilson-straight:1", "0 <= P <= 0.999"),
        ("wilson-straight:0.999999999999", "0 <= P <= 0.999"),
        ("wilson-straight:nan", "not a probability"),
        ("wilson-turn:-0.1", "0 <= P <= 1"),
        ("wilson-turn:", "not a probability"),
        ("growing-tree:bogus", "newest, oldest, random or mix:P"),
        ("growing-tree:mix:2", "0 <= P <= 1"),
        ("growing-tree:mix", "newest, oldest, random or mix:P"),
        ("kruskal:3", "takes no parameter"),
    ] {
        let e = Algorithm::parse(input).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains(expect), "{input}: {msg}");
        assert!(msg.contains(input.trim()), "{input}: {msg}");
    }
    let e = Algorithm::parse("wilsn").unwrap_err().to_string();
    assert!(e.contains("unknown algorithm 'wilsn'"), "{e}");
    assert!(e.contains("did you mean 'wilson'?"), "{e}");
    let e = Algorithm::parse("Wilson").unwrap_err().to_string();
    assert!(e.contains("did you mean 'wilson'?"), "{e}");
    let e = Algorithm::parse("qqqq").unwrap_err().to_string();
    assert!(!e.contains("did you mean"), "{e}");
    assert!(
        e.contains("wilson-straight[:P]") && e.contains("fractal"),
        "{e}"
    );
}

#[test]
fn only_wilson_and_aldous_broder_are_uniform() {
    for a in algorithms_and_variants() {
        let uniform = matches!(a, Algorithm::Wilson | Algorithm::AldousBroder);
        assert_eq!(a.is_uniform(), uniform, "{}", a.name());
        assert!(!a.description().is_empty());
    }
}

/// The 3D-capable generators with the parameter values worth covering in 3D.
fn algorithms_3d() -> Vec<Algorithm> {
    let v: Vec<Algorithm> = algorithms_and_variants()
        .into_iter()
        .filter(|a| a.supports_3d())
        .collect();
    assert_eq!(v.len(), 18, "every 3D family and variant");
    v
}

fn make3(a: Algorithm, size: Size, seed: u64, index: u64, maze: &mut Maze, s: &mut Scratch) {
    maze.resize(size);
    regenerate(&a, maze, s, seed, index);
}

#[test]
fn every_3d_generator_is_perfect_on_3d_sizes() {
    let sizes = [
        Size::new(1, 1, 2),
        Size::new(1, 1, 17),
        Size::new(1, 7, 3),
        Size::new(7, 1, 3),
        Size::new(1, 2, 9),
        Size::new(2, 2, 2),
        Size::new(3, 2, 2),
        Size::new(5, 4, 3),
        Size::new(3, 5, 2),
        Size::new(9, 8, 7),
        Size::new(16, 16, 16),
    ];
    let mut maze = Maze::new(1, 1);
    let mut s = Scratch::new();
    for a in algorithms_3d() {
        for &size in &sizes {
            let seeds = if size.cells() >= 1000 { 5 } else { 100 };
            for i in 0..seeds {
                make3(a, size, 7, i, &mut maze, &mut s);
                assert_eq!(maze.size(), size);
                assert!(
                    maze.is_perfect(),
                    "{} {size} seed 7 index {i} is not perfect:\n{maze:?}",
                    a.name()
                );
            }
        }
    }
}

#[test]
fn every_3d_generator_uses_every_axis() {
    // On a 5×4×3 box, each generator's mazes open walls along x, y and z (a generator that
    // ignored one axis could not be perfect here, but this names the failure directly).
    let size = Size::new(5, 4, 3);
    let mut maze = Maze::new(1, 1);
    let mut s = Scratch::new();
    for a in algorithms_3d() {
        let mut axes = [0u64; 3];
        for i in 0..20 {
            make3(a, size, 3, i, &mut maze, &mut s);
            for id in maze.open_wall_ids() {
                axes[size.wall(id).dir.axis() as usize] += 1;
            }
        }
        assert!(axes.iter().all(|&n| n > 0), "{} {axes:?}", a.name());
    }
}

#[test]
fn one_large_3d_maze_per_generator() {
    let size = Size::new(64, 64, 16);
    let mut maze = Maze::new(1, 1);
    let mut s = Scratch::new();
    for a in Algorithm::all_3d() {
        make3(a, size, 1, 0, &mut maze, &mut s);
        assert!(maze.is_perfect(), "{} {size}", a.name());
    }
}

#[test]
fn all_3d_lists_the_3d_capable_families() {
    let names: Vec<String> = Algorithm::all_3d().iter().map(|a| a.name()).collect();
    assert_eq!(
        names,
        [
            "backtracker",
            "kruskal",
            "wilson",
            "aldous-broder",
            "wilson-straight:0.5",
            "wilson-turn:0.5",
            "prim",
            "growing-tree:mix:0.5",
            "hunt-and-kill"
        ]
    );
}

#[test]
fn same_seed_same_3d_maze_on_any_thread_and_scratch() {
    let size = Size::new(6, 5, 4);
    let mut used = Scratch::new();
    let mut maze = Maze::new(1, 1);
    for a in algorithms_3d() {
        // A scratch used for a 2D and a bigger 3D maze first.
        make3(a, Size::new(9, 9, 9), 1, 0, &mut maze, &mut used);
        make3(
            Algorithm::Eller,
            Size::planar(30, 20),
            1,
            0,
            &mut maze,
            &mut used,
        );
        make3(a, size, 1, 5, &mut maze, &mut used);
        let here = maze.clone();
        let there = std::thread::spawn(move || {
            let mut m = Maze::with_size(size);
            regenerate(&a, &mut m, &mut Scratch::new(), 1, 5);
            m
        })
        .join()
        .unwrap();
        assert_eq!(here, there, "{}", a.name());
        make3(a, size, 1, 6, &mut maze, &mut used);
        assert_ne!(maze, here, "{}: index 6 gave the maze of index 5", a.name());
    }
}

#[test]
fn a_3d_seed_differs_from_the_2d_seed_of_the_same_plane() {
    let a = Algorithm::Wilson;
    let mut m2 = Maze::new(4, 4);
    let s2 = regenerate(&a, &mut m2, &mut Scratch::new(), 9, 0);
    let mut m3 = Maze::with_size(Size::new(4, 4, 2));
    let s3 = regenerate(&a, &mut m3, &mut Scratch::new(), 9, 0);
    assert_ne!(s2, s3);
    assert_eq!(
        s3,
        batchgen::rng::maze_seed_sized(9, "wilson", Size::new(4, 4, 2), 0)
    );
    assert_eq!(s2, batchgen::rng::maze_seed(9, "wilson", 4, 4, 0));
}

/// A 2D-only generator on a 3D maze panics, naming the generators that accept one.
macro_rules! refuses_3d {
    ($($test:ident: $name:literal,)*) => {$(
        #[test]
        #[should_panic(expected = "is a 2D-only generator and cannot generate a 3x3x2 maze; \
            generators that accept a 3D size: backtracker, kruskal, wilson, aldous-broder, \
            wilson-straight, wilson-turn, prim, growing-tree, hunt-and-kill")]
        fn $test() {
            let a = Algorithm::parse($name).unwrap();
            assert!(!a.supports_3d());
            let mut maze = Maze::with_size(Size::new(3, 3, 2));
            regenerate(&a, &mut maze, &mut Scratch::new(), 1, 0);
        }
    )*};
}

refuses_3d! {
    eller_refuses_3d: "eller",
    sidewinder_refuses_3d: "sidewinder",
    binary_tree_refuses_3d: "binary-tree",
    recursive_division_refuses_3d: "recursive-division",
    fractal_refuses_3d: "fractal",
}
