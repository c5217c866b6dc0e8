//! The grid shapes a generator can run on, as one trait: [`Topology`], implemented by
//! [`Planar`] (a 2D grid, four directions, on the padded state of [`super::padded`], masks
//! included) and by [`Space`] (a 3D box, six directions, on the padded state of
//! [`super::space`]). A generator written once against the trait is compiled separately for
//! each (a type parameter, never a trait object), so every method inlines into the loop and a
//! direction count is a constant: the 2D instantiation carries no 3D code and loops over four
//! directions, the 3D one over six.
//!
//! Directions are small integers in [`crate::grid::Dir::ALL`] order (east, south, west, north,
//! then down, up in 3D). The draws are the same on both sides: the options of a cell are listed
//! in direction order ([`Topology::options`]) and one is taken with `choose(k)` (no draw when
//! there is one), so a generator written once keeps each side's mazes exactly.
//!
//! The uniform random walks (Aldous–Broder, Wilson) draw differently on each side (2-bit
//! directions 32 to a word in 2D, 3-bit draws with rejection in 3D); those draws, and the little
//! state only they need, are the subtrait [`Walk`].

use super::padded::{carve_parent_links, padded_marks_steps_of, padded_of, padded_state_of};
use super::padded::{padded_delta, padded_holes, padded_links, padded_sides, padded_sides_masked};
use super::padded::{wilson_root, EDGE};
#[cfg(doc)]
use super::shared::free_options;
use super::shared::{option, options4};
use super::space::{carve_parent_links3, options_with, padded_marks3, padded_state3, Space};
use super::space::{padded_links3, padded_sides3};
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// A grid shape for the generators that search a padded byte array: the padded and cell-id
/// steps of each direction, the wall of a cell in a direction, the listing of a cell's options,
/// the padded setup and the parent-link carving.
pub(crate) trait Topology: Copy {
    /// The number of directions (4 planar, 6 in a box): loops over them have a constant bound.
    const DIRS: usize;

    /// Fill `mark` with the padded state of the maze's grid (the padding, and the holes of a
    /// mask, outside; every cell free) and return the geometry.
    fn marks(mark: &mut Vec<u8>, maze: &Maze) -> Self;

    /// [`Topology::marks`] into `s.mark`, plus `s.next` zeroed to the same length (the
    /// parent-direction generators; a hole's parent direction is "none").
    fn state(s: &mut Scratch, maze: &Maze) -> Self;

    /// The padded-index step of direction `d` (a wrapping addition).
    fn step(&self, d: usize) -> u32;

    /// The cell-id step of direction `d` (a wrapping addition).
    fn cell_step(&self, d: usize) -> u32;

    /// The id of the wall of cell `c` in direction `d` (which must be interior).
    fn wall(&self, c: u32, d: usize) -> u32;

    /// The direction opposite `d`.
    fn opposite(d: usize) -> usize;

    /// The padded index of cell `c` (divisions: once per maze, not per step).
    fn padded(&self, c: u32) -> u32;

    /// The cell id of padded index `p` (divisions: for the rare paths only).
    fn cell(&self, p: u32) -> u32;

    /// Cells per row (the grid's width).
    fn width(&self) -> u32;

    /// Rows of the grid (`H` in 2D, `H·D` in 3D: rows in cell-id order).
    fn rows(&self) -> u32;

    /// The padded index of the first cell of row `r` ([`Topology::rows`] order); row `r`'s
    /// cells have ids `r·W ..`.
    fn row_start(&self, r: u32) -> u32;

    /// The directions whose neighbour of padded cell `p` has state `want`, in direction order,
    /// packed (read option `j` with [`Topology::option`]), and their count. Branch-free.
    ///
    /// # Safety
    ///
    /// `p` is the padded index of a cell of the grid (not the padding) and `mark` is as long as
    /// the padded array (as [`Topology::marks`] or [`Topology::state`] leaves it).
    unsafe fn options(&self, mark: &[u8], p: u32, want: u8) -> (u32, u32);

    /// Option `j` of a packed list from [`Topology::options`].
    fn option(packed: u32, j: u32) -> usize;

    /// Fill `free` (one byte per padded cell) with each cell's free-neighbour mask before any
    /// cell has joined: bit `d` set when the neighbour in direction `d` is a cell of the maze
    /// (not the padding, not a hole), read from `mark` as [`Topology::marks`] or
    /// [`Topology::state`] left it. [`Topology::visit`] then takes each joining cell out of
    /// its neighbours' masks, so a step reads its free neighbours from one byte
    /// ([`free_options`]) where [`Topology::options`] reads a mark per neighbour.
    fn free_masks(&self, free: &mut Vec<u8>, mark: &[u8], maze: &Maze);

