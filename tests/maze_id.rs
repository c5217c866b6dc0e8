//! One identity for a maze: every row of a Parquet file the program wrote, read with arrow's
//! Parquet reader and turned into a [`MazeId`] (its columns plus the file's ends rule),
//! regenerates that row's maze *and* its solution, for every `--ends` mode (corners, diameter,
//! explicit `--entrance/--exit`) in 2D and 3D; every record of the run's maze store names the
//! same level. Without the ends rule (`LevelSpec::new`, corners) a diameter row gets another
//! solution, which is what the identity is for. Masked and braided rows carry their
//! `mask_hash` and `braid` into the id, regenerate on the file's `batchgen.mask`, and a wrong or
//! missing mask is refused naming the hash; unmasked, unbraided ids print and parse as before.

use crate::common;

use std::fs::File;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::Float64Type;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::RecordBatch;
use batchgen::grid::{Mask, Size};
use batchgen::store::StoreReader;
use batchgen::{Algorithm, Ends, Level, LevelError, LevelSpec, MazeId};
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
            let corners = LevelSpec::new(id.algo, id.size, id.seed, id.index)
                .build()
                .unwrap();
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

/// A masked run (`--mask`, stored too) and a braided run: every row's id carries the row's
/// `mask_hash` and `braid`, and its level (on the file's `batchgen.mask`) has the row's walls,
/// seed and metrics, loops and shortest-path count included; the id prints and parses back.
#[test]
fn masked_and_braided_rows_regenerate_from_their_ids() {
    let d = tempfile::tempdir().unwrap();
    let mask_path = d.path().join("ring.txt");
    std::fs::write(&mask_path, "......\n.##.#.\n......\n#....#\n").unwrap();
    let mask = Mask::from_text(&std::fs::read_to_string(&mask_path).unwrap()).unwrap();
    let runs: [(&str, Vec<std::ffi::OsString>); 3] = [
        ("masked", vec!["--mask".into(), mask_path.clone().into()]),
        (
            "masked and braided",
            vec![
                "--mask".into(),
                mask_path.clone().into(),
                "--braid".into(),
                "0.7".into(),
            ],
        ),
        (
            "braided",
            vec![
                "--size".into(),
                "7x5".into(),
                "--braid".into(),
                "0.5".into(),
            ],
        ),
    ];
    for (name, args) in runs {
        let (out, store) = (
            d.path().join(format!("{}.parquet", name.replace(' ', "-"))),
            d.path().join(format!("{}.arrow", name.replace(' ', "-"))),
        );
        common::batchgen()
            .args([
                "--algo", "all", "--count", "20", "--seed", "11", "--quiet", "--out",
            ])
            .arg(&out)
            .arg("--mazes")
            .arg(&store)
            .args(&args)
            .assert()
            .success();
        let store = StoreReader::open(&store).unwrap();
        let (mut k, mut loops_seen) = (0u64, 0u64);
        for b in batches(&out) {
            let meta = b.schema().metadata().clone();
            let file_mask = meta
                .get("batchgen.mask")
                .map(|t| std::sync::Arc::new(Mask::from_text(t).unwrap()));
            assert_eq!(file_mask.is_some(), name.starts_with("masked"));
            if let Some(m) = &file_mask {
                assert_eq!(m.hash(), mask.hash());
            }
            let braid = b
                .column_by_name("braid")
                .unwrap()
                .as_primitive::<Float64Type>()
                .clone();
            let (hash, seed, mask_hash) = (
                u64s(&b, "maze_hash"),
                u64s(&b, "maze_seed"),
                u64s(&b, "mask_hash"),
            );
            let (loops, len, cells) = (
                u32s(&b, "loops"),
                u32s(&b, "solution_length"),
                u32s(&b, "cells"),
            );
            let count = u64s(&b, "solution_count");
            for row in 0..b.num_rows() {
                let id = MazeId::from_batch(&b, row).unwrap();
                assert_eq!((id.mask_hash, id.braid), (mask_hash[row], braid.value(row)));
                let ctx = format!("{name}: {id}");
                assert_eq!(id.to_string().parse::<MazeId>().unwrap(), id, "{ctx}");
                let level = id.level_on(file_mask.clone()).unwrap();
                let m = level.metrics();
                assert_eq!(level.maze().hash(), hash[row], "{ctx}");
                assert_eq!(
                    (level.maze_seed(), id.maze_seed()),
                    (seed[row], seed[row]),
                    "{ctx}"
                );
                assert_eq!(
                    (m.loops, m.solution_length, m.cells),
                    (loops[row], len[row], cells[row]),
                    "{ctx}"
                );
                assert_eq!(
                    (m.solution_count, m.braid, m.mask_hash),
                    (count[row], braid.value(row), mask_hash[row]),
                    "{ctx}"
                );
                loops_seen += u64::from(loops[row]);
                // The level's own id, and the store's record, give it back.
                assert_eq!(
                    level.id().level_on(file_mask.clone()).unwrap().maze(),
                    level.maze()
                );
                // The store records the braid chance, so its record is the row's level and
                // its id the row's id, braided records too.
                let stored = Level::from_store(&store, k).unwrap();
                assert_eq!(stored.walls(), level.walls(), "{ctx}");
                assert_eq!(stored.metrics(), m, "{ctx}");
                assert_eq!(stored.id(), level.id(), "{ctx}");
                let sid = MazeId::from_store(&store, k).unwrap();
                assert_eq!(
                    (sid.algo, sid.size, sid.seed, sid.index),
                    (id.algo, id.size, id.seed, id.index),
                    "{ctx}"
                );
                assert_eq!(
                    (sid.mask_hash, sid.braid),
                    (id.mask_hash, id.braid),
                    "{ctx}"
                );
                let again = sid.level_on(store.mask().cloned()).unwrap();
                assert_eq!(
                    (again.maze(), again.metrics()),
                    (stored.maze(), stored.metrics())
                );
                k += 1;
            }
        }
        assert_eq!(k, store.len());
        assert_eq!(
            loops_seen > 0,
            name.ends_with("braided"),
            "{name}: loops {loops_seen}"
        );
    }
}

