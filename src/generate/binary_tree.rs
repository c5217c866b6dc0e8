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

use super::shared::or_bits;
use super::Scratch;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Carve a binary-tree maze (north/east bias).
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    let (w, h) = (maze.width(), maze.height());
    let n = maze.cells();
    let words = maze.cell_bitset_words();
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
    maze.set_from_cell_bitsets(east, north);
}
