//! Masks: every mask-capable generator makes a spanning tree of the mask (hand-made masks and
//! random connected ones), masked metrics equal a brute-force recomputation, the masked code
//! paths are the unmasked algorithms (a mask of every cell gives the unmasked maze for the same
//! draws), seeds mix in the mask only when there is one, and the command line refuses what a
//! mask cannot take, with exit 2 and a message naming flag and value. The maze store records
//! the mask: its mazes come back with it, equal to regeneration, and a store whose mask or
//! walls disagree with it is refused.

use crate::common;

use std::collections::VecDeque;
use std::sync::Arc;

use batchgen::generate::{regenerate, Policy, Scratch};
use batchgen::grid::{Dir, Mask};
use batchgen::rng::Rng;
use batchgen::{measure, Algorithm, Chance, Ends, Maze};
use proptest::prelude::*;

/// Every mask-capable generator with its default parameters, plus the parameter values whose
/// code paths differ.
fn mask_algorithms() -> Vec<Algorithm> {
    let mut v: Vec<Algorithm> = Algorithm::all()
        .into_iter()
        .filter(|a| a.supports_mask())
        .collect();
    v.extend([
        Algorithm::GrowingTree(Policy::Newest),
        Algorithm::GrowingTree(Policy::Oldest),
        Algorithm::GrowingTree(Policy::Random),
        Algorithm::WilsonStraight(0.9),
        Algorithm::WilsonTurn(0.9),
    ]);
    v
}

/// Hand-made masks: a ring (3×3 without its centre), a 2×3 without a corner, a single cell,
/// a comb whose first cell has only holes west and north of its teeth, a spiral, a ring with a
/// hole at the origin, and a room-and-corridor level.
fn hand_made() -> Vec<Mask> {
    [
        "...\n.#.\n...\n",
        "..#\n...\n",
        "#.#\n",
        "#.#.#.#\n#.#.#.#\n.......\n",
        ".........\n########.\n.......#.\n.#####.#.\n.#...#.#.\n.#.###.#.\n.#.....#.\n.#######.\n.........\n",
        "##....##\n#......#\n...##...\n...##...\n#......#\n##....##\n",
        "....#####....\n....#####....\n.............\n....##.##....\n....##.##....\n######.######\n######.######\n",
    ]
    .iter()
    .map(|t| Mask::from_text(t).unwrap())
    .collect()
}

/// Every mask-capable generator, `count` mazes on `mask`: each a spanning tree of its cells.
fn assert_spans(mask: &Mask, count: u64) {
    let mask = Arc::new(mask.clone());
    let mut s = Scratch::new();
    let mut maze = Maze::masked(mask.clone());
    for a in mask_algorithms() {
        for i in 0..count {
            regenerate(&a, &mut maze, &mut s, 7, i);
            assert!(
                maze.is_perfect(),
                "{} maze {i} is not a spanning tree of\n{}{maze:?}",
                a.name(),
                mask.to_text()
            );
            assert_eq!(maze.passages(), mask.cells() as u64 - 1);
        }
    }
}

#[test]
fn every_mask_capable_generator_spans_hand_made_masks() {
    for m in hand_made() {
        assert_spans(&m, 40);
    }
}

