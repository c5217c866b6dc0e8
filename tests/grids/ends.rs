//! The ends of a hex, triangle or polar maze given as cells (`X,Y`; polar `RING,I`) work the
//! same in every front end: the main job measures between them, `render --grid` draws the
//! solution between them (regenerated or from a store), and a `LevelSpec` given the same
//! flags is that maze; bad cells and `--ends diameter` beside cells are refused as on the
//! square grid (exit 2, naming the flag and value, nothing written). A grid too large for
//! the memory available is refused naming `--size` before its cell graph is built.

use crate::common::batchgen;
use batchgen::metrics::Ends;
use batchgen::topo::{Grid, GridSize};
use batchgen::{Algorithm, LevelSpec, Size};

/// `(grid, --size, size, mask text, --entrance, --exit, their cell ids)`: the ids worked out
/// by hand from the layouts of `src/topo/README.md` (polar rings of 1, 6, 12, 24, 24 cells).
type Case = (
    &'static str,
    &'static str,
    GridSize,
    Option<&'static str>,
    &'static str,
    &'static str,
    (u32, u32),
);

const CASES: [Case; 4] = [
    (
        "hex",
        "9x7",
        GridSize {
            grid: Grid::Hex,
            a: 9,
            b: 7,
        },
        None,
        "3,2",
        "0,6",
        (21, 54),
    ),
    (
        "hex",
        "4x3",
        GridSize {
            grid: Grid::Hex,
            a: 4,
            b: 3,
        },
        Some("....\n.#..\n...#\n"),
        "2,1",
        "0,2",
        (6, 8),
    ),
    (
        "triangle",
        "10x5",
        GridSize {
            grid: Grid::Triangle,
            a: 10,
            b: 5,
        },
        None,
        "9,0",
        "4,3",
        (9, 34),
    ),
    (
        "polar",
        "5",
        GridSize {
            grid: Grid::Polar,
            a: 5,
            b: 6,
        },
        None,
        "1,2",
        "4,7",
        (3, 50),
    ),
];

