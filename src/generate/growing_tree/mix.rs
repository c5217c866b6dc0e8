//! The `mix:P` policy of the growing tree ([`super`]), written without branches
//! on what is random: the same draws, in the same order, and the same mazes as the general loop
//! there. Each step flips the policy's coin (newest or a random live entry) and then either
//! carves or retires; both are unpredictable, and as branches they cost about 2.5
//! mispredictions per cell. Here the coin only selects between two candidates, the draw of the
//! random one is kept or dropped by conditional moves ([`RandomSource::choose_flat_when`], whose
//! value is computed before the coin is known), and carving and retiring are one step whose
//! writes are selected.
//!
//! Finding the newest live entry needs no loop: the live entries are also threaded on a
//! circular doubly linked list of entry indices (`link[2i]` the next live entry, `link[2i + 1]`
//! the previous one, sentinel `end`), so the newest is one load, and the retired entries above
//! it leave the list (`len` as if they were skipped one by one, so random picks see the same
//! span). A random pick that lands on a retired entry redraws (the rare case that loops), and
//! the list is compacted in order once retired entries outnumber live ones, exactly as in the
//! general loop. Slot `cells` of both buffers takes the unused new entry of a step that retires.

use super::{at_least, padded, RETIRED};
use crate::generate::padded::{random_cell, IN_TREE as ACTIVE};
use crate::generate::shared::{free_option, free_options};
use crate::generate::topology::{marks_and_free_masks, Topology};
use crate::generate::Scratch;
use crate::grid::Maze;
use crate::rng::{with_local_rng, Chance, RandomSource};

/// `a` when `c`, else `b`, by a conditional move (no branch on an unpredictable `c`).
#[inline(always)]
fn select(c: bool, a: usize, b: usize) -> usize {
    std::hint::select_unpredictable(c, a, b)
}

/// The active list: entries `0..len` of `Scratch::stack` (live and retired), the live ones
/// also linked in `Scratch::cells`.
struct Active {
    /// Entries in the list (live and retired).
    len: usize,
    /// Live entries (the other `len - live` are retired).
    live: usize,
    /// The sentinel of the linked list of live entries.
    end: usize,
    /// The last live entry (`link[2 * end + 1]`, `end` when none), kept in a register too.
    top: usize,
    /// The chance of taking the newest cell.
    newest: Chance,
}

impl Active {
    /// The list holding just the start cell (padded `p`, cell `c`), in `stack` and `link`,
    /// grown to hold `cells` entries and the dump slot.
    #[inline(always)]
    fn start(
        stack: &mut Vec<u64>,
        link: &mut Vec<u32>,
        cells: usize,
        mark: &mut [u8],
        p: u32,
        c: u32,
        newest: f64,
    ) -> Active {
        at_least(stack, cells + 1);
        at_least(link, 2 * (cells + 2));
        let end = cells + 1;
        link[2 * end] = end as u32;
        link[2 * end + 1] = end as u32;
        let mut active = Active {
            len: 0,
            live: 0,
            end,
            top: end,
            newest: Chance::new(newest),
        };
        active.step(stack, link, mark, true, 0, p, c);
        active
    }

    /// The index of the entry picked next: the newest live one with the policy's chance,
    /// otherwise a uniform live one (redrawn while retired).
    #[inline(always)]
    fn pick<R: RandomSource>(&mut self, stack: &[u64], mark: &[u8], rng: &mut R) -> usize {
        let newest = rng.unit_below(self.newest);
        // The last live entry; the ones above it are retired and leave the list when it is
        // picked.
        let top = self.top;
        // A random pick draws over the whole list, whose length the coin does not change
        // then: its multiply starts on the old length without waiting for the coin.
        let r = rng.choose_flat_when(!newest, self.len as u32) as usize;
        let len = select(newest, top + 1, self.len);
        self.len = len;
        let span = len as u32;
        let mut i = select(newest, top, r);
        // SAFETY: `i < len <= stack.len()` (`top` is a live entry when any is live, and a
        // draw is below `len`), and an entry's padded index is a grid cell's, inside `mark`.
        while unsafe { *mark.get_unchecked(padded(*stack.get_unchecked(i))) } == RETIRED {
            i = rng.choose(span) as usize;
        }
        i
    }

