//! The command line end to end: determinism across threads, counts and `--algo` order; the
//! Parquet file's schema, types and metadata; bad input refused with exit code 2, a message
//! naming the flag and value, and no output file.

use crate::common;

use arrow_schema::DataType;
use common::{batchgen, read, run};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use predicates::str::contains;

#[test]
fn rows_are_identical_for_any_thread_count() {
    let d = tempfile::tempdir().unwrap();
    let args = [
        "--algo", "all", "--size", "13x9", "--count", "3000", "--seed", "7",
    ];
    let one = run(
        d.path(),
        "t1.parquet",
        &[&args[..], &["--threads", "1"]].concat(),
    );
    let two = run(
        d.path(),
        "t2.parquet",
        &[&args[..], &["--threads", "2"]].concat(),
    );
    let dflt = run(d.path(), "td.parquet", &args);
    assert_eq!(one.rows.len(), 3000 * batchgen::Algorithm::all().len());
    assert_eq!(one.without_timing(), two.without_timing());
    assert_eq!(one.without_timing(), dflt.without_timing());
}

#[test]
fn a_short_run_is_a_prefix_of_a_long_one() {
    let d = tempfile::tempdir().unwrap();
    let long = run(
        d.path(),
        "l.parquet",
        &["--algo", "kruskal", "--size", "8x8", "--count", "5000"],
    );
    let short = run(
        d.path(),
        "s.parquet",
        &["--algo", "kruskal", "--size", "8x8", "--count", "123"],
    );
    assert_eq!(long.without_timing()[..123], short.without_timing()[..]);
}

#[test]
fn algo_order_does_not_matter() {
    let d = tempfile::tempdir().unwrap();
    let a = run(
        d.path(),
        "a.parquet",
        &[
            "--algo",
            "wilson,backtracker",
            "--size",
            "6x5",
            "--count",
            "200",
        ],
    );
    let b = run(
        d.path(),
        "b.parquet",
        &[
            "--algo",
            "backtracker,wilson",
            "--size",
            "6x5",
            "--count",
            "200",
        ],
    );
    assert_eq!(a.without_timing(), b.without_timing());
    // And each algorithm's rows equal a run of that algorithm alone.
    let w = run(
        d.path(),
        "w.parquet",
        &["--algo", "wilson", "--size", "6x5", "--count", "200"],
    );
    let algo = a.col("algo");
    let only_w: Vec<_> = a
        .without_timing()
        .into_iter()
        .filter(|r| r[algo] == "wilson")
        .collect();
    assert_eq!(only_w, w.without_timing());
}

#[test]
fn parquet_schema_types_rows_and_metadata() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("m.parquet");
    batchgen()
        .args([
            "--algo",
            "backtracker,kruskal",
            "--size",
            "10x7",
            "--count",
            "777",
            "--seed",
            "99",
        ])
        .args(["--entrance", "1,2", "--exit", "9,0", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stderr(contains("wrote 1,554 mazes"));
    let reader =
        ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&out).unwrap()).unwrap();
    use DataType::{Float64, UInt32, UInt64, Utf8};
    let expect = [
        ("algo", Utf8),
        ("width", UInt32),
        ("height", UInt32),
        ("depth", UInt32),
        ("seed", UInt64),
        ("index", UInt64),
        ("maze_seed", UInt64),
        ("dead_ends", UInt32),
        ("dead_end_share", Float64),
        ("diameter", UInt32),
        ("diameter_start", UInt32),
        ("diameter_end", UInt32),
        ("solution_length", UInt32),
        ("junctions", UInt32),
        ("corridors", UInt32),
        ("straights", UInt32),
        ("solution_turns", UInt32),
        ("maze_hash", UInt64),
        ("gen_ns", UInt64),
        ("solution_decisions", UInt32),
        ("solution_branches", UInt32),
        ("walk_steps", UInt64),
        ("max_branch_cells", UInt32),
        ("max_branch_depth", UInt32),
        ("mean_dead_end_length", Float64),
        ("tortuosity", Float64),
        ("mask_hash", UInt64),
        ("cells", UInt32),
        ("braid", Float64),
        ("loops", UInt32),
        ("solution_count", UInt64),
        ("solution_twist", Float64),
    ];
    let fields = reader.schema().fields().clone();
    assert_eq!(fields.len(), expect.len());
    for (f, (name, t)) in fields.iter().zip(expect) {
        assert_eq!((f.name().as_str(), f.data_type()), (name, &t));
    }
    // The algo column is dictionary-encoded in the file.
    let md = reader.metadata().clone();
    let algo_chunk = md.row_group(0).column(0);
    assert!(
        algo_chunk.dictionary_page_offset().is_some(),
        "algo is dictionary-encoded"
    );

    let t = read(&out);
    assert_eq!(t.rows.len(), 1554);
    assert_eq!(t.meta["batchgen.version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(t.meta["batchgen.seeding_scheme"], "2");
    assert!(t.meta["batchgen.rng"].contains("Xoshiro256PlusPlus"));
    assert!(t.meta["batchgen.ends"].starts_with("entrance=1,2 exit=9,0"));
    assert!(t.meta["batchgen.command_line"].contains("--seed 99"));
    // Row identity columns and the derived seed.
    let (idx, ms, seed) = (t.col("index"), t.col("maze_seed"), t.col("seed"));
    let depth = t.col("depth");
    for (k, r) in t.rows.iter().enumerate() {
        let algo = &r[0];
        let i = (k % 777) as u64;
        assert_eq!(r[depth], "1", "a 2D maze has depth 1");
        assert_eq!(r[idx], i.to_string());
        assert_eq!(r[seed], "99");
        assert_eq!(
            r[ms],
            batchgen::rng::maze_seed(99, algo, 10, 7, i).to_string()
        );
        assert_eq!(algo, if k < 777 { "backtracker" } else { "kruskal" });
    }
    // No temporary file is left next to the output.
    let leftovers: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("m.parquet")]);
}

