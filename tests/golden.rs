//! Golden values: the maze for a given (algo, size, seed, index) never changes. If one of these
//! fails, either a generator, the seeding scheme or the hash changed: existing Parquet rows
//! could no longer be regenerated. Bump `SEEDING_SCHEME` (or the generator's documented version)
//! and update these values deliberately, never casually.

use batchgen::generate::{regenerate, Scratch};
use batchgen::{metrics, rng, Algorithm, Ends, Maze};

fn hash_of(algo: &str, w: u32, h: u32, seed: u64, index: u64) -> (u64, u64) {
    let a = Algorithm::parse(algo).unwrap();
    let mut m = Maze::new(w, h);
    let ms = regenerate(&a, &mut m, &mut Scratch::new(), seed, index);
    assert_eq!(ms, rng::maze_seed(seed, algo, w, h, index));
    let got = metrics::measure(&m, Ends::corners(w, h), &mut metrics::Scratch::new());
    (ms, got.maze_hash)
}

/// (algo, width, height, seed, index, maze_seed, maze_hash)
const GOLDEN: [(&str, u32, u32, u64, u64, u64, u64); 7] = [
    (
        "backtracker",
        64,
        64,
        42,
        17,
        0xb871773d81cf7717,
        0x5eb2fc75693872f3,
    ),
    (
        "kruskal",
        64,
        64,
        42,
        17,
        0x26060205612e5b01,
        0x599757f313dffc3c,
    ),
    (
        "wilson",
        64,
        64,
        42,
        17,
        0xceae8b9ce6fa31df,
        0x99ba83b400c1eae5,
    ),
    (
        "backtracker",
        20,
        20,
        1,
        0,
        0xf602f1a8917d67ab,
        0xbc52f9eb69888b10,
    ),
    (
        "kruskal",
        7,
        3,
        9,
        123456,
        0x563d7e52c90e3589,
        0x44e211e9c8a7c112,
    ),
    ("wilson", 1, 1, 0, 0, 0xf79b548ce199ff87, 0x29280ece071c1ca4),
    (
        "wilson",
        33,
        5,
        u64::MAX,
        999,
        0xe1e0b597e03807de,
        0x886d96bc86876df1,
    ),
];

#[test]
fn seeds_and_mazes_are_pinned() {
    for (algo, w, h, seed, index, want_seed, want_hash) in GOLDEN {
        let (ms, hash) = hash_of(algo, w, h, seed, index);
        assert_eq!(
            ms, want_seed,
            "maze_seed of {algo} {w}x{h} seed {seed} index {index}"
        );
        assert_eq!(
            hash, want_hash,
            "maze_hash of {algo} {w}x{h} seed {seed} index {index}"
        );
    }
}

#[test]
fn the_binary_writes_the_pinned_rows() {
    // The same values must come out of the CLI, whatever else is in the run.
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("g.parquet");
    assert_cmd::Command::cargo_bin("batchgen")
        .unwrap()
        .args([
            "--algo",
            "wilson,kruskal,backtracker",
            "--size",
            "64x64",
            "--count",
            "18",
        ])
        .args(["--seed", "42", "--quiet", "--threads", "2", "--out"])
        .arg(&out)
        .assert()
        .success();
    let file = std::fs::File::open(&out).unwrap();
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut found = 0;
    for batch in reader {
        let batch = batch.unwrap();
        let col = |name: &str| batch.column(batch.schema().index_of(name).unwrap()).clone();
        let algo = col("algo");
        let algo = algo
            .as_any()
            .downcast_ref::<arrow_array::StringArray>()
            .unwrap();
        let index = col("index");
        let index = index
            .as_any()
            .downcast_ref::<arrow_array::UInt64Array>()
            .unwrap();
        let hash = col("maze_hash");
        let hash = hash
            .as_any()
            .downcast_ref::<arrow_array::UInt64Array>()
            .unwrap();
        for r in 0..batch.num_rows() {
            for (a, w, _, seed, i, _, want) in GOLDEN {
                if w == 64 && seed == 42 && index.value(r) == i && algo.value(r) == a {
                    assert_eq!(hash.value(r), want, "{a} index {i}");
                    found += 1;
                }
            }
        }
    }
    assert_eq!(found, 3);
}

