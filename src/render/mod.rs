//! Drawing one maze, optionally with its solution path, as `ascii`, `unicode`, `svg` or `png`:
//! the formats, the style, the errors, [`render`] and the wall-grid picture they share live
//! here; each format's writer in its own file (`text`: ascii and unicode and the ascii parser,
//! `svg`, `png`).
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
//!   wall (or a hole of a mask, see below), space open, `.` path. [`parse_ascii`] reads it back,
//!   so scripts can use it too.
//! - **unicode**: `2H+1` lines, each grid column drawn one character wide for posts and vertical
//!   walls and three characters wide for cells and horizontal walls (`4W+1` characters a line,
//!   so a cell looks about square in a terminal). Posts are box-drawing characters chosen from
//!   which of their four arms are walls (`┌ ┬ ┼ ╴ …`), horizontal walls `───`, vertical walls
//!   `│`; path cells are ` • `, open walls on the path `•` (between two cells of a row) or ` • `
//!   (between two cells of a column).
//! - **svg**: a standalone SVG document: a white background `<rect>`, the walls as one `<path
//!   id="walls">` of merged `M`/`H`/`V` runs (black, square caps), and with a solution a `<path
//!   id="solution">` through the cell centres (red), its entrance marked by an orange square
//!   (`<rect id="entrance">`) and its exit by a cyan disc (`<circle id="exit">`), so the two
//!   ends differ even when both lie inside the grid (`--ends diameter`). A maze cell is [`Style::cell_px`] wide
//!   (default 10); the drawing has a half-cell margin, walls are a fifth of a cell thick and the
//!   solution two fifths (at least 1 px each).
//! - **png**: an 8-bit RGB image of the wall grid, each grid position a square of
//!   [`Style::cell_px`] pixels (default 4), so the image is `(2W+1)·k × (2H+1)·k`: walls black,
//!   passages white, path red ([`PNG_WALL`], [`PNG_PASSAGE`], [`PNG_SOLUTION`]), the path's
//!   entrance cell orange ([`PNG_ENTRANCE`]) and its exit cell cyan ([`PNG_EXIT`]). Rows are
//!   streamed to the encoder from one reused row buffer, so memory does not grow with the image
//!   height. The encoder's default (balanced) compression is used: a 2000×2000 maze at scale 4
//!   (16004² pixels) takes about 5 s and 6 MB.
//!
//! # Masked mazes
//!
//! A maze on a [mask](crate::grid::Mask) is drawn on its whole grid, each hole (a cell outside
//! the mask) solid, in the wall colour, never as an empty corridor:
//!
//! - **ascii**: a hole's cell position is `#`, like its four walls, so a hole region is a block
//!   of `#`; [`parse_ascii`] reads a `#` cell position as a hole and gives the maze back with
//!   its mask.
//! - **unicode**: a hole is `███`, and so are the walls between two holes (`███` across, `█`
//!   down) and the posts whose four cells are holes (`█`): a hole region is one solid block,
//!   outlined by the box-drawing walls where it meets cells or the border.
//! - **svg**: a `<g id="holes">` of black `<rect>`s under the walls, one per run of
//!   consecutive holes in a row (`x`, `y` the run's first cell's corner, `height` one cell).
//! - **png**: a hole's square and its walls are [`PNG_WALL`].
//!
//! # 3D mazes (depth D > 1)
//!
//! Every function takes a maze of any depth; a maze of depth 1 is drawn exactly as above. Each
//! layer `z` (layer 0 is the top; "down" goes to `z + 1`) has its own wall grid, and a solution
//! may also step between layers (cells `W·H` apart, through an open down wall).
//!
//! - **ascii** and **unicode**: the layers one after another, layer 0 first, one empty line
//!   between two layers, each drawn like a 2D maze; a cell with a passage up, down or both shows
//!   `u`, `d`, `b` (unicode ` ↑ `, ` ↓ `, ` ↕ `), and on the path the upper-case `U`, `D`, `B`
//!   (unicode ` ⇑ `, ` ⇓ `, ` ⇕ `) instead of `.` (` • `): see the `text` module for the table
//!   and an example. [`parse_ascii`] reads the layers back (depth = number of layers).
//! - **svg**: the layers side by side, left to right, one cell of gap between them, under a
//!   label row one cell high; each layer is a `<g id="layer-Z" class="layer">` holding a
//!   `<text>` label `z=Z`, its walls `<path id="walls-Z">`, its part of the solution `<path
//!   id="solution-Z">` (one subpath per run of consecutive path cells in the layer), a red ring
//!   (`<g id="steps-Z">` of `<circle>`) around each path cell where the path changes layer, and
//!   the passage marks: `<path id="up-Z">`, a blue triangle pointing up in the upper half of
//!   each cell with a passage up, and `<path id="down-Z">`, one pointing down in the lower half
//!   (both make a diamond). The width is `D·W·c + (D−1)·c + 2·margin`, the height
//!   `H·c + c + 2·margin`.
//! - **png**: the layers' wall grids side by side, left to right, one grid square of
//!   [`PNG_GAP`] between them: `((2W+1)·D + D−1)·k × (2H+1)·k` pixels. A cell with a vertical
//!   passage has its middle (the square less a margin of `k/4` pixels on each side, so the whole
//!   square when `k < 4`) painted [`PNG_UP`], [`PNG_DOWN`] or [`PNG_UP_DOWN`]; at `k ≥ 4` the
//!   margin keeps the cell's own colour (passage or path), so a path cell that changes layer
//!   shows a red frame around its mark.

