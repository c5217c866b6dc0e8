//! Output integrity: one regression test per defect. Targets are never replaced
//! unless they are regular files, nothing half-written is ever left behind (full disk, failed
//! finish, SIGINT/SIGTERM), the two outputs of a run are committed together, corrupt stores and
//! odd arguments are refused with exit 2 instead of a panic or an abort, and the fuzzers'
//! crashing inputs replay here.
//!
//! Special files (FIFO, device node, tmpfs mount) are only ever made inside a test's own
//! tempdir; a mount is unmounted by a Drop guard on every path.

use crate::common;

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{batchgen, Tmpfs};
use predicates::str::contains;

fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn temps(d: &Path) -> Vec<String> {
    names(d)
        .into_iter()
        .filter(|n| n.contains(".tmp-") || n.contains(".old-"))
        .collect()
}

fn sh(cmd: &str, args: &[&OsStr]) {
    let st = Command::new(cmd).args(args).status().unwrap();
    assert!(st.success(), "{cmd} {args:?} failed");
}

fn mkfifo(p: &Path) {
    sh("mkfifo", &[p.as_os_str()]);
}

/// Wait (at most a minute) until a run in `d` has made its temporary files.
fn wait_for_temps(d: &Path) {
    let waited = Instant::now();
    while temps(d).is_empty() {
        assert!(waited.elapsed() < Duration::from_secs(60), "never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Send `signal` (`-TERM`, …) to `child` and wait for it to exit, killing it and failing with
/// `what` if it is still running after `limit`; its status and the time it took after the signal.
fn signal_and_wait(
    child: &mut std::process::Child,
    signal: &str,
    limit: Duration,
    what: &str,
) -> (std::process::ExitStatus, Duration) {
    let sent = Instant::now();
    sh(
        "kill",
        &[OsStr::new(signal), OsStr::new(&child.id().to_string())],
    );
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            break (s, sent.elapsed());
        }
        if sent.elapsed() > limit {
            let _ = child.kill();
            panic!("{what} did not stop after {signal}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

// ---- 1. special targets ------------------------------------------------------------------

#[test]
fn fifo_target_refused() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("f");
    mkfifo(&f);
    for flag in ["--out", "--mazes"] {
        let mut cmd = batchgen();
        cmd.args(["--algo", "wilson", "--size", "8x8", "--count", "2"]);
        if flag == "--mazes" {
            cmd.arg("--out").arg(d.path().join("m.parquet"));
        }
        cmd.arg(flag)
            .arg(&f)
            .assert()
            .code(2)
            .stderr(contains(flag))
            .stderr(contains(f.display().to_string()))
            .stderr(contains("FIFO"));
    }
    batchgen()
        .args([
            "render", "--algo", "wilson", "--size", "4x4", "--index", "0", "-o",
        ])
        .arg(&f)
        .assert()
        .code(2)
        .stderr(contains("FIFO"));
    assert!(fs::symlink_metadata(&f).unwrap().file_type().is_fifo());
    assert_eq!(names(d.path()), vec!["f"]);
}

#[test]
fn folder_and_socket_targets_refused() {
    let d = tempfile::tempdir().unwrap();
    let sock = d.path().join("s");
    let _l = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    batchgen()
        .args(["--algo", "wilson", "--size", "8x8", "--count", "2", "--out"])
        .arg(&sock)
        .assert()
        .code(2)
        .stderr(contains("a socket"));
    assert!(fs::symlink_metadata(&sock).unwrap().file_type().is_socket());
    // A symlink to a FIFO is refused too (the link is followed).
    mkfifo(&d.path().join("f"));
    std::os::unix::fs::symlink("f", d.path().join("link")).unwrap();
    batchgen()
        .args(["--algo", "wilson", "--size", "8x8", "--count", "2", "--out"])
        .arg(d.path().join("link"))
        .assert()
        .code(2)
        .stderr(contains("FIFO"));
}

#[test]
fn char_device_written_through() {
    let d = tempfile::tempdir().unwrap();
    let null = d.path().join("null");
    // A private null device (major 1, minor 3), never the machine's /dev/null.
    sh(
        "mknod",
        &[
            null.as_os_str(),
            OsStr::new("c"),
            OsStr::new("1"),
            OsStr::new("3"),
        ],
    );
    batchgen()
        .args(["--algo", "wilson", "--size", "8x8", "--count", "50", "-q"])
        .arg("--out")
        .arg(&null)
        .arg("--mazes")
        .arg(&null)
        .assert()
        .success();
    batchgen()
        .args([
            "render", "--algo", "wilson", "--size", "4x4", "--index", "0", "-o",
        ])
        .arg(&null)
        .assert()
        .success();
    assert!(fs::symlink_metadata(&null)
        .unwrap()
        .file_type()
        .is_char_device());
    assert_eq!(names(d.path()), vec!["null"], "no temporary file");
}

#[test]
fn symlink_target_replaced_link_kept() {
    let d = tempfile::tempdir().unwrap();
    fs::create_dir(d.path().join("real")).unwrap();
    fs::write(d.path().join("real/m.parquet"), b"old").unwrap();
    let link = d.path().join("m.parquet");
    std::os::unix::fs::symlink("real/m.parquet", &link).unwrap();
    // A dangling link: its target is created.
    let dangling = d.path().join("s.arrow");
    std::os::unix::fs::symlink("real/s.arrow", &dangling).unwrap();
    batchgen()
        .args([
            "--algo", "wilson", "--size", "8x8", "--count", "3", "-q", "--out",
        ])
        .arg(&link)
        .arg("--mazes")
        .arg(&dangling)
        .assert()
        .success();
    for l in [&link, &dangling] {
        assert!(fs::symlink_metadata(l).unwrap().file_type().is_symlink());
    }
    assert_eq!(common::read(&link).rows.len(), 3);
    assert_eq!(
        batchgen::store::StoreReader::open(&d.path().join("real/s.arrow"))
            .unwrap()
            .len(),
        3
    );
    assert_eq!(names(&d.path().join("real")), vec!["m.parquet", "s.arrow"]);
}

// ---- 2. full disk: no temporary file survives a failed finish ---------------------------

#[test]
fn tmpfs_full_leaves_no_temp() {
    let d = tempfile::tempdir().unwrap();
    let mnt = Tmpfs::mount(&d.path().join("small"), "size=2m");
    fs::write(mnt.dir.join("keep.parquet"), b"existing").unwrap();
    batchgen()
        .args([
            "--algo", "wilson", "--size", "16x16", "--count", "100000", "-q",
        ])
        .arg("--out")
        .arg(mnt.dir.join("keep.parquet"))
        .assert()
        .code(1)
        .stderr(contains("No space left"));
    assert_eq!(
        names(&mnt.dir),
        vec!["keep.parquet"],
        "temp file left behind"
    );
    assert_eq!(fs::read(mnt.dir.join("keep.parquet")).unwrap(), b"existing");
    // The same for render -o (a PNG too large for the folder).
    batchgen()
        .args([
            "render",
            "--algo",
            "kruskal",
            "--size",
            "1000x1000",
            "--index",
            "0",
        ])
        .args(["--format", "svg", "-o"])
        .arg(mnt.dir.join("big.svg"))
        .assert()
        .code(1);
    assert_eq!(names(&mnt.dir), vec!["keep.parquet"]);
}

// ---- 3. Parquet and store become visible together ----------------------------------------

#[test]
fn store_and_parquet_commit_together() {
    let d = tempfile::tempdir().unwrap();
    let mnt = Tmpfs::mount(&d.path().join("small"), "size=1m");
    let big = d.path().join("big");
    fs::create_dir(&big).unwrap();
    fs::write(big.join("s.arrow"), b"old store").unwrap();
    // The store fits, the Parquet file does not: neither may appear or change.
    batchgen()
        .args([
            "--algo", "kruskal", "--size", "8x8", "--count", "60000", "-q",
        ])
        .arg("--out")
        .arg(mnt.dir.join("m.parquet"))
        .arg("--mazes")
        .arg(big.join("s.arrow"))
        .assert()
        .code(1);
    assert_eq!(names(&big), vec!["s.arrow"]);
    assert_eq!(fs::read(big.join("s.arrow")).unwrap(), b"old store");
    assert!(names(&mnt.dir).is_empty());
    // The other way round: the store does not fit.
    batchgen()
        .args([
            "--algo", "kruskal", "--size", "64x64", "--count", "3000", "-q",
        ])
        .arg("--out")
        .arg(big.join("m.parquet"))
        .arg("--mazes")
        .arg(mnt.dir.join("s.arrow"))
        .assert()
        .code(1);
    assert_eq!(names(&big), vec!["s.arrow"]);
    assert!(names(&mnt.dir).is_empty());
}

// ---- 4. signals ---------------------------------------------------------------------------

fn interrupt_mid_run(signal: &str, code: i32) {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("m.parquet");
    let store = d.path().join("s.arrow");
    fs::write(&out, b"previous run").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_batchgen"))
        .args([
            "--algo",
            "wilson",
            "--size",
            "32x32",
            "--count",
            "100000000",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--mazes")
        .arg(&store)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Mid-run: both temporary files exist and the store's has grown past its header.
    let waited = Instant::now();
    loop {
        let t = temps(d.path());
        let grown = t.iter().any(|n| {
            n.starts_with(".s.arrow.tmp-")
                && fs::metadata(d.path().join(n)).is_ok_and(|m| m.len() > 1 << 20)
        });
        if t.len() == 2 && grown {
            break;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "the run never got going: {:?}",
            names(d.path())
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let (status, took) = signal_and_wait(&mut child, signal, Duration::from_secs(120), "the run");
    // Reported, not asserted (timings are noisy on a shared machine).
    eprintln!("{signal}: stopped {took:?} after the signal");
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(code), "{err}");
    assert!(err.contains("interrupted by SIG"), "{err}");
    assert!(
        err.contains("of 200,000,000 mazes") || err.contains("of 100,000,000 mazes"),
        "{err}"
    );
    assert_eq!(
        names(d.path()),
        vec!["m.parquet"],
        "temps left or store made"
    );
    assert_eq!(fs::read(&out).unwrap(), b"previous run");
}

#[test]
fn sigint_mid_run_removes_temps_exit_130() {
    interrupt_mid_run("-INT", 130);
}

#[test]
fn sigterm_mid_run_removes_temps_exit_143() {
    interrupt_mid_run("-TERM", 143);
}

#[test]
fn sighup_mid_run_removes_temps_exit_129() {
    interrupt_mid_run("-HUP", 129);
}

/// SIGQUIT (Ctrl-\) would end the process with its temporary files left: it is caught too.
#[test]
fn sigquit_mid_run_removes_temps_exit_131() {
    interrupt_mid_run("-QUIT", 131);
}

/// A 3,000-term filter takes seconds per chunk of candidates; the filter looks at the signal
/// flag as it goes, so SIGTERM stops the run without waiting for the chunk.
#[test]
fn a_long_filter_stops_promptly_on_sigterm() {
    let d = tempfile::tempdir().unwrap();
    let accept: Vec<String> = (0..3000)
        .map(|i| format!("(dead_ends*3-7)/2+cells>{}", 100_000 + i))
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_batchgen"))
        .args(["--algo", "wilson", "--size", "16x16", "--count", "1000000"])
        .arg("--accept")
        .arg(accept.join(" OR "))
        .arg("--out")
        .arg(d.path().join("m.parquet"))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_temps(d.path());
    // Into the filtering of the first chunks.
    std::thread::sleep(Duration::from_millis(1500));
    let (status, took) = signal_and_wait(&mut child, "-TERM", Duration::from_secs(60), "the run");
    eprintln!("stopped {took:?} after SIGTERM");
    assert_eq!(status.code(), Some(143));
    // Generous: the filter of one chunk alone takes several seconds here.
    assert!(took < Duration::from_secs(5), "took {took:?} to stop");
    assert!(names(d.path()).is_empty(), "{:?}", names(d.path()));
}

/// A copy of the metrics file `src` whose column `name` is nullable and NULL in every row;
/// with `stats` false, written without column statistics (no null counts in the footer).
fn with_null_column(src: &Path, dst: &Path, name: &str, stats: bool) {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use std::sync::Arc;
    let builder = ParquetRecordBatchReaderBuilder::try_new(fs::File::open(src).unwrap()).unwrap();
    let kv = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .cloned();
    let old = builder.schema().clone();
    let col = old.index_of(name).unwrap();
    let fields: Vec<arrow_schema::Field> = old
        .fields()
        .iter()
        .enumerate()
        .map(|(i, f)| {
            f.as_ref()
                .clone()
                .with_nullable(f.is_nullable() || i == col)
        })
        .collect();
    let schema = Arc::new(arrow_schema::Schema::new_with_metadata(
        fields,
        old.metadata().clone(),
    ));
    let level = match stats {
        true => parquet::file::properties::EnabledStatistics::Chunk,
        false => parquet::file::properties::EnabledStatistics::None,
    };
    let props = parquet::file::properties::WriterProperties::builder()
        .set_key_value_metadata(kv)
        .set_statistics_enabled(level)
        .build();
    let mut w = parquet::arrow::ArrowWriter::try_new(
        fs::File::create(dst).unwrap(),
        schema.clone(),
        Some(props),
    )
    .unwrap();
    for batch in builder.build().unwrap() {
        let batch = batch.unwrap();
        let mut cols = batch.columns().to_vec();
        cols[col] = arrow_array::new_null_array(cols[col].data_type(), batch.num_rows());
        w.write(&arrow_array::RecordBatch::try_new(schema.clone(), cols).unwrap())
            .unwrap();
    }
    w.close().unwrap();
}

/// NULLs in a key column (algo, width, height) would make a group "NaNxNaN" or "": every
/// reader refuses the file with exit 2 naming it and the column, before any output: up front
/// from the footer's null counts, or as it reads a file written without statistics.
#[test]
fn null_key_columns_are_refused_naming_the_file_and_column() {
    let d = tempfile::tempdir().unwrap();
    let good = d.path().join("good.parquet");
    batchgen()
        .args([
            "--algo",
            "kruskal,wilson",
            "--size",
            "6x6",
            "--count",
            "30",
            "-q",
        ])
        .arg("--out")
        .arg(&good)
        .assert()
        .success();
    for (column, stats) in [
        ("algo", true),
        ("width", true),
        ("height", true),
        ("width", false),
        ("algo", false),
    ] {
        let bad = d.path().join(format!("null-{column}.parquet"));
        with_null_column(&good, &bad, column, stats);
        let want = format!("column '{column}' holds");
        let out = d.path().join(format!("out-{column}"));
        let runs: [Vec<&OsStr>; 4] = [
            vec![OsStr::new("summary"), bad.as_os_str()],
            vec![
                OsStr::new("plot"),
                bad.as_os_str(),
                OsStr::new("--out"),
                out.as_os_str(),
            ],
            vec![OsStr::new("explore"), bad.as_os_str()],
            vec![
                OsStr::new("levels"),
                bad.as_os_str(),
                OsStr::new("--format"),
                OsStr::new("jsonl"),
                OsStr::new("--out"),
                out.as_os_str(),
            ],
        ];
        for args in runs {
            batchgen()
                .args(&args)
                .timeout(Duration::from_secs(60))
                .assert()
                .code(2)
                .stderr(contains(format!("null-{column}.parquet")))
                .stderr(contains(want.as_str()))
                .stdout(predicates::prelude::PredicateBooleanExt::not(contains(
                    "NaN",
                )));
        }
        assert!(!out.exists(), "{column}: an output appeared");
    }
}

// ---- 5. same file, by resolved path -------------------------------------------------------

#[test]
fn same_file_by_resolved_path_refused() {
    let d = tempfile::tempdir().unwrap();
    fs::create_dir(d.path().join("a")).unwrap();
    fs::write(d.path().join("m.parquet"), b"keep").unwrap();
    std::os::unix::fs::symlink("m.parquet", d.path().join("link")).unwrap();
    for mazes in ["./a/../m.parquet", "link"] {
        batchgen()
            .current_dir(d.path())
            .args(["--algo", "wilson", "--size", "8x8", "--count", "2"])
            .args(["--out", "m.parquet", "--mazes", mazes])
            .assert()
            .code(2)
            .stderr(contains("--mazes"))
            .stderr(contains("--out 'm.parquet'"))
            .stderr(contains("would write the same file"));
        assert_eq!(fs::read(d.path().join("m.parquet")).unwrap(), b"keep");
        assert_eq!(names(d.path()), vec!["a", "link", "m.parquet"]);
    }
    // Different files with the same name in two folders: fine, and both complete.
    batchgen()
        .current_dir(d.path())
        .args(["--algo", "wilson", "--size", "8x8", "--count", "2", "-q"])
        .args(["--out", "a/x", "--mazes", "x"])
        .assert()
        .success();
    assert_eq!(common::read(&d.path().join("a/x")).rows.len(), 2);
    assert_eq!(
        batchgen::store::StoreReader::open(&d.path().join("x"))
            .unwrap()
            .len(),
        2
    );
}

// ---- 6 and 7. corrupt stores ---------------------------------------------------------------

fn small_store(d: &Path) -> PathBuf {
    let store = d.join("s.arrow");
    batchgen()
        .args(["--algo", "wilson", "--size", "4x3", "--count", "3", "-q"])
        .arg("--out")
        .arg(d.join("m.parquet"))
        .arg("--mazes")
        .arg(&store)
        .assert()
        .success();
    store
}

#[test]
fn corrupt_store_record_with_loop_refused() {
    let d = tempfile::tempdir().unwrap();
    let store = small_store(d.path());
    let r = batchgen::store::StoreReader::open(&store).unwrap();
    let maze = r.maze(1).unwrap();
    // Open one closed interior wall of record 1: a perfect maze plus an edge has a loop.
    let wall = maze
        .size()
        .interior_walls()
        .find(|w| !maze.is_wall_open(w.id))
        .unwrap();
    let mut bad = maze.clone();
    bad.open_wall(wall.id);
    let i = (0..maze.words().len())
        .find(|&i| maze.words()[i] != bad.words()[i])
        .unwrap();
    // Record 1's wall word, found in the file by its bytes (a 4x3 maze has one word).
    let word = maze.words()[i].to_le_bytes();
    drop(r);
    let mut bytes = fs::read(&store).unwrap();
    let at: Vec<usize> = bytes
        .windows(8)
        .enumerate()
        .filter(|(_, w)| *w == word)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(at.len(), 1, "record 1's walls found once");
    bytes[at[0]..at[0] + 8].copy_from_slice(&bad.words()[i].to_le_bytes());
    fs::write(&store, &bytes).unwrap();
    batchgen()
        .args(["render", "--solution", "--record", "1", "--store"])
        .arg(&store)
        .assert()
        .code(2)
        .stderr(contains("record 1 is not a connected maze with 0 loops"));
    // The other records still render.
    batchgen()
        .args(["render", "--solution", "--record", "2", "--store"])
        .arg(&store)
        .assert()
        .success();
}

#[test]
fn lying_store_footer_refused() {
    let d = tempfile::tempdir().unwrap();
    let store = small_store(d.path());
    let good = fs::read(&store).unwrap();
    let n = good.len();
    // The Arrow footer's length sits just before the closing "ARROW1" magic.
    for (len, needle) in [
        (i32::MAX, "footer length"),
        (-1, "footer length"),
        (3, "unreadable Arrow footer"),
    ] {
        let mut b = good.clone();
        b[n - 10..n - 6].copy_from_slice(&len.to_le_bytes());
        fs::write(&store, &b).unwrap();
        batchgen()
            .args(["render", "--record", "0", "--store"])
            .arg(&store)
            .assert()
            .code(2)
            .stderr(contains("--store"))
            .stderr(contains(needle));
    }
    // Without its closing magic the file was cut short.
    fs::write(&store, &good[..n - 1]).unwrap();
    batchgen()
        .args(["render", "--record", "0", "--store"])
        .arg(&store)
        .assert()
        .code(2)
        .stderr(contains("truncated"));
}

// ---- 8. uniformity on one-cell-wide grids -------------------------------------------------

#[test]
fn uniformity_one_wide_grids_do_not_panic() {
    for args in [
        &["--size", "1x1"][..],
        &["--size", "1x3", "--algo", "wilson", "--samples", "10"][..],
        &[
            "--size",
            "4x1",
            "--algo",
            "kruskal,backtracker",
            "--samples",
            "20",
        ][..],
    ] {
        batchgen().arg("uniformity").args(args).assert().success();
    }
}

// ---- 9. non-UTF-8 arguments -----------------------------------------------------------------

#[test]
fn non_utf8_arguments_handled() {
    let d = tempfile::tempdir().unwrap();
    let name = OsStr::from_bytes(b"m\xff\xfe.parquet");
    batchgen()
        .args([
            "--algo", "wilson", "--size", "8x8", "--count", "2", "-q", "--out",
        ])
        .arg(d.path().join(name))
        .assert()
        .success();
    assert!(d.path().join(name).is_file());
    batchgen()
        .arg("--size")
        .arg(OsStr::from_bytes(b"8x\xff"))
        .arg("--out")
        .arg(d.path().join("x.parquet"))
        .assert()
        .code(2)
        .stderr(contains("--size"));
    assert!(!d.path().join("x.parquet").exists());
}

// ---- 10. wilson-straight near 1 -------------------------------------------------------------

#[test]
fn wilson_straight_near_one_refused() {
    let d = tempfile::tempdir().unwrap();
    batchgen()
        .args([
            "--algo",
            "wilson-straight:0.999999999999",
            "--size",
            "8x8",
            "--out",
        ])
        .arg(d.path().join("x.parquet"))
        .assert()
        .code(2)
        .stderr(contains("--algo"))
        .stderr(contains("0.999999999999"))
        .stderr(contains("0 <= P <= 0.999"));
    batchgen()
        .args([
            "--algo",
            "wilson-straight:0.999",
            "--size",
            "8x8",
            "--count",
            "5",
            "-q",
            "--out",
        ])
        .arg(d.path().join("x.parquet"))
        .assert()
        .success();
}

// ---- memory ---------------------------------------------------------------------------------

#[test]
fn huge_size_refused_under_ulimit_v() {
    let d = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_batchgen");
    let run = |size: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 1048576 && exec \"$0\" --algo wilson --size {size} --count 2 \
                 --threads 1 -q --out \"$1\""
            ))
            .arg(bin)
            .arg(d.path().join("x.parquet"))
            .output()
            .unwrap()
    };
    let o = run("8192x8192");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--size") && err.contains("8192x8192") && err.contains("needs about"));
    assert!(names(d.path()).is_empty());
    // The same limit is fine for a grid that fits.
    let o = run("1024x1024");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

// ---- fuzz regressions -----------------------------------------------------------------------

/// Every input under tests/fuzz/regressions/ and tests/fuzz/seeds/, through what each fuzz
/// target does (without libFuzzer): nothing may panic.
#[test]
fn fuzz_inputs_replay_without_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz");
    let mut n = 0;
    for kind in ["regressions", "seeds"] {
        for target in ["accept_parse", "arg_parsers", "store_reader"] {
            let dir = root.join(kind).join(target);
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for e in entries {
                let data = fs::read(e.unwrap().path()).unwrap();
                replay(target, &data);
                n += 1;
            }
        }
    }
    assert!(n >= 10, "only {n} fuzz inputs found");
}

#[path = "fuzz/targets.rs"]
mod fuzz_targets;

fn replay(target: &str, data: &[u8]) {
    match target {
        "accept_parse" => fuzz_targets::accept_parse(data),
        "arg_parsers" => fuzz_targets::arg_parsers(data),
        "store_reader" => fuzz_targets::store_reader(data),
        _ => unreachable!(),
    }
}

// ---- every output of a run is its own file -----------------------------------------------

/// The run refuses with exit 2, names both flags, and writes nothing.
fn refused_as_one_file(dir: &Path, args: &[&str], flags: [&str; 2]) {
    let before = names(dir);
    let out = batchgen()
        .current_dir(dir)
        .args(["--size", "4x4", "--count", "5", "--algo", "kruskal", "-q"])
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    for f in flags {
        assert!(err.contains(f), "{args:?}: {err}");
    }
    assert!(err.contains("would write the same file"), "{err}");
    assert_eq!(names(dir), before, "{args:?} wrote something");
}

#[test]
fn outputs_landing_on_one_file_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    refused_as_one_file(
        p,
        &[
            "--out",
            "o.parquet",
            "--mazes",
            "m.arrow",
            "--summary-json",
            "./m.arrow",
        ],
        ["--mazes", "--summary-json"],
    );
    fs::create_dir(p.join("sub")).unwrap();
    refused_as_one_file(
        p,
        &["--out", "o.parquet", "--summary-json", "sub/../o.parquet"],
        ["--out", "--summary-json"],
    );
    // A dataset's part files, once the folder exists from an earlier run.
    batchgen()
        .current_dir(p)
        .args(["--size", "4x4", "--count", "5", "--algo", "kruskal", "-q"])
        .args(["--out", "ds/", "--mazes", "ds/"])
        .assert()
        .success();
    let part = "ds/algo=kruskal/size=4x4/part-00001-of-00001";
    let (pq, arrow) = (format!("{part}.parquet"), format!("{part}.arrow"));
    refused_as_one_file(p, &["--out", "ds/", "--mazes", &pq], ["--out", "--mazes"]);
    refused_as_one_file(
        p,
        &["--out", "ds/", "--summary-json", &pq],
        ["--out", "--summary-json"],
    );
    refused_as_one_file(
        p,
        &["--out", &arrow, "--mazes", "ds/"],
        ["--out", "--mazes"],
    );
    // A hard link is the same file under another name.
    fs::write(p.join("h.parquet"), b"keep").unwrap();
    fs::hard_link(p.join("h.parquet"), p.join("h.arrow")).unwrap();
    refused_as_one_file(
        p,
        &["--out", "h.parquet", "--mazes", "h.arrow"],
        ["--out", "--mazes"],
    );
    assert_eq!(fs::read(p.join("h.arrow")).unwrap(), b"keep");
    // The dataset is still complete.
    batchgen().arg("check").arg(p.join("ds")).assert().success();
}

#[test]
fn summary_json_folder_not_writable_is_refused_before_work() {
    let d = tempfile::tempdir().unwrap();
    let ro = Tmpfs::mount(&d.path().join("ro"), "size=1m,ro");
    let out = d.path().join("o.parquet");
    batchgen()
        .args(["--size", "4x4", "--count", "5", "--algo", "kruskal", "-q"])
        .arg("--out")
        .arg(&out)
        .arg("--summary-json")
        .arg(ro.dir.join("s.json"))
        .assert()
        .code(2)
        .stderr(contains("--summary-json"));
    assert_eq!(
        names(d.path()),
        vec!["ro"],
        "the Parquet file was committed"
    );
    // With a writable folder the summary appears with the Parquet file and names it.
    let json = d.path().join("s.json");
    batchgen()
        .args(["--size", "4x4", "--count", "5", "--algo", "kruskal", "-q"])
        .arg("--out")
        .arg(&out)
        .arg("--summary-json")
        .arg(&json)
        .assert()
        .success();
    let doc: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    assert_eq!(
        doc["outputs"][0]["bytes"].as_u64(),
        Some(fs::metadata(&out).unwrap().len())
    );
    assert!(temps(d.path()).is_empty());
}

#[test]
fn a_file_name_near_the_limit_is_written() {
    let d = tempfile::tempdir().unwrap();
    let name = "n".repeat(240) + ".parquet";
    batchgen()
        .args(["--size", "4x4", "--count", "3", "--algo", "kruskal", "-q"])
        .arg("--out")
        .arg(d.path().join(&name))
        .assert()
        .success();
    assert_eq!(names(d.path()), vec![name.clone()]);
    assert_eq!(common::read(&d.path().join(&name)).rows.len(), 3);
}

#[test]
fn concurrent_runs_commit_one_runs_pair() {
    let d = tempfile::tempdir().unwrap();
    let (out, store) = (d.path().join("m.parquet"), d.path().join("s.arrow"));
    for trial in 0..12 {
        let kids: Vec<_> = [1u64, 2]
            .iter()
            .map(|seed| {
                Command::new(env!("CARGO_BIN_EXE_batchgen"))
                    .args(["--algo", "kruskal", "--size", "8x8", "--count", "300", "-q"])
                    .args(["--threads", "1", "--seed", &seed.to_string()])
                    .arg("--out")
                    .arg(&out)
                    .arg("--mazes")
                    .arg(&store)
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut k in kids {
            assert!(k.wait().unwrap().success());
        }
        let pq_seed = common::read(&out).meta["batchgen.seed"].clone();
        let st = batchgen::store::StoreReader::open(&store).unwrap();
        assert_eq!(pq_seed, st.seed.to_string(), "trial {trial}: a mixed pair");
        assert!(temps(d.path()).is_empty());
    }
}

/// The write end of a pipe whose read end is already closed.
fn closed_pipe() -> std::io::PipeWriter {
    let (r, w) = std::io::pipe().unwrap();
    drop(r);
    w
}

#[test]
fn full_or_closed_stdout_never_panics() {
    let d = tempfile::tempdir().unwrap();
    let full = d.path().join("full");
    sh(
        "mknod",
        &[
            full.as_os_str(),
            OsStr::new("c"),
            OsStr::new("1"),
            OsStr::new("7"),
        ],
    );
    let parquet = d.path().join("o.parquet");
    batchgen()
        .args(["--size", "4x4", "--count", "3", "--algo", "kruskal", "-q"])
        .arg("--out")
        .arg(&parquet)
        .assert()
        .success();
    let p = parquet.to_str().unwrap();
    let ds = d.path().join("ds");
    batchgen()
        .args([
            "--size", "4x4", "--count", "3", "--algo", "kruskal", "-q", "--out",
        ])
        .arg(format!("{}/", ds.display()))
        .assert()
        .success();
    let ds = ds.to_str().unwrap();
    let commands: [&[&str]; 6] = [
        &["list-algos"],
        &["summary", p],
        &["completions", "bash"],
        &[
            "uniformity",
            "--algo",
            "kruskal",
            "--size",
            "2x2",
            "--samples",
            "200",
        ],
        &["check", ds],
        &["man"],
    ];
    for args in commands {
        let out = Command::new(env!("CARGO_BIN_EXE_batchgen"))
            .args(args)
            .stdout(fs::OpenOptions::new().write(true).open(&full).unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("writing to stdout") && err.contains("No space"),
            "{err}"
        );
        let errors = err.lines().filter(|l| l.contains("error")).count();
        assert_eq!(errors, 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        let out = Command::new(env!("CARGO_BIN_EXE_batchgen"))
            .args(args)
            .stdout(closed_pipe())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked") && !err.contains("error"), "{err}");
    }
    // stderr only carries messages: on the full device or a closed pipe it is ignored, and
    // every command does its work and exits as it would with a working stderr. The main run
    // commits (its warning about the `.txt` name and its closing line go nowhere) and exits
    // 0; bad input is still 2; summary still prints its report.
    let full_err = || fs::OpenOptions::new().write(true).open(&full).unwrap();
    for (i, stderr) in [Stdio::from(full_err()), Stdio::from(closed_pipe())]
        .into_iter()
        .enumerate()
    {
        let target = d.path().join(format!("n{i}.txt"));
        let out = Command::new(env!("CARGO_BIN_EXE_batchgen"))
            .args(["--size", "4x4", "--count", "3", "--algo", "kruskal"])
            .arg("--out")
            .arg(&target)
            .stderr(stderr)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "stderr {i}");
        assert_eq!(common::read(&target).rows.len(), 3);
    }
    for stderr in [Stdio::from(full_err()), Stdio::from(closed_pipe())] {
        let bad = Command::new(env!("CARGO_BIN_EXE_batchgen"))
            .args(["--size", "0x4", "--out"])
            .arg(d.path().join("never.parquet"))
            .stderr(stderr)
            .output()
            .unwrap();
        assert_eq!(bad.status.code(), Some(2));
    }
    assert!(!d.path().join("never.parquet").exists());
    let report = Command::new(env!("CARGO_BIN_EXE_batchgen"))
        .args(["summary", p])
        .stderr(full_err())
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&report.stdout).contains("kruskal"));
}

#[test]
fn bad_engine_shard_variables_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let run = |env: &[(&str, &OsStr)], var: &str| {
        let mut c = batchgen();
        c.args(["--size", "4x4", "--count", "8", "--algo", "kruskal", "-q"])
            .arg("--out")
            .arg(format!("{}/", d.path().join("ds").display()));
        for (k, v) in env {
            c.env(k, v);
        }
        c.assert().code(2).stderr(contains(var));
        assert!(names(d.path()).is_empty());
    };
    run(
        &[
            ("JOB_COMPLETION_INDEX", OsStr::from_bytes(b"\xff")),
            ("BATCHGEN_SHARD_COUNT", OsStr::new("4")),
        ],
        "JOB_COMPLETION_INDEX",
    );
    run(
        &[
            ("AWS_BATCH_JOB_ARRAY_INDEX", OsStr::from_bytes(b"\xff")),
            ("AWS_BATCH_JOB_ARRAY_SIZE", OsStr::new("4")),
        ],
        "AWS_BATCH_JOB_ARRAY_INDEX",
    );
    run(
        &[("BATCHGEN_SHARD_COUNT", OsStr::new("4"))],
        "BATCHGEN_SHARD_COUNT",
    );
}

// ---- readers never hang ---------------------------------------------------------------------

#[test]
fn fifo_inputs_are_refused_not_waited_on() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let ds = p.join("ds");
    batchgen()
        .args(["--size", "4x4", "--count", "4", "--algo", "kruskal", "-q"])
        .args(["--shard", "1/2", "--out"])
        .arg(format!("{}/", ds.display()))
        .assert()
        .success();
    mkfifo(&ds.join("algo=kruskal/size=4x4/part-00002-of-00002.parquet"));
    mkfifo(&p.join("f.parquet"));
    mkfifo(&p.join("s.arrow"));
    let limit = Duration::from_secs(60);
    for args in [
        vec!["summary".into(), p.join("f.parquet")],
        vec!["summary".into(), ds.clone()],
        vec![
            "plot".into(),
            p.join("f.parquet"),
            "-o".into(),
            p.join("pl"),
        ],
    ] {
        batchgen()
            .args(&args)
            .timeout(limit)
            .assert()
            .code(2)
            .stderr(contains("is a FIFO (named pipe), not a regular file"));
    }
    batchgen()
        .arg("check")
        .arg(&ds)
        .timeout(limit)
        .assert()
        .code(1)
        .stdout(contains("part-00002-of-00002.parquet: is a FIFO"));
    batchgen()
        .args(["render", "--record", "0", "--store"])
        .arg(p.join("s.arrow"))
        .timeout(limit)
        .assert()
        .code(2)
        .stderr(contains("--store"))
        .stderr(contains("FIFO"));
}

#[test]
fn folder_link_loops_are_not_followed() {
    let d = tempfile::tempdir().unwrap();
    let ds = d.path().join("ds");
    batchgen()
        .args([
            "--size",
            "4x4",
            "--count",
            "7",
            "--algo",
            "kruskal,wilson",
            "-q",
            "--out",
        ])
        .arg(format!("{}/", ds.display()))
        .assert()
        .success();
    let part = ds.join("algo=kruskal/size=4x4");
    std::os::unix::fs::symlink(".", part.join("a")).unwrap();
    std::os::unix::fs::symlink(".", part.join("b")).unwrap();
    std::os::unix::fs::symlink("..", part.join("loop")).unwrap();
    let limit = Duration::from_secs(60);
    batchgen()
        .arg("check")
        .arg(&ds)
        .timeout(limit)
        .assert()
        .success()
        .stdout(contains(
            "size=4x4/loop: a symbolic link to a folder, not followed",
        ))
        .stdout(contains("complete: 2 partitions, 2 files, 14 rows"));
    let out = batchgen()
        .args(["summary", "--format", "csv"])
        .arg(&ds)
        .timeout(limit)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    // Each generator's 7 rows once: the links add no file.
    for algo in ["kruskal", "wilson"] {
        let dead_ends = format!("{algo},4x4,7,dead_ends,");
        assert_eq!(text.matches(&dead_ends).count(), 1, "{text}");
    }
    batchgen()
        .arg("plot")
        .arg(&ds)
        .arg("-o")
        .arg(d.path().join("pl"))
        .timeout(limit)
        .assert()
        .success();
}

// ---- long walks: refused up front, stopped by a signal --------------------------------------

#[test]
fn long_walks_are_refused_up_front_and_stop_on_a_signal() {
    let d = tempfile::tempdir().unwrap();
    for algo in ["aldous-broder", "wilson", "wilson-straight:0.5"] {
        batchgen()
            .args(["--size", "1000000x1", "--count", "1", "--algo", algo])
            .arg("--out")
            .arg(d.path().join("x.parquet"))
            .assert()
            .code(2)
            .stderr(contains("--size"))
            .stderr(contains("1.0e12 steps"))
            .stderr(contains("--no-time-limit"));
    }
    assert!(names(d.path()).is_empty());
    // Insisting runs it, and a signal stops it inside the one maze (which walks for hours).
    for algo in ["aldous-broder", "wilson", "wilson-straight:0.5"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_batchgen"))
            .args([
                "--size",
                "1000000x1",
                "--count",
                "1",
                "--threads",
                "1",
                "-q",
            ])
            .args(["--algo", algo, "--no-time-limit", "--out"])
            .arg(d.path().join("x.parquet"))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for_temps(d.path());
        std::thread::sleep(Duration::from_millis(300));
        let what = format!("{algo}'s walk");
        let (status, took) = signal_and_wait(&mut child, "-INT", Duration::from_secs(60), &what);
        eprintln!("{algo}: stopped {took:?} after SIGINT");
        assert_eq!(status.code(), Some(130), "{algo}");
        assert!(names(d.path()).is_empty(), "{algo}: {:?}", names(d.path()));
    }
}

/// A 1-wide corridor winding through a square: `side` rows of cells, joined at alternate ends.
fn serpentine(side: usize) -> String {
    let mut t = String::new();
    for y in 0..side {
        let row: String = (0..side)
            .map(|x| {
                let open = y % 2 == 0 || (y % 4 == 1 && x == side - 1) || (y % 4 == 3 && x == 0);
                if open {
                    '.'
                } else {
                    '#'
                }
            })
            .collect();
        t.push_str(&row);
        t.push('\n');
    }
    t
}

#[test]
fn a_winding_mask_is_judged_by_its_corridor_not_its_bounding_box() {
    let d = tempfile::tempdir().unwrap();
    // 1001x1001: its bounding box alone suggests about 2e8 steps; its one corridor of about
    // 5e5 cells, about 2.5e11.
    let m = d.path().join("snake.txt");
    fs::write(&m, serpentine(1001)).unwrap();
    for algo in ["aldous-broder", "wilson"] {
        batchgen()
            .args(["--count", "1", "--algo", algo, "--mask"])
            .arg(&m)
            .arg("--out")
            .arg(d.path().join("x.parquet"))
            .assert()
            .code(2)
            .stderr(contains("--mask"))
            .stderr(contains("longest path"))
            .stderr(contains("--no-time-limit"));
    }
    // The same cells in a square block pass: the refusal is the corridor's length.
    let square = d.path().join("square.txt");
    let block: String = (0..708).map(|_| ".".repeat(708) + "\n").collect();
    fs::write(&square, block).unwrap();
    batchgen()
        .args(["--count", "0", "--algo", "wilson", "--mask"])
        .arg(&square)
        .arg("--out")
        .arg(d.path().join("y.parquet"))
        .assert()
        .success();
    // A small winding mask stays allowed.
    let small = d.path().join("small.txt");
    fs::write(&small, serpentine(41)).unwrap();
    batchgen()
        .args(["--count", "2", "--algo", "aldous-broder", "--mask"])
        .arg(&small)
        .arg("--out")
        .arg(d.path().join("z.parquet"))
        .assert()
        .success();
}

// ---- mask files ---------------------------------------------------------------------------

/// `--mask` takes a regular file only: a FIFO (which would block), a character device (an
/// endless zero device would be read without limit), and a folder are refused with exit 2
/// naming the flag and the path, in the main job, `render` and `uniformity`, and quickly.
#[test]
fn mask_must_be_a_regular_file() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("m.txt");
    mkfifo(&fifo);
    // A private zero device (major 1, minor 5), never the machine's /dev/zero.
    let zero = d.path().join("z");
    sh(
        "mknod",
        &[
            zero.as_os_str(),
            OsStr::new("c"),
            OsStr::new("1"),
            OsStr::new("5"),
        ],
    );
    let dir = d.path().join("folder");
    fs::create_dir(&dir).unwrap();
    let out = d.path().join("a.parquet");
    for (mask, kind) in [
        (&fifo, "FIFO"),
        (&zero, "a character device"),
        (&dir, "a folder"),
    ] {
        let runs: [Vec<&OsStr>; 3] = [
            vec![
                OsStr::new("--algo"),
                OsStr::new("wilson"),
                OsStr::new("--count"),
                OsStr::new("1"),
                OsStr::new("-o"),
                out.as_os_str(),
            ],
            vec![
                OsStr::new("render"),
                OsStr::new("--algo"),
                OsStr::new("wilson"),
                OsStr::new("--index"),
                OsStr::new("0"),
            ],
            vec![
                OsStr::new("uniformity"),
                OsStr::new("--algo"),
                OsStr::new("wilson"),
                OsStr::new("--samples"),
                OsStr::new("10"),
            ],
        ];
        for args in runs {
            batchgen()
                .args(&args)
                .arg("--mask")
                .arg(mask)
                .timeout(Duration::from_secs(60))
                .assert()
                .code(2)
                .stderr(contains("'--mask'"))
                .stderr(contains(mask.display().to_string()))
                .stderr(contains(kind))
                .stderr(contains("a mask must be a regular file"));
        }
    }
    assert_eq!(names(d.path()), vec!["folder", "m.txt", "z"]);
}

