//! `--shard K/N` end to end: the union of N shards is one unsharded run row for row (all
//! columns but `gen_ns`) for several N, N larger than the count included; shards never
//! overlap; Slurm, Kubernetes and AWS Batch environments are honoured and `--shard` beats
//! them; bad values are refused with exit status 2 before any file or folder appears.

use crate::common;

use std::path::Path;

use common::{batchgen, parquet_files, read, Table};
use predicates::str::contains;

const RUN: [&str; 8] = [
    "--algo",
    "kruskal,wilson,wilson-turn:0.3",
    "--size",
    "7x5",
    "--count",
    "23",
    "--seed",
    "11",
];

/// Rows (without gen_ns) of several tables, sorted by (algo, index).
fn union(tables: &[Table]) -> Vec<Vec<String>> {
    let mut rows: Vec<Vec<String>> = tables.iter().flat_map(|t| t.without_timing()).collect();
    let (a, i) = (tables[0].col("algo"), tables[0].col("index"));
    rows.sort_by_key(|r| (r[a].clone(), r[i].parse::<u64>().unwrap()));
    rows
}

fn whole(d: &Path) -> Vec<Vec<String>> {
    let t = common::run(d, "whole.parquet", &RUN);
    assert_eq!(t.rows.len(), 3 * 23);
    union(&[t])
}

#[test]
fn the_union_of_n_shards_is_the_unsharded_run() {
    let d = tempfile::tempdir().unwrap();
    let want = whole(d.path());
    for n in [1u32, 2, 3, 7, 23, 30] {
        let dir = d.path().join(format!("n{n}"));
        let mut tables = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for k in 1..=n {
            batchgen()
                .args(RUN)
                .args(["--shard", &format!("{k}/{n}"), "--quiet", "--out"])
                .arg(format!("{}/", dir.display()))
                .assert()
                .success();
        }
        let files = parquet_files(&dir);
        // One file per generator and shard, empty shards included (N > count writes valid,
        // empty files so `check` sees every shard).
        assert_eq!(files.len(), 3 * n as usize, "N = {n}");
        for f in &files {
            let t = read(f);
            let k: u64 = t.meta["batchgen.index_start"].parse().unwrap();
            let e: u64 = t.meta["batchgen.index_end"].parse().unwrap();
            assert_eq!(t.rows.len() as u64, e - k, "{}", f.display());
            // Shards never overlap: every (algo, index) appears once over all files.
            let index = t.col("index");
            for r in t.without_timing() {
                assert!(
                    seen.insert((r[0].clone(), r[index].clone())),
                    "overlap at {r:?}"
                );
            }
            tables.push(t);
        }
        assert_eq!(union(&tables), want, "N = {n}");
        let empty = files.iter().filter(|f| read(f).rows.is_empty()).count();
        assert_eq!(empty, 3 * (n as usize).saturating_sub(23), "N = {n}");
    }
}

#[test]
fn a_plain_file_with_an_explicit_shard_holds_that_shard() {
    let d = tempfile::tempdir().unwrap();
    let want = whole(d.path());
    let tables: Vec<Table> = (1..=4)
        .map(|k| {
            common::run(
                d.path(),
                &format!("s{k}.parquet"),
                &[&RUN[..], &["--shard", &format!("{k}/4")]].concat(),
            )
        })
        .collect();
    assert_eq!(tables[1].meta["batchgen.shard"], "2/4");
    assert_eq!(tables[1].meta["batchgen.shard_source"], "--shard");
    assert_eq!(union(&tables), want);
}

/// Run one shard into `dir/` with the given environment; return the shard the files record,
/// stderr, and the rows.
fn env_run(dir: &Path, env: &[(&str, &str)], extra: &[&str]) -> (String, String, Vec<Vec<String>>) {
    let mut cmd = batchgen();
    cmd.args(RUN)
        .args(extra)
        .arg("--out")
        .arg(format!("{}/", dir.display()));
    for v in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_MAX",
        "SLURM_ARRAY_TASK_STEP",
        "SLURM_ARRAY_TASK_COUNT",
        "JOB_COMPLETION_INDEX",
        "BATCHGEN_SHARD_COUNT",
        "AWS_BATCH_JOB_ARRAY_INDEX",
        "AWS_BATCH_JOB_ARRAY_SIZE",
    ] {
        cmd.env_remove(v);
    }
    cmd.envs(env.iter().copied());
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    let tables: Vec<Table> = parquet_files(dir).iter().map(|f| read(f)).collect();
    assert_eq!(tables.len(), 3);
    let shard = tables[0].meta["batchgen.shard"].clone();
    assert!(tables.iter().all(|t| t.meta["batchgen.shard"] == shard));
    std::fs::remove_dir_all(dir).unwrap();
    (shard, err, union(&tables))
}

