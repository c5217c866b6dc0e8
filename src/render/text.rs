//! The text formats: `ascii` (one character per wall-grid position, readable back by
//! [`parse_ascii`]) and `unicode` (box-drawing characters, cells three characters wide).
//!
//! A 3D maze is drawn layer after layer (layer 0, the top, first), each layer exactly like a 2D
//! maze of its width and height, with one blank line between layers. A cell with a passage to
//! the layer above or below carries a mark:
//!
//! | cell              | ascii | unicode |
//! |-------------------|-------|---------|
//! | passage up        | `u`   | ` ↑ `   |
//! | passage down      | `d`   | ` ↓ `   |
//! | both              | `b`   | ` ↕ `   |
//! | on the path, up   | `U`   | ` ⇑ `   |
//! | on the path, down | `D`   | ` ⇓ `   |
//! | on the path, both | `B`   | ` ⇕ `   |
//!
//! So a path cell with a vertical passage shows the passage in the "path" variant (upper case,
//! double arrow) instead of the plain path mark (`.`, ` • `): both stay readable, and the path's
//! vertical steps are exactly the vertical passages between two path cells of a perfect maze.
//! A 2D maze has no marks and is drawn exactly as before 3D existed.
//!
//! A 2×2×2 maze with its solution from (0,0,0) to (1,1,1) (east, south, then down), in ascii:
//!
//! ```text
//! #####
//! #...#
//! ###.#
//! #d#D#
//! #####
//!
//! #####
//! #   #
//! # ###
//! #u U#
//! #####
//! ```

use super::*;
use crate::grid::{Mask, MaskError};

/// The ASCII picture: per layer `2H+1` lines of `2W+1` characters, each ending in `\n`, layers
/// separated by one empty line; `#` wall (and a hole of a mask), space open, `.` path cells and
/// the open walls between consecutive path cells; `u`/`d`/`b` (`U`/`D`/`B` on the path) cells
/// with a passage up, down or both (module docs).
pub fn ascii(maze: &Maze, solution: Option<&[u32]>) -> Result<String, RenderError> {
    let g = Grid::new(maze, solution)?;
    let (rows, cols) = g.dims();
    let layers = g.layers() as usize;
    let mut v = Vec::with_capacity(layers * (rows as usize * (cols as usize + 1) + 1));
    write_text(&g, false, &mut v)?;
    Ok(String::from_utf8(v).expect("ascii output is UTF-8"))
}

/// The box-drawing picture (layout in the module docs): per layer `2H+1` lines of `4W+1`
/// characters, each ending in `\n`, layers separated by one empty line.
pub fn unicode(maze: &Maze, solution: Option<&[u32]>) -> Result<String, RenderError> {
    let g = Grid::new(maze, solution)?;
    let mut v = Vec::new();
    write_text(&g, true, &mut v)?;
    Ok(String::from_utf8(v).expect("unicode output is UTF-8"))
}

/// The ascii mark of a cell, by its [`UP`]/[`DOWN`] flags, off and on the path.
const ASCII_CELLS: [[char; 2]; 4] = [[' ', '.'], ['u', 'U'], ['d', 'D'], ['b', 'B']];

/// The unicode cell (three characters), by its [`UP`]/[`DOWN`] flags, off and on the path.
const UNICODE_CELLS: [[&str; 2]; 4] = [
    ["   ", " • "],
    [" ↑ ", " ⇑ "],
    [" ↓ ", " ⇓ "],
    [" ↕ ", " ⇕ "],
];

/// A unicode hole region, one character wide (posts, vertical walls) and three (cells,
/// horizontal walls).
const HOLE1: &str = "█";
/// See [`HOLE1`].
const HOLE3: &str = "███";