/// The mask a masked id needs: missing, of another hash, or given to an unmasked id, the
/// error names the hashes.
#[test]
fn a_masked_id_needs_its_own_mask() {
    let mask = std::sync::Arc::new(Mask::from_text("...\n.#.\n...\n").unwrap());
    let other = std::sync::Arc::new(Mask::from_text("...\n...\n..#\n").unwrap());
    let level = LevelSpec::masked(Algorithm::Wilson, mask.clone(), 4, 2)
        .build()
        .unwrap();
    let id = level.id();
    assert_eq!(id.mask_hash, mask.hash());
    let e = id.level().unwrap_err();
    assert!(matches!(e, LevelError::MaskNeeded { .. }), "{e}");
    assert!(e.to_string().contains(&mask.hash().to_string()), "{e}");
    let e = id.level_on(Some(other.clone())).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains(&mask.hash().to_string()) && text.contains(&other.hash().to_string()),
        "{text}"
    );
    let plain = MazeId::new(
        Algorithm::Wilson,
        Size::planar(3, 3),
        4,
        2,
        Ends::corners(3, 3),
    );
    let e = plain.level_on(Some(mask.clone())).unwrap_err();
    assert!(
        matches!(e, LevelError::WrongMask { expected: 0, .. }),
        "{e}"
    );
    assert_eq!(id.level_on(Some(mask)).unwrap().walls(), level.walls());
}

/// Unmasked, unbraided ids print exactly as before masks and braid, and parse back; masked
/// and braided ones add their words; bad text is refused saying why.
#[test]
fn ids_print_and_parse_as_before() {
    let id = MazeId::from_columns("wilson", Size::planar(32, 32), 42, 15, "diameter").unwrap();
    let today = "wilson 32x32 seed 42 index 15, diameter: entrance=diameter_start \
                 exit=diameter_end (a farthest pair)";
    assert_eq!(id.to_string(), today);
    assert_eq!(today.parse::<MazeId>().unwrap(), id);
    let corners = "kruskal 9x7 seed 5 index 3, entrance=0,0 exit=8,6 (x,y; cell id = y*width+x)";
    let id = MazeId::new(
        Algorithm::Kruskal,
        Size::planar(9, 7),
        5,
        3,
        Ends::corners(9, 7),
    );
    assert_eq!(id.to_string(), corners);
    assert_eq!(corners.parse::<MazeId>().unwrap(), id);
    let cube = "wilson 4x3x2 seed 1 index 0, entrance=0,0,0 exit=3,2,1 \
                (x,y,z; cell id = x+width*(y+height*z), layer z=0 on top)";
    let id = MazeId::new(
        Algorithm::Wilson,
        Size::new(4, 3, 2),
        1,
        0,
        Ends::first_last(Size::new(4, 3, 2)),
    );
    assert_eq!(id.to_string(), cube);
    assert_eq!(cube.parse::<MazeId>().unwrap(), id);
    let both = id.on_mask(77).braided(0.25);
    assert_eq!(
        both.to_string(),
        cube.replace("4x3x2 ", "4x3x2 mask 77 braid 0.25 ")
    );
    assert_eq!(both.to_string().parse::<MazeId>().unwrap(), both);
    for bad in [
        "wilson 4x4 seed 1",
        "wilson seed 1 index 2, diameter",
        "wilson 4x4 seed x index 2, diameter",
        "wilson 4x4 braid 2 seed 1 index 2, diameter",
        "wilson 4x4 colour 1 seed 1 index 2, diameter",
    ] {
        let e = bad.parse::<MazeId>().unwrap_err();
        assert!(e.to_string().contains(bad), "{e}");
    }
}
