//! The maze itself: a W×H grid whose passages are stored as a flat, bit-packed wall array.
//!
//! Cell id is `y * width + x` (`u32`), (0,0) top-left. Each cell owns two wall bits, interleaved
//! so that both of a cell's bits share a word: bit `2*id` is its east wall (to `id + 1`), bit
//! `2*id + 1` its south wall (to `id + width`). A set bit means the wall is **open** (a passage).
//! Border walls are implicit and never open, so every wall is stored exactly once and the
//! neighbours of a cell can be tested without knowing its coordinates (the east bit of the
//! cell left of a row's first cell is a border wall, hence never set).
//!
//! The words are a plain `Vec<u64>` rather than `bitvec::BitVec`: `benches/generate.rs` has a
//! wall-bit micro-benchmark comparing the two (DESIGN.md: `BitVec` measured ~17% slower). The
//! representation is private, so it can change without touching any generator.

use std::fmt;

/// Largest number of cells a maze may have (8192 × 8192). Sizes are checked against this before
/// anything is allocated.
pub const MAX_CELLS: u64 = 1 << 26;

/// One of the four directions from a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
}

impl Dir {
    /// All four directions, in the order of their discriminants.
    pub const ALL: [Dir; 4] = [Dir::East, Dir::South, Dir::West, Dir::North];

    /// The direction with the given discriminant (`d & 3`).
    #[inline]
    pub fn from_index(d: u32) -> Dir {
        Dir::ALL[(d & 3) as usize]
    }

    /// The opposite direction.
    #[inline]
    pub fn opposite(self) -> Dir {
        Dir::from_index(self as u32 + 2)
    }
}

/// A perfect-maze candidate: grid size plus the open-wall bits.
#[derive(Clone, PartialEq, Eq)]
pub struct Maze {
    width: u32,
    height: u32,
    walls: Vec<u64>,
}

impl Maze {
    /// A `width × height` maze with every wall closed. Panics if the size is 0 or exceeds
    /// [`MAX_CELLS`]; callers validate sizes first.
    pub fn new(width: u32, height: u32) -> Maze {
        let mut m = Maze {
            width: 0,
            height: 0,
            walls: Vec::new(),
        };
        m.reset(width, height);
        m
    }

    /// Re-size (if needed) and close every wall, reusing the allocation.
    pub fn reset(&mut self, width: u32, height: u32) {
        let cells = width as u64 * height as u64;
        assert!(
            width > 0 && height > 0 && cells <= MAX_CELLS,
            "maze size {width}x{height} out of range"
        );
        self.width = width;
        self.height = height;
        let words = (2 * cells as usize).div_ceil(64);
        self.walls.clear();
        self.walls.resize(words, 0);
    }

    /// Close every wall, keeping the size and the allocation.
    #[inline]
    pub fn clear(&mut self) {
        self.walls.fill(0);
    }

    /// Grid width in cells.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Grid height in cells.
    #[inline]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells, `width * height`.
    #[inline]
    pub fn cells(&self) -> u32 {
        self.width * self.height
    }