use std::fmt;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::str::FromStr;

use crate::grid::{Dir, Maze, Size, MAX_CELLS};

#[cfg(feature = "png")]
mod png;
pub mod polygon;
mod svg;
mod text;

#[cfg(feature = "png")]
use png::png_to;
#[cfg(feature = "cli")]
pub(crate) use svg::hex;
pub use svg::svg;
use svg::{check_svg, write_svg};
use text::write_text;
pub use text::{ascii, parse_ascii, unicode};

/// Wall colour in PNG output (RGB).
pub const PNG_WALL: [u8; 3] = [0, 0, 0];
/// Passage colour in PNG output (RGB).
pub const PNG_PASSAGE: [u8; 3] = [255, 255, 255];
/// Solution colour in PNG output (RGB).
pub const PNG_SOLUTION: [u8; 3] = [220, 0, 0];

/// Colour of the solution's entrance cell in PNG output (RGB); SVG draws a square of it.
pub const PNG_ENTRANCE: [u8; 3] = [255, 160, 0];
/// Colour of the solution's exit cell in PNG output (RGB); SVG draws a disc of it.
pub const PNG_EXIT: [u8; 3] = [0, 170, 220];

/// Colour of the gap between two layers of a 3D maze in PNG output (RGB).
pub const PNG_GAP: [u8; 3] = [255, 255, 255];
/// Colour of the mark in a cell with a passage up (only) in PNG output (RGB).
pub const PNG_UP: [u8; 3] = [0, 80, 220];
/// Colour of the mark in a cell with a passage down (only) in PNG output (RGB).
pub const PNG_DOWN: [u8; 3] = [0, 150, 0];
/// Colour of the mark in a cell with passages both up and down in PNG output (RGB).
pub const PNG_UP_DOWN: [u8; 3] = [150, 0, 200];

/// Largest PNG side in pixels accepted (the PNG limit is 2³¹−1; this keeps one row buffer of RGB
/// bytes within reason).
pub const PNG_MAX_SIDE: u64 = 1 << 20;

/// Largest picture accepted by [`check_picture`], in pixels (2^28: 16384 × 16384, 768 MiB of
/// RGB rows to encode); a larger one would take minutes to hours and gigabytes of disk.
pub const MAX_PIXELS: u64 = 1 << 28;

/// The size in pixels (width, height) of the picture of a `size` maze in `format` (`None`
/// for text, which has no pixels), as [`render`] would draw it with `style`.
pub fn picture_size(size: Size, format: Format, style: &Style) -> Option<(u64, u64)> {
    let (w, h, d) = (size.width as u64, size.height as u64, size.depth as u64);
    let px = style.px_for(format) as u64;
    match format {
        Format::Ascii | Format::Unicode => None,
        Format::Png => {
            let across = d * (2 * w + 1) + (d - 1);
            Some((across * px, (2 * h + 1) * px))
        }
        Format::Svg => {
            let pad = px.div_ceil(2);
            let label = if size.is_3d() { px } else { 0 };
            Some((
                d * w * px + (d - 1) * px + 2 * pad,
                h * px + 2 * pad + label,
            ))
        }
    }
}

