//! The text formats: `ascii` (one character per wall-grid position, readable back by
//! [`parse_ascii`]) and `unicode` (box-drawing characters, cells three characters wide).

use super::*;

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
pub(super) fn write_text<W: Write + ?Sized>(
    g: &Grid,
    unicode: bool,
    out: &mut W,
) -> std::io::Result<()> {
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
