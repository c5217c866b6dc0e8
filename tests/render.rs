//! Rendering: the ASCII picture has the documented shape and parses back to the same maze (and
//! the same path cells); the PNG decodes to the right size with walls, passages and path in the
//! right colours; the SVG is well-formed XML with the expected elements; the unicode picture uses
//! only box-drawing, space and path characters.

mod common;
use common::make;

use std::collections::VecDeque;
use std::io::Cursor;

use batchgen::generate::Scratch;
use batchgen::grid::Dir;
use batchgen::render::{self, Format, RenderError, Style};
use batchgen::{Algorithm, Maze};

const SIZES: [(u32, u32); 6] = [(1, 1), (1, 5), (5, 1), (3, 2), (10, 7), (40, 40)];
const SEEDS: [u64; 3] = [0, 42, 0xdead_beef];

/// Every generated maze of every algorithm, size and seed (two indices each).
fn all_mazes() -> Vec<(String, Maze)> {
    let mut s = Scratch::new();
    let mut out = Vec::new();
    for algo in Algorithm::all() {
        for (w, h) in SIZES {
            for seed in SEEDS {
                for i in 0..2 {
                    let m = make(&algo, w, h, seed, i, &mut s);
                    assert!(m.is_perfect());
                    out.push((format!("{} {w}x{h} seed {seed} #{i}", algo.name()), m));
                }
            }
        }
    }
    out
}

/// Shortest path from cell 0 to the last cell by BFS over `is_open`, in path order.
fn solve(m: &Maze) -> Vec<u32> {
    let n = m.cells() as usize;
    let target = m.cells() - 1;
    let mut parent = vec![u32::MAX; n];
    parent[0] = 0;
    let mut q = VecDeque::from([0u32]);
    while let Some(v) = q.pop_front() {
        if v == target {
            break;
        }
        for d in Dir::ALL {
            if m.is_open(v, d) {
                let nb = m.neighbour(v, d);
                if parent[nb as usize] == u32::MAX {
                    parent[nb as usize] = v;
                    q.push_back(nb);
                }
            }
        }
    }
    let mut path = vec![target];
    let mut c = target;
    while c != 0 {
        c = parent[c as usize];
        path.push(c);
    }
    path.reverse();
    path
}

fn sorted(p: &[u32]) -> Vec<u32> {
    let mut v = p.to_vec();
    v.sort_unstable();
    v
}

fn bytes(m: &Maze, sol: Option<&[u32]>, f: Format, style: &Style) -> Vec<u8> {
    let mut out = Vec::new();
    render::render(m, sol, f, style, &mut out).unwrap();
    out
}