    /// Take padded cell `q` out of its neighbours' masks ([`Topology::free_masks`]): clear the
    /// bit of the direction back to `q` in each. Branch-free; taking a cell out again changes
    /// nothing.
    ///
    /// # Safety
    ///
    /// `q` is the padded index of a cell of the grid (not the padding) and `free` is as long as
    /// the padded array (as [`Topology::free_masks`] leaves it).
    unsafe fn visit(&self, free: &mut [u8], q: u32);

    /// Write the maze from parent directions: `next[p]` is the direction from padded cell `p`
    /// to its parent, except at `root` (set to "no parent" here).
    fn carve_parent_links(&self, maze: &mut Maze, next: &mut [u8], codes: &mut Vec<u8>, root: u32);
}

/// The [`Topology::step`] and [`Topology::cell_step`] of a geometry whose padded and cell-id
/// steps are the arrays `dp` and `dc` (both implementations keep them so).
macro_rules! step_tables {
    () => {
        #[inline(always)]
        fn step(&self, d: usize) -> u32 {
            self.dp[d]
        }

        #[inline(always)]
        fn cell_step(&self, d: usize) -> u32 {
            self.dc[d]
        }
    };
}

/// A 2D grid on the padded `(W+2)×(H+2)` state of [`super::padded`] (holes of a mask outside).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Planar {
    /// Cells along x and y.
    w: u32,
    /// Rows.
    h: u32,
    /// Padded-index step of each direction.
    dp: [u32; 4],
    /// Cell-id step of each direction.
    dc: [u32; 4],
    /// Step from a cell's east-wall id to its wall in each direction.
    wb: [u32; 4],
}

impl Planar {
    /// The geometry of the maze's grid, with padded steps `dp`.
    #[inline]
    fn of(maze: &Maze, dp: [u32; 4]) -> Planar {
        let size = maze.size();
        Planar {
            w: maze.width(),
            h: maze.height(),
            dp,
            dc: size.cell_steps(),
            wb: size.wall_id_steps(),
        }
    }
}

impl Topology for Planar {
    const DIRS: usize = 4;

    #[inline(always)]
    fn marks(mark: &mut Vec<u8>, maze: &Maze) -> Planar {
        let dp = padded_marks_steps_of(mark, maze);
        Planar::of(maze, dp)
    }

    #[inline(always)]
    fn state(s: &mut Scratch, maze: &Maze) -> Planar {
        let dp = padded_state_of(s, maze);
        Planar::of(maze, dp)
    }

    step_tables!();

    #[inline(always)]
    fn wall(&self, c: u32, d: usize) -> u32 {
        (2 * c).wrapping_add(self.wb[d])
    }

    #[inline(always)]
    fn opposite(d: usize) -> usize {
        (d + 2) & 3
    }

    #[inline(always)]
    fn padded(&self, c: u32) -> u32 {
        padded_of(c, self.w)
    }

    #[inline(always)]
    fn cell(&self, p: u32) -> u32 {
        let pw = self.w + 2;
        (p / pw - 1) * self.w + p % pw - 1
    }

    #[inline(always)]
    fn width(&self) -> u32 {
        self.w
    }

    #[inline(always)]
    fn rows(&self) -> u32 {
        self.h
    }

    #[inline(always)]
    fn row_start(&self, r: u32) -> u32 {
        (r + 1) * (self.w + 2) + 1
    }

    #[inline(always)]
    unsafe fn options(&self, mark: &[u8], p: u32, want: u8) -> (u32, u32) {
        // SAFETY: `p` is a grid cell and `mark` the padded array (the caller's promise), whose
        // steps `dp` are.
        unsafe { options4(mark, &self.dp, p, want) }
    }

    #[inline(always)]
    fn option(packed: u32, j: u32) -> usize {
        option(packed, j) as usize
    }

    #[inline(always)]
    fn free_masks(&self, free: &mut Vec<u8>, mark: &[u8], maze: &Maze) {
        if maze.mask().is_some() {
            padded_sides_masked(free, mark, self.w, self.h);
        } else {
            padded_sides(free, self.w, self.h);
        }
    }

