//! The maze itself: a W×H×D grid of cells whose passages are stored as a flat, bit-packed wall
//! array. This module is the one owner of the grid's topology: everyone else (generators,
//! metrics, the store, the uniformity lab, render) asks it about cells, walls and neighbours in
//! its own terms ([`Wall`], [`Dir`], [`Size`]) and never computes a bit position.
//!
//! # Cells and walls
//!
//! Cell id is `x + W·(y + H·z)` (`u32`); (0,0,0) is the top-left cell of the top layer (layer 0
//! is the top, `z` grows downwards). Each cell owns three walls: east (to `id + 1`), south (to
//! `id + W`) and down (to `id + W·H`). Border walls are implicit and never open, so every wall is
//! stored exactly once. A 2D maze is a maze of depth 1 and has no down walls.
//!
//! Every interior wall has a **wall id** (`u32`, see [`Wall`]): the east wall of cell `c` is
//! `2c`, its south wall `2c + 1` (the numbering of every 2D maze since the first release, which
//! Kruskal's shuffled wall list relies on), and the down walls take ids past those of the planar
//! walls. Ids are below [`Size::wall_id_bound`] but not contiguous in 3D; iterate them with
//! [`Size::interior_walls`].
//!
//! # Memory layout (private to this module)
//!
//! The words hold, first, two interleaved bits per cell: bit `2c` is the east wall of cell `c`,
//! bit `2c + 1` its south wall (a set bit means **open**), so both planar walls of a cell share
//! a word and the neighbours of a cell can be tested without knowing its coordinates (the east
//! bit of the cell left of a row's first cell is a border wall, hence never set). When D > 1 a
//! second plane of words follows, one down bit per cell. For D = 1 the words, and hence
//! [`Maze::hash`], are exactly those of the 2D mazes written before 3D existed.
//!
//! The words are a plain `Vec<u64>` rather than `bitvec::BitVec`: `benches/generate.rs` has a
//! wall-bit micro-benchmark comparing the two (`benches/README.md` has its result).

use std::fmt;
use std::sync::Arc;

pub mod mask;

pub use mask::{Mask, MaskError};

/// Largest number of cells a maze may have (8192 × 8192, or 406 × 406 × 406). Sizes are checked
/// against this before anything is allocated.
pub const MAX_CELLS: u64 = 1 << 26;

/// One of the six directions from a cell. The four planar ones come first, in the order of
/// their discriminants, so 2D loops index [`Dir::PLANAR`] with `0..4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[repr(u8)]
pub enum Dir {
    /// +x
    East = 0,
    /// +y
    South = 1,
    /// −x
    West = 2,
    /// −y
    North = 3,
    /// +z (to the layer below)
    Down = 4,
    /// −z (to the layer above)
    Up = 5,
}

impl Dir {
    /// The four planar directions, in the order of their discriminants (2D hot loops).
    pub const PLANAR: [Dir; 4] = [Dir::East, Dir::South, Dir::West, Dir::North];

    /// All six directions, in the order of their discriminants. On a maze of depth 1 the walls
    /// down and up are border walls: never open, no neighbour.
    pub const ALL: [Dir; 6] = [
        Dir::East,
        Dir::South,
        Dir::West,
        Dir::North,
        Dir::Down,
        Dir::Up,
    ];

    /// The planar direction with the given discriminant (`d & 3`).
    #[inline]
    pub fn from_index(d: u32) -> Dir {
        Dir::PLANAR[(d & 3) as usize]
    }

    /// The opposite direction.
    #[inline]
    pub fn opposite(self) -> Dir {
        match self {
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
            Dir::North => Dir::South,
            Dir::Down => Dir::Up,
            Dir::Up => Dir::Down,
        }
    }

    /// The axis of this direction: 0 for x, 1 for y, 2 for z.
    #[inline]
    pub fn axis(self) -> u32 {
        match self {
            Dir::East | Dir::West => 0,
            Dir::South | Dir::North => 1,
            Dir::Down | Dir::Up => 2,
        }
    }
}

/// The size of a grid in cells: `width × height × depth` (depth 1 for a 2D maze).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    /// Cells along x.
    pub width: u32,
    /// Cells along y.
    pub height: u32,
    /// Layers (cells along z); 1 for a 2D maze.
    pub depth: u32,
}

impl Size {
    /// A 2D size (`depth` 1).
    #[inline]
    pub const fn planar(width: u32, height: u32) -> Size {
        Size {
            width,
            height,
            depth: 1,
        }
    }

    /// A 3D size.
    #[inline]
    pub const fn new(width: u32, height: u32, depth: u32) -> Size {
        Size {
            width,
            height,
            depth,
        }
    }

    /// Is every side at least 1 and the cell count at most [`MAX_CELLS`]?
    pub fn is_valid(&self) -> bool {
        self.width > 0 && self.height > 0 && self.depth > 0 && self.cells_u64() <= MAX_CELLS
    }

    /// Number of cells as a `u64` (never overflows, even for invalid sizes).
    #[inline]
    pub fn cells_u64(&self) -> u64 {
        self.width as u64 * self.height as u64 * self.depth as u64
    }

    /// Number of cells, `width · height · depth` (the size must be valid).
    #[inline]
    pub fn cells(&self) -> u32 {
        self.width * self.height * self.depth
    }

    /// Cells per layer, `width · height`: the cell-id step of [`Dir::Down`].
    #[inline]
    pub fn layer_cells(&self) -> u32 {
        self.width * self.height
    }

    /// Does this size have more than one layer?
    #[inline]
    pub fn is_3d(&self) -> bool {
        self.depth > 1
    }

    /// Words of the planar (east/south) plane.
    #[inline]
    fn planar_words(&self) -> usize {
        (2 * self.cells_u64() as usize).div_ceil(64)
    }

    /// Number of `u64` words of [`Maze::words`] for a maze of this size (what the store keeps
    /// per maze).
    #[inline]
    pub fn words_per_maze(&self) -> usize {
        let planar = self.planar_words();
        if self.is_3d() {
            planar + (self.cells_u64() as usize).div_ceil(64)
        } else {
            planar
        }
    }

    /// The first down-wall id (every planar wall id is below it; `u32::MAX` when depth is 1).
    #[inline]
    fn down_base(&self) -> u32 {
        if self.is_3d() {
            64 * self.planar_words() as u32
        } else {
            u32::MAX
        }
    }

    /// Every wall id is below this bound (for per-wall tables indexed by id).
    pub fn wall_id_bound(&self) -> u32 {
        64 * self.words_per_maze() as u32
    }

    /// The cell at coordinates `(x, y, z)`.
    #[inline]
    pub fn cell(&self, x: u32, y: u32, z: u32) -> u32 {
        x + self.width * (y + self.height * z)
    }

    /// The coordinates `(x, y, z)` of `cell` (two divisions: not for hot loops).
    #[inline]
    pub fn coords(&self, cell: u32) -> (u32, u32, u32) {
        let (x, r) = (cell % self.width, cell / self.width);
        (x, r % self.height, r / self.height)
    }

    /// Does `cell` have a neighbour in direction `dir`? (Uses divisions: not for hot loops.)
    pub fn has_neighbour(&self, cell: u32, dir: Dir) -> bool {
        let (x, y, z) = self.coords(cell);
        match dir {
            Dir::East => x + 1 < self.width,
            Dir::South => y + 1 < self.height,
            Dir::West => x > 0,
            Dir::North => y > 0,
            Dir::Down => z + 1 < self.depth,
            Dir::Up => z > 0,
        }
    }