/// A random connected mask: random cells of a `w × h` grid, then the component of the first
/// cell kept.
fn connected_mask(w: u32, h: u32, bits: &[bool]) -> Option<Mask> {
    let at = |x: u32, y: u32| bits[(y * w + x) as usize % bits.len()];
    let start = (0..w * h).find(|&c| at(c % w, c / w))?;
    let mut keep = vec![false; (w * h) as usize];
    let mut queue = VecDeque::from([start]);
    keep[start as usize] = true;
    while let Some(c) = queue.pop_front() {
        let (x, y) = (c % w, c / w);
        let nbs = [
            (x + 1 < w).then(|| c + 1),
            (x > 0).then(|| c - 1),
            (y + 1 < h).then(|| c + w),
            (y > 0).then(|| c - w),
        ];
        for v in nbs.into_iter().flatten() {
            if at(v % w, v / w) && !keep[v as usize] {
                keep[v as usize] = true;
                queue.push_back(v);
            }
        }
    }
    Some(Mask::from_fn(w, h, |x, y| keep[(y * w + x) as usize]).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn every_mask_capable_generator_spans_random_connected_masks(
        w in 1u32..14,
        h in 1u32..14,
        bits in proptest::collection::vec(prop::bool::weighted(0.7), 196),
    ) {
        if let Some(m) = connected_mask(w, h, &bits) {
            assert_spans(&m, 3);
        }
    }
}

/// BFS distances from `from` over the open walls (independent of the metrics code).
fn distances(maze: &Maze, from: u32) -> Vec<Option<u32>> {
    let mut d = vec![None; maze.cells() as usize];
    d[from as usize] = Some(0);
    let mut q = VecDeque::from([from]);
    while let Some(c) = q.pop_front() {
        for dir in Dir::PLANAR {
            if maze.is_open(c, dir) {
                let n = maze.neighbour(c, dir);
                if d[n as usize].is_none() {
                    d[n as usize] = Some(d[c as usize].unwrap() + 1);
                    q.push_back(n);
                }
            }
        }
    }
    d
}

#[test]
fn masked_metrics_equal_a_brute_force_recomputation() {
    let mut s = Scratch::new();
    let mut ms = batchgen::metrics::Scratch::new();
    for mask in hand_made() {
        let mask = Arc::new(mask);
        let mut maze = Maze::masked(mask.clone());
        for a in mask_algorithms() {
            for i in 0..10 {
                regenerate(&a, &mut maze, &mut s, 11, i);
                let ends = Ends::cells(mask.first(), mask.last());
                let m = measure(&maze, ends, &mut ms);
                let cells: Vec<u32> = mask.ids().to_vec();
                let deg = |c: u32| maze.degree(c);
                let dead = cells.iter().filter(|&&c| deg(c) == 1).count() as u32;
                let junctions = cells.iter().filter(|&&c| deg(c) >= 3).count() as u32;
                let corridors = cells.iter().filter(|&&c| deg(c) == 2).count() as u32;
                let straights = cells
                    .iter()
                    .filter(|&&c| {
                        deg(c) == 2
                            && ((maze.is_open(c, Dir::East) && maze.is_open(c, Dir::West))
                                || (maze.is_open(c, Dir::North) && maze.is_open(c, Dir::South)))
                    })
                    .count() as u32;
                let from_entrance = distances(&maze, mask.first());
                let diameter = cells
                    .iter()
                    .map(|&c| distances(&maze, c).iter().flatten().copied().max().unwrap())
                    .max()
                    .unwrap();
                let n = cells.len() as u32;
                assert_eq!(m.cells, n);
                assert_eq!(m.mask_hash, mask.hash());
                assert_eq!(m.dead_ends, dead, "{}", a.name());
                assert_eq!(m.dead_end_share, dead as f64 / n as f64);
                assert_eq!(m.junctions, junctions);
                assert_eq!(m.corridors, corridors);
                assert_eq!(m.straights, straights);
                assert_eq!(Some(m.solution_length), from_entrance[mask.last() as usize]);
                assert_eq!(m.diameter, diameter, "{} maze {i}\n{maze:?}", a.name());
                for end in [m.diameter_start, m.diameter_end] {
                    assert!(mask.contains(end));
                }
                // The hitting times both ways add up to 2·(cells − 1)·length on a tree.
                let back = measure(&maze, Ends::cells(mask.last(), mask.first()), &mut ms);
                assert_eq!(
                    m.walk_steps + back.walk_steps,
                    2 * (n as u64 - 1) * m.solution_length as u64
                );
                // The diameter sweep starts on the mask and finds a longest path.
                let d = measure(&maze, Ends::Diameter, &mut ms);
                assert_eq!(d.solution_length, diameter);
                assert!(mask.contains(d.diameter_start) && mask.contains(d.diameter_end));
            }
        }
    }
}

/// On a mask of every cell the masked code paths draw exactly what the unmasked ones draw (the
/// same start cell or root, the same walls): for one maze seed, the same maze. Odd and even
/// sides, since the Wilson root (the cell nearest the mask's centroid) must land on the
/// unmasked root `(W/2, H/2)` for both.
#[test]
fn a_full_mask_runs_the_unmasked_algorithms() {
    for (w, h) in [(9, 7), (8, 6), (10, 5)] {
        a_full_mask_runs_the_unmasked_algorithms_at(w, h);
    }
}

fn a_full_mask_runs_the_unmasked_algorithms_at(w: u32, h: u32) {
    let full = Arc::new(Mask::from_fn(w, h, |_, _| true).unwrap());
    assert_eq!(full.centre(), (h / 2) * w + w / 2);
    let mut s = Scratch::new();
    for a in mask_algorithms() {
        for seed in 0..20u64 {
            let mut plain = Maze::new(w, h);
            a.generate(&mut plain, &mut s, &mut Rng::from_maze_seed(seed));
            let mut masked = Maze::masked(full.clone());
            a.generate(&mut masked, &mut s, &mut Rng::from_maze_seed(seed));
            masked.set_mask(None);
            assert_eq!(masked, plain, "{} seed {seed}", a.name());
        }
    }
}

#[test]
fn seeds_mix_in_the_mask_only_when_there_is_one() {
    let size = batchgen::Size::planar(3, 3);
    let ring = Mask::from_text("...\n.#.\n...\n").unwrap();
    let full = Mask::from_fn(3, 3, |_, _| true).unwrap();
    let a = Algorithm::Kruskal;
    let base = batchgen::generate::seed_base(&a, size, 5);
    assert_eq!(
        batchgen::generate::seed_base_masked(&a, size, None, 5),
        base
    );
    let r = batchgen::generate::seed_base_masked(&a, size, Some(&ring), 5);
    let f = batchgen::generate::seed_base_masked(&a, size, Some(&full), 5);
    assert!(r != base && f != base && r != f);
    // `regenerate` takes the mask from the maze.
    let mut m = Maze::masked(Arc::new(ring));
    let seed = regenerate(&a, &mut m, &mut Scratch::new(), 5, 0);
    assert_eq!(seed, batchgen::rng::maze_seed_from_base(r, 0));
}

#[test]
fn the_command_line_runs_masks_and_records_them() {
    let dir = tempfile::tempdir().unwrap();
    let mask = dir.path().join("ring.txt");
    std::fs::write(&mask, "....\n.##.\n....\n").unwrap();
    let t = common::run(
        dir.path(),
        "ring.parquet",
        &[
            "--mask",
            mask.to_str().unwrap(),
            "--algo",
            "wilson,backtracker",
            "--count",
            "20",
        ],
    );
    let want = Mask::from_text("....\n.##.\n....\n").unwrap();
    assert_eq!(t.meta["batchgen.mask"], want.to_text());
    assert_eq!(t.meta["batchgen.size"], "4x3");
    assert!(t.meta["batchgen.ends"].starts_with("entrance=0,0 exit=3,2"));
    let (cells, hash) = (t.col("cells"), t.col("mask_hash"));
    for r in &t.rows {
        assert_eq!(r[cells], "10");
        assert_eq!(r[hash], want.hash().to_string());
    }
    // The rows are the library's mazes on that mask.
    let mut s = Scratch::new();
    let mut ms = batchgen::metrics::Scratch::new();
    let mut maze = Maze::masked(Arc::new(want.clone()));
    let (algo, index, mhash) = (t.col("algo"), t.col("index"), t.col("maze_hash"));
    for r in &t.rows {
        let a = Algorithm::parse(&r[algo]).unwrap();
        regenerate(
            &a,
            &mut maze,
            &mut s,
            batchgen::args::DEFAULT_SEED,
            r[index].parse().unwrap(),
        );
        let m = measure(&maze, Ends::cells(want.first(), want.last()), &mut ms);
        assert_eq!(r[mhash], m.maze_hash.to_string());
    }
    // Without a mask the columns say so.
    let plain = common::run(
        dir.path(),
        "plain.parquet",
        &["--size", "4x3", "--count", "3"],
    );
    let (cells, hash) = (plain.col("cells"), plain.col("mask_hash"));
    assert!(plain
        .rows
        .iter()
        .all(|r| r[cells] == "12" && r[hash] == "0"));
    assert!(!plain.meta.contains_key("batchgen.mask"));
}

/// Run the main job with `args` and return its stderr, asserting exit 2 and no output file.
fn refused(dir: &std::path::Path, args: &[&str]) -> String {
    let out = dir.join("refused.parquet");
    let o = common::batchgen()
        .args(args)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    assert!(!out.exists());
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn bad_masks_and_what_a_mask_cannot_take_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str, text: &str| {
        let f = dir.path().join(name);
        std::fs::write(&f, text).unwrap();
        f.to_str().unwrap().to_string()
    };
    let ring = p("ring.txt", "...\n.#.\n...\n");
    let split = p("split.txt", ".#.\n##.\n.##\n");
    let empty = p("empty.txt", "###\n");
    let ragged = p("ragged.txt", "...\n..\n");
    let d = dir.path();
    let e = refused(d, &["--mask", &split]);
    assert!(e.contains("'--mask'") && e.contains("3 components"), "{e}");
    assert!(e.contains("0,0 2,0 0,2"), "{e}");
    let e = refused(d, &["--mask", &empty]);
    assert!(e.contains("no cell"), "{e}");
    let e = refused(d, &["--mask", &ragged]);
    assert!(e.contains("row 1 of the mask has 2 characters"), "{e}");
    let e = refused(d, &["--mask", &ring, "--size", "4x4"]);
    assert!(e.contains("'4x4' for '--size'") && e.contains("3x3"), "{e}");
    let e = refused(d, &["--mask", &ring, "--size", "3x3x2"]);
    assert!(e.contains("2D only"), "{e}");
    let e = refused(d, &["--mask", &ring, "--algo", "wilson,eller"]);
    assert!(e.contains("'--algo'") && e.contains("eller"), "{e}");
    assert!(
        e.contains("backtracker, kruskal, wilson, aldous-broder"),
        "{e}"
    );
    let e = refused(d, &["--mask", &ring, "--algo", "wilson-turn:1"]);
    assert!(e.contains("always turns") && e.contains("P < 1"), "{e}");
    let e = refused(d, &["--mask", &ring, "--entrance", "1,1"]);
    assert!(
        e.contains("'1,1' for '--entrance'") && e.contains("hole"),
        "{e}"
    );
    let e = refused(d, &["--mask", &ring, "--exit", "1,1"]);
    assert!(e.contains("'--exit'"), "{e}");
    let e = refused(
        d,
        &["--mask", dir.path().join("nope.txt").to_str().unwrap()],
    );
    assert!(e.contains("'--mask'"), "{e}");
    // A --size that agrees is fine.
    common::run(
        d,
        "ok.parquet",
        &["--mask", &ring, "--size", "3x3", "--count", "2"],
    );
}

#[test]
fn render_draws_the_holes_solid() {
    let dir = tempfile::tempdir().unwrap();
    let mask = dir.path().join("ring.txt");
    std::fs::write(&mask, "...\n.#.\n...\n").unwrap();
    let m = mask.to_str().unwrap();
    let out = common::batchgen()
        .args(["render", "--algo", "wilson", "--mask", m, "--index", "3"])
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
    assert_eq!(rows.len(), 7, "{text}");
    // The hole's cell and the four walls around it are solid.
    for (r, c) in [(3, 3), (2, 3), (4, 3), (3, 2), (3, 4)] {
        assert_eq!(rows[r][c], b'#', "{text}");
    }
    // The picture is the library's maze on that mask.
    let ring = Arc::new(Mask::from_text("...\n.#.\n...\n").unwrap());
    let mut want = Maze::masked(ring.clone());
    regenerate(&Algorithm::Wilson, &mut want, &mut Scratch::new(), 42, 3);
    assert_eq!(text, batchgen::render::ascii(&want, None).unwrap());
    // Open cells are blank, so every one of the eight ring cells is drawn open.
    let open = (0..9u32)
        .filter(|&c| rows[(2 * (c / 3) + 1) as usize][(2 * (c % 3) + 1) as usize] == b' ')
        .count();
    assert_eq!(open, 8, "{text}");
    // The same refusals as the main job.
    let o = common::batchgen()
        .args(["render", "--algo", "eller", "--mask", m, "--index", "0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = common::batchgen()
        .args([
            "render", "--algo", "wilson", "--mask", m, "--size", "4x4", "--index", "0",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_level_carries_its_mask() {
    let ring = Arc::new(Mask::from_text("....\n.##.\n....\n").unwrap());
    let level = batchgen::LevelSpec::masked(Algorithm::Kruskal, ring.clone(), 42, 5)
        .build()
        .unwrap();
    assert_eq!(level.mask(), Some(&ring));
    assert!(level.maze().is_perfect());
    assert_eq!(level.metrics().cells, 10);
    assert_eq!(level.metrics().mask_hash, ring.hash());
    assert_eq!(
        (level.entrance(), level.exit()),
        (ring.first(), ring.last())
    );
    // The maze the main job makes as row 5 on that mask.
    let mut want = Maze::masked(ring.clone());
    let seed = regenerate(&Algorithm::Kruskal, &mut want, &mut Scratch::new(), 42, 5);
    assert_eq!(level.maze(), &want);
    assert_eq!(level.maze_seed(), seed);
    // Ends on a hole, and generators that refuse masks, are errors.
    let hole = level.clone().with_ends(Ends::cells(5, 0)).unwrap_err();
    assert!(
        matches!(hole, batchgen::LevelError::Hole { cell: 5 }),
        "{hole}"
    );
    let moved = level.with_ends(Ends::cells(4, 7)).unwrap();
    assert_eq!((moved.entrance(), moved.exit()), (4, 7));
    let e = batchgen::LevelSpec::masked(Algorithm::Eller, ring, 42, 0)
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("accept --mask"), "{e}");
}

/// A masked run (`--mask`, `--mazes`) in `dir`: the store's path and the mask.
fn masked_store(dir: &std::path::Path, text: &str) -> (std::path::PathBuf, Arc<Mask>) {
    let mask = dir.join("mask.txt");
    std::fs::write(&mask, text).unwrap();
    let store = dir.join("mazes.arrow");
    let out = common::batchgen()
        .args([
            "--mask",
            mask.to_str().unwrap(),
            "--algo",
            "wilson,backtracker,prim",
        ])
        .args(["--count", "40", "--out"])
        .arg(dir.join("mazes.parquet"))
        .arg("--mazes")
        .arg(&store)
        .output()
        .unwrap();
    common::assert_ok(&out);
    (store, Arc::new(Mask::from_text(text).unwrap()))
}

#[test]
fn a_masked_run_round_trips_through_the_store() {
    use batchgen::store::StoreReader;
    let dir = tempfile::tempdir().unwrap();
    let (path, mask) = masked_store(dir.path(), "....#\n.##..\n.....\n#...#\n");
    let store = StoreReader::open(&path).unwrap();
    assert_eq!(store.mask().map(|m| &**m), Some(&*mask));
    assert_eq!(store.len(), 120);
    let t = common::read(&dir.path().join("mazes.parquet"));
    let (algo, index, hash, seed) = (
        t.col("algo"),
        t.col("index"),
        t.col("maze_hash"),
        t.col("maze_seed"),
    );
    let mut want = Maze::masked(mask.clone());
    let mut s = Scratch::new();
    for k in 0..store.len() {
        let r = store.record(k).unwrap();
        let got = store.maze(k).unwrap();
        // The maze comes back with its mask, equal to regenerating it on the mask.
        assert_eq!(got.mask().map(|m| &**m), Some(&*mask), "record {k}");
        let a = Algorithm::parse(r.algo).unwrap();
        regenerate(&a, &mut want, &mut s, r.seed, r.index);
        assert_eq!(got, want, "record {k}");
        assert!(got.is_perfect(), "record {k}");
        assert_eq!((r.entrance, r.exit), (mask.first(), mask.last()));
        // And the record is the metrics file's row of the same maze.
        let row = &t.rows[k as usize];
        assert_eq!(
            (&*row[algo], row[index].parse::<u64>().unwrap()),
            (r.algo, r.index)
        );
        assert_eq!(row[hash], r.maze_hash.to_string());
        assert_eq!(row[seed], r.maze_seed.to_string());
    }
    // `render --store` draws the record as `render --mask` draws the regenerated maze: holes
    // solid.
    let k = 45;
    let r = store.record(k).unwrap();
    let from_store = common::batchgen()
        .args([
            "render",
            "--store",
            path.to_str().unwrap(),
            "--record",
            &k.to_string(),
        ])
        .output()
        .unwrap();
    common::assert_ok(&from_store);
    let regenerated = common::batchgen()
        .args(["render", "--algo", r.algo, "--mask"])
        .arg(dir.path().join("mask.txt"))
        .args([
            "--index",
            &r.index.to_string(),
            "--seed",
            &r.seed.to_string(),
        ])
        .output()
        .unwrap();
    common::assert_ok(&regenerated);
    assert_eq!(from_store.stdout, regenerated.stdout);
    let text = String::from_utf8(from_store.stdout).unwrap();
    let rows: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
    // The holes (4,0), (1,1), (2,1), (0,3), (4,3) are solid in the picture.
    for (x, y) in [(4, 0), (1, 1), (2, 1), (0, 3), (4, 3)] {
        assert_eq!(rows[2 * y + 1][2 * x + 1], b'#', "({x},{y})\n{text}");
    }
}

/// `bytes` with every occurrence of `from` replaced by `to` (same length); panics if absent.
fn replaced(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut out = bytes.to_vec();
    let mut found = 0;
    let mut i = 0;
    while i + from.len() <= out.len() {
        if &out[i..i + from.len()] == from {
            out[i..i + from.len()].copy_from_slice(to);
            found += 1;
            i += from.len();
        } else {
            i += 1;
        }
    }
    assert!(
        found > 0,
        "{:?} not in the file",
        String::from_utf8_lossy(from)
    );
    out
}

#[test]
fn a_store_whose_mask_metadata_is_tampered_is_refused() {
    use batchgen::store::{StoreError, StoreReader};
    let dir = tempfile::tempdir().unwrap();
    let text = "....\n.##.\n....\n";
    let (path, mask) = masked_store(dir.path(), text);
    let bytes = std::fs::read(&path).unwrap();
    let open = |b: Vec<u8>| StoreReader::from_bytes(b, &path);
    assert!(open(bytes.clone()).is_ok());
    // A hole filled in: the text no longer hashes to the recorded mask_hash.
    let filled = replaced(&bytes, text.as_bytes(), b"....\n..#.\n....\n");
    let e = open(filled.clone()).unwrap_err();
    assert!(matches!(e, StoreError::BadMask { .. }), "{e}");
    assert!(e.to_string().contains("the mask was changed"), "{e}");
    // The hash changed instead of the text.
    let h = mask.hash().to_string();
    let mut other = h.clone().into_bytes();
    other[0] = if other[0] == b'1' { b'2' } else { b'1' };
    let e = open(replaced(&bytes, h.as_bytes(), &other)).unwrap_err();
    assert!(matches!(e, StoreError::BadMask { .. }), "{e}");
    // A mask text that is no mask (a disconnected shape; its hash cannot be checked).
    let e = open(replaced(&bytes, text.as_bytes(), b"..#.\n####\n....\n")).unwrap_err();
    assert!(matches!(e, StoreError::BadMask { .. }), "{e}");
    // The key renamed away: a hash without its mask.
    let e = open(replaced(&bytes, b"batchgen.mask\0", b"batchgen.nask\0")).unwrap_err();
    assert!(matches!(e, StoreError::BadMask { .. }), "{e}");
    // render --store refuses the tampered file with exit 2, naming it.
    let bad = dir.path().join("tampered.arrow");
    std::fs::write(&bad, filled).unwrap();
    let o = common::batchgen()
        .args(["render", "--store", bad.to_str().unwrap(), "--record", "0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("tampered.arrow") && err.contains("mask"),
        "{err}"
    );
}

#[test]
fn a_stored_maze_must_span_the_mask_without_passages_into_holes() {
    use batchgen::store::{Entry, StoreError, StoreInfo, StoreReader, StoreWriter};
    let dir = tempfile::tempdir().unwrap();
    let ring = Arc::new(Mask::from_text("...\n.#.\n...\n").unwrap());
    let mut tree = Maze::masked(ring.clone());
    regenerate(&Algorithm::Wilson, &mut tree, &mut Scratch::new(), 1, 0);
    // A spanning tree of the whole 3×3 grid: passages into the centre.
    let mut full = Maze::new(3, 3);
    regenerate(&Algorithm::Wilson, &mut full, &mut Scratch::new(), 1, 0);
    let path = dir.path().join("s.arrow");
    let info = StoreInfo {
        width: 3,
        height: 3,
        depth: 1,
        seed: 1,
        algos: vec!["wilson".into()],
        ends_rule: "first and last cell".into(),
        mask: Some(ring.clone()),
        braid: 0.0,
    };
    let mut w = StoreWriter::create(&path, &info).unwrap();
    for (maze, entrance) in [(&tree, 0), (&full, 0), (&tree, 4)] {
        w.append(Entry {
            algo: 0,
            index: 0,
            maze_seed: 0,
            maze_hash: maze.hash(),
            entrance,
            exit: 8,
            loops: 0,
            walls: maze.words(),
        })
        .unwrap();
    }
    w.finish().unwrap();
    let store = StoreReader::open(&path).unwrap();
    assert_eq!(store.maze(0).unwrap(), tree);
    let e = store.maze(1).unwrap_err();
    assert!(
        matches!(e, StoreError::BadRecord { record: 1, .. })
            && e.to_string().contains("hole at 1,1"),
        "{e}"
    );
    let e = store.maze(2).unwrap_err();
    assert!(
        matches!(e, StoreError::BadRecord { record: 2, .. })
            && e.to_string().contains("not both cells of the mask"),
        "{e}"
    );
}

/// The rooms-and-corridors level of `data/masks/rooms.txt`.
fn rooms() -> (std::path::PathBuf, Arc<Mask>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/masks/rooms.txt");
    let mask = Mask::from_text(&std::fs::read_to_string(&path).unwrap()).unwrap();
    (path, Arc::new(mask))
}

/// The mask neighbours of `c` (4-neighbours that are mask cells).
fn mask_neighbours(maze: &Maze, c: u32) -> Vec<u32> {
    Dir::PLANAR
        .into_iter()
        .filter(|&d| maze.has_neighbour(c, d) && maze.has_cell(maze.neighbour(c, d)))
        .map(|d| maze.neighbour(c, d))
        .collect()
}

#[test]
fn braiding_inside_a_mask_opens_walls_between_mask_cells_only() {
    let mut s = Scratch::new();
    let mut ms = batchgen::metrics::Scratch::new();
    let mut bs = batchgen::braid::Scratch::new();
    let mut masks: Vec<Arc<Mask>> = hand_made().into_iter().map(Arc::new).collect();
    masks.push(rooms().1);
    for mask in masks {
        let mut maze = Maze::masked(mask.clone());
        let n = mask.cells();
        for a in mask_algorithms() {
            for (i, p) in [(0u64, 1.0), (1, 1.0), (2, 0.5), (3, 0.3)] {
                let seed = regenerate(&a, &mut maze, &mut s, 11, i);
                let opened =
                    batchgen::braid::braid_seeded(&mut maze, Chance::new(p), seed, &mut bs);
                let what = format!("{} maze {i} P = {p}\n{maze:?}", a.name());
                // No passage into a hole, connected, one loop per wall opened.
                assert!(maze.is_connected(), "{what}");
                assert_eq!(maze.passages(), (n - 1 + opened) as u64, "{what}");
                if p == 1.0 {
                    // A dead end left has no other mask neighbour to open towards.
                    for &c in mask.ids() {
                        if maze.degree(c) == 1 {
                            assert_eq!(mask_neighbours(&maze, c).len(), 1, "{c} {what}");
                        }
                    }
                }
                // The metrics are over the mask's cells, as a brute-force recomputation says.
                let ends = Ends::cells(mask.first(), mask.last());
                let m = measure(&maze, ends, &mut ms);
                assert_eq!(m.loops, opened, "{what}");
                assert_eq!(m.cells, n);
                let dead = mask.ids().iter().filter(|&&c| maze.degree(c) == 1).count();
                assert_eq!(m.dead_ends as usize, dead);
                assert_eq!(m.dead_end_share, dead as f64 / n as f64);
                let all: Vec<Vec<Option<u32>>> =
                    mask.ids().iter().map(|&c| distances(&maze, c)).collect();
                let diameter = all.iter().flatten().flatten().copied().max().unwrap();
                assert_eq!(m.diameter, diameter, "{what}");
                let (a0, b0) = (m.diameter_start, m.diameter_end);
                assert!(mask.contains(a0) && mask.contains(b0));
                assert_eq!(distances(&maze, a0)[b0 as usize], Some(diameter));
                assert_eq!(
                    Some(m.solution_length),
                    distances(&maze, mask.first())[mask.last() as usize]
                );
                let d = measure(&maze, Ends::Diameter, &mut ms);
                assert_eq!((d.diameter, d.solution_length), (diameter, diameter));
            }
        }
    }
}

/// A masked run of wilson and backtracker on `data/masks/rooms.txt` with `extra` flags, writing
/// `NAME.parquet` and the store `NAME.arrow` in `dir`.
fn rooms_run(dir: &std::path::Path, name: &str, extra: &[&str]) -> common::Table {
    let (path, _) = rooms();
    let store = dir.join(format!("{name}.arrow"));
    let mut args = vec!["--mask", path.to_str().unwrap()];
    args.extend(["--algo", "wilson,backtracker", "--count", "30", "--mazes"]);
    args.push(store.to_str().unwrap());
    args.extend_from_slice(extra);
    common::run(dir, &format!("{name}.parquet"), &args)
}

#[test]
fn a_braided_masked_run_is_stored_and_rendered() {
    use batchgen::store::StoreReader;
    let dir = tempfile::tempdir().unwrap();
    let (path, mask) = rooms();
    let t = rooms_run(dir.path(), "b", &["--braid", "1"]);
    assert_eq!(t.meta["batchgen.braid"], "1");
    let store = StoreReader::open(&dir.path().join("b.arrow")).unwrap();
    assert_eq!(store.len(), 60);
    let (loops, hash) = (t.col("loops"), t.col("maze_hash"));
    for k in 0..store.len() {
        let r = store.record(k).unwrap();
        let m = store.maze(k).unwrap();
        assert!(r.loops > 0 && m.is_connected(), "record {k}");
        assert_eq!(m.passages(), (mask.cells() - 1 + r.loops) as u64);
        for &c in mask.ids() {
            assert!(m.degree(c) != 1 || mask_neighbours(&m, c).len() == 1);
        }
        let row = &t.rows[k as usize];
        assert_eq!(row[loops], r.loops.to_string());
        assert_eq!(row[hash], r.maze_hash.to_string());
    }
    // `render --mask … --braid …` draws the stored record's walls (and the row's maze).
    let k = 37;
    let r = store.record(k).unwrap();
    let from_store = common::batchgen()
        .args(["render", "--store"])
        .arg(dir.path().join("b.arrow"))
        .args(["--record", &k.to_string()])
        .output()
        .unwrap();
    common::assert_ok(&from_store);
    let regenerated = common::batchgen()
        .args(["render", "--algo", r.algo, "--mask"])
        .arg(&path)
        .args(["--index", &r.index.to_string(), "--braid", "1"])
        .output()
        .unwrap();
    common::assert_ok(&regenerated);
    assert_eq!(from_store.stdout, regenerated.stdout);
    // Both are the library's braided maze on the mask, which is the stored record.
    let mut want = Maze::masked(mask.clone());
    let a = Algorithm::parse(r.algo).unwrap();
    let seed = regenerate(&a, &mut want, &mut Scratch::new(), r.seed, r.index);
    let bs = &mut batchgen::braid::Scratch::new();
    batchgen::braid::braid_seeded(&mut want, Chance::new(1.0), seed, bs);
    assert_eq!(store.maze(k).unwrap(), want);
    let text = String::from_utf8(regenerated.stdout).unwrap();
    assert_eq!(text, batchgen::render::ascii(&want, None).unwrap());
}

#[test]
fn braid_zero_on_a_mask_is_byte_identical_to_no_braid() {
    let dir = tempfile::tempdir().unwrap();
    let a = rooms_run(dir.path(), "a", &[]);
    let b = rooms_run(dir.path(), "b", &["--braid", "0"]);
    assert_eq!(a.without_timing(), b.without_timing());
    assert!(a.f64s("loops").iter().all(|&l| l == 0.0));
    let store = |n: &str| std::fs::read(dir.path().join(n)).unwrap();
    assert_eq!(store("a.arrow"), store("b.arrow"));
}
