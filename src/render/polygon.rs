//! SVG pictures of mazes on the grids of [`crate::topo`] (hex, triangle, polar): every closed
//! wall and the grid's border as one path, the solution as a path through the cell centres, the
//! entrance as a square and the exit as a disc (the colours of the square pictures). The
//! geometry is that of `src/topo/README.md`: hexagons of circumradius 1 (odd rows shifted right
//! by half a cell), triangles of side 1, polar rings of height 1 (the centre a disc of radius
//! 1); `unit_px` pixels per unit.

use std::f64::consts::{PI, TAU};
use std::fmt::Write as _;

use super::svg::hex;
use super::{PNG_ENTRANCE, PNG_EXIT, PNG_SOLUTION};
use crate::topo::{CellGraph, GraphMaze, Grid};

/// One side of a cell: its neighbour's slot (none on the border) and its shape.
enum Side {
    /// A straight segment.
    Line((f64, f64), (f64, f64)),
    /// An arc around the centre `c` of radius `r` from angle `a0` to `a1` (clockwise).
    Arc {
        c: (f64, f64),
        r: f64,
        a0: f64,
        a1: f64,
    },
}

/// The picture's size in units.
pub(crate) fn extent(g: &CellGraph) -> (f64, f64) {
    let (w, h) = (g.size().a as f64, g.size().b as f64);
    match g.size().grid {
        Grid::Hex => (
            3f64.sqrt() * (w + if h > 1.0 { 0.5 } else { 0.0 }),
            1.5 * h + 0.5,
        ),
        Grid::Triangle => ((w + 1.0) / 2.0, h * 3f64.sqrt() / 2.0),
        Grid::Polar => (2.0 * w, 2.0 * w),
        Grid::Square => (w, h),
    }
}

/// The centre of cell `c`, in units.
fn centre(g: &CellGraph, c: u32) -> (f64, f64) {
    let w = g.size().a;
    let (x, y) = ((c % w) as f64, (c / w) as f64);
    match g.size().grid {
        Grid::Hex => {
            let shift = if (c / w) % 2 == 1 { 0.5 } else { 0.0 };
            (3f64.sqrt() * (x + shift + 0.5), 1.0 + 1.5 * y)
        }
        Grid::Triangle => {
            let h = 3f64.sqrt() / 2.0;
            let up = (c % w + c / w).is_multiple_of(2);
            (
                x / 2.0 + 0.5,
                h * (y + if up { 2.0 / 3.0 } else { 1.0 / 3.0 }),
            )
        }
        Grid::Square => (x + 0.5, y + 0.5),
        Grid::Polar => {
            let o = g.size().a as f64;
            let (r, i) = g.ring_of(c);
            if r == 0 {
                return (o, o);
            }
            let n = g.ring_len(r) as f64;
            let a = TAU * (i as f64 + 0.5) / n;
            let rad = r as f64 + 0.5;
            (o + rad * a.cos(), o + rad * a.sin())
        }
    }
}