    /// The neighbour of `cell` in direction `dir` (which must exist).
    #[inline]
    pub fn neighbour(&self, cell: u32, dir: Dir) -> u32 {
        match dir {
            Dir::East => cell + 1,
            Dir::South => cell + self.width,
            Dir::West => cell - 1,
            Dir::North => cell - self.width,
            Dir::Down => cell + self.layer_cells(),
            Dir::Up => cell - self.layer_cells(),
        }
    }

    /// The id of the wall of `cell` in direction `dir` (which must be interior).
    #[inline]
    pub fn wall_id(&self, cell: u32, dir: Dir) -> u32 {
        match dir {
            Dir::East => 2 * cell,
            Dir::South => 2 * cell + 1,
            Dir::West => 2 * (cell - 1),
            Dir::North => 2 * (cell - self.width) + 1,
            Dir::Down => self.down_base() + cell,
            Dir::Up => self.down_base() + cell - self.layer_cells(),
        }
    }

    /// The id of the east wall of `cell` (whether or not it is interior): the base the planar
    /// [`Size::wall_id_steps`] are added to.
    #[inline]
    pub fn east_wall_id(&self, cell: u32) -> u32 {
        2 * cell
    }

    /// For the four planar directions (in [`Dir::PLANAR`] order), the wrapping step from the
    /// id of a cell's east wall to the id of its wall in that direction:
    /// `wall_id(c, d) == east_wall_id(c).wrapping_add(steps[d])`. For generators that keep
    /// directions as small integers in their hot loops.
    #[inline]
    pub fn wall_id_steps(&self) -> [u32; 4] {
        [
            0,
            1,
            2u32.wrapping_neg(),
            (2 * self.width - 1).wrapping_neg(),
        ]
    }

    /// For the four planar directions (in [`Dir::PLANAR`] order), the wrapping cell-id step to
    /// the neighbour in that direction.
    #[inline]
    pub fn cell_steps(&self) -> [u32; 4] {
        let w = self.width;
        [1, w, 1u32.wrapping_neg(), w.wrapping_neg()]
    }

    /// The interior wall of `cell` in direction `dir` (which must be interior).
    #[inline]
    pub fn wall_of(&self, cell: u32, dir: Dir) -> Wall {
        self.wall(self.wall_id(cell, dir))
    }

    /// The wall with id `id`, which must be an interior wall's id (see [`Size::wall_checked`]).
    /// Branch-free for planar walls but for one predictable test.
    #[inline]
    pub fn wall(&self, id: u32) -> Wall {
        if id < self.down_base() {
            self.planar_wall(id)
        } else {
            let a = id - self.down_base();
            Wall {
                id,
                a,
                b: a + self.layer_cells(),
                dir: Dir::Down,
            }
        }
    }

    /// The planar (east or south) wall with id `id`: [`Size::wall`] without the test for a down
    /// wall, for loops that know their walls are planar (every wall of a 2D size). Branch-free.
    #[inline]
    pub fn planar_wall(&self, id: u32) -> Wall {
        let a = id >> 1;
        let south = id & 1;
        Wall {
            id,
            a,
            // East neighbour `a + 1` or south neighbour `a + w`: a select, not a branch (and
            // not a multiplication, whose latency Kruskal's union loop waits on).
            b: a + if south == 1 { self.width } else { 1 },
            dir: Dir::from_index(south),
        }
    }

    /// The wall with id `id`, or `None` if no interior wall has that id.
    pub fn wall_checked(&self, id: u32) -> Option<Wall> {
        let n = self.cells();
        let (cell, dir) = if id < self.down_base() {
            (id >> 1, Dir::from_index(id & 1))
        } else {
            (id - self.down_base(), Dir::Down)
        };
        (cell < n && self.has_neighbour(cell, dir)).then(|| self.wall(id))
    }

    /// Number of interior walls: `(W−1)·H·D + W·(H−1)·D + W·H·(D−1)`.
    pub fn interior_wall_count(&self) -> u64 {
        let (w, h, d) = (self.width as u64, self.height as u64, self.depth as u64);
        (w - 1) * h * d + w * (h - 1) * d + w * h * (d - 1)
    }

    /// Every interior wall: first the planar ones cell by cell (east before south), then the
    /// down walls cell by cell. For a 2D size that is row-major cells, east before south.
    pub fn interior_walls(&self) -> impl Iterator<Item = Wall> + '_ {
        let n = self.cells();
        let planar = (0..n).flat_map(move |c| {
            [Dir::East, Dir::South]
                .into_iter()
                .filter(move |&d| self.has_neighbour(c, d))
                .map(move |d| self.wall_of(c, d))
        });
        let down =
            (0..n.saturating_sub(self.layer_cells())).map(move |c| self.wall_of(c, Dir::Down));
        planar.chain(down)
    }

    /// Replace `out` with the ids of every interior wall, in [`Size::interior_walls`] order:
    /// the fast version (whole rows at a time) for generators that rebuild a wall list per maze.
    pub fn interior_wall_ids(&self, out: &mut Vec<u32>) {
        let (w, h) = (self.width, self.height);
        out.clear();
        for z in 0..self.depth {
            let layer = z * self.layer_cells();
            for y in 0..h - 1 {
                let row = layer + y * w;
                out.extend((row..row + w - 1).flat_map(|c| [2 * c, 2 * c + 1]));
                out.push(2 * (row + w - 1) + 1);
            }
            let row = layer + (h - 1) * w;
            out.extend((row..row + w - 1).map(|c| 2 * c));
        }
        let base = self.down_base();
        out.extend((0..self.cells().saturating_sub(self.layer_cells())).map(|c| base + c));
    }
}

impl fmt::Display for Size {
    /// `WxH` for a 2D size, `WxHxD` for a 3D one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_3d() {
            write!(f, "{}x{}x{}", self.width, self.height, self.depth)
        } else {
            write!(f, "{}x{}", self.width, self.height)
        }
    }
}

/// One interior wall: its id, the two cells it separates and the direction from the first to
/// the second ([`Dir::East`], [`Dir::South`] or [`Dir::Down`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wall {
    /// The wall id (see the module docs); for a 2D maze `2a` (east) or `2a + 1` (south).
    pub id: u32,
    /// The west, north or upper cell (the one owning the wall).
    pub a: u32,
    /// The east, south or lower cell.
    pub b: u32,
    /// Direction from `a` to `b`.
    pub dir: Dir,
}

impl Wall {
    /// A short label: `E(x,y)` for the east wall of cell (x,y), `S(x,y)` for its south wall;
    /// in 3D `E(x,y,z)`, `S(x,y,z)` and `D(x,y,z)` (down).
    pub fn label(&self, size: Size) -> String {
        let (x, y, z) = size.coords(self.a);
        let k = match self.dir {
            Dir::East => "E",
            Dir::South => "S",
            _ => "D",
        };
        if size.is_3d() {
            format!("{k}({x},{y},{z})")
        } else {
            format!("{k}({x},{y})")
        }
    }

    /// Is this wall open in the given wall words (as returned by [`Maze::words`] for a maze of
    /// the wall's size)?
    #[inline]
    pub fn open_in(&self, words: &[u64]) -> bool {
        bit_in(words, self.id)
    }
}

#[inline]
fn bit_in(words: &[u64], b: u32) -> bool {
    (words[(b >> 6) as usize] >> (b & 63)) & 1 != 0
}