#[test]
fn count_zero_writes_a_valid_empty_file() {
    let d = tempfile::tempdir().unwrap();
    let t = run(d.path(), "z.parquet", &["--count", "0"]);
    assert_eq!(t.rows.len(), 0);
    assert_eq!(t.columns.len(), batchgen::metrics::COLUMNS.len());
}

fn refuse(args: &[&str], out: &std::path::Path, needles: &[&str]) {
    let mut cmd = batchgen();
    cmd.args(args).arg("--out").arg(out);
    let mut a = cmd.assert().code(2);
    for n in needles {
        a = a.stderr(contains(*n));
    }
    assert!(!out.exists(), "no output file after refusing {args:?}");
}

#[test]
fn bad_input_exits_2_naming_flag_and_value() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("x.parquet");
    refuse(&["--size", "0x5"], &out, &["--size", "0x5"]);
    refuse(&["--size", "5x0"], &out, &["--size", "5x0"]);
    refuse(&["--size", "abc"], &out, &["--size", "abc"]);
    refuse(
        &["--size", "100000x100000"],
        &out,
        &["--size", "100000x100000", "too big"],
    );
    refuse(
        &["--algo", "nope"],
        &out,
        &["--algo", "nope", "backtracker", "kruskal", "wilson"],
    );
    refuse(
        &["--entrance", "64,0"],
        &out,
        &["--entrance", "64,0", "outside"],
    );
    refuse(
        &["--exit", "3,99", "--size", "5x5"],
        &out,
        &["--exit", "3,99"],
    );
    refuse(&["--count", "ten"], &out, &["--count", "ten"]);
    refuse(&["--count", "-3"], &out, &["--count", "-3"]);
    refuse(&["--threads", "0"], &out, &["--threads", "0"]);
    assert_eq!(
        std::fs::read_dir(d.path()).unwrap().count(),
        0,
        "nothing written at all"
    );
}

#[test]
fn out_into_a_missing_folder_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("missing").join("m.parquet");
    refuse(
        &["--count", "5"],
        &out,
        &["--out", "missing", "does not exist"],
    );
}

#[test]
fn out_into_a_read_only_folder_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let ro = d.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root ignores permission bits; then use a read-only tmpfs mounted in the tempdir instead
    // (never a real system path).
    let _mnt;
    let ro = if std::fs::File::create(ro.join("probe")).is_err() {
        ro
    } else {
        let mnt = d.path().join("ro-mount");
        _mnt = common::Tmpfs::mount(&mnt, "size=1m,ro");
        assert!(
            std::fs::File::create(mnt.join("probe")).is_err(),
            "a read-only tmpfs accepted a write"
        );
        mnt
    };
    let out = ro.join("m.parquet");
    refuse(
        &["--count", "5"],
        &out,
        &["--out", &out.display().to_string(), "cannot create"],
    );
}

#[test]
fn list_algos_names_every_generator() {
    let a = batchgen().arg("--list-algos").assert().success();
    let text = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    for algo in batchgen::Algorithm::all() {
        let line = text.lines().find(|l| l.starts_with(&algo.name())).unwrap();
        assert!(line.contains(if algo.is_uniform() { "yes" } else { "no" }));
    }
}