#[test]
fn ascii_shape_and_round_trip() {
    for (name, m) in all_mazes() {
        let (w, h) = (m.width() as usize, m.height() as usize);
        let text = render::ascii(&m, None).unwrap();
        assert!(text.ends_with('\n'), "{name}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2 * h + 1, "{name}");
        for (r, l) in lines.iter().enumerate() {
            assert_eq!(l.len(), 2 * w + 1, "{name} line {r}");
            assert!(l.chars().all(|c| c == '#' || c == ' '), "{name} line {r}");
            let b = l.as_bytes();
            assert!(b[0] == b'#' && b[2 * w] == b'#', "{name} line {r}");
            if r == 0 || r == 2 * h {
                assert!(b.iter().all(|&c| c == b'#'), "{name} line {r}");
            }
        }
        // The documented positions of cells and walls.
        for y in 0..h {
            for x in 0..w {
                let c = (y * w + x) as u32;
                assert_eq!(lines[2 * y + 1].as_bytes()[2 * x + 1], b' ');
                let east = lines[2 * y + 1].as_bytes()[2 * x + 2] == b' ';
                let south = lines[2 * y + 2].as_bytes()[2 * x + 1] == b' ';
                assert_eq!(east, m.east_open(c), "{name} cell {c}");
                assert_eq!(south, m.south_open(c), "{name} cell {c}");
            }
        }
        let (back, path) = render::parse_ascii(&text).unwrap();
        assert_eq!(back, m, "{name}");
        assert_eq!(path, None, "{name}");
        // Through the generic entry point too.
        assert_eq!(
            bytes(&m, None, Format::Ascii, &Style::default()),
            text.as_bytes()
        );
    }
}

#[test]
fn ascii_solution_round_trip() {
    for (name, m) in all_mazes() {
        let sol = solve(&m);
        let text = render::ascii(&m, Some(&sol)).unwrap();
        let (back, path) = render::parse_ascii(&text).unwrap();
        assert_eq!(back, m, "{name}");
        assert_eq!(path, Some(sorted(&sol)), "{name}");
        // Dots: one per path cell plus one per step (each step crosses one open wall).
        let dots = text.bytes().filter(|&b| b == b'.').count();
        assert_eq!(dots, 2 * sol.len() - 1, "{name}");
        // Windows line ends and a missing final newline are accepted.
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(render::parse_ascii(&crlf).unwrap().0, m, "{name}");
        assert_eq!(render::parse_ascii(text.trim_end()).unwrap().0, m, "{name}");
    }
}

/// Hand-made non-perfect pictures parse too (a loop, a closed-off cell): parsing reads walls,
/// it does not assume a perfect maze.
#[test]
fn parse_ascii_reads_any_wall_pattern() {
    let text = "#####\n#   #\n# # #\n#   #\n#####\n";
    let (m, _) = render::parse_ascii(text).unwrap();
    assert_eq!(m.passages(), 4);
    assert!(!m.is_perfect());
    assert_eq!(render::ascii(&m, None).unwrap(), text);
    let text = "#####\n# # #\n#####\n";
    let (m, _) = render::parse_ascii(text).unwrap();
    assert_eq!(m.passages(), 0);
    assert_eq!(render::ascii(&m, None).unwrap(), text);
}

#[test]
fn parse_ascii_errors_are_located() {
    let good = "#####\n#   #\n### #\n#   #\n#####\n";
    assert!(render::parse_ascii(good).is_ok());
    let e = render::parse_ascii("#####\n#   #\n### #\n#  x#\n#####\n").unwrap_err();
    match e {
        RenderError::Parse { line, column, .. } => assert_eq!((line, column), (4, 4)),
        other => panic!("{other}"),
    }
    let msg = render::parse_ascii("#####\n#   #\n### #\n#   \n#####\n")
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("line 4") && msg.contains("expected 5"),
        "{msg}"
    );
    let msg = render::parse_ascii("#####\n#    \n### #\n#   #\n#####\n")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("open border"), "{msg}");
}

#[test]
fn invalid_solutions_are_refused_everywhere() {
    let mut s = Scratch::new();
    let m = make(&Algorithm::Wilson, 6, 5, 1, 0, &mut s);
    // Find a closed interior wall and try to walk through it.
    let c = (0..m.cells())
        .find(|&c| m.has_neighbour(c, Dir::East) && !m.east_open(c))
        .unwrap();
    for f in Format::ALL {
        let mut out = Vec::new();
        let e = render::render(&m, Some(&[c, c + 1]), f, &Style::default(), &mut out);
        assert!(matches!(e, Err(RenderError::Solution(_))), "{f}");
        assert!(out.is_empty(), "{f}: wrote before failing");
        let e = render::render(&m, Some(&[0, 7]), f, &Style::default(), &mut out);
        assert!(matches!(e, Err(RenderError::Solution(_))), "{f}");
    }
}