/// The sides of cell `c` with the slot of the neighbour across each (see [`Side`]).
fn sides(g: &CellGraph, c: u32, out: &mut Vec<(Option<u32>, Side)>) {
    out.clear();
    let slot = |d: u8| g.slots(c).find(|&s| g.dir(s) == d);
    match g.size().grid {
        Grid::Hex => {
            let (cx, cy) = centre(g, c);
            let corner = |k: u32| {
                let a = (60.0 * k as f64 - 30.0) * PI / 180.0;
                (cx + a.cos(), cy + a.sin())
            };
            for d in 0..6u32 {
                out.push((slot(d as u8), Side::Line(corner(d), corner(d + 1))));
            }
        }
        Grid::Triangle => {
            let w = g.size().a;
            let (x, y) = ((c % w) as f64, (c / w) as f64);
            let h = 3f64.sqrt() / 2.0;
            let (l, r, m) = (x / 2.0, x / 2.0 + 1.0, x / 2.0 + 0.5);
            if (c % w + c / w).is_multiple_of(2) {
                let (apex, bl, br) = ((m, y * h), (l, (y + 1.0) * h), (r, (y + 1.0) * h));
                out.push((slot(0), Side::Line(apex, br)));
                out.push((slot(1), Side::Line(bl, br)));
                out.push((slot(2), Side::Line(apex, bl)));
            } else {
                let (tl, tr, apex) = ((l, y * h), (r, y * h), (m, (y + 1.0) * h));
                out.push((slot(0), Side::Line(tr, apex)));
                out.push((slot(2), Side::Line(tl, apex)));
                out.push((slot(3), Side::Line(tl, tr)));
            }
        }
        Grid::Square => {
            let w = g.size().a;
            let (x, y) = ((c % w) as f64, (c / w) as f64);
            let (a, b, cc, dd) = ((x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0), (x, y));
            out.push((slot(0), Side::Line(a, b)));
            out.push((slot(1), Side::Line(b, cc)));
            out.push((slot(2), Side::Line(dd, cc)));
            out.push((slot(3), Side::Line(dd, a)));
        }
        Grid::Polar => {
            let o = g.size().a as f64;
            let (r, i) = g.ring_of(c);
            let rf = r as f64;
            let n = g.ring_len(r) as f64;
            let (a0, a1) = if r == 0 {
                (0.0, TAU)
            } else {
                (TAU * i as f64 / n, TAU * (i + 1) as f64 / n)
            };
            if r > 0 {
                let p = |rad: f64| (o + rad * a1.cos(), o + rad * a1.sin());
                out.push((slot(0), Side::Line(p(rf), p(rf + 1.0))));
            }
            let outs: Vec<u32> = g.slots(c).filter(|&s| g.dir(s) == 1).collect();
            if outs.is_empty() {
                out.push((
                    None,
                    Side::Arc {
                        c: (o, o),
                        r: rf + 1.0,
                        a0,
                        a1,
                    },
                ));
            }
            let k = outs.len() as f64;
            for (j, &s) in outs.iter().enumerate() {
                let (b0, b1) = (
                    a0 + (a1 - a0) * j as f64 / k,
                    a0 + (a1 - a0) * (j + 1) as f64 / k,
                );
                out.push((
                    Some(s),
                    Side::Arc {
                        c: (o, o),
                        r: rf + 1.0,
                        a0: b0,
                        a1: b1,
                    },
                ));
            }
        }
    }
}

/// A standalone SVG document of `maze` on `g`, with `solution` (cells, entrance first) drawn
/// when given and the entrance and exit `ends` marked; `unit_px` pixels per unit (at least 1).
pub fn svg(
    g: &CellGraph,
    maze: &GraphMaze,
    solution: Option<&[u32]>,
    ends: (u32, u32),
    unit_px: u32,
) -> String {
    let u = unit_px.max(1) as f64;
    let pad = u / 2.0;
    let (w, h) = extent(g);
    let (vw, vh) = ((w * u + 2.0 * pad).ceil(), (h * u + 2.0 * pad).ceil());
    let at = |p: (f64, f64)| (p.0 * u + pad, p.1 * u + pad);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{vw}" height="{vh}" viewBox="0 0 {vw} {vh}">"##
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{vw}" height="{vh}" fill="#ffffff"/>"##
    );
    let mut d = String::new();
    for side in drawn_sides(g, maze) {
        match side {
            Side::Line(a, b) => {
                let (a, b) = (at(a), at(b));
                let _ = write!(d, "M{:.2} {:.2}L{:.2} {:.2}", a.0, a.1, b.0, b.1);
            }
            Side::Arc { c: o, r, a0, a1 } => {
                let (o, r) = (at(o), r * u);
                if a1 - a0 >= TAU - 1e-9 {
                    let _ = write!(
                        d,
                        "M{:.2} {:.2}a{r:.2} {r:.2} 0 1 1 {:.2} 0a{r:.2} {r:.2} 0 1 1 {:.2} 0",
                        o.0 - r,
                        o.1,
                        2.0 * r,
                        -2.0 * r
                    );
                } else {
                    let (x0, y0) = (o.0 + r * a0.cos(), o.1 + r * a0.sin());
                    let (x1, y1) = (o.0 + r * a1.cos(), o.1 + r * a1.sin());
                    let large = (a1 - a0 > PI) as u8;
                    let _ = write!(
                        d,
                        "M{x0:.2} {y0:.2}A{r:.2} {r:.2} 0 {large} 1 {x1:.2} {y1:.2}"
                    );
                }
            }
        }
    }
    let stroke = (u / 8.0).max(1.0);
    let _ = writeln!(
        s,
        r##"<path id="walls" d="{d}" fill="none" stroke="#000000" stroke-width="{stroke:.2}" stroke-linecap="round"/>"##
    );
    if let Some(path) = solution.filter(|p| p.len() > 1) {
        let mut p = String::new();
        for (k, &c) in path.iter().enumerate() {
            let q = at(centre(g, c));
            let _ = write!(p, "{}{:.2} {:.2}", if k == 0 { "M" } else { "L" }, q.0, q.1);
        }
        let _ = writeln!(
            s,
            r##"<path id="solution" d="{p}" fill="none" stroke="{}" stroke-width="{:.2}" stroke-linecap="round" stroke-linejoin="round"/>"##,
            hex(PNG_SOLUTION),
            (u / 5.0).max(1.0)
        );
    }
    let (e, x) = (at(centre(g, ends.0)), at(centre(g, ends.1)));
    let m = u * 0.35;
    let _ = writeln!(
        s,
        r##"<rect id="entrance" class="entrance" x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="{}"/>"##,
        e.0 - m,
        e.1 - m,
        2.0 * m,
        2.0 * m,
        hex(PNG_ENTRANCE)
    );
    let _ = writeln!(
        s,
        r##"<circle id="exit" class="exit" cx="{:.2}" cy="{:.2}" r="{:.2}" fill="{}"/>"##,
        x.0,
        x.1,
        m,
        hex(PNG_EXIT)
    );
    s.push_str("</svg>\n");
    s
}