/// Every generator at 16×12, seed 7, index 3: (algo, maze_seed, maze_hash).
const EVERY: [(&str, u64, u64); 14] = [
    ("backtracker", 0x2f53fb1a2aeb5103, 0x6e7e748f046af399),
    ("kruskal", 0x91f2596dbf64f607, 0xba28f534b8a9c6b3),
    ("wilson", 0x8772d0641265aaa0, 0xf36152e3ef1e1657),
    ("aldous-broder", 0xa05c960974a4b072, 0xb7f40ea2f31efd0b),
    (
        "wilson-straight:0.5",
        0x2464504a3a3ec489,
        0x0d422e78a30c1969,
    ),
    ("wilson-turn:0.5", 0xaaf15a3c9873b222, 0xd0d75cf1c4ef1843),
    ("prim", 0xcee621e98656078e, 0x5e6b3c34ad66beb5),
    (
        "growing-tree:mix:0.5",
        0x427a9728e843af0f,
        0x9885587d9b076b05,
    ),
    ("hunt-and-kill", 0xedc15b839996490a, 0x7c9bff082a8085f8),
    ("eller", 0xf3d3d0deeee44d0e, 0x8e4657e1536fdf1d),
    // Sidewinder version 2 (draws a chunk's coins before its runs' picks): new maze per seed.
    ("sidewinder", 0x381211578077711a, 0x5d73d221c798633a),
    ("binary-tree", 0xedb4067caa034b35, 0xa33289afbb8240f2),
    ("recursive-division", 0x3e2dfd778519c189, 0xf3f878641cd36254),
    ("fractal", 0xee3dcd33d3ff8f15, 0xd9589a674b019479),
];

#[test]
fn every_generator_is_pinned() {
    let names: Vec<String> = batchgen::Algorithm::all()
        .iter()
        .map(|a| a.name())
        .collect();
    let pinned: Vec<&str> = EVERY.iter().map(|e| e.0).collect();
    assert_eq!(
        names, pinned,
        "a generator was added or renamed: pin it here"
    );
    for (algo, want_seed, want_hash) in EVERY {
        let (ms, hash) = hash_of(algo, 16, 12, 7, 3);
        assert_eq!(
            (ms, hash),
            (want_seed, want_hash),
            "{algo} 16x12 seed 7 index 3"
        );
    }
}

/// 3D mazes: `regenerate` on a 3D-sized maze, hashed by `Maze::hash` (which mixes the depth in).
fn hash_3d(algo: &str, size: batchgen::grid::Size, seed: u64, index: u64) -> (u64, u64) {
    let a = Algorithm::parse(algo).unwrap();
    let mut m = Maze::with_size(size);
    let ms = regenerate(&a, &mut m, &mut Scratch::new(), seed, index);
    assert_eq!(ms, rng::maze_seed_sized(seed, algo, size, index));
    assert!(m.is_perfect());
    (ms, m.hash())
}

/// Wilson at 5×4×3, seed 42, indices 0..4: (index, maze_seed, maze_hash).
const GOLDEN_3D: [(u64, u64, u64); 4] = [
    (0, 0x142ac45390412966, 0xfeb2dfc3f6bd52a8),
    (1, 0x8e7221cf55b43bcb, 0xee7e05d6530f57cb),
    (2, 0xcf405325d062bdb0, 0xf7f7fbe71362df99),
    (3, 0x706c20e796698146, 0x8692f8f617311fe9),
];

