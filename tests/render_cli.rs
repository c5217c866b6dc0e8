//! `batchgen render` end to end: a maze drawn as ascii and parsed back is the maze of its
//! Parquet row (its metrics recomputed from the picture equal the row), whether it is read
//! from a store or regenerated from (algo, size, seed, index); PNG and SVG files are valid.

mod common;

use batchgen::render::parse_ascii;
use batchgen::{metrics, Ends};
use predicates::str::contains;

#[test]
fn ascii_parsed_back_reproduces_the_parquet_row() {
    let d = tempfile::tempdir().unwrap();
    let store = d.path().join("s.bgm");
    let out = d.path().join("m.parquet");
    common::batchgen()
        .args([
            "--algo", "all", "--size", "14x9", "--count", "12", "--seed", "31", "--quiet",
        ])
        .args(["--entrance", "2,3", "--exit", "13,0", "--mazes"])
        .arg(&store)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let t = common::read(&out);
    let col = |n: &str| t.col(n);
    let mut ms = metrics::Scratch::new();
    for (k, row) in t.rows.iter().enumerate() {
        let from_store = common::batchgen()
            .args(["render", "--store"])
            .arg(&store)
            .args(["--record", &k.to_string()])
            .output()
            .unwrap();
        assert!(from_store.status.success());
        let regenerated = common::batchgen()
            .args([
                "render",
                "--algo",
                &row[col("algo")],
                "--size",
                "14x9",
                "--seed",
                "31",
            ])
            .args(["--index", &row[col("index")]])
            .output()
            .unwrap();
        assert_eq!(
            from_store.stdout, regenerated.stdout,
            "store and regeneration agree"
        );
        let text = String::from_utf8(from_store.stdout).unwrap();
        assert_eq!(text.lines().count(), 19);
        assert!(text.lines().all(|l| l.chars().count() == 29));
        let (maze, path) = parse_ascii(&text).unwrap();
        assert!(path.is_none());
        assert!(maze.is_perfect());
        let m = metrics::measure(&maze, Ends::cells(3 * 14 + 2, 13), &mut ms);
        let want = [
            ("dead_ends", m.dead_ends.to_string()),
            ("dead_end_share", m.dead_end_share.to_string()),
            ("diameter", m.diameter.to_string()),
            ("diameter_start", m.diameter_start.to_string()),
            ("diameter_end", m.diameter_end.to_string()),
            ("solution_length", m.solution_length.to_string()),
            ("junctions", m.junctions.to_string()),
            ("corridors", m.corridors.to_string()),
            ("straights", m.straights.to_string()),
            ("solution_turns", m.solution_turns.to_string()),
            ("maze_hash", m.maze_hash.to_string()),
        ];
        for (name, v) in want {
            assert_eq!(row[col(name)], v, "record {k} column {name}");
        }
    }
}

#[test]
fn the_solution_is_drawn_between_the_ends() {
    let a = common::batchgen()
        .args([
            "render",
            "--algo",
            "kruskal",
            "--size",
            "10x10",
            "--index",
            "3",
            "--solution",
        ])
        .assert()
        .success();
    let text = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    let (maze, path) = parse_ascii(&text).unwrap();
    let path = path.unwrap();
    let m = metrics::measure(&maze, Ends::corners(10, 10), &mut metrics::Scratch::new());
    assert_eq!(path.len() as u32, m.solution_length + 1);
    assert!(path.contains(&0) && path.contains(&99));
}

#[test]
fn png_and_svg_files_are_valid() {
    let d = tempfile::tempdir().unwrap();
    let png = d.path().join("m.png");
    let svg = d.path().join("m.svg");
    for f in [&png, &svg] {
        common::batchgen()
            .args([
                "render",
                "--algo",
                "wilson",
                "--size",
                "7x5",
                "--index",
                "1",
                "--solution",
            ])
            .arg("-o")
            .arg(f)
            .assert()
            .success();
    }
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let reader = decoder.read_info().unwrap();
    assert_eq!(
        (reader.info().width, reader.info().height),
        (15 * 4, 11 * 4)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert!(doc
        .descendants()
        .any(|n| n.attribute("id") == Some("solution")));
    let names: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary files left: {names:?}");
}

#[test]
fn bad_render_input_exits_2() {
    common::batchgen()
        .args(["render", "--algo", "nope", "--size", "3x3", "--index", "0"])
        .assert()
        .code(2)
        .stderr(contains("--algo"));
    common::batchgen()
        .args([
            "render", "--algo", "wilson", "--size", "0x3", "--index", "0",
        ])
        .assert()
        .code(2)
        .stderr(contains("--size"));
    common::batchgen()
        .args([
            "render", "--algo", "wilson", "--size", "3x3", "--index", "0", "--format", "bmp",
        ])
        .assert()
        .code(2)
        .stderr(contains("--format"));
    let d = tempfile::tempdir().unwrap();
    let not_store = d.path().join("x.bgm");
    std::fs::write(
        &not_store,
        b"hello, this is not a maze store at all.................................",
    )
    .unwrap();
    common::batchgen()
        .args(["render", "--record", "0", "--store"])
        .arg(&not_store)
        .assert()
        .code(2)
        .stderr(contains("not a batchgen maze store"));
}
