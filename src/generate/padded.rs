//! The padded `(W+2)×(H+2)` state shared by the walking and searching generators (backtracker,
//! Wilson, biased Wilson, Aldous–Broder): one byte of state per cell with a ring of "outside"
//! cells around the grid, so a step is one table add and one byte read, with no coordinates
//! and no bounds test; and the linear pass that turns per-cell parent directions into walls.

use super::Scratch;
use crate::grid::Maze;

/// State of a cell nobody has reached yet.
pub(crate) const FREE: u8 = 0;
/// State of a cell in the tree (visited).
pub(crate) const IN_TREE: u8 = 1;
/// State of the padding ring.
pub(crate) const OUTSIDE: u8 = 2;
/// A parent direction meaning "no parent" (the root of a tree).
pub(crate) const NO_PARENT: u8 = 4;

/// Prepare `s.mark` (border outside, everything else free) and `s.next` (zeroed, same length)
/// for a `w × h` grid. Returns the index step of each direction (east, south, west, north) in
/// the padded array, as wrapping `u32` additions.
pub(crate) fn padded_state(s: &mut Scratch, w: u32, h: u32) -> [u32; 4] {
    padded_marks(&mut s.mark, w, h);
    s.next.clear();
    s.next.resize(s.mark.len(), 0);
    padded_delta(w)
}

/// The index step of each direction (east, south, west, north) in a padded array of width
/// `w + 2`.
#[inline]
pub(crate) fn padded_delta(w: u32) -> [u32; 4] {
    let pw = w + 2;
    [1, pw, 1u32.wrapping_neg(), pw.wrapping_neg()]
}

/// Mark the border of a padded `(w+2)×(h+2)` state array as outside, everything else free.
/// Row by row with slice fills: no per-cell branch.
pub(crate) fn padded_marks(mark: &mut Vec<u8>, w: u32, h: u32) {
    padded_fill(mark, w, h, FREE, OUTSIDE);
}

/// A link of [`padded_links`]: a cell the walk has not reached (no parent direction yet).
pub(crate) const UNSEEN: u8 = 0xfe;
/// A link of [`padded_links`]: the padding ring.
pub(crate) const EDGE: u8 = 0xff;

/// The one-array state of a walk that records parent directions (Aldous–Broder): every grid
/// cell [`UNSEEN`], the padding ring [`EDGE`]; a reached cell then holds its parent direction
/// (0..4), so a step reads and writes one byte instead of a mark and a link. Neither value is a
/// direction, so [`carve_parent_links`] reads the array as it is.
pub(crate) fn padded_links(links: &mut Vec<u8>, w: u32, h: u32) {
    padded_fill(links, w, h, UNSEEN, EDGE);
}

/// Fill a padded `(w+2)×(h+2)` byte array: `inside` on the grid, `outside` on the ring.
fn padded_fill(a: &mut Vec<u8>, w: u32, h: u32, inside: u8, outside: u8) {
    let pw = (w + 2) as usize;
    let ph = (h + 2) as usize;
    a.clear();
    a.resize(pw * ph, inside);
    a[..pw].fill(outside);
    a[(ph - 1) * pw..].fill(outside);
    // The right pad of row y and the left pad of row y + 1 are adjacent.
    for y in 0..ph - 1 {
        a[y * pw + pw - 1] = outside;
        a[(y + 1) * pw] = outside;
    }
}

/// [`padded_marks`], then the index step of each direction ([`padded_delta`]): the setup of
/// the generators that keep only a mark per cell (hunt-and-kill, Prim, growing tree).
pub(crate) fn padded_marks_steps(mark: &mut Vec<u8>, w: u32, h: u32) -> [u32; 4] {
    padded_marks(mark, w, h);
    padded_delta(w)
}

/// Fill `sides` with, for each cell of a padded `(w+2)×(h+2)` array, the set of directions
/// (east 1, south 2, west 4, north 8) whose neighbour is on the grid: one byte read instead of
/// four mark reads per walk step. Row by row with slice fills; padding cells get 0.
pub(crate) fn padded_sides(sides: &mut Vec<u8>, w: u32, h: u32) {
    let (w, h) = (w as usize, h as usize);
    let pw = w + 2;
    sides.clear();
    sides.resize(pw * (h + 2), 0);
    for y in 1..=h {
        let mut row = 15u8;
        if y == 1 {
            row &= !8;
        }
        if y == h {
            row &= !2;
        }
        let cells = &mut sides[y * pw + 1..y * pw + 1 + w];
        cells.fill(row);
        cells[0] &= !4;
        cells[w - 1] &= !1;
    }
}

