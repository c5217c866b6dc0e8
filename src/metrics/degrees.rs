//! The word-parallel first pass of [`measure`](super::measure): from the wall words alone, count
//! the cells by degree (dead ends, corridors, straights, junctions) with popcounts over whole
//! words, and lay out every cell's open sides as a byte (E=1, S=2, W=4, N=8, and in 3D Down=16,
//! Up=32: the bits of [`Maze::open_mask`]) so the traversal reads a cell's mask with one byte
//! load and no border test.
//!
//! The grid hands out the four planar sides of 32 cells at a time as bit planes
//! ([`Maze::planar_sides`], cell `k` at bit `2k`); in 3D the down and up sides come in the same
//! layout ([`Maze::vertical_sides`]). The sides are added as bit
//! planes (a 3-bit counter per cell, no per-cell branch). [`prepare`] is the 2D pass (depth 1),
//! [`prepare_3d`] the 6-neighbour one.

use crate::grid::Maze;

/// Cells by degree, from [`prepare`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Degrees {
    /// Degree 1.
    pub dead_ends: u32,
    /// Degree ≥ 3.
    pub junctions: u32,
    /// Degree 2.
    pub corridors: u32,
    /// Degree 2, open on opposite sides.
    pub straights: u32,
    /// [`Maze::hash`], folded in word by word during the pass.
    pub hash: u64,
}

const EVEN: u64 = 0x5555_5555_5555_5555;

/// Spread the 8 two-bit groups of `x` to a byte stride (group `k` to bits `8k..8k+2`).
#[inline(always)]
fn spread(x: u64) -> u64 {
    let mut x = x & 0xffff;
    x = (x | x << 24) & 0x0000_00ff_0000_00ff;
    x = (x | x << 12) & 0x000f_000f_000f_000f;
    (x | x << 6) & 0x0303_0303_0303_0303
}

/// Grow `masks` to hold `maze` (32 bytes per planar word, never shrunk); the planar word count.
#[inline(always)]
fn size_masks(maze: &Maze, masks: &mut Vec<u8>) -> usize {
    let nw = maze.planar_words().len();
    if masks.len() < 32 * nw {
        masks.resize(32 * nw, 0);
    }
    nw
}

/// Count degrees and fill `masks` (one byte per cell, see the module docs; at least the cell
/// count rounded up to 32) for a 2D `maze` (its down and up sides are ignored). Inlined into
/// the 2D measure, as it was before 3D (fewer instructions than a call; callgrind).
#[inline(always)]
pub(crate) fn prepare(maze: &Maze, masks: &mut Vec<u8>) -> Degrees {
    prepare_with(maze, masks, |_, _| {})
}

/// [`prepare`] that also hands each planar word's dead ends to `dead`: the word's index `i` and
/// a plane with bit `2k` set when cell `32·i + k` has exactly one open side (the braid pass
/// lists its dead ends from it, in the same pass that lays out the sides).
#[inline(always)]
pub(crate) fn prepare_with(
    maze: &Maze,
    masks: &mut Vec<u8>,
    mut dead: impl FnMut(usize, u64),
) -> Degrees {
    size_masks(maze, masks);
    let mut d = Degrees::default();
    // A 2D maze's words are all planar: the hash reads the same word as the sides.
    let words = maze.words();
    let mut h = maze.hash_start();
    for (i, sides) in maze.planar_sides().enumerate() {
        h = Maze::hash_word(h, words[i]);
        let (e, s, w, n) = (sides.east, sides.south, sides.west, sides.north);
        // A 3-bit counter per cell: (e + s) + (w + n).
        let (s1, c1) = (e ^ s, e & s);
        let (s2, c2) = (w ^ n, w & n);
        let b0 = s1 ^ s2;
        let k0 = s1 & s2;
        let b1 = c1 ^ c2 ^ k0;
        let b2 = (c1 & c2) | (k0 & (c1 | c2));
        let one = b0 & !b1 & !b2;
        dead(i, one);
        d.dead_ends += one.count_ones();
        d.corridors += (!b0 & b1 & !b2 & EVEN).count_ones();
        d.junctions += ((b0 & b1) | b2).count_ones();
        d.straights += ((e & w & !(s | n)) | (s & n & !(e | w))).count_ones();
        let out: &mut [u8; 32] = (&mut masks[32 * i..32 * i + 32]).try_into().expect("32");
        lay_out(e | s << 1, w | n << 1, out);
    }
    d.hash = h;
    d
}