/// A mask file larger than the stated bound (256 MiB) is refused before it is read; the sparse
/// file takes no disk space.
#[test]
fn mask_file_size_is_bounded() {
    let d = tempfile::tempdir().unwrap();
    let big = d.path().join("big.txt");
    let f = fs::File::create(&big).unwrap();
    f.set_len((256 << 20) + 1).unwrap();
    batchgen()
        .args(["--algo", "wilson", "--count", "1", "--mask"])
        .arg(&big)
        .arg("-o")
        .arg(d.path().join("a.parquet"))
        .timeout(Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("'--mask'"))
        .stderr(contains("a mask file is at most 268435456 bytes"));
}

// ---- names read from the disk -------------------------------------------------------------

/// A file name with ESC and BEL inside a dataset folder is shown escaped by `summary`, `plot`
/// and `explore`, as `check` shows it: the terminal is never sent the raw control characters.
#[test]
fn control_characters_in_file_names_are_escaped() {
    let d = tempfile::tempdir().unwrap();
    let part = d.path().join("ds/algo=kruskal/size=4x4");
    fs::create_dir_all(&part).unwrap();
    fs::write(part.join("\u{1b}[31mevil\u{7}.parquet"), "x").unwrap();
    let ds = d.path().join("ds");
    let runs: [Vec<&OsStr>; 3] = [
        vec![OsStr::new("summary"), ds.as_os_str()],
        vec![
            OsStr::new("plot"),
            ds.as_os_str(),
            OsStr::new("-o"),
            d.path().join("pics").into_os_string().leak(),
        ],
        vec![OsStr::new("explore"), ds.as_os_str()],
    ];
    for args in runs {
        let out = batchgen()
            .args(&args)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("\\u{1b}[31mevil\\u{7}.parquet"),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains('\u{1b}') && !err.contains('\u{7}'),
            "{args:?}: {err}"
        );
    }
}