/// Walls by id, writable ([`Maze::wall_writer`]). Ids must be interior walls' ids.
#[derive(Debug)]
pub(crate) struct WallWriter<'a> {
    words: &'a mut [u64],
    width: u32,
}

impl WallWriter<'_> {
    /// Open the wall with id `id`.
    #[inline]
    pub fn open(&mut self, id: u32) {
        self.words[(id >> 6) as usize] |= 1 << (id & 63);
    }

    /// Open the wall with id `id` when `open` (branch-free).
    #[inline]
    pub fn open_if(&mut self, id: u32, open: bool) {
        self.words[(id >> 6) as usize] |= (open as u64) << (id & 63);
    }

    /// [`WallWriter::open_if`] without the bounds check, for a loop whose wall ids are
    /// interior by construction.
    ///
    /// # Safety
    ///
    /// `id` must be the id of an interior wall of the maze.
    #[inline]
    pub unsafe fn open_if_unchecked(&mut self, id: u32, open: bool) {
        let w = (id >> 6) as usize;
        debug_assert!(w < self.words.len());
        // SAFETY: an interior wall's bit lies in the maze's wall words (the caller's promise).
        unsafe { *self.words.get_unchecked_mut(w) |= (open as u64) << (id & 63) };
    }

    /// Open the planar walls of the 32 cells from `cell` on, given as bitsets: the east wall of
    /// cell `cell + i` when bit `i` of `east` is set, its south wall when bit `i` of `south` is
    /// (every set bit must name an interior wall). Both bitsets are interleaved into the
    /// wall words' layout and ORed into the (at most two) words they cover: a generator that
    /// decides a row's walls as bits writes 32 cells with a few word operations instead of
    /// one read-modify-write per wall.
    #[inline]
    pub fn open_cells32(&mut self, cell: u32, east: u32, south: u32) {
        let pair = spread(east) | spread(south) << 1;
        let b = 2 * cell as usize;
        let (i, s) = (b >> 6, (b & 63) as u32);
        self.words[i] |= pair << s;
        // Bits that spill past the last word would belong to cells past the end, which have
        // no interior walls: only a word that exists can receive any.
        if s != 0 && i + 1 < self.words.len() {
            self.words[i + 1] |= pair >> (64 - s);
        }
    }

    /// Close the wall with id `id`.
    #[inline]
    pub fn close(&mut self, id: u32) {
        self.words[(id >> 6) as usize] &= !(1 << (id & 63));
    }

    /// Close the east walls of `rows` cells of one column, starting at `cell` and going south.
    #[inline]
    pub fn close_east_column(&mut self, cell: u32, rows: u32) {
        let mut id = 2 * cell;
        for _ in 0..rows {
            self.close(id);
            id += 2 * self.width;
        }
    }

    /// Close the south walls of cells `a..b`, which must lie in one row (whole words at a time).
    #[inline]
    pub fn close_south_run(&mut self, a: u32, b: u32) {
        let mut a = a;
        while a < b {
            let i = a >> 5;
            let lo = a & 31;
            let hi = (b - (i << 5)).min(32);
            let mask =
                0xaaaa_aaaa_aaaa_aaaau64 & (u64::MAX << (2 * lo)) & (u64::MAX >> (64 - 2 * hi));
            self.words[i as usize] &= !mask;
            a = (i + 1) << 5;
        }
    }
}

/// Which planar sides of 32 consecutive cells are open ([`Maze::planar_sides`]): cell `k` of
/// the block at bit `2k` of each plane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sides {
    /// East sides open.
    pub east: u64,
    /// South sides open.
    pub south: u64,
    /// West sides open.
    pub west: u64,
    /// North sides open.
    pub north: u64,
}

/// Which vertical sides of 32 consecutive cells are open ([`Maze::vertical_sides`]), laid out
/// like [`Sides`]: cell `k` of the block at bit `2k` of each plane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerticalSides {
    /// Down sides open (to the layer below).
    pub down: u64,
    /// Up sides open (to the layer above).
    pub up: u64,
}

/// A perfect-maze candidate: grid size plus the open-wall bits, and the [`Mask`] whose cells
/// it spans when it has one (the cells outside a mask have no passage).
#[derive(Clone, PartialEq, Eq)]
pub struct Maze {
    size: Size,
    walls: Vec<u64>,
    mask: Option<Arc<Mask>>,
}

impl Maze {
    /// A 2D `width × height` maze with every wall closed. Panics if the size is 0 or exceeds
    /// [`MAX_CELLS`]; callers validate sizes first.
    pub fn new(width: u32, height: u32) -> Maze {
        Maze::with_size(Size::planar(width, height))
    }

    /// A maze of any size with every wall closed. Panics if the size is not
    /// [valid](Size::is_valid); callers validate sizes first.
    pub fn with_size(size: Size) -> Maze {
        let mut m = Maze {
            size: Size::planar(1, 1),
            walls: Vec::new(),
            mask: None,
        };
        m.resize(size);
        m
    }

    /// Re-size to a 2D size (if needed) and close every wall, reusing the allocation.
    pub fn reset(&mut self, width: u32, height: u32) {
        self.resize(Size::planar(width, height));
    }

    /// Re-size (if needed) and close every wall, reusing the allocation. A mask of another size
    /// is dropped.
    pub fn resize(&mut self, size: Size) {
        assert!(size.is_valid(), "maze size {size} out of range");
        if self.mask.as_ref().is_some_and(|m| m.size() != size) {
            self.mask = None;
        }
        self.size = size;
        self.walls.clear();
        self.walls.resize(size.words_per_maze(), 0);
    }

    /// Close every wall, keeping the size and the allocation.
    #[inline]
    pub fn clear(&mut self) {
        self.walls.fill(0);
    }

    /// The grid size.
    #[inline]
    pub fn size(&self) -> Size {
        self.size
    }

    /// A maze on the cells of `mask` (its size is the mask's), every wall closed.
    pub fn masked(mask: Arc<Mask>) -> Maze {
        let mut m = Maze::with_size(mask.size());
        m.mask = Some(mask);
        m
    }

    /// The mask whose cells this maze spans, if any.
    #[inline]
    pub fn mask(&self) -> Option<&Arc<Mask>> {
        self.mask.as_ref()
    }

    /// Set or remove the mask, keeping the walls. Panics if the mask's size is not the maze's.
    pub fn set_mask(&mut self, mask: Option<Arc<Mask>>) {
        if let Some(m) = &mask {
            assert_eq!(m.size(), self.size, "mask size differs from the maze's");
        }
        self.mask = mask;
    }

    /// Does cell `cell` exist (in the mask, when there is one)?
    #[inline]
    pub fn has_cell(&self, cell: u32) -> bool {
        match &self.mask {
            Some(m) => m.contains(cell),
            None => cell < self.cells(),
        }
    }

    /// The cells the maze spans: the mask's, or every cell of the grid.
    #[inline]
    pub fn tree_cells(&self) -> u32 {
        match &self.mask {
            Some(m) => m.cells(),
            None => self.cells(),
        }
    }

    /// The first cell the maze spans in row order (0 without a mask).
    #[inline]
    pub fn first_cell(&self) -> u32 {
        self.mask.as_ref().map_or(0, |m| m.first())
    }

    /// The last cell the maze spans in row order (`cells − 1` without a mask).
    #[inline]
    pub fn last_cell(&self) -> u32 {
        self.mask.as_ref().map_or(self.cells() - 1, |m| m.last())
    }