    #[inline(always)]
    unsafe fn visit(&self, free: &mut [u8], q: u32) {
        // SAFETY: the caller's promise, with this grid's steps.
        unsafe { visit_with::<Planar, 4>(free, &self.dp, q) };
    }

    #[inline(always)]
    fn carve_parent_links(&self, maze: &mut Maze, next: &mut [u8], codes: &mut Vec<u8>, root: u32) {
        carve_parent_links(maze, next, codes, root)
    }
}

/// A 3D box on the padded `(W+2)×(H+2)×(D+2)` state of [`super::space`] (3D grids have no
/// masks).
impl Topology for Space {
    const DIRS: usize = 6;

    #[inline(always)]
    fn marks(mark: &mut Vec<u8>, maze: &Maze) -> Space {
        debug_assert!(maze.mask().is_none());
        padded_marks3(mark, maze.size())
    }

    #[inline(always)]
    fn state(s: &mut Scratch, maze: &Maze) -> Space {
        debug_assert!(maze.mask().is_none());
        padded_state3(&mut s.mark, &mut s.next, maze.size())
    }

    step_tables!();

    #[inline(always)]
    fn wall(&self, c: u32, d: usize) -> u32 {
        Space::wall(self, c, d)
    }

    #[inline(always)]
    fn opposite(d: usize) -> usize {
        super::space::OPPOSITE[d] as usize
    }

    #[inline(always)]
    fn padded(&self, c: u32) -> u32 {
        Space::padded(self, c)
    }

    #[inline(always)]
    fn cell(&self, p: u32) -> u32 {
        let (z, r) = (p / self.plane - 1, p % self.plane);
        let (y, x) = (r / self.pw - 1, r % self.pw - 1);
        (z * self.h + y) * self.w + x
    }

    #[inline(always)]
    fn width(&self) -> u32 {
        self.w
    }

    #[inline(always)]
    fn rows(&self) -> u32 {
        self.h * self.d
    }

    #[inline(always)]
    fn row_start(&self, r: u32) -> u32 {
        Space::row_start(self, r % self.h, r / self.h)
    }

    #[inline(always)]
    unsafe fn options(&self, mark: &[u8], p: u32, want: u8) -> (u32, u32) {
        // SAFETY: `p` is a cell of the box and `mark` its padded array (the caller's promise).
        let (packed, k) = unsafe { options_with(mark, self, p, want) };
        (packed, k as u32)
    }

    #[inline(always)]
    fn option(packed: u32, j: u32) -> usize {
        (packed >> (3 * j) & 7) as usize
    }

    #[inline(always)]
    fn free_masks(&self, free: &mut Vec<u8>, _: &[u8], _: &Maze) {
        padded_sides3(free, self);
    }

    #[inline(always)]
    unsafe fn visit(&self, free: &mut [u8], q: u32) {
        // SAFETY: the caller's promise, with this box's steps.
        unsafe { visit_with::<Space, 6>(free, &self.dp, q) };
    }

    #[inline(always)]
    fn carve_parent_links(&self, maze: &mut Maze, next: &mut [u8], _: &mut Vec<u8>, root: u32) {
        carve_parent_links3(maze, self, next, root)
    }
}

/// Fill `s.sides` with the free-neighbour masks of `maze` ([`Topology::free_masks`], from the
/// marks in `s.mark`) and take the first cell `first` (padded index) out of them: the state a
/// loop that reads its steps' options with [`free_options`] starts from.
///
/// # Safety
///
/// `first` is the padded index of a cell of `maze`'s grid (`t.padded(c)` of a cell id `c`).
#[inline(always)]
pub(super) unsafe fn free_masks_from<T: Topology>(t: &T, s: &mut Scratch, maze: &Maze, first: u32) {
    t.free_masks(&mut s.sides, &s.mark, maze);
    // The masks are read and written at the padded indices of the marks.
    assert_eq!(s.sides.len(), s.mark.len());
    // SAFETY: `first` is a grid cell (the caller's promise), and `free_masks` left the masks
    // as long as the padded array.
    unsafe { t.visit(&mut s.sides, first) };
}

/// The marks of `maze` in `s.mark` ([`Topology::marks`]) and its free-neighbour masks in
/// `s.sides` with the cell `start` taken ([`free_masks_from`]): the topology and the start's
/// padded index. The growing tree and hunt-and-kill keep a cell's state in `mark` and read a
/// step's options from its mask, one byte, where [`Topology::options`] reads a mark per
/// neighbour. `start` is a cell id of `maze` (asserted: it comes from a random source).
#[inline(always)]
pub(super) fn marks_and_free_masks<T: Topology>(
    maze: &Maze,
    s: &mut Scratch,
    start: u32,
) -> (T, u32) {
    assert!(start < maze.cells());
    let t = T::marks(&mut s.mark, maze);
    let ps = t.padded(start);
    // SAFETY: the padded index of a cell id (asserted above).
    unsafe { free_masks_from(&t, s, maze, ps) };
    (t, ps)
}