/// `explore` takes a path that is not UTF-8, as `summary` does.
#[test]
fn explore_reads_a_non_utf8_path() {
    use std::io::BufRead;
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join(OsStr::from_bytes(b"\xff\xfex.parquet"));
    batchgen()
        .args([
            "--algo", "kruskal", "--size", "4x4", "--count", "10", "-q", "-o",
        ])
        .arg(&f)
        .assert()
        .success();
    batchgen().arg("summary").arg(&f).assert().success();
    let mut child = Command::new(env!("CARGO_BIN_EXE_batchgen"))
        .arg("explore")
        .arg(&f)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    assert!(
        line.contains("10 rows of 1 file(s)"),
        "{line} {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A FIFO that a `**` pattern matches is refused, as walking the folder refuses it (one rule),
/// instead of being skipped in silence.
#[test]
fn a_fifo_matched_by_a_pattern_is_refused_like_in_a_folder() {
    let d = tempfile::tempdir().unwrap();
    let part = d.path().join("ds/algo=kruskal/size=4x4");
    fs::create_dir_all(&part).unwrap();
    batchgen()
        .args([
            "--algo", "kruskal", "--size", "4x4", "--count", "10", "-q", "-o",
        ])
        .arg(part.join("part-00001-of-00002.parquet"))
        .assert()
        .success();
    mkfifo(&part.join("part-00002-of-00002.parquet"));
    let pattern = format!("{}/ds/**/*.parquet", d.path().display());
    let folder = d.path().join("ds");
    for input in [OsStr::new(&pattern), folder.as_os_str()] {
        batchgen()
            .arg("summary")
            .arg(input)
            .timeout(Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(contains("part-00002-of-00002.parquet' is a FIFO"));
    }
}

/// `plot -o` inside a read-only file system is refused with exit 2 before any work (as the
/// docs promise for bad input), whether the pictures' folder exists or would be created there.
#[test]
fn plot_into_a_read_only_folder_is_refused_before_work() {
    let d = tempfile::tempdir().unwrap();
    let m = d.path().join("m.parquet");
    batchgen()
        .args([
            "--size", "4x4", "--count", "5", "--algo", "kruskal", "-q", "--out",
        ])
        .arg(&m)
        .assert()
        .success();
    let ro = Tmpfs::mount(&d.path().join("ro"), "size=1m,ro");
    for out in [ro.dir.join("plots"), ro.dir.clone()] {
        batchgen()
            .arg("plot")
            .arg(&m)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(contains("'--out'"))
            .stderr(contains("is not writable"));
    }
}

/// `--help` and `--version` into a full file system (a 64 KiB tmpfs filled first) exit 1
/// with the write error, not 0 as if the text had been written.
#[test]
fn help_to_a_full_device_fails() {
    use std::io::Write;
    let d = tempfile::tempdir().unwrap();
    let mnt = Tmpfs::mount(&d.path().join("full"), "size=64k");
    let mut fill = fs::File::create(mnt.dir.join("fill")).unwrap();
    while fill.write_all(&[0u8; 4096]).is_ok() {}
    drop(fill);
    for arg in ["--help", "--version"] {
        let out = fs::File::create(mnt.dir.join("out")).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_batchgen"))
            .arg(arg)
            .stdout(out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{arg}: {err}");
        assert!(err.contains("No space left"), "{arg}: {err}");
    }
}

// ---- long walks in levels and render: the main job's rule -------------------------------

/// A copy of the metrics file `src` whose rows all claim to be `width`x1 mazes.
fn with_width(src: &Path, dst: &Path, width: u32) {
    common::with_column(src, dst, "width", |old, _| {
        std::sync::Arc::new(arrow_array::UInt32Array::from(vec![width; old.len()]))
    });
}

#[test]
fn levels_and_render_refuse_long_walks_before_regenerating() {
    // A regression would walk for hours: the timeouts make it fail instead of hang.
    let d = tempfile::tempdir().unwrap();
    let small = d.path().join("small.parquet");
    batchgen()
        .args([
            "--size",
            "4x1",
            "--count",
            "401",
            "--algo",
            "aldous-broder",
            "-q",
        ])
        .arg("--out")
        .arg(&small)
        .assert()
        .success();
    // Rows claiming 1000000x1: about 1e12 steps each, over the main job's limit.
    let hostile = d.path().join("hostile.parquet");
    with_width(&small, &hostile, 1_000_000);
    let out = d.path().join("levels.jsonl");
    batchgen()
        .arg("levels")
        .arg(&hostile)
        .args(["--format", "jsonl", "--out"])
        .arg(&out)
        .timeout(Duration::from_secs(120))
        .assert()
        .code(2)
        .stderr(contains(hostile.to_str().unwrap()))
        .stderr(contains("row 0 (aldous-broder 1000000x1)"))
        .stderr(contains("1.0e12 steps"))
        .stderr(contains("--no-time-limit"));
    assert!(!out.exists());
    // --no-time-limit skips the rule: the run goes on to the next check, which also comes
    // before any maze is made (a contact sheet holds at most 400 levels; 401 are picked).
    let sheet = d.path().join("sheet.png");
    for (flag, says) in [
        (None, "random walk"),
        (Some("--no-time-limit"), "at most 400"),
    ] {
        batchgen()
            .arg("levels")
            .arg(&hostile)
            .args(["--format", "png", "--out"])
            .arg(&sheet)
            .args(flag)
            .timeout(Duration::from_secs(120))
            .assert()
            .code(2)
            .stderr(contains(says));
    }
    assert!(!sheet.exists());
    // The rule lets the real rows through, with or without the flag, to the same output.
    let a = d.path().join("a.jsonl");
    let b = d.path().join("b.jsonl");
    for (out, flag) in [(&a, None), (&b, Some("--no-time-limit"))] {
        batchgen()
            .arg("levels")
            .arg(&small)
            .args(["--count", "3", "--format", "jsonl", "--out"])
            .arg(out)
            .args(flag)
            .assert()
            .success();
    }
    assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap());
    assert_eq!(fs::read_to_string(&a).unwrap().lines().count(), 3);

    // render: the same rule on --size and on --mask, before anything is drawn.
    let pic = d.path().join("x.txt");
    for algo in ["aldous-broder", "wilson"] {
        batchgen()
            .args([
                "render",
                "--algo",
                algo,
                "--size",
                "1000000x1",
                "--index",
                "0",
            ])
            .arg("-o")
            .arg(&pic)
            .timeout(Duration::from_secs(120))
            .assert()
            .code(2)
            .stderr(contains("'--size'"))
            .stderr(contains("1.0e12 steps"))
            .stderr(contains("--no-time-limit"));
    }
    let m = d.path().join("snake.txt");
    fs::write(&m, serpentine(1001)).unwrap();
    batchgen()
        .args(["render", "--algo", "wilson", "--index", "0", "--mask"])
        .arg(&m)
        .arg("-o")
        .arg(&pic)
        .timeout(Duration::from_secs(120))
        .assert()
        .code(2)
        .stderr(contains("'--mask'"))
        .stderr(contains("longest path"))
        .stderr(contains("--no-time-limit"));
    assert!(names(d.path()).iter().all(|n| n != "x.txt"));
    // With the flag a cheap maze is drawn as without it; beside --store it means nothing.
    let plain = batchgen()
        .args([
            "render", "--algo", "wilson", "--size", "9x5", "--index", "2",
        ])
        .output()
        .unwrap();
    let insisted = batchgen()
        .args([
            "render", "--algo", "wilson", "--size", "9x5", "--index", "2",
        ])
        .arg("--no-time-limit")
        .output()
        .unwrap();
    assert!(plain.status.success() && insisted.status.success());
    assert_eq!(plain.stdout, insisted.stdout);
    batchgen()
        .args([
            "render",
            "--store",
            "s.arrow",
            "--record",
            "0",
            "--no-time-limit",
        ])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(2)
        .stderr(contains("--no-time-limit"));
}
