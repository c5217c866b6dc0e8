//! Fractal (tessellation by doubling): start from one cell; repeatedly copy the maze built so
//! far three times to fill a square twice as wide and tall, then open three passages between
//! the four copies, one in each of three of the four inner wall segments (which segment stays
//! closed, and where each passage is, are uniform draws). Four trees joined by three edges
//! that connect them is a tree.
//!
//! # Sizes that are not powers of two
//!
//! Every size is accepted, so `--algo all` works everywhere. The rule: build the doubling maze
//! on the smallest `2^a × 2^b` rectangle covering `W × H` (doubling in both directions while
//! both are short, then in the remaining one alone: one copy joined by one passage), crop it to
//! the top-left `W × H` cells, then reconnect the pieces the crop cut apart by opening walls
//! between different pieces in a uniformly random order (a lazy Fisher–Yates over the closed
//! interior walls plus union-find, as in Kruskal), stopping when one piece is left. Cropping a
//! tree leaves a forest and Kruskal's rule joins a forest into a spanning tree, so the result is
//! perfect for every size; for powers of two no repair is needed and the maze is the pure
//! tessellation. The cells far from the crop lines keep the self-similar texture.
//!
//! The cover is never materialised: a copied cell's source always lies above and to the left
//! of it, so copies and passages are written straight into the `W × H` maze, skipping whatever
//! falls outside it (the draws are made anyway, so the maze is exactly the crop of the
//! covering one). Work and memory stay linear in `W·H`. Only `below` draws are used
//! (exactly enumerable).

use super::Scratch;
use crate::grid::{Dir, Maze};
use crate::rng::RandomSource;

/// Copy the `cw × ch` block at the top-left onto the block at offset `(dx, dy)`, cropped to the
/// maze. Passages leaving the copy are dropped (the source block has none).
fn copy_block(maze: &mut Maze, cw: u32, ch: u32, dx: u32, dy: u32) {
    let (w, h) = (maze.width(), maze.height());
    if dx >= w || dy >= h {
        return;
    }
    let cols = cw.min(w - dx);
    let rows = ch.min(h - dy);
    let east_ok = dx + cols < w; // the copy's last column has an east neighbour in the maze
    let south_ok = dy + rows < h;
    let shift = dy * w + dx;
    for y in 0..rows {
        let row = y * w;
        for x in 0..cols {
            let src = row + x;
            let dst = src + shift;
            if maze.east_open(src) && (x + 1 < cols || east_ok) {
                maze.carve_east(dst);
            }
            if maze.south_open(src) && (y + 1 < rows || south_ok) {
                maze.carve_south(dst);
            }
        }
    }
}

/// Open the east wall of cell (x, y) if both it and its east neighbour are in the maze.
#[inline]
fn open_east(maze: &mut Maze, x: u32, y: u32) {
    if x + 1 < maze.width() && y < maze.height() {
        maze.carve_east(y * maze.width() + x);
    }
}

/// Open the south wall of cell (x, y) if both it and its south neighbour are in the maze.
#[inline]
fn open_south(maze: &mut Maze, x: u32, y: u32) {
    if x < maze.width() && y + 1 < maze.height() {
        maze.carve_south(y * maze.width() + x);
    }
}

/// Carve a fractal (tessellation) maze, cropped and repaired for sizes that are not powers of two.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let (bw, bh) = (w.next_power_of_two(), h.next_power_of_two());
    let (mut cw, mut ch) = (1u32, 1u32);
    while cw < bw && ch < bh {
        copy_block(maze, cw, ch, cw, 0);
        copy_block(maze, cw, ch, 0, ch);
        copy_block(maze, cw, ch, cw, ch);
        // Inner segments: 0 top (TL|TR), 1 bottom (BL|BR), 2 left (TL/BL), 3 right (TR/BR).
        let closed = rng.below(4);
        for seg in 0..4 {
            if seg == closed {
                continue;
            }
            let at = rng.below(if seg < 2 { ch } else { cw });
            match seg {
                0 => open_east(maze, cw - 1, at),
                1 => open_east(maze, cw - 1, ch + at),
                2 => open_south(maze, at, ch - 1),
                _ => open_south(maze, cw + at, ch - 1),
            }
        }
        cw *= 2;
        ch *= 2;
    }
    while cw < bw {
        copy_block(maze, cw, ch, cw, 0);
        open_east(maze, cw - 1, rng.below(ch));
        cw *= 2;
    }
    while ch < bh {
        copy_block(maze, cw, ch, 0, ch);
        open_south(maze, rng.below(cw), ch - 1);
        ch *= 2;
    }
    if bw != w || bh != h {
        repair(maze, s, rng);
    }
}

/// Join the pieces of a forest into one tree: closed interior walls in a uniformly random
/// order, each opened when it joins two different pieces.
fn repair<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let n = maze.cells();
    s.dsu.reset(n);
    s.walls.clear();
    let mut need = n - 1;
    for y in 0..h {
        let row = y * w;
        for x in 0..w {
            let c = row + x;
            if x + 1 < w {
                if maze.east_open(c) {
                    s.dsu.union(c, c + 1);
                    need -= 1;
                } else {
                    s.walls.push(maze.size().wall_id(c, Dir::East));
                }
            }
            if y + 1 < h {
                if maze.south_open(c) {
                    s.dsu.union(c, c + w);
                    need -= 1;
                } else {
                    s.walls.push(maze.size().wall_id(c, Dir::South));
                }
            }
        }
    }
    super::shared::join_in_random_order(maze, s, need, rng);
}