#[test]
fn engine_environments_are_honoured_and_the_flag_wins() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("ds");
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "12"),
        ("SLURM_ARRAY_TASK_MIN", "10"),
        ("SLURM_ARRAY_TASK_MAX", "13"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    let (s, err, rows) = env_run(&dir, &slurm, &[]);
    assert_eq!(s, "3/4");
    // The rows are exactly those of `--shard 3/4`.
    assert_eq!(rows, env_run(&dir, &[], &["--shard", "3/4"]).2);
    assert!(err.contains("shard 3/4 from Slurm job array"), "{err}");
    let (s, err, _) = env_run(&dir, &slurm, &["--shard", "1/2"]);
    assert_eq!(s, "1/2");
    assert!(err.contains("from --shard"), "{err}");

    let k8s = [("JOB_COMPLETION_INDEX", "4"), ("BATCHGEN_SHARD_COUNT", "6")];
    let (s, err, _) = env_run(&dir, &k8s, &[]);
    assert_eq!(s, "5/6");
    assert!(err.contains("Kubernetes Indexed Job"), "{err}");
    let (s, _, _) = env_run(&dir, &k8s[..1], &["--shard-count", "5"]);
    assert_eq!(s, "5/5");
    assert_eq!(env_run(&dir, &k8s, &["--shard", "2/9"]).0, "2/9");

    let aws = [
        ("AWS_BATCH_JOB_ARRAY_INDEX", "0"),
        ("AWS_BATCH_JOB_ARRAY_SIZE", "3"),
    ];
    let (s, err, _) = env_run(&dir, &aws, &[]);
    assert_eq!(s, "1/3");
    assert!(err.contains("AWS Batch array job"), "{err}");
    // Without any engine variable, a folder output is the whole range, shard 1/1.
    assert_eq!(env_run(&dir, &[], &[]).0, "1/1");
}

/// A bad value: exit 2, the value named in the message, nothing created.
fn refused(d: &Path, args: &[&str], env: &[(&str, &str)], needle: &str) {
    let out_dir = d.join("never");
    let mut cmd = batchgen();
    cmd.args(RUN)
        .args(args)
        .current_dir(d)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("AWS_BATCH_JOB_ARRAY_INDEX")
        .envs(env.iter().copied());
    if !args.contains(&"--out") {
        cmd.arg("--out").arg(format!("{}/", out_dir.display()));
    }
    cmd.assert().code(2).stderr(contains(needle));
    assert!(!out_dir.exists(), "{args:?} created the output folder");
}

#[test]
fn bad_shards_are_refused_before_any_work() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    for bad in ["0/4", "5/4", "1/0", "x", "3", "-1/4", "1/100000", "1/ 2x"] {
        refused(p, &["--shard", bad], &[], &format!("'{bad}' for '--shard'"));
    }
    refused(
        p,
        &[],
        &[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ],
        "outside the 4 tasks",
    );
    refused(
        p,
        &[],
        &[("JOB_COMPLETION_INDEX", "6"), ("BATCHGEN_SHARD_COUNT", "6")],
        "outside the 6 tasks",
    );
    refused(
        p,
        &[],
        &[("JOB_COMPLETION_INDEX", "1")],
        "BATCHGEN_SHARD_COUNT",
    );
    refused(
        p,
        &[],
        &[
            ("JOB_COMPLETION_INDEX", "1"),
            ("AWS_BATCH_JOB_ARRAY_INDEX", "1"),
        ],
        "two engines",
    );
    refused(p, &["--shard-count", "4"], &[], "--shard-count 4");
    refused(
        p,
        &["--shard", "1/2", "--shard-count", "2"],
        &[],
        "drop --shard-count",
    );
    refused(
        p,
        &["--shard", "1/2", "--accept", "dead_ends > 3"],
        &[],
        "cannot be combined with --accept",
    );
    // A shard from the environment must not write one shared file.
    refused(
        p,
        &["--out", "one.parquet"],
        &[
            ("AWS_BATCH_JOB_ARRAY_INDEX", "1"),
            ("AWS_BATCH_JOB_ARRAY_SIZE", "2"),
        ],
        "all 2 tasks would write this one file",
    );
    assert!(!p.join("one.parquet").exists());
    // A DIR that is a file, or lies under one.
    std::fs::write(p.join("afile"), b"x").unwrap();
    refused(p, &["--shard", "1/2", "--out", "afile/"], &[], "is a file");
    refused(
        p,
        &["--shard", "1/2", "--out", "afile/sub/"],
        &[],
        "is a file",
    );
    refused(
        p,
        &["--shard", "1/2", "--out", "ok/", "--mazes", "afile/"],
        &[],
        "is a file",
    );
    assert!(!p.join("ok").exists());
    assert_eq!(std::fs::read(p.join("afile")).unwrap(), b"x");
}

/// An engine's array size without its task index (`AWS_BATCH_JOB_ARRAY_SIZE=4` or
/// `SLURM_ARRAY_TASK_COUNT=4` alone) would make the whole job in every task: refused with
/// exit 2 naming the variable and the missing index, not ignored. `--shard` still wins.
#[test]
fn an_array_size_without_its_index_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    for (size, index) in [
        ("AWS_BATCH_JOB_ARRAY_SIZE", "AWS_BATCH_JOB_ARRAY_INDEX"),
        ("SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_ID"),
    ] {
        refused(p, &[], &[(size, "4")], &format!("'4' for '{size}'"));
        refused(p, &[], &[(size, "4")], index);
    }
    batchgen()
        .args(RUN)
        .args(["--shard", "1/2", "-q", "--out"])
        .arg(format!("{}/", p.join("ok").display()))
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("AWS_BATCH_JOB_ARRAY_INDEX")
        .env("AWS_BATCH_JOB_ARRAY_SIZE", "4")
        .assert()
        .success();
}
