//! Braided mazes: the braid pass (no dead end at P = 1, one loop per wall opened, the perfect
//! maze underneath unchanged) and every metric of a maze with loops against an independent
//! brute-force recomputation on small grids (all-pairs BFS, enumerated shortest paths), plus the
//! `--braid` flag end to end.

use crate::common;
use common::{adjacency, batchgen, read};

use std::collections::VecDeque;

use batchgen::braid;
use batchgen::generate::{self, Scratch};
use batchgen::{metrics, Algorithm, Chance, Dir, Ends, Maze, Size};
use proptest::prelude::*;

fn bfs(adj: &[Vec<u32>], from: u32, blocked: Option<u32>) -> Vec<u32> {
    let mut dist = vec![u32::MAX; adj.len()];
    dist[from as usize] = 0;
    let mut q = VecDeque::from([from]);
    while let Some(v) = q.pop_front() {
        for &n in &adj[v as usize] {
            if dist[n as usize] == u32::MAX && Some(n) != blocked {
                dist[n as usize] = dist[v as usize] + 1;
                q.push_back(n);
            }
        }
    }
    dist
}

/// Simple paths from `v` to `t` of exactly `left` more edges (so, shortest ones when `left` is
/// the distance), by exhaustive search.
fn count_paths(adj: &[Vec<u32>], v: u32, t: u32, left: u32, seen: &mut Vec<bool>) -> u64 {
    if v == t {
        return (left == 0) as u64;
    }
    if left == 0 {
        return 0;
    }
    seen[v as usize] = true;
    let mut k = 0;
    for &n in &adj[v as usize] {
        if !seen[n as usize] {
            k += count_paths(adj, n, t, left - 1, seen);
        }
    }
    seen[v as usize] = false;
    k
}

/// A braided maze of `size`: generator `algo`, maze seed `seed`, chance `p`; and the walls the
/// pass opened.
fn braided(algo: &Algorithm, size: Size, seed: u64, p: f64) -> (Maze, u32) {
    let mut m = Maze::with_size(size);
    generate::generate_seeded(algo, &mut m, &mut Scratch::new(), seed);
    let opened = braid::braid_seeded(&mut m, Chance::new(p), seed, &mut braid::Scratch::new());
    (m, opened)
}

/// Every column of `measure` on `m` against its definition, computed the slow way.
fn brute_force_check(m: &Maze, ends: Ends, opened: u32) {
    let mut s = metrics::Scratch::new();
    let got = metrics::measure(m, ends, &mut s);
    let adj = adjacency(m);
    let n = m.cells() as usize;
    let deg = common::assert_degree_columns(m, &adj, &got);
    let passages: usize = deg.iter().sum::<usize>() / 2;
    assert_eq!(got.loops as usize, passages + 1 - n);
    assert_eq!(got.loops, opened);
    // Diameter: BFS from every cell.
    let all: Vec<Vec<u32>> = (0..n as u32).map(|c| bfs(&adj, c, None)).collect();
    assert!(all[0].iter().all(|&d| d != u32::MAX), "connected");
    let diameter = all.iter().flatten().copied().max().unwrap();
    assert_eq!(got.diameter, diameter);
    assert_eq!(
        all[got.diameter_start as usize][got.diameter_end as usize],
        diameter
    );
    let (a, b) = ends.cells_of(&got);
    let length = all[a as usize][b as usize];
    assert_eq!(got.solution_length, length);
    // The number of shortest paths, by enumeration.
    let count = count_paths(&adj, a, b, length, &mut vec![false; n]);
    assert_eq!(got.solution_count, count);
    // The canonical path: a shortest path from the entrance to the exit.
    let path = s.solution_path();
    assert_eq!(path.len() as u32, length + 1);
    assert_eq!((path[0], *path.last().unwrap()), (a, b));
    for pair in path.windows(2) {
        assert!(adj[pair[0] as usize].contains(&pair[1]));
    }
    let steps: Vec<i64> = path.windows(2).map(|p| p[1] as i64 - p[0] as i64).collect();
    let turns = steps.windows(2).filter(|w| w[0] != w[1]).count();
    assert_eq!(got.solution_turns as usize, turns);
    // Decisions and branches: openings of the path cells (exit excluded) off the path.
    let on: Vec<bool> = (0..n as u32).map(|c| path.contains(&c)).collect();
    let offs: Vec<usize> = path[..path.len() - 1]
        .iter()
        .map(|&c| adj[c as usize].iter().filter(|&&u| !on[u as usize]).count())
        .collect();
    assert_eq!(got.solution_branches as usize, offs.iter().sum::<usize>());
    assert_eq!(
        got.solution_decisions as usize,
        offs.iter().filter(|&&k| k > 0).count()
    );
    // Branch cells: parts of the maze without the path, touching a path cell but the exit.
    let mut best_cells = 0;
    let mut part = vec![usize::MAX; n];
    for c in 0..n {
        if on[c] || part[c] != usize::MAX {
            continue;
        }
        let mut cells = vec![c as u32];
        part[c] = c;
        let mut i = 0;
        while i < cells.len() {
            for &u in &adj[cells[i] as usize] {
                if !on[u as usize] && part[u as usize] == usize::MAX {
                    part[u as usize] = c;
                    cells.push(u);
                }
            }
            i += 1;
        }
        let touches = cells
            .iter()
            .any(|&v| adj[v as usize].iter().any(|&u| on[u as usize] && u != b));
        if touches && path.len() > 1 {
            best_cells = best_cells.max(cells.len());
        }
    }
    assert_eq!(got.max_branch_cells as usize, best_cells);
    // Branch depth: the farthest cell from the path (the exit blocking).
    let mut depth = 0;
    if path.len() > 1 {
        for v in 0..n as u32 {
            let d = bfs(&adj, v, Some(b));
            if v == b {
                continue;
            }
            let near = path[..path.len() - 1]
                .iter()
                .map(|&c| d[c as usize])
                .min()
                .unwrap();
            if near != u32::MAX {
                depth = depth.max(near);
            }
        }
    }
    assert_eq!(got.max_branch_depth, depth);
    // Dead-end length: the forced walk to the first cell that is not a corridor.
    let mut sum = 0u64;
    for d in (0..n).filter(|&c| deg[c] == 1) {
        let (mut prev, mut cur) = (d, adj[d][0] as usize);
        sum += 1;
        while deg[cur] == 2 {
            let next = adj[cur].iter().map(|&u| u as usize).find(|&u| u != prev);
            prev = cur;
            cur = next.unwrap();
            sum += 1;
        }
    }
    let dead = got.dead_ends as f64;
    let mean = if got.dead_ends == 0 {
        0.0
    } else {
        sum as f64 / dead
    };
    assert_eq!(got.mean_dead_end_length, mean);
    if got.loops > 0 {
        assert_eq!(got.walk_steps, 0);
    }
}