    #[inline]
    fn bit(&self, b: u32) -> bool {
        (self.walls[(b >> 6) as usize] >> (b & 63)) & 1 != 0
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

    /// Is the south wall of `cell` open? (False on the south border.)
    #[inline]
    pub fn south_open(&self, cell: u32) -> bool {
        self.bit(2 * cell + 1)
    }

    /// Is the wall of `cell` in direction `dir` open? Border walls are never open.
    #[inline]
    pub fn is_open(&self, cell: u32, dir: Dir) -> bool {
        match dir {
            Dir::East => self.east_open(cell),
            Dir::South => self.south_open(cell),
            Dir::West => cell > 0 && self.east_open(cell - 1),
            Dir::North => cell >= self.width && self.south_open(cell - self.width),
        }
    }

    /// The wall bit index of the wall of `cell` in direction `dir` (which must be interior).
    #[inline]
    fn wall_bit(&self, cell: u32, dir: Dir) -> u32 {
        match dir {
            Dir::East => 2 * cell,
            Dir::South => 2 * cell + 1,
            Dir::West => 2 * (cell - 1),
            Dir::North => 2 * (cell - self.width) + 1,
        }
    }

    /// Open the wall of `cell` in direction `dir`. The caller guarantees the wall is interior
    /// (not on the border); debug builds check it.
    #[inline]
    pub fn carve(&mut self, cell: u32, dir: Dir) {
        debug_assert!(self.has_neighbour(cell, dir), "carving a border wall");
        let b = self.wall_bit(cell, dir);
        self.set_bit(b);
    }

    /// Close the wall of `cell` in direction `dir` (interior walls only).
    #[inline]
    pub fn close(&mut self, cell: u32, dir: Dir) {
        debug_assert!(self.has_neighbour(cell, dir), "closing a border wall");
        let b = self.wall_bit(cell, dir);
        self.clear_bit(b);
    }

    /// Open the east wall of `cell` when `open`, and its south wall when also `south`; nothing
    /// when `!open`. Branch-free, for generators whose choices are coin flips to a predictor.
    /// The wall must be interior; debug builds check.
    #[inline]
    pub fn carve_east_or_south_if(&mut self, cell: u32, south: bool, open: bool) {
        debug_assert!(
            !open || self.has_neighbour(cell, if south { Dir::South } else { Dir::East }),
            "carving a border wall"
        );
        let b = 2 * cell + south as u32;
        self.walls[(b >> 6) as usize] |= (open as u64) << (b & 63);
    }

    /// Open the east wall of `cell` (its east neighbour must exist).
    #[inline]
    pub fn carve_east(&mut self, cell: u32) {
        self.carve(cell, Dir::East)
    }

    /// Open the south wall of `cell` (its south neighbour must exist).
    #[inline]
    pub fn carve_south(&mut self, cell: u32) {
        self.carve(cell, Dir::South)
    }

    /// Open every interior wall (a grid graph with all passages; recursive division starts
    /// here). Word-level: set every bit, then clear the padding, the east bits of the last
    /// column and the south bits of the last row (no per-cell division).
    pub fn open_all(&mut self) {
        let (w, h) = (self.width, self.height);
        self.walls.fill(!0);
        let bits = 2 * self.cells();
        if bits & 63 != 0 {
            let last = self.walls.len() - 1;
            self.walls[last] &= (1u64 << (bits & 63)) - 1;
        }
        for y in 0..h {
            self.clear_bit(2 * (y * w + w - 1));
        }
        for c in (h - 1) * w..h * w {
            self.clear_bit(2 * c + 1);
        }
    }

    /// Overwrite every wall from per-cell codes: `codes[c]` is `east | south << 1` (1 = open)
    /// for cell `c`, one byte per cell. Border walls must be closed in the codes (debug builds
    /// check). Generators that know each cell's passages only at the end (parent links) build
    /// the maze this way: eight codes are packed into 16 bits with shifts and masks, so the
    /// pass has no branch and no per-wall read-modify-write.
    pub fn set_cell_codes(&mut self, codes: &[u8]) {
        assert_eq!(codes.len(), self.cells() as usize, "one code per cell");
        /// Eight bytes holding 2-bit values → those values side by side in 16 bits.
        #[inline]
        fn pack8(x: u64) -> u64 {
            let x = (x | x >> 6) & 0x000F_000F_000F_000F;
            let x = (x | x >> 12) & 0x0000_00FF_0000_00FF;
            (x | x >> 24) & 0xFFFF
        }
        let mut chunks = codes.chunks_exact(32);
        for (word, c) in self.walls.iter_mut().zip(&mut chunks) {
            let mut v = 0u64;
            for (k, eight) in c.chunks_exact(8).enumerate() {
                let x = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
                v |= pack8(x) << (16 * k);
            }
            *word = v;
        }
        let tail = chunks.remainder();
        if !tail.is_empty() {
            let mut v = 0u64;
            for (i, &code) in tail.iter().enumerate() {
                v |= ((code & 3) as u64) << (2 * i);
            }
            let last = self.walls.len() - 1;
            self.walls[last] = v;
        }
        debug_assert!(
            codes.iter().all(|&c| c <= 3)
                && (0..self.height).all(|y| !self.east_open(y * self.width + self.width - 1))
                && (self.cells() - self.width..self.cells()).all(|c| !self.south_open(c)),
            "set_cell_codes: bad code or open border wall"
        );
    }

    /// Does `cell` have a neighbour in direction `dir`? (Uses a division: not for hot loops.)
    pub fn has_neighbour(&self, cell: u32, dir: Dir) -> bool {
        let x = cell % self.width;
        match dir {
            Dir::East => x + 1 < self.width,
            Dir::South => cell + self.width < self.cells(),
            Dir::West => x > 0,
            Dir::North => cell >= self.width,
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
        }
    }

    /// Number of open walls at `cell`.
    #[inline]
    pub fn degree(&self, cell: u32) -> u32 {
        Dir::ALL.iter().filter(|&&d| self.is_open(cell, d)).count() as u32
    }

    /// Total number of open walls (passages). A perfect maze has `cells - 1`.
    pub fn passages(&self) -> u64 {
        self.walls.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// The raw wall words (bit `2*id` east, `2*id+1` south; bits past `2*cells` are zero).
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.walls
    }

    /// The raw wall words, writable, for generators that write whole words (same layout as
    /// [`Maze::words`]). The caller keeps border walls and padding bits zero.
    #[inline]
    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        &mut self.walls
    }

