//! Dataset folders and `batchgen check`: the hive layout, every file's shard metadata, maze
//! stores per part, and a checker that passes a complete folder (exit 0) and finds a missing
//! shard, a duplicated shard, a shard from a different seed and a stray file (exit 1, naming
//! them and printing re-run commands that repair the folder), and refuses a non-folder (exit 2).

use crate::common;

use std::path::Path;

use batchgen::store::StoreReader;
use common::{batchgen, read};
use predicates::str::contains;

const RUN: [&str; 6] = [
    "--algo",
    "backtracker,wilson-straight:0.5",
    "--size",
    "6x4",
    "--count",
    "10",
];

/// Write shards `ks` of `n` into `dir/` with extra flags.
fn shards(dir: &Path, n: u32, ks: &[u32], extra: &[&str]) {
    for &k in ks {
        batchgen()
            .args(RUN)
            .args(extra)
            .args(["--quiet", "--shard", &format!("{k}/{n}"), "--out"])
            .arg(format!("{}/", dir.display()))
            .assert()
            .success();
    }
}

fn check(dir: &Path) -> (i32, String) {
    let out = batchgen().arg("check").arg(dir).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap(), text)
}

fn part(dir: &Path, algo: &str, k: u32, n: u32) -> std::path::PathBuf {
    dir.join(format!(
        "algo={algo}/size=6x4/part-{k:05}-of-{n:05}.parquet"
    ))
}

#[test]
fn a_complete_dataset_passes_with_the_layout_and_metadata() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("ds");
    shards(&dir, 4, &[1, 2, 3, 4], &[]);
    let (code, text) = check(&dir);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("complete: 2 partitions, 8 files, 20 rows"),
        "{text}"
    );
    let t = read(&part(&dir, "wilson-straight:0.5", 3, 4));
    assert_eq!(t.meta["batchgen.shard"], "3/4");
    assert_eq!(t.meta["batchgen.algo"], "wilson-straight:0.5");
    assert_eq!(t.meta["batchgen.index_start"], "5");
    assert_eq!(t.meta["batchgen.index_end"], "7");
    assert_eq!(t.meta["batchgen.count_per_algo"], "10");
    assert!(t.rows.iter().all(|r| r[0] == "wilson-straight:0.5"));

    // N > count: empty shards are valid empty files, and check agrees.
    let e = d.path().join("empty");
    shards(&e, 13, &(1..=13).collect::<Vec<_>>(), &[]);
    // Shard k of 13 holds ⌊10k/13⌋ − ⌊10(k−1)/13⌋ rows: shards 1, 5, 9 are empty.
    let sizes: Vec<usize> = (1..=13)
        .map(|k| read(&part(&e, "backtracker", k, 13)).rows.len())
        .collect();
    assert_eq!(sizes, [0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1]);
    let (code, text) = check(&e);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("26 files, 20 rows"), "{text}");
}

#[test]
fn check_names_a_missing_shard_and_its_rerun_repairs_it() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("ds");
    shards(&dir, 4, &[1, 2, 4], &[]);
    let (code, text) = check(&dir);
    assert_eq!(code, 1, "{text}");
    for algo in ["backtracker", "wilson-straight:0.5"] {
        assert!(
            text.contains(&format!("algo={algo}/size=6x4: missing 1 of 4 shards: 3/4")),
            "{text}"
        );
    }
    // Run the printed commands (they start with `batchgen`) and check again.
    let cmds: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  batchgen "))
        .collect();
    assert_eq!(cmds.len(), 2, "{text}");
    for c in cmds {
        assert!(c.ends_with("--shard 3/4"), "{c}");
        let words: Vec<String> = c
            .split_whitespace()
            .map(|w| w.trim_matches('\'').to_string())
            .collect();
        batchgen().args(&words).assert().success();
    }
    let (code, text) = check(&dir);
    assert_eq!(code, 0, "{text}");
}

