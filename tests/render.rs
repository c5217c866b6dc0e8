//! Rendering: the ASCII picture has the documented shape and parses back to the same maze (and
//! the same path cells); the PNG decodes to the right size with walls, passages and path in the
//! right colours; the SVG is well-formed XML with the expected elements; the unicode picture uses
//! only box-drawing, space and path characters. 3D mazes (random spanning trees built here, not
//! by the generators): layers one after another in the text formats (a blank line between them,
//! each drawn like the 2D maze of its walls, with marks for passages up and down) and side by
//! side in SVG and PNG; ASCII parses back to the same 3D maze and path.

use crate::common;
use common::make;

use std::collections::VecDeque;
use std::io::Cursor;

use batchgen::generate::Scratch;
use batchgen::grid::{Dir, Size, Wall};
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

/// The ascii picture of `m` (with `sol`): it parses back to `m` and the sorted path cells, also
/// with Windows line ends and without the final newline, and [`render::render`] writes the same
/// bytes.
fn ascii_round_trip(name: &str, m: &Maze, sol: Option<&[u32]>) -> String {
    let text = render::ascii(m, sol).unwrap();
    let (back, path) = render::parse_ascii(&text).unwrap();
    assert_eq!(back, *m, "{name}");
    assert_eq!(path, sol.map(sorted), "{name}");
    let crlf = text.replace('\n', "\r\n");
    assert_eq!(render::parse_ascii(&crlf).unwrap().0, *m, "{name}");
    assert_eq!(
        render::parse_ascii(text.trim_end()).unwrap().0,
        *m,
        "{name}"
    );
    let via_render = bytes(m, sol, Format::Ascii, &Style::default());
    assert_eq!(via_render, text.as_bytes(), "{name}");
    text
}

#[test]
fn ascii_shape_and_round_trip() {
    for (name, m) in all_mazes() {
        let (w, h) = (m.width() as usize, m.height() as usize);
        let text = ascii_round_trip(&name, &m, None);
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
    }
}

