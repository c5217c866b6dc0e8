//! Binary tree: every cell except the north-east corner opens exactly one wall, north or east,
//! chosen by a fair coin; cells on the north row can only go east and cells in the east column
//! only north.
//!
//! Each cell's passage leads strictly towards the north-east corner, so the passages form a
//! tree rooted there with exactly `W·H − 1` edges. It is the fastest generator (one buffered
//! bit per cell) and the most biased: the north row and east column are open corridors and
//! every path to the north-east corner is monotone. North/east is the usual convention
//! (Jamis Buck, knossos's default).
//!
//! Speed: no per-cell branch. The coins of a row are drawn up to 64 at a time
//! ([`RandomSource::coins`], the same coins in the same order as one `coin()` per cell) into a
//! bitset `N` over the cells (`N[c]` = cell `c` opens north). The wall words are then written
//! whole: the 32 cells of a word open east where `N` is clear and south where `N` of the cell
//! below is set, each half spread to the even or odd bits of the word.

use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Spread the 32 bits of `x` to the even bits of a word (bit `i` to bit `2i`).
#[inline]
pub(super) fn spread(x: u32) -> u64 {
    let mut v = x as u64;
    v = (v | v << 16) & 0x0000_ffff_0000_ffff;
    v = (v | v << 8) & 0x00ff_00ff_00ff_00ff;
    v = (v | v << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    v = (v | v << 2) & 0x3333_3333_3333_3333;
    (v | v << 1) & 0x5555_5555_5555_5555
}

/// The 32 bits of bitset `b` starting at bit `p` (`b` must hold at least one word past them).
#[inline]
pub(super) fn bits32(b: &[u64], p: u32) -> u32 {
    let i = (p >> 6) as usize;
    let pair = (b[i + 1] as u128) << 64 | b[i] as u128;
    (pair >> (p & 63)) as u32
}

/// OR the 64 bits of `v` into bitset `b` at bit `p` (`b` must hold the word after `p`'s).
#[inline]
pub(super) fn or_bits(b: &mut [u64], p: u32, v: u64) {
    let i = (p >> 6) as usize;
    let o = p & 63;
    b[i] |= v << o;
    b[i + 1] |= (v >> 1) >> (63 - o);
}

/// Write every wall word from two cell bitsets: `east[c]` = cell `c` opens east, `north[c]` =
/// cell `c` opens north (so cell `c` opens south when `north[c + W]`). Bits at or past
/// `W·H` in both must be clear, and both need two spare words past `W·H + W` bits.
pub(super) fn write_walls(maze: &mut Maze, east: &[u64], north: &[u64]) {
    let w = maze.width();
    for (j, word) in maze.words_mut().iter_mut().enumerate() {
        let c0 = 32 * j as u32;
        *word = spread(bits32(east, c0)) | spread(bits32(north, c0 + w)) << 1;
    }
}

/// Words a cell bitset needs for [`write_walls`] and [`or_bits`].
#[inline]
pub(super) fn bitset_words(n: u32, w: u32) -> usize {
    (n + w) as usize / 64 + 3
}

/// Carve a binary-tree maze (north/east bias).
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let n = maze.cells();
    let words = bitset_words(n, w);
    // `stack` holds two bitsets: north openings, then east openings.
    s.stack.clear();
    s.stack.resize(2 * words, 0);
    let (north, east) = s.stack.split_at_mut(words);
    for y in 1..h {
        let row = y * w;
        let end = row + w - 1;
        let mut p = row;
        while p < end {
            let k = (end - p).min(64);
            or_bits(north, p, rng.coins(k));
            p += k;
        }
        // East column: only north is possible.
        north[(end >> 6) as usize] |= 1 << (end & 63);
    }
    // East opens where north does not, except in the east column and past the last cell.
    for (i, (e, &nb)) in east.iter_mut().zip(north.iter()).enumerate() {
        let first = 64 * i as u32;
        if first >= n {
            break;
        }
        let valid = if n - first >= 64 {
            u64::MAX
        } else {
            (1u64 << (n - first)) - 1
        };
        *e = !nb & valid;
    }
    // Row 0 never opens north, so its east column cell is the only one left to close.
    east[((w - 1) >> 6) as usize] &= !(1u64 << ((w - 1) & 63));
    write_walls(maze, east, north);
}
