//! Masks: a maze inside a shape. A [`Mask`] is a connected set of cells of a 2D grid; the maze
//! is a spanning tree of those cells, and the cells outside (the holes) have no passage. The
//! grid owns the mask as it owns the third dimension: a [`Maze`](super::Maze) carries its mask,
//! and generators, metrics, render and the store ask it which cells exist.
//!
//! # Files
//!
//! - Text: one line per row, `#` = no cell, any other character = a cell. Every row has the
//!   width of the first (trailing `\r` and a final newline are ignored).
//! - PNG (cargo feature `png`): one pixel per cell, dark (luma below one half) = no cell; a
//!   transparent pixel (alpha below one half) is no cell too.
//!
//! A mask file is a regular file of at most [`MAX_FILE_BYTES`] (256 MiB: four bytes for each
//! cell of the largest grid, room for a line break per cell); a FIFO, a device or a folder, or a
//! larger file, is refused before anything is read.
//!
//! A mask must have at least one cell and be connected through its 4-neighbours; otherwise it
//! is refused ([`MaskError`]) naming the number of components and one cell of each.
//!
//! # Identity
//!
//! [`Mask::hash`] is a 64-bit hash of the size and the cell bits, never 0 (0 stands for "no
//! mask" in the `mask_hash` column), fixed forever: it goes into the per-maze seed.

use std::fmt;

use super::{fmix64, Size, MAX_CELLS};

/// The largest mask file read, in bytes (see the module docs): `4 × MAX_CELLS`.
pub const MAX_FILE_BYTES: u64 = 4 * MAX_CELLS;

/// A connected set of cells of a `width × height` grid (see the module docs).
#[derive(Clone, PartialEq, Eq)]
pub struct Mask {
    size: Size,
    /// Bit `c` set: cell `c` is in the mask.
    bits: Vec<u64>,
    /// The mask's cells in increasing id order (row order).
    ids: Vec<u32>,
    hash: u64,
    /// [`Mask::centre`].
    centre: u32,
}

/// Why a mask was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum MaskError {
    /// No rows, or no cell at all.
    #[error("the mask has no cell (every character is '#', or the file is empty)")]
    Empty,
    /// A row whose width differs from the first row's.
    #[error("row {row} of the mask has {got} characters, the first row has {want}")]
    Ragged {
        /// 0-based row.
        row: u32,
        /// Its width.
        got: u32,
        /// The first row's width.
        want: u32,
    },
    /// More than [`MAX_CELLS`] cells in the grid.
    #[error("the mask is {width}x{height}, more than the {MAX_CELLS} cells a maze may have")]
    TooLarge {
        /// Columns.
        width: u64,
        /// Rows.
        height: u64,
    },
    /// The cells fall apart into several 4-connected components.
    #[error(
        "the mask is not connected: {count} components (4-neighbour), one cell of each (x,y): {}",
        .cells.iter().map(|(x, y)| format!("{x},{y}")).collect::<Vec<_>>().join(" ")
    )]
    Disconnected {
        /// Number of components.
        count: usize,
        /// The first cell (row order) of each component.
        cells: Vec<(u32, u32)>,
    },
    /// The PNG could not be decoded.
    #[error("the mask is not a readable PNG: {0}")]
    Png(String),
}

/// [`Mask::centre`] of the cells `ids` (row order, not empty) of a grid of width `w`, in exact
/// integer arithmetic: with `n` cells whose coordinates sum to `(sx, sy)`, the distance of
/// `(x, y)` from the centroid is `(n·x − sx, n·y − sy) / n`.
fn centre_cell(ids: &[u32], w: u32) -> u32 {
    let n = ids.len() as i128;
    let (mut sx, mut sy) = (0i128, 0i128);
    for &c in ids {
        sx += (c % w) as i128;
        sy += (c / w) as i128;
    }
    let mut best = (i128::MAX, ids[0]);
    for &c in ids {
        let (dx, dy) = (n * (c % w) as i128 - sx, n * (c / w) as i128 - sy);
        let d = dx * dx + dy * dy;
        if d <= best.0 {
            best = (d, c);
        }
    }
    best.1
}

