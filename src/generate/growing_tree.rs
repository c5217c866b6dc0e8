//! Growing tree: keep a list of active cells; pick one by the [`Policy`], carve to a random
//! unvisited neighbour and add it to the list, or retire the picked cell when it has none.
//! `newest` behaves like the backtracker, `random` like Prim, `oldest` grows long straight
//! spokes from the start, `mix:P` takes the newest with probability `P`, otherwise a random one.
//!
//! Choices: the start cell is uniform (`below(W·H)`, one division per maze for its column);
//! neighbour choice is an unbiased `below(k)` over the unvisited neighbours listed east, south,
//! west, north. Retiring a cell from the middle of the list must keep the order (`newest` in
//! a mix means the most recently added live cell), and removing from the middle of a `Vec` is
//! linear, so retirement is lazy: the cell is marked retired in `mark` (2), retired entries are
//! skipped at the ends (newest/oldest) or rejected and redrawn (random, which keeps the pick
//! uniform over live cells), and the list is compacted in order once retired entries
//! outnumber live ones. Everything stays amortised O(1) per cell. `newest`, `oldest` and
//! `random` draw only with `below`; `mix:P` also draws `unit_f64` (sampled, not enumerable).
//!
//! Speed: cells live on the padded byte array of [`super::padded`] ([`super::padded::padded_marks`], border
//! outside), list entries carry the padded index next to the cell id, neighbour options are
//! collected without branches and walls are opened through the wall-id steps of [`crate::grid::Size::wall_id_steps`], so the loop
//! has no coordinate arithmetic and no border tests.

use super::padded::{padded_marks_steps_of, random_cell, FREE, IN_TREE as VISITED};
use super::shared::{option, options4};
use super::{Policy, Scratch};
use crate::grid::Maze;
use crate::rng::{Chance, RandomSource};

/// In the list (a maze cell that may still have unvisited neighbours).
const ACTIVE: u8 = VISITED;
/// Taken out of the list (lazily: its entry stays until skipped or compacted away).
pub(super) const RETIRED: u8 = 3;

/// The padded index of a list entry (`padded << 32 | cell`).
#[inline]
pub(super) fn padded(e: u64) -> usize {
    (e >> 32) as usize
}

/// The active list's bookkeeping with lazy retirement, shared by the 2D and 3D paths: entries
/// (`padded << 32 | cell`) live in a buffer of `Scratch::stack` with their own length (every
/// cell enters the list once, so [`Active::start`] sizes it to the cell count once and it never
/// grows), retired ones are marked [`RETIRED`] in `Scratch::mark` and skipped, rejected or
/// compacted away. A plain slice and a length in a register, not a `Vec` reached through
/// `&mut Scratch`, whose pointer and length the compiler reloaded after every store.
pub(super) struct Active {
    /// Entries before `head` are retired.
    head: usize,
    /// Entries in the list (live and retired).
    len: usize,
    /// Live entries.
    live: usize,
    /// Retired entries at or after `head`.
    dead: usize,
    /// `mix:P`'s chance of taking the newest cell (unused by the other policies).
    newest: Chance,
}

impl Active {
    /// The list holding just the start cell (padded `p`, cell `c`), marked active, for picks
    /// by `policy`, in `stack`, grown to hold `cells` entries.
    #[inline(always)]
    pub(super) fn start(
        stack: &mut Vec<u64>,
        cells: usize,
        mark: &mut [u8],
        p: u32,
        c: u32,
        policy: Policy,
    ) -> Active {
        if stack.len() < cells {
            // A fresh zeroed allocation, not `resize`: large ones come as untouched zero
            // pages, so memory is only taken as the list grows into it (as a `Vec` would).
            *stack = vec![0; cells];
        }
        let mut active = Active {
            head: 0,
            len: 0,
            live: 0,
            dead: 0,
            newest: Chance::new(match policy {
                Policy::Mix(p) => p,
                _ => 0.0,
            }),
        };
        active.push(stack, mark, p, c);
        active
    }

    /// Is any cell still active?
    #[inline(always)]
    pub(super) fn any(&self) -> bool {
        self.live > 0
    }