const MASKLESS: [Algorithm; 4] = [
    Algorithm::Wilson,
    Algorithm::Backtracker,
    Algorithm::Kruskal,
    Algorithm::BinaryTree,
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn braided_metrics_equal_brute_force(
        w in 1u32..7, h in 1u32..7, seed in any::<u64>(), algo in 0usize..4, p in 0.0f64..=1.0,
    ) {
        let (m, opened) = braided(&MASKLESS[algo], Size::planar(w, h), seed, p);
        let size = m.size();
        brute_force_check(&m, Ends::first_last(size), opened);
        brute_force_check(&m, Ends::Diameter, opened);
        let (e, x) = ((seed % size.cells() as u64) as u32, (seed >> 32) as u32 % size.cells());
        brute_force_check(&m, Ends::cells(e, x), opened);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// The diameter on larger mazes (where its search takes many steps) against BFS from
    /// every cell.
    #[test]
    fn braided_diameter_equals_brute_force_on_larger_mazes(
        w in 8u32..28, h in 8u32..28, seed in any::<u64>(), algo in 0usize..4, p in 0.0f64..=1.0,
    ) {
        let (m, _) = braided(&MASKLESS[algo], Size::planar(w, h), seed, p);
        let adj = adjacency(&m);
        let diameter = (0..m.cells()).flat_map(|c| bfs(&adj, c, None)).max().unwrap();
        let got = metrics::measure(&m, Ends::first_last(m.size()), &mut metrics::Scratch::new());
        prop_assert_eq!(got.diameter, diameter);
        prop_assert_eq!(bfs(&adj, got.diameter_start, None)[got.diameter_end as usize], diameter);
    }
}

#[test]
fn braided_3d_metrics_equal_brute_force() {
    for seed in 0..20 {
        let (m, opened) = braided(&Algorithm::Backtracker, Size::new(3, 3, 3), seed, 1.0);
        assert!(opened > 0);
        brute_force_check(&m, Ends::first_last(m.size()), opened);
    }
}

#[test]
fn full_braid_leaves_no_dead_end() {
    for algo in Algorithm::all() {
        for (w, h) in [(2, 2), (16, 16), (31, 7)] {
            let (m, opened) = braided(&algo, Size::planar(w, h), 5, 1.0);
            let got = metrics::measure(&m, Ends::corners(w, h), &mut metrics::Scratch::new());
            assert_eq!(got.dead_ends, 0, "{} {w}x{h}", algo.name());
            assert_eq!(got.loops, opened);
        }
    }
}

#[test]
fn an_open_grid_has_many_shortest_paths() {
    // Every wall of a 4×3 grid open: C(5, 2) = 10 monotone paths corner to corner.
    let mut m = Maze::new(4, 3);
    m.open_all();
    let got = metrics::measure(&m, Ends::corners(4, 3), &mut metrics::Scratch::new());
    assert_eq!((got.solution_count, got.loops, got.diameter), (10, 6, 5));
    // The counts saturate instead of overflowing: C(126, 63) > 2^64 on a 64×64 open grid.
    let mut m = Maze::new(64, 64);
    m.open_all();
    let got = metrics::measure(&m, Ends::corners(64, 64), &mut metrics::Scratch::new());
    assert_eq!(got.solution_count, u64::MAX);
    assert_eq!(got.diameter, 126);
}

#[test]
fn a_disconnected_maze_is_still_refused() {
    let mut m = Maze::new(3, 1);
    m.open_all();
    let mut cut = Maze::new(3, 3);
    for c in 0..2 {
        cut.carve(c, Dir::East);
    }
    let r = std::panic::catch_unwind(|| {
        metrics::measure(&cut, Ends::corners(3, 3), &mut metrics::Scratch::new())
    });
    assert!(r.is_err());
}

// ---- the command line ----

fn run(dir: &std::path::Path, name: &str, extra: &[&str]) -> common::Table {
    let out = dir.join(name);
    let mut args = vec![
        "--algo",
        "wilson,backtracker,eller",
        "--size",
        "12x9",
        "--count",
        "40",
        "--seed",
        "7",
        "--threads",
        "2",
        "-q",
        "--out",
    ];
    args.push(out.to_str().unwrap());
    args.extend_from_slice(extra);
    batchgen().args(&args).assert().success();
    read(&out)
}

#[test]
fn braid_zero_gives_the_same_rows_and_mazes() {
    let dir = tempfile::tempdir().unwrap();
    let (a_store, b_store) = (dir.path().join("a.arrow"), dir.path().join("b.arrow"));
    let a = run(
        dir.path(),
        "a.parquet",
        &["--mazes", a_store.to_str().unwrap()],
    );
    let b = run(
        dir.path(),
        "b.parquet",
        &["--braid", "0", "--mazes", b_store.to_str().unwrap()],
    );
    assert_eq!(a.without_timing(), b.without_timing());
    assert_eq!(a.f64s("braid"), vec![0.0; 120]);
    assert_eq!(a.f64s("loops"), vec![0.0; 120]);
    assert_eq!(a.f64s("solution_count"), vec![1.0; 120]);
    assert_eq!(
        std::fs::read(&a_store).unwrap(),
        std::fs::read(&b_store).unwrap()
    );
}

#[test]
fn braided_rows_keep_the_perfect_maze_seed_and_have_loops() {
    let dir = tempfile::tempdir().unwrap();
    let a = run(dir.path(), "a.parquet", &[]);
    let b = run(dir.path(), "b.parquet", &["--braid", "1"]);
    let col = |t: &common::Table, n: &str| -> Vec<String> {
        let c = t.col(n);
        t.rows.iter().map(|r| r[c].clone()).collect()
    };
    assert_eq!(col(&a, "maze_seed"), col(&b, "maze_seed"));
    assert_eq!(b.f64s("braid"), vec![1.0; 120]);
    assert!(b.f64s("dead_ends").iter().all(|&d| d == 0.0));
    assert!(b.f64s("loops").iter().all(|&l| l > 0.0));
    // walk_steps is NULL where there are loops.
    assert!(col(&b, "walk_steps").iter().all(|v| v == "null"));
    // A filter on the new columns keeps exactly the rows that pass it.
    let c = run(
        dir.path(),
        "c.parquet",
        &[
            "--braid",
            "0.5",
            "--accept",
            "loops >= 10 AND solution_count >= 2 AND walk_steps IS NULL",
        ],
    );
    assert_eq!(c.rows.len(), 120);
    assert!(c.f64s("loops").iter().all(|&l| l >= 10.0));
    assert!(c.f64s("solution_count").iter().all(|&k| k >= 2.0));
}

#[test]
fn bad_braid_values_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    for bad in ["1.5", "nan", "-0.1", "inf", "half"] {
        let out = dir.path().join("x.parquet");
        let a = batchgen()
            .args(["--braid", bad, "--out", out.to_str().unwrap()])
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
        assert!(err.contains("--braid") && err.contains(bad), "{bad}: {err}");
        assert!(!out.exists());
    }
}