    /// Rebuild a maze from raw wall words as produced by [`Maze::words`]. Returns `None` if the
    /// word count is wrong or a border wall or padding bit is set.
    pub fn from_words(width: u32, height: u32, words: &[u64]) -> Option<Maze> {
        let mut m = Maze::new(width, height);
        if words.len() != m.walls.len() {
            return None;
        }
        m.walls.copy_from_slice(words);
        let mut check = Maze::new(width, height);
        check.open_all();
        let ok = m
            .walls
            .iter()
            .zip(&check.walls)
            .all(|(&a, &allowed)| a & !allowed == 0);
        ok.then_some(m)
    }

    /// A 64-bit hash of the wall bits and the size, fixed forever (it is written to Parquet as
    /// `maze_hash`): start from `fmix64(0x6d617a65_68617368 ^ (width << 32 | height))`, then
    /// for each word `h = fmix64(h ^ word) + 0x9e3779b97f4a7c15`, with MurmurHash3's `fmix64`.
    pub fn hash(&self) -> u64 {
        let mut h =
            fmix64(0x6d61_7a65_6861_7368 ^ ((self.width as u64) << 32 | self.height as u64));
        for &w in &self.walls {
            h = fmix64(h ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
        }
        h
    }

    /// Is this a perfect maze: exactly `cells - 1` passages and every cell reachable from cell 0?
    /// (Allocates; meant for tests and checks, not the batch loop.)
    pub fn is_perfect(&self) -> bool {
        let n = self.cells();
        if self.passages() != n as u64 - 1 {
            return false;
        }
        let mut seen = vec![false; n as usize];
        let mut stack = vec![0u32];
        seen[0] = true;
        let mut count = 1;
        while let Some(c) = stack.pop() {
            for d in Dir::ALL {
                if self.is_open(c, d) {
                    let nb = self.neighbour(c, d);
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

impl fmt::Debug for Maze {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Maze {}x{}", self.width, self.height)?;
        // A compact ASCII drawing: '#' wall, ' ' open.
        let w = self.width;
        write!(f, "{}", "#".repeat(2 * w as usize + 1))?;
        for y in 0..self.height {
            let mut row = String::from("\n#");
            let mut below = String::from("\n#");
            for x in 0..w {
                let c = y * w + x;
                row.push(' ');
                row.push(if self.east_open(c) { ' ' } else { '#' });
                below.push(if self.south_open(c) { ' ' } else { '#' });
                below.push('#');
            }
            write!(f, "{row}{below}")?;
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
}