/// Write the maze from parent directions: `next[p]` (padded index `p`) is the direction from
/// each cell to its parent, except at `root`, which has none (it is set to [`NO_PARENT`] here).
/// A wall is open when either side points through it, so each cell's two bits come from three
/// bytes — east: `next[p] == E || next[p+1] == W`; south: `next[p] == S || next[p+pw] == N` —
/// computed row by row over whole slices (the compiler vectorises it) into `codes`, then packed
/// into the maze: no branch on the (random) directions. Padding cells must hold a value other
/// than west (2) and north (3), which would point back into the grid: 0 ([`padded_state`]) or
/// [`EDGE`] ([`padded_links`]).
pub(crate) fn carve_parent_links(maze: &mut Maze, next: &mut [u8], codes: &mut Vec<u8>, root: u32) {
    let (w, h) = (maze.width() as usize, maze.height() as usize);
    let pw = w + 2;
    next[root as usize] = NO_PARENT;
    codes.clear();
    codes.resize(w * h, 0);
    for (y, out) in codes.chunks_exact_mut(w).enumerate() {
        let p = (y + 1) * pw + 1;
        let here = &next[p..p + w];
        let right = &next[p + 1..p + 1 + w];
        let down = &next[p + pw..p + pw + w];
        for (((o, &a), &r), &d) in out.iter_mut().zip(here).zip(right).zip(down) {
            let east = (a == 0) | (r == 2);
            let south = (a == 1) | (d == 3);
            *o = east as u8 | (south as u8) << 1;
        }
    }
    maze.set_cell_codes(codes);
}

/// The padded index of grid cell `c` of a 2D grid of width `w`.
#[inline]
pub(crate) fn padded_of(c: u32, w: u32) -> u32 {
    (c / w + 1) * (w + 2) + c % w + 1
}

/// Write `hole` into the padded array `a` at every cell outside the maze's mask (nothing
/// without a mask): to a walk or a search, a hole is then the same as the padding ring.
pub(crate) fn padded_holes(a: &mut [u8], maze: &Maze, hole: u8) {
    let Some(mask) = maze.mask() else { return };
    let w = maze.width();
    // The holes are the gaps between consecutive mask cells: a loop over the mask's cell list
    // and its gaps, with no per-cell membership test.
    let mut from = 0u32;
    for &c in mask.ids().iter().chain(std::iter::once(&maze.cells())) {
        for gap in from..c {
            a[padded_of(gap, w) as usize] = hole;
        }
        from = c + 1;
    }
}

/// Fill `sides` as [`padded_sides`] does, counting the holes of the maze's mask as off the
/// grid: for each cell of a padded array whose holes and ring hold [`OUTSIDE`] in `mark`, the
/// directions (east 1, south 2, west 4, north 8) whose neighbour is not outside. Row by row
/// over whole slices (vectorised); padding cells get 0, holes a value nothing reads.
pub(crate) fn padded_sides_masked(sides: &mut Vec<u8>, mark: &[u8], w: u32, h: u32) {
    let (w, h) = (w as usize, h as usize);
    let pw = w + 2;
    sides.clear();
    sides.resize(pw * (h + 2), 0);
    for y in 1..=h {
        let p = y * pw + 1;
        let out = &mut sides[p..p + w];
        let east = &mark[p + 1..p + 1 + w];
        let south = &mark[p + pw..p + pw + w];
        let west = &mark[p - 1..p - 1 + w];
        let north = &mark[p - pw..p - pw + w];
        for ((((o, &e), &s), &wv), &n) in out.iter_mut().zip(east).zip(south).zip(west).zip(north) {
            *o = (e != OUTSIDE) as u8
                | ((s != OUTSIDE) as u8) << 1
                | ((wv != OUTSIDE) as u8) << 2
                | ((n != OUTSIDE) as u8) << 3;
        }
    }
}

