//! The `svg` format: a standalone SVG document with the walls as merged runs and the solution
//! as one path through the cell centres; a 3D maze as its layers side by side, one `<g>` each.

use super::*;

/// A standalone SVG document; `cell_px` is the side of one maze cell in pixels (at least 1).
pub fn svg(maze: &Maze, solution: Option<&[u32]>, cell_px: u32) -> Result<String, RenderError> {
    check_svg(maze, solution, cell_px)?;
    let mut v = Vec::new();
    write_svg(maze, solution, cell_px, &mut v)?;
    Ok(String::from_utf8(v).expect("SVG output is UTF-8"))
}

/// Everything that can make an SVG fail other than writing: the cell size and the solution.
pub(super) fn check_svg(
    maze: &Maze,
    solution: Option<&[u32]>,
    cell_px: u32,
) -> Result<(), RenderError> {
    if cell_px == 0 {
        return Err(RenderError::Size(
            "cell size must be at least 1 pixel".into(),
        ));
    }
    if let Some(path) = solution {
        path_marks(maze, path)?;
    }
    Ok(())
}

/// Fill colour of the up and down passage marks of a 3D maze.
const MARK_FILL: &str = "#0050dc";
/// Colour of the solution (and of the rings marking its vertical steps).
const SOLUTION_STROKE: &str = "#dc0000";

/// `#rrggbb` of an RGB colour.
pub(crate) fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// The marks of the solution's entrance (a square) and exit (a disc) that lie in layer `z`,
/// whose top-left cell is at `origin`.
fn write_ends<W: Write + ?Sized>(
    maze: &Maze,
    solution: Option<&[u32]>,
    z: u32,
    origin: (u64, u64),
    c: u64,
    out: &mut W,
) -> std::io::Result<()> {
    let Some((entrance, exit)) = path_ends(solution) else {
        return Ok(());
    };
    let size = maze.size();
    let centre = |cell: u32| {
        let (x, y, _) = size.coords(cell);
        (
            8 * (origin.0 + x as u64 * c) + 4 * c,
            8 * (origin.1 + y as u64 * c) + 4 * c,
        )
    };
    if size.coords(entrance).2 == z {
        let (x8, y8) = centre(entrance);
        writeln!(
            out,
            r#"<rect id="entrance" class="entrance" x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
            Eighths(x8 - 3 * c),
            Eighths(y8 - 3 * c),
            Eighths(6 * c),
            Eighths(6 * c),
            hex(PNG_ENTRANCE)
        )?;
    }
    if size.coords(exit).2 == z {
        let (x8, y8) = centre(exit);
        writeln!(
            out,
            r#"<circle id="exit" class="exit" cx="{}" cy="{}" r="{}" fill="{}"/>"#,
            Eighths(x8),
            Eighths(y8),
            Eighths(3 * c),
            hex(PNG_EXIT)
        )?;
    }
    Ok(())
}

/// Sizes shared by every part of one picture, in pixels.
#[derive(Clone, Copy)]
struct Pen {
    /// The side of one cell.
    c: u64,
    /// The margin around the picture.
    pad: u64,
    /// Wall stroke width.
    stroke: u64,
    /// Solution stroke width.
    sw: u64,
}

