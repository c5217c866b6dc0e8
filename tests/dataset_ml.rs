//! `batchgen dataset-ml` end to end (maze-dataset interop and the Hugging Face / polars
//! readers are in `tests/python/test_dataset_ml.py`): the card's counts equal the files' rows,
//! files hold at most `--rows-per-file` rows and are numbered `NNNNN-of-NNNNN`; the rows are
//! the main job's rows of the same mazes; every kept maze regenerates to its connection list;
//! bad flags exit 2 naming the flag before any file appears; a folder that already holds a
//! dataset is refused.

use crate::common;

use std::collections::HashMap;
use std::fs::File;
use std::path::Path;

use arrow_array::{Array, BooleanArray, FixedSizeListArray, StringArray, UInt32Array, UInt64Array};
use common::batchgen;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use predicates::str::contains;

/// Every file of `dir/data`: name → its rows as record batches.
fn files(dir: &Path) -> Vec<(String, Vec<arrow_array::RecordBatch>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir.join("data"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let r = ParquetRecordBatchReaderBuilder::try_new(File::open(&p).unwrap())
                .unwrap()
                .build()
                .unwrap();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, r.map(Result::unwrap).collect())
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn card_rows(dir: &Path) -> HashMap<String, u64> {
    let card = std::fs::read_to_string(dir.join("README.md")).unwrap();
    ["train", "validation", "test"]
        .iter()
        .map(|s| {
            let line = card
                .lines()
                .find(|l| l.starts_with(&format!("| {s} | ")))
                .unwrap();
            let n = line.split('|').nth(2).unwrap().trim().parse().unwrap();
            (s.to_string(), n)
        })
        .collect()
}

#[test]
fn card_counts_equal_the_files_and_files_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    batchgen()
        .args([
            "dataset-ml",
            "--algo",
            "kruskal,wilson",
            "--size",
            "6x6",
            "--count",
            "450",
        ])
        .args(["--rows-per-file", "128", "--split", "0.6,0.3,0.1", "--out"])
        .arg(&out)
        .assert()
        .success();
    let card = card_rows(&out);
    let mut rows: HashMap<String, u64> = HashMap::new();
    let mut per_split: HashMap<String, Vec<String>> = HashMap::new();
    for (name, batches) in files(&out) {
        let n: usize = batches.iter().map(|b| b.num_rows()).sum();
        assert!(n <= 128 && n > 0, "{name}: {n} rows");
        let split = name.split('-').next().unwrap().to_string();
        *rows.entry(split.clone()).or_default() += n as u64;
        per_split.entry(split).or_default().push(name);
    }
    assert_eq!(rows, card);
    assert_eq!(card.values().sum::<u64>(), 900);
    for (split, names) in per_split {
        let k = names.len();
        for (i, name) in names.iter().enumerate() {
            assert_eq!(name, &format!("{split}-{i:05}-of-{k:05}.parquet"));
        }
        // Every file but the last is full.
        assert!(names.len() as u64 == card[&split].div_ceil(128));
    }
}

/// The metric columns are the main job's row for the same maze, and the connection list is
/// the maze regenerated from (algo, seed, index).
#[test]
fn rows_are_the_main_jobs_rows() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    let args = [
        "--algo", "prim", "--size", "7x5", "--count", "60", "--seed", "9",
    ];
    batchgen()
        .arg("dataset-ml")
        .args(args)
        .args(["--dedup", "none", "--out"])
        .arg(&out)
        .assert()
        .success();
    let main = common::run(dir.path(), "main.parquet", &args);
    let mut seen = 0;
    let mut gen = batchgen::generate::Scratch::new();
    let algo = batchgen::Algorithm::parse("prim").unwrap();
    for (_, batches) in files(&out) {
        for b in batches {
            let col = |n: &str| b.column(b.schema().index_of(n).unwrap()).clone();
            let index = col("index");
            let index = index.as_any().downcast_ref::<UInt64Array>().unwrap();
            let len = col("solution_length");
            let len = len.as_any().downcast_ref::<UInt32Array>().unwrap();
            let hash = col("maze_hash");
            let hash = hash.as_any().downcast_ref::<UInt64Array>().unwrap();
            let cl = col("connection_list");
            let cl = cl.as_any().downcast_ref::<FixedSizeListArray>().unwrap();
            let tokens = col("tokens");
            let tokens = tokens.as_any().downcast_ref::<StringArray>().unwrap();
            for r in 0..b.num_rows() {
                let i = index.value(r) as usize;
                let row = &main.rows[i];
                assert_eq!(row[main.col("solution_length")], len.value(r).to_string());
                assert_eq!(row[main.col("maze_hash")], hash.value(r).to_string());
                let m = common::make(&algo, 7, 5, 9, i as u64, &mut gen);
                let v = cl.value(r);
                let v = v.as_any().downcast_ref::<BooleanArray>().unwrap();
                for c in 0..35u32 {
                    assert_eq!(v.value(c as usize), m.south_open(c));
                    assert_eq!(v.value(35 + c as usize), m.east_open(c));
                }
                assert_eq!(tokens.value(r).matches(" ;").count(), 34);
                seen += 1;
            }
        }
    }
    assert_eq!(seen, 60);
}

