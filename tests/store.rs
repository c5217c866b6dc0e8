//! The maze store: every record read back through the mmap reader equals the maze regenerated
//! from its (algo, index, seed) and matches its Parquet row; truncated and foreign files are
//! refused; the Python reader in `data/read_store.py` (numpy.memmap) reads the same walls.

mod common;

use batchgen::generate::{regenerate, Scratch};
use batchgen::store::{StoreError, StoreReader};
use batchgen::{rng, Algorithm, Maze};

fn make_store(dir: &std::path::Path, extra: &[&str]) -> (std::path::PathBuf, common::Table) {
    let store = dir.join("mazes.bgm");
    let out = dir.join("m.parquet");
    common::batchgen()
        .args([
            "--algo",
            "backtracker,wilson,kruskal",
            "--size",
            "9x6",
            "--count",
            "40",
        ])
        .args(["--seed", "77", "--quiet", "--mazes"])
        .arg(&store)
        .arg("--out")
        .arg(&out)
        .args(extra)
        .assert()
        .success();
    (store, common::read(&out))
}

#[test]
fn records_equal_regenerated_mazes_and_parquet_rows() {
    let d = tempfile::tempdir().unwrap();
    let (path, table) = make_store(d.path(), &["--accept", "dead_ends >= 12"]);
    let store = StoreReader::open(&path).unwrap();
    assert_eq!((store.width, store.height, store.seed), (9, 6, 77));
    assert_eq!(store.seeding_scheme, rng::SEEDING_SCHEME);
    assert_eq!(store.len(), 120);
    assert_eq!(table.rows.len(), 120);
    let (algo_c, idx_c, seed_c, hash_c) = (
        table.col("algo"),
        table.col("index"),
        table.col("maze_seed"),
        table.col("maze_hash"),
    );
    let mut scratch = Scratch::new();
    for k in 0..store.len() {
        let rec = store.record(k).unwrap();
        let row = &table.rows[k as usize];
        assert_eq!(rec.algo, row[algo_c]);
        assert_eq!(rec.index.to_string(), row[idx_c]);
        assert_eq!(rec.maze_seed.to_string(), row[seed_c]);
        let algo = Algorithm::parse(rec.algo).unwrap();
        let mut regenerated = Maze::new(9, 6);
        let ms = regenerate(&algo, &mut regenerated, &mut scratch, 77, rec.index);
        assert_eq!(rec.maze_seed, ms);
        assert_eq!(rec.walls, regenerated.words());
        let maze = store.maze(k).unwrap();
        assert_eq!(maze, regenerated);
        assert_eq!(maze.hash().to_string(), row[hash_c]);
        assert!(maze.is_perfect());
    }
    assert!(matches!(
        store.record(120),
        Err(StoreError::NoSuchRecord {
            record: 120,
            count: 120
        })
    ));
}

#[test]
fn truncated_and_foreign_files_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let (path, _) = make_store(d.path(), &[]);
    let bytes = std::fs::read(&path).unwrap();
    let cut = d.path().join("cut.bgm");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let e = StoreReader::open(&cut).unwrap_err();
    assert!(matches!(e, StoreError::Truncated { count: 120, .. }), "{e}");
    assert!(e.to_string().contains("truncated"));
    let short = d.path().join("short.bgm");
    std::fs::write(&short, &bytes[..30]).unwrap();
    assert!(StoreReader::open(&short).is_err());
    let foreign = d.path().join("m.parquet");
    let e = StoreReader::open(&foreign).unwrap_err();
    assert!(matches!(e, StoreError::Foreign { .. }), "{e}");
    assert!(e.to_string().contains("not a batchgen maze store"));
    let mut v2 = bytes.clone();
    v2[8] = 2;
    let newer = d.path().join("v2.bgm");
    std::fs::write(&newer, &v2).unwrap();
    assert!(StoreReader::open(&newer)
        .unwrap_err()
        .to_string()
        .contains("version 2"));
}

#[test]
fn the_python_numpy_reader_sees_the_same_mazes() {
    let d = tempfile::tempdir().unwrap();
    let (path, _) = make_store(d.path(), &[]);
    let store = StoreReader::open(&path).unwrap();
    let out = std::process::Command::new(common::python())
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/data/read_store.py"))
        .arg(&path)
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("{\"width\": 9, \"height\": 6, \"count\": 120, \"seed\": 77"));
    // Rebuild the expected per-record JSON fragments from the Rust reader.
    for k in 0..store.len() {
        let r = store.record(k).unwrap();
        let m = store.maze(k).unwrap();
        let cells: Vec<String> = (0..m.cells())
            .map(|c| {
                let s = format!(
                    "{}{}",
                    if m.east_open(c) { "E" } else { "" },
                    if m.south_open(c) { "S" } else { "" }
                );
                format!("\"{}\"", if s.is_empty() { "-".into() } else { s })
            })
            .collect();
        let want = format!(
            "{{\"record\": {k}, \"algo\": \"{}\", \"index\": {}, \"maze_seed\": {}, \"passages\": 53, \"cells\": [{}]}}",
            r.algo,
            r.index,
            r.maze_seed,
            cells.join(", ")
        );
        assert!(text.contains(&want), "record {k}: {want}");
    }
}