/// Write the SVG document (inputs already checked by [`check_svg`]), streaming the wall runs.
pub(super) fn write_svg<W: Write + ?Sized>(
    maze: &Maze,
    solution: Option<&[u32]>,
    cell_px: u32,
    out: &mut W,
) -> std::io::Result<()> {
    let (w, h, d) = (
        maze.width() as u64,
        maze.height() as u64,
        maze.depth() as u64,
    );
    let c = cell_px as u64;
    let pad = c.div_ceil(2);
    let pen = Pen {
        c,
        pad,
        stroke: (c / 5).max(1),
        sw: (c * 2 / 5).max(1),
    };
    // In 3D: a label row of one cell above the layers, one cell of gap between them.
    let label = if maze.size().is_3d() { c } else { 0 };
    let (vw, vh) = (d * w * c + (d - 1) * c + 2 * pad, h * c + 2 * pad + label);

    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{vw}" height="{vh}" viewBox="0 0 {vw} {vh}">"#
    )?;
    writeln!(
        out,
        r##"<rect x="0" y="0" width="{vw}" height="{vh}" fill="#ffffff"/>"##
    )?;
    if !maze.size().is_3d() {
        write_planar(maze, solution, pen, out)?;
        return writeln!(out, "</svg>");
    }

    let marks = solution.map(|p| path_marks(maze, p).expect("checked by check_svg"));
    for z in 0..d {
        let origin = (pad + z * (w + 1) * c, pad + label);
        write_layer(maze, solution, marks.as_deref(), z, origin, pen, out)?;
    }
    writeln!(out, "</svg>")
}

