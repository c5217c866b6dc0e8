//! Drawing one maze, optionally with its solution path, as `ascii`, `unicode`, `svg` or `png`.
//!
//! All four formats share one picture: the `(2W+1) × (2H+1)` *wall grid*. Cell `(x, y)` sits at
//! row `2y+1`, column `2x+1`; the wall between `(x, y)` and `(x+1, y)` at `(2y+1, 2x+2)`; the
//! wall between `(x, y)` and `(x, y+1)` at `(2y+2, 2x+1)`; the positions with both coordinates
//! even are *posts* (corners), always wall, and the outer border is always wall.
//!
//! A solution is a slice of cell ids in path order, each consecutive pair adjacent with the wall
//! between them open (it is checked: [`RenderError::Solution`] otherwise; an empty slice draws
//! nothing). Its cells and the open walls between consecutive path cells are drawn as path.
//!
//! - **ascii** ([`ascii`]): exactly `2H+1` lines of `2W+1` characters, each ending in `\n`: `#`
//!   wall, space open, `.` path. [`parse_ascii`] reads it back, so scripts can use it too.
//! - **unicode**: `2H+1` lines, each grid column drawn one character wide for posts and vertical
//!   walls and three characters wide for cells and horizontal walls (`4W+1` characters a line,
//!   so a cell looks about square in a terminal). Posts are box-drawing characters chosen from
//!   which of their four arms are walls (`┌ ┬ ┼ ╴ …`), horizontal walls `───`, vertical walls
//!   `│`; path cells are ` • `, open walls on the path `•` (between two cells of a row) or ` • `
//!   (between two cells of a column).
//! - **svg**: a standalone SVG document: a white background `<rect>`, the walls as one `<path
//!   id="walls">` of merged `M`/`H`/`V` runs (black, square caps), and with a solution a `<path
//!   id="solution">` through the cell centres (red). A maze cell is [`Style::cell_px`] wide
//!   (default 10); the drawing has a half-cell margin, walls are a fifth of a cell thick and the
//!   solution two fifths (at least 1 px each).
//! - **png**: an 8-bit RGB image of the wall grid, each grid position a square of
//!   [`Style::cell_px`] pixels (default 4), so the image is `(2W+1)·k × (2H+1)·k`: walls black,
//!   passages white, path red ([`PNG_WALL`], [`PNG_PASSAGE`], [`PNG_SOLUTION`]). Rows are
//!   streamed to the encoder from one reused row buffer, so memory does not grow with the image
//!   height. The encoder's default (balanced) compression is used: a 2000×2000 maze at scale 4
//!   (16004² pixels) takes about 5 s and 6 MB.

use std::fmt;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::str::FromStr;

use crate::grid::{Dir, Maze, MAX_CELLS};

/// Wall colour in PNG output (RGB).
pub const PNG_WALL: [u8; 3] = [0, 0, 0];
/// Passage colour in PNG output (RGB).
pub const PNG_PASSAGE: [u8; 3] = [255, 255, 255];
/// Solution colour in PNG output (RGB).
pub const PNG_SOLUTION: [u8; 3] = [220, 0, 0];

/// Largest PNG side in pixels accepted (the PNG limit is 2³¹−1; this keeps one row buffer of RGB
/// bytes within reason).
pub const PNG_MAX_SIDE: u64 = 1 << 20;

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `#`/space/`.` text, 2H+1 lines of 2W+1 characters; [`parse_ascii`] reads it back.
    Ascii,
    /// Box-drawing text.
    Unicode,
    /// Standalone SVG document.
    Svg,
    /// RGB PNG image.
    Png,
}

impl Format {
    /// Every format, in the order of [`Format::NAMES`].
    pub const ALL: [Format; 4] = [Format::Ascii, Format::Unicode, Format::Svg, Format::Png];

    /// The format names accepted by [`FromStr`] (for a clap `PossibleValuesParser`).
    pub const NAMES: [&'static str; 4] = ["ascii", "unicode", "svg", "png"];

    /// The canonical lower-case name.
    pub fn name(self) -> &'static str {
        Format::NAMES[self as usize]
    }