    /// Grid width in cells.
    #[inline]
    pub fn width(&self) -> u32 {
        self.size.width
    }

    /// Grid height in cells.
    #[inline]
    pub fn height(&self) -> u32 {
        self.size.height
    }

    /// Number of layers (1 for a 2D maze).
    #[inline]
    pub fn depth(&self) -> u32 {
        self.size.depth
    }

    /// Number of cells, `width · height · depth`.
    #[inline]
    pub fn cells(&self) -> u32 {
        self.size.cells()
    }

    #[inline]
    fn bit(&self, b: u32) -> bool {
        bit_in(&self.walls, b)
    }

    #[inline]
    fn set_bit(&mut self, b: u32) {
        self.walls[(b >> 6) as usize] |= 1 << (b & 63);
    }

    #[inline]
    fn clear_bit(&mut self, b: u32) {
        self.walls[(b >> 6) as usize] &= !(1 << (b & 63));
    }

    /// Is the east wall of `cell` open? (False on the east border.)
    #[inline]
    pub fn east_open(&self, cell: u32) -> bool {
        self.bit(2 * cell)
    }

    /// Is the south wall of `cell` open? (False on the south border of its layer.)
    #[inline]
    pub fn south_open(&self, cell: u32) -> bool {
        self.bit(2 * cell + 1)
    }

    /// Is the down wall of `cell` open? (False in the bottom layer and in every 2D maze.)
    #[inline]
    pub fn down_open(&self, cell: u32) -> bool {
        self.size.is_3d() && self.bit(self.size.down_base() + cell)
    }

    /// Is the wall of `cell` in direction `dir` open? Border walls are never open.
    #[inline]
    pub fn is_open(&self, cell: u32, dir: Dir) -> bool {
        match dir {
            Dir::East => self.east_open(cell),
            Dir::South => self.south_open(cell),
            Dir::West => cell > 0 && self.east_open(cell - 1),
            Dir::North => cell >= self.width() && self.south_open(cell - self.width()),
            Dir::Down => self.down_open(cell),
            Dir::Up => {
                let l = self.size.layer_cells();
                cell >= l && self.down_open(cell - l)
            }
        }
    }

    /// Is the wall with id `id` (an interior wall's) open?
    #[inline]
    pub fn is_wall_open(&self, id: u32) -> bool {
        self.bit(id)
    }

    /// The bitmask of `cell`'s open sides: bit `d` set when the wall in direction `d`
    /// (`Dir as u8`: E=1, S=2, W=4, N=8, Down=16, Up=32) is open.
    #[inline]
    pub fn open_mask(&self, cell: u32) -> u8 {
        let planar = self.is_open(cell, Dir::East) as u8
            | (self.is_open(cell, Dir::South) as u8) << 1
            | (self.is_open(cell, Dir::West) as u8) << 2
            | (self.is_open(cell, Dir::North) as u8) << 3;
        if self.size.is_3d() {
            planar
                | (self.is_open(cell, Dir::Down) as u8) << 4
                | (self.is_open(cell, Dir::Up) as u8) << 5
        } else {
            planar
        }
    }

    /// Open the wall of `cell` in direction `dir`. The caller guarantees the wall is interior
    /// (not on the border); debug builds check it.
    #[inline]
    pub fn carve(&mut self, cell: u32, dir: Dir) {
        debug_assert!(self.has_neighbour(cell, dir), "carving a border wall");
        let b = self.size.wall_id(cell, dir);
        self.set_bit(b);
    }

    /// Close the wall of `cell` in direction `dir` (interior walls only).
    #[inline]
    pub fn close(&mut self, cell: u32, dir: Dir) {
        debug_assert!(self.has_neighbour(cell, dir), "closing a border wall");
        let b = self.size.wall_id(cell, dir);
        self.clear_bit(b);
    }

    /// Open the wall with id `id` (an interior wall's; debug builds check).
    #[inline]
    pub fn open_wall(&mut self, id: u32) {
        debug_assert!(self.size.wall_checked(id).is_some(), "opening wall id {id}");
        self.set_bit(id);
    }

    /// Close the wall with id `id` (an interior wall's).
    #[inline]
    pub fn close_wall(&mut self, id: u32) {
        self.clear_bit(id);
    }

    /// Open the east wall of `cell` (its east neighbour must exist).
    #[inline]
    pub(crate) fn carve_east(&mut self, cell: u32) {
        self.carve(cell, Dir::East)
    }

    /// Open the south wall of `cell` (its south neighbour must exist).
    #[inline]
    pub(crate) fn carve_south(&mut self, cell: u32) {
        self.carve(cell, Dir::South)
    }

