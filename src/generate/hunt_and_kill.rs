//! Hunt-and-kill: a random walk that only steps into unvisited cells ("kill"); when it is stuck,
//! scan the grid row by row for the first unvisited cell next to a visited one ("hunt"), join
//! it to a random visited neighbour and walk on from there.
//!
//! The naive hunt rescans from the top and is quadratic. Here the walk starts at (0,0), and a
//! cursor keeps the first unvisited cell in row-major order; it only moves forward. Every cell
//! before the cursor is visited and the cursor is not cell 0, so its west or north neighbour is
//! visited: the first unvisited cell *is* the first unvisited cell with a visited neighbour,
//! exactly what the row-by-row hunt finds, and the whole run is linear. Walk steps and the
//! hunted cell's link are chosen with unbiased `below(k)` draws among the options listed east,
//! south, west, north (no draw when there is one option), like the backtracker.

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

/// Carve a perfect maze by hunt-and-kill.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let w = maze.width();
    let n = maze.cells();
    s.mark.clear();
    s.mark.resize(n as usize, 0);
    s.mark[0] = 1;
    let (mut c, mut x) = (0u32, 0u32);
    // First possibly-unvisited cell in row-major order, and its column.
    let (mut cursor, mut cursor_x) = (1u32, if w == 1 { 0 } else { 1 });
    loop {
        // Kill: step into a random unvisited neighbour.
        let mut opts = [(0u32, Dir::East, 0u32); 4];
        let mut k = 0usize;
        if x + 1 < w && s.mark[(c + 1) as usize] == 0 {
            opts[k] = (c + 1, Dir::East, x + 1);
            k += 1;
        }
        if c + w < n && s.mark[(c + w) as usize] == 0 {
            opts[k] = (c + w, Dir::South, x);
            k += 1;
        }
        if x > 0 && s.mark[(c - 1) as usize] == 0 {
            opts[k] = (c - 1, Dir::West, x - 1);
            k += 1;
        }
        if c >= w && s.mark[(c - w) as usize] == 0 {
            opts[k] = (c - w, Dir::North, x);
            k += 1;
        }
        if k > 0 {
            let pick = if k == 1 {
                0
            } else {
                rng.below(k as u32) as usize
            };
            let (nb, d, nx) = opts[pick];
            maze.carve(c, d);
            s.mark[nb as usize] = 1;
            c = nb;
            x = nx;
            continue;
        }
        // Hunt: the first unvisited cell in row-major order.
        while cursor < n && s.mark[cursor as usize] != 0 {
            cursor += 1;
            cursor_x += 1;
            if cursor_x == w {
                cursor_x = 0;
            }
        }
        if cursor == n {
            break;
        }
        let (h, hx) = (cursor, cursor_x);
        let mut dirs = [Dir::East; 4];
        let mut k = 0usize;
        if hx + 1 < w && s.mark[(h + 1) as usize] != 0 {
            dirs[k] = Dir::East;
            k += 1;
        }
        if h + w < n && s.mark[(h + w) as usize] != 0 {
            dirs[k] = Dir::South;
            k += 1;
        }
        if hx > 0 {
            // Before the cursor, hence visited.
            dirs[k] = Dir::West;
            k += 1;
        }
        if h >= w {
            dirs[k] = Dir::North;
            k += 1;
        }
        debug_assert!(k > 0, "hunted cell has no visited neighbour");
        let pick = if k == 1 {
            0
        } else {
            rng.below(k as u32) as usize
        };
        maze.carve(h, dirs[pick]);
        s.mark[h as usize] = 1;
        c = h;
        x = hx;
    }
}
