//! A real cluster engine on this machine: a Dask `distributed` LocalCluster with separate
//! worker processes runs a sharded job (each task runs the batchgen binary with `--shard K/N`,
//! `data/cluster/dask_shards.py`), `batchgen check` passes the folder, its rows equal one
//! unsharded run, and DuckDB reads the folder as one table with the cluster page's query
//! (`data/cluster/dataset_stats.sql`). The Slurm and Kubernetes recipes under `data/cluster/`
//! are run as far as this machine allows: every array task / completion index in turn, with
//! the environment the engine would give it.
//!
//! The Python environment (Dask, DuckDB, PyYAML from `data/requirements-cluster.txt`) is made
//! under the target folder on first use. If PyPI is unreachable these tests FAIL: they never
//! skip.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{batchgen, read};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");

/// A Python with the packages of `data/requirements-cluster.txt`: `BATCHGEN_CLUSTER_PYTHON`,
/// or a virtual environment under the target folder, created on first use.
fn python() -> PathBuf {
    use std::sync::Mutex;
    static LOCK: Mutex<Option<PathBuf>> = Mutex::new(None);
    let mut guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = guard.as_ref() {
        return p.clone();
    }
    let ok = |py: &Path| {
        Command::new(py)
            .args(["-c", "import dask.distributed, duckdb, yaml"])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    let py = match std::env::var_os("BATCHGEN_CLUSTER_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => {
            let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cluster-venv");
            let py = venv.join("bin").join("python");
            if !ok(&py) {
                let st = Command::new("python3")
                    .args(["-m", "venv"])
                    .arg(&venv)
                    .status()
                    .expect("python3 is needed for the cluster tests");
                assert!(st.success(), "python3 -m venv {} failed", venv.display());
                let out = Command::new(&py)
                    .args(["-m", "pip", "install", "--disable-pip-version-check", "-r"])
                    .arg(format!("{DATA}/requirements-cluster.txt"))
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "FAILED to install data/requirements-cluster.txt from PyPI (is PyPI \
                     reachable?): the engine test needs Dask and does not skip.\n{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            py
        }
    };
    assert!(
        ok(&py),
        "{} cannot import dask.distributed, duckdb and yaml",
        py.display()
    );
    *guard = Some(py.clone());
    py
}

/// Rows (without gen_ns) of every part file under `dir`, sorted by (algo, index).
fn dataset_rows(dir: &Path) -> Vec<Vec<String>> {
    let files = common::parquet_files(dir);
    let mut index = 0;
    let mut rows: Vec<Vec<String>> = files
        .iter()
        .flat_map(|f| {
            let t = read(f);
            index = t.col("index");
            t.without_timing()
        })
        .collect();
    rows.sort_by_key(|r| (r[0].clone(), r[index].parse::<u64>().unwrap()));
    rows
}

fn check_passes(dir: &Path) -> String {
    let out = batchgen().arg("check").arg(dir).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "check failed:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn a_dask_local_cluster_runs_the_shards_and_duckdb_reads_the_folder() {
    let py = python();
    let d = tempfile::tempdir().unwrap();
    let run = [
        "--algo",
        "kruskal,wilson,backtracker,wilson-straight:0.5",
        "--size",
        "12x10",
        "--count",
        "301",
        "--seed",
        "9",
    ];
    let out = Command::new(&py)
        .arg(format!("{DATA}/cluster/dask_shards.py"))
        .args(["--shards", "7", "--workers", "2", "--"])
        .arg(env!("CARGO_BIN_EXE_batchgen"))
        .args(run)
        .args(["--quiet", "--out", "dataset/"])
        .current_dir(d.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "dask run failed:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every shard ran once, in worker processes other than the client.
    let client: u32 = text
        .lines()
        .find_map(|l| l.strip_prefix("client pid "))
        .unwrap()
        .parse()
        .unwrap();
    let mut pids = std::collections::BTreeSet::new();
    for k in 1..=7 {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("shard {k}/7: exit 0 ")))
            .unwrap_or_else(|| panic!("shard {k}/7 missing in\n{text}"));
        let pid: u32 = line.rsplit(' ').next().unwrap().parse().unwrap();
        assert_ne!(pid, client);
        pids.insert(pid);
    }
    assert!(
        pids.len() >= 2,
        "all tasks ran in one worker process: {text}"
    );

    let dir = d.path().join("dataset");
    let report = check_passes(&dir);
    assert!(
        report.contains("4 partitions, 28 files, 1204 rows"),
        "{report}"
    );

    // The same rows as one unsharded run.
    let whole = common::run(d.path(), "whole.parquet", &run);
    let mut want = whole.without_timing();
    let index = whole.col("index");
    want.sort_by_key(|r| (r[0].clone(), r[index].parse::<u64>().unwrap()));
    assert_eq!(dataset_rows(&dir), want);

    // DuckDB reads the folder as one table (the cluster page's query), and agrees with the rows.
    let script = format!(
        "import duckdb\ncon = duckdb.connect()\ncon.execute('SET enable_progress_bar = false')\nfor r in con.execute(open('{DATA}/cluster/dataset_stats.sql').read()).fetchall():\n    print('\\t'.join(repr(v) for v in r))\n"
    );
    let out = Command::new(&py)
        .args(["-c", &script])
        .current_dir(d.path())
        .output()
        .unwrap();
    common::assert_ok(&out);
    let got = String::from_utf8(out.stdout).unwrap();
    let (algo_c, share_c, sol_c) = (
        whole.col("algo"),
        whole.col("dead_end_share"),
        whole.col("solution_length"),
    );
    let mut by_algo: BTreeMap<String, Vec<&Vec<String>>> = BTreeMap::new();
    for r in &whole.rows {
        by_algo.entry(r[algo_c].clone()).or_default().push(r);
    }
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines.len(), by_algo.len(), "{got}");
    for (line, (algo, rows)) in lines.iter().zip(&by_algo) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f[0], format!("'{algo}'"));
        assert_eq!(f[1], "'12x10'");
        assert_eq!(f[2..6], ["301", "301", "0", "300"], "{line}");
        let mean = |c: usize| {
            rows.iter()
                .map(|r| r[c].parse::<f64>().unwrap())
                .sum::<f64>()
                / rows.len() as f64
        };
        for (v, want) in [(f[6], mean(share_c)), (f[7], mean(sol_c))] {
            let v: f64 = v.parse().unwrap();
            assert!(
                (v - want).abs() <= 1e-9 * want.abs().max(1.0),
                "{line}: {want}"
            );
        }
    }
}

