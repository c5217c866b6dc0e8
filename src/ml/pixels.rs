//! A 2D maze in maze-dataset's array layouts: the connection list (`bool`, shape `(2, H, W)`;
//! `[0, r, c]` open between `(r, c)` and `(r + 1, c)`, `[1, r, c]` between `(r, c)` and
//! `(r, c + 1)`) and the pixel grid of `LatticeMaze.as_pixels()` (`(2H+1) × (2W+1)`: cell
//! `(r, c)` at pixel `(2r+1, 2c+1)`, a passage between two cells at the pixel between them;
//! 255 open, 0 wall, one channel of maze-dataset's RGB image, whose three channels are equal
//! for a maze without endpoints).

use crate::grid::Maze;

/// Append the connection list, flattened in C order, to `out`.
pub fn connection_list(maze: &Maze, out: &mut Vec<bool>) {
    let cells = maze.width() * maze.height();
    out.extend((0..cells).map(|c| maze.south_open(c)));
    out.extend((0..cells).map(|c| maze.east_open(c)));
}

/// Append the pixel grid, flattened row by row, to `out`.
pub fn pixels(maze: &Maze, out: &mut Vec<u8>) {
    let (w, h) = (maze.width() as usize, maze.height() as usize);
    let pw = 2 * w + 1;
    let start = out.len();
    out.resize(start + (2 * h + 1) * pw, 0);
    let g = &mut out[start..];
    for r in 0..h {
        for c in 0..w {
            let cell = (r * w + c) as u32;
            let (pr, pc) = (2 * r + 1, 2 * c + 1);
            g[pr * pw + pc] = 255;
            if maze.east_open(cell) {
                g[pr * pw + pc + 1] = 255;
            }
            if maze.south_open(cell) {
                g[(pr + 1) * pw + pc] = 255;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Dir;

    #[test]
    fn a_two_cell_corridor() {
        let mut m = Maze::new(2, 1);
        m.carve(0, Dir::East);
        let mut cl = Vec::new();
        connection_list(&m, &mut cl);
        assert_eq!(cl, [false, false, true, false]);
        let mut px = Vec::new();
        pixels(&m, &mut px);
        #[rustfmt::skip]
        assert_eq!(px, [
            0, 0, 0, 0, 0,
            0, 255, 255, 255, 0,
            0, 0, 0, 0, 0,
        ]);
    }
}
