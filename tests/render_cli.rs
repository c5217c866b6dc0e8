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

/// `data/masks/rooms.txt`, the example level the masked pictures are tested on.
fn rooms() -> batchgen::grid::Mask {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/masks/rooms.txt");
    batchgen::grid::Mask::from_text(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `batchgen render --mask data/masks/rooms.txt --algo wilson --index 0 --solution` into a file
/// of the given name, plus `extra`; the file's bytes.
fn render_rooms(name: &str, extra: &[&str]) -> Vec<u8> {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join(name);
    common::batchgen()
        .args(["render", "--algo", "wilson", "--index", "0", "--solution"])
        .arg("--mask")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/data/masks/rooms.txt"))
        .args(extra)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    std::fs::read(&out).unwrap()
}

/// The library's maze of that command: Wilson's maze 0 of seed 42 on the rooms mask.
fn rooms_maze() -> batchgen::Maze {
    let mut maze = batchgen::Maze::masked(std::sync::Arc::new(rooms()));
    batchgen::generate::regenerate(
        &batchgen::Algorithm::Wilson,
        &mut maze,
        &mut batchgen::generate::Scratch::new(),
        42,
        0,
    );
    maze
}

#[test]
fn a_masked_maze_in_ascii_draws_holes_solid_and_parses_back_with_its_mask() {
    let mask = rooms();
    let (w, h) = (mask.size().width, mask.size().height);
    let text = String::from_utf8(render_rooms("m.txt", &[])).unwrap();
    let rows: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
    assert_eq!(rows.len() as u32, 2 * h + 1, "{text}");
    for c in 0..w * h {
        let (x, y) = ((2 * (c % w) + 1) as usize, (2 * (c / w) + 1) as usize);
        if mask.contains(c) {
            assert_ne!(rows[y][x], b'#', "cell {c} is drawn as a hole\n{text}");
        } else {
            // The hole and its four walls are solid.
            for (r, k) in [(y, x), (y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)] {
                assert_eq!(rows[r][k], b'#', "hole {c} at line {r} column {k}\n{text}");
            }
        }
    }
    // Read back: the maze with its mask, and the solution between the mask's first and last
    // cells (the default ends), on mask cells only.
    let (maze, path) = parse_ascii(&text).unwrap();
    assert_eq!(maze.mask().map(|m| &**m), Some(&mask));
    assert_eq!(maze, rooms_maze());
    assert!(maze.is_perfect());
    let path = path.unwrap();
    assert!(path.iter().all(|&c| mask.contains(c)), "{path:?}");
    assert!(path.contains(&mask.first()) && path.contains(&mask.last()));
    let m = metrics::measure(
        &maze,
        Ends::cells(mask.first(), mask.last()),
        &mut metrics::Scratch::new(),
    );
    assert_eq!(path.len() as u32, m.solution_length + 1);
}

#[test]
fn a_masked_maze_in_unicode_fills_every_hole() {
    let mask = rooms();
    let (w, h) = (mask.size().width, mask.size().height);
    let text = String::from_utf8(render_rooms("m.txt", &["--format", "unicode"])).unwrap();
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    assert_eq!(rows.len() as u32, 2 * h + 1, "{text}");
    assert!(rows.iter().all(|r| r.len() as u32 == 4 * w + 1), "{text}");
    let cell = |c: u32| -> String {
        let (x, y) = ((4 * (c % w) + 1) as usize, (2 * (c / w) + 1) as usize);
        rows[y][x..x + 3].iter().collect()
    };
    let mut on_path = 0;
    for c in 0..w * h {
        let s = cell(c);
        if mask.contains(c) {
            assert!(s == "   " || s == " • ", "cell {c} drawn {s:?}\n{text}");
            on_path += (s == " • ") as u32;
        } else {
            assert_eq!(s, "███", "hole {c}\n{text}");
        }
    }
    assert!(on_path >= 2, "{text}");
    // Between two holes of a row the wall is solid too: the rooms' first row has ten holes
    // in a run (x = 8..18), drawn as one unbroken block of 39 characters.
    let first: String = rows[1][4 * 8 + 1..4 * 18].iter().collect();
    assert_eq!(first, "█".repeat(39), "{text}");
}

#[test]
fn a_masked_maze_in_svg_has_a_filled_rect_per_run_of_holes() {
    let mask = rooms();
    let (w, h) = (mask.size().width, mask.size().height);
    let text = String::from_utf8(render_rooms("m.svg", &[])).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let holes = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("holes"))
        .expect("a holes group");
    assert_eq!(holes.attribute("fill"), Some("#000000"));
    let rects: Vec<[u32; 4]> = holes
        .children()
        .filter(|n| n.is_element())
        .map(|n| {
            assert_eq!(n.tag_name().name(), "rect");
            ["x", "y", "width", "height"].map(|a| n.attribute(a).unwrap().parse().unwrap())
        })
        .collect();
    // The runs of consecutive holes in each row, at 10 px a cell and a 5 px margin.
    let mut want = Vec::new();
    for y in 0..h {
        let mut x = 0;
        while x < w {
            if mask.contains(y * w + x) {
                x += 1;
                continue;
            }
            let x0 = x;
            while x < w && !mask.contains(y * w + x) {
                x += 1;
            }
            want.push([5 + 10 * x0, 5 + 10 * y, 10 * (x - x0), 10]);
        }
    }
    assert_eq!(rects, want);
    // The holes lie under the walls, and the solution with both its ends is drawn.
    let ids: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("id"))
        .collect();
    assert_eq!(ids, ["holes", "walls", "solution", "entrance", "exit"]);
    let entrance = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("entrance"))
        .unwrap();
    let (fx, fy) = (mask.first() % w, mask.first() / w);
    let ex: f64 = entrance.attribute("x").unwrap().parse().unwrap();
    let ey: f64 = entrance.attribute("y").unwrap().parse().unwrap();
    // The entrance square is six eighths of a cell wide, centred on the cell.
    assert_eq!((ex, ey), (6.25 + 10.0 * fx as f64, 6.25 + 10.0 * fy as f64));
    // No holes group without a mask.
    let plain = String::from_utf8(
        common::batchgen()
            .args([
                "render", "--algo", "wilson", "--size", "6x4", "--format", "svg",
            ])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(!plain.contains("holes"), "{plain}");
}