    /// Is the output binary (PNG), i.e. not for a terminal?
    pub fn is_binary(self) -> bool {
        self == Format::Png
    }

    /// The format implied by a file name's extension (`.txt` → ascii, `.svg`, `.png`), if any.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "txt" | "ascii" => Some(Format::Ascii),
            "svg" => Some(Format::Svg),
            "png" => Some(Format::Png),
            _ => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = RenderError;

    fn from_str(s: &str) -> Result<Format, RenderError> {
        let t = s.trim().to_ascii_lowercase();
        Format::ALL
            .into_iter()
            .find(|f| f.name() == t)
            .ok_or_else(|| RenderError::UnknownFormat(s.to_string()))
    }
}

/// Drawing options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Size in pixels: for SVG the side of one maze cell (default 10), for PNG the side of one
    /// wall-grid square (default 4; a maze cell plus one wall is then 8 pixels). `None` means
    /// the format's default; text formats ignore it. Must be at least 1.
    pub cell_px: Option<u32>,
}

impl Style {
    /// Default SVG cell size in pixels.
    pub const SVG_DEFAULT_PX: u32 = 10;
    /// Default PNG scale in pixels per wall-grid square.
    pub const PNG_DEFAULT_PX: u32 = 4;

    /// The size used for `format`: [`Style::cell_px`] or the format's default.
    pub fn px_for(&self, format: Format) -> u32 {
        self.cell_px.unwrap_or(match format {
            Format::Png => Style::PNG_DEFAULT_PX,
            _ => Style::SVG_DEFAULT_PX,
        })
    }
}

/// What can go wrong when rendering or parsing a picture.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A format name that is not one of [`Format::NAMES`].
    #[error("unknown format '{0}' (valid: ascii, unicode, svg, png)")]
    UnknownFormat(String),
    /// The solution path is not a path in this maze.
    #[error("invalid solution path: {0}")]
    Solution(String),
    /// A bad style value or an image too large to encode.
    #[error("{0}")]
    Size(String),
    /// An ASCII picture that [`parse_ascii`] cannot read (line and column are 1-based).
    #[error("ascii maze, line {line}, column {column}: {reason}")]
    Parse {
        /// 1-based line number.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// What is wrong there.
        reason: String,
    },
    /// The PNG encoder refused the image.
    #[error("png encoding: {0}")]
    Png(String),
    /// Writing the output failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl From<png::EncodingError> for RenderError {
    fn from(e: png::EncodingError) -> RenderError {
        match e {
            png::EncodingError::IoError(io) => RenderError::Io(io),
            other => RenderError::Png(other.to_string()),
        }
    }
}

/// Draw `maze` (with `solution`, if given) in `format` to `out`.
///
/// `out` receives exactly the document: for ascii and unicode the text with a final newline,
/// for SVG the XML, for PNG the image bytes. Output is streamed through an internal buffer
/// (memory stays proportional to one line or one pixel row, not the whole picture) and `out` is
/// flushed at the end. Nothing is written if the solution or the style is invalid.
pub fn render<W: Write + ?Sized>(
    maze: &Maze,
    solution: Option<&[u32]>,
    format: Format,
    style: &Style,
    out: &mut W,
) -> Result<(), RenderError> {
    match format {
        Format::Ascii | Format::Unicode => {
            let g = Grid::new(maze, solution)?;
            let mut buf = BufWriter::new(&mut *out);
            write_text(&g, format == Format::Unicode, &mut buf)?;
            buf.flush()?;
        }
        Format::Svg => {
            let px = style.px_for(format);
            check_svg(maze, solution, px)?;
            let mut buf = BufWriter::new(&mut *out);
            write_svg(maze, solution, px, &mut buf)?;
            buf.flush()?;
        }
        Format::Png => png_to(maze, solution, style.px_for(format), out)?,
    }
    out.flush()?;
    Ok(())
}