    /// The index of the entry the policy picks next (skipping or redrawing retired ones).
    #[inline(always)]
    pub(super) fn pick<R: RandomSource>(
        &mut self,
        stack: &[u64],
        mark: &[u8],
        policy: Policy,
        rng: &mut R,
    ) -> usize {
        let newest = match policy {
            Policy::Newest => true,
            Policy::Oldest | Policy::Random => false,
            Policy::Mix(_) => rng.unit_below(self.newest),
        };
        if newest {
            while mark[padded(stack[self.len - 1])] == RETIRED {
                self.len -= 1;
                self.dead -= 1;
            }
            self.len - 1
        } else if policy == Policy::Oldest {
            while mark[padded(stack[self.head])] == RETIRED {
                self.head += 1;
                self.dead -= 1;
            }
            self.head
        } else {
            let span = (self.len - self.head) as u32;
            loop {
                let i = self.head + rng.choose(span) as usize;
                if mark[padded(stack[i])] != RETIRED {
                    break i;
                }
            }
        }
    }

    /// Retire the cell at padded index `p` (it has no free neighbour left); compact the list in
    /// order once retired entries outnumber live ones.
    #[inline(always)]
    pub(super) fn retire(&mut self, stack: &mut [u64], mark: &mut [u8], p: u32) {
        mark[p as usize] = RETIRED;
        self.live -= 1;
        self.dead += 1;
        if self.dead > self.live && self.dead >= 64 {
            // Keep the live entries after `head`, in order, at the front.
            let mut kept = 0;
            for r in self.head..self.len {
                let e = stack[r];
                stack[kept] = e;
                kept += (mark[padded(e)] != RETIRED) as usize;
            }
            self.len = kept;
            self.head = 0;
            self.dead = 0;
        }
    }

    /// Add the entry of a newly joined cell (padded `p`, cell `c`), marked active.
    #[inline(always)]
    pub(super) fn push(&mut self, stack: &mut [u64], mark: &mut [u8], p: u32, c: u32) {
        mark[p as usize] = ACTIVE;
        stack[self.len] = (p as u64) << 32 | c as u64;
        self.len += 1;
        self.live += 1;
    }
}

/// Carve a perfect maze by the growing-tree method with the given selection policy.
pub fn generate<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, policy: Policy) {
    // One copy of the loop per policy, so the pick has no match on the policy per step.
    match policy {
        Policy::Newest => grow(maze, s, rng, Policy::Newest),
        Policy::Oldest => grow(maze, s, rng, Policy::Oldest),
        Policy::Random => grow(maze, s, rng, Policy::Random),
        Policy::Mix(p) => grow(maze, s, rng, Policy::Mix(p)),
    }
}

/// The loop of [`generate`], inlined into each policy's arm.
#[inline(always)]
fn grow<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R, policy: Policy) {
    let w = maze.width();
    let start = random_cell(maze, rng);
    let n = maze.cells();
    let pw = w + 2;
    let dp = padded_marks_steps_of(&mut s.mark, maze);
    let size = maze.size();
    let dc = size.cell_steps();
    let wb = size.wall_id_steps();
    let mut walls = maze.wall_writer();
    let ps = (start / w + 1) * pw + start % w + 1;
    let mut active = Active::start(&mut s.stack, n as usize, &mut s.mark, ps, start, policy);
    let (stack, mark) = (&mut s.stack[..], &mut s.mark[..]);
    while active.any() {
        let i = active.pick(stack, mark, policy, rng);
        let e = stack[i];
        let p = (e >> 32) as u32;
        let c = e as u32;
        let (opts, k) = options4(mark, &dp, p, FREE);
        if k == 0 {
            active.retire(stack, mark, p);
            continue;
        }
        let d = option(opts, rng.choose(k)) as usize;
        walls.open(size.east_wall_id(c).wrapping_add(wb[d]));
        let (np, nc) = (p.wrapping_add(dp[d]), c.wrapping_add(dc[d]));
        active.push(stack, mark, np, nc);
    }
}