/// The recipes' full run is a million mazes per generator; here a few per shard.
fn small(arg: &str) -> String {
    arg.replace("1000000", "20")
}

#[test]
fn the_kubernetes_indexed_job_recipe_runs_index_by_index() {
    let py = python();
    // completions, BATCHGEN_SHARD_COUNT, command + args, read from the manifest itself.
    let script = format!(
        "import yaml\nj = yaml.safe_load(open('{DATA}/cluster/k8s-indexed-job.yaml'))\n\
         s = j['spec']\nassert j['kind'] == 'Job' and s['completionMode'] == 'Indexed'\n\
         c = s['template']['spec']['containers'][0]\n\
         env = {{e['name']: e['value'] for e in c['env']}}\n\
         print(s['completions'])\nprint(env['BATCHGEN_SHARD_COUNT'])\n\
         print('\\x1f'.join(c['command'] + c['args']))\n"
    );
    let out = Command::new(&py).args(["-c", &script]).output().unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let completions: u32 = lines.next().unwrap().parse().unwrap();
    assert_eq!(lines.next().unwrap(), completions.to_string());
    let argv: Vec<String> = lines.next().unwrap().split('\x1f').map(small).collect();
    assert_eq!(argv[0], "batchgen");
    let d = tempfile::tempdir().unwrap();
    let mount = d.path().join("data");
    for index in 0..completions {
        let args: Vec<String> = argv[1..]
            .iter()
            .map(|a| a.replace("/data/", &format!("{}/", mount.display())))
            .collect();
        batchgen()
            .args(&args)
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env("BATCHGEN_SHARD_COUNT", completions.to_string())
            .assert()
            .success();
    }
    let report = check_passes(&mount.join("mazes"));
    let algos = batchgen::Algorithm::all().len();
    assert!(
        report.contains(&format!(
            "{algos} partitions, {} files, {} rows",
            algos * completions as usize,
            algos * 20
        )),
        "{report}"
    );
}

