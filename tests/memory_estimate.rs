//! Does `memory::estimate` bound what a run really takes? The command refuses a run whose
//! estimate exceeds the memory available, so an estimate below the truth lets a run start that
//! the machine cannot hold. The per-cell bound (`memory::bytes_per_cell`) is checked here
//! against real runs: the peak RSS of one maze at two sizes (from `wait4`, per child), whose
//! difference divided by the difference in cells is the cost of a cell without the fixed part.
//! The generators with the largest scratch are checked, in 2D and 3D, and a run that keeps its
//! mazes (`--mazes`), whose store writer buffers whole record batches of walls.

use std::process::Command;

use batchgen::grid::Size;
use batchgen::{memory, Algorithm};

/// Set in the environment of the process [`in_own_process`] starts.
const ALONE: &str = "BATCHGEN_TEST_RSS_ALONE";

/// Whether test `name` of this module ran, and passed, in a process of its own: true in the
/// test binary (the caller then returns), false in that process (the caller measures). Linux
/// carries the peak RSS of the process that spawns a child over the child's `exec`, and the
/// test binary runs every suite on its threads, so a child spawned from it would report the
/// binary's own peak; one spawned from a process running this test alone reports its own.
fn in_own_process(name: &str) -> bool {
    if std::env::var_os(ALONE).is_some() {
        return false;
    }
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let test = format!("{module}::{name}");
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &test, "--nocapture", "--test-threads=1"])
        .env(ALONE, "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "{test} in its own process failed:\n{text}"
    );
    assert!(
        text.contains("1 passed"),
        "{test} did not run alone:\n{text}"
    );
    true
}

/// Peak resident set of one maze of `algo` at `size` on one thread, in bytes.
fn peak_rss(algo: &str, size: Size, out: &std::path::Path) -> u64 {
    let size = size.to_string();
    let args = [
        "--algo",
        algo,
        "--size",
        &size,
        "--count",
        "1",
        "--threads",
        "1",
    ];
    peak_rss_of(&args, out, None)
}

/// Peak resident set of one `batchgen -q --out OUT [--mazes STORE] ARGS…` run, in bytes.
fn peak_rss_of(args: &[&str], out: &std::path::Path, store: Option<&std::path::Path>) -> u64 {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_batchgen"));
    cmd.args(args).arg("-q").arg("--out").arg(out);
    if let Some(store) = store {
        cmd.arg("--mazes").arg(store);
    }
    peak_rss_of_command(cmd, args)
}

/// Peak resident set of the run of `cmd` (which must succeed), in bytes; `args` for messages.
fn peak_rss_of_command(mut cmd: Command, args: &[&str]) -> u64 {
    let child = cmd.spawn().expect("spawn batchgen");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills; zeroed is a valid value of it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet waited for (`Child` is dropped without `wait`, which
    // neither waits nor kills), and both pointers are to live locals.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "batchgen {args:?} failed: status {status}"
    );
    drop(child);
    usage.ru_maxrss as u64 * 1024
}

#[test]
fn bytes_per_cell_bound_real_runs() {
    if in_own_process("bytes_per_cell_bound_real_runs") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.parquet");
    let (small, big) = (Size::planar(256, 256), Size::planar(1024, 1024));
    let (small3, big3) = (Size::new(40, 40, 40), Size::new(100, 100, 100));
    let cases = [
        ("kruskal", small, big),
        ("growing-tree:oldest", small, big),
        ("backtracker", small, big),
        ("wilson-straight:0.5", small, big),
        ("kruskal", small3, big3),
        ("growing-tree:oldest", small3, big3),
        ("wilson-straight:0.5", small3, big3),
    ];
    for (algo, small, big) in cases {
        let a = peak_rss(algo, small, &out);
        let b = peak_rss(algo, big, &out);
        let per_cell = b.saturating_sub(a) as f64 / (big.cells_u64() - small.cells_u64()) as f64;
        let parsed = Algorithm::parse(algo).unwrap();
        let bound = memory::bytes_per_cell(&parsed) + u64::from(big.is_3d());
        eprintln!("{algo} {big}: {per_cell:.1} bytes per cell, bound {bound}");
        assert!(
            per_cell <= bound as f64,
            "{algo} at {big}: {per_cell:.1} bytes per cell, over memory::bytes_per_cell's {bound}"
        );
        // And the whole estimate covers the whole run.
        let estimate = memory::estimate(&[parsed], big, 1, 0, false);
        assert!(
            b <= estimate,
            "{algo} at {big}: peak {b} bytes over the estimate {estimate}"
        );
    }
}