/// The open-sides bytes of 32 cells (E=1, S=2, W=4, N=8) from the planes `es` (east at bit
/// `2k`, south at `2k + 1`) and `wn` (west, north) into `out`. With SSE2 (every x86-64): each
/// byte of a plane, four cells, is copied to the four output bytes of those cells, which pick
/// their own bits by a mask and a compare; about half the instructions of the shifts below.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn lay_out(es: u64, wn: u64, out: &mut [u8; 32]) {
    use std::arch::x86_64::*;
    // Each byte of `v` four times over.
    #[inline(always)]
    fn fan(v: u64) -> __m128i {
        // SAFETY: SSE2 is enabled (the `cfg` above; every x86-64 target has it).
        unsafe {
            let x = _mm_cvtsi32_si128(v as u32 as i32);
            let x = _mm_unpacklo_epi8(x, x);
            _mm_unpacklo_epi16(x, x)
        }
    }
    // The bytes of `v` with all the bits of `pick` set, as `to`; the others 0.
    #[inline(always)]
    fn bit(v: __m128i, pick: u32, to: i8) -> __m128i {
        // SAFETY: as in `fan`.
        unsafe {
            let pick = _mm_set1_epi32(pick as i32);
            _mm_and_si128(
                _mm_cmpeq_epi8(_mm_and_si128(v, pick), pick),
                _mm_set1_epi8(to),
            )
        }
    }
    // Output byte `4i + j` holds cell `4i + j`'s sides at bits `2j` and `2j + 1`.
    let (low, high) = (0x4010_0401, 0x8020_0802);
    for (half, chunk) in out.chunks_exact_mut(16).enumerate() {
        let (x, y) = (fan(es >> (32 * half)), fan(wn >> (32 * half)));
        // SAFETY: as in `fan`; `chunk` is 16 bytes, the width of the unaligned store.
        unsafe {
            let sides = _mm_or_si128(
                _mm_or_si128(bit(x, low, 1), bit(x, high, 2)),
                _mm_or_si128(bit(y, low, 4), bit(y, high, 8)),
            );
            _mm_storeu_si128(chunk.as_mut_ptr().cast(), sides);
        }
    }
}

/// [`lay_out`] without SSE2: each 16 bits of a plane spread to 8 bytes by shifts.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn lay_out(es: u64, wn: u64, out: &mut [u8; 32]) {
    for (j, chunk) in out.chunks_exact_mut(8).enumerate() {
        let bytes = spread(es >> (16 * j)) | spread(wn >> (16 * j)) << 2;
        chunk.copy_from_slice(&bytes.to_le_bytes());
    }
}

/// A full adder over bit planes: `(sum, carry)` of `a + b + c` per bit.
#[inline(always)]
fn add3(a: u64, b: u64, c: u64) -> (u64, u64) {
    let t = a ^ b;
    (t ^ c, (a & b) | (t & c))
}

/// [`prepare`] for a maze of any depth: six sides per cell (up to degree 6), a straight being a
/// corridor open east+west, north+south or down+up.
pub(crate) fn prepare_3d(maze: &Maze, masks: &mut Vec<u8>) -> Degrees {
    prepare_3d_with(maze, masks, |_, _| {})
}

/// [`prepare_3d`] that also hands each planar word's dead ends to `dead`, as
/// [`prepare_with`] does.
#[inline(always)]
pub(crate) fn prepare_3d_with(
    maze: &Maze,
    masks: &mut Vec<u8>,
    mut dead: impl FnMut(usize, u64),
) -> Degrees {
    let nw = size_masks(maze, masks);
    let mut d = Degrees::default();
    let words = maze.words();
    let mut h = maze.hash_start();
    for (i, (sides, vert)) in maze.planar_sides().zip(maze.vertical_sides()).enumerate() {
        h = Maze::hash_word(h, words[i]);
        let (e, s, w, n) = (sides.east, sides.south, sides.west, sides.north);
        let (dn, up) = (vert.down, vert.up);
        // A 3-bit counter per cell: (e + s + w) + (n + dn + up), at most 6.
        let (s1, c1) = add3(e, s, w);
        let (s2, c2) = add3(n, dn, up);
        let b0 = s1 ^ s2;
        let k0 = s1 & s2;
        let (b1, b2) = add3(c1, c2, k0);
        let one = b0 & !b1 & !b2;
        dead(i, one);
        d.dead_ends += one.count_ones();
        d.corridors += (!b0 & b1 & !b2 & EVEN).count_ones();
        d.junctions += ((b0 & b1) | b2).count_ones();
        let (ew, sn, vert) = (e & w, s & n, dn & up);
        let (ew_any, sn_any, vert_any) = (e | w, s | n, dn | up);
        d.straights += ((ew & !(sn_any | vert_any))
            | (sn & !(ew_any | vert_any))
            | (vert & !(ew_any | sn_any)))
            .count_ones();
        let (es, wn, du) = (e | s << 1, w | n << 1, dn | up << 1);
        let out = &mut masks[32 * i..32 * i + 32];
        for (j, chunk) in out.chunks_exact_mut(8).enumerate() {
            let bytes =
                spread(es >> (16 * j)) | spread(wn >> (16 * j)) << 2 | spread(du >> (16 * j)) << 4;
            chunk.copy_from_slice(&bytes.to_le_bytes());
        }
    }
    // The down plane follows the planar words (the order of `Maze::hash`).
    d.hash = words[nw..].iter().fold(h, |h, &w| Maze::hash_word(h, w));
    d
}