/// The sides [`svg`] and [`png`] draw: every closed wall and every border side of `maze` on
/// `g`, each once, in cell order.
fn drawn_sides(g: &CellGraph, maze: &GraphMaze) -> Vec<Side> {
    let mut out = Vec::new();
    let mut list = Vec::new();
    // A polar cell lists only its clockwise and outward sides, so each wall once; the other
    // grids list every side, drawn by the smaller of its two cells.
    let once = g.size().grid == Grid::Polar;
    for &c in g.ids() {
        sides(g, c, &mut list);
        for (slot, side) in list.drain(..) {
            let draw = match slot {
                None => true,
                Some(t) => !maze.is_open(g.edge(t)) && (once || c < g.nbr(t)),
            };
            if draw {
                out.push(side);
            }
        }
    }
    out
}

/// The closed walls and the border of `maze` on `g` as straight segments in units (arcs as
/// short chords), each wall once: what [`svg`] strokes, for [`png`].
#[cfg(feature = "png")]
fn wall_segments(g: &CellGraph, maze: &GraphMaze) -> Vec<((f64, f64), (f64, f64))> {
    let mut out = Vec::new();
    for side in drawn_sides(g, maze) {
        match side {
            Side::Line(a, b) => out.push((a, b)),
            Side::Arc { c: o, r, a0, a1 } => {
                // Chords of at most a tenth of a unit.
                let n = (((a1 - a0) * r * 10.0).ceil() as usize).max(1);
                let p = |k: usize| {
                    let a = a0 + (a1 - a0) * k as f64 / n as f64;
                    (o.0 + r * a.cos(), o.1 + r * a.sin())
                };
                out.extend((0..n).map(|k| (p(k), p(k + 1))));
            }
        }
    }
    out
}

/// [`svg`]'s picture as an RGB PNG of the same size in pixels: white, the walls black, the
/// solution red, the entrance an orange square and the exit a cyan disc.
#[cfg(feature = "png")]
pub fn png(
    g: &CellGraph,
    maze: &GraphMaze,
    solution: Option<&[u32]>,
    ends: (u32, u32),
    unit_px: u32,
) -> Result<Vec<u8>, super::RenderError> {
    let (pw, ph, rgb) = rgb(g, maze, solution, ends, unit_px)?;
    let mut out = Vec::new();
    {
        let mut enc = ::png::Encoder::new(&mut out, pw as u32, ph as u32);
        enc.set_color(::png::ColorType::Rgb);
        enc.set_depth(::png::BitDepth::Eight);
        let mut wr = enc.write_header()?;
        wr.write_image_data(&rgb)?;
    }
    Ok(out)
}

