//! The main job's run features on hex, triangle and polar grids: `--accept` keeps the first
//! passing mazes of the library's index order; shards (flag or engine environment) join into
//! the unsharded run and `check` merges them, refusing a folder that mixes grids (exit 2);
//! `--summary-json` and dataset folders; `--entrance`/`--exit` are cells of the grid (`X,Y`,
//! polar `RING,I`) and the solution is measured between them; `--mazes` stores them and the
//! store reads back the library's mazes; dataset folders put a grid's partitions under
//! `grid=G/`; long random walks and runs over the memory available are refused up front.

use crate::common::{batchgen, parquet_files, read, Table};
use batchgen::topo::generate::{generate, GraphScratch};
use batchgen::topo::{self, CellGraph, GraphEnds, GraphMaze, Grid, GridSize, MeasureScratch};
use batchgen::{Algorithm, Rng};

/// The engine variables a shard can come from (cleared so the host's cannot leak in).
const ENGINE_VARS: [&str; 9] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_ARRAY_TASK_COUNT",
    "JOB_COMPLETION_INDEX",
    "BATCHGEN_SHARD_COUNT",
    "AWS_BATCH_JOB_ARRAY_INDEX",
    "AWS_BATCH_JOB_ARRAY_SIZE",
];

/// `batchgen ARGS` (with `-q` for a run) with no engine variables; panics unless it succeeds.
fn ok(args: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = batchgen();
    for v in ENGINE_VARS {
        cmd.env_remove(v);
    }
    cmd.args(args);
    if args[0] != "check" {
        cmd.arg("-q");
    }
    let o = cmd.envs(env.iter().copied()).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{args:?}: {err}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Exit status and stderr of `batchgen ARGS`.
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let o = batchgen().args(args).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The rows of `tables` without timings, sorted by (algo, index).
fn union(tables: &[Table]) -> Vec<Vec<String>> {
    let t = &tables[0];
    let (a, i) = (t.col("algo"), t.col("index"));
    let mut rows: Vec<Vec<String>> = tables.iter().flat_map(|t| t.without_timing()).collect();
    rows.sort_by_key(|r| (r[a].clone(), r[i].parse::<u64>().unwrap()));
    rows
}

/// The library's row values for maze `index` of `algo` on `g`, measured between `ends`.
fn library(
    g: &CellGraph,
    size: GridSize,
    algo: &Algorithm,
    seed: u64,
    index: u64,
    ends: GraphEnds,
) -> batchgen::metrics::Metrics {
    let mut maze = GraphMaze::new(g);
    let s = topo::maze_seed(seed, &algo.name(), size, index);
    generate(
        algo,
        g,
        &mut maze,
        &mut GraphScratch::new(),
        &mut Rng::from_maze_seed(s),
    );
    topo::measure(g, &maze, ends, 0, &mut MeasureScratch::new())
}

#[test]
fn accept_keeps_the_first_passing_mazes_in_index_order() {
    let dir = tempfile::tempdir().unwrap();
    for (grid, size_arg, size) in [
        ("hex", "9x7", GridSize::new(Grid::Hex, 9, 7)),
        ("triangle", "10x5", GridSize::new(Grid::Triangle, 10, 5)),
        ("polar", "5", GridSize::new(Grid::Polar, 5, 6)),
    ] {
        let g = CellGraph::new(size);
        let ends = GraphEnds::corners(&g);
        let algo = Algorithm::Kruskal;
        // Half the mazes or so pass: at least the median number of dead ends of 40 mazes.
        let mut dead: Vec<u32> = (0..40)
            .map(|i| library(&g, size, &algo, 5, i, ends).dead_ends)
            .collect();
        dead.sort();
        let filter = format!("dead_ends >= {}", dead[20]);
        let out = dir.path().join(format!("{grid}.parquet"));
        let o = out.to_str().unwrap();
        ok(
            &[
                "--grid", grid, "--size", size_arg, "--algo", "kruskal", "--seed", "5", "--count",
                "6", "--accept", &filter, "--out", o,
            ],
            &[],
        );
        let t = read(&out);
        assert_eq!(t.meta["batchgen.accept"], filter);
        assert_eq!(t.meta["batchgen.grid"], grid);
        let want: Vec<(u64, String)> = (0..)
            .map(|i| (i, library(&g, size, &algo, 5, i, ends)))
            .filter(|(_, m)| m.dead_ends >= dead[20])
            .take(6)
            .map(|(i, m)| (i, m.maze_hash.to_string()))
            .collect();
        let got: Vec<(u64, String)> = t
            .rows
            .iter()
            .map(|r| {
                (
                    r[t.col("index")].parse().unwrap(),
                    r[t.col("maze_hash")].clone(),
                )
            })
            .collect();
        assert_eq!(got, want, "{grid}");
        assert!(t.rows.iter().all(|r| r[t.col("grid")] == grid));
    }
}

#[test]
fn shards_join_into_the_whole_run_and_check_refuses_mixed_grids() {
    let dir = tempfile::tempdir().unwrap();
    let run = [
        "--grid",
        "polar",
        "--size",
        "5",
        "--algo",
        "wilson,binary-tree",
        "--count",
        "12",
        "--seed",
        "3",
    ];
    let whole = dir.path().join("whole.parquet");
    ok(
        &[&run[..], &["--out", whole.to_str().unwrap()]].concat(),
        &[],
    );
    let ds = format!("{}/", dir.path().join("ds").display());
    for k in 1..=3 {
        let shard = format!("{k}/3");
        ok(
            &[&run[..], &["--shard", &shard, "--out", &ds]].concat(),
            &[],
        );
    }
    let parts = parquet_files(&dir.path().join("ds"));
    assert_eq!(parts.len(), 6);
    assert!(parts
        .iter()
        .all(|p| p.to_str().unwrap().contains("/ds/grid=polar/algo=")
            && p.to_str().unwrap().contains("/size=5x6/part-0000")));
    let tables: Vec<Table> = parts.iter().map(|p| read(p)).collect();
    assert!(tables.iter().all(|t| t.meta["batchgen.grid"] == "polar"));
    assert_eq!(union(&tables), union(&[read(&whole)]));
    let report = ok(&["check", &ds], &[]);
    assert!(
        report.contains("complete: 2 partitions, 6 files, 24 rows"),
        "{report}"
    );

    // A shard from a Slurm job array is the same file as the flag's.
    let env_ds = format!("{}/", dir.path().join("env").display());
    ok(
        &[&run[..], &["--out", &env_ds]].concat(),
        &[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ],
    );
    let env_parts = parquet_files(&dir.path().join("env"));
    assert_eq!(env_parts.len(), 2);
    for p in &env_parts {
        let rel = p.strip_prefix(dir.path().join("env")).unwrap();
        let flag = read(&dir.path().join("ds").join(rel));
        let env = read(p);
        assert_eq!(env.meta["batchgen.shard"], "2/3");
        assert_eq!(env.without_timing(), flag.without_timing());
    }

    // Square parts beside the polar ones: refused by name, exit 2.
    ok(
        &[
            "--size", "5x6", "--algo", "wilson", "--count", "12", "--seed", "3", "--out", &ds,
        ],
        &[],
    );
    let (code, err) = refused(&["check", &ds]);
    assert_eq!(code, Some(2), "{err}");
    for w in [
        "different grids",
        "polar (6",
        "square (1",
        "algo=wilson/size=5x6",
    ] {
        assert!(err.contains(w), "{err} lacks {w}");
    }
}

#[test]
fn summary_json_and_dataset_folders_on_grids() {
    let dir = tempfile::tempdir().unwrap();
    let ds = format!("{}/", dir.path().join("hex").display());
    let json = dir.path().join("run.json");
    ok(
        &[
            "--grid",
            "hex",
            "--size",
            "6x4",
            "--algo",
            "kruskal,prim",
            "--count",
            "7",
            "--summary-json",
            json.to_str().unwrap(),
            "--mazes",
            &ds,
            "--out",
            &ds,
        ],
        &[],
    );
    let parts = parquet_files(&dir.path().join("hex"));
    assert_eq!(parts.len(), 2);
    // The grid's partitions lie under grid=hex/, the stores beside their Parquet parts, and
    // check proves the folder complete, stores included.
    for (p, algo) in parts.iter().zip(["kruskal", "prim"]) {
        let rel = p.strip_prefix(dir.path().join("hex")).unwrap();
        let want = format!("grid=hex/algo={algo}/size=6x4/part-00001-of-00001.parquet");
        assert_eq!(rel, std::path::Path::new(&want));
        assert!(p.with_extension("arrow").is_file(), "{}", p.display());
    }
    let report = ok(&["check", &ds], &[]);
    assert!(
        report.contains("complete: 2 partitions, 2 files, 14 rows"),
        "{report}"
    );
    // A square run of the same generator, size and shard writes its own path, as it always
    // has (the square layout is unchanged), so neither part replaces the other.
    ok(
        &[
            "--size", "6x4", "--algo", "kruskal", "--count", "7", "--mazes", &ds, "--out", &ds,
        ],
        &[],
    );
    let square = dir
        .path()
        .join("hex/algo=kruskal/size=6x4/part-00001-of-00001.parquet");
    assert!(square.is_file() && square.with_extension("arrow").is_file());
    assert_eq!(parquet_files(&dir.path().join("hex")).len(), 3);
    assert!(parts.iter().all(|p| p.is_file()));
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(doc["size"], "6x4");
    assert_eq!(doc["totals"]["mazes"], 14);
    let outputs: Vec<&serde_json::Value> = doc["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["kind"] == "parquet")
        .collect();
    assert_eq!(outputs.len(), 2);
    for (o, p) in outputs.iter().zip(&parts) {
        assert_eq!(o["kind"], "parquet");
        assert_eq!(o["bytes"], std::fs::metadata(p).unwrap().len());
    }
    // A polar run's summary gives its size as --size does: the rings.
    let out = dir.path().join("p.parquet");
    let printed = ok(
        &[
            "--grid",
            "polar",
            "--size",
            "4",
            "--algo",
            "sidewinder",
            "--count",
            "3",
            "--summary-json",
            "-",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    let doc: serde_json::Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(doc["size"], "4");
    assert_eq!(read(&out).rows.len(), 3);
}

#[test]
fn entrance_and_exit_are_cells_of_the_grid() {
    let dir = tempfile::tempdir().unwrap();
    // (grid, size, entrance, exit, their cell ids)
    for (grid, size_arg, size, entrance, exit, cells) in [
        (
            "hex",
            "9x7",
            GridSize::new(Grid::Hex, 9, 7),
            "3,2",
            "0,6",
            (21, 54),
        ),
        (
            "triangle",
            "10x5",
            GridSize::new(Grid::Triangle, 10, 5),
            "9,0",
            "4,3",
            (9, 34),
        ),
        // Polar RING,I: rings of 1, 6, 12, 24, 24 cells.
        (
            "polar",
            "5",
            GridSize::new(Grid::Polar, 5, 6),
            "1,2",
            "4,7",
            (3, 50),
        ),
    ] {
        let out = dir.path().join(format!("{grid}.parquet"));
        ok(
            &[
                "--grid",
                grid,
                "--size",
                size_arg,
                "--algo",
                "wilson,backtracker",
                "--count",
                "5",
                "--entrance",
                entrance,
                "--exit",
                exit,
                "--out",
                out.to_str().unwrap(),
            ],
            &[],
        );
        let t = read(&out);
        let ends_rule = &t.meta["batchgen.ends"];
        assert!(
            ends_rule.starts_with(&format!("entrance=cell {} exit=cell {}", cells.0, cells.1)),
            "{ends_rule}"
        );
        let g = CellGraph::new(size);
        let ends = GraphEnds::new(&g, cells.0, cells.1);
        for r in &t.rows {
            let algo = Algorithm::parse(&r[t.col("algo")]).unwrap();
            let m = library(
                &g,
                size,
                &algo,
                42,
                r[t.col("index")].parse().unwrap(),
                ends,
            );
            assert_eq!(r[t.col("solution_length")], m.solution_length.to_string());
            assert_eq!(r[t.col("solution_turns")], m.solution_turns.to_string());
        }
    }
    // Bad cells are refused by every front end: `grids::ends`.
}

#[test]
fn a_grid_store_reads_back_the_same_mazes() {
    let dir = tempfile::tempdir().unwrap();
    let mask = dir.path().join("ring.txt");
    std::fs::write(&mask, "....\n.##.\n....\n").unwrap();
    let m = mask.to_str().unwrap();
    for (name, args, size) in [
        (
            "hex",
            vec!["--grid", "hex", "--mask", m, "--algo", "wilson,prim"],
            GridSize::new(Grid::Hex, 4, 3),
        ),
        (
            "polar",
            vec![
                "--grid",
                "polar",
                "--size",
                "4",
                "--algo",
                "sidewinder",
                "--exit",
                "2,5",
            ],
            GridSize::new(Grid::Polar, 4, 6),
        ),
    ] {
        let out = dir.path().join(format!("{name}.parquet"));
        let store = dir.path().join(format!("{name}.arrow"));
        ok(
            &[
                &args[..],
                &[
                    "--count",
                    "9",
                    "--seed",
                    "6",
                    "--out",
                    out.to_str().unwrap(),
                ],
                &["--mazes", store.to_str().unwrap()],
            ]
            .concat(),
            &[],
        );
        let t = read(&out);
        let r = batchgen::store::StoreReader::open(&store).unwrap();
        assert_eq!(r.len() as usize, t.rows.len());
        let g = r.grid().expect("a grid store knows its grid");
        assert_eq!(g.size(), size);
        assert_eq!(r.mask().is_some(), name == "hex");
        for (k, row) in t.rows.iter().enumerate() {
            let rec = r.record(k as u64).unwrap();
            let maze = r.graph_maze(k as u64).unwrap();
            assert_eq!(rec.maze_hash.to_string(), row[t.col("maze_hash")]);
            assert_eq!(rec.index.to_string(), row[t.col("index")]);
            // The library's maze for the row's identity, bit for bit.
            let algo = Algorithm::parse(&row[t.col("algo")]).unwrap();
            let mut want = GraphMaze::new(g);
            let seed = topo::maze_seed(6, &algo.name(), size, rec.index);
            generate(
                &algo,
                g,
                &mut want,
                &mut GraphScratch::new(),
                &mut Rng::from_maze_seed(seed),
            );
            assert_eq!(maze, want, "{name} record {k}");
            assert!(
                r.maze(k as u64).is_err(),
                "a grid record is not a square maze"
            );
        }
        let meta_grid = t.meta["batchgen.grid"].clone();
        assert_eq!(meta_grid, name);
    }
}

/// The square grid's up-front checks hold on the other grids with their own costs: a random
/// walk expected to take more than 10^11 steps on the grid's graph is refused naming `--size`
/// and `--no-time-limit` (a generator that does not walk runs on the same strip), and a run
/// over the memory available (`ulimit -v`) is refused naming `--size` and `--threads`, before
/// any file is written.
#[test]
fn long_walks_and_runs_over_memory_are_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.parquet");
    let o = out.to_str().unwrap();
    for (grid, size) in [("hex", "400000x1"), ("triangle", "400000x1")] {
        let (code, err) = refused(&[
            "--grid",
            grid,
            "--size",
            size,
            "--algo",
            "aldous-broder",
            "--count",
            "1",
            "-q",
            "--out",
            o,
        ]);
        assert_eq!(code, Some(2), "{err}");
        for w in [
            format!("'{size}' for '--size'"),
            "--no-time-limit".to_string(),
            format!("{grid} grid"),
        ] {
            assert!(err.contains(&w), "{err} lacks {w}");
        }
        ok(
            &[
                "--grid",
                grid,
                "--size",
                size,
                "--algo",
                "backtracker",
                "--count",
                "1",
                "--out",
                o,
            ],
            &[],
        );
        // render --grid regenerates by the same rule.
        let (code, err) = refused(&[
            "render", "--grid", grid, "--size", size, "--algo", "wilson", "--index", "0",
            "--format", "svg",
        ]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("--no-time-limit"), "{err}");
    }
    let bin = env!("CARGO_BIN_EXE_batchgen");
    let run = |size: &str, threads: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 1048576 && exec \"$0\" --grid hex --algo wilson --size {size} \
                 --count 1 --threads {threads} -q --out \"$1\""
            ))
            .arg(bin)
            .arg(dir.path().join("m.parquet"))
            .output()
            .unwrap()
    };
    let o = run("2048x2048", "8");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("'2048x2048' for '--size'")
            && err.contains("--threads")
            && err.contains("needs about"),
        "{err}"
    );
    assert!(!dir.path().join("m.parquet").exists());
    let o = run("512x512", "1");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