impl Mask {
    /// A mask from a grid size and a predicate saying which cells exist. Refused if empty or
    /// not connected.
    pub fn from_fn(
        width: u32,
        height: u32,
        is_cell: impl FnMut(u32, u32) -> bool,
    ) -> Result<Mask, MaskError> {
        Mask::build(width, height, is_cell, true)
    }

    /// [`Mask::from_fn`], checking 4-neighbour connectivity only when `connected` (a grid with
    /// other neighbours, [`crate::topo`], checks it on its own cell graph).
    fn build(
        width: u32,
        height: u32,
        mut is_cell: impl FnMut(u32, u32) -> bool,
        connected: bool,
    ) -> Result<Mask, MaskError> {
        if width as u64 * height as u64 > MAX_CELLS {
            return Err(MaskError::TooLarge {
                width: width as u64,
                height: height as u64,
            });
        }
        if width == 0 || height == 0 {
            return Err(MaskError::Empty);
        }
        let size = Size::planar(width, height);
        let n = size.cells();
        let mut bits = vec![0u64; (n as usize).div_ceil(64)];
        let mut ids = Vec::new();
        for y in 0..height {
            for x in 0..width {
                if is_cell(x, y) {
                    let c = y * width + x;
                    bits[(c >> 6) as usize] |= 1 << (c & 63);
                    ids.push(c);
                }
            }
        }
        if ids.is_empty() {
            return Err(MaskError::Empty);
        }
        let mut h = fmix64(0x6d61_736b_6861_7368 ^ ((width as u64) << 32 | height as u64));
        for &w in &bits {
            h = super::Maze::hash_word(h, w);
        }
        let centre = centre_cell(&ids, width);
        let mask = Mask {
            size,
            bits,
            ids,
            hash: h.max(1),
            centre,
        };
        let firsts = if connected {
            mask.component_firsts()
        } else {
            Vec::new()
        };
        if firsts.len() > 1 {
            return Err(MaskError::Disconnected {
                count: firsts.len(),
                cells: firsts.iter().map(|&c| (c % width, c / width)).collect(),
            });
        }
        Ok(mask)
    }

    /// Read a text mask (see the module docs).
    pub fn from_text(text: &str) -> Result<Mask, MaskError> {
        Mask::text_with(text, true)
    }

    fn text_with(text: &str, connected: bool) -> Result<Mask, MaskError> {
        let rows: Vec<&[u8]> = text
            .split('\n')
            .map(|r| r.strip_suffix('\r').unwrap_or(r).as_bytes())
            .collect();
        let rows = match rows.split_last() {
            Some((&[], rest)) => rest,
            _ => &rows[..],
        };
        let Some(first) = rows.first() else {
            return Err(MaskError::Empty);
        };
        let want = first.len();
        for (y, r) in rows.iter().enumerate() {
            if r.len() != want {
                return Err(MaskError::Ragged {
                    row: y as u32,
                    got: r.len() as u32,
                    want: want as u32,
                });
            }
        }
        if want as u64 * rows.len() as u64 > MAX_CELLS {
            return Err(MaskError::TooLarge {
                width: want as u64,
                height: rows.len() as u64,
            });
        }
        Mask::build(
            want as u32,
            rows.len() as u32,
            |x, y| rows[y as usize][x as usize] != b'#',
            connected,
        )
    }

    /// Read a PNG mask (see the module docs).
    #[cfg(feature = "png")]
    pub fn from_png(bytes: &[u8]) -> Result<Mask, MaskError> {
        Mask::png_with(bytes, true)
    }