#[test]
fn ascii_solution_round_trip() {
    for (name, m) in all_mazes() {
        let sol = solve(&m);
        let text = ascii_round_trip(&name, &m, Some(&sol));
        // Dots: one per path cell plus one per step (each step crosses one open wall).
        let dots = text.bytes().filter(|&b| b == b'.').count();
        assert_eq!(dots, 2 * sol.len() - 1, "{name}");
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
pub(crate) fn decode_png(data: &[u8]) -> (u32, u32, Vec<u8>) {
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

/// The PNG of the `n`-th maze of a test loop (scale 1, 2, 4 or 5 and, every other maze, the
/// solution, chosen by `n`), decoded.
struct Picture {
    /// Pixels per grid square.
    k: u32,
    width: u32,
    height: u32,
    rgb: Vec<u8>,
    /// The solution drawn (empty when none).
    sol: Vec<u32>,
}

impl Picture {
    fn new(m: &Maze, n: usize) -> Picture {
        let k = [1u32, 2, 4, 5][n % 4];
        let sol = if n.is_multiple_of(2) {
            solve(m)
        } else {
            Vec::new()
        };
        let style = Style { cell_px: Some(k) };
        let drawn = (!sol.is_empty()).then_some(&sol[..]);
        let (width, height, rgb) = decode_png(&bytes(m, drawn, Format::Png, &style));
        Picture {
            k,
            width,
            height,
            rgb,
            sol,
        }
    }

    /// The pixel `(dx, dy)` of grid square `(gx, gy)`.
    fn at(&self, gx: u32, gy: u32, dx: u32, dy: u32) -> [u8; 3] {
        let (x, y) = (gx * self.k + dx, gy * self.k + dy);
        let i = 3 * (y as usize * self.width as usize + x as usize);
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    fn on_path(&self, c: u32) -> bool {
        self.sol.contains(&c)
    }

    /// Does the drawn solution step between `a` and `b` (`a < b`)?
    fn step(&self, a: u32, b: u32) -> bool {
        self.sol.windows(2).any(|s| sorted(s) == [a, b])
    }
}

/// The PNG colour of a grid position: wall, passage, or passage on the path.
fn png_colour(open: bool, path: bool) -> [u8; 3] {
    match (open, path) {
        (false, _) => render::PNG_WALL,
        (true, false) => render::PNG_PASSAGE,
        (true, true) => render::PNG_SOLUTION,
    }
}

#[test]
fn png_decodes_with_the_right_size_and_colours() {
    let mut n = 0;
    for (name, m) in all_mazes() {
        n += 1;
        let pic = Picture::new(&m, n);
        let k = pic.k;
        let at = |gx, gy, dx, dy| pic.at(gx, gy, dx, dy);
        let (gw, gh) = (2 * m.width() + 1, 2 * m.height() + 1);
        assert_eq!((pic.width, pic.height), (gw * k, gh * k), "{name}");
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
        let (on_path, step, expect) = (|c| pic.on_path(c), |a, b| pic.step(a, b), png_colour);
        let w = m.width();
        for c in 0..m.cells() {
            let (x, y) = (c % w, c / w);
            // The path's entrance and exit cells have their own colours.
            let want = match (pic.sol.first(), pic.sol.last()) {
                (Some(&a), _) if a == c => render::PNG_ENTRANCE,
                (_, Some(&b)) if b == c => render::PNG_EXIT,
                _ => expect(true, on_path(c)),
            };
            assert_eq!(square(2 * x + 1, 2 * y + 1), want, "{name}");
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

// ---------------------------------------------------------------------------------------------
// 3D

/// 3D sizes: a column, the cube, a box, thin slabs, a larger box.
const SIZES_3D: [(u32, u32, u32); 7] = [
    (1, 1, 3),
    (2, 2, 2),
    (5, 4, 3),
    (1, 5, 2),
    (3, 1, 4),
    (4, 4, 1),
    (6, 6, 6),
];

/// A perfect maze of `size`: the spanning tree of a randomized depth-first search from cell 0
/// (xorshift64 with a fixed seed), independent of the generators.
fn dfs_maze(size: Size, seed: u64) -> Maze {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let n = size.cells();
    let mut seen = vec![false; n as usize];
    let mut walls: Vec<Wall> = Vec::new();
    let mut stack = vec![0u32];
    seen[0] = true;
    while let Some(&c) = stack.last() {
        let free: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|&d| size.has_neighbour(c, d) && !seen[size.neighbour(c, d) as usize])
            .collect();
        if free.is_empty() {
            stack.pop();
            continue;
        }
        let d = free[(next() % free.len() as u64) as usize];
        let nb = size.neighbour(c, d);
        walls.push(size.wall_of(c, d));
        seen[nb as usize] = true;
        stack.push(nb);
    }
    let m = Maze::from_open_walls(size, walls);
    assert!(m.is_perfect(), "{size}");
    m
}

/// Three spanning trees of every 3D size.
fn mazes_3d() -> Vec<(String, Maze)> {
    let mut out = Vec::new();
    for (w, h, d) in SIZES_3D {
        for seed in [1u64, 7, 2026] {
            let size = Size::new(w, h, d);
            out.push((format!("{size} seed {seed}"), dfs_maze(size, seed)));
        }
    }
    out
}

/// The 2D maze of layer `z`'s planar walls.
fn layer_maze(m: &Maze, z: u32) -> Maze {
    let size = m.size();
    let mut flat = Maze::new(m.width(), m.height());
    for y in 0..m.height() {
        for x in 0..m.width() {
            let c = size.cell(x, y, z);
            if m.east_open(c) {
                flat.carve(y * m.width() + x, Dir::East);
            }
            if m.south_open(c) {
                flat.carve(y * m.width() + x, Dir::South);
            }
        }
    }
    flat
}

/// Split a picture into its layers (text between blank lines), checking the separators.
fn layers_of(text: &str) -> Vec<Vec<&str>> {
    assert!(text.ends_with('\n') && !text.ends_with("\n\n"), "{text:?}");
    let layers: Vec<Vec<&str>> = text
        .trim_end_matches('\n')
        .split("\n\n")
        .map(|l| l.split('\n').collect())
        .collect();
    for l in &layers {
        assert!(l.iter().all(|line| !line.is_empty()), "{text:?}");
    }
    layers
}

/// The ascii mark of a cell with `up`/`down` passages, on the path or not.
fn mark(up: bool, down: bool, path: bool) -> char {
    let c = match (up, down) {
        (false, false) => return if path { '.' } else { ' ' },
        (true, false) => 'u',
        (false, true) => 'd',
        (true, true) => 'b',
    };
    if path {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

#[test]
fn ascii_3d_layers_marks_and_round_trip() {
    for (name, m) in mazes_3d() {
        let (w, h, d) = (m.width(), m.height(), m.depth());
        let text = ascii_round_trip(&name, &m, None);
        assert_eq!(
            text.lines().count() as u32,
            d * (2 * h + 1) + (d - 1),
            "{name}"
        );
        let layers = layers_of(&text);
        assert_eq!(layers.len() as u32, d, "{name}");
        let size = m.size();
        for (z, lines) in layers.iter().enumerate() {
            let z = z as u32;
            assert_eq!(lines.len() as u32, 2 * h + 1, "{name} layer {z}");
            assert!(lines.iter().all(|l| l.len() as u32 == 2 * w + 1), "{name}");
            // Each layer is the 2D picture of its walls, but for the marks in its cells.
            let mut unmarked: String = lines.iter().map(|l| format!("{l}\n")).collect();
            for mark in ['u', 'd', 'b'] {
                unmarked = unmarked.replace(mark, " ");
            }
            let flat = render::ascii(&layer_maze(&m, z), None).unwrap();
            assert_eq!(unmarked, flat, "{name} layer {z}");
            for y in 0..h {
                for x in 0..w {
                    let c = size.cell(x, y, z);
                    let got = lines[2 * y as usize + 1].as_bytes()[2 * x as usize + 1] as char;
                    let want = mark(m.is_open(c, Dir::Up), m.is_open(c, Dir::Down), false);
                    assert_eq!(got, want, "{name} cell ({x},{y},{z})");
                }
            }
        }
    }
}

#[test]
fn ascii_3d_solution_round_trip() {
    for (name, m) in mazes_3d() {
        let size = m.size();
        let sol = solve(&m);
        let text = ascii_round_trip(&name, &m, Some(&sol));
        // Path cells: '.' or the upper-case mark of their vertical passages; one '.' per
        // planar step; lower-case marks only off the path.
        let layers = layers_of(&text);
        for &c in &sol {
            let (x, y, z) = size.coords(c);
            let got = layers[z as usize][2 * y as usize + 1].as_bytes()[2 * x as usize + 1];
            let want = mark(m.is_open(c, Dir::Up), m.is_open(c, Dir::Down), true);
            assert_eq!(got as char, want, "{name} cell {c}");
        }
        let planar_steps = sol
            .windows(2)
            .filter(|s| size.coords(s[0]).2 == size.coords(s[1]).2)
            .count();
        let path_chars = text.bytes().filter(|b| b".UDB".contains(b)).count();
        assert_eq!(path_chars, sol.len() + planar_steps, "{name}");
        let marks_off_path = text.bytes().filter(|b| b"udb".contains(b)).count();
        let vertical_cells = (0..m.cells())
            .filter(|&c| !sol.contains(&c) && (m.is_open(c, Dir::Up) || m.is_open(c, Dir::Down)))
            .count();
        assert_eq!(marks_off_path, vertical_cells, "{name}");
    }
}

/// The 2×2×2 maze of the guide's example: in layer 0 the passages (0,0)–(1,0)–(1,1) and down
/// from (0,1) and (1,1); in layer 1 (0,1)–(0,0)–(1,0) and (0,1)–(1,1).
fn readme_cube() -> Maze {
    let size = Size::new(2, 2, 2);
    let mut m = Maze::with_size(size);
    m.carve(size.cell(0, 0, 0), Dir::East);
    m.carve(size.cell(1, 0, 0), Dir::South);
    m.carve(size.cell(0, 1, 0), Dir::Down);
    m.carve(size.cell(1, 1, 0), Dir::Down);
    m.carve(size.cell(0, 0, 1), Dir::South);
    m.carve(size.cell(0, 0, 1), Dir::East);
    m.carve(size.cell(0, 1, 1), Dir::East);
    assert!(m.is_perfect());
    m
}

/// The 3D text format, pinned (it is in src/cmd/README.md).
#[test]
fn ascii_and_unicode_3d_pinned() {
    let m = readme_cube();
    let plain = "\
#####
#   #
### #
#d#d#
#####

#####
#   #
# ###
#u u#
#####
";
    assert_eq!(render::ascii(&m, None).unwrap(), plain);
    // Entrance (0,0,0) to exit (1,1,1): east, south, down.
    let sol = [0, 1, 3, 7];
    let solved = "\
#####
#...#
###.#
#d#D#
#####

#####
#   #
# ###
#u U#
#####
";
    assert_eq!(render::ascii(&m, Some(&sol)).unwrap(), solved);
    assert_eq!(
        render::parse_ascii(solved).unwrap(),
        (m.clone(), Some(sol.to_vec()))
    );
    let unicode = "\
┌───────┐
│ • • • │
├───┐ • │
│ ↓ │ ⇓ │
└───┴───┘

┌───────┐
│       │
│   ╶───┤
│ ↑   ⇑ │
└───────┘
";
    assert_eq!(render::unicode(&m, Some(&sol)).unwrap(), unicode);
}

#[test]
fn unicode_3d_has_the_ascii_layout() {
    for (name, m) in mazes_3d() {
        let sol = solve(&m);
        for with_sol in [false, true] {
            let s = with_sol.then_some(&sol[..]);
            let text = render::unicode(&m, s).unwrap();
            assert_eq!(
                bytes(&m, s, Format::Unicode, &Style::default()),
                text.as_bytes()
            );
            let layers = layers_of(&text);
            assert_eq!(layers.len() as u32, m.depth(), "{name}");
            // Layer z without its marks is the 2D drawing of its walls.
            for (z, lines) in layers.iter().enumerate() {
                assert_eq!(lines.len() as u32, 2 * m.height() + 1, "{name}");
                for l in lines {
                    assert_eq!(l.chars().count() as u32, 4 * m.width() + 1, "{name}");
                }
                if !with_sol {
                    let unmarked: String = lines
                        .iter()
                        .map(|l| format!("{l}\n").replace(['↑', '↓', '↕'], " "))
                        .collect();
                    let flat = render::unicode(&layer_maze(&m, z as u32), None).unwrap();
                    assert_eq!(unmarked, flat, "{name} layer {z}");
                }
            }
            // One arrow per cell with a vertical passage, double on the path.
            let count = |set: &[char]| text.chars().filter(|c| set.contains(c)).count();
            let on_path = |c: u32| with_sol && sol.contains(&c);
            let vertical = |c: u32| m.is_open(c, Dir::Up) || m.is_open(c, Dir::Down);
            let cells = |p: bool| {
                (0..m.cells())
                    .filter(|&c| vertical(c) && on_path(c) == p)
                    .count()
            };
            assert_eq!(count(&['↑', '↓', '↕']), cells(false), "{name}");
            assert_eq!(count(&['⇑', '⇓', '⇕']), cells(true), "{name}");
            // The text layout matches the ascii one, character for character in the walls.
            let ascii = render::ascii(&m, s).unwrap();
            assert_eq!(ascii.lines().count(), text.lines().count(), "{name}");
        }
    }
}

/// Total length in cells of the `M x yHx2`/`M x yVy2` runs of element `id`.
fn svg_wall_units(root: roxmltree::Node, id: &str, px: u32) -> u64 {
    let el = root
        .descendants()
        .find(|e| e.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no {id}"));
    total_wall_units(el.attribute("d").unwrap(), px)
}

#[test]
fn svg_3d_layers_side_by_side() {
    let mut n = 0;
    for (name, m) in mazes_3d() {
        n += 1;
        let px = [10u32, 7, 1, 24][n % 4];
        let sol = solve(&m);
        let size = m.size();
        let (w, h, d) = (m.width() as u64, m.height() as u64, m.depth() as u64);
        for with_sol in [false, true] {
            let s = with_sol.then_some(&sol[..]);
            let text = render::svg(&m, s, px).unwrap();
            assert_eq!(
                bytes(&m, s, Format::Svg, &Style { cell_px: Some(px) }),
                text.as_bytes()
            );
            let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let root = doc.root_element();
            let c = px as u64;
            let pad = c.div_ceil(2);
            let label = if d > 1 { c } else { 0 };
            let vw = d * w * c + (d - 1) * c + 2 * pad;
            let vh = h * c + 2 * pad + label;
            assert_eq!(
                root.attribute("width"),
                Some(vw.to_string().as_str()),
                "{name}"
            );
            assert_eq!(
                root.attribute("height"),
                Some(vh.to_string().as_str()),
                "{name}"
            );
            // Ids are unique.
            let mut ids: Vec<&str> = root
                .descendants()
                .filter_map(|e| e.attribute("id"))
                .collect();
            let all = ids.len();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), all, "{name}");
            if d == 1 {
                assert!(root.descendants().all(|e| e.tag_name().name() != "g"));
                continue;
            }
            let groups: Vec<_> = root
                .children()
                .filter(|e| e.tag_name().name() == "g")
                .collect();
            assert_eq!(groups.len() as u64, d, "{name}");
            let mut solution_points = 0;
            let mut rings = 0;
            for (z, g) in groups.iter().enumerate() {
                let z32 = z as u32;
                assert_eq!(g.attribute("id"), Some(format!("layer-{z}").as_str()));
                let caption = g
                    .children()
                    .find(|e| e.tag_name().name() == "text")
                    .unwrap();
                assert_eq!(caption.text(), Some(format!("z={z}").as_str()), "{name}");
                // Walls of this layer: border plus its closed planar walls.
                let flat = layer_maze(&m, z32);
                let interior = (w - 1) * h + (h - 1) * w;
                let expect = 2 * (w + h) + interior - flat.passages();
                assert_eq!(
                    svg_wall_units(*g, &format!("walls-{z}"), px),
                    expect,
                    "{name}"
                );
                // The layer's walls start at its x offset: one gap cell between layers.
                let d_attr = g
                    .descendants()
                    .find(|e| e.attribute("id") == Some(format!("walls-{z}").as_str()))
                    .unwrap()
                    .attribute("d")
                    .unwrap();
                let x0 = pad + z as u64 * (w + 1) * c;
                assert!(
                    d_attr.starts_with(&format!("M{x0} {}H", pad + label)),
                    "{name}: {d_attr}"
                );
                // One triangle per cell with a passage up (down).
                for (dir, class) in [(Dir::Up, "up"), (Dir::Down, "down")] {
                    let cells = (0..m.cells())
                        .filter(|&cell| size.coords(cell).2 == z32 && m.is_open(cell, dir))
                        .count();
                    let el = g
                        .children()
                        .find(|e| e.attribute("id") == Some(format!("{class}-{z}").as_str()));
                    let got = el.map_or(0, |e| e.attribute("d").unwrap().matches('M').count());
                    assert_eq!(got, cells, "{name} layer {z} {class}");
                }
                if let Some(p) = g
                    .children()
                    .find(|e| e.attribute("id") == Some(format!("solution-{z}").as_str()))
                {
                    solution_points += p.attribute("d").unwrap().matches(['M', 'L']).count();
                }
                rings += g
                    .descendants()
                    .filter(|e| {
                        e.tag_name().name() == "circle" && e.attribute("id") != Some("exit")
                    })
                    .count();
            }
            // The solution, cut into per-layer runs, visits every path cell once; every cell
            // where it changes layer has a ring.
            let vertical_ends: std::collections::HashSet<u32> = sol
                .windows(2)
                .filter(|s| size.coords(s[0]).2 != size.coords(s[1]).2)
                .flat_map(|s| [s[0], s[1]])
                .collect();
            if with_sol {
                assert_eq!(solution_points, sol.len(), "{name}");
                assert_eq!(rings, vertical_ends.len(), "{name}");
            } else {
                assert_eq!((solution_points, rings), (0, 0), "{name}");
            }
        }
    }
}

#[test]
fn png_3d_layers_side_by_side() {
    let mut n = 0;
    for (name, m) in mazes_3d() {
        n += 1;
        let pic = Picture::new(&m, n);
        let k = pic.k;
        let at = |gx, gy, dx, dy| pic.at(gx, gy, dx, dy);
        let (on_path, step, expect) = (|c| pic.on_path(c), |a, b| pic.step(a, b), png_colour);
        let size = m.size();
        let (gw, gh, d) = (2 * m.width() + 1, 2 * m.height() + 1, m.depth());
        let width = (d * gw + d - 1) * k;
        assert_eq!((pic.width, pic.height), (width, gh * k), "{name}");
        let margin = k / 4;
        for z in 0..d {
            let left = z * (gw + 1);
            // The gap after the layer.
            if z + 1 < d {
                for gy in 0..gh {
                    assert_eq!(at(left + gw, gy, 0, 0), render::PNG_GAP, "{name}");
                    assert_eq!(at(left + gw, gy, k - 1, k - 1), render::PNG_GAP, "{name}");
                }
            }
            for gx in 0..gw {
                assert_eq!(at(left + gx, 0, 0, 0), render::PNG_WALL, "{name}");
                assert_eq!(
                    at(left + gx, gh - 1, k - 1, k - 1),
                    render::PNG_WALL,
                    "{name}"
                );
            }
            for y in 0..m.height() {
                for x in 0..m.width() {
                    let c = size.cell(x, y, z);
                    let (gx, gy) = (left + 2 * x + 1, 2 * y + 1);
                    // The cell's own colour: the path's, or its entrance's or exit's.
                    let own = match (pic.sol.first(), pic.sol.last()) {
                        (Some(&a), _) if a == c => render::PNG_ENTRANCE,
                        (_, Some(&b)) if b == c => render::PNG_EXIT,
                        _ => expect(true, on_path(c)),
                    };
                    // The cell's mark in its middle, its own colour at its corner (k >= 4).
                    let mark = match (m.is_open(c, Dir::Up), m.is_open(c, Dir::Down)) {
                        (false, false) => own,
                        (true, false) => render::PNG_UP,
                        (false, true) => render::PNG_DOWN,
                        (true, true) => render::PNG_UP_DOWN,
                    };
                    assert_eq!(at(gx, gy, k / 2, k / 2), mark, "{name} cell {c}");
                    assert_eq!(at(gx, gy, margin, margin), mark, "{name} cell {c}");
                    if margin > 0 {
                        assert_eq!(at(gx, gy, 0, 0), own, "{name}");
                        assert_eq!(at(gx, gy, k - 1, k - 1), own);
                    }
                    if x + 1 < m.width() {
                        let col = expect(m.east_open(c), step(c, c + 1));
                        assert_eq!(at(gx + 1, gy, 0, 0), col, "{name} east of {c}");
                        assert_eq!(at(gx + 1, gy, k - 1, k / 2), col, "{name} east of {c}");
                    }
                    if y + 1 < m.height() {
                        let col = expect(m.south_open(c), step(c, c + m.width()));
                        assert_eq!(at(gx, gy + 1, k / 2, k - 1), col, "{name} south of {c}");
                    }
                    assert_eq!(at(gx + 1, gy + 1, 0, 0), render::PNG_WALL, "{name}");
                }
            }
        }
    }
}

#[test]
fn solutions_across_layers_are_checked() {
    let m = readme_cube();
    // A vertical step through a closed down wall: (0,0,0) to (0,0,1).
    for f in Format::ALL {
        let mut out = Vec::new();
        let e = render::render(&m, Some(&[0, 4]), f, &Style::default(), &mut out);
        assert!(matches!(e, Err(RenderError::Solution(_))), "{f}");
        assert!(out.is_empty(), "{f}");
        // Cell 3 (1,1,0) and cell 5 (1,0,1) differ by the width but are not south neighbours.
        let e = render::render(&m, Some(&[3, 5]), f, &Style::default(), &mut out);
        let msg = e.unwrap_err().to_string();
        assert!(msg.contains("not adjacent"), "{f}: {msg}");
        let e = render::render(&m, Some(&[8]), f, &Style::default(), &mut out);
        let msg = e.unwrap_err().to_string();
        assert!(msg.contains("outside the 2x2x2 maze"), "{f}: {msg}");
    }
    // The 1x1xN column: every step vertical.
    let m = dfs_maze(Size::new(1, 1, 4), 3);
    let text = render::ascii(&m, Some(&[0, 1, 2, 3])).unwrap();
    assert_eq!(
        text,
        "###\n#D#\n###\n\n###\n#B#\n###\n\n###\n#B#\n###\n\n###\n#U#\n###\n"
    );
    assert_eq!(
        render::parse_ascii(&text).unwrap().1,
        Some(vec![0, 1, 2, 3])
    );
}

#[test]
fn parse_ascii_3d_errors_are_located() {
    let layer0 = "#####\n#   #\n### #\n#d#d#\n#####\n";
    let layer1 = "#####\n#   #\n# ###\n#u u#\n#####\n";
    let good = format!("{layer0}\n{layer1}");
    assert_eq!(render::parse_ascii(&good).unwrap().0, readme_cube());
    let cases: Vec<(String, &str, (usize, usize))> = vec![
        // A passage up from the top layer, down from the bottom one.
        (
            good.replacen("#   #", "#u  #", 1),
            "up from the top layer",
            (2, 2),
        ),
        (
            good.replace("#u u#", "#b u#"),
            "down from the bottom layer",
            (10, 2),
        ),
        // Disagreeing marks between layers.
        (good.replace("#u u#", "#  u#"), "disagrees", (10, 2)),
        (good.replace("#d#d#", "#d# #"), "disagrees", (10, 4)),
        // Marks outside cells.
        (good.replacen("### #", "###u#", 1), "outside a cell", (3, 4)),
        // Blank lines: doubled, leading, trailing.
        (
            good.replace("#####\n\n", "#####\n\n\n"),
            "empty line",
            (7, 1),
        ),
        (format!("\n{good}"), "empty line", (1, 1)),
        (format!("{good}\n"), "after the last layer", (12, 1)),
        // Layers of different shapes.
        (
            format!("{layer0}\n###\n# #\n###\n"),
            "layer 1 has 3 lines",
            (9, 1),
        ),
        (
            format!("{layer0}\n###\n# #\n# #\n# #\n###\n"),
            "expected 5",
            (7, 4),
        ),
        (
            format!("{layer0}\n{layer1}\n#####\n#   #\n#####\n"),
            "layer 2 has 3 lines",
            (15, 1),
        ),
        // A path wall between a path cell and a plain one.
        (
            good.replace("#u u#", "#u.U#"),
            "not both on the path",
            (10, 3),
        ),
    ];
    for (text, needle, (line, column)) in cases {
        let e = render::parse_ascii(&text).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains(needle), "{text:?}: {msg}");
        match e {
            RenderError::Parse {
                line: l, column: c, ..
            } => {
                assert_eq!((l, c), (line, column), "{text:?}: {msg}")
            }
            other => panic!("{other}"),
        }
    }
}