/// Run `batchgen ARGS`; panics unless it succeeds.
fn ok(args: &[&str]) {
    let o = batchgen().args(args).output().unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn generate_render_and_levels_agree_on_cells_as_ends() {
    let dir = tempfile::tempdir().unwrap();
    for (k, (grid, size_arg, size, mask, entrance, exit, cells)) in CASES.into_iter().enumerate() {
        let mask_file = dir.path().join(format!("m{k}.txt"));
        let mut shape = vec!["--grid", grid, "--size", size_arg];
        let mask = mask.map(|text| {
            std::fs::write(&mask_file, text).unwrap();
            shape.extend(["--mask", mask_file.to_str().unwrap()]);
            std::sync::Arc::new(batchgen::grid::Mask::cells_from_bytes(text.as_bytes()).unwrap())
        });
        let ends = ["--entrance", entrance, "--exit", exit];
        let parquet = dir.path().join(format!("{k}.parquet"));
        let store = dir.path().join(format!("{k}.arrow"));
        let mut run = shape.clone();
        run.extend(["--algo", "kruskal", "--count", "3", "--seed", "7", "-q"]);
        run.extend(ends);
        run.extend(["--mazes", store.to_str().unwrap()]);
        run.extend(["--out", parquet.to_str().unwrap()]);
        ok(&run);
        let t = crate::common::read(&parquet);
        for index in 0..3u64 {
            let mut spec =
                LevelSpec::new(Algorithm::Kruskal, Size::planar(size.a, size.b), 7, index)
                    .on_grid(size.grid);
            spec.mask = mask.clone();
            // The flags as the main job reads them, and the cells they name.
            let level = spec
                .clone()
                .ends_of_flags(None, Some(entrance), Some(exit))
                .unwrap();
            assert_eq!(level.ends, Some(Ends::cells(cells.0, cells.1)), "{grid}");
            let level = level.build().unwrap();
            let path = level.solution();
            assert_eq!((path[0], path[path.len() - 1]), cells, "{grid} {index}");
            let row = &t.rows[index as usize];
            let m = level.metrics();
            for (col, got) in [
                ("maze_hash", m.maze_hash.to_string()),
                ("solution_length", m.solution_length.to_string()),
                ("solution_turns", m.solution_turns.to_string()),
                ("walk_steps", m.walk_steps.to_string()),
            ] {
                assert_eq!(row[t.col(col)], got, "{grid} {index}: {col}");
            }
            let want = batchgen::render::polygon::svg(
                level.graph().unwrap(),
                level.graph_maze().unwrap(),
                Some(path),
                cells,
                16,
            );
            // The regenerated maze and the stored record, drawn between the same cells.
            let svg = dir.path().join(format!("{k}-{index}.svg"));
            let i = index.to_string();
            let mut render = vec!["render"];
            render.extend(&shape);
            render.extend(["--algo", "kruskal", "--seed", "7", "--index", &i]);
            render.extend(ends);
            render.extend(["--solution", "-o", svg.to_str().unwrap()]);
            ok(&render);
            assert_eq!(
                std::fs::read_to_string(&svg).unwrap(),
                want,
                "{grid} {index}"
            );
            std::fs::remove_file(&svg).unwrap();
            let mut render = vec!["render", "--store", store.to_str().unwrap()];
            render.extend(["--record", &i, "--solution", "-o", svg.to_str().unwrap()]);
            ok(&render);
            assert_eq!(
                std::fs::read_to_string(&svg).unwrap(),
                want,
                "{grid} {index}"
            );
            // A stored record drawn between other ends: those of the flags, not the record's.
            let again = dir.path().join(format!("{k}-{index}-corners.svg"));
            let mut render = vec!["render", "--store", store.to_str().unwrap()];
            render.extend(["--record", &i, "--ends", "corners", "--solution", "-o"]);
            render.push(again.to_str().unwrap());
            ok(&render);
            let corners = spec.build().unwrap();
            let want = batchgen::render::polygon::svg(
                corners.graph().unwrap(),
                corners.graph_maze().unwrap(),
                Some(corners.solution()),
                (corners.entrance(), corners.exit()),
                16,
            );
            assert_eq!(std::fs::read_to_string(&again).unwrap(), want, "{grid}");
        }
    }
}

/// Bad cells, and cells beside `--ends diameter`, are refused by the main job and by render
/// (regenerated or from a store) before any work: exit 2, naming the flag, the value and why,
/// nothing written.
#[test]
fn bad_cells_are_refused_in_every_front_end() {
    let dir = tempfile::tempdir().unwrap();
    let mask = dir.path().join("m.txt");
    std::fs::write(&mask, "...\n.#.\n...\n").unwrap();
    let m = mask.to_str().unwrap();
    let (svg, parquet) = (dir.path().join("x.svg"), dir.path().join("x.parquet"));
    let store = dir.path().join("s.arrow");
    let made = dir.path().join("s.parquet");
    let mut run = vec![
        "--grid", "polar", "--size", "3", "--algo", "kruskal", "--count", "1",
    ];
    run.extend(["-q", "--mazes", store.to_str().unwrap()]);
    ok(&[&run[..], &["--out", made.to_str().unwrap()]].concat());
    let s = store.to_str().unwrap();
    let diameter = "--ends diameter chooses the entrance";
    for (args, want) in [
        (
            vec!["--grid", "hex", "--size", "9x7", "--entrance", "9,0"],
            vec!["'9,0'", "--entrance", "outside the 9x7 grid"],
        ),
        (
            vec!["--grid", "triangle", "--size", "6x4", "--exit", "1"],
            vec!["'1'", "--exit", "X,Y"],
        ),
        (
            vec!["--grid", "polar", "--size", "3", "--exit", "3,0"],
            vec!["'3,0'", "--exit", "3 rings"],
        ),
        (
            vec!["--grid", "polar", "--size", "3", "--entrance", "1,6"],
            vec!["'1,6'", "--entrance", "ring 1 has 6"],
        ),
        (
            vec!["--grid", "hex", "--mask", m, "--exit", "1,1"],
            vec!["'1,1'", "--exit", "not a cell of the mask"],
        ),
        (
            vec![
                "--grid",
                "triangle",
                "--ends",
                "diameter",
                "--entrance",
                "1,1",
            ],
            vec![diameter, "--entrance"],
        ),
        (
            vec!["--store", s, "--record", "0", "--exit", "2,12"],
            vec!["'2,12'", "--exit", "ring 2 has 12"],
        ),
        (
            vec![
                "--store", s, "--record", "0", "--ends", "diameter", "--exit", "1,0",
            ],
            vec![diameter],
        ),
    ] {
        let mut commands = vec![];
        if args[0] != "--store" {
            let mut render = vec!["render", "--algo", "kruskal", "--index", "0"];
            render.extend(&args);
            commands.push((render, &svg));
            commands.push(([&args[..], &["--count", "1"]].concat(), &parquet));
        } else {
            commands.push(([&["render"], &args[..]].concat(), &svg));
        }
        for (command, out) in commands {
            let o = batchgen()
                .args(&command)
                .arg("-o")
                .arg(out)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{command:?}: {err}");
            for w in &want {
                assert!(err.contains(w), "{command:?}: {err} lacks {w}");
            }
            assert!(!out.exists());
        }
    }
    // The square render refuses the diameter rule beside cells with the same words.
    let o = batchgen()
        .args([
            "render", "--algo", "kruskal", "--size", "5x5", "--index", "0",
        ])
        .args(["--ends", "diameter", "--exit", "1,1", "--format", "svg"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--ends diameter chooses the entrance"),
        "{err}"
    );
    // A level given the same flags.
    let spec = LevelSpec::new(Algorithm::Kruskal, Size::planar(3, 6), 1, 0).on_grid(Grid::Polar);
    let e = spec.ends_of_flags(None, Some("3,0"), None).unwrap_err();
    assert!(e.to_string().contains("'3,0' for '--entrance'"), "{e}");
    let e = LevelSpec::new(Algorithm::Kruskal, Size::planar(3, 3), 1, 0)
        .on_grid(Grid::Hex)
        .ends_of_flags(Some("diameter"), None, Some("0,0"))
        .unwrap_err();
    assert!(e.to_string().contains("--ends diameter chooses"), "{e}");
}

/// Under an address-space limit of 1 GiB (`ulimit -v`), a grid whose cell graph alone needs
/// several GB is refused with exit 2 naming `--size`, by the main job and by render, before
/// anything is built (without the early check the graph's allocation aborts the process).
#[test]
fn grids_over_memory_are_refused_before_the_graph_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_batchgen");
    let out = dir.path().join("m.parquet");
    let svg = dir.path().join("m.svg");
    for (grid, size) in [
        ("hex", "8192x8192"),
        ("triangle", "8192x8192"),
        ("polar", "4000"),
    ] {
        for args in [
            format!("--grid {grid} --size {size} --algo backtracker --count 1 --threads 1 -q --out \"$1\""),
            format!("render --grid {grid} --size {size} --algo backtracker --index 0 -o \"$2\""),
        ] {
            let o = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("ulimit -v 1048576 && exec \"$0\" {args}"))
                .arg(bin)
                .arg(&out)
                .arg(&svg)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args}: {err}");
            assert!(
                err.contains(&format!("'{size}' for '--size'")) && err.contains("needs about"),
                "{args}: {err}"
            );
            assert!(!out.exists() && !svg.exists());
        }
    }
}