    #[cfg(feature = "png")]
    fn png_with(bytes: &[u8], connected: bool) -> Result<Mask, MaskError> {
        let err = |e: ::png::DecodingError| MaskError::Png(e.to_string());
        let mut dec = ::png::Decoder::new(std::io::Cursor::new(bytes));
        dec.set_transformations(::png::Transformations::normalize_to_color8());
        let mut reader = dec.read_info().map_err(err)?;
        let mut buf = vec![
            0;
            reader
                .output_buffer_size()
                .ok_or_else(|| MaskError::Png("image too large".into()))?
        ];
        let info = reader.next_frame(&mut buf).map_err(err)?;
        let (w, h) = (info.width, info.height);
        if w as u64 * h as u64 > MAX_CELLS {
            return Err(MaskError::TooLarge {
                width: w as u64,
                height: h as u64,
            });
        }
        let channels = info.color_type.samples();
        let line = info.line_size;
        let is_cell = |x: u32, y: u32| {
            let p = &buf[y as usize * line + x as usize * channels..][..channels];
            let (luma, alpha) = match channels {
                1 => (p[0] as u32, 255),
                2 => (p[0] as u32, p[1] as u32),
                3 => (
                    (p[0] as u32 * 299 + p[1] as u32 * 587 + p[2] as u32 * 114) / 1000,
                    255,
                ),
                _ => (
                    (p[0] as u32 * 299 + p[1] as u32 * 587 + p[2] as u32 * 114) / 1000,
                    p[3] as u32,
                ),
            };
            luma >= 128 && alpha >= 128
        };
        Mask::build(w, h, is_cell, connected)
    }

    /// Read a mask file's bytes: a PNG if they start with the PNG signature, text otherwise.
    pub fn from_bytes(bytes: &[u8]) -> Result<Mask, MaskError> {
        Mask::bytes_with(bytes, true)
    }

    /// [`Mask::from_bytes`] without the 4-neighbour connectivity check: the cells of a mask file
    /// for a grid whose neighbours are not the square ones (hex, triangle; [`crate::topo`]
    /// checks connectivity on its own cell graph).
    pub fn cells_from_bytes(bytes: &[u8]) -> Result<Mask, MaskError> {
        Mask::bytes_with(bytes, false)
    }