/// Refuse, before any drawing, a picture larger than [`MAX_PIXELS`] or wider or taller than
/// [`PNG_MAX_SIDE`]: the reason names its size.
pub fn check_picture(size: Size, format: Format, style: &Style) -> Result<(), String> {
    let Some((w, h)) = picture_size(size, format, style) else {
        return Ok(());
    };
    let pixels = w.saturating_mul(h);
    if pixels > MAX_PIXELS || w > PNG_MAX_SIDE || h > PNG_MAX_SIDE {
        return Err(format!(
            "the {size} maze's {} picture would be {w}x{h} pixels; at most {} pixels \
             ({}x{}) are drawn: use a smaller --cell-px",
            format.name(),
            MAX_PIXELS,
            1u64 << 14,
            1u64 << 14
        ));
    }
    Ok(())
}

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `#`/space/`.` text, 2H+1 lines of 2W+1 characters (per layer, with `u d b U D B` marks
    /// for vertical passages in 3D); [`parse_ascii`] reads it back.
    Ascii,
    /// Box-drawing text.
    Unicode,
    /// Standalone SVG document.
    Svg,
    /// RGB PNG image (rendered with the `png` feature; otherwise [`RenderError::NotBuilt`]).
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
#[non_exhaustive]
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
    /// A format this build leaves out (PNG without the `png` feature).
    #[error("{0} output is not in this build of batchgen (cargo feature `{0}`)")]
    NotBuilt(Format),
    /// Writing the output failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

#[cfg(feature = "png")]
impl From<::png::EncodingError> for RenderError {
    fn from(e: ::png::EncodingError) -> RenderError {
        match e {
            ::png::EncodingError::IoError(io) => RenderError::Io(io),
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
        #[cfg(feature = "png")]
        Format::Png => png_to(maze, solution, style.px_for(format), out)?,
        #[cfg(not(feature = "png"))]
        Format::Png => return Err(RenderError::NotBuilt(format)),
    }
    out.flush()?;
    Ok(())
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
const PATH_DOWN: u8 = 8;

/// Vertical-passage flags of a cell ([`Grid::vertical`]).
const UP: u8 = 1;
const DOWN: u8 = 2;

/// A maze seen as its wall grid, one layer at a time, with the (validated) solution's cells and
/// steps marked. Positions are `(z, r, c)`: layer, then row and column of the layer's
/// `(2H+1) × (2W+1)` wall grid (a 2D maze has the one layer 0).
struct Grid<'a> {
    maze: &'a Maze,
    marks: Option<Vec<u8>>,
    /// The solution's first and last cells (the PNG writer paints them).
    #[cfg_attr(not(feature = "png"), allow(dead_code))]
    ends: Option<(u32, u32)>,
}

/// The entrance and exit of a solution: its first and last cells.
fn path_ends(solution: Option<&[u32]>) -> Option<(u32, u32)> {
    let p = solution?;
    Some((*p.first()?, *p.last()?))
}

impl<'a> Grid<'a> {
    fn new(maze: &'a Maze, solution: Option<&[u32]>) -> Result<Grid<'a>, RenderError> {
        let marks = match solution {
            None => None,
            Some(path) => Some(path_marks(maze, path)?),
        };
        Ok(Grid {
            maze,
            marks,
            ends: path_ends(solution),
        })
    }

    /// (rows, columns) of one layer's wall grid.
    fn dims(&self) -> (u32, u32) {
        (2 * self.maze.height() + 1, 2 * self.maze.width() + 1)
    }

    /// Number of layers.
    fn layers(&self) -> u32 {
        self.maze.depth()
    }

    fn mark(&self, cell: u32, flag: u8) -> bool {
        self.marks
            .as_ref()
            .is_some_and(|m| m[cell as usize] & flag != 0)
    }

    /// The id of the cell of layer `z` whose row or column in the wall grid is the one just
    /// after (`r / 2`, `c / 2`) the given even or odd position.
    fn cell_at(&self, z: u32, r: u32, c: u32) -> u32 {
        self.maze.size().cell(c / 2, r / 2, z)
    }

    /// The kind of grid position (row `r`, column `c`) of layer `z`.
    fn kind(&self, z: u32, r: u32, c: u32) -> Kind {
        let (rows, cols) = self.dims();
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
            // A hole of the maze's mask is drawn solid, like a wall.
            (true, true) => {
                let cell = self.cell_at(z, r, c);
                open_kind(self.maze.has_cell(cell), cell, ON_PATH)
            }
            (true, false) => {
                let cell = self.cell_at(z, r, c) - 1;
                open_kind(self.maze.east_open(cell), cell, PATH_EAST)
            }
            (false, true) => {
                let cell = self.cell_at(z, r - 2, c);
                open_kind(self.maze.south_open(cell), cell, PATH_SOUTH)
            }
        }
    }

    /// Is the cell at (odd `r`, odd `c`) of layer `z` a hole of the maze's mask? (Never
    /// without a mask.)
    fn hole(&self, z: u32, r: u32, c: u32) -> bool {
        self.maze.mask().is_some() && !self.maze.has_cell(self.cell_at(z, r, c))
    }

    /// Is the wall-grid position (row `r`, column `c`) of layer `z` inside a hole region: a
    /// hole, an interior wall between two holes, or an interior post whose four cells are
    /// holes? The unicode writer fills those solid.
    fn in_hole(&self, z: u32, r: u32, c: u32) -> bool {
        let (rows, cols) = self.dims();
        if self.maze.mask().is_none() || r == 0 || c == 0 || r == rows - 1 || c == cols - 1 {
            return false;
        }
        match (r % 2 == 1, c % 2 == 1) {
            (true, true) => self.hole(z, r, c),
            (true, false) => self.hole(z, r, c - 1) && self.hole(z, r, c + 1),
            (false, true) => self.hole(z, r - 1, c) && self.hole(z, r + 1, c),
            (false, false) => {
                self.hole(z, r - 1, c - 1)
                    && self.hole(z, r - 1, c + 1)
                    && self.hole(z, r + 1, c - 1)
                    && self.hole(z, r + 1, c + 1)
            }
        }
    }

    /// The vertical passages ([`UP`], [`DOWN`] flags) of the cell at (odd `r`, odd `c`) of
    /// layer `z`; always 0 in a 2D maze.
    fn vertical(&self, z: u32, r: u32, c: u32) -> u8 {
        if !self.maze.size().is_3d() {
            return 0;
        }
        let cell = self.cell_at(z, r, c);
        let (up, down) = (
            self.maze.is_open(cell, Dir::Up),
            self.maze.is_open(cell, Dir::Down),
        );
        (if up { UP } else { 0 }) | (if down { DOWN } else { 0 })
    }

    /// The box-drawing character for the post at (even `r`, even `c`) of layer `z`, from its
    /// wall arms (a wall inside a hole region is drawn solid, not as an arm).
    fn post(&self, z: u32, r: u32, c: u32) -> char {
        let (rows, cols) = self.dims();
        let wall = |r: u32, c: u32| self.kind(z, r, c) == Kind::Wall && !self.in_hole(z, r, c);
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
    let size = maze.size();
    let w = maze.width();
    let mut marks = vec![0u8; n as usize];
    for (i, &cell) in path.iter().enumerate() {
        if cell >= n {
            return Err(RenderError::Solution(format!(
                "step {i}: cell {cell} is outside the {size} maze"
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
        } else if b == a + w && size.has_neighbour(a, Dir::South) {
            (Dir::South, PATH_SOUTH)
        } else if size.is_3d() && b == a + size.layer_cells() {
            (Dir::Down, PATH_DOWN)
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
            // A hole (a '#' cell position) is closed on every side, leaves a connected mask
            // of at least one cell, and exists only in 2D.
            ("#####\n#  ##\n#####\n", "beside a hole"),
            ("#####\n##  #\n#####\n", "beside a hole"),
            ("###\n###\n# #\n###\n###\n", "beside a hole"),
            ("#######\n# ### #\n#######\n", "not connected"),
            ("###\n# #\n###\n\n###\n###\n###\n", "3D picture"),
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
    fn a_masked_picture_parses_back_with_its_mask() {
        // A 3×3 ring (the centre a hole) drawn by the writer, read back.
        let ring = std::sync::Arc::new(crate::grid::Mask::from_text("...\n.#.\n...\n").unwrap());
        let mut m = Maze::masked(ring.clone());
        for (c, d) in [
            (0, Dir::East),
            (1, Dir::East),
            (2, Dir::South),
            (5, Dir::South),
        ] {
            m.carve(c, d);
        }
        for (c, d) in [(6, Dir::East), (7, Dir::East), (0, Dir::South)] {
            m.carve(c, d);
        }
        let text = ascii(&m, None).unwrap();
        assert_eq!(
            text,
            "#######\n#     #\n# ### #\n# ### #\n##### #\n#     #\n#######\n"
        );
        let (back, path) = parse_ascii(&text).unwrap();
        assert_eq!(back, m);
        assert_eq!(back.mask(), Some(&ring));
        assert!(path.is_none());
        // Without a hole there is no mask, as always.
        assert!(parse_ascii("###\n# #\n###\n").unwrap().0.mask().is_none());
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