#[test]
fn the_store_holds_braided_mazes_checks_their_loops_and_regenerates_them() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("m.arrow");
    let t = run(
        dir.path(),
        "m.parquet",
        &["--braid", "0.6", "--mazes", store.to_str().unwrap()],
    );
    assert_eq!(t.meta["batchgen.braid"], "0.6");
    let r = batchgen::store::StoreReader::open(&store).unwrap();
    let loops = t.f64s("loops");
    let mut scratch = metrics::Scratch::new();
    for (k, want) in loops.iter().enumerate() {
        let rec = r.record(k as u64).unwrap();
        assert_eq!(rec.loops as f64, *want);
        let m = r.maze(k as u64).unwrap();
        let ends = Ends::cells(rec.entrance, rec.exit);
        assert_eq!(metrics::measure(&m, ends, &mut scratch).loops, rec.loops);
    }
    assert!(loops.iter().any(|&l| l > 0.0));
    // The store says its chance, so a record's identifiers make its maze: the level read from
    // the store, the level of its id (printed and parsed back) and `render --braid P` of its
    // row are the record, and `render --store` draws the same.
    assert_eq!(r.braid(), Some(0.6));
    for k in 0..r.len() {
        let row = &t.rows[k as usize];
        let stored = batchgen::Level::from_store(&r, k).unwrap();
        assert_eq!((stored.braid(), stored.metrics().braid), (0.6, 0.6));
        assert_eq!(
            stored.metrics().maze_hash.to_string(),
            row[t.col("maze_hash")]
        );
        let id = batchgen::MazeId::from_store(&r, k).unwrap();
        let parsed: batchgen::MazeId = id.to_string().parse().unwrap();
        assert_eq!(parsed, id);
        let again = parsed.level().unwrap();
        assert_eq!(
            (again.maze(), again.metrics()),
            (stored.maze(), stored.metrics())
        );
    }
    // At the command line, for a record with loops of each generator.
    for algo in ["wilson", "backtracker", "eller"] {
        let k = (0..r.len())
            .find(|&k| {
                let rec = r.record(k).unwrap();
                rec.algo == algo && rec.loops > 0
            })
            .unwrap();
        let index = r.record(k).unwrap().index.to_string();
        let picture = |args: &[&str]| {
            let a = batchgen()
                .arg("render")
                .args(args)
                .args(["--solution", "--format", "ascii"])
                .assert()
                .success();
            a.get_output().stdout.clone()
        };
        let from_store = picture(&[
            "--store",
            store.to_str().unwrap(),
            "--record",
            &k.to_string(),
        ]);
        let regenerated = picture(&[
            "--algo", algo, "--size", "12x9", "--seed", "7", "--index", &index, "--braid", "0.6",
        ]);
        assert_eq!(
            String::from_utf8_lossy(&from_store),
            String::from_utf8_lossy(&regenerated),
            "{algo} record {k}"
        );
    }
}