    /// Write access to the walls by id that borrows the words once, for generators' hot loops
    /// (the words stay in registers across the loop).
    #[inline]
    pub(crate) fn wall_writer(&mut self) -> WallWriter<'_> {
        WallWriter {
            words: &mut self.walls,
            width: self.size.width,
        }
    }

    /// Open every interior wall (a grid graph with all passages; recursive division starts
    /// here). Word-level: set every bit, then clear the padding, the east bits of the last
    /// column and the south bits of each layer's last row (no per-cell division).
    pub fn open_all(&mut self) {
        let (w, h) = (self.width(), self.height());
        let n = self.cells();
        let planar = self.size.planar_words();
        self.walls.fill(!0);
        clear_from(&mut self.walls[..planar], 2 * n);
        for r in 0..h * self.depth() {
            self.clear_bit(2 * (r * w + w - 1));
        }
        for z in 0..self.depth() {
            let last = z * self.size.layer_cells() + (h - 1) * w;
            self.wall_writer().close_south_run(last, last + w);
        }
        if self.size.is_3d() {
            clear_from(&mut self.walls[planar..], n - self.size.layer_cells());
        }
    }

    /// Overwrite every planar wall from per-cell codes: `codes[c]` is `east | south << 1`
    /// (1 = open) for cell `c`, one byte per cell; down walls are kept. Border walls must be
    /// closed in the codes (debug builds check). Generators that know each cell's passages only
    /// at the end (parent links) build the maze this way: eight codes are packed into 16 bits
    /// with shifts and masks, so the pass has no branch and no per-wall read-modify-write.
    pub(crate) fn set_cell_codes(&mut self, codes: &[u8]) {
        self.set_planar_codes(codes, !0);
        debug_assert!(
            codes.iter().all(|&c| c <= 3) && self.planar_borders_closed(),
            "set_cell_codes: bad code or open border wall"
        );
    }

    /// Overwrite every wall, down walls included, from per-cell codes: `codes[c]` is
    /// `east | south << 1 | down << 2` (1 = open) for cell `c`. The 3D counterpart of
    /// [`Maze::set_cell_codes`]: the planar plane packed the same way, then the down plane
    /// eight codes at a time (their down bits gathered into a byte by one multiplication), no
    /// branch and no per-wall read-modify-write. Border walls must be closed in the codes
    /// (debug builds check); on a 2D maze the down bits must be 0.
    pub(crate) fn set_cell_codes3(&mut self, codes: &[u8]) {
        self.set_planar_codes(codes, 0x0303_0303_0303_0303);
        /// Bit 2 of each of eight bytes → those bits side by side in 8 bits, byte `k` to bit
        /// `k`: shifted to bit `8k`, the multiplier's term `2^(56 − 7k)` moves it to bit
        /// `56 + k`, and no two partial products share a bit, so nothing carries.
        #[inline]
        fn gather8(x: u64) -> u64 {
            ((x >> 2) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56
        }
        let planar = self.size.planar_words();
        let down = &mut self.walls[planar..];
        let mut chunks = codes.chunks_exact(64);
        for (word, c) in down.iter_mut().zip(&mut chunks) {
            let mut v = 0u64;
            for (k, eight) in c.chunks_exact(8).enumerate() {
                let x = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
                v |= gather8(x) << (8 * k);
            }
            *word = v;
        }
        let tail = chunks.remainder();
        // A 2D maze has no down plane (and no tail to write).
        if let Some(last) = down.last_mut().filter(|_| !tail.is_empty()) {
            let mut v = 0u64;
            for (i, &code) in tail.iter().enumerate() {
                v |= ((code >> 2 & 1) as u64) << i;
            }
            *last = v;
        }
        debug_assert!(
            codes.iter().all(|&c| c <= 7)
                && (self.size.is_3d() || codes.iter().all(|&c| c <= 3))
                && self.planar_borders_closed()
                && (0..self.size.layer_cells()).all(|i| !self.down_open(self.cells() - 1 - i)),
            "set_cell_codes3: bad code or open border wall"
        );
    }

    /// The planar words from the planar bits of per-cell codes (`codes[c] & keep`'s byte must
    /// be `east | south << 1`; `keep` clears any other bits, eight bytes at a time).
    #[inline(always)]
    fn set_planar_codes(&mut self, codes: &[u8], keep: u64) {
        assert_eq!(codes.len(), self.cells() as usize, "one code per cell");
        /// Eight bytes holding 2-bit values → those values side by side in 16 bits.
        #[inline]
        fn pack8(x: u64) -> u64 {
            let x = (x | x >> 6) & 0x000F_000F_000F_000F;
            let x = (x | x >> 12) & 0x0000_00FF_0000_00FF;
            (x | x >> 24) & 0xFFFF
        }
        let planar = self.size.planar_words();
        let words = &mut self.walls[..planar];
        let mut chunks = codes.chunks_exact(32);
        for (word, c) in words.iter_mut().zip(&mut chunks) {
            let mut v = 0u64;
            for (k, eight) in c.chunks_exact(8).enumerate() {
                let x = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
                v |= pack8(x & keep) << (16 * k);
            }
            *word = v;
        }
        let tail = chunks.remainder();
        if !tail.is_empty() {
            let mut v = 0u64;
            for (i, &code) in tail.iter().enumerate() {
                v |= ((code & 3) as u64) << (2 * i);
            }
            words[planar - 1] = v;
        }
    }

    /// Overwrite every planar wall from two cell bitsets (bit `c` of the words = cell `c`):
    /// `east[c]` = cell `c` opens east, `north[c]` = cell `c` opens north (so cell `c` opens
    /// south when `north[c + W]`). For the 2D generators that draw whole rows of coins. Bits at
    /// or past `W·H` in both must be clear, and both need two spare words past `W·H + W` bits
    /// ([`Maze::cell_bitset_words`]).
    pub(crate) fn set_from_cell_bitsets(&mut self, east: &[u64], north: &[u64]) {
        debug_assert!(!self.size.is_3d(), "cell bitsets are planar");
        let w = self.width();
        let planar = self.size.planar_words();
        for (j, word) in self.walls[..planar].iter_mut().enumerate() {
            let c0 = 32 * j as u32;
            *word = spread(bits32(east, c0)) | spread(bits32(north, c0 + w)) << 1;
        }
        debug_assert!(self.planar_borders_closed(), "open border wall");
    }

    /// Words a cell bitset needs for [`Maze::set_from_cell_bitsets`].
    #[inline]
    pub(crate) fn cell_bitset_words(&self) -> usize {
        (self.cells() + self.width()) as usize / 64 + 3
    }

    /// Are the east walls of the last column and the south walls of each layer's last row
    /// closed? (Checks; allocates nothing.)
    fn planar_borders_closed(&self) -> bool {
        let (w, h) = (self.width(), self.height());
        (0..h * self.depth()).all(|r| !self.east_open(r * w + w - 1))
            && (0..self.depth()).all(|z| {
                let last = z * self.size.layer_cells() + (h - 1) * w;
                (last..last + w).all(|c| !self.south_open(c))
            })
    }

    /// Does `cell` have a neighbour in direction `dir`? (Uses divisions: not for hot loops.)
    pub fn has_neighbour(&self, cell: u32, dir: Dir) -> bool {
        self.size.has_neighbour(cell, dir)
    }

    /// The neighbour of `cell` in direction `dir` (which must exist).
    #[inline]
    pub fn neighbour(&self, cell: u32, dir: Dir) -> u32 {
        self.size.neighbour(cell, dir)
    }

    /// Number of open walls at `cell`.
    #[inline]
    pub fn degree(&self, cell: u32) -> u32 {
        self.open_mask(cell).count_ones()
    }

    /// Total number of open walls (passages). A perfect maze has `cells - 1`.
    pub fn passages(&self) -> u64 {
        self.walls.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// The ids of the open walls, in increasing order.
    pub fn open_wall_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.walls.iter().enumerate().flat_map(|(i, &w)| {
            let mut x = w;
            std::iter::from_fn(move || {
                (x != 0).then(|| {
                    let b = x.trailing_zeros();
                    x &= x - 1;
                    64 * i as u32 + b
                })
            })
        })
    }

    /// The raw wall words: an opaque bit string that identifies the maze among mazes of its
    /// size (store records, tree keys, equality). Their length is [`Size::words_per_maze`];
    /// [`Maze::from_words`] reads them back and [`Wall::open_in`] queries them.
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.walls
    }

    /// The planar wall words (the east/south plane, the whole of [`Maze::words`] for a 2D
    /// maze): word `i` holds cells `32i..32i+32`, cell `32i + k` with its east wall at bit `2k`
    /// and its south wall at bit `2k + 1`. For word-parallel passes (metrics' degree count).
    #[inline]
    pub fn planar_words(&self) -> &[u64] {
        &self.walls[..self.size.planar_words()]
    }

    /// The open down and up sides of every cell, 32 cells at a time in the layout of
    /// [`Maze::planar_sides`] (one item per item of it, cell `32i + k` at bit `2k`; odd bits
    /// zero). The bottom layer sees closed down sides and the top layer closed up sides; a 2D
    /// maze has none open. For the 6-neighbour word-parallel passes (metrics' 3D degree count).
    pub fn vertical_sides(&self) -> impl Iterator<Item = VerticalSides> + '_ {
        let planar = self.size.planar_words();
        // Empty for a 2D maze: every read below is then 0.
        let down = &self.walls[planar..];
        let layer = self.size.layer_cells() as i64;
        (0..planar).map(move |i| {
            let c0 = 32 * i as i64;
            VerticalSides {
                down: spread(bits32_or_zero(down, c0)),
                up: spread(bits32_or_zero(down, c0 - layer)),
            }
        })
    }

    /// The open sides of every cell in the planar directions, 32 cells at a time, word-parallel:
    /// item `i` covers cells `32i..32i + 32`, cell `32i + k` at bit `2k` of each plane (odd
    /// bits are zero). A row's first cell sees a closed west side and a layer's first row a
    /// closed north side (border walls are never open). For passes that count or lay out
    /// sides with popcounts over whole words (metrics' degree count).
    #[inline]
    pub fn planar_sides(&self) -> impl Iterator<Item = Sides> + '_ {
        const EVEN: u64 = 0x5555_5555_5555_5555;
        let words = self.planar_words();
        let shift = 2 * self.width() as usize;
        let (q, r) = (shift / 64, (shift % 64) as u32);
        let word = move |i: usize, back: usize| if i >= back { words[i - back] } else { 0 };
        let mut prev = 0u64;
        words.iter().enumerate().map(move |(i, &own)| {
            // West: the east bit of the previous cell (the stream shifted by 2 bits); north:
            // the south bit of the cell one row up (the stream shifted by 2·width bits).
            let west = (own << 2 | prev >> 62) & EVEN;
            prev = own;
            let up = if r == 0 {
                word(i, q)
            } else {
                word(i, q) << r | word(i, q + 1) >> (64 - r)
            };
            Sides {
                east: own & EVEN,
                south: own >> 1 & EVEN,
                west,
                north: up >> 1 & EVEN,
            }
        })
    }

    /// Rebuild a 2D maze from raw wall words as produced by [`Maze::words`]. Returns `None` if
    /// the word count is wrong or a border wall or padding bit is set.
    pub fn from_words(width: u32, height: u32, words: &[u64]) -> Option<Maze> {
        Maze::from_words_sized(Size::planar(width, height), words)
    }

    /// Rebuild a maze of any size from raw wall words as produced by [`Maze::words`]. Returns
    /// `None` if the word count is wrong or a border wall or padding bit is set.
    pub fn from_words_sized(size: Size, words: &[u64]) -> Option<Maze> {
        let mut m = Maze::with_size(size);
        if words.len() != m.walls.len() {
            return None;
        }
        m.walls.copy_from_slice(words);
        let mut check = Maze::with_size(size);
        check.open_all();
        let ok = m
            .walls
            .iter()
            .zip(&check.walls)
            .all(|(&a, &allowed)| a & !allowed == 0);
        ok.then_some(m)
    }

    /// A maze of the given size whose open walls are exactly `walls` (interior walls of that
    /// size).
    pub fn from_open_walls(size: Size, walls: impl IntoIterator<Item = Wall>) -> Maze {
        let mut m = Maze::with_size(size);
        for w in walls {
            m.open_wall(w.id);
        }
        m
    }

    /// A maze of the given size whose open walls have the given ids; `None` if an id is not an
    /// interior wall's.
    pub fn from_wall_ids(size: Size, ids: impl IntoIterator<Item = u32>) -> Option<Maze> {
        let mut m = Maze::with_size(size);
        for id in ids {
            size.wall_checked(id)?;
            m.set_bit(id);
        }
        Some(m)
    }

    /// A 64-bit hash of the wall bits and the size, fixed forever (it is written to Parquet as
    /// `maze_hash`): start from `fmix64(0x6d617a65_68617368 ^ (width << 32 | height))`; when
    /// depth > 1, then `h = fmix64(h ^ depth) + 0x9e3779b97f4a7c15`; then for each word
    /// `h = fmix64(h ^ word) + 0x9e3779b97f4a7c15`, with MurmurHash3's `fmix64`. (A 2D maze
    /// hashes exactly as it did before depth existed.)
    pub fn hash(&self) -> u64 {
        self.walls
            .iter()
            .fold(self.hash_start(), |h, &w| Maze::hash_word(h, w))
    }

    /// The state of [`Maze::hash`] before the first wall word (it depends only on the size), so
    /// a pass that reads the words anyway can fold them in with [`Maze::hash_word`], in the
    /// order of [`Maze::words`], and end with the same value (metrics' degree pass does: the
    /// hash's chain of multiplications then overlaps with the pass's own work).
    #[inline]
    pub(crate) fn hash_start(&self) -> u64 {
        let h =
            fmix64(0x6d61_7a65_6861_7368 ^ ((self.width() as u64) << 32 | self.height() as u64));
        if self.size.is_3d() {
            Maze::hash_word(h, self.depth() as u64)
        } else {
            h
        }
    }

    /// One step of [`Maze::hash`]: fold in the next wall word.
    #[inline(always)]
    pub(crate) fn hash_word(h: u64, word: u64) -> u64 {
        const GOLD: u64 = 0x9e37_79b9_7f4a_7c15;
        fmix64(h ^ word).wrapping_add(GOLD)
    }

    /// Is this a perfect maze: exactly `cells - 1` passages and every cell reachable from the
    /// first one? With a mask: a spanning tree of the mask's cells (no passage into a hole).
    /// (Allocates; meant for tests and checks, not the batch loop.)
    pub fn is_perfect(&self) -> bool {
        self.passages() == self.tree_cells() as u64 - 1 && self.is_connected()
    }

    /// Is every cell (every mask cell, with a mask) reachable from the first one, with no
    /// passage into a hole? With `cells − 1 + loops` passages, a connected maze has exactly
    /// `loops` independent loops (a braided maze; a perfect one has none).
    /// (Allocates; meant for tests and checks, not the batch loop.)
    pub fn is_connected(&self) -> bool {
        let n = self.tree_cells();
        let mut seen = vec![false; self.cells() as usize];
        let start = self.first_cell();
        let mut stack = vec![start];
        seen[start as usize] = true;
        let mut count = 1;
        while let Some(c) = stack.pop() {
            for d in Dir::ALL {
                if self.is_open(c, d) {
                    let nb = self.neighbour(c, d);
                    if !self.has_cell(nb) {
                        return false;
                    }
                    if !seen[nb as usize] {
                        seen[nb as usize] = true;
                        count += 1;
                        stack.push(nb);
                    }
                }
            }
        }
        count == n
    }
}