/// Write the ascii or unicode picture line by line, building each line in one reused buffer.
pub(super) fn write_text<W: Write + ?Sized>(
    g: &Grid,
    unicode: bool,
    out: &mut W,
) -> std::io::Result<()> {
    let (rows, cols) = g.dims();
    let mut line = String::new();
    for z in 0..g.layers() {
        if z > 0 {
            out.write_all(b"\n")?;
        }
        for r in 0..rows {
            line.clear();
            for c in 0..cols {
                let kind = g.kind(z, r, c);
                let cell = r % 2 == 1 && c % 2 == 1;
                if !unicode {
                    line.push(match kind {
                        Kind::Wall => '#',
                        _ if cell => {
                            ASCII_CELLS[g.vertical(z, r, c) as usize][(kind == Kind::Path) as usize]
                        }
                        Kind::Open => ' ',
                        Kind::Path => '.',
                    });
                    continue;
                }
                if g.in_hole(z, r, c) {
                    // A hole region of a mask is solid: its cells, the walls between two of
                    // its cells and the posts among them.
                    line.push_str(if c % 2 == 1 { HOLE3 } else { HOLE1 });
                    continue;
                }
                match (r % 2 == 0, c % 2 == 0) {
                    (true, true) => line.push(g.post(z, r, c)),
                    (true, false) => line.push_str(match kind {
                        Kind::Wall => "───",
                        Kind::Open => "   ",
                        Kind::Path => " • ",
                    }),
                    (false, true) => line.push(match kind {
                        Kind::Wall => '│',
                        Kind::Open => ' ',
                        Kind::Path => '•',
                    }),
                    (false, false) => line.push_str(
                        UNICODE_CELLS[g.vertical(z, r, c) as usize][(kind == Kind::Path) as usize],
                    ),
                }
            }
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
    }
    Ok(())
}

/// The characters [`parse_ascii`] accepts.
const ASCII_CHARS: &str = "# .udbUDB";

/// Is `b` a path cell or path wall in an ascii picture?
fn is_path(b: u8) -> bool {
    matches!(b, b'.' | b'U' | b'D' | b'B')
}

/// The [`UP`]/[`DOWN`] flags of an ascii cell character.
fn ascii_vertical(b: u8) -> u8 {
    match b.to_ascii_lowercase() {
        b'u' => UP,
        b'd' => DOWN,
        b'b' => UP | DOWN,
        _ => 0,
    }
}

/// Read an ASCII picture (as written by [`ascii`]) back into a maze.
///
/// Accepts `\n` or `\r\n` line ends, with or without a final line end. Layers are separated by
/// exactly one empty line (a picture without one is a 2D maze); the depth is the number of
/// layers. Returns the maze and, if any path character (`.`, `U`, `D`, `B`) is present, the path
/// cells as sorted cell ids. A `#` in a cell position of a 2D picture is a hole of a
/// [mask](crate::grid::Mask), as [`ascii`] draws a masked maze: the maze comes back with the
/// mask of the other cell positions. Refuses, with the line and column: layers of unequal shape,
/// lines of unequal or even length, an even number of lines in a layer, an empty layer (a
/// leading, trailing or doubled blank line), characters other than `#`, space, `.` and the
/// vertical marks `u d b U D B`, a vertical mark outside a cell position, an open border, an
/// open post, a `#` in a cell position of a 3D picture (masks are 2D), an open wall beside a
/// hole, holes that leave no cell or cells that are not connected (not a mask), a `.` wall
/// whose two cells are not both on the path, a passage up from the top layer or down from the
/// bottom one, and a passage down whose cell below does not show it as a passage up (or the
/// reverse).
pub fn parse_ascii(text: &str) -> Result<(Maze, Option<Vec<u32>>), RenderError> {
    let pic = Picture::new(ascii_lines(text)?)?;
    let (rows, cols, depth) = (pic.rows, pic.cols, pic.starts.len());
    let (w, h) = ((cols - 1) / 2, (rows - 1) / 2);
    if (w as u64) * (h as u64) * (depth as u64) > MAX_CELLS {
        return Err(parse_err(
            0,
            0,
            format!("{w}x{h}x{depth} maze has more than {MAX_CELLS} cells"),
        ));
    }
    let size = Size::new(w as u32, h as u32, depth as u32);
    let mut maze = Maze::with_size(size);
    let mut path = Vec::new();
    for z in 0..depth {
        pic.read_layer(z, size, &mut maze, &mut path)?;
    }
    if let Some(mask) = pic.mask(w as u32, h as u32)? {
        maze.set_mask(Some(std::sync::Arc::new(mask)));
    }
    Ok((maze, (!path.is_empty()).then_some(path)))
}

/// A parse error at 0-based `line` and `column`.
fn parse_err(line: usize, column: usize, reason: String) -> RenderError {
    RenderError::Parse {
        line: line + 1,
        column: column + 1,
        reason,
    }
}

/// The lines of an ASCII picture, line ends removed, checked to hold only [`ASCII_CHARS`].
fn ascii_lines(text: &str) -> Result<Vec<&[u8]>, RenderError> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if body.is_empty() {
        return Err(parse_err(0, 0, "empty picture".into()));
    }
    // Only ASCII characters are valid: up to the first bad one, bytes are characters.
    for (i, l) in lines.iter().enumerate() {
        if let Some((j, ch)) = l.char_indices().find(|&(_, b)| !ASCII_CHARS.contains(b)) {
            return Err(parse_err(
                i,
                j,
                format!(
                    "unexpected character {ch:?} (only '#', ' ', '.' and the vertical marks \
                     'u', 'd', 'b', 'U', 'D', 'B' are allowed)"
                ),
            ));
        }
    }
    Ok(lines.iter().map(|l| l.as_bytes()).collect())
}