#[test]
fn list_algos_shows_which_generators_make_3d_mazes() {
    let a = batchgen().arg("--list-algos").assert().success();
    let text = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(&header[..4], ["algo", "uniform", "3d", "texture"]);
    for algo in batchgen::Algorithm::all() {
        let line = text.lines().find(|l| l.starts_with(&algo.name())).unwrap();
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            cols[2],
            if algo.supports_3d() { "yes" } else { "no" },
            "{line}"
        );
    }
    let a = batchgen()
        .args(["list-algos", "--format", "json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    let list = v["algorithms"].as_array().unwrap();
    assert_eq!(list.len(), batchgen::Algorithm::all().len());
    for (entry, algo) in list.iter().zip(batchgen::Algorithm::all()) {
        assert_eq!(entry["name"], algo.name());
        assert_eq!(entry["3d"], algo.supports_3d());
    }
}

#[test]
fn bad_3d_sizes_and_cells_exit_2_naming_flag_and_value() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("x.parquet");
    let wilson = ["--algo", "wilson"];
    for (size, why) in [
        ("5x4x0", "at least 1"),
        ("0x4x3", "at least 1"),
        ("5x4x", "whole numbers"),
        ("5x4x3x2", "WIDTHxHEIGHTxDEPTH"),
        ("1000x1000x1000", "too big"),
        ("99999999999x99999999999x99999999999", "too big"),
    ] {
        refuse(
            &[&wilson[..], &["--size", size]].concat(),
            &out,
            &["'--size <WxH[xD]>'", &format!("'{size}'"), why],
        );
    }
    // A 3D grid needs X,Y,Z; a cell outside it is named.
    refuse(
        &["--algo", "wilson", "--size", "5x4x3", "--entrance", "1,1"],
        &out,
        &["'--entrance'", "'1,1'", "X,Y,Z"],
    );
    refuse(
        &["--algo", "wilson", "--size", "5x4x3", "--exit", "4,3,3"],
        &out,
        &["'--exit'", "'4,3,3'", "outside the 5x4x3 grid"],
    );
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}

#[test]
fn a_2d_only_generator_with_a_3d_size_is_refused_naming_the_3d_ones() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("x.parquet");
    let accepted: Vec<String> = batchgen::Algorithm::all()
        .iter()
        .filter(|a| a.supports_3d())
        .map(|a| a.name())
        .collect();
    for algo in batchgen::Algorithm::all()
        .iter()
        .filter(|a| !a.supports_3d())
    {
        let name = algo.name();
        let mut needles = vec!["'--algo'".to_string(), format!("{name} only makes 2D")];
        needles.extend(accepted.iter().cloned());
        let needles: Vec<&str> = needles.iter().map(|s| s.as_str()).collect();
        refuse(
            &["--algo", &format!("wilson,{name}"), "--size", "5x4x3"],
            &out,
            &needles,
        );
    }
    // render refuses too, before drawing anything.
    batchgen()
        .args([
            "render", "--algo", "eller", "--size", "3x3x2", "--index", "0",
        ])
        .assert()
        .code(2)
        .stderr(contains("eller only makes 2D"));
}

#[test]
fn algo_all_with_a_3d_size_names_the_skipped_generators() {
    let d = tempfile::tempdir().unwrap();
    // --count 0: the selection and its note come before any maze is made.
    let a = batchgen()
        .args([
            "--algo", "all", "--size", "5x4x3", "--count", "0", "--quiet",
        ])
        .arg("--out")
        .arg(d.path().join("z.parquet"))
        .assert()
        .success();
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    let note: Vec<&str> = err.lines().filter(|l| l.contains("skipping")).collect();
    assert_eq!(note.len(), 1, "{err}");
    for algo in batchgen::Algorithm::all() {
        assert_eq!(
            note[0].contains(&algo.name()),
            !algo.supports_3d(),
            "{}: {}",
            algo.name(),
            note[0]
        );
    }
    let t = read(&d.path().join("z.parquet"));
    assert_eq!(t.meta["batchgen.size"], "5x4x3");
    let algos: Vec<String> = batchgen::Algorithm::all()
        .iter()
        .filter(|a| a.supports_3d())
        .map(|a| a.name())
        .collect();
    assert_eq!(t.meta["batchgen.algos"], algos.join(","));
    assert!(t.meta["batchgen.ends"].starts_with("entrance=0,0,0 exit=4,3,2"));
    // A 2D `--algo all` says nothing of the kind.
    let a = batchgen()
        .args(["--algo", "all", "--size", "5x4", "--count", "0", "--quiet"])
        .arg("--out")
        .arg(d.path().join("y.parquet"))
        .assert()
        .success();
    assert!(!String::from_utf8_lossy(&a.get_output().stderr).contains("skipping"));
}