/// [`Topology::visit`] on a topology `T` of `N` directions whose padded steps are `dp`.
///
/// # Safety
///
/// As [`Topology::visit`], `dp` being the padded array's steps.
#[inline(always)]
unsafe fn visit_with<T: Topology, const N: usize>(free: &mut [u8], dp: &[u32; N], q: u32) {
    for (d, &step) in dp.iter().enumerate() {
        let x = q.wrapping_add(step) as usize;
        debug_assert!(x < free.len());
        // SAFETY: `q` is a cell of the grid (the caller's promise), so each of its neighbours
        // lies inside the padded array, whose length `free` has.
        unsafe { *free.get_unchecked_mut(x) &= !(1 << T::opposite(d)) };
    }
}

/// The uniform random walks' side of a topology (Aldous–Broder and Wilson are written once
/// against it): how a walk draws a uniform direction, the one-array state of Aldous–Broder and
/// Wilson's root. The draws differ by
/// shape and each side keeps its own, so every maze stays what it was: a planar walk takes 2-bit
/// directions 32 to a word ([`RandomSource::dir4_x32`]), a 3D walk three random bits per step,
/// redrawn when they give 6 or 7 ([`RandomSource::bits`]); a draw that points off the grid is
/// rejected by the walk itself (it reads the neighbour's state anyway), which keeps each step
/// uniform among the existing neighbours.
pub(crate) trait Walk: Topology {
    /// Directions in a block of [`Walk::draw_block`].
    const BLOCK: u32;

    /// A block of [`Walk::BLOCK`] uniform directions among all [`Topology::DIRS`] (off-grid ones
    /// included), to be taken one by one with [`Walk::take_dir`].
    fn draw_block<R: RandomSource>(rng: &mut R) -> u64;

    /// The next direction of a block, removed from it.
    fn take_dir(block: &mut u64) -> usize;

    /// Direction `i` (`i < BLOCK`) of a block: the direction the `i + 1`-th
    /// [`Walk::take_dir`] would take from it.
    fn dir_at(block: u64, i: u32) -> usize;

    /// Fill `links` with the one-array state of Aldous–Broder: every cell the walk may reach
    /// [`UNSEEN`](super::padded::UNSEEN), the padding (and a mask's holes) [`EDGE`]; return the
    /// geometry.
    fn links(links: &mut Vec<u8>, maze: &Maze) -> Self;

    /// The root of the Wilson walks (padded index): the cell nearest the centre (on a mask, the
    /// mask cell nearest its centroid).
    fn wilson_root(&self, maze: &Maze) -> u32;
}

impl Walk for Planar {
    const BLOCK: u32 = 32;

    #[inline(always)]
    fn draw_block<R: RandomSource>(rng: &mut R) -> u64 {
        rng.dir4_x32()
    }

    #[inline(always)]
    fn take_dir(block: &mut u64) -> usize {
        let d = (*block & 3) as usize;
        *block >>= 2;
        d
    }

    #[inline(always)]
    fn dir_at(block: u64, i: u32) -> usize {
        (block >> (2 * i) & 3) as usize
    }

    #[inline(always)]
    fn links(links: &mut Vec<u8>, maze: &Maze) -> Planar {
        padded_links(links, maze.width(), maze.height());
        padded_holes(links, maze, EDGE);
        Planar::of(maze, padded_delta(maze.width()))
    }

    #[inline(always)]
    fn wilson_root(&self, maze: &Maze) -> u32 {
        wilson_root(maze)
    }
}

impl Walk for Space {
    const BLOCK: u32 = 1;

    #[inline(always)]
    fn draw_block<R: RandomSource>(rng: &mut R) -> u64 {
        loop {
            let d = rng.bits(3);
            if d < 6 {
                return d as u64;
            }
        }
    }

    #[inline(always)]
    fn take_dir(block: &mut u64) -> usize {
        *block as usize
    }

    #[inline(always)]
    fn dir_at(block: u64, _: u32) -> usize {
        block as usize
    }