/// A 2D maze: holes, walls, the solution and its ends.
fn write_planar<W: Write + ?Sized>(
    maze: &Maze,
    solution: Option<&[u32]>,
    pen: Pen,
    out: &mut W,
) -> std::io::Result<()> {
    let Pen { c, pad, stroke, sw } = pen;
    write_holes(maze, (pad, pad), c, out)?;
    write!(out, r#"<path id="walls" d=""#)?;
    write_wall_runs(maze, 0, (pad, pad), c, out)?;
    writeln!(
        out,
        r##"" fill="none" stroke="#000000" stroke-width="{stroke}" stroke-linecap="square"/>"##
    )?;
    if let Some(path) = solution.filter(|p| !p.is_empty()) {
        write!(out, r#"<path id="solution" d=""#)?;
        write_run(maze, path, (pad, pad), c, out)?;
        writeln!(
            out,
            r##"" fill="none" stroke="{SOLUTION_STROKE}" stroke-width="{sw}" stroke-linecap="round" stroke-linejoin="round"/>"##
        )?;
    }
    write_ends(maze, solution, 0, (pad, pad), c, out)
}

/// Layer `z` of a 3D maze at `origin`: its label, walls, the solution's runs in it, the rings
/// where the path changes layer, its ends and the passage marks.
fn write_layer<W: Write + ?Sized>(
    maze: &Maze,
    solution: Option<&[u32]>,
    marks: Option<&[u8]>,
    z: u64,
    origin: (u64, u64),
    pen: Pen,
    out: &mut W,
) -> std::io::Result<()> {
    let Pen { c, pad, stroke, sw } = pen;
    let size = maze.size();
    let font = (c * 4 / 5).max(1);
    let z32 = z as u32;
    writeln!(out, r#"<g id="layer-{z}" class="layer">"#)?;
    writeln!(
        out,
        r##"<text x="{}" y="{}" font-family="sans-serif" font-size="{font}" fill="#000000">z={z}</text>"##,
        origin.0,
        pad + font
    )?;
    write!(out, r#"<path id="walls-{z}" class="walls" d=""#)?;
    write_wall_runs(maze, z32, origin, c, out)?;
    writeln!(
        out,
        r##"" fill="none" stroke="#000000" stroke-width="{stroke}" stroke-linecap="square"/>"##
    )?;
    // The solution's runs of consecutive cells in this layer, each a subpath.
    let path = solution.unwrap_or(&[]);
    let in_layer = |cell: u32| size.coords(cell).2 == z32;
    if path.iter().any(|&cell| in_layer(cell)) {
        write!(out, r#"<path id="solution-{z}" class="solution" d=""#)?;
        let mut rest = path;
        while let Some(start) = rest.iter().position(|&cell| in_layer(cell)) {
            let len = rest[start..]
                .iter()
                .position(|&cell| !in_layer(cell))
                .unwrap_or(rest.len() - start);
            write_run(maze, &rest[start..start + len], origin, c, out)?;
            rest = &rest[start + len..];
        }
        writeln!(
            out,
            r##"" fill="none" stroke="{SOLUTION_STROKE}" stroke-width="{sw}" stroke-linecap="round" stroke-linejoin="round"/>"##
        )?;
    }
    if let Some(marks) = marks {
        write_steps(size, marks, z, origin, c, out)?;
    }
    write_ends(maze, solution, z32, origin, c, out)?;
    write_passage_marks(maze, z, origin, c, out)?;
    writeln!(out, "</g>")
}

/// Rings around the path cells of layer `z` where the path changes layer.
fn write_steps<W: Write + ?Sized>(
    size: Size,
    marks: &[u8],
    z: u64,
    origin: (u64, u64),
    c: u64,
    out: &mut W,
) -> std::io::Result<()> {
    let stepped = |cell: u32| {
        marks[cell as usize] & PATH_DOWN != 0
            || (z > 0 && marks[(cell - size.layer_cells()) as usize] & PATH_DOWN != 0)
    };
    let cells = layer_cells(size, z as u32).filter(|&(_, _, cell)| stepped(cell));
    let ring = (c / 8).max(1);
    let mut any = false;
    for (x, y, _) in cells {
        if !any {
            writeln!(
                out,
                r##"<g id="steps-{z}" class="steps" fill="none" stroke="{SOLUTION_STROKE}" stroke-width="{ring}">"##
            )?;
            any = true;
        }
        let (x8, y8) = (
            8 * (origin.0 + x * c) + 4 * c,
            8 * (origin.1 + y * c) + 4 * c,
        );
        writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="{}"/>"#,
            Eighths(x8),
            Eighths(y8),
            Eighths(3 * c)
        )?;
    }
    if any {
        writeln!(out, "</g>")?;
    }
    Ok(())
}

/// Passage marks of layer `z`: up, a triangle pointing up in the upper half of the cell; down,
/// one pointing down in the lower half (both: a diamond).
fn write_passage_marks<W: Write + ?Sized>(
    maze: &Maze,
    z: u64,
    origin: (u64, u64),
    c: u64,
    out: &mut W,
) -> std::io::Result<()> {
    let size = maze.size();
    for (dir, class, tip) in [(Dir::Up, "up", 2 * c), (Dir::Down, "down", 6 * c)] {
        let mut cells = layer_cells(size, z as u32)
            .filter(|&(_, _, cell)| maze.is_open(cell, dir))
            .peekable();
        if cells.peek().is_none() {
            continue;
        }
        write!(out, r#"<path id="{class}-{z}" class="{class}" d=""#)?;
        for (x, y, _) in cells {
            let (x8, y8) = (8 * (origin.0 + x * c), 8 * (origin.1 + y * c));
            write!(
                out,
                "M{} {}L{} {}L{} {}Z",
                Eighths(x8 + 2 * c),
                Eighths(y8 + 4 * c),
                Eighths(x8 + 6 * c),
                Eighths(y8 + 4 * c),
                Eighths(x8 + 4 * c),
                Eighths(y8 + tip)
            )?;
        }
        writeln!(out, r#"" fill="{MARK_FILL}" stroke="none"/>"#)?;
    }
    Ok(())
}

/// The cells of layer `z` as `(x, y, cell id)`, row by row.
fn layer_cells(size: Size, z: u32) -> impl Iterator<Item = (u64, u64, u32)> {
    (0..size.height)
        .flat_map(move |y| (0..size.width).map(move |x| (x as u64, y as u64, size.cell(x, y, z))))
}

/// A length in eighths of a pixel, written exactly (`13` → `1.625`).
struct Eighths(u64);

impl fmt::Display for Eighths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 / 8)?;
        match self.0 % 8 {
            0 => Ok(()),
            r => {
                let s = format!("{}", 1000 + r * 125);
                write!(f, ".{}", s[1..].trim_end_matches('0'))
            }
        }
    }
}

/// The holes of the maze's mask (nothing without one), filled in the wall colour: a `<g
/// id="holes">` holding one `<rect>` per run of consecutive holes in a row, so a hole region is
/// solid (the walls, drawn after, outline it).
fn write_holes<W: Write + ?Sized>(
    maze: &Maze,
    (ox, oy): (u64, u64),
    c: u64,
    out: &mut W,
) -> std::io::Result<()> {
    if maze.mask().is_none() {
        return Ok(());
    }
    let (w, h) = (maze.width(), maze.height());
    writeln!(out, r#"<g id="holes" fill="{}">"#, hex(PNG_WALL))?;
    for y in 0..h {
        let mut run: Option<u32> = None;
        for x in 0..=w {
            let hole = x < w && !maze.has_cell(y * w + x);
            match (hole, run) {
                (true, None) => run = Some(x),
                (false, Some(x0)) => {
                    writeln!(
                        out,
                        r#"<rect x="{}" y="{}" width="{}" height="{c}"/>"#,
                        ox + x0 as u64 * c,
                        oy + y as u64 * c,
                        (x - x0) as u64 * c
                    )?;
                    run = None;
                }
                _ => {}
            }
        }
    }
    writeln!(out, "</g>")
}

/// The wall runs (`M x yHx2` / `M x yVy2`, merged into maximal runs) of layer `z`, drawn with
/// the layer's top-left maze corner at `origin`.
fn write_wall_runs<W: Write + ?Sized>(
    maze: &Maze,
    z: u32,
    (ox, oy): (u64, u64),
    c: u64,
    out: &mut W,
) -> std::io::Result<()> {
    let (w, h) = (maze.width() as u64, maze.height() as u64);
    let base = z as u64 * w * h;
    // Horizontal wall lines, each merged into maximal runs.
    for i in 0..=h {
        let y = oy + i * c;
        let mut run: Option<u64> = None;
        for x in 0..=w {
            let wall =
                x < w && (i == 0 || i == h || !maze.south_open((base + (i - 1) * w + x) as u32));
            match (wall, run) {
                (true, None) => run = Some(x),
                (false, Some(x0)) => {
                    write!(out, "M{} {}H{}", ox + x0 * c, y, ox + x * c)?;
                    run = None;
                }
                _ => {}
            }
        }
    }
    // Vertical wall lines.
    for j in 0..=w {
        let x = ox + j * c;
        let mut run: Option<u64> = None;
        for y in 0..=h {
            let wall =
                y < h && (j == 0 || j == w || !maze.east_open((base + y * w + j - 1) as u32));
            match (wall, run) {
                (true, None) => run = Some(y),
                (false, Some(y0)) => {
                    write!(out, "M{} {}V{}", x, oy + y0 * c, oy + y * c)?;
                    run = None;
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// One subpath through the centres of `run` (cells of one layer, consecutive ones adjacent),
/// the layer's top-left maze corner at `origin`; a single cell is drawn as a zero-length segment
/// (round caps draw it as a dot).
fn write_run<W: Write + ?Sized>(
    maze: &Maze,
    run: &[u32],
    (ox, oy): (u64, u64),
    c: u64,
    out: &mut W,
) -> std::io::Result<()> {
    let w = maze.width() as u64;
    let layer = w * maze.height() as u64;
    for (k, &cell) in run.iter().enumerate() {
        let cell = cell as u64 % layer;
        let (x, y) = (cell % w, cell / w);
        // Cell centres in half-pixel units, so odd cell sizes stay exact.
        let (cx, cy) = (2 * (ox + x * c) + c, 2 * (oy + y * c) + c);
        let half = |u: u64| if u % 2 == 1 { ".5" } else { "" };
        let cmd = if k == 0 { 'M' } else { 'L' };
        write!(out, "{cmd}{}{} {}{}", cx / 2, half(cx), cy / 2, half(cy))?;
    }
    if run.len() == 1 {
        write!(out, "h0")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eighths_are_written_exactly() {
        let cases = [
            (0, "0"),
            (8, "1"),
            (13, "1.625"),
            (4, "0.5"),
            (2, "0.25"),
            (1, "0.125"),
            (6, "0.75"),
            (90, "11.25"),
        ];
        for (u, s) in cases {
            assert_eq!(Eighths(u).to_string(), s);
        }
    }
}