/// The ASCII picture: `2H+1` lines of `2W+1` characters, each ending in `\n`; `#` wall, space
/// open, `.` path cells and the open walls between consecutive path cells.
pub fn ascii(maze: &Maze, solution: Option<&[u32]>) -> Result<String, RenderError> {
    let g = Grid::new(maze, solution)?;
    let (rows, cols) = g.dims();
    let mut v = Vec::with_capacity(rows as usize * (cols as usize + 1));
    write_text(&g, false, &mut v)?;
    Ok(String::from_utf8(v).expect("ascii output is UTF-8"))
}

/// The box-drawing picture (layout in the module docs): `2H+1` lines of `4W+1` characters, each
/// ending in `\n`.
pub fn unicode(maze: &Maze, solution: Option<&[u32]>) -> Result<String, RenderError> {
    let g = Grid::new(maze, solution)?;
    let mut v = Vec::new();
    write_text(&g, true, &mut v)?;
    Ok(String::from_utf8(v).expect("unicode output is UTF-8"))
}

/// Write the ascii or unicode picture line by line, building each line in one reused buffer.
fn write_text<W: Write + ?Sized>(g: &Grid, unicode: bool, out: &mut W) -> std::io::Result<()> {
    let (rows, cols) = g.dims();
    let mut line = String::new();
    for r in 0..rows {
        line.clear();
        for c in 0..cols {
            let kind = g.kind(r, c);
            if !unicode {
                line.push(match kind {
                    Kind::Wall => '#',
                    Kind::Open => ' ',
                    Kind::Path => '.',
                });
                continue;
            }
            match (r % 2 == 0, c % 2 == 0) {
                (true, true) => line.push(g.post(r, c)),
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
                (false, false) => line.push_str(match kind {
                    Kind::Path => " • ",
                    _ => "   ",
                }),
            }
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// A standalone SVG document; `cell_px` is the side of one maze cell in pixels (at least 1).
pub fn svg(maze: &Maze, solution: Option<&[u32]>, cell_px: u32) -> Result<String, RenderError> {
    check_svg(maze, solution, cell_px)?;
    let mut v = Vec::new();
    write_svg(maze, solution, cell_px, &mut v)?;
    Ok(String::from_utf8(v).expect("SVG output is ASCII"))
}

/// Everything that can make an SVG fail other than writing: the cell size and the solution.
fn check_svg(maze: &Maze, solution: Option<&[u32]>, cell_px: u32) -> Result<(), RenderError> {
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
fn write_svg<W: Write + ?Sized>(
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

/// Encode the wall grid as an RGB PNG, `scale` pixels per grid square, streaming rows.
fn png_to<W: Write + ?Sized>(
    maze: &Maze,
    solution: Option<&[u32]>,
    scale: u32,
    out: &mut W,
) -> Result<(), RenderError> {
    if scale == 0 {
        return Err(RenderError::Size(
            "PNG scale must be at least 1 pixel".into(),
        ));
    }
    let g = Grid::new(maze, solution)?;
    let (rows, cols) = g.dims();
    let (pw, ph) = (cols as u64 * scale as u64, rows as u64 * scale as u64);
    if pw > PNG_MAX_SIDE || ph > PNG_MAX_SIDE {
        return Err(RenderError::Size(format!(
            "PNG of {pw}x{ph} pixels is too large (at most {PNG_MAX_SIDE} per side); use a smaller scale"
        )));
    }
    let mut enc = png::Encoder::new(out, pw as u32, ph as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header()?;
    let mut stream = writer.stream_writer()?;
    let k = scale as usize;
    let mut row = vec![0u8; pw as usize * 3];
    for r in 0..rows {
        for (c, px) in row.chunks_exact_mut(3 * k).enumerate() {
            let colour = match g.kind(r, c as u32) {
                Kind::Wall => PNG_WALL,
                Kind::Open => PNG_PASSAGE,
                Kind::Path => PNG_SOLUTION,
            };
            for p in px.chunks_exact_mut(3) {
                p.copy_from_slice(&colour);
            }
        }
        for _ in 0..k {
            stream.write_all(&row)?;
        }
    }
    stream.finish()?;
    writer.finish()?;
    Ok(())
}

/// Read an ASCII picture (as written by [`ascii`]) back into a maze.
///
/// Accepts `\n` or `\r\n` line ends, with or without a final line end. Returns the maze and, if
/// any `.` is present, the path cells as sorted cell ids. Refuses, with the line and column:
/// lines of unequal or even length, an even number of lines, characters other than `#`, space
/// and `.`, an open border, an open post, a wall in a cell position, and a `.` wall whose two
/// cells are not both `.`.
pub fn parse_ascii(text: &str) -> Result<(Maze, Option<Vec<u32>>), RenderError> {
    let err = |line: usize, column: usize, reason: String| RenderError::Parse {
        line: line + 1,
        column: column + 1,
        reason,
    };
    let body = text.strip_suffix('\n').unwrap_or(text);
    let lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if body.is_empty() {
        return Err(err(0, 0, "empty picture".into()));
    }
    // Only ASCII characters are valid: up to the first bad one, bytes are characters.
    for (i, l) in lines.iter().enumerate() {
        if let Some((j, ch)) = l
            .char_indices()
            .find(|&(_, b)| !matches!(b, '#' | ' ' | '.'))
        {
            return Err(err(
                i,
                j,
                format!("unexpected character {ch:?} (only '#', ' ' and '.' are allowed)"),
            ));
        }
    }
    let lines: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
    let rows = lines.len();
    let cols = lines[0].len();
    if rows < 3 || rows.is_multiple_of(2) {
        return Err(err(
            rows - 1,
            0,
            format!("{rows} lines: a maze picture has an odd number of lines, at least 3"),
        ));
    }
    if cols < 3 || cols.is_multiple_of(2) {
        return Err(err(
            0,
            cols,
            format!("line of {cols} characters: expected an odd length, at least 3"),
        ));
    }
    if let Some(i) = lines.iter().position(|l| l.len() != cols) {
        return Err(err(
            i,
            lines[i].len().min(cols),
            format!(
                "line of {} characters, expected {cols} like the first line",
                lines[i].len()
            ),
        ));
    }
    let (w, h) = ((cols - 1) / 2, (rows - 1) / 2);
    if (w as u64) * (h as u64) > MAX_CELLS {
        return Err(err(
            0,
            0,
            format!("{w}x{h} maze has more than {MAX_CELLS} cells"),
        ));
    }
    let (w32, h32) = (w as u32, h as u32);
    let mut maze = Maze::new(w32, h32);
    let mut path = Vec::new();
    for (r, l) in lines.iter().enumerate() {
        for (c, &b) in l.iter().enumerate() {
            let border = r == 0 || r == rows - 1 || c == 0 || c == cols - 1;
            if border {
                if b != b'#' {
                    return Err(err(r, c, "open border: the border must be all '#'".into()));
                }
                continue;
            }
            match (r % 2 == 1, c % 2 == 1) {
                (false, false) => {
                    if b != b'#' {
                        return Err(err(r, c, "open post: wall corners must be '#'".into()));
                    }
                }
                (true, true) => match b {
                    b'#' => return Err(err(r, c, "wall character in a cell position".into())),
                    b'.' => path.push(((r - 1) / 2 * w + (c - 1) / 2) as u32),
                    _ => {}
                },
                (true, false) => {
                    // Between (c/2 - 1, y) and (c/2, y).
                    if b != b'#' {
                        if b == b'.' && (l[c - 1] != b'.' || l[c + 1] != b'.') {
                            return Err(err(
                                r,
                                c,
                                "'.' on a wall between cells that are not both '.'".into(),
                            ));
                        }
                        maze.carve((((r - 1) / 2) * w + c / 2 - 1) as u32, Dir::East);
                    }
                }
                (false, true) => {
                    // Between (x, r/2 - 1) and (x, r/2).
                    if b != b'#' {
                        if b == b'.' && (lines[r - 1][c] != b'.' || lines[r + 1][c] != b'.') {
                            return Err(err(
                                r,
                                c,
                                "'.' on a wall between cells that are not both '.'".into(),
                            ));
                        }
                        maze.carve(((r / 2 - 1) * w + (c - 1) / 2) as u32, Dir::South);
                    }
                }
            }
        }
    }
    Ok((maze, (!path.is_empty()).then_some(path)))
}

/// What one wall-grid position shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Wall,
    Open,
    Path,
}

/// Per-cell path flags.
const ON_PATH: u8 = 1;
const PATH_EAST: u8 = 2;
const PATH_SOUTH: u8 = 4;

/// A maze seen as its wall grid, with the (validated) solution's cells and steps marked.
struct Grid<'a> {
    maze: &'a Maze,
    marks: Option<Vec<u8>>,
}

impl<'a> Grid<'a> {
    fn new(maze: &'a Maze, solution: Option<&[u32]>) -> Result<Grid<'a>, RenderError> {
        let marks = match solution {
            None => None,
            Some(path) => Some(path_marks(maze, path)?),
        };
        Ok(Grid { maze, marks })
    }

    /// (rows, columns) of the wall grid.
    fn dims(&self) -> (u32, u32) {
        (2 * self.maze.height() + 1, 2 * self.maze.width() + 1)
    }

    fn mark(&self, cell: u32, flag: u8) -> bool {
        self.marks
            .as_ref()
            .is_some_and(|m| m[cell as usize] & flag != 0)
    }

    /// The kind of grid position (row `r`, column `c`).
    fn kind(&self, r: u32, c: u32) -> Kind {
        let (rows, cols) = self.dims();
        let w = self.maze.width();
        if r == 0 || c == 0 || r == rows - 1 || c == cols - 1 {
            return Kind::Wall;
        }
        let open_kind = |open: bool, cell: u32, flag: u8| {
            if !open {
                Kind::Wall
            } else if self.mark(cell, flag) {
                Kind::Path
            } else {
                Kind::Open
            }
        };
        match (r % 2 == 1, c % 2 == 1) {
            (false, false) => Kind::Wall,
            (true, true) => open_kind(true, (r / 2) * w + c / 2, ON_PATH),
            (true, false) => {
                let cell = (r / 2) * w + c / 2 - 1;
                open_kind(self.maze.east_open(cell), cell, PATH_EAST)
            }
            (false, true) => {
                let cell = (r / 2 - 1) * w + c / 2;
                open_kind(self.maze.south_open(cell), cell, PATH_SOUTH)
            }
        }
    }

    /// The box-drawing character for the post at (even `r`, even `c`), from its wall arms.
    fn post(&self, r: u32, c: u32) -> char {
        let (rows, cols) = self.dims();
        let wall = |r: u32, c: u32| self.kind(r, c) == Kind::Wall;
        let up = r > 0 && wall(r - 1, c);
        let down = r + 1 < rows && wall(r + 1, c);
        let left = c > 0 && wall(r, c - 1);
        let right = c + 1 < cols && wall(r, c + 1);
        match (up, right, down, left) {
            (false, false, false, false) => ' ',
            (true, false, false, false) => '╵',
            (false, true, false, false) => '╶',
            (false, false, true, false) => '╷',
            (false, false, false, true) => '╴',
            (true, false, true, false) => '│',
            (false, true, false, true) => '─',
            (false, true, true, false) => '┌',
            (false, false, true, true) => '┐',
            (true, true, false, false) => '└',
            (true, false, false, true) => '┘',
            (true, true, true, false) => '├',
            (true, false, true, true) => '┤',
            (false, true, true, true) => '┬',
            (true, true, false, true) => '┴',
            (true, true, true, true) => '┼',
        }
    }
}

/// Check that `path` is a walk through open walls of `maze` and mark its cells and steps.
fn path_marks(maze: &Maze, path: &[u32]) -> Result<Vec<u8>, RenderError> {
    let n = maze.cells();
    let w = maze.width();
    let mut marks = vec![0u8; n as usize];
    for (i, &cell) in path.iter().enumerate() {
        if cell >= n {
            return Err(RenderError::Solution(format!(
                "step {i}: cell {cell} is outside the {}x{} maze",
                w,
                maze.height()
            )));
        }
        marks[cell as usize] |= ON_PATH;
        if i == 0 {
            continue;
        }
        let prev = path[i - 1];
        let (a, b) = (prev.min(cell), prev.max(cell));
        let (dir, flag) = if b == a + 1 && a % w + 1 < w {
            (Dir::East, PATH_EAST)
        } else if b == a + w {
            (Dir::South, PATH_SOUTH)
        } else {
            return Err(RenderError::Solution(format!(
                "step {i}: cells {prev} and {cell} are not adjacent"
            )));
        };
        if !maze.is_open(a, dir) {
            return Err(RenderError::Solution(format!(
                "step {i}: the wall between cells {prev} and {cell} is closed"
            )));
        }
        marks[a as usize] |= flag;
    }
    Ok(marks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Maze {
        // 3x2:  0 1 2
        //       3 4 5   passages 0-1, 1-2, 1-4, 3-4, 4-5
        let mut m = Maze::new(3, 2);
        m.carve(0, Dir::East);
        m.carve(1, Dir::East);
        m.carve(1, Dir::South);
        m.carve(3, Dir::East);
        m.carve(4, Dir::East);
        m
    }

    #[test]
    fn ascii_layout() {
        let m = sample();
        assert_eq!(
            ascii(&m, None).unwrap(),
            "#######\n#     #\n### ###\n#     #\n#######\n"
        );
        assert_eq!(
            ascii(&m, Some(&[0, 1, 4, 5])).unwrap(),
            "#######\n#...  #\n###.###\n#  ...#\n#######\n"
        );
    }

    #[test]
    fn unicode_layout() {
        let m = sample();
        let u = unicode(&m, Some(&[0, 1, 4, 5])).unwrap();
        let expect = "\
┌───────────┐
│ • • •     │
├───╴ • ╶───┤
│     • • • │
└───────────┘
";
        assert_eq!(u, expect);
    }

    #[test]
    fn bad_solutions_are_refused() {
        let m = sample();
        assert!(matches!(
            ascii(&m, Some(&[0, 4])),
            Err(RenderError::Solution(_))
        ));
        assert!(matches!(
            ascii(&m, Some(&[0, 3])),
            Err(RenderError::Solution(_))
        ));
        assert!(matches!(
            ascii(&m, Some(&[2, 3])),
            Err(RenderError::Solution(_))
        ));
        assert!(matches!(
            ascii(&m, Some(&[6])),
            Err(RenderError::Solution(_))
        ));
    }

    #[test]
    fn parse_errors_point_at_the_problem() {
        let cases = [
            ("", "empty"),
            ("###\n# #\n", "odd number of lines"),
            ("####\n#  #\n####\n", "odd length"),
            ("#####\n#   #\n###\n", "expected 5"),
            ("###\n#x#\n###\n", "unexpected character"),
            ("###\n#  \n###\n", "open border"),
            ("#####\n#   #\n## ##\n#   #\n#####\n", "open post"),
            ("###\n###\n###\n", "cell position"),
            ("#####\n#.. #\n#####\n", "not both"),
        ];
        for (text, needle) in cases {
            let e = parse_ascii(text).unwrap_err().to_string();
            assert!(e.contains(needle), "{text:?}: {e}");
        }
        let e = parse_ascii("###\n# #\n##.\n").unwrap_err();
        assert!(
            matches!(
                e,
                RenderError::Parse {
                    line: 3,
                    column: 3,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn format_names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>().unwrap(), f);
            assert_eq!(f.to_string(), f.name());
        }
        assert!("jpeg".parse::<Format>().is_err());
        assert_eq!(Format::from_path(Path::new("a/b.PNG")), Some(Format::Png));
        assert_eq!(Format::from_path(Path::new("maze")), None);
    }
}