#[test]
fn check_sees_shards_of_different_braids() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds/");
    let out_s = out.to_str().unwrap();
    for (k, p) in [("1/2", "0.5"), ("2/2", "0.25")] {
        batchgen()
            .args(["--algo", "wilson", "--size", "8x8", "--count", "10", "-q"])
            .args(["--shard", k, "--braid", p, "--out", out_s])
            .assert()
            .success();
    }
    let a = batchgen().args(["check", out_s]).assert().code(1);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(text.contains("batchgen.braid"), "{text}");
}

#[test]
fn the_uniformity_lab_refuses_braid() {
    let a = batchgen()
        .args(["uniformity", "--size", "2x2", "--braid", "0.5"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(err.contains("--braid") && err.contains("0.5"), "{err}");
    assert!(a.get_output().stdout.is_empty());
}

#[test]
fn render_draws_the_braided_maze_of_a_row() {
    // `render --braid` draws the maze the batch measured: parse the picture back and compare
    // walls and metrics with the row of the same identifiers.
    let dir = tempfile::tempdir().unwrap();
    let t = run(dir.path(), "r.parquet", &["--braid", "0.7"]);
    let a = batchgen()
        .args([
            "render", "--algo", "wilson", "--size", "12x9", "--seed", "7",
        ])
        .args(["--index", "5", "--braid", "0.7", "--format", "ascii"])
        .assert()
        .success();
    let text = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    let (m, _) = batchgen::render::parse_ascii(&text).unwrap();
    let (want, _) = braided(
        &Algorithm::Wilson,
        Size::planar(12, 9),
        batchgen::rng::maze_seed(7, "wilson", 12, 9, 5),
        0.7,
    );
    assert_eq!(m, want);
    let got = metrics::measure(&m, Ends::corners(12, 9), &mut metrics::Scratch::new());
    let (algo, index) = (t.col("algo"), t.col("index"));
    let row = t
        .rows
        .iter()
        .find(|r| r[algo] == "wilson" && r[index] == "5")
        .unwrap();
    assert_eq!(row[t.col("maze_hash")], got.maze_hash.to_string());
    assert_eq!(row[t.col("loops")], got.loops.to_string());
    assert!(got.loops > 0);
}