/// Decode a PNG into (width, height, RGB bytes).
fn decode_png(data: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut dec = png::Decoder::new(Cursor::new(data));
    dec.set_transformations(png::Transformations::EXPAND);
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn png_decodes_with_the_right_size_and_colours() {
    let mut n = 0;
    for (name, m) in all_mazes() {
        n += 1;
        let k = [1u32, 2, 4, 5][n % 4];
        let sol = solve(&m);
        let with_sol = n % 2 == 0;
        let style = Style { cell_px: Some(k) };
        let data = bytes(&m, with_sol.then_some(&sol[..]), Format::Png, &style);
        let (pw, ph, px) = decode_png(&data);
        let (gw, gh) = (2 * m.width() + 1, 2 * m.height() + 1);
        assert_eq!((pw, ph), (gw * k, gh * k), "{name}");
        let at = |gx: u32, gy: u32, dx: u32, dy: u32| -> [u8; 3] {
            let (x, y) = (gx * k + dx, gy * k + dy);
            let i = 3 * (y as usize * pw as usize + x as usize);
            [px[i], px[i + 1], px[i + 2]]
        };
        // Every pixel of a grid square has that square's colour: check all four corners.
        let square = |gx: u32, gy: u32| -> [u8; 3] {
            let c = at(gx, gy, 0, 0);
            for (dx, dy) in [(k - 1, 0), (0, k - 1), (k - 1, k - 1)] {
                assert_eq!(at(gx, gy, dx, dy), c, "{name} square ({gx},{gy})");
            }
            c
        };
        // The whole border is wall colour.
        for gx in 0..gw {
            assert_eq!(square(gx, 0), render::PNG_WALL, "{name}");
            assert_eq!(square(gx, gh - 1), render::PNG_WALL, "{name}");
        }
        for gy in 0..gh {
            assert_eq!(square(0, gy), render::PNG_WALL, "{name}");
            assert_eq!(square(gw - 1, gy), render::PNG_WALL, "{name}");
        }
        let on_path = |c: u32| with_sol && sol.contains(&c);
        let step = |a: u32, b: u32| with_sol && sol.windows(2).any(|s| sorted(s) == [a, b]);
        let expect = |open: bool, path: bool| match (open, path) {
            (false, _) => render::PNG_WALL,
            (true, false) => render::PNG_PASSAGE,
            (true, true) => render::PNG_SOLUTION,
        };
        let w = m.width();
        for c in 0..m.cells() {
            let (x, y) = (c % w, c / w);
            assert_eq!(
                square(2 * x + 1, 2 * y + 1),
                expect(true, on_path(c)),
                "{name}"
            );
            if x + 1 < w {
                let col = expect(m.east_open(c), step(c, c + 1));
                assert_eq!(square(2 * x + 2, 2 * y + 1), col, "{name} east of {c}");
            }
            if y + 1 < m.height() {
                let col = expect(m.south_open(c), step(c, c + w));
                assert_eq!(square(2 * x + 1, 2 * y + 2), col, "{name} south of {c}");
            }
            // Posts are wall.
            assert_eq!(square(2 * x + 2, 2 * y + 2), render::PNG_WALL, "{name}");
        }
    }
}

#[test]
fn png_default_scale_and_bad_scale() {
    let mut s = Scratch::new();
    let m = make(&Algorithm::Kruskal, 7, 3, 9, 0, &mut s);
    let (pw, ph, _) = decode_png(&bytes(&m, None, Format::Png, &Style::default()));
    assert_eq!((pw, ph), (15 * 4, 7 * 4));
    let mut out = Vec::new();
    let e = render::render(&m, None, Format::Png, &Style { cell_px: Some(0) }, &mut out);
    assert!(matches!(e, Err(RenderError::Size(_))));
    let e = render::render(&m, None, Format::Svg, &Style { cell_px: Some(0) }, &mut out);
    assert!(matches!(e, Err(RenderError::Size(_))));
    let big = Style {
        cell_px: Some(1 << 20),
    };
    let e = render::render(&m, None, Format::Png, &big, &mut out);
    assert!(matches!(e, Err(RenderError::Size(_))));
}

const SVG_NS: &str = "http://www.w3.org/2000/svg";

#[test]
fn svg_is_valid_xml_with_walls_and_solution() {
    let mut n = 0;
    for (name, m) in all_mazes() {
        n += 1;
        let px = [10u32, 7, 1, 24][n % 4];
        let sol = solve(&m);
        for with_sol in [false, true] {
            let data = bytes(
                &m,
                with_sol.then_some(&sol[..]),
                Format::Svg,
                &Style { cell_px: Some(px) },
            );
            let text = String::from_utf8(data).unwrap();
            let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let root = doc.root_element();
            assert_eq!(root.tag_name().name(), "svg", "{name}");
            assert_eq!(root.tag_name().namespace(), Some(SVG_NS), "{name}");
            let vb: Vec<f64> = root
                .attribute("viewBox")
                .unwrap()
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            let pad = px.div_ceil(2);
            let (vw, vh) = (
                (m.width() * px + 2 * pad) as f64,
                (m.height() * px + 2 * pad) as f64,
            );
            assert_eq!(vb, [0.0, 0.0, vw, vh], "{name}");
            let el = |id: &str| {
                root.descendants()
                    .find(|e| e.attribute("id") == Some(id))
                    .map(|e| {
                        (
                            e.tag_name().name().to_string(),
                            e.attribute("d").map(String::from),
                        )
                    })
            };
            let (tag, d) = el("walls").unwrap_or_else(|| panic!("{name}: no walls"));
            assert_eq!(tag, "path");
            let d = d.unwrap();
            assert!(d.starts_with('M'));
            assert!(d.chars().all(|c| "MHV 0123456789".contains(c)), "{name}");
            // The merged runs cover exactly the wall length: border plus closed interior walls.
            let walls = total_wall_units(&d, px);
            let (w, h) = (m.width() as u64, m.height() as u64);
            let interior = (w - 1) * h + (h - 1) * w;
            let expect = 2 * (w + h) + interior - m.passages();
            assert_eq!(walls, expect, "{name}");
            let bg = root
                .children()
                .find(|e| e.tag_name().name() == "rect")
                .unwrap();
            assert_eq!(bg.attribute("fill"), Some("#ffffff"));
            match (with_sol, el("solution")) {
                (false, None) => {}
                (true, Some((tag, Some(d)))) => {
                    assert_eq!(tag, "path");
                    let points = d.matches(['M', 'L']).count();
                    assert_eq!(points, sol.len(), "{name}");
                }
                (a, b) => panic!("{name}: with solution {a}, element {b:?}"),
            }
        }
    }
}

/// Sum of the lengths of `M x y H x2` / `M x y V y2` runs, in cells.
fn total_wall_units(d: &str, px: u32) -> u64 {
    let mut total = 0;
    for seg in d.split('M').filter(|s| !s.is_empty()) {
        let (start, rest, horizontal) = match seg.split_once('H') {
            Some((a, b)) => (a, b, true),
            None => {
                let (a, b) = seg.split_once('V').unwrap();
                (a, b, false)
            }
        };
        let (x, y) = start.split_once(' ').unwrap();
        let from: u64 = if horizontal { x } else { y }.parse().unwrap();
        let to: u64 = rest.parse().unwrap();
        assert!(to > from);
        assert_eq!((to - from) % px as u64, 0);
        total += (to - from) / px as u64;
    }
    total
}

#[test]
fn unicode_shape_and_characters() {
    for (name, m) in all_mazes() {
        let sol = solve(&m);
        for with_sol in [false, true] {
            let text = render::unicode(&m, with_sol.then_some(&sol[..])).unwrap();
            assert_eq!(
                bytes(
                    &m,
                    with_sol.then_some(&sol[..]),
                    Format::Unicode,
                    &Style::default()
                ),
                text.as_bytes()
            );
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len() as u32, 2 * m.height() + 1, "{name}");
            for l in &lines {
                assert_eq!(l.chars().count() as u32, 4 * m.width() + 1, "{name}");
                assert!(
                    l.chars()
                        .all(|c| c == ' ' || c == '•' || ('\u{2500}'..='\u{257f}').contains(&c)),
                    "{name}: {l}"
                );
            }
            // The first line is the top border: no gaps.
            assert!(!lines[0].contains(' '), "{name}");
            let bullets = text.matches('•').count();
            if with_sol {
                assert_eq!(bullets, 2 * sol.len() - 1, "{name}");
            } else {
                assert_eq!(bullets, 0, "{name}");
            }
        }
    }
}

/// `render` streams the same bytes as the string functions, and takes a `&mut dyn Write`.
#[test]
fn render_matches_string_functions_and_accepts_dyn_write() {
    let mut s = Scratch::new();
    let m = make(&Algorithm::Backtracker, 9, 4, 3, 1, &mut s);
    let sol = solve(&m);
    let mut v = Vec::new();
    {
        let out: &mut dyn std::io::Write = &mut v;
        let style = Style { cell_px: Some(12) };
        render::render(&m, Some(&sol), Format::Svg, &style, out).unwrap();
    }
    assert_eq!(v, render::svg(&m, Some(&sol), 12).unwrap().as_bytes());
    let default_svg = bytes(&m, None, Format::Svg, &Style::default());
    assert_eq!(default_svg, render::svg(&m, None, 10).unwrap().as_bytes());
}