/// Clear bits `from..` of `words`.
fn clear_from(words: &mut [u64], from: u32) {
    let first = (from as usize).div_ceil(64);
    if from & 63 != 0 {
        words[first - 1] &= (1u64 << (from & 63)) - 1;
    }
    words[first..].fill(0);
}

/// Spread the 32 bits of `x` to the even bits of a word (bit `i` to bit `2i`).
#[inline]
fn spread(x: u32) -> u64 {
    let mut v = x as u64;
    v = (v | v << 16) & 0x0000_ffff_0000_ffff;
    v = (v | v << 8) & 0x00ff_00ff_00ff_00ff;
    v = (v | v << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    v = (v | v << 2) & 0x3333_3333_3333_3333;
    (v | v << 1) & 0x5555_5555_5555_5555
}

/// The 32 bits of bitset `b` starting at bit `p` (`b` must hold at least one word past them).
#[inline]
fn bits32(b: &[u64], p: u32) -> u32 {
    let i = (p >> 6) as usize;
    let pair = (b[i + 1] as u128) << 64 | b[i] as u128;
    (pair >> (p & 63)) as u32
}

/// The 32 bits of bitset `b` starting at bit `p`, which may be negative or run past the end of
/// `b` (missing bits read as 0).
#[inline]
fn bits32_or_zero(b: &[u64], p: i64) -> u32 {
    if p <= -32 {
        return 0;
    }
    if p < 0 {
        return bits32_or_zero(b, 0) << (-p) as u32;
    }
    let i = (p >> 6) as usize;
    let lo = b.get(i).copied().unwrap_or(0) as u128;
    let hi = b.get(i + 1).copied().unwrap_or(0) as u128;
    ((hi << 64 | lo) >> (p & 63)) as u32
}

impl fmt::Debug for Maze {
    /// A compact ASCII drawing, layer after layer (a blank line between layers): `#` wall,
    /// ` ` open; in 3D a cell shows `u` (passage up), `d` (down) or `b` (both).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Maze {}", self.size)?;
        let w = self.width();
        for z in 0..self.depth() {
            if z > 0 {
                write!(f, "\n\n")?;
            }
            write!(f, "{}", "#".repeat(2 * w as usize + 1))?;
            for y in 0..self.height() {
                let mut row = String::from("\n#");
                let mut below = String::from("\n#");
                for x in 0..w {
                    let c = self.size.cell(x, y, z);
                    row.push(
                        match (self.is_open(c, Dir::Up), self.is_open(c, Dir::Down)) {
                            (false, false) => ' ',
                            (true, false) => 'u',
                            (false, true) => 'd',
                            (true, true) => 'b',
                        },
                    );
                    row.push(if self.east_open(c) { ' ' } else { '#' });
                    below.push(if self.south_open(c) { ' ' } else { '#' });
                    below.push('#');
                }
                write!(f, "{row}{below}")?;
            }
        }
        Ok(())
    }
}

