//! Helpers shared by the integration tests: run the binary, read a metrics file back with the
//! parquet crate's arrow reader.
#![allow(dead_code)]

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::{Array, Float64Array, StringArray, UInt32Array, UInt64Array};
use assert_cmd::Command;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// The batchgen binary.
pub fn batchgen() -> Command {
    Command::cargo_bin("batchgen").unwrap()
}

/// A metrics file read back: one `Vec<String>` per row (every column rendered as text, in
/// schema order), the column names, and the key-value metadata.
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub meta: HashMap<String, String>,
}

impl Table {
    pub fn col(&self, name: &str) -> usize {
        self.columns.iter().position(|c| c == name).unwrap()
    }

    /// Rows without the `gen_ns` column (timing differs between runs).
    pub fn without_timing(&self) -> Vec<Vec<String>> {
        let t = self.col("gen_ns");
        self.rows
            .iter()
            .map(|r| {
                r.iter()
                    .enumerate()
                    .filter(|(i, _)| *i != t)
                    .map(|(_, v)| v.clone())
                    .collect()
            })
            .collect()
    }

    pub fn f64s(&self, name: &str) -> Vec<f64> {
        let c = self.col(name);
        self.rows.iter().map(|r| r[c].parse().unwrap()).collect()
    }
}

pub fn read(path: &Path) -> Table {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let meta = batchgen::dataset::key_values(builder.metadata().file_metadata());
    let columns = builder
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let mut rows = Vec::new();
    for batch in builder.build().unwrap() {
        let batch = batch.unwrap();
        for r in 0..batch.num_rows() {
            let row = batch
                .columns()
                .iter()
                .map(|c| {
                    let a = c.as_any();
                    if c.is_null(r) {
                        "null".to_string()
                    } else if let Some(s) = a.downcast_ref::<StringArray>() {
                        s.value(r).to_string()
                    } else if let Some(v) = a.downcast_ref::<UInt32Array>() {
                        v.value(r).to_string()
                    } else if let Some(v) = a.downcast_ref::<UInt64Array>() {
                        v.value(r).to_string()
                    } else if let Some(v) = a.downcast_ref::<Float64Array>() {
                        v.value(r).to_string()
                    } else {
                        panic!("unexpected column type {:?}", c.data_type())
                    }
                })
                .collect();
            rows.push(row);
        }
    }
    Table {
        columns,
        rows,
        meta,
    }
}

/// Run the main job into `dir/name` with extra args and read the result.
pub fn run(dir: &Path, name: &str, args: &[&str]) -> Table {
    let out = dir.join(name);
    batchgen()
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .assert()
        .success();
    read(&out)
}

/// `PY -m pip install --quiet --disable-pip-version-check`; the caller adds what to install.
pub fn pip_install(py: &Path) -> std::process::Command {
    let mut c = std::process::Command::new(py);
    c.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ]);
    c
}

/// A Python interpreter with the packages of `data/requirements-interop.txt` (DuckDB, pandas,
/// pyarrow, numpy). `BATCHGEN_PYTHON` may name one; otherwise a virtual environment is created
/// under the target folder on first use (PyPI is reachable wherever the tests run) and reused.
pub fn python() -> std::path::PathBuf {
    use std::sync::Mutex;
    static LOCK: Mutex<Option<std::path::PathBuf>> = Mutex::new(None);
    let mut guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = guard.as_ref() {
        return p.clone();
    }
    let ok = |py: &Path| {
        std::process::Command::new(py)
            .args([
                "-c",
                "import duckdb, pandas, pyarrow, numpy, websocket, pytmx, jsonschema",
            ])
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    };
    let py = if let Ok(p) = std::env::var("BATCHGEN_PYTHON") {
        let p = std::path::PathBuf::from(p);
        assert!(
            ok(&p),
            "BATCHGEN_PYTHON={} lacks duckdb/pandas/pyarrow/numpy",
            p.display()
        );
        p
    } else {
        let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("interop-venv");
        let py = venv.join("bin").join("python");
        if !ok(&py) {
            let st = std::process::Command::new("python3")
                .args(["-m", "venv"])
                .arg(&venv)
                .status()
                .expect("python3 is needed for the interop tests");
            assert!(st.success(), "python3 -m venv failed");
            let req = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/requirements-interop.txt");
            let st = pip_install(&py).arg("-r").arg(req).status().unwrap();
            assert!(
                st.success(),
                "pip install of the interop requirements failed"
            );
            assert!(ok(&py));
        }
        py
    };
    *guard = Some(py.clone());
    py
}

