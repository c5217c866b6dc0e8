//! The `png` and `svg` contact sheets: the chosen levels in a grid of equal panels, in pick
//! order, under a title (the filter) and a legend. Each panel shows the maze with its solution
//! (the picture of [`crate::render`]: walls black, passages white, path red; a 3D level as its
//! layers side by side) and under it a label: `ALGO #INDEX` and `SIZE`, then one line per
//! column the filter uses (`name = value`, from the level's row). The entrance and the exit
//! are marked beyond the cell itself so they read at a glance: an orange square and a cyan
//! disc, each with a black outline, a few cells wide ([`mark_cells`]).
//!
//! A level on a hex, triangle or polar grid is drawn in the SVG sheet as its polygon picture
//! ([`crate::render::polygon`]: the entrance a square, the exit a disc), and in the PNG sheet
//! as the same picture in pixels ([`crate::render::polygon::rgb`]).
//!
//! PNG: the tile picture of [`super::tile_layer`] is painted into one RGB buffer (holes of a
//! mask in the page's grey) and the text is drawn into the same buffer with the DejaVu font
//! the plots use. SVG: each panel is the standalone SVG of [`crate::render::svg`] placed in
//! its cell of the grid, with the marks and the text as SVG elements.

use std::fmt::Write;

use plotters::prelude::*;

use super::{esc, tile_layer, Export, Tile};
use crate::pick::Value;
use crate::render::hex;
use crate::render::{
    PNG_DOWN, PNG_ENTRANCE, PNG_EXIT, PNG_PASSAGE, PNG_SOLUTION, PNG_UP, PNG_UP_DOWN, PNG_WALL,
};

/// The side of the square a panel's maze is fitted into, in pixels.
pub const MAZE_PX: u32 = 200;
/// Height of one label line.
const LINE: u32 = 15;
/// Gap around a panel.
const GAP: u32 = 12;
/// Height of the title and legend above the grid.
const HEAD: u32 = 52;
/// Page colour (and the colour of a mask's holes).
const PAGE: [u8; 3] = [232, 232, 232];

/// Why a sheet could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("drawing the contact sheet: {0}")]
pub struct SheetError(String);

/// Wall-grid squares across and down a level's picture (layers side by side, one square
/// apart).
fn squares(e: &Export<'_>) -> (u32, u32) {
    let l = e.level;
    if let Some(g) = l.graph() {
        // Another grid: its picture's extent in units, two squares to a unit.
        let (w, h) = crate::render::polygon::extent(g);
        return ((2.0 * w).ceil() as u32 + 1, (2.0 * h).ceil() as u32 + 1);
    }
    let across = l.depth() * (2 * l.width() + 1) + (l.depth() - 1);
    (across, 2 * l.height() + 1)
}

/// The label lines of a level.
fn label(e: &Export<'_>, columns: &[&str]) -> Vec<String> {
    let l = e.level;
    let mut lines = vec![match l.graph() {
        None => format!("{} #{}  {}", l.algo(), l.index(), l.size()),
        Some(g) => format!("{} #{}  {} {}", l.algo(), l.index(), l.grid(), g.size()),
    }];
    for c in columns {
        let v = e.row.iter().find(|(n, _)| n == c).map(|(_, v)| v);
        let text = match v {
            Some(Value::Unsigned(u)) => u.to_string(),
            Some(Value::Signed(i)) => i.to_string(),
            Some(Value::Float(f)) => format!("{}", (f * 1e4).round() / 1e4),
            Some(Value::Text(s)) => s.clone(),
            Some(Value::Null) => "NULL".into(),
            None => "-".into(),
        };
        lines.push(format!("{c} = {text}"));
    }
    lines
}