#[test]
fn check_finds_duplicated_and_foreign_shards() {
    // An existing folder without a trailing slash is a dataset folder too.
    let plain = tempfile::tempdir().unwrap();
    batchgen()
        .args(RUN)
        .args(["--quiet", "--out"])
        .arg(plain.path())
        .assert()
        .success();
    assert!(part(plain.path(), "backtracker", 1, 1).is_file());
    assert_eq!(check(plain.path()).0, 0);

    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("ds");
    shards(&dir, 3, &[1, 2, 3], &[]);
    assert_eq!(check(&dir).0, 0);

    // A shard copied over another's name: shard 1 twice, shard 2 gone.
    std::fs::copy(
        part(&dir, "backtracker", 1, 3),
        part(&dir, "backtracker", 2, 3),
    )
    .unwrap();
    let (code, text) = check(&dir);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("shard 1/3 is present 2 times (duplicated)"),
        "{text}"
    );
    assert!(text.contains("missing 1 of 3 shards: 2/3"), "{text}");
    assert!(text.contains("index ranges overlap"), "{text}");
    shards(&dir, 3, &[2], &[]);
    assert_eq!(check(&dir).0, 0);

    // A shard re-run with another seed.
    shards(&dir, 3, &[2], &["--seed", "4"]);
    let (code, text) = check(&dir);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("batchgen.seed differs"), "{text}");
    assert!(
        text.contains("--algo backtracker --shard 2/3") && !text.contains("--seed 4"),
        "the re-run must use the majority's seed: {text}"
    );
    shards(&dir, 3, &[2], &[]);
    assert_eq!(check(&dir).0, 0);

    // Parts of a run with another N in the same partition.
    shards(&dir, 5, &[1], &[]);
    let (code, text) = check(&dir);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("different shard counts"), "{text}");
    for a in ["backtracker", "wilson-straight:0.5"] {
        std::fs::remove_file(part(&dir, a, 1, 5)).unwrap();
    }

    // A stray Parquet file that DuckDB's glob would read too.
    batchgen()
        .args(RUN)
        .args(["--quiet", "--out"])
        .arg(dir.join("algo=backtracker/extra.parquet"))
        .assert()
        .success();
    let (code, text) = check(&dir);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("extra.parquet"), "{text}");
    std::fs::remove_file(dir.join("algo=backtracker/extra.parquet")).unwrap();

    // A leftover temporary file is only a note.
    std::fs::write(
        dir.join("algo=backtracker/size=6x4/.part-x.parquet.tmp-1"),
        b"",
    )
    .unwrap();
    let (code, text) = check(&dir);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("note:") && text.contains("leftover temporary file"),
        "{text}"
    );

    // A whole partition gone (its run listed it).
    std::fs::remove_dir_all(dir.join("algo=wilson-straight:0.5")).unwrap();
    let (code, text) = check(&dir);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("algo=wilson-straight:0.5/size=6x4 is missing entirely"),
        "{text}"
    );
}

#[test]
fn check_refuses_what_is_not_a_folder() {
    let d = tempfile::tempdir().unwrap();
    batchgen()
        .arg("check")
        .arg(d.path().join("nope"))
        .assert()
        .code(2)
        .stderr(contains("does not exist"));
    std::fs::write(d.path().join("f"), b"").unwrap();
    batchgen()
        .arg("check")
        .arg(d.path().join("f"))
        .assert()
        .code(2)
        .stderr(contains("is a file"));
    std::fs::create_dir(d.path().join("empty")).unwrap();
    let (code, text) = check(&d.path().join("empty"));
    assert_eq!(code, 1);
    assert!(text.contains("no part files"), "{text}");
}

#[test]
fn maze_stores_are_partitioned_too() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("ds");
    shards(
        &dir,
        3,
        &[1, 2, 3],
        &["--mazes", &format!("{}/", dir.display())],
    );
    let one = d.path().join("one.arrow");
    batchgen()
        .args(RUN)
        .args(["--quiet", "--out"])
        .arg(d.path().join("one.parquet"))
        .arg("--mazes")
        .arg(&one)
        .assert()
        .success();
    let whole = StoreReader::open(&one).unwrap();
    let mut want: Vec<(String, u64, u64, Vec<u64>)> = (0..whole.len())
        .map(|k| {
            let r = whole.record(k).unwrap();
            (r.algo.to_string(), r.index, r.maze_seed, r.walls.to_vec())
        })
        .collect();
    want.sort();
    let mut got = Vec::new();
    for algo in ["backtracker", "wilson-straight:0.5"] {
        for k in 1..=3 {
            let p = dir.join(format!("algo={algo}/size=6x4/part-{k:05}-of-00003.arrow"));
            let s = StoreReader::open(&p).unwrap();
            assert_eq!(s.algos(), [algo.to_string()]);
            for i in 0..s.len() {
                let r = s.record(i).unwrap();
                got.push((r.algo.to_string(), r.index, r.maze_seed, r.walls.to_vec()));
            }
        }
    }
    got.sort();
    assert_eq!(got, want);
    // The folder holds both kinds side by side; check verifies both.
    assert_eq!(check(&dir).0, 0);
    let store = |d: &Path, k: u32| {
        d.join(format!(
            "algo=backtracker/size=6x4/part-{k:05}-of-00003.arrow"
        ))
    };
    let other = d.path().join("other");
    shards(
        &other,
        3,
        &[2],
        &["--seed", "4", "--mazes", &format!("{}/", other.display())],
    );
    std::fs::copy(store(&other, 2), store(&dir, 2)).unwrap();
    let (code, text) = check(&dir);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("seed 4 where the Parquet parts have 42"),
        "{text}"
    );
    std::fs::copy(store(&dir, 1), store(&dir, 2)).unwrap();
    let (code, text) = check(&dir);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("part-00002-of-00003.arrow: holds 3 records (indices 0..=2) where shard 2/3 of 10 needs 3..6"), "{text}");
    std::fs::remove_file(store(&dir, 2)).unwrap();
    let (code, text) = check(&dir);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("missing 1 of 3 maze stores: 2/3"), "{text}");
}