/// The program `name` of the Debian package `package`, installed with apt-get when missing
/// (the tests run as root, as CI does). Installs are serialised across threads *and* test
/// processes by an exclusive `flock` on a file under the target folder, held around the check
/// and the install: two apt-gets at once fail on dpkg's lock.
pub fn debian_program(name: &str, package: &str) -> PathBuf {
    use rustix::fs::{flock, FlockOperation};
    let lock_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("apt-get.lock");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .unwrap();
    flock(&lock, FlockOperation::LockExclusive).unwrap();
    let path = PathBuf::from("/usr/bin").join(name);
    if !path.exists() {
        let ok = |args: &[&str]| {
            std::process::Command::new("apt-get")
                // Another apt-get (outside the tests) may hold dpkg's lock: wait for it.
                .args(["-o", "DPkg::Lock::Timeout=600"])
                .args(args)
                .env("DEBIAN_FRONTEND", "noninteractive")
                .status()
                .map(|s| s.success())
                .unwrap_or(false)
        };
        assert!(ok(&["update", "-qq"]), "apt-get update failed");
        assert!(
            ok(&["install", "-y", "-qq", package]),
            "apt-get install {package} failed"
        );
    }
    assert!(
        path.exists(),
        "no {} after installing {package}",
        path.display()
    );
    // The lock is released when `lock` is dropped here.
    path
}

/// A small tmpfs mounted inside a test's own tempdir, unmounted on drop (also when the test
/// fails). `options` are the mount options, e.g. `size=2m` or `size=1m,ro`. Tests never touch a
/// real system path: a read-only or full file system is made here instead.
pub struct Tmpfs {
    /// Where it is mounted.
    pub dir: std::path::PathBuf,
}

impl Tmpfs {
    /// Mount a tmpfs at `dir` (created first).
    pub fn mount(dir: &Path, options: &str) -> Tmpfs {
        std::fs::create_dir_all(dir).unwrap();
        let st = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(dir)
            .status()
            .unwrap();
        assert!(
            st.success(),
            "mount -t tmpfs -o {options} at {} failed",
            dir.display()
        );
        Tmpfs {
            dir: dir.to_path_buf(),
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.dir).status();
    }
}

/// Panic with the child's stderr unless it exited successfully.
pub fn assert_ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Maze `i` of (`algo`, `w`×`h`, `seed`), generated with the batch's seeding.
pub fn make(
    algo: &batchgen::Algorithm,
    w: u32,
    h: u32,
    seed: u64,
    i: u64,
    s: &mut batchgen::generate::Scratch,
) -> batchgen::Maze {
    let mut m = batchgen::Maze::new(w, h);
    batchgen::generate::regenerate(algo, &mut m, s, seed, i);
    m
}

/// Plain adjacency lists built from `is_open`, independent of the metric code.
pub fn adjacency(m: &batchgen::Maze) -> Vec<Vec<u32>> {
    use batchgen::grid::Dir;
    (0..m.cells())
        .map(|c| {
            Dir::ALL
                .iter()
                .filter(|&&d| m.is_open(c, d))
                .map(|&d| m.neighbour(c, d))
                .collect()
        })
        .collect()
}

/// Breadth-first distances and parents from `from` over the adjacency lists `adj` (from
/// [`adjacency`]); `u32::MAX` for a cell not reached (and for the parent of `from`).
pub fn bfs(adj: &[Vec<u32>], from: u32) -> (Vec<u32>, Vec<u32>) {
    let mut dist = vec![u32::MAX; adj.len()];
    let mut parent = vec![u32::MAX; adj.len()];
    dist[from as usize] = 0;
    let mut q = std::collections::VecDeque::from([from]);
    while let Some(v) = q.pop_front() {
        for &n in &adj[v as usize] {
            if dist[n as usize] == u32::MAX {
                dist[n as usize] = dist[v as usize] + 1;
                parent[n as usize] = v;
                q.push_back(n);
            }
        }
    }
    (dist, parent)
}

