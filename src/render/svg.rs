//! The `svg` format: a standalone SVG document with the walls as merged runs and the solution
//! as one path through the cell centres.

use super::*;

/// A standalone SVG document; `cell_px` is the side of one maze cell in pixels (at least 1).
pub fn svg(maze: &Maze, solution: Option<&[u32]>, cell_px: u32) -> Result<String, RenderError> {
    check_svg(maze, solution, cell_px)?;
    let mut v = Vec::new();
    write_svg(maze, solution, cell_px, &mut v)?;
    Ok(String::from_utf8(v).expect("SVG output is ASCII"))
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

/// Write the SVG document (inputs already checked by [`check_svg`]), streaming the wall runs.
pub(super) fn write_svg<W: Write + ?Sized>(
    maze: &Maze,
    solution: Option<&[u32]>,
    cell_px: u32,
    out: &mut W,
) -> std::io::Result<()> {
    let (w, h) = (maze.width() as u64, maze.height() as u64);
    let c = cell_px as u64;
    let pad = c.div_ceil(2);
    let stroke = (c / 5).max(1);
    let (vw, vh) = (w * c + 2 * pad, h * c + 2 * pad);

    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{vw}" height="{vh}" viewBox="0 0 {vw} {vh}">"#
    )?;
    writeln!(
        out,
        r##"<rect x="0" y="0" width="{vw}" height="{vh}" fill="#ffffff"/>"##
    )?;
    write!(out, r#"<path id="walls" d=""#)?;
    // Horizontal wall lines, each merged into maximal runs.
    for i in 0..=h {
        let y = pad + i * c;
        let mut run: Option<u64> = None;
        for x in 0..=w {
            let wall = x < w && (i == 0 || i == h || !maze.south_open(((i - 1) * w + x) as u32));
            match (wall, run) {
                (true, None) => run = Some(x),
                (false, Some(x0)) => {
                    write!(out, "M{} {}H{}", pad + x0 * c, y, pad + x * c)?;
                    run = None;
                }
                _ => {}
            }
        }
    }
    // Vertical wall lines.
    for j in 0..=w {
        let x = pad + j * c;
        let mut run: Option<u64> = None;
        for y in 0..=h {
            let wall = y < h && (j == 0 || j == w || !maze.east_open((y * w + j - 1) as u32));
            match (wall, run) {
                (true, None) => run = Some(y),
                (false, Some(y0)) => {
                    write!(out, "M{} {}V{}", x, pad + y0 * c, pad + y * c)?;
                    run = None;
                }
                _ => {}
            }
        }
    }
    writeln!(
        out,
        r##"" fill="none" stroke="#000000" stroke-width="{stroke}" stroke-linecap="square"/>"##
    )?;
    if let Some(path) = solution.filter(|p| !p.is_empty()) {
        write!(out, r#"<path id="solution" d=""#)?;
        for (k, &cell) in path.iter().enumerate() {
            let (x, y) = (cell as u64 % w, cell as u64 / w);
            // Cell centres in half-pixel units, so odd cell sizes stay exact.
            let (cx, cy) = (2 * (pad + x * c) + c, 2 * (pad + y * c) + c);
            let half = |u: u64| if u % 2 == 1 { ".5" } else { "" };
            let cmd = if k == 0 { 'M' } else { 'L' };
            write!(out, "{cmd}{}{} {}{}", cx / 2, half(cx), cy / 2, half(cy))?;
        }
        if path.len() == 1 {
            write!(out, "h0")?; // a zero-length segment: round caps draw it as a dot
        }
        let sw = (c * 2 / 5).max(1);
        writeln!(
            out,
            r##"" fill="none" stroke="#dc0000" stroke-width="{sw}" stroke-linecap="round" stroke-linejoin="round"/>"##
        )?;
    }
    writeln!(out, "</svg>")
}