    fn bytes_with(bytes: &[u8], connected: bool) -> Result<Mask, MaskError> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            #[cfg(feature = "png")]
            return Mask::png_with(bytes, connected);
            #[cfg(not(feature = "png"))]
            return Err(MaskError::Png(
                "this build has no PNG support (cargo feature `png`)".into(),
            ));
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => Mask::text_with(text, connected),
            Err(e) => Err(MaskError::Png(format!(
                "neither a PNG nor UTF-8 text ({e})"
            ))),
        }
    }

    /// The mask as text (`.` a cell, `#` no cell, one line per row): what
    /// [`Mask::from_text`] reads back, and what a metrics file's metadata records.
    pub fn to_text(&self) -> String {
        let (w, h) = (self.size.width, self.size.height);
        let mut s = String::with_capacity(((w + 1) * h) as usize);
        for y in 0..h {
            for x in 0..w {
                s.push(if self.contains(y * w + x) { '.' } else { '#' });
            }
            s.push('\n');
        }
        s
    }

    /// The grid size (2D).
    #[inline]
    pub fn size(&self) -> Size {
        self.size
    }

    /// Number of cells in the mask.
    #[inline]
    pub fn cells(&self) -> u32 {
        self.ids.len() as u32
    }

    /// Is grid cell `cell` in the mask? (False for ids past the grid.)
    #[inline]
    pub fn contains(&self, cell: u32) -> bool {
        self.bits
            .get((cell >> 6) as usize)
            .is_some_and(|w| w >> (cell & 63) & 1 != 0)
    }

    /// The mask's cells in row order.
    #[inline]
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// The first cell in row order (the default entrance).
    #[inline]
    pub fn first(&self) -> u32 {
        self.ids[0]
    }

    /// The last cell in row order (the default exit).
    #[inline]
    pub fn last(&self) -> u32 {
        self.ids[self.ids.len() - 1]
    }

    /// The mask cell nearest the centroid of its cells (squared Euclidean distance, ties to
    /// the later cell in row order, so a mask of every cell of a `W × H` grid gives
    /// `(W/2, H/2)`): the root of the Wilson walks, where they end soonest on most shapes.
    #[inline]
    pub fn centre(&self) -> u32 {
        self.centre
    }

    /// The identity hash (module docs); never 0.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The cells on a longest shortest path found by two breadth-first sweeps (from the first
    /// cell to a farthest one, then from there): at least half the mask's diameter and exact
    /// on a mask whose corridors form no loop. What a random walk must cross end to end: a
    /// 1-wide corridor winding through a square has a span of about its cell count, a filled
    /// `W × H` rectangle `W + H − 1`.
    pub fn span(&self) -> u32 {
        let (far, _) = self.farthest_from(self.first());
        self.farthest_from(far).1 + 1
    }

    /// A cell farthest (in steps between 4-neighbours inside the mask) from `start`, and its
    /// distance.
    fn farthest_from(&self, start: u32) -> (u32, u32) {
        let w = self.size.width;
        let n = self.size.cells();
        let mut dist = vec![u32::MAX; n as usize];
        let mut queue = Vec::with_capacity(self.ids.len());
        dist[start as usize] = 0;
        queue.push(start);
        let mut head = 0;
        while let Some(&c) = queue.get(head) {
            head += 1;
            let d = dist[c as usize] + 1;
            let (x, id) = (c % w, c);
            let left = (x > 0).then(|| id - 1);
            let right = (x + 1 < w).then_some(id + 1);
            let up = id.checked_sub(w);
            let down = (id + w < n).then_some(id + w);
            for nb in [left, right, up, down].into_iter().flatten() {
                if self.contains(nb) && dist[nb as usize] == u32::MAX {
                    dist[nb as usize] = d;
                    queue.push(nb);
                }
            }
        }
        let last = queue[queue.len() - 1];
        (last, dist[last as usize])
    }

    /// The first cell (row order) of each 4-connected component.
    fn component_firsts(&self) -> Vec<u32> {
        let w = self.size.width;
        let n = self.size.cells() as usize;
        let mut seen = vec![false; n];
        let mut firsts = Vec::new();
        let mut stack = Vec::new();
        for &c in &self.ids {
            if seen[c as usize] {
                continue;
            }
            firsts.push(c);
            seen[c as usize] = true;
            stack.push(c);
            while let Some(u) = stack.pop() {
                let (x, y) = (u % w, u / w);
                let nbs = [
                    (x + 1 < w).then(|| u + 1),
                    (x > 0).then(|| u - 1),
                    (y + 1 < self.size.height).then(|| u + w),
                    (y > 0).then(|| u - w),
                ];
                for v in nbs.into_iter().flatten() {
                    if self.contains(v) && !seen[v as usize] {
                        seen[v as usize] = true;
                        stack.push(v);
                    }
                }
            }
        }
        firsts
    }
}

