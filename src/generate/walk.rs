//! Wilson's algorithm's walk parts, for any [`Walk`] topology: the loop-erased
//! walks themselves ([`loop_erased_walks`]: the start cells in cell-id order, a walk from each
//! one not yet in the tree, and its loop-erased path added to the tree), the search for the
//! next start cell eight bytes at a time ([`next_free`]), and the buffer of random directions a
//! uniform walk takes its steps from ([`Dirs`]).

use std::marker::PhantomData;

use super::padded::{FREE, IN_TREE, OUTSIDE};
use super::topology::Walk;
use crate::rng::RandomSource;

/// Random directions drawn a block at a time ([`Walk::draw_block`]: 32 to a word in 2D, one in
/// 3D) and handed out one by one: one refill test per step instead of one draw.
#[derive(Clone, Copy, Debug)]
pub(super) struct Dirs<T> {
    block: u64,
    left: u32,
    shape: PhantomData<T>,
}

impl<T: Walk> Dirs<T> {
    /// An empty buffer (the first [`Dirs::next`] draws).
    #[inline(always)]
    pub(super) fn new() -> Dirs<T> {
        Dirs {
            block: 0,
            left: 0,
            shape: PhantomData,
        }
    }

    /// True when the buffer is spent and a walk's next step needs a [`Dirs::refill`] first: a
    /// walk counts its steps a block at a time there ([`super::shared::Poll`]).
    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        self.left == 0
    }

    /// Draw a new block of [`Walk::BLOCK`] directions (the buffer must be empty).
    #[inline(always)]
    pub(super) fn refill<R: RandomSource>(&mut self, rng: &mut R) {
        debug_assert!(self.is_empty());
        self.block = T::draw_block(rng);
        self.left = T::BLOCK;
    }

    /// The buffered directions and how many are left: a walk takes them with
    /// [`Walk::take_dir`] in a loop of its own, which keeps both in registers and tests only
    /// the count per step, then puts back what it leaves with [`Dirs::keep`].
    #[inline(always)]
    pub(super) fn take(&self) -> (u64, u32) {
        (self.block, self.left)
    }

    /// Put back the directions a walk left in its block (see [`Dirs::take`]).
    #[inline(always)]
    pub(super) fn keep(&mut self, block: u64, left: u32) {
        (self.block, self.left) = (block, left);
    }
}

/// Wilson's `RandomTreeWithRoot` on the padded state of `t`: `root` joins the tree, then from
/// each cell not yet in it, in cell-id order, `walk(mark, next, to, start)` walks until it
/// meets the tree, recording in `next[u]` the direction it last left each cell `u` by and in
/// `to[u]` the padded index of the cell that step led to; following `to` from the start is then
/// the loop-erased path, for any walk (Markov or not), and it joins the tree. The retrace reads
/// `to` (one load per cell on its chain, where a direction would need a second one for its
/// step); `next` is what the carve reads afterwards. `to` grows to `mark`'s length if it is
/// shorter; its entries need no initial value (the retrace only reads the ones the walk wrote). Returns
/// false when a walk returns false (a caught signal stopped it, see [`super::shared::Poll`]).
#[inline(always)]
pub(super) fn loop_erased_walks<T: Walk>(
    t: &T,
    mark: &mut [u8],
    next: &mut [u8],
    to: &mut Vec<u32>,
    root: u32,
    mut walk: impl FnMut(&[u8], &mut [u8], &mut [u32], u32) -> bool,
) -> bool {
    if to.len() < mark.len() {
        to.resize(mark.len(), 0);
    }
    let to = &mut to[..];
    mark[root as usize] = IN_TREE;
    for r in 0..t.rows() {
        let row = t.row_start(r);
        let end = row + t.width();
        let mut start = row;
        loop {
            start = next_free::<MARKED>(mark, start, end);
            if start == end {
                break;
            }
            if !walk(mark, next, to, start) {
                return false;
            }
            // Retrace the loop-erased path and add it to the tree.
            let mut u = start;
            debug_assert!(to.len() >= mark.len());
            // SAFETY: `u` is the start, then a cell whose `to` the walk wrote (it left every
            // cell of the path by a step onto the grid), so `u` is a grid cell, inside `mark`
            // and `to` (at least as long).
            while unsafe { *mark.get_unchecked(u as usize) } == FREE {
                unsafe {
                    *mark.get_unchecked_mut(u as usize) = IN_TREE;
                    u = *to.get_unchecked(u as usize);
                }
            }
            start += 1;
        }
    }
    true
}