#[test]
fn a_masked_maze_in_png_paints_holes_the_wall_colour() {
    let mask = rooms();
    let (w, h) = (mask.size().width, mask.size().height);
    let bytes = render_rooms("m.png", &[]);
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let k = 4u32;
    assert_eq!(
        (info.width, info.height),
        ((2 * w + 1) * k, (2 * h + 1) * k)
    );
    assert_eq!(info.color_type, png::ColorType::Rgb);
    let pixel = |px: u32, py: u32| -> [u8; 3] {
        let i = ((py * info.width + px) * 3) as usize;
        [buf[i], buf[i + 1], buf[i + 2]]
    };
    // Every pixel of the square of a grid position.
    let square = |r: u32, c: u32| -> Vec<[u8; 3]> {
        (0..k * k)
            .map(|i| pixel(c * k + i % k, r * k + i / k))
            .collect()
    };
    for c in 0..w * h {
        let (r, col) = (2 * (c / w) + 1, 2 * (c % w) + 1);
        let here = square(r, col);
        if mask.contains(c) {
            assert!(
                here.iter().all(|&p| p != render::PNG_WALL),
                "cell {c} has wall pixels"
            );
        } else {
            for (rr, cc) in [
                (r, col),
                (r - 1, col),
                (r + 1, col),
                (r, col - 1),
                (r, col + 1),
            ] {
                assert!(
                    square(rr, cc).iter().all(|&p| p == render::PNG_WALL),
                    "hole {c}: position ({rr}, {cc}) is not wall-coloured"
                );
            }
        }
    }
    // The solution's ends are the mask's first and last cells.
    let at = |c: u32| square(2 * (c / w) + 1, 2 * (c % w) + 1)[0];
    assert_eq!(at(mask.first()), render::PNG_ENTRANCE);
    assert_eq!(at(mask.last()), render::PNG_EXIT);
}

/// A stored maze carries its own seed and braid: `--seed` or `--braid` beside `--store` is
/// refused with exit 2 naming both flags, not silently ignored.
#[test]
fn seed_and_braid_beside_a_store_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let store = d.path().join("m.arrow");
    common::batchgen()
        .args([
            "--algo", "wilson", "--size", "6x6", "--count", "3", "-q", "--mazes",
        ])
        .arg(&store)
        .arg("--out")
        .arg(d.path().join("m.parquet"))
        .assert()
        .success();
    for (flag, value) in [("--seed", "7"), ("--braid", "0.1")] {
        common::batchgen()
            .args(["render", "--record", "0", "--store"])
            .arg(&store)
            .args([flag, value])
            .assert()
            .code(2)
            .stderr(contains("--store"))
            .stderr(contains(flag));
    }
    common::batchgen()
        .args(["render", "--record", "0", "--store"])
        .arg(&store)
        .assert()
        .success();
}

/// A picture never replaces the store or the mask it is drawn from, nor a levels file the
/// metrics file it reads: refused with exit 2 before any work, the input unchanged.
#[test]
fn an_output_on_an_input_is_refused_and_the_input_kept() {
    let d = tempfile::tempdir().unwrap();
    let mask = d.path().join("mask.txt");
    std::fs::write(&mask, "....\n.##.\n....\n").unwrap();
    common::batchgen()
        .current_dir(d.path())
        .args([
            "--algo", "wilson", "--mask", "mask.txt", "--count", "2", "-q",
        ])
        .args(["--mazes", "m.arrow", "--out", "m.parquet"])
        .assert()
        .success();
    let kept: Vec<(&str, Vec<u8>)> = ["mask.txt", "m.arrow", "m.parquet"]
        .iter()
        .map(|n| (*n, std::fs::read(d.path().join(n)).unwrap()))
        .collect();
    let refused: [&[&str]; 5] = [
        &[
            "render", "--store", "m.arrow", "--record", "0", "-o", "m.arrow", "--format", "svg",
        ],
        &[
            "render",
            "--store",
            "./m.arrow",
            "--record",
            "0",
            "-o",
            "m.arrow",
            "--format",
            "png",
        ],
        &[
            "render", "--mask", "mask.txt", "--algo", "wilson", "--index", "0", "-o", "mask.txt",
        ],
        &[
            "--mask", "mask.txt", "--algo", "wilson", "--count", "1", "--out", "mask.txt",
        ],
        &[
            "levels",
            "m.parquet",
            "--format",
            "jsonl",
            "--out",
            "m.parquet",
        ],
    ];
    for args in refused {
        common::batchgen()
            .current_dir(d.path())
            .args(args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "would replace a file the run reads",
            ));
    }
    for (name, bytes) in &kept {
        assert_eq!(
            &std::fs::read(d.path().join(name)).unwrap(),
            bytes,
            "{name}"
        );
    }
}
