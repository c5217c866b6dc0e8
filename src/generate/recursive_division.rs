//! Recursive division, with an explicit stack of rectangles instead of recursion (so a
//! 1×4096 or 4096×4096 room cannot overflow the call stack).
//!
//! Start with every interior wall open ([`Maze::open_all`]): each room is a grid graph. A room
//! at least 2 cells wide and tall is split by a straight wall across it with exactly one
//! opening, into two rooms joined by that one passage; rooms 1 cell wide or tall are paths
//! already. Splitting a connected room into two connected halves joined once, down to paths,
//! leaves a tree. Choices: a room wider than tall is split by a vertical wall, taller than wide
//! by a horizontal one, a square one by a coin; the wall line and the gap are uniform
//! (`below`), so only exactly enumerable draws are used. Each closed wall is written once and
//! every cell index is stepped by `+1` or `+W` (no division): the work is linear in the cells.
//!
//! Speed: the pending rooms live on a stack with its own length, both halves of a split written
//! and kept by adding their conditions (no branch on the halves' sizes). A horizontal wall is
//! closed a word at a time ([`crate::grid::WallWriter::close_south_run`]), then its
//! gap opened; a vertical one a wall per row
//! ([`crate::grid::WallWriter::close_east_column`]).

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::{with_local_rng, RandomSource};

/// Carve a perfect maze by recursive division. The batch's generator runs on a copy in
/// locals, stored back once: the same draws.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    with_local_rng!(rng, |r| divide(maze, s, r))
}

/// The splitting loop of [`generate`].
#[inline(always)]
fn divide<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    maze.open_all();
    let size = maze.size();
    let mut walls = maze.wall_writer();
    // The stack is last-in first-out, so it holds at most one waiting room per level of the
    // split tree above the room being split, and each level makes `width + height` smaller
    // by at least one: fewer than `W + H` rooms wait at once. With room for the two slots a
    // split writes, `W + H + 3` entries never overflow (and the stack never grows). Both slots
    // are written on every split and kept by adding their conditions to the length (no branch
    // on a room's size, a coin flip at the leaves).
    let cap = w as usize + h as usize + 3;
    if s.rects.len() < cap {
        s.rects.resize(cap, [0; 4]);
    }
    let rects = &mut s.rects[..];
    let mut len = 0usize;
    if w >= 2 && h >= 2 {
        rects[0] = [0, 0, w, h];
        len = 1;
    }
    while len > 0 {
        len -= 1;
        let [x0, y0, rw, rh] = rects[len];
        let vertical = if rw != rh { rw > rh } else { rng.coin() };
        if vertical {
            // Close the east walls of column x0 + i, except in row y0 + gap.
            let i = if rw == 2 { 0 } else { rng.below(rw - 1) };
            let gap = rng.below(rh);
            walls.close_east_column(y0 * w + x0 + i, rh);
            walls.open(size.wall_id((y0 + gap) * w + x0 + i, Dir::East));
            let (lw, right) = (i + 1, rw - i - 1);
            rects[len] = [x0, y0, lw, rh];
            len += (lw >= 2) as usize;
            rects[len] = [x0 + lw, y0, right, rh];
            len += (right >= 2) as usize;
        } else {
            // Close the south walls of row y0 + i, except in column x0 + gap.
            let i = if rh == 2 { 0 } else { rng.below(rh - 1) };
            let gap = rng.below(rw);
            let start = (y0 + i) * w + x0;
            walls.close_south_run(start, start + rw);
            walls.open(size.wall_id(start + gap, Dir::South));
            let (th, bottom) = (i + 1, rh - i - 1);
            rects[len] = [x0, y0, rw, th];
            len += (th >= 2) as usize;
            rects[len] = [x0, y0 + th, rw, bottom];
            len += (bottom >= 2) as usize;
        }
    }
}