/// MurmurHash3's 64-bit finaliser: a bijective avalanche mix.
#[inline]
pub fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carve_and_query_each_direction() {
        let mut m = Maze::new(3, 2);
        m.carve(1, Dir::West);
        assert!(m.east_open(0) && m.is_open(1, Dir::West) && m.is_open(0, Dir::East));
        m.carve(4, Dir::North);
        assert!(m.south_open(1) && m.is_open(1, Dir::South));
        assert_eq!(m.passages(), 2);
        assert_eq!(m.degree(1), 2);
        // Row wrap: cell 3 (x=0,y=1) has no west neighbour even though cell 2's east bit exists.
        assert!(!m.is_open(3, Dir::West));
    }

    #[test]
    fn open_all_counts_every_interior_wall() {
        for (w, h) in [(1, 1), (1, 5), (5, 1), (3, 2), (7, 9), (64, 64)] {
            let mut m = Maze::new(w, h);
            m.open_all();
            let expect = (w as u64 - 1) * h as u64 + (h as u64 - 1) * w as u64;
            assert_eq!(m.passages(), expect, "{w}x{h}");
        }
    }

    #[test]
    fn cell_codes_match_single_carves() {
        // Sizes with a partial last word, and a pseudo-random set of interior walls.
        for (w, h) in [(1, 1), (3, 2), (7, 9), (33, 5), (64, 64)] {
            let mut codes = vec![0u8; (w * h) as usize];
            let mut want = Maze::new(w, h);
            let mut x = 0x9e37_79b9u32;
            for c in 0..w * h {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let e = c % w + 1 < w && x & 1 != 0;
                let s = c + w < w * h && x & 2 != 0;
                codes[c as usize] = e as u8 | (s as u8) << 1;
                if e {
                    want.carve_east(c);
                }
                if s {
                    want.carve_south(c);
                }
            }
            let mut got = Maze::new(w, h);
            got.open_all();
            got.set_cell_codes(&codes);
            assert_eq!(got, want, "{w}x{h}");
        }
    }

    #[test]
    fn from_words_rejects_border_bits() {
        let m = Maze::new(3, 2);
        let mut words = m.words().to_vec();
        words[0] |= 1 << 4; // east wall of cell 2: border
        assert!(Maze::from_words(3, 2, &words).is_none());
        assert!(Maze::from_words(3, 2, m.words()).is_some());
    }

    /// A pseudo-random 3D maze-ish wall set (not a tree) built by single carves.
    fn scribble(size: Size, seed: u32) -> Maze {
        let mut m = Maze::with_size(size);
        let mut x = seed | 1;
        for c in 0..size.cells() {
            for d in Dir::ALL {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                if x & 3 == 0 && size.has_neighbour(c, d) {
                    m.carve(c, d);
                }
            }
        }
        m
    }

    #[test]
    fn open_all_counts_every_interior_wall_in_3d() {
        for (w, h, d) in [
            (1, 1, 1),
            (1, 1, 5),
            (2, 2, 2),
            (3, 2, 4),
            (5, 4, 3),
            (7, 9, 2),
            (16, 16, 16),
            (33, 1, 3),
        ] {
            let size = Size::new(w, h, d);
            let mut m = Maze::with_size(size);
            m.open_all();
            let (w, h, d) = (w as u64, h as u64, d as u64);
            let expect = (w - 1) * h * d + w * (h - 1) * d + w * h * (d - 1);
            assert_eq!(m.passages(), expect, "{size}");
            assert_eq!(size.interior_wall_count(), expect);
            assert_eq!(size.interior_walls().count() as u64, expect);
            let mut ids = Vec::new();
            size.interior_wall_ids(&mut ids);
            let walls: Vec<u32> = size.interior_walls().map(|w| w.id).collect();
            assert_eq!(ids, walls, "{size}");
            // Every wall is open, and every open id is an interior wall.
            assert!(size.interior_walls().all(|wall| m.is_wall_open(wall.id)));
            assert!(m.open_wall_ids().eq(ids.iter().copied()));
            // Every cell's degree is its number of neighbours.
            for c in 0..size.cells() {
                let n = Dir::ALL
                    .iter()
                    .filter(|&&d| size.has_neighbour(c, d))
                    .count();
                assert_eq!(m.degree(c) as usize, n, "{size} cell {c}");
            }
        }
    }

    #[test]
    fn carve_and_query_all_six_directions_in_3d() {
        let size = Size::new(3, 2, 3);
        // The middle cell (1,1,1) has all six neighbours but south (y = 1 is the last row).
        let c = size.cell(1, 0, 1);
        assert_eq!(size.coords(c), (1, 0, 1));
        for d in Dir::ALL {
            let mut m = Maze::with_size(size);
            if !size.has_neighbour(c, d) {
                assert_eq!(d, Dir::North);
                continue;
            }
            m.carve(c, d);
            let nb = m.neighbour(c, d);
            assert!(m.is_open(c, d) && m.is_open(nb, d.opposite()), "{d:?}");
            assert_eq!(m.passages(), 1);
            assert_eq!(m.open_mask(c), 1 << d as u8);
            assert_eq!(m.open_mask(nb), 1 << d.opposite() as u8);
            let wall = size.wall_of(c, d);
            assert_eq!(
                (wall.a.min(wall.b), wall.a.max(wall.b)),
                (c.min(nb), c.max(nb))
            );
            assert_eq!(wall.dir.axis(), d.axis());
            assert_eq!(size.wall_checked(wall.id), Some(wall));
            assert!(wall.open_in(m.words()));
            assert_eq!(m.open_wall_ids().collect::<Vec<_>>(), vec![wall.id]);
            m.close(nb, d.opposite());
            assert_eq!(m.passages(), 0);
        }
        assert_eq!(size.neighbour(c, Dir::Down), size.cell(1, 0, 2));
        assert_eq!(size.neighbour(c, Dir::Up), size.cell(1, 0, 0));
        // Layer wrap: the top layer has no up neighbour, the bottom layer no down one.
        let m = Maze::with_size(size);
        assert!(!m.has_neighbour(0, Dir::Up) && !m.is_open(0, Dir::Up));
        assert!(!m.has_neighbour(size.cell(2, 1, 2), Dir::Down));
        // A cell of a 2D maze has no down or up wall at all.
        let mut flat = Maze::new(3, 2);
        flat.open_all();
        assert!((0..6).all(|c| !flat.is_open(c, Dir::Down) && !flat.is_open(c, Dir::Up)));
        assert!(!flat.has_neighbour(4, Dir::Down) && !flat.has_neighbour(4, Dir::Up));
    }

    #[test]
    fn from_words_round_trips_and_rejects_border_bits_in_3d() {
        let size = Size::new(3, 2, 2);
        let m = scribble(size, 77);
        assert!(m.passages() > 0);
        assert_eq!(m.words().len(), size.words_per_maze());
        assert_eq!(Maze::from_words_sized(size, m.words()), Some(m.clone()));
        // The down plane: cell 6 (bottom layer) has no down wall, nor has the padding.
        let planar = m.planar_words().len();
        for bit in [6u32, 12, 63] {
            let mut words = m.words().to_vec();
            words[planar] |= 1 << bit;
            assert!(Maze::from_words_sized(size, &words).is_none(), "bit {bit}");
        }
        // The south wall of the last row of layer 0 is a border wall too.
        let mut words = m.words().to_vec();
        words[0] |= 1 << (2 * 4 + 1);
        assert!(Maze::from_words_sized(size, &words).is_none());
        assert!(Maze::from_words_sized(size, &m.words()[1..]).is_none());
        assert!(Maze::from_words(3, 2, m.words()).is_none());
    }

    #[test]
    fn maze_from_open_walls_and_ids() {
        for size in [Size::planar(4, 3), Size::new(3, 3, 3)] {
            let m = scribble(size, 5);
            let walls: Vec<Wall> = size
                .interior_walls()
                .filter(|w| m.is_wall_open(w.id))
                .collect();
            assert_eq!(Maze::from_open_walls(size, walls.iter().copied()), m);
            assert_eq!(
                Maze::from_wall_ids(size, m.open_wall_ids()),
                Some(m.clone())
            );
            assert!(walls
                .iter()
                .all(|w| m.is_open(w.a, w.dir) && m.neighbour(w.a, w.dir) == w.b));
        }
        let size = Size::planar(3, 2);
        assert_eq!(Maze::from_wall_ids(size, [4]), None); // east of cell 2: border
        assert_eq!(Maze::from_wall_ids(size, [7]), None); // south of cell 3: border
        assert_eq!(size.wall(1).label(size), "S(0,0)");
        assert_eq!(
            Size::new(2, 2, 2)
                .wall_of(3, Dir::Down)
                .label(Size::new(2, 2, 2)),
            "D(1,1,0)"
        );
    }

    #[test]
    fn wall_id_steps_match_wall_ids() {
        let m = Maze::new(5, 4);
        let steps = m.size().wall_id_steps();
        let cells = m.size().cell_steps();
        for c in 0..m.cells() {
            for (i, d) in Dir::PLANAR.into_iter().enumerate() {
                if m.has_neighbour(c, d) {
                    assert_eq!(
                        m.size().east_wall_id(c).wrapping_add(steps[i]),
                        m.size().wall_id(c, d)
                    );
                    assert_eq!(c.wrapping_add(cells[i]), m.neighbour(c, d));
                }
            }
        }
    }

    #[test]
    fn wall_writer_runs_match_single_walls() {
        for (w, h) in [(5u32, 4u32), (40, 3), (70, 2)] {
            let size = Size::planar(w, h);
            let mut runs = Maze::with_size(size);
            runs.open_all();
            let mut single = runs.clone();
            let mut writer = runs.wall_writer();
            writer.close_east_column(1, h - 1);
            writer.close_south_run(1, w - 1);
            for c in (1..w * (h - 1)).step_by(w as usize) {
                single.close(c, Dir::East);
            }
            for c in 1..w - 1 {
                single.close(c, Dir::South);
            }
            assert_eq!(runs, single, "{w}x{h}");
        }
    }

    #[test]
    fn open_cells32_matches_single_walls() {
        // Widths whose rows start at every alignment, runs that cross a word boundary and
        // runs that end at the maze's last cell.
        let mut bits = 0x9e37_79b9_7f4a_7c15u64;
        for (w, h) in [(5u32, 4u32), (33, 3), (40, 3), (64, 2), (70, 2), (97, 3)] {
            let size = Size::planar(w, h);
            let mut runs = Maze::with_size(size);
            let mut single = Maze::with_size(size);
            for y in 0..h {
                for x0 in (0..w).step_by(32) {
                    bits = crate::rng::splitmix64(bits);
                    let n = (w - x0).min(32);
                    let keep = |last: u32| {
                        if last >= 32 {
                            u32::MAX
                        } else {
                            (1 << last) - 1
                        }
                    };
                    // No east wall out of the row's last cell, no south wall out of the last row.
                    let east = bits as u32 & keep(if x0 + n == w { n - 1 } else { n });
                    let south = (bits >> 32) as u32 & keep(if y + 1 == h { 0 } else { n });
                    let cell = y * w + x0;
                    runs.wall_writer().open_cells32(cell, east, south);
                    for i in 0..n {
                        if east >> i & 1 == 1 {
                            single.carve(cell + i, Dir::East);
                        }
                        if south >> i & 1 == 1 {
                            single.carve(cell + i, Dir::South);
                        }
                    }
                }
            }
            assert_eq!(runs, single, "{w}x{h}");
            assert!(single.words().iter().any(|&w| w != 0));
        }
    }

    #[test]
    fn hash_of_depth_one_is_unchanged() {
        // The 2D hash formula, written out independently of `Maze::hash`.
        let m = scribble(Size::planar(7, 5), 3);
        let mut h = fmix64(0x6d61_7a65_6861_7368 ^ (7u64 << 32 | 5));
        for &w in m.words() {
            h = fmix64(h ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
        }
        assert_eq!(m.hash(), h);
        assert_eq!(m.words().len(), (2 * 35usize).div_ceil(64));
        // Depth takes part in the hash when it is more than 1.
        let a = Maze::with_size(Size::new(2, 2, 2));
        let b = Maze::with_size(Size::new(2, 2, 3));
        assert_ne!(a.hash(), b.hash());
    }

    /// The 3D codes against the maze they describe, on sizes with partial last words in both
    /// planes, with whole ones (8×8×8: 1,024 planar bits, 512 down bits) and on a 2D maze (no
    /// down plane).
    #[test]
    fn cell_codes3_write_every_wall() {
        for (size, seed) in [
            (Size::new(4, 3, 2), 11),
            (Size::new(5, 4, 3), 5),
            (Size::new(8, 8, 8), 7),
            (Size::new(3, 7, 9), 2),
            (Size::new(1, 1, 5), 3),
            (Size::planar(7, 5), 4),
        ] {
            let m = scribble(size, seed);
            let codes: Vec<u8> = (0..size.cells())
                .map(|c| {
                    m.east_open(c) as u8
                        | (m.south_open(c) as u8) << 1
                        | (m.down_open(c) as u8) << 2
                })
                .collect();
            let mut got = Maze::with_size(size);
            got.open_all();
            got.set_cell_codes3(&codes);
            assert_eq!(got, m, "{size}");
        }
    }

    #[test]
    fn cell_codes_keep_the_down_plane() {
        let size = Size::new(4, 3, 2);
        let m = scribble(size, 11);
        let codes: Vec<u8> = (0..size.cells())
            .map(|c| m.east_open(c) as u8 | (m.south_open(c) as u8) << 1)
            .collect();
        let mut got = m.clone();
        got.set_cell_codes(&vec![0; codes.len()]);
        got.set_cell_codes(&codes);
        assert_eq!(got, m);
        assert!(format!("{m:?}").starts_with("Maze 4x3x2\n"));
    }
}