/// An ASCII picture's lines split into layers of equal shape.
struct Picture<'a> {
    lines: Vec<&'a [u8]>,
    /// The line each layer starts at.
    starts: Vec<usize>,
    /// Lines per layer.
    rows: usize,
    /// Characters per line.
    cols: usize,
}

impl<'a> Picture<'a> {
    /// The layers (runs of non-empty lines), each of an odd number of lines of the same odd
    /// length, at least 3 by 3.
    fn new(lines: Vec<&'a [u8]>) -> Result<Self, RenderError> {
        // The layers: runs of non-empty lines, each started at the line index kept here.
        let mut starts = vec![0usize];
        for (i, l) in lines.iter().enumerate() {
            if l.is_empty() {
                if i == starts[starts.len() - 1] {
                    return Err(parse_err(
                        i,
                        0,
                        "empty line where a layer should start (layers are separated by exactly \
                     one empty line)"
                            .into(),
                    ));
                }
                starts.push(i + 1);
            }
        }
        let depth = starts.len();
        if starts[depth - 1] == lines.len() {
            return Err(parse_err(
                lines.len() - 1,
                0,
                "empty line after the last layer".into(),
            ));
        }
        let rows = starts.get(1).map_or(lines.len(), |&s| s - 1);
        let cols = lines[0].len();
        if rows < 3 || rows.is_multiple_of(2) {
            return Err(parse_err(
                rows - 1,
                0,
                format!("{rows} lines: a maze picture has an odd number of lines, at least 3"),
            ));
        }
        if cols < 3 || cols.is_multiple_of(2) {
            return Err(parse_err(
                0,
                cols,
                format!("line of {cols} characters: expected an odd length, at least 3"),
            ));
        }
        for (z, &s) in starts.iter().enumerate().skip(1) {
            let end = starts.get(z + 1).map_or(lines.len(), |&e| e - 1);
            if end - s != rows {
                return Err(parse_err(
                    end - 1,
                    0,
                    format!(
                        "layer {z} has {} lines, expected {rows} like layer 0",
                        end - s
                    ),
                ));
            }
        }
        if let Some(i) = lines.iter().position(|l| !l.is_empty() && l.len() != cols) {
            return Err(parse_err(
                i,
                lines[i].len().min(cols),
                format!(
                    "line of {} characters, expected {cols} like the first line",
                    lines[i].len()
                ),
            ));
        }
        Ok(Picture {
            lines,
            starts,
            rows,
            cols,
        })
    }

    /// The mask of a 2D picture with a `#` in a cell position (a hole): its open cell
    /// positions; `None` when every cell position is open.
    fn mask(&self, w: u32, h: u32) -> Result<Option<Mask>, RenderError> {
        let lines = &self.lines;
        let open = |x: u32, y: u32| lines[2 * y as usize + 1][2 * x as usize + 1] != b'#';
        if (0..h).all(|y| (0..w).all(|x| open(x, y))) {
            return Ok(None);
        }
        Mask::from_fn(w, h, open).map(Some).map_err(|e| match e {
            MaskError::Empty => parse_err(
                1,
                1,
                "wall character in every cell position: a picture needs at least one cell".into(),
            ),
            e => parse_err(1, 1, format!("the open cell positions are not a mask: {e}")),
        })
    }

