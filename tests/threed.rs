//! 3D mazes end to end: `--size WxHxD` through the main job, the Parquet file (`depth` column),
//! the maze store, `render`, `summary`, the dataset layout and the Level API. The refusals and
//! parsing are tested in tests/cli.rs, tests/accept.rs, tests/store.rs and tests/dataset.rs.

use crate::common;

use batchgen::grid::Size;
use batchgen::store::StoreReader;
use batchgen::{Algorithm, Level, Maze};
use common::{batchgen, read};
use predicates::str::contains;

const SIZE: Size = Size::new(5, 4, 3);

fn three_d() -> Vec<Algorithm> {
    Algorithm::all()
        .into_iter()
        .filter(|a| a.supports_3d())
        .collect()
}

/// Breadth-first distances from `from` over the open walls (independent of the metric code).
fn distances(m: &Maze, from: u32) -> Vec<u32> {
    common::bfs(&common::adjacency(m), from).0
}

/// A perfect maze: connected, and exactly `cells - 1` passages (checked from the adjacency).
fn assert_perfect(m: &Maze, what: &str) {
    let adj = common::adjacency(m);
    let edges: usize = adj.iter().map(|a| a.len()).sum::<usize>() / 2;
    assert_eq!(edges as u32, m.cells() - 1, "{what}: passages");
    assert!(
        distances(m, 0).iter().all(|&d| d != u32::MAX),
        "{what}: connected"
    );
}

