//! The word-parallel first pass of [`measure`](super::measure): from the wall words alone, count
//! the cells by degree (dead ends, corridors, straights, junctions) with popcounts over whole
//! words, and lay out every cell's four open sides as a nibble (E=1, S=2, W=4, N=8) so the
//! traversal reads a cell's mask with one load and no border test.
//!
//! A wall word holds 32 cells, east bit at `2k`, south bit at `2k+1`. A cell's west side is the
//! east bit of the previous cell (the wall stream shifted by 2 bits) and its north side the south
//! bit of the cell one row up (the stream shifted by `2·width` bits); border walls are never
//! open, so a row's first cell sees the closed east wall of the previous row's last cell. The
//! four sides are then added as bit planes (a 3-bit counter per cell, no per-cell branch).

/// Cells by degree, from [`prepare`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Degrees {
    /// Degree 1.
    pub dead_ends: u32,
    /// Degree ≥ 3.
    pub junctions: u32,
    /// Degree 2.
    pub corridors: u32,
    /// Degree 2, open on opposite sides.
    pub straights: u32,
}

const EVEN: u64 = 0x5555_5555_5555_5555;

/// Spread the 16 two-bit groups of `x` to a four-bit stride (group `k` to bits `4k..4k+2`).
#[inline(always)]
fn spread(x: u32) -> u64 {
    let mut x = x as u64;
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    (x | x << 2) & 0x3333_3333_3333_3333
}

/// Count degrees and fill `nib` (16 cells per word, see the module docs) for a maze of the given
/// `width` whose wall words are `words` (bits past the last cell are zero).
pub(super) fn prepare(words: &[u64], width: u32, nib: &mut Vec<u64>) -> Degrees {
    let nw = words.len();
    nib.clear();
    nib.resize(2 * nw + 1, 0);
    let shift = 2 * width as usize;
    let (q, r) = (shift / 64, (shift % 64) as u32);
    let word = |i: usize, back: usize| if i >= back { words[i - back] } else { 0 };
    let mut d = Degrees::default();
    let mut prev = 0u64;
    for (i, &own) in words.iter().enumerate() {
        let west = (own << 2 | prev >> 62) & EVEN;
        prev = own;
        let up = if r == 0 {
            word(i, q)
        } else {
            word(i, q) << r | word(i, q + 1) >> (64 - r)
        };
        let north = up & !EVEN;
        let (e, s, w, n) = (own & EVEN, own >> 1 & EVEN, west, north >> 1);
        // A 3-bit counter per cell: (e + s) + (w + n).
        let (s1, c1) = (e ^ s, e & s);
        let (s2, c2) = (w ^ n, w & n);
        let b0 = s1 ^ s2;
        let k0 = s1 & s2;
        let b1 = c1 ^ c2 ^ k0;
        let b2 = (c1 & c2) | (k0 & (c1 | c2));
        d.dead_ends += (b0 & !b1 & !b2).count_ones();
        d.corridors += (!b0 & b1 & !b2 & EVEN).count_ones();
        d.junctions += ((b0 & b1) | b2).count_ones();
        d.straights += ((e & w & !(s | n)) | (s & n & !(e | w))).count_ones();
        let wn = west | north;
        nib[2 * i] = spread(own as u32) | spread(wn as u32) << 2;
        nib[2 * i + 1] = spread((own >> 32) as u32) | spread((wn >> 32) as u32) << 2;
    }
    d
}

/// The open sides of cell `v` (E=1, S=2, W=4, N=8) from the table [`prepare`] filled.
#[inline(always)]
pub(super) fn mask(nib: &[u64], v: u32) -> u32 {
    (nib[(v >> 4) as usize] >> ((v & 15) * 4)) as u32 & 15
}