/// The grid of a sheet: (columns, rows, panel width, panel height, pixels per square).
fn layout(exports: &[Export<'_>], columns: &[&str]) -> (u32, u32, u32, u32, u32) {
    let n = exports.len().max(1) as u32;
    let cols = ((n as f64).sqrt().ceil() as u32).clamp(1, 10);
    let rows = n.div_ceil(cols);
    let most = exports
        .iter()
        .map(|e| {
            let (a, d) = squares(e);
            a.max(d)
        })
        .max()
        .unwrap_or(1);
    let k = (MAZE_PX / most).max(1);
    let (aw, ah) = exports.iter().fold((0, 0), |(w, h), e| {
        let (a, d) = squares(e);
        (w.max(a * k), h.max(d * k))
    });
    let panel_w = aw.max(150) + GAP;
    let panel_h = ah + LINE * (1 + columns.len() as u32) + GAP + 4;
    (cols, rows, panel_w, panel_h, k)
}

/// How many wall-grid squares the entrance and exit marks span (about a twentieth of the
/// picture, at least three squares).
pub fn mark_cells(e: &Export<'_>) -> u32 {
    let (a, d) = squares(e);
    (a.max(d) / 20).max(3)
}

/// The contact sheet as PNG bytes.
pub fn png(exports: &[Export<'_>], columns: &[&str], title: &str) -> Result<Vec<u8>, SheetError> {
    crate::plot::register_font();
    let (cols, rows, pw, ph, k) = layout(exports, columns);
    let (w, h) = (cols * pw + GAP, rows * ph + HEAD);
    let mut rgb = vec![0u8; (w * h * 3) as usize];
    for p in rgb.chunks_exact_mut(3) {
        p.copy_from_slice(&PAGE);
    }
    let put = |rgb: &mut Vec<u8>, x: u32, y: u32, c: [u8; 3]| {
        if x < w && y < h {
            let i = ((y * w + x) * 3) as usize;
            rgb[i..i + 3].copy_from_slice(&c);
        }
    };
    // Where each panel's label starts, below its picture.
    let mut label_at = vec![0u32; exports.len()];
    for (i, e) in exports.iter().enumerate() {
        let l = e.level;
        let (px, py) = (GAP + (i as u32 % cols) * pw, HEAD + (i as u32 / cols) * ph);
        label_at[i] = squares(e).1 * k + 3;
        if let (Some(g), Some(m)) = (l.graph(), l.graph_maze()) {
            // Another grid: its polygon picture in pixels (which marks the entrance and exit
            // itself), one unit to a cell, as on the SVG sheet.
            let (gw, gh, pic) = crate::render::polygon::rgb(
                g,
                m,
                Some(l.solution()),
                (l.entrance(), l.exit()),
                2 * k,
            )
            .map_err(|e| SheetError(e.to_string()))?;
            for (r, row) in pic.chunks_exact(3 * gw).enumerate() {
                for (c, p) in row.chunks_exact(3).enumerate() {
                    put(&mut rgb, px + c as u32, py + r as u32, [p[0], p[1], p[2]]);
                }
            }
            label_at[i] = label_at[i].max(gh as u32 + 3);
            continue;
        }
        let gw = 2 * l.width() + 1;
        // Path squares: cells of the solution and the open walls between them.
        let mut on_path = vec![false; (gw * (2 * l.height() + 1) * l.depth()) as usize];
        let at = |z: u32, c: u32, r: u32| ((z * (2 * l.height() + 1) + r) * gw + c) as usize;
        let sol = l.solution();
        for (j, &cell) in sol.iter().enumerate() {
            let (x, y, z) = l.xyz(cell);
            on_path[at(z, 2 * x + 1, 2 * y + 1)] = true;
            if let Some(&next) = sol.get(j + 1) {
                let (nx, ny, nz) = l.xyz(next);
                if nz == z {
                    on_path[at(z, x + nx + 1, y + ny + 1)] = true;
                }
            }
        }
        for z in 0..l.depth() {
            let tiles = tile_layer(l, z);
            for (t, tile) in tiles.iter().enumerate() {
                let (c, r) = (t as u32 % gw, t as u32 / gw);
                let colour = match tile {
                    Tile::Empty => PAGE,
                    Tile::Wall => PNG_WALL,
                    _ if on_path[at(z, c, r)] => PNG_SOLUTION,
                    Tile::Floor => PNG_PASSAGE,
                    Tile::Up => PNG_UP,
                    Tile::Down => PNG_DOWN,
                    Tile::UpDown => PNG_UP_DOWN,
                };
                let x0 = px + (z * (gw + 1) + c) * k;
                for dy in 0..k {
                    for dx in 0..k {
                        put(&mut rgb, x0 + dx, py + r * k + dy, colour);
                    }
                }
            }
        }
        // The entrance (square) and exit (disc) marks, outlined.
        let m = mark_cells(e) * k;
        let half = m as i64 / 2;
        for (cell, disc, colour) in [
            (l.entrance(), false, PNG_ENTRANCE),
            (l.exit(), true, PNG_EXIT),
        ] {
            let (x, y, z) = l.xyz(cell);
            let cx = (px + (z * (gw + 1) + 2 * x + 1) * k + k / 2) as i64;
            let cy = (py + (2 * y + 1) * k + k / 2) as i64;
            for dy in -half - 1..=half + 1 {
                for dx in -half - 1..=half + 1 {
                    let d2 = dx * dx + dy * dy;
                    let (inside, edge) = if disc {
                        (d2 <= half * half, d2 <= (half + 1) * (half + 1))
                    } else {
                        (dx.abs() < half && dy.abs() < half, true)
                    };
                    let c = if inside {
                        colour
                    } else if edge {
                        PNG_WALL
                    } else {
                        continue;
                    };
                    let (gx, gy) = (cx + dx, cy + dy);
                    if gx >= 0 && gy >= 0 {
                        put(&mut rgb, gx as u32, gy as u32, c);
                    }
                }
            }
        }
    }
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        let err = |e: &dyn std::fmt::Display| SheetError(e.to_string());
        let font = |size: u32| ("sans-serif", size).into_font().color(&BLACK);
        root.draw_text(title, &font(16), (GAP as i32, 8))
            .map_err(|e| err(&e))?;
        root.draw_text(
            "orange square: entrance   cyan disc: exit   red: solution",
            &font(13),
            (GAP as i32, 30),
        )
        .map_err(|e| err(&e))?;
        for (i, e) in exports.iter().enumerate() {
            let (px, py) = (GAP + (i as u32 % cols) * pw, HEAD + (i as u32 / cols) * ph);
            for (j, line) in label(e, columns).iter().enumerate() {
                root.draw_text(
                    line,
                    &font(12),
                    (px as i32, (py + label_at[i] + j as u32 * LINE) as i32),
                )
                .map_err(|e| err(&e))?;
            }
        }
        root.present().map_err(|e| err(&e))?;
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().map_err(|e| SheetError(e.to_string()))?;
        wr.write_image_data(&rgb)
            .map_err(|e| SheetError(e.to_string()))?;
        wr.finish().map_err(|e| SheetError(e.to_string()))?;
    }
    Ok(out)
}

/// The contact sheet as an SVG document.
pub fn svg(exports: &[Export<'_>], columns: &[&str], title: &str) -> Result<String, SheetError> {
    let (cols, rows, pw, ph, k) = layout(exports, columns);
    let (w, h) = (cols * pw + GAP, rows * ph + HEAD);
    let mut s = String::new();
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, sans-serif">"#
    );
    let _ = writeln!(
        s,
        r#"<rect width="{w}" height="{h}" fill="{}"/>"#,
        hex(PAGE)
    );
    let _ = writeln!(
        s,
        r#"<text x="{GAP}" y="22" font-size="16">{}</text>"#,
        esc(title)
    );
    let _ = writeln!(
        s,
        r#"<text x="{GAP}" y="42" font-size="13">orange square: entrance   cyan disc: exit   red: solution</text>"#
    );
    for (i, e) in exports.iter().enumerate() {
        let l = e.level;
        let (px, py) = (GAP + (i as u32 % cols) * pw, HEAD + (i as u32 / cols) * ph);
        // A maze cell is two squares of the tile picture.
        let c = 2 * k;
        if let (Some(g), Some(m)) = (l.graph(), l.graph_maze()) {
            // Another grid: its polygon picture (which marks the entrance and exit itself),
            // one unit to a cell.
            let inner =
                crate::render::polygon::svg(g, m, Some(l.solution()), (l.entrance(), l.exit()), c)
                    .replace(r#"id="entrance" "#, "")
                    .replace(r#"id="exit" "#, "");
            let _ = writeln!(
                s,
                r#"<g id="level-{i}" class="level" transform="translate({px},{py})">"#
            );
            s.push_str(inner.trim());
            s.push('\n');
            let (_, d) = squares(e);
            for (j, line) in label(e, columns).iter().enumerate() {
                let _ = writeln!(
                    s,
                    r#"<text x="0" y="{}" font-size="12">{}</text>"#,
                    (d / 2 + 1) * c + 12 + j as u32 * LINE,
                    esc(line)
                );
            }
            let _ = writeln!(s, "</g>");
            continue;
        }
        let inner = crate::render::svg(l.maze(), Some(l.solution()), c)
            .map_err(|e| SheetError(e.to_string()))?;
        let body = inner
            .split_once("?>")
            .map_or(inner.as_str(), |(_, b)| b)
            .trim();
        let _ = writeln!(
            s,
            r#"<g id="level-{i}" class="level" transform="translate({px},{py})">"#
        );
        s.push_str(body);
        s.push('\n');
        let pad = c.div_ceil(2);
        let label_row = if l.size().is_3d() { c } else { 0 };
        let r = mark_cells(e) * k / 2;
        for (cell, is_exit) in [(l.entrance(), false), (l.exit(), true)] {
            let (x, y, z) = l.xyz(cell);
            let cx = pad + z * (l.width() * c + c) + x * c + c / 2;
            let cy = pad + label_row + y * c + c / 2;
            if is_exit {
                let _ = writeln!(
                    s,
                    r#"<circle class="exit-mark" cx="{cx}" cy="{cy}" r="{r}" fill="{}" stroke="black" stroke-width="1"/>"#,
                    hex(PNG_EXIT)
                );
            } else {
                let _ = writeln!(
                    s,
                    r#"<rect class="entrance-mark" x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="black" stroke-width="1"/>"#,
                    cx as i64 - r as i64,
                    cy as i64 - r as i64,
                    2 * r,
                    2 * r,
                    hex(PNG_ENTRANCE)
                );
            }
        }
        let (_, d) = squares(e);
        let height = (d / 2) * c + 2 * pad + label_row;
        for (j, line) in label(e, columns).iter().enumerate() {
            let _ = writeln!(
                s,
                r#"<text x="0" y="{}" font-size="12">{}</text>"#,
                height.max(d * k) + 12 + j as u32 * LINE,
                esc(line)
            );
        }
        let _ = writeln!(s, "</g>");
    }
    let _ = writeln!(s, "</svg>");
    Ok(s)
}