#[test]
fn the_slurm_array_recipe_runs_task_by_task() {
    let recipe = std::fs::read_to_string(format!("{DATA}/cluster/slurm_array.sh")).unwrap();
    let array = recipe
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array="))
        .unwrap();
    let (lo, hi) = array.split_once('-').unwrap();
    let (lo, hi): (u32, u32) = (lo.parse().unwrap(), hi.parse().unwrap());
    let d = tempfile::tempdir().unwrap();
    let script = d.path().join("job.sh");
    std::fs::write(&script, small(&recipe)).unwrap();
    let out_dir = d.path().join("mazes");
    let bin = Path::new(env!("CARGO_BIN_EXE_batchgen")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for id in lo..=hi {
        let out = Command::new("bash")
            .arg(&script)
            .env("PATH", &path)
            .env("OUT", format!("{}/", out_dir.display()))
            .env("SLURM_ARRAY_TASK_ID", id.to_string())
            .env("SLURM_ARRAY_TASK_MIN", lo.to_string())
            .env("SLURM_ARRAY_TASK_MAX", hi.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", (hi - lo + 1).to_string())
            .env("SLURM_CPUS_PER_TASK", "2")
            .env_remove("JOB_COMPLETION_INDEX")
            .env_remove("AWS_BATCH_JOB_ARRAY_INDEX")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "task {id}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let n = (hi - lo + 1) as usize;
    let algos = batchgen::Algorithm::all().len();
    let report = check_passes(&out_dir);
    assert!(
        report.contains(&format!(
            "{algos} partitions, {} files, {} rows",
            algos * n,
            algos * 20
        )),
        "{report}"
    );
}

#[test]
fn the_cluster_page_shows_the_files_the_tests_run() {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/cluster/README.md"
    ))
    .unwrap();
    for (lang, file) in [
        ("sql", "cluster/dataset_stats.sql"),
        ("bash", "cluster/slurm_array.sh"),
        ("yaml", "cluster/k8s-indexed-job.yaml"),
    ] {
        let text = std::fs::read_to_string(format!("{DATA}/{file}")).unwrap();
        assert!(
            readme.contains(&format!("```{lang}\n{text}```\n")),
            "data/cluster/README.md's {lang} block must equal data/{file}"
        );
    }
    assert!(readme.contains("read_parquet('dataset/**/*.parquet', hive_partitioning = true)"));
}

/// The cluster page's example of a folder with a missing shard prints what the page shows.
#[test]
fn the_cluster_page_check_example_is_what_check_prints() {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/cluster/README.md"
    ))
    .unwrap();
    let at = readme
        .find("$ batchgen check dataset/\n")
        .expect("the example");
    let shown: Vec<&str> = readme[at..]
        .lines()
        .skip(1)
        .take_while(|l| *l != "```")
        .collect();
    let d = tempfile::tempdir().unwrap();
    for k in 1..=2 {
        batchgen()
            .args([
                "--algo",
                "kruskal,wilson",
                "--size",
                "32x32",
                "--count",
                "1000",
            ])
            .args(["--shard", &format!("{k}/2"), "--out", "dataset/"])
            .current_dir(d.path())
            .assert()
            .success();
    }
    std::fs::remove_file(
        d.path()
            .join("dataset/algo=wilson/size=32x32/part-00002-of-00002.parquet"),
    )
    .unwrap();
    let out = batchgen()
        .args(["check", "dataset/"])
        .current_dir(d.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let printed =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(printed.lines().collect::<Vec<_>>(), shown);
}