#[test]
fn bad_flags_exit_2_naming_the_flag_before_any_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    for (args, says) in [
        (vec!["--split", "0.5,0.5,0.5"], "'--split'"),
        (vec!["--split", "0.9,0.1"], "'--split'"),
        (
            vec!["--tokenizer", "aotp-ut-rasterized"],
            "AOTP_UT_rasterized",
        ),
        (vec!["--tokenizer", "bpe"], "'--tokenizer'"),
        (vec!["--size", "128x4"], "at most 127"),
        (vec!["--size", "4x4x2"], "2D"),
        (vec!["--size", "1x1"], "'--size'"),
        (vec!["--count", "0"], "'--count'"),
        (vec!["--rows-per-file", "0"], "--rows-per-file"),
        (vec!["--partitions", "5000"], "'--partitions'"),
        (vec!["--dedup", "fuzzy"], "--dedup"),
        (vec!["--ends", "middle"], "--ends"),
        (vec!["--shard", "3/2"], "--shard"),
    ] {
        batchgen()
            .arg("dataset-ml")
            .args(&args)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(contains(says));
        assert!(!out.exists(), "{args:?} created the folder");
    }
    // A file where the folder should be.
    let file = dir.path().join("f");
    std::fs::write(&file, "x").unwrap();
    batchgen()
        .args(["dataset-ml", "--out"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(contains("'--out'"));
}

#[test]
fn a_folder_with_a_dataset_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    let run = || {
        let mut c = batchgen();
        c.args([
            "dataset-ml",
            "--algo",
            "kruskal",
            "--size",
            "4x4",
            "--count",
            "20",
            "--out",
        ])
        .arg(&out);
        c
    };
    run().assert().success();
    let before = files(&out).len();
    run()
        .assert()
        .code(2)
        .stderr(contains("already holds dataset files"));
    assert_eq!(files(&out).len(), before);
    // Nothing but the card and the data folder: the partition folder is gone.
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["README.md", "data"]);
}

/// (algo, index, split) of every row of a folder.
fn keys(dir: &Path) -> Vec<(String, u64, String)> {
    let mut out = Vec::new();
    for (name, batches) in files(dir) {
        let split = name.split('-').next().unwrap().to_string();
        for b in batches {
            let algo = b.column(b.schema().index_of("algo").unwrap()).clone();
            let algo = algo.as_any().downcast_ref::<StringArray>().unwrap();
            let index = b.column(b.schema().index_of("index").unwrap()).clone();
            let index = index.as_any().downcast_ref::<UInt64Array>().unwrap();
            for r in 0..b.num_rows() {
                out.push((algo.value(r).to_string(), index.value(r), split.clone()));
            }
        }
    }
    out.sort();
    out
}

/// Deduplication is across shards: at 3×3 (192 spanning trees) most of 600 candidates are
/// copies, and the union of 4 shards is the unsharded run's rows, each in the same split.
#[test]
fn shards_together_are_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "dataset-ml",
        "--algo",
        "kruskal,wilson",
        "--size",
        "3x3",
        "--count",
        "300",
    ];
    let whole = dir.path().join("whole");
    batchgen()
        .args(args)
        .arg("--out")
        .arg(&whole)
        .assert()
        .success();
    let parts = dir.path().join("parts");
    for k in 1..=4 {
        batchgen()
            .args(args)
            .args(["--shard", &format!("{k}/4"), "--out"])
            .arg(&parts)
            .assert()
            .success();
    }
    let all = keys(&whole);
    assert!(
        all.len() < 300,
        "{} rows: the run should be full of copies",
        all.len()
    );
    assert_eq!(keys(&parts), all);
}