/// [`png()`]'s picture before encoding: its width and height in pixels and its RGB bytes, row
/// by row (what a contact sheet paints into its own page).
#[cfg(feature = "png")]
pub fn rgb(
    g: &CellGraph,
    maze: &GraphMaze,
    solution: Option<&[u32]>,
    ends: (u32, u32),
    unit_px: u32,
) -> Result<(usize, usize, Vec<u8>), super::RenderError> {
    let u = unit_px.max(1) as f64;
    let pad = u / 2.0;
    let (w, h) = extent(g);
    let (vw, vh) = ((w * u + 2.0 * pad).ceil(), (h * u + 2.0 * pad).ceil());
    if vw > super::PNG_MAX_SIDE as f64 || vh > super::PNG_MAX_SIDE as f64 {
        return Err(super::RenderError::Size(format!(
            "PNG of {vw}x{vh} pixels is too large (at most {} per side); use a smaller --cell-px",
            super::PNG_MAX_SIDE
        )));
    }
    let (pw, ph) = (vw as usize, vh as usize);
    let mut rgb = vec![255u8; pw * ph * 3];
    let at = |p: (f64, f64)| (p.0 * u + pad, p.1 * u + pad);
    // Paint every pixel whose centre is within `half` of the segment a–b.
    let line = |rgb: &mut Vec<u8>, a: (f64, f64), b: (f64, f64), half: f64, c: [u8; 3]| {
        let (x0, x1) = (a.0.min(b.0) - half, a.0.max(b.0) + half);
        let (y0, y1) = (a.1.min(b.1) - half, a.1.max(b.1) + half);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len2 = dx * dx + dy * dy;
        for py in (y0.floor().max(0.0) as usize)..(y1.ceil().min(ph as f64) as usize) {
            for px in (x0.floor().max(0.0) as usize)..(x1.ceil().min(pw as f64) as usize) {
                let (qx, qy) = (px as f64 + 0.5, py as f64 + 0.5);
                let t = if len2 == 0.0 {
                    0.0
                } else {
                    (((qx - a.0) * dx + (qy - a.1) * dy) / len2).clamp(0.0, 1.0)
                };
                let (ex, ey) = (a.0 + t * dx - qx, a.1 + t * dy - qy);
                if ex * ex + ey * ey <= half * half {
                    let i = (py * pw + px) * 3;
                    rgb[i..i + 3].copy_from_slice(&c);
                }
            }
        }
    };
    let stroke = (u / 8.0).max(1.0);
    for (a, b) in wall_segments(g, maze) {
        line(&mut rgb, at(a), at(b), stroke / 2.0, super::PNG_WALL);
    }
    if let Some(path) = solution.filter(|p| p.len() > 1) {
        let half = (u / 5.0).max(1.0) / 2.0;
        for w in path.windows(2) {
            line(
                &mut rgb,
                at(centre(g, w[0])),
                at(centre(g, w[1])),
                half,
                PNG_SOLUTION,
            );
        }
    }
    let m = u * 0.35;
    let (e, x) = (at(centre(g, ends.0)), at(centre(g, ends.1)));
    for py in 0..ph {
        for px in 0..pw {
            let (qx, qy) = (px as f64 + 0.5, py as f64 + 0.5);
            let i = (py * pw + px) * 3;
            if (qx - e.0).abs() <= m && (qy - e.1).abs() <= m {
                rgb[i..i + 3].copy_from_slice(&PNG_ENTRANCE);
            } else if (qx - x.0).powi(2) + (qy - x.1).powi(2) <= m * m {
                rgb[i..i + 3].copy_from_slice(&PNG_EXIT);
            }
        }
    }
    Ok((pw, ph, rgb))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topo::{GridSize, MeasureScratch};

    /// The PNG picture: the entrance and exit marks in their colours at their cells' centres,
    /// the solution red between them, walls black, and the same size as the SVG.
    #[cfg(feature = "png")]
    #[test]
    fn png_marks_the_ends_the_solution_and_the_walls() {
        for size in [
            GridSize::new(Grid::Hex, 5, 4),
            GridSize::new(Grid::Triangle, 6, 3),
            GridSize::new(Grid::Polar, 4, 6),
        ] {
            let g = CellGraph::new(size);
            let mut maze = GraphMaze::new(&g);
            let algo = crate::Algorithm::Wilson;
            let mut rng = crate::Rng::from_maze_seed(7);
            crate::topo::generate::generate(
                &algo,
                &g,
                &mut maze,
                &mut crate::topo::generate::GraphScratch::new(),
                &mut rng,
            );
            let ends = crate::topo::GraphEnds::corners(&g);
            let mut ms = MeasureScratch::new();
            crate::topo::measure(&g, &maze, ends, 0, &mut ms);
            let path = ms.solution_path();
            let unit = 20;
            let bytes = png(&g, &maze, Some(&path), (ends.entrance, ends.exit), unit).unwrap();
            let dec = ::png::Decoder::new(std::io::Cursor::new(bytes));
            let mut r = dec.read_info().unwrap();
            let mut buf = vec![0; r.output_buffer_size().unwrap()];
            let info = r.next_frame(&mut buf).unwrap();
            let doc = svg(&g, &maze, Some(&path), (ends.entrance, ends.exit), unit);
            let (vw, vh) = extent(&g);
            let pad = unit as f64 / 2.0;
            assert_eq!(
                (info.width as f64, info.height as f64),
                (
                    (vw * unit as f64 + 2.0 * pad).ceil(),
                    (vh * unit as f64 + 2.0 * pad).ceil()
                )
            );
            assert!(doc.contains(&format!(r#"width="{}""#, info.width)));
            let px = |p: (f64, f64)| {
                let (x, y) = (
                    (p.0 * unit as f64 + pad) as usize,
                    (p.1 * unit as f64 + pad) as usize,
                );
                let i = (y * info.width as usize + x) * 3;
                [buf[i], buf[i + 1], buf[i + 2]]
            };
            assert_eq!(px(centre(&g, ends.entrance)), PNG_ENTRANCE, "{}", size.grid);
            assert_eq!(px(centre(&g, ends.exit)), PNG_EXIT, "{}", size.grid);
            // The middle of a step of the solution (past the marks) is red.
            let mid = path.len() / 2;
            let (a, b) = (centre(&g, path[mid]), centre(&g, path[mid + 1]));
            assert_eq!(
                px(((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)),
                PNG_SOLUTION,
                "{}",
                size.grid
            );
            // The middle of every wall segment is black (or under the solution or a mark,
            // drawn over the walls).
            for (a, b) in wall_segments(&g, &maze) {
                let c = px(((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0));
                assert!(
                    [super::super::PNG_WALL, PNG_SOLUTION, PNG_ENTRANCE, PNG_EXIT].contains(&c),
                    "{} {c:?}",
                    size.grid
                );
            }
            let walls = wall_segments(&g, &maze)
                .into_iter()
                .filter(|&(a, b)| {
                    px(((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)) == super::super::PNG_WALL
                })
                .count();
            assert!(
                walls > g.edges() as usize / 4,
                "{}: {walls} walls drawn",
                size.grid
            );
        }
    }

    /// Every closed wall is drawn once, every open one never: count the segments drawn against
    /// the edges and the border sides.
    #[test]
    fn walls_drawn_are_the_closed_edges_and_the_border() {
        for size in [
            GridSize::new(Grid::Hex, 4, 3),
            GridSize::new(Grid::Triangle, 5, 3),
            GridSize::new(Grid::Polar, 3, 6),
            GridSize::new(Grid::Square, 3, 2),
        ] {
            let g = CellGraph::new(size);
            let mut maze = GraphMaze::new(&g);
            let closed = svg(&g, &maze, None, (0, 1), 10);
            for e in 0..g.edges() {
                maze.open(e);
            }
            let open = svg(&g, &maze, None, (0, 1), 10);
            let moves = |t: &str| t.matches('M').count() as u32;
            assert_eq!(
                moves(&closed) - moves(&open),
                g.edges(),
                "{} {size}",
                size.grid
            );
        }
    }

    #[test]
    fn the_solution_and_the_ends_are_marked() {
        let g = CellGraph::new(GridSize::new(Grid::Hex, 5, 4));
        let mut maze = GraphMaze::new(&g);
        let mut rng = crate::Rng::from_maze_seed(3);
        let algo = crate::Algorithm::Wilson;
        crate::topo::generate::generate(&algo, &g, &mut maze, &mut Default::default(), &mut rng);
        let mut ms = MeasureScratch::new();
        let ends = crate::topo::GraphEnds::corners(&g);
        let m = crate::topo::measure(&g, &maze, ends, 0, &mut ms);
        let path = ms.solution_path();
        let doc = svg(&g, &maze, Some(&path), (ends.entrance, ends.exit), 12);
        assert!(doc.contains(r#"id="entrance""#) && doc.contains(r#"id="exit""#));
        let sol = doc
            .lines()
            .find(|l| l.contains(r#"id="solution""#))
            .unwrap();
        assert_eq!(sol.matches('L').count() as u32, m.solution_length);
    }
}