    /// Carve layer `z`'s passages into `maze` and add its path cells to `path`, checking every
    /// character.
    fn read_layer(
        &self,
        z: usize,
        size: Size,
        maze: &mut Maze,
        path: &mut Vec<u32>,
    ) -> Result<(), RenderError> {
        let (lines, starts, rows, cols) = (&self.lines, &self.starts, self.rows, self.cols);
        let start = starts[z];
        let layer = &lines[start..start + rows];
        let cell = |x: usize, y: usize| size.cell(x as u32, y as u32, z as u32);
        for (r, l) in layer.iter().enumerate() {
            let line = start + r;
            for (c, &b) in l.iter().enumerate() {
                let vertical = ascii_vertical(b);
                let is_cell = r % 2 == 1 && c % 2 == 1;
                if vertical != 0 && !is_cell {
                    return Err(parse_err(
                        line,
                        c,
                        format!("vertical mark {:?} outside a cell position", b as char),
                    ));
                }
                let border = r == 0 || r == rows - 1 || c == 0 || c == cols - 1;
                if border {
                    if b != b'#' {
                        return Err(parse_err(
                            line,
                            c,
                            "open border: the border must be all '#'".into(),
                        ));
                    }
                    continue;
                }
                match (r % 2 == 1, c % 2 == 1) {
                    (false, false) => {
                        if b != b'#' {
                            return Err(parse_err(
                                line,
                                c,
                                "open post: wall corners must be '#'".into(),
                            ));
                        }
                    }
                    (true, true) => {
                        if b == b'#' {
                            // A hole of a mask.
                            if self.starts.len() > 1 {
                                return Err(parse_err(
                                    line,
                                    c,
                                    "wall character in a cell position of a 3D picture (a \
                                     hole of a mask; masks are 2D only)"
                                        .into(),
                                ));
                            }
                            continue;
                        }
                        self.read_cell(z, r, c, size, maze, path)?;
                    }
                    (true, false) => {
                        // Between (c/2 - 1, y) and (c/2, y).
                        if b != b'#' {
                            if l[c - 1] == b'#' || l[c + 1] == b'#' {
                                return Err(parse_err(line, c, HOLE_WALL.into()));
                            }
                            if b == b'.' && (!is_path(l[c - 1]) || !is_path(l[c + 1])) {
                                return Err(parse_err(
                                    line,
                                    c,
                                    "'.' on a wall between cells that are not both on the path"
                                        .into(),
                                ));
                            }
                            maze.carve(cell(c / 2 - 1, (r - 1) / 2), Dir::East);
                        }
                    }
                    (false, true) => {
                        // Between (x, r/2 - 1) and (x, r/2).
                        if b != b'#' {
                            if layer[r - 1][c] == b'#' || layer[r + 1][c] == b'#' {
                                return Err(parse_err(line, c, HOLE_WALL.into()));
                            }
                            if b == b'.' && (!is_path(layer[r - 1][c]) || !is_path(layer[r + 1][c]))
                            {
                                return Err(parse_err(
                                    line,
                                    c,
                                    "'.' on a wall between cells that are not both on the path"
                                        .into(),
                                ));
                            }
                            maze.carve(cell((c - 1) / 2, r / 2 - 1), Dir::South);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The cell at row `r`, column `c` of layer `z`: not a wall, on the path or not, its
    /// passages up and down allowed and agreeing with the layer above.
    fn read_cell(
        &self,
        z: usize,
        r: usize,
        c: usize,
        size: Size,
        maze: &mut Maze,
        path: &mut Vec<u32>,
    ) -> Result<(), RenderError> {
        let (lines, starts, depth) = (&self.lines, &self.starts, self.starts.len());
        let line = starts[z] + r;
        let b = lines[line][c];
        let vertical = ascii_vertical(b);
        let cell = |x: usize, y: usize| size.cell(x as u32, y as u32, z as u32);
        let id = cell((c - 1) / 2, (r - 1) / 2);
        if is_path(b) {
            path.push(id);
        }
        if vertical & UP != 0 && z == 0 {
            return Err(parse_err(line, c, "passage up from the top layer".into()));
        }
        if vertical & DOWN != 0 {
            if z + 1 == depth {
                return Err(parse_err(
                    line,
                    c,
                    "passage down from the bottom layer".into(),
                ));
            }
            maze.carve(id, Dir::Down);
        }
        // The cell above must agree about the passage between them.
        if z > 0 {
            let above = lines[starts[z - 1] + r][c];
            if (ascii_vertical(above) & DOWN != 0) != (vertical & UP != 0) {
                return Err(parse_err(
                    line,
                    c,
                    format!(
                        "vertical mark {:?} disagrees with {:?} at the same \
                         place in the layer above (a passage down there is a \
                         passage up here)",
                        b as char, above as char
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Why [`parse_ascii`] refuses an open wall beside a `#` cell position.
const HOLE_WALL: &str = "open wall beside a hole ('#' in a cell position is a hole of a mask, \
                         closed on every side)";