/// The bits of a cell's mark that a cell not yet in the tree has clear ([`FREE`] is 0).
const MARKED: u8 = IN_TREE | OUTSIDE;
const _: () = assert!(FREE == 0 && MARKED < 0x80);

/// The first cell in `from..end` whose byte in `state` has none of the bits `TAKEN` set (not in
/// the tree), or `end` when there is none. Eight bytes at a time: one branch per word instead
/// of one per cell. Whether a start cell is already in the tree is a coin flip to a branch
/// predictor, while a word of eight taken cells (or the next free one in the same word) is the
/// common case. `TAKEN` must be below `0x80`.
#[inline(always)]
pub(super) fn next_free<const TAKEN: u8>(state: &[u8], from: u32, end: u32) -> u32 {
    const { assert!(TAKEN < 0x80) };
    let bytes = |b: u8| u64::from_le_bytes([b; 8]);
    let mut p = from as usize;
    while p < end as usize {
        let Some(word) = state.get(p..p + 8) else {
            // The last few bytes of the array: one at a time.
            return (p..end as usize)
                .find(|&q| state[q] & TAKEN == 0)
                .map_or(end, |q| q as u32);
        };
        let taken = u64::from_le_bytes(word.try_into().expect("8 bytes")) & bytes(TAKEN);
        // A bit in each byte with none of `TAKEN`: for one bit, that bit itself clear; for
        // more, the byte's top bit after adding 0x7f, which carries into it exactly when the
        // byte is not 0 (and never into the next byte: the byte is below 0x80).
        let free = if TAKEN.is_power_of_two() {
            taken ^ bytes(TAKEN)
        } else {
            !taken.wrapping_add(bytes(0x7f)) & bytes(0x80)
        };
        if free != 0 {
            // Bytes past `end` (the ring, then the next row) may count as free here; the
            // minimum clips them.
            return (p as u32 + free.trailing_zeros() / 8).min(end);
        }
        p += 8;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// `next_free` against a scan of one byte at a time, for one taken bit (biased Wilson's
    /// `JOINED`, 16) and for two (the marks, in-tree 1 and outside 2), on random bytes and
    /// every `from..end` of arrays of 0 to 20 bytes: the clipping at `end`, the whole words and
    /// the tail of the array all give the first free cell.
    #[test]
    fn next_free_finds_the_first_cell_not_in_the_tree() {
        fn check<const TAKEN: u8>(rng: &mut Rng) {
            for len in 0..=20usize {
                for _ in 0..50 {
                    // Mostly taken, as late in a maze, so that whole words are skipped too.
                    let state: Vec<u8> = (0..len)
                        .map(|_| {
                            // Any byte below 0x80: some of `TAKEN`'s bits set or none.
                            let b = rng.bits(7) as u8;
                            if b & TAKEN == 0 && rng.bits(1) == 1 {
                                b | TAKEN
                            } else {
                                b
                            }
                        })
                        .collect();
                    for from in 0..=len as u32 {
                        for end in from..=len as u32 {
                            let want = (from..end).find(|&q| state[q as usize] & TAKEN == 0);
                            assert_eq!(
                                next_free::<TAKEN>(&state, from, end),
                                want.unwrap_or(end),
                                "{state:?} from {from} to {end}"
                            );
                        }
                    }
                }
            }
        }
        let mut rng = Rng::from_maze_seed(7);
        check::<16>(&mut rng);
        check::<MARKED>(&mut rng);
    }
}
