//! `--grid hex|triangle|polar` from the command line: every row is the maze the library makes
//! for its (grid, algo, size, seed, index), measured as the library measures it; the file says
//! its grid; thread count changes nothing; `--grid square` is the square run; refusals name the
//! flag, the value and the grid, with exit status 2, before any file appears; masks on hex and
//! triangle grids connect through the grid's own neighbours.

mod braid;
mod ends;
mod run;

use crate::common::{batchgen, read};
use batchgen::topo::generate::{generate, GraphScratch};
use batchgen::topo::{self, CellGraph, GraphEnds, GraphMaze, Grid, GridSize, MeasureScratch};
use batchgen::{Algorithm, Rng};

fn run_ok(dir: &std::path::Path, name: &str, args: &[&str]) -> crate::common::Table {
    let out = dir.join(name);
    let o = batchgen()
        .args(args)
        .args(["-q", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    read(&out)
}

#[test]
fn rows_are_the_library_mazes_and_measures() {
    let dir = tempfile::tempdir().unwrap();
    for (grid, size_arg, size) in [
        ("hex", "9x7", GridSize::new(Grid::Hex, 9, 7)),
        ("triangle", "10x5", GridSize::new(Grid::Triangle, 10, 5)),
        ("polar", "5", GridSize::new(Grid::Polar, 5, 6)),
    ] {
        let args = [
            "--grid", grid, "--size", size_arg, "--count", "6", "--seed", "9",
        ];
        let t = run_ok(dir.path(), &format!("{grid}.parquet"), &args);
        let t3 = run_ok(
            dir.path(),
            &format!("{grid}-3.parquet"),
            &[&args[..], &["--threads", "3"]].concat(),
        );
        assert_eq!(
            t.without_timing(),
            t3.without_timing(),
            "{grid}: threads matter"
        );
        assert_eq!(t.meta["batchgen.grid"], grid);
        let g = CellGraph::new(size);
        let algos = topo::generate::on_grid(size.grid);
        assert_eq!(t.rows.len(), 6 * algos.len());
        let (mut gs, mut ms) = (GraphScratch::new(), MeasureScratch::new());
        for row in &t.rows {
            let cell = |c: &str| row[t.col(c)].clone();
            assert_eq!(cell("grid"), grid);
            let algo = Algorithm::parse(&cell("algo")).unwrap();
            let index: u64 = cell("index").parse().unwrap();
            let seed = topo::maze_seed(9, &algo.name(), size, index);
            assert_eq!(cell("maze_seed"), seed.to_string());
            let mut maze = GraphMaze::new(&g);
            generate(
                &algo,
                &g,
                &mut maze,
                &mut gs,
                &mut Rng::from_maze_seed(seed),
            );
            let m = topo::measure(&g, &maze, GraphEnds::corners(&g), 0, &mut ms);
            assert_eq!(cell("maze_hash"), m.maze_hash.to_string());
            assert_eq!(cell("solution_length"), m.solution_length.to_string());
            assert_eq!(cell("straights"), m.straights.to_string());
            assert_eq!(cell("cells"), g.cells().to_string());
            assert_eq!(
                (cell("width"), cell("height")),
                (size.a.to_string(), size.b.to_string())
            );
        }
    }
}

#[test]
fn grid_square_is_the_square_run() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--size", "8x6", "--count", "5", "--algo", "kruskal,eller"];
    let a = run_ok(dir.path(), "a.parquet", &args);
    let b = run_ok(
        dir.path(),
        "b.parquet",
        &[&args[..], &["--grid", "square"]].concat(),
    );
    assert_eq!(a.without_timing(), b.without_timing());
    assert!(!a.columns.contains(&"grid".to_string()));
    assert!(!a.meta.contains_key("batchgen.grid"));
}

#[test]
fn refusals_name_flag_value_and_grid() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.parquet");
    let mask = dir.path().join("m.txt");
    std::fs::write(&mask, "..\n..\n").unwrap();
    let m = mask.to_str().unwrap();
    for (args, want) in [
        (
            vec!["--grid", "hex", "--algo", "eller"],
            vec!["--algo", "eller", "hex"],
        ),
        (
            vec!["--grid", "triangle", "--algo", "wilson-straight:0.5"],
            vec!["wilson-straight:0.5", "triangle"],
        ),
        (
            vec!["--grid", "polar", "--algo", "wilson-turn:0.5"],
            vec!["wilson-turn:0.5", "polar"],
        ),
        (
            vec!["--grid", "hex", "--algo", "binary-tree"],
            vec!["binary-tree", "hex"],
        ),
        (
            vec!["--grid", "hex", "--size", "12"],
            vec!["--size", "'12'"],
        ),
        (vec!["--size", "12"], vec!["--size", "'12'", "--grid polar"]),
        (
            vec!["--grid", "polar", "--size", "0"],
            vec!["--size", "'0'", "rings of --grid polar", "from 1"],
        ),
        (
            vec!["--grid", "polar", "--size", "3x3x3"],
            vec!["--size", "3x3x3", "polar is 2D", "R (rings"],
        ),
        (
            vec!["--grid", "polar", "--size", "4000000000"],
            vec![
                "--size",
                "4000000000",
                "rings hold more than the 67108864 cells",
            ],
        ),
        (
            vec!["--grid", "hex", "--size", "3x3x3"],
            vec!["--size", "3x3x3", "hex is 2D", "WIDTHxHEIGHT"],
        ),
        (
            vec!["--grid", "polar", "--size", "4x2"],
            vec!["--size", "4x2", "at least 3"],
        ),
        (
            vec!["--grid", "triangle", "--size", "1x5"],
            vec!["--size", "1x5", "not connected"],
        ),
        (
            vec!["--grid", "hex", "--braid", "1.5"],
            vec!["--braid", "1.5", "from 0 to 1"],
        ),
        (
            vec!["--grid", "hex", "--ends", "diameter", "--exit", "1,1"],
            vec!["--ends diameter", "--exit"],
        ),
        (
            vec!["--grid", "polar", "--mask", m],
            vec!["--mask", "polar"],
        ),
        (
            vec!["--grid", "hexagon"],
            vec!["--grid", "hexagon", "square, hex, triangle or polar"],
        ),
    ] {
        let o = batchgen()
            .args(&args)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        for w in want {
            assert!(err.contains(w), "{args:?}: {err} lacks {w}");
        }
        assert!(!out.exists());
    }
}

