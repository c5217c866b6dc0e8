//! Wilson's algorithm's walk parts, for any [`Walk`] topology: the loop-erased
//! walks themselves ([`loop_erased_walks`]: the start cells in cell-id order, a walk from each
//! one not yet in the tree, and its loop-erased path added to the tree), and the buffer of
//! random directions a uniform walk takes its steps from ([`Dirs`]).

use std::marker::PhantomData;

use super::padded::{FREE, IN_TREE};
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

    /// True when the next [`Dirs::next`] draws a new block: a walk counts its steps a block at
    /// a time there ([`super::shared::Poll`]), on a test the refill makes anyway.
    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        self.left == 0
    }

    /// The next direction, `0..T::DIRS`.
    #[inline(always)]
    pub(super) fn next<R: RandomSource>(&mut self, rng: &mut R) -> usize {
        if self.left == 0 {
            self.block = T::draw_block(rng);
            self.left = T::BLOCK;
        }
        self.left -= 1;
        T::take_dir(&mut self.block)
    }
}

/// Wilson's `RandomTreeWithRoot` on the padded state of `t`: `root` joins the tree, then from
/// each cell not yet in it, in cell-id order, `walk(mark, next, start)` walks until it meets
/// the tree, recording in `next[u]` the direction it last left each cell `u` by; following
/// `next` from the start is then the loop-erased path, for any walk (Markov or not), and it
/// joins the tree. Returns false when a walk returns false (a caught signal stopped it, see
/// [`super::shared::Poll`]).
#[inline(always)]
pub(super) fn loop_erased_walks<T: Walk>(
    t: &T,
    mark: &mut [u8],
    next: &mut [u8],
    root: u32,
    mut walk: impl FnMut(&[u8], &mut [u8], u32) -> bool,
) -> bool {
    mark[root as usize] = IN_TREE;
    for r in 0..t.rows() {
        let row = t.row_start(r);
        for start in row..row + t.width() {
            if mark[start as usize] != FREE {
                continue;
            }
            if !walk(mark, next, start) {
                return false;
            }
            // Retrace the loop-erased path and add it to the tree.
            let mut u = start;
            while mark[u as usize] == FREE {
                mark[u as usize] = IN_TREE;
                u = u.wrapping_add(t.step(next[u as usize] as usize));
            }
        }
    }
    true
}