    #[inline(always)]
    fn links(links: &mut Vec<u8>, maze: &Maze) -> Space {
        debug_assert!(maze.mask().is_none());
        padded_links3(links, maze.size())
    }

    #[inline(always)]
    fn wilson_root(&self, maze: &Maze) -> u32 {
        self.padded(maze.size().cell(self.w / 2, self.h / 2, self.d / 2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Dir, Size};

    /// Both topologies against the grid's own neighbour, wall and coordinate rules.
    fn check<T: Topology>(maze: &Maze, dirs: usize) {
        let mut mark = Vec::new();
        let t = T::marks(&mut mark, maze);
        let size = maze.size();
        assert_eq!(t.rows() * t.width(), size.cells());
        for c in 0..size.cells() {
            let p = t.padded(c);
            assert_eq!(t.cell(p), c);
            let (r, x) = (c / t.width(), c % t.width());
            assert_eq!(t.row_start(r) + x, p);
            for (d, dir) in Dir::ALL.into_iter().take(dirs).enumerate() {
                assert_eq!(Dir::ALL[T::opposite(d)], dir.opposite());
                if size.has_neighbour(c, dir) {
                    let nb = size.neighbour(c, dir);
                    assert_eq!(c.wrapping_add(t.cell_step(d)), nb);
                    assert_eq!(p.wrapping_add(t.step(d)), t.padded(nb));
                    assert_eq!(t.wall(c, d), size.wall_id(c, dir), "{size} {c} {dir:?}");
                } else {
                    assert_ne!(mark[p.wrapping_add(t.step(d)) as usize], 0);
                }
            }
        }
    }

    /// Take the cells of `maze` one by one in a random order, marking each in the tree and
    /// taking it out of the free masks: at every step every cell's mask lists exactly the
    /// neighbours the marks call free, in the order [`Topology::options`] lists them.
    fn check_free_masks<T: Topology>(maze: &Maze, seed: u64) {
        use super::super::padded::{FREE, IN_TREE};
        use super::super::shared::{free_option, free_options};
        use crate::rng::Rng;
        let (mut mark, mut free) = (Vec::new(), Vec::new());
        let t = T::marks(&mut mark, maze);
        t.free_masks(&mut free, &mark, maze);
        assert_eq!(free.len(), mark.len());
        let mut cells: Vec<u32> = match maze.mask() {
            None => (0..maze.cells()).collect(),
            Some(m) => m.ids().to_vec(),
        };
        let mut rng = Rng::from_maze_seed(seed);
        rng.shuffle(&mut cells);
        for (i, &c) in cells.iter().enumerate() {
            for &x in &cells {
                let p = t.padded(x);
                // SAFETY: `x` is a cell of the maze, and `mark` and `free` the padded arrays.
                let ((opts, k), (m, n)) =
                    unsafe { (t.options(&mark, p, FREE), free_options(&free, p)) };
                assert_eq!(n, k, "{} cell {x} after {i} joined", maze.size());
                for j in 0..k {
                    assert_eq!(free_option(m, j), T::option(opts, j));
                }
            }
            let p = t.padded(c);
            mark[p as usize] = IN_TREE;
            // SAFETY: as above.
            unsafe { t.visit(&mut free, p) };
        }
    }

    #[test]
    fn free_masks_follow_the_marks() {
        use crate::grid::Mask;
        use std::sync::Arc;
        for (i, (w, h)) in [(5, 4), (1, 7), (6, 1), (1, 1), (9, 9)]
            .into_iter()
            .enumerate()
        {
            check_free_masks::<Planar>(&Maze::new(w, h), i as u64);
        }
        let mask = Arc::new(Mask::from_text("..#....\n.##.#..\n....#..\n.#.....\n").unwrap());
        check_free_masks::<Planar>(&Maze::masked(mask), 7);
        for (i, size) in [Size::new(3, 2, 4), Size::new(1, 1, 3), Size::new(5, 4, 3)]
            .into_iter()
            .enumerate()
        {
            check_free_masks::<Space>(&Maze::with_size(size), 10 + i as u64);
        }
    }

    #[test]
    fn steps_walls_and_rows_match_the_grid() {
        for (w, h) in [(5, 4), (1, 7), (6, 1)] {
            check::<Planar>(&Maze::new(w, h), 4);
        }
        for size in [Size::new(3, 2, 4), Size::new(1, 1, 3), Size::new(5, 4, 3)] {
            check::<Space>(&Maze::with_size(size), 6);
        }
    }
}