    /// One step from entry `i`: add the entry `(np, nc)` (padded, cell) after the last when
    /// `add`, else retire `i` (it has no free neighbour left). Branch-free; compacts the list
    /// in order once retired entries outnumber live ones.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn step(
        &mut self,
        stack: &mut [u64],
        link: &mut [u32],
        mark: &mut [u8],
        add: bool,
        i: usize,
        np: u32,
        nc: u32,
    ) {
        let (new, end) = (self.len, self.end);
        let top = self.top;
        // The bound checks of the list's indices were a fifth of the step's instructions.
        // Every entry index here is at most `end`: `i < len` (a pick; 0 for the first step, of
        // `start`), `new = len <= cells`, `top` is an entry or `end`, and when retiring
        // `prev` and `next` are the live entry `i`'s neighbours on the list: entries or `end`.
        // (The first step adds, and an adding step only reads `prev` and `next` into
        // conditional moves that drop them: they may be stale words of an earlier maze.)
        // `start` sized `link` to `2 * (end + 1)` words and `stack` to `cells + 1 = end`.
        debug_assert!(i <= new && new < end && stack.len() >= end && link.len() >= 2 * end + 2);
        // SAFETY: by the above, every `link` index is at most `2 * end + 1 < link.len()` and
        // every `stack` index (`i`, `new`) is below `end <= stack.len()`.
        let (p, prev, next) = unsafe {
            (
                padded(*stack.get_unchecked(i)),
                *link.get_unchecked(2 * i + 1) as usize,
                *link.get_unchecked(2 * i) as usize,
            )
        };
        debug_assert!(top <= end && (add || (prev <= end && next <= end)));
        // SAFETY: as above: every index is `2 * x` or `2 * x + 1` for an entry `x <= end`
        // (`prev` and `next` reach an address only when retiring), or an entry below `end`.
        unsafe {
            // The new entry's slot (the dump slot `cells` when the list is full and this
            // retires).
            *stack.get_unchecked_mut(new) = (np as u64) << 32 | nc as u64;
            *link.get_unchecked_mut(2 * new) = end as u32;
            *link.get_unchecked_mut(2 * new + 1) = top as u32;
            // Adding: top -> new -> end. Retiring: prev -> next.
            *link.get_unchecked_mut(2 * select(add, top, prev)) = select(add, new, next) as u32;
            *link.get_unchecked_mut(2 * select(add, end, next) + 1) = select(add, new, prev) as u32;
        }
        let q = select(add, np as usize, p);
        debug_assert!(q < mark.len());
        // SAFETY: `p` is the padded index of entry `i`'s grid cell and `np` (when adding) of a
        // free neighbour of it, both inside `mark`.
        unsafe {
            *mark.get_unchecked_mut(q) = std::hint::select_unpredictable(add, ACTIVE, RETIRED);
        }
        self.top = select(add, new, select(i == top, prev, top));
        let a = add as usize;
        self.len += a;
        self.live = self.live + a + a - 1;
        let dead = self.len - self.live;
        if dead > self.live && dead >= 64 {
            (self.len, self.top) = Active::compact(self.len, self.end, stack, link, mark);
        }
    }

    /// Keep the live entries of the list of `len` entries (sentinel `end`), in order, at the
    /// front, and relink them; returns the new length and last live entry. Values in and out,
    /// not `&mut self`: a list whose address goes to a call out of line lives in memory, and
    /// every step loaded and stored its fields (10 of 447 instructions per cell at 64×64,
    /// `benches/counts.sh`).
    #[cold]
    fn compact(
        len: usize,
        end: usize,
        stack: &mut [u64],
        link: &mut [u32],
        mark: &[u8],
    ) -> (usize, usize) {
        assert!(len <= stack.len() && 2 * len <= link.len());
        let mut kept = 0;
        for r in 0..len {
            // SAFETY: `kept <= r < len <= stack.len()` (asserted above), and an entry's padded
            // index is a grid cell's, inside `mark`; the bound checks were half of this loop's
            // instructions.
            unsafe {
                let e = *stack.get_unchecked(r);
                *stack.get_unchecked_mut(kept) = e;
                kept += (*mark.get_unchecked(padded(e)) != RETIRED) as usize;
            }
        }
        // The kept entries are linked in order: entry `k`'s neighbours are `k + 1` and `k - 1`
        // (the ends fixed below), written in a loop of their own, which vectorizes.
        for (k, pair) in link[..2 * kept].chunks_exact_mut(2).enumerate() {
            pair[0] = k as u32 + 1;
            pair[1] = (k as u32).wrapping_sub(1);
        }
        if kept == 0 {
            link[2 * end] = end as u32;
            link[2 * end + 1] = end as u32;
            (0, end)
        } else {
            link[1] = end as u32;
            link[2 * (kept - 1)] = end as u32;
            link[2 * end] = 0;
            link[2 * end + 1] = kept as u32 - 1;
            (kept, kept - 1)
        }
    }
}

/// Carve a perfect maze by the growing-tree method, taking the newest cell with probability
/// `newest` and otherwise a random one, on topology `T`. Always inlined into the policy
/// dispatch: left to the compiler, it may be called out of line, which costs about 6% more
/// instructions per 64×64 maze (`benches/counts.sh`).
///
/// The batch's generator runs on a copy in locals, stored back once: the same draws. Through
/// `rng` its state stayed in memory, and each of a step's three draws loaded and stored its
/// four words.
#[inline(always)]
pub(crate) fn generate<T: Topology, R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
    newest: f64,
) {
    with_local_rng!(rng, |r| grow::<T, _>(maze, s, r, newest))
}

/// The loop of [`generate`].
#[inline(always)]
fn grow<T: Topology, R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, newest: f64) {
    let start = random_cell(maze, rng);
    let n = maze.cells() as usize;
    let (t, ps) = marks_and_free_masks::<T>(maze, s, start);
    let mut walls = maze.wall_writer();
    let mut active = Active::start(
        &mut s.stack,
        &mut s.cells,
        n,
        &mut s.mark,
        ps,
        start,
        newest,
    );
    let (stack, link, mark) = (&mut s.stack[..], &mut s.cells[..], &mut s.mark[..]);
    let free = &mut s.sides[..];
    while active.live > 0 {
        let i = active.pick(stack, mark, rng);
        let e = stack[i];
        let p = (e >> 32) as u32;
        let c = e as u32;
        // SAFETY: an entry's cell is a grid cell (the first cell or a free neighbour it
        // joined from), and `free` the padded array's masks.
        let (opts, k) = unsafe { free_options(free, p) };
        let add = k > 0;
        // With no option, `opts` is 0: direction 0, whose wall stays shut and whose cell is
        // not written.
        let d = free_option(opts, rng.choose_flat(k));
        walls.open_if(t.wall(c, d), add);
        let (np, nc) = (p.wrapping_add(t.step(d)), c.wrapping_add(t.cell_step(d)));
        // The joining cell, or when retiring `p` again (it was taken out when it joined): no
        // branch.
        // SAFETY: `np` is a free neighbour of `p` when adding, a grid cell; `p` is one.
        unsafe { t.visit(free, std::hint::select_unpredictable(add, np, p)) };
        active.step(stack, link, mark, add, i, np, nc);
    }
}