/// A 3D run lays its parts out under `size=WxHxD` (2D paths keep `size=WxH`) and `batchgen
/// check` verifies them, maze stores included. `--count 0`: the layout, the metadata and the
/// check do not need a single maze (3D mazes themselves are tested in tests/threed.rs).
#[test]
fn three_d_partitions_are_named_wxhxd_and_check_reads_them() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("cube");
    let out = format!("{}/", dir.display());
    batchgen()
        .args([
            "--algo",
            "wilson,kruskal",
            "--size",
            "5x4x3",
            "--count",
            "0",
        ])
        .args(["--quiet", "--out", &out, "--mazes", &out])
        .assert()
        .success();
    for algo in ["wilson", "kruskal"] {
        for ext in ["parquet", "arrow"] {
            let p = dir.join(format!("algo={algo}/size=5x4x3/part-00001-of-00001.{ext}"));
            assert!(p.is_file(), "{}", p.display());
        }
    }
    let (code, text) = check(&dir);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("complete: 2 partitions"), "{text}");
    // A store of another depth moved into the partition is named.
    let flat = d.path().join("flat.arrow");
    batchgen()
        .args([
            "--algo", "wilson", "--size", "5x4", "--count", "0", "--quiet",
        ])
        .arg("--out")
        .arg(d.path().join("flat.parquet"))
        .arg("--mazes")
        .arg(&flat)
        .assert()
        .success();
    std::fs::copy(
        &flat,
        dir.join("algo=wilson/size=5x4x3/part-00001-of-00001.arrow"),
    )
    .unwrap();
    let (code, text) = check(&dir);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("holds 5x4 mazes"), "{text}");
}

/// Shards made with different masks of one size are one partition by their path, but not one
/// run: `check` compares the recorded mask (as it compares the braid) and names it.
#[test]
fn check_sees_shards_of_different_masks() {
    let dir = tempfile::tempdir().unwrap();
    let m1 = dir.path().join("m1.txt");
    let m2 = dir.path().join("m2.txt");
    std::fs::write(&m1, "....\n....\n....\n").unwrap();
    std::fs::write(&m2, "....\n.##.\n....\n").unwrap();
    let ds = dir.path().join("ds");
    let ds_s = format!("{}/", ds.display());
    for (k, m) in [("1/2", &m1), ("2/2", &m2)] {
        batchgen()
            .args(["--algo", "wilson", "--count", "10", "-q", "--shard", k])
            .arg("--mask")
            .arg(m)
            .args(["--out", &ds_s])
            .assert()
            .success();
    }
    let (code, text) = check(&ds);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("batchgen.mask differs"), "{text}");
    assert!(text.contains("a 4x3 mask of 10 cells"), "{text}");
    // The same mask in both shards passes.
    std::fs::remove_dir_all(&ds).unwrap();
    for k in ["1/2", "2/2"] {
        batchgen()
            .args(["--algo", "wilson", "--count", "10", "-q", "--shard", k])
            .arg("--mask")
            .arg(&m2)
            .args(["--out", &ds_s])
            .assert()
            .success();
    }
    let (code, text) = check(&ds);
    assert_eq!(code, 0, "{text}");
}