/// The degree columns of `got` (dead ends, junctions, corridors, straights, the dead-end share)
/// against `m`'s adjacency lists `adj` (from [`adjacency`]), counted cell by cell; returns each
/// cell's degree. A straight is a corridor open on two opposite sides.
pub fn assert_degree_columns(
    m: &batchgen::Maze,
    adj: &[Vec<u32>],
    got: &batchgen::Metrics,
) -> Vec<usize> {
    use batchgen::grid::Dir;
    let deg: Vec<usize> = adj.iter().map(Vec::len).collect();
    let count = |keep: fn(usize) -> bool| deg.iter().filter(|&&d| keep(d)).count();
    assert_eq!(got.dead_ends as usize, count(|d| d == 1));
    assert_eq!(got.junctions as usize, count(|d| d >= 3));
    assert_eq!(got.corridors as usize, count(|d| d == 2));
    let straight = |c: u32| {
        Dir::ALL
            .iter()
            .any(|&d| m.is_open(c, d) && m.is_open(c, d.opposite()))
    };
    let straights = (0..m.cells())
        .filter(|&c| deg[c as usize] == 2 && straight(c))
        .count();
    assert_eq!(got.straights as usize, straights);
    assert_eq!(got.dead_end_share, got.dead_ends as f64 / m.cells() as f64);
    deg
}

/// Every `.parquet` file under `dir` (a dataset folder), sorted by path.
pub fn parquet_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "parquet") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Copy the metrics file `src` to `dst` (same schema and metadata) with the column `name`
/// rewritten batch by batch: `rewrite(old, first)` gets a batch's column and the index of the
/// batch's first row, and returns the new column (to feed readers values batchgen never
/// writes).
pub fn with_column(
    src: &Path,
    dst: &Path,
    name: &str,
    rewrite: impl Fn(&arrow_array::ArrayRef, usize) -> arrow_array::ArrayRef,
) {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(src).unwrap()).unwrap();
    let kv = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .cloned();
    let schema = builder.schema().clone();
    let col = schema.index_of(name).unwrap();
    let props = parquet::file::properties::WriterProperties::builder()
        .set_key_value_metadata(kv)
        .build();
    let mut w =
        parquet::arrow::ArrowWriter::try_new(File::create(dst).unwrap(), schema, Some(props))
            .unwrap();
    let mut row = 0;
    for batch in builder.build().unwrap() {
        let batch = batch.unwrap();
        let mut cols = batch.columns().to_vec();
        cols[col] = rewrite(&cols[col], row);
        row += batch.num_rows();
        w.write(&arrow_array::RecordBatch::try_new(batch.schema(), cols).unwrap())
            .unwrap();
    }
    w.close().unwrap();
}

/// Copy the metrics file `src` to `dst` (same schema and metadata) with the float column
/// `name` replaced: row `i` gets `value(i)` (to feed readers values batchgen never writes).
pub fn with_float_column(src: &Path, dst: &Path, name: &str, value: impl Fn(usize) -> f64) {
    with_column(src, dst, name, |old, first| {
        std::sync::Arc::new(Float64Array::from(
            (first..first + old.len()).map(&value).collect::<Vec<f64>>(),
        ))
    });
}

/// The Markdown pages of the repository, sorted: the README, `CHANGELOG.md` and every reference
/// page beside what it describes under `src`, `data`, `benches` and `tests` (not the fuzz
/// corpus, which is generated).
pub fn doc_pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name();
            if name == "corpus" || name == "target" {
                continue;
            }
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![root.join("README.md"), root.join("CHANGELOG.md")];
    for dir in ["src", "data", "benches", "tests"] {
        walk(&root.join(dir), &mut out);
    }
    out.sort();
    out
}

/// The reference JSON file `tests/json/NAME`.
pub fn json_fixture(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/json")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Pretty-printed JSON with the value of every member named in `keys` replaced by `_` (the
/// members that change from run to run: timings, file sizes, the command line), each member on
/// its own line as the program prints them.
pub fn mask_json_members(json: &str, keys: &[&str]) -> String {
    json.lines()
        .map(|line| {
            let body = line.trim_start();
            let masked = keys.iter().any(|k| body.starts_with(&format!("\"{k}\": ")));
            if !masked {
                return format!("{line}\n");
            }
            let at = line.find(": ").unwrap() + 2;
            let comma = if line.ends_with(',') { "," } else { "" };
            format!("{}_{comma}\n", &line[..at])
        })
        .collect()
}

/// JSON without the whitespace between its tokens (strings kept as they are): two documents
/// that differ only in layout become equal.
pub fn json_tokens(json: &str) -> String {
    let (mut out, mut in_str, mut escaped) = (String::new(), false, false);
    for c in json.chars() {
        if in_str {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
        } else if c == '"' {
            in_str = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}