/// The same bound on the hex, triangle and polar grids (`memory::grid_bytes_per_cell`), for
/// the generators with the largest scratch, and the whole estimate over the whole run. The
/// cell counts come from the runs' rows: this process builds no grid, since a child's peak
/// starts from its parent's.
#[test]
fn grid_bytes_per_cell_bound_real_runs() {
    if in_own_process("grid_bytes_per_cell_bound_real_runs") {
        return;
    }
    use batchgen::topo::Grid;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.parquet");
    let sizes = [
        (Grid::Hex, "256x256", "1024x1024"),
        (Grid::Triangle, "256x256", "1024x1024"),
        (Grid::Polar, "145", "580"),
    ];
    for (grid, small, big) in sizes {
        for algo in [
            "kruskal",
            "backtracker",
            "prim",
            "growing-tree:mix:0.5",
            "wilson",
        ] {
            // (peak bytes, cells) of one maze at `size`.
            let run = |size: &str| {
                let args = [
                    "--grid",
                    grid.name(),
                    "--size",
                    size,
                    "--algo",
                    algo,
                    "--count",
                    "1",
                    "--threads",
                    "1",
                ];
                let peak = peak_rss_of(&args, &out, None);
                let t = crate::common::read(&out);
                let cells: u64 = t.rows[0][t.col("cells")].parse().unwrap();
                (peak, cells)
            };
            let ((lo, lo_cells), (hi, hi_cells)) = (run(small), run(big));
            let per_cell = hi.saturating_sub(lo) as f64 / (hi_cells - lo_cells) as f64;
            let parsed = Algorithm::parse(algo).unwrap();
            let bound = memory::grid_bytes_per_cell(&parsed, grid);
            eprintln!("{grid} {algo} {big}: {per_cell:.1} bytes per cell, bound {bound}");
            assert!(
                per_cell <= bound as f64,
                "{grid} {algo} at {big}: {per_cell:.1} bytes per cell, over {bound}"
            );
            let estimate = memory::estimate_on_grid(&[parsed], grid, hi_cells, 0, 1, 0, false);
            assert!(
                hi <= estimate,
                "{grid} {algo} at {big}: peak {hi} bytes over the estimate {estimate}"
            );
        }
    }
}

#[test]
fn the_estimate_covers_a_run_that_keeps_its_mazes() {
    if in_own_process("the_estimate_covers_a_run_that_keeps_its_mazes") {
        return;
    }
    // 100,000 64×64 mazes: six full record batches of 16,384 mazes (16 MiB of walls each) and a
    // partial one, written while the Parquet row group fills, on two threads (about 5 s).
    let dir = tempfile::tempdir().unwrap();
    let (out, store) = (dir.path().join("m.parquet"), dir.path().join("m.arrow"));
    let size = Size::planar(64, 64);
    let args = [
        "--algo",
        "kruskal",
        "--size",
        "64x64",
        "--count",
        "100000",
        "--threads",
        "2",
    ];
    let peak = peak_rss_of(&args, &out, Some(&store));
    let chunk = batchgen::batch::chunk_len(size.cells_u64(), 2);
    let estimate = memory::estimate(&[Algorithm::Kruskal], size, 2, chunk, true);
    eprintln!("--mazes run: peak {peak} bytes, estimate {estimate}");
    assert!(
        peak <= estimate,
        "a --mazes run: peak {peak} bytes over the estimate {estimate}"
    );
    // The store's batches are written and freed as they go: two batches of walls at a time
    // (the one being written and the copy the writer encodes), not three.
    let without = peak_rss_of(&args, &out, None);
    eprintln!("without --mazes: peak {without} bytes");
    let batch = batchgen::store::BATCH_WALL_BYTES as u64;
    assert!(
        peak < without + 2 * batch + (8 << 20),
        "--mazes costs {} bytes more than the same run without it",
        peak - without
    );
}

/// The uniformity lab's exact distributions keep every distinct tree of a generator's choice
/// tree: `enumerate::BYTES_PER_TREE` must bound what one takes (sidewinder's trees on 5x4 are
/// its 166,375 leaves, every one distinct), measured above a 2x2 run.
#[test]
fn the_uniformity_bytes_per_tree_bound_a_real_walk() {
    if in_own_process("the_uniformity_bytes_per_tree_bound_a_real_walk") {
        return;
    }
    let lab = |size: &str| {
        let args = [
            "uniformity",
            "--size",
            size,
            "--algo",
            "sidewinder",
            "--samples",
            "0",
        ];
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_batchgen"));
        cmd.args(args).stdout(std::process::Stdio::null());
        peak_rss_of_command(cmd, &args)
    };
    let (small, big) = (lab("2x2"), lab("5x4"));
    let trees = 166_375u64;
    let per_tree = big.saturating_sub(small) as f64 / trees as f64;
    let bound = batchgen::uniformity::enumerate::BYTES_PER_TREE;
    eprintln!("sidewinder 5x4: {per_tree:.0} bytes per tree, bound {bound}");
    assert!(
        per_tree > 0.0 && per_tree <= bound as f64,
        "{per_tree:.0} > {bound}"
    );
}
