//! One identity for a maze: every row of a Parquet file the program wrote, read with arrow's
//! Parquet reader and turned into a [`MazeId`] (its columns plus the file's ends rule),
//! regenerates that row's maze *and* its solution, for every `--ends` mode (corners, diameter,
//! explicit `--entrance/--exit`) in 2D and 3D; every record of the run's maze store names the
//! same level. Without the ends rule (`Level::regenerate`, corners) a diameter row gets another
//! solution, which is what the identity is for.

use crate::common;

use std::fs::File;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::RecordBatch;
use batchgen::store::StoreReader;
use batchgen::{Ends, Level, MazeId};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// The file's batches, each with the file's schema: arrow's reader keeps the key-value metadata
/// (the ends rule among it) in the builder's schema, not in the batches it decodes.
fn batches(path: &Path) -> Vec<RecordBatch> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let schema = builder.schema().clone();
    builder
        .build()
        .unwrap()
        .map(|b| b.unwrap().with_schema(schema.clone()).unwrap())
        .collect()
}

fn u32s(b: &RecordBatch, name: &str) -> Vec<u32> {
    let c = b.column_by_name(name).unwrap().as_primitive::<UInt32Type>();
    c.values().to_vec()
}

fn u64s(b: &RecordBatch, name: &str) -> Vec<u64> {
    let c = b.column_by_name(name).unwrap().as_primitive::<UInt64Type>();
    c.values().to_vec()
}

/// Run the program with `args`, then check every row and store record; returns how many rows
/// the corners would have solved differently.
fn check_run(size: &str, args: &[&str]) -> usize {
    let d = tempfile::tempdir().unwrap();
    let (out, store) = (d.path().join("m.parquet"), d.path().join("m.arrow"));
    common::batchgen()
        .args([
            "--algo", "all", "--size", size, "--count", "25", "--seed", "5",
        ])
        .args(["--quiet", "--out"])
        .arg(&out)
        .arg("--mazes")
        .arg(&store)
        .args(args)
        .assert()
        .success();
    let store = StoreReader::open(&store).unwrap();
    let mut k = 0u64;
    let mut differ = 0;
    for b in batches(&out) {
        let hash = u64s(&b, "maze_hash");
        let seed = u64s(&b, "maze_seed");
        let (len, turns) = (u32s(&b, "solution_length"), u32s(&b, "solution_turns"));
        let (decisions, diameter) = (u32s(&b, "solution_decisions"), u32s(&b, "diameter"));
        for row in 0..b.num_rows() {
            let id = MazeId::from_batch(&b, row).unwrap();
            let rule = b.schema().metadata()["batchgen.ends"].clone();
            assert_eq!(MazeId::from_batch_with_rule(&b, row, &rule).unwrap(), id);
            let level = id.level().unwrap();
            let m = level.metrics();
            let ctx = format!("{size} {args:?}: {id}");
            assert_eq!(level.maze().hash(), hash[row], "{ctx}");
            assert_eq!((level.maze_seed(), id.maze_seed()), (seed[row], seed[row]));
            assert_eq!(
                (m.solution_length, m.solution_turns, m.solution_decisions),
                (len[row], turns[row], decisions[row]),
                "{ctx}"
            );
            assert_eq!(m.diameter, diameter[row], "{ctx}");
            assert_eq!(level.solution().len() as u32, len[row] + 1, "{ctx}");
            // The store record of this row names the same level: walls and solution.
            let from_store = MazeId::from_store(&store, k).unwrap();
            assert_eq!((from_store.algo, from_store.index), (id.algo, id.index));
            let stored = from_store.level().unwrap();
            assert_eq!(stored.walls(), store.record(k).unwrap().walls, "{ctx}");
            assert_eq!(stored.walls(), level.walls(), "{ctx}");
            assert_eq!(stored.solution(), level.solution(), "{ctx}");
            assert_eq!(
                Level::from_store(&store, k).unwrap().solution(),
                level.solution()
            );
            // A level's own id gives it back.
            assert_eq!(level.id().level().unwrap().solution(), level.solution());
            // The corners only (the identifiers without the ends rule).
            let corners =
                Level::regenerate_sized(&id.algo.name(), id.size, id.seed, id.index).unwrap();
            assert_eq!(corners.maze(), level.maze(), "{ctx}");
            differ += usize::from(corners.solution() != level.solution());
            k += 1;
        }
    }
    assert_eq!(k, store.len(), "one store record per row");
    differ
}

#[test]
fn rows_regenerate_their_maze_and_solution_under_every_ends_mode() {
    for (size, entrance, exit) in [("9x7", "2,1", "6,5"), ("5x4x3", "1,0,2", "4,3,0")] {
        assert_eq!(check_run(size, &[]), 0, "{size}: corners are the default");
        assert_eq!(check_run(size, &["--ends", "corners"]), 0, "{size}");
        let explicit = check_run(size, &["--entrance", entrance, "--exit", exit]);
        assert!(
            explicit > 0,
            "{size}: explicit ends differ from the corners"
        );
        let diameter = check_run(size, &["--ends", "diameter"]);
        assert!(
            diameter > 0,
            "{size}: a longest path is rarely corner to corner"
        );
    }
}

#[test]
fn a_row_without_its_ends_rule_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("m.parquet");
    common::batchgen()
        .args([
            "--algo", "kruskal", "--size", "6x4", "--count", "3", "--quiet",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let b = batches(&out).remove(0);
    let bare = RecordBatch::try_new(
        std::sync::Arc::new(
            b.schema()
                .as_ref()
                .clone()
                .with_metadata(std::collections::HashMap::<String, String>::new()),
        ),
        b.columns().to_vec(),
    )
    .unwrap();
    let e = MazeId::from_batch(&bare, 0).unwrap_err();
    assert!(e.to_string().contains("batchgen.ends"), "{e}");
    let e = MazeId::from_batch(&b, 3).unwrap_err();
    assert!(e.to_string().contains("row 3"), "{e}");
    assert_eq!(MazeId::from_batch(&b, 2).unwrap().ends, Ends::corners(6, 4));
}