#[test]
fn masks_connect_through_the_grids_neighbours() {
    let dir = tempfile::tempdir().unwrap();
    // (1,0) and (0,1) touch on a hex grid (odd row: NE of (0,1) is (1,0)), not on a square or
    // triangle grid.
    let mask = dir.path().join("diag.txt");
    std::fs::write(&mask, "#..\n..#\n").unwrap();
    let t = run_ok(
        dir.path(),
        "hex.parquet",
        &[
            "--grid",
            "hex",
            "--mask",
            mask.to_str().unwrap(),
            "--count",
            "4",
            "--algo",
            "wilson",
        ],
    );
    assert!(t.rows.iter().all(|r| r[t.col("cells")] == "4"));
    assert_ne!(t.rows[0][t.col("mask_hash")], "0");
    assert!(t.meta["batchgen.mask"].starts_with("#..\n..#"));
    let o = batchgen()
        .args([
            "--grid",
            "triangle",
            "--mask",
            mask.to_str().unwrap(),
            "--out",
        ])
        .arg(dir.path().join("t.parquet"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--mask") && err.contains("triangle"), "{err}");
}

#[test]
fn render_draws_every_grid_as_svg_and_png_and_refuses_text() {
    let dir = tempfile::tempdir().unwrap();
    for (grid, size) in [("hex", "6x5"), ("triangle", "8x4"), ("polar", "4")] {
        let out = dir.path().join(format!("{grid}.svg"));
        let base = [
            "render", "--grid", grid, "--size", size, "--algo", "kruskal", "--index", "2",
        ];
        let o = batchgen()
            .args(base)
            .arg("--solution")
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let doc = std::fs::read_to_string(&out).unwrap();
        for id in ["walls", "solution", "entrance", "exit"] {
            assert!(doc.contains(&format!("id=\"{id}\"")), "{grid}: no {id}");
        }
        // PNG: the same picture as pixels, the entrance and exit marked in their colours.
        let png = dir.path().join(format!("{grid}.png"));
        let o = batchgen()
            .args(base)
            .arg("--solution")
            .arg("-o")
            .arg(&png)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
        let mut r = dec.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        assert!(doc.contains(&format!("width=\"{}\"", info.width)), "{grid}");
        let colours: std::collections::HashSet<&[u8]> = buf.chunks_exact(3).collect();
        for c in [
            batchgen::render::PNG_ENTRANCE,
            batchgen::render::PNG_EXIT,
            batchgen::render::PNG_SOLUTION,
            batchgen::render::PNG_WALL,
        ] {
            assert!(colours.contains(&c[..]), "{grid}: no {c:?}");
        }
        for (flag, value) in [("--format", "ascii"), ("--format", "unicode")] {
            let o = batchgen()
                .current_dir(dir.path())
                .args(base)
                .args([flag, value])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{grid} {value}: {err}");
            assert!(err.contains(grid) && err.contains("svg"), "{err}");
        }
    }
}

/// The pictures of `data/grids/` are what the commands of its README make.
#[test]
fn the_pictures_in_data_grids_are_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("data/grids/README.md")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut n = 0;
    for line in readme.lines().filter(|l| l.starts_with("batchgen render")) {
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        let at = words.iter().position(|w| *w == "-o").unwrap();
        let committed = root.join(words[at + 1]);
        let out = dir.path().join("x.svg");
        let o = batchgen()
            .args(&words[..at])
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            std::fs::read(&out).unwrap(),
            std::fs::read(&committed).unwrap(),
            "{} is stale: run `{line}`",
            committed.display()
        );
        n += 1;
    }
    assert_eq!(n, 3);
}