impl fmt::Debug for Mask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Mask {} ({} cells)\n{}",
            self.size,
            self.cells(),
            self.to_text()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_span_is_the_longest_corridor() {
        // A full 7x3 rectangle: corner to corner, 7 + 3 - 1 cells.
        let full = Mask::from_text(&"#######\n".replace('#', ".").repeat(3)).unwrap();
        assert_eq!(full.span(), 9);
        // A serpentine of three 5-cell rows joined at alternate ends: every cell in one path.
        let line = Mask::from_text(".....\n####.\n.....\n.####\n.....\n").unwrap();
        assert_eq!(line.span(), line.cells());
        // A plus sign: arm to arm through the centre.
        let plus = Mask::from_text("#.#\n...\n#.#\n").unwrap();
        assert_eq!(plus.span(), 3);
        assert_eq!(Mask::from_text(".\n").unwrap().span(), 1);
    }

    #[test]
    fn the_centre_is_the_cell_nearest_the_centroid() {
        // A full grid: (W/2, H/2), odd or even.
        for (w, h) in [(9, 7), (8, 6), (1, 1), (2, 1), (64, 64)] {
            let m = Mask::from_fn(w, h, |_, _| true).unwrap();
            assert_eq!(m.centre(), (h / 2) * w + w / 2, "{w}x{h}");
        }
        // A ring: the centroid is the hole; of the four cells at distance 1 the last one.
        assert_eq!(Mask::from_text("...\n.#.\n...\n").unwrap().centre(), 7);
        // An L: cells (0,0) (0,1) (0,2) (1,2) (2,2), centroid (0.6, 1.4); (0,1) and (1,2)
        // tie at squared distance 0.52, and the later one wins.
        let l = Mask::from_text(".##\n.##\n...\n").unwrap();
        assert_eq!(l.centre(), 2 * 3 + 1);
        // A disc is centred whatever its first row looks like, unlike the middle cell in row
        // order (which lies on its rim).
        let r = 10.0f64;
        let disc = Mask::from_fn(20, 20, |x, y| {
            let (dx, dy) = (x as f64 + 0.5 - r, y as f64 + 0.5 - r);
            dx * dx + dy * dy <= r * r
        })
        .unwrap();
        assert_eq!(disc.centre(), 10 * 20 + 10);
        assert_eq!(disc.ids()[disc.ids().len() / 2] % 20, 0);
    }

    #[test]
    fn text_masks_parse_and_round_trip() {
        let m = Mask::from_text("...\n.#.\n...\n").unwrap();
        assert_eq!(m.size(), Size::planar(3, 3));
        assert_eq!(m.cells(), 8);
        assert!(!m.contains(4));
        assert_eq!((m.first(), m.last()), (0, 8));
        assert_eq!(m.to_text(), "...\n.#.\n...\n");
        assert_eq!(Mask::from_text(&m.to_text()).unwrap(), m);
        let crlf = Mask::from_text("ab#\r\ncde\r\n").unwrap();
        assert_eq!(crlf.ids(), &[0, 1, 3, 4, 5]);
        assert_ne!(crlf.hash(), m.hash());
        assert_ne!(m.hash(), 0);
    }

    #[test]
    fn bad_masks_are_refused_with_their_reason() {
        assert_eq!(Mask::from_text(""), Err(MaskError::Empty));
        assert_eq!(Mask::from_text("##\n##\n"), Err(MaskError::Empty));
        assert_eq!(
            Mask::from_text("...\n..\n"),
            Err(MaskError::Ragged {
                row: 1,
                got: 2,
                want: 3
            })
        );
        let e = Mask::from_text(".#.\n##.\n.##\n").unwrap_err();
        assert_eq!(
            e,
            MaskError::Disconnected {
                count: 3,
                cells: vec![(0, 0), (2, 0), (0, 2)]
            }
        );
        assert!(e.to_string().contains("3 components"), "{e}");
        assert!(e.to_string().contains("0,0 2,0 0,2"), "{e}");
    }

    #[cfg(feature = "png")]
    #[test]
    fn png_masks_read_dark_pixels_as_holes() {
        // A 3x2 grey image: one dark pixel at (1, 0).
        let mut out = Vec::new();
        {
            let mut enc = ::png::Encoder::new(&mut out, 3, 2);
            enc.set_color(::png::ColorType::Grayscale);
            enc.set_depth(::png::BitDepth::Eight);
            let mut w = enc.write_header().unwrap();
            w.write_image_data(&[255, 0, 255, 255, 255, 200]).unwrap();
        }
        let m = Mask::from_bytes(&out).unwrap();
        assert_eq!(m, Mask::from_text(".#.\n...\n").unwrap());
    }
}