#[test]
fn algo_all_on_a_3d_size_writes_depth_3_rows_of_perfect_mazes() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("cube.parquet");
    let store = d.path().join("cube.arrow");
    batchgen()
        .args([
            "--algo", "all", "--size", "5x4x3", "--count", "50", "--seed", "11",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--mazes")
        .arg(&store)
        .assert()
        .success()
        .stderr(contains("skipping the 2D-only"))
        .stderr(contains(format!(
            "wrote {} mazes (5x4x3)",
            50 * three_d().len()
        )));
    let t = read(&out);
    let algos = three_d();
    assert_eq!(t.rows.len(), 50 * algos.len());
    let c = |n: &str| t.col(n);
    let mut s = batchgen::generate::Scratch::new();
    for (k, r) in t.rows.iter().enumerate() {
        let algo = &algos[k / 50];
        assert_eq!(r[c("algo")], algo.name());
        assert_eq!(
            (&r[c("width")][..], &r[c("height")][..], &r[c("depth")][..]),
            ("5", "4", "3")
        );
        let index: u64 = r[c("index")].parse().unwrap();
        assert_eq!(index, (k % 50) as u64);
        let mut m = Maze::with_size(SIZE);
        let maze_seed = batchgen::generate::regenerate(algo, &mut m, &mut s, 11, index);
        assert_eq!(r[c("maze_seed")], maze_seed.to_string());
        assert_eq!(r[c("maze_hash")], m.hash().to_string());
        assert_perfect(&m, &format!("{} #{index}", algo.name()));
        // The default ends are the first and the last cell; lengths from an independent BFS.
        let dist = distances(&m, 0);
        assert_eq!(r[c("solution_length")], dist[59].to_string());
        let tort: f64 = r[c("tortuosity")].parse().unwrap();
        assert!((tort - dist[59] as f64 / 9.0).abs() < 1e-12, "{tort}");
    }
    assert!(t.meta["batchgen.ends"].starts_with("entrance=0,0,0 exit=4,3,2"));
    assert_eq!(t.meta["batchgen.size"], "5x4x3");

    // The store holds the same mazes, with depth 3; a stored level is the row's maze.
    let st = StoreReader::open(&store).unwrap();
    assert_eq!(st.size(), SIZE);
    assert_eq!(st.len(), t.rows.len() as u64);
    for k in (0..st.len()).step_by(7) {
        let rec = st.record(k).unwrap();
        assert_eq!(rec.depth, 3);
        let m = st.maze(k).unwrap();
        let row = &t.rows[k as usize];
        assert_eq!(row[c("maze_hash")], m.hash().to_string());
        let level = Level::from_store(&st, k).unwrap();
        assert_eq!(
            row[c("solution_length")],
            level.metrics().solution_length.to_string()
        );
        assert_eq!(level.depth(), 3);
        // Regenerating from the row's identifiers gives the same level.
        let algo = Algorithm::parse(rec.algo).unwrap();
        let again = batchgen::LevelSpec::new(algo, SIZE, 11, rec.index)
            .build()
            .unwrap();
        assert_eq!(again.maze(), &m);
        assert_eq!(again.metrics(), level.metrics());
        assert_eq!(
            again.solution().len() as u32,
            level.metrics().solution_length + 1
        );
        for p in again.solution().windows(2) {
            let (x, y, z) = again.xyz(p[0]);
            let moved = batchgen::Dir::ALL
                .into_iter()
                .any(|dir| again.can_move_at(x, y, z, dir) && m.neighbour(p[0], dir) == p[1]);
            assert!(moved, "the solution steps through open walls");
        }
    }

    // render --store of a 3D record, with its solution.
    batchgen()
        .args(["render", "--store"])
        .arg(&store)
        .args(["--record", "3", "--solution", "--format", "ascii"])
        .assert()
        .success();

    // summary groups by size and prints it as WxHxD.
    batchgen()
        .arg("summary")
        .arg(&out)
        .args(["--by", "size"])
        .assert()
        .success()
        .stdout(contains("5x4x3"));
}

#[test]
fn render_a_3d_maze_and_parse_it_back() {
    for algo in three_d() {
        let name = algo.name();
        let a = batchgen()
            .args(["render", "--algo", &name, "--size", "5x4x3", "--index", "4"])
            .args(["--format", "ascii"])
            .assert()
            .success();
        let text = String::from_utf8(a.get_output().stdout.clone()).unwrap();
        let want = batchgen::generate::regenerated(&algo, SIZE, 42, 4);
        let (back, _) = batchgen::render::parse_ascii(&text).unwrap();
        assert_eq!(back, want, "{name}");
        for format in ["unicode", "svg"] {
            batchgen()
                .args(["render", "--algo", &name, "--size", "5x4x3", "--index", "4"])
                .args(["--format", format, "--solution"])
                .assert()
                .success();
        }
    }
    let d = tempfile::tempdir().unwrap();
    let png = d.path().join("cube.png");
    batchgen()
        .args([
            "render", "--algo", "wilson", "--size", "5x4x3", "--index", "1", "-o",
        ])
        .arg(&png)
        .assert()
        .success();
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}

#[test]
fn ends_accept_and_datasets_in_3d() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("e.parquet");
    batchgen()
        .args([
            "--algo",
            "wilson,backtracker",
            "--size",
            "4x4x4",
            "--count",
            "40",
        ])
        .args(["--entrance", "0,0,3", "--exit", "3,3,0"])
        .args(["--accept", "depth = 4 AND solution_length >= 9", "--quiet"])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let t = read(&out);
    assert_eq!(t.rows.len(), 80);
    assert!(t.meta["batchgen.ends"].starts_with("entrance=0,0,3 exit=3,3,0"));
    let size = Size::new(4, 4, 4);
    let (entrance, exit) = (size.cell(0, 0, 3), size.cell(3, 3, 0));
    for r in &t.rows {
        let algo = Algorithm::parse(&r[t.col("algo")]).unwrap();
        let index = r[t.col("index")].parse().unwrap();
        let m = batchgen::generate::regenerated(&algo, size, 42, index);
        assert_eq!(
            r[t.col("solution_length")],
            distances(&m, entrance)[exit as usize].to_string()
        );
    }
    // A 3D dataset with real mazes passes `batchgen check`.
    let dir = d.path().join("ds");
    let dir_arg = format!("{}/", dir.display());
    batchgen()
        .args([
            "--algo",
            "kruskal,prim",
            "--size",
            "3x3x3",
            "--count",
            "30",
            "--quiet",
        ])
        .args(["--out", &dir_arg, "--mazes", &dir_arg])
        .assert()
        .success();
    batchgen()
        .arg("check")
        .arg(&dir)
        .assert()
        .success()
        .stdout(contains("complete: 2 partitions"));
}