/// [`padded_state`] for the maze's grid, holes of its mask outside (their parent direction
/// [`NO_PARENT`], so [`carve_parent_links`] opens nothing from them).
pub(crate) fn padded_state_of(s: &mut Scratch, maze: &Maze) -> [u32; 4] {
    let delta = padded_state(s, maze.width(), maze.height());
    if maze.mask().is_some() {
        padded_holes(&mut s.mark, maze, OUTSIDE);
        padded_holes(&mut s.next, maze, NO_PARENT);
    }
    delta
}

/// [`padded_marks_steps`] for the maze's grid, holes of its mask outside.
pub(crate) fn padded_marks_steps_of(mark: &mut Vec<u8>, maze: &Maze) -> [u32; 4] {
    let delta = padded_marks_steps(mark, maze.width(), maze.height());
    padded_holes(mark, maze, OUTSIDE);
    delta
}

/// The cell a generator that starts from a random cell starts from: a uniform draw among the
/// cells the maze spans (`rng.below(cells)` without a mask, as always).
#[inline]
pub(crate) fn random_cell<R: crate::rng::RandomSource>(maze: &Maze, rng: &mut R) -> u32 {
    match maze.mask() {
        None => rng.below(maze.cells()),
        Some(m) => m.ids()[rng.below(m.cells()) as usize],
    }
}

/// The root of the Wilson walks (padded index): the cell nearest the centre, `(W/2, H/2)`,
/// without a mask; the mask cell nearest the centroid of the mask's cells with one
/// ([`Mask::centre`](crate::grid::Mask::centre), which is `(W/2, H/2)` for a mask of every
/// cell). Any root keeps Wilson uniform; the expected number of walk steps is the mean commute
/// time between the root and a random cell, which a central root keeps low (the middle mask
/// cell in row order, say, lies on the rim of a disc, where the walks take longer to end).
#[inline]
pub(crate) fn wilson_root(maze: &Maze) -> u32 {
    let (w, h) = (maze.width(), maze.height());
    match maze.mask() {
        None => (h / 2 + 1) * (w + 2) + w / 2 + 1,
        Some(m) => padded_of(m.centre(), w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Mask;
    use std::sync::Arc;

    /// The masked sides against a direct test of each neighbour, and against [`padded_sides`]
    /// on a mask of every cell.
    #[test]
    fn masked_sides_leave_out_the_holes_and_the_ring() {
        let (w, h) = (7, 5);
        let shapes = [
            Mask::from_fn(w, h, |_, _| true).unwrap(),
            Mask::from_text(".......\n.##.#..\n....#..\n.#.....\n...#...\n").unwrap(),
        ];
        for mask in shapes {
            let full = mask.cells() == w * h;
            let maze = Maze::masked(Arc::new(mask.clone()));
            let mut s = Scratch::new();
            let delta = padded_state_of(&mut s, &maze);
            let mut sides = Vec::new();
            padded_sides_masked(&mut sides, &s.mark, w, h);
            for c in mask.ids().iter().copied() {
                let p = padded_of(c, w);
                let want = (0..4)
                    .filter(|&d| {
                        let (x, y) = ((c % w) as i64, (c / w) as i64);
                        let (dx, dy) = [(1, 0), (0, 1), (-1, 0), (0, -1)][d];
                        let (nx, ny) = (x + dx, y + dy);
                        nx >= 0
                            && ny >= 0
                            && nx < w as i64
                            && ny < h as i64
                            && mask.contains((ny * w as i64 + nx) as u32)
                    })
                    .fold(0u8, |m, d| m | 1 << d);
                assert_eq!(sides[p as usize], want, "cell {c}");
                // The holes and the ring hold OUTSIDE in the marks the sides are read from.
                for (d, &step) in delta.iter().enumerate() {
                    let nb = p.wrapping_add(step) as usize;
                    assert_eq!(
                        s.mark[nb] == OUTSIDE,
                        want >> d & 1 == 0,
                        "cell {c} dir {d}"
                    );
                }
            }
            if full {
                let mut plain = Vec::new();
                padded_sides(&mut plain, w, h);
                assert_eq!(sides, plain);
            }
        }
    }
}