#[test]
fn wilson_3d_is_pinned() {
    for (index, want_seed, want_hash) in GOLDEN_3D {
        let got = hash_3d("wilson", batchgen::grid::Size::new(5, 4, 3), 42, index);
        assert_eq!(
            got,
            (want_seed, want_hash),
            "wilson 5x4x3 seed 42 index {index}"
        );
    }
}

/// Every 3D-capable generator at 6×5×4, seed 7, index 3: (algo, maze_seed, maze_hash).
const EVERY_3D: [(&str, u64, u64); 9] = [
    ("backtracker", 0x8bab4107778ee8ca, 0x225e74e569123dd5),
    ("kruskal", 0xb65fae5c041fae82, 0x666ef6036ce7ecef),
    ("wilson", 0x15db17224ee6d030, 0x1a689c7d3981829c),
    ("aldous-broder", 0x6924c41c6e0a0447, 0x264c404fa62d9302),
    (
        "wilson-straight:0.5",
        0x1e5bdd6994e0476a,
        0xe8cf0be95c5c2811,
    ),
    ("wilson-turn:0.5", 0xfe0660f5e4858b98, 0xa9028dbf97e00c39),
    ("prim", 0x5abc5a69f92fc7e4, 0xf66928eb622d374e),
    (
        "growing-tree:mix:0.5",
        0x3600d24e0fad3b0f,
        0x3eb435a8e5318d93,
    ),
    ("hunt-and-kill", 0x4d29033de566ab7c, 0xeaa842e182dceaf6),
];

#[test]
fn every_3d_generator_is_pinned() {
    let names: Vec<String> = Algorithm::all_3d().iter().map(|a| a.name()).collect();
    let pinned: Vec<&str> = EVERY_3D.iter().map(|e| e.0).collect();
    assert_eq!(
        names, pinned,
        "a 3D generator was added or renamed: pin it here"
    );
    for (algo, want_seed, want_hash) in EVERY_3D {
        let got = hash_3d(algo, batchgen::grid::Size::new(6, 5, 4), 7, 3);
        assert_eq!(got, (want_seed, want_hash), "{algo} 6x5x4 seed 7 index 3");
    }
}

/// A braided maze: the perfect maze of `(algo, size, seed, index)`, braided with chance `p` from
/// its braid stream ([`batchgen::braid::braid_seeded`]); `(walls opened, Maze::hash)`.
fn braided_hash(
    algo: &str,
    size: batchgen::grid::Size,
    seed: u64,
    index: u64,
    p: f64,
) -> (u32, u64) {
    let a = Algorithm::parse(algo).unwrap();
    let mut m = Maze::with_size(size);
    let ms = regenerate(&a, &mut m, &mut Scratch::new(), seed, index);
    let opened = batchgen::braid::braid_seeded(
        &mut m,
        batchgen::Chance::new(p),
        ms,
        &mut batchgen::braid::Scratch::new(),
    );
    (opened, m.hash())
}

/// Braided mazes (the pass's draws are part of the maze: a change to them gives other braided
/// mazes for the same row): (algo, (width, height, depth), seed, index, chance), then (walls
/// opened, maze hash).
type Pinned = ((&'static str, (u32, u32, u32), u64, u64, f64), (u32, u64));

const BRAIDED: [Pinned; 3] = [
    (
        ("wilson", (64, 64, 1), 42, 17, 0.5),
        (463, 0x0d92d4a4116178f5),
    ),
    (
        ("backtracker", (16, 12, 1), 7, 3, 1.0),
        (20, 0x452681c0ecfc5d8b),
    ),
    (("kruskal", (6, 5, 4), 7, 3, 0.3), (14, 0xb8b8c5d422268be3)),
];

#[test]
fn braided_mazes_are_pinned() {
    for ((algo, (w, h, d), seed, index, p), want) in BRAIDED {
        let size = batchgen::grid::Size::new(w, h, d);
        assert_eq!(
            braided_hash(algo, size, seed, index, p),
            want,
            "{algo} {size} seed {seed} index {index} braid {p}"
        );
    }
}
