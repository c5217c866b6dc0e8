//! `batchgen render` end to end: a maze drawn as ascii and parsed back is the maze of its
//! Parquet row (its metrics recomputed from the picture equal the row), whether it is read
//! from a store or regenerated from (algo, size, seed, index); PNG and SVG files are valid.

use crate::common;

use batchgen::render::{self, parse_ascii};
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
fn the_entrance_and_exit_are_marked_apart() {
    // With --ends diameter both ends lie inside the grid: each has its own mark.
    let d = tempfile::tempdir().unwrap();
    for size in ["9x7", "5x4x3"] {
        let svg = d.path().join(format!("m{size}.svg"));
        let png = d.path().join(format!("m{size}.png"));
        for f in [&svg, &png] {
            common::batchgen()
                .args(["render", "--algo", "wilson", "--size", size, "--index", "2"])
                .args(["--solution", "--ends", "diameter", "--cell-px", "8", "-o"])
                .arg(f)
                .assert()
                .success();
        }
        let text = std::fs::read_to_string(&svg).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let el = |id: &str| doc.descendants().find(|n| n.attribute("id") == Some(id));
        let entrance = el("entrance").expect("an entrance mark");
        let exit = el("exit").expect("an exit mark");
        assert_eq!(entrance.tag_name().name(), "rect");
        assert_eq!(exit.tag_name().name(), "circle");
        assert_ne!(entrance.attribute("fill"), exit.attribute("fill"));
        let num = |n: roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
        let centre = (
            num(entrance, "x") + num(entrance, "width") / 2.0,
            num(entrance, "y") + num(entrance, "height") / 2.0,
        );
        assert_ne!(centre, (num(exit, "cx"), num(exit, "cy")), "{size}");
        if size.matches('x').count() == 2 {
            // 3D: every layer labelled.
            for z in 0..3 {
                let label = format!("z={z}");
                assert!(
                    doc.descendants()
                        .any(|n| n.has_tag_name("text") && n.text() == Some(label.as_str())),
                    "{label}"
                );
            }
        }
        // PNG: one cell square (4x4 pixels) of each end colour.
        let mut reader =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()))
                .read_info()
                .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let count = |c: [u8; 3]| {
            buf[..info.buffer_size()]
                .chunks(3)
                .filter(|p| *p == c)
                .count()
        };
        assert!(count(render::PNG_ENTRANCE) >= 8, "{size}");
        assert!(count(render::PNG_EXIT) >= 8, "{size}");
    }
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

fn render_to(dir: &std::path::Path, name: &str, extra: &[&str]) -> assert_cmd::assert::Assert {
    common::batchgen()
        .args([
            "render", "--algo", "wilson", "--size", "20x20", "--index", "3",
        ])
        .args(extra)
        .arg("-o")
        .arg(dir.join(name))
        .assert()
}

#[test]
fn the_output_extension_chooses_the_format() {
    let d = tempfile::tempdir().unwrap();
    render_to(d.path(), "x.svg", &[]).success();
    let svg = std::fs::read_to_string(d.path().join("x.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    render_to(d.path(), "x.PNG", &[]).success();
    let png = std::fs::read(d.path().join("x.PNG")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    render_to(d.path(), "x.txt", &[]).success();
    let txt = std::fs::read_to_string(d.path().join("x.txt")).unwrap();
    assert_eq!(txt.lines().count(), 41);
    // An extension render cannot write, or one that contradicts --format: exit 2, no file.
    for (name, extra, why) in [
        ("m.jpg", &[][..], "cannot write .jpg"),
        ("m.jpg", &["--format", "png"][..], "cannot write .jpg"),
        ("m.svg", &["--format", "png"][..], "the extension says svg"),
    ] {
        render_to(d.path(), name, extra)
            .code(2)
            .stderr(contains(why))
            .stderr(contains("--out"));
        assert!(!d.path().join(name).exists(), "{name} {extra:?}");
    }
}

#[test]
fn cell_px_means_a_cell_in_svg_and_png_alike() {
    let d = tempfile::tempdir().unwrap();
    render_to(d.path(), "a.svg", &["--cell-px", "12"]).success();
    render_to(d.path(), "a.png", &["--cell-px", "12"]).success();
    let svg = std::fs::read_to_string(d.path().join("a.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let svg_w: u64 = doc
        .root_element()
        .attribute("width")
        .unwrap()
        .parse()
        .unwrap();
    let reader = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(d.path().join("a.png")).unwrap(),
    ))
    .read_info()
    .unwrap();
    let png_w = reader.info().width as u64;
    // 20 cells of 12 pixels each, plus a margin or a wall of at most one cell.
    for w in [svg_w, png_w] {
        assert!((240..=252).contains(&w), "svg {svg_w}, png {png_w}");
    }
}

#[test]
fn a_huge_picture_is_refused_up_front() {
    let d = tempfile::tempdir().unwrap();
    for (name, px) in [("r.png", "20000"), ("r.svg", "100000")] {
        common::batchgen()
            .args([
                "render", "--algo", "kruskal", "--size", "4x4", "--index", "0",
            ])
            .args(["--cell-px", px])
            .arg("-o")
            .arg(d.path().join(name))
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(contains("--cell-px"))
            .stderr(contains("pixels"));
    }
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}

#[test]
fn an_interrupt_stops_a_large_picture_and_leaves_nothing() {
    let d = tempfile::tempdir().unwrap();
    // 81 × 200 = 16,200 pixels a side: within the bound, seconds to encode.
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("batchgen"))
        .args([
            "render", "--algo", "kruskal", "--size", "40x40", "--index", "0",
        ])
        .args(["--cell-px", "400"])
        .arg("-o")
        .arg(d.path().join("big.png"))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The temporary file appears once the handlers are installed and drawing starts.
    let start = std::time::Instant::now();
    while std::fs::read_dir(d.path()).unwrap().count() == 0 {
        assert!(start.elapsed().as_secs() < 60, "no temporary file");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    unsafe {
        // SAFETY: signalling our own child by its PID.
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("nothing written"), "{err}");
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}
